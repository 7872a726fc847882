/*
 * capture_lesson.h - the lessons capture works on, and the folders it
 * works in.
 *
 * A lesson is a folder programs/LESSON/ holding exactly one .cu file whose
 * header (proghdr.h) names its Build: and Run: commands.  The program is
 * read once: its hash, its header and the copy that is built all come
 * from that one snapshot, so the evidence describes the file as built
 * even if someone edits it during the capture.  The hash is the one the
 * verifier checks (proghdr_source_sha256: LF text, Verified paragraph
 * left out).
 */
#ifndef COURSECHECK_CAPTURE_LESSON_H
#define COURSECHECK_CAPTURE_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#include "sha256.h"

struct lesson {
	char *name;        /* the folder under programs/ */
	char *program;     /* "programs/NAME/FILE.cu" */
	char *file;        /* "FILE.cu" */
	char *source;      /* the file's bytes */
	size_t source_len;
	char sha[SHA256_HEX_LEN + 1]; /* source-sha256: proghdr_source_sha256() of the bytes */
	char *build;       /* the header's Build: command */
	char *run;         /* the header's Run: command */
};

/* The lesson folders under programs/ of the repository, sorted by name
 * (malloc'd array of malloc'd names; free with repo_free_list()).  Returns
 * 0, or -1 with *why (malloc'd) when programs/ cannot be read. */
int lesson_names(char ***names, size_t *n, char **why);

/* Loads a lesson.  Returns 0, or -1 with *why (malloc'd, "what went
 * wrong: reason") when the folder holds no or several .cu files, the file
 * cannot be read, or its header lacks or repeats Build: or Run:. */
int lesson_load(const char *name, struct lesson *ls, char **why);
void lesson_free(struct lesson *ls);

/* Whether --stale must capture the lesson: its newest evidence is missing,
 * unreadable, failed, or was taken of another program, source or command.
 * *reason (static text) says which, or why not. */
bool lesson_stale(const struct lesson *ls, const char **reason);

/* ---- scratch folders ---- */

/* A fresh private folder for one lesson's build and run: under
 * build/capture/ of the repository (made only where no link leads out of
 * it), or $TMPDIR when that cannot be made.  Its name starts with this
 * process's owner token (filewrite_owner()), so that scratch_sweep() of a
 * later capture can remove it if this one is killed.  Malloc'd absolute
 * path, or NULL with *why.  Remove with remove_tree(). */
char *scratch_dir(const char *lesson, char **why);
/* Removes the scratch folders of captures that are gone (never those of
 * a capture still running).  Returns how many. */
size_t scratch_sweep(void);
/* Removes the temporaries a killed capture left in evidence/NAME/
 * (filewrite_sweep()).  Returns how many. */
size_t lesson_sweep_evidence(const char *name);
/* rm -rf path (not following links). */
void remove_tree(const char *path);

#endif
