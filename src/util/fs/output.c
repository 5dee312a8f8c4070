/*
 * Files written whole and atomically: a temporary file next to the
 * destination, renamed over it. pmbench's own files, files the user names
 * (results, reports: symlinks followed, character devices written
 * through) and single-file copies.
 */
#include "pmbench/common.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"

#include "internal.h"

/*
 * A temporary file next to its destination (same folder, so the same
 * file system), renamed over it once written: readers see the old file
 * or the new one, never half of one.
 */
struct temp_file {
	struct pmbench_buf path; /* empty unless there is a file to remove */
	int fd;
};

#define TEMP_FILE_INIT                             \
	{                                          \
		.path = PMBENCH_BUF_INIT, .fd = -1 \
	}

/*
 * `confined`: pmbench's own file, which must stay in its work folder
 * (fs_write_allowed()); a file the user named goes where they said.
 */
static int temp_open(struct temp_file *t, const char *dst, int confined)
{
	const char *slash = strrchr(dst, '/');
	const char *base = slash ? slash + 1 : dst;
	int err;

	if (confined && fs_write_allowed(dst) < 0)
		return PMBENCH_EINVALID;
	pmbench_buf_reset(&t->path);
	pmbench_buf_add(&t->path, dst, (size_t)(base - dst));
	pmbench_buf_addf(&t->path, ".%s.tmpXXXXXX", base);
	t->fd = mkstemp(t->path.ptr);
	if (t->fd >= 0 && fcntl(t->fd, F_SETFD, FD_CLOEXEC) == 0)
		return 0;
	err = errno;
	if (t->fd >= 0) {
		close(t->fd);
		unlink(t->path.ptr);
		t->fd = -1;
	}
	pmbench_buf_reset(&t->path);
	return pmbench_error_set("cannot create a temporary file for '%s': %s",
				 dst, strerror(err));
}

/*
 * Close the temporary file and rename it over `dst`; `name` is the file a
 * failed write (close) is reported on.
 */
static int temp_commit(struct temp_file *t, const char *dst, const char *name)
{
	int fd = t->fd;

	t->fd = -1;
	if (close(fd) < 0)
		return pmbench_error_set("cannot write '%s': %s", name,
					 strerror(errno));
	if (rename(t->path.ptr, dst) < 0)
		return pmbench_error_set("cannot rename '%s' to '%s': %s",
					 t->path.ptr, dst, strerror(errno));
	pmbench_buf_reset(&t->path);
	return 0;
}

/* Close and remove what is left of an uncommitted temporary file. */
static void temp_release(struct temp_file *t)
{
	if (t->fd >= 0)
		close(t->fd);
	if (t->path.len)
		unlink(t->path.ptr);
	pmbench_buf_release(&t->path);
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

static mode_t umask_read;

/*
 * The process's umask, read once: from /proc/self/status, which changes
 * nothing; else by setting it and back, before pmbench's threads create
 * files (the first write is the main thread's).
 */
static void read_umask(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	unsigned mask;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Umask: %o", &mask) == 1) {
			umask_read = (mode_t)mask & 0777;
			fclose(f);
			return;
		}
	if (f)
		fclose(f);
	umask_read = umask(022);
	umask(umask_read);
}

mode_t pmbench_fs_umask(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, read_umask);
	return umask_read;
}

/*
 * The mode of a file written over `path`: an existing file's own, as a
 * shell's '>' keeps it; a new one's from the user's umask, as open(2)
 * gives it (0644 under umask 022, 0600 under 077), not mkstemp's 0600.
 */
static mode_t output_mode(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
		return st.st_mode & 07777;
	return 0666 & ~pmbench_fs_umask();
}

static int write_atomic(const char *path, const void *data, size_t len,
			int confined)
{
	struct temp_file t = TEMP_FILE_INIT;
	int ret = temp_open(&t, path, confined);

	if (ret < 0)
		goto done;
	if (fs_write_all(t.fd, data, len) < 0 ||
	    fchmod(t.fd, output_mode(path)) < 0 || fsync(t.fd) < 0) {
		ret = pmbench_error_set("cannot write '%s': %s", path,
					strerror(errno));
		goto done;
	}
	ret = temp_commit(&t, path, path);
	if (!ret)
		ret = fsync_parent(path);

done:
	temp_release(&t);
	return ret;
}

int pmbench_fs_write_atomic(const char *path, const void *data, size_t len)
{
	return write_atomic(path, data, len, 1);
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
 * `path`, a regular file or a new name, into `real`: the name at the end
 * of its symlinks (40 at most), which must be a regular file or missing.
 */
static int follow_links(struct pmbench_buf *real, const char *path)
{
	struct pmbench_buf target = PMBENCH_BUF_INIT;
	struct stat st;
	int ret = 0;

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
	struct stat st;

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
	return follow_links(real, path);
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
			      : write_atomic(real.ptr, data, len, 0);
	pmbench_buf_release(&real);
	return ret;
}

int pmbench_fs_copyfile(const char *src, const char *dst)
{
	struct temp_file t = TEMP_FILE_INIT;
	struct stat st;
	int in = -1, failed_read, ret = 0;

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
	ret = temp_open(&t, dst, 1);
	if (ret < 0)
		goto done;
	if (fs_copy_data(in, t.fd, &failed_read) < 0) {
		ret = pmbench_error_set("cannot %s '%s': %s",
					failed_read ? "read" : "write",
					failed_read ? src : t.path.ptr,
					strerror(errno));
		goto done;
	}
	if (fchmod(t.fd, st.st_mode & 07777) < 0) {
		ret = pmbench_error_set("cannot set the mode of '%s': %s",
					t.path.ptr, strerror(errno));
		goto done;
	}
	ret = temp_commit(&t, dst, t.path.ptr);

done:
	if (in >= 0)
		close(in);
	temp_release(&t);
	return ret;
}
