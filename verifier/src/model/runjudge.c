/* runjudge.c - see runjudge.h: evjudge over the course model. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "readset.h"
#include "repo.h"
#include "runjudge.h"
#include "util.h"

/* The judgement with the lesson's files asked of the course cache where
 * the program can be read (staleness needs both).  The program's
 * source-sha256 is made only for a run captured before the tokens rule,
 * after the files are read, so that they get it too. */
static void judge(const struct evfile *ev, const char *lesson, const char *files_lesson, struct program *prog,
		  struct evjudge *j)
{
	struct evjudge_in in = {.lesson = lesson, .program = prog ? prog->path : NULL};
	if (prog && prog->state == LOAD_OK) {
		if (files_lesson)
			in.files = course_lesson_files(files_lesson, &in.files_why, &in.files_refused);
		if (!readset_recorded(ev->ev))
			in.program_sha = course_program_sha256(prog);
	}
	evjudge_run(ev->ev, &in, j);
	if (!ev->intact)
		j->flags |= EVJ_EDITED;
}

/* The lesson's runs, oldest first: any but the last is superseded. */
static void judge_superseded(const struct evfile *ev, const char *lesson, struct evjudge *j)
{
	char **runs;
	size_t n = course_list_evidence(lesson, &runs);
	for (size_t i = 0; i + 1 < n; i++)
		if (strcmp(runs[i], ev->path) == 0 && !j->newest) {
			j->flags |= EVJ_SUPERSEDED;
			j->newest = xstrdup(runs[n - 1]);
		}
	repo_free_list(runs, n);
}

void runjudge_for_page(const struct evfile *ev, const char *lesson, struct program *prog, bool superseded,
		       struct evjudge *j)
{
	judge(ev, lesson, lesson, prog, j);
	if (superseded && lesson)
		judge_superseded(ev, lesson, j);
}

void runjudge_own(const struct evfile *ev, struct evjudge *j)
{
	const char *prog_path = evidence_get(ev->ev, "program", NULL);
	char *norm = prog_path ? repo_normalize(prog_path) : NULL;
	struct program *prog = norm ? course_program(norm) : NULL;
	free(norm);
	judge(ev, NULL, evidence_get(ev->ev, "lesson", NULL), prog, j);
}
