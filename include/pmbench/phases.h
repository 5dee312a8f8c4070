#ifndef PMBENCH_PHASES_H
#define PMBENCH_PHASES_H

#include <stddef.h>
#include <stdint.h>

#include "pmbench/proc.h"

/**
 * Where a run's time went (issue 27): its phases, the same way for every
 * package manager, from what pmbench sees of any run without asking the
 * PM: the registry front's log of the PM's requests (mirror.h) and the
 * process-tree sampler's walks (proc.h): the tree's bytes written
 * (/proc/PID/io) and the lifecycle scripts among its processes (an
 * environment naming npm_lifecycle_event and npm_package_name).
 *
 * The phases partition the run, from the spawn (0) to the exit (the
 * wall time). At each moment the phase is:
 *
 * - scripts, while a lifecycle script runs (whatever else happens);
 * - network, from the first request's start to the last response's end;
 * - startup, before the first activity: a request, a change of the
 *   project's node_modules (made, removed, an entry added or removed),
 *   a script (what the PM writes elsewhere before, its logs and caches,
 *   is still its startup);
 * - exit, after the last activity (a response, a write of the tree
 *   anywhere, a script's end);
 * - write, the rest: after the network until the tree's last write
 *   (extracting, linking), and what comes between the first change of
 *   node_modules and the first request.
 *
 * Resolution: request times are the front's (exact). Writes and scripts
 * are seen at the sampler's walks (`sample_ns`, 25 ms by default): a
 * write is placed in the middle of the walk interval it was seen in, a
 * script from its process's start (clock ticks, 10 ms) to the middle of
 * the interval in which it was found gone. A phase shorter than the
 * period cannot be told from none ("< 25 ms" in the reports).
 *
 * Threads: for the thread that runs the PMs.
 */

enum pmbench_phase {
	PMBENCH_PHASE_STARTUP,
	PMBENCH_PHASE_NETWORK,
	PMBENCH_PHASE_WRITE,
	PMBENCH_PHASE_SCRIPTS,
	PMBENCH_PHASE_EXIT,
	PMBENCH_PHASES /**< how many */
};

/** A lifecycle script's window: one package's event, its processes. */
struct pmbench_phase_script {
	char *package; /**< npm_package_name, or "" when unset */
	char *event;   /**< npm_lifecycle_event: "postinstall", ... */
	uint64_t start_ns, end_ns; /**< since the spawn */
	uint64_t cpu_ns; /**< its processes' CPU time, as last sampled */
};

/** One registry request of the PM, as the front served it. */
struct pmbench_phase_request {
	uint64_t start_ns; /**< since the spawn: its head began to arrive */
	uint64_t end_ns;   /**< the last byte of the answer handed over */
	uint64_t bytes;	   /**< body bytes */
	int status;
	/**
	 * 'c' an abbreviated packument, 'f' a full one, 't' a tarball, 'o'
	 * anything else (audit, a refused head)
	 */
	char kind;
	int fallback; /**< answered by asking verdaccio, not from memory */
};

/** A run's phases and what they were computed from. */
struct pmbench_phases {
	uint64_t startup_ns, network_ns, write_ns, scripts_ns, exit_ns;
	uint64_t sample_ns; /**< the sampler's period: shorter is unresolved */
	unsigned samples;   /**< walks of the tree (the exit's included) */
	/** pmbench's own CPU time in the walks of this run */
	uint64_t sampler_cpu_ns;
	unsigned requests;	/**< the PM's registry requests */
	unsigned in_flight_max; /**< most requests in flight at once */
	/** the network window (0 and 0 without requests) */
	uint64_t first_request_ns, last_response_ns;
	uint64_t written_bytes; /**< by the tree (/proc/PID/io write_bytes) */
	/**
	 * Processes whose last count the exit's walk could not read
	 * (struct pmbench_child_trace's written_unread): written_bytes is
	 * then a floor. 0: complete.
	 */
	unsigned written_partial;
	/** where the first and last write were seen (0 and 0 without) */
	uint64_t first_write_ns, last_write_ns;
	/** where node_modules was first seen changed (0: never) */
	uint64_t node_modules_ns;
	struct pmbench_phase_script *scripts; /**< by start */
	size_t scripts_nr, scripts_alloc;
	/**
	 * Every request, by start: the waterfall. A cell keeps it for one
	 * run only (pmbench_cell_add_sample()); the others have none.
	 */
	struct pmbench_phase_request *log;
	size_t log_nr, log_alloc;
	unsigned log_dropped; /**< requests past the front's log limit */
};

/** The duration of phase `p`, nanoseconds. */
uint64_t pmbench_phases_get(const struct pmbench_phases *ph,
			    enum pmbench_phase p);

/** "startup", "network", "write", "scripts", "exit". */
const char *pmbench_phase_name(enum pmbench_phase p);

/**
 * What phases are computed from, all times in nanoseconds since the
 * spawn. `points` are the sampler's walks in time order, each with the
 * tree's bytes written up to then; `scripts` the windows of lifecycle
 * scripts (any order, may overlap); `requests` the PM's requests (any
 * order).
 */
struct pmbench_phases_input {
	uint64_t wall_ns;
	uint64_t sample_ns;
	const struct pmbench_trace_point *points;
	size_t points_nr;
	const struct pmbench_phase_script *scripts;
	size_t scripts_nr;
	const struct pmbench_phase_request *requests;
	size_t requests_nr;
};

/**
 * Compute the phases of `in` into `out` (durations, the network and
 * write windows, requests, in-flight maximum, bytes written; not the
 * script or request lists, which the caller moves in). A pure function:
 * the five durations always add up to `in->wall_ns`. Times past the wall
 * are taken as at the wall.
 */
void pmbench_phases_compute(struct pmbench_phases *out,
			    const struct pmbench_phases_input *in);

struct pmbench_mirror_log;

/**
 * The phases of the run of `c` (ended; its `trace` filled by the
 * sampler) into a new struct (the caller frees it with
 * pmbench_phases_free()), with `log`'s requests (times on the monotonic
 * clock, as pmbench_now_ns(); may be NULL) moved into it, its times made
 * relative to the spawn. NULL when `c` has no trace or did not exit.
 */
struct pmbench_phases *pmbench_phases_of_run(const struct pmbench_child *c,
					     struct pmbench_mirror_log *log);

/** A deep copy of `ph` (NULL gives NULL). */
struct pmbench_phases *pmbench_phases_dup(const struct pmbench_phases *ph);

/** Drop the request log of `ph` (the waterfall), keeping the rest. */
void pmbench_phases_drop_log(struct pmbench_phases *ph);

/** Free `ph` and what it holds. NULL is fine. */
void pmbench_phases_free(struct pmbench_phases *ph);

#endif
