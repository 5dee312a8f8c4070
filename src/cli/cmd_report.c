/*
 * `pmbench report`: a result file shown again, in any format.
 */
#include "pmbench/common.h"

#include "cli.h"
#include "options.h"
#include "pmbench/doc.h"
#include "pmbench/report_kind.h"
#include "pmbench/resultfile.h"

int cmd_report(int argc, char **argv)
{
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	struct pmbench_result_file f = PMBENCH_RESULT_FILE_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	const char *path;
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
	path = argv[cli.optind];
	/* Each kind as the command that wrote it showed it. */
	if (pmbench_cli_read_file(&f, path, "report", PMBENCH_CLI_EVERY_KIND) <
		    0 ||
	    pmbench_cli_whole_migrate(&f, path, "report") < 0 ||
	    pmbench_report_file(&doc, &f) < 0) {
		pmbench_cli_error(NULL);
		goto done;
	}
	if (pmbench_cli_show(&cli.output, &doc) < 0)
		goto done;
	code = PMBENCH_EXIT_OK;
done:
	pmbench_doc_release(&doc);
	pmbench_result_file_release(&f);
	pmbench_cli_opts_release(&cli);
	return code;
}
