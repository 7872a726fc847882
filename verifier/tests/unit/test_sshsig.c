/*
 * test_sshsig.c - sshsig.h and signers.h point by point: a signature made
 * and checked, a byte changed, armor and fields damaged; a key written
 * and read back, a fingerprint as ssh-keygen -l prints it; allowed_signers
 * lines with their options, times and problems at their columns.  (That
 * ssh-keygen itself accepts what sshsig makes, and the reverse, is the
 * capture suite's signed-by-* cases.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "signers.h"
#include "sshsig.h"

/* a public key and its fingerprint, from ssh-keygen -l */
#define PUB_B64 "AAAAC3NzaC1lZDI1NTE5AAAAIPK1nt8gKJI18eBXVWvr2KQkMc4ZjHU1MkB0h/Ox4n89"
#define PUB_FP "SHA256:lW6gTW9ygKF1v72kL9qkU31FD/I1jgvProBWOJXCuRI"

static void test_fingerprint(void **state)
{
	(void)state;
	unsigned char pub[SSHSIG_ED25519_LEN];
	char *why = NULL;
	assert_int_equal(sshkey_parse_public("ssh-ed25519", PUB_B64, pub, &why), 0);
	char fp[SSHSIG_FP_LEN + 1];
	sshkey_fingerprint(pub, fp);
	assert_string_equal(fp, PUB_FP);
	char *line = sshkey_format_public(pub);
	assert_string_equal(line, "ssh-ed25519 " PUB_B64);
	free(line);
	assert_int_equal(sshkey_parse_public("ssh-rsa", PUB_B64, pub, &why), -1);
	assert_non_null(strstr(why, "'ssh-rsa'"));
	free(why);
	assert_int_equal(sshkey_parse_public("ssh-ed25519", "AAAA!!!!", pub, &why), -1);
	free(why);
}

static void test_sign_and_check(void **state)
{
	(void)state;
	struct sshkey k;
	char *why = NULL;
	assert_int_equal(sshkey_generate(&k, "node", &why), 0);
	static const char msg[] = "coursecheck-evidence 1\nlesson: x\n";
	size_t len;
	char *armored = sshsig_sign(&k, SSHSIG_EVIDENCE_NAMESPACE, msg, strlen(msg), &len, &why);
	assert_non_null(armored);
	assert_int_equal(strncmp(armored, SSHSIG_ARMOR_BEGIN "\n", strlen(SSHSIG_ARMOR_BEGIN) + 1), 0);
	struct sshsig s;
	assert_int_equal(sshsig_parse(armored, len, &s, &why), 0);
	assert_string_equal(s.namespace, SSHSIG_EVIDENCE_NAMESPACE);
	assert_string_equal(s.hash_alg, "sha512");
	assert_memory_equal(s.key, k.pub, SSHSIG_ED25519_LEN);
	assert_true(sshsig_check(&s, msg, strlen(msg)));
	/* one byte changed, one byte less */
	char changed[sizeof msg];
	memcpy(changed, msg, sizeof msg);
	changed[3] ^= 1;
	assert_false(sshsig_check(&s, changed, strlen(changed)));
	assert_false(sshsig_check(&s, msg, strlen(msg) - 1));
	/* the namespace is part of what is signed */
	free(s.namespace);
	s.namespace = strdup("file");
	assert_false(sshsig_check(&s, msg, strlen(msg)));
	sshsig_free(&s);
	free(armored);
	sshkey_free(&k);
}

static void test_damaged_signatures(void **state)
{
	(void)state;
	struct sshsig s;
	char *why = NULL;
	static const char *const bad[] = {
		"", "no armor at all\n", SSHSIG_ARMOR_BEGIN "\nU1NIU0lH\n", /* no end line */
		SSHSIG_ARMOR_BEGIN "\n@@@@\n" SSHSIG_ARMOR_END "\n",       /* not base64 */
		SSHSIG_ARMOR_BEGIN "\nQUJDREVG\n" SSHSIG_ARMOR_END "\n",   /* "ABCDEF": no magic */
		SSHSIG_ARMOR_BEGIN "\nU1NIU0lHAAAAAQAAADMAAAALc3NoLWVkMjU1MTkAAAAg\n" SSHSIG_ARMOR_END "\n", /* cut short */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(sshsig_parse(bad[i], strlen(bad[i]), &s, &why), -1);
		assert_non_null(why);
		free(why);
		why = NULL;
	}
}

static void test_private_key_round_trip(void **state)
{
	(void)state;
	struct sshkey k, back;
	char *why = NULL;
	assert_int_equal(sshkey_generate(&k, "h200@node", &why), 0);
	size_t len;
	char *text = sshkey_format_private(&k, &len);
	assert_true(sshkey_looks_private(text, len));
	assert_int_equal(sshkey_parse_private(text, len, &back, &why), 0);
	assert_memory_equal(back.pub, k.pub, SSHSIG_ED25519_LEN);
	assert_memory_equal(back.seed, k.seed, 32);
	assert_string_equal(back.comment, "h200@node");
	free(text);
	/* a private half that does not belong to the public one */
	k.seed[0] ^= 1;
	text = sshkey_format_private(&k, &len);
	struct sshkey bad;
	assert_int_equal(sshkey_parse_private(text, len, &bad, &why), -1);
	assert_non_null(strstr(why, "do not belong together"));
	free(why);
	free(text);
	sshkey_free(&k);
	sshkey_free(&back);
	assert_false(sshkey_looks_private("ssh-ed25519 AAAA", 16));
	assert_true(sshkey_looks_private("\n-----BEGIN PRIVATE KEY-----\n", 29));
}

/* An "openssh-key-v1" file whose private section is encrypted (its bytes
 * stand in: only the clear part is read), around the public key pub. */
static char *encrypted_key_file(const unsigned char pub[SSHSIG_ED25519_LEN])
{
	unsigned char raw[512];
	size_t n = 0;
#define PUT(p, len) (memcpy(raw + n, (p), (len)), n += (len))
#define U32(v) (raw[n] = 0, raw[n + 1] = 0, raw[n + 2] = (unsigned char)((v) >> 8), raw[n + 3] = (unsigned char)(v), n += 4)
#define STR(p, len) (U32(len), PUT(p, len))
	PUT("openssh-key-v1", 15); /* with its NUL */
	STR("aes256-ctr", 10);
	STR("bcrypt", 6);
	STR("\0\0\0\x10saltsaltsaltsalt\0\0\0\x10", 24);
	U32(1);
	U32(51);
	STR("ssh-ed25519", 11);
	STR(pub, SSHSIG_ED25519_LEN);
	STR("sixteen bytes!!!", 16);
#undef PUT
#undef U32
#undef STR
	char *text = malloc(2048);
	size_t t = (size_t)sprintf(text, "%s\n", SSHKEY_PRIVATE_BEGIN);
	t += (size_t)EVP_EncodeBlock((unsigned char *)text + t, raw, (int)n);
	sprintf(text + t, "\n%s\n", SSHKEY_PRIVATE_END);
	return text;
}

/* What sshkey_for_signing makes of each kind of key file, as
 * ssh-keygen -Y sign -f takes them. */
static void test_key_for_signing(void **state)
{
	(void)state;
	struct sshkey k, gen;
	char *why = NULL;
	/* an unencrypted private key signs here, agent or not */
	assert_int_equal(sshkey_generate(&gen, "alice", &why), 0);
	size_t len;
	char *text = sshkey_format_private(&gen, &len);
	assert_int_equal(sshkey_for_signing(text, len, "/run/agent.sock", &k, &why), 0);
	assert_true(k.has_private);
	assert_null(k.agent);
	assert_memory_equal(k.pub, gen.pub, SSHSIG_ED25519_LEN);
	sshkey_free(&k);
	free(text);
	/* a public key line, as a .pub file holds it: the agent's */
	static const char pub_line[] = "ssh-ed25519 " PUB_B64 " alice@laptop\n";
	assert_int_equal(sshkey_for_signing(pub_line, strlen(pub_line), "/run/agent.sock", &k, &why), 0);
	assert_false(k.has_private);
	assert_string_equal(k.agent, "/run/agent.sock");
	char fp[SSHSIG_FP_LEN + 1];
	sshkey_fingerprint(k.pub, fp);
	assert_string_equal(fp, PUB_FP);
	/* no agent answers there: signing says so */
	size_t sig_len;
	assert_null(sshsig_sign(&k, "coursecheck-review", "x", 1, &sig_len, &why));
	assert_non_null(strstr(why, "cannot reach the ssh-agent at /run/agent.sock"));
	free(why);
	sshkey_free(&k);
	/* an encrypted key file: its public half, to the agent */
	text = encrypted_key_file(gen.pub);
	assert_int_equal(sshkey_for_signing(text, strlen(text), "/run/agent.sock", &k, &why), 0);
	assert_false(k.has_private);
	assert_memory_equal(k.pub, gen.pub, SSHSIG_ED25519_LEN);
	sshkey_free(&k);
	assert_int_equal(sshkey_for_signing(text, strlen(text), NULL, &k, &why), -1);
	assert_string_equal(why, "it is encrypted (coursecheck reads no passphrase), and there is no ssh-agent to sign "
				 "with its private half (SSH_AUTH_SOCK is not set)");
	free(why);
	free(text);
	sshkey_free(&gen);
	/* what is refused, with its reason */
	static const struct {
		const char *text, *agent, *why;
	} refused[] = {
		{"ssh-ed25519 " PUB_B64 "\n", "", "it is a public key, and there is no ssh-agent"},
		{"ssh-rsa " PUB_B64 "\n", "/a", "'ssh-rsa'"},
		{"sk-ssh-ed25519@openssh.com " PUB_B64 "\n", "/a", "'sk-ssh-ed25519@openssh.com'"},
		{"# a comment\n", "/a", "neither an OpenSSH private key file nor an ssh-ed25519 public key"},
		{"ssh-ed25519\n", "/a", "neither"},
		{"ssh-ed25519 \n", "/a", "neither"},
		{"", "/a", "neither"},
		{SSHKEY_PRIVATE_BEGIN "\nQUJD\n" SSHKEY_PRIVATE_END "\n", "/a", "not an openssh-key-v1 key"},
	};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		assert_int_equal(sshkey_for_signing(refused[i].text, strlen(refused[i].text), refused[i].agent, &k, &why), -1);
		if (!strstr(why, refused[i].why))
			fail_msg("case %zu: '%s' lacks '%s'", i, why, refused[i].why);
		free(why);
		why = NULL;
	}
}

static void test_signers_lines(void **state)
{
	(void)state;
	static const char text[] =
		"# comment\n"
		"\n"
		"h200,backup namespaces=\"coursecheck-evidence,file\",valid-after=\"20261130Z\",valid-before=\"202612011200Z\" "
		"ssh-ed25519 " PUB_B64 " a comment\n"
		"\"quoted name\" ssh-ed25519 " PUB_B64 "\n"
		"ca cert-authority ssh-ed25519 " PUB_B64 "\n"
		"t valid-after=\"soon\" ssh-ed25519 " PUB_B64 "\n";
	struct signers s;
	signers_parse(text, strlen(text), &s);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.v[0].principals, "h200,backup");
	assert_int_equal(s.v[0].line, 3);
	assert_true(signers_namespace_allows(&s.v[0], "coursecheck-evidence"));
	assert_true(signers_namespace_allows(&s.v[0], "file"));
	assert_false(signers_namespace_allows(&s.v[0], "coursecheck"));
	long long t;
	assert_true(signers_parse_time("2026-11-30T00:00:00Z", &t));
	assert_int_equal(s.v[0].valid_after, t);
	assert_true(signers_parse_time("2026-12-01T12:00:00Z", &t));
	assert_int_equal(s.v[0].valid_before, t);
	char *first = signers_first_principal(&s.v[0]);
	assert_string_equal(first, "h200");
	free(first);
	assert_string_equal(s.v[1].principals, "quoted name");
	assert_null(s.v[1].namespaces);
	assert_int_equal(s.v[1].valid_after, SIGNERS_NO_TIME_BEFORE);
	assert_int_equal(s.n_problems, 2);
	assert_int_equal(s.problems[0].line, 5);
	assert_int_equal(s.problems[0].col, 4);
	assert_non_null(strstr(s.problems[0].message, "cert-authority"));
	assert_int_equal(s.problems[1].line, 6);
	signers_free(&s);
	assert_false(signers_parse_time("2026-13-01T00:00:00Z", &t));
	assert_false(signers_parse_time("20261130X", &t));
	assert_true(signers_parse_time("20261130123456", &t));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fingerprint),
		cmocka_unit_test(test_sign_and_check),
		cmocka_unit_test(test_damaged_signatures),
		cmocka_unit_test(test_private_key_round_trip),
		cmocka_unit_test(test_key_for_signing),
		cmocka_unit_test(test_signers_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
