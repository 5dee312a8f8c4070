/*
 * Paths: their absolute and canonical forms, whether one is inside
 * another, folder creation and the simple questions about what is there.
 */
#include "pmbench/common.h"

#include <sys/stat.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"

#include "internal.h"

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

int fs_resolve_prefix(struct pmbench_buf *out, const char *path)
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

int fs_strictly_inside(const char *root, const char *path)
{
	size_t rl = strlen(root);

	if (rl == 1 && root[0] == '/')
		return path[0] == '/' && path[1] != '\0';
	return !strncmp(path, root, rl) && path[rl] == '/' &&
	       path[rl + 1] != '\0';
}

int pmbench_fs_is_inside(const char *root, const char *path)
{
	struct pmbench_buf r = PMBENCH_BUF_INIT;
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int ret;

	ret = fs_resolve_prefix(&r, root);
	if (ret < 0)
		goto done;
	ret = fs_resolve_prefix(&p, path);
	if (ret < 0)
		goto done;
	ret = fs_strictly_inside(r.ptr, p.ptr);

done:
	pmbench_buf_release(&p);
	pmbench_buf_release(&r);
	return ret;
}

void fs_path_push(struct pmbench_buf *path, const char *name)
{
	if (path->len && path->ptr[path->len - 1] != '/')
		pmbench_buf_addch(path, '/');
	pmbench_buf_adds(path, name);
}

void fs_dirname(struct pmbench_buf *out, const char *path)
{
	const char *slash = strrchr(path, '/');

	pmbench_buf_reset(out);
	if (!slash)
		pmbench_buf_adds(out, ".");
	else
		pmbench_buf_add(out, path,
				slash == path ? 1 : (size_t)(slash - path));
}

int fs_readlink_at(struct pmbench_buf *out, int dfd, const char *name)
{
	size_t size = 256;
	char *target = NULL;
	ssize_t n;

	for (;;) {
		target = pmbench_xrealloc(target, size);
		n = readlinkat(dfd, name, target, size);
		if (n < 0 || (size_t)n < size)
			break;
		size = pmbench_st_mult(size, 2);
	}
	if (n < 0) {
		int err = errno;

		free(target);
		errno = err;
		return -1;
	}
	pmbench_buf_reset(out);
	pmbench_buf_add(out, target, (size_t)n);
	free(target);
	return 0;
}

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
