/*
 * fuzz_verify.c - a whole page checked in a course on disk, in process.
 *
 * Input: PAGE [@@@@ PROGRAM [@@@@ EVIDENCE]].  Once per process the
 * harness writes a scratch course (the test fixture demo, embedded in the
 * binary: one lesson day01-demo with its page, program and evidence)
 * under /dev/shm (or $TMPDIR), named by its pid, and removes it at exit;
 * one left by a process that died of a finding is swept by the next.  For each input it
 * writes PAGE as pages/day01-demo.md, PROGRAM (or the fixture's) as the
 * lesson's program, and EVIDENCE, when given, as a newer run
 * evidence/day01-demo/run-2026-12-01.txt; a body-sha256 or source-sha256
 * whose value is "seal" is filled in with the right hash first, so the
 * fuzzer reaches the checks behind the seal.  Then, as `verify PAGE`
 * and `update --dry-run` do: check_page with a ledger, check_program,
 * and cli_update --dry-run of the page and the program.
 *
 * Properties: no file outside the scratch course is touched and nothing
 * runs (path_oracle.h); the dry run writes nothing; every ledger entry
 * has a claim and a source and names a line of the page; and, checked
 * once at start, the fixture itself passes with no error (so the course
 * is set up right and a finding is the input's doing), and the oracle
 * aborts a read outside the course and a write inside it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "course.h"
#include "diag.h"
#include "evidence.h"
#include "fuzz.h"
#include "fuzz_fixture.h"
#include "ledger.h"
#include "path_oracle.h"
#include "proghdr.h"
#include "repo.h"
#include "sha256.h"
#include "textfile.h"
#include "cli_update.h"
#include "util.h"

#define LESSON "day01-demo"
#define PAGE "pages/" LESSON ".md"
#define PROGRAM "programs/" LESSON "/demo.cu"
#define NEW_EVIDENCE "evidence/" LESSON "/run-2026-12-01.txt"

void __sanitizer_set_report_fd(void *fd);

static char course[PATH_MAX];
static int null_fd = -1;

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void remove_course(void)
{
	if (course[0])
		nftw(course, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void write_file(const char *rel, const void *data, size_t len)
{
	char path[2 * PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", course, rel);
	/* the folders on the way */
	for (char *p = path + strlen(course) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST)
			fuzz_fail(__FILE__, __LINE__, "mkdir", "%s: %s", path, strerror(errno));
		*p = '/';
	}
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0)
		fuzz_fail(__FILE__, __LINE__, "write", "%s: %s", path, strerror(errno));
}

static const struct fuzz_fixture_file *fixture(const char *rel)
{
	for (size_t i = 0; i < fuzz_fixture_n; i++)
		if (strcmp(fuzz_fixture[i].path, rel) == 0)
			return &fuzz_fixture[i];
	fuzz_fail(__FILE__, __LINE__, "fixture", "the fixture has no %s", rel);
}

/* Replaces the value of header field key (on its own line before the
 * stdout line) when it is "seal". */
static void seal_field(struct buf *text, const char *key, const char *value)
{
	struct buf want = {0};
	buf_printf(&want, "\n%s: seal\n", key);
	char *hit = memmem(text->s, text->len, want.s, want.len);
	char *body = memmem(text->s, text->len, "\nstdout: ", 9);
	if (hit && (!body || hit < body)) {
		size_t at = (size_t)(hit - text->s) + strlen(key) + 3;
		struct buf out = {0};
		buf_append(&out, text->s, at);
		buf_puts(&out, value);
		buf_append(&out, text->s + at + 4, text->len - at - 4);
		buf_free(text);
		*text = out;
	}
	buf_free(&want);
}

/* The evidence as the fuzzer wrote it, "seal" values filled in.  The text
 * is normalised first (as the reader will see it) so the hash is right. */
static void write_evidence(const struct fuzz_part *p, const struct textfile *prog)
{
	struct textfile tf;
	textfile_from_memory(p->s, p->len, NEW_EVIDENCE, &tf);
	struct buf text = {0};
	buf_append(&text, tf.data, tf.len);
	textfile_free(&tf);
	char sum[SHA256_HEX_LEN + 1];
	proghdr_source_sha256(prog, sum);
	seal_field(&text, "source-sha256", sum);
	char *body = memmem(text.s, text.len, "\nstdout: ", 9);
	if (body) {
		sha256_hex(body + 1, text.len - (size_t)(body + 1 - text.s), sum);
		seal_field(&text, "body-sha256", sum);
	}
	write_file(NEW_EVIDENCE, text.s, text.len);
	buf_free(&text);
}

static void check_ledger(const struct ledger *lg, size_t page_lines)
{
	for (size_t i = 0; i < lg->n; i++) {
		const struct ledger_entry *e = &lg->v[i];
		FUZZ_CHECK(e->kind < LG_KIND_COUNT && e->claim && e->source, "ledger entry %zu incomplete", i);
		/* an empty page still has a line 1 for what is said of it as a whole */
		FUZZ_CHECK(e->line >= 1 && e->line <= (page_lines ? page_lines : 1), "ledger entry %zu (%s) at line %zu of %zu", i,
			   e->claim, e->line, page_lines);
	}
}

/* verify PAGE and the lesson's program, in process.  Returns the errors. */
static size_t run_verify(size_t page_lines)
{
	fuzz_quiet();
	if (repo_open(course) != 0)
		fuzz_fail(__FILE__, __LINE__, "repo_open", "%s: %s", course, strerror(errno));
	size_t before = diag_count(DIAG_ERROR);
	struct check_opts opts = {.strict = false};
	struct ledger lg = {0};
	path_oracle_arm(course, true);
	int rc = check_page(PAGE, &opts, &lg);
	check_program(LESSON, &opts);
	path_oracle_disarm();
	FUZZ_CHECK(rc == 0, "the page on disk could not be read");
	check_ledger(&lg, page_lines);
	ledger_free(&lg);
	cli_release();
	return diag_count(DIAG_ERROR) - before;
}

/* update --dry-run of the page and the program, its output silenced. */
static void run_update(void)
{
	char *argv[] = {"update", "--dry-run", "--root", course, PAGE, PROGRAM, NULL};
	fflush(stdout);
	fflush(stderr);
	int out = dup(1), err = dup(2);
	dup2(null_fd, 1);
	dup2(null_fd, 2);
	path_oracle_arm(course, true);
	int rc = cli_update(6, argv);
	path_oracle_disarm();
	fflush(stdout);
	fflush(stderr);
	dup2(out, 1);
	dup2(err, 2);
	close(out);
	close(err);
	FUZZ_CHECK(rc >= 0 && rc <= 2, "update exit status %d", rc);
}

/* The oracle must catch what it is there for: in a child, an armed
 * oracle must abort a read outside the course and a write inside it. */
static void oracle_self_test(const char *outside, const char *mode)
{
	char inside[2 * PATH_MAX];
	snprintf(inside, sizeof inside, "%s/%s", course, PAGE);
	pid_t pid = fork();
	if (pid == 0) {
		fuzz_report_fd = null_fd; /* the expected report is noise */
		path_oracle_arm(course, true);
		FILE *f = __wrap_fopen(outside ? outside : inside, mode);
		(void)f;
		_exit(0);
	}
	int st;
	FUZZ_CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT,
		   "the path oracle let fopen(\"%s\", \"%s\") through", outside ? outside : inside, mode);
}

/* A process that dies of a finding never runs its atexit: the next one
 * sweeps the scratch courses whose process is gone (named by pid). */
static void sweep_dead(const char *tmp)
{
	DIR *d = opendir(tmp);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		int pid;
		if (sscanf(e->d_name, "coursecheck-fuzz-%d.", &pid) != 1 || pid <= 0)
			continue;
		if (kill(pid, 0) == 0 || errno != ESRCH)
			continue; /* alive, or not ours to judge */
		char path[2 * PATH_MAX];
		snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
		nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	}
	closedir(d);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* sanitizer reports and property failures keep going to the real
	 * standard error while it is silenced around update */
	fuzz_report_fd = dup(2);
	__sanitizer_set_report_fd((void *)(long)fuzz_report_fd);
	null_fd = open("/dev/null", O_WRONLY);
	const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char dir[PATH_MAX];
	sweep_dead(tmp);
	snprintf(dir, sizeof dir, "%s/coursecheck-fuzz-%d.XXXXXX", tmp, (int)getpid());
	if (!mkdtemp(dir) || !realpath(dir, course))
		fuzz_fail(__FILE__, __LINE__, "mkdtemp", "%s: %s", dir, strerror(errno));
	atexit(remove_course);
	for (size_t i = 0; i < fuzz_fixture_n; i++)
		write_file(fuzz_fixture[i].path, fuzz_fixture[i].data, fuzz_fixture[i].len);
	const struct fuzz_fixture_file *page = fixture(PAGE);
	struct textfile tf;
	textfile_from_memory((const char *)page->data, page->len, PAGE, &tf);
	size_t errors = run_verify(tf.n_lines);
	textfile_free(&tf);
	FUZZ_CHECK(errors == 0, "the fixture course does not pass (%zu errors): the harness is broken", errors);
	FUZZ_CHECK(path_oracle_checked() > 0, "the path oracle saw no file access: the wrapping is not linked");
	oracle_self_test("/etc/passwd", "r");
	oracle_self_test(NULL, "w");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_part parts[3];
	size_t np = fuzz_split(data, size, parts, 3);
	write_file(PAGE, parts[0].s, parts[0].len);
	const struct fuzz_fixture_file *fx = fixture(PROGRAM);
	struct fuzz_part prog = np > 1 ? parts[1] : (struct fuzz_part){(const char *)fx->data, fx->len};
	write_file(PROGRAM, prog.s, prog.len);
	struct textfile ptf;
	textfile_from_memory(prog.s, prog.len, PROGRAM, &ptf);
	char path[2 * PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", course, NEW_EVIDENCE);
	if (np > 2)
		write_evidence(&parts[2], &ptf);
	else if (unlink(path) != 0 && errno != ENOENT)
		fuzz_fail(__FILE__, __LINE__, "unlink", "%s: %s", path, strerror(errno));
	textfile_free(&ptf);

	struct textfile tf;
	textfile_from_memory(parts[0].s, parts[0].len, PAGE, &tf);
	run_verify(tf.n_lines);
	textfile_free(&tf);
	run_update();
	return 0;
}
