/*
 * filewrite.h - the one way the tool writes a file: whole, or not at all.
 *
 * Every file coursecheck and coursecheck-capture write goes through here:
 * capture's evidence (never overwritten), update's pages, READMEs and
 * programs (replaced), capture's copy of a program in its scratch folder.
 * The invariant, whatever happens to the writer (an error, a full disk,
 * kill -9 at any moment):
 *
 *   - A reader sees the file as it was or as it is after, never part of
 *     one.  The text goes to an anonymous file (O_TMPFILE) in the target's
 *     own folder, is flushed (fsync), and only then gets a name; the
 *     folder is flushed after, so the name survives a crash too.
 *   - Where the file system has no O_TMPFILE, the text goes to a named
 *     temporary in that folder instead: ".coursecheck-tmp-OWNER-N", a name
 *     repo_evidence_name_parse() ignores and .gitignore lists.  Every failure
 *     path removes it; one that a killed writer left is removed by the
 *     next writer in that folder once its OWNER (pid and start time) is
 *     gone (filewrite_sweep).  A replace links even the anonymous file to
 *     such a name for the instant before its rename.
 *   - filewrite_new never replaces anything: the name is taken with
 *     link(2) (linkat), which fails on a taken name (EEXIST), and the
 *     caller's next name is tried.
 *   - filewrite_replace replaces with rename(2) and keeps the target's
 *     mode (and owner, where allowed); a new file is 0644.  A symbolic
 *     link is written through to its target, which stays a link (update's
 *     pages, as the README says; a report or a review page, the _named
 *     form, replaces the link instead); a
 *     target that leads outside the repository (the _repo form), is not a
 *     regular file, or has other hard links (a rename would part them) is
 *     refused with a message.
 *   - Folders are made only where every existing part of the path lies
 *     inside the repository (filewrite_mkdirs_repo): nothing is made
 *     through a link that leads out.
 *
 * Errors come back as *why (malloc'd), naming the path as the user knows
 * it and the reason.  libc only: the capture binary links libc and
 * libcrypto.  Single-threaded.
 *
 * For tests: COURSECHECK_NO_O_TMPFILE=1 in the environment makes the
 * writer take the named-temporary path, as on a file system without
 * O_TMPFILE.
 */
#ifndef COURSECHECK_FILEWRITE_H
#define COURSECHECK_FILEWRITE_H

#include <stdbool.h>
#include <stddef.h>

/* The prefix of every temporary name. */
#define FILEWRITE_TMP_PREFIX ".coursecheck-tmp-"

/* This process as the owner of temporaries and scratch folders:
 * "PID-START" (START: its start time in clock ticks after boot, from
 * /proc; 0 where /proc cannot be read).  Static storage. */
const char *filewrite_owner(void);
/* Reads an owner token at the start of s ("PID-START", then '-' or the
 * end); *end is set past it.  False when s does not start with one. */
bool filewrite_owner_parse(const char *s, long *pid, unsigned long long *start, const char **end);
/* True when the process an owner token names has ended (or its pid now
 * belongs to another process).  A zombie has ended. */
bool filewrite_owner_gone(long pid, unsigned long long start);

/* Removes the temporaries in the folder dir (a file-system path) whose
 * owner is gone.  Returns how many it removed. */
size_t filewrite_sweep(const char *dir);

/* The name to try for the seq-th attempt (1, 2, ...), malloc'd, or NULL
 * when there are no more to try. */
typedef char *(*filewrite_namer)(int seq, void *arg);

/* Writes data as a new file in the folder dir (a file-system path; shown:
 * how to name that folder in messages, e.g. "evidence/day31/").  The name
 * is the first of namer's that is free.  Returns 0 with *name (malloc'd,
 * the name taken), or -1 with *why and nothing left behind. */
int filewrite_new(const char *dir, const char *shown, const char *data, size_t len, filewrite_namer namer,
		  void *arg, char **name, char **why);

/* The same with the new file's mode (0600 for a private key: the
 * temporary is 0600 from its start, so no other user ever reads it). */
int filewrite_new_mode(const char *dir, const char *shown, const char *data, size_t len, unsigned mode,
		       filewrite_namer namer, void *arg, char **name, char **why);

/* Replaces (or creates) the file at path (a file-system path; shown: its
 * name in messages) with data, as the header says.  Returns 0, or -1 with
 * *why and the old file as it was. */
int filewrite_replace(const char *path, const char *shown, const char *data, size_t len, char **why);
/* The same for a repository-relative path, resolved by repo_resolve(): a
 * link on the path that leads outside the repository is refused. */
int filewrite_replace_repo(const char *relpath, const char *data, size_t len, char **why);
/* The same for a file whose text the caller read (was, was_len, as
 * textfile_read gave it) and rewrote: where the file no longer holds that text (an edit saved while
 * the caller worked), nothing is written, the file is left as it is, and
 * *why says that it changed.  The text is compared just before the
 * rename and, where the file system can swap two names at once
 * (renameat2 RENAME_EXCHANGE), once more on the file swapped out, which
 * is swapped back when it differs.  A file that did not exist when read
 * is not checked. */
int filewrite_replace_repo_unchanged(const char *relpath, const char *was, size_t was_len, const char *data,
				     size_t len, char **why);

/* Replaces (or creates) a file the user named (--output=FILE, a page of a
 * review folder): a file-system path taken from the current folder, shown
 * as shown.  The name itself is replaced, never followed: a symbolic link
 * there is replaced by the file (a link committed to a checkout, or
 * planted in a shared folder, cannot aim the write elsewhere).  Where the
 * path lies inside the repository, its folder must resolve inside it: a
 * link on the way that leads out is refused, as in the _repo form.
 * Returns 0, or -1 with *why and the old file as it was. */
int filewrite_replace_named(const char *path, const char *shown, const char *data, size_t len, char **why);

/* mkdir -p of a repository-relative folder: each part that exists must
 * resolve inside the repository and be a folder; each that does not is
 * made (and its parent flushed).  Returns the folder's file-system path
 * (malloc'd), or NULL with *why ("cannot make the folder evidence/: ...")
 * and nothing made past the part that was refused. */
char *filewrite_mkdirs_repo(const char *relpath, char **why);
/* mkdir -p of a file-system path the user named (not checked against the
 * repository).  Returns 0, or -1 with *why. */
int filewrite_mkdirs(const char *path, char **why);
/* mkdir -p of base/rel, where base is a folder the caller made or was
 * given (capture's scratch folder, --build-only's) and rel a relative
 * path below it: each part of rel that exists must be a folder itself,
 * not a symbolic link to one (the lesson's build and runs write in that
 * folder, and a link one of them left would lead the copy anywhere); each
 * that does not is made.  Returns 0, or -1 with *why naming the part. */
int filewrite_mkdirs_below(const char *base, const char *rel, char **why);
/* mkdir -p of a folder the user named: inside the repository as the _repo
 * form (nothing made through a link that leads out), outside as
 * filewrite_mkdirs.  Returns 0, or -1 with *why. */
int filewrite_mkdirs_named(const char *path, char **why);

#endif
