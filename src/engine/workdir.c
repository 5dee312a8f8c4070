#include "pmbench/common.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/workdir.h"

#define MARKER_TEXT                                                         \
	"pmbench's work folder: pmbench creates, empties and deletes what " \
	"is in here.\n"

/* What the lock file may say about its holder, at most. */
#define HOLDER_MAX 512

/* 1 if the folder `dir` holds nothing, 0 if it holds something, or < 0. */
static int is_empty(const char *dir)
{
	DIR *d = opendir(dir);
	int empty;

	if (!d)
		return pmbench_error_set("cannot read the folder '%s': %s", dir,
					 strerror(errno));
	empty = !pmbench_fs_readdir(d);
	closedir(d);
	return empty;
}

int pmbench_workdir_check(const char *dir, int trusted)
{
	struct pmbench_buf marker = PMBENCH_BUF_INIT;
	struct stat st;
	int ret;

	ret = pmbench_fs_mkdirp(dir, 0755);
	if (ret < 0)
		goto done;
	pmbench_buf_path(&marker, dir, PMBENCH_WORKDIR_MARKER);
	if (!lstat(marker.ptr, &st) && S_ISREG(st.st_mode))
		goto done;
	ret = trusted ? 1 : is_empty(dir);
	if (ret < 0)
		goto done;
	if (!ret) {
		ret = pmbench_error_setc(
			PMBENCH_EINVALID,
			"'%s' holds files but is not a pmbench work folder (it "
			"has no %s), and pmbench deletes what is in its work "
			"folder; give --cache-dir a new or empty folder (or, if "
			"it is an older pmbench's, create '%s')",
			dir, PMBENCH_WORKDIR_MARKER, marker.ptr);
		goto done;
	}
	ret = pmbench_fs_write_atomic(marker.ptr, MARKER_TEXT,
				      strlen(MARKER_TEXT));
done:
	pmbench_buf_release(&marker);
	return ret;
}

/* "pid N, 'COMMAND', since TIME" for the lock file. */
static void describe_self(struct pmbench_buf *out, const char *what)
{
	char stamp[64] = "an unknown time";
	time_t now = time(NULL);
	struct tm tm;

	if (gmtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S UTC", &tm);
	pmbench_buf_addf(out, "pid %ld, '%.300s', since %s\n", (long)getpid(),
			 what, stamp);
}

/* What the holder wrote: its first line, printable characters only. */
static void read_holder(struct pmbench_buf *out, int fd)
{
	char text[HOLDER_MAX + 1];
	ssize_t n;

	do
		n = pread(fd, text, HOLDER_MAX, 0);
	while (n < 0 && errno == EINTR);
	for (ssize_t i = 0; i < n && text[i] != '\n'; i++)
		pmbench_buf_addch(out, (unsigned char)text[i] < 0x20 ||
						       text[i] == 0x7f
					       ? '?'
					       : text[i]);
}

int pmbench_workdir_lock(struct pmbench_workdir *w, const char *dir,
			 const char *what)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT, info = PMBENCH_BUF_INIT;
	int fd, ret = 0, rc;

	pmbench_buf_path(&path, dir, PMBENCH_WORKDIR_LOCK);
	fd = open(path.ptr, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = pmbench_error_set("cannot open the lock file '%s': %s",
					path.ptr, strerror(errno));
		goto done;
	}
	do
		rc = flock(fd, LOCK_EX | LOCK_NB);
	while (rc < 0 && errno == EINTR);
	if (rc < 0 && errno == EWOULDBLOCK) {
		read_holder(&info, fd);
		ret = pmbench_error_set(
			"the work folder '%s' is in use by another pmbench "
			"(%s); wait for it, or give this run its own "
			"--cache-dir",
			dir, info.len ? info.ptr : "just starting");
		goto done;
	}
	if (rc < 0) {
		ret = pmbench_error_set("cannot lock '%s': %s", path.ptr,
					strerror(errno));
		goto done;
	}
	/* Locked: say who holds it, for the next one to read. */
	describe_self(&info, what);
	if (ftruncate(fd, 0) < 0 ||
	    pwrite(fd, info.ptr, info.len, 0) != (ssize_t)info.len) {
		ret = pmbench_error_set("cannot write the lock file '%s': %s",
					path.ptr, strerror(errno));
		goto done;
	}
	pmbench_workdir_release(w);
	w->fd = fd;
	fd = -1;
done:
	if (fd >= 0)
		close(fd);
	pmbench_buf_release(&path);
	pmbench_buf_release(&info);
	return ret;
}

void pmbench_workdir_release(struct pmbench_workdir *w)
{
	/* Closing the only descriptor releases the flock. */
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
}
