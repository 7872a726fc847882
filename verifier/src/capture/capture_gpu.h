/*
 * capture_gpu.h - the facts capture reads off the machine: its GPUs
 * (nvidia-smi), the CUDA toolkit (nvcc --version), the host compiler, the
 * host name, the repository's commit and whether its tree is dirty, and
 * whether another process is using a GPU.
 *
 * Nothing here is ever guessed: a fact the machine will not give is an
 * error (GPU, driver, toolkit) or left out (SM count), never filled in.
 * struct machine owns all its strings; release it with machine_free().
 */
#ifndef COURSECHECK_CAPTURE_GPU_H
#define COURSECHECK_CAPTURE_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct gpu {
	int index;       /* nvidia-smi's index, which CUDA_VISIBLE_DEVICES names in PCI order */
	char *name;      /* "NVIDIA H200" */
	char *cc;        /* compute capability, "9.0" */
	char *driver;    /* "580.159.04" */
	char *memory;    /* "143771 MiB" */
	char *sm_count;  /* NULL: nvidia-smi does not say, and we do not invent it */
};

struct machine {
	struct gpu *gpus;
	size_t n_gpus;
	char *cuda;      /* "13.0 (V13.0.88)" */
};

/* Reads the GPUs and the toolkit.  Returns 0, or -1 with *why (malloc'd)
 * when nvidia-smi or nvcc is missing, fails, or says something we cannot
 * read.  only: when not NULL, a list of nvidia-smi indices to keep (from
 * CUDA_VISIBLE_DEVICES), n_only of them. */
int machine_probe(struct machine *m, const int *only, size_t n_only, char **why);
void machine_free(struct machine *m);

/* The first line of `COMPILER --version` for the host compiler the build
 * line's nvcc uses (-ccbin/--compiler-bindir when given, else gcc, else
 * cc).  Malloc'd; "unknown" when none answers. */
char *host_compiler(const char *build_line);

/* The host name, malloc'd. */
char *node_name(void);

/* The repository's `git rev-parse HEAD` (malloc'd; "none" when there is
 * no git, no repository or no commit yet) and whether `git status
 * --porcelain` printed anything (*dirty: "yes", "no" or "unknown", static). */
char *capture_gpu_commit(const char *root, const char **dirty);

/* Process ids seen on a GPU that were ours (owned by the caller). */
struct pidset {
	pid_t *pids;
	size_t n, cap;
};

/* Asks `nvidia-smi -i INDEX --query-compute-apps=pid` which processes use
 * the GPU.  A process counts as ours when it or its process group is one
 * of ours[] (the groups of the children we run), or its pid was seen as
 * ours before (known, updated here: a child that has just exited can no
 * longer be asked for its group).  A pid nvidia-smi cannot name ("[N/A]")
 * is not ours.  Returns 0 and sets *foreign to a pid that is not ours (0:
 * none, -1: unnamed), or -1 when nvidia-smi could not be asked (*why
 * malloc'd). */
int gpu_foreign_apps(int index, const pid_t *ours, size_t n_ours, struct pidset *known, pid_t *foreign,
		     char **why);
void pidset_free(struct pidset *s);

#endif
