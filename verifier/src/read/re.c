/* re.c - see re.h. */
#include "re.h"

#include <stdio.h>
#include <stdlib.h>

#include "textfile.h"

static struct re *compiled;
static pcre2_match_data *match_data;

static pcre2_code *compile(struct re *re)
{
	int err;
	PCRE2_SIZE off;
	re->code = pcre2_compile((PCRE2_SPTR)re->pattern, PCRE2_ZERO_TERMINATED, re->flags | PCRE2_UTF, &err, &off,
				 NULL);
	if (!re->code) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(err, msg, sizeof msg);
		fprintf(stderr, "coursecheck: internal pattern /%s/ fails at %zu: %s\n", re->pattern, (size_t)off,
			(char *)msg);
		abort();
	}
	/* JIT where the platform has it (pcre2_match then runs the machine
	 * code); where it has not, or it fails, pcre2_match interprets the
	 * pattern as before: same results, only slower. */
	re->jit = pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE) == 0;
	re->next = compiled;
	compiled = re;
	return re->code;
}

static void fatal(const struct re *re, const char *what)
{
	fprintf(stderr, "coursecheck: internal error: pattern /%s/: %s\n", re->pattern, what);
	abort();
}

/* check: validate the subject's UTF-8 when the search starts at its
 * beginning (a text read by textfile is valid already: this is the
 * guard that a regex error is never read as "no match"). */
static bool search(struct re *re, const char *subject, size_t len, size_t offset, bool check, struct re_match *m)
{
	pcre2_code *code = re->code ? re->code : compile(re);
	if (!match_data)
		match_data = pcre2_match_data_create(RE_MAX_GROUPS, NULL);
	if (!match_data)
		fatal(re, "out of memory");
	if (offset > len)
		return false;
	if (check && offset == 0 && utf8_first_invalid(subject, len) < len)
		fatal(re, "the subject is not UTF-8 (it should have been refused when its file was read)");
	while (offset < len && ((unsigned char)subject[offset] & 0xC0) == 0x80)
		offset++; /* a caller's offset + 1 inside a character: PCRE2 needs a character boundary */
	int rc = re_match_code(code, re->jit, subject, len, offset, match_data);
	if (rc == PCRE2_ERROR_NOMATCH)
		return false;
	if (rc < 0) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(rc, msg, sizeof msg);
		fatal(re, (const char *)msg);
	}
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(match_data);
	for (int g = 0; g < RE_MAX_GROUPS; g++) {
		if (g < rc && ov[2 * g] != PCRE2_UNSET) {
			m->start[g] = ov[2 * g];
			m->end[g] = ov[2 * g + 1];
		} else {
			m->start[g] = m->end[g] = (size_t)-1;
		}
	}
	return true;
}

bool re_search(struct re *re, const char *subject, size_t len, size_t offset, struct re_match *m)
{
	return search(re, subject, len, offset, true, m);
}

bool re_search_valid(struct re *re, const char *subject, size_t len, size_t offset, struct re_match *m)
{
	return search(re, subject, len, offset, false, m);
}

size_t re_utf8_invalid_at(const char *s, size_t len)
{
	return utf8_first_invalid(s, len);
}

bool re_group_set(const struct re_match *m, int g)
{
	return m->start[g] != (size_t)-1;
}

void re_release_all(void)
{
	for (struct re *re = compiled; re; re = re->next) {
		pcre2_code_free(re->code);
		re->code = NULL;
	}
	compiled = NULL;
	pcre2_match_data_free(match_data);
	match_data = NULL;
}
