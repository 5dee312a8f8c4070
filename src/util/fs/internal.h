#ifndef PMBENCH_UTIL_FS_INTERNAL_H
#define PMBENCH_UTIL_FS_INTERNAL_H

/*
 * What the files of src/util/fs/ share, private to them. Each function is
 * defined in the file named above it; everything else in those files is
 * static. The public side is include/pmbench/fs.h.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "pmbench/buf.h"

struct pmbench_fs_index;
struct pmbench_fs_linkmap;

/* Opening a folder of a tree we walk: never through a symlink. */
#define DIR_OPEN_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* path.c */

/* Append "/`name`" to `path` (no second '/' after a trailing one). */
void fs_path_push(struct pmbench_buf *path, const char *name);

/*
 * The folder part of `path` into `out` (replaced): "." for a bare name,
 * "/" for a name right under the root.
 */
void fs_dirname(struct pmbench_buf *out, const char *path);

/*
 * Resolve the longest existing prefix of `path` with realpath(3) and
 * append the rest lexically, so that a path that does not exist (yet)
 * still gets a canonical form. `out` is replaced.
 */
int fs_resolve_prefix(struct pmbench_buf *out, const char *path);

/* 1 if the canonical path `path` is strictly inside the canonical `root`. */
int fs_strictly_inside(const char *root, const char *path);

/*
 * The target of the symlink `name` in the folder `dfd` into `out`
 * (replaced). Returns 0, or -1 with errno set (readlinkat(2)'s).
 */
int fs_readlink_at(struct pmbench_buf *out, int dfd, const char *name);

/* walk.c */

/*
 * The folder `name` in `dfd` opened with `flags` for reading its entries,
 * or NULL with errno set.
 */
DIR *fs_opendir_at(int dfd, const char *name, int flags);

/* remove.c */

/*
 * What deleting `path` would remove, checked against the sandbox rule of
 * pmbench_fs_rmtree() (when `checked`; "/" is refused either way): its
 * canonical parent folder, its final name (never empty on success) and
 * the two joined into `target`. The buffers are replaced.
 */
int fs_deletion_target(struct pmbench_buf *parent, struct pmbench_buf *base,
		       struct pmbench_buf *target, const char *path,
		       int checked);

/*
 * Whether pmbench may write the entry `path` (replace it, not write
 * through it): its canonical folder plus its final name strictly inside
 * the sandbox, or inside the folder of pmbench_fs_set_writable(). Always
 * 0 without a sandbox; else 0 or PMBENCH_EINVALID ("refusing to write").
 */
int fs_write_allowed(const char *path);

/* Entries this process has removed so far (the trash records them). */
uint64_t fs_removals(void);

/* linkmap.c: an entry of the inode map */
struct linkent {
	dev_t dev;
	ino_t ino;
	char *path; /* the copy of this inode, absolute; NULL in a set */
	int used;
};

/* The entry of (dev, ino), or NULL. */
struct linkent *fs_link_find(struct pmbench_fs_linkmap *map, dev_t dev,
			     ino_t ino);

/* Map (dev, ino) to a copy of `path` (may be NULL), replacing any entry. */
void fs_link_put(struct pmbench_fs_linkmap *map, dev_t dev, ino_t ino,
		 const char *path);

/* io.c */

/* write(2) all of `data`, retrying on EINTR. Returns 0, or -1 (errno). */
int fs_write_all(int fd, const char *data, size_t len);

/*
 * Copy the rest of `in` to `out` from their current offsets: in the kernel
 * with copy_file_range() where it works, else with read() and write().
 * Returns 0, or -1 with errno set; *failed_read tells which side failed.
 */
int fs_copy_data(int in, int out, int *failed_read);

/* copy.c: one copy (pmbench_fs_copytree()) or sync (synctree) under way */
struct copy_ctx {
	unsigned flags;
	struct pmbench_fs_linkmap *links;
	struct pmbench_buf src; /* the entry being copied, for messages */
	struct pmbench_buf dst; /* its absolute destination */
	/* pmbench_fs_synctree() only: what was copied, where to discard */
	struct pmbench_fs_index *index;
	const char *trash;
};

/*
 * Copy the entry `sname` of the source folder `sdfd` to the new entry
 * `dname` of `ddfd`, whatever it is (a folder recursively, `depth` being
 * its depth below the root). ctx->src and ctx->dst name the two.
 */
int fs_copy_entry(struct copy_ctx *ctx, int sdfd, const char *sname, int ddfd,
		  const char *dname, int depth);

/* fs_copy_entry() for the regular file `st`, a link where it may be. */
int fs_copy_regular(struct copy_ctx *ctx, const struct stat *st, int sdfd,
		    const char *sname, int ddfd, const char *dname);

/* A folder's copy filled: the source's mode and times, then the index. */
int fs_copy_finish_dir(struct copy_ctx *ctx, const struct stat *st, int dfd);

/* The source folder `sname` opened for reading its entries, or NULL. */
DIR *fs_copy_open_source(const struct copy_ctx *ctx, int sdfd,
			 const char *sname);

typedef int (*fs_copy_entry_cb)(struct copy_ctx *ctx, int sdfd,
				const char *sname, int ddfd, const char *dname,
				int depth);

/*
 * Every entry of the source folder `dir` through `fn`, into `dfd` (`.git`
 * at the top left out when the flags say so).
 */
int fs_copy_each_entry(struct copy_ctx *ctx, DIR *dir, int dfd, int depth,
		       fs_copy_entry_cb fn);

/* Two times the same to the nanosecond (a ctime as the index noted it). */
static inline int fs_ts_eq(struct timespec a, struct timespec b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* index.c: note the copy `dt` of `st` in the index's next generation. */
void fs_index_record(struct pmbench_fs_index *idx, const struct stat *dt,
		     const struct stat *st);

/* index.c: 1 if `dt` is, untouched, the copy of `st` the index noted. */
int fs_index_trusts(const struct pmbench_fs_index *idx, const struct stat *dt,
		    const struct stat *st);

#endif
