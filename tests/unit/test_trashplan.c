/*
 * The trash in a budget's plan (trashplan.c), on hand-made figures:
 * when the trash must be emptied before a group's rounds, where the plan
 * empties it (before the group whose rounds it cannot hold, or within
 * a group whose rounds alone exceed a limit), and what that costs (the
 * deletion at the model's rate, the wait after it within its bounds).
 */
#include "pmbench/common.h"

#include "check.h"
#include "pmbench/trashplan.h"

/*
 * A model with round figures: 1,000 files/s, then 100 s per million, at
 * least 2 and at most 60, from 100 files on.
 */
static const struct pmbench_trash_model model = {
	.delete_rate = 1000,
	.wait_per_mfile = 100,
	.wait_min = 2,
	.wait_max = 60,
	.wait_from = 100,
};

TEST(must_empty_past_a_limit)
{
	struct pmbench_fs_trash_room room = { .used_bytes = 600,
					      .used_files = 60,
					      .limit_bytes = 1000,
					      .limit_files = 100 };
	struct pmbench_trash_need need = { .bytes = 100, .files = 5 };

	/* 600 + 4 * 100 = 1000: at the limit, held. */
	CHECK(!pmbench_trash_must_empty(&room, &need, 4));
	CHECK(pmbench_trash_must_empty(&room, &need, 5));
	/* The inodes alone: 60 + 9 * 5 = 105 > 100. */
	need.bytes = 1;
	CHECK(!pmbench_trash_must_empty(&room, &need, 8));
	CHECK(pmbench_trash_must_empty(&room, &need, 9));
	/* An empty trash is never emptied first, whatever comes. */
	room.used_bytes = room.used_files = 0;
	CHECK(!pmbench_trash_must_empty(&room, &need, 1000));
}

TEST(cost_of_an_emptying)
{
	struct pmbench_trash_model none = model;

	/* 10,000 files: 10 s deleting, then 1 s of wait, raised to 2. */
	CHECK_INT(pmbench_trash_cost_ns(10000, &model), 12000000000ull);
	/* 200,000: 200 s, then 20 s. */
	CHECK_INT(pmbench_trash_cost_ns(200000, &model), 220000000000ull);
	/* 1,000,000: 1,000 s, then the bound, 60 s. */
	CHECK_INT(pmbench_trash_cost_ns(1000000, &model), 1060000000000ull);
	CHECK_INT(pmbench_trash_cost_ns(0, &model), 0);
	/* Too few files to slow the file system: the deletion alone. */
	CHECK_INT(pmbench_trash_cost_ns(99, &model), 99000000ull);
	/* A file system that is not slowed: the deletion alone. */
	pmbench_trash_model_default(&none, 0);
	CHECK(none.wait_max == 0 && none.wait_per_mfile == 0);
	CHECK_INT(pmbench_trash_cost_ns((uint64_t)none.delete_rate, &none),
		  1000000000ull);
}

/*
 * The default bench's shape: four groups, the trash filling up in the
 * third. The plan empties it once, before the third group (whose rounds
 * would not fit), never within the rounds.
 */
TEST(emptied_before_the_group_it_cannot_hold)
{
	struct pmbench_trash_need need[4] = {
		{ 300, 30 }, { 300, 30 }, { 200, 20 }, { 50, 5 }
	};
	unsigned rounds[4] = { 5, 5, 5, 5 };
	struct pmbench_fs_trash_room room = { .used_bytes = 100,
					      .used_files = 10,
					      .limit_bytes = 4000,
					      .limit_files = 500 };
	struct pmbench_trash_plan p;

	/* 100 + 1,500 + 1,500 = 3,100; + 1,000 = 4,100 > 4,000. */
	pmbench_trash_plan_make(&p, need, rounds, 4, &room, &model);
	CHECK_INT(p.emptyings, 1);
	CHECK_INT(p.first_group, 2);
	CHECK_INT(p.within, 0);
	CHECK_INT(p.files, 310);
	CHECK_INT(p.cost_ns, pmbench_trash_cost_ns(310, &model));
	/* A larger limit: no emptying, no cost. */
	room.limit_bytes = 5000;
	pmbench_trash_plan_make(&p, need, rounds, 4, &room, &model);
	CHECK(p.emptyings == 0 && p.first_group == 4 && p.cost_ns == 0);
	/* Groups that run no more rounds leave nothing. */
	room.limit_bytes = 4000;
	rounds[2] = 0;
	pmbench_trash_plan_make(&p, need, rounds, 4, &room, &model);
	CHECK_INT(p.emptyings, 0);
}

/* A group whose rounds alone exceed the limit: emptied within them too. */
TEST(a_group_larger_than_the_trash)
{
	struct pmbench_trash_need need[2] = { { 100, 1 }, { 400, 4 } };
	unsigned rounds[2] = { 2, 5 };
	struct pmbench_fs_trash_room room = { .limit_bytes = 1000,
					      .limit_files = 1000 };
	struct pmbench_trash_plan p;

	/*
	 * 200 after the first group; 2,000 more do not fit: emptied
	 * before the second (2 files), then after its second round (8).
	 */
	pmbench_trash_plan_make(&p, need, rounds, 2, &room, &model);
	CHECK_INT(p.emptyings, 3);
	CHECK_INT(p.first_group, 1);
	CHECK_INT(p.within, 2);
	CHECK_INT(p.files, 2 + 8 + 8);
}

/*
 * The further rounds of the estimate: 12 s of them leave what the
 * groups' rounds leave per second (400 bytes and 40 files in 6 s).
 */
TEST(further_rounds_at_the_groups_pace)
{
	struct pmbench_trash_need need[3] = { { 100, 10 }, { 300, 30 } };
	unsigned rounds[3] = { 5, 0 };
	uint64_t round_ns[2] = { 2000000000ull, 4000000000ull };

	pmbench_trash_further(need, rounds, round_ns, 2, 12000000000ull, NULL);
	CHECK_INT(rounds[2], 1);
	CHECK_INT(need[2].bytes, 800);
	CHECK_INT(need[2].files, 80);
	/* None planned: none left. */
	pmbench_trash_further(need, rounds, round_ns, 2, 0, NULL);
	CHECK(rounds[2] == 0 && need[2].bytes == 0 && need[2].files == 0);
}

/*
 * With what the further rounds the cells need leave (only some PMs run
 * in them: 50 bytes and 4 files in 2 s), 12 s of them leave that per
 * second, not the groups' whole rounds'; a pace not known (0 s) is the
 * groups' again.
 */
TEST(further_rounds_at_their_own_pace)
{
	struct pmbench_trash_need need[3] = { { 100, 10 }, { 300, 30 } };
	unsigned rounds[3] = { 5, 0 };
	uint64_t round_ns[2] = { 2000000000ull, 4000000000ull };
	struct pmbench_trash_pace pace = { { 50, 4 }, 2000000000ull };

	pmbench_trash_further(need, rounds, round_ns, 2, 12000000000ull, &pace);
	CHECK_INT(rounds[2], 1);
	CHECK_INT(need[2].bytes, 300);
	CHECK_INT(need[2].files, 24);
	pace.ns = 0;
	pmbench_trash_further(need, rounds, round_ns, 2, 12000000000ull, &pace);
	CHECK_INT(need[2].bytes, 800);
	CHECK_INT(need[2].files, 80);
}

/*
 * The budget's plan with the trash reserved (the budget is the whole
 * command's): two groups of 10 s rounds, 5 to run each, 20 s used, a
 * budget of 300 s; a round leaves 5,000 files in each. With nothing to
 * empty the plan is pmbench_schedule_plan_make()'s: 100 s of minimum,
 * 180 s of further rounds, 300 s in all.
 */
static const struct pmbench_schedule_costs two[2] = {
	{ .round_ns = 10000000000ull, .min = 5, .max = 30 },
	{ .round_ns = 10000000000ull, .min = 5, .max = 30 },
};
static const struct pmbench_trash_need five_k[2] = { { 1, 5000 }, { 1, 5000 } };
#define S 1000000000ull

/*
 * The plan from a trash of `files` (its limit `limit` files), a budget
 * and what the cells need, checked: its emptyings and the group of the
 * first, what the minimum needs, the further rounds, the end (in s).
 */
static void check_plan(uint64_t files, uint64_t limit, uint64_t budget_s,
		       uint64_t need_ns, unsigned emptyings, size_t first,
		       uint64_t fit_s, uint64_t extra_s, uint64_t end_s)
{
	struct pmbench_fs_trash_room room = { .used_bytes = 1,
					      .used_files = files,
					      .limit_bytes = ~0ull,
					      .limit_files = limit };
	struct pmbench_schedule_plan p;
	struct pmbench_trash_plan tp;

	pmbench_trash_plan_budget(&p, &tp, two, 2, five_k, NULL, &room, &model,
				  20 * S, budget_s * S, need_ns);
	CHECK_INT(tp.emptyings, emptyings);
	CHECK_INT(tp.first_group, first);
	CHECK_INT(p.fit_ns, fit_s * S);
	CHECK_INT(p.fits, fit_s <= budget_s);
	CHECK_INT(p.extra_ns, extra_s * S);
	CHECK_INT(p.end_ns, end_s * S);
	/* Never past the budget when the minimum fits. */
	CHECK(fit_s > budget_s || p.end_ns <= budget_s * S);
}

/* 1,000 + 50,000 + 180 s of further rounds (90,000): held. */
TEST(budget_holds_no_emptying)
{
	check_plan(1000, 1000000, 300, UINT64_MAX, 0, 3, 120, 180, 300);
}

/*
 * 90,000 files in the trash, its limit 100,000: the first group's
 * 25,000 need it emptied first (90 s deleting, 9 s of wait). That is part
 * of the minimum (fit 20 + 100 + 99 s), and the further rounds get what
 * is left: 81 s, whose 40,500 files the emptied trash holds. In all: the
 * budget. A budget of 200 s cannot hold the minimum: said so (fits 0),
 * and no further rounds.
 */
TEST(budget_holds_the_minimums_emptying)
{
	check_plan(90000, 100000, 300, UINT64_MAX, 1, 0, 219, 81, 300);
	check_plan(90000, 100000, 200, UINT64_MAX, 1, 0, 219, 0, 219);
}

/*
 * 40,000 files and a budget of 600 s: the minimum's 50,000 fit, 480 s of
 * further rounds (240,000 files) do not. Their emptying (the 90,000:
 * 99 s) comes off the further rounds (381 s left: more than the 20 s the
 * trash holds without it by more than the 99 s), not out of the
 * minimum: 600 s in all. With only 20 s of further rounds needed, no
 * emptying and nothing reserved.
 */
TEST(budget_holds_the_further_rounds_emptying)
{
	check_plan(40000, 100000, 600, UINT64_MAX, 1, 2, 120, 381, 600);
	check_plan(40000, 100000, 600, 20 * S, 0, 3, 120, 20, 140);
}

/*
 * The plan's further rounds and end (in ms) with a trash of `files`
 * under a budget of `budget_s`: no emptying, and each within 5 ms of
 * what is given (the plan finds the rounds the trash holds to the ms).
 */
static void check_held(uint64_t files, uint64_t budget_s, uint64_t extra_ms,
		       uint64_t end_ms)
{
	struct pmbench_fs_trash_room room = { .used_bytes = 1,
					      .used_files = files,
					      .limit_bytes = ~0ull,
					      .limit_files = 100000 };
	struct pmbench_schedule_plan p;
	struct pmbench_trash_plan tp;

	pmbench_trash_plan_budget(&p, &tp, two, 2, five_k, NULL, &room, &model,
				  20 * S, budget_s * S, UINT64_MAX);
	CHECK_INT(tp.emptyings, 0);
	CHECK_INT(p.fit_ns, 120 * S);
	CHECK(llabs((long long)(p.extra_ns / 1000000) - (long long)extra_ms) <=
	      5);
	CHECK(llabs((long long)(p.end_ns / 1000000) - (long long)end_ms) <= 5);
	CHECK(p.end_ns <= budget_s * S);
}

/*
 * 40,000 files and a budget of 160 s: 40 s of further rounds (20,000
 * files) would need the trash emptied (99 s), more than they have. The
 * budget then runs the further rounds the trash still holds (10,000
 * files: 20 s) and stops, as bench.c's room_fits() does; the plan says
 * so, not "no further rounds" (the default bench of 2026-12-06 13:04
 * estimated 5:43 with "0:00 of further rounds" and took 7:05). With
 * 48,000 files (98,000 after the minimum) it holds 4 s more.
 */
TEST(budget_runs_what_the_trash_holds)
{
	check_held(40000, 160, 20000, 140000);
	check_held(48000, 160, 4000, 124000);
}

/*
 * Waiting is bought only with rounds: under a budget of 300 s the same
 * emptying (99 s) would give the further rounds 81 s where the trash
 * holds 20 s without it, 61 s of rounds for 99 s of waiting. Not
 * planned: the 20 s the trash holds, then the end (ci-cache of
 * 2026-12-07 01:20 emptied 559,964 files for one round of 20 s and
 * waited for the file system past its budget).
 */
TEST(budget_buys_no_wait_longer_than_its_rounds)
{
	check_held(40000, 300, 20000, 140000);
}

/*
 * The same 40,000 files and 160 s, but the further rounds the cells need
 * run only some PMs: 40 s of them leave 10,000 files (a half of the
 * groups' pace), which the trash holds after the minimum's 50,000. All
 * 40 s are planned, with no emptying (the default bench of 2026-12-06
 * 18:14 planned 0:04 of further rounds at the six PMs' pace, and ran
 * 1:30 of them, npm with pnpm, without an emptying).
 */
TEST(budget_at_the_further_rounds_own_pace)
{
	struct pmbench_fs_trash_room room = { .used_bytes = 1,
					      .used_files = 40000,
					      .limit_bytes = ~0ull,
					      .limit_files = 100000 };
	struct pmbench_trash_pace pace = { { 1, 10000 }, 40 * S };
	struct pmbench_schedule_plan p;
	struct pmbench_trash_plan tp;

	pmbench_trash_plan_budget(&p, &tp, two, 2, five_k, &pace, &room, &model,
				  20 * S, 160 * S, 40 * S);
	CHECK_INT(tp.emptyings, 0);
	CHECK_INT(p.extra_ns, 40 * S);
	CHECK_INT(p.end_ns, 160 * S);
	/* At the groups' pace: the 20 s the trash holds, as above. */
	pace.ns = 0;
	pmbench_trash_plan_budget(&p, &tp, two, 2, five_k, &pace, &room, &model,
				  20 * S, 160 * S, 40 * S);
	CHECK(llabs((long long)(p.extra_ns / 1000000) - 20000) <= 5);
}

CHECK_MAIN(CASE(must_empty_past_a_limit), CASE(budget_holds_no_emptying),
	   CASE(budget_holds_the_minimums_emptying),
	   CASE(budget_holds_the_further_rounds_emptying),
	   CASE(budget_runs_what_the_trash_holds),
	   CASE(budget_buys_no_wait_longer_than_its_rounds),
	   CASE(cost_of_an_emptying),
	   CASE(emptied_before_the_group_it_cannot_hold),
	   CASE(a_group_larger_than_the_trash),
	   CASE(further_rounds_at_the_groups_pace),
	   CASE(further_rounds_at_their_own_pace),
	   CASE(budget_at_the_further_rounds_own_pace))
