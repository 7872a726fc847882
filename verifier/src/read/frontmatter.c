/* frontmatter.c - see frontmatter.h. */
#include "frontmatter.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "diag.h"
#include "util.h"

static const char *const status_names[] = {"draft", "in-technical-review", "published"};

const char *frontmatter_status_name(enum page_status s)
{
	return status_names[s];
}

const struct fm_evidence *frontmatter_evidence(const struct frontmatter *fm, const char *label)
{
	if (fm->n_evidence == 0)
		return NULL;
	if (!label || !*label)
		return &fm->evidence[0];
	for (size_t i = 0; i < fm->n_evidence; i++)
		if (strcmp(fm->evidence[i].label, label) == 0)
			return &fm->evidence[i];
	return NULL;
}

/*
 * What the fields are read from: the root mapping's pairs, and the pairs
 * of each mapping that is a root value (an evidence mapping), nothing
 * deeper; each node its type, its scalar text (borrowed) and where it
 * starts.  libyaml's document fills it (below; the document resolves
 * anchors and aliases); the fields are read from it in one place.
 */
struct fm_node {
	yaml_node_type_t type; /* YAML_SCALAR_NODE, YAML_SEQUENCE_NODE or YAML_MAPPING_NODE */
	const char *value;     /* a scalar's text, NUL-terminated */
	size_t length;
	yaml_mark_t start_mark;
	size_t first_pair, n_pairs; /* a root value's mapping: its pairs in fm_tree.sub */
};

struct fm_pair {
	struct fm_node key, value;
};

struct fm_tree {
	bool mapping; /* the root is a mapping (false: no root, or another node) */
	struct fm_pair *root, *sub;
	size_t n_root, cap_root, n_sub, cap_sub;
};

static void tree_free(struct fm_tree *t)
{
	free(t->root);
	free(t->sub);
	memset(t, 0, sizeof *t);
}

static struct fm_pair *tree_push(struct fm_pair **v, size_t *n, size_t *cap)
{
	*v = xgrow(*v, cap, *n + 1, sizeof **v);
	return &(*v)[(*n)++];
}

/* Where a YAML node sits in the page: libyaml counts from 0 within the
 * front matter text, which starts on the page's line 2. */
/* libyaml's column counts characters; diagnostics and update count bytes.
 * The 1-based byte column of the mark's character on its page line. */
static size_t byte_col(const struct textfile *tf, const yaml_mark_t *m)
{
	size_t len;
	const char *line = textfile_line(tf, m->line + 2, &len);
	size_t i = 0;
	for (size_t chars = 0; i < len && chars < m->column; chars++) {
		size_t n = utf8_sequence_length((const unsigned char *)line + i, len - i);
		i += n ? n : 1;
	}
	return i + 1;
}

static struct diag_loc node_loc(const struct textfile *tf, const struct fm_node *node)
{
	return textfile_loc_line(tf, node->start_mark.line + 2, byte_col(tf, &node->start_mark), 0);
}

static char *scalar(const struct fm_node *node)
{
	return xstrndup(node->value, node->length);
}

/* The entries of fm_fields[] (below, after the readers it names). */
#define FM_FIELDS 6

struct reader {
	const struct textfile *tf;
	const struct fm_tree *tree;
	struct frontmatter *fm;
	enum diag_dest to; /* the caller's: DIAG_DROP for a page read only for its fields */
	int problems;
	bool seen[FM_FIELDS]; /* by index of fm_fields[] */
};

static void field_problem(struct reader *r, const struct fm_node *at, const char *fmt, const char *a)
{
	struct diag_loc loc = at ? node_loc(r->tf, at) : textfile_loc_line(r->tf, 1, 1, 3);
	struct diag *d = diag_begin_to(r->to, D_FM_FIELD, loc, fmt, a);
	diag_end(d);
	r->problems++;
}

static bool want_scalar(struct reader *r, const char *key, const struct fm_node *v)
{
	if (v->type == YAML_SCALAR_NODE && v->length > 0)
		return true;
	field_problem(r, v, "front matter field '%s' must be a non-empty plain value", key);
	return false;
}

static void read_evidence(struct reader *r, const struct fm_node *v)
{
	struct frontmatter *fm = r->fm;
	if (v->type == YAML_SCALAR_NODE && v->length > 0) {
		fm->evidence = xcalloc(1, sizeof *fm->evidence);
		fm->evidence[0] = (struct fm_evidence){xstrdup("main"), scalar(v), v->start_mark.line + 2,
						       byte_col(r->tf, &v->start_mark)};
		fm->n_evidence = 1;
		return;
	}
	if (v->type != YAML_MAPPING_NODE || v->n_pairs == 0) {
		field_problem(r, v, "front matter field '%s' must be a path or a mapping of labels to paths",
			      "evidence");
		return;
	}
	fm->evidence = xcalloc(v->n_pairs, sizeof *fm->evidence);
	for (size_t i = 0; i < v->n_pairs; i++) {
		const struct fm_node *k = &r->tree->sub[v->first_pair + i].key;
		const struct fm_node *val = &r->tree->sub[v->first_pair + i].value;
		if (k->type != YAML_SCALAR_NODE || val->type != YAML_SCALAR_NODE || val->length == 0) {
			field_problem(r, val, "each evidence %s must map a label to a path", "entry");
			continue;
		}
		char *label = scalar(k);
		bool repeated = false;
		for (size_t j = 0; j < fm->n_evidence; j++)
			repeated |= strcmp(fm->evidence[j].label, label) == 0;
		if (repeated) {
			field_problem(r, k, "evidence label '%s' is repeated", label);
			free(label);
			continue;
		}
		fm->evidence[fm->n_evidence++] = (struct fm_evidence){label, scalar(val), val->start_mark.line + 2,
								      byte_col(r->tf, &val->start_mark)};
	}
}

/* One reader a field.  A scalar field's reader owns val (keeps or frees
 * it); v is the value's node, for locations. */
static void read_lesson(struct reader *r, const struct fm_node *v, char *val)
{
	(void)v;
	r->fm->lesson = val;
}

static void read_day(struct reader *r, const struct fm_node *v, char *val)
{
	char *end;
	errno = 0;
	long day = strtol(val, &end, 10);
	if (*end || errno || day < 1 || day > 100)
		field_problem(r, v, "front matter field 'day' must be a whole number from 1 to 100, not '%s'", val);
	else
		r->fm->day = day;
	free(val);
}

static void read_title(struct reader *r, const struct fm_node *v, char *val)
{
	(void)v;
	r->fm->title = val;
}

static void read_status(struct reader *r, const struct fm_node *v, char *val)
{
	bool found = false;
	for (size_t i = 0; i < ARRAY_LEN(status_names); i++)
		if (strcmp(val, status_names[i]) == 0) {
			r->fm->status = (enum page_status)i;
			found = true;
		}
	if (!found)
		field_problem(r, v, "status '%s' is not one of draft, in-technical-review, published", val);
	free(val);
}

static void read_program(struct reader *r, const struct fm_node *v, char *val)
{
	r->fm->program = val;
	r->fm->program_line = v->start_mark.line + 2;
	r->fm->program_col = byte_col(r->tf, &v->start_mark);
}

/* The fields of the front matter, in the order the missing ones are
 * named; every one is required.  A scalar field's value must be a scalar
 * (want_scalar); evidence reads its own mapping. */
static const struct fm_field {
	const char *name;
	bool scalar;
	void (*read)(struct reader *r, const struct fm_node *v, char *val);
} fm_fields[FM_FIELDS] = {
	{"lesson", true, read_lesson},   {"day", true, read_day},         {"title", true, read_title},
	{"status", true, read_status},   {"program", true, read_program}, {"evidence", false, NULL},
};

/* key: the key's text as a C string (up to a NUL it may hold, as the
 * key's copy compared before). */
static void read_pair(struct reader *r, const char *key, const struct fm_node *k, const struct fm_node *v)
{
	size_t which = 0;
	while (which < FM_FIELDS && strcmp(key, fm_fields[which].name) != 0)
		which++;
	if (which == FM_FIELDS)
		return; /* authors may keep other fields (tags, authors): not ours to judge */
	if (r->seen[which]) {
		field_problem(r, k, "front matter field '%s' is repeated", key);
		return;
	}
	r->seen[which] = true;
	if (!fm_fields[which].scalar)
		read_evidence(r, v);
	else if (want_scalar(r, key, v))
		fm_fields[which].read(r, v, scalar(v));
}

/* The fields, from a tree either reading filled. */
static void read_tree(struct reader *r, const struct fm_tree *t)
{
	r->tree = t;
	if (!t->mapping) {
		diag_report_to(r->to, D_FM_SYNTAX, textfile_loc_line(r->tf, 2, 1, 0),
			       "front matter must be a mapping of fields (key: value lines)");
		r->problems++;
		return;
	}
	for (size_t i = 0; i < t->n_root; i++)
		if (t->root[i].key.type == YAML_SCALAR_NODE)
			read_pair(r, t->root[i].key.value, &t->root[i].key, &t->root[i].value);
	r->tree = NULL;
}

/* The closing --- line, or 0 when the block is never closed. */
static size_t closing_line(const struct textfile *tf)
{
	for (size_t n = 2; n <= tf->n_lines; n++) {
		size_t len;
		const char *s = textfile_line(tf, n, &len);
		size_t a = 0, b = len;
		str_trim(s, &a, &b);
		if (b - a == 3 && (memcmp(s + a, "---", 3) == 0 || memcmp(s + a, "...", 3) == 0) && a == 0)
			return n;
	}
	return 0;
}

/* The deepest nesting of flow collections ([ and {) in text, outside
 * quoted scalars and comments; *at receives the offset where the
 * nesting first passes limit (or is left alone when it never does). */
static size_t flow_depth(const char *s, size_t len, size_t limit, size_t *at)
{
	if (!memchr(s, '[', len) && !memchr(s, '{', len))
		return 0; /* no flow collection at all (nearly every page): nothing to read a byte at a time */
	size_t depth = 0, deepest = 0;
	char quote = 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (quote) {
			if (quote == '"' && c == '\\' && i + 1 < len)
				i++;
			else if (c == quote)
				quote = 0; /* '' inside '...' closes and reopens: the same depth */
		} else if (c == '"' || c == '\'') {
			quote = c;
		} else if (c == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t' || s[i - 1] == '\n')) {
			while (i + 1 < len && s[i + 1] != '\n')
				i++;
		} else if (c == '[' || c == '{') {
			if (++depth > deepest) {
				deepest = depth;
				if (deepest == limit + 1)
					*at = i;
			}
		} else if ((c == ']' || c == '}') && depth) {
			depth--;
		}
	}
	return deepest;
}

/* libyaml 0.2.5 (what Debian 12 ships) takes quadratic time on nested flow
 * collections (yaml/libyaml#286): the text is bounded before it sees it.
 * Returns true when it is within the limits; otherwise reports why. */
static bool within_limits(struct reader *r, size_t from, size_t to)
{
	const struct textfile *tf = r->tf;
	size_t at = from;
	if (to - from > FM_MAX_BYTES) {
		diag_report_to(r->to, D_FM_LIMIT, textfile_loc_line(tf, 1, 1, 3),
			    "front matter is %zu bytes, more than the %d the verifier reads", to - from, FM_MAX_BYTES);
		return false;
	}
	size_t depth = flow_depth(tf->data + from, to - from, FM_MAX_FLOW_DEPTH, &at);
	if (depth > FM_MAX_FLOW_DEPTH) {
		at += from;
		struct diag *d = diag_begin_to(r->to, D_FM_LIMIT, textfile_loc(tf, at, 1),
					    "front matter nests [ and { %zu deep, more than the %d the verifier reads", depth,
					    FM_MAX_FLOW_DEPTH);
		diag_hint(d, "front matter fields are plain values or one mapping of labels to paths");
		diag_end(d);
		return false;
	}
	return true;
}

static void syntax_problem(struct reader *r, const yaml_parser_t *parser)
{
	struct diag_loc loc = textfile_loc_line(r->tf, parser->problem_mark.line + 2, parser->problem_mark.column + 1, 0);
	diag_report_to(r->to, D_FM_SYNTAX, loc, "front matter is not valid YAML: %s",
		       parser->problem ? parser->problem : "unknown error");
	r->problems++;
}

/* ---- the document reading ------------------------------------------ */

static struct fm_node doc_node(const yaml_node_t *n)
{
	struct fm_node x = {.type = n->type, .start_mark = n->start_mark};
	if (n->type == YAML_SCALAR_NODE) {
		x.value = (const char *)n->data.scalar.value;
		x.length = n->data.scalar.length;
	}
	return x;
}

/* The tree of doc (which it borrows from). */
static void tree_of_document(yaml_document_t *doc, struct fm_tree *t)
{
	yaml_node_t *root = yaml_document_get_root_node(doc);
	t->mapping = root && root->type == YAML_MAPPING_NODE;
	if (!t->mapping)
		return;
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);
		yaml_node_t *v = yaml_document_get_node(doc, p->value);
		if (!k || !v)
			continue;
		struct fm_pair *e = tree_push(&t->root, &t->n_root, &t->cap_root);
		e->key = doc_node(k);
		e->value = doc_node(v);
		if (v->type != YAML_MAPPING_NODE)
			continue;
		e->value.first_pair = t->n_sub;
		for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
			yaml_node_t *qk = yaml_document_get_node(doc, q->key);
			yaml_node_t *qv = yaml_document_get_node(doc, q->value);
			struct fm_pair *f = tree_push(&t->sub, &t->n_sub, &t->cap_sub);
			/* a pair that lacks a node is a bad entry, told at its value (or
			 * the mapping): a node that is no scalar stands for the one missing */
			struct fm_node none = {.type = YAML_SEQUENCE_NODE, .start_mark = v->start_mark};
			f->key = qk ? doc_node(qk) : none;
			f->value = qv ? doc_node(qv) : none;
		}
		/* t->root may have moved in tree_push: e is re-found by index */
		t->root[t->n_root - 1].value.n_pairs = t->n_sub - t->root[t->n_root - 1].value.first_pair;
	}
}

static void load_document(struct reader *r, const char *text, size_t len)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		syntax_problem(r, &parser);
		yaml_parser_delete(&parser);
		return;
	}
	struct fm_tree t = {0};
	tree_of_document(&doc, &t);
	read_tree(r, &t);
	tree_free(&t);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
}

static void load(struct reader *r, size_t close)
{
	const struct textfile *tf = r->tf;
	size_t from = tf->line_start[1];
	size_t to = tf->line_start[close - 1];
	if (!within_limits(r, from, to)) {
		r->problems++;
		return;
	}
	load_document(r, tf->data + from, to - from);
}

int frontmatter_parse(const struct textfile *tf, bool require, enum diag_dest to, struct frontmatter *fm)
{
	memset(fm, 0, sizeof *fm);
	fm->status = STATUS_REVIEW;
	fm->first_body_line = 1;
	struct reader r = {.tf = tf, .fm = fm, .to = to};
	size_t len;
	const char *first = textfile_line(tf, 1, &len);
	size_t a = 0, b = len;
	str_trim(first, &a, &b);
	if (tf->n_lines == 0 || a != 0 || b != 3 || memcmp(first, "---", 3) != 0) {
		if (require) {
			struct diag *d = diag_begin_to(to, D_FM_MISSING, textfile_loc_line(tf, 1, tf->n_lines ? 1 : 0, 0),
						    "page has no front matter");
			diag_hint(d, "start the page with a '---' line, the fields lesson, day, title, status, "
				     "program and evidence, and a closing '---' line");
			diag_end(d);
			return 1;
		}
		return 0;
	}
	size_t close = closing_line(tf);
	if (!close) {
		diag_report_to(to, D_FM_MISSING, textfile_loc_line(tf, 1, 1, 3),
			    "front matter opened here is never closed with a '---' line");
		return 1;
	}
	fm->present = true;
	fm->first_body_line = close + 1;
	load(&r, close);
	if (r.problems)
		return r.problems;
	for (size_t i = 0; i < FM_FIELDS; i++)
		if (!r.seen[i]) {
			struct diag *d = diag_begin_to(to, D_FM_FIELD, textfile_loc_line(tf, close, 1, 3),
						    "front matter lacks the field '%s'", fm_fields[i].name);
			diag_end(d);
			r.problems++;
		}
	return r.problems;
}

void frontmatter_free(struct frontmatter *fm)
{
	free(fm->lesson);
	free(fm->title);
	free(fm->program);
	for (size_t i = 0; i < fm->n_evidence; i++) {
		free(fm->evidence[i].label);
		free(fm->evidence[i].path);
	}
	free(fm->evidence);
	memset(fm, 0, sizeof *fm);
}
