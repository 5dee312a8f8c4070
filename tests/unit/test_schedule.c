#include "pmbench/common.h"

#include <math.h>

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/ctx.h"
#include "pmbench/result.h"
#include "pmbench/schedule.h"

/*
 * The scheduler with a fake participant that logs its turns: the
 * rotating order, warm-ups first, round numbering, errors and
 * cancellation in the middle of a round; then the budget's rules on
 * hand-made figures: whether a command is budgeted, why a cell stopped,
 * repeats, the allocation, the plan from recorded costs, what would fit.
 */

/* A fake participant: logs "round:who" (w for a warm-up) per turn. */
struct fake {
	struct pmbench_buf log;
	struct pmbench_ctx *ctx;
	unsigned cancel_round; /* cancel during this round's turn of... */
	size_t cancel_who;     /* ...this participant (if ctx) */
	int fail_round;	       /* -5 on this round's first turn, or -1 */
};

static int fake_turn(size_t who, const struct pmbench_round *round,
		     void *payload)
{
	struct fake *f = payload;

	pmbench_buf_addf(&f->log, "%u%s:%zu(%u/%u) ", round->number,
			 round->warmup ? "w" : "", who, round->nth, round->of);
	if (f->fail_round >= 0 && round->number == (unsigned)f->fail_round)
		return -5;
	if (f->ctx && round->number == f->cancel_round && who == f->cancel_who)
		pmbench_ctx_cancel(f->ctx, SIGINT);
	return 0;
}

static int fake_round_done(const struct pmbench_round *round, void *payload)
{
	struct fake *f = payload;

	pmbench_buf_addf(&f->log, "| ");
	(void)round;
	return 0;
}

static void fake_init(struct fake *f, struct pmbench_schedule *s, size_t nr)
{
	memset(f, 0, sizeof(*f));
	pmbench_buf_init(&f->log);
	f->fail_round = -1;
	s->nr = nr;
	s->turn = fake_turn;
	s->round_done = fake_round_done;
	s->payload = f;
}

TEST(order_rotates_and_warmups_come_first)
{
	struct pmbench_schedule s = PMBENCH_SCHEDULE_INIT;
	struct fake f;

	fake_init(&f, &s, 3);
	s.warmup = 1;
	s.runs = 3;
	CHECK_INT(pmbench_schedule_run(&s), 0);
	CHECK_STR(f.log.ptr, "0w:0(1/1) 0w:1(1/1) 0w:2(1/1) | "
			     "1:1(1/3) 1:2(1/3) 1:0(1/3) | "
			     "2:2(2/3) 2:0(2/3) 2:1(2/3) | "
			     "3:0(3/3) 3:1(3/3) 3:2(3/3) | ");
	CHECK_INT(pmbench_schedule_order(0, 4, 3), 1);
	CHECK_INT(pmbench_schedule_order(2, 0, 0), 0);
	pmbench_buf_release(&f.log);
}

TEST(rounds_numbered_from_the_first)
{
	struct pmbench_schedule s = PMBENCH_SCHEDULE_INIT;
	struct fake f;

	/* ci-cache's hit jobs: rounds 1 and 2, after the miss job's 0. */
	fake_init(&f, &s, 2);
	s.runs = 2;
	s.first_round = 1;
	s.round_done = NULL;
	CHECK_INT(pmbench_schedule_run(&s), 0);
	CHECK_STR(f.log.ptr, "1:1(1/2) 1:0(1/2) 2:0(2/2) 2:1(2/2) ");
	/* No participant, no round: nothing runs, nothing fails. */
	pmbench_buf_reset(&f.log);
	s.nr = 0;
	CHECK_INT(pmbench_schedule_run(&s), 0);
	CHECK_STR(f.log.ptr, "");
	pmbench_buf_release(&f.log);
}

TEST(an_error_stops_mid_round)
{
	struct pmbench_schedule s = PMBENCH_SCHEDULE_INIT;
	struct fake f;

	fake_init(&f, &s, 3);
	s.runs = 5;
	f.fail_round = 1;
	CHECK_INT(pmbench_schedule_run(&s), -5);
	/* The round is not completed: no round_done after it. */
	CHECK_STR(f.log.ptr, "0:0(1/5) 0:1(1/5) 0:2(1/5) | 1:1(2/5) ");
	pmbench_buf_release(&f.log);
}

TEST(cancellation_mid_round)
{
	struct pmbench_ctx ctx = PMBENCH_CTX_INIT;
	struct pmbench_schedule s = PMBENCH_SCHEDULE_INIT;
	struct fake f;

	CHECK_INT(pmbench_ctx_init(&ctx), 0);
	fake_init(&f, &s, 3);
	s.ctx = &ctx;
	s.warmup = 1;
	s.runs = 3;
	/* A signal during participant 2's turn of round 1 (its first). */
	f.ctx = &ctx;
	f.cancel_round = 1;
	f.cancel_who = 2;
	CHECK_INT(pmbench_schedule_run(&s), PMBENCH_EINTERRUPTED);
	CHECK_STR(f.log.ptr, "0w:0(1/1) 0w:1(1/1) 0w:2(1/1) | "
			     "1:1(1/3) 1:2(1/3) ");
	/* Cancelled before it starts: no turn at all. */
	pmbench_buf_reset(&f.log);
	CHECK_INT(pmbench_schedule_run(&s), PMBENCH_EINTERRUPTED);
	CHECK_STR(f.log.ptr, "");
	pmbench_ctx_release(&ctx);
	pmbench_buf_release(&f.log);
}

TEST(names)
{
	CHECK_STR(pmbench_schedule_stop_name(PMBENCH_SCHEDULE_PRECISION),
		  "precision");
	CHECK_STR(pmbench_schedule_stop_name(PMBENCH_SCHEDULE_MAX_RUNS),
		  "max-runs");
	CHECK_STR(pmbench_schedule_stop_name(PMBENCH_SCHEDULE_TIME_BUDGET),
		  "time-budget");
	CHECK_STR(pmbench_schedule_stop_name(PMBENCH_SCHEDULE_FAILURES),
		  "failures");
	CHECK(!pmbench_schedule_stop_name(PMBENCH_SCHEDULE_CONTINUE));
}

/*
 * The one rule of whether a command is budgeted: --runs auto or --budget
 * always; else the command's default unless --runs N or a shard.
 */
TEST(budgeted_said_once)
{
	/* by_default, runs_given, runs_auto, budget_given, sharded */
	CHECK_INT(pmbench_schedule_budgeted(1, 0, 0, 0, 0), 1);
	CHECK_INT(pmbench_schedule_budgeted(1, 1, 0, 0, 0), 0);
	CHECK_INT(pmbench_schedule_budgeted(1, 0, 0, 0, 1), 0);
	CHECK_INT(pmbench_schedule_budgeted(1, 1, 1, 0, 0), 1);
	CHECK_INT(pmbench_schedule_budgeted(0, 0, 0, 0, 0), 0);
	CHECK_INT(pmbench_schedule_budgeted(0, 0, 0, 1, 0), 1);
	CHECK_INT(pmbench_schedule_budgeted(0, 1, 1, 0, 0), 1);
}

/* Why a cell's group stopped adding rounds, and the reason's JSON. */
TEST(stop_reasons)
{
	struct pmbench_schedule_budget o = PMBENCH_SCHEDULE_BUDGET_INIT;
	struct pmbench_schedule_cell c = {
		.half = 0.05, .point = 2.0, .lo = 1.9, .hi = 2.1
	};
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_result back = PMBENCH_RESULT_INIT;
	struct pmbench_cell *cell;
	char *json;

	CHECK_INT(pmbench_schedule_why(&c, 5, &o), PMBENCH_SCHEDULE_PRECISION);
	/* Decided but wider than the target; open; at the cap. */
	c.half = 0.2;
	CHECK_INT(pmbench_schedule_why(&c, 5, &o),
		  PMBENCH_SCHEDULE_TIME_BUDGET);
	c.half = 0.05;
	c.lo = 0.95;
	CHECK_INT(pmbench_schedule_why(&c, 5, &o),
		  PMBENCH_SCHEDULE_TIME_BUDGET);
	CHECK_INT(pmbench_schedule_why(&c, o.max_runs, &o),
		  PMBENCH_SCHEDULE_MAX_RUNS);
	c.baseline = 1;
	CHECK_INT(pmbench_schedule_why(&c, 5, &o), PMBENCH_SCHEDULE_PRECISION);
	c.excluded = 1;
	CHECK_INT(pmbench_schedule_why(&c, 5, &o), PMBENCH_SCHEDULE_FAILURES);
	/* The reason and the knobs survive the JSON round trip. */
	cell = pmbench_result_add_cell(&r, "f", "install", "clean", "npm");
	cell->stopped_by = pmbench_xstrdup(
		pmbench_schedule_stop_name(PMBENCH_SCHEDULE_TIME_BUDGET));
	pmbench_schedule_record(&r, &o);
	json = pmbench_result_to_json(&r);
	CHECK_INT(pmbench_result_from_json(&back, json, NULL), 0);
	free(json);
	CHECK_STR(back.cells[0].stopped_by, "time-budget");
	CHECK_INT(back.runs_auto, 1);
	CHECK_NEAR(back.auto_target, o.target, 0);
	CHECK_INT(back.auto_min_runs, 5);
	CHECK(back.auto_budget_ns == o.budget_ns);
	pmbench_result_release(&back);
	pmbench_result_release(&r);
}

/* The budget's repeats: a cheap PM runs k times, k from the costs. */
TEST(repeats_from_costs)
{
	struct pmbench_schedule_budget o = PMBENCH_SCHEDULE_BUDGET_INIT;
	const uint64_t ms = 1000000;

	/* A round of 10 s: 10 % is 1 s, so a 0.25 s turn runs 1 + 4. */
	CHECK_INT(pmbench_schedule_repeats(250 * ms, 10000 * ms, 5000 * ms, &o),
		  5);
	/* Not short against the slowest (over a quarter): once. */
	CHECK_INT(pmbench_schedule_repeats(2000 * ms, 10000 * ms, 5000 * ms,
					   &o),
		  1);
	/* Very cheap: capped. */
	CHECK_INT(pmbench_schedule_repeats(1 * ms, 10000 * ms, 5000 * ms, &o),
		  PMBENCH_SCHEDULE_REPEAT_MAX);
	/* Costs not known yet: once. */
	CHECK_INT(pmbench_schedule_repeats(0, 10000 * ms, 5000 * ms, &o), 1);
	/* The repeats add at most the share of the round. */
	for (uint64_t c = 1; c < 3000; c += 7) {
		unsigned k = pmbench_schedule_repeats(c * ms, 10000 * ms,
						      5000 * ms, &o);

		CHECK((double)(k - 1) * (double)c <= 0.10 * 10000 + 1e-9);
	}
}

/*
 * A cell at ratio 3 (its verdict decided unless it is wider than +-66 %)
 * with relative half-width `half`, or one whose ratio is not known yet.
 */
static struct pmbench_schedule_cell cell(size_t group, int baseline,
					 double half, uint64_t cost)
{
	struct pmbench_schedule_cell c = { .group = group,
					   .baseline = baseline,
					   .half = half,
					   .point = 3,
					   .lo = 3 * (1 - half),
					   .hi = 3 * (1 + half),
					   .cost_ns = cost };

	return c;
}

/* A cell at ratio `point` with the interval [lo, hi]. */
static struct pmbench_schedule_cell ratio(size_t group, double point, double lo,
					  double hi, uint64_t cost)
{
	struct pmbench_schedule_cell c = { .group = group,
					   .half = (hi - lo) / 2 / point,
					   .point = point,
					   .lo = lo,
					   .hi = hi,
					   .cost_ns = cost };

	return c;
}

/* The widest ratio relative to the target gets the next round. */
TEST(allocate_widest_first)
{
	struct pmbench_schedule_budget o = PMBENCH_SCHEDULE_BUDGET_INIT;
	struct pmbench_schedule_cell c[6];
	unsigned rounds[2] = { 3, 3 };

	/* Group 0: within the target; group 1: one PM at +-30 %. */
	c[0] = cell(0, 1, 0, 100);
	c[1] = cell(0, 0, 0.05, 100);
	c[2] = cell(0, 0, 0.08, 100);
	c[3] = cell(1, 1, 0, 100);
	c[4] = cell(1, 0, 0.30, 100);
	c[5] = cell(1, 0, 0.04, 100);
	CHECK_INT(pmbench_schedule_allocate(c, 6, rounds, 2, 10, &o, 1000), 1);
	/* The baseline and the PM outside the target, no other. */
	CHECK(!c[0].next && !c[1].next && !c[2].next);
	CHECK(c[3].next && c[4].next && !c[5].next);

	/* Both outside: the wider relative to the target wins. */
	c[1].half = 0.50;
	CHECK_INT(pmbench_schedule_allocate(c, 6, rounds, 2, 10, &o, 1000), 0);
	CHECK(c[0].next && c[1].next && !c[2].next && !c[4].next);

	/*
	 * A ratio not known yet goes first; its verdict is open, so its
	 * round is for it (and the baseline): the settled +-30 % waits.
	 */
	c[5].half = -1;
	CHECK_INT(pmbench_schedule_allocate(c, 6, rounds, 2, 10, &o, 1000), 1);
	CHECK(c[5].next && !c[4].next && c[3].next);
}

/*
 * A ratio the rest of the budget cannot bring within the target yields
 * to a narrower one it can; with budget enough, or none reachable, the
 * widest goes first again.
 */
TEST(allocate_reachable_first)
{
	struct pmbench_schedule_budget o = PMBENCH_SCHEDULE_BUDGET_INIT;
	struct pmbench_schedule_cell c[4];
	unsigned rounds[2] = { 5, 5 };

	o.target = 0.10;
	/* Group 0: +-50 %, about 5 * (25 - 1) = 120 rounds of 210 more. */
	c[0] = cell(0, 1, 0, 100);
	c[1] = cell(0, 0, 0.50, 100);
	/* Group 1: +-12 %, about 5 * (1.44 - 1) = 2.2 rounds more. */
	c[2] = cell(1, 1, 0, 100);
	c[3] = cell(1, 0, 0.12, 100);
	CHECK_INT(pmbench_schedule_allocate(c, 4, rounds, 2, 10, &o, 1000), 1);
	CHECK(!c[0].next && !c[1].next && c[2].next && c[3].next);
	/* Not within --max-runs (30) either. */
	CHECK_INT(pmbench_schedule_allocate(c, 4, rounds, 2, 10, &o, 30000), 1);
	/* Enough for 120 rounds of group 0: the widest again. */
	o.max_runs = 200;
	CHECK_INT(pmbench_schedule_allocate(c, 4, rounds, 2, 10, &o, 30000), 0);
	/* Neither reachable in what is left: the widest. */
	c[3].half = 0.40;
	CHECK_INT(pmbench_schedule_allocate(c, 4, rounds, 2, 10, &o, 1000), 0);
}

/* No round when all are within the target, or none fits. */
TEST(allocate_stops)
{
	struct pmbench_schedule_budget o = PMBENCH_SCHEDULE_BUDGET_INIT;
	struct pmbench_schedule_cell c[4];
	unsigned rounds[2] = { 3, 3 };

	c[0] = cell(0, 1, 0, 100);
	c[1] = cell(0, 0, 0.09, 100);
	c[2] = cell(1, 1, 0, 100);
	c[3] = cell(1, 0, 0.10, 100);
	CHECK_INT(pmbench_schedule_allocate(c, 4, rounds, 2, 10, &o, 1000), -1);
	/* Outside, but the round (baseline + PM + control) does not fit. */
	c[3].half = 0.5;
	CHECK_INT(pmbench_schedule_allocate(c, 4, rounds, 2, 10, &o, 209), -1);
	CHECK_INT(pmbench_schedule_allocate(c, 4, rounds, 2, 10, &o, 210), 1);
	/* A scenario at its most rounds gets none. */
	rounds[1] = o.max_runs;
	CHECK_INT(pmbench_schedule_allocate(c, 4, rounds, 2, 10, &o, 1000), -1);
	/* Excluded cells (no times) and a baseline without times: none. */
	rounds[1] = 3;
	c[3].excluded = 1;
	CHECK_INT(pmbench_schedule_allocate(c, 4, rounds, 2, 10, &o, 1000), -1);
	c[3].excluded = 0;
	c[2].excluded = 1;
	CHECK_INT(pmbench_schedule_allocate(c, 4, rounds, 2, 10, &o, 1000), -1);
}

/* A tie goes to the cheaper round. */
TEST(allocate_tie_cheaper)
{
	struct pmbench_schedule_budget o = PMBENCH_SCHEDULE_BUDGET_INIT;
	struct pmbench_schedule_cell c[4];
	unsigned rounds[2] = { 3, 3 };

	c[0] = cell(0, 1, 0, 500);
	c[1] = cell(0, 0, 0.2, 500);
	c[2] = cell(1, 1, 0, 100);
	c[3] = cell(1, 0, 0.2, 100);
	CHECK_INT(pmbench_schedule_allocate(c, 4, rounds, 2, 0, &o, 5000), 1);
}

/*
 * A verdict is decided on one side of 1 or within the margin; the rounds
 * its need says would decide it, an interval narrowed as one over the
 * square root of the rounds, do.
 */
TEST(verdicts_and_their_need)
{
	const double points[] = { 0.5, 0.93, 0.99, 1.0, 1.03, 1.06, 1.2, 15 };
	const double halves[] = { 0.06, 0.1, 0.2, 0.5 };

	CHECK(pmbench_schedule_decided(1.05, 1.2, 0.1));
	CHECK(pmbench_schedule_decided(0.8, 0.95, 0.1));
	CHECK(pmbench_schedule_decided(0.95, 1.08, 0.1));
	CHECK(!pmbench_schedule_decided(0.95, 1.15, 0.1));
	CHECK(!pmbench_schedule_decided(0.85, 1.05, 0.1));
	CHECK(!pmbench_schedule_decided(0, 1.05, 0.1));
	CHECK_NEAR(pmbench_schedule_verdict_need(1.1, 1.05, 1.2, 5, 0.1), 0, 0);
	CHECK_NEAR(pmbench_schedule_verdict_need(1, 0, 1.2, 5, 0.1), -1, 0);
	/* 1.00 (0.85-1.15) after 5: (0.151 / log 1.1)^2 = 2.51 -> 7.6. */
	CHECK_NEAR(pmbench_schedule_verdict_need(1, 0.85, 1.15, 5, 0.1), 7.57,
		   0.02);
	/* 1.30 (0.90-1.90): to clear 1, (0.374 / 0.262)^2 -> 5.1. */
	CHECK_NEAR(pmbench_schedule_verdict_need(1.3, 0.9, 1.9, 5, 0.1), 5.13,
		   0.02);
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(points); i++) {
		for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(halves); k++) {
			double c = log(points[i]), h = halves[k];
			double need = pmbench_schedule_verdict_need(
				points[i], exp(c - h), exp(c + h), 5, 0.1);
			double h2 = h * sqrt(5 / (5 + need)) * 0.999;

			CHECK(need >= 0);
			CHECK(pmbench_schedule_decided(exp(c - h2), exp(c + h2),
						       0.1));
		}
	}
	CHECK_NEAR(pmbench_schedule_target_need(0.2, 5, 0.1), 15, 1e-9);
	CHECK_NEAR(pmbench_schedule_target_need(0.1, 5, 0.1), 0, 0);
	CHECK_NEAR(pmbench_schedule_target_need(-1, 5, 0.1), -1, 0);
}

/*
 * An interval that crosses 1 and the margin gets rounds before a 15x at
 * +-18 %, and its round runs the open cell alone with the baseline; the
 * narrowing comes once no verdict is open.
 */
TEST(allocate_open_verdicts_first)
{
	struct pmbench_schedule_budget o = PMBENCH_SCHEDULE_BUDGET_INIT;
	struct pmbench_schedule_cell c[5];
	unsigned rounds[2] = { 5, 5 };

	c[0] = cell(0, 1, 0, 100);
	c[1] = ratio(0, 15, 15 * 0.82, 15 * 1.18, 100);
	c[2] = cell(1, 1, 0, 100);
	/* 1.15 (0.97-1.36): about 2.3 rounds more. */
	c[3] = ratio(1, 1.15, 0.97, 1.36, 100);
	c[4] = ratio(1, 15, 15 * 0.78, 15 * 1.22, 100);
	CHECK_INT(pmbench_schedule_allocate(c, 5, rounds, 2, 10, &o, 10000), 1);
	CHECK(!c[0].next && !c[1].next && c[2].next && c[3].next && !c[4].next);
	/* Decided (within the margin): the widest ratio's round, with all. */
	c[3] = ratio(1, 1.02, 0.95, 1.08, 100);
	CHECK_INT(pmbench_schedule_allocate(c, 5, rounds, 2, 10, &o, 10000), 1);
	CHECK(c[2].next && !c[3].next && c[4].next);
	c[4].half = 0.09;
	CHECK_INT(pmbench_schedule_allocate(c, 5, rounds, 2, 10, &o, 10000), 0);
	CHECK(c[0].next && c[1].next && !c[2].next);
}

/*
 * An open verdict the rest of the budget cannot decide yields to a
 * ratio it can narrow; with budget enough it goes first again. Of two
 * open verdicts, the one that needs the least time goes first.
 */
TEST(allocate_open_reachable_and_nearest)
{
	struct pmbench_schedule_budget o = PMBENCH_SCHEDULE_BUDGET_INIT;
	struct pmbench_schedule_cell c[4];
	unsigned rounds[2] = { 5, 5 };

	c[0] = cell(0, 1, 0, 100);
	c[1] = cell(0, 0, 0.12, 100);
	c[2] = cell(1, 1, 0, 100);
	/* 1.04 (0.80-1.35): about 5 * ((0.26 / 0.056)^2 - 1) = 102 more. */
	c[3] = ratio(1, 1.04, 0.8, 1.35, 100);
	CHECK_INT(pmbench_schedule_allocate(c, 4, rounds, 2, 10, &o, 2000), 0);
	rounds[1] = 4;
	o.max_runs = 200;
	CHECK_INT(pmbench_schedule_allocate(c, 4, rounds, 2, 10, &o, 30000), 1);
	/* Both open: 7.6 rounds of 210 against 1 round of 210. */
	c[1] = ratio(0, 1, 0.85, 1.15, 100);
	c[3] = ratio(1, 1.1, 0.98, 1.3, 100);
	CHECK_INT(pmbench_schedule_allocate(c, 4, rounds, 2, 10, &o, 30000), 1);
	c[3] = ratio(1, 1.0, 0.8, 1.25, 100);
	CHECK_INT(pmbench_schedule_allocate(c, 4, rounds, 2, 10, &o, 30000), 0);
}

/* The time the rounds still need: the most one cell needs, per group. */
TEST(need_from_the_cells)
{
	struct pmbench_schedule_budget o = PMBENCH_SCHEDULE_BUDGET_INIT;
	struct pmbench_schedule_cell c[4];
	unsigned rounds[2] = { 5, 5 };

	c[0] = cell(0, 1, 0, 100);
	c[1] = cell(0, 0, 0.2, 100); /* 15 rounds more */
	c[2] = cell(1, 1, 0, 100);
	c[3] = cell(1, 0, 0.05, 100); /* settled */
	CHECK(pmbench_schedule_need_ns(c, 4, rounds, 2, 10, &o) == 15 * 210);
	/* At most up to max_runs. */
	rounds[0] = o.max_runs - 3;
	CHECK(pmbench_schedule_need_ns(c, 4, rounds, 2, 10, &o) == 3 * 210);
	c[3].half = -1;
	CHECK(pmbench_schedule_need_ns(c, 4, rounds, 2, 10, &o) == UINT64_MAX);
	c[3].half = 0.05;
	c[1].half = 0.05;
	CHECK(pmbench_schedule_need_ns(c, 4, rounds, 2, 10, &o) == 0);
}

/*
 * The same rounds group by group, and who runs in them (for the trash
 * they leave): group 0 15 rounds of its baseline and its wide cell, not
 * of its settled one; group 1 none (its baseline would be in any).
 */
TEST(need_rounds_and_who_runs)
{
	struct pmbench_schedule_budget o = PMBENCH_SCHEDULE_BUDGET_INIT;
	struct pmbench_schedule_cell c[5];
	unsigned rounds[2] = { 5, 5 };
	double most[2];
	int runs[5];

	c[0] = cell(0, 1, 0, 100);
	c[1] = cell(0, 0, 0.2, 100);  /* 15 rounds more */
	c[2] = cell(0, 0, 0.05, 100); /* settled */
	c[3] = cell(1, 1, 0, 100);
	c[4] = cell(1, 0, 0.05, 100); /* settled */
	pmbench_schedule_need_rounds(c, 5, rounds, 2, &o, most, runs);
	CHECK(most[0] == 15 && most[1] == 0);
	CHECK(runs[0] && runs[1] && !runs[2]);
	CHECK(runs[3] && !runs[4]);
	/* Not known yet: -1, and the cell runs. */
	c[4].half = -1;
	pmbench_schedule_need_rounds(c, 5, rounds, 2, &o, most, runs);
	CHECK(most[1] == -1 && runs[3] && runs[4]);
	/* A baseline that cannot run: no rounds for its group. */
	c[3].excluded = 1;
	pmbench_schedule_need_rounds(c, 5, rounds, 2, &o, most, runs);
	CHECK(most[1] == 0 && !runs[3]);
}

/* The plan from recorded costs: the minimum first, then the budget. */
TEST(plan_from_costs)
{
	struct pmbench_schedule_costs g[2] = {
		{ .round_ns = 10, .first_ns = 12, .min = 5, .max = 30 },
		{ .round_ns = 20,
		  .first_ns = 25,
		  .done = 1,
		  .min = 5,
		  .max = 30 },
	};
	struct pmbench_schedule_plan p;

	/* 5 * 10 + 4 * 20 = 130 of minimum, after 100, tail 7. */
	pmbench_schedule_plan_make(&p, g, 2, 100, 7, 900, UINT64_MAX);
	CHECK(p.min_ns == 130 && p.fit_ns == 237 && p.fits);
	CHECK(p.extra_ns == 663 && p.end_ns == 900);
	/* What the cells still need, if less. */
	pmbench_schedule_plan_make(&p, g, 2, 100, 7, 1000, 60);
	CHECK(p.extra_ns == 60 && p.end_ns == 297);
	/* Every group to its max_runs, if less: 25 * 10 + 25 * 20. */
	pmbench_schedule_plan_make(&p, g, 2, 100, 7, 100000, UINT64_MAX);
	CHECK(p.extra_ns == 750);
	/* The minimum does not fit: it runs anyway. */
	pmbench_schedule_plan_make(&p, g, 2, 100, 7, 200, UINT64_MAX);
	CHECK(!p.fits && p.end_ns == 237 && p.extra_ns == 0);
	/* A fixed plan: no budget, the rounds to min alone. */
	g[0].max = g[0].min;
	g[1].max = g[1].min;
	pmbench_schedule_plan_make(&p, g, 2, 100, 0, 0, UINT64_MAX);
	CHECK(p.fits && p.end_ns == 230);
}

/* What would fit: the cheapest scenarios, or without the costliest PMs. */
TEST(what_would_fit)
{
	/* Fresh: 12 + 50 = 62, 25 + 80 = 105, 5 + 25 = 30. */
	struct pmbench_schedule_costs g[3] = {
		{ .round_ns = 10, .first_ns = 12, .min = 5, .max = 30 },
		{ .round_ns = 20,
		  .first_ns = 25,
		  .done = 1,
		  .min = 5,
		  .max = 30 },
		{ .round_ns = 5, .first_ns = 5, .min = 5, .max = 30 },
	};
	/* Three PMs, the second the costliest. */
	const uint64_t pm_ns[] = { 2, 6, 1, 4, 12, 2, 1, 3, 0 };
	int keep[3];

	CHECK_INT(pmbench_schedule_fit_groups(keep, g, 3, 40, 200), 2);
	CHECK(keep[0] && !keep[1] && keep[2]);
	CHECK_INT(pmbench_schedule_fit_groups(keep, g, 3, 40, 60), 0);
	CHECK_INT(pmbench_schedule_fit_groups(keep, g, 3, 40, 1000), 3);
	/* All: 30 + 197 = 227; without PM 1: 20 + 62 * .4 + 105 * .4 + 30 * .4 */
	CHECK_INT(pmbench_schedule_fit_pms(keep, g, 3, pm_ns, 3, 0, 30, 1000),
		  3);
	CHECK_INT(pmbench_schedule_fit_pms(keep, g, 3, pm_ns, 3, 0, 30, 120),
		  2);
	CHECK(keep[0] && !keep[1] && keep[2]);
	/* The baseline is never left out; one PM alone is no comparison. */
	CHECK_INT(pmbench_schedule_fit_pms(keep, g, 3, pm_ns, 3, 1, 30, 120),
		  0);
	CHECK_INT(pmbench_schedule_fit_pms(keep, g, 3, pm_ns, 3, 0, 30, 10), 0);
}

#define S(x) ((uint64_t)((x)*1e9))

/*
 * What would fit, in words: a smaller set than was asked, or only a
 * budget. Four strategies of 60 s each in a run of their own (a first
 * round of 20 s, 4 more of 10 s), 30 s of primings, 40 s of tail; three
 * PMs, the second the costliest.
 */
TEST(what_would_fit_in_words)
{
	struct pmbench_schedule_costs g[4];
	const char *const groups[] = { "none", "store", "node_modules",
				       "store+node_modules" };
	const char *const pms[] = { "npm", "pnpm", "bun" };
	uint64_t pm_ns[12];
	struct pmbench_schedule_names n = { .labels = groups,
					    .groups = groups,
					    .group_option = "--strategy",
					    .pms = pms,
					    .pms_nr = 3,
					    .base = 0,
					    .pm_ns = pm_ns,
					    .fixed_ns = S(30) };
	struct pmbench_schedule_plan p;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < 4; i++) {
		g[i] = (struct pmbench_schedule_costs){ .round_ns = S(10),
							.first_ns = S(20),
							.done = 1,
							.min = 5,
							.max = 30 };
		pm_ns[i * 3] = S(2);
		pm_ns[i * 3 + 1] = S(5);
		pm_ns[i * 3 + 2] = S(3);
	}
	/*
	 * After 8 min of waits (ci-cache of 2026-12-06 under --budget 6m):
	 * 30 + 480 + 80 used, 160 of minimum, 40 of tail, 790 s. Every
	 * strategy and PM would fit 6 min in a run without the waits, and
	 * were named (what was asked); with them nothing smaller fits.
	 */
	pmbench_schedule_plan_make(&p, g, 4, S(590), S(40), S(360), UINT64_MAX);
	CHECK(!p.fits);
	pmbench_schedule_fit_words(&b, &p, g, 4, &n, S(360));
	CHECK_STR(b.ptr, "--budget 14m");
	/*
	 * Without the waits, under 200 s: 310 s needed; 160 s after the
	 * tail hold two strategies (30 + 60 + 60), or the PMs without
	 * pnpm (20 + 4 * 60 * 0.5).
	 */
	pmbench_buf_reset(&b);
	pmbench_schedule_plan_make(&p, g, 4, S(110), S(40), S(200), UINT64_MAX);
	pmbench_schedule_fit_words(&b, &p, g, 4, &n, S(200));
	CHECK_STR(b.ptr, "--budget 6m, or --strategy none,store, or --pm "
			 "npm,bun");
	pmbench_buf_release(&b);
}

/* The plan's groups in words, as what will run. */
TEST(plan_in_words)
{
	const struct pmbench_schedule_costs g[3] = {
		{ .round_ns = S(9.1), .min = 5 },
		{ .round_ns = S(2.1), .done = 1, .min = 5 },
		{ .round_ns = S(31.1), .done = 5, .min = 5 },
	};
	const char *const labels[] = { "clean", "none", "cache+lockfile" };
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_schedule_plan_words(&b, g, 3, labels);
	CHECK_STR(b.ptr, "3 groups: clean 5 rounds of 9.1 s, none 4 more "
			 "rounds of 2.1 s, cache+lockfile 5 rounds run, 31.1 "
			 "s each");
	pmbench_buf_release(&b);
}

CHECK_MAIN(CASE(order_rotates_and_warmups_come_first), CASE(repeats_from_costs),
	   CASE(allocate_widest_first), CASE(allocate_reachable_first),
	   CASE(allocate_stops), CASE(allocate_tie_cheaper),
	   CASE(verdicts_and_their_need), CASE(allocate_open_verdicts_first),
	   CASE(allocate_open_reachable_and_nearest), CASE(need_from_the_cells),
	   CASE(need_rounds_and_who_runs), CASE(plan_from_costs),
	   CASE(what_would_fit), CASE(what_would_fit_in_words),
	   CASE(plan_in_words), CASE(rounds_numbered_from_the_first),
	   CASE(an_error_stops_mid_round), CASE(cancellation_mid_round),
	   CASE(names), CASE(budgeted_said_once), CASE(stop_reasons))
