/*
 * test_readset.c - the files a run read (readset.h): the set made from a
 * dependency output (relative, absolute, from a build folder below the
 * lesson, escaped spaces, names of no lesson file, the fallback to every
 * file), the header it writes, and the judgement of evidence that holds
 * it (a changed, gone or new file; a new source nobody read).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "evidence_build.h"
#include "readset.h"
#include "sha256.h"
#include "textfile.h"

#define TOP "/scratch/work"
#define DIR TOP "/day31"

/* A lesson of these paths (the program first of the .cu files), each
 * file's tokens hash its path's, so that any two differ. */
static void lesson(struct lesson_files *f, const char *const *paths, size_t n)
{
	memset(f, 0, sizeof *f);
	f->v = calloc(n, sizeof *f->v);
	f->n = n;
	f->program = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		f->v[i].path = (char *)paths[i];
		sha256_hex(paths[i], strlen(paths[i]), f->v[i].tsha);
		if (f->program == SIZE_MAX && strstr(paths[i], ".cu"))
			f->program = i;
	}
}

static const char *const files[] = {
	"programs/common/check.h", "programs/common/unused.h", "programs/day31/CMakeLists.txt",
	"programs/day31/input.txt", "programs/day31/my file.h",  "programs/day31/scan.cu",
	"programs/day31/tile.h",
};

/* The set as "PATH|PATH|..." and its method. */
static void set_of(const char *deps, char *out, size_t size, const char **method)
{
	struct lesson_files f;
	lesson(&f, files, sizeof files / sizeof files[0]);
	f.program = 5;
	struct readset r;
	readset_from_deps(&r, &f, deps, deps ? strlen(deps) : 0, TOP, DIR);
	size_t o = 0;
	out[0] = '\0';
	for (size_t k = 0; k < r.n; k++)
		o += (size_t)snprintf(out + o, size - o, "%s%s", k ? "|" : "", f.v[r.files[k]].path);
	*method = r.method;
	readset_free(&r);
	free(f.v);
}

static void test_sets(void **state)
{
	(void)state;
	static const struct {
		const char *deps, *set, *method;
	} cases[] = {
		/* relative to the lesson folder, as nvcc's host compiler writes them */
		{"scan.o: scan.cu ../common/check.h \\\n tile.h\n",
		 "programs/common/check.h|programs/day31/CMakeLists.txt|programs/day31/input.txt|programs/day31/scan.cu|"
		 "programs/day31/tile.h",
		 READSET_DEPS},
		/* absolute, and from CMake's build folder b/ (../ taken one at a time) */
		{"b/x.o: " DIR "/scan.cu ../../common/check.h\n",
		 "programs/common/check.h|programs/day31/CMakeLists.txt|programs/day31/input.txt|programs/day31/scan.cu",
		 READSET_DEPS},
		/* an escaped space; names of no lesson file are left out */
		{"a.o: scan.cu my\\ file.h /usr/include/stdio.h ../../etc/passwd\n",
		 "programs/day31/CMakeLists.txt|programs/day31/input.txt|programs/day31/my file.h|programs/day31/scan.cu",
		 READSET_DEPS},
		/* no source named (a compiler that ignores DEPENDENCIES_OUTPUT): every file */
		{"", "programs/common/check.h|programs/common/unused.h|programs/day31/CMakeLists.txt|programs/day31/input.txt|"
		     "programs/day31/my file.h|programs/day31/scan.cu|programs/day31/tile.h",
		 READSET_ALL},
		{NULL, "programs/common/check.h|programs/common/unused.h|programs/day31/CMakeLists.txt|programs/day31/input.txt|"
		       "programs/day31/my file.h|programs/day31/scan.cu|programs/day31/tile.h",
		 READSET_ALL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char got[1024];
		const char *method;
		set_of(cases[i].deps, got, sizeof got, &method);
		if (strcmp(got, cases[i].set) != 0 || strcmp(method, cases[i].method) != 0)
			fail_msg("case %zu: got %s (%s), want %s (%s)", i, got, method, cases[i].set, cases[i].method);
	}
}

/* Evidence holding the header readset_header() writes for f's set. */
static void evidence_of(struct evidence *ev, const struct lesson_files *f, const char *deps)
{
	struct readset r;
	readset_from_deps(&r, f, deps, strlen(deps), TOP, DIR);
	struct buf h = {0};
	buf_printf(&h, EVIDENCE_MAGIC "\nlesson: day31\nprogram: programs/day31/scan.cu\nsource-sha256: %s\n", r.sha);
	readset_header(&h, &r, f);
	buf_puts(&h, "build: nvcc -o scan scan.cu\nrun: ./scan\n");
	evidence_build(ev, &h, "evidence/day31/run-2026-11-30.txt");
	readset_free(&r);
}

static char *judge(const struct evidence *ev, const char *const *paths, size_t n, const char *changed)
{
	struct lesson_files f;
	lesson(&f, paths, n);
	for (size_t i = 0; changed && i < n; i++)
		if (strcmp(paths[i], changed) == 0)
			sha256_hex("changed", 7, f.v[i].tsha);
	size_t line = 0;
	char now[SHA256_HEX_LEN + 1];
	char *said = readset_changed(ev, &f, &line, now);
	free(f.v);
	return said;
}

static void test_judged(void **state)
{
	(void)state;
	struct lesson_files f;
	size_t n = sizeof files / sizeof files[0];
	lesson(&f, files, n);
	f.program = 5;
	struct evidence ev;
	evidence_of(&ev, &f, "scan.o: scan.cu ../common/check.h tile.h\n");
	assert_true(readset_recorded(&ev));
	assert_string_equal(evidence_get(&ev, READSET_METHOD_KEY, NULL), READSET_DEPS);
	char *said = judge(&ev, files, n, NULL);
	assert_null(said);
	said = judge(&ev, files, n, "programs/common/unused.h"); /* never read */
	assert_null(said);
	said = judge(&ev, files, n, "programs/common/check.h");
	assert_string_equal(said, "'programs/common/check.h' changed");
	free(said);
	static const char *const more[] = {
		"programs/common/check.h", "programs/common/later.h", "programs/common/unused.h",
		"programs/day31/CMakeLists.txt", "programs/day31/input.txt", "programs/day31/my file.h",
		"programs/day31/scan.cu", "programs/day31/tile.h",
	};
	said = judge(&ev, more, 8, NULL); /* a new header nobody read */
	assert_null(said);
	static const char *const data[] = {
		"programs/common/check.h", "programs/common/unused.h", "programs/day31/CMakeLists.txt",
		"programs/day31/input.txt", "programs/day31/my file.h", "programs/day31/scan.cu",
		"programs/day31/sizes.txt", "programs/day31/tile.h",
	};
	said = judge(&ev, data, 8, NULL); /* a new data file */
	assert_string_equal(said, "'programs/day31/sizes.txt' is new");
	free(said);
	static const char *const gone[] = {
		"programs/common/check.h", "programs/common/unused.h", "programs/day31/CMakeLists.txt",
		"programs/day31/input.txt", "programs/day31/my file.h", "programs/day31/scan.cu",
	};
	said = judge(&ev, gone, 6, NULL);
	assert_string_equal(said, "'programs/day31/tile.h' is gone");
	free(said);
	evidence_free(&ev);
	free(f.v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sets),
		cmocka_unit_test(test_judged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
