/* check_src.c - see check_src.h. */
#include "check_src.h"

#include <stdlib.h>
#include <string.h>

#include "course.h"
#include "diag.h"
#include "ledger.h"
#include "numtok.h"
#include "util.h"

static bool is_word(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* The value defined for name on the line at s[0..len) from its
 * occurrence at i: "#define NAME N", "NAME = N", "NAME{N}". */
static bool definition_at(const char *s, size_t len, size_t i, size_t nlen, struct num_token *out)
{
	size_t k = i + nlen;
	bool define = false;
	size_t a = 0;
	while (a < i && (s[a] == ' ' || s[a] == '\t'))
		a++;
	if (i - a >= 7 && memcmp(s + a, "#define", 7) == 0)
		define = true;
	while (k < len && (s[k] == ' ' || s[k] == '\t'))
		k++;
	if (!define) {
		if (k < len && (s[k] == '=' || s[k] == '{') && !(s[k] == '=' && k + 1 < len && s[k + 1] == '='))
			k++;
		else
			return false;
	}
	/* a cast or parentheses before the number */
	for (;;) {
		while (k < len && (s[k] == ' ' || s[k] == '\t' || s[k] == '('))
			k++;
		if (k + 1 < len && is_word(s[k]) && !(s[k] >= '0' && s[k] <= '9')) {
			size_t w = k;
			while (w < len && (is_word(s[w]) || s[w] == ' '))
				w++;
			if (w < len && s[w] == ')') {
				k = w + 1;
				continue;
			}
		}
		break;
	}
	size_t e = k;
	while (e < len && ((s[e] >= '0' && s[e] <= '9') || s[e] == '.'))
		e++;
	if (e == k)
		return false;
	struct num_token *t;
	size_t n = numtok_scan(s + k, e - k, &t);
	bool ok = n == 1 && t[0].start == 0 && t[0].end == e - k;
	if (ok)
		*out = t[0];
	free(t);
	return ok;
}

/* Every definition of name in tf: the count, the first in *out at *line. */
static size_t find_definitions(const struct textfile *tf, const char *name, size_t nlen, struct num_token *out,
			       size_t *at_line)
{
	size_t found = 0;
	for (size_t ln = 1; ln <= tf->n_lines; ln++) {
		size_t len;
		const char *s = textfile_line(tf, ln, &len);
		for (const char *p = s; (p = memmem(p, len - (size_t)(p - s), name, nlen)) != NULL; p++) {
			size_t i = (size_t)(p - s);
			if ((i > 0 && is_word(s[i - 1])) || (i + nlen < len && is_word(s[i + nlen])))
				continue;
			struct num_token t;
			if (definition_at(s, len, i, nlen, &t)) {
				if (!found++) {
					*out = t;
					*at_line = ln;
				}
			}
			if ((size_t)(p - s) + nlen >= len)
				break;
		}
	}
	return found;
}

static char *source_path(const struct page_ctx *ctx, const char *arg, size_t hash)
{
	if (hash == SIZE_MAX)
		return ctx->prog ? xstrdup(ctx->prog->path) : NULL;
	if (hash >= 9 && memcmp(arg, "programs/", 9) == 0)
		return xstrndup(arg, hash);
	return ctx->lesson ? xasprintf("programs/%s/%.*s", ctx->lesson, (int)hash, arg) : NULL;
}

void check_src_number(struct page_ctx *ctx, const struct pnum *p, size_t line)
{
	size_t len;
	const char *arg = prose_annot_arg(p->annot, &len);
	const char *h = memchr(arg, '#', len);
	size_t hash = h ? (size_t)(h - arg) : SIZE_MAX;
	const char *name = h ? h + 1 : arg;
	size_t nlen = h ? len - hash - 1 : len;
	struct diag_loc at = prose_loc(ctx, p, line);
	char *num = prose_text(p);
	char *path = source_path(ctx, arg, hash);
	struct program *prog = path ? course_program(path) : NULL;
	diag_checks_add(1);
	struct num_token def;
	size_t def_line = 0, n = 0;
	if (prog && prog->state == LOAD_OK && nlen)
		n = find_definitions(&prog->tf, name, nlen, &def, &def_line);
	if (n != 1) {
		struct diag *d = diag_begin(D_SRC_UNKNOWN, at, "%s is bound to '%.*s', which %s", num, (int)nlen, name,
					    !prog || prog->state != LOAD_OK ? "names no usable program file"
					    : n == 0 ? "is defined as a number nowhere in the source"
						     : "is defined more than once in the source");
		if (path && prog && prog->state == LOAD_OK && n)
			diag_note(d, textfile_loc_line(&prog->tf, def_line, 0, 0), "the first of its definitions");
		else if (path)
			diag_note(d, (struct diag_loc){.path = path}, "looked for in %s", path);
		diag_hint(d, "name a constant the source defines once: '#define NAME 128', 'NAME = 128' or 'NAME{128}'");
		diag_end(d);
		ledger_span(ledger_add(ctx->ledger, LG_FAILED, at.line, at.col, num, "src: %.*s not found", (int)len, arg),
			    at.span);
	} else if (!numtok_traces_to(&p->tok, &def) || p->tok.value != def.value) {
		struct diag *d = diag_begin(D_SRC_MISMATCH, at, "%s is not the value of %.*s in the source, %.10g", num,
					    (int)nlen, name, def.value);
		diag_note(d, textfile_loc_line(&prog->tf, def_line, 0, 0), "%.*s is defined here", (int)nlen, name);
		diag_hint(d, "quote the value the source defines");
		diag_end(d);
		ledger_span(ledger_add(ctx->ledger, LG_FAILED, at.line, at.col, num, "not %.*s of %s", (int)nlen, name, path),
			    at.span);
	} else {
		struct ledger_entry *le = ledger_add(ctx->ledger, LG_TRACED, at.line, at.col, num, "%s:%zu (from the source: %.*s)",
						     path, def_line, (int)nlen, name);
		ledger_span(le, at.span);
		if (le)
			ledger_ref(le, path, def_line, def_line, 0, 0, "the source's %.*s", (int)nlen, name);
	}
	free(path);
	free(num);
}
