/*
 * Work counters of a child's process tree: CPU instructions retired
 * (a hardware event) and task-clock (a software one: the scheduler's own
 * clock of time on a CPU), per perfcount.h. Which of them this machine
 * can count is found once, by opening each on pmbench itself; the
 * reason a counter cannot be had is kept for the result and said once.
 */
#define _GNU_SOURCE 1
#include "pmbench/common.h"

#include <dirent.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perfcount.h"
#include "pmbench/buf.h"
#include "pmbench/fs.h"

/* What was found about each counter, once (the main thread's). */
struct probe {
	int done;
	int ok;
	int user_only;
	char why[256];
};

static struct probe probes[PMBENCH_WORK_NR];

/* The `read_format` every counter is read with. */
#define READ_FORMAT \
	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

static void attr_of(struct perf_event_attr *a, int which, int user_only)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	if (which == PMBENCH_WORK_INSTRUCTIONS) {
		a->type = PERF_TYPE_HARDWARE;
		a->config = PERF_COUNT_HW_INSTRUCTIONS;
	} else {
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_TASK_CLOCK;
	}
	a->read_format = READ_FORMAT;
	a->disabled = 1;
	a->inherit = 1;
	a->enable_on_exec = 1;
	a->exclude_kernel = user_only ? 1 : 0;
	a->exclude_hv = 1;
}

static int open_counter(struct perf_event_attr *a)
{
	return (int)syscall(SYS_perf_event_open, a, 0, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/* /proc/sys/kernel/perf_event_paranoid, or -100 when unreadable. */
static int paranoid(void)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int v = -100;

	if (pmbench_fs_read_text(&b, "/proc/sys/kernel/perf_event_paranoid",
				 64) == 0)
		v = (int)strtol(b.ptr, NULL, 10);
	else
		pmbench_error_clear();
	pmbench_buf_release(&b);
	return v;
}

/*
 * Whether the kernel lists a CPU's performance monitoring unit among its
 * event sources ("cpu", "cpu_core", "cpu_atom", "armv8_pmuv3_0", ...): a
 * VM without PMU passthrough lists only software, tracepoint, breakpoint
 * and the like ("PMU not available due to virtualization, using software
 * events only" at boot).
 */
static int has_cpu_pmu(void)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *e;
	int found = 0;

	while (d && (e = readdir(d)) != NULL && !found)
		found = !strncmp(e->d_name, "cpu", 3) ||
			!strncmp(e->d_name, "arm", 3);
	if (d)
		closedir(d);
	return found;
}

static void why_not(struct probe *p, int which, int err)
{
	int level = paranoid();
	const char *what = strerror(err);

	if (which == PMBENCH_WORK_INSTRUCTIONS &&
	    (err == ENOENT || err == EOPNOTSUPP || err == ENODEV) &&
	    !has_cpu_pmu())
		snprintf(p->why, sizeof(p->why),
			 "no hardware counters in this VM (perf_event_open: "
			 "%s; the kernel lists no CPU PMU in "
			 "/sys/bus/event_source/devices)",
			 what);
	else if ((err == EACCES || err == EPERM) && level >= 3)
		snprintf(p->why, sizeof(p->why),
			 "perf_event_paranoid=%d (perf events are for "
			 "privileged users only)",
			 level);
	else if (err == EACCES || err == EPERM)
		snprintf(p->why, sizeof(p->why),
			 "perf_event_open is not permitted (%s; "
			 "perf_event_paranoid=%d; a container's seccomp "
			 "profile may block it)",
			 what, level);
	else if (err == ENOSYS)
		snprintf(p->why, sizeof(p->why),
			 "the kernel has no perf events (%s)", what);
	else
		snprintf(p->why, sizeof(p->why), "perf_event_open: %s", what);
}

/*
 * One counter of pmbench's own, open (and disabled) for the process's
 * life. The kernel turns its context-switch hooks for task counters on
 * with the first one opened (a static key and a synchronize_rcu()) and
 * off a second after the last one closed (kernel/events/core.c,
 * account_event() and perf_sched_delayed()). A child's counters are
 * opened between clone and exec, inside the timed window: with nothing
 * else open, every run that came more than a second after the last one
 * paid for the switch. Measured here (2 vCPUs, Linux 6.18): a 5 ms fake
 * PM timed at 7 ms or 18-24 ms, alternating with the drift control's
 * place in the round; 7 ms every time with this counter held. It counts
 * nothing and is not inherited (a child's clone does not copy it).
 */
static void keep_hooks_in(void)
{
	static int held = -1;
	struct perf_event_attr a;

	if (held >= 0)
		return;
	attr_of(&a, PMBENCH_WORK_TASK_CLOCK, 1);
	a.inherit = 0;
	a.enable_on_exec = 0;
	held = open_counter(&a);
}

/*
 * Open `which` on pmbench itself, kernel and user space first, user space
 * only when the kernel forbids more (perf_event_paranoid 2: "user space
 * only"). Software events ignore the split.
 */
static void probe(int which)
{
	struct probe *p = &probes[which];
	const char *knob = getenv("PMBENCH_PERF_EVENTS");
	struct perf_event_attr a;
	int fd, err;

	p->done = 1;
	if (knob && !strcmp(knob, "off")) {
		snprintf(p->why, sizeof(p->why),
			 "switched off (PMBENCH_PERF_EVENTS=off)");
		return;
	}
	attr_of(&a, which, 0);
	fd = open_counter(&a);
	if (fd < 0 && (errno == EACCES || errno == EPERM)) {
		attr_of(&a, which, 1);
		fd = open_counter(&a);
		p->user_only = fd >= 0;
	}
	if (fd >= 0) {
		close(fd);
		p->ok = 1;
		keep_hooks_in();
		return;
	}
	err = errno;
	why_not(p, which, err);
}

const char *pmbench_proc_work_why(enum pmbench_work_counter which)
{
	if ((unsigned)which >= PMBENCH_WORK_NR)
		return "no such counter";
	if (!probes[which].done)
		probe(which);
	return probes[which].ok ? NULL : probes[which].why;
}

int pmbench_proc_work_user_only(enum pmbench_work_counter which)
{
	return !pmbench_proc_work_why(which) && probes[which].user_only;
}

void pmbench_perf_prepare(struct pmbench_perf_spawn *ps, int *out_sock)
{
	int sv[2];

	memset(ps, 0, sizeof(*ps));
	ps->sock = -1;
	*out_sock = -1;
	for (int w = 0; w < PMBENCH_WORK_NR; w++) {
		if (pmbench_proc_work_why(w))
			continue;
		ps->which[ps->nr] = w;
		attr_of(&ps->attr[ps->nr], w, probes[w].user_only);
		ps->nr++;
	}
	if (!ps->nr)
		return;
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0) {
		ps->nr = 0;
		return;
	}
	ps->sock = sv[1];
	*out_sock = sv[0];
	ps->iov.iov_base = ps->errs;
	ps->iov.iov_len = sizeof(ps->errs);
	ps->msg.msg_iov = &ps->iov;
	ps->msg.msg_iovlen = 1;
	ps->msg.msg_control = ps->ctl.buf;
}

PMBENCH_NO_ASAN void pmbench_perf_child(struct pmbench_perf_spawn *ps)
{
	struct cmsghdr *cm = (struct cmsghdr *)(void *)ps->ctl.buf;
	int *slot = (int *)(void *)CMSG_DATA(cm);
	int sent = 0;

	for (int i = 0; i < ps->nr; i++) {
		int fd = open_counter(&ps->attr[i]);

		ps->errs[i] = fd < 0 ? errno : 0;
		if (fd >= 0)
			slot[sent++] = fd;
	}
	if (sent) {
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)sent);
		ps->msg.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)sent);
	}
	/* Nothing to do if it fails: the counts are then missing. */
	if (sendmsg(ps->sock, &ps->msg, MSG_DONTWAIT) < 0)
		ps->errs[0] = errno;
	/* The exec closes them (close-on-exec): pmbench holds its copies. */
}

void pmbench_perf_adopt(int *fds, struct pmbench_perf_spawn *ps, int sock)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * PMBENCH_WORK_NR)];
		struct cmsghdr align;
	} ctl;
	int errs[PMBENCH_WORK_NR] = { 0 };
	struct iovec iov = { .iov_base = errs, .iov_len = sizeof(errs) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;
	int got[PMBENCH_WORK_NR], nr = 0;

	for (int w = 0; w < PMBENCH_WORK_NR; w++)
		fds[w] = -1;
	if (ps->sock >= 0)
		close(ps->sock);
	ps->sock = -1;
	if (sock < 0)
		return;
	msg.msg_control = ctl.buf;
	msg.msg_controllen = sizeof(ctl.buf);
	if (recvmsg(sock, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) < 0) {
		close(sock);
		return;
	}
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
		size_t n;

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		n = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t k = 0; k < n && nr < PMBENCH_WORK_NR; k++)
			memcpy(&got[nr++], CMSG_DATA(cm) + k * sizeof(int),
			       sizeof(int));
	}
	/* The descriptors come in the order of the counters that opened. */
	for (int i = 0, k = 0; i < ps->nr && k < nr; i++)
		if (!errs[i])
			fds[ps->which[i]] = got[k++];
	close(sock);
}

void pmbench_perf_collect(struct pmbench_child_result *r, int *fds)
{
	for (int w = 0; w < PMBENCH_WORK_NR; w++) {
		uint64_t v[3];
		ssize_t n;

		if (fds[w] < 0)
			continue;
		do {
			n = read(fds[w], v, sizeof(v));
		} while (n < 0 && errno == EINTR);
		/* Never enabled (no exec): nothing counted, nothing said. */
		if (n == (ssize_t)sizeof(v) && v[1]) {
			r->work[w] = v[0];
			r->work_counted |= 1u << w;
			/*
			 * Multiplexed with other events: the kernel counted
			 * part of the time; scale to the whole, and say so.
			 */
			if (v[2] && v[2] < v[1]) {
				r->work[w] =
					(uint64_t)((double)v[0] * (double)v[1] /
						   (double)v[2]);
				r->work_scaled |= 1u << w;
			}
		}
		close(fds[w]);
		fds[w] = -1;
	}
}

void pmbench_perf_close(int *fds)
{
	for (int w = 0; w < PMBENCH_WORK_NR; w++) {
		if (fds[w] >= 0)
			close(fds[w]);
		fds[w] = -1;
	}
}
