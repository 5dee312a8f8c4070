#ifndef PMBENCH_WORKDIR_H
#define PMBENCH_WORKDIR_H

#include "pmbench/common.h"

#include "pmbench/buf.h"

/*
 * pmbench's work folder (the cache folder, --cache-dir): pmbench empties
 * and deletes what it keeps there, so it uses only a folder it made (the
 * marker file says so), and one pmbench at a time (an exclusive flock on
 * the lock file, which also says who holds it).
 */

/** The marker file a work folder holds (one line of text). */
#define PMBENCH_WORKDIR_MARKER ".pmbench-cache"
/** The lock file: flock'ed, holding the pid, command and start time. */
#define PMBENCH_WORKDIR_LOCK ".pmbench-lock"

/** A work folder this process holds. */
struct pmbench_workdir {
	int fd; /**< the locked lock file, or -1 */
};

#define PMBENCH_WORKDIR_INIT \
	{                    \
		.fd = -1     \
	}

/**
 * Check that `dir` is a pmbench work folder, creating it if missing:
 * a folder with the marker is one; a missing or empty folder, or any
 * folder when `trusted` (the built-in default, the source tree's cache/),
 * is marked and becomes one; a folder holding anything else is refused
 * with PMBENCH_EINVALID naming it and the fix. Prints nothing.
 */
int pmbench_workdir_check(const char *dir, int trusted);

/**
 * Take the work folder `dir` for this process: an exclusive flock on its
 * lock file, without waiting, then the pid, `what` (the command line) and
 * the time written into it. If another process holds it, fails with
 * PMBENCH_ERROR and an error naming that process and the fix. The lock
 * is released by pmbench_workdir_release() or when the process ends,
 * never inherited by the programs pmbench runs (close-on-exec).
 */
int pmbench_workdir_lock(struct pmbench_workdir *w, const char *dir,
			 const char *what);

/** Release the lock (if held); `w` is left as PMBENCH_WORKDIR_INIT. */
void pmbench_workdir_release(struct pmbench_workdir *w);

/**
 * The trash folder of the work folder `dir` into `out` (reset first):
 * every tree pmbench deletes during a measurement goes there
 * (pmbench_fs_discard()) and is deleted when the command is done, so
 * that no timed run creates its files among freshly freed inodes.
 */
void pmbench_workdir_trash(struct pmbench_buf *out, const char *dir);

#endif
