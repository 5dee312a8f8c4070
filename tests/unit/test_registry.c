/*
 * The registry module's pure parts: `--registry` text, and reading
 * verdaccio's JSON log into request counts (lines as verdaccio 6.8.0
 * wrote them for a metadata request, a tarball, a failure, its own
 * request to the upstream, and its start-up lines).
 */
#include "pmbench/common.h"

#include "check.h"
#include "pmbench/registry.h"
#include "pmbench/result.h"

/* Shortened from verdaccio 6.8.0's log; the fields it reads are kept. */
static const char *const log_lines[] = {
	"{\"level\":40,\"time\":1,\"pid\":2,\"addr\":\"http://127.0.0.1:1/\","
	"\"msg\":\"http address - http://127.0.0.1:1/ - verdaccio/6.8.0\"}",
	"{\"level\":30,\"sub\":\"in\",\"req\":{\"method\":\"GET\",\"url\":"
	"\"/ms\",\"query\":{},\"headers\":{\"accept\":\"*/*\"}},\"ip\":"
	"\"127.0.0.1\",\"msg\":\"127.0.0.1 requested 'GET /ms'\"}",
	"{\"level\":25,\"sub\":\"in\",\"request\":{\"method\":\"GET\",\"url\":"
	"\"/ms\"},\"user\":null,\"status\":200,\"bytes\":{\"in\":0,\"out\":0},"
	"\"msg\":\"200, req: 'GET /ms', bytes: 0/0\"}",
	"{\"level\":30,\"method\":\"GET\",\"uri\":\"https://registry.npmjs.org/"
	"ms\",\"msg\":\"making request: 'GET https://registry.npmjs.org/ms'\"}",
	"{\"level\":25,\"request\":{\"method\":\"GET\",\"url\":\"https://"
	"registry.npmjs.org/ms\"},\"status\":200,\"bytes\":{\"in\":0,\"out\":"
	"33413},\"msg\":\"200, req: 'GET https://registry.npmjs.org/ms', "
	"bytes: 0/33413\"}",
	"{\"level\":25,\"sub\":\"in\",\"request\":{\"method\":\"GET\",\"url\":"
	"\"/ms\"},\"user\":null,\"status\":200,\"bytes\":{\"in\":0,\"out\":"
	"45125},\"msg\":\"200, req: 'GET /ms', bytes: 0/45125\"}",
	"{\"level\":30,\"sub\":\"in\",\"req\":{\"method\":\"GET\",\"url\":"
	"\"/ms/-/ms-2.1.3.tgz\"},\"msg\":\"requested\"}",
	"{\"level\":25,\"sub\":\"in\",\"request\":{\"method\":\"GET\",\"url\":"
	"\"/ms/-/ms-2.1.3.tgz\"},\"status\":200,\"bytes\":{\"in\":0,\"out\":"
	"2967},\"msg\":\"200\"}",
	"{\"level\":30,\"sub\":\"in\",\"req\":{\"method\":\"GET\",\"url\":"
	"\"/@types%2fnode/-/node-20.0.0.tgz?x=1\"},\"msg\":\"requested\"}",
	"{\"level\":30,\"sub\":\"in\",\"req\":{\"method\":\"GET\",\"url\":"
	"\"/express\"},\"msg\":\"requested\"}",
	"{\"level\":25,\"sub\":\"in\",\"request\":{\"method\":\"GET\",\"url\":"
	"\"/express\"},\"status\":404,\"error\":\"no such package available\","
	"\"bytes\":{\"in\":0,\"out\":43},\"msg\":\"404\"}",
	"{\"level\":30,\"sub\":\"in\",\"req\":{\"method\":\"POST\",\"url\":"
	"\"/-/npm/v1/security/advisories/bulk\"},\"msg\":\"requested\"}",
	"not json at all",
	"",
	"{\"sub\":\"in\",\"req\":{\"url\":3}}",
};

TEST(counts_from_the_log)
{
	struct pmbench_registry_counts c;

	memset(&c, 0, sizeof(c));
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(log_lines); i++)
		pmbench_registry_count_line(&c, log_lines[i]);
	CHECK_INT(c.meta_requests, 2);
	CHECK_INT(c.tarball_requests, 2);
	CHECK_INT(c.other_requests, 1);
	CHECK_INT(c.failed, 1);
	CHECK_INT(c.uplink_requests, 1);
	/* What it sent to the PM; the upstream's bytes are not the PM's. */
	CHECK_INT(c.bytes, 45125 + 2967 + 43);
}

TEST(modes)
{
	enum pmbench_registry_mode m;
	struct pmbench_registry reg = PMBENCH_REGISTRY_INIT;

	CHECK_INT(pmbench_registry_parse_mode(&m, "local"), 0);
	CHECK_INT(m, PMBENCH_REGISTRY_LOCAL);
	CHECK_INT(pmbench_registry_parse_mode(&m, "live"), 0);
	CHECK_INT(m, PMBENCH_REGISTRY_LIVE);
	CHECK_INT(pmbench_registry_parse_mode(&m, "mirror"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "'local'");
	CHECK_STR(pmbench_registry_mode_name(PMBENCH_REGISTRY_LIVE), "live");
	CHECK_STR(pmbench_registry_state(NULL), "live");
	CHECK_STR(pmbench_registry_state(&reg), "local mirror, warm");
	/* Never started: stopping and releasing are no-ops. */
	CHECK_INT(pmbench_registry_stop(&reg), 0);
	pmbench_registry_release(&reg);
}

/* A sample with the registry metrics of a run against the sealed mirror. */
static void set_counts(struct pmbench_sample *s, double meta, double failed,
		       double up, double fallbacks)
{
	pmbench_sample_metric_set(s, "registry_meta_requests", meta);
	pmbench_sample_metric_set(s, "registry_tarball_requests", 10);
	pmbench_sample_metric_set(s, "registry_other_requests", 0);
	pmbench_sample_metric_set(s, "registry_failed_requests", failed);
	pmbench_sample_metric_set(s, "registry_uplink_requests", up);
	pmbench_sample_metric_set(s, "registry_fallback_requests", fallbacks);
}

TEST(failed_or_upstream_requests_spoil_a_run)
{
	struct pmbench_sample s;
	struct pmbench_buf why = PMBENCH_BUF_INIT;

	memset(&s, 0, sizeof(s));
	/* While priming there is no fallback count: never spoiled. */
	pmbench_sample_metric_set(&s, "registry_failed_requests", 3);
	pmbench_sample_metric_set(&s, "registry_uplink_requests", 40);
	CHECK_INT(pmbench_registry_spoiled(&s, &why), 0);
	CHECK_INT((int)why.len, 0);
	pmbench_sample_release(&s);

	/* Sealed, everything from the primings: a time. */
	memset(&s, 0, sizeof(s));
	set_counts(&s, 582, 0, 0, 0);
	CHECK_INT(pmbench_registry_spoiled(&s, &why), 0);
	/* Fallbacks that all succeeded are still a time. */
	set_counts(&s, 582, 0, 0, 12);
	CHECK_INT(pmbench_registry_spoiled(&s, &why), 0);

	set_counts(&s, 582, 15, 2, 582);
	CHECK_INT(pmbench_registry_spoiled(&s, &why), 1);
	CHECK_CONTAINS(why.ptr, "registry: 15 of 592 requests failed, 2 sent "
				"upstream, 582 not primed (not a measurement "
				"of the PM");
	pmbench_buf_reset(&why);
	set_counts(&s, 5, 0, 1, 1);
	CHECK_INT(pmbench_registry_spoiled(&s, &why), 1);
	CHECK_CONTAINS(why.ptr, "registry: 1 of 15 requests sent upstream, 1 "
				"not primed");
	pmbench_sample_release(&s);
	pmbench_buf_release(&why);
}

CHECK_MAIN(CASE(counts_from_the_log), CASE(modes),
	   CASE(failed_or_upstream_requests_spoil_a_run))
