#ifndef PMBENCH_LINK_H
#define PMBENCH_LINK_H

#include <stdint.h>

#include "pmbench/buf.h"

/**
 * An emulated network link: a TCP relay on 127.0.0.1 between the package
 * managers and the local registry mirror, run by a thread of pmbench.
 * Every byte is delayed by half the round-trip time in each direction,
 * and every connection shares one bandwidth cap per direction (a token
 * bucket without burst, i.e. a serial link: a chunk leaves once the
 * chunks before it, of any connection, have left), so a PM that opens
 * many connections gets no more than the link (pnpm/benchmarks#55).
 * While shaping is off the relay passes bytes through at once.
 *
 * Whose client: the relay attributes every connection it accepts
 * (peer.h) and connects to the mirror's front from an address that says
 * so, so the front counts only what pmbench runs (mirror.h).
 *
 * Threads: pmbench_link_start() starts the relay's thread. Until
 * pmbench_link_stop(), any thread may call pmbench_link_port() and
 * pmbench_link_shape(); pmbench_link_stop() is for the thread that
 * started it. The parsing and describing functions keep no state.
 */

/** What `--link` asked for; 0 and 0 is no link. */
struct pmbench_link_spec {
	uint64_t rtt_ns;     /**< round-trip time added */
	uint64_t bits_per_s; /**< the shared cap per direction; 0: none */
};

#define PMBENCH_LINK_SPEC_INIT               \
	{                                    \
		.rtt_ns = 0, .bits_per_s = 0 \
	}

/**
 * Parse `--link` text: "none", or "RTT,BANDWIDTH" with RTT in ms, s or
 * us ("50ms") and BANDWIDTH in bit, kbit, mbit or gbit per second
 * (decimal: "200mbit"). Returns 0, or PMBENCH_EINVALID with a message.
 */
int pmbench_link_parse(struct pmbench_link_spec *out, const char *text);

/** Whether `spec` is no link at all. */
int pmbench_link_none(const struct pmbench_link_spec *spec);

/** "50 ms RTT, 200 Mbit/s shared" or "none", appended to `out`. */
void pmbench_link_describe(struct pmbench_buf *out,
			   const struct pmbench_link_spec *spec);

/**
 * The time the model gives for `bytes` sent one way once a request is
 * out: half the RTT there, the bytes at the link's rate, half back.
 * Seconds; for the fidelity test and documentation.
 */
double pmbench_link_model_s(const struct pmbench_link_spec *spec,
			    uint64_t request_bytes, uint64_t response_bytes);

struct pmbench_link;

/**
 * Start a relay listening on a free port of 127.0.0.1 that forwards every
 * connection to 127.0.0.1:`target_port`, shaped by `spec` once shaping is
 * on (it starts off). `*out` is owned by the caller (pmbench_link_stop()).
 * Returns 0 or an error.
 */
int pmbench_link_start(struct pmbench_link **out,
		       const struct pmbench_link_spec *spec, int target_port);

/** The port the relay listens on. */
int pmbench_link_port(const struct pmbench_link *l);

/** Turn shaping on (timed runs) or off (priming). */
void pmbench_link_shape(struct pmbench_link *l, int on);

/**
 * Stop the relay: its thread ends, every connection and the listening
 * socket are closed, `l` is freed. NULL is fine.
 */
void pmbench_link_stop(struct pmbench_link *l);

#endif
