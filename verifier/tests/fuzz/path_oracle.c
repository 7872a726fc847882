/* path_oracle.c - see path_oracle.h. */
#include "path_oracle.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

static struct {
	bool armed;
	bool read_only;
	char root[PATH_MAX];
	size_t root_len;
	unsigned long checked;
} oracle;

void path_oracle_arm(const char *root, bool read_only)
{
	snprintf(oracle.root, sizeof oracle.root, "%s", root);
	oracle.root_len = strlen(oracle.root);
	oracle.read_only = read_only;
	oracle.armed = true;
}

void path_oracle_disarm(void)
{
	oracle.armed = false;
}

unsigned long path_oracle_checked(void)
{
	return oracle.checked;
}

static _Noreturn void violation(const char *call, const char *path, const char *why)
{
	oracle.armed = false;
	dprintf(fuzz_report_fd, "\npath oracle: %s(\"%s\") %s (course %s)\n", call, path, why, oracle.root);
	abort();
}

/* The real path of the longest prefix of abs that exists. */
static void resolve_existing(const char *abs, char *out)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof buf, "%s", abs);
	for (;;) {
		if (realpath(buf, out))
			return;
		char *slash = strrchr(buf, '/');
		if (!slash || slash == buf) {
			snprintf(out, PATH_MAX, "/");
			return;
		}
		*slash = '\0';
	}
}

static void judge(const char *call, int dirfd, const char *path, bool writes)
{
	if (!oracle.armed)
		return;
	oracle.checked++;
	if (writes && oracle.read_only)
		violation(call, path ? path : "(null)", "writes, in a run that must write nothing");
	if (!path)
		return;
	char base[PATH_MAX], abs[PATH_MAX], real[PATH_MAX];
	if (path[0] == '/') {
		snprintf(abs, sizeof abs, "%s", path);
	} else {
		if (dirfd == AT_FDCWD) {
			if (!getcwd(base, sizeof base))
				violation(call, path, "cannot be judged: no current folder");
		} else {
			char link[64];
			snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
			ssize_t n = readlink(link, base, sizeof base - 1);
			if (n < 0)
				violation(call, path, "cannot be judged: unknown folder descriptor");
			base[n] = '\0';
		}
		if ((size_t)snprintf(abs, sizeof abs, "%s/%s", base, path) >= sizeof abs)
			violation(call, path, "cannot be judged: too long");
	}
	resolve_existing(abs, real);
	if (strncmp(real, oracle.root, oracle.root_len) != 0 ||
	    (real[oracle.root_len] != '/' && real[oracle.root_len] != '\0'))
		violation(call, path, "lies outside the course");
}

static bool mode_writes(const char *mode)
{
	return mode && strpbrk(mode, "wa+") != NULL;
}

static bool flags_write(int flags)
{
	return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)) != 0 || (flags & O_TMPFILE) == O_TMPFILE;
}

/* The product's objects call __wrap_NAME where they called NAME
 * (fuzz.mk renames their references); the wrappers call the real NAME. */
#define WRAP(ret, name, params) ret __wrap_##name params

WRAP(FILE *, fopen, (const char *path, const char *mode))
{
	judge("fopen", AT_FDCWD, path, mode_writes(mode));
	return fopen(path, mode);
}

WRAP(int, open, (const char *path, int flags, ...))
{
	mode_t mode = 0;
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	judge("open", AT_FDCWD, path, flags_write(flags));
	return open(path, flags, mode);
}

WRAP(int, openat, (int dirfd, const char *path, int flags, ...))
{
	mode_t mode = 0;
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_list ap;
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	judge("openat", dirfd, path, flags_write(flags));
	return openat(dirfd, path, flags, mode);
}

WRAP(DIR *, opendir, (const char *path))
{
	judge("opendir", AT_FDCWD, path, false);
	return opendir(path);
}

WRAP(int, stat, (const char *path, struct stat *st))
{
	judge("stat", AT_FDCWD, path, false);
	return stat(path, st);
}

WRAP(int, lstat, (const char *path, struct stat *st))
{
	judge("lstat", AT_FDCWD, path, false);
	return lstat(path, st);
}

WRAP(int, access, (const char *path, int how))
{
	judge("access", AT_FDCWD, path, false);
	return access(path, how);
}

WRAP(int, mkstemp, (char *tmpl))
{
	judge("mkstemp", AT_FDCWD, tmpl, true);
	return mkstemp(tmpl);
}

WRAP(int, rename, (const char *from, const char *to))
{
	judge("rename", AT_FDCWD, from, true);
	judge("rename", AT_FDCWD, to, true);
	return rename(from, to);
}

WRAP(int, renameat, (int fd1, const char *from, int fd2, const char *to))
{
	judge("renameat", fd1, from, true);
	judge("renameat", fd2, to, true);
	return renameat(fd1, from, fd2, to);
}

WRAP(int, renameat2, (int fd1, const char *from, int fd2, const char *to, unsigned flags))
{
	judge("renameat2", fd1, from, true);
	judge("renameat2", fd2, to, true);
	return renameat2(fd1, from, fd2, to, flags);
}

WRAP(int, link, (const char *from, const char *to))
{
	judge("link", AT_FDCWD, from, true);
	judge("link", AT_FDCWD, to, true);
	return link(from, to);
}

WRAP(int, linkat, (int fd1, const char *from, int fd2, const char *to, int flags))
{
	/* linkat(fd, "", AT_FDCWD, to, AT_EMPTY_PATH) links an O_TMPFILE */
	judge("linkat", fd1, from && *from ? from : NULL, true);
	judge("linkat", fd2, to, true);
	return linkat(fd1, from, fd2, to, flags);
}

WRAP(int, unlink, (const char *path))
{
	judge("unlink", AT_FDCWD, path, true);
	return unlink(path);
}

WRAP(int, unlinkat, (int dirfd, const char *path, int flags))
{
	judge("unlinkat", dirfd, path, true);
	return unlinkat(dirfd, path, flags);
}

WRAP(int, mkdir, (const char *path, mode_t mode))
{
	judge("mkdir", AT_FDCWD, path, true);
	return mkdir(path, mode);
}

WRAP(int, rmdir, (const char *path))
{
	judge("rmdir", AT_FDCWD, path, true);
	return rmdir(path);
}

WRAP(int, nftw, (const char *path, int (*fn)(const char *, const struct stat *, int, struct FTW *), int fds,
		 int flags))
{
	judge("nftw", AT_FDCWD, path, false);
	return nftw(path, fn, fds, flags);
}

WRAP(int, execve, (const char *path, char *const argv[], char *const envp[]))
{
	if (oracle.armed)
		violation("execve", path, "runs a program, which checking never does");
	return execve(path, argv, envp);
}
