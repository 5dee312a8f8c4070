/*
 * The deleter: what a command set aside is deleted after pmbench has
 * returned, by the one process pmbench leaves running (deleter.h). The
 * test knob holds the deleter until a file exists, so that each test
 * sees the states in order (no times): pmbench gone with its results
 * while the deletion is held; the next command waiting for it before
 * its first timed run; a killed deleter's batches deleted by the next
 * command's.
 */
#include "pmbench/common.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"
#include "pmbench/deleter.h"
#include "pmbench/fs.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"
#include "pmbench/workdir.h"

static char go[4200], out[4200];

/* The bench's arguments: one run of one scenario with the control. */
static void push_args(struct pmbench_strvec *v, const char *proj)
{
	pmbench_strvec_pushv(
		v, (const char *const[]){ "bench", "--pm", "npm", "--scenario",
					  "clean", "--runs", "1", "--warmup",
					  "0", "--out", out, proj, NULL });
}

/* No wait for the file system; `hold`: its deleter waits for `go`. */
static void push_env(struct pmbench_strvec *env, int hold)
{
	pmbench_strvec_pushf(env, "%s=0", PMBENCH_FS_REUSE_DELAY_ENV);
	if (hold)
		pmbench_strvec_pushf(env, "%s=%s", PMBENCH_DELETER_HOLD_ENV,
				     go);
}

static void bench(struct h_run *run, const char *proj, int hold)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec args = PMBENCH_STRVEC_INIT;

	push_args(&args, proj);
	push_env(&env, hold);
	h_pmbench(run, (const char *const *)args.v, &env);
	pmbench_strvec_release(&args);
	pmbench_strvec_release(&env);
}

static int pending(void)
{
	struct pmbench_buf q = PMBENCH_BUF_INIT;
	int n;

	pmbench_deleter_queue(&q, h_cache());
	n = pmbench_fs_trash_pending(q.ptr);
	pmbench_buf_release(&q);
	return n;
}

/*
 * Without a subreaper the deleter is re-parented past this program (to
 * init), as it is under a shell, and no run's clean-up takes it for its
 * own.
 */
static const char *setup(void)
{
	const char *sandbox = h_setup();

	/* Its 2,000-file copies make the trash a large deletion. */
	h_with_control();
	prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
	snprintf(go, sizeof(go), "%s/go", sandbox);
	snprintf(out, sizeof(out), "%s/result.json", sandbox);
	return sandbox;
}

/* Field `n` (1-based) of /proc/<pid>/stat, or -1. */
static long stat_field(pid_t pid, int n)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	char path[64];
	const char *p;
	long v = -1;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if (pmbench_fs_read(&b, path, 4096) == 0 && (p = strrchr(b.ptr, ')'))) {
		/* Field 3 follows the name's ')'. */
		for (int i = 3; i < n && p; i++)
			p = strchr(p + 2, ' ');
		if (p)
			v = strtol(p + 1, NULL, 10);
	}
	pmbench_error_clear();
	pmbench_buf_release(&b);
	return v;
}

/* The deleter's pid as pmbench said it, or 0. */
static pid_t said_pid(const char *text)
{
	const char *p = strstr(text, "in the background (pid ");

	return p ? (pid_t)strtol(p + strlen("in the background (pid "), NULL,
				 10)
		 : 0;
}

TEST(prompt_returns_before_the_deletion_ends)
{
	struct h_run run;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf trash = PMBENCH_BUF_INIT, cg = PMBENCH_BUF_INIT;
	const char *proj, *how;
	char path[64], no_cgroup[512];
	uint64_t files = 0;
	pid_t pid;
	long prio;

	setup();
	proj = h_project("proj");
	bench(&run, proj, 1);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "results written");
	CHECK_CONTAINS(run.out.ptr, "deleting the work copies set aside in "
				    "the background (pid ");
	pid = said_pid(run.out.ptr);
	h_run_release(&run);
	/* pmbench has returned; its deletion is held, not done. */
	CHECK(pid > 0);
	CHECK_INT(pmbench_deleter_running(h_cache()), pid);
	CHECK(h_alive(pid));
	CHECK(pending() >= 1);
	/* Its own session, idle I/O priority, nice 19, out of any cgroup of
	 * pmbench's. */
	CHECK(getsid(pid) != getsid(0));
	CHECK_INT(stat_field(pid, 19), 19);
	prio = syscall(SYS_ioprio_get, 1, (int)pid);
	CHECK_INT(prio >> 13, 3);
	/* `ps` says what it does, not the command that started it. */
	snprintf(path, sizeof(path), "/proc/%ld/cmdline", (long)pid);
	CHECK_INT(pmbench_fs_read(&cg, path, 4096), 0);
	CHECK(!strncmp(cg.ptr, "pmbench-deleter: deleting", 25));
	CHECK(!strstr(cg.ptr, "bench --"));
	pmbench_buf_reset(&cg);
	snprintf(path, sizeof(path), "/proc/%ld/cgroup", (long)pid);
	CHECK_INT(pmbench_fs_read(&cg, path, 4096), 0);
	CHECK(!strstr(cg.ptr, "pmbench-"));
	pmbench_buf_release(&cg);
	/* Whether pmbench had a cgroup the deleter could have stayed in. */
	CHECK_INT(pmbench_result_read(&r, out), 0);
	how = pmbench_result_env_get(&r, "process_cleanup");
	CHECK(how);
	snprintf(no_cgroup, sizeof(no_cgroup), "%s",
		 strstr(how, "cgroup.kill") ? "" : how);
	pmbench_result_release(&r);

	/* Released: it deletes every batch and records the deletion. */
	h_write("go", "");
	CHECK(h_deleter_done());
	CHECK(!h_alive(pid));
	CHECK_INT(pending(), 0);
	pmbench_workdir_trash(&trash, h_cache());
	CHECK(pmbench_fs_trash_emptied(trash.ptr, NULL, &files));
	CHECK(files >= 2000);
	pmbench_buf_release(&trash);
	/* Out of pmbench's cgroup proves nothing where it had none. */
	if (no_cgroup[0]) {
		/* The note's reason ends its own parenthesis: "(no cgroup: why)". */
		char *why = strstr(no_cgroup, "no cgroup");
		size_t len;

		why = why ? why : no_cgroup;
		len = strlen(why);
		if (len && why[len - 1] == ')')
			why[len - 1] = '\0';
		SKIP("the deleter out of pmbench's cgroup: pmbench had none "
		     "(%s)",
		     why);
	}
}

TEST(next_command_waits_for_the_deleter)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const char *proj, *waiting, *first_run, *note;
	char says[256];
	pid_t pid;
	int rc = 0;

	setup();
	proj = h_project("proj");
	bench(&run, proj, 1);
	CHECK_INT(run.exit_code, 0);
	pid = said_pid(run.out.ptr);
	h_run_release(&run);
	CHECK(pid > 0 && pmbench_deleter_running(h_cache()) == pid);

	pmbench_strvec_push(&c.args, getenv("PMBENCH_BIN"));
	push_args(&c.args, proj);
	push_env(&c.env, 0);
	snprintf(says, sizeof(says),
		 "waiting for pmbench's deletion of what the last command set "
		 "aside (pid %ld) to end before timing",
		 (long)pid);
	h_spare_detached(&c);
	CHECK_INT(pmbench_child_start(&c), 0);
	for (int i = 0; i < 2400 && rc == 0 && !strstr(c.tail.ptr, says); i++)
		rc = pmbench_child_pump(&c, 50 * 1000000ull);
	CHECK_CONTAINS(c.tail.ptr, says);
	/* Waiting: no run timed, and the batch is still the deleter's. */
	CHECK(!strstr(c.tail.ptr, " run 1/1"));
	CHECK(pending() >= 1);
	CHECK_INT(pmbench_deleter_running(h_cache()), pid);

	h_write("go", "");
	while (rc == 0)
		rc = pmbench_child_pump(&c, 50 * 1000000ull);
	CHECK_INT(c.result.exit_code, 0);
	waiting = strstr(c.tail.ptr, says);
	first_run = strstr(c.tail.ptr, " run 1/1");
	CHECK(waiting && first_run && waiting < first_run);
	pmbench_child_release(&c);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	note = pmbench_result_env_get(&r, "inode_reuse_wait");
	CHECK(note && strstr(note, "for pmbench's deletion of what the last "
				   "command set aside"));
	pmbench_result_release(&r);
	CHECK(h_deleter_done());
}

TEST(killed_deleter_leaves_a_trash_the_next_command_finishes)
{
	struct h_run run;
	const char *proj;
	pid_t pid;
	int left;

	setup();
	proj = h_project("proj");
	bench(&run, proj, 1);
	CHECK_INT(run.exit_code, 0);
	pid = said_pid(run.out.ptr);
	h_run_release(&run);
	CHECK(pid > 0 && pmbench_deleter_running(h_cache()) == pid);
	left = pending();
	CHECK(left >= 1);

	CHECK_INT(kill(pid, SIGKILL), 0);
	for (int i = 0; i < 1200 && h_alive(pid); i++)
		pmbench_sleep_ns(50 * 1000000ull);
	CHECK(!h_alive(pid));
	/* Nobody deletes now: its batches wait in the queue. */
	CHECK_INT(pmbench_deleter_running(h_cache()), 0);
	CHECK_INT(pending(), left);

	/* The next command starts a deleter for them, and its own after. */
	bench(&run, proj, 0);
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	CHECK(h_deleter_done());
	CHECK_INT(pending(), 0);
}

/* A bench whose deleter waits `delay` seconds before it deletes. */
static void bench_delayed(int *out_ok, pid_t *out_pid, const char *proj,
			  unsigned delay)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec args = PMBENCH_STRVEC_INIT;
	struct h_run run;
	char says[128];

	*out_pid = 0;
	push_args(&args, proj);
	push_env(&env, 0);
	pmbench_strvec_pushf(&env, "%s=%u", PMBENCH_DELETER_DELAY_ENV, delay);
	h_pmbench(&run, (const char *const *)args.v, &env);
	CHECK_INT(run.exit_code, 0);
	snprintf(says, sizeof(says),
		 "in %u:%02u (m:ss), unless another "
		 "pmbench command takes this work folder first",
		 delay / 60, delay % 60);
	CHECK_CONTAINS(run.out.ptr, says);
	*out_pid = said_pid(run.out.ptr);
	h_run_release(&run);
	pmbench_strvec_release(&args);
	pmbench_strvec_release(&env);
	*out_ok = 1;
}

/*
 * Back to back: the next command stops the deleter still in its delay,
 * times its runs without waiting for any deletion, and the deleter it
 * leaves deletes both commands' trees.
 */
TEST(next_command_puts_a_waiting_deletion_off)
{
	struct pmbench_buf trash = PMBENCH_BUF_INIT;
	struct h_run run;
	const char *proj;
	uint64_t files = 0;
	int waiting = 0, left;
	pid_t pid;

	setup();
	proj = h_project("proj");
	H_CHECK_CALL(bench_delayed, &pid, proj, 600);
	CHECK(pid > 0);
	CHECK_INT(pmbench_deleter_state(h_cache(), &waiting), pid);
	CHECK_INT(waiting, 1);
	left = pending();
	CHECK(left >= 1);

	bench(&run, proj, 0);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "what earlier commands set aside is "
				    "deleted after this one, not before it");
	CHECK(!strstr(run.out.ptr, "waiting for pmbench's deletion"));
	h_run_release(&run);
	/* Stopped before it deleted anything; this one's deleter did it. */
	for (int i = 0; i < 200 && h_alive(pid); i++)
		pmbench_sleep_ns(10 * 1000000ull);
	CHECK(!h_alive(pid));
	CHECK(h_deleter_done());
	CHECK_INT(pending(), 0);
	pmbench_workdir_trash(&trash, h_cache());
	CHECK(pmbench_fs_trash_emptied(trash.ptr, NULL, &files));
	/* Both commands' controls: 2,000 files each, and more. */
	CHECK(files >= 4000);
	pmbench_buf_release(&trash);
}

/* `pmbench wait` ends the deleter's delay: it deletes now. */
TEST(wait_ends_the_delay)
{
	pid_t pid;

	setup();
	H_CHECK_CALL(bench_delayed, &pid, h_project("proj"), 600);
	CHECK(pid > 0 && pmbench_deleter_running(h_cache()) == pid);
	H_CHECK_CALL(h_expect, (const char *const[]){ "wait", NULL }, NULL, 0,
		     "for the deleter (pid ");
	CHECK(!h_alive(pid));
	CHECK_INT(pending(), 0);
}

/*
 * The work folder removed while its deleter waits (a script's clean-up
 * after `--cache-dir /tmp/x`): the deleter finds nothing and makes
 * nothing again there.
 */
TEST(work_folder_removed_meanwhile_stays_removed)
{
	pid_t pid;

	setup();
	H_CHECK_CALL(bench_delayed, &pid, h_project("proj"), 1);
	CHECK(pid > 0);
	CHECK_INT(pmbench_fs_rmtree_unchecked(h_cache()), 0);
	for (int i = 0; i < 1000 && h_alive(pid); i++)
		pmbench_sleep_ns(10 * 1000000ull);
	CHECK(!h_alive(pid));
	CHECK(!pmbench_fs_exists(h_cache()));
}

/*
 * `pmbench wait` returns once the deleter is done and gone (a script may
 * unmount the work folder then), and at once when none is at work.
 */
TEST(wait_returns_when_the_deleter_is_done)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct h_run run;
	pid_t pid;
	int rc = 0;

	setup();
	bench(&run, h_project("proj"), 1);
	CHECK_INT(run.exit_code, 0);
	pid = said_pid(run.out.ptr);
	h_run_release(&run);
	CHECK(pid > 0 && pmbench_deleter_running(h_cache()) == pid);
	pmbench_strvec_pushv(&c.args,
			     (const char *const[]){ getenv("PMBENCH_BIN"),
						    "wait", NULL });
	CHECK_INT(pmbench_child_start(&c), 0);
	/* Held: a second on, it still waits. */
	for (int i = 0; i < 20 && rc == 0; i++)
		rc = pmbench_child_pump(&c, 50 * 1000000ull);
	CHECK_INT(rc, 0);
	CHECK(h_alive(pid));
	h_write("go", "");
	while (rc == 0)
		rc = pmbench_child_pump(&c, 50 * 1000000ull);
	CHECK_INT(c.result.exit_code, 0);
	/* When it returned, the deleter was gone and its queue empty. */
	CHECK(!h_alive(pid));
	CHECK_INT(pending(), 0);
	CHECK_CONTAINS(c.tail.ptr, "for the deleter (pid ");
	pmbench_child_release(&c);
	H_CHECK_CALL(h_expect, (const char *const[]){ "wait", NULL }, NULL, 0,
		     "");
}

CHECK_MAIN(CASE(prompt_returns_before_the_deletion_ends),
	   CASE(next_command_waits_for_the_deleter),
	   CASE(killed_deleter_leaves_a_trash_the_next_command_finishes),
	   CASE(wait_returns_when_the_deleter_is_done),
	   CASE(next_command_puts_a_waiting_deletion_off),
	   CASE(wait_ends_the_delay),
	   CASE(work_folder_removed_meanwhile_stays_removed))
