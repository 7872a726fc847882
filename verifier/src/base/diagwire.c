/* diagwire.c - see diagwire.h. */
#include "diagwire.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"

/* ---- writing ------------------------------------------------------------ */

static void put_u64(struct buf *b, uint64_t v)
{
	buf_append(b, (const char *)&v, sizeof v);
}

/* A string or NULL: a present byte, then the length and the bytes with a
 * NUL after them (so the reader can point into the buffer). */
static void put_bytes(struct buf *b, const char *s, size_t len)
{
	buf_putc(b, s != NULL);
	if (!s)
		return;
	put_u64(b, len);
	buf_append(b, s, len);
	buf_putc(b, '\0');
}

static void put_str(struct buf *b, const char *s)
{
	put_bytes(b, s, s ? strlen(s) : 0);
}

static void put_where(struct buf *b, const struct diag_where *w)
{
	put_str(b, w->path);
	put_u64(b, w->line);
	put_u64(b, w->col);
	put_u64(b, w->end_col);
	put_bytes(b, w->line_text, w->line_len);
	put_u64(b, w->line_col);
	put_u64(b, w->line_cut);
}

void diagwire_flush_checks(struct diagwire_encoder *e)
{
	if (!e->checks)
		return;
	buf_putc(&e->out, DW_CHECKS);
	put_u64(&e->out, e->checks);
	e->checks = 0;
}

static void on_checks(size_t n, void *ctx)
{
	((struct diagwire_encoder *)ctx)->checks += n;
}

static void on_record(const struct diag_record *r, bool hidden, void *ctx)
{
	struct diagwire_encoder *e = ctx;
	diagwire_flush_checks(e);
	if (e->once_depth)
		e->once_records = true;
	buf_putc(&e->out, hidden ? DW_HIDDEN : DW_RECORD);
	put_u64(&e->out, r->kind);
	put_u64(&e->out, r->level);
	if (hidden)
		return;
	put_str(&e->out, r->message);
	put_where(&e->out, &r->at);
	put_u64(&e->out, r->n_notes);
	for (size_t i = 0; i < r->n_notes; i++) {
		put_where(&e->out, &r->notes[i].at);
		put_str(&e->out, r->notes[i].message);
	}
	put_str(&e->out, r->text);
	put_str(&e->out, r->hint);
	put_str(&e->out, r->rendered);
}

/* FILE and ONCE carry a string; their ends (NULL) carry nothing. */
static void put_bracket(struct diagwire_encoder *e, enum diagwire_type open, enum diagwire_type close, const char *s)
{
	diagwire_flush_checks(e);
	buf_putc(&e->out, s ? open : close);
	if (s)
		put_str(&e->out, s);
}

static void on_file(const char *path, void *ctx)
{
	put_bracket(ctx, DW_FILE, DW_FILE_END, path);
}

/* The once regions recorded so far, by key: their bytes from ONCE to
 * ONCE_END, and the item they were last sent in.  Process-wide, so that a
 * worker has what its parent recorded before the fork. */
struct saved_region {
	char *key;
	char *bytes;
	size_t len;
	unsigned long item;
};
static struct {
	struct strmap map;
	struct saved_region *v;
	size_t n, cap;
	unsigned long item; /* diagwire_item_begin's count */
} saved;

static void on_once(const char *key, void *ctx)
{
	struct diagwire_encoder *e = ctx;
	diagwire_flush_checks(e);
	if (key && e->once_depth++ == 0) {
		e->once_start = e->out.len;
		e->once_key = xstrdup(key);
		e->once_records = false;
	}
	if (!key && e->once_depth == 1 && e->out.len == e->once_body) {
		/* nothing happened inside (a file without problems): nothing
		 * to send, and nothing for the parent to claim.  verify never
		 * loads a course file with its problems dropped (DIAG_DROP), so an empty region
		 * cannot stand for problems muted elsewhere */
		e->out.len = e->once_start;
		e->once_depth = 0;
		free(e->once_key);
		e->once_key = NULL;
		return;
	}
	put_bracket(e, DW_ONCE, DW_ONCE_END, key);
	if (key && e->once_depth == 1)
		e->once_body = e->out.len;
	if (key || !e->once_depth || --e->once_depth)
		return;
	size_t at;
	/* a region without a diagnostic is not kept: sent again, it would
	 * print nothing and count what the one sent counts (the parent keeps
	 * one region a key); a clean course of 10,000 lessons would keep
	 * 20,000 of them.  Nor is one of an item replayed as it ends: its
	 * key is claimed before another item runs, and a copy sent later
	 * would be dropped (verify -j 1 would keep a region for each of
	 * the 10,000 unsigned runs of such a course, 10.7 MB, to no use) */
	if (e->once_records && !e->replayed_at_end && !strmap_get(&saved.map, e->once_key, strlen(e->once_key), &at)) {
		saved.v = xgrow(saved.v, &saved.cap, saved.n + 1, sizeof *saved.v);
		size_t len = e->out.len - e->once_start;
		struct saved_region *r = &saved.v[saved.n];
		*r = (struct saved_region){e->once_key, xmalloc(len), len, saved.item};
		memcpy(r->bytes, e->out.s + e->once_start, len);
		strmap_add(&saved.map, r->key, strlen(r->key), saved.n++, NULL);
	} else {
		free(e->once_key);
	}
	e->once_key = NULL;
}

/* A region used again: sent again, once for each item. */
static void on_touch(const char *key, void *ctx)
{
	struct diagwire_encoder *e = ctx;
	size_t at;
	if (!strmap_get(&saved.map, key, strlen(key), &at) || saved.v[at].item == saved.item)
		return;
	diagwire_flush_checks(e);
	buf_append(&e->out, saved.v[at].bytes, saved.v[at].len);
	saved.v[at].item = saved.item;
}

void diagwire_encoder_init(struct diagwire_encoder *e)
{
	memset(e, 0, sizeof *e);
	e->fwd = (struct diag_forward){on_record, on_file, on_once, on_touch, on_checks, e};
}

void diagwire_item_begin(struct diagwire_encoder *e)
{
	saved.item++;
	e->out.len = 0;
	e->checks = 0;
}

void diagwire_encoder_free(struct diagwire_encoder *e)
{
	buf_free(&e->out);
	free(e->once_key);
	e->once_key = NULL;
}

void diagwire_release(void)
{
	for (size_t i = 0; i < saved.n; i++) {
		free(saved.v[i].key);
		free(saved.v[i].bytes);
	}
	free(saved.v);
	strmap_free(&saved.map);
	memset(&saved, 0, sizeof saved);
}

/* ---- reading ------------------------------------------------------------ */

void diagwire_reader_init(struct diagwire_reader *r, const char *data, size_t len)
{
	memset(r, 0, sizeof *r);
	r->data = data;
	r->len = len;
}

void diagwire_reader_free(struct diagwire_reader *r)
{
	free(r->notes);
	memset(r, 0, sizeof *r);
}

static size_t left(const struct diagwire_reader *r)
{
	return r->len - r->off;
}

static bool get_u64(struct diagwire_reader *r, uint64_t *v)
{
	if (left(r) < sizeof *v)
		return false;
	memcpy(v, r->data + r->off, sizeof *v);
	r->off += sizeof *v;
	return true;
}

static bool get_size(struct diagwire_reader *r, size_t *v)
{
	uint64_t u;
	if (!get_u64(r, &u) || u > SIZE_MAX)
		return false;
	*v = (size_t)u;
	return true;
}

static bool get_bytes(struct diagwire_reader *r, const char **s, size_t *len)
{
	*s = NULL;
	*len = 0;
	if (left(r) < 1)
		return false;
	char present = r->data[r->off++];
	if (present == 0)
		return true;
	uint64_t n;
	/* the length, then that many bytes and their NUL */
	if (present != 1 || !get_u64(r, &n) || n >= left(r) || r->data[r->off + n] != '\0')
		return false;
	*s = r->data + r->off;
	*len = (size_t)n;
	r->off += (size_t)n + 1;
	return true;
}

/* A C string: its bytes hold no NUL before the one after them. */
static bool get_str(struct diagwire_reader *r, const char **s)
{
	size_t len;
	return get_bytes(r, s, &len) && (!*s || strlen(*s) == len);
}

static bool get_where(struct diagwire_reader *r, struct diag_where *w)
{
	uint64_t cut;
	bool ok = get_str(r, &w->path) && get_size(r, &w->line) && get_size(r, &w->col) && get_size(r, &w->end_col) &&
		  get_bytes(r, &w->line_text, &w->line_len) && get_size(r, &w->line_col) && get_u64(r, &cut) && cut <= 1;
	w->line_cut = ok && cut;
	return ok;
}

static bool get_record(struct diagwire_reader *r, struct diag_record *rec, bool hidden)
{
	uint64_t kind, level;
	if (!get_u64(r, &kind) || !get_u64(r, &level) || kind >= DIAG_KIND_COUNT || level > DIAG_ERROR)
		return false;
	rec->kind = (enum diag_kind)kind;
	rec->level = (enum diag_level)level;
	if (hidden)
		return true;
	size_t n;
	if (!get_str(r, &rec->message) || !rec->message || !get_where(r, &rec->at) || !get_size(r, &n))
		return false;
	/* each note takes at least 2 + 3 * 8 + 1 bytes: a count beyond what is
	 * left is a damaged buffer, not an allocation to attempt */
	if (n > left(r) / 27)
		return false;
	r->notes = xgrow(r->notes, &r->cap_notes, n ? n : 1, sizeof *r->notes);
	for (size_t i = 0; i < n; i++)
		if (!get_where(r, &r->notes[i].at) || !get_str(r, &r->notes[i].message) || !r->notes[i].message)
			return false;
	rec->notes = r->notes;
	rec->n_notes = n;
	return get_str(r, &rec->text) && get_str(r, &rec->hint) && get_str(r, &rec->rendered) && rec->rendered;
}

int diagwire_next(struct diagwire_reader *r, struct diagwire_event *ev)
{
	memset(ev, 0, sizeof *ev);
	if (left(r) == 0)
		return 0;
	ev->type = (enum diagwire_type)(unsigned char)r->data[r->off++];
	bool ok;
	switch (ev->type) {
	case DW_RECORD:
	case DW_HIDDEN:
		ok = get_record(r, &ev->rec, ev->type == DW_HIDDEN);
		break;
	case DW_FILE:
	case DW_ONCE:
		ok = get_str(r, &ev->str) && ev->str;
		break;
	case DW_FILE_END:
	case DW_ONCE_END:
		ok = true;
		break;
	case DW_CHECKS:
		ok = get_size(r, &ev->checks);
		break;
	default:
		ok = false;
		break;
	}
	if (!ok) {
		r->off = r->len; /* a damaged buffer is not read on */
		return -1;
	}
	return 1;
}
