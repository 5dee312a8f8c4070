#ifndef PMBENCH_ENGINE_PROCTRACE_H
#define PMBENCH_ENGINE_PROCTRACE_H

/*
 * The sampler's timeline of a run (struct pmbench_child_trace, proc.h),
 * private to the engine: proc.c walks a handle's tree and hands each
 * walk's processes to proctrace.c, which reads what the timeline needs
 * of them (/proc/PID/io, and /proc/PID/environ once per process).
 */
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pmbench_child;
struct pmbench_child_trace;

/* A process found by a walk of the tree. */
struct pmbench_proctrace_ent {
	pid_t pid, ppid;
	uint64_t start; /* clock ticks after boot */
	uint64_t cpu;	/* utime + stime, clock ticks */
	/* its environment's address: another one after each exec; 0: unknown */
	uint64_t env_at;
	int zombie;
	/*
	 * A zombie of the program's own (the main process, an orphan
	 * re-parented to it): `written` is what waitid's rusage says it and
	 * the children it reaped wrote (512-byte blocks).
	 */
	int waited;
	uint64_t written;
};

/*
 * Record the walk of `c`'s tree made at `now` (pmbench_now_ns()) that
 * found the `n` processes `v` into `c->trace`. `cpu0` is the thread's
 * CPU time (pmbench_proctrace_cpu()) when the walk began, so that the
 * walk's own cost is counted too.
 */
void pmbench_proctrace_walk(struct pmbench_child *c,
			    const struct pmbench_proctrace_ent *v, size_t n,
			    uint64_t now, uint64_t cpu0);

/*
 * Start a trace afresh for a run (outside the timed window): what the
 * last run left is released, and the mark folder's state noted.
 */
void pmbench_proctrace_begin(struct pmbench_child_trace *t);

/* This thread's CPU time, nanoseconds. */
uint64_t pmbench_proctrace_cpu(void);

#endif
