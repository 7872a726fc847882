/* report_junit.c - the JUnit XML report (see report.h), written with
 * libxml2's xmlTextWriter, which does the escaping.
 *
 * Layout: one <testsuite> per file checked (a page, a program README, a
 * lesson program folder), plus one named "coursecheck" for diagnostics
 * that belong to no file being checked.  In a suite, one <testcase> per
 * diagnostic, named "ID: MESSAGE" with no line or column (a dashboard
 * follows a test case by its name across runs: a line added above a
 * finding must not make it a new test; the second and later of one name
 * in a suite get " #N"): an error is a <failure> whose
 * body is the diagnostic as the text report prints it; a warning passes,
 * with the same text in <system-out>.  A last testcase, "checks", passes
 * and stands for the checks that found nothing; the suite's property
 * "checks" holds the number of checks run on the file.  tests= counts
 * testcases. */
#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "report_impl.h"
#include "strmap.h"
#include "util.h"

/* XML 1.0 allows no control characters but tab, LF and CR, and neither
 * U+FFFE nor U+FFFF: each other becomes U+FFFD, so a hostile message or
 * file name cannot break the document. */
static char *xml_text(const char *s)
{
	json_t *valid = report_json_str(s); /* also mends bad UTF-8 */
	const char *v = json_string_value(valid);
	struct buf b = {0};
	buf_puts(&b, "");
	for (const char *p = v; *p; p++) {
		unsigned char c = (unsigned char)*p;
		/* U+FFFE and U+FFFF (EF BF BE, EF BF BF) are UTF-8, but not XML 1.0
		 * characters either; surrogates never get past the mending above */
		bool nonchar = c == 0xEF && (unsigned char)p[1] == 0xBF && ((unsigned char)p[2] & 0xFE) == 0xBE;
		if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || nonchar)
			buf_puts(&b, "\xEF\xBF\xBD");
		else
			buf_putc(&b, (char)c);
		p += nonchar ? 2 : 0;
	}
	json_decref(valid);
	return buf_detach(&b);
}

static void attr(xmlTextWriterPtr w, const char *name, const char *value)
{
	char *v = xml_text(value);
	xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST v);
	free(v);
}

static void attr_n(xmlTextWriterPtr w, const char *name, size_t n)
{
	char num[32];
	snprintf(num, sizeof num, "%zu", n);
	xmlTextWriterWriteAttribute(w, BAD_CAST name, BAD_CAST num);
}

static void text(xmlTextWriterPtr w, const char *s)
{
	char *v = xml_text(s);
	xmlTextWriterWriteString(w, BAD_CAST v);
	free(v);
}

static void testcase(xmlTextWriterPtr w, const char *suite, const struct report_item *it, const char *name)
{
	xmlTextWriterStartElement(w, BAD_CAST "testcase");
	attr(w, "classname", suite);
	attr(w, "name", name);
	if (it->level == DIAG_ERROR) {
		xmlTextWriterStartElement(w, BAD_CAST "failure");
		attr(w, "type", diag_id(it->kind));
		attr(w, "message", it->message);
		text(w, it->rendered);
		xmlTextWriterEndElement(w);
	} else {
		xmlTextWriterStartElement(w, BAD_CAST "system-out");
		text(w, it->rendered);
		xmlTextWriterEndElement(w);
	}
	xmlTextWriterEndElement(w);
}

/* One suite: the diagnostics whose file index is `file`. */
static void suite(xmlTextWriterPtr w, const struct report *r, size_t file, const char *name, size_t checks)
{
	size_t n = 0, failures = 0;
	for (size_t i = 0; i < r->n_items; i++)
		if (r->items[i].file == file) {
			n++;
			failures += r->items[i].level == DIAG_ERROR;
		}
	xmlTextWriterStartElement(w, BAD_CAST "testsuite");
	attr(w, "name", name);
	attr_n(w, "tests", n + 1);
	attr_n(w, "failures", failures);
	attr_n(w, "errors", 0);
	attr_n(w, "skipped", 0);
	xmlTextWriterStartElement(w, BAD_CAST "properties");
	xmlTextWriterStartElement(w, BAD_CAST "property");
	attr(w, "name", "checks");
	attr_n(w, "value", checks);
	xmlTextWriterEndElement(w);
	xmlTextWriterEndElement(w);
	/* names counted through a map: a file may hold many findings */
	struct strmap seen = {0};
	char **names = xcalloc(n ? n : 1, sizeof *names);
	size_t *count = xcalloc(n ? n : 1, sizeof *count), k = 0;
	for (size_t i = 0; i < r->n_items; i++) {
		const struct report_item *it = &r->items[i];
		if (it->file != file)
			continue;
		names[k] = xasprintf("%s: %s", diag_id(it->kind), it->message);
		size_t first = k;
		if (!strmap_add(&seen, names[k], strlen(names[k]), k, &first)) {
			char *nth = xasprintf("%s #%zu", names[k], ++count[first] + 1);
			testcase(w, name, it, nth);
			free(nth);
		} else {
			testcase(w, name, it, names[k]);
		}
		k++;
	}
	strmap_free(&seen);
	for (size_t i = 0; i < k; i++)
		free(names[i]);
	free(names);
	free(count);
	xmlTextWriterStartElement(w, BAD_CAST "testcase");
	attr(w, "classname", name);
	attr(w, "name", "checks");
	xmlTextWriterEndElement(w);
	xmlTextWriterEndElement(w);
}

int report_render_junit(const struct report *r, const struct report_summary *s)
{
	(void)s;
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w = xmlNewTextWriterMemory(buf, 0);
	if (!buf || !w) { /* libxml2 fails only when out of memory */
		fputs("coursecheck: out of memory\n", stderr);
		abort();
	}
	xmlTextWriterSetIndent(w, 1);
	xmlTextWriterSetIndentString(w, BAD_CAST "  ");
	xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL);
	xmlTextWriterStartElement(w, BAD_CAST "testsuites");
	char *name = xasprintf("coursecheck %s", r->command);
	attr(w, "name", name);
	free(name);
	size_t loose = 0, tests = 0, failures = 0;
	for (size_t i = 0; i < r->n_items; i++) {
		loose += r->items[i].file == REPORT_NO_FILE;
		failures += r->items[i].level == DIAG_ERROR;
	}
	tests = r->n_items + r->n_files + (loose ? 1 : 0);
	attr_n(w, "tests", tests);
	attr_n(w, "failures", failures);
	attr_n(w, "errors", 0);
	if (loose)
		suite(w, r, REPORT_NO_FILE, "coursecheck", 0);
	for (size_t f = 0; f < r->n_files; f++)
		suite(w, r, f, r->files[f].path, r->files[f].checks);
	xmlTextWriterEndDocument(w);
	xmlFreeTextWriter(w);
	size_t len = (size_t)xmlBufferLength(buf);
	int rc = fwrite(xmlBufferContent(buf), 1, len, r->out) == len ? 0 : -1;
	if (rc == 0 && (len == 0 || xmlBufferContent(buf)[len - 1] != '\n') && fputc('\n', r->out) == EOF)
		rc = -1;
	xmlBufferFree(buf);
	return rc;
}
