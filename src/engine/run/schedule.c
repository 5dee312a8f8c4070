/*
 * Rounds, rotation, warm-ups and `--runs auto`: the one loop that times
 * installs, tasks and ci-cache jobs, and the rule that ends it early.
 */
#include "pmbench/common.h"

#include <math.h>

#include "pmbench/buf.h"
#include "pmbench/control.h"
#include "pmbench/ctx.h"
#include "pmbench/result.h"
#include "pmbench/schedule.h"
#include "pmbench/stats.h"
#include "pmbench/workspace.h"

#define RESAMPLES 2000

size_t pmbench_schedule_order(size_t k, unsigned number, size_t nr)
{
	return nr ? (k + number) % nr : 0;
}

unsigned pmbench_schedule_shard_runs(unsigned runs, unsigned shard,
				     unsigned shards)
{
	if (!shards)
		return runs;
	if (!shard || shard > shards || runs < shard)
		return 0;
	return (runs - shard) / shards + 1;
}

/* Every participant's turn in one round, in the order rotated by `rot`. */
static int one_round(const struct pmbench_schedule *s,
		     const struct pmbench_round *round, unsigned rot)
{
	int ret;

	if (s->round_start) {
		if (pmbench_ctx_cancelled(s->ctx))
			return PMBENCH_EINTERRUPTED;
		ret = s->round_start(round, s->payload);
		if (ret < 0)
			return ret;
	}
	for (size_t k = 0; k < s->nr; k++) {
		/* A signal between two turns: start no other. */
		if (pmbench_ctx_cancelled(s->ctx))
			return PMBENCH_EINTERRUPTED;
		ret = s->turn(pmbench_schedule_order(k, rot, s->nr), round,
			      s->payload);
		if (ret < 0)
			return ret;
	}
	return s->round_done ? s->round_done(round, s->payload) : 0;
}

int pmbench_schedule_run(const struct pmbench_schedule *s)
{
	uint64_t started = pmbench_now_ns();
	unsigned total = s->warmup + s->runs, mine = 0;
	unsigned runs =
		pmbench_schedule_shard_runs(s->runs, s->shard, s->shards);
	int ret;

	/* Told not to wait: said once, at the first schedule. */
	if (s->ctx && s->ctx->cache_dir &&
	    !(s->ctx->no_fs_wait && s->result &&
	      pmbench_result_env_get(s->result, "inode_reuse_wait"))) {
		struct pmbench_buf note = PMBENCH_BUF_INIT;

		ret = pmbench_workspace_await_reuse(s->ctx, &note);
		if (s->waited_ns)
			*s->waited_ns = pmbench_now_ns() - started;
		if (note.len && s->result)
			pmbench_result_env_set(s->result, "inode_reuse_wait",
					       note.ptr);
		pmbench_buf_release(&note);
		if (ret < 0)
			return ret;
		started = pmbench_now_ns();
	}
	for (unsigned i = 0; i < total; i++) {
		struct pmbench_round round;
		unsigned rot;

		round.number = s->first_round + i;
		round.warmup = i < s->warmup;
		round.nth = round.warmup ? i + 1 : i + 1 - s->warmup;
		round.of = round.warmup ? s->warmup : s->runs;
		rot = round.number;
		if (s->shards && !round.warmup) {
			/* Another shard's round. */
			if ((i - s->warmup) % s->shards != s->shard - 1)
				continue;
			round.nth = ++mine;
			round.of = runs;
			rot = s->first_round + s->warmup + s->shard - 1 + mine -
			      1;
		}
		ret = one_round(s, &round, rot);
		if (ret < 0)
			return ret;
		/* --runs auto: `runs` is the maximum. */
		if (s->autostop && !round.warmup &&
		    pmbench_schedule_auto_cells(
			    s->result, s->autostop, s->fixture, s->task,
			    s->scenario, round.nth, pmbench_now_ns() - started))
			break;
	}
	return 0;
}

enum pmbench_schedule_stop
pmbench_schedule_auto_check(const struct pmbench_schedule_auto *o,
			    const double *const *times, const size_t *n,
			    size_t cells, unsigned rounds, uint64_t elapsed_ns,
			    double *out_worst)
{
	double worst = 0;
	int any = 0, precise = 1;

	if (out_worst)
		*out_worst = 0;
	if (rounds < o->min_runs)
		return PMBENCH_SCHEDULE_CONTINUE;
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
		return PMBENCH_SCHEDULE_FAILURES;
	if (precise)
		return PMBENCH_SCHEDULE_PRECISION;
	if (rounds >= o->max_runs)
		return PMBENCH_SCHEDULE_MAX_RUNS;
	if (elapsed_ns >= o->budget_ns)
		return PMBENCH_SCHEDULE_TIME_BUDGET;
	return PMBENCH_SCHEDULE_CONTINUE;
}

const char *pmbench_schedule_stop_name(enum pmbench_schedule_stop stop)
{
	switch (stop) {
	case PMBENCH_SCHEDULE_PRECISION:
		return "precision";
	case PMBENCH_SCHEDULE_MAX_RUNS:
		return "max-runs";
	case PMBENCH_SCHEDULE_TIME_BUDGET:
		return "time-budget";
	case PMBENCH_SCHEDULE_FAILURES:
		return "failures";
	case PMBENCH_SCHEDULE_CONTINUE:
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

int pmbench_schedule_auto_cells(struct pmbench_result *r,
				const struct pmbench_schedule_auto *o,
				const char *fixture, const char *task,
				const char *scenario, unsigned rounds,
				uint64_t elapsed_ns)
{
	size_t cells = r->cells_nr ? r->cells_nr : 1, nr = 0;
	double **times = pmbench_xcalloc(cells, sizeof(*times));
	size_t *n = pmbench_xcalloc(cells, sizeof(*n));
	enum pmbench_schedule_stop stop;
	const char *name;

	for (size_t i = 0; i < r->cells_nr; i++) {
		/* The drift control is no PM: it does not stop anything. */
		if (!in_scenario(&r->cells[i], fixture, task, scenario) ||
		    r->cells[i].prime_failure ||
		    pmbench_control_is(r->cells[i].pm))
			continue;
		times[nr] = pmbench_cell_times(&r->cells[i], &n[nr]);
		nr++;
	}
	stop = pmbench_schedule_auto_check(o, (const double *const *)times, n,
					   nr, rounds, elapsed_ns, NULL);
	name = pmbench_schedule_stop_name(stop);
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

unsigned pmbench_schedule_repeats(uint64_t cost_ns, uint64_t round_ns,
				  uint64_t slowest_ns,
				  const struct pmbench_schedule_budget *o)
{
	double k;

	if (!cost_ns || !round_ns || !slowest_ns ||
	    (double)cost_ns >
		    PMBENCH_SCHEDULE_REPEAT_SHORT * (double)slowest_ns)
		return 1;
	k = 1 + floor(o->repeat_share * (double)round_ns / (double)cost_ns);
	if (k > o->repeat_max)
		k = o->repeat_max;
	return k < 1 ? 1 : (unsigned)k;
}

/* Is cell `c` outside the target (or not known yet)? */
static int unreached(const struct pmbench_schedule_cell *c, double target)
{
	return !c->baseline && !c->excluded &&
	       (c->half < 0 || c->half > target);
}

/*
 * Could more rounds bring cell `c` of a group at `rounds` rounds within
 * the target, in `left_ns` at `cost_ns` a round? Its half-width shrinks
 * as one over the square root of the rounds (the reports' "about N
 * rounds would reach it"); one not known yet might.
 */
static int reachable(const struct pmbench_schedule_cell *c, unsigned rounds,
		     uint64_t cost_ns, double target, uint64_t left_ns)
{
	double ratio = c->half / target;
	double more = (double)rounds * (ratio * ratio - 1);

	return c->half < 0 || more * (double)cost_ns <= (double)left_ns;
}

/*
 * The widest unreached half-width of group g relative to the target
 * (HUGE_VAL for one not known), 0 when none; its extra round's cost.
 * With `left_ns`, only the cells the rest of the budget can bring within
 * the target count.
 */
static double group_need(const struct pmbench_schedule_cell *cells, size_t nr,
			 size_t g, unsigned rounds, uint64_t round_ns,
			 double target, uint64_t left_ns, uint64_t *out_cost)
{
	double worst = 0;
	int base = 0;

	*out_cost = round_ns;
	for (size_t i = 0; i < nr; i++) {
		const struct pmbench_schedule_cell *c = &cells[i];

		if (c->group != g)
			continue;
		if (c->baseline && !c->excluded) {
			base = 1;
			*out_cost += c->cost_ns;
		}
		if (unreached(c, target))
			*out_cost += c->cost_ns;
	}
	for (size_t i = 0; i < nr; i++) {
		const struct pmbench_schedule_cell *c = &cells[i];
		double w;

		if (c->group != g || !unreached(c, target) ||
		    (left_ns &&
		     !reachable(c, rounds, *out_cost, target, left_ns)))
			continue;
		w = c->half < 0 ? HUGE_VAL : c->half / target;
		if (w > worst)
			worst = w;
	}
	/* Without the baseline's times no ratio can come. */
	return base ? worst : 0;
}

long pmbench_schedule_allocate(struct pmbench_schedule_cell *cells, size_t nr,
			       const unsigned *rounds, size_t groups,
			       uint64_t round_ns,
			       const struct pmbench_schedule_budget *o,
			       uint64_t left_ns)
{
	long best = -1;
	double best_w = 0;
	uint64_t best_cost = 0;

	/*
	 * First among the ratios the rest of the budget can bring within
	 * the target; when none can, the widest of all.
	 */
	for (int pass = 0; pass < 2 && best < 0; pass++) {
		for (size_t g = 0; g < groups; g++) {
			uint64_t cost;
			double w = group_need(cells, nr, g, rounds[g], round_ns,
					      o->target, pass ? 0 : left_ns,
					      &cost);

			if (!(w > 0) || rounds[g] >= o->max_runs ||
			    cost > left_ns)
				continue;
			if (best < 0 || w > best_w ||
			    (w == best_w && cost < best_cost)) {
				best = (long)g;
				best_w = w;
				best_cost = cost;
			}
		}
	}
	for (size_t i = 0; best >= 0 && i < nr; i++)
		cells[i].next =
			cells[i].group == (size_t)best && !cells[i].excluded &&
			(cells[i].baseline || unreached(&cells[i], o->target));
	return best;
}
