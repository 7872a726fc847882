/* report_github.c - GitHub Actions workflow commands (see report.h):
 *   ::error file=PATH,line=L,col=C,endColumn=E,title=ID::MESSAGE
 * one per diagnostic, as it ends, so the pull request shows each finding
 * on its line.  The message carries the notes and the hint on lines of
 * their own.  Escaping is GitHub's: in the message %, CR and LF become
 * %25, %0D, %0A; in a property, ':' and ',' also become %3A and %2C.
 * endColumn is the last column of the span (inclusive). */
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "report_impl.h"
#include "util.h"

static void escape(struct buf *b, const char *s, bool property)
{
	for (; *s; s++) {
		switch (*s) {
		case '%':
			buf_puts(b, "%25");
			break;
		case '\r':
			buf_puts(b, "%0D");
			break;
		case '\n':
			buf_puts(b, "%0A");
			break;
		case ':':
			buf_puts(b, property ? "%3A" : ":");
			break;
		case ',':
			buf_puts(b, property ? "%2C" : ",");
			break;
		default:
			buf_putc(b, *s);
		}
	}
}

static const char *command_of(enum diag_level level)
{
	return level == DIAG_ERROR ? "error" : level == DIAG_WARNING ? "warning" : "notice";
}

static void put_place(struct buf *b, const struct diag_where *w)
{
	buf_printf(b, "%s:", w->path ? w->path : "<input>");
	if (w->line)
		buf_printf(b, "%zu:", w->line);
	if (w->line && w->col)
		buf_printf(b, "%zu:", w->col);
}

void report_github_emit(FILE *out, const struct diag_record *d)
{
	struct buf line = {0}, msg = {0};
	buf_printf(&line, "::%s ", command_of(d->level));
	if (d->at.path) {
		buf_puts(&line, "file=");
		escape(&line, d->at.path, true);
		buf_puts(&line, ",");
		if (d->at.line)
			buf_printf(&line, "line=%zu,", d->at.line);
		if (d->at.line && d->at.col)
			buf_printf(&line, "col=%zu,endColumn=%zu,", d->at.col, d->at.end_col - 1);
	}
	buf_puts(&line, "title=");
	escape(&line, diag_id(d->kind), true);
	buf_puts(&line, "::");
	buf_puts(&msg, d->message);
	for (size_t i = 0; i < d->n_notes; i++) {
		buf_puts(&msg, "\n");
		put_place(&msg, &d->notes[i].at);
		buf_printf(&msg, " note: %s", d->notes[i].message);
	}
	if (d->text) /* free text ends on a newline: no empty line before the hint */
		buf_printf(&msg, "\n%.*s", (int)(strlen(d->text) - (d->text[strlen(d->text) - 1] == '\n')), d->text);
	if (d->hint)
		buf_printf(&msg, "\nhint: %s", d->hint);
	escape(&line, msg.s, false);
	fprintf(out, "%s\n", line.s);
	fflush(out);
	buf_free(&line);
	buf_free(&msg);
}
