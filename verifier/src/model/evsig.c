/* evsig.c - see evsig.h: a run's signature against the trusted keys. */
#include "evsig.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "capture_proc.h"
#include "evidence.h"
#include "lessonfiles.h"
#include "repo.h"
#include "signers.h"
#include "textfile.h"
#include "util.h"

#define MAX_SIGNERS_FILE (1024 * 1024)
#define MAX_SIG_FILE (64 * 1024)
#define GIT_LIMIT_S 30

static struct {
	bool loaded;
	const char *ref;         /* the trust revision, or NULL: the working tree */
	struct signers trusted;  /* what is trusted */
	bool have_trusted;       /* a trusted file was found at all */
	struct signers tree;     /* the working tree's, with --trust (for its differences) */
} st;

/* ---- the trusted keys ---- */

/* The working tree's file: 0 with its text, 1 when there is none, -1 with *why. */
static int read_tree_signers(char **text, size_t *len, const char **why)
{
	switch (textfile_read_small(EVSIG_SIGNERS_PATH, MAX_SIGNERS_FILE, text, len, why)) {
	case TEXTFILE_SMALL_OK: return 0;
	case TEXTFILE_SMALL_NONE: return 1;
	case TEXTFILE_SMALL_NOT_REGULAR: *why = "not a regular file"; return -1;
	case TEXTFILE_SMALL_TOO_LARGE: *why = "larger than 1 MiB"; return -1;
	case TEXTFILE_SMALL_REFUSED: break;
	}
	return -1;
}

int evsig_git_show(const char *ref, const char *rel, struct buf *out, char **why)
{
	char *spec = xasprintf("%s:%s", ref, rel);
	char *argv[] = {"git", "show", spec, NULL};
	struct buf err = {0};
	int wstatus = 0, rc = -1;
	if (proc_tool(argv, repo_root(), GIT_LIMIT_S, out, &err, &wstatus, why) != 0) {
		/* *why is proc_tool's */
	} else if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) {
		rc = 0;
	} else if (err.s && (strstr(err.s, "does not exist in") || strstr(err.s, "exists on disk, but not in"))) {
		rc = 1;
	} else {
		*why = xasprintf("git show %s failed: %.*s", spec, (int)strcspn(err.s ? err.s : "", "\n"),
				 err.s ? err.s : "");
	}
	buf_free(&err);
	free(spec);
	return rc;
}

/* Each line of the file that cannot be used, at its line. */
static void report_problems(const struct signers *s, const struct textfile *tf, const char *shown)
{
	for (size_t i = 0; i < s->n_problems; i++) {
		struct diag_loc at = textfile_loc_line(tf, s->problems[i].line, s->problems[i].col, 0);
		at.path = shown;
		struct diag *d = diag_begin(D_SIGNERS_MALFORMED, at, "%s", s->problems[i].message);
		diag_hint(d, "a line is 'PRINCIPAL namespaces=\"%s\",valid-after=\"YYYYMMDDZ\",valid-before=\"YYYYMMDDZ\" "
			     "ssh-ed25519 KEY' (see ssh-keygen(1), ALLOWED SIGNERS)",
			  SSHSIG_EVIDENCE_NAMESPACE);
		diag_end(d);
	}
}

static bool has_line(const struct signers *s, const char *line)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i].line_text, line) == 0)
			return true;
	return false;
}

/* Every key line of the working tree not at REF, and of REF not in the tree. */
static void report_differences(const struct textfile *tree_tf, const char *ref)
{
	for (size_t i = 0; i < st.tree.n; i++) {
		const struct signer *sg = &st.tree.v[i];
		if (has_line(&st.trusted, sg->line_text))
			continue;
		char fp[SSHSIG_FP_LEN + 1];
		sshkey_fingerprint(sg->key, fp);
		struct diag *d = diag_begin(D_SIGNERS_CHANGED, textfile_loc_line(tree_tf, sg->line, 1, 0),
					    "this key line (%s, %s) is not in %s's allowed_signers: it is not trusted, "
					    "and runs signed only by it are not either",
					    sg->principals, fp, ref);
		diag_hint(d, "a key is trusted once a maintainer commits it to %s's %s; a pull request cannot add one",
			  ref, EVSIG_SIGNERS_PATH);
		diag_end(d);
	}
	for (size_t i = 0; i < st.trusted.n; i++) {
		const struct signer *sg = &st.trusted.v[i];
		if (has_line(&st.tree, sg->line_text))
			continue;
		char fp[SSHSIG_FP_LEN + 1];
		sshkey_fingerprint(sg->key, fp);
		struct diag_loc at = {.path = EVSIG_SIGNERS_PATH};
		struct diag *d = diag_begin(D_SIGNERS_CHANGED, at,
					    "%s's line %zu (%s, %s) is changed or gone in the working tree; %s's stays what "
					    "is trusted",
					    ref, sg->line, sg->principals, fp, ref);
		diag_hint(d, "'git diff %s -- %s' shows the change", ref, EVSIG_SIGNERS_PATH);
		diag_end(d);
	}
}

static void report_private(const char *relpath)
{
	struct diag_loc at = {.path = relpath, .line = 1, .col = 1};
	struct diag *d = diag_begin(D_PRIVATE_KEY, at, "a private key lies in the repository");
	diag_hint(d, "remove it from the repository and its history, make a new node key outside the repository "
		     "(coursecheck-capture --keygen ~/.coursecheck/node-key) and drop the old key from %s",
		  EVSIG_SIGNERS_PATH);
	diag_end(d);
}

/* A file whose first bytes are a private key's: reported at it. */
static void check_not_private(const char *relpath, const char *fspath)
{
	int fd = open(fspath, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return;
	char head[SSHKEY_HEAD_BYTES];
	ssize_t n = read(fd, head, sizeof head);
	close(fd);
	if (n > 0 && sshkey_looks_private(head, (size_t)n))
		report_private(relpath);
}

/* The files of the folder rel (evidence/, evidence/LESSON) that are not
 * runs or signatures; the subfolders too when depth allows. */
static void scan_folder(const char *rel, int depth)
{
	char *fs = NULL;
	const char *why;
	if (repo_resolve(rel, &fs, &why) != REPO_OK) {
		free(fs);
		return;
	}
	DIR *dir = opendir(fs);
	struct dirent *e;
	while (dir && (e = readdir(dir)) != NULL) {
		if (!repo_evidence_loose_name(e->d_name))
			continue;
		char *child = xasprintf("%s/%s", rel, e->d_name), *child_fs = xasprintf("%s/%s", fs, e->d_name);
		if (e->d_type == DT_DIR && depth > 0)
			scan_folder(child, depth - 1);
		else if (e->d_type == DT_REG)
			check_not_private(child, child_fs);
		free(child);
		free(child_fs);
	}
	if (dir)
		closedir(dir);
	free(fs);
}

/* With --trust: REF's file is what is trusted; the tree's, its differences. */
static void load_from_ref(const char *ref, const char *tree_text, size_t tree_len, int tree_rc)
{
	struct buf out = {0};
	char *why = NULL;
	int rc = evsig_git_show(ref, EVSIG_SIGNERS_PATH, &out, &why);
	if (rc < 0) {
		diag_command(D_SIGNERS_UNREADABLE, "verify", "--trust=%s: %s: no key is trusted", ref, why);
		free(why);
	} else if (rc == 1) {
		diag_command(D_SIGNERS_UNREADABLE, "verify", "--trust=%s: %s has no %s: no key is trusted", ref, ref,
			     EVSIG_SIGNERS_PATH);
	} else {
		struct textfile tf;
		char *shown = xasprintf("%s:%s", ref, EVSIG_SIGNERS_PATH);
		textfile_from_memory(out.s ? out.s : "", out.len, shown, &tf);
		signers_parse(out.s ? out.s : "", out.len, &st.trusted);
		report_problems(&st.trusted, &tf, shown);
		st.have_trusted = true;
		textfile_free(&tf);
		free(shown);
	}
	buf_free(&out);
	signers_parse(tree_rc == 0 ? tree_text : "", tree_rc == 0 ? tree_len : 0, &st.tree);
	struct textfile tf;
	textfile_from_memory(tree_rc == 0 ? tree_text : "", tree_rc == 0 ? tree_len : 0, EVSIG_SIGNERS_PATH, &tf);
	report_differences(&tf, ref);
	textfile_free(&tf);
}

/* evsig_load's scan for private keys: evidence/ and each evidence/LESSON/
 * (depth 1), or evidence/ alone (evsig_scan_top_only). */
static int scan_depth = 1;

void evsig_scan_top_only(void)
{
	scan_depth = 0;
}

void evsig_load(const char *trust_ref)
{
	if (st.loaded)
		return;
	st.loaded = true;
	st.ref = trust_ref;
	char *text = NULL;
	size_t len = 0;
	const char *why = NULL;
	int rc = read_tree_signers(&text, &len, &why);
	if (rc < 0) {
		struct diag_loc at = {.path = EVSIG_SIGNERS_PATH};
		diag_report(D_SIGNERS_UNREADABLE, at, "cannot read the trusted keys: %s", why);
	}
	if (trust_ref) {
		load_from_ref(trust_ref, text, len, rc);
	} else if (rc == 0) {
		struct textfile tf;
		textfile_from_memory(text, len, EVSIG_SIGNERS_PATH, &tf);
		signers_parse(text, len, &st.trusted);
		report_problems(&st.trusted, &tf, EVSIG_SIGNERS_PATH);
		st.have_trusted = true;
		textfile_free(&tf);
	}
	free(text);
	/* the files course_load() listed already, when it did; else listed */
	char *const *loose;
	size_t n_loose;
	if (scan_depth == 1 && course_evidence_loose_files(&loose, &n_loose)) {
		for (size_t i = 0; i < n_loose; i++) {
			char *fs = NULL;
			if (course_resolve(loose[i], &fs, &why) == REPO_OK)
				check_not_private(loose[i], fs);
			free(fs);
		}
	} else {
		scan_folder("evidence", scan_depth);
	}
}

const struct signers *evsig_trusted(const char **ref)
{
	evsig_load(NULL);
	if (ref)
		*ref = st.ref;
	return &st.trusted;
}

/* ---- one run ---- */

void evsig_verdict_free(struct evsig_verdict *v)
{
	free(v->sig_path);
	free(v->why);
	free(v->hint);
	free(v->principal);
	free(v->valid_after);
	free(v->valid_before);
	memset(v, 0, sizeof *v);
}

/* The .sig's text: 0, 1 when there is none, -1 with *why (malloc'd). */
static int read_sig(const char *sig_path, char **text, size_t *len, char **why)
{
	const char *w = NULL;
	switch (textfile_read_small(sig_path, MAX_SIG_FILE, text, len, &w)) {
	case TEXTFILE_SMALL_OK: return 0;
	case TEXTFILE_SMALL_NONE: return 1;
	case TEXTFILE_SMALL_NOT_REGULAR: w = "it is not a regular file"; break;
	case TEXTFILE_SMALL_TOO_LARGE: w = "it is larger than any signature"; break;
	case TEXTFILE_SMALL_REFUSED: break;
	}
	*why = xstrdup(w ? w : "cannot be read");
	return -1;
}

/* 1 when the run's bytes on disk are what sig signed, 0 not, -1 unreadable. */
static int run_matches(const struct evfile *ev, const struct sshsig *sig)
{
	char *fs = NULL;
	const char *why;
	if (course_resolve(ev->path, &fs, &why) != REPO_OK) {
		free(fs);
		return -1;
	}
	int fd = open(fs, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	free(fs);
	if (fd < 0)
		return -1;
	int r = sshsig_check_fd(sig, fd);
	close(fd);
	return r;
}

/* v's window: the two ends of the trusted line sg, as it writes them. */
static void take_window(struct evsig_verdict *v, const struct signer *sg)
{
	v->valid_after = sg->valid_after_text ? xstrdup(sg->valid_after_text) : NULL;
	v->valid_before = sg->valid_before_text ? xstrdup(sg->valid_before_text) : NULL;
}

/* v's window in words: "valid-after X, valid-before Y", or "no validity
 * window".  Malloc'd. */
static char *window_text(const struct evsig_verdict *v)
{
	if (!v->valid_after && !v->valid_before)
		return xstrdup("no validity window");
	return xasprintf("valid-after %s, valid-before %s", v->valid_after ? v->valid_after : "(none)",
			 v->valid_before ? v->valid_before : "(none)");
}

/* The trusted lines for the signing key: the one that holds at the run's
 * time (OK), else the reason it is not trusted. */
static void judge_trust(const struct sshsig *sig, struct evsig_verdict *v)
{
	long long at = 0;
	bool timed = v->captured && signers_parse_time(v->captured, &at);
	const struct signer *listed = NULL, *ns_listed = NULL;
	for (size_t i = 0; i < st.trusted.n; i++) {
		const struct signer *sg = &st.trusted.v[i];
		if (memcmp(sg->key, sig->key, SSHSIG_ED25519_LEN) != 0)
			continue;
		listed = sg;
		if (!signers_namespace_allows(sg, SSHSIG_EVIDENCE_NAMESPACE))
			continue;
		ns_listed = sg;
		if (timed && at >= sg->valid_after && at < sg->valid_before) {
			v->state = EVSIG_OK;
			v->principal = signers_first_principal(sg);
			take_window(v, sg);
			return;
		}
	}
	const char *where = st.ref ? st.ref : "the working tree";
	if (ns_listed) {
		v->state = EVSIG_EXPIRED;
		v->principal = signers_first_principal(ns_listed);
		take_window(v, ns_listed);
		char *window = window_text(v);
		v->why = !timed ? xasprintf("its captured: time cannot be read, so the key's window (%s) cannot be judged",
					    window)
			 : at < ns_listed->valid_after
			       ? xasprintf("captured %s, before the key's valid-after %s", v->captured,
					   ns_listed->valid_after_text)
			       : xasprintf("captured %s, at or after the key's valid-before %s", v->captured,
					   ns_listed->valid_before_text);
		free(window);
		v->hint = xstrdup("capture it again with a node key valid now, and list that key in "
				  EVSIG_SIGNERS_PATH " with its window");
		return;
	}
	v->state = EVSIG_UNTRUSTED;
	bool in_tree = false;
	for (size_t i = 0; st.ref && i < st.tree.n; i++)
		in_tree |= memcmp(st.tree.v[i].key, sig->key, SSHSIG_ED25519_LEN) == 0;
	v->why = listed ? xasprintf("%s lists the key %s without the namespace %s", where, v->fingerprint,
				    SSHSIG_EVIDENCE_NAMESPACE)
		 : in_tree ? xasprintf("the key %s is in the working tree's %s but not in %s's", v->fingerprint,
				       EVSIG_SIGNERS_PATH, st.ref)
		 : !st.have_trusted ? xasprintf("the key %s is not trusted: %s has no %s", v->fingerprint, where,
						EVSIG_SIGNERS_PATH)
				    : xasprintf("the key %s is not in %s's %s", v->fingerprint, where, EVSIG_SIGNERS_PATH);
	v->hint = xstrdup(in_tree ? "a key is trusted once a maintainer has committed it to the base branch; until "
				    "then its runs are not evidence"
				  : "capture it on the course's GPU node with a key listed in " EVSIG_SIGNERS_PATH);
}

/* The header facts the verdict names: captured:, gpu-node:, rehearsal:, dirty-allowed:. */
static bool header_refuses(const struct evfile *ev, struct evsig_verdict *v)
{
	size_t line = 0;
	v->captured = evidence_get(ev->ev, "captured", &line);
	v->line = line ? line : 1;
	const char *dirty = evidence_get(ev->ev, "dirty-allowed", &v->dirty_line);
	v->dirty_allowed = dirty && strcmp(dirty, "yes") == 0;
	const char *rehearsal = evidence_get(ev->ev, "rehearsal", &line);
	if (rehearsal && strcmp(rehearsal, "yes") == 0) {
		v->state = EVSIG_NOT_NODE;
		v->line = line;
		v->why = xstrdup("it is a rehearsal (rehearsal: yes), written by capture --rehearse");
		v->hint = xstrdup("a rehearsal is never evidence: capture the lesson on the GPU node");
		return true;
	}
	const char *node = evidence_get(ev->ev, "gpu-node", &line);
	if (node && strncmp(node, "no", 2) == 0) {
		v->state = EVSIG_NOT_NODE;
		v->line = line;
		v->why = xasprintf("it was not captured on a GPU node (gpu-node: %s)", node);
		v->hint = xstrdup("capture the lesson on the GPU node");
		return true;
	}
	return false;
}

void evsig_judge(const struct evfile *ev, struct evsig_verdict *v)
{
	memset(v, 0, sizeof *v);
	evsig_load(NULL);
	v->sig_path = xasprintf("%s.sig", ev->path);
	if (header_refuses(ev, v))
		return;
	char *text = NULL, *why = NULL;
	size_t len = 0;
	int rc = read_sig(v->sig_path, &text, &len, &why);
	if (rc == 1) {
		v->state = EVSIG_UNSIGNED;
		v->hint = xstrdup("capture it on the GPU node with its node key (coursecheck-capture --sign-key=KEY)");
		return;
	}
	struct sshsig sig;
	if (rc == 0 && sshsig_parse(text, len, &sig, &why) == 0) {
		sshkey_fingerprint(sig.key, v->fingerprint);
		int m = strcmp(sig.namespace, SSHSIG_EVIDENCE_NAMESPACE) != 0 ? 2 : run_matches(ev, &sig);
		if (m == 1) {
			judge_trust(&sig, v);
		} else {
			v->state = EVSIG_BAD;
			v->why = m == 2 ? xasprintf("%s is made under the namespace '%s', not '%s'", v->sig_path,
						    sig.namespace, SSHSIG_EVIDENCE_NAMESPACE)
				 : m == 0 ? xasprintf("%s does not match the run: the run (or its signature) was changed "
						      "after it was signed",
						      v->sig_path)
					  : xasprintf("the run cannot be read again to check %s", v->sig_path);
		}
		sshsig_free(&sig);
	} else {
		v->state = EVSIG_BAD;
		v->why = xasprintf("%s cannot be read as an SSH signature: %s", v->sig_path, why);
	}
	if (v->state == EVSIG_BAD)
		v->hint = xasprintf("restore the run and its signature with 'git checkout -- %s %s', or capture the "
				    "lesson again on the GPU node",
				    ev->path, v->sig_path);
	free(why);
	free(text);
}

/* ---- reporting ---- */

static const enum diag_kind state_kind[] = {
	[EVSIG_UNSIGNED] = D_EVIDENCE_UNSIGNED, [EVSIG_NOT_NODE] = D_EVIDENCE_NOT_NODE,
	[EVSIG_BAD] = D_EVIDENCE_SIG_BAD,       [EVSIG_UNTRUSTED] = D_EVIDENCE_SIG_UNTRUSTED,
	[EVSIG_EXPIRED] = D_EVIDENCE_SIG_EXPIRED,
};

static void report(const struct evfile *ev, const struct evsig_verdict *v, struct diag_loc page_at)
{
	const struct textfile *tf = &ev->ev->tf;
	if (v->state != EVSIG_OK) {
		struct diag_loc at = textfile_loc_line(tf, v->line, 0, 0);
		/* while the course lists no key it is on its way to signing: a
		 * warning; once it lists one, an unsigned run is not evidence */
		enum diag_kind unsigned_kind = st.trusted.n ? D_EVIDENCE_UNSIGNED_REQUIRED : D_EVIDENCE_UNSIGNED;
		struct diag *d = v->state == EVSIG_UNSIGNED
					 ? diag_begin(unsigned_kind, at, "run '%s' is not signed: %s is missing",
						      ev->path, v->sig_path)
					 : diag_begin(state_kind[v->state], at, "run '%s' is not vouched for: %s", ev->path,
						      v->why);
		if (page_at.path)
			diag_note(d, page_at, "the run is named here");
		if (v->hint)
			diag_hint(d, "%s", v->hint);
		diag_end(d);
	}
	if (v->dirty_allowed) {
		struct diag *d = diag_begin(D_EVIDENCE_DIRTY, textfile_loc_line(tf, v->dirty_line, 0, 0),
					    "run '%s' was captured from a tree with uncommitted changes (--allow-dirty)",
					    ev->path);
		if (page_at.path)
			diag_note(d, page_at, "the run is named here");
		diag_hint(d, "commit the changes and capture the lesson again for publishing");
		diag_end(d);
	}
}

/* Each lesson file of the run's lesson, as it was read, judged for a
 * private key (lessonfiles), once a run. */
static void scan_lesson(const char *lesson)
{
	const char *why;
	bool refused;
	const struct lesson_files *f = lesson ? course_lesson_files(lesson, &why, &refused) : NULL;
	for (size_t i = 0; f && i < f->n; i++)
		if (f->v[i].private_key)
			report_private(f->v[i].path);
}

void evsig_check(const struct evfile *ev, struct diag_loc page_at)
{
	if (!ev || ev->state != LOAD_OK || !ev->ev)
		return;
	/* once a run at each strictness: a published page reports what a
	 * draft named first */
	bool strict = diag_level_of(D_EVIDENCE_UNSIGNED) == DIAG_ERROR;
	bool draft = diag_level_of(D_EVIDENCE_UNSIGNED_REQUIRED) == DIAG_WARNING;
	const char *what = strict ? "signature-strict" : draft ? "signature-draft" : "signature";
	/* the course model's marks (course.h): one a strictness, one for the lesson's scan */
	enum { MARK_SIGNATURE, MARK_SIGNATURE_DRAFT, MARK_SIGNATURE_STRICT, MARK_LESSON_SCANNED };
	unsigned mark = strict ? MARK_SIGNATURE_STRICT : draft ? MARK_SIGNATURE_DRAFT : MARK_SIGNATURE;
	if (!course_evidence_first(ev, mark)) {
		diag_once_touch(what, ev->path);
		return;
	}
	diag_once_begin(what, ev->path);
	struct evsig_verdict v;
	evsig_judge(ev, &v);
	report(ev, &v, page_at);
	evsig_verdict_free(&v);
	if (ev->lesson && course_lesson_first(ev->lesson, MARK_LESSON_SCANNED))
		scan_lesson(ev->lesson);
	diag_once_end();
}

char *evsig_describe(const struct evsig_verdict *v)
{
	const char *when = v->captured ? v->captured : "an unknown time";
	switch (v->state) {
	case EVSIG_OK: {
		char *window = window_text(v);
		char *text = xasprintf("signed by %s (key %s, %s), captured %s", v->principal, v->fingerprint, window, when);
		free(window);
		return text;
	}
	case EVSIG_UNSIGNED:
		return xasprintf("not signed (no %s), captured %s", v->sig_path, when);
	default:
		return xasprintf("not vouched for: %s", v->why);
	}
}

const char *evsig_state_name(enum evsig_state state)
{
	switch (state) {
	case EVSIG_OK: return "signed";
	case EVSIG_UNSIGNED: return "unsigned";
	case EVSIG_NOT_NODE: return "not-gpu-node";
	case EVSIG_BAD: return "signature-bad";
	case EVSIG_UNTRUSTED: return "signer-untrusted";
	case EVSIG_EXPIRED: return "signer-expired";
	}
	return "unknown";
}

void evsig_release(void)
{
	signers_free(&st.trusted);
	signers_free(&st.tree);
	memset(&st, 0, sizeof st);
}
