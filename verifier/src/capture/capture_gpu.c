/* capture_gpu.c - see capture_gpu.h. */
#include "capture_gpu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture_proc.h"
#include "util.h"

#define TOOL_LIMIT_S 60.0
/* Sampling happens inside the scheduler's loop, which it holds up. */
#define SAMPLE_LIMIT_S 10.0

/* ---- small text helpers ---- */

static bool all_digits(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* 40 (SHA-1) or 64 (SHA-256) lowercase hex digits: a git object name. */
static bool is_object_name(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");
	return s[n] == '\0' && (n == 40 || n == 64);
}

/* A copy of [s, s+n) trimmed, with control characters made '?' so that a
 * value can never break an evidence header line. */
static char *clean_copy(const char *s, size_t n)
{
	size_t a = 0, b = n;
	str_trim(s, &a, &b);
	while (b > a && (s[b - 1] == '\r' || s[b - 1] == '\n'))
		b--;
	char *c = xstrndup(s + a, b - a);
	for (char *p = c; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return c;
}

/* The first line of text (trimmed, cleaned), or "" when text is empty. */
static char *first_line(const char *text)
{
	const char *p = text;
	while (*p == '\n' || *p == '\r' || *p == ' ')
		p++;
	size_t n = strcspn(p, "\r\n");
	return clean_copy(p, n);
}

/* Why a tool that ran did not succeed: its status and first output line. */
static char *tool_failure(const char *tool, int wstatus, const struct buf *out, const struct buf *err)
{
	char *said = first_line(err->len ? err->s : out->s);
	char *status = WIFEXITED(wstatus) ? xasprintf("exit %d", WEXITSTATUS(wstatus))
					  : xasprintf("signal %d", WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0);
	char *why = *said ? xasprintf("%s failed (%s): %s", tool, status, said)
			  : xasprintf("%s failed (%s)", tool, status);
	free(said);
	free(status);
	return why;
}

/* Runs a tool and requires status 0.  out receives its stdout. */
static int ask_within(char *const argv[], const char *dir, double limit, struct buf *out, char **why)
{
	struct buf err = {0};
	int wstatus = 0;
	int r = proc_tool(argv, dir, limit, out, &err, &wstatus, why);
	if (r == 0 && !(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)) {
		*why = tool_failure(argv[0], wstatus, out, &err);
		r = -1;
	}
	buf_free(&err);
	return r;
}

static int ask(char *const argv[], const char *dir, struct buf *out, char **why)
{
	return ask_within(argv, dir, TOOL_LIMIT_S, out, why);
}

/* ---- nvidia-smi ---- */

/* "0, NVIDIA H200, 9.0, 580.159.04, 143771": the index is before the first
 * comma and the last three fields after the last three, so a comma in a
 * GPU name cannot shift the fields. */
static bool parse_gpu_line(const char *s, size_t n, struct gpu *g)
{
	memset(g, 0, sizeof *g);
	const char *c1 = memchr(s, ',', n);
	const char *c[3] = {NULL, NULL, NULL};
	int found = 0;
	for (const char *p = s + n; p > s && found < 3;) {
		p--;
		if (*p == ',')
			c[2 - found++] = p;
	}
	if (!c1 || found < 3 || c1 >= c[0])
		return false;
	size_t a = 0, b = (size_t)(c1 - s);
	str_trim(s, &a, &b);
	if (!all_digits(s + a, b - a) || b - a > 4)
		return false;
	g->index = atoi(s + a);
	g->name = clean_copy(c1 + 1, (size_t)(c[0] - c1 - 1));
	g->cc = clean_copy(c[0] + 1, (size_t)(c[1] - c[0] - 1));
	g->driver = clean_copy(c[1] + 1, (size_t)(c[2] - c[1] - 1));
	char *mem = clean_copy(c[2] + 1, (size_t)(s + n - c[2] - 1));
	if (all_digits(mem, strlen(mem)))
		g->memory = xasprintf("%s MiB", mem);
	free(mem); /* "[N/A]": the memory line is left out */
	bool cc_ok = strlen(g->cc) >= 3 && strchr(g->cc, '.') && g->cc[0] >= '0' && g->cc[0] <= '9';
	return *g->name && cc_ok && *g->driver && g->name[0] != '[' && g->driver[0] != '[';
}

static void gpu_free(struct gpu *g)
{
	free(g->name);
	free(g->cc);
	free(g->driver);
	free(g->memory);
	free(g->sm_count);
}

static bool wanted(int index, const int *only, size_t n_only)
{
	if (!only)
		return true;
	for (size_t i = 0; i < n_only; i++)
		if (only[i] == index)
			return true;
	return false;
}

static int read_gpus(struct machine *m, const int *only, size_t n_only, char **why)
{
	char *argv[] = {"nvidia-smi", "--query-gpu=index,name,compute_cap,driver_version,memory.total",
			"--format=csv,noheader,nounits", NULL};
	struct buf out = {0};
	if (ask(argv, NULL, &out, why) != 0) {
		buf_free(&out);
		return -1;
	}
	size_t cap = 0;
	for (const char *p = out.s; *p;) {
		size_t n = strcspn(p, "\n");
		struct gpu g;
		if (!str_is_blank(p, n)) {
			if (!parse_gpu_line(p, n, &g)) {
				char *line = clean_copy(p, n);
				*why = xasprintf("nvidia-smi printed a GPU line capture cannot read: '%s'", line);
				free(line);
				gpu_free(&g);
				buf_free(&out);
				return -1;
			}
			if (wanted(g.index, only, n_only)) {
				m->gpus = xgrow(m->gpus, &cap, m->n_gpus + 1, sizeof *m->gpus);
				m->gpus[m->n_gpus++] = g;
			} else {
				gpu_free(&g);
			}
		}
		p += n + (p[n] ? 1 : 0);
	}
	buf_free(&out);
	if (m->n_gpus == 0) {
		*why = xstrdup(only ? "nvidia-smi lists none of the GPUs CUDA_VISIBLE_DEVICES names"
				    : "nvidia-smi lists no GPU");
		return -1;
	}
	return 0;
}

/* nvidia-smi has no SM count field today; should one appear under this
 * name it is used, and otherwise the sm-count line is left out. */
static void read_sm_counts(struct machine *m)
{
	char *argv[] = {"nvidia-smi", "--query-gpu=index,multiprocessor_count", "--format=csv,noheader,nounits",
			NULL};
	struct buf out = {0};
	char *why = NULL;
	if (ask(argv, NULL, &out, &why) != 0) {
		free(why);
		buf_free(&out);
		return;
	}
	for (const char *p = out.s; *p;) {
		size_t n = strcspn(p, "\n");
		const char *comma = memchr(p, ',', n);
		if (comma) {
			char *idx = clean_copy(p, (size_t)(comma - p));
			char *count = clean_copy(comma + 1, (size_t)(p + n - comma - 1));
			for (size_t i = 0; i < m->n_gpus; i++)
				if (all_digits(idx, strlen(idx)) && m->gpus[i].index == atoi(idx) &&
				    all_digits(count, strlen(count)) && !m->gpus[i].sm_count)
					m->gpus[i].sm_count = xstrdup(count);
			free(idx);
			free(count);
		}
		p += n + (p[n] ? 1 : 0);
	}
	buf_free(&out);
}

/* ---- nvcc ---- */

/* "Cuda compilation tools, release 13.0, V13.0.88" -> "13.0 (V13.0.88)". */
static char *parse_nvcc_version(const char *text)
{
	const char *r = strstr(text, "release ");
	if (!r)
		return NULL;
	r += strlen("release ");
	size_t rn = strcspn(r, ", \n");
	const char *v = r + rn;
	if (strncmp(v, ", V", 3) != 0 || rn == 0)
		return NULL;
	v += 2;
	size_t vn = strcspn(v, " \t\r\n");
	char *rel = clean_copy(r, rn), *ver = clean_copy(v, vn);
	char *s = xasprintf("%s (%s)", rel, ver);
	free(rel);
	free(ver);
	return s;
}

static int read_cuda(struct machine *m, char **why)
{
	char *argv[] = {"nvcc", "--version", NULL};
	struct buf out = {0};
	if (ask(argv, NULL, &out, why) != 0) {
		buf_free(&out);
		return -1;
	}
	m->cuda = parse_nvcc_version(out.s);
	buf_free(&out);
	if (!m->cuda) {
		*why = xstrdup("nvcc --version printed no 'release X.Y, VX.Y.Z' line");
		return -1;
	}
	return 0;
}

int machine_probe(struct machine *m, const int *only, size_t n_only, char **why)
{
	memset(m, 0, sizeof *m);
	if (read_gpus(m, only, n_only, why) != 0 || read_cuda(m, why) != 0) {
		machine_free(m);
		return -1;
	}
	read_sm_counts(m);
	return 0;
}

void machine_free(struct machine *m)
{
	for (size_t i = 0; i < m->n_gpus; i++)
		gpu_free(&m->gpus[i]);
	free(m->gpus);
	free(m->cuda);
	memset(m, 0, sizeof *m);
}

/* ---- host compiler, node, repository ---- */

/* The value of -ccbin / --compiler-bindir in a build line (split at
 * blanks, no shell quoting), malloc'd, or NULL. */
static char *ccbin_of(const char *line)
{
	static const char *const opts[] = {"-ccbin", "--compiler-bindir"};
	const char *p = line;
	while (*p) {
		p += strspn(p, " \t");
		size_t n = strcspn(p, " \t");
		for (size_t i = 0; i < ARRAY_LEN(opts) && n; i++) {
			size_t k = strlen(opts[i]);
			if (n > k + 1 && strncmp(p, opts[i], k) == 0 && p[k] == '=')
				return xstrndup(p + k + 1, n - k - 1);
			if (n == k && strncmp(p, opts[i], k) == 0) {
				const char *q = p + n + strspn(p + n, " \t");
				size_t m = strcspn(q, " \t");
				return m ? xstrndup(q, m) : NULL;
			}
		}
		p += n;
	}
	return NULL;
}

static char *version_line(const char *compiler)
{
	char *argv[] = {(char *)compiler, "--version", NULL};
	struct buf out = {0};
	char *why = NULL;
	char *line = NULL;
	if (ask(argv, NULL, &out, &why) == 0)
		line = first_line(out.s);
	free(why);
	buf_free(&out);
	if (line && !*line) {
		free(line);
		line = NULL;
	}
	return line;
}

char *host_compiler(const char *build_line)
{
	char *bin = ccbin_of(build_line);
	char *line = NULL;
	if (bin) {
		struct stat st;
		if (stat(bin, &st) == 0 && S_ISDIR(st.st_mode)) {
			char *gcc = xasprintf("%s/gcc", bin);
			line = version_line(gcc);
			free(gcc);
		} else {
			line = version_line(bin);
		}
		free(bin);
	}
	if (!line)
		line = version_line("gcc");
	if (!line)
		line = version_line("cc");
	return line ? line : xstrdup("unknown");
}

char *node_name(void)
{
	char host[256];
	if (gethostname(host, sizeof host) != 0)
		return xstrdup("unknown");
	host[sizeof host - 1] = '\0';
	return clean_copy(host, strlen(host));
}

char *capture_gpu_commit(const char *root, const char **dirty)
{
	char *rev[] = {"git", "rev-parse", "--verify", "-q", "HEAD", NULL};
	char *status[] = {"git", "status", "--porcelain", NULL};
	struct buf out = {0};
	char *why = NULL;
	char *commit;
	char *line = ask(rev, root, &out, &why) == 0 ? first_line(out.s) : NULL;
	if (line && is_object_name(line)) {
		commit = line;
	} else {
		free(line);
		commit = xstrdup("none"); /* no git, not a repository, or no commit yet */
	}
	free(why);
	why = NULL;
	buf_free(&out);
	if (ask(status, root, &out, &why) == 0)
		*dirty = out.len ? "yes" : "no";
	else
		*dirty = "unknown";
	free(why);
	buf_free(&out);
	return commit;
}

/* ---- other processes on a GPU ---- */

static bool pidset_has(const struct pidset *s, pid_t pid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->pids[i] == pid)
			return true;
	return false;
}

static void pidset_add(struct pidset *s, pid_t pid)
{
	if (pidset_has(s, pid))
		return;
	s->pids = xgrow(s->pids, &s->cap, s->n + 1, sizeof *s->pids);
	s->pids[s->n++] = pid;
}

void pidset_free(struct pidset *s)
{
	free(s->pids);
	memset(s, 0, sizeof *s);
}

static bool is_ours(pid_t pid, const pid_t *ours, size_t n_ours, struct pidset *known)
{
	if (pidset_has(known, pid))
		return true;
	pid_t group = getpgid(pid);
	for (size_t i = 0; i < n_ours; i++)
		if (pid == ours[i] || (group > 0 && group == ours[i])) {
			pidset_add(known, pid);
			return true;
		}
	return false;
}

int gpu_foreign_apps(int index, const pid_t *ours, size_t n_ours, struct pidset *known, pid_t *foreign,
		     char **why)
{
	*foreign = 0;
	char idx[16];
	snprintf(idx, sizeof idx, "%d", index);
	char *argv[] = {"nvidia-smi", "-i", idx, "--query-compute-apps=pid", "--format=csv,noheader", NULL};
	struct buf out = {0};
	if (ask_within(argv, NULL, SAMPLE_LIMIT_S, &out, why) != 0) {
		buf_free(&out);
		return -1;
	}
	for (const char *p = out.s; *p && !*foreign;) {
		size_t n = strcspn(p, "\n");
		size_t a = 0, b = n;
		str_trim(p, &a, &b);
		while (b > a && p[b - 1] == '\r')
			b--;
		if (b > a && !str_starts_with(p + a, b - a, "No running")) {
			/* A pid nvidia-smi cannot name ("[N/A]") cannot be shown to be ours. */
			pid_t pid = all_digits(p + a, b - a) && b - a < 10 ? (pid_t)atol(p + a) : -1;
			if (pid <= 0 || !is_ours(pid, ours, n_ours, known))
				*foreign = pid;
		}
		p += n + (p[n] ? 1 : 0);
	}
	buf_free(&out);
	return 0;
}
