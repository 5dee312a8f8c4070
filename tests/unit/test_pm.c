#include "pmbench/common.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "pmbench/fs.h"
#include "pmbench/ctx.h"
#include "pmbench/pm.h"
#include "pmbench/pmrun.h"
#include "pmbench/pmversion.h"
#include "pmbench/proc.h"

TEST(table_is_complete)
{
	static const char *const names[] = { "npm",  "yarn", "yarn-berry",
					     "pnpm", "bun",  "deno" };

	CHECK_INT(pmbench_pms_nr, 6);
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(names); i++) {
		const struct pmbench_pm *pm = pmbench_pm_get(names[i]);

		CHECK(pm);
		CHECK_STR(pm->name, names[i]);
		CHECK(pm->install_args[0]);
		CHECK(pm->frozen_args[0]);
		CHECK(pm->lockfiles[0]);
		CHECK(pm->version_args[0]);
		CHECK(pm->scripts_note);
		/* Each says which line of a failure names the cause. */
		CHECK(pm->fail_causes && pm->fail_causes[0]);
		/* Each PM's cache is redirected into its own folder. */
		{
			int redirected = 0;

			for (const char *const *e = pm->env; *e; e++)
				redirected |= strstr(*e, "{cache}") != NULL;
			CHECK(redirected);
		}
	}
	CHECK(!pmbench_pm_get("cargo"));
}

TEST(env_redirects_everything_into_the_cache)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec applied = PMBENCH_STRVEC_INIT;
	char *base[] = { "CI=true", "HOME=/root", "GITHUB_ACTIONS=true",
			 "PATH=/usr/bin", NULL };

	pmbench_pm_env(&env, pmbench_pm_get("pnpm"), "/c/pm/pnpm");
	pmbench_env_apply(&applied, base, &env);
	CHECK(!pmbench_env_get(&applied, "CI"));
	CHECK(!pmbench_env_get(&applied, "GITHUB_ACTIONS"));
	CHECK_STR(pmbench_env_get(&applied, "HOME"), "/c/pm/pnpm/home");
	CHECK_STR(pmbench_env_get(&applied, "pnpm_config_store_dir"),
		  "/c/pm/pnpm/pnpm-store");
	CHECK_STR(pmbench_env_get(&applied, "XDG_CACHE_HOME"),
		  "/c/pm/pnpm/home/.cache");
	CHECK_STR(pmbench_env_get(&applied, "PATH"), "/usr/bin");
	pmbench_strvec_release(&env);
	pmbench_strvec_release(&applied);

	pmbench_pm_env(&env, pmbench_pm_get("yarn-berry"), "/c/pm/yb");
	CHECK(pmbench_strvec_find(&env, "YARN_ENABLE_GLOBAL_CACHE=false") >= 0);
	CHECK(pmbench_strvec_find(
		      &env, "YARN_CACHE_FOLDER=/c/pm/yb/berry-cache") >= 0);
	CHECK(pmbench_strvec_find(&env, "YARN_NODE_LINKER=node-modules") >= 0);
	pmbench_strvec_release(&env);
}

TEST(args_templates)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;

	pmbench_pm_push_args(&v, pmbench_pm_get("pnpm")->install_args, "/x");
	CHECK_STR(v.v[0], "install");
	CHECK(pmbench_strvec_find(&v, "/x/pnpm-store") >= 0);
	pmbench_strvec_release(&v);
}

TEST(version_major)
{
	CHECK_INT(pmbench_pm_version_major("1.22.22"), 1);
	CHECK_INT(pmbench_pm_version_major("deno 2.9.6 (stable)"), 2);
	CHECK_INT(pmbench_pm_version_major("v20.20.2"), 20);
	CHECK_INT(pmbench_pm_version_major("none"), -1);
}

TEST(find_checks_the_version)
{
	const char *sb = check_sandbox();
	struct pmbench_pm_found f = PMBENCH_PM_FOUND_INIT;
	char path[4200];

	/* A "yarn" that says 4.x is not yarn 1, but it is yarn-berry. */
	check_write("yarn", "#!/bin/sh\necho 4.18.1\n");
	chmod(check_path("yarn"), 0755);
	CHECK_INT(pmbench_pm_find(&f, NULL, pmbench_pm_get("yarn"), sb, sb),
		  PMBENCH_ENOTFOUND);
	CHECK_CONTAINS(pmbench_error_last(), "is version 4.18.1");
	CHECK_INT(pmbench_pm_find(&f, NULL, pmbench_pm_get("yarn-berry"), sb,
				  sb),
		  0);
	CHECK_STR(f.version, "4.18.1");
	CHECK_STR(f.source, "PATH");
	snprintf(path, sizeof(path), "%s/yarn", sb);
	CHECK_STR(f.path, path);
	pmbench_pm_found_release(&f);
}

/* One spelling of a PM at a version, the version before the variant. */
TEST(versions_are_spelled_with_the_name)
{
	const struct pmbench_pm *pm = pmbench_pm_get("pnpm@9.15.0:hoisted");
	const struct pmbench_pm *plain = pmbench_pm_get("pnpm");

	CHECK(pm);
	CHECK_STR(pm->name, "pnpm@9.15.0:hoisted");
	CHECK_STR(pm->version, "9.15.0");
	CHECK_STR(pm->unversioned, "pnpm:hoisted");
	CHECK_STR(pm->base, "pnpm");
	CHECK(pmbench_pm_base(pm) == plain);
	CHECK(pm->variant && !strcmp(pm->variant->name, "pnpm:hoisted"));
	/* No ':' in its folder; '@' kept, so two versions differ. */
	CHECK_STR(pmbench_pm_folder(pm), "pnpm@9.15.0_hoisted");
	CHECK(pmbench_pm_get("pnpm@9.15.0:hoisted") == pm);
	CHECK(!pm->toolchain_bin && !pm->node_bin && !pm->path_names[0]);
	/* pnpm before 11 reads npm_config_*: the same settings given so. */
	CHECK(pm->version_env);
	CHECK(!pmbench_pm_get("pnpm@12")->version_env);
	/* Ranges are versions too; the pinned one keeps its places. */
	CHECK(pmbench_pm_get("pnpm@^9.1"));
	CHECK(pmbench_pm_get("bun@1.1"));
	CHECK(pmbench_pm_get("yarn-berry@3"));
	CHECK(pmbench_pm_get("npm@10"));
	pm = pmbench_pm_get("pnpm@pinned");
	CHECK(pm && pm->toolchain_bin && !pm->version_env);
	CHECK_STR(pm->version, PMBENCH_PM_PINNED);
	/* What is wrong with a name is said. */
	CHECK_INT(pmbench_pm_lookup(&pm, "pnpm@nine"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "'nine' in 'pnpm@nine' is no "
					     "version or range");
	CHECK_INT(pmbench_pm_lookup(&pm, "yarn@3"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "write yarn-berry@3");
	CHECK_INT(pmbench_pm_lookup(&pm, "pnmp@9"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "unknown package manager 'pnmp'");
	CHECK(!pmbench_pm_get("pnpm@9:nolinker"));
	CHECK(!pmbench_pm_get("pnpm@"));
	CHECK(!pmbench_pm_get("pnpm@9/../../x"));
	pmbench_error_clear();
}

/* An installed release: its stamp, in a folder named <pm>@<version>. */
static void installed(const char *name, const char *version)
{
	char p[256], text[512];

	snprintf(p, sizeof(p), "tc/versions/%s/bin", name);
	pmbench_fs_mkdirp(check_path(p), 0755);
	snprintf(p, sizeof(p), "tc/versions/%s/bin/pm.js", name);
	check_write(p, "#!/bin/sh\necho fake\n");
	chmod(check_path(p), 0755);
	snprintf(p, sizeof(p), "tc/versions/%s/.pmbench-pm", name);
	snprintf(text, sizeof(text),
		 "{\"version\": \"%s\", \"bin\": \"bin/pm.js\"}", version);
	check_write(p, text);
}

/* The newest installed release in the range, found without a registry. */
TEST(installed_releases_are_found_by_range)
{
	struct pmbench_pm_release rel = PMBENCH_PM_RELEASE_INIT;
	struct pmbench_strvec have = PMBENCH_STRVEC_INIT;
	char tc[4200];

	check_sandbox();
	snprintf(tc, sizeof(tc), "%s", check_path("tc"));
	installed("pnpm@9.1.0", "9.1.0");
	installed("pnpm@9.15.0", "9.15.0");
	installed("pnpm@10.2.0", "10.2.0");
	/* No stamp: a half-made folder is not a release. */
	pmbench_fs_mkdirp(check_path("tc/versions/pnpm@9.20.0"), 0755);
	CHECK_INT(pmbench_pm_release_find(&rel, tc, pmbench_pm_get("pnpm@9"),
					  NULL),
		  0);
	CHECK_STR(rel.version, "9.15.0");
	CHECK_CONTAINS(rel.bin, "versions/pnpm@9.15.0/bin/pm.js");
	pmbench_pm_release_release(&rel);
	CHECK_INT(pmbench_pm_release_find(&rel, tc,
					  pmbench_pm_get("pnpm@9.1.0"), NULL),
		  0);
	CHECK_STR(rel.version, "9.1.0");
	pmbench_pm_release_release(&rel);
	/* The variant's release is its base's. */
	CHECK_INT(pmbench_pm_release_find(
			  &rel, tc, pmbench_pm_get("pnpm@10:hoisted"), NULL),
		  0);
	CHECK_STR(rel.version, "10.2.0");
	pmbench_pm_release_release(&rel);
	CHECK_INT(pmbench_pm_release_find(&rel, tc, pmbench_pm_get("pnpm@8"),
					  NULL),
		  1);
	CHECK_INT(pmbench_pm_release_find(&rel, tc, pmbench_pm_get("npm@9"),
					  NULL),
		  1);
	pmbench_pm_release_installed(&have, tc);
	CHECK_INT(have.nr, 3);
	CHECK_STR(have.v[0], "pnpm@10.2.0");
	pmbench_strvec_release(&have);
}

TEST(toolchain_comes_first)
{
	const char *sb = check_sandbox();
	struct pmbench_pm_found f = PMBENCH_PM_FOUND_INIT;
	struct pmbench_ctx ctx = PMBENCH_CTX_INIT;
	char tc[4200], want[4300];

	/* The same name on PATH answers another version: not chosen. */
	check_write("yarn", "#!/bin/sh\necho 1.0.0\n");
	chmod(check_path("yarn"), 0755);
	snprintf(tc, sizeof(tc), "%s/tc", sb);
	pmbench_fs_mkdirp(check_path("tc/yarn/node_modules/.bin"), 0755);
	check_write("tc/yarn/node_modules/.bin/yarn",
		    "#!/bin/sh\necho 1.22.22\n");
	chmod(check_path("tc/yarn/node_modules/.bin/yarn"), 0755);
	ctx.toolchain_dir = tc;
	CHECK_INT(pmbench_pm_find(&f, &ctx, pmbench_pm_get("yarn"), sb, sb), 0);
	CHECK_STR(f.source, "toolchain");
	CHECK_STR(f.version, "1.22.22");
	snprintf(want, sizeof(want), "%s/yarn/node_modules/.bin/yarn", tc);
	CHECK_STR(f.path, want);
	pmbench_pm_found_release(&f);
}

/*
 * Real failures of each PM (tests/data/pm-failures, README there): the
 * reason is the line that names the cause, never npm's log path, yarn's
 * "info Visit ..." or yarn 4's "Failed with errors" summary.
 */
TEST(failure_line_names_the_cause)
{
	static const struct {
		const char *pm, *file, *want;
	} cases[] = {
		{ "npm", "npm-ejsonparse", "npm error code EJSONPARSE" },
		{ "npm", "npm-etarget", "npm error code ETARGET" },
		{ "npm", "npm-e404", "npm error code E404" },
		{ "npm", "npm-eresolve", "npm error code ERESOLVE" },
		{ "npm", "npm-eintegrity", "npm error code EINTEGRITY" },
		{ "npm", "npm-postinstall",
		  "npm error command sh -c echo about to fail; exit 3" },
		{ "npm", "npm-dep-postinstall",
		  "npm error command sh -c echo about to fail; exit 3" },
		{ "yarn", "yarn-bad-json",
		  "error SyntaxError: /tmp/pmfail/w/yarn-badjson/proj/"
		  "package.json: Expected double-quoted property name in "
		  "JSON at position 86" },
		{ "yarn", "yarn-no-version",
		  "error Couldn't find any versions for \"left-pad\" that "
		  "matches \"99.99.99\"" },
		{ "yarn", "yarn-no-package",
		  "error Couldn't find package "
		  "\"pmbench-no-such-package-xyzzy\" on the \"npm\" "
		  "registry." },
		{ "yarn", "yarn-postinstall",
		  "error Command failed with exit code 3." },
		{ "yarn", "yarn-dep-postinstall",
		  "error /tmp/pmfail/w/yarn-postinstall/proj/node_modules/"
		  "dep: Command failed." },
		{ "yarn", "yarn-engines",
		  "error dep@1.0.0: The engine \"node\" is incompatible with "
		  "this module. Expected version \">=99\". Got \"20.20.2\"" },
		{ "yarn-berry", "yarn-berry-bad-json",
		  "Syntax Error: Expected double-quoted property name in JSON "
		  "at position 86 (when parsing /tmp/pmfail/w/"
		  "yarn-berry-badjson/proj/package.json)" },
		{ "yarn-berry", "yarn-berry-no-version",
		  "➤ YN0082: │ left-pad@npm:99.99.99: No candidates found" },
		{ "yarn-berry", "yarn-berry-no-package",
		  "➤ YN0035: │ pmbench-no-such-package-xyzzy@npm:1.0.0: "
		  "Package not found" },
		{ "yarn-berry", "yarn-berry-postinstall",
		  "➤ YN0009: │ x@workspace:. couldn't be built successfully "
		  "(exit code 3, logs can be found here: "
		  "/tmp/xfs-5fc7ff12/build.log)" },
		{ "yarn-berry", "yarn-berry-frozen",
		  "➤ YN0028: · The lockfile would have been created by this "
		  "install, which is explicitly forbidden." },
		{ "yarn-berry", "yarn-berry-missing-file",
		  "➤ YN0001: │ Error: dep@file:./nowhere::locator="
		  "x%40workspace%3A.: ENOENT: no such file or directory, "
		  "lstat '/tmp/pmfail/w/yarn-berry-missingdep/proj/"
		  "nowhere'" },
		{ "pnpm", "pnpm-no-version",
		  "Error: ERR_PNPM_NO_MATCHING_VERSION" },
		{ "pnpm", "pnpm-no-package", "Error: ERR_PNPM_FETCH_404" },
		{ "pnpm", "pnpm-postinstall",
		  "Error: ERR_PNPM_EXECUTOR_LIFECYCLE_SCRIPT_FAILED" },
		{ "pnpm", "pnpm-frozen", "Error: ERR_PNPM_NO_LOCKFILE" },
		/* pnpm 12 names no code for these: the root cause line. */
		{ "pnpm", "pnpm-bad-json",
		  "╰─▶ trailing comma at line 6 column 3" },
		{ "pnpm", "pnpm-missing-file",
		  "╰─▶ Failed to resolve dependency tree: Failed to resolve "
		  "dependency: Could not install from \"/tmp/pmfail/w/"
		  "pnpm-missingdep/proj/nowhere\" as it does not exist." },
		{ "bun", "bun-bad-json",
		  "error: Expected \"}\" but found end of file" },
		{ "bun", "bun-no-version",
		  "error: No version matching \"99.99.99\" found for specifier "
		  "\"left-pad\" (but package exists)" },
		{ "bun", "bun-no-package",
		  "error: GET https://registry.npmjs.org/"
		  "pmbench-no-such-package-xyzzy - 404" },
		{ "bun", "bun-postinstall",
		  "error: postinstall script from \"x\" exited with 3" },
		{ "bun", "bun-missing-file",
		  "error: package.json not found for \"file:nowhere\" "
		  "dependency \"dep\"" },
		{ "deno", "deno-bad-json",
		  "error: Malformed package.json '/tmp/pmfail/w/deno-badjson/"
		  "proj/package.json'." },
		{ "deno", "deno-no-version",
		  "error: Could not find npm package 'left-pad' matching "
		  "'99.99.99'." },
		{ "deno", "deno-no-package",
		  "error: npm package 'pmbench-no-such-package-xyzzy' does not "
		  "exist." },
		{ "deno", "deno-frozen",
		  "error: The lockfile is out of date. Run `deno install "
		  "--frozen=false`, or rerun with `--frozen=false` to update "
		  "it." },
	};
	const char *root = getenv("PMBENCH_SOURCE_DIR");
	struct pmbench_buf path = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	struct pmbench_buf line = PMBENCH_BUF_INIT;
	int bad = 0;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(cases); i++) {
		pmbench_buf_reset(&path);
		pmbench_buf_addf(&path, "%s/tests/data/pm-failures/%s.txt",
				 root ? root : ".", cases[i].file);
		pmbench_buf_reset(&text);
		pmbench_buf_reset(&line);
		if (pmbench_fs_read(&text, path.ptr, 1u << 20) < 0) {
			check_fail(__FILE__, __LINE__, "%s",
				   pmbench_error_last());
			bad = 1;
			continue;
		}
		pmbench_pmrun_failure_line(&line, pmbench_pm_get(cases[i].pm),
					   text.ptr);
		if (strcmp(line.ptr, cases[i].want)) {
			check_fail(__FILE__, __LINE__,
				   "%s: got \"%s\", want \"%s\"", cases[i].file,
				   line.ptr, cases[i].want);
			bad = 1;
		}
	}
	CHECK(!bad);
	/* No PM (a bare command): the last line that looks like an error. */
	pmbench_buf_reset(&line);
	pmbench_pmrun_failure_line(&line, NULL,
				   "starting\nfatal: no such thing\nbye\n");
	CHECK_STR(line.ptr, "fatal: no such thing");
	/* A long line is cut at 300 bytes, never inside a character. */
	pmbench_buf_reset(&text);
	for (int i = 0; i < 299; i++)
		pmbench_buf_addch(&text, 'x');
	pmbench_buf_adds(&text, "│ error\n");
	pmbench_buf_reset(&line);
	pmbench_pmrun_failure_line(&line, NULL, text.ptr);
	CHECK_INT(line.len, 299);
	pmbench_buf_release(&path);
	pmbench_buf_release(&text);
	pmbench_buf_release(&line);
}

/* A berry yarn.lock's head, as yarn 4 writes it. */
#define BERRY_HEAD                                                          \
	"# This file is generated by running \"yarn install\" inside your " \
	"project.\n# Manual changes might be lost - proceed with "          \
	"caution!\n\n__metadata:\n  version: 8\n  cacheKey: 10c0\n\n"

/* `text`, then `pad` bytes of lockfile-like lines, into `name`. */
static const char *write_big(const char *name, const char *text, size_t pad)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *path;

	pmbench_buf_adds(&b, text);
	while (b.len < pad)
		pmbench_buf_adds(&b, "\"left-pad@npm:^1.3.0\":\n  version: "
				     "1.3.0\n  resolution: "
				     "\"left-pad@npm:1.3.0\"\n\n");
	path = check_write(name, b.ptr);
	pmbench_buf_release(&b);
	return path;
}

TEST(lockfiles_are_told_apart_by_the_table)
{
	const char *sb = check_sandbox();
	char path[4200];
	int fd;

	for (const char *d = "abcdef"; *d; d++) {
		char name[2] = { *d, 0 };

		pmbench_fs_mkdirp(check_path(name), 0755);
	}
	check_write("a/yarn.lock", "# THIS IS AN AUTOGENERATED FILE. DO NOT "
				   "EDIT THIS FILE DIRECTLY.\n# yarn lockfile "
				   "v1\n\n\nleft-pad@^1.3.0:\n");
	CHECK_STR(pmbench_pm_lockfile_owner(check_path("a/yarn.lock"))->name,
		  "yarn");
	check_write("b/yarn.lock", BERRY_HEAD);
	CHECK_STR(pmbench_pm_lockfile_owner(check_path("b/yarn.lock"))->name,
		  "yarn-berry");
	CHECK(pmbench_pm_owns_lockfile(pmbench_pm_get("yarn-berry"),
				       check_path("b/yarn.lock")));
	CHECK(!pmbench_pm_owns_lockfile(pmbench_pm_get("yarn"),
					check_path("b/yarn.lock")));
	/* An empty yarn.lock (yarn 4's root marker) is nobody's. */
	check_write("c/yarn.lock", "");
	CHECK(!pmbench_pm_lockfile_owner(check_path("c/yarn.lock")));
	check_write("c/package-lock.json", "{}");
	CHECK_STR(pmbench_pm_lockfile_owner(check_path("c/package-lock.json"))
			  ->name,
		  "npm");
	check_write("c/bun.lockb", "\x01\x02");
	CHECK_STR(pmbench_pm_lockfile_owner(check_path("c/bun.lockb"))->name,
		  "bun");
	CHECK(!pmbench_pm_lockfile_owner(check_path("c/missing.lock")));
	CHECK(!pmbench_pm_lockfile_owner(check_path("c/package.json")));

	/*
	 * Size does not change the answer: a berry lockfile of 5 MiB (past
	 * the 4 MiB that migrate used to read) and one of 100 MiB (sparse:
	 * past the 64 MiB the scenarios read).
	 */
	write_big("d/yarn.lock", BERRY_HEAD, 5u << 20);
	CHECK_STR(pmbench_pm_lockfile_owner(check_path("d/yarn.lock"))->name,
		  "yarn-berry");
	write_big("e/yarn.lock", "# yarn lockfile v1\n\n", 5u << 20);
	CHECK_STR(pmbench_pm_lockfile_owner(check_path("e/yarn.lock"))->name,
		  "yarn");
	snprintf(path, sizeof(path), "%s/f/yarn.lock", sb);
	check_write("f/yarn.lock", BERRY_HEAD);
	fd = open(path, O_WRONLY);
	CHECK(fd >= 0);
	CHECK_INT(ftruncate(fd, (off_t)100 << 20), 0);
	close(fd);
	CHECK_STR(pmbench_pm_lockfile_owner(path)->name, "yarn-berry");
}

TEST(all_lockfiles_from_the_table)
{
	static const char *const want[] = {
		"package-lock.json", "npm-shrinkwrap.json",
		"yarn.lock",	     "pnpm-lock.yaml",
		"bun.lock",	     "bun.lockb",
		"deno.lock",	     NULL,
	};
	const char *const *all = pmbench_pm_all_lockfiles();

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(want); i++) {
		if (!want[i])
			CHECK(!all[i]);
		else
			CHECK(all[i] && !strcmp(all[i], want[i]));
	}
}

TEST(package_manager_field)
{
	static const struct {
		const char *value, *pm;
	} cases[] = {
		{ "yarn@1.22.22", "yarn" },
		{ "yarn@4.1.0+sha512.5b7bc055cad63273dda27df1570a5d2eb4a9f03b3"
		  "5b394d3d55393c2a5560a17f5cef30944b11d6a48bcbcfadf0bd2d"
		  "9a56c9b0d50c3b1e0de4e5d7fb6aeebeebf5",
		  "yarn-berry" },
		{ "yarn@2.4.3", "yarn-berry" },
		{ "yarn", "yarn-berry" },
		{ "npm@10.8.2", "npm" },
		{ "npm@6.14.18", "npm" },
		{ "pnpm@9.1.0", "pnpm" },
		{ "bun@1.1.8", "bun" },
		{ "deno@2.1.0", NULL },
		{ "cargo@1.0.0", NULL },
		{ "", NULL },
	};

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(cases); i++) {
		const struct pmbench_pm *pm =
			pmbench_pm_from_package_manager(cases[i].value);

		if (!cases[i].pm)
			CHECK(!pm);
		else
			CHECK(pm && !strcmp(pm->name, cases[i].pm));
	}
}

TEST(store_folders_and_related_variables)
{
	CHECK(pmbench_pm_is_store(".pnpm"));
	CHECK(pmbench_pm_is_store(".deno"));
	CHECK(!pmbench_pm_is_store(".bin"));
	CHECK(!pmbench_pm_is_store("left-pad"));
	CHECK(pmbench_pm_env_related("npm_config_registry"));
	CHECK(pmbench_pm_env_related("YARN_ENABLE_SCRIPTS"));
	CHECK(pmbench_pm_env_related("pnpm_config_store_dir"));
	CHECK(pmbench_pm_env_related("BUN_INSTALL"));
	CHECK(pmbench_pm_env_related("NODE_OPTIONS"));
	CHECK(!pmbench_pm_env_related("PATH"));
	CHECK(!pmbench_pm_env_related("HOME"));
}

TEST(names_joined_for_messages)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *const *names = pmbench_pm_names();

	pmbench_pm_join_names(&b, ", ", PMBENCH_PM_JOIN_OR);
	CHECK_STR(b.ptr, "npm, yarn, yarn-berry, pnpm, bun or deno");
	pmbench_buf_reset(&b);
	pmbench_pm_join_names(&b, ",", 0);
	CHECK_STR(b.ptr, "npm,yarn,yarn-berry,pnpm,bun,deno");
	for (size_t i = 0; i < pmbench_pms_nr; i++)
		CHECK_STR(names[i], pmbench_pms[i].name);
	CHECK_STR(pmbench_pm_command_name(pmbench_pm_get("yarn-berry")),
		  "yarn");
	CHECK_STR(pmbench_pm_command_name(pmbench_pm_get("pnpm")), "pnpm");
	pmbench_buf_release(&b);
}

/*
 * Every PM's own words for a version that does not exist (the recorded
 * failures) get the same hint; traps of one PM are its own, and the
 * common ones (downloads, native builds) reach every PM and no PM.
 */
TEST(hints_come_from_the_table)
{
	static const struct {
		const char *pm, *file, *want;
	} cases[] = {
		{ "npm", "npm-etarget", "not in the registry" },
		{ "npm", "npm-eresolve", "--legacy-peer-deps" },
		{ "yarn", "yarn-no-version", "not in the registry" },
		{ "yarn", "yarn-engines", "YARN_IGNORE_ENGINES" },
		{ "yarn-berry", "yarn-berry-no-version",
		  "not in the registry" },
		{ "pnpm", "pnpm-no-version", "not in the registry" },
		{ "bun", "bun-no-version", "not in the registry" },
		{ "deno", "deno-no-version", "not in the registry" },
		{ "deno", "deno-no-package", NULL },
		{ "bun", "bun-bad-json", NULL },
	};
	const char *root = getenv("PMBENCH_SOURCE_DIR");
	struct pmbench_buf path = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(cases); i++) {
		const char *hint;

		pmbench_buf_reset(&path);
		pmbench_buf_addf(&path, "%s/tests/data/pm-failures/%s.txt",
				 root ? root : ".", cases[i].file);
		pmbench_buf_reset(&text);
		CHECK_INT(pmbench_fs_read(&text, path.ptr, 1u << 20), 0);
		hint = pmbench_pm_hint(pmbench_pm_get(cases[i].pm), text.ptr);
		if (!cases[i].want)
			CHECK(!hint);
		else
			CHECK(hint && strstr(hint, cases[i].want));
	}
	/* npm's trap is npm's: another PM's output does not get it. */
	CHECK(!pmbench_pm_hint(pmbench_pm_get("bun"), "ERESOLVE"));
	CHECK(pmbench_pm_hint(pmbench_pm_get("bun"), "getaddrinfo ENOTFOUND"));
	CHECK(pmbench_pm_hint(NULL, "gyp ERR! build error"));
	CHECK(!pmbench_pm_hint(NULL, "all fine"));
	pmbench_buf_release(&path);
	pmbench_buf_release(&text);
}

TEST(routes)
{
	const struct pmbench_pm *pnpm = pmbench_pm_get("pnpm");

	CHECK_INT(pmbench_pm_route(pnpm, "pnpm"), PMBENCH_ROUTE_OWN);
	CHECK_INT(pmbench_pm_route(pnpm, "npm"), PMBENCH_ROUTE_IMPORT);
	CHECK_INT(pmbench_pm_route(pnpm, "bun"), PMBENCH_ROUTE_FRESH);
	CHECK_INT(pmbench_pm_route(pmbench_pm_get("bun"), "yarn"),
		  PMBENCH_ROUTE_READS);
}

/*
 * Every variant is a whole PM: its base's facts, its own name, title and
 * folder, its arguments after the base's install and CI arguments and
 * its settings after the base's environment.
 */
TEST(variants_are_whole_pms)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const struct pmbench_pm *pm;
	size_t n = 0;

	for (size_t i = pmbench_pms_nr; (pm = pmbench_pm_nth(i)); i++) {
		const struct pmbench_pm *base = pmbench_pm_get(pm->base);
		const struct pmbench_pm_variant *var = pm->variant;

		n++;
		CHECK(base && var && !base->variant);
		CHECK(pmbench_pm_base(pm) == base);
		CHECK(pmbench_pm_get(pm->name) == pm);
		CHECK(!strncmp(pm->name, base->name, strlen(base->name)));
		CHECK(pm->name[strlen(base->name)] == ':');
		CHECK(!strchr(pmbench_pm_folder(pm), ':'));
		CHECK(strcmp(pmbench_pm_folder(pm), base->name));
		CHECK(pm->title && strcmp(pm->title, base->title));
		CHECK(pm->lockfiles == base->lockfiles);
		CHECK(pm->fail_causes == base->fail_causes);
		CHECK_STR(pmbench_pm_command_name(pm),
			  pmbench_pm_command_name(base));
		/* It configures something, and says what. */
		CHECK(var->args || var->env || var->run_args);
		pmbench_buf_reset(&b);
		pmbench_pm_config(&b, pm);
		CHECK(!strncmp(b.ptr, base->name, strlen(base->name)));
		CHECK_CONTAINS(b.ptr, " with ");
		for (int frozen = 0; frozen < 2; frozen++) {
			size_t k = 0, nb = 0;

			pmbench_strvec_release(&v);
			pmbench_pm_push_install(&v, pm, frozen, "/c");
			for (const char *const *a = frozen ? base->frozen_args
							   : base->install_args;
			     *a; a++)
				nb++;
			for (const char *const *a = var->args; a && *a; a++)
				CHECK_STR(v.v[nb + k++], *a);
			CHECK_INT(v.nr, nb + k);
		}
		pmbench_strvec_release(&v);
		pmbench_pm_env(&v, pm, "/c");
		for (const char *const *e = var->env; e && *e; e++)
			CHECK(pmbench_strvec_find(&v, *e) >= 0);
		pmbench_strvec_release(&v);
		/* It starts from its base's lockfile as its base does. */
		CHECK_INT(pmbench_pm_route(pm, base->name), PMBENCH_ROUTE_OWN);
	}
	CHECK(n >= 5);
	CHECK(!pmbench_pm_nth(pmbench_pms_nr + n));
	CHECK_STR(pmbench_pm_names()[pmbench_pms_nr],
		  pmbench_pm_nth(pmbench_pms_nr)->name);
	CHECK(!pmbench_pm_names()[pmbench_pms_nr + n]);
	pm = pmbench_pm_get("yarn-berry:pnp");
	CHECK(pm && (pm->caps & PMBENCH_PM_NO_NODE_MODULES));
	CHECK_STR(pmbench_pm_folder(pm), "yarn-berry_pnp");
	CHECK_STR(pmbench_pm_command_name(pm), "yarn");
	/* The later YARN_NODE_LINKER wins over the base's node-modules. */
	pmbench_pm_env(&v, pm, "/c");
	CHECK_STR(pmbench_env_get(&v, "YARN_NODE_LINKER"), "pnp");
	pmbench_strvec_release(&v);
	pmbench_buf_reset(&b);
	pmbench_pm_config(&b, pmbench_pm_get("npm:linked"));
	CHECK_STR(b.ptr, "npm with --install-strategy=linked");
	pmbench_buf_reset(&b);
	pmbench_pm_config(&b, pmbench_pm_get("npm"));
	CHECK_STR(b.ptr, "");
	CHECK_INT(pmbench_pm_route(pmbench_pm_get("pnpm"), "yarn-berry:pnp"),
		  PMBENCH_ROUTE_IMPORT);
	CHECK(pmbench_pm_is_store(".store"));
	CHECK(pmbench_pm_is_store(".bun"));
	CHECK(!pmbench_pm_get("npm:"));
	CHECK(!pmbench_pm_get("npm:nope"));
	pmbench_buf_reset(&b);
	pmbench_pm_join_names(&b, ",", PMBENCH_PM_JOIN_VARIANTS);
	CHECK_CONTAINS(b.ptr, "deno,yarn-berry:pnp,");
	pmbench_buf_release(&b);
}

/*
 * What the file system changes: pnpm and bun hard-link from their store,
 * so overlayfs copies instead; npm does not link; a variant links as its
 * base; tmpfs is a note for every PM.
 */
TEST(file_system_notes)
{
	const char *n = pmbench_pm_fs_note(pmbench_pm_get("pnpm"), "overlay");

	CHECK(n && strstr(n, "pnpm/pnpm.io#914"));
	CHECK(pmbench_pm_fs_note(pmbench_pm_get("bun"), "overlay") != NULL);
	CHECK(pmbench_pm_fs_note(pmbench_pm_get("npm"), "overlay") == NULL);
	CHECK(pmbench_pm_fs_note(pmbench_pm_get("pnpm"), "ext4") == NULL);
	CHECK(pmbench_pm_fs_note(pmbench_pm_get("pnpm:hoisted"), "overlay") !=
	      NULL);
	CHECK(pmbench_pm_fs_note(NULL, "tmpfs") != NULL);
	CHECK(pmbench_pm_fs_note(NULL, "ext4") == NULL);
}

/* Write `text` to dir/name. */
static void put(const char *dir, const char *name, const char *text)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;

	pmbench_buf_path(&p, dir, name);
	CHECK_INT(pmbench_fs_write_atomic(p.ptr, text, strlen(text)), 0);
	pmbench_buf_release(&p);
}

/*
 * The configuration each PM reads: pnpm's pnpm-workspace.yaml, its
 * package.json "pnpm" settings and .npmrc; bun's bunfig.toml; the user's
 * npmrc only when passed; keys off the table are not stated; a setting
 * that changes the work warns.
 */
TEST(configuration_files_stated)
{
	char dir[] = "/tmp/pmbench-conf-XXXXXX";
	struct pmbench_buf out = PMBENCH_BUF_INIT, warn = PMBENCH_BUF_INIT;
	struct pmbench_buf user = PMBENCH_BUF_INIT;

	CHECK(mkdtemp(dir) != NULL);
	put(dir, "pnpm-workspace.yaml",
	    "packages:\n  - 'pkgs/*'\nnodeLinker: hoisted\n");
	put(dir, "package.json",
	    "{\"name\":\"x\",\"pnpm\":{\"sideEffectsCache\":false}}");
	put(dir, ".npmrc", "package-import-method=copy\nfund=false\n");
	put(dir, "bunfig.toml", "[install]\nlinker = \"isolated\"\n");
	put(dir, "user.npmrc", "omit-lockfile-registry-resolved=true\n");
	pmbench_pm_conf_scan(&out, &warn, pmbench_pm_get("pnpm"), dir, NULL);
	CHECK_CONTAINS(out.ptr, "nodeLinker=hoisted (pnpm-workspace.yaml)");
	CHECK_CONTAINS(out.ptr, "sideEffectsCache=false (package.json)");
	CHECK_CONTAINS(out.ptr, "package-import-method=copy (.npmrc)");
	CHECK(!strstr(out.ptr, "fund") && !strstr(out.ptr, "packages"));
	CHECK_CONTAINS(warn.ptr, "pnpm copies packages");
	pmbench_buf_reset(&out);
	pmbench_buf_reset(&warn);
	pmbench_buf_path(&user, dir, "user.npmrc");
	pmbench_pm_conf_scan(&out, &warn, pmbench_pm_get("npm"), dir, NULL);
	CHECK_INT((int)out.len, 0);
	pmbench_pm_conf_scan(&out, &warn, pmbench_pm_get("npm"), dir, user.ptr);
	CHECK_STR(out.ptr, "omit-lockfile-registry-resolved=true (~/.npmrc)");
	CHECK_CONTAINS(warn.ptr, "no tarball URLs");
	pmbench_buf_reset(&out);
	pmbench_pm_conf_scan(&out, NULL, pmbench_pm_get("bun"), dir, NULL);
	CHECK_STR(out.ptr, "install.linker=isolated (bunfig.toml)");
	CHECK_INT(pmbench_fs_rmtree(dir), 0);
	pmbench_buf_release(&out);
	pmbench_buf_release(&warn);
	pmbench_buf_release(&user);
}

int main(int argc, char **argv)
{
	static const struct check_case cases[] = {
		CASE(table_is_complete),
		CASE(env_redirects_everything_into_the_cache),
		CASE(args_templates),
		CASE(version_major),
		CASE(find_checks_the_version),
		CASE(toolchain_comes_first),
		CASE(versions_are_spelled_with_the_name),
		CASE(installed_releases_are_found_by_range),
		CASE(failure_line_names_the_cause),
		CASE(lockfiles_are_told_apart_by_the_table),
		CASE(all_lockfiles_from_the_table),
		CASE(package_manager_field),
		CASE(store_folders_and_related_variables),
		CASE(names_joined_for_messages),
		CASE(hints_come_from_the_table),
		CASE(routes),
		CASE(variants_are_whole_pms),
		CASE(file_system_notes),
		CASE(configuration_files_stated),
	};

	if (pmbench_proc_init() < 0)
		return 1;
	return check_run(cases, PMBENCH_ARRAY_SIZE(cases), argc, argv);
}
