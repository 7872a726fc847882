/*
 * capture_main.c - the small binary build/coursecheck-capture: `capture`
 * alone, linking libc and libcrypto only, for GPU nodes that have nothing
 * else (coursecheck's full binary runs the same code as `coursecheck
 * capture`).  The repository is the current folder unless --root names
 * another (capture_command opens it).
 */
#include <stdio.h>

#include "capture.h"
#include "cliopt.h"
#include "diag.h"
#include "repo.h"

int main(int argc, char **argv)
{
	diag_init(stderr, false);
	int status = capture_command(argc, argv);
	repo_close();
	return cliopt_close_streams("coursecheck-capture", status);
}
