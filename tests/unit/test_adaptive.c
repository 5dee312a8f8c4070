#include "pmbench/common.h"

#include "check.h"
#include "pmbench/adaptive.h"
#include "pmbench/result.h"

/*
 * The stopping rule of --runs auto on hand-made samples: which criterion
 * stops, in which order, and how the reason lands in the cells.
 */

static const double tight[] = { 1.00, 1.01, 0.99, 1.00, 1.02, 0.98 };
static const double loose[] = { 1.0, 2.0, 0.5, 1.5, 3.0, 0.8 };

static struct pmbench_adaptive_opts opts(void)
{
	struct pmbench_adaptive_opts o = PMBENCH_ADAPTIVE_OPTS_INIT;

	o.budget_ns = 1000;
	return o;
}

TEST(defaults)
{
	struct pmbench_adaptive_opts o = PMBENCH_ADAPTIVE_OPTS_INIT;

	CHECK_NEAR(o.target, 0.05, 0);
	CHECK_INT(o.min_runs, 5);
	CHECK_INT(o.max_runs, 30);
	CHECK(o.budget_ns == 600ull * 1000000000ull);
}

TEST(min_runs_first)
{
	struct pmbench_adaptive_opts o = opts();
	const double *x[] = { tight };
	size_t n[] = { 4 };
	double worst = -1;

	/* Even past the budget, fewer than min_runs rounds go on. */
	CHECK_INT(pmbench_adaptive_check(&o, x, n, 1, 4, 5000, &worst),
		  PMBENCH_ADAPTIVE_CONTINUE);
	CHECK(worst == 0);
}

TEST(precision)
{
	struct pmbench_adaptive_opts o = opts();
	const double *x[] = { tight, tight };
	size_t n[] = { 6, 6 };
	double worst = -1;

	/*
	 * Median 1.00; a resampled median of six values lies in [0.99,
	 * 1.01] nearly always, so the half-width is at most 0.015.
	 */
	CHECK_INT(pmbench_adaptive_check(&o, x, n, 2, 6, 0, &worst),
		  PMBENCH_ADAPTIVE_PRECISION);
	CHECK(worst > 0 && worst <= 0.02);
	/* A stricter target than the data allow: not precise. */
	o.target = 0.001;
	CHECK_INT(pmbench_adaptive_check(&o, x, n, 2, 6, 0, NULL),
		  PMBENCH_ADAPTIVE_CONTINUE);
}

TEST(one_loose_cell_keeps_going)
{
	struct pmbench_adaptive_opts o = opts();
	const double *x[] = { tight, loose };
	size_t n[] = { 6, 6 };
	double worst = 0;

	CHECK_INT(pmbench_adaptive_check(&o, x, n, 2, 6, 0, &worst),
		  PMBENCH_ADAPTIVE_CONTINUE);
	CHECK(worst > 0.05);
	/* Then max runs, then the time budget, in that order. */
	o.max_runs = 6;
	CHECK_INT(pmbench_adaptive_check(&o, x, n, 2, 6, 5000, NULL),
		  PMBENCH_ADAPTIVE_MAX_RUNS);
	o.max_runs = 30;
	CHECK_INT(pmbench_adaptive_check(&o, x, n, 2, 6, 1000, NULL),
		  PMBENCH_ADAPTIVE_TIME_BUDGET);
	CHECK_INT(pmbench_adaptive_check(&o, x, n, 2, 6, 999, NULL),
		  PMBENCH_ADAPTIVE_CONTINUE);
}

TEST(failed_cells)
{
	struct pmbench_adaptive_opts o = opts();
	const double *x[] = { tight, NULL };
	size_t n[] = { 6, 0 };
	size_t none[] = { 0, 0 };
	size_t two[] = { 2, 0 };

	/* A cell whose runs all fail does not block the others. */
	CHECK_INT(pmbench_adaptive_check(&o, x, n, 2, 6, 0, NULL),
		  PMBENCH_ADAPTIVE_PRECISION);
	CHECK_INT(pmbench_adaptive_check(&o, x, none, 2, 6, 0, NULL),
		  PMBENCH_ADAPTIVE_FAILURES);
	/* Two successes are too few to call precise. */
	CHECK_INT(pmbench_adaptive_check(&o, x, two, 2, 6, 0, NULL),
		  PMBENCH_ADAPTIVE_CONTINUE);
}

TEST(names)
{
	CHECK_STR(pmbench_adaptive_name(PMBENCH_ADAPTIVE_PRECISION),
		  "precision");
	CHECK_STR(pmbench_adaptive_name(PMBENCH_ADAPTIVE_MAX_RUNS),
		  "max-runs");
	CHECK_STR(pmbench_adaptive_name(PMBENCH_ADAPTIVE_TIME_BUDGET),
		  "time-budget");
	CHECK_STR(pmbench_adaptive_name(PMBENCH_ADAPTIVE_FAILURES),
		  "failures");
	CHECK(!pmbench_adaptive_name(PMBENCH_ADAPTIVE_CONTINUE));
}

static void add_times(struct pmbench_cell *c, const double *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct pmbench_sample *s = pmbench_cell_add_sample(c);

		s->round = (unsigned)i;
		s->ok = 1;
		s->wall_ns = (uint64_t)(t[i] * 1e9);
	}
}

TEST(scenario_records_reason)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_adaptive_opts o = opts();
	struct pmbench_cell *c;

	c = pmbench_result_add_cell(&r, "f", "install", "clean", "npm");
	add_times(c, tight, 6);
	c = pmbench_result_add_cell(&r, "f", "install", "clean", "bun");
	add_times(c, loose, 6);
	c = pmbench_result_add_cell(&r, "f", "install", "lockfile", "npm");
	add_times(c, tight, 6);

	CHECK_INT(pmbench_adaptive_scenario(&r, &o, "f", "install", "clean",
					    6, 0),
		  0);
	CHECK(!r.cells[0].stopped_by && !r.cells[1].stopped_by);
	CHECK_INT(pmbench_adaptive_scenario(&r, &o, "f", "install", "clean",
					    6, 2000),
		  1);
	CHECK_STR(r.cells[0].stopped_by, "time-budget");
	CHECK_STR(r.cells[1].stopped_by, "time-budget");
	CHECK(!r.cells[2].stopped_by);
	CHECK_INT(pmbench_adaptive_scenario(&r, &o, "f", "install",
					    "lockfile", 6, 0),
		  1);
	CHECK_STR(r.cells[2].stopped_by, "precision");

	/* The reason survives the JSON round trip. */
	{
		struct pmbench_result back = PMBENCH_RESULT_INIT;
		char *json;

		r.runs_auto = 1;
		r.auto_target = 0.05;
		r.auto_min_runs = 5;
		r.auto_budget_ns = 600ull * 1000000000ull;
		json = pmbench_result_to_json(&r);
		CHECK_INT(pmbench_result_from_json(&back, json, NULL), 0);
		free(json);
		CHECK_STR(back.cells[0].stopped_by, "time-budget");
		CHECK_STR(back.cells[2].stopped_by, "precision");
		CHECK_INT(back.runs_auto, 1);
		CHECK_NEAR(back.auto_target, 0.05, 0);
		CHECK_INT(back.auto_min_runs, 5);
		CHECK(back.auto_budget_ns == r.auto_budget_ns);
		pmbench_result_release(&back);
	}
	pmbench_result_release(&r);
}

CHECK_MAIN(CASE(defaults), CASE(min_runs_first), CASE(precision),
	   CASE(one_loose_cell_keeps_going), CASE(failed_cells), CASE(names),
	   CASE(scenario_records_reason))
