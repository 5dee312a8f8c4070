/*
 * The budget's prior (prior.h): this machine's earlier results, read
 * from pmbench's results folder. The command line reads them (cli.c)
 * and hands them to the engine in its context, which judges them
 * (run/prior.c).
 */
#include "pmbench/common.h"

#include <dirent.h>
#include <sys/stat.h>

#include "pmbench/buf.h"
#include "pmbench/prior.h"
#include "pmbench/resultfile.h"

/* A result file larger than this is no prior worth its parse. */
#define PRIOR_MAX_BYTES (64ull << 20)

struct candidate {
	char *path;
	struct timespec mtime;
};

/*
 * Newest first, then by path backwards (pmbench's names end in their
 * time), so that the order does not depend on the file system.
 */
static int by_mtime(const void *pa, const void *pb)
{
	const struct candidate *a = pa, *b = pb;

	if (a->mtime.tv_sec != b->mtime.tv_sec)
		return a->mtime.tv_sec > b->mtime.tv_sec ? -1 : 1;
	if (a->mtime.tv_nsec != b->mtime.tv_nsec)
		return a->mtime.tv_nsec > b->mtime.tv_nsec ? -1 : 1;
	return strcmp(b->path, a->path);
}

/* Every regular `*.json` of `dir` with its mtime, newest first. */
static size_t candidates(struct candidate **out, const char *dir)
{
	struct candidate *v = NULL;
	size_t nr = 0, alloc = 0;
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (!dp)
		return 0;
	while ((d = readdir(dp)) != NULL) {
		size_t n = strlen(d->d_name);
		struct pmbench_buf path = PMBENCH_BUF_INIT;
		struct stat st;

		if (d->d_name[0] == '.' || n < 6 ||
		    strcmp(d->d_name + n - 5, ".json"))
			continue;
		pmbench_buf_path(&path, dir, d->d_name);
		if (lstat(path.ptr, &st) < 0 || !S_ISREG(st.st_mode) ||
		    (unsigned long long)st.st_size > PRIOR_MAX_BYTES) {
			pmbench_buf_release(&path);
			continue;
		}
		PMBENCH_ALLOC_GROW(v, nr + 1, alloc);
		v[nr].mtime = st.st_mtim;
		v[nr++].path = pmbench_buf_detach(&path);
	}
	closedir(dp);
	if (nr)
		qsort(v, nr, sizeof(*v), by_mtime);
	*out = v;
	return nr;
}

/* A result read, with its time, to order the newest first. */
struct dated {
	int64_t when;
	size_t i;
};

static int by_when(const void *pa, const void *pb)
{
	const struct dated *a = pa, *b = pb;

	if (a->when != b->when)
		return a->when > b->when ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

void pmbench_prior_load(struct pmbench_prior *p, const char *dir,
			int64_t before, size_t most)
{
	struct candidate *v = NULL;
	size_t nr = candidates(&v, dir), alloc = 0;
	struct dated *d = pmbench_xcalloc(nr ? nr : 1, sizeof(*d));
	struct pmbench_result *read;

	/* The newest files by mtime, then in the order of their `created`. */
	for (size_t i = 0; i < nr; i++) {
		struct pmbench_result_file f = PMBENCH_RESULT_FILE_INIT;
		struct pmbench_result init = PMBENCH_RESULT_INIT;
		int64_t when = 0;

		if (p->nr < most && !pmbench_result_file_read(&f, v[i].path) &&
		    f.kind != PMBENCH_RESULT_NONE && f.result.cells_nr &&
		    pmbench_result_created(&when, &f.result, v[i].path) == 1 &&
		    when < before) {
			PMBENCH_ALLOC_GROW(p->results, p->nr + 1, alloc);
			d[p->nr].when = when;
			d[p->nr].i = p->nr;
			p->results[p->nr++] = f.result;
			f.result = init;
		}
		pmbench_error_clear();
		pmbench_result_file_release(&f);
		free(v[i].path);
	}
	free(v);
	if (p->nr) {
		qsort(d, p->nr, sizeof(*d), by_when);
		read = pmbench_xcalloc(p->nr, sizeof(*read));
		for (size_t i = 0; i < p->nr; i++)
			read[i] = p->results[d[i].i];
		free(p->results);
		p->results = read;
	}
	free(d);
}

void pmbench_prior_release(struct pmbench_prior *p)
{
	struct pmbench_prior init = PMBENCH_PRIOR_INIT;

	for (size_t i = 0; i < p->nr; i++)
		pmbench_result_release(&p->results[i]);
	free(p->results);
	*p = init;
}
