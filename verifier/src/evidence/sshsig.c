/* sshsig.c - see sshsig.h: OpenSSH's SSHSIG signatures and Ed25519 keys
 * through libcrypto.  The wire format is OpenSSH's (RFC 4251 strings: a
 * big-endian uint32 length, then the bytes). */
#include "sshsig.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "util.h"

#define KEY_TYPE "ssh-ed25519"
#define SIG_MAGIC "SSHSIG"
#define KEY_MAGIC "openssh-key-v1"
#define ARMOR_WIDTH 70
/* a signature is about 300 bytes, a private key file about 400: what
 * passes this is not one */
#define MAX_ARMORED (64 * 1024)

/* ---- the wire format ---- */

struct rd {
	const unsigned char *p;
	size_t n;
	bool bad; /* read past the end: every later read fails too */
};

static uint32_t rd_u32(struct rd *r)
{
	if (r->bad || r->n < 4) {
		r->bad = true;
		return 0;
	}
	uint32_t v = (uint32_t)r->p[0] << 24 | (uint32_t)r->p[1] << 16 | (uint32_t)r->p[2] << 8 | r->p[3];
	r->p += 4;
	r->n -= 4;
	return v;
}

static const unsigned char *rd_string(struct rd *r, size_t *len)
{
	uint32_t n = rd_u32(r);
	if (r->bad || n > r->n) {
		r->bad = true;
		*len = 0;
		return NULL;
	}
	const unsigned char *s = r->p;
	r->p += n;
	r->n -= n;
	*len = n;
	return s;
}

/* The next string as a C string (malloc'd); NULL when cut short or it holds a NUL. */
static char *rd_cstring(struct rd *r)
{
	size_t n;
	const unsigned char *s = rd_string(r, &n);
	if (!s || memchr(s, 0, n)) {
		r->bad = true;
		return NULL;
	}
	return xstrndup((const char *)s, n);
}

static bool rd_is(struct rd *r, const char *want)
{
	size_t n;
	const unsigned char *s = rd_string(r, &n);
	return s && n == strlen(want) && memcmp(s, want, n) == 0;
}

/* The magic bytes a blob starts with (unprefixed), passed; false when
 * they are not there. */
static bool rd_magic(struct rd *r, const char *magic, size_t len)
{
	if (r->n < len || memcmp(r->p, magic, len) != 0)
		return false;
	r->p += len;
	r->n -= len;
	return true;
}

static void wr_u32(struct buf *b, uint32_t v)
{
	char c[4] = {(char)(v >> 24), (char)(v >> 16), (char)(v >> 8), (char)v};
	buf_append(b, c, 4);
}

static void wr_string(struct buf *b, const void *s, size_t n)
{
	wr_u32(b, (uint32_t)n);
	buf_append(b, s, n);
}

static void wr_cstring(struct buf *b, const char *s)
{
	wr_string(b, s, strlen(s));
}

/* string "ssh-ed25519", string KEY: the public key blob. */
static void wr_pubblob(struct buf *b, const unsigned char pub[SSHSIG_ED25519_LEN])
{
	wr_cstring(b, KEY_TYPE);
	wr_string(b, pub, SSHSIG_ED25519_LEN);
}

/* Reads a public key blob into pub; false with *why when it is not an Ed25519 one. */
static bool rd_pubblob(const unsigned char *blob, size_t len, unsigned char pub[SSHSIG_ED25519_LEN], char **why)
{
	struct rd r = {blob, len, false};
	char *type = rd_cstring(&r);
	size_t n;
	const unsigned char *k = rd_string(&r, &n);
	bool ok = !r.bad && type && strcmp(type, KEY_TYPE) == 0 && n == SSHSIG_ED25519_LEN && r.n == 0;
	if (ok)
		memcpy(pub, k, SSHSIG_ED25519_LEN);
	else if (type && strcmp(type, KEY_TYPE) != 0)
		*why = xasprintf("its key is of type '%s'; coursecheck checks Ed25519 keys (ssh-ed25519) only", type);
	else
		*why = xstrdup("its public key is not a well-formed ssh-ed25519 key");
	free(type);
	return ok;
}

/* ---- base64, through libcrypto ---- */

/* Decodes s (no blank space inside); NULL when it is not base64. */
static unsigned char *b64_decode(const char *s, size_t n, size_t *out_len)
{
	if (n == 0 || n % 4 != 0 || n > MAX_ARMORED)
		return NULL;
	unsigned char *out = xmalloc(n / 4 * 3 + 1);
	int got = EVP_DecodeBlock(out, (const unsigned char *)s, (int)n);
	if (got < 0) {
		free(out);
		return NULL;
	}
	/* EVP_DecodeBlock counts the padding as zero bytes */
	size_t pad = (s[n - 1] == '=') + (s[n - 2] == '=');
	*out_len = (size_t)got - pad;
	return out;
}

static char *b64_encode(const unsigned char *data, size_t n)
{
	char *out = xmalloc(4 * ((n + 2) / 3) + 1);
	EVP_EncodeBlock((unsigned char *)out, data, (int)n);
	return out;
}

/* The length of the blank space (spaces, tabs, line ends) text starts with. */
static size_t blank_prefix(const char *text, size_t len)
{
	size_t i = 0;
	while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	return i;
}

/* Whether text starts, after blank space, with head (an armor's BEGIN
 * line); *past, when not NULL, is then the offset just after it. */
static bool starts_with_head(const char *text, size_t len, const char *head, size_t *past)
{
	size_t i = blank_prefix(text, len), hl = strlen(head);
	if (len - i < hl || memcmp(text + i, head, hl) != 0)
		return false;
	if (past)
		*past = i + hl;
	return true;
}

/* The bytes between the BEGIN and END lines of an armored text, decoded.
 * NULL with *why when the armor or the base64 is wrong. */
static unsigned char *dearmor(const char *text, size_t len, const char *begin, const char *end, size_t *out_len,
			      char **why)
{
	if (len > MAX_ARMORED) {
		*why = xasprintf("it is %zu bytes, more than an armored key or signature ever is", len);
		return NULL;
	}
	size_t i;
	if (!starts_with_head(text, len, begin, &i)) {
		*why = xasprintf("it does not start with '%s'", begin);
		return NULL;
	}
	struct buf b64 = {0};
	const char *stop = NULL;
	for (; i < len; i++) {
		char c = text[i];
		if (c == '-') {
			stop = text + i;
			break;
		}
		if (c != '\n' && c != '\r' && c != ' ' && c != '\t')
			buf_putc(&b64, c);
	}
	size_t el = strlen(end);
	if (!stop || (size_t)(text + len - stop) < el || memcmp(stop, end, el) != 0) {
		*why = xasprintf("it has no '%s' line", end);
		buf_free(&b64);
		return NULL;
	}
	unsigned char *raw = b64_decode(b64.s ? b64.s : "", b64.len, out_len);
	buf_free(&b64);
	if (!raw)
		*why = xstrdup("its armored text is not base64");
	return raw;
}

static char *armor(const struct buf *raw, const char *begin, const char *end, size_t *out_len)
{
	char *b64 = b64_encode((const unsigned char *)raw->s, raw->len);
	struct buf out = {0};
	buf_printf(&out, "%s\n", begin);
	size_t n = strlen(b64);
	for (size_t i = 0; i < n; i += ARMOR_WIDTH) {
		buf_append(&out, b64 + i, n - i < ARMOR_WIDTH ? n - i : ARMOR_WIDTH);
		buf_putc(&out, '\n');
	}
	buf_printf(&out, "%s\n", end);
	free(b64);
	*out_len = out.len;
	return buf_detach(&out);
}

/* ---- signatures ---- */

void sshsig_free(struct sshsig *s)
{
	free(s->key_type);
	free(s->namespace);
	free(s->hash_alg);
	memset(s, 0, sizeof *s);
}

/* The signature blob inside the SSHSIG: string type, string 64 bytes. */
static bool rd_sigblob(const unsigned char *blob, size_t len, unsigned char sig[64])
{
	struct rd r = {blob, len, false};
	bool typed = rd_is(&r, KEY_TYPE);
	size_t n;
	const unsigned char *s = rd_string(&r, &n);
	if (!typed || r.bad || n != 64 || r.n)
		return false;
	memcpy(sig, s, 64);
	return true;
}

int sshsig_parse(const char *text, size_t len, struct sshsig *out, char **why)
{
	memset(out, 0, sizeof *out);
	size_t n;
	unsigned char *raw = dearmor(text, len, SSHSIG_ARMOR_BEGIN, SSHSIG_ARMOR_END, &n, why);
	if (!raw)
		return -1;
	struct rd r = {raw, n, false};
	size_t keylen, reslen, siglen;
	const char *problem = NULL;
	if (!rd_magic(&r, SIG_MAGIC, 6)) {
		problem = "it does not start with the SSHSIG magic";
	} else {
		uint32_t version = rd_u32(&r);
		const unsigned char *key = rd_string(&r, &keylen);
		out->namespace = rd_cstring(&r);
		rd_string(&r, &reslen);
		out->hash_alg = rd_cstring(&r);
		const unsigned char *sig = rd_string(&r, &siglen);
		if (r.bad || r.n)
			problem = "a field of the signature is cut short or followed by other bytes";
		else if (version != 1)
			problem = "its version is not 1";
		else if (!rd_pubblob(key, keylen, out->key, why))
			problem = NULL; /* *why is set */
		else if (strcmp(out->hash_alg, "sha256") != 0 && strcmp(out->hash_alg, "sha512") != 0)
			*why = xasprintf("its hash algorithm '%s' is neither sha256 nor sha512", out->hash_alg);
		else if (!rd_sigblob(sig, siglen, out->sig))
			problem = "its signature is not an ssh-ed25519 signature of 64 bytes";
		else
			out->key_type = xstrdup(KEY_TYPE);
	}
	free(raw);
	if (out->key_type)
		return 0;
	if (problem)
		*why = xstrdup(problem);
	sshsig_free(out);
	return -1;
}

static const EVP_MD *hash_md(const char *hash_alg)
{
	return strcmp(hash_alg, "sha512") == 0 ? EVP_sha512() : EVP_sha256();
}

/* What is signed: the magic, the namespace, reserved, the hash algorithm
 * and the message's hash h (PROTOCOL.sshsig). */
static void signed_data(struct buf *b, const char *ns, const char *hash_alg, const unsigned char *h, size_t hn)
{
	buf_append(b, SIG_MAGIC, 6);
	wr_cstring(b, ns);
	wr_string(b, "", 0);
	wr_cstring(b, hash_alg);
	wr_string(b, h, hn);
}

/* The signature over the message's hash h. */
/* True when sig is pub's Ed25519 signature of data. */
static bool ed25519_verify(const unsigned char pub[SSHSIG_ED25519_LEN], const struct buf *data,
			   const unsigned char sig[64])
{
	EVP_PKEY *pk = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pub, SSHSIG_ED25519_LEN);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	bool ok = pk && ctx && EVP_DigestVerifyInit(ctx, NULL, NULL, NULL, pk) == 1 &&
		  EVP_DigestVerify(ctx, sig, 64, (const unsigned char *)data->s, data->len) == 1;
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(pk);
	return ok;
}

static bool check_hash(const struct sshsig *s, const unsigned char *h, size_t hn)
{
	struct buf tbs = {0};
	signed_data(&tbs, s->namespace, s->hash_alg, h, hn);
	bool ok = ed25519_verify(s->key, &tbs, s->sig);
	buf_free(&tbs);
	return ok;
}

bool sshsig_check(const struct sshsig *s, const void *msg, size_t len)
{
	unsigned char h[EVP_MAX_MD_SIZE];
	unsigned int hn = 0;
	return EVP_Digest(msg, len, h, &hn, hash_md(s->hash_alg), NULL) == 1 && check_hash(s, h, hn);
}

int sshsig_check_fd(const struct sshsig *s, int fd)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned char h[EVP_MAX_MD_SIZE], chunk[65536];
	unsigned int hn = 0;
	int rc = -1;
	if (ctx && EVP_DigestInit_ex(ctx, hash_md(s->hash_alg), NULL) == 1) {
		ssize_t got;
		while ((got = read(fd, chunk, sizeof chunk)) > 0 || (got < 0 && errno == EINTR))
			if (got > 0)
				EVP_DigestUpdate(ctx, chunk, (size_t)got);
		if (got == 0 && EVP_DigestFinal_ex(ctx, h, &hn) == 1)
			rc = check_hash(s, h, hn) ? 1 : 0;
	}
	EVP_MD_CTX_free(ctx);
	return rc;
}

/* Ed25519 over data with the key's seed: 64 bytes into sig. */
static bool ed25519_sign(const struct sshkey *k, const struct buf *data, unsigned char sig[64])
{
	EVP_PKEY *pk = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, k->seed, sizeof k->seed);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	size_t n = 64;
	bool ok = pk && ctx && EVP_DigestSignInit(ctx, NULL, NULL, NULL, pk) == 1 &&
		  EVP_DigestSign(ctx, sig, &n, (const unsigned char *)data->s, data->len) == 1 && n == 64;
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(pk);
	return ok;
}

/* ---- ssh-agent (PROTOCOL.agent, draft-miller-ssh-agent) ---- */

#define AGENTC_SIGN_REQUEST 13
#define AGENT_SIGN_RESPONSE 14
#define AGENT_FAILURE 5
/* an Ed25519 signature answer is under 100 bytes: a longer one is not it */
#define AGENT_MAX_REPLY (64 * 1024)
/* long enough for a person to answer the agent's confirmation prompt
 * (ssh-add -c), short enough that a stuck agent ends the command */
#define AGENT_TIMEOUT_S 120

/* All n bytes of p sent (writing) or received on fd; false with errno on
 * an error, a timeout (EAGAIN) or the agent closing first (errno 0). */
static bool agent_io(int fd, void *p, size_t n, bool writing)
{
	unsigned char *b = p;
	while (n > 0) {
		ssize_t got = writing ? send(fd, b, n, MSG_NOSIGNAL) : recv(fd, b, n, 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got == 0)
				errno = 0;
			return false;
		}
		b += got;
		n -= (size_t)got;
	}
	return true;
}

static char *agent_io_failed(const char *sock, const char *what)
{
	if (errno == EAGAIN || errno == EWOULDBLOCK)
		return xasprintf("the ssh-agent at %s did not answer within %d s", sock, AGENT_TIMEOUT_S);
	if (errno == 0)
		return xasprintf("the ssh-agent at %s closed the connection %s", sock, what);
	return xasprintf("the ssh-agent at %s: %s: %s", sock, what, strerror(errno));
}

/* The agent's socket, connected, with its time limit; -1 with *why. */
static int agent_connect(const char *sock, char **why)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (strlen(sock) >= sizeof sa.sun_path) {
		*why = xasprintf("the ssh-agent socket path (SSH_AUTH_SOCK) is longer than %zu bytes", sizeof sa.sun_path - 1);
		return -1;
	}
	memcpy(sa.sun_path, sock, strlen(sock) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct timeval tv = {AGENT_TIMEOUT_S, 0};
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) != 0 ||
	    connect(fd, (const struct sockaddr *)&sa, sizeof sa) != 0) {
		*why = xasprintf("cannot reach the ssh-agent at %s (SSH_AUTH_SOCK): %s", sock, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* The agent's Ed25519 signature of data by the key pub: one sign request,
 * its answer read whole (bounded) and parsed.  0, or -1 with *why. */
static int agent_sign(const char *sock, const unsigned char pub[SSHSIG_ED25519_LEN], const struct buf *data,
		      unsigned char sig[64], char **why)
{
	struct buf body = {0}, frame = {0}, keyblob = {0};
	unsigned char *reply = NULL;
	int rc = -1;
	int fd = agent_connect(sock, why);
	if (fd < 0)
		return -1;
	wr_pubblob(&keyblob, pub);
	buf_putc(&body, AGENTC_SIGN_REQUEST);
	wr_string(&body, keyblob.s, keyblob.len);
	wr_string(&body, data->s, data->len);
	wr_u32(&body, 0); /* flags: none for an Ed25519 key */
	wr_string(&frame, body.s, body.len);
	unsigned char head[4];
	if (!agent_io(fd, frame.s, frame.len, true)) {
		*why = agent_io_failed(sock, "sending the request");
	} else if (!agent_io(fd, head, 4, false)) {
		*why = agent_io_failed(sock, "before its answer");
	} else {
		struct rd hr = {head, 4, false};
		uint32_t n = rd_u32(&hr);
		if (n == 0 || n > AGENT_MAX_REPLY) {
			*why = xasprintf("the ssh-agent at %s answered %u bytes, not a signature", sock, n);
		} else if (!agent_io(fd, reply = xmalloc(n), n, false)) {
			*why = agent_io_failed(sock, "in the middle of its answer");
		} else if (reply[0] == AGENT_FAILURE) {
			char fp[SSHSIG_FP_LEN + 1];
			sshkey_fingerprint(pub, fp);
			*why = xasprintf("the ssh-agent at %s does not hold the key %s, or would not sign with it", sock, fp);
		} else if (reply[0] != AGENT_SIGN_RESPONSE) {
			*why = xasprintf("the ssh-agent at %s answered message %u, not a signature", sock, reply[0]);
		} else {
			struct rd r = {reply + 1, n - 1, false};
			size_t bl;
			const unsigned char *blob = rd_string(&r, &bl);
			if (!blob || r.n != 0 || !rd_sigblob(blob, bl, sig))
				*why = xasprintf("the ssh-agent at %s answered with a signature that is not an Ed25519 one",
						 sock);
			else
				rc = 0;
		}
	}
	close(fd);
	free(reply);
	buf_free(&body);
	buf_free(&frame);
	buf_free(&keyblob);
	return rc;
}

/* The Ed25519 signature of data by k: here, or through its agent (then
 * checked: whatever answers on the socket, only k's signature is used). */
static int sign_data(const struct sshkey *k, const struct buf *data, unsigned char sig[64], char **why)
{
	if (k->has_private) {
		if (ed25519_sign(k, data, sig))
			return 0;
		*why = xstrdup("libcrypto could not make an Ed25519 signature");
		return -1;
	}
	if (!k->agent) {
		*why = xstrdup("the key has no private half");
		return -1;
	}
	if (agent_sign(k->agent, k->pub, data, sig, why) != 0)
		return -1;
	if (ed25519_verify(k->pub, data, sig))
		return 0;
	char fp[SSHSIG_FP_LEN + 1];
	sshkey_fingerprint(k->pub, fp);
	*why = xasprintf("the ssh-agent at %s answered with a signature that is not one by the key %s", k->agent, fp);
	return -1;
}

char *sshsig_sign(const struct sshkey *k, const char *ns, const void *msg, size_t len, size_t *out_len, char **why)
{
	struct buf tbs = {0}, blob = {0}, sigblob = {0}, pub = {0};
	unsigned char sig[64];
	char *text = NULL;
	unsigned char h[EVP_MAX_MD_SIZE];
	unsigned int hn = 0;
	bool hashed = EVP_Digest(msg, len, h, &hn, EVP_sha512(), NULL) == 1;
	if (hashed)
		signed_data(&tbs, ns, "sha512", h, hn);
	if (!hashed) {
		*why = xstrdup("libcrypto could not hash the message");
	} else if (sign_data(k, &tbs, sig, why) != 0) {
		/* *why is sign_data's */
	} else {
		wr_pubblob(&pub, k->pub);
		wr_cstring(&sigblob, KEY_TYPE);
		wr_string(&sigblob, sig, 64);
		buf_append(&blob, SIG_MAGIC, 6);
		wr_u32(&blob, 1);
		wr_string(&blob, pub.s, pub.len);
		wr_cstring(&blob, ns);
		wr_string(&blob, "", 0);
		wr_cstring(&blob, "sha512");
		wr_string(&blob, sigblob.s, sigblob.len);
		text = armor(&blob, SSHSIG_ARMOR_BEGIN, SSHSIG_ARMOR_END, out_len);
	}
	buf_free(&tbs);
	buf_free(&blob);
	buf_free(&sigblob);
	buf_free(&pub);
	return text;
}

/* ---- keys ---- */

void sshkey_free(struct sshkey *k)
{
	free(k->comment);
	free(k->agent);
	OPENSSL_cleanse(k, sizeof *k);
}

/* The public half the seed makes, compared with pub: a key file whose
 * halves disagree is damaged. */
static bool seed_matches(const unsigned char seed[32], const unsigned char pub[SSHSIG_ED25519_LEN])
{
	EVP_PKEY *pk = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed, 32);
	unsigned char got[SSHSIG_ED25519_LEN];
	size_t n = sizeof got;
	bool ok = pk && EVP_PKEY_get_raw_public_key(pk, got, &n) == 1 && n == sizeof got &&
		  memcmp(got, pub, sizeof got) == 0;
	EVP_PKEY_free(pk);
	return ok;
}

/* The private section: checkints, one ssh-ed25519 key, comment, padding. */
static int rd_private_section(struct rd *r, struct sshkey *k, char **why)
{
	uint32_t c1 = rd_u32(r), c2 = rd_u32(r);
	char *type = rd_cstring(r);
	size_t publen, privlen;
	const unsigned char *pub = rd_string(r, &publen);
	const unsigned char *priv = rd_string(r, &privlen);
	char *comment = rd_cstring(r);
	int rc = -1;
	if (r->bad || c1 != c2)
		*why = xstrdup("its private section is damaged (cut short, or its check numbers differ)");
	else if (strcmp(type, KEY_TYPE) != 0)
		*why = xasprintf("it holds a key of type '%s'; coursecheck signs with Ed25519 keys only", type);
	else if (publen != 32 || privlen != 64 || memcmp(priv + 32, pub, 32) != 0 || !seed_matches(priv, pub))
		*why = xstrdup("its Ed25519 key is damaged (its private and public halves do not belong together)");
	else
		rc = 0;
	if (rc == 0) {
		memcpy(k->pub, pub, 32);
		memcpy(k->seed, priv, 32);
		k->has_private = true;
		k->comment = comment;
		comment = NULL;
	}
	free(type);
	free(comment);
	return rc;
}

int sshkey_parse_private(const char *text, size_t len, struct sshkey *k, char **why)
{
	memset(k, 0, sizeof *k);
	size_t n;
	unsigned char *raw = dearmor(text, len, SSHKEY_PRIVATE_BEGIN, SSHKEY_PRIVATE_END, &n, why);
	if (!raw)
		return -1;
	struct rd r = {raw, n, false};
	size_t sectlen;
	int rc = -1;
	if (!rd_magic(&r, KEY_MAGIC, strlen(KEY_MAGIC) + 1)) {
		*why = xstrdup("it is not an openssh-key-v1 key");
	} else {
		char *cipher = rd_cstring(&r);
		bool kdf_none = rd_is(&r, "none");
		size_t optlen;
		rd_string(&r, &optlen);
		uint32_t nkeys = rd_u32(&r);
		size_t publen;
		const unsigned char *outer = rd_string(&r, &publen);
		const unsigned char *sect = rd_string(&r, &sectlen);
		if (r.bad) {
			*why = xstrdup("it is cut short");
		} else if (strcmp(cipher, "none") != 0 || !kdf_none) {
			char *pwhy = NULL;
			if (nkeys == 1 && rd_pubblob(outer, publen, k->pub, &pwhy)) {
				*why = xasprintf("it is encrypted (cipher %s): it needs its passphrase", cipher);
				rc = 1;
			} else {
				*why = xasprintf("it is encrypted (cipher %s) and its public key cannot be read: %s", cipher,
						 pwhy ? pwhy : "it holds more than one key");
			}
			free(pwhy);
		} else if (nkeys != 1) {
			*why = xasprintf("it holds %u keys, not one", nkeys);
		} else {
			struct rd s = {sect, sectlen, false};
			unsigned char pub[SSHSIG_ED25519_LEN];
			char *pwhy = NULL;
			rc = rd_private_section(&s, k, why);
			/* the key file's public key must be the private section's */
			if (rc == 0 && (!rd_pubblob(outer, publen, pub, &pwhy) || memcmp(pub, k->pub, sizeof pub) != 0)) {
				*why = xstrdup("its public key is not the one its private section holds");
				sshkey_free(k);
				rc = -1;
			}
			free(pwhy);
		}
		free(cipher);
	}
	OPENSSL_cleanse(raw, n);
	free(raw);
	return rc;
}

int sshkey_for_signing(const char *text, size_t len, const char *agent_sock, struct sshkey *k, char **why)
{
	memset(k, 0, sizeof *k);
	const char *where;
	if (starts_with_head(text, len, SSHKEY_PRIVATE_BEGIN, NULL)) {
		int rc = sshkey_parse_private(text, len, k, why);
		if (rc <= 0)
			return rc;
		free(*why); /* encrypted: its public half may be in the agent */
		*why = NULL;
		where = "it is encrypted (coursecheck reads no passphrase)";
	} else {
		/* a public key line: TYPE BASE64 [COMMENT], after blank space */
		const char *type = text + blank_prefix(text, len), *end = text + len;
		const char *sp = memchr(type, ' ', (size_t)(end - type));
		const char *b64 = sp ? sp + 1 : end, *b64_end = b64;
		while (b64_end < end && *b64_end != ' ' && *b64_end != '\t' && *b64_end != '\n' && *b64_end != '\r')
			b64_end++;
		bool named = sp && sp > type && ((*type >= 'a' && *type <= 'z') || (*type >= 'A' && *type <= 'Z'));
		for (const char *c = type; named && c < sp; c++)
			named = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
				(*c && strchr("@._-", *c) != NULL);
		if (!named || b64_end == b64) {
			*why = xstrdup("it is neither an OpenSSH private key file nor an ssh-ed25519 public key");
			return -1;
		}
		char *t = xstrndup(type, (size_t)(sp - type)), *b = xstrndup(b64, (size_t)(b64_end - b64));
		int rc = sshkey_parse_public(t, b, k->pub, why);
		free(t);
		free(b);
		if (rc != 0)
			return -1;
		where = "it is a public key";
	}
	if (!agent_sock || !*agent_sock) {
		*why = xasprintf("%s, and there is no ssh-agent to sign with its private half (SSH_AUTH_SOCK is not set)",
				 where);
		sshkey_free(k);
		return -1;
	}
	k->agent = xstrdup(agent_sock);
	return 0;
}

bool sshkey_looks_private(const char *text, size_t len)
{
	static const char *const heads[] = {"-----BEGIN OPENSSH PRIVATE KEY-----", "-----BEGIN PRIVATE KEY-----",
					    "-----BEGIN RSA PRIVATE KEY-----", "-----BEGIN EC PRIVATE KEY-----",
					    "-----BEGIN DSA PRIVATE KEY-----", "-----BEGIN ENCRYPTED PRIVATE KEY-----"};
	for (size_t h = 0; h < ARRAY_LEN(heads); h++)
		if (starts_with_head(text, len, heads[h], NULL))
			return true;
	return false;
}

int sshkey_generate(struct sshkey *k, const char *comment, char **why)
{
	memset(k, 0, sizeof *k);
	EVP_PKEY *pk = NULL;
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, NULL);
	size_t sn = sizeof k->seed, pn = sizeof k->pub;
	bool ok = ctx && EVP_PKEY_keygen_init(ctx) == 1 && EVP_PKEY_keygen(ctx, &pk) == 1 &&
		  EVP_PKEY_get_raw_private_key(pk, k->seed, &sn) == 1 && EVP_PKEY_get_raw_public_key(pk, k->pub, &pn) == 1;
	EVP_PKEY_free(pk);
	EVP_PKEY_CTX_free(ctx);
	if (!ok) {
		*why = xstrdup("libcrypto could not make an Ed25519 key");
		OPENSSL_cleanse(k, sizeof *k);
		return -1;
	}
	k->has_private = true;
	k->comment = comment ? xstrdup(comment) : NULL;
	return 0;
}

char *sshkey_format_private(const struct sshkey *k, size_t *len)
{
	struct buf raw = {0}, pub = {0}, sect = {0};
	wr_pubblob(&pub, k->pub);
	uint32_t check;
	if (RAND_bytes((unsigned char *)&check, sizeof check) != 1)
		check = 0x636f7572; /* only a check that the section decrypted: no secret */
	wr_u32(&sect, check);
	wr_u32(&sect, check);
	wr_cstring(&sect, KEY_TYPE);
	wr_string(&sect, k->pub, 32);
	unsigned char priv[64];
	memcpy(priv, k->seed, 32);
	memcpy(priv + 32, k->pub, 32);
	wr_string(&sect, priv, 64);
	OPENSSL_cleanse(priv, sizeof priv);
	wr_cstring(&sect, k->comment ? k->comment : "");
	for (char pad = 1; sect.len % 8; pad++)
		buf_putc(&sect, pad);
	buf_append(&raw, KEY_MAGIC, strlen(KEY_MAGIC) + 1);
	wr_cstring(&raw, "none");
	wr_cstring(&raw, "none");
	wr_string(&raw, "", 0);
	wr_u32(&raw, 1);
	wr_string(&raw, pub.s, pub.len);
	wr_string(&raw, sect.s, sect.len);
	char *text = armor(&raw, SSHKEY_PRIVATE_BEGIN, SSHKEY_PRIVATE_END, len);
	OPENSSL_cleanse(sect.s, sect.len);
	OPENSSL_cleanse(raw.s, raw.len);
	buf_free(&raw);
	buf_free(&pub);
	buf_free(&sect);
	return text;
}

char *sshkey_format_public(const unsigned char pub[SSHSIG_ED25519_LEN])
{
	struct buf blob = {0};
	wr_pubblob(&blob, pub);
	char *b64 = b64_encode((const unsigned char *)blob.s, blob.len);
	char *line = xasprintf("%s %s", KEY_TYPE, b64);
	free(b64);
	buf_free(&blob);
	return line;
}

int sshkey_parse_public(const char *type, const char *b64, unsigned char pub[SSHSIG_ED25519_LEN], char **why)
{
	if (strcmp(type, KEY_TYPE) != 0) {
		*why = xasprintf("its key is of type '%s'; coursecheck checks Ed25519 keys (ssh-ed25519) only", type);
		return -1;
	}
	size_t n;
	unsigned char *blob = b64_decode(b64, strlen(b64), &n);
	if (!blob) {
		*why = xstrdup("its key is not base64");
		return -1;
	}
	bool ok = rd_pubblob(blob, n, pub, why);
	free(blob);
	return ok ? 0 : -1;
}

void sshkey_fingerprint(const unsigned char pub[SSHSIG_ED25519_LEN], char out[SSHSIG_FP_LEN + 1])
{
	struct buf blob = {0};
	wr_pubblob(&blob, pub);
	unsigned char h[32];
	unsigned int hn = 0;
	EVP_Digest(blob.s, blob.len, h, &hn, EVP_sha256(), NULL);
	char *b64 = b64_encode(h, sizeof h);
	/* ssh-keygen drops the padding: 43 digits */
	snprintf(out, SSHSIG_FP_LEN + 1, "SHA256:%.43s", b64);
	free(b64);
	buf_free(&blob);
}
