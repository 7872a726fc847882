/*
 * bank.h - the numbers a page may quote: every number in the stdout of
 * its evidence files, plus the numeric header values (driver, CUDA
 * version, compute capability), the numbers on the recorded command
 * lines (build:, run:, run.NAME:, as in `./scan 4 128`), and the stdout
 * and stderr of every run of a capture of several runs (and the first
 * run's stderr).  Each entry says where it came from (where), so that
 * explain can tell a command-line or stderr number from a stdout one.
 * Read with the same tokenizer as pages.
 *
 * A bank borrows the evidence files (owned by the course cache) and reads
 * their lines again to make the entries it hands out (bank_list below);
 * release what it made with bank_free().
 *
 * Lazily: bank_defer_evidence() names a file whose numbers are banked only
 * when the bank is first looked in (bank_find, bank_find_value,
 * bank_nearest, bank_ready): a page that quotes no number never tokenises
 * its evidence.  The entries and their order are those bank_add_evidence
 * would have made; the files must stay resident until the bank is freed.
 */
#ifndef COURSECHECK_BANK_H
#define COURSECHECK_BANK_H

#include <stdbool.h>
#include <stddef.h>

#include "course.h"
#include "numtok.h"

struct bank_entry {
	struct num_token tok; /* offsets within its line */
	const struct evfile *ev;
	size_t line;          /* file line in the evidence */
	size_t stdout_index;  /* 0-based stdout line of the first run, or SIZE_MAX for anything else */
	const char *where;    /* NULL for the first run's stdout, else e.g. "the recorded run: command
			       * line", "stderr", "run racecheck, stdout" (static or owned by the bank) */
	size_t order;         /* its place in the bank's order (bank_entry_at's i), or in the view's */
};

/* An ordered list of banked numbers: the whole bank, its stdout view, the
 * numbers of one file's run lines.  bank.c's alone; in this header only
 * so that a bank is a plain value a caller zeroes.
 *
 * A number is held as a 24-byte reference (its value, decimals, file
 * line and column) and a span names the file and the where of a run of
 * them: 59
 * MiB of evidence holds millions of numbers, and an 80-byte entry each
 * took 6.8 times the file's size in memory (issue 32 asks for under 4).
 * The entry a look-up tests or returns is read again from its line; one
 * handed out is made once and kept at its address until bank_free
 * (callers compare entries by address). */
struct bank_list {
	struct bank_ref *refs;
	size_t n, cap;
	struct bank_span *spans;
	size_t n_spans, cap_spans;
	/* the refs by value, so that a look-up reads the few entries near its
	 * value instead of the whole list: made at the first look-up that
	 * pays for it, made again when more were banked */
	struct bank_index *by_value;
	struct bank_made *made; /* the entries handed out, by position */
};

struct bank {
	struct bank_list all;  /* bank order */
	char **wheres;         /* the where texts the bank made */
	size_t n_wheres, cap_wheres;
	const struct evfile **pending; /* deferred files, not banked yet */
	size_t n_pending, cap_pending;
	struct bank_list view; /* bank_stdout_count's view */
	bool stdout_built, stdout_stale;
	bool view_borrows;     /* the view's refs are the whole bank's first ones (bank.c's take_view) */
	/* the run-line view (bank_traces_run_lines): the files added or
	 * deferred, in order, and a list of each one's run-line numbers, made
	 * at its first look-up */
	const struct evfile **files;
	size_t n_files, cap_files;
	struct bank_list *run_lines;
	size_t n_run_lines;
	struct bank_line *line; /* the tokens of the line last read again */
};

/* Adds every number of ev's stdout and its numeric header values. */
void bank_add_evidence(struct bank *b, const struct evfile *ev);
/* The same, done at the bank's first look-up (see above). */
void bank_defer_evidence(struct bank *b, const struct evfile *ev);
/* Banks the deferred files now (bank_count and bank_entry_at do it
 * themselves).  The bank is logically const: what it holds does not change,
 * only when it was computed. */
void bank_ready(const struct bank *b);
/* The entries banked (after bank_ready), and the i-th of them in bank
 * order (i below the count).  The entry is made at its first call and
 * kept at that address until bank_free. */
size_t bank_count(const struct bank *b);
const struct bank_entry *bank_entry_at(const struct bank *b, size_t i);
/* The entries whose where is NULL (the first runs' stdout and the numeric
 * headers), in bank order, as their own list: what a tracer reads first,
 * and most pages need no more, so a bank whose files are all deferred
 * banks only those lines of them here (the rest, the other streams and
 * the command lines, waits for bank_ready).  The view is built at its
 * first call and kept until bank_free; its entries are the same as the
 * whole bank's, made at other addresses (bank_stdout_at, as
 * bank_entry_at).  bank_stdout_count returns false, and leaves *n alone,
 * when evidence was added or deferred after the view was built (it no
 * longer holds them all): read the whole bank then. */
bool bank_stdout_count(const struct bank *b, size_t *n);
const struct bank_entry *bank_stdout_at(const struct bank *b, size_t i);
/* The first entry the page number traces to (numtok_traces_to), or NULL. */
const struct bank_entry *bank_find(const struct bank *b, const struct num_token *page);
/* bank_find's answer, read first from the stdout view when the bank is
 * one evidence file deferred and not banked yet (a cited lesson's): that
 * file's headers and first stdout come before its other streams and
 * command lines in bank order, so the first of them the number traces
 * to is bank_find's entry, and only a number tracing to none of them
 * banks the rest.  The entry may then be the view's (the same entry at
 * another address: compare what it holds, not where).  Any other bank:
 * bank_find. */
const struct bank_entry *bank_find_stdout_first(const struct bank *b, const struct num_token *page);
/* The first entry with this value at this many decimals (a derivation's
 * literal), or NULL. */
const struct bank_entry *bank_find_value(const struct bank *b, double value, int decimals);
/* bank_find_value's answer read first from the stdout view, as
 * bank_find_stdout_first does for a page number (the same conditions, and
 * the entry may be the view's: compare what it holds).  A page's
 * derivations and claims name stdout numbers, and banking the other
 * streams and command lines for them cost more than all the rest of the
 * bank. */
const struct bank_entry *bank_find_value_stdout_first(const struct bank *b, double value, int decimals);
/* Every entry page traces to (bank_find's test), in bank order: the
 * first max go to out, and the count of them all is returned.
 * bank_traces_in_view reads the stdout view, and sets *viewed false (and
 * returns 0) when the view does not hold all the bank's first entries
 * (bank_stdout_count); bank_traces reads the whole bank, the entries
 * whose where is NULL (other false) or those whose where is not. */
size_t bank_traces_in_view(const struct bank *b, const struct num_token *page, const struct bank_entry **out,
			   size_t max, bool *viewed);
size_t bank_traces(const struct bank *b, const struct num_token *page, bool other, const struct bank_entry **out,
		   size_t max);
/* Every entry page traces to among the numbers of the recorded run lines
 * (`run:`, `run.NAME:`; a build line's numbers are no fact of a run), in
 * bank order: the first max go to out, the count of them all is
 * returned.  They are the same numbers as the bank's command-line
 * entries, at other addresses, read without banking the other streams:
 * an argument on the run line (the 128 of `./scan 128`) competes with a
 * number of the output like any other place (issue 31), where
 * bank_traces_in_view's stdout alone would trace it silently to the
 * output's 128. */
size_t bank_traces_run_lines(const struct bank *b, const struct num_token *page, const struct bank_entry **out,
			     size_t max);
/* The first stdout line of ev's first run, from stdout index `from` on,
 * holding a number page traces to (bank_find's test): its stdout index,
 * or SIZE_MAX.  ev must be one of the bank's files.  For a table row
 * looked for line after line: only a line holding its first number can
 * hold the row. */
size_t bank_next_stdout_line(const struct bank *b, const struct evfile *ev, const struct num_token *page, size_t from);
/* The line a table row rests on: the first entry, in bank order, of a
 * first run's stdout line that row[0] traces to and from which that
 * line's later entries, in order, take row[1..n) (each the next entry it
 * traces to); the entries of the row to at[0..n).  False, at untouched,
 * when no line holds the row. */
bool bank_find_row(const struct bank *b, const struct num_token *row, size_t n, const struct bank_entry **at);
/* Up to max entries nearest to value by relative difference, distinct
 * values, nearest first.  Returns how many were written to out. */
size_t bank_nearest(const struct bank *b, double value, const struct bank_entry **out, size_t max);
/* The 1-based column of an entry in its evidence line. */
size_t bank_entry_col(const struct bank_entry *e);
void bank_free(struct bank *b);

/* The entries whose value lies in [lo, hi], by value then bank order, at
 * most max of them (the first max): through the index by value once it
 * is made, the same answer by a scan before. */
size_t bank_in_range(const struct bank *b, double lo, double hi, const struct bank_entry **out, size_t max);

#endif
