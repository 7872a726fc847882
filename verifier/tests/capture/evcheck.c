/*
 * evcheck.c - reads evidence files with the verifier's own parser
 * (evidence.c) and fails unless each parses and its body is intact.
 * run.sh builds it next to its scratch repositories.
 */
#include <stdio.h>

#include "evidence.h"

int main(int argc, char **argv)
{
	int bad = 0;
	for (int i = 1; i < argc; i++) {
		struct evidence ev;
		struct evidence_problem prob;
		const char *why = "";
		int r = evidence_load(argv[i], argv[i], &ev, &prob, &why);
		char actual[SHA256_HEX_LEN + 1];
		if (r == -1)
			fprintf(stderr, "%s: cannot read: %s\n", argv[i], why);
		else if (r == -2)
			fprintf(stderr, "%s:%zu:%zu: %s\n", argv[i], prob.line, prob.col, prob.message);
		else if (!evidence_body_intact(&ev, actual))
			fprintf(stderr, "%s: body-sha256 does not match (%s)\n", argv[i], actual);
		bad |= r != 0 || !evidence_body_intact(&ev, actual);
		evidence_free(&ev);
	}
	return bad;
}
