#include "pmbench/common.h"

#include <sys/stat.h>

#include "check.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
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
	CHECK(pmbench_strvec_find(&env, "YARN_CACHE_FOLDER=/c/pm/yb/berry-cache") >= 0);
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
	CHECK_INT(pmbench_pm_find(&f, pmbench_pm_get("yarn"), NULL, sb, sb),
		  PMBENCH_ENOTFOUND);
	CHECK_CONTAINS(pmbench_error_last(), "is version 4.18.1");
	CHECK_INT(pmbench_pm_find(&f, pmbench_pm_get("yarn-berry"), NULL, sb,
				  sb),
		  0);
	CHECK_STR(f.version, "4.18.1");
	CHECK_STR(f.source, "PATH");
	snprintf(path, sizeof(path), "%s/yarn", sb);
	CHECK_STR(f.path, path);
	pmbench_pm_found_release(&f);
}

TEST(toolchain_comes_first)
{
	const char *sb = check_sandbox();
	struct pmbench_pm_found f = PMBENCH_PM_FOUND_INIT;
	char tc[4200], want[4300];

	/* The same name on PATH answers another version: not chosen. */
	check_write("yarn", "#!/bin/sh\necho 1.0.0\n");
	chmod(check_path("yarn"), 0755);
	snprintf(tc, sizeof(tc), "%s/tc", sb);
	pmbench_fs_mkdirp(check_path("tc/yarn/node_modules/.bin"), 0755);
	check_write("tc/yarn/node_modules/.bin/yarn", "#!/bin/sh\necho 1.22.22\n");
	chmod(check_path("tc/yarn/node_modules/.bin/yarn"), 0755);
	CHECK_INT(pmbench_pm_find(&f, pmbench_pm_get("yarn"), tc, sb, sb), 0);
	CHECK_STR(f.source, "toolchain");
	CHECK_STR(f.version, "1.22.22");
	snprintf(want, sizeof(want), "%s/yarn/node_modules/.bin/yarn", tc);
	CHECK_STR(f.path, want);
	pmbench_pm_found_release(&f);
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
	};

	if (pmbench_proc_init() < 0)
		return 1;
	return check_run(cases, PMBENCH_ARRAY_SIZE(cases), argc, argv);
}
