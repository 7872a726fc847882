/* check_program.c - see check.h: a lesson program against its evidence. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lessonfiles.h"
#include "re.h"
#include "repo.h"
#include "util.h"

static struct diag_loc verified_loc(const struct program *p, size_t start, size_t end)
{
	const struct proghdr *h = &p->hdr;
	size_t a = h->verified_src[start];
	size_t b = end > start ? h->verified_src[end - 1] + 1 : a;
	return textfile_loc(&p->tf, a, b > a ? b - a : 0);
}

/* The header comment's first line (the file's first where it has none):
 * where a finding about the header as a whole points. */
static struct diag_loc header_at(const struct program *p)
{
	return textfile_loc_line(&p->tf, p->hdr.first_line ? p->hdr.first_line : 1, 0, 0);
}

static void header_line_problem(const struct program *p, const struct proghdr_value *v, const char *key)
{
	struct diag_loc at = textfile_loc_line(&p->tf, v->line ? v->line : 1, v->line ? v->col : 0, 0);
	struct diag *d;
	if (!v->text)
		d = diag_begin(D_PROGRAM_HEADER, at, "the header comment has no '%s:' line", key);
	else
		d = diag_begin(D_PROGRAM_HEADER, at, "the header comment has %zu '%s:' lines", v->count, key);
	diag_hint(d, "the header comment holds exactly one '// %s: COMMAND' line, the command capture runs", key);
	diag_end(d);
}

static void compare_command(const struct program *p, const struct proghdr_value *v, const struct evfile *ev,
			    const char *key)
{
	size_t line;
	const char *want = evidence_get(ev->ev, key, &line);
	diag_checks_add(1);
	if (!v->text || strcmp(v->text, want) == 0)
		return;
	struct diag *d = diag_begin(D_PROGRAM_BUILD_DRIFT, textfile_loc_line(&p->tf, v->line, v->col, strlen(v->text)),
				    "%s line differs from the command recorded in %s", key[0] == 'b' ? "Build:" : "Run:",
				    ev->path);
	diag_note(d, textfile_loc_line(&ev->ev->tf, line, 0, 0), "the evidence recorded %s: %s", key, want);
	diag_hint(d, "capture the lesson again so the evidence is made by the command in the header");
	diag_end(d);
}

/* The Resolution: line against what capture recorded from it.  It is a
 * comment, so the tokens rule does not make the run stale when it
 * changes; yet every claim's verdict on the run is judged by the
 * resolution the run recorded (measured.h), not by the header's. */
static void compare_resolution(const struct program *p, const struct evfile *ev)
{
	const struct proghdr_value *v = &p->hdr.resolution;
	size_t line = 0;
	const char *want = evidence_get(ev->ev, "resolution", &line);
	diag_checks_add(1);
	if ((want == NULL) == (v->text == NULL) && (!want || strcmp(want, v->text) == 0))
		return;
	struct diag *d;
	if (!v->text)
		d = diag_begin(D_PROGRAM_BUILD_DRIFT, header_at(p),
			       "%s recorded a resolution the header no longer states", ev->path);
	else if (!want)
		d = diag_begin(D_PROGRAM_BUILD_DRIFT, textfile_loc_line(&p->tf, v->line, v->col, strlen(v->text)),
			       "Resolution: line is not in %s: its run was captured without one", ev->path);
	else
		d = diag_begin(D_PROGRAM_BUILD_DRIFT, textfile_loc_line(&p->tf, v->line, v->col, strlen(v->text)),
			       "Resolution: line differs from the resolution recorded in %s", ev->path);
	if (want)
		diag_note(d, textfile_loc_line(&ev->ev->tf, line, 0, 0), "the evidence recorded resolution: %s", want);
	diag_hint(d, "capture the lesson again: a claim's verdict is judged by the resolution its run recorded");
	diag_end(d);
}

/* Header lines the parser could not read (proghdr.h), and an Expect:
 * that is no POSIX extended regular expression: capture refuses such a
 * lesson, so verify says why rather than check half a command. */
static void header_unreadable(const struct program *p)
{
	const struct proghdr *h = &p->hdr;
	for (size_t i = 0; i < h->n_problems; i++) {
		const struct proghdr_problem *q = &h->problems[i];
		struct diag *d = diag_begin(D_PROGRAM_HEADER_UNREADABLE, textfile_loc_line(&p->tf, q->line, q->col, 0),
					    "%s", q->message);
		diag_hint(d, "header lines are '// Build: CMD', '// Run: CMD', '// Run NAME: CMD', "
			     "'// Run NAME (exit N): CMD', '// Expect: REGEX' and '// Expect NAME: REGEX'; end a line with ' \\' to "
			     "continue it on the next '//' line");
		diag_end(d);
	}
	for (size_t i = 0; i < h->n_runs; i++) {
		const struct proghdr_value *v = &h->runs[i].expect;
		char msg[160];
		if (v->text && !lessonfiles_expect_valid(v->text, msg, sizeof msg)) {
			struct diag *d = diag_begin(D_PROGRAM_HEADER_UNREADABLE, textfile_loc_line(&p->tf, v->line, v->col, 0),
						    "the Expect %s: pattern is no POSIX extended regular expression: %s",
						    h->runs[i].name, msg);
			diag_hint(d, "capture matches it with regcomp(REG_EXTENDED | REG_NEWLINE)");
			diag_end(d);
		}
	}
	if (h->expect.text) {
		char msg[160];
		if (!lessonfiles_expect_valid(h->expect.text, msg, sizeof msg)) {
			struct diag *d = diag_begin(D_PROGRAM_HEADER_UNREADABLE,
						    textfile_loc_line(&p->tf, h->expect.line, h->expect.col, 0),
						    "the Expect: pattern is no POSIX extended regular expression: %s", msg);
			diag_hint(d, "capture matches it with regcomp(REG_EXTENDED | REG_NEWLINE)");
			diag_end(d);
		}
	}
}

/* The runs after the first, and Expect:, against the evidence's. */
/* Each run's own Expect NAME: against the pattern the evidence recorded
 * for it (expect.NAME). */
static void compare_run_expects(const struct program *p, const struct evfile *ev)
{
	const struct proghdr *h = &p->hdr;
	for (size_t i = 0; i < h->n_runs; i++) {
		const struct proghdr_run *r = &h->runs[i];
		char key[64];
		snprintf(key, sizeof key, "expect.%s", r->name);
		const char *want = evidence_get(ev->ev, key, NULL);
		if ((want == NULL) == (r->expect.text == NULL) && (!want || strcmp(want, r->expect.text) == 0))
			continue;
		struct diag_loc at = r->expect.text ? textfile_loc_line(&p->tf, r->expect.line, r->expect.col, 0)
						    : textfile_loc_line(&p->tf, r->line, r->col, 0);
		struct diag *d = diag_begin(D_PROGRAM_BUILD_DRIFT, at,
					    "run '%s' expects other output than %s was captured with (%s)", r->name, ev->path,
					    want ? want : "no Expect of its own");
		diag_hint(d, "capture the lesson again");
		diag_end(d);
	}
}

static void compare_runs(const struct program *p, const struct evfile *ev)
{
	const struct proghdr *h = &p->hdr;
	const struct evidence *e = ev->ev;
	for (size_t i = 0; i < h->n_runs; i++) {
		const struct proghdr_run *r = &h->runs[i];
		bool repeated = false;
		for (size_t k = 0; k < i; k++)
			repeated |= strcmp(h->runs[k].name, r->name) == 0;
		if (repeated)
			continue; /* reported as a header problem */
		const struct evidence_run *er = i == 0 ? (e->n_runs ? &e->runs[0] : NULL) : evidence_run_named(e, r->name);
		diag_checks_add(1);
		struct diag_loc at = textfile_loc_line(&p->tf, r->line, r->col, strlen(r->text));
		if (!er) {
			struct diag *d = diag_begin(D_PROGRAM_BUILD_DRIFT, at, "run '%s' has no run in %s", r->name, ev->path);
			diag_hint(d, "capture the lesson again so the evidence holds every run of the header");
			diag_end(d);
		} else if (i > 0 && strcmp(er->command, r->text) != 0) {
			struct diag *d = diag_begin(D_PROGRAM_BUILD_DRIFT, at, "run '%s' differs from the command recorded in %s",
						    r->name, ev->path);
			diag_note(d, (struct diag_loc){.path = ev->path}, "the evidence recorded run.%s: %s", r->name, er->command);
			diag_hint(d, "capture the lesson again so the evidence is made by the command in the header");
			diag_end(d);
		} else if (er->expect_exit != r->exit || (i == 0 && strcmp(er->name, r->name) != 0)) {
			struct diag *d = diag_begin(D_PROGRAM_BUILD_DRIFT, at,
						    "run '%s' (expected exit %d) was recorded in %s as run '%s' expected to exit %d",
						    r->name, r->exit, ev->path, er->name, er->expect_exit);
			diag_hint(d, "capture the lesson again");
			diag_end(d);
		}
	}
	for (size_t k = h->n_runs ? h->n_runs : 1; k < e->n_runs; k++) {
		bool named = false;
		for (size_t i = 0; i < h->n_runs; i++)
			named |= strcmp(h->runs[i].name, e->runs[k].name) == 0;
		if (named)
			continue;
		struct diag *d = diag_begin(D_PROGRAM_BUILD_DRIFT, header_at(p),
					    "%s recorded run '%s', which the header no longer names", ev->path, e->runs[k].name);
		diag_hint(d, "capture the lesson again");
		diag_end(d);
	}
	compare_run_expects(p, ev);
	const char *want = evidence_get(e, "expect", NULL);
	diag_checks_add(1);
	if ((want == NULL) != (h->expect.text == NULL) || (want && strcmp(want, h->expect.text) != 0)) {
		struct diag_loc at = h->expect.text ? textfile_loc_line(&p->tf, h->expect.line, h->expect.col, 0)
						    : header_at(p);
		struct diag *d = diag_begin(D_PROGRAM_BUILD_DRIFT, at, "the Expect: line differs from the pattern %s was captured with (%s)",
					    ev->path, want ? want : "none");
		diag_hint(d, "capture the lesson again");
		diag_end(d);
	}
}

/* The evidence the Verified paragraph names, judged: it must exist, be of
 * this lesson and be the lesson's newest.  Returns the path to check
 * against (malloc'd) or NULL. */
static char *named_evidence(const struct program *p, const char *lesson, const char *newest)
{
	const struct proghdr *h = &p->hdr;
	size_t s, e;
	if (!course_verified_path(h, &s, &e))
		return newest ? xstrdup(newest) : NULL;
	char *path = xstrndup(h->verified + s, e - s);
	struct diag_loc at = verified_loc(p, s, e);
	char *prefix = xasprintf("evidence/%s/", lesson);
	diag_checks_add(1);
	struct evfile *ev = course_evidence(path);
	if (course_report_unusable(ev->state, ev->why, path, at, "evidence")) {
		free(prefix);
		free(path);
		return NULL;
	}
	if (strncmp(path, prefix, strlen(prefix)) != 0) {
		struct diag *d = diag_begin(D_FACT_PATH, at, "'%s' is not evidence of lesson '%s'", path, lesson);
		diag_hint(d, "name a file under %s", prefix);
		diag_end(d);
	} else if (newest && strcmp(path, newest) != 0) {
		struct diag *d = diag_begin(D_FACT_PATH, at, "'%s' is not the lesson's newest evidence", path);
		diag_note(d, (struct diag_loc){.path = newest}, "the newest run of %s", lesson);
		diag_hint(d, "verify the header against the new run and name %s (coursecheck update %s)", newest, p->path);
		diag_end(d);
	}
	free(prefix);
	return path;
}

/* A lesson awaiting its first capture is held to the rule capture applies
 * to its files (lessonfiles.h) now, not on the GPU node: a name capture
 * refuses, a link, too many or too large files.  Once it has evidence the
 * staleness check reads the same files and says so there. */
static void check_capturable(const struct program *p, const char *lesson)
{
	const char *why = NULL;
	bool refused = false;
	const struct lesson_files *lf = course_lesson_files(lesson, &why, &refused);
	if (lf || !why)
		return;
	struct diag *d = diag_begin(D_LESSON_UNCAPTURABLE, header_at(p),
				    "lesson '%s' cannot be captured: %s", lesson, why);
	diag_hint(d, "capture copies only plain files named with letters, digits and . _ - +, at most 256 files and 64 MiB in all: rename, replace or remove what the message names");
	diag_end(d);
}

static void check_program_files(const char *lesson);

void check_program(const char *lesson, const struct check_opts *opts)
{
	char *folder = xasprintf("programs/%s", lesson);
	/* a program has no status of its own: its lesson page's draft makes
	 * its STAT kinds (a stale run among them) warnings, as on the page */
	enum page_status st = STATUS_REVIEW;
	bool draft = course_lesson_status(lesson, &st) && st == STATUS_DRAFT;
	struct diag_policy policy = {.draft = draft && !opts->strict, .strict = opts->strict};
	diag_file_begin(folder, &policy);
	check_program_files(lesson);
	diag_file_end();
	course_page_done(); /* the program's text: memory stays flat per lesson */
	free(folder);
}
static void check_program_files(const char *lesson)
{
	size_t count;
	char *path = course_lesson_program(lesson, &count);
	char *folder = xasprintf("programs/%s", lesson);
	if (!path) {
		const char *why;
		bool refused;
		const struct lesson_files *f = course_lesson_files(lesson, &why, &refused);
		char *found = f ? lessonfiles_no_program(f, lesson) : NULL;
		struct diag *d;
		if (found)
			d = diag_begin(D_PROGRAM_HEADER, (struct diag_loc){.path = folder}, "lesson folder has no program: %s",
				       found);
		else
			d = diag_begin(D_PROGRAM_HEADER, (struct diag_loc){.path = folder},
				       count ? "lesson folder holds %zu .cu files and not exactly one of them has a "
					       "'// Build:' header line"
					     : "lesson folder holds no .cu program%.0zu",
				       count);
		if (count)
			diag_hint(d, "the lesson's program is the .cu file (at any depth) whose header comment names "
				     "the Build: command and the runs; the others are its sources");
		else
			diag_hint(d, "the program is a .cu file at any depth of the folder (e.g. %s/src/main.cu) whose "
				     "header comment has a '// Build: COMMAND' line; the page's program: names it", folder);
		free(found);
		diag_end(d);
		free(path);
		free(folder);
		return;
	}
	free(folder);
	struct program *p = course_program(path);
	free(path);
	if (course_report_unusable(p->state, p->why, p->path, (struct diag_loc){.path = p->path}, "program") ||
	    p->state != LOAD_OK)
		return;
	diag_checks_add(1);
	if (!p->hdr.build.text || p->hdr.build.count > 1)
		header_line_problem(p, &p->hdr.build, "Build");
	if (!p->hdr.run.text || p->hdr.run.count > 1)
		header_line_problem(p, &p->hdr.run, "Run");
	header_unreadable(p);

	bool folder_ok = course_evidence_folder_usable(lesson);
	char *newest = course_newest_evidence(lesson);
	char *evpath = named_evidence(p, lesson, newest);
	if (!evpath) {
		if (!newest)
			check_capturable(p, lesson);
		/* one line a lesson: the page that says 'none yet' carries it */
		if (!newest && folder_ok && !check_first_page_awaits(lesson)) {
			struct diag *d = diag_begin(D_EVIDENCE_NONE, header_at(p),
						    "lesson '%s' awaits its first capture", lesson);
			diag_hint(d, "capture it on the GPU node with 'make evidence LESSON=%s'", lesson);
			diag_end(d);
		}
		free(newest);
		return;
	}
	struct evfile *ev = course_evidence(evpath);
	if (ev->state == LOAD_OK) {
		struct diag_loc at = p->hdr.verified ? textfile_loc_line(&p->tf, p->hdr.verified_line, 0, 0)
						     : header_at(p);
		char *hint = xasprintf("capture it again with 'make evidence LESSON=%s'", lesson);
		check_evidence_state(ev, lesson, p, at, hint);
		free(hint);
		compare_command(p, &p->hdr.build, ev, "build");
		compare_command(p, &p->hdr.run, ev, "run");
		compare_runs(p, ev);
		compare_resolution(p, ev);
		if (p->hdr.verified) {
			struct fact_text t = {.s = p->hdr.verified, .len = p->hdr.verified_len, .file = &p->tf,
					      .map = p->hdr.verified_src};
			diag_checks_add(facts_check(&t, ev, NULL, NULL, NULL));
		}
	} else {
		course_report_unusable(ev->state, ev->why, evpath, textfile_loc_line(&p->tf, p->hdr.verified_line, 0, 0),
				       "evidence");
	}
	free(evpath);
	free(newest);
}
