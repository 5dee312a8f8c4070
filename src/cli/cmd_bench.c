/* The bench command: its options' setters, checks and its run. */

#include "pmbench/common.h"

#include <ctype.h>

#include "pmbench/bench.h"
#include "pmbench/buf.h"
#include "cli.h"
#include "pmbench/fixture.h"
#include "pmbench/plan.h"
#include "pmbench/pm.h"
#include "options.h"
#include "progress.h"
#include "pmbench/doc.h"
#include "pmbench/registry.h"
#include "pmbench/report_kind.h"
#include "pmbench/scenario.h"
#include "pmbench/task.h"

#define DEFAULT_FIXTURE "todo-api"

/* --task LIST: names of the task table. */
int pmbench_cli_set_tasks(struct pmbench_cli_opts *cli,
			  const struct pmbench_option *o, const char *arg)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec *tasks = &cli->run->tasks;
	struct pmbench_buf known = PMBENCH_BUF_INIT;
	int ret = 0;

	pmbench_strvec_split(&v, arg, ',');
	pmbench_strvec_release(tasks);
	pmbench_task_list(&known, 0);
	for (size_t i = 0; i < v.nr && !ret; i++) {
		if (!pmbench_task_get(v.v[i]))
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "unknown task '%s' in --%s; "
						 "use %s",
						 v.v[i], o->name, known.ptr);
		else if (pmbench_strvec_find(tasks, v.v[i]) < 0)
			pmbench_strvec_push(tasks, v.v[i]);
		else
			pmbench_cli_note_twice(v.v[i], "--task", "running");
	}
	if (!ret && !tasks->nr)
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "--%s needs at least one task",
					 o->name);
	pmbench_strvec_release(&v);
	pmbench_buf_release(&known);
	return ret;
}

/* --shard K/N */
int pmbench_cli_set_shard(struct pmbench_cli_opts *cli,
			  const struct pmbench_option *o, const char *arg)
{
	(void)o;
	return pmbench_plan_parse_shard(&cli->run->shard, &cli->run->shards,
					arg);
}

/* Whether a task of --task has the knob `name`. */
static int asked_takes(const struct pmbench_strvec *tasks, const char *name)
{
	for (size_t i = 0; i < tasks->nr; i++) {
		const struct pmbench_task *t = pmbench_task_get(tasks->v[i]);

		for (const struct pmbench_task_knob *k = t ? t->knobs : NULL;
		     k && k->name; k++)
			if (!strcmp(k->name, name))
				return 1;
	}
	return 0;
}

/* A task's knob (--probe: dev's) needs that task. */
int pmbench_cli_check_bench(const struct pmbench_cli_opts *cli)
{
	for (size_t i = 0; i < pmbench_tasks_nr; i++) {
		const struct pmbench_task *t = &pmbench_tasks[i];

		for (const struct pmbench_task_knob *k = t->knobs; k && k->name;
		     k++)
			if (pmbench_cli_given(cli, k->name) &&
			    !asked_takes(&cli->run->tasks, k->name))
				return pmbench_cli_usage_error(
					cli->cmd->name,
					"'--%s' needs the %s task; add "
					"'--task %s'",
					k->name, t->name, t->name);
	}
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

/* The plan's runs under a time budget. */
static void budget_plan(FILE *out, const char *pre,
			const struct pmbench_bench_opts *o, unsigned groups)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_add_clock_unit(&b, (double)o->budget.budget_ns / 1e9);
	fprintf(out,
		"\n%s  runs:      a budget of %s: %u warm-up and %u "
		"rounds in each of %u group%s, then rounds where a paired "
		"ratio against %s is widest, until each is within ±%g %% "
		"(at most %u rounds)\n",
		pre, b.ptr, o->warmup, o->budget.min_runs, groups,
		groups == 1 ? "" : "s",
		o->baseline ? o->baseline
			    : pmbench_pm_default_baseline(
				      (const char *const *)o->pms.v, o->pms.nr),
		o->budget.target * 100, o->budget.max_runs);
	pmbench_buf_release(&b);
}

/*
 * The plan's fixed runs and primings: with --base each PM runs, and is
 * primed, on both sides, the base's and the head's.
 */
static void fixed_plan(FILE *out, const char *pre,
		       const struct pmbench_bench_opts *o, unsigned groups,
		       size_t fixtures_nr)
{
	size_t cells = o->pms.nr * (o->base_commit ? 2 : 1);

	fprintf(out,
		"\n%s  runs:      %u timed and %u warm-up per PM%s in "
		"each of %u group%s: %zu runs after %zu primings\n",
		pre, o->runs, o->warmup, o->base_commit ? " and side" : "",
		groups, groups == 1 ? "" : "s",
		(size_t)(o->warmup + o->runs) * groups * cells,
		cells * fixtures_nr);
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
	unsigned groups = 0;

	if (!o->tasks.nr)
		pmbench_strvec_push(&tasks, pmbench_task_default()->name);
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
	fprintf(out, "%s%s\n%s  tasks:     ",
		o->pms_explicit ? "" : " (those found)",
		o->base_commit ? ", each on the base and the head commit" : "",
		pre);
	for (size_t i = 0; i < tasks.nr; i++)
		fprintf(out, "%s%s", i ? ", " : "", tasks.v[i]);
	fprintf(out, "\n%s  scenarios: ", pre);
	for (size_t i = 0; i < o->scenarios_nr; i++)
		fprintf(out, "%s%s", i ? ", " : "",
			pmbench_scenario_name(o->scenarios[i]));
	if (o->runs_auto)
		budget_plan(out, pre, o, groups);
	else
		fixed_plan(out, pre, o, groups, fixtures_nr);
	plan_unlocked(out, pre, o, &tasks);
	fflush(out);
	pmbench_progress_plan(groups);
	pmbench_strvec_release(&tasks);
}

/*
 * What the options left to the defaults (whether the budget spends the
 * rounds was decided with the options: parse.c).
 */
static void defaults(struct pmbench_bench_opts *o,
		     const struct pmbench_cli_opts *cli)
{
	if (pmbench_cli_given(cli, "time-budget"))
		fprintf(stderr,
			"pmbench: note: '--time-budget' is now '--budget', the "
			"whole command's budget (it was per scenario)\n");
	o->pms_explicit = o->pms.nr > 0;
	if (!o->pms.nr)
		for (size_t i = 0; i < pmbench_pms_nr; i++)
			pmbench_strvec_push(&o->pms, pmbench_pms[i].name);
	if (!o->scenarios_nr) {
		memcpy(o->scenarios, pmbench_scenarios_default,
		       sizeof(pmbench_scenarios_default));
		o->scenarios_nr = 4;
	}
}

/*
 * Whether the fixture `f` (given as `arg`) was given before, among the
 * `nr` at `kept`: 1, with a note, as a PM given twice in --pm is; -1,
 * with the error, when it is another fixture of the same name.
 */
static int given_before(const struct pmbench_fixture *kept, size_t nr,
			const struct pmbench_fixture *f, const char *arg)
{
	for (size_t i = 0; i < nr; i++) {
		int same = pmbench_fixture_same(&kept[i], f);

		if (same < 0) {
			pmbench_cli_error(NULL);
			return -1;
		}
		if (same) {
			pmbench_cli_note_twice(arg, "the fixtures",
					       "benchmarking");
			return 1;
		}
	}
	return 0;
}

/* The fixtures named (`names`, `nr` of them), or the default one. */
static int load_fixtures(struct pmbench_fixture **out, size_t *out_nr,
			 char **names, size_t nr)
{
	size_t want = nr ? nr : 1;

	*out_nr = 0;
	*out = pmbench_xcalloc(want, sizeof(**out));
	for (size_t i = 0; i < want; i++) {
		const char *name = nr ? names[i] : DEFAULT_FIXTURE;
		struct pmbench_fixture *f = &(*out)[*out_nr];
		int seen;

		if (pmbench_fixture_load(f, name, pmbench_config.fixtures_dir) <
		    0) {
			pmbench_cli_error(NULL);
			pmbench_fixture_release(f);
			return -1;
		}
		seen = given_before(*out, *out_nr, f, name);
		if (seen)
			pmbench_fixture_release(f);
		if (seen < 0)
			return -1;
		if (!seen)
			(*out_nr)++;
	}
	return 0;
}

/* Whether `sha` is a full commit SHA: 40 hex digits. */
static int full_sha(const char *sha)
{
	size_t n = strspn(sha, "0123456789abcdefABCDEF");

	return n == 40 && !sha[n];
}

/*
 * --base and --head: full SHAs of one fixture that is a git repository;
 * a local folder given as a bare path is cloned (its commits) instead
 * of copied, and --head pins the fixture's commit.
 */
static int check_sides(const struct pmbench_bench_opts *o,
		       struct pmbench_fixture *fixtures, size_t nr)
{
	const char *bad = o->base_commit && !full_sha(o->base_commit) ? "--base"
			  : o->head_commit && !full_sha(o->head_commit)
				  ? "--head"
				  : NULL;

	if (o->head_commit && !o->base_commit)
		return pmbench_cli_usage_error("bench", "--head goes with "
							"--base SHA");
	if (bad)
		return pmbench_cli_usage_error(
			"bench",
			"%s takes a full 40-character commit SHA "
			"(git rev-parse REF gives it)",
			bad);
	if (!o->base_commit || nr != 1)
		return 0;
	fixtures[0].is_bare_path = 0;
	if (o->head_commit) {
		free(fixtures[0].commit);
		fixtures[0].commit = pmbench_xstrdup(o->head_commit);
		for (char *c = fixtures[0].commit; *c; c++)
			*c = (char)tolower((unsigned char)*c);
	}
	return 0;
}

/* Run the benchmark, show its report, write its result: the exit code. */
static int run(struct pmbench_bench_opts *o, struct pmbench_cli_opts *cli,
	       struct pmbench_fixture *fixtures, size_t fixtures_nr)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	int code = PMBENCH_EXIT_ERROR, ret;

	if (pmbench_cli_prepare_out(&o->out, &out, "", fixtures[0].name) < 0) {
		pmbench_cli_error(NULL);
		goto done;
	}
	if (pmbench_cli_check_output(&cli->output) < 0)
		goto done;
	pmbench_cli_read_prior(o->runs_auto);
	ret = pmbench_bench_run(&pmbench_cli_ctx, &r, o, fixtures, fixtures_nr);
	pmbench_cli_mark_plan(&r, cli);
	code = pmbench_cli_show_finish(&cli->output, &r, ret, o->out,
				       pmbench_report_bench);
done:
	if (o->out == out.ptr)
		o->out = NULL;
	pmbench_result_release(&r);
	pmbench_buf_release(&out);
	return code;
}

int cmd_bench(int argc, char **argv)
{
	struct pmbench_bench_opts o = PMBENCH_BENCH_OPTS_INIT;
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	struct pmbench_fixture *fixtures = NULL;
	size_t fixtures_nr = 0;
	int code, ret;

	o.timeout_ns = PMBENCH_CLI_DEFAULT_TIMEOUT_NS;
	o.control = 1;
	cli.run = &o;
	ret = pmbench_cli_parse(&cli, "bench", argc, argv);
	if (!ret && (check_shard(&o) < 0 || pmbench_cli_check_bench(&cli) < 0))
		ret = -1;
	if (ret) {
		code = pmbench_cli_parse_exit(ret);
		goto done;
	}
	code = PMBENCH_EXIT_ERROR;
	if (!cli.dry_run && pmbench_cli_take_workdir(argc, argv) < 0)
		goto done;
	defaults(&o, &cli);
	pmbench_progress_init(cli.tty);
	if (o.runs_auto)
		pmbench_progress_budget((double)o.budget.budget_ns / 1e9);
	if (load_fixtures(&fixtures, &fixtures_nr, argv + cli.optind,
			  (size_t)(argc - cli.optind)) < 0)
		goto done;
	ret = check_sides(&o, fixtures, fixtures_nr);
	if (ret) {
		code = pmbench_cli_parse_exit(ret);
		goto done;
	}
	plan(cli.dry_run ? stdout : stderr, cli.dry_run ? "" : "pmbench: ", &o,
	     fixtures, fixtures_nr);
	code = cli.dry_run ? PMBENCH_EXIT_OK
			   : run(&o, &cli, fixtures, fixtures_nr);
done:
	for (size_t i = 0; i < fixtures_nr; i++)
		pmbench_fixture_release(&fixtures[i]);
	free(fixtures);
	pmbench_bench_opts_release(&o);
	pmbench_cli_opts_release(&cli);
	return code;
}
