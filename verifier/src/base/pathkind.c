/* pathkind.c - see pathkind.h. */
#include "pathkind.h"

#include <stdbool.h>
#include <string.h>

#include "diag.h"
#include "textfile.h"

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n > k && strcmp(s + n - k, suffix) == 0;
}

enum pathkind pathkind_of(const char *rel)
{
	if (starts(rel, "pages/") && ends(rel, ".md"))
		return PATHKIND_PAGE;
	if (starts(rel, "programs/"))
		return ends(rel, ".md") ? PATHKIND_README : ends(rel, ".cu") ? PATHKIND_PROGRAM : PATHKIND_LESSON_FILE;
	if (starts(rel, "evidence/"))
		return PATHKIND_EVIDENCE;
	return PATHKIND_OTHER;
}

const char *pathkind_name(enum pathkind kind)
{
	static const char *const names[] = {
		[PATHKIND_PAGE] = "a page",
		[PATHKIND_README] = "a lesson's README",
		[PATHKIND_PROGRAM] = "a lesson's program file",
		[PATHKIND_LESSON_FILE] = "a file of a lesson's program",
		[PATHKIND_EVIDENCE] = "evidence",
		[PATHKIND_OTHER] = "a file outside pages/ and programs/",
	};
	return names[kind];
}

bool pathkind_refuse_page(const char *rel, const char *command, bool program_ok)
{
	enum pathkind kind = pathkind_of(rel);
	if (kind != PATHKIND_PROGRAM && kind != PATHKIND_LESSON_FILE && kind != PATHKIND_EVIDENCE)
		return false;
	if (kind == PATHKIND_PROGRAM && program_ok)
		return false;
	const char *p = strchr(rel, '/') + 1;
	int n = (int)strcspn(p, "/");
	struct diag *d = diag_begin(D_NOT_A_PAGE, (struct diag_loc){.path = rel},
				    "%s, not a page: it is not read as Markdown", pathkind_name(kind));
	if (strchr(p, '/'))
		diag_hint(d, "'coursecheck verify --affected %s' checks lesson '%.*s' and every page it affects%s", rel, n,
			  p, strcmp(command, "update") == 0 ? "; update takes pages, READMEs and program .cu files" : "");
	else
		diag_hint(d, "%s takes pages (pages/*.md) and lesson READMEs (programs/LESSON/README.md)", command);
	diag_end(d);
	return true;
}

enum diag_kind pathkind_unusable_kind(bool refused, const char *why)
{
	return refused ? D_PATH_REFUSED : why == textfile_too_large ? D_FILE_TOO_LARGE : D_FILE_UNREADABLE;
}
