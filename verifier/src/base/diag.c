/* diag.c - see diag.h. */
#include "diag.h"
#include "diag_internal.h"

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

const struct diag_sink *diag_get_sink(void)
{
	return reporter.sink;
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

static const char *paint(const char *code)
{
	return reporter.color ? code : "";
}

/* ---- input text as the text report shows it ----
 * A page line, an evidence line, a file name or a message quoting them
 * never hands the terminal (or a CI log) a control character: an escape
 * sequence there could erase the diagnostic above it or retitle the
 * window, and a CR would split a diagnostic line in two.  Each is shown
 * instead: C0 controls and DEL in caret notation (ESC as ^[, CR as ^M,
 * DEL as ^?), C1 controls (U+0080 to U+009F, which some terminals obey
 * too) and bytes that are not UTF-8 as \xNN.  A tab is kept: it lines
 * the caret up. */

/* The length of the UTF-8 character at s[0, n), or 0 where s does not
 * start one. */
static size_t utf8_char_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] < 0x80 ? 1 : s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
		   : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
	if (len == 0 || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return len;
}

/* The character at s[0, n) (n >= 1) as shown: *used bytes of s are
 * shown as out[0, return), a copy of them where nothing needs showing. */
static size_t visible_char(const char *s, size_t n, char out[8], size_t *used)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = utf8_char_len(u, n);
	*used = len ? len : 1;
	if (len == 0 || (len == 2 && u[0] == 0xC2 && u[1] < 0xA0)) /* not UTF-8, or C1 */
		return (size_t)snprintf(out, 8, "\\x%02X", u[len ? 1 : 0]);
	if ((u[0] < 0x20 && u[0] != '\t') || u[0] == 0x7F) {
		out[0] = '^';
		out[1] = u[0] == 0x7F ? '?' : (char)(u[0] + '@');
		return 2;
	}
	memcpy(out, s, len);
	return len;
}

/* How many columns the character at s[0, n) takes as shown: 1, or the
 * length of its escape.  *used as visible_char. */
static size_t visible_width(const char *s, size_t n, size_t *used)
{
	char out[8];
	size_t k = visible_char(s, n, out, used);
	return k == *used && memcmp(out, s, k) == 0 ? 1 : k; /* a copy: one column */
}

static void put_visible(struct buf *b, const char *s, size_t n)
{
	for (size_t i = 0, used; i < n; i += used) {
		char out[8];
		buf_append(b, out, visible_char(s + i, n - i, out, &used));
	}
}

static void put_visible_str(struct buf *b, const char *s)
{
	put_visible(b, s, strlen(s));
}


static size_t chars_before(const char *text, size_t len, size_t upto);

/* path:line:col, the column in code points as every report counts it (a
 * byte column where the line's text is not at hand) */
static void put_location(struct buf *b, struct diag_loc at)
{
	buf_puts(b, paint(C_BOLD));
	put_visible_str(b, at.path ? at.path : "<input>");
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
	put_visible(b, at.text + from, to - from);
	buf_puts(b, to < len ? "...\n" : "\n");
	if (!at.col)
		return;
	buf_puts(b, "       | ");
	if (from)
		buf_puts(b, "   ");
	/* one blank (a tab kept) a column shown, up to the caret */
	size_t col0 = at.col - 1, i = from, used;
	for (; i < col0 && i < len; i += used) {
		size_t w = visible_width(at.text + i, len - i, &used);
		if (at.text[i] == '\t')
			buf_putc(b, '\t');
		else
			for (size_t k = 0; k < w; k++)
				buf_putc(b, ' ');
	}
	buf_printf(b, "%s^", paint(C_GREEN));
	size_t end = col0 + (at.span ? at.span : 1), w = i < to ? visible_width(at.text + i, to - i, &used) : 1;
	for (i += i < to ? used : 1; i < end && i < to; i += used)
		w += visible_width(at.text + i, to - i, &used);
	for (size_t k = 1; k < w; k++)
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
		struct buf path = {0};
		put_visible_str(&path, reporter.file);
		fprintf(out, "%s%s:%s %snote:%s %zu more diagnostic%s not shown (at most %d are shown for one file)\n",
			paint(C_BOLD), path.s ? path.s : "", paint(C_RESET), paint(C_CYAN), paint(C_RESET), reporter.file_hidden,
			reporter.file_hidden == 1 ? "" : "s", DIAG_MAX_PER_FILE);
		buf_free(&path);
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
	put_visible_str(&d->text, d->message);
	buf_printf(&d->text, " [%s]\n", kinds[kind].id);
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
	put_visible_str(&d->text, msg);
	buf_putc(&d->text, '\n');
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
		put_visible(&d->text, p, n);
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

/* The byte offset of the k-th code point from s[from], or len. */
static size_t offset_of_char(const char *s, size_t len, size_t from, size_t k)
{
	size_t i = from;
	for (size_t n = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80 && n++ == k)
			break;
	return i;
}

/* A long line cut to its window around w's column (diag.h). */
static void keep_window(struct diag_where *w)
{
	size_t first = w->col > DIAG_WINDOW_BEFORE ? w->col - DIAG_WINDOW_BEFORE : 1;
	size_t from = offset_of_char(w->line_text, w->line_len, 0, first - 1);
	size_t to = offset_of_char(w->line_text, w->line_len, from, DIAG_LINE_WINDOW);
	if (from == 0 && to == w->line_len)
		return;
	w->line_text += from;
	w->line_len = to - from;
	w->line_col = first;
	w->line_cut = true;
}

/* A location in code points for a sink: the byte column and span become
 * [col, end_col) over the located line's characters. */
static struct diag_where where_of(struct diag_loc at)
{
	struct diag_where w = {at.path, at.line, 0, 0, NULL, 0, 1, false};
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
	keep_window(&w);
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
	if (hint) {
		struct buf shown = {0};
		put_visible_str(&shown, hint);
		fprintf(out, "%shint:%s %s\n", paint(C_GREEN), paint(C_RESET), shown.s ? shown.s : "");
		buf_free(&shown);
	}
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
