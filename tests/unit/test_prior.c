/*
 * The budget's prior (prior.c): earlier results written into a folder,
 * read back, and the cells of a new run predicted from them: the same
 * pair's interval and ratio first, else the machine's spread around
 * today's ratio, else nothing. Only the arithmetic of the prediction is
 * checked, on hand-made times; no time is measured.
 */
#include "pmbench/common.h"

#include <math.h>
#include <utime.h>

#include "check.h"
#include "harness.h"
#include "pmbench/date.h"
#include "pmbench/prior.h"
#include "pmbench/schedule.h"

/*
 * A cell of `rounds` timed rounds: `ms` each, times (1 + spread) on odd
 * rounds and (1 - spread) on even ones, after one warm-up.
 */
static struct pmbench_cell *add(struct pmbench_result *r, const char *sc,
				const char *pm, double ms, double spread,
				unsigned rounds)
{
	struct pmbench_cell *c =
		pmbench_result_add_cell(r, "proj", "install", sc, pm);
	struct pmbench_sample *s = pmbench_cell_add_sample(c);

	s->round = 0;
	s->warmup = 1;
	s->ok = 1;
	s->wall_ns = (uint64_t)(ms * 1e6);
	for (unsigned i = 1; i <= rounds; i++) {
		double f = i % 2 ? 1 + spread : 1 - spread;

		s = pmbench_cell_add_sample(c);
		s->round = i;
		s->ok = 1;
		s->wall_ns = (uint64_t)(ms * f * 1e6);
	}
	return c;
}

/* An earlier result at `created`, written as `name` in `dir`. */
static void earlier(const char *dir, const char *name, const char *created,
		    double pnpm_spread, unsigned rounds)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char path[4200];

	r.created = pmbench_xstrdup(created);
	r.baseline = pmbench_xstrdup("npm");
	pmbench_strvec_push(&r.pms, "npm");
	pmbench_strvec_push(&r.pms, "pnpm");
	add(&r, "clean", "npm", 1000, 0, rounds);
	/* pnpm 4x faster; its rounds vary by ±pnpm_spread. */
	add(&r, "clean", "pnpm", 250, pnpm_spread, rounds);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CHECK_INT(pmbench_result_write(&r, path), 0);
	pmbench_result_release(&r);
}

/* 2026-12-06T12:00:00Z, the new run's `created`. */
static const int64_t now = 1796558400;

TEST(same_pair_from_the_newest_result)
{
	struct pmbench_prior p = PMBENCH_PRIOR_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_schedule_cell cell = { .half = 0 };
	struct pmbench_cell *c, *b;
	const char *dir = h_setup();
	double most = -1, spread = -1;

	/* `now` is what the new run's `created` says. */
	{
		int64_t t = 0;

		CHECK_INT(pmbench_date_parse(&t, "2026-12-06T12:00:00Z"), 0);
		CHECK(t == now);
	}
	/*
	 * An older, wide one, then two narrow ones: the median of the
	 * three spreads is a narrow one (one run's luck is not the
	 * machine's).
	 */
	earlier(dir, "a.json", "2026-12-06T10:00:00Z", 0.5, 6);
	earlier(dir, "b.json", "2026-12-06T11:00:00Z", 0.02, 6);
	earlier(dir, "c.json", "2026-12-06T11:30:00Z", 0.03, 6);
	pmbench_prior_load(&p, dir, now, PMBENCH_PRIOR_FILES);
	CHECK_INT(p.nr, 3);
	/* Newest first, by `created`. */
	CHECK_STR(p.results[0].created, "2026-12-06T11:30:00Z");
	CHECK_STR(p.results[2].created, "2026-12-06T10:00:00Z");
	/* The machine's spread is not worked out until it is needed. */
	CHECK(!p.measured && p.spread < 0);
	/* Today's warm-ups say 2x: the same pair's ratio (4x) is used. */
	b = add(&r, "clean", "npm", 1000, 0, 0);
	c = add(&r, "clean", "pnpm", 500, 0, 0);
	CHECK_INT(pmbench_prior_judge(&cell, &most, &p, c, b, 5, 0.10),
		  PMBENCH_PRIOR_SAME);
	CHECK(!cell.excluded);
	CHECK_NEAR(cell.point, 0.25, 0.01);
	/* Narrow: decided, within the target, nothing more needed. */
	CHECK(cell.half >= 0 && cell.half < 0.05);
	CHECK(pmbench_schedule_decided(cell.lo, cell.hi, 0.10));
	CHECK_NEAR(most, 0, 0);
	spread = pmbench_prior_spread_of(&(double){ 0 }, c, b, 1);
	CHECK(spread < 0); /* today's cells have no timed round */
	/*
	 * The picks the expected estimate averages over: the highest of
	 * the three spreads is the wide one, which needs rounds; the
	 * lowest is narrower than the median; the ratio stays the newest.
	 */
	{
		struct pmbench_schedule_cell lo = { .half = 0 },
					     hi = { .half = 0 };
		double mlo = -1, mhi = -1;

		p.pick = 1;
		CHECK_INT(pmbench_prior_judge(&hi, &mhi, &p, c, b, 5, 0.10),
			  PMBENCH_PRIOR_SAME);
		CHECK(hi.half > 0.10);
		CHECK(pmbench_schedule_target_need(hi.half, 5, 0.10) > 0);
		CHECK_NEAR(hi.point, 0.25, 0.01);
		p.pick = -1;
		CHECK_INT(pmbench_prior_judge(&lo, &mlo, &p, c, b, 5, 0.10),
			  PMBENCH_PRIOR_SAME);
		CHECK(lo.half >= 0 && lo.half < cell.half);
		CHECK_NEAR(pmbench_schedule_target_need(lo.half, 5, 0.10), 0,
			   0);
		CHECK_NEAR(mlo, 0, 0);
		p.pick = 0;
	}
	/* The picks: both ends, then the median (the cells left as it). */
	CHECK_INT(PMBENCH_PRIOR_PICKS, 3);
	CHECK_INT(pmbench_prior_picks[PMBENCH_PRIOR_PICKS - 1], 0);
	CHECK(pmbench_prior_picks[0] * pmbench_prior_picks[1] == -1);
	pmbench_prior_release(&p);
	CHECK(!p.results && p.nr == 0 && p.spread < 0);
	pmbench_result_release(&r);
}

TEST(a_wide_pair_needs_rounds)
{
	struct pmbench_prior p = PMBENCH_PRIOR_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_schedule_cell at5 = { .half = 0 }, at20 = { .half = 0 };
	struct pmbench_cell *c, *b;
	const char *dir = h_setup();
	double most = -1, most20 = -1;

	earlier(dir, "a.json", "2026-12-06T10:00:00Z", 0.6, 6);
	pmbench_prior_load(&p, dir, now, PMBENCH_PRIOR_FILES);
	b = add(&r, "clean", "npm", 1000, 0, 0);
	c = add(&r, "clean", "pnpm", 250, 0, 0);
	CHECK_INT(pmbench_prior_judge(&at5, &most, &p, c, b, 5, 0.10),
		  PMBENCH_PRIOR_SAME);
	/* Wider than the target after 5 rounds ... */
	CHECK(at5.half > 0.10);
	CHECK(pmbench_schedule_target_need(at5.half, 5, 0.10) > 0);
	/* ... and narrower by the square root of the rounds after 20. */
	CHECK_INT(pmbench_prior_judge(&at20, &most20, &p, c, b, 20, 0.10),
		  PMBENCH_PRIOR_SAME);
	CHECK_NEAR(log(at5.hi / at5.lo) / log(at20.hi / at20.lo), 2, 0.01);
	pmbench_prior_release(&p);
	pmbench_result_release(&r);
}

TEST(machine_spread_around_todays_ratio)
{
	struct pmbench_prior p = PMBENCH_PRIOR_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_schedule_cell cell = { .half = 0 };
	struct pmbench_cell *c, *b;
	const char *dir = h_setup();
	double most = -1;

	earlier(dir, "a.json", "2026-12-06T10:00:00Z", 0.05, 6);
	pmbench_prior_load(&p, dir, now, PMBENCH_PRIOR_FILES);
	/* Another scenario: no same pair; the warm-ups' ratio, 1.05x. */
	b = add(&r, "lockfile", "npm", 1000, 0, 0);
	c = add(&r, "lockfile", "pnpm", 1050, 0, 0);
	CHECK_INT(pmbench_prior_judge(&cell, &most, &p, c, b, 5, 0.10),
		  PMBENCH_PRIOR_MACHINE);
	CHECK(p.measured);
	CHECK_INT(p.pairs, 1);
	CHECK_NEAR(cell.point, 1.05, 1e-9);
	CHECK_NEAR(log(cell.hi / cell.lo) / 2 * sqrt(5), p.spread, 1e-9);
	/* One pair: its sixths are its spread. */
	CHECK_NEAR(p.spread_lo, p.spread, 1e-12);
	CHECK_NEAR(p.spread_hi, p.spread, 1e-12);
	pmbench_prior_release(&p);
	pmbench_result_release(&r);
	/*
	 * Three more pairs, a narrow, a middle and a wide one: the picks
	 * take the machine's sixth, median and five-sixths, in that order.
	 */
	{
		struct pmbench_schedule_cell at[3];
		const int picks[3] = { -1, 0, 1 };
		double m = -1;

		struct pmbench_result r2 = PMBENCH_RESULT_INIT;

		earlier(dir, "b.json", "2026-12-06T10:20:00Z", 0.02, 6);
		earlier(dir, "c.json", "2026-12-06T10:40:00Z", 0.06, 6);
		earlier(dir, "d.json", "2026-12-06T11:00:00Z", 0.5, 6);
		pmbench_prior_load(&p, dir, now, PMBENCH_PRIOR_FILES);
		b = add(&r2, "lockfile", "npm", 1000, 0, 0);
		c = add(&r2, "lockfile", "pnpm", 1050, 0, 0);
		for (size_t i = 0; i < 3; i++) {
			memset(&at[i], 0, sizeof(at[i]));
			p.pick = picks[i];
			m = -1;
			CHECK_INT(pmbench_prior_judge(&at[i], &m, &p, c, b, 5,
						      0.10),
				  PMBENCH_PRIOR_MACHINE);
		}
		p.pick = 0;
		CHECK_INT(p.pairs, 4);
		CHECK(p.spread_lo < p.spread && p.spread < p.spread_hi);
		CHECK(at[0].half < at[1].half && at[1].half < at[2].half);
		CHECK_NEAR(log(at[1].hi / at[1].lo) / 2 * sqrt(5), p.spread,
			   1e-9);
		CHECK_NEAR(log(at[2].hi / at[2].lo) / 2 * sqrt(5), p.spread_hi,
			   1e-9);
		pmbench_prior_release(&p);
		pmbench_result_release(&r2);
	}
}

TEST(nothing_to_go_by)
{
	struct pmbench_prior p = PMBENCH_PRIOR_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_schedule_cell cell = { .half = 0 }, base = { .half = 0 };
	struct pmbench_cell *c, *b;
	const char *dir = h_setup();
	char missing[4200];
	double most = -1;

	/* No folder at all: an empty prior. */
	snprintf(missing, sizeof(missing), "%s/none", dir);
	pmbench_prior_load(&p, missing, now, PMBENCH_PRIOR_FILES);
	CHECK(p.nr == 0 && p.spread < 0);
	pmbench_prior_release(&p);
	/*
	 * A result of this very run (created now) or later, a file that
	 * is no JSON and one that is no result: all left out.
	 */
	earlier(dir, "own.json", "2026-12-06T12:00:00Z", 0.05, 6);
	earlier(dir, "later.json", "2026-12-06T13:00:00Z", 0.05, 6);
	h_write("junk.json", "not json");
	h_write("other.json", "{\"schema\": \"something-else\"}");
	h_write("notes.txt", "x");
	pmbench_prior_load(&p, dir, now, PMBENCH_PRIOR_FILES);
	CHECK_INT(p.nr, 0);
	b = add(&r, "clean", "npm", 1000, 0, 0);
	c = add(&r, "clean", "pnpm", 250, 0, 0);
	CHECK_INT(pmbench_prior_judge(&cell, &most, &p, c, b, 5, 0.10),
		  PMBENCH_PRIOR_NONE);
	CHECK(cell.half < 0);
	/* The baseline needs no prediction; a PM without a run is out. */
	base.baseline = 1;
	CHECK_INT(pmbench_prior_judge(&base, &most, &p, b, b, 5, 0.10),
		  PMBENCH_PRIOR_SETTLED);
	CHECK(!base.excluded);
	cell.half = 0;
	CHECK_INT(pmbench_prior_judge(&cell, &most, &p, NULL, b, 5, 0.10),
		  PMBENCH_PRIOR_SETTLED);
	CHECK(cell.excluded);
	pmbench_prior_release(&p);
	pmbench_result_release(&r);
}

/* Only the newest `most` files are read. */
TEST(only_the_newest_files)
{
	struct pmbench_prior p = PMBENCH_PRIOR_INIT;
	const char *dir = h_setup();
	char path[4200];

	earlier(dir, "old.json", "2026-12-06T09:00:00Z", 0.05, 6);
	earlier(dir, "new.json", "2026-12-06T10:00:00Z", 0.05, 6);
	/* mtime, not the name, orders them: old.json made older. */
	snprintf(path, sizeof(path), "%s/old.json", dir);
	CHECK_INT(utime(path, &(struct utimbuf){ .actime = 1000000,
						 .modtime = 1000000 }),
		  0);
	pmbench_prior_load(&p, dir, now, 1);
	CHECK_INT(p.nr, 1);
	CHECK_STR(p.results[0].created, "2026-12-06T10:00:00Z");
	pmbench_prior_release(&p);
}

/* A timed run of `c` in round `round`, from `start` for `wall` s. */
static void run_at(struct pmbench_cell *c, unsigned round, double start,
		   double wall)
{
	struct pmbench_sample *s = pmbench_cell_add_sample(c);

	s->round = round;
	s->ok = 1;
	s->started = start;
	s->wall_ns = (uint64_t)(wall * 1e9);
}

/*
 * The overhead per run: the gap before each run of a PM in the group's
 * minimum rounds (the control first in each round, npm 0.5 s after it,
 * pnpm 3 s after npm), not a further round's after other groups ran.
 */
TEST(overhead_per_run)
{
	struct pmbench_prior p = PMBENCH_PRIOR_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_cell *ctl, *npm, *pnpm;
	const char *dir = h_setup();
	char path[4200];
	double t = 1796550000;

	r.created = pmbench_xstrdup("2026-12-06T10:00:00Z");
	r.baseline = pmbench_xstrdup("npm");
	r.runs_auto = 1;
	r.warmup = 1;
	r.auto_min_runs = 3;
	r.runs = 4;
	ctl = pmbench_result_add_cell(&r, "proj", "install", "clean",
				      "(control)");
	npm = pmbench_result_add_cell(&r, "proj", "install", "clean", "npm");
	pnpm = pmbench_result_add_cell(&r, "proj", "install", "clean", "pnpm");
	for (unsigned round = 1; round <= 3; round++) {
		run_at(ctl, round, t, 0.1);
		run_at(npm, round, t + 0.6, 1);
		run_at(pnpm, round, t + 4.6, 0.2);
		t += 10;
	}
	/* A further round, after 100 s of other groups: not counted. */
	run_at(ctl, 4, t + 100, 0.1);
	run_at(npm, 4, t + 200, 1);
	run_at(pnpm, 4, t + 300, 0.2);
	snprintf(path, sizeof(path), "%s/a.json", dir);
	CHECK_INT(pmbench_result_write(&r, path), 0);
	pmbench_prior_load(&p, dir, now, PMBENCH_PRIOR_FILES);
	CHECK_INT(p.nr, 1);
	CHECK_NEAR(pmbench_prior_run_overhead(&p, "proj", "install", "clean",
					      "npm"),
		   0.5, 1e-3);
	CHECK_NEAR(pmbench_prior_run_overhead(&p, "proj", "install", "clean",
					      "pnpm"),
		   3, 1e-3);
	/* Another scenario, another PM: not known. */
	CHECK(pmbench_prior_run_overhead(&p, "proj", "install", "lockfile",
					 "npm") < 0);
	CHECK(pmbench_prior_run_overhead(&p, "proj", "install", "clean",
					 "bun") < 0);
	pmbench_prior_release(&p);
	pmbench_result_release(&r);
}

/*
 * As the rounds run, the estimates pool the rounds' own spread with the
 * same pair's earlier one (which counts as the earlier result's rounds):
 * five wide rounds today against narrow earlier ones give an interval
 * between the two, around today's ratio, and fewer rounds needed than
 * the rounds alone say; with no earlier result, the rounds' own.
 */
TEST(estimate_pools_the_earlier_spread)
{
	struct pmbench_prior p = PMBENCH_PRIOR_INIT;
	struct pmbench_prior none = PMBENCH_PRIOR_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_schedule_cell own = { .half = 0 },
				     pooled = { .half = 0 };
	struct pmbench_cell *c, *b;
	const char *dir = h_setup();
	double m1 = -1, m2 = -1, m3 = -1, so, sp, sn;

	earlier(dir, "a.json", "2026-12-06T11:00:00Z", 0.02, 6);
	pmbench_prior_load(&p, dir, now, PMBENCH_PRIOR_FILES);
	CHECK_INT(p.nr, 1);
	b = add(&r, "clean", "npm", 1000, 0, 5);
	c = add(&r, "clean", "pnpm", 300, 0.3, 5);
	CHECK_INT(pmbench_schedule_judge(&own, &m1, c, b, 5, 0.10, 7), 0);
	CHECK_INT(pmbench_prior_judge_now(&pooled, &m2, &p, c, b, 5, 0.10, 0.10,
					  7),
		  0);
	CHECK(!pooled.excluded);
	CHECK_NEAR(pooled.point, own.point, 1e-9);
	/* The widths in log scale: today's, the earlier at 5 rounds, pooled. */
	so = log(own.hi / own.lo);
	sn = log(pooled.hi / pooled.lo);
	{
		const struct pmbench_result *e = &p.results[0];
		const struct pmbench_cell *ec = pmbench_result_find_cell(
			e, "proj", "install", "clean", "pnpm");
		double pt = 0;

		sp = pmbench_prior_spread_of(
			&pt, ec,
			pmbench_result_find_cell(e, "proj", "install", "clean",
						 "npm"),
			e->seed + (size_t)(ec - e->cells));
	}
	CHECK(sp > 0 && sn < so && sn > 2 * sp / sqrt(5.0));
	/*
	 * Variances weighted by rounds, today's 5 and the earlier 6, each
	 * a spread (half-width times the square root of the rounds).
	 */
	{
		double o = so / 2 * sqrt(5.0),
		       v = (5 * o * o + 6 * sp * sp) / 11;

		CHECK_NEAR(sn * sn, 4 * v / 5, 1e-9);
	}
	CHECK(m2 <= m1);
	CHECK(pmbench_schedule_target_need(pooled.half, 5, 0.10) <
	      pmbench_schedule_target_need(own.half, 5, 0.10));
	/* No earlier result: the rounds' own interval. */
	{
		struct pmbench_schedule_cell alone = { .half = 0 };

		CHECK_INT(pmbench_prior_judge_now(&alone, &m3, &none, c, b, 5,
						  0.10, 0.10, 7),
			  0);
		CHECK_NEAR(alone.lo, own.lo, 1e-12);
		CHECK_NEAR(alone.hi, own.hi, 1e-12);
		CHECK_NEAR(m3, m1, 1e-12);
	}
	pmbench_prior_release(&p);
	pmbench_result_release(&r);
}

/*
 * A ratio its own rounds settle (decided, within the target) is not
 * widened by a wider earlier spread: the allocation runs it no more, so
 * the estimates need no further round for it; one its rounds have not
 * settled is still pooled.
 */
TEST(estimate_keeps_a_settled_ratio)
{
	struct pmbench_prior p = PMBENCH_PRIOR_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_schedule_cell own = { .half = 0 }, kept = { .half = 0 },
				     wide = { .half = 0 };
	struct pmbench_cell *c, *b;
	const char *dir = h_setup();
	double m1 = -1, m2 = -1, m3 = -1;

	earlier(dir, "a.json", "2026-12-06T11:00:00Z", 0.6, 6);
	pmbench_prior_load(&p, dir, now, PMBENCH_PRIOR_FILES);
	CHECK_INT(p.nr, 1);
	b = add(&r, "clean", "npm", 1000, 0, 5);
	c = add(&r, "clean", "pnpm", 300, 0.01, 5);
	CHECK_INT(pmbench_schedule_judge(&own, &m1, c, b, 5, 0.10, 7), 0);
	CHECK(own.half >= 0 && own.half <= 0.10);
	CHECK(pmbench_schedule_decided(own.lo, own.hi, 0.10));
	CHECK_INT(pmbench_prior_judge_now(&kept, &m2, &p, c, b, 5, 0.10, 0.10,
					  7),
		  0);
	CHECK_NEAR(kept.lo, own.lo, 1e-12);
	CHECK_NEAR(kept.hi, own.hi, 1e-12);
	CHECK_NEAR(m2, 0, 1e-12);
	/* Under a target of ±0.1 %, not settled: pooled, and wider. */
	CHECK_INT(pmbench_prior_judge_now(&wide, &m3, &p, c, b, 5, 0.10, 0.001,
					  7),
		  0);
	CHECK(wide.hi / wide.lo > own.hi / own.lo * 2);
	pmbench_prior_release(&p);
	pmbench_result_release(&r);
}

/* A run of `c` in round `round` (0: the warm-up) that left `bytes`. */
static void left(struct pmbench_cell *c, unsigned round, double bytes)
{
	struct pmbench_sample *s = pmbench_cell_add_sample(c);

	s->round = round;
	s->warmup = !round;
	s->ok = 1;
	s->wall_ns = 1000000000;
	pmbench_sample_metric_set(s, "trash_bytes", bytes);
	pmbench_sample_metric_set(s, "trash_files_count", bytes / 1000);
}

/*
 * What a run leaves in the trash: the mean of a PM's timed runs in the
 * group's minimum rounds (a first timed run that puts its cache in place
 * counts: the minimum's rounds pay for it), not the warm-up's, not a
 * further round's; from the newest result that has 2 of them.
 */
TEST(trash_per_run)
{
	struct pmbench_prior p = PMBENCH_PRIOR_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_result old = PMBENCH_RESULT_INIT;
	struct pmbench_cell *npm, *yarn;
	const char *dir = h_setup();
	char path[4200];
	double bytes = 0, files = 0;

	r.created = pmbench_xstrdup("2026-12-06T10:00:00Z");
	r.runs_auto = 1;
	r.warmup = 1;
	r.auto_min_runs = 3;
	r.runs = 4;
	npm = pmbench_result_add_cell(&r, "proj", "install", "cache", "npm");
	yarn = pmbench_result_add_cell(&r, "proj", "install", "cache", "yarn");
	left(npm, 0, 50e6);
	left(npm, 1, 40e6);
	left(npm, 2, 20e6);
	left(npm, 3, 30e6);
	left(npm, 4, 900e6);
	/* One timed run: not enough. */
	left(yarn, 0, 450e6);
	left(yarn, 1, 25e6);
	snprintf(path, sizeof(path), "%s/b.json", dir);
	CHECK_INT(pmbench_result_write(&r, path), 0);
	/* An older result has yarn's. */
	old.created = pmbench_xstrdup("2026-12-05T10:00:00Z");
	old.warmup = 1;
	old.runs = 2;
	yarn = pmbench_result_add_cell(&old, "proj", "install", "cache",
				       "yarn");
	left(yarn, 1, 24e6);
	left(yarn, 2, 26e6);
	snprintf(path, sizeof(path), "%s/a.json", dir);
	CHECK_INT(pmbench_result_write(&old, path), 0);
	pmbench_prior_load(&p, dir, now, PMBENCH_PRIOR_FILES);
	CHECK_INT(p.nr, 2);
	CHECK_INT(pmbench_prior_run_trash(&p, "proj", "install", "cache", "npm",
					  &bytes, &files),
		  0);
	CHECK_NEAR(bytes, 30e6, 1);
	CHECK_NEAR(files, 30e3, 1e-3);
	CHECK_INT(pmbench_prior_run_trash(&p, "proj", "install", "cache",
					  "yarn", &bytes, &files),
		  0);
	CHECK_NEAR(bytes, 25e6, 1);
	CHECK_INT(pmbench_prior_run_trash(&p, "proj", "install", "clean", "npm",
					  &bytes, &files),
		  -1);
	pmbench_prior_release(&p);
	pmbench_result_release(&r);
	pmbench_result_release(&old);
}

CHECK_MAIN(CASE(same_pair_from_the_newest_result),
	   CASE(a_wide_pair_needs_rounds),
	   CASE(machine_spread_around_todays_ratio), CASE(nothing_to_go_by),
	   CASE(only_the_newest_files), CASE(overhead_per_run),
	   CASE(trash_per_run), CASE(estimate_pools_the_earlier_spread),
	   CASE(estimate_keeps_a_settled_ratio))
