#ifndef PMBENCH_CLAIM_H
#define PMBENCH_CLAIM_H

#include <stddef.h>
#include <stdint.h>

#include "pmbench/stats.h"

/**
 * Claims such as "bun install is 20x faster than npm install": parsing,
 * and the verdict the measured times give them. See README.md ("Checking
 * a claim") for the rule.
 */

/** Which comparison a claim makes. */
enum pmbench_claim_kind {
	PMBENCH_CLAIM_FASTER, /**< "<a> is N x faster than <b>" */
	PMBENCH_CLAIM_SLOWER, /**< "<a> is N x slower than <b>" */
	PMBENCH_CLAIM_SAME    /**< "<a> is as fast as <b>" */
};

/** A parsed claim about side a against side b. */
struct pmbench_claim {
	char *pm_a;
	char *task_a;
	char *pm_b;
	char *task_b;
	enum pmbench_claim_kind kind;
	double factor; /**< N as written; 1 for "as fast as" */
};

#define PMBENCH_CLAIM_INIT                              \
	{                                               \
		.kind = PMBENCH_CLAIM_SAME, .factor = 1 \
	}

/**
 * Parse `<pm> [<task>] is <N>x faster than <pm> [<task>]`, also "slower
 * than" and "as fast as". N may be a decimal, from 0.000001 to 1000000,
 * and "20x", "20 x", "20×", "20 times" are the same. Case does not matter; a final '.' is ignored;
 * a missing task is "install". The PMs must be known to pmbench and the
 * tasks names of the task table (task.h). Returns 0, or PMBENCH_EINVALID
 * with a message that says what was expected where.
 */
int pmbench_claim_parse(struct pmbench_claim *out, const char *text);

/** Free the strings; `c` is left as PMBENCH_CLAIM_INIT. */
void pmbench_claim_release(struct pmbench_claim *c);

/**
 * The claimed speed-up of a over b: time(b) / time(a). N for "faster",
 * 1 / N for "slower", 1 for "as fast as".
 */
double pmbench_claim_speedup(const struct pmbench_claim *c);

/** Append the claim in its canonical wording. */
struct pmbench_buf;
void pmbench_claim_describe(struct pmbench_buf *out,
			    const struct pmbench_claim *c);

/**
 * What the data say about a claim, in the claim's own direction (the
 * factor it names: a speed-up for "faster", a slow-down for "slower",
 * a's speed-up for "as fast as").
 */
enum pmbench_claim_verdict {
	PMBENCH_CLAIM_REPRODUCED,
	PMBENCH_CLAIM_SHORT,	/**< clearly less than claimed */
	PMBENCH_CLAIM_EXCEEDED, /**< clearly more than claimed */
	PMBENCH_CLAIM_INCONCLUSIVE,
};

/** A verdict with the figures behind it. */
struct pmbench_claim_judgement {
	enum pmbench_claim_verdict verdict;
	/** measured time(b) / time(a), ratio of medians, bootstrap 95 % */
	struct pmbench_interval speedup;
	double band_lo, band_hi; /**< claimed speed-up ± tolerance */
	double p;		 /**< Mann-Whitney, two-sided */
	/**
	 * Inconclusive only: runs per side that would likely settle it
	 * (0 when no number of runs can: the estimate sits on a band edge).
	 */
	unsigned long runs_needed;
	/**
	 * 1 when `speedup` is the paired interval (pmbench_claim_judge_paired():
	 * `rounds` complete rounds), 0 for the independent one.
	 */
	int paired;
	size_t rounds;
};

/**
 * Judge a claim from the times of side a (`a[0..na)`) and side b. With S
 * the claimed speed-up and t the relative `tolerance` (e.g. 0.1), the
 * band is [S / (1 + t), S (1 + t)]; the 95 % bootstrap interval of the
 * measured speed-up (2000 resamples seeded with `seed`) gives:
 *  - REPRODUCED when the interval lies inside the band;
 *  - EXCEEDED when it lies wholly outside, on the side of a larger
 *    factor than claimed (above the band for "faster" and "as fast
 *    as", below it for "slower"), SHORT on the other side;
 *  - INCONCLUSIVE when it straddles an edge of the band. runs_needed is
 *    then n (h / d)^2, with n the smaller side, h the interval's
 *    half-width and d the distance from the estimate to the nearest band
 *    edge, both in log scale: the runs after which the interval would
 *    probably lie on one side of that edge.
 * Fails (-1) when either side is empty or a median is 0.
 */
int pmbench_claim_judge(struct pmbench_claim_judgement *out,
			const struct pmbench_claim *c, const double *a,
			size_t na, const double *b, size_t nb, double tolerance,
			uint64_t seed);

/**
 * pmbench_claim_judge() for times taken in the same rounds: a[i] and
 * b[i] ran in round i, and the speed-up's interval is the paired one
 * (pmbench_stats_bootstrap_paired_ratio(): the median of the per-round
 * ratios b[i] / a[i], whole rounds resampled), which a drift of the
 * machine during the benchmark does not widen. The band, verdict and
 * runs_needed (with n rounds) are as there; `paired` is set. Fails (-1)
 * when n == 0 or some a[i] is 0.
 */
int pmbench_claim_judge_paired(struct pmbench_claim_judgement *out,
			       const struct pmbench_claim *c, const double *a,
			       const double *b, size_t n, double tolerance,
			       uint64_t seed);

/** "reproduced", "short", "exceeded" or "inconclusive". */
const char *pmbench_claim_verdict_name(enum pmbench_claim_verdict v);

#endif
