/* approvals.c - see approvals.h: items, the approvals file, its signatures. */

#include "approvals.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "course.h"
#include "evsig.h"
#include "repo.h"
#include "sha256.h"
#include "signers.h"
#include "strmap.h"
#include "util.h"

/* A sentence is looked for this far either side of its item: a page of
 * one endless line stays linear. */
#define SENTENCE_REACH 800
#define BLOCK_HEAD "approval 1"

struct approval_block;
static void judge_key(struct approval_block *b, const unsigned char key[SSHSIG_ED25519_LEN]);

/* ---- text helpers ---- */

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* s with its numbers written '#' ("1,534.5" -> "#"): what a sentence or an
 * evidence line is when its values are set aside. */
static char *skeleton(const char *s)
{
	struct buf b = {0};
	for (size_t i = 0; s[i];) {
		if (!is_digit(s[i])) {
			buf_putc(&b, s[i++]);
			continue;
		}
		while (is_digit(s[i]) || ((s[i] == ',' || s[i] == '.') && is_digit(s[i + 1])))
			i++;
		buf_putc(&b, '#');
	}
	return b.s ? buf_detach(&b) : xstrdup("");
}

/* bytes [a, b) of s with every run of blank space one space, trimmed. */
static char *collapse(const char *s, size_t a, size_t b)
{
	struct buf out = {0};
	bool space = false;
	for (size_t i = a; i < b; i++) {
		char c = s[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			space = out.len > 0;
			continue;
		}
		if (space)
			buf_putc(&out, ' ');
		space = false;
		buf_putc(&out, c);
	}
	return out.s ? buf_detach(&out) : xstrdup("");
}

/* Whether the line starting at off begins another block (a list item, a
 * heading, a table row, a quote), so that a sentence does not run into it. */
static bool line_opens_block(const char *s, size_t off, size_t len)
{
	while (off < len && s[off] == ' ')
		off++;
	if (off >= len)
		return true;
	char c = s[off];
	return c == '|' || c == '#' || c == '>' || c == '\n' ||
	       ((c == '-' || c == '*' || c == '+') && off + 1 < len && s[off + 1] == ' ');
}

/* The end of a sentence: ". ", "! ", "? " (or at a line end), not inside a number. */
static bool ends_sentence(const char *s, size_t i, size_t len)
{
	return (s[i] == '.' || s[i] == '!' || s[i] == '?') && (i + 1 >= len || s[i + 1] == ' ' || s[i + 1] == '\n');
}

/* Where the sentence holding byte off starts (not before lim): after the
 * previous sentence's end or at its block's first byte; an HTML comment
 * (a marker) is passed over whole. */
static size_t sentence_start(const char *s, size_t len, size_t off, size_t lim)
{
	size_t a = off;
	while (a > lim) {
		if (a >= 3 && a - 3 >= lim && memcmp(s + a - 3, "-->", 3) == 0) {
			size_t c = a - 3;
			while (c > lim && !(c + 4 <= len && memcmp(s + c, "<!--", 4) == 0))
				c--;
			a = c;
			continue;
		}
		if (ends_sentence(s, a - 1, len))
			break;
		if (s[a - 1] == '\n' && (line_opens_block(s, a, len) || (a >= 2 && s[a - 2] == '\n')))
			break;
		a--;
	}
	return a;
}

/* Where it ends (not past lim): after its ". ", or at its block's end. */
static size_t sentence_end(const char *s, size_t len, size_t off, size_t lim)
{
	size_t b = off;
	while (b < lim) {
		if (b + 4 <= lim && memcmp(s + b, "<!--", 4) == 0) {
			const char *e = memmem(s + b, lim - b, "-->", 3);
			b = e ? (size_t)(e - s) + 3 : lim;
			continue;
		}
		if (ends_sentence(s, b, len))
			return b + 1;
		if (s[b] == '\n' && b + 1 < len && (s[b + 1] == '\n' || line_opens_block(s, b + 1, len)))
			break;
		b++;
	}
	return b;
}

/* The first byte of a sentence found to start at a (before off): blank
 * space and the markers of the sentence before it passed over. */
static size_t sentence_first(const char *s, size_t a, size_t off)
{
	for (;;) {
		while (a < off && (s[a] == ' ' || s[a] == '\t' || s[a] == '\n'))
			a++;
		const char *e = a + 4 <= off && memcmp(s + a, "<!--", 4) == 0 ? memmem(s + a, off - a, "-->", 3) : NULL;
		if (!e)
			return a;
		a = (size_t)(e - s) + 3;
	}
}

/* The sentence of the page around byte off: a table row's line; for a
 * marker that follows a sentence's end, that sentence and the marker;
 * else from the previous sentence end or block start to the next. */
static char *sentence_at(const struct textfile *tf, size_t off)
{
	const char *s = tf->data;
	size_t len = tf->len, ls = off;
	/* the line around off, no further than SENTENCE_REACH either way: a
	 * line of thousands of numbers costs each of its items a window, not
	 * the whole line (linear in the page, not quadratic) */
	size_t reach_back = off > SENTENCE_REACH ? off - SENTENCE_REACH : 0;
	while (ls > reach_back && s[ls - 1] != '\n')
		ls--;
	size_t le = off, reach_on = off + SENTENCE_REACH < len ? off + SENTENCE_REACH : len;
	while (le < reach_on && s[le] != '\n')
		le++;
	size_t p = ls;
	while (p < le && s[p] == ' ')
		p++;
	if (p < le && s[p] == '|')
		return collapse(s, ls, le);
	size_t lim = off > SENTENCE_REACH ? off - SENTENCE_REACH : 0;
	size_t blim = off + SENTENCE_REACH < len ? off + SENTENCE_REACH : len;
	if (off + 4 <= len && memcmp(s + off, "<!--", 4) == 0) {
		size_t q = off;
		while (q > lim && (s[q - 1] == ' ' || s[q - 1] == '\t' || s[q - 1] == '\n'))
			q--;
		if (q > lim && ends_sentence(s, q - 1, len) && q < off) {
			const char *e = memmem(s + off, blim - off, "-->", 3);
			size_t end = e ? (size_t)(e - s) + 3 : blim;
			return collapse(s, sentence_first(s, sentence_start(s, len, q - 1, lim), q), end);
		}
	}
	return collapse(s, sentence_first(s, sentence_start(s, len, off, lim), off), sentence_end(s, len, off, blim));
}

/* ---- the evidence an item's references read ---- */

struct evtext {
	char *path;
	struct textfile tf;
	bool ok;
	char *body;
};

struct evcache {
	struct evtext *v;
	size_t n, cap;
};

static char *header_body_sha(const struct textfile *tf)
{
	for (size_t i = 0; i < tf->n_lines && i < 200; i++) {
		const char *l = tf->data + tf->line_start[i];
		if (strncmp(l, "body-sha256: ", 13) == 0)
			return xstrndup(l + 13, strcspn(l + 13, "\n"));
	}
	return xstrdup("unknown");
}

static struct evtext *evcache_get(struct evcache *c, const char *path)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->v[i].path, path) == 0)
			return &c->v[i];
	c->v = xgrow(c->v, &c->cap, c->n + 1, sizeof *c->v);
	struct evtext *e = &c->v[c->n++];
	memset(e, 0, sizeof *e);
	e->path = xstrdup(path);
	char *fs = NULL;
	const char *why;
	if (course_resolve(path, &fs, &why) == REPO_OK && textfile_read(fs, path, &e->tf, &why) == 0)
		e->ok = true;
	free(fs);
	e->body = e->ok ? header_body_sha(&e->tf) : xstrdup("unknown");
	return e;
}

static void evcache_free(struct evcache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].path);
		free(c->v[i].body);
		if (c->v[i].ok)
			textfile_free(&c->v[i].tf);
	}
	free(c->v);
}

/* Line n (1-based) of e, or NULL; *n_len its length. */
static const char *ev_line(const struct evtext *e, size_t n, size_t *n_len)
{
	if (!e->ok || n == 0 || n > e->tf.n_lines)
		return NULL;
	const char *l = e->tf.data + e->tf.line_start[n - 1];
	*n_len = strcspn(l, "\n");
	return l;
}

/* The number's token at col (1-based) of line l: len bytes, or the digits there. */
static char *token_at(const char *l, size_t l_len, size_t col, size_t len)
{
	if (col == 0 || col > l_len)
		return xstrdup("?");
	size_t a = col - 1;
	if (len == 0)
		while (a + len < l_len && !strchr(" \t|", l[a + len]))
			len++;
	if (a + len > l_len)
		len = l_len - a;
	return xstrndup(l + a, len);
}

/* Which number of the line (1-based) starts at col. */
static size_t number_rank(const char *l, size_t l_len, size_t col)
{
	size_t rank = 0;
	for (size_t i = 0; i < l_len && i < col; i++) {
		if (is_digit(l[i]) && (i == 0 || !(is_digit(l[i - 1]) || l[i - 1] == '.' || l[i - 1] == ',')))
			rank++;
	}
	return rank ? rank : 1;
}

/* ---- items ---- */

bool approvals_kind_gated(enum ledger_kind k)
{
	return k == LG_CLAIM || k == LG_TRACED || k == LG_DERIVED || k == LG_CITED || k == LG_ROW ||
	       k == LG_AMBIGUOUS;
}

/* The evidence place of a number with no "[...]" name: its line's skeleton and rank. */
static char *line_place(struct evcache *c, const struct ledger_entry *e)
{
	for (size_t i = 0; i < e->n_refs; i++) {
		const struct ledger_ref *r = &e->refs[i];
		size_t n;
		const char *l = ev_line(evcache_get(c, r->path), r->line, &n);
		if (!l || r->col == 0)
			continue;
		char *line = xstrndup(l, n), *sk = skeleton(line);
		char *coll = collapse(sk, 0, strlen(sk));
		char *p = xasprintf("%s @%zu", coll, number_rank(l, n, r->col));
		free(line);
		free(sk);
		free(coll);
		return p;
	}
	return xstrdup(e->claim ? e->claim : "");
}

static char *place_of(struct evcache *c, const struct ledger_entry *e)
{
	const char *src = e->source ? e->source : "";
	if (e->kind == LG_CLAIM)
		return xstrdup(e->claim ? e->claim : "");
	if (e->kind == LG_DERIVED) {
		const char *last = strstr(src, " = "), *q = last;
		while (q && (q = strstr(q + 1, " = ")) != NULL)
			last = q;
		return last ? xstrndup(src, (size_t)(last - src)) : xstrdup(src);
	}
	if (strncmp(src, "at [", 4) == 0) {
		const char *end = strstr(src, "] ");
		if (end)
			return xstrndup(src + 3, (size_t)(end - src - 2));
	}
	char *lp = line_place(c, e);
	if (e->kind == LG_CITED && strncmp(src, "lesson ", 7) == 0) {
		char *p = xasprintf("%.*s: %s", (int)strcspn(src, ","), src, lp);
		free(lp);
		return p;
	}
	return lp;
}

static void item_values(struct evcache *c, const struct ledger_entry *e, struct approval_item *it)
{
	it->values = xcalloc(e->n_refs ? e->n_refs : 1, sizeof *it->values);
	it->runs = xcalloc(e->n_refs ? e->n_refs : 1, sizeof *it->runs);
	for (size_t i = 0; i < e->n_refs; i++) {
		const struct ledger_ref *r = &e->refs[i];
		if (!r->path || strncmp(r->path, "evidence/", 9) != 0 || r->col == 0)
			continue;
		struct evtext *ev = evcache_get(c, r->path);
		size_t n = 0;
		const char *l = ev_line(ev, r->line, &n);
		struct approval_value *v = &it->values[it->n_values++];
		v->token = l ? token_at(l, n, r->col, r->len) : xstrdup("?");
		v->where = xasprintf("%s:%zu:%zu", r->path, r->line, r->col);
		bool seen = false;
		for (size_t k = 0; k < it->n_runs; k++)
			seen |= strcmp(it->runs[k].path, r->path) == 0;
		if (!seen) {
			it->runs[it->n_runs].path = xstrdup(r->path);
			it->runs[it->n_runs++].body_sha256 = xstrdup(ev->body);
		}
	}
}

/* The rank of equal keys, kept while the items are made. */
struct ranks {
	struct strmap map; /* key -> index into keys and counts */
	char **keys;
	size_t *counts;
	size_t n, cap, cap_c;
};

/* The id: kind, place and sentence with their numbers written '#', and the
 * rank among the page's items of that key. */
static void item_id(struct approval_item *it, struct ranks *rk)
{
	char *full = xasprintf("%s\n%s\n%s", ledger_kind_name(it->kind), it->place, it->sentence);
	char *base = skeleton(full);
	free(full);
	size_t len = strlen(base), at, rank;
	if (strmap_get(&rk->map, base, len, &at)) {
		rank = rk->counts[at]++;
		free(base);
		base = NULL;
	} else {
		rk->keys = xgrow(rk->keys, &rk->cap, rk->n + 1, sizeof *rk->keys);
		rk->counts = xgrow(rk->counts, &rk->cap_c, rk->n + 1, sizeof *rk->counts);
		rk->keys[rk->n] = base;
		rk->counts[rk->n] = 1;
		strmap_add(&rk->map, base, len, rk->n, NULL);
		at = rk->n++;
		rank = 0;
	}
	char *key = xasprintf("%s\n%zu", rk->keys[at], rank), hex[SHA256_HEX_LEN + 1];
	sha256_hex(key, strlen(key), hex);
	memcpy(it->id, hex, 8);
	it->id[8] = '\0';
	free(key);
}

static void ranks_free(struct ranks *rk)
{
	for (size_t i = 0; i < rk->n; i++)
		free(rk->keys[i]);
	free(rk->keys);
	free(rk->counts);
	strmap_free(&rk->map);
}

void approvals_items(const struct ledger *lg, const struct textfile *page, struct approval_items *out)
{
	memset(out, 0, sizeof *out);
	const struct ledger_entry **sorted = ledger_sorted(lg);
	struct evcache c = {0};
	struct ranks rk = {0};
	out->v = xcalloc(lg->n ? lg->n : 1, sizeof *out->v);
	for (size_t i = 0; i < lg->n; i++) {
		const struct ledger_entry *e = sorted[i];
		if (!approvals_kind_gated(e->kind) || e->line == 0 || e->line > page->n_lines)
			continue;
		struct approval_item *it = &out->v[out->n++];
		it->kind = e->kind;
		it->line = e->line;
		it->col = e->col;
		it->span = e->span;
		size_t off = page->line_start[e->line - 1] + (e->col ? e->col - 1 : 0);
		it->sentence = sentence_at(page, off < page->len ? off : page->len);
		it->place = place_of(&c, e);
		it->shown = e->kind == LG_CLAIM ? NULL : xstrdup(e->claim ? e->claim : "");
		item_values(&c, e, it);
		item_id(it, &rk);
	}
	ranks_free(&rk);
	evcache_free(&c);
	free(sorted);
}

static void values_free(struct approval_value *v, size_t n, struct approval_run *r, size_t nr)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].token);
		free(v[i].where);
	}
	for (size_t i = 0; i < nr; i++) {
		free(r[i].path);
		free(r[i].body_sha256);
	}
	free(v);
	free(r);
}

void approvals_items_free(struct approval_items *it)
{
	for (size_t i = 0; i < it->n; i++) {
		struct approval_item *x = &it->v[i];
		free(x->place);
		free(x->sentence);
		free(x->shown);
		values_free(x->values, x->n_values, x->runs, x->n_runs);
	}
	free(it->v);
	memset(it, 0, sizeof *it);
}

static char *values_line(const char *shown, const struct approval_value *v, size_t n)
{
	struct buf b = {0};
	if (shown)
		buf_printf(&b, "shown %s", shown);
	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s%s at %s", b.len ? "; " : "", v[i].token, v[i].where);
	return b.s ? buf_detach(&b) : xstrdup("no evidence value");
}

char *approvals_item_values(const struct approval_item *item)
{
	return values_line(item->shown, item->values, item->n_values);
}

char *approvals_record_values(const struct approval_record *r)
{
	return values_line(r->shown, r->values, r->n_values);
}

/* ---- the file ---- */

char *approvals_path(const char *page_rel)
{
	const char *base = strrchr(page_rel, '/');
	base = base ? base + 1 : page_rel;
	size_t n = strlen(base);
	if (n > 3 && strcmp(base + n - 3, ".md") == 0)
		n -= 3;
	return xasprintf("%s/%.*s.approvals", APPROVALS_DIR, (int)n, base);
}

/* The working tree's file: 0 with its text, 1 when there is none, -1 with *why (malloc'd). */
static int read_tree(const char *rel, char **text, size_t *len, char **why)
{
	const char *w = NULL;
	switch (textfile_read_small(rel, APPROVALS_MAX_FILE, text, len, &w)) {
	case TEXTFILE_SMALL_OK: return 0;
	case TEXTFILE_SMALL_NONE: return 1;
	case TEXTFILE_SMALL_NOT_REGULAR: w = "not a regular file"; break;
	case TEXTFILE_SMALL_TOO_LARGE: w = "larger than 1 MiB"; break;
	case TEXTFILE_SMALL_REFUSED: break;
	}
	*why = xstrdup(w ? w : "cannot be read");
	return -1;
}

/* git show REF:rel: 0 with its text, 1 when REF has none, -1 with *why. */
static int read_ref(const char *ref, const char *rel, char **text, size_t *len, char **why)
{
	struct buf out = {0};
	int rc = evsig_git_show(ref, rel, &out, why);
	if (rc == 0) {
		*len = out.len;
		*text = out.s ? buf_detach(&out) : xstrdup("");
	}
	buf_free(&out);
	return rc;
}

bool approvals_reviewers_listed(void)
{
	const struct signers *t = evsig_trusted(NULL);
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].namespaces && signers_namespace_allows(&t->v[i], APPROVALS_NAMESPACE) &&
		    !signers_namespace_allows(&t->v[i], SSHSIG_EVIDENCE_NAMESPACE))
			return true;
	return false;
}

enum approval_trust approvals_judge_key(const unsigned char key[SSHSIG_ED25519_LEN], const char *reviewer,
					const char *when, char **why)
{
	struct approval_block b = {.reviewer = (char *)reviewer, .approved = (char *)when};
	sshkey_fingerprint(key, b.fingerprint);
	judge_key(&b, key);
	*why = b.why;
	return b.trust;
}

/* The trust of a block's good signature by key at time approved. */
static void judge_key(struct approval_block *b, const unsigned char key[SSHSIG_ED25519_LEN])
{
	const char *ref = NULL;
	const struct signers *t = evsig_trusted(&ref);
	long long at = 0;
	bool timed = b->approved && signers_parse_time(b->approved, &at);
	bool review_listed = false;
	for (size_t i = 0; i < t->n; i++) {
		const struct signer *sg = &t->v[i];
		if (memcmp(sg->key, key, SSHSIG_ED25519_LEN) != 0)
			continue;
		if (signers_namespace_allows(sg, SSHSIG_EVIDENCE_NAMESPACE)) {
			b->trust = APPROVAL_EVIDENCE_KEY;
			b->why = xasprintf("the key %s is listed for %s in %s: a key that vouches for runs never "
					   "approves them",
					   b->fingerprint, sg->namespaces ? SSHSIG_EVIDENCE_NAMESPACE : "every namespace",
					   EVSIG_SIGNERS_PATH);
			return;
		}
		if (!sg->namespaces || !signers_namespace_allows(sg, APPROVALS_NAMESPACE))
			continue;
		review_listed = true;
		char *list = xasprintf(",%s,", sg->principals), *want = xasprintf(",%s,", b->reviewer ? b->reviewer : "");
		bool named = strstr(list, want) != NULL;
		free(list);
		free(want);
		if (named && timed && at >= sg->valid_after && at < sg->valid_before) {
			b->trust = APPROVAL_TRUSTED;
			return;
		}
	}
	const char *where = ref ? ref : "the working tree";
	b->trust = APPROVAL_UNTRUSTED;
	b->why = review_listed ? xasprintf("the key %s is listed for %s, but not for reviewer '%s' at %s", b->fingerprint,
					   APPROVALS_NAMESPACE, b->reviewer ? b->reviewer : "", b->approved ? b->approved : "?")
			       : xasprintf("the key %s is not listed with namespaces=\"%s\" in %s's %s", b->fingerprint,
					   APPROVALS_NAMESPACE, where, EVSIG_SIGNERS_PATH);
}

/* The signature lines [sig_a, sig_b) over the block's bytes [a, b). */
static void judge_block(struct approvals *A, struct approval_block *bl, size_t a, size_t b, size_t sa, size_t sb)
{
	struct sshsig sig;
	char *why = NULL;
	if (sshsig_parse(A->tf.data + sa, sb - sa, &sig, &why) != 0) {
		bl->trust = APPROVAL_BAD;
		bl->why = xasprintf("its signature cannot be read: %s", why);
		free(why);
		return;
	}
	sshkey_fingerprint(sig.key, bl->fingerprint);
	if (strcmp(sig.namespace, APPROVALS_NAMESPACE) != 0) {
		bl->trust = APPROVAL_BAD;
		bl->why = xasprintf("it is signed under the namespace '%s', not '%s'", sig.namespace, APPROVALS_NAMESPACE);
	} else if (!sshsig_check(&sig, A->tf.data + a, b - a)) {
		bl->trust = APPROVAL_BAD;
		bl->why = xasprintf("its signature (key %s) is not one of its text: it was changed after it was signed",
				    bl->fingerprint);
	} else {
		judge_key(bl, sig.key);
	}
	sshsig_free(&sig);
}

static const char *field(const char *line, const char *name)
{
	size_t n = strlen(name);
	return strncmp(line, name, n) == 0 && line[n] == ':' && line[n + 1] == ' ' ? line + n + 2 : NULL;
}

static enum ledger_kind kind_by_word(const char *w)
{
	for (int k = 0; k < LG_KIND_COUNT; k++)
		if (strcmp(ledger_kind_name((enum ledger_kind)k), w) == 0)
			return (enum ledger_kind)k;
	return LG_KIND_COUNT;
}

/* One line of a block's item (value:, run:, ...) into r. */
static void record_line(struct approval_record *r, const char *l, size_t *cap_v, size_t *cap_r)
{
	const char *v;
	if ((v = field(l, "at")) != NULL) {
		sscanf(v, "%zu:%zu", &r->page_line, &r->page_col);
	} else if ((v = field(l, "place")) != NULL) {
		free(r->place);
		r->place = xstrdup(v);
	} else if ((v = field(l, "sentence")) != NULL) {
		free(r->sentence);
		r->sentence = xstrdup(v);
	} else if ((v = field(l, "shown")) != NULL) {
		free(r->shown);
		r->shown = xstrdup(v);
	} else if ((v = field(l, "value")) != NULL) {
		r->values = xgrow(r->values, cap_v, r->n_values + 1, sizeof *r->values);
		const char *at = strstr(v, " at ");
		struct approval_value *x = &r->values[r->n_values++];
		x->token = at ? xstrndup(v, (size_t)(at - v)) : xstrdup(v);
		x->where = xstrdup(at ? at + 4 : "");
	} else if ((v = field(l, "run")) != NULL) {
		r->runs = xgrow(r->runs, cap_r, r->n_runs + 1, sizeof *r->runs);
		size_t sp = strcspn(v, " ");
		r->runs[r->n_runs].path = xstrndup(v, sp);
		r->runs[r->n_runs++].body_sha256 = xstrdup(v[sp] ? v + sp + 1 : "unknown");
	}
}

static void record_free(struct approval_record *r)
{
	free(r->place);
	free(r->sentence);
	free(r->shown);
	values_free(r->values, r->n_values, r->runs, r->n_runs);
}

/* Reads the items of the block at lines [first, last) (0-based) into A's
 * records when the block is trusted. */
static void block_records(struct approvals *A, size_t bi, size_t first, size_t last, size_t *cap)
{
	struct approval_record *r = NULL;
	size_t cap_v = 0, cap_r = 0;
	for (size_t i = first; i < last; i++) {
		char *l = xstrndup(A->tf.data + A->tf.line_start[i], strcspn(A->tf.data + A->tf.line_start[i], "\n"));
		const char *v = field(l, "item");
		if (v) {
			A->records = xgrow(A->records, cap, A->n_records + 1, sizeof *A->records);
			r = &A->records[A->n_records++];
			memset(r, 0, sizeof *r);
			cap_v = cap_r = 0;
			r->block = bi;
			r->file_line = i + 1;
			size_t idn = strcspn(v, " ");
			snprintf(r->id, sizeof r->id, "%.*s", (int)(idn < 8 ? idn : 8), v);
			r->kind = kind_by_word(v[idn] ? v + idn + 1 : "");
		} else if (r) {
			record_line(r, l, &cap_v, &cap_r);
		}
		free(l);
	}
	for (size_t i = 0; i < A->n_records; i++)
		if (!A->records[i].place)
			A->records[i].place = xstrdup("");
	for (size_t i = 0; i < A->n_records; i++)
		if (!A->records[i].sentence)
			A->records[i].sentence = xstrdup("");
}

static const char *line_of(const struct approvals *A, size_t i)
{
	return A->tf.data + A->tf.line_start[i];
}

static bool line_is(const struct approvals *A, size_t i, const char *s)
{
	const char *l = line_of(A, i);
	size_t n = strlen(s);
	return strncmp(l, s, n) == 0 && (l[n] == '\n' || l[n] == '\0');
}

/* The blocks of the text: each "approval 1" line to its armor's end. */
static void parse_blocks(struct approvals *A)
{
	size_t cap_b = 0, cap_r = 0;
	for (size_t i = 0; i < A->tf.n_lines;) {
		if (str_is_blank(line_of(A, i), strcspn(line_of(A, i), "\n"))) {
			i++;
			continue;
		}
		A->blocks = xgrow(A->blocks, &cap_b, A->n_blocks + 1, sizeof *A->blocks);
		struct approval_block *bl = &A->blocks[A->n_blocks++];
		memset(bl, 0, sizeof *bl);
		bl->line = i + 1;
		strcpy(bl->fingerprint, "(none)");
		size_t first = i, armor = i;
		while (armor < A->tf.n_lines && !line_is(A, armor, SSHSIG_ARMOR_BEGIN))
			armor++;
		size_t end = armor;
		while (end < A->tf.n_lines && !line_is(A, end, SSHSIG_ARMOR_END))
			end++;
		if (!line_is(A, first, BLOCK_HEAD) || end >= A->tf.n_lines) {
			bl->trust = APPROVAL_BAD;
			bl->why = xstrdup(!line_is(A, first, BLOCK_HEAD)
						  ? "a block must start with the line '" BLOCK_HEAD "'"
						  : "the block has no whole signature (" SSHSIG_ARMOR_BEGIN " ... " SSHSIG_ARMOR_END ")");
			i = end >= A->tf.n_lines ? A->tf.n_lines : end + 1;
			continue;
		}
		for (size_t k = first; k < armor; k++) {
			const char *v;
			char *l = xstrndup(line_of(A, k), strcspn(line_of(A, k), "\n"));
			if ((v = field(l, "reviewer")) != NULL && !bl->reviewer)
				bl->reviewer = xstrdup(v);
			else if ((v = field(l, "approved")) != NULL && !bl->approved)
				bl->approved = xstrdup(v);
			free(l);
		}
		size_t sig_end = end + 1 < A->tf.n_lines ? A->tf.line_start[end + 1] : A->tf.len;
		judge_block(A, bl, A->tf.line_start[first], A->tf.line_start[armor], A->tf.line_start[armor], sig_end);
		if (bl->trust == APPROVAL_TRUSTED)
			block_records(A, A->n_blocks - 1, first + 1, armor, &cap_r);
		i = end + 1;
	}
}

void approvals_read(const char *page_rel, const char *ref, struct approvals *out)
{
	memset(out, 0, sizeof *out);
	char *rel = approvals_path(page_rel);
	char *text = NULL, *why = NULL;
	size_t len = 0;
	int rc = ref ? read_ref(ref, rel, &text, &len, &why) : read_tree(rel, &text, &len, &why);
	out->path = ref ? xasprintf("%s:%s", ref, rel) : xstrdup(rel);
	free(rel);
	out->present = rc == 0;
	if (rc < 0)
		out->read_error = why;
	textfile_take(rc == 0 ? text : xstrdup(""), rc == 0 ? len : 0, out->path, &out->tf);
	parse_blocks(out);
}

void approvals_parse(const char *path, const char *text, size_t len, struct approvals *out)
{
	memset(out, 0, sizeof *out);
	out->path = xstrdup(path);
	out->present = true;
	textfile_from_memory(text, len, out->path, &out->tf);
	parse_blocks(out);
}

void approvals_free(struct approvals *a)
{
	for (size_t i = 0; i < a->n_records; i++)
		record_free(&a->records[i]);
	for (size_t i = 0; i < a->n_blocks; i++) {
		free(a->blocks[i].reviewer);
		free(a->blocks[i].approved);
		free(a->blocks[i].why);
	}
	free(a->records);
	free(a->blocks);
	free(a->path);
	free(a->read_error);
	textfile_free(&a->tf);
	memset(a, 0, sizeof *a);
}

/* ---- states ---- */

static bool same_values(const struct approval_item *it, const struct approval_record *r)
{
	if ((it->shown == NULL) != (r->shown == NULL) || (it->shown && strcmp(it->shown, r->shown) != 0))
		return false;
	if (it->n_values != r->n_values)
		return false;
	for (size_t i = 0; i < it->n_values; i++)
		if (strcmp(it->values[i].token, r->values[i].token) != 0)
			return false;
	return true;
}

bool approvals_same_sentence(const struct approval_item *it, const struct approval_record *r)
{
	char *a = skeleton(it->sentence), *b = skeleton(r->sentence);
	bool same = strcmp(a, b) == 0;
	free(a);
	free(b);
	return same;
}

/* The records by kind and place, newest first: head[slot] and prev[]
 * chain the records of one key, so a reopened item's search is not a
 * walk over the whole file. */
struct places {
	struct strmap map; /* "KIND\nPLACE" -> slot */
	char **keys;
	size_t *head, *prev, n;
};

static void places_index(const struct approvals *a, struct places *pl)
{
	size_t n = a->n_records ? a->n_records : 1;
	pl->keys = xcalloc(n, sizeof *pl->keys);
	pl->head = xcalloc(n, sizeof *pl->head);
	pl->prev = xcalloc(n, sizeof *pl->prev);
	for (size_t k = 0; k < a->n_records; k++) {
		char *key = xasprintf("%d\n%s", (int)a->records[k].kind, a->records[k].place);
		size_t slot;
		if (strmap_get(&pl->map, key, strlen(key), &slot)) {
			free(key);
		} else {
			slot = pl->n++;
			pl->keys[slot] = key;
			pl->head[slot] = SIZE_MAX;
			strmap_add(&pl->map, key, strlen(key), slot, NULL);
		}
		pl->prev[k] = pl->head[slot];
		pl->head[slot] = k;
	}
}

static void places_free(struct places *pl)
{
	for (size_t i = 0; i < pl->n; i++)
		free(pl->keys[i]);
	free(pl->keys);
	free(pl->head);
	free(pl->prev);
	strmap_free(&pl->map);
}

void approvals_states(const struct approvals *a, const struct approval_items *it, enum approval_state *states,
		      const struct approval_record **recs)
{
	struct places pl = {0};
	places_index(a, &pl);
	struct strmap by_id = {0}, ids_now = {0};
	struct strmap taken = {0}; /* the ids a reopened item took */
	for (size_t i = a->n_records; i-- > 0;) /* the last record of an id wins: it is added first */
		strmap_add(&by_id, a->records[i].id, strlen(a->records[i].id), i, NULL);
	for (size_t i = 0; i < it->n; i++)
		strmap_add(&ids_now, it->v[i].id, strlen(it->v[i].id), i, NULL);
	for (size_t i = 0; i < it->n; i++) {
		const struct approval_item *x = &it->v[i];
		size_t ri;
		states[i] = APPROVAL_UNAPPROVED;
		recs[i] = NULL;
		if (strmap_get(&by_id, x->id, strlen(x->id), &ri)) {
			const struct approval_record *r = &a->records[ri];
			recs[i] = r;
			states[i] = strcmp(x->place, r->place) == 0 && same_values(x, r) && approvals_same_sentence(x, r)
					    ? APPROVAL_APPROVED
					    : APPROVAL_REOPENED;
			continue;
		}
		/* its sentence changed: the latest record of its kind and place
		 * that no item holds and no item before it took */
		char *pk = xasprintf("%d\n%s", (int)x->kind, x->place);
		size_t slot;
		if (strmap_get(&pl.map, pk, strlen(pk), &slot)) {
			for (size_t k = pl.head[slot]; k != SIZE_MAX; k = pl.prev[k]) {
				const struct approval_record *r = &a->records[k];
				size_t dummy;
				if (!strmap_get(&ids_now, r->id, strlen(r->id), &dummy) &&
				    strmap_add(&taken, r->id, strlen(r->id), k, NULL)) {
					recs[i] = r;
					states[i] = APPROVAL_REOPENED;
					break;
				}
			}
		}
		free(pk);
	}
	strmap_free(&by_id);
	strmap_free(&ids_now);
	strmap_free(&taken);
	places_free(&pl);
}

/* ---- writing ---- */

/* A field's value on one line: control bytes (a LF) as spaces. */
static void put_field(struct buf *b, const char *name, const char *v)
{
	buf_printf(b, "%s: ", name);
	for (const char *p = v; *p; p++)
		buf_putc(b, (unsigned char)*p < 0x20 ? ' ' : *p);
	buf_putc(b, '\n');
}

char *approvals_block(const char *page_rel, const struct approval_items *it, const size_t *sel, size_t n,
		      const char *reviewer, const struct sshkey *k, const char *now, char **why)
{
	struct buf b = {0};
	char fp[SSHSIG_FP_LEN + 1];
	sshkey_fingerprint(k->pub, fp);
	buf_puts(&b, BLOCK_HEAD "\n");
	put_field(&b, "page", page_rel);
	put_field(&b, "reviewer", reviewer);
	put_field(&b, "key", fp);
	put_field(&b, "approved", now);
	for (size_t s = 0; s < n; s++) {
		const struct approval_item *x = &it->v[sel[s]];
		buf_printf(&b, "item: %s %s\n", x->id, ledger_kind_name(x->kind));
		buf_printf(&b, "at: %zu:%zu\n", x->line, x->col);
		put_field(&b, "place", x->place);
		put_field(&b, "sentence", x->sentence);
		if (x->shown)
			put_field(&b, "shown", x->shown);
		for (size_t i = 0; i < x->n_values; i++) {
			char *v = xasprintf("%s at %s", x->values[i].token, x->values[i].where);
			put_field(&b, "value", v);
			free(v);
		}
		for (size_t i = 0; i < x->n_runs; i++) {
			char *v = xasprintf("%s %s", x->runs[i].path, x->runs[i].body_sha256);
			put_field(&b, "run", v);
			free(v);
		}
	}
	size_t sig_len = 0;
	char *sig = sshsig_sign(k, APPROVALS_NAMESPACE, b.s, b.len, &sig_len, why);
	if (!sig) {
		buf_free(&b);
		return NULL;
	}
	buf_append(&b, sig, sig_len);
	if (sig_len && sig[sig_len - 1] != '\n')
		buf_putc(&b, '\n');
	free(sig);
	return buf_detach(&b);
}

/* Whether every record of block bi is superseded by a later trusted block
 * (last: id -> its last record) or by the new one's ids. */
static bool block_superseded(const struct approvals *a, size_t bi, const struct strmap *last,
			     const struct strmap *new_ids)
{
	bool any = false;
	for (size_t i = 0; i < a->n_records; i++) {
		const struct approval_record *r = &a->records[i];
		if (r->block != bi)
			continue;
		any = true;
		size_t at;
		if (strmap_get(new_ids, r->id, strlen(r->id), &at))
			continue;
		if (!strmap_get(last, r->id, strlen(r->id), &at) || a->records[at].block == bi)
			return false;
	}
	return any;
}

char *approvals_merge(const struct approvals *a, const struct approval_items *it, const size_t *sel, size_t n,
		      const char *block)
{
	struct strmap new_ids = {0}, last = {0};
	for (size_t s = 0; s < n; s++)
		strmap_add(&new_ids, it->v[sel[s]].id, strlen(it->v[sel[s]].id), s, NULL);
	for (size_t i = a->n_records; i-- > 0;) /* the first added is the last record */
		strmap_add(&last, a->records[i].id, strlen(a->records[i].id), i, NULL);
	struct buf b = {0};
	for (size_t bi = 0; bi < a->n_blocks; bi++) {
		const struct approval_block *bl = &a->blocks[bi];
		size_t from = a->tf.line_start[bl->line - 1];
		size_t to = bi + 1 < a->n_blocks ? a->tf.line_start[a->blocks[bi + 1].line - 1] : a->tf.len;
		if (bl->trust == APPROVAL_TRUSTED && block_superseded(a, bi, &last, &new_ids))
			continue;
		buf_append(&b, a->tf.data + from, to - from);
		if (to > from && a->tf.data[to - 1] != '\n')
			buf_putc(&b, '\n');
	}
	buf_puts(&b, block);
	strmap_free(&new_ids);
	strmap_free(&last);
	return buf_detach(&b);
}
