/* cli_whystale.c - see cli_whystale.h. */
#include "cli_whystale.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "capture_proc.h"
#include "cli.h"
#include "cliopt.h"
#include "evidence.h"
#include "lessonfiles.h"
#include "readset.h"
#include "repo.h"
#include "srctok.h"
#include "util.h"

static const char why_stale_usage[] =
	"usage: coursecheck why-stale [OPTION...] LESSON\n"
	"  Says why the lesson's newest evidence is stale: the file that changed (or is\n"
	"  new, or gone), how the lesson's build reached it (its #include chain), and\n"
	"  the first changed code line, old and new (the old text from the evidence's\n"
	"  commit: in git).  Comments and blank space are no change (source-rule:\n"
	"  tokens-1); evidence captured before that rule can only name the file.\n"
	"  --root=DIR        the course (default: found from the current folder upward)\n"
	"  -q, --quiet       accepted, as by every command\n"
	"  --color=WHEN      auto (default), always or never\n"
	"  -h, --help        this text\n"
	"      --version     the version\n"
	"Exit status: 0 current, 1 stale, 2 usage, a lesson that cannot be read or no evidence.\n";
static const struct cliopt_cmd why_stale_cmd = {"coursecheck why-stale", why_stale_usage, "", NULL, 0};

#define INCLUDE_DEPTH 16

static size_t file_index(const struct lesson_files *f, const char *path)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->v[i].path, path) == 0)
			return i;
	return SIZE_MAX;
}

/* The lesson file an `#include "name"` of file `from` names: beside it,
 * then at the lesson's top, then in programs/common/ (a -I of the build). */
static size_t include_target(const struct lesson_files *f, const char *from, const char *name, const char *lesson)
{
	const char *slash = strrchr(from, '/');
	char *bases[3] = {xstrndup(from, slash ? (size_t)(slash - from) : 0), xasprintf("programs/%s", lesson),
			  xstrdup("programs/" LESSONFILES_COMMON)};
	size_t at = SIZE_MAX;
	for (size_t b = 0; b < 3 && at == SIZE_MAX; b++) {
		char *joined = xasprintf("%s/%s", bases[b], name);
		char *norm = repo_normalize(joined);
		at = file_index(f, norm ? norm : joined);
		free(norm);
		free(joined);
	}
	for (size_t b = 0; b < 3; b++)
		free(bases[b]);
	return at;
}

/* One step of a chain: file `from` includes `name` at `line`. */
struct step {
	size_t from, line;
	char *name;
};

/* Breadth first from the compiled sources the capture recorded, over the
 * quoted includes of the files as they are now: fills via[] (the step that
 * first reached each file) and returns true when target was reached. */
static bool reach(const struct lesson_files *f, const struct lessonfiles_entry *rec, size_t n_rec, const char *lesson,
		  size_t target, struct step *via)
{
	size_t *queue = xcalloc(f->n + 1, sizeof *queue), head = 0, tail = 0;
	bool *seen = xcalloc(f->n + 1, sizeof *seen);
	for (size_t k = 0; k < n_rec; k++) {
		size_t i = file_index(f, rec[k].path);
		const char *p = rec[k].path;
		size_t pl = strlen(p);
		bool unit = pl > 3 && (strcmp(p + pl - 3, ".cu") == 0 || strcmp(p + pl - 2, ".c") == 0 ||
				      strcmp(p + pl - 4, ".cpp") == 0 || strcmp(p + pl - 3, ".cc") == 0);
		if (i != SIZE_MAX && unit && !seen[i]) {
			seen[i] = true;
			queue[tail++] = i;
		}
	}
	while (head < tail && !seen[target]) {
		size_t cur = queue[head++];
		const struct lesson_file *lf = &f->v[cur];
		if (!lf->data)
			continue;
		struct srctok lx;
		struct srctok_token t;
		srctok_init(&lx, lf->data, lf->len);
		int state = 0; /* 1: after '#', 2: after '# include' */
		while (srctok_next(&lx, &t)) {
			if (state == 2 && t.text[0] == '"' && t.len >= 2) {
				char *name = xstrndup(t.text + 1, t.len - 2);
				size_t to = include_target(f, lf->path, name, lesson);
				if (to != SIZE_MAX && !seen[to]) {
					seen[to] = true;
					via[to] = (struct step){cur, t.line, name};
					queue[tail++] = to;
					name = NULL;
				}
				free(name);
			}
			state = t.len == 1 && t.text[0] == '#' ? 1 : state == 1 && strcmp(t.text, "include") == 0 ? 2 : 0;
		}
		srctok_free(&lx);
	}
	bool found = seen[target];
	free(queue);
	free(seen);
	return found;
}

/* How the lesson reached file i: the include chain, or what it is. */
static void print_reach(const struct lesson_files *f, const struct lessonfiles_entry *rec, size_t n_rec,
			const char *lesson, size_t i)
{
	const char *path = f->v[i].path;
	if (i == f->program) {
		printf("  how the lesson reached it: it is the program\n");
		return;
	}
	if (!srctok_is_source(path)) {
		printf("  how the lesson reached it: a data file of the lesson (every lesson file that is not a\n"
		       "    source counts: a run may open it)\n");
		return;
	}
	struct step *via = xcalloc(f->n, sizeof *via);
	if (reach(f, rec, n_rec, lesson, i, via)) {
		printf("  how the lesson reached it:\n");
		/* the chain from the target back to a compiled source, printed forward */
		size_t chain[INCLUDE_DEPTH], n = 0;
		for (size_t at = i; via[at].name && n < INCLUDE_DEPTH; at = via[at].from)
			chain[n++] = at;
		while (n-- > 0) {
			const struct step *s = &via[chain[n]];
			printf("    %s:%zu includes \"%s\"\n", f->v[s->from].path, s->line, s->name);
		}
	} else {
		printf("  how the lesson reached it: the compiler named it among the files the build read\n"
		       "    (no chain of #include \"...\" lines from the lesson's sources leads to it: a -I path?)\n");
	}
	for (size_t k = 0; k < f->n; k++)
		free(via[k].name);
	free(via);
}

/* The text of line `line` (1-based) of data, malloc'd, without its end. */
static char *line_text(const char *data, size_t len, size_t line)
{
	size_t at = 0;
	for (size_t l = 1; l < line && at < len; at++)
		if (data[at] == '\n')
			l++;
	size_t end = at;
	while (end < len && data[end] != '\n' && data[end] != '\r')
		end++;
	return xstrndup(data + at, end - at);
}

/* The file at the capture's commit, when git has it and its hash by the
 * rule is the one recorded: 0 with *old (malloc'd), or -1 with *why. */
static int old_text(const struct evidence *ev, const char *path, const char *sha, struct buf *old, char **why)
{
	const char *commit = evidence_get(ev, "commit", NULL);
	if (!commit || !*commit || strspn(commit, "0123456789abcdef") != strlen(commit)) {
		*why = xstrdup("the evidence names no commit");
		return -1;
	}
	char *spec = xasprintf("%s:%s", commit, path);
	char *argv[] = {(char *)"git", (char *)"-C", (char *)repo_root(), (char *)"show", spec, NULL};
	struct buf err = {0};
	int wstatus = 0;
	char *e = NULL;
	int r = proc_tool(argv, NULL, 30, old, &err, &wstatus, &e);
	free(spec);
	buf_free(&err);
	if (r != 0 || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) {
		*why = e ? e : xasprintf("git has no %s at commit %.12s", path, commit);
		if (e && r == 0)
			free(e);
		return -1;
	}
	char now[SHA256_HEX_LEN + 1];
	srctok_file_sha256(path, old->s, old->len, now);
	if (strcmp(now, sha) != 0) {
		*why = xasprintf("%s at commit %.12s is not the text captured (the capture's tree was dirty?)", path,
				 commit);
		return -1;
	}
	return 0;
}

/* The first token (source) or line (data) that differs, old and new. */
static void print_first_change(const char *path, const char *old, size_t old_len, const char *now, size_t now_len)
{
	if (!srctok_is_source(path)) {
		size_t line = 1, i = 0;
		while (i < old_len && i < now_len && old[i] == now[i])
			line += old[i++] == '\n';
		char *a = line_text(old, old_len, line), *b = line_text(now, now_len, line);
		printf("  first changed line: %s:%zu\n    was: %s\n    now: %s\n", path, line, a, b);
		free(a);
		free(b);
		return;
	}
	struct srctok la, lb;
	struct srctok_token ta, tb;
	srctok_init(&la, old, old_len);
	srctok_init(&lb, now, now_len);
	bool ha, hb;
	for (;;) {
		ha = srctok_next(&la, &ta);
		hb = srctok_next(&lb, &tb);
		if (!ha || !hb || ta.len != tb.len || memcmp(ta.text, tb.text, ta.len) != 0)
			break;
	}
	if (!ha && !hb) {
		printf("  its tokens are the same as captured\n");
	} else {
		size_t lo = ha ? ta.line : la.line, ln = hb ? tb.line : lb.line;
		char *a = line_text(old, old_len, lo), *b = line_text(now, now_len, ln);
		printf("  first changed code line: %s:%zu (line %zu when captured)\n    was: %s\n    now: %s\n", path, ln,
		       lo, a, b);
		printf("  first different token: %s%.*s%s is now %s%.*s%s\n", ha ? "'" : "", ha ? (int)ta.len : 0,
		       ha ? ta.text : "", ha ? "'" : "(the end of the file)", hb ? "'" : "", hb ? (int)tb.len : 0,
		       hb ? tb.text : "", hb ? "'" : "(the end of the file)");
		free(a);
		free(b);
	}
	srctok_free(&la);
	srctok_free(&lb);
}

/* The changed or gone file named in said, as recorded. */
static const struct lessonfiles_entry *named(const struct lessonfiles_entry *rec, size_t n, const char *said)
{
	for (size_t k = 0; k < n; k++) {
		size_t pl = strlen(rec[k].path);
		if (said[0] == '\'' && strncmp(said + 1, rec[k].path, pl) == 0 && said[pl + 1] == '\'')
			return &rec[k];
	}
	return NULL;
}

/* Evidence under the tokens rule: what changed, how it was reached, the line. */
static int explain_reads(const struct evidence *ev, const struct lesson_files *f, const char *lesson,
			 const char *evpath)
{
	size_t line = 0;
	char now[SHA256_HEX_LEN + 1];
	char *said = readset_changed(ev, f, &line, now);
	struct lessonfiles_entry *rec;
	size_t n = lessonfiles_entries(ev, &rec);
	const char *method = evidence_get(ev, READSET_METHOD_KEY, NULL);
	if (!said) {
		printf("%s: current: none of the %zu files its build and runs read changed (source-rule: %s, reads: "
		       "%s)\n", evpath, n, SRCTOK_RULE, method ? method : "?");
		lessonfiles_entries_free(rec, n);
		return 0;
	}
	printf("%s: stale: %s since it was captured\n", evpath, said);
	const struct lessonfiles_entry *r = named(rec, n, said);
	size_t i = r ? file_index(f, r->path) : SIZE_MAX;
	if (r && i != SIZE_MAX) {
		printf("  recorded at %s:%zu (reads: %s)\n", evpath, r->line, method ? method : "?");
		print_reach(f, rec, n, lesson, i);
		struct buf old = {0};
		char *why = NULL;
		if (old_text(ev, r->path, r->sha, &old, &why) == 0) {
			print_first_change(r->path, old.s, old.len, f->v[i].data, f->v[i].len);
		} else {
			printf("  the text as captured cannot be shown (%s): only that its %s changed can be told\n", why,
			       srctok_is_source(r->path) ? "tokens" : "bytes");
			free(why);
		}
		buf_free(&old);
	} else if (said[0] == '\'') {
		printf("  %s\n", strstr(said, "is new") ? "a new file that is not a source: a run may open it"
							 : "a file the build read is no longer in the lesson");
	}
	printf("hint: capture it again with 'make evidence LESSON=%s'\n", lesson);
	free(said);
	lessonfiles_entries_free(rec, n);
	return 1;
}

/* Older evidence: every byte of every file; only the file can be named. */
static int explain_bytes(const struct evidence *ev, const struct lesson_files *f, const char *lesson,
			 const char *evpath)
{
	size_t line = 0;
	char *said = lessonfiles_changed(ev, f, &line);
	if (!said) {
		printf("%s: current (captured before source-rule: %s: every byte of every lesson file counts)\n",
		       evpath, SRCTOK_RULE);
		return 0;
	}
	printf("%s: stale: %s since it was captured\n", evpath, said);
	printf("  captured before source-rule: %s, this evidence records every lesson file by its bytes:\n"
	       "  only which file's bytes changed can be told, not whether its code did, nor whether the\n"
	       "  build read it\n",
	       SRCTOK_RULE);
	printf("hint: capture it again with 'make evidence LESSON=%s'; the new run records what its build read\n",
	       lesson);
	free(said);
	return 1;
}

static int explain(const char *lesson)
{
	struct lesson_files f;
	char *why = NULL;
	if (lessonfiles_collect(lesson, &f, &why) != 0) {
		cli_operand_unusable(&why_stale_cmd, "%s", why);
		free(why);
		return 2;
	}
	char *newest = repo_newest_evidence(lesson);
	char *fs = NULL;
	const char *reason = NULL;
	struct evidence ev;
	struct evidence_problem prob;
	memset(&ev, 0, sizeof ev);
	int status = 2;
	if (!newest)
		cli_operand_unusable(&why_stale_cmd, "lesson '%s' has no evidence", lesson);
	else if (repo_resolve(newest, &fs, &reason) != REPO_OK || evidence_load(fs, newest, &ev, &prob, &reason) != 0)
		cli_operand_unusable(&why_stale_cmd, "%s cannot be read: %s", newest, reason ? reason : "?");
	else
		status = readset_recorded(&ev) ? explain_reads(&ev, &f, lesson, newest)
					       : explain_bytes(&ev, &f, lesson, newest);
	evidence_free(&ev);
	free(fs);
	free(newest);
	lessonfiles_free(&f);
	return status;
}

int cli_why_stale(int argc, char **argv)
{
	struct cliopt o;
	int i = cliopt_parse(argc, argv, &why_stale_cmd, &o, NULL, NULL);
	if (i < 0)
		return i == CLIOPT_DONE ? 0 : 2;
	if (argc - i != 1) {
		cliopt_usage_error(&why_stale_cmd, "takes one LESSON (%d operand%s given)", argc - i,
				   argc - i == 1 ? "" : "s");
		return 2;
	}
	if (cli_open_course(&why_stale_cmd, o.root) != 0)
		return 2;
	/* a lesson named as its folder (programs/x/ or x) */
	char *lesson = xstrdup(argv[i]);
	size_t len = strlen(lesson);
	while (len && lesson[len - 1] == '/')
		lesson[--len] = '\0';
	const char *name = strncmp(lesson, "programs/", 9) == 0 ? lesson + 9 : lesson;
	int status = explain(name);
	free(lesson);
	fflush(stdout);
	repo_close();
	return cliopt_status(status);
}
