/* The ci-cache option parsers: strategies and bandwidths. */
#include "pmbench/common.h"

#include "check.h"
#include "pmbench/cicache.h"

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

CHECK_MAIN(CASE(strategies), CASE(bandwidths))
