/*
 * check_rendered.h - numbers as a reader sees them.
 *
 * The number checks read each text segment of a block on its own
 * (prose.h), but a reader sees the rendered text, where some things
 * between two digits show nothing:
 *   - an invisible character: U+00AD SOFT HYPHEN, U+200B ZERO WIDTH SPACE,
 *     U+200C/U+200D ZERO WIDTH (NON-)JOINER, U+2060 WORD JOINER, U+2061 to
 *     U+2064 (invisible operators), U+FEFF ZERO WIDTH NO-BREAK SPACE;
 *   - markup that renders as nothing or only as style: an HTML comment
 *     ("<!-- -->", an annotation too), an inline tag ("<span></span>",
 *     "<b>"), the edge of emphasis ("*", "**", "_", "~~");
 *   - the edge of a code span: its text shows, but is never read as a
 *     number (code is checked as code), so a number half in one is split;
 *   - a digit written as a character reference ("&#57;"), which the
 *     verifier does not read as a digit.
 * Each such place where the digits (or a digit and its decimal point or
 * group comma) on both sides would show as one number is an error at that
 * place (number-split), naming what a reader sees.  Digits other than
 * ASCII 0-9 (any Unicode decimal digit: fullwidth, Arabic-Indic,
 * Devanagari, mathematical bold, ...) are an error at their first
 * character (number-digits): they show a number the verifier cannot
 * trace.
 *
 * Linear in the segments' bytes; keeps no state.
 */
#ifndef COURSECHECK_CHECK_RENDERED_H
#define COURSECHECK_CHECK_RENDERED_H

#include <stddef.h>

#include "page.h"
#include "pagectx.h"

/* Checks the segments of one block or table cell (prose_collect's);
 * node_line: the block's line, where a segment's position is unknown. */
void check_rendered_unit(struct page_ctx *ctx, const struct seg *segs, size_t n_segs, size_t node_line);

#endif
