#include "pmbench/common.h"

#include <getopt.h>

#include "cli.h"
#include "pmbench/doc.h"
#include "pmbench/report_kind.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pmbench compare A.json B.json [--format F] [--out "
		"FILE]\n"
		"\n"
		"Compare two result files cell by cell (same fixture, task, "
		"scenario and PM):\n"
		"the change of the median from A to B with its bootstrap 95%% "
		"interval, a\n"
		"Mann-Whitney test, and a verdict: faster, slower or no "
		"significant difference.\n"
		"For upgrades (bun 1.1 -> 1.4) and before/after experiments.\n"
		"\n"
		"Options:\n");
	pmbench_cli_output_help(out, "--out FILE", 0, 21);
	fprintf(out, "  -h, --help         this help\n"
		     "\n"
		     "Exit status: 0 ok, 1 error (unreadable file, nothing in "
		     "common), 129 usage.\n");
}

/* Whether both results used the same registry mode and link. */
static int same_registry(const struct pmbench_result *a,
			 const struct pmbench_result *b)
{
	static const char *const keys[] = { "registry", "link" };
	static const char *const defaults[] = { "live", "none" };

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(keys); i++) {
		const char *va = pmbench_result_env_get(a, keys[i]);
		const char *vb = pmbench_result_env_get(b, keys[i]);

		if (strcmp(va ? va : defaults[i], vb ? vb : defaults[i]))
			return 0;
	}
	return 1;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, PMBENCH_CLI_OPT_FORMAT },
		{ "out", required_argument, NULL, PMBENCH_CLI_OPT_REPORT },
		{ "report", required_argument, NULL, PMBENCH_CLI_OPT_REPORT },
		{ "columns", required_argument, NULL, PMBENCH_CLI_OPT_COLUMNS },
		{ "wide", no_argument, NULL, PMBENCH_CLI_OPT_WIDE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pmbench_cli_output out = PMBENCH_CLI_OUTPUT_INIT("compare", 0);
	struct pmbench_result a = PMBENCH_RESULT_INIT, b = PMBENCH_RESULT_INIT;
	struct pmbench_report_compare cmp = PMBENCH_REPORT_COMPARE_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	int c, code = PMBENCH_EXIT_USAGE, shown;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			code = 0;
			goto done;
		}
		switch (pmbench_cli_output_option(&out, c, optarg)) {
		case 1:
			continue;
		case 0:
			pmbench_cli_unknown_option("compare", argv[optind - 1]);
			/* fall through */
		default:
			goto done;
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "pmbench: compare: give two result files, A "
				"(before) and B (after); see 'pmbench compare "
				"--help'\n");
		goto done;
	}
	code = PMBENCH_EXIT_ERROR;
	if (pmbench_cli_read_result(&a, argv[optind]) < 0 ||
	    pmbench_cli_read_result(&b, argv[optind + 1]) < 0) {
		fprintf(stderr, "pmbench: error: %s\n", pmbench_error_last());
		goto done;
	}
	pmbench_report_compare_init(&cmp, &a, argv[optind], &b,
				    argv[optind + 1]);
	pmbench_report_compare(&doc, &cmp);
	if (!same_registry(&a, &b))
		fprintf(stderr,
			"pmbench: warning: '%s' and '%s' used different "
			"registries or links (see the legends): the changes "
			"include the network\n",
			argv[optind], argv[optind + 1]);
	shown = pmbench_cli_show(&out, &doc);
	if (!cmp.pairs_nr) {
		fprintf(stderr,
			"pmbench: error: '%s' and '%s' have no cell "
			"(fixture, task, scenario, PM) in common\n",
			argv[optind], argv[optind + 1]);
		goto done;
	}
	if (!shown)
		code = PMBENCH_EXIT_OK;
done:
	pmbench_doc_release(&doc);
	pmbench_report_compare_release(&cmp);
	pmbench_result_release(&a);
	pmbench_result_release(&b);
	return code;
}
