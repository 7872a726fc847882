/*
 * sshsig.h - OpenSSH signatures of files, as `ssh-keygen -Y sign` makes
 * and `ssh-keygen -Y verify` checks them (OpenSSH's PROTOCOL.sshsig), and
 * the Ed25519 keys that make them (PROTOCOL.key's "openssh-key-v1"
 * private key file, the "ssh-ed25519 BASE64" public key), through
 * libcrypto alone: capture signs on a GPU node that may have no
 * ssh-keygen, and verify checks every run without a process per file.
 * A key whose private half is not in a file at hand (a passphrase, a
 * reviewer's agent) signs through ssh-agent, as `ssh-keygen -Y sign -f
 * KEY.pub` does: one sign request on the agent's socket (OpenSSH's
 * PROTOCOL.agent), its answer checked against the public key before it
 * is used.
 *
 * Only Ed25519 keys: a signature or key of another type is refused with a
 * message naming the type.  The message hash is sha512 when signing (as
 * ssh-keygen does by default); sha256 and sha512 are both checked.
 *
 * Ownership: every char * returned is malloc'd and the caller's; a
 * struct sshsig and a struct sshkey own their strings, freed by
 * sshsig_free() and sshkey_free().  *why is malloc'd too.  libc and
 * libcrypto only (capture links it).  No global state.
 */
#ifndef COURSECHECK_SSHSIG_H
#define COURSECHECK_SSHSIG_H

#include <stdbool.h>
#include <stddef.h>

/* the namespace of every evidence signature (ssh-keygen -Y ... -n) */
#define SSHSIG_EVIDENCE_NAMESPACE "coursecheck-evidence"

#define SSHSIG_ED25519_LEN 32
/* "SHA256:" and 43 base64 digits, as ssh-keygen -l prints a fingerprint */
#define SSHSIG_FP_LEN 50

#define SSHSIG_ARMOR_BEGIN "-----BEGIN SSH SIGNATURE-----"
#define SSHSIG_ARMOR_END "-----END SSH SIGNATURE-----"
#define SSHKEY_PRIVATE_BEGIN "-----BEGIN OPENSSH PRIVATE KEY-----"
#define SSHKEY_PRIVATE_END "-----END OPENSSH PRIVATE KEY-----"

/* A parsed signature (the armored text of a .sig file). */
struct sshsig {
	char *key_type;                          /* "ssh-ed25519" */
	unsigned char key[SSHSIG_ED25519_LEN];   /* the signer's public key */
	char *namespace;                         /* e.g. "coursecheck-evidence" */
	char *hash_alg;                          /* "sha256" or "sha512" */
	unsigned char sig[64];
};

/* An Ed25519 key: always its public half, the private seed when read from
 * a private key file or generated. */
struct sshkey {
	unsigned char pub[SSHSIG_ED25519_LEN];
	unsigned char seed[32];
	bool has_private;
	char *comment; /* or NULL */
	char *agent;   /* no private half: the ssh-agent socket that holds it (sshkey_for_signing), or NULL */
};

/* Reads an armored signature.  Returns 0, or -1 with *why (what is wrong
 * with it: no armor, bad base64, wrong magic or version, a field cut
 * short, an unsupported key type). */
int sshsig_parse(const char *text, size_t len, struct sshsig *out, char **why);
void sshsig_free(struct sshsig *s);

/* True when s is a signature of msg by s->key under s->namespace (the
 * caller compares the namespace and the key with what it trusts). */
bool sshsig_check(const struct sshsig *s, const void *msg, size_t len);
/* The same over what the file descriptor reads to its end (in pieces:
 * memory stays flat whatever the file's size).  1 a signature of it, 0
 * not, -1 a read error (errno). */
int sshsig_check_fd(const struct sshsig *s, int fd);

/* The armored signature of msg by k under namespace ns, hash sha512,
 * lines of 70 as ssh-keygen writes them: with k's private half, or
 * through k->agent (a signature the agent returns that is not k's is
 * refused).  Returns NULL with *why when libcrypto or the agent refuses. */
char *sshsig_sign(const struct sshkey *k, const char *ns, const void *msg, size_t len, size_t *out_len, char **why);

/* Reads an "openssh-key-v1" private key file (unencrypted Ed25519).
 * Returns 0; 1 when the key is encrypted (passphrase: *why says so; k->pub
 * holds its public half, which the file keeps in the clear); -1 with *why
 * otherwise. */
int sshkey_parse_private(const char *text, size_t len, struct sshkey *k, char **why);
/* The key a signer names, as `ssh-keygen -Y sign -f FILE` takes FILE: an
 * unencrypted private key file signs here; a public key ("ssh-ed25519
 * BASE64 [comment]", a .pub file) or an encrypted private key file signs
 * through the ssh-agent at agent_sock (SSH_AUTH_SOCK; NULL or "" where
 * there is none), which must hold its private half.  Returns 0, or -1
 * with *why. */
int sshkey_for_signing(const char *text, size_t len, const char *agent_sock, struct sshkey *k, char **why);
/* True when text starts (after blank space) like a private key file of
 * OpenSSH, PEM or PKCS#8: what a repository must never hold.  A file is
 * told by its first SSHKEY_HEAD_BYTES bytes. */
#define SSHKEY_HEAD_BYTES 128
bool sshkey_looks_private(const char *text, size_t len);
/* A new key from the system's random source.  Returns 0, or -1 with *why. */
int sshkey_generate(struct sshkey *k, const char *comment, char **why);
/* The private key file of k, as ssh-keygen writes an unencrypted one. */
char *sshkey_format_private(const struct sshkey *k, size_t *len);
/* "ssh-ed25519 BASE64" of k's public half. */
char *sshkey_format_public(const unsigned char pub[SSHSIG_ED25519_LEN]);
/* Reads the key type and base64 of a public key ("ssh-ed25519",
 * "AAAAC3..."): 0, or -1 with *why (another type, bad base64, a blob that
 * is not what its type says). */
int sshkey_parse_public(const char *type, const char *b64, unsigned char pub[SSHSIG_ED25519_LEN], char **why);
/* "SHA256:..." of the public key blob, as ssh-keygen -l prints it. */
void sshkey_fingerprint(const unsigned char pub[SSHSIG_ED25519_LEN], char out[SSHSIG_FP_LEN + 1]);
void sshkey_free(struct sshkey *k);

#endif
