/* capture_write.c - see capture_write.h. */

/* For renameat2(RENAME_NOREPLACE), the fallback where link(2) is not
 * supported (glibc declares it only under _GNU_SOURCE). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "capture_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evidence.h"
#include "repo.h"
#include "sha256.h"

#define MAX_SEQ 9999

void header_add(struct buf *header, const char *key, const char *value)
{
	buf_printf(header, "%s: %s\n", key, value);
}

char *evidence_compose(const struct buf *header, const struct transcript *out,
		       const struct transcript *err, size_t *len)
{
	struct buf body = {0};
	buf_printf(&body, "stdout: %zu\n", out->n_lines);
	buf_append(&body, out->text, out->len);
	buf_printf(&body, "stderr: %zu\n", err->n_lines);
	buf_append(&body, err->text, err->len);
	char digest[SHA256_HEX_LEN + 1];
	sha256_hex(body.s, body.len, digest);

	struct buf all = {0};
	buf_puts(&all, EVIDENCE_MAGIC "\n");
	buf_append(&all, header->s ? header->s : "", header->len);
	header_add(&all, "body-sha256", digest);
	buf_append(&all, body.s, body.len);
	buf_free(&body);
	*len = all.len;
	return buf_detach(&all);
}

/* ---- the folder ---- */

static void sync_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* Makes path a folder if it is not one.  *made tells whether it was made. */
static int ensure_dir(const char *path, const char *shown, int *made, char **why)
{
	*made = 0;
	if (mkdir(path, 0777) == 0) {
		*made = 1;
		return 0;
	}
	int e = errno;
	struct stat st;
	if (e == EEXIST && stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return 0;
		e = ENOTDIR;
	}
	*why = xasprintf("cannot make the folder %s: %s", shown, strerror(e));
	return -1;
}

/* evidence/LESSON as a file-system path, made when missing and checked to
 * lie inside the repository (no link may lead it elsewhere). */
static char *evidence_dir(const char *lesson, char **why)
{
	char *top = xasprintf("%s/evidence", repo_root());
	char *dir = xasprintf("%s/%s", top, lesson);
	char *shown = xasprintf("evidence/%s/", lesson);
	int made_top, made_dir;
	char *fs = NULL;
	const char *reason;
	if (ensure_dir(top, "evidence/", &made_top, why) == 0 && ensure_dir(dir, shown, &made_dir, why) == 0) {
		if (made_top)
			sync_dir(repo_root());
		if (made_dir)
			sync_dir(top);
		if (repo_resolve(shown, &fs, &reason) != REPO_OK)
			*why = xasprintf("cannot write in %s: %s", shown, reason);
	}
	free(top);
	free(shown);
	if (!fs) {
		free(dir);
		return NULL;
	}
	free(fs);
	return dir;
}

/* ---- the file ---- */

static int write_all(int fd, const char *text, size_t len)
{
	while (len) {
		ssize_t n = write(fd, text, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		text += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Writes the temporary file and flushes it to disk.  Returns its path, or
 * NULL with *why (and nothing left behind). */
static char *write_temp(const char *dir, const char *shown_dir, const char *text, size_t len, char **why)
{
	char *tmp = xasprintf("%s/.tmp-run-XXXXXX", dir);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		*why = xasprintf("cannot create a file in %s: %s", shown_dir, strerror(errno));
		free(tmp);
		return NULL;
	}
	int bad = fchmod(fd, 0644) != 0 || write_all(fd, text, len) != 0 || fsync(fd) != 0;
	int e = errno;
	if (close(fd) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	if (bad) {
		*why = xasprintf("cannot write a file in %s: %s", shown_dir, strerror(e));
		unlink(tmp);
		free(tmp);
		return NULL;
	}
	return tmp;
}

/* Gives tmp the name final unless final exists.  0 on success, else the
 * errno (EEXIST: taken, try the next name).  *moved: tmp is gone (renamed,
 * not linked), so it must not be unlinked: another capture's temporary
 * file could by then hold that name. */
static int place(const char *tmp, const char *final, int *moved)
{
	*moved = 0;
	if (link(tmp, final) == 0)
		return 0;
	int e = errno;
#ifdef RENAME_NOREPLACE
	/* File systems without hard links still refuse to clobber here. */
	if (e == EPERM || e == ENOTSUP || e == EOPNOTSUPP || e == ENOSYS) {
		if (renameat2(AT_FDCWD, tmp, AT_FDCWD, final, RENAME_NOREPLACE) == 0) {
			*moved = 1;
			return 0;
		}
		e = errno;
	}
#endif
	return e;
}

int evidence_write_new(const char *lesson, const char *date, const char *text, size_t len, char **relpath,
		       char **why)
{
	char *dir = evidence_dir(lesson, why);
	if (!dir)
		return -1;
	char *shown_dir = xasprintf("evidence/%s/", lesson);
	char *tmp = write_temp(dir, shown_dir, text, len, why);
	int result = -1, moved = 0;
	for (int seq = 1; tmp && seq <= MAX_SEQ; seq++) {
		char *name = seq == 1 ? xasprintf("run-%s.txt", date) : xasprintf("run-%s-%d.txt", date, seq);
		char *final = xasprintf("%s/%s", dir, name);
		int e = place(tmp, final, &moved);
		if (e == 0) {
			*relpath = xasprintf("evidence/%s/%s", lesson, name);
			result = 0;
		} else if (e != EEXIST) {
			*why = xasprintf("cannot name the file %s%s: %s", shown_dir, name, strerror(e));
		}
		free(name);
		free(final);
		if (e != EEXIST)
			break;
		if (seq == MAX_SEQ)
			*why = xasprintf("%s already holds %d evidence files dated %s", shown_dir, MAX_SEQ, date);
	}
	if (tmp && !moved)
		unlink(tmp); /* linked: the file lives on under its final name */
	free(tmp);
	if (result == 0)
		sync_dir(dir);
	free(dir);
	free(shown_dir);
	return result;
}
