/*
 * A fake PM that sleeps 20 times longer than another gives a measured
 * ratio of medians near 20. Only ratios are asserted, never absolute
 * times: the machine is shared and noisy.
 */
#include "pmbench/common.h"

#include "check.h"
#include "harness.h"
#include "pmbench/result.h"
#include "pmbench/stats.h"

static double median_of(const struct pmbench_result *r, const char *pm)
{
	const struct pmbench_cell *c =
		pmbench_result_find_cell(r, "proj", "install", "clean", pm);
	size_t n = 0;
	double *t, m;

	if (!c)
		return -1;
	t = pmbench_cell_times(c, &n);
	m = n ? pmbench_stats_median(t, n) : -1;
	free(t);
	return m;
}

TEST(twenty_times_slower_measures_near_twenty)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const char *proj;
	char out[4200];
	double fast, slow, ratio;

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	pmbench_strvec_push(&env, "FAKEPM_NPM_SLEEP_MS=100");
	pmbench_strvec_push(&env, "FAKEPM_BUN_SLEEP_MS=2000");
	{
		const char *args[] = { "bench",	     "--pm",	 "npm,bun",
				       "--scenario", "clean",	 "--runs",
				       "3",	     "--warmup", "0",
				       "--out",	     out,	 proj,
				       NULL };

		h_pmbench(&run, args, &env);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	fast = median_of(&r, "npm");
	slow = median_of(&r, "bun");
	CHECK(fast > 0 && slow > 0);
	ratio = slow / fast;
	/*
	 * The fixed cost of starting a process adds to both, so the ratio
	 * sits a little under 20; a broken clock or a missed exit would
	 * land far outside.
	 */
	fprintf(stderr, "measured ratio %.2f (%.4f s / %.4f s)\n", ratio, slow,
		fast);
	CHECK(ratio > 15.0 && ratio < 21.0);
	/* The table reports the same factor. */
	CHECK_CONTAINS(run.out.ptr, "vs fastest");
	pmbench_strvec_release(&env);
	pmbench_result_release(&r);
	h_run_release(&run);
}

CHECK_MAIN(CASE(twenty_times_slower_measures_near_twenty))
