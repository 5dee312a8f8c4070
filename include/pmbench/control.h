#ifndef PMBENCH_CONTROL_H
#define PMBENCH_CONTROL_H

#include <stdint.h>

struct pmbench_ctx;
struct pmbench_sample;

/**
 * The drift control: a fixed piece of pmbench's own work, timed once per
 * round beside the PMs, so that a report can say how much the machine
 * itself drifted during a scenario (a thermal throttle, another job, a
 * filling page cache). The work is the same every time: copy a fixed
 * tree of PMBENCH_CONTROL_FILES small files (made once in the work
 * folder, outside the timed window), read every copied file back, and
 * run a fixed CPU loop. Its cells have the pm name PMBENCH_CONTROL_PM;
 * they are no PM: never in ratios, claims or comparisons.
 */

/** The pm name of the control's cells. */
#define PMBENCH_CONTROL_PM "(control)"

/** Files in the control's tree. */
#define PMBENCH_CONTROL_FILES 2000

/**
 * Test knob, read by pmbench_control_run(): PCT makes round r's control
 * take (1 + PCT / 100 * r) times its work (a sleep after it), a forced
 * drift. Tests only.
 */
#define PMBENCH_CONTROL_DRIFT_ENV "PMBENCH_TEST_CONTROL_DRIFT_PCT"

/**
 * Test knob: set and not "0", bench runs no drift control, as with
 * --no-control. The test harness sets it for every test (each bench
 * would otherwise copy the control's 2,000 files every round); the
 * tests about the control unset it. Tests only.
 */
#define PMBENCH_CONTROL_OFF_ENV "PMBENCH_TEST_NO_CONTROL"

/** `asked`, or 0 when PMBENCH_CONTROL_OFF_ENV turns the control off. */
int pmbench_control_enabled(int asked);

/** 1 if `pm` names the control's cells. */
int pmbench_control_is(const char *pm);

/**
 * Time the control once into `s` (its round already set): wall_ns is the
 * whole work, the metrics "control_files_s" and "control_cpu_s" its two
 * parts. The tree is made under `<work_dir>/control/` on first use
 * (untimed), and the copy is removed before the timed window. A failure
 * of the file system makes a failed sample (ok 0 with the reason), not
 * an error. Returns 0, or PMBENCH_EINTERRUPTED (the sample marked
 * interrupted) when `ctx` was cancelled.
 */
int pmbench_control_run(const struct pmbench_ctx *ctx, const char *work_dir,
			struct pmbench_sample *s);

#endif
