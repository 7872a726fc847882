/* capture_auto.c - see capture_auto.h. */
#include "capture_auto.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_repeats.h"
#include "util.h"

/* ---- the plan ------------------------------------------------------------- */

static bool read_place(char *tok, size_t *line, size_t *col, enum verdict_centre *centre)
{
	*centre = VERDICT_MEDIAN;
	size_t n = strlen(tok);
	if (n > 5 && (strncmp(tok, "max(", 4) == 0 || strncmp(tok, "min(", 4) == 0) && tok[n - 1] == ')') {
		*centre = tok[1] == 'a' ? VERDICT_GREATEST : VERDICT_LEAST;
		tok[n - 1] = '\0';
		tok += 4;
	}
	char *colon = strchr(tok, ':'), *end;
	if (!colon || tok[0] < '1' || tok[0] > '9')
		return false;
	errno = 0;
	unsigned long l = strtoul(tok, &end, 10);
	if (end != colon || errno || l > 100000000)
		return false;
	unsigned long c = strtoul(colon + 1, &end, 10);
	if (*end || errno || c == 0 || c > 100000000 || colon[1] < '1' || colon[1] > '9')
		return false;
	*line = l;
	*col = c;
	return true;
}

static bool read_u(const char *tok, double *u)
{
	char *end;
	double v = strtod(tok, &end);
	if (end == tok || *end || !(v >= 0) || v > 1e300)
		return false;
	*u = v;
	return true;
}

static bool is_op(const char *t)
{
	static const char *const ops[] = {"<", "<=", ">", ">=", "==", "!="};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (strcmp(t, ops[i]) == 0)
			return true;
	return false;
}

/* One line "LESSON L:C OP L:C U U" into pair (tokens split at blanks). */
static bool read_line(char *s, struct auto_pair *pair)
{
	char *tok[7];
	size_t n = 0;
	for (char *save = NULL, *t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (n == 6)
			return false;
		tok[n++] = t;
	}
	if (n != 6 || !is_op(tok[2]) || strlen(tok[0]) > 128)
		return false;
	memset(pair, 0, sizeof *pair);
	if (!read_place(tok[1], &pair->line[0], &pair->col[0], &pair->centre[0]) ||
	    !read_place(tok[3], &pair->line[1], &pair->col[1], &pair->centre[1]) ||
	    !read_u(tok[4], &pair->u[0]) || !read_u(tok[5], &pair->u[1]))
		return false;
	snprintf(pair->op, sizeof pair->op, "%s", tok[2]);
	pair->lesson = xstrdup(tok[0]);
	return true;
}

int auto_plan_read(const char *path, struct auto_plan *p, char **why)
{
	memset(p, 0, sizeof *p);
	FILE *f = fopen(path, "r");
	if (!f) {
		*why = xasprintf("cannot read the plan %s: %s", path, strerror(errno));
		return -1;
	}
	char line[AUTO_MAX_LINE + 2];
	size_t cap = 0, n = 0;
	int rc = 0;
	while (rc == 0 && fgets(line, sizeof line, f)) {
		n++;
		size_t len = strlen(line);
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		else if (!feof(f)) {
			*why = xasprintf("%s:%zu: a line over %d bytes", path, n, AUTO_MAX_LINE);
			rc = -1;
			break;
		}
		if (len == 0 || line[0] == '#')
			continue;
		struct auto_pair pair;
		if (p->n == AUTO_MAX_PAIRS) {
			*why = xasprintf("%s:%zu: more than %d comparisons", path, n, AUTO_MAX_PAIRS);
			rc = -1;
		} else if (!read_line(line, &pair)) {
			*why = xasprintf("%s:%zu: not 'LESSON LINE:COL OP LINE:COL U U' (coursecheck explain --plan writes it)",
					 path, n);
			rc = -1;
		} else {
			p->pairs = xgrow(p->pairs, &cap, p->n + 1, sizeof *p->pairs);
			p->pairs[p->n++] = pair;
		}
	}
	if (rc == 0 && ferror(f)) {
		*why = xasprintf("cannot read the plan %s", path);
		rc = -1;
	}
	fclose(f);
	if (rc != 0)
		auto_plan_free(p);
	return rc;
}

void auto_plan_free(struct auto_plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->pairs[i].lesson);
	free(p->pairs);
	memset(p, 0, sizeof *p);
}

/* ---- deciding ------------------------------------------------------------- */

/* The values of the number at line:col over the runs so far, into vals
 * (vol->runs of them, or 1 when it never varied).  0 when the first run
 * has no number there or a run printed none. */
static size_t values_at(const struct volatility *vol, const struct transcript *first, size_t line, size_t col,
			double *vals)
{
	const struct number_pos *p = NULL;
	for (size_t i = 0; i < vol->n && !p; i++)
		if (vol->nums[i].line == line && vol->nums[i].col == col)
			p = &vol->nums[i];
	if (!p)
		return 0;
	if (!p->varies || !p->values) {
		if (p->varies)
			return 0; /* its values were dropped as too many */
		char buf[64];
		snprintf(buf, sizeof buf, "%.*s", (int)(p->len < 63 ? p->len : 63), first->text + p->off);
		vals[0] = strtod(buf, NULL);
		return 1;
	}
	size_t n = 0;
	for (const char *s = p->values; *s && n < vol->runs;) {
		const char *e = strchr(s, REPEATS_JOIN);
		size_t len = e ? (size_t)(e - s) : strlen(s);
		if (len == 1 && s[0] == '-')
			return 0;
		char buf[64];
		snprintf(buf, sizeof buf, "%.*s", (int)(len < 63 ? len : 63), s);
		vals[n++] = strtod(buf, NULL);
		s += len + (e ? 1 : 0);
	}
	return n;
}

static bool pair_decided(const struct auto_pair *a, const struct volatility *vol, const struct transcript *first)
{
	double *v[2];
	size_t n[2];
	bool ok = true;
	for (int k = 0; k < 2; k++) {
		v[k] = xcalloc(vol->runs + 1, sizeof *v[k]);
		n[k] = values_at(vol, first, a->line[k], a->col[k], v[k]);
		ok &= n[k] > 0;
	}
	if (ok) {
		struct verdict_side l = {v[0], n[0], a->u[0], a->centre[0]}, r = {v[1], n[1], a->u[1], a->centre[1]};
		struct verdict_figures f;
		ok = verdict_decide(&l, a->op, &r, &f) == 0 && f.verdict != VERDICT_UNDECIDED;
	}
	free(v[0]);
	free(v[1]);
	return ok;
}

size_t auto_undecided(const struct auto_plan *p, const char *lesson, const struct volatility *vol,
		      const struct transcript *first)
{
	size_t n = 0;
	for (size_t i = 0; p && i < p->n; i++)
		if (strcmp(p->pairs[i].lesson, lesson) == 0 && !pair_decided(&p->pairs[i], vol, first))
			n++;
	return n;
}
