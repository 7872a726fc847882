/*
 * srctok.h - the tokens of a C, C++ or CUDA source file, and the hash of a
 * lesson file by the rule "tokens-1" (evidence field `source-rule:`).
 *
 * The rule, stated once:
 *   - A source file (srctok_is_source(): .c .h .cc .cpp .cxx .c++ .hh .hpp
 *     .hxx .h++ .cu .cuh .inl .ipp .tpp) is hashed by its tokens: the
 *     SHA-256 of every token followed by one space, and of one line feed
 *     where a preprocessor directive ends.  Comments (`//`, `/ * * /`),
 *     blank space and line splices (backslash-newline, removed everywhere
 *     as translation phase 2 removes them) are not tokens, so the
 *     Verified paragraph, snippet markers, a reworded comment or a
 *     re-indented line leave the hash as it was; a changed identifier,
 *     number, string or character literal, punctuator or directive line
 *     does not.
 *   - Every other file (data the program opens, a Makefile, a
 *     CMakeLists.txt) is hashed by its bytes.
 * Tokens: identifiers (letters, digits, _, and every byte >= 0x80),
 * pp-numbers (1'000, 0x1p-3, 2.5e+7f), string and character literals with
 * their prefixes (L u U u8, raw strings R"d(...)d"), the punctuators of
 * C++ by longest match (`>>` is one token, `> >` two), and any other byte
 * alone.  A literal left open ends at the line's end; a comment left open
 * at the file's end.  Plain C over bytes, linear in time and memory:
 * srctok_init removes the splices first, into a copy of the file only
 * where it has one (with the clean position of each, for lines); the
 * lexer then reads plain bytes, a token as a span of them, and
 * srctok_next copies that span to give it as a string.  Capture links it
 * (libc and libcrypto only).
 */
#ifndef COURSECHECK_SRCTOK_H
#define COURSECHECK_SRCTOK_H

#include <stdbool.h>
#include <stddef.h>

#include "sha256.h"
#include "util.h"

#define SRCTOK_RULE "tokens-1"

/* Whether path names a source file by its extension (the list above). */
bool srctok_is_source(const char *path);

struct srctok_token {
	const char *text; /* the token without splices, NUL-terminated; "\n" ends a directive */
	size_t len;
	size_t line;      /* 1-based file line where it starts */
};

/* A lexer over data (copied only where it has a line splice: it must
 * outlive the lexer). */
struct srctok {
	const char *s;         /* data without its splices: data itself, or clean */
	size_t len, pos;
	char *clean;           /* the copy without splices, or NULL (owned) */
	size_t *splice;        /* clean position of each splice, ascending (owned) */
	size_t n_splice;
	size_t line, line_pos; /* the line of the last token: line feeds counted up to line_pos */
	size_t next_splice;    /* and splices before this one */
	bool bol;              /* no token yet on this logical line */
	bool directive;        /* inside a preprocessor directive */
	struct buf tok;        /* the last token's text (owned) */
};

/* Allocates at most a copy of data and its splices' positions; always
 * call srctok_free. */
void srctok_init(struct srctok *lx, const char *data, size_t len);
/* The next token into *t (valid until the next call): true, or false at
 * the end (lx->line stays the last token's). */
bool srctok_next(struct srctok *lx, struct srctok_token *t);
void srctok_free(struct srctok *lx);

/* The tokens hash of data (the rule above, as for a source file). */
void srctok_sha256(const char *data, size_t len, char out[SHA256_HEX_LEN + 1]);
/* A lesson file's hash by the rule: tokens for a source file, bytes for
 * any other. */
void srctok_file_sha256(const char *path, const char *data, size_t len, char out[SHA256_HEX_LEN + 1]);

#endif
