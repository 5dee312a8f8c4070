#include "pmbench/common.h"

#include <getopt.h>

#include "pmbench/bench.h"
#include "pmbench/buf.h"
#include "pmbench/claim.h"
#include "cli.h"
#include "pmbench/fixture.h"
#include "progress.h"
#include "pmbench/doc.h"
#include "pmbench/report_kind.h"
#include "pmbench/scenario.h"
#include "pmbench/task.h"

#define DEFAULT_FIXTURE	   "todo-api"
#define DEFAULT_RUNS	   10
#define DEFAULT_TOLERANCE  0.10
#define DEFAULT_TIMEOUT_NS (15ull * 60ull * 1000000000ull)

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pmbench claim \"CLAIM\" [FIXTURE] [options]\n"
		"\n"
		"Check a claim such as \"bun install is 20x faster than npm "
		"install\" (also\n"
		"\"N times\", \"slower than\", \"as fast as\"; the task may be "
		"left out and is then\n"
		"install). Reads --from RESULT.json, or runs the two PMs on "
		"FIXTURE (default\n"
		"" DEFAULT_FIXTURE "; live runs time any task of 'pmbench "
		"bench --help'), and\n"
		"gives a verdict per scenario:\n"
		"  reproduced      the 95%% interval of the measured ratio "
		"lies within the\n"
		"                  claimed factor ± the tolerance\n"
		"  short           it lies wholly below: clearly less than "
		"claimed\n"
		"  exceeded        it lies wholly above: clearly more than "
		"claimed\n"
		"  inconclusive    it straddles an edge: too noisy; the runs "
		"that would\n"
		"                  settle it are estimated\n"
		"\n"
		"Options:\n"
		"  --from FILE        judge the cells of a result file instead "
		"of running\n"
		"  --scenario LIST    only these scenarios (default: all in "
		"the file; when\n"
		"                     running, the bench defaults)\n"
		"  --tolerance PCT    how far from N still counts as N "
		"(default 10)\n"
		"  --runs N|auto      timed runs when running (default %d); "
		"see 'pmbench\n"
		"                     bench --help' for auto, --target, "
		"--max-runs, --time-budget\n"
		"  --warmup N         untimed runs first (default 1)\n"
		"  --timeout DUR      per run (default 15m)\n"
		"  --seed N           seed for the statistics (default 1)\n"
		"  --out FILE         where the run's result goes (default: "
		"cache/results/)\n"
		"  --progress/--no-progress  the terminal status line\n",
		DEFAULT_RUNS);
	pmbench_cli_output_help(out, "--report FILE", 1, 21);
	pmbench_cli_registry_help(out, 21);
	fprintf(out,
		"  -h, --help         this help\n"
		"\n"
		"Exit status: 0 reproduced in every scenario judged, 3 short "
		"in at least one,\n"
		"5 otherwise exceeded in at least one, 4 otherwise "
		"inconclusive in at least\n"
		"one, 1 error (nothing to judge, the report not written), 129 "
		"usage,\n130 interrupted.\n");
}

/* The exit code of a judgement, with the error when nothing was judged. */
static int verdict_code(const struct pmbench_report_claim *j)
{
	const struct pmbench_claim *c = j->claim;

	if (!j->judged) {
		fprintf(stderr,
			"pmbench: error: %s: no scenario with successful runs "
			"of both '%s %s' and '%s %s'\n",
			j->scenarios_nr ? "no verdict" : "nothing to judge",
			c->pm_a, c->task_a, c->pm_b, c->task_b);
		return PMBENCH_EXIT_ERROR;
	}
	return j->refuted > j->exceeded ? PMBENCH_EXIT_SHORT
	       : j->exceeded		? PMBENCH_EXIT_EXCEEDED
	       : j->unsure		? PMBENCH_EXIT_INCONCLUSIVE
					: PMBENCH_EXIT_OK;
}

/*
 * Run both PMs' tasks on the fixture, as 'pmbench bench' would, and write
 * the result; *unsaved is set if that write failed (already said).
 */
static int run_live(struct pmbench_result *r, struct pmbench_bench_opts *o,
		    const struct pmbench_claim *c, const char *fixture_arg,
		    int *unsaved)
{
	struct pmbench_fixture f;
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	int ret, loaded = 0;

	for (int side = 0; side < 2; side++) {
		const char *t = side ? c->task_b : c->task_a;

		if (!pmbench_task_get(t)) {
			struct pmbench_buf known = PMBENCH_BUF_INIT;

			pmbench_task_list(&known, 0);
			pmbench_error_setc(PMBENCH_EINVALID,
					   "pmbench cannot time '%s' itself; "
					   "use %s, or judge a result with "
					   "--from RESULT.json",
					   t, known.ptr);
			pmbench_buf_release(&known);
			return PMBENCH_EINVALID;
		}
		if (pmbench_strvec_find(&o->tasks, t) < 0)
			pmbench_strvec_push(&o->tasks, t);
	}
	pmbench_strvec_push(&o->pms, c->pm_a);
	if (strcmp(c->pm_a, c->pm_b))
		pmbench_strvec_push(&o->pms, c->pm_b);
	o->pms_explicit = 1;
	ret = pmbench_fixture_load(&f, fixture_arg,
				   pmbench_config.fixtures_dir);
	if (ret < 0)
		goto done;
	loaded = 1;
	ret = pmbench_cli_prepare_out(&o->out, &out, "claim-", f.name);
	if (ret < 0)
		goto done;
	ret = pmbench_bench_run(&pmbench_cli_ctx, r, o, &f, 1);
	*unsaved = pmbench_cli_save(r, o->out) < 0;
done:
	if (o->out == out.ptr)
		o->out = NULL;
	if (loaded)
		pmbench_fixture_release(&f);
	pmbench_buf_release(&out);
	return ret;
}

int cmd_claim(int argc, char **argv)
{
	enum { OPT_FROM = PMBENCH_CLI_OPT_OWN, OPT_TOLERANCE };
	static const struct option longopts[] = {
		{ "from", required_argument, NULL, OPT_FROM },
		{ "scenario", required_argument, NULL,
		  PMBENCH_CLI_OPT_SCENARIO },
		{ "tolerance", required_argument, NULL, OPT_TOLERANCE },
		{ "runs", required_argument, NULL, PMBENCH_CLI_OPT_RUNS },
		{ "warmup", required_argument, NULL, PMBENCH_CLI_OPT_WARMUP },
		{ "timeout", required_argument, NULL, PMBENCH_CLI_OPT_TIMEOUT },
		{ "seed", required_argument, NULL, PMBENCH_CLI_OPT_SEED },
		{ "out", required_argument, NULL, PMBENCH_CLI_OPT_OUT },
		{ "target", required_argument, NULL, PMBENCH_CLI_OPT_TARGET },
		{ "max-runs", required_argument, NULL,
		  PMBENCH_CLI_OPT_MAX_RUNS },
		{ "time-budget", required_argument, NULL,
		  PMBENCH_CLI_OPT_TIME_BUDGET },
		{ "progress", no_argument, NULL, PMBENCH_CLI_OPT_PROGRESS },
		{ "no-progress", no_argument, NULL,
		  PMBENCH_CLI_OPT_NO_PROGRESS },
		{ "format", required_argument, NULL, PMBENCH_CLI_OPT_FORMAT },
		{ "report", required_argument, NULL, PMBENCH_CLI_OPT_REPORT },
		{ "columns", required_argument, NULL, PMBENCH_CLI_OPT_COLUMNS },
		{ "wide", no_argument, NULL, PMBENCH_CLI_OPT_WIDE },
		PMBENCH_CLI_REGISTRY_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pmbench_cli_bench how = PMBENCH_CLI_BENCH_INIT(
		"claim", 100000, 1, PMBENCH_CLI_COUNT_OR_AUTO);
	struct pmbench_bench_opts o = PMBENCH_BENCH_OPTS_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_claim claim = PMBENCH_CLAIM_INIT;
	struct pmbench_report_claim judged = PMBENCH_REPORT_CLAIM_INIT;
	struct pmbench_cli_output report = PMBENCH_CLI_OUTPUT_INIT("claim", 1);
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	const char *from = NULL, *fixture = NULL;
	double tolerance = DEFAULT_TOLERANCE;
	int c, code = PMBENCH_EXIT_USAGE, ret, unsaved = 0;

	o.runs = DEFAULT_RUNS;
	o.timeout_ns = DEFAULT_TIMEOUT_NS;
	optind = 1;
	opterr = 0;
	/* Options may follow the claim: no '+' here. */
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_FROM:
			from = optarg;
			break;
		case OPT_TOLERANCE: {
			char *end = NULL;

			errno = 0;
			tolerance = strtod(optarg, &end) / 100;
			if (end == optarg || (*end && strcmp(end, "%")) ||
			    errno || !(tolerance > 0 && tolerance <= 1)) {
				fprintf(stderr,
					"pmbench: claim: '--tolerance' must be "
					"a percentage above 0 and at most 100, "
					"got '%s'\n",
					optarg);
				goto done;
			}
			break;
		}
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
		default:
			if (pmbench_cli_bench_option(&o, &how, c, optarg,
						     argv[optind - 1]) < 0)
				goto done;
		}
	}
	if (optind >= argc || argc - optind > 2) {
		fprintf(stderr, "pmbench: claim: give one claim in quotes, "
				"and at most one fixture; see 'pmbench claim "
				"--help'\n");
		goto done;
	}
	if (pmbench_cli_check_auto("claim", how.auto_knob, o.runs_auto) < 0 ||
	    pmbench_cli_registry_check("claim") < 0)
		goto done;
	if (pmbench_claim_parse(&claim, argv[optind]) < 0) {
		fprintf(stderr, "pmbench: claim: %s\n", pmbench_error_last());
		goto done;
	}
	fixture = optind + 1 < argc ? argv[optind + 1] : NULL;
	code = PMBENCH_EXIT_ERROR;
	if (pmbench_cli_check_output(&report) < 0)
		goto done;
	if (from) {
		ret = pmbench_cli_read_result(&r, from);
	} else {
		/* A live run: the work folder is ours alone. */
		if (pmbench_cli_take_workdir(argc, argv) < 0)
			goto done;
		o.autostop.seed = o.seed;
		if (o.runs_auto)
			o.runs = o.autostop.max_runs;
		if (!o.scenarios_nr) {
			memcpy(o.scenarios, pmbench_scenarios_default,
			       sizeof(pmbench_scenarios_default));
			o.scenarios_nr = 4;
		}
		pmbench_progress_init(how.tty);
		ret = run_live(&r, &o, &claim,
			       fixture ? fixture : DEFAULT_FIXTURE, &unsaved);
		/* The fixture's name, for matching cells. */
		fixture = NULL;
	}
	if (ret < 0) {
		code = pmbench_cli_fail(ret);
		goto done;
	}
	pmbench_report_claim_init(&judged, &r, &claim, fixture, o.scenarios,
				  o.scenarios_nr, tolerance);
	pmbench_report_claim(&doc, &judged, &r);
	if (pmbench_cli_show(&report, &doc) < 0)
		unsaved = 1;
	code = verdict_code(&judged);
	/*
	 * The verdict stands, but a result or report that was not saved is
	 * an error.
	 */
	if (unsaved)
		code = PMBENCH_EXIT_ERROR;
done:
	pmbench_doc_release(&doc);
	pmbench_report_claim_release(&judged);
	pmbench_claim_release(&claim);
	pmbench_result_release(&r);
	pmbench_bench_opts_release(&o);
	return code;
}
