/*
 * PM versions with the real registry (label "online"): `--pm pnpm@9,
 * yarn@1.22` installs the newest pnpm 9 and yarn 1.22 from the npm
 * registry into the test's own toolchain folder (a folder of links to
 * the pinned toolchain, beside which versions/ is the test's), and
 * benches a tiny local project with them, one clean install each: the
 * cells record the releases asked for, installed there, and say why.
 */
#include "pmbench/common.h"

#include <dirent.h>
#include <unistd.h>

#include "check.h"
#include "fields.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/result.h"
#include "pmbench/workdir.h"

/*
 * <cache>/toolchain: a link to each entry of the pinned toolchain
 * `pinned`, so that what is installed lands in the test's own folder,
 * never the shared one.
 */
static void own_toolchain(int *out, const char *pinned)
{
	char dir[4200], link[8400], target[8400];
	struct dirent *e;
	DIR *d;

	*out = 0;
	CHECK(pinned && (d = opendir(pinned)));
	/* A pmbench work folder (its marker) before anything is in it. */
	CHECK_INT(pmbench_workdir_check(h_cache(), 0), 0);
	snprintf(dir, sizeof(dir), "%s/toolchain", h_cache());
	CHECK_INT(pmbench_fs_mkdirp(dir, 0755), 0);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "versions"))
			continue;
		snprintf(link, sizeof(link), "%s/%s", dir, e->d_name);
		snprintf(target, sizeof(target), "%s/%s", pinned, e->d_name);
		CHECK_INT(symlink(target, link), 0);
	}
	closedir(d);
	unsetenv("PMBENCH_TOOLCHAIN_DIR");
	*out = 1;
}

/*
 * The cell of `pm` ran at a release of `major` ("9."), said as asked
 * (`why`), from versions/<base>@<that release> of the test's toolchain.
 */
static void ran(int *out, const struct pmbench_result *r, const char *pm,
		const char *base, const char *major, const char *why)
{
	const struct pmbench_cell *c =
		pmbench_result_find_cell(r, "app", "install", "clean", pm);
	const struct pmbench_result_pm *p = h_found_pm(r, pm);
	char want[256];

	*out = 0;
	CHECK(c && c->samples_nr == 1 && p && p->version && p->path);
	if (!c->samples[0].ok)
		check_fail(__FILE__, __LINE__, "%s: %s", pm,
			   c->samples[0].failure);
	CHECK(!strncmp(p->version, major, strlen(major)));
	snprintf(want, sizeof(want), "%s: %s", p->version, why);
	CHECK_STR(c->pm_version, want);
	snprintf(want, sizeof(want), "%s/toolchain/versions/%s@%s/", h_cache(),
		 base, p->version);
	CHECK_CONTAINS(p->path, want);
	*out = 1;
}

TEST(older_pnpm_and_yarn_1_from_the_registry)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	char out_path[4200], proj[4200];

	h_setup();
	h_real_pms();
	H_CHECK_CALL(own_toolchain, getenv("PMBENCH_TOOLCHAIN_DIR"));
	snprintf(out_path, sizeof(out_path), "%s", h_write("result.json", ""));
	snprintf(proj, sizeof(proj), "%s", h_project("app"));
	h_pmbench(&run,
		  (const char *const[]){ "--cache-dir", h_cache(), "bench",
					 "--pm", "pnpm@9,yarn@1.22", "--task",
					 "install", "--scenario", "clean",
					 "--runs", "1", "--warmup", "0",
					 "--out", out_path, proj, NULL },
		  NULL);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "installed pnpm 9.");
	CHECK_CONTAINS(run.out.ptr, "(for pnpm@9)");
	CHECK_CONTAINS(run.out.ptr, "installed yarn 1.22.");
	CHECK_INT(pmbench_result_read(&r, out_path), 0);
	H_CHECK_CALL(ran, &r, "pnpm@9", "pnpm", "9.", "--pm pnpm@9");
	H_CHECK_CALL(ran, &r, "yarn@1.22", "yarn", "1.22.", "--pm yarn@1.22");
	pmbench_result_release(&r);
	h_run_release(&run);
}

CHECK_MAIN(CASE(older_pnpm_and_yarn_1_from_the_registry))
