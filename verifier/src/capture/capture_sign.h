/*
 * capture_sign.h - what capture vouches for: the node's signature on each
 * run it writes, whether this machine is a GPU node at all, and the
 * short-lived node key (`coursecheck-capture --keygen`).
 *
 * The signature is OpenSSH's SSHSIG (sshsig.h) of the whole evidence file
 * under the namespace "coursecheck-evidence", in run-DATE.txt.sig beside
 * it, so `ssh-keygen -Y verify` checks it with no coursecheck.  The order
 * of a signed capture: the file's text is composed and signed in memory,
 * then the run is written (capture_write.h), then its .sig, each through
 * filewrite's atomic writer.  A kill between the two leaves a whole run
 * with no .sig: an unsigned run, which verify reports (a warning, an
 * error under --as published), never a half file.
 *
 * The private key is read from a file outside the repository (a key in
 * it is refused): an unencrypted openssh-key-v1 Ed25519 key, read with
 * libcrypto alone, so a GPU node needs no ssh-keygen.
 *
 * A machine is a GPU node when the NVIDIA driver's kernel side is there:
 * /proc/driver/nvidia/version and /dev/nvidiactl.  A CPU box with the
 * test suite's stand-in nvidia-smi has neither, so its runs say
 * "gpu-node: no" and are never signed.  COURSECHECK_NODE_ROOT=DIR (tests
 * only) looks for those two under DIR instead of /.
 */
#ifndef COURSECHECK_CAPTURE_SIGN_H
#define COURSECHECK_CAPTURE_SIGN_H

#include <stdbool.h>
#include <stddef.h>

#include "sshsig.h"
#include "util.h"

struct capture_signer {
	struct sshkey key;
	char fingerprint[SSHSIG_FP_LEN + 1];
};

/* Reads the key file at path (--sign-key, COURSECHECK_SIGN_KEY).
 * Returns 0, or -1 with *why (inside the repository, unreadable,
 * encrypted, not an Ed25519 key). */
int capture_signer_load(const char *path, struct capture_signer *s, char **why);
void capture_signer_free(struct capture_signer *s);

/* The armored signature of an evidence text; NULL with *why. */
char *capture_sign_text(const struct capture_signer *s, const char *text, size_t len, size_t *sig_len, char **why);

/* Writes sig as RELPATH.sig beside the run relpath (repository-relative,
 * as evidence_write_new named it), never over a file.  0, or -1 with *why. */
int capture_sig_write(const char *relpath, const char *sig, size_t len, char **why);

/* The header lines of what capture vouches for: "gpu-node: yes", or
 * "gpu-node: no (WHY)"; "dirty-allowed: yes" under --allow-dirty;
 * "rehearsal: yes" under --rehearse. */
void capture_sign_header(struct buf *h, const char *not_gpu_node, bool dirty_allowed, bool rehearsal);

/* evidence_write_new() of text, signed first in memory when there is a
 * signer and this is a GPU node, then its .sig after the run (the order
 * the top of this header gives).  Returns 0 with *relpath, or -1 with
 * *why (nothing written, or the run written and its .sig not: *why says
 * which). */
int capture_write_signed(const char *lesson, const char *date, const char *text, size_t len,
			 const struct capture_signer *signer, const char *not_gpu_node, char **relpath, char **why);

/* --rehearse: where a rehearsal's runs go, outside evidence/ (never
 * signed; verify refuses one copied into evidence/: rehearsal: yes). */
#define CAPTURE_REHEARSAL_DIR "build/rehearsal"
/* Writes text as CAPTURE_REHEARSAL_DIR/LESSON/run-DATE[-N].txt, never over
 * a file.  0 with *relpath, or -1 with *why. */
int capture_write_rehearsal(const char *lesson, const char *date, const char *text, size_t len, char **relpath,
			    char **why);

/* The first path `git status` lists outside evidence/ (malloc'd), or
 * NULL when there is none or no git to ask (a copied tree: commit: none). */
char *capture_tree_change(const char *root);

/* True when this machine is a GPU node; else false with *why (malloc'd:
 * what it lacks). */
bool capture_gpu_node(char **why);

/* --keygen OUT: a new node key, valid from now for valid_for seconds,
 * written to OUT (0600; never inside the repository, never over a file)
 * and OUT.pub; prints its allowed_signers line on standard output.
 * now: COURSECHECK_NOW or NULL.  Returns 0, or -1 with *why. */
int capture_keygen(const char *out, const char *principal, long long valid_for, const char *now, char **why);

/* "7d", "12h", "30m": seconds, or -1. */
long long capture_parse_duration(const char *s);

#endif
