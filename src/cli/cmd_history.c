/*
 * pmbench history DIR: every result under a folder, one series per
 * fixture, task, scenario and PM over time, changes flagged.
 */
#include "pmbench/common.h"

#include "cli.h"
#include "options.h"
#include "pmbench/doc.h"
#include "pmbench/history.h"
#include "pmbench/report_kind.h"

int cmd_history(int argc, char **argv)
{
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	struct pmbench_history h = PMBENCH_HISTORY_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	int code;

	code = pmbench_cli_parse(&cli, "history", argc, argv);
	if (!code && cli.optind != argc - 1)
		code = pmbench_cli_usage_error("history",
					       "give exactly one folder; see "
					       "'pmbench history --help'");
	if (code) {
		code = pmbench_cli_parse_exit(code);
		goto done;
	}
	code = PMBENCH_EXIT_ERROR;
	if (pmbench_cli_history_folder(argv[cli.optind]) < 0 ||
	    pmbench_history_load(&h, argv[cli.optind]) < 0) {
		pmbench_cli_error(NULL);
		goto done;
	}
	/* Warnings are no part of the report: on stderr, before it. */
	for (size_t i = 0; i < h.skipped.nr; i++)
		pmbench_cli_line(stderr, "pmbench: warning: skipped %s",
				 h.skipped.v[i]);
	pmbench_report_history(&doc, &h, argv[cli.optind]);
	if (pmbench_cli_show(&cli.output, &doc) < 0)
		goto done;
	code = PMBENCH_EXIT_OK;
done:
	pmbench_doc_release(&doc);
	pmbench_history_release(&h);
	pmbench_cli_opts_release(&cli);
	return code;
}
