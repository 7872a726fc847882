/*
 * test_page.c - the Markdown model: blocks and their lines (also where
 * cmark-gfm gives none), the markers that govern them, inline markers
 * each at its own line, the nesting and width limits, and the inline
 * segments at their raw offsets.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "page.h"
#include "textfile.h"
#include "util.h"

#include "diag_capture.h"
#include "file_tree.h"

#include <dirent.h>
#include <sys/stat.h>

struct parsed {
	struct textfile tf;
	struct page pg;
};

static void parse(struct parsed *p, const char *text)
{
	textfile_from_memory(text, strlen(text), "pages/t.md", &p->tf);
	page_parse(&p->tf, 1, DIAG_REPORT, &p->pg);
}

static void release(struct parsed *p)
{
	page_free(&p->pg);
	textfile_free(&p->tf);
}

/* n copies of s, then tail: malloc'd */
static char *repeat(const char *s, size_t n, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);
	char *out = malloc(a * n + b + 1);
	assert_non_null(out);
	for (size_t i = 0; i < n; i++)
		memcpy(out + i * a, s, a);
	memcpy(out + a * n, tail, b + 1);
	return out;
}

static void test_blocks_lines_and_markers(void **state)
{
	(void)state;
	struct parsed p;
	parse(&p, "# Title\n"                 /* 1 */
		  "\n"                        /* 2 */
		  "<!-- snippet: add -->\n"   /* 3 */
		  "```c\n"                    /* 4 */
		  "int x;\n"                  /* 5 */
		  "```\n"                     /* 6 */
		  "\n"                        /* 7 */
		  "<!-- measured -->\n"       /* 8 */
		  "Measured on\n"             /* 9 */
		  "an NVIDIA H200.\n");       /* 10 */
	assert_int_equal(p.pg.problems, 0);
	assert_int_equal(p.pg.n_blocks, 3);
	const struct page_block *b = p.pg.blocks;
	assert_int_equal(b[0].kind, BK_TEXT);
	assert_int_equal(b[0].line, 1);
	assert_int_equal(b[0].marker.kind, MK_PLAIN);
	assert_int_equal(b[1].kind, BK_CODE);
	assert_int_equal(b[1].line, 4);
	assert_int_equal(b[1].code_first_line, 5);
	assert_string_equal(b[1].code, "int x;\n");
	assert_int_equal(b[1].marker.kind, MK_SNIPPET);
	assert_string_equal(b[1].marker_arg, "add");
	assert_int_equal(b[1].marker_line, 3);
	assert_int_equal(b[2].kind, BK_TEXT);
	assert_int_equal(b[2].marker.kind, MK_MEASURED);
	assert_int_equal(b[2].line, 9);
	assert_int_equal(b[2].end_line, 10);
	release(&p);
}

/* F13: cmark-gfm 0.29.0.gfm.6 gives a paragraph that a table follows
 * directly start line 0, and the table the paragraph's line. */
static void test_paragraph_before_table_gets_its_own_lines(void **state)
{
	(void)state;
	struct parsed p;
	parse(&p, "<!-- measured -->\n"                 /* 1 */
		  "Measured on an NVIDIA H200\n"        /* 2 */
		  "with -O3:\n"                         /* 3 */
		  "| threads | steps |\n"               /* 4 */
		  "| --- | --- |\n"                     /* 5 */
		  "| 256 | 8 |\n");                     /* 6 */
	assert_int_equal(p.pg.n_blocks, 2);
	const struct page_block *para = &p.pg.blocks[0], *table = &p.pg.blocks[1];
	assert_int_equal(para->kind, BK_TEXT);
	assert_int_equal(para->marker.kind, MK_MEASURED);
	assert_int_equal(para->line, 2);
	assert_int_equal(para->end_line, 3);
	size_t from, to;
	page_block_range(&p.pg, para, &from, &to);
	assert_true(from <= to);
	assert_int_equal(from, p.tf.line_start[1]);
	assert_int_equal(to, p.tf.line_start[3]);
	assert_int_equal(table->kind, BK_TABLE);
	assert_int_equal(table->line, 4);
	assert_int_equal(table->end_line, 6);
	/* the header row lies on the table's first line, its cells found there */
	cmark_node *header = cmark_node_first_child(table->node);
	assert_int_equal(page_node_line(&p.pg, header), 4);
	struct seg *segs;
	size_t n = page_segments(&p.pg, cmark_node_first_child(header), &segs);
	assert_int_equal(n, 1);
	assert_int_equal(segs[0].raw_off, p.tf.line_start[3] + 2);
	free(segs);
	release(&p);
}

static void test_every_block_range_is_ordered(void **state)
{
	(void)state;
	/* odd shapes: tables right after paragraphs in lists and quotes */
	struct parsed p;
	parse(&p, "> a\n> | x |\n> | - |\n\n- b\n  | y |\n  | - |\n  c\n\ntext\n| z |\n| - |\n");
	size_t last = 0;
	for (size_t i = 0; i < p.pg.n_blocks; i++) {
		const struct page_block *b = &p.pg.blocks[i];
		assert_true(b->line >= 1);
		assert_true(b->end_line >= b->line);
		assert_true(b->end_line <= p.tf.n_lines);
		assert_true(b->line >= last);
		last = b->line;
		size_t from, to;
		page_block_range(&p.pg, b, &from, &to);
		assert_true(from <= to && to <= p.tf.len);
	}
	release(&p);
}

/* F02: a line of 40,000 nested list items overflowed the stack of the
 * recursive walk. */
static void test_deep_nesting_on_one_line_is_refused(void **state)
{
	(void)state;
	char *text = repeat("- ", 40000, "x\n\nafter\n");
	struct parsed p;
	parse(&p, text);
	assert_int_equal(reported(D_PAGE_NESTING), 1);
	assert_output_has("pages/t.md:1:1: error: lists and block quotes nest 40000 levels deep here");
	/* the rest of the page is still read */
	assert_int_equal(p.pg.n_blocks, 1);
	assert_int_equal(p.pg.blocks[0].line, 3);
	release(&p);
	free(text);
}

static void test_deep_quotes_are_refused(void **state)
{
	(void)state;
	char *text = repeat("> ", 100000, "x\n");
	struct parsed p;
	parse(&p, text);
	assert_int_equal(reported(D_PAGE_NESTING), 1);
	assert_int_equal(p.pg.n_blocks, 0);
	release(&p);
	free(text);
}

static void test_nesting_at_the_limit_is_read(void **state)
{
	(void)state;
	char *text = repeat("> ", PAGE_MAX_NESTING, "x\n");
	struct parsed p;
	parse(&p, text);
	assert_int_equal(reported(D_PAGE_NESTING), 0);
	assert_int_equal(p.pg.n_blocks, 1);
	release(&p);
	free(text);
}

/* nesting by indentation passes the per-line scan; the walk stops it */
static void test_deep_nesting_by_indentation_is_refused_by_the_walk(void **state)
{
	(void)state;
	struct buf b = {0};
	for (int i = 0; i < 40; i++) {
		for (int j = 0; j < i; j++)
			buf_puts(&b, "  ");
		buf_printf(&b, "- item %d\n", i);
	}
	buf_puts(&b, "\nafter\n");
	struct parsed p;
	parse(&p, b.s);
	assert_int_equal(reported(D_PAGE_NESTING), 1);
	assert_output_has("nest at least 33 levels deep here");
	/* the 32 items within the limit and the paragraph after are read */
	assert_int_equal(p.pg.n_blocks, 33);
	assert_int_equal(p.pg.blocks[32].line, 42);
	release(&p);
	buf_free(&b);
}

static void test_thematic_break_is_not_nesting(void **state)
{
	(void)state;
	char *text = repeat("- ", 100, "\n\ntext\n");
	struct parsed p;
	parse(&p, text);
	assert_int_equal(reported(D_PAGE_NESTING), 0);
	release(&p);
	free(text);
}

static void test_wide_table_row_is_refused(void **state)
{
	(void)state;
	char *head = repeat("| n ", 200, "|\n");
	char *rule = repeat("| - ", 200, "|\n");
	struct buf b = {0};
	buf_puts(&b, head);
	buf_puts(&b, rule);
	buf_puts(&b, "| 1 | 2 |\n");
	struct parsed p;
	parse(&p, b.s);
	assert_int_equal(reported(D_TABLE_WIDE), 1);
	assert_output_has("pages/t.md:1:1: error: this line has 200 table cells, more than the 128");
	assert_output_has("1 more line as wide are not checked either");
	release(&p);
	buf_free(&b);
	free(head);
	free(rule);
}

/* each misspelt inline marker at its own line and column, even when the
 * same comment stands on several lines */
static void test_inline_markers_each_at_their_line(void **state)
{
	(void)state;
	struct parsed p;
	parse(&p, "One <!-- snipet: a --> here,\n"
		  "two <!-- snipet: a --> there,\n"
		  "and <!-- = 1 --> fine, then <!-- snipet: a -->.\n");
	assert_int_equal(reported(D_MARKER_UNKNOWN), 3);
	assert_output_has("pages/t.md:1:5: error:");
	assert_output_has("pages/t.md:2:5: error:");
	assert_output_has("pages/t.md:3:29: error:");
	release(&p);
}

static void test_segments_at_raw_offsets(void **state)
{
	(void)state;
	struct parsed p;
	const char *text = "Took 1.5 ms <!-- = 3 / 2 --> and `2.5` [x](http://a/9.9) then\n3.5 ms.\n";
	parse(&p, text);
	assert_int_equal(p.pg.n_blocks, 1);
	struct seg *segs;
	size_t n = page_segments(&p.pg, p.pg.blocks[0].node, &segs);
	size_t text_segs = 0;
	for (size_t i = 0; i < n; i++) {
		if (segs[i].kind == SEG_BREAK)
			continue;
		/* every segment found sits at its own bytes */
		if (segs[i].raw_off != SIZE_MAX) {
			assert_true(segs[i].raw_off + segs[i].len <= p.tf.len);
			assert_memory_equal(text + segs[i].raw_off, segs[i].s, segs[i].len);
		}
		text_segs += segs[i].kind == SEG_TEXT;
	}
	assert_int_equal(segs[0].kind, SEG_TEXT);
	assert_int_equal(segs[0].raw_off, 0);
	assert_int_equal(segs[1].kind, SEG_ANNOT);
	assert_int_equal(segs[1].marker.kind, MK_DERIVE);
	assert_true(text_segs >= 3);
	free(segs);
	release(&p);
}

/* page_line_bound's shortcut (a line too short to pass a limit is not
 * measured) against measuring every line: the lines at each limit's
 * edge, one byte short and one past, built of the bytes that count the
 * most (">" levels, "|" cells, with and without a first and last cell),
 * then random lines of those bytes and the ones that stop a count. */
static void expect_same_bound(const char *s, size_t len)
{
	size_t fast_m, slow_m;
	enum page_line_bound fast = page_line_bound(s, len, true, &fast_m);
	enum page_line_bound slow = page_line_bound(s, len, false, &slow_m);
	if (fast != slow || fast_m != slow_m)
		fail_msg("line of %zu bytes '%.*s': shortcut %d (%zu), measured %d (%zu)", len, (int)len, s, fast,
			 fast_m, slow, slow_m);
}

static void test_line_bound_shortcut_agrees_with_measuring(void **state)
{
	(void)state;
	char line[400];
	size_t edges = 0;
	for (size_t len = 0; len <= 2 * PAGE_MAX_COLUMNS + 4; len++) {
		static const char *const fills[] = {">", "|", "a|", "|a", "- ", "1. ", "> ", "\\|"};
		for (size_t f = 0; f < sizeof fills / sizeof *fills; f++) {
			size_t flen = strlen(fills[f]);
			for (size_t i = 0; i < len; i++)
				line[i] = fills[f][i % flen];
			expect_same_bound(line, len);
			/* the most cells for the length: a first and a last one around pipes */
			if (len >= 2) {
				memset(line, '|', len);
				line[0] = line[len - 1] = 'a';
				expect_same_bound(line, len);
			}
			size_t m;
			edges += page_line_bound(line, len, false, &m) != PAGE_LINE_READ;
		}
	}
	assert_true(edges > 0); /* the edges include lines past each limit */
	/* each limit's first line that passes it, so a shortcut one byte too long fails */
	size_t m;
	memset(line, '>', PAGE_MAX_NESTING + 1);
	assert_int_equal(page_line_bound(line, PAGE_MAX_NESTING + 1, true, &m), PAGE_LINE_DEEP);
	memset(line, '|', PAGE_MAX_COLUMNS + 2);
	line[0] = line[PAGE_MAX_COLUMNS + 1] = 'a';
	assert_int_equal(page_line_bound(line, PAGE_MAX_COLUMNS + 2, true, &m), PAGE_LINE_WIDE);
	assert_int_equal(m, PAGE_MAX_COLUMNS + 1);

	/* lines long enough that the 16-byte counters are summed more than
	 * once (each holds 255 at most) */
	for (size_t len = 16 * 255 - 3; len <= 3 * 16 * 255 + 5; len += 16 * 255 - 1) {
		char *wide = malloc(len);
		assert_non_null(wide);
		memset(wide, '|', len);
		expect_same_bound(wide, len);
		wide[0] = 'a';
		wide[len / 2] = ' ';
		expect_same_bound(wide, len);
		free(wide);
	}

	static const char alphabet[] = ">>>|||--**++ \t\\1.)a";
	uint64_t seed = 0x9E3779B97F4A7C15ULL;
	for (int round = 0; round < 100000; round++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		size_t len = (size_t)(seed >> 33) % (2 * PAGE_MAX_COLUMNS + 8);
		for (size_t i = 0; i < len; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			/* mostly one byte repeated, so that some lines pass a limit */
			line[i] = (seed >> 60) < 12 ? (i ? line[i - 1] : '|') : alphabet[(seed >> 33) % (sizeof alphabet - 1)];
		}
		expect_same_bound(line, len);
	}
}

/* ---- the page arena against cmark-gfm's default allocator ---- */

/* The whole tree with its source positions, rendered with the default
 * allocator whichever one built it. */
static char *tree_xml(const struct page *pg)
{
	return cmark_render_xml_with_mem(pg->doc, CMARK_OPT_SOURCEPOS, cmark_get_default_mem_allocator());
}

static void expect_segments_equal(const struct seg *sa, size_t n, const struct seg *sb, size_t m)
{
	assert_int_equal(n, m);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(sa[i].kind, sb[i].kind);
		assert_int_equal(sa[i].len, sb[i].len);
		assert_memory_equal(sa[i].s, sb[i].s, sa[i].len);
		assert_int_equal(sa[i].raw_off, sb[i].raw_off);
		assert_int_equal(sa[i].marker.kind, sb[i].marker.kind);
		assert_int_equal(sa[i].marker.status, sb[i].marker.status);
		assert_int_equal(sa[i].marker.arg_start, sb[i].marker.arg_start);
		assert_int_equal(sa[i].marker.arg_end, sb[i].marker.arg_end);
	}
}

/* The segments page_parse kept for na (the first ask of a), collected
 * again for nb (page_segments_fresh of b), and for na asked a second
 * time: all three the same. */
static void expect_same_segments(const struct page *a, const struct page *b, cmark_node *na, cmark_node *nb)
{
	struct seg *sa, *sb, *again;
	size_t n = page_segments(a, na, &sa), m = page_segments_fresh(b, nb, &sb);
	size_t k = page_segments(a, na, &again);
	expect_segments_equal(sa, n, sb, m);
	expect_segments_equal(sa, n, again, k);
	free(sa);
	free(sb);
	free(again);
}

/* Each cell of table node (and its counterpart in the other page). */
static void expect_same_cell_segments(const struct page *a, const struct page *b, cmark_node *ta, cmark_node *tb)
{
	for (cmark_node *ra = cmark_node_first_child(ta), *rb = cmark_node_first_child(tb); ra && rb;
	     ra = cmark_node_next(ra), rb = cmark_node_next(rb))
		for (cmark_node *ca = cmark_node_first_child(ra), *cb = cmark_node_first_child(rb); ca && cb;
		     ca = cmark_node_next(ca), cb = cmark_node_next(cb)) {
			expect_same_segments(a, b, ca, cb);
			size_t la, ea, lb, eb;
			page_node_lines(a, ca, &la, &ea); /* a kept cell is still no block of its own */
			page_node_lines(b, cb, &lb, &eb);
			assert_int_equal(la, lb);
			assert_int_equal(ea, eb);
		}
}

/* text parsed by page_parse (in the arena: no other page is held) and,
 * while that page is live, by page_parse_malloc: the same blocks, markers,
 * code, segments and tree. */
static void expect_arena_agrees(const char *text, size_t len, const char *name)
{
	struct textfile tf;
	textfile_from_memory(text, len, name, &tf);
	struct page a, b, c;
	page_parse(&tf, 1, DIAG_DROP, &a);
	page_parse(&tf, 1, DIAG_DROP, &c); /* a holds the arena: the default allocator */
	page_parse_malloc(&tf, 1, DIAG_DROP, &b);
	assert_int_equal(a.in_arena, tf.len <= 1024u * 1024u);
	assert_false(c.in_arena);
	assert_false(b.in_arena);
	page_free(&c);
	assert_int_equal(a.problems, b.problems);
	assert_int_equal(a.unread, b.unread);
	assert_int_equal(a.n_blocks, b.n_blocks);
	for (size_t i = 0; i < a.n_blocks; i++) {
		const struct page_block *x = &a.blocks[i], *y = &b.blocks[i];
		assert_int_equal(x->kind, y->kind);
		assert_int_equal(x->line, y->line);
		assert_int_equal(x->end_line, y->end_line);
		assert_int_equal(x->marker.kind, y->marker.kind);
		assert_string_equal(x->marker_arg, y->marker_arg);
		assert_int_equal(x->marker_line, y->marker_line);
		assert_int_equal(x->marker_col, y->marker_col);
		assert_int_equal(x->code_len, y->code_len);
		if (x->code_len)
			assert_memory_equal(x->code, y->code, x->code_len);
		assert_int_equal(x->code_first_line, y->code_first_line);
		if (x->kind == BK_TEXT)
			expect_same_segments(&a, &b, x->node, y->node);
		if (x->kind == BK_TABLE)
			expect_same_cell_segments(&a, &b, x->node, y->node);
	}
	if (a.doc || b.doc) {
		char *xa = tree_xml(&a), *xb = tree_xml(&b);
		if (strcmp(xa, xb) != 0)
			fail_msg("%s: the arena's tree differs from the default allocator's", name);
		free(xa);
		free(xb);
	}
	page_free(&a);
	page_free(&b);
	textfile_free(&tf);
}

/* Parses a page both ways (a file_tree_fn); other files are passed by. */
static size_t arena_file(const char *path, const struct stat *st)
{
	size_t n = strlen(path);
	bool page = strstr(path, "fuzz/corpus/page") || (n > 3 && strcmp(path + n - 3, ".md") == 0);
	if (!page || st->st_size > 8 * 1024 * 1024)
		return 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	char *text = malloc((size_t)st->st_size + 1);
	assert_non_null(text);
	size_t len = fread(text, 1, (size_t)st->st_size, f);
	fclose(f);
	/* a page that is not UTF-8, or holds a NUL, is refused when read: no
	 * parser sees it */
	if (utf8_first_invalid(text, len) < len || memchr(text, '\0', len)) {
		free(text);
		return 0;
	}
	expect_arena_agrees(text, len, path);
	free(text);
	return 1;
}

/* Run from the repository root, as make unit does: the fuzz corpus of
 * pages, the course's pages, every golden case's pages, and pages made to
 * grow cmark's buffers past a chunk (a long paragraph, a long code block,
 * a wide table, many small blocks) and past the arena's size limit. */
static void test_arena_agrees_with_default_allocator(void **state)
{
	(void)state;
	assert_true(file_tree_visit("verifier/tests/fuzz/corpus/page", arena_file) > 0);
	assert_true(file_tree_visit("pages", arena_file) > 0);
	assert_true(file_tree_visit("verifier/tests/cases", arena_file) > 0);
	static const char *const units[] = {
		"word *em* `code` [link](u) ", "```c\nint x = 1;\n```\n\n", "| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |\n\n",
		"- item 4.2 ms\n  - nested 17\n", "<!-- = 2 * 3 -->\n6 and 7\n\n", "> quote\n> more 1.5x\n\n",
	};
	for (size_t u = 0; u < sizeof units / sizeof *units; u++)
		for (size_t times = 1; times <= 40000; times *= 20) {
			char *text = repeat(units[u], times, "\nend\n");
			expect_arena_agrees(text, strlen(text), "pages/grown.md");
			free(text);
		}
	char *big = repeat("a paragraph line of prose with 12 numbers\n", 30000, ""); /* past 1 MiB */
	expect_arena_agrees(big, strlen(big), "pages/big.md");
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_blocks_lines_and_markers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paragraph_before_table_gets_its_own_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_every_block_range_is_ordered, setup, teardown),
		cmocka_unit_test_setup_teardown(test_deep_nesting_on_one_line_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_deep_quotes_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nesting_at_the_limit_is_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_deep_nesting_by_indentation_is_refused_by_the_walk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_thematic_break_is_not_nesting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wide_table_row_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_inline_markers_each_at_their_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_segments_at_raw_offsets, setup, teardown),
		cmocka_unit_test(test_line_bound_shortcut_agrees_with_measuring),
		cmocka_unit_test(test_arena_agrees_with_default_allocator),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
