/*
 * Where pmbench's default folders are (where.h): the source tree's, for
 * a binary of a build tree, else the installed layout's and the user's
 * cache folder, both found from the binary's own path at run time.
 */
#include "pmbench/common.h"

#include <pwd.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "where.h"

/* From the folder of the binary to the data folder, as installed. */
#ifndef PMBENCH_BIN_TO_DATA
#define PMBENCH_BIN_TO_DATA "../share"
#endif
/* The installed binary's folder, when /proc/self/exe cannot be read. */
#ifndef PMBENCH_INSTALL_BINDIR
#define PMBENCH_INSTALL_BINDIR "/usr/local/bin"
#endif

/* The folder of the running binary into `out`; 0, or -1. */
static int exe_dir(struct pmbench_buf *out)
{
	char *slash;

	if (pmbench_fs_realpath(out, "/proc/self/exe") < 0) {
		pmbench_error_clear();
		return -1;
	}
	slash = strrchr(out->ptr, '/');
	if (!slash)
		return -1;
	pmbench_buf_setlen(out,
			   slash > out->ptr ? (size_t)(slash - out->ptr) : 1);
	return 0;
}

/*
 * The source tree that the build tree `dir`'s marker leads to, into
 * `out`; 0, or -1 when `dir` is no build tree or its source tree is gone
 * (the build folder copied alone).
 */
static int source_tree(struct pmbench_buf *out, const char *dir)
{
	struct pmbench_buf marker = PMBENCH_BUF_INIT, way = PMBENCH_BUF_INIT;
	int ret = -1;

	pmbench_buf_path(&marker, dir, PMBENCH_TREE_MARKER);
	if (pmbench_fs_read_text(&way, marker.ptr, 4096) < 0) {
		pmbench_error_clear();
		goto done;
	}
	pmbench_buf_setlen(&way, strcspn(way.ptr, "\n"));
	pmbench_buf_reset(out);
	if (way.ptr[0] != '/')
		pmbench_buf_path(out, dir, way.ptr);
	else
		pmbench_buf_adds(out, way.ptr);
	pmbench_fs_abspath(out, out->ptr);
	if (pmbench_fs_isdir(out->ptr))
		ret = 0;
done:
	pmbench_buf_release(&marker);
	pmbench_buf_release(&way);
	return ret;
}

/* $XDG_CACHE_HOME/pmbench, else ~/.cache/pmbench, into `out`. */
static void user_cache(struct pmbench_buf *out)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");

	pmbench_buf_reset(out);
	/* The XDG spec: a relative path is invalid and is ignored. */
	if (xdg && xdg[0] == '/') {
		pmbench_buf_path(out, xdg, "pmbench");
		return;
	}
	if (!home || home[0] != '/') {
		struct passwd *pw = getpwuid(getuid());

		home = pw && pw->pw_dir ? pw->pw_dir : "/";
	}
	pmbench_buf_addf(out, "%s/.cache/pmbench", home);
	pmbench_fs_abspath(out, out->ptr);
}

/* `name` below `dir`, a new string. */
static char *below(const char *dir, const char *name)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_path(&b, dir, name);
	pmbench_fs_abspath(&b, b.ptr);
	return pmbench_buf_detach(&b);
}

void pmbench_where_find(struct pmbench_where *w)
{
	struct pmbench_buf dir = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;

	pmbench_where_release(w);
	if (exe_dir(&dir) < 0) {
		pmbench_buf_reset(&dir);
		pmbench_buf_adds(&dir, PMBENCH_INSTALL_BINDIR);
	}
	if (!source_tree(&b, dir.ptr)) {
		w->cache_dir = below(b.ptr, "cache");
		w->fixtures_dir = below(b.ptr, "fixtures");
		w->setup = below(b.ptr, "ci/setup");
	} else {
		user_cache(&b);
		w->cache_dir = pmbench_buf_detach(&b);
		pmbench_buf_path(&b, PMBENCH_BIN_TO_DATA, "pmbench/fixtures");
		w->fixtures_dir = below(dir.ptr, b.ptr);
		w->setup = below(dir.ptr, "pmbench-setup");
	}
	pmbench_buf_release(&dir);
	pmbench_buf_release(&b);
}

void pmbench_where_release(struct pmbench_where *w)
{
	free(w->cache_dir);
	free(w->fixtures_dir);
	free(w->setup);
	w->cache_dir = NULL;
	w->fixtures_dir = NULL;
	w->setup = NULL;
}
