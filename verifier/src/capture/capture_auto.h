/*
 * capture_auto.h - `capture --repeat auto[:MAX] --plan FILE`: repeat a
 * lesson until the claims its pages make on its numbers are decided.
 *
 * Capture reads no page (it links libc and libcrypto only); the verifier
 * writes what it needs, `coursecheck explain --plan PAGE...`, one line a
 * comparison of two measured places (measured.h), each side one place:
 *
 *     LESSON PLACE OP PLACE U_LEFT U_RIGHT
 *     day32-scan-2 max(107:45) < min(110:45) 0.00055 0.00055
 *
 * PLACE is LINE:COL (the side is the place's median), or max(LINE:COL) or
 * min(LINE:COL) (the side is that bound of its repeats: verdict.h's centre),
 * LINE:COL is the number's stdout line and the column of its first digit
 * in the lesson's newest evidence (as `volatile:` writes it), OP one of
 * < <= > >= == !=, U the uncertainty of one value (resolution and print
 * rounding).  Blank lines and lines starting with '#' are skipped; a line
 * of another shape refuses the plan (capture-setup).  At most
 * AUTO_MAX_PAIRS lines of AUTO_MAX_LINE bytes.
 *
 * After each repeat from the AUTO_MIN_RUNS-th on, every pair of the lesson
 * is decided by verdict.h's rule over the values the repeats printed
 * there; capture stops repeating when none is undecided, or at MAX.  A
 * pair whose place the new output lacks is undecided.  A lesson with no
 * pair stops at AUTO_MIN_RUNS.
 */
#ifndef COURSECHECK_CAPTURE_AUTO_H
#define COURSECHECK_CAPTURE_AUTO_H

#include <stdbool.h>
#include <stddef.h>

#include "capture_text.h"
#include "verdict.h"

#define AUTO_MIN_RUNS 3
#define AUTO_MAX_PAIRS 4096
#define AUTO_MAX_LINE 512
#define AUTO_DEFAULT_MAX 20

struct auto_pair {
	char *lesson;
	size_t line[2], col[2];
	enum verdict_centre centre[2];
	char op[3];
	double u[2];
};

struct auto_plan {
	struct auto_pair *pairs;
	size_t n;
};

/* Reads the plan at path.  Returns 0, or -1 with *why (malloc'd, naming
 * the line). */
int auto_plan_read(const char *path, struct auto_plan *p, char **why);
void auto_plan_free(struct auto_plan *p);

/* How many of lesson's pairs the repeats so far leave undecided (vol and
 * first as capture_text.h keeps them). */
size_t auto_undecided(const struct auto_plan *p, const char *lesson, const struct volatility *vol,
		      const struct transcript *first);

#endif
