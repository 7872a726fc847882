/*
 * re.h - compiled PCRE2 patterns kept for the life of the process.
 *
 * A pattern is compiled on first use and kept in a static slot owned by
 * its caller (struct re); re_release_all() frees every compiled pattern at
 * exit so leak checkers stay quiet.  A pattern that fails to compile is a
 * programming error and aborts with the PCRE2 message.
 */
#ifndef COURSECHECK_RE_H
#define COURSECHECK_RE_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdbool.h>
#include <stddef.h>

struct re {
	const char *pattern;
	unsigned flags;        /* PCRE2 compile options; PCRE2_UTF is always added */
	pcre2_code *code;      /* compiled lazily */
	struct re *next;       /* registry of compiled patterns */
	bool jit;              /* JIT-compiled: searched with pcre2_jit_match */
};

#define RE_INIT(pat, fl) {pat, fl, NULL, NULL, false}

/* Match results: at most RE_MAX_GROUPS capture groups. */
#define RE_MAX_GROUPS 10
struct re_match {
	size_t start[RE_MAX_GROUPS];
	size_t end[RE_MAX_GROUPS]; /* start == end == (size_t)-1 for an unset group */
};

/* Searches subject[offset..len).  Returns true on a match, false when
 * there is none.  The subject must be valid UTF-8: every text comes from
 * a textfile, and pages and programs that are not UTF-8 are refused when
 * read (textfile_report_encoding).  So PCRE2 does not re-check it on every
 * call (which made long scans quadratic); re_search checks it once on a
 * search from offset 0, and moves an offset that falls inside a character
 * on to the next one.  An invalid subject or any engine error other than
 * "no match" is a fatal internal error (a message and abort), never read
 * as "absent": a fact check that silently finds nothing is a false pass. */
bool re_search(struct re *re, const char *subject, size_t len, size_t offset, struct re_match *m);
/* As re_search, for a subject known to be UTF-8 (checked once with
 * re_utf8_invalid_at(), or read through textfile): PCRE2 does not validate it again, so a loop of searches
 * over one text is linear (PCRE2 checks from the start offset to the end
 * on every call otherwise). */
bool re_search_valid(struct re *re, const char *subject, size_t len, size_t offset, struct re_match *m);
/* One match of a compiled pattern (re_search's, or a caller's own, as
 * numtok's) at subject[offset..len), a subject known to be UTF-8: by
 * pcre2_jit_match where the pattern was JIT-compiled (jit), by the
 * interpreter otherwise and where the JIT's stack cannot take it.
 * PCRE2's return code.  pcre2_jit_match is pcre2_match's JIT branch
 * without its checks of options and subject: a fact, a snippet marker, a
 * path or a number costs about a hundred instructions less.  Inline: it
 * runs once a number of every page and run (a call a number was 0.2 % of
 * a course, BENCH.md). */
static inline int re_match_code(const pcre2_code *code, bool jit, const char *subject, size_t len, size_t offset,
				pcre2_match_data *md)
{
	int rc = jit ? pcre2_jit_match(code, (PCRE2_SPTR)subject, len, offset, 0, md, NULL)
		     : pcre2_match(code, (PCRE2_SPTR)subject, len, offset, PCRE2_NO_UTF_CHECK, md, NULL);
	if (rc == PCRE2_ERROR_JIT_STACKLIMIT) /* the JIT's small stack: the interpreter's heap frames take it */
		rc = pcre2_match(code, (PCRE2_SPTR)subject, len, offset, PCRE2_NO_UTF_CHECK | PCRE2_NO_JIT, md, NULL);
	return rc;
}
/* Offset of the first byte of s that is not part of valid UTF-8 (RFC 3629:
 * no overlong forms, no surrogates, nothing past U+10FFFF), or len. */
size_t re_utf8_invalid_at(const char *s, size_t len);
/* True when group g took part in the match. */
bool re_group_set(const struct re_match *m, int g);
void re_release_all(void);

#endif
