#ifndef PMBENCH_PROCTREE_H
#define PMBENCH_PROCTREE_H

#include <stdint.h>
#include <sys/types.h>
#include <unistd.h>

#include "pmbench/proc.h"

/*
 * A handle's process tree, found through /proc (proctree.c), for the
 * spawning and waiting of proc.c: the registry of live handles (a slot
 * each, while the main process is not reaped), the walk that finds the
 * processes of a tree by the rule of proc.h, and the sampler.
 */

/* How many handles may be live at once. */
#define MAX_LIVE 64

/* A process of a handle's tree, as a walk found it (proctree.c). */
struct tree_proc;

/* What one walk found. */
struct tree {
	struct tree_proc *v;
	size_t nr, alloc;
};

#define TREE_INIT         \
	{                 \
		.v = NULL \
	}

/* What a walk of the tree is for. */
enum walk_flags {
	/* Open a pidfd for each process, to signal it and no other. */
	WALK_PIDFDS = (1 << 0),
	/* Without a subreaper: also scan /proc for the process group. */
	WALK_GROUP = (1 << 1),
};

/* Close `*fd` if it is open; it is -1 after. */
static inline void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* The main process is not reaped yet: its pid and group are reserved. */
static inline int proctree_held(const struct pmbench_child *c)
{
	return c->slot >= 0;
}

/* A free slot of the registry of live handles, or -1 (MAX_LIVE live). */
int proctree_slot_free(void);

/*
 * Take `slot` for `c`, whose main process (`c->pid`, its group) started
 * at `t0_tick` (proctree_ticks() just before the spawn).
 */
void proctree_slot_add(struct pmbench_child *c, int slot, uint64_t t0_tick);

/* Free c's slot, before its main process is reaped; `c->slot` is -1. */
void proctree_slot_remove(struct pmbench_child *c);

/* CLOCK_BOOTTIME in the clock ticks of /proc's start times. */
uint64_t proctree_ticks(void);

/* A pidfd for `pid`, or -1 (a kernel without pidfd_open, or it is gone). */
int proctree_pidfd(pid_t pid);

/*
 * Send `sig` through `pidfd` when there is one (a reused pid is never
 * hit), else to `pid`.
 */
void proctree_signal_pid(int pidfd, pid_t pid, int sig);

/*
 * Walk c's tree into `t` (enum walk_flags): the main process while it is
 * not reaped, the processes seen before, the orphans that are its own
 * (with a subreaper) or the members of its group (without one, when
 * asked), and all their descendants. Every process found is remembered.
 */
void proctree_walk(struct tree *t, struct pmbench_child *c, unsigned flags);

/* How many processes of `t` are not zombies. */
int proctree_live(const struct tree *t);

/* Send `sig` to c's group, then to every live process of `t`. */
void proctree_signal(const struct tree *t, const struct pmbench_child *c,
		     int sig);

/* Reap the zombies of `t` that are children of the program, not c's main. */
void proctree_reap_orphans(const struct tree *t, const struct pmbench_child *c);

/* Empty `t` (its pidfds closed), to walk again. */
void proctree_reset(struct tree *t);

/* Free what `t` holds. */
void proctree_release(struct tree *t);

/*
 * Walk c's tree (so that what it starts is remembered; `flags` as
 * proctree_walk()'s) and, when asked, sample the sum of its RSS, and
 * trace it (proctrace.h).
 */
void proctree_sample(struct pmbench_child *c, unsigned flags);

#endif
