/* capture_sign.c - see capture_sign.h: signing runs, the GPU-node test,
 * the node key. */
#include "capture_sign.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capture_proc.h"
#include "capture_write.h"
#include "filewrite.h"
#include "repo.h"
#include "signers.h"
#include "textfile.h"

#include <openssl/crypto.h>

#define MAX_KEY_FILE (64 * 1024)

/* A key's bytes are wiped before they are given back. */
static void wipe_free(char *p, size_t n)
{
	if (p)
		OPENSSL_cleanse(p, n);
	free(p);
}

/* True when path (existing or not) lies inside the repository: its folder
 * resolved, with the links on the way followed. */
static bool inside_repository(const char *path)
{
	char *copy = xstrdup(path);
	char *slash = strrchr(copy, '/');
	const char *dir = slash ? (slash == copy ? "/" : (*slash = '\0', copy)) : ".";
	char *real = realpath(dir, NULL);
	const char *root = repo_root();
	size_t n = strlen(root);
	bool in = real && strncmp(real, root, n) == 0 && (real[n] == '/' || real[n] == '\0');
	free(real);
	free(copy);
	return in;
}

int capture_signer_load(const char *path, struct capture_signer *s, char **why)
{
	memset(s, 0, sizeof *s);
	if (inside_repository(path)) {
		*why = xasprintf("the key %s lies inside the repository: a private key never goes there "
				 "(make one outside it with --keygen, e.g. in $HOME/.coursecheck/)", path);
		return -1;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	char *data = NULL;
	size_t len = 0;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    textfile_read_fd(fd, (size_t)st.st_size, MAX_KEY_FILE, &data, &len) != 0) {
		*why = xasprintf("cannot read the key %s: %s", path,
				 fd >= 0 && !S_ISREG(st.st_mode) ? "not a regular file" : strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	char *problem = NULL;
	int rc = sshkey_parse_private(data, len, &s->key, &problem);
	wipe_free(data, len);
	if (rc != 0) {
		*why = xasprintf("the key %s cannot be used: %s%s", path, problem,
				 rc == 1 ? " (coursecheck signs with an unencrypted key: make a short-lived one with "
					   "--keygen, outside the repository)"
					 : "");
		free(problem);
		sshkey_free(&s->key);
		return -1;
	}
	sshkey_fingerprint(s->key.pub, s->fingerprint);
	return 0;
}

void capture_signer_free(struct capture_signer *s)
{
	sshkey_free(&s->key);
}

char *capture_sign_text(const struct capture_signer *s, const char *text, size_t len, size_t *sig_len, char **why)
{
	return sshsig_sign(&s->key, SSHSIG_EVIDENCE_NAMESPACE, text, len, sig_len, why);
}

/* The one name a .sig may have: its run's name and ".sig". */
static char *sig_name(int seq, void *arg)
{
	return seq == 1 ? xasprintf("%s.sig", (const char *)arg) : NULL;
}

int capture_sig_write(const char *relpath, const char *sig, size_t len, char **why)
{
	const char *slash = strrchr(relpath, '/');
	char *folder = xstrndup(relpath, slash ? (size_t)(slash - relpath) : 0);
	char *dir = filewrite_mkdirs_repo(folder, why);
	int r = -1;
	if (dir) {
		char *shown = xasprintf("%s/", folder), *name = NULL;
		r = filewrite_new(dir, shown, sig, len, sig_name, (void *)(slash ? slash + 1 : relpath), &name, why);
		free(name);
		free(shown);
		free(dir);
	}
	free(folder);
	return r;
}

void capture_sign_header(struct buf *h, const char *not_gpu_node, bool dirty_allowed, bool rehearsal)
{
	if (rehearsal)
		header_add(h, "rehearsal", "yes");
	if (not_gpu_node) {
		char *v = xasprintf("no (%s)", not_gpu_node);
		header_add(h, "gpu-node", v);
		free(v);
	} else {
		header_add(h, "gpu-node", "yes");
	}
	if (dirty_allowed)
		header_add(h, "dirty-allowed", "yes");
}

int capture_write_signed(const char *lesson, const char *date, const char *text, size_t len,
			 const struct capture_signer *signer, const char *not_gpu_node, char **relpath, char **why)
{
	size_t sig_len = 0;
	char *sig = NULL;
	if (signer && !not_gpu_node && !(sig = capture_sign_text(signer, text, len, &sig_len, why)))
		return -1;
	int r = evidence_write_new(lesson, date, text, len, relpath, why);
	char *sig_why = NULL;
	if (r == 0 && sig && capture_sig_write(*relpath, sig, sig_len, &sig_why) != 0) {
		*why = xasprintf("%s was written but not its signature: %s (capture it again)", *relpath, sig_why);
		free(sig_why);
		free(*relpath);
		*relpath = NULL;
		r = -1;
	}
	free(sig);
	return r;
}

/* run-DATE.txt, run-DATE-2.txt, ...: the names capture_write.h gives runs. */
static char *rehearsal_name(int seq, void *arg)
{
	return seq > 9999 ? NULL : seq == 1 ? xasprintf("run-%s.txt", (const char *)arg)
					   : xasprintf("run-%s-%d.txt", (const char *)arg, seq);
}

int capture_write_rehearsal(const char *lesson, const char *date, const char *text, size_t len, char **relpath,
			    char **why)
{
	char *rel = xasprintf("%s/%s", CAPTURE_REHEARSAL_DIR, lesson);
	char *dir = filewrite_mkdirs_repo(rel, why);
	int r = -1;
	if (dir) {
		char *shown = xasprintf("%s/", rel), *name = NULL;
		r = filewrite_new(dir, shown, text, len, rehearsal_name, (void *)date, &name, why);
		if (r == 0)
			*relpath = xasprintf("%s/%s", rel, name);
		free(name);
		free(shown);
		free(dir);
	}
	free(rel);
	return r;
}

bool capture_gpu_node(char **why)
{
	const char *root = getenv("COURSECHECK_NODE_ROOT");
	static const char *const need[] = {"/proc/driver/nvidia/version", "/dev/nvidiactl"};
	for (size_t i = 0; i < ARRAY_LEN(need); i++) {
		char *p = xasprintf("%s%s", root ? root : "", need[i]);
		bool there = access(p, F_OK) == 0;
		free(p);
		if (!there) {
			*why = xasprintf("no NVIDIA driver on this machine (%s is missing): nvidia-smi's answers are "
					 "not a GPU's",
					 need[i]);
			return false;
		}
	}
	return true;
}

char *capture_tree_change(const char *root)
{
	/* evidence/ is capture's own output: new runs there are not changes */
	char *argv[] = {"git", "status", "--porcelain", "--", ".", ":(exclude)evidence", NULL};
	struct buf out = {0}, err = {0};
	char *why = NULL, *first = NULL;
	int wstatus = 0;
	if (proc_tool(argv, root, 30, &out, &err, &wstatus, &why) == 0 && WIFEXITED(wstatus) &&
	    WEXITSTATUS(wstatus) == 0 && out.len > 3)
		first = xstrndup(out.s + 3, strcspn(out.s + 3, "\n"));
	free(why);
	buf_free(&out);
	buf_free(&err);
	return first;
}

/* ---- --keygen ---- */

long long capture_parse_duration(const char *s)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	long long unit = *end == 'd' ? 86400 : *end == 'h' ? 3600 : *end == 'm' ? 60 : 0;
	if (errno || end == s || !unit || end[1] || v < 1 || v > 366LL * 86400 / unit || s[0] == '+' || s[0] == ' ')
		return -1;
	return v * unit;
}

static void ssh_time(long long t, char out[16])
{
	time_t tt = (time_t)t;
	struct tm tm;
	gmtime_r(&tt, &tm);
	strftime(out, 16, "%Y%m%d%H%M%SZ", &tm);
}

/* The key file's one name. */
static char *exact_name(int seq, void *arg)
{
	return seq == 1 ? xstrdup(arg) : NULL;
}

/* Writes data as the new file path with mode: 0, or -1 with *why. */
static int write_new(const char *path, const char *data, size_t len, unsigned mode, char **why)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	char *name = NULL, *problem = NULL;
	bool taken = access(path, F_OK) == 0;
	int r = filewrite_new_mode(dir, dir, data, len, mode, exact_name, (void *)(slash ? slash + 1 : path), &name,
				   &problem);
	if (r != 0) {
		*why = taken ? xasprintf("--keygen %s: the file exists, and a key is never overwritten", path)
			     : xasprintf("--keygen %s: %s", path, problem);
		free(problem);
	}
	free(name);
	free(dir);
	return r;
}

int capture_keygen(const char *out, const char *principal, long long valid_for, const char *now, char **why)
{
	if (inside_repository(out)) {
		*why = xasprintf("--keygen %s: the private key would lie inside the repository; write it outside "
				 "(e.g. $HOME/.coursecheck/node-key)",
				 out);
		return -1;
	}
	long long from = (long long)time(NULL);
	if (now)
		signers_parse_time(now, &from);
	struct sshkey k;
	char host[256] = "node";
	gethostname(host, sizeof host - 1);
	host[sizeof host - 1] = '\0';
	char *comment = xasprintf("%s@%s", principal, host);
	if (sshkey_generate(&k, comment, why) != 0) {
		free(comment);
		return -1;
	}
	size_t len;
	char *priv = sshkey_format_private(&k, &len);
	char *pub = sshkey_format_public(k.pub);
	char *pubfile = xasprintf("%s %s\n", pub, comment);
	char *pubpath = xasprintf("%s.pub", out);
	int status = -1;
	if (write_new(out, priv, len, 0600, why) == 0 && write_new(pubpath, pubfile, strlen(pubfile), 0644, why) == 0) {
		char after[16], before[16];
		ssh_time(from, after);
		ssh_time(from + valid_for, before);
		printf("%s namespaces=\"%s\",valid-after=\"%s\",valid-before=\"%s\" %s %s\n", principal,
		       SSHSIG_EVIDENCE_NAMESPACE, after, before, pub, comment);
		status = 0;
	}
	wipe_free(priv, len);
	free(pub);
	free(pubfile);
	free(pubpath);
	free(comment);
	sshkey_free(&k);
	return status;
}
