/*
 * update.h - `coursecheck update [--dry-run] FILE...`: points pages,
 * program READMEs and program headers at the newest evidence of their
 * lesson and rewrites what is mechanical (see update.c).  Its findings
 * are diagnostics, and the exit status follows the worst of them: 0 all
 * carried, 1 an error (update-left, claim-flip, update-refused, a file
 * that is not UTF-8), 2 a file could not be read or written.
 */
#ifndef COURSECHECK_UPDATE_H
#define COURSECHECK_UPDATE_H

#include <stdbool.h>

struct report;

/* Carries the newest evidence into one FILE (a repository path): prints
 * the diff (text) or adds the rewrites to report (json: the command's,
 * from cli_begin), writes the file unless dry_run, and a summary line on
 * standard error unless quiet.  Returns the file's exit status by the one
 * rule: 0 carried, 1 an error was reported, 2 the file could not be read
 * or written. */
int update_file(struct report *report, const char *relpath, bool dry_run, bool quiet);

#endif
