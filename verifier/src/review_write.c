/* review_write.c - see review_write.h. */
#include "review_write.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* The mode the file keeps: its own when it exists, else what a plain
 * creat(2) would give (0666 less the umask), not mkstemp's 0600. */
static mode_t target_mode(const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0)
		return st.st_mode & 07777;
	mode_t mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

int review_write_file(const char *path, const char *text, size_t len, char **why)
{
	char *tmp = xasprintf("%s.tmp-XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		*why = xasprintf("cannot create a temporary file beside %s: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	FILE *f = fdopen(fd, "wb");
	bool ok = f && fchmod(fd, target_mode(path)) == 0 && fwrite(text, 1, len, f) == len && fflush(f) == 0 &&
		  fsync(fd) == 0;
	int err = errno;
	if (f ? fclose(f) != 0 : close(fd) != 0) {
		if (ok)
			err = errno;
		ok = false;
	}
	if (ok && rename(tmp, path) != 0) {
		err = errno;
		ok = false;
	}
	if (!ok) {
		*why = xasprintf("%s: %s", path, strerror(err));
		unlink(tmp);
	}
	free(tmp);
	return ok ? 0 : -1;
}

int review_make_dirs(const char *dir, char **why)
{
	char *p = xstrdup(dir);
	for (char *s = p + 1;; s++) {
		bool end = *s == '\0';
		if (*s == '/' || end) {
			*s = '\0';
			if (mkdir(p, 0777) != 0 && errno != EEXIST) {
				*why = xasprintf("%s: %s", p, strerror(errno));
				free(p);
				return -1;
			}
			if (!end)
				*s = '/';
		}
		if (end)
			break;
	}
	struct stat st;
	int rc = 0;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		*why = xasprintf("%s: %s", dir, stat(dir, &st) != 0 ? strerror(errno) : "not a folder");
		rc = -1;
	}
	free(p);
	return rc;
}
