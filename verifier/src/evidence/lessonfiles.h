/*
 * lessonfiles.h - which files make a lesson: the one rule that verify
 * (course.c) and capture (capture_lesson.c) share.
 *
 * A lesson is its folder programs/LESSON/ together with the shared folder
 * programs/common/ (code several lessons use; it is no lesson itself).
 * Every plain file under the two folders, subfolders included, counts,
 * except hidden names (starting with '.') and Markdown files (*.md: the
 * README and notes are pages, not program input; update rewrites them).
 * Capture copies exactly these files into its scratch folder with the same
 * layout (LESSON/..., common/...), so `#include "../common/x.h"` works, and
 * records each with its own SHA-256; verify recomputes the same set to
 * tell which file changed.
 *
 * The lesson's program is the .cu file of programs/LESSON/, at any depth
 * (src/main.cu), that carries the header (proghdr.h): the only .cu file,
 * or, when there are several, the one whose header comment has a
 * `// Build:` line.  (A page may name it too: its `program:`.)
 *
 * Hashes: the program's is proghdr_source_sha256() (its Verified paragraph
 * left out, so writing it does not make evidence stale); every other
 * file's is the SHA-256 of its bytes.  source-sha256 is the program's hash
 * when the program is the lesson's only file (as before lessons were
 * folders), else the SHA-256 of the lines "PATH SHA\n" of every file in
 * path order.  Evidence records the files as header lines
 *   source-file-1: programs/LESSON/scan.cu 3f5a...   (one per file, in order)
 * That is the byte rule of evidence captured before source-rule: tokens-1;
 * each file also carries its hash by the tokens rule (tsha, srctok.h), by
 * which readset.h records and judges the files a run read.
 *
 * Bounded: at most LESSONFILES_MAX_FILES files, LESSONFILES_MAX_DEPTH
 * folders deep, LESSONFILES_MAX_BYTES in all; a link, a device or a name
 * with characters outside [A-Za-z0-9._+-] is refused with a reason (a
 * link could lead out of the repository, an odd name could not be
 * recorded on one header line).  libc and libcrypto only.
 */
#ifndef COURSECHECK_LESSONFILES_H
#define COURSECHECK_LESSONFILES_H

#include <stdbool.h>
#include <stddef.h>

#include "evidence.h"
#include "proghdr.h"
#include "sha256.h"
#include "textfile.h"

#define LESSONFILES_COMMON "common"
#define LESSONFILES_MAX_FILES 256
#define LESSONFILES_MAX_DEPTH 8
#define LESSONFILES_MAX_BYTES (64u * 1024u * 1024u)
#define LESSONFILES_KEY "source-file-"

struct lesson_file {
	char *path;  /* repository-relative: programs/LESSON/x.cu, programs/common/y.h */
	char *data;  /* the bytes as read (NUL-terminated) */
	size_t len;
	char sha[SHA256_HEX_LEN + 1];
	char tsha[SHA256_HEX_LEN + 1]; /* by the tokens rule (srctok.h), for evidence of source-rule: tokens-1 */
	bool private_key; /* its first bytes are a private key's (sshkey_looks_private): verify reports it */
};

struct lesson_files {
	struct lesson_file *v; /* sorted by path */
	size_t n;
	size_t program;        /* index of the program, SIZE_MAX when none */
	char sha[SHA256_HEX_LEN + 1]; /* source-sha256 */
	/* With a known function (the course cache), the program's text and
	 * header as read and parsed here, for the caller to take
	 * (lessonfiles_take_program) rather than normalise and parse the same
	 * bytes again; the program's data is then NULL (its bytes became the
	 * text).  Empty (program_text.data NULL) without known, when known
	 * holds these bytes, or once taken.  Owned by f until taken. */
	struct textfile program_text;
	struct proghdr program_hdr;
	/* With known: the program's source-sha256 (its sha) and f->sha are
	 * left empty until lessonfiles_set_program_sha(): a run judged by the
	 * tokens rule reads only tsha, so the caller hashes the program's text
	 * by the byte rule only for evidence captured before it. */
	bool program_sha_later;
};

/* Whether a folder under programs/ is a lesson (not the shared folder,
 * not hidden). */
bool lessonfiles_is_lesson(const char *folder);

/* The lesson's program (the rule above) as a malloc'd repository path, or
 * NULL; *count is how many .cu files the folder holds at any depth and
 * *headed how many of them have a Build: line (counted only when there
 * are several: one is the program).  A lesson whose files cannot all be
 * read (a link, a limit) is judged by the .cu files at its top, as listed. */
char *lessonfiles_program(const char *lesson, size_t *count, size_t *headed);

/* Reads every file of the lesson.  Returns 0, -1 with *why (malloc'd)
 * naming the file and the reason when one cannot be read, or -2 when the
 * lesson is refused (a link, an odd name, a limit passed).  The lesson need not have a program
 * (f->program is SIZE_MAX then).  Free with lessonfiles_free(). */
int lessonfiles_collect(const char *lesson, struct lesson_files *f, char **why);
void lessonfiles_free(struct lesson_files *f);
/* As lessonfiles_collect(), but the program's hash is asked of known
 * first: known(path, data, len, sha, arg) returns true with sha set when
 * it already holds proghdr_source_sha256() of exactly these bytes (the
 * course cache has read and hashed the program), saving a second hash, or
 * true with sha empty when it holds these bytes but hashes them only when
 * asked.  With known, a program it does not hold is not hashed either:
 * its text is kept (program_text) and its hash left to the caller
 * (program_sha_later). */
typedef bool (*lessonfiles_known_fn)(const char *path, const char *data, size_t len,
				     char sha[SHA256_HEX_LEN + 1], void *arg);
int lessonfiles_collect_known(const char *lesson, struct lesson_files *f, char **why, lessonfiles_known_fn known,
			      void *arg);

/* Completes f where program_sha_later: the program's source-sha256 (sha,
 * proghdr_source_sha256() of its text, hashed by the caller that holds
 * it) and source-sha256 over every file; nothing otherwise. */
void lessonfiles_set_program_sha(struct lesson_files *f, const char sha[SHA256_HEX_LEN + 1]);

/* Moves f's program text and header (see struct lesson_files) to *tf and
 * *hdr, which the caller then owns: true, or false (nothing moved) when f
 * holds none. */
bool lessonfiles_take_program(struct lesson_files *f, struct textfile *tf, struct proghdr *hdr);

/* programs/common/ read once for every lesson's collect: its files
 * (paths, lengths and SHA-256 of their bytes; data NULL: the bytes are
 * hashed and given back at once), or rc -1/-2 with why as a lesson's walk
 * would give them.  Free with lessonfiles_common_free(). */
struct lessonfiles_common {
	struct lesson_files f;
	size_t bytes;
	int rc;
	char *why;
};
void lessonfiles_common_read(struct lessonfiles_common *c);
void lessonfiles_common_free(struct lessonfiles_common *c);
/* As lessonfiles_collect_known(), taking programs/common/'s files from
 * common (NULL: walked here) instead of listing and reading them again;
 * those entries have data NULL.  Where common failed or the lesson's
 * limits would not hold with it, the folder is walked as without it, so
 * the answer and its reason are the same either way. */
int lessonfiles_collect_shared(const char *lesson, struct lesson_files *f, char **why, lessonfiles_known_fn known,
			       void *arg, const struct lessonfiles_common *common);

/* A file the evidence recorded: source-file-N's path (malloc'd), hash and
 * line. */
struct lessonfiles_entry {
	char *path;
	const char *sha;
	size_t line;
};
/* The source-file-N lines of ev, in order, whatever the rule that hashed
 * them (the one reader: the byte rule here, readset's tokens rule); *out
 * malloc'd, freed with lessonfiles_entries_free(). */
size_t lessonfiles_entries(const struct evidence *ev, struct lessonfiles_entry **out);
void lessonfiles_entries_free(struct lessonfiles_entry *v, size_t n);

/* When evidence was captured from other files than f: a malloc'd sentence
 * naming the first file that changed, is new, or is gone ("'programs/
 * common/cuda_check.h' changed"); NULL when source-sha256 matches.  When the
 * evidence records no files (older captures) the sentence names the
 * program.  *line gets the evidence line to point at.  f must be complete
 * (not program_sha_later): one that is not is said to be changed, never
 * taken for unchanged. */
char *lessonfiles_changed(const struct evidence *ev, const struct lesson_files *f, size_t *line);

/* Whether pattern compiles as the Expect: of a header does (POSIX ERE,
 * REG_NEWLINE: ^ and $ match at every line); msg gets regerror's text
 * when not.  Here so that verify and capture judge it alike. */
bool lessonfiles_expect_valid(const char *pattern, char *msg, size_t msg_size);

/* Why the lesson has no program, for a message: malloc'd "programs/L/
 * holds no .cu file (found src/kernel.txt, CMakeLists.txt)" or "...holds 2
 * .cu files (a.cu, src/b.cu) and 0 of them have a '// Build:' header
 * line", naming at most the first 8 files of the folder. */
char *lessonfiles_no_program(const struct lesson_files *f, const char *lesson);

/* Appends the source-file-N header lines for f to h (a struct buf). */
struct buf;
void lessonfiles_header(struct buf *h, const struct lesson_files *f);

#endif
