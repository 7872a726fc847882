/*
 * cli_update.h - `coursecheck update [--dry-run] FILE...` (cli_update.c
 * parses the command line; update.h carries each file).
 */
#ifndef COURSECHECK_CLI_UPDATE_H
#define COURSECHECK_CLI_UPDATE_H

int cli_update(int argc, char **argv);

#endif
