/*
 * Failures are results: a PM that fails, hangs, crashes or leaves a
 * process behind gives failed-run records with the reason, never a time,
 * and nothing it started is left running.
 */
#include "pmbench/common.h"

#include <signal.h>
#include <stdlib.h>

#include "pmbench/proc.h"

#include "check.h"
#include "harness.h"
#include "pmbench/result.h"

/* Run bench for npm (healthy) and bun (with `mode` once it has a lockfile). */
static int bench_with(struct pmbench_result *r, const char *mode,
		      const char *when, const char *timeout, struct h_run *run)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	const char *proj = h_project("proj");
	char out[4200];

	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	pmbench_strvec_pushf(&env, "FAKEPM_BUN_MODE=%s", mode);
	if (when)
		pmbench_strvec_pushf(&env, "FAKEPM_BUN_WHEN=%s", when);
	pmbench_strvec_pushf(&env, "FAKEPM_PIDFILE=%s", h_write("pidfile", ""));
	{
		const char *args[] = { "bench",
				       "--pm",
				       "npm,bun",
				       "--scenario",
				       "clean,lockfile",
				       "--runs",
				       "2",
				       "--warmup",
				       "0",
				       "--timeout",
				       timeout,
				       "--out",
				       out,
				       proj,
				       NULL };

		h_pmbench(run, args, &env);
	}
	pmbench_strvec_release(&env);
	return pmbench_result_read(r, out);
}

TEST(failing_priming_is_reported)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	struct h_run run;

	h_setup();
	CHECK_INT(bench_with(&r, "fail", NULL, "30s", &run), 0);
	CHECK_INT(run.exit_code, 2);
	c = pmbench_result_find_cell(&r, "proj", "install", "clean", "bun");
	CHECK(c);
	CHECK_INT(c->samples_nr, 0);
	CHECK(c->prime_failure);
	CHECK_CONTAINS(c->prime_failure, "exit 1");
	CHECK_CONTAINS(c->prime_failure, "install failed on purpose");
	/* The healthy PM is still measured. */
	c = pmbench_result_find_cell(&r, "proj", "install", "clean", "npm");
	CHECK(c);
	CHECK_INT(pmbench_cell_failures(c), 0);
	CHECK_INT(c->samples_nr, 2);
	/* And the table says so. */
	CHECK_CONTAINS(run.out.ptr, "install failed on purpose");
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(failing_runs_are_failures_not_times)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	struct h_run run;

	h_setup();
	CHECK_INT(bench_with(&r, "fail", "lockfile", "30s", &run), 0);
	CHECK_INT(run.exit_code, 2);
	/* A failed bench's result still records its options as given. */
	CHECK_INT(r.arguments.nr, 6);
	CHECK_STR(r.arguments.v[0], "--pm=npm,bun");
	CHECK_STR(r.arguments.v[2], "--runs=2");
	CHECK(!strncmp(r.arguments.v[5], "--out=/", 7));
	c = pmbench_result_find_cell(&r, "proj", "install", "lockfile", "bun");
	CHECK(c);
	CHECK_INT(c->samples_nr, 2);
	for (size_t i = 0; i < c->samples_nr; i++) {
		CHECK(!c->samples[i].ok);
		CHECK_INT(c->samples[i].exit_code, 1);
		CHECK_CONTAINS(c->samples[i].failure,
			       "install failed on purpose");
		CHECK_CONTAINS(c->samples[i].tail, "ERR!");
	}
	{
		size_t n = 1;
		double *t = pmbench_cell_times(c, &n);

		free(t);
		CHECK_INT(n, 0);
	}
	/* Without a lockfile the same PM works. */
	c = pmbench_result_find_cell(&r, "proj", "install", "clean", "bun");
	CHECK(c);
	CHECK_INT(pmbench_cell_failures(c), 0);
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(hanging_pm_times_out_and_leaves_nothing)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	struct h_run run;
	long pid;

	h_setup();
	CHECK_INT(bench_with(&r, "hang-escape", "lockfile", "1s", &run), 0);
	CHECK_INT(run.exit_code, 2);
	/* A failed bench's result still records its options as given. */
	CHECK_INT(r.arguments.nr, 6);
	CHECK_STR(r.arguments.v[0], "--pm=npm,bun");
	CHECK_STR(r.arguments.v[2], "--runs=2");
	CHECK(!strncmp(r.arguments.v[5], "--out=/", 7));
	c = pmbench_result_find_cell(&r, "proj", "install", "lockfile", "bun");
	CHECK(c);
	CHECK_INT(c->samples_nr, 2);
	CHECK(c->samples[0].timed_out);
	CHECK(!c->samples[0].ok);
	CHECK_CONTAINS(c->samples[0].failure, "timed out");
	/* The grandchild that left the process group is gone too. */
	pid = h_read_pid(check_path("pidfile"));
	CHECK(pid > 0);
	CHECK(!h_alive(pid));
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(crash_is_recorded_with_its_signal)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	struct h_run run;

	h_setup();
	CHECK_INT(bench_with(&r, "crash", "lockfile", "30s", &run), 0);
	c = pmbench_result_find_cell(&r, "proj", "install", "lockfile", "bun");
	CHECK(c);
	CHECK(c->samples_nr >= 1);
	CHECK_INT(c->samples[0].signal, 11);
	CHECK_INT(c->samples[0].exit_code, -1);
	CHECK_CONTAINS(c->samples[0].failure, "signal 11");
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(leftover_process_is_counted_and_killed)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	struct h_run run;
	long pid;

	h_setup();
	CHECK_INT(bench_with(&r, "leak", "lockfile", "30s", &run), 0);
	CHECK_INT(run.exit_code, 0);
	c = pmbench_result_find_cell(&r, "proj", "install", "lockfile", "bun");
	CHECK(c);
	CHECK(c->samples_nr >= 1);
	CHECK(c->samples[0].ok);
	CHECK(c->samples[0].leftover >= 1);
	/* Both timed runs left one process: the table says so. */
	CHECK_INT(c->samples_nr, 2);
	CHECK_INT(c->samples[0].leftover + c->samples[1].leftover, 2);
	CHECK_CONTAINS(run.out.ptr, "bun left 2 processes running after 2 of "
				    "2 runs (stopped by pmbench)");
	/* Without the knob, nothing is left and nothing said. */
	CHECK(!strstr(run.out.ptr, "npm left"));
	pid = h_read_pid(check_path("pidfile"));
	CHECK(pid > 0);
	CHECK(!h_alive(pid));
	pmbench_result_release(&r);
	h_run_release(&run);
}

/*
 * A helper of the PM's that ends by itself just after it (pnpm's
 * watchdog) is no leftover: counted after a grace, not at the exit.
 */
TEST(helper_ending_just_after_the_pm_is_no_leftover)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	struct h_run run;
	long pid;

	h_setup();
	CHECK_INT(bench_with(&r, "brief", "lockfile", "30s", &run), 0);
	CHECK_INT(run.exit_code, 0);
	c = pmbench_result_find_cell(&r, "proj", "install", "lockfile", "bun");
	CHECK(c);
	CHECK_INT(c->samples_nr, 2);
	CHECK(c->samples[0].ok && c->samples[1].ok);
	CHECK_INT(c->samples[0].leftover + c->samples[1].leftover, 0);
	CHECK(!strstr(run.out.ptr, "bun left"));
	pid = h_read_pid(check_path("pidfile"));
	CHECK(pid > 0);
	CHECK(!h_alive(pid));
	pmbench_result_release(&r);
	h_run_release(&run);
}

/*
 * What a benchmark stopped by `sig` must leave (`c` ran it, writing
 * `out`): exit 130, nothing running, the result file with what was
 * measured and bun's run in flight recorded as interrupted (neither a
 * time nor a failure), and a table that says so.
 */
static void check_stopped(int *ok, struct pmbench_child *c, int sig,
			  const char *out, const char *pidfile)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *cell;
	const cJSON *s;
	const char *why;
	cJSON *json;
	int flagged;

	*ok = 0;
	/* The signal comes once bun hangs in the lockfile scenario. */
	H_CHECK_CALL(h_signal, c, pidfile, sig);
	/* What was measured before the signal is in the result file. */
	CHECK_INT(pmbench_result_read(&r, out), 0);
	cell = pmbench_result_find_cell(&r, "proj", "install", "clean", "npm");
	CHECK(cell && cell->samples_nr == 1);
	/* bun's run in flight: interrupted, not bun's failure. */
	cell = pmbench_result_find_cell(&r, "proj", "install", "lockfile",
					"bun");
	CHECK(cell && cell->samples_nr == 1);
	CHECK_INT(pmbench_cell_failures(cell), 0);
	pmbench_result_release(&r);
	json = h_read_json(out);
	s = h_json_sample(json, "install", "lockfile", "bun", 0);
	why = cJSON_GetStringValue(cJSON_GetObjectItem(s, "failure"));
	flagged = cJSON_IsTrue(cJSON_GetObjectItem(s, "interrupted")) &&
		  cJSON_IsFalse(cJSON_GetObjectItem(s, "ok")) && why &&
		  strstr(why, "interrupted");
	cJSON_Delete(json);
	CHECK(flagged);
	/* The table says so, and calls nothing a failure. */
	CHECK_CONTAINS(c->tail.ptr, "interrupted before a run finished");
	CHECK(!strstr(c->tail.ptr, "unknown"));
	CHECK(!strstr(c->tail.ptr, "failed"));
	*ok = 1;
}

/*
 * Start bench with bun hanging (its grandchild escaping the group) in the
 * lockfile scenario, stop pmbench with `sig` and check what it left.
 * Whatever happened, nothing the test started is left running.
 */
static void stopped_by(int *ok, int sig)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	const char *proj;
	char out[4200], pidfile[4200];

	*ok = 0;
	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	snprintf(pidfile, sizeof(pidfile), "%s", h_write("pidfile", ""));
	pmbench_strvec_push(&c.args, getenv("PMBENCH_BIN"));
	pmbench_strvec_pushv(
		&c.args,
		(const char *const[]){ "bench", "--pm", "npm,bun", "--scenario",
				       "clean,lockfile", "--runs", "1",
				       "--warmup", "0", "--no-control", "--out",
				       out, proj, NULL });
	pmbench_strvec_push(&c.env, "FAKEPM_BUN_MODE=hang-escape");
	pmbench_strvec_push(&c.env, "FAKEPM_BUN_WHEN=lockfile");
	pmbench_strvec_pushf(&c.env, "FAKEPM_PIDFILE=%s", pidfile);
	check_stopped(ok, &c, sig, out, pidfile);
	/* An escaped process pmbench left is ours now (a subreaper). */
	pmbench_child_kill_tree(&c);
	pmbench_child_release(&c);
}

/*
 * npm ends every failure with the path of its debug log, a line with
 * "error" in it; the reason must be the line that names the cause, and
 * the log line stays in the tail.
 */
TEST(npm_failure_reason_names_the_cause)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	const struct pmbench_cell *c;
	struct h_run run;
	const char *proj;
	char out[4200];

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	pmbench_strvec_push(&env, "FAKEPM_NPM_MODE=fail-npm");
	pmbench_strvec_push(&env, "FAKEPM_NPM_WHEN=lockfile");
	{
		const char *args[] = { "bench",	     "--pm",	 "npm",
				       "--scenario", "lockfile", "--runs",
				       "1",	     "--warmup", "0",
				       "--timeout",  "30s",	 "--out",
				       out,	     proj,	 NULL };

		h_pmbench(&run, args, &env);
	}
	CHECK_INT(run.exit_code, 2);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	c = pmbench_result_find_cell(&r, "proj", "install", "lockfile", "npm");
	CHECK(c);
	CHECK_INT(c->samples_nr, 1);
	CHECK(!c->samples[0].ok);
	CHECK_CONTAINS(c->samples[0].failure, "exit 1: npm error code ETARGET");
	CHECK(!strstr(c->samples[0].failure, "complete log"));
	CHECK_CONTAINS(c->samples[0].failure,
		       "hint: a version named in package.json is not in the "
		       "registry");
	CHECK_CONTAINS(c->samples[0].tail, "A complete log of this run");
	CHECK_CONTAINS(run.out.ptr, "npm error code ETARGET");
	pmbench_strvec_release(&env);
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(ctrl_c_stops_everything_and_keeps_the_result)
{
	H_CHECK_CALL(stopped_by, SIGINT);
}

/* `timeout 10m pmbench bench ...`: the caller's SIGTERM, the same way. */
TEST(sigterm_is_an_interruption_too)
{
	H_CHECK_CALL(stopped_by, SIGTERM);
}

/* The terminal closed: SIGHUP, the same way. */
TEST(sighup_is_an_interruption_too)
{
	H_CHECK_CALL(stopped_by, SIGHUP);
}

/* Ctrl-\\ (SIGQUIT), the same way. */
TEST(sigquit_is_an_interruption_too)
{
	H_CHECK_CALL(stopped_by, SIGQUIT);
}

/*
 * A closed terminal may send SIGHUP twice (the kernel, then the shell
 * passing it on): the second must not cut pmbench's cleanup short. bun
 * ignores SIGTERM, so the stop waits out the grace period; the second
 * SIGHUP comes during it.
 */
static void hup_twice(int *ok, struct pmbench_child *c, const char *out)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *cell;
	size_t seen = 0;
	cJSON *log, *bun;

	*ok = 0;
	CHECK_INT(pmbench_child_start(c), 0);
	/* Priming, clean, then the lockfile run that ignores SIGTERM. */
	for (int i = 0; i < 600 && seen < 3 && !c->result.exited; i++) {
		pmbench_child_pump(c, 50 * 1000000ull);
		log = h_log_entries();
		bun = h_log_of(log, "bun");
		seen = (size_t)cJSON_GetArraySize(bun);
		cJSON_Delete(bun);
		cJSON_Delete(log);
	}
	CHECK_INT(seen, 3);
	/* Let it get to ignoring SIGTERM (a wait, not a measurement). */
	pmbench_child_pump(c, 300 * 1000000ull);
	kill(c->pid, SIGHUP);
	pmbench_child_pump(c, 300 * 1000000ull);
	kill(c->pid, SIGHUP);
	for (int i = 0; i < 600 && !c->result.exited; i++)
		pmbench_child_pump(c, 50 * 1000000ull);
	CHECK(c->result.exited);
	CHECK_INT(c->result.signal, 0);
	CHECK_INT(c->result.exit_code, 130);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	cell = pmbench_result_find_cell(&r, "proj", "install", "lockfile",
					"bun");
	CHECK(cell && cell->samples_nr == 1);
	CHECK_INT(pmbench_cell_failures(cell), 0);
	pmbench_result_release(&r);
	*ok = 1;
}

TEST(repeated_sighup_does_not_cut_the_cleanup_short)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	const char *proj;
	char out[4200];
	pid_t *pids;
	size_t left;
	int ok = 0;

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	pmbench_strvec_push(&c.args, getenv("PMBENCH_BIN"));
	pmbench_strvec_pushv(
		&c.args,
		(const char *const[]){ "bench", "--pm", "bun", "--scenario",
				       "clean,lockfile", "--runs", "1",
				       "--warmup", "0", "--no-control", "--out",
				       out, proj, NULL });
	pmbench_strvec_push(&c.env, "FAKEPM_BUN_MODE=ignore-term");
	pmbench_strvec_push(&c.env, "FAKEPM_BUN_WHEN=lockfile");
	hup_twice(&ok, &c, out);
	/* pmbench's own cleanup left nothing; then ours, whatever failed. */
	left = pmbench_proc_descendants(&pids);
	free(pids);
	pmbench_child_kill_tree(&c);
	pmbench_child_release(&c);
	CHECK(ok);
	CHECK_INT(left, 0);
}

CHECK_MAIN(CASE(failing_priming_is_reported),
	   CASE(failing_runs_are_failures_not_times),
	   CASE(npm_failure_reason_names_the_cause),
	   CASE(hanging_pm_times_out_and_leaves_nothing),
	   CASE(crash_is_recorded_with_its_signal),
	   CASE(leftover_process_is_counted_and_killed),
	   CASE(helper_ending_just_after_the_pm_is_no_leftover),
	   CASE(ctrl_c_stops_everything_and_keeps_the_result),
	   CASE(sigterm_is_an_interruption_too),
	   CASE(sighup_is_an_interruption_too),
	   CASE(sigquit_is_an_interruption_too),
	   CASE(repeated_sighup_does_not_cut_the_cleanup_short))
