/* facts.c - see facts.h. */
#include "facts.h"

#include <stdlib.h>
#include <string.h>

#include "re.h"
#include "util.h"

static struct re date_re = RE_INIT("(?<![\\d-])(\\d{4}-\\d{2}-\\d{2})(?![\\d-])", 0);
static struct re driver_re = RE_INIT("\\bdriver\\s+(?:version\\s+)?(\\d+(?:\\.\\d+)+)", PCRE2_CASELESS);
static struct re cuda_re = RE_INIT("\\bCUDA\\s+(?:toolkit\\s+)?(\\d+\\.\\d+)(?!\\.\\d)(?:\\s*\\(V(\\d+(?:\\.\\d+)+)\\))?", 0);
static struct re cc_re = RE_INIT("\\bcompute\\s+capability\\s+(\\d+\\.\\d+)", PCRE2_CASELESS);
static struct re flag_re = RE_INIT("(?<![\\w/.=-])(--?[A-Za-z][\\w.=+,/:-]*)", 0);

struct checker {
	const struct fact_text *t;
	const struct evfile *ev;
	struct ledger *lg;
	struct fact_range *ranges;
	size_t n_ranges, cap;
	size_t checked;
};

static size_t file_off(const struct fact_text *t, size_t i)
{
	return t->map ? t->map[i] : t->base + i;
}

static struct diag_loc loc_of(const struct fact_text *t, size_t start, size_t end)
{
	size_t a = file_off(t, start);
	size_t b = end > start ? file_off(t, end - 1) + 1 : a;
	/* a span that wraps to the next line underlines only its first part */
	size_t line_end = a;
	while (line_end < t->file->len && t->file->data[line_end] != '\n')
		line_end++;
	if (b > line_end)
		b = line_end;
	return textfile_loc(t->file, a, b - a);
}

static void consumed(struct checker *c, size_t start, size_t end)
{
	c->ranges = xgrow(c->ranges, &c->cap, c->n_ranges + 1, sizeof *c->ranges);
	c->ranges[c->n_ranges++] = (struct fact_range){start, end};
	c->checked++;
}

/* One fact judged: into the ledger, with the evidence line it rests on. */
static void record(struct checker *c, bool ok, size_t start, size_t end, const char *key)
{
	if (!c->lg)
		return;
	size_t line = 0;
	const char *v = evidence_get(&c->ev->ev, key, &line);
	struct diag_loc at = loc_of(c->t, start, end);
	char *claim = xstrndup(c->t->s + start, end - start);
	ledger_add(c->lg, ok ? LG_FACT : LG_FAILED, at.line, at.col, claim, "%s:%zu (%s: %s)", c->ev->path, line, key,
		   v ? v : "");
	free(claim);
}

static void disagree(struct checker *c, enum diag_kind kind, size_t start, size_t end, const char *what,
		     const char *key, const char *want)
{
	size_t line;
	evidence_get(&c->ev->ev, key, &line);
	struct diag *d = diag_begin(kind, loc_of(c->t, start, end), "%s '%.*s' differs from the evidence's %s", what,
				    (int)(end - start), c->t->s + start, want);
	diag_note(d, textfile_loc_line(&c->ev->ev.tf, line, 0, 0), "the evidence records %s: %s", key,
		  evidence_get(&c->ev->ev, key, NULL));
	diag_end(d);
}

static bool span_eq(const char *s, size_t len, const char *want, size_t want_len)
{
	return len == want_len && memcmp(s, want, len) == 0;
}

static void check_dates(struct checker *c)
{
	char date[11];
	if (!evidence_captured_date(&c->ev->ev, date))
		return;
	struct re_match g;
	for (size_t off = 0; re_search(&date_re, c->t->s, c->t->len, off, &g); off = g.end[0]) {
		consumed(c, g.start[1], g.end[1]);
		bool ok = span_eq(c->t->s + g.start[1], g.end[1] - g.start[1], date, 10);
		record(c, ok, g.start[1], g.end[1], "captured");
		if (!ok)
			disagree(c, D_FACT_DATE, g.start[1], g.end[1], "date", "captured", "capture date");
	}
}

static void check_driver(struct checker *c)
{
	const char *want = evidence_get(&c->ev->ev, "driver", NULL);
	struct re_match g;
	for (size_t off = 0; re_search(&driver_re, c->t->s, c->t->len, off, &g); off = g.end[0]) {
		consumed(c, g.start[1], g.end[1]);
		bool ok = span_eq(c->t->s + g.start[1], g.end[1] - g.start[1], want, strlen(want));
		record(c, ok, g.start[1], g.end[1], "driver");
		if (!ok)
			disagree(c, D_FACT_DRIVER, g.start[1], g.end[1], "driver", "driver", "driver");
	}
}

/* The evidence says "13.0 (V13.0.88)": compare the release with X.Y and,
 * when the prose states it, the V part with VX.Y.Z. */
static void check_cuda(struct checker *c)
{
	const char *want = evidence_get(&c->ev->ev, "cuda", NULL);
	size_t rel_len = strcspn(want, " (");
	const char *v = strstr(want, "(V");
	struct re_match g;
	for (size_t off = 0; re_search(&cuda_re, c->t->s, c->t->len, off, &g); off = g.end[0]) {
		size_t end = re_group_set(&g, 2) ? g.end[2] + 1 : g.end[1]; /* with its ")" */
		consumed(c, g.start[1], end);
		bool ok = span_eq(c->t->s + g.start[1], g.end[1] - g.start[1], want, rel_len);
		if (!ok)
			disagree(c, D_FACT_CUDA, g.start[1], g.end[1], "CUDA version", "cuda", "CUDA version");
		if (re_group_set(&g, 2)) {
			size_t vlen = v ? strcspn(v + 2, ")") : 0;
			bool v_ok = v && span_eq(c->t->s + g.start[2], g.end[2] - g.start[2], v + 2, vlen);
			ok &= v_ok;
			if (!v_ok)
				disagree(c, D_FACT_CUDA, g.start[2], g.end[2], "CUDA compiler version", "cuda",
					 "CUDA compiler version");
		}
		record(c, ok, g.start[1], end, "cuda");
	}
}

static void check_cc(struct checker *c)
{
	const char *want = evidence_get(&c->ev->ev, "compute-capability", NULL);
	struct re_match g;
	for (size_t off = 0; re_search(&cc_re, c->t->s, c->t->len, off, &g); off = g.end[0]) {
		consumed(c, g.start[1], g.end[1]);
		bool ok = span_eq(c->t->s + g.start[1], g.end[1] - g.start[1], want, strlen(want));
		record(c, ok, g.start[1], g.end[1], "compute-capability");
		if (!ok)
			disagree(c, D_FACT_CC, g.start[1], g.end[1], "compute capability", "compute-capability",
				 "compute capability");
	}
}

/* A flag is in the build command when it is one of its words, or one item
 * of a comma-joined word (-Xcompiler -Wall,-Wextra). */
static bool flag_in_build(const char *build, const char *flag, size_t len)
{
	const char *p = build;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		size_t w = strcspn(p, " \t");
		const char *q = p;
		while (q < p + w) {
			size_t item = strcspn(q, ",");
			if (item > (size_t)(p + w - q))
				item = (size_t)(p + w - q);
			if (item == len && memcmp(q, flag, len) == 0)
				return true;
			q += item + 1;
		}
		if (w == len && memcmp(p, flag, len) == 0)
			return true;
		p += w;
	}
	return false;
}

static void check_flags(struct checker *c)
{
	const char *build = evidence_get(&c->ev->ev, "build", NULL);
	struct re_match g;
	for (size_t off = 0; re_search(&flag_re, c->t->s, c->t->len, off, &g); off = g.end[0]) {
		size_t s = g.start[1], e = g.end[1];
		/* sentence punctuation after the last flag is not part of it */
		while (e > s + 2 && strchr(".,;:", c->t->s[e - 1]))
			e--;
		consumed(c, s, e);
		bool ok = flag_in_build(build, c->t->s + s, e - s);
		record(c, ok, s, e, "build");
		if (!ok) {
			size_t line;
			evidence_get(&c->ev->ev, "build", &line);
			struct diag *d = diag_begin(D_FACT_FLAG, loc_of(c->t, s, e),
						    "flag '%.*s' is not in the recorded build command", (int)(e - s),
						    c->t->s + s);
			diag_note(d, textfile_loc_line(&c->ev->ev.tf, line, 0, 0), "the evidence was built with: %s",
				  build);
			diag_end(d);
		}
	}
}

static void check_gpu(struct checker *c)
{
	const char *gpu = evidence_get(&c->ev->ev, "gpu", NULL);
	const char *hit = memmem(c->t->s, c->t->len, gpu, strlen(gpu));
	if (hit) {
		consumed(c, (size_t)(hit - c->t->s), (size_t)(hit - c->t->s) + strlen(gpu));
		record(c, true, (size_t)(hit - c->t->s), (size_t)(hit - c->t->s) + strlen(gpu), "gpu");
		return;
	}
	c->checked++;
	record(c, false, 0, 0, "gpu");
	size_t line;
	evidence_get(&c->ev->ev, "gpu", &line);
	struct diag *d = diag_begin(D_FACT_GPU, loc_of(c->t, 0, 0), "the run's GPU, '%s', is not named here", gpu);
	diag_note(d, textfile_loc_line(&c->ev->ev.tf, line, 0, 0), "the evidence records gpu: %s", gpu);
	diag_hint(d, "name the GPU exactly as the evidence does");
	diag_end(d);
}

size_t facts_check(const struct fact_text *t, const struct evfile *ev, struct ledger *lg, struct fact_range **ranges,
		   size_t *n_ranges)
{
	struct checker c = {.t = t, .ev = ev, .lg = lg};
	check_gpu(&c);
	check_dates(&c);
	check_driver(&c);
	check_cuda(&c);
	check_cc(&c);
	check_flags(&c);
	if (ranges) {
		*ranges = c.ranges;
		*n_ranges = c.n_ranges;
	} else {
		free(c.ranges);
	}
	return c.checked;
}
