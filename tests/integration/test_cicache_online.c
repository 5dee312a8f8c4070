/*
 * ci-cache end to end with the real npm and bun (pinned toolchain) and
 * the npm registry on the embedded todo-api fixture, strategies none and
 * store. npm's case compares no times: it runs with the other real PMs'
 * tests (label online, early in ci/test.sh). bun's compares one
 * generous ratio: it runs as integration_cicache_online_timing (label
 * timing), beside nothing.
 */
#include "pmbench/common.h"

#include <stdlib.h>

#include "check.h"
#include "harness.h"
#include "pmbench/result.h"
#include "pmbench/stats.h"

static double median_metric(const struct pmbench_cell *c, const char *name)
{
	size_t n;
	double *v = pmbench_cell_metric_values(c, name, &n), m;

	if (!n) {
		free(v);
		return -1;
	}
	m = pmbench_stats_median(v, n);
	free(v);
	return m;
}

/* ci-cache of the real `pm`, strategies none and store, 2 runs each. */
static void run_ci_cache(int *ok, struct pmbench_result *r, const char *pm)
{
	struct h_run run;
	char out[4200];

	*ok = 0;
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	{
		const char *args[] = { "ci-cache",
				       "todo-api",
				       "--pm",
				       pm,
				       "--strategy",
				       "none,store",
				       "--compression",
				       "zstd",
				       "--runs",
				       "2",
				       "--timeout",
				       "5m",
				       "--out",
				       out,
				       NULL };

		h_pmbench(&run, args, NULL);
	}
	fprintf(stderr, "%s\n", run.out.ptr);
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	CHECK_INT(pmbench_result_read(r, out), 0);
	*ok = 1;
}

/*
 * `pm`'s cells: every job succeeded, 2 runs each, the store hit restored
 * node_modules from an archive smaller than what it holds; the median
 * installs of the hit and of none in `hit_s` and `none_s`.
 */
static void check_cells(int *ok, const struct pmbench_result *r, const char *pm,
			double *hit_s, double *none_s)
{
	const struct pmbench_cell *none =
		pmbench_result_find_cell(r, "todo-api", "ci-cache", "none", pm);
	const struct pmbench_cell *hit = pmbench_result_find_cell(
		r, "todo-api", "ci-cache", "store/zstd-3", pm);

	*ok = 0;
	CHECK(none && hit);
	CHECK_INT(pmbench_cell_failures(none), 0);
	CHECK_INT(pmbench_cell_failures(hit), 0);
	CHECK_INT(none->samples_nr, 2);
	CHECK_INT(hit->samples_nr, 2);
	CHECK(hit->samples[0].nm_files > 100);
	CHECK(median_metric(hit, "archive_bytes") > 100000);
	CHECK(median_metric(hit, "raw_bytes") >
	      median_metric(hit, "archive_bytes"));
	*hit_s = median_metric(hit, "install_s");
	*none_s = median_metric(none, "install_s");
	CHECK(*hit_s > 0 && *none_s > 0);
	*ok = 1;
}

/*
 * ci-cache of the real `pm` on a HOME the run must leave intact, its
 * cells checked; the median installs of the hit and of none in `hit_s`
 * and `none_s`.
 */
static void ci_cache_case(int *ok, const char *pm, double *hit_s,
			  double *none_s)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf why = PMBENCH_BUF_INIT;

	*ok = 0;
	h_setup();
	h_real_pms();
	h_home_markers();
	H_CHECK_CALL(run_ci_cache, &r, pm);
	H_CHECK_CALL(check_cells, &r, pm, hit_s, none_s);
	H_CHECK_HOME_INTACT(&why);
	pmbench_buf_release(&why);
	pmbench_result_release(&r);
	*ok = 1;
}

/*
 * npm ci's cells. Its times are not compared: on a fast registry link
 * its warm-cache install is within noise of the cache-less one
 * (measured: 4.7 s against 3.6 s).
 */
TEST(real_npm_none_and_store)
{
	double hit_s, none_s;

	H_CHECK_CALL(ci_cache_case, "npm", &hit_s, &none_s);
}

/*
 * bun with a warm cache barely touches the network: its store-hit
 * install beats the cache-less one (a generous ratio: just faster).
 */
TEST(real_bun_none_and_store)
{
	double hit_s, none_s;

	H_CHECK_CALL(ci_cache_case, "bun", &hit_s, &none_s);
	if (!(hit_s < none_s))
		check_fail(__FILE__, __LINE__,
			   "bun: store-hit install %.3f s not faster than "
			   "none %.3f s",
			   hit_s, none_s);
}

CHECK_MAIN(CASE(real_npm_none_and_store), CASE(real_bun_none_and_store))
