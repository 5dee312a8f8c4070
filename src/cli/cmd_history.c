/*
 * pmbench history DIR: every result under a folder, one series per
 * fixture, task, scenario and PM over time, changes flagged.
 */
#include "pmbench/common.h"

#include <getopt.h>

#include "cli.h"
#include "pmbench/doc.h"
#include "pmbench/history.h"
#include "pmbench/report_kind.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pmbench history DIR [--format FORMAT] [--out FILE]\n"
		"\n"
		"Read every result file under DIR (sub-folders too: a "
		"workflow's merged results,\n"
		"dated, over PM releases) and show each fixture, task, "
		"scenario and PM over\n"
		"time: per date and PM version the median with its 95%% "
		"interval, and a change\n"
		"flagged where 'pmbench compare' would find one against the "
		"result before\n"
		"(Mann-Whitney p < 0.05 and the ratio's interval on one side "
		"of 1).\n"
		"\n"
		"Formats: table (one line per series; the default), markdown, "
		"csv and json\n"
		"(every point), html (a trend chart per series), svg (the "
		"charts alone).\n"
		"\n"
		"Options:\n"
		"  --format F, -f F   one of the formats above\n"
		"  --out FILE, -o F   write to FILE instead of standard output "
		"(the format\n"
		"                     from its name unless -f)\n"
		"  -h, --help         this help\n"
		"\n"
		"Exit status: 0 ok, 1 error (no result in DIR, output not "
		"written), 129 usage.\n");
}

int cmd_history(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "out", required_argument, NULL, 'o' },
		{ "report", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pmbench_cli_output out = PMBENCH_CLI_OUTPUT_INIT("history", 0);
	struct pmbench_history h = PMBENCH_HISTORY_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	int c, code = PMBENCH_EXIT_USAGE;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
		case 'o':
			if (pmbench_cli_output_option(
				    &out,
				    c == 'f' ? PMBENCH_CLI_OPT_FORMAT
					     : PMBENCH_CLI_OPT_REPORT,
				    optarg) < 0)
				goto done;
			break;
		case 'h':
			usage(stdout);
			code = 0;
			goto done;
		default:
			pmbench_cli_unknown_option("history", argv[optind - 1]);
			goto done;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "pmbench: history: give exactly one folder; "
				"see 'pmbench history --help'\n");
		goto done;
	}
	code = PMBENCH_EXIT_ERROR;
	if (pmbench_history_load(&h, argv[optind]) < 0) {
		fprintf(stderr, "pmbench: error: %s\n", pmbench_error_last());
		goto done;
	}
	/* Warnings are no part of the report: on stderr, before it. */
	for (size_t i = 0; i < h.skipped.nr; i++)
		pmbench_cli_line(stderr, "pmbench: warning: skipped %s",
				 h.skipped.v[i]);
	pmbench_report_history(&doc, &h, argv[optind]);
	if (pmbench_cli_show(&out, &doc) < 0)
		goto done;
	code = PMBENCH_EXIT_OK;
done:
	pmbench_doc_release(&doc);
	pmbench_history_release(&h);
	return code;
}
