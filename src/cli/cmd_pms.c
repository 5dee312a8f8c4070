#include "pmbench/common.h"

#include "pmbench/buf.h"
#include "cli.h"
#include "pmbench/ctx.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"

int cmd_pms(int argc, char **argv)
{
	struct pmbench_buf scratch = PMBENCH_BUF_INIT;
	int code = 0, w = 2;

	/* No operands; "--" may end the options, --help may come anywhere. */
	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			printf("usage: pmbench pms\n\n"
			       "Show each package manager pmbench can use: "
			       "where it was found (the pinned\n"
			       "toolchain under cache/toolchain first, then "
			       "PATH) and its version,\n"
			       "then each variant (a PM with a configuration, "
			       "e.g. a linker) and what it\n"
			       "sets.\n");
			return 0;
		}
		if (!strcmp(argv[a], "--") && a + 1 == argc)
			break;
		if (!strcmp(argv[a], "--"))
			a++;
		fprintf(stderr, "pmbench: pms: unexpected argument '%s'\n",
			argv[a]);
		return PMBENCH_EXIT_USAGE;
	}
	/* The version queries run the PMs in cache/tmp. */
	if (pmbench_cli_take_workdir(argc, argv) < 0)
		return PMBENCH_EXIT_ERROR;
	pmbench_buf_path(&scratch, pmbench_config.cache_dir, "tmp");
	if (pmbench_fs_mkdirp(scratch.ptr, 0755) < 0) {
		pmbench_buf_release(&scratch);
		return pmbench_cli_fail(PMBENCH_ERROR);
	}
	/* The name column as wide as the longest name in the table. */
	for (size_t i = 0; pmbench_pm_nth(i); i++)
		if ((int)strlen(pmbench_pm_nth(i)->name) > w)
			w = (int)strlen(pmbench_pm_nth(i)->name);
	printf("%-*s %-12s %-10s %s\n", w, "pm", "version", "from", "path");
	/* The PMs, then the variants with their configuration. */
	for (size_t i = 0; pmbench_pm_nth(i); i++) {
		const struct pmbench_pm *pm = pmbench_pm_nth(i);
		struct pmbench_pm_found f = PMBENCH_PM_FOUND_INIT;
		struct pmbench_buf config = PMBENCH_BUF_INIT;

		pmbench_pm_config(&config, pm);
		if (pmbench_pm_find(&f, &pmbench_cli_ctx, pm, getenv("PATH"),
				    scratch.ptr) < 0) {
			printf("%-*s %-12s %-10s %s\n", w, pm->name, "-",
			       "missing", pmbench_error_last());
		} else {
			pmbench_cli_line(stdout, "%-*s %-12s %-10s %s%s%s%s", w,
					 pm->name, f.version, f.source, f.path,
					 config.len ? " (" : "", config.ptr,
					 config.len ? ")" : "");
		}
		pmbench_buf_release(&config);
		pmbench_pm_found_release(&f);
	}
	pmbench_buf_release(&scratch);
	return code;
}
