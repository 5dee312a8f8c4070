/*
 * The statistics of samples (stats.h): sorting, medians and quantiles,
 * summaries, the seeded random generator and the bootstrap intervals the
 * reports and the budget are built on.
 */
#include "pmbench/common.h"

#include <limits.h>
#include <math.h>

#include "pmbench/stats.h"

/*
 * A total order on doubles without subtraction: a - b can overflow or
 * lose the sign for values far apart, and qsort() needs a consistent
 * answer. NaNs (which callers should not pass) sort last so that the
 * order stays total.
 */
static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa;
	double b = *(const double *)pb;

	if (isnan(a) || isnan(b))
		return isnan(a) - isnan(b);
	return (a > b) - (a < b);
}

void pmbench_stats_sort(double *x, size_t n)
{
	if (n > 1)
		qsort(x, n, sizeof(*x), cmp_double);
}

/*
 * The mean of the two middle values. Sorting and selection both end here,
 * so a median comes out bit-identical whichever way it was found.
 */
static double midpoint(double a, double b)
{
	double m = (a + b) / 2;

	if (!isfinite(m))
		m = a / 2 + b / 2;
	return m;
}

static double median_sorted(const double *sorted, size_t n)
{
	if (!n)
		return 0;
	if (n % 2)
		return sorted[n / 2];
	return midpoint(sorted[n / 2 - 1], sorted[n / 2]);
}

/*
 * Rearrange x so that x[k] is the k-th smallest, everything before it is
 * no larger and everything after it no smaller (Wirth's selection). The
 * scans stop on values equal to the pivot, so runs of duplicates, which
 * bootstrap resamples are full of, still split evenly.
 */
static void select_kth(double *x, size_t n, size_t k)
{
	/* Signed, because j steps to one below l when the scans cross. */
	ptrdiff_t l = 0, r = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

	while (l < r) {
		double pivot = x[kk];
		ptrdiff_t i = l, j = r;

		do {
			while (x[i] < pivot)
				i++;
			while (pivot < x[j])
				j--;
			if (i <= j) {
				double t = x[i];

				x[i] = x[j];
				x[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < kk)
			l = i;
		if (kk < i)
			r = j;
	}
}

/* Median in O(n) expected time; reorders x. n > 0. */
static double median_inplace(double *x, size_t n)
{
	size_t k = n / 2;
	double lower;

	select_kth(x, n, k);
	if (n % 2)
		return x[k];
	/* After selection the lower middle value is the largest of x[0..k). */
	lower = x[0];
	for (size_t i = 1; i < k; i++)
		if (x[i] > lower)
			lower = x[i];
	return midpoint(lower, x[k]);
}

static double *copy_values(const double *x, size_t n)
{
	double *c = pmbench_xmalloc(pmbench_st_mult(n, sizeof(*c)));

	if (n)
		memcpy(c, x, n * sizeof(*c));
	return c;
}

double pmbench_stats_median(const double *x, size_t n)
{
	double *c, m;

	if (!n)
		return 0;
	c = copy_values(x, n);
	m = median_inplace(c, n);
	free(c);
	return m;
}

double pmbench_stats_quantile(const double *sorted, size_t n, double p)
{
	double h, frac;
	size_t lo;

	if (!n)
		return 0;
	if (!(p > 0))
		return sorted[0];
	if (p >= 1)
		return sorted[n - 1];
	h = (double)(n - 1) * p;
	lo = (size_t)floor(h);
	if (lo >= n - 1)
		return sorted[n - 1];
	frac = h - (double)lo;
	/* Equal neighbours give exactly that value, with no rounding. */
	if (frac == 0 || sorted[lo] == sorted[lo + 1])
		return sorted[lo];
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

void pmbench_stats_summary(struct pmbench_summary *out, const double *x,
			   size_t n)
{
	double *s = NULL;
	double sum = 0, ss = 0, med;

	memset(out, 0, sizeof(*out));
	if (!n)
		goto done;
	s = copy_values(x, n);
	pmbench_stats_sort(s, n);
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	out->n = n;
	out->mean = sum / (double)n;
	/* Two passes: sum of squares about the mean does not cancel. */
	for (size_t i = 0; i < n; i++)
		ss += (s[i] - out->mean) * (s[i] - out->mean);
	out->sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
	med = median_sorted(s, n);
	out->median = med;
	out->min = s[0];
	out->max = s[n - 1];
	out->q1 = pmbench_stats_quantile(s, n, 0.25);
	out->q3 = pmbench_stats_quantile(s, n, 0.75);
	for (size_t i = 0; i < n; i++)
		s[i] = fabs(s[i] - med);
	out->mad = median_inplace(s, n);

done:
	free(s);
}

/* The splitmix64 step, used only to expand a seed into a full state. */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void pmbench_rng_seed(struct pmbench_rng *rng, uint64_t seed)
{
	uint64_t sm = seed;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(rng->s); i++)
		rng->s[i] = splitmix64(&sm);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t pmbench_rng_next(struct pmbench_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t pmbench_rng_below(struct pmbench_rng *rng, uint64_t n)
{
	/*
	 * 2^64 mod n: draws below it would make the low residues more
	 * likely, so they are rejected (fewer than half of all draws, and
	 * far fewer for the small n we use).
	 */
	uint64_t threshold, r;

	if (!n)
		return 0;
	threshold = (0 - n) % n;
	do {
		r = pmbench_rng_next(rng);
	} while (r < threshold);
	return r % n;
}

static int check_level(double level, unsigned resamples)
{
	if (!(level > 0 && level < 1))
		return pmbench_error_set("confidence level %g is not "
					 "between 0 and 1",
					 level);
	if (!resamples)
		return pmbench_error_set("bootstrap needs at least one "
					 "resample");
	return 0;
}

/* Draw a resample of x[0..n) into out[0..n) and return its median. */
static double resample_median(double *out, const double *x, size_t n,
			      struct pmbench_rng *rng)
{
	for (size_t i = 0; i < n; i++)
		out[i] = x[pmbench_rng_below(rng, n)];
	return median_inplace(out, n);
}

/* Turn the resampled statistics into the percentile interval. */
static void percentile_interval(struct pmbench_interval *out, double *stat,
				size_t nstat, double level)
{
	pmbench_stats_sort(stat, nstat);
	out->lo = pmbench_stats_quantile(stat, nstat, (1 - level) / 2);
	out->hi = pmbench_stats_quantile(stat, nstat, (1 + level) / 2);
}

/*
 * What a bootstrap of the median of `x` starts with: its arguments
 * checked, the point estimate, and the interval set to that point.
 * Returns 1 when there is nothing to resample (one value), 0 to go on,
 * or an error.
 */
static int median_point(struct pmbench_interval *out, const double *x, size_t n,
			double level, unsigned resamples)
{
	int err = check_level(level, resamples);

	if (err)
		return err;
	if (!n)
		return pmbench_error_set("cannot bootstrap an empty sample");
	out->point = pmbench_stats_median(x, n);
	out->lo = out->hi = out->point;
	return n == 1;
}

int pmbench_stats_bootstrap_median(struct pmbench_interval *out,
				   const double *x, size_t n, double level,
				   unsigned resamples, struct pmbench_rng *rng)
{
	double *scratch = NULL, *stat = NULL;
	int err = median_point(out, x, n, level, resamples);

	if (err) {
		err = err < 0 ? err : 0;
		goto done;
	}
	scratch = pmbench_xmalloc(pmbench_st_mult(n, sizeof(*scratch)));
	stat = pmbench_xmalloc(pmbench_st_mult(resamples, sizeof(*stat)));
	for (unsigned r = 0; r < resamples; r++)
		stat[r] = resample_median(scratch, x, n, rng);
	percentile_interval(out, stat, resamples, level);

done:
	free(scratch);
	free(stat);
	return err;
}

int pmbench_stats_bootstrap_ratio(struct pmbench_interval *out, const double *a,
				  size_t na, const double *b, size_t nb,
				  double level, unsigned resamples,
				  struct pmbench_rng *rng)
{
	double *scratch = NULL, *stat = NULL;
	double mb;
	int err;

	err = check_level(level, resamples);
	if (err)
		goto done;
	if (!na || !nb) {
		err = pmbench_error_set("cannot bootstrap a ratio with an "
					"empty sample");
		goto done;
	}
	mb = pmbench_stats_median(b, nb);
	if (mb == 0) {
		err = pmbench_error_set("cannot take a ratio to a median "
					"of 0");
		goto done;
	}
	out->point = pmbench_stats_median(a, na) / mb;
	out->lo = out->hi = out->point;

	scratch = pmbench_xmalloc(
		pmbench_st_mult(na > nb ? na : nb, sizeof(*scratch)));
	stat = pmbench_xmalloc(pmbench_st_mult(resamples, sizeof(*stat)));
	for (unsigned r = 0; r < resamples; r++) {
		double ra = resample_median(scratch, a, na, rng);
		double rb = resample_median(scratch, b, nb, rng);

		if (rb == 0) {
			err = pmbench_error_set("cannot take a ratio to a "
						"resampled median of 0");
			goto done;
		}
		stat[r] = ra / rb;
	}
	percentile_interval(out, stat, resamples, level);

done:
	free(scratch);
	free(stat);
	return err;
}

int pmbench_stats_bootstrap_paired_ratio(struct pmbench_interval *out,
					 const double *a, const double *b,
					 size_t n, double level,
					 unsigned resamples,
					 struct pmbench_rng *rng)
{
	double *ratios = NULL;
	int err;

	err = check_level(level, resamples);
	if (err)
		goto done;
	if (!n) {
		err = pmbench_error_set("cannot bootstrap a paired ratio of "
					"no rounds");
		goto done;
	}
	ratios = pmbench_xmalloc(pmbench_st_mult(n, sizeof(*ratios)));
	for (size_t i = 0; i < n; i++) {
		if (b[i] == 0) {
			err = pmbench_error_set("cannot take a ratio to a "
						"time of 0");
			goto done;
		}
		ratios[i] = a[i] / b[i];
	}
	/* Resampling the ratios is resampling whole rounds. */
	err = pmbench_stats_bootstrap_median(out, ratios, n, level, resamples,
					     rng);
done:
	free(ratios);
	return err;
}

double pmbench_stats_stall_slack(double min)
{
	double s = 0.15 * min;

	if (!(s > PMBENCH_STATS_STALL_SLACK))
		return PMBENCH_STATS_STALL_SLACK;
	if (s > PMBENCH_STATS_STALL_PERIOD / 5)
		return PMBENCH_STATS_STALL_PERIOD / 5;
	return s;
}

size_t pmbench_stats_stalls(const double *x, size_t n, double period,
			    double slack, unsigned *out_kmax)
{
	double min;
	size_t stalled = 0;
	unsigned kmax = 0;

	if (out_kmax)
		*out_kmax = 0;
	if (n < 2 || !(period > 0) || !(slack > 0))
		return 0;
	min = x[0];
	for (size_t i = 1; i < n; i++)
		if (x[i] < min)
			min = x[i];
	for (size_t i = 0; i < n; i++) {
		double k = floor((x[i] - min) / period + 0.5);

		if (fabs(x[i] - min - k * period) > slack)
			return 0;
		if (k >= 1) {
			stalled++;
			if (k > kmax)
				kmax = k > UINT_MAX ? UINT_MAX : (unsigned)k;
		}
	}
	if (out_kmax && stalled)
		*out_kmax = kmax;
	return stalled;
}

/* A value with its position, so that ranks can be mapped back. */
struct ranked {
	double v;
	size_t i;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	int c = cmp_double(&a->v, &b->v);

	if (c)
		return c;
	return (a->i > b->i) - (a->i < b->i);
}

/*
 * Give item k of `r` (sorted in place) its 1-based midrank in
 * ranks[r[k].i]. Returns the tie term sum(t^3 - t) over the groups of t
 * equal values, which the Mann-Whitney variance needs.
 */
static double midranks(double *ranks, struct ranked *r, size_t n)
{
	double ties = 0;
	size_t i = 0;

	qsort(r, n, sizeof(*r), cmp_ranked);
	while (i < n) {
		size_t j = i + 1;
		double mid, t;

		while (j < n && r[j].v == r[i].v)
			j++;
		/* Positions i+1 .. j share the mean of those ranks. */
		mid = ((double)(i + 1) + (double)j) / 2;
		for (size_t k = i; k < j; k++)
			ranks[r[k].i] = mid;
		t = (double)(j - i);
		ties += t * t * t - t;
		i = j;
	}
	return ties;
}

/*
 * P(U <= u) and P(U >= u) under the null hypothesis, from the counts
 * f(m, n, u) of arrangements of m a's and n b's with U = u:
 * f(m, n, u) = f(m - 1, n, u - n) + f(m, n - 1, u), by whether the
 * largest value is an a (beating all n b's) or a b. The counts stay below
 * C(2 * PMBENCH_STATS_MWU_EXACT_MAX, PMBENCH_STATS_MWU_EXACT_MAX) < 2^53,
 * so doubles hold them exactly.
 */
static void mwu_exact(double *le, double *ge, size_t na, size_t nb, size_t u)
{
	size_t width = na * nb + 1;
	double *prev =
		pmbench_xcalloc(pmbench_st_mult(nb + 1, width), sizeof(*prev));
	double *cur =
		pmbench_xcalloc(pmbench_st_mult(nb + 1, width), sizeof(*cur));
	double total = 0, below = 0, above = 0;

	/* m == 0: only U == 0 is possible, for every n. */
	for (size_t n = 0; n <= nb; n++)
		prev[n * width] = 1;
	for (size_t m = 1; m <= na; m++) {
		double *t;

		memset(cur, 0, (nb + 1) * width * sizeof(*cur));
		cur[0] = 1;
		for (size_t n = 1; n <= nb; n++) {
			double *row = cur + n * width;
			const double *left = cur + (n - 1) * width;
			const double *up = prev + n * width;

			for (size_t v = 0; v <= m * n; v++)
				row[v] = left[v] + (v >= n ? up[v - n] : 0);
		}
		t = prev;
		prev = cur;
		cur = t;
	}
	for (size_t v = 0; v < width; v++) {
		double c = prev[nb * width + v];

		total += c;
		if (v <= u)
			below += c;
		if (v >= u)
			above += c;
	}
	*le = below / total;
	*ge = above / total;
	free(prev);
	free(cur);
}

/*
 * The rank sum of `a` in the pooled samples `a` and `b` (n = na + nb
 * values, midranks for ties); *ties gets midranks()'s tie correction.
 */
static double rank_sum(double *ties, const double *a, size_t na,
		       const double *b, size_t nb, size_t n)
{
	struct ranked *r = pmbench_xmalloc(pmbench_st_mult(n, sizeof(*r)));
	double *ranks = pmbench_xmalloc(pmbench_st_mult(n, sizeof(*ranks)));
	double ra = 0;

	for (size_t i = 0; i < na; i++) {
		r[i].v = a[i];
		r[i].i = i;
	}
	for (size_t i = 0; i < nb; i++) {
		r[na + i].v = b[i];
		r[na + i].i = na + i;
	}
	*ties = midranks(ranks, r, n);
	for (size_t i = 0; i < na; i++)
		ra += ranks[i];
	free(r);
	free(ranks);
	return ra;
}

/*
 * The normal approximation of U's two-sided p, with the tie correction
 * and a continuity correction of 0.5: out->z and out->p.
 */
static void mwu_normal(struct pmbench_mwu *out, size_t na, size_t nb,
		       double ties)
{
	double da = (double)na, db = (double)nb, nn = da + db;
	double mu = da * db / 2;
	double var = da * db / 12 * ((nn + 1) - ties / (nn * (nn - 1)));
	double dev = fabs(out->u - mu) - 0.5;

	if (dev < 0)
		dev = 0;
	if (var > 0 && dev > 0)
		out->z = (out->u < mu ? -dev : dev) / sqrt(var);
	/* Two-sided normal tail, 2 (1 - Phi(|z|)), without cancellation. */
	out->p = erfc(fabs(out->z) / sqrt(2.0));
}

int pmbench_stats_mann_whitney(struct pmbench_mwu *out, const double *a,
			       size_t na, const double *b, size_t nb)
{
	double ra, ties, da = (double)na;

	memset(out, 0, sizeof(*out));
	if (!na || !nb)
		return pmbench_error_set("Mann-Whitney needs two non-empty "
					 "samples");
	ra = rank_sum(&ties, a, na, b, nb, pmbench_st_add(na, nb));
	out->u = ra - da * (da + 1) / 2;
	mwu_normal(out, na, nb, ties);
	if (ties == 0 && na <= PMBENCH_STATS_MWU_EXACT_MAX &&
	    nb <= PMBENCH_STATS_MWU_EXACT_MAX) {
		double le, ge;

		/* Without ties U is a whole number. */
		mwu_exact(&le, &ge, na, nb, (size_t)out->u);
		out->p = 2 * (le < ge ? le : ge);
		out->exact = 1;
	}
	if (out->p > 1)
		out->p = 1;
	return 0;
}

size_t pmbench_stats_outliers(unsigned char *flags, const double *x, size_t n,
			      double threshold)
{
	double *dev = NULL;
	double med, mad;
	size_t count = 0;

	if (!n)
		goto done;
	med = pmbench_stats_median(x, n);
	dev = pmbench_xmalloc(pmbench_st_mult(n, sizeof(*dev)));
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(x[i] - med);
	mad = median_inplace(dev, n);
	for (size_t i = 0; i < n; i++) {
		int out;

		/*
		 * With MAD == 0 more than half the values equal the median
		 * and every other one has an infinite z-score.
		 */
		if (mad == 0)
			out = x[i] != med;
		else
			out = fabs(0.6745 * (x[i] - med) / mad) > threshold;
		if (flags)
			flags[i] = (unsigned char)out;
		count += (size_t)out;
	}

done:
	free(dev);
	return count;
}

double pmbench_stats_norm_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

/*
 * Continued fraction for the incomplete beta function, evaluated with the
 * modified Lentz method (Numerical Recipes, betacf). It converges fast for
 * x < (a + 1) / (a + b + 2); callers swap the arguments otherwise.
 */
/* The smallest magnitude the Lentz method lets a denominator take. */
#define LENTZ_TINY 1e-300

/*
 * One step of the modified Lentz method with the partial numerator `aa`:
 * updates *c and *d and returns the factor the fraction is multiplied by.
 */
static double lentz_step(double *c, double *d, double aa)
{
	*d = 1 + aa * *d;
	if (fabs(*d) < LENTZ_TINY)
		*d = LENTZ_TINY;
	*c = 1 + aa / *c;
	if (fabs(*c) < LENTZ_TINY)
		*c = LENTZ_TINY;
	*d = 1 / *d;
	return *d * *c;
}

static double beta_cf(double a, double b, double x)
{
	double qab = a + b, qap = a + 1, qam = a - 1;
	double c = 1, d = 1 - qab * x / qap, h;

	if (fabs(d) < LENTZ_TINY)
		d = LENTZ_TINY;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 100000; m++) {
		double m2 = 2.0 * m, del;

		h *= lentz_step(&c, &d,
				m * (b - m) * x / ((qam + m2) * (a + m2)));
		del = lentz_step(&c, &d,
				 -(a + m) * (qab + m) * x /
					 ((a + m2) * (qap + m2)));
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/*
 * The regularised incomplete beta I_x(a, b), given both x and y = 1 - x
 * so that callers can pass whichever they know without cancellation.
 */
static double inc_beta(double a, double b, double x, double y)
{
	double front;

	if (x <= 0)
		return 0;
	if (y <= 0)
		return 1;
	/* log1p keeps the logarithm of a value near 1 accurate. */
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) +
		    a * (x > 0.5 ? log1p(-y) : log(x)) +
		    b * (y > 0.5 ? log1p(-x) : log(y)));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, y) / b;
}

/* P(T > t) for t >= 0: I_{df / (df + t^2)}(df / 2, 1 / 2) / 2. */
static double t_upper_tail(double t, double df)
{
	double t2 = t * t;

	if (isinf(df))
		return 0.5 * erfc(t / sqrt(2.0));
	if (isinf(t2))
		return 0;
	return 0.5 * inc_beta(df / 2, 0.5, df / (df + t2), t2 / (df + t2));
}

/*
 * The quantile for large df as a series in 1 / df around the normal
 * quantile z (Abramowitz and Stegun 26.7.5). Above T_SERIES_DF the
 * lgamma() terms of the incomplete beta cancel badly, while the first
 * omitted term of the series is far below double precision.
 */
#define T_SERIES_DF 1e5

static double t_series(double z, double df)
{
	double z2 = z * z;
	double g1 = (z2 + 1) * z / 4;
	double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
	double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
	double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) *
		    z / 92160;

	return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
}

double pmbench_stats_t_quantile(double p, double df)
{
	double q, lo = 0, hi = 1, solve_df = df;

	if (isnan(p) || isnan(df) || p < 0 || p > 1 || !(df > 0))
		return NAN;
	if (p == 0)
		return -INFINITY;
	if (p == 1)
		return INFINITY;
	if (p == 0.5)
		return 0;
	/*
	 * Solve on the upper tail q = P(T > t) > 0 so that p near 1 keeps
	 * its precision (1 - p is exact for p >= 0.5), then use symmetry.
	 */
	q = p < 0.5 ? p : 1 - p;
	if (df == 1) {
		/* Cauchy: a closed form, exact and cheaper than bisection. */
		hi = 1 / tan(3.14159265358979323846 * q);
		goto done;
	}
	/* For large df, solve for the normal quantile and correct it. */
	solve_df = df > T_SERIES_DF ? INFINITY : df;
	while (t_upper_tail(hi, solve_df) > q) {
		lo = hi;
		hi *= 2;
		if (isinf(hi))
			goto done;
	}
	/* The tail is decreasing in t; halve until the bracket is tight. */
	for (int i = 0; i < 2000; i++) {
		double mid = lo + (hi - lo) / 2;

		if (mid <= lo || mid >= hi)
			break;
		if (t_upper_tail(mid, solve_df) > q)
			lo = mid;
		else
			hi = mid;
	}

done:
	if (solve_df != df && isfinite(hi))
		hi = t_series(hi, df);
	return p < 0.5 ? -hi : hi;
}

int pmbench_stats_mean_ci(struct pmbench_interval *out, const double *x,
			  size_t n, double level)
{
	struct pmbench_summary s;
	double half;
	int err = 0;

	if (!(level > 0 && level < 1)) {
		err = pmbench_error_set("confidence level %g is not between "
					"0 and 1",
					level);
		goto done;
	}
	if (!n) {
		err = pmbench_error_set("cannot take the mean of an empty "
					"sample");
		goto done;
	}
	pmbench_stats_summary(&s, x, n);
	out->point = out->lo = out->hi = s.mean;
	if (n == 1)
		goto done;
	half = pmbench_stats_t_quantile((1 + level) / 2, (double)(n - 1)) *
	       s.sd / sqrt((double)n);
	out->lo = s.mean - half;
	out->hi = s.mean + half;

done:
	return err;
}

/* Midranks of x[0..n) into ranks[0..n). */
static void rank_values(double *ranks, const double *x, size_t n)
{
	struct ranked *r = pmbench_xmalloc(pmbench_st_mult(n, sizeof(*r)));

	for (size_t i = 0; i < n; i++) {
		r[i].v = x[i];
		r[i].i = i;
	}
	midranks(ranks, r, n);
	free(r);
}

double pmbench_stats_spearman(const double *x, const double *y, size_t n)
{
	double *rx = NULL, *ry = NULL;
	double mean, sxy = 0, sxx = 0, syy = 0, rho = 0;

	if (n < 2)
		goto done;
	rx = pmbench_xmalloc(pmbench_st_mult(n, sizeof(*rx)));
	ry = pmbench_xmalloc(pmbench_st_mult(n, sizeof(*ry)));
	rank_values(rx, x, n);
	rank_values(ry, y, n);
	/*
	 * Midranks always average (n + 1) / 2. The ranks and their
	 * deviations are multiples of 1/2, so these sums are exact and a
	 * perfectly monotone pair gives exactly 1 or -1.
	 */
	mean = ((double)n + 1) / 2;
	for (size_t i = 0; i < n; i++) {
		double dx = rx[i] - mean, dy = ry[i] - mean;

		sxy += dx * dy;
		sxx += dx * dx;
		syy += dy * dy;
	}
	if (sxx == 0 || syy == 0)
		goto done;
	rho = sxy / sqrt(sxx * syy);
	if (rho > 1)
		rho = 1;
	if (rho < -1)
		rho = -1;

done:
	free(rx);
	free(ry);
	return rho;
}

int pmbench_stats_compare(struct pmbench_comparison *out, const double *a,
			  size_t na, const double *b, size_t nb, double level,
			  unsigned resamples, double alpha,
			  struct pmbench_rng *rng)
{
	int err;

	memset(out, 0, sizeof(*out));
	err = pmbench_stats_bootstrap_ratio(&out->ratio, a, na, b, nb, level,
					    resamples, rng);
	if (!err)
		err = pmbench_stats_mann_whitney(&out->mwu, a, na, b, nb);
	if (err)
		return err;
	/*
	 * The test alone can call a 0.1 % change significant with enough
	 * runs, and the interval alone ignores ties; a verdict needs both.
	 */
	if (out->mwu.p < alpha && out->ratio.hi < 1)
		out->verdict = PMBENCH_VERDICT_FASTER;
	else if (out->mwu.p < alpha && out->ratio.lo > 1)
		out->verdict = PMBENCH_VERDICT_SLOWER;
	else
		out->verdict = PMBENCH_VERDICT_SAME;
	return 0;
}

unsigned long pmbench_stats_runs_needed(size_t n, double width, double target)
{
	double need;

	if (!n || !(target > 0))
		return 0;
	if (!(width > target))
		return (unsigned long)n;
	need = ceil((double)n * (width / target) * (width / target));
	if (!(need < (double)(ULONG_MAX / 2)))
		return ULONG_MAX / 2;
	return (unsigned long)need;
}

double pmbench_stats_mwu_min_p(size_t na, size_t nb)
{
	double c = 1;

	if (!na || !nb)
		return 1;
	/* C(na + nb, na), built up as a product; large sizes saturate. */
	for (size_t k = 1; k <= na && c < 1e300; k++)
		c = c * (double)(nb + k) / (double)k;
	return 2 / c > 1 ? 1 : 2 / c;
}

/* The values of x[] grouped by block: x[idx[start[b]] .. idx[start[b+1]]). */
struct blocks {
	size_t *idx;   /* indices of x, block by block */
	size_t *start; /* nr + 1 offsets into idx */
	size_t nr;
};

static void group_blocks(struct blocks *g, const unsigned *block, size_t n)
{
	unsigned char *done = pmbench_xcalloc(n, 1);
	size_t k = 0;

	g->idx = pmbench_xmalloc(pmbench_st_mult(n, sizeof(*g->idx)));
	g->start = pmbench_xmalloc(pmbench_st_mult(n + 1, sizeof(*g->start)));
	g->nr = 0;
	/* O(n * blocks): a merged result has a handful of machines. */
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		g->start[g->nr++] = k;
		for (size_t j = i; j < n; j++) {
			if (done[j] || block[j] != block[i])
				continue;
			done[j] = 1;
			g->idx[k++] = j;
		}
	}
	g->start[g->nr] = k;
	free(done);
}

/*
 * `resamples` medians of block resamples of `x` into `stat`: each draws
 * g->nr blocks with replacement and pools all their values.
 */
static void resample_blocks(double *stat, const double *x, size_t n,
			    const struct blocks *g, unsigned resamples,
			    struct pmbench_rng *rng)
{
	/* A resample's pool has at most n * blocks values (blocks differ). */
	double *pool = pmbench_xmalloc(
		pmbench_st_mult(pmbench_st_mult(n, g->nr), sizeof(*pool)));

	for (unsigned r = 0; r < resamples; r++) {
		size_t k = 0;

		for (size_t d = 0; d < g->nr; d++) {
			size_t b = pmbench_rng_below(rng, g->nr);
			size_t from = g->start[b], m = g->start[b + 1] - from;

			for (size_t i = 0; i < m; i++)
				pool[k++] = x[g->idx[from + pmbench_rng_below(
								    rng, m)]];
		}
		stat[r] = median_inplace(pool, k);
	}
	free(pool);
}

int pmbench_stats_bootstrap_median_blocks(struct pmbench_interval *out,
					  size_t *out_blocks, const double *x,
					  const unsigned *block, size_t n,
					  double level, unsigned resamples,
					  struct pmbench_rng *rng)
{
	struct blocks g = { NULL, NULL, 0 };
	double *stat = NULL;
	int err;

	if (out_blocks)
		*out_blocks = 0;
	err = median_point(out, x, n, level, resamples);
	if (err < 0)
		goto done;
	group_blocks(&g, block, n);
	if (out_blocks)
		*out_blocks = g.nr;
	if (err) {
		err = 0;
		goto done;
	}
	stat = pmbench_xmalloc(pmbench_st_mult(resamples, sizeof(*stat)));
	resample_blocks(stat, x, n, &g, resamples, rng);
	percentile_interval(out, stat, resamples, level);

done:
	free(g.idx);
	free(g.start);
	free(stat);
	return err;
}
