/*
 * A cell's named figures, each a median with its 95 % bootstrap
 * interval: the wall time of its timed runs, the work its PM's process
 * tree did per run (task-clock, instructions: perf events), and the
 * phases its PM's own timers named in the --explain runs. What the
 * dashboard formats (fmt_gab.c, fmt_bmf.c) write and the explain and
 * work sections (kind_explain.c) show. Deterministic given the seed.
 */
#include "pmbench/common.h"

#include <math.h>

#include "internal.h"
#include "pmbench/stats.h"

void pmbench_figures_release(struct pmbench_figures *f)
{
	for (size_t i = 0; i < f->nr; i++)
		free(f->v[i].name);
	free(f->v);
	f->v = NULL;
	f->nr = f->alloc = 0;
}

static struct pmbench_figure *add(struct pmbench_figures *f, const char *name,
				  enum pmbench_figure_unit unit, size_t n)
{
	struct pmbench_figure *g;

	PMBENCH_ALLOC_GROW(f->v, f->nr + 1, f->alloc);
	g = &f->v[f->nr++];
	memset(g, 0, sizeof(*g));
	g->name = pmbench_xstrdup(name);
	g->unit = unit;
	g->n = n;
	return g;
}

/* The median of `v` and its interval into `g`; 0, or -1 for none. */
static int median_of(struct pmbench_figure *g, const double *v, size_t n,
		     uint64_t seed)
{
	struct pmbench_interval iv;
	struct pmbench_rng rng;

	pmbench_rng_seed(&rng, seed);
	if (!n ||
	    pmbench_stats_bootstrap_median(&iv, v, n, PMBENCH_REPORT_LEVEL,
					   PMBENCH_REPORT_RESAMPLES, &rng) < 0)
		return -1;
	g->median = iv.point;
	g->lo = iv.lo;
	g->hi = iv.hi;
	return 0;
}

/* A metric of the timed runs (task_clock_s, instructions_count). */
static void metric(struct pmbench_figures *f, const struct pmbench_cell *c,
		   const char *metric, const char *name,
		   enum pmbench_figure_unit unit, uint64_t seed)
{
	size_t n = 0;
	double *v = pmbench_cell_metric_values(c, metric, &n);

	struct pmbench_figure g;

	memset(&g, 0, sizeof(g));
	if (n && !median_of(&g, v, n, seed)) {
		struct pmbench_figure *to = add(f, name, unit, n);

		to->median = g.median;
		to->lo = g.lo;
		to->hi = g.hi;
	}
	free(v);
}

/* Each phase name, in the order the runs first named them. */
static void phase_names(struct pmbench_strvec *out,
			const struct pmbench_cell *c)
{
	for (size_t r = 0; r < c->explain_nr; r++) {
		const struct pmbench_explain_run *e = &c->explain[r];

		for (size_t k = 0; e->ok && k < e->phases.nr; k++)
			if (pmbench_strvec_find(out, e->phases.v[k].name) < 0)
				pmbench_strvec_push(out, e->phases.v[k].name);
	}
}

/* The phase `name` over the cell's successful --explain runs. */
static void phase(struct pmbench_figures *f, const struct pmbench_cell *c,
		  const char *name, uint64_t seed)
{
	double *v = pmbench_xcalloc(c->explain_nr, sizeof(*v));
	double *counts = pmbench_xcalloc(c->explain_nr, sizeof(*counts));
	size_t n = 0, nc = 0;
	struct pmbench_figure *g = NULL;

	for (size_t r = 0; r < c->explain_nr; r++) {
		const struct pmbench_explain_run *e = &c->explain[r];
		const struct pmbench_pm_phase *ph =
			e->ok ? pmbench_pm_phases_find(&e->phases, name) : NULL;

		if (!ph)
			continue;
		if (!g) {
			g = add(f, name, PMBENCH_FIGURE_SECONDS, 0);
			g->phase = 1;
			g->kind = ph->kind;
		}
		g->arrival |= (ph->flags & PMBENCH_PMPHASE_ARRIVAL) != 0;
		v[n++] = ph->seconds;
		if (ph->count >= 0)
			counts[nc++] = ph->count;
	}
	if (g) {
		g->n = n;
		median_of(g, v, n, seed);
		g->count = nc ? pmbench_stats_median(counts, nc) : -1;
	}
	free(v);
	free(counts);
}

void pmbench_figures_of_cell(struct pmbench_figures *out,
			     const struct pmbench_report *rep, size_t i)
{
	const struct pmbench_report_cell *rc = &rep->cells[i];
	const struct pmbench_cell *c = rc->cell;
	uint64_t seed = rep->result->seed + i;
	struct pmbench_strvec names = PMBENCH_STRVEC_INIT;

	if (rc->n && rc->has_ci) {
		struct pmbench_figure *g =
			add(out, "wall", PMBENCH_FIGURE_SECONDS, rc->n);

		g->median = rc->median_ci.point;
		g->lo = rc->median_ci.lo;
		g->hi = rc->median_ci.hi;
	}
	metric(out, c, "task_clock_s", "task-clock", PMBENCH_FIGURE_SECONDS,
	       seed);
	metric(out, c, "instructions_count", "instructions",
	       PMBENCH_FIGURE_COUNT, seed);
	phase_names(&names, c);
	for (size_t k = 0; k < names.nr; k++)
		phase(out, c, names.v[k], seed + k + 1);
	pmbench_strvec_release(&names);
}

const struct pmbench_figure *
pmbench_figures_find(const struct pmbench_figures *f, const char *name,
		     int phase)
{
	for (size_t i = 0; i < f->nr; i++)
		if (!strcmp(f->v[i].name, name) && f->v[i].phase == phase)
			return &f->v[i];
	return NULL;
}

double pmbench_figure_cv(const struct pmbench_cell *c, const char *metric)
{
	struct pmbench_summary s;
	size_t n = 0;
	double *v;

	if (!metric)
		v = pmbench_cell_times(c, &n);
	else
		v = pmbench_cell_metric_values(c, metric, &n);
	pmbench_stats_summary(&s, v, n);
	free(v);
	return n >= 2 && s.mean > 0 ? s.sd / s.mean : -1;
}
