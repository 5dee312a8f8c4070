/*
 * Beyond one machine: shards of a fake-PM plan run at once with their own
 * cache folders and merge into what one unsharded run gives; a shard of
 * another plan is refused in one line naming the field; shards from two
 * machines show the machine effect.
 */
#include "pmbench/control.h"
#include "pmbench/common.h"

#include "check.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/merge.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"

static char sandbox[4200], proj[8400];

static void setup(void)
{
	snprintf(sandbox, sizeof(sandbox), "%s", h_setup());
	snprintf(proj, sizeof(proj), "%s", h_project("proj"));
}

/* A path below the sandbox: `fmt` with `k`, a literal of this file. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static const char *in_box(char *buf, size_t size, const char *fmt, unsigned k)
{
	char rel[64];

	snprintf(rel, sizeof(rel), fmt, k);
	snprintf(buf, size, "%s/%s", sandbox, rel);
	return buf;
}
#pragma GCC diagnostic pop

/*
 * pmbench --cache-dir <box>/cache-K bench --pm npm,bun --runs RUNS ...
 * [--shard K/3] --out <box>/shard-K.json proj; K 0: unsharded.
 */
static void bench_args(struct pmbench_child *c, unsigned k, const char *runs,
		       const char *extra, const char *out)
{
	char path[8400];

	pmbench_strvec_push(&c->args, getenv("PMBENCH_BIN"));
	pmbench_strvec_push(&c->args, "--cache-dir");
	pmbench_strvec_push(&c->args,
			    in_box(path, sizeof(path), "cache-%u", k));
	pmbench_strvec_pushv(&c->args,
			     (const char *const[]){ "bench", "--pm", "npm,bun",
						    "--runs", runs, "--warmup",
						    "1", "--scenario",
						    "clean,cache+lockfile",
						    "--no-progress", NULL });
	if (extra)
		pmbench_strvec_push(&c->args, extra);
	if (k) {
		pmbench_strvec_push(&c->args, "--shard");
		pmbench_strvec_pushf(&c->args, "%u/3", k);
	}
	pmbench_strvec_push(&c->args, "--out");
	pmbench_strvec_push(&c->args, in_box(path, sizeof(path),
					     out ? out : "shard-%u.json", k));
	pmbench_strvec_push(&c->args, proj);
	c->tail_max = 1u << 20;
	c->timeout_ns = 600ull * 1000000000ull;
}

/* Shards 1 to 3 at once; each must exit 0. */
static void run_shards(const char *runs, const char *extra)
{
	struct pmbench_child c[3] = { PMBENCH_CHILD_INIT, PMBENCH_CHILD_INIT,
				      PMBENCH_CHILD_INIT };
	int done[3] = { 0, 0, 0 }, left = 3;

	for (unsigned k = 0; k < 3; k++) {
		bench_args(&c[k], k + 1, runs, extra, NULL);
		CHECK_INT(pmbench_child_start(&c[k]), 0);
	}
	/* All three are running before the first is waited for. */
	while (left) {
		for (unsigned k = 0; k < 3; k++) {
			if (done[k] || pmbench_child_pump(&c[k], 20000000) != 1)
				continue;
			done[k] = 1;
			left--;
		}
	}
	for (unsigned k = 0; k < 3; k++) {
		pmbench_child_release(&c[k]);
		if (c[k].result.exit_code != 0)
			fprintf(stderr, "shard %u:\n%s\n", k + 1,
				c[k].tail.ptr);
		CHECK_INT(c[k].result.exit_code, 0);
	}
}

static void run_one(unsigned k, const char *runs, const char *extra,
		    const char *out)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;

	bench_args(&c, k, runs, extra, out);
	CHECK_INT(pmbench_child_run(&c), 0);
	if (c.result.exit_code != 0)
		fprintf(stderr, "unsharded:\n%s\n", c.tail.ptr);
	CHECK_INT(c.result.exit_code, 0);
	pmbench_child_release(&c);
}

static int merge(struct h_run *r, const char *out, const char *a, const char *b,
		 const char *c)
{
	/* --out after the inputs: an option like any other. */
	const char *args[] = { "merge", a, b, c, "--out", out, NULL };

	h_pmbench(r, args, NULL);
	return r->exit_code;
}

static size_t timed(const struct pmbench_cell *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->samples_nr; i++)
		n += !c->samples[i].warmup;
	return n;
}

/* The same cells, each with the same timed rounds. */
static void check_same_cells(const struct pmbench_result *m,
			     const struct pmbench_result *one)
{
	CHECK_INT(m->cells_nr, one->cells_nr);
	for (size_t i = 0; i < one->cells_nr; i++) {
		const struct pmbench_cell *a = &one->cells[i];
		const struct pmbench_cell *b = pmbench_result_find_cell(
			m, a->fixture, a->task, a->scenario, a->pm);

		CHECK(b != NULL);
		if (!b)
			continue;
		CHECK_INT(timed(b), timed(a));
		for (size_t k = 0, j = 0; k < a->samples_nr; k++) {
			if (a->samples[k].warmup)
				continue;
			while (j < b->samples_nr && b->samples[j].warmup)
				j++;
			CHECK(j < b->samples_nr);
			if (j < b->samples_nr)
				CHECK_INT(b->samples[j++].round,
					  a->samples[k].round);
		}
	}
}

TEST(shards_at_once_merge_like_one_run)
{
	struct pmbench_result m = PMBENCH_RESULT_INIT;
	struct pmbench_result one = PMBENCH_RESULT_INIT;
	struct pmbench_result s1 = PMBENCH_RESULT_INIT;
	char a[8400], b[8400], c[8400], out[8400];
	struct h_run r;

	setup();
	run_shards("7", NULL);
	run_one(0, "7", NULL, NULL);
	CHECK_INT(pmbench_result_read(&s1,
				      in_box(a, sizeof(a), "shard-%u.json", 1)),
		  0);
	CHECK_INT(s1.shard, 1);
	CHECK_INT(s1.shards, 3);
	CHECK_INT(s1.runs, 7);
	CHECK(s1.plan_id && strlen(s1.plan_id) == 16);
	CHECK(pmbench_result_env_get(&s1, "host_hash") != NULL);
	/* Shard 1 of 3 of 7 runs: rounds 1, 4 and 7 (numbered from 0). */
	CHECK_INT(timed(&s1.cells[0]), 3);
	CHECK_INT(merge(&r, in_box(out, sizeof(out), "merged.json", 0),
			in_box(a, sizeof(a), "shard-%u.json", 1),
			in_box(b, sizeof(b), "shard-%u.json", 2),
			in_box(c, sizeof(c), "shard-%u.json", 3)),
		  0);
	CHECK_CONTAINS(r.out.ptr, "3 result(s) on 1 machine(s)");
	CHECK_CONTAINS(r.out.ptr, "shards 1/3, 2/3, 3/3");
	h_run_release(&r);
	CHECK_INT(pmbench_result_read(&m, out), 0);
	CHECK_INT(pmbench_result_read(&one,
				      in_box(a, sizeof(a), "shard-%u.json", 0)),
		  0);
	check_same_cells(&m, &one);
	CHECK_STR(m.plan_id, s1.plan_id);
	CHECK_INT(m.shard, 0);
	CHECK_INT(m.machines_nr, 1);
	{
		/* An ordinary result: report reads it. */
		const char *args[] = { "report", out, "--format", "markdown",
				       NULL };

		h_pmbench(&r, args, NULL);
		CHECK_INT(r.exit_code, 0);
		CHECK_CONTAINS(r.out.ptr, "npm");
		h_run_release(&r);
	}
	pmbench_result_release(&m);
	pmbench_result_release(&one);
	pmbench_result_release(&s1);
}

/* Edit a result file with cJSON: `edit` changes the parsed tree. */
static const char *edited(const char *from, const char *to,
			  void (*edit)(cJSON *root))
{
	static char path[8400];
	cJSON *root = h_read_json(from);
	char *text;

	if (!root) {
		check_fail(__FILE__, __LINE__, "cannot read '%s'", from);
		return from;
	}
	edit(root);
	text = cJSON_Print(root);
	snprintf(path, sizeof(path), "%s", h_write(to, text));
	cJSON_free(text);
	cJSON_Delete(root);
	return path;
}

static void other_bun(cJSON *root)
{
	cJSON *pm;

	cJSON_ArrayForEach(pm, cJSON_GetObjectItem(root, "package_managers"))
	{
		if (!strcmp(cJSON_GetObjectItem(pm, "name")->valuestring,
			    "bun"))
			cJSON_ReplaceItemInObject(pm, "version",
						  cJSON_CreateString("9.9.9"));
	}
}

/* Another machine, far slower than a fake's milliseconds: 5 s a run. */
static void other_machine(cJSON *root)
{
	cJSON *env = cJSON_GetObjectItem(root, "environment"), *cell, *s;

	cJSON_ReplaceItemInObject(env, "cpu_model",
				  cJSON_CreateString("Fake CPU B"));
	cJSON_ReplaceItemInObject(env, "host_hash",
				  cJSON_CreateString("00000000000000bb"));
	cJSON_ArrayForEach(cell, cJSON_GetObjectItem(root, "cells"))
	{
		cJSON_ArrayForEach(s, cJSON_GetObjectItem(cell, "samples"))
		{
			cJSON *w = cJSON_GetObjectItem(s, "wall_s");

			cJSON_SetNumberValue(w, 5);
		}
	}
}

/* Exactly one line, naming `field`. */
static void check_refused(const char *a, const char *b, const char *c,
			  const char *field)
{
	char out[8400];
	struct h_run r;

	CHECK_INT(merge(&r, in_box(out, sizeof(out), "refused.json", 0), a, b,
			c),
		  1);
	CHECK_CONTAINS(r.out.ptr, field);
	CHECK(strchr(r.out.ptr, '\n') == r.out.ptr + r.out.len - 1);
	CHECK(!pmbench_fs_exists(out));
	h_run_release(&r);
}

TEST(other_plans_refused_machines_shown)
{
	struct pmbench_result m = PMBENCH_RESULT_INIT;
	char a[8400], b[8400], c[8400], x[8400], out[8400];
	struct pmbench_machine_effect e;
	struct h_run r;
	int shown = 0;

	setup();
	run_shards("3", NULL);
	in_box(a, sizeof(a), "shard-%u.json", 1);
	in_box(b, sizeof(b), "shard-%u.json", 2);
	in_box(c, sizeof(c), "shard-%u.json", 3);
	/* Shard 2 of a plan with another --env. */
	run_one(2, "3", "--env=PMBENCH_TEST_OTHER=1", "other-%u.json");
	check_refused(a, in_box(x, sizeof(x), "other-%u.json", 2), c,
		      "different --env ('(default)' against "
		      "'PMBENCH_TEST_OTHER=1')");
	/* Shard 2 of a plan with other runs. */
	run_one(2, "4", NULL, "runs-%u.json");
	check_refused(a, in_box(x, sizeof(x), "runs-%u.json", 2), c,
		      "field 'options.runs' differs ('3' against '4')");
	check_refused(a, edited(b, "bun.json", other_bun), c,
		      "field 'package_managers[bun].version' differs");
	check_refused(a, a, c, "both are shard 1/3 (field 'shard')");

	/* Shard 2 on a machine with another CPU, far slower. */
	snprintf(x, sizeof(x), "%s", edited(b, "slow.json", other_machine));
	CHECK_INT(merge(&r, in_box(out, sizeof(out), "merged.json", 0), a, x,
			c),
		  0);
	CHECK_CONTAINS(r.out.ptr, "3 result(s) on 2 machine(s)");
	CHECK_CONTAINS(r.out.ptr, "m2: Fake CPU B");
	CHECK_CONTAINS(r.out.ptr, "machine effect (median");
	CHECK_CONTAINS(r.out.ptr, "across 2 machines");
	h_run_release(&r);
	CHECK_INT(pmbench_result_read(&m, out), 0);
	CHECK_INT(m.machines_nr, 2);
	for (size_t i = 0; i < m.cells_nr; i++) {
		/* The drift control's own times are no fake PM's. */
		if (pmbench_control_is(m.cells[i].pm) ||
		    !pmbench_merge_machine_effect(&e, &m.cells[i], 1))
			continue;
		shown++;
		/* The slow machine's median is its 5 s... */
		CHECK(e.slowest == 5 && e.fastest < 1);
		/* ...and widens the interval beyond the runs' own. */
		CHECK(e.hi - e.lo >= e.runs_hi - e.runs_lo);
		CHECK(e.hi >= e.slowest * 0.99);
	}
	CHECK(shown > 0);
	pmbench_result_release(&m);
}

static char created_at[32];

static void set_created(cJSON *root)
{
	cJSON_ReplaceItemInObject(root, "created",
				  cJSON_CreateString(created_at));
}

/*
 * Four results of fake npm and bun a day apart, npm 11.1.0 twenty times
 * slower from the third on: the history flags that change (on a busy
 * machine the load may flag others too: only this one is checked).
 */
TEST(history_flags_a_change)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	struct h_run r;
	char dir[8400], out[8400], rel[64];

	setup();
	for (unsigned day = 1; day <= 4; day++) {
		struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
		char res[8400];

		pmbench_strvec_pushf(&env, "FAKEPM_VERSION_NPM=%s",
				     day < 3 ? "11.0.0" : "11.1.0");
		pmbench_strvec_pushf(&env, "FAKEPM_NPM_SLEEP_MS=%d",
				     day < 3 ? 10 : 200);
		in_box(res, sizeof(res), "run-%u.json", day);
		{
			const char *args[] = {
				"bench",  "--pm",	"npm,bun",
				"--runs", "6",		"--warmup",
				"0",	  "--scenario", "cache+lockfile",
				"--out",  res,		proj,
				NULL
			};

			h_pmbench(&r, args, &env);
			CHECK_INT(r.exit_code, 0);
			h_run_release(&r);
		}
		snprintf(created_at, sizeof(created_at),
			 "2026-11-%02uT06:00:00Z", day);
		snprintf(rel, sizeof(rel), "history/2026-11-%02u/result.json",
			 day);
		edited(res, rel, set_created);
		pmbench_strvec_release(&env);
	}
	/* Not a result: skipped with a warning. */
	h_write("history/notes.json", "{\"hello\": 1}\n");
	in_box(dir, sizeof(dir), "history", 0);
	{
		const char *args[] = { "history", dir, NULL };

		h_pmbench(&r, args, NULL);
		CHECK_INT(r.exit_code, 0);
		CHECK_CONTAINS(r.out.ptr, "4 result(s) under");
		CHECK_CONTAINS(r.out.ptr, "proj · install · cache+lockfile "
					  "· npm: 2026-11-01 [11.0.0]");
		CHECK_CONTAINS(r.out.ptr, "→ 2026-11-03 [11.1.0]");
		CHECK_CONTAINS(r.out.ptr, "SLOWER");
		CHECK_CONTAINS(r.out.ptr, "notes.json");
		h_run_release(&r);
	}
	{
		const char *args[] = { "history", dir,	"--format", "json",
				       "--out",	  NULL, NULL };

		args[5] = in_box(out, sizeof(out), "history.json", 0);
		h_pmbench(&r, args, NULL);
		CHECK_INT(r.exit_code, 0);
		h_run_release(&r);
		CHECK_INT(pmbench_fs_read_text(&text, out, 1 << 20), 0);
		CHECK_CONTAINS(text.ptr, "\"change\":\t\"slower\"");
		CHECK_CONTAINS(text.ptr, "\"version\":\t\"11.1.0\"");
	}
	{
		const char *args[] = { "history", dir, "--out", NULL, NULL };

		args[3] = in_box(out, sizeof(out), "history.html", 0);
		h_pmbench(&r, args, NULL);
		CHECK_INT(r.exit_code, 0);
		h_run_release(&r);
		pmbench_buf_reset(&text);
		CHECK_INT(pmbench_fs_read_text(&text, out, 1 << 20), 0);
		CHECK_CONTAINS(text.ptr, "<svg class=\"chart trend\"");
		CHECK_CONTAINS(text.ptr, "class=\"change\"");
		CHECK_CONTAINS(text.ptr, "11.0.0 → 11.1.0; slower");
	}
	pmbench_buf_release(&text);
}

CHECK_MAIN(CASE(shards_at_once_merge_like_one_run),
	   CASE(other_plans_refused_machines_shown),
	   CASE(history_flags_a_change))
