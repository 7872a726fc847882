/*
 * place.h - evidence places: naming one number of an evidence file so that
 * the name survives a recapture.
 *
 * A place is written between brackets, in claims, derivations and the
 * place annotations (at:, range:, min:, max:, one-run:):
 *
 *   [ROW | COLUMN]   a table cell of the stdout: the line whose row name is
 *                    ROW, the number under the header cell COLUMN.  Names
 *                    are the ones the drift notes print (align.h): the row
 *                    is the line up to its first number after a label
 *                    ("64 inclusive, in place"), the column is the header
 *                    cell above the nearest rule of dashes ("mismatches").
 *   [KEY]            a "KEY: NUMBER" pair: a stdout line holding "KEY:"
 *                    before the number (after the line start, a ',' or a
 *                    ';'), as "max threads per block: 1024", or a header
 *                    field of the evidence ("repeats", "driver").
 *
 * Runs of blanks in the written names count as one space; case matters.
 * A place that names no number, or more than one, is an error
 * (place-unknown, place-ambiguous): a place never guesses.
 *
 * Lookups of a file of the course cache are memoised in the course model
 * (course_cache: each key's and row name's hits, the places asked and
 * their answers, the repeat-values and volatile headers by place), for
 * the file asked about last, emptied when a page is done; any other file
 * (update's own runs) is scanned at each call.  The answers are the same
 * either way.  Hits borrow the evidence file.
 */
#ifndef COURSECHECK_PLACE_H
#define COURSECHECK_PLACE_H

#include <stdbool.h>
#include <stddef.h>

#include "course.h"
#include "expr.h"
#include "numtok.h"
#include "textfile.h"

struct place_hit {
	const struct evfile *ev;
	size_t stdout_index;  /* 0-based stdout line, SIZE_MAX for a header field */
	size_t line;          /* file line */
	struct num_token tok; /* offsets within that line */
};

/* The numbers text[0..len) (what stands between the brackets) names in ev.
 * Returns how many there are; the first max are written to hits.  Returns
 * SIZE_MAX with err set when the text is no place (empty, a part empty). */
size_t place_find(const struct evfile *ev, const char *text, size_t len, struct place_hit *hits, size_t max,
		  char *err, size_t errlen);

/* The written form that names hit alone ("[ROW | COLUMN]" or "[KEY]",
 * the key form first), or "" when no name picks it out. */
void place_name(const struct place_hit *hit, char *out, size_t outlen);

/* The values hit took over the repeats of its capture, from the sealed
 * repeat-values header (capture_repeats.h), into vals (at most max).
 * Returns the count; 1 (the value printed) when the place did not vary or
 * the capture was not repeated; 0 when a repeat printed no number there. */
size_t place_repeat_values(const struct place_hit *hit, double *vals, size_t max);
/* Whether the capture listed hit as volatile (it varied between repeats). */
bool place_is_volatile(const struct place_hit *hit);
/* When hit varied between the repeats of its capture but the capture
 * kept none of its values (repeat-values-omitted, or an evidence file
 * older than repeat-values): the header field that says so, its value
 * in *why and its line in *line.  NULL when the values are known (or the
 * place did not vary), so that a range, a bound, min() or max() never
 * reads the one printed value as if the place had been captured once. */
const char *place_values_missing(const struct place_hit *hit, const char **why, size_t *line);
/* The repeats of hit's capture (1 when not repeated). */
unsigned place_repeats(const struct place_hit *hit);

/* The resolver of places for expr_env and claim_eval, over one evidence
 * file.  Each resolved operand is recorded in order (for notes); an
 * unknown or ambiguous place is reported at its place in the page.  */
#define PLACE_ENV_MAX 64
struct place_env {
	const struct evfile *ev;     /* the evidence places are looked up in */
	const struct textfile *page; /* for diagnostics; NULL: report nothing */
	const char *base;            /* the annotation text places point into */
	size_t base_raw;             /* its byte offset in page, SIZE_MAX if unknown */
	size_t page_line;            /* line to report at when the offset is unknown */
	bool reported;               /* a place diagnostic was issued */
	struct place_hit hits[PLACE_ENV_MAX];
	enum expr_place_fn fns[PLACE_ENV_MAX];
	double values[PLACE_ENV_MAX];
	size_t n;
};
/* Fills env for evidence ev; the diagnostic fields are optional.  The
 * arrays are left as they are: only their first n entries are ever set
 * or read. */
void place_env_init(struct place_env *pe, const struct evfile *ev, const struct textfile *page, const char *base,
		    size_t base_raw, size_t page_line);
/* The expr_env that resolves through pe. */
struct expr_env place_env_expr(struct place_env *pe);

/* One place resolved for a place annotation: reports and returns false
 * when it names no number or several. */
bool place_resolve_one(struct place_env *pe, const char *text, size_t len, struct place_hit *out);

/* "evidence/L/run.txt:19:44" of a hit, written into out. */
void place_where(const struct place_hit *hit, char *out, size_t outlen);
/* The diagnostic location of a hit in its evidence. */
struct diag_loc place_loc(const struct place_hit *hit);

#endif
