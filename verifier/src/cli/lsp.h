/*
 * lsp.h - what `coursecheck lsp` answers (cli_lsp.h is the
 * protocol): a document's diagnostics, hover, go to definition, code
 * actions, completion of place names and the rename of a snippet.
 *
 * No second implementation of any check: lsp_check() runs check_page_text
 * (check.h), verify's own check of one page, over the editor's text, with
 * a diag sink (diag.h) collecting what verify would print and a ledger
 * (ledger.h) collecting what explain would print.  Every other answer is
 * read from those two: a hover is the ledger entry under the cursor, a
 * definition its first reference, a code action an edit built from an
 * entry's references (place.h names them) or a diagnostic's notes.
 *
 * Each check starts from a fresh course model (course.h: the files on
 * disk as they are now, as a `verify PAGE` run would see them), since an
 * editor session outlives any change to programs and evidence.
 *
 * Ownership: a struct lsp_doc owns everything it points to, freed by
 * lsp_doc_free().  Every function returning json_t * returns a new
 * reference (the caller's), never NULL: JSON null where there is no
 * answer.  Positions are LSP's (0-based lines, UTF-16 code units).
 */
#ifndef COURSECHECK_LSP_H
#define COURSECHECK_LSP_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "ledger.h"

/* One diagnostic of the last check, as published and as the code
 * actions need it. */
struct lsp_found {
	json_t *diag;          /* owned: the LSP Diagnostic object */
	enum diag_kind kind;
	size_t start, end;     /* its byte range in the document's text */
	char **values;         /* owned: evidence numbers its notes point at (replacements) */
	size_t n_values;
};

struct lsp_doc {
	char *uri;             /* owned: as the client named it */
	char *rel;             /* owned: the repository path; NULL when the document is no page of the course */
	char *text;            /* owned, NUL-terminated: the editor's text */
	size_t len;
	size_t *line_start;    /* owned: byte offset of each line of text */
	size_t n_lines;
	/* the last check's findings */
	struct lsp_found *found;
	size_t n_found, cap_found;
	struct ledger lg;
};

/* Replaces d's text with a copy of text[0..len) and indexes its lines. */
void lsp_doc_set_text(struct lsp_doc *d, const char *text, size_t len);
void lsp_doc_free(struct lsp_doc *d);

/* The course path of a file: URI (NULL when it names no file under the
 * course's root).  Malloc'd. */
char *lsp_uri_to_rel(const char *uri);
/* The file: URI of a repository path.  Malloc'd. */
char *lsp_rel_to_uri(const char *rel);

/* Checks d (a page or a program README) as verify checks it (strict: as
 * --as=published does); returns the
 * params of textDocument/publishDiagnostics ({uri, diagnostics}). */
json_t *lsp_check(struct lsp_doc *d, bool strict);

/* The answers; pos is an LSP Position, range an LSP Range. */
json_t *lsp_hover(const struct lsp_doc *d, const json_t *pos);
json_t *lsp_definition(const struct lsp_doc *d, const json_t *pos);
json_t *lsp_code_actions(const struct lsp_doc *d, const json_t *range);
json_t *lsp_completion(const struct lsp_doc *d, const json_t *pos);
/* A WorkspaceEdit renaming the snippet whose marker is at pos in the page
 * and in its program, or NULL (no reference) with *why set. */
json_t *lsp_rename(const struct lsp_doc *d, const json_t *pos, const char *new_name, const char **why);


#endif
