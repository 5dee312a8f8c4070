#include "pmbench/common.h"

#include <ctype.h>

#include "pmbench/fs.h"
#include "pmbench/ctx.h"
#include "pmbench/pm.h"
#include "pmbench/proc.h"

#define L(...) ((const char *const[]){ __VA_ARGS__, NULL })

/*
 * Every child runs with HOME and the XDG folders inside its own cache
 * folder, so that a cache no variable below redirects still cannot land
 * in the user's home. The temp folder is the PM's own too (created and
 * emptied before every run, never part of the cache state): real PMs
 * leave files there (pnpm's store locks, V8's compile cache) that must
 * reach neither the system's temp folder nor another PM's run. CI
 * detection is switched off (the scenario, not the caller's environment,
 * decides about frozen lockfiles), and so are colour, progress bars,
 * update checks and prompts.
 */
static const char *const common_env[] = {
	"HOME={home}",
	"TMPDIR={cache}/tmp",
	"TMP={cache}/tmp",
	"TEMP={cache}/tmp",
	"XDG_CACHE_HOME={home}/.cache",
	"XDG_DATA_HOME={home}/.local/share",
	"XDG_STATE_HOME={home}/.local/state",
	"XDG_CONFIG_HOME={home}/.config",
	"NO_COLOR=1",
	"FORCE_COLOR=0",
	"NO_UPDATE_NOTIFIER=1",
	"npm_config_update_notifier=false",
	"COREPACK_ENABLE_STRICT=0",
	"COREPACK_ENABLE_AUTO_PIN=0",
	"COREPACK_ENABLE_DOWNLOAD_PROMPT=0",
	"DO_NOT_TRACK=1",
	"ADBLOCK=1",
	"DISABLE_OPENCOLLECTIVE=1",
	"BROWSER=none",
	NULL
};

const char *const pmbench_ci_vars[] = {
	"CI", "CONTINUOUS_INTEGRATION", "BUILD_NUMBER", "RUN_ID",
	"GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "CIRCLECI", "TRAVIS",
	"JENKINS_URL", "TF_BUILD", "CODEBUILD_BUILD_ID", "TEAMCITY_VERSION",
	"APPVEYOR", "DRONE", "SEMAPHORE", "NETLIFY", "VERCEL", "NOW_BUILDER",
	"BITBUCKET_COMMIT", "HEROKU_TEST_RUN_ID", "CI_NAME", "BUILD_ID",
	"npm_config_ci", NULL
};

const char *const pmbench_all_lockfiles[] = {
	"package-lock.json", "npm-shrinkwrap.json", "yarn.lock",
	"pnpm-lock.yaml", "bun.lock", "bun.lockb", "deno.lock", NULL
};

const struct pmbench_pm pmbench_pms[] = {
	{
		.name = "npm",
		.title = "npm",
		.npm_package = NULL, /* the machine's own, next to node */
		.toolchain_bin = NULL,
		.path_names = L("npm"),
		.major_min = 7,
		.major_max = 99,
		.version_args = L("--version"),
		.install_args = L("install", "--no-audit", "--no-fund"),
		.frozen_args = L("ci", "--no-audit", "--no-fund"),
		.run_args = L("run"),
		.run_dashdash = 1,
		.lockfiles = L("package-lock.json", "npm-shrinkwrap.json"),
		.state_paths = L(NULL),
		.env = L("npm_config_cache={cache}/npm-cache",
			 "npm_config_audit=false", "npm_config_fund=false",
			 "npm_config_progress=false", "npm_config_color=false",
			 "npm_config_yes=false"),
		.scripts = PMBENCH_SCRIPTS_ALL,
		.scripts_note = "npm runs dependency install scripts "
				"(npm 11 warns about them but runs them)",
		/* npm 7+ takes a yarn 1 yarn.lock as resolution guidance. */
		.migrate_reads = L("yarn"),
		/*
		 * npm ends every failure with its log path ("npm error A
		 * complete log of this run can be found in: ..."); the cause
		 * is the error code (ERESOLVE, ETARGET, E404, EJSONPARSE,
		 * EINTEGRITY) or, when a script failed, its command. npm 7
		 * to 9 wrote "npm ERR!".
		 */
		.fail_causes = L("^npm error code E", "^npm ERR! code E",
				 "^npm error command sh -c ",
				 "^npm ERR! command sh -c ",
				 "^npm error command failed",
				 "^npm ERR! command failed",
				 "^npm error code ", "^npm ERR! code "),
		.fail_noise = L("A complete log of this run can be found",
				"/_logs/", "For a full report see"),
	},
	{
		.name = "yarn",
		.title = "yarn 1 (classic)",
		.npm_package = "yarn",
		.toolchain_bin = "yarn/node_modules/.bin/yarn",
		.path_names = L("yarn"),
		.major_min = 1,
		.major_max = 1,
		.version_args = L("--version"),
		.install_args = L("install", "--non-interactive",
				  "--no-progress"),
		.frozen_args = L("install", "--frozen-lockfile",
				 "--non-interactive", "--no-progress"),
		.run_args = L("run"),
		.run_dashdash = 0,
		.lockfiles = L("yarn.lock"),
		.state_paths = L(NULL),
		/* yarn 1 refuses to run when packageManager names another PM. */
		.env = L("YARN_CACHE_FOLDER={cache}/yarn-cache",
			 "YARN_DISABLE_SELF_UPDATE_CHECK=true",
			 "SKIP_YARN_COREPACK_CHECK=1"),
		.scripts = PMBENCH_SCRIPTS_ALL,
		.scripts_note = "yarn 1 runs every dependency install script",
		.import_args = L("import", "--non-interactive"),
		.import_from = L("npm"),
		/* The first "error" line says why; the next ones sum up. */
		.fail_causes = L("^error "),
		.fail_noise = L("^info Visit "),
	},
	{
		.name = "yarn-berry",
		.title = "yarn 4 (berry, node-modules linker)",
		.npm_package = "@yarnpkg/cli-dist",
		.toolchain_bin = "yarn-berry/node_modules/.bin/yarn",
		.path_names = L("yarn-berry", "yarn"),
		.major_min = 2,
		.major_max = 99,
		.version_args = L("--version"),
		.install_args = L("install"),
		.frozen_args = L("install", "--immutable"),
		.run_args = L("run"),
		.run_dashdash = 0,
		.lockfiles = L("yarn.lock"),
		.state_paths = L(".yarn/install-state.gz", ".yarn/unplugged",
				 ".yarn/build-state.yml", ".pnp.cjs",
				 ".pnp.loader.mjs"),
		/*
		 * enableGlobalCache defaults to true and then ignores
		 * cacheFolder; the mirror would copy into the global folder.
		 * YARN_IGNORE_PATH keeps a repo's yarnPath from swapping in
		 * another yarn release.
		 */
		.env = L("YARN_ENABLE_GLOBAL_CACHE=false",
			 "YARN_CACHE_FOLDER={cache}/berry-cache",
			 "YARN_GLOBAL_FOLDER={cache}/berry-global",
			 "YARN_ENABLE_MIRROR=false",
			 "YARN_NODE_LINKER=node-modules",
			 "YARN_ENABLE_TELEMETRY=0",
			 "YARN_ENABLE_PROGRESS_BARS=false",
			 "YARN_ENABLE_COLORS=false",
			 "YARN_ENABLE_IMMUTABLE_INSTALLS=false",
			 "YARN_ENABLE_HARDENED_MODE=0",
			 "YARN_IGNORE_PATH=1"),
		.scripts = PMBENCH_SCRIPTS_NONE,
		.scripts_note = "yarn 4 builds no dependency scripts here by "
				"default",
		/* berry converts a yarn 1 yarn.lock on its first install. */
		.migrate_reads = L("yarn"),
		/*
		 * Its error codes (YN0028 frozen lockfile, YN0009 build
		 * failed, YN0018 checksum, YN0082 no such version, YN0035
		 * network or no such package, YN0001 exception, ...); the
		 * YN0000 lines only frame them ("Failed with errors").
		 */
		.fail_causes = L("YN0028:", "YN0009:", "YN0018:", "YN0082:",
				 "YN0035:", "YN0016:", "YN0020:", "YN0057:",
				 "YN0058:", "YN0001:", "^Usage Error:",
				 "^Syntax Error:", "^Internal Error:"),
		.fail_noise = L("YN0000:"),
	},
	{
		.name = "pnpm",
		.title = "pnpm",
		.npm_package = "pnpm",
		.toolchain_bin = "pnpm/node_modules/.bin/pnpm",
		.path_names = L("pnpm"),
		.major_min = 7,
		.major_max = 99,
		.version_args = L("--version"),
		.install_args = L("install", "--store-dir",
				  "{cache}/pnpm-store"),
		.frozen_args = L("install", "--frozen-lockfile", "--store-dir",
				 "{cache}/pnpm-store"),
		.run_args = L("run"),
		.run_dashdash = 0,
		.lockfiles = L("pnpm-lock.yaml"),
		.state_paths = L(NULL),
		/*
		 * pnpm 11+ reads only pnpm_config_*; PNPM_HOME moves the
		 * store of the Rust engine. strict_dep_builds=false keeps
		 * skipped build scripts from turning a complete install into
		 * exit 1; manage_package_manager_versions=false keeps a
		 * packageManager field from downloading another pnpm.
		 */
		.env = L("pnpm_config_store_dir={cache}/pnpm-store",
			 "pnpm_config_cache_dir={cache}/pnpm-cache",
			 "pnpm_config_state_dir={cache}/pnpm-state",
			 "PNPM_HOME={cache}/pnpm-home",
			 "pnpm_config_update_notifier=false",
			 "pnpm_config_strict_dep_builds=false",
			 "pnpm_config_manage_package_manager_versions=false",
			 "pnpm_config_package_manager_strict=false",
			 "pnpm_config_confirm_modules_purge=false",
			 "pnpm_config_frozen_lockfile=false"),
		.scripts = PMBENCH_SCRIPTS_NONE,
		.scripts_note = "pnpm runs no dependency build scripts unless "
				"allowed (onlyBuiltDependencies)",
		.import_args = L("import"),
		.import_from = L("npm", "yarn", "yarn-berry"),
		/* pnpm 12 prints "Error: ERR_PNPM_..." or a "╰─▶" cause. */
		.fail_causes = L("ERR_PNPM_", "╰─▶ "),
	},
	{
		.name = "bun",
		.title = "bun",
		.npm_package = "bun",
		.toolchain_bin = "bun/node_modules/.bin/bun",
		.path_names = L("bun"),
		.major_min = 1,
		.major_max = 99,
		.version_args = L("--version"),
		.install_args = L("install", "--no-progress"),
		.frozen_args = L("install", "--frozen-lockfile", "--no-progress"),
		.run_args = L("run"),
		.run_dashdash = 0,
		.lockfiles = L("bun.lock", "bun.lockb"),
		.state_paths = L(NULL),
		.env = L("BUN_INSTALL_CACHE_DIR={cache}/bun-cache",
			 "BUN_INSTALL={cache}/bun-home"),
		.scripts = PMBENCH_SCRIPTS_TRUSTED,
		.scripts_note = "bun runs install scripts only for packages on "
				"its trusted list",
		/* bun install converts these lockfiles when it has none. */
		.migrate_reads = L("npm", "yarn", "pnpm"),
		/* The first "error:" says why ("... failed to resolve" follows). */
		.fail_causes = L("^error: "),
	},
	{
		.name = "deno",
		.title = "deno (npm compatibility)",
		.npm_package = "deno",
		.toolchain_bin = "deno/node_modules/.bin/deno",
		.path_names = L("deno"),
		.major_min = 2,
		.major_max = 99,
		.version_args = L("--version"),
		.install_args = L("install"),
		.frozen_args = L("install", "--frozen"),
		.run_args = L("task"),
		.run_dashdash = 0,
		.lockfiles = L("deno.lock"),
		.state_paths = L(NULL),
		.env = L("DENO_DIR={cache}/deno-dir", "DENO_NO_UPDATE_CHECK=1",
			 "DENO_NO_PROMPT=1"),
		.scripts = PMBENCH_SCRIPTS_NONE,
		.scripts_note = "deno runs no install scripts without "
				"--allow-scripts",
		.fail_causes = L("^error: "),
	},
};

const size_t pmbench_pms_nr = PMBENCH_ARRAY_SIZE(pmbench_pms);

const struct pmbench_pm *pmbench_pm_get(const char *name)
{
	for (size_t i = 0; i < pmbench_pms_nr; i++)
		if (!strcmp(pmbench_pms[i].name, name))
			return &pmbench_pms[i];
	return NULL;
}

static int listed(const char *const *list, const char *name)
{
	for (; list && *list; list++)
		if (!strcmp(*list, name))
			return 1;
	return 0;
}

enum pmbench_pm_route pmbench_pm_route(const struct pmbench_pm *pm,
				       const char *from)
{
	if (!strcmp(pm->name, from))
		return PMBENCH_ROUTE_OWN;
	if (listed(pm->migrate_reads, from))
		return PMBENCH_ROUTE_READS;
	if (pm->import_args && listed(pm->import_from, from))
		return PMBENCH_ROUTE_IMPORT;
	return PMBENCH_ROUTE_FRESH;
}

static void fill(struct pmbench_buf *out, const char *templ, const char *cache)
{
	const char *p = templ;

	pmbench_buf_reset(out);
	while (*p) {
		if (!strncmp(p, "{cache}", 7)) {
			pmbench_buf_adds(out, cache);
			p += 7;
		} else if (!strncmp(p, "{home}", 6)) {
			pmbench_buf_adds(out, cache);
			pmbench_buf_adds(out, "/home");
			p += 6;
		} else {
			pmbench_buf_addch(out, *p++);
		}
	}
}

void pmbench_pm_push_args(struct pmbench_strvec *out,
			  const char *const *templ, const char *cache)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (; templ && *templ; templ++) {
		fill(&b, *templ, cache);
		pmbench_strvec_push(out, b.ptr);
	}
	pmbench_buf_release(&b);
}

void pmbench_pm_env(struct pmbench_strvec *env, const struct pmbench_pm *pm,
		    const char *cache)
{
	pmbench_strvec_pushv(env, pmbench_ci_vars);
	pmbench_pm_push_args(env, common_env, cache);
	pmbench_pm_push_args(env, pm->env, cache);
}

int pmbench_pm_version_major(const char *version)
{
	const char *p = version;

	while (*p && !isdigit((unsigned char)*p))
		p++;
	if (!*p)
		return -1;
	return (int)strtol(p, NULL, 10);
}

/* Ask a candidate binary for its version; 0 and the trimmed line, or -1. */
static int query_version(struct pmbench_buf *out,
			 const struct pmbench_ctx *ctx, const char *bin,
			 const struct pmbench_pm *pm, const char *scratch)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf tmp = PMBENCH_BUF_INIT;
	int ret = -1;

	pmbench_strvec_push(&c.args, bin);
	pmbench_strvec_pushv(&c.args, pm->version_args);
	pmbench_pm_env(&c.env, pm, scratch);
	c.dir = scratch;
	c.ctx = ctx;
	c.timeout_ns = 60ull * 1000000000ull;
	/* Its TMPDIR ({cache}/tmp) must exist: some write there at once. */
	pmbench_buf_path(&tmp, scratch, "tmp");
	if (pmbench_fs_mkdirp(tmp.ptr, 0755) < 0) {
		pmbench_error_clear();
		goto done;
	}
	if (pmbench_child_run(&c) < 0 || c.result.exit_code != 0)
		goto done;
	pmbench_child_tail_lines(&c, 64, out);
	/* Keep the first line only ("deno 2.9.6 (stable, ...)"). */
	pmbench_buf_setlen(out, strcspn(out->ptr, "\n"));
	pmbench_buf_rtrim(out);
	if (out->len)
		ret = 0;
done:
	pmbench_child_release(&c);
	pmbench_buf_release(&tmp);
	return ret;
}

static int accept_candidate(struct pmbench_pm_found *out,
			    const struct pmbench_ctx *ctx,
			    const struct pmbench_pm *pm, const char *bin,
			    const char *source, const char *scratch,
			    struct pmbench_buf *why)
{
	struct pmbench_buf v = PMBENCH_BUF_INIT;
	int major, ret = -1;

	if (query_version(&v, ctx, bin, pm, scratch) < 0) {
		pmbench_buf_addf(why, "; '%s' did not answer --version", bin);
		goto done;
	}
	major = pmbench_pm_version_major(v.ptr);
	if (major < pm->major_min || major > pm->major_max) {
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

int pmbench_pm_find(struct pmbench_pm_found *out,
		    const struct pmbench_ctx *ctx, const struct pmbench_pm *pm,
		    const char *path, const char *scratch_dir)
{
	const char *toolchain_dir = ctx ? ctx->toolchain_dir : NULL;
	struct pmbench_buf bin = PMBENCH_BUF_INIT, why = PMBENCH_BUF_INIT;
	int ret = PMBENCH_ENOTFOUND;

	if (pm->toolchain_bin && toolchain_dir) {
		struct pmbench_buf cand = PMBENCH_BUF_INIT;

		pmbench_buf_path(&cand, toolchain_dir, pm->toolchain_bin);
		ret = pmbench_proc_which(&bin, cand.ptr, NULL);
		pmbench_buf_release(&cand);
		if (!ret &&
		    !accept_candidate(out, ctx, pm, bin.ptr, "toolchain",
				      scratch_dir, &why)) {
			ret = 0;
			goto done;
		}
		ret = PMBENCH_ENOTFOUND;
	}
	for (const char *const *n = pm->path_names; *n; n++) {
		if (pmbench_proc_which(&bin, *n, path) < 0)
			continue;
		if (!accept_candidate(out, ctx, pm, bin.ptr, "PATH", scratch_dir,
				      &why)) {
			ret = 0;
			goto done;
		}
	}
	pmbench_error_setc(PMBENCH_ENOTFOUND,
			   "%s not found (looked in %s/%s and on PATH%s); "
			   "run 'ci/setup' to install the pinned toolchain",
			   pm->name, toolchain_dir ? toolchain_dir : "-",
			   pm->toolchain_bin ? pm->toolchain_bin : "-",
			   why.ptr);
done:
	pmbench_buf_release(&bin);
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
