/* diag.c - see diag.h. */
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"

enum base_level { ERR, WARN, STAT };

static const struct {
	const char *id;
	enum base_level level;
	const char *description;
} kinds[DIAG_KIND_COUNT] = {
#define DIAG(name, id, level, desc) [name] = {id, level, desc},
#include "diag.def"
#undef DIAG
};

static struct {
	FILE *out;
	bool color;
	struct diag_policy run_policy;        /* outside file regions */
	const struct diag_policy *file_policy; /* the document's, borrowed (diag_file_begin), or NULL */
	size_t count[3];
	size_t per_kind[DIAG_KIND_COUNT];
	size_t checks;
	const struct diag_sink *sink;
	char *file;         /* the file being checked (diag_file_begin), or NULL */
	size_t file_shown;  /* diagnostics of it printed */
	size_t file_hidden; /* and counted but not printed */
	const struct diag_forward *forward; /* a worker of verify -j */
	size_t once_depth;  /* inside diag_once_begin/end */
} reporter;

/* The once-a-run keys claimed so far by diag_once_claim (owned strings;
 * the map borrows them). */
static struct {
	struct strmap map;
	char **keys;
	size_t n, cap;
} once;

struct diag {
	enum diag_kind kind;
	bool hidden;  /* past the cap of its file: counted, never formatted */
	bool dropped; /* DIAG_DROP: neither formatted nor counted */
	bool command; /* the command's own (diag_command_begin): on stderr, whatever the sink */
	struct buf text;  /* everything but the hint, already formatted */
	char *hint;
	/* the same as data, for a sink */
	char *message;
	struct diag_loc at;
	char **note_messages;
	struct diag_loc *note_locs;
	size_t n_notes, cap_msgs, cap_locs;
	struct buf free_text;
};

#define C_BOLD "\033[1m"
#define C_RED "\033[1;31m"
#define C_MAGENTA "\033[1;35m"
#define C_CYAN "\033[1;36m"
#define C_GREEN "\033[1;32m"
#define C_RESET "\033[0m"

void diag_init(FILE *out, bool color)
{
	reporter.out = out;
	reporter.color = color;
}

void diag_set_sink(const struct diag_sink *sink)
{
	reporter.sink = sink;
}

void diag_set_run_policy(struct diag_policy policy)
{
	reporter.run_policy = policy;
}

enum diag_level diag_level_of(enum diag_kind kind)
{
	const struct diag_policy *p = reporter.file_policy ? reporter.file_policy : &reporter.run_policy;
	enum diag_level level;
	switch (kinds[kind].level) {
	case ERR:
		level = DIAG_ERROR;
		break;
	case WARN:
		level = DIAG_WARNING;
		break;
	default:
		level = p->draft ? DIAG_WARNING : DIAG_ERROR;
		break;
	}
	if (p->strict && level == DIAG_WARNING)
		level = DIAG_ERROR;
	return level;
}

enum diag_level diag_base_level(enum diag_kind kind)
{
	return kinds[kind].level == WARN ? DIAG_WARNING : DIAG_ERROR;
}

const char *diag_id(enum diag_kind kind)
{
	return kinds[kind].id;
}

const char *diag_description(enum diag_kind kind)
{
	return kinds[kind].description;
}

enum diag_kind diag_kind_by_id(const char *id)
{
	for (int k = 0; k < DIAG_KIND_COUNT; k++)
		if (strcmp(kinds[k].id, id) == 0)
			return (enum diag_kind)k;
	return DIAG_KIND_COUNT;
}

static const char *paint(const char *code)
{
	return reporter.color ? code : "";
}

static size_t chars_before(const char *text, size_t len, size_t upto);

/* path:line:col, the column in code points as every report counts it (a
 * byte column where the line's text is not at hand) */
static void put_location(struct buf *b, struct diag_loc at)
{
	buf_printf(b, "%s%s", paint(C_BOLD), at.path ? at.path : "<input>");
	if (at.line) {
		buf_printf(b, ":%zu", at.line);
		if (at.col)
			buf_printf(b, ":%zu", at.text ? chars_before(at.text, at.text_len, at.col - 1) + 1 : at.col);
	}
	buf_printf(b, ":%s ", paint(C_RESET));
}

/* The source line and a caret under [col, col+span).  Multi-byte UTF-8
 * characters count as one column; tabs are copied so the caret lines up. */
static void put_caret(struct buf *b, struct diag_loc at)
{
	if (!at.text || !at.line)
		return;
	size_t len = at.text_len;
	while (len && (at.text[len - 1] == '\n' || at.text[len - 1] == '\r'))
		len--;
	/* Long lines (a minified page) are cut around the column. */
	size_t from = 0;
	if (at.col > 120)
		from = at.col - 60;
	if (from > len)
		from = len; /* a column past the line's end: show its end */
	size_t to = len;
	if (to - from > 200)
		to = from + 200;
	while (from > 0 && from < len && ((unsigned char)at.text[from] & 0xC0) == 0x80)
		from--;
	while (to < len && ((unsigned char)at.text[to] & 0xC0) == 0x80)
		to++;
	buf_printf(b, " %5zu | %s", at.line, from ? "..." : "");
	buf_append(b, at.text + from, to - from);
	buf_puts(b, to < len ? "...\n" : "\n");
	if (!at.col)
		return;
	buf_puts(b, "       | ");
	if (from)
		buf_puts(b, "   ");
	size_t col0 = at.col - 1;
	for (size_t i = from; i < col0 && i < len; i++) {
		unsigned char c = (unsigned char)at.text[i];
		if ((c & 0xC0) == 0x80)
			continue;
		buf_putc(b, c == '\t' ? '\t' : ' ');
	}
	buf_printf(b, "%s^", paint(C_GREEN));
	size_t end = col0 + (at.span ? at.span : 1);
	for (size_t i = col0 + 1; i < end && i < to; i++)
		if (((unsigned char)at.text[i] & 0xC0) != 0x80)
			buf_putc(b, '~');
	buf_printf(b, "%s\n", paint(C_RESET));
}

static const char *level_word(enum diag_level level)
{
	return level == DIAG_ERROR ? "error" : level == DIAG_WARNING ? "warning" : "note";
}

static const char *level_color(enum diag_level level)
{
	return level == DIAG_ERROR ? C_RED : level == DIAG_WARNING ? C_MAGENTA : C_CYAN;
}

void diag_set_forward(const struct diag_forward *fwd)
{
	reporter.forward = fwd;
}

bool diag_once_claim(const char *key)
{
	size_t seen;
	if (strmap_get(&once.map, key, strlen(key), &seen))
		return false;
	once.keys = xgrow(once.keys, &once.cap, once.n + 1, sizeof *once.keys);
	once.keys[once.n] = xstrdup(key);
	strmap_add(&once.map, once.keys[once.n], strlen(key), once.n, NULL);
	once.n++;
	return true;
}

/* "WHAT:PATH" in small (cap bytes) where it fits, else in a block of its
 * own: a key a loaded file, forwarded and dropped at once, needs no
 * allocation.  Free the result with once_key_free. */
static char *once_key(char *small, size_t cap, const char *what, const char *path)
{
	size_t w = strlen(what), p = strlen(path);
	char *key = w + 1 + p < cap ? small : xmalloc(w + 1 + p + 1);
	memcpy(key, what, w);
	key[w] = ':';
	memcpy(key + w + 1, path, p + 1);
	return key;
}

static void once_key_free(char *key, const char *small)
{
	if (key != small)
		free(key);
}

void diag_once_begin(const char *what, const char *path)
{
	reporter.once_depth++;
	if (reporter.forward) {
		char small[256], *key = once_key(small, sizeof small, what, path);
		reporter.forward->once(key, reporter.forward->ctx);
		once_key_free(key, small);
	}
}

void diag_once_end(void)
{
	reporter.once_depth--;
	if (reporter.forward)
		reporter.forward->once(NULL, reporter.forward->ctx);
}

void diag_once_touch(const char *what, const char *path)
{
	if (!reporter.forward)
		return;
	char small[256], *key = once_key(small, sizeof small, what, path);
	reporter.forward->touch(key, reporter.forward->ctx);
	once_key_free(key, small);
}

void diag_release(void)
{
	for (size_t i = 0; i < once.n; i++)
		free(once.keys[i]);
	free(once.keys);
	strmap_free(&once.map);
	memset(&once, 0, sizeof once);
}

/* Whether the cap applies to the next diagnostic: a worker leaves a once
 * region's diagnostics to the parent's cap (diag_forward). */
static bool capped(void)
{
	return reporter.file && !(reporter.forward && reporter.once_depth);
}

void diag_file_begin(const char *path, const struct diag_policy *policy)
{
	reporter.file_policy = policy;
	if (reporter.forward)
		reporter.forward->file(path, reporter.forward->ctx);
	free(reporter.file);
	reporter.file = xstrdup(path);
	reporter.file_shown = reporter.file_hidden = 0;
}

void diag_file_end(void)
{
	if (reporter.forward)
		reporter.forward->file(NULL, reporter.forward->ctx);
	else if (reporter.file && reporter.file_hidden) {
		/* a machine-readable report on stdout must stay parseable: the
		 * count goes to stderr there (the summary has the totals) */
		FILE *out = reporter.sink ? stderr : reporter.out ? reporter.out : stderr;
		fprintf(out, "%s%s:%s %snote:%s %zu more diagnostic%s not shown (at most %d are shown for one file)\n",
			paint(C_BOLD), reporter.file, paint(C_RESET), paint(C_CYAN), paint(C_RESET), reporter.file_hidden,
			reporter.file_hidden == 1 ? "" : "s", DIAG_MAX_PER_FILE);
		fflush(out);
	}
	free(reporter.file);
	reporter.file = NULL;
	reporter.file_policy = NULL;
	reporter.file_shown = reporter.file_hidden = 0;
}

bool diag_quiet(void)
{
	return reporter.file && reporter.file_shown >= DIAG_MAX_PER_FILE;
}

static struct diag *begin(enum diag_dest dest, bool command, enum diag_kind kind, struct diag_loc at, const char *fmt,
			  va_list ap) PRINTF_LIKE(5, 0);
static struct diag *begin(enum diag_dest dest, bool command, enum diag_kind kind, struct diag_loc at, const char *fmt,
			  va_list ap)
{
	struct diag *d = xcalloc(1, sizeof *d);
	d->kind = kind;
	d->command = command;
	d->dropped = dest == DIAG_DROP;
	d->hidden = !d->dropped && !command && capped() && reporter.file_shown >= DIAG_MAX_PER_FILE;
	if (d->hidden || d->dropped)
		return d;
	enum diag_level level = diag_level_of(kind);
	put_location(&d->text, at);
	buf_printf(&d->text, "%s%s:%s ", paint(level_color(level)), level_word(level), paint(C_RESET));
	d->message = xvasprintf(fmt, ap);
	d->at = at;
	buf_printf(&d->text, "%s [%s]\n", d->message, kinds[kind].id);
	put_caret(&d->text, at);
	return d;
}

struct diag *diag_vbegin_to(enum diag_dest dest, enum diag_kind kind, struct diag_loc at, const char *fmt, va_list ap)
{
	return begin(dest, false, kind, at, fmt, ap);
}

struct diag *diag_command_begin(enum diag_kind kind, const char *command, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct diag *d = begin(DIAG_REPORT, true, kind, (struct diag_loc){.path = command}, fmt, ap);
	va_end(ap);
	return d;
}

void diag_vcommand(enum diag_kind kind, const char *command, const char *fmt, va_list ap)
{
	diag_end(begin(DIAG_REPORT, true, kind, (struct diag_loc){.path = command}, fmt, ap));
}

void diag_command(enum diag_kind kind, const char *command, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vcommand(kind, command, fmt, ap);
	va_end(ap);
}

struct diag *diag_vbegin(enum diag_kind kind, struct diag_loc at, const char *fmt, va_list ap)
{
	return diag_vbegin_to(DIAG_REPORT, kind, at, fmt, ap);
}

struct diag *diag_begin(enum diag_kind kind, struct diag_loc at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct diag *d = diag_vbegin_to(DIAG_REPORT, kind, at, fmt, ap);
	va_end(ap);
	return d;
}

struct diag *diag_begin_to(enum diag_dest dest, enum diag_kind kind, struct diag_loc at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct diag *d = diag_vbegin_to(dest, kind, at, fmt, ap);
	va_end(ap);
	return d;
}

void diag_note(struct diag *d, struct diag_loc at, const char *fmt, ...)
{
	if (d->hidden || d->dropped)
		return;
	put_location(&d->text, at);
	buf_printf(&d->text, "%snote:%s ", paint(C_CYAN), paint(C_RESET));
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	buf_printf(&d->text, "%s\n", msg);
	put_caret(&d->text, at);
	d->note_messages = xgrow(d->note_messages, &d->cap_msgs, d->n_notes + 1, sizeof *d->note_messages);
	d->note_locs = xgrow(d->note_locs, &d->cap_locs, d->n_notes + 1, sizeof *d->note_locs);
	d->note_messages[d->n_notes] = msg;
	d->note_locs[d->n_notes] = at;
	d->n_notes++;
}

void diag_text(struct diag *d, const char *text)
{
	if (d->hidden || d->dropped)
		return;
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		buf_puts(&d->text, "    ");
		buf_append(&d->text, p, n);
		buf_putc(&d->text, '\n');
		buf_append(&d->free_text, p, n);
		buf_putc(&d->free_text, '\n');
		p += n + (nl ? 1 : 0);
	}
}

void diag_hint(struct diag *d, const char *fmt, ...)
{
	if (d->hidden || d->dropped)
		return;
	va_list ap;
	va_start(ap, fmt);
	free(d->hint);
	d->hint = xvasprintf(fmt, ap);
	va_end(ap);
}

/* The characters (UTF-8 lead bytes) of text[0, upto); bytes past the
 * line's end count one each. */
static size_t chars_before(const char *text, size_t len, size_t upto)
{
	size_t n = 0;
	for (size_t i = 0; i < upto && i < len; i++)
		n += ((unsigned char)text[i] & 0xC0) != 0x80;
	return n + (upto > len ? upto - len : 0);
}

/* A location in code points for a sink: the byte column and span become
 * [col, end_col) over the located line's characters. */
static struct diag_where where_of(struct diag_loc at)
{
	struct diag_where w = {at.path, at.line, 0, 0, NULL, 0};
	if (at.text && at.line) {
		size_t len = at.text_len;
		while (len && (at.text[len - 1] == '\n' || at.text[len - 1] == '\r'))
			len--;
		w.line_text = at.text;
		w.line_len = len;
	}
	if (!at.line || !at.col)
		return w;
	size_t from = at.col - 1, to = from + (at.span ? at.span : 1);
	if (!w.line_text) {
		w.col = at.col;
		w.end_col = at.col + (to - from);
		return w;
	}
	w.col = chars_before(w.line_text, w.line_len, from) + 1;
	w.end_col = chars_before(w.line_text, w.line_len, to) + 1;
	if (w.end_col <= w.col)
		w.end_col = w.col + 1;
	return w;
}

static void emit_record(const struct diag *d, enum diag_level level, bool forward)
{
	struct diag_record_note *notes = xcalloc(d->n_notes ? d->n_notes : 1, sizeof *notes);
	for (size_t i = 0; i < d->n_notes; i++)
		notes[i] = (struct diag_record_note){where_of(d->note_locs[i]), d->note_messages[i]};
	struct buf rendered = {0};
	buf_puts(&rendered, d->text.s);
	if (d->hint)
		buf_printf(&rendered, "hint: %s\n", d->hint);
	struct diag_record r = {d->kind, level, d->message, where_of(d->at), notes, d->n_notes,
				d->free_text.len ? d->free_text.s : NULL, d->hint, rendered.s};
	if (forward)
		reporter.forward->record(&r, false, reporter.forward->ctx);
	else
		reporter.sink->emit(&r, reporter.sink->ctx);
	buf_free(&rendered);
	free(notes);
}

/* The text printer: the formatted diagnostic, then its hint. */
static void print_text(FILE *out, const char *text, size_t len, const char *hint)
{
	fwrite(text, 1, len, out);
	if (hint)
		fprintf(out, "%shint:%s %s\n", paint(C_GREEN), paint(C_RESET), hint);
	fflush(out);
}

void diag_replay(const struct diag_record *r, bool hidden)
{
	reporter.count[r->level]++;
	reporter.per_kind[r->kind]++;
	if (hidden || (reporter.file && reporter.file_shown >= DIAG_MAX_PER_FILE)) {
		reporter.file_hidden++;
		return;
	}
	if (reporter.file)
		reporter.file_shown++;
	if (reporter.sink) {
		reporter.sink->emit(r, reporter.sink->ctx);
		return;
	}
	size_t len = strlen(r->rendered), tail = r->hint ? strlen("hint: \n") + strlen(r->hint) : 0;
	print_text(reporter.out ? reporter.out : stderr, r->rendered, len >= tail ? len - tail : len, r->hint);
}

void diag_end(struct diag *d)
{
	enum diag_level level = diag_level_of(d->kind);
	if (!d->dropped && (!reporter.forward || d->command)) { /* a forwarded one is counted where it is replayed */
		reporter.count[level]++;
		reporter.per_kind[d->kind]++;
	}
	if (d->dropped) {
		/* nothing to print or send */
	} else if (d->command) {
		print_text(stderr, d->text.s, strlen(d->text.s), d->hint);
	} else if (d->hidden) {
		reporter.file_hidden++;
		if (reporter.forward) {
			struct diag_record r = {.kind = d->kind, .level = level};
			reporter.forward->record(&r, true, reporter.forward->ctx);
		}
	} else {
		if (capped())
			reporter.file_shown++;
		if (reporter.forward || reporter.sink)
			emit_record(d, level, reporter.forward != NULL);
		else
			print_text(reporter.out ? reporter.out : stderr, d->text.s, strlen(d->text.s), d->hint);
	}
	buf_free(&d->text);
	buf_free(&d->free_text);
	free(d->hint);
	free(d->message);
	for (size_t i = 0; i < d->n_notes; i++)
		free(d->note_messages[i]);
	free(d->note_messages);
	free(d->note_locs);
	free(d);
}

void diag_report(enum diag_kind kind, struct diag_loc at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct diag *d = diag_vbegin_to(DIAG_REPORT, kind, at, fmt, ap);
	va_end(ap);
	diag_end(d);
}

void diag_report_to(enum diag_dest dest, enum diag_kind kind, struct diag_loc at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct diag *d = diag_vbegin_to(dest, kind, at, fmt, ap);
	va_end(ap);
	diag_end(d);
}

size_t diag_count(enum diag_level level)
{
	return reporter.count[level];
}

void diag_checks_add(size_t n)
{
	if (reporter.forward)
		reporter.forward->checks(n, reporter.forward->ctx);
	else
		reporter.checks += n;
}

size_t diag_checks(void)
{
	return reporter.checks;
}

size_t diag_count_kind(enum diag_kind kind)
{
	return reporter.per_kind[kind];
}

void diag_print_table(FILE *out)
{
	static const char *const words[] = {"error", "warning", "status"};
	fprintf(out, "%-26s %-8s %s\n", "id", "level", "meaning");
	for (int k = 0; k < DIAG_KIND_COUNT; k++)
		fprintf(out, "%-26s %-8s %s\n", kinds[k].id, words[kinds[k].level], kinds[k].description);
	fputs("\nstatus: an error, except on a draft page, where it is a warning.\n"
	      "Under --as published every warning is an error.\n", out);
}
