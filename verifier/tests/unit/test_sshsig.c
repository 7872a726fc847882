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
		cmocka_unit_test(test_signers_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
