#ifndef PMBENCH_CONTROL_H
#define PMBENCH_CONTROL_H

#include <stddef.h>
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

/*
 * The control before timing: the wait for a quiet file system
 * (pmbench_workspace_await_reuse()) compares the control's file work
 * with a reference of this machine and file system.
 */

/**
 * Test knob, read by pmbench_control_files() and pmbench_control_run()
 * (its metric control_files_s): a comma-separated list of seconds
 * ("0.9,0.9,0.1") that the process's successive controls report as their
 * file work instead of what they measured (the work is still done); the
 * last one stands for every later call. Tests only.
 */
#define PMBENCH_CONTROL_FILES_ENV "PMBENCH_TEST_CONTROL_FILES_S"

/** Quiet controls a reference keeps (the newest). */
#define PMBENCH_CONTROL_REF_KEEP 16

/**
 * The reference of the control's file work (copy and read back, the
 * metric control_files_s) on the work folder's file system, kept in
 * `<work_dir>/control/reference` for one machine and file system (its
 * key: /etc/machine-id, the device number and the file system type): the
 * file work of the last quiet controls, in seconds, oldest first.
 */
struct pmbench_control_ref {
	char *key; /**< what it was measured on */
	double quiet[PMBENCH_CONTROL_REF_KEEP];
	size_t nr; /**< 0: no reference yet */
};

#define PMBENCH_CONTROL_REF_INIT \
	{                        \
		.key = NULL      \
	}

/**
 * Read the reference of the work folder `work_dir` into `out` (released
 * first). A missing or unreadable file, or one made on another machine
 * or file system, is an empty reference (nr 0). Never fails.
 */
void pmbench_control_ref_load(struct pmbench_control_ref *out,
			      const char *work_dir);

/**
 * The reference time, seconds: a low quantile (the 25th percentile) of
 * the quiet controls kept, so that one slow control among them does not
 * raise it and the machine's usual noise stays above it; 0 when empty.
 */
double pmbench_control_ref_value(const struct pmbench_control_ref *ref);

/** Keep `files_s` as a quiet control (the oldest goes past the limit). */
void pmbench_control_ref_add(struct pmbench_control_ref *ref, double files_s);

/** Write the reference (atomically). Returns 0 or an error. */
int pmbench_control_ref_save(const struct pmbench_control_ref *ref,
			     const char *work_dir);

void pmbench_control_ref_release(struct pmbench_control_ref *ref);

/**
 * The control's file work alone, once: copy the tree and read the copy
 * back (no CPU loop), its time in seconds into `out_s`. The tree is made
 * first if missing, untimed; the copy goes to the trash. Returns 0, an
 * error of the file system (set), or PMBENCH_EINTERRUPTED.
 */
int pmbench_control_files(double *out_s, const struct pmbench_ctx *ctx,
			  const char *work_dir);

#endif
