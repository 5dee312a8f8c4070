#include "pmbench/common.h"

#include <dirent.h>
#include <poll.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/ctx.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/scenario.h"
#include "pmbench/workspace.h"

#define C  PMBENCH_STATE_CACHE
#define LK PMBENCH_STATE_LOCKFILE
#define NM PMBENCH_STATE_NODE_MODULES

static char *joined(const char *a, const char *b)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;

	pmbench_buf_path(&p, a, b);
	return pmbench_buf_detach(&p);
}

void pmbench_workspace_init(struct pmbench_workspace *ws,
			    const struct pmbench_pm *pm, const char *cache_dir,
			    const char *fixture_name, const char *source,
			    const char *subdir)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *home = getenv("HOME");

	memset(ws, 0, sizeof(*ws));
	ws->pm = pm;
	ws->source = pmbench_xstrdup(source);
	ws->subdir = pmbench_xstrdup(subdir ? subdir : "");
	pmbench_buf_addf(&b, "%s/work/%s/%s", cache_dir, fixture_name,
			 pmbench_pm_folder(pm));
	ws->root = pmbench_buf_detach(&b);
	ws->primed = joined(ws->root, "primed");
	ws->primed_cache = joined(ws->root, "primed-cache");
	ws->run = joined(ws->root, "run");
	ws->run_project = *ws->subdir ? joined(ws->run, ws->subdir)
				      : pmbench_xstrdup(ws->run);
	pmbench_buf_addf(&b, "%s/pm/%s", cache_dir, pmbench_pm_folder(pm));
	ws->cache = pmbench_buf_detach(&b);
	pmbench_workspace_trash(&b, cache_dir);
	ws->trash = pmbench_buf_detach(&b);
	ws->templates = joined(ws->root, "templates");
	ws->runtime = joined(ws->root, "runtime-cache");
	ws->index = pmbench_fs_index_new();
	/*
	 * The user's ~/.npmrc carries the registry, CA file and nodedir
	 * settings of this machine: the PMs get a copy in their own HOME,
	 * so they install the way the user's would, without touching it.
	 */
	if (home && *home) {
		pmbench_buf_path(&b, home, ".npmrc");
		if (pmbench_fs_isfile(b.ptr))
			ws->npmrc = pmbench_buf_detach(&b);
	}
	pmbench_buf_release(&b);
}

void pmbench_workspace_release(struct pmbench_workspace *ws)
{
	free(ws->source);
	free(ws->subdir);
	free(ws->root);
	free(ws->primed);
	free(ws->primed_cache);
	free(ws->run);
	free(ws->run_project);
	free(ws->cache);
	free(ws->trash);
	free(ws->templates);
	pmbench_fs_index_free(ws->index);
	free(ws->npmrc);
	free(ws->runtime);
	memset(ws, 0, sizeof(*ws));
}

/* A path inside the project folder of `base` (a repo copy). */
static void project_path(struct pmbench_buf *out,
			 const struct pmbench_workspace *ws, const char *base,
			 const char *name)
{
	pmbench_buf_reset(out);
	pmbench_buf_adds(out, base);
	if (*ws->subdir) {
		pmbench_buf_addch(out, '/');
		pmbench_buf_adds(out, ws->subdir);
	}
	pmbench_buf_addch(out, '/');
	pmbench_buf_adds(out, name);
}

/*
 * The shipped lockfile in `base` that is this PM's own, or NULL. yarn 1
 * and yarn 4 both write yarn.lock: the table's sniffers tell them apart.
 */
static const char *own_lockfile(const struct pmbench_workspace *ws,
				const char *base)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	const char *found = NULL;

	for (const char *const *l = ws->pm->lockfiles; *l && !found; l++) {
		project_path(&p, ws, base, *l);
		if (pmbench_pm_owns_lockfile(ws->pm, p.ptr))
			found = *l;
	}
	pmbench_buf_release(&p);
	return found;
}

static int remove_lockfiles(const struct pmbench_workspace *ws,
			    const char *base, const char *keep)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int ret = 0;

	for (const char *const *l = pmbench_pm_all_lockfiles(); *l && !ret;
	     l++) {
		if (keep && !strcmp(keep, *l))
			continue;
		project_path(&p, ws, base, *l);
		ret = pmbench_fs_discard(p.ptr, ws->trash);
	}
	pmbench_buf_release(&p);
	return ret;
}

/*
 * A PM that takes the nearest folder above with its `root_file` as its
 * project root (yarn 4 and yarn.lock) gets an empty one (no resolutions)
 * when there is no lockfile: it pins the root here without giving it a
 * lockfile.
 */
static int mark_root(const struct pmbench_workspace *ws, const char *base)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int ret = 0;

	if (ws->pm->root_file) {
		project_path(&p, ws, base, ws->pm->root_file);
		if (!pmbench_fs_exists(p.ptr))
			ret = pmbench_fs_write_atomic(p.ptr, "", 0);
	}
	pmbench_buf_release(&p);
	return ret;
}

/*
 * Move the runtime caches (pmbench_pm_tmp_cache()) of the folder `from`
 * into the folder `to` (made if need be), each replacing its namesake
 * there: renames, on one file system.
 */
static int move_runtime(const struct pmbench_workspace *ws, const char *from,
			const char *to)
{
	struct pmbench_buf a = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;
	DIR *d = opendir(from);
	struct dirent *e;
	int ret = 0;

	while (d && !ret && (e = pmbench_fs_readdir(d))) {
		if (!pmbench_pm_tmp_cache(ws->pm, e->d_name))
			continue;
		pmbench_buf_reset(&a);
		pmbench_buf_path(&a, from, e->d_name);
		pmbench_buf_reset(&b);
		pmbench_buf_path(&b, to, e->d_name);
		ret = pmbench_fs_mkdirp(to, 0755);
		if (!ret)
			ret = pmbench_fs_discard(b.ptr, ws->trash);
		if (!ret && rename(a.ptr, b.ptr) < 0)
			ret = pmbench_error_set("cannot move '%s' to '%s': %s",
						a.ptr, b.ptr, strerror(errno));
	}
	if (d)
		closedir(d);
	pmbench_buf_release(&a);
	pmbench_buf_release(&b);
	return ret;
}

/*
 * Before a run is prepared: the runtime caches lent to the last run's
 * temp folder come back, with what that run added to them.
 */
static int take_runtime(struct pmbench_workspace *ws)
{
	struct pmbench_buf tmp = PMBENCH_BUF_INIT;
	int ret = 0;

	if (ws->runtime_lent) {
		pmbench_buf_path(&tmp, ws->cache, "tmp");
		ret = move_runtime(ws, tmp.ptr, ws->runtime);
	}
	ws->runtime_lent = 0;
	pmbench_buf_release(&tmp);
	return ret;
}

/* A run whose cache is warm finds the runtime's caches warm too. */
static int lend_runtime(struct pmbench_workspace *ws)
{
	struct pmbench_buf tmp = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_path(&tmp, ws->cache, "tmp");
	ret = move_runtime(ws, ws->runtime, tmp.ptr);
	ws->runtime_lent = !ret;
	pmbench_buf_release(&tmp);
	return ret;
}

/*
 * The PM's temp folder (its TMPDIR, {cache}/tmp), empty: created before
 * every run, so nothing a run left in it (locks, shims) reaches the next
 * one. The runtime's caches are lent to it after (lend_runtime()).
 */
static int fresh_tmp(const struct pmbench_workspace *ws)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_path(&p, ws->cache, "tmp");
	ret = pmbench_fs_discard(p.ptr, ws->trash);
	if (!ret)
		ret = pmbench_fs_mkdirp(p.ptr, 0755);
	pmbench_buf_release(&p);
	return ret;
}

static int fresh_home(const struct pmbench_workspace *ws)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_path(&p, ws->cache, "home");
	ret = pmbench_fs_mkdirp(p.ptr, 0755);
	if (!ret && ws->npmrc) {
		pmbench_buf_adds(&p, "/.npmrc");
		ret = pmbench_fs_copyfile(ws->npmrc, p.ptr);
	}
	pmbench_buf_release(&p);
	return ret;
}

static int fresh_copy(const struct pmbench_workspace *ws, const char *base)
{
	int ret = pmbench_fs_discard(base, ws->trash);

	if (!ret)
		ret = pmbench_fs_copytree(
			ws->source, base,
			PMBENCH_FS_COPY_SKIP_GIT |
				PMBENCH_FS_COPY_SKIP_NODE_MODULES,
			NULL);
	return ret;
}

/*
 * A fresh copy with every lockfile but `keep`, an empty cache, HOME and
 * runtime cache.
 */
static int prepare_fresh(struct pmbench_workspace *ws, const char *keep)
{
	int ret = fresh_copy(ws, ws->run);

	ws->runtime_lent = 0;
	if (!ret)
		ret = pmbench_fs_discard(ws->runtime, ws->trash);
	if (!ret)
		ret = remove_lockfiles(ws, ws->run, keep);
	if (!ret)
		ret = mark_root(ws, ws->run);
	if (!ret)
		ret = pmbench_fs_discard(ws->cache, ws->trash);
	if (!ret)
		ret = fresh_home(ws);
	if (!ret)
		ret = fresh_tmp(ws);
	return ret;
}

int pmbench_workspace_prepare_prime(struct pmbench_workspace *ws,
				    const char **out_shipped)
{
	*out_shipped = own_lockfile(ws, ws->source);
	return prepare_fresh(ws, *out_shipped);
}

int pmbench_workspace_prepare_migrate(struct pmbench_workspace *ws,
				      const char *keep)
{
	return prepare_fresh(ws, keep);
}

int pmbench_workspace_save_primed(struct pmbench_workspace *ws)
{
	struct pmbench_buf tmp = PMBENCH_BUF_INIT;
	int ret;

	/*
	 * The temp folder is no cache: the snapshot goes without it, its
	 * runtime caches to `runtime`, for the runs with a warm cache.
	 */
	pmbench_buf_path(&tmp, ws->cache, "tmp");
	ws->runtime_lent = 0;
	ret = pmbench_fs_discard(ws->runtime, ws->trash);
	if (!ret)
		ret = move_runtime(ws, tmp.ptr, ws->runtime);
	if (!ret)
		ret = pmbench_fs_discard(tmp.ptr, ws->trash);
	pmbench_buf_release(&tmp);
	if (!ret)
		ret = pmbench_fs_discard(ws->primed, ws->trash);
	if (!ret)
		ret = pmbench_fs_discard(ws->primed_cache, ws->trash);
	/* Made from the old snapshot: */
	if (!ret)
		ret = pmbench_fs_discard(ws->templates, ws->trash);
	if (!ret && rename(ws->run, ws->primed) < 0)
		ret = pmbench_error_set("cannot move '%s' to '%s': %s", ws->run,
					ws->primed, strerror(errno));
	if (!ret && rename(ws->cache, ws->primed_cache) < 0)
		ret = pmbench_error_set("cannot move '%s' to '%s': %s",
					ws->cache, ws->primed_cache,
					strerror(errno));
	return ret;
}

const char *pmbench_workspace_run_lockfile(const struct pmbench_workspace *ws)
{
	return own_lockfile(ws, ws->run);
}

const char *
pmbench_workspace_primed_lockfile(const struct pmbench_workspace *ws)
{
	return own_lockfile(ws, ws->primed);
}

/*
 * The "node_modules" state: every primed node_modules folder and the
 * PM's install-state files. A PM that makes no node_modules (yarn's
 * Plug'n'Play) has only its state files (.pnp.cjs, .yarn/unplugged,
 * ...), which the priming must have left.
 */
static int restore_node_modules(const struct pmbench_workspace *ws,
				const char *base, unsigned flags)
{
	struct pmbench_strvec dirs = PMBENCH_STRVEC_INIT;
	struct pmbench_buf from = PMBENCH_BUF_INIT, to = PMBENCH_BUF_INIT;
	int none = ws->pm->caps & PMBENCH_PM_NO_NODE_MODULES;
	int ret =
		none ? 0
		     : pmbench_fs_find_dirs(&dirs, ws->primed, "node_modules");
	size_t restored = 0;

	if (!ret && !dirs.nr && !none)
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "%s's priming install left no "
					 "node_modules to restore",
					 ws->pm->name);
	for (size_t i = 0; i < dirs.nr && !ret; i++) {
		pmbench_buf_reset(&from);
		pmbench_buf_path(&from, ws->primed, dirs.v[i]);
		pmbench_buf_reset(&to);
		pmbench_buf_path(&to, base, dirs.v[i]);
		ret = pmbench_fs_copytree(from.ptr, to.ptr, flags, NULL);
	}
	for (const char *const *s = ws->pm->state_paths; *s && !ret; s++) {
		project_path(&from, ws, ws->primed, *s);
		if (!pmbench_fs_exists(from.ptr))
			continue;
		project_path(&to, ws, base, *s);
		ret = pmbench_fs_discard(to.ptr, ws->trash);
		if (!ret)
			ret = pmbench_fs_copytree(from.ptr, to.ptr, flags,
						  NULL);
		restored++;
	}
	if (!ret && none && !restored) {
		pmbench_buf_reset(&from);
		for (const char *const *s = ws->pm->state_paths; *s; s++)
			pmbench_buf_addf(&from, "%s%s", from.len ? ", " : "",
					 *s);
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "%s's priming install left none of "
					 "its install state (%s) to restore",
					 ws->pm->name, from.ptr);
	}
	pmbench_strvec_release(&dirs);
	pmbench_buf_release(&from);
	pmbench_buf_release(&to);
	return ret;
}

/*
 * The run copy of a state, built once per primed snapshot: the source
 * without node_modules, .git or any lockfile; the primed lockfile (LK)
 * or the root marker; the primed node_modules and install state (NM),
 * hard links to the snapshot's files (nothing writes in a template).
 */
static int build_template(const struct pmbench_workspace *ws, unsigned state,
			  const char *dest)
{
	struct pmbench_buf tmp = PMBENCH_BUF_INIT;
	struct pmbench_buf from = PMBENCH_BUF_INIT, to = PMBENCH_BUF_INIT;
	const char *lock;
	int ret;

	pmbench_buf_addf(&tmp, "%s.tmp", dest);
	ret = fresh_copy(ws, tmp.ptr);
	if (!ret)
		ret = remove_lockfiles(ws, tmp.ptr, NULL);
	if (!ret && (state & LK)) {
		lock = own_lockfile(ws, ws->primed);
		if (!lock) {
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "%s wrote no lockfile when "
						 "primed",
						 ws->pm->name);
			goto done;
		}
		project_path(&from, ws, ws->primed, lock);
		project_path(&to, ws, tmp.ptr, lock);
		ret = pmbench_fs_copyfile(from.ptr, to.ptr);
	}
	if (!ret && !(state & LK))
		ret = mark_root(ws, tmp.ptr);
	if (!ret && (state & NM))
		ret = restore_node_modules(ws, tmp.ptr, PMBENCH_FS_COPY_LINK);
	if (!ret && rename(tmp.ptr, dest) < 0)
		ret = pmbench_error_set("cannot rename '%s' to '%s': %s",
					tmp.ptr, dest, strerror(errno));
done:
	if (ret < 0 && pmbench_fs_discard(tmp.ptr, ws->trash) < 0)
		pmbench_error_clear();
	pmbench_buf_release(&tmp);
	pmbench_buf_release(&from);
	pmbench_buf_release(&to);
	return ret;
}

int pmbench_workspace_prepare(struct pmbench_workspace *ws, unsigned state)
{
	struct pmbench_fs_linkmap *links = pmbench_fs_linkmap_new();
	struct pmbench_buf tmpl = PMBENCH_BUF_INIT;
	int ret = 0;

	/* The cache is no part of the run copy: one template serves both. */
	pmbench_buf_path(&tmpl, ws->templates,
			 pmbench_scenario_name(state & ~C));
	ret = take_runtime(ws);
	if (!ret && !pmbench_fs_isdir(tmpl.ptr))
		ret = build_template(ws, state & ~C, tmpl.ptr);
	/* The cache first: node_modules files may be hard links into it. */
	if (!ret && (state & C)) {
		ret = pmbench_fs_synctree(ws->primed_cache, ws->cache, 0, links,
					  ws->index, ws->trash);
	} else if (!ret) {
		ret = pmbench_fs_discard(ws->cache, ws->trash);
		if (!ret)
			ret = fresh_home(ws);
	}
	if (!ret)
		ret = fresh_tmp(ws);
	if (!ret && (state & C))
		ret = lend_runtime(ws);
	if (!ret)
		ret = pmbench_fs_synctree(tmpl.ptr, ws->run, 0, links,
					  ws->index, ws->trash);
	pmbench_fs_index_commit(ws->index);
	pmbench_fs_linkmap_free(links);
	pmbench_buf_release(&tmpl);
	return ret;
}

int pmbench_workspace_node_modules(const struct pmbench_workspace *ws,
				   uint64_t *out_bytes, uint64_t *out_files)
{
	struct pmbench_strvec dirs = PMBENCH_STRVEC_INIT;
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int ret = pmbench_fs_find_dirs(&dirs, ws->run, "node_modules");

	*out_bytes = 0;
	*out_files = 0;
	for (size_t i = 0; i < dirs.nr && !ret; i++) {
		struct pmbench_fs_usage u;

		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, ws->run, dirs.v[i]);
		ret = pmbench_fs_usage(&u, p.ptr);
		*out_bytes += u.disk_bytes;
		*out_files += u.files;
	}
	pmbench_strvec_release(&dirs);
	pmbench_buf_release(&p);
	return ret;
}

int pmbench_workspace_clean_run(struct pmbench_workspace *ws)
{
	return pmbench_fs_discard(ws->run, ws->trash);
}

void pmbench_workspace_trash(struct pmbench_buf *out, const char *cache_dir)
{
	pmbench_buf_reset(out);
	pmbench_buf_path(out, cache_dir, "trash");
}

void pmbench_workspace_discard_all(const struct pmbench_workspace *ws)
{
	/* Work copies can be large; the checkout stays for reuse. */
	if (pmbench_fs_discard(ws->root, ws->trash) < 0 ||
	    pmbench_fs_discard(ws->cache, ws->trash) < 0)
		pmbench_error_clear();
}
