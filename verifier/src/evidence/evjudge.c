/* evjudge.c - see evjudge.h: the one rule for whether a run is evidence. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evjudge.h"
#include "readset.h"
#include "repo.h"
#include "util.h"

/* Stale by the files the run read (readset.h): the lesson's files are all
 * it needs, whichever file the page names as the program. */
static void judge_read_files(const struct evidence *e, const struct evjudge_in *in, struct evjudge *j, size_t line)
{
	if (!in->files) {
		if (in->files_why) {
			j->flags |= EVJ_FILES_UNKNOWN | (in->files_refused ? EVJ_FILES_REFUSED : 0);
			j->files_why = in->files_why;
		}
		return;
	}
	j->changed = readset_changed(e, in->files, &line, j->now_buf);
	j->now_sha = j->now_buf;
	struct lessonfiles_entry *rec;
	j->n_files = lessonfiles_entries(e, &rec);
	lessonfiles_entries_free(rec, j->n_files);
	j->by_reads = true;
	j->stale_line = line;
	if (j->changed)
		j->flags |= EVJ_STALE;
}

/* Stale over every file of the lesson where they can be told and the
 * program is the lesson's program; else by the program's own hash. */
static void judge_stale(const struct evidence *e, const struct evjudge_in *in, struct evjudge *j)
{
	const struct lesson_files *f = in->files;
	size_t line = 0;
	const char *was = evidence_get(e, "source-sha256", &line);
	j->was_sha = was;
	if (readset_recorded(e)) {
		judge_read_files(e, in, j, line);
		return;
	}
	if (!f && in->files_why) {
		j->flags |= EVJ_FILES_UNKNOWN | (in->files_refused ? EVJ_FILES_REFUSED : 0);
		j->files_why = in->files_why;
	} else if (f && f->program != SIZE_MAX && in->program && strcmp(f->v[f->program].path, in->program) == 0) {
		j->changed = lessonfiles_changed(e, f, &line);
		j->now_sha = f->sha;
		j->n_files = f->n;
		j->stale_line = line;
		if (j->changed)
			j->flags |= EVJ_STALE;
		return;
	}
	if (in->program_sha && was && strcmp(was, in->program_sha) != 0) {
		j->flags |= EVJ_STALE;
		j->changed = xasprintf("'%s' changed", in->program);
		j->now_sha = in->program_sha;
		j->stale_line = line;
	}
}

/* What failed, named: a run that did not end as expected, by its exit
 * (the first run's as "exit: N", as the header writes it), or a run whose
 * stdout missed Expect: (which ended as expected, so its exit says
 * nothing). */
static void judge_failed(const struct evidence *e, struct evjudge *j)
{
	j->flags |= EVJ_FAILED;
	const struct evidence_run *r = evidence_failed_run(e);
	size_t line = 0;
	const char *missed = evidence_get(e, "expect-failed", &line);
	bool first = !r || r == &e->runs[0];
	char key[80];
	snprintf(key, sizeof key, first ? "exit" : "exit.%s", r ? r->name : "");
	j->exit = evidence_get(e, key, &j->exit_line);
	char want[16];
	snprintf(want, sizeof want, "%d", r ? r->expect_exit : 0);
	if (missed && r && strcmp(missed, r->name) == 0 && r->exit && strcmp(r->exit, want) == 0) {
		j->exit_line = line;
		j->failed_why = xasprintf("the stdout of run '%s' did not match Expect:", r->name);
	} else if (first && (!r || r->expect_exit == 0)) {
		j->failed_why = xasprintf("exit: %s", j->exit ? j->exit : "?");
	} else {
		j->failed_why = xasprintf("run '%s' exit: %s, expected %d", r ? r->name : "?", j->exit ? j->exit : "?",
					  r ? r->expect_exit : 0);
	}
}

void evjudge_run(const struct evidence *e, const struct evjudge_in *in, struct evjudge *j)
{
	memset(j, 0, sizeof *j);
	j->lesson = evidence_get(e, "lesson", &j->lesson_line);
	j->program = evidence_get(e, "program", &j->program_line);
	if (in->lesson && (!j->lesson || strcmp(j->lesson, in->lesson) != 0)) {
		j->flags |= EVJ_LESSON_MISMATCH;
		return;
	}
	if (in->program) {
		/* two names of one file are one program */
		char *norm = j->program ? repo_normalize(j->program) : NULL;
		bool same = j->program && strcmp(norm ? norm : j->program, in->program) == 0;
		free(norm);
		if (!same) {
			j->flags |= EVJ_PROGRAM_MISMATCH;
			return;
		}
	}
	judge_stale(e, in, j);
	if (!evidence_exit_ok(e))
		judge_failed(e, j);
	j->exclusive = evidence_get(e, "gpu-exclusive", &j->exclusive_line);
	if (j->exclusive && strcmp(j->exclusive, "yes") != 0)
		j->flags |= EVJ_SHARED_GPU;
}

void evjudge_free(struct evjudge *j)
{
	free(j->changed);
	free(j->newest);
	free(j->failed_why);
	memset(j, 0, sizeof *j);
}
