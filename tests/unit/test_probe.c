/*
 * The probe module on its own: only 127.0.0.1 URLs pass, a free port is
 * free, and requests to a closed port are counted as errors, never as
 * answers.
 */
#include "pmbench/common.h"

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/probe.h"

TEST(only_loopback_urls)
{
	static const char *const good[] = {
		"http://127.0.0.1:5173/",
		"http://127.0.0.1/",
		"http://127.0.0.1:80/count?x=1",
		"http://127.0.0.1",
	};
	static const char *const bad[] = {
		"https://127.0.0.1/",	      "http://localhost:5173/",
		"http://127.0.0.10/",	      "http://127.0.0.1.evil.com/",
		"http://user@127.0.0.1/",     "http://127.0.0.1@evil.com/",
		"http://[::1]:80/",	      "ftp://127.0.0.1/",
		"http://registry.npmjs.org/", "",
	};

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(good); i++)
		CHECK_INT(pmbench_probe_check_url(good[i]), 0);
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(bad); i++) {
		CHECK_INT(pmbench_probe_check_url(bad[i]), PMBENCH_EINVALID);
		CHECK_CONTAINS(pmbench_error_last(), "only http://127.0.0.1");
	}
	CHECK_INT(pmbench_probe_check_url(NULL), PMBENCH_EINVALID);
}

TEST(free_port_is_closed)
{
	unsigned port = 0;

	CHECK_INT(pmbench_probe_free_port(&port), 0);
	CHECK(port > 0 && port < 65536);
	CHECK_INT(pmbench_probe_port_open(port), 0);
}

TEST(closed_port_gives_errors_not_answers)
{
	struct pmbench_probe_opts o = { 9, 3, 10000000000ull, 2000000000ull };
	struct pmbench_probe_stats st;
	struct pmbench_buf url = PMBENCH_BUF_INIT;
	unsigned port = 0;

	CHECK_INT(pmbench_probe_free_port(&port), 0);
	pmbench_buf_addf(&url, "http://127.0.0.1:%u/", port);
	CHECK_INT(pmbench_probe_run(&st, url.ptr, &o, NULL, NULL), 0);
	CHECK_INT(st.requests, 9);
	CHECK_INT(st.errors, 9);
	CHECK_INT(st.ok, 0);
	CHECK_INT(st.statuses_nr, 0);
	CHECK(st.ok_ratio == 0);
	CHECK(st.first_error[0]);
	/* A probe never leaves loopback. */
	CHECK_INT(pmbench_probe_run(&st, "http://example.com/", &o, NULL, NULL),
		  PMBENCH_EINVALID);
	pmbench_buf_release(&url);
}

TEST(ready_poll_counts_refusals)
{
	struct pmbench_ready_poll *p = NULL;
	struct pmbench_ready_state st;
	struct pmbench_buf url = PMBENCH_BUF_INIT;
	unsigned port = 0;

	memset(&st, 0, sizeof(st));
	CHECK_INT(pmbench_probe_free_port(&port), 0);
	pmbench_buf_addf(&url, "http://127.0.0.1:%u/", port);
	CHECK_INT(pmbench_ready_poll_new(&p, url.ptr, 10000000ull,
					 1000000000ull),
		  0);
	/*
	 * Polling a closed port: refused, again and again. Five refusals
	 * take about 50 ms; up to 10 s of polling for them (a fixed 200 ms
	 * gave 4 or fewer at load 25, with the whole suite beside it).
	 */
	for (int i = 0; i < 50 && st.refused < 5; i++)
		CHECK_INT(pmbench_ready_poll_step(p, 200000000ull, &st), 0);
	CHECK(st.refused >= 5);
	CHECK_INT(st.attempts, st.refused);
	CHECK(!st.first_status_ns && !st.body_ns);
	CHECK(st.last_error[0]);
	pmbench_ready_poll_free(p);
	CHECK_INT(pmbench_ready_poll_new(&p, "http://10.0.0.1/", 0, 0),
		  PMBENCH_EINVALID);
	CHECK(!p);
	pmbench_buf_release(&url);
}

CHECK_MAIN(CASE(only_loopback_urls), CASE(free_port_is_closed),
	   CASE(closed_port_gives_errors_not_answers),
	   CASE(ready_poll_counts_refusals))
