/* direction.c - see direction.h. */
#include "direction.h"

#include <string.h>

#include "re.h"

static struct re direction_re =
	RE_INIT("\\b(slower|faster|fewer|more|less|larger|smaller|wins|loses|beats|higher|lower)\\b", PCRE2_CASELESS);

bool direction_word(const char *t, size_t len, size_t off, size_t *a, size_t *b, size_t *word, size_t *word_len)
{
	size_t s = off, e = off;
	while (s > 0 && !(t[s - 1] == '.' && s < len && (t[s] == ' ' || t[s] == '\n')) &&
	       !(t[s - 1] == '\n' && s >= 2 && t[s - 2] == '\n'))
		s--;
	while (e < len && !(t[e] == '.' && (e + 1 == len || t[e + 1] == ' ' || t[e + 1] == '\n')) &&
	       !(t[e] == '\n' && e + 1 < len && t[e + 1] == '\n'))
		e++;
	*a = s;
	*b = e < len ? e + 1 : e;
	struct re_match g;
	if (!re_search(&direction_re, t + s, *b - s, 0, &g))
		return false;
	*word = s + g.start[1];
	*word_len = g.end[1] - g.start[1];
	return true;
}

/* The last operator of expr outside parentheses ('+', '-', '*', '/'), or
 * 0: a '-' that starts the expression or follows an operator or '(' is a
 * sign, not an operation. */
static char last_operation(const char *expr, size_t len)
{
	char last = 0, prev = '(';
	int depth = 0;
	for (size_t i = 0; i < len; i++) {
		char c = expr[i];
		if (c == ' ')
			continue;
		depth += c == '(' ? 1 : c == ')' ? -1 : 0;
		bool sign = c == '-' && (prev == '(' || strchr("+-*/", prev));
		if (depth == 0 && strchr("+-*/", c) && !sign)
			last = c;
		prev = c;
	}
	return last;
}

bool direction_crossed(const char *unit, const char *expr, size_t len, double was, double now, const char **what)
{
	bool ratio = strcmp(unit, "x") == 0 || strcmp(unit, "\xC3\x97") == 0 ||
		     (unit[0] == '\0' && last_operation(expr, len) == '/');
	if (ratio) {
		*what = "ratio";
		return (was - 1) * (now - 1) < 0 || (was != 1 && now == 1);
	}
	*what = "value";
	return was * now < 0 || (was != 0 && now == 0);
}
