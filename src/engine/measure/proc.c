/*
 * Child processes, one handle each (see proc.h for what a handle owns).
 *
 * Spawning. The child must set PR_SET_PDEATHSIG, so that it dies when the
 * program is killed with SIGKILL; posix_spawn cannot do that, and nothing
 * on the parent's side can stand in for it (a parent killed with SIGKILL
 * runs nothing; a helper process that sets it and then execs the program
 * costs one exec more in every timed run). A fork() of a program this
 * size (some 50 shared libraries, about 300 mappings) costs a millisecond
 * of page-table copying and copy-on-write faults inside the timed window,
 * where posix_spawn costs none. So the child is made the way glibc's
 * posix_spawn makes its own: clone(CLONE_VM | CLONE_VFORK) on a stack of
 * its own, with every signal blocked around it. The child shares the
 * parent's memory until its execve (the parent is suspended until then),
 * makes system calls only (setpgid, prctl, sigaction, sigprocmask, dup2,
 * chdir, execve) and, when it cannot exec, leaves the errno in the shared
 * memory for the parent, which then reaps it.
 *
 * Waiting. CLONE_PIDFD gives a pidfd of the main process, which poll()
 * watches next to the output pipe and the context's wake pipe: no SIGCHLD
 * handler, no self-pipe, and no wait for any other child. waitid(WNOWAIT)
 * reads its status and rusage without reaping it, so that its pid (the
 * process group id) stays reserved until the tree has been stopped.
 */
#define _GNU_SOURCE 1
#include "pmbench/common.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfcount.h"
#include "pmbench/ctx.h"
#include "pmbench/proc.h"
#include "pmbench/reaper.h"
#include "pmbench/text.h"
#include "proctrace.h"

extern char **environ;

#define DEFAULT_GRACE_NS  (3ull * 1000000000ull)
#define DEFAULT_SAMPLE_NS (25ull * 1000000ull)
#define DEFAULT_TAIL_MAX  (16u * 1024u)
#define LINE_MAX_BYTES	  4096
#define MAX_LIVE	  64
#define SEEN_MAX	  4096
#define PIDFD_MAX	  256
#define LAZY_PIPE_BYTES	  (1024 * 1024)
#define CHILD_STACK	  (256u * 1024u)
#define KILL_STEP_NS	  (5ull * 1000000ull)

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif

#if defined(__GNUC__)
#define NO_ASAN __attribute__((no_sanitize_address))
#else
#define NO_ASAN
#endif

/* ThreadSanitizer (gcc says so with a macro, clang with a feature). */
#if defined(__SANITIZE_THREAD__)
#define PMBENCH_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PMBENCH_TSAN 1
#endif
#endif

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

static int live_free_slot(void)
{
	for (int i = 0; i < MAX_LIVE; i++)
		if (!live[i].pid)
			return i;
	return -1;
}

static void live_add(struct pmbench_child *c, int slot, uint64_t t0_tick)
{
	live[slot].pid = c->pid;
	live[slot].t0_tick = t0_tick;
	live[slot].seen_nr = 0;
	live_pgids[slot] = c->pid;
	/* For the reaper, should pmbench be killed: a store, no wake-up. */
	pmbench_reaper_note_group(slot, c->pid);
	c->slot = slot;
}

static void live_remove(struct pmbench_child *c)
{
	if (c->slot < 0)
		return;
	live_pgids[c->slot] = 0;
	pmbench_reaper_note_group(c->slot, 0);
	free(live[c->slot].seen);
	memset(&live[c->slot], 0, sizeof(live[c->slot]));
	c->slot = -1;
}

/* The main process is not reaped yet: its pid and group are reserved. */
static int held(const struct pmbench_child *c)
{
	return c->slot >= 0;
}

static void kill_live_at_exit(void)
{
	pmbench_proc_signal_live(SIGKILL);
}

int pmbench_proc_init(void)
{
	static int done;
	struct sigaction sa;

	if (done)
		return 0;
	/* Ignored, the kernel would reap the children itself. */
	if (!sigaction(SIGCHLD, NULL, &sa) &&
	    (sa.sa_handler == SIG_IGN || (sa.sa_flags & SA_NOCLDWAIT))) {
		memset(&sa, 0, sizeof(sa));
		sigemptyset(&sa.sa_mask);
		sa.sa_handler = SIG_DFL;
		if (sigaction(SIGCHLD, &sa, NULL) < 0)
			return pmbench_error_set("cannot reset SIGCHLD: %s",
						 strerror(errno));
	}
	if (atexit(kill_live_at_exit))
		return pmbench_error_set("cannot register an exit handler");
	done = 1;
	return 0;
}

int pmbench_proc_subreaper(void)
{
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
		return pmbench_error_set("cannot become a child subreaper: %s",
					 strerror(errno));
	return 0;
}

static int is_subreaper(void)
{
	int on = 0;

	return !prctl(PR_GET_CHILD_SUBREAPER, &on, 0, 0, 0) && on;
}

const char *pmbench_proc_signal_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	case SIGQUIT:
		return "SIGQUIT";
	}
	return "a signal";
}

void pmbench_env_apply(struct pmbench_strvec *out, char *const *base,
		       const struct pmbench_strvec *delta)
{
	for (; base && *base; base++) {
		const char *eq = strchr(*base, '=');
		size_t klen = eq ? (size_t)(eq - *base) : strlen(*base);
		int overridden = 0;

		for (size_t i = 0; i < delta->nr; i++) {
			const char *d = delta->v[i];
			size_t dlen = strcspn(d, "=");

			if (dlen == klen && !strncmp(d, *base, klen)) {
				overridden = 1;
				break;
			}
		}
		if (!overridden)
			pmbench_strvec_push(out, *base);
	}
	for (size_t i = 0; i < delta->nr; i++) {
		const char *d = delta->v[i];
		size_t dlen = strcspn(d, "=");
		int later = 0;

		if (!d[dlen])
			continue; /* an unset */
		/* The last delta for a key wins. */
		for (size_t j = i + 1; j < delta->nr; j++) {
			if (strcspn(delta->v[j], "=") == dlen &&
			    !strncmp(delta->v[j], d, dlen))
				later = 1;
		}
		if (!later)
			pmbench_strvec_push(out, d);
	}
}

const char *pmbench_env_get(const struct pmbench_strvec *env, const char *key)
{
	size_t klen = strlen(key);

	for (size_t i = env->nr; i-- > 0;) {
		const char *e = env->v[i];

		if (!strncmp(e, key, klen) && e[klen] == '=')
			return e + klen + 1;
	}
	return NULL;
}

int pmbench_proc_which(struct pmbench_buf *out, const char *name,
		       const char *path)
{
	struct pmbench_buf cand = PMBENCH_BUF_INIT;
	const char *p;
	int ret = PMBENCH_ENOTFOUND;

	if (strchr(name, '/')) {
		if (access(name, X_OK) < 0)
			goto done;
		pmbench_buf_reset(out);
		pmbench_buf_adds(out, name);
		ret = 0;
		goto done;
	}
	p = path ? path : "/usr/bin:/bin";
	while (*p) {
		size_t n = strcspn(p, ":");
		struct stat st;

		pmbench_buf_reset(&cand);
		if (n)
			pmbench_buf_add(&cand, p, n);
		else
			pmbench_buf_addch(&cand, '.');
		pmbench_buf_addch(&cand, '/');
		pmbench_buf_adds(&cand, name);
		if (!stat(cand.ptr, &st) && S_ISREG(st.st_mode) &&
		    !access(cand.ptr, X_OK)) {
			pmbench_buf_reset(out);
			pmbench_buf_add(out, cand.ptr, cand.len);
			ret = 0;
			goto done;
		}
		p += n;
		if (*p == ':')
			p++;
	}
done:
	pmbench_buf_release(&cand);
	return ret;
}

/* A pidfd for `pid`, or -1 (a kernel without pidfd_open, or it is gone). */
static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

static void signal_pidfd(int pidfd, pid_t pid, int sig)
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

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
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

static int is_zombie(const struct procent *e)
{
	return e->state == 'Z' || e->state == 'X';
}

/* CLOCK_BOOTTIME in the clock ticks of /proc's start times. */
static uint64_t boot_ticks(void)
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

	if (!held(c))
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

static void tree_reset(struct tree *t)
{
	for (size_t i = 0; i < t->nr; i++)
		close_fd(&t->v[i].pidfd);
	t->nr = 0;
}

static void tree_release(struct tree *t)
{
	tree_reset(t);
	free(t->v);
	t->v = NULL;
	t->alloc = 0;
}

static int tree_live(const struct tree *t)
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
			     ? open_pidfd(pid)
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
static void walk_tree(struct tree *t, struct pmbench_child *c, unsigned flags)
{
	struct procent e;

	if (!held(c))
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
static void reap_orphans(const struct tree *t, const struct pmbench_child *c)
{
	pid_t self = getpid();

	for (size_t i = 0; i < t->nr; i++) {
		const struct procent *e = &t->v[i].e;
		int status;

		if (e->pid != c->pid && e->ppid == self && is_zombie(e))
			waitpid(e->pid, &status, WNOHANG);
	}
}

static void signal_tree(const struct tree *t, const struct pmbench_child *c,
			int sig)
{
	/*
	 * The group first (children forked right now are in it), then
	 * every process of the tree, for those that left the group (setsid,
	 * pnpm's own process group for scripts).
	 */
	if (held(c))
		kill(-c->pid, sig);
	for (size_t i = 0; i < t->nr; i++)
		if (!is_zombie(&t->v[i].e))
			signal_pidfd(t->v[i].pidfd, t->v[i].e.pid, sig);
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
static void sample_tree(struct pmbench_child *c)
{
	struct tree t = TREE_INIT;
	uint64_t kib = 0, cpu0 = c->trace ? pmbench_proctrace_cpu() : 0;

	walk_tree(&t, c, 0);
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
	tree_release(&t);
}

/* What the child needs between clone and execve, all made beforehand. */
struct spawn {
	const char *exe;
	char *const *argv;
	char *const *envp;
	const char *dir;
	int in_fd;  /* becomes stdin */
	int out_fd; /* becomes stdout and stderr; -1: keep them */
	pid_t parent;
	struct sigaction dfl;
	sigset_t unblocked;
	volatile int err; /* the child's errno when it cannot exec */
	int err_fd;	  /* under TSan (fork): where the errno goes */
	struct pmbench_perf_spawn *perf; /* work counters to open, or NULL */
};

/*
 * The child, between clone and execve. It shares the parent's memory
 * (the parent is suspended until the exec), so it makes system calls
 * only, writes nothing but `sp->err`, and is not instrumented by the
 * address sanitizer (whose bookkeeping would run on this stack).
 */
NO_ASAN static int child_exec(void *arg)
{
	struct spawn *sp = arg;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	/* The parent died before the prctl: no one would stop us. */
	if (getppid() != sp->parent)
		_exit(127);
	/*
	 * Every signal is blocked (the parent blocked them around the
	 * clone): reset every disposition before the mask, so that none of
	 * the parent's handlers runs here, and none of its SIG_IGN (SIGPIPE)
	 * reaches the program.
	 */
	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, &sp->dfl, NULL);
	sigprocmask(SIG_SETMASK, &sp->unblocked, NULL);
	if (dup2(sp->in_fd, 0) < 0)
		goto fail;
	if (sp->out_fd >= 0 &&
	    (dup2(sp->out_fd, 1) < 0 || dup2(sp->out_fd, 2) < 0))
		goto fail;
	if (sp->dir && chdir(sp->dir) < 0)
		goto fail;
	/* Last: they count from the exec, and nothing of ours. */
	if (sp->perf)
		pmbench_perf_child(sp->perf);
	execve(sp->exe, sp->argv, sp->envp);
fail:
	sp->err = errno;
	if (sp->err_fd >= 0 &&
	    write(sp->err_fd, (const void *)&sp->err, sizeof(int)) < 0) {
		/* The parent then sees an exec that failed silently. */
	}
	_exit(127);
}

/* pmbench's own peak resident memory so far, KiB (0 if unknown). */
static uint64_t self_peak_rss_kib(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0 || ru.ru_maxrss < 0)
		return 0;
	return (uint64_t)ru.ru_maxrss;
}

#ifdef PMBENCH_TSAN
/*
 * Under ThreadSanitizer the child is made with fork(). TSan's clone()
 * interceptor treats every clone as a fork: the child runs TSan's
 * after-fork bookkeeping, which with CLONE_VM writes into pmbench's own
 * memory on the parent thread's state (the child shares its thread
 * pointer). Measured with gcc 12: the parent then dies at its next
 * pthread_create ("starting new threads after multi-threaded fork"), or
 * with die_after_fork=0 goes on with its own synchronisation ignored and
 * its signal handlers reset (the child's sigaction()s go through TSan's
 * table); clang 14's runtime fails a CHECK in ForkAfter. TSan turns
 * vfork() into fork() for the same reason. fork() it models; an exec
 * failure comes back over a close-on-exec pipe instead of shared memory.
 */
static int spawn_child(pid_t *out_pid, int *out_pidfd, struct spawn *sp)
{
	sigset_t all, old;
	int p[2], e, err = 0;
	ssize_t n;

	*out_pidfd = -1;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	*out_pid = fork();
	if (*out_pid == 0) {
		close(p[0]);
		sp->err_fd = p[1];
		child_exec(sp);
	}
	e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(p[1]);
	do {
		n = read(p[0], &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	close(p[0]);
	if (*out_pid > 0 && n == (ssize_t)sizeof(err))
		sp->err = err;
	errno = e;
	return *out_pid < 0 ? -1 : 0;
}
#else
/*
 * Clone and exec the child; `*out_pidfd` gets its pidfd (-1 on kernels
 * before 5.2). Returns 0 (see `sp->err` for an exec failure) or -1 with
 * errno set when no process could be made.
 */
static int spawn_child(pid_t *out_pid, int *out_pidfd, struct spawn *sp)
{
	const int flags = CLONE_VM | CLONE_VFORK | SIGCHLD;
	sigset_t all, old;
	char *stack;
	int e;

	*out_pidfd = -1;
	stack = mmap(NULL, CHILD_STACK, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		return -1;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	*out_pid = clone(child_exec, stack + CHILD_STACK, flags | CLONE_PIDFD,
			 sp, out_pidfd);
	if (*out_pid < 0 && errno == EINVAL) {
		*out_pidfd = -1;
		*out_pid = clone(child_exec, stack + CHILD_STACK, flags, sp);
	}
	e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	munmap(stack, CHILD_STACK);
	errno = e;
	return *out_pid < 0 ? -1 : 0;
}
#endif

/* fds 0-2 belong to the child's dup2s: keep ours above them. */
static int fd_above_stdio(int fd)
{
	int moved;

	if (fd < 0 || fd > 2)
		return fd;
	moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return moved;
}

/*
 * What the child starts with, outside the timed window: the environment,
 * the program's path, /dev/null and the output pipe (its read end into
 * c->out_fd). `envp` and `exe` own what `sp` points to.
 */
static int prepare_spawn(struct spawn *sp, struct pmbench_child *c,
			 struct pmbench_strvec *envp, struct pmbench_buf *exe,
			 int *devnull, int *out_w)
{
	struct pmbench_strvec delta = PMBENCH_STRVEC_INIT;
	const char *marker = pmbench_reaper_marker();
	int outp[2] = { -1, -1 };

	/* The reaper's marker last: the caller's deltas cannot drop it. */
	for (size_t i = 0; i < c->env.nr; i++)
		pmbench_strvec_push(&delta, c->env.v[i]);
	if (marker)
		pmbench_strvec_push(&delta, marker);
	pmbench_env_apply(envp, environ, &delta);
	pmbench_strvec_release(&delta);
	if (pmbench_proc_which(exe, c->args.v[0],
			       pmbench_env_get(envp, "PATH")) < 0) {
		c->result.spawn_errno = ENOENT;
		return pmbench_error_setc(PMBENCH_ENOTFOUND,
					  "cannot run '%s': not found on PATH",
					  c->args.v[0]);
	}
	*devnull = fd_above_stdio(open("/dev/null", O_RDONLY | O_CLOEXEC));
	if (*devnull >= 0 && !(c->flags & PMBENCH_CHILD_PASSTHROUGH) &&
	    !pipe2(outp, O_CLOEXEC)) {
		c->out_fd = fd_above_stdio(outp[0]);
		*out_w = fd_above_stdio(outp[1]);
		if (c->out_fd >= 0)
			fcntl(c->out_fd, F_SETFL,
			      fcntl(c->out_fd, F_GETFL) | O_NONBLOCK);
		/*
		 * Without a line callback nobody needs the output at once:
		 * a pipe of 1 MiB holds what a PM writes between two walks
		 * (40 MB/s), so it is read then, and at the exit, and the
		 * output wakes no one during the timed run.
		 */
		c->out_lazy = c->out_fd >= 0 && !c->on_line &&
			      fcntl(c->out_fd, F_SETPIPE_SZ, LAZY_PIPE_BYTES) >=
				      LAZY_PIPE_BYTES;
	}
	if (*devnull < 0 || (!(c->flags & PMBENCH_CHILD_PASSTHROUGH) &&
			     (c->out_fd < 0 || *out_w < 0)))
		return pmbench_error_set("cannot set up '%s': %s", c->args.v[0],
					 strerror(errno));
	memset(sp, 0, sizeof(*sp));
	sp->exe = exe->ptr;
	sp->argv = c->args.v;
	sp->envp = envp->v;
	sp->dir = c->dir;
	sp->in_fd = *devnull;
	sp->out_fd = *out_w;
	sp->parent = getpid();
	sp->err_fd = -1;
	sp->dfl.sa_handler = SIG_DFL;
	sigemptyset(&sp->dfl.sa_mask);
	sigemptyset(&sp->unblocked);
	return 0;
}

/* The child could not exec: reap it and say why. */
static int spawn_failed(struct pmbench_child *c, pid_t pid, int err)
{
	int status;

	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	c->result.spawn_errno = err;
	return pmbench_error_set("cannot run '%s'%s%s: %s", c->args.v[0],
				 c->dir ? " in " : "", c->dir ? c->dir : "",
				 strerror(err));
}

static void child_reset(struct pmbench_child *c)
{
	if (c->work_armed)
		pmbench_perf_close(c->work_fd);
	c->work_armed = 0;
	memset(&c->result, 0, sizeof(c->result));
	c->pid = -1;
	c->out_fd = -1;
	c->out_lazy = 0;
	c->pidfd = -1;
	c->slot = -1;
	if (!c->grace_ns)
		c->grace_ns = DEFAULT_GRACE_NS;
	if (!c->sample_ns)
		c->sample_ns = DEFAULT_SAMPLE_NS;
	if (!c->tail_max)
		c->tail_max = DEFAULT_TAIL_MAX;
}

int pmbench_child_start(struct pmbench_child *c)
{
	struct pmbench_strvec envp = PMBENCH_STRVEC_INIT;
	struct pmbench_buf exe = PMBENCH_BUF_INIT;
	struct pmbench_perf_spawn perf;
	struct spawn sp;
	int devnull = -1, out_w = -1, pidfd = -1, perf_sock = -1, slot, ret;
	uint64_t t0_tick;
	pid_t pid = -1;

	child_reset(c);
	if (c->trace)
		pmbench_proctrace_begin(c->trace);
	if (!c->args.nr) {
		ret = pmbench_error_set("no program to run");
		goto done;
	}
	slot = live_free_slot();
	if (slot < 0) {
		ret = pmbench_error_set("cannot run '%s': %d children already "
					"run at once",
					c->args.v[0], MAX_LIVE);
		goto done;
	}
	ret = prepare_spawn(&sp, c, &envp, &exe, &devnull, &out_w);
	if (ret < 0)
		goto done;
	if (c->flags & PMBENCH_CHILD_COUNT_WORK) {
		pmbench_perf_prepare(&perf, &perf_sock);
		sp.perf = &perf;
	}

	c->result.max_rss_floor_kib = self_peak_rss_kib();
	c->t0 = pmbench_now_ns();
	t0_tick = boot_ticks();
	c->t0_tick = t0_tick;
	ret = spawn_child(&pid, &pidfd, &sp);
	if (sp.perf) {
		int e = errno;

		pmbench_perf_adopt(c->work_fd, &perf, perf_sock);
		c->work_armed = 1;
		errno = e;
	}
	if (ret < 0) {
		ret = pmbench_error_set("cannot start '%s': %s", c->args.v[0],
					strerror(errno));
		goto done;
	}
	if (sp.err) {
		close_fd(&pidfd);
		ret = spawn_failed(c, pid, sp.err);
		goto done;
	}
	c->pid = pid;
	/* Before Linux 5.2 clone gives none; 5.3 has pidfd_open. */
	c->pidfd = pidfd >= 0 ? pidfd : open_pidfd(pid);
	live_add(c, slot, t0_tick);
	/*
	 * The first walk one interval in: never at the start, where the
	 * tree is only our own copy on its way to exec, and not early in
	 * a short run either. A walk costs 80-170 us of this process's
	 * time, and on a busy machine every wake-up of ours during the run
	 * may preempt the PM and cost it a time slice.
	 */
	c->next_sample = c->t0 + c->sample_ns;
	ret = 0;
done:
	if (ret < 0)
		close_fd(&c->out_fd);
	close_fd(&out_w);
	close_fd(&devnull);
	pmbench_strvec_release(&envp);
	pmbench_buf_release(&exe);
	return ret;
}

/*
 * Note the main process's exit, without reaping it: status, wall time and
 * rusage (waitid's, which the wrapper in libc leaves out, with WNOWAIT:
 * the same getrusage(RUSAGE_BOTH) of the zombie that wait4 gives). 1 once
 * it has exited.
 */
static int note_exit(struct pmbench_child *c)
{
	siginfo_t info;
	struct rusage ru;
	long r;

	if (c->result.exited || !held(c))
		return 1;
	memset(&info, 0, sizeof(info));
	memset(&ru, 0, sizeof(ru));
	do {
		r = syscall(SYS_waitid, P_PID, (id_t)c->pid, &info,
			    WEXITED | WNOHANG | WNOWAIT, &ru);
	} while (r < 0 && errno == EINTR);
	if (r < 0 && errno == ECHILD) {
		/* Reaped behind our back: its status is lost. */
		live_remove(c);
		c->result.wall_ns = pmbench_now_ns() - c->t0;
		c->result.exited = 1;
		c->result.exit_code = -1;
		return 1;
	}
	if (r < 0 || info.si_pid != c->pid)
		return 0;
	c->result.wall_ns = pmbench_now_ns() - c->t0;
	c->result.exited = 1;
	c->result.user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000u +
			    (uint64_t)ru.ru_utime.tv_usec * 1000u;
	c->result.sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
			   (uint64_t)ru.ru_stime.tv_usec * 1000u;
	c->result.max_rss_kib = (uint64_t)ru.ru_maxrss;
	c->result.out_blocks = (uint64_t)ru.ru_oublock;
	if (info.si_code == CLD_EXITED) {
		c->result.exit_code = info.si_status;
	} else {
		c->result.exit_code = -1;
		c->result.signal = info.si_status;
	}
	return 1;
}

/* Reap the main process once it has exited; its group id is free then. */
static void reap_main(struct pmbench_child *c)
{
	int status;

	if (!held(c) || !note_exit(c) || !held(c))
		return;
	live_remove(c);
	while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
		;
	close_fd(&c->pidfd);
}

/* Feed output bytes to the tail and, line by line, to the callback. */
static void take_output(struct pmbench_child *c, const char *p, size_t n)
{
	c->result.output_bytes += n;
	pmbench_buf_add(&c->tail, p, n);
	if (c->tail.len > 2 * c->tail_max) {
		size_t drop = c->tail.len - c->tail_max;

		memmove(c->tail.ptr, c->tail.ptr + drop, c->tail_max);
		pmbench_buf_setlen(&c->tail, c->tail_max);
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)p[i];

		if (!pmbench_text_ansi_step(&c->in_escape, ch))
			continue;
		if (ch == '\n' || ch == '\r') {
			if (c->line.len && c->on_line)
				c->on_line(c->line.ptr, c->line.len,
					   c->payload);
			pmbench_buf_reset(&c->line);
			continue;
		}
		if (c->line.len < LINE_MAX_BYTES)
			pmbench_buf_addch(&c->line, ch);
	}
}

static void drain(struct pmbench_child *c)
{
	char buf[8192];

	while (c->out_fd >= 0) {
		ssize_t n = read(c->out_fd, buf, sizeof(buf));

		if (n > 0) {
			take_output(c, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0) {
			/* EOF: every writer is gone. */
			if (c->line.len && c->on_line)
				c->on_line(c->line.ptr, c->line.len,
					   c->payload);
			pmbench_buf_reset(&c->line);
			close(c->out_fd);
			c->out_fd = -1;
		}
		break;
	}
}

/* The poll timeout for the next wait, in milliseconds. */
static int wait_ms(const struct pmbench_child *c, uint64_t now, uint64_t until)
{
	uint64_t left = until > now ? until - now : 0;

	if (c->next_sample - now < left)
		left = c->next_sample > now ? c->next_sample - now : 0;
	/* Without a pidfd, nothing wakes us at the exit: look often. */
	if (c->pidfd < 0 && left > 1000000u)
		left = 1000000u;
	return (int)((left + 999999u) / 1000000u);
}

/* Wait for the exit, output or cancellation; then take the output. */
static int wait_events(struct pmbench_child *c, int ms)
{
	struct pollfd pfd[3];
	int nfds = 0, wake = pmbench_ctx_wake_fd(c->ctx);

	if (c->pidfd >= 0) {
		pfd[nfds].fd = c->pidfd;
		pfd[nfds++].events = POLLIN;
	}
	if (c->out_fd >= 0 && !c->out_lazy) {
		pfd[nfds].fd = c->out_fd;
		pfd[nfds++].events = POLLIN;
	}
	/* Cancellation wakes the poll; the pipe stays readable. */
	if (wake >= 0) {
		pfd[nfds].fd = wake;
		pfd[nfds++].events = POLLIN;
	}
	if (poll(pfd, (nfds_t)nfds, ms) < 0 && errno != EINTR)
		return pmbench_error_set("poll failed: %s", strerror(errno));
	drain(c);
	return 0;
}

int pmbench_child_pump(struct pmbench_child *c, uint64_t wait_ns)
{
	uint64_t now = pmbench_now_ns(), until = now + wait_ns;

	for (;;) {
		if (note_exit(c)) {
			drain(c);
			return 1;
		}
		if (pmbench_ctx_cancelled(c->ctx))
			return PMBENCH_EINTERRUPTED;
		now = pmbench_now_ns();
		if (now >= c->next_sample) {
			sample_tree(c);
			c->next_sample = now + c->sample_ns;
		}
		if (wait_ns && now >= until)
			return 0;
		if (wait_events(c, wait_ns ? wait_ms(c, now, until) : 0) < 0)
			return PMBENCH_ERROR;
		/* A zero wait still takes what is there, once. */
		if (!wait_ns) {
			if (!note_exit(c))
				return 0;
			drain(c);
			return 1;
		}
	}
}

/*
 * Re-walk the tree into `t` until nothing in it lives or `deadline`
 * passes, reaping what is the handle's to reap. Returns the live count.
 */
static int wait_gone(struct tree *t, struct pmbench_child *c, uint64_t deadline)
{
	for (;;) {
		int left;

		note_exit(c);
		reap_orphans(t, c);
		tree_reset(t);
		walk_tree(t, c, WALK_PIDFDS | WALK_GROUP);
		left = tree_live(t);
		if (!left || pmbench_now_ns() >= deadline)
			return left;
		pmbench_sleep_ns(KILL_STEP_NS);
	}
}

int pmbench_child_kill_tree(struct pmbench_child *c)
{
	struct tree t = TREE_INIT;
	int count, left;

	walk_tree(&t, c, WALK_PIDFDS | WALK_GROUP);
	count = tree_live(&t);
	left = count;
	if (count) {
		signal_tree(&t, c, SIGTERM);
		left = wait_gone(&t, c, pmbench_now_ns() + c->grace_ns);
	}
	/* Some ignored SIGTERM: keep killing until nothing is left. */
	for (int tries = 0; left && tries < 200; tries++) {
		signal_tree(&t, c, SIGKILL);
		left = wait_gone(&t, c, pmbench_now_ns() + KILL_STEP_NS);
	}
	reap_orphans(&t, c);
	if (!left)
		reap_main(c);
	tree_release(&t);
	drain(c);
	return count;
}

int pmbench_child_leftovers(struct pmbench_child *c)
{
	struct tree t = TREE_INIT;
	int n;

	walk_tree(&t, c, WALK_GROUP);
	n = tree_live(&t);
	tree_release(&t);
	return n;
}

/* Pump until the exit, the timeout or cancellation. */
static int run_until_exit(struct pmbench_child *c)
{
	uint64_t deadline = c->timeout_ns ? c->t0 + c->timeout_ns : UINT64_MAX;

	for (;;) {
		uint64_t now = pmbench_now_ns(), step = 200 * 1000000u;
		int ret;

		if (now >= deadline) {
			c->result.timed_out = 1;
			return 0;
		}
		if (deadline - now < step)
			step = deadline - now;
		ret = pmbench_child_pump(c, step);
		if (ret)
			return ret == 1 ? 0 : ret;
		/* What the run depends on gave out: stop it now. */
		if (c->watch && c->watch(c, c->watch_payload)) {
			c->result.stopped = 1;
			return 0;
		}
	}
}

int pmbench_child_run(struct pmbench_child *c)
{
	int ret = pmbench_child_start(c);

	if (ret < 0)
		return ret;
	ret = run_until_exit(c);
	if (ret == PMBENCH_EINTERRUPTED)
		c->result.interrupted = 1;
	/*
	 * The last walk of a trace, at the exit: the main process, still
	 * unreaped, holds the writes of the children it reaped since.
	 */
	if (c->trace && c->result.exited)
		sample_tree(c);
	/* Whatever the PM left behind is counted, then stopped. */
	if (!ret && !c->result.timed_out && !c->result.stopped)
		c->result.leftover = pmbench_child_leftovers(c);
	pmbench_child_kill_tree(c);
	/* The tree is gone: every inherited count is in. */
	if (c->work_armed)
		pmbench_perf_collect(&c->result, c->work_fd);
	if (ret < 0)
		return ret;
	/* The writers are gone now: take the rest of the output. */
	while (c->out_fd >= 0) {
		struct pollfd pfd = { c->out_fd, POLLIN, 0 };

		if (poll(&pfd, 1, 100) <= 0)
			break;
		drain(c);
	}
	close_fd(&c->out_fd);
	return pmbench_ctx_cancelled(c->ctx) ? PMBENCH_EINTERRUPTED : 0;
}

void pmbench_child_release(struct pmbench_child *c)
{
	if (held(c))
		pmbench_child_kill_tree(c);
	if (held(c)) {
		/* Something of it cannot be killed: let the main go anyway. */
		int status;

		live_remove(c);
		kill(c->pid, SIGKILL);
		waitpid(c->pid, &status, WNOHANG);
	}
	close_fd(&c->pidfd);
	close_fd(&c->out_fd);
	if (c->work_armed)
		pmbench_perf_close(c->work_fd);
	c->work_armed = 0;
	pmbench_strvec_release(&c->args);
	pmbench_strvec_release(&c->env);
	pmbench_buf_release(&c->tail);
	pmbench_buf_release(&c->line);
}

void pmbench_child_tail_lines(const struct pmbench_child *c, size_t n,
			      struct pmbench_buf *out)
{
	struct pmbench_buf clean = PMBENCH_BUF_INIT;
	const char *p = c->tail.ptr, *end = c->tail.ptr + c->tail.len;
	size_t start;
	int esc = 0;

	/* Drop escapes and carriage-return progress redraws. */
	for (; p < end; p++) {
		unsigned char ch = (unsigned char)*p;

		if (!pmbench_text_ansi_step(&esc, ch))
			continue;
		if (ch == '\r')
			ch = '\n';
		if (ch == '\n' && clean.len && clean.ptr[clean.len - 1] == '\n')
			continue;
		pmbench_buf_addch(&clean, ch);
	}
	pmbench_buf_rtrim(&clean);
	start = clean.len;
	while (start > 0 && n > 0) {
		start--;
		if (clean.ptr[start] == '\n' && --n == 0) {
			start++;
			break;
		}
	}
	pmbench_buf_reset(out);
	pmbench_buf_add(out, clean.ptr + start, clean.len - start);
	pmbench_buf_release(&clean);
}

void pmbench_child_describe(const struct pmbench_child *c,
			    struct pmbench_buf *out)
{
	const struct pmbench_child_result *r = &c->result;

	pmbench_buf_reset(out);
	if (r->spawn_errno)
		pmbench_buf_addf(out, "could not start: %s",
				 strerror(r->spawn_errno));
	else if (r->timed_out)
		pmbench_buf_addf(out, "timed out after %.0f s",
				 (double)c->timeout_ns / 1e9);
	else if (r->interrupted)
		pmbench_buf_adds(out, "interrupted");
	else if (r->stopped)
		pmbench_buf_adds(out, "stopped by pmbench");
	else if (r->signal)
		pmbench_buf_addf(out, "killed by signal %d (%s, exit %d)",
				 r->signal, strsignal(r->signal),
				 128 + r->signal);
	else
		pmbench_buf_addf(out, "exit %d", r->exit_code);
}
