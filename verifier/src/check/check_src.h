/*
 * check_src.h - a number bound to a constant of the program's source:
 *     a block of 128 <!-- src: kBlock --> threads
 *     tiles of 4,096 <!-- src: scan.cuh#kTileElems --> floats
 * NAME is looked for in the page's program, FILE#NAME in FILE (relative
 * to the lesson's folder, or from the repository root when it starts with
 * programs/).  NAME must be defined once as a number: "#define NAME N",
 * "NAME = N" or "NAME{N}" (a cast or parenthesis before N allowed, C's
 * suffixes u, l, f after it); the page number must show that value.  A
 * name that is not defined so, or is defined twice, or a file that cannot
 * be used, is src-unknown; another value is src-mismatch.  Neither is a
 * run's number: a source constant never traces to the evidence, and a
 * number the run printed is bound to its place instead (<!-- at: -->).
 */
#ifndef COURSECHECK_CHECK_SRC_H
#define COURSECHECK_CHECK_SRC_H

#include "pagectx.h"
#include "prose.h"

void check_src_number(struct page_ctx *ctx, const struct pnum *p, size_t line);

#endif
