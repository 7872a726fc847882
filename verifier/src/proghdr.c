/* proghdr.c - see proghdr.h. */
#include "proghdr.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The text of a comment line after its `//` and following spaces:
 * [*start, *end) within the line; false when the line is not a comment. */
static bool comment_body(const char *s, size_t len, size_t *start, size_t *end)
{
	size_t i = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (len - i < 2 || s[i] != '/' || s[i + 1] != '/')
		return false;
	*start = i + 2;
	*end = len;
	str_trim(s, start, end);
	return true;
}

static void take_value(size_t n, const char *s, size_t start, size_t end, size_t key_len, struct proghdr_value *v)
{
	v->count++;
	if (v->text)
		return; /* the first one counts; the repeat is the checker's to report */
	size_t a = start + key_len, b = end;
	str_trim(s, &a, &b);
	v->text = xstrndup(s + a, b - a);
	v->line = n;
	v->col = a + 1;
}

static bool has_word(const char *s, size_t len, const char *word)
{
	size_t w = strlen(word);
	for (size_t i = 0; i + w <= len; i++) {
		if (memcmp(s + i, word, w) != 0)
			continue;
		bool left = i == 0 || !((s[i - 1] | 32) >= 'a' && (s[i - 1] | 32) <= 'z');
		bool right = i + w == len || !((s[i + w] | 32) >= 'a' && (s[i + w] | 32) <= 'z');
		if (left && right)
			return true;
	}
	return false;
}

void proghdr_parse(const struct textfile *tf, struct proghdr *h)
{
	memset(h, 0, sizeof *h);
	size_t n = 1, len, start, end;
	const char *s;
	while (n <= tf->n_lines) {
		s = textfile_line(tf, n, &len);
		if (!str_is_blank(s, len))
			break;
		n++;
	}
	struct buf joined = {0};
	size_t cap = 0;
	bool in_verified = false, verified_done = false;
	for (; n <= tf->n_lines; n++) {
		s = textfile_line(tf, n, &len);
		if (!comment_body(s, len, &start, &end))
			break;
		if (!h->first_line)
			h->first_line = n;
		h->last_line = n;
		const char *body = s + start;
		size_t blen = end - start;
		if (str_starts_with(body, blen, "Build:"))
			take_value(n, s, start, end, 6, &h->build);
		else if (str_starts_with(body, blen, "Run:"))
			take_value(n, s, start, end, 4, &h->run);

		if (in_verified && blen == 0) {
			in_verified = false;
			verified_done = true;
		}
		if (!in_verified && !verified_done && has_word(body, blen, "Verified")) {
			in_verified = true;
			h->verified_line = n;
		}
		if (in_verified) {
			h->verified_last = n;
			size_t off = tf->line_start[n - 1] + start;
			if (joined.len) {
				buf_putc(&joined, ' ');
				h->verified_src = xgrow(h->verified_src, &cap, joined.len, sizeof *h->verified_src);
				h->verified_src[joined.len - 1] = off > 0 ? off - 1 : 0;
			}
			h->verified_src = xgrow(h->verified_src, &cap, joined.len + blen + 1, sizeof *h->verified_src);
			for (size_t i = 0; i < blen; i++)
				h->verified_src[joined.len + i] = off + i;
			h->verified_src[joined.len + blen] = off + blen;
			buf_append(&joined, body, blen);
		}
	}
	if (h->verified_line) {
		h->verified_len = joined.len;
		h->verified = buf_detach(&joined);
	}
	buf_free(&joined);
}

void proghdr_free(struct proghdr *h)
{
	free(h->build.text);
	free(h->run.text);
	free(h->verified);
	free(h->verified_src);
	memset(h, 0, sizeof *h);
}

void proghdr_source_sha256(const struct textfile *tf, char out[65])
{
	struct proghdr h;
	proghdr_parse(tf, &h);
	struct buf b = {0};
	for (size_t n = 1; n <= tf->n_lines; n++) {
		size_t from = tf->line_start[n - 1];
		size_t to = n < tf->n_lines ? tf->line_start[n] : tf->len;
		bool in_header = h.first_line && n >= h.first_line && n <= h.last_line;
		bool verified = h.verified_line && n >= h.verified_line && n <= h.verified_last;
		size_t len, a = 0, e;
		const char *line = textfile_line(tf, n, &len);
		e = len;
		str_trim(line, &a, &e);
		bool empty_comment = e - a == 2 && line[a] == '/' && line[a + 1] == '/';
		if (verified || (in_header && empty_comment))
			continue;
		buf_append(&b, tf->data + from, to - from);
	}
	sha256_hex(b.s ? b.s : "", b.len, out);
	buf_free(&b);
	proghdr_free(&h);
}
