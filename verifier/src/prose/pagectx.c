/* pagectx.c - see pagectx.h. */
#include "pagectx.h"

#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "util.h"

void pagectx_free(struct page_ctx *ctx)
{
	page_free(&ctx->pg);
	frontmatter_free(&ctx->fm);
	textfile_free(&ctx->tf);
	free(ctx->ev);
	free(ctx->consumed);
	free(ctx->lesson);
	memset(ctx, 0, sizeof *ctx);
}

struct evfile *pagectx_evidence_for(struct page_ctx *ctx, const char *label, size_t line, size_t col)
{
	const struct fm_evidence *e = frontmatter_evidence(&ctx->fm, label);
	if (!e) {
		if (ctx->fm.n_evidence == 0)
			return NULL; /* already reported as a front matter problem */
		struct diag *d = diag_begin(D_LABEL_UNKNOWN, textfile_loc_line(&ctx->tf, line, col, 0),
					    "evidence label '%s' is not defined in the front matter", label);
		struct buf labels = {0};
		for (size_t i = 0; i < ctx->fm.n_evidence; i++)
			buf_printf(&labels, "%s%s", i ? ", " : "", ctx->fm.evidence[i].label);
		diag_hint(d, "the labels defined are: %s", labels.s);
		buf_free(&labels);
		diag_end(d);
		return NULL;
	}
	struct evfile *ev = ctx->ev[e - ctx->fm.evidence];
	return ev && ev->state == LOAD_OK ? ev : NULL;
}

/* The file of <!-- snippet: FILE#NAME -->: FILE is repository-relative
 * when it starts with programs/ or pages/, else relative to the lesson's
 * folder (programs/LESSON/), where "../common/x.h" names the shared
 * folder.  Malloc'd.  The one rule verify and update resolve it by. */
char *pagectx_snippet_path(const struct page_ctx *ctx, const char *arg, size_t len)
{
	char *file = xstrndup(arg, len);
	bool leading_up = len > 3 && memcmp(arg, "../", 3) == 0;
	/* any other "..", or an absolute path, is taken as written, so that
	 * repo_resolve refuses what climbs out */
	bool odd = arg[0] == '/' || strstr(file + (leading_up ? 3 : 0), "..") != NULL;
	free(file);
	if (!ctx->lesson || odd || (len >= 9 && memcmp(arg, "programs/", 9) == 0) ||
	    (len >= 6 && memcmp(arg, "pages/", 6) == 0))
		return xstrndup(arg, len);
	if (leading_up)
		return xasprintf("programs/%.*s", (int)(len - 3), arg + 3);
	return xasprintf("programs/%s/%.*s", ctx->lesson, (int)len, arg);
}
