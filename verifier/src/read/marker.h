/*
 * marker.h - the HTML comments that carry provenance on a page.
 *
 * Block markers stand alone on their line and govern the next block:
 *   <!-- snippet: NAME -->  <!-- snippet: PATH#NAME -->
 *   <!-- transcript -->     <!-- transcript: LABEL -->
 *   <!-- build -->          <!-- quote: WHERE IT COMES FROM -->
 *   <!-- measured -->       <!-- measured: LABEL -->
 *   <!-- table -->          <!-- table: LABEL -->
 * Inline annotations follow a number on the same line:
 *   <!-- = EXPR -->         <!-- cite: LESSON -->     <!-- ext: REASON -->
 *   <!-- at: PLACE -->      <!-- range: PLACE -->     <!-- min: PLACE -->
 *   <!-- max: PLACE -->     <!-- one-run -->          <!-- one-run: PLACE -->
 * and a claim follows the words that state it (claim.h):
 *   <!-- claim: CLAIM -->
 *
 * marker_parse() classifies one comment.  A comment that is no marker and
 * does not look like one (an author's note) is MARKER_PLAIN.
 */
#ifndef COURSECHECK_MARKER_H
#define COURSECHECK_MARKER_H

#include <stdbool.h>
#include <stddef.h>

enum marker_kind {
	MK_PLAIN, /* an ordinary comment */
	MK_SNIPPET,
	MK_TRANSCRIPT,
	MK_BUILD,
	MK_QUOTE,
	MK_MEASURED,
	MK_TABLE,
	MK_DERIVE,
	MK_CITE,
	MK_EXT,
	/* number annotations naming an evidence place (place.h) */
	MK_AT,      /* the number is the value at PLACE */
	MK_RANGE,   /* "LOW to HIGH": the two numbers before it are PLACE's least and greatest over the repeats */
	MK_MIN,     /* the least value of PLACE over the repeats */
	MK_MAX,     /* the greatest */
	MK_ONE_RUN, /* a volatile value quoted as one run's figure (optionally at PLACE) */
	MK_SRC,     /* the number is a constant NAME (FILE#NAME) of the program's source (check_src.h) */
	MK_CLAIM,   /* a claim over evidence values (claim.h); follows words, not a number */
};

enum marker_status {
	MARKER_OK,
	MARKER_UNKNOWN,   /* looks like a marker, is not one: see suggest */
	MARKER_MALFORMED, /* a marker keyword with a wrong shape: see problem */
};

struct marker {
	enum marker_kind kind;
	enum marker_status status;
	size_t arg_start, arg_end; /* the argument within the comment text (trimmed) */
	char problem[160];         /* what is wrong, for UNKNOWN and MALFORMED */
	char suggest[160];         /* the comment as it was probably meant, or "" */
};

/* What a page keeps of a marker once its problems are reported: the
 * marker less its two texts (24 bytes, not 344: a page keeps one for
 * each block and each annotation). */
struct marker_info {
	enum marker_kind kind;
	enum marker_status status;
	size_t arg_start, arg_end;
};

static inline struct marker_info marker_info_of(const struct marker *m)
{
	return (struct marker_info){m->kind, m->status, m->arg_start, m->arg_end};
}

/* Classifies text[0..len), which must start with "<!--".  Never fails. */
void marker_parse(const char *text, size_t len, struct marker *m);
/* The same, with the comment's shape read by the PCRE2 pattern that
 * marker_parse reads by hand: what it must agree with (for the tests). */
void marker_parse_pattern_only(const char *text, size_t len, struct marker *m);
/* True for the kinds that govern a following block. */
bool marker_is_block(enum marker_kind kind);
/* True for the inline kinds written in prose: =, cite, ext, the place
 * annotations and claim. */
bool marker_is_inline(enum marker_kind kind);
const char *marker_kind_name(enum marker_kind kind);

#endif
