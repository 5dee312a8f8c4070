#include "pmbench/common.h"

#include <getopt.h>

#include "pmbench/bench.h"
#include "pmbench/buf.h"
#include "cli.h"
#include "pmbench/fixture.h"
#include "pmbench/plan.h"
#include "pmbench/pm.h"
#include "progress.h"
#include "pmbench/doc.h"
#include "pmbench/registry.h"
#include "pmbench/report_kind.h"
#include "pmbench/scenario.h"
#include "pmbench/task.h"

#define DEFAULT_FIXTURE	   "todo-api"
#define DEFAULT_TIMEOUT_NS (15ull * 60ull * 1000000000ull)

static void usage(FILE *out)
{
	struct pmbench_buf pms = PMBENCH_BUF_INIT;

	pmbench_pm_join_names(&pms, ",", 0);
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
		"  --pm LIST          comma-separated: %s,\n"
		"                     or variants ('pmbench pms'); default: "
		"all PMs found\n"
		"  --scenario LIST    comma-separated scenarios, 'all' or "
		"'default'; a scenario\n"
		"                     is 'clean' or cache, lockfile, "
		"node_modules joined by '+'\n"
		"                     (default: clean,lockfile,cache+lockfile,"
		"\n"
		"                     cache+lockfile+node_modules)\n"
		"  --task LIST        comma-separated tasks, below (default: "
		"install); all but\n"
		"                     install work in each PM's own primed "
		"tree\n"
		"  --probe N[,C]      with dev: N HTTP requests to the ready "
		"server, C at once\n"
		"                     (default 1; 127.0.0.1 only, 60 s cap)\n"
		"  --node system|VER  the Node every PM and script runs under "
		"(default: the\n"
		"                     toolchain's pinned one, else the "
		"machine's)\n"
		"  --edits N          with hmr: edits per run (default 5); "
		"the median is the\n"
		"                     run's sample\n"
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
		"  --no-control       skip the drift control: pmbench's own "
		"fixed work, timed\n"
		"                     every round as cell (control)\n"
		"  --shard K/N        run only shard K of N: every Nth timed "
		"round, from the\n"
		"                     Kth (warm-ups in every shard); merge "
		"the N results\n"
		"                     with 'pmbench merge'\n"
		"  --progress/--no-progress  force the terminal progress bars "
		"on or off\n"
		"  --dry-run          print the plan (fixtures, PMs, scenarios, "
		"runs) and exit\n",
		pms.ptr);
	pmbench_cli_output_help(out, "--report FILE", 1, 21);
	pmbench_cli_registry_help(out, 21);
	fprintf(out, "  -h, --help         this help\n"
		     "\n"
		     "Tasks:\n");
	for (size_t i = 0; i < pmbench_tasks_nr; i++)
		fprintf(out, "  %-9s %s\n", pmbench_tasks[i].name,
			pmbench_tasks[i].summary);
	fprintf(out,
		"\n"
		"Exit status: 0 all runs succeeded, 2 finished but some runs "
		"or primings\n"
		"failed (see the table), 1 error (the result or report "
		"not written), 129 usage,\n"
		"130 interrupted.\n");
	pmbench_buf_release(&pms);
}

/* --task LIST: names of the task table. */
static int parse_tasks(struct pmbench_bench_opts *o, const char *list)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	struct pmbench_buf known = PMBENCH_BUF_INIT;
	int ret = 0;

	pmbench_strvec_split(&v, list, ',');
	pmbench_strvec_release(&o->tasks);
	pmbench_task_list(&known, 0);
	for (size_t i = 0; i < v.nr && !ret; i++) {
		if (!pmbench_task_get(v.v[i])) {
			fprintf(stderr,
				"pmbench: bench: unknown task '%s' in --task; "
				"use %s\n",
				v.v[i], known.ptr);
			ret = -1;
		} else if (pmbench_strvec_find(&o->tasks, v.v[i]) < 0) {
			pmbench_strvec_push(&o->tasks, v.v[i]);
		} else {
			pmbench_cli_note_twice(v.v[i], "--task", "running");
		}
	}
	if (!ret && !o->tasks.nr) {
		fprintf(stderr, "pmbench: bench: --task needs at least one "
				"task\n");
		ret = -1;
	}
	pmbench_strvec_release(&v);
	pmbench_buf_release(&known);
	return ret;
}

/* --probe REQUESTS[,CONCURRENCY] */
static int parse_probe(struct pmbench_bench_opts *o, const char *v)
{
	const char *comma = strchr(v, ',');
	char *n = pmbench_xstrndup(v, comma ? (size_t)(comma - v) : strlen(v));
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

/* A shard must have rounds of its own, and a fixed number of them. */
static int check_shard(const struct pmbench_bench_opts *o)
{
	if (!o->shards)
		return 0;
	if (o->runs_auto) {
		fprintf(stderr, "pmbench: bench: '--shard' needs a fixed "
				"'--runs N': shards of '--runs auto' would "
				"each stop on their own\n");
		return -1;
	}
	if (o->runs < o->shard) {
		fprintf(stderr,
			"pmbench: bench: '--shard %u/%u' with '--runs %u' "
			"leaves shard %u no run; use '--runs %u' or more\n",
			o->shard, o->shards, o->runs, o->shard, o->shards);
		return -1;
	}
	return 0;
}

/*
 * The plan's id (plan.h), with the options that change what is measured
 * but are not in the result otherwise; a shard also records its machine.
 */
static void mark_plan(struct pmbench_result *r,
		      const struct pmbench_bench_opts *o)
{
	struct pmbench_strvec extra = PMBENCH_STRVEC_INIT;

	for (size_t i = 0; i < o->env.nr; i++)
		pmbench_strvec_pushf(&extra, "env=%s", o->env.v[i]);
	if (o->probe_requests)
		pmbench_strvec_pushf(&extra, "probe=%u,%u", o->probe_requests,
				     o->probe_concurrency);
	pmbench_plan_set_id(r, &extra);
	if (o->shards)
		pmbench_plan_host_hash(r);
	pmbench_strvec_release(&extra);
}

/*
 * The primings a scenario without a lockfile adds (bench.c's
 * prime_unlocked()), known in full only once the fixture is checked out:
 * said in the plan, and their time after the primings.
 */
static void plan_unlocked(FILE *out, const char *pre,
			  const struct pmbench_bench_opts *o,
			  const struct pmbench_strvec *tasks)
{
	struct pmbench_buf names = PMBENCH_BUF_INIT;
	int per_scenario = 0;

	for (size_t i = 0; i < tasks->nr; i++) {
		const struct pmbench_task *t = pmbench_task_get(tasks->v[i]);

		per_scenario |= t && t->flags & PMBENCH_TASK_PER_SCENARIO;
	}
	for (size_t i = 0; per_scenario && i < o->scenarios_nr; i++)
		if (!(o->scenarios[i] & PMBENCH_STATE_LOCKFILE))
			pmbench_buf_addf(
				&names, "%s%s", names.len ? ", " : "",
				pmbench_scenario_name(o->scenarios[i]));
	if (names.len && pmbench_cli_registry.mode == PMBENCH_REGISTRY_LOCAL)
		fprintf(out,
			"%s  priming:   a PM whose lockfile a fixture ships is "
			"primed once more without it, for %s (a clean "
			"install, not timed; the time it adds is said after "
			"the primings)\n",
			pre, names.ptr);
	pmbench_buf_release(&names);
}

/*
 * The plan, before any work: fixtures, PMs, scenarios and tasks, and how
 * many runs that makes. Also tells the progress display how many groups
 * of runs to expect, for its estimate.
 */
static void plan(FILE *out, const char *pre, const struct pmbench_bench_opts *o,
		 const struct pmbench_fixture *fixtures, size_t fixtures_nr)
{
	struct pmbench_strvec tasks = PMBENCH_STRVEC_INIT;
	unsigned groups = 0, per = o->warmup + o->runs;

	if (!o->tasks.nr)
		pmbench_strvec_push(&tasks, "install");
	for (size_t i = 0; i < o->tasks.nr; i++)
		pmbench_strvec_push(&tasks, o->tasks.v[i]);
	for (size_t i = 0; i < tasks.nr; i++) {
		const struct pmbench_task *t = pmbench_task_get(tasks.v[i]);

		groups += t && t->flags & PMBENCH_TASK_PER_SCENARIO
				  ? (unsigned)o->scenarios_nr
				  : 1;
	}
	groups *= (unsigned)fixtures_nr;
	fprintf(out, "%splan:\n%s  fixtures:  ", pre, pre);
	for (size_t i = 0; i < fixtures_nr; i++)
		fprintf(out, "%s%s", i ? ", " : "", fixtures[i].name);
	fprintf(out, "\n%s  PMs:       ", pre);
	for (size_t i = 0; i < o->pms.nr; i++)
		fprintf(out, "%s%s", i ? ", " : "", o->pms.v[i]);
	fprintf(out,
		"%s\n%s  tasks:     ", o->pms_explicit ? "" : " (those found)",
		pre);
	for (size_t i = 0; i < tasks.nr; i++)
		fprintf(out, "%s%s", i ? ", " : "", tasks.v[i]);
	fprintf(out, "\n%s  scenarios: ", pre);
	for (size_t i = 0; i < o->scenarios_nr; i++)
		fprintf(out, "%s%s", i ? ", " : "",
			pmbench_scenario_name(o->scenarios[i]));
	fprintf(out,
		"\n%s  runs:      %s%u timed and %u warm-up per PM in each of "
		"%u group%s: %s%zu runs after %zu primings\n",
		pre, o->runs_auto ? "up to " : "", o->runs, o->warmup, groups,
		groups == 1 ? "" : "s", o->runs_auto ? "up to " : "",
		(size_t)per * groups * o->pms.nr, o->pms.nr * fixtures_nr);
	plan_unlocked(out, pre, o, &tasks);
	fflush(out);
	pmbench_progress_plan(groups);
	pmbench_strvec_release(&tasks);
}

/* --edits N: hmr edits per run. */
static int parse_edits(struct pmbench_bench_opts *o, const char *v)
{
	uint64_t n = 0;

	if (pmbench_parse_u64(&n, v) < 0 || n < 1 || n > 100) {
		fprintf(stderr,
			"pmbench: bench: '--edits' takes 1 to 100 edits per "
			"run, got '%s'\n",
			v);
		return -1;
	}
	o->edits = (unsigned)n;
	return 0;
}

int cmd_bench(int argc, char **argv)
{
	enum {
		OPT_TASK = PMBENCH_CLI_OPT_OWN,
		OPT_PROBE,
		OPT_SHARD,
		OPT_DRY_RUN,
		OPT_EDITS,
		OPT_NODE,
		OPT_NO_CONTROL
	};
	static const struct option longopts[] = {
		{ "pm", required_argument, NULL, PMBENCH_CLI_OPT_PM },
		{ "scenario", required_argument, NULL,
		  PMBENCH_CLI_OPT_SCENARIO },
		{ "runs", required_argument, NULL, PMBENCH_CLI_OPT_RUNS },
		{ "warmup", required_argument, NULL, PMBENCH_CLI_OPT_WARMUP },
		{ "timeout", required_argument, NULL, PMBENCH_CLI_OPT_TIMEOUT },
		{ "out", required_argument, NULL, PMBENCH_CLI_OPT_OUT },
		{ "env", required_argument, NULL, PMBENCH_CLI_OPT_ENV },
		{ "seed", required_argument, NULL, PMBENCH_CLI_OPT_SEED },
		{ "progress", no_argument, NULL, PMBENCH_CLI_OPT_PROGRESS },
		{ "no-progress", no_argument, NULL,
		  PMBENCH_CLI_OPT_NO_PROGRESS },
		{ "target", required_argument, NULL, PMBENCH_CLI_OPT_TARGET },
		{ "max-runs", required_argument, NULL,
		  PMBENCH_CLI_OPT_MAX_RUNS },
		{ "time-budget", required_argument, NULL,
		  PMBENCH_CLI_OPT_TIME_BUDGET },
		{ "task", required_argument, NULL, OPT_TASK },
		{ "probe", required_argument, NULL, OPT_PROBE },
		{ "shard", required_argument, NULL, OPT_SHARD },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "edits", required_argument, NULL, OPT_EDITS },
		{ "node", required_argument, NULL, OPT_NODE },
		{ "no-control", no_argument, NULL, OPT_NO_CONTROL },
		PMBENCH_CLI_REGISTRY_LONGOPTS,
		{ "format", required_argument, NULL, PMBENCH_CLI_OPT_FORMAT },
		{ "report", required_argument, NULL, PMBENCH_CLI_OPT_REPORT },
		{ "columns", required_argument, NULL, PMBENCH_CLI_OPT_COLUMNS },
		{ "wide", no_argument, NULL, PMBENCH_CLI_OPT_WIDE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pmbench_cli_bench how =
		PMBENCH_CLI_BENCH_INIT("bench", 100000, 1, 0);
	struct pmbench_bench_opts o = PMBENCH_BENCH_OPTS_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_fixture *fixtures = NULL;
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	struct pmbench_cli_output report = PMBENCH_CLI_OUTPUT_INIT("bench", 1);
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	size_t fixtures_nr = 0;
	const char *node = NULL;
	int edits_given = 0;
	int c, code = PMBENCH_EXIT_USAGE, ret, shown = 0, dry_run = 0;

	o.timeout_ns = DEFAULT_TIMEOUT_NS;
	o.control = 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_TASK:
			if (parse_tasks(&o, optarg) < 0)
				goto done;
			break;
		case OPT_PROBE:
			if (parse_probe(&o, optarg) < 0)
				goto done;
			break;
		case OPT_SHARD:
			if (pmbench_plan_parse_shard(&o.shard, &o.shards,
						     optarg) < 0) {
				fprintf(stderr, "pmbench: bench: %s\n",
					pmbench_error_last());
				goto done;
			}
			break;
		case OPT_DRY_RUN:
			dry_run = 1;
			break;
		case OPT_NODE:
			node = optarg;
			break;
		case OPT_EDITS:
			if (parse_edits(&o, optarg) < 0)
				goto done;
			edits_given = 1;
			break;
		case OPT_NO_CONTROL:
			o.control = 0;
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
		default:
			if (pmbench_cli_bench_option(&o, &how, c, optarg,
						     argv[optind - 1]) < 0)
				goto done;
		}
	}
	if (pmbench_cli_check_auto("bench", how.auto_knob, o.runs_auto) < 0 ||
	    pmbench_cli_registry_check("bench") < 0)
		goto done;
	if (o.probe_requests && pmbench_strvec_find(&o.tasks, "dev") < 0) {
		fprintf(stderr, "pmbench: bench: '--probe' needs the dev task; "
				"add '--task dev'\n");
		goto done;
	}
	if (check_shard(&o) < 0)
		goto done;
	if (edits_given && pmbench_strvec_find(&o.tasks, "hmr") < 0) {
		fprintf(stderr, "pmbench: bench: '--edits' needs the hmr task; "
				"add '--task hmr'\n");
		goto done;
	}
	code = PMBENCH_EXIT_ERROR;
	if (node && pmbench_cli_node(node) < 0) {
		fprintf(stderr, "pmbench: error: %s\n", pmbench_error_last());
		goto done;
	}
	if (!dry_run && pmbench_cli_take_workdir(argc, argv) < 0)
		goto done;
	o.autostop.seed = o.seed;
	if (o.runs_auto)
		o.runs = o.autostop.max_runs;
	pmbench_progress_init(how.tty);
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
	plan(dry_run ? stdout : stderr, dry_run ? "" : "pmbench: ", &o,
	     fixtures, fixtures_nr);
	if (dry_run) {
		code = PMBENCH_EXIT_OK;
		goto done;
	}
	if (pmbench_cli_prepare_out(&o.out, &out, "", fixtures[0].name) < 0) {
		fprintf(stderr, "pmbench: error: %s\n", pmbench_error_last());
		goto done;
	}
	if (pmbench_cli_check_output(&report) < 0)
		goto done;

	ret = pmbench_bench_run(&pmbench_cli_ctx, &r, &o, fixtures,
				fixtures_nr);
	mark_plan(&r, &o);
	if (r.cells_nr) {
		pmbench_report_bench(&doc, &r);
		shown = pmbench_cli_show(&report, &doc);
	}
	code = pmbench_cli_finish(&r, ret, o.out);
	/* The report the user asked for is a product too. */
	if (shown < 0 && code != PMBENCH_EXIT_INTERRUPTED)
		code = PMBENCH_EXIT_ERROR;
done:
	pmbench_doc_release(&doc);
	for (size_t i = 0; i < fixtures_nr; i++)
		pmbench_fixture_release(&fixtures[i]);
	free(fixtures);
	pmbench_result_release(&r);
	pmbench_bench_opts_release(&o);
	pmbench_buf_release(&out);
	return code;
}
