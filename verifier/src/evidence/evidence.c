/* evidence.c - see evidence.h. */
#include "evidence.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

const char *const evidence_required_keys[] = {
	"lesson", "program", "source-sha256", "build", "run", "gpu", "compute-capability",
	"driver", "cuda", "captured", "node", "exit", "body-sha256", NULL,
};

static int problem(struct evidence_problem *prob, enum diag_kind kind, size_t line, size_t col,
		   const char *fmt, ...) PRINTF_LIKE(5, 6);

static int problem(struct evidence_problem *prob, enum diag_kind kind, size_t line, size_t col,
		   const char *fmt, ...)
{
	prob->kind = kind;
	prob->line = line;
	prob->col = col;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(prob->message, sizeof prob->message, fmt, ap);
	va_end(ap);
	return -2;
}

/* A key's bytes: a-z, 0-9, '-' and '.' ('.' joins a key to a run's name:
 * run.racecheck, exit.racecheck). */
static bool is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

static bool is_hex64(const char *s)
{
	if (strlen(s) != SHA256_HEX_LEN)
		return false;
	for (const char *p = s; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
			return false;
	return true;
}

/* "stdout: 34" -> 34.  The count must be plain decimal digits. */
static bool parse_count(const char *s, size_t len, const char *key, size_t *count)
{
	size_t k = strlen(key);
	if (len < k + 3 || memcmp(s, key, k) != 0 || s[k] != ':' || s[k + 1] != ' ')
		return false;
	size_t v = 0;
	for (size_t i = k + 2; i < len; i++) {
		if (s[i] < '0' || s[i] > '9' || v > 100000000)
			return false;
		v = v * 10 + (size_t)(s[i] - '0');
	}
	*count = v;
	return true;
}

static int check_header(struct evidence *ev, struct evidence_problem *prob)
{
	for (const char *const *k = evidence_required_keys; *k; k++)
		if (!evidence_get(ev, *k, NULL))
			return problem(prob, D_EVIDENCE_MALFORMED, ev->stdout_line, 1,
				       "required header field '%s' is missing", *k);
	size_t line = 0;
	const char *v = evidence_get(ev, "source-sha256", &line);
	if (!is_hex64(v))
		return problem(prob, D_EVIDENCE_MALFORMED, line, 16, "source-sha256 is not 64 lowercase hex digits");
	v = evidence_get(ev, "body-sha256", &line);
	if (!is_hex64(v))
		return problem(prob, D_EVIDENCE_MALFORMED, line, 14, "body-sha256 is not 64 lowercase hex digits");
	char date[11];
	if (!evidence_captured_date(ev, date)) {
		evidence_get(ev, "captured", &line);
		return problem(prob, D_EVIDENCE_MALFORMED, line, 11,
			       "captured is not a UTC time like 2026-11-30T10:05:12Z");
	}
	return 0;
}

static int parse_more_runs(struct evidence *ev, struct evidence_problem *prob, size_t after);
static int first_run(struct evidence *ev, struct evidence_problem *prob);

/* A chunk of header text: the fields' key and value blocks, one after
 * another (a header of the course's 36 fields fits one). */
#define EVIDENCE_CHUNK 2048
struct evidence_chunk {
	struct evidence_chunk *prev;
	size_t used, size;
	char data[];
};

/* need bytes for a field's key and value, in ev's newest chunk or a new
 * one (a line longer than a chunk gets one of its own size). */
static char *field_block(struct evidence *ev, size_t need)
{
	struct evidence_chunk *c = ev->chunks;
	if (!c || c->size - c->used < need) {
		size_t size = need > EVIDENCE_CHUNK ? need : EVIDENCE_CHUNK;
		c = xmalloc(sizeof *c + size);
		c->prev = ev->chunks;
		c->used = 0;
		c->size = size;
		ev->chunks = c;
	}
	char *p = c->data + c->used;
	c->used += need;
	return p;
}

int evidence_parse(struct evidence *ev, struct evidence_problem *prob)
{
	const struct textfile *tf = &ev->tf;
	size_t len;
	const char *s = textfile_line(tf, 1, &len);
	if (tf->n_lines == 0)
		return problem(prob, D_EVIDENCE_TRUNCATED, 1, 1, "evidence file is empty");
	if (len != strlen(EVIDENCE_MAGIC) || memcmp(s, EVIDENCE_MAGIC, len) != 0)
		return problem(prob, D_EVIDENCE_MALFORMED, 1, 1, "first line is not '%s'", EVIDENCE_MAGIC);

	/* room in the key map for a usual header (the course's have about
	 * 36 fields) from the start: no rehash as it fills */
	strmap_reserve(&ev->keys, 48);
	size_t cap = 0, n = 2;
	ev->fields = xgrow(ev->fields, &cap, 48, sizeof *ev->fields); /* and the fields, grown only past it */
	for (;; n++) {
		if (n > tf->n_lines)
			return problem(prob, D_EVIDENCE_TRUNCATED, tf->n_lines, 1,
				       "the header has no 'stdout: N' line: the file ends at line %zu", tf->n_lines);
		s = textfile_line(tf, n, &len);
		/* most keys do not start with 's': one byte looked at before the
		 * two compares with the stdout line */
		bool may_be_stdout = len && s[0] == 's';
		if (may_be_stdout && parse_count(s, len, "stdout", &ev->n_stdout))
			break;
		if (may_be_stdout && str_starts_with(s, len, "stdout:"))
			return problem(prob, D_EVIDENCE_MALFORMED, n, 1,
				       "the stdout line count must be a plain number ('stdout: 34')");
		size_t k = 0;
		while (k < len && is_key_char(s[k]))
			k++;
		if (k == 0 || k + 1 >= len || s[k] != ':' || s[k + 1] != ' ')
			return problem(prob, D_EVIDENCE_MALFORMED, n, k + 1,
				       "header line is not 'key: value' (key in lowercase letters, digits, - and .)");
		/* key and value in one block, the line copied whole and its
		 * ": " and end written as the two NULs (one copy, not two), the
		 * blocks packed into a few chunks: not an allocation a field */
		char *key = field_block(ev, len + 1);
		memcpy(key, s, len);
		key[k] = '\0';
		key[len] = '\0';
		/* the key set is a hash map (a repeat check against every earlier
		 * key was quadratic in the number of fields), and the add is the
		 * repeat check: a key there already is not added */
		if (!strmap_add(&ev->keys, key, k, ev->n_fields, NULL)) {
			return problem(prob, D_EVIDENCE_MALFORMED, n, 1, "header field '%.*s' is repeated",
				       (int)k, s);
		}
		ev->fields = xgrow(ev->fields, &cap, ev->n_fields + 1, sizeof *ev->fields);
		ev->fields[ev->n_fields] = (struct evidence_field){key, key + k + 2, n};
		ev->n_fields++;
	}
	ev->stdout_line = n;
	ev->body_offset = tf->line_start[n - 1];
	ev->stdout_first = n + 1;
	ev->stderr_line = ev->stdout_first + ev->n_stdout;
	/* the stdout lines end at stderr_line - 1: past the file's end they
	 * were cut; at its end, only the 'stderr: M' line is missing */
	if (ev->stderr_line - 1 > tf->n_lines)
		return problem(prob, D_EVIDENCE_TRUNCATED, tf->n_lines, 1,
			       "stdout counts %zu lines but the file ends after %zu of them", ev->n_stdout,
			       tf->n_lines - ev->stdout_line);
	if (ev->stderr_line > tf->n_lines)
		return problem(prob, D_EVIDENCE_TRUNCATED, tf->n_lines, 1,
			       "the file ends before its 'stderr: M' line");
	s = textfile_line(tf, ev->stderr_line, &len);
	if (!parse_count(s, len, "stderr", &ev->n_stderr))
		return problem(prob, D_EVIDENCE_MALFORMED, ev->stderr_line, 1,
			       "expected 'stderr: M' after the %zu stdout lines", ev->n_stdout);
	ev->stderr_first = ev->stderr_line + 1;
	size_t last = ev->stderr_line + ev->n_stderr;
	if (last > tf->n_lines)
		return problem(prob, D_EVIDENCE_TRUNCATED, tf->n_lines, 1,
			       "stderr counts %zu lines but the file ends after %zu of them", ev->n_stderr,
			       tf->n_lines - ev->stderr_line);
	int r = first_run(ev, prob);
	if (r == 0 && ev->n_runs > 1)
		r = parse_more_runs(ev, prob, last);
	else if (r == 0 && last < tf->n_lines)
		return problem(prob, D_EVIDENCE_MALFORMED, last + 1, 1,
			       "text after the %zu stderr lines the header counts", ev->n_stderr);
	if (r != 0)
		return r;
	if (tf->len == 0 || tf->data[tf->len - 1] != '\n')
		return problem(prob, D_EVIDENCE_TRUNCATED, tf->n_lines, 1,
			       "the last line has no newline: the file was cut short");
	return check_header(ev, prob);
}

/* ---- several runs ---- */

#define MAX_RUNS 64

static bool is_run_name(const char *s, size_t len)
{
	if (len == 0 || len > 32 || s[0] < 'a' || s[0] > 'z')
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return false;
	return true;
}

static int keyed_exit(const struct evidence *ev, const char *key, int *out)
{
	const char *v = evidence_get(ev, key, NULL);
	*out = 0;
	if (!v)
		return 0;
	long e = 0;
	for (const char *p = v; *p; p++) {
		if (*p < '0' || *p > '9' || e > 255)
			return -1;
		e = e * 10 + (*p - '0');
	}
	if (!*v || e > 255)
		return -1;
	*out = (int)e;
	return 0;
}

/* The runs: header (or "main"), and the first run from the plain fields. */
static int first_run(struct evidence *ev, struct evidence_problem *prob)
{
	size_t line = 0;
	const char *names = evidence_get(ev, "runs", &line);
	const char *p = names ? names : "main";
	/* as many runs as the names (one more than the spaces, at most one
	 * past MAX_RUNS so that the limit below still refuses), not MAX_RUNS
	 * zeroed for the one run of most evidence */
	size_t room = 1;
	for (const char *q = p; *q && room <= MAX_RUNS; q++)
		room += *q == ' ';
	ev->runs = xcalloc(room, sizeof *ev->runs);
	while (*p) {
		size_t k = strcspn(p, " ");
		if (!is_run_name(p, k) || ev->n_runs == MAX_RUNS)
			return problem(prob, D_EVIDENCE_MALFORMED, line, 7,
				       "runs: must list at most %d run names (lowercase letters, digits, -) "
				       "separated by one space", MAX_RUNS);
		for (size_t i = 0; i < ev->n_runs; i++)
			if (strlen(ev->runs[i].name) == k && memcmp(ev->runs[i].name, p, k) == 0)
				return problem(prob, D_EVIDENCE_MALFORMED, line, 7, "runs: names '%.*s' twice", (int)k, p);
		ev->runs[ev->n_runs++].name = xstrndup(p, k);
		p += k;
		if (*p == ' ')
			p++;
	}
	if (ev->n_runs == 0)
		return problem(prob, D_EVIDENCE_MALFORMED, line, 7, "runs: names no run");
	struct evidence_run *r = &ev->runs[0];
	r->command = evidence_get(ev, "run", NULL);
	r->exit = evidence_get(ev, "exit", NULL);
	if (keyed_exit(ev, "expect-exit", &r->expect_exit) != 0) {
		evidence_get(ev, "expect-exit", &line);
		return problem(prob, D_EVIDENCE_MALFORMED, line, 14, "expect-exit is not an exit status (0-255)");
	}
	r->stdout_line = ev->stdout_line;
	r->stdout_first = ev->stdout_first;
	r->n_stdout = ev->n_stdout;
	r->stderr_line = ev->stderr_line;
	r->stderr_first = ev->stderr_first;
	r->n_stderr = ev->n_stderr;
	return 0;
}

/* "PREFIX.NAME" into key, as snprintf("%s.%s") wrote it (a tenth of its
 * cost, five a run): the longest, "expect-exit." and a run name of at
 * most 32 bytes (is_run_name), fits, and a longer one is cut as snprintf
 * cut it. */
static void join_key(char key[64], const char *prefix, const char *name)
{
	size_t np = strlen(prefix), nn = strlen(name);
	if (np > 62)
		np = 62;
	if (np + 1 + nn > 63)
		nn = 63 - np - 1;
	memcpy(key, prefix, np);
	key[np] = '.';
	memcpy(key + np + 1, name, nn);
	key[np + 1 + nn] = '\0';
}

/* "stdout.NAME: N" at line n, then N lines; returns the line after. */
static int section(struct evidence *ev, struct evidence_problem *prob, size_t n, const char *stream,
		   const char *name, size_t *count, size_t *next)
{
	const struct textfile *tf = &ev->tf;
	char key[64];
	join_key(key, stream, name);
	if (n > tf->n_lines)
		return problem(prob, D_EVIDENCE_TRUNCATED, tf->n_lines, 1,
			       "the file ends before its '%s: N' section of run '%s'", key, name);
	size_t len;
	const char *s = textfile_line(tf, n, &len);
	if (!parse_count(s, len, key, count))
		return problem(prob, D_EVIDENCE_MALFORMED, n, 1, "expected '%s: N' (the runs: line names run '%s')",
			       key, name);
	if (n + *count > tf->n_lines)
		return problem(prob, D_EVIDENCE_TRUNCATED, tf->n_lines, 1,
			       "%s counts %zu lines but the file ends after %zu of them", key, *count,
			       tf->n_lines - n);
	*next = n + 1 + *count;
	return 0;
}

static int parse_more_runs(struct evidence *ev, struct evidence_problem *prob, size_t after)
{
	size_t n = after + 1;
	for (size_t i = 1; i < ev->n_runs; i++) {
		struct evidence_run *r = &ev->runs[i];
		char key[64];
		join_key(key, "run", r->name);
		r->command = evidence_get(ev, key, NULL);
		join_key(key, "exit", r->name);
		r->exit = evidence_get(ev, key, NULL);
		if (!r->command || !r->exit)
			return problem(prob, D_EVIDENCE_MALFORMED, ev->stdout_line, 1,
				       "run '%s' has no %s header field", r->name, r->command ? key : "run.NAME");
		join_key(key, "expect-exit", r->name);
		if (keyed_exit(ev, key, &r->expect_exit) != 0)
			return problem(prob, D_EVIDENCE_MALFORMED, ev->stdout_line, 1,
				       "%s is not an exit status (0-255)", key);
		r->stdout_line = n;
		int e = section(ev, prob, n, "stdout", r->name, &r->n_stdout, &n);
		if (e == 0) {
			r->stdout_first = r->stdout_line + 1;
			r->stderr_line = n;
			e = section(ev, prob, n, "stderr", r->name, &r->n_stderr, &n);
			r->stderr_first = r->stderr_line + 1;
		}
		if (e != 0)
			return e;
	}
	if (n <= ev->tf.n_lines)
		return problem(prob, D_EVIDENCE_MALFORMED, n, 1, "text after the last run's sections");
	return 0;
}

int evidence_load(const char *fspath, const char *display, struct evidence *ev,
		  struct evidence_problem *prob, const char **why)
{
	memset(ev, 0, sizeof *ev);
	if (textfile_read(fspath, display, &ev->tf, why) != 0)
		return -1;
	if (ev->tf.has_nul)
		return problem(prob, D_EVIDENCE_MALFORMED, 1, 1, "the file holds a NUL byte: it is not text");
	return evidence_parse(ev, prob);
}

void evidence_free(struct evidence *ev)
{
	while (ev->chunks) { /* every key and value */
		struct evidence_chunk *prev = ev->chunks->prev;
		free(ev->chunks);
		ev->chunks = prev;
	}
	free(ev->fields);
	for (size_t i = 0; i < ev->n_runs; i++)
		free(ev->runs[i].name);
	free(ev->runs);
	free(ev->header_lines);
	strmap_free(&ev->keys);
	textfile_free(&ev->tf);
	memset(ev, 0, sizeof *ev);
}

const char *evidence_get(const struct evidence *ev, const char *key, size_t *line)
{
	size_t i;
	if (!strmap_get(&ev->keys, key, strlen(key), &i))
		return NULL;
	if (line)
		*line = ev->fields[i].line;
	return ev->fields[i].value;
}

const char *evidence_stdout(const struct evidence *ev, size_t k, size_t *len)
{
	return textfile_line(&ev->tf, ev->stdout_first + k, len);
}

bool evidence_body_intact(const struct evidence *ev, char actual[SHA256_HEX_LEN + 1])
{
	sha256_hex(ev->tf.data + ev->body_offset, ev->tf.len - ev->body_offset, actual);
	const char *want = evidence_get(ev, "body-sha256", NULL);
	return want && strcmp(want, actual) == 0;
}

bool evidence_captured_date(const struct evidence *ev, char out[11])
{
	const char *v = evidence_get(ev, "captured", NULL);
	if (!v || strlen(v) != 20)
		return false;
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
	for (int i = 0; i < 20; i++) {
		if (shape[i] == 'd' ? (v[i] < '0' || v[i] > '9') : v[i] != shape[i])
			return false;
	}
	memcpy(out, v, 10);
	out[10] = '\0';
	return true;
}

static bool ended_as_expected(const struct evidence_run *r)
{
	char want[12];
	snprintf(want, sizeof want, "%d", r->expect_exit);
	return r->exit && strcmp(r->exit, want) == 0;
}

const struct evidence_run *evidence_failed_run(const struct evidence *ev)
{
	const char *failed = evidence_get(ev, "expect-failed", NULL);
	for (size_t i = 0; i < ev->n_runs; i++)
		if (!ended_as_expected(&ev->runs[i]) || (failed && strcmp(failed, ev->runs[i].name) == 0))
			return &ev->runs[i];
	return failed && ev->n_runs ? &ev->runs[0] : NULL;
}

bool evidence_exit_ok(const struct evidence *ev)
{
	if (ev->n_runs == 0) { /* not parsed (a test's hand-made struct) */
		const char *v = evidence_get(ev, "exit", NULL);
		return v && strcmp(v, "0") == 0;
	}
	return evidence_failed_run(ev) == NULL;
}

const struct evidence_run *evidence_run_named(const struct evidence *ev, const char *name)
{
	if (!name || !*name)
		return ev->n_runs ? &ev->runs[0] : NULL;
	for (size_t i = 0; i < ev->n_runs; i++)
		if (strcmp(ev->runs[i].name, name) == 0)
			return &ev->runs[i];
	return NULL;
}

const char *evidence_run_line(const struct evidence *ev, const struct evidence_run *r, bool err, size_t k,
			      size_t *len)
{
	return textfile_line(&ev->tf, (err ? r->stderr_first : r->stdout_first) + k, len);
}
