#ifndef PMBENCH_SCHEDULE_H
#define PMBENCH_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

struct pmbench_ctx;
struct pmbench_result;
struct pmbench_cell;

/**
 * Rounds: the one loop that times installs, tasks and ci-cache jobs.
 * Rounds are outside and participants (one per PM, usually) inside, so a
 * machine that drifts hits every participant alike; the order rotates by
 * one each round (npm bun pnpm, bun pnpm npm, ...), so none always pays
 * for being first (a cold connection) or last. Warm-up rounds come
 * first. Under the time budget the command's engine calls it for a
 * few rounds at a time, as pmbench_schedule_allocate() says.
 *
 *	struct pmbench_schedule s = PMBENCH_SCHEDULE_INIT;
 *
 *	s.ctx = ctx;
 *	s.nr = pms_nr;
 *	s.warmup = 1;
 *	s.runs = 5;
 *	s.turn = one_turn;
 *	s.payload = &state;
 *	ret = pmbench_schedule_run(&s);
 */

/** One round, as the callbacks see it. */
struct pmbench_round {
	unsigned number; /**< first_round + index: the sample's "round" */
	int warmup;	 /**< a warm-up round (kept, not in statistics) */
	unsigned nth;	 /**< 1-based, among warm-ups or timed rounds */
	unsigned of;	 /**< how many warm-ups, or timed rounds at most */
};

/**
 * One participant's turn in a round: `who` is its index (0 to nr - 1).
 * A negative return (an error, PMBENCH_EINTERRUPTED) stops the schedule
 * at once, mid-round, and is returned by pmbench_schedule_run().
 */
typedef int (*pmbench_schedule_turn_cb)(size_t who,
					const struct pmbench_round *round,
					void *payload);

/**
 * Called after every participant has had its turn in a round. A
 * negative return stops as for a turn.
 */
typedef int (*pmbench_schedule_round_cb)(const struct pmbench_round *round,
					 void *payload);

/**
 * Why the budget stopped adding rounds to a cell's group (its
 * "stopped_by", pmbench_schedule_stop_name()), or that it goes on.
 */
enum pmbench_schedule_stop {
	PMBENCH_SCHEDULE_CONTINUE = 0,
	PMBENCH_SCHEDULE_PRECISION,   /**< its verdict decided, within target */
	PMBENCH_SCHEDULE_MAX_RUNS,    /**< the group's rounds at most */
	PMBENCH_SCHEDULE_TIME_BUDGET, /**< the budget was spent */
	PMBENCH_SCHEDULE_FAILURES     /**< no ratio can come (failures) */
};

/**
 * The time budget (`--budget`, the default of bench, migrate and
 * ci-cache; `--runs auto` is its old spelling). It counts from the
 * command's start and holds the whole command, the file-system waits
 * and the trash's emptyings (trashplan.h) too: the primings, every scenario's first rounds (warm-ups) and `min_runs`
 * rounds, then further rounds (pmbench_schedule_allocate()): first where
 * a PM's verdict against the baseline is still open, then where its
 * paired ratio is wider than `target`, until every verdict is decided
 * and every ratio within the target, a scenario has `max_runs` rounds,
 * or the budget is spent. The plan is made from what a round cost once
 * every scenario's first rounds ran (pmbench_schedule_plan_make()).
 * Within a round, a PM whose turn is short against the round's slowest
 * runs several times (pmbench_schedule_repeats()).
 */
struct pmbench_schedule_budget {
	double target; /**< half-width of the paired ratio, relative */
	/**
	 * The equivalence margin: a ratio whose interval lies within
	 * [1 / (1 + margin), 1 + margin] is decided as "the same".
	 */
	double margin;
	unsigned min_runs;  /**< rounds every scenario runs first */
	unsigned max_runs;  /**< rounds of a scenario at most */
	uint64_t budget_ns; /**< the whole command's, from its start */
	/** a PM's repeats add at most this share of the round's time */
	double repeat_share;
	unsigned repeat_max; /**< runs of one PM in a round at most */
};

#define PMBENCH_SCHEDULE_BUDGET_TARGET 0.10
#define PMBENCH_SCHEDULE_BUDGET_MARGIN 0.10
/*
 * 5: the fewest rounds for a verdict from the paired interval (report.h's
 * PMBENCH_REPORT_PAIRED_MIN_ROUNDS) and for Mann-Whitney to reach p <
 * 0.05; with 3, a budget that reached its target gave "n.s." on an 18x.
 */
#define PMBENCH_SCHEDULE_BUDGET_MIN_RUNS 5
#define PMBENCH_SCHEDULE_BUDGET_MAX_RUNS 30
/*
 * 8 min: bench's and migrate's default budget. The default bench (six
 * PMs, four scenarios) needs 6:16 for its minimum on a quiet 2-core VM
 * (the primings and every scenario's warm-up and 5 rounds: estimate 376
 * s, wall 370 s, 2026-12-06), so the old 5 min could never be kept
 * there. With the host's noise (about +-10 %, 6:54) that leaves about a
 * minute for the rounds that decide a verdict still open.
 */
#define PMBENCH_SCHEDULE_BUDGET_NS    (8ull * 60ull * 1000000000ull)
#define PMBENCH_SCHEDULE_REPEAT_SHARE 0.10
#define PMBENCH_SCHEDULE_REPEAT_MAX   9
/** "Short against the slowest": at most this fraction of its turn. */
#define PMBENCH_SCHEDULE_REPEAT_SHORT 0.25

/** The budget's knobs with a default budget of `ns`. */
#define PMBENCH_SCHEDULE_BUDGET_INIT_NS(ns)                    \
	{                                                      \
		.target = PMBENCH_SCHEDULE_BUDGET_TARGET,      \
		.margin = PMBENCH_SCHEDULE_BUDGET_MARGIN,      \
		.min_runs = PMBENCH_SCHEDULE_BUDGET_MIN_RUNS,  \
		.max_runs = PMBENCH_SCHEDULE_BUDGET_MAX_RUNS,  \
		.budget_ns = (ns),                             \
		.repeat_share = PMBENCH_SCHEDULE_REPEAT_SHARE, \
		.repeat_max = PMBENCH_SCHEDULE_REPEAT_MAX      \
	}

#define PMBENCH_SCHEDULE_BUDGET_INIT \
	PMBENCH_SCHEDULE_BUDGET_INIT_NS(PMBENCH_SCHEDULE_BUDGET_NS)

/**
 * How many times a PM whose turn costs `cost_ns` runs in a round whose
 * turns (one each) cost `round_ns` together, the slowest `slowest_ns`: 1
 * unless its turn is at most PMBENCH_SCHEDULE_REPEAT_SHORT of the
 * slowest; then 1 + floor(repeat_share * round_ns / cost_ns), so that
 * its repeats add at most that share of the round, and at most
 * repeat_max. 1 when a cost is 0 (not known).
 */
unsigned pmbench_schedule_repeats(uint64_t cost_ns, uint64_t round_ns,
				  uint64_t slowest_ns,
				  const struct pmbench_schedule_budget *o);

/**
 * Whether a paired ratio's 95 % interval [lo, hi] decides its verdict:
 * wholly above 1, wholly below 1, or wholly within the equivalence
 * margin [1 / (1 + margin), 1 + margin]. 0 when lo is not above 0.
 */
int pmbench_schedule_decided(double lo, double hi, double margin);

/**
 * The rounds more (a fraction) that would decide the verdict of a paired
 * ratio `point` whose interval after `rounds` rounds is [lo, hi]: 0 when
 * it is decided; else rounds * ((h / d)^2 - 1), at least 1, where h is
 * the interval's half-width and d the distance from the point to the
 * farther of the edges it could clear (1, or the margin's edge on its
 * side), both in log scale, since an interval narrows as one over the
 * square root of the rounds (claims.md's "runs needed"). -1 when the
 * interval is not known (point or lo not above 0).
 */
double pmbench_schedule_verdict_need(double point, double lo, double hi,
				     unsigned rounds, double margin);

/**
 * The rounds more (a fraction) that would bring a relative half-width
 * `half` after `rounds` rounds within `target`: rounds * ((half /
 * target)^2 - 1), 0 when it is within, -1 when `half` < 0 (not known).
 */
double pmbench_schedule_target_need(double half, unsigned rounds,
				    double target);

/** One cell (a PM of a scenario) as the budget's allocation sees it. */
struct pmbench_schedule_cell {
	size_t group;	  /**< its scenario: cells of one pair by round */
	int baseline;	  /**< the baseline: in every extra round */
	int excluded;	  /**< no ratio can come (no times, failures) */
	double half;	  /**< paired ratio's relative half-width; < 0: none */
	double point;	  /**< the paired ratio (when half >= 0) */
	double lo, hi;	  /**< its 95 % interval (when half >= 0) */
	uint64_t cost_ns; /**< its turn in a round, repeats included */
	int next;	  /**< out: takes part in the next round */
};

/**
 * The budget's rule, a pure function: which scenario gets the next
 * round, and who runs in it. A cell (neither the baseline nor excluded)
 * is *open* when its interval is not known or does not decide its
 * verdict (pmbench_schedule_decided()), *wide* when its half-width is
 * not known or above o->target. Groups (0 to groups - 1) with fewer than
 * o->max_runs rounds (`rounds[g]`) are looked at in four passes, the
 * first that finds one wins:
 *  1. open cells that the rounds `left_ns` buys, within max_runs, could
 *     decide (pmbench_schedule_verdict_need());
 *  2. wide cells that could come within the target in the same way;
 *  3. any open cell; 4. any wide cell.
 * A pass looks at a group's round only when it fits in `left_ns` (its
 * cost: `round_ns`, the control's and the rest, plus the turns of the
 * baseline and of the cells it runs: the open ones in passes 1 and 3,
 * the open and the wide in passes 2 and 4). In the open passes the
 * group whose open cell needs the least time to decide goes first (a
 * cell not known yet first of all), in the wide passes the one whose
 * widest cell is widest relative to the target; a tie goes to the
 * cheaper round. So rounds go where a verdict is still open before they
 * narrow a settled one, and never to what they cannot reach while
 * another they can waits. Sets `next` on the cells of that round (the
 * baseline and those the pass runs) and clears it on every other.
 * Returns the group, or -1 when every verdict is decided and every
 * ratio within the target, or no round fits (nothing is set then).
 */
long pmbench_schedule_allocate(struct pmbench_schedule_cell *cells, size_t nr,
			       const unsigned *rounds, size_t groups,
			       uint64_t round_ns,
			       const struct pmbench_schedule_budget *o,
			       uint64_t left_ns);

/**
 * About how long the rounds still need to settle every cell (decide its
 * verdict, bring it within the target), in the allocation's terms: per
 * group, the most rounds one of its open or wide cells needs (at most
 * up to o->max_runs) at the cost of its round (as in
 * pmbench_schedule_allocate()), summed. UINT64_MAX when a cell is not
 * known yet.
 */
uint64_t pmbench_schedule_need_ns(const struct pmbench_schedule_cell *cells,
				  size_t nr, const unsigned *rounds,
				  size_t groups, uint64_t round_ns,
				  const struct pmbench_schedule_budget *o);

/**
 * The further rounds pmbench_schedule_need_ns() counts, group by group:
 * group g (of `groups`) `most[g]` rounds (0: none, or no baseline to run;
 * -1: a cell of it is not known yet), and cell i (of `nr`) `runs[i]` 1
 * when it takes part in them (the baseline, the open and the wide cells),
 * for what those rounds leave in the trash (only these PMs run: on
 * todo-api a further round of npm and pnpm leaves a tenth of what a
 * whole round of the six does).
 */
void pmbench_schedule_need_rounds(const struct pmbench_schedule_cell *cells,
				  size_t nr, const unsigned *rounds,
				  size_t groups,
				  const struct pmbench_schedule_budget *o,
				  double *most, int *runs);

/**
 * The time the further rounds are expected to take, for the progress
 * line's ETA as rounds run (bench's and ci-cache's): what the cells
 * still need (pmbench_schedule_need_ns()) scaled by `overrun` (how much
 * longer the extra rounds took than their estimate so far, >= 1), at
 * most `left_ns`, what is left of the budget.
 */
uint64_t pmbench_schedule_eta_ns(const struct pmbench_schedule_cell *cells,
				 size_t nr, const unsigned *rounds,
				 size_t groups, uint64_t round_ns,
				 const struct pmbench_schedule_budget *o,
				 double overrun, uint64_t left_ns);

/** What the budget's plan knows of a group of rounds (a scenario). */
struct pmbench_schedule_costs {
	uint64_t round_ns; /**< a round of every PM, measured */
	uint64_t first_ns; /**< what its first rounds took (warm-ups) */
	unsigned done;	   /**< timed rounds run */
	/** rounds it runs at least (the budget's minimum, or --runs N) */
	unsigned min;
	/** rounds it may run at most: min for a fixed plan */
	unsigned max;
};

/** The plan: what is left to run, and what the whole command takes. */
struct pmbench_schedule_plan {
	uint64_t min_ns;   /**< the rounds to `min` not run yet */
	uint64_t extra_ns; /**< what further rounds are expected to take */
	/** the whole command: used + min_ns + tail + extra_ns */
	uint64_t end_ns;
	/** the smallest budget that holds the minimum: used + min + tail */
	uint64_t fit_ns;
	int fits; /**< fit_ns is within the budget */
};

/**
 * The plan, a pure function of the groups' measured costs: `used_ns` of
 * the budget spent so far, `tail_ns` what runs after the rounds, the
 * budget `budget_ns` (0: none, a fixed plan) and `need_ns` the time
 * the rounds still need to settle every cell
 * (pmbench_schedule_need_ns(); UINT64_MAX: not known, the further
 * rounds then fill the budget). Further rounds take what is left of the
 * budget after the minimum and the tail, at most `need_ns` and at most
 * every group's rounds up to `max`.
 */
void pmbench_schedule_plan_make(struct pmbench_schedule_plan *out,
				const struct pmbench_schedule_costs *g,
				size_t nr, uint64_t used_ns, uint64_t tail_ns,
				uint64_t budget_ns, uint64_t need_ns);

/**
 * Group `g` in a run of its own: its first rounds (first_ns) and the
 * rounds still to its minimum at its round's cost.
 */
uint64_t pmbench_schedule_fresh_ns(const struct pmbench_schedule_costs *g);

/**
 * What would fit a budget `budget_ns` in a run of its own with fewer
 * scenarios: the groups in `keep` (set or cleared), the cheapest first,
 * while each group's first rounds and minimum rounds (from its costs as
 * measured now) fit after `fixed_ns` (what came before any group: the
 * primings). Returns how many groups were kept (0: not even one fits).
 */
size_t pmbench_schedule_fit_groups(int *keep,
				   const struct pmbench_schedule_costs *g,
				   size_t nr, uint64_t fixed_ns,
				   uint64_t budget_ns);

/**
 * The same with fewer PMs: `pm_ns[g * pms + i]` is PM i's turn in
 * group g (repeats included); the costliest PMs are left out first,
 * never PM `base`, their share of each round and of `fixed_ns` (taken as
 * the same for every PM) off. `keep` gets the PMs kept. Returns how many
 * (0 when even the baseline and one other do not fit, or pms < 2).
 */
size_t pmbench_schedule_fit_pms(int *keep,
				const struct pmbench_schedule_costs *g,
				size_t nr, const uint64_t *pm_ns, size_t pms,
				size_t base, uint64_t fixed_ns,
				uint64_t budget_ns);

/**
 * Whether a command's rounds are the budget's (the one rule, for every
 * command that runs rounds): with `--runs auto` or `--budget` given;
 * else the command's default (`by_default`: bench, migrate and ci-cache,
 * not claim) unless `--runs N` fixes the plan or the run is a shard
 * (`sharded`: a shard's rounds are fixed).
 */
int pmbench_schedule_budgeted(int by_default, int runs_given, int runs_auto,
			      int budget_given, int sharded);

/**
 * One of a PM's cells, its interval [lo, hi] around `point` needing
 * `need` more rounds to decide its verdict, into `out`: that interval
 * kept when it needs the most rounds so far (`*most`; of two that need
 * as many, the wider), `out->half` the widest relative half-width.
 * pmbench_schedule_judge() and the prior's judges (prior.c) keep the
 * least settled of a PM's cells so.
 */
void pmbench_schedule_keep(struct pmbench_schedule_cell *out, double *most,
			   double point, double lo, double hi, double need);

/**
 * Cell `c` judged against the baseline's cell `b` (NULL: none) after
 * `rounds` rounds, into `out` (whose `baseline` says whether c is the
 * baseline's; set its half to 0 and `*most` to -1 before the first of a
 * PM's cells): `excluded` when c has no successful time, a failure or no
 * baseline; else its paired ratio's relative half-width (the widest of
 * the PM's cells) and interval (the one whose verdict needs the most
 * rounds, `*most`). Returns 1 when nothing more can be learnt of the PM
 * (excluded, or its interval not known: half -1), else 0.
 */
int pmbench_schedule_judge(struct pmbench_schedule_cell *out, double *most,
			   const struct pmbench_cell *c,
			   const struct pmbench_cell *b, unsigned rounds,
			   double margin, uint64_t seed);

/**
 * Why a cell's group stopped adding rounds, recorded in the cell's
 * "stopped_by" (pmbench_schedule_stop_name()): FAILURES when excluded,
 * PRECISION for the baseline or a decided verdict within the target,
 * MAX_RUNS at o->max_runs rounds, else TIME_BUDGET.
 */
enum pmbench_schedule_stop
pmbench_schedule_why(const struct pmbench_schedule_cell *c, unsigned rounds,
		     const struct pmbench_schedule_budget *o);

/**
 * The budget's knobs in the result (runs_auto, auto_*), and its minimum
 * rounds as `runs` until the rounds ran.
 */
void pmbench_schedule_record(struct pmbench_result *r,
			     const struct pmbench_schedule_budget *o);

/** A budgeted command's groups and PMs, as its words name them. */
struct pmbench_schedule_names {
	const char *const *labels; /**< per group, in the plan's words */
	const char *const *groups; /**< per group, as its option names it */
	const char *group_option;  /**< "--scenario", "--strategy" */
	const char *const *pms;	   /**< per PM */
	size_t pms_nr;
	size_t base;	       /**< the baseline's index in pms */
	const uint64_t *pm_ns; /**< group-major: PM i's turn in group g */
	uint64_t fixed_ns;     /**< the budget's time before any group */
	/** said after the further rounds (the trash's emptying), or NULL */
	const char *also;
	/**
	 * said last, before the first timed round: where the further
	 * rounds' time came from (pmbench_schedule_prior_words()), or NULL
	 */
	const char *prior;
};

/**
 * Where the first estimate's further rounds came from, into `out`
 * (prior.h's sources): "; the further rounds as this machine's earlier
 * results say its rounds vary (up to M:SS if they vary more)", or with
 * no result to go by "; no earlier result here says how much its
 * rounds vary: the further rounds may take less"; `upto_ns` the plan
 * with further rounds to the budget, `end_ns` this one's (nothing
 * "up to" when they differ by under a second); nothing when no cell
 * needed a prediction (SETTLED).
 */
void pmbench_schedule_prior_words(struct pmbench_buf *out, int source,
				  size_t pairs, uint64_t end_ns,
				  uint64_t upto_ns);

struct pmbench_buf;

/**
 * The groups of the plan in words, as what will run, into `out`: "2
 * groups: clean 5 rounds of 9.1 s, ..." before any timed round, "none 4
 * more rounds of 2.1 s" after one, "cache+lockfile 5 rounds run, 31.1 s
 * each" once a group's minimum ran. `labels`: one per group.
 */
void pmbench_schedule_plan_words(struct pmbench_buf *out,
				 const struct pmbench_schedule_costs *g,
				 size_t nr, const char *const *labels);

/**
 * Where the minimum does not fit `budget_ns`, what would, as options
 * into `out`: "--budget Nm" (plan->fit_ns, rounded up), then the groups
 * (pmbench_schedule_fit_groups()) and the PMs (_fit_pms()) that would fit
 * in a run of their own, each only when fewer than were asked. What the
 * plan needs beside the groups' own rounds and `n->fixed_ns` (the waits,
 * the tail) is taken off the budget they have.
 */
void pmbench_schedule_fit_words(struct pmbench_buf *out,
				const struct pmbench_schedule_plan *plan,
				const struct pmbench_schedule_costs *g,
				size_t nr,
				const struct pmbench_schedule_names *n,
				uint64_t budget_ns);

/**
 * Say the plan (`end_ns`: the whole command, from its start): "estimate`when`:
 * about M:SS in all ...: N groups: LABEL K rounds of S s, ..., then M:SS
 * of further rounds ..." as an event; before the first rounds (`when`
 * empty), when the minimum does not fit, a warning with what would
 * (pmbench_schedule_fit_groups() and _fit_pms(), as options).
 */
void pmbench_schedule_say(const struct pmbench_ctx *ctx, const char *when,
			  const struct pmbench_schedule_plan *plan,
			  uint64_t end_ns,
			  const struct pmbench_schedule_costs *g, size_t nr,
			  const struct pmbench_schedule_names *n,
			  const struct pmbench_schedule_budget *o);

/** A schedule: who takes part, how many rounds, what each turn does. */
struct pmbench_schedule {
	/** Cancellation, checked before every turn; may be NULL. */
	const struct pmbench_ctx *ctx;
	size_t nr;	 /**< participants */
	unsigned warmup; /**< warm-up rounds first */
	unsigned runs;	 /**< timed rounds */
	/**
	 * The number of the first round: rounds are numbered from it and
	 * rotate as if the earlier ones had run (ci-cache's hit jobs follow
	 * its miss job as rounds 1, 2, ...).
	 */
	unsigned first_round;
	pmbench_schedule_turn_cb turn;
	pmbench_schedule_round_cb round_done; /**< or NULL */
	void *payload;

	/**
	 * The result; may be NULL. Before the first round the schedule waits out the file system's inode reuse delay
	 * after pmbench's last large deletion (`ctx` needed), noted in its
	 * environment as "inode_reuse_wait".
	 */
	struct pmbench_result *result;

	/**
	 * `--shard K/N`: with `shards` > 0 only the timed rounds i (0-based
	 * among the `runs`) with i mod shards == shard - 1 run, numbered as
	 * in the whole plan, so N shards together have the plan's rounds;
	 * every shard runs all the warm-ups (its machine's own). Within a
	 * shard the order rotates by its own rounds, starting at shard - 1,
	 * so each machine sees every order.
	 */
	unsigned shard;
	unsigned shards;
	/**
	 * The control hook, or NULL: called at the start of every round
	 * (warm-ups too), before any participant's turn, to time work that
	 * is no participant's (bench's drift control, control.h). A
	 * negative return stops as for a turn.
	 */
	pmbench_schedule_round_cb round_start;
	/** If not NULL: gets the time the file-system wait took (ns). */
	uint64_t *waited_ns;
};

#define PMBENCH_SCHEDULE_INIT \
	{                     \
		.ctx = NULL   \
	}

/**
 * How many of `runs` timed rounds shard `shard` of `shards` runs (all of
 * them when shards is 0).
 */
unsigned pmbench_schedule_shard_runs(unsigned runs, unsigned shard,
				     unsigned shards);

/**
 * Which participant runs `k`-th in round `number` of `nr`: (k + number)
 * mod nr. 0 when nr is 0.
 */
size_t pmbench_schedule_order(size_t k, unsigned number, size_t nr);

/**
 * Run the schedule: warm-up rounds, then timed rounds, each giving every
 * participant one turn in the rotating order. Stops early when the
 * context is cancelled before a turn (PMBENCH_EINTERRUPTED), when a
 * callback returns a negative value (that value). Returns 0 when it ran
 * to its end.
 */
int pmbench_schedule_run(const struct pmbench_schedule *s);

/**
 * The name recorded in a cell's "stopped_by": "precision", "max-runs",
 * "time-budget", "failures", or NULL for CONTINUE.
 */
const char *pmbench_schedule_stop_name(enum pmbench_schedule_stop stop);

#endif
