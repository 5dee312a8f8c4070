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
#include <sys/types.h>

struct pmbench_buf;

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

/* Entries this process has removed so far (the trash records them). */
uint64_t fs_removals(void);

#endif
