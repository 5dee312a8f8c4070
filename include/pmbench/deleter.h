#ifndef PMBENCH_DELETER_H
#define PMBENCH_DELETER_H

#include <sys/types.h>

#include "pmbench/buf.h"

/**
 * The deleter: the one process pmbench leaves running when it returns.
 *
 * What a command set aside in its trash (pmbench_fs_discard()) is
 * deleted after it: 500,000 files and 5.6 GB after the default bench,
 * 39 s with the prompt held when pmbench deleted them itself. Instead,
 * pmbench_deleter_start() hands the trash over as a batch of the queue
 * folder `<work folder>/deleting/` (a rename) and starts a process that
 * deletes it, the way `git gc --auto` detaches: forked twice (the first
 * child leaves pmbench's cgroup, pmbench_reaper_leave(), and makes a
 * session of its own, setsid(), before it forks the deleter and exits;
 * pmbench is no subreaper meanwhile, so the deleter is re-parented to
 * init, not to pmbench), at idle I/O priority (ioprio_set
 * IOPRIO_CLASS_IDLE) and nice 19, its standard streams on /dev/null and
 * every other descriptor closed (so neither the caller reading pmbench's
 * output nor the reaper's pipe waits for it), named "pmb-deleter". So the
 * reaper's sweep at pmbench's exit does not reach it: it is in none of
 * the children's process groups, not in pmbench's cgroup, and carries no
 * PMBENCH_RUN marker.
 *
 * It holds an exclusive flock on `deleting/.lock` while it waits out its
 * delay (below) and while it deletes, and writes its pid and which of the
 * two it does there: the next pmbench sees it (pmbench_deleter_state());
 * one still waiting is put off (pmbench_deleter_put_off()), one deleting
 * is waited for before the first timed run
 * (pmbench_workspace_await_reuse()); two deleters never delete at once
 * (a second one waits for the lock), and each deletes only what is in
 * the queue when it looks, again until it is empty. The deleter tries the
 * lock before it tells pmbench its pid, so once pmbench has returned the
 * next command sees it (or the deleter before it) at work. When it is done it
 * records a large deletion in the trash (pmbench_fs_trash_drain()), the
 * record the next command's wait reads. A deleter that was killed
 * leaves its batches in the queue, and the next command that takes the
 * work folder starts a new one.
 *
 * PMBENCH_TEST_DELETER_HOLD=PATH (tests only) makes the deleter, once it
 * holds the lock, wait until PATH exists before it deletes anything.
 */

/**
 * The deleter waits so many seconds before it deletes (default
 * PMBENCH_DELETER_DELAY_S): a command started meanwhile in the same work
 * folder puts the deletion off until it is done itself (SIGTERM,
 * pmbench_deleter_put_off()), so that commands run back to back do not
 * wait for each other's deletion and the file system's slow minutes after
 * it; `pmbench wait` ends the delay (SIGUSR1, pmbench_deleter_hurry()).
 */
#define PMBENCH_DELETER_DELAY_ENV "PMBENCH_DELETER_DELAY"
#define PMBENCH_DELETER_DELAY_S	  120

/** The delay in seconds: the environment's, else the default. */
unsigned pmbench_deleter_delay(void);

/** The test knob (see above). */
#define PMBENCH_DELETER_HOLD_ENV "PMBENCH_TEST_DELETER_HOLD"

/** The queue folder of the work folder `cache_dir` into `out`. */
void pmbench_deleter_queue(struct pmbench_buf *out, const char *cache_dir);

/**
 * Hand the trash of the work folder `cache_dir` over to its queue, as
 * pmbench_fs_trash_handoff() does (1, 0 or an error), and count the
 * batches the queue then holds into `out_pending`; start no deleter.
 */
int pmbench_deleter_hand_over(const char *cache_dir, int *out_pending);

/**
 * Hand the trash of the work folder `cache_dir` over and start a deleter,
 * when there is anything to delete (what this command set aside, or
 * batches a killed deleter left) and no running deleter will delete it.
 * Call it from the program's main thread, with no child running. Returns
 * 1 with the deleter's pid in `out_pid`, 0 when none was needed (then
 * `out_pid` is 0), or an error (the trash, or a batch, is left as it is:
 * the caller may empty it itself).
 */
int pmbench_deleter_start(pid_t *out_pid, const char *cache_dir);

/**
 * The memory of the process's arguments (argv[0] to the end of the last
 * one), which the deleter overwrites with what it does, so that `ps`
 * shows "pmbench-deleter: deleting ..." and not the command that started
 * it. main() calls it once; without it only the short name is set.
 */
void pmbench_deleter_title_area(char **argv, int argc);

/**
 * The pid of the deleter deleting in the work folder `cache_dir` now, or
 * 0 when none holds its lock (-1: one holds it and has not written its pid
 * yet).
 */
pid_t pmbench_deleter_running(const char *cache_dir);

/**
 * pmbench_deleter_running(), and into `out_waiting` (may be NULL)
 * whether that deleter still waits out its delay, having deleted nothing.
 */
pid_t pmbench_deleter_state(const char *cache_dir, int *out_waiting);

/**
 * Stop the deleter `pid` of the work folder `cache_dir` (SIGTERM): it
 * stops between two files, records what it deleted, and leaves the rest
 * in the queue, which the next deleter deletes. 0 once its lock is free,
 * or an error after 10 s.
 */
int pmbench_deleter_put_off(const char *cache_dir, pid_t pid);

/**
 * Someone waits for the deleter `pid`: end its delay (SIGUSR1) and give
 * it the normal I/O priority back (best-effort; nice cannot be undone
 * without privileges). 0 or -1.
 */
int pmbench_deleter_hurry(pid_t pid);

#endif
