/*
 * evidence.h - reading an evidence file (format "coursecheck-evidence 1").
 *
 *   coursecheck-evidence 1
 *   key: value            header lines, any order, unknown keys kept
 *   ...
 *   stdout: N             then exactly N lines, verbatim
 *   stderr: M             then exactly M lines, verbatim
 *
 * A capture of several runs (the program's header names them, proghdr.h)
 * keeps that shape for its first run and adds, in the header,
 *   runs: main racecheck          every run's name, in order
 *   run.racecheck: COMMAND        each further run's command, and its
 *   exit.racecheck: 1             exit, and, when it is expected to end
 *   expect-exit.racecheck: 1      with a nonzero status, that status
 * (expect-exit: N for the first run), and after the first run's stderr
 * section one pair of sections per further run:
 *   stdout.racecheck: N   ...   stderr.racecheck: M   ...
 * A file with one unnamed run reads exactly as before; `expect-failed:
 * NAME` marks a run whose stdout did not match the header's Expect:.
 *
 * body-sha256 is the SHA-256 of the (LF-normalised) text from the start of
 * the stdout: line to the end of the file.  The parser only reads; judging
 * (stale, failed, edited) is the checks' business.  This module links
 * nothing but libc and libcrypto, so capture can use it on a GPU node.
 */
#ifndef COURSECHECK_EVIDENCE_H
#define COURSECHECK_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "sha256.h"
#include "strmap.h"
#include "textfile.h"

#define EVIDENCE_MAGIC "coursecheck-evidence 1"

struct evidence_field {
	char *key;   /* the key, its NUL, the value: in the evidence's chunks */
	char *value;
	size_t line;
};

/* One run of the capture: the first is described by the plain stdout,
 * stderr, run and exit fields. */
struct evidence_run {
	char *name;               /* "main" unless runs: names it */
	const char *command;      /* run / run.NAME */
	const char *exit;         /* exit / exit.NAME */
	int expect_exit;          /* expect-exit / expect-exit.NAME, 0 when absent */
	size_t stdout_line, stdout_first, n_stdout;
	size_t stderr_line, stderr_first, n_stderr;
};

struct evidence {
	struct textfile tf;            /* owns the text */
	struct evidence_field *fields; /* header fields in file order */
	size_t n_fields;
	struct strmap keys;            /* key -> index in fields (keys borrowed from fields) */
	struct evidence_chunk *chunks; /* the fields' keys and values, packed (owned) */
	size_t stdout_line;            /* the "stdout: N" line */
	size_t stdout_first;           /* file line of stdout line 0 */
	size_t n_stdout;
	size_t stderr_line;
	size_t stderr_first;
	size_t n_stderr;
	size_t body_offset;            /* byte offset of the stdout: line */
	struct evidence_run *runs;     /* every run, the first one first; n_runs >= 1 once parsed */
	size_t n_runs;
	size_t *header_lines;          /* align_header_line's answer for each stdout line, made by
					* align.c at its first call (owned, freed by evidence_free) */
};

/* The first problem met, when parsing fails. */
struct evidence_problem {
	enum diag_kind kind; /* D_EVIDENCE_MALFORMED or D_EVIDENCE_TRUNCATED */
	size_t line, col;
	char message[256];
};

/* The header keys every evidence file must have. */
extern const char *const evidence_required_keys[];

/* Reads and parses the file at fspath (shown as display).  Returns 0 on
 * success.  Returns -1 when the file cannot be read (*why set, prob
 * untouched) and -2 when it is malformed (prob filled; ev->tf stays
 * loaded so the caller can point at the line).  Always evidence_free(). */
int evidence_load(const char *fspath, const char *display, struct evidence *ev,
		  struct evidence_problem *prob, const char **why);
/* Parses text already in ev->tf (tests use this). */
int evidence_parse(struct evidence *ev, struct evidence_problem *prob);
void evidence_free(struct evidence *ev);

/* A header value, or NULL when absent; *line receives its line if wanted. */
const char *evidence_get(const struct evidence *ev, const char *key, size_t *line);
/* Stdout line k (0-based) without its newline. */
const char *evidence_stdout(const struct evidence *ev, size_t k, size_t *len);
/* True when the body still hashes to body-sha256; actual gets the digest. */
bool evidence_body_intact(const struct evidence *ev, char actual[SHA256_HEX_LEN + 1]);
/* The UTC date (YYYY-MM-DD) of the captured field in out[11]; false when absent. */
bool evidence_captured_date(const struct evidence *ev, char out[11]);
/* True when every run ended with the exit status it was expected to
 * (0 unless expect-exit says otherwise) and no run failed its Expect:. */
bool evidence_exit_ok(const struct evidence *ev);
/* The first run that did not end as expected, or NULL. */
const struct evidence_run *evidence_failed_run(const struct evidence *ev);
/* The run called name (NULL or "": the first), or NULL. */
const struct evidence_run *evidence_run_named(const struct evidence *ev, const char *name);
/* Line k (0-based) of a run's stdout (err false) or stderr (err true). */
const char *evidence_run_line(const struct evidence *ev, const struct evidence_run *r, bool err, size_t k,
			      size_t *len);

#endif
