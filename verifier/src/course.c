/* course.c - see course.h. */
#include "course.h"

#include "capture_repeats.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lessonfiles.h"
#include "pathkind.h"
#include "re.h"
#include "repo.h"
#include "strmap.h"
#include "util.h"

/* Loaded files, each found by its path through a hash index (a linear
 * scan made a 10,000-lesson course quadratic).  The keys are the objects'
 * own path strings, which live until course_release(). */
/* What stays of a program between pages: its path, and the verdict and
 * source-sha256 of its first read.  Its struct program exists only while
 * handed out (course_page_done frees it): 10,000 lessons keep 10,000
 * slots of about 100 bytes, not their parsed texts and headers. */
struct program_slot {
	char *path;
	enum load_state state;
	const char *why;
	char sha256[SHA256_HEX_LEN + 1];
	struct program *live;
};
static struct program_slot *programs;
static size_t n_programs, cap_programs;
static struct strmap program_index;
static struct evfile **evfiles;
/* course_lesson_files()'s cache */
struct lesson_files_entry {
	char *lesson;
	struct lesson_files f;
	char *why;
	int rc;
};
static struct lesson_files_entry **lesson_files; /* each entry its own allocation: what callers hold never moves */
static size_t n_lesson_files, cap_lesson_files;
static struct strmap lesson_files_index;
static size_t n_evfiles, cap_evfiles;
static struct strmap evfile_index;
/* evidence files whose numbers are tokenised now (course_page_done frees them) */
static struct evfile **tokenised;
static size_t n_tokenised, cap_tokenised;

static enum load_state resolve(const char *relpath, char **fs, const char **why)
{
	switch (repo_resolve(relpath, fs, why)) {
	case REPO_OK:
		return LOAD_OK;
	case REPO_REFUSED:
		return LOAD_REFUSED;
	default:
		return LOAD_MISSING;
	}
}

/* programs handed out since the last course_page_done */
static struct program **in_use;
static size_t n_in_use, cap_in_use;

static struct program *use(struct program *p)
{
	if (!p->in_use) {
		p->in_use = true;
		in_use = xgrow(in_use, &cap_in_use, n_in_use + 1, sizeof *in_use);
		in_use[n_in_use++] = p;
	}
	return p;
}

/* Reads p's text and parses it; report: first read (its problems are
 * reported and its source-sha256 taken) or a read again after
 * course_page_done (silent). */
static void load_program(struct program *p, bool report)
{
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
	if (report ? textfile_report_encoding(&p->tf, "program") : p->tf.not_utf8) { /* no parser sees it */
		p->state = LOAD_MALFORMED;
		return;
	}
	p->resident = true;
	if (report) { /* again after a reload only when asked: course_program_snippets */
		snippet_scan(&p->tf, true, &p->snippets);
		p->snippets_read = true;
	}
	proghdr_parse(&p->tf, &p->hdr);
	if (report) {
		proghdr_source_sha256_parsed(&p->tf, &p->hdr, p->sha256);
		p->sha_of_text = true;
	}
}

/* A struct program for slot at, handed out until course_page_done. */
static struct program *live_program(size_t at, bool first)
{
	struct program_slot *sl = &programs[at];
	struct program *p = sl->live = xcalloc(1, sizeof *p);
	p->path = sl->path; /* the slot's: it outlives p */
	p->slot = at;
	if (first) {
		load_program(p, true);
		memcpy(sl->sha256, p->sha256, sizeof sl->sha256);
	} else {
		p->state = sl->state;
		p->why = sl->why;
		memcpy(p->sha256, sl->sha256, sizeof p->sha256);
		if (p->state == LOAD_OK)
			load_program(p, false);
	}
	sl->state = p->state;
	sl->why = p->why;
	return use(p);
}

struct program *course_program(const char *relpath)
{
	size_t at;
	if (strmap_get(&program_index, relpath, strlen(relpath), &at)) {
		diag_once_touch("program", programs[at].path);
		return programs[at].live ? use(programs[at].live) : live_program(at, false);
	}
	programs = xgrow(programs, &cap_programs, n_programs + 1, sizeof *programs);
	struct program_slot *sl = &programs[n_programs];
	memset(sl, 0, sizeof *sl);
	sl->path = xstrdup(relpath);
	strmap_add(&program_index, sl->path, strlen(sl->path), n_programs, NULL);
	diag_once_begin("program", sl->path); /* its problems are reported once a run */
	struct program *p = live_program(n_programs++, true);
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
	programs[p->slot].live = NULL;
	free(p);
}

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
	const char *values = evidence_get(&e->ev, "repeat-values", &line);
	if (!values)
		return;
	const char *seal = evidence_get(&e->ev, "repeat-values-sha256", NULL);
	const struct textfile *tf = &e->ev.tf;
	size_t from = tf->line_start[e->ev.stdout_first - 1], to = tf->line_start[e->ev.stderr_line - 1];
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

/* evidence files handed out since the last course_page_done */
static struct evfile **ev_in_use;
static size_t n_ev_in_use, cap_ev_in_use;

static struct evfile *use_evidence(struct evfile *e)
{
	if (e->state == LOAD_OK && !e->in_use) {
		e->in_use = true;
		ev_in_use = xgrow(ev_in_use, &cap_ev_in_use, n_ev_in_use + 1, sizeof *ev_in_use);
		ev_in_use[n_ev_in_use++] = e;
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
	int rc = evidence_load(fs, e->path, &e->ev, &prob, &e->why);
	free(fs);
	if (rc != 0) {
		evidence_free(&e->ev);
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
	size_t at;
	if (strmap_get(&evfile_index, relpath, strlen(relpath), &at)) {
		diag_once_touch("evidence", relpath);
		struct evfile *e = evfiles[at];
		if (e->state == LOAD_OK && !e->resident)
			reload_evidence(e);
		return use_evidence(e);
	}
	diag_once_begin("evidence", relpath); /* its problems are reported once a run */
	struct evfile *e = load_evidence(relpath);
	diag_once_end();
	return e;
}

/* The first course_evidence() of relpath: loads it and reports its problems. */
static struct evfile *load_evidence(const char *relpath)
{
	struct evfile *e = xcalloc(1, sizeof *e);
	e->path = xstrdup(relpath);
	e->lesson = lesson_of_path(relpath);
	evfiles = xgrow(evfiles, &cap_evfiles, n_evfiles + 1, sizeof *evfiles);
	strmap_add(&evfile_index, e->path, strlen(e->path), n_evfiles, NULL);
	e->slot = n_evfiles;
	evfiles[n_evfiles++] = e;

	char *fs;
	e->state = resolve(relpath, &fs, &e->why);
	if (e->state != LOAD_OK)
		return e;
	struct evidence_problem prob;
	int rc = evidence_load(fs, relpath, &e->ev, &prob, &e->why);
	free(fs);
	if (rc == -1) {
		e->state = LOAD_MISSING;
		return e;
	}
	if (rc == -2) {
		e->state = LOAD_MALFORMED;
		struct diag *d = diag_begin(prob.kind, textfile_loc_line(&e->ev.tf, prob.line, prob.col, 0), "%s",
					    prob.message);
		diag_hint(d, "evidence files are written by 'coursecheck capture'; capture the lesson again "
			     "rather than repairing one by hand");
		diag_end(d);
		return e;
	}
	e->resident = true;
	char actual[SHA256_HEX_LEN + 1];
	e->intact = evidence_body_intact(&e->ev, actual);
	if (!e->intact) {
		size_t line;
		evidence_get(&e->ev, "body-sha256", &line);
		struct diag *d = diag_begin(D_EVIDENCE_EDITED, textfile_loc_line(&e->ev.tf, line, 14, 64),
					    "evidence body does not match its body-sha256: it was edited after capture");
		diag_note(d, textfile_loc_line(&e->ev.tf, e->ev.stdout_line, 1, 0), "the body starts here; it hashes to %s",
			  actual);
		diag_hint(d, "restore it with 'git checkout -- %s', or capture the lesson again", relpath);
		diag_end(d);
	}
	check_repeat_values(e, relpath);
	return use_evidence(e);
}

bool course_evidence_tokens(const struct evfile *cev, size_t line, const struct num_token **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!course_evidence_cached(cev) || line == 0 || line > cev->ev.tf.n_lines)
		return false;
	struct evfile *e = evfiles[cev->slot]; /* the cache's own, writable copy */
	if (!e->line_tok) {
		e->line_tok = xcalloc(e->ev.tf.n_lines + 1, sizeof *e->line_tok);
		e->line_ntok = xmalloc((e->ev.tf.n_lines + 1) * sizeof *e->line_ntok);
		for (size_t i = 0; i <= e->ev.tf.n_lines; i++)
			e->line_ntok[i] = SIZE_MAX;
		tokenised = xgrow(tokenised, &cap_tokenised, n_tokenised + 1, sizeof *tokenised);
		tokenised[n_tokenised++] = e;
	}
	if (e->line_ntok[line] == SIZE_MAX) {
		size_t len;
		const char *s = textfile_line(&e->ev.tf, line, &len);
		e->line_ntok[line] = numtok_scan(s, len, &e->line_tok[line]);
	}
	*out = e->line_tok[line];
	*n = e->line_ntok[line];
	return true;
}

static void drop_tokens(struct evfile *e)
{
	if (e->line_tok)
		for (size_t l = 0; l <= e->ev.tf.n_lines; l++)
			free(e->line_tok[l]);
	free(e->line_tok);
	free(e->line_ntok);
	e->line_tok = NULL;
	e->line_ntok = NULL;
}

static unsigned long generation;

static void unload_evidence(struct evfile *e)
{
	drop_tokens(e);
	if (e->resident) {
		evidence_free(&e->ev);
		e->resident = false;
	}
}

/* The evidence files used last, newest first, kept resident with their
 * numbers past course_page_done: a page citing the lesson checked just
 * before it (or its own lesson's run again) finds them read and
 * tokenised.  A fixed few, so memory stays flat. */
#define EV_KEPT 4
static struct evfile *ev_kept[EV_KEPT];

static bool kept(const struct evfile *e)
{
	for (size_t i = 0; i < EV_KEPT; i++)
		if (ev_kept[i] == e)
			return true;
	return false;
}

/* e becomes the newest kept; the oldest, pushed out, is unloaded. */
static void keep_recent(struct evfile *e)
{
	size_t at = EV_KEPT - 1;
	for (size_t i = 0; i < EV_KEPT; i++)
		if (ev_kept[i] == e) {
			at = i;
			break;
		}
	struct evfile *out = ev_kept[at] == e ? NULL : ev_kept[at];
	memmove(ev_kept + 1, ev_kept, at * sizeof *ev_kept);
	ev_kept[0] = e;
	if (out)
		unload_evidence(out);
}

unsigned long course_generation(void)
{
	return generation;
}

bool course_evidence_cached(const struct evfile *cev)
{
	/* by its slot, not its path: a copy of a cache entry (update holds
	 * its own) is not the cache's */
	return cev->state == LOAD_OK && cev->resident && cev->slot < n_evfiles && evfiles[cev->slot] == cev;
}

void course_page_done(void)
{
	generation++;
	for (size_t i = 0; i < n_in_use; i++)
		drop_program(in_use[i]);
	n_in_use = 0;
	/* and the evidence texts and numbers: what stays of a file is its
	 * path, state and seal verdict (a later page or the lesson's program
	 * check reads it again), but for the last few used (ev_kept) */
	for (size_t i = 0; i < n_ev_in_use; i++) {
		ev_in_use[i]->in_use = false;
		keep_recent(ev_in_use[i]);
	}
	for (size_t i = 0; i < n_ev_in_use; i++)
		if (!kept(ev_in_use[i]))
			unload_evidence(ev_in_use[i]);
	n_ev_in_use = 0;
	n_tokenised = 0; /* each resident file's numbers go with its text */
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

/* Folders already reported this run: a refused folder is named once, not
 * once for every page that would have listed it. */
static char **reported;
static size_t n_reported, cap_reported;
static struct strmap reported_index;

static bool report_once(const char *rel)
{
	size_t seen;
	if (strmap_get(&reported_index, rel, strlen(rel), &seen))
		return false;
	reported = xgrow(reported, &cap_reported, n_reported + 1, sizeof *reported);
	reported[n_reported] = xstrdup(rel);
	strmap_add(&reported_index, reported[n_reported], strlen(rel), n_reported, NULL);
	n_reported++;
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

/* Opens the course folder rel for listing.  A folder that is refused (a
 * link out of the repository) or cannot be listed is an error naming it,
 * once a run: a run that silently lists nothing would pass with nothing
 * checked.  A missing folder is an error only when required (pages/,
 * programs/); a course may have no evidence yet.  NULL when it cannot be
 * listed, with *bad telling refused or unreadable from missing; otherwise
 * *fspath (malloc'd) is its file-system path. */
static DIR *open_folder(const char *rel, bool required, const char *what, char **fspath, bool *bad)
{
	const char *why;
	*fspath = NULL;
	*bad = false;
	switch (repo_resolve(rel, fspath, &why)) {
	case REPO_OK:
		break;
	case REPO_REFUSED:
		folder_problem(true, rel, what, why);
		*bad = true;
		return NULL;
	default:
		*bad = required || errno != ENOENT;
		if (*bad)
			folder_problem(false, rel, what, why);
		return NULL;
	}
	DIR *dir = opendir(*fspath);
	if (!dir) {
		*bad = required || errno != ENOENT;
		if (*bad)
			folder_problem(false, rel, what, strerror(errno));
		free(*fspath);
		*fspath = NULL;
	}
	return dir;
}

/* Folders already opened by folder_usable(), with the answer: each is
 * opened once a run, not once for every page of its lesson. */
static char **opened;
static size_t n_opened, cap_opened;
static struct strmap opened_index;

/* Opens and closes (once a run): true when rel is listable or absent. */
static bool folder_usable(const char *rel, const char *what)
{
	size_t known;
	if (strmap_get(&opened_index, rel, strlen(rel), &known))
		return known != 0;
	char *fs;
	bool bad;
	DIR *dir = open_folder(rel, false, what, &fs, &bad);
	if (dir)
		closedir(dir);
	free(fs);
	opened = xgrow(opened, &cap_opened, n_opened + 1, sizeof *opened);
	opened[n_opened] = xstrdup(rel);
	strmap_add(&opened_index, opened[n_opened], strlen(rel), !bad, NULL);
	n_opened++;
	return !bad;
}

bool course_evidence_folder_usable(const char *lesson)
{
	if (!folder_usable("evidence", "folder"))
		return false;
	char *rel = xasprintf("evidence/%s", lesson);
	bool ok = strchr(lesson, '/') || folder_usable(rel, "evidence folder");
	free(rel);
	return ok;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A lesson folder's name goes into evidence headers and diagnostics on
 * one line: a control byte in it would split the line (F12). */
static bool lesson_name_ok(const char *name)
{
	unsigned char c = str_control_byte(name);
	if (!c)
		return true;
	char *shown = str_escape_controls(name);
	char *rel = xasprintf("programs/%s", shown);
	struct diag *d = diag_begin(D_LESSON_NAME, (struct diag_loc){.path = rel},
				    "lesson folder name holds the control byte 0x%02x; it was not checked", c);
	diag_hint(d, "rename the folder to letters, digits, '-', '_' and '.'");
	diag_end(d);
	free(rel);
	free(shown);
	return false;
}

/* An entry of programs/ that is a lesson: a folder, named without control
 * bytes, inside the repository and listable.  Anything that only looks
 * like one (a link loop, a link out, an unreadable folder) is reported. */
static bool lesson_entry(const char *fs, const char *name)
{
	char *path = xasprintf("%s/%s", fs, name);
	struct stat st, lst;
	int rc = stat(path, &st), err = errno;
	bool link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
	free(path);
	if (rc != 0) {
		if (link || err != ENOENT) { /* a link loop or a dangling link where a lesson was meant */
			char *shown = str_escape_controls(name);
			char *rel = xasprintf("programs/%s", shown);
			folder_problem(false, rel, "lesson folder", strerror(err));
			free(rel);
			free(shown);
		}
		return false;
	}
	if (!S_ISDIR(st.st_mode))
		return false;
	if (!lesson_name_ok(name))
		return false;
	char *rel = xasprintf("programs/%s", name), *lfs;
	bool bad;
	DIR *dir = open_folder(rel, true, "lesson folder", &lfs, &bad);
	free(rel);
	if (!dir)
		return false;
	closedir(dir);
	free(lfs);
	return true;
}

size_t course_lessons(char ***names)
{
	*names = NULL;
	char *fs;
	bool bad;
	DIR *dir = open_folder("programs", true, "folder", &fs, &bad);
	size_t n = 0, cap = 0;
	if (dir) {
		struct dirent *e;
		while ((e = readdir(dir)) != NULL) {
			if (!lessonfiles_is_lesson(e->d_name) || !lesson_entry(fs, e->d_name))
				continue;
			*names = xgrow(*names, &cap, n + 1, sizeof **names);
			(*names)[n++] = xstrdup(e->d_name);
		}
		closedir(dir);
	}
	free(fs);
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(*names, n, sizeof **names, by_name);
	return n;
}

char *course_lesson_program(const char *lesson, size_t *count)
{
	/* a lesson folder that is refused or cannot be listed is reported
	 * (once a run) before the lesson's own rule looks into it */
	*count = 0;
	char *rel = xasprintf("programs/%s", lesson);
	char *fs;
	bool bad;
	DIR *dir = strchr(lesson, '/') ? NULL : open_folder(rel, false, "lesson folder", &fs, &bad);
	free(rel);
	if (!dir)
		return NULL;
	closedir(dir);
	free(fs);
	size_t headed;
	return lessonfiles_program(lesson, count, &headed);
}

/* lessonfiles_collect_known()'s question: the program's source-sha256
 * when the course cache read and hashed these very bytes (an LF-only text
 * without a BOM is kept as read). */
static bool known_program_sha(const char *path, const char *data, size_t len, char sha[SHA256_HEX_LEN + 1],
			      void *arg)
{
	(void)arg;
	size_t at;
	if (!strmap_get(&program_index, path, strlen(path), &at))
		return false;
	const struct program *p = programs[at].live;
	if (!p || p->state != LOAD_OK || !p->resident || !p->sha_of_text || p->tf.had_bom || p->tf.had_cr ||
	    p->tf.len != len || memcmp(p->tf.data, data, len) != 0)
		return false;
	memcpy(sha, p->sha256, SHA256_HEX_LEN + 1);
	return true;
}

const struct lesson_files *course_lesson_files(const char *lesson, const char **why, bool *refused)
{
	size_t at;
	if (strmap_get(&lesson_files_index, lesson, strlen(lesson), &at)) {
		*why = lesson_files[at]->why;
		*refused = lesson_files[at]->rc == -2;
		return lesson_files[at]->rc == 0 ? &lesson_files[at]->f : NULL;
	}
	lesson_files = xgrow(lesson_files, &cap_lesson_files, n_lesson_files + 1, sizeof *lesson_files);
	struct lesson_files_entry *e = lesson_files[n_lesson_files] = xcalloc(1, sizeof *e);
	e->lesson = xstrdup(lesson);
	e->why = NULL;
	e->rc = lessonfiles_collect_known(lesson, &e->f, &e->why, known_program_sha, NULL);
	/* only the paths and hashes are asked for later: the bytes go now,
	 * or the cache would hold every lesson's files to the end */
	for (size_t i = 0; e->rc == 0 && i < e->f.n; i++) {
		free(e->f.v[i].data);
		e->f.v[i].data = NULL;
	}
	if (e->rc == 0 && e->f.n) /* and the array's room to grow */
		e->f.v = xrealloc(e->f.v, e->f.n * sizeof *e->f.v);
	strmap_add(&lesson_files_index, e->lesson, strlen(e->lesson), n_lesson_files, NULL);
	n_lesson_files++;
	*why = e->why;
	*refused = e->rc == -2;
	return e->rc == 0 ? &e->f : NULL;
}

size_t course_pages(char ***out)
{
	*out = NULL;
	char *fs;
	bool bad;
	size_t n = 0, cap = 0;
	DIR *dir = open_folder("pages", true, "folder", &fs, &bad);
	struct dirent *e;
	while (dir && (e = readdir(dir)) != NULL) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len < 4 || strcmp(e->d_name + len - 3, ".md") != 0)
			continue;
		*out = xgrow(*out, &cap, n + 1, sizeof **out);
		(*out)[n++] = xasprintf("pages/%s", e->d_name);
	}
	if (dir)
		closedir(dir);
	free(fs);
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(*out, n, sizeof **out, by_name);
	return n;
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

static void release_lesson_files(void)
{
	for (size_t i = 0; i < n_lesson_files; i++) {
		free(lesson_files[i]->lesson);
		free(lesson_files[i]->why);
		if (lesson_files[i]->rc == 0)
			lessonfiles_free(&lesson_files[i]->f);
		free(lesson_files[i]);
	}
	free(lesson_files);
	lesson_files = NULL;
	n_lesson_files = cap_lesson_files = 0;
	strmap_free(&lesson_files_index);
}

void course_release(void)
{
	generation++;
	for (size_t i = 0; i < n_programs; i++) {
		if (programs[i].live)
			drop_program(programs[i].live);
		free(programs[i].path);
	}
	free(in_use);
	in_use = NULL;
	n_in_use = cap_in_use = 0;
	free(programs);
	programs = NULL;
	n_programs = cap_programs = 0;
	strmap_free(&program_index);
	for (size_t i = 0; i < n_evfiles; i++) {
		struct evfile *e = evfiles[i];
		free(e->path);
		free(e->lesson);
		drop_tokens(e);
		evidence_free(&e->ev);
		free(e);
	}
	free(tokenised);
	tokenised = NULL;
	n_tokenised = cap_tokenised = 0;
	free(ev_in_use);
	ev_in_use = NULL;
	n_ev_in_use = cap_ev_in_use = 0;
	memset(ev_kept, 0, sizeof ev_kept);
	free(evfiles);
	evfiles = NULL;
	n_evfiles = cap_evfiles = 0;
	release_lesson_files();
	strmap_free(&evfile_index);
	for (size_t i = 0; i < n_reported; i++)
		free(reported[i]);
	free(reported);
	reported = NULL;
	n_reported = cap_reported = 0;
	strmap_free(&reported_index);
	for (size_t i = 0; i < n_opened; i++)
		free(opened[i]);
	free(opened);
	opened = NULL;
	n_opened = cap_opened = 0;
	strmap_free(&opened_index);
}
