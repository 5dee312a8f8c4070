/*
 * The copy index (fs.h's pmbench_fs_index): each inode a copy made,
 * noted with its ctime right after the copy and the source file it
 * copies, so that a sync (sync.c) keeps what nothing changed since. A
 * change to an inode sets its ctime to the current time, which nobody
 * can set back.
 */
#include "pmbench/common.h"

#include <sys/stat.h>
#include <time.h>

#include "pmbench/fs.h"

#include "internal.h"

/* How old the newest copy must be before the index trusts it (ns). */
#define INDEX_SETTLE_NS ((int64_t)20 * 1000 * 1000)

struct idxent {
	dev_t dev; /* the copy */
	ino_t ino;
	struct timespec ctime;
	dev_t sdev; /* what it is a copy of */
	ino_t sino;
	struct timespec smtime;
	off_t ssize;
	size_t seq; /* order of recording: the last record of an inode wins */
};

struct pmbench_fs_index {
	struct idxent *v; /* the last generation, sorted by (dev, ino) */
	size_t nr;
	struct idxent *next; /* this generation, in copy order */
	size_t next_nr, next_alloc;
};

struct pmbench_fs_index *pmbench_fs_index_new(void)
{
	return pmbench_xcalloc(1, sizeof(struct pmbench_fs_index));
}

void pmbench_fs_index_free(struct pmbench_fs_index *idx)
{
	if (!idx)
		return;
	free(idx->v);
	free(idx->next);
	free(idx);
}

size_t pmbench_fs_index_size(const struct pmbench_fs_index *idx)
{
	return idx->nr;
}

void fs_index_record(struct pmbench_fs_index *idx, const struct stat *dt,
		     const struct stat *st)
{
	struct idxent *e;

	PMBENCH_ALLOC_GROW(idx->next, idx->next_nr + 1, idx->next_alloc);
	e = &idx->next[idx->next_nr++];
	e->dev = dt->st_dev;
	e->ino = dt->st_ino;
	e->ctime = dt->st_ctim;
	e->sdev = st->st_dev;
	e->sino = st->st_ino;
	e->smtime = st->st_mtim;
	e->ssize = st->st_size;
	e->seq = idx->next_nr - 1;
}

static int idxent_cmp(const void *a, const void *b)
{
	const struct idxent *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return 0;
}

static int idxent_seq_cmp(const void *a, const void *b)
{
	const struct idxent *x = a, *y = b;
	int c = idxent_cmp(a, b);

	if (c)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int fs_index_trusts(const struct pmbench_fs_index *idx, const struct stat *dt,
		    const struct stat *st)
{
	struct idxent key, *e;

	if (!idx->nr)
		return 0;
	key.dev = dt->st_dev;
	key.ino = dt->st_ino;
	e = bsearch(&key, idx->v, idx->nr, sizeof(*e), idxent_cmp);
	return e && fs_ts_eq(e->ctime, dt->st_ctim) && e->sdev == st->st_dev &&
	       e->sino == st->st_ino && fs_ts_eq(e->smtime, st->st_mtim) &&
	       e->ssize == st->st_size;
}

void pmbench_fs_index_commit(struct pmbench_fs_index *idx)
{
	struct timespec now, newest = { 0, 0 };

	for (size_t i = 0; i < idx->next_nr; i++)
		if (idx->next[i].ctime.tv_sec > newest.tv_sec ||
		    (idx->next[i].ctime.tv_sec == newest.tv_sec &&
		     idx->next[i].ctime.tv_nsec > newest.tv_nsec))
			newest = idx->next[i].ctime;
	/*
	 * A change within the same clock tick as the last copies could
	 * leave their ctime as it was (file systems without fine-grained
	 * timestamps): the copies are only trusted once a change to them
	 * can no longer share their time.
	 */
	if (idx->next_nr && !clock_gettime(CLOCK_REALTIME, &now)) {
		int64_t age =
			(int64_t)(now.tv_sec - newest.tv_sec) * 1000000000 +
			(now.tv_nsec - newest.tv_nsec);

		if (age >= 0 && age < INDEX_SETTLE_NS)
			pmbench_sleep_ns((uint64_t)(INDEX_SETTLE_NS - age));
	}
	free(idx->v);
	idx->v = idx->next;
	idx->nr = idx->next_nr;
	idx->next = NULL;
	idx->next_nr = idx->next_alloc = 0;
	if (!idx->nr)
		return;
	/*
	 * An inode noted twice (a store file, then the node_modules link to
	 * it, which changed its ctime): its last record is the true one.
	 */
	qsort(idx->v, idx->nr, sizeof(*idx->v), idxent_seq_cmp);
	{
		size_t n = 0;

		for (size_t i = 0; i < idx->nr; i++) {
			if (n && !idxent_cmp(&idx->v[n - 1], &idx->v[i]))
				n--;
			idx->v[n++] = idx->v[i];
		}
		idx->nr = n;
	}
}
