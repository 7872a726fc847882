/* shim.c - an editor's save in update's window (LD_PRELOAD, for run.sh).
 *
 * RACE_AT=fsync: the page gets RACE_LINE appended at the first fsync(2),
 * while update flushes its new text, before it looks at the page again.
 * RACE_AT=rename: at the first rename(2) or renameat2(2) onto a name
 * ending in RACE_SUFFIX, the narrowest window there is: after update's
 * last look, just before its text takes the page's name. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void save_once(const char *at, const char *target)
{
	static int done;
	const char *want = getenv("RACE_AT"), *page = getenv("RACE_PAGE"), *line = getenv("RACE_LINE");
	const char *suffix = getenv("RACE_SUFFIX");
	if (done || !want || !page || !line || strcmp(want, at) != 0)
		return;
	if (target && (!suffix || strlen(target) < strlen(suffix) ||
		       strcmp(target + strlen(target) - strlen(suffix), suffix) != 0))
		return;
	done = 1;
	int fd = open(page, O_WRONLY | O_APPEND);
	if (fd >= 0) {
		ssize_t w = write(fd, line, strlen(line));
		(void)w;
		close(fd);
	}
}

int fsync(int fd)
{
	static int (*real)(int);
	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	int r = real(fd);
	save_once("fsync", NULL);
	return r;
}

int rename(const char *from, const char *to)
{
	static int (*real)(const char *, const char *);
	if (!real)
		real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
	save_once("rename", to);
	return real(from, to);
}

int renameat2(int fromdir, const char *from, int todir, const char *to, unsigned int flags)
{
	static int (*real)(int, const char *, int, const char *, unsigned int);
	if (!real)
		real = (int (*)(int, const char *, int, const char *, unsigned int))dlsym(RTLD_NEXT, "renameat2");
	save_once("rename", to);
	return real(fromdir, from, todir, to, flags);
}
