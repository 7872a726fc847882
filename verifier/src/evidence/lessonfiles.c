/* lessonfiles.c - see lessonfiles.h. */
#include "lessonfiles.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proghdr.h"
#include "repo.h"
#include "srctok.h"
#include "sshsig.h"
#include "textfile.h"
#include "util.h"

bool lessonfiles_is_lesson(const char *folder)
{
	return folder[0] != '.' && strcmp(folder, LESSONFILES_COMMON) != 0;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n > t && strcmp(s + n - t, tail) == 0;
}

/* A name that counts as a lesson file (before its type is known). */
static bool counts(const char *name)
{
	return name[0] != '.' && !ends_with(name, ".md");
}

static bool plain_name(const char *name)
{
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' ||
		      *p == '_' || *p == '-' || *p == '+'))
			return false;
	return true;
}

/* An entry of a folder: its name and its type as the listing gives it
 * (d_type: the entry itself, never a link's target, as lstat would say;
 * DT_UNKNOWN where the file system does not tell, and then walk() asks
 * lstat). */
struct entry {
	char *name;
	unsigned char type;
};

static int by_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static void free_entries(struct entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

/* The entries of a folder, sorted by name, hidden ones left out. */
static int list_names(const char *fs, struct entry **names, size_t *n)
{
	*names = NULL;
	*n = 0;
	DIR *d = opendir(fs);
	if (!d)
		return -1;
	size_t cap = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (*n >= LESSONFILES_MAX_FILES * 4) { /* a folder of thousands: refused, not cut short */
			closedir(d);
			free_entries(*names, *n);
			*names = NULL;
			*n = 0;
			errno = EFBIG;
			return -1;
		}
		*names = xgrow(*names, &cap, *n + 1, sizeof **names);
		(*names)[(*n)++] = (struct entry){xstrdup(e->d_name), e->d_type};
	}
	closedir(d);
	if (*n > 1)
		qsort(*names, *n, sizeof **names, by_entry);
	return 0;
}

/* The entry's file type (S_IFMT bits): from the listing, or from lstat
 * where the listing does not tell.  -1 with errno when lstat fails. */
static int entry_type(const char *path, const struct entry *e, mode_t *type)
{
	switch (e->type) {
	case DT_DIR:
		*type = S_IFDIR;
		return 0;
	case DT_REG:
		*type = S_IFREG;
		return 0;
	case DT_LNK:
		*type = S_IFLNK;
		return 0;
	case DT_UNKNOWN:
		break;
	default:
		*type = S_IFIFO; /* a device, socket or fifo: not a plain file */
		return 0;
	}
	struct stat st;
	if (lstat(path, &st) != 0)
		return -1;
	*type = st.st_mode & S_IFMT;
	return 0;
}

/* Reads at most max bytes of a plain file (opened without following a
 * link), into a buffer of the size fstat gives: one read where the file
 * is as large as it says (a 64 KiB chunk copied into a growing buffer
 * cost a copy of every lesson file).  0, or -1 with *why. */
static int read_bytes(const char *fs, size_t max, char **data, size_t *len, char **why)
{
	int fd = open(fs, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		*why = xstrdup(strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		*why = xstrdup(strerror(errno));
		close(fd);
		return -1;
	}
	int r = textfile_read_fd(fd, (size_t)st.st_size, max, data, len);
	int e = errno;
	close(fd);
	if (r != 0) {
		*why = r < 0 ? xstrdup(strerror(e)) : xstrdup("the lesson's files are larger than 64 MiB in all");
		return -1;
	}
	return 0;
}

struct walk {
	struct lesson_files *f;
	size_t cap, bytes;
	char *why;
	bool refused; /* a link, an odd name or a limit, rather than a read error */
};

static int walk(struct walk *w, const char *fs, const char *rel, int depth)
{
	struct entry *names;
	size_t n;
	if (list_names(fs, &names, &n) != 0) {
		w->why = errno == EFBIG ? xasprintf("%s/ holds more than %d entries", rel, LESSONFILES_MAX_FILES * 4)
				       : xasprintf("cannot list %s/: %s", rel, strerror(errno));
		return -1;
	}
	int r = 0;
	for (size_t i = 0; i < n && r == 0; i++) {
		if (!counts(names[i].name))
			continue;
		char *child = xasprintf("%s/%s", fs, names[i].name);
		char *crel = xasprintf("%s/%s", rel, names[i].name);
		mode_t type = 0;
		if (!plain_name(names[i].name)) {
			w->why = xasprintf("%s: a lesson file's name may hold only letters, digits and . _ - +", crel);
			w->refused = true;
			r = -1;
		} else if (entry_type(child, &names[i], &type) != 0) {
			w->why = xasprintf("cannot read %s: %s", crel, strerror(errno));
			r = -1;
		} else if (S_ISDIR(type)) {
			if (depth >= LESSONFILES_MAX_DEPTH) {
				w->why = xasprintf("%s/: folders nested more than %d deep", crel, LESSONFILES_MAX_DEPTH);
				w->refused = true;
				r = -1;
			} else {
				r = walk(w, child, crel, depth + 1);
			}
		} else if (S_ISLNK(type)) {
			w->why = xasprintf("%s is a symbolic link: lesson files must be plain files (a link may lead "
					   "out of the repository)", crel);
			w->refused = true;
			r = -1;
		} else if (!S_ISREG(type)) {
			w->why = xasprintf("%s is not a plain file", crel);
			w->refused = true;
			r = -1;
		} else if (w->f->n >= LESSONFILES_MAX_FILES) {
			w->why = xasprintf("%s: the lesson holds more than %d files", crel, LESSONFILES_MAX_FILES);
			w->refused = true;
			r = -1;
		} else {
			struct lesson_file lf = {0};
			char *err = NULL;
			if (read_bytes(child, LESSONFILES_MAX_BYTES - w->bytes, &lf.data, &lf.len, &err) != 0) {
				w->why = xasprintf("cannot read %s: %s", crel, err);
				free(err);
				r = -1;
			} else {
				w->bytes += lf.len;
				lf.private_key = sshkey_looks_private(lf.data, lf.len < SSHKEY_HEAD_BYTES ? lf.len
													   : SSHKEY_HEAD_BYTES);
				lf.path = xstrdup(crel); /* hashed by set_sha, once the program is known */
				w->f->v = xgrow(w->f->v, &w->cap, w->f->n + 1, sizeof *w->f->v);
				w->f->v[w->f->n++] = lf;
			}
		}
		free(child);
		free(crel);
	}
	free_entries(names, n);
	return r;
}

static int walk_folder(struct walk *w, const char *rel, bool optional)
{
	char *fs;
	const char *reason;
	mode_t type;
	enum repo_status rs = repo_resolve_type(rel, &fs, &reason, &type);
	if (rs == REPO_MISSING && optional)
		return 0;
	if (rs != REPO_OK) {
		w->why = xasprintf("%s/: %s", rel, reason);
		return -1;
	}
	int r;
	if (!S_ISDIR(type)) /* a link is not a folder here (lstat's type) */
		r = optional ? 0 : (w->why = xasprintf("%s/ is not a folder", rel), -1);
	else
		r = walk(w, fs, rel, 1);
	free(fs);
	return r;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct lesson_file *)a)->path, ((const struct lesson_file *)b)->path);
}

/* Whether a source's header comment has a Build: line. */
static bool has_build(const char *data, size_t len, const char *path)
{
	struct textfile tf;
	textfile_from_memory(data, len, path, &tf);
	struct proghdr h;
	proghdr_parse(&tf, &h);
	bool yes = h.build.text != NULL;
	proghdr_free(&h);
	textfile_free(&tf);
	return yes;
}

/* The program among the .cu files at the top of the folder, as listed:
 * for a lesson whose files cannot all be read (a link, a limit), so that
 * its program is still named where the folder is reported. */
static char *program_listed(const char *lesson, size_t *count, size_t *headed)
{
	*count = *headed = 0;
	if (!lessonfiles_is_lesson(lesson) || strchr(lesson, '/'))
		return NULL;
	char *rel = xasprintf("programs/%s", lesson);
	char *fs;
	const char *reason;
	char *found = NULL, *first = NULL;
	if (repo_resolve(rel, &fs, &reason) == REPO_OK) {
		struct entry *names;
		size_t n;
		if (list_names(fs, &names, &n) == 0) {
			/* the regular .cu files first: one is the program without
			 * reading it; only several are read for their headers */
			bool *regular = xcalloc(n ? n : 1, sizeof *regular);
			for (size_t i = 0; i < n; i++) {
				if (!ends_with(names[i].name, ".cu"))
					continue;
				char *p = xasprintf("%s/%s", fs, names[i].name);
				mode_t type;
				regular[i] = entry_type(p, &names[i], &type) == 0 && S_ISREG(type);
				free(p);
				if (regular[i] && ++*count == 1)
					first = xasprintf("%s/%s", rel, names[i].name);
			}
			for (size_t i = 0; *count > 1 && i < n; i++) {
				if (!regular[i])
					continue;
				char *p = xasprintf("%s/%s", fs, names[i].name);
				char *data = NULL, *err = NULL;
				size_t len = 0;
				if (read_bytes(p, TEXTFILE_MAX_BYTES, &data, &len, &err) == 0 &&
				    has_build(data, len, names[i].name)) {
					++*headed;
					if (!found)
						found = xasprintf("%s/%s", rel, names[i].name);
				}
				free(err);
				free(data);
				free(p);
			}
			free(regular);
			free_entries(names, n);
		}
		free(fs);
	}
	free(rel);
	/* one .cu: it is the program, header or not (its missing Build: line
	 * is then reported where it belongs); several: the one with a header */
	if (*count == 1) {
		free(found);
		return first;
	}
	free(first);
	if (*headed != 1) {
		free(found);
		return NULL;
	}
	return found;
}

/* The lesson's program among its files, by the rule of lessonfiles.h (a
 * .cu at any depth of the lesson's own folder), from the bytes walk()
 * read: walk refused every .cu that is not a plain regular file.  *count
 * and *headed as lessonfiles_program() gives them. */
static size_t choose_program(const struct lesson_files *f, const char *lesson, size_t *count, size_t *headed)
{
	char *dir = xasprintf("programs/%s/", lesson);
	size_t dl = strlen(dir), first = SIZE_MAX, found = SIZE_MAX;
	*count = *headed = 0;
	for (size_t i = 0; i < f->n; i++) {
		const char *p = f->v[i].path;
		if (strncmp(p, dir, dl) != 0 || !ends_with(p + dl, ".cu"))
			continue;
		if (++*count == 1)
			first = i;
	}
	/* one .cu is the program without looking into it */
	for (size_t i = 0; *count > 1 && i < f->n; i++) {
		const char *p = f->v[i].path;
		if (strncmp(p, dir, dl) != 0 || !ends_with(p + dl, ".cu"))
			continue;
		if (f->v[i].data && f->v[i].len <= TEXTFILE_MAX_BYTES && has_build(f->v[i].data, f->v[i].len, p + dl)) {
			++*headed;
			if (found == SIZE_MAX)
				found = i;
		}
	}
	free(dir);
	return *count == 1 ? first : *headed == 1 ? found : SIZE_MAX;
}

static void find_program(struct lesson_files *f, const char *lesson)
{
	size_t count, headed;
	f->program = choose_program(f, lesson, &count, &headed);
}

char *lessonfiles_program(const char *lesson, size_t *count, size_t *headed)
{
	struct lesson_files f;
	char *why = NULL;
	if (lessonfiles_collect(lesson, &f, &why) != 0) {
		/* a lesson refused or unreadable: its top level, as listed */
		free(why);
		return program_listed(lesson, count, headed);
	}
	choose_program(&f, lesson, count, headed);
	char *prog = f.program != SIZE_MAX ? xstrdup(f.v[f.program].path) : NULL;
	lessonfiles_free(&f);
	return prog;
}

char *lessonfiles_no_program(const struct lesson_files *f, const char *lesson)
{
	size_t count, headed;
	choose_program(f, lesson, &count, &headed);
	char *dir = xasprintf("programs/%s/", lesson);
	size_t dl = strlen(dir), shown = 0;
	struct buf found = {0};
	for (size_t i = 0; i < f->n; i++) {
		const char *p = f->v[i].path;
		if (strncmp(p, dir, dl) != 0 || (count && !ends_with(p, ".cu")))
			continue;
		if (shown++ < 8)
			buf_printf(&found, "%s%s", shown > 1 ? ", " : "", p + dl);
	}
	if (shown > 8)
		buf_printf(&found, " and %zu more", shown - 8);
	char *said;
	if (!count)
		said = xasprintf("%s holds no .cu file%s%s%s", dir, shown ? " (found " : "", shown ? found.s : "",
				 shown ? ")" : "");
	else
		said = xasprintf("%s holds %zu .cu files (%s) and %zu of them ha%s a '// Build:' header line; exactly "
				 "one must", dir, count, found.s, headed, headed == 1 ? "s" : "ve");
	buf_free(&found);
	free(dir);
	return said;
}

/* source-sha256 over f's files, their hashes set. */
static void set_source_sha(struct lesson_files *f)
{
	if (f->n == 1 && f->program == 0) {
		memcpy(f->sha, f->v[0].sha, sizeof f->sha);
		return;
	}
	struct buf b = {0};
	for (size_t i = 0; i < f->n; i++)
		buf_printf(&b, "%s %s\n", f->v[i].path, f->v[i].sha);
	sha256_hex(b.s ? b.s : "", b.len, f->sha);
	buf_free(&b);
}

/* Each file hashed once by each rule: by its tokens (tsha), and by the
 * byte rule, the program by proghdr_source_sha256() and the others by
 * their bytes.  With known (the course cache, which gives every file's
 * bytes back and loads the program next), the program's bytes become its
 * text, kept with the header parsed (program_text, program_hdr): one
 * normalisation and one parse of the program a run, not two; its byte
 * hash, which only evidence from before the tokens rule needs, is the
 * caller's to make (program_sha_later) unless known has it. */
static void set_sha(struct lesson_files *f, lessonfiles_known_fn known, void *arg)
{
	for (size_t i = 0; i < f->n; i++) {
		struct lesson_file *p = &f->v[i];
		if (!p->data) /* a shared file hashed when programs/common/ was read */
			continue;
		srctok_file_sha256(p->path, p->data, p->len, p->tsha);
		if (i != f->program) {
			sha256_hex(p->data, p->len, p->sha);
		} else if (!known) {
			struct textfile tf;
			textfile_from_memory(p->data, p->len, p->path, &tf);
			proghdr_source_sha256(&tf, p->sha);
			textfile_free(&tf);
		} else if (!known(p->path, p->data, p->len, p->sha, arg)) {
			textfile_take(p->data, p->len, p->path, &f->program_text);
			p->data = NULL;
			proghdr_parse(&f->program_text, &f->program_hdr);
			p->sha[0] = '\0';
			f->program_sha_later = true;
		} else if (!p->sha[0]) {
			f->program_sha_later = true;
		}
	}
	if (f->program_sha_later) {
		f->sha[0] = '\0';
		return;
	}
	set_source_sha(f);
}

void lessonfiles_set_program_sha(struct lesson_files *f, const char sha[SHA256_HEX_LEN + 1])
{
	if (!f->program_sha_later || f->program == SIZE_MAX)
		return;
	memcpy(f->v[f->program].sha, sha, sizeof f->v[f->program].sha);
	f->program_sha_later = false;
	set_source_sha(f);
}

int lessonfiles_collect(const char *lesson, struct lesson_files *f, char **why)
{
	return lessonfiles_collect_known(lesson, f, why, NULL, NULL);
}

int lessonfiles_collect_known(const char *lesson, struct lesson_files *f, char **why, lessonfiles_known_fn known,
			      void *arg)
{
	return lessonfiles_collect_shared(lesson, f, why, known, arg, NULL);
}

void lessonfiles_common_read(struct lessonfiles_common *c)
{
	memset(c, 0, sizeof *c);
	c->f.program = SIZE_MAX;
	struct walk w = {&c->f, 0, 0, NULL, false};
	c->rc = walk_folder(&w, "programs/" LESSONFILES_COMMON, true);
	if (c->rc != 0) {
		c->why = w.why;
		c->rc = w.refused ? -2 : -1;
		lessonfiles_free(&c->f);
		return;
	}
	for (size_t i = 0; i < c->f.n; i++) { /* hashed now, the bytes given back */
		struct lesson_file *p = &c->f.v[i];
		sha256_hex(p->data, p->len, p->sha);
		srctok_file_sha256(p->path, p->data, p->len, p->tsha);
		c->bytes += p->len;
		free(p->data);
		p->data = NULL;
	}
}

void lessonfiles_common_free(struct lessonfiles_common *c)
{
	lessonfiles_free(&c->f);
	free(c->why);
	memset(c, 0, sizeof *c);
}

/* The shared files as read once (c): taken when they are usable and the
 * lesson's limits hold with them; otherwise false, and the caller walks
 * programs/common/ itself, so that a failure or a limit passed says what
 * the lesson's own walk would have said. */
static bool take_common(struct walk *w, const struct lessonfiles_common *c)
{
	if (!c || c->rc != 0 || w->bytes + c->bytes > LESSONFILES_MAX_BYTES || w->f->n + c->f.n > LESSONFILES_MAX_FILES)
		return false;
	for (size_t i = 0; i < c->f.n; i++) {
		struct lesson_file lf = c->f.v[i];
		lf.path = xstrdup(lf.path);
		w->f->v = xgrow(w->f->v, &w->cap, w->f->n + 1, sizeof *w->f->v);
		w->f->v[w->f->n++] = lf;
	}
	w->bytes += c->bytes;
	return true;
}

int lessonfiles_collect_shared(const char *lesson, struct lesson_files *f, char **why, lessonfiles_known_fn known,
			       void *arg, const struct lessonfiles_common *common)
{
	memset(f, 0, sizeof *f);
	f->program = SIZE_MAX;
	if (!lessonfiles_is_lesson(lesson) || strchr(lesson, '/') || !*lesson) {
		*why = xasprintf("'%s' is not a lesson folder name", lesson);
		return -1;
	}
	struct walk w = {f, 0, 0, NULL, false};
	char *rel = xasprintf("programs/%s", lesson);
	int r = walk_folder(&w, rel, false);
	if (r == 0 && !take_common(&w, common))
		r = walk_folder(&w, "programs/" LESSONFILES_COMMON, true);
	free(rel);
	if (r != 0) {
		*why = w.why;
		lessonfiles_free(f);
		return w.refused ? -2 : -1;
	}
	if (f->n > 1)
		qsort(f->v, f->n, sizeof *f->v, by_path);
	find_program(f, lesson);
	set_sha(f, known, arg);
	return 0;
}

void lessonfiles_free(struct lesson_files *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].path);
		free(f->v[i].data);
	}
	free(f->v);
	textfile_free(&f->program_text);
	proghdr_free(&f->program_hdr);
	memset(f, 0, sizeof *f);
	f->program = SIZE_MAX;
}

bool lessonfiles_take_program(struct lesson_files *f, struct textfile *tf, struct proghdr *hdr)
{
	if (!f->program_text.data)
		return false;
	*tf = f->program_text;
	*hdr = f->program_hdr;
	memset(&f->program_text, 0, sizeof f->program_text);
	memset(&f->program_hdr, 0, sizeof f->program_hdr);
	return true;
}

void lessonfiles_header(struct buf *h, const struct lesson_files *f)
{
	for (size_t i = 0; i < f->n; i++)
		buf_printf(h, LESSONFILES_KEY "%zu: %s %s\n", i + 1, f->v[i].path, f->v[i].sha);
}

size_t lessonfiles_entries(const struct evidence *ev, struct lessonfiles_entry **out)
{
	*out = NULL;
	size_t n = 0, cap = 0;
	for (size_t k = 1; k <= LESSONFILES_MAX_FILES; k++) {
		char key[48];
		snprintf(key, sizeof key, LESSONFILES_KEY "%zu", k);
		size_t line;
		const char *v = evidence_get(ev, key, &line);
		if (!v)
			break;
		const char *sp = strrchr(v, ' ');
		if (!sp || strlen(sp + 1) != SHA256_HEX_LEN)
			continue;
		*out = xgrow(*out, &cap, n + 1, sizeof **out);
		(*out)[n++] = (struct lessonfiles_entry){xstrndup(v, (size_t)(sp - v)), sp + 1, line};
	}
	return n;
}

void lessonfiles_entries_free(struct lessonfiles_entry *v, size_t n)
{
	for (size_t k = 0; k < n; k++)
		free(v[k].path);
	free(v);
}

char *lessonfiles_changed(const struct evidence *ev, const struct lesson_files *f, size_t *line)
{
	const char *was = evidence_get(ev, "source-sha256", line);
	if (f->program_sha_later) /* a caller's slip, never a pass */
		return xasprintf("'%s' was not hashed by the byte rule", f->v[f->program].path);
	if (was && strcmp(was, f->sha) == 0)
		return NULL;
	struct lessonfiles_entry *rec;
	size_t n = lessonfiles_entries(ev, &rec);
	char *said = NULL;
	for (size_t i = 0; i < f->n && !said; i++) {
		size_t k = 0;
		while (k < n && strcmp(rec[k].path, f->v[i].path) != 0)
			k++;
		if (k == n && n) {
			said = xasprintf("'%s' is new", f->v[i].path);
		} else if (k < n && strcmp(rec[k].sha, f->v[i].sha) != 0) {
			said = xasprintf("'%s' changed", f->v[i].path);
			*line = rec[k].line;
		}
	}
	for (size_t k = 0; k < n && !said; k++) {
		size_t i = 0;
		while (i < f->n && strcmp(rec[k].path, f->v[i].path) != 0)
			i++;
		if (i == f->n) {
			said = xasprintf("'%s' is gone", rec[k].path);
			*line = rec[k].line;
		}
	}
	if (!said) {
		/* no files recorded (a capture from before lessons were
		 * folders): the program is what can be named */
		const char *prog = f->program != SIZE_MAX ? f->v[f->program].path : "the program";
		if (n == 0 && f->n > 1)
			said = xasprintf("'%s' or the files beside it changed", prog);
		else
			said = xasprintf("'%s' changed", prog);
	}
	lessonfiles_entries_free(rec, n);
	return said;
}

/* Patterns that compiled, the last few judged: every lesson of a course
 * tends to carry the same Expect:, and regcomp costs as much as reading
 * the program.  Only a pattern that compiled is kept (its answer is just
 * true); one that fails is compiled again each time, for regerror's
 * message.  For the process (it has one thread; the answer depends on the
 * pattern alone, so nothing ever empties it); fixed size; a longer pattern
 * is not kept. */
#define VALID_KEPT 8
#define VALID_MAX 256
static char valid_kept[VALID_KEPT][VALID_MAX];
static unsigned valid_next;

bool lessonfiles_expect_valid(const char *pattern, char *msg, size_t msg_size)
{
	size_t len = strlen(pattern);
	for (unsigned i = 0; len < VALID_MAX && i < VALID_KEPT; i++)
		if (valid_kept[i][0] && strcmp(valid_kept[i], pattern) == 0)
			return true;
	regex_t re;
	int e = regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE | REG_NOSUB);
	if (e != 0) {
		regerror(e, &re, msg, msg_size);
		return false;
	}
	regfree(&re);
	if (len > 0 && len < VALID_MAX) { /* "" is the empty slot: compiled each time (cheap) */
		memcpy(valid_kept[valid_next], pattern, len + 1);
		valid_next = (valid_next + 1) % VALID_KEPT;
	}
	return true;
}
