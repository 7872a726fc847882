/*
 * evsig.h - whether a run of the course is vouched for: its signature
 * (RUN.sig beside it, sshsig.h) checked against the keys the course
 * trusts (evidence/allowed_signers, signers.h), in C through libcrypto,
 * no process per file.
 *
 * The trusted keys are read once a run (evsig_load): from the working
 * tree, or with a trust revision (verify --trust=REF) from
 * `git show REF:evidence/allowed_signers`, one git process; then every
 * difference between that and the working tree's file is reported
 * (signers-changed), so a key added in the same pull request as the runs
 * it signed is seen and not trusted.  evsig_load also refuses a private
 * key found in the course's folders (private-key-in-repository): the
 * files of evidence/ and its lesson folders that are not runs, and every
 * lesson's files as the course model lists them.
 *
 * A run is judged once (evsig_judge, a verdict with no report) and
 * reported by evsig_report at the run, with the page line that named it
 * as a note: once a run and strictness (a once region), so that a
 * published page reports an unsigned run as an error even where a draft
 * named it first.  Levels: no signature (evidence-unsigned) and a run
 * captured with --allow-dirty (evidence-dirty) are warnings, errors under
 * --as published and on a published page; a signature that does not
 * match, cannot be read or has another namespace
 * (evidence-signature-bad), a key not trusted (evidence-signer-
 * untrusted), a key outside its window at the run's captured: time
 * (evidence-signer-expired), a run capture marked as not from a GPU node
 * or a rehearsal (evidence-not-gpu-node) are errors.
 *
 * State: the trusted keys and the judged runs' memo, process-wide (one
 * model a process, as course.c's), freed by evsig_release().
 */
#ifndef COURSECHECK_EVSIG_H
#define COURSECHECK_EVSIG_H

#include <stdbool.h>

#include "course.h"
#include "diag.h"
#include "sshsig.h"

#define EVSIG_SIGNERS_PATH "evidence/allowed_signers"

enum evsig_state {
	EVSIG_OK,          /* signed by a trusted key within its window */
	EVSIG_UNSIGNED,    /* no RUN.sig */
	EVSIG_NOT_NODE,    /* gpu-node: no, or rehearsal: yes */
	EVSIG_BAD,         /* unreadable, another namespace, or not a signature of the file */
	EVSIG_UNTRUSTED,   /* a good signature by a key the trusted file does not list for evidence */
	EVSIG_EXPIRED,     /* ...by a listed key, outside its window at captured: */
};

/* A run's verdict.  Strings malloc'd, freed by evsig_verdict_free(). */
struct evsig_verdict {
	enum evsig_state state;
	char *sig_path;       /* RUN.sig (repository-relative) */
	char *why;            /* BAD, NOT_NODE, UNTRUSTED, EXPIRED: what, in words */
	char *hint;           /* what fixes it, or NULL */
	char fingerprint[SSHSIG_FP_LEN + 1]; /* the signing key, when the .sig could be read */
	char *principal;      /* OK, EXPIRED: the first principal of the matching line */
	char *valid_after;    /* OK, EXPIRED: the key's window, its ends as allowed_signers writes */
	char *valid_before;   /* them, or NULL where it sets none */
	const char *captured; /* the run's captured: (points into the evidence), or NULL */
	size_t line;          /* the evidence line to point at (1, or captured:, gpu-node:) */
	bool dirty_allowed;   /* dirty-allowed: yes */
	size_t dirty_line;
};

/* Before evsig_load: its scan for private keys looks at evidence/ alone,
 * not into every evidence/LESSON/ (verify PAGE...: one page costs its own
 * files; the full run, and CI, look into every lesson's folder). */
void evsig_scan_top_only(void);
/* Reads the trusted keys (trust_ref NULL: the working tree's file) and
 * reports their problems, the differences and private keys.  Called once
 * by verify after course_load(), before any worker; explain and review
 * get it lazily at their first judgement (working tree). */
void evsig_load(const char *trust_ref);

/* Judges ev (a loaded run of the course cache); v is overwritten. */
void evsig_judge(const struct evfile *ev, struct evsig_verdict *v);
void evsig_verdict_free(struct evsig_verdict *v);

/* Judges and reports ev once a run and strictness; page_at: the page's
 * line that names it (a note), or a zero location for none. */
void evsig_check(const struct evfile *ev, struct diag_loc page_at);

/* One line for explain and review: "signed by PRINCIPAL (KEY, WINDOW),
 * captured AT" or what is wrong.  Malloc'd. */
char *evsig_describe(const struct evsig_verdict *v);
/* The state as the JSON report names it: "signed", "unsigned",
 * "not-gpu-node", "signature-bad", "signer-untrusted", "signer-expired". */
const char *evsig_state_name(enum evsig_state state);

/* The trusted keys (loaded from the working tree at the first call when
 * evsig_load was not called) and, in *ref when not NULL, the trust
 * revision (NULL: the working tree): what approvals.h judges a reviewer's
 * key by.  Borrowed until evsig_release(). */
struct signers;
const struct signers *evsig_trusted(const char **ref);
/* `git show REF:rel` (the trust revision's copy of a file: its
 * allowed_signers, a page's approvals): 0 with its bytes in *out, 1 when
 * REF has no such file, -1 with *why (malloc'd). */
struct buf;
int evsig_git_show(const char *ref, const char *rel, struct buf *out, char **why);

void evsig_release(void);

#endif
