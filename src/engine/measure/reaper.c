/*
 * The reaper (see reaper.h): a supervisor that outlives a killed program
 * and stops what the program started.
 *
 * Two halves. The program's side makes the cgroup, the shared memory and
 * the pipe, forks the supervisor and, at a normal exit, tells it so and
 * reaps it. The supervisor, after the fork, calls only async-signal-safe
 * functions (system calls on static buffers): the program is forked
 * before it starts any thread, but a library may still hold a lock of
 * malloc's or stdio's in a process that was never meant to run on.
 *
 * Why a supervisor beside the program and not above it: the program's
 * caller knows the program's pid and kills that one; a parent process
 * would be what the caller's SIGKILL reaches. Why a pipe: its end of file
 * is the one notice of a SIGKILLed parent that cannot be missed or come
 * early (PR_SET_PDEATHSIG fires when the parent *thread* ends), and a
 * blocking read costs nothing while the program runs. Why shared memory
 * for the process groups: a write to the pipe per child would wake the
 * supervisor during a timed run; a store into shared memory wakes no one.
 */
#define _GNU_SOURCE 1
#include "pmbench/common.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/reaper.h"
#include "proctree.h"

#define MARKER_KEY "PMBENCH_RUN"
#define GROUPS_MAX 64
/* Rounds of killing until nothing is found, 10 ms apart: 2 s at most. */
#define SWEEP_ROUNDS 200
#define PAUSE_NS     (10 * 1000 * 1000)
/* A cgroup folder may be removed only once the kernel saw it empty. */
#define RMDIR_TRIES 300
#define PROCS_BYTES (64 * 1024)

/* The process groups of the live children; read after the program ends. */
struct shared {
	volatile sig_atomic_t pgids[GROUPS_MAX];
};

/* The cgroup the program made for itself and its children. */
struct cgroup {
	int dir;       /* the new cgroup's folder, or -1 */
	int parent;    /* the program's own cgroup, where it was made */
	int home;      /* the program's own cgroup.procs: the way back */
	int in;	       /* the program moved itself into it */
	char name[48]; /* "pmbench-<id>" */
};

static struct {
	pid_t pid;     /* the supervisor, 0: none */
	pid_t program; /* the process that started it */
	int fd;	       /* the write end of its pipe */
	struct shared *shared;
	struct cgroup cg;
	char id[24];
	char marker[48];
	char describe[512];
} r = {
	.fd = -1,
	.cg = { .dir = -1, .parent = -1, .home = -1 },
};

/* ---- The supervisor: async-signal-safe from here to the fork. ---- */

static void nap(void)
{
	struct timespec ts = { 0, PAUSE_NS };

	nanosleep(&ts, NULL);
}

/* Read a whole (small) file at `dir`/`name` into `buf`; its length. */
static size_t read_at(int dir, const char *name, char *buf, size_t n)
{
	size_t len = 0;
	ssize_t got;
	int fd = openat(dir, name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	while (len < n - 1) {
		got = read(fd, buf + len, n - 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	buf[len] = '\0';
	close(fd);
	return len;
}

static int write_at(int dir, const char *name, const char *s)
{
	int fd = openat(dir, name, O_WRONLY | O_CLOEXEC), ret = -1;

	if (fd < 0)
		return -1;
	if (write(fd, s, strlen(s)) == (ssize_t)strlen(s))
		ret = 0;
	close(fd);
	return ret;
}

/* A decimal pid at `p` (a name of /proc, a line of cgroup.procs), or 0. */
static pid_t parse_pid(const char **p)
{
	long v = 0;

	if (**p < '0' || **p > '9')
		return 0;
	while (**p >= '0' && **p <= '9' && v < 1L << 30)
		v = v * 10 + (*(*p)++ - '0');
	return (pid_t)v;
}

/*
 * Whether the environment read from `fd` holds the entry `want` (of
 * length `n`), entry by entry as it streams in.
 */
static int environ_has(int fd, const char *want, size_t n)
{
	static char buf[16384];
	size_t pos = 0;
	int same = 1;
	ssize_t got;

	for (;;) {
		got = read(fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		for (ssize_t i = 0; i < got; i++) {
			if (!buf[i]) {
				if (same && pos == n)
					return 1;
				pos = 0;
				same = 1;
				continue;
			}
			if (same && pos < n && buf[i] == want[pos])
				pos++;
			else
				same = 0;
		}
	}
	return same && pos == n;
}

/* Kill /proc/<name> (its pid) if it carries the marker; 1 if it did. */
static int kill_if_marked(pid_t pid, const char *name, size_t len)
{
	char path[64] = "/proc/";
	int pidfd, fd, hit = 0;

	if (len > 20)
		return 0;
	/* The pidfd first: then the pid cannot be another process's. */
	pidfd = proctree_pidfd(pid);
	memcpy(path + 6, name, len);
	memcpy(path + 6 + len, "/environ", sizeof("/environ"));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && environ_has(fd, r.marker, strlen(r.marker))) {
		proctree_signal_pid(pidfd, pid, SIGKILL);
		hit = 1;
	}
	close_fd(&fd);
	close_fd(&pidfd);
	return hit;
}

/* Kill every process carrying the marker but `spare`; how many. */
static int kill_marked(pid_t spare)
{
	static char dents[16384];
	int proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC), n = 0;
	unsigned short reclen;
	long got;

	if (proc < 0)
		return 0;
	while ((got = syscall(SYS_getdents64, proc, dents, sizeof(dents))) >
	       0) {
		/* struct linux_dirent64: ino, off, reclen, type, name. */
		for (long off = 0; off < got; off += reclen) {
			const char *name = dents + off + 19, *end = name;
			pid_t pid;

			memcpy(&reclen, dents + off + 16, sizeof(reclen));
			pid = parse_pid(&end);
			if (!pid || *end || pid == getpid() || pid == spare)
				continue;
			n += kill_if_marked(pid, name, (size_t)(end - name));
		}
	}
	close(proc);
	return n;
}

/*
 * The groups of the children that were running. A group with a live
 * member keeps its id reserved; an empty one could only have been reused
 * in the milliseconds since the program died if the pids had wrapped
 * around pid_max meanwhile.
 */
static void kill_groups(void)
{
	for (int i = 0; i < GROUPS_MAX; i++)
		if (r.shared->pgids[i] > 0)
			kill(-(pid_t)r.shared->pgids[i], SIGKILL);
}

/* Kill each process cgroup.procs lists but `spare`; how many it lists. */
static int kill_listed(pid_t spare)
{
	static char buf[PROCS_BYTES];
	const char *p = buf;
	int n = 0;

	read_at(r.cg.dir, "cgroup.procs", buf, sizeof(buf));
	while (*p) {
		pid_t pid = parse_pid(&p);

		if (pid && pid != spare && pid != getpid()) {
			kill(pid, SIGKILL);
			n++;
		}
		while (*p && (*p < '0' || *p > '9'))
			p++;
	}
	return n;
}

/*
 * Kill the cgroup: all at once with cgroup.kill (Linux 5.14) unless the
 * program is still in it (`spare`). 1 while anything is left in it.
 */
static int kill_cgroup(pid_t spare)
{
	static char events[512];
	const char *p;

	if (r.cg.dir < 0)
		return 0;
	if (spare || write_at(r.cg.dir, "cgroup.kill", "1") < 0)
		return kill_listed(spare) > 0;
	read_at(r.cg.dir, "cgroup.events", events, sizeof(events));
	p = strstr(events, "populated ");
	return p && p[10] == '1';
}

static void remove_cgroup(void)
{
	if (r.cg.dir < 0)
		return;
	for (int i = 0; i < RMDIR_TRIES; i++) {
		if (!unlinkat(r.cg.parent, r.cg.name, AT_REMOVEDIR) ||
		    errno != EBUSY)
			return;
		nap();
	}
}

/*
 * Kill until a whole round finds nothing (what is killed may be forking
 * right then), within SWEEP_ROUNDS. `spare`: the program, still alive.
 */
static void sweep(pid_t spare)
{
	for (int round = 0; round < SWEEP_ROUNDS; round++) {
		int found = kill_cgroup(spare);

		kill_groups();
		found += kill_marked(r.program);
		if (!found)
			break;
		nap();
	}
	if (!spare)
		remove_cgroup();
}

/* Close every descriptor from 3 up but those in `keep` (sorted). */
static void close_others(const int *keep, int n)
{
	unsigned lo = 3;

	for (int i = 0; i <= n; i++) {
		unsigned hi = i < n ? (unsigned)keep[i] : ~0u;
		long ret = -1;

		if (i < n && (keep[i] < 3 || (unsigned)keep[i] < lo))
			continue;
#ifdef SYS_close_range
		if (lo < hi)
			ret = syscall(SYS_close_range, lo, hi - 1, 0);
#endif
		if (ret < 0 && lo < hi) {
			struct rlimit rl;
			unsigned max = 65536;

			if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < max)
				max = (unsigned)rl.rlim_cur;
			for (unsigned fd = lo; fd < hi && fd < max; fd++)
				close((int)fd);
		}
		lo = hi + 1;
	}
}

static void sort_fds(int *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			int t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

/*
 * The supervisor, just forked with every signal blocked: its own session
 * (a terminal's Ctrl-C, Ctrl-\ and hangup reach the program's group and
 * session, not this one; it ignores them anyway), nothing of the
 * program's held (its standard streams go to /dev/null, so a caller
 * reading the program's output sees the end when the program ends; its
 * folder is /, so it pins no mount), then a blocking read.
 */
PMBENCH_NORETURN static void supervise(int rfd, int devnull)
{
	static const int ignored[] = { SIGINT,	SIGQUIT, SIGHUP, SIGTSTP,
				       SIGTTIN, SIGTTOU, SIGPIPE };
	int keep[3] = { rfd, r.cg.dir, r.cg.parent };
	struct sigaction sa;
	sigset_t none;
	pid_t spare = 0;
	char msg = 0;
	ssize_t n;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	for (int sig = 1; sig < NSIG; sig++) {
		sa.sa_handler = SIG_DFL;
		for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(ignored); i++)
			if (sig == ignored[i])
				sa.sa_handler = SIG_IGN;
		sigaction(sig, &sa, NULL);
	}
	setsid();
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_NAME, "pmb-reaper", 0, 0, 0);
	if (chdir("/") < 0 || dup2(devnull, 0) < 0 || dup2(devnull, 1) < 0 ||
	    dup2(devnull, 2) < 0)
		_exit(1);
	sort_fds(keep, 3);
	close_others(keep, 3);
	do {
		n = read(rfd, &msg, 1);
	} while (n < 0 && errno == EINTR);
	/* 'i': a normal end, the program still in the cgroup. */
	if (n == 1 && msg == 'i')
		spare = r.program;
	sweep(spare);
	_exit(0);
}

/* ---- The program's side. ---- */

static void make_id(void)
{
	unsigned char raw[8];
	uint64_t v = 0;

	if (getrandom(raw, sizeof(raw), GRND_NONBLOCK) != (ssize_t)sizeof(raw))
		v = ((uint64_t)getpid() << 32) ^ pmbench_now_ns();
	else
		memcpy(&v, raw, sizeof(v));
	snprintf(r.id, sizeof(r.id), "%016llx", (unsigned long long)v);
	snprintf(r.marker, sizeof(r.marker), "%s=%s", MARKER_KEY, r.id);
}

/*
 * The first cgroup v2 mount: its mount point and the hierarchy path it
 * shows (its root). 0 when found.
 */
static int cgroup2_mount(struct pmbench_buf *mnt, struct pmbench_buf *root)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	int ret = -1;

	while (f && ret && fgets(line, sizeof(line), f)) {
		char froot[1024], point[1024], type[64];
		const char *dash = strstr(line, " - ");

		if (!dash || sscanf(dash, " - %63s", type) != 1 ||
		    strcmp(type, "cgroup2") ||
		    sscanf(line, "%*s %*s %*s %1023s %1023s", froot, point) !=
			    2 ||
		    strchr(point, '\\'))
			continue;
		pmbench_buf_adds(mnt, point);
		pmbench_buf_adds(root, froot);
		ret = 0;
	}
	if (f)
		fclose(f);
	return ret;
}

/* The program's cgroup v2 folder into `out`; NULL, or why not. */
static const char *own_cgroup(struct pmbench_buf *out)
{
	struct pmbench_buf mnt = PMBENCH_BUF_INIT, root = PMBENCH_BUF_INIT;
	char line[4096], path[4096] = "";
	const char *why = NULL, *rel;
	size_t rlen;
	FILE *f;

	if (cgroup2_mount(&mnt, &root) < 0) {
		why = "no cgroup v2 hierarchy is mounted";
		goto done;
	}
	f = fopen("/proc/self/cgroup", "re");
	while (f && !path[0] && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::/", 4))
			snprintf(path, sizeof(path), "%.*s",
				 (int)strcspn(line + 3, "\n"), line + 3);
	if (f)
		fclose(f);
	rlen = strcmp(root.ptr, "/") ? root.len : 0;
	if (!path[0] || strncmp(path, root.ptr, rlen) ||
	    (path[rlen] && path[rlen] != '/')) {
		why = "pmbench's cgroup is not in the mounted hierarchy";
		goto done;
	}
	rel = path + rlen;
	pmbench_buf_addf(out, "%s%s", mnt.ptr, strcmp(rel, "/") ? rel : "");
done:
	pmbench_buf_release(&mnt);
	pmbench_buf_release(&root);
	return why;
}

static void cgroup_close(struct cgroup *cg)
{
	close_fd(&cg->dir);
	close_fd(&cg->parent);
	close_fd(&cg->home);
	cg->in = 0;
}

/*
 * Make the cgroup the program will move into, in its own cgroup, when
 * the machine allows it and it changes nothing about how resources are
 * shared; else say why not into `why`.
 */
static void cgroup_make(struct cgroup *cg, struct pmbench_buf *why)
{
	struct pmbench_buf dir = PMBENCH_BUF_INIT;
	const char *no = getenv("PMBENCH_TEST_NO_CGROUP"), *err;
	char ctl[512] = "";

	if (no && !strcmp(no, "1")) {
		pmbench_buf_adds(why, "turned off by PMBENCH_TEST_NO_CGROUP");
		goto done;
	}
	err = own_cgroup(&dir);
	if (err) {
		pmbench_buf_adds(why, err);
		goto done;
	}
	cg->parent = open(dir.ptr, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->parent < 0 ||
	    faccessat(cg->parent, "cgroup.subtree_control", R_OK, 0) < 0) {
		pmbench_buf_addf(why, "cannot read %s: %s", dir.ptr,
				 strerror(errno));
		goto done;
	}
	read_at(cg->parent, "cgroup.subtree_control", ctl, sizeof(ctl));
	if (ctl[strspn(ctl, " \n")]) {
		/* A child would get those controllers: weights, limits. */
		pmbench_buf_addf(why, "%s has controllers enabled below it",
				 dir.ptr);
		goto done;
	}
	snprintf(cg->name, sizeof(cg->name), "pmbench-%s", r.id);
	if (mkdirat(cg->parent, cg->name, 0755) < 0) {
		pmbench_buf_addf(why, "cannot make a cgroup in %s: %s", dir.ptr,
				 strerror(errno));
		goto done;
	}
	cg->dir = openat(cg->parent, cg->name,
			 O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cg->home = openat(cg->parent, "cgroup.procs", O_WRONLY | O_CLOEXEC);
	if (cg->dir < 0 || cg->home < 0) {
		pmbench_buf_addf(why, "cannot use a cgroup in %s: %s", dir.ptr,
				 strerror(errno));
		unlinkat(cg->parent, cg->name, AT_REMOVEDIR);
	}
done:
	if (why->len)
		cgroup_close(cg);
	pmbench_buf_release(&dir);
}

/* Move the program into its cgroup (after the fork: not the supervisor). */
static void cgroup_enter(struct cgroup *cg, struct pmbench_buf *why)
{
	if (cg->dir < 0)
		return;
	if (write_at(cg->dir, "cgroup.procs", "0") < 0) {
		pmbench_buf_addf(why, "cannot move into a cgroup: %s",
				 strerror(errno));
		unlinkat(cg->parent, cg->name, AT_REMOVEDIR);
		cgroup_close(cg);
		return;
	}
	cg->in = 1;
}

static void describe(const char *why)
{
	if (r.cg.in)
		snprintf(r.describe, sizeof(r.describe),
			 "if pmbench is killed, a supervisor process "
			 "(pmb-reaper) kills its cgroup (cgroup v2, "
			 "cgroup.kill), its children's process groups and "
			 "every process carrying %s",
			 MARKER_KEY);
	else
		snprintf(r.describe, sizeof(r.describe),
			 "if pmbench is killed, a supervisor process "
			 "(pmb-reaper) kills its children's process groups "
			 "and every process carrying %s (no cgroup: %s)",
			 MARKER_KEY, why ? why : "unknown");
}

/* Fork the supervisor with every signal blocked; its pid, or -1. */
static pid_t fork_supervisor(int rfd, int devnull)
{
	sigset_t all, old;
	pid_t pid;
	int e;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (!pid)
		supervise(rfd, devnull);
	e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return pid;
}

int pmbench_reaper_start(void)
{
	static int at_exit;
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	int p[2] = { -1, -1 }, devnull = -1, ret = 0;

	if (r.pid)
		return 0;
	make_id();
	if (!r.shared) {
		r.shared = mmap(NULL, sizeof(*r.shared), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (r.shared == MAP_FAILED) {
			r.shared = NULL;
			ret = pmbench_error_set("cannot share memory with the "
						"reaper: %s",
						strerror(errno));
			goto done;
		}
	}
	memset((void *)r.shared, 0, sizeof(*r.shared));
	cgroup_make(&r.cg, &why);
	devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (devnull < 0 || pipe2(p, O_CLOEXEC) < 0) {
		ret = pmbench_error_set("cannot set up the reaper: %s",
					strerror(errno));
		goto done;
	}
	r.program = getpid();
	r.pid = fork_supervisor(p[0], devnull);
	if (r.pid < 0) {
		r.pid = 0;
		ret = pmbench_error_set("cannot start the reaper: %s",
					strerror(errno));
		goto done;
	}
	r.fd = p[1];
	p[1] = -1;
	cgroup_enter(&r.cg, &why);
	describe(r.cg.in ? NULL : why.ptr);
	if (!at_exit && atexit(pmbench_reaper_stop)) {
		pmbench_reaper_stop();
		ret = pmbench_error_set("cannot register the reaper's exit "
					"handler");
		goto done;
	}
	at_exit = 1;
done:
	if (ret < 0 && r.cg.dir >= 0) {
		unlinkat(r.cg.parent, r.cg.name, AT_REMOVEDIR);
		cgroup_close(&r.cg);
	}
	close_fd(&p[0]);
	close_fd(&p[1]);
	close_fd(&devnull);
	pmbench_buf_release(&why);
	return ret;
}

const char *pmbench_reaper_marker(void)
{
	return r.pid ? r.marker : NULL;
}

pid_t pmbench_reaper_pid(void)
{
	return r.pid;
}

void pmbench_reaper_note_group(int slot, pid_t pgid)
{
	if (r.shared && slot >= 0 && slot < GROUPS_MAX)
		r.shared->pgids[slot] = pgid;
}

const char *pmbench_reaper_describe(void)
{
	if (!r.pid)
		return "no supervisor: if the program is killed, processes "
		       "that left their process group keep running";
	return r.describe;
}

int pmbench_reaper_leave(void)
{
	if (!r.pid || getpid() == r.program)
		return 0;
	/* Async-signal-safe: a write to the descriptor kept for the way back. */
	if (r.cg.in && write(r.cg.home, "0", 1) != 1)
		return -1;
	return 0;
}

void pmbench_reaper_stop(void)
{
	int inside = 0, status;
	ssize_t n;

	if (!r.pid || getpid() != r.program)
		return;
	/* Out of the cgroup first, so that cgroup.kill spares the program. */
	if (r.cg.in && write(r.cg.home, "0", 1) != 1)
		inside = 1;
	/* A supervisor that is gone already needs telling nothing. */
	n = write(r.fd, inside ? "i" : "q", 1);
	(void)n;
	close_fd(&r.fd);
	while (waitpid(r.pid, &status, 0) < 0 && errno == EINTR)
		;
	r.pid = 0;
	cgroup_close(&r.cg);
}
