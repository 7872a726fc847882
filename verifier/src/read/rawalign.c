/* rawalign.c - see rawalign.h. */
#include "rawalign.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "html5ent.h"
#include "util.h"

/* The longest reference read: "&CounterClockwiseContourIntegral;" is 33. */
#define REF_MAX 40

static size_t put_utf8(uint32_t cp, char *o)
{
	if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = 0xFFFD;
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xC0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xE0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		o[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	o[0] = (char)(0xF0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	o[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

static bool is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* "&#N;" or "&#xH;" from raw[at] ('&'): the code point, or false. */
static bool numeric_ref(const char *raw, size_t at, size_t semi, uint32_t *cp)
{
	size_t i = at + 2;
	bool hex = i < semi && (raw[i] == 'x' || raw[i] == 'X');
	i += hex;
	if (i == semi || semi - i > 8)
		return false;
	uint32_t v = 0;
	for (; i < semi; i++) {
		char c = raw[i];
		int d = c >= '0' && c <= '9' ? c - '0'
			: hex && c >= 'a' && c <= 'f' ? c - 'a' + 10
			: hex && c >= 'A' && c <= 'F' ? c - 'A' + 10
						      : -1;
		if (d < 0)
			return false;
		v = v * (hex ? 16u : 10u) + (uint32_t)d;
	}
	*cp = v;
	return true;
}

size_t rawalign_reference(const char *raw, size_t at, size_t limit, char utf8[8], size_t *utf8_len)
{
	if (at + 2 >= limit || raw[at] != '&')
		return 0;
	size_t semi = at + 1;
	while (semi < limit && semi - at < REF_MAX && (is_alnum(raw[semi]) || (semi == at + 1 && raw[semi] == '#')))
		semi++;
	if (semi >= limit || raw[semi] != ';' || semi == at + 1)
		return 0;
	uint32_t cp;
	if (raw[at + 1] == '#') {
		if (!numeric_ref(raw, at, semi, &cp))
			return 0;
		*utf8_len = put_utf8(cp, utf8);
		return semi + 1 - at;
	}
	/* HTML5's names, as cmark-gfm decodes them (html5ent.h: libxml2's
	 * table has HTML 4's alone); one or two code points, at most 8 bytes */
	const char *text;
	size_t n = html5ent_lookup(raw + at + 1, semi - at - 1, &text);
	if (n == 0)
		return 0;
	memcpy(utf8, text, n);
	*utf8_len = n;
	return semi + 1 - at;
}

static bool is_ascii_punct(char c)
{
	return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') || (c >= '{' && c <= '~');
}

struct walk {
	struct rawalign_piece *v;
	size_t n, cap;
};

static void add(struct walk *w, size_t lit_off, size_t lit_len, size_t raw_off, size_t raw_len, bool verbatim)
{
	if (verbatim && w->n && w->v[w->n - 1].verbatim &&
	    w->v[w->n - 1].raw_off + w->v[w->n - 1].raw_len == raw_off) {
		w->v[w->n - 1].lit_len += lit_len;
		w->v[w->n - 1].raw_len += raw_len;
		return;
	}
	w->v = xgrow(w->v, &w->cap, w->n + 1, sizeof *w->v);
	w->v[w->n++] = (struct rawalign_piece){lit_off, lit_len, raw_off, raw_len, verbatim};
}

/* One walk from raw[r]: true when the whole text is aligned. */
static bool walk_from(const char *raw, size_t r, size_t limit, const char *lit, size_t len, struct walk *w,
		      size_t *raw_end)
{
	w->n = 0;
	size_t i = 0;
	while (i < len) {
		if (r >= limit)
			return false;
		char c = raw[r];
		if (c == '&') {
			char d[8];
			size_t dl = 0, rl = rawalign_reference(raw, r, limit, d, &dl);
			if (rl && dl <= len - i && memcmp(lit + i, d, dl) == 0) {
				add(w, i, dl, r, rl, false);
				i += dl, r += rl;
				continue;
			}
		} else if (c == '\\' && r + 1 < limit && is_ascii_punct(raw[r + 1]) && lit[i] == raw[r + 1]) {
			add(w, i, 1, r, 2, false);
			i++, r += 2;
			continue;
		}
		if (c != lit[i])
			return false;
		add(w, i, 1, r, 1, true);
		i++, r++;
	}
	*raw_end = r;
	return true;
}

size_t rawalign(const char *raw, size_t from, size_t limit, const char *lit, size_t len,
		struct rawalign_piece **out, size_t *raw_end)
{
	struct walk w = {0};
	*out = NULL;
	if (len == 0)
		return 0;
	size_t r = from;
	for (int tries = 0; tries < RAWALIGN_STARTS && r < limit; tries++, r++) {
		/* the next byte that may start the text: its first byte, or a
		 * reference or escape that decodes to it */
		while (r < limit && raw[r] != lit[0] && raw[r] != '&' && raw[r] != '\\')
			r++;
		if (r >= limit)
			break;
		if (walk_from(raw, r, limit, lit, len, &w, raw_end)) {
			*out = w.v;
			return w.n;
		}
	}
	free(w.v);
	return 0;
}
