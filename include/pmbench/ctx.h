#ifndef PMBENCH_CTX_H
#define PMBENCH_CTX_H

#include <signal.h>

#include "pmbench/common.h"

struct pmbench_node;
struct pmbench_prior;
struct pmbench_registry;

/**
 * The engine's context: where it works, how it reports, and how it is
 * stopped. Every engine entry point that runs package managers or
 * touches the work folder takes one. The engine never prints: what it has
 * to say goes to the callbacks, and it never installs signal handlers:
 * the program that links it decides what a signal means and calls
 * pmbench_ctx_cancel(), which is async-signal-safe.
 *
 * Sequence:
 *
 *	struct pmbench_ctx ctx = PMBENCH_CTX_INIT;
 *	ctx.cache_dir = "/var/tmp/pmbench";	// a folder of its own
 *	ctx.log = my_log;			// optional
 *	if (pmbench_ctx_init(&ctx) < 0)
 *		...pmbench_error_last()...
 *	... pmbench_bench_run(&ctx, ...) ...
 *	pmbench_ctx_release(&ctx);
 */

/** How much a log message matters. */
enum pmbench_log_level {
	PMBENCH_LOG_NOTE,   /**< worth knowing: "npm given twice" */
	PMBENCH_LOG_WARNING /**< something the results depend on */
};

/** A log message (no prefix, no newline). */
typedef void (*pmbench_log_cb)(enum pmbench_log_level level, const char *msg,
			       void *payload);

/** What a progress report is. */
enum pmbench_progress_kind {
	/** Where the engine is now; replaced by the next status. */
	PMBENCH_PROGRESS_STATUS,
	/** A finished step worth a line of its own (a run, a priming). */
	PMBENCH_PROGRESS_EVENT,
	/** The work is over: clear whatever shows the status. */
	PMBENCH_PROGRESS_DONE,
};

/**
 * One progress report; every pointer is valid during the call only. The
 * details after `text` are for a display that draws progress bars; each
 * may be absent (NULL or 0).
 */
struct pmbench_progress {
	enum pmbench_progress_kind kind;
	const char *text; /**< one line for humans, "" for DONE */
	/** The runs' group: "todo-api · install · clean", or NULL. */
	const char *group;
	const char *pm; /**< the PM this is about, or NULL */
	/**
	 * bench --base: the side of `pm`'s cell, "base" or "head" (a PM
	 * runs on both in one group); NULL: one side, or no PM's cell.
	 */
	const char *side;
	/** Runs of the group finished (warm-ups too) and planned. */
	unsigned done, total;
	/** A finished run's or priming's wall time, s; < 0: it failed. */
	double seconds;
	int priming; /**< 1: about a priming install, not a run */
	/** The whole command's time left by the budget's plan; 0: none. */
	double eta_s;
};

typedef void (*pmbench_progress_cb)(const struct pmbench_progress *p,
				    void *payload);

struct pmbench_ctx {
	/* Set by the caller before pmbench_ctx_init(). */
	const char *cache_dir;	      /**< the work folder (absolute) */
	const char *toolchain_dir;    /**< the pinned PMs, or NULL */
	const char *fixtures_dir;     /**< bare fixture names, or NULL */
	pmbench_log_cb log;	      /**< NULL: messages are dropped */
	pmbench_progress_cb progress; /**< NULL: progress is dropped */
	void *payload;		      /**< given to both callbacks */
	/**
	 * The folder of the `node` every PM and script runs under, put
	 * first on their PATH (pmbench_node_pinned_dir()), or NULL: the
	 * machine's PATH decides.
	 */
	const char *node_dir;
	/**
	 * The Node installation of `node_dir` (node.h: its npm, node-gyp
	 * and headers, which every PM is given), or NULL. bench sets both
	 * per fixture to the Node that fixture runs under.
	 */
	const struct pmbench_node *node;
	/**
	 * The registry the PMs are pointed at (registry.h), owned by the
	 * caller; NULL: the live one of the user's config.
	 */
	struct pmbench_registry *registry;
	/**
	 * 1: time at once even while the file system is still slowed by
	 * pmbench's last large deletion (pmbench_workspace_await_reuse()
	 * then only notes it); 0: wait that out first.
	 */
	int no_fs_wait;
	/**
	 * This machine's earlier results, for a budget's first estimate
	 * (prior.h), read by the caller; NULL: none (the further rounds
	 * may then take the rest of the budget).
	 */
	struct pmbench_prior *prior;
	/**
	 * The command that installs the pinned toolchain (its path), for
	 * the errors to name; NULL: "ci/setup" (pmbench_ctx_setup()).
	 */
	const char *setup;

	/* Private. */
	volatile sig_atomic_t cancel_sig;
	int wake[2];
};

#define PMBENCH_CTX_INIT           \
	{                          \
		.wake = { -1, -1 } \
	}

/**
 * Make the context usable: the libraries (pmbench_ctx_libraries()) and
 * its wake pipe (close-on-exec, non-blocking). Returns 0 or an error.
 */
int pmbench_ctx_init(struct pmbench_ctx *ctx);

/**
 * The command that installs the pinned toolchain, for an error to name:
 * the context's `setup`, else "ci/setup" (`ctx` may be NULL).
 */
const char *pmbench_ctx_setup(const struct pmbench_ctx *ctx);

/**
 * Initialise libcurl and libgit2 for the process, the first call only
 * (thread-safe; cleaned up at exit): every use of either in the engine
 * comes after it. pmbench_ctx_init() calls it, before any thread of the
 * engine starts; the entry points that take no context (a fixture's
 * checkout, a probe, the registry front) call it too. Returns 0 or an
 * error (the same each call).
 */
int pmbench_ctx_libraries(void);

/** Close the pipe; the caller's strings are not owned. */
void pmbench_ctx_release(struct pmbench_ctx *ctx);

/**
 * Ask the engine to stop because of signal `sig` (any non-zero number
 * will do): running children are stopped at once, their trees killed,
 * and the entry point returns PMBENCH_EINTERRUPTED with what it measured
 * so far. Async-signal-safe; the first call's `sig` is kept.
 */
void pmbench_ctx_cancel(struct pmbench_ctx *ctx, int sig);

/** The signal given to pmbench_ctx_cancel(), or 0. */
int pmbench_ctx_cancelled(const struct pmbench_ctx *ctx);

/** The read end of the wake pipe, readable once cancelled; -1 if none. */
int pmbench_ctx_wake_fd(const struct pmbench_ctx *ctx);

void pmbench_ctx_note(const struct pmbench_ctx *ctx, const char *fmt, ...)
	PMBENCH_PRINTF(2, 3);
void pmbench_ctx_warn(const struct pmbench_ctx *ctx, const char *fmt, ...)
	PMBENCH_PRINTF(2, 3);
/** A status line (PMBENCH_PROGRESS_STATUS). */
void pmbench_ctx_status(const struct pmbench_ctx *ctx, const char *fmt, ...)
	PMBENCH_PRINTF(2, 3);
/** An event line (PMBENCH_PROGRESS_EVENT). */
void pmbench_ctx_event(const struct pmbench_ctx *ctx, const char *fmt, ...)
	PMBENCH_PRINTF(2, 3);
/**
 * A report with details: `p` (its kind and details; its text is
 * ignored) with the formatted text.
 */
void pmbench_ctx_report(const struct pmbench_ctx *ctx,
			const struct pmbench_progress *p, const char *fmt, ...)
	PMBENCH_PRINTF(3, 4);
/** The end of the work (PMBENCH_PROGRESS_DONE). */
void pmbench_ctx_done(const struct pmbench_ctx *ctx);

#endif
