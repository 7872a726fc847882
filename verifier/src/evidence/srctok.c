/* srctok.c - see srctok.h: the tokens rule in two passes, splices out
 * first, then one function per kind of token over plain bytes. */
#include "srctok.h"

#include <stdlib.h>
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

/* The length of the line splice at i (backslash, optional CR, line feed),
 * or 0. */
static size_t splice_len(const char *s, size_t len, size_t i)
{
	if (i + 1 < len && s[i + 1] == '\n')
		return 2;
	if (i + 2 < len && s[i + 1] == '\r' && s[i + 2] == '\n')
		return 3;
	return 0;
}

/* Translation phase 2, left to right: lx->s becomes data without its
 * splices, a copy only where there is one, and lx->splice[] the clean
 * position of each (the line it removed, for srctok_token.line). */
static void unsplice(struct srctok *lx, const char *data, size_t len)
{
	char *out = NULL;
	size_t o = 0, from = 0, i = 0, cap = 0;
	for (const char *b; i < len && (b = memchr(data + i, '\\', len - i)); i++) {
		i = (size_t)(b - data);
		size_t k = splice_len(data, len, i);
		if (!k)
			continue;
		if (!out)
			out = xmalloc(len);
		memcpy(out + o, data + from, i - from);
		o += i - from;
		lx->splice = xgrow(lx->splice, &cap, lx->n_splice + 1, sizeof *lx->splice);
		lx->splice[lx->n_splice++] = o;
		from = i + k;
		i = from - 1; /* the loop's i++ moves to from: splices may follow */
	}
	if (!out) {
		lx->s = data;
		lx->len = len;
		return;
	}
	memcpy(out + o, data + from, len - from);
	lx->clean = out;
	lx->s = out;
	lx->len = o + len - from;
}

void srctok_init(struct srctok *lx, const char *data, size_t len)
{
	memset(lx, 0, sizeof *lx);
	lx->line = 1;
	lx->bol = true;
	unsplice(lx, data, len);
}

void srctok_free(struct srctok *lx)
{
	free(lx->clean);
	free(lx->splice);
	buf_free(&lx->tok);
	memset(lx, 0, sizeof *lx);
}

/* The file line of clean position p: line feeds before it, and splices
 * at or before it (p is where a token starts, after any splice there).
 * Counted forward from the last call: linear over a file. */
static size_t line_of(struct srctok *lx, size_t p)
{
	const char *s = lx->s;
	for (const char *nl; lx->line_pos < p && (nl = memchr(s + lx->line_pos, '\n', p - lx->line_pos));) {
		lx->line_pos = (size_t)(nl - s) + 1;
		lx->line++;
	}
	lx->line_pos = p > lx->line_pos ? p : lx->line_pos;
	for (; lx->next_splice < lx->n_splice && lx->splice[lx->next_splice] <= p; lx->next_splice++)
		lx->line++;
	return lx->line;
}

/* lex() and the helpers it calls at every token are inlined into both
 * its callers: srctok_sha256's loop runs over every byte of every lesson
 * source that verify reads, and gcc at -O2 keeps a lex of two callers
 * out of line, a call and the helpers' own calls a token.  Inlined, the
 * lexing of a 32 KB program takes 22 % fewer instructions (lesson-1000:
 * 3,028 M -> 2,881 M, BENCH.md). */
#define LEX_STEP __attribute__((always_inline)) static inline

/* Identifier bytes: letters, digits, _, and every byte >= 0x80. */
#define IDENT(c)                                                                                 \
	(((c) >= 'a' && (c) <= 'z') || ((c) >= 'A' && (c) <= 'Z') || ((c) >= '0' && (c) <= '9') || \
	 (c) == '_' || (c) >= 0x80)
#define IDENT16(b)                                                                                              \
	IDENT(b + 0), IDENT(b + 1), IDENT(b + 2), IDENT(b + 3), IDENT(b + 4), IDENT(b + 5), IDENT(b + 6),        \
		IDENT(b + 7), IDENT(b + 8), IDENT(b + 9), IDENT(b + 10), IDENT(b + 11), IDENT(b + 12), IDENT(b + 13), \
		IDENT(b + 14), IDENT(b + 15)
static const bool ident_byte[256] = {IDENT16(0),   IDENT16(16),  IDENT16(32),  IDENT16(48),
				     IDENT16(64),  IDENT16(80),  IDENT16(96),  IDENT16(112),
				     IDENT16(128), IDENT16(144), IDENT16(160), IDENT16(176),
				     IDENT16(192), IDENT16(208), IDENT16(224), IDENT16(240)};

static bool is_ident(char c)
{
	return ident_byte[(unsigned char)c];
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Blank space between tokens: space, tab, CR, VT, FF (a table: the
 * lexer asks it of every byte between tokens). */
static const bool blank_byte[256] = {[' '] = true, ['\t'] = true, ['\r'] = true, ['\v'] = true, ['\f'] = true};

static bool is_blank(char c)
{
	return blank_byte[(unsigned char)c];
}

/* The byte at p, 0 past the end. */
static char at(const struct srctok *lx, size_t p)
{
	return p < lx->len ? lx->s[p] : '\0';
}

/* Past the block comment whose body starts at p: after its `* /`, or the
 * file's end when it is left open. */
static size_t comment_end(const char *s, size_t len, size_t p)
{
	for (const char *star; p < len && (star = memchr(s + p, '*', len - p)); p++) {
		p = (size_t)(star - s);
		if (p + 1 < len && s[p + 1] == '/')
			return p + 2;
	}
	return len;
}

/* Blank space and comments; a line feed that ends a directive stops
 * here (true: the caller returns it as a token).  A run of blanks is
 * passed by a loop of its own: indentation is most of a source's blank
 * space, and the other tests are needed once a run, not once a byte. */
LEX_STEP bool skip_blank(struct srctok *lx)
{
	const char *s = lx->s;
	size_t p = lx->pos, len = lx->len;
	bool nl = false;
	for (;;) {
		while (p < len && is_blank(s[p]))
			p++;
		if (p >= len)
			break;
		char c = s[p];
		if (c == '\n') {
			p++;
			lx->bol = true;
			if (lx->directive) {
				lx->directive = false;
				nl = true;
				break;
			}
		} else if (c == '/' && p + 1 < len && s[p + 1] == '/') {
			const char *end = memchr(s + p, '\n', len - p);
			p = end ? (size_t)(end - s) : len;
		} else if (c == '/' && p + 1 < len && s[p + 1] == '*') {
			p = comment_end(s, len, p + 2);
		} else {
			break;
		}
	}
	lx->pos = p;
	return nl;
}

/* Past the quoted literal whose opening quote is at p: to the matching
 * quote, a backslash escaping the next byte; left open, to the line's end. */
static size_t quoted_end(const char *s, size_t len, size_t p)
{
	char q = s[p++];
	while (p < len && s[p] != '\n') {
		char c = s[p++];
		if (c == q)
			break;
		if (c == '\\' && p < len && s[p] != '\n')
			p++;
	}
	return p;
}

/* Past the raw string whose opening quote is at p: R"delim( ... )delim";
 * a delimiter longer than 16 bytes or cut by a line feed is no raw string
 * (the token ends where the delimiter stops); left open, to the file's end. */
static size_t raw_end(const char *s, size_t len, size_t p)
{
	size_t delim = ++p, n = 0;
	while (p < len && s[p] != '(' && n < 16 && s[p] != '\n') {
		p++;
		n++;
	}
	if (p >= len || s[p] != '(')
		return p;
	for (const char *close; p < len && (close = memchr(s + p, ')', len - p));) {
		p = (size_t)(close - s) + 1;
		size_t k = 0;
		while (k < n && p < len && s[p] == s[delim + k]) {
			p++;
			k++;
		}
		if (k == n && p < len && s[p] == '"')
			return p + 1;
	}
	return len;
}

/* Whether the n bytes at w are one of the words listed, NUL-separated. */
static bool word_in(const char *w, size_t n, const char *list)
{
	for (; *list; list += strlen(list) + 1)
		if (strlen(list) == n && memcmp(w, list, n) == 0)
			return true;
	return false;
}

/* Past the identifier at p, or the literal it prefixes (L"x", u8'c',
 * R"(raw)"). */
LEX_STEP size_t word_end(const char *s, size_t len, size_t p)
{
	size_t start = p;
	while (p < len && is_ident(s[p]))
		p++;
	if (p >= len || p - start > 3 || (s[p] != '"' && s[p] != '\''))
		return p;
	if (s[p] == '"' && word_in(s + start, p - start, "R\0LR\0u8R\0uR\0UR\0"))
		return raw_end(s, len, p);
	if (word_in(s + start, p - start, "L\0u\0U\0u8\0"))
		return quoted_end(s, len, p);
	return p;
}

/* Past the pp-number at p: digits, letters, _, ., digit separators and
 * exponent signs. */
LEX_STEP size_t number_end(const char *s, size_t len, size_t p)
{
	while (p < len) {
		char c = s[p];
		if (c == 'e' || c == 'E' || c == 'p' || c == 'P') {
			p++;
			if (p < len && (s[p] == '+' || s[p] == '-'))
				p++;
		} else if (c == '\'' && p + 1 < len && is_ident(s[p + 1])) {
			p++;
		} else if (is_ident(c) || c == '.') {
			p++;
		} else {
			break;
		}
	}
	return p;
}

/* The length of the punctuator that starts with a, b, c, by longest
 * match over C++'s: ... >>= <<= <=> ->* :: ++ -- -> && || << >> <= >= ==
 * != += -= *= /= %= &= |= ^= ## .* <: :> <% %> %:; any other byte alone. */
LEX_STEP size_t punct_len(char a, char b, char c)
{
	switch (a) {
	case '.':
		return b == '.' && c == '.' ? 3 : b == '*' ? 2 : 1;
	case '>':
		return b == '>' ? (c == '=' ? 3 : 2) : b == '=' ? 2 : 1;
	case '<':
		if (b == '<')
			return c == '=' ? 3 : 2;
		if (b == '=')
			return c == '>' ? 3 : 2;
		return b == ':' || b == '%' ? 2 : 1;
	case '-':
		if (b == '>')
			return c == '*' ? 3 : 2;
		return b == '-' || b == '=' ? 2 : 1;
	case ':':
		return b == ':' || b == '>' ? 2 : 1;
	case '+':
		return b == '+' || b == '=' ? 2 : 1;
	case '&':
		return b == '&' || b == '=' ? 2 : 1;
	case '|':
		return b == '|' || b == '=' ? 2 : 1;
	case '%':
		return b == '=' || b == '>' || b == ':' ? 2 : 1;
	case '#':
		return b == '#' ? 2 : 1;
	case '=':
	case '!':
	case '*':
	case '/':
	case '^':
		return b == '=' ? 2 : 1;
	default:
		return 1;
	}
}

/* The next token as a span of lx->s (*text, *len; "\n" for a directive's
 * end, at *start): the lexer both srctok_next and srctok_sha256 read. */
LEX_STEP bool lex(struct srctok *lx, const char **text, size_t *len, size_t *start)
{
	if (skip_blank(lx)) {
		*text = "\n", *len = 1, *start = lx->pos - 1;
		return true;
	}
	if (lx->pos >= lx->len) {
		if (!lx->directive)
			return false;
		lx->directive = false; /* a directive on the last line ends with the file */
		*text = "\n", *len = 1, *start = lx->len;
		return true;
	}
	const char *s = lx->s;
	size_t p = lx->pos, end;
	char c = s[p];
	if (c == '"' || c == '\'')
		end = quoted_end(s, lx->len, p);
	else if (is_digit(c) || (c == '.' && is_digit(at(lx, p + 1))))
		end = number_end(s, lx->len, p);
	else if (is_ident(c))
		end = word_end(s, lx->len, p);
	else
		end = p + punct_len(c, at(lx, p + 1), at(lx, p + 2));
	if (lx->bol && ((end - p == 1 && c == '#') || (end - p == 2 && c == '%' && s[p + 1] == ':')))
		lx->directive = true;
	lx->bol = false;
	lx->pos = end;
	*text = s + p, *len = end - p, *start = p;
	return true;
}

bool srctok_next(struct srctok *lx, struct srctok_token *t)
{
	const char *text;
	size_t len, start;
	if (!lex(lx, &text, &len, &start))
		return false;
	lx->tok.len = 0;
	buf_append(&lx->tok, text, len); /* a copy: callers read the text as a string */
	*t = (struct srctok_token){lx->tok.s, len, line_of(lx, start)};
	return true;
}

/* The tokens are joined first and hashed in one call: a digest update a
 * token cost more than the tokenizing (the same bytes, the same digest).
 * Each token is at least one byte of the clean copy and adds one space,
 * so the joined text fits in twice its length and one more "\n"; the
 * JOIN_SLACK bytes after that let a short token be copied as one fixed
 * 16-byte move (its bytes, then bytes the next token or space writes
 * over), not a memcpy call sized at run time: most tokens are a few
 * bytes, and the call cost more than the copy (BENCH.md). */
#define JOIN_SLACK 16

void srctok_sha256(const char *data, size_t len, char out[SHA256_HEX_LEN + 1])
{
	struct srctok owner;
	srctok_init(&owner, data, len);
	/* the loop lexes a copy whose address no call is given: gcc keeps its
	 * fields in registers, not in memory a memchr might write */
	struct srctok lx = owner;
	char *joined = xmalloc(2 * lx.len + 1 + JOIN_SLACK);
	size_t n = 0, tlen, start;
	const char *text;
	while (lex(&lx, &text, &tlen, &start)) {
		if (text[0] == '\n') { /* a directive's end (no token starts with a line feed) */
			joined[n++] = '\n';
			continue;
		}
		if (tlen <= JOIN_SLACK && start + JOIN_SLACK <= lx.len)
			memcpy(joined + n, text, JOIN_SLACK);
		else
			memcpy(joined + n, text, tlen);
		n += tlen;
		joined[n++] = ' ';
	}
	srctok_free(&owner);
	sha256_hex(joined, n, out);
	free(joined);
}

void srctok_file_sha256(const char *path, const char *data, size_t len, char out[SHA256_HEX_LEN + 1])
{
	if (srctok_is_source(path))
		srctok_sha256(data, len, out);
	else
		sha256_hex(data, len, out);
}
