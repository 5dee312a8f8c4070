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

	pmbench_trash_further(need, rounds, round_ns, 2, 12000000000ull);
	CHECK_INT(rounds[2], 1);
	CHECK_INT(need[2].bytes, 800);
	CHECK_INT(need[2].files, 80);
	/* None planned: none left. */
	pmbench_trash_further(need, rounds, round_ns, 2, 0);
	CHECK(rounds[2] == 0 && need[2].bytes == 0 && need[2].files == 0);
}

CHECK_MAIN(CASE(must_empty_past_a_limit), CASE(cost_of_an_emptying),
	   CASE(emptied_before_the_group_it_cannot_hold),
	   CASE(a_group_larger_than_the_trash),
	   CASE(further_rounds_at_the_groups_pace))
