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
	double q1; /**< 25 % quantile, linear interpolation (type 7) */
	double q3; /**< 75 % quantile */
	double mad; /**< median absolute deviation (unscaled) */
};

/** Fill `out` from `x[0..n)`; n == 0 gives all zeros. `x` is not changed. */
void pmbench_stats_summary(struct pmbench_summary *out, const double *x,
			   size_t n);

/** Median of `x[0..n)` (mean of the middle two for even n); 0 if n == 0. */
double pmbench_stats_median(const double *x, size_t n);

/** Quantile p in [0,1] of an ascending `sorted[0..n)`, type 7. */
double pmbench_stats_quantile(const double *sorted, size_t n, double p);

/** Sort ascending (numeric). */
void pmbench_stats_sort(double *x, size_t n);

/** xoshiro256** seeded through splitmix64. */
struct pmbench_rng {
	uint64_t s[4];
};

void pmbench_rng_seed(struct pmbench_rng *rng, uint64_t seed);
uint64_t pmbench_rng_next(struct pmbench_rng *rng);
/** Uniform integer in [0, n), unbiased; n > 0. */
uint64_t pmbench_rng_below(struct pmbench_rng *rng, uint64_t n);

/** A point estimate with a confidence interval. */
struct pmbench_interval {
	double point;
	double lo;
	double hi;
};

/**
 * Percentile-bootstrap interval at `level` (e.g. 0.95) for the median of
 * `x`, from `resamples` resamples. n == 0 is an error (-1); n == 1 gives
 * a zero-width interval.
 */
int pmbench_stats_bootstrap_median(struct pmbench_interval *out,
				   const double *x, size_t n, double level,
				   unsigned resamples, struct pmbench_rng *rng);

/**
 * Percentile-bootstrap interval for median(a) / median(b), resampling a
 * and b independently. Fails (-1) if either is empty or a median of b is 0.
 */
int pmbench_stats_bootstrap_ratio(struct pmbench_interval *out,
				  const double *a, size_t na, const double *b,
				  size_t nb, double level, unsigned resamples,
				  struct pmbench_rng *rng);

/** Two-sided Mann-Whitney U test. */
struct pmbench_mwu {
	double u;  /**< U of sample a */
	double z;  /**< normal approximation with tie and continuity corrections */
	double p;  /**< two-sided p-value (exact when small and tie-free) */
	int exact; /**< 1 if p comes from the exact distribution */
};

int pmbench_stats_mann_whitney(struct pmbench_mwu *out, const double *a,
			       size_t na, const double *b, size_t nb);

/**
 * Flag outliers: flags[i] = 1 where |0.6745 (x_i - median) / MAD| exceeds
 * `threshold` (3.5 is Iglewicz and Hoaglin's). MAD == 0 flags only values
 * that differ from the median. Returns the number flagged.
 */
size_t pmbench_stats_outliers(unsigned char *flags, const double *x, size_t n,
			      double threshold);

/** Standard normal CDF. */
double pmbench_stats_norm_cdf(double z);

#endif
