#include "pmbench/common.h"

#include <getopt.h>

#include "cli.h"
#include "pmbench/doc.h"
#include "pmbench/report_kind.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pmbench report RESULT.json [--format FORMAT] "
		"[--out FILE]\n"
		"\n"
		"Write a report of a result file written by 'pmbench bench' or "
		"'pmbench ci-cache'.\n"
		"\n"
		"Formats:\n"
		"  table      the terminal table (default)\n"
		"  markdown   the PM matrix (action | cache | lockfile | "
		"node_modules | PMs),\n"
		"             the ratios against the fastest, the tables, "
		"failures, environment\n"
		"  csv        one row per run, warm-ups and failures included\n"
		"  json       hyperfine-compatible: {\"results\": "
		"[{\"command\", \"mean\", ...}]}\n"
		"             (a ci-cache result: its jobs table)\n"
		"  hyperfine  hyperfine's export, for any result\n"
		"  html       one self-contained page with SVG charts (no "
		"script, no network)\n"
		"  svg        the charts alone, one standalone SVG image\n"
		"\n"
		"Options:\n"
		"  --format F, -f F   one of the formats above\n"
		"  --out FILE, -o F   write to FILE instead of standard output "
		"(the format\n"
		"                     from its name, .md, .csv, .json, .html, "
		".svg, unless -f)\n"
		"  --columns LIST     the table's columns (see 'pmbench bench --help')\n"
		"  --wide             every column of the table\n"
		"  -h, --help         this help\n"
		"\n"
		"Medians carry bootstrap 95%% intervals and ratios a "
		"Mann-Whitney test; the\n"
		"figures depend only on the file (its seed).\n"
		"\n"
		"Exit status: 0 ok, 1 error (unreadable file), 129 usage.\n");
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "out", required_argument, NULL, 'o' },
		{ "report", required_argument, NULL, 'o' },
		{ "columns", required_argument, NULL, PMBENCH_CLI_OPT_COLUMNS },
		{ "wide", no_argument, NULL, PMBENCH_CLI_OPT_WIDE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pmbench_cli_output out = PMBENCH_CLI_OUTPUT_INIT("report", 0);
	struct pmbench_result r = PMBENCH_RESULT_INIT;
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
		case PMBENCH_CLI_OPT_COLUMNS:
		case PMBENCH_CLI_OPT_WIDE:
			if (pmbench_cli_output_option(&out, c, optarg) < 0)
				goto done;
			break;
		default:
			pmbench_cli_unknown_option("report", argv[optind - 1]);
			goto done;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "pmbench: report: give exactly one result "
				"file; see 'pmbench report --help'\n");
		goto done;
	}
	code = PMBENCH_EXIT_ERROR;
	if (pmbench_cli_read_result(&r, argv[optind]) < 0) {
		fprintf(stderr, "pmbench: error: %s\n", pmbench_error_last());
		goto done;
	}
	pmbench_report_result(&doc, &r);
	if (pmbench_cli_show(&out, &doc) < 0)
		goto done;
	code = PMBENCH_EXIT_OK;
done:
	pmbench_doc_release(&doc);
	pmbench_result_release(&r);
	return code;
}
