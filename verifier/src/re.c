/* re.c - see re.h. */
#include "re.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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
	re->next = compiled;
	compiled = re;
	return re->code;
}

static bool search(struct re *re, const char *subject, size_t len, size_t offset, uint32_t options,
		   struct re_match *m);

bool re_search(struct re *re, const char *subject, size_t len, size_t offset, struct re_match *m)
{
	return search(re, subject, len, offset, 0, m);
}

bool re_search_valid(struct re *re, const char *subject, size_t len, size_t offset, struct re_match *m)
{
	return search(re, subject, len, offset, PCRE2_NO_UTF_CHECK, m);
}

/* Length of the valid UTF-8 sequence at s, 0 when it is not one. */
static size_t utf8_sequence(const unsigned char *s, size_t left)
{
	unsigned c = s[0];
	if (c < 0x80)
		return 1;
	size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
	if (n == 0 || n > left)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F) || (c == 0xF0 && s[1] < 0x90) ||
	    (c == 0xF4 && s[1] > 0x8F))
		return 0;
	return n;
}

size_t re_utf8_invalid_at(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < len;) {
		size_t n = utf8_sequence(u + i, len - i);
		if (n == 0)
			return i;
		i += n;
	}
	return len;
}

static bool search(struct re *re, const char *subject, size_t len, size_t offset, uint32_t options,
		   struct re_match *m)
{
	pcre2_code *code = re->code ? re->code : compile(re);
	if (!match_data)
		match_data = pcre2_match_data_create(RE_MAX_GROUPS, NULL);
	/* PCRE2 validates the UTF-8 of each subject: invalid bytes make the
	 * match fail (rc < 0) rather than read past the buffer. */
	int rc = pcre2_match(code, (PCRE2_SPTR)subject, len, offset, options, match_data, NULL);
	if (rc < 0)
		return false;
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
