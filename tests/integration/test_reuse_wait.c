/*
 * A command started right after another: ext4 without a journal slows
 * file creation for up to 6 minutes after the first one's deletion, so
 * the second waits that out before its first timed run, says so and
 * records it in the result; --no-fs-wait times at once and says what it
 * did not wait for. The delay is forced with the test knob (seconds), so
 * the test behaves the same on any file system; a signal during the
 * wait stops pmbench as during a run.
 */
#include "pmbench/common.h"

#include <signal.h>

#include "check.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"

/* One bench with the drift control, whose copies fill the trash. */
static void push_args(struct pmbench_strvec *v, const char *proj,
		      const char *out)
{
	pmbench_strvec_pushv(
		v, (const char *const[]){ "bench", "--pm", "npm", "--scenario",
					  "clean,lockfile", "--runs", "1",
					  "--warmup", "0", "--out", out, proj,
					  NULL });
}

/* `delay` seconds forced; "600!": and told not to wait for them. */
static void bench(struct h_run *run, const char *proj, const char *out,
		  const char *delay)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec args = PMBENCH_STRVEC_INIT;

	push_args(&args, proj, out);
	if (strchr(delay, '!'))
		pmbench_strvec_push(&args, "--no-fs-wait");
	pmbench_strvec_pushf(&env, "%s=%.*s", PMBENCH_FS_REUSE_DELAY_ENV,
			     (int)strcspn(delay, "!"), delay);
	h_pmbench(run, (const char *const *)args.v, &env);
	pmbench_strvec_release(&args);
	pmbench_strvec_release(&env);
}

static const char *wait_note(struct pmbench_result *r, const char *out)
{
	pmbench_result_release(r);
	if (pmbench_result_read(r, out) < 0)
		return NULL;
	return pmbench_result_env_get(r, "inode_reuse_wait");
}

TEST(second_command_waits_out_the_reuse_delay)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const char *proj, *note;
	char out[4200];
	const char *waiting, *first_run;

	h_setup();
	h_with_control();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	/* A fresh cache: nothing deleted before, nothing to wait for. */
	bench(&run, proj, out, "3");
	CHECK_INT(run.exit_code, 0);
	CHECK(!strstr(run.out.ptr, "waiting"));
	CHECK(!wait_note(&r, out));
	h_run_release(&run);

	/* Its trash (the control's 2,000-file copies) was emptied at exit. */
	bench(&run, proj, out, "3");
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "waiting 0:0");
	CHECK_CONTAINS(run.out.ptr, "(m:ss) before timing: "
				    "PMBENCH_TEST_INODE_REUSE_DELAY=3 slows "
				    "file creation for up to 3 s after a "
				    "deletion, and pmbench deleted ");
	CHECK_CONTAINS(run.out.ptr, "(--no-fs-wait skips this)");
	note = wait_note(&r, out);
	CHECK(note && strstr(note, "before the first run"));
	/* The wait comes before the first run (a state, not a time). */
	waiting = strstr(run.out.ptr, "waiting 0:0");
	first_run = strstr(run.out.ptr, " run 1/1");
	CHECK(waiting && first_run && waiting < first_run);
	h_run_release(&run);

	/* Told not to wait: it does not, and says what it did not wait for. */
	bench(&run, proj, out, "600!");
	CHECK_INT(run.exit_code, 0);
	CHECK(!strstr(run.out.ptr, "waiting "));
	CHECK_CONTAINS(run.out.ptr, "warning: timing at once (--no-fs-wait), "
				    "though PMBENCH_TEST_INODE_REUSE_DELAY=600 "
				    "slows file creation for up to 600 s");
	note = wait_note(&r, out);
	CHECK(note && strstr(note, "not waited (--no-fs-wait)"));
	/* Once, though it runs two scenarios. */
	CHECK(!strstr(strstr(run.out.ptr, "--no-fs-wait), though") + 1,
		      "--no-fs-wait), though"));
	h_run_release(&run);

	/* Where the file system reuses inodes at once: no wait. */
	bench(&run, proj, out, "0");
	CHECK_INT(run.exit_code, 0);
	CHECK(!strstr(run.out.ptr, "waiting"));
	CHECK(!wait_note(&r, out));
	h_run_release(&run);
	pmbench_result_release(&r);
}

/*
 * Stop pmbench with `sig` in the wait, its --out naming a file that holds
 * `{"keep":1}`: 130, nothing left running, and the file as it was (the
 * wait comes after the cells are made, before any run).
 */
static void stop_in_the_wait(int *out_ok, const char *proj, const char *out,
			     int sig)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf kept = PMBENCH_BUF_INIT;
	int rc = 0, ok = 0;

	*out_ok = 0;
	CHECK_INT(pmbench_fs_write_atomic(out, "{\"keep\":1}\n", 11), 0);
	pmbench_strvec_push(&c.args, getenv("PMBENCH_BIN"));
	push_args(&c.args, proj, out);
	pmbench_strvec_pushf(&c.env, "%s=600", PMBENCH_FS_REUSE_DELAY_ENV);
	CHECK_INT(pmbench_child_start(&c), 0);
	for (int i = 0; i < 1200 && rc == 0; i++) {
		rc = pmbench_child_pump(&c, 50 * 1000000ull);
		if (strstr(c.tail.ptr, "waiting "))
			break;
	}
	CHECK_CONTAINS(c.tail.ptr, "waiting ");
	/* Stopped in the wait, as in a run: 130, nothing left. */
	h_stop_with(&ok, &c, sig, (long)c.pid);
	CHECK(ok);
	CHECK(!strstr(c.tail.ptr, "results written"));
	pmbench_child_release(&c);
	CHECK_INT(pmbench_fs_read(&kept, out, 1 << 20), 0);
	CHECK_STR(kept.ptr, "{\"keep\":1}\n");
	pmbench_buf_release(&kept);
	*out_ok = 1;
}

TEST(signal_during_the_wait_stops_pmbench)
{
	struct h_run run;
	const char *proj;
	char out[4200];

	h_setup();
	h_with_control();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	bench(&run, proj, out, "0");
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);

	H_CHECK_CALL(stop_in_the_wait, proj, out, SIGTERM);
	/* Ctrl-C and a closed terminal keep the user's file too. */
	H_CHECK_CALL(stop_in_the_wait, proj, out, SIGINT);
	H_CHECK_CALL(stop_in_the_wait, proj, out, SIGHUP);
}

CHECK_MAIN(CASE(second_command_waits_out_the_reuse_delay),
	   CASE(signal_during_the_wait_stops_pmbench))
