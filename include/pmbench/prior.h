#ifndef PMBENCH_PRIOR_H
#define PMBENCH_PRIOR_H

#include <stddef.h>
#include <stdint.h>

#include "pmbench/result.h"

struct pmbench_schedule_cell;

/**
 * The budget's prior: how much this machine's rounds vary, from its
 * earlier results, for the estimate made before the first timed round.
 *
 * Before it a warm-up is one sample of each PM: it tells what a round
 * costs but not how many rounds the verdicts will need, so the plan
 * used to hold the whole budget for further rounds, and a migrate or
 * ci-cache whose verdicts settled in their first rounds ended 30-50 %
 * before its estimate (2026-12-06). The earlier results in pmbench's
 * results folder (where a command without --out writes) say how wide
 * each pair's paired interval was after how many rounds; an interval
 * narrows as one over the square root of the rounds, so that width,
 * scaled to the minimum rounds, is the prediction, and
 * pmbench_schedule_need_ns() turns it into the further rounds' time:
 *
 *  - the same pair (fixture, task, scenario, PM and baseline) in the
 *    newest earlier results that have it (PMBENCH_PRIOR_SAME_RESULTS at
 *    most): the median of their intervals' widths, the newest's ratio;
 *  - else this machine's spread (the median over every pair of the
 *    results read) around the ratio the warm-ups measured now;
 *  - else nothing: the further rounds may take the rest of the budget.
 */
struct pmbench_prior {
	struct pmbench_result *results; /**< by `created`, newest first */
	size_t nr;
	/**
	 * This machine's spread: the median, over every pair of the
	 * results with 3 rounds or more, of its interval's half-width in
	 * log scale times the square root of its rounds; < 0: none
	 */
	double spread;
	/**
	 * The same spreads' sixth and five-sixths quantiles, where three
	 * samples' lowest and highest sit (what `pick` -1 and 1 take when
	 * the same pair is not there)
	 */
	double spread_lo, spread_hi;
	size_t pairs; /**< the pairs it is the median of */
	int measured; /**< spread and pairs worked out (when first needed) */
	/**
	 * Which of the same pair's spreads pmbench_prior_judge() takes:
	 * 0 their median, -1 the lowest, 1 the highest (see
	 * PMBENCH_PRIOR_PICKS); of the machine's: its median, spread_lo,
	 * spread_hi.
	 */
	int pick;
};

#define PMBENCH_PRIOR_INIT                             \
	{                                              \
		.results = NULL, .nr = 0, .spread = -1 \
	}

/**
 * The estimate before the first timed round is the mean of the further
 * rounds' time at each of these picks, every pair at once (a noisy
 * spell widens them all): an expected time, not the time at the median.
 * The rounds a pair needs are zero below the target's width and grow
 * as its square above it, so the time at the median spread is zero
 * exactly when the spread is near the target: in the trio of
 * 2026-12-06 (trio 10) migrate's three earlier results said no further
 * round and the rounds ran to the budget (−39 %).
 */
#define PMBENCH_PRIOR_PICKS 3
extern const int pmbench_prior_picks[PMBENCH_PRIOR_PICKS];

/** How many of the newest result files pmbench_prior_load() reads. */
#define PMBENCH_PRIOR_FILES 8
/**
 * How many results of the same pair give its spread: the trio of
 * 2026-12-06 took 1 and 2 further rounds of migrate after a result that
 * had needed 1, and 3 to 12 of ci-cache's.
 */
#define PMBENCH_PRIOR_SAME_RESULTS 3

/**
 * Read into `p` (PMBENCH_PRIOR_INIT) the `most` newest (by mtime)
 * `*.json` results of any kind in `dir` (not its sub-folders) whose
 * `created` is before `before` (s since 1970: the command's own result
 * and any later one are left out), ordered by `created`
 * (result/prior_load.c: the command line reads them, and hands them to
 * the engine as its context's `prior`).
 * Never fails: a file that is no result, unreadable or over 64 MiB is
 * left out, and a missing folder gives an empty prior.
 */
void pmbench_prior_load(struct pmbench_prior *p, const char *dir,
			int64_t before, size_t most);

/** Free it; `p` is left as PMBENCH_PRIOR_INIT. */
void pmbench_prior_release(struct pmbench_prior *p);

/** Where a cell's prediction came from (the weakest of a PM's cells). */
enum pmbench_prior_source {
	/* 0: no prior asked for (pmbench_schedule_prior_words() says none) */
	PMBENCH_PRIOR_NONE = 1, /**< not known: no result to go by */
	PMBENCH_PRIOR_MACHINE,	/**< the machine's spread, today's ratio */
	PMBENCH_PRIOR_SAME,	/**< the same pair's earlier result */
	PMBENCH_PRIOR_SETTLED	/**< baseline or excluded: nothing needed */
};

struct pmbench_trash_pace;

/**
 * A command's further rounds at one pick of the prior (`p->pick` set):
 * `judge` judges its cells as pmbench_prior_judge() predicts them and
 * returns the weakest source, with `*need_ns` the further rounds' time
 * they need (pmbench_schedule_need_ns(); UINT64_MAX: not known); `pace`
 * gives what `need_ns` of them leave in the trash.
 */
struct pmbench_prior_view {
	enum pmbench_prior_source (*judge)(void *payload,
					   struct pmbench_prior *p,
					   uint64_t *need_ns);
	struct pmbench_trash_pace (*pace)(void *payload, uint64_t need_ns);
};

/**
 * The expected further rounds before the first timed round: the mean of
 * their time over the picks (PMBENCH_PRIOR_PICKS), and in `pace` of
 * what they leave in the trash; UINT64_MAX (and `pace` zero) when a
 * cell's source is NONE or a pick's need is not known. `src` gets the
 * weakest source; `p->pick` is left 0, the cells as the last pick, the
 * median, judges them.
 */
uint64_t pmbench_prior_expect(struct pmbench_prior *p,
			      const struct pmbench_prior_view *v, void *payload,
			      enum pmbench_prior_source *src,
			      struct pmbench_trash_pace *pace);

/**
 * Cell `c` against its baseline's `b` as pmbench_schedule_judge() will
 * see it after `rounds` rounds, predicted from `p`, into `out` (whose
 * `baseline` the caller set; `*most` -1 before the first of a PM's
 * cells): excluded when c or b has no successful run yet or c a
 * failure; else the interval of the source above (the machine's spread
 * worked out the first time it is needed), centred on its ratio
 * (the same pair's, or median(c) / median(b) of the runs so far,
 * warm-ups included), the least settled of a PM's cells kept. Returns
 * the source; NONE leaves out->half at -1 (not known).
 */
enum pmbench_prior_source pmbench_prior_judge(struct pmbench_schedule_cell *out,
					      double *most,
					      struct pmbench_prior *p,
					      const struct pmbench_cell *c,
					      const struct pmbench_cell *b,
					      unsigned rounds, double margin);

/**
 * pmbench_schedule_judge() for the estimates made as the rounds run
 * (the one after the first rounds, the progress line's ETA), never for
 * the allocation or a verdict: where `p` has the same pair (as in
 * pmbench_prior_judge()), the interval's width is the rounds' own
 * spread pooled with that pair's, which counts as the rounds of the
 * earlier results it is from (the variances weighted by rounds, as a
 * pooled variance), around the rounds' own ratio; else the rounds' own
 * interval. Returns as pmbench_schedule_judge().
 *
 * Five rounds' interval is itself noisy: after the first rounds, the
 * estimates of 2026-12-06 from it alone said 8:00 for a migrate that
 * took 4:45 (+69 %) and 10:54 for a ci-cache that took 7:34 (+44 %);
 * pooled with the earlier spread counted as five rounds, the migrate's
 * said 8:00 against 5:28 (one slow pnpm run in the five).
 */
int pmbench_prior_judge_now(struct pmbench_schedule_cell *out, double *most,
			    struct pmbench_prior *p,
			    const struct pmbench_cell *c,
			    const struct pmbench_cell *b, unsigned rounds,
			    double margin, double target, uint64_t seed);

/**
 * The interval's half-width in log scale times the square root of its
 * rounds for cell `c` against `b` (rounds paired, 3 at least), its
 * ratio in `*point`; -1 when there is none.
 */
double pmbench_prior_spread_of(double *point, const struct pmbench_cell *c,
			       const struct pmbench_cell *b, uint64_t seed);

/**
 * What one run of PM `pm` in the group (fixture, task, scenario) cost
 * beyond its own wall time, in s, in the newest earlier result that has
 * 2 timed runs of it in the group's minimum rounds (which run back to
 * back): the median gap from the end of the run before it in time (of
 * any PM of the group, or the drift control, in its round or the one
 * before) to its start: its reset to the state, the sync, pmbench's own
 * work between runs. -1 when none has it.
 *
 * A warm-up is a poor guide to it: the first reset after the priming
 * has little to undo, so a warm-up turn of pnpm or bun on a 566-package
 * app cost about 1 s where its timed turns cost 4 (2026-12-06), and a
 * round planned from the warm-ups at 17.7 s took 33.
 */
double pmbench_prior_run_overhead(const struct pmbench_prior *p,
				  const char *fixture, const char *task,
				  const char *scenario, const char *pm);

/**
 * What one run of PM `pm` left in pmbench's trash in the group
 * (fixture, task, scenario), in the newest earlier result whose timed
 * runs of the group's minimum rounds have it (2 at least; the sample
 * metrics trash_bytes and trash_files_count): their mean, into `bytes`
 * and `files`. Returns 0, or -1 when none has it.
 *
 * A warm-up is a poor guide to it too: the first reset after the
 * priming puts the state's cache and node_modules in place, so npm's
 * warm-up turn in cache+lockfile left 51 MB and yarn's 453 MB where
 * their timed turns leave 31 and 25 (todo-api, 2026-12-06), and a plan
 * from the warm-ups saw the trash 2.7 GB fuller after the minimum
 * rounds than it was.
 */
int pmbench_prior_run_trash(const struct pmbench_prior *p, const char *fixture,
			    const char *task, const char *scenario,
			    const char *pm, double *bytes, double *files);

#endif
