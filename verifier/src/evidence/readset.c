/* readset.c - see readset.h: what a run read, recorded and judged. */
#include "readset.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srctok.h"
#include "strmap.h"

/* path with "." and ".." folded and repeated slashes made one (the
 * copies hold no links, so the folding is what the file system does). */
static char *fold(const char *path)
{
	size_t n = strlen(path);
	char *out = xmalloc(n + 2);
	size_t o = 0;
	bool abs = path[0] == '/';
	const char *p = path;
	while (*p) {
		while (*p == '/')
			p++;
		const char *e = strchr(p, '/');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == 0)
			break;
		if (len == 1 && p[0] == '.') {
			/* nothing */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			while (o > 0 && out[o - 1] != '/')
				o--;
			if (o > 0)
				o--;
		} else {
			if (o > 0 || abs)
				out[o++] = '/';
			memcpy(out + o, p, len);
			o += len;
		}
		p += len;
	}
	if (o == 0 && abs)
		out[o++] = '/';
	out[o] = '\0';
	return out;
}

/* The index of the lesson file that abs (folded, absolute) is, by its
 * place below top (paths: the lesson's paths, each to its index);
 * SIZE_MAX when none. */
static size_t file_at(const struct strmap *paths, const char *abs, const char *top)
{
	size_t tl = strlen(top);
	if (strncmp(abs, top, tl) != 0 || abs[tl] != '/')
		return SIZE_MAX;
	char *rel = xasprintf("programs/%s", abs + tl + 1);
	size_t at;
	if (!strmap_get(paths, rel, strlen(rel), &at))
		at = SIZE_MAX;
	free(rel);
	return at;
}

/* A path of the dependency output as a lesson file: absolute, or relative
 * to the lesson folder, or to a folder below it (its leading ../ taken
 * one at a time: CMake compiles in b/). */
static size_t resolve(const struct strmap *paths, const char *dep, const char *top, const char *rtop,
		      const char *workdir)
{
	size_t at = SIZE_MAX;
	const char *d = dep;
	do {
		char *joined = d[0] == '/' ? xstrdup(d) : xasprintf("%s/%s", workdir, d);
		char *abs = fold(joined);
		at = file_at(paths, abs, top);
		if (at == SIZE_MAX && rtop)
			at = file_at(paths, abs, rtop);
		free(abs);
		free(joined);
		if (d[0] == '/' || strncmp(d, "../", 3) != 0)
			break;
		d += 3;
	} while (at == SIZE_MAX);
	return at;
}

/* Marks each lesson file the make rules of deps name.  Words are split at
 * blank space; a backslash escapes the next byte ("\ " is a space in a
 * name, backslash-newline a continuation); a word ending in ':' is a
 * target. */
static void mark_deps(const struct lesson_files *f, const char *deps, size_t len, const char *top,
		      const char *workdir, bool *read)
{
	char *rtop = realpath(top, NULL);
	struct strmap paths = {0}, seen = {0};
	for (size_t i = 0; i < f->n; i++)
		strmap_add(&paths, f->v[i].path, strlen(f->v[i].path), i, NULL);
	struct buf w = {0};
	size_t start = 0;
	bool escaped = false;
	for (size_t i = 0; i <= len; i++) {
		char c = i < len ? deps[i] : ' ';
		if (c == '\\' && i + 1 < len && deps[i + 1] != '\n' && deps[i + 1] != '\r') {
			buf_putc(&w, deps[++i]);
			escaped = true;
			continue;
		}
		if (c == '\\')
			c = ' ';
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
			if (!w.len)
				start = i;
			buf_putc(&w, c);
			continue;
		}
		/* every compile names its headers again: each word resolved once
		 * (a word without escapes is its own bytes of deps, a stable key) */
		bool again = !escaped && w.len && !strmap_add(&seen, deps + start, w.len, 0, NULL);
		if (w.len && !again && w.s[w.len - 1] != ':') {
			size_t at = resolve(&paths, w.s, top, rtop, workdir);
			if (at != SIZE_MAX)
				read[at] = true;
		}
		w.len = 0;
		escaped = false;
	}
	buf_free(&w);
	strmap_free(&paths);
	strmap_free(&seen);
	free(rtop);
}

static void set_hash(struct readset *r, const struct lesson_files *f)
{
	struct buf b = {0};
	for (size_t k = 0; k < r->n; k++)
		buf_printf(&b, "%s %s\n", f->v[r->files[k]].path, f->v[r->files[k]].tsha);
	sha256_hex(b.s ? b.s : "", b.len, r->sha);
	buf_free(&b);
}

void readset_all(struct readset *r, const struct lesson_files *f)
{
	memset(r, 0, sizeof *r);
	r->files = xcalloc(f->n ? f->n : 1, sizeof *r->files);
	for (size_t i = 0; i < f->n; i++)
		r->files[r->n++] = i;
	r->method = READSET_ALL;
	set_hash(r, f);
}

void readset_from_deps(struct readset *r, const struct lesson_files *f, const char *deps, size_t len,
		       const char *top, const char *workdir)
{
	bool *read = xcalloc(f->n ? f->n : 1, sizeof *read);
	if (deps && len <= READSET_MAX_DEPS)
		mark_deps(f, deps, len, top, workdir, read);
	bool any = false;
	for (size_t i = 0; i < f->n; i++)
		any |= read[i] && srctok_is_source(f->v[i].path);
	if (!any) {
		free(read);
		readset_all(r, f);
		return;
	}
	memset(r, 0, sizeof *r);
	r->files = xcalloc(f->n, sizeof *r->files);
	for (size_t i = 0; i < f->n; i++)
		if (read[i] || i == f->program || !srctok_is_source(f->v[i].path))
			r->files[r->n++] = i;
	r->method = READSET_DEPS;
	set_hash(r, f);
	free(read);
}

void readset_free(struct readset *r)
{
	free(r->files);
	memset(r, 0, sizeof *r);
}

void readset_header(struct buf *h, const struct readset *r, const struct lesson_files *f)
{
	buf_printf(h, READSET_RULE_KEY ": " SRCTOK_RULE "\n" READSET_METHOD_KEY ": %s\n", r->method);
	for (size_t k = 0; k < r->n; k++)
		buf_printf(h, LESSONFILES_KEY "%zu: %s %s\n", k + 1, f->v[r->files[k]].path, f->v[r->files[k]].tsha);
}

bool readset_recorded(const struct evidence *ev)
{
	const char *rule = evidence_get(ev, READSET_RULE_KEY, NULL);
	return rule && strcmp(rule, SRCTOK_RULE) == 0;
}

static size_t find_file(const struct lesson_files *f, const char *path)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->v[i].path, path) == 0)
			return i;
	return SIZE_MAX;
}

static bool recorded(const struct lessonfiles_entry *rec, size_t n, const char *path)
{
	for (size_t k = 0; k < n; k++)
		if (strcmp(rec[k].path, path) == 0)
			return true;
	return false;
}

char *readset_changed(const struct evidence *ev, const struct lesson_files *f, size_t *line,
		      char now[SHA256_HEX_LEN + 1])
{
	struct lessonfiles_entry *rec;
	size_t n = lessonfiles_entries(ev, &rec), method_line = 0;
	const char *method = evidence_get(ev, READSET_METHOD_KEY, &method_line);
	bool all = !method || strcmp(method, READSET_DEPS) != 0;
	char *said = NULL;
	struct buf b = {0};
	for (size_t k = 0; k < n; k++) {
		size_t i = find_file(f, rec[k].path);
		if (i != SIZE_MAX)
			buf_printf(&b, "%s %s\n", f->v[i].path, f->v[i].tsha);
		if (said)
			continue;
		if (i == SIZE_MAX)
			said = xasprintf("'%s' is gone", rec[k].path);
		else if (strcmp(f->v[i].tsha, rec[k].sha) != 0)
			said = xasprintf("'%s' changed", rec[k].path);
		if (said)
			*line = rec[k].line;
	}
	sha256_hex(b.s ? b.s : "", b.len, now);
	buf_free(&b);
	for (size_t i = 0; i < f->n && !said; i++) {
		if (recorded(rec, n, f->v[i].path) || (!all && srctok_is_source(f->v[i].path)))
			continue;
		said = xasprintf("'%s' is new", f->v[i].path);
		*line = method_line ? method_line : *line;
	}
	const char *was = evidence_get(ev, "source-sha256", NULL);
	if (!said && (!was || strcmp(was, now) != 0))
		said = xstrdup("source-sha256 is not the hash of the recorded files");
	lessonfiles_entries_free(rec, n);
	return said;
}
