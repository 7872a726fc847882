/*
 * file_tree.h - for unit tests that compare two paths over real inputs
 * (the fuzz corpora, the course's pages and evidence, the golden cases):
 * every plain file under a folder, visited in readdir order, names
 * starting with '.' skipped.  visit() returns 1 when it used the file, 0
 * when it passed it by; file_tree_visit returns the files used (0 when
 * path is missing).  Paths are taken from the current folder (make unit
 * runs the tests from the repository's root).
 */
#ifndef COURSECHECK_TEST_FILE_TREE_H
#define COURSECHECK_TEST_FILE_TREE_H

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>

typedef size_t (*file_tree_fn)(const char *path, const struct stat *st);

static size_t file_tree_visit(const char *path, file_tree_fn visit)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return 0;
	if (!S_ISDIR(st.st_mode))
		return S_ISREG(st.st_mode) ? visit(path, &st) : 0;
	DIR *d = opendir(path);
	if (!d)
		return 0;
	size_t files = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		char child[4096];
		snprintf(child, sizeof child, "%s/%s", path, e->d_name);
		files += file_tree_visit(child, visit);
	}
	closedir(d);
	return files;
}

#endif
