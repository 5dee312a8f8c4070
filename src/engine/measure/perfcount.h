#ifndef PMBENCH_ENGINE_PERFCOUNT_H
#define PMBENCH_ENGINE_PERFCOUNT_H

/*
 * The work counters of a child's process tree (perf_event_open(2)), for
 * proc.c only; what the rest of the engine sees is in proc.h
 * (PMBENCH_CHILD_COUNT_WORK, pmbench_proc_work_why()).
 *
 * The counters are opened by the child itself, between its clone and its
 * execve (pid 0, any CPU), disabled, with enable_on_exec and inherit: they
 * start counting at the exec, so that nothing of pmbench's is counted,
 * and every process and thread the PM starts afterwards carries a copy
 * whose count is added to the child's when it exits. The child hands the
 * descriptors to pmbench over a socket pair (SCM_RIGHTS) and execs; they
 * are read once the whole tree is gone, when every inherited count has
 * been added (a copy is folded in when its process exits).
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "pmbench/proc.h"

#if defined(__GNUC__)
#define PMBENCH_NO_ASAN __attribute__((no_sanitize_address))
#else
#define PMBENCH_NO_ASAN
#endif

/* What the child needs to open the counters, made before the clone. */
struct pmbench_perf_spawn {
	int nr; /* counters to open; 0: none */
	int which[PMBENCH_WORK_NR];
	struct perf_event_attr attr[PMBENCH_WORK_NR];
	int sock; /* the child's end of the pair; -1 */
	/* Sent with the descriptors: each counter's errno, 0 when opened. */
	int errs[PMBENCH_WORK_NR];
	struct iovec iov;
	struct msghdr msg;
	union {
		char buf[CMSG_SPACE(sizeof(int) * PMBENCH_WORK_NR)];
		struct cmsghdr align;
	} ctl;
};

/*
 * Before the clone: find out once which counters this machine has, and
 * make `ps` and a socket pair for those it has (`*out_sock`: pmbench's
 * end, -1 when none is counted). Never fails: what cannot be counted is
 * not.
 */
void pmbench_perf_prepare(struct pmbench_perf_spawn *ps, int *out_sock);

/*
 * In the child, between the clone and the execve: open the counters on
 * itself and send them. System calls only: it shares pmbench's memory.
 */
PMBENCH_NO_ASAN void pmbench_perf_child(struct pmbench_perf_spawn *ps);

/*
 * After the clone: take the descriptors the child sent into `fds`
 * (PMBENCH_WORK_NR of them, -1 for each not counted) and close both ends.
 */
void pmbench_perf_adopt(int *fds, struct pmbench_perf_spawn *ps, int sock);

/*
 * Once the tree is gone: read the counters into `r` and close them.
 */
void pmbench_perf_collect(struct pmbench_child_result *r, int *fds);

/* Close the counters unread (a child released early). */
void pmbench_perf_close(int *fds);

#endif
