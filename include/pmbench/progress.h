#ifndef PMBENCH_PROGRESS_H
#define PMBENCH_PROGRESS_H

#include "pmbench/common.h"

/**
 * Progress on stderr. On a terminal one status line is redrawn in place;
 * elsewhere (CI logs, pipes) status updates are dropped and only whole
 * event lines are printed, one per finished step.
 */

/** Decide the mode: `tty` < 0 asks isatty(2), else forces it. */
void pmbench_progress_init(int tty);

/** Redraw the status line (terminal only). */
void pmbench_progress_status(const char *fmt, ...) PMBENCH_PRINTF(1, 2);

/** Print an event line ("pmbench: " prefixed) above the status line. */
void pmbench_progress_event(const char *fmt, ...) PMBENCH_PRINTF(1, 2);

/** Clear the status line. */
void pmbench_progress_clear(void);

/** 1 if progress redraws a terminal line. */
int pmbench_progress_is_tty(void);

#endif
