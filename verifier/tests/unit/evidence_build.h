/*
 * evidence_build.h - for unit tests: a run of evidence from the header
 * lines a test cares about (magic, lesson, program, source-sha256, the
 * recorded files, build: and run:), completed with the fields every run
 * has, a body without output and its seal, then parsed; the test fails
 * if it does not parse.  Include after cmocka.h.
 */
#ifndef COURSECHECK_TEST_EVIDENCE_BUILD_H
#define COURSECHECK_TEST_EVIDENCE_BUILD_H

#include <string.h>

#include "evidence.h"
#include "sha256.h"
#include "textfile.h"
#include "util.h"

/* head: the header up to and including run: (each line ending in a line
 * feed); taken (freed here).  display: the run's path for messages. */
static void evidence_build(struct evidence *ev, struct buf *head, const char *display)
{
	const char *body = "stdout: 0\nstderr: 0\n";
	char sha[SHA256_HEX_LEN + 1];
	sha256_hex(body, strlen(body), sha);
	buf_printf(head, "gpu: NVIDIA H200\ncompute-capability: 9.0\ndriver: 580.159.04\ncuda: 12.6\n"
			 "captured: 2026-11-30T10:05:12Z\nnode: gpu-node-07\nexit: 0\nbody-sha256: %s\n%s",
		   sha, body);
	memset(ev, 0, sizeof *ev);
	textfile_from_memory(head->s, head->len, display, &ev->tf);
	struct evidence_problem prob;
	int rc = evidence_parse(ev, &prob);
	if (rc != 0)
		print_error("%s\n", prob.message);
	assert_int_equal(rc, 0);
	buf_free(head);
}

#endif
