/*
 * signers.h - an "allowed signers" file, as ssh-keygen(1) reads it for
 * `ssh-keygen -Y verify` (its ALLOWED SIGNERS section): one key a line,
 *
 *     PRINCIPALS [OPTIONS] KEYTYPE BASE64 [COMMENT]
 *
 * PRINCIPALS comma-separated (quoted when it holds blank space); OPTIONS
 * comma-separated: namespaces="N,...", valid-after="TIME",
 * valid-before="TIME" (TIME: YYYYMMDD[HHMM[SS]][Z]; coursecheck reads a
 * TIME without Z as UTC too, where ssh-keygen reads it as local time:
 * write the Z), and cert-authority, which coursecheck does not support
 * (the line is refused with a problem).  Blank lines and # comments are
 * skipped.  Only ssh-ed25519 keys are kept (sshsig.h); a line with
 * another type is a problem too.
 *
 * Parsing never fails: each line it cannot use is a problem (line,
 * column, message) and is left out; the rest are kept.  Linear in the
 * text.  Ownership: a struct signers owns everything in it, freed by
 * signers_free().  libc and libcrypto only.
 */
#ifndef COURSECHECK_SIGNERS_H
#define COURSECHECK_SIGNERS_H

#include <stdbool.h>
#include <stddef.h>

#include "sshsig.h"

#define SIGNERS_NO_TIME_BEFORE (-(1LL << 62))
#define SIGNERS_NO_TIME_AFTER (1LL << 62)

struct signer {
	char *principals;        /* as written, comma-separated, quotes removed */
	char *namespaces;        /* comma-separated, or NULL: every namespace */
	long long valid_after;   /* seconds since 1970 (UTC); SIGNERS_NO_TIME_BEFORE when not set */
	long long valid_before;  /* SIGNERS_NO_TIME_AFTER when not set */
	char *valid_after_text;  /* as written, or NULL */
	char *valid_before_text;
	unsigned char key[SSHSIG_ED25519_LEN];
	char *line_text;         /* the whole line, for differences between two files */
	size_t line;             /* 1-based */
};

struct signers_problem {
	size_t line, col; /* 1-based */
	char *message;
};

struct signers {
	struct signer *v;
	size_t n;
	struct signers_problem *problems;
	size_t n_problems;
};

void signers_parse(const char *text, size_t len, struct signers *out);
void signers_free(struct signers *s);

/* True when the signer's namespaces= allows ns (or it sets none). */
bool signers_namespace_allows(const struct signer *s, const char *ns);
/* Reads "YYYYMMDD[HHMM[SS]][Z]" or the evidence's "YYYY-MM-DDTHH:MM:SSZ"
 * as seconds since 1970, UTC.  False when it is neither. */
bool signers_parse_time(const char *s, long long *out);
/* The first principal of s (malloc'd), for messages. */
char *signers_first_principal(const struct signer *s);

#endif
