/*
 * The PM table (pm.h): one entry per package manager and one per
 * variant, as data, like curl's tool_writeout.c variables[], and the
 * questions asked of it: a PM by name, by lockfile or by packageManager
 * field, its folder, environment and arguments, its hints. Finding a
 * PM's binary on this machine is pmfind.c's.
 */
#include "pmbench/common.h"

#include <ctype.h>
#include <fcntl.h>
#include <unistd.h>

#include "pmbench/fs.h"
#include "pmbench/monorepo.h"
#include "pmbench/pm.h"
#include "pmbench/conf.h"
#include "pmbench/recipe.h"
#include "pmbench/semver.h"
#include "pmtimer_parse.h"

#define L(...) ((const char *const[]){ __VA_ARGS__, NULL })
#define FS_NOTES(...) \
	((const struct pmbench_pm_fs_note[]){ __VA_ARGS__, { NULL, NULL } })
#define HINTS(...) \
	((const struct pmbench_pm_hint[]){ __VA_ARGS__, { NULL, NULL, NULL } })
#define FIXES(...) \
	((const struct pmbench_pm_fix[]){ __VA_ARGS__, { .pattern = NULL } })
#define RECIPE(...) \
	((const struct pmbench_pm_change[]){ __VA_ARGS__, { .id = NULL } })

/* The same words for "no such version" in every PM's own terms. */
#define NO_SUCH_VERSION "a version named in package.json is not in the registry"

/*
 * Recipe steps several PMs share (recipe.h has the callbacks). What a
 * team changes when it moves an npm-workspaces repo, or a pnpm one, to
 * the PM: each says why that PM needs it.
 */
#define STEP_WORKSPACES_FIELD                                           \
	{                                                               \
		.id = "workspaces-field",                               \
		.what = "package.json lists the workspace packages in " \
			"\"workspaces\" (this PM does not read "        \
			"pnpm-workspace.yaml)",                         \
		.apply = pmbench_recipe_workspaces_field,               \
	}
#define STEP_PLAIN_VERSIONS(PM)                                            \
	{                                                                  \
		.id = "plain-versions",                                    \
		.what = "internal dependencies asked for by version, not " \
			"the workspace: protocol, which " PM " does not "  \
			"understand; it links a workspace package whose "  \
			"version matches",                                 \
		.apply = pmbench_recipe_plain_versions,                    \
	}
#define STEP_PACKAGE_MANAGER(PM)                                              \
	{                                                                     \
		.id = "package-manager",                                      \
		.what = "the packageManager field names " PM " and its "      \
			"version (corepack uses it; another PM's name there " \
			"makes yarn 1 and pnpm refuse)",                      \
		.apply = pmbench_recipe_package_manager,                      \
	}

/* Where a failure names the package the registry lacks. */
#define NOT_IN_REGISTRY " is not in the npm registry"

/*
 * The package a 404 was for ("@s/shared is not in the npm registry", as
 * pnpm says it) is one of the project's own workspace packages: the PM
 * asked the registry for what the repo holds.
 */
static int workspace_package_missing(const char *text, const char *project)
{
	struct pmbench_monorepo m = PMBENCH_MONOREPO_INIT;
	const char *at = strstr(text, NOT_IN_REGISTRY), *start;
	char *name;
	int found;

	if (!at || !project)
		return 0;
	start = at;
	while (start > text && !strchr(" \t\n", start[-1]))
		start--;
	name = pmbench_xstrndup(start, (size_t)(at - start));
	found = !pmbench_monorepo_read(&m, project) &&
		pmbench_monorepo_find(&m, name);
	pmbench_error_clear();
	pmbench_monorepo_release(&m);
	free(name);
	return found;
}

/*
 * Every child runs with HOME and the XDG folders inside its own cache
 * folder, so that a cache no variable below redirects still cannot land
 * in the user's home. The temp folder is the PM's own too (created and
 * emptied before every run, never part of the cache state): real PMs
 * leave files there (pnpm's store locks, V8's compile cache) that must
 * reach neither the system's temp folder nor another PM's run. CI
 * detection is switched off (the scenario, not the caller's environment,
 * decides about frozen lockfiles; `--ci` turns it on, pmbench_pm_ci_env()),
 * and so are colour, progress bars, update checks and prompts.
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
	NULL,
};

/*
 * ci-info 4.4's isCI (npm 11 and yarn 4 bundle it; pnpm 12's binary and
 * bun 1.4's ci_info.zig carry the same list): its generic variables,
 * then every vendor's (its vendors.json; not Heroku's NODE, which only
 * counts with a Heroku path in it), then older names pmbench unset
 * before, and npm's own.
 */
const char *const pmbench_ci_vars[] = {
	"CI",
	"CONTINUOUS_INTEGRATION",
	"BUILD_ID",
	"BUILD_NUMBER",
	"CI_APP_ID",
	"CI_BUILD_ID",
	"CI_BUILD_NUMBER",
	"CI_NAME",
	"RUN_ID",
	"AC_APPCIRCLE",
	"AGOLA_GIT_REF",
	"ALPIC_HOST",
	"APPCENTER_BUILD_ID",
	"APPVEYOR",
	"BITBUCKET_COMMIT",
	"BITRISE_IO",
	"BUDDY_WORKSPACE_ID",
	"BUILDER_OUTPUT",
	"BUILDKITE",
	"CF_BUILD_ID",
	"CF_PAGES",
	"CIRCLECI",
	"CIRRUS_CI",
	"CI_XCODE_PROJECT",
	"CM_BUILD_ID",
	"CODEBUILD_BUILD_ARN",
	"DRONE",
	"DSARI",
	"EARTHLY_CI",
	"EAS_BUILD",
	"GERRIT_PROJECT",
	"GITEA_ACTIONS",
	"GITHUB_ACTIONS",
	"GITLAB_CI",
	"GO_PIPELINE_LABEL",
	"HARNESS_BUILD_ID",
	"HUDSON_URL",
	"JENKINS_URL",
	"LAYERCI",
	"MAGNUM",
	"NETLIFY",
	"NEVERCODE",
	"NOW_BUILDER",
	"PROW_JOB_ID",
	"RELEASE_BUILD_ID",
	"RENDER",
	"SAILCI",
	"SCREWDRIVER",
	"SEMAPHORE",
	"STRIDER",
	"TASK_ID",
	"TEAMCITY_VERSION",
	"TF_BUILD",
	"TRAVIS",
	"VELA",
	"VERCEL",
	"WORKERS_CI",
	"XCS",
	"bamboo_planKey",
	"CODEBUILD_BUILD_ID",
	"HEROKU_TEST_RUN_ID",
	"npm_config_ci",
	NULL,
};

/*
 * What a GitHub Actions runner sets that the PMs read: CI (ci-info's
 * isCI, bun's ci_info.zig) and GITHUB_ACTIONS (ci-info's vendor, which
 * yarn 4's log groups and npm's user-agent read).
 */
const char *const pmbench_ci_set[] = { "CI=true", "GITHUB_ACTIONS=true", NULL };

/*
 * Traps any command can fall into, whichever PM runs it: a PM's own
 * traps (its table entry's `hints`) are looked at first. From what six
 * real repositories did under each PM on this kind of machine
 * (shared/PITFALLS.md).
 */
static const struct pmbench_pm_hint common_hints[] = {
	{ "node-sass", "gyp",
	  "node-sass does not build on this Node version (a native module "
	  "the project pins)" },
	{ "Cypress", "download",
	  "Cypress downloads its binary in postinstall; set env "
	  "CYPRESS_INSTALL_BINARY=0 in the manifest" },
	{ "gyp ERR!", NULL, "a native module failed to build with node-gyp" },
	{ "getaddrinfo", NULL,
	  "a download from a host other than the registry failed (no "
	  "network to it)" },
	{ "EAI_AGAIN", NULL,
	  "a download from a host other than the registry failed (no "
	  "network to it)" },
	{ NULL, NULL, NULL },
};

/*
 * What Node keeps in the temp folder for the next run: its compile
 * cache (module.enableCompileCache(), Node 22.1 and later; npm and
 * TypeScript turn it on). A PM's own are its entry's `tmp_caches`.
 */
static const char *const node_tmp_caches[] = { "node-compile-cache", NULL };

/* What any run does differently on a file system of some type. */
static const struct pmbench_pm_fs_note common_fs_notes[] = {
	{ "tmpfs", "the work folder is in memory (tmpfs): no run waits for "
		   "a disk, as a CI runner's would" },
	{ "overlay", "the work folder is on overlayfs (a container's "
		     "layers): the first write to a file of a lower layer "
		     "copies it up whole" },
	{ NULL, NULL },
};

/*
 * What each PM reads of its configuration, and the keys that change the
 * work measured (struct pmbench_pm_conf). The user's files: only
 * ~/.npmrc reaches the PMs (their HOME is their own); the project's are
 * the repo's. Keys as the files spell them (pnpm-workspace.yaml in
 * camelCase, .npmrc in kebab-case).
 */
#define CONF_FILES(...)                                      \
	((const struct pmbench_pm_conf_file[]){ __VA_ARGS__, \
						{ NULL, 0, NULL } })
#define CONF_WARNS(...)                                      \
	((const struct pmbench_pm_conf_warn[]){ __VA_ARGS__, \
						{ NULL, NULL, NULL } })
#define NPMRC_FILES                                \
	{ ".npmrc", PMBENCH_CONF_INI, NULL },      \
	{                                          \
		"~/.npmrc", PMBENCH_CONF_INI, NULL \
	}
#define JSON_FILE (-1)

static const struct pmbench_pm_conf npm_conf = {
	.files = CONF_FILES(NPMRC_FILES),
	.keys = L("omit-lockfile-registry-resolved", "prefer-online",
		  "prefer-offline", "offline", "install-strategy",
		  "legacy-peer-deps", "ignore-scripts", "package-lock",
		  "install-links"),
	.warns = CONF_WARNS(
		{ "omit-lockfile-registry-resolved", "true",
		  "npm's lockfile keeps no tarball URLs, so with a warm cache "
		  "npm still asks the registry for every package's packument "
		  "and tarball on each install; --pm-config defaults measures "
		  "npm as it comes" },
		{ "prefer-online", "true",
		  "npm revalidates every cached packument with the registry" },
		{ "ignore-scripts", "true",
		  "npm runs no dependency or project scripts" }),
};

static const struct pmbench_pm_conf yarn_conf = {
	.files = CONF_FILES({ ".yarnrc", PMBENCH_CONF_YARNRC, NULL },
			    NPMRC_FILES),
	.keys = L("ignore-scripts", "--install.ignore-scripts",
		  "yarn-offline-mirror", "prefer-offline",
		  "--install.prefer-offline", "ignore-optional",
		  "--install.ignore-optional"),
	.warns = CONF_WARNS({ "ignore-scripts", "true",
			      "yarn runs no dependency scripts" }),
};

static const struct pmbench_pm_conf berry_conf = {
	.files = CONF_FILES({ ".yarnrc.yml", PMBENCH_CONF_YAML, NULL }),
	.keys = L("nodeLinker", "enableGlobalCache", "compressionLevel",
		  "enableScripts", "nmMode", "enableMirror", "pnpMode"),
	.warns = CONF_WARNS({ "enableScripts", "false",
			      "yarn runs no dependency scripts" }),
};

static const struct pmbench_pm_conf pnpm_conf = {
	.files = CONF_FILES({ "pnpm-workspace.yaml", PMBENCH_CONF_YAML, NULL },
			    { "package.json", JSON_FILE, "pnpm" }, NPMRC_FILES),
	.keys = L("node-linker", "nodeLinker", "package-import-method",
		  "packageImportMethod", "side-effects-cache",
		  "sideEffectsCache", "link-workspace-packages",
		  "linkWorkspacePackages", "prefer-offline", "preferOffline",
		  "ignore-scripts", "ignoreScripts"),
	.warns = CONF_WARNS(
		{ "package-import-method", "copy",
		  "pnpm copies packages from its store instead of linking "
		  "them" },
		{ "packageImportMethod", "copy",
		  "pnpm copies packages from its store instead of linking "
		  "them" }),
};

/*
 * pnpm 11 and later check every lockfile entry against minimumReleaseAge
 * (1440 minutes by default) before they fetch a tarball, and ask the
 * registry for each package's packument for its publish times: todo-api's
 * lockfile scenario asked for 113 packuments with the default and 0 with
 * minimum-release-age=0 (2026-12-05, pnpm 12.23.0, a logging proxy: see
 * docs/state-check.md). No resolution: the lockfile stays as it was.
 */
static const struct pmbench_pm_known pnpm_known[] = {
	{ PMBENCH_RULE_LOCK_PACKUMENTS, NULL,
	  "pnpm checks every locked version against minimumReleaseAge (1 day "
	  "by default since pnpm 11) and reads its publish time from the "
	  "packument; the lockfile is not resolved again",
	  "https://pnpm.io/settings#minimumreleaseage, pnpm/pnpm#11583" },
	{ PMBENCH_RULE_NM_UNTOUCHED, NULL,
	  "pnpm rewrites its workspace state, "
	  "node_modules/.pnpm-workspace-state-v1.json, on every install, an "
	  "up-to-date one too (measured with pnpm 12, 2026-12-05)",
	  "pnpm/pnpm, workspace/state" },
	{ 0, NULL, NULL, NULL },
};

/*
 * deno's documented differences from the state check's rules (statecheck.h).
 */
static const struct pmbench_pm_known deno_known[] = {
	{ PMBENCH_RULE_NM_UNTOUCHED, NULL,
	  "deno adds or removes an entry of node_modules/.deno, its own "
	  "bookkeeping, on every install, an up-to-date one too (measured "
	  "with deno 2, 2026-12-05)",
	  "https://docs.deno.com/runtime/fundamentals/node/"
	  "#node_modules" },
	{ 0, NULL, NULL, NULL },
};

/*
 * npm with omit-lockfile-registry-resolved=true (a user's ~/.npmrc):
 * todo-api's lockfile and cache+lockfile runs asked for 89 packuments
 * and, with a warm cache, 89 tarballs (2026-12-05, bench todo-api --runs
 * 3, npm of Node 24's toolchain).
 */
static const struct pmbench_pm_known npm_known[] = {
	{ PMBENCH_RULE_LOCK_PACKUMENTS, "omit-lockfile-registry-resolved=true",
	  "the lockfile names no tarball URL: npm asks the registry for each "
	  "locked package's packument to find it",
	  "https://docs.npmjs.com/cli/using-npm/config"
	  "#omit-lockfile-registry-resolved" },
	{ PMBENCH_RULE_WARM_TARBALLS, "omit-lockfile-registry-resolved=true",
	  "the lockfile names no tarball URL: npm resolves each one again "
	  "and downloads it, its cache notwithstanding",
	  "https://docs.npmjs.com/cli/using-npm/config"
	  "#omit-lockfile-registry-resolved" },
	{ PMBENCH_RULE_NM_UNTOUCHED, NULL,
	  "npm rewrites its hidden lockfile, node_modules/.package-lock.json, "
	  "on every install, an up-to-date one too (measured, 2026-12-05)",
	  "https://docs.npmjs.com/cli/configuring-npm/package-lock-json"
	  "#hidden-lockfiles" },
	{ 0, NULL, NULL, NULL },
};

static const struct pmbench_pm_conf bun_conf = {
	.files = CONF_FILES({ "bunfig.toml", PMBENCH_CONF_TOML, NULL },
			    NPMRC_FILES),
	.keys = L("install.cache", "install.cache.disable", "install.linker",
		  "install.backend", "install.lockfile.save"),
	.warns = CONF_WARNS({ "install.cache.disable", "true",
			      "bun uses no cache: every install downloads" },
			    { "install.cache", "false",
			      "bun uses no cache: every install downloads" }),
};

static const struct pmbench_pm_conf deno_conf = {
	.files = CONF_FILES({ "deno.json", JSON_FILE, NULL },
			    { "deno.jsonc", JSON_FILE, NULL },
			    { ".npmrc", PMBENCH_CONF_INI, NULL }),
	.keys = L("nodeModulesDir", "vendor", "lock"),
	.warns = NULL,
};

/*
 * How a PM is told --scripts none, then all (pmbench_pm_push_scripts()):
 * two struct pmbench_pm_scripts_way.
 */
#define SCRIPTS_WAYS(...)                     \
	{                                     \
		{ .args = NULL }, __VA_ARGS__ \
	}

/* Variables of the caller that change what any PM, or node, does. */
static const char *const common_env_prefixes[] = { "NODE_", "COREPACK_", NULL };

/*
 * yarn 4's yarn.lock is YAML that starts (after two comment lines) with
 * a __metadata block; yarn 1's is its own format, headed "# yarn
 * lockfile v1". An empty file is nobody's (see `root_file`).
 */
static int yarn_berry_lock(const char *head)
{
	for (const char *l = head; l && *l; l = strchr(l, '\n')) {
		l += *l == '\n';
		if (!strncmp(l, "__metadata:", 11))
			return 1;
	}
	return 0;
}

static int yarn_classic_lock(const char *head)
{
	return head[strspn(head, " \t\r\n")] && !yarn_berry_lock(head);
}

const struct pmbench_pm pmbench_pms[] = {
	{
		.name = "npm",
		.known = npm_known,
		.conf = &npm_conf,
		.title = "npm",
		.caps = PMBENCH_PM_BASELINE | PMBENCH_PM_FROZEN_CLEARS,
		/*
		 * The Node installation's own (ci/toolchain.versions pins
		 * it with the Node); the machine's on PATH for its Node.
		 */
		.npm_package = NULL,
		.node_bin = "npm",
		.toolchain_bin = NULL,
		.path_names = L("npm"),
		.major_min = 7,
		.major_max = 99,
		.version_args = L("--version"),
		.install_args = L("install", "--no-audit", "--no-fund"),
		.frozen_args = L("ci", "--no-audit", "--no-fund"),
		.resolve_args = L("install", "--package-lock-only",
				  "--no-audit", "--no-fund"),
		.run_args = L("run"),
		.run_dashdash = 1,
		.lockfiles = L("package-lock.json", "npm-shrinkwrap.json"),
		.package_manager = "npm",
		.state_paths = L(NULL),
		.env = L("npm_config_cache={cache}/npm-cache",
			 "npm_config_audit=false", "npm_config_fund=false",
			 "npm_config_progress=false", "npm_config_color=false",
			 "npm_config_yes=false"),
		.registry_env = L("npm_config_registry={registry}"),
		.env_prefixes = L("npm_config_", "NPM_CONFIG_"),
		.store_query = L("config", "get", "cache"),
		.store_var = "npm_config_cache",
		.scripts = PMBENCH_SCRIPTS_ALL,
		.scripts_note = "npm runs dependency install scripts "
				"(npm 11 warns about them but runs them)",
		/*
		 * npm 11.19's dangerously-allow-all-scripts also runs those a
		 * project's allowScripts denies; ignore-scripts wins over it.
		 */
		.scripts_way = SCRIPTS_WAYS(
			{ .args = L("--ignore-scripts"),
			  .source = "https://docs.npmjs.com/cli/v11/commands/"
				    "npm-install#ignore-scripts" },
			{ .env = L("npm_config_dangerously_allow_all_scripts="
				   "true"),
			  .source = "https://docs.npmjs.com/cli/v11/using-npm/"
				    "config#dangerously-allow-all-scripts" }),
		/* npm 7+ takes a yarn 1 yarn.lock as resolution guidance. */
		.migrate_reads = L("yarn"),
		/*
		 * npm ends every failure with its log path ("npm error A
		 * complete log of this run can be found in: ..."); the cause
		 * is the error code (ERESOLVE, ETARGET, E404, EJSONPARSE,
		 * EINTEGRITY) or, when a script failed, its command. npm 7
		 * to 9 wrote "npm ERR!".
		 */
		.fail_causes = L(
			"^npm error code E", "^npm ERR! code E",
			"^npm error command sh -c ", "^npm ERR! command sh -c ",
			"^npm error command failed", "^npm ERR! command failed",
			"^npm error code ", "^npm ERR! code "),
		.fail_noise = L("A complete log of this run can be found",
				"/_logs/", "For a full report see"),
		.hints = HINTS(
			{ "ERESOLVE", NULL,
			  "npm found a peer-dependency conflict; if the "
			  "project installs with it, add \"pm\": {\"npm\": "
			  "{\"flags\": [\"--legacy-peer-deps\"]}} to the "
			  "manifest" },
			{ "ETARGET", NULL, NO_SUCH_VERSION },
			{ "No matching version", NULL, NO_SUCH_VERSION }),
		.fixes = FIXES({
			.pattern = "EUNSUPPORTEDPROTOCOL",
			.also = "workspace:",
			.fix = "npm does not understand the workspace: "
			       "protocol: ask for the workspace package by its "
			       "version (\"1.0.0\", \"^1.0.0\"), which npm "
			       "links",
			.change = "plain-versions",
		}),
		.recipe = RECIPE(STEP_WORKSPACES_FIELD,
				 STEP_PLAIN_VERSIONS("npm")),
		/*
		 * "npm timing <timer> Completed in <N>ms" on stderr as each
		 * timer ends (npm 11 also writes them to _logs/ in its
		 * cache, which pmbench's cache redirection keeps its own).
		 */
		.timer_args = L("--timing"),
		.timer_how = "--timing",
		.timer_parse = pmbench_pmtimer_npm,
	},
	{
		.name = "yarn",
		.conf = &yarn_conf,
		.title = "yarn 1 (classic)",
		.npm_package = "yarn",
		.toolchain_bin = "yarn/node_modules/.bin/yarn",
		.path_names = L("yarn"),
		.major_min = 1,
		.major_max = 1,
		.version_args = L("--version"),
		.install_args =
			L("install", "--non-interactive", "--no-progress"),
		.frozen_args = L("install", "--frozen-lockfile",
				 "--non-interactive", "--no-progress"),
		.run_args = L("run"),
		.run_dashdash = 0,
		.lockfiles = L("yarn.lock"),
		.lockfile_sniff = yarn_classic_lock,
		.package_manager = "yarn",
		.state_paths = L(NULL),
		/* yarn 1 refuses to run when packageManager names another PM. */
		.env = L("YARN_CACHE_FOLDER={cache}/yarn-cache",
			 "YARN_DISABLE_SELF_UPDATE_CHECK=true",
			 "SKIP_YARN_COREPACK_CHECK=1"),
		.registry_env = L("YARN_REGISTRY={registry}",
				  "npm_config_registry={registry}"),
		.env_prefixes = L("YARN_"),
		/* Its bundled v8-compile-cache: v8-compile-cache-<uid>. */
		.tmp_caches = L("v8-compile-cache-"),
		.store_query = L("cache", "dir"),
		.store_var = "YARN_CACHE_FOLDER",
		.scripts = PMBENCH_SCRIPTS_ALL,
		.scripts_note = "yarn 1 runs every dependency install script",
		.scripts_way = SCRIPTS_WAYS(
			{ .args = L("--ignore-scripts"),
			  .source = "https://classic.yarnpkg.com/en/docs/cli/"
				    "install#toc-yarn-install-ignore-scripts" },
			{ .source = "https://classic.yarnpkg.com/en/docs/cli/"
				    "install (it runs them by default)" }),
		.import_args = L("import", "--non-interactive"),
		.import_from = L("npm"),
		/* The first "error" line says why; the next ones sum up. */
		.fail_causes = L("^error "),
		.fail_noise = L("^info Visit "),
		.hints = HINTS(
			{ "is incompatible with this module", NULL,
			  "yarn 1 enforces dependencies' engines; set \"pm\": "
			  "{\"yarn\": {\"env\": {\"YARN_IGNORE_ENGINES\": "
			  "\"1\"}}} to let it through" },
			{ "Couldn't find any versions", NULL, NO_SUCH_VERSION }),
		.fixes = FIXES(
			{
				.pattern = "Workspaces can only be enabled in "
					   "private projects",
				.fix = "yarn 1 needs \"private\": true in a "
				       "package.json with workspaces",
				.change = "private",
			},
			{
				.pattern = "Couldn't find package",
				.also = "@workspace:",
				.fix = "yarn 1 does not understand the "
				       "workspace: protocol: ask for the "
				       "workspace package by its version "
				       "(\"1.0.0\"), which yarn 1 links",
				.change = "plain-versions",
			}),
		.recipe = RECIPE(
			STEP_WORKSPACES_FIELD, STEP_PLAIN_VERSIONS("yarn 1"),
			{
				.id = "private",
				.what = "the root package.json says \"private\": "
					"true (yarn 1 enables workspaces only "
					"in a private root)",
				.apply = pmbench_recipe_private_root,
			},
			STEP_PACKAGE_MANAGER("yarn 1")),
		/*
		 * "verbose <seconds since start> ..." lines, its "[2/4]
		 * Resolving packages..." steps between them, "Done in 11.2s."
		 */
		.timer_args = L("--verbose"),
		.timer_how = "--verbose",
		.timer_parse = pmbench_pmtimer_yarn,
	},
	{
		.name = "yarn-berry",
		.conf = &berry_conf,
		.title = "yarn 4 (berry, node-modules linker)",
		.command_name = "yarn",
		.npm_package = "@yarnpkg/cli-dist",
		.toolchain_bin = "yarn-berry/node_modules/.bin/yarn",
		.path_names = L("yarn-berry", "yarn"),
		.major_min = 2,
		.major_max = 99,
		.version_args = L("--version"),
		.install_args = L("install"),
		.frozen_args = L("install", "--immutable"),
		.resolve_args = L("install", "--mode=update-lockfile"),
		.run_args = L("run"),
		.run_dashdash = 0,
		.yarn_path = 1,
		.lockfiles = L("yarn.lock"),
		.lockfile_sniff = yarn_berry_lock,
		.root_file = "yarn.lock",
		.package_manager = "yarn",
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
			 "YARN_ENABLE_HARDENED_MODE=0", "YARN_IGNORE_PATH=1"),
		/*
		 * enableImmutableInstalls: "true (the default on CI)"
		 * (https://yarnpkg.com/configuration/yarnrc#enableImmutableInstalls).
		 */
		.ci_pins = L("YARN_ENABLE_IMMUTABLE_INSTALLS=false"),
		/*
		 * enableHardenedMode is yarn 4's
		 * (https://yarnpkg.com/blog/release/4.0#hardened-mode): yarn
		 * 3.8.7 run from a repo's yarnPath stops with
		 * "Unrecognized or legacy configuration settings found:
		 * enableHardenedMode (in <environment>)" (2026-12-06).
		 */
		.env_since = 4,
		.env_unknown_before = L("YARN_ENABLE_HARDENED_MODE"),
		/* yarn 4 refuses plain http unless the host is allowed. */
		.registry_env = L("YARN_NPM_REGISTRY_SERVER={registry}",
				  "YARN_UNSAFE_HTTP_WHITELIST=127.0.0.1"),
		.env_prefixes = L("YARN_"),
		.store_query = L("config", "get", "cacheFolder"),
		.store_var = "YARN_CACHE_FOLDER",
		.scripts = PMBENCH_SCRIPTS_NONE,
		.scripts_note = "yarn 4 builds no dependency scripts here by "
				"default",
		/*
		 * yarn 2 and 3: "If true, packages are allowed to have
		 * install scripts by default" (enableScripts, default true,
		 * in yarn 3.8.7's own settings table).
		 */
		.scripts_note_before = "yarn 2 and 3 build dependency scripts "
				       "by default (enableScripts: true "
				       "before yarn 4)",
		/*
		 * enableScripts defaults to false in 4.18 (true only for a
		 * lockfile older than version 9); a package the project marks
		 * dependenciesMeta built: false stays unbuilt either way.
		 */
		.scripts_way = SCRIPTS_WAYS(
			{ .env = L("YARN_ENABLE_SCRIPTS=false"),
			  .source = "https://yarnpkg.com/configuration/"
				    "yarnrc#enableScripts" },
			{ .env = L("YARN_ENABLE_SCRIPTS=true"),
			  .source = "https://yarnpkg.com/configuration/"
				    "yarnrc#enableScripts" }),
		/* berry converts a yarn 1 yarn.lock on its first install. */
		.migrate_reads = L("yarn"),
		/*
		 * Its error codes (YN0028 frozen lockfile, YN0009 build
		 * failed, YN0018 checksum, YN0082 no such version, YN0035
		 * network or no such package, YN0001 exception, ...); the
		 * YN0000 lines only frame them ("Failed with errors").
		 */
		.fail_causes = L(
			"YN0028:", "YN0009:", "YN0018:", "YN0082:", "YN0035:",
			"YN0016:", "YN0020:", "YN0057:", "YN0058:", "YN0001:",
			"^Usage Error:", "^Syntax Error:", "^Internal Error:"),
		.fail_noise = L("YN0000:"),
		.hints = HINTS({ "YN0082:", NULL, NO_SUCH_VERSION }),
		.recipe = RECIPE(
			STEP_WORKSPACES_FIELD,
			{
				/*
				 * The linker pmbench gives it (a variant's:
				 * pnp, pnpm), said where the repo keeps it.
				 */
				.id = "node-linker",
				.what = ".yarnrc.yml sets the linker (yarn 4 "
					"installs Plug'n'Play unless told "
					"nodeLinker: node-modules)",
				.apply = pmbench_recipe_yaml_setting,
				.file = ".yarnrc.yml",
				.arg = "nodeLinker: $YARN_NODE_LINKER",
			},
			STEP_PACKAGE_MANAGER("yarn 4")),
		/*
		 * Its "┌ Resolution step" ... "└ Completed in 3s 386ms"
		 * lines are in every run (enableTimers defaults to true; a
		 * step under 200 ms ends without its time, and is timed by
		 * when its lines arrived).
		 */
		.timer_env = L("YARN_ENABLE_TIMERS=true"),
		.timer_how = "its step lines",
		.timer_parse = pmbench_pmtimer_berry,
	},
	{
		.name = "pnpm",
		.conf = &pnpm_conf,
		.known = pnpm_known,
		.title = "pnpm",
		/*
		 * pnpm 12.25's `pnpm` is a shim over @pnpm/exe.<os>-<cpu>,
		 * an optionalDependency (12.25.1 installed alone "did not
		 * answer --version", 2026-12-06).
		 */
		.platforms =
			(const struct pmbench_pm_platform[]){
				{ "x86_64", "@pnpm/exe.linux-x64", "pnpm" },
				{ "aarch64", "@pnpm/exe.linux-arm64", "pnpm" },
				{ 0 } },
		.platforms_if_named = 1,
		.npm_package = "pnpm",
		.toolchain_bin = "pnpm/node_modules/.bin/pnpm",
		.path_names = L("pnpm"),
		.major_min = 7,
		.major_max = 99,
		.version_args = L("--version"),
		.install_args =
			L("install", "--store-dir", "{cache}/pnpm-store"),
		.frozen_args = L("install", "--frozen-lockfile", "--store-dir",
				 "{cache}/pnpm-store"),
		.resolve_args = L("install", "--lockfile-only", "--store-dir",
				  "{cache}/pnpm-store"),
		.run_args = L("run"),
		.run_dashdash = 0,
		.lockfiles = L("pnpm-lock.yaml"),
		.package_manager = "pnpm",
		.stores = L(".pnpm"),
		.state_paths = L(NULL),
		/*
		 * pnpm 11+ reads only pnpm_config_*; PNPM_HOME moves the
		 * store of the Rust engine. strict_dep_builds=false keeps
		 * skipped build scripts from turning a complete install into
		 * exit 1; manage_package_manager_versions=false keeps a
		 * packageManager field from downloading another pnpm, and
		 * pm_on_fail=ignore keeps pnpm 12.23 from resolving that
		 * release's platform packages (@pnpm/exe.<os>-<cpu>) from the
		 * registry: one is missing, and 3 of 6 installs of the
		 * workspace fixture with "packageManager": "pnpm@12.23.0"
		 * failed at random (ERR_PNPM_BAD_CONFIG_DEP), none with it.
		 */
		.env = L("pnpm_config_store_dir={cache}/pnpm-store",
			 "pnpm_config_cache_dir={cache}/pnpm-cache",
			 "pnpm_config_state_dir={cache}/pnpm-state",
			 "PNPM_HOME={cache}/pnpm-home",
			 "pnpm_config_update_notifier=false",
			 "pnpm_config_strict_dep_builds=false",
			 "pnpm_config_manage_package_manager_versions=false",
			 "pnpm_config_pm_on_fail=ignore",
			 "pnpm_config_package_manager_strict=false",
			 "pnpm_config_confirm_modules_purge=false"),
		/*
		 * --frozen-lockfile: "this setting is true by default in CI
		 * environments" (https://pnpm.io/cli/install#--frozen-lockfile).
		 */
		.ci_pins = L("pnpm_config_frozen_lockfile=false"),
		/* pnpm 11+ reads pnpm_config_*, not npm_config_registry. */
		.registry_env = L("pnpm_config_registry={registry}",
				  "npm_config_registry={registry}"),
		.env_prefixes = L("PNPM_", "pnpm_config_"),
		.store_query = L("store", "path", "--silent"),
		.store_var = "pnpm_config_store_dir",
		/*
		 * package-import-method auto: clone, else hard link, else
		 * copy, from its store into node_modules.
		 */
		.fs_notes = FS_NOTES(
			{ "overlay",
			  "pnpm hard-links packages from its store into "
			  "node_modules; on overlayfs a hard link to a file of "
			  "a lower layer copies it up, so a store baked into "
			  "an image is copied, not linked (pnpm/pnpm.io#914)" },
			{ "btrfs", "pnpm clones (reflinks) packages from its "
				   "store on btrfs, where it hard-links them on "
				   "ext4" },
			{ "xfs", "pnpm clones (reflinks) packages from its "
				 "store on xfs with reflink, where it "
				 "hard-links them on ext4" }),
		.scripts = PMBENCH_SCRIPTS_NONE,
		.scripts_note = "pnpm runs no dependency build scripts unless "
				"allowed (onlyBuiltDependencies), and with a "
				"warm store replays a built package from its "
				"side-effects cache instead of running its "
				"script",
		.scripts_said = L("Ignored build scripts"),
		/* pnpm 11+ replaced onlyBuiltDependencies with allowBuilds. */
		.scripts_way = SCRIPTS_WAYS(
			{ .args = L("--ignore-scripts"),
			  .source =
				  "https://pnpm.io/cli/install#--ignore-scripts" },
			/*
			 * sideEffectsCache (on by default) stores a package's
			 * built files in the store and links them on the next
			 * install without running its scripts: todo-api's
			 * cache+lockfile ran no esbuild postinstall until
			 * this variable was set (pnpm 12.23.0, 2026-12-06;
			 * npm_config_side_effects_cache is not read, and it
			 * overrides pnpm-workspace.yaml's sideEffectsCache).
			 */
			{ .env = L("pnpm_config_dangerously_allow_all_builds="
				   "true",
				   "pnpm_config_side_effects_cache=false"),
			  .source = "https://pnpm.io/settings#"
				    "dangerouslyallowallbuilds",
			  .why = "side-effects cache off: under --scripts all "
				 "every install script runs; pnpm would "
				 "replay a built package from its store",
			  .why_source = "https://pnpm.io/settings/build#"
					"sideeffectscache" }),
		.import_args = L("import"),
		.import_from = L("npm", "yarn", "yarn-berry"),
		/* pnpm 12 prints "Error: ERR_PNPM_..." or a "╰─▶" cause. */
		.fail_causes = L("ERR_PNPM_", "╰─▶ "),
		.hints = HINTS(
			{ "ERR_PNPM_IGNORED_BUILDS", NULL,
			  "pnpm exits 1 when it skipped build scripts; "
			  "pmbench sets pnpm_config_strict_dep_builds=false "
			  "unless the manifest overrides it" },
			{ "ERR_PNPM_OTHER_PM_EXPECTED", NULL,
			  "the packageManager field names another PM" },
			{ "ERR_PNPM_BAD_CONFIG_DEP", NULL,
			  "pnpm resolved the pnpm release the packageManager "
			  "field names, with its platform packages, and the "
			  "registry lacks one (pmOnFail: ignore skips it)" },
			{ "ERR_PNPM_NO_MATCHING_VERSION", NULL,
			  NO_SUCH_VERSION }),
		.fixes = FIXES({
			.pattern = "ERR_PNPM_FETCH_404",
			.check = workspace_package_missing,
			.fix = "pnpm links a workspace package asked for by "
			       "plain version only with linkWorkspacePackages: "
			       "add \"linkWorkspacePackages: true\" to "
			       "pnpm-workspace.yaml, or ask for it as "
			       "\"workspace:*\" (--choose workspace-protocol)",
			.change = "link-workspace-packages",
		}),
		.recipe = RECIPE(
			{
				.id = "pnpm-workspace",
				.what = "pnpm-workspace.yaml lists the "
					"workspace packages (pnpm does not read "
					"package.json's \"workspaces\"; pnpm 12 "
					"writes the file itself at install, "
					"with a warning)",
				.apply = pmbench_recipe_workspace_yaml,
				.file = "pnpm-workspace.yaml",
			},
			{
				.id = "link-workspace-packages",
				.choice = "how pnpm links internal dependencies "
					  "asked for by version",
				.what = "pnpm-workspace.yaml sets "
					"linkWorkspacePackages: true (pnpm "
					"links a workspace package asked for by "
					"plain version only then; else it asks "
					"the registry: ERR_PNPM_FETCH_404)",
				.apply = pmbench_recipe_yaml_setting,
				.file = "pnpm-workspace.yaml",
				.arg = "linkWorkspacePackages: true",
				.when = PMBENCH_CHANGE_IF_PLAIN_REFS,
			},
			{
				.id = "workspace-protocol",
				.choice = "how pnpm links internal dependencies "
					  "asked for by version",
				.what = "internal dependencies use the "
					"workspace: protocol, which pnpm always "
					"links (npm and yarn 1 cannot read it)",
				.apply = pmbench_recipe_workspace_protocol,
				.when = PMBENCH_CHANGE_IF_PLAIN_REFS,
			},
			STEP_PACKAGE_MANAGER("pnpm")),
		/*
		 * One JSON object per line on stderr, with pnpm's clock:
		 * pnpm:stage (resolution, importing), pnpm:progress per
		 * package, pnpm:lifecycle, pnpm:execution-time.
		 */
		.timer_args = L("--reporter=ndjson"),
		.timer_how = "--reporter=ndjson",
		.timer_parse = pmbench_pmtimer_pnpm,
	},
	{
		.name = "bun",
		.conf = &bun_conf,
		.title = "bun",
		.npm_package = "bun",
		.platforms =
			(const struct pmbench_pm_platform[]){
				{ "x86_64", "@oven/bun-linux-x64", "bin/bun" },
				{ "aarch64", "@oven/bun-linux-aarch64",
				  "bin/bun" },
				{ 0 } },
		.toolchain_bin = "bun/node_modules/.bin/bun",
		.path_names = L("bun"),
		.major_min = 1,
		.major_max = 99,
		.version_args = L("--version"),
		.install_args = L("install", "--no-progress"),
		.frozen_args =
			L("install", "--frozen-lockfile", "--no-progress"),
		.resolve_args =
			L("install", "--lockfile-only", "--no-progress"),
		.run_args = L("run"),
		.run_dashdash = 0,
		.lockfiles = L("bun.lock", "bun.lockb"),
		.package_manager = "bun",
		.state_paths = L(NULL),
		.env = L("BUN_INSTALL_CACHE_DIR={cache}/bun-cache",
			 "BUN_INSTALL={cache}/bun-home"),
		.registry_env = L("BUN_CONFIG_REGISTRY={registry}",
				  "NPM_CONFIG_REGISTRY={registry}"),
		.env_prefixes = L("BUN_"),
		/* actions/setup-node has no cache for bun. */
		.store_var = "BUN_INSTALL_CACHE_DIR",
		/* --backend: hardlink is its Linux default. */
		.fs_notes = FS_NOTES({ "overlay",
				       "bun hard-links packages from its cache "
				       "into node_modules; on overlayfs a hard "
				       "link to a file of a lower layer copies "
				       "it up" }),
		.scripts = PMBENCH_SCRIPTS_TRUSTED,
		/*
		 * Its postinstall optimiser (src/install/
		 * postinstall_optimizer.zig, bun 1.4): esbuild's postinstall
		 * skipped where a platform package's binary can be linked,
		 * sharp's always, trusted or not.
		 */
		.scripts_note = "bun runs install scripts only for packages on "
				"its trusted list, and bun 1.4 skips even a "
				"trusted esbuild's postinstall (linking its "
				"platform binary instead) and sharp's (its "
				"postinstall optimiser)",
		.scripts_said = L("Blocked "),
		.scripts_way = SCRIPTS_WAYS(
			{ .args = L("--ignore-scripts"),
			  .source = "https://bun.com/docs/pm/cli/install" },
			/*
			 * bun 1.4.5 runs only the scripts of the packages
			 * trustedDependencies names (which replaces its
			 * default list), and even then skips esbuild's
			 * postinstall (linking its platform binary instead)
			 * and sharp's from 0.33 unless this feature flag is
			 * set (src/install/postinstall_optimizer.zig,
			 * shouldIgnoreLifecycleScripts; seen with strace,
			 * 2026-12-06).
			 */
			{ .env = L("BUN_FEATURE_FLAG_DISABLE_IGNORE_SCRIPTS=1"),
			  .trust_field = "trustedDependencies",
			  .source = "https://bun.com/docs/pm/lifecycle#"
				    "trusteddependencies" }),
		/* bun install converts these lockfiles when it has none. */
		.migrate_reads = L("npm", "yarn", "pnpm"),
		/* The first "error:" says why ("... failed to resolve" follows). */
		.fail_causes = L("^error: "),
		.hints =
			HINTS({ "No version matching", NULL, NO_SUCH_VERSION }),
		.recipe = RECIPE(STEP_WORKSPACES_FIELD),
		/*
		 * Each request with its duration, "Resolved, downloaded and
		 * extracted [N]", "Clean lockfile: ... in 145.8us" and "89
		 * packages installed [2.32s]"; no phase times of its own.
		 */
		.timer_args = L("--verbose"),
		.timer_how = "--verbose",
		.timer_parse = pmbench_pmtimer_bun,
	},
	{
		.name = "deno",
		.known = deno_known,
		.conf = &deno_conf,
		.title = "deno (npm compatibility)",
		.npm_package = "deno",
		.platforms =
			(const struct pmbench_pm_platform[]){
				{ "x86_64", "@deno/linux-x64-glibc", "deno" },
				{ "aarch64", "@deno/linux-arm64-glibc", "deno" },
				{ 0 } },
		.toolchain_bin = "deno/node_modules/.bin/deno",
		.path_names = L("deno"),
		.major_min = 2,
		.major_max = 99,
		.version_args = L("--version"),
		.version_prefix = "deno ",
		.install_args = L("install"),
		.frozen_args = L("install", "--frozen"),
		.resolve_args = L("install", "--lockfile-only"),
		.run_args = L("task"),
		.run_dashdash = 0,
		.lockfiles = L("deno.lock"),
		/* No packageManager name: corepack does not know deno. */
		.stores = L(".deno"),
		.state_paths = L(NULL),
		.env = L("DENO_DIR={cache}/deno-dir", "DENO_NO_UPDATE_CHECK=1",
			 "DENO_NO_PROMPT=1"),
		.registry_env = L("NPM_CONFIG_REGISTRY={registry}"),
		.env_prefixes = L("DENO_"),
		/* actions/setup-node has no cache for deno. */
		.store_var = "DENO_DIR",
		.scripts = PMBENCH_SCRIPTS_NONE,
		.scripts_note = "deno runs no install scripts without "
				"--allow-scripts",
		/* --allow-scripts without a list allows every package. */
		.scripts_way = SCRIPTS_WAYS(
			{ .source =
				  "https://docs.deno.com/runtime/reference/cli/"
				  "install/ (none without --allow-scripts)" },
			{ .args = L("--allow-scripts"),
			  .source =
				  "https://docs.deno.com/runtime/reference/cli/"
				  "install/#options-allow-scripts" }),
		.fail_causes = L("^error: "),
		.hints = HINTS({ "Could not find npm package", " matching ",
				 NO_SUCH_VERSION }),
		.recipe = RECIPE(STEP_WORKSPACES_FIELD),
		/*
		 * Its debug log has no times: "Finished config loading.",
		 * "Running npm resolution.", "Acquiring file lock",
		 * "Installed 89 packages in 332ms" are timed by when they
		 * arrived.
		 */
		.timer_args = L("-L", "debug"),
		.timer_how = "-L debug",
		.timer_parse = pmbench_pmtimer_deno,
	},
};

const size_t pmbench_pms_nr = PMBENCH_ARRAY_SIZE(pmbench_pms);

/*
 * Variants: a PM with a configuration, measured as a PM of its own (its
 * own column, cache and work folder). One entry each; everything not
 * set here is its base's (pmbench_pm_get() builds the whole entry).
 * `args` follow the base's install and CI arguments, `env` follows the
 * base's environment (the later value of a variable wins).
 */
static const struct pmbench_pm_variant variants[] = {
	{
		.name = "yarn-berry:pnp",
		.base = "yarn-berry",
		.title = "yarn 4, Plug'n'Play linker (yarn's default)",
		.env = L("YARN_NODE_LINKER=pnp"),
		/* Packages stay in the cache's zips; .pnp.cjs maps them. */
		.caps = PMBENCH_PM_NO_NODE_MODULES,
		.linker = "Plug'n'Play",
	},
	{
		.name = "yarn-berry:pnpm",
		.base = "yarn-berry",
		.title = "yarn 4, pnpm linker",
		.env = L("YARN_NODE_LINKER=pnpm"),
		/* node_modules/.store/<locator>/package, symlinked. */
		.stores = L(".store"),
		.linker = "pnpm (node_modules/.store)",
	},
	{
		.name = "npm:linked",
		.base = "npm",
		.title = "npm, linked install strategy",
		.args = L("--install-strategy=linked"),
		.stores = L(".store"),
		.linker = "linked (node_modules/.store)",
	},
	{
		.name = "pnpm:hoisted",
		.base = "pnpm",
		.title = "pnpm, hoisted node-linker",
		/* pnpm 11+ reads only pnpm_config_* from the environment. */
		.env = L("pnpm_config_node_linker=hoisted"),
		.linker = "hoisted (flat node_modules)",
	},
	{
		.name = "bun:isolated",
		.base = "bun",
		.title = "bun, isolated linker",
		.args = L("--linker", "isolated"),
		.stores = L(".bun"),
		.linker = "isolated (node_modules/.bun)",
	},
	{
		/*
		 * `bun --bun run` runs bins with a node shebang (vite, tsc)
		 * under bun's runtime instead of Node; install is bun's.
		 */
		.name = "bun:runtime",
		.base = "bun",
		.title = "bun, scripts under bun's runtime (bun --bun run)",
		.run_args = L("--bun", "run"),
		.runtime = "bun",
	},
	{
		.name = "npm:prefer-offline",
		.base = "npm",
		.title = "npm, cached metadata used without revalidation",
		.args = L("--prefer-offline"),
	},
};

#define VARIANTS_NR PMBENCH_ARRAY_SIZE(variants)
#define FOLDER_MAX  64

/* The variants' whole entries and folder names, built once. */
static struct pmbench_pm variant_pms[VARIANTS_NR];
static char variant_folders[VARIANTS_NR][FOLDER_MAX];
static int variants_ready;

static const struct pmbench_pm *base_get(const char *name)
{
	for (size_t i = 0; i < pmbench_pms_nr; i++)
		if (!strcmp(pmbench_pms[i].name, name))
			return &pmbench_pms[i];
	return NULL;
}

static void variants_init(void)
{
	if (variants_ready)
		return;
	for (size_t i = 0; i < VARIANTS_NR; i++) {
		const struct pmbench_pm_variant *v = &variants[i];
		const struct pmbench_pm *b = base_get(v->base);
		struct pmbench_pm *pm = &variant_pms[i];
		char *folder = variant_folders[i];

		/* The table is wrong: unit_pm checks every entry. */
		if (!b || strlen(v->name) >= FOLDER_MAX)
			pmbench_die("variant '%s' has no PM '%s' or too long "
				    "a name",
				    v->name, v->base);
		*pm = *b;
		pm->name = v->name;
		pm->title = v->title;
		pm->command_name = pmbench_pm_command_name(b);
		pm->base = b->name;
		pm->variant = v;
		/* Its CI install is its base's: it clears as the base does. */
		pm->caps = v->caps | (b->caps & PMBENCH_PM_FROZEN_CLEARS);
		pm->linker = v->linker;
		if (v->stores)
			pm->stores = v->stores;
		if (v->run_args)
			pm->run_args = v->run_args;
		pm->runtime = v->runtime;
		/* ':' would end a PATH entry that names a folder of it. */
		for (size_t k = 0; v->name[k]; k++)
			folder[k] = v->name[k] == ':' ? '_' : v->name[k];
	}
	variants_ready = 1;
}

/* A PM or variant by its exact name, no version. */
static const struct pmbench_pm *plain_get(const char *name)
{
	const struct pmbench_pm *pm = base_get(name);

	variants_init();
	for (size_t i = 0; !pm && i < VARIANTS_NR; i++)
		if (!strcmp(variant_pms[i].name, name))
			pm = &variant_pms[i];
	return pm;
}

/*
 * Versioned entries ("pnpm@9", "pnpm@9:hoisted"), built on first ask and
 * kept for the process (pointers to them live as long as the table's).
 */
struct versioned {
	struct pmbench_pm pm;
	char *name, *unversioned, *version, *folder;
	struct versioned *next;
};

static struct versioned *versioned_list;

/* A release asked for is looked for on no PATH (static: it outlives us). */
static const char *const no_path_names[] = { NULL };

/*
 * What pnpm before 11 reads for pnpm_config_* (npm_config_*): the same
 * neutralisation of the packageManager field and of build-script exits.
 */
static const char *const pnpm_legacy_env[] = {
	"npm_config_store_dir={cache}/pnpm-store",
	"npm_config_cache_dir={cache}/pnpm-cache",
	"npm_config_state_dir={cache}/pnpm-state",
	"npm_config_strict_dep_builds=false",
	"npm_config_manage_package_manager_versions=false",
	"npm_config_package_manager_strict=false",
	"npm_config_package_manager_strict_version=false",
	"npm_config_confirm_modules_purge=false",
	NULL,
};

/* Whether `range` is a version range pmbench reads ("9", "^9.1", "1.1.x"). */
static int range_ok(const char *range)
{
	struct pmbench_semver v = { .major = 1 };

	if (!*range || strlen(range) > 64 ||
	    range[strspn(range, "0123456789.xX*^~<>=| -")])
		return 0;
	return pmbench_semver_satisfies(range, &v) >= 0;
}

static const struct pmbench_pm *versioned_build(const struct pmbench_pm *plain,
						const char *name,
						const char *version)
{
	struct versioned *v = pmbench_xcalloc(1, sizeof(*v));

	v->pm = *plain;
	v->name = pmbench_xstrdup(name);
	v->unversioned = pmbench_xstrdup(plain->name);
	v->version = pmbench_xstrdup(version);
	v->folder = pmbench_xstrdup(name);
	for (char *c = v->folder; *c; c++)
		if (*c == ':')
			*c = '_';
	v->pm.name = v->name;
	v->pm.unversioned = v->unversioned;
	v->pm.version = v->version;
	v->pm.folder = v->folder;
	v->pm.base = plain->base ? plain->base : plain->name;
	if (strcmp(version, PMBENCH_PM_PINNED)) {
		/* Found in the versions folder only (pmversion.h). */
		v->pm.node_bin = NULL;
		v->pm.toolchain_bin = NULL;
		v->pm.path_names = no_path_names;
		if (!strcmp(v->pm.base, "pnpm") &&
		    pmbench_pm_version_major(version) < 11)
			v->pm.version_env = pnpm_legacy_env;
	}
	v->next = versioned_list;
	versioned_list = v;
	return &v->pm;
}

/* "pnpm@9:hoisted" split into "pnpm:hoisted" and "9", checked. */
static int versioned_lookup(const struct pmbench_pm **out, const char *name)
{
	const char *at = strchr(name, '@');
	const char *colon = strchr(at, ':');
	char *version = pmbench_xstrndup(
		at + 1, colon ? (size_t)(colon - at - 1) : strlen(at + 1));
	struct pmbench_buf plain = PMBENCH_BUF_INIT;
	const struct pmbench_pm *pm;
	int ret = 0;

	pmbench_buf_add(&plain, name, (size_t)(at - name));
	if (colon)
		pmbench_buf_adds(&plain, colon);
	pm = plain_get(plain.ptr);
	if (!pm)
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "unknown package manager '%s' in "
					 "'%s'; 'pmbench pms' lists them",
					 plain.ptr, name);
	else if (strcmp(version, PMBENCH_PM_PINNED) && !range_ok(version))
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "'%s' in '%s' is no version or range; "
					 "write it as %s@9.15.0, %s@9 or "
					 "%s@pinned",
					 version, name, pm->name, pm->name,
					 pm->name);
	else if (!strcmp(pm->name, "yarn") &&
		 pmbench_pm_version_major(version) > 1)
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "'%s': yarn 2 and later are "
					 "yarn-berry; write yarn-berry@%s",
					 name, version);
	else
		*out = versioned_build(pm, name, version);
	free(version);
	pmbench_buf_release(&plain);
	return ret;
}

int pmbench_pm_lookup(const struct pmbench_pm **out, const char *name)
{
	*out = plain_get(name);
	if (*out)
		return 0;
	if (!strchr(name, '@'))
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "unknown package manager '%s'", name);
	for (struct versioned *v = versioned_list; v; v = v->next)
		if (!strcmp(v->name, name)) {
			*out = &v->pm;
			return 0;
		}
	return versioned_lookup(out, name);
}

const struct pmbench_pm *pmbench_pm_get(const char *name)
{
	const struct pmbench_pm *pm = NULL;

	if (pmbench_pm_lookup(&pm, name) < 0) {
		pmbench_error_clear();
		return NULL;
	}
	return pm;
}

const struct pmbench_pm *pmbench_pm_nth(size_t i)
{
	variants_init();
	if (i < pmbench_pms_nr)
		return &pmbench_pms[i];
	i -= pmbench_pms_nr;
	return i < VARIANTS_NR ? &variant_pms[i] : NULL;
}

const char *const *pmbench_pm_names(void)
{
	static const char
		*names[PMBENCH_ARRAY_SIZE(pmbench_pms) + VARIANTS_NR + 1];

	if (!names[0])
		for (size_t i = 0; pmbench_pm_nth(i); i++)
			names[i] = pmbench_pm_nth(i)->name;
	return names;
}

void pmbench_pm_join_names(struct pmbench_buf *out, const char *sep,
			   unsigned flags)
{
	size_t nr = pmbench_pms_nr;

	if (flags & PMBENCH_PM_JOIN_VARIANTS)
		nr += VARIANTS_NR;
	for (size_t i = 0; i < nr; i++) {
		if (i && i + 1 == nr && (flags & PMBENCH_PM_JOIN_OR))
			pmbench_buf_adds(out, " or ");
		else if (i)
			pmbench_buf_adds(out, sep);
		pmbench_buf_adds(out, pmbench_pm_nth(i)->name);
	}
}

const struct pmbench_pm *pmbench_pm_base(const struct pmbench_pm *pm)
{
	return pm->base ? base_get(pm->base) : pm;
}

const char *pmbench_pm_folder(const struct pmbench_pm *pm)
{
	if (pm->folder)
		return pm->folder;
	if (pm->variant)
		return variant_folders[pm->variant - variants];
	return pm->name;
}

const char *pmbench_pm_command_name(const struct pmbench_pm *pm)
{
	return pm->command_name ? pm->command_name : pm->name;
}

void pmbench_pm_config(struct pmbench_buf *out, const struct pmbench_pm *pm)
{
	const struct pmbench_pm_variant *v = pm->variant;
	const char *sep = " with ";

	if (!v)
		return;
	pmbench_buf_adds(out, v->base);
	for (const char *const *a = v->args; a && *a; a++) {
		pmbench_buf_addf(out, "%s%s", sep, *a);
		sep = " ";
	}
	if (v->run_args) {
		pmbench_buf_adds(out, sep);
		pmbench_buf_addf(out, "scripts run as %s", v->base);
		for (const char *const *a = v->run_args; *a; a++)
			pmbench_buf_addf(out, " %s", *a);
		sep = v->env ? " and " : " ";
	}
	if (v->args && v->env)
		sep = " and ";
	for (const char *const *e = v->env; e && *e; e++) {
		pmbench_buf_addf(out, "%s%s", sep, *e);
		sep = " ";
	}
}

static int listed(const char *const *list, const char *name)
{
	for (; list && *list; list++)
		if (!strcmp(*list, name))
			return 1;
	return 0;
}

#define LOCKFILES_MAX 32

const char *const *pmbench_pm_all_lockfiles(void)
{
	static const char *all[LOCKFILES_MAX + 1];
	size_t nr = 0;

	if (all[0])
		return all;
	for (size_t i = 0; i < pmbench_pms_nr; i++) {
		for (const char *const *l = pmbench_pms[i].lockfiles; *l; l++) {
			if (listed(all, *l))
				continue;
			if (nr == LOCKFILES_MAX)
				pmbench_die("more than %d lockfile names in "
					    "the PM table",
					    LOCKFILES_MAX);
			all[nr++] = *l;
		}
	}
	return all;
}

enum pmbench_pm_route pmbench_pm_route(const struct pmbench_pm *pm,
				       const char *from)
{
	const struct pmbench_pm *f = pmbench_pm_get(from);

	from = f ? pmbench_pm_base(f)->name : from;
	pm = pmbench_pm_base(pm);
	if (!strcmp(pm->name, from))
		return PMBENCH_ROUTE_OWN;
	if (listed(pm->migrate_reads, from))
		return PMBENCH_ROUTE_READS;
	if (pm->import_args && listed(pm->import_from, from))
		return PMBENCH_ROUTE_IMPORT;
	return PMBENCH_ROUTE_FRESH;
}

/*
 * The first PMBENCH_PM_LOCK_HEAD bytes of `path`, NUL-terminated (a NUL
 * inside ends the text early, which no sniffer minds); empty when it
 * cannot be read. Reading only the head tells a lockfile of any size.
 */
static void read_head(struct pmbench_buf *out, const char *path)
{
	char chunk[8192];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	pmbench_buf_reset(out);
	while (fd >= 0 && out->len < PMBENCH_PM_LOCK_HEAD) {
		size_t want = PMBENCH_PM_LOCK_HEAD - out->len;
		ssize_t n = read(fd, chunk,
				 want < sizeof(chunk) ? want : sizeof(chunk));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		pmbench_buf_add(out, chunk, (size_t)n);
	}
	if (fd >= 0)
		close(fd);
}

const struct pmbench_pm *pmbench_pm_lockfile_owner(const char *path)
{
	struct pmbench_buf head = PMBENCH_BUF_INIT;
	const char *slash = strrchr(path, '/');
	const char *file = slash ? slash + 1 : path;
	const struct pmbench_pm *found = NULL;
	int have_head = 0;

	if (!pmbench_fs_isfile(path))
		return NULL;
	for (size_t i = 0; i < pmbench_pms_nr && !found; i++) {
		const struct pmbench_pm *pm = &pmbench_pms[i];

		if (!listed(pm->lockfiles, file))
			continue;
		if (pm->lockfile_sniff && !have_head) {
			read_head(&head, path);
			have_head = 1;
		}
		if (!pm->lockfile_sniff || pm->lockfile_sniff(head.ptr))
			found = pm;
	}
	pmbench_buf_release(&head);
	return found;
}

int pmbench_pm_owns_lockfile(const struct pmbench_pm *pm, const char *path)
{
	return pmbench_pm_lockfile_owner(path) == pmbench_pm_base(pm);
}

const struct pmbench_pm *pmbench_pm_from_package_manager(const char *value)
{
	size_t n = strcspn(value, "@");
	int major = value[n] == '@' ? pmbench_pm_version_major(value + n + 1)
				    : -1;
	const struct pmbench_pm *newest = NULL;

	for (size_t i = 0; i < pmbench_pms_nr; i++) {
		const struct pmbench_pm *pm = &pmbench_pms[i];
		const char *name = pm->package_manager;

		if (!name || strlen(name) != n || strncmp(name, value, n))
			continue;
		if (major >= pm->major_min && major <= pm->major_max)
			return pm;
		if (!newest || pm->major_max > newest->major_max)
			newest = pm;
	}
	return newest;
}

int pmbench_pm_is_store(const char *name)
{
	for (size_t i = 0; pmbench_pm_nth(i); i++)
		if (listed(pmbench_pm_nth(i)->stores, name))
			return 1;
	return 0;
}

static const char *match_hint(const struct pmbench_pm_hint *h, const char *text)
{
	for (; h && h->pattern; h++)
		if (strstr(text, h->pattern) &&
		    (!h->also || strstr(text, h->also)))
			return h->hint;
	return NULL;
}

const char *pmbench_pm_hint(const struct pmbench_pm *pm, const char *text)
{
	const char *hint = pm ? match_hint(pm->hints, text) : NULL;

	return hint ? hint : match_hint(common_hints, text);
}

const char *pmbench_pm_hint_in(const struct pmbench_pm *pm, const char *text,
			       const char *project)
{
	static char said[1024];
	const struct pmbench_pm_fix *f = pm ? pm->fixes : NULL;

	for (; f && f->pattern; f++) {
		if (!strstr(text, f->pattern) ||
		    (f->also && !strstr(text, f->also)) ||
		    (f->check && !f->check(text, project)))
			continue;
		/* The fix, and where pmbench shows it as a diff. */
		snprintf(said, sizeof(said),
			 "%s; 'pmbench migrate --to %s' makes this change "
			 "(%s) in its copy and shows its diff",
			 f->fix, pmbench_pm_base(pm)->name,
			 f->change ? f->change : "?");
		return said;
	}
	return pmbench_pm_hint(pm, text);
}

static int has_prefix(const char *const *prefixes, const char *name)
{
	for (; prefixes && *prefixes; prefixes++)
		if (!strncmp(name, *prefixes, strlen(*prefixes)))
			return 1;
	return 0;
}

/* `name` is listed, or starts with a listed name that ends in '-'. */
static int tmp_listed(const char *const *list, const char *name)
{
	for (; list && *list; list++) {
		size_t n = strlen(*list);

		if (n && (*list)[n - 1] == '-' ? !strncmp(name, *list, n)
					       : !strcmp(name, *list))
			return 1;
	}
	return 0;
}

const char *pmbench_pm_fs_note(const struct pmbench_pm *pm, const char *type)
{
	const struct pmbench_pm_fs_note *n = pm ? pm->fs_notes
						: common_fs_notes;

	/* A variant links or copies as the PM it configures. */
	if (pm && !n && pm->base && pmbench_pm_get(pm->base))
		n = pmbench_pm_get(pm->base)->fs_notes;
	for (; n && n->type; n++)
		if (!strcmp(n->type, type))
			return n->note;
	return NULL;
}

int pmbench_pm_tmp_cache(const struct pmbench_pm *pm, const char *name)
{
	return tmp_listed(node_tmp_caches, name) ||
	       tmp_listed(pm ? pm->tmp_caches : NULL, name);
}

int pmbench_pm_env_related(const char *name)
{
	if (has_prefix(common_env_prefixes, name))
		return 1;
	for (size_t i = 0; i < pmbench_pms_nr; i++)
		if (has_prefix(pmbench_pms[i].env_prefixes, name))
			return 1;
	return 0;
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

void pmbench_pm_push_args(struct pmbench_strvec *out, const char *const *templ,
			  const char *cache)
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
	pmbench_pm_push_args(env, pm->ci_pins, cache);
	pmbench_pm_push_args(env, pm->version_env, cache);
	if (pm->variant)
		pmbench_pm_push_args(env, pm->variant->env, cache);
}

void pmbench_pm_env_older(struct pmbench_strvec *env,
			  const struct pmbench_pm *pm, const char *version)
{
	int major = version ? pmbench_pm_version_major(version) : -1;

	if (major < 0 || major >= pm->env_since)
		return;
	pmbench_strvec_pushv(env, pm->env_unknown_before);
}

void pmbench_pm_ci_env(struct pmbench_strvec *env, const struct pmbench_pm *pm,
		       int unpin)
{
	for (const char *const *p = pm->ci_pins; unpin && p && *p; p++)
		pmbench_strvec_pushf(env, "%.*s", (int)strcspn(*p, "="), *p);
	pmbench_strvec_pushv(env, pmbench_ci_set);
}

void pmbench_pm_push_install(struct pmbench_strvec *out,
			     const struct pmbench_pm *pm, int frozen,
			     const char *cache)
{
	pmbench_pm_push_args(out, frozen ? pm->frozen_args : pm->install_args,
			     cache);
	if (pm->variant)
		pmbench_pm_push_args(out, pm->variant->args, cache);
}

static const char *const scripts_choices[] = { "default", "none", "all" };

const char *pmbench_scripts_choice_name(enum pmbench_scripts_choice choice)
{
	return (size_t)choice < PMBENCH_ARRAY_SIZE(scripts_choices)
		       ? scripts_choices[choice]
		       : "default";
}

int pmbench_scripts_choice_parse(enum pmbench_scripts_choice *out,
				 const char *name)
{
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(scripts_choices); i++)
		if (!strcmp(name, scripts_choices[i])) {
			*out = (enum pmbench_scripts_choice)i;
			return 0;
		}
	return pmbench_error_setc(PMBENCH_EINVALID,
				  "unknown scripts choice '%s': use default, "
				  "none or all",
				  name);
}

/* How `pm` is told `choice`, or NULL: as it comes. */
static const struct pmbench_pm_scripts_way *
scripts_way(const struct pmbench_pm *pm, enum pmbench_scripts_choice choice)
{
	if (choice == PMBENCH_SCRIPTS_AS_IS ||
	    (size_t)choice >= PMBENCH_ARRAY_SIZE(pm->scripts_way))
		return NULL;
	return &pm->scripts_way[choice];
}

const char *pmbench_pm_scripts_field(const struct pmbench_pm *pm,
				     enum pmbench_scripts_choice choice)
{
	const struct pmbench_pm_scripts_way *w = scripts_way(pm, choice);

	return w ? w->trust_field : NULL;
}

const char *pmbench_pm_scripts_refusal(const struct pmbench_pm *pm,
				       enum pmbench_scripts_choice choice)
{
	const struct pmbench_pm_scripts_way *w = scripts_way(pm, choice);

	return w ? w->refusal : NULL;
}

/* Its scripts note at release `version` (NULL: not known). */
static const char *scripts_note(const struct pmbench_pm *pm,
				const char *version)
{
	int major = version ? pmbench_pm_version_major(version) : -1;

	if (pm->scripts_note_before && major >= 0 && major < pm->env_since)
		return pm->scripts_note_before;
	return pm->scripts_note;
}

void pmbench_pm_scripts_told(struct pmbench_buf *out,
			     const struct pmbench_pm *pm, const char *version,
			     enum pmbench_scripts_choice choice)
{
	const struct pmbench_pm_scripts_way *w = scripts_way(pm, choice);
	const char *sep = "told ";

	if (!w) {
		pmbench_buf_adds(out, scripts_note(pm, version));
		return;
	}
	pmbench_buf_addf(out,
			 "--scripts %s: ", pmbench_scripts_choice_name(choice));
	if (w->refusal) {
		pmbench_buf_adds(out, w->refusal);
		return;
	}
	for (const char *const *a = w->args; a && *a; a++, sep = " ")
		pmbench_buf_addf(out, "%s%s", sep, *a);
	for (const char *const *e = w->env; e && *e; e++, sep = " ")
		pmbench_buf_addf(out, "%s%s", sep, *e);
	if (w->trust_field)
		pmbench_buf_addf(out,
				 "%spackage.json's %s listing every installed "
				 "package with an install script",
				 sep, w->trust_field);
	if (w->why)
		pmbench_buf_addf(out, " (%s)", w->why);
	if (!w->args && !w->env && !w->trust_field)
		pmbench_buf_addf(out, "as it comes (%s)",
				 scripts_note(pm, version));
}

void pmbench_pm_push_scripts(struct pmbench_strvec *args,
			     struct pmbench_strvec *env,
			     const struct pmbench_pm *pm,
			     enum pmbench_scripts_choice choice)
{
	const struct pmbench_pm_scripts_way *w = scripts_way(pm, choice);

	if (!w || w->refusal)
		return;
	if (args && w->args)
		pmbench_strvec_pushv(args, w->args);
	if (env && w->env)
		pmbench_strvec_pushv(env, w->env);
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

const char *pmbench_pm_default_baseline(const char *const *pms, size_t nr)
{
	/* The entry itself first: "npm" before "npm:linked". */
	for (size_t i = 0; i < nr; i++) {
		const struct pmbench_pm *pm = pmbench_pm_get(pms[i]);

		if (pm && pm->caps & PMBENCH_PM_BASELINE && !pm->base)
			return pms[i];
	}
	for (size_t i = 0; i < nr; i++) {
		const struct pmbench_pm *pm = pmbench_pm_get(pms[i]);

		if (pm && pmbench_pm_base(pm)->caps & PMBENCH_PM_BASELINE)
			return pms[i];
	}
	return nr ? pms[0] : NULL;
}
