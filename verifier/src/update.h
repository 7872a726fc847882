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

int cli_update(int argc, char **argv);

#endif
