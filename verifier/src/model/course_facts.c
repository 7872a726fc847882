/* course_facts.c - see course.h: the page facts a cite or a README's
 * status asks for (course_impl.h says how the model is split). */
#include "course_impl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontmatter.h"
#include "re.h"
#include "repo.h"
#include "shared_slots.h"
#include "strmap.h"
#include "util.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- page facts: the cite index and a README's status ---- */

static void facts_set(struct page_facts *pf, const struct frontmatter *fm, bool text_ok)
{
	pf->known = true;
	pf->text_ok = text_ok;
	pf->present = fm->present;
	pf->status = fm->status;
	if (fm->lesson) { /* one allocation a page: 10,000 pages keep 10,000 of them */
		struct buf b = {0};
		buf_append(&b, fm->lesson, strlen(fm->lesson) + 1);
		for (size_t k = 0; k < fm->n_evidence; k++)
			buf_append(&b, fm->evidence[k].path, strlen(fm->evidence[k].path) + 1);
		size_t b_len = b.len;
		pf->lesson = xrealloc(buf_detach(&b), b_len); /* without the buffer's room to grow */
		pf->n_evidence = fm->n_evidence;
	}
}

/* Page facts shared between workers (course_share_facts).  Without the
 * table, a worker checking page k that needs a lesson's first page reads
 * the front matter of every page before k it did not check itself: with
 * N workers the course was read about N times over (3,992 page reads
 * for 1,000 lessons with one cite each at -j 4).  Each page's facts are
 * now put in its slot by the first worker to learn them, and taken from
 * there by the others.  A slot: text_ok, present, status, whether a
 * lesson is named, n_evidence (4 bytes), then the lesson block as
 * facts_set() makes it.  Facts too long for a slot are not shared: the
 * others read that page themselves, as before. */
#define FACT_SLOT_BYTES 504
#define FACT_HEAD 8

static void facts_publish(struct course *c, size_t i)
{
	if (!c->shared_facts)
		return;
	const struct page_facts *pf = &c->facts[i];
	unsigned char rec[FACT_SLOT_BYTES];
	size_t block = 0;
	if (pf->lesson) {
		const char *at = pf->lesson + strlen(pf->lesson) + 1;
		for (size_t k = 0; k < pf->n_evidence; k++)
			at += strlen(at) + 1;
		block = (size_t)(at - pf->lesson);
	}
	if (block > sizeof rec - FACT_HEAD || pf->n_evidence > UINT32_MAX)
		return;
	uint32_t n_evidence = (uint32_t)pf->n_evidence;
	rec[0] = pf->text_ok;
	rec[1] = pf->present;
	rec[2] = (unsigned char)pf->status;
	rec[3] = pf->lesson != NULL;
	memcpy(rec + 4, &n_evidence, sizeof n_evidence);
	if (block)
		memcpy(rec + FACT_HEAD, pf->lesson, block);
	shared_slots_put(c->shared_facts, i, rec, FACT_HEAD + block);
}

/* Page i's facts from another worker: true when they were there. */
static bool facts_take_shared(struct course *c, size_t i)
{
	unsigned char rec[FACT_SLOT_BYTES];
	size_t len;
	if (!c->shared_facts || !shared_slots_get(c->shared_facts, i, rec, &len) || len < FACT_HEAD)
		return false;
	struct page_facts *pf = &c->facts[i];
	uint32_t n_evidence;
	memcpy(&n_evidence, rec + 4, sizeof n_evidence);
	pf->known = true;
	pf->text_ok = rec[0];
	pf->present = rec[1];
	pf->status = (enum page_status)rec[2];
	if (rec[3] && len > FACT_HEAD) {
		pf->lesson = xmalloc(len - FACT_HEAD);
		memcpy(pf->lesson, rec + FACT_HEAD, len - FACT_HEAD);
		pf->n_evidence = n_evidence;
	}
	return true;
}

void course_share_facts(void)
{
	struct course *c = course_model();
	if (c->n_pages > 1 && !c->shared_facts)
		c->shared_facts = shared_slots_create(c->n_pages, FACT_SLOT_BYTES);
}

void course_page_seen(const char *page, const struct frontmatter *fm)
{
	struct course *c = course_model();
	size_t i;
	if (!c->pages_listed)
		return; /* course_open(): a cite reads the page it needs (own_page) */
	char **hit = c->n_pages ? bsearch(&page, c->pages, c->n_pages, sizeof *c->pages, by_name) : NULL;
	if (!hit || c->facts[i = (size_t)(hit - c->pages)].known)
		return;
	facts_set(&c->facts[i], fm, true);
	facts_publish(c, i);
}

/* A page asked for before its own check: read here, its problems dropped (its own
 * problems are reported when it is checked, which reads it again: the
 * model keeps facts, not texts). */
static void page_facts_read(const char *page, struct page_facts *pf)
{
	pf->known = true;
	char *fs;
	const char *why;
	struct textfile tf;
	if (course_resolve(page, &fs, &why) != REPO_OK || textfile_read(fs, page, &tf, &why) != 0) {
		free(fs);
		return;
	}
	free(fs);
	struct frontmatter fm;
	frontmatter_parse(&tf, true, DIAG_DROP, &fm);
	facts_set(pf, &fm, !tf.has_nul && !tf.not_utf8);
	frontmatter_free(&fm);
	textfile_free(&tf);
}

static void facts_read(struct course *c, size_t i)
{
	if (facts_take_shared(c, i))
		return;
	page_facts_read(c->pages[i], &c->facts[i]);
	facts_publish(c, i);
}

/* Takes the next page into the maps; false at the end.  Pages enter in
 * course_pages() order, so the first page of a lesson wins. */
static bool facts_advance(struct course *c)
{
	course_need_pages(c);
	if (c->facts_prefix >= c->n_pages)
		return false;
	size_t i = c->facts_prefix++;
	struct page_facts *pf = &c->facts[i];
	if (!pf->known)
		facts_read(c, i);
	if (pf->lesson && pf->text_ok)
		strmap_add(&c->cite_page_of, pf->lesson, strlen(pf->lesson), i, NULL);
	if (pf->lesson && pf->present)
		strmap_add(&c->status_page_of, pf->lesson, strlen(pf->lesson), i, NULL);
	return true;
}

/* Whether lesson can name a page of its own, pages/LESSON.md: a plain
 * name (no '/', no leading '.', no control byte). */
static bool own_page_name(const char *lesson)
{
	return lesson[0] && lesson[0] != '.' && !strchr(lesson, '/') && !str_control_byte(lesson);
}

/* The facts of pages/LESSON.md, read (muted) at the first ask: from the
 * listing's facts when pages/ was listed (NULL when it lists no such
 * page), else read directly and kept by lesson (course_open: one page's
 * check reads the page of a lesson it cites, not the course's pages). */
static const struct page_facts *own_page(struct course *c, const char *lesson)
{
	if (!own_page_name(lesson))
		return NULL;
	size_t i;
	if (strmap_get(&c->own_index, lesson, strlen(lesson), &i))
		return &c->own_facts[i];
	char *page = xasprintf("pages/%s.md", lesson);
	const struct page_facts *pf = NULL;
	if (c->pages_listed) {
		char **hit = c->n_pages ? bsearch(&page, c->pages, c->n_pages, sizeof *c->pages, by_name) : NULL;
		if (hit) {
			i = (size_t)(hit - c->pages);
			if (!c->facts[i].known)
				facts_read(c, i);
			pf = &c->facts[i];
		}
		free(page);
		return pf;
	}
	c->own_facts = xgrow(c->own_facts, &c->cap_own, c->n_own + 1, sizeof *c->own_facts);
	c->own_keys = xgrow(c->own_keys, &c->cap_own_keys, c->n_own + 1, sizeof *c->own_keys);
	struct page_facts *own = &c->own_facts[c->n_own];
	memset(own, 0, sizeof *own);
	page_facts_read(page, own);
	free(page);
	c->own_keys[c->n_own] = xstrdup(lesson);
	strmap_add(&c->own_index, c->own_keys[c->n_own], strlen(lesson), c->n_own, NULL);
	return &c->own_facts[c->n_own++];
}

/* The page of lesson a cite (cite) or a README's status asks for: the
 * lesson's own page, pages/LESSON.md, when it names the lesson (and is
 * text, for a cite; has front matter, for a status), else the first page
 * in course_pages() order that does. */
static const struct page_facts *facts_find(struct strmap *map, const char *lesson, bool cite)
{
	struct course *c = course_model();
	const struct page_facts *own = own_page(c, lesson);
	if (own && own->lesson && strcmp(own->lesson, lesson) == 0 && (cite ? own->text_ok : own->present))
		return own;
	size_t i;
	while (!strmap_get(map, lesson, strlen(lesson), &i))
		if (!facts_advance(c))
			return NULL;
	return &c->facts[i];
}

bool course_cite_page(const char *lesson, const char *const **evidence, size_t *n)
{
	struct course *c = course_model();
	const struct page_facts *pf = facts_find(&c->cite_page_of, lesson, true);
	*evidence = NULL;
	*n = pf ? pf->n_evidence : 0;
	if (!pf || !pf->n_evidence)
		return pf != NULL;
	c->cite_evidence = xgrow(c->cite_evidence, &c->cap_cite_evidence, pf->n_evidence, sizeof *c->cite_evidence);
	const char *at = pf->lesson + strlen(pf->lesson) + 1;
	for (size_t k = 0; k < pf->n_evidence; k++, at += strlen(at) + 1)
		c->cite_evidence[k] = at;
	*evidence = c->cite_evidence;
	return pf != NULL;
}

bool course_lesson_status(const char *lesson, enum page_status *status)
{
	const struct page_facts *pf = facts_find(&course_model()->status_page_of, lesson, false);
	if (pf)
		*status = pf->status;
	return pf != NULL;
}

bool course_verified_path(const struct proghdr *h, size_t *start, size_t *end)
{
	static struct re path_re = RE_INIT("\\bevidence/[A-Za-z0-9_./-]*[A-Za-z0-9_/]", 0);
	struct re_match g;
	if (!h->verified || !re_search(&path_re, h->verified, h->verified_len, 0, &g))
		return false;
	*start = g.start[0];
	*end = g.end[0];
	return true;
}


void course_release_facts(struct course *c)
{
	for (size_t i = 0; i < c->n_pages; i++) {
		struct page_facts *pf = &c->facts[i];
		free(pf->lesson);
	}
	free(c->facts);
	for (size_t i = 0; i < c->n_own; i++) {
		free(c->own_facts[i].lesson);
		free(c->own_keys[i]);
	}
	free(c->own_facts);
	free(c->own_keys);
	strmap_free(&c->own_index);
	shared_slots_free(c->shared_facts);
	free(c->cite_evidence);
	strmap_free(&c->cite_page_of);
	strmap_free(&c->status_page_of);
}
