#ifndef PMBENCH_PROGRESS_H
#define PMBENCH_PROGRESS_H

#include "pmbench/common.h"
#include "pmbench/ctx.h"

/**
 * Progress on stderr. On a terminal one status line is redrawn in place:
 * for runs, a progress bar per group (a fixture's task in a scenario)
 * with the PM, runs done, its running median and an ETA, replaced by a
 * line of medians when the group ends; elsewhere (CI logs, pipes) status
 * updates are dropped and only whole event lines are printed, one per
 * finished step. Once the primings are done, an estimate of the whole.
 */

/** Decide the mode: `tty` < 0 asks isatty(2), else forces it. */
void pmbench_progress_init(int tty);

/**
 * The number of groups of runs (fixture, task, scenario) the benchmark
 * plans, for the estimate printed once the primings are done.
 */
void pmbench_progress_plan(unsigned groups);

/** A time budget of `seconds`: the estimate says it (0: none). */
void pmbench_progress_budget(double seconds);

/**
 * No estimate from the primings: the command's runs are not installs
 * of about a priming each (ci-cache's jobs save and restore archives);
 * under a budget the engine's plan says the estimate.
 */
void pmbench_progress_no_estimate(void);

/** Redraw the status line (terminal only). */
void pmbench_progress_status(const char *fmt, ...) PMBENCH_PRINTF(1, 2);

/** Print an event line ("pmbench: " prefixed) above the status line. */
void pmbench_progress_event(const char *fmt, ...) PMBENCH_PRINTF(1, 2);

/** Clear the status line. */
void pmbench_progress_clear(void);

/**
 * The engine context's progress callback: a status redraws the status
 * line, an event prints a line, the end clears the status line.
 */
void pmbench_progress_report(const struct pmbench_progress *p, void *payload);

/**
 * The engine context's log callback: "pmbench: warning: ..." or
 * "pmbench: ..." on stderr, below the status line.
 */
void pmbench_progress_log(enum pmbench_log_level level, const char *msg,
			  void *payload);

#endif
