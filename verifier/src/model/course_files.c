/* course_files.c - see course.h: a lesson's programs, evidence files and
 * files, read once and kept resident for the last few used
 * (course_impl.h says how the model is split). */
#include "course_impl.h"

#include "capture_repeats.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lessonfiles.h"
#include "pathkind.h"
#include "repo.h"
#include "strmap.h"
#include "util.h"

static struct lesson_files_entry *lesson_files_get(const char *lesson);

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

static void held_free(struct held *h)
{
	textfile_free(&h->tf);
	proghdr_free(&h->hdr);
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
	struct course *c = course_cur;
	if (!p->in_use) {
		p->in_use = true;
		c->in_use = xgrow(c->in_use, &c->cap_in_use, c->n_in_use + 1, sizeof *c->in_use);
		c->in_use[c->n_in_use++] = p;
	}
	return p;
}


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
	for (size_t i = 0; i < course_cur->n_holding; i++)
		if (course_cur->holding[i].e == e && course_cur->holding[i].tf.data)
			return &course_cur->holding[i];
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
	p->tf = h->tf; /* moved: normalised and parsed once, when the files were read */
	p->hdr = h->hdr;
	memset(&h->tf, 0, sizeof h->tf);
	memset(&h->hdr, 0, sizeof h->hdr);
	memcpy(p->sha256, e->f->v[e->f->program].sha, sizeof p->sha256); /* empty: hashed when asked */
	return true;
}

/* Reads p's text and parses it; report: first read (its problems are
 * reported) or a read again after course_page_done (silent).  Its
 * source-sha256 is made when asked (course_program_sha256). */
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
}

/* The lesson files read with p's bytes, waiting for p's hash: given it. */
static void complete_files(const struct program *p)
{
	char *lesson = program_lesson(p->path);
	size_t at;
	if (lesson && strmap_get(&course_cur->lesson_files_index, lesson, strlen(lesson), &at)) {
		struct lesson_files *f = course_cur->lesson_files[at]->f;
		if (f && f->program_sha_later && f->program != SIZE_MAX && strcmp(f->v[f->program].path, p->path) == 0)
			lessonfiles_set_program_sha(f, p->sha256);
	}
	free(lesson);
}

const char *course_program_sha256(struct program *p)
{
	if (!p->sha256[0] && p->state == LOAD_OK && p->resident) {
		proghdr_source_sha256_parsed(&p->tf, &p->hdr, p->sha256);
		p->sha_of_text = true;
		sha_pack(&course_cur->programs[p->slot], p->sha256);
	}
	if (!p->sha256[0])
		return NULL;
	complete_files(p);
	return p->sha256;
}

/* A struct program for slot at, handed out until course_page_done. */
static struct program *live_program(size_t at, bool first)
{
	struct program_slot *sl = &course_cur->programs[at];
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
	struct course *c = course_model();
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
	course_cur->programs[p->slot].live = NULL;
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
	struct course *c = course_cur;
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
	struct course *c = course_model();
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
	struct course *c = course_cur;
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
	struct course *c = course_cur;
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

/* The cache's own, writable copy of cev (by its slot, not its path: a
 * copy of a cache entry, as update holds, is not the cache's), or NULL. */
static struct evfile *own_copy(const struct evfile *cev)
{
	struct course *c = course_cur;
	return c && cev->slot < c->n_evfiles && c->evfiles[cev->slot] == cev ? c->evfiles[cev->slot] : NULL;
}

/* own_copy while its text is resident (course_evidence_cached), or NULL. */
static struct evfile *own_resident(const struct evfile *cev)
{
	return course_evidence_cached(cev) ? own_copy(cev) : NULL;
}

void course_evidence_keep(const struct evfile *cev, void *data, size_t len)
{
	struct evfile *e = own_resident(cev);
	if (!e) {
		free(data);
		return;
	}
	free(e->derived);
	e->derived = data;
	e->derived_len = len;
}

const void *course_evidence_kept(const struct evfile *cev, size_t *len)
{
	const struct evfile *e = own_resident(cev);
	*len = e ? e->derived_len : 0;
	return e ? e->derived : NULL;
}

/* What was made from e's text (its lines' numbers, a derived block)
 * goes with it. */
static void drop_tokens(struct evfile *e)
{
	free(e->derived);
	e->derived = NULL;
	e->derived_len = 0;
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
	return recent_has(&course_cur->ev_kept, (uintptr_t)e);
}

/* e becomes the newest kept; the oldest, pushed out, is unloaded. */
static void keep_recent(struct evfile *e)
{
	uintptr_t out = recent_push(&course_cur->ev_kept, (uintptr_t)e);
	if (out)
		unload_evidence((struct evfile *)out);
}

static bool prog_is_kept(size_t slot)
{
	return recent_has(&course_cur->prog_kept, slot + 1);
}

/* Slot becomes the newest kept program; the slot pushed out (+ 1, 0 for
 * none) is returned for the caller to drop once nothing it is walking
 * points into it. */
static size_t keep_recent_program(size_t slot)
{
	return recent_push(&course_cur->prog_kept, slot + 1);
}

void *course_cache(enum course_cache which, size_t size, void (*empty)(void *block))
{
	struct course *c = course_model();
	if (!c->caches[which].block) {
		c->caches[which].block = xcalloc(1, size);
		c->caches[which].empty = empty;
	}
	return c->caches[which].block;
}

void course_empty_caches(struct course *c)
{
	for (size_t i = 0; i < COURSE_CACHES; i++)
		if (c->caches[i].block)
			c->caches[i].empty(c->caches[i].block);
}

bool course_evidence_cached(const struct evfile *cev)
{
	return cev->state == LOAD_OK && cev->resident && own_copy(cev);
}

static void drop_slot(size_t slot)
{
	if (course_cur->programs[slot].live && !prog_is_kept(slot))
		drop_program(course_cur->programs[slot].live);
}

static bool files_kept(const struct lesson_files_entry *e)
{
	return recent_has(&course_cur->lf_kept, (uintptr_t)e);
}

/* e becomes the newest lesson kept whole; the oldest, pushed out, is
 * returned (NULL when none) for the caller to slim once the round ends. */
static struct lesson_files_entry *keep_recent_files(struct lesson_files_entry *e)
{
	return (struct lesson_files_entry *)recent_push(&course_cur->lf_kept, (uintptr_t)e);
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
	struct course *c = course_model();
	course_empty_caches(c);
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
	 * check reads it again), but for the last few used (course_cur->ev_kept) */
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

/* lessonfiles_collect_shared()'s question: the program's source-sha256
 * when the course cache read and hashed these very bytes (an LF-only text
 * without a BOM is kept as read). */
static bool known_program_sha(const char *path, const char *data, size_t len, char sha[SHA256_HEX_LEN + 1],
			      void *arg)
{
	(void)arg;
	size_t at;
	if (!strmap_get(&course_cur->program_index, path, strlen(path), &at))
		return false;
	const struct program *p = course_cur->programs[at].live;
	if (!p || p->state != LOAD_OK || !p->resident || p->tf.had_bom || p->tf.had_cr || p->tf.len != len ||
	    memcmp(p->tf.data, data, len) != 0)
		return false;
	/* its hash when made (of this text), else made when asked */
	if (p->sha_of_text)
		memcpy(sha, p->sha256, SHA256_HEX_LEN + 1);
	else
		sha[0] = '\0';
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
	course_need_common(c);
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
	struct course *c = course_model();
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
		e->lesson = course_lesson_name(c, lesson);
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

/* The mark's bit in *marks, set: whether it was clear. */
static bool first_mark(unsigned char *marks, unsigned mark)
{
	unsigned char bit = (unsigned char)(1u << mark);
	bool first = !(*marks & bit);
	*marks |= bit;
	return first;
}

bool course_evidence_first(const struct evfile *cev, unsigned mark)
{
	struct evfile *e = own_copy(cev);
	return mark >= COURSE_MARKS || !e || first_mark(&e->marks, mark);
}

bool course_lesson_first(const char *lesson, unsigned mark)
{
	struct course *c = course_model();
	size_t at;
	if (mark >= COURSE_MARKS)
		return true;
	/* the entry, not the files: a lesson marked already is not read again */
	struct lesson_files_entry *e = strmap_get(&c->lesson_files_index, lesson, strlen(lesson), &at)
					       ? c->lesson_files[at] : lesson_files_get(lesson);
	return first_mark(&e->marks, mark);
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
	DIR *dir = course_probe_folder(rel, false, &f, &fs);
	if (!dir)
		course_folder_report(rel, "lesson folder", &f);
	free(f.why);
	free(rel);
	if (!dir)
		return NULL;
	closedir(dir);
	free(fs);
	size_t headed;
	return lessonfiles_program(lesson, count, &headed);
}

/* programs/common/, read and hashed once for every lesson (the first
 * lesson whose files are read, or course_load). */
void course_need_common(struct course *c)
{
	if (!c->common_read) {
		c->common_read = true;
		lessonfiles_common_read(&c->common);
	}
}

void course_release_files(struct course *c)
{
	course_empty_caches(c);
	for (size_t i = 0; i < COURSE_CACHES; i++)
		free(c->caches[i].block);
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

