/*
 * cli_whystale.h - `coursecheck why-stale LESSON`: why the lesson's newest
 * evidence is stale, in the words an author needs to decide whether to
 * capture again.
 *
 * For evidence captured under source-rule: tokens-1 (readset.h) it names
 * the first file that changed, is new or is gone; how the lesson reached
 * it (the chain of `#include "..."` lines from a compiled source of the
 * lesson, or "a data file"); and the first changed code line, old and
 * new, with the first token that differs.  The old text is the file at
 * the evidence's `commit:` (git show), used only when its hash by the
 * rule is the one recorded; otherwise it says the old text cannot be
 * found.  For older evidence (every byte of every lesson file) it can
 * only name the file whose bytes changed, and says so.
 *
 * Prints to standard output.  Exit 0 when the evidence is current, 1 when
 * it is stale, 2 for a usage error, a lesson that cannot be read or no
 * evidence.
 */
#ifndef COURSECHECK_CLI_WHYSTALE_H
#define COURSECHECK_CLI_WHYSTALE_H

int cli_why_stale(int argc, char **argv);

#endif
