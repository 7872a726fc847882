/* capture_reads.c - see capture_reads.h. */
#include "capture_reads.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture_proc.h"
#include "textfile.h"
#include "util.h"

char *capture_reads_path(const char *scratch)
{
	return xasprintf("%s/build.deps", scratch);
}

char **capture_reads_env(const char *deps_path, const char *also)
{
	/* gcc and clang append one make rule a compile to this file, the
	 * non-system headers only; nvcc's host compiler inherits it */
	char *set = xasprintf("DEPENDENCIES_OUTPUT=%s", deps_path);
	const char *vars[] = {set, also};
	char **envp = proc_env_with(vars, also ? 2 : 1);
	free(set);
	return envp;
}

/* The dependency output, or none (*data NULL) when the build wrote none,
 * it cannot be read or it is larger than READSET_MAX_DEPS. */
static void read_deps(const char *path, char **data, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    textfile_read_fd(fd, (size_t)st.st_size, READSET_MAX_DEPS, data, len) != 0) {
		*data = NULL;
		*len = 0;
	}
	close(fd);
}

void capture_reads_take(struct readset *r, const struct lesson *ls, const char *deps_path, const char *workdir)
{
	char *data = NULL;
	size_t len = 0;
	read_deps(deps_path, &data, &len);
	const char *slash = strrchr(workdir, '/');
	char *top = xstrndup(workdir, slash ? (size_t)(slash - workdir) : strlen(workdir));
	readset_from_deps(r, &ls->files, data, len, top, workdir);
	free(top);
	free(data);
}
