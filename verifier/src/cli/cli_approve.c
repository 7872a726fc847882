/* cli_approve.c - see cli_approve.h: approve and the delta review. */
#include "cli_approve.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "approvals.h"
#include "check.h"
#include "check_approvals.h"
#include "cli.h"
#include "cliopt.h"
#include "course.h"
#include "diag.h"
#include "evsig.h"
#include "filewrite.h"
#include "repo.h"
#include "signers.h"
#include "sshsig.h"
#include "textfile.h"
#include "util.h"

#define MAX_KEY_FILE (64 * 1024)

enum { OPT_ITEM = 0x300, OPT_ALL, OPT_KEY, OPT_PRINCIPAL, OPT_TRUST_REF, OPT_LIST, OPT_SINCE };

struct approve_opts {
	const struct cliopt_cmd *cmd;
	const char **items;
	size_t n_items, cap_items;
	bool all, list;
	const char *key, *principal, *trust, *since;
};

static int approve_option(int ch, const char *arg, void *ctx)
{
	struct approve_opts *v = ctx;
	switch (ch) {
	case OPT_ITEM:
		v->items = xgrow(v->items, &v->cap_items, v->n_items + 1, sizeof *v->items);
		v->items[v->n_items++] = arg;
		return 0;
	case OPT_ALL:
		v->all = true;
		return 0;
	case OPT_LIST:
		v->list = true;
		return 0;
	case OPT_KEY:
		v->key = arg;
		return 0;
	case OPT_PRINCIPAL:
		if (!*arg || strpbrk(arg, " \t\n,\""))
			return cliopt_usage_error(v->cmd, "--principal takes one name as allowed_signers lists it, not '%s'",
						  arg);
		v->principal = arg;
		return 0;
	case OPT_TRUST_REF:
	case OPT_SINCE:
		if (!*arg || arg[0] == '-' || str_control_byte(arg))
			return cliopt_usage_error(v->cmd, "--%s takes a git revision (origin/main), not '%s'",
						  ch == OPT_SINCE ? "since" : "trust", arg);
		*(ch == OPT_SINCE ? &v->since : &v->trust) = arg;
		return 0;
	default:
		return -1;
	}
}

/* "YYYY-MM-DDTHH:MM:SSZ" now, or COURSECHECK_NOW's time (tests), as capture reads it. */
static void now_text(char out[32])
{
	const char *fixed = getenv("COURSECHECK_NOW");
	long long at;
	if (fixed && strlen(fixed) < 32 && signers_parse_time(fixed, &at)) {
		strcpy(out, fixed);
		return;
	}
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The reviewer's key: a private key file, or one whose private half the
 * ssh-agent at agent_sock holds (sshkey_for_signing); 0, or -1 after
 * approve-refused. */
static int read_key(const struct approve_opts *v, const char *agent_sock, struct sshkey *k)
{
	struct textfile tf;
	const char *rwhy;
	if (textfile_read(v->key, v->key, &tf, &rwhy) != 0) {
		diag_command(D_APPROVE_REFUSED, "approve", "cannot read the key %s: %s", v->key, rwhy);
		return -1;
	}
	char *why = NULL;
	int rc = tf.len > MAX_KEY_FILE ? -1 : sshkey_for_signing(tf.data, tf.len, agent_sock, k, &why);
	textfile_free(&tf);
	if (rc != 0) {
		struct diag *d = diag_command_begin(D_APPROVE_REFUSED, "approve", "cannot use the key %s: %s", v->key,
						    why ? why : "larger than a key file");
		diag_hint(d, "approve signs with an Ed25519 key: its private key file unencrypted, or the key in your "
			     "ssh-agent (ssh-add FILE) and --key=FILE.pub");
		diag_end(d);
		free(why);
		return -1;
	}
	return 0;
}

/* Whether item x is named by sel: its id, or "LINE" / "LINE:COL" of the page. */
static bool item_named(const struct approval_item *x, const char *sel)
{
	if (strcmp(sel, x->id) == 0)
		return true;
	char *end;
	unsigned long line = strtoul(sel, &end, 10);
	if (end == sel || line != x->line)
		return false;
	if (*end == '\0')
		return true;
	return *end == ':' && strtoul(end + 1, NULL, 10) == x->col;
}

/* The items to approve (indices into it), or -1 after approve-refused. */
static long choose(const struct approve_opts *v, const struct approval_items *it, const enum approval_state *st,
		   size_t *sel)
{
	size_t n = 0;
	for (size_t i = 0; i < it->n; i++) {
		bool want = v->all && st[i] != APPROVAL_APPROVED;
		for (size_t k = 0; k < v->n_items && !want; k++)
			want = item_named(&it->v[i], v->items[k]);
		if (want)
			sel[n++] = i;
	}
	for (size_t k = 0; k < v->n_items; k++) {
		bool found = false;
		for (size_t i = 0; i < it->n && !found; i++)
			found = item_named(&it->v[i], v->items[k]);
		if (!found) {
			struct diag *d = diag_command_begin(D_APPROVE_REFUSED, "approve", "--item %s names no item of the page",
							    v->items[k]);
			diag_hint(d, "'coursecheck approve PAGE --list' prints the items with their ids");
			diag_end(d);
			return -1;
		}
	}
	return (long)n;
}

static void list_items(const struct approval_items *it, const enum approval_state *st, const char *page)
{
	static const char *const words[] = {"new", "approved", "reopened"};
	for (size_t i = 0; i < it->n; i++) {
		const struct approval_item *x = &it->v[i];
		printf("%s %-8s %s:%zu:%zu: %s %s\n", x->id, words[st[i]], page, x->line, x->col,
		       ledger_kind_name(x->kind), x->kind == LG_CLAIM ? x->place : x->shown);
	}
}

/* Whether the key may not approve as --principal now (reported). */
static bool key_refused(const struct approve_opts *v, const struct sshkey *k, const char *now)
{
	char *why = NULL;
	if (approvals_judge_key(k->pub, v->principal, now, &why) == APPROVAL_TRUSTED)
		return false;
	struct diag *d = diag_command_begin(D_APPROVE_REFUSED, "approve", "the key %s cannot approve as %s: %s", v->key,
					    v->principal, why);
	diag_hint(d, "a maintainer lists a reviewer's key in %s as '%s namespaces=\"%s\" ssh-ed25519 KEY'",
		  EVSIG_SIGNERS_PATH, v->principal, APPROVALS_NAMESPACE);
	diag_end(d);
	free(why);
	return true;
}

/* Writes the block for sel; 0, or -1 after approve-refused. */
static int write_block(const struct approve_opts *v, const char *page, const struct approval_items *it,
		       const struct approvals *a, const size_t *sel, size_t n, const struct sshkey *k, const char *now)
{
	char *why = NULL;
	char *block = approvals_block(page, it, sel, n, v->principal, k, now, &why);
	char *text = block ? approvals_merge(a, it, sel, n, block) : NULL;
	char *rel = approvals_path(page), *dir = NULL;
	int rc = -1;
	if (!block)
		diag_command(D_APPROVE_REFUSED, "approve", "cannot sign: %s", why);
	else if ((dir = filewrite_mkdirs_repo(APPROVALS_DIR, &why)) == NULL)
		diag_command(D_APPROVE_REFUSED, "approve", "%s", why);
	else if (filewrite_replace_repo(rel, text, strlen(text), &why) != 0)
		diag_command(D_APPROVE_REFUSED, "approve", "cannot write %s: %s", rel, why);
	else
		rc = 0;
	if (rc == 0) {
		char fp[SSHSIG_FP_LEN + 1];
		sshkey_fingerprint(k->pub, fp);
		fprintf(stderr, "coursecheck approve: %zu item%s of %s approved by %s (key %s) in %s\n", n,
			n == 1 ? "" : "s", page, v->principal, fp, rel);
	}
	free(why);
	free(block);
	free(text);
	free(rel);
	free(dir);
	return rc;
}

/* The page read again, its items and their states; the caller frees. */
static int page_items(const char *rel, const struct ledger *lg, struct textfile *tf, struct approval_items *it)
{
	char *fs = NULL;
	const char *why;
	if (course_resolve(rel, &fs, &why) != REPO_OK || textfile_read(fs, rel, tf, &why) != 0) {
		free(fs);
		return -1;
	}
	free(fs);
	approvals_items(lg, tf, it);
	return 0;
}

static int approve_page(const struct approve_opts *v, const char *rel)
{
	struct check_opts co = {.approving = true};
	struct ledger lg = {0};
	size_t errors_before = diag_count(DIAG_ERROR);
	int rc = check_page(rel, &co, &lg) != 0 ? 2 : 0;
	if (rc == 0 && diag_count(DIAG_ERROR) > errors_before) {
		diag_command(D_APPROVE_REFUSED, "approve", "%s does not pass verify: fix its errors before approving it",
			     rel);
		rc = 2;
	}
	struct textfile tf = {0};
	struct approval_items it = {0};
	if (rc == 0 && page_items(rel, &lg, &tf, &it) != 0) {
		diag_command(D_APPROVE_REFUSED, "approve", "cannot read %s again", rel);
		rc = 2;
	}
	struct approvals a = {0};
	enum approval_state *st = xcalloc(it.n ? it.n : 1, sizeof *st);
	const struct approval_record **recs = xcalloc(it.n ? it.n : 1, sizeof *recs);
	size_t *sel = xcalloc(it.n ? it.n : 1, sizeof *sel);
	if (rc == 0) {
		approvals_read(rel, NULL, &a);
		approvals_states(&a, &it, st, recs);
		check_approvals_report(rel, &tf, &it, &a, false); /* the file's own problems */
	}
	/* who approves is judged before what: a refused key is refused
	 * whatever the page's state */
	struct sshkey k = {0};
	char now[32];
	now_text(now);
	if (rc == 0 && !v->list && (read_key(v, getenv("SSH_AUTH_SOCK"), &k) != 0 || key_refused(v, &k, now)))
		rc = 2;
	long n = rc == 0 && !v->list ? choose(v, &it, st, sel) : 0;
	if (rc == 0 && v->list) {
		list_items(&it, st, rel);
	} else if (rc == 0 && n < 0) {
		rc = 2;
	} else if (rc == 0 && n == 0) {
		fprintf(stderr, "coursecheck approve: nothing to approve in %s: every item is approved\n", rel);
	} else if (rc == 0 && write_block(v, rel, &it, &a, sel, (size_t)n, &k, now) != 0) {
		rc = 2;
	}
	sshkey_free(&k);
	free(st);
	free(recs);
	free(sel);
	approvals_free(&a);
	approvals_items_free(&it);
	if (tf.data)
		textfile_free(&tf);
	ledger_free(&lg);
	return rc;
}

static const char approve_usage[] =
	"usage: coursecheck approve [OPTION...] PAGE\n"
	"  Signs off items of a page (its claims and traced, derived and cited\n"
	"  numbers) as a reviewer: appends a signed block to reviews/PAGE.approvals.\n"
	"  --item=ID         approve the item ID (as approval-missing names it), or the\n"
	"                    items at LINE or LINE:COL of the page; repeatable\n"
	"  --all             approve every item not approved yet (new and reopened)\n"
	"  --key=FILE        the reviewer's Ed25519 key: a private key file (unencrypted),\n"
	"                    or a public key (FILE.pub) or encrypted key file whose\n"
	"                    private half ssh-agent holds (SSH_AUTH_SOCK)\n"
	"  --principal=NAME  the reviewer, as evidence/allowed_signers lists the key\n"
	"                    with namespaces=\"coursecheck-review\"\n"
	"  --trust=REF       trust the keys of evidence/allowed_signers as git revision\n"
	"                    REF has them\n"
	"  --list            print the items, their ids and states; approve nothing\n"
	"  --root=DIR        the course (default: found from the current folder upward)\n"
	"  -q, --quiet       no summary line\n"
	"  --color=WHEN      auto (default), always or never\n"
	"  -h, --help        this text\n"
	"      --version     the version\n";

static const struct option approve_longs[] = {
	{"item", required_argument, NULL, OPT_ITEM},	   {"all", no_argument, NULL, OPT_ALL},
	{"key", required_argument, NULL, OPT_KEY},	   {"principal", required_argument, NULL, OPT_PRINCIPAL},
	{"trust", required_argument, NULL, OPT_TRUST_REF}, {"list", no_argument, NULL, OPT_LIST},
	{NULL, 0, NULL, 0},
};
static const struct cliopt_cmd approve_cmd = {"coursecheck approve", approve_usage, "", approve_longs, 0};

int cli_approve(int argc, char **argv)
{
	struct approve_opts v = {.cmd = &approve_cmd};
	struct cliopt o;
	int first = cliopt_parse(argc, argv, &approve_cmd, &o, approve_option, &v);
	int rc = 2;
	if (first < 0) {
		rc = first == CLIOPT_DONE ? 0 : 2;
	} else if (argc - first != 1) {
		cliopt_usage_error(&approve_cmd, "takes one PAGE (%d operands given)", argc - first);
	} else if (!v.list && !v.all && v.n_items == 0) {
		cliopt_usage_error(&approve_cmd, "say what to approve: --item=ID or --all (--list prints the items)");
	} else if (!v.list && (!v.key || !v.principal)) {
		cliopt_usage_error(&approve_cmd, "--key=FILE and --principal=NAME say who approves");
	} else {
		cli_setup(&o);
		if (cli_open_course(&approve_cmd, o.root) == 0) {
			course_load();
			evsig_load(v.trust);
			char *rel = repo_operand(argv[first]);
			rc = approve_page(&v, rel);
			free(rel);
		}
	}
	free(v.items);
	return rc;
}

/* ---- the delta review ---- */

static const char approvals_usage[] =
	"usage: coursecheck approvals [OPTION...] [PAGE...]\n"
	"  The delta review: what changed on each page (every page without PAGE)\n"
	"  since its approvals: new items, reopened items with the approved and\n"
	"  current values side by side, and the evidence lines that moved.\n"
	"  --since=REF       the approvals as git revision REF has them (default: the\n"
	"                    working tree's)\n"
	"  --trust=REF       trust the keys of evidence/allowed_signers as git revision\n"
	"                    REF has them\n"
	"  --format=FORMAT   text (default) or json (the diagnostics)\n"
	"  --output=FILE     write to FILE instead of standard output\n"
	"  --root=DIR        the course (default: found from the current folder upward)\n"
	"  -q, --quiet       no summary line\n"
	"  --color=WHEN      auto (default), always or never\n"
	"  -h, --help        this text\n"
	"      --version     the version\n";

static const struct option approvals_longs[] = {
	{"since", required_argument, NULL, OPT_SINCE},
	{"trust", required_argument, NULL, OPT_TRUST_REF},
	{NULL, 0, NULL, 0},
};
static const struct cliopt_cmd approvals_cmd = {"coursecheck approvals", approvals_usage, "", approvals_longs,
						CLIOPT_REPORT};

static void drop_record(const struct diag_record *r, void *ctx)
{
	(void)r;
	(*(size_t *)ctx)++;
}

/* One page's delta; adds to *t.  0, or 2 when the page cannot be read. */
static int delta_page(const char *rel, const char *since, struct report *report, struct approvals_tally *t)
{
	struct check_opts co = {.approving = true};
	struct ledger lg = {0};
	/* the page's own findings are verify's: they are dropped here, and
	 * only counted, so that the delta is all this command prints */
	size_t dropped = 0;
	struct diag_sink drop = {drop_record, &dropped};
	const struct diag_sink *was = diag_get_sink();
	size_t errors_before = diag_count(DIAG_ERROR);
	diag_set_sink(&drop);
	int rc = check_page(rel, &co, &lg) != 0 ? 2 : 0;
	diag_set_sink(was);
	size_t page_errors = diag_count(DIAG_ERROR) - errors_before;
	struct textfile tf = {0};
	struct approval_items it = {0};
	if (rc == 0 && page_items(rel, &lg, &tf, &it) != 0)
		rc = 2;
	if (rc == 0) {
		struct approvals a;
		approvals_read(rel, since, &a);
		report_file_begin(report, rel);
		diag_file_begin(rel, NULL);
		struct approvals_tally pt = check_approvals_report(rel, &tf, &it, &a, true);
		diag_file_end();
		report_file_end(report);
		t->approved += pt.approved;
		t->reopened += pt.reopened;
		t->unapproved += pt.unapproved;
		approvals_free(&a);
		if (page_errors)
			fprintf(stderr, "coursecheck approvals: %s: its own checks report %zu error%s (coursecheck verify %s)\n",
				rel, page_errors, page_errors == 1 ? "" : "s", rel);
	} else {
		cli_operand_unusable(&approvals_cmd, "cannot read %s", rel);
	}
	approvals_items_free(&it);
	if (tf.data)
		textfile_free(&tf);
	ledger_free(&lg);
	return rc;
}

int cli_approvals(int argc, char **argv)
{
	struct approve_opts v = {.cmd = &approvals_cmd};
	struct cliopt o;
	int first = cliopt_parse(argc, argv, &approvals_cmd, &o, approve_option, &v);
	if (first < 0)
		return first == CLIOPT_DONE ? 0 : 2;
	struct cli_run run;
	if (cli_begin(&run, &approvals_cmd, "approvals", &o, false) != 0)
		return 2;
	if (cli_open_course(&approvals_cmd, o.root) != 0)
		return cli_abandon(&run);
	course_load();
	evsig_load(v.trust);
	char **names = NULL;
	size_t n = 0;
	if (first < argc) {
		names = xcalloc((size_t)(argc - first), sizeof *names);
		for (int i = first; i < argc; i++)
			names[n++] = repo_operand(argv[i]);
	} else {
		n = course_pages(&names);
	}
	struct approvals_tally t = {0};
	int status = 0;
	for (size_t i = 0; i < n; i++)
		if (delta_page(names[i], v.since, run.report, &t) != 0)
			status = 2;
	repo_free_list(names, n);
	if (!o.quiet)
		fprintf(stderr, "coursecheck approvals: %zu page%s since %s: %zu new, %zu reopened, %zu approved\n", n,
			n == 1 ? "" : "s", v.since ? v.since : "the working tree's approvals", t.unapproved, t.reopened,
			t.approved);
	return cli_end(&run, status, n, 0);
}
