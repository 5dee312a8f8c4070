/*
 * `pmbench pms`: each PM and variant found, its version and path, the
 * releases installed in the toolchain's versions folder, and with
 * --versions PM the releases the registry has.
 */
#include "pmbench/common.h"

#include "pmbench/buf.h"
#include "cli.h"
#include "options.h"
#include "pmbench/ctx.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/pmfind.h"
#include "pmbench/pmversion.h"

/* --versions PM: the registry's releases, the installed ones marked. */
static int list_versions(const char *name)
{
	struct pmbench_strvec all = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec have = PMBENCH_STRVEC_INIT;
	struct pmbench_buf key = PMBENCH_BUF_INIT;
	const struct pmbench_pm *pm;
	int ret = pmbench_pm_lookup(&pm, name);

	if (!ret)
		ret = pmbench_pm_release_list(&all, &pmbench_cli_ctx, pm);
	if (ret < 0)
		return pmbench_cli_fail(ret);
	pmbench_pm_release_installed(&have, pmbench_cli_ctx.toolchain_dir);
	for (size_t i = 0; i < all.nr; i++) {
		pmbench_buf_reset(&key);
		pmbench_buf_addf(&key, "%s@%s", pmbench_pm_base(pm)->name,
				 all.v[i]);
		printf("%s@%s%s\n", pmbench_pm_base(pm)->name, all.v[i],
		       pmbench_strvec_find(&have, key.ptr) >= 0
			       ? "  (installed)"
			       : "");
	}
	pmbench_strvec_release(&all);
	pmbench_strvec_release(&have);
	pmbench_buf_release(&key);
	return PMBENCH_EXIT_OK;
}

/* The releases installed in the versions folder, one a line. */
static void list_installed(int w)
{
	struct pmbench_strvec have = PMBENCH_STRVEC_INIT;

	pmbench_pm_release_installed(&have, pmbench_cli_ctx.toolchain_dir);
	for (size_t i = 0; i < have.nr; i++)
		pmbench_cli_line(stdout, "%-*s %-12s %-10s %s/versions/%s", w,
				 have.v[i], strchr(have.v[i], '@') + 1,
				 "versions", pmbench_cli_ctx.toolchain_dir,
				 have.v[i]);
	pmbench_strvec_release(&have);
}

/* The name column: as wide as the longest name in the table, at least 2. */
static int name_width(void)
{
	int w = 2;

	for (size_t i = 0; pmbench_pm_nth(i); i++)
		if ((int)strlen(pmbench_pm_nth(i)->name) > w)
			w = (int)strlen(pmbench_pm_nth(i)->name);
	return w;
}

/* One PM's line: where it was found, or why not; `scratch` a work folder. */
static void pm_line(const struct pmbench_pm *pm, int w, const char *scratch)
{
	struct pmbench_pm_found f = PMBENCH_PM_FOUND_INIT;
	struct pmbench_buf config = PMBENCH_BUF_INIT;
	int found;

	pmbench_pm_config(&config, pm);
	found = pmbench_pm_find(&f, &pmbench_cli_ctx, pm, getenv("PATH"),
				scratch);
	if (found < 0) {
		printf("%-*s %-12s %-10s %s\n", w, pm->name, "-",
		       found == PMBENCH_ENOTFOUND ? "missing" : "unknown",
		       pmbench_error_last());
	} else {
		pmbench_cli_line(stdout, "%-*s %-12s %-10s %s%s%s%s", w,
				 pm->name, f.version, f.source, f.path,
				 config.len ? " (" : "", config.ptr,
				 config.len ? ")" : "");
	}
	pmbench_buf_release(&config);
	pmbench_pm_found_release(&f);
}

int cmd_pms(int argc, char **argv)
{
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	struct pmbench_buf scratch = PMBENCH_BUF_INIT;
	int code, w;

	code = pmbench_cli_parse(&cli, "pms", argc, argv);
	if (!code && cli.optind < argc)
		code = pmbench_cli_usage_error(
			"pms", "unexpected argument '%s'", argv[cli.optind]);
	if (code)
		return pmbench_cli_parse_exit(code);
	/* The version queries run the PMs in cache/tmp. */
	if (pmbench_cli_take_workdir(argc, argv) < 0)
		return PMBENCH_EXIT_ERROR;
	pmbench_buf_path(&scratch, pmbench_config.cache_dir, "tmp");
	if (pmbench_fs_mkdirp(scratch.ptr, 0755) < 0) {
		pmbench_buf_release(&scratch);
		return pmbench_cli_fail(PMBENCH_ERROR);
	}
	if (cli.versions) {
		pmbench_buf_release(&scratch);
		return list_versions(cli.versions);
	}
	w = name_width();
	printf("%-*s %-12s %-10s %s\n", w, "pm", "version", "from", "path");
	/* The PMs, then the variants with their configuration. */
	for (size_t i = 0; pmbench_pm_nth(i); i++)
		pm_line(pmbench_pm_nth(i), w, scratch.ptr);
	list_installed(w);
	pmbench_buf_release(&scratch);
	return code;
}
