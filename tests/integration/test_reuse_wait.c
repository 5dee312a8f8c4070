/*
 * The wait before the first timed run: on a file system that reuses
 * freed inodes late (ext4 without a journal; forced here with the test
 * knob, seconds, so the test behaves the same on any file system),
 * pmbench runs its control until three in a row are back within the
 * margin of its reference, or the bound, and says what it waited; the
 * first command on a file system makes the reference; --no-fs-wait times
 * at once and says what it did not wait for. The control's figures are
 * forced with their test knob (states, not times). A signal during the
 * wait stops pmbench as during a run.
 */
#include "pmbench/common.h"

#include <signal.h>
#include <sys/prctl.h>

#include "check.h"
#include "harness.h"
#include "pmbench/control.h"
#include "pmbench/deleter.h"
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

/*
 * `delay` seconds forced ("600!": and told not to wait for them), the
 * control's file work reported as `files` (NULL: as measured).
 */
static void bench(struct h_run *run, const char *proj, const char *out,
		  const char *delay, const char *files)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec args = PMBENCH_STRVEC_INIT;

	push_args(&args, proj, out);
	if (strchr(delay, '!'))
		pmbench_strvec_push(&args, "--no-fs-wait");
	pmbench_strvec_pushf(&env, "%s=%.*s", PMBENCH_FS_REUSE_DELAY_ENV,
			     (int)strcspn(delay, "!"), delay);
	if (files)
		pmbench_strvec_pushf(&env, "%s=%s", PMBENCH_CONTROL_FILES_ENV,
				     files);
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

/*
 * Without a subreaper the deleters are re-parented past this program,
 * and no run's clean-up takes them for its own: they finish.
 */
static const char *setup(void)
{
	const char *sandbox = h_setup();

	/* The wait runs the control: these tests are about it. */
	h_with_control();
	prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
	return sandbox;
}

TEST(first_command_makes_the_reference)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_control_ref ref = PMBENCH_CONTROL_REF_INIT;
	struct h_run run;
	const char *proj, *note;
	char out[4200];

	setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	/* A fresh cache: nothing deleted before, nothing to wait for. */
	bench(&run, proj, out, "30", "0.1");
	CHECK_INT(run.exit_code, 0);
	CHECK(!strstr(run.out.ptr, "waiting"));
	note = wait_note(&r, out);
	CHECK(note && strstr(note, "pmbench's control had no reference on "
				   "this file system: 3 controls made it "
				   "0.100 s"));
	pmbench_control_ref_load(&ref, h_cache());
	CHECK_INT((int)ref.nr, 3);
	CHECK(pmbench_control_ref_value(&ref) == 0.1);
	h_run_release(&run);
	CHECK(h_deleter_done());
	pmbench_control_ref_release(&ref);
	pmbench_result_release(&r);
}

/* Two commands: the reference, then the second's wait. */
static void reference_then(int *out_ok, struct h_run *run, const char *proj,
			   const char *out, const char *delay,
			   const char *files)
{
	*out_ok = 0;
	bench(run, proj, out, "30", "0.1");
	CHECK_INT(run->exit_code, 0);
	h_run_release(run);
	/* Its trash (the control's 2,000-file copies) is deleted. */
	CHECK(h_deleter_done());
	bench(run, proj, out, delay, files);
	CHECK_INT(run->exit_code, 0);
	*out_ok = 1;
}

TEST(wait_ends_when_the_control_is_back)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const char *proj, *note, *waiting, *back, *first_run;
	char out[4200];

	setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	/* Slow twice, then back: the wait ends at the fifth control. */
	H_CHECK_CALL(reference_then, &run, proj, out, "30",
		     "0.9,0.9,0.1,0.1,0.1");
	waiting = strstr(run.out.ptr,
			 "waiting for the file system before timing: "
			 "pmbench's control took 0.900 s against its "
			 "reference 0.100 s; PMBENCH_TEST_INODE_REUSE_DELAY=30 "
			 "slows file creation for up to 30 s after a deletion, "
			 "and pmbench deleted ");
	back = strstr(run.out.ptr, "for the file system: pmbench's control "
				   "is back to 0.100 s (reference 0.100 s)");
	first_run = strstr(run.out.ptr, " run 1/1");
	CHECK(waiting && back && first_run);
	CHECK(waiting < back && back < first_run);
	CHECK_CONTAINS(run.out.ptr, "timing starts when 3 controls in a row "
				    "are within 30 % of the reference, in 0:30 "
				    "(m:ss) at most (--no-fs-wait skips this)");
	note = wait_note(&r, out);
	CHECK(note && strstr(note, "pmbench's control took 0.900 s at first "
				   "and 0.100 s at the end against its "
				   "reference 0.100 s (3 in a row within 30 % "
				   "end the wait), 5 controls"));
	CHECK(note && !strstr(note, "the bound"));
	h_run_release(&run);
	CHECK(h_deleter_done());
	pmbench_result_release(&r);
}

/*
 * The wait's controls quiet, the first round's own control slow (as seen
 * on this machine after a large deletion: 3 to 7 times the reference
 * right after three quiet ones): pmbench waits again before any PM runs.
 */
TEST(first_round_control_slow_waits_again)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const char *proj, *note, *again, *back, *first_run;
	char out[4200];

	setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	H_CHECK_CALL(reference_then, &run, proj, out, "30",
		     "0.1,0.1,0.1,0.9,0.9,0.1,0.1,0.1");
	CHECK(!strstr(run.out.ptr, "waiting for the file system before"));
	again = strstr(run.out.ptr,
		       "waiting again for the file system: the first round's "
		       "control took 0.900 s against its reference 0.100 s "
		       "right after the wait; timing starts when 3 controls "
		       "in a row are within 30 % of it");
	back = strstr(run.out.ptr, "more for the file system: pmbench's "
				   "control is back to 0.100 s (reference "
				   "0.100 s)");
	first_run = strstr(run.out.ptr, "clean npm run 1/1");
	CHECK(again && back && first_run);
	CHECK(again < back && back < first_run);
	note = wait_note(&r, out);
	CHECK(note && strstr(note, "the first round's control took 0.900 s "
				   "against the reference 0.100 s right after "
				   "the wait: waited "));
	/* One slow control, then three quiet ones. */
	CHECK(note && strstr(note, "s more, 4 controls, the last 0.100 s"));
	/* Once: the second scenario's first control is not checked again. */
	CHECK(!strstr(again + 1, "waiting again"));
	h_run_release(&run);
	CHECK(h_deleter_done());
	pmbench_result_release(&r);
}

TEST(wait_ends_at_the_bound)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const char *proj, *note;
	char out[4200];

	setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	/* Never back: timed after the bound, and said so. */
	H_CHECK_CALL(reference_then, &run, proj, out, "1", "0.9");
	CHECK_CONTAINS(run.out.ptr, "warning: the file system is still slow "
				    "after ");
	CHECK_CONTAINS(run.out.ptr, "pmbench's control took 0.900 s against "
				    "its reference 0.100 s; timing anyway");
	note = wait_note(&r, out);
	CHECK(note && strstr(note, "waited the bound,"));
	h_run_release(&run);
	CHECK(h_deleter_done());
	pmbench_result_release(&r);
}

TEST(quiet_file_system_waits_nothing)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const char *proj;
	char out[4200];

	setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	/* Back at once: three controls, no wait, nothing to say. */
	H_CHECK_CALL(reference_then, &run, proj, out, "30", "0.12");
	CHECK(!strstr(run.out.ptr, "waiting"));
	CHECK(!wait_note(&r, out));
	h_run_release(&run);
	CHECK(h_deleter_done());

	/* Told not to wait: it does not, and says what it did not wait for. */
	bench(&run, proj, out, "600!", "0.9");
	CHECK_INT(run.exit_code, 0);
	CHECK(!strstr(run.out.ptr, "waiting "));
	CHECK_CONTAINS(run.out.ptr, "warning: timing at once (--no-fs-wait), "
				    "though PMBENCH_TEST_INODE_REUSE_DELAY=600 "
				    "slows file creation for up to 600 s");
	CHECK(wait_note(&r, out) &&
	      strstr(wait_note(&r, out), "not waited (--no-fs-wait)"));
	/* Once, though it runs two scenarios. */
	CHECK(!strstr(strstr(run.out.ptr, "--no-fs-wait), though") + 1,
		      "--no-fs-wait), though"));
	h_run_release(&run);
	CHECK(h_deleter_done());

	/* Where the file system reuses inodes at once: no control, no wait. */
	bench(&run, proj, out, "0", "0.9");
	CHECK_INT(run.exit_code, 0);
	CHECK(!strstr(run.out.ptr, "waiting"));
	CHECK(!wait_note(&r, out));
	h_run_release(&run);
	CHECK(h_deleter_done());
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
	pmbench_strvec_pushf(&c.env, "%s=5", PMBENCH_CONTROL_FILES_ENV);
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
	CHECK(h_deleter_done());
	*out_ok = 1;
}

TEST(signal_during_the_wait_stops_pmbench)
{
	struct h_run run;
	const char *proj;
	char out[4200];

	setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	bench(&run, proj, out, "30", "0.1");
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	CHECK(h_deleter_done());

	H_CHECK_CALL(stop_in_the_wait, proj, out, SIGTERM);
	/* Ctrl-C and a closed terminal keep the user's file too. */
	H_CHECK_CALL(stop_in_the_wait, proj, out, SIGINT);
	H_CHECK_CALL(stop_in_the_wait, proj, out, SIGHUP);
}

CHECK_MAIN(CASE(first_command_makes_the_reference),
	   CASE(wait_ends_when_the_control_is_back),
	   CASE(first_round_control_slow_waits_again),
	   CASE(wait_ends_at_the_bound), CASE(quiet_file_system_waits_nothing),
	   CASE(signal_during_the_wait_stops_pmbench))
