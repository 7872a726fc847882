/* check_runs.c - see check.h: which run and stream of its evidence a
 * transcript block quotes.
 *
 *   <!-- transcript -->                       the first run's stdout
 *   <!-- transcript: LABEL -->                the same, of evidence LABEL
 *   <!-- transcript: racecheck/stderr -->     run racecheck's stderr
 *   <!-- transcript: LABEL main/stderr -->    of evidence LABEL
 *   <!-- transcript: /stderr -->              the first run's stderr
 *
 * The run reference is the argument's last word when it holds a '/';
 * what comes before it is the evidence label. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util.h"

static void unknown_run(struct page_ctx *ctx, const struct page_block *b, const struct evfile *ev, const char *run,
			const char *stream)
{
	struct diag_loc at = textfile_loc_line(&ctx->tf, b->marker_line, b->marker_col, 0);
	struct diag *d;
	if (stream)
		d = diag_begin(D_RUN_UNKNOWN, at, "transcript stream '%s' is neither stdout nor stderr", stream);
	else
		d = diag_begin(D_RUN_UNKNOWN, at, "%s holds no run '%s'", ev->path, run);
	struct buf names = {0};
	for (size_t i = 0; i < ev->ev->n_runs; i++)
		buf_printf(&names, "%s%s", i ? ", " : "", ev->ev->runs[i].name);
	diag_hint(d, "name a run and stream as RUN/stdout or RUN/stderr; the runs of %s are: %s", ev->path,
		  names.s ? names.s : "none");
	buf_free(&names);
	diag_end(d);
}

struct evfile *transcript_source_find(struct page_ctx *ctx, const struct page_block *b, struct transcript_source *src)
{
	memset(src, 0, sizeof *src);
	const char *arg = b->marker_arg ? b->marker_arg : "";
	size_t len = strlen(arg);
	size_t word = len;
	while (word > 0 && arg[word - 1] != ' ')
		word--;
	const char *ref = strchr(arg + word, '/') ? arg + word : NULL;
	size_t label_len = ref ? word : len;
	while (label_len > 0 && arg[label_len - 1] == ' ')
		label_len--;
	char *label = xstrndup(arg, label_len);
	struct evfile *ev = pagectx_evidence_for(ctx, label, b->marker_line, b->marker_col);
	free(label);
	if (!ev)
		return NULL;
	if (!ref) {
		src->run = evidence_run_named(ev->ev, NULL);
		snprintf(src->what, sizeof src->what, "stdout");
		return src->run ? ev : NULL;
	}
	size_t slash = (size_t)(strchr(ref, '/') - ref);
	char *run = xstrndup(ref, slash);
	const char *stream = ref + slash + 1;
	if (strcmp(stream, "stdout") != 0 && strcmp(stream, "stderr") != 0) {
		unknown_run(ctx, b, ev, run, stream);
		free(run);
		return NULL;
	}
	src->err = stream[3] == 'e';
	src->run = evidence_run_named(ev->ev, run);
	if (!src->run) {
		unknown_run(ctx, b, ev, run, NULL);
		free(run);
		return NULL;
	}
	snprintf(src->what, sizeof src->what, "%s of run %s", stream, src->run->name);
	snprintf(src->shown, sizeof src->shown, " (run %s, %s)", src->run->name, stream);
	free(run);
	return ev;
}
