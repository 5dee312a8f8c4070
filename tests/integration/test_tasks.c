/*
 * The run and build tasks with the fake PMs: the bare `node -e 0`
 * baseline, each PM's overhead over it, the fixture's own scripts, build
 * output measured and a build that wrote nothing failed, build output
 * cleared between runs, and priming failures carried into the task
 * cells. Only ratios of times are asserted.
 */
#include "pmbench/common.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "check.h"
#include "harness.h"
#include "pmbench/result.h"
#include "pmbench/stats.h"

#define SC "cache+lockfile+node_modules"

/*
 * A project with package.json `pkg` and a manifest for it (plus
 * `manifest_extra`), then `pmbench bench` of `tasks` for `pms`: it must
 * exit with `exit_code` and leave a result, read into `r`.
 */
static void bench_tasks(int *out, struct pmbench_result *r, struct h_run *run,
			const char *pkg, const char *manifest_extra,
			const char *pms, const char *tasks,
			const struct pmbench_strvec *env, int exit_code)
{
	struct pmbench_buf man = PMBENCH_BUF_INIT;
	char proj[4200], mpath[4200], result[4200];

	*out = 0;
	h_write("tproj/package.json", pkg);
	snprintf(proj, sizeof(proj), "%s", check_path("tproj"));
	pmbench_buf_addf(&man, "{ \"name\": \"tproj\", \"repo\": \"%s\"%s }\n",
			 proj, manifest_extra);
	snprintf(mpath, sizeof(mpath), "%s", h_write("tproj.json", man.ptr));
	snprintf(result, sizeof(result), "%s", h_write("result.json", ""));
	{
		const char *args[] = { "bench", "--pm",	     pms,   "--task",
				       tasks,	"--runs",    "3",   "--warmup",
				       "1",	"--timeout", "60s", "--out",
				       result,	mpath,	     NULL };

		h_pmbench(run, args, env);
	}
	pmbench_buf_release(&man);
	CHECK_INT(pmbench_result_read(r, result), 0);
	CHECK_INT(run->exit_code, exit_code);
	*out = 1;
}

static const struct pmbench_cell *cell(const struct pmbench_result *r,
				       const char *task, const char *pm)
{
	return pmbench_result_find_cell(r, "tproj", task, SC, pm);
}

static double median(const struct pmbench_cell *c)
{
	size_t n = 0;
	double *t, m;

	if (!c)
		return -1;
	t = pmbench_cell_times(c, &n);
	m = n == 3 ? pmbench_stats_median(t, n) : -1;
	free(t);
	return m;
}

/* Four good runs (a warm-up and three timed). */
static void all_ok(int *out, const struct pmbench_cell *c)
{
	*out = 0;
	CHECK(c);
	CHECK_INT(c->samples_nr, 4);
	CHECK_INT(pmbench_cell_failures(c), 0);
	*out = 1;
}

/* No runs: priming failed, and the cell says `says`. */
static void not_primed(int *out, const struct pmbench_cell *c, const char *says)
{
	*out = 0;
	CHECK(c && c->samples_nr == 0);
	CHECK_CONTAINS(c->prime_failure, says);
	*out = 1;
}

/* Four runs of which the three after the first failed, saying `says`. */
static void failed_after_first(int *out, const struct pmbench_cell *c,
			       const char *says)
{
	*out = 0;
	CHECK(c && c->samples_nr == 4);
	CHECK_INT(pmbench_cell_failures(c), 3);
	CHECK_CONTAINS(c->samples[1].failure, says);
	*out = 1;
}

TEST(run_overhead_over_the_bare_command)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const struct pmbench_cell *c;
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	double bare, npm, bun;

	h_setup();
	h_home_markers();
	/*
	 * bun's script runner costs 1.5 s more; npm's nearly nothing (a fake
	 * and a shell, though a loaded machine made that 160 ms once).
	 */
	pmbench_strvec_push(&env, "FAKEPM_BUN_RUN_SLEEP_MS=1500");
	/* pnpm cannot even install: its run cells say so. */
	pmbench_strvec_push(&env, "FAKEPM_PNPM_MODE=fail");
	H_CHECK_CALL(bench_tasks, &r, &run,
		     "{ \"name\": \"tproj\", \"version\": \"1.0.0\", "
		     "\"private\": true, \"scripts\": { \"lint\": "
		     "\"true\" } }\n",
		     ", \"scripts\": [\"lint\"]", "npm,bun,pnpm", "run", &env,
		     2);
	CHECK_STR(r.tasks.v[0], "run");
	CHECK_INT(r.tasks.nr, 1);
	/* No install cells: only run was asked for. */
	CHECK(!pmbench_result_find_cell(&r, "tproj", "install", "clean",
					"npm"));

	/* The baseline ran without any PM, once per round. */
	c = cell(&r, "run", "(node)");
	H_CHECK_CALL(all_ok, c);
	CHECK_STR(c->command.v[0], "node");
	CHECK_STR(c->command.v[1], "-e");
	/* Node's own runner is timed too, or the result says why not. */
	CHECK(cell(&r, "run", "(node --run)") ||
	      pmbench_result_env_get(&r, "node_run_baseline"));

	c = cell(&r, "run", "npm");
	CHECK(c && c->samples_nr == 4);
	CHECK_CONTAINS(c->command.v[c->command.nr - 1], "pmbench-noop");
	CHECK_STR(c->command.v[c->command.nr - 2], "run");
	bare = median(cell(&r, "run", "(node)"));
	npm = median(cell(&r, "run", "npm"));
	bun = median(cell(&r, "run", "bun"));
	fprintf(stderr, "medians: node %.4f, npm %.4f, bun %.4f\n", bare, npm,
		bun);
	CHECK(bare > 0 && npm > 0 && bun > 0);
	/*
	 * bun's overhead is its 1.5 s sleep plus what npm's is (a fake
	 * and a shell): far more than npm's, and npm's run is the bare
	 * command plus a little.
	 */
	CHECK(bun - bare > 5 * (npm - bare));
	CHECK(npm < 3 * bare);
	CHECK_CONTAINS(run.out.ptr, "overhead vs (node)");
	CHECK_CONTAINS(run.out.ptr, "(baseline)");

	/* The fixture's own script is timed too. */
	c = cell(&r, "run:lint", "npm");
	H_CHECK_CALL(all_ok, c);
	CHECK_STR(c->command.v[c->command.nr - 1], "lint");
	CHECK(cell(&r, "run:lint", "bun"));
	CHECK_CONTAINS(run.out.ptr, "tproj · run:lint");

	/* A PM that could not be primed has no runs, and says why. */
	H_CHECK_CALL(not_primed, cell(&r, "run", "pnpm"),
		     "install failed on purpose");
	CHECK_CONTAINS(run.out.ptr, "not run: priming install failed");
	/* The PMs' runs left their temp files in their own TMPDIR. */
	H_CHECK_HOME_INTACT(&why);
	pmbench_buf_release(&why);
	pmbench_strvec_release(&env);
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(missing_script_is_named)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;

	h_setup();
	H_CHECK_CALL(bench_tasks, &r, &run,
		     "{ \"name\": \"tproj\", \"version\": \"1.0.0\", "
		     "\"private\": true }\n",
		     ", \"scripts\": [\"nope\"]", "npm", "run,build", NULL, 2);
	H_CHECK_CALL(not_primed, cell(&r, "run:nope", "npm"),
		     "has no 'nope' script");
	H_CHECK_CALL(not_primed, cell(&r, "build", "npm"),
		     "has no 'build' script");
	/* The no-op script is pmbench's own: it always runs. */
	H_CHECK_CALL(all_ok, cell(&r, "run", "npm"));
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(build_output_is_measured_and_an_empty_build_fails)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const struct pmbench_cell *c;
	double v;

	h_setup();
	/*
	 * The build refuses to run when a previous run's output or Vite
	 * cache is still there, so four good runs prove both are cleared.
	 * bun's copy writes nothing, pnpm's an empty folder.
	 */
	H_CHECK_CALL(bench_tasks, &r, &run,
		     "{ \"name\": \"tproj\", \"version\": \"1.0.0\", "
		     "\"private\": true, \"scripts\": { \"build\": "
		     "\"test ! -e out && test ! -e node_modules/.vite "
		     "&& mkdir -p node_modules/.vite && case "
		     "\\\"$OUTPUT\\\" in none) ;; empty) mkdir out ;; "
		     "*) mkdir -p out/js && printf 12345 > out/a.txt "
		     "&& printf 123 > out/js/b.js ;; esac\" } }\n",
		     ", \"build\": { \"script\": \"build\", "
		     "\"output\": \"out\" }, \"pm\": { \"bun\": { "
		     "\"env\": { \"OUTPUT\": \"none\" } }, \"pnpm\": "
		     "{ \"env\": { \"OUTPUT\": \"empty\" } } }",
		     "npm,bun,pnpm", "build", NULL, 2);
	c = cell(&r, "build", "npm");
	H_CHECK_CALL(all_ok, c);
	for (size_t i = 0; i < c->samples_nr; i++) {
		CHECK(c->samples[i].ok);
		CHECK(pmbench_sample_metric_get(&c->samples[i], "output_files",
						&v));
		CHECK(v == 2);
		CHECK(pmbench_sample_metric_get(&c->samples[i], "output_bytes",
						&v));
		CHECK(v >= 8);
	}
	H_CHECK_CALL(failed_after_first, cell(&r, "build", "bun"),
		     "wrote no 'out' folder");
	H_CHECK_CALL(failed_after_first, cell(&r, "build", "pnpm"),
		     "output folder 'out' is empty");
	CHECK_CONTAINS(run.out.ptr, "tproj · build");
	CHECK_CONTAINS(run.out.ptr, "2 files");
	CHECK_CONTAINS(run.out.ptr, "wrote no 'out' folder");
	pmbench_result_release(&r);
	h_run_release(&run);
}

/* The metric `name` of every sample of `c` is `want`. */
static void metric_is(int *out, const struct pmbench_cell *c, const char *name,
		      double want)
{
	double v = -1;

	*out = 0;
	CHECK(c && c->samples_nr);
	for (size_t i = 0; i < c->samples_nr; i++) {
		CHECK(pmbench_sample_metric_get(&c->samples[i], name, &v));
		CHECK(v == want);
	}
	*out = 1;
}

/*
 * The test task through the fake test runner: the counts it prints as
 * metrics and table columns, a failing run with the runner's words, the
 * spec reporter, a runner that prints no count, and lint beside it.
 */
TEST(test_task_counts_and_failures)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const struct pmbench_cell *c;

	h_setup();
	H_CHECK_CALL(bench_tasks, &r, &run,
		     "{ \"name\": \"tproj\", \"version\": \"1.0.0\", "
		     "\"private\": true, \"scripts\": { \"unit\": \"npm "
		     "node-test\", \"lint\": \"true\" } }\n",
		     ", \"test\": { \"script\": \"unit\" }, \"pm\": { "
		     "\"bun\": { \"env\": { \"FAKEPM_TEST_MODE\": \"fail\" "
		     "} }, \"pnpm\": { \"env\": { \"FAKEPM_TEST_MODE\": "
		     "\"spec\" } }, \"yarn\": { \"env\": { "
		     "\"FAKEPM_TEST_MODE\": \"silent\" } } }",
		     "npm,bun,pnpm,yarn", "test,lint", NULL, 2);
	CHECK_INT(r.tasks.nr, 2);
	CHECK_STR(r.tasks.v[0], "test");
	CHECK_STR(r.tasks.v[1], "lint");

	/* The manifest's test.script is the one run. */
	c = cell(&r, "test", "npm");
	H_CHECK_CALL(all_ok, c);
	CHECK_STR(c->command.v[c->command.nr - 1], "unit");
	H_CHECK_CALL(metric_is, c, "tests_count", 3);
	H_CHECK_CALL(metric_is, c, "tests_passed_count", 3);
	H_CHECK_CALL(metric_is, c, "tests_failed_count", 0);

	/* A failing run: a failed sample, the count and the runner's lines. */
	c = cell(&r, "test", "bun");
	CHECK(c && c->samples_nr == 4);
	CHECK_INT(pmbench_cell_failures(c), 3);
	for (size_t i = 0; i < c->samples_nr; i++) {
		CHECK(!c->samples[i].ok);
		CHECK_INT(c->samples[i].exit_code, 1);
		CHECK_STR(c->samples[i].failure, "exit 1: 1 of 3 tests failed");
		CHECK_CONTAINS(c->samples[i].tail, "# fail 1");
	}
	H_CHECK_CALL(metric_is, c, "tests_passed_count", 2);
	H_CHECK_CALL(metric_is, c, "tests_failed_count", 1);

	/* The spec reporter's summary counts as well. */
	c = cell(&r, "test", "pnpm");
	H_CHECK_CALL(all_ok, c);
	H_CHECK_CALL(metric_is, c, "tests_count", 3);
	H_CHECK_CALL(metric_is, c, "tests_failed_count", 0);

	/*
	 * A runner that prints no summary: a time, no counts (the run's
	 * work, task-clock, is a metric of every run).
	 */
	c = cell(&r, "test", "yarn");
	H_CHECK_CALL(all_ok, c);
	for (size_t i = 0; i < c->samples_nr; i++) {
		double v;

		CHECK(!pmbench_sample_metric_get(&c->samples[i], "tests_count",
						 &v));
		CHECK(!pmbench_sample_metric_get(&c->samples[i],
						 "tests_failed_count", &v));
	}

	/* lint beside it, for every PM. */
	H_CHECK_CALL(all_ok, cell(&r, "lint", "npm"));
	H_CHECK_CALL(all_ok, cell(&r, "lint", "bun"));
	CHECK_STR(cell(&r, "lint", "npm")->command.v[2], "lint");

	/* The table has the task's columns, from the task table. */
	CHECK_CONTAINS(run.out.ptr, "tproj · test");
	CHECK_CONTAINS(run.out.ptr, "tests  passed  failed");
	CHECK_CONTAINS(run.out.ptr, "tproj · lint");
	CHECK_CONTAINS(run.out.ptr, "1 of 3 tests failed");
	pmbench_result_release(&r);
	h_run_release(&run);
}

/* A test script the project lacks is named, with the manifest field. */
TEST(test_task_missing_script)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;

	h_setup();
	/*
	 * Neither task can run: the drift control's cell is what was
	 * measured, so that a result is written to read the reasons from.
	 */
	h_with_control();
	H_CHECK_CALL(bench_tasks, &r, &run,
		     "{ \"name\": \"tproj\", \"version\": \"1.0.0\", "
		     "\"private\": true }\n",
		     "", "npm", "test,lint", NULL, 2);
	H_CHECK_CALL(not_primed, cell(&r, "test", "npm"),
		     "has no 'test' script (name another in the manifest's "
		     "\"test\"");
	H_CHECK_CALL(not_primed, cell(&r, "lint", "npm"),
		     "has no 'lint' script");
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(node_run_baseline_on_node_22)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const struct pmbench_cell *c;
	const char *node;

	h_setup();
	/*
	 * A node that says it is 22 and answers --run by running the
	 * script from package.json, as Node 22 does; the rest goes to the
	 * real node.
	 */
	node = h_write("bin/node", "#!/bin/sh\n"
				   "case \"$1\" in\n"
				   "--version) echo v22.99.0 ;;\n"
				   "--run) echo ran \"$2\" > node-run.out ;;\n"
				   "*) exec /usr/bin/node \"$@\" ;;\n"
				   "esac\n");
	CHECK_INT(chmod(node, 0755), 0);
	H_CHECK_CALL(bench_tasks, &r, &run,
		     "{ \"name\": \"tproj\", \"version\": \"1.0.0\", "
		     "\"private\": true }\n",
		     "", "npm", "run", NULL, 0);
	CHECK_STR(pmbench_result_env_get(&r, "node_version"), "v22.99.0");
	CHECK(!pmbench_result_env_get(&r, "node_run_baseline"));
	c = cell(&r, "run", "(node --run)");
	H_CHECK_CALL(all_ok, c);
	CHECK_STR(c->command.v[1], "--run");
	CHECK_STR(c->command.v[2], "pmbench-noop");
	CHECK_CONTAINS(run.out.ptr, "(node --run)");
	pmbench_result_release(&r);
	h_run_release(&run);
}

CHECK_MAIN(CASE(run_overhead_over_the_bare_command),
	   CASE(node_run_baseline_on_node_22), CASE(missing_script_is_named),
	   CASE(test_task_counts_and_failures), CASE(test_task_missing_script),
	   CASE(build_output_is_measured_and_an_empty_build_fails))
