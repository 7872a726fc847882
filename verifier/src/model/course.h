/*
 * course.h - the course model: what one run knows of the course, read
 * once.
 *
 * course_load() (or, for a run given its pages, course_open(): each
 * listing at its first need, see below) lists the course before any check (and, under -j N,
 * before parallel_run forks, so every worker shares it): pages/,
 * programs/ (its entries), programs/common/ (read and hashed once for
 * every lesson), evidence/ and every evidence/LESSON/ (its runs, oldest
 * first).  No folder is listed again in the run: pages, lessons, runs and
 * a lesson's program are answered from the model, and a regular file a
 * listing found is opened without resolving its path again
 * (course_resolve).  A folder that is refused or cannot be listed is
 * recorded, not reported: it is reported (once a run) where a check first
 * needs it, which is where it was reported before there was a read phase,
 * so the diagnostics and their order do not depend on when the course was
 * listed.
 *
 * Files are loaded on first use and kept as bounded facts:
 * - a lesson's files (course_lesson_files) are read and hashed once a run
 *   where the lesson's page, README and program are checked together (as
 *   verify does); the bytes go at once, but the program's, which wait for
 *   its first course_program() (one read serves its parse, its
 *   source-sha256 and staleness) until course_page_done().  Their paths
 *   and hashes are kept for the last four lessons used; a lesson pushed
 *   out keeps its program and .cu count, and its files are read again if
 *   a later page asks for them (a page naming a lesson checked far from
 *   it): 10,000 lessons do not keep every file's path and hash;
 * - a program (course_program) and an evidence file (course_evidence)
 *   report their own problems at their first read (a snippet marker error
 *   at the program's line, a malformed or hand-edited evidence file at
 *   its line), and hand back the same object afterwards.  Their texts are
 *   freed by course_page_done(), but for the last few used: a file asked
 *   for after that is read again from disk, silently, keeping the verdicts
 *   of its first read.  verify checks a lesson's page, README and program
 *   one after the other (cli.c's chunks), so the last four kept serve them
 *   all from one read; a second read happens only where a page names
 *   files of lessons checked far from it (a cite of a lesson whose runs
 *   were pushed out, pages not named after their lessons): the price of
 *   memory that stays flat;
 * - a page's front-matter facts (its lesson, status and evidence paths)
 *   are recorded when the page is checked (course_page_seen), for cites
 *   and for a README's status; a page asked for before its check is read
 *   then, muted.
 *
 * Ownership: the model owns everything it hands out; pointers into it are
 * valid until course_release(), except a program's and an evidence
 * file's text and parse (and the tokens of course_evidence_tokens), valid
 * until the next course_page_done().  course_release() (cli_release, at
 * exit) frees it all.  One model a process: the accessors below use the
 * model course_load() made, loading it when none is (update, explain and
 * review read the course through the same functions).
 */
#ifndef COURSECHECK_COURSE_H
#define COURSECHECK_COURSE_H

#include <stdbool.h>

#include "diag.h"
#include "evidence.h"
#include "frontmatter.h"
#include "repo.h"
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
	/* proghdr_source_sha256 (Verified paragraph left out), made when
	 * asked: read it through course_program_sha256() */
	char sha256[SHA256_HEX_LEN + 1];
	bool resident;         /* tf, snippets and hdr are loaded */
	bool sha_of_text;      /* sha256 was computed from the resident tf */
	bool in_use;           /* handed out since the last course_page_done, which frees the struct */
};

struct evfile {
	/* pointers first, then the flags: 10,000 of them are kept */
	char *path;
	const char *why;
	/* the parsed file while resident (and for a malformed one); else a
	 * shared empty evidence: 10,000 lessons keep 10,000 small evfiles,
	 * not 10,000 evidence structs */
	struct evidence *ev;
	char *lesson;          /* the lesson folder it sits in (evidence/LESSON/...) */
	/* numbers of each file line, tokenised on first use
	 * (course_evidence_tokens); NULL until then.  One block: the
	 * n_lines + 1 lines' tokens, then their counts (SIZE_MAX: line not
	 * tokenised yet, and its pointer not set) */
	struct num_token **line_tok;
	/* a block another module made from the text (course_evidence_keep),
	 * or NULL: it goes with the text */
	void *derived;
	size_t derived_len;
	size_t slot;           /* its index in the course cache */
	enum load_state state;
	bool intact;           /* body matches body-sha256 */
	bool borrowed;         /* path and lesson are the listing's (a run of evidence/LESSON/) */
	bool resident;         /* ev is loaded (course_page_done frees it) */
	bool in_use;           /* handed out since the last course_page_done */
	unsigned char marks;   /* course_evidence_first's, on the cache's own copy */
};

/* Lists the course (see above); a second call does nothing.  Reports
 * nothing itself. */
void course_load(void);
/* The model without its listings, for a run that checks the pages it is
 * given (verify PAGE..., verify --affected): each listing is made at its
 * first need (course_pages lists pages/, course_lessons programs/), a
 * lesson's runs when asked for (evidence/LESSON/ alone, evidence/ only
 * probed), and the page a cite or a README's status asks for is the
 * lesson's own, pages/LESSON.md, read directly when it names the lesson
 * (course_cite_page): one page costs its own files, not the course's.
 * The answers are those of course_load()'s model.  A second call, or
 * one after course_load(), does nothing. */
void course_open(void);
/* repo_resolve(), answered without the disk for a regular file a listing
 * of the model found (a page, a run, a lesson file): same contract. */
enum repo_status course_resolve(const char *relpath, char **fspath, const char **why);

/* Loads (once) the program at relpath.  Never NULL; check ->state. */
struct program *course_program(const char *relpath);
/* p's snippets (p resident, LOAD_OK): scanned with their problems reported
 * at the program's first read; a read again after course_page_done scans
 * them only when a page asks (the program check never does). */
const struct snippet_set *course_program_snippets(struct program *p);
/* p's source-sha256 (proghdr_source_sha256 of its text), made at the
 * first ask and kept for the run, or NULL when p cannot be read.  Only
 * evidence from before the tokens rule (source-rule:) is judged by it, so
 * a run judged by its read files never hashes the program twice.  The
 * lesson files read with p's bytes (course_lesson_files) get it too. */
const char *course_program_sha256(struct program *p);
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

/* A block made from the text of the evidence at ev by one module (bank.c:
 * the numbers of its headers and first stdout), kept with the text while
 * the file stays resident, so that the next page that reads the file (a
 * page citing the lesson checked just before it) finds it made instead of
 * making it again.  keep takes data (malloc'd, len bytes) and frees the
 * block kept before; for an ev not the cache's own or not resident it
 * frees data at once.  kept: the block (read-only) and its length, or
 * NULL.  The caller bounds its size: the few files kept resident keep
 * theirs. */
void course_evidence_keep(const struct evfile *ev, void *data, size_t len);
const void *course_evidence_kept(const struct evfile *ev, size_t *len);

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
/* The caches of the modules that work over the model's files (place.c's
 * memo of one evidence file's names and its index of repeat values and
 * volatile places; drift.c's older runs banked and aligned): each a block
 * its module lays out, kept by the model and emptied through the
 * module's own function when a page is done (course_page_done: what a
 * cache points into, the texts of the page's files, goes then) and at
 * course_release(), which frees the blocks.  Under verify -j a worker
 * fills its own copy after the fork. */
enum course_cache { COURSE_CACHE_PLACE, COURSE_CACHE_DRIFT, COURSE_CACHES };
/* The block of cache which: made zeroed (size bytes) at its first use,
 * with empty as what empties it (it must leave the block as zeroed). */
void *course_cache(enum course_cache which, size_t size, void (*empty)(void *block));
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
/* Every file of the lesson (lessonfiles.h), read and hashed (once, or
 * again after the lesson was pushed out: see above), the bytes given back
 * at once (each file's data is NULL: its path and sha are what staleness
 * asks for), valid until the next course_page_done(); NULL with *why
 * when they cannot be read (*refused: the lesson is refused, a link or a
 * limit, rather than unreadable). */
struct lesson_files;
const struct lesson_files *course_lesson_files(const char *lesson, const char **why, bool *refused);

/* Once-a-run marks, for a check that reports something of a run or of a
 * lesson once a run, wherever it is met first (evsig: a run's signature
 * at each strictness, a lesson's scan for private keys): true the first
 * time mark (below COURSE_MARKS) is asked of the run at ev or of the
 * lesson, false after.  The marks are the model's, a byte a run and a
 * lesson, gone with course_release().  An ev that is not the cache's
 * (a copy the caller made) is always first: judged again, never
 * skipped. */
#define COURSE_MARKS 8
bool course_evidence_first(const struct evfile *ev, unsigned mark);
bool course_lesson_first(const char *lesson, unsigned mark);

/* Every pages/NAME.md, sorted, as repository paths; free with
 * repo_free_list().  A refused or unlistable pages/ is reported. */
size_t course_pages(char ***names);
/* Whether programs/LESSON exists (repo_resolve() would find it). */
bool course_lesson_exists(const char *lesson);
/* The regular files course_load() found beside the runs in evidence/ and
 * in each evidence/LESSON/ (repo_evidence_loose_name) as repository
 * paths, borrowed until course_release: true, or false when course_load()
 * did not list evidence/ (course_open()).  The private-key scan (evsig)
 * reads them rather than list every folder again. */
bool course_evidence_loose_files(char *const **paths, size_t *n);
/* The lesson's runs, oldest first, as repo_list_evidence() gives them
 * (a missing folder: none): malloc'd copies (course_list_evidence, free
 * with repo_free_list), or the newest (malloc'd, NULL when none). */
size_t course_list_evidence(const char *lesson, char ***paths);
char *course_newest_evidence(const char *lesson);

/* A checked page's front matter, recorded for cites and README statuses
 * (a page the model does not list is left out). */
void course_page_seen(const char *page, const struct frontmatter *fm);
/* Before parallel_run forks: the page facts one worker learns (a page's
 * lesson, evidence paths and status, as course_page_seen and the cite
 * index read them) are shared with the others through a table mapped
 * shared (shared_slots.h), so that a worker citing lesson k takes the
 * facts of pages other workers have checked instead of reading every
 * page before k.  The answers are the same with or without it. */
void course_share_facts(void);
/* The evidence paths of the lesson's page: pages/LESSON.md when it is
 * text and names lesson, else the first page, in course_pages() order,
 * that is text and names lesson (borrowed: the array until the next call, the
 * paths until course_release); false when none does. */
bool course_cite_page(const char *lesson, const char *const **evidence, size_t *n);
/* The status of the lesson's page with front matter: pages/LESSON.md
 * when it names lesson, else the first page that does. */
bool course_lesson_status(const char *lesson, enum page_status *status);
/* Reports (once a run) an evidence/ or evidence/LESSON/ folder that is
 * refused or cannot be listed.  false when it did: the lesson's runs are
 * then unknown, not absent. */
bool course_evidence_folder_usable(const char *lesson);
/* The evidence path a program's Verified paragraph names, as a byte range
 * of h->verified; false when it names none. */
bool course_verified_path(const struct proghdr *h, size_t *start, size_t *end);
/* Whether lesson has a README to check: programs/LESSON/README.md is a
 * file, or it is there and refused (a link out of the repository), which
 * its check then reports as a page that is such a link is reported; not
 * when the lesson's folder is itself refused (reported as the folder).
 * *rel gets the path (malloc'd) either way. */
bool course_readme_listed(const char *lesson, char **rel);

void course_release(void);

#endif
