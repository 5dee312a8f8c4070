/*
 * The trash: deleting later. A discard moves a tree into the trash
 * folder; the trash is emptied after the measurements (or first, when it
 * holds too much), so that no deletion's freed inodes slow a timed run.
 */
#include "pmbench/common.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/strvec.h"

#include "internal.h"

/*
 * The trash's baseline: free space and inodes of its file system when
 * it was last empty (taken at the first discard after that).
 */
static struct {
	int based;
	uint64_t free_bytes, free_files, limit;
	unsigned long serial;
	unsigned forced; /* emptied by a discard, for lack of space */
	char why[160];	 /* the last time, why */
} trash = { .limit = (uint64_t)16 << 30 };

unsigned pmbench_fs_trash_forced(const char **why)
{
	if (why)
		*why = trash.why;
	return trash.forced;
}

/* The limit a test set in the environment, once (0: none set). */
static void limit_from_env(void)
{
	static int read;
	const char *knob;
	uint64_t v;

	if (read++)
		return;
	knob = getenv(PMBENCH_FS_TRASH_LIMIT_ENV);
	if (knob && *knob && !pmbench_parse_u64(&v, knob))
		trash.limit = v;
}

uint64_t pmbench_fs_trash_limit(uint64_t bytes)
{
	uint64_t old;

	limit_from_env();
	old = trash.limit;
	trash.limit = bytes;
	return old;
}

/* The trash must be emptied first, for the reason `fmt` says: 1. */
static int full_because(const char *fmt, ...) PMBENCH_PRINTF(1, 2);
static int full_because(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(trash.why, sizeof(trash.why), fmt, ap);
	va_end(ap);
	return 1;
}

/*
 * 1 when the trash must be emptied before it takes more; then
 * `trash.why` says why.
 */
static int trash_full(const char *dir)
{
	struct statvfs sv;
	struct pmbench_fs_space sp;
	uint64_t bytes, files, used, used_files;

	limit_from_env();
	if (statvfs(dir, &sv) < 0)
		return full_because("its file system's free space is "
				    "unknown: %s",
				    strerror(errno));
	bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	files = (uint64_t)sv.f_favail;
	/* A full disk: what the trash holds is needed now. */
	sp.avail_bytes = bytes;
	sp.total_bytes = (uint64_t)sv.f_blocks * sv.f_frsize;
	if (pmbench_fs_space_full(&sp))
		return full_because("%.1f MB were left", (double)bytes / 1e6);
	if (!trash.based) {
		trash.based = 1;
		trash.free_bytes = bytes;
		trash.free_files = files;
		return trash.limit ? 0 : full_because("its limit is 0");
	}
	used = trash.free_bytes > bytes ? trash.free_bytes - bytes : 0;
	used_files = trash.free_files > files ? trash.free_files - files : 0;
	if (used < trash.limit && used <= trash.free_bytes / 2 &&
	    used_files <= trash.free_files / 2)
		return 0;
	return full_because("%.1f GB and %llu inodes of the %.1f GB and %llu "
			    "free when the trash was last empty were in use "
			    "(its limit: %.1f GB or half)",
			    (double)used / 1e9, (unsigned long long)used_files,
			    (double)trash.free_bytes / 1e9,
			    (unsigned long long)trash.free_files,
			    (double)trash.limit / 1e9);
}

int pmbench_fs_trash_room(struct pmbench_fs_trash_room *out, const char *dir)
{
	struct statvfs sv;
	uint64_t bytes, files;

	memset(out, 0, sizeof(*out));
	limit_from_env();
	if (statvfs(dir, &sv) < 0)
		return pmbench_error_set("cannot read the free space of '%s': "
					 "%s",
					 dir, strerror(errno));
	out->avail_bytes = bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	out->avail_files = files = (uint64_t)sv.f_favail;
	/* Not based yet: the next discard takes what is free now. */
	if (trash.based) {
		bytes = trash.free_bytes;
		files = trash.free_files;
		out->used_bytes =
			bytes > out->avail_bytes ? bytes - out->avail_bytes : 0;
		out->used_files =
			files > out->avail_files ? files - out->avail_files : 0;
	}
	out->limit_bytes = trash.limit < bytes / 2 ? trash.limit : bytes / 2;
	out->limit_files = files / 2;
	return 0;
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

/* Record `deleted` files removed now, or keep the old record. */
static int record(const char *stamp, const char *dir, uint64_t deleted,
		  uint64_t old, const struct timespec *when)
{
	int ret = 0;

	/*
	 * A large deletion is recorded once its inode tables are on disk
	 * (syncfs): the file system's reuse delay runs from then.
	 */
	if (deleted >= MANY_REMOVALS) {
		ret = pmbench_fs_settle(dir);
		if (!ret)
			ret = write_stamp(stamp, deleted, NULL);
	} else if (old) {
		ret = write_stamp(stamp, old, when);
	}
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
	ret = record(stamp.ptr, dir, deleted, old, &when);
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

/* 1 if the folder `dir` holds anything but the record; 0 if not. */
static int holds_more(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int more = 0;

	if (!d)
		return 0;
	while (!more && (de = pmbench_fs_readdir(d)))
		more = strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		       strcmp(de->d_name, TRASH_STAMP);
	closedir(d);
	return more;
}

int pmbench_fs_trash_handoff(const char *dir, const char *queue)
{
	struct pmbench_buf batch = PMBENCH_BUF_INIT, from = PMBENCH_BUF_INIT;
	struct pmbench_buf to = PMBENCH_BUF_INIT;
	int ret;

	if (!holds_more(dir))
		return 0;
	ret = pmbench_fs_mkdirp(queue, 0755);
	if (ret < 0)
		goto done;
	do {
		pmbench_buf_reset(&batch);
		pmbench_buf_addf(&batch, "%s/%ld.%lu", queue, (long)getpid(),
				 ++trash.serial);
	} while (pmbench_fs_exists(batch.ptr));
	if (rename(dir, batch.ptr) < 0) {
		ret = pmbench_error_set("cannot move '%s' to '%s': %s", dir,
					batch.ptr, strerror(errno));
		goto done;
	}
	trash.based = 0;
	ret = pmbench_fs_mkdirp(dir, 0755);
	/* The record stays where the next command's wait reads it. */
	pmbench_buf_path(&from, batch.ptr, TRASH_STAMP);
	pmbench_buf_path(&to, dir, TRASH_STAMP);
	if (!ret && pmbench_fs_exists(from.ptr) && rename(from.ptr, to.ptr) < 0)
		ret = pmbench_error_set("cannot move '%s' to '%s': %s",
					from.ptr, to.ptr, strerror(errno));
	if (!ret)
		ret = 1;
done:
	pmbench_buf_release(&batch);
	pmbench_buf_release(&from);
	pmbench_buf_release(&to);
	return ret;
}

int pmbench_fs_trash_pending(const char *queue)
{
	DIR *d = opendir(queue);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = pmbench_fs_readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Delete the batches `queue` holds now; how many there were. */
static int drain_once(const char *queue)
{
	struct pmbench_strvec names = PMBENCH_STRVEC_INIT;
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	DIR *d = opendir(queue);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return errno == ENOENT
			       ? 0
			       : pmbench_error_set("cannot read '%s': %s",
						   queue, strerror(errno));
	/* Batches only: the lock and anything else hidden stay. */
	while ((de = pmbench_fs_readdir(d)))
		if (de->d_name[0] != '.')
			pmbench_strvec_push(&names, de->d_name);
	closedir(d);
	for (size_t i = 0; i < names.nr && !ret; i++) {
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, queue, names.v[i]);
		ret = pmbench_fs_rmtree(p.ptr);
	}
	if (!ret)
		ret = (int)names.nr;
	pmbench_strvec_release(&names);
	pmbench_buf_release(&p);
	return ret;
}

int pmbench_fs_trash_drain(const char *queue, const char *dir,
			   uint64_t *out_files)
{
	struct pmbench_buf stamp = PMBENCH_BUF_INIT;
	struct timespec when;
	uint64_t before = fs_removals(), old;
	int ret, stopped;

	*out_files = 0;
	/* Batches handed over while it deleted are deleted too. */
	do
		ret = drain_once(queue);
	while (ret > 0);
	/* Stopped: what went is recorded, for the next command's wait. */
	if (ret < 0 && ret != PMBENCH_EINTERRUPTED)
		goto done;
	stopped = ret;
	*out_files = fs_removals() - before;
	/*
	 * Nothing deleted (the queue gone with the work folder, say, while
	 * the deleter waited): nothing to record, and no folder made again.
	 */
	if (!*out_files) {
		ret = stopped;
		goto done;
	}
	ret = pmbench_fs_mkdirp(dir, 0755);
	pmbench_buf_path(&stamp, dir, TRASH_STAMP);
	old = read_stamp(stamp.ptr, &when);
	if (!ret)
		ret = record(stamp.ptr, dir, *out_files, old, &when);
	if (!ret)
		ret = stopped;
done:
	pmbench_buf_release(&stamp);
	return ret;
}
