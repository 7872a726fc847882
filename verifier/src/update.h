/*
 * update.h - `coursecheck update [--dry-run] FILE...`: points pages,
 * program READMEs and program headers at the newest evidence of their
 * lesson and rewrites what is mechanical (see update.c).  Returns the exit
 * status: 0 all carried, 1 something was left for a person or a claim
 * flipped, 2 a file could not be read or written.
 */
#ifndef COURSECHECK_UPDATE_H
#define COURSECHECK_UPDATE_H

int cli_update(int argc, char **argv);

#endif
