/*
 * The budget's prior (prior.h): this machine's earlier results, judged
 * for the estimate made before the first timed round (result/
 * prior_load.c reads them).
 */
#include "pmbench/common.h"

#include <math.h>

#include "pmbench/prior.h"
#include "pmbench/schedule.h"
#include "pmbench/stats.h"
#include "pmbench/trashplan.h"

/* Resamples of a prior's interval: a prediction, not a verdict. */
#define PRIOR_RESAMPLES 2000

/* The median last: the cells are left as it judges them. */
const int pmbench_prior_picks[PMBENCH_PRIOR_PICKS] = { -1, 1, 0 };

uint64_t pmbench_prior_expect(struct pmbench_prior *p,
			      const struct pmbench_prior_view *v, void *payload,
			      enum pmbench_prior_source *src,
			      struct pmbench_trash_pace *pace)
{
	double ns = 0, bytes = 0, files = 0;

	memset(pace, 0, sizeof(*pace));
	*src = PMBENCH_PRIOR_NONE;
	for (size_t k = 0; k < PMBENCH_PRIOR_PICKS; k++) {
		struct pmbench_trash_pace at;
		uint64_t n = UINT64_MAX;

		p->pick = pmbench_prior_picks[k];
		*src = v->judge(payload, p, &n);
		if (*src == PMBENCH_PRIOR_NONE)
			break;
		if (n == UINT64_MAX) {
			ns = -1;
			break;
		}
		at = v->pace(payload, n);
		ns += (double)n / PMBENCH_PRIOR_PICKS;
		bytes += (double)at.need.bytes / PMBENCH_PRIOR_PICKS;
		files += (double)at.need.files / PMBENCH_PRIOR_PICKS;
	}
	p->pick = 0;
	if (*src == PMBENCH_PRIOR_NONE || ns < 0)
		return UINT64_MAX;
	pace->ns = (uint64_t)ns;
	pace->need.bytes = (uint64_t)bytes;
	pace->need.files = (uint64_t)files;
	return pace->ns;
}

/* pmbench_prior_spread_of(), and the rounds it is from in `*rounds`. */
static double spread_rounds(double *point, size_t *rounds,
			    const struct pmbench_cell *c,
			    const struct pmbench_cell *b, uint64_t seed)
{
	struct pmbench_interval iv;
	size_t n = 0;
	int ret;

	if (!c || !b)
		return -1;
	ret = pmbench_cell_paired_ratio(&iv, &n, c, b, 0.95, PRIOR_RESAMPLES,
					seed);
	pmbench_error_clear();
	if (ret <= 0 || n < 3 || !(iv.lo > 0) || !(iv.hi >= iv.lo) ||
	    !(iv.point > 0))
		return -1;
	*point = iv.point;
	*rounds = n;
	return (log(iv.hi) - log(iv.lo)) / 2 * sqrt((double)n);
}

double pmbench_prior_spread_of(double *point, const struct pmbench_cell *c,
			       const struct pmbench_cell *b, uint64_t seed)
{
	size_t n;

	return spread_rounds(point, &n, c, b, seed);
}

/* A result's baseline: as it names it, else its first PM (ci-cache). */
static const char *baseline_of(const struct pmbench_result *r)
{
	if (r->baseline)
		return r->baseline;
	return r->pms.nr ? r->pms.v[0] : NULL;
}

/* The median spread over every pair of the results read, once. */
static void machine_spread(struct pmbench_prior *p)
{
	double *v = NULL;
	size_t nr = 0, alloc = 0;

	if (p->measured)
		return;
	p->measured = 1;
	for (size_t i = 0; i < p->nr; i++) {
		const struct pmbench_result *r = &p->results[i];
		const char *base = baseline_of(r);

		for (size_t k = 0; base && k < r->cells_nr; k++) {
			const struct pmbench_cell *c = &r->cells[k];
			double point, s;

			/* "(control)": the drift control, no PM. */
			if (!strcmp(c->pm, base) || c->pm[0] == '(')
				continue;
			s = pmbench_prior_spread_of(
				&point, c,
				pmbench_result_find_cell(r, c->fixture, c->task,
							 c->scenario, base),
				r->seed + k);
			if (s < 0)
				continue;
			PMBENCH_ALLOC_GROW(v, nr + 1, alloc);
			v[nr++] = s;
		}
	}
	p->pairs = nr;
	if (nr) {
		pmbench_stats_sort(v, nr);
		p->spread = pmbench_stats_median(v, nr);
		p->spread_lo = pmbench_stats_quantile(v, nr, 1.0 / 6);
		p->spread_hi = pmbench_stats_quantile(v, nr, 5.0 / 6);
	}
	free(v);
}

/* The median wall time of a cell's successful runs so far; 0: none. */
static double median_now(const struct pmbench_cell *c)
{
	double *v, m;
	size_t n = 0;

	if (!c || !c->samples_nr)
		return 0;
	v = pmbench_xcalloc(c->samples_nr, sizeof(*v));
	for (size_t i = 0; i < c->samples_nr; i++)
		if (c->samples[i].ok && c->samples[i].wall_ns)
			v[n++] = (double)c->samples[i].wall_ns;
	m = pmbench_stats_median(v, n);
	free(v);
	return m;
}

/*
 * The same pair in the newest PMBENCH_PRIOR_SAME_RESULTS results that
 * have it: the median of their spreads (one run's luck is not the
 * machine's; the lowest or the highest as `pick` asks), the newest
 * one's ratio in `point`, their rounds in all in `*rounds`; -1 when
 * none has it.
 */
static double same_pair(double *point, size_t *rounds, int pick,
			const struct pmbench_prior *p,
			const struct pmbench_cell *c,
			const struct pmbench_cell *b)
{
	double v[PMBENCH_PRIOR_SAME_RESULTS];
	size_t n = 0;

	*rounds = 0;
	for (size_t i = 0; i < p->nr && n < PMBENCH_ARRAY_SIZE(v); i++) {
		const struct pmbench_result *r = &p->results[i];
		const struct pmbench_cell *hc = pmbench_result_find_cell(
			r, c->fixture, c->task, c->scenario, c->pm);
		double s, pt;
		size_t k = 0;

		if (!hc)
			continue;
		s = spread_rounds(&pt, &k, hc,
				  pmbench_result_find_cell(r, b->fixture,
							   b->task, b->scenario,
							   b->pm),
				  r->seed + (size_t)(hc - r->cells));
		if (s < 0)
			continue;
		if (!n)
			*point = pt;
		v[n++] = s;
		*rounds += k;
	}
	if (!n)
		return -1;
	if (pick) {
		double e = v[0];

		for (size_t i = 1; i < n; i++)
			if (pick < 0 ? v[i] < e : v[i] > e)
				e = v[i];
		return e;
	}
	return pmbench_stats_median(v, n);
}

enum pmbench_prior_source pmbench_prior_judge(struct pmbench_schedule_cell *out,
					      double *most,
					      struct pmbench_prior *p,
					      const struct pmbench_cell *c,
					      const struct pmbench_cell *b,
					      unsigned rounds, double margin)
{
	enum pmbench_prior_source src = PMBENCH_PRIOR_SAME;
	double mc = median_now(c), mb = median_now(b);
	double point = 0, s, h, lo, hi, need;
	size_t from;

	out->excluded = !mc || !mb || c->prime_failure;
	if (out->excluded || out->baseline)
		return PMBENCH_PRIOR_SETTLED;
	s = same_pair(&point, &from, p->pick, p, c, b);
	if (s < 0) {
		machine_spread(p);
		src = PMBENCH_PRIOR_MACHINE;
		s = p->pick < 0	  ? p->spread_lo
		    : p->pick > 0 ? p->spread_hi
				  : p->spread;
		point = mc / mb;
	}
	if (s < 0) {
		out->half = -1;
		return PMBENCH_PRIOR_NONE;
	}
	h = s / sqrt((double)(rounds ? rounds : 1));
	lo = point * exp(-h);
	hi = point * exp(h);
	need = pmbench_schedule_verdict_need(point, lo, hi, rounds, margin);
	pmbench_schedule_keep(out, most, point, lo, hi, need);
	return src;
}

int pmbench_prior_judge_now(struct pmbench_schedule_cell *out, double *most,
			    struct pmbench_prior *p,
			    const struct pmbench_cell *c,
			    const struct pmbench_cell *b, unsigned rounds,
			    double margin, double target, uint64_t seed)
{
	struct pmbench_schedule_cell t = *out;
	double tm = -1, n = rounds ? rounds : 1, pt, sp, so, s, w, need;
	size_t from;
	int ret;

	t.half = -1;
	ret = pmbench_schedule_judge(&t, &tm, c, b, rounds, margin, seed);
	out->excluded = t.excluded;
	if (ret || t.baseline) {
		if (!t.excluded && t.half < 0)
			out->half = -1;
		return ret;
	}
	/*
	 * Settled by its own rounds (decided, within the target): the
	 * allocation runs it no more, whatever the earlier spread says.
	 * Before, migrate's estimate after its first rounds (2026-12-07
	 * 01:10) pooled settled ratios with wider earlier ones, said 4:11
	 * of further rounds, and none ran (+97 %).
	 */
	if (t.half >= 0 && t.half <= target &&
	    pmbench_schedule_decided(t.lo, t.hi, margin))
		sp = -1;
	else
		sp = same_pair(&pt, &from, 0, p, c, b);
	if (sp >= 0) {
		w = (double)from;
		so = (log(t.hi) - log(t.lo)) / 2 * sqrt(n);
		s = sqrt((n * so * so + w * sp * sp) / (n + w));
		t.lo = t.point * exp(-s / sqrt(n));
		t.hi = t.point * exp(s / sqrt(n));
	}
	need = pmbench_schedule_verdict_need(t.point, t.lo, t.hi, rounds,
					     margin);
	pmbench_schedule_keep(out, most, t.point, t.lo, t.hi, need);
	return 0;
}

/* A timed run of a group, in time order. */
struct run_at {
	double start, end;
	unsigned round;
	int mine;
};

static int by_start(const void *pa, const void *pb)
{
	const struct run_at *a = pa, *b = pb;

	return a->start < b->start ? -1 : a->start > b->start;
}

/*
 * PM `pm`'s overhead in group (fixture, task, scenario) of result `r`:
 * the median gap before its runs (s), or -1 with fewer than 2 of them.
 */
static double overhead_in(const struct pmbench_result *r, const char *fixture,
			  const char *task, const char *scenario,
			  const char *pm)
{
	struct run_at *v = NULL;
	double *gap = NULL, m = -1;
	size_t nr = 0, alloc = 0, n = 0;
	/* The minimum's rounds run back to back; further ones need not. */
	unsigned end = r->runs_auto ? r->warmup + r->auto_min_runs
				    : r->warmup + r->runs;

	for (size_t k = 0; k < r->cells_nr; k++) {
		const struct pmbench_cell *c = &r->cells[k];

		if (strcmp(c->fixture, fixture) || strcmp(c->task, task) ||
		    strcmp(c->scenario, scenario))
			continue;
		for (size_t i = 0; i < c->samples_nr; i++) {
			const struct pmbench_sample *s = &c->samples[i];

			if (s->warmup || !(s->started > 0) || s->round >= end)
				continue;
			PMBENCH_ALLOC_GROW(v, nr + 1, alloc);
			v[nr].start = s->started;
			v[nr].end = s->started + (double)s->wall_ns / 1e9;
			v[nr].round = s->round;
			v[nr++].mine = !strcmp(c->pm, pm);
		}
	}
	if (nr)
		qsort(v, nr, sizeof(*v), by_start);
	gap = pmbench_xcalloc(nr ? nr : 1, sizeof(*gap));
	for (size_t i = 1; i < nr; i++)
		if (v[i].mine && v[i].start >= v[i - 1].end &&
		    v[i].round <= v[i - 1].round + 1)
			gap[n++] = v[i].start - v[i - 1].end;
	if (n >= 2)
		m = pmbench_stats_median(gap, n);
	free(gap);
	free(v);
	return m;
}

double pmbench_prior_run_overhead(const struct pmbench_prior *p,
				  const char *fixture, const char *task,
				  const char *scenario, const char *pm)
{
	for (size_t i = 0; i < p->nr; i++) {
		double m = overhead_in(&p->results[i], fixture, task, scenario,
				       pm);

		if (m >= 0)
			return m;
	}
	return -1;
}

/* The mean trash of PM `pm`'s runs in the group's minimum rounds of `r`. */
static int trash_in(const struct pmbench_result *r, const char *fixture,
		    const char *task, const char *scenario, const char *pm,
		    double *bytes, double *files)
{
	const struct pmbench_cell *c =
		pmbench_result_find_cell(r, fixture, task, scenario, pm);
	unsigned end = r->runs_auto ? r->warmup + r->auto_min_runs
				    : r->warmup + r->runs;
	double sb = 0, sf = 0;
	size_t n = 0;

	for (size_t i = 0; c && i < c->samples_nr; i++) {
		const struct pmbench_sample *s = &c->samples[i];
		double b, f;

		if (s->warmup || s->round >= end ||
		    !pmbench_sample_metric_get(s, "trash_bytes", &b) ||
		    !pmbench_sample_metric_get(s, "trash_files_count", &f))
			continue;
		sb += b;
		sf += f;
		n++;
	}
	if (n < 2)
		return -1;
	*bytes = sb / (double)n;
	*files = sf / (double)n;
	return 0;
}

int pmbench_prior_run_trash(const struct pmbench_prior *p, const char *fixture,
			    const char *task, const char *scenario,
			    const char *pm, double *bytes, double *files)
{
	for (size_t i = 0; i < p->nr; i++)
		if (!trash_in(&p->results[i], fixture, task, scenario, pm,
			      bytes, files))
			return 0;
	return -1;
}
