/* course.c - see course.h. */
#include "course.h"

#include "capture_repeats.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontmatter.h"
#include "lessonfiles.h"
#include "pathkind.h"
#include "re.h"
#include "repo.h"
#include "shared_slots.h"
#include "strmap.h"
#include "util.h"

/* What stays of a program between pages: its path, and the verdict and
 * source-sha256 of its first read.  Its struct program exists only while
 * handed out (course_page_done frees it, but for the last few used):
 * 10,000 lessons keep 10,000 slots of about 100 bytes, not their parsed
 * texts and headers. */
struct program_slot {
	char *path;
	const char *why;
	struct program *live;
	enum load_state state;
	bool has_sha;          /* sha holds the source-sha256 (else it was empty) */
	bool borrowed;         /* path is its lesson's program path (lesson_files_entry), not a copy */
	unsigned char sha[SHA256_HEX_LEN / 2]; /* its 64 hex digits as 32 bytes: 10,000 slots */
};

/* A program's source-sha256 into a slot and back: the hex digits
 * proghdr_source_sha256 writes (lowercase), or an empty string. */
/* The value of a lowercase hex digit (one that sha_pack's strspn let
 * through): a subtraction, not a strchr a digit (64 a program). */
static unsigned hex_digit(char c)
{
	return c <= '9' ? (unsigned)(c - '0') : (unsigned)(c - 'a' + 10);
}

static void sha_pack(struct program_slot *sl, const char *hex)
{
	static const char digits[] = "0123456789abcdef";
	sl->has_sha = strlen(hex) == SHA256_HEX_LEN && strspn(hex, digits) == SHA256_HEX_LEN;
	for (size_t i = 0; sl->has_sha && i < sizeof sl->sha; i++)
		sl->sha[i] = (unsigned char)(hex_digit(hex[2 * i]) << 4 | hex_digit(hex[2 * i + 1]));
}

static void sha_unpack(const struct program_slot *sl, char hex[SHA256_HEX_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	memset(hex, 0, SHA256_HEX_LEN + 1);
	for (size_t i = 0; sl->has_sha && i < sizeof sl->sha; i++) {
		hex[2 * i] = digits[sl->sha[i] >> 4];
		hex[2 * i + 1] = digits[sl->sha[i] & 15];
	}
}

/* course_lesson_files()'s entry for a lesson: its files' paths and
 * hashes (f), and the text of its program until course_program() takes
 * them (or course_page_done() gives them back): the one read of the
 * lesson's files serves staleness, the program's parse and its hash.
 * f is kept for the lessons used last (LF_KEPT, as evidence and programs
 * are: a lesson's page, README and program are checked one after the
 * other); a lesson pushed out keeps only what its listing answers (its
 * program and how many .cu files it has), and is read again if a later
 * page asks for its files (a page that names a lesson checked far from
 * it): 10,000 lessons keep 10,000 small entries, not every file's path
 * and hash. */
struct lesson_files_entry {
	char *lesson;
	struct lesson_files *f; /* NULL when rc != 0 or pushed out */
	char *why;
	char *program;    /* the program's path (rc 0), NULL when none */
	size_t n_cu;      /* top-level .cu files of programs/LESSON/ (rc 0) */
	int rc;
	bool used;        /* asked for since the last course_page_done */
	bool lesson_borrowed; /* lesson is the programs/ entry's name (lesson_name) */
};

/* A folder of the course as course_load() found it: listed, absent, or
 * unusable (reported at the first place that needs it, as before a read
 * phase, once a run). */
enum folder_state { FOLDER_OK, FOLDER_ABSENT, FOLDER_BAD, FOLDER_REFUSED };
struct folder {
	enum folder_state state;
	char *why;
};

/* An entry of programs/ (course_load) and what the listing made of it
 * (at the first course_lessons()). */
enum lesson_verdict { LV_UNJUDGED, LV_LESSON, LV_SKIP, LV_NAME, LV_PROBLEM };
struct lesson_entry {
	char *name;
	unsigned char type;       /* d_type */
	enum lesson_verdict verdict;
	bool refused;             /* LV_PROBLEM: refused rather than unreadable */
	char *why;                /* LV_PROBLEM */
};

/* A lesson's runs: evidence/LESSON/ listed once, oldest first. */
struct lesson_runs {
	char *lesson;
	struct folder folder;     /* evidence/LESSON/ */
	char **paths;
	bool *regular;            /* each run a regular file, not a link (d_type) */
	size_t n;
	bool asked, usable;       /* course_evidence_folder_usable's answer, reported at the first ask */
	bool lesson_borrowed;     /* lesson is the programs/ entry's name (lesson_name) */
};

/* What the course model keeps of a page: the facts a cite or a README's
 * status asks of it (its front matter's lesson, status and evidence),
 * recorded when the page is checked, or read (muted) when asked for
 * before that. */
struct page_facts {
	bool known;
	bool text_ok;             /* text a check would read (UTF-8, no NUL) */
	bool present;             /* front matter */
	enum page_status status;
	char *lesson;             /* one block: the lesson, then each evidence path, NUL after each */
	size_t n_evidence;
};

/* A lesson program's text and header as its files' read made them
 * (lessonfiles_take_program), until its first read takes them (tf.data
 * NULL then). */
struct held {
	struct lesson_files_entry *e;
	struct textfile tf;
	struct proghdr hdr;
};

static void held_free(struct held *h)
{
	textfile_free(&h->tf);
	proghdr_free(&h->hdr);
}

#define EV_KEPT 4
#define PROG_KEPT 4
#define LF_KEPT 4
#define RECENT_MAX 4 /* the largest of the three */
_Static_assert(EV_KEPT <= RECENT_MAX && PROG_KEPT <= RECENT_MAX && LF_KEPT <= RECENT_MAX, "RECENT_MAX too small");

/* The few used last, newest first, as keys (an evfile or lesson-files
 * entry's address, or a program slot + 1, since slots move when the
 * slot array grows); 0 is no entry.  n of them are used. */
struct recent {
	uintptr_t key[RECENT_MAX];
	size_t n;
};

/* The course model: one a run (course_load), freed by course_release().
 * Listings: made at the load and never again; files: loaded on first
 * use, each read once where memory allows (see course.h). */
struct course {
	/* the listings */
	struct folder pages_dir, programs_dir, evidence_dir;
	char *programs_fs;        /* programs/'s file-system path */
	bool evidence_asked, evidence_usable;
	char **pages;             /* pages/NAME.md, sorted (found by bsearch) */
	bool *page_regular;       /* each a regular file, not a link (d_type) */
	size_t n_pages;
	struct lesson_entry *entries; /* programs/, in listing order */
	size_t n_entries;
	size_t *entry_sorted;     /* indices into entries, by name (found by bsearch) */
	bool lessons_judged;
	struct lesson_runs **runs; /* each its own allocation */
	size_t n_runs, cap_runs;
	struct strmap runs_index; /* lesson -> index in runs */
	struct strmap evidence_entry; /* names of evidence/'s entries that are not plain folders (few) */
	char **evidence_other;
	size_t n_evidence_other, cap_evidence_other;
	bool common_read;         /* programs/common/ read (need_common) */
	struct lessonfiles_common common;
	/* which listings were made: all three at course_load(), each on its
	 * first need after course_open() (need_pages, need_programs; the
	 * runs of one lesson at a time, evidence/ itself only probed) */
	bool pages_listed, programs_listed, evidence_listed, evidence_probed;

	/* programs, evidence and lesson files: each found by its path through
	 * a hash index (a linear scan made 10,000 lessons quadratic); the keys
	 * are the objects' own path strings, which live until release */
	struct program_slot *programs;
	size_t n_programs, cap_programs;
	struct strmap program_index;
	struct evfile **evfiles;
	size_t n_evfiles, cap_evfiles;
	struct strmap evfile_index;
	struct lesson_files_entry **lesson_files; /* each its own allocation: what callers hold never moves */
	size_t n_lesson_files, cap_lesson_files;
	struct strmap lesson_files_index;
	/* evidence files whose numbers are tokenised now (course_page_done frees them) */
	struct evfile **tokenised;
	size_t n_tokenised, cap_tokenised;
	/* programs and evidence handed out since the last course_page_done */
	struct program **in_use;
	size_t n_in_use, cap_in_use;
	struct evfile **ev_in_use;
	size_t n_ev_in_use, cap_ev_in_use;
	/* held lesson bytes (a program's, until its first read takes them),
	 * given back at course_page_done: here, not in each lesson's entry */
	struct held *holding;
	size_t n_holding, cap_holding;
	/* lessons whose files were asked for since the last course_page_done,
	 * and those of the last few kept whole (keep_recent_files) */
	struct lesson_files_entry **lf_used;
	size_t n_lf_used, cap_lf_used;
	struct recent lf_kept;
	unsigned long generation;
	/* the evidence files and programs used last, kept resident past
	 * course_page_done (keep_recent, keep_recent_program) */
	struct recent ev_kept;
	struct recent prog_kept;
	/* folders already reported: a refused folder is named once, not once
	 * for every page that would have listed it */
	char **reported;
	size_t n_reported, cap_reported;
	struct strmap reported_index;

	/* the page facts, by index in pages; a lesson's first page (in
	 * pages order) among pages 0 .. facts_prefix - 1 */
	struct page_facts *facts;
	size_t facts_prefix;
	struct strmap cite_page_of;   /* lesson -> first text_ok page naming it */
	struct strmap status_page_of; /* lesson -> first page with front matter naming it */
	const char **cite_evidence;   /* course_cite_page()'s answer, valid until the next call */
	size_t cap_cite_evidence;
	struct shared_slots *shared_facts; /* course_share_facts(): what other workers learnt, by page */
	/* pages/LESSON.md read directly while pages/ is not listed (own_page) */
	struct page_facts *own_facts;
	char **own_keys;
	size_t n_own, cap_own, cap_own_keys;
	struct strmap own_index;
};

/* The model of this run (course_load); NULL before. */
static struct course *cur;

static struct course *model(void);
static void need_evidence_probe(struct course *c);
static void need_pages(struct course *c);
static void need_programs(struct course *c);
static void need_common(struct course *c);

/* ---- resolving: the listings answer for the files they found ---- */

static int by_name(const void *a, const void *b);

/* Whether relpath is a regular file (not a link) that a listing of the
 * model found in a folder that resolved inside the repository: a page,
 * a run, or a file of a lesson whose files were read.  Each is found
 * through the structure that lists it (no index of its own: 10,000
 * lessons would pay for one). */
static bool known_file(struct course *c, const char *relpath)
{
	size_t at;
	if (strncmp(relpath, "pages/", 6) == 0) {
		if (!c->pages_listed)
			return false; /* one page, not the listing: repo_resolve answers */
		char **hit = c->n_pages ? bsearch(&relpath, c->pages, c->n_pages, sizeof *c->pages, by_name) : NULL;
		return hit && c->page_regular[hit - c->pages];
	}
	const char *top = strncmp(relpath, "evidence/", 9) == 0 ? relpath + 9
			  : strncmp(relpath, "programs/", 9) == 0 ? relpath + 9 : NULL;
	const char *slash = top ? strchr(top, '/') : NULL;
	if (!slash || slash == top)
		return false;
	size_t len = (size_t)(slash - top);
	if (relpath[0] == 'e') {
		if (!strmap_get(&c->runs_index, top, len, &at))
			return false;
		const struct lesson_runs *r = c->runs[at];
		for (size_t i = 0; i < r->n; i++)
			if (strcmp(r->paths[i], relpath) == 0)
				return r->regular[i];
		return false;
	}
	const struct lesson_files *f = NULL;
	if (len == strlen(LESSONFILES_COMMON) && memcmp(top, LESSONFILES_COMMON, len) == 0) {
		f = c->common_read && c->common.rc == 0 ? &c->common.f : NULL;
	} else if (strmap_get(&c->lesson_files_index, top, len, &at) && c->lesson_files[at]->rc == 0) {
		const struct lesson_files_entry *e = c->lesson_files[at];
		if (!e->f) /* pushed out: its program is what stays known */
			return e->program && strcmp(e->program, relpath) == 0;
		f = e->f;
	}
	for (size_t i = 0; f && i < f->n; i++) /* every file a lesson's walk took is a plain file */
		if (strcmp(f->v[i].path, relpath) == 0)
			return true;
	return false;
}

static bool entry_find(struct course *c, const char *name, size_t *at);

/* programs/LESSON/NAME (a README a lesson's walk leaves out) where the
 * listing of programs/ found LESSON a real folder (d_type): only NAME is
 * looked at, one lstat, as repo_resolve would after finding the folders
 * real; a link or any other error is left to repo_resolve, which judges
 * it (and says why) as before.  Returns true with the answer in *rs. */
static bool resolve_in_lesson(struct course *c, const char *relpath, char **fs, const char **why,
			      enum repo_status *rs)
{
	if (c->programs_dir.state != FOLDER_OK || !c->entry_sorted || strncmp(relpath, "programs/", 9) != 0)
		return false;
	const char *lesson = relpath + 9, *slash = strchr(lesson, '/');
	if (!slash || slash == lesson || lesson[0] == '.' || !slash[1] || slash[1] == '.' || strchr(slash + 1, '/'))
		return false; /* "." and ".." (and hidden names) the long way */
	char *name = xstrndup(lesson, (size_t)(slash - lesson));
	size_t at;
	bool real = entry_find(c, name, &at) && c->entries[at].type == DT_DIR;
	free(name);
	if (!real)
		return false;
	char *path = xasprintf("%s/%s", repo_root(), relpath);
	struct stat st;
	int rc = lstat(path, &st), err = errno;
	if (rc == 0 && !S_ISLNK(st.st_mode)) {
		*fs = path;
		*rs = REPO_OK;
		return true;
	}
	free(path);
	if (rc == 0 || err != ENOENT) /* a link, or a reason repo_resolve gives */
		return false;
	*fs = NULL;
	*why = strerror(ENOENT);
	errno = ENOENT;
	*rs = REPO_MISSING;
	return true;
}

enum repo_status course_resolve(const char *relpath, char **fs, const char **why)
{
	struct course *c = model();
	/* root/relpath is then its path, inside the repository */
	if (known_file(c, relpath)) {
		*fs = xasprintf("%s/%s", repo_root(), relpath);
		return REPO_OK;
	}
	enum repo_status rs;
	if (resolve_in_lesson(c, relpath, fs, why, &rs))
		return rs;
	return repo_resolve(relpath, fs, why);
}

bool course_readme_listed(const char *lesson, char **rel)
{
	*rel = xasprintf("programs/%s/README.md", lesson);
	char *fs = NULL;
	const char *why;
	enum repo_status rs = course_resolve(*rel, &fs, &why);
	bool listed = rs == REPO_OK && access(fs, F_OK) == 0;
	free(fs);
	if (rs == REPO_REFUSED) {
		/* refused: the README itself leads out, unless its folder does */
		char *dir = xasprintf("programs/%s", lesson);
		fs = NULL;
		listed = course_resolve(dir, &fs, &why) == REPO_OK;
		free(fs);
		free(dir);
	}
	return listed;
}

static enum load_state resolve(const char *relpath, char **fs, const char **why)
{
	switch (course_resolve(relpath, fs, why)) {
	case REPO_OK:
		return LOAD_OK;
	case REPO_REFUSED:
		return LOAD_REFUSED;
	default:
		return LOAD_MISSING;
	}
}

/* ---- programs ---- */

static struct program *use(struct program *p)
{
	struct course *c = cur;
	if (!p->in_use) {
		p->in_use = true;
		c->in_use = xgrow(c->in_use, &c->cap_in_use, c->n_in_use + 1, sizeof *c->in_use);
		c->in_use[c->n_in_use++] = p;
	}
	return p;
}

static struct lesson_files_entry *lesson_files_get(const char *lesson);

/* The lesson a repository path lies in (programs/LESSON/...), or NULL. */
static char *program_lesson(const char *relpath)
{
	if (strncmp(relpath, "programs/", 9) != 0)
		return NULL;
	const char *a = relpath + 9, *slash = strchr(a, '/');
	if (!slash || slash == a)
		return NULL;
	char *lesson = xstrndup(a, (size_t)(slash - a));
	if (!lessonfiles_is_lesson(lesson)) {
		free(lesson);
		return NULL;
	}
	return lesson;
}

/* The first read of a lesson's program takes the bytes the lesson's files
 * were read with (course_lesson_files: one read of each file a run serves
 * the parse, the hash and staleness), with the source-sha256 computed
 * there.  false when they are not held (another file, a lesson that
 * could not be collected): the program is read from disk. */
static struct held *held_of(const struct lesson_files_entry *e)
{
	for (size_t i = 0; i < cur->n_holding; i++)
		if (cur->holding[i].e == e && cur->holding[i].tf.data)
			return &cur->holding[i];
	return NULL;
}

static bool take_held(struct program *p)
{
	char *lesson = program_lesson(p->path);
	if (!lesson)
		return false;
	struct lesson_files_entry *e = lesson_files_get(lesson);
	free(lesson);
	struct held *h = held_of(e);
	if (!h || !e->f || strcmp(e->program, p->path) != 0) /* held: f is whole until course_page_done */
		return false;
	p->tf = h->tf; /* moved: normalised and parsed once, when hashed */
	p->hdr = h->hdr;
	memset(&h->tf, 0, sizeof h->tf);
	memset(&h->hdr, 0, sizeof h->hdr);
	memcpy(p->sha256, e->f->v[e->f->program].sha, sizeof p->sha256);
	return true;
}

/* Reads p's text and parses it; report: first read (its problems are
 * reported and its source-sha256 taken) or a read again after
 * course_page_done (silent). */
static void load_program(struct program *p, bool report)
{
	bool held = report && take_held(p);
	if (!held) {
		char *fs;
		p->state = resolve(p->path, &fs, &p->why);
		if (p->state != LOAD_OK)
			return;
		if (textfile_read(fs, p->path, &p->tf, &p->why) != 0) {
			p->state = LOAD_MISSING;
			free(fs);
			return;
		}
		free(fs);
	}
	p->state = LOAD_OK;
	if (report ? textfile_report_encoding(&p->tf, "program") : p->tf.not_utf8) { /* no parser sees it */
		p->state = LOAD_MALFORMED;
		proghdr_free(&p->hdr); /* the held one: a malformed program has no header */
		return;
	}
	p->resident = true;
	if (report) { /* again after a reload only when asked: course_program_snippets */
		snippet_scan(&p->tf, true, &p->snippets);
		p->snippets_read = true;
	}
	if (!held) /* a held text came with its header */
		proghdr_parse(&p->tf, &p->hdr);
	if (report) {
		if (!held)
			proghdr_source_sha256_parsed(&p->tf, &p->hdr, p->sha256);
		p->sha_of_text = true;
	}
}

/* A struct program for slot at, handed out until course_page_done. */
static struct program *live_program(size_t at, bool first)
{
	struct program_slot *sl = &cur->programs[at];
	struct program *p = sl->live = xcalloc(1, sizeof *p);
	p->path = sl->path; /* the slot's: it outlives p */
	p->slot = at;
	if (first) {
		load_program(p, true);
		sha_pack(sl, p->sha256);
	} else {
		p->state = sl->state;
		p->why = sl->why;
		sha_unpack(sl, p->sha256);
		if (p->state == LOAD_OK)
			load_program(p, false);
	}
	sl->state = p->state;
	sl->why = p->why;
	return use(p);
}

/* The lesson's own copy of relpath when relpath is the program its
 * files named (it lives until course_release), or NULL: one string, not
 * one a structure, for each lesson's program.  The lesson's files are
 * read here, where the program's first read (take_held) would read
 * them. */
static char *borrowed_program_path(const char *relpath)
{
	char *lesson = program_lesson(relpath);
	char *path = NULL;
	if (lesson) {
		struct lesson_files_entry *e = lesson_files_get(lesson);
		if (e->program && strcmp(e->program, relpath) == 0)
			path = e->program;
	}
	free(lesson);
	return path;
}

struct program *course_program(const char *relpath)
{
	struct course *c = model();
	size_t at;
	if (strmap_get(&c->program_index, relpath, strlen(relpath), &at)) {
		diag_once_touch("program", c->programs[at].path);
		return c->programs[at].live ? use(c->programs[at].live) : live_program(at, false);
	}
	char *borrowed = borrowed_program_path(relpath); /* before the slot: it reads the lesson */
	c->programs = xgrow(c->programs, &c->cap_programs, c->n_programs + 1, sizeof *c->programs);
	struct program_slot *sl = &c->programs[c->n_programs];
	memset(sl, 0, sizeof *sl);
	sl->path = borrowed;
	sl->borrowed = borrowed != NULL;
	if (!sl->borrowed)
		sl->path = xstrdup(relpath);
	strmap_add(&c->program_index, sl->path, strlen(sl->path), c->n_programs, NULL);
	diag_once_begin("program", sl->path); /* its problems are reported once a run */
	struct program *p = live_program(c->n_programs++, true);
	diag_once_end();
	return p;
}

const struct snippet_set *course_program_snippets(struct program *p)
{
	if (!p->snippets_read && p->resident) {
		snippet_scan(&p->tf, false, &p->snippets);
		p->snippets_read = true;
	}
	return &p->snippets;
}

/* Gives back a program handed out: its text, parse and struct. */
static void drop_program(struct program *p)
{
	textfile_free(&p->tf);
	snippet_set_free(&p->snippets);
	proghdr_free(&p->hdr);
	cur->programs[p->slot].live = NULL;
	free(p);
}

/* ---- evidence ---- */

static char *lesson_of_path(const char *relpath)
{
	/* evidence/LESSON/run-....txt */
	if (strncmp(relpath, "evidence/", 9) != 0)
		return xstrdup("");
	const char *a = relpath + 9, *slash = strchr(a, '/');
	return slash ? xstrndup(a, (size_t)(slash - a)) : xstrdup("");
}
/* The repeat-values header lies outside body-sha256 and carries its own
 * seal (capture_repeats.h): a hand-edited value is evidence-edited too. */
static void check_repeat_values(struct evfile *e, const char *relpath)
{
	size_t line;
	const char *values = evidence_get(e->ev, "repeat-values", &line);
	if (!values)
		return;
	const char *seal = evidence_get(e->ev, "repeat-values-sha256", NULL);
	const struct textfile *tf = &e->ev->tf;
	size_t from = tf->line_start[e->ev->stdout_first - 1], to = tf->line_start[e->ev->stderr_line - 1];
	char actual[SHA256_HEX_LEN + 1];
	repeats_seal(values, tf->data + from, to - from, actual);
	size_t at;
	bool formed = repeats_well_formed(values, &at);
	if (formed && seal && strcmp(seal, actual) == 0)
		return;
	e->intact = false;
	struct diag *d = diag_begin(D_EVIDENCE_EDITED, textfile_loc_line(tf, line, formed ? 0 : 16 + at, 0),
				    !formed ? "repeat-values is not 'LINE:COL=V,V,...' entries with one value per repeat"
				    : seal ? "repeat-values does not match its repeat-values-sha256: it was edited after capture"
					   : "repeat-values has no repeat-values-sha256 seal");
	diag_hint(d, "restore it with 'git checkout -- %s', or capture the lesson again", relpath);
	diag_end(d);
}

/* What a non-resident evfile's ev points at: read-only in effect (an
 * evidence_free of it writes the zeros it holds). */
static struct evidence no_evidence;

/* Gives back e's evidence struct, leaving the shared empty one. */
static void free_evidence(struct evfile *e)
{
	if (e->ev != &no_evidence) {
		evidence_free(e->ev);
		free(e->ev);
	}
	e->ev = &no_evidence;
}

static struct evfile *use_evidence(struct evfile *e)
{
	struct course *c = cur;
	if (e->state == LOAD_OK && !e->in_use) {
		e->in_use = true;
		c->ev_in_use = xgrow(c->ev_in_use, &c->cap_ev_in_use, c->n_ev_in_use + 1, sizeof *c->ev_in_use);
		c->ev_in_use[c->n_ev_in_use++] = e;
	}
	return e;
}

/* Reads an evidence file again after course_page_done gave its text back:
 * silently (its problems were reported at the first read, its seals
 * judged there).  A file that cannot be read or parsed any more changed
 * while the run went on: it is unusable from here, and the caller reports
 * that at the naming place. */
static void reload_evidence(struct evfile *e)
{
	char *fs;
	e->state = resolve(e->path, &fs, &e->why);
	if (e->state != LOAD_OK)
		return;
	struct evidence_problem prob;
	e->ev = xcalloc(1, sizeof *e->ev);
	int rc = evidence_load(fs, e->path, e->ev, &prob, &e->why);
	free(fs);
	if (rc != 0) {
		free_evidence(e);
		e->state = LOAD_MISSING;
		if (rc == -2)
			e->why = "it changed while coursecheck ran";
		return;
	}
	e->resident = true;
}

static struct evfile *load_evidence(const char *relpath);

struct evfile *course_evidence(const char *relpath)
{
	struct course *c = model();
	size_t at;
	if (strmap_get(&c->evfile_index, relpath, strlen(relpath), &at)) {
		diag_once_touch("evidence", relpath);
		struct evfile *e = c->evfiles[at];
		if (e->state == LOAD_OK && !e->resident)
			reload_evidence(e);
		return use_evidence(e);
	}
	diag_once_begin("evidence", relpath); /* its problems are reported once a run */
	struct evfile *e = load_evidence(relpath);
	diag_once_end();
	return e;
}

/* A run the listing found (evidence/LESSON/NAME): e's path and lesson
 * are the listing's strings, which live until course_release (two
 * strings fewer a lesson). */
static void borrow_run_path(struct course *c, struct evfile *e, const char *relpath)
{
	if (strncmp(relpath, "evidence/", 9) != 0)
		return;
	const char *a = relpath + 9, *slash = strchr(a, '/');
	size_t at;
	if (!slash || !strmap_get(&c->runs_index, a, (size_t)(slash - a), &at))
		return;
	const struct lesson_runs *r = c->runs[at];
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->paths[i], relpath) == 0) {
			e->path = r->paths[i];
			e->lesson = r->lesson;
			e->borrowed = true;
			return;
		}
}

/* The first course_evidence() of relpath: loads it and reports its problems. */
static struct evfile *load_evidence(const char *relpath)
{
	struct course *c = cur;
	struct evfile *e = xcalloc(1, sizeof *e);
	borrow_run_path(c, e, relpath);
	if (!e->borrowed) {
		e->path = xstrdup(relpath);
		e->lesson = lesson_of_path(relpath);
	}
	e->ev = &no_evidence;
	c->evfiles = xgrow(c->evfiles, &c->cap_evfiles, c->n_evfiles + 1, sizeof *c->evfiles);
	strmap_add(&c->evfile_index, e->path, strlen(e->path), c->n_evfiles, NULL);
	e->slot = c->n_evfiles;
	c->evfiles[c->n_evfiles++] = e;

	char *fs;
	e->state = resolve(relpath, &fs, &e->why);
	if (e->state != LOAD_OK)
		return e;
	struct evidence_problem prob;
	e->ev = xcalloc(1, sizeof *e->ev);
	int rc = evidence_load(fs, relpath, e->ev, &prob, &e->why);
	free(fs);
	if (rc == -1) {
		free_evidence(e);
		e->state = LOAD_MISSING;
		return e;
	}
	if (rc == -2) {
		e->state = LOAD_MALFORMED;
		struct diag *d = diag_begin(prob.kind, textfile_loc_line(&e->ev->tf, prob.line, prob.col, 0), "%s",
					    prob.message);
		diag_hint(d, "evidence files are written by 'coursecheck capture'; capture the lesson again "
			     "rather than repairing one by hand");
		diag_end(d);
		return e;
	}
	e->resident = true;
	char actual[SHA256_HEX_LEN + 1];
	e->intact = evidence_body_intact(e->ev, actual);
	if (!e->intact) {
		size_t line;
		evidence_get(e->ev, "body-sha256", &line);
		struct diag *d = diag_begin(D_EVIDENCE_EDITED, textfile_loc_line(&e->ev->tf, line, 14, 64),
					    "evidence body does not match its body-sha256: it was edited after capture");
		diag_note(d, textfile_loc_line(&e->ev->tf, e->ev->stdout_line, 1, 0), "the body starts here; it hashes to %s",
			  actual);
		diag_hint(d, "restore it with 'git checkout -- %s', or capture the lesson again", relpath);
		diag_end(d);
	}
	check_repeat_values(e, relpath);
	return use_evidence(e);
}

/* The token counts after e's line_tok pointers (course.h). */
static size_t *line_ntok(const struct evfile *e)
{
	return (size_t *)(e->line_tok + e->ev->tf.n_lines + 1);
}

bool course_evidence_tokens(const struct evfile *cev, size_t line, const struct num_token **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!course_evidence_cached(cev) || line == 0 || line > cev->ev->tf.n_lines)
		return false;
	struct course *c = cur;
	struct evfile *e = c->evfiles[cev->slot]; /* the cache's own, writable copy */
	if (!e->line_tok) {
		size_t lines = e->ev->tf.n_lines + 1;
		/* not zeroed: a line's pointer is read only once its count is
		 * set, and every count starts as SIZE_MAX (all bits one) in one
		 * memset (lines is below TEXTFILE_MAX_BYTES: no overflow) */
		e->line_tok = xmalloc(lines * (sizeof *e->line_tok + sizeof(size_t)));
		memset(line_ntok(e), 0xFF, lines * sizeof(size_t));
		c->tokenised = xgrow(c->tokenised, &c->cap_tokenised, c->n_tokenised + 1, sizeof *c->tokenised);
		c->tokenised[c->n_tokenised++] = e;
	}
	size_t *count = line_ntok(e);
	if (count[line] == SIZE_MAX) {
		size_t len;
		const char *s = textfile_line(&e->ev->tf, line, &len);
		count[line] = numtok_scan(s, len, &e->line_tok[line]);
	}
	*out = e->line_tok[line];
	*n = count[line];
	return true;
}

static void drop_tokens(struct evfile *e)
{
	if (e->line_tok) {
		/* only the lines tokenised hold tokens (a page asks for its
		 * stdout lines, a few of the file's): no free(NULL) a line */
		const size_t *count = line_ntok(e);
		for (size_t l = 0; l <= e->ev->tf.n_lines; l++)
			if (count[l] != SIZE_MAX)
				free(e->line_tok[l]);
	}
	free(e->line_tok); /* the counts with it */
	e->line_tok = NULL;
}

static void unload_evidence(struct evfile *e)
{
	drop_tokens(e);
	if (e->resident) {
		free_evidence(e);
		e->resident = false;
	}
}

/* The evidence files and programs used last, newest first, kept resident
 * past course_page_done: a page citing the lesson checked just before it,
 * its own lesson's run again, or a README and its program checked one
 * after the other find them read.  A fixed few, so memory stays flat. */

static bool recent_has(const struct recent *r, uintptr_t key)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->key[i] == key)
			return true;
	return false;
}

/* key becomes the newest; the oldest, pushed out, is returned (0: none). */
static uintptr_t recent_push(struct recent *r, uintptr_t key)
{
	size_t at = r->n - 1;
	for (size_t i = 0; i < r->n; i++)
		if (r->key[i] == key) {
			at = i;
			break;
		}
	uintptr_t out = r->key[at] == key ? 0 : r->key[at];
	memmove(r->key + 1, r->key, at * sizeof *r->key);
	r->key[0] = key;
	return out;
}

static bool kept(const struct evfile *e)
{
	return recent_has(&cur->ev_kept, (uintptr_t)e);
}

/* e becomes the newest kept; the oldest, pushed out, is unloaded. */
static void keep_recent(struct evfile *e)
{
	uintptr_t out = recent_push(&cur->ev_kept, (uintptr_t)e);
	if (out)
		unload_evidence((struct evfile *)out);
}

static bool prog_is_kept(size_t slot)
{
	return recent_has(&cur->prog_kept, slot + 1);
}

/* Slot becomes the newest kept program; the slot pushed out (+ 1, 0 for
 * none) is returned for the caller to drop once nothing it is walking
 * points into it. */
static size_t keep_recent_program(size_t slot)
{
	return recent_push(&cur->prog_kept, slot + 1);
}

unsigned long course_generation(void)
{
	return cur ? cur->generation : 0;
}

bool course_evidence_cached(const struct evfile *cev)
{
	/* by its slot, not its path: a copy of a cache entry (update holds
	 * its own) is not the cache's */
	struct course *c = cur;
	return c && cev->state == LOAD_OK && cev->resident && cev->slot < c->n_evfiles && c->evfiles[cev->slot] == cev;
}

static void drop_slot(size_t slot)
{
	if (cur->programs[slot].live && !prog_is_kept(slot))
		drop_program(cur->programs[slot].live);
}

static bool files_kept(const struct lesson_files_entry *e)
{
	return recent_has(&cur->lf_kept, (uintptr_t)e);
}

/* e becomes the newest lesson kept whole; the oldest, pushed out, is
 * returned (NULL when none) for the caller to slim once the round ends. */
static struct lesson_files_entry *keep_recent_files(struct lesson_files_entry *e)
{
	return (struct lesson_files_entry *)recent_push(&cur->lf_kept, (uintptr_t)e);
}

/* A lesson pushed out keeps its listing's answers (program, .cu count),
 * not its files' paths and hashes. */
static void slim_files(struct lesson_files_entry *e)
{
	if (e->f) {
		lessonfiles_free(e->f);
		free(e->f);
		e->f = NULL;
	}
}

void course_page_done(void)
{
	struct course *c = model();
	c->generation++;
	/* the programs' texts go, but for the last few used; slots, not
	 * pointers, are walked: a program pushed out is freed */
	size_t *slots = xmalloc((c->n_in_use * 2 + 1) * sizeof *slots), n_slots = 0;
	for (size_t i = 0; i < c->n_in_use; i++) {
		c->in_use[i]->in_use = false;
		slots[n_slots++] = c->in_use[i]->slot;
	}
	for (size_t i = 0; i < c->n_in_use; i++) {
		size_t out = keep_recent_program(slots[i]);
		if (out)
			slots[n_slots++] = out - 1;
	}
	for (size_t i = 0; i < n_slots; i++)
		drop_slot(slots[i]);
	free(slots);
	c->n_in_use = 0;
	/* and the evidence texts and numbers: what stays of a file is its
	 * path, state and seal verdict (a later page or the lesson's program
	 * check reads it again), but for the last few used (cur->ev_kept) */
	for (size_t i = 0; i < c->n_ev_in_use; i++) {
		c->ev_in_use[i]->in_use = false;
		keep_recent(c->ev_in_use[i]);
	}
	for (size_t i = 0; i < c->n_ev_in_use; i++)
		if (!kept(c->ev_in_use[i]))
			unload_evidence(c->ev_in_use[i]);
	c->n_ev_in_use = 0;
	c->n_tokenised = 0; /* each resident file's numbers go with its text */
	/* lesson bytes no program took */
	for (size_t i = 0; i < c->n_holding; i++)
		held_free(&c->holding[i]);
	c->n_holding = 0;
	/* and the files of lessons not among the last few used */
	struct lesson_files_entry **out = xmalloc((c->n_lf_used + 1) * sizeof *out);
	size_t n_out = 0;
	for (size_t i = 0; i < c->n_lf_used; i++) {
		c->lf_used[i]->used = false;
		struct lesson_files_entry *gone = keep_recent_files(c->lf_used[i]);
		if (gone)
			out[n_out++] = gone;
	}
	for (size_t i = 0; i < n_out; i++)
		if (!files_kept(out[i]))
			slim_files(out[i]);
	free(out);
	c->n_lf_used = 0;
}

bool course_report_unusable(enum load_state state, const char *why, const char *path, struct diag_loc at,
			    const char *what)
{
	if (state == LOAD_OK || state == LOAD_MALFORMED)
		return false;
	enum diag_kind kind = pathkind_unusable_kind(state == LOAD_REFUSED, why);
	struct diag *d = diag_begin(kind, at,
				    "%s '%s' %s: %s", what, path, state == LOAD_REFUSED ? "is refused" : "cannot be read",
				    why);
	if (state == LOAD_REFUSED)
		diag_hint(d, "name files by their path from the repository root, inside the repository");
	diag_end(d);
	return true;
}

/* ---- folders ---- */

static bool report_once(const char *rel)
{
	struct course *c = cur;
	size_t seen;
	if (strmap_get(&c->reported_index, rel, strlen(rel), &seen))
		return false;
	c->reported = xgrow(c->reported, &c->cap_reported, c->n_reported + 1, sizeof *c->reported);
	c->reported[c->n_reported] = xstrdup(rel);
	strmap_add(&c->reported_index, c->reported[c->n_reported], strlen(rel), c->n_reported, NULL);
	c->n_reported++;
	return true;
}

static void folder_problem(bool refused, const char *rel, const char *what, const char *why)
{
	if (!report_once(rel)) {
		diag_once_touch("folder", rel);
		return;
	}
	diag_once_begin("folder", rel);
	enum diag_kind kind = pathkind_unusable_kind(refused, NULL);
	struct diag *d = diag_begin(kind, (struct diag_loc){.path = rel}, "%s '%s' %s: %s", what, rel,
				    refused ? "is refused" : "cannot be read", why);
	diag_hint(d, refused ? "the course's folders must lie inside the repository: make it a real "
					      "folder, not a link out"
					    : "nothing in it was checked: make it a folder the checking user can list");
	diag_end(d);
	diag_once_end();
}

/* Opens the course folder rel for listing, silently: what was found goes
 * into *f, reported where a check needs the folder (folder_report).  A
 * folder that is refused (a link out of the repository) or cannot be
 * listed is an error naming it, once a run: a run that silently lists
 * nothing would pass with nothing checked.  A missing folder is an error
 * only when required (pages/, programs/); a course may have no evidence
 * yet.  NULL when it cannot be listed; otherwise *fspath (malloc'd) is its
 * file-system path. */
static DIR *probe_folder(const char *rel, bool required, struct folder *f, char **fspath)
{
	const char *why;
	*fspath = NULL;
	memset(f, 0, sizeof *f);
	switch (repo_resolve(rel, fspath, &why)) {
	case REPO_OK:
		break;
	case REPO_REFUSED:
		f->state = FOLDER_REFUSED;
		f->why = xstrdup(why);
		return NULL;
	default:
		f->state = required || errno != ENOENT ? FOLDER_BAD : FOLDER_ABSENT;
		f->why = xstrdup(why);
		return NULL;
	}
	DIR *dir = opendir(*fspath);
	if (!dir) {
		f->state = required || errno != ENOENT ? FOLDER_BAD : FOLDER_ABSENT;
		f->why = xstrdup(strerror(errno));
		free(*fspath);
		*fspath = NULL;
		return NULL;
	}
	f->state = FOLDER_OK;
	return dir;
}

/* Reports f's problem (once a run); true when the folder is usable
 * (listed, or absent where that is allowed). */
static bool folder_report(const char *rel, const char *what, const struct folder *f)
{
	if (f->state == FOLDER_BAD || f->state == FOLDER_REFUSED) {
		folder_problem(f->state == FOLDER_REFUSED, rel, what, f->why);
		return false;
	}
	return true;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- the runs of each lesson: evidence/LESSON/ listed once ---- */

/* The runs in dir (evidence/LESSON/: repo_list_runs, the one lister of
 * runs, which capture --stale uses too), which it closes; a regular file
 * is known (course_resolve). */
static void list_runs(struct lesson_runs *r, const char *rel, DIR *dir)
{
	char **paths;
	bool *regular;
	size_t n = repo_list_runs(dir, rel, &paths, &regular);
	/* one block a lesson: the path pointers, the regular flags, then the
	 * paths (10,000 lessons of one run keep 10,000 blocks, not 40,000) */
	size_t bytes = n * (sizeof *r->paths + sizeof *r->regular);
	for (size_t i = 0; i < n; i++)
		bytes += strlen(paths[i]) + 1;
	char *block = n ? xmalloc(bytes) : NULL;
	r->paths = (char **)block;
	r->regular = n ? (bool *)(block + n * sizeof *r->paths) : NULL;
	char *at = n ? block + n * (sizeof *r->paths + sizeof *r->regular) : NULL;
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(paths[i]) + 1;
		memcpy(at, paths[i], len);
		r->paths[i] = at;
		at += len;
		r->regular[i] = regular[i];
		free(paths[i]);
	}
	free(paths);
	free(regular);
	r->n = n;
}

static bool entry_find(struct course *c, const char *name, size_t *at);

/* The programs/ listing's copy of a lesson's name (it lives until
 * course_release), or NULL: one string a lesson, shared by its runs and
 * its files' entry. */
static char *lesson_name(struct course *c, const char *lesson)
{
	size_t at;
	return c->entry_sorted && entry_find(c, lesson, &at) ? c->entries[at].name : NULL;
}

static struct lesson_runs *add_runs(struct course *c, const char *lesson)
{
	struct lesson_runs *r = xcalloc(1, sizeof *r);
	r->lesson = lesson_name(c, lesson);
	r->lesson_borrowed = r->lesson != NULL;
	if (!r->lesson_borrowed)
		r->lesson = xstrdup(lesson);
	r->folder.state = FOLDER_ABSENT;
	c->runs = xgrow(c->runs, &c->cap_runs, c->n_runs + 1, sizeof *c->runs);
	c->runs[c->n_runs] = r;
	strmap_add(&c->runs_index, r->lesson, strlen(r->lesson), c->n_runs++, NULL);
	return r;
}

/* A lesson's runs: from the load's listing, or (a name the listing could
 * not answer for: a link, a name with '/', an evidence/ that could not be
 * listed) found as repo_list_evidence() would, once. */
static struct lesson_runs *runs_of(const char *lesson)
{
	struct course *c = model();
	size_t at;
	if (strmap_get(&c->runs_index, lesson, strlen(lesson), &at))
		return c->runs[at];
	struct lesson_runs *r = add_runs(c, lesson);
	/* every plain folder of evidence/ is in runs_index already */
	bool plain = lesson[0] && !strchr(lesson, '/') && strcmp(lesson, ".") != 0 && strcmp(lesson, "..") != 0;
	if (plain && c->evidence_listed && c->evidence_dir.state == FOLDER_OK &&
	    !strmap_get(&c->evidence_entry, lesson, strlen(lesson), &at))
		return r; /* evidence/ was listed and holds no such entry */
	if (strchr(lesson, '/')) {
		r->folder.state = FOLDER_OK; /* never looked at: no runs */
		return r;
	}
	char *rel = xasprintf("evidence/%s", lesson), *fs;
	DIR *dir = probe_folder(rel, false, &r->folder, &fs);
	if (dir)
		list_runs(r, rel, dir);
	free(fs);
	free(rel);
	return r;
}

size_t course_list_evidence(const char *lesson, char ***paths)
{
	const struct lesson_runs *r = runs_of(lesson);
	*paths = r->n ? xmalloc(r->n * sizeof **paths) : NULL;
	for (size_t i = 0; i < r->n; i++)
		(*paths)[i] = xstrdup(r->paths[i]);
	return r->n;
}

size_t course_runs(const char *lesson, char *const **paths)
{
	const struct lesson_runs *r = runs_of(lesson);
	*paths = r->paths;
	return r->n;
}

char *course_newest_evidence(const char *lesson)
{
	const struct lesson_runs *r = runs_of(lesson);
	return r->n ? xstrdup(r->paths[r->n - 1]) : NULL;
}

bool course_evidence_folder_usable(const char *lesson)
{
	struct course *c = model();
	need_evidence_probe(c);
	/* each folder's answer is reported at the first ask, as when it was
	 * opened here (folder_usable) */
	if (!c->evidence_asked) {
		c->evidence_asked = true;
		c->evidence_usable = folder_report("evidence", "folder", &c->evidence_dir);
	}
	if (!c->evidence_usable)
		return false;
	if (strchr(lesson, '/'))
		return true;
	struct lesson_runs *r = runs_of(lesson);
	if (!r->asked) {
		r->asked = true;
		char *rel = xasprintf("evidence/%s", lesson);
		r->usable = folder_report(rel, "evidence folder", &r->folder);
		free(rel);
	}
	return r->usable;
}

/* evidence/ and each evidence/LESSON/ that is a plain folder, listed at
 * the load; other entries are answered when asked (runs_of). */
static void load_evidence_dir(struct course *c)
{
	char *fs;
	c->evidence_listed = c->evidence_probed = true;
	DIR *dir = probe_folder("evidence", false, &c->evidence_dir, &fs);
	if (!dir)
		return;
	int dfd = dirfd(dir);
	struct dirent *e;
	while ((e = readdir(dir)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (e->d_type != DT_DIR) {
			char *name = xstrdup(e->d_name);
			c->evidence_other = xgrow(c->evidence_other, &c->cap_evidence_other, c->n_evidence_other + 1,
						  sizeof *c->evidence_other);
			c->evidence_other[c->n_evidence_other++] = name;
			strmap_add(&c->evidence_entry, name, strlen(name), 0, NULL);
			continue;
		}
		struct lesson_runs *r = add_runs(c, e->d_name);
		/* a real folder (d_type is the entry's own, not a link's) */
		int fd = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		DIR *sub = fd >= 0 ? fdopendir(fd) : NULL;
		if (!sub) {
			int err = errno;
			if (fd >= 0)
				close(fd);
			r->folder.state = err == ENOENT ? FOLDER_ABSENT : FOLDER_BAD;
			r->folder.why = xstrdup(strerror(err));
			continue;
		}
		r->folder.state = FOLDER_OK;
		char *rel = xasprintf("evidence/%s", e->d_name);
		list_runs(r, rel, sub);
		free(rel);
	}
	closedir(dir);
	free(fs);
}

/* course_open()'s evidence/: how the folder stands (its problem is
 * reported at the first ask, as a listed one's), without listing it:
 * each lesson's runs are listed when asked for (runs_of). */
static void need_evidence_probe(struct course *c)
{
	if (c->evidence_probed)
		return;
	c->evidence_probed = true;
	char *fs;
	DIR *dir = probe_folder("evidence", false, &c->evidence_dir, &fs);
	if (dir)
		closedir(dir);
	free(fs);
}

/* ---- lessons ---- */

/* A lesson folder's name goes into evidence headers and diagnostics on
 * one line: a control byte in it would split the line (F12). */
static bool lesson_name_ok(const char *name)
{
	unsigned char ch = str_control_byte(name);
	if (!ch)
		return true;
	char *shown = str_escape_controls(name);
	char *rel = xasprintf("programs/%s", shown);
	struct diag *d = diag_begin(D_LESSON_NAME, (struct diag_loc){.path = rel},
				    "lesson folder name holds the control byte 0x%02x; it was not checked", ch);
	diag_hint(d, "rename the folder to letters, digits, '-', '_' and '.'");
	diag_end(d);
	free(rel);
	free(shown);
	return false;
}

static void entry_problem(struct lesson_entry *e, bool refused, const char *why)
{
	e->verdict = LV_PROBLEM;
	e->refused = refused;
	e->why = xstrdup(why);
}

/* Whether an entry of programs/ is a lesson: a folder, named without
 * control bytes, inside the repository and listable.  Anything that only
 * looks like one (a link loop, a link out, an unreadable folder) is a
 * problem to report.  The listing's type answers for a plain folder or
 * file; a link is followed as stat would. */
static void judge_entry(struct course *c, struct lesson_entry *e)
{
	char *path = xasprintf("%s/%s", c->programs_fs, e->name);
	bool dir = e->type == DT_DIR;
	if (e->type == DT_LNK || e->type == DT_UNKNOWN) {
		struct stat st, lst;
		int rc = stat(path, &st), err = errno;
		bool link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
		if (rc != 0) { /* a link loop or a dangling link where a lesson was meant */
			if (link || err != ENOENT)
				entry_problem(e, false, strerror(err));
			else
				e->verdict = LV_SKIP;
			free(path);
			return;
		}
		dir = S_ISDIR(st.st_mode);
	}
	if (!dir) {
		e->verdict = LV_SKIP;
	} else if (str_control_byte(e->name)) {
		e->verdict = LV_NAME;
	} else if (e->type == DT_DIR) {
		size_t at;
		bool collected = strmap_get(&c->lesson_files_index, e->name, strlen(e->name), &at) &&
				 c->lesson_files[at]->rc == 0;
		int fd = collected ? -1 : open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (!collected && fd < 0)
			entry_problem(e, false, strerror(errno));
		else
			e->verdict = LV_LESSON;
		if (fd >= 0)
			close(fd);
	} else { /* a link to a folder: resolved, as any path */
		char *rel = xasprintf("programs/%s", e->name), *lfs;
		struct folder f;
		DIR *d = probe_folder(rel, true, &f, &lfs);
		if (d) {
			closedir(d);
			e->verdict = LV_LESSON;
		} else {
			entry_problem(e, f.state == FOLDER_REFUSED, f.why);
		}
		free(f.why);
		free(lfs);
		free(rel);
	}
	free(path);
}

size_t course_lessons(char ***names)
{
	struct course *c = model();
	need_programs(c);
	*names = NULL;
	folder_report("programs", "folder", &c->programs_dir);
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < c->n_entries; i++) {
		struct lesson_entry *e = &c->entries[i];
		if (!lessonfiles_is_lesson(e->name))
			continue;
		if (e->verdict == LV_UNJUDGED)
			judge_entry(c, e);
		if (e->verdict == LV_NAME) {
			lesson_name_ok(e->name);
		} else if (e->verdict == LV_PROBLEM) {
			char *shown = str_escape_controls(e->name);
			char *rel = xasprintf("programs/%s", shown);
			folder_problem(e->refused, rel, "lesson folder", e->why);
			free(rel);
			free(shown);
		} else if (e->verdict == LV_LESSON) {
			*names = xgrow(*names, &cap, n + 1, sizeof **names);
			(*names)[n++] = xstrdup(e->name);
		}
	}
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(*names, n, sizeof **names, by_name);
	return n;
}

static int by_entry(const void *a, const void *b, void *arg)
{
	const struct course *c = arg;
	return strcmp(c->entries[*(const size_t *)a].name, c->entries[*(const size_t *)b].name);
}

static bool entry_find(struct course *c, const char *name, size_t *at)
{
	size_t lo = 0, hi = c->n_entries;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(c->entries[c->entry_sorted[mid]].name, name);
		if (cmp == 0) {
			*at = c->entry_sorted[mid];
			return true;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

bool course_lesson_exists(const char *lesson)
{
	struct course *c = model();
	size_t at;
	if (c->programs_listed && c->programs_dir.state == FOLDER_OK && !strchr(lesson, '/') && strcmp(lesson, ".") != 0 &&
	    strcmp(lesson, "..") != 0 && lesson[0]) {
		if (!entry_find(c, lesson, &at))
			return false; /* not in programs/: repo_resolve would not find it */
		if (c->entries[at].type == DT_DIR || c->entries[at].type == DT_REG)
			return true;
	}
	char *dir = xasprintf("programs/%s", lesson), *fs;
	const char *why;
	bool ok = repo_resolve(dir, &fs, &why) == REPO_OK;
	free(fs);
	free(dir);
	return ok;
}

/* lessonfiles_collect_shared()'s question: the program's source-sha256
 * when the course cache read and hashed these very bytes (an LF-only text
 * without a BOM is kept as read). */
static bool known_program_sha(const char *path, const char *data, size_t len, char sha[SHA256_HEX_LEN + 1],
			      void *arg)
{
	(void)arg;
	size_t at;
	if (!strmap_get(&cur->program_index, path, strlen(path), &at))
		return false;
	const struct program *p = cur->programs[at].live;
	if (!p || p->state != LOAD_OK || !p->resident || !p->sha_of_text || p->tf.had_bom || p->tf.had_cr ||
	    p->tf.len != len || memcmp(p->tf.data, data, len) != 0)
		return false;
	memcpy(sha, p->sha256, SHA256_HEX_LEN + 1);
	return true;
}

/* Reads e's files (e->rc, e->why, e->f), the bytes given back at once
 * but the program's, whose text (normalised and parsed when it was
 * hashed) is held for its first course_program() until
 * course_page_done. */
static void collect_files(struct course *c, struct lesson_files_entry *e)
{
	free(e->why);
	e->why = NULL;
	e->f = xcalloc(1, sizeof *e->f);
	need_common(c);
	e->rc = lessonfiles_collect_shared(e->lesson, e->f, &e->why, known_program_sha, NULL, &c->common);
	if (e->rc != 0) {
		free(e->f);
		e->f = NULL;
		return;
	}
	char *dir = xasprintf("programs/%s/", e->lesson);
	size_t dl = strlen(dir);
	e->n_cu = 0;
	for (size_t i = 0; i < e->f->n; i++) {
		struct lesson_file *lf = &e->f->v[i];
		/* the folder was listed: the .cu count by lessonfiles_program()'s
		 * rule over the files read (find_program) */
		const char *tail = lf->path + dl;
		size_t tl = strlen(tail);
		e->n_cu += strncmp(lf->path, dir, dl) == 0 && tl > 3 &&
			   strcmp(tail + tl - 3, ".cu") == 0;
		free(lf->data);
		lf->data = NULL;
	}
	free(dir);
	/* the program's text waits for its first read (given back at
	 * course_page_done when it was read already) */
	struct held h = {e, {0}, {0}};
	if (lessonfiles_take_program(e->f, &h.tf, &h.hdr)) {
		if (held_of(e)) {
			held_free(&h);
		} else {
			c->holding = xgrow(c->holding, &c->cap_holding, c->n_holding + 1, sizeof *c->holding);
			c->holding[c->n_holding++] = h;
		}
	}
	if (!e->program && e->f->program != SIZE_MAX)
		e->program = xstrdup(e->f->v[e->f->program].path);
	if (e->f->n) /* and the array's room to grow */
		e->f->v = xrealloc(e->f->v, e->f->n * sizeof *e->f->v);
}

/* The lesson's files, read and hashed once a run (programs/common/ once
 * for all lessons), kept whole while the lesson is among the last few
 * used; asked for after that, they are read again (see above). */
static struct lesson_files_entry *lesson_files_get(const char *lesson)
{
	struct course *c = model();
	size_t at;
	struct lesson_files_entry *e;
	if (strmap_get(&c->lesson_files_index, lesson, strlen(lesson), &at)) {
		e = c->lesson_files[at];
		if (e->rc == 0 && !e->f)
			collect_files(c, e);
	} else {
		c->lesson_files = xgrow(c->lesson_files, &c->cap_lesson_files, c->n_lesson_files + 1,
					sizeof *c->lesson_files);
		e = c->lesson_files[c->n_lesson_files] = xcalloc(1, sizeof *e);
		e->lesson = lesson_name(c, lesson);
		e->lesson_borrowed = e->lesson != NULL;
		if (!e->lesson_borrowed)
			e->lesson = xstrdup(lesson);
		collect_files(c, e);
		strmap_add(&c->lesson_files_index, e->lesson, strlen(e->lesson), c->n_lesson_files, NULL);
		c->n_lesson_files++;
	}
	if (!e->used) {
		e->used = true;
		c->lf_used = xgrow(c->lf_used, &c->cap_lf_used, c->n_lf_used + 1, sizeof *c->lf_used);
		c->lf_used[c->n_lf_used++] = e;
	}
	return e;
}

const struct lesson_files *course_lesson_files(const char *lesson, const char **why, bool *refused)
{
	const struct lesson_files_entry *e = lesson_files_get(lesson);
	*why = e->why;
	*refused = e->rc == -2;
	return e->rc == 0 ? e->f : NULL;
}

char *course_lesson_program(const char *lesson, size_t *count)
{
	*count = 0;
	if (strchr(lesson, '/'))
		return NULL;
	const struct lesson_files_entry *e = lesson_files_get(lesson);
	if (e->rc == 0) {
		/* the folder was listed: the program by lessonfiles_program()'s
		 * rule over the files read (find_program), the count from them */
		*count = e->n_cu;
		return e->program ? xstrdup(e->program) : NULL;
	}
	/* a lesson folder that is refused or cannot be listed is reported
	 * (once a run) before the lesson's own rule looks into it */
	char *rel = xasprintf("programs/%s", lesson), *fs;
	struct folder f;
	DIR *dir = probe_folder(rel, false, &f, &fs);
	if (!dir)
		folder_report(rel, "lesson folder", &f);
	free(f.why);
	free(rel);
	if (!dir)
		return NULL;
	closedir(dir);
	free(fs);
	size_t headed;
	return lessonfiles_program(lesson, count, &headed);
}

/* ---- pages ---- */

size_t course_pages(char ***out)
{
	struct course *c = model();
	need_pages(c);
	folder_report("pages", "folder", &c->pages_dir);
	*out = c->n_pages ? xmalloc(c->n_pages * sizeof **out) : NULL;
	for (size_t i = 0; i < c->n_pages; i++)
		(*out)[i] = xstrdup(c->pages[i]);
	return c->n_pages;
}

struct listed_page {
	char *path;
	bool regular;
};

static int by_page(const void *a, const void *b)
{
	return strcmp(((const struct listed_page *)a)->path, ((const struct listed_page *)b)->path);
}

static void load_pages(struct course *c)
{
	c->pages_listed = true;
	char *fs;
	DIR *dir = probe_folder("pages", true, &c->pages_dir, &fs);
	struct listed_page *list = NULL;
	size_t cap = 0;
	struct dirent *e;
	while (dir && (e = readdir(dir)) != NULL) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len < 4 || strcmp(e->d_name + len - 3, ".md") != 0)
			continue;
		list = xgrow(list, &cap, c->n_pages + 1, sizeof *list);
		list[c->n_pages++] = (struct listed_page){xasprintf("pages/%s", e->d_name), e->d_type == DT_REG};
	}
	if (dir)
		closedir(dir);
	free(fs);
	if (c->n_pages > 1) /* qsort(NULL, 0) is undefined */
		qsort(list, c->n_pages, sizeof *list, by_page);
	c->pages = c->n_pages ? xmalloc(c->n_pages * sizeof *c->pages) : NULL;
	c->page_regular = c->n_pages ? xmalloc(c->n_pages * sizeof *c->page_regular) : NULL;
	for (size_t i = 0; i < c->n_pages; i++) {
		c->pages[i] = list[i].path;
		c->page_regular[i] = list[i].regular;
	}
	free(list);
	c->facts = c->n_pages ? xcalloc(c->n_pages, sizeof *c->facts) : NULL;
}

static void load_programs(struct course *c)
{
	c->programs_listed = true;
	DIR *dir = probe_folder("programs", true, &c->programs_dir, &c->programs_fs);
	size_t cap = 0;
	struct dirent *e;
	while (dir && (e = readdir(dir)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		c->entries = xgrow(c->entries, &cap, c->n_entries + 1, sizeof *c->entries);
		c->entries[c->n_entries++] = (struct lesson_entry){xstrdup(e->d_name), e->d_type, LV_UNJUDGED, false, NULL};
	}
	if (dir)
		closedir(dir);
	if (c->n_entries) /* the array's room to grow goes: 10,000 lessons keep it */
		c->entries = xrealloc(c->entries, c->n_entries * sizeof *c->entries);
	c->entry_sorted = xmalloc((c->n_entries ? c->n_entries : 1) * sizeof *c->entry_sorted);
	for (size_t i = 0; i < c->n_entries; i++)
		c->entry_sorted[i] = i;
	if (c->n_entries > 1)
		qsort_r(c->entry_sorted, c->n_entries, sizeof *c->entry_sorted, by_entry, c);
}

static void need_pages(struct course *c)
{
	if (!c->pages_listed)
		load_pages(c);
}

static void need_programs(struct course *c)
{
	if (!c->programs_listed)
		load_programs(c);
}

/* programs/common/, read and hashed once for every lesson (the first
 * lesson whose files are read, or course_load). */
static void need_common(struct course *c)
{
	if (!c->common_read) {
		c->common_read = true;
		lessonfiles_common_read(&c->common);
	}
}

/* ---- page facts: the cite index and a README's status ---- */

static void facts_set(struct page_facts *pf, const struct frontmatter *fm, bool text_ok)
{
	pf->known = true;
	pf->text_ok = text_ok;
	pf->present = fm->present;
	pf->status = fm->status;
	if (fm->lesson) { /* one allocation a page: 10,000 pages keep 10,000 of them */
		struct buf b = {0};
		buf_append(&b, fm->lesson, strlen(fm->lesson) + 1);
		for (size_t k = 0; k < fm->n_evidence; k++)
			buf_append(&b, fm->evidence[k].path, strlen(fm->evidence[k].path) + 1);
		size_t b_len = b.len;
		pf->lesson = xrealloc(buf_detach(&b), b_len); /* without the buffer's room to grow */
		pf->n_evidence = fm->n_evidence;
	}
}

/* Page facts shared between workers (course_share_facts).  Without the
 * table, a worker checking page k that needs a lesson's first page reads
 * the front matter of every page before k it did not check itself: with
 * N workers the course was read about N times over (3,992 page reads
 * for 1,000 lessons with one cite each at -j 4).  Each page's facts are
 * now put in its slot by the first worker to learn them, and taken from
 * there by the others.  A slot: text_ok, present, status, whether a
 * lesson is named, n_evidence (4 bytes), then the lesson block as
 * facts_set() makes it.  Facts too long for a slot are not shared: the
 * others read that page themselves, as before. */
#define FACT_SLOT_BYTES 504
#define FACT_HEAD 8

static void facts_publish(struct course *c, size_t i)
{
	if (!c->shared_facts)
		return;
	const struct page_facts *pf = &c->facts[i];
	unsigned char rec[FACT_SLOT_BYTES];
	size_t block = 0;
	if (pf->lesson) {
		const char *at = pf->lesson + strlen(pf->lesson) + 1;
		for (size_t k = 0; k < pf->n_evidence; k++)
			at += strlen(at) + 1;
		block = (size_t)(at - pf->lesson);
	}
	if (block > sizeof rec - FACT_HEAD || pf->n_evidence > UINT32_MAX)
		return;
	uint32_t n_evidence = (uint32_t)pf->n_evidence;
	rec[0] = pf->text_ok;
	rec[1] = pf->present;
	rec[2] = (unsigned char)pf->status;
	rec[3] = pf->lesson != NULL;
	memcpy(rec + 4, &n_evidence, sizeof n_evidence);
	if (block)
		memcpy(rec + FACT_HEAD, pf->lesson, block);
	shared_slots_put(c->shared_facts, i, rec, FACT_HEAD + block);
}

/* Page i's facts from another worker: true when they were there. */
static bool facts_take_shared(struct course *c, size_t i)
{
	unsigned char rec[FACT_SLOT_BYTES];
	size_t len;
	if (!c->shared_facts || !shared_slots_get(c->shared_facts, i, rec, &len) || len < FACT_HEAD)
		return false;
	struct page_facts *pf = &c->facts[i];
	uint32_t n_evidence;
	memcpy(&n_evidence, rec + 4, sizeof n_evidence);
	pf->known = true;
	pf->text_ok = rec[0];
	pf->present = rec[1];
	pf->status = (enum page_status)rec[2];
	if (rec[3] && len > FACT_HEAD) {
		pf->lesson = xmalloc(len - FACT_HEAD);
		memcpy(pf->lesson, rec + FACT_HEAD, len - FACT_HEAD);
		pf->n_evidence = n_evidence;
	}
	return true;
}

void course_share_facts(void)
{
	struct course *c = model();
	if (c->n_pages > 1 && !c->shared_facts)
		c->shared_facts = shared_slots_create(c->n_pages, FACT_SLOT_BYTES);
}

void course_page_seen(const char *page, const struct frontmatter *fm)
{
	struct course *c = model();
	size_t i;
	if (!c->pages_listed)
		return; /* course_open(): a cite reads the page it needs (own_page) */
	char **hit = c->n_pages ? bsearch(&page, c->pages, c->n_pages, sizeof *c->pages, by_name) : NULL;
	if (!hit || c->facts[i = (size_t)(hit - c->pages)].known)
		return;
	facts_set(&c->facts[i], fm, true);
	facts_publish(c, i);
}

/* A page asked for before its own check: read here, its problems dropped (its own
 * problems are reported when it is checked, which reads it again: the
 * model keeps facts, not texts). */
static void page_facts_read(const char *page, struct page_facts *pf)
{
	pf->known = true;
	char *fs;
	const char *why;
	struct textfile tf;
	if (course_resolve(page, &fs, &why) != REPO_OK || textfile_read(fs, page, &tf, &why) != 0) {
		free(fs);
		return;
	}
	free(fs);
	struct frontmatter fm;
	frontmatter_parse(&tf, true, DIAG_DROP, &fm);
	facts_set(pf, &fm, !tf.has_nul && !tf.not_utf8);
	frontmatter_free(&fm);
	textfile_free(&tf);
}

static void facts_read(struct course *c, size_t i)
{
	if (facts_take_shared(c, i))
		return;
	page_facts_read(c->pages[i], &c->facts[i]);
	facts_publish(c, i);
}

/* Takes the next page into the maps; false at the end.  Pages enter in
 * course_pages() order, so the first page of a lesson wins. */
static bool facts_advance(struct course *c)
{
	need_pages(c);
	if (c->facts_prefix >= c->n_pages)
		return false;
	size_t i = c->facts_prefix++;
	struct page_facts *pf = &c->facts[i];
	if (!pf->known)
		facts_read(c, i);
	if (pf->lesson && pf->text_ok)
		strmap_add(&c->cite_page_of, pf->lesson, strlen(pf->lesson), i, NULL);
	if (pf->lesson && pf->present)
		strmap_add(&c->status_page_of, pf->lesson, strlen(pf->lesson), i, NULL);
	return true;
}

/* Whether lesson can name a page of its own, pages/LESSON.md: a plain
 * name (no '/', no leading '.', no control byte). */
static bool own_page_name(const char *lesson)
{
	return lesson[0] && lesson[0] != '.' && !strchr(lesson, '/') && !str_control_byte(lesson);
}

/* The facts of pages/LESSON.md, read (muted) at the first ask: from the
 * listing's facts when pages/ was listed (NULL when it lists no such
 * page), else read directly and kept by lesson (course_open: one page's
 * check reads the page of a lesson it cites, not the course's pages). */
static const struct page_facts *own_page(struct course *c, const char *lesson)
{
	if (!own_page_name(lesson))
		return NULL;
	size_t i;
	if (strmap_get(&c->own_index, lesson, strlen(lesson), &i))
		return &c->own_facts[i];
	char *page = xasprintf("pages/%s.md", lesson);
	const struct page_facts *pf = NULL;
	if (c->pages_listed) {
		char **hit = c->n_pages ? bsearch(&page, c->pages, c->n_pages, sizeof *c->pages, by_name) : NULL;
		if (hit) {
			i = (size_t)(hit - c->pages);
			if (!c->facts[i].known)
				facts_read(c, i);
			pf = &c->facts[i];
		}
		free(page);
		return pf;
	}
	c->own_facts = xgrow(c->own_facts, &c->cap_own, c->n_own + 1, sizeof *c->own_facts);
	c->own_keys = xgrow(c->own_keys, &c->cap_own_keys, c->n_own + 1, sizeof *c->own_keys);
	struct page_facts *own = &c->own_facts[c->n_own];
	memset(own, 0, sizeof *own);
	page_facts_read(page, own);
	free(page);
	c->own_keys[c->n_own] = xstrdup(lesson);
	strmap_add(&c->own_index, c->own_keys[c->n_own], strlen(lesson), c->n_own, NULL);
	return &c->own_facts[c->n_own++];
}

/* The page of lesson a cite (cite) or a README's status asks for: the
 * lesson's own page, pages/LESSON.md, when it names the lesson (and is
 * text, for a cite; has front matter, for a status), else the first page
 * in course_pages() order that does. */
static const struct page_facts *facts_find(struct strmap *map, const char *lesson, bool cite)
{
	struct course *c = model();
	const struct page_facts *own = own_page(c, lesson);
	if (own && own->lesson && strcmp(own->lesson, lesson) == 0 && (cite ? own->text_ok : own->present))
		return own;
	size_t i;
	while (!strmap_get(map, lesson, strlen(lesson), &i))
		if (!facts_advance(c))
			return NULL;
	return &c->facts[i];
}

bool course_cite_page(const char *lesson, const char *const **evidence, size_t *n)
{
	struct course *c = model();
	const struct page_facts *pf = facts_find(&c->cite_page_of, lesson, true);
	*evidence = NULL;
	*n = pf ? pf->n_evidence : 0;
	if (!pf || !pf->n_evidence)
		return pf != NULL;
	c->cite_evidence = xgrow(c->cite_evidence, &c->cap_cite_evidence, pf->n_evidence, sizeof *c->cite_evidence);
	const char *at = pf->lesson + strlen(pf->lesson) + 1;
	for (size_t k = 0; k < pf->n_evidence; k++, at += strlen(at) + 1)
		c->cite_evidence[k] = at;
	*evidence = c->cite_evidence;
	return pf != NULL;
}

bool course_lesson_status(const char *lesson, enum page_status *status)
{
	const struct page_facts *pf = facts_find(&model()->status_page_of, lesson, false);
	if (pf)
		*status = pf->status;
	return pf != NULL;
}

bool course_verified_path(const struct proghdr *h, size_t *start, size_t *end)
{
	static struct re path_re = RE_INIT("\\bevidence/[A-Za-z0-9_./-]*[A-Za-z0-9_/]", 0);
	struct re_match g;
	if (!h->verified || !re_search(&path_re, h->verified, h->verified_len, 0, &g))
		return false;
	*start = g.start[0];
	*end = g.end[0];
	return true;
}

/* ---- the model's life ---- */

void course_open(void)
{
	if (cur)
		return;
	cur = xcalloc(1, sizeof *cur);
	cur->ev_kept.n = EV_KEPT;
	cur->prog_kept.n = PROG_KEPT;
	cur->lf_kept.n = LF_KEPT;
}

void course_load(void)
{
	course_open();
	need_pages(cur);
	need_programs(cur);
	need_common(cur);
	if (!cur->evidence_listed)
		load_evidence_dir(cur);
}

static struct course *model(void)
{
	if (!cur)
		course_load();
	return cur;
}

static void release_lesson_files(struct course *c)
{
	for (size_t i = 0; i < c->n_lesson_files; i++) {
		if (!c->lesson_files[i]->lesson_borrowed)
			free(c->lesson_files[i]->lesson);
		free(c->lesson_files[i]->why);
		free(c->lesson_files[i]->program);
		slim_files(c->lesson_files[i]);
		free(c->lesson_files[i]);
	}
	free(c->lesson_files);
	strmap_free(&c->lesson_files_index);
	for (size_t i = 0; i < c->n_holding; i++)
		held_free(&c->holding[i]);
	free(c->holding);
	free(c->lf_used);
	lessonfiles_common_free(&c->common);
}

static void release_listings(struct course *c)
{
	free(c->pages_dir.why);
	free(c->programs_dir.why);
	free(c->evidence_dir.why);
	free(c->programs_fs);
	for (size_t i = 0; i < c->n_pages; i++) {
		struct page_facts *pf = &c->facts[i];
		free(pf->lesson);
	}
	free(c->facts);
	for (size_t i = 0; i < c->n_own; i++) {
		free(c->own_facts[i].lesson);
		free(c->own_keys[i]);
	}
	free(c->own_facts);
	free(c->own_keys);
	strmap_free(&c->own_index);
	shared_slots_free(c->shared_facts);
	free(c->cite_evidence);
	strmap_free(&c->cite_page_of);
	strmap_free(&c->status_page_of);
	repo_free_list(c->pages, c->n_pages);
	free(c->page_regular);
	for (size_t i = 0; i < c->n_entries; i++) {
		free(c->entries[i].name);
		free(c->entries[i].why);
	}
	free(c->entries);
	free(c->entry_sorted);
	for (size_t i = 0; i < c->n_runs; i++) {
		free(c->runs[i]->paths); /* the block list_runs made */
		if (!c->runs[i]->lesson_borrowed)
			free(c->runs[i]->lesson);
		free(c->runs[i]->folder.why);
		free(c->runs[i]);
	}
	free(c->runs);
	strmap_free(&c->runs_index);
	repo_free_list(c->evidence_other, c->n_evidence_other);
	strmap_free(&c->evidence_entry);
	for (size_t i = 0; i < c->n_reported; i++)
		free(c->reported[i]);
	free(c->reported);
	strmap_free(&c->reported_index);
}

void course_release(void)
{
	struct course *c = cur;
	if (!c)
		return;
	for (size_t i = 0; i < c->n_programs; i++) {
		if (c->programs[i].live)
			drop_program(c->programs[i].live);
		if (!c->programs[i].borrowed)
			free(c->programs[i].path);
	}
	free(c->in_use);
	free(c->programs);
	strmap_free(&c->program_index);
	for (size_t i = 0; i < c->n_evfiles; i++) {
		struct evfile *e = c->evfiles[i];
		if (!e->borrowed) {
			free(e->path);
			free(e->lesson);
		}
		drop_tokens(e);
		free_evidence(e);
		free(e);
	}
	free(c->tokenised);
	free(c->ev_in_use);
	free(c->evfiles);
	strmap_free(&c->evfile_index);
	release_lesson_files(c);
	release_listings(c);
	free(c);
	cur = NULL;
}
