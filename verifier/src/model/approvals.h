/*
 * approvals.h - a reviewer's sign-off of a page's claims and traced
 * numbers (issue 36): what an item is, the approvals file of a page, its
 * signatures, and each item's state against it.
 *
 * Items.  approvals_items() makes one item of every ledger entry (ledger.h)
 * a reviewer must accept before the page is published: a claim
 * (LG_CLAIM), a traced, derived or cited number, an evidence table row and
 * an ambiguous number (LG_TRACED, LG_DERIVED, LG_CITED, LG_ROW,
 * LG_AMBIGUOUS).  Code blocks, facts, external and skipped numbers are
 * checked by other rules and are not items.  An item has
 *   - a place: what it is, whatever the run: a claim's expression, a
 *     derivation's "= EXPR", a number's evidence place ("[ROW | COLUMN]"
 *     as the page's annotation names it, else the evidence line with its
 *     numbers written '#' and the number's rank on it, "@3");
 *   - its sentence: the page's sentence around it (a table row's line),
 *     blank space collapsed; compared with its numbers written '#', so
 *     that a moved number is its own item's change, not its neighbours';
 *   - its values: the page's number as shown (not for a claim) and each
 *     evidence token it rests on ("1534 at evidence/L/run-D.txt:43:43");
 *     compared by the tokens alone (a new run's path and lines may differ);
 *   - the runs it rests on, each with its body-sha256;
 *   - an id: 8 hex digits of the SHA-256 of its kind, place, sentence (as
 *     compared) and rank among the page's items of that key; what
 *     `coursecheck approve --item ID` names.
 *
 * The file.  reviews/PAGE.approvals (PAGE: the page's file name without
 * .md), blocks one after another, each appended by one `approve`:
 *
 *     approval 1
 *     page: pages/day32-scan-2.md
 *     reviewer: alice
 *     key: SHA256:...
 *     approved: 2026-12-05T05:12:00Z
 *     item: 3f2a9c1e traced
 *     at: 37:23
 *     place: [10000000 4096 2442 4096 0 accepted | tile]
 *     sentence: The tile is 4,096 elements ...
 *     shown: 4,096
 *     value: 4096 at evidence/day32-scan-2/run-2026-12-05-2.txt:76:13
 *     run: evidence/day32-scan-2/run-2026-12-05-2.txt 0f3c...
 *     -----BEGIN SSH SIGNATURE-----
 *     ...
 *     -----END SSH SIGNATURE-----
 *
 * A block's signature is `ssh-keygen -Y sign -n coursecheck-review` of its
 * bytes from "approval 1" to the line before the armor (each line with its
 * LF), so `ssh-keygen -Y verify` checks it too.  A block is trusted when
 * the signature is good, its key is listed in the trusted allowed_signers
 * (evsig.h: the working tree's, or verify --trust=REF's) on a line whose
 * namespaces= names coursecheck-review, with reviewer: among that line's
 * principals and approved: inside its window, and no trusted line lists
 * the key for coursecheck-evidence (a node key never approves; a reviewer
 * key never vouches for a run, as evsig requires the evidence namespace).
 * The last trusted block that names an item wins.
 *
 * States (approvals_state, for the gate, `coursecheck approvals` and the
 * review page): APPROVED, the latest trusted record of the item's id has
 * the same sentence (as compared) and values; REOPENED, a record of its id
 * whose sentence or values differ, or a record of its kind and place whose
 * id no item of the page holds (its sentence changed); UNAPPROVED, none.
 *
 * Ownership: every struct owns its strings, freed by its _free().  Reading
 * is linear in the file (1 MiB at most) and the items; no global state
 * (the trusted keys are evsig's).
 */
#ifndef COURSECHECK_APPROVALS_H
#define COURSECHECK_APPROVALS_H

#include <stdbool.h>
#include <stddef.h>

#include "ledger.h"
#include "sshsig.h"
#include "textfile.h"

#define APPROVALS_NAMESPACE "coursecheck-review"
#define APPROVALS_DIR "reviews"
#define APPROVALS_MAX_FILE (1024 * 1024)

struct approval_value {
	char *token; /* the evidence token as written */
	char *where; /* PATH:LINE:COL */
};

struct approval_run {
	char *path;
	char *body_sha256; /* or "unknown" */
};

struct approval_item {
	enum ledger_kind kind;
	size_t line, col, span; /* on the page */
	char id[9];
	char *place, *sentence;
	char *shown; /* the number as the page shows it; NULL for a claim */
	struct approval_value *values;
	size_t n_values;
	struct approval_run *runs;
	size_t n_runs;
};

struct approval_items {
	struct approval_item *v;
	size_t n;
};

/* Whether a ledger entry of kind k is an item (the kinds above). */
bool approvals_kind_gated(enum ledger_kind k);
/* The items of a page's ledger; page: the page's text (its sentences). */
void approvals_items(const struct ledger *lg, const struct textfile *page, struct approval_items *out);
void approvals_items_free(struct approval_items *it);

/* One item as a block records it. */
struct approval_record {
	char id[9];
	enum ledger_kind kind;
	size_t file_line;  /* its item: line in the approvals file */
	size_t page_line, page_col;
	char *place, *sentence, *shown;
	struct approval_value *values;
	size_t n_values;
	struct approval_run *runs;
	size_t n_runs;
	size_t block; /* index into approvals.blocks */
};

enum approval_trust {
	APPROVAL_TRUSTED,
	APPROVAL_BAD,          /* malformed, or the signature is not one of the block's bytes */
	APPROVAL_UNTRUSTED,    /* a good signature by a key not listed for coursecheck-review */
	APPROVAL_EVIDENCE_KEY, /* ...by a key listed for coursecheck-evidence */
};

struct approval_block {
	size_t line;                 /* its "approval 1" line */
	char *reviewer, *approved;   /* as written, or NULL */
	char fingerprint[SSHSIG_FP_LEN + 1];
	enum approval_trust trust;
	char *why;                   /* not TRUSTED: in words */
};

struct approvals {
	char *path;                  /* reviews/PAGE.approvals, or REF:reviews/... */
	bool present;                /* the file exists */
	char *read_error;            /* could not be read: why (malloc'd), else NULL */
	struct textfile tf;          /* its text (empty when absent) */
	struct approval_block *blocks;
	size_t n_blocks;
	struct approval_record *records; /* of trusted blocks only, in file order */
	size_t n_records;
};

/* "reviews/NAME.approvals" for pages/NAME.md; malloc'd. */
char *approvals_path(const char *page_rel);
/* Reads and judges the page's approvals file: from the working tree (ref
 * NULL) or from git revision ref (git show).  Never fails: an absent file
 * is an empty one, an unreadable one has read_error. */
void approvals_read(const char *page_rel, const char *ref, struct approvals *out);
/* The same judgement of a file's text (the fuzz target's entry): text is
 * copied; path names it in the blocks' reasons. */
void approvals_parse(const char *path, const char *text, size_t len, struct approvals *out);
void approvals_free(struct approvals *a);

/* Whether key may approve as reviewer at time when ("YYYY-MM-DDTHH:MM:SSZ"),
 * by the rule above: APPROVAL_TRUSTED, or UNTRUSTED / EVIDENCE_KEY with *why
 * (malloc'd). */
enum approval_trust approvals_judge_key(const unsigned char key[SSHSIG_ED25519_LEN], const char *reviewer,
					const char *when, char **why);

/* Whether the trusted allowed_signers lists any key for coursecheck-review
 * (and not for evidence): a course that lists none has no one to approve. */
bool approvals_reviewers_listed(void);

enum approval_state { APPROVAL_UNAPPROVED, APPROVAL_APPROVED, APPROVAL_REOPENED };

/* The state of every item (states[i] for it->v[i]) and, for APPROVED and
 * REOPENED, the record it was judged by (recs[i], a pointer into a; NULL
 * for UNAPPROVED).  states and recs: arrays of it->n, the caller's.  This
 * is what the review page asks for each item. */
void approvals_states(const struct approvals *a, const struct approval_items *it, enum approval_state *states,
		      const struct approval_record **recs);

/* Whether the item's sentence is the record's, numbers written '#'. */
bool approvals_same_sentence(const struct approval_item *item, const struct approval_record *r);

/* The values of an item, or a record, as one line: "shown 1,534; 1534 at
 * PATH:43:43".  Malloc'd. */
char *approvals_item_values(const struct approval_item *item);
char *approvals_record_values(const struct approval_record *r);

/* A new block approving the items sel[0..n) of it, by reviewer with key k
 * (private) at time now ("YYYY-MM-DDTHH:MM:SSZ"), signed; malloc'd text
 * (with its signature), or NULL with *why. */
char *approvals_block(const char *page_rel, const struct approval_items *it, const size_t *sel, size_t n,
		      const char *reviewer, const struct sshkey *k, const char *now, char **why);
/* The file's text with the blocks whose every record a later trusted
 * block (or the new one, naming ids) supersedes left out, then block:
 * what approve writes.  Malloc'd. */
char *approvals_merge(const struct approvals *a, const struct approval_items *it, const size_t *sel, size_t n,
		      const char *block);

#endif
