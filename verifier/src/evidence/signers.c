/* signers.c - see signers.h: the allowed_signers format of ssh-keygen. */
#include "signers.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util.h"

/* A field: [start, end) of the line, blank space inside quotes kept. */
struct field {
	size_t start, end;
};

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The next field of line (from *i), or false at its end.  An unclosed
 * quote runs to the end of the line (and is a problem for the caller). */
static bool next_field(const char *line, size_t n, size_t *i, struct field *f)
{
	while (*i < n && blank(line[*i]))
		(*i)++;
	if (*i >= n)
		return false;
	f->start = *i;
	bool quoted = false;
	for (; *i < n && (quoted || !blank(line[*i])); (*i)++)
		if (line[*i] == '"')
			quoted = !quoted;
	f->end = *i;
	return true;
}

/* The field's text without its quotes (malloc'd). */
static char *unquote(const char *s, size_t n)
{
	char *out = xmalloc(n + 1);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] != '"')
			out[k++] = s[i];
	out[k] = '\0';
	return out;
}

static bool digits(const char *s, size_t n, int *v)
{
	*v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

static bool to_epoch(int y, int mo, int d, int h, int mi, int s, long long *out)
{
	if (y < 1970 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
		return false;
	struct tm tm = {.tm_year = y - 1900, .tm_mon = mo - 1, .tm_mday = d, .tm_hour = h, .tm_min = mi, .tm_sec = s};
	*out = (long long)timegm(&tm);
	return true;
}

bool signers_parse_time(const char *s, long long *out)
{
	size_t n = strlen(s);
	int y, mo, d, h = 0, mi = 0, sec = 0;
	/* the evidence's captured: 2026-11-30T10:05:12Z */
	if (n == 20 && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':' && s[19] == 'Z')
		return digits(s, 4, &y) && digits(s + 5, 2, &mo) && digits(s + 8, 2, &d) && digits(s + 11, 2, &h) &&
		       digits(s + 14, 2, &mi) && digits(s + 17, 2, &sec) && to_epoch(y, mo, d, h, mi, sec, out);
	if (n && s[n - 1] == 'Z')
		n--;
	if (n != 8 && n != 12 && n != 14)
		return false;
	if (!digits(s, 4, &y) || !digits(s + 4, 2, &mo) || !digits(s + 6, 2, &d))
		return false;
	if (n >= 12 && (!digits(s + 8, 2, &h) || !digits(s + 10, 2, &mi)))
		return false;
	if (n == 14 && !digits(s + 12, 2, &sec))
		return false;
	return to_epoch(y, mo, d, h, mi, sec, out);
}

static void problem(struct signers *out, size_t line, size_t col, char *message)
{
	out->problems = xrealloc(out->problems, (out->n_problems + 1) * sizeof *out->problems);
	out->problems[out->n_problems++] = (struct signers_problem){line, col, message};
}

static bool is_key_type(const char *s, size_t n)
{
	static const char *const types[] = {"ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
					    "ecdsa-sha2-nistp521", "sk-ssh-ed25519@openssh.com",
					    "sk-ecdsa-sha2-nistp256@openssh.com", "ssh-dss"};
	for (size_t i = 0; i < ARRAY_LEN(types); i++)
		if (strlen(types[i]) == n && memcmp(types[i], s, n) == 0)
			return true;
	return false;
}

/* One option of OPTIONS ("name" or name="value"); NULL or the problem. */
static char *option(struct signer *sg, const char *opt)
{
	const char *eq = strchr(opt, '=');
	size_t nl = eq ? (size_t)(eq - opt) : strlen(opt);
	if (nl == 14 && strncmp(opt, "cert-authority", 14) == 0)
		return xstrdup("cert-authority is not supported by coursecheck: list each node key itself");
	if (!eq)
		return xasprintf("unknown option '%s' (namespaces=, valid-after=, valid-before=)", opt);
	const char *v = eq + 1;
	if (nl == 10 && strncmp(opt, "namespaces", 10) == 0) {
		free(sg->namespaces);
		sg->namespaces = xstrdup(v);
		return NULL;
	}
	bool after = nl == 11 && strncmp(opt, "valid-after", 11) == 0;
	bool before = nl == 12 && strncmp(opt, "valid-before", 12) == 0;
	if (!after && !before)
		return xasprintf("unknown option '%.*s' (namespaces=, valid-after=, valid-before=)", (int)nl, opt);
	long long t;
	if (!signers_parse_time(v, &t))
		return xasprintf("%.*s=\"%s\" is not a time YYYYMMDD[HHMM[SS]]Z", (int)nl, opt, v);
	if (after) {
		sg->valid_after = t;
		free(sg->valid_after_text);
		sg->valid_after_text = xstrdup(v);
	} else {
		sg->valid_before = t;
		free(sg->valid_before_text);
		sg->valid_before_text = xstrdup(v);
	}
	return NULL;
}

/* OPTIONS: comma-separated, commas inside quotes kept. */
static char *options(struct signer *sg, const char *s, size_t n)
{
	size_t start = 0;
	bool quoted = false;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] == '"')
			quoted = !quoted;
		if (i < n && (quoted || s[i] != ','))
			continue;
		char *opt = unquote(s + start, i - start);
		char *why = option(sg, opt);
		free(opt);
		if (why)
			return why;
		start = i + 1;
	}
	return NULL;
}

static void signer_free(struct signer *sg)
{
	free(sg->principals);
	free(sg->namespaces);
	free(sg->valid_after_text);
	free(sg->valid_before_text);
	free(sg->line_text);
}

/* One line (no newline).  Keeps it in out, or records its problem. */
static void parse_line(const char *line, size_t n, size_t lineno, struct signers *out)
{
	size_t i = 0;
	struct field f[4];
	size_t nf = 0;
	while (nf < 4 && next_field(line, n, &i, &f[nf]))
		nf++;
	if (nf == 0 || line[f[0].start] == '#')
		return;
	struct signer sg = {.valid_after = SIGNERS_NO_TIME_BEFORE, .valid_before = SIGNERS_NO_TIME_AFTER, .line = lineno};
	size_t type = nf > 1 && is_key_type(line + f[1].start, f[1].end - f[1].start) ? 1 : 2;
	char *why = NULL;
	size_t at = f[0].start;
	if (memchr(line, '\0', n)) {
		why = xstrdup("the line holds a NUL byte");
	} else if (nf <= type + 1 - 1 || nf < type + 2) {
		why = xstrdup("not 'PRINCIPALS [OPTIONS] KEYTYPE BASE64': a field is missing");
		at = n;
	} else {
		sg.principals = unquote(line + f[0].start, f[0].end - f[0].start);
		if (type == 2) {
			at = f[1].start;
			why = options(&sg, line + f[1].start, f[1].end - f[1].start);
		}
		if (!why) {
			char *kt = xstrndup(line + f[type].start, f[type].end - f[type].start);
			char *b64 = xstrndup(line + f[type + 1].start, f[type + 1].end - f[type + 1].start);
			at = f[type].start;
			if (sshkey_parse_public(kt, b64, sg.key, &why) == 0 && sg.valid_after >= sg.valid_before)
				why = xstrdup("valid-after is not before valid-before: the key is never valid");
			free(kt);
			free(b64);
		}
	}
	if (why) {
		problem(out, lineno, at + 1, why);
		signer_free(&sg);
		return;
	}
	sg.line_text = xstrndup(line, n);
	out->v = xrealloc(out->v, (out->n + 1) * sizeof *out->v);
	out->v[out->n++] = sg;
}

void signers_parse(const char *text, size_t len, struct signers *out)
{
	memset(out, 0, sizeof *out);
	size_t lineno = 0;
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) : len;
		parse_line(text + i, end - i, ++lineno, out);
		i = end + 1;
	}
}

void signers_free(struct signers *s)
{
	for (size_t i = 0; i < s->n; i++)
		signer_free(&s->v[i]);
	free(s->v);
	for (size_t i = 0; i < s->n_problems; i++)
		free(s->problems[i].message);
	free(s->problems);
	memset(s, 0, sizeof *s);
}

bool signers_namespace_allows(const struct signer *s, const char *ns)
{
	if (!s->namespaces)
		return true;
	size_t nl = strlen(ns);
	for (const char *p = s->namespaces;;) {
		size_t k = strcspn(p, ",");
		if ((k == nl && strncmp(p, ns, k) == 0) || (k == 1 && *p == '*'))
			return true;
		if (!p[k])
			return false;
		p += k + 1;
	}
}

char *signers_first_principal(const struct signer *s)
{
	return xstrndup(s->principals, strcspn(s->principals, ","));
}
