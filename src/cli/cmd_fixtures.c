#include "pmbench/common.h"

#include "cli.h"
#include "pmbench/fixture.h"

int cmd_fixtures(int argc, char **argv)
{
	struct pmbench_strvec list = PMBENCH_STRVEC_INIT;
	int code = 0;

	/* No operands; "--" may end the options, --help may come anywhere. */
	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			printf("usage: pmbench fixtures\n\n"
			       "List the fixture manifests in the fixtures "
			       "folder (%s): name,\nrepository, pinned "
			       "commit and description. A manifest that does "
			       "not parse\nis reported with its error and "
			       "makes the exit status 1.\n",
			       pmbench_config.fixtures_dir);
			return 0;
		}
		if (!strcmp(argv[a], "--") && a + 1 == argc)
			break;
		if (!strcmp(argv[a], "--"))
			a++;
		fprintf(stderr, "pmbench: fixtures: unexpected argument '%s'\n",
			argv[a]);
		return PMBENCH_EXIT_USAGE;
	}
	if (pmbench_fixture_list(&list, pmbench_config.fixtures_dir) < 0)
		return pmbench_cli_fail(PMBENCH_ERROR);
	for (size_t i = 0; i < list.nr; i++) {
		struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;

		if (pmbench_fixture_load(&f, list.v[i],
					 pmbench_config.fixtures_dir) < 0) {
			fprintf(stderr, "pmbench: error: %s\n",
				pmbench_error_last());
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
