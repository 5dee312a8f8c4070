/*
 * The time budget: with fake PMs whose noise is scripted (a jitter
 * knob), the noisy PM's paired ratio against the baseline gets more
 * rounds than the quiet one's, and the table says which reached the
 * target; `--runs N` keeps the fixed plan. Only counts and states are
 * asserted, never times.
 */
#include "pmbench/common.h"

#include "check.h"
#include "fields.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/result.h"
#include "pmbench/schedule.h"

/* Timed rounds of a cell with a successful value. */
static size_t rounds_of(const struct pmbench_result *r, const char *pm)
{
	const struct pmbench_cell *c =
		pmbench_result_find_cell(r, "proj", "install", "clean", pm);
	size_t n = 0;

	free(c ? pmbench_cell_times(c, &n) : NULL);
	return n;
}

static const char *stopped(const struct pmbench_result *r, const char *pm)
{
	const struct pmbench_cell *c =
		pmbench_result_find_cell(r, "proj", "install", "clean", pm);

	return c && c->stopped_by ? c->stopped_by : "";
}

/*
 * npm the baseline (`npm_ms`); bun half its time, steady; pnpm with a
 * wide jitter (up to twice npm's time more). For the budget, 1600 ms:
 * long enough that a loaded machine's delays (6 to 150 ms a run at a
 * load of 20 on 2 cores, 2026-12-05) do not make bun's ratio as wide as
 * the jitter makes pnpm's (with 400 ms its ratios spread from 0.49 to
 * 0.79, and bun ran to the cap too).
 */
static void noisy_env(struct pmbench_strvec *env, unsigned npm_ms)
{
	pmbench_strvec_pushf(env, "FAKEPM_NPM_SLEEP_MS=%u", npm_ms);
	pmbench_strvec_pushf(env, "FAKEPM_BUN_SLEEP_MS=%u", npm_ms / 2);
	pmbench_strvec_pushf(env, "FAKEPM_PNPM_SLEEP_MS=%u", npm_ms);
	pmbench_strvec_pushf(env, "FAKEPM_PNPM_JITTER_MS=%u", 2 * npm_ms);
}

TEST(budget_goes_to_the_noisy_cell)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const char *proj;
	char out[4200];
	size_t noisy, quiet;

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	noisy_env(&env, 1600);
	{
		const char *args[] = {
			"bench",      "--pm",	    "npm,bun,pnpm",
			"--scenario", "clean",	    "--budget",
			"5m",	      "--max-runs", "7",
			"--warmup",   "0",	    "--no-control",
			"--out",      out,	    proj,
			NULL
		};

		h_pmbench(&run, args, &env);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	CHECK(r.runs_auto);
	CHECK_STR(r.baseline, "npm");
	noisy = rounds_of(&r, "pnpm");
	quiet = rounds_of(&r, "bun");
	fprintf(stderr, "rounds: pnpm %zu (%s), bun %zu (%s)\n", noisy,
		stopped(&r, "pnpm"), quiet, stopped(&r, "bun"));
	/*
	 * Every PM has the minimum rounds. bun, steady, reached the target
	 * before the cap; pnpm, whose ratio its jitter keeps wide, ran on
	 * to it. (Load can make bun's ratio wide too: a timing test, it
	 * then fails, where it used to check only the first line here.)
	 * The cap is 7, two past the minimum (it was 10, 25 s more: bun
	 * reaches the target in its first 5).
	 */
	CHECK(quiet >= PMBENCH_SCHEDULE_BUDGET_MIN_RUNS);
	CHECK_STR(stopped(&r, "bun"), "precision");
	CHECK(quiet < 7);
	CHECK_STR(stopped(&r, "pnpm"), "max-runs");
	CHECK_INT(noisy, 7);
	/* The baseline runs in every round the others run in. */
	CHECK(rounds_of(&r, "npm") >= noisy);
	CHECK(r.runs >= noisy);
	/* The table says which ratios reached the target, and the runs. */
	CHECK_CONTAINS(run.out.ptr, "target ±10 % against npm (paired): "
				    "reached by bun; not reached: pnpm");
	CHECK_CONTAINS(run.out.ptr, "baseline");
	pmbench_result_release(&r);
	pmbench_strvec_release(&env);
	h_run_release(&run);
}

TEST(fixed_runs_keep_the_plan)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const char *proj;
	char out[4200];

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	/* The plan holds whatever the noise: no need to wait long. */
	noisy_env(&env, 400);
	{
		const char *args[] = { "bench",
				       "--pm",
				       "npm,bun,pnpm",
				       "--scenario",
				       "clean",
				       "--runs",
				       "3",
				       "--warmup",
				       "0",
				       "--no-control",
				       "--out",
				       out,
				       proj,
				       NULL };

		h_pmbench(&run, args, &env);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	CHECK(!r.runs_auto);
	CHECK_INT(r.runs, 3);
	for (size_t i = 0; i < r.cells_nr; i++) {
		CHECK_INT(r.cells[i].samples_nr, 3);
		CHECK(!r.cells[i].stopped_by);
		for (size_t k = 0; k < r.cells[i].samples_nr; k++)
			CHECK_INT(r.cells[i].samples[k].repeat, 0);
	}
	/* The baseline's column still: the ratios against npm. */
	CHECK_STR(r.baseline, "npm");
	CHECK(!strstr(run.out.ptr, "target ±"));
	pmbench_result_release(&r);
	pmbench_strvec_release(&env);
	h_run_release(&run);
}

/* A baseline that is not benchmarked is a usage error naming it. */
TEST(baseline_must_be_benchmarked)
{
	struct h_run run;
	const char *proj;

	h_setup();
	proj = h_project("proj");
	{
		const char *args[] = { "bench",	     "--pm",	 "npm,bun",
				       "--baseline", "pnpm",	 "--runs",
				       "1",	     "--warmup", "0",
				       proj,	     NULL };

		h_pmbench(&run, args, NULL);
	}
	CHECK(run.exit_code != 0);
	CHECK_CONTAINS(run.out.ptr, "'--baseline pnpm' is not one of the PMs");
	h_run_release(&run);
}

/* --explain runs after the budget's rounds as after a fixed plan. */
TEST(budget_then_explain)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	struct h_run run;
	const char *proj;
	char out[4200];

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	pmbench_strvec_pushf(&env, "FAKEPM_TIMERS=%s/tests/data/pm-timers",
			     getenv("PMBENCH_SOURCE_DIR"));
	{
		const char *args[] = {
			"bench", "--pm",	 "npm,pnpm",  "--scenario",
			"clean", "--budget",	 "1s",	      "--warmup",
			"0",	 "--no-control", "--explain", "--out",
			out,	 proj,		 NULL
		};

		h_pmbench(&run, args, &env);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	CHECK(r.runs_auto);
	c = pmbench_result_find_cell(&r, "proj", "install", "clean", "npm");
	CHECK(c && c->explain_nr >= 1 && c->explain[0].ok);
	pmbench_result_release(&r);
	pmbench_strvec_release(&env);
	h_run_release(&run);
}

/* The seconds of the estimate line `which` ("estimate: about 1:05"), or -1. */
static double estimate_of(const char *out, const char *which)
{
	const char *at = strstr(out, which);
	unsigned a = 0, b = 0, c = 0;
	int n;

	if (!at)
		return -1;
	n = sscanf(at + strlen(which), "%u:%u:%u", &a, &b, &c);
	if (n == 3)
		return a * 3600.0 + b * 60.0 + c;
	return n == 2 ? a * 60.0 + b : -1;
}

/*
 * The command `run` under a budget of `budget_s`, which took `wall` s:
 * it succeeded, its minimum fitted, its estimates (before the first
 * timed round and after the first rounds) are within ±15 % of the wall
 * time (a ratio: the test's label is timing), and it kept within its
 * budget +10 % and an eighth (5 s of 40: the fakes' sleeps and the
 * budgets were shortened together, the slack with them).
 */
static void check_estimates(int *ok, const struct h_run *run, double wall,
			    double budget_s)
{
	double est = estimate_of(run->out.ptr, "estimate: about ");
	double again = estimate_of(run->out.ptr, "estimate after the first "
						 "rounds: about ");

	*ok = 0;
	fprintf(stderr,
		"estimate %.0f s, after the first rounds %.0f s, "
		"wall %.1f s, budget %.0f s\n",
		est, again, wall, budget_s);
	CHECK_INT(run->exit_code, 0);
	CHECK(!strstr(run->out.ptr, "cannot hold"));
	CHECK(est > 0 && again > 0);
	CHECK(est >= 0.85 * wall && est <= 1.15 * wall);
	CHECK(again >= 0.85 * wall && again <= 1.15 * wall);
	CHECK(wall <= 1.10 * budget_s + budget_s / 8);
	*ok = 1;
}

/*
 * The estimate printed before the first timed round, from the warm-ups,
 * holds within ±15 % of the whole command's wall time (a ratio: the
 * test's label is timing), and the rounds stayed within the budget
 * +10 %. pnpm's jitter keeps its verdict open, so the budget is spent.
 * The ratios do not depend on the absolute: npm sleeps 100 ms under a
 * budget of 15 s (it was 300 ms and 40 s; the minimum, 2 groups of 5
 * rounds, still fits).
 */
TEST(estimate_holds)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct h_run run;
	const char *proj;
	double wall;
	uint64_t t0;

	h_setup();
	proj = h_project("proj");
	noisy_env(&env, 100);
	t0 = pmbench_now_ns();
	{
		const char *args[] = { "bench",
				       "--pm",
				       "npm,bun,pnpm",
				       "--scenario",
				       "clean,lockfile",
				       "--budget",
				       "15s",
				       "--max-runs",
				       "200",
				       "--no-control",
				       proj,
				       NULL };

		h_pmbench(&run, args, &env);
	}
	wall = (double)(pmbench_now_ns() - t0) / 1e9;
	H_CHECK_CALL(check_estimates, &run, wall, 15);
	CHECK_CONTAINS(run.out.ptr, "2 groups: clean 5 rounds of ");
	pmbench_strvec_release(&env);
	h_run_release(&run);
}

/*
 * The estimate before the first timed round from this machine's earlier
 * results (prior.c): the first bench in a work folder has none and says
 * so; the second, the same, finds the first's result in the results
 * folder (no --out) and predicts its further rounds from that pair's
 * interval, within ±15 % of its wall time (timing). pnpm steady at
 * half npm's time: its verdict settles in the first rounds, so the
 * budget (40 s) is far from spent; before the prior, the estimate said
 * the whole budget. The sleeps were 800 and 200 ms: under the suite's
 * load pnpm's 200 ms varied by ±5-10 %, about the target, so the first
 * run's interval could say further rounds the second did not need (9 s
 * against a wall of 7.5, one fresh-machine rehearsal of three,
 * 2026-12-07); at 1600 and 800 ms the same jitter is 2-3 %.
 */
TEST(estimate_from_earlier_results)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct h_run run;
	const char *proj;
	char results[4200];
	double wall;
	uint64_t t0;

	h_setup();
	proj = h_project("proj");
	pmbench_strvec_push(&env, "FAKEPM_NPM_SLEEP_MS=1600");
	pmbench_strvec_push(&env, "FAKEPM_PNPM_SLEEP_MS=800");
	snprintf(results, sizeof(results), "%s/results", h_cache());
	for (int i = 0; i < 2; i++) {
		const char *args[] = { "bench",	     "--pm",	   "npm,pnpm",
				       "--scenario", "clean",	   "--budget",
				       "40s",	     "--max-runs", "30",
				       proj,	     NULL };

		t0 = pmbench_now_ns();
		h_pmbench(&run, args, &env);
		wall = (double)(pmbench_now_ns() - t0) / 1e9;
		CHECK_INT(run.exit_code, 0);
		if (!i) {
			CHECK_CONTAINS(run.out.ptr,
				       "no earlier result here says how much "
				       "its rounds vary");
			CHECK(pmbench_fs_isdir(results));
			h_run_release(&run);
		}
	}
	CHECK_CONTAINS(run.out.ptr, "the further rounds as this machine's "
				    "earlier results of these PMs say their "
				    "rounds vary");
	/*
	 * The budget was not what ended it (a state, not a time): pnpm's
	 * ratio reached the target, so the rounds stopped for precision.
	 */
	CHECK_CONTAINS(run.out.ptr, "target ±10 % against npm (paired): "
				    "reached by pnpm");
	H_CHECK_CALL(check_estimates, &run, wall, 40);
	pmbench_strvec_release(&env);
	h_run_release(&run);
}

/*
 * A budget the first rounds cannot fit: said before the first timed
 * round with what would fit, then what was asked runs (every scenario's
 * minimum rounds).
 */
TEST(minimum_that_cannot_fit)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const char *proj;
	char out[4200];

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	noisy_env(&env, 200);
	{
		const char *args[] = { "bench",
				       "--pm",
				       "npm,bun,pnpm",
				       "--scenario",
				       "clean,lockfile",
				       "--budget",
				       "2s",
				       "--no-control",
				       "--out",
				       out,
				       proj,
				       NULL };

		h_pmbench(&run, args, &env);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "the budget cannot hold the first rounds: "
				    "with 5 timed rounds of every group the "
				    "command needs about ");
	CHECK_CONTAINS(run.out.ptr, "what would fit: --budget ");
	CHECK_INT(pmbench_result_read(&r, out), 0);
	CHECK_INT(rounds_of(&r, "pnpm"), PMBENCH_SCHEDULE_BUDGET_MIN_RUNS);
	CHECK_INT(rounds_of(&r, "bun"), PMBENCH_SCHEDULE_BUDGET_MIN_RUNS);
	pmbench_result_release(&r);
	pmbench_strvec_release(&env);
	h_run_release(&run);
}

/*
 * migrate spends the same budget as bench: its estimate before the
 * first timed round, then the rounds the budget gives (before, a fixed
 * 5 and no --budget).
 */
TEST(migrate_spends_the_budget)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct h_run run;
	const char *proj;
	char report[4200];

	h_setup();
	proj = h_project("proj");
	snprintf(report, sizeof(report), "%s", h_write("migrate.json", ""));
	noisy_env(&env, 100);
	{
		const char *args[] = {
			"migrate",  proj,   "--to",	  "pnpm",
			"--from",   "npm",  "--scenario", "cache+lockfile",
			"--budget", "10s",  "--max-runs", "8",
			"--out",    report, NULL
		};

		h_pmbench(&run, args, &env);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "estimate: about ");
	CHECK_CONTAINS(run.out.ptr, "1 group: cache+lockfile 5 rounds of ");
	CHECK_CONTAINS(run.out.ptr, "estimate after the first rounds: ");
	/* Once the minimum ran, what a round costs, not "0 rounds of". */
	CHECK_CONTAINS(run.out.ptr, "1 group: cache+lockfile 5 rounds run, ");
	CHECK(!strstr(run.out.ptr, " 0 rounds of "));
	pmbench_strvec_release(&env);
	h_run_release(&run);
}

/*
 * ci-cache for npm, bun and pnpm (noisy_env) with the strategies
 * `strategies` under `budget`, into `out`; `run` gets what it said.
 */
static void ci_budget(struct h_run *run, const char *strategies,
		      const char *budget, unsigned npm_ms, const char *out)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	const char *proj = h_project("proj");

	noisy_env(&env, npm_ms);
	{
		const char *args[] = {
			"ci-cache",	 proj,	       "--pm",
			"npm,bun,pnpm",	 "--strategy", strategies,
			"--compression", "gzip",       "--budget",
			budget,		 "--max-runs", "200",
			"--out",	 out,	       NULL
		};

		h_pmbench(run, args, &env);
	}
	pmbench_strvec_release(&env);
}

/* Hit jobs of a ci-cache cell with a successful time. */
static size_t ci_rounds(const struct pmbench_result *r, const char *sc,
			const char *pm)
{
	const struct pmbench_cell *c =
		pmbench_result_find_cell(r, "proj", "ci-cache", sc, pm);
	size_t n = 0;

	free(c ? pmbench_cell_times(c, &n) : NULL);
	return n;
}

/*
 * ci-cache spends the budget as bench does (before, a fixed 3 hit jobs):
 * the estimate after every strategy's first jobs, worded as what will
 * run, within ±15 % of the wall time (a ratio: timing), the command
 * within its budget +10 %, every strategy's minimum hit rounds, further
 * rounds to the open verdict (pnpm's jitter) before the settled one
 * (bun, steady at half npm's time), and why each stopped. Its 300 ms
 * and 40 s stay: at 100 ms and 16 s, 200 ms and 24 s, and 300 ms and
 * 28 s (load 27) bun ran as many rounds as pnpm or more (the jobs' own
 * costs, the same at any sleep, leave bun's verdict open).
 */
TEST(ci_cache_spends_the_budget)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	char out[4200];
	double wall;
	uint64_t t0;
	size_t bun, pnpm;

	h_setup();
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	t0 = pmbench_now_ns();
	ci_budget(&run, "none,store", "40s", 300, out);
	wall = (double)(pmbench_now_ns() - t0) / 1e9;
	H_CHECK_CALL(check_estimates, &run, wall, 40);
	CHECK_CONTAINS(run.out.ptr, "2 groups: none 4 more rounds of ");
	CHECK_CONTAINS(run.out.ptr, ", store/gzip-6 4 more rounds of ");
	CHECK_INT(pmbench_result_read(&r, out), 0);
	CHECK(r.runs_auto);
	bun = ci_rounds(&r, "none", "bun");
	pnpm = ci_rounds(&r, "none", "pnpm");
	fprintf(stderr, "none: bun %zu, pnpm %zu rounds\n", bun, pnpm);
	CHECK(bun >= PMBENCH_SCHEDULE_BUDGET_MIN_RUNS);
	CHECK(ci_rounds(&r, "store/gzip-6", "npm") >=
	      PMBENCH_SCHEDULE_BUDGET_MIN_RUNS);
	CHECK(pnpm > bun);
	CHECK_INT(ci_rounds(&r, "store/gzip-6/miss", "npm"), 1);
	CHECK_INT(ci_rounds(&r, "none/lockfile-changed", "pnpm"), 1);
	CHECK_STR(pmbench_result_find_cell(&r, "proj", "ci-cache", "none",
					   "npm")
			  ->stopped_by,
		  "precision");
	pmbench_result_release(&r);
	h_run_release(&run);
}

/*
 * ci-cache under a budget its first rounds cannot fit: said before the
 * rounds with what would fit (a budget, fewer strategies or PMs), then
 * what was asked runs: every strategy's minimum hit rounds.
 */
TEST(ci_cache_minimum_that_cannot_fit)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	char out[4200];

	h_setup();
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	ci_budget(&run, "none,store", "2s", 100, out);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "the budget cannot hold the first rounds: "
				    "with 5 timed rounds of every group the "
				    "command needs about ");
	CHECK_CONTAINS(run.out.ptr, "what would fit: --budget ");
	CHECK_INT(pmbench_result_read(&r, out), 0);
	CHECK_INT(ci_rounds(&r, "none", "pnpm"),
		  PMBENCH_SCHEDULE_BUDGET_MIN_RUNS);
	CHECK_INT(ci_rounds(&r, "store/gzip-6", "bun"),
		  PMBENCH_SCHEDULE_BUDGET_MIN_RUNS);
	pmbench_result_release(&r);
	h_run_release(&run);
}

/*
 * migrate's estimate is worded as what runs (issue 33 saw "1 group of 18
 * runs" and three groups ran): its default scenarios to two PMs, "2
 * groups: clean 5 rounds of ..., cache+lockfile 5 rounds of ...", each
 * group then in the result with at least its 5 rounds and no other
 * timed group; the estimate within ±15 % of the wall time (timing).
 * npm sleeps 100 ms under a budget of 12 s (it was 300 ms and 30 s).
 */
TEST(migrate_says_what_runs)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	const cJSON *c, *smp;
	cJSON *rep;
	struct h_run run;
	const char *proj;
	char report[4200];
	double est, wall;
	uint64_t t0;
	size_t groups = 0;

	h_setup();
	proj = h_project("proj");
	snprintf(report, sizeof(report), "%s", h_write("migrate.json", ""));
	noisy_env(&env, 100);
	t0 = pmbench_now_ns();
	{
		const char *args[] = { "migrate",  proj,     "--to",
				       "pnpm,bun", "--from", "npm",
				       "--budget", "12s",    "--max-runs",
				       "200",	   "--out",  report,
				       NULL };

		h_pmbench(&run, args, &env);
	}
	wall = (double)(pmbench_now_ns() - t0) / 1e9;
	CHECK_INT(run.exit_code, 0);
	est = estimate_of(run.out.ptr, "estimate: about ");
	fprintf(stderr, "estimate %.0f s, wall %.1f s\n", est, wall);
	CHECK_CONTAINS(run.out.ptr, "2 groups: clean 5 rounds of ");
	CHECK_CONTAINS(run.out.ptr, ", cache+lockfile 5 rounds of ");
	rep = h_read_json(report);
	cJSON_ArrayForEach(
		c, cJSON_GetObjectItemCaseSensitive(
			   cJSON_GetObjectItemCaseSensitive(rep, "result"),
			   "cells"))
	{
		const char *sc = h_str(c, "scenario");
		size_t n = 0;

		cJSON_ArrayForEach(
			smp, cJSON_GetObjectItemCaseSensitive(c, "samples"))
			n += !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
				smp, "warmup"));
		if (strcmp(h_str(c, "pm"), "npm") || !n)
			continue;
		CHECK(!strcmp(sc, "clean") || !strcmp(sc, "cache+lockfile"));
		CHECK(n >= PMBENCH_SCHEDULE_BUDGET_MIN_RUNS);
		groups++;
	}
	CHECK_INT(groups, 2);
	CHECK(est >= 0.85 * wall && est <= 1.15 * wall);
	cJSON_Delete(rep);
	pmbench_strvec_release(&env);
	h_run_release(&run);
}

/* Where `needle` first is in `hay`, or past its end when it is not. */
static size_t where(const char *hay, const char *needle)
{
	const char *at = strstr(hay, needle);

	return at ? (size_t)(at - hay) : strlen(hay) + 1;
}

/*
 * The trash filling up, in a bench of two groups: each fake install
 * writes 64 MiB, the trash's limit is forced down to 1,216 MiB
 * (PMBENCH_TEST_TRASH_LIMIT), so the warm-ups and clean's 5 rounds fit
 * (896 MiB), and lockfile's 5 rounds more (1,536 MiB) do not: the limit
 * midway, as what a turn leaves is measured from the file system's free
 * space, which the other tests' writes and deletions move too (with 32
 * MiB and a limit 68 MiB from one side the estimate saw 267 MB rounds
 * beside a copy, 2026-12-06). The estimate before the first timed
 * run names the one emptying and the group it precedes; the trash is
 * emptied there, after clean's last timed run and before lockfile's
 * first, and no reset within the rounds had to empty it. Both trash
 * cases start once no pmbench deleter runs (h_quiet_disk()).
 */
TEST(trash_emptied_between_groups)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const char *proj;
	char out[4200];
	size_t at;

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	pmbench_strvec_push(&env, "FAKEPM_NPM_TIMELINE=write:65536:0");
	pmbench_strvec_push(&env, "FAKEPM_BUN_TIMELINE=write:65536:0");
	CHECK_INT(h_quiet_disk(300), 0);
	pmbench_strvec_pushf(&env, "%s=%llu", PMBENCH_FS_TRASH_LIMIT_ENV,
			     1216ull << 20);
	pmbench_strvec_pushf(&env, "%s=0", PMBENCH_FS_REUSE_DELAY_ENV);
	{
		const char *args[] = { "bench",
				       "--pm",
				       "npm,bun",
				       "--scenario",
				       "clean,lockfile",
				       "--budget",
				       "30s",
				       "--max-runs",
				       "5",
				       "--no-control",
				       "--out",
				       out,
				       proj,
				       NULL };

		h_pmbench(&run, args, &env);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "±10 %, and one emptying of the trash (");
	CHECK_CONTAINS(run.out.ptr, " files) before lockfile: about ");
	at = where(run.out.ptr, "emptying the trash before lockfile's rounds");
	CHECK(at < strlen(run.out.ptr));
	CHECK(where(run.out.ptr, "proj clean npm run 5/") < at);
	CHECK(where(run.out.ptr, "proj clean bun run 5/") < at);
	CHECK(at < where(run.out.ptr, "proj lockfile npm run 1/"));
	CHECK(at < where(run.out.ptr, "proj lockfile bun run 1/"));
	CHECK_INT(pmbench_result_read(&r, out), 0);
	CHECK_CONTAINS(pmbench_result_env_get(&r,
					      "trash_emptied_between_groups"),
		       "1 time, ");
	CHECK(!pmbench_result_env_get(&r, "trash_emptied_between_runs"));
	pmbench_result_release(&r);
	pmbench_strvec_release(&env);
	h_run_release(&run);
}

/*
 * ci-cache's trash, as bench's (trash_emptied_between_groups): its jobs
 * leave 64 MiB installs and archives in it, under a limit that the
 * first jobs and one strategy's rounds fit and the whole command does
 * not. The trash is emptied before a strategy's rounds, outside the
 * timed jobs (an event, and the result says so), never by a job's reset
 * (trash_emptied_between_runs, which ci-cache now writes as bench does;
 * without the plan a reset emptied it within the rounds), and the
 * estimate foresees it. Apart and serial, as the bench case: what a
 * job leaves is read from the file system's free space.
 */
#define CI_TRASH_LIMIT_MIB 1216ull

TEST(ci_cache_trash_emptied_before_a_strategy)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const char *proj;
	char out[4200];
	const char *v;

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	pmbench_strvec_push(&env, "FAKEPM_NPM_TIMELINE=write:65536:0");
	pmbench_strvec_push(&env, "FAKEPM_BUN_TIMELINE=write:65536:0");
	CHECK_INT(h_quiet_disk(300), 0);
	pmbench_strvec_pushf(&env, "%s=%llu", PMBENCH_FS_TRASH_LIMIT_ENV,
			     CI_TRASH_LIMIT_MIB << 20);
	pmbench_strvec_pushf(&env, "%s=0", PMBENCH_FS_REUSE_DELAY_ENV);
	{
		const char *args[] = {
			"ci-cache",   "--pm",	    "npm,bun",
			"--strategy", "none,store", "--compression",
			"gzip",	      "--budget",   "30s",
			"--max-runs", "5",	    "--out",
			out,	      proj,	    NULL
		};

		h_pmbench(&run, args, &env);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "emptying of the trash (");
	CHECK_CONTAINS(run.out.ptr, "emptying the trash before ");
	CHECK_INT(pmbench_result_read(&r, out), 0);
	v = pmbench_result_env_get(&r, "trash_emptied_between_groups");
	CHECK(v && strstr(v, " files, outside the timed jobs"));
	CHECK(!pmbench_result_env_get(&r, "trash_emptied_between_runs"));
	fprintf(stderr, "between groups: %s\n", v ? v : "(none)");
	/* Every strategy still ran its minimum. */
	CHECK_INT(ci_rounds(&r, "none", "bun"),
		  PMBENCH_SCHEDULE_BUDGET_MIN_RUNS);
	CHECK_INT(ci_rounds(&r, "store/gzip-6", "npm"),
		  PMBENCH_SCHEDULE_BUDGET_MIN_RUNS);
	pmbench_result_release(&r);
	pmbench_strvec_release(&env);
	h_run_release(&run);
}

CHECK_MAIN(CASE(budget_goes_to_the_noisy_cell), CASE(fixed_runs_keep_the_plan),
	   CASE(baseline_must_be_benchmarked), CASE(budget_then_explain),
	   CASE(estimate_holds), CASE(estimate_from_earlier_results),
	   CASE(minimum_that_cannot_fit), CASE(trash_emptied_between_groups),
	   CASE(migrate_spends_the_budget), CASE(ci_cache_spends_the_budget),
	   CASE(ci_cache_trash_emptied_before_a_strategy),
	   CASE(ci_cache_minimum_that_cannot_fit), CASE(migrate_says_what_runs))
