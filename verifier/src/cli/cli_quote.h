/*
 * cli_quote.h - `coursecheck quote`: a ready transcript block for lines an
 * author picks from an evidence file, so that nobody types output by hand.
 *
 *   coursecheck quote [--root=DIR] [--run=NAME] [--stream=stdout|stderr]
 *                     [--label=LABEL] EVIDENCE LINES
 *
 * LINES is N or N-M, counted from 1 within the chosen run's stream (the
 * first run's stdout by default).  Prints the marker (naming the run and
 * stream when they are not the default, and the label when given), then
 * the lines verbatim in a ```text fence.  A line holding a ``` run longer
 * than the fence gets a longer fence.  Exit 0, or 2 with a message.
 */
#ifndef COURSECHECK_CLI_QUOTE_H
#define COURSECHECK_CLI_QUOTE_H

#include <stdbool.h>
#include <stddef.h>

#include "evidence.h"

int cli_quote(int argc, char **argv);

/* The block `quote` prints for lines from..to (1-based, within the
 * stream's lines) of run r's stdout (err false) or stderr of ev: marker,
 * fence, lines, fence, each ending in a LF.  Malloc'd; the language
 * server's "quote as a transcript" action inserts the same text. */
char *cli_quote_text(const struct evidence *ev, const struct evidence_run *r, bool err, const char *label, size_t from,
		     size_t to);

/* `coursecheck lesson-files [--root=DIR] LESSON` (cli_lesson.c): the files
 * of a lesson (lessonfiles.h) as its evidence records them.  Exit 0, or 2
 * when they cannot be read or the lesson has no program. */
int cli_lesson_files(int argc, char **argv);

#endif
