/*
 * The result files of a history folder, read and put in time order.
 */
#include "pmbench/common.h"

#include <dirent.h>
#include <sys/stat.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/history.h"

#define MAX_DEPTH 8

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static void add_file(struct pmbench_history *h, const char *path)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_history_entry *e;
	int ret = pmbench_result_read(&r, path);
	int64_t when;

	if (ret < 0 || !r.cells_nr) {
		/* The reader's message names the file already. */
		if (ret < 0)
			pmbench_strvec_push(&h->skipped, pmbench_error_last());
		else
			pmbench_strvec_pushf(&h->skipped, "'%s': no cells",
					     path);
		pmbench_error_clear();
		pmbench_result_release(&r);
		return;
	}
	/*
	 * A date that does not exist can neither order, label nor bound a
	 * history: the result is left out, saying why.
	 */
	ret = pmbench_result_created(&when, &r, path);
	if (ret < 0) {
		pmbench_strvec_pushf(&h->skipped,
				     "%s; correct it to place the result",
				     pmbench_error_last());
		pmbench_error_clear();
		pmbench_result_release(&r);
		return;
	}
	PMBENCH_ALLOC_GROW(h->entries, h->nr + 1, h->alloc);
	e = &h->entries[h->nr++];
	e->path = pmbench_xstrdup(path);
	e->when = when;
	e->dated = ret == 1;
	e->date = e->dated ? pmbench_xstrndup(r.created, 10)
			   : pmbench_xstrdup("undated");
	e->result = r;
}

/* Names sorted, so the order does not depend on the file system. */
static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(struct pmbench_history *h, const char *dir, int depth)
{
	struct pmbench_strvec names = PMBENCH_STRVEC_INIT;
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (!dp)
		return;
	while ((d = readdir(dp)) != NULL)
		if (d->d_name[0] != '.')
			pmbench_strvec_push(&names, d->d_name);
	closedir(dp);
	if (names.nr)
		qsort(names.v, names.nr, sizeof(*names.v), by_name);
	for (size_t i = 0; i < names.nr; i++) {
		struct stat st;

		pmbench_buf_reset(&path);
		pmbench_buf_addf(&path, "%s/%s", dir, names.v[i]);
		if (lstat(path.ptr, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH)
			walk(h, path.ptr, depth + 1);
		else if (S_ISREG(st.st_mode) && ends_with(names.v[i], ".json"))
			add_file(h, path.ptr);
	}
	pmbench_strvec_release(&names);
	pmbench_buf_release(&path);
}

/* Undated first, then by time, then by path. */
static int by_created(const void *pa, const void *pb)
{
	const struct pmbench_history_entry *a = pa, *b = pb;

	if (a->dated != b->dated)
		return a->dated ? 1 : -1;
	if (a->when != b->when)
		return a->when < b->when ? -1 : 1;
	return strcmp(a->path, b->path);
}

int pmbench_history_load(struct pmbench_history *out, const char *dir)
{
	if (!pmbench_fs_isdir(dir))
		return pmbench_error_setc(PMBENCH_ENOTFOUND,
					  "'%s' is not a folder of results",
					  dir);
	walk(out, dir, 0);
	if (!out->nr)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "'%s' holds no pmbench result "
					  "(*.json with cells)",
					  dir);
	qsort(out->entries, out->nr, sizeof(*out->entries), by_created);
	return 0;
}

void pmbench_history_release(struct pmbench_history *h)
{
	struct pmbench_history init = PMBENCH_HISTORY_INIT;

	for (size_t i = 0; i < h->nr; i++) {
		free(h->entries[i].path);
		free(h->entries[i].date);
		pmbench_result_release(&h->entries[i].result);
	}
	free(h->entries);
	pmbench_strvec_release(&h->skipped);
	*h = init;
}
