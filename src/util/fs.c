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

#include "fs/internal.h"

struct dirent *pmbench_fs_readdir(DIR *dir)
{
	struct dirent *de;

	do {
		errno = 0;
		de = readdir(dir);
	} while (de && (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")));
	return de;
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
	int fd, ret = 0;

	fs_dirname(&dir, path);
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
	if (fs_write_all(fd, data, len) < 0 ||
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
		if (fs_readlink_at(&target, AT_FDCWD, real->ptr) < 0) {
			ret = pmbench_error_set("cannot read the symlink '%s': "
						"%s",
						real->ptr, strerror(errno));
			break;
		}
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
	    fs_write_all(fd, data, len) < 0) {
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
	int ret = resolve_output(&real, &kind, path);

	if (!ret && kind == OUTPUT_REPLACE) {
		fs_dirname(&dir, real.ptr);
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
	if (fs_copy_data(in, out, &failed_read) < 0) {
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
		if (fs_link_find(ctx->seen, st.st_dev, st.st_ino))
			goto done;
		fs_link_put(ctx->seen, st.st_dev, st.st_ino, NULL);
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
				fs_path_push(path, de->d_name);
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
	uint64_t before = fs_removals(), old, deleted;
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
	deleted = fs_removals() - before - (old != 0);
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

	ret = fs_deletion_target(&parent, &base, &target, path, 1);
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
