/* textfile.c - see textfile.h. */
#include "textfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repo.h"
#include "util.h"

const char textfile_too_large[] = "file is larger than 64 MiB";

size_t utf8_sequence_length(const unsigned char *s, size_t left)
{
	static const unsigned long smallest[5] = {0, 0, 0x80, 0x800, 0x10000};
	unsigned char lead = s[0];
	size_t n;
	unsigned long cp;
	if (lead < 0x80)
		return 1;
	if (lead >= 0xC2 && lead <= 0xDF)
		n = 2, cp = lead & 0x1Fu;
	else if (lead >= 0xE0 && lead <= 0xEF)
		n = 3, cp = lead & 0x0Fu;
	else if (lead >= 0xF0 && lead <= 0xF4)
		n = 4, cp = lead & 0x07u;
	else
		return 0;
	if (n > left)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3Fu);
	}
	if (cp < smallest[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return n;
}

size_t utf8_first_invalid(const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	for (size_t i = 0; i < len;) {
		/* ASCII, the bulk of every course file, eight bytes at a time */
		while (len - i >= 8) {
			uint64_t w;
			memcpy(&w, s + i, sizeof w);
			if (w & UINT64_C(0x8080808080808080))
				break;
			i += 8;
		}
		if (i >= len)
			break;
		size_t n = utf8_sequence_length(s + i, len - i);
		if (n == 0)
			return i;
		i += n;
	}
	return len;
}

bool textfile_report_encoding(const struct textfile *tf, const char *what)
{
	if (tf->has_nul) { /* at line 1: a caret line would stop at the NUL */
		diag_report(D_FILE_ENCODING, textfile_loc_line(tf, 1, 0, 0), "%s holds a NUL byte: it is not text", what);
		return true;
	}
	if (!tf->not_utf8)
		return false;
	size_t off = tf->not_utf8_at;
	struct diag *d = diag_begin(D_FILE_ENCODING, textfile_loc(tf, off, 1),
				    "%s is not UTF-8: byte 0x%02X here starts no valid UTF-8 sequence; nothing in it "
				    "was checked",
				    what, (unsigned char)tf->data[off]);
	diag_hint(d, "save the file as UTF-8 (iconv -f LATIN1 -t UTF-8 converts a Latin-1 file)");
	diag_end(d);
	return true;
}

/* Records where each line starts: 0, and the byte after every '\n' but a
 * final one. */
static void index_lines(struct textfile *tf)
{
	const char *s = tf->data;
	size_t len = tf->len, n = 0, cap = len / 32 + 8; /* room for lines of about 32 bytes */
	size_t *ls = xmalloc(cap * sizeof *ls);
	if (len)
		ls[n++] = 0;
	for (const char *nl = s; (nl = memchr(nl, '\n', len - (size_t)(nl - s))) != NULL;) {
		nl++;
		if (n == cap)
			ls = xgrow(ls, &cap, n + 1, sizeof *ls);
		ls[n++] = (size_t)(nl - s);
	}
	if (n && ls[n - 1] == len) /* a final '\n' ends the last line, starts none */
		n--;
	tf->line_start = ls;
	tf->n_lines = n;
}

/* Any file, rewritten in place as textfile.h says. */
static void normalise_and_index(struct textfile *tf, char *raw, size_t n)
{
	size_t i = 0, o = 0;
	if (n >= 3 && memcmp(raw, "\xEF\xBB\xBF", 3) == 0) {
		tf->had_bom = true;
		i = 3;
	}
	if (!memchr(raw + i, '\r', n - i)) { /* LF already: nothing to rewrite but the BOM */
		tf->has_nul = memchr(raw + i, '\0', n - i) != NULL;
		if (i) /* only a BOM moves the text */
			memmove(raw, raw + i, n - i);
		o = n - i;
		i = n;
	}
	for (; i < n; i++) {
		char c = raw[i];
		if (c == '\r') {
			tf->had_cr = true;
			if (i + 1 < n && raw[i + 1] == '\n')
				continue;
			c = '\n';
		} else if (c == '\0') {
			tf->has_nul = true;
		}
		raw[o++] = c;
	}
	raw[o] = '\0';
	tf->data = raw;
	tf->len = o;
	tf->not_utf8_at = utf8_first_invalid(raw, o);
	tf->not_utf8 = tf->not_utf8_at < o;

	index_lines(tf);
}

int textfile_read_fd(int fd, size_t size, size_t max, char **data, size_t *len)
{
	/* room for the file, its NUL and one byte more: the read that finds
	 * the end needs no bigger buffer.  read(2), not stdio: one read of
	 * the whole file (stdio read a page file 4 KiB at a time, and asked
	 * fstat again) */
	size_t cap = (size <= max ? size : max) + 2, n = 0;
	char *b = xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) { /* n <= max here, so cap < max + 2: it grows */
			cap = cap > max / 2 ? max + 2 : cap * 2;
			b = xrealloc(b, cap);
		}
		size_t want = cap - n - 1;
		ssize_t got = read(fd, b + n, want);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;
			free(b);
			errno = e ? e : EIO;
			return -1;
		}
		n += (size_t)got;
		if (n > max) {
			free(b);
			return 1;
		}
		/* a regular file reads short only at its end: short at the size
		 * stat gave is the end, without a read more to see 0; a file that
		 * changed size since reads on until read says 0 */
		if (got == 0 || ((size_t)got < want && n == size))
			break;
	}
	if (cap - n > 64) /* the doubling that found the end: the course cache keeps every file */
		b = xrealloc(b, n + 1);
	b[n] = '\0';
	*data = b;
	*len = n;
	return 0;
}

int textfile_read(const char *fspath, const char *display, struct textfile *tf, const char **why)
{
	memset(tf, 0, sizeof *tf);
	struct stat st;
	if (stat(fspath, &st) != 0) {
		*why = strerror(errno);
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		*why = "is a directory";
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = "is not a regular file";
		return -1;
	}
	if ((unsigned long long)st.st_size > TEXTFILE_MAX_BYTES) {
		*why = textfile_too_large;
		return -1;
	}
	/* stat before open: a FIFO or device is refused without opening it */
	int fd = open(fspath, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		*why = strerror(errno);
		return -1;
	}
	char *raw;
	size_t n;
	int r = textfile_read_fd(fd, (size_t)st.st_size, TEXTFILE_MAX_BYTES, &raw, &n);
	int e = errno;
	close(fd);
	if (r != 0) {
		*why = r > 0 ? textfile_too_large : strerror(e);
		return -1;
	}
	tf->path = xstrdup(display);
	normalise_and_index(tf, raw, n);
	return 0;
}

void textfile_from_memory(const char *data, size_t len, const char *display, struct textfile *tf)
{
	memset(tf, 0, sizeof *tf);
	char *raw = xmalloc(len + 1);
	memcpy(raw, data, len);
	tf->path = xstrdup(display);
	normalise_and_index(tf, raw, len);
}

void textfile_take(char *raw, size_t len, const char *display, struct textfile *tf)
{
	memset(tf, 0, sizeof *tf);
	tf->path = xstrdup(display);
	normalise_and_index(tf, raw, len);
}

void textfile_free(struct textfile *tf)
{
	free(tf->path);
	free(tf->data);
	free(tf->line_start);
	memset(tf, 0, sizeof *tf);
}

size_t textfile_line_index(const size_t *line_start, size_t n_lines, size_t off)
{
	size_t lo = 0, hi = n_lines;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (line_start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

size_t textfile_line_of(const struct textfile *tf, size_t off)
{
	return textfile_line_index(tf->line_start, tf->n_lines, off) + 1;
}

struct diag_loc textfile_loc(const struct textfile *tf, size_t off, size_t span)
{
	size_t line = textfile_line_of(tf, off);
	size_t start = tf->n_lines ? tf->line_start[line - 1] : 0;
	return textfile_loc_line(tf, line, off - start + 1, span);
}

struct diag_loc textfile_loc_line(const struct textfile *tf, size_t n, size_t col, size_t span)
{
	struct diag_loc at = {.path = tf->path, .line = n, .col = col, .span = span};
	if (n >= 1 && n <= tf->n_lines)
		at.text = textfile_line(tf, n, &at.text_len);
	return at;
}

enum textfile_small textfile_read_small(const char *rel, size_t max, char **data, size_t *len, const char **why)
{
	char *fs = NULL;
	mode_t type = 0;
	enum repo_status s = repo_resolve_type(rel, &fs, why, &type);
	if (s == REPO_MISSING && errno == ENOENT) {
		free(fs);
		return TEXTFILE_SMALL_NONE;
	}
	if (s != REPO_OK) {
		free(fs); /* *why is repo's */
		return TEXTFILE_SMALL_REFUSED;
	}
	enum textfile_small r = TEXTFILE_SMALL_REFUSED;
	int fd = open(fs, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat sb;
	int got;
	if (fd < 0 || fstat(fd, &sb) != 0)
		*why = strerror(errno);
	else if (!S_ISREG(sb.st_mode))
		r = TEXTFILE_SMALL_NOT_REGULAR;
	else if ((got = textfile_read_fd(fd, (size_t)sb.st_size, max, data, len)) > 0)
		r = TEXTFILE_SMALL_TOO_LARGE;
	else if (got < 0)
		*why = strerror(errno);
	else
		r = TEXTFILE_SMALL_OK;
	if (fd >= 0)
		close(fd);
	free(fs);
	return r;
}
