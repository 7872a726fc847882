/*
 * nearest.h - the evidence values an author most likely meant by a number
 * the evidence does not hold: the candidates of a number-untraced note.
 *
 * Each distinct value of the bank (its first entry) is judged against
 * the page's number by what a slip of the hand does to it:
 * - its digits: the page's significant digits against the value's first
 *   as many, and against the value rounded to the page's decimals, by
 *   optimal string alignment distance (one substitution, insertion,
 *   deletion or swap of two neighbours costs 1: "16" for "61.487774" is
 *   one swap);
 * - its unit: a value with the page number's unit comes first ("16x"
 *   meant an "x" value);
 * - its value: the relative difference, for the rest of the order.
 * A value is close when its relative difference is at most 5 %, or its
 * digits are one slip from the page number's at the same magnitude and
 * sign (trailing zeros left out: 11.0 is the digits 11): from three
 * significant digits on any slip, at two only a swap.  Nothing else is
 * offered.  The look-ups go through the bank's index by value
 * (bank_nearest for the nearest few, bank_in_range for each digit string
 * one slip away, a few entries each): a page of many untraced numbers
 * costs a bounded number of look-ups a number, not a scan of the bank.
 * The header's values (driver, CUDA version, compute capability, the
 * build and run command lines: banked for tracing, never what a
 * measured number meant) are left out, and so is every value of another
 * magnitude unless it is within 5 %.
 *
 * Interface: nearest_candidates() fills out with at most max entries of
 * the bank (borrowed: valid while the bank is), best first, ties in bank
 * order; it allocates nothing the caller keeps.
 */
#ifndef COURSECHECK_NEAREST_H
#define COURSECHECK_NEAREST_H

#include <stddef.h>

#include "bank.h"
#include "numtok.h"

size_t nearest_candidates(const struct bank *b, const struct num_token *tok, const struct bank_entry **out,
			  size_t max);

#endif
