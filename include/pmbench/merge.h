#ifndef PMBENCH_MERGE_H
#define PMBENCH_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "pmbench/result.h"

/**
 * `pmbench merge`: the shards of one plan (or whole runs of it) pooled
 * into one result. The samples of each cell are pooled; each keeps the
 * machine it ran on (`machine`, an index into the merged result's
 * `machines`: one per distinct host_hash, cpu_model and kernel of the
 * shards' environments, so two shards on one machine are one machine and
 * a shard without host_hash is a machine of its own). Statistics of a
 * merged cell resample machines first, then runs within them
 * (pmbench_stats_bootstrap_median_blocks()).
 */

/**
 * Check that `in[0..n)` (named `names[i]`, for messages) belong to one
 * plan and pool them into `out` (PMBENCH_RESULT_INIT; the caller
 * releases it, also on error). Refused with PMBENCH_EINVALID and one line
 * naming the field and both files: a different number of shards ("of"),
 * options (pms, scenarios, tasks, runs, warmup, timeout_s, runs_auto),
 * fixtures or their commits, a PM's version, the plan id, or a shard
 * given twice. The merged result keeps the first input's header and
 * environment (with "merged" saying how many shards and machines), the
 * plan id and `of`, no `shard`; its samples are ordered by round.
 */
int pmbench_merge(struct pmbench_result *out, const struct pmbench_result *in,
		  const char *const *names, size_t n);

/**
 * The machine of each time pmbench_cell_times() gives for `c`, in the
 * same order, in a new array (free() it; never NULL). *out_distinct gets
 * how many distinct machines there are (0 when no sample has one).
 */
unsigned *pmbench_cell_machines(const struct pmbench_cell *c, size_t *out_n,
				size_t *out_distinct);

/** What the machines do to one merged cell's median. */
struct pmbench_machine_effect {
	size_t machines;    /**< distinct machines with times */
	double fastest;	    /**< the lowest per-machine median (s) */
	double slowest;	    /**< the highest per-machine median (s) */
	unsigned fastest_m; /**< their machine indices (1-based) */
	unsigned slowest_m;
	double median;		 /**< of the pooled times */
	double lo, hi;		 /**< 95 % interval, machines resampled */
	double runs_lo, runs_hi; /**< 95 % interval over the pooled runs */
};

/**
 * The machine effect of cell `c` of a merged result: per-machine
 * medians and both intervals (2000 resamples each, seeded with `seed`).
 * Returns 1 when the cell has times from at least two machines, else 0
 * (and *out is zeroed).
 */
int pmbench_merge_machine_effect(struct pmbench_machine_effect *out,
				 const struct pmbench_cell *c, uint64_t seed);

#endif
