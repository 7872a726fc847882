/*
 * course_impl.h - the course model's own header: struct course and what
 * its three files share, for them alone (course.h is the interface
 * every other module uses).
 *
 * The model is one module in three files (tests/arch/layers.py counts
 * them as the module `course`):
 * - course.c: the model's life (course_open, course_load, course_model,
 *   course_release), resolving a path through the listings, the folders
 *   (probed, listed, their problems reported once), the listings of
 *   pages/, programs/ and each evidence/LESSON/, the lessons;
 * - course_files.c: what is read of a lesson: its programs, its evidence
 *   files and their numbers, its files and their hashes, what is kept
 *   resident between pages (the last few used) and given back at
 *   course_page_done;
 * - course_facts.c: the page facts a cite or a README's status asks for,
 *   the lesson's own page read directly, and their sharing under -j.
 *
 * Ownership: course_cur, made by course_open() and freed with all it
 * holds by course_release() (each file frees its own part:
 * course_release_files, course_release_facts, the listings in
 * course.c).  Every field below is owned by the model but where its
 * comment says it is borrowed.
 */
#ifndef COURSECHECK_COURSE_IMPL_H
#define COURSECHECK_COURSE_IMPL_H

#include <dirent.h>
#include <stdint.h>

#include "course.h"
#include "lessonfiles.h"
#include "shared_slots.h"
#include "strmap.h"

/* What stays of a program between pages: its path, and the verdict and
 * source-sha256 of its first read.  Its struct program exists only while
 * handed out (course_page_done frees it, but for the last few used):
 * 10,000 lessons keep 10,000 slots of about 100 bytes, not their parsed
 * texts and headers. */
struct program_slot {
	char *path;
	const char *why;
	struct program *live;
	enum load_state state;
	bool has_sha;          /* sha holds the source-sha256 (else it was empty) */
	bool borrowed;         /* path is its lesson's program path (lesson_files_entry), not a copy */
	unsigned char sha[SHA256_HEX_LEN / 2]; /* its 64 hex digits as 32 bytes: 10,000 slots */
};

/* course_lesson_files()'s entry for a lesson: its files' paths and
 * hashes (f), and the text of its program until course_program() takes
 * them (or course_page_done() gives them back): the one read of the
 * lesson's files serves staleness, the program's parse and its hash.
 * f is kept for the lessons used last (LF_KEPT, as evidence and programs
 * are: a lesson's page, README and program are checked one after the
 * other); a lesson pushed out keeps only what its listing answers (its
 * program and how many .cu files it has), and is read again if a later
 * page asks for its files (a page that names a lesson checked far from
 * it): 10,000 lessons keep 10,000 small entries, not every file's path
 * and hash. */
struct lesson_files_entry {
	char *lesson;
	struct lesson_files *f; /* NULL when rc != 0 or pushed out */
	char *why;
	char *program;    /* the program's path (rc 0), NULL when none */
	size_t n_cu;      /* top-level .cu files of programs/LESSON/ (rc 0) */
	int rc;
	bool used;        /* asked for since the last course_page_done */
	bool lesson_borrowed; /* lesson is the programs/ entry's name (lesson_name) */
	unsigned char marks;  /* course_lesson_first's */
};

/* A folder of the course as course_load() found it: listed, absent, or
 * unusable (reported at the first place that needs it, as before a read
 * phase, once a run). */
enum folder_state { FOLDER_OK, FOLDER_ABSENT, FOLDER_BAD, FOLDER_REFUSED };
struct folder {
	enum folder_state state;
	char *why;
};

/* An entry of programs/ (course_load) and what the listing made of it
 * (at the first course_lessons()). */
enum lesson_verdict { LV_UNJUDGED, LV_LESSON, LV_SKIP, LV_NAME, LV_PROBLEM };
struct lesson_entry {
	char *name;
	unsigned char type;       /* d_type */
	enum lesson_verdict verdict;
	bool refused;             /* LV_PROBLEM: refused rather than unreadable */
	char *why;                /* LV_PROBLEM */
};

/* A lesson's runs: evidence/LESSON/ listed once, oldest first. */
struct lesson_runs {
	char *lesson;
	struct folder folder;     /* evidence/LESSON/ */
	char **paths;
	bool *regular;            /* each run a regular file, not a link (d_type) */
	size_t n;
	bool asked, usable;       /* course_evidence_folder_usable's answer, reported at the first ask */
	bool lesson_borrowed;     /* lesson is the programs/ entry's name (lesson_name) */
};

/* What the course model keeps of a page: the facts a cite or a README's
 * status asks of it (its front matter's lesson, status and evidence),
 * recorded when the page is checked, or read (muted) when asked for
 * before that. */
struct page_facts {
	bool known;
	bool text_ok;             /* text a check would read (UTF-8, no NUL) */
	bool present;             /* front matter */
	enum page_status status;
	char *lesson;             /* one block: the lesson, then each evidence path, NUL after each */
	size_t n_evidence;
};

/* A lesson program's text and header as its files' read made them
 * (lessonfiles_take_program), until its first read takes them (tf.data
 * NULL then). */
struct held {
	struct lesson_files_entry *e;
	struct textfile tf;
	struct proghdr hdr;
};

#define EV_KEPT 4
#define PROG_KEPT 4
#define LF_KEPT 4
#define RECENT_MAX 4 /* the largest of the three */
_Static_assert(EV_KEPT <= RECENT_MAX && PROG_KEPT <= RECENT_MAX && LF_KEPT <= RECENT_MAX, "RECENT_MAX too small");

/* The few used last, newest first, as keys (an evfile or lesson-files
 * entry's address, or a program slot + 1, since slots move when the
 * slot array grows); 0 is no entry.  n of them are used. */
struct recent {
	uintptr_t key[RECENT_MAX];
	size_t n;
};

/* The course model: one a run (course_load), freed by course_release().
 * Listings: made at the load and never again; files: loaded on first
 * use, each read once where memory allows (see course.h). */
struct course {
	/* the listings */
	struct folder pages_dir, programs_dir, evidence_dir;
	char *programs_fs;        /* programs/'s file-system path */
	bool evidence_asked, evidence_usable;
	char **pages;             /* pages/NAME.md, sorted (found by bsearch) */
	bool *page_regular;       /* each a regular file, not a link (d_type) */
	size_t n_pages;
	struct lesson_entry *entries; /* programs/, in listing order */
	size_t n_entries;
	size_t *entry_sorted;     /* indices into entries, by name (found by bsearch) */
	bool lessons_judged;
	struct lesson_runs **runs; /* each its own allocation */
	size_t n_runs, cap_runs;
	struct strmap runs_index; /* lesson -> index in runs */
	struct strmap evidence_entry; /* names of evidence/'s entries that are not plain folders (few) */
	char **evidence_other;
	size_t n_evidence_other, cap_evidence_other;
	/* the regular files of evidence/ and evidence/LESSON/ beside the runs
	 * (repo_evidence_loose_name), found by course_load's listings, for
	 * the private-key scan (course_evidence_loose_files) */
	char **evidence_loose;
	size_t n_evidence_loose, cap_evidence_loose;
	bool common_read;         /* programs/common/ read (need_common) */
	struct lessonfiles_common common;
	/* which listings were made: all three at course_load(), each on its
	 * first need after course_open() (need_pages, need_programs; the
	 * runs of one lesson at a time, evidence/ itself only probed) */
	bool pages_listed, programs_listed, evidence_listed, evidence_probed;

	/* programs, evidence and lesson files: each found by its path through
	 * a hash index (a linear scan made 10,000 lessons quadratic); the keys
	 * are the objects' own path strings, which live until release */
	struct program_slot *programs;
	size_t n_programs, cap_programs;
	struct strmap program_index;
	struct evfile **evfiles;
	size_t n_evfiles, cap_evfiles;
	struct strmap evfile_index;
	struct lesson_files_entry **lesson_files; /* each its own allocation: what callers hold never moves */
	size_t n_lesson_files, cap_lesson_files;
	struct strmap lesson_files_index;
	/* evidence files whose numbers are tokenised now (course_page_done frees them) */
	struct evfile **tokenised;
	size_t n_tokenised, cap_tokenised;
	/* programs and evidence handed out since the last course_page_done */
	struct program **in_use;
	size_t n_in_use, cap_in_use;
	struct evfile **ev_in_use;
	size_t n_ev_in_use, cap_ev_in_use;
	/* held lesson bytes (a program's, until its first read takes them),
	 * given back at course_page_done: here, not in each lesson's entry */
	struct held *holding;
	size_t n_holding, cap_holding;
	/* lessons whose files were asked for since the last course_page_done,
	 * and those of the last few kept whole (keep_recent_files) */
	struct lesson_files_entry **lf_used;
	size_t n_lf_used, cap_lf_used;
	struct recent lf_kept;
	/* the evidence files and programs used last, kept resident past
	 * course_page_done (keep_recent, keep_recent_program) */
	struct recent ev_kept;
	struct recent prog_kept;
	/* folders already reported: a refused folder is named once, not once
	 * for every page that would have listed it */
	char **reported;
	size_t n_reported, cap_reported;
	struct strmap reported_index;

	/* the page facts, by index in pages; a lesson's first page (in
	 * pages order) among pages 0 .. facts_prefix - 1 */
	struct page_facts *facts;
	size_t facts_prefix;
	struct strmap cite_page_of;   /* lesson -> first text_ok page naming it */
	struct strmap status_page_of; /* lesson -> first page with front matter naming it */
	const char **cite_evidence;   /* course_cite_page()'s answer, valid until the next call */
	size_t cap_cite_evidence;
	struct shared_slots *shared_facts; /* course_share_facts(): what other workers learnt, by page */
	/* pages/LESSON.md read directly while pages/ is not listed (own_page) */
	struct page_facts *own_facts;
	char **own_keys;
	size_t n_own, cap_own, cap_own_keys;
	struct strmap own_index;

	/* the caches of the modules above (course_cache): each block and
	 * the function that empties it */
	struct {
		void *block;
		void (*empty)(void *block);
	} caches[COURSE_CACHES];
};


/* The model of this run (course_open, course_load); NULL before. */
extern struct course *course_cur;

/* course.c */
/* The model, listed whole (course_load) when none was made. */
struct course *course_model(void);
/* Opens the course folder rel for listing, silently: its state in *f
 * (reported where a check needs it: course_folder_report); NULL when it
 * cannot be listed, else *fspath (malloc'd) is its file-system path. */
DIR *course_probe_folder(const char *rel, bool required, struct folder *f, char **fspath);
/* Reports f's problem (once a run); true when the folder is usable. */
bool course_folder_report(const char *rel, const char *what, const struct folder *f);
/* The programs/ listing's copy of a lesson's name, or NULL. */
char *course_lesson_name(struct course *c, const char *lesson);
/* pages/ listed (once). */
void course_need_pages(struct course *c);

/* course_files.c */
/* programs/common/ read and hashed (once). */
void course_need_common(struct course *c);
/* Frees the programs, evidence files and lesson files, and the caches'
 * blocks (emptied first). */
void course_release_files(struct course *c);
/* Empties each cache block through its module's function (a page done,
 * the course released). */
void course_empty_caches(struct course *c);

/* course_facts.c */
/* Frees the page facts. */
void course_release_facts(struct course *c);

#endif
