/* evjudge.c - see evjudge.h: the one rule for whether a run is evidence. */
#include <stdint.h>
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
	struct readset_entry *rec;
	j->n_files = readset_entries(e, &rec);
	readset_entries_free(rec, j->n_files);
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
	if (!evidence_exit_ok(e)) {
		j->flags |= EVJ_FAILED;
		j->exit = evidence_get(e, "exit", &j->exit_line);
	}
	j->exclusive = evidence_get(e, "gpu-exclusive", &j->exclusive_line);
	if (j->exclusive && strcmp(j->exclusive, "yes") != 0)
		j->flags |= EVJ_SHARED_GPU;
}

void evjudge_free(struct evjudge *j)
{
	free(j->changed);
	free(j->newest);
	memset(j, 0, sizeof *j);
}
