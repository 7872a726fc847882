/*
 * review_write.h - how review puts its files in place.
 *
 * A thin wrapper, so that the review goes through the tool's one atomic
 * writer once there is one to call: today capture_write.c writes only new
 * evidence (never replacing) and update.c's writer is private to it, so
 * this wrapper holds the same technique (a temporary file in the target's
 * folder, flushed to disk, renamed over the target) until the unified
 * writer replaces its body.  A reader of the review folder sees the old
 * file or the new one, never half of one; a file that exists keeps its
 * mode; every failure removes the temporary file.
 */
#ifndef COURSECHECK_REVIEW_WRITE_H
#define COURSECHECK_REVIEW_WRITE_H

#include <stddef.h>

/* Writes text as path (a file-system path).  Returns 0, or -1 with *why
 * (malloc'd, the reason with errno's text). */
int review_write_file(const char *path, const char *text, size_t len, char **why);
/* Makes dir and its missing parents (mode 0777 less the umask).  Returns
 * 0, or -1 with *why (malloc'd). */
int review_make_dirs(const char *dir, char **why);

#endif
