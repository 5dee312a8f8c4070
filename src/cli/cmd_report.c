#include "pmbench/common.h"

#include <getopt.h>

#include "pmbench/buf.h"
#include "cli.h"
#include "pmbench/fs.h"
#include "pmbench/report.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pmbench report RESULT.json [--format FORMAT] "
		"[--out FILE]\n"
		"\n"
		"Write a report of a result file written by 'pmbench bench'.\n"
		"\n"
		"Formats:\n"
		"  table      the terminal table (default)\n"
		"  markdown   the PM matrix (action | cache | lockfile | "
		"node_modules | PMs),\n"
		"             the ratios against the fastest, details, "
		"failures, environment\n"
		"  csv        one row per sample, warm-ups and failures "
		"included\n"
		"  json       hyperfine-compatible: {\"results\": "
		"[{\"command\", \"mean\", ...}]}\n"
		"  html       one self-contained page with SVG charts (no "
		"script, no network)\n"
		"\n"
		"Options:\n"
		"  --format F, -f F   one of the formats above\n"
		"  --out FILE, -o F   write to FILE instead of standard "
		"output\n"
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	enum pmbench_report_format format = PMBENCH_REPORT_TABLE;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_report rep = PMBENCH_REPORT_INIT;
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	const char *out = NULL;
	int c, code = PMBENCH_EXIT_USAGE;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (pmbench_report_format_parse(&format, optarg) < 0) {
				fprintf(stderr, "pmbench: report: %s\n",
					pmbench_error_last());
				goto done;
			}
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			usage(stdout);
			code = 0;
			goto done;
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
	pmbench_report_init(&rep, &r);
	pmbench_report_write(&text, &rep, format);
	if (out) {
		if (pmbench_fs_write_output(out, text.ptr, text.len) < 0) {
			fprintf(stderr, "pmbench: error: %s\n",
				pmbench_error_last());
			goto done;
		}
	} else {
		fwrite(text.ptr, 1, text.len, stdout);
	}
	code = PMBENCH_EXIT_OK;
done:
	pmbench_report_release(&rep);
	pmbench_result_release(&r);
	pmbench_buf_release(&text);
	return code;
}
