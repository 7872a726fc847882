/* course.c - see course.h. */
#include "course.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lessonfiles.h"
#include "re.h"
#include "repo.h"
#include "util.h"

static struct program **programs;
static size_t n_programs, cap_programs;
static struct evfile **evfiles;
/* course_lesson_files()'s cache */
struct lesson_files_entry {
	char *lesson;
	struct lesson_files f;
	char *why;
	int rc;
};
static struct lesson_files_entry *lesson_files;
static size_t n_lesson_files, cap_lesson_files;
static size_t n_evfiles, cap_evfiles;

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

struct program *course_program(const char *relpath)
{
	for (size_t i = 0; i < n_programs; i++)
		if (strcmp(programs[i]->path, relpath) == 0)
			return programs[i];
	struct program *p = xcalloc(1, sizeof *p);
	p->path = xstrdup(relpath);
	programs = xgrow(programs, &cap_programs, n_programs + 1, sizeof *programs);
	programs[n_programs++] = p;

	char *fs;
	p->state = resolve(relpath, &fs, &p->why);
	if (p->state != LOAD_OK)
		return p;
	if (textfile_read(fs, relpath, &p->tf, &p->why) != 0) {
		p->state = LOAD_MISSING;
		free(fs);
		return p;
	}
	free(fs);
	snippet_scan(&p->tf, true, &p->snippets);
	proghdr_parse(&p->tf, &p->hdr);
	proghdr_source_sha256(&p->tf, p->sha256);
	return p;
}

static char *lesson_of_path(const char *relpath)
{
	/* evidence/LESSON/run-....txt */
	if (strncmp(relpath, "evidence/", 9) != 0)
		return xstrdup("");
	const char *a = relpath + 9, *slash = strchr(a, '/');
	return slash ? xstrndup(a, (size_t)(slash - a)) : xstrdup("");
}

struct evfile *course_evidence(const char *relpath)
{
	for (size_t i = 0; i < n_evfiles; i++)
		if (strcmp(evfiles[i]->path, relpath) == 0)
			return evfiles[i];
	struct evfile *e = xcalloc(1, sizeof *e);
	e->path = xstrdup(relpath);
	e->lesson = lesson_of_path(relpath);
	evfiles = xgrow(evfiles, &cap_evfiles, n_evfiles + 1, sizeof *evfiles);
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
	return e;
}

bool course_report_unusable(enum load_state state, const char *why, const char *path, struct diag_loc at,
			    const char *what)
{
	if (state == LOAD_OK || state == LOAD_MALFORMED)
		return false;
	enum diag_kind kind = state == LOAD_REFUSED ? D_PATH_REFUSED
			      : why == textfile_too_large ? D_FILE_TOO_LARGE
							  : D_FILE_UNREADABLE;
	struct diag *d = diag_begin(kind, at,
				    "%s '%s' %s: %s", what, path, state == LOAD_REFUSED ? "is refused" : "cannot be read",
				    why);
	if (state == LOAD_REFUSED)
		diag_hint(d, "name files by their path from the repository root, inside the repository");
	diag_end(d);
	return true;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t course_lessons(char ***names)
{
	*names = NULL;
	char *fs;
	const char *why;
	if (repo_resolve("programs", &fs, &why) != REPO_OK)
		return 0;
	DIR *dir = opendir(fs);
	size_t n = 0, cap = 0;
	if (dir) {
		struct dirent *e;
		while ((e = readdir(dir)) != NULL) {
			if (!lessonfiles_is_lesson(e->d_name))
				continue;
			char *path = xasprintf("%s/%s", fs, e->d_name);
			struct stat st;
			if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
				*names = xgrow(*names, &cap, n + 1, sizeof **names);
				(*names)[n++] = xstrdup(e->d_name);
			}
			free(path);
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
	size_t headed;
	return lessonfiles_program(lesson, count, &headed);
}

const struct lesson_files *course_lesson_files(const char *lesson, const char **why, bool *refused)
{
	for (size_t i = 0; i < n_lesson_files; i++)
		if (strcmp(lesson_files[i].lesson, lesson) == 0) {
			*why = lesson_files[i].why;
			*refused = lesson_files[i].rc == -2;
			return lesson_files[i].rc == 0 ? &lesson_files[i].f : NULL;
		}
	lesson_files = xgrow(lesson_files, &cap_lesson_files, n_lesson_files + 1, sizeof *lesson_files);
	struct lesson_files_entry *e = &lesson_files[n_lesson_files++];
	e->lesson = xstrdup(lesson);
	e->why = NULL;
	e->rc = lessonfiles_collect(lesson, &e->f, &e->why);
	*why = e->why;
	*refused = e->rc == -2;
	return e->rc == 0 ? &e->f : NULL;
}

size_t course_pages(char ***out)
{
	*out = NULL;
	char *fs;
	const char *why;
	size_t n = 0, cap = 0;
	if (repo_resolve("pages", &fs, &why) != REPO_OK)
		return 0;
	DIR *dir = opendir(fs);
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
		free(lesson_files[i].lesson);
		free(lesson_files[i].why);
		if (lesson_files[i].rc == 0)
			lessonfiles_free(&lesson_files[i].f);
	}
	free(lesson_files);
	lesson_files = NULL;
	n_lesson_files = cap_lesson_files = 0;
}

void course_release(void)
{
	for (size_t i = 0; i < n_programs; i++) {
		struct program *p = programs[i];
		free(p->path);
		textfile_free(&p->tf);
		snippet_set_free(&p->snippets);
		proghdr_free(&p->hdr);
		free(p);
	}
	free(programs);
	programs = NULL;
	n_programs = cap_programs = 0;
	for (size_t i = 0; i < n_evfiles; i++) {
		struct evfile *e = evfiles[i];
		free(e->path);
		free(e->lesson);
		evidence_free(&e->ev);
		free(e);
	}
	free(evfiles);
	evfiles = NULL;
	n_evfiles = cap_evfiles = 0;
	release_lesson_files();
}
