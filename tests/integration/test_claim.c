/*
 * `pmbench claim` and `--runs auto` against fake package managers with
 * known sleeps: a true claim is reproduced, a false one is not, a noisy
 * one is inconclusive; auto stops for the reason it should. Only ratios
 * and states are asserted, never absolute times.
 */
#include "pmbench/common.h"

#include "check.h"
#include "harness.h"
#include "pmbench/result.h"

static void claim(struct h_run *out, const char *text, const char *proj,
		  const char *result, const char *runs,
		  const struct pmbench_strvec *env)
{
	const char *args[] = { "claim", text, proj, "--scenario", "clean",
			       "--runs", runs, "--warmup", "0",
			       "--tolerance", "20", "--out", result,
			       "--no-progress", NULL };

	h_pmbench(out, args, env);
	fprintf(stderr, "%s\n", out->out.ptr);
}

TEST(true_and_false_claims)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct h_run run;
	const char *proj;
	char result[4200];

	h_setup();
	proj = h_project("proj");
	snprintf(result, sizeof(result), "%s", h_write("claim.json", ""));
	/*
	 * About 4x, less a little for the process start-up both pay. Long
	 * sleeps and a 20 % tolerance keep a loaded machine's hiccups (tens
	 * of ms) from widening the interval past the band.
	 */
	pmbench_strvec_push(&env, "FAKEPM_NPM_SLEEP_MS=800");
	pmbench_strvec_push(&env, "FAKEPM_BUN_SLEEP_MS=200");
	claim(&run, "bun install is 4x faster than npm install", proj, result,
	      "8", &env);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "proj · clean (cache empty, lockfile "
				    "absent, node_modules absent)");
	CHECK_CONTAINS(run.out.ptr, "  reproduced: bun install is ");
	CHECK_CONTAINS(run.out.ptr, "verdict: reproduced in 1 of 1");
	h_run_release(&run);

	/* The same measurements refute 20x and "as fast as". */
	{
		const char *args[] = { "claim", "bun is 20x faster than npm",
				       "--from", result, NULL };

		h_pmbench(&run, args, NULL);
		CHECK_INT(run.exit_code, 3);
		CHECK_CONTAINS(run.out.ptr, "not reproduced: bun install is ");
		h_run_release(&run);
	}
	{
		const char *args[] = { "claim", "npm is as fast as bun",
				       "--from", result, NULL };

		h_pmbench(&run, args, NULL);
		CHECK_INT(run.exit_code, 3);
		CHECK_CONTAINS(run.out.ptr, ") slower than bun install");
		h_run_release(&run);
	}
	pmbench_strvec_release(&env);
}

TEST(noisy_claim_is_inconclusive)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct h_run run;
	const char *proj;
	char result[4200];

	h_setup();
	proj = h_project("proj");
	snprintf(result, sizeof(result), "%s", h_write("noisy.json", ""));
	/* Equal on average, but each run adds 0-400 ms at random. */
	pmbench_strvec_push(&env, "FAKEPM_NPM_SLEEP_MS=100");
	pmbench_strvec_push(&env, "FAKEPM_BUN_SLEEP_MS=100");
	pmbench_strvec_push(&env, "FAKEPM_NPM_JITTER_MS=400");
	pmbench_strvec_push(&env, "FAKEPM_BUN_JITTER_MS=400");
	pmbench_strvec_push(&env, "FAKEPM_SEED=3");
	claim(&run, "bun is as fast as npm", proj, result, "5", &env);
	CHECK_INT(run.exit_code, 4);
	CHECK_CONTAINS(run.out.ptr, "  inconclusive: bun install is ");
	CHECK_CONTAINS(run.out.ptr, "runs per PM would settle it");
	h_run_release(&run);
	pmbench_strvec_release(&env);
}

static void bench_auto(struct h_run *out, const char *proj,
		       const char *result, const char *const *extra,
		       const struct pmbench_strvec *env)
{
	const char *args[32] = { "bench", "--pm", "npm,bun", "--scenario",
				 "clean", "--runs", "auto", "--warmup", "0",
				 "--out", result, "--no-progress" };
	size_t n = 12;

	for (size_t i = 0; extra[i]; i++)
		args[n++] = extra[i];
	args[n++] = proj;
	args[n] = NULL;
	h_pmbench(out, args, env);
}

static size_t timed(const struct pmbench_cell *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->samples_nr; i++)
		n += !c->samples[i].warmup;
	return n;
}

TEST(runs_auto_stops_for_each_reason)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const char *proj;
	char result[4200];

	h_setup();
	proj = h_project("proj");
	snprintf(result, sizeof(result), "%s", h_write("auto.json", ""));

	/*
	 * Steady sleeps: precise after the minimum of five rounds. With five
	 * runs the median's interval spans about min to max, so a generous
	 * target (±30 % of 300 ms) leaves room for a loaded machine.
	 */
	pmbench_strvec_push(&env, "FAKEPM_NPM_SLEEP_MS=300");
	pmbench_strvec_push(&env, "FAKEPM_BUN_SLEEP_MS=300");
	{
		const char *extra[] = { "--target", "30", "--max-runs", "12",
					NULL };

		bench_auto(&run, proj, result, extra, &env);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "--runs auto stopped by: precision");
	h_run_release(&run);
	CHECK_INT(pmbench_result_read(&r, result), 0);
	CHECK_INT(r.runs_auto, 1);
	CHECK_INT(r.runs, 12);
	CHECK_INT(r.auto_min_runs, 5);
	CHECK_NEAR(r.auto_target, 0.3, 1e-12);
	CHECK_STR(r.cells[0].stopped_by, "precision");
	CHECK_STR(r.cells[1].stopped_by, "precision");
	CHECK_INT(timed(&r.cells[0]), 5);
	CHECK_INT(timed(&r.cells[1]), 5);
	pmbench_result_release(&r);

	/* Jitter of 0-300 ms on 20 ms never gets within 1 %: max runs. */
	pmbench_strvec_push(&env, "FAKEPM_NPM_SLEEP_MS=20");
	pmbench_strvec_push(&env, "FAKEPM_BUN_SLEEP_MS=20");
	pmbench_strvec_push(&env, "FAKEPM_NPM_JITTER_MS=300");
	{
		const char *extra[] = { "--target", "1", "--max-runs", "7",
					NULL };

		bench_auto(&run, proj, result, extra, &env);
	}
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	CHECK_INT(pmbench_result_read(&r, result), 0);
	CHECK_STR(r.cells[0].stopped_by, "max-runs");
	CHECK_INT(timed(&r.cells[0]), 7);
	CHECK_INT(timed(&r.cells[1]), 7);
	pmbench_result_release(&r);

	/* The same with a budget of 1 ms: it stops after the minimum. */
	{
		const char *extra[] = { "--target", "1", "--time-budget",
					"1ms", NULL };

		bench_auto(&run, proj, result, extra, &env);
	}
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	CHECK_INT(pmbench_result_read(&r, result), 0);
	CHECK_STR(r.cells[0].stopped_by, "time-budget");
	CHECK_INT(timed(&r.cells[0]), 5);
	pmbench_result_release(&r);

	/* Bad knobs are usage errors. */
	{
		const char *extra[] = { "--max-runs", "3", NULL };

		bench_auto(&run, proj, result, extra, &env);
		CHECK_INT(run.exit_code, 129);
		CHECK_CONTAINS(run.out.ptr, "'--max-runs' must be a whole "
					    "number from 5");
		h_run_release(&run);
	}
	pmbench_strvec_release(&env);
}

CHECK_MAIN(CASE(true_and_false_claims), CASE(noisy_claim_is_inconclusive),
	   CASE(runs_auto_stops_for_each_reason))
