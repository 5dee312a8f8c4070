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

/* Why the file at `path` is no history point, or 0 when it is one. */
static int unplaced(struct pmbench_history *h,
		    const struct pmbench_result_file *f, int ret,
		    const char *path)
{
	/* The reader's message names the file already. */
	if (ret < 0)
		pmbench_strvec_push(&h->skipped, pmbench_error_last());
	else if (f->kind == PMBENCH_RESULT_NONE)
		pmbench_strvec_pushf(&h->skipped, "'%s': %s", path, f->what);
	else if (!f->result.cells_nr)
		pmbench_strvec_pushf(&h->skipped, "'%s': no cells", path);
	else
		return 0;
	pmbench_error_clear();
	return 1;
}

static void add_file(struct pmbench_history *h, const char *path)
{
	struct pmbench_result_file f = PMBENCH_RESULT_FILE_INIT;
	struct pmbench_result init = PMBENCH_RESULT_INIT;
	struct pmbench_history_entry *e;
	int ret = pmbench_result_file_read(&f, path);
	int64_t when;

	if (unplaced(h, &f, ret, path))
		goto done;
	/*
	 * A date that does not exist can neither order, label nor bound a
	 * history: the result is left out, saying why.
	 */
	ret = pmbench_result_created(&when, &f.result, path);
	if (ret < 0) {
		pmbench_strvec_pushf(&h->skipped,
				     "%s; correct it to place the result",
				     pmbench_error_last());
		pmbench_error_clear();
		goto done;
	}
	PMBENCH_ALLOC_GROW(h->entries, h->nr + 1, h->alloc);
	e = &h->entries[h->nr++];
	memset(e, 0, sizeof(*e));
	e->path = pmbench_xstrdup(path);
	e->when = when;
	e->dated = ret == 1;
	e->date = e->dated ? pmbench_xstrndup(f.result.created, 10)
			   : pmbench_xstrdup("undated");
	e->kind = f.kind;
	e->result = f.result;
	f.result = init;
	if (f.kind == PMBENCH_RESULT_MIGRATE) {
		e->source_pm = pmbench_xstrdup(f.migrate.source_pm);
		/* Version 1 had none: its result's is the one it used. */
		e->seed = f.version >= 2 ? f.migrate.seed : e->result.seed;
	}
done:
	pmbench_result_file_release(&f);
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
		return pmbench_error_setc(
			PMBENCH_ENOTFOUND, "'%s' is not a folder of results%s",
			dir,
			pmbench_fs_exists(dir) ? "" : " (it does not exist)");
	walk(out, dir, 0);
	if (!out->nr)
		return pmbench_error_setc(
			PMBENCH_EINVALID,
			"'%s' holds no pmbench result "
			"(*.json with cells: bench, ci-cache, "
			"claim or migrate)",
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
		free(h->entries[i].source_pm);
		pmbench_result_release(&h->entries[i].result);
	}
	free(h->entries);
	pmbench_strvec_release(&h->skipped);
	*h = init;
}
