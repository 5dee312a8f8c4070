/*
 * copy_file_range() is a GNU extension in glibc's headers; common.h leaves
 * the feature-test macros alone when _GNU_SOURCE is already defined.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "pmbench/common.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/strvec.h"

#define DIR_OPEN_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#define COPY_CHUNK     (128 * 1024)
/* How old the newest copy must be before the index trusts it (ns). */
#define INDEX_SETTLE_NS ((int64_t)20 * 1000 * 1000)

/* The resolved sandbox root; empty when no sandbox is set. */
static struct pmbench_buf sandbox_root = PMBENCH_BUF_INIT;

/*
 * Path helpers.
 */

static void add_cwd(struct pmbench_buf *out)
{
	size_t size = 256;
	char *cwd = NULL;

	for (;;) {
		cwd = pmbench_xrealloc(cwd, size);
		if (getcwd(cwd, size))
			break;
		if (errno != ERANGE)
			pmbench_die("cannot get the current folder: %s",
				    strerror(errno));
		size = pmbench_st_mult(size, 2);
	}
	pmbench_buf_adds(out, cwd);
	free(cwd);
}

/*
 * Append the '/'-separated components of `rest` to the absolute path in
 * `out`, dropping "." and folding ".." lexically (never above "/").
 */
static void fold_components(struct pmbench_buf *out, const char *rest)
{
	while (*rest) {
		const char *end = strchr(rest, '/');
		size_t n = end ? (size_t)(end - rest) : strlen(rest);

		if (n == 2 && rest[0] == '.' && rest[1] == '.') {
			size_t len = out->len;

			while (len > 1 && out->ptr[len - 1] != '/')
				len--;
			pmbench_buf_setlen(out, len > 1 ? len - 1 : 1);
		} else if (n && !(n == 1 && rest[0] == '.')) {
			if (!out->len || out->ptr[out->len - 1] != '/')
				pmbench_buf_addch(out, '/');
			pmbench_buf_add(out, rest, n);
		}
		rest += n;
		if (*rest == '/')
			rest++;
	}
	if (!out->len)
		pmbench_buf_addch(out, '/');
}

void pmbench_fs_abspath(struct pmbench_buf *out, const char *path)
{
	struct pmbench_buf res = PMBENCH_BUF_INIT;

	/* Built aside, since `path` may point into `out`. */
	pmbench_buf_addch(&res, '/');
	if (*path != '/') {
		struct pmbench_buf cwd = PMBENCH_BUF_INIT;

		add_cwd(&cwd);
		fold_components(&res, cwd.ptr);
		pmbench_buf_release(&cwd);
	}
	fold_components(&res, path);
	pmbench_buf_release(out);
	*out = res;
}

int pmbench_fs_realpath(struct pmbench_buf *out, const char *path)
{
	char *real = realpath(path, NULL);

	if (!real)
		return pmbench_error_setc(
			errno == ENOENT ? PMBENCH_ENOTFOUND : PMBENCH_ERROR,
			"cannot resolve '%s': %s", path, strerror(errno));
	pmbench_buf_reset(out);
	pmbench_buf_adds(out, real);
	free(real);
	return 0;
}

/*
 * Resolve the longest existing prefix of `path` with realpath(3) and
 * append the rest lexically, so that a path that does not exist (yet)
 * still gets a canonical form. `out` is replaced.
 */
static int resolve_prefix(struct pmbench_buf *out, const char *path)
{
	struct pmbench_buf full = PMBENCH_BUF_INIT;
	struct pmbench_buf pre = PMBENCH_BUF_INIT;
	char *real = NULL;
	int ret = 0;

	if (*path != '/') {
		add_cwd(&full);
		pmbench_buf_addch(&full, '/');
	}
	pmbench_buf_adds(&full, path);
	pmbench_buf_add(&pre, full.ptr, full.len);
	for (;;) {
		size_t len = pre.len;

		real = realpath(pre.ptr, NULL);
		if (real)
			break;
		if ((errno != ENOENT && errno != ENOTDIR) || len <= 1) {
			ret = pmbench_error_set("cannot resolve '%s': %s",
						pre.ptr, strerror(errno));
			goto done;
		}
		while (len > 1 && pre.ptr[len - 1] == '/')
			len--;
		while (len > 0 && pre.ptr[len - 1] != '/')
			len--;
		/* len now ends just after a '/'; drop it unless it is "/". */
		pmbench_buf_setlen(&pre, len > 1 ? len - 1 : 1);
	}
	pmbench_buf_reset(out);
	pmbench_buf_adds(out, real);
	fold_components(out, full.ptr + pre.len);

done:
	free(real);
	pmbench_buf_release(&pre);
	pmbench_buf_release(&full);
	return ret;
}

/* 1 if the canonical path `path` is strictly inside the canonical `root`. */
static int strictly_inside(const char *root, const char *path)
{
	size_t rl = strlen(root);

	if (rl == 1 && root[0] == '/')
		return path[0] == '/' && path[1] != '\0';
	return !strncmp(path, root, rl) && path[rl] == '/' &&
	       path[rl + 1] != '\0';
}

struct dirent *pmbench_fs_readdir(DIR *dir)
{
	struct dirent *de;

	do {
		errno = 0;
		de = readdir(dir);
	} while (de && (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")));
	return de;
}

int pmbench_fs_is_inside(const char *root, const char *path)
{
	struct pmbench_buf r = PMBENCH_BUF_INIT;
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int ret;

	ret = resolve_prefix(&r, root);
	if (ret < 0)
		goto done;
	ret = resolve_prefix(&p, path);
	if (ret < 0)
		goto done;
	ret = strictly_inside(r.ptr, p.ptr);

done:
	pmbench_buf_release(&p);
	pmbench_buf_release(&r);
	return ret;
}

/*
 * Split `path` (given by the caller) into a canonical parent folder and a
 * final component. The parent is resolved through symlinks, the final
 * component is not, so that a symlink is itself the target. `base` is
 * left empty for "/".
 */
static int split_target(struct pmbench_buf *parent, struct pmbench_buf *base,
			const char *path)
{
	struct pmbench_buf raw = PMBENCH_BUF_INIT;
	struct pmbench_buf resolved = PMBENCH_BUF_INIT;
	const char *last;
	size_t len;
	int ret = 0;

	if (!*path) {
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "cannot delete an empty path");
		goto done;
	}
	pmbench_buf_adds(&raw, path);
	len = raw.len;
	while (len > 1 && raw.ptr[len - 1] == '/')
		len--;
	pmbench_buf_setlen(&raw, len);
	last = strrchr(raw.ptr, '/');
	last = last ? last + 1 : raw.ptr;
	pmbench_buf_reset(base);
	if (!*last || !strcmp(last, ".") || !strcmp(last, "..")) {
		/* Names a folder through "." or "..": resolve all of it. */
		ret = resolve_prefix(&resolved, raw.ptr);
		if (ret < 0)
			goto done;
		last = strrchr(resolved.ptr, '/');
		pmbench_buf_adds(base, last + 1);
		len = (size_t)(last - resolved.ptr);
		pmbench_buf_setlen(&resolved, len ? len : 1);
		pmbench_buf_release(parent);
		*parent = resolved;
		pmbench_buf_init(&resolved);
		goto done;
	}
	pmbench_buf_adds(base, last);
	if (last == raw.ptr)
		pmbench_buf_adds(&resolved, ".");
	else if (last - 1 == raw.ptr)
		pmbench_buf_adds(&resolved, "/");
	else
		pmbench_buf_add(&resolved, raw.ptr,
				(size_t)(last - 1 - raw.ptr));
	ret = resolve_prefix(parent, resolved.ptr);

done:
	pmbench_buf_release(&resolved);
	pmbench_buf_release(&raw);
	return ret;
}

int pmbench_fs_set_sandbox(const char *root)
{
	char *real;

	if (!root) {
		pmbench_buf_release(&sandbox_root);
		return 0;
	}
	real = realpath(root, NULL);
	if (!real)
		return pmbench_error_set("cannot use '%s' as pmbench's work "
					 "folder: %s",
					 root, strerror(errno));
	pmbench_buf_reset(&sandbox_root);
	pmbench_buf_adds(&sandbox_root, real);
	free(real);
	return 0;
}

/*
 * The sandbox rule for a canonical `target`: strictly inside the root, or
 * equal to it when `allow_root`. "/" is never allowed.
 */
static int sandbox_allows(const char *path, const char *target, int allow_root)
{
	const char *root = sandbox_root.ptr;

	if (!strcmp(target, "/"))
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "refusing to delete '%s': it is the "
					  "root folder",
					  path);
	if (!sandbox_root.len)
		return 0;
	if (!strcmp(target, root)) {
		if (allow_root)
			return 0;
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "refusing to delete '%s': it is "
					  "pmbench's work folder '%s' itself",
					  path, root);
	}
	if (!strictly_inside(root, target))
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "refusing to delete '%s': it is "
					  "outside pmbench's work folder '%s'",
					  path, root);
	return 0;
}

/*
 * Directory creation and simple queries.
 */

int pmbench_fs_mkdirp(const char *path, mode_t mode)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	struct stat st;
	int ret = 0;

	pmbench_buf_adds(&p, path);
	for (size_t i = 1; i <= p.len; i++) {
		char c = p.ptr[i];

		if (c != '/' && c != '\0')
			continue;
		if (p.ptr[i - 1] == '/')
			continue;
		p.ptr[i] = '\0';
		if (mkdir(p.ptr, mode) < 0) {
			int err = errno;

			if (err != EEXIST || stat(p.ptr, &st) < 0 ||
			    !S_ISDIR(st.st_mode)) {
				ret = pmbench_error_set(
					"cannot create the folder '%s': %s",
					p.ptr,
					strerror(err == EEXIST ? ENOTDIR
							       : err));
				goto done;
			}
		}
		p.ptr[i] = c;
	}

done:
	pmbench_buf_release(&p);
	return ret;
}

int pmbench_fs_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

int pmbench_fs_isdir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int pmbench_fs_isfile(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * Removal. Everything goes through directory file descriptors opened with
 * O_NOFOLLOW, so that a symlink swapped in during the walk is unlinked
 * rather than followed.
 */

static int remove_at(int dfd, const char *name, struct pmbench_buf *path);

/* Entries this process removed, for the trash's record of a deletion. */
static uint64_t removals;

/* chmod a directory without following a symlink at `name`. */
static int chmod_dir_at(int dfd, const char *name, mode_t mode)
{
	struct stat st;

	if (!fchmodat(dfd, name, mode, AT_SYMLINK_NOFOLLOW))
		return 0;
	if (errno != ENOTSUP && errno != EOPNOTSUPP)
		return -1;
	/* No /proc for glibc's emulation: check the type, then chmod. */
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return fchmodat(dfd, name, mode, 0);
}

/*
 * Open the directory `name` for emptying it, granting ourselves the
 * read, write and search permission that removing its entries needs.
 * Returns the fd, or -1 with errno set (ENOTDIR or ELOOP if it is not a
 * directory after all).
 */
static int open_dir_writable(int dfd, const char *name)
{
	struct stat st;
	int fd;

	fd = openat(dfd, name, DIR_OPEN_FLAGS);
	if (fd < 0 && errno == EACCES) {
		if (chmod_dir_at(dfd, name, S_IRWXU) < 0)
			return -1;
		fd = openat(dfd, name, DIR_OPEN_FLAGS);
	}
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 ||
	    ((st.st_mode & S_IRWXU) != S_IRWXU &&
	     fchmod(fd, (st.st_mode & 07777) | S_IRWXU) < 0)) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

static void path_push(struct pmbench_buf *path, const char *name)
{
	if (path->len && path->ptr[path->len - 1] != '/')
		pmbench_buf_addch(path, '/');
	pmbench_buf_adds(path, name);
}

/* Remove every entry of the open directory `fd` (which stays ours). */
static int remove_children(int fd, struct pmbench_buf *path)
{
	DIR *dir = NULL;
	size_t base = path->len;
	int dup_fd, ret = 0;

	dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (dup_fd >= 0)
		dir = fdopendir(dup_fd);
	if (!dir) {
		ret = pmbench_error_set("cannot read the folder '%s': %s",
					path->ptr, strerror(errno));
		if (dup_fd >= 0)
			close(dup_fd);
		goto done;
	}
	/*
	 * Some file systems skip entries when the directory changes during
	 * readdir(), so read it again until a pass finds nothing.
	 */
	for (;;) {
		size_t removed = 0;
		struct dirent *de;

		for (;;) {
			de = pmbench_fs_readdir(dir);
			if (!de)
				break;
			path_push(path, de->d_name);
			/*
			 * The common case, a known non-directory, takes one
			 * syscall; anything else goes the careful way.
			 */
			if (de->d_type == DT_DIR || de->d_type == DT_UNKNOWN ||
			    (unlinkat(fd, de->d_name, 0) < 0 &&
			     errno != ENOENT)) {
				ret = remove_at(fd, de->d_name, path);
				if (ret < 0)
					goto done;
			}
			pmbench_buf_setlen(path, base);
			removed++;
			removals++;
		}
		if (errno) {
			ret = pmbench_error_set("cannot read the folder "
						"'%s': %s",
						path->ptr, strerror(errno));
			goto done;
		}
		if (!removed)
			break;
		rewinddir(dir);
	}

done:
	pmbench_buf_setlen(path, base);
	if (dir)
		closedir(dir);
	return ret;
}

/* Remove `name` in `dfd`, whatever it is; a missing entry is fine. */
static int remove_at(int dfd, const char *name, struct pmbench_buf *path)
{
	struct stat st;
	int fd = -1, ret = 0;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT)
			goto done;
		ret = pmbench_error_set("cannot remove '%s': %s", path->ptr,
					strerror(errno));
		goto done;
	}
	if (S_ISDIR(st.st_mode)) {
		fd = open_dir_writable(dfd, name);
		if (fd < 0 && errno == ENOENT)
			goto done;
		if (fd < 0 && errno != ENOTDIR && errno != ELOOP) {
			ret = pmbench_error_set("cannot remove '%s': %s",
						path->ptr, strerror(errno));
			goto done;
		}
	}
	if (fd < 0) {
		/* Not a directory (or no longer one): unlink, never follow. */
		if (unlinkat(dfd, name, 0) < 0 && errno != ENOENT)
			ret = pmbench_error_set("cannot remove '%s': %s",
						path->ptr, strerror(errno));
		goto done;
	}
	ret = remove_children(fd, path);
	if (ret < 0)
		goto done;
	if (unlinkat(dfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		ret = pmbench_error_set("cannot remove '%s': %s", path->ptr,
					strerror(errno));

done:
	if (fd >= 0)
		close(fd);
	return ret;
}

static int rmtree(const char *path, int checked)
{
	struct pmbench_buf parent = PMBENCH_BUF_INIT;
	struct pmbench_buf base = PMBENCH_BUF_INIT;
	struct pmbench_buf target = PMBENCH_BUF_INIT;
	int pfd = -1, ret;

	ret = split_target(&parent, &base, path);
	if (ret < 0)
		goto done;
	if (!base.len) {
		ret = sandbox_allows(path, "/", 0);
		goto done;
	}
	pmbench_buf_path(&target, parent.ptr, base.ptr);
	if (checked) {
		ret = sandbox_allows(path, target.ptr, 0);
		if (ret < 0)
			goto done;
	}
	/*
	 * Work on the resolved parent, not on `path`: that is the place the
	 * check above approved.
	 */
	pfd = open(parent.ptr, DIR_OPEN_FLAGS);
	if (pfd < 0) {
		/* No parent folder (or a file there): nothing to delete. */
		if (errno != ENOENT && errno != ENOTDIR)
			ret = pmbench_error_set("cannot remove '%s': %s",
						target.ptr, strerror(errno));
		goto done;
	}
	ret = remove_at(pfd, base.ptr, &target);

done:
	if (pfd >= 0)
		close(pfd);
	pmbench_buf_release(&target);
	pmbench_buf_release(&base);
	pmbench_buf_release(&parent);
	return ret;
}

int pmbench_fs_rmtree(const char *path)
{
	return rmtree(path, 1);
}

int pmbench_fs_rmtree_unchecked(const char *path)
{
	return rmtree(path, 0);
}

int pmbench_fs_empty_dir(const char *path)
{
	struct pmbench_buf target = PMBENCH_BUF_INIT;
	int fd = -1, ret;

	ret = resolve_prefix(&target, path);
	if (ret < 0)
		goto done;
	ret = sandbox_allows(path, target.ptr, 1);
	if (ret < 0)
		goto done;
	fd = open_dir_writable(AT_FDCWD, target.ptr);
	if (fd < 0 && errno == ENOENT) {
		ret = pmbench_fs_mkdirp(target.ptr, 0755);
		goto done;
	}
	if (fd < 0) {
		ret = pmbench_error_set("cannot empty '%s': %s", path,
					strerror(errno));
		goto done;
	}
	ret = remove_children(fd, &target);

done:
	if (fd >= 0)
		close(fd);
	pmbench_buf_release(&target);
	return ret;
}

/*
 * The inode map: open addressing over (st_dev, st_ino), also used as a
 * plain set (path NULL) by pmbench_fs_usage().
 */

struct linkent {
	dev_t dev;
	ino_t ino;
	char *path;
	int used;
};

struct pmbench_fs_linkmap {
	struct linkent *ents;
	size_t nr;
	size_t size; /* a power of two, or 0 */
};

struct pmbench_fs_linkmap *pmbench_fs_linkmap_new(void)
{
	return pmbench_xcalloc(1, sizeof(struct pmbench_fs_linkmap));
}

void pmbench_fs_linkmap_free(struct pmbench_fs_linkmap *map)
{
	if (!map)
		return;
	for (size_t i = 0; i < map->size; i++)
		free(map->ents[i].path);
	free(map->ents);
	free(map);
}

static size_t link_hash(dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino ^ ((uint64_t)dev * 0x9e3779b97f4a7c15u);

	/* splitmix64's finaliser spreads sequential inode numbers. */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9u;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebu;
	h ^= h >> 31;
	return (size_t)h;
}

/* The slot for (dev, ino): its entry, or the empty slot to fill. */
static struct linkent *link_slot(struct pmbench_fs_linkmap *map, dev_t dev,
				 ino_t ino)
{
	size_t mask = map->size - 1;
	size_t i = link_hash(dev, ino) & mask;

	while (map->ents[i].used &&
	       (map->ents[i].dev != dev || map->ents[i].ino != ino))
		i = (i + 1) & mask;
	return &map->ents[i];
}

static struct linkent *link_find(struct pmbench_fs_linkmap *map, dev_t dev,
				 ino_t ino)
{
	struct linkent *e;

	if (!map->size)
		return NULL;
	e = link_slot(map, dev, ino);
	return e->used ? e : NULL;
}

/* Map (dev, ino) to a copy of `path` (may be NULL), replacing any entry. */
static void link_put(struct pmbench_fs_linkmap *map, dev_t dev, ino_t ino,
		     const char *path)
{
	struct linkent *e;

	if (pmbench_st_mult(map->nr + 1, 2) > map->size) {
		struct linkent *old = map->ents;
		size_t old_size = map->size;

		map->size = old_size ? pmbench_st_mult(old_size, 2) : 64;
		map->ents = pmbench_xcalloc(map->size, sizeof(*map->ents));
		for (size_t i = 0; i < old_size; i++)
			if (old[i].used)
				*link_slot(map, old[i].dev, old[i].ino) =
					old[i];
		free(old);
	}
	e = link_slot(map, dev, ino);
	if (!e->used) {
		e->used = 1;
		e->dev = dev;
		e->ino = ino;
		map->nr++;
	}
	free(e->path);
	e->path = path ? pmbench_xstrdup(path) : NULL;
}

/*
 * Copying.
 */

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Copy the rest of `in` to `out` from their current offsets: in the kernel
 * with copy_file_range() where it works, else with read() and write().
 * Returns 0, or -1 with errno set; *failed_read tells which side failed.
 */
static int copy_data(int in, int out, int *failed_read)
{
	char *chunk = NULL;
	int ret = -1;

	*failed_read = 0;
#if defined(__linux__)
	for (int first = 1;; first = 0) {
		ssize_t n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0)
			continue;
		if (!n && !first) {
			ret = 0;
			goto done;
		}
		/*
		 * Nothing copied on the first call may be a file system
		 * (procfs, some FUSE) that does not support it; the offsets
		 * are consistent, so read() and write() can take over.
		 */
		if (n < 0 && errno != EXDEV && errno != ENOSYS &&
		    errno != EINVAL && errno != EOPNOTSUPP &&
		    errno != ENOTSUP && errno != EBADF && errno != EPERM &&
		    errno != ETXTBSY)
			goto done;
		break;
	}
#endif
	chunk = pmbench_xmalloc(COPY_CHUNK);
	for (;;) {
		ssize_t n = read(in, chunk, COPY_CHUNK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*failed_read = 1;
			goto done;
		}
		if (!n)
			break;
		if (write_all(out, chunk, (size_t)n) < 0)
			goto done;
	}
	ret = 0;

done:
	free(chunk);
	return ret;
}

struct copy_ctx {
	unsigned flags;
	struct pmbench_fs_linkmap *links;
	struct pmbench_buf src; /* the entry being copied, for messages */
	struct pmbench_buf dst; /* its absolute destination */
	/* pmbench_fs_synctree() only: what was copied, where to discard */
	struct pmbench_fs_index *index;
	const char *trash;
};

static void index_record(struct pmbench_fs_index *idx, const struct stat *dt,
			 const struct stat *st);

/* After creating the copy `dname` of `st`: note it in the index. */
static int record_at(struct copy_ctx *ctx, int ddfd, const char *dname,
		     const struct stat *st)
{
	struct stat dt;

	if (!ctx->index)
		return 0;
	if (*dname ? fstatat(ddfd, dname, &dt, AT_SYMLINK_NOFOLLOW) < 0
		   : fstat(ddfd, &dt) < 0)
		return pmbench_error_set("cannot read '%s': %s", ctx->dst.ptr,
					 strerror(errno));
	index_record(ctx->index, &dt, st);
	return 0;
}

static int copy_entry(struct copy_ctx *ctx, int sdfd, const char *sname,
		      int ddfd, const char *dname, int depth);

static int copy_regular(struct copy_ctx *ctx, const struct stat *st, int sdfd,
			const char *sname, int ddfd, const char *dname)
{
	struct timespec times[2];
	int in = -1, out = -1, failed_read, ret = 0;
	int linked = ctx->links && st->st_nlink > 1;

	if ((ctx->flags & PMBENCH_FS_COPY_LINK) &&
	    !linkat(sdfd, sname, ddfd, dname, 0))
		goto recorded;
	if (linked) {
		struct linkent *e =
			link_find(ctx->links, st->st_dev, st->st_ino);

		if (e && !linkat(AT_FDCWD, e->path, ddfd, dname, 0))
			goto recorded;
		/*
		 * The first copy may be gone or on another file system, or
		 * have too many links: copy again and link to the new one.
		 */
		if (e && errno != ENOENT && errno != EXDEV && errno != EMLINK &&
		    errno != EPERM) {
			ret = pmbench_error_set("cannot link '%s' to '%s': %s",
						ctx->dst.ptr, e->path,
						strerror(errno));
			goto done;
		}
	}
	in = openat(sdfd, sname, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (in < 0) {
		ret = pmbench_error_set("cannot read '%s': %s", ctx->src.ptr,
					strerror(errno));
		goto done;
	}
	out = openat(ddfd, dname,
		     O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		     S_IRUSR | S_IWUSR);
	if (out < 0) {
		ret = pmbench_error_set("cannot create '%s': %s", ctx->dst.ptr,
					strerror(errno));
		goto done;
	}
	if (copy_data(in, out, &failed_read) < 0) {
		ret = pmbench_error_set(
			"cannot %s '%s': %s", failed_read ? "read" : "write",
			failed_read ? ctx->src.ptr : ctx->dst.ptr,
			strerror(errno));
		goto done;
	}
	times[0] = st->st_atim;
	times[1] = st->st_mtim;
	if (fchmod(out, st->st_mode & 07777) < 0 || futimens(out, times) < 0) {
		ret = pmbench_error_set("cannot set the mode or time of '%s': "
					"%s",
					ctx->dst.ptr, strerror(errno));
		goto done;
	}
	if (close(out) < 0) {
		out = -1;
		ret = pmbench_error_set("cannot write '%s': %s", ctx->dst.ptr,
					strerror(errno));
		goto done;
	}
	out = -1;
	if (linked)
		link_put(ctx->links, st->st_dev, st->st_ino, ctx->dst.ptr);
recorded:
	ret = record_at(ctx, ddfd, dname, st);

done:
	if (out >= 0)
		close(out);
	if (in >= 0)
		close(in);
	return ret;
}

static int copy_symlink(struct copy_ctx *ctx, const struct stat *st, int sdfd,
			const char *sname, int ddfd, const char *dname)
{
	size_t size = (size_t)st->st_size + 1;
	char *target = NULL;
	ssize_t n;
	int ret = 0;

	if (size < 64)
		size = 64;
	for (;;) {
		target = pmbench_xrealloc(target, size);
		n = readlinkat(sdfd, sname, target, size);
		if (n < 0) {
			ret = pmbench_error_set("cannot read the link '%s': %s",
						ctx->src.ptr, strerror(errno));
			goto done;
		}
		if ((size_t)n < size)
			break;
		size = pmbench_st_mult(size, 2);
	}
	target[n] = '\0';
	if (symlinkat(target, ddfd, dname) < 0)
		ret = pmbench_error_set("cannot create the link '%s': %s",
					ctx->dst.ptr, strerror(errno));
	else
		ret = record_at(ctx, ddfd, dname, st);

done:
	free(target);
	return ret;
}

/* A folder's copy filled: the source's mode and times, then the index. */
static int finish_dir(struct copy_ctx *ctx, const struct stat *st, int dfd)
{
	struct timespec times[2];

	times[0] = st->st_atim;
	times[1] = st->st_mtim;
	if (fchmod(dfd, st->st_mode & 07777) < 0 || futimens(dfd, times) < 0)
		return pmbench_error_set("cannot set the mode or time of '%s': "
					 "%s",
					 ctx->dst.ptr, strerror(errno));
	return record_at(ctx, dfd, "", st);
}

/* The source folder `sname` opened for reading its entries, or NULL. */
static DIR *open_source_dir(const struct copy_ctx *ctx, int sdfd,
			    const char *sname)
{
	int sfd = openat(sdfd, sname, DIR_OPEN_FLAGS);
	DIR *dir = sfd >= 0 ? fdopendir(sfd) : NULL;

	if (!dir) {
		pmbench_error_set("cannot read the folder '%s': %s",
				  ctx->src.ptr, strerror(errno));
		if (sfd >= 0)
			close(sfd);
	}
	return dir;
}

typedef int (*entry_fn)(struct copy_ctx *ctx, int sdfd, const char *sname,
			int ddfd, const char *dname, int depth);

/* Every entry of the source folder `dir` through `fn`, into `dfd`. */
static int each_entry(struct copy_ctx *ctx, DIR *dir, int dfd, int depth,
		      entry_fn fn)
{
	size_t src_len = ctx->src.len, dst_len = ctx->dst.len;
	int ret = 0;

	while (!ret) {
		struct dirent *de = pmbench_fs_readdir(dir);

		if (!de)
			return errno ? pmbench_error_set("cannot read the "
							 "folder '%s': %s",
							 ctx->src.ptr,
							 strerror(errno))
				     : 0;
		if (!depth && (ctx->flags & PMBENCH_FS_COPY_SKIP_GIT) &&
		    !strcmp(de->d_name, ".git"))
			continue;
		path_push(&ctx->src, de->d_name);
		path_push(&ctx->dst, de->d_name);
		ret = fn(ctx, dirfd(dir), de->d_name, dfd, de->d_name,
			 depth + 1);
		pmbench_buf_setlen(&ctx->src, src_len);
		pmbench_buf_setlen(&ctx->dst, dst_len);
	}
	return ret;
}

static int copy_dir(struct copy_ctx *ctx, const struct stat *st, int sdfd,
		    const char *sname, int ddfd, const char *dname, int depth)
{
	DIR *dir = open_source_dir(ctx, sdfd, sname);
	int dfd = -1, ret = 0;

	if (!dir)
		return PMBENCH_ERROR;
	/* Owner-only until filled: the source mode may forbid writing. */
	if (!mkdirat(ddfd, dname, S_IRWXU))
		dfd = openat(ddfd, dname, DIR_OPEN_FLAGS);
	if (dfd < 0) {
		ret = pmbench_error_set("cannot create the folder '%s': %s",
					ctx->dst.ptr, strerror(errno));
		goto done;
	}
	ret = each_entry(ctx, dir, dfd, depth, copy_entry);
	if (!ret)
		ret = finish_dir(ctx, st, dfd);

done:
	if (dfd >= 0)
		close(dfd);
	closedir(dir);
	return ret;
}

static int copy_entry(struct copy_ctx *ctx, int sdfd, const char *sname,
		      int ddfd, const char *dname, int depth)
{
	struct stat st;

	if (fstatat(sdfd, sname, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return pmbench_error_set("cannot read '%s': %s", ctx->src.ptr,
					 strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		if (depth && (ctx->flags & PMBENCH_FS_COPY_SKIP_NODE_MODULES) &&
		    !strcmp(sname, "node_modules"))
			return 0;
		return copy_dir(ctx, &st, sdfd, sname, ddfd, dname, depth);
	}
	if (S_ISREG(st.st_mode))
		return copy_regular(ctx, &st, sdfd, sname, ddfd, dname);
	if (S_ISLNK(st.st_mode))
		return copy_symlink(ctx, &st, sdfd, sname, ddfd, dname);
	/* Sockets, fifos and devices have no place in a fixture. */
	return 0;
}

/* The folder part of the absolute `path` (which is not "/"). */
static void parent_of(struct pmbench_buf *out, const char *path)
{
	const char *slash = strrchr(path, '/');

	pmbench_buf_reset(out);
	pmbench_buf_add(out, path, slash == path ? 1 : (size_t)(slash - path));
}

int pmbench_fs_copytree(const char *src, const char *dst, unsigned flags,
			struct pmbench_fs_linkmap *links)
{
	struct copy_ctx ctx = {
		flags, links, PMBENCH_BUF_INIT, PMBENCH_BUF_INIT, NULL, NULL
	};
	struct pmbench_buf parent = PMBENCH_BUF_INIT;
	struct pmbench_buf msg = PMBENCH_BUF_INIT;
	struct stat st;
	int ret = 0, started = 0;

	pmbench_buf_adds(&ctx.src, src);
	pmbench_fs_abspath(&ctx.dst, dst);
	if (!strcmp(ctx.dst.ptr, "/") || lstat(ctx.dst.ptr, &st) == 0) {
		ret = pmbench_error_set("cannot copy '%s' to '%s': it already "
					"exists",
					src, dst);
		goto done;
	}
	if (errno != ENOENT) {
		ret = pmbench_error_set("cannot copy '%s' to '%s': %s", src,
					dst, strerror(errno));
		goto done;
	}
	if (lstat(src, &st) < 0) {
		ret = pmbench_error_setc(
			errno == ENOENT ? PMBENCH_ENOTFOUND : PMBENCH_ERROR,
			"cannot copy '%s': %s", src, strerror(errno));
		goto done;
	}
	parent_of(&parent, ctx.dst.ptr);
	ret = pmbench_fs_mkdirp(parent.ptr, 0755);
	if (ret < 0)
		goto done;
	started = 1;
	ret = copy_entry(&ctx, AT_FDCWD, src, AT_FDCWD, ctx.dst.ptr, 0);

done:
	if (ret < 0 && started) {
		/* Do not leave half a copy behind; keep the first error. */
		pmbench_buf_adds(&msg, pmbench_error_last());
		pmbench_fs_rmtree_unchecked(ctx.dst.ptr);
		pmbench_error_set("%s", msg.ptr);
	}
	pmbench_buf_release(&msg);
	pmbench_buf_release(&parent);
	pmbench_buf_release(&ctx.dst);
	pmbench_buf_release(&ctx.src);
	return ret;
}

/*
 * Synchronising a copy: what pmbench_fs_copytree() would make, keeping
 * what an earlier copy through the same index made and nothing changed
 * since. A change to an inode (its data, mode, links, times, or, for a
 * folder, its entries) sets its ctime to the current time, which nobody
 * can set back: an inode whose number and ctime are those the index
 * noted right after copying it is still exactly that copy.
 */

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

static void index_record(struct pmbench_fs_index *idx, const struct stat *dt,
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

static int ts_eq(struct timespec a, struct timespec b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* 1 if `dt` is, untouched, the copy of `st` that the index noted. */
static int index_trusts(const struct pmbench_fs_index *idx,
			const struct stat *dt, const struct stat *st)
{
	struct idxent key, *e;

	if (!idx->nr)
		return 0;
	key.dev = dt->st_dev;
	key.ino = dt->st_ino;
	e = bsearch(&key, idx->v, idx->nr, sizeof(*e), idxent_cmp);
	return e && ts_eq(e->ctime, dt->st_ctim) && e->sdev == st->st_dev &&
	       e->sino == st->st_ino && ts_eq(e->smtime, st->st_mtim) &&
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

static int sync_entry(struct copy_ctx *ctx, int sdfd, const char *sname,
		      int ddfd, const char *dname, int depth);

/* What pmbench_fs_copytree() leaves out of the copy. */
static int copy_skips(const struct copy_ctx *ctx, const struct stat *st,
		      const char *name, int depth)
{
	if (S_ISDIR(st->st_mode)) {
		if (depth == 1 && (ctx->flags & PMBENCH_FS_COPY_SKIP_GIT) &&
		    !strcmp(name, ".git"))
			return 1;
		return depth &&
		       (ctx->flags & PMBENCH_FS_COPY_SKIP_NODE_MODULES) &&
		       !strcmp(name, "node_modules");
	}
	return !S_ISREG(st->st_mode) && !S_ISLNK(st->st_mode);
}

static int discard_here(struct copy_ctx *ctx)
{
	return ctx->trash ? pmbench_fs_discard(ctx->dst.ptr, ctx->trash)
			  : pmbench_fs_rmtree(ctx->dst.ptr);
}

/*
 * A copy kept: a file that must be a hard link to another copy (its
 * source has several links and the map has another copy of it) is
 * linked again if it is not that copy's inode.
 */
static int keep(struct copy_ctx *ctx, const struct stat *st,
		const struct stat *dt, int sdfd, const char *sname, int ddfd,
		const char *dname)
{
	if (ctx->links && S_ISREG(st->st_mode) && st->st_nlink > 1) {
		struct linkent *e =
			link_find(ctx->links, st->st_dev, st->st_ino);
		struct stat lt;

		if (!e || !e->path) {
			link_put(ctx->links, st->st_dev, st->st_ino,
				 ctx->dst.ptr);
		} else if (strcmp(e->path, ctx->dst.ptr) &&
			   !lstat(e->path, &lt) &&
			   (lt.st_dev != dt->st_dev ||
			    lt.st_ino != dt->st_ino)) {
			int ret = discard_here(ctx);

			return ret ? ret
				   : copy_regular(ctx, st, sdfd, sname, ddfd,
						  dname);
		}
	}
	index_record(ctx->index, dt, st);
	return 0;
}

/* Remove what the copy has and the source has not (or copy skips). */
static int sync_extras(struct copy_ctx *ctx, int sfd, int dfd, int depth)
{
	size_t dst_len = ctx->dst.len;
	DIR *dir;
	int fd = openat(dfd, ".", DIR_OPEN_FLAGS), ret = 0;

	dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return pmbench_error_set("cannot read the folder '%s': %s",
					 ctx->dst.ptr, strerror(errno));
	}
	for (;;) {
		struct dirent *de = pmbench_fs_readdir(dir);
		struct stat st;

		if (!de)
			break;
		if (!fstatat(sfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    !copy_skips(ctx, &st, de->d_name, depth + 1))
			continue;
		path_push(&ctx->dst, de->d_name);
		ret = discard_here(ctx);
		pmbench_buf_setlen(&ctx->dst, dst_len);
		if (ret < 0)
			break;
	}
	if (!ret && errno)
		ret = pmbench_error_set("cannot read the folder '%s': %s",
					ctx->dst.ptr, strerror(errno));
	closedir(dir);
	return ret;
}

static int sync_dir(struct copy_ctx *ctx, const struct stat *st,
		    const struct stat *dt, int sdfd, const char *sname,
		    int ddfd, const char *dname, int depth)
{
	DIR *dir = open_source_dir(ctx, sdfd, sname);
	struct stat now;
	int dfd = -1, ret = 0;
	int trusted = index_trusts(ctx->index, dt, st);

	if (!dir)
		return PMBENCH_ERROR;
	dfd = openat(ddfd, dname, DIR_OPEN_FLAGS);
	if (dfd < 0 || ((dt->st_mode & S_IRWXU) != S_IRWXU &&
			fchmod(dfd, (dt->st_mode & 07777) | S_IRWXU) < 0)) {
		ret = pmbench_error_set("cannot open the folder '%s': %s",
					ctx->dst.ptr, strerror(errno));
		goto done;
	}
	/* An untouched folder still has exactly its entries. */
	if (!trusted)
		ret = sync_extras(ctx, dirfd(dir), dfd, depth);
	if (!ret)
		ret = each_entry(ctx, dir, dfd, depth, sync_entry);
	if (ret < 0)
		goto done;
	if (fstat(dfd, &now) < 0) {
		ret = pmbench_error_set("cannot read '%s': %s", ctx->dst.ptr,
					strerror(errno));
		goto done;
	}
	/* Entries added or removed, or a mode changed: set it all again. */
	if (trusted && ts_eq(now.st_ctim, dt->st_ctim))
		index_record(ctx->index, &now, st);
	else
		ret = finish_dir(ctx, st, dfd);

done:
	if (dfd >= 0)
		close(dfd);
	closedir(dir);
	return ret;
}

static int sync_entry(struct copy_ctx *ctx, int sdfd, const char *sname,
		      int ddfd, const char *dname, int depth)
{
	struct stat st, dt;
	int ret;

	if (fstatat(sdfd, sname, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return pmbench_error_set("cannot read '%s': %s", ctx->src.ptr,
					 strerror(errno));
	if (copy_skips(ctx, &st, sname, depth))
		return 0; /* sync_extras() saw to the copy's side */
	if (fstatat(ddfd, dname, &dt, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT)
			return pmbench_error_set("cannot read '%s': %s",
						 ctx->dst.ptr, strerror(errno));
		return copy_entry(ctx, sdfd, sname, ddfd, dname, depth);
	}
	if ((st.st_mode & S_IFMT) == (dt.st_mode & S_IFMT)) {
		if (S_ISDIR(st.st_mode))
			return sync_dir(ctx, &st, &dt, sdfd, sname, ddfd, dname,
					depth);
		if (index_trusts(ctx->index, &dt, &st))
			return keep(ctx, &st, &dt, sdfd, sname, ddfd, dname);
	}
	ret = discard_here(ctx);
	return ret ? ret : copy_entry(ctx, sdfd, sname, ddfd, dname, depth);
}

int pmbench_fs_synctree(const char *src, const char *dst, unsigned flags,
			struct pmbench_fs_linkmap *links,
			struct pmbench_fs_index *index, const char *trash)
{
	struct copy_ctx ctx = {
		flags, links, PMBENCH_BUF_INIT, PMBENCH_BUF_INIT, index, trash
	};
	struct stat st;
	int ret;

	pmbench_buf_adds(&ctx.src, src);
	pmbench_fs_abspath(&ctx.dst, dst);
	if (lstat(src, &st) < 0) {
		ret = pmbench_error_setc(
			errno == ENOENT ? PMBENCH_ENOTFOUND : PMBENCH_ERROR,
			"cannot copy '%s': %s", src, strerror(errno));
	} else if (!strcmp(ctx.dst.ptr, "/")) {
		ret = pmbench_error_set("cannot copy '%s' to '/'", src);
	} else if (lstat(ctx.dst.ptr, &st) < 0 && errno == ENOENT) {
		struct pmbench_buf parent = PMBENCH_BUF_INIT;

		parent_of(&parent, ctx.dst.ptr);
		ret = pmbench_fs_mkdirp(parent.ptr, 0755);
		pmbench_buf_release(&parent);
		if (!ret)
			ret = copy_entry(&ctx, AT_FDCWD, src, AT_FDCWD,
					 ctx.dst.ptr, 0);
	} else {
		ret = sync_entry(&ctx, AT_FDCWD, src, AT_FDCWD, ctx.dst.ptr, 0);
	}
	if (ret < 0 && pmbench_fs_exists(ctx.dst.ptr)) {
		/* Never leave half a state behind; keep the first error. */
		struct pmbench_buf msg = PMBENCH_BUF_INIT;

		pmbench_buf_adds(&msg, pmbench_error_last());
		discard_here(&ctx);
		pmbench_error_set("%s", msg.ptr);
		pmbench_buf_release(&msg);
	}
	pmbench_buf_release(&ctx.dst);
	pmbench_buf_release(&ctx.src);
	return ret;
}

/*
 * Temporary files next to their destination, for atomic replacement.
 */

static int make_temp(struct pmbench_buf *tmp, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int fd;

	pmbench_buf_reset(tmp);
	pmbench_buf_add(tmp, path, (size_t)(base - path));
	pmbench_buf_addf(tmp, ".%s.tmpXXXXXX", base);
	fd = mkstemp(tmp->ptr);
	if (fd < 0)
		return pmbench_error_set("cannot create a temporary file for "
					 "'%s': %s",
					 path, strerror(errno));
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
		int err = errno;

		close(fd);
		unlink(tmp->ptr);
		return pmbench_error_set("cannot create a temporary file for "
					 "'%s': %s",
					 path, strerror(err));
	}
	return fd;
}

static int fsync_parent(const char *path)
{
	struct pmbench_buf dir = PMBENCH_BUF_INIT;
	const char *slash = strrchr(path, '/');
	int fd, ret = 0;

	if (!slash)
		pmbench_buf_adds(&dir, ".");
	else
		pmbench_buf_add(&dir, path,
				slash == path ? 1 : (size_t)(slash - path));
	fd = open(dir.ptr, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* Some file systems cannot fsync a directory (EINVAL): fine. */
	if (fd < 0 || (fsync(fd) < 0 && errno != EINVAL))
		ret = pmbench_error_set("cannot sync the folder '%s': %s",
					dir.ptr, strerror(errno));
	if (fd >= 0)
		close(fd);
	pmbench_buf_release(&dir);
	return ret;
}

int pmbench_fs_write_atomic(const char *path, const void *data, size_t len)
{
	struct pmbench_buf tmp = PMBENCH_BUF_INIT;
	int fd, ret = 0, have_tmp = 0;

	fd = make_temp(&tmp, path);
	if (fd < 0) {
		ret = fd;
		goto done;
	}
	have_tmp = 1;
	if (write_all(fd, data, len) < 0 ||
	    fchmod(fd, S_IRUSR | S_IWUSR | S_IRGRP | S_IROTH) < 0 ||
	    fsync(fd) < 0) {
		ret = pmbench_error_set("cannot write '%s': %s", path,
					strerror(errno));
		goto done;
	}
	if (close(fd) < 0) {
		fd = -1;
		ret = pmbench_error_set("cannot write '%s': %s", path,
					strerror(errno));
		goto done;
	}
	fd = -1;
	if (rename(tmp.ptr, path) < 0) {
		ret = pmbench_error_set("cannot rename '%s' to '%s': %s",
					tmp.ptr, path, strerror(errno));
		goto done;
	}
	have_tmp = 0;
	ret = fsync_parent(path);

done:
	if (fd >= 0)
		close(fd);
	if (have_tmp)
		unlink(tmp.ptr);
	pmbench_buf_release(&tmp);
	return ret;
}

/*
 * Files the user names (--out, --markdown) are written differently from
 * pmbench's own files in its work folder: a symlink there is followed,
 * since the user pointed it somewhere on purpose, and a character device
 * (/dev/null, /dev/full, a terminal) is written through, as a shell's '>'
 * would; renaming a temporary file over them would replace the link or
 * the device node with a regular file.
 */
enum output_kind {
	OUTPUT_REPLACE, /* a regular file or a new name: atomic replace */
	OUTPUT_THROUGH	/* a character device: open and write */
};

static const char *file_type_name(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "FIFO";
	if (S_ISSOCK(mode))
		return "socket";
	if (S_ISBLK(mode))
		return "block device";
	return "special file";
}

/* The target of the symlink `path` into `out` (replaced). */
static int read_link(struct pmbench_buf *out, const char *path)
{
	size_t size = 256;
	char *target = NULL;
	int ret = 0;

	for (;;) {
		ssize_t n;

		target = pmbench_xrealloc(target, size);
		n = readlink(path, target, size);
		if (n < 0) {
			ret = pmbench_error_set("cannot read the symlink '%s': "
						"%s",
						path, strerror(errno));
			break;
		}
		if ((size_t)n < size) {
			pmbench_buf_reset(out);
			pmbench_buf_add(out, target, (size_t)n);
			break;
		}
		size = pmbench_st_mult(size, 2);
	}
	free(target);
	return ret;
}

/*
 * Where a user-named output `path` goes: `real` (replaced) is the name to
 * replace atomically, at the end of any symlinks, or `path` itself for a
 * character device, which is written through. A folder, FIFO, socket or
 * block device is refused: a FIFO's reader would get a whole result
 * after every scenario and the next open would wait for a reader that
 * has gone, and a block device would lose its data.
 */
static int resolve_output(struct pmbench_buf *real, enum output_kind *kind,
			  const char *path)
{
	struct pmbench_buf target = PMBENCH_BUF_INIT;
	struct stat st;
	int ret = 0;

	pmbench_buf_reset(real);
	*kind = OUTPUT_REPLACE;
	/* What the name finally is, symlinks followed (also /proc's). */
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return pmbench_error_setc(PMBENCH_EINVALID,
						  "'%s' is a folder; give a "
						  "file name, such as "
						  "'%s/result.json'",
						  path, path);
		if (S_ISCHR(st.st_mode)) {
			*kind = OUTPUT_THROUGH;
			pmbench_buf_adds(real, path);
			return 0;
		}
		if (!S_ISREG(st.st_mode))
			return pmbench_error_setc(
				PMBENCH_EINVALID,
				"cannot write to '%s': it is a %s; give a "
				"regular file (or a character device such as "
				"/dev/null)",
				path, file_type_name(st.st_mode));
	} else if (errno != ENOENT) {
		return pmbench_error_set("cannot write '%s': %s", path,
					 strerror(errno));
	}
	/* A regular file or a new name: the one at the end of the links. */
	pmbench_buf_adds(real, path);
	for (int hops = 0;; hops++) {
		const char *slash;

		if (lstat(real->ptr, &st) < 0) {
			if (errno == ENOENT)
				break;
			ret = pmbench_error_set("cannot write '%s': %s",
						real->ptr, strerror(errno));
			break;
		}
		if (!S_ISLNK(st.st_mode)) {
			if (!S_ISREG(st.st_mode))
				ret = pmbench_error_setc(
					PMBENCH_EINVALID,
					"cannot write to '%s': '%s' is not a "
					"regular file",
					path, real->ptr);
			break;
		}
		if (hops == 40) {
			ret = pmbench_error_set("cannot write '%s': %s", path,
						strerror(ELOOP));
			break;
		}
		ret = read_link(&target, real->ptr);
		if (ret < 0)
			break;
		slash = strrchr(real->ptr, '/');
		if (target.ptr[0] == '/' || !slash)
			pmbench_buf_reset(real);
		else
			pmbench_buf_setlen(real,
					   (size_t)(slash - real->ptr) + 1);
		pmbench_buf_adds(real, target.ptr);
	}
	pmbench_buf_release(&target);
	return ret;
}

/* Write `data` into the character device `path`, as it is. */
static int write_through(const char *path, const void *data, size_t len)
{
	struct stat st;
	int fd, flags, ret = 0;

	/* O_NONBLOCK: a FIFO put there meanwhile must not block the open. */
	fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return pmbench_error_set("cannot write '%s': %s", path,
					 strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode)) {
		ret = pmbench_error_set("cannot write '%s': it changed while "
					"pmbench opened it",
					path);
		goto done;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ||
	    write_all(fd, data, len) < 0) {
		ret = pmbench_error_set("cannot write '%s': %s", path,
					strerror(errno));
		goto done;
	}
done:
	if (close(fd) < 0 && !ret)
		ret = pmbench_error_set("cannot write '%s': %s", path,
					strerror(errno));
	return ret;
}

int pmbench_fs_check_output(const char *path)
{
	struct pmbench_buf real = PMBENCH_BUF_INIT, dir = PMBENCH_BUF_INIT;
	enum output_kind kind;
	const char *slash;
	int ret = resolve_output(&real, &kind, path);

	if (!ret && kind == OUTPUT_REPLACE) {
		slash = strrchr(real.ptr, '/');
		if (!slash)
			pmbench_buf_adds(&dir, ".");
		else
			pmbench_buf_add(&dir, real.ptr,
					slash == real.ptr
						? 1
						: (size_t)(slash - real.ptr));
		if (!pmbench_fs_isdir(dir.ptr))
			ret = pmbench_error_set("cannot write '%s': there is "
						"no folder '%s'",
						path, dir.ptr);
		else if (access(dir.ptr, W_OK | X_OK) < 0)
			ret = pmbench_error_set("cannot write '%s': cannot "
						"create files in '%s': %s",
						path, dir.ptr, strerror(errno));
	}
	pmbench_buf_release(&real);
	pmbench_buf_release(&dir);
	return ret;
}

int pmbench_fs_write_output(const char *path, const void *data, size_t len)
{
	struct pmbench_buf real = PMBENCH_BUF_INIT;
	enum output_kind kind;
	int ret = resolve_output(&real, &kind, path);

	if (!ret)
		ret = kind == OUTPUT_THROUGH
			      ? write_through(real.ptr, data, len)
			      : pmbench_fs_write_atomic(real.ptr, data, len);
	pmbench_buf_release(&real);
	return ret;
}

int pmbench_fs_copyfile(const char *src, const char *dst)
{
	struct pmbench_buf tmp = PMBENCH_BUF_INIT;
	struct stat st;
	int in = -1, out = -1, failed_read, ret = 0, have_tmp = 0;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0 || fstat(in, &st) < 0) {
		ret = pmbench_error_setc(
			errno == ENOENT ? PMBENCH_ENOTFOUND : PMBENCH_ERROR,
			"cannot read '%s': %s", src, strerror(errno));
		goto done;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = pmbench_error_set("cannot copy '%s': not a regular file",
					src);
		goto done;
	}
	out = make_temp(&tmp, dst);
	if (out < 0) {
		ret = out;
		goto done;
	}
	have_tmp = 1;
	if (copy_data(in, out, &failed_read) < 0) {
		ret = pmbench_error_set("cannot %s '%s': %s",
					failed_read ? "read" : "write",
					failed_read ? src : tmp.ptr,
					strerror(errno));
		goto done;
	}
	if (fchmod(out, st.st_mode & 07777) < 0) {
		ret = pmbench_error_set("cannot set the mode of '%s': %s",
					tmp.ptr, strerror(errno));
		goto done;
	}
	if (close(out) < 0) {
		out = -1;
		ret = pmbench_error_set("cannot write '%s': %s", tmp.ptr,
					strerror(errno));
		goto done;
	}
	out = -1;
	if (rename(tmp.ptr, dst) < 0) {
		ret = pmbench_error_set("cannot rename '%s' to '%s': %s",
					tmp.ptr, dst, strerror(errno));
		goto done;
	}
	have_tmp = 0;

done:
	if (out >= 0)
		close(out);
	if (in >= 0)
		close(in);
	if (have_tmp)
		unlink(tmp.ptr);
	pmbench_buf_release(&tmp);
	return ret;
}

int pmbench_fs_read(struct pmbench_buf *out, const char *path, size_t max)
{
	size_t start = out->len;
	struct stat st;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = pmbench_error_setc(
			errno == ENOENT ? PMBENCH_ENOTFOUND : PMBENCH_ERROR,
			"cannot read '%s': %s", path, strerror(errno));
		goto done;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uintmax_t)st.st_size <= max)
		pmbench_buf_grow(out, (size_t)st.st_size);
	for (;;) {
		size_t left = max - (out->len - start);
		size_t room;
		ssize_t n;

		pmbench_buf_grow(out, 8192);
		room = out->alloc - out->len - 1;
		/* Never read more than one byte past the limit. */
		if (room - 1 > left)
			room = left + 1;
		n = read(fd, out->ptr + out->len, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = pmbench_error_set("cannot read '%s': %s", path,
						strerror(errno));
			goto done;
		}
		if (!n)
			break;
		out->len += (size_t)n;
		out->ptr[out->len] = '\0';
		if (out->len - start > max) {
			ret = pmbench_error_set("cannot read '%s': it is "
						"larger than %zu bytes",
						path, max);
			goto done;
		}
	}

done:
	if (ret < 0)
		pmbench_buf_setlen(out, start);
	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * Measuring.
 */

struct usage_ctx {
	struct pmbench_fs_usage *out;
	struct pmbench_fs_linkmap *seen;
	struct pmbench_buf path;
};

static int usage_walk(struct usage_ctx *ctx, int dfd, const char *name)
{
	struct stat st;
	size_t len = ctx->path.len;
	DIR *dir = NULL;
	int fd, ret = 0;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		ret = pmbench_error_set("cannot measure '%s': %s",
					ctx->path.ptr, strerror(errno));
		goto done;
	}
	if (!S_ISDIR(st.st_mode) && st.st_nlink > 1) {
		/* Another link to an inode already counted. */
		if (link_find(ctx->seen, st.st_dev, st.st_ino))
			goto done;
		link_put(ctx->seen, st.st_dev, st.st_ino, NULL);
	}
	ctx->out->disk_bytes += (uint64_t)st.st_blocks * 512;
	ctx->out->apparent_bytes += (uint64_t)st.st_size;
	if (S_ISREG(st.st_mode))
		ctx->out->files++;
	else if (S_ISLNK(st.st_mode))
		ctx->out->symlinks++;
	if (!S_ISDIR(st.st_mode))
		goto done;
	ctx->out->dirs++;
	fd = openat(dfd, name, DIR_OPEN_FLAGS);
	if (fd >= 0)
		dir = fdopendir(fd);
	if (!dir) {
		ret = pmbench_error_set("cannot read the folder '%s': %s",
					ctx->path.ptr, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto done;
	}
	for (;;) {
		struct dirent *de;

		de = pmbench_fs_readdir(dir);
		if (!de)
			break;
		path_push(&ctx->path, de->d_name);
		ret = usage_walk(ctx, dirfd(dir), de->d_name);
		pmbench_buf_setlen(&ctx->path, len);
		if (ret < 0)
			goto done;
	}
	if (errno)
		ret = pmbench_error_set("cannot read the folder '%s': %s",
					ctx->path.ptr, strerror(errno));

done:
	if (dir)
		closedir(dir);
	return ret;
}

int pmbench_fs_usage(struct pmbench_fs_usage *out, const char *path)
{
	struct usage_ctx ctx = { out, NULL, PMBENCH_BUF_INIT };
	struct stat st;
	int ret;

	memset(out, 0, sizeof(*out));
	if (lstat(path, &st) < 0 && errno == ENOENT)
		return pmbench_error_setc(PMBENCH_ENOTFOUND,
					  "cannot measure '%s': %s", path,
					  strerror(errno));
	ctx.seen = pmbench_fs_linkmap_new();
	pmbench_buf_adds(&ctx.path, path);
	ret = usage_walk(&ctx, AT_FDCWD, path);
	if (ret < 0)
		memset(out, 0, sizeof(*out));
	pmbench_buf_release(&ctx.path);
	pmbench_fs_linkmap_free(ctx.seen);
	return ret;
}

/*
 * Finding workspace folders.
 */

/*
 * Walk the folder `dname` in `dfd`; `rel` is its path relative to the
 * root (empty for the root, which alone may be reached through a symlink)
 * and `path` its full path, for messages.
 */
static int find_walk(struct pmbench_strvec *found, int dfd, const char *dname,
		     struct pmbench_buf *rel, struct pmbench_buf *path,
		     const char *name)
{
	size_t rel_len = rel->len, path_len = path->len;
	DIR *dir = NULL;
	int fd, ret = 0;

	if (rel_len)
		fd = openat(dfd, dname, DIR_OPEN_FLAGS);
	else
		fd = openat(dfd, dname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		dir = fdopendir(fd);
	if (!dir) {
		ret = pmbench_error_setc(errno == ENOENT && !rel_len
						 ? PMBENCH_ENOTFOUND
						 : PMBENCH_ERROR,
					 "cannot read the folder '%s': %s",
					 path->ptr, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto done;
	}
	for (;;) {
		struct dirent *de;
		int isdir;

		de = pmbench_fs_readdir(dir);
		if (!de)
			break;
		if (de->d_type == DT_UNKNOWN) {
			struct stat st;

			if (fstatat(dirfd(dir), de->d_name, &st,
				    AT_SYMLINK_NOFOLLOW) < 0) {
				if (errno == ENOENT)
					continue;
				path_push(path, de->d_name);
				ret = pmbench_error_set("cannot read '%s': %s",
							path->ptr,
							strerror(errno));
				goto done;
			}
			isdir = S_ISDIR(st.st_mode);
		} else {
			isdir = de->d_type == DT_DIR;
		}
		if (!isdir)
			continue;
		path_push(rel, de->d_name);
		path_push(path, de->d_name);
		if (!strcmp(de->d_name, name))
			pmbench_strvec_push(found, rel->ptr);
		else if (strcmp(de->d_name, ".git"))
			ret = find_walk(found, dirfd(dir), de->d_name, rel,
					path, name);
		pmbench_buf_setlen(rel, rel_len);
		pmbench_buf_setlen(path, path_len);
		if (ret < 0)
			goto done;
	}
	if (errno)
		ret = pmbench_error_set("cannot read the folder '%s': %s",
					path->ptr, strerror(errno));

done:
	pmbench_buf_setlen(rel, rel_len);
	pmbench_buf_setlen(path, path_len);
	if (dir)
		closedir(dir);
	return ret;
}

int pmbench_fs_find_dirs(struct pmbench_strvec *out, const char *root,
			 const char *name)
{
	struct pmbench_strvec found = PMBENCH_STRVEC_INIT;
	struct pmbench_buf rel = PMBENCH_BUF_INIT;
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_adds(&path, root);
	ret = find_walk(&found, AT_FDCWD, root, &rel, &path, name);
	if (ret < 0)
		goto done;
	pmbench_strvec_sort(&found, 0);
	for (size_t i = 0; i < found.nr; i++)
		pmbench_strvec_push(out, found.v[i]);

done:
	pmbench_strvec_release(&found);
	pmbench_buf_release(&path);
	pmbench_buf_release(&rel);
	return ret;
}

int pmbench_fs_read_text(struct pmbench_buf *out, const char *path, size_t max)
{
	size_t start = out->len;
	int ret = pmbench_fs_read(out, path, max);

	if (ret < 0)
		return ret;
	if (strlen(out->ptr + start) != out->len - start)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "'%s': malformed JSON (the file "
					  "contains a NUL byte)",
					  path);
	return 0;
}

/*
 * The trash's baseline: free space and inodes of its file system when
 * it was last empty (taken at the first discard after that).
 */
static struct {
	int based;
	uint64_t free_bytes, free_files, limit;
	unsigned long serial;
	unsigned forced; /* emptied by a discard, for lack of space */
} trash = { 0, 0, 0, (uint64_t)16 << 30, 0, 0 };

unsigned pmbench_fs_trash_forced(void)
{
	return trash.forced;
}

uint64_t pmbench_fs_trash_limit(uint64_t bytes)
{
	uint64_t old = trash.limit;

	trash.limit = bytes;
	return old;
}

/* 1 when the trash must be emptied before it takes more. */
static int trash_full(const char *dir)
{
	struct statvfs sv;
	uint64_t bytes, files, used, used_files;

	if (statvfs(dir, &sv) < 0)
		return 1;
	bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	files = (uint64_t)sv.f_favail;
	/* A full disk: what the trash holds is needed now. */
	if (bytes < (uint64_t)1 << 20 &&
	    bytes < (uint64_t)sv.f_blocks * sv.f_frsize / 100)
		return 1;
	if (!trash.based) {
		trash.based = 1;
		trash.free_bytes = bytes;
		trash.free_files = files;
		return trash.limit == 0;
	}
	used = trash.free_bytes > bytes ? trash.free_bytes - bytes : 0;
	used_files = trash.free_files > files ? trash.free_files - files : 0;
	return used >= trash.limit || used > trash.free_bytes / 2 ||
	       used_files > trash.free_files / 2;
}

/* The record of the trash's last large emptying, inside it. */
#define TRASH_STAMP   ".emptied"
#define MANY_REMOVALS 1000

/* The count the stamp holds; 0 when there is none (or it is not ours). */
static uint64_t read_stamp(const char *path, struct timespec *when)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct stat st;
	uint64_t n = 0;

	if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    pmbench_fs_read(&b, path, 64) < 0) {
		pmbench_error_clear();
		goto done;
	}
	pmbench_buf_rtrim(&b);
	if (pmbench_parse_u64(&n, b.ptr) < 0)
		n = 0;
	if (when)
		*when = st.st_mtim;
done:
	pmbench_buf_release(&b);
	return n;
}

/* Write the stamp: `n` files, deleted at `when` (NULL: now). */
static int write_stamp(const char *path, uint64_t n,
		       const struct timespec *when)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct timespec times[2];
	int ret;

	pmbench_buf_addf(&b, "%llu\n", (unsigned long long)n);
	ret = pmbench_fs_write_atomic(path, b.ptr, b.len);
	if (!ret && when) {
		times[0] = *when;
		times[1] = *when;
		if (utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW) < 0)
			ret = pmbench_error_set("cannot date '%s': %s", path,
						strerror(errno));
	}
	pmbench_buf_release(&b);
	return ret;
}

int pmbench_fs_trash_empty(const char *dir)
{
	struct pmbench_buf stamp = PMBENCH_BUF_INIT;
	struct timespec when;
	uint64_t before = removals, old, deleted;
	int ret;

	trash.based = 0;
	if (!pmbench_fs_exists(dir))
		return 0;
	pmbench_buf_path(&stamp, dir, TRASH_STAMP);
	old = read_stamp(stamp.ptr, &when);
	ret = pmbench_fs_empty_dir(dir);
	if (ret < 0)
		goto done;
	/* What went, but the old record itself. */
	deleted = removals - before - (old != 0);
	/*
	 * A large deletion is recorded once its inode tables are on disk
	 * (syncfs): the file system's reuse delay runs from then.
	 */
	if (deleted >= MANY_REMOVALS) {
		ret = pmbench_fs_settle(dir);
		if (!ret)
			ret = write_stamp(stamp.ptr, deleted, NULL);
	} else if (old) {
		ret = write_stamp(stamp.ptr, old, &when);
	}
done:
	pmbench_buf_release(&stamp);
	return ret;
}

int pmbench_fs_trash_emptied(const char *dir, struct timespec *when,
			     uint64_t *files)
{
	struct pmbench_buf stamp = PMBENCH_BUF_INIT;
	uint64_t n;

	pmbench_buf_path(&stamp, dir, TRASH_STAMP);
	n = read_stamp(stamp.ptr, when);
	pmbench_buf_release(&stamp);
	if (files)
		*files = n;
	return n != 0;
}

/* ext2, ext3 and ext4 share the magic; the ext4 driver mounts all three. */
#define EXT4_SUPER_MAGIC 0xEF53

unsigned pmbench_fs_inode_reuse_delay_at(const char *root,
					 unsigned long fs_type, dev_t dev,
					 struct pmbench_buf *why)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	char link[PATH_MAX];
	const char *name;
	unsigned delay = 0;
	ssize_t n;
	DIR *d = NULL;
	struct dirent *de;
	size_t len;

	if (fs_type != EXT4_SUPER_MAGIC)
		goto done;
	/* The device's kernel name ("vda1", "dm-0"): what /sys and jbd2 use. */
	pmbench_buf_addf(&p, "%s/sys/dev/block/%u:%u", root, major(dev),
			 minor(dev));
	n = readlink(p.ptr, link, sizeof(link) - 1);
	if (n <= 0)
		goto done;
	link[n] = '\0';
	name = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	len = strlen(name);
	pmbench_buf_reset(&p);
	pmbench_buf_addf(&p, "%s/sys/fs/ext4/%s", root, name);
	if (!len || !pmbench_fs_isdir(p.ptr))
		goto done;
	/* Each mounted journal is an entry "<device>-<journal inode>". */
	pmbench_buf_reset(&p);
	pmbench_buf_addf(&p, "%s/proc/fs/jbd2", root);
	d = opendir(p.ptr);
	if (!d)
		goto done; /* no jbd2 here: cannot tell */
	while ((de = pmbench_fs_readdir(d)))
		if (!strncmp(de->d_name, name, len) && de->d_name[len] == '-')
			goto done;
	/*
	 * fs/ext4/ialloc.c: RECENTCY_MIN + RECENTCY_DIRTY. Creating files
	 * dirties the inode table blocks the deleted inodes share, so the
	 * longer window is the one a run meets.
	 */
	delay = 360;
	if (why)
		pmbench_buf_addf(why, "ext4 without a journal (%s)", name);
done:
	if (d)
		closedir(d);
	pmbench_buf_release(&p);
	return delay;
}

unsigned pmbench_fs_inode_reuse_delay(const char *path, struct pmbench_buf *why)
{
	const char *knob = getenv(PMBENCH_FS_REUSE_DELAY_ENV);
	struct statfs sf;
	struct stat st;
	uint64_t n;

	if (knob && *knob && !pmbench_parse_u64(&n, knob) && n <= 3600) {
		if (why && n)
			pmbench_buf_addf(why, "%s=%s",
					 PMBENCH_FS_REUSE_DELAY_ENV, knob);
		return (unsigned)n;
	}
	if (statfs(path, &sf) < 0 || stat(path, &st) < 0)
		return 0;
	return pmbench_fs_inode_reuse_delay_at("", (unsigned long)sf.f_type,
					       st.st_dev, why);
}

int pmbench_fs_discard(const char *path, const char *dir)
{
	struct pmbench_buf parent = PMBENCH_BUF_INIT, base = PMBENCH_BUF_INIT;
	struct pmbench_buf target = PMBENCH_BUF_INIT, to = PMBENCH_BUF_INIT;
	struct stat st;
	int ret;

	ret = split_target(&parent, &base, path);
	if (!ret && !base.len)
		ret = sandbox_allows(path, "/", 0);
	if (ret < 0 || !base.len)
		goto done;
	pmbench_buf_path(&target, parent.ptr, base.ptr);
	ret = sandbox_allows(path, target.ptr, 0);
	if (ret < 0 || lstat(target.ptr, &st) < 0)
		goto done;
	ret = pmbench_fs_mkdirp(dir, 0755);
	if (!ret && trash_full(dir)) {
		trash.forced++;
		ret = pmbench_fs_trash_empty(dir);
	}
	if (ret < 0)
		goto done;
	do {
		pmbench_buf_reset(&to);
		pmbench_buf_addf(&to, "%s/%lu.%ld.%s", dir, ++trash.serial,
				 (long)getpid(), base.ptr);
	} while (pmbench_fs_exists(to.ptr));
	/* Not movable there (another file system, ...): delete it now. */
	if (rename(target.ptr, to.ptr) < 0)
		ret = pmbench_fs_rmtree(target.ptr);

done:
	pmbench_buf_release(&parent);
	pmbench_buf_release(&base);
	pmbench_buf_release(&target);
	pmbench_buf_release(&to);
	return ret;
}

int pmbench_fs_settle(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return pmbench_error_set("cannot open '%s': %s", path,
					 strerror(errno));
	if (syncfs(fd) < 0)
		ret = pmbench_error_set("cannot sync the file system of '%s': "
					"%s",
					path, strerror(errno));
	close(fd);
	return ret;
}

int pmbench_fs_space(struct pmbench_fs_space *out, const char *path)
{
	struct statvfs sv;

	memset(out, 0, sizeof(*out));
	if (statvfs(path, &sv) < 0)
		return pmbench_error_set("cannot tell the free space of '%s': "
					 "%s",
					 path, strerror(errno));
	out->avail_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	out->total_bytes = (uint64_t)sv.f_blocks * sv.f_frsize;
	return 0;
}

int pmbench_fs_space_full(const struct pmbench_fs_space *sp)
{
	uint64_t floor = (uint64_t)1 << 20;

	/* A small file system: a 20 MB tmpfs is full below 200 KB. */
	if (sp->total_bytes / 100 < floor)
		floor = sp->total_bytes / 100;
	return sp->avail_bytes < floor;
}

/* Undo mountinfo's octal escapes ("\040" for a space) in place. */
static void unescape_octal(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/*
 * One line of /proc/self/mountinfo: "36 35 98:0 /mnt1 /mnt/parent rw
 * ... - ext3 /dev/root rw"; the mount point and type into `point` and
 * `type` if its device is `dev`. Returns 1 then, else 0.
 */
static int mount_line(struct pmbench_buf *point, struct pmbench_buf *type,
		      char *line, dev_t dev)
{
	struct pmbench_strvec f = PMBENCH_STRVEC_INIT;
	unsigned maj, min;
	size_t dash = 0;
	int ret = 0;

	pmbench_strvec_split(&f, line, ' ');
	for (size_t i = 6; i < f.nr && !dash; i++)
		if (!strcmp(f.v[i], "-"))
			dash = i;
	if (f.nr < 5 || !dash || dash + 1 >= f.nr ||
	    sscanf(f.v[2], "%u:%u", &maj, &min) != 2 ||
	    makedev(maj, min) != dev)
		goto done;
	unescape_octal(f.v[4]);
	pmbench_buf_reset(point);
	pmbench_buf_adds(point, f.v[4]);
	pmbench_buf_reset(type);
	pmbench_buf_adds(type, f.v[dash + 1]);
	ret = 1;
done:
	pmbench_strvec_release(&f);
	return ret;
}

void pmbench_fs_describe_mount(struct pmbench_buf *out, const char *path)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT, best = PMBENCH_BUF_INIT;
	struct pmbench_buf point = PMBENCH_BUF_INIT, type = PMBENCH_BUF_INIT;
	struct pmbench_buf kind = PMBENCH_BUF_INIT;
	char *real = realpath(path, NULL);
	struct stat st;
	char *p, *nl;

	if (!real || stat(real, &st) < 0 ||
	    pmbench_fs_read(&text, "/proc/self/mountinfo", 1 << 22) < 0) {
		pmbench_error_clear();
		goto done;
	}
	/* The longest mount point of that device above the path. */
	for (p = text.ptr; (nl = strchr(p, '\n')); p = nl + 1) {
		size_t n;

		*nl = '\0';
		if (!mount_line(&point, &type, p, st.st_dev))
			continue;
		n = point.len;
		if (strncmp(real, point.ptr, n) ||
		    (n > 1 && real[n] && real[n] != '/') || n < best.len)
			continue;
		pmbench_buf_reset(&best);
		pmbench_buf_adds(&best, point.ptr);
		pmbench_buf_reset(&kind);
		pmbench_buf_adds(&kind, type.ptr);
	}
done:
	if (best.len)
		pmbench_buf_addf(out, "%s (%s)", best.ptr, kind.ptr);
	else
		pmbench_buf_adds(out, path);
	free(real);
	pmbench_buf_release(&text);
	pmbench_buf_release(&best);
	pmbench_buf_release(&point);
	pmbench_buf_release(&type);
	pmbench_buf_release(&kind);
}
