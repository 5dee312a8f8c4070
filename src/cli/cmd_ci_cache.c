#include "pmbench/common.h"

#include <getopt.h>

#include "pmbench/buf.h"
#include "pmbench/cicache.h"
#include "cli.h"
#include "pmbench/fixture.h"
#include "pmbench/pm.h"
#include "progress.h"
#include "pmbench/doc.h"
#include "pmbench/report_kind.h"

#define DEFAULT_FIXTURE	   "todo-api"
#define DEFAULT_TIMEOUT_NS (15ull * 60ull * 1000000000ull)

static void usage(FILE *out)
{
	struct pmbench_buf pms = PMBENCH_BUF_INIT;

	pmbench_pm_join_names(&pms, ",", 0);
	fprintf(out,
		"usage: pmbench ci-cache [options] [FIXTURE]\n"
		"\n"
		"Simulate CI jobs on FIXTURE (default " DEFAULT_FIXTURE "): "
		"a fresh checkout with\n"
		"the lockfile, restore the strategy's cache archive, install "
		"in the PM's\n"
		"frozen-lockfile mode (npm ci, ... --frozen-lockfile), save a "
		"new archive.\n"
		"The first job of each strategy is the cache miss; its "
		"archive is what the\n"
		"--runs hit jobs restore. One more job changes a dependency "
		"in package.json\n"
		"and installs with the old archive.\n"
		"\n"
		"Options:\n"
		"  --pm LIST           comma-separated: %s,\n"
		"                      or variants ('pmbench pms'); default: "
		"all PMs found\n"
		"  --strategy LIST     none, store, node_modules, "
		"store+node_modules\n"
		"                      (default: all four)\n"
		"  --compression LIST  none, gzip[:1-9], zstd[:1-19] "
		"(default: zstd = zstd:3)\n"
		"  --archiver NAME     libarchive (in process, the default) "
		"or gnu-tar (tar\n"
		"                      and zstdmt/unzstd as actions/cache "
		"runs them)\n"
		"  --runs N            hit jobs per PM and strategy (default "
		"3)\n"
		"  --bandwidth RATE    modelled cache download/upload rate, "
		"e.g. 100MB/s,\n"
		"                      50MiB/s, 250Mbit/s (default 100MB/s)\n"
		"  --no-lockfile-change  skip the lockfile-changed job\n"
		"  --timeout DUR       per install, e.g. 90s, 15m (default "
		"15m)\n"
		"  --out FILE          result JSON (default: "
		"cache/results/ci-cache-<fixture>-<time>.json)\n"
		"  --env K=V           set a variable for every PM "
		"(repeatable)\n"
		"  --progress/--no-progress  force the terminal status line "
		"on or off\n",
		pms.ptr);
	pmbench_cli_output_help(out, "--report FILE", 1, 22);
	pmbench_cli_registry_help(out, 22);
	fprintf(out,
		"  -h, --help          this help\n"
		"\n"
		"Exit status: 0 every job succeeded, 2 finished but some jobs "
		"or primings\n"
		"failed (see the table), 1 error (the result or report "
		"not written), 129 usage,\n"
		"130 interrupted.\n");
	pmbench_buf_release(&pms);
}

static int bad(const char *opt, const char *why)
{
	fprintf(stderr, "pmbench: ci-cache: '%s': %s\n", opt, why);
	return -1;
}

static int parse_strategies(struct pmbench_cicache_opts *o, const char *list)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	int ret = 0;

	pmbench_strvec_split(&v, list, ',');
	o->strategies_nr = 0;
	for (size_t i = 0; i < v.nr && !ret; i++) {
		unsigned st;
		int dup = 0;

		if (pmbench_cicache_parse_strategy(&st, v.v[i]) < 0) {
			fprintf(stderr, "pmbench: ci-cache: %s\n",
				pmbench_error_last());
			ret = -1;
			break;
		}
		for (size_t k = 0; k < o->strategies_nr; k++)
			dup |= o->strategies[k] == st;
		if (!dup)
			o->strategies[o->strategies_nr++] = st;
		else
			pmbench_cli_note_twice(v.v[i], "--strategy", "running");
	}
	if (!ret && !o->strategies_nr)
		ret = bad("--strategy", "needs at least one strategy");
	pmbench_strvec_release(&v);
	return ret;
}

static int parse_compressions(struct pmbench_cicache_opts *o, const char *list)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	int ret = 0;

	pmbench_strvec_split(&v, list, ',');
	o->compressions_nr = 0;
	for (size_t i = 0; i < v.nr && !ret; i++) {
		struct pmbench_cachearc_compression c;
		int dup = 0;

		if (pmbench_cachearc_parse(&c, v.v[i]) < 0) {
			fprintf(stderr, "pmbench: ci-cache: %s\n",
				pmbench_error_last());
			ret = -1;
			break;
		}
		for (size_t k = 0; k < o->compressions_nr; k++)
			dup |= o->compressions[k].filter == c.filter &&
			       o->compressions[k].level == c.level;
		if (dup) {
			pmbench_cli_note_twice(v.v[i], "--compression",
					       "running");
			continue;
		}
		if (o->compressions_nr == PMBENCH_ARRAY_SIZE(o->compressions)) {
			ret = bad("--compression", "at most 8 compressions");
			break;
		}
		o->compressions[o->compressions_nr++] = c;
	}
	if (!ret && !o->compressions_nr)
		ret = bad("--compression", "needs at least one compression");
	pmbench_strvec_release(&v);
	return ret;
}

int cmd_ci_cache(int argc, char **argv)
{
	enum {
		OPT_PM = PMBENCH_CLI_OPT_OWN,
		OPT_STRATEGY,
		OPT_COMPRESSION,
		OPT_ARCHIVER,
		OPT_RUNS,
		OPT_BANDWIDTH,
		OPT_NO_CHANGE,
		OPT_TIMEOUT,
		OPT_OUT,
		OPT_ENV,
		OPT_PROGRESS,
		OPT_NO_PROGRESS,
	};
	static const struct option longopts[] = {
		{ "pm", required_argument, NULL, OPT_PM },
		{ "strategy", required_argument, NULL, OPT_STRATEGY },
		{ "compression", required_argument, NULL, OPT_COMPRESSION },
		{ "archiver", required_argument, NULL, OPT_ARCHIVER },
		{ "runs", required_argument, NULL, OPT_RUNS },
		{ "bandwidth", required_argument, NULL, OPT_BANDWIDTH },
		{ "no-lockfile-change", no_argument, NULL, OPT_NO_CHANGE },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "out", required_argument, NULL, OPT_OUT },
		{ "env", required_argument, NULL, OPT_ENV },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
		{ "format", required_argument, NULL, PMBENCH_CLI_OPT_FORMAT },
		{ "report", required_argument, NULL, PMBENCH_CLI_OPT_REPORT },
		{ "columns", required_argument, NULL, PMBENCH_CLI_OPT_COLUMNS },
		{ "wide", no_argument, NULL, PMBENCH_CLI_OPT_WIDE },
		PMBENCH_CLI_REGISTRY_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pmbench_cicache_opts o = PMBENCH_CICACHE_OPTS_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	struct pmbench_cli_output report =
		PMBENCH_CLI_OUTPUT_INIT("ci-cache", 1);
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	int c, code = PMBENCH_EXIT_USAGE, ret, tty = -1, loaded = 0;
	int shown = 0;

	o.timeout_ns = DEFAULT_TIMEOUT_NS;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_PM:
			pmbench_strvec_release(&o.pms);
			o.pms_explicit = 1;
			if (pmbench_cli_parse_pms(&o.pms, "ci-cache", "--pm",
						  optarg) < 0)
				goto done;
			break;
		case OPT_STRATEGY:
			if (parse_strategies(&o, optarg) < 0)
				goto done;
			break;
		case OPT_COMPRESSION:
			if (parse_compressions(&o, optarg) < 0)
				goto done;
			break;
		case OPT_ARCHIVER:
			if (pmbench_cachearc_parse_archiver(&o.archiver,
							    optarg) < 0) {
				fprintf(stderr, "pmbench: ci-cache: %s\n",
					pmbench_error_last());
				goto done;
			}
			break;
		case OPT_RUNS:
			if (pmbench_cli_parse_count(&o.runs, "ci-cache",
						    "--runs", optarg, 1, 10000,
						    0) < 0)
				goto done;
			break;
		case OPT_BANDWIDTH:
			if (pmbench_cicache_parse_bandwidth(&o.bandwidth,
							    optarg) < 0) {
				fprintf(stderr, "pmbench: ci-cache: %s\n",
					pmbench_error_last());
				goto done;
			}
			break;
		case OPT_NO_CHANGE:
			o.lockfile_changed = 0;
			break;
		case OPT_TIMEOUT:
			if (pmbench_cli_parse_timeout(&o.timeout_ns, "ci-cache",
						      optarg) < 0)
				goto done;
			break;
		case OPT_OUT:
			o.out = optarg;
			break;
		case OPT_ENV:
			if (pmbench_cli_parse_env(&o.env, "ci-cache", optarg) <
			    0)
				goto done;
			break;
		case OPT_PROGRESS:
			tty = 1;
			break;
		case OPT_NO_PROGRESS:
			tty = 0;
			break;
		case 'h':
			usage(stdout);
			code = 0;
			goto done;
		case PMBENCH_CLI_OPT_FORMAT:
		case PMBENCH_CLI_OPT_REPORT:
		case PMBENCH_CLI_OPT_COLUMNS:
		case PMBENCH_CLI_OPT_WIDE:
			if (pmbench_cli_output_option(&report, c, optarg) < 0)
				goto done;
			break;
		case PMBENCH_CLI_OPT_REGISTRY:
		case PMBENCH_CLI_OPT_LINK:
		case PMBENCH_CLI_OPT_NO_FS_WAIT:
			if (pmbench_cli_registry_option("ci-cache", c, optarg) <
			    0)
				goto done;
			break;
		default:
			pmbench_cli_unknown_option("ci-cache",
						   argv[optind - 1]);
			goto done;
		}
	}
	if (pmbench_cli_registry_check("ci-cache") < 0)
		goto done;
	if (argc - optind > 1) {
		fprintf(stderr,
			"pmbench: ci-cache: one FIXTURE at a time, got "
			"'%s' and '%s'\n",
			argv[optind], argv[optind + 1]);
		goto done;
	}
	code = PMBENCH_EXIT_ERROR;
	if (pmbench_cli_take_workdir(argc, argv) < 0)
		goto done;
	pmbench_progress_init(tty);
	if (!o.pms.nr)
		for (size_t i = 0; i < pmbench_pms_nr; i++)
			pmbench_strvec_push(&o.pms, pmbench_pms[i].name);
	if (!o.strategies_nr) {
		for (unsigned s = 0; s < 4; s++)
			o.strategies[s] = s;
		o.strategies_nr = 4;
	}
	if (!o.compressions_nr) {
		o.compressions[0].filter = PMBENCH_CACHEARC_ZSTD;
		o.compressions[0].level = 3;
		o.compressions_nr = 1;
	}
	ret = pmbench_fixture_load(
		&f, optind < argc ? argv[optind] : DEFAULT_FIXTURE,
		pmbench_config.fixtures_dir);
	if (ret < 0) {
		fprintf(stderr, "pmbench: error: %s\n", pmbench_error_last());
		goto done;
	}
	loaded = 1;
	if (pmbench_cli_prepare_out(&o.out, &out, "ci-cache-", f.name) < 0) {
		fprintf(stderr, "pmbench: error: %s\n", pmbench_error_last());
		goto done;
	}
	if (pmbench_cli_check_output(&report) < 0)
		goto done;

	ret = pmbench_cicache_run(&pmbench_cli_ctx, &r, &o, &f);
	if (r.cells_nr) {
		pmbench_report_cicache(&doc, &r);
		shown = pmbench_cli_show(&report, &doc);
	}
	code = pmbench_cli_finish(&r, ret, o.out);
	/* The report the user asked for is a product too. */
	if (shown < 0 && code != PMBENCH_EXIT_INTERRUPTED)
		code = PMBENCH_EXIT_ERROR;
done:
	pmbench_doc_release(&doc);
	if (loaded)
		pmbench_fixture_release(&f);
	pmbench_result_release(&r);
	pmbench_cicache_opts_release(&o);
	pmbench_buf_release(&out);
	return code;
}
