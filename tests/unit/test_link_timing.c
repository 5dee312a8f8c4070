/*
 * The emulated link's fidelity, with ratios only: a fetch of a known size
 * through `--link 100ms,8mbit` must take what the model says (the same
 * fetch without the link, plus one RTT and the bytes at 8 Mbit/s), and
 * two fetches at once must share the one cap: together they take what
 * one fetch of both sizes takes, not half (pnpm/benchmarks#55).
 */
#include "pmbench/common.h"

#include "check.h"
#include "link_peer.h"
#include "pmbench/link.h"
#include "pmbench/stats.h"

#define BYTES 1000000
#define REPS  3

struct fetch_job {
	int port;
	size_t bytes;
	long got;
};

static void *fetch_thread(void *arg)
{
	struct fetch_job *j = arg;

	j->got = link_fetch(j->port, j->bytes);
	return NULL;
}

/* The median time of REPS rounds of `n` parallel fetches of `bytes`. */
static double timed(int port, int n, size_t bytes)
{
	double t[REPS];

	for (int r = 0; r < REPS; r++) {
		struct fetch_job j[2];
		pthread_t th[2];
		uint64_t t0 = pmbench_now_ns();

		for (int i = 0; i < n; i++) {
			j[i].port = port;
			j[i].bytes = bytes;
			pthread_create(&th[i], NULL, fetch_thread, &j[i]);
		}
		for (int i = 0; i < n; i++) {
			pthread_join(th[i], NULL);
			if (j[i].got != (long)bytes)
				return -1;
		}
		t[r] = (double)(pmbench_now_ns() - t0) / 1e9;
	}
	/* REPS is 3: the median is the middle one. */
	for (int a = 0; a < REPS; a++)
		for (int b = a + 1; b < REPS; b++)
			if (t[b] < t[a]) {
				double x = t[a];

				t[a] = t[b];
				t[b] = x;
			}
	return t[REPS / 2];
}

TEST(fetch_takes_what_the_model_says)
{
	struct pmbench_link_spec s;
	struct pmbench_link *l = NULL;
	struct link_peer peer;
	double direct, linked, model, ratio, one, two, shared;

	CHECK_INT(link_peer_start(&peer), 0);
	CHECK_INT(pmbench_link_parse(&s, "100ms,8mbit"), 0);
	CHECK_INT(pmbench_link_start(&l, &s, peer.port), 0);
	direct = timed(pmbench_link_port(l), 1, BYTES);
	pmbench_link_shape(l, 1);
	linked = timed(pmbench_link_port(l), 1, BYTES);
	one = linked;
	two = timed(pmbench_link_port(l), 2, BYTES / 2);
	pmbench_link_stop(l);
	link_peer_stop(&peer);
	CHECK(direct > 0 && linked > 0 && two > 0);
	/* The request line goes up too: a few bytes. */
	model = direct + pmbench_link_model_s(&s, 8, BYTES);
	ratio = linked / model;
	shared = two / one;
	printf("direct %.4f s, linked %.4f s, model %.4f s, ratio %.3f; "
	       "two halves at once %.4f s, %.3f of one whole\n",
	       direct, linked, model, ratio, two, shared);
	CHECK(ratio > 0.95 && ratio < 1.10);
	/* Shared: about one whole fetch, far from the 0.55 of two links. */
	CHECK(shared > 0.9 && shared < 1.15);
}

CHECK_MAIN(CASE(fetch_takes_what_the_model_says))
