/*
 * `pmbench fixtures`: the fixture manifests found, listed.
 */
#include "pmbench/common.h"

#include "cli.h"
#include "options.h"
#include "pmbench/fixture.h"

int cmd_fixtures(int argc, char **argv)
{
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	struct pmbench_strvec list = PMBENCH_STRVEC_INIT;
	int code;

	code = pmbench_cli_parse(&cli, "fixtures", argc, argv);
	if (!code && cli.optind < argc)
		code = pmbench_cli_usage_error("fixtures",
					       "unexpected argument '%s'",
					       argv[cli.optind]);
	if (code)
		return pmbench_cli_parse_exit(code);
	if (pmbench_fixture_list(&list, pmbench_config.fixtures_dir) < 0)
		return pmbench_cli_fail(PMBENCH_ERROR);
	for (size_t i = 0; i < list.nr; i++) {
		struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;

		if (pmbench_fixture_load(&f, list.v[i],
					 pmbench_config.fixtures_dir) < 0) {
			pmbench_cli_error(NULL);
			code = PMBENCH_EXIT_ERROR;
			continue;
		}
		pmbench_cli_line(stdout, "%-20s %s%s%.12s", f.name, f.repo,
				 f.commit ? " @ " : "",
				 f.commit ? f.commit : "");
		if (f.description)
			pmbench_cli_line(stdout, "%-20s %s", "", f.description);
		pmbench_fixture_release(&f);
	}
	pmbench_strvec_release(&list);
	return code;
}
