/*
 * numtok.h - the one number tokenizer, shared by lesson pages and by
 * recorded program output (transcripts), so that both sides of every
 * comparison read "1,049,187" or "0.325 ms" the same way.
 *
 * What counts as a number (one PCRE2 pattern in numtok.c decides, for
 * every number: the C around it finds the next digit to search from and
 * turns each match into a token):
 *
 *   digits     1049187, 1.810; a decimal needs digits on both sides of
 *              the point: ".5" is not read at all, and in "was 42." or
 *              "1,234." the full stop ends the sentence, not the number.
 *   groups     1,049,187 or 1 049 187 with U+2009 THIN SPACE or U+202F
 *              NARROW NO-BREAK SPACE.  Every group after the first has
 *              exactly 3 digits, the first has 1 to 3, and one number uses
 *              one separator throughout.  A comma or thin space directly
 *              between digits that does not form such a group makes the
 *              whole run malformed and none of it is read ("1,04",
 *              "1,2,3", "1234,567"); "1, 2, 3" (comma and space) are three
 *              numbers.
 *   sign       "-", U+2212 MINUS SIGN or "+", read only at the start of the
 *              text or after whitespace or "(".  Elsewhere a hyphen is not
 *              a sign: "10-20" is 10 and 20, "stride-33" is 33.
 *   unit       one of  %  percent  x  ×  ns  us  µs  ms  s  B  KB  KiB  MB
 *              MiB  GB  GiB  GB/s  GiB/s  TB/s  MB/s  (case-sensitive),
 *              attached ("5ms") or after one space (ASCII space, U+00A0
 *              NO-BREAK SPACE or U+202F).  "x" and "×" count only when
 *              attached ("1.25x"; "3 x 4" has no unit).  A unit that ends
 *              in a letter must end at a word boundary: "20 second" is a
 *              bare 20, "5 MB/sec" is 5 MB.  µs may be written with U+00B5
 *              MICRO SIGN or U+03BC GREEK SMALL LETTER MU.
 *   exponent   4.2e+09, 1.5E-3, 9.115e-05ms: "e" or "E", an optional sign
 *              and one to three digits directly after the digits (and
 *              before any unit).  The number's precision is its
 *              mantissa's: 4.2e+09 has 2 significant digits, its last one
 *              in the 10^8 place (decimals -8).  "1e1000" and "3e8f" are
 *              glued letters and not read.
 *   hyphen     digits joined to a word by a hyphen ("4,096-element",
 *              "stride-33") are unsigned, carry no unit and are marked
 *              hyphen_joined.  The word must be a letter or "_" next to
 *              the hyphen; "10-20" is not hyphen-joined.
 *
 * Never read, nor any of their parts: digits glued to letters or
 * underscores on either side ("sm_75", "log2", "V12.6.85", "1.0f", "x86",
 * "0x1F", "2nd", "20seconds"; a letter is any Unicode letter); versions
 * with two or more dots ("580.159.04"); ISO dates and timestamps
 * ("2026-11-30", "2026-11-30T10:05:12Z", "2026-11-30T10:05:12.5+02:00");
 * clock times ("10:05", "10:05:12", "10:05:12.5").  A ratio like "16:9" is
 * two numbers, but one that looks like a time ("1:30") is skipped as a
 * time.  Numbers of more than NUMTOK_MAX_DIGITS digits, or whose value is
 * not a finite double, are not read either.  Digits are ASCII 0-9 only.
 *
 * Policy (years, thresholds, code spans, which numbers to check) belongs to
 * the caller, which passes only the text it wants scanned.
 *
 * Input is UTF-8 with an explicit length; it may hold NUL bytes or invalid
 * UTF-8 (an invalid sequence is never part of a number) and is never read
 * past len.  All offsets are byte offsets into that text.
 *
 * State: the compiled pattern and one PCRE2 match block are made by the
 * first scan and kept (process globals: coursecheck has one thread, and
 * its -j workers are processes); everything else lives on the caller's
 * side.  numtok_release_patterns() frees both for a leak-clean exit.
 * Allocation failure aborts, so no function here returns NULL for lack of
 * memory.
 */
#ifndef COURSECHECK_NUMTOK_H
#define COURSECHECK_NUMTOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longer digit strings (separators and point not counted) are not numbers
 * anyone wrote by hand; refusing them keeps the value well defined. */
#define NUMTOK_MAX_DIGITS 400

/* 48 bytes (it was 80): the course cache keeps one for every number of
 * every evidence line a page asks about, and a bank entry holds one, so a
 * run of millions of numbers is held in memory twice (issue 32).  Offsets
 * are 32-bit: every text scanned is a file's or a line's, and files are
 * bounded far below 4 GiB (TEXTFILE_MAX_BYTES); the counts of digits and
 * the exponent are 16-bit (at most NUMTOK_MAX_DIGITS digits and a
 * three-digit exponent). */
struct num_token {
	double value;            /* signed value; separators removed */
	uint32_t start;          /* byte offset of the first character (sign included) */
	uint32_t end;            /* byte offset one past the last character of the number and its unit */
	uint32_t digits_end;     /* one past the numeric part, exponent included (before any unit) */
	uint32_t digits_start;   /* byte offset of the first digit (after any sign) */
	uint32_t exponent_start; /* offset of the "e" of an exponent; digits_end when there is none */
	int16_t decimals;        /* the place of the last printed digit: digits after the decimal point
	                          * (1.810 -> 3), less the exponent (4.2e+09 -> -8, 1.5e-3 -> 4) */
	int16_t exponent;        /* the printed power of ten (0 without one) */
	int16_t sig_digits;      /* significant digits as printed (0.0325 -> 3, 1,200 -> 4, 0 -> 1, 0.00 -> 1;
	                          * the mantissa's for exponent notation: 4.20e+09 -> 3) */
	bool has_exponent;       /* written in exponent notation */
	bool has_separator;      /* thousands separator used */
	bool hyphen_joined;      /* digits joined to a word by a hyphen */
	char unit[8];            /* unit as written, "" when none: "%", "percent", "x", "×", "ms", "GB/s", ...;
	                          * the one exception: U+03BC mu is stored as U+00B5 micro, so "µs" is one unit */
};

/* Scans text[0..len).  Returns the number of tokens, in text order; *out is
 * a malloc'd array the caller frees with free() (NULL when none).  text may
 * be NULL when len is 0. */
size_t numtok_scan(const char *text, size_t len, struct num_token **out);
/* The same scan into the caller's buf (room for cap tokens): *out is buf
 * when the tokens fit, else a malloc'd array of them all that the caller
 * frees (free it when *out != buf).  For callers that read a line's
 * tokens and drop them: no malloc for the common line. */
size_t numtok_scan_into(const char *text, size_t len, struct num_token *buf, size_t cap, struct num_token **out);

/* The correctly rounded double of the decimal digits of s[0..len) (any
 * other byte, a point or a separator, passed over) times 10^exponent: what
 * strtod gives for "DIGITSeEXPONENT", with no copy where the digits and
 * the power fit Clinger's fast path.  A token's own value, and expr's
 * literals. */
double numtok_digits_value(const char *s, size_t len, int exponent);

/* The offset of the first ASCII digit of text[0..len), or len: a text
 * without one holds no number (the scan's own first test, for callers
 * that skip work on such a line). */
size_t numtok_first_digit(const char *text, size_t len);

/* Formats `value` the way `like` was printed in orig_text (the text like was
 * scanned from): the same number of decimals (rounding half away from zero
 * on the decimal value; for exponent notation, the same mantissa decimals,
 * "e" or "E", exponent sign style and digit count, the exponent moved only
 * when the mantissa would leave [1, 10)), the same separator style (comma or the same Unicode
 * space; none when like had none), the same kind of sign (U+2212 stays
 * U+2212 for a negative value, a leading "+" is kept for a non-negative
 * one), and the bytes from digits_end to end (space and unit) copied
 * verbatim.  Writes a NUL-terminated string into buf and returns the bytes
 * written, NUL excluded.  Returns 0 (buf emptied when buflen > 0) when
 * value is not finite, like->decimals is outside 0..NUMTOK_MAX_DIGITS,
 * buf is too small, or like is in exponent notation with a mantissa that
 * is not one digit before the point and the value's digits in its layout
 * would need more than NUMTOK_MAX_DIGITS decimals ("00.000…06e00" with
 * 240 zeros: the exponent moves by as many places). */
size_t numtok_format_like(const struct num_token *like, const char *orig_text, double value,
			  char *buf, size_t buflen);

/* true when the page number traces to the bank (evidence) number: their
 * values are equal as printed (1.25 equals 1.250, 4.2e+09 equals
 * 4200000000), or the page was printed with fewer decimals than the bank
 * (decimals as above, so 4.2e+09 has fewer than 4215000000), the bank rounded half away from zero
 * to the page's decimals gives the page value (1.8 and 1.80 trace to
 * 1.798), and the page number has at least two significant digits (2 does
 * not trace to 1.798).  Values are compared as decimals, never as doubles
 * within a tolerance, so 1.80 never matches 1.81.  Units are not compared;
 * that is the caller's policy. */
bool numtok_traces_to(const struct num_token *page, const struct num_token *bank);
/* The same test for a bank number known by its value and decimals alone,
 * all that numtok_traces_to reads of it (the bank holds no more of a
 * number than that until it hands the number out). */
bool numtok_traces_to_value(const struct num_token *page, double value, int decimals);

/* Frees the compiled pattern and the match block (both are made again if
 * a scan runs later). */
void numtok_release_patterns(void);

#endif
