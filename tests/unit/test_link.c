/*
 * The emulated link on its own: `--link` text, its description, and the
 * relay passing bytes through intact, one connection or many at once.
 * (Its timing against the model: test_link_timing.c, label timing.)
 */
#include "pmbench/common.h"

#include "check.h"
#include "link_peer.h"
#include "pmbench/buf.h"
#include "pmbench/link.h"

TEST(parse_link_specs)
{
	struct pmbench_link_spec s;
	static const char *const bad[] = {
		"",	     "50ms",	     "50,200mbit",  "50ms,",
		"50ms,200",  "x,200mbit",    "-1ms,1mbit",  "50ms,1bit",
		"61s,1mbit", "50ms,200mbps", "nanms,1mbit", "infms,1mbit"
	};

	CHECK_INT(pmbench_link_parse(&s, "none"), 0);
	CHECK(pmbench_link_none(&s));
	CHECK_INT(pmbench_link_parse(&s, "50ms,200mbit"), 0);
	CHECK_INT(s.rtt_ns, 50000000);
	CHECK_INT(s.bits_per_s, 200000000);
	CHECK_INT(pmbench_link_parse(&s, "0.1s,8mbit"), 0);
	CHECK_INT(s.rtt_ns, 100000000);
	CHECK_INT(s.bits_per_s, 8000000);
	CHECK_INT(pmbench_link_parse(&s, "500us,1gbit"), 0);
	CHECK_INT(s.rtt_ns, 500000);
	CHECK_INT(s.bits_per_s, 1000000000);
	CHECK_INT(pmbench_link_parse(&s, "20ms,64kbit"), 0);
	CHECK_INT(s.bits_per_s, 64000);
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(bad); i++) {
		CHECK_INT(pmbench_link_parse(&s, bad[i]), PMBENCH_EINVALID);
		CHECK_CONTAINS(pmbench_error_last(), "RTT,BANDWIDTH");
	}
}

TEST(describe_and_model)
{
	struct pmbench_link_spec s = PMBENCH_LINK_SPEC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_link_describe(&b, &s);
	CHECK_STR(b.ptr, "none");
	pmbench_buf_reset(&b);
	CHECK_INT(pmbench_link_parse(&s, "50ms,200mbit"), 0);
	pmbench_link_describe(&b, &s);
	CHECK_CONTAINS(b.ptr, "50 ms RTT, 200 Mbit/s shared by all");
	/* 1 MB at 8 Mbit/s is 1 s, plus one RTT. */
	CHECK_INT(pmbench_link_parse(&s, "100ms,8mbit"), 0);
	CHECK_NEAR(pmbench_link_model_s(&s, 0, 1000000), 1.1, 1e-9);
	pmbench_buf_release(&b);
}

TEST(relay_passes_bytes_intact)
{
	struct pmbench_link_spec s;
	struct pmbench_link *l = NULL;
	struct link_peer peer;

	CHECK_INT(link_peer_start(&peer), 0);
	CHECK_INT(pmbench_link_parse(&s, "2ms,1gbit"), 0);
	CHECK_INT(pmbench_link_start(&l, &s, peer.port), 0);
	/* Unshaped (priming), then shaped (timed runs). */
	CHECK_INT(link_fetch(pmbench_link_port(l), 3000000), 3000000);
	pmbench_link_shape(l, 1);
	CHECK_INT(link_fetch(pmbench_link_port(l), 1234567), 1234567);
	CHECK_INT(link_fetch(pmbench_link_port(l), 0), 0);
	pmbench_link_stop(l);
	link_peer_stop(&peer);
}

TEST(relay_port_closed_after_stop)
{
	struct pmbench_link_spec s;
	struct pmbench_link *l = NULL;
	int port;

	CHECK_INT(pmbench_link_parse(&s, "10ms,10mbit"), 0);
	CHECK_INT(pmbench_link_start(&l, &s, 9), 0);
	port = pmbench_link_port(l);
	pmbench_link_stop(l);
	CHECK_INT(link_fetch(port, 10), -1);
}

CHECK_MAIN(CASE(parse_link_specs), CASE(describe_and_model),
	   CASE(relay_passes_bytes_intact), CASE(relay_port_closed_after_stop))
