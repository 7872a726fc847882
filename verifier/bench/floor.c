/*
 * floor.c - the least any verifier of a course must do, for the benchmark:
 * read every byte of pages/, programs/ and evidence/, and parse each page
 * with cmark-gfm exactly as coursecheck does (SOURCEPOS, the table
 * extension).  It checks nothing: coursecheck's time over this is the
 * price of its checks.  Two more floors add the seals' hashes:
 *
 *   --hash  the SHA-256 of the bytes of every program and evidence file
 *           (issue 15's floor+hash: the seal as it was, bytes only);
 *   --seal  the hash that a run's seal is checked against, by the rule
 *           evidence records now (srctok.h, "tokens-1"): a source file by
 *           its tokens, any other program file and every evidence file by
 *           its bytes.  The tokens are lexed by coursecheck's own srctok.c,
 *           the rule stated once.
 *
 *   floor [--hash | --seal] ROOT
 *
 * Prints the files, bytes and pages it read.  Exit 0, or 2 on a read error.
 */
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <dirent.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "srctok.h"

enum mode { READ, HASH, SEAL };
static enum mode mode = READ;
static size_t files, bytes, pages;

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *s = malloc(cap);
	for (size_t k; s && (k = fread(s + n, 1, cap - n, f)) > 0;) {
		n += k;
		if (n == cap)
			s = realloc(s, cap *= 2);
	}
	fclose(f);
	*len = n;
	return s;
}

static void sha256(const char *s, size_t n)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen;
	EVP_Digest(s, n, md, &mdlen, EVP_sha256(), NULL);
}

static void seal_program(const char *path, const char *s, size_t n)
{
	char hex[SHA256_HEX_LEN + 1];
	srctok_file_sha256(path, s, n, hex);
}

static void parse_page(const char *s, size_t n)
{
	cmark_parser *p = cmark_parser_new(CMARK_OPT_SOURCEPOS);
	cmark_syntax_extension *table = cmark_find_syntax_extension("table");
	if (table)
		cmark_parser_attach_syntax_extension(p, table);
	cmark_parser_feed(p, s, n);
	cmark_node *doc = cmark_parser_finish(p);
	cmark_node_free(doc);
	cmark_parser_free(p);
	pages++;
}

static int walk(const char *dir, int kind)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int status = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		size_t need = strlen(dir) + strlen(e->d_name) + 2;
		char *path = malloc(need);
		snprintf(path, need, "%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			status |= walk(path, kind);
		} else {
			size_t n;
			char *s = slurp(path, &n);
			if (!s) {
				fprintf(stderr, "floor: cannot read %s\n", path);
				status = 2;
			} else {
				files++;
				bytes += n;
				size_t len = strlen(path);
				if (kind == 0 && len > 3 && strcmp(path + len - 3, ".md") == 0)
					parse_page(s, n);
				else if (mode == SEAL && kind == 1)
					seal_program(path, s, n);
				else if (mode != READ && kind != 0)
					sha256(s, n);
				free(s);
			}
		}
		free(path);
	}
	closedir(d);
	return status;
}

int main(int argc, char **argv)
{
	int a = 1;
	if (a < argc && strcmp(argv[a], "--hash") == 0) {
		mode = HASH;
		a++;
	} else if (a < argc && strcmp(argv[a], "--seal") == 0) {
		mode = SEAL;
		a++;
	}
	if (a + 1 != argc) {
		fputs("usage: floor [--hash | --seal] ROOT\n", stderr);
		return 2;
	}
	cmark_gfm_core_extensions_ensure_registered();
	const char *sub[] = {"pages", "programs", "evidence"};
	int status = 0;
	for (int k = 0; k < 3; k++) {
		size_t need = strlen(argv[a]) + 16;
		char *dir = malloc(need);
		snprintf(dir, need, "%s/%s", argv[a], sub[k]);
		status |= walk(dir, k);
		free(dir);
	}
	static const char *const done[] = {"", ", hashed", ", sealed"};
	printf("floor: %zu files, %zu bytes, %zu pages%s\n", files, bytes, pages, done[mode]);
	return status;
}
