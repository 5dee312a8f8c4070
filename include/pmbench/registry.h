#ifndef PMBENCH_REGISTRY_H
#define PMBENCH_REGISTRY_H

#include <stdint.h>

#include "pmbench/buf.h"
#include "pmbench/link.h"
#include "pmbench/mirror.h"
#include "pmbench/proc.h"
#include "pmbench/strvec.h"

struct pmbench_ctx;
struct pmbench_result;
struct pmbench_sample;

/**
 * The registry the package managers talk to (`--registry local|live`).
 *
 * Local (the default): a verdaccio mirror (pinned in
 * ci/toolchain.versions) that pmbench starts on a free port of 127.0.0.1,
 * in a process group of its own, with its storage in
 * `<cache>/registry/<upstream key>/storage` kept between invocations, its
 * uplink the registry the user's npm config names. It runs in two modes:
 *
 * - priming (pmbench_registry_prime()): the uplink is live, so the
 *   untimed priming installs fill the mirror;
 * - sealed (pmbench_registry_seal()): verdaccio restarted on a port of
 *   its own with every upstream request sent to a port of 127.0.0.1 that
 *   refuses connections and no revalidation of cached metadata; on the
 *   PMs' port, pmbench's front (mirror.h) answers from memory with what
 *   the sealed verdaccio answered to every request the primings made, so
 *   the timed runs measure the PM, not verdaccio's CPU. A request the
 *   primings did not make goes to verdaccio there and then (a fallback,
 *   counted), and one it cannot answer fails loudly (404 or 500 to the
 *   PM, counted as failed and as an uplink request).
 *
 * With a link (`--link`), the PMs talk to a relay (link.h) in front of
 * the mirror, shaping only while sealed. Every PM is pointed at the
 * mirror through its own PM-table entry (`registry_env`), and the
 * verdaccio log gives per run the requests and bytes it served.
 *
 * Live: nothing is started; the PMs use the registry of the user's
 * config and every function here does nothing.
 *
 * Threads: these functions are for the thread that runs the PMs; the
 * front and the relay they start serve from threads of their own
 * (mirror.h, link.h), and the counts are read from the front under its
 * lock.
 */

enum pmbench_registry_mode {
	PMBENCH_REGISTRY_LOCAL,
	PMBENCH_REGISTRY_LIVE,
};

struct pmbench_registry {
	/* Set by the caller. */
	enum pmbench_registry_mode mode;
	struct pmbench_link_spec link;
	/** verdaccio's binary; NULL: <toolchain>/verdaccio/.../verdaccio */
	const char *verdaccio;

	/* Private. */
	int state; /* 0 stopped, 1 priming, 2 sealed */
	struct pmbench_child child;
	int port;      /* verdaccio's */
	int refuse_fd; /* a bound socket that never listens */
	int refuse_port;
	char *upstream; /* the uplink URL (never written to results) */
	char *dir;	/* <cache>/registry/<key> */
	char *url;	/* what the PMs are given */
	char *log_path;
	uint64_t log_off;
	char *version;
	struct pmbench_link *relay;
	struct pmbench_mirror *front; /* serves the timed runs (mirror.h) */
	int backend_port;   /* the sealed verdaccio's, behind the front */
	int child_port;	    /* where the running verdaccio listens */
	uint64_t prime_off; /* the log's size when priming began */
	char *caching;	    /* the upstream's Cache-Control, as found */
	/* The front's log of the last counted run (pmbench_registry_count). */
	struct pmbench_mirror_log requests;
};

#define PMBENCH_REGISTRY_INIT                                                \
	{                                                                    \
		.mode = PMBENCH_REGISTRY_LOCAL,                              \
		.link = PMBENCH_LINK_SPEC_INIT, .child = PMBENCH_CHILD_INIT, \
		.refuse_fd = -1                                              \
	}

/**
 * Parse `--registry` text ("local" or "live") into `out`. Returns 0 or
 * PMBENCH_EINVALID with a message.
 */
int pmbench_registry_parse_mode(enum pmbench_registry_mode *out,
				const char *text);

/** "local" or "live". */
const char *pmbench_registry_mode_name(enum pmbench_registry_mode mode);

/**
 * The registry the user's npm config names (`npm config get registry`,
 * asked in the folder `scratch`, with npm's cache there), ending with
 * '/'; https://registry.npmjs.org/ when npm cannot say. The mirror's
 * uplink, and where pmbench installs a Node from. Free it.
 */
char *pmbench_registry_upstream(struct pmbench_ctx *ctx, const char *scratch);

/**
 * Local mode: have the mirror running with its uplink live (start it, or
 * restart it unsealed on the same port), the relay unshaped. Asks npm
 * for the upstream on the first call. NULL or live: nothing. Returns 0
 * or an error naming what failed and the fix.
 */
int pmbench_registry_prime(struct pmbench_registry *reg,
			   struct pmbench_ctx *ctx);

/**
 * 1 while the local mirror runs with its uplink live (between
 * pmbench_registry_prime() and pmbench_registry_seal()): what a PM
 * fetches now is there for the timed runs. 0 otherwise (NULL, live).
 */
int pmbench_registry_priming(const struct pmbench_registry *reg);

/**
 * Local mode: restart the mirror sealed (see above) on the same port,
 * the relay shaped. NULL, live or not running: nothing. Returns 0 or an
 * error.
 */
int pmbench_registry_seal(struct pmbench_registry *reg,
			  struct pmbench_ctx *ctx);

/**
 * Append a PM's registry settings to `env`: `settings` is its table
 * entry's `registry_env` ("npm_config_registry={registry}", ...; NULL:
 * none), each with {registry} filled. Nothing unless the mirror runs.
 */
void pmbench_registry_pm_env(const struct pmbench_registry *reg,
			     struct pmbench_strvec *env,
			     const char *const *settings);

/**
 * Watch the verdaccio pmbench started, while a PM runs: whether it has
 * ended (killed, crashed). While priming, that is an error naming it
 * (every request of the PM would fail, and PMs retry for minutes): the
 * caller stops the run and the command. Sealed, the front still
 * answers what the primings fetched: the first time, a warning through
 * `ctx` says what fails from then on (requests the primings did not
 * make), and 0 is returned. NULL, live, or still running: 0.
 */
int pmbench_registry_watch(struct pmbench_registry *reg,
			   struct pmbench_ctx *ctx);

/**
 * Rewrite the absolute tarball URLs of the lockfiles in `project`
 * (package-lock.json, npm-shrinkwrap.json, yarn.lock, bun.lock,
 * pnpm-lock.yaml) that name the upstream or the public npm and yarn
 * registries so that they name the mirror. Appends what it rewrote to
 * `what` ("yarn.lock: 12 URLs"). Nothing unless the mirror runs.
 * Returns 0 or an error.
 */
int pmbench_registry_rewrite_lockfiles(const struct pmbench_registry *reg,
				       const char *project,
				       struct pmbench_buf *what);

/**
 * Start counting: skip what the mirror logged so far. Call just before
 * a run.
 */
void pmbench_registry_mark(struct pmbench_registry *reg);

/** What the mirror served since the mark (see pmbench_registry_count()). */
struct pmbench_registry_counts {
	unsigned meta_requests;	   /**< package metadata (packuments) */
	unsigned tarball_requests; /**< .tgz */
	unsigned other_requests;   /**< anything else (audit, ...) */
	unsigned failed;	   /**< answers with status 400 and above */
	unsigned uplink_requests;  /**< what verdaccio asked the upstream */
	unsigned fallbacks; /**< sealed: answered by verdaccio, not memory */
	uint64_t bytes;	    /**< bytes it sent */
	/*
	 * Sealed only (the front tells whose connection a request came
	 * on, mirror.h): the counts above are of what pmbench ran.
	 */
	unsigned foreign_requests;    /**< other processes': not above */
	unsigned foreign_connections; /**< other processes' connections */
	unsigned unattributed;	      /**< owner unknown: counted above */
	unsigned dropped;	      /**< connections closed at the cap */
	unsigned refused; /**< refused on purpose (pmbench_registry_refuse) */
};

/** The status the offline proof's refusals carry (not retried by PMs). */
#define PMBENCH_REGISTRY_REFUSE_STATUS 403

/**
 * Sealed only: make the front answer every request with `status`
 * (registry offline: bench's offline proof), or serve again with 0.
 * Returns 0, or PMBENCH_EINVALID (set) when no front serves (live
 * registry, not sealed).
 */
int pmbench_registry_refuse(struct pmbench_registry *reg, int status);

/**
 * Read the mirror's log since the mark into `out` (zeroed first) and set
 * the mark after it. Returns 0, or -1 when nothing runs (no counts).
 */
int pmbench_registry_count(struct pmbench_registry *reg,
			   struct pmbench_registry_counts *out);

/**
 * Move the front's log of the requests counted by the last
 * pmbench_registry_count() (sealed only: the front answers then) into
 * `out`, released first; empty otherwise (nothing runs, priming, live).
 */
void pmbench_registry_take_log(struct pmbench_registry *reg,
			       struct pmbench_mirror_log *out);

/**
 * The counts since the mark as metrics of `s` (registry_meta_requests,
 * registry_tarball_requests, registry_other_requests,
 * registry_failed_requests, registry_uplink_requests,
 * registry_fallback_requests, registry_bytes; and, only when there were
 * any, registry_foreign_requests (with other processes' connections
 * seen), registry_unattributed_connections and
 * registry_dropped_connections). Nothing unless the mirror runs.
 */
void pmbench_registry_add_metrics(struct pmbench_registry *reg,
				  struct pmbench_sample *s);

/**
 * Parse one line of verdaccio's JSON log into `c` (adding). Exposed for
 * the tests.
 */
void pmbench_registry_count_line(struct pmbench_registry_counts *c,
				 const char *line);

/**
 * Whether a run against the sealed mirror (its sample has
 * registry_fallback_requests) made requests that failed or were sent
 * upstream: then its time measures the mirror's gaps and the PM's
 * retries, not the PM. Appends the reason with the counts to `why`
 * ("registry: 7 of 601 requests failed, 2 sent upstream, 592 not
 * primed") and returns 1; else 0.
 */
int pmbench_registry_spoiled(const struct pmbench_sample *s,
			     struct pmbench_buf *why);

/**
 * Record in `r`'s environment which registry and link the results used:
 * `registry` ("local" or "live"), `registry_mirror` (a description
 * without any URL), `link`. NULL: live.
 */
void pmbench_registry_record(const struct pmbench_registry *reg,
			     struct pmbench_result *r);

/**
 * The scenario state line for reports: "local mirror, warm" or "live".
 */
const char *pmbench_registry_state(const struct pmbench_registry *reg);

/**
 * The local mirror's storage folder (the packuments and tarballs it
 * fetched, kept between invocations) into `out`; nothing for the live
 * registry or a mirror never started.
 */
void pmbench_registry_storage(struct pmbench_buf *out,
			      const struct pmbench_registry *reg);

/**
 * Stop the mirror (its whole process group) and the relay, and check
 * that their ports refuse connections. Safe to call more than once and
 * on a registry never started. Returns 0, or an error when a port still
 * accepts connections.
 */
int pmbench_registry_stop(struct pmbench_registry *reg);

/** pmbench_registry_stop() and free everything. */
void pmbench_registry_release(struct pmbench_registry *reg);

#endif
