/* review.c - the review command and its index; see review.h.  The page
 * itself is rendered by review_page.c. */
#include "review.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "cliopt.h"
#include "course.h"
#include "diag.h"
#include "filewrite.h"
#include "repo.h"
#include "review_approvals.h"
#include "review_html.h"
#include "strmap.h"
#include "util.h"

/* ---- the command ---------------------------------------------------------- */

struct index_row {
	char *page, *file, *title, *status;
	struct review_verdict v;
	size_t counts[LG_KIND_COUNT];
	bool readable;
};

/* pages/day31-scan-1.md -> day31-scan-1.html; other paths keep their
 * folders in the name: programs/L/README.md -> programs-L-README.html. */
static char *review_name(const char *rel)
{
	const char *s = strncmp(rel, "pages/", 6) == 0 ? rel + 6 : rel;
	size_t n = strlen(s);
	if (n > 3 && strcmp(s + n - 3, ".md") == 0)
		n -= 3;
	struct buf b = {0};
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		buf_putc(&b, c == '/' || c < 0x20 || c == '\\' || c == ':' ? '-' : (char)c);
	}
	buf_puts(&b, ".html");
	return buf_detach(&b);
}

/* Owned keys for the maps below (a strmap borrows its keys). */
struct names {
	struct strmap taken, natural;
	char **keys;
	size_t n, cap;
};

/* A file name as a case-blind file system compares it, kept in ns. */
static const char *name_key(struct names *ns, const char *name)
{
	char *k = xstrdup(name);
	for (char *c = k; *c; c++)
		*c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
	ns->keys = xgrow(ns->keys, &ns->cap, ns->n + 1, sizeof *ns->keys);
	return ns->keys[ns->n++] = k;
}

static bool name_in(const struct strmap *m, struct names *ns, const char *name)
{
	const char *k = name_key(ns, name);
	size_t v;
	return strmap_get(m, k, strlen(k), &v);
}

/* Each page's file name, no two the same: review_name's turns '/', ':'
 * and the like into '-', so pages/x-y.md and pages/x:y.md (or X.md and
 * x.md on a case-blind file system, or pages/index.md and the index)
 * would share one file and the second overwrite the first.  A page whose
 * name is taken gets the first of NAME-2.html, NAME-3.html, ... that no
 * page takes and no page has as its own name.  files[i] is malloc'd. */
static void file_names(char *const *pages, size_t n, char **files)
{
	struct names ns = {0};
	const char *k = name_key(&ns, "index.html");
	strmap_add(&ns.taken, k, strlen(k), 0, NULL);
	for (size_t i = 0; i < n; i++) {
		files[i] = review_name(pages[i]);
		k = name_key(&ns, files[i]);
		strmap_add(&ns.natural, k, strlen(k), i, NULL);
	}
	for (size_t i = 0; i < n; i++) {
		if (name_in(&ns.taken, &ns, files[i])) { /* ends: the maps hold 2n + 1 names at most */
			int stem = (int)(strlen(files[i]) - strlen(".html"));
			char *next = NULL;
			for (unsigned long seq = 2;; seq++) {
				next = xasprintf("%.*s-%lu.html", stem, files[i], seq);
				if (!name_in(&ns.taken, &ns, next) && !name_in(&ns.natural, &ns, next))
					break;
				free(next);
			}
			free(files[i]);
			files[i] = next;
		}
		k = name_key(&ns, files[i]);
		strmap_add(&ns.taken, k, strlen(k), i, NULL);
	}
	strmap_free(&ns.taken);
	strmap_free(&ns.natural);
	for (size_t i = 0; i < ns.n; i++)
		free(ns.keys[i]);
	free(ns.keys);
}

static void put_index(struct buf *b, const struct index_row *rows, size_t n)
{
	review_put_head(b, "Review: every page");
	buf_puts(b, "<body>\n<div class=\"top\" role=\"banner\"><h1>Technical review: every page</h1>"
		    "<p>Each page checked by the gate, <code>coursecheck verify --as published</code>, with what it "
		    "claims.  Open a page to see every claim beside its evidence.</p></div>\n<div class=\"index\" role=\"main\">"
		    "<table class=\"pairs\"><caption>Pages</caption><thead><tr><th scope=\"col\">page</th>"
		    "<th scope=\"col\">status</th><th scope=\"col\">gate</th>");
	for (int k = 0; k < LG_KIND_COUNT; k++)
		buf_printf(b, "<th scope=\"col\"><span class=\"sw k-%s\"></span>%s</th>", review_style_of((enum ledger_kind)k)->cls, review_style_of((enum ledger_kind)k)->word);
	buf_puts(b, "</tr></thead><tbody>\n");
	for (size_t i = 0; i < n; i++) {
		const struct index_row *r = &rows[i];
		buf_puts(b, "<tr><td>");
		if (r->readable) {
			buf_puts(b, "<a href=\"");
			review_escs(b, r->file);
			buf_puts(b, "\">");
			review_escs(b, r->title ? r->title : r->page);
			buf_puts(b, "</a><br><code>");
			review_escs(b, r->page);
			buf_puts(b, "</code>");
		} else {
			review_escs(b, r->page);
			buf_puts(b, " (cannot be read)");
		}
		buf_puts(b, "</td><td>");
		review_escs(b, r->status ? r->status : "-");
		if (r->v.errors)
			buf_printf(b, "</td><td class=\"fail\">FAILS: %zu error%s", r->v.errors, r->v.errors == 1 ? "" : "s");
		else
			buf_puts(b, "</td><td class=\"pass\">passes");
		buf_puts(b, "</td>");
		for (int k = 0; k < LG_KIND_COUNT; k++)
			buf_printf(b, "<td>%zu</td>", r->counts[k]);
		buf_puts(b, "</tr>\n");
	}
	buf_puts(b, "</tbody></table></div>\n</body>\n</html>\n");
}

/* The one place review-write is raised: what could not be written and
 * why (why is malloc'd and freed here). */
static void write_failed(const char *path, const char *what, char *why)
{
	diag_report(D_REVIEW_WRITE, (struct diag_loc){.path = path}, "cannot %s: %s", what, why);
	free(why);
}

/* Through the one atomic writer (filewrite.h): a reader of the review
 * folder sees the old file or the new one, never half; a file keeps its
 * mode; a link in its place is replaced, not written through, and a link
 * on the way out of the repository refused; nothing is left behind on
 * failure. */
static int write_out(const char *dir, const char *name, const char *text, size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *why = NULL;
	int rc = filewrite_replace_named(path, path, text, len, &why);
	if (rc != 0)
		write_failed(path, "write the review", why);
	free(path);
	return rc;
}

/* The review folder, made where it is missing; never inside the course's
 * own folders (a review never writes over a page, a program or evidence). */
static int make_folder(const char *out)
{
	/* judged at the nearest folder that exists: one still to be made
	 * under pages/ is as refused as pages/ itself */
	char *dir = xstrdup(out);
	struct stat st;
	for (char *slash; stat(dir, &st) != 0 && (slash = strrchr(dir, '/'));)
		*slash = '\0';
	char *probe = xasprintf("%s/index.html", *dir && stat(dir, &st) == 0 ? dir : out[0] == '/' ? "" : ".");
	bool refused = cli_in_course_folders(probe);
	free(probe);
	free(dir);
	if (refused) {
		write_failed(out, "make the review folder",
			     xasprintf("refused: a review is not written into pages/, programs/ or evidence/"));
		return -1;
	}
	char *why = NULL;
	if (filewrite_mkdirs_named(out, &why) != 0) {
		write_failed(out, "make the review folder", why);
		return -1;
	}
	return 0;
}

/* The way from the review folder out to the course's root, as a
 * relative URL ("../../" for build/review), so that a review links to
 * the programs and runs it quotes; NULL when either cannot be resolved. */
static char *root_from(const char *out)
{
	char *o = realpath(out, NULL), *root = realpath(repo_root(), NULL);
	char *way = NULL;
	if (o && root) {
		size_t common = 0; /* the length of the folders both start with */
		for (size_t i = 0;; i++) {
			bool end_o = o[i] == '\0' || o[i] == '/', end_r = root[i] == '\0' || root[i] == '/';
			if (end_o && end_r)
				common = i;
			if (o[i] != root[i] || !o[i])
				break;
		}
		struct buf b = {0};
		for (const char *p = o + common; *p; p++)
			if (*p == '/')
				buf_puts(&b, "../");
		const char *rest = root + common;
		if (*rest == '/')
			rest++;
		if (*rest)
			buf_printf(&b, "%s/", rest);
		way = b.s ? buf_detach(&b) : xstrdup("");
	}
	free(o);
	free(root);
	return way;
}

/* Every page of the course, as verify checks them: pages, then the
 * program READMEs. */
static size_t course_review_pages(char ***out)
{
	char **names;
	size_t n = course_pages(&names);
	char **lessons;
	size_t nl = course_lessons(&lessons);
	names = xrealloc(names, (n + nl + 1) * sizeof *names);
	for (size_t i = 0; i < nl; i++) {
		char *readme;
		if (course_readme_listed(lessons[i], &readme))
			names[n++] = readme;
		else
			free(readme);
		free(lessons[i]);
	}
	free(lessons);
	*out = names;
	return n;
}

/* Checks and renders one page; returns whether its review was written. */
static bool review_one(const char *rel, const char *dir, const struct cliopt *o, struct index_row *row, int *status)
{
	char *text = NULL;
	size_t text_len = 0;
	FILE *mem = open_memstream(&text, &text_len);
	if (!mem) { /* only for lack of memory: fatal, as in util.c */
		fprintf(stderr, "coursecheck: out of memory (open_memstream: %s)\n", strerror(errno));
		abort();
	}
	size_t e0 = diag_count(DIAG_ERROR), w0 = diag_count(DIAG_WARNING);
	diag_init(mem, false);
	/* the gate; its sign-off items are the page's to show by state
	 * (approvals_states), not a diagnostic each */
	struct check_opts opts = {.strict = true, .approving = true};
	struct ledger lg = {0};
	int rc = check_page(rel, &opts, &lg);
	bool written = false;
	fclose(mem);
	cli_setup_diag(o, true);
	fputs(text ? text : "", stderr);
	row->page = xstrdup(rel);
	row->v = (struct review_verdict){diag_count(DIAG_ERROR) - e0, diag_count(DIAG_WARNING) - w0};
	row->readable = rc == 0;
	if (rc == 0) {
		row->title = lg.page.title ? xstrdup(lg.page.title) : NULL;
		row->status = lg.page.status ? xstrdup(lg.page.status) : NULL;
		for (int k = 0; k < LG_KIND_COUNT; k++)
			row->counts[k] = ledger_count(&lg, (enum ledger_kind)k);
		size_t len;
		/* each item's sign-off state, and the id approve takes */
		struct review_approvals *ra = review_approvals_load(rel, &lg);
		review_set_approvals(ra ? review_approvals_lookup : NULL, ra);
		char *html = review_render(rel, &lg, text ? text : "", &row->v, &len);
		review_set_approvals(NULL, NULL);
		review_approvals_free(ra);
		if (write_out(dir, row->file, html, len) != 0)
			*status = 2;
		else
			written = true;
		free(html);
	} else {
		*status = 2;
	}
	ledger_free(&lg);
	free(text);
	return written;
}

static const char review_usage[] =
	"usage: coursecheck review [OPTION...] [PAGE...]\n"
	"  Writes one self-contained HTML file per page, every claim marked in place\n"
	"  beside its evidence, and an index.html.  Pages are checked as by\n"
	"  'verify --as published' (the technical review gate); with no PAGE: every\n"
	"  page and program README of the course.\n"
	"  --output=DIR      the folder the files go to (default: build/review)\n"
	"  --root=DIR        the course (default: found from the current folder upward)\n"
	"  -q, --quiet       no summary line\n"
	"  --color=WHEN      auto (default), always or never\n"
	"  -h, --help        this text\n"
	"      --version     the version\n"
	"Exit status: 0 every page passes the gate, 1 an error was reported, 2 usage,\n"
	"a page that cannot be read or a file that cannot be written.\n";

enum { OPT_REVIEW_OUTPUT = 0x200 };
static const struct option review_longs[] = {
	{"output", required_argument, NULL, OPT_REVIEW_OUTPUT},
	{NULL, 0, NULL, 0},
};
static const struct cliopt_cmd review_cmd = {"coursecheck review", review_usage, "", review_longs, 0};

static int review_option(int ch, const char *arg, void *ctx)
{
	if (ch != OPT_REVIEW_OUTPUT)
		return -1;
	if (!*arg)
		return cliopt_usage_error(&review_cmd, "--output takes a folder, not ''");
	*(const char **)ctx = arg;
	return 0;
}

int cli_review(int argc, char **argv)
{
	const char *out = "build/review";
	struct cliopt o;
	int first = cliopt_parse(argc, argv, &review_cmd, &o, review_option, &out);
	if (first < 0)
		return first == CLIOPT_DONE ? 0 : 2;
	cli_setup(&o);
	diag_set_run_policy((struct diag_policy){.strict = true}); /* the gate, as each page's */
	if (cli_open_course(&review_cmd, o.root) != 0)
		return 2;
	if (make_folder(out) != 0) {
		cli_release();
		return 2;
	}
	char *way = root_from(out);
	review_set_files_prefix(way);
	free(way);
	char **pages;
	size_t n;
	if (first < argc) {
		n = (size_t)(argc - first);
		pages = xmalloc(n * sizeof *pages);
		for (size_t i = 0; i < n; i++)
			pages[i] = repo_operand(argv[first + (int)i]);
	} else {
		n = course_review_pages(&pages);
	}
	struct index_row *rows = xcalloc(n ? n : 1, sizeof *rows);
	char **files = xcalloc(n ? n : 1, sizeof *files);
	file_names(pages, n, files);
	int status = 0;
	size_t written = 0;
	for (size_t i = 0; i < n; i++) {
		rows[i].file = files[i]; /* the row's from here */
		written += review_one(pages[i], out, &o, &rows[i], &status);
	}
	free(files);
	struct buf index = {0};
	put_index(&index, rows, n);
	if (write_out(out, "index.html", index.s, index.len) != 0)
		status = 2;
	buf_free(&index);
	size_t failing = 0;
	for (size_t i = 0; i < n; i++) {
		failing += rows[i].v.errors > 0;
		free(rows[i].page);
		free(rows[i].file);
		free(rows[i].title);
		free(rows[i].status);
		free(pages[i]);
	}
	free(rows);
	free(pages);
	size_t errors = diag_count(DIAG_ERROR), warnings = diag_count(DIAG_WARNING);
	if (!o.quiet)
		fprintf(stderr, "coursecheck review: %zu of %zu page%s written to %s/, %zu failing the gate, %zu check%s: "
				"%zu error%s, %zu warning%s\n",
			written, n, n == 1 ? "" : "s", out, failing, diag_checks(), diag_checks() == 1 ? "" : "s", errors,
			errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
	review_set_files_prefix(NULL);
	cli_release();
	return cliopt_status(status);
}
