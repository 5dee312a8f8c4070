/*
 * ci-cache's setup step (cisetup.h): a simulated CI job getting its PM
 * as CI does, before it restores or installs anything. A PM that comes
 * with Node (npm) is preinstalled, as GitHub's runner images ship it;
 * any other is installed per job with `npm install --global
 * <package>@<version>` (pnpm, yarn, @yarnpkg/cli-dist, bun's and deno's
 * npm packages, whose platform binaries are their optional dependencies)
 * from the registry the PMs are pointed at, into a fresh prefix with an
 * empty npm cache, as a job without a toolchain cache does.
 */
#include "pmbench/common.h"

#include "cisetup.h"
#include "pmbench/ctx.h"
#include "pmbench/fs.h"
#include "pmbench/proc.h"
#include "pmbench/registry.h"

int pmbench_cisetup_preinstalled(const struct pmbench_pm *pm)
{
	return pmbench_pm_base(pm)->node_bin != NULL;
}

/* The package a PM is published as ("@yarnpkg/cli-dist"). */
static const char *package_of(const struct pmbench_pm *pm)
{
	const struct pmbench_pm *base = pmbench_pm_base(pm);

	return base->npm_package ? base->npm_package : base->name;
}

/* The package and version the setup installs: "pnpm@10.12.4". */
static void setup_spec(struct pmbench_buf *out, const struct pmbench_pmrun *ps)
{
	pmbench_buf_addf(out, "%s@%s", package_of(ps->pm),
			 ps->found.version ? ps->found.version : "latest");
}

void pmbench_cisetup_describe(struct pmbench_buf *out,
			      const struct pmbench_pmrun *ps)
{
	if (pmbench_cisetup_preinstalled(ps->pm)) {
		pmbench_buf_addf(out,
				 "preinstalled: %s comes with Node, as the "
				 "runner images ship it (0 s)",
				 pmbench_pm_base(ps->pm)->name);
		return;
	}
	pmbench_buf_adds(out, "`npm install --global ");
	setup_spec(out, ps);
	pmbench_buf_adds(out, "` from the registry the PMs use, into a fresh "
			      "prefix with an empty npm cache; the toolchain "
			      "strategy restores that prefix instead (its "
			      "own archive, keyed on the PM's version)");
}

void pmbench_cisetup_prefix(struct pmbench_buf *out, const char *root)
{
	pmbench_buf_path(out, root, "toolchain");
}

/*
 * The command and its environment: the PM's (a job's in CI mode under
 * --ci, the priming's not), npm pointed at the mirror, a temp folder of
 * the setup's own.
 */
static void setup_child(struct pmbench_child *c, const struct pmbench_pmrun *ps,
			const char *npm, const char *prefix, const char *cache,
			const char *tmp)
{
	struct pmbench_buf spec = PMBENCH_BUF_INIT;
	static const char *const registry[] = {
		"npm_config_registry={registry}", NULL
	};

	setup_spec(&spec, ps);
	pmbench_strvec_push(&c->args, npm);
	pmbench_strvec_pushv(
		&c->args,
		(const char *const[]){ "install", "--global", "--prefix",
				       prefix, "--cache", cache, "--no-audit",
				       "--no-fund", "--loglevel=error", NULL });
	pmbench_strvec_push(&c->args, spec.ptr);
	pmbench_pmrun_push_env(&c->env, ps);
	pmbench_registry_pm_env(ps->ctx->registry, &c->env, registry);
	pmbench_buf_reset(&spec);
	pmbench_buf_addf(&spec, "TMPDIR=%s", tmp);
	pmbench_strvec_push(&c->env, spec.ptr);
	pmbench_buf_release(&spec);
}

/* Whether the prefix holds the package: npm installed it. */
static int setup_landed(const struct pmbench_pmrun *ps, const char *prefix)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int ok;

	pmbench_buf_addf(&b, "%s/lib/node_modules/%s/package.json", prefix,
			 package_of(ps->pm));
	ok = pmbench_fs_exists(b.ptr);
	pmbench_buf_release(&b);
	return ok;
}

int pmbench_cisetup_install(uint64_t *ns, struct pmbench_buf *why,
			    const struct pmbench_pmrun *ps, const char *npm,
			    const char *root, uint64_t timeout_ns)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf prefix = PMBENCH_BUF_INIT;
	struct pmbench_buf cache = PMBENCH_BUF_INIT, tmp = PMBENCH_BUF_INIT;
	int ret;

	*ns = 0;
	pmbench_cisetup_prefix(&prefix, root);
	pmbench_buf_path(&cache, root, "npm-cache");
	pmbench_buf_path(&tmp, root, "tmp");
	ret = pmbench_fs_discard(root, ps->ws.trash);
	if (!ret)
		ret = pmbench_fs_mkdirp(prefix.ptr, 0755);
	if (!ret)
		ret = pmbench_fs_mkdirp(tmp.ptr, 0700);
	if (ret < 0)
		goto done;
	setup_child(&c, ps, npm, prefix.ptr, cache.ptr, tmp.ptr);
	c.dir = root;
	c.ctx = ps->ctx;
	c.timeout_ns = timeout_ns;
	ret = pmbench_child_run(&c);
	if (ret < 0)
		goto done;
	*ns = c.result.wall_ns;
	if (c.result.exit_code || c.result.signal) {
		pmbench_buf_addf(why,
				 "setup `npm install --global` exited %d: %s",
				 c.result.exit_code, c.tail.ptr);
		pmbench_buf_rtrim(why);
		ret = 1;
	} else if (!setup_landed(ps, prefix.ptr)) {
		pmbench_buf_addf(why,
				 "setup: npm exited 0 but '%s' holds no "
				 "lib/node_modules/%s",
				 prefix.ptr, package_of(ps->pm));
		ret = 1;
	}
done:
	pmbench_child_release(&c);
	pmbench_buf_release(&prefix);
	pmbench_buf_release(&cache);
	pmbench_buf_release(&tmp);
	return ret;
}
