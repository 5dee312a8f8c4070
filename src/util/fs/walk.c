/*
 * Walking folders: their entries, the disk usage of a tree, and the
 * folders of a name below a root (each workspace's node_modules).
 */
#include "pmbench/common.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/strvec.h"

#include "internal.h"

struct dirent *pmbench_fs_readdir(DIR *dir)
{
	struct dirent *de;

	do {
		errno = 0;
		de = readdir(dir);
	} while (de && (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")));
	return de;
}

DIR *fs_opendir_at(int dfd, const char *name, int flags)
{
	int fd = openat(dfd, name, flags);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;

	if (!dir && fd >= 0) {
		int err = errno;

		close(fd);
		errno = err;
	}
	return dir;
}

/*
 * Disk usage.
 */

struct usage_ctx {
	struct pmbench_fs_usage *out;
	struct pmbench_fs_linkmap *seen;
	struct pmbench_buf path;
	/* pmbench_fs_changed_since(): NULL for the usage alone */
	const struct timespec *since;
	struct pmbench_strvec *names;
	size_t keep, skip; /* names kept; the root's length in `path` */
	uint64_t changed;
};

/* An entry changed after ctx->since: counted, its name kept. */
static void note_changed(struct usage_ctx *ctx, const struct stat *st)
{
	const struct timespec *t = &st->st_ctim;

	if (!ctx->since || t->tv_sec < ctx->since->tv_sec ||
	    (t->tv_sec == ctx->since->tv_sec &&
	     t->tv_nsec <= ctx->since->tv_nsec))
		return;
	if (ctx->names && ctx->changed < ctx->keep)
		pmbench_strvec_push(ctx->names, ctx->path.ptr + ctx->skip);
	ctx->changed++;
}

static int usage_walk(struct usage_ctx *ctx, int dfd, const char *name);

/*
 * Add the entry `st` to the usage. Returns 1 when it is another link to
 * an inode already counted, else 0.
 */
static int count_entry(struct usage_ctx *ctx, const struct stat *st)
{
	if (!S_ISDIR(st->st_mode) && st->st_nlink > 1) {
		if (fs_link_find(ctx->seen, st->st_dev, st->st_ino))
			return 1;
		fs_link_put(ctx->seen, st->st_dev, st->st_ino, NULL);
	}
	ctx->out->disk_bytes += (uint64_t)st->st_blocks * 512;
	ctx->out->apparent_bytes += (uint64_t)st->st_size;
	if (S_ISREG(st->st_mode))
		ctx->out->files++;
	else if (S_ISLNK(st->st_mode))
		ctx->out->symlinks++;
	else if (S_ISDIR(st->st_mode))
		ctx->out->dirs++;
	return 0;
}

/* usage_walk() of each entry of the folder `name` in `dfd`. */
static int usage_walk_dir(struct usage_ctx *ctx, int dfd, const char *name)
{
	size_t len = ctx->path.len;
	DIR *dir = fs_opendir_at(dfd, name, DIR_OPEN_FLAGS);
	int ret = 0;

	if (!dir)
		return pmbench_error_set("cannot read the folder '%s': %s",
					 ctx->path.ptr, strerror(errno));
	for (;;) {
		struct dirent *de;

		de = pmbench_fs_readdir(dir);
		if (!de)
			break;
		fs_path_push(&ctx->path, de->d_name);
		ret = usage_walk(ctx, dirfd(dir), de->d_name);
		pmbench_buf_setlen(&ctx->path, len);
		if (ret < 0)
			goto done;
	}
	if (errno)
		ret = pmbench_error_set("cannot read the folder '%s': %s",
					ctx->path.ptr, strerror(errno));

done:
	closedir(dir);
	return ret;
}

static int usage_walk(struct usage_ctx *ctx, int dfd, const char *name)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return pmbench_error_set("cannot measure '%s': %s",
					 ctx->path.ptr, strerror(errno));
	note_changed(ctx, &st);
	if (count_entry(ctx, &st) || !S_ISDIR(st.st_mode))
		return 0;
	return usage_walk_dir(ctx, dfd, name);
}

int pmbench_fs_usage(struct pmbench_fs_usage *out, const char *path)
{
	struct usage_ctx ctx = { out, NULL, PMBENCH_BUF_INIT, NULL, NULL, 0,
				 0,   0 };
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

int pmbench_fs_changed_since(uint64_t *out_count, struct pmbench_strvec *names,
			     size_t keep, const char *root, const char *rel,
			     const struct timespec *since)
{
	struct pmbench_fs_usage u;
	struct usage_ctx ctx = { &u, NULL, PMBENCH_BUF_INIT, since, names, keep,
				 0,  0 };
	int ret;

	memset(&u, 0, sizeof(u));
	ctx.seen = pmbench_fs_linkmap_new();
	pmbench_buf_adds(&ctx.path, root);
	ctx.skip = ctx.path.len + 1;
	fs_path_push(&ctx.path, rel);
	ret = usage_walk(&ctx, AT_FDCWD, ctx.path.ptr);
	if (ret < 0 && !pmbench_fs_exists(ctx.path.ptr)) {
		pmbench_error_clear();
		ret = pmbench_error_setc(PMBENCH_ENOTFOUND, "no folder '%s'",
					 ctx.path.ptr);
	}
	*out_count = ret < 0 ? 0 : ctx.changed;
	pmbench_buf_release(&ctx.path);
	pmbench_fs_linkmap_free(ctx.seen);
	return ret;
}

static int ts_after(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec > b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec > b->tv_nsec);
}

int pmbench_fs_time_mark(struct timespec *out, const char *dir)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	struct stat st;
	struct timespec first;
	int fd, ret = 0;

	clock_gettime(CLOCK_REALTIME_COARSE, out);
	pmbench_buf_path(&path, dir, ".pmbench-clock");
	fd = open(path.ptr, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0 || futimens(fd, NULL) < 0 || fstat(fd, &st) < 0) {
		ret = pmbench_error_set("cannot mark the time in '%s': %s",
					path.ptr, strerror(errno));
		goto done;
	}
	first = st.st_ctim;
	/*
	 * Until a later stamp is handed out: every write after it is
	 * stamped later still (the stamps are monotonic across files).
	 * A tick at most (4 ms at HZ 250); bounded all the same.
	 */
	for (int i = 0; i < 200; i++) {
		if (futimens(fd, NULL) < 0 || fstat(fd, &st) < 0) {
			ret = pmbench_error_set("cannot mark the time in "
						"'%s': %s",
						path.ptr, strerror(errno));
			goto done;
		}
		if (ts_after(&st.st_ctim, &first))
			break;
		pmbench_sleep_ns(500000);
	}
	*out = first;
done:
	if (fd >= 0)
		close(fd);
	pmbench_buf_release(&path);
	return ret;
}

/*
 * Finding workspace folders.
 */

/*
 * Whether the entry `de` of `dir` is a folder: 1, or 0 (also when it is
 * gone meanwhile), or an error (`path` is its folder's, for the message).
 */
static int entry_is_dir(DIR *dir, const struct dirent *de,
			struct pmbench_buf *path)
{
	struct stat st;

	if (de->d_type != DT_UNKNOWN)
		return de->d_type == DT_DIR;
	if (!fstatat(dirfd(dir), de->d_name, &st, AT_SYMLINK_NOFOLLOW))
		return S_ISDIR(st.st_mode);
	if (errno == ENOENT)
		return 0;
	fs_path_push(path, de->d_name);
	return pmbench_error_set("cannot read '%s': %s", path->ptr,
				 strerror(errno));
}

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
	DIR *dir;
	int ret = 0;

	dir = fs_opendir_at(dfd, dname,
			    rel_len ? DIR_OPEN_FLAGS
				    : O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!dir)
		return pmbench_error_setc(errno == ENOENT && !rel_len
						  ? PMBENCH_ENOTFOUND
						  : PMBENCH_ERROR,
					  "cannot read the folder '%s': %s",
					  path->ptr, strerror(errno));
	for (;;) {
		struct dirent *de = pmbench_fs_readdir(dir);

		if (!de)
			break;
		ret = entry_is_dir(dir, de, path);
		if (ret < 0)
			goto done;
		if (!ret)
			continue;
		ret = 0;
		fs_path_push(rel, de->d_name);
		fs_path_push(path, de->d_name);
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
	ret = errno ? pmbench_error_set("cannot read the folder '%s': %s",
					path->ptr, strerror(errno))
		    : 0;

done:
	pmbench_buf_setlen(rel, rel_len);
	pmbench_buf_setlen(path, path_len);
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
