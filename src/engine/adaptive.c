#include "pmbench/common.h"

#include "pmbench/adaptive.h"
#include "pmbench/result.h"
#include "pmbench/stats.h"

#define RESAMPLES 2000

enum pmbench_adaptive_stop
pmbench_adaptive_check(const struct pmbench_adaptive_opts *o,
		       const double *const *times, const size_t *n,
		       size_t cells, unsigned rounds, uint64_t elapsed_ns,
		       double *out_worst)
{
	double worst = 0;
	int any = 0, precise = 1;

	if (out_worst)
		*out_worst = 0;
	if (rounds < o->min_runs)
		return PMBENCH_ADAPTIVE_CONTINUE;
	for (size_t i = 0; i < cells; i++) {
		struct pmbench_interval iv;
		struct pmbench_rng rng;
		double half;

		if (!n[i])
			continue;
		any = 1;
		if (n[i] < 3) {
			precise = 0;
			continue;
		}
		/* The same seed for every cell and round: reproducible. */
		pmbench_rng_seed(&rng, o->seed);
		if (pmbench_stats_bootstrap_median(&iv, times[i], n[i], 0.95,
						   RESAMPLES, &rng) < 0 ||
		    !(iv.point > 0)) {
			precise = 0;
			continue;
		}
		half = (iv.hi - iv.lo) / 2 / iv.point;
		if (half > worst)
			worst = half;
		if (half > o->target)
			precise = 0;
	}
	if (out_worst)
		*out_worst = worst;
	if (!any)
		return PMBENCH_ADAPTIVE_FAILURES;
	if (precise)
		return PMBENCH_ADAPTIVE_PRECISION;
	if (rounds >= o->max_runs)
		return PMBENCH_ADAPTIVE_MAX_RUNS;
	if (elapsed_ns >= o->budget_ns)
		return PMBENCH_ADAPTIVE_TIME_BUDGET;
	return PMBENCH_ADAPTIVE_CONTINUE;
}

const char *pmbench_adaptive_name(enum pmbench_adaptive_stop stop)
{
	switch (stop) {
	case PMBENCH_ADAPTIVE_PRECISION:
		return "precision";
	case PMBENCH_ADAPTIVE_MAX_RUNS:
		return "max-runs";
	case PMBENCH_ADAPTIVE_TIME_BUDGET:
		return "time-budget";
	case PMBENCH_ADAPTIVE_FAILURES:
		return "failures";
	case PMBENCH_ADAPTIVE_CONTINUE:
		break;
	}
	return NULL;
}

static int in_scenario(const struct pmbench_cell *c, const char *fixture,
		       const char *task, const char *scenario)
{
	return !strcmp(c->fixture, fixture) && !strcmp(c->task, task) &&
	       !strcmp(c->scenario, scenario);
}

int pmbench_adaptive_scenario(struct pmbench_result *r,
			      const struct pmbench_adaptive_opts *o,
			      const char *fixture, const char *task,
			      const char *scenario, unsigned rounds,
			      uint64_t elapsed_ns)
{
	size_t cells = r->cells_nr ? r->cells_nr : 1, nr = 0;
	double **times = pmbench_xcalloc(cells, sizeof(*times));
	size_t *n = pmbench_xcalloc(cells, sizeof(*n));
	enum pmbench_adaptive_stop stop;
	const char *name;

	for (size_t i = 0; i < r->cells_nr; i++) {
		if (!in_scenario(&r->cells[i], fixture, task, scenario) ||
		    r->cells[i].prime_failure)
			continue;
		times[nr] = pmbench_cell_times(&r->cells[i], &n[nr]);
		nr++;
	}
	stop = pmbench_adaptive_check(o, (const double *const *)times, n, nr,
				      rounds, elapsed_ns, NULL);
	name = pmbench_adaptive_name(stop);
	for (size_t i = 0; name && i < r->cells_nr; i++) {
		if (!in_scenario(&r->cells[i], fixture, task, scenario))
			continue;
		free(r->cells[i].stopped_by);
		r->cells[i].stopped_by = pmbench_xstrdup(name);
	}
	for (size_t i = 0; i < nr; i++)
		free(times[i]);
	free(times);
	free(n);
	return name != NULL;
}
