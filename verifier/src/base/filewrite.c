/* filewrite.c - see filewrite.h. */

/* O_TMPFILE, AT_EMPTY_PATH and renameat2(RENAME_NOREPLACE) are declared
 * only under _GNU_SOURCE. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "filewrite.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repo.h"
#include "textfile.h"
#include "util.h"

/* ---- owners ---- */

/* Field 22 of /proc/PID/stat (the start time) and the state letter.
 * False when the file cannot be read. */
static bool read_stat(long pid, char *state, unsigned long long *start)
{
	char path[64], text[1024];
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, text, sizeof text - 1);
	close(fd);
	if (n <= 0)
		return false;
	text[n] = '\0';
	/* The command name, field 2, may hold spaces and ')': skip to the last ')'. */
	char *p = strrchr(text, ')');
	if (!p)
		return false;
	*state = p[2];
	p += 2;
	for (int field = 3; field < 22 && p; field++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	*start = p ? strtoull(p, NULL, 10) : 0;
	return p != NULL;
}

const char *filewrite_owner(void)
{
	static char token[64];
	if (!token[0]) {
		char state;
		unsigned long long start = 0;
		if (!read_stat((long)getpid(), &state, &start))
			start = 0;
		snprintf(token, sizeof token, "%ld-%llu", (long)getpid(), start);
	}
	return token;
}

bool filewrite_owner_parse(const char *s, long *pid, unsigned long long *start, const char **end)
{
	char *e;
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	long p = strtol(s, &e, 10);
	if (errno || p <= 0 || *e != '-' || e[1] < '0' || e[1] > '9')
		return false;
	unsigned long long st = strtoull(e + 1, &e, 10);
	if (errno || (*e != '-' && *e != '\0'))
		return false;
	*pid = p;
	*start = st;
	*end = e;
	return true;
}

bool filewrite_owner_gone(long pid, unsigned long long start)
{
	if (pid == (long)getpid())
		return false;
	char state;
	unsigned long long now;
	if (read_stat(pid, &state, &now))
		return state == 'Z' || state == 'X' || (start && now != start);
	/* No /proc entry: gone, unless /proc itself cannot be read. */
	if (access("/proc/self/stat", R_OK) == 0)
		return true;
	return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

size_t filewrite_sweep(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t removed = 0, pre = strlen(FILEWRITE_TMP_PREFIX);
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		long pid;
		unsigned long long start;
		const char *rest;
		if (strncmp(e->d_name, FILEWRITE_TMP_PREFIX, pre) != 0 ||
		    !filewrite_owner_parse(e->d_name + pre, &pid, &start, &rest) || !filewrite_owner_gone(pid, start))
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) == 0)
			removed++;
	}
	closedir(d);
	return removed;
}

/* ---- pieces ---- */

static void sync_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A fresh temporary name in dir: the owner makes it unique among
 * processes, the counter within this one. */
static char *temp_name(const char *dir)
{
	static unsigned long counter;
	return xasprintf("%s/" FILEWRITE_TMP_PREFIX "%s-%lu", dir, filewrite_owner(), ++counter);
}

static bool anonymous_allowed(void)
{
	const char *off = getenv("COURSECHECK_NO_O_TMPFILE");
	return !(off && *off && strcmp(off, "0") != 0);
}

/* The file being written: an anonymous one (tmp NULL) where the file
 * system allows, else a named temporary (tmp set, malloc'd). */
struct temp {
	int fd;
	char *tmp;
};

static int temp_open(const char *dir, struct temp *t)
{
	t->tmp = NULL;
#ifdef O_TMPFILE
	if (anonymous_allowed()) {
		t->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
		if (t->fd >= 0)
			return 0;
		/* EISDIR, EOPNOTSUPP: no O_TMPFILE here; other errors show again below. */
	}
#endif
	for (int tries = 0; tries < 100; tries++) {
		t->tmp = temp_name(dir);
		t->fd = open(t->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (t->fd >= 0)
			return 0;
		int e = errno;
		free(t->tmp);
		t->tmp = NULL;
		if (e != EEXIST) {
			errno = e;
			return -1;
		}
	}
	errno = EEXIST;
	return -1;
}

/* Removes a named temporary and frees the state (the fd is closed). */
static void temp_discard(struct temp *t)
{
	if (t->fd >= 0)
		close(t->fd);
	if (t->tmp)
		unlink(t->tmp);
	free(t->tmp);
	t->fd = -1;
	t->tmp = NULL;
}

/* Fills the temporary: mode, data, and fsync before it gets any name. */
static int temp_fill(struct temp *t, mode_t mode, const char *data, size_t len)
{
	if (fchmod(t->fd, mode) != 0 || write_all(t->fd, data, len) != 0 || fsync(t->fd) != 0)
		return -1;
	return 0;
}

/* Links the anonymous file t->fd as final.  0, or the errno. */
static int link_anonymous(int fd, const char *final)
{
	if (linkat(fd, "", AT_FDCWD, final, AT_EMPTY_PATH) == 0)
		return 0;
	if (errno == EEXIST)
		return EEXIST;
	/* AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc's link to the fd
	 * does the same for anyone. */
	char proc[64];
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	return linkat(AT_FDCWD, proc, AT_FDCWD, final, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
}

/* Gives the temporary the name final unless final exists.  0, or the
 * errno (EEXIST: taken).  *moved: a named temporary was renamed, not
 * linked, and is gone. */
static int take_name(const struct temp *t, const char *final, bool *moved)
{
	*moved = false;
	if (!t->tmp)
		return link_anonymous(t->fd, final);
	if (link(t->tmp, final) == 0)
		return 0;
	int e = errno;
#ifdef RENAME_NOREPLACE
	/* File systems without hard links still refuse to clobber here. */
	if (e == EPERM || e == ENOTSUP || e == EOPNOTSUPP || e == ENOSYS) {
		if (renameat2(AT_FDCWD, t->tmp, AT_FDCWD, final, RENAME_NOREPLACE) == 0) {
			*moved = true;
			return 0;
		}
		e = errno;
	}
#endif
	return e;
}

/* ---- a new file ---- */

int filewrite_new(const char *dir, const char *shown, const char *data, size_t len, filewrite_namer namer,
		  void *arg, char **name, char **why)
{
	return filewrite_new_mode(dir, shown, data, len, 0644, namer, arg, name, why);
}

int filewrite_new_mode(const char *dir, const char *shown, const char *data, size_t len, unsigned mode,
		       filewrite_namer namer, void *arg, char **name, char **why)
{
	filewrite_sweep(dir);
	struct temp t;
	if (temp_open(dir, &t) != 0) {
		*why = xasprintf("cannot create a file in %s: %s", shown, strerror(errno));
		return -1;
	}
	if (temp_fill(&t, (mode_t)mode, data, len) != 0) {
		*why = xasprintf("cannot write a file in %s: %s", shown, strerror(errno));
		temp_discard(&t);
		return -1;
	}
	int result = -1;
	for (int seq = 1; result != 0; seq++) {
		char *try = namer(seq, arg);
		if (!try) {
			*why = xasprintf("%s has no free name left for the file", shown);
			break;
		}
		char *final = xasprintf("%s/%s", dir, try);
		bool moved;
		int e = take_name(&t, final, &moved);
		free(final);
		if (e == 0) {
			*name = try;
			result = 0;
			if (moved) { /* the temporary's name is gone: another writer's may take it */
				free(t.tmp);
				t.tmp = NULL;
			}
			break;
		}
		if (e != EEXIST) {
			*why = xasprintf("cannot name the file %s%s: %s", shown, try, strerror(e));
			free(try);
			break;
		}
		free(try);
	}
	temp_discard(&t); /* the file lives on under its final name */
	if (result == 0)
		sync_dir(dir);
	return result;
}

/* ---- replacing a file ---- */

/* The folder part of a path ("." for a bare name), malloc'd. */
static char *folder_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	return slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}

/* Where a replace writes: path itself, or the file a link leads to.
 * Sets *mode (kept, or 0644 for a new file), *st_known and *st.
 * Returns the target (malloc'd), or NULL with *why. */
static char *replace_target(const char *path, const char *shown, bool follow, mode_t *mode, struct stat *st,
			    bool *exists, char **why)
{
	struct stat lst;
	char *target;
	bool found = lstat(path, &lst) == 0;
	if (!found && errno != ENOENT) {
		*why = xasprintf("cannot write %s: %s", shown, strerror(errno));
		return NULL;
	}
	/* a link not followed is replaced like a missing file: the new file takes its name */
	if (!found || (!follow && S_ISLNK(lst.st_mode))) {
		*exists = false;
		*mode = 0644;
		return xstrdup(path);
	}
	if (S_ISLNK(lst.st_mode)) {
		target = realpath(path, NULL); /* written through: the link stays a link */
		if (!target) {
			*why = xasprintf("cannot write %s: it is a symbolic link to a file that cannot be reached: %s", shown,
					 strerror(errno));
			return NULL;
		}
	} else {
		target = xstrdup(path);
	}
	if (stat(target, st) != 0 || !S_ISREG(st->st_mode)) {
		*why = stat(target, st) != 0 ? xasprintf("cannot write %s: %s", shown, strerror(errno))
					     : xasprintf("cannot write %s: it is not a regular file", shown);
		free(target);
		return NULL;
	}
	if (st->st_nlink > 1) {
		*why = xasprintf("cannot write %s: it has %lu hard links, and replacing it would part them "
				 "(make it a single file, or a symbolic link, first)",
				 shown, (unsigned long)st->st_nlink);
		free(target);
		return NULL;
	}
	*exists = true;
	*mode = st->st_mode & 07777;
	return target;
}

/* put_over's answer when the target no longer holds the text expected
 * (errno values are positive). */
#define CHANGED (-1)

/* What a replace expects to find at its target: the text the caller
 * read, or NULL for anything. */
struct expect {
	const char *data;
	size_t len;
	size_t now; /* the length found, where it differed */
};

/* Whether the file at path holds want's text, read as the caller read
 * it (textfile_read: a BOM and CRs do not count).  When it does not,
 * want->now is set to the length of what it holds. */
static bool holds(const char *path, struct expect *want)
{
	struct textfile tf;
	const char *why;
	want->now = 0;
	if (textfile_read(path, path, &tf, &why) != 0)
		return false;
	bool same = tf.len == want->len && memcmp(tf.data, want->data, want->len) == 0;
	want->now = tf.len;
	textfile_free(&tf);
	return same;
}

/* Puts the temporary in target's place where target still holds want's
 * text.  The text is compared just before, and, where the file system
 * can swap two names at once (RENAME_EXCHANGE), again on the very file
 * swapped out, which is swapped back when it differs: an edit saved in
 * the instant between the look and the rename is not lost either.
 * 0, CHANGED when the target changed, or the errno. */
static int swap_checked(struct temp *t, const char *target, struct expect *want)
{
	if (!holds(target, want))
		return CHANGED;
#ifdef RENAME_EXCHANGE
	if (renameat2(AT_FDCWD, t->tmp, AT_FDCWD, target, RENAME_EXCHANGE) == 0) {
		if (holds(t->tmp, want))
			return 0; /* t->tmp, now the old file, is removed by temp_discard */
		if (renameat2(AT_FDCWD, t->tmp, AT_FDCWD, target, RENAME_EXCHANGE) != 0)
			return errno;
		return CHANGED;
	}
	if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP && errno != EOPNOTSUPP)
		return errno;
#endif
	if (rename(t->tmp, target) != 0)
		return errno;
	free(t->tmp);
	t->tmp = NULL;
	return 0;
}

/* Renames the filled temporary over target (where it still holds want's
 * text, when want is not NULL).  An anonymous file is linked to a
 * temporary name first (rename needs a name).  0, CHANGED, or the errno. */
static int put_over(struct temp *t, const char *dir, const char *target, struct expect *want)
{
	if (!t->tmp) {
		for (int tries = 0; tries < 100 && !t->tmp; tries++) {
			char *name = temp_name(dir);
			int e = link_anonymous(t->fd, name);
			if (e == 0)
				t->tmp = name;
			else
				free(name);
			if (e && e != EEXIST)
				return e;
		}
		if (!t->tmp)
			return EEXIST;
	}
	if (want)
		return swap_checked(t, target, want);
	if (rename(t->tmp, target) != 0)
		return errno;
	free(t->tmp);
	t->tmp = NULL;
	return 0;
}

static int replace_at(const char *path, const char *shown, bool follow, struct expect *want, const char *data,
		      size_t len, char **why)
{
	mode_t mode;
	struct stat st;
	bool exists;
	char *target = replace_target(path, shown, follow, &mode, &st, &exists, why);
	if (!target)
		return -1;
	char *dir = folder_of(target);
	filewrite_sweep(dir);
	struct temp t;
	int result = -1;
	if (temp_open(dir, &t) != 0) {
		*why = xasprintf("cannot create a temporary file beside %s: %s", shown, strerror(errno));
	} else {
		if (exists && fchown(t.fd, st.st_uid, st.st_gid) != 0) {
			/* Not ours to give away: the new file keeps our owner, and the mode below. */
		}
		int e = temp_fill(&t, mode, data, len) != 0 ? errno : put_over(&t, dir, target, exists ? want : NULL);
		if (e == CHANGED)
			*why = xasprintf("cannot write %s: it changed after it was read (%zu bytes of text then, %zu now: "
					 "an edit saved meanwhile?); it is left as it is: run the command again",
					 shown, want->len, want->now);
		else if (e)
			*why = xasprintf("cannot write %s: %s", shown, strerror(e));
		else
			result = 0;
		temp_discard(&t);
	}
	if (result == 0)
		sync_dir(dir);
	free(dir);
	free(target);
	return result;
}

int filewrite_replace(const char *path, const char *shown, const char *data, size_t len, char **why)
{
	return replace_at(path, shown, true, NULL, data, len, why);
}

static int replace_repo(const char *relpath, struct expect *want, const char *data, size_t len, char **why)
{
	char *fs;
	const char *reason;
	enum repo_status s = repo_resolve(relpath, &fs, &reason);
	if (s == REPO_MISSING) {
		/* A new file: its folder must resolve inside. */
		char *dir = folder_of(relpath);
		char *fsdir;
		s = strcmp(dir, ".") == 0 ? REPO_OK : repo_resolve(dir, &fsdir, &reason);
		if (s == REPO_OK) {
			fs = xasprintf("%s/%s", repo_root(), relpath);
			if (strcmp(dir, ".") != 0)
				free(fsdir);
		}
		free(dir);
	}
	if (s != REPO_OK) {
		*why = xasprintf("cannot write %s: %s", relpath, reason);
		return -1;
	}
	int r = replace_at(fs, relpath, true, want, data, len, why);
	free(fs);
	return r;
}

int filewrite_replace_repo(const char *relpath, const char *data, size_t len, char **why)
{
	return replace_repo(relpath, NULL, data, len, why);
}

int filewrite_replace_repo_unchanged(const char *relpath, const char *was, size_t was_len, const char *data,
				     size_t len, char **why)
{
	struct expect want = {was, was_len, 0};
	return replace_repo(relpath, &want, data, len, why);
}

/* ---- folders ---- */

char *filewrite_mkdirs_repo(const char *relpath, char **why)
{
	char *rel = xstrdup(relpath);
	char *fs = NULL;
	for (char *s = rel;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		char *shown = xasprintf("%s/", rel);
		char *path = xasprintf("%s/%s", repo_root(), rel);
		struct stat st;
		const char *reason;
		char *resolved = NULL;
		bool ok = true;
		if (lstat(path, &st) == 0 || errno != ENOENT) {
			/* It exists: it must lie inside and be a folder before anything is made in it. */
			enum repo_status r = repo_resolve(rel, &resolved, &reason);
			if (r != REPO_OK) {
				*why = xasprintf("cannot make the folder %s: %s", shown, reason);
				ok = false;
			} else if (stat(resolved, &st) != 0 || !S_ISDIR(st.st_mode)) {
				*why = xasprintf("cannot make the folder %s: %s", shown, strerror(ENOTDIR));
				ok = false;
			}
			free(resolved);
		} else if (mkdir(path, 0777) != 0 && errno != EEXIST) {
			*why = xasprintf("cannot make the folder %s: %s", shown, strerror(errno));
			ok = false;
		} else {
			char *parent = folder_of(path);
			sync_dir(parent);
			free(parent);
		}
		free(shown);
		if (!ok || !c) {
			if (ok)
				fs = path;
			else
				free(path);
			break;
		}
		free(path);
		*s = c;
	}
	free(rel);
	return fs;
}

/* Makes every missing folder of path p, from the one that ends at from
 * (a byte of p after its first), as mkdir -p does.  A folder that exists
 * is passed; with no_links a symbolic link where a folder is wanted is
 * refused (lstat, not stat: a link to a folder is not the folder),
 * without, it is followed. */
static int mkdirs_from(char *p, char *from, bool no_links, char **why)
{
	for (char *s = from;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;
		*s = '\0';
		struct stat st;
		int e = mkdir(p, 0777) == 0 ? 0 : errno;
		bool exists = e == EEXIST && (no_links ? lstat(p, &st) : stat(p, &st)) == 0;
		if (exists && S_ISLNK(st.st_mode)) {
			*why = xasprintf("cannot make the folder %s: it is a symbolic link, which is not followed", p);
			return -1;
		}
		if (e && !(exists && S_ISDIR(st.st_mode))) {
			*why = xasprintf("cannot make the folder %s: %s", p, strerror(e == EEXIST ? ENOTDIR : e));
			return -1;
		}
		*s = c;
		if (!c)
			return 0;
	}
}

int filewrite_mkdirs(const char *path, char **why)
{
	char *p = xstrdup(path);
	int r = mkdirs_from(p, p + 1, false, why);
	free(p);
	return r;
}

int filewrite_mkdirs_below(const char *base, const char *rel, char **why)
{
	if (!rel[0])
		return 0;
	char *p = xasprintf("%s/%s", base, rel);
	int r = mkdirs_from(p, p + strlen(base) + 1, true, why);
	free(p);
	return r;
}

/* ---- files a user names ---- */

/* The repository path of a file-system path the user named (taken from
 * the current folder, compared without touching the disk), malloc'd, or
 * NULL when it lies outside the repository. */
static char *named_in_repo(const char *path)
{
	char *cwd = path[0] == '/' ? NULL : getcwd(NULL, 0);
	if (path[0] != '/' && !cwd)
		return NULL;
	char *abs = cwd ? xasprintf("%s/%s", cwd, path) : xstrdup(path);
	char *norm = repo_normalize(abs + 1); /* "/a/../b" as "b": the leading '/' set aside */
	const char *root = repo_root();
	size_t n = strlen(root);
	char *rel = NULL;
	if (norm && root[0] == '/' && strncmp(norm, root + 1, n - 1) == 0 &&
	    (norm[n - 1] == '/' || norm[n - 1] == '\0'))
		rel = xstrdup(norm[n - 1] ? norm + n : ".");
	free(norm);
	free(abs);
	free(cwd);
	return rel;
}

/* The file-system folder a named file inside the repository is written
 * in: its folder resolved, which must lie inside.  NULL with *why. */
static char *named_folder(const char *rel, const char *shown, char **why)
{
	char *dir = folder_of(rel), *fs = NULL;
	const char *reason;
	if (strcmp(dir, ".") == 0)
		fs = xstrdup(repo_root());
	else if (repo_resolve(dir, &fs, &reason) != REPO_OK)
		*why = xasprintf("cannot write %s: %s", shown, reason);
	free(dir);
	return fs;
}

int filewrite_replace_named(const char *path, const char *shown, const char *data, size_t len, char **why)
{
	char *rel = named_in_repo(path);
	if (!rel) /* outside, where the user pointed: only the last name is not followed */
		return replace_at(path, shown, false, NULL, data, len, why);
	int r = -1;
	char *dir = named_folder(rel, shown, why);
	if (dir) {
		const char *slash = strrchr(rel, '/');
		char *fs = xasprintf("%s/%s", dir, slash ? slash + 1 : rel);
		r = replace_at(fs, shown, false, NULL, data, len, why);
		free(fs);
	}
	free(dir);
	free(rel);
	return r;
}

int filewrite_mkdirs_named(const char *path, char **why)
{
	char *rel = named_in_repo(path);
	if (!rel)
		return filewrite_mkdirs(path, why);
	char *fs = strcmp(rel, ".") == 0 ? xstrdup(repo_root()) : filewrite_mkdirs_repo(rel, why);
	free(rel);
	free(fs);
	return fs ? 0 : -1;
}
