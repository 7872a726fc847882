/* srctok.c - see srctok.h: the tokens rule, one function per kind of token. */
#include "srctok.h"

#include <string.h>

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n > t && strcmp(s + n - t, tail) == 0;
}

bool srctok_is_source(const char *path)
{
	static const char *const ext[] = {".c",   ".h",   ".cc",  ".cpp", ".cxx", ".c++", ".hh", ".hpp",
					  ".hxx", ".h++", ".cu",  ".cuh", ".inl", ".ipp", ".tpp"};
	for (size_t i = 0; i < ARRAY_LEN(ext); i++)
		if (ends_with(path, ext[i]))
			return true;
	return false;
}

void srctok_init(struct srctok *lx, const char *data, size_t len)
{
	memset(lx, 0, sizeof *lx);
	lx->s = data;
	lx->len = len;
	lx->line = 1;
	lx->bol = true;
}

void srctok_free(struct srctok *lx)
{
	buf_free(&lx->tok);
	memset(lx, 0, sizeof *lx);
}

/* p moved past any line splices (backslash, optional CR, line feed). */
static size_t spl(const struct srctok *lx, size_t p)
{
	for (;;) {
		if (p + 1 < lx->len && lx->s[p] == '\\' && lx->s[p + 1] == '\n')
			p += 2;
		else if (p + 2 < lx->len && lx->s[p] == '\\' && lx->s[p + 1] == '\r' && lx->s[p + 2] == '\n')
			p += 3;
		else
			return p;
	}
}

/* The byte at p (0 past the end) and the position after it, splices
 * skipped: the one way the lexer reads. */
static char at(const struct srctok *lx, size_t p)
{
	return p < lx->len ? lx->s[p] : '\0';
}

static size_t next(const struct srctok *lx, size_t p)
{
	return spl(lx, p + 1);
}

/* The file line of position p (counted forward: linear over a file). */
static size_t line_of(struct srctok *lx, size_t p)
{
	for (; lx->line_pos < p && lx->line_pos < lx->len; lx->line_pos++)
		if (lx->s[lx->line_pos] == '\n')
			lx->line++;
	return lx->line;
}

/* Takes the byte at the current position into the token. */
static void take(struct srctok *lx)
{
	buf_putc(&lx->tok, lx->s[lx->pos]);
	lx->pos = next(lx, lx->pos);
}

static bool is_ident(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Blank space, splices and comments; a line feed that ends a directive
 * stops here (true: the caller returns it as a token). */
static bool skip_blank(struct srctok *lx)
{
	for (;;) {
		lx->pos = spl(lx, lx->pos);
		char c = at(lx, lx->pos);
		if (lx->pos >= lx->len)
			return false;
		if (c == '\n') {
			lx->pos++;
			lx->bol = true;
			if (lx->directive) {
				lx->directive = false;
				return true;
			}
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f') {
			lx->pos++;
		} else if (c == '/' && at(lx, next(lx, lx->pos)) == '/') {
			while (lx->pos < lx->len && at(lx, lx->pos) != '\n')
				lx->pos = next(lx, lx->pos);
		} else if (c == '/' && at(lx, next(lx, lx->pos)) == '*') {
			lx->pos = next(lx, next(lx, lx->pos));
			while (lx->pos < lx->len && !(at(lx, lx->pos) == '*' && at(lx, next(lx, lx->pos)) == '/'))
				lx->pos = next(lx, lx->pos);
			if (lx->pos < lx->len)
				lx->pos = next(lx, next(lx, lx->pos));
		} else {
			return false;
		}
	}
}

/* A quoted literal from its opening quote: to the matching quote, a
 * backslash escaping the next byte; left open, to the line's end. */
static void quoted(struct srctok *lx)
{
	char q = at(lx, lx->pos);
	take(lx);
	while (lx->pos < lx->len && at(lx, lx->pos) != '\n') {
		char c = at(lx, lx->pos);
		take(lx);
		if (c == q)
			return;
		if (c == '\\' && lx->pos < lx->len && at(lx, lx->pos) != '\n')
			take(lx);
	}
}

/* A raw string from its opening quote: R"delim( ... )delim". */
static void raw_string(struct srctok *lx)
{
	take(lx); /* the quote */
	char delim[17];
	size_t n = 0;
	while (lx->pos < lx->len && at(lx, lx->pos) != '(' && n < 16 && at(lx, lx->pos) != '\n') {
		delim[n++] = at(lx, lx->pos);
		take(lx);
	}
	if (at(lx, lx->pos) != '(') /* no raw string after all: the rest is bytes */
		return;
	while (lx->pos < lx->len) {
		char c = at(lx, lx->pos);
		take(lx);
		if (c != ')')
			continue;
		size_t k = 0;
		while (k < n && at(lx, lx->pos) == delim[k]) {
			take(lx);
			k++;
		}
		if (k == n && at(lx, lx->pos) == '"') {
			take(lx);
			return;
		}
	}
}

/* An identifier, or the prefix of a literal (L"x", u8'c', R"(raw)"). */
static void word(struct srctok *lx)
{
	while (lx->pos < lx->len && is_ident((unsigned char)at(lx, lx->pos)))
		take(lx);
	const char *w = lx->tok.s;
	char c = at(lx, lx->pos);
	bool raw = strcmp(w, "R") == 0 || strcmp(w, "LR") == 0 || strcmp(w, "u8R") == 0 || strcmp(w, "uR") == 0 ||
		   strcmp(w, "UR") == 0;
	bool prefix = strcmp(w, "L") == 0 || strcmp(w, "u") == 0 || strcmp(w, "U") == 0 || strcmp(w, "u8") == 0;
	if (raw && c == '"')
		raw_string(lx);
	else if (prefix && (c == '"' || c == '\''))
		quoted(lx);
}

/* A pp-number: digits, letters, _, ., digit separators and exponent signs. */
static void number(struct srctok *lx)
{
	while (lx->pos < lx->len) {
		char c = at(lx, lx->pos);
		if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && lx->tok.len) {
			take(lx);
			char s = at(lx, lx->pos);
			if (s == '+' || s == '-')
				take(lx);
		} else if (c == '\'' && is_ident((unsigned char)at(lx, next(lx, lx->pos)))) {
			take(lx);
		} else if (is_ident((unsigned char)c) || c == '.') {
			take(lx);
		} else {
			return;
		}
	}
}

/* A punctuator by longest match; any other byte alone. */
static void punctuator(struct srctok *lx)
{
	static const char *const punct[] = {"...", ">>=", "<<=", "<=>", "->*", "::", "++", "--", "->", "&&", "||",
					    "<<",  ">>",  "<=",  ">=",  "==",  "!=", "+=", "-=", "*=", "/=", "%=",
					    "&=",  "|=",  "^=",  "##",  ".*",  "<:", ":>", "<%", "%>", "%:"};
	char c[3] = {at(lx, lx->pos), 0, 0};
	size_t p1 = next(lx, lx->pos);
	c[1] = at(lx, p1);
	c[2] = at(lx, next(lx, p1));
	size_t best = 1;
	for (size_t i = 0; i < ARRAY_LEN(punct); i++) {
		if (punct[i][0] != c[0])
			continue; /* most bytes start no punctuator of two or three */
		size_t n = strlen(punct[i]);
		if (n > best && memcmp(punct[i], c, n) == 0)
			best = n;
	}
	for (size_t i = 0; i < best; i++)
		take(lx);
}

bool srctok_next(struct srctok *lx, struct srctok_token *t)
{
	lx->tok.len = 0;
	buf_append(&lx->tok, "", 0);
	if (skip_blank(lx)) {
		buf_putc(&lx->tok, '\n');
		*t = (struct srctok_token){lx->tok.s, 1, line_of(lx, lx->pos - 1)};
		return true;
	}
	if (lx->pos >= lx->len) {
		if (!lx->directive)
			return false;
		lx->directive = false; /* a directive on the last line ends with the file */
		buf_putc(&lx->tok, '\n');
		*t = (struct srctok_token){lx->tok.s, 1, line_of(lx, lx->len)};
		return true;
	}
	size_t start = lx->pos;
	char c = at(lx, lx->pos);
	if (c == '"' || c == '\'')
		quoted(lx);
	else if (is_digit(c) || (c == '.' && is_digit(at(lx, next(lx, lx->pos)))))
		number(lx);
	else if (is_ident((unsigned char)c))
		word(lx);
	else
		punctuator(lx);
	if (lx->bol && (strcmp(lx->tok.s, "#") == 0 || strcmp(lx->tok.s, "%:") == 0))
		lx->directive = true;
	lx->bol = false;
	*t = (struct srctok_token){lx->tok.s, lx->tok.len, line_of(lx, start)};
	return true;
}

/* The tokens are joined first and hashed in one call: a digest update a
 * token cost more than the tokenizing (the same bytes, the same digest). */
void srctok_sha256(const char *data, size_t len, char out[SHA256_HEX_LEN + 1])
{
	struct buf joined = {0};
	struct srctok lx;
	struct srctok_token t;
	srctok_init(&lx, data, len);
	while (srctok_next(&lx, &t)) {
		buf_append(&joined, t.text, t.len);
		if (t.text[0] != '\n')
			buf_putc(&joined, ' ');
	}
	srctok_free(&lx);
	sha256_hex(joined.s ? joined.s : "", joined.len, out);
	buf_free(&joined);
}

void srctok_file_sha256(const char *path, const char *data, size_t len, char out[SHA256_HEX_LEN + 1])
{
	if (srctok_is_source(path))
		srctok_sha256(data, len, out);
	else
		sha256_hex(data, len, out);
}
