/*
 * The reaper (src/engine/measure/reaper.c). Each case forks a "program" that
 * starts the reaper and one child through proc.c, as pmbench does, then
 * is either killed with SIGKILL or told to exit normally; the case checks
 * what is left. The test process itself starts no reaper and is no
 * subreaper: what the program leaves goes where it would for a shell.
 */
#define _GNU_SOURCE 1
#include "pmbench/common.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/proc.h"
#include "pmbench/reaper.h"

#define STEP_NS (10 * 1000000ull)
#define SETTLE	1000 /* steps: 10 s, never reached when all is well */

/* Call a checking helper `fn(int *ok, ...)`; fail and return if it did. */
#define CALL(fn, ...)                                              \
	do {                                                       \
		int ok_ = 0;                                       \
		fn(&ok_, __VA_ARGS__);                             \
		if (!ok_) {                                        \
			check_fail(__FILE__, __LINE__, "%s", #fn); \
			return;                                    \
		}                                                  \
	} while (0)

/*
 * 1 in a case's child that runs as another user in the sandbox its parent
 * made: prog_start() keeps it (nobody may not remove the folder).
 */
static int sandbox_kept;

/* A program that started the reaper, as the test sees it. */
struct prog {
	pid_t pid;
	int ctl;   /* write 'x': exit normally */
	FILE *rep; /* what it reports, line by line */
	pid_t sup; /* its supervisor */
	char marker[64];
	char describe[512];
	char child_out[256]; /* the first line its child printed */
};

static int alive(pid_t pid)
{
	char path[64];
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *rp;
	int live = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (pid > 0 && !pmbench_fs_read(&b, path, 4096)) {
		rp = strrchr(b.ptr, ')');
		live = rp && rp[1] == ' ' && rp[2] != 'Z' && rp[2] != 'X';
	}
	pmbench_buf_release(&b);
	return live;
}

/* Wait up to 10 s for `pid` to be gone (a zombie counts as gone). */
static int gone(pid_t pid)
{
	for (int i = 0; i < SETTLE && alive(pid); i++)
		pmbench_sleep_ns(STEP_NS);
	return !alive(pid);
}

/* The pid a script wrote into `path`, waiting up to 10 s for it. */
static pid_t read_pid(const char *path)
{
	for (int i = 0; i < SETTLE; i++) {
		struct pmbench_buf b = PMBENCH_BUF_INIT;
		long pid = 0;

		if (!pmbench_fs_read(&b, path, 64))
			pid = strtol(b.ptr, NULL, 10);
		pmbench_buf_release(&b);
		if (pid > 0)
			return (pid_t)pid;
		pmbench_sleep_ns(STEP_NS);
	}
	return -1;
}

/*
 * The program: the reaper, the engine's process handling and a subreaper
 * as in pmbench's main(), one child running `script`, a report, then a
 * wait for the word to exit (normally: the exit handlers run).
 */
PMBENCH_NORETURN static void program(int ctl, int rep, const char *script)
{
	static struct pmbench_child c = PMBENCH_CHILD_INIT;
	char cmd = 0;
	ssize_t n;

	if (pmbench_reaper_start() < 0 || pmbench_proc_init() < 0 ||
	    pmbench_proc_subreaper() < 0)
		_exit(3);
	dprintf(rep, "%d\n%s\n%s\n", (int)pmbench_reaper_pid(),
		pmbench_reaper_marker(), pmbench_reaper_describe());
	pmbench_strvec_pushv(
		&c.args, (const char *const[]){ "/bin/sh", "-c", script,
						check_path("esc.pid"), NULL });
	c.on_line = NULL;
	if (pmbench_child_start(&c) < 0)
		_exit(4);
	/* The child's first line, then it runs on unwatched. */
	while (!memchr(c.tail.ptr, '\n', c.tail.len) &&
	       pmbench_child_pump(&c, 100 * 1000000ull) == 0)
		;
	dprintf(rep, "%.*s\n", (int)strcspn(c.tail.ptr, "\n"), c.tail.ptr);
	do {
		n = read(ctl, &cmd, 1);
	} while (n < 0 && errno == EINTR);
	/* Exit with the child still running: the exit path must stop it. */
	exit(0);
}

static void line(char *out, size_t n, FILE *f)
{
	if (!fgets(out, (int)n, f))
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

/*
 * Fork the program running `script` (its first line of output is its
 * report; "$0" is a file of the sandbox to write a pid to), with `env`
 * ("K=V") set.
 */
static void prog_start(int *out, struct prog *p, const char *script,
		       const char *env)
{
	int ctl[2], rep[2];
	char pid[32];

	*out = 0;
	memset(p, 0, sizeof(*p));
	p->ctl = -1;
	if (!sandbox_kept)
		check_sandbox();
	CHECK(!pipe2(ctl, O_CLOEXEC) && !pipe2(rep, O_CLOEXEC));
	fflush(NULL);
	p->pid = fork();
	CHECK(p->pid >= 0);
	if (!p->pid) {
		close(ctl[1]);
		close(rep[0]);
		if (env)
			putenv((char *)env);
		program(ctl[0], rep[1], script);
	}
	close(ctl[0]);
	close(rep[1]);
	p->ctl = ctl[1];
	p->rep = fdopen(rep[0], "r");
	CHECK(p->rep);
	line(pid, sizeof(pid), p->rep);
	p->sup = (pid_t)strtol(pid, NULL, 10);
	line(p->marker, sizeof(p->marker), p->rep);
	line(p->describe, sizeof(p->describe), p->rep);
	line(p->child_out, sizeof(p->child_out), p->rep);
	CHECK(p->sup > 0);
	CHECK(!strncmp(p->marker, "PMBENCH_RUN=", 12));
	*out = 1;
}

/* SIGKILL the program and reap it. */
static void prog_kill(struct prog *p)
{
	int status;

	kill(p->pid, SIGKILL);
	while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR)
		;
}

/* Tell the program to exit and reap it; its exit status. */
static int prog_exit(struct prog *p)
{
	int status = -1;

	if (write(p->ctl, "x", 1) != 1)
		return -1;
	while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static void prog_release(struct prog *p)
{
	if (p->ctl >= 0)
		close(p->ctl);
	if (p->rep)
		fclose(p->rep);
	p->ctl = -1;
	p->rep = NULL;
}

static int uses_cgroup(const struct prog *p)
{
	return !strstr(p->describe, "no cgroup");
}

/* A process a case started that must not outlive it, whatever happened. */
static void stop(pid_t pid)
{
	if (pid > 0 && alive(pid))
		kill(pid, SIGKILL);
}

/* Every child gets the marker; the supervisor sits in its own session. */
TEST(children_carry_the_marker)
{
	struct prog p;
	char comm[64];
	int fd;
	ssize_t n;

	CALL(prog_start, &p, "echo \"$PMBENCH_RUN\"; exec sleep 300", NULL);
	CHECK_STR(p.child_out, p.marker + strlen("PMBENCH_RUN="));
	CHECK_INT(getsid(p.sup), p.sup);
	CHECK_INT(getpgid(p.sup), p.sup);
	snprintf(comm, sizeof(comm), "/proc/%d/comm", (int)p.sup);
	fd = open(comm, O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0);
	n = read(fd, comm, sizeof(comm) - 1);
	close(fd);
	CHECK(n > 0);
	comm[n] = '\0';
	CHECK_STR(comm, "pmb-reaper\n");
	CHECK_INT(prog_exit(&p), 0);
	/* Reaped by the program before it returned: not even a zombie. */
	CHECK(kill(p.sup, 0) < 0 && errno == ESRCH);
	prog_release(&p);
}

/*
 * A grandchild in a session of its own outlives the program's SIGKILL
 * only until the supervisor finds it, which then ends.
 */
static void escaped_session(int *out, const char *env)
{
	char pidf[4096];
	struct prog p;
	pid_t esc;
	int ok;

	*out = 0;
	CALL(prog_start, &p,
	     "setsid sh -c 'echo $$ > \"$0\"; exec sleep 300' \"$0\" "
	     "</dev/null >/dev/null 2>&1 & echo started; exec sleep 300",
	     env);
	snprintf(pidf, sizeof(pidf), "%s", check_path("esc.pid"));
	esc = read_pid(pidf);
	CHECK(esc > 0 && alive(esc));
	CHECK(getsid(esc) == esc);
	prog_kill(&p);
	ok = gone(esc);
	stop(esc);
	CHECK(ok);
	CHECK(gone(p.sup));
	prog_release(&p);
	*out = 1;
}

TEST(sigkill_stops_an_escaped_session)
{
	CALL(escaped_session, NULL);
}

TEST(sigkill_stops_an_escaped_session_without_cgroup)
{
	CALL(escaped_session, "PMBENCH_TEST_NO_CGROUP=1");
}

/*
 * Without the cgroup and without the marker (a cleared environment), a
 * process still in the child's process group is stopped through the
 * groups the program shared with the supervisor.
 */
TEST(sigkill_stops_group_member_without_marker)
{
	char pidf[4096];
	struct prog p;
	pid_t esc;
	int ok;

	CALL(prog_start, &p,
	     "env -i /bin/sleep 300 </dev/null >/dev/null 2>&1 & "
	     "echo $! > \"$0\"; echo started; exec sleep 300",
	     "PMBENCH_TEST_NO_CGROUP=1");
	CHECK_CONTAINS(p.describe, "no cgroup: turned off");
	snprintf(pidf, sizeof(pidf), "%s", check_path("esc.pid"));
	esc = read_pid(pidf);
	CHECK(esc > 0 && alive(esc));
	prog_kill(&p);
	ok = gone(esc);
	stop(esc);
	CHECK(ok);
	CHECK(gone(p.sup));
	prog_release(&p);
}

/*
 * A cleared environment in a session of its own: only the cgroup finds
 * it, so SIGKILL stops it only where pmbench made one. *out: 1 when the
 * case ran (its checks passed), 0 when one failed; `describe` gets the
 * reaper's description (whether it made a cgroup, else why not).
 */
static void unmarked_session(int *out, char *describe, size_t n)
{
	char pidf[4096];
	struct prog p;
	pid_t esc;
	int ok;

	*out = 0;
	CALL(prog_start, &p,
	     "env -i setsid /bin/sleep 300 </dev/null >/dev/null 2>&1 & "
	     "echo $! > \"$0\"; echo started; exec sleep 300",
	     NULL);
	snprintf(describe, n, "%s", p.describe);
	snprintf(pidf, sizeof(pidf), "%s", check_path("esc.pid"));
	esc = read_pid(pidf);
	CHECK(esc > 0 && alive(esc));
	if (!uses_cgroup(&p)) {
		prog_exit(&p);
		stop(esc);
		prog_release(&p);
		*out = 1;
		return;
	}
	prog_kill(&p);
	ok = gone(esc);
	stop(esc);
	CHECK(ok);
	CHECK(gone(p.sup));
	prog_release(&p);
	*out = 1;
}

/* Where pmbench can make no cgroup (not root, and none delegated to the
 * user), the case is skipped with the reaper's reason. */
TEST(sigkill_stops_unmarked_session_with_cgroup)
{
	char describe[512];
	const char *why;
	size_t len;

	CALL(unmarked_session, describe, sizeof(describe));
	why = strstr(describe, "no cgroup");
	if (!why)
		return;
	/* The reason ends the description's parenthesis: "(no cgroup: why)". */
	len = strlen(why);
	if (len && why[len - 1] == ')')
		len--;
	SKIP("%.*s", (int)len, why);
}

/* As nobody in a cgroup delegated to it: pmbench makes its own below. */
static int delegated_status(void)
{
	char describe[512] = "";
	int ok = 0;

	sandbox_kept = 1;
	unmarked_session(&ok, describe, sizeof(describe));
	sandbox_kept = 0;
	fprintf(stderr, "uid %d: %s\n", (int)geteuid(), describe);
	return !ok || check_failed() || strstr(describe, "no cgroup");
}

/*
 * The cgroup's path as a normal user, where root can delegate a cgroup
 * to nobody (as systemd's Delegate= does for a user's session): pmbench
 * makes its cgroup in the one it was given, SIGKILL stops the unmarked
 * session through it, and the supervisor removes it (else the delegated
 * folder stays busy and the case fails).
 */
TEST(sigkill_stops_unmarked_session_in_a_delegated_cgroup)
{
	char why[512];
	int ret;

	check_sandbox_tmp();
	ret = check_delegated(delegated_status, why, sizeof(why));
	if (ret == CHECK_SKIP_CODE)
		SKIP("no cgroup delegated to a normal user here: %s", why);
	CHECK_INT(ret, 0);
}

/*
 * A normal exit with a handle's escaped grandchild still running: the
 * exit path stops it before the program returns, and the supervisor is
 * reaped.
 */
TEST(normal_exit_stops_what_is_left)
{
	char pidf[4096];
	struct prog p;
	pid_t esc;
	int ok;

	CALL(prog_start, &p,
	     "setsid sh -c 'echo $$ > \"$0\"; exec sleep 300' \"$0\" "
	     "</dev/null >/dev/null 2>&1 & echo started; exec sleep 300",
	     NULL);
	snprintf(pidf, sizeof(pidf), "%s", check_path("esc.pid"));
	esc = read_pid(pidf);
	CHECK(esc > 0 && alive(esc));
	CHECK_INT(prog_exit(&p), 0);
	/* At once: the program waited for the supervisor's sweep. */
	ok = !alive(esc);
	stop(esc);
	CHECK(ok);
	CHECK(kill(p.sup, 0) < 0 && errno == ESRCH);
	prog_release(&p);
}

/* Ctrl-C, Ctrl-\ and a hangup do not stop the supervisor before it acts. */
TEST(supervisor_ignores_terminal_signals)
{
	struct prog p;

	CALL(prog_start, &p, "echo started; exec sleep 300", NULL);
	kill(p.sup, SIGINT);
	kill(p.sup, SIGQUIT);
	kill(p.sup, SIGHUP);
	pmbench_sleep_ns(50 * 1000000ull);
	CHECK(alive(p.sup));
	CHECK_INT(prog_exit(&p), 0);
	CHECK(kill(p.sup, 0) < 0 && errno == ESRCH);
	prog_release(&p);
}

/* Without a reaper: no marker, no supervisor, and it says so. */
TEST(no_reaper_no_marker)
{
	CHECK(!pmbench_reaper_marker());
	CHECK_INT(pmbench_reaper_pid(), 0);
	CHECK_CONTAINS(pmbench_reaper_describe(), "no supervisor");
	/* Harmless without a reaper. */
	pmbench_reaper_note_group(0, 1);
	pmbench_reaper_stop();
}

CHECK_MAIN(CASE(children_carry_the_marker),
	   CASE(sigkill_stops_an_escaped_session),
	   CASE(sigkill_stops_an_escaped_session_without_cgroup),
	   CASE(sigkill_stops_group_member_without_marker),
	   CASE(sigkill_stops_unmarked_session_with_cgroup),
	   CASE(sigkill_stops_unmarked_session_in_a_delegated_cgroup),
	   CASE(normal_exit_stops_what_is_left),
	   CASE(supervisor_ignores_terminal_signals), CASE(no_reaper_no_marker))
