#include "pmbench/common.h"

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/doc.h"
#include "pmbench/format.h"
#include "pmbench/history.h"
#include "pmbench/merge.h"
#include "pmbench/plan.h"
#include "pmbench/report_kind.h"
#include "pmbench/result.h"
#include "pmbench/schedule.h"
#include "pmbench/stats.h"

/*
 * The pieces of sharding that need no PM: `--shard K/N` parsed, the
 * scheduler's share of rounds per shard and its rotation, the plan id,
 * the hierarchical bootstrap, and a merge's machines and pooling.
 */

static int log_turn(size_t who, const struct pmbench_round *round,
		    void *payload)
{
	pmbench_buf_addf(payload, "%u%s:%zu(%u/%u) ", round->number,
			 round->warmup ? "w" : "", who, round->nth, round->of);
	return 0;
}

static void schedule_log(struct pmbench_buf *log, unsigned shard,
			 unsigned shards)
{
	struct pmbench_schedule s = PMBENCH_SCHEDULE_INIT;

	s.nr = 2;
	s.warmup = 1;
	s.runs = 5;
	s.turn = log_turn;
	s.payload = log;
	s.shard = shard;
	s.shards = shards;
	pmbench_buf_reset(log);
	CHECK_INT(pmbench_schedule_run(&s), 0);
}

TEST(schedule_shards)
{
	struct pmbench_buf log = PMBENCH_BUF_INIT;

	/* Every shard has the warm-up; timed rounds 1..5 go 1,3,5 / 2,4. */
	schedule_log(&log, 1, 2);
	CHECK_STR(log.ptr, "0w:0(1/1) 0w:1(1/1) 1:1(1/3) 1:0(1/3) "
			   "3:0(2/3) 3:1(2/3) 5:1(3/3) 5:0(3/3) ");
	/*
	 * Each shard rotates through its own rounds (not 3 and 5 alike,
	 * as the plan's numbers would with two participants), shard 2 one
	 * further than shard 1.
	 */
	schedule_log(&log, 2, 2);
	CHECK_STR(log.ptr, "0w:0(1/1) 0w:1(1/1) 2:0(1/2) 2:1(1/2) "
			   "4:1(2/2) 4:0(2/2) ");
	CHECK_INT(pmbench_schedule_shard_runs(5, 1, 2), 3);
	CHECK_INT(pmbench_schedule_shard_runs(5, 2, 2), 2);
	CHECK_INT(pmbench_schedule_shard_runs(2, 3, 3), 0);
	CHECK_INT(pmbench_schedule_shard_runs(7, 3, 0), 7);
	pmbench_buf_release(&log);
}

TEST(parse_shard)
{
	unsigned k = 0, n = 0;

	CHECK_INT(pmbench_plan_parse_shard(&k, &n, "2/3"), 0);
	CHECK_INT(k, 2);
	CHECK_INT(n, 3);
	CHECK_INT(pmbench_plan_parse_shard(&k, &n, "3/3"), 0);
	CHECK_INT(pmbench_plan_parse_shard(&k, &n, "4/3"), PMBENCH_EINVALID);
	CHECK_INT(pmbench_plan_parse_shard(&k, &n, "0/3"), PMBENCH_EINVALID);
	CHECK_INT(pmbench_plan_parse_shard(&k, &n, "1/"), PMBENCH_EINVALID);
	CHECK_INT(pmbench_plan_parse_shard(&k, &n, "-1/3"), PMBENCH_EINVALID);
	CHECK_INT(pmbench_plan_parse_shard(&k, &n, "1/3x"), PMBENCH_EINVALID);
	CHECK_INT(pmbench_plan_parse_shard(&k, &n, "1/1001"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "invalid --shard '1/1001'");
}

TEST(plan_id)
{
	struct pmbench_result a = PMBENCH_RESULT_INIT;
	struct pmbench_strvec extra = PMBENCH_STRVEC_INIT;
	char *first;

	pmbench_strvec_push(&a.pms, "npm");
	pmbench_result_add_fixture(&a, "todo-api", "embedded", "abc", NULL,
				   NULL);
	a.runs = 6;
	pmbench_plan_set_id(&a, NULL);
	CHECK_INT(strlen(a.plan_id), 16);
	first = pmbench_xstrdup(a.plan_id);
	/* The seed and the machine are not the plan... */
	a.seed = 7;
	pmbench_result_env_set(&a, "cpu_model", "x");
	pmbench_plan_set_id(&a, NULL);
	CHECK_STR(a.plan_id, first);
	/* ...a commit, the runs and --env are. */
	free(a.fixtures[0].commit);
	a.fixtures[0].commit = pmbench_xstrdup("abd");
	pmbench_plan_set_id(&a, NULL);
	CHECK(strcmp(a.plan_id, first));
	free(a.fixtures[0].commit);
	a.fixtures[0].commit = pmbench_xstrdup("abc");
	pmbench_strvec_push(&extra, "env=A=1");
	pmbench_plan_set_id(&a, &extra);
	CHECK(strcmp(a.plan_id, first));
	free(first);
	pmbench_strvec_release(&extra);
	pmbench_result_release(&a);
}

/* Two machines, one twice as slow: the blocks widen the interval. */
TEST(bootstrap_blocks)
{
	double x[12];
	unsigned b[12], one[12];
	struct pmbench_interval pooled, blocks, single;
	struct pmbench_rng rng;
	size_t nb = 0;

	for (unsigned i = 0; i < 12; i++) {
		b[i] = i < 6 ? 1 : 2;
		one[i] = 5;
		x[i] = (i < 6 ? 1.0 : 2.0) + 0.01 * (i % 3);
	}
	pmbench_rng_seed(&rng, 1);
	CHECK_INT(pmbench_stats_bootstrap_median(&pooled, x, 12, 0.95, 2000,
						 &rng),
		  0);
	pmbench_rng_seed(&rng, 1);
	CHECK_INT(pmbench_stats_bootstrap_median_blocks(&blocks, &nb, x, b, 12,
							0.95, 2000, &rng),
		  0);
	CHECK_INT(nb, 2);
	CHECK(blocks.point == pooled.point);
	CHECK(blocks.hi - blocks.lo > pooled.hi - pooled.lo);
	/* Half the resamples draw one machine twice: its median. */
	CHECK(blocks.lo < 1.05);
	CHECK(blocks.hi > 1.95);
	/* One block is the ordinary bootstrap, draw for draw. */
	pmbench_rng_seed(&rng, 1);
	CHECK_INT(pmbench_stats_bootstrap_median_blocks(&single, &nb, x, one,
							12, 0.95, 2000, &rng),
		  0);
	CHECK_INT(nb, 1);
	CHECK(single.lo == pooled.lo && single.hi == pooled.hi);
	/* Errors as the plain bootstrap's. */
	CHECK(pmbench_stats_bootstrap_median_blocks(&single, NULL, x, b, 0,
						    0.95, 100, &rng) < 0);
	CHECK(pmbench_stats_bootstrap_median_blocks(&single, NULL, x, b, 12,
						    1.5, 100, &rng) < 0);
}

static void shard(struct pmbench_result *r, unsigned k, const char *host,
		  const char *cpu, double secs)
{
	struct pmbench_cell *c;

	pmbench_strvec_push(&r->pms, "npm");
	r->runs = 4;
	r->warmup = 1;
	r->shard = k;
	r->shards = 2;
	r->plan_id = pmbench_xstrdup("0123456789abcdef");
	pmbench_result_env_set(r, "host_hash", host);
	pmbench_result_env_set(r, "cpu_model", cpu);
	pmbench_result_add_pm(r, "npm", "/bin/npm", "11.0.0");
	c = pmbench_result_add_cell(r, "f", "install", "clean", "npm");
	for (unsigned i = 0; i < 3; i++) {
		struct pmbench_sample *s = pmbench_cell_add_sample(c);

		s->round = i ? k + 2 * (i - 1) : 0;
		s->warmup = !i;
		s->ok = 1;
		s->wall_ns = (uint64_t)((secs + 0.01 * i) * 1e9);
		pmbench_sample_metric_set(s, "x_count", i);
	}
}

TEST(merge_machines)
{
	struct pmbench_result in[2] = { PMBENCH_RESULT_INIT,
					PMBENCH_RESULT_INIT };
	struct pmbench_result m = PMBENCH_RESULT_INIT;
	const char *names[] = { "a.json", "b.json" };
	struct pmbench_machine_effect e;
	char *json;

	shard(&in[0], 1, "aa", "cpu A", 1);
	shard(&in[1], 2, "bb", "cpu B", 2);
	CHECK_INT(pmbench_merge(&m, in, names, 2), 0);
	CHECK_INT(m.machines_nr, 2);
	CHECK_STR(m.machines[1].cpu_model, "cpu B");
	CHECK_STR(m.machines[1].shards, "2/2");
	CHECK_INT(m.cells_nr, 1);
	CHECK_INT(m.cells[0].samples_nr, 6);
	/* Warm-ups first, then rounds 1, 2, 3, 4. */
	CHECK_INT(m.cells[0].samples[2].round, 1);
	CHECK_INT(m.cells[0].samples[2].machine, 1);
	CHECK_INT(m.cells[0].samples[3].round, 2);
	CHECK_INT(m.cells[0].samples[3].machine, 2);
	CHECK_INT(pmbench_merge_machine_effect(&e, &m.cells[0], 1), 1);
	CHECK_INT(e.machines, 2);
	CHECK_INT(e.slowest_m, 2);
	CHECK(e.slowest / e.fastest > 1.9);
	/* The merged file reads back, machines and all. */
	json = pmbench_result_to_json(&m);
	pmbench_result_release(&m);
	CHECK_INT(pmbench_result_from_json(&m, json, "merged"), 0);
	free(json);
	CHECK_INT(m.machines_nr, 2);
	CHECK_INT(m.cells[0].samples[3].machine, 2);
	CHECK_STR(m.plan_id, "0123456789abcdef");
	CHECK_INT(m.shards, 2);
	pmbench_result_release(&m);

	/* The same machine twice is one machine. */
	pmbench_result_env_set(&in[1], "host_hash", "aa");
	pmbench_result_env_set(&in[1], "cpu_model", "cpu A");
	CHECK_INT(pmbench_merge(&m, in, names, 2), 0);
	CHECK_INT(m.machines_nr, 1);
	CHECK_STR(m.machines[0].shards, "1/2, 2/2");
	pmbench_result_release(&m);
	/* A machine index beyond "machines" is refused on reading. */
	CHECK_INT(pmbench_result_from_json(
			  &m,
			  "{\"schema\":\"pmbench-result\",\"version\":1,"
			  "\"cells\":[{\"fixture\":\"f\",\"task\":\"t\","
			  "\"scenario\":\"s\",\"pm\":\"p\",\"samples\":[{"
			  "\"ok\":true,\"wall_s\":1,\"machine\":1}]}]}",
			  "x.json"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "cells[0].samples[0].machine");
	pmbench_result_release(&in[0]);
	pmbench_result_release(&in[1]);
}

/* Shard `k` of 2 of `in` (from shard()), edited to say `why` is wrong. */
static void refused(int *ok, struct pmbench_result *in, const char *why)
{
	struct pmbench_result m = PMBENCH_RESULT_INIT;
	const char *names[] = { "a.json", "b.json" };

	*ok = 0;
	CHECK_INT(pmbench_merge(&m, in, names, 2), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), why);
	CHECK(!strchr(pmbench_error_last(), '\n'));
	pmbench_result_release(&m);
	*ok = 1;
}

#define REFUSED(in, why)                                                    \
	do {                                                                \
		int ok_ = 0;                                                \
		refused(&ok_, in, why);                                     \
		if (!ok_) {                                                 \
			check_fail(__FILE__, __LINE__, "refused(%s)", why); \
			return;                                             \
		}                                                           \
	} while (0)

/*
 * Each shard's rounds are checked against the plan: its own share of the
 * timed rounds, none beyond the plan, none twice (issue 24: a shard of
 * 10,000 samples overlapping the other's was pooled).
 */
TEST(merge_rounds_against_plan)
{
	struct pmbench_result in[2] = { PMBENCH_RESULT_INIT,
					PMBENCH_RESULT_INIT };
	struct pmbench_result m = PMBENCH_RESULT_INIT;
	const char *names[] = { "a.json", "b.json" };
	struct pmbench_sample *s;
	struct pmbench_cell *c;

	shard(&in[0], 1, "aa", "cpu A", 1);
	shard(&in[1], 2, "bb", "cpu B", 2);
	c = &in[1].cells[0];
	/* Shard 2 with shard 1's round 1. */
	c->samples[1].round = 1;
	REFUSED(in, "field 'cells[0].samples[1].round' (f · install · clean · "
		    "npm) is 1, a round of shard 1/2, not of this shard 2/2");
	/* 10,000 more samples: rounds beyond the plan's. */
	c->samples[1].round = 2;
	for (unsigned i = 0; i < 10000; i++) {
		s = pmbench_cell_add_sample(c);
		s->round = 2 + 2 * i;
		s->ok = 1;
		s->wall_ns = 1000000;
	}
	REFUSED(in, "'cells[0].samples[5].round' (f · install · clean · npm) "
		    "is 6, beyond the plan's 1 warm-up and 4 timed rounds");
	/* In its share, but round 4 twice. */
	for (size_t i = 3; i < c->samples_nr; i++)
		c->samples[i].round = 4;
	REFUSED(in, "cannot merge 'b.json': it has round 4 of f · install · "
		    "clean · npm twice (fields 'cells[0].samples[2].round' and "
		    "'cells[0].samples[3].round')");
	c->samples_nr = 3;
	/* A warm-up in a timed round, a timed run in a warm-up round. */
	c->samples[0].round = 2;
	REFUSED(in, "is 2, a timed round, but the sample is a warm-up");
	c->samples[0].round = 0;
	c->samples[2].round = 0;
	REFUSED(in, "is 0, a warm-up round, but the sample is timed");
	c->samples[2].round = 4;
	/* The shards as they ran: pooled, each round once. */
	CHECK_INT(pmbench_merge(&m, in, names, 2), 0);
	CHECK_INT(m.cells[0].samples_nr, 6);
	/* The merge of both again with shard 2: its rounds twice. */
	in[0].shard = 0;
	pmbench_result_release(&in[0]);
	in[0] = m;
	{
		struct pmbench_result blank = PMBENCH_RESULT_INIT;

		m = blank;
	}
	REFUSED(in, "cannot merge 'a.json' and 'b.json': both have round 2 of "
		    "f · install · clean · npm");
	pmbench_result_release(&in[0]);
	pmbench_result_release(&in[1]);

	/* Whole runs of one plan repeat each other's rounds: pooled. */
	shard(&in[0], 1, "aa", "cpu A", 1);
	shard(&in[1], 1, "bb", "cpu B", 2);
	for (int i = 0; i < 2; i++)
		in[i].shard = in[i].shards = 0;
	CHECK_INT(pmbench_merge(&m, in, names, 2), 0);
	CHECK_INT(m.cells[0].samples_nr, 6);
	pmbench_result_release(&m);
	/* But not one round twice within one of them. */
	in[1].cells[0].samples[2].round = 1;
	REFUSED(in, "it has round 1 of f · install · clean · npm twice");
	pmbench_result_release(&in[0]);
	pmbench_result_release(&in[1]);
}

/* One format of the history of tests/data/history, read back. */
static void check_format(int *ok, const struct pmbench_doc *doc,
			 const char *name)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT, root = PMBENCH_BUF_INIT;
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	struct pmbench_strvec *rows = NULL;
	size_t rows_nr = 0;

	*ok = 0;
	if (!strcmp(name, "hyperfine") ||
	    !strcmp(name, "github-action-benchmark") ||
	    !strcmp(name, "bencher")) {
		/* Formats of timed cells; a history has none: refused, saying so. */
		CHECK(pmbench_format_write(&b, pmbench_format_get(name), doc) <
		      0);
		CHECK_CONTAINS(pmbench_error_last(), "no timed runs");
		pmbench_buf_release(&b);
		*ok = 1;
		return;
	}
	CHECK_INT(pmbench_format_write(&b, pmbench_format_get(name), doc), 0);
	if (!strcmp(name, "svg")) {
		CHECK_INT(check_xml_parse(&root, &text, b.ptr), 0);
		CHECK_STR(root.ptr, "svg");
		CHECK_CONTAINS(b.ptr, "<svg class=\"chart trend\"");
		CHECK_CONTAINS(text.ptr, "2026-11-03");
	} else if (!strcmp(name, "csv")) {
		CHECK_INT(check_csv_parse(&rows, &rows_nr, b.ptr), 0);
		/* A header and two PMs over four dates. */
		CHECK_INT(rows_nr, 9);
		CHECK_STR(rows[0].v[0], "fixture");
		check_csv_free(rows, rows_nr);
	} else if (!strcmp(name, "html")) {
		CHECK(!strstr(b.ptr, "<script"));
		CHECK_CONTAINS(b.ptr, "class=\"change\"");
	} else if (!strcmp(name, "table")) {
		CHECK_CONTAINS(b.ptr, "SLOWER 4.28x");
	} else if (!strcmp(name, "markdown")) {
		CHECK_CONTAINS(b.ptr, "11.0.0 → 11.1.0; slower: 4.28x");
	}
	pmbench_buf_release(&b);
	pmbench_buf_release(&root);
	pmbench_buf_release(&text);
	*ok = 1;
}

TEST(history_every_format)
{
	struct pmbench_history h = PMBENCH_HISTORY_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	const char *root = getenv("PMBENCH_SOURCE_DIR");
	char dir[4200];
	int ok;

	snprintf(dir, sizeof(dir), "%s/tests/data/history", root ? root : ".");
	CHECK_INT(pmbench_history_load(&h, dir), 0);
	CHECK_INT(h.nr, 4);
	CHECK_STR(h.entries[0].date, "2026-11-01");
	CHECK_STR(h.entries[3].date, "2026-11-04");
	pmbench_report_history(&doc, &h, "history");
	for (size_t i = 0; i < pmbench_formats_nr; i++) {
		check_format(&ok, &doc, pmbench_formats[i].name);
		if (!ok) {
			check_fail(__FILE__, __LINE__, "format %s",
				   pmbench_formats[i].name);
			break;
		}
	}
	pmbench_doc_release(&doc);
	pmbench_history_release(&h);
	/* A folder with no result, and no folder. */
	CHECK_INT(pmbench_history_load(&h, check_sandbox()), PMBENCH_EINVALID);
	pmbench_history_release(&h);
	CHECK_INT(pmbench_history_load(&h, "/nonexistent/pmbench"),
		  PMBENCH_ENOTFOUND);
	pmbench_history_release(&h);
}

CHECK_MAIN(CASE(schedule_shards), CASE(parse_shard), CASE(plan_id),
	   CASE(bootstrap_blocks), CASE(merge_machines),
	   CASE(merge_rounds_against_plan), CASE(history_every_format))
