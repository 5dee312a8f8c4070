#ifndef PMBENCH_PROBE_H
#define PMBENCH_PROBE_H

#include <stdint.h>

/**
 * HTTP against a local dev server, through libcurl: the readiness poller
 * (first response, first full body) and the load probe (a bounded number
 * of requests at a set concurrency, with vegeta's figures). Loopback
 * only: every URL must be http://127.0.0.1[:port]/..., anything else is
 * refused. No libcurl type appears here.
 */

/**
 * Check that `url` is plain HTTP to 127.0.0.1. Returns 0, or
 * PMBENCH_EINVALID with a message naming the URL.
 */
int pmbench_probe_check_url(const char *url);

/**
 * A free TCP port on 127.0.0.1 (bind port 0, read it, close) into *out.
 * Returns 0 or an error.
 */
int pmbench_probe_free_port(unsigned *out);

/** 1 if something accepts a TCP connection on 127.0.0.1:`port`, else 0. */
int pmbench_probe_port_open(unsigned port);

/** What the readiness poller has seen so far (monotonic ns, 0: not yet). */
struct pmbench_ready_state {
	uint64_t first_status_ns; /**< first response head, status < 500 */
	uint64_t body_ns;	  /**< first whole body, status < 500 */
	int status;		  /**< status of that response */
	uint64_t body_bytes;	  /**< its body size */
	unsigned attempts;	  /**< requests finished */
	unsigned refused;	  /**< connection refused */
	unsigned timeouts;	  /**< attempt timed out */
	unsigned errors_5xx;	  /**< answered with status >= 500 */
	unsigned other_errors;	  /**< any other transfer error */
	unsigned stale;		  /**< answers without the needle */
	int last_status;	  /**< last status seen, 0 if none */
	char last_error[160];	  /**< last transfer error, or "" */
};

/** Opaque poller. */
struct pmbench_ready_poll;

/**
 * A poller for `url` (checked with pmbench_probe_check_url()). Attempts
 * start 1 ms apart, the gap doubling up to `max_gap_ns` (at most 10 ms is
 * what the dev task uses); each attempt may take `attempt_timeout_ns`.
 * Returns 0 and *out, or an error. Free with pmbench_ready_poll_free().
 */
int pmbench_ready_poll_new(struct pmbench_ready_poll **out, const char *url,
			   uint64_t max_gap_ns, uint64_t attempt_timeout_ns);

/**
 * Drive the poller for up to `wait_ns` (returns earlier once the body is
 * in): start attempts when due, move transfers on, update `st`. Stops
 * polling once a body with status < 500 is in. Returns 1 when
 * st->body_ns is set, 0 otherwise, or an error.
 */
int pmbench_ready_poll_step(struct pmbench_ready_poll *p, uint64_t wait_ns,
			    struct pmbench_ready_state *st);

/**
 * Poll again from the start (the gap back at 1 ms), this time until a
 * body with status < 500 contains `needle` (NULL: any body): an answer
 * without it counts in `stale` and is retried with the same capped
 * back-off. The caller passes a zeroed state to the next
 * pmbench_ready_poll_step(). An attempt in flight is kept.
 */
void pmbench_ready_poll_rearm(struct pmbench_ready_poll *p, const char *needle);

/**
 * The body of the last answer with status < 500 since the last rearm
 * with a needle ("" if none); owned by the poller, valid until the next
 * step.
 */
const char *pmbench_ready_poll_last_body(const struct pmbench_ready_poll *p);

/** Free the poller (NULL is fine). */
void pmbench_ready_poll_free(struct pmbench_ready_poll *p);

/** Bounds of a load probe. */
struct pmbench_probe_opts {
	unsigned requests;	 /**< how many requests in all, >= 1 */
	unsigned concurrency;	 /**< how many at once, >= 1 */
	uint64_t time_cap_ns;	 /**< stop starting new ones after this */
	uint64_t req_timeout_ns; /**< per request */
};

/** One status code and how many responses had it. */
struct pmbench_probe_status {
	int code;
	unsigned count;
};

/** What a load probe measured (vegeta's report). */
struct pmbench_probe_stats {
	unsigned requests; /**< requests finished (answered or failed) */
	unsigned ok;	   /**< status 200..399 without transfer error */
	unsigned errors;   /**< transfer errors (no status) */
	double ok_ratio;   /**< ok / requests */
	double lat_min, lat_mean, lat_p50, lat_p90, lat_p95, lat_p99,
		lat_max;   /**< seconds, over every answered request */
	uint64_t bytes_in; /**< body bytes received */
	double duration_s; /**< from the first start to the last finish */
	int capped;	   /**< the time cap stopped it early */
	struct pmbench_probe_status statuses[32]; /**< ascending by code */
	size_t statuses_nr;
	char first_error[160]; /**< first transfer error, or "" */
};

/** Called between the probe's steps (e.g. to read a server's output). */
typedef void (*pmbench_probe_tick_cb)(void *payload);

/**
 * Send `o->requests` GET requests to `url` (loopback only) with at most
 * `o->concurrency` in flight, through libcurl's multi interface, and fill
 * `out`. `tick` (may be NULL) is called with `payload` at least every
 * 5 ms. Returns 0 (failed requests are counted, not errors), or an error
 * for a bad URL or a libcurl setup failure.
 */
int pmbench_probe_run(struct pmbench_probe_stats *out, const char *url,
		      const struct pmbench_probe_opts *o,
		      pmbench_probe_tick_cb tick, void *payload);

#endif
