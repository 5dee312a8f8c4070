/*
 * The statistics of a result, computed once for every report: per cell
 * the median with its bootstrap interval, mean and standard deviation,
 * range, outliers and resource means, and per scenario every PM against
 * the fastest (ratio of medians with its interval, Mann-Whitney,
 * verdict). Deterministic given the result's seed.
 */
#include "pmbench/common.h"

#include <math.h>

#include "pmbench/bench.h"
#include "pmbench/merge.h"
#include "pmbench/report.h"
#include "pmbench/scenario.h"

/*
 * The median's interval: a merged cell whose runs come from several
 * machines resamples the machines first (merge.h), so that a slow one
 * widens the interval instead of hiding in the pool.
 */
static int median_ci(struct pmbench_interval *out, const struct pmbench_cell *c,
		     const double *t, size_t n, struct pmbench_rng *rng)
{
	size_t nm, distinct;
	unsigned *m = pmbench_cell_machines(c, &nm, &distinct);
	int ret;

	if (distinct >= 2 && nm == n)
		ret = pmbench_stats_bootstrap_median_blocks(
			out, NULL, t, m, n, PMBENCH_REPORT_LEVEL,
			PMBENCH_REPORT_RESAMPLES, rng);
	else
		ret = pmbench_stats_bootstrap_median(out, t, n,
						     PMBENCH_REPORT_LEVEL,
						     PMBENCH_REPORT_RESAMPLES,
						     rng);
	free(m);
	return ret;
}

/* Is `x` far enough from the median to matter? */
static int far(const struct pmbench_report_cell *rc, double x)
{
	double d = fabs(x - rc->wall.median);

	return d > PMBENCH_REPORT_OUTLIER_FAR * rc->wall.median &&
	       d > PMBENCH_REPORT_TIMER_RES_S;
}

/* The outliers that matter, and whether the first run is one of them. */
static void count_far(struct pmbench_report_cell *rc)
{
	unsigned char *flags;

	if (!rc->n)
		return;
	flags = pmbench_xcalloc(rc->n, 1);
	pmbench_stats_outliers(flags, rc->times, rc->n,
			       PMBENCH_REPORT_OUTLIER_Z);
	for (size_t i = 0; i < rc->n; i++)
		rc->outliers_far += flags[i] && far(rc, rc->times[i]);
	rc->slow_first = rc->n >= 3 && flags[0] && far(rc, rc->times[0]) &&
			 rc->times[0] > rc->wall.median;
	free(flags);
}

static void fill_cell(struct pmbench_report_cell *rc,
		      const struct pmbench_cell *c, uint64_t seed)
{
	struct pmbench_rng rng;

	memset(rc, 0, sizeof(*rc));
	rc->cell = c;
	rc->fastest = -1;
	if (pmbench_scenario_parse(&rc->state, c->scenario) < 0) {
		pmbench_error_clear();
		rc->state = 0;
	}
	rc->times = pmbench_cell_times(c, &rc->n);
	rc->failed = pmbench_cell_failures(c);
	rc->interrupted = pmbench_cell_interrupted(c);
	pmbench_stats_summary(&rc->wall, rc->times, rc->n);
	pmbench_rng_seed(&rng, seed);
	if (rc->n && !median_ci(&rc->median_ci, c, rc->times, rc->n, &rng))
		rc->has_ci = 1;
	rc->outliers = pmbench_stats_outliers(NULL, rc->times, rc->n,
					      PMBENCH_REPORT_OUTLIER_Z);
	count_far(rc);
	for (size_t i = 0; i < c->samples_nr; i++) {
		const struct pmbench_sample *s = &c->samples[i];

		if (s->warmup || !s->ok)
			continue;
		rc->user += (double)s->user_ns / 1e9;
		rc->sys += (double)s->sys_ns / 1e9;
		rc->max_rss += (double)s->max_rss_kib;
		if (s->max_rss_floor_kib &&
		    s->max_rss_kib <= s->max_rss_floor_kib)
			rc->max_rss_at_floor++;
		rc->tree_rss += (double)s->tree_rss_kib;
		rc->no_nm |= s->no_node_modules;
		rc->nm_bytes += (double)s->nm_bytes;
		rc->nm_files += (double)s->nm_files;
	}
	if (rc->n) {
		double n = (double)rc->n;

		rc->user /= n;
		rc->sys /= n;
		rc->max_rss /= n;
		rc->tree_rss /= n;
		rc->nm_bytes /= n;
		rc->nm_files /= n;
	}
}

int pmbench_report_same_group(const struct pmbench_report *rep, size_t i,
			      size_t j)
{
	const struct pmbench_cell *a = rep->cells[i].cell;
	const struct pmbench_cell *b = rep->cells[j].cell;

	return !strcmp(a->fixture, b->fixture) && !strcmp(a->task, b->task) &&
	       !strcmp(a->scenario, b->scenario);
}

int pmbench_report_group_start(const struct pmbench_report *rep, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (pmbench_report_same_group(rep, i, j))
			return 0;
	return 1;
}

void pmbench_report_init(struct pmbench_report *out,
			 const struct pmbench_result *r)
{
	out->result = r;
	out->cells_nr = r->cells_nr;
	out->cells = pmbench_xcalloc(r->cells_nr ? r->cells_nr : 1,
				     sizeof(*out->cells));
	for (size_t i = 0; i < r->cells_nr; i++)
		fill_cell(&out->cells[i], &r->cells[i], r->seed + i);

	/* The fastest of each scenario, then everyone against it. */
	for (size_t i = 0; i < out->cells_nr; i++) {
		long best = -1;

		if (!pmbench_report_group_start(out, i))
			continue;
		for (size_t j = i; j < out->cells_nr; j++) {
			const struct pmbench_report_cell *c = &out->cells[j];

			if (!pmbench_report_same_group(out, i, j) || !c->n)
				continue;
			if (best < 0 ||
			    c->wall.median < out->cells[best].wall.median)
				best = (long)j;
		}
		for (size_t j = i; j < out->cells_nr; j++) {
			struct pmbench_report_cell *c = &out->cells[j];
			const struct pmbench_report_cell *f;
			struct pmbench_rng rng;

			if (!pmbench_report_same_group(out, i, j))
				continue;
			c->fastest = best;
			if (best < 0 || (long)j == best || !c->n)
				continue;
			f = &out->cells[best];
			pmbench_rng_seed(&rng, r->seed + j);
			if (!pmbench_stats_compare(&c->vs, c->times, c->n,
						   f->times, f->n,
						   PMBENCH_REPORT_LEVEL,
						   PMBENCH_REPORT_RESAMPLES,
						   PMBENCH_REPORT_ALPHA, &rng))
				c->has_vs = 1;
			else
				pmbench_error_clear();
		}
	}
}

void pmbench_report_release(struct pmbench_report *rep)
{
	for (size_t i = 0; i < rep->cells_nr; i++)
		free(rep->cells[i].times);
	free(rep->cells);
	rep->cells = NULL;
	rep->cells_nr = 0;
	rep->result = NULL;
}

const char *pmbench_report_first_failure(const struct pmbench_cell *c)
{
	if (c->prime_failure)
		return c->prime_failure;
	for (size_t i = 0; i < c->samples_nr; i++)
		if (!c->samples[i].warmup && !c->samples[i].ok &&
		    !c->samples[i].interrupted && c->samples[i].failure)
			return c->samples[i].failure;
	return "unknown";
}

const char *pmbench_report_no_times(const struct pmbench_report_cell *c)
{
	if (c->cell->prime_failure || c->failed)
		return "failed";
	return c->interrupted ? "interrupted" : "not run";
}

int pmbench_report_scripts_mixed(const struct pmbench_report *rep,
				 const char *fixture)
{
	int any_all = 0, any_not = 0;

	for (size_t i = 0; i < rep->cells_nr; i++) {
		const struct pmbench_cell *c = rep->cells[i].cell;

		if (strcmp(c->fixture, fixture) || !c->scripts ||
		    strstr(c->scripts, "no installed dependency"))
			continue;
		if (strstr(c->scripts, "runs every") ||
		    strstr(c->scripts, "runs dependency"))
			any_all = 1;
		else
			any_not = 1;
	}
	return any_all && any_not;
}
