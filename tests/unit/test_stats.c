#include "pmbench/common.h"

#include <limits.h>

#include "check.h"
#include "pmbench/stats.h"

/*
 * Expected values are worked out by hand in the comments, or are textbook
 * table values (t quantiles), or come from the reference algorithms
 * (splitmix64, xoshiro256**).
 */

TEST(summary_odd)
{
	/* Sorted 1 1 3 4 5: squares about 2.8 sum to 12.8, sd = sqrt(3.2). */
	double x[] = { 3, 1, 4, 1, 5 };
	double copy[] = { 3, 1, 4, 1, 5 };
	struct pmbench_summary s;

	pmbench_stats_summary(&s, x, 5);
	CHECK_INT(s.n, 5);
	CHECK_NEAR(s.mean, 2.8, 1e-12);
	CHECK_NEAR(s.sd, sqrt(3.2), 1e-12);
	CHECK(s.median == 3);
	CHECK(s.min == 1);
	CHECK(s.max == 5);
	/* h = 4 p: exactly on order statistics 1 and 3. */
	CHECK(s.q1 == 1);
	CHECK(s.q3 == 4);
	/* |x - 3| = 0 1 2 2 2. */
	CHECK(s.mad == 2);
	CHECK(!memcmp(x, copy, sizeof(x)));
}

TEST(summary_even)
{
	/* Sorted 1 2 3 4: q1 at h = 0.75, q3 at h = 2.25. */
	double x[] = { 4, 1, 3, 2 };
	double copy[] = { 4, 1, 3, 2 };
	struct pmbench_summary s;

	pmbench_stats_summary(&s, x, 4);
	CHECK_NEAR(s.mean, 2.5, 1e-12);
	CHECK_NEAR(s.sd, sqrt(5.0 / 3), 1e-12);
	CHECK(s.median == 2.5);
	CHECK_NEAR(s.q1, 1.75, 1e-12);
	CHECK_NEAR(s.q3, 3.25, 1e-12);
	/* |x - 2.5| = 1.5 0.5 0.5 1.5. */
	CHECK(s.mad == 1);
	CHECK(!memcmp(x, copy, sizeof(x)));
}

TEST(summary_one_and_empty)
{
	double x[] = { 7 };
	struct pmbench_summary s;

	pmbench_stats_summary(&s, x, 1);
	CHECK_INT(s.n, 1);
	CHECK(s.mean == 7 && s.median == 7 && s.min == 7 && s.max == 7);
	CHECK(s.q1 == 7 && s.q3 == 7);
	CHECK(s.sd == 0 && s.mad == 0);

	pmbench_stats_summary(&s, NULL, 0);
	CHECK_INT(s.n, 0);
	CHECK(s.mean == 0 && s.sd == 0 && s.median == 0 && s.min == 0);
	CHECK(s.max == 0 && s.q1 == 0 && s.q3 == 0 && s.mad == 0);
	CHECK(pmbench_stats_median(NULL, 0) == 0);
}

TEST(summary_duplicates)
{
	/*
	 * Sorted 2 2 2 5 5 9: median (2 + 5) / 2; q1 at h = 1.25 and q3 at
	 * h = 3.75 fall between equal neighbours; |x - 3.5| is 1.5 five
	 * times and 5.5 once.
	 */
	double x[] = { 5, 2, 9, 2, 5, 2 };
	struct pmbench_summary s;

	pmbench_stats_summary(&s, x, 6);
	CHECK_NEAR(s.mean, 25.0 / 6, 1e-12);
	CHECK(s.median == 3.5);
	CHECK(s.q1 == 2);
	CHECK(s.q3 == 5);
	CHECK(s.mad == 1.5);
	CHECK(s.min == 2 && s.max == 9);
}

TEST(quantile_interpolates)
{
	double x[] = { 1, 2, 3, 4, 10 };

	/* h = 0.4 and h = 3.6. */
	CHECK_NEAR(pmbench_stats_quantile(x, 5, 0.1), 1.4, 1e-12);
	CHECK_NEAR(pmbench_stats_quantile(x, 5, 0.9), 7.6, 1e-12);
	CHECK(pmbench_stats_quantile(x, 5, 0) == 1);
	CHECK(pmbench_stats_quantile(x, 5, 1) == 10);
	CHECK(pmbench_stats_quantile(x, 5, 0.5) == 3);
	CHECK(pmbench_stats_quantile(x, 5, -1) == 1);
	CHECK(pmbench_stats_quantile(x, 5, 2) == 10);
	CHECK(pmbench_stats_quantile(x, 1, 0.7) == 1);
	CHECK(pmbench_stats_quantile(x, 0, 0.5) == 0);
}

TEST(sort_numeric)
{
	/* Values whose differences overflow or truncate to 0 as an int. */
	double x[] = { 1e300, -1e300, 0.25, 0.5, -0.0, 3, 0.1, -1e-300 };
	size_t n = PMBENCH_ARRAY_SIZE(x);

	pmbench_stats_sort(x, n);
	for (size_t i = 1; i < n; i++)
		CHECK(x[i - 1] <= x[i]);
	CHECK(x[0] == -1e300);
	CHECK(x[n - 1] == 1e300);
	CHECK(x[1] == -1e-300);
}

TEST(median_matches_sort)
{
	/*
	 * The median uses selection, not a sort; compare it with the middle
	 * of a sorted copy on many small arrays full of duplicates.
	 */
	struct pmbench_rng rng;
	double x[41], sorted[41];

	pmbench_rng_seed(&rng, 7);
	for (int round = 0; round < 2000; round++) {
		size_t n = 1 + (size_t)pmbench_rng_below(&rng, 41);
		uint64_t range = 1 + pmbench_rng_below(&rng, 10);
		double want, got;

		for (size_t i = 0; i < n; i++)
			x[i] = (double)pmbench_rng_below(&rng, range);
		memcpy(sorted, x, n * sizeof(*x));
		pmbench_stats_sort(sorted, n);
		want = n % 2 ? sorted[n / 2]
			     : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
		got = pmbench_stats_median(x, n);
		CHECK(got == want);
	}
}

TEST(rng_reference_values)
{
	/*
	 * splitmix64 from 0 gives the well-known e220a8397b1dcdaf ...; the
	 * xoshiro256** outputs come from the reference algorithm.
	 */
	struct pmbench_rng rng, again;

	pmbench_rng_seed(&rng, 0);
	CHECK(rng.s[0] == UINT64_C(0xe220a8397b1dcdaf));
	CHECK(rng.s[1] == UINT64_C(0x6e789e6aa1b965f4));
	CHECK(rng.s[2] == UINT64_C(0x06c45d188009454f));
	CHECK(rng.s[3] == UINT64_C(0xf88bb8a8724c81ec));
	CHECK(pmbench_rng_next(&rng) == UINT64_C(0x99ec5f36cb75f2b4));
	CHECK(pmbench_rng_next(&rng) == UINT64_C(0xbf6e1f784956452a));
	CHECK(pmbench_rng_next(&rng) == UINT64_C(0x1a5f849d4933e6e0));

	pmbench_rng_seed(&rng, 42);
	CHECK(pmbench_rng_next(&rng) == UINT64_C(0x15780b2e0c2ec716));
	CHECK(pmbench_rng_next(&rng) == UINT64_C(0x6104d9866d113a7e));
	CHECK(pmbench_rng_next(&rng) == UINT64_C(0xae17533239e499a1));

	pmbench_rng_seed(&rng, 42);
	pmbench_rng_seed(&again, 42);
	for (int i = 0; i < 100; i++)
		CHECK(pmbench_rng_next(&rng) == pmbench_rng_next(&again));
}

TEST(rng_below_uniform)
{
	/*
	 * Chi-square over 6 bins, 60000 draws, fixed seed: the 0.999
	 * critical value for 5 degrees of freedom is 20.5.
	 */
	struct pmbench_rng rng;
	unsigned count[6] = { 0 };
	double chi2 = 0;
	uint64_t big = (UINT64_C(1) << 63) + 1;

	pmbench_rng_seed(&rng, 123);
	for (int i = 0; i < 60000; i++) {
		uint64_t v = pmbench_rng_below(&rng, 6);

		CHECK(v < 6);
		count[v]++;
	}
	for (int i = 0; i < 6; i++)
		chi2 += (count[i] - 10000.0) * (count[i] - 10000.0) / 10000;
	CHECK(chi2 < 20.5);

	for (int i = 0; i < 1000; i++) {
		CHECK(pmbench_rng_below(&rng, 1) == 0);
		/* Nearly half the raw draws are rejected for this n. */
		CHECK(pmbench_rng_below(&rng, big) < big);
		CHECK(pmbench_rng_below(&rng, UINT64_MAX) < UINT64_MAX);
	}
}

/* Fill x with base * (1 + u), u uniform in [-spread, spread]. */
static void noisy(double *x, size_t n, double base, double spread,
		  struct pmbench_rng *rng)
{
	for (size_t i = 0; i < n; i++) {
		double u = (double)(pmbench_rng_next(rng) >> 11) /
			   9007199254740992.0;

		x[i] = base * (1 + spread * (2 * u - 1));
	}
}

TEST(bootstrap_median_deterministic)
{
	struct pmbench_rng data, r1, r2, r3;
	struct pmbench_interval i1, i2, i3;
	double x[30], copy[30];
	int moved = 0;

	pmbench_rng_seed(&data, 99);
	noisy(x, 30, 100, 0.1, &data);
	memcpy(copy, x, sizeof(x));

	pmbench_rng_seed(&r1, 1);
	pmbench_rng_seed(&r2, 1);
	CHECK_INT(pmbench_stats_bootstrap_median(&i1, x, 30, 0.95, 999, &r1),
		  0);
	CHECK_INT(pmbench_stats_bootstrap_median(&i2, x, 30, 0.95, 999, &r2),
		  0);
	CHECK(!memcmp(x, copy, sizeof(x)));

	/* Same seed, bit-identical. */
	CHECK(i1.point == i2.point && i1.lo == i2.lo && i1.hi == i2.hi);

	/*
	 * Other seeds: the same point, bounds that move only a little. The
	 * resampled medians take few distinct values (midpoints of order
	 * statistics), so a single other seed may land on the same bounds;
	 * five in a row do not (with n = 31 they would: odd-n medians are
	 * order statistics and the tail quantiles barely ever move).
	 */
	for (uint64_t seed = 2; seed <= 6; seed++) {
		pmbench_rng_seed(&r3, seed);
		CHECK_INT(pmbench_stats_bootstrap_median(&i3, x, 30, 0.95, 999,
							 &r3),
			  0);
		CHECK(i3.point == i1.point);
		CHECK_NEAR(i3.lo, i1.lo, 2);
		CHECK_NEAR(i3.hi, i1.hi, 2);
		if (i3.lo != i1.lo || i3.hi != i1.hi)
			moved++;
	}
	CHECK(moved > 0);

	CHECK(i1.point == pmbench_stats_median(x, 30));
	CHECK(i1.lo <= i1.point && i1.point <= i1.hi);
	CHECK(i1.lo < i1.hi);
	CHECK(i1.lo >= 90 && i1.hi <= 110);
}

TEST(bootstrap_median_degenerate)
{
	struct pmbench_rng rng;
	struct pmbench_interval iv;
	double c[] = { 4.25, 4.25, 4.25, 4.25, 4.25, 4.25, 4.25 };
	double one[] = { 3.5 };

	pmbench_rng_seed(&rng, 5);
	CHECK_INT(pmbench_stats_bootstrap_median(&iv, c, 7, 0.95, 500, &rng),
		  0);
	CHECK(iv.point == 4.25 && iv.lo == 4.25 && iv.hi == 4.25);

	CHECK_INT(pmbench_stats_bootstrap_median(&iv, one, 1, 0.9, 500, &rng),
		  0);
	CHECK(iv.point == 3.5 && iv.lo == 3.5 && iv.hi == 3.5);

	CHECK_INT(pmbench_stats_bootstrap_median(&iv, c, 0, 0.95, 500, &rng),
		  -1);
	CHECK_CONTAINS(pmbench_error_last(), "empty");
	CHECK_INT(pmbench_stats_bootstrap_median(&iv, c, 7, 1.0, 500, &rng),
		  -1);
	CHECK_INT(pmbench_stats_bootstrap_median(&iv, c, 7, 0, 500, &rng), -1);
	CHECK_INT(pmbench_stats_bootstrap_median(&iv, c, 7, 0.95, 0, &rng), -1);
}

TEST(bootstrap_median_large)
{
	/* n = 1000 and B = 10000 must stay cheap (about 1e7 draws). */
	struct pmbench_rng rng;
	struct pmbench_interval iv;
	double *x = pmbench_xmalloc(1000 * sizeof(*x));

	pmbench_rng_seed(&rng, 11);
	noisy(x, 1000, 50, 0.2, &rng);
	CHECK_INT(pmbench_stats_bootstrap_median(&iv, x, 1000, 0.95, 10000,
						 &rng),
		  0);
	free(x);
	CHECK(iv.lo <= iv.point && iv.point <= iv.hi);
	/* The median of U(40, 60) has a standard error near 0.3. */
	CHECK(iv.hi - iv.lo > 0.3 && iv.hi - iv.lo < 3);
}

TEST(bootstrap_ratio_exact)
{
	/*
	 * Constant samples: every resampled ratio is 50 / 5, exactly 10.
	 * With spread, independent resampling of a and b scatters the
	 * ratios, so only the point is exactly 10 there.
	 */
	struct pmbench_rng rng;
	struct pmbench_interval iv;
	double a[] = { 50, 50, 50, 50, 50 };
	double b[] = { 5, 5, 5, 5, 5, 5 };
	double b2[] = { 3, 7, 4, 9, 5, 6, 8 };
	double a2[7];

	pmbench_rng_seed(&rng, 3);
	CHECK_INT(pmbench_stats_bootstrap_ratio(&iv, a, 5, b, 6, 0.95, 1000,
						&rng),
		  0);
	CHECK(iv.point == 10 && iv.lo == 10 && iv.hi == 10);

	for (size_t i = 0; i < 7; i++)
		a2[i] = b2[i] * 10;
	CHECK_INT(pmbench_stats_bootstrap_ratio(&iv, a2, 7, b2, 7, 0.95, 1000,
						&rng),
		  0);
	CHECK(iv.point == 10);
	CHECK(iv.lo <= 10 && 10 <= iv.hi);
	CHECK(iv.lo < iv.hi);
}

TEST(bootstrap_ratio_twenty)
{
	struct pmbench_rng rng, r1, r2;
	struct pmbench_interval iv, again;
	double a[40], b[40];

	pmbench_rng_seed(&rng, 2024);
	noisy(a, 40, 2000, 0.15, &rng);
	noisy(b, 40, 100, 0.15, &rng);
	pmbench_rng_seed(&r1, 8);
	pmbench_rng_seed(&r2, 8);
	CHECK_INT(pmbench_stats_bootstrap_ratio(&iv, a, 40, b, 40, 0.95, 4000,
						&r1),
		  0);
	CHECK_INT(pmbench_stats_bootstrap_ratio(&again, a, 40, b, 40, 0.95,
						4000, &r2),
		  0);
	CHECK(iv.lo == again.lo && iv.hi == again.hi);
	CHECK(iv.point ==
	      pmbench_stats_median(a, 40) / pmbench_stats_median(b, 40));
	CHECK(iv.lo <= iv.point && iv.point <= iv.hi);
	CHECK(iv.lo < iv.hi);
	CHECK(iv.lo >= 18 && iv.hi <= 22);
}

TEST(bootstrap_ratio_errors)
{
	struct pmbench_rng rng;
	struct pmbench_interval iv;
	double a[] = { 1, 2, 3 };
	double zero[] = { 0, 0, 1 };
	double some_zero[] = { 0, 1, 2 };

	pmbench_rng_seed(&rng, 1);
	CHECK_INT(pmbench_stats_bootstrap_ratio(&iv, a, 0, a, 3, 0.95, 100,
						&rng),
		  -1);
	CHECK_INT(pmbench_stats_bootstrap_ratio(&iv, a, 3, a, 0, 0.95, 100,
						&rng),
		  -1);
	CHECK_INT(pmbench_stats_bootstrap_ratio(&iv, a, 3, zero, 3, 0.95, 100,
						&rng),
		  -1);
	CHECK_CONTAINS(pmbench_error_last(), "median of 0");
	/* Median 1, but a resample such as 0 0 2 has median 0. */
	CHECK_INT(pmbench_stats_bootstrap_ratio(&iv, a, 3, some_zero, 3, 0.95,
						1000, &rng),
		  -1);
	CHECK_CONTAINS(pmbench_error_last(), "resampled median of 0");
	CHECK_INT(pmbench_stats_bootstrap_ratio(&iv, a, 3, a, 3, 1.5, 100,
						&rng),
		  -1);
}

TEST(mwu_exact_textbook)
{
	/*
	 * Every a is below every b: U = 0, and only 1 of the C(9, 4) = 126
	 * arrangements is that extreme, so p = 2 / 126.
	 */
	double a[] = { 1.1, 2.3, 3.5, 4.2 };
	double b[] = { 5.0, 6.1, 7.7, 8.4, 9.0 };
	struct pmbench_mwu m;

	CHECK_INT(pmbench_stats_mann_whitney(&m, a, 4, b, 5), 0);
	CHECK(m.u == 0);
	CHECK(m.exact);
	CHECK_NEAR(m.p, 2.0 / 126, 1e-15);
	CHECK(m.z < 0);

	CHECK_INT(pmbench_stats_mann_whitney(&m, b, 5, a, 4), 0);
	CHECK(m.u == 20);
	CHECK(m.exact);
	CHECK_NEAR(m.p, 2.0 / 126, 1e-15);
	CHECK(m.z > 0);
}

TEST(mwu_exact_middle)
{
	/*
	 * a = odd numbers, b = even ones: U = 0+1+2+3+4 = 10. Enumerating
	 * the 462 arrangements, 99 have U <= 10 and 386 have U >= 10, so
	 * p = 2 * 99 / 462 = 3 / 7. Swapping the samples gives U = 20.
	 */
	double a[] = { 1, 3, 5, 7, 9 };
	double b[] = { 2, 4, 6, 8, 10, 12 };
	struct pmbench_mwu m;

	CHECK_INT(pmbench_stats_mann_whitney(&m, a, 5, b, 6), 0);
	CHECK(m.u == 10);
	CHECK(m.exact);
	CHECK_NEAR(m.p, 3.0 / 7, 1e-14);
	CHECK_INT(pmbench_stats_mann_whitney(&m, b, 6, a, 5), 0);
	CHECK(m.u == 20);
	CHECK_NEAR(m.p, 3.0 / 7, 1e-14);

	/* Identical distributions in the middle: p is capped at 1. */
	{
		double c[] = { 1, 4 };
		double d[] = { 2, 3 };

		CHECK_INT(pmbench_stats_mann_whitney(&m, c, 2, d, 2), 0);
		CHECK(m.u == 2);
		CHECK(m.exact);
		CHECK(m.p == 1);
		CHECK(m.z == 0);
	}
}

TEST(mwu_ties_normal)
{
	/*
	 * Pooled and sorted: 1(a) 2(a a b) 3(a a b) 4(b b) 5(b) 6(b).
	 * Midranks 1, 3, 6, 8.5, 10, 11; R_a = 1 + 3 + 3 + 6 + 6 = 19 and
	 * U = 19 - 15 = 4. Ties 3, 3, 2 give sum(t^3 - t) = 54, so
	 * var = 30 / 12 * (12 - 54 / 110) = 28.7727...; with mu = 15 the
	 * corrected z = -(11 - 0.5) / sqrt(var) = -1.957487 and
	 * p = erfc(1.957487 / sqrt 2) = 0.050290.
	 */
	double a[] = { 1, 2, 2, 3, 3 };
	double b[] = { 2, 3, 4, 4, 5, 6 };
	double var = 30.0 / 12 * (12 - 54.0 / 110);
	struct pmbench_mwu m;

	CHECK_INT(pmbench_stats_mann_whitney(&m, a, 5, b, 6), 0);
	CHECK(m.u == 4);
	CHECK(!m.exact);
	CHECK_NEAR(m.z, -10.5 / sqrt(var), 1e-12);
	CHECK_NEAR(m.z, -1.9574865, 1e-6);
	CHECK_NEAR(m.p, 0.0502903, 1e-6);
}

TEST(mwu_large_and_degenerate)
{
	/*
	 * 25 + 25 values, a = 0 2 4 ..., b = 1 3 5 ...: a_i beats i of the
	 * b's, U = 0 + 1 + ... + 24 = 300. Too big for the exact path; with
	 * mu = 312.5 and var = 625 * 51 / 12, z = -12 / sqrt(var).
	 */
	double a[25], b[25], same[3] = { 1, 1, 1 };
	struct pmbench_mwu m, back;
	double z = -12 / sqrt(625.0 * 51 / 12);

	for (int i = 0; i < 25; i++) {
		a[i] = 2 * i;
		b[i] = 2 * i + 1;
	}
	CHECK_INT(pmbench_stats_mann_whitney(&m, a, 25, b, 25), 0);
	CHECK(m.u == 300);
	CHECK(!m.exact);
	CHECK_NEAR(m.z, z, 1e-12);
	CHECK_NEAR(m.p, 2 * (1 - pmbench_stats_norm_cdf(-z)), 1e-12);
	CHECK_INT(pmbench_stats_mann_whitney(&back, b, 25, a, 25), 0);
	CHECK(back.u + m.u == 625);
	CHECK_NEAR(back.p, m.p, 1e-15);

	/* At 20 + 20 the exact p is still used and near the normal one. */
	CHECK_INT(pmbench_stats_mann_whitney(&m, a, 20, b + 3, 20), 0);
	CHECK(m.exact);
	CHECK(m.p > 0 && m.p < 1);
	CHECK_NEAR(m.p, erfc(fabs(m.z) / sqrt(2.0)), 0.01);

	/* Everything tied: no variance, no evidence. */
	CHECK_INT(pmbench_stats_mann_whitney(&m, same, 2, same, 3), 0);
	CHECK(m.u == 3);
	CHECK(!m.exact);
	CHECK(m.z == 0);
	CHECK(m.p == 1);

	CHECK_INT(pmbench_stats_mann_whitney(&m, a, 0, b, 3), -1);
	CHECK_INT(pmbench_stats_mann_whitney(&m, a, 3, b, 0), -1);
}

TEST(outliers_modified_z)
{
	/*
	 * Median 10.025; |x - median| = .025 .075 .125 .025 .075 19.975,
	 * so MAD = 0.075. Scores: 10 and 10.05 0.225, 10.1 and 9.95
	 * 0.6745, 9.9 1.124, 30 about 180.
	 */
	double x[] = { 10, 10.1, 9.9, 10.05, 9.95, 30 };
	double flat[] = { 5, 5, 5, 5, 6, 5, 4 };
	double calm[] = { 1, 2, 3, 4, 5 };
	unsigned char f[7];

	memset(f, 0xff, sizeof(f));
	CHECK_INT(pmbench_stats_outliers(f, x, 6, 3.5), 1);
	for (int i = 0; i < 5; i++)
		CHECK_INT(f[i], 0);
	CHECK_INT(f[5], 1);
	CHECK_INT(pmbench_stats_outliers(NULL, x, 6, 3.5), 1);
	/* Lower thresholds catch the milder deviations in turn. */
	CHECK_INT(pmbench_stats_outliers(f, x, 6, 1), 2);
	CHECK_INT(f[2], 1);
	CHECK_INT(pmbench_stats_outliers(f, x, 6, 0.6), 4);
	CHECK_INT(f[0] + f[3], 0);

	/* MAD 0: exactly the values that are not 5. */
	CHECK_INT(pmbench_stats_outliers(f, flat, 7, 3.5), 2);
	CHECK_INT(f[4], 1);
	CHECK_INT(f[6], 1);
	CHECK_INT(f[0] + f[1] + f[2] + f[3] + f[5], 0);

	CHECK_INT(pmbench_stats_outliers(f, calm, 5, 3.5), 0);
	CHECK_INT(pmbench_stats_outliers(f, calm, 0, 3.5), 0);
}

TEST(norm_cdf_values)
{
	CHECK(pmbench_stats_norm_cdf(0) == 0.5);
	CHECK_NEAR(pmbench_stats_norm_cdf(1.959963984540054), 0.975, 1e-12);
	CHECK_NEAR(pmbench_stats_norm_cdf(-1), 0.158655253931457, 1e-12);
	/* The far tail keeps its relative precision. */
	CHECK_NEAR(pmbench_stats_norm_cdf(-10) / 7.619853024160593e-24, 1,
		   1e-9);
}

TEST(t_quantile_table)
{
	/* Student's t table, two-sided 95 % and others. */
	CHECK_NEAR(pmbench_stats_t_quantile(0.975, 1), 12.7062047, 1e-6);
	CHECK_NEAR(pmbench_stats_t_quantile(0.975, 10), 2.228138852, 1e-6);
	CHECK_NEAR(pmbench_stats_t_quantile(0.975, 30), 2.042272456, 1e-6);
	CHECK_NEAR(pmbench_stats_t_quantile(0.975, 5), 2.570581836, 1e-6);
	CHECK_NEAR(pmbench_stats_t_quantile(0.975, 100), 1.983971519, 1e-6);
	CHECK_NEAR(pmbench_stats_t_quantile(0.995, 4), 4.604094871, 1e-6);
	CHECK_NEAR(pmbench_stats_t_quantile(0.9, 3), 1.637744354, 1e-6);
	/* Non-integer degrees of freedom (Welch-style). */
	CHECK_NEAR(pmbench_stats_t_quantile(0.95, 2.5), 2.558218614, 1e-6);
	CHECK_NEAR(pmbench_stats_t_quantile(0.975, INFINITY), 1.959963984540054,
		   1e-9);
	CHECK_NEAR(pmbench_stats_t_quantile(0.975, 1e6), 1.959966, 1e-6);
}

TEST(t_quantile_closed_forms)
{
	/*
	 * df = 2 has t = (2p - 1) / sqrt(2 p (1 - p)); it exercises the
	 * general solver, tails included. df = 1 is tan(pi (p - 1/2)),
	 * which is well conditioned only away from the tails.
	 */
	static const double ps[] = { 1e-12, 1e-6, 0.01, 0.2,	 0.4,
				     0.6,   0.8,  0.99, 1 - 1e-6 };

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(ps); i++) {
		double p = ps[i];
		double want = (2 * p - 1) / sqrt(2 * p * (1 - p));
		double got = pmbench_stats_t_quantile(p, 2);

		CHECK_NEAR(got / want, 1, 1e-9);
		if (p < 0.01 || p > 0.99)
			continue;
		CHECK_NEAR(pmbench_stats_t_quantile(p, 1) /
				   tan(3.14159265358979323846 * (p - 0.5)),
			   1, 1e-9);
	}
	/* Far in the Cauchy tail, t ~ -1 / (pi p). */
	CHECK_NEAR(pmbench_stats_t_quantile(1e-12, 1) * 3.14159265358979e-12,
		   -1, 1e-9);
	CHECK(pmbench_stats_t_quantile(0.5, 7) == 0);
	/* 1 - 0.975 is not exactly 0.025 in binary, hence the tolerance. */
	CHECK_NEAR(pmbench_stats_t_quantile(0.025, 10),
		   -pmbench_stats_t_quantile(0.975, 10), 1e-12);
	CHECK(pmbench_stats_t_quantile(0.25, 10) ==
	      -pmbench_stats_t_quantile(0.75, 10));
	CHECK(isinf(pmbench_stats_t_quantile(1, 3)));
	CHECK(pmbench_stats_t_quantile(1, 3) > 0);
	CHECK(isinf(pmbench_stats_t_quantile(0, 3)));
	CHECK(pmbench_stats_t_quantile(0, 3) < 0);
	CHECK(isnan(pmbench_stats_t_quantile(1.5, 3)));
	CHECK(isnan(pmbench_stats_t_quantile(-0.1, 3)));
	CHECK(isnan(pmbench_stats_t_quantile(0.9, 0)));
	CHECK(isnan(pmbench_stats_t_quantile(NAN, 3)));
}

TEST(mean_ci_values)
{
	/* mean 3, sd sqrt(2.5), t(0.975, 4) = 2.776445105. */
	double x[] = { 1, 2, 3, 4, 5 };
	double half = 2.776445105197793 * sqrt(2.5) / sqrt(5.0);
	struct pmbench_interval iv;

	CHECK_INT(pmbench_stats_mean_ci(&iv, x, 5, 0.95), 0);
	CHECK(iv.point == 3);
	CHECK_NEAR(iv.lo, 3 - half, 1e-8);
	CHECK_NEAR(iv.hi, 3 + half, 1e-8);
	CHECK_NEAR(half, 1.963243161, 1e-8);

	CHECK_INT(pmbench_stats_mean_ci(&iv, x, 1, 0.95), 0);
	CHECK(iv.point == 1 && iv.lo == 1 && iv.hi == 1);
	CHECK_INT(pmbench_stats_mean_ci(&iv, x, 0, 0.95), -1);
	CHECK_INT(pmbench_stats_mean_ci(&iv, x, 5, 1), -1);
	CHECK_INT(pmbench_stats_mean_ci(&iv, x, 5, -0.5), -1);
}

TEST(spearman_values)
{
	double idx[10], up[10], down[10];
	/* d = 0 -1 1 -1 1: rho = 1 - 6 * 4 / (5 * 24) = 0.8. */
	double x5[] = { 1, 2, 3, 4, 5 };
	double y5[] = { 1, 3, 2, 5, 4 };
	/*
	 * Ranks of y are 1.5 1.5 3 4: sxy = 4.5, sxx = 5, syy = 4.5, so
	 * rho = 4.5 / sqrt(22.5).
	 */
	double y4[] = { 1, 1, 2, 3 };
	double flat[] = { 2, 2, 2, 2 };

	for (int i = 0; i < 10; i++) {
		idx[i] = i;
		up[i] = exp(i) + 0.5;
		down[i] = -i * i * i;
	}
	CHECK(pmbench_stats_spearman(idx, up, 10) == 1);
	CHECK(pmbench_stats_spearman(idx, down, 10) == -1);
	CHECK(pmbench_stats_spearman(up, down, 10) == -1);
	CHECK_NEAR(pmbench_stats_spearman(x5, y5, 5), 0.8, 1e-12);
	CHECK_NEAR(pmbench_stats_spearman(x5, y4, 4), 4.5 / sqrt(22.5), 1e-12);
	CHECK(pmbench_stats_spearman(x5, flat, 4) == 0);
	CHECK(pmbench_stats_spearman(x5, y5, 1) == 0);
	CHECK(pmbench_stats_spearman(x5, y5, 0) == 0);
}

TEST(compare_verdicts)
{
	/*
	 * Every a is below every b, 5 and 5 runs: exact p = 2 / 252, and
	 * the ratio of medians is 10 / 20. Identical samples give SAME.
	 */
	double a[] = { 10, 9, 11, 10.5, 9.5 };
	double b[] = { 20, 19, 21, 20.5, 19.5 };
	double c[] = { 10, 20, 30, 40, 50 };
	double d[] = { 12, 22, 29, 41, 48 };
	struct pmbench_comparison cmp;
	struct pmbench_rng rng;

	pmbench_rng_seed(&rng, 1);
	CHECK_INT(pmbench_stats_compare(&cmp, a, 5, b, 5, 0.95, 2000, 0.05,
					&rng),
		  0);
	CHECK_NEAR(cmp.ratio.point, 0.5, 1e-15);
	CHECK(cmp.ratio.lo <= 0.5 && 0.5 <= cmp.ratio.hi);
	CHECK(cmp.ratio.hi < 1);
	CHECK(cmp.mwu.exact);
	CHECK_NEAR(cmp.mwu.p, 2.0 / 252, 1e-15);
	CHECK_INT(cmp.verdict, PMBENCH_VERDICT_FASTER);

	pmbench_rng_seed(&rng, 1);
	CHECK_INT(pmbench_stats_compare(&cmp, b, 5, a, 5, 0.95, 2000, 0.05,
					&rng),
		  0);
	CHECK_NEAR(cmp.ratio.point, 2, 1e-15);
	CHECK_INT(cmp.verdict, PMBENCH_VERDICT_SLOWER);

	/* Interleaved samples: p is large, so no significant difference. */
	pmbench_rng_seed(&rng, 1);
	CHECK_INT(pmbench_stats_compare(&cmp, c, 5, d, 5, 0.95, 2000, 0.05,
					&rng),
		  0);
	CHECK(cmp.mwu.p > 0.5);
	CHECK(cmp.ratio.lo < 1 && cmp.ratio.hi > 1);
	CHECK_INT(cmp.verdict, PMBENCH_VERDICT_SAME);

	/* Same seed, same figures. */
	{
		struct pmbench_comparison again;

		pmbench_rng_seed(&rng, 1);
		CHECK_INT(pmbench_stats_compare(&again, c, 5, d, 5, 0.95, 2000,
						0.05, &rng),
			  0);
		CHECK(again.ratio.lo == cmp.ratio.lo);
		CHECK(again.ratio.hi == cmp.ratio.hi);
	}
	CHECK_INT(pmbench_stats_compare(&cmp, a, 0, b, 5, 0.95, 2000, 0.05,
					&rng),
		  -1);
}

TEST(runs_needed)
{
	/* Width halves with four times the runs. */
	CHECK_INT(pmbench_stats_runs_needed(5, 0.2, 0.1), 20);
	CHECK_INT(pmbench_stats_runs_needed(10, 0.3, 0.1), 90);
	/* ceil(7 * 1.5^2) = ceil(15.75) = 16 */
	CHECK_INT(pmbench_stats_runs_needed(7, 0.15, 0.1), 16);
	CHECK_INT(pmbench_stats_runs_needed(5, 0.05, 0.1), 5);
	CHECK_INT(pmbench_stats_runs_needed(0, 0.2, 0.1), 0);
	CHECK_INT(pmbench_stats_runs_needed(5, 0.2, 0), 0);
	CHECK(pmbench_stats_runs_needed(5, 1e300, 1e-300) == ULONG_MAX / 2);
}

TEST(mwu_min_p)
{
	struct pmbench_mwu mw;
	const double a[] = { 1, 2, 3 }, b[] = { 10, 11, 12 };
	const double c[] = { 1, 2, 3, 4 }, d[] = { 10, 11, 12, 13 };

	/* 3 against 3: C(6,3) = 20, so at best 2/20. */
	CHECK_NEAR(pmbench_stats_mwu_min_p(3, 3), 0.1, 1e-12);
	CHECK_NEAR(pmbench_stats_mwu_min_p(4, 4), 2.0 / 70.0, 1e-12);
	CHECK_NEAR(pmbench_stats_mwu_min_p(1, 1), 1, 1e-12);
	CHECK_NEAR(pmbench_stats_mwu_min_p(0, 5), 1, 1e-12);
	CHECK(pmbench_stats_mwu_min_p(200, 200) < 1e-100);
	/* The bound is what the exact test gives at full separation. */
	CHECK_INT(pmbench_stats_mann_whitney(&mw, a, 3, b, 3), 0);
	CHECK_NEAR(mw.p, pmbench_stats_mwu_min_p(3, 3), 1e-12);
	CHECK_INT(pmbench_stats_mann_whitney(&mw, c, 4, d, 4), 0);
	CHECK_NEAR(mw.p, pmbench_stats_mwu_min_p(4, 4), 1e-12);
}

TEST(paired_ratio_cancels_drift)
{
	/* Both sides slow down 10 % per round; b always takes twice a. */
	double a[10], b[10];
	struct pmbench_interval paired, indep;
	struct pmbench_rng rng;

	for (size_t i = 0; i < 10; i++) {
		double f = pow(1.1, (double)i);

		/* A little noise that does not follow the drift. */
		a[i] = 1.0 * f * (1 + 0.01 * (double)(i % 3));
		b[i] = 2.0 * f * (1 + 0.01 * (double)((i + 1) % 3));
	}
	pmbench_rng_seed(&rng, 7);
	CHECK_INT(pmbench_stats_bootstrap_paired_ratio(&paired, b, a, 10, 0.95,
						       2000, &rng),
		  0);
	pmbench_rng_seed(&rng, 7);
	CHECK_INT(pmbench_stats_bootstrap_ratio(&indep, b, 10, a, 10, 0.95,
						2000, &rng),
		  0);
	CHECK(fabs(paired.point - 2) < 0.03 * 2);
	CHECK(paired.lo > 2 * 0.97 && paired.hi < 2 * 1.03);
	CHECK(paired.lo <= paired.point && paired.point <= paired.hi);
	/* The independent interval carries the drift. */
	CHECK((indep.hi - indep.lo) > 5 * (paired.hi - paired.lo));
}

TEST(paired_ratio_errors)
{
	const double a[] = { 1, 2 }, z[] = { 1, 0 };
	struct pmbench_interval iv;
	struct pmbench_rng rng;

	pmbench_rng_seed(&rng, 1);
	CHECK(pmbench_stats_bootstrap_paired_ratio(&iv, a, a, 0, 0.95, 100,
						   &rng) < 0);
	CHECK(pmbench_stats_bootstrap_paired_ratio(&iv, a, z, 2, 0.95, 100,
						   &rng) < 0);
	CHECK(pmbench_stats_bootstrap_paired_ratio(&iv, a, a, 2, 1.5, 100,
						   &rng) < 0);
	pmbench_error_clear();
	CHECK_INT(pmbench_stats_bootstrap_paired_ratio(&iv, a, a, 2, 0.95, 100,
						       &rng),
		  0);
	CHECK(iv.point == 1 && iv.lo == 1 && iv.hi == 1);
}

TEST(stalls_rule)
{
	/* A 0.6 s install, stalled by one and by two 5 s timeouts. */
	const double stalled[] = { 0.61, 5.72, 0.58, 10.66, 0.64 };
	/* pnpm's "15.25 s, 95 % CI 5.45 - 15.38 s". */
	const double issue[] = { 15.21, 5.45, 15.25, 15.38, 15.30 };
	/* Genuinely slow and spread out: one time 5.1 s above the min. */
	const double slow[] = { 10.0, 11.3, 12.5, 15.1, 17.0 };
	/* Fast and tight: nothing stalls. */
	const double tight[] = { 0.61, 0.62, 0.60, 0.63 };
	unsigned k;

	CHECK_INT(pmbench_stats_stalls(stalled, 5, PMBENCH_STATS_STALL_PERIOD,
				       PMBENCH_STATS_STALL_SLACK, &k),
		  2);
	CHECK_INT(k, 2);
	CHECK_INT(pmbench_stats_stalls(issue, 5, 5, 0.3, &k), 4);
	CHECK_INT(k, 2);
	CHECK_INT(pmbench_stats_stalls(slow, 5, 5, 0.3, &k), 0);
	CHECK_INT(k, 0);
	CHECK_INT(pmbench_stats_stalls(tight, 4, 5, 0.3, &k), 0);
	CHECK_INT(pmbench_stats_stalls(stalled, 1, 5, 0.3, NULL), 0);
	CHECK_INT(pmbench_stats_stalls(stalled, 5, 0, 0.3, NULL), 0);
	/* pnpm live here: a noisier base, so a slack from the base time. */
	{
		const double live[] = { 6.2, 10.6, 15.4, 15.6, 15.9 };

		CHECK_INT(pmbench_stats_stalls(live, 5, 5, 0.3, NULL), 0);
		CHECK_NEAR(pmbench_stats_stall_slack(6.2), 0.93, 1e-9);
		CHECK_INT(pmbench_stats_stalls(live, 5, 5,
					       pmbench_stats_stall_slack(6.2),
					       &k),
			  4);
		CHECK_INT(k, 2);
		/* The genuinely slow cell stays off the lattice. */
		CHECK_INT(pmbench_stats_stalls(slow, 5, 5,
					       pmbench_stats_stall_slack(10.0),
					       NULL),
			  0);
		CHECK_NEAR(pmbench_stats_stall_slack(0.5), 0.3, 1e-12);
		CHECK_NEAR(pmbench_stats_stall_slack(60), 1.0, 1e-12);
	}
	/* Just outside the slack. */
	{
		const double off[] = { 1.0, 6.31 };

		CHECK_INT(pmbench_stats_stalls(off, 2, 5, 0.3, NULL), 0);
	}
}

CHECK_MAIN(CASE(summary_odd), CASE(summary_even), CASE(summary_one_and_empty),
	   CASE(summary_duplicates), CASE(quantile_interpolates),
	   CASE(sort_numeric), CASE(median_matches_sort),
	   CASE(rng_reference_values), CASE(rng_below_uniform),
	   CASE(bootstrap_median_deterministic),
	   CASE(bootstrap_median_degenerate), CASE(bootstrap_median_large),
	   CASE(bootstrap_ratio_exact), CASE(bootstrap_ratio_twenty),
	   CASE(bootstrap_ratio_errors), CASE(mwu_exact_textbook),
	   CASE(mwu_exact_middle), CASE(mwu_ties_normal),
	   CASE(mwu_large_and_degenerate), CASE(outliers_modified_z),
	   CASE(norm_cdf_values), CASE(t_quantile_table),
	   CASE(t_quantile_closed_forms), CASE(mean_ci_values),
	   CASE(spearman_values), CASE(compare_verdicts), CASE(runs_needed),
	   CASE(mwu_min_p), CASE(paired_ratio_cancels_drift),
	   CASE(paired_ratio_errors), CASE(stalls_rule))
