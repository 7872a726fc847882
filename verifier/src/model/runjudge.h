/*
 * runjudge.h - a run of the course judged (evjudge.h) over the course
 * model: the lesson's files from course.c's cache, the program as loaded,
 * the run's body checked against body-sha256 when it was loaded, and the
 * lesson's newer runs.
 *
 * Two questions, one rule:
 *   runjudge_for_page()  is ev evidence for a page of lesson with program
 *                        prog? (verify: check_page.c, check_program.c)
 *   runjudge_own()       is ev evidence of the lesson and program its own
 *                        header names, as they are now? (update)
 * Neither reports; the caller says what the verdict means (evjudge.h).
 */
#ifndef COURSECHECK_RUNJUDGE_H
#define COURSECHECK_RUNJUDGE_H

#include <stdbool.h>

#include "course.h"
#include "evjudge.h"

/* lesson and prog may be NULL (not known: that part is not judged);
 * with superseded, a run that is not the lesson's newest is marked
 * EVJ_SUPERSEDED with j->newest. */
void runjudge_for_page(const struct evfile *ev, const char *lesson, struct program *prog, bool superseded,
		       struct evjudge *j);
void runjudge_own(const struct evfile *ev, struct evjudge *j);

#endif
