/*
 * path_oracle.h - a check that the code under test touches no file
 * outside one folder, and, when told, writes nothing at all.
 *
 * The product's calls that name a path (fopen, open, openat, opendir,
 * stat, lstat, access, mkstemp, rename, renameat, renameat2, link, linkat,
 * unlink, unlinkat, mkdir, rmdir, nftw) and execve are sent here: fuzz.mk
 * copies the product's objects with `objcopy --redefine-sym
 * NAME=__wrap_NAME`, so those objects, and only they, call the wrappers
 * below; the harness, libFuzzer (which writes its findings with fopen) and
 * the libraries call libc as ever.  No LD_PRELOAD, no change to the
 * product.  While the oracle is armed, a wrapper resolves the path it is
 * given (relative to the current folder or to the openat folder, links
 * followed, a missing tail cut off: what does not exist cannot be opened
 * through) and aborts when it lies outside the folder; in read-only mode
 * any call that could write (a write mode, O_CREAT, mkstemp, rename, link,
 * unlink, mkdir) aborts too; execve aborts always.  Disarmed, the
 * wrappers only pass the call on.
 *
 * What it does not see: calls made inside the shared libraries (libyaml,
 * cmark-gfm and PCRE2 open no files) and raw syscall(2).
 */
#ifndef COURSECHECK_PATH_ORACLE_H
#define COURSECHECK_PATH_ORACLE_H

#include <stdbool.h>
#include <stdio.h>

/* Arms the oracle for files under root (a real path); read_only: abort on
 * any write as well. */
void path_oracle_arm(const char *root, bool read_only);
void path_oracle_disarm(void);
/* How many calls the oracle judged since the process started (a target
 * can assert that it saw the product's file access at all). */
unsigned long path_oracle_checked(void);

/* The wrapper of fopen, for a self-test of the oracle. */
FILE *__wrap_fopen(const char *path, const char *mode);

#endif
