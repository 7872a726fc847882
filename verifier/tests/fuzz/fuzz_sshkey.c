/*
 * fuzz_sshkey.c - the key files and signatures sshsig.h reads: what
 * `approve --key` and capture's signing key name (sshkey_for_signing,
 * sshkey_parse_private, sshkey_looks_private) and a .sig file
 * (sshsig_parse).
 *
 * Properties: each reader answers 0 or -1 (sshkey_parse_private also 1:
 * encrypted), with a message exactly when it refuses; a key it gives
 * signs here (its private half) or names the agent it was given, never
 * both and never neither; a key with its private half makes a signature
 * sshsig_parse reads back and sshsig_check accepts, by that key; a parsed
 * signature is of type ssh-ed25519 with a namespace and sha256 or sha512;
 * an encrypted key file keeps its public half for the agent; and reading
 * the same text twice gives the same key.  No agent answers at the socket
 * it is given, so nothing leaves the process.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sshsig.h"

#define NO_AGENT "/nonexistent/fuzz-agent.sock"

static void check_key(const uint8_t *data, size_t size)
{
	struct sshkey k, again;
	char *why = NULL, *why2 = NULL;
	int rc = sshkey_for_signing((const char *)data, size, NO_AGENT, &k, &why);
	FUZZ_CHECK(rc == 0 || rc == -1, "sshkey_for_signing rc %d", rc);
	FUZZ_CHECK((rc == 0) == (why == NULL), "rc %d with message %s", rc, why ? why : "(none)");
	if (rc != 0) {
		FUZZ_CHECK(why[0] != '\0', "an empty message");
		free(why);
		return;
	}
	FUZZ_CHECK(k.has_private != (k.agent != NULL), "private %d, agent %s", k.has_private,
		   k.agent ? k.agent : "(none)");
	FUZZ_CHECK(!k.agent || strcmp(k.agent, NO_AGENT) == 0, "agent %s", k.agent);
	FUZZ_CHECK(sshkey_for_signing((const char *)data, size, NO_AGENT, &again, &why2) == 0, "read twice: %s", why2);
	FUZZ_CHECK(memcmp(k.pub, again.pub, SSHSIG_ED25519_LEN) == 0 && k.has_private == again.has_private,
		   "read twice, another key");
	sshkey_free(&again);
	if (k.has_private) {
		static const char msg[] = "fuzz";
		size_t len;
		char *armored = sshsig_sign(&k, "fuzz", msg, strlen(msg), &len, &why);
		FUZZ_CHECK(armored != NULL, "a private key that does not sign: %s", why);
		struct sshsig s;
		FUZZ_CHECK(sshsig_parse(armored, len, &s, &why) == 0, "its signature unreadable: %s", why);
		FUZZ_CHECK(memcmp(s.key, k.pub, SSHSIG_ED25519_LEN) == 0, "signed by another key");
		FUZZ_CHECK(sshsig_check(&s, msg, strlen(msg)), "its signature does not check");
		sshsig_free(&s);
		free(armored);
	}
	sshkey_free(&k);
}

static void check_private(const uint8_t *data, size_t size)
{
	struct sshkey k;
	char *why = NULL;
	int rc = sshkey_parse_private((const char *)data, size, &k, &why);
	FUZZ_CHECK(rc >= -1 && rc <= 1, "sshkey_parse_private rc %d", rc);
	FUZZ_CHECK((rc == 0) == (why == NULL), "rc %d with message %s", rc, why ? why : "(none)");
	if (rc == 0) {
		FUZZ_CHECK(k.has_private, "a private key without its private half");
		FUZZ_CHECK(sshkey_looks_private((const char *)data, size), "read as a private key, not seen as one");
		sshkey_free(&k);
	} else if (rc == 1) {
		/* encrypted: its public half is what sshkey_for_signing hands the agent */
		struct sshkey viaagent;
		char *w = NULL;
		FUZZ_CHECK(sshkey_for_signing((const char *)data, size, NO_AGENT, &viaagent, &w) == 0,
			   "an encrypted key the agent could not be asked for: %s", w);
		FUZZ_CHECK(memcmp(viaagent.pub, k.pub, SSHSIG_ED25519_LEN) == 0, "another public half");
		sshkey_free(&viaagent);
		sshkey_free(&k);
	}
	free(why);
}

static void check_signature(const uint8_t *data, size_t size)
{
	struct sshsig s;
	char *why = NULL;
	int rc = sshsig_parse((const char *)data, size, &s, &why);
	FUZZ_CHECK(rc == 0 || rc == -1, "sshsig_parse rc %d", rc);
	FUZZ_CHECK((rc == 0) == (why == NULL), "rc %d with message %s", rc, why ? why : "(none)");
	if (rc == 0) {
		FUZZ_CHECK(strcmp(s.key_type, "ssh-ed25519") == 0, "key type %s", s.key_type);
		FUZZ_CHECK(s.namespace != NULL, "no namespace");
		FUZZ_CHECK(strcmp(s.hash_alg, "sha256") == 0 || strcmp(s.hash_alg, "sha512") == 0, "hash %s",
			   s.hash_alg);
		sshsig_free(&s);
	}
	free(why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 64 * 1024)
		return 0; /* approve and capture refuse a key file larger than this before reading it */
	check_key(data, size);
	check_private(data, size);
	check_signature(data, size);
	return 0;
}
