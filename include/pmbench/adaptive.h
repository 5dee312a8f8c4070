#ifndef PMBENCH_ADAPTIVE_H
#define PMBENCH_ADAPTIVE_H

#include <stddef.h>
#include <stdint.h>

/**
 * `--runs auto`: when to stop adding rounds to a scenario. The decision
 * is a pure function of the samples so far, so it is unit-tested apart
 * from the benchmark loop that calls it after every round.
 */

/** Why a scenario stopped (or that it goes on). */
enum pmbench_adaptive_stop {
	PMBENCH_ADAPTIVE_CONTINUE = 0,
	PMBENCH_ADAPTIVE_PRECISION,   /**< every interval is narrow enough */
	PMBENCH_ADAPTIVE_MAX_RUNS,    /**< the maximum number of runs */
	PMBENCH_ADAPTIVE_TIME_BUDGET, /**< the scenario's time budget */
	PMBENCH_ADAPTIVE_FAILURES     /**< no cell has a successful run */
};

/** The knobs of `--runs auto`. */
struct pmbench_adaptive_opts {
	/** target relative half-width of the median's 95 % interval */
	double target;
	unsigned min_runs; /**< never stop on precision or time before this */
	unsigned max_runs; /**< stop at this many timed rounds */
	uint64_t budget_ns; /**< stop once a scenario has taken this long */
	uint64_t seed;	    /**< seed of the bootstrap */
};

#define PMBENCH_ADAPTIVE_DEFAULT_TARGET 0.05
#define PMBENCH_ADAPTIVE_DEFAULT_MIN_RUNS 5
#define PMBENCH_ADAPTIVE_DEFAULT_MAX_RUNS 30
#define PMBENCH_ADAPTIVE_DEFAULT_BUDGET_NS (10ull * 60ull * 1000000000ull)

#define PMBENCH_ADAPTIVE_OPTS_INIT                                          \
	{ PMBENCH_ADAPTIVE_DEFAULT_TARGET,                                  \
	  PMBENCH_ADAPTIVE_DEFAULT_MIN_RUNS,                                \
	  PMBENCH_ADAPTIVE_DEFAULT_MAX_RUNS,                                \
	  PMBENCH_ADAPTIVE_DEFAULT_BUDGET_NS, 1 }

/**
 * Decide after `rounds` timed rounds of a scenario that has run for
 * `elapsed_ns`. `times[i][0..n[i])` are the successful times of cell i
 * (any unit); cells with n[i] == 0 (every run failed) are left out of the
 * precision test. In this order:
 *  - fewer than min_runs rounds: CONTINUE;
 *  - no cell has a time: FAILURES;
 *  - every cell with times has at least 3 of them and the half-width of
 *    its median's bootstrap 95 % interval (2000 resamples, seeded with
 *    `seed`) is at most target * median: PRECISION;
 *  - rounds >= max_runs: MAX_RUNS;
 *  - elapsed_ns >= budget_ns: TIME_BUDGET;
 *  - else CONTINUE.
 * `out_worst`, if not NULL, gets the largest relative half-width found (0
 * when none was computed).
 */
enum pmbench_adaptive_stop
pmbench_adaptive_check(const struct pmbench_adaptive_opts *o,
		       const double *const *times, const size_t *n,
		       size_t cells, unsigned rounds, uint64_t elapsed_ns,
		       double *out_worst);

/**
 * The name recorded in a cell's "stopped_by": "precision", "max-runs",
 * "time-budget", "failures", or NULL for CONTINUE.
 */
const char *pmbench_adaptive_name(enum pmbench_adaptive_stop stop);

struct pmbench_result;

/**
 * Run pmbench_adaptive_check() on the cells of one (fixture, task,
 * scenario) of `r` and, when it says stop, record the reason in each of
 * those cells' `stopped_by`. Returns 1 to stop, 0 to go on.
 */
int pmbench_adaptive_scenario(struct pmbench_result *r,
			      const struct pmbench_adaptive_opts *o,
			      const char *fixture, const char *task,
			      const char *scenario, unsigned rounds,
			      uint64_t elapsed_ns);

#endif
