/*
 * A handle's process tree (proctree.h), found through /proc: the registry
 * of live handles and the processes each saw, the walk that finds every
 * process of a tree by the rule of proc.h (its group, what it saw, the
 * orphans that are its own, their descendants), the program's own
 * descendants, and the sampler: each walk's RSS sum and, for a traced
 * run, the processes handed to the timeline (proctrace.c). Spawning and
 * waiting are proc.c's.
 */
#include "pmbench/common.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pmbench/proc.h"
#include "pmbench/reaper.h"
#include "proctrace.h"
#include "proctree.h"

#define SEEN_MAX  4096
#define PIDFD_MAX 256

/* A process a handle saw in its tree. */
struct seen {
	pid_t pid;
	uint64_t start;
};

/*
 * The registry of live handles: those whose main process is not reaped
 * yet. A slot holds what the attribution of orphans needs (the main pid,
 * which is also the group id, the start and the processes seen), so that
 * it never reads through a handle (one its caller forgot to release
 * stays harmless). The process groups are kept apart, as sig_atomic_t,
 * for pmbench_proc_signal_live(), which runs in signal handlers; a slot's
 * group is cleared before its main process is reaped, so that a handler
 * never signals a group id that may have been reused.
 */
struct live_slot {
	pid_t pid; /* 0: free */
	uint64_t t0_tick;
	struct seen *seen;
	size_t seen_nr, seen_alloc;
};

static struct live_slot live[MAX_LIVE];
static volatile sig_atomic_t live_pgids[MAX_LIVE];

void pmbench_proc_signal_live(int sig)
{
	for (int i = 0; i < MAX_LIVE; i++)
		if (live_pgids[i] > 0)
			kill(-(pid_t)live_pgids[i], sig);
}

int proctree_slot_free(void)
{
	for (int i = 0; i < MAX_LIVE; i++)
		if (!live[i].pid)
			return i;
	return -1;
}

void proctree_slot_add(struct pmbench_child *c, int slot, uint64_t t0_tick)
{
	live[slot].pid = c->pid;
	live[slot].t0_tick = t0_tick;
	live[slot].seen_nr = 0;
	live_pgids[slot] = c->pid;
	/* For the reaper, should pmbench be killed: a store, no wake-up. */
	pmbench_reaper_note_group(slot, c->pid);
	c->slot = slot;
}

void proctree_slot_remove(struct pmbench_child *c)
{
	if (c->slot < 0)
		return;
	live_pgids[c->slot] = 0;
	pmbench_reaper_note_group(c->slot, 0);
	free(live[c->slot].seen);
	memset(&live[c->slot], 0, sizeof(live[c->slot]));
	c->slot = -1;
}

static int is_subreaper(void)
{
	int on = 0;

	return !prctl(PR_GET_CHILD_SUBREAPER, &on, 0, 0, 0) && on;
}

/* A pidfd for `pid`, or -1 (a kernel without pidfd_open, or it is gone). */
int proctree_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

void proctree_signal_pid(int pidfd, pid_t pid, int sig)
{
#ifdef SYS_pidfd_send_signal
	if (pidfd >= 0) {
		syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
		return;
	}
#else
	(void)pidfd;
#endif
	kill(pid, sig);
}

/* One process as read from /proc/<pid>/stat. */
struct procent {
	pid_t pid;
	pid_t ppid;
	pid_t pgid;
	char state;
	long threads;
	uint64_t start; /* clock ticks after boot */
	uint64_t cpu;	/* utime + stime, clock ticks */
	/*
	 * Where its environment starts (field 50, env_start): another
	 * address after each exec (the stack is placed anew), 0 for a
	 * zombie or where the kernel does not show it.
	 */
	uint64_t env_at;
};

/* Field `n` of a stat line (proc(5): 3 is the state) after its ')'. */
static uint64_t stat_field(const char *rp, int n)
{
	const char *p = rp + 1;

	for (int i = 3; i < n && p; i++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

static int read_stat(struct procent *out, pid_t pid)
{
	char path[64], buf[1024];
	const char *rp;
	ssize_t n;
	int fd, ppid, pgid;
	long threads;
	unsigned long long start, utime, stime;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/*
	 * The command name may hold spaces and parentheses: skip to the
	 * last ')'. Then state, ppid, pgrp, 8 fields, utime, stime, 4
	 * fields, num_threads, itrealvalue and starttime (proc(5)).
	 */
	rp = strrchr(buf, ')');
	if (!rp || sscanf(rp + 1,
			  " %c %d %d %*s %*s %*s %*s %*s %*s %*s %*s %llu %llu"
			  " %*s %*s %*s %*s %ld %*s %llu",
			  &out->state, &ppid, &pgid, &utime, &stime, &threads,
			  &start) != 7)
		return -1;
	out->cpu = (uint64_t)utime + (uint64_t)stime;
	out->pid = pid;
	out->ppid = (pid_t)ppid;
	out->pgid = (pid_t)pgid;
	out->threads = threads;
	out->start = (uint64_t)start;
	out->env_at = stat_field(rp, 50);
	return 0;
}

/*
 * Gone but for its exit status. A leader whose other threads still run
 * shows 'Z' too (num_threads above 1): that process lives, holding its
 * memory and sockets, and cannot be reaped until its last thread ends
 * (Node's threads, a moment after SIGTERM; one with SIGTERM blocked,
 * until SIGKILL). Counted as dead, it was never killed nor reaped.
 */
static int is_zombie(const struct procent *e)
{
	return (e->state == 'Z' || e->state == 'X') && e->threads <= 1;
}

/* CLOCK_BOOTTIME in the clock ticks of /proc's start times. */
uint64_t proctree_ticks(void)
{
	static long hz;
	struct timespec ts;
	uint64_t ns;

	if (!hz)
		hz = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return ns / (1000000000u / (uint64_t)hz);
}

struct pidvec {
	pid_t *v;
	size_t nr, alloc;
};

#define PIDVEC_INIT       \
	{                 \
		.v = NULL \
	}

/* Append the pids listed in a /proc/<pid>/task/<tid>/children file. */
static void read_children(struct pidvec *out, const char *path)
{
	char buf[4096];
	size_t have = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	for (;;) {
		char *p = buf, *end;

		n = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = '\0';
		/* Whole numbers only; a cut one waits for the next read. */
		for (;;) {
			long pid = strtol(p, &end, 10);

			if (end == p || !*end)
				break;
			PMBENCH_ALLOC_GROW(out->v, out->nr + 1, out->alloc);
			out->v[out->nr++] = (pid_t)pid;
			p = end;
		}
		have = strlen(p);
		memmove(buf, p, have);
	}
	if (have) {
		buf[have] = '\0';
		if (strtol(buf, NULL, 10) > 0) {
			PMBENCH_ALLOC_GROW(out->v, out->nr + 1, out->alloc);
			out->v[out->nr++] = (pid_t)strtol(buf, NULL, 10);
		}
	}
	close(fd);
}

/*
 * The children of `pid`, of every thread of it (a child belongs to the
 * thread that made it). `threads` 1 saves listing the task folder.
 */
static void list_children(struct pidvec *out, pid_t pid, long threads)
{
	char path[96];
	DIR *d;
	struct dirent *de;

	if (threads == 1) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/children",
			 (int)pid, (int)pid);
		read_children(out, path);
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.20s/children",
			 (int)pid, de->d_name);
		read_children(out, path);
	}
	closedir(d);
}

size_t pmbench_proc_descendants(pid_t **out)
{
	struct pidvec all = PIDVEC_INIT;
	size_t j = 0;

	/* Breadth first from the program itself. */
	list_children(&all, getpid(), 0);
	for (size_t i = 0; i < all.nr; i++)
		list_children(&all, all.v[i], 0);
	/*
	 * Drop zombies: they hold no memory and only need reaping. The
	 * reaper's supervisor is not the program's work: it ends with it.
	 */
	for (size_t i = 0; i < all.nr; i++) {
		struct procent e;

		if (all.v[i] == pmbench_reaper_pid())
			continue;
		if (!read_stat(&e, all.v[i]) && !is_zombie(&e))
			all.v[j++] = all.v[i];
	}
	*out = all.v;
	return j;
}

static int seen_has(const struct live_slot *s, pid_t pid, uint64_t start)
{
	for (size_t i = 0; i < s->seen_nr; i++)
		if (s->seen[i].pid == pid && s->seen[i].start == start)
			return 1;
	return 0;
}

/* Remember a process of c's tree, with its start time. */
static void seen_note(const struct pmbench_child *c, const struct procent *e)
{
	struct live_slot *s;

	if (!proctree_held(c))
		return;
	s = &live[c->slot];
	if (e->pid == s->pid || s->seen_nr >= SEEN_MAX ||
	    seen_has(s, e->pid, e->start))
		return;
	PMBENCH_ALLOC_GROW(s->seen, s->seen_nr + 1, s->seen_alloc);
	s->seen[s->seen_nr].pid = e->pid;
	s->seen[s->seen_nr].start = e->start;
	s->seen_nr++;
}

/*
 * The slot of the live handle an orphan re-parented to the program
 * belongs to, or -1: the rule of proc.h. Evidence first (a handle's main
 * process, its process group, which the unreaped main process keeps
 * reserved, a process it saw), then the start time, which must point at
 * exactly one handle.
 */
static int orphan_owner(const struct procent *e)
{
	int found = -1, candidates = 0;

	/* The reaper's supervisor is the program's, never a handle's. */
	if (e->pid == pmbench_reaper_pid())
		return -1;
	for (int i = 0; i < MAX_LIVE; i++) {
		const struct live_slot *s = &live[i];

		if (s->pid && (s->pid == e->pid || e->pgid == s->pid ||
			       seen_has(s, e->pid, e->start)))
			return i;
	}
	if (e->pgid == getpgrp())
		return -1;
	for (int i = 0; i < MAX_LIVE; i++) {
		if (live[i].pid && e->start >= live[i].t0_tick) {
			found = i;
			candidates++;
		}
	}
	return candidates == 1 ? found : -1;
}

/* A process of a handle's tree, as found. */
struct tree_proc {
	struct procent e;
	/* -1: signalled by pid (the main process, an orphan of ours not
	 * reaped yet, or no pidfd to be had) */
	int pidfd;
};

static int tree_has(const struct tree *t, pid_t pid)
{
	for (size_t i = 0; i < t->nr; i++)
		if (t->v[i].e.pid == pid)
			return 1;
	return 0;
}

static void tree_add(struct tree *t, const struct procent *e, int pidfd)
{
	PMBENCH_ALLOC_GROW(t->v, t->nr + 1, t->alloc);
	t->v[t->nr].e = *e;
	t->v[t->nr].pidfd = pidfd;
	t->nr++;
}

void proctree_reset(struct tree *t)
{
	for (size_t i = 0; i < t->nr; i++)
		close_fd(&t->v[i].pidfd);
	t->nr = 0;
}

void proctree_release(struct tree *t)
{
	proctree_reset(t);
	free(t->v);
	t->v = NULL;
	t->alloc = 0;
}

int proctree_live(const struct tree *t)
{
	int n = 0;

	for (size_t i = 0; i < t->nr; i++)
		if (!is_zombie(&t->v[i].e))
			n++;
	return n;
}

/*
 * Read `pid` for the tree `t`, opening its pidfd first when asked: if the
 * pid is reused between the two, the pidfd names the old process, which
 * is gone, and a signal through it reaches no one. Past PIDFD_MAX
 * processes (a huge tree must not use up the descriptors the walk itself
 * needs) the rest are signalled by pid, just after being read.
 */
static int tree_read(struct procent *out, int *out_pidfd, const struct tree *t,
		     pid_t pid, unsigned flags)
{
	*out_pidfd = (flags & WALK_PIDFDS) && t->nr < PIDFD_MAX
			     ? proctree_pidfd(pid)
			     : -1;
	if (read_stat(out, pid) < 0) {
		close_fd(out_pidfd);
		return -1;
	}
	return 0;
}

/* The processes the handle saw before that still run as themselves. */
static void walk_seen(struct tree *t, const struct pmbench_child *c,
		      unsigned flags)
{
	struct live_slot *s = &live[c->slot];

	for (size_t i = 0; i < s->seen_nr;) {
		struct procent e;
		int fd;

		if (tree_has(t, s->seen[i].pid)) {
			i++;
			continue;
		}
		if (tree_read(&e, &fd, t, s->seen[i].pid, flags) < 0 ||
		    e.start != s->seen[i].start) {
			/* Gone, or the pid is another process's now. */
			close_fd(&fd);
			s->seen[i] = s->seen[--s->seen_nr];
			continue;
		}
		tree_add(t, &e, fd);
		i++;
	}
}

/* The program's children (orphans re-parented to it) that are c's. */
static void walk_orphans(struct tree *t, struct pmbench_child *c)
{
	struct pidvec kids = PIDVEC_INIT;
	pid_t self = getpid();

	list_children(&kids, self, 0);
	for (size_t i = 0; i < kids.nr; i++) {
		struct procent e;

		if (tree_has(t, kids.v[i]) || read_stat(&e, kids.v[i]) < 0 ||
		    e.ppid != self || orphan_owner(&e) != c->slot)
			continue;
		/* Our child, not reaped: its pid cannot be reused. */
		tree_add(t, &e, -1);
		seen_note(c, &e);
	}
	free(kids.v);
}

/* Members of c's process group anywhere (no subreaper to find them). */
static void walk_group(struct tree *t, struct pmbench_child *c, unsigned flags)
{
	DIR *d = opendir("/proc");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct procent e;
		char *end;
		long pid;
		int fd;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = strtol(de->d_name, &end, 10);
		if (*end || tree_has(t, (pid_t)pid) ||
		    tree_read(&e, &fd, t, (pid_t)pid, flags) < 0)
			continue;
		if (e.pgid != c->pid) {
			close_fd(&fd);
			continue;
		}
		tree_add(t, &e, fd);
		seen_note(c, &e);
	}
	closedir(d);
}

/* Everything below the processes found so far. */
static void walk_descendants(struct tree *t, struct pmbench_child *c,
			     unsigned flags)
{
	struct pidvec kids = PIDVEC_INIT;

	for (size_t i = 0; i < t->nr; i++) {
		pid_t parent = t->v[i].e.pid;

		kids.nr = 0;
		list_children(&kids, parent, t->v[i].e.threads);
		for (size_t k = 0; k < kids.nr; k++) {
			struct procent e;
			int fd;

			if (tree_has(t, kids.v[k]) ||
			    tree_read(&e, &fd, t, kids.v[k], flags) < 0)
				continue;
			/* Still the child we listed, not a reused pid. */
			if (e.ppid != parent) {
				close_fd(&fd);
				continue;
			}
			tree_add(t, &e, fd);
			seen_note(c, &e);
		}
	}
	free(kids.v);
}

/*
 * Walk the handle's tree into `t`: the main process while it is not
 * reaped, the processes seen before, the orphans that are its own (with
 * a subreaper) or the members of its group (without one, when asked),
 * and all their descendants. Every process found is remembered.
 */
void proctree_walk(struct tree *t, struct pmbench_child *c, unsigned flags)
{
	struct procent e;

	if (!proctree_held(c))
		return;
	if (!read_stat(&e, c->pid))
		tree_add(t, &e, -1);
	walk_seen(t, c, flags);
	if (is_subreaper())
		walk_orphans(t, c);
	else if (flags & WALK_GROUP)
		walk_group(t, c, flags);
	walk_descendants(t, c, flags);
}

/* Reap the zombies of the tree that are children of the program. */
void proctree_reap_orphans(const struct tree *t, const struct pmbench_child *c)
{
	pid_t self = getpid();

	for (size_t i = 0; i < t->nr; i++) {
		const struct procent *e = &t->v[i].e;
		int status;

		if (e->pid != c->pid && e->ppid == self && is_zombie(e))
			waitpid(e->pid, &status, WNOHANG);
	}
}

void proctree_signal(const struct tree *t, const struct pmbench_child *c,
		     int sig)
{
	/*
	 * The group first (children forked right now are in it), then
	 * every process of the tree, for those that left the group (setsid,
	 * pnpm's own process group for scripts).
	 */
	if (proctree_held(c))
		kill(-c->pid, sig);
	for (size_t i = 0; i < t->nr; i++)
		if (!is_zombie(&t->v[i].e))
			proctree_signal_pid(t->v[i].pidfd, t->v[i].e.pid, sig);
}

static uint64_t statm_kib(pid_t pid)
{
	static long page_kib;
	char path[64], buf[256];
	unsigned long size, resident;
	ssize_t len;
	int fd;

	if (!page_kib)
		page_kib = sysconf(_SC_PAGESIZE) / 1024;
	snprintf(path, sizeof(path), "/proc/%d/statm", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return 0;
	buf[len] = '\0';
	if (sscanf(buf, "%lu %lu", &size, &resident) != 2)
		return 0;
	return (uint64_t)resident * (uint64_t)page_kib;
}

/*
 * What a zombie child of the program wrote, itself and every child it
 * reaped, as the kernel gives it to the parent: waitid's rusage (WNOWAIT:
 * it stays unreaped), whose block output is /proc/PID/io's write_bytes
 * in 512-byte blocks, process by process. A zombie's io file is root's
 * (mode 0400, no memory left to own it): for a normal user this is the
 * only count of the bytes it wrote since the walk before. 0, or -1
 * (not the program's child, not a zombie).
 */
static int zombie_written(pid_t pid, uint64_t *out)
{
	siginfo_t info;
	struct rusage ru;
	long r;

	memset(&info, 0, sizeof(info));
	memset(&ru, 0, sizeof(ru));
	do {
		r = syscall(SYS_waitid, P_PID, (id_t)pid, &info,
			    WEXITED | WNOHANG | WNOWAIT, &ru);
	} while (r < 0 && errno == EINTR);
	if (r < 0 || info.si_pid != pid || ru.ru_oublock < 0)
		return -1;
	*out = (uint64_t)ru.ru_oublock * 512u;
	return 0;
}

/* Hand the walk `t` to the handle's trace (proctrace.h). */
static void trace_walk(struct pmbench_child *c, const struct tree *t,
		       uint64_t cpu0)
{
	struct pmbench_proctrace_ent *v =
		pmbench_xcalloc(t->nr ? t->nr : 1, sizeof(*v));
	pid_t self = getpid();

	for (size_t i = 0; i < t->nr; i++) {
		const struct procent *e = &t->v[i].e;

		v[i] = (struct pmbench_proctrace_ent){
			.pid = e->pid,
			.ppid = e->ppid,
			.start = e->start,
			.cpu = e->cpu,
			.env_at = e->env_at,
			.zombie = is_zombie(e),
		};
		/* The main process, and the orphans re-parented to us. */
		if (v[i].zombie && e->ppid == self && !c->trace->lean)
			v[i].waited = !zombie_written(e->pid, &v[i].written);
	}
	pmbench_proctrace_walk(c, v, t->nr, pmbench_now_ns(), cpu0);
	free(v);
}

/*
 * Walk the tree (so that what it starts is remembered) and, when asked,
 * sample the sum of its RSS, and trace it.
 */
void proctree_sample(struct pmbench_child *c, unsigned flags)
{
	struct tree t = TREE_INIT;
	uint64_t kib = 0, cpu0 = c->trace ? pmbench_proctrace_cpu() : 0;

	proctree_walk(&t, c, flags);
	if (c->trace)
		trace_walk(c, &t, cpu0);
	if (c->flags & PMBENCH_CHILD_SAMPLE_TREE) {
		for (size_t i = 0; i < t.nr; i++)
			if (!is_zombie(&t.v[i].e))
				kib += statm_kib(t.v[i].e.pid);
		if (kib > c->result.tree_rss_kib)
			c->result.tree_rss_kib = kib;
		c->result.tree_samples++;
	}
	proctree_release(&t);
}
