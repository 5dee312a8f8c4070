/*
 * Copying a tree: regular files (their data in the kernel where it can),
 * symlinks verbatim, folders with their modes and times, and files
 * hard-linked to each other in the source hard-linked to each other in
 * the copy, through an inode map shared across copies.
 */
#include "pmbench/common.h"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"

#include "internal.h"

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
	fs_index_record(ctx->index, &dt, st);
	return 0;
}

/* Give the copy open as `fd` the mode and times of `st`. */
static int set_mode_and_times(const struct copy_ctx *ctx, int fd,
			      const struct stat *st)
{
	struct timespec times[2];

	times[0] = st->st_atim;
	times[1] = st->st_mtim;
	if (fchmod(fd, st->st_mode & 07777) < 0 || futimens(fd, times) < 0)
		return pmbench_error_set("cannot set the mode or time of '%s': "
					 "%s",
					 ctx->dst.ptr, strerror(errno));
	return 0;
}

/*
 * A file hard-linked in the source whose inode was copied before: link
 * `dname` to that first copy. Returns 1 when linked, 0 when the data must
 * be copied (no first copy, or it cannot take the link), or an error.
 */
static int link_to_first_copy(struct copy_ctx *ctx, const struct stat *st,
			      int ddfd, const char *dname)
{
	struct linkent *e = fs_link_find(ctx->links, st->st_dev, st->st_ino);

	if (!e)
		return 0;
	if (!linkat(AT_FDCWD, e->path, ddfd, dname, 0))
		return 1;
	/*
	 * The first copy may be gone or on another file system, or have too
	 * many links: copy again and link to the new one.
	 */
	if (errno == ENOENT || errno == EXDEV || errno == EMLINK ||
	    errno == EPERM)
		return 0;
	return pmbench_error_set("cannot link '%s' to '%s': %s", ctx->dst.ptr,
				 e->path, strerror(errno));
}

/* Copy the data, mode and times of the regular file `sname` to `dname`. */
static int copy_file_data(struct copy_ctx *ctx, const struct stat *st, int sdfd,
			  const char *sname, int ddfd, const char *dname)
{
	int in = -1, out = -1, failed_read, ret = 0;

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
	if (fs_copy_data(in, out, &failed_read) < 0) {
		ret = pmbench_error_set(
			"cannot %s '%s': %s", failed_read ? "read" : "write",
			failed_read ? ctx->src.ptr : ctx->dst.ptr,
			strerror(errno));
		goto done;
	}
	ret = set_mode_and_times(ctx, out, st);
	if (ret < 0)
		goto done;
	if (close(out) < 0)
		ret = pmbench_error_set("cannot write '%s': %s", ctx->dst.ptr,
					strerror(errno));
	out = -1;

done:
	if (out >= 0)
		close(out);
	if (in >= 0)
		close(in);
	return ret;
}

int fs_copy_regular(struct copy_ctx *ctx, const struct stat *st, int sdfd,
		    const char *sname, int ddfd, const char *dname)
{
	int linked = ctx->links && st->st_nlink > 1;
	int ret;

	if ((ctx->flags & PMBENCH_FS_COPY_LINK) &&
	    !linkat(sdfd, sname, ddfd, dname, 0))
		return record_at(ctx, ddfd, dname, st);
	if (linked) {
		ret = link_to_first_copy(ctx, st, ddfd, dname);
		if (ret < 0)
			return ret;
		if (ret)
			return record_at(ctx, ddfd, dname, st);
	}
	ret = copy_file_data(ctx, st, sdfd, sname, ddfd, dname);
	if (ret < 0)
		return ret;
	if (linked)
		fs_link_put(ctx->links, st->st_dev, st->st_ino, ctx->dst.ptr);
	return record_at(ctx, ddfd, dname, st);
}

static int copy_symlink(struct copy_ctx *ctx, const struct stat *st, int sdfd,
			const char *sname, int ddfd, const char *dname)
{
	struct pmbench_buf target = PMBENCH_BUF_INIT;
	int ret;

	if (fs_readlink_at(&target, sdfd, sname) < 0)
		ret = pmbench_error_set("cannot read the link '%s': %s",
					ctx->src.ptr, strerror(errno));
	else if (symlinkat(target.ptr, ddfd, dname) < 0)
		ret = pmbench_error_set("cannot create the link '%s': %s",
					ctx->dst.ptr, strerror(errno));
	else
		ret = record_at(ctx, ddfd, dname, st);
	pmbench_buf_release(&target);
	return ret;
}

int fs_copy_finish_dir(struct copy_ctx *ctx, const struct stat *st, int dfd)
{
	int ret = set_mode_and_times(ctx, dfd, st);

	if (ret < 0)
		return ret;
	return record_at(ctx, dfd, "", st);
}

DIR *fs_copy_open_source(const struct copy_ctx *ctx, int sdfd,
			 const char *sname)
{
	DIR *dir = fs_opendir_at(sdfd, sname, DIR_OPEN_FLAGS);

	if (!dir)
		pmbench_error_set("cannot read the folder '%s': %s",
				  ctx->src.ptr, strerror(errno));
	return dir;
}

int fs_copy_each_entry(struct copy_ctx *ctx, DIR *dir, int dfd, int depth,
		       fs_copy_entry_cb fn)
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
		fs_path_push(&ctx->src, de->d_name);
		fs_path_push(&ctx->dst, de->d_name);
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
	DIR *dir = fs_copy_open_source(ctx, sdfd, sname);
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
	ret = fs_copy_each_entry(ctx, dir, dfd, depth, fs_copy_entry);
	if (!ret)
		ret = fs_copy_finish_dir(ctx, st, dfd);

done:
	if (dfd >= 0)
		close(dfd);
	closedir(dir);
	return ret;
}

int fs_copy_entry(struct copy_ctx *ctx, int sdfd, const char *sname, int ddfd,
		  const char *dname, int depth)
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
		return fs_copy_regular(ctx, &st, sdfd, sname, ddfd, dname);
	if (S_ISLNK(st.st_mode))
		return copy_symlink(ctx, &st, sdfd, sname, ddfd, dname);
	/* Sockets, fifos and devices have no place in a fixture. */
	return 0;
}

/*
 * Before a copy of `src` to the absolute `ctx->dst`: the destination may
 * be written and does not exist yet, and the source exists.
 */
static int check_copy_ends(const struct copy_ctx *ctx, const char *src,
			   const char *dst)
{
	struct stat st;
	int ret = fs_write_allowed(ctx->dst.ptr);

	if (ret < 0)
		return ret;
	if (!strcmp(ctx->dst.ptr, "/") || lstat(ctx->dst.ptr, &st) == 0)
		return pmbench_error_set("cannot copy '%s' to '%s': it already "
					 "exists",
					 src, dst);
	if (errno != ENOENT)
		return pmbench_error_set("cannot copy '%s' to '%s': %s", src,
					 dst, strerror(errno));
	if (lstat(src, &st) < 0)
		return pmbench_error_setc(
			errno == ENOENT ? PMBENCH_ENOTFOUND : PMBENCH_ERROR,
			"cannot copy '%s': %s", src, strerror(errno));
	return 0;
}

int pmbench_fs_copytree(const char *src, const char *dst, unsigned flags,
			struct pmbench_fs_linkmap *links)
{
	struct copy_ctx ctx = { .flags = flags,
				.links = links,
				.src = PMBENCH_BUF_INIT,
				.dst = PMBENCH_BUF_INIT };
	struct pmbench_buf parent = PMBENCH_BUF_INIT;
	struct pmbench_buf msg = PMBENCH_BUF_INIT;
	int ret = 0, started = 0;

	pmbench_buf_adds(&ctx.src, src);
	pmbench_fs_abspath(&ctx.dst, dst);
	ret = check_copy_ends(&ctx, src, dst);
	if (ret < 0)
		goto done;
	fs_dirname(&parent, ctx.dst.ptr);
	ret = pmbench_fs_mkdirp(parent.ptr, 0755);
	if (ret < 0)
		goto done;
	started = 1;
	ret = fs_copy_entry(&ctx, AT_FDCWD, src, AT_FDCWD, ctx.dst.ptr, 0);

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
