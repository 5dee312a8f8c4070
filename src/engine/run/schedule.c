/*
 * Rounds, rotation and warm-ups: the one loop that times installs, tasks
 * and ci-cache jobs; and the budget's pure rules: a PM's repeats, when a
 * verdict is decided, which group gets the next round, the plan from
 * measured costs and what would fit.
 */
#include "pmbench/common.h"

#include <math.h>

#include "pmbench/buf.h"
#include "pmbench/ctx.h"
#include "pmbench/result.h"
#include "pmbench/schedule.h"
#include "pmbench/workspace.h"

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
	}
	return 0;
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

int pmbench_schedule_decided(double lo, double hi, double margin)
{
	if (!(lo > 0) || !(hi >= lo))
		return 0;
	return lo > 1 || hi < 1 || (lo >= 1 / (1 + margin) && hi <= 1 + margin);
}

double pmbench_schedule_verdict_need(double point, double lo, double hi,
				     unsigned rounds, double margin)
{
	double c, m, h, d, more;

	if (!(point > 0) || !(lo > 0) || !(hi >= lo))
		return -1;
	if (pmbench_schedule_decided(lo, hi, margin))
		return 0;
	c = fabs(log(point));
	m = log(1 + margin);
	h = (log(hi) - log(lo)) / 2;
	/* Clear 1 (h < c), or sit within the margin (c + h < m). */
	d = c > m - c ? c : m - c;
	more = (double)rounds * ((h / d) * (h / d) - 1);
	return more < 1 ? 1 : more;
}

double pmbench_schedule_target_need(double half, unsigned rounds, double target)
{
	double r = half / target;

	if (half < 0)
		return -1;
	return half <= target ? 0 : (double)rounds * (r * r - 1);
}

/* The two kinds of cells a round is for. */
enum need_kind { NEED_OPEN, NEED_WIDE };

/*
 * The rounds more cell `c` needs to settle its verdict (NEED_OPEN) or its
 * width (NEED_WIDE): 0 for nothing (the baseline, an excluded or a
 * settled cell), -1 when it is not known yet.
 */
static double cell_need(const struct pmbench_schedule_cell *c, unsigned rounds,
			const struct pmbench_schedule_budget *o,
			enum need_kind kind)
{
	if (c->baseline || c->excluded)
		return 0;
	if (c->half < 0)
		return -1;
	if (kind == NEED_WIDE)
		return pmbench_schedule_target_need(c->half, rounds, o->target);
	return pmbench_schedule_verdict_need(c->point, c->lo, c->hi, rounds,
					     o->margin);
}

/* One pass of the allocation. */
struct pass {
	const struct pmbench_schedule_budget *o;
	enum need_kind kind; /* the cells it is for */
	int reachable;	     /* only those the rest of the budget settles */
	uint64_t round_ns, left_ns;
};

/* Does cell `c` run in a round for `kind`: open, or for NEED_WIDE wide too. */
static int runs_in(const struct pmbench_schedule_cell *c, unsigned rounds,
		   const struct pmbench_schedule_budget *o, enum need_kind kind)
{
	return cell_need(c, rounds, o, NEED_OPEN) != 0 ||
	       (kind == NEED_WIDE && cell_need(c, rounds, o, NEED_WIDE) != 0);
}

/*
 * The cost of group g's round for `kind` (`round_ns`, the baseline's turn
 * and the turns of the cells that run in it); `base` gets whether the
 * baseline can run (without its times no ratio can come).
 */
static uint64_t group_cost(const struct pmbench_schedule_cell *cells, size_t nr,
			   size_t g, unsigned rounds,
			   const struct pmbench_schedule_budget *o,
			   enum need_kind kind, uint64_t round_ns, int *base)
{
	uint64_t cost = round_ns;

	*base = 0;
	for (size_t i = 0; i < nr; i++) {
		const struct pmbench_schedule_cell *c = &cells[i];

		if (c->group != g)
			continue;
		if (c->baseline && !c->excluded)
			*base = 1;
		if ((c->baseline && !c->excluded) ||
		    runs_in(c, rounds, o, kind))
			cost += c->cost_ns;
	}
	return cost;
}

/*
 * Group g's key in pass `p`, the lowest first (HUGE_VAL: nothing for it
 * in this pass), and its round's cost: for open cells the least time one
 * needs to be decided, for wide ones minus the widest relative to the
 * target; a cell not known yet comes first of all.
 */
static double group_key(const struct pmbench_schedule_cell *cells, size_t nr,
			size_t g, unsigned rounds, const struct pass *p,
			uint64_t *cost)
{
	double key = HUGE_VAL;
	int base;

	*cost = group_cost(cells, nr, g, rounds, p->o, p->kind, p->round_ns,
			   &base);
	if (!base || rounds >= p->o->max_runs || *cost > p->left_ns)
		return HUGE_VAL;
	for (size_t i = 0; i < nr; i++) {
		double need, k;

		if (cells[i].group != g)
			continue;
		need = cell_need(&cells[i], rounds, p->o, p->kind);
		if (need == 0 ||
		    (p->reachable && need > 0 &&
		     (need * (double)*cost > (double)p->left_ns ||
		      (double)rounds + need > (double)p->o->max_runs)))
			continue;
		if (need < 0)
			k = -HUGE_VAL;
		else if (p->kind == NEED_WIDE)
			k = -cells[i].half / p->o->target;
		else
			k = need * (double)*cost;
		if (k < key)
			key = k;
	}
	return key;
}

/* The group pass `p` gives the next round to, or -1. */
static long pass_pick(const struct pmbench_schedule_cell *cells, size_t nr,
		      const unsigned *rounds, size_t groups,
		      const struct pass *p)
{
	long best = -1;
	double best_key = HUGE_VAL;
	uint64_t best_cost = 0, cost;

	for (size_t g = 0; g < groups; g++) {
		double key = group_key(cells, nr, g, rounds[g], p, &cost);

		if (key == HUGE_VAL)
			continue;
		if (best < 0 || key < best_key ||
		    (key == best_key && cost < best_cost)) {
			best = (long)g;
			best_key = key;
			best_cost = cost;
		}
	}
	return best;
}

long pmbench_schedule_allocate(struct pmbench_schedule_cell *cells, size_t nr,
			       const unsigned *rounds, size_t groups,
			       uint64_t round_ns,
			       const struct pmbench_schedule_budget *o,
			       uint64_t left_ns)
{
	/* Open and reachable, wide and reachable, open, wide. */
	static const struct {
		enum need_kind kind;
		int reachable;
	} order[] = { { NEED_OPEN, 1 },
		      { NEED_WIDE, 1 },
		      { NEED_OPEN, 0 },
		      { NEED_WIDE, 0 } };
	struct pass p = { .o = o, .round_ns = round_ns, .left_ns = left_ns };
	long best = -1;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(order) && best < 0; i++) {
		p.kind = order[i].kind;
		p.reachable = order[i].reachable;
		best = pass_pick(cells, nr, rounds, groups, &p);
	}
	for (size_t i = 0; best >= 0 && i < nr; i++)
		cells[i].next = cells[i].group == (size_t)best &&
				!cells[i].excluded &&
				(cells[i].baseline ||
				 runs_in(&cells[i], rounds[best], o, p.kind));
	return best;
}

/* The most rounds one cell of group g needs, at most up to max_runs. */
static double group_most(const struct pmbench_schedule_cell *cells, size_t nr,
			 size_t g, unsigned rounds,
			 const struct pmbench_schedule_budget *o)
{
	double most = 0, cap = o->max_runs > rounds ? o->max_runs - rounds : 0;

	for (size_t i = 0; i < nr; i++) {
		double v, t;

		if (cells[i].group != g)
			continue;
		v = cell_need(&cells[i], rounds, o, NEED_OPEN);
		t = cell_need(&cells[i], rounds, o, NEED_WIDE);
		if (v < 0 || t < 0)
			return -1;
		most = fmax(most, fmax(ceil(v), ceil(t)));
	}
	return fmin(most, cap);
}

uint64_t pmbench_schedule_need_ns(const struct pmbench_schedule_cell *cells,
				  size_t nr, const unsigned *rounds,
				  size_t groups, uint64_t round_ns,
				  const struct pmbench_schedule_budget *o)
{
	double total = 0;

	for (size_t g = 0; g < groups; g++) {
		int base;
		uint64_t cost = group_cost(cells, nr, g, rounds[g], o,
					   NEED_WIDE, round_ns, &base);
		double most = group_most(cells, nr, g, rounds[g], o);

		if (!base)
			continue;
		if (most < 0)
			return UINT64_MAX;
		total += most * (double)cost;
	}
	return total < 1.8e19 ? (uint64_t)total : UINT64_MAX;
}

void pmbench_schedule_need_rounds(const struct pmbench_schedule_cell *cells,
				  size_t nr, const unsigned *rounds,
				  size_t groups,
				  const struct pmbench_schedule_budget *o,
				  double *most, int *runs)
{
	for (size_t g = 0; g < groups; g++) {
		int base;

		group_cost(cells, nr, g, rounds[g], o, NEED_WIDE, 0, &base);
		most[g] = base ? group_most(cells, nr, g, rounds[g], o) : 0;
	}
	for (size_t i = 0; i < nr; i++) {
		const struct pmbench_schedule_cell *c = &cells[i];

		runs[i] = c->group < groups && !c->excluded &&
			  (c->baseline ||
			   runs_in(c, rounds[c->group], o, NEED_WIDE));
	}
}

uint64_t pmbench_schedule_eta_ns(const struct pmbench_schedule_cell *cells,
				 size_t nr, const unsigned *rounds,
				 size_t groups, uint64_t round_ns,
				 const struct pmbench_schedule_budget *o,
				 double overrun, uint64_t left_ns)
{
	uint64_t need = pmbench_schedule_need_ns(cells, nr, rounds, groups,
						 round_ns, o);
	double more = (double)need * overrun;

	return more < (double)left_ns ? (uint64_t)more : left_ns;
}

void pmbench_schedule_plan_make(struct pmbench_schedule_plan *out,
				const struct pmbench_schedule_costs *g,
				size_t nr, uint64_t used_ns, uint64_t tail_ns,
				uint64_t budget_ns, uint64_t need_ns)
{
	uint64_t cap = 0, extra = 0;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < nr; i++) {
		unsigned top = g[i].done > g[i].min ? g[i].done : g[i].min;

		if (g[i].min > g[i].done)
			out->min_ns += (g[i].min - g[i].done) * g[i].round_ns;
		if (g[i].max > top)
			cap += (g[i].max - top) * g[i].round_ns;
	}
	out->fit_ns = used_ns + out->min_ns + tail_ns;
	out->fits = !budget_ns || out->fit_ns <= budget_ns;
	if (budget_ns > out->fit_ns) {
		extra = budget_ns - out->fit_ns;
		if (extra > cap)
			extra = cap;
		if (extra > need_ns)
			extra = need_ns;
	}
	out->extra_ns = extra;
	out->end_ns = out->fit_ns + extra;
}

uint64_t pmbench_schedule_fresh_ns(const struct pmbench_schedule_costs *g)
{
	unsigned more = g->min > g->done ? g->min - g->done : 0;

	return g->first_ns + more * g->round_ns;
}

size_t pmbench_schedule_fit_groups(int *keep,
				   const struct pmbench_schedule_costs *g,
				   size_t nr, uint64_t fixed_ns,
				   uint64_t budget_ns)
{
	uint64_t sum = fixed_ns;
	size_t kept = 0;

	for (size_t i = 0; i < nr; i++)
		keep[i] = 0;
	for (;;) {
		long best = -1;

		for (size_t i = 0; i < nr; i++)
			if (!keep[i] &&
			    (best < 0 ||
			     pmbench_schedule_fresh_ns(&g[i]) <
				     pmbench_schedule_fresh_ns(&g[best])))
				best = (long)i;
		if (best < 0 ||
		    sum + pmbench_schedule_fresh_ns(&g[best]) > budget_ns)
			break;
		sum += pmbench_schedule_fresh_ns(&g[best]);
		keep[best] = 1;
		kept++;
	}
	return kept;
}

/* Every group with only the PMs of `keep`, after their share of `fixed`. */
static double fresh_pms(const struct pmbench_schedule_costs *g, size_t nr,
			const uint64_t *pm_ns, size_t pms, const int *keep,
			uint64_t fixed_ns)
{
	double sum = 0;
	size_t n = 0;

	for (size_t i = 0; i < pms; i++)
		n += keep[i] != 0;
	sum = (double)fixed_ns * (double)n / (double)pms;
	for (size_t gi = 0; gi < nr; gi++) {
		double off = 0, share = 1;

		for (size_t i = 0; i < pms; i++)
			if (!keep[i])
				off += (double)pm_ns[gi * pms + i];
		if (g[gi].round_ns)
			share = fmax(0, 1 - off / (double)g[gi].round_ns);
		sum += (double)pmbench_schedule_fresh_ns(&g[gi]) * share;
	}
	return sum;
}

/* The costliest PM still kept, never `base`; -1 when none. */
static long costliest(const uint64_t *pm_ns, size_t nr, size_t pms,
		      const int *keep, size_t base)
{
	long best = -1;
	double best_ns = 0;

	for (size_t i = 0; i < pms; i++) {
		double ns = 0;

		for (size_t gi = 0; gi < nr; gi++)
			ns += (double)pm_ns[gi * pms + i];
		if (keep[i] && i != base && (best < 0 || ns > best_ns)) {
			best = (long)i;
			best_ns = ns;
		}
	}
	return best;
}

size_t pmbench_schedule_fit_pms(int *keep,
				const struct pmbench_schedule_costs *g,
				size_t nr, const uint64_t *pm_ns, size_t pms,
				size_t base, uint64_t fixed_ns,
				uint64_t budget_ns)
{
	size_t n = pms;

	for (size_t i = 0; i < pms; i++)
		keep[i] = 1;
	while (n >= 2 && fresh_pms(g, nr, pm_ns, pms, keep, fixed_ns) >
				 (double)budget_ns) {
		long drop = costliest(pm_ns, nr, pms, keep, base);

		if (drop < 0)
			break;
		keep[drop] = 0;
		n--;
	}
	if (n < 2 ||
	    fresh_pms(g, nr, pm_ns, pms, keep, fixed_ns) > (double)budget_ns)
		return 0;
	return n;
}
