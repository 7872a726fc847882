/*
 * test_facts.c - the facts of a run stated in prose: what facts_find
 * finds (kinds and exact spans), the flag rule, and facts_check's
 * judgement and locations against an evidence header; also strmap, the
 * hash map behind the linear lookups.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course.h"
#include "diag.h"
#include "evidence.h"
#include "facts.h"
#include "strmap.h"
#include "textfile.h"
#include "util.h"

#include "diag_capture.h"

#define EVIDENCE                                                                                                 \
	"coursecheck-evidence 1\n"                                                                               \
	"lesson: day31-scan-1\n"                                                                                 \
	"program: programs/day31-scan-1/scan.cu\n"                                                               \
	"source-sha256: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n"                   \
	"build: nvcc -O3 -arch=sm_90 -Xcompiler -Wall,-Wextra -o scan scan.cu\n" /* 5 */                     \
	"run: ./scan\n"                                                                                          \
	"gpu: NVIDIA H200\n"                                                 /* 7 */                            \
	"compute-capability: 9.0\n"                                                                              \
	"driver: 580.159.04\n"                                               /* 9 */                            \
	"cuda: 13.0 (V13.0.88)\n"                                                                                \
	"captured: 2026-11-30T10:05:12Z\n"                                   /* 11 */                           \
	"node: gpu-node-1\n"                                                                                    \
	"exit: 0\n"                                                                                              \
	"body-sha256: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n"                     \
	"stdout: 0\n"                                                                                            \
	"stderr: 0\n"

static struct evfile ev;
static struct evidence ev_text; /* what ev.ev points at */

static int load_evidence(void **state)
{
	memset(&ev, 0, sizeof ev);
	ev.path = "evidence/day31-scan-1/run-2026-11-30.txt";
	memset(&ev_text, 0, sizeof ev_text);
	ev.ev = &ev_text;
	textfile_from_memory(EVIDENCE, strlen(EVIDENCE), ev.path, &ev.ev->tf);
	struct evidence_problem prob;
	if (evidence_parse(ev.ev, &prob) != 0) {
		fprintf(stderr, "evidence: %zu:%zu: %s\n", prob.line, prob.col, prob.message);
		return -1;
	}
	(void)state;
	return 0;
}

static int free_evidence(void **state)
{
	evidence_free(ev.ev);
	(void)state;
	return 0;
}

/* The facts of s as "kind:text" joined by " ". */
static void found(const char *s, const char *gpu, char *out, size_t outlen)
{
	static const char *const names[] = {"gpu", "date", "driver", "cuda", "cuda-v", "cc", "flag"};
	struct fact *f;
	size_t n = facts_find(s, strlen(s), gpu, &f);
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n && used < outlen; i++)
		used += (size_t)snprintf(out + used, outlen - used, "%s%s:%.*s", i ? " " : "", names[f[i].kind],
					 (int)(f[i].end - f[i].start), s + f[i].start);
	free(f);
}

static void test_find_each_kind(void **state)
{
	(void)state;
	char got[512];
	found("Measured 2026-11-30 on an NVIDIA H200 (compute capability 9.0), driver 580.159.04, "
	      "CUDA 13.0 (V13.0.88), built with -O3 -arch=sm_90.",
	      "NVIDIA H200", got, sizeof got);
	assert_string_equal(got, "gpu:NVIDIA H200 date:2026-11-30 driver:580.159.04 cuda:13.0 cuda-v:13.0.88 cc:9.0 "
				 "flag:-O3 flag:-arch=sm_90");
}

static void test_find_gpu_wrapped_across_lines(void **state)
{
	(void)state;
	char got[256];
	found("on an NVIDIA\n  H200 today", "NVIDIA H200", got, sizeof got);
	assert_string_equal(got, "gpu:NVIDIA\n  H200");
	found("on an NVIDIA H100 today", "NVIDIA H200", got, sizeof got);
	assert_string_equal(got, "");
}

static void test_find_flags_not_inside_words(void **state)
{
	(void)state;
	char got[256];
	/* a dash inside a word, a path or a number is no flag */
	found("well-known x/-y a=-b 3-4 --use_fast_math, -G;", NULL, got, sizeof got);
	assert_string_equal(got, "flag:--use_fast_math flag:-G");
}

/* F01: one invalid UTF-8 byte made PCRE2 find no fact at all */
static void test_find_past_invalid_utf8(void **state)
{
	(void)state;
	char got[256];
	found("caf\xE9 2019-01-01 driver 470.82.01 \xFF -G", "NVIDIA H200", got, sizeof got);
	assert_string_equal(got, "date:2019-01-01 driver:470.82.01 flag:-G");
}

static void test_flag_in_build(void **state)
{
	(void)state;
	const char *build = "nvcc -O3 -arch=sm_90 -Xcompiler -Wall,-Wextra -o scan scan.cu";
	assert_true(fact_flag_in_build(build, "-O3", 3));
	assert_true(fact_flag_in_build(build, "-Wextra", 7));
	assert_true(fact_flag_in_build(build, "-Wall,-Wextra", 13));
	assert_false(fact_flag_in_build(build, "-O", 2));
	assert_false(fact_flag_in_build(build, "-G", 2));
}

static size_t check(const char *para, size_t base_line, struct fact_range **r, size_t *nr)
{
	/* the paragraph sits on the page from line base_line on */
	struct buf page = {0};
	for (size_t i = 1; i < base_line; i++)
		buf_puts(&page, "\n");
	size_t base = page.len;
	buf_puts(&page, para);
	static struct textfile tf;
	textfile_from_memory(page.s, page.len, "pages/t.md", &tf);
	struct fact_text t = {.s = tf.data + base, .len = strlen(para), .file = &tf, .base = base};
	size_t n = facts_check(&t, &ev, NULL, r, nr);
	textfile_free(&tf);
	buf_free(&page);
	return n;
}

static void test_check_reports_each_wrong_fact_at_its_place(void **state)
{
	(void)state;
	struct fact_range *r;
	size_t nr;
	size_t n = check("Measured 2019-01-01 on an NVIDIA H200 with driver 580.159.04\nand -O0 -O3 -Wextra.\n", 10, &r, &nr);
	assert_int_equal(n, 7); /* six facts and the GPU check; -Wextra is an item of -Wall,-Wextra */
	assert_int_equal(errors(), 2);
	assert_int_equal(reported(D_FACT_DATE), 1);
	assert_int_equal(reported(D_FACT_FLAG), 1);
	assert_output_has("pages/t.md:10:10: error: date '2019-01-01' differs from the evidence's 2026-11-30 [fact-date]");
	assert_output_has("pages/t.md:11:5: error: flag '-O0' is not in the recorded build command [fact-flag]");
	assert_output_has("evidence/day31-scan-1/run-2026-11-30.txt:5: note: the evidence was built with");
	/* the ranges the facts consumed, for the number checks */
	assert_int_equal(nr, 6);
	free(r);
}

static void test_check_gpu_missing(void **state)
{
	(void)state;
	size_t n = check("Measured on some GPU.\n", 3, NULL, NULL);
	assert_int_equal(n, 1);
	assert_int_equal(reported(D_FACT_GPU), 1);
	assert_output_has("pages/t.md:3:1: error: the run's GPU, 'NVIDIA H200', is not named here [fact-gpu]");
}

/* a span that runs onto the next line is underlined on its first line only */
static void test_check_wrapped_span_stays_on_its_line(void **state)
{
	(void)state;
	check("an NVIDIA H200 with compute capability\n8.0 here\n", 1, NULL, NULL);
	assert_int_equal(reported(D_FACT_CC), 1);
	assert_output_has("pages/t.md:2:1: error: compute capability '8.0' differs");
}

/* F14: 20,000 flags in one paragraph, each judged once (was quadratic) */
static void test_check_many_flags(void **state)
{
	(void)state;
	struct buf b = {0};
	buf_puts(&b, "On an NVIDIA H200 with");
	for (int i = 0; i < 20000; i++)
		buf_puts(&b, " -G");
	buf_puts(&b, "\n");
	diag_file_begin("pages/t.md", NULL);
	size_t n = check(b.s, 1, NULL, NULL);
	diag_file_end();
	assert_int_equal(n, 20002);
	assert_int_equal(reported(D_FACT_FLAG), 20000);
	assert_output_has("pages/t.md: note: 19800 more diagnostics not shown (at most 200 are shown for one file)");
	buf_free(&b);
}

/* The build command's word map (made once a paragraph past its first
 * four flags, sized from the command's blanks and commas, a comma-less
 * word not split again) against fact_flag_in_build's plain reading of
 * the command, each flag named 1 to 9 times, on random
 * commands of words, comma-joined words (with empty items) and runs of
 * blanks and tabs: each flag is reported exactly when that reading does
 * not find it. */
static void test_check_flags_as_build_reads(void **state)
{
	(void)state;
	static const char *const words[] = {"-O3", "-Wall,-Wextra", "-a,,-b", "-x,", ",-y", "-G",
					    "-lineinfo", "-Xptxas", "-v,-warn-spills", "--use_fast_math"};
	static const char *const flags[] = {"-O3", "-Wall", "-Wextra", "-Wall,-Wextra", "-a", "-b", "-x", "-y",
					    "-G", "-v", "-warn-spills", "-lineinfo", "--use_fast_math", "-O",
					    "-Xptxas", "-v,-warn-spills", "-a,,-b"};
	static const char *const gaps[] = {" ", "\t", "  ", " \t "};
	struct evfile *saved = malloc(sizeof *saved);
	*saved = ev;
	unsigned x = 5;
#define RND(n) ((x = x * 1103515245u + 12345u), (x >> 16) % (n))
	for (int round = 0; round < 300; round++) {
		char build[512] = "nvcc";
		size_t used = 4;
		for (unsigned i = 0, n = RND(8); i < n; i++) {
			const char *gap = gaps[RND(4)];
			used += (size_t)snprintf(build + used, sizeof build - used, "%s%s", gap,
						 words[RND(sizeof words / sizeof *words)]);
		}
		char text[2048];
		snprintf(text, sizeof text,
			 "coursecheck-evidence 1\nlesson: day31-scan-1\nprogram: programs/day31-scan-1/scan.cu\n"
			 "source-sha256: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n"
			 "build: %s\nrun: ./scan\ngpu: NVIDIA H200\ncompute-capability: 9.0\ndriver: 580.159.04\n"
			 "cuda: 13.0 (V13.0.88)\ncaptured: 2026-11-30T10:05:12Z\nnode: gpu-node-1\nexit: 0\n"
			 "body-sha256: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n"
			 "stdout: 0\nstderr: 0\n",
			 build);
		struct evidence local;
		memset(&local, 0, sizeof local);
		textfile_from_memory(text, strlen(text), saved->path, &local.tf);
		struct evidence_problem prob;
		assert_int_equal(evidence_parse(&local, &prob), 0);
		ev.ev = &local;
		const char *flag = flags[RND(sizeof flags / sizeof *flags)];
		/* the flag named 1 to 9 times: the first FACTS_FLAGS_READ (4)
		 * judged by reading the command, the rest by its word map */
		char para[512] = "On an NVIDIA H200 with";
		size_t plen = strlen(para), reps = 1 + RND(9);
		for (size_t i = 0; i < reps; i++)
			plen += (size_t)snprintf(para + plen, sizeof para - plen, " %s", flag);
		snprintf(para + plen, sizeof para - plen, " here.\n");
		size_t before = reported(D_FACT_FLAG);
		check(para, 1, NULL, NULL);
		bool in = fact_flag_in_build(build, flag, strlen(flag));
		if (reported(D_FACT_FLAG) - before != (in ? 0u : reps))
			print_error("build '%s', flag '%s' x%zu before %zu after %zu\n%s\n", build, flag, reps, before,
				    reported(D_FACT_FLAG), output());
		assert_int_equal(reported(D_FACT_FLAG) - before, in ? 0 : reps);
		evidence_free(&local);
		ev = *saved;
	}
#undef RND
	free(saved);
}

static void test_strmap(void **state)
{
	(void)state;
	struct strmap m = {0};
	char keys[5000][8];
	size_t v;
	assert_false(strmap_get(&m, "x", 1, &v));
	for (size_t i = 0; i < 5000; i++) {
		snprintf(keys[i], sizeof keys[i], "k%zu", i);
		assert_true(strmap_add(&m, keys[i], strlen(keys[i]), i, NULL));
	}
	size_t old = 0;
	assert_false(strmap_add(&m, "k42", 3, 7, &old));
	assert_int_equal(old, 42);
	for (size_t i = 0; i < 5000; i++) {
		assert_true(strmap_get(&m, keys[i], strlen(keys[i]), &v));
		assert_int_equal(v, i);
	}
	/* lengths are explicit: a prefix is another key */
	assert_false(strmap_get(&m, "k4", 1, &v));
	assert_true(strmap_add(&m, "", 0, 99, NULL));
	assert_true(strmap_get(&m, "", 0, &v));
	assert_int_equal(v, 99);
	assert_int_equal(m.n, 5001);
	strmap_free(&m);
	assert_false(strmap_get(&m, "k1", 2, &v));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find_each_kind),
		cmocka_unit_test(test_find_gpu_wrapped_across_lines),
		cmocka_unit_test(test_find_flags_not_inside_words),
		cmocka_unit_test(test_find_past_invalid_utf8),
		cmocka_unit_test(test_flag_in_build),
		cmocka_unit_test_setup_teardown(test_check_reports_each_wrong_fact_at_its_place, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_gpu_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_wrapped_span_stays_on_its_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_many_flags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_flags_as_build_reads, setup, teardown),
		cmocka_unit_test(test_strmap),
	};
	return cmocka_run_group_tests(tests, load_evidence, free_evidence);
}
