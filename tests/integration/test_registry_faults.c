/*
 * What a run depends on failing under it (issue 24): the local mirror's
 * verdaccio killed while priming (said at once, not after the run
 * timeout) or while sealed (the runs go on from the front's memory); the
 * work folder's disk filling up (the run stopped and failed "disk full",
 * with what to do); and registry requests that fail or go upstream in a
 * timed run (a failed run with the requests, never a time), with the
 * priming that keeps a run without a lockfile from needing them.
 *
 * The bound on "at once" is a share of the run timeout: pmbench must end
 * by itself while the test waits a tenth of the --timeout it was given.
 */
#include "pmbench/common.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmbench/fs.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"

#include "check.h"
#include "harness.h"

/*
 * The runs' timeout (--timeout): far above what a fake run takes on a
 * loaded machine, well below ctest's 600 s for the whole test, so that
 * a pmbench that waits for it says "timed out" and the case fails on
 * that, not on ctest's timeout.
 */
#define RUN_TIMEOUT_S 120

static char pidfile[4200];

/* The environment of a local-mirror run against the fake verdaccio. */
static void mirror_env(struct pmbench_strvec *env)
{
	const char *fake = getenv("PMBENCH_FAKEREGISTRY");

	snprintf(pidfile, sizeof(pidfile), "%s", h_write("registry.pids", ""));
	pmbench_strvec_push(env, "PMBENCH_REGISTRY=local");
	pmbench_strvec_pushf(env, "PMBENCH_VERDACCIO=%s", fake ? fake : "");
	pmbench_strvec_pushf(env, "FAKEREGISTRY_PIDFILE=%s", pidfile);
}

/* The `n`th verdaccio started (1: priming, 2: sealed), or -1. */
static long mirror_pid(int n)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	long pid = -1;

	if (pmbench_fs_read(&b, pidfile, 1 << 16) == 0) {
		pmbench_strvec_split(&v, b.ptr, '\n');
		if ((size_t)n <= v.nr && *v.v[n - 1])
			pid = strtol(v.v[n - 1], NULL, 10);
	}
	pmbench_error_clear();
	pmbench_strvec_release(&v);
	pmbench_buf_release(&b);
	return pid;
}

/* Installs the fake PMs started so far (pmbench's own config asks aside). */
static int installs(void)
{
	cJSON *all = h_log_entries(), *e;
	int n = 0;

	pmbench_error_clear();
	cJSON_ArrayForEach(e, all)
	{
		const char *cmd = cJSON_GetStringValue(
			cJSON_GetArrayItem(cJSON_GetObjectItem(e, "argv"), 0));

		n += !cmd || strcmp(cmd, "config");
	}
	cJSON_Delete(all);
	return n;
}

/* Start `c`, then pump it until `installs()` reaches `n` (or it ends). */
static int start_until_installs(struct pmbench_child *c, int n)
{
	int rc = 0;

	if (pmbench_child_start(c) < 0)
		return -1;
	for (int i = 0; i < 1200 && rc == 0 && installs() < n; i++)
		rc = pmbench_child_pump(c, 50 * 1000000ull);
	return rc == 0 && installs() >= n ? 0 : -1;
}

/*
 * Pump `c` until it ends: 1 if it did (its seconds since `t0` into
 * *out_s, for the log), 0 if it outlived even twice its runs' timeout;
 * then it is stopped with SIGTERM, so that it stops its own children (a
 * SIGKILL at the test's exit would leave them). No time is asserted:
 * that it ended at once, not by its timeout, is in what it says (the
 * cases check that it never says "timed out").
 */
static int ends_by_itself(struct pmbench_child *c, uint64_t t0, double *out_s)
{
	uint64_t bound = 2ull * RUN_TIMEOUT_S * 1000000000ull;
	int rc = 0;

	while (rc == 0 && pmbench_now_ns() - t0 < bound)
		rc = pmbench_child_pump(c, 50 * 1000000ull);
	*out_s = (double)(pmbench_now_ns() - t0) / 1e9;
	if (rc == 1)
		return 1;
	kill(c->pid, SIGTERM);
	for (int i = 0; i < 600 && pmbench_child_pump(c, 50000000ull) == 0; i++)
		;
	return 0;
}

static void bench_child(struct pmbench_child *c, const char *scenario,
			const char *out, const char *proj)
{
	char timeout[32];

	snprintf(timeout, sizeof(timeout), "%ds", RUN_TIMEOUT_S);
	pmbench_strvec_push(&c->args, getenv("PMBENCH_BIN"));
	pmbench_strvec_pushv(
		&c->args, (const char *const[]){
				  "bench", "--pm", "npm", "--scenario",
				  scenario, "--runs", "1", "--warmup", "0",
				  "--no-control", "--no-progress", "--timeout",
				  timeout, "--out", out, proj, NULL });
	mirror_env(&c->env);
	c->tail_max = 1u << 20;
}

/* Whether `pid` is a zombie (ended, not reaped by its parent). */
static int zombie(long pid)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	char path[64];
	const char *end;
	int z = 0;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (pmbench_fs_read(&b, path, 4096) == 0) {
		end = strrchr(b.ptr, ')');
		z = end && end[1] == ' ' && end[2] == 'Z';
	}
	pmbench_error_clear();
	pmbench_buf_release(&b);
	return z;
}

/* Pump `c` until its output holds `what` (or it ends, or 60 s pass). */
static int pump_until_said(struct pmbench_child *c, const char *what)
{
	int rc = 0;

	for (int i = 0; i < 1200 && rc == 0 && !strstr(c->tail.ptr, what); i++)
		rc = pmbench_child_pump(c, 50 * 1000000ull);
	return strstr(c->tail.ptr, what) != NULL;
}

TEST(mirror_killed_while_priming_is_said_at_once)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	const char *proj;
	char out[4200], want[200];
	uint64_t t0;
	double took = 0;
	long pid;

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	bench_child(&c, "clean", out, proj);
	/* npm's priming waits for the registry, as a PM retrying would. */
	pmbench_strvec_push(&c.env, "FAKEPM_NPM_MODE=hang");
	CHECK_INT(start_until_installs(&c, 1), 0);
	pid = mirror_pid(1);
	CHECK(pid > 0 && h_alive(pid));
	t0 = pmbench_now_ns();
	CHECK_INT(kill((pid_t)pid, SIGKILL), 0);
	CHECK(ends_by_itself(&c, t0, &took));
	fprintf(stderr, "dead mirror: said %.2f s after the kill\n", took);
	CHECK_INT(c.result.exit_code, 1);
	snprintf(want, sizeof(want),
		 "pmbench: error: npm's priming was stopped: the local "
		 "registry mirror (verdaccio, pid %ld) ended: killed by "
		 "signal 9",
		 pid);
	CHECK_CONTAINS(c.tail.ptr, want);
	CHECK_CONTAINS(c.tail.ptr, "--registry live");
	CHECK(!strstr(c.tail.ptr, "timed out"));
	CHECK(!strstr(c.tail.ptr, "results written"));
	pmbench_child_release(&c);
	/* The hanging npm went with it. */
	{
		pid_t *left = NULL;
		size_t n = pmbench_proc_descendants(&left);

		free(left);
		CHECK_INT((int)n, 0);
	}
}

TEST(mirror_killed_while_sealed_lets_the_runs_go_on)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *cell;
	const char *proj;
	char out[4200];
	double took = 0;
	long pid;

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	bench_child(&c, "lockfile", out, proj);
	/* The timed run (it finds its lockfile) takes a while. */
	pmbench_strvec_push(&c.env, "FAKEPM_NPM_SLEEP_MS=3000");
	pmbench_strvec_push(&c.env, "FAKEPM_NPM_FETCH=/left-pad");
	CHECK_INT(start_until_installs(&c, 2), 0);
	/* The priming's verdaccio, stopped at the seal, was reaped. */
	CHECK(mirror_pid(1) > 0 && !zombie(mirror_pid(1)));
	pid = mirror_pid(2);
	CHECK(pid > 0);
	CHECK_INT(kill((pid_t)pid, SIGKILL), 0);
	/* Once its end is noticed, it is reaped: no zombie while runs go on. */
	CHECK(pump_until_said(&c, "warning: the sealed registry mirror"));
	CHECK(!zombie(pid));
	CHECK(ends_by_itself(&c, pmbench_now_ns(), &took));
	CHECK_INT(c.result.exit_code, 0);
	CHECK(!strstr(c.tail.ptr, "timed out"));
	CHECK_CONTAINS(c.tail.ptr, "warning: the sealed registry mirror "
				   "(verdaccio, pid ");
	CHECK_CONTAINS(c.tail.ptr, "the front still answers what the "
				   "primings fetched");
	pmbench_child_release(&c);
	/* Its packument came from the front's memory: a time. */
	CHECK_INT(pmbench_result_read(&r, out), 0);
	cell = pmbench_result_find_cell(&r, "proj", "install", "lockfile",
					"npm");
	CHECK(cell && cell->samples_nr == 1 && cell->samples[0].ok);
	pmbench_result_release(&r);
}

/*
 * The full-disk script: a tmpfs in a private mount namespace holds the
 * work folder; npm fills it (in its timed run, then in its priming)
 * and waits for space, as bun did. Each bench has `timeout` twice the
 * run timeout around it (exit 124 if that ends it).
 */
static const char full_script[] =
	"set -u\n"
	"mnt=$1 bin=$2 proj=$3 res=$4 cap=$5 run=$6\n"
	": > \"$res/started\"\n"
	"mount -t tmpfs -o size=16m pmbench-test \"$mnt\" || exit 77\n"
	"bench() {\n"
	"  timeout \"$cap\" \"$bin\" --cache-dir \"$mnt/cache\" bench "
	"--pm npm,bun --scenario lockfile --runs 1 --warmup 0 "
	"--no-control --no-progress --timeout \"$run\" "
	"--out \"$res/$1.json\" \"$proj\" > \"$res/$1.out\" 2>&1\n"
	"  echo $? > \"$res/$1.rc\"\n"
	"}\n"
	"FAKEPM_NPM_MODE=fill FAKEPM_NPM_WHEN=lockfile bench run\n"
	"FAKEPM_NPM_MODE=fill bench priming\n"
	"umount \"$mnt\"\n";

/* What both full-disk benches must say, `mnt` the tmpfs. */
static void said_disk_full(int *out_ok, const char *res, const char *which,
			   const char *mnt)
{
	struct pmbench_buf t = PMBENCH_BUF_INIT, want = PMBENCH_BUF_INIT;

	*out_ok = 0;
	pmbench_buf_addf(&want, "%s.rc", which);
	CHECK_INT(h_read_in(&t, res, want.ptr), 0);
	/* Ended by itself (not 124), a failed run or priming: 2. */
	CHECK_STR(t.ptr, "2\n");
	pmbench_buf_reset(&want);
	pmbench_buf_addf(&want, "%s.out", which);
	CHECK_INT(h_read_in(&t, res, want.ptr), 0);
	fprintf(stderr, "--- disk full (%s):\n%s---\n", which, t.ptr);
	pmbench_buf_reset(&want);
	pmbench_buf_addf(&want, "MB free on %s (tmpfs)", mnt);
	CHECK_CONTAINS(t.ptr, want.ptr);
	CHECK_CONTAINS(t.ptr, "warning: disk full: ");
	CHECK_CONTAINS(t.ptr, "free space there, or give --cache-dir a "
			      "folder on a file system with more room");
	CHECK(!strstr(t.ptr, "timed out"));
	/* bun, after it, found room again and was measured. */
	CHECK_CONTAINS(t.ptr, "lockfile bun run 1/1: ");
	pmbench_buf_release(&t);
	pmbench_buf_release(&want);
	*out_ok = 1;
}

TEST(full_disk_stops_the_run_and_says_so)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf t = PMBENCH_BUF_INIT;
	const struct pmbench_cell *cell;
	char mnt[4200], script[4200], res[4200], proj[4200], cap[32], run[32];

	h_setup();
	snprintf(proj, sizeof(proj), "%s", h_project("proj"));
	snprintf(mnt, sizeof(mnt), "%s", check_path("small"));
	snprintf(res, sizeof(res), "%s", check_path("res"));
	CHECK_INT(mkdir(mnt, 0755), 0);
	CHECK_INT(mkdir(res, 0755), 0);
	snprintf(script, sizeof(script), "%s", h_write("full.sh", full_script));
	/* A bench that outlives its own timeout is stopped (exit 124). */
	snprintf(cap, sizeof(cap), "%d", 2 * RUN_TIMEOUT_S);
	snprintf(run, sizeof(run), "%ds", RUN_TIMEOUT_S);
	if (!h_unshared(&c, res, script,
			(const char *const[]){ mnt, getenv("PMBENCH_BIN"), proj,
					       res, cap, run, NULL }))
		goto done;
	CHECK_INT(c.result.exit_code, 0);
	H_CHECK_CALL(said_disk_full, res, "run", mnt);
	H_CHECK_CALL(said_disk_full, res, "priming", mnt);

	/* The timed run: failed, with the reason, never a time. */
	CHECK_INT(h_read_in(&t, res, "run.out"), 0);
	CHECK_CONTAINS(t.ptr, "lockfile npm round 1/1 failed: disk full: ");
	pmbench_buf_reset(&t);
	pmbench_buf_path(&t, res, "run.json");
	CHECK_INT(pmbench_result_read(&r, t.ptr), 0);
	cell = pmbench_result_find_cell(&r, "proj", "install", "lockfile",
					"npm");
	CHECK(cell && cell->samples_nr == 1 && !cell->samples[0].ok);
	CHECK_CONTAINS(cell->samples[0].failure, "disk full: ");
	pmbench_result_release(&r);

	/* The priming: the cell says so. */
	pmbench_buf_reset(&t);
	pmbench_buf_path(&t, res, "priming.json");
	CHECK_INT(pmbench_result_read(&r, t.ptr), 0);
	cell = pmbench_result_find_cell(&r, "proj", "install", "lockfile",
					"npm");
	CHECK(cell && cell->prime_failure);
	CHECK_CONTAINS(cell->prime_failure,
		       "priming install failed: disk full: ");
	pmbench_result_release(&r);
done:
	pmbench_child_release(&c);
	pmbench_buf_release(&t);
}

/* A bench of npm (and yarn) against the fake mirror, with `knobs`. */
static void mirror_bench(struct h_run *run, const char *proj, const char *out,
			 const char *scenarios, const char *const *knobs)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;

	mirror_env(&env);
	pmbench_strvec_pushv(&env, knobs);
	{
		const char *args[] = { "bench",	   "--pm",
				       "npm,yarn", "--scenario",
				       scenarios,  "--runs",
				       "1",	   "--warmup",
				       "0",	   "--no-control",
				       "--out",	   out,
				       proj,	   NULL };

		h_pmbench(run, args, &env);
	}
	pmbench_strvec_release(&env);
}

/* The metric `name` of the only sample of a cell, or -1. */
static double metric_of(const struct pmbench_result *r, const char *scenario,
			const char *pm, const char *name)
{
	const struct pmbench_cell *c =
		pmbench_result_find_cell(r, "proj", "install", scenario, pm);
	double v = -1;

	if (c && c->samples_nr == 1)
		pmbench_sample_metric_get(&c->samples[0], name, &v);
	return v;
}

TEST(a_shipped_lockfile_is_primed_without_too)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const char *proj, *rec;
	char out[4200];
	struct h_run run;
	/*
	 * npm asks for left-pad with its lockfile and also for is-odd
	 * without one (a resolution): the shipped lockfile's priming never
	 * asks for is-odd.
	 */
	const char *const knobs[] = { "FAKEPM_NPM_FETCH=/left-pad",
				      "FAKEPM_NPM_FETCH_FRESH=/is-odd", NULL };

	h_setup();
	proj = h_project("proj");
	h_write("proj/package-lock.json",
		"{ \"lockfileVersion\": 3, \"_\": \"generated by fakepm "
		"npm\" }\n");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	mirror_bench(&run, proj, out, "clean,cache,lockfile", knobs);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "priming:   a PM whose lockfile a fixture "
				    "ships is primed once more without it, "
				    "for clean, cache");
	CHECK_CONTAINS(run.out.ptr, "npm: primed again without a lockfile in ");
	CHECK_CONTAINS(run.out.ptr, "the primings without a lockfile added ");
	/* yarn's priming had no lockfile to start from: once is enough. */
	CHECK(!strstr(run.out.ptr, "yarn: primed again"));
	CHECK_INT(pmbench_result_read(&r, out), 0);
	/* The clean run asked for both, and both came from memory. */
	CHECK(metric_of(&r, "clean", "npm", "registry_meta_requests") == 2);
	CHECK(metric_of(&r, "clean", "npm", "registry_fallback_requests") == 0);
	CHECK(metric_of(&r, "cache", "npm", "registry_fallback_requests") == 0);
	CHECK(metric_of(&r, "lockfile", "npm", "registry_meta_requests") == 1);
	rec = pmbench_result_env_get(&r, "priming_without_lockfile");
	CHECK(rec && strstr(rec, "npm ") && !strstr(rec, "yarn"));
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(failed_or_upstream_requests_make_a_failed_run)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	const char *proj;
	char out[4200];
	struct h_run run;
	/*
	 * yarn asks for a package the sealed mirror asks its uplink for: a
	 * failed run. npm asks for one the registry does not have (404,
	 * which it warns about and goes on), as its priming did: the
	 * registry's own answer, kept and served again (pnpm asks so for a
	 * workspace's own packages), so npm's run is a measurement.
	 */
	const char *const knobs[] = { "FAKEPM_NPM_FETCH=/left-pad,/missing-x",
				      "FAKEPM_YARN_FETCH=/uplink-y", NULL };

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	mirror_bench(&run, proj, out, "clean", knobs);
	/* Finished, with a failed run. */
	CHECK_INT(run.exit_code, 2);
	CHECK_CONTAINS(run.out.ptr, "proj clean yarn round 1/1 failed: "
				    "registry: 1 of 1 requests failed, 1 sent "
				    "upstream");
	CHECK_CONTAINS(run.out.ptr, "proj clean npm run 1/1: ");
	/* The table shows the failure, not a time. */
	CHECK_CONTAINS(run.out.ptr, "yarn  failed (1 of 1 runs): registry: ");
	CHECK(!strstr(run.out.ptr, "clean yarn run 1/1: "));
	CHECK_INT(pmbench_result_read(&r, out), 0);
	c = pmbench_result_find_cell(&r, "proj", "install", "clean", "yarn");
	CHECK(c && c->samples_nr == 1 && !c->samples[0].ok);
	CHECK_CONTAINS(c->samples[0].failure, "registry: 1 of 1 requests "
					      "failed");
	CHECK_INT(pmbench_cell_failures(c), 1);
	/* npm's primed 404 came from the front, not counted as failed. */
	c = pmbench_result_find_cell(&r, "proj", "install", "clean", "npm");
	CHECK(c && c->samples_nr == 1 && c->samples[0].ok);
	CHECK(metric_of(&r, "clean", "npm", "registry_meta_requests") == 2);
	CHECK(metric_of(&r, "clean", "npm", "registry_fallback_requests") == 0);
	pmbench_result_release(&r);
	h_run_release(&run);
}

CHECK_MAIN(CASE(mirror_killed_while_priming_is_said_at_once),
	   CASE(mirror_killed_while_sealed_lets_the_runs_go_on),
	   CASE(full_disk_stops_the_run_and_says_so),
	   CASE(a_shipped_lockfile_is_primed_without_too),
	   CASE(failed_or_upstream_requests_make_a_failed_run))
