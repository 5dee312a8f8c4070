/*
 * What the budget's commands (bench, migrate, ci-cache) share beyond the
 * pure allocation of schedule.c: whether a command is budgeted, a cell
 * judged against the baseline, why a cell stopped adding rounds, and the
 * plan said in words (the estimate, the warning with what would fit).
 */
#include "pmbench/common.h"

#include <math.h>

#include "pmbench/buf.h"
#include "pmbench/ctx.h"
#include "pmbench/prior.h"
#include "pmbench/result.h"
#include "pmbench/schedule.h"
#include "pmbench/stats.h"

int pmbench_schedule_budgeted(int by_default, int runs_given, int runs_auto,
			      int budget_given, int sharded)
{
	if (runs_auto || budget_given)
		return 1;
	return by_default && !runs_given && !sharded;
}

int pmbench_schedule_judge(struct pmbench_schedule_cell *out, double *most,
			   const struct pmbench_cell *c,
			   const struct pmbench_cell *b, unsigned rounds,
			   double margin, uint64_t seed)
{
	struct pmbench_interval iv;
	double need;
	size_t n = 0;
	int ret;

	free(c ? pmbench_cell_times(c, &n) : NULL);
	out->excluded = !n || !b || c->prime_failure ||
			pmbench_cell_failures(c);
	if (out->excluded)
		return 1;
	if (out->baseline)
		return 0;
	/* The report's level, resamples and seed (model.c). */
	ret = pmbench_cell_paired_ratio(&iv, &n, c, b, 0.95, 10000, seed);
	pmbench_error_clear();
	need = pmbench_schedule_verdict_need(iv.point, iv.lo, iv.hi, rounds,
					     margin);
	if (ret <= 0 || need < 0) {
		out->half = -1;
		return 1;
	}
	pmbench_schedule_keep(out, most, iv.point, iv.lo, iv.hi, need);
	return 0;
}

void pmbench_schedule_keep(struct pmbench_schedule_cell *out, double *most,
			   double point, double lo, double hi, double need)
{
	double half = (hi - lo) / 2 / point;

	if (need > *most || (need == *most && half > out->half)) {
		out->point = point;
		out->lo = lo;
		out->hi = hi;
		*most = need;
	}
	if (half > out->half)
		out->half = half;
}

enum pmbench_schedule_stop
pmbench_schedule_why(const struct pmbench_schedule_cell *c, unsigned rounds,
		     const struct pmbench_schedule_budget *o)
{
	if (c->excluded)
		return PMBENCH_SCHEDULE_FAILURES;
	if (c->baseline || (c->half >= 0 && c->half <= o->target &&
			    pmbench_schedule_decided(c->lo, c->hi, o->margin)))
		return PMBENCH_SCHEDULE_PRECISION;
	if (rounds >= o->max_runs)
		return PMBENCH_SCHEDULE_MAX_RUNS;
	return PMBENCH_SCHEDULE_TIME_BUDGET;
}

void pmbench_schedule_plan_words(struct pmbench_buf *out,
				 const struct pmbench_schedule_costs *g,
				 size_t nr, const char *const *labels)
{
	pmbench_buf_addf(out, "%zu group%s: ", nr, nr == 1 ? "" : "s");
	for (size_t i = 0; i < nr; i++) {
		unsigned more = g[i].min > g[i].done ? g[i].min - g[i].done : 0;
		const char *sep = i ? ", " : "";
		double s = (double)g[i].round_ns / 1e9;

		/*
		 * What runs: "5 rounds" before any, "4 more rounds" after
		 * one (ci-cache's first hit round), and once the minimum
		 * ran what a round costs, not "0 rounds of 31.1 s".
		 */
		if (!more)
			pmbench_buf_addf(out,
					 "%s%s %u round%s run, %.1f s each",
					 sep, labels[i], g[i].done,
					 g[i].done == 1 ? "" : "s", s);
		else
			pmbench_buf_addf(out, "%s%s %u %sround%s of %.1f s",
					 sep, labels[i], more,
					 g[i].done ? "more " : "",
					 more == 1 ? "" : "s", s);
	}
}

/* ", or --scenario a,b": the names kept, each once; nothing if none. */
static void kept_words(struct pmbench_buf *out, const char *option,
		       const char *const *names, const int *keep, size_t nr)
{
	const char *last = NULL;

	for (size_t i = 0; i < nr; i++) {
		if (!keep[i] || (last && !strcmp(last, names[i])))
			continue;
		if (last)
			pmbench_buf_adds(out, ",");
		else
			pmbench_buf_addf(out, ", or %s ", option);
		pmbench_buf_adds(out, names[i]);
		last = names[i];
	}
}

void pmbench_schedule_fit_words(struct pmbench_buf *out,
				const struct pmbench_schedule_plan *plan,
				const struct pmbench_schedule_costs *g,
				size_t nr,
				const struct pmbench_schedule_names *n,
				uint64_t budget_ns)
{
	size_t pms = n->pms_nr, kept;
	int *keep = pmbench_xcalloc(nr > pms ? nr
				    : pms    ? pms
					     : 1,
				    sizeof(*keep));
	uint64_t own = n->fixed_ns, rest;

	pmbench_buf_addf(out, "--budget %.0fm",
			 ceil((double)plan->fit_ns / 60e9));
	/*
	 * What the minimum needs beside the groups' own rounds and the
	 * primings (the waits for the file system and the deleter, the
	 * tail) is needed with fewer groups or PMs too: before, ci-cache
	 * after 8 min of waits under --budget 6m was told that every
	 * strategy and PM it asked for would fit.
	 */
	for (size_t i = 0; i < nr; i++)
		own += pmbench_schedule_fresh_ns(&g[i]);
	rest = plan->fit_ns > own ? plan->fit_ns - own : 0;
	budget_ns = budget_ns > rest ? budget_ns - rest : 0;
	/* Only a smaller set than was asked is something else to try. */
	kept = pmbench_schedule_fit_groups(keep, g, nr, n->fixed_ns, budget_ns);
	if (kept && kept < nr)
		kept_words(out, n->group_option, n->groups, keep, nr);
	kept = pmbench_schedule_fit_pms(keep, g, nr, n->pm_ns, pms, n->base,
					n->fixed_ns, budget_ns);
	if (kept && kept < pms)
		kept_words(out, "--pm", n->pms, keep, pms);
	free(keep);
}

void pmbench_schedule_say(const struct pmbench_ctx *ctx, const char *when,
			  const struct pmbench_schedule_plan *plan,
			  uint64_t end_ns,
			  const struct pmbench_schedule_costs *g, size_t nr,
			  const struct pmbench_schedule_names *n,
			  const struct pmbench_schedule_budget *o)
{
	struct pmbench_buf w = PMBENCH_BUF_INIT, fit = PMBENCH_BUF_INIT;

	pmbench_buf_add_clock_unit(&w, (double)end_ns / 1e9);
	pmbench_buf_adds(&w, " in all, the waits so far included (budget ");
	pmbench_buf_add_clock(&w, (double)o->budget_ns / 1e9);
	pmbench_buf_adds(&w, "): ");
	pmbench_schedule_plan_words(&w, g, nr, n->labels);
	pmbench_buf_adds(&w, ", then ");
	pmbench_buf_add_clock(&w, (double)plan->extra_ns / 1e9);
	pmbench_ctx_event(ctx,
			  "estimate%s: about %s of further rounds where a "
			  "verdict is open or a ratio wider than ±%.0f %%%s%s",
			  when, w.ptr, o->target * 100, n->also ? n->also : "",
			  n->prior ? n->prior : "");
	if (!plan->fits && !*when) {
		pmbench_buf_reset(&w);
		pmbench_buf_add_clock_unit(&w, (double)plan->fit_ns / 1e9);
		pmbench_schedule_fit_words(&fit, plan, g, nr, n, o->budget_ns);
		pmbench_ctx_warn(ctx,
				 "the budget cannot hold the first rounds: "
				 "with %u timed rounds of every group the "
				 "command needs about %s; what would fit: "
				 "%s; running what was asked",
				 o->min_runs, w.ptr, fit.ptr);
	}
	pmbench_buf_release(&w);
	pmbench_buf_release(&fit);
}

void pmbench_schedule_prior_words(struct pmbench_buf *out, int source,
				  size_t pairs, uint64_t end_ns,
				  uint64_t upto_ns)
{
	switch (source) {
	case PMBENCH_PRIOR_SAME:
		pmbench_buf_adds(out, "; the further rounds as this machine's "
				      "earlier results of these PMs say "
				      "their rounds vary");
		break;
	case PMBENCH_PRIOR_MACHINE:
		pmbench_buf_addf(out,
				 "; the further rounds as this machine's "
				 "earlier results (%zu pair%s of PMs) say "
				 "rounds vary here",
				 pairs, pairs == 1 ? "" : "s");
		break;
	case PMBENCH_PRIOR_NONE:
		pmbench_buf_adds(out, "; no earlier result here says how much "
				      "its rounds vary: the further rounds "
				      "may take less");
		return;
	default:
		return;
	}
	if (upto_ns > end_ns + 1000000000ull) {
		pmbench_buf_adds(out, " (up to ");
		pmbench_buf_add_clock(out, (double)upto_ns / 1e9);
		pmbench_buf_adds(out, " if they vary more)");
	}
}

void pmbench_schedule_record(struct pmbench_result *r,
			     const struct pmbench_schedule_budget *o)
{
	r->runs_auto = 1;
	r->auto_target = o->target;
	r->auto_min_runs = o->min_runs;
	r->auto_budget_ns = o->budget_ns;
	r->auto_max_runs = o->max_runs;
	/* The most rounds a scenario ran, once they ran. */
	r->runs = o->min_runs;
}
