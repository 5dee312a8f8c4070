/*
 * Finding a PM on this machine (pmfind.h): beside the Node in use, in
 * the pinned toolchain, then on PATH, each candidate asked its version
 * under the Node it will run under, the first within its entry's major
 * versions taken.
 */
#include "pmbench/common.h"

#include "pmbench/ctx.h"
#include "pmbench/fs.h"
#include "pmbench/node.h"
#include "pmbench/pmfind.h"
#include "pmbench/pmversion.h"
#include "pmbench/proc.h"

/*
 * The version in the first line of a PM's answer: after the table's
 * prefix ("deno "), its first word ("2.9.6" of "2.9.6 (stable, ...)").
 */
static void version_word(struct pmbench_buf *line, const struct pmbench_pm *pm)
{
	const char *p = line->ptr;
	size_t n = pm->version_prefix ? strlen(pm->version_prefix) : 0;
	char *word;

	if (n && !strncmp(p, pm->version_prefix, n))
		p += n;
	while (*p == ' ')
		p++;
	if (!*p)
		return;
	word = pmbench_xstrndup(p, strcspn(p, " \t"));
	pmbench_buf_reset(line);
	pmbench_buf_adds(line, word);
	free(word);
}

/* Whether `pm` is a release asked for, not the pinned one. */
static int versioned(const struct pmbench_pm *pm)
{
	return pm->version && strcmp(pm->version, PMBENCH_PM_PINNED);
}

/* Did exec refuse the binary itself (missing, not executable)? */
static int unrunnable(int err)
{
	return err == ENOENT || err == EACCES || err == ENOEXEC ||
	       err == ENOTDIR || err == ELOOP || err == ENAMETOOLONG;
}

/*
 * A candidate that gave no version: 1, unless pmbench's own folder is on
 * a full disk, where any PM fails (the fake npm cannot write its temp
 * file): then an error that says so, not that the PM was not found.
 */
static int no_version(const char *bin, const char *scratch)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	int ret = 1;

	if (pmbench_fs_full(&why, scratch))
		ret = pmbench_error_set("cannot ask '%s' its version: %s; free "
					"some space there",
					bin, why.ptr);
	pmbench_buf_release(&why);
	return ret;
}

/*
 * Ask a candidate binary for its version (`known`: the version its
 * release is installed as, or NULL), in the environment a run gives it:
 * 0 and the version; 1 when it gives none (it fails, or is no program);
 * a negative error (set) when pmbench could not ask it (its temp folder
 * cannot be made, a full disk, a spawn that failed for another reason,
 * Ctrl-C).
 */
static int query_version(struct pmbench_buf *out, const struct pmbench_ctx *ctx,
			 const char *bin, const struct pmbench_pm *pm,
			 const char *scratch, const char *known)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf tmp = PMBENCH_BUF_INIT;
	int ret;

	pmbench_strvec_push(&c.args, bin);
	pmbench_strvec_pushv(&c.args, pm->version_args);
	pmbench_pm_env(&c.env, pm, scratch);
	/* Less what a release that old does not know, as in a run. */
	pmbench_pm_env_older(&c.env, pm, known);
	/* Under the Node it will run under (a JS bin's shebang). */
	pmbench_node_path_env(&c.env, ctx, NULL);
	c.dir = scratch;
	c.ctx = ctx;
	c.timeout_ns = 60ull * 1000000000ull;
	/* Its TMPDIR ({cache}/tmp) must exist: some write there at once. */
	pmbench_buf_path(&tmp, scratch, "tmp");
	ret = pmbench_fs_mkdirp(tmp.ptr, 0755);
	if (ret < 0)
		goto done;
	ret = pmbench_child_run(&c);
	if (ret < 0 && !unrunnable(c.result.spawn_errno))
		goto done;
	if (ret < 0 || c.result.exit_code != 0) {
		pmbench_error_clear();
		ret = no_version(bin, scratch);
		goto done;
	}
	pmbench_child_tail_lines(&c, 64, out);
	/* Keep the first line only ("deno 2.9.6 (stable, ...)"). */
	pmbench_buf_setlen(out, strcspn(out->ptr, "\n"));
	pmbench_buf_rtrim(out);
	version_word(out, pm);
	ret = out->len ? 0 : 1;
done:
	pmbench_child_release(&c);
	pmbench_buf_release(&tmp);
	return ret;
}

/*
 * The candidate `bin` (`known`: the version it is installed as, or
 * NULL): 0 when it is taken (into `out`), 1 when it is not (`why` says
 * why), a negative error when it could not be asked.
 */
static int accept_candidate(struct pmbench_pm_found *out,
			    const struct pmbench_ctx *ctx,
			    const struct pmbench_pm *pm, const char *bin,
			    const char *source, const char *scratch,
			    const char *known, struct pmbench_buf *why)
{
	struct pmbench_buf v = PMBENCH_BUF_INIT;
	int major, ret = query_version(&v, ctx, bin, pm, scratch, known);

	if (ret) {
		if (ret > 0)
			pmbench_buf_addf(why, "; '%s' did not answer --version",
					 bin);
		goto done;
	}
	ret = 1;
	major = pmbench_pm_version_major(v.ptr);
	/* A release asked for is what it is (the versions folder's). */
	if (!versioned(pm) &&
	    (major < pm->major_min || major > pm->major_max)) {
		pmbench_buf_addf(why, "; '%s' is version %s", bin, v.ptr);
		goto done;
	}
	out->pm = pm;
	out->path = pmbench_xstrdup(bin);
	out->version = pmbench_buf_detach(&v);
	out->source = source;
	ret = 0;
done:
	pmbench_buf_release(&v);
	return ret;
}

/*
 * The installed release `rel` of `pm`, taken as accept_candidate() takes
 * one; a folder of pmbench's own whose binary does not answer --version
 * (laid out by an older pmbench) is installed again, once, and asked
 * again.
 */
static int accept_release(struct pmbench_pm_found *out, struct pmbench_ctx *ctx,
			  const struct pmbench_pm *pm,
			  struct pmbench_pm_release *rel, const char *scratch,
			  struct pmbench_buf *why)
{
	int ret = accept_candidate(out, ctx, pm, rel->bin, "versions", scratch,
				   rel->version, why);

	if (ret <= 0 || !rel->own || !ctx)
		return ret;
	ret = pmbench_pm_release_reinstall(ctx, pm, rel);
	if (ret < 0)
		return ret;
	pmbench_pm_release_release(rel);
	if (pmbench_pm_release_find(rel, ctx->toolchain_dir, pm, NULL))
		return 1;
	pmbench_buf_reset(why);
	return accept_candidate(out, ctx, pm, rel->bin, "versions", scratch,
				rel->version, why);
}

/*
 * A release asked for (`pnpm@9`): the newest installed one in its range,
 * from the toolchain's versions folder only.
 */
static int find_release(struct pmbench_pm_found *out, struct pmbench_ctx *ctx,
			const struct pmbench_pm *pm, const char *scratch_dir)
{
	struct pmbench_pm_release rel = PMBENCH_PM_RELEASE_INIT;
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	const char *tc = ctx ? ctx->toolchain_dir : NULL;
	int ret = pmbench_pm_release_find(&rel, tc, pm, NULL);

	if (!ret)
		ret = accept_release(out, ctx, pm, &rel, scratch_dir, &why);
	if (ret > 0)
		ret = pmbench_error_setc(PMBENCH_ENOTFOUND,
					 "%s not found (no release in %s/"
					 "versions satisfies '%s'%s)",
					 pm->name, tc ? tc : "-", pm->version,
					 why.ptr);
	pmbench_pm_release_release(&rel);
	pmbench_buf_release(&why);
	return ret;
}

int pmbench_pm_find(struct pmbench_pm_found *out, struct pmbench_ctx *ctx,
		    const struct pmbench_pm *pm, const char *path,
		    const char *scratch_dir)
{
	const char *toolchain_dir = ctx ? ctx->toolchain_dir : NULL;
	struct pmbench_buf bin = PMBENCH_BUF_INIT, why = PMBENCH_BUF_INIT;
	struct pmbench_buf cand = PMBENCH_BUF_INIT;
	int ret = 1;

	if (versioned(pm))
		return find_release(out, ctx, pm, scratch_dir);
	/* npm as a Node installation has it, beside the Node in use. */
	if (pm->node_bin && ctx && ctx->node_dir) {
		pmbench_buf_path(&cand, ctx->node_dir, pm->node_bin);
		if (pmbench_fs_isfile(cand.ptr))
			ret = accept_candidate(out, ctx, pm, cand.ptr, "node",
					       scratch_dir, NULL, &why);
	}
	if (ret > 0 && pm->toolchain_bin && toolchain_dir) {
		pmbench_buf_reset(&cand);
		pmbench_buf_path(&cand, toolchain_dir, pm->toolchain_bin);
		if (!pmbench_proc_which(&bin, cand.ptr, NULL))
			ret = accept_candidate(out, ctx, pm, bin.ptr,
					       "toolchain", scratch_dir, NULL,
					       &why);
	}
	for (const char *const *n = pm->path_names; ret > 0 && *n; n++)
		if (!pmbench_proc_which(&bin, *n, path))
			ret = accept_candidate(out, ctx, pm, bin.ptr, "PATH",
					       scratch_dir, NULL, &why);
	if (ret > 0)
		ret = pmbench_error_setc(
			PMBENCH_ENOTFOUND,
			"%s not found (looked in %s/%s and on PATH%s); run "
			"'%s' to install the pinned toolchain",
			pm->name, toolchain_dir ? toolchain_dir : "-",
			pm->toolchain_bin ? pm->toolchain_bin : "-", why.ptr,
			pmbench_ctx_setup(ctx));
	pmbench_buf_release(&bin);
	pmbench_buf_release(&why);
	pmbench_buf_release(&cand);
	return ret;
}

int pmbench_pm_find_at(struct pmbench_pm_found *out,
		       const struct pmbench_ctx *ctx,
		       const struct pmbench_pm *pm, const char *bin,
		       const char *source, const char *scratch_dir)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	int ret = accept_candidate(out, ctx, pm, bin, source, scratch_dir, NULL,
				   &why);

	if (ret > 0)
		ret = pmbench_error_setc(PMBENCH_ENOTFOUND, "%s is no %s%s",
					 bin, pm->name, why.ptr);
	pmbench_buf_release(&why);
	return ret;
}

void pmbench_pm_found_release(struct pmbench_pm_found *f)
{
	free(f->path);
	free(f->version);
	f->pm = NULL;
	f->path = NULL;
	f->version = NULL;
	f->source = NULL;
}
