/*
 * Moving bytes: all of a buffer to a descriptor, the rest of one
 * descriptor to another, a whole file into a buffer.
 *
 * copy_file_range() is a GNU extension in glibc's headers; common.h leaves
 * the feature-test macros alone when _GNU_SOURCE is already defined.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "pmbench/common.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"

#include "internal.h"

#define COPY_CHUNK (128 * 1024)

int fs_write_all(int fd, const char *data, size_t len)
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

#if defined(__linux__)
/*
 * Copy with copy_file_range(2). Returns 1 when all was copied, 0 when
 * read() and write() should take over, or -1 with errno set.
 */
static int copy_in_kernel(int in, int out)
{
	for (int first = 1;; first = 0) {
		ssize_t n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0)
			continue;
		if (!n && !first)
			return 1;
		/*
		 * Nothing copied on the first call may be a file system
		 * (procfs, some FUSE) that does not support it; the offsets
		 * are consistent, so read() and write() can take over.
		 */
		if (n < 0 && errno != EXDEV && errno != ENOSYS &&
		    errno != EINVAL && errno != EOPNOTSUPP &&
		    errno != ENOTSUP && errno != EBADF && errno != EPERM &&
		    errno != ETXTBSY)
			return -1;
		return 0;
	}
}
#endif

/* Copy with read(2) and write(2), a chunk at a time. */
static int copy_by_chunks(int in, int out, int *failed_read)
{
	char *chunk = pmbench_xmalloc(COPY_CHUNK);
	int ret = -1;

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
		if (fs_write_all(out, chunk, (size_t)n) < 0)
			goto done;
	}
	ret = 0;

done:
	free(chunk);
	return ret;
}

int fs_copy_data(int in, int out, int *failed_read)
{
	*failed_read = 0;
#if defined(__linux__)
	switch (copy_in_kernel(in, out)) {
	case 1:
		return 0;
	case -1:
		return -1;
	}
#endif
	return copy_by_chunks(in, out, failed_read);
}

/*
 * Append what is left of `fd` to `out` (which held `start` bytes before),
 * refusing more than `max` bytes in all: never reads more than one byte
 * past the limit.
 */
static int read_capped(struct pmbench_buf *out, int fd, size_t start,
		       size_t max, const char *path)
{
	for (;;) {
		size_t left = max - (out->len - start);
		size_t room;
		ssize_t n;

		pmbench_buf_grow(out, 8192);
		room = out->alloc - out->len - 1;
		if (room - 1 > left)
			room = left + 1;
		n = read(fd, out->ptr + out->len, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return pmbench_error_set("cannot read '%s': %s", path,
						 strerror(errno));
		if (!n)
			return 0;
		out->len += (size_t)n;
		out->ptr[out->len] = '\0';
		if (out->len - start > max)
			return pmbench_error_set("cannot read '%s': it is "
						 "larger than %zu bytes",
						 path, max);
	}
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
	ret = read_capped(out, fd, start, max, path);

done:
	if (ret < 0)
		pmbench_buf_setlen(out, start);
	if (fd >= 0)
		close(fd);
	return ret;
}

/* What the file `path` holds, by its name's ending, for messages. */
static const char *text_kind(const char *path)
{
	static const char *const kinds[][2] = {
		{ ".json", "JSON" },	 { ".yaml", "YAML" },
		{ ".yml", "YAML" },	 { ".toml", "TOML" },
		{ ".lock", "lockfile" },
	};
	size_t n = strlen(path);

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(kinds); i++) {
		size_t k = strlen(kinds[i][0]);

		if (n >= k && !strcmp(path + n - k, kinds[i][0]))
			return kinds[i][1];
	}
	return "text";
}

int pmbench_fs_read_text(struct pmbench_buf *out, const char *path, size_t max)
{
	size_t start = out->len;
	int ret = pmbench_fs_read(out, path, max);

	if (ret < 0)
		return ret;
	if (strlen(out->ptr + start) != out->len - start) {
		pmbench_buf_setlen(out, start);
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "'%s': malformed %s (the file "
					  "contains a NUL byte)",
					  path, text_kind(path));
	}
	return 0;
}
