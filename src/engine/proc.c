/*
 * fork/exec rather than posix_spawn: the child must set PR_SET_PDEATHSIG
 * so that it dies if pmbench itself is killed with SIGKILL, which
 * posix_spawn cannot do. Between fork and exec only async-signal-safe
 * calls are made, and exec errors come back over a close-on-exec pipe.
 */
#define _GNU_SOURCE 1
#include "pmbench/common.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmbench/ctx.h"
#include "pmbench/proc.h"

extern char **environ;

#define DEFAULT_GRACE_NS (3ull * 1000000000ull)
#define DEFAULT_SAMPLE_NS (25ull * 1000000ull)
#define DEFAULT_TAIL_MAX (16u * 1024u)
#define LINE_MAX_BYTES 4096
#define MAX_LIVE 16

/*
 * State shared with signal handlers: the process groups of the live
 * children (so that a host's handler can stop them at once, see
 * pmbench_proc_signal_live()) and the SIGCHLD self-pipe.
 */
static volatile sig_atomic_t live_pgids[MAX_LIVE];
static int chld_pipe[2] = { -1, -1 };

static void write_wakeup(void)
{
	int saved = errno;
	char b = 0;

	if (chld_pipe[1] >= 0 && write(chld_pipe[1], &b, 1) < 0) {
		/* A full pipe already means "wake up". */
	}
	errno = saved;
}

static void on_sigchld(int sig)
{
	(void)sig;
	write_wakeup();
}

void pmbench_proc_signal_live(int sig)
{
	for (int i = 0; i < MAX_LIVE; i++)
		if (live_pgids[i] > 0)
			kill(-(pid_t)live_pgids[i], sig);
}

static void live_add(pid_t pgid)
{
	for (int i = 0; i < MAX_LIVE; i++) {
		if (!live_pgids[i]) {
			live_pgids[i] = pgid;
			return;
		}
	}
}

static void live_remove(pid_t pgid)
{
	for (int i = 0; i < MAX_LIVE; i++)
		if (live_pgids[i] == pgid)
			live_pgids[i] = 0;
}

static void kill_live_at_exit(void)
{
	pmbench_proc_signal_live(SIGKILL);
}

static int set_cloexec_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFD);

	if (fl < 0 || fcntl(fd, F_SETFD, fl | FD_CLOEXEC) < 0)
		return -1;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -1;
	return 0;
}

int pmbench_proc_init(void)
{
	struct sigaction sa;

	if (chld_pipe[0] >= 0)
		return 0;
	if (pipe(chld_pipe) < 0 || set_cloexec_nonblock(chld_pipe[0]) ||
	    set_cloexec_nonblock(chld_pipe[1]))
		return pmbench_error_set("cannot make a pipe: %s",
					 strerror(errno));
	atexit(kill_live_at_exit);
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_sigchld;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	return 0;
}

int pmbench_proc_subreaper(void)
{
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
		return pmbench_error_set("cannot become a child subreaper: %s",
					 strerror(errno));
	return 0;
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

/* One process as read from /proc/<pid>/stat. */
struct procent {
	pid_t pid;
	pid_t ppid;
	char state;
};

static int read_stat(struct procent *out, pid_t pid)
{
	char path[64], buf[1024];
	const char *rp;
	ssize_t n;
	int fd;
	long ppid;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* The command name may hold spaces and parentheses: skip to the last ')'. */
	rp = strrchr(buf, ')');
	if (!rp || sscanf(rp + 1, " %c %ld", &out->state, &ppid) != 2)
		return -1;
	out->pid = pid;
	out->ppid = (pid_t)ppid;
	return 0;
}

static size_t list_procs(struct procent **out)
{
	struct procent *v = NULL;
	size_t nr = 0, alloc = 0;
	DIR *d = opendir("/proc");
	struct dirent *de;

	if (!d) {
		*out = NULL;
		return 0;
	}
	while ((de = readdir(d))) {
		struct procent pe;
		char *end;
		long pid;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = strtol(de->d_name, &end, 10);
		if (*end || read_stat(&pe, (pid_t)pid) < 0)
			continue;
		PMBENCH_ALLOC_GROW(v, nr + 1, alloc);
		v[nr++] = pe;
	}
	closedir(d);
	*out = v;
	return nr;
}

size_t pmbench_proc_descendants(pid_t **out)
{
	struct procent *all;
	size_t nall = list_procs(&all);
	pid_t *res = NULL;
	size_t nr = 0, alloc = 0, scan = 0;
	pid_t self = getpid();

	/* Breadth first from pmbench itself. */
	for (size_t i = 0; i < nall; i++) {
		if (all[i].ppid == self) {
			PMBENCH_ALLOC_GROW(res, nr + 1, alloc);
			res[nr++] = all[i].pid;
		}
	}
	while (scan < nr) {
		pid_t parent = res[scan++];

		for (size_t i = 0; i < nall; i++) {
			if (all[i].ppid == parent) {
				PMBENCH_ALLOC_GROW(res, nr + 1, alloc);
				res[nr++] = all[i].pid;
			}
		}
	}
	/* Drop zombies: they hold no memory and only need reaping. */
	{
		size_t j = 0;

		for (size_t i = 0; i < nr; i++) {
			struct procent pe;

			if (!read_stat(&pe, res[i]) && pe.state != 'Z' &&
			    pe.state != 'X')
				res[j++] = res[i];
		}
		nr = j;
	}
	free(all);
	*out = res;
	return nr;
}

static uint64_t tree_rss_kib(void)
{
	pid_t *pids;
	size_t n = pmbench_proc_descendants(&pids);
	long page_kib = sysconf(_SC_PAGESIZE) / 1024;
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++) {
		char path[64], buf[256];
		unsigned long size, resident;
		ssize_t len;
		int fd;

		snprintf(path, sizeof(path), "/proc/%d/statm", (int)pids[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		if (sscanf(buf, "%lu %lu", &size, &resident) == 2)
			sum += (uint64_t)resident * (uint64_t)page_kib;
	}
	free(pids);
	return sum;
}

static void sample_tree(struct pmbench_child *c)
{
	uint64_t kib = tree_rss_kib();

	if (kib > c->result.tree_rss_kib)
		c->result.tree_rss_kib = kib;
	c->result.tree_samples++;
}

int pmbench_child_start(struct pmbench_child *c)
{
	struct pmbench_strvec envp = PMBENCH_STRVEC_INIT;
	struct pmbench_buf exe = PMBENCH_BUF_INIT;
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 };
	int devnull = -1, child_errno = 0, ret = PMBENCH_ERROR;
	pid_t parent = getpid(), pid;
	ssize_t n;

	memset(&c->result, 0, sizeof(c->result));
	c->pid = -1;
	c->out_fd = -1;
	if (!c->grace_ns)
		c->grace_ns = DEFAULT_GRACE_NS;
	if (!c->sample_ns)
		c->sample_ns = DEFAULT_SAMPLE_NS;
	if (!c->tail_max)
		c->tail_max = DEFAULT_TAIL_MAX;
	if (!c->args.nr) {
		ret = pmbench_error_set("no program to run");
		goto done;
	}

	pmbench_env_apply(&envp, environ, &c->env);
	if (pmbench_proc_which(&exe, c->args.v[0],
			       pmbench_env_get(&envp, "PATH")) < 0) {
		c->result.spawn_errno = ENOENT;
		ret = pmbench_error_setc(PMBENCH_ENOTFOUND,
					 "cannot run '%s': not found on PATH",
					 c->args.v[0]);
		goto done;
	}
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (devnull < 0 || pipe(errp) < 0 ||
	    (!(c->flags & PMBENCH_CHILD_PASSTHROUGH) && pipe(outp) < 0)) {
		ret = pmbench_error_set("cannot set up '%s': %s", c->args.v[0],
					strerror(errno));
		goto done;
	}
	fcntl(errp[0], F_SETFD, FD_CLOEXEC);
	fcntl(errp[1], F_SETFD, FD_CLOEXEC);
	if (outp[0] >= 0)
		fcntl(outp[0], F_SETFD, FD_CLOEXEC);

	c->t0 = pmbench_now_ns();
	pid = fork();
	if (pid < 0) {
		ret = pmbench_error_set("cannot fork for '%s': %s",
					c->args.v[0], strerror(errno));
		goto done;
	}
	if (!pid) {
		/* The child: async-signal-safe calls only until exec. */
		struct sigaction sa;
		sigset_t all;
		int e;

		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		if (getppid() != parent)
			_exit(127);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_DFL;
		for (int sig = 1; sig < NSIG; sig++)
			sigaction(sig, &sa, NULL);
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		if (dup2(devnull, 0) < 0)
			goto child_fail;
		if (outp[1] >= 0 && (dup2(outp[1], 1) < 0 || dup2(outp[1], 2) < 0))
			goto child_fail;
		if (c->dir && chdir(c->dir) < 0)
			goto child_fail;
		execve(exe.ptr, c->args.v, envp.v);
	child_fail:
		e = errno;
		if (write(errp[1], &e, sizeof(e)) < 0) {
			/* Nothing more can be said. */
		}
		_exit(127);
	}

	/* Also set it here, so there is no window where the group is ours. */
	setpgid(pid, pid);
	c->pid = pid;
	live_add(pid);
	close(errp[1]);
	errp[1] = -1;
	do {
		n = read(errp[0], &child_errno, sizeof(child_errno));
	} while (n < 0 && errno == EINTR);
	if (n == sizeof(child_errno)) {
		int status;

		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		live_remove(pid);
		c->pid = -1;
		c->result.spawn_errno = child_errno;
		ret = pmbench_error_set("cannot run '%s'%s%s: %s", c->args.v[0],
					c->dir ? " in " : "",
					c->dir ? c->dir : "",
					strerror(child_errno));
		goto done;
	}
	if (outp[1] >= 0) {
		close(outp[1]);
		outp[1] = -1;
		c->out_fd = outp[0];
		outp[0] = -1;
		fcntl(c->out_fd, F_SETFL, fcntl(c->out_fd, F_GETFL) | O_NONBLOCK);
	}
	c->next_sample = c->t0;
	ret = 0;
done:
	if (devnull >= 0)
		close(devnull);
	for (int i = 0; i < 2; i++) {
		if (outp[i] >= 0)
			close(outp[i]);
		if (errp[i] >= 0)
			close(errp[i]);
	}
	pmbench_strvec_release(&envp);
	pmbench_buf_release(&exe);
	return ret;
}

/*
 * One step of stripping ANSI CSI sequences (ESC [ ... final byte) from a
 * byte stream; `state` carries over between calls. 1 if `ch` is text.
 */
static int ansi_keep(int *state, unsigned char ch)
{
	if (*state == 1) {
		*state = ch == '[' ? 2 : 0;
		return 0;
	}
	if (*state == 2) {
		if (ch >= 0x40 && ch <= 0x7e)
			*state = 0;
		return 0;
	}
	if (ch == 0x1b) {
		*state = 1;
		return 0;
	}
	return 1;
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

		if (!ansi_keep(&c->in_escape, ch))
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

static void flush_wakeups(void)
{
	char buf[64];

	while (read(chld_pipe[0], buf, sizeof(buf)) > 0)
		;
}

/* Reap the main process if it has exited; 1 if it has. */
static int reap_main(struct pmbench_child *c)
{
	struct rusage ru;
	int status;
	pid_t r;

	if (c->result.exited)
		return 1;
	if (c->pid <= 0)
		return 1;
	memset(&ru, 0, sizeof(ru));
	do {
		r = wait4(c->pid, &status, WNOHANG, &ru);
	} while (r < 0 && errno == EINTR);
	if (r != c->pid)
		return 0;
	c->result.wall_ns = pmbench_now_ns() - c->t0;
	c->result.exited = 1;
	c->result.user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000u +
			    (uint64_t)ru.ru_utime.tv_usec * 1000u;
	c->result.sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000u +
			   (uint64_t)ru.ru_stime.tv_usec * 1000u;
	c->result.max_rss_kib = (uint64_t)ru.ru_maxrss;
	if (WIFEXITED(status)) {
		c->result.exit_code = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		c->result.exit_code = -1;
		c->result.signal = WTERMSIG(status);
	}
	return 1;
}

/*
 * Reap every exited child of ours: orphans re-parented to us, and the
 * main process through reap_main() so that its rusage is not lost.
 */
static void reap_orphans(struct pmbench_child *c)
{
	for (;;) {
		siginfo_t info;
		int status;

		memset(&info, 0, sizeof(info));
		if (waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) < 0 ||
		    !info.si_pid)
			break;
		if (info.si_pid == c->pid && !c->result.exited)
			reap_main(c);
		else if (waitpid(info.si_pid, &status, WNOHANG) <= 0)
			break;
	}
}

int pmbench_child_pump(struct pmbench_child *c, uint64_t wait_ns)
{
	struct pollfd pfd[3];
	uint64_t now = pmbench_now_ns(), until = now + wait_ns;
	int nfds, wake = pmbench_ctx_wake_fd(c->ctx);

	for (;;) {
		uint64_t left;
		int ms;

		if (reap_main(c)) {
			drain(c);
			return 1;
		}
		if (pmbench_ctx_cancelled(c->ctx))
			return PMBENCH_EINTERRUPTED;
		now = pmbench_now_ns();
		if ((c->flags & PMBENCH_CHILD_SAMPLE_TREE) &&
		    now >= c->next_sample) {
			sample_tree(c);
			c->next_sample = now + c->sample_ns;
		}
		if (now >= until && wait_ns)
			return 0;
		left = until > now ? until - now : 0;
		if ((c->flags & PMBENCH_CHILD_SAMPLE_TREE) &&
		    c->next_sample - now < left)
			left = c->next_sample > now ? c->next_sample - now : 0;
		ms = (int)((left + 999999u) / 1000000u);
		nfds = 0;
		pfd[nfds].fd = chld_pipe[0];
		pfd[nfds++].events = POLLIN;
		if (c->out_fd >= 0) {
			pfd[nfds].fd = c->out_fd;
			pfd[nfds++].events = POLLIN;
		}
		/* Cancellation wakes the poll; the pipe stays readable. */
		if (wake >= 0) {
			pfd[nfds].fd = wake;
			pfd[nfds++].events = POLLIN;
		}
		if (poll(pfd, (nfds_t)nfds, ms) < 0 && errno != EINTR)
			return pmbench_error_set("poll failed: %s",
						 strerror(errno));
		flush_wakeups();
		if (c->out_fd >= 0)
			drain(c);
		/* A zero wait still takes what is there, once. */
		if (!wait_ns) {
			if (!reap_main(c))
				return 0;
			drain(c);
			return 1;
		}
	}
}

static size_t signal_tree(const struct pmbench_child *c, int sig)
{
	pid_t *pids;
	size_t n = pmbench_proc_descendants(&pids);

	/*
	 * The group first (children forked right now are in it), then
	 * every descendant, for those that left the group (setsid, pnpm's
	 * own process group for scripts) and were re-parented to us.
	 */
	if (c->pid > 0)
		kill(-c->pid, sig);
	for (size_t i = 0; i < n; i++)
		kill(pids[i], sig);
	free(pids);
	return n;
}

int pmbench_child_kill_tree(struct pmbench_child *c)
{
	pid_t *pids;
	size_t n = pmbench_proc_descendants(&pids);
	uint64_t deadline;
	int count = (int)n;

	free(pids);
	if (!n) {
		reap_main(c);
		reap_orphans(c);
		goto done;
	}
	signal_tree(c, SIGTERM);
	deadline = pmbench_now_ns() + c->grace_ns;
	while (pmbench_now_ns() < deadline) {
		reap_main(c);
		reap_orphans(c);
		n = pmbench_proc_descendants(&pids);
		free(pids);
		if (!n)
			goto done;
		pmbench_sleep_ns(5 * 1000000u);
	}
	/* Some ignored SIGTERM: keep killing until nothing is left. */
	for (int tries = 0; tries < 200; tries++) {
		if (!signal_tree(c, SIGKILL))
			break;
		pmbench_sleep_ns(5 * 1000000u);
		reap_main(c);
		reap_orphans(c);
	}
	reap_main(c);
	reap_orphans(c);
done:
	drain(c);
	if (c->pid > 0)
		live_remove(c->pid);
	return count;
}

int pmbench_child_run(struct pmbench_child *c)
{
	int ret = pmbench_child_start(c);
	uint64_t deadline;

	if (ret < 0)
		return ret;
	deadline = c->timeout_ns ? c->t0 + c->timeout_ns : UINT64_MAX;
	for (;;) {
		uint64_t now = pmbench_now_ns();
		uint64_t step = 200 * 1000000u;

		if (now >= deadline) {
			c->result.timed_out = 1;
			pmbench_child_kill_tree(c);
			break;
		}
		if (deadline - now < step)
			step = deadline - now;
		ret = pmbench_child_pump(c, step);
		if (ret == 1)
			break;
		if (ret == PMBENCH_EINTERRUPTED) {
			c->result.interrupted = 1;
			pmbench_child_kill_tree(c);
			return PMBENCH_EINTERRUPTED;
		}
		if (ret < 0) {
			pmbench_child_kill_tree(c);
			return ret;
		}
	}
	if (!c->result.timed_out) {
		/* Whatever the PM left behind is counted and stopped. */
		pid_t *pids;
		size_t left = pmbench_proc_descendants(&pids);

		free(pids);
		c->result.leftover = (int)left;
		pmbench_child_kill_tree(c);
	}
	/* The writers are gone now: take the rest of the output. */
	while (c->out_fd >= 0) {
		struct pollfd pfd = { c->out_fd, POLLIN, 0 };

		if (poll(&pfd, 1, 100) <= 0)
			break;
		drain(c);
	}
	if (c->out_fd >= 0) {
		close(c->out_fd);
		c->out_fd = -1;
	}
	return pmbench_ctx_cancelled(c->ctx) ? PMBENCH_EINTERRUPTED : 0;
}

void pmbench_child_release(struct pmbench_child *c)
{
	if (c->pid > 0 && !c->result.exited)
		pmbench_child_kill_tree(c);
	if (c->pid > 0)
		live_remove(c->pid);
	if (c->out_fd >= 0)
		close(c->out_fd);
	c->out_fd = -1;
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

		if (!ansi_keep(&esc, ch))
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
	else if (r->signal)
		pmbench_buf_addf(out, "killed by signal %d (%s, exit %d)",
				 r->signal, strsignal(r->signal),
				 128 + r->signal);
	else
		pmbench_buf_addf(out, "exit %d", r->exit_code);
}
