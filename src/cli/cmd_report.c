#include "pmbench/common.h"

#include "cli.h"
#include "options.h"
#include "pmbench/doc.h"
#include "pmbench/report_kind.h"

int cmd_report(int argc, char **argv)
{
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	int code;

	code = pmbench_cli_parse(&cli, "report", argc, argv);
	if (!code && cli.optind != argc - 1)
		code = pmbench_cli_usage_error("report",
					       "give exactly one result file; "
					       "see 'pmbench report --help'");
	if (code) {
		code = pmbench_cli_parse_exit(code);
		goto done;
	}
	code = PMBENCH_EXIT_ERROR;
	if (pmbench_cli_read_result(&r, argv[cli.optind]) < 0) {
		fprintf(stderr, "pmbench: error: %s\n", pmbench_error_last());
		goto done;
	}
	pmbench_report_result(&doc, &r);
	if (pmbench_cli_show(&cli.output, &doc) < 0)
		goto done;
	code = PMBENCH_EXIT_OK;
done:
	pmbench_doc_release(&doc);
	pmbench_result_release(&r);
	pmbench_cli_opts_release(&cli);
	return code;
}
