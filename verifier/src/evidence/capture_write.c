/* capture_write.c - see capture_write.h. */

#include "capture_write.h"

#include <stdlib.h>

#include "evidence.h"
#include "filewrite.h"
#include "sha256.h"

#define MAX_SEQ 9999

void header_add(struct buf *header, const char *key, const char *value)
{
	buf_printf(header, "%s: %s\n", key, value);
}

char *evidence_compose(const struct buf *header, const struct transcript *out,
		       const struct transcript *err, size_t *len)
{
	const struct transcript *outs[1] = {out}, *errs[1] = {err};
	const char *names[1] = {NULL};
	return evidence_compose_runs(header, outs, errs, names, 1, len);
}

char *evidence_compose_runs(const struct buf *header, const struct transcript *const *outs,
			    const struct transcript *const *errs, const char *const *names, size_t n, size_t *len)
{
	struct buf body = {0};
	for (size_t k = 0; k < n; k++) {
		const char *dot = k ? "." : "", *name = k ? names[k] : "";
		buf_printf(&body, "stdout%s%s: %zu\n", dot, name, outs[k]->n_lines);
		buf_append(&body, outs[k]->text, outs[k]->len);
		buf_printf(&body, "stderr%s%s: %zu\n", dot, name, errs[k]->n_lines);
		buf_append(&body, errs[k]->text, errs[k]->len);
	}
	char digest[SHA256_HEX_LEN + 1];
	sha256_hex(body.s, body.len, digest);

	struct buf all = {0};
	buf_puts(&all, EVIDENCE_MAGIC "\n");
	buf_append(&all, header->s ? header->s : "", header->len);
	header_add(&all, "body-sha256", digest);
	buf_append(&all, body.s, body.len);
	buf_free(&body);
	*len = all.len;
	return buf_detach(&all);
}

/* ---- the file ---- */

struct run_names {
	const char *date;
};

/* run-DATE.txt, then run-DATE-2.txt ... run-DATE-9999.txt. */
static char *run_name(int seq, void *arg)
{
	const struct run_names *r = arg;
	if (seq > MAX_SEQ)
		return NULL;
	return seq == 1 ? xasprintf("run-%s.txt", r->date) : xasprintf("run-%s-%d.txt", r->date, seq);
}

int evidence_write_new(const char *lesson, const char *date, const char *text, size_t len, char **relpath,
		       char **why)
{
	char *rel = xasprintf("evidence/%s", lesson);
	char *dir = filewrite_mkdirs_repo(rel, why);
	free(rel);
	if (!dir)
		return -1;
	char *shown = xasprintf("evidence/%s/", lesson);
	struct run_names names = {date};
	char *name = NULL;
	int r = filewrite_new(dir, shown, text, len, run_name, &names, &name, why);
	if (r == 0)
		*relpath = xasprintf("evidence/%s/%s", lesson, name);
	free(name);
	free(shown);
	free(dir);
	return r;
}
