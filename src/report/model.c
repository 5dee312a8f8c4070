/*
 * The statistics of a result, computed once for every report: per cell
 * the median with its bootstrap interval, mean and standard deviation,
 * range, outliers and resource means, and per scenario every PM against
 * the fastest (ratio of medians with its interval, Mann-Whitney,
 * verdict), the same ratio paired by round, every pair of PMs, the
 * drift control's drift and the resolver-stall rule. Deterministic given
 * the result's seed.
 */
#include "pmbench/common.h"

#include <math.h>

#include "pmbench/bench.h"
#include "pmbench/control.h"
#include "pmbench/merge.h"
#include "pmbench/report.h"
#include "pmbench/scenario.h"
#include "pmbench/schedule.h"

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
	for (size_t i = 0; i < rc->n; i++) {
		double d = fabs(rc->times[i] - rc->wall.median);

		if (!flags[i] || !far(rc, rc->times[i]))
			continue;
		rc->outliers_far++;
		if (d / rc->wall.median > rc->outlier_farthest)
			rc->outlier_farthest = d / rc->wall.median;
	}
	rc->slow_first = rc->n >= 3 && flags[0] && far(rc, rc->times[0]) &&
			 rc->times[0] > rc->wall.median;
	free(flags);
}

/* The result did not say it used a local registry: it may be live. */
static int maybe_live(const struct pmbench_result *r)
{
	const char *v = pmbench_result_env_get(r, "registry");

	return !v || strcmp(v, "local");
}

/* The control's times are in round order: last rounds over first. */
static void fill_drift(struct pmbench_report_cell *rc)
{
	size_t k = rc->n / 2;
	double first, last;

	if (!pmbench_control_is(rc->cell->pm) || rc->n < 2)
		return;
	first = pmbench_stats_median(rc->times, k);
	last = pmbench_stats_median(rc->times + rc->n - k, k);
	if (!(first > 0) || !(rc->wall.min > 0))
		return;
	rc->has_drift = 1;
	rc->drift = last / first;
	rc->drift_range = rc->wall.max / rc->wall.min;
}

/*
 * CPU time, memory and node_modules size of the measured (not warm-up,
 * not failed) samples, per measured run.
 */
static void resource_means(struct pmbench_report_cell *rc,
			   const struct pmbench_cell *c)
{
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

static void fill_cell(struct pmbench_report_cell *rc,
		      const struct pmbench_cell *c, uint64_t seed, int live)
{
	struct pmbench_rng rng;

	memset(rc, 0, sizeof(*rc));
	rc->cell = c;
	rc->fastest = -1;
	rc->baseline = -1;
	rc->base_reached = -1;
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
	resource_means(rc, c);
	if (live && !pmbench_control_is(c->pm))
		rc->stalls = pmbench_stats_stalls(
			rc->times, rc->n, PMBENCH_STATS_STALL_PERIOD,
			pmbench_stats_stall_slack(rc->wall.min),
			&rc->stall_kmax);
	fill_drift(rc);
	pmbench_report_phases(&rc->phases, c);
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

int pmbench_report_pair_rounds(double **out_a, double **out_b, size_t *out_n,
			       const struct pmbench_cell *a,
			       const struct pmbench_cell *b)
{
	return pmbench_cell_pair_rounds(out_a, out_b, out_n, a, b);
}

/* The paired ratio of cells a / b into *out; 1 if the rounds allow it. */
static int paired_ratio(struct pmbench_interval *out, size_t *out_n,
			const struct pmbench_cell *a,
			const struct pmbench_cell *b, uint64_t seed)
{
	int ok = pmbench_cell_paired_ratio(out, out_n, a, b,
					   PMBENCH_REPORT_LEVEL,
					   PMBENCH_REPORT_RESAMPLES, seed);

	if (ok < 0)
		pmbench_error_clear();
	return ok > 0;
}

/*
 * Cell j against the fastest f: the independent comparison, then the
 * paired one, which decides the verdict when there are rounds enough.
 */
static void against_fastest(struct pmbench_report *rep, size_t j, size_t f)
{
	struct pmbench_report_cell *c = &rep->cells[j];
	const struct pmbench_report_cell *fc = &rep->cells[f];
	uint64_t seed = rep->result->seed + j;
	struct pmbench_rng rng;

	pmbench_rng_seed(&rng, seed);
	if (!pmbench_stats_compare(&c->vs, c->times, c->n, fc->times, fc->n,
				   PMBENCH_REPORT_LEVEL,
				   PMBENCH_REPORT_RESAMPLES,
				   PMBENCH_REPORT_ALPHA, &rng))
		c->has_vs = 1;
	else
		pmbench_error_clear();
	if (!c->has_vs)
		return;
	c->has_paired =
		paired_ratio(&c->paired, &c->paired_n, c->cell, fc->cell, seed);
	if (!c->has_paired || c->paired_n < PMBENCH_REPORT_PAIRED_MIN_ROUNDS)
		return;
	c->verdict_paired = 1;
	if (c->paired.hi < 1)
		c->vs.verdict = PMBENCH_VERDICT_FASTER;
	else if (c->paired.lo > 1)
		c->vs.verdict = PMBENCH_VERDICT_SLOWER;
	else
		c->vs.verdict = PMBENCH_VERDICT_SAME;
}

/* Cell j against the baseline's cell b: the paired ratio and verdict. */
static void against_baseline(struct pmbench_report *rep, size_t j, size_t b)
{
	struct pmbench_report_cell *c = &rep->cells[j];

	c->baseline = (long)b;
	c->is_baseline = j == b;
	if (j == b || !c->n)
		return;
	c->has_base = paired_ratio(&c->base, &c->base_n, c->cell,
				   rep->cells[b].cell, rep->result->seed + j);
	if (!c->has_base)
		return;
	c->base_half = c->base.point > 0
			       ? (c->base.hi - c->base.lo) / 2 / c->base.point
			       : 0;
	if (rep->result->runs_auto && rep->result->auto_target > 0)
		c->base_reached = c->base_half <= rep->result->auto_target;
	c->base_verdict = PMBENCH_VERDICT_SAME;
	if (c->base_n < PMBENCH_REPORT_PAIRED_MIN_ROUNDS)
		return;
	if (c->base.hi < 1)
		c->base_verdict = PMBENCH_VERDICT_FASTER;
	else if (c->base.lo > 1)
		c->base_verdict = PMBENCH_VERDICT_SLOWER;
}

const char *pmbench_report_base_verdict(const struct pmbench_report_cell *c,
					double margin)
{
	if (!c->has_base)
		return NULL;
	if (c->base_n < PMBENCH_REPORT_PAIRED_MIN_ROUNDS)
		return "too few rounds";
	if (c->base_verdict == PMBENCH_VERDICT_FASTER)
		return "faster";
	if (c->base_verdict == PMBENCH_VERDICT_SLOWER)
		return "slower";
	if (pmbench_schedule_decided(c->base.lo, c->base.hi, margin))
		return "the same";
	return "open";
}

/*
 * A cell that takes part in ratios: a PM (or a baseline) with times,
 * not one that failed its offline proof (not warm: no warm time to
 * rank; its median stays, marked, pmbench_report_cell_notes() says why).
 */
static int in_ratios(const struct pmbench_report_cell *c)
{
	return c->n && !pmbench_control_is(c->cell->pm) &&
	       c->cell->proof != PMBENCH_PROOF_FAIL;
}

/* The baseline's cell of the scenario starting at g, or -1. */
static long baseline_of(const struct pmbench_report *rep, size_t g)
{
	const char *name = rep->result->baseline;

	for (size_t j = g; name && j < rep->cells_nr; j++)
		if (pmbench_report_same_group(rep, g, j) &&
		    !strcmp(rep->cells[j].cell->pm, name) &&
		    in_ratios(&rep->cells[j]))
			return (long)j;
	return -1;
}

/* Every pair of cells of the scenario starting at g. */
static void pairs_of(struct pmbench_report *rep, size_t g)
{
	const struct pmbench_result *r = rep->result;

	for (size_t i = g; i < rep->cells_nr; i++) {
		for (size_t j = i + 1; j < rep->cells_nr; j++) {
			const struct pmbench_report_cell *a = &rep->cells[i];
			const struct pmbench_report_cell *b = &rep->cells[j];
			struct pmbench_report_pm_pair *p;
			struct pmbench_rng rng;
			uint64_t seed = r->seed + i * r->cells_nr + j;

			if (!pmbench_report_same_group(rep, g, i) ||
			    !pmbench_report_same_group(rep, g, j) ||
			    !in_ratios(a) || !in_ratios(b))
				continue;
			PMBENCH_ALLOC_GROW(rep->pairs, rep->pairs_nr + 1,
					   rep->pairs_alloc);
			p = &rep->pairs[rep->pairs_nr];
			memset(p, 0, sizeof(*p));
			p->a = i;
			p->b = j;
			pmbench_rng_seed(&rng, seed);
			if (pmbench_stats_bootstrap_ratio(
				    &p->ratio, a->times, a->n, b->times, b->n,
				    PMBENCH_REPORT_LEVEL,
				    PMBENCH_REPORT_RESAMPLES, &rng) < 0) {
				pmbench_error_clear();
				continue;
			}
			p->has_paired = paired_ratio(&p->paired, &p->rounds,
						     a->cell, b->cell, seed);
			rep->pairs_nr++;
		}
	}
}

/* The cell of the group starting at g with the lowest median, or -1. */
static long fastest_of(const struct pmbench_report *rep, size_t g)
{
	long best = -1;

	for (size_t j = g; j < rep->cells_nr; j++) {
		const struct pmbench_report_cell *c = &rep->cells[j];

		if (!pmbench_report_same_group(rep, g, j) || !in_ratios(c))
			continue;
		if (best < 0 || c->wall.median < rep->cells[best].wall.median)
			best = (long)j;
	}
	return best;
}

void pmbench_report_init(struct pmbench_report *out,
			 const struct pmbench_result *r)
{
	int live = maybe_live(r);

	out->result = r;
	out->cells_nr = r->cells_nr;
	out->cells = pmbench_xcalloc(r->cells_nr ? r->cells_nr : 1,
				     sizeof(*out->cells));
	out->pairs = NULL;
	out->pairs_nr = out->pairs_alloc = 0;
	for (size_t i = 0; i < r->cells_nr; i++)
		fill_cell(&out->cells[i], &r->cells[i], r->seed + i, live);

	/*
	 * The fastest of each scenario, then everyone against it. The
	 * drift control is no PM: never the fastest, never compared.
	 */
	for (size_t i = 0; i < out->cells_nr; i++) {
		long best, base;

		if (!pmbench_report_group_start(out, i))
			continue;
		best = fastest_of(out, i);
		for (size_t j = i; j < out->cells_nr; j++) {
			struct pmbench_report_cell *c = &out->cells[j];

			if (!pmbench_report_same_group(out, i, j) ||
			    pmbench_control_is(c->cell->pm))
				continue;
			c->fastest = best;
			if (best < 0 || (long)j == best || !in_ratios(c))
				continue;
			against_fastest(out, j, (size_t)best);
		}
		pairs_of(out, i);
		base = baseline_of(out, i);
		for (size_t j = i; j < out->cells_nr; j++) {
			if (!pmbench_report_same_group(out, i, j) ||
			    !in_ratios(&out->cells[j]))
				continue;
			if (base >= 0)
				against_baseline(out, j, (size_t)base);
		}
	}
}

void pmbench_report_release(struct pmbench_report *rep)
{
	for (size_t i = 0; i < rep->cells_nr; i++)
		free(rep->cells[i].times);
	free(rep->cells);
	free(rep->pairs);
	rep->cells = NULL;
	rep->cells_nr = 0;
	rep->pairs = NULL;
	rep->pairs_nr = rep->pairs_alloc = 0;
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
	/* A PM without the task's mode (resolve: yarn 1): no time. */
	if (c->cell->state == PMBENCH_CELL_UNSUPPORTED)
		return "n/a";
	if (pmbench_cell_wrong_state(c->cell))
		return "not the state asked";
	return c->interrupted ? "interrupted" : "not run";
}

int pmbench_report_scripts_mixed(const struct pmbench_report *rep,
				 const char *fixture)
{
	int any_all = 0, any_not = 0;

	for (size_t i = 0; i < rep->cells_nr; i++) {
		const struct pmbench_cell *c = rep->cells[i].cell;

		/* Told --scripts none or all: like for like, checked. */
		if (strcmp(c->fixture, fixture) || !c->scripts ||
		    c->scripts_choice ||
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
