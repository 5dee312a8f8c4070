#ifndef PMBENCH_REAPER_H
#define PMBENCH_REAPER_H

#include <sys/types.h>

/**
 * The reaper: what stops the processes a program started when the
 * program itself is killed with SIGKILL, or crashes, and so runs no
 * cleanup of its own.
 *
 * pmbench_reaper_start() forks a small supervisor (named "pmb-reaper")
 * in a session of its own. It holds nothing of the program's but the
 * read end of a pipe whose write end only the program holds, and sleeps
 * in a blocking read of it: it costs nothing while the program runs. The
 * read returns when the program ends, whichever way; the supervisor then
 * kills, with SIGKILL, repeatedly until none is found:
 *
 * - the program's cgroup, when the machine let the program make one (a
 *   cgroup v2 hierarchy where the program may create a child of its own
 *   cgroup, which has no controllers enabled below it, so that nothing
 *   about how resources are shared changes): the program moves itself
 *   into it at start-up, every child is born in it, and `cgroup.kill`
 *   ends them all at once, whatever session, group or environment they
 *   made themselves. The folder is removed afterwards;
 * - the process groups of the live children (pmbench_reaper_note_group(),
 *   kept in memory shared with the supervisor, read only after the end);
 * - every process whose environment holds the entry PMBENCH_RUN=<id>
 *   that each child gets (pmbench_reaper_marker()): descendants that made
 *   a session or group of their own and were re-parented away.
 *
 * Limits, without the cgroup: a process that left its process group and
 * cleared or rewrote its environment (or made itself unreadable: setuid,
 * not dumpable) cannot be found. And a supervisor killed together with
 * the program (`pkill -f`, a kill of every process of the user) does
 * nothing.
 *
 * On a normal exit (an atexit handler, or pmbench_reaper_stop()), the
 * program leaves the cgroup, tells the supervisor, which stops whatever
 * still runs of the program's, and waits for it: nothing is left when the
 * program returns.
 *
 * Setting PMBENCH_TEST_NO_CGROUP=1 makes the reaper use no cgroup (for
 * the tests of the other mechanisms).
 */

/**
 * Start the supervisor. Call once, from the main thread, before any other
 * thread exists and before the first child is started. Returns 0 (also
 * when no cgroup could be made: pmbench_reaper_describe() says which
 * mechanisms are in use) or an error when no supervisor could be started
 * (nothing is left then).
 */
int pmbench_reaper_start(void);

/**
 * The environment entry every child gets, "PMBENCH_RUN=<id>" (static
 * storage), or NULL when the reaper was not started.
 */
const char *pmbench_reaper_marker(void);

/** The supervisor's pid, or 0 when it is not running. */
pid_t pmbench_reaper_pid(void);

/**
 * Note the process group of the live child in `slot` (0 to 63), or 0 when
 * the slot is free again. Async-signal-safe; a no-op without a reaper.
 */
void pmbench_reaper_note_group(int slot, pid_t pgid);

/**
 * One line saying what stops the program's processes if it is killed
 * (static storage), e.g. "a supervisor kills pmbench's cgroup (cgroup v2,
 * cgroup.kill), its process groups and every process carrying
 * PMBENCH_RUN".
 */
const char *pmbench_reaper_describe(void);

/**
 * For a process forked from the program that is to outlive it (the
 * trash's deleter, deleter.h, the one process pmbench leaves running on
 * purpose): move the calling process out of the program's cgroup, back
 * into the one the program came from, so that the supervisor's
 * `cgroup.kill` does not reach it. Call it in the forked child, before it
 * forks again; the child must also leave the children's process groups
 * (setsid()) and not carry the PMBENCH_RUN marker (a fork that does not
 * exec carries none: the marker is only in the children's environment).
 * Async-signal-safe. Returns 0 (also without a cgroup, or when called in
 * the program itself), or -1 when the move failed.
 */
int pmbench_reaper_leave(void);

/**
 * The normal end: leave the cgroup, have the supervisor stop whatever is
 * left and exit, and reap it. Also run at exit; calling it twice is
 * harmless, and it does nothing in a process forked from the program.
 */
void pmbench_reaper_stop(void);

#endif
