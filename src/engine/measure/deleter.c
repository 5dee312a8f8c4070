/*
 * The deleter (deleter.h): the trash deleted in a process of its own
 * after pmbench has returned the prompt.
 *
 * After the fork, the children call only async-signal-safe functions
 * until the deleter has closed what it inherited; the deletion itself
 * runs the file system module's code (malloc, opendir), which glibc keeps
 * usable in a child forked from a single thread, and pmbench starts the
 * deleter from its main thread with no thread of its own left running
 * (the registry front and the relay are joined before the command ends).
 */
#define _GNU_SOURCE 1
#include "pmbench/common.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/deleter.h"
#include "pmbench/fs.h"
#include "pmbench/reaper.h"
#include "pmbench/workdir.h"

#define QUEUE "deleting"
#define LOCK  ".lock"

/* linux/ioprio.h, which not every libc's headers carry. */
#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_CLASS_BE	   2
#define IOPRIO_CLASS_IDLE  3

void pmbench_deleter_queue(struct pmbench_buf *out, const char *cache_dir)
{
	pmbench_buf_reset(out);
	pmbench_buf_path(out, cache_dir, QUEUE);
}

static int set_ioprio(pid_t pid, int class, int level)
{
#ifdef SYS_ioprio_set
	return (int)syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, (int)pid,
			    (class << IOPRIO_CLASS_SHIFT) | level);
#else
	(void)pid;
	(void)class;
	(void)level;
	errno = ENOSYS;
	return -1;
#endif
}

int pmbench_deleter_hurry(pid_t pid)
{
	/* Its delay ends now (SIGUSR1), and it deletes at the normal I/O
	 * priority. */
	int ret = kill(pid, SIGUSR1);

	if (set_ioprio(pid, IOPRIO_CLASS_BE, 4) < 0)
		ret = -1;
	return ret;
}

unsigned pmbench_deleter_delay(void)
{
	const char *v = getenv(PMBENCH_DELETER_DELAY_ENV);
	unsigned long n = PMBENCH_DELETER_DELAY_S;
	char *end;

	if (v && *v) {
		errno = 0;
		n = strtoul(v, &end, 10);
		if (errno || *end || n > 86400)
			n = PMBENCH_DELETER_DELAY_S;
	}
	return (unsigned)n;
}

/* The pid a lock file names ("pid N ..."), or 0. */
static pid_t named_pid(int fd)
{
	char text[64];
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
	long v = 0;

	if (n <= 4 || strncmp(text, "pid ", 4))
		return 0;
	text[n] = '\0';
	for (const char *p = text + 4; *p >= '0' && *p <= '9' && v < 1L << 30;
	     p++)
		v = v * 10 + (*p - '0');
	return (pid_t)v;
}

/* Whether the lock file `fd` says its deleter still waits to delete. */
static int says_waiting(int fd)
{
	char text[64];
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
	const char *p;

	if (n <= 0)
		return 0;
	text[n] = '\0';
	p = strchr(text, ',');
	return p && !strncmp(p, ", waiting", 9);
}

pid_t pmbench_deleter_running(const char *cache_dir)
{
	return pmbench_deleter_state(cache_dir, NULL);
}

pid_t pmbench_deleter_state(const char *cache_dir, int *out_waiting)
{
	struct pmbench_buf lock = PMBENCH_BUF_INIT;
	pid_t pid = 0;
	int fd;

	if (out_waiting)
		*out_waiting = 0;

	pmbench_deleter_queue(&lock, cache_dir);
	pmbench_buf_adds(&lock, "/" LOCK);
	fd = open(lock.ptr, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	pmbench_buf_release(&lock);
	if (fd < 0)
		return 0;
	if (flock(fd, LOCK_SH | LOCK_NB) < 0) {
		/* Held: by a deleter that has named itself, or is about to. */
		if (errno == EWOULDBLOCK) {
			pid = named_pid(fd);
			if (!pid)
				pid = -1;
			else if (out_waiting)
				*out_waiting = says_waiting(fd);
		}
	}
	close(fd);
	return pid;
}

int pmbench_deleter_put_off(const char *cache_dir, pid_t pid)
{
	/* It stops between two files: a moment, even mid-deletion. */
	for (int i = 0; i < 500; i++) {
		if (pmbench_deleter_running(cache_dir) != pid)
			return 0;
		if (i % 50 == 0 && kill(pid, SIGTERM) < 0 && errno == ESRCH)
			return 0;
		pmbench_sleep_ns(20 * 1000000ull);
	}
	return pmbench_error_set("pmbench's deleter (pid %ld) did not stop "
				 "when asked (SIGTERM) within 10 s",
				 (long)pid);
}

/* ---- The deleter: a grandchild of pmbench, in a session of its own. ---- */

/*
 * Its standard streams on /dev/null and nothing else of pmbench's open
 * but `*lock` (moved to 3, the lowest free); -1 if that cannot be.
 */
static int shed(int *lock)
{
	int null = open("/dev/null", O_RDWR);
	unsigned from = 3;

	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
	    dup2(null, 2) < 0)
		return -1;
	if (*lock >= 0 && *lock != 3) {
		if (dup2(*lock, 3) < 0)
			return -1;
		close(*lock);
		*lock = 3;
	}
	from += *lock >= 0;
#ifdef SYS_close_range
	if (syscall(SYS_close_range, from, ~0u, 0u) == 0)
		return 0;
#endif
	for (int fd = (int)from; fd < 65536; fd++)
		close(fd);
	return 0;
}

static void defaults(void)
{
	struct sigaction sa;
	sigset_t none;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_DFL;
	for (int sig = 1; sig < NSIG; sig++)
		sigaction(sig, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Set by its signals: put the deletion off; end the delay. */
static volatile sig_atomic_t stop, go_now;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static void on_go(int sig)
{
	(void)sig;
	go_now = 1;
}

/* SIGTERM stops it between two files, SIGUSR1 ends its delay. */
static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_go;
	sigaction(SIGUSR1, &sa, NULL);
	pmbench_fs_rmtree_stop_on(&stop);
}

/* The test knob: wait for the file it names. */
static void hold(const char *path)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	while (path && *path && access(path, F_OK) < 0)
		nanosleep(&ts, NULL);
}

/* The queue's lock file, open; -1 if it cannot be. */
static int open_lock(const char *queue)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	int fd;

	pmbench_buf_path(&path, queue, LOCK);
	fd = open(path.ptr, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	pmbench_buf_release(&path);
	return fd;
}

/*
 * The lock `fd` held: write this process's pid into it, and whether it
 * waits (`until` > 0, the time it starts) or deletes.
 */
static int name_self(int fd, long long until)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	int ret = 0;

	if (until)
		pmbench_buf_addf(&text,
				 "pid %ld, waiting until %lld to delete what "
				 "pmbench set aside\n",
				 (long)getpid(), until);
	else
		pmbench_buf_addf(&text,
				 "pid %ld, deleting what pmbench set aside, "
				 "since %lld\n",
				 (long)getpid(), (long long)time(NULL));
	if (ftruncate(fd, 0) < 0 ||
	    pwrite(fd, text.ptr, text.len, 0) != (ssize_t)text.len)
		ret = -1;
	pmbench_buf_release(&text);
	return ret;
}

/*
 * Try the lock, then tell pmbench this process's pid through `report`:
 * so when pmbench returns, pmbench_deleter_running() already names this
 * deleter (or the one before it, still deleting). Returns the lock's fd
 * (-1 if it cannot be opened); `*locked` says whether it is held.
 */
static int lock_and_report(const char *queue, int report, int *locked,
			   long long until)
{
	int fd = open_lock(queue);
	pid_t self = getpid();

	*locked = fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0 &&
		  name_self(fd, until) == 0;
	if (write(report, &self, sizeof(self)) != (ssize_t)sizeof(self))
		_exit(1);
	close(report);
	return fd;
}

/* Wait for a deleter before this one to finish; 0 once the lock is held. */
static int take_lock(int fd, long long until)
{
	int ret;

	do
		ret = flock(fd, LOCK_EX);
	while (ret < 0 && errno == EINTR && !stop);
	return ret < 0 ? -1 : name_self(fd, until);
}

/* The arguments' memory, set by main(): where `ps` reads the command. */
static char *title_area;
static size_t title_len;

void pmbench_deleter_title_area(char **argv, int argc)
{
	if (argc < 1 || !argv[0])
		return;
	title_area = argv[0];
	title_len =
		(size_t)(argv[argc - 1] + strlen(argv[argc - 1]) + 1 - argv[0]);
}

/* Say what this process does in `ps` (async-signal-safe: no malloc). */
static void retitle(const char *queue)
{
	static const char what[] = "pmbench-deleter: deleting what pmbench "
				   "set aside in ";
	size_t n = 0;

	prctl(PR_SET_NAME, "pmb-deleter", 0, 0, 0);
	if (!title_area || title_len < 2)
		return;
	memset(title_area, 0, title_len);
	for (size_t i = 0; what[i] && n < title_len - 1; i++)
		title_area[n++] = what[i];
	for (size_t i = 0; queue[i] && n < title_len - 1; i++)
		title_area[n++] = queue[i];
}

/*
 * The delay before it deletes: a command started meanwhile puts the
 * deletion off (SIGTERM, pmbench_deleter_put_off()), `pmbench wait` ends
 * the delay (SIGUSR1, pmbench_deleter_hurry()).
 */
static void linger(unsigned s)
{
	struct timespec ts = { 1, 0 };

	for (unsigned i = 0; i < s && !stop && !go_now; i++)
		nanosleep(&ts, NULL);
}

PMBENCH_NORETURN static void delete_all(const char *queue, const char *trash,
					int report, unsigned delay)
{
	long long until = delay ? (long long)time(NULL) + delay : 0;
	uint64_t files = 0;
	int fd, locked, ret = -1;

	defaults();
	catch_signals();
	fd = lock_and_report(queue, report, &locked, until);
	if (shed(&fd) < 0)
		_exit(1);
	retitle(queue);
	if (setpriority(PRIO_PROCESS, 0, 19) < 0) {
		/* As fast as the rest, then: it still deletes. */
	}
	set_ioprio(0, IOPRIO_CLASS_IDLE, 0);
	if (fd >= 0 && (locked || take_lock(fd, until) == 0)) {
		linger(delay);
		/* Put off: its batches wait in the queue for the next one. */
		ret = 0;
		if (!stop && delay)
			ret = name_self(fd, 0);
		if (!stop && !ret) {
			hold(getenv(PMBENCH_DELETER_HOLD_ENV));
			ret = pmbench_fs_trash_drain(queue, trash, &files);
		}
		/* Nobody's now: the lock is free as it closes. */
		if (ftruncate(fd, 0) < 0)
			ret = -1;
	}
	if (fd >= 0)
		close(fd);
	_exit(ret < 0 ? 1 : 0);
}

/*
 * The first child: out of pmbench's cgroup and session, fork the deleter
 * (which sends its pid through `report` once it has tried the lock) and
 * exit.
 */
PMBENCH_NORETURN static void detach(int report, const char *queue,
				    const char *trash, unsigned delay)
{
	pid_t pid;

	if (pmbench_reaper_leave() < 0 || setsid() < 0)
		_exit(1);
	pid = fork();
	if (!pid)
		delete_all(queue, trash, report, delay);
	_exit(pid < 0);
}

/* Fork the first child and read the deleter's pid; -1 on failure. */
static pid_t spawn(const char *queue, const char *trash, unsigned delay)
{
	sigset_t all, old;
	int p[2], status, was = 0;
	pid_t first, pid = -1;
	ssize_t n;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	/* Else the deleter would be re-parented to pmbench, not to init. */
	if (prctl(PR_GET_CHILD_SUBREAPER, &was, 0, 0, 0) < 0)
		was = 0;
	if (was)
		prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	first = fork();
	if (!first) {
		close(p[0]);
		detach(p[1], queue, trash, delay);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(p[1]);
	if (first > 0) {
		while (waitpid(first, &status, 0) < 0 && errno == EINTR)
			;
		/* The deleter's pid, once it has tried the lock. */
		while ((n = read(p[0], &pid, sizeof(pid))) < 0 &&
		       errno == EINTR)
			;
		if (n != (ssize_t)sizeof(pid) || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			pid = -1;
	}
	if (was)
		prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	close(p[0]);
	return pid;
}

int pmbench_deleter_hand_over(const char *cache_dir, int *out_pending)
{
	struct pmbench_buf queue = PMBENCH_BUF_INIT, trash = PMBENCH_BUF_INIT;
	int ret;

	pmbench_deleter_queue(&queue, cache_dir);
	pmbench_workdir_trash(&trash, cache_dir);
	ret = pmbench_fs_trash_handoff(trash.ptr, queue.ptr);
	*out_pending = ret < 0 ? 0 : pmbench_fs_trash_pending(queue.ptr);
	pmbench_buf_release(&queue);
	pmbench_buf_release(&trash);
	return ret;
}

int pmbench_deleter_start(pid_t *out_pid, const char *cache_dir)
{
	struct pmbench_buf queue = PMBENCH_BUF_INIT, trash = PMBENCH_BUF_INIT;
	int pending, ret;

	*out_pid = 0;
	ret = pmbench_deleter_hand_over(cache_dir, &pending);
	if (ret < 0)
		return ret;
	/* A running deleter deletes the queue until it is empty. */
	if (!ret && (!pending || pmbench_deleter_running(cache_dir)))
		return 0;
	pmbench_deleter_queue(&queue, cache_dir);
	pmbench_workdir_trash(&trash, cache_dir);
	*out_pid = spawn(queue.ptr, trash.ptr, pmbench_deleter_delay());
	if (*out_pid < 0) {
		*out_pid = 0;
		ret = pmbench_error_set("cannot start a process to delete "
					"'%s': %s",
					queue.ptr, strerror(errno));
		goto done;
	}
	ret = 1;
done:
	pmbench_buf_release(&queue);
	pmbench_buf_release(&trash);
	return ret;
}
