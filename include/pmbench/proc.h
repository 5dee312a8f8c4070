#ifndef PMBENCH_PROC_H
#define PMBENCH_PROC_H

#include <stdint.h>
#include <sys/types.h>

#include "pmbench/buf.h"
#include "pmbench/strvec.h"

struct pmbench_ctx;

/**
 * Child processes. Every child is spawned directly (no shell), with stdin
 * from /dev/null, in a process group of its own, with stdout and stderr
 * captured through one pipe into a capped tail. pmbench is a child
 * subreaper, so descendants that daemonise are re-parented to it and can
 * still be found and killed: when pmbench_child_run() returns, nothing the
 * child started is left running.
 */

/** Called for every complete output line (ANSI escapes stripped). */
typedef void (*pmbench_child_line_cb)(const char *line, size_t len,
				      void *payload);

enum pmbench_child_flags {
	/** Sample the RSS of the whole process tree while it runs. */
	PMBENCH_CHILD_SAMPLE_TREE = (1 << 0),
	/** Let output go to pmbench's own stdout/stderr (no capture). */
	PMBENCH_CHILD_PASSTHROUGH = (1 << 1)
};

/** What happened to a child. */
struct pmbench_child_result {
	int exited;	   /**< the main process was reaped */
	int exit_code;	   /**< -1 when killed by a signal */
	int signal;	   /**< terminating signal, else 0 */
	int timed_out;	   /**< killed because the timeout passed */
	int interrupted;   /**< killed because pmbench got SIGINT/SIGTERM */
	int spawn_errno;   /**< exec failed with this errno, else 0 */
	uint64_t wall_ns;  /**< from just before fork to the reap */
	uint64_t user_ns;  /**< wait4 rusage: the child and waited descendants */
	uint64_t sys_ns;
	uint64_t max_rss_kib;  /**< ru_maxrss: the largest single process */
	uint64_t tree_rss_kib; /**< largest sampled sum of the tree's RSS */
	unsigned tree_samples; /**< how many times the tree was sampled */
	int leftover;	       /**< processes alive after the main one exited */
	uint64_t output_bytes; /**< total bytes the child wrote */
};

struct pmbench_child {
	/* Set by the caller. */
	struct pmbench_strvec args; /**< argv; args.v[0] looked up on PATH */
	struct pmbench_strvec env;  /**< deltas: "K=V" sets, "K" unsets */
	const char *dir;	    /**< working directory, or NULL */
	uint64_t timeout_ns;	    /**< 0: none */
	uint64_t grace_ns;	    /**< SIGTERM to SIGKILL; default 3 s */
	uint64_t sample_ns;	    /**< tree RSS interval; default 25 ms */
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

	/* Filled by pmbench_child_start()/pmbench_child_pump(). */
	struct pmbench_child_result result;
	struct pmbench_buf tail; /**< the last tail_max bytes of output */
	pid_t pid;		 /**< also the process group id */

	/* Private. */
	int out_fd;
	uint64_t t0;
	uint64_t next_sample;
	struct pmbench_buf line;
	int in_escape;
};

#define PMBENCH_CHILD_INIT                                                  \
	{ PMBENCH_STRVEC_INIT, PMBENCH_STRVEC_INIT, NULL, 0, 0, 0, 0, 0,    \
	  NULL, NULL, NULL, { 0 }, PMBENCH_BUF_INIT, 0, -1, 0, 0,         \
	  PMBENCH_BUF_INIT, 0 }

/**
 * Set up the engine's process handling once: the SIGCHLD handler that
 * wakes a waiting child (a self-pipe) and, at exit, SIGKILL to the
 * process groups of children still running. Installs no other signal
 * handler: what SIGINT and the like mean is the program's choice (it
 * calls pmbench_ctx_cancel() and pmbench_proc_signal_live()). Returns 0
 * or an error.
 */
int pmbench_proc_init(void);

/**
 * Make this process a child subreaper, so that descendants that
 * daemonise are re-parented to it and can still be found and killed.
 * A process-wide choice for the program to make (pmbench does). Returns
 * 0 or an error.
 */
int pmbench_proc_subreaper(void);

/**
 * Send `sig` to the process group of every running child.
 * Async-signal-safe: for the program's signal handlers (stop at once on
 * Ctrl-C; SIGKILL on a second one).
 */
void pmbench_proc_signal_live(int sig);

/**
 * The name of a signal that stops pmbench ("SIGINT", "SIGTERM",
 * "SIGHUP", "SIGQUIT"), or "a signal" for any other. Static storage.
 */
const char *pmbench_proc_signal_name(int sig);

/**
 * Run a child to completion: start it, collect output and measurements,
 * kill the whole tree on timeout or interrupt, and kill whatever it left
 * behind. Returns 0 when the child ran (whatever its exit status: see
 * c->result), PMBENCH_EINTERRUPTED once `c->ctx` is cancelled, or an error when it could not be started
 * (message names the program and the reason).
 */
int pmbench_child_run(struct pmbench_child *c);

/** Start the child; the clock starts just before the fork. */
int pmbench_child_start(struct pmbench_child *c);

/**
 * Wait up to `wait_ns` for output or the child's exit, feeding the line
 * callback and the tail. Returns 1 once the main process has exited (and
 * its output pipe has been drained of what is available), 0 while it
 * runs, PMBENCH_EINTERRUPTED on a signal. A `wait_ns` of 0 takes what
 * output is already there without waiting.
 */
int pmbench_child_pump(struct pmbench_child *c, uint64_t wait_ns);

/**
 * Stop the child's whole tree: SIGTERM to its process group and to every
 * other descendant of pmbench, SIGKILL to what is still alive after the
 * grace period, and reap everything. Returns the number of processes
 * that had to be signalled (0 if nothing was running).
 */
int pmbench_child_kill_tree(struct pmbench_child *c);

/** Free the child's buffers and close its descriptors. */
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
 * The pids of pmbench's live descendants (excluding zombies) into
 * `out`/`out_nr` (caller frees *out). Returns the count.
 */
size_t pmbench_proc_descendants(pid_t **out);

#endif
