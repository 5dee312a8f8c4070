#include "pmbench/common.h"

#include "cli.h"
#include "options.h"
#include "pmbench/doc.h"
#include "pmbench/report_kind.h"

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
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	struct pmbench_result a = PMBENCH_RESULT_INIT, b = PMBENCH_RESULT_INIT;
	struct pmbench_report_compare cmp = PMBENCH_REPORT_COMPARE_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	const char *pa, *pb;
	int code, shown;

	code = pmbench_cli_parse(&cli, "compare", argc, argv);
	if (!code && argc - cli.optind != 2)
		code = pmbench_cli_usage_error("compare",
					       "give two result files, A "
					       "(before) and B (after); see "
					       "'pmbench compare --help'");
	if (code) {
		code = pmbench_cli_parse_exit(code);
		goto done;
	}
	pa = argv[cli.optind];
	pb = argv[cli.optind + 1];
	code = PMBENCH_EXIT_ERROR;
	if (pmbench_cli_read_result(&a, pa) < 0 ||
	    pmbench_cli_read_result(&b, pb) < 0) {
		fprintf(stderr, "pmbench: error: %s\n", pmbench_error_last());
		goto done;
	}
	pmbench_report_compare_init(&cmp, &a, pa, &b, pb);
	pmbench_report_compare(&doc, &cmp);
	if (!same_registry(&a, &b))
		fprintf(stderr,
			"pmbench: warning: '%s' and '%s' used different "
			"registries or links (see the legends): the changes "
			"include the network\n",
			pa, pb);
	/* Nothing to compare is an error: no report, no --out file. */
	if (!cmp.pairs_nr) {
		fprintf(stderr,
			"pmbench: error: '%s' and '%s' have no cell "
			"(fixture, task, scenario, PM) in common\n",
			pa, pb);
		goto done;
	}
	shown = pmbench_cli_show(&cli.output, &doc);
	if (!shown)
		code = PMBENCH_EXIT_OK;
done:
	pmbench_doc_release(&doc);
	pmbench_report_compare_release(&cmp);
	pmbench_result_release(&a);
	pmbench_result_release(&b);
	pmbench_cli_opts_release(&cli);
	return code;
}
