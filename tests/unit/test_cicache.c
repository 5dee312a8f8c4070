/* The ci-cache option parsers (strategies, bandwidths) and its table. */
#include "pmbench/common.h"

#include "check.h"
#include "pmbench/cicache.h"
#include "pmbench/format.h"
#include "pmbench/report_kind.h"
#include "pmbench/result.h"

/* The ci-cache kind of `r` as the terminal table. */
static char *table(const struct pmbench_result *r)
{
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_report_cicache(&doc, r);
	pmbench_format_write(&b, pmbench_format_get("table"), &doc);
	pmbench_doc_release(&doc);
	return pmbench_buf_detach(&b);
}

TEST(strategies)
{
	unsigned s = 99;

	CHECK_INT(pmbench_cicache_parse_strategy(&s, "none"), 0);
	CHECK_INT(s, 0);
	CHECK_INT(pmbench_cicache_parse_strategy(&s, "store"), 0);
	CHECK_INT(s, PMBENCH_CICACHE_STORE);
	CHECK_INT(pmbench_cicache_parse_strategy(&s, "node_modules+store"), 0);
	CHECK_INT(s, PMBENCH_CICACHE_STORE | PMBENCH_CICACHE_NODE_MODULES);
	CHECK_STR(pmbench_cicache_strategy_name(s), "store+node_modules");
	for (unsigned i = 0; i < 4; i++) {
		CHECK_INT(pmbench_cicache_parse_strategy(
				  &s, pmbench_cicache_strategy_name(i)),
			  0);
		CHECK_INT(s, i);
	}
	CHECK_INT(pmbench_cicache_parse_strategy(&s, "store+store"),
		  PMBENCH_EINVALID);
	CHECK_INT(pmbench_cicache_parse_strategy(&s, "none+store"),
		  PMBENCH_EINVALID);
	CHECK_INT(pmbench_cicache_parse_strategy(&s, ""), PMBENCH_EINVALID);
	CHECK_INT(pmbench_cicache_parse_strategy(&s, "cache"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "unknown strategy 'cache'");
}

TEST(bandwidths)
{
	double b = 0;

	CHECK_INT(pmbench_cicache_parse_bandwidth(&b, "100MB/s"), 0);
	CHECK_NEAR(b, 100e6, 1e-3);
	CHECK_INT(pmbench_cicache_parse_bandwidth(&b, "1.5GB"), 0);
	CHECK_NEAR(b, 1.5e9, 1e-3);
	CHECK_INT(pmbench_cicache_parse_bandwidth(&b, "250Mbit/s"), 0);
	CHECK_NEAR(b, 31.25e6, 1e-3);
	CHECK_INT(pmbench_cicache_parse_bandwidth(&b, "50MiB/s"), 0);
	CHECK_NEAR(b, 50.0 * 1048576, 1e-3);
	CHECK_INT(pmbench_cicache_parse_bandwidth(&b, "800kB/s"), 0);
	CHECK_NEAR(b, 800e3, 1e-3);
	CHECK_INT(pmbench_cicache_parse_bandwidth(&b, "100"), PMBENCH_EINVALID);
	CHECK_INT(pmbench_cicache_parse_bandwidth(&b, "0MB/s"),
		  PMBENCH_EINVALID);
	CHECK_INT(pmbench_cicache_parse_bandwidth(&b, "-5MB/s"),
		  PMBENCH_EINVALID);
	CHECK_INT(pmbench_cicache_parse_bandwidth(&b, "MB/s"),
		  PMBENCH_EINVALID);
	CHECK_INT(pmbench_cicache_parse_bandwidth(&b, "5 MB/s"),
		  PMBENCH_EINVALID);
	CHECK_INT(pmbench_cicache_parse_bandwidth(&b, "nanMB/s"),
		  PMBENCH_EINVALID);
	CHECK_INT(pmbench_cicache_parse_bandwidth(&b, "1e999MB/s"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "bad bandwidth '1e999MB/s'");
}

/*
 * The ci-cache table of a run stopped by a signal: the job in flight is
 * interrupted, shown as such, and neither a time nor a failed job.
 */
TEST(interrupted_job_in_the_table)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char *text = NULL;

	CHECK_INT(pmbench_result_from_json(
			  &r,
			  "{\"schema\": \"pmbench-result\", \"version\": 1, "
			  "\"cells\": [{\"fixture\": \"f\", \"task\": "
			  "\"ci-cache\", \"scenario\": \"none\", \"pm\": "
			  "\"npm\", \"samples\": [{\"round\": 0, \"ok\": "
			  "true, \"wall_s\": 1.5}, {\"round\": 1, \"ok\": "
			  "false, \"wall_s\": 0.5, \"failure\": \"interrupted "
			  "by SIGINT\", \"interrupted\": true}]}, "
			  "{\"fixture\": \"f\", \"task\": \"ci-cache\", "
			  "\"scenario\": \"none\", \"pm\": \"bun\", "
			  "\"samples\": [{\"round\": 0, \"ok\": false, "
			  "\"wall_s\": 0.5, \"failure\": \"interrupted by "
			  "SIGINT\", \"interrupted\": true}]}]}",
			  "memory"),
		  0);
	text = table(&r);
	CHECK_CONTAINS(text, "none round 2: interrupted by SIGINT, left out");
	CHECK_CONTAINS(text, "every job interrupted");
	CHECK(!strstr(text, "failed"));
	CHECK(!strstr(text, "1/2"));
	free(text);
	pmbench_result_release(&r);
}

/* Processes a PM left behind in CI jobs are shown under its table. */
TEST(leftover_processes_in_the_table)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char *text = NULL;

	CHECK_INT(pmbench_result_from_json(
			  &r,
			  "{\"schema\": \"pmbench-result\", \"version\": 1, "
			  "\"cells\": [{\"fixture\": \"f\", \"task\": "
			  "\"ci-cache\", \"scenario\": \"none\", \"pm\": "
			  "\"npm\", \"samples\": [{\"round\": 0, \"ok\": "
			  "true, \"wall_s\": 1.5, \"leftover\": 3}, "
			  "{\"round\": 1, \"ok\": true, \"wall_s\": 1.4}]}]}",
			  "memory"),
		  0);
	text = table(&r);
	CHECK_CONTAINS(text, "npm left 3 processes running after 1 of 2 "
			     "jobs (stopped by pmbench)");
	free(text);
	pmbench_result_release(&r);
}

CHECK_MAIN(CASE(interrupted_job_in_the_table),
	   CASE(leftover_processes_in_the_table), CASE(strategies),
	   CASE(bandwidths))
