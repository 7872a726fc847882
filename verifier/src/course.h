/*
 * course.h - the files of the course, each loaded once per run.
 *
 * Pages and program READMEs name programs and evidence files; several may
 * name the same one.  course_program() and course_evidence() load a file
 * on first use, report its own problems once (a snippet marker error at
 * the program's line, a malformed or hand-edited evidence file at its
 * line), and hand back the same object afterwards.  The cache owns
 * everything; course_release() frees it all at exit.
 */
#ifndef COURSECHECK_COURSE_H
#define COURSECHECK_COURSE_H

#include <stdbool.h>

#include "diag.h"
#include "evidence.h"
#include "numtok.h"
#include "proghdr.h"
#include "sha256.h"
#include "snippet.h"
#include "textfile.h"

enum load_state { LOAD_OK, LOAD_REFUSED, LOAD_MISSING, LOAD_MALFORMED };

struct program {
	char *path;            /* repository-relative (the cache's: it outlives the struct) */
	size_t slot;           /* its entry in the course cache */
	enum load_state state;
	const char *why;       /* for REFUSED and MISSING */
	struct textfile tf;
	struct snippet_set snippets; /* read it through course_program_snippets() */
	bool snippets_read;    /* snippets scanned (at the first read; after a reload, when asked) */
	struct proghdr hdr;
	char sha256[SHA256_HEX_LEN + 1]; /* proghdr_source_sha256: Verified paragraph left out */
	bool resident;         /* tf, snippets and hdr are loaded */
	bool sha_of_text;      /* sha256 was computed from the resident tf (its first read) */
	bool in_use;           /* handed out since the last course_page_done, which frees the struct */
};

struct evfile {
	char *path;
	enum load_state state;
	const char *why;
	struct evidence ev;
	bool intact;           /* body matches body-sha256 */
	char *lesson;          /* the lesson folder it sits in (evidence/LESSON/...) */
	/* numbers of each file line, tokenised on first use
	 * (course_evidence_tokens); NULL until then */
	struct num_token **line_tok;
	size_t *line_ntok;     /* SIZE_MAX: line not tokenised yet */
	size_t slot;           /* its index in the course cache */
	bool resident;         /* ev is loaded (course_page_done frees it) */
	bool in_use;           /* handed out since the last course_page_done */
};

/* Loads (once) the program at relpath.  Never NULL; check ->state. */
struct program *course_program(const char *relpath);
/* p's snippets (p resident, LOAD_OK): scanned with their problems reported
 * at the program's first read; a read again after course_page_done scans
 * them only when a page asks (the program check never does). */
const struct snippet_set *course_program_snippets(struct program *p);
/* Loads (once) the evidence at relpath.  Never NULL; check ->state.  Its
 * text and fields (ev) are valid until the next course_page_done(), as a
 * program's are; asked for again, it is read again silently, keeping
 * the state and intact verdict of its first read. */
struct evfile *course_evidence(const char *relpath);

/* The numbers of file line `line` (1-based) of an evidence file loaded by
 * course_evidence(), as numtok_scan() reads them, tokenised once a run and
 * shared by every page and check that asks (read-only; owned by the course
 * cache): *n of them at *out.  false when ev is not the cache's (update
 * loads its own) or the line is not in it: the caller scans it itself. */
bool course_evidence_tokens(const struct evfile *ev, size_t line, const struct num_token **out, size_t *n);

/* A page's checks have ended: the evidence numbers tokenised for it are
 * freed (they are tokenised again if a later page asks; nothing keeps a
 * pointer to them past a page: banks copy the tokens), and so are the
 * texts of the programs it used: memory stays flat per page.  A program
 * asked for again (its README's checks, another page) is read again
 * without reporting its snippet problems a second time (an evidence file
 * likewise, without judging its seals again); its state,
 * reasons and source-sha256 are those of the first read.  A pointer from
 * course_program() is valid until the next course_page_done(). */
void course_page_done(void);
/* A count that changes whenever course_page_done() or course_release()
 * frees what a memo of a course file may point into. */
unsigned long course_generation(void);
/* True when ev is a loaded (LOAD_OK) file of the course cache. */
bool course_evidence_cached(const struct evfile *ev);

/* Reports why a named file could not be used, at the naming place (at),
 * with a note saying what named it.  Returns true when it reported. */
bool course_report_unusable(enum load_state state, const char *why, const char *path, struct diag_loc at,
			    const char *what);

/* The lessons of the course: folders under programs/, sorted.  programs/
 * itself, and each entry that should be a lesson but is refused, cannot be
 * listed (a link loop) or has a control byte in its name, is reported as an
 * error naming it (once a run) and left out. */
size_t course_lessons(char ***names);
/* The lesson's program (lessonfiles_program(): the one .cu, or the one
 * .cu with a Build: header line; malloc'd relative path) or NULL, with
 * *count set to how many .cu files the folder holds. */
char *course_lesson_program(const char *lesson, size_t *count);
/* Every file of the lesson (lessonfiles.h), read and hashed once, the
 * bytes given back at once (each file's data is NULL: its path and sha
 * are what staleness asks for); NULL with *why
 * when they cannot be read (*refused: the lesson is refused, a link or a
 * limit, rather than unreadable). */
struct lesson_files;
const struct lesson_files *course_lesson_files(const char *lesson, const char **why, bool *refused);

/* Every pages/NAME.md, sorted, as repository paths; free with
 * repo_free_list().  A refused or unlistable pages/ is reported. */
size_t course_pages(char ***names);
/* Reports (once a run) an evidence/ or evidence/LESSON/ folder that is
 * refused or cannot be listed.  false when it did: the lesson's runs are
 * then unknown, not absent. */
bool course_evidence_folder_usable(const char *lesson);
/* The evidence path a program's Verified paragraph names, as a byte range
 * of h->verified; false when it names none. */
bool course_verified_path(const struct proghdr *h, size_t *start, size_t *end);

void course_release(void);

#endif
