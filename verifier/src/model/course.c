/* course.c - see course.h: the model's life, resolving through the
 * listings, the folders, the listings and the lessons (course_impl.h
 * says how the model is split). */
#include "course_impl.h"

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
#include "shared_slots.h"
#include "strmap.h"
#include "util.h"

/* The model of this run (course_open); NULL before. */
struct course *course_cur;

/* ---- resolving: the listings answer for the files they found ---- */

static void need_evidence_probe(struct course *c);
static void need_programs(struct course *c);

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
	struct course *c = course_model();
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

/* ---- folders ---- */

static bool report_once(const char *rel)
{
	struct course *c = course_cur;
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
DIR *course_probe_folder(const char *rel, bool required, struct folder *f, char **fspath)
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
bool course_folder_report(const char *rel, const char *what, const struct folder *f)
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
	struct course *c = course_cur;
	char **paths, **loose = NULL;
	bool *regular;
	size_t n_loose = 0;
	/* a folder the private-key scan would pass over (hidden, a run's or
	 * signature's name, a control byte) gives no loose files */
	const char *name = strrchr(rel, '/');
	bool scanned = repo_evidence_loose_name(name ? name + 1 : rel);
	size_t n = repo_list_runs_loose(dir, rel, &paths, &regular, scanned ? &loose : NULL, &n_loose);
	for (size_t i = 0; i < n_loose; i++) {
		c->evidence_loose = xgrow(c->evidence_loose, &c->cap_evidence_loose, c->n_evidence_loose + 1,
					  sizeof *c->evidence_loose);
		c->evidence_loose[c->n_evidence_loose++] = loose[i];
	}
	free(loose);
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
char *course_lesson_name(struct course *c, const char *lesson)
{
	size_t at;
	return c->entry_sorted && entry_find(c, lesson, &at) ? c->entries[at].name : NULL;
}

static struct lesson_runs *add_runs(struct course *c, const char *lesson)
{
	struct lesson_runs *r = xcalloc(1, sizeof *r);
	r->lesson = course_lesson_name(c, lesson);
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
	struct course *c = course_model();
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
	DIR *dir = course_probe_folder(rel, false, &r->folder, &fs);
	if (dir)
		list_runs(r, rel, dir);
	free(fs);
	free(rel);
	return r;
}

bool course_evidence_loose_files(char *const **paths, size_t *n)
{
	struct course *c = course_cur; /* asked, never loaded for it */
	*paths = c ? c->evidence_loose : NULL;
	*n = c ? c->n_evidence_loose : 0;
	return c && c->evidence_listed;
}

size_t course_list_evidence(const char *lesson, char ***paths)
{
	const struct lesson_runs *r = runs_of(lesson);
	*paths = r->n ? xmalloc(r->n * sizeof **paths) : NULL;
	for (size_t i = 0; i < r->n; i++)
		(*paths)[i] = xstrdup(r->paths[i]);
	return r->n;
}

char *course_newest_evidence(const char *lesson)
{
	const struct lesson_runs *r = runs_of(lesson);
	return r->n ? xstrdup(r->paths[r->n - 1]) : NULL;
}

bool course_evidence_folder_usable(const char *lesson)
{
	struct course *c = course_model();
	need_evidence_probe(c);
	/* each folder's answer is reported at the first ask, as when it was
	 * opened here (folder_usable) */
	if (!c->evidence_asked) {
		c->evidence_asked = true;
		c->evidence_usable = course_folder_report("evidence", "folder", &c->evidence_dir);
	}
	if (!c->evidence_usable)
		return false;
	if (strchr(lesson, '/'))
		return true;
	struct lesson_runs *r = runs_of(lesson);
	if (!r->asked) {
		r->asked = true;
		char *rel = xasprintf("evidence/%s", lesson);
		r->usable = course_folder_report(rel, "evidence folder", &r->folder);
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
	DIR *dir = course_probe_folder("evidence", false, &c->evidence_dir, &fs);
	if (!dir)
		return;
	int dfd = dirfd(dir);
	struct dirent *e;
	while ((e = readdir(dir)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (e->d_type != DT_DIR) {
			if (e->d_type == DT_REG && repo_evidence_loose_name(e->d_name)) {
				c->evidence_loose = xgrow(c->evidence_loose, &c->cap_evidence_loose,
							  c->n_evidence_loose + 1, sizeof *c->evidence_loose);
				c->evidence_loose[c->n_evidence_loose++] = xasprintf("evidence/%s", e->d_name);
			}
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
	DIR *dir = course_probe_folder("evidence", false, &c->evidence_dir, &fs);
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
		DIR *d = course_probe_folder(rel, true, &f, &lfs);
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
	struct course *c = course_model();
	need_programs(c);
	*names = NULL;
	course_folder_report("programs", "folder", &c->programs_dir);
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
	struct course *c = course_model();
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

/* ---- pages ---- */

size_t course_pages(char ***out)
{
	struct course *c = course_model();
	course_need_pages(c);
	course_folder_report("pages", "folder", &c->pages_dir);
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
	DIR *dir = course_probe_folder("pages", true, &c->pages_dir, &fs);
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
	DIR *dir = course_probe_folder("programs", true, &c->programs_dir, &c->programs_fs);
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

void course_need_pages(struct course *c)
{
	if (!c->pages_listed)
		load_pages(c);
}

static void need_programs(struct course *c)
{
	if (!c->programs_listed)
		load_programs(c);
}

/* ---- the model's life ---- */

void course_open(void)
{
	if (course_cur)
		return;
	course_cur = xcalloc(1, sizeof *course_cur);
	course_cur->ev_kept.n = EV_KEPT;
	course_cur->prog_kept.n = PROG_KEPT;
	course_cur->lf_kept.n = LF_KEPT;
}

void course_load(void)
{
	course_open();
	course_need_pages(course_cur);
	need_programs(course_cur);
	course_need_common(course_cur);
	if (!course_cur->evidence_listed)
		load_evidence_dir(course_cur);
}

struct course *course_model(void)
{
	if (!course_cur)
		course_load();
	return course_cur;
}

static void release_listings(struct course *c)
{
	free(c->pages_dir.why);
	free(c->programs_dir.why);
	free(c->evidence_dir.why);
	free(c->programs_fs);
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
	repo_free_list(c->evidence_loose, c->n_evidence_loose);
	strmap_free(&c->evidence_entry);
	for (size_t i = 0; i < c->n_reported; i++)
		free(c->reported[i]);
	free(c->reported);
	strmap_free(&c->reported_index);
}

void course_release(void)
{
	struct course *c = course_cur;
	if (!c)
		return;
	course_release_files(c);
	course_release_facts(c);
	release_listings(c);
	free(c);
	course_cur = NULL;
}

