/*
 * Synchronising a copy: what pmbench_fs_copytree() would make, keeping
 * what an earlier copy through the same index made and nothing changed
 * since. A change to an inode (its data, mode, links, times, or, for a
 * folder, its entries) sets its ctime to the current time, which nobody
 * can set back: an inode whose number and ctime are those the index
 * noted right after copying it is still exactly that copy.
 */
#include "pmbench/common.h"

#include <sys/stat.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"

#include "internal.h"

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
			fs_link_find(ctx->links, st->st_dev, st->st_ino);
		struct stat lt;

		if (!e || !e->path) {
			fs_link_put(ctx->links, st->st_dev, st->st_ino,
				    ctx->dst.ptr);
		} else if (strcmp(e->path, ctx->dst.ptr) &&
			   !lstat(e->path, &lt) &&
			   (lt.st_dev != dt->st_dev ||
			    lt.st_ino != dt->st_ino)) {
			int ret = discard_here(ctx);

			return ret ? ret
				   : fs_copy_regular(ctx, st, sdfd, sname, ddfd,
						     dname);
		}
	}
	fs_index_record(ctx->index, dt, st);
	return 0;
}

/* Remove what the copy has and the source has not (or copy skips). */
static int sync_extras(struct copy_ctx *ctx, int sfd, int dfd, int depth)
{
	size_t dst_len = ctx->dst.len;
	DIR *dir = fs_opendir_at(dfd, ".", DIR_OPEN_FLAGS);
	int ret = 0;

	if (!dir)
		return pmbench_error_set("cannot read the folder '%s': %s",
					 ctx->dst.ptr, strerror(errno));
	for (;;) {
		struct dirent *de = pmbench_fs_readdir(dir);
		struct stat st;

		if (!de)
			break;
		if (!fstatat(sfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    !copy_skips(ctx, &st, de->d_name, depth + 1))
			continue;
		fs_path_push(&ctx->dst, de->d_name);
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
	DIR *dir = fs_copy_open_source(ctx, sdfd, sname);
	struct stat now;
	int dfd = -1, ret = 0;
	int trusted = fs_index_trusts(ctx->index, dt, st);

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
		ret = fs_copy_each_entry(ctx, dir, dfd, depth, sync_entry);
	if (ret < 0)
		goto done;
	if (fstat(dfd, &now) < 0) {
		ret = pmbench_error_set("cannot read '%s': %s", ctx->dst.ptr,
					strerror(errno));
		goto done;
	}
	/* Entries added or removed, or a mode changed: set it all again. */
	if (trusted && fs_ts_eq(now.st_ctim, dt->st_ctim))
		fs_index_record(ctx->index, &now, st);
	else
		ret = fs_copy_finish_dir(ctx, st, dfd);

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
		return fs_copy_entry(ctx, sdfd, sname, ddfd, dname, depth);
	}
	if ((st.st_mode & S_IFMT) == (dt.st_mode & S_IFMT)) {
		if (S_ISDIR(st.st_mode))
			return sync_dir(ctx, &st, &dt, sdfd, sname, ddfd, dname,
					depth);
		if (fs_index_trusts(ctx->index, &dt, &st))
			return keep(ctx, &st, &dt, sdfd, sname, ddfd, dname);
	}
	ret = discard_here(ctx);
	return ret ? ret : fs_copy_entry(ctx, sdfd, sname, ddfd, dname, depth);
}

int pmbench_fs_synctree(const char *src, const char *dst, unsigned flags,
			struct pmbench_fs_linkmap *links,
			struct pmbench_fs_index *index, const char *trash)
{
	struct copy_ctx ctx = { .flags = flags,
				.links = links,
				.src = PMBENCH_BUF_INIT,
				.dst = PMBENCH_BUF_INIT,
				.index = index,
				.trash = trash };
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

		fs_dirname(&parent, ctx.dst.ptr);
		ret = pmbench_fs_mkdirp(parent.ptr, 0755);
		pmbench_buf_release(&parent);
		if (!ret)
			ret = fs_copy_entry(&ctx, AT_FDCWD, src, AT_FDCWD,
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
