#ifndef PMBENCH_PROC_H
#define PMBENCH_PROC_H

#include <stdint.h>
#include <sys/types.h>

#include "pmbench/buf.h"
#include "pmbench/strvec.h"

struct pmbench_ctx;

/**
 * Child processes, one handle (`struct pmbench_child`) each. Every child
 * is spawned directly (no shell), with stdin from /dev/null, in a process
 * group of its own, with stdout and stderr captured through one pipe into
 * a capped tail, and with SIGKILL as its parent-death signal. When the
 * program started the reaper (reaper.h), every child's environment also
 * holds its marker, PMBENCH_RUN=<id>, and its process group is shared
 * with the reaper's supervisor, which stops all of it should the program
 * be killed.
 *
 * A handle stops, counts and reaps its own process tree and nothing
 * else: its process group, the live descendants of its main process,
 * the processes it was seen to own (the tree is walked every
 * `sample_ns`, and each process is remembered with its start time, so
 * that a reused pid is never taken for it), and, when the program made
 * itself a subreaper (pmbench_proc_subreaper()), the orphans re-parented
 * to the program that belong to it (see below). It never waits for any
 * other child of the program, and never signals a process that is not
 * its own. When pmbench_child_run() returns, nothing the child started
 * is left running.
 *
 * The main process is reaped last: it stays a zombie after it exits (its
 * exit status and rusage are read without reaping it) until the tree is
 * stopped, so that its pid, which is also the process group id, cannot be
 * reused while the handle may still signal the group.
 *
 * Orphans. A descendant whose parent dies is re-parented to the nearest
 * subreaper. An orphan re-parented to the program is a handle's when the
 * handle saw it before (pid and start time), when it is still in the
 * handle's process group, or else when its start time falls within the
 * lifetime of exactly one live handle (one whose main process has not
 * been reaped) and it is not in the program's own process group (a plain
 * fork of the program's stays there). Limits: start times have the
 * kernel's clock-tick resolution (10 ms), so a process started just
 * before a handle may count as started with it; an orphan that left its
 * handle's group before it was ever seen, while two handles ran, belongs
 * to neither until one of them has ended (the other then claims it); and
 * a child the program starts itself, outside the engine, in a group or
 * session of its own, while exactly one handle runs, is taken for that
 * handle's. Without a subreaper, orphans go to init: those seen before
 * and those still in the group are still stopped, others escape.
 *
 * The exit of the main process is noticed through a pidfd (Linux 5.3;
 * on older kernels the wait polls every millisecond). The engine installs
 * no signal handler. Handles are used from one thread.
 */

/** Called for every complete output line (ANSI escapes stripped). */
typedef void (*pmbench_child_line_cb)(const char *line, size_t len,
				      void *payload);

enum pmbench_child_flags {
	/**
	 * Sample the RSS of the whole process tree while it runs, at each
	 * walk: every `sample_ns`, the first one interval after the start
	 * (never at the start, when the tree is only the program's own copy
	 * on its way to exec). A run shorter than that has no sample.
	 */
	PMBENCH_CHILD_SAMPLE_TREE = (1 << 0),
	/** Let output go to pmbench's own stdout/stderr (no capture). */
	PMBENCH_CHILD_PASSTHROUGH = (1 << 1),
	/**
	 * Count the work of the whole process tree with perf events
	 * (`result.work`): every counter this machine has (see
	 * pmbench_proc_work_why()), opened on the child before its exec,
	 * counting from the exec, inherited by every process and thread it
	 * starts, and read by pmbench_child_run() once the tree is gone.
	 */
	PMBENCH_CHILD_COUNT_WORK = (1 << 2),
};

/** The counters of PMBENCH_CHILD_COUNT_WORK. */
enum pmbench_work_counter {
	/**
	 * CPU instructions retired (a hardware event): a measure of work
	 * with little run-to-run noise, where the CPU's counters are
	 * reachable (not in most VMs). User space only where the kernel
	 * forbids more (perf_event_paranoid 2).
	 */
	PMBENCH_WORK_INSTRUCTIONS,
	/**
	 * task-clock (a software event), nanoseconds: the time the tree's
	 * processes and threads were on a CPU, by the scheduler's clock,
	 * kernel time included. Unlike rusage it counts every process of
	 * the tree, waited for or not (daemons, orphans).
	 */
	PMBENCH_WORK_TASK_CLOCK,
	PMBENCH_WORK_NR
};

/** A walk of a traced tree: when, and the tree's bytes written by then. */
struct pmbench_trace_point {
	uint64_t t_ns;	  /**< since the spawn */
	uint64_t written; /**< write_bytes of the tree so far */
	/** `mark_dir` changed since the walk before (or the spawn) */
	int marked;
};

/** A process a traced tree had, as the walks saw it. */
struct pmbench_trace_proc {
	pid_t pid, ppid;
	uint64_t start_tick; /**< /proc start time: clock ticks after boot */
	uint64_t start_ns;   /**< since the spawn, at the ticks' resolution */
	uint64_t seen_ns;    /**< the last walk that found it alive */
	uint64_t gone_ns;    /**< the first walk that found it gone, or 0 */
	uint64_t written;    /**< its write_bytes, as last read */
	uint64_t cpu_ns;     /**< its utime + stime, as last read */
	/** Its environment's npm_lifecycle_event and npm_package_name. */
	char *event, *package;
	/** A lifecycle script: an event the main process does not have. */
	int script;
	int mark;	    /* private: found by the current walk */
	unsigned env_reads; /* private: reads of its environ so far */
	uint64_t env_at;    /* private: its env_start at the last read */
};

/**
 * What the sampler records of a run when the handle has one (`trace`):
 * at each walk (every `sample_ns`, and once more at the exit) the tree's
 * bytes written, read from /proc/PID/io of each of its processes (its
 * write_bytes: what it dirtied in the page cache; a parent's count takes
 * in its reaped children's, which the walk subtracts so nothing counts
 * twice), and every process with its CPU time and, read when it is
 * first seen (and at the next walks while it names none: it may not
 * have exec'd yet), its environment's lifecycle variables (the mark of a PM's
 * lifecycle script: npm, yarn, pnpm and bun set them). Processes
 * that live less than a period may be missed; their writes are not.
 * The caller owns it: PMBENCH_CHILD_TRACE_INIT, then
 * pmbench_child_trace_release().
 */
struct pmbench_child_trace {
	struct pmbench_trace_point *points;
	size_t points_nr, points_alloc;
	struct pmbench_trace_proc *procs;
	size_t procs_nr, procs_alloc;
	uint64_t written; /**< the tree's bytes written so far */
	/**
	 * Processes whose count the exit's walk could not read (a zombie
	 * not pmbench's own, another user's process): `written` is partial.
	 */
	unsigned written_unread;
	uint64_t cpu_ns; /**< pmbench's own CPU time in the traced walks */
	/** Extra reads off: walk and time as untraced (for measuring). */
	int lean;
	/**
	 * A folder whose change (made, removed, an entry added or removed:
	 * its mtime) the walks note as `marked`: the project's
	 * node_modules, whose first change ends a PM's startup. NULL: none.
	 * Set by the caller; kept by pmbench_child_trace_release().
	 */
	const char *mark_dir;
	/* Private: mark_dir as last seen. */
	int mark_seen;
	int64_t mark_sec, mark_nsec;
	uint64_t mark_ino;
};

#define PMBENCH_CHILD_TRACE_INIT \
	{                        \
		.points = NULL   \
	}

/** Free what `t` holds; it is left as PMBENCH_CHILD_TRACE_INIT. */
void pmbench_child_trace_release(struct pmbench_child_trace *t);

struct pmbench_child;

/**
 * Called by pmbench_child_run() while the child runs, at every wake-up
 * of its wait (at least every 200 ms), to watch what the run depends
 * on. Returns 0 to let it go on, or non-zero to stop its tree at once
 * (`result.stopped` is set then; the callback keeps its own reason).
 */
typedef int (*pmbench_child_watch_cb)(struct pmbench_child *c, void *payload);

/** What happened to a child. */
struct pmbench_child_result {
	int exited;	  /**< the main process exited (status known) */
	int exit_code;	  /**< -1 when killed by a signal */
	int signal;	  /**< terminating signal, else 0 */
	int timed_out;	  /**< killed because the timeout passed */
	int interrupted;  /**< killed because pmbench got SIGINT/SIGTERM */
	int stopped;	  /**< killed because its `watch` said so */
	int spawn_errno;  /**< exec failed with this errno, else 0 */
	uint64_t wall_ns; /**< from just before the spawn to the exit */
	uint64_t user_ns; /**< rusage: the child and waited descendants */
	uint64_t sys_ns;
	uint64_t max_rss_kib; /**< ru_maxrss: the largest single process */
	/**
	 * pmbench's own peak RSS when it spawned the child. The child
	 * shares pmbench's memory until its exec (a vfork-style spawn), and
	 * the kernel carries that memory's peak into the child's ru_maxrss:
	 * a max_rss_kib at or below this floor says only "at most this".
	 */
	uint64_t max_rss_floor_kib;
	uint64_t tree_rss_kib; /**< largest sampled sum of the tree's RSS */
	unsigned tree_samples; /**< how many times the tree was sampled */
	int leftover;	       /**< processes alive after the main one exited */
	uint64_t output_bytes; /**< total bytes the child wrote */
	/**
	 * PMBENCH_CHILD_COUNT_WORK: each counter's count over the whole
	 * tree, valid where its bit (1 << PMBENCH_WORK_*) is set in
	 * `work_counted`; a bit in `work_scaled` says the kernel counted only
	 * part of the time (the counter was multiplexed) and the count is
	 * scaled to the whole, an estimate.
	 */
	uint64_t work[PMBENCH_WORK_NR];
	unsigned work_counted;
	unsigned work_scaled;
};

struct pmbench_child {
	/* Set by the caller. */
	struct pmbench_strvec args; /**< argv; args.v[0] looked up on PATH */
	struct pmbench_strvec env;  /**< deltas: "K=V" sets, "K" unsets */
	const char *dir;	    /**< working directory, or NULL */
	uint64_t timeout_ns;	    /**< 0: none */
	uint64_t grace_ns;	    /**< SIGTERM to SIGKILL; default 3 s */
	uint64_t sample_ns;	    /**< tree walk interval; default 25 ms */
	size_t tail_max;	    /**< output bytes kept; default 16 KiB */
	unsigned flags;
	pmbench_child_line_cb on_line;
	void *payload;
	/**
	 * Cancellation: once pmbench_ctx_cancel() is called on it, the
	 * child's tree is stopped and the run returns
	 * PMBENCH_EINTERRUPTED. NULL: only the timeout stops it.
	 */
	const struct pmbench_ctx *ctx;
	/** Called while pmbench_child_run() waits; NULL: nothing watched. */
	pmbench_child_watch_cb watch;
	void *watch_payload;
	/**
	 * Record the run's timeline at each walk (see above); NULL: none.
	 * Reset by pmbench_child_start(); the caller owns it.
	 */
	struct pmbench_child_trace *trace;

	/* Filled by pmbench_child_start()/pmbench_child_pump(). */
	struct pmbench_child_result result;
	struct pmbench_buf tail; /**< the last tail_max bytes of output */
	pid_t pid;		 /**< also the process group id */

	/* Private. */
	int out_fd;
	int out_lazy; /* read at each walk and the exit, not as it comes */
	int pidfd;    /* the main process, or -1 */
	int slot;     /* in the registry while the main is not reaped, or -1 */
	uint64_t t0;  /* CLOCK_MONOTONIC just before the spawn */
	uint64_t next_sample;
	uint64_t t0_tick; /* the spawn in /proc's clock ticks after boot */
	struct pmbench_buf line;
	int in_escape;
	int work_fd[PMBENCH_WORK_NR]; /* valid while work_armed */
	int work_armed;
};

#define PMBENCH_CHILD_INIT                                               \
	{                                                                \
		.args = PMBENCH_STRVEC_INIT, .env = PMBENCH_STRVEC_INIT, \
		.tail = PMBENCH_BUF_INIT, .out_fd = -1, .pidfd = -1,     \
		.slot = -1, .line = PMBENCH_BUF_INIT                     \
	}

/**
 * Set up the engine's process handling once, before the first child:
 * at exit, SIGKILL to the process groups of the children still running;
 * and SIGCHLD back to its default if it is ignored (an ignored SIGCHLD
 * makes the kernel reap children itself, and their exit status would be
 * lost). Installs no signal handler: what SIGINT and the like mean is the
 * program's choice (it calls pmbench_ctx_cancel() and
 * pmbench_proc_signal_live()). The program must not reap children it did
 * not start itself (no waitpid(-1, ...)). Returns 0 or an error.
 */
int pmbench_proc_init(void);

/**
 * Make this process a child subreaper, so that descendants that
 * daemonise are re-parented to it and can still be found and killed by
 * the handle they belong to (see the rule above). A process-wide choice
 * for the program to make (pmbench does). Returns 0 or an error.
 */
int pmbench_proc_subreaper(void);

/**
 * Send `sig` to the process group of every handle whose main process is
 * not reaped yet. Async-signal-safe: for the program's signal handlers
 * (stop at once on Ctrl-C; SIGKILL on a second one). Processes that left
 * their group are stopped by their handle, once its context is cancelled.
 */
void pmbench_proc_signal_live(int sig);

/**
 * The name of a signal that stops pmbench ("SIGINT", "SIGTERM",
 * "SIGHUP", "SIGQUIT"), or "a signal" for any other. Static storage.
 */
const char *pmbench_proc_signal_name(int sig);

/**
 * Why `which` cannot be counted on this machine ("no hardware counters
 * in this VM (...)", "perf_event_paranoid=3 (...)", "switched off
 * (PMBENCH_PERF_EVENTS=off)"), or NULL when it can. Found once, by
 * opening the counter on pmbench itself; static storage. Call it from
 * the thread that starts children.
 */
const char *pmbench_proc_work_why(enum pmbench_work_counter which);

/**
 * 1 when `which` is counted in user space only (the kernel forbids
 * counting its own work: perf_event_paranoid 2), else 0.
 */
int pmbench_proc_work_user_only(enum pmbench_work_counter which);

/**
 * Run a child to completion: start it, collect output and measurements,
 * kill the whole tree on timeout, interrupt or its `watch`, and count
 * (`result.leftover`) and kill whatever it left behind. Returns 0 when
 * the child ran (whatever its exit status: see c->result),
 * PMBENCH_EINTERRUPTED once `c->ctx` is cancelled, or an error when it
 * could not be started (message names the program and the reason).
 */
int pmbench_child_run(struct pmbench_child *c);

/**
 * Start the child; the clock starts just before the spawn (the
 * environment, the path lookup and the pipe are made before). Returns 0,
 * PMBENCH_ENOTFOUND when the program is not on PATH, or an error when it
 * cannot be started (`result.spawn_errno` says why: a missing folder, an
 * exec failure), with nothing left running. At most 64 handles run at
 * once.
 */
int pmbench_child_start(struct pmbench_child *c);

/**
 * Wait up to `wait_ns` for the child's exit, taking its output into the
 * tail (and the line callback) and walking (and sampling) the tree every
 * `sample_ns`. With a line callback, output wakes the wait and is taken
 * as it comes; without one, it is taken at each walk and before
 * returning, so that it wakes no one during a timed run (the pipe holds
 * 1 MiB). Returns 1 once the main process has exited (and its output
 * pipe has been drained of what is available), 0 while it runs,
 * PMBENCH_EINTERRUPTED once `c->ctx` is cancelled. A `wait_ns` of 0
 * takes what output is already there without waiting.
 */
int pmbench_child_pump(struct pmbench_child *c, uint64_t wait_ns);

/**
 * Stop the handle's whole tree: SIGTERM to its process group and to each
 * process of its tree (see above), SIGKILL to what is still alive after
 * the grace period, then reap the main process and the orphans of the
 * tree re-parented to the program. Returns the number of live processes
 * the tree had (0 if nothing was running).
 */
int pmbench_child_kill_tree(struct pmbench_child *c);

/**
 * The live processes of the handle's tree (the main process included
 * while it runs): after pmbench_child_kill_tree(), 0 unless something
 * could not be killed. Returns the count.
 */
int pmbench_child_leftovers(struct pmbench_child *c);

/**
 * Reap the main process of a long-lived handle (a server) whose end was
 * noticed (pmbench_child_pump() returned 1), without waiting, so that it
 * stays no zombie until the handle is released: only when nothing else
 * of its process group lives (else pmbench_child_kill_tree() stops and
 * reaps them all, later). Returns 1 when it was reaped.
 */
int pmbench_child_reap(struct pmbench_child *c);

/**
 * Stop the tree if it still runs, reap the main process, free the
 * child's buffers and close its descriptors.
 */
void pmbench_child_release(struct pmbench_child *c);

/**
 * The last `n` lines of the child's output, trimmed, into `out`
 * (replaced).
 */
void pmbench_child_tail_lines(const struct pmbench_child *c, size_t n,
			      struct pmbench_buf *out);

/**
 * One line describing how the child ended: "exit 1", "killed by signal 9
 * (exit 137)", "timed out after 30 s", "could not start: No such file".
 */
void pmbench_child_describe(const struct pmbench_child *c,
			    struct pmbench_buf *out);

/**
 * The environment a child gets: `base` (NULL-terminated, e.g. environ)
 * with the deltas applied, into `out`.
 */
void pmbench_env_apply(struct pmbench_strvec *out, char *const *base,
		       const struct pmbench_strvec *delta);

/** The value of `key` in a "K=V" vector, or NULL. */
const char *pmbench_env_get(const struct pmbench_strvec *env, const char *key);

/**
 * Find `name` on `path` (a PATH value; NULL means /usr/bin:/bin). A name
 * with a '/' is checked as is. Result (absolute when found on PATH) into
 * `out`. Returns 0 or PMBENCH_ENOTFOUND.
 */
int pmbench_proc_which(struct pmbench_buf *out, const char *name,
		       const char *path);

/**
 * The pids of the live descendants of the whole program (zombies and the
 * reaper's supervisor left out, every handle's and any other) into
 * `*out` (the caller frees it).
 * Returns the count. For checks that nothing at all is left; a handle's
 * own count is pmbench_child_leftovers().
 */
size_t pmbench_proc_descendants(pid_t **out);

#endif
