#ifndef PMBENCH_STATS_H
#define PMBENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

/**
 * Statistics for noisy machines: descriptive summaries, a seeded RNG,
 * percentile-bootstrap intervals for a median and a ratio of medians,
 * Mann-Whitney U, and outliers by the modified z-score. All functions are
 * deterministic given the RNG state; none keeps global state.
 */

/** Descriptive statistics of one sample. */
struct pmbench_summary {
	size_t n;
	double mean;
	double sd; /**< sample standard deviation (n - 1); 0 when n < 2 */
	double median;
	double min;
	double max;
	double q1;  /**< 25 % quantile, linear interpolation (type 7) */
	double q3;  /**< 75 % quantile */
	double mad; /**< median absolute deviation (unscaled) */
};

/**
 * Fill `out` from `x[0..n)`; n == 0 gives all zeros. `x` is not changed.
 * The values must not be NaN (here and in every function below).
 */
void pmbench_stats_summary(struct pmbench_summary *out, const double *x,
			   size_t n);

/** Median of `x[0..n)` (mean of the middle two for even n); 0 if n == 0. */
double pmbench_stats_median(const double *x, size_t n);

/**
 * Quantile p in [0,1] of an ascending `sorted[0..n)`, type 7 (linear
 * interpolation between order statistics; p outside [0,1] is clamped).
 * Returns 0 if n == 0.
 */
double pmbench_stats_quantile(const double *sorted, size_t n, double p);

/** Sort `x[0..n)` ascending, in place, by numeric comparison. */
void pmbench_stats_sort(double *x, size_t n);

/** xoshiro256** seeded through splitmix64. */
struct pmbench_rng {
	uint64_t s[4];
};

/** Seed `rng`: any seed, 0 included, gives a valid state. */
void pmbench_rng_seed(struct pmbench_rng *rng, uint64_t seed);
/** The next 64 uniformly random bits. */
uint64_t pmbench_rng_next(struct pmbench_rng *rng);
/** Uniform integer in [0, n), unbiased (rejection); n > 0 (n == 0 gives 0). */
uint64_t pmbench_rng_below(struct pmbench_rng *rng, uint64_t n);

/** A point estimate with a confidence interval. */
struct pmbench_interval {
	double point;
	double lo;
	double hi;
};

/**
 * Percentile-bootstrap interval at `level` (e.g. 0.95) for the median of
 * `x`, from `resamples` resamples. `out->point` is the median of `x`;
 * `lo` and `hi` are the type 7 quantiles (1 - level) / 2 and
 * (1 + level) / 2 of the resampled medians. The result depends only on
 * the data and the RNG state, which advances. n == 0, level outside
 * (0, 1) or resamples == 0 is an error (-1); n == 1 gives a zero-width
 * interval. Cost is O(resamples * n).
 */
int pmbench_stats_bootstrap_median(struct pmbench_interval *out,
				   const double *x, size_t n, double level,
				   unsigned resamples, struct pmbench_rng *rng);

/**
 * Hierarchical (two-stage) bootstrap interval for the median of `x`
 * whose values come in blocks (the machines of a merged result):
 * `block[i]` names the block of x[i] (any numbers; equal means the same
 * block). Each resample draws as many blocks as there are, with
 * replacement, then within each drawn block as many of its values as it
 * has, with replacement, and takes the median of the pool; `lo` and `hi`
 * are the percentile interval of those medians and `out->point` the
 * median of `x`. Blocks that differ widen the interval, which a
 * bootstrap of the pooled values hides; one block gives the ordinary
 * bootstrap's distribution. Fails (-1) as pmbench_stats_bootstrap_median()
 * does. `out_blocks`, if not NULL, gets the number of distinct blocks.
 * Cost is O(resamples * n).
 */
int pmbench_stats_bootstrap_median_blocks(struct pmbench_interval *out,
					  size_t *out_blocks, const double *x,
					  const unsigned *block, size_t n,
					  double level, unsigned resamples,
					  struct pmbench_rng *rng);

/**
 * Percentile-bootstrap interval for median(a) / median(b), resampling a
 * and b independently; `out->point` is the ratio for the original data.
 * Because the resamples are independent, the interval is zero-width only
 * when both samples are constant. Fails (-1) if either is empty, on the
 * same bad `level` or `resamples` as above, or if the median of b or of
 * any resample of b is 0.
 */
int pmbench_stats_bootstrap_ratio(struct pmbench_interval *out, const double *a,
				  size_t na, const double *b, size_t nb,
				  double level, unsigned resamples,
				  struct pmbench_rng *rng);

/**
 * Paired percentile-bootstrap interval for the ratio a / b of times
 * taken in the same rounds: a[i] and b[i] come from round i. The
 * statistic is the median of the per-round ratios a[i] / b[i], and the
 * resamples draw whole rounds, so a drift of the machine that slows
 * both sides of a round alike cancels out of every ratio (the
 * independent interval of pmbench_stats_bootstrap_ratio() widens with
 * it instead). `out->point` is the median of the n ratios. Fails (-1)
 * when n == 0, on a bad `level` or `resamples`, or when some b[i] is 0.
 */
int pmbench_stats_bootstrap_paired_ratio(struct pmbench_interval *out,
					 const double *a, const double *b,
					 size_t n, double level,
					 unsigned resamples,
					 struct pmbench_rng *rng);

/** The DNS resolver's retry timeout that stalls show as (glibc's). */
#define PMBENCH_STATS_STALL_PERIOD 5.0
/** How far from a whole multiple of the period a stalled time may be. */
#define PMBENCH_STATS_STALL_SLACK 0.3

/**
 * The slack for a cell whose fastest time is `min` seconds: a slower
 * base time varies more from run to run, so 15 % of it, from
 * PMBENCH_STATS_STALL_SLACK up to a fifth of the period (1 s). pnpm's
 * live cold installs here, 6.2, 10.6, 15.4, 15.6 and 15.9 s, sit within
 * 0.8 s of 6.2 s + k * 5 s.
 */
double pmbench_stats_stall_slack(double min);

/**
 * The resolver-stall rule: the samples of one cell sit on the lattice
 * min + k * `period` (k = 0, 1, 2, ...), each within `slack` of it, and
 * at least one has k >= 1. That is what a lookup that times out and is
 * retried after `period` seconds (glibc: 5 s per attempt) looks like: a
 * fast base time plus whole timeouts, with little spread; a genuinely
 * slow cell spreads off the lattice. Returns how many samples sit at k
 * >= 1 when every sample is on the lattice, else 0 (also when n < 2,
 * or period or slack is not positive). `out_kmax`, if not NULL, gets
 * the largest k (0 when the rule does not apply).
 */
size_t pmbench_stats_stalls(const double *x, size_t n, double period,
			    double slack, unsigned *out_kmax);

/** Two-sided Mann-Whitney U test. */
struct pmbench_mwu {
	double u; /**< U of sample a */
	/** normal approximation with tie and continuity corrections */
	double z;
	double p;  /**< two-sided p-value (exact when small and tie-free) */
	int exact; /**< 1 if p comes from the exact distribution */
};

/**
 * The smallest two-sided p-value the Mann-Whitney test can give for
 * samples of these sizes, 2 / C(na + nb, na) (capped at 1): with 3 runs
 * against 3 it is 0.1, so no difference can be significant at 0.05,
 * however large. 1 when either size is 0.
 */
double pmbench_stats_mwu_min_p(size_t na, size_t nb);

/** Largest sample size for which the exact distribution of U is used. */
#define PMBENCH_STATS_MWU_EXACT_MAX 20

/**
 * Two-sided Mann-Whitney U test of a against b. Ties get midranks and
 * U = R_a - na (na + 1) / 2, so U counts the pairs with a_i > b_j (ties
 * count one half). If na and nb are both at most
 * PMBENCH_STATS_MWU_EXACT_MAX and there are no ties, p is exact:
 * min(1, 2 min(P(U <= u), P(U >= u))). Otherwise p comes from `z`, the
 * normal approximation with tie-corrected variance and a continuity
 * correction (z is 0 and p is 1 when every value is tied). Fails (-1) if
 * either sample is empty.
 */
int pmbench_stats_mann_whitney(struct pmbench_mwu *out, const double *a,
			       size_t na, const double *b, size_t nb);

/**
 * Flag outliers: flags[i] = 1 where |0.6745 (x_i - median) / MAD| exceeds
 * `threshold` (3.5 is Iglewicz and Hoaglin's), else 0. MAD == 0 flags only
 * values that differ from the median. `flags` may be NULL to only count.
 * Returns the number flagged.
 */
size_t pmbench_stats_outliers(unsigned char *flags, const double *x, size_t n,
			      double threshold);

/** Standard normal CDF, computed through erfc(). */
double pmbench_stats_norm_cdf(double z);

/**
 * Inverse CDF of Student's t with `df` degrees of freedom (df > 0, not
 * necessarily an integer; df == INFINITY gives the normal quantile),
 * accurate to about 1e-9 relative. p == 0 gives -INFINITY, p == 1 gives
 * INFINITY; p outside [0, 1], a NaN, or df <= 0 gives NAN.
 */
double pmbench_stats_t_quantile(double p, double df);

/**
 * Student-t confidence interval at `level` (e.g. 0.95) for the mean of
 * `x`: mean +- t((1 + level) / 2, n - 1) sd / sqrt(n). n == 0 or level
 * outside (0, 1) is an error (-1). n == 1 gives a zero-width interval at
 * x[0], like the bootstrap functions; callers that care should check n.
 */
int pmbench_stats_mean_ci(struct pmbench_interval *out, const double *x,
			  size_t n, double level);

/**
 * Spearman rank correlation of the pairs (x[i], y[i]): the Pearson
 * correlation of their midranks, in [-1, 1]. Returns 0 when n < 2 or
 * either sample is constant (the correlation is undefined there). Used to
 * detect drift, with x the run index and y the time.
 */
double pmbench_stats_spearman(const double *x, const double *y, size_t n);

/** What a comparison of two samples of times concluded. */
enum pmbench_verdict {
	PMBENCH_VERDICT_SAME = 0, /**< no significant difference */
	PMBENCH_VERDICT_FASTER,	  /**< a is significantly faster than b */
	PMBENCH_VERDICT_SLOWER	  /**< a is significantly slower than b */
};

/** Two samples of times compared: ratio, test and verdict. */
struct pmbench_comparison {
	struct pmbench_interval ratio; /**< median(a) / median(b), bootstrap */
	struct pmbench_mwu mwu;	       /**< Mann-Whitney U of a against b */
	enum pmbench_verdict verdict;
};

/**
 * Compare the times `a` with the times `b`: the ratio of medians
 * median(a) / median(b) with its percentile-bootstrap interval at `level`
 * (pmbench_stats_bootstrap_ratio()), and the two-sided Mann-Whitney test.
 * The verdict is FASTER (a takes less time) when p < `alpha` and the
 * whole interval is below 1, SLOWER when p < `alpha` and the whole
 * interval is above 1, and SAME ("no significant difference") otherwise:
 * both the test and the interval must agree. Fails (-1) as the two
 * functions it calls do.
 */
int pmbench_stats_compare(struct pmbench_comparison *out, const double *a,
			  size_t na, const double *b, size_t nb, double level,
			  unsigned resamples, double alpha,
			  struct pmbench_rng *rng);

/**
 * How many runs would shrink an interval of width `width`, measured with
 * `n` runs, to `target`: ceil(n (width / target)^2), since an interval
 * narrows like 1 / sqrt(n). Returns n when the width is already at most
 * the target, and 0 when n == 0 or target <= 0. Saturates at ULONG_MAX
 * / 2. Use the same scale for both widths (seconds, or log ratios).
 */
unsigned long pmbench_stats_runs_needed(size_t n, double width, double target);

#endif
