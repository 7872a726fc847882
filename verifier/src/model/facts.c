/* facts.c - see facts.h. */
#include "facts.h"

#include <stdlib.h>
#include <string.h>

#include "re.h"
#include "strmap.h"
#include "util.h"

static struct re date_re = RE_INIT("(?<![\\d-])(\\d{4}-\\d{2}-\\d{2})(?![\\d-])", 0);
static struct re driver_re = RE_INIT("\\bdriver\\s+(?:version\\s+)?(\\d+(?:\\.\\d+)+)", PCRE2_CASELESS);
static struct re cuda_re = RE_INIT("\\bCUDA\\s+(?:toolkit\\s+)?(\\d+\\.\\d+)(?!\\.\\d)(?:\\s*\\(V(\\d+(?:\\.\\d+)+)\\))?", 0);
static struct re cc_re = RE_INIT("\\bcompute\\s+capability\\s+(\\d+\\.\\d+)", PCRE2_CASELESS);
static struct re flag_re = RE_INIT("(?<![\\w/.=-])(--?[A-Za-z][\\w.=+,/:-]*)", 0);

static const char *const fact_keys[] = {
	[FACT_GPU] = "gpu",         [FACT_DATE] = "captured", [FACT_DRIVER] = "driver",
	[FACT_CUDA] = "cuda",       [FACT_CUDA_V] = "cuda",   [FACT_CC] = "compute-capability",
	[FACT_FLAG] = "build",
};

const char *fact_key(enum fact_kind kind)
{
	return fact_keys[kind];
}

struct finder {
	struct fact *v;
	size_t n, cap;
};

static void found(struct finder *f, enum fact_kind kind, size_t start, size_t end)
{
	f->v = xgrow(f->v, &f->cap, f->n + 1, sizeof *f->v);
	f->v[f->n++] = (struct fact){kind, start, end};
}

/* s is valid UTF-8 (facts_find makes sure): each search starts where the
 * last ended and PCRE2 does not re-check the rest of the text, so a
 * paragraph of many facts is read once per pattern. */
static void find_all(struct finder *f, struct re *re, const char *s, size_t len, enum fact_kind kind)
{
	struct re_match g;
	for (size_t off = 0; off <= len && re_search_valid(re, s, len, off, &g);
	     off = g.end[0] > off ? g.end[0] : off + 1) {
		size_t a = g.start[1], b = g.end[1];
		if (kind == FACT_FLAG) {
			/* sentence punctuation after the last flag is not part of it */
			while (b > a + 2 && strchr(".,;:", s[b - 1]))
				b--;
		}
		found(f, kind, a, b);
		if (kind == FACT_CUDA && re_group_set(&g, 2))
			found(f, FACT_CUDA_V, g.start[2], g.end[2]);
	}
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Finds name in s where each space of name may be any run of spaces, tabs
 * and line breaks: a paragraph may wrap "NVIDIA H200" across two lines. */
static bool find_name(const char *s, size_t len, const char *name, size_t *start, size_t *end)
{
	for (size_t i = 0; i < len; i++) {
		size_t p = i;
		const char *q = name;
		while (*q && p < len) {
			if (*q == ' ') {
				if (!is_space(s[p]))
					break;
				while (p < len && is_space(s[p]))
					p++;
				q++;
			} else if (s[p] == *q) {
				p++;
				q++;
			} else {
				break;
			}
		}
		if (!*q) {
			*start = i;
			*end = p;
			return true;
		}
	}
	return false;
}

/* Facts are found in a copy where each byte of an invalid UTF-8 sequence
 * reads as a stand-in (same offsets), so one bad byte cannot hide the
 * facts of a whole paragraph from PCRE2. */
#define FACTS_INVALID_STANDIN '\x1A'

size_t facts_find(const char *s, size_t len, const char *gpu, struct fact **out)
{
	struct finder f = {0};
	char *copy = NULL;
	size_t bad = re_utf8_invalid_at(s, len);
	if (bad < len) {
		copy = xmalloc(len + 1);
		memcpy(copy, s, len);
		copy[len] = '\0';
		for (size_t i = bad; i < len;) {
			size_t at = i + re_utf8_invalid_at(copy + i, len - i);
			if (at == len)
				break;
			copy[at] = FACTS_INVALID_STANDIN;
			i = at + 1;
		}
		s = copy;
	}
	size_t gs, ge;
	if (gpu && *gpu && find_name(s, len, gpu, &gs, &ge))
		found(&f, FACT_GPU, gs, ge);
	find_all(&f, &date_re, s, len, FACT_DATE);
	find_all(&f, &driver_re, s, len, FACT_DRIVER);
	find_all(&f, &cuda_re, s, len, FACT_CUDA);
	find_all(&f, &cc_re, s, len, FACT_CC);
	find_all(&f, &flag_re, s, len, FACT_FLAG);
	free(copy);
	*out = f.v;
	return f.n;
}

/* A flag is in the build command when it is one of its words, or one item
 * of a comma-joined word (-Xcompiler -Wall,-Wextra). */
bool fact_flag_in_build(const char *build, const char *flag, size_t len)
{
	const char *p = build;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		size_t w = strcspn(p, " \t");
		if (w == len && memcmp(p, flag, len) == 0)
			return true;
		for (const char *q = p; q < p + w;) {
			size_t item = strcspn(q, ",");
			if (item > (size_t)(p + w - q))
				item = (size_t)(p + w - q);
			if (item == len && memcmp(q, flag, len) == 0)
				return true;
			q += item + 1;
		}
		p += w;
	}
	return false;
}

/* The words of a build command and the comma-joined items of each, in a
 * hash map, so that a paragraph of many flags is judged in time linear in
 * the paragraph and the command (not their product). */
static void build_words(const char *build, struct strmap *words)
{
	/* room for them all from the start (no rehash as it fills): at most
	 * a word a blank and one more, and an item a word and a comma */
	size_t most = 2;
	for (const char *c = build; *c; c++)
		most += *c == ' ' || *c == '\t' ? 2 : *c == ',';
	strmap_reserve(words, most);
	const char *p = build;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		size_t w = strcspn(p, " \t");
		if (w)
			strmap_add(words, p, w, 0, NULL);
		/* a word without a comma is its one item, added just now */
		bool commas = memchr(p, ',', w) != NULL;
		for (const char *q = p; commas && q < p + w;) {
			size_t item = strcspn(q, ",");
			if (item > (size_t)(p + w - q))
				item = (size_t)(p + w - q);
			if (item)
				strmap_add(words, q, item, 0, NULL);
			q += item + 1;
		}
		p += w;
	}
}

/* fact_expected of the recorded value v of kind's key (NULL: none). */
static size_t expected_of(const char *v, enum fact_kind kind, char *buf, size_t buflen)
{
	if (!v) {
		buf[0] = '\0';
		return 0;
	}
	size_t n;
	switch (kind) {
	case FACT_DATE:
		n = 10; /* the UTC date of captured */
		break;
	case FACT_CUDA:
		n = strcspn(v, " ("); /* "13.0" of "13.0 (V13.0.88)" */
		break;
	case FACT_CUDA_V: {
		const char *p = strstr(v, "(V");
		if (!p) {
			buf[0] = '\0';
			return 0;
		}
		v = p + 2;
		n = strcspn(v, ")");
		break;
	}
	default:
		n = strlen(v);
		break;
	}
	if (n >= buflen)
		n = buflen - 1;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return n;
}

size_t fact_expected(const struct evidence *ev, enum fact_kind kind, char *buf, size_t buflen)
{
	return expected_of(evidence_get(ev, fact_keys[kind], NULL), kind, buf, buflen);
}

static size_t file_off(const struct fact_text *t, size_t i)
{
	return t->map ? t->map[i] : t->base + i;
}

static struct diag_loc loc_of(const struct fact_text *t, size_t start, size_t end)
{
	size_t a = file_off(t, start);
	size_t b = end > start ? file_off(t, end - 1) + 1 : a;
	/* a span that wraps to the next line underlines only its first part
	 * (looked for within the span: a scan to the end of a long line for
	 * each fact was quadratic) */
	if (b > t->file->len)
		b = t->file->len;
	if (b < a)
		b = a;
	const char *nl = memchr(t->file->data + a, '\n', b - a);
	if (nl)
		b = (size_t)(nl - t->file->data);
	return textfile_loc(t->file, a, b - a);
}

static const char *const fact_words[] = {
	[FACT_GPU] = "GPU", [FACT_DATE] = "date", [FACT_DRIVER] = "driver", [FACT_CUDA] = "CUDA version",
	[FACT_CUDA_V] = "CUDA compiler version", [FACT_CC] = "compute capability", [FACT_FLAG] = "flag",
};

static const enum diag_kind fact_diags[] = {
	[FACT_GPU] = D_FACT_GPU,   [FACT_DATE] = D_FACT_DATE,    [FACT_DRIVER] = D_FACT_DRIVER, [FACT_CUDA] = D_FACT_CUDA,
	[FACT_CUDA_V] = D_FACT_CUDA, [FACT_CC] = D_FACT_CC,      [FACT_FLAG] = D_FACT_FLAG,
};

/* The recorded build command's words, made at the first flag a
 * paragraph names past its first FACTS_FLAGS_READ (most name none or a
 * few, "-O3 -arch=sm_90": a map of the command's dozen words for two
 * look-ups cost more than reading the command twice).  The first
 * FACTS_FLAGS_READ flags are judged by fact_flag_in_build, each a read of
 * the command; the rest by the map, so a paragraph of many flags still
 * costs time linear in the paragraph and the command.  Both read the
 * command the same way (test_facts.c holds them to it). */
#define FACTS_FLAGS_READ 4
struct build_map {
	struct strmap words;
	bool made;
	unsigned read; /* flags judged by reading the command */
};

/* Whether the flag s[0..len) is a word, or an item of a comma-joined word,
 * of the recorded build command cmd (NULL: none recorded). */
static bool flag_recorded(const char *cmd, struct build_map *build, const char *s, size_t len)
{
	if (build->read < FACTS_FLAGS_READ) {
		build->read++;
		return cmd && fact_flag_in_build(cmd, s, len);
	}
	if (!build->made) {
		if (cmd)
			build_words(cmd, &build->words);
		build->made = true;
	}
	return strmap_get(&build->words, s, len, &(size_t){0});
}

/* Judges one fact against recorded, the value of its key in the evidence
 * (at line; NULL and 0 when there is none); reports a disagreement.
 * Returns whether it holds. */
static bool judge(const struct fact_text *t, const struct evfile *ev, struct build_map *build, const struct fact *f,
		  const char *recorded, size_t line)
{
	const char *s = t->s + f->start;
	size_t len = f->end - f->start;
	struct diag *d;
	if (f->kind == FACT_GPU)
		return true; /* found only where the evidence's name stands, wrapped or not */
	if (f->kind == FACT_FLAG) {
		if (flag_recorded(recorded, build, s, len))
			return true;
		d = diag_begin(D_FACT_FLAG, loc_of(t, f->start, f->end), "flag '%.*s' is not in the recorded build command",
			       (int)len, s);
		diag_note(d, textfile_loc_line(&ev->ev->tf, line, 0, 0), "the evidence was built with: %s", recorded);
	} else {
		char want[256];
		size_t n = expected_of(recorded, f->kind, want, sizeof want);
		if (n == len && memcmp(s, want, n) == 0)
			return true;
		d = diag_begin(fact_diags[f->kind], loc_of(t, f->start, f->end), "%s '%.*s' differs from the evidence's %s",
			       fact_words[f->kind], (int)len, s, n ? want : "(none recorded)");
		diag_note(d, textfile_loc_line(&ev->ev->tf, line, 0, 0), "the evidence records %s: %s", fact_keys[f->kind],
			  recorded);
	}
	diag_end(d);
	return false;
}

/* Enters one judged fact in the ledger: v and line as judge had them. */
static void record(struct ledger *lg, const struct fact_text *t, const struct evfile *ev, const struct fact *f, bool ok,
		   const char *v, size_t line)
{
	struct diag_loc at = loc_of(t, f->start, f->end);
	char *claim = xstrndup(t->s + f->start, f->end - f->start);
	struct ledger_entry *le = ledger_add(lg, ok ? LG_FACT : LG_FAILED, at.line, at.col, claim, "%s:%zu (%s: %s)",
					     ev->path, line, fact_keys[f->kind], v ? v : "");
	ledger_span(le, at.span);
	if (line)
		ledger_ref(le, ev->path, line, line, 0, 0, "header field \"%s\"", fact_keys[f->kind]);
	free(claim);
}

size_t facts_check(const struct fact_text *t, const struct evfile *ev, struct ledger *lg, struct fact_range **ranges,
		   size_t *n_ranges)
{
	const char *gpu = evidence_get(ev->ev, "gpu", NULL);
	struct fact *facts;
	size_t n = facts_find(t->s, t->len, gpu, &facts);
	if (n == 0 || facts[0].kind != FACT_GPU) {
		size_t line;
		evidence_get(ev->ev, "gpu", &line);
		struct diag *d = diag_begin(D_FACT_GPU, loc_of(t, 0, 0), "the run's GPU, '%s', is not named here", gpu);
		diag_note(d, textfile_loc_line(&ev->ev->tf, line, 0, 0), "the evidence records gpu: %s", gpu);
		diag_hint(d, "name the GPU exactly as the evidence does");
		diag_end(d);
		if (lg) {
			struct diag_loc at = loc_of(t, 0, 0);
			ledger_add(lg, LG_FAILED, at.line, at.col, "measured paragraph", "does not name %s", gpu);
		}
	}
	if (ranges) {
		*ranges = n ? xmalloc(n * sizeof **ranges) : NULL;
		*n_ranges = n;
	}
	struct build_map build = {{0}, false, 0};
	for (size_t i = 0; i < n; i++) {
		size_t line = 0; /* one look-up a fact, for its judge and its ledger entry */
		const char *recorded = evidence_get(ev->ev, fact_keys[facts[i].kind], &line);
		bool ok = judge(t, ev, &build, &facts[i], recorded, line);
		if (lg)
			record(lg, t, ev, &facts[i], ok, recorded, line);
		if (ranges)
			(*ranges)[i] = (struct fact_range){facts[i].start, facts[i].kind == FACT_CUDA && i + 1 < n &&
										   facts[i + 1].kind == FACT_CUDA_V
									   ? facts[i + 1].end + 1
									   : facts[i].end};
	}
	strmap_free(&build.words);
	free(facts);
	return n + 1;
}

/* ---- the run's facts in any prose ------------------------------------ */

static struct re run_said_re =
	RE_INIT("\\b(?:captured|recorded|measured|timed|ran|the\\s+run|this\\s+run)\\b", PCRE2_CASELESS);
static struct re other_run_re =
	RE_INIT("\\b(?:earlier|previous|another|other|older|different|edition)\\b", PCRE2_CASELESS);
/* A GPU model: a word after a vendor or line name (group 1), or one of
 * the names a sentence uses alone (group 2).  Not any letter and digits:
 * "V11 toolchain", "L2 cache", "sm_90" are no GPU. */
static struct re gpu_model_re =
	RE_INIT("(?<![\\w.-])(?:(?:NVIDIA|GeForce|Tesla|Quadro)\\s+(?:(?:GeForce|Tesla|Quadro)\\s+)?"
		"((?:RTX|GTX)\\s?\\d{3,4}(?:\\s?Ti)?|[A-Z]{1,3}\\d{1,4}[A-Z]?)|"
		"((?:RTX|GTX)\\s?\\d{3,4}(?:\\s?Ti)?|G[HB]\\d{3}|[ABHL]\\d{2,3}[A-Z]?|[VP]100|T4))(?![\\w-]|\\.\\d)",
		0);

static bool is_alnum_byte(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The model word s[0..len) stands in gpu as a word of its own. */
static bool model_in(const char *gpu, const char *s, size_t len)
{
	for (const char *p = gpu; *p; p++) {
		if (strncmp(p, s, len) == 0 && (p == gpu || !is_alnum_byte(p[-1])) && !is_alnum_byte(p[len]))
			return true;
	}
	return false;
}

/* Where sentence [a, *b) ends: '.', '!' or '?' followed by a blank or the
 * end ("8.0" and "sm_90." inside: the point is followed by a digit). */
static size_t sentence_end(const char *s, size_t a, size_t len)
{
	for (size_t i = a; i < len; i++)
		if ((s[i] == '.' || s[i] == '!' || s[i] == '?') && (i + 1 == len || is_space(s[i + 1])))
			return i + 1;
	return len;
}

static bool stated_fact_holds(struct evfile *const *ev, size_t n_ev, const struct fact *f, const char *s)
{
	for (size_t k = 0; k < n_ev; k++) {
		char want[256];
		size_t n = expected_of(evidence_get(ev[k]->ev, fact_keys[f->kind], NULL), f->kind, want, sizeof want);
		if (n && n == f->end - f->start && memcmp(s + f->start, want, n) == 0)
			return true;
	}
	return false;
}

static void add_range(struct fact_range **ranges, size_t *n, size_t *cap, size_t start, size_t end)
{
	*ranges = xgrow(*ranges, cap, *n + 1, sizeof **ranges);
	(*ranges)[(*n)++] = (struct fact_range){start, end};
}

/* The facts of one sentence [a, b) of t about the run. */
static size_t check_sentence(const struct fact_text *t, size_t a, size_t b, struct evfile *const *ev, size_t n_ev,
			     struct ledger *lg, struct fact_range **ranges, size_t *n_ranges, size_t *cap)
{
	size_t checked = 0, line = 0;
	const char *gpu = evidence_get(ev[0]->ev, "gpu", &line);
	struct re_match g;
	for (size_t off = a; off < b && re_search_valid(&gpu_model_re, t->s, b, off, &g); off = g.end[0]) {
		checked++;
		int k1 = re_group_set(&g, 1) ? 1 : 2;
		size_t ms = g.start[k1], me = g.end[k1];
		bool ok = false;
		for (size_t k = 0; k < n_ev && !ok; k++) {
			const char *name = evidence_get(ev[k]->ev, "gpu", NULL);
			ok = name && model_in(name, t->s + ms, me - ms);
		}
		if (!ok) {
			struct diag *d = diag_begin(D_FACT_GPU, loc_of(t, g.start[0], g.end[0]),
						    "GPU '%.*s' differs from the run's, %s", (int)(g.end[0] - g.start[0]),
						    t->s + g.start[0], gpu ? gpu : "(none recorded)");
			diag_note(d, textfile_loc_line(&ev[0]->ev->tf, line, 0, 0), "the evidence records gpu: %s",
				  gpu ? gpu : "");
			diag_hint(d, "name the GPU the evidence records, or say the sentence is about another run");
			diag_end(d);
		}
		if (lg)
			record(lg, t, ev[0], &(struct fact){FACT_GPU, g.start[0], g.end[0]}, ok, gpu, line);
		add_range(ranges, n_ranges, cap, g.start[0], g.end[0]);
	}
	struct fact *facts;
	size_t n = facts_find(t->s + a, b - a, NULL, &facts);
	for (size_t i = 0; i < n; i++) {
		struct fact f = {facts[i].kind, facts[i].start + a, facts[i].end + a};
		if (f.kind == FACT_FLAG || f.kind == FACT_GPU)
			continue;
		checked++;
		size_t rline = 0;
		const char *recorded = evidence_get(ev[0]->ev, fact_keys[f.kind], &rline);
		bool ok = stated_fact_holds(ev, n_ev, &f, t->s);
		if (!ok)
			judge(t, ev[0], NULL, &f, recorded, rline);
		if (lg)
			record(lg, t, ev[0], &f, ok, recorded, rline);
		add_range(ranges, n_ranges, cap, f.start, f.end);
	}
	free(facts);
	return checked;
}

size_t facts_check_stated(const struct fact_text *t, struct evfile *const *ev, size_t n_ev, struct ledger *lg,
			  struct fact_range **ranges, size_t *n_ranges)
{
	size_t cap = 0, checked = 0;
	*ranges = NULL;
	*n_ranges = 0;
	if (n_ev == 0 || re_utf8_invalid_at(t->s, t->len) != t->len)
		return 0; /* rendered text of a textfile's page: always valid */
	struct re_match m;
	for (size_t a = 0; a < t->len;) {
		size_t b = sentence_end(t->s, a, t->len);
		if (re_search_valid(&run_said_re, t->s, b, a, &m) && !re_search_valid(&other_run_re, t->s, b, a, &m))
			checked += check_sentence(t, a, b, ev, n_ev, lg, ranges, n_ranges, &cap);
		a = b;
	}
	return checked;
}
