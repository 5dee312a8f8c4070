/*
 * Removal, confined to pmbench's work folder (the sandbox). Everything
 * goes through directory file descriptors opened with O_NOFOLLOW, so that
 * a symlink swapped in during the walk is unlinked rather than followed.
 * The same rule confines pmbench's own writes (fs_write_allowed()), with
 * the toolchain folder as a second place they may go.
 */
#include "pmbench/common.h"

#include <sys/stat.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"

#include "internal.h"

/* The resolved sandbox root; empty when no sandbox is set. */
static struct pmbench_buf sandbox_root = PMBENCH_BUF_INIT;
/* A folder pmbench may write in but not delete in; empty when none. */
static struct pmbench_buf writable_root = PMBENCH_BUF_INIT;

/*
 * split_target() of a path `raw` whose final component is empty, "." or
 * "..": it names a folder through them, so resolve all of it and split
 * the canonical result.
 */
static int split_resolved(struct pmbench_buf *parent, struct pmbench_buf *base,
			  const char *raw)
{
	struct pmbench_buf resolved = PMBENCH_BUF_INIT;
	const char *last;
	size_t len;
	int ret = fs_resolve_prefix(&resolved, raw);

	if (ret < 0)
		goto done;
	last = strrchr(resolved.ptr, '/');
	pmbench_buf_adds(base, last + 1);
	len = (size_t)(last - resolved.ptr);
	pmbench_buf_setlen(&resolved, len ? len : 1);
	pmbench_buf_release(parent);
	*parent = resolved;
	pmbench_buf_init(&resolved);

done:
	pmbench_buf_release(&resolved);
	return ret;
}

/*
 * Split `path` (given by the caller) into a canonical parent folder and a
 * final component. The parent is resolved through symlinks, the final
 * component is not, so that a symlink is itself the target. `base` is
 * left empty for "/".
 */
static int split_target(struct pmbench_buf *parent, struct pmbench_buf *base,
			const char *path, const char *verb)
{
	struct pmbench_buf raw = PMBENCH_BUF_INIT;
	struct pmbench_buf folder = PMBENCH_BUF_INIT;
	const char *last;
	size_t len;
	int ret = 0;

	if (!*path)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "cannot %s an empty path", verb);
	pmbench_buf_adds(&raw, path);
	len = raw.len;
	while (len > 1 && raw.ptr[len - 1] == '/')
		len--;
	pmbench_buf_setlen(&raw, len);
	last = strrchr(raw.ptr, '/');
	last = last ? last + 1 : raw.ptr;
	pmbench_buf_reset(base);
	if (!*last || !strcmp(last, ".") || !strcmp(last, "..")) {
		ret = split_resolved(parent, base, raw.ptr);
		goto done;
	}
	pmbench_buf_adds(base, last);
	if (last == raw.ptr)
		pmbench_buf_adds(&folder, ".");
	else if (last - 1 == raw.ptr)
		pmbench_buf_adds(&folder, "/");
	else
		pmbench_buf_add(&folder, raw.ptr, (size_t)(last - 1 - raw.ptr));
	ret = fs_resolve_prefix(parent, folder.ptr);

done:
	pmbench_buf_release(&folder);
	pmbench_buf_release(&raw);
	return ret;
}

int pmbench_fs_set_sandbox(const char *root)
{
	char *real;

	if (!root) {
		pmbench_buf_release(&sandbox_root);
		pmbench_buf_release(&writable_root);
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

int pmbench_fs_set_writable(const char *root)
{
	pmbench_buf_reset(&writable_root);
	return root ? fs_resolve_prefix(&writable_root, root) : 0;
}

/*
 * The sandbox rule for a canonical `target`, which pmbench would `verb`
 * ("delete", "write"): strictly inside the root, or equal to it when
 * `allow_root`. "/" is never allowed.
 */
static int sandbox_allows(const char *verb, const char *path,
			  const char *target, int allow_root)
{
	const char *root = sandbox_root.ptr;

	if (!strcmp(target, "/"))
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "refusing to %s '%s': it is the "
					  "root folder",
					  verb, path);
	if (!sandbox_root.len)
		return 0;
	if (!strcmp(target, root)) {
		if (allow_root)
			return 0;
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "refusing to %s '%s': it is "
					  "pmbench's work folder '%s' itself",
					  verb, path, root);
	}
	if (!fs_strictly_inside(root, target))
		return pmbench_error_setc(
			PMBENCH_EINVALID,
			"refusing to %s '%s': it is "
			"outside pmbench's work folder '%s'%s",
			verb, path, root,
			strcmp(verb, "write") ? ""
					      : " (a symlink leads there?)");
	return 0;
}

static int remove_at(int dfd, const char *name, struct pmbench_buf *path);

/* Entries this process removed, for the trash's record of a deletion. */
static uint64_t removals;
/* Set by pmbench_fs_rmtree_stop_on(): a deletion stops when it is set. */
static const volatile sig_atomic_t *stop_flag;

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

/*
 * One readdir() pass of remove_children() over `dir`, an open copy of the
 * folder `fd`: *removed counts the entries it removed.
 */
static int remove_pass(DIR *dir, int fd, struct pmbench_buf *path,
		       size_t *removed)
{
	size_t base = path->len;
	struct dirent *de;
	int ret = 0;

	*removed = 0;
	for (;;) {
		if (stop_flag && *stop_flag)
			return PMBENCH_EINTERRUPTED;
		de = pmbench_fs_readdir(dir);
		if (!de)
			break;
		fs_path_push(path, de->d_name);
		/*
		 * The common case, a known non-directory, takes one syscall;
		 * anything else goes the careful way.
		 */
		if (de->d_type == DT_DIR || de->d_type == DT_UNKNOWN ||
		    (unlinkat(fd, de->d_name, 0) < 0 && errno != ENOENT)) {
			ret = remove_at(fd, de->d_name, path);
			if (ret < 0)
				return ret;
		}
		pmbench_buf_setlen(path, base);
		(*removed)++;
		removals++;
	}
	if (errno)
		return pmbench_error_set("cannot read the folder '%s': %s",
					 path->ptr, strerror(errno));
	return 0;
}

/* Remove every entry of the open directory `fd` (which stays ours). */
static int remove_children(int fd, struct pmbench_buf *path)
{
	DIR *dir = NULL;
	size_t base = path->len, removed;
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
		ret = remove_pass(dir, fd, path, &removed);
		if (ret < 0 || !removed)
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

/* fs_deletion_target() for pmbench to `verb` the entry `path`. */
static int confined_target(struct pmbench_buf *parent, struct pmbench_buf *base,
			   struct pmbench_buf *target, const char *path,
			   int checked, const char *verb)
{
	int ret = split_target(parent, base, path, verb);

	if (ret < 0)
		return ret;
	if (!base->len)
		return sandbox_allows(verb, path, "/", 0);
	pmbench_buf_reset(target);
	pmbench_buf_path(target, parent->ptr, base->ptr);
	return checked ? sandbox_allows(verb, path, target->ptr, 0) : 0;
}

int fs_deletion_target(struct pmbench_buf *parent, struct pmbench_buf *base,
		       struct pmbench_buf *target, const char *path,
		       int checked)
{
	return confined_target(parent, base, target, path, checked, "delete");
}

int fs_write_allowed(const char *path)
{
	struct pmbench_buf parent = PMBENCH_BUF_INIT;
	struct pmbench_buf base = PMBENCH_BUF_INIT;
	struct pmbench_buf target = PMBENCH_BUF_INIT;
	int ret = 0;

	/* Without a sandbox (tests, gendoc) there is nothing to resolve. */
	if (sandbox_root.len)
		ret = confined_target(&parent, &base, &target, path, 1,
				      "write");
	if (ret < 0 && target.len && writable_root.len &&
	    fs_strictly_inside(writable_root.ptr, target.ptr)) {
		pmbench_error_clear();
		ret = 0;
	}
	pmbench_buf_release(&target);
	pmbench_buf_release(&base);
	pmbench_buf_release(&parent);
	return ret;
}

void pmbench_fs_rmtree_stop_on(const volatile sig_atomic_t *flag)
{
	stop_flag = flag;
}

uint64_t fs_removals(void)
{
	return removals;
}

static int rmtree(const char *path, int checked)
{
	struct pmbench_buf parent = PMBENCH_BUF_INIT;
	struct pmbench_buf base = PMBENCH_BUF_INIT;
	struct pmbench_buf target = PMBENCH_BUF_INIT;
	int pfd = -1, ret;

	ret = fs_deletion_target(&parent, &base, &target, path, checked);
	if (ret < 0)
		goto done;
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

	ret = fs_resolve_prefix(&target, path);
	if (ret < 0)
		goto done;
	ret = sandbox_allows("delete", path, target.ptr, 1);
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
