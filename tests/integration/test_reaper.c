/*
 * What a SIGKILLed pmbench leaves running: nothing. A dev run whose
 * server hands its port to a grandchild in a session of its own (the
 * fake server's grandchild mode) is killed with SIGKILL, which pmbench
 * cannot catch; its supervisor (src/engine/measure/reaper.c) must then stop
 * every process pmbench started, by the cgroup where the machine lets
 * pmbench make one and by the process groups and the PMBENCH_RUN marker
 * everywhere. And on a normal exit the supervisor is gone when pmbench
 * returns. Only states are asserted, within generous deadlines.
 */
#include "pmbench/common.h"

#include <ctype.h>
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/probe.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"

/* How long the supervisor may take to finish, at most (never reached). */
#define SETTLE_TRIES 1500
#define SETTLE_STEP  (20 * 1000000ull)

struct devrun {
	struct pmbench_child c;
	char pidfile[4200], portfile[4200], out[4200];
	long server, port;
	long supervisor;
	char marker[128];  /* "PMBENCH_RUN=<id>", the server's */
	char cgroup[4200]; /* the server's cgroup folder if pmbench made it */
};

/*
 * A project whose dev script writes its port and pid, then runs the fake
 * server in grandchild mode (the port goes to a grandchild that left the
 * session); pmbench `bench --task dev` on it, not started yet.
 */
static void devrun_init(struct devrun *d, unsigned ready_ms, const char *env)
{
	struct pmbench_buf pkg = PMBENCH_BUF_INIT, man = PMBENCH_BUF_INIT;
	char proj[4200], mpath[4200];

	memset(d, 0, sizeof(*d));
	d->c = (struct pmbench_child)PMBENCH_CHILD_INIT;
	h_setup();
	snprintf(d->pidfile, sizeof(d->pidfile), "%s",
		 h_write("server.pid", ""));
	snprintf(d->portfile, sizeof(d->portfile), "%s",
		 h_write("server.port", ""));
	pmbench_buf_addf(&pkg,
			 "{ \"name\": \"devproj\", \"version\": \"1.0.0\", "
			 "\"private\": true, \"scripts\": { \"dev\": \"echo "
			 "$PORT > %s && echo $$ > %s && exec %s --mode "
			 "grandchild --ready-delay-ms %u\" } }\n",
			 d->portfile, d->pidfile, getenv("PMBENCH_FAKESERVER"),
			 ready_ms);
	h_write("devproj/package.json", pkg.ptr);
	snprintf(proj, sizeof(proj), "%s", check_path("devproj"));
	pmbench_buf_addf(&man,
			 "{ \"name\": \"devproj\", \"repo\": \"%s\", \"dev\": "
			 "{ \"args\": \"--port {port}\", \"ready\": \"fake "
			 "server ready\" } }\n",
			 proj);
	snprintf(mpath, sizeof(mpath), "%s", h_write("devproj.json", man.ptr));
	snprintf(d->out, sizeof(d->out), "%s", h_write("result.json", ""));
	pmbench_strvec_push(&d->c.args, getenv("PMBENCH_BIN"));
	pmbench_strvec_pushv(
		&d->c.args, (const char *const[]){
				    "bench", "--pm", "npm", "--task", "dev",
				    "--runs", "1", "--warmup", "0", "--timeout",
				    "120s", "--out", d->out, mpath, NULL });
	if (env)
		pmbench_strvec_push(&d->c.env, env);
	pmbench_buf_release(&pkg);
	pmbench_buf_release(&man);
}

/* The value of the entry `key`= of a process's environment, into `out`. */
static int environ_entry(char *out, size_t n, long pid, const char *key)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	char path[64];
	size_t klen = strlen(key);
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%ld/environ", pid);
	if (!pmbench_fs_read(&b, path, 1u << 20)) {
		for (size_t i = 0; i < b.len; i += strlen(b.ptr + i) + 1) {
			if (!strncmp(b.ptr + i, key, klen) &&
			    b.ptr[i + klen] == '=') {
				snprintf(out, n, "%s", b.ptr + i);
				found = 1;
				break;
			}
		}
	}
	pmbench_buf_release(&b);
	return found;
}

/* Live processes whose environment holds the entry `marker`. */
static int marked(const char *marker, long *one)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	char key[64], got[128];
	int n = 0;

	snprintf(key, sizeof(key), "%.*s", (int)strcspn(marker, "="), marker);
	while (d && (de = readdir(d))) {
		long pid;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = strtol(de->d_name, NULL, 10);
		if (h_alive(pid) && environ_entry(got, sizeof(got), pid, key) &&
		    !strcmp(got, marker)) {
			*one = pid;
			n++;
		}
	}
	if (d)
		closedir(d);
	return n;
}

/* The child of `parent` named pmb-reaper (pmbench's supervisor), or -1. */
static long find_supervisor(long parent)
{
	struct pmbench_buf kids = PMBENCH_BUF_INIT, comm = PMBENCH_BUF_INIT;
	char path[96];
	const char *p;
	long found = -1;

	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/children", parent,
		 parent);
	if (pmbench_fs_read(&kids, path, 65536) < 0)
		goto done;
	for (p = kids.ptr; *p;) {
		char *end;
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		p = end;
		snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
		pmbench_buf_reset(&comm);
		if (!pmbench_fs_read(&comm, path, 64) &&
		    !strcmp(comm.ptr, "pmb-reaper\n"))
			found = pid;
	}
done:
	pmbench_buf_release(&kids);
	pmbench_buf_release(&comm);
	return found;
}

/* What a /proc/<pid>/fd/<fd> link names, into `out`, or "". */
static void fd_target(char *out, size_t n, long pid, const char *fd)
{
	char path[384];
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/%ld/fd/%s", pid, fd);
	len = readlink(path, out, n - 1);
	out[len > 0 ? len : 0] = '\0';
}

/*
 * The supervisor holds nothing of pmbench's: its stdin, stdout and
 * stderr are /dev/null, and no descriptor of it is pmbench's output pipe
 * (a caller reading pmbench's output, `$(pmbench ...)`, must see its end
 * when pmbench exits).
 */
static void check_supervisor_fds(int *out, long sup, long pmbench)
{
	char theirs[256], mine[256];
	DIR *d;
	struct dirent *de;
	char path[64];

	*out = 0;
	fd_target(theirs, sizeof(theirs), pmbench, "1");
	CHECK(!strncmp(theirs, "pipe:", 5));
	for (int fd = 0; fd < 3; fd++) {
		static const char *const names[] = { "0", "1", "2" };

		fd_target(mine, sizeof(mine), sup, names[fd]);
		CHECK_STR(mine, "/dev/null");
	}
	snprintf(path, sizeof(path), "/proc/%ld/fd", sup);
	d = opendir(path);
	CHECK(d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		fd_target(mine, sizeof(mine), sup, de->d_name);
		if (!strcmp(mine, theirs))
			break;
	}
	closedir(d);
	CHECK(!de);
	*out = 1;
}

/* The cgroup folder of `pid` when it is one pmbench made, into `out`. */
static void pmbench_cgroup(char *out, size_t n, long pid)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	char path[64];
	const char *line,
		*mounts[] = { "/sys/fs/cgroup/unified", "/sys/fs/cgroup" };

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%ld/cgroup", pid);
	if (pmbench_fs_read(&b, path, 65536) < 0)
		goto done;
	line = strstr(b.ptr, "0::");
	if (!line || !strstr(line, "/pmbench-"))
		goto done;
	line += 3;
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(mounts); i++) {
		char probe[4200];

		snprintf(probe, sizeof(probe), "%s%.*s/cgroup.procs", mounts[i],
			 (int)strcspn(line, "\n"), line);
		if (!access(probe, F_OK)) {
			snprintf(out, n, "%s%.*s", mounts[i],
				 (int)strcspn(line, "\n"), line);
			break;
		}
	}
done:
	pmbench_buf_release(&b);
}

/*
 * Start the run and wait until the server's grandchild listens; note the
 * server's marker and cgroup, and pmbench's supervisor.
 */
static void devrun_start(int *out, struct devrun *d)
{
	int open = 0;

	*out = 0;
	H_CHECK_CALL(h_start_until, &d->c, d->pidfile, &d->server);
	for (int i = 0; i < 400 && !open; i++) {
		pmbench_child_pump(&d->c, 25 * 1000000ull);
		d->port = h_read_pid(d->portfile);
		open = d->port > 0 &&
		       pmbench_probe_port_open((unsigned)d->port);
	}
	CHECK(open);
	/* Every child carries the marker of this pmbench. */
	CHECK(environ_entry(d->marker, sizeof(d->marker), d->server,
			    "PMBENCH_RUN"));
	CHECK(strlen(d->marker) > strlen("PMBENCH_RUN="));
	pmbench_cgroup(d->cgroup, sizeof(d->cgroup), d->server);
	d->supervisor = find_supervisor(d->c.pid);
	CHECK(d->supervisor > 0);
	H_CHECK_CALL(check_supervisor_fds, d->supervisor, (long)d->c.pid);
	*out = 1;
}

/* Stop whatever is left (a failed case must not leave it running). */
static void devrun_release(struct devrun *d)
{
	long pid;

	for (int i = 0; d->marker[0] && i < 50 && marked(d->marker, &pid); i++)
		kill((pid_t)pid, SIGKILL);
	pmbench_child_kill_tree(&d->c);
	pmbench_child_release(&d->c);
}

/*
 * SIGKILL pmbench mid-run: soon nothing carries its marker, the port is
 * closed, the supervisor is gone and so is the cgroup folder.
 */
static void sigkill_leaves_nothing(int *out, struct devrun *d, int no_cgroup)
{
	long one = -1;
	int left = 1, open = 1, sup = 1;

	*out = 0;
	H_CHECK_CALL(devrun_start, d);
	if (no_cgroup)
		CHECK_STR(d->cgroup, "");
	kill(d->c.pid, SIGKILL);
	for (int i = 0; i < 600 && !d->c.result.exited; i++)
		pmbench_child_pump(&d->c, 50 * 1000000ull);
	CHECK(d->c.result.exited);
	CHECK_INT(d->c.result.signal, SIGKILL);
	for (int i = 0; i < SETTLE_TRIES && (left || open || sup); i++) {
		if (i)
			pmbench_sleep_ns(SETTLE_STEP);
		left = marked(d->marker, &one);
		open = pmbench_probe_port_open((unsigned)d->port);
		sup = h_alive(d->supervisor);
	}
	if (left)
		check_fail(__FILE__, __LINE__,
			   "%d process(es) still carry %s, one is %ld", left,
			   d->marker, one);
	CHECK_INT(left, 0);
	CHECK(!open);
	CHECK(!h_alive(d->server));
	CHECK(!sup);
	if (d->cgroup[0])
		CHECK(access(d->cgroup, F_OK) < 0 && errno == ENOENT);
	*out = 1;
}

static void sigkill_case(int *out, const char *env)
{
	struct devrun d;
	int ok = 0;

	*out = 0;
	devrun_init(&d, 60000, env);
	sigkill_leaves_nothing(&ok, &d, env != NULL);
	/* Whatever happened, nothing of the case may keep running. */
	devrun_release(&d);
	CHECK(ok);
	/* Asked for the cgroup's path: it must have been the one taken. */
	if (!env && !d.cgroup[0])
		SKIP("pmbench made no cgroup here (it does as root, or in a "
		     "cgroup v2 folder delegated to the user): only the "
		     "process groups and the marker were checked");
	*out = 1;
}

/* A normal end: the supervisor is reaped before pmbench returns. */
static void normal_exit(int *out, struct devrun *d)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const char *how;
	long one;

	*out = 0;
	H_CHECK_CALL(devrun_start, d);
	for (int i = 0; i < 1200 && !d->c.result.exited; i++)
		pmbench_child_pump(&d->c, 50 * 1000000ull);
	CHECK(d->c.result.exited);
	CHECK_INT(d->c.result.exit_code, 0);
	/* Not even a zombie: pmbench waited for it. */
	CHECK(kill((pid_t)d->supervisor, 0) < 0 && errno == ESRCH);
	CHECK_INT(marked(d->marker, &one), 0);
	CHECK(!pmbench_probe_port_open((unsigned)d->port));
	if (d->cgroup[0])
		CHECK(access(d->cgroup, F_OK) < 0 && errno == ENOENT);
	/* The result says what would have stopped the children. */
	CHECK_INT(pmbench_result_read(&r, d->out), 0);
	how = pmbench_result_env_get(&r, "process_cleanup");
	CHECK_CONTAINS(how, "pmb-reaper");
	CHECK_CONTAINS(how, d->cgroup[0] ? "cgroup.kill" : "no cgroup");
	pmbench_result_release(&r);
	*out = 1;
}

/* Where the machine lets pmbench make a cgroup, it is used. */
TEST(sigkill_mid_dev_run_leaves_nothing)
{
	H_CHECK_CALL(sigkill_case, NULL);
}

/* Without a cgroup: the process groups and the marker. */
TEST(sigkill_mid_dev_run_leaves_nothing_without_cgroup)
{
	H_CHECK_CALL(sigkill_case, "PMBENCH_TEST_NO_CGROUP=1");
}

TEST(supervisor_gone_after_normal_exit)
{
	struct devrun d;
	int ok = 0;

	devrun_init(&d, 5000, NULL);
	normal_exit(&ok, &d);
	devrun_release(&d);
	CHECK(ok);
}

/*
 * The harness fails a case whose pmbench leaves a process running: a
 * stand-in for pmbench (PMBENCH_BIN) that leaves a sleep behind, run by
 * h_pmbench() in a child of this program, fails the child's case; the
 * sleep is gone (it used to be killed without a word).
 */
TEST(the_harness_fails_a_leak)
{
	struct h_run run;
	struct pmbench_buf err = PMBENCH_BUF_INIT;
	const char *bin;
	char pidf[4200];
	pid_t pid;
	int status = 0;

	h_setup();
	snprintf(pidf, sizeof(pidf), "%s", check_path("leak.pid"));
	bin = h_write("leaky.sh", "#!/bin/sh\nsleep 300 &\necho $! > \"$1\"\n");
	CHECK_INT(chmod(bin, 0755), 0);
	fflush(NULL);
	pid = fork();
	CHECK(pid >= 0);
	if (!pid) {
		/* Its FAIL line is the child's, read below. */
		if (!freopen(check_path("child.err"), "w", stderr))
			_exit(2);
		setenv("PMBENCH_BIN", bin, 1);
		h_pmbench(&run, (const char *const[]){ pidf, NULL }, NULL);
		h_run_release(&run);
		fflush(NULL);
		_exit(check_failed() ? 1 : 0);
	}
	CHECK_INT(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status));
	CHECK_INT(WEXITSTATUS(status), 1);
	CHECK_INT(pmbench_fs_read(&err, check_path("child.err"), 1u << 20), 0);
	CHECK_CONTAINS(err.ptr, "left 1 process(es) running");
	pmbench_buf_release(&err);
	CHECK(h_read_pid(pidf) > 0);
	CHECK(!h_alive(h_read_pid(pidf)));
}

CHECK_MAIN(CASE(sigkill_mid_dev_run_leaves_nothing),
	   CASE(sigkill_mid_dev_run_leaves_nothing_without_cgroup),
	   CASE(the_harness_fails_a_leak),
	   CASE(supervisor_gone_after_normal_exit))
