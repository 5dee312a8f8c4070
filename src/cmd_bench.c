#include "pmbench/common.h"

#include <getopt.h>

#include "pmbench/bench.h"
#include "pmbench/buf.h"
#include "pmbench/cli.h"
#include "pmbench/fixture.h"
#include "pmbench/pm.h"
#include "pmbench/progress.h"
#include "pmbench/scenario.h"
#include "pmbench/task.h"

#define DEFAULT_FIXTURE "todo-api"
#define DEFAULT_TIMEOUT_NS (15ull * 60ull * 1000000000ull)

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pmbench bench [options] [FIXTURE...]\n"
		"\n"
		"Clone each FIXTURE (a name from 'pmbench fixtures', a .json "
		"manifest, or a\n"
		"folder with a package.json; default: " DEFAULT_FIXTURE
		"), prime every package\n"
		"manager once, then time its install in each scenario.\n"
		"\n"
		"Options:\n"
		"  --pm LIST          comma-separated: npm,yarn,yarn-berry,"
		"pnpm,bun,deno\n"
		"                     (default: all that are found)\n"
		"  --scenario LIST    comma-separated scenarios, 'all' or "
		"'default'; a scenario\n"
		"                     is 'clean' or cache, lockfile, "
		"node_modules joined by '+'\n"
		"                     (default: clean,lockfile,cache+lockfile,"
		"\n"
		"                     cache+lockfile+node_modules)\n"
		"  --task LIST        comma-separated: install,run,build,dev "
		"(default: install);\n"
		"                     run/build/dev work in each PM's own "
		"primed tree\n"
		"  --probe N[,C]      with dev: N HTTP requests to the ready "
		"server, C at once\n"
		"                     (default 1; 127.0.0.1 only, 60 s cap)\n"
		"  --runs N|auto      timed runs per PM and scenario (default "
		"5); 'auto' runs\n"
		"                     until every median's 95%% interval is "
		"within --target,\n"
		"                     or --max-runs or --time-budget is "
		"reached\n"
		"  --target PCT       auto: half-width of the intervals, in %% "
		"of the median\n"
		"                     (default 5)\n"
		"  --max-runs N       auto: at most this many runs (default "
		"30; at least 5)\n"
		"  --time-budget DUR  auto: per scenario, e.g. 10m (default "
		"10m)\n"
		"  --warmup N         untimed runs before them (default 1)\n"
		"  --timeout DUR      per run, e.g. 90s, 15m (default 15m)\n"
		"  --out FILE         result JSON (default: "
		"cache/results/<fixture>-<time>.json)\n"
		"  --env K=V          set a variable for every PM (repeatable)\n"
		"  --seed N           seed for the statistics (default 1)\n"
		"  --progress/--no-progress  force the terminal status line on "
		"or off\n"
		"  -h, --help         this help\n"
		"\n"
		"Exit status: 0 all runs succeeded, 2 finished but some runs "
		"or primings\n"
		"failed (see the table), 1 error, 129 usage, 130 "
		"interrupted.\n");
}

static int parse_tasks(struct pmbench_bench_opts *o, const char *list)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	int ret = 0;

	pmbench_strvec_split(&v, list, ',');
	pmbench_strvec_release(&o->tasks);
	for (size_t i = 0; i < v.nr && !ret; i++) {
		if (!pmbench_task_known(v.v[i])) {
			fprintf(stderr,
				"pmbench: bench: unknown task '%s' in --task; "
				"use install, run, build or dev\n",
				v.v[i]);
			ret = -1;
		} else if (pmbench_strvec_find(&o->tasks, v.v[i]) < 0) {
			pmbench_strvec_push(&o->tasks, v.v[i]);
		}
	}
	if (!ret && !o->tasks.nr) {
		fprintf(stderr, "pmbench: bench: --task needs at least one "
				"task\n");
		ret = -1;
	}
	pmbench_strvec_release(&v);
	return ret;
}

/* --probe REQUESTS[,CONCURRENCY] */
static int parse_probe(struct pmbench_bench_opts *o, const char *v)
{
	const char *comma = strchr(v, ',');
	char *n = pmbench_xstrndup(v, comma ? (size_t)(comma - v)
					    : strlen(v));
	uint64_t req = 0, conc = 1;
	int ok = !pmbench_parse_u64(&req, n) && req >= 1 && req <= 1000000;

	if (ok && comma)
		ok = !pmbench_parse_u64(&conc, comma + 1) && conc >= 1 &&
		     conc <= 256;
	free(n);
	if (!ok) {
		fprintf(stderr,
			"pmbench: bench: '--probe' takes "
			"REQUESTS[,CONCURRENCY] (1 to 1000000 requests, 1 to 256 at once), got "
			"'%s'\n",
			v);
		return -1;
	}
	o->probe_requests = (unsigned)req;
	o->probe_concurrency = (unsigned)conc;
	return 0;
}

int cmd_bench(int argc, char **argv)
{
	enum { OPT_PM = 256, OPT_SCENARIO, OPT_RUNS, OPT_WARMUP, OPT_TIMEOUT,
	       OPT_OUT, OPT_ENV, OPT_SEED, OPT_PROGRESS, OPT_NO_PROGRESS,
	       OPT_TARGET, OPT_MAX_RUNS, OPT_TIME_BUDGET, OPT_TASK, OPT_PROBE };
	static const struct option longopts[] = {
		{ "pm", required_argument, NULL, OPT_PM },
		{ "scenario", required_argument, NULL, OPT_SCENARIO },
		{ "runs", required_argument, NULL, OPT_RUNS },
		{ "warmup", required_argument, NULL, OPT_WARMUP },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "out", required_argument, NULL, OPT_OUT },
		{ "env", required_argument, NULL, OPT_ENV },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "progress", no_argument, NULL, OPT_PROGRESS },
		{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
		{ "target", required_argument, NULL, OPT_TARGET },
		{ "max-runs", required_argument, NULL, OPT_MAX_RUNS },
		{ "time-budget", required_argument, NULL, OPT_TIME_BUDGET },
		{ "task", required_argument, NULL, OPT_TASK },
		{ "probe", required_argument, NULL, OPT_PROBE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct pmbench_bench_opts o = PMBENCH_BENCH_OPTS_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_fixture *fixtures = NULL;
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	size_t fixtures_nr = 0;
	int c, code = PMBENCH_EXIT_USAGE, ret, tty = -1;
	const char *auto_knob = NULL;

	o.timeout_ns = DEFAULT_TIMEOUT_NS;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_PM:
			pmbench_strvec_release(&o.pms);
			o.pms_explicit = 1;
			if (pmbench_cli_parse_pms(&o.pms, "bench", "--pm",
						  optarg) < 0)
				goto done;
			break;
		case OPT_SCENARIO:
			if (pmbench_cli_parse_scenarios(o.scenarios,
							&o.scenarios_nr,
							"bench", optarg) < 0)
				goto done;
			break;
		case OPT_RUNS:
			o.runs_auto = !strcmp(optarg, "auto");
			if (!o.runs_auto &&
			    pmbench_cli_parse_count(&o.runs, "bench", "--runs",
						    optarg, 1, 100000, 0) < 0)
				goto done;
			break;
		case OPT_TARGET:
		case OPT_MAX_RUNS:
		case OPT_TIME_BUDGET:
			auto_knob = c == OPT_TARGET     ? "--target"
				    : c == OPT_MAX_RUNS ? "--max-runs"
							: "--time-budget";
			if (pmbench_cli_parse_auto(&o.adaptive, auto_knob,
						   optarg, "bench") < 0)
				goto done;
			break;
		case OPT_WARMUP:
			if (pmbench_cli_parse_count(&o.warmup, "bench",
						    "--warmup", optarg, 0,
						    100000, 0) < 0)
				goto done;
			break;
		case OPT_TIMEOUT:
			if (pmbench_cli_parse_timeout(&o.timeout_ns, "bench",
						      optarg) < 0)
				goto done;
			break;
		case OPT_OUT:
			o.out = optarg;
			break;
		case OPT_ENV:
			if (pmbench_cli_parse_env(&o.env, "bench", optarg) < 0)
				goto done;
			break;
		case OPT_SEED:
			if (pmbench_cli_parse_seed(&o.seed, "bench",
						   optarg) < 0)
				goto done;
			break;
		case OPT_TASK:
			if (parse_tasks(&o, optarg) < 0)
				goto done;
			break;
		case OPT_PROBE:
			if (parse_probe(&o, optarg) < 0)
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
		default:
			pmbench_cli_unknown_option("bench", argv[optind - 1]);
			goto done;
		}
	}
	if (pmbench_cli_check_auto("bench", auto_knob, o.runs_auto) < 0)
		goto done;
	if (o.probe_requests && pmbench_strvec_find(&o.tasks, "dev") < 0) {
		fprintf(stderr, "pmbench: bench: '--probe' needs the dev task; "
				"add '--task dev'\n");
		goto done;
	}
	code = PMBENCH_EXIT_ERROR;
	o.adaptive.seed = o.seed;
	if (o.runs_auto)
		o.runs = o.adaptive.max_runs;
	pmbench_progress_init(tty);
	if (!o.pms.nr)
		for (size_t i = 0; i < pmbench_pms_nr; i++)
			pmbench_strvec_push(&o.pms, pmbench_pms[i].name);
	if (!o.scenarios_nr) {
		memcpy(o.scenarios, pmbench_scenarios_default,
		       sizeof(pmbench_scenarios_default));
		o.scenarios_nr = 4;
	}

	fixtures_nr = optind < argc ? (size_t)(argc - optind) : 1;
	fixtures = pmbench_xcalloc(fixtures_nr, sizeof(*fixtures));
	for (size_t i = 0; i < fixtures_nr; i++) {
		const char *arg = optind < argc ? argv[optind + (int)i]
						: DEFAULT_FIXTURE;

		ret = pmbench_fixture_load(&fixtures[i], arg,
					   pmbench_config.fixtures_dir);
		if (ret < 0) {
			fprintf(stderr, "pmbench: error: %s\n",
				pmbench_error_last());
			goto done;
		}
	}
	if (!o.out) {
		pmbench_cli_default_out(&out, "", fixtures[0].name);
		o.out = out.ptr;
	}
	if (pmbench_cli_mkdir_parent(o.out) < 0) {
		fprintf(stderr, "pmbench: error: %s\n", pmbench_error_last());
		goto done;
	}

	ret = pmbench_bench_run(&r, &o, fixtures, fixtures_nr);
	if (r.cells_nr)
		pmbench_table_print(stdout, &r);
	if (r.cells_nr || ret == 0)
		fprintf(stderr, "pmbench: results written to '%s'\n", o.out);
	if (ret < 0) {
		code = pmbench_cli_fail(ret);
		goto done;
	}
	code = pmbench_cli_result_code(&r);
done:
	for (size_t i = 0; i < fixtures_nr; i++)
		pmbench_fixture_release(&fixtures[i]);
	free(fixtures);
	pmbench_result_release(&r);
	pmbench_bench_opts_release(&o);
	pmbench_buf_release(&out);
	return code;
}
