/*
 * End to end with the real npm and bun (from the pinned toolchain) and
 * the npm registry: a tiny fixture, tasks on todo-api, and variants (yarn 4's Plug'n'Play,
 * bun's isolated linker) installing todo-api. Label "online": these
 * need the registry.
 */
#include "pmbench/common.h"

#include "check.h"
#include "harness.h"
#include "pmbench/result.h"

static const struct pmbench_cell *cell(const struct pmbench_result *r,
				       const char *fx, const char *sc,
				       const char *pm)
{
	return pmbench_result_find_cell(r, fx, "install", sc, pm);
}

TEST(real_npm_and_bun_on_a_tiny_fixture)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	struct h_run run;
	char out[4200];
	const char *proj;

	h_setup();
	h_real_pms();
	h_home_markers();
	h_write("tiny/package.json",
		"{ \"name\": \"tiny\", \"version\": \"1.0.0\", \"private\": "
		"true, \"dependencies\": { \"is-number\": \"7.0.0\", \"ms\": "
		"\"2.1.3\" } }\n");
	proj = check_path("tiny");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	{
		char p[4200];
		const char *args[] = { "bench",
				       "--pm",
				       "npm,bun",
				       "--scenario",
				       "clean,cache+lockfile",
				       "--runs",
				       "1",
				       "--warmup",
				       "0",
				       "--timeout",
				       "5m",
				       "--out",
				       out,
				       p,
				       NULL };

		snprintf(p, sizeof(p), "%s", proj);
		h_pmbench(&run, args, NULL);
	}
	fprintf(stderr, "%s\n", run.out.ptr);
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	for (int i = 0; i < 2; i++) {
		const char *pm = i ? "bun" : "npm";
		const struct pmbench_cell *c = cell(&r, "tiny", "clean", pm);

		CHECK(c);
		CHECK_INT(c->samples_nr, 1);
		CHECK(c->samples[0].ok);
		/* is-number and ms: two packages, a few files each. */
		CHECK(c->samples[0].nm_files >= 6);
		CHECK(c->samples[0].wall_ns > 0);
		c = cell(&r, "tiny", "cache+lockfile", pm);
		CHECK(c && c->samples_nr == 1 && c->samples[0].ok);
	}
	CHECK_CONTAINS(cell(&r, "tiny", "clean", "bun")->lockfile, "bun.lock");
	CHECK_CONTAINS(cell(&r, "tiny", "clean", "npm")->lockfile,
		       "package-lock.json");
	/* Neither PM touched the user's caches in HOME. */
	H_CHECK_HOME_INTACT(&why);
	pmbench_buf_release(&why);
	pmbench_result_release(&r);
	h_run_release(&run);
}

/*
 * run, build, test and dev through the real npm and bun on the embedded
 * todo-api fixture: every run succeeds, the test runner's counts (Node's
 * `node --test`) are read, and the dev server is ready (ready line, HTTP
 * and body, in that order of the spawn), then stopped with its port
 * closed.
 */
TEST(real_run_build_dev_on_todo_api)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	char out[4200];
	static const char *const tasks[] = { "run", "run:test", "build", "test",
					     "dev" };

	h_setup();
	h_real_pms();
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	{
		const char *args[] = { "bench",
				       "--pm",
				       "npm,bun",
				       "--task",
				       "run,build,test,dev",
				       "--probe",
				       "50,4",
				       "--runs",
				       "2",
				       "--warmup",
				       "0",
				       "--timeout",
				       "5m",
				       "--out",
				       out,
				       "todo-api",
				       NULL };

		h_pmbench(&run, args, NULL);
	}
	fprintf(stderr, "%s\n", run.out.ptr);
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	for (int i = 0; i < 2; i++) {
		const char *pm = i ? "bun" : "npm";

		for (size_t t = 0; t < PMBENCH_ARRAY_SIZE(tasks); t++) {
			const struct pmbench_cell *c = pmbench_result_find_cell(
				&r, "todo-api", tasks[t],
				"cache+lockfile+node_modules", pm);

			CHECK(c);
			CHECK(!c->prime_failure);
			CHECK_INT(c->samples_nr, 2);
			CHECK_INT(pmbench_cell_failures(c), 0);
			for (size_t k = 0; k < c->samples_nr; k++) {
				const struct pmbench_sample *s = &c->samples[k];
				double line = 0, http = 0, body = 0, files = 0;
				double ok = 0, n = 0, passed = 0, failed = 0;

				CHECK(s->ok);
				if (!strcmp(tasks[t], "test")) {
					CHECK(pmbench_sample_metric_get(
						s, "tests_count", &n));
					CHECK(pmbench_sample_metric_get(
						s, "tests_passed_count",
						&passed));
					CHECK(pmbench_sample_metric_get(
						s, "tests_failed_count",
						&failed));
					CHECK(n >= 1 && passed == n &&
					      failed == 0);
				}
				if (!strcmp(tasks[t], "build")) {
					CHECK(pmbench_sample_metric_get(
						s, "output_files", &files));
					CHECK(files >= 1);
				}
				if (strcmp(tasks[t], "dev"))
					continue;
				CHECK(pmbench_sample_metric_get(
					s, "ready_line_s", &line));
				CHECK(pmbench_sample_metric_get(s, "http_s",
								&http));
				CHECK(pmbench_sample_metric_get(s, "body_s",
								&body));
				CHECK(line > 0 && http > 0 && body >= http);
				CHECK(pmbench_sample_metric_get(
					s, "probe_ok_ratio", &ok));
				CHECK(ok == 1);
				CHECK_INT(s->leftover, 0);
			}
		}
	}
	CHECK(pmbench_result_find_cell(&r, "todo-api", "run",
				       "cache+lockfile+node_modules",
				       "(node)"));
	pmbench_result_release(&r);
	h_run_release(&run);
}

/*
 * Variants with the real toolchain: yarn 4 with its Plug'n'Play linker
 * (no node_modules: its samples have no sizes and its cells say why;
 * what it installed is read from .pnp.cjs and the cache's zips) and bun
 * with its isolated linker (node_modules/.bun), installing todo-api.
 */
TEST(real_variants_on_todo_api)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	struct h_run run;
	char out[4200];
	static const char *const scs[] = { "clean",
					   "cache+lockfile+node_modules" };

	h_setup();
	h_real_pms();
	h_home_markers();
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	{
		const char *args[] = { "bench",
				       "--pm",
				       "yarn-berry:pnp,bun:isolated",
				       "--scenario",
				       "clean,cache+lockfile+node_modules",
				       "--runs",
				       "1",
				       "--warmup",
				       "0",
				       "--timeout",
				       "5m",
				       "--out",
				       out,
				       "todo-api",
				       NULL };

		h_pmbench(&run, args, NULL);
	}
	fprintf(stderr, "%s\n", run.out.ptr);
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	CHECK_INT(r.found_nr, 2);
	CHECK_STR(r.found[0].config, "yarn-berry with YARN_NODE_LINKER=pnp");
	CHECK_STR(r.found[1].config, "bun with --linker isolated");
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(scs); i++) {
		const struct pmbench_cell *pnp =
			cell(&r, "todo-api", scs[i], "yarn-berry:pnp");
		const struct pmbench_cell *iso =
			cell(&r, "todo-api", scs[i], "bun:isolated");

		CHECK(pnp && iso);
		CHECK(!pnp->prime_failure && !iso->prime_failure);
		CHECK_INT(pnp->samples_nr, 1);
		CHECK_INT(iso->samples_nr, 1);
		CHECK(pnp->samples[0].ok && iso->samples[0].ok);
		CHECK(pmbench_strvec_find(&pnp->env, "YARN_NODE_LINKER=pnp") >=
		      0);
		CHECK(pnp->samples[0].no_node_modules);
		CHECK_CONTAINS(pnp->note, "n/a: Plug'n'Play");
		CHECK_CONTAINS(pnp->lockfile, "yarn.lock");
		CHECK(pmbench_strvec_find(&iso->command, "isolated") >= 0);
		/* About 90 packages, linked from node_modules/.bun. */
		CHECK(iso->samples[0].nm_files > 500);
		CHECK_CONTAINS(iso->lockfile, "bun.lock");
		/* Both layouts read: esbuild and its postinstall found. */
		CHECK_CONTAINS(pnp->scripts, "esbuild@");
		CHECK_CONTAINS(iso->scripts, "esbuild@");
	}
	H_CHECK_HOME_INTACT(&why);
	pmbench_buf_release(&why);
	pmbench_result_release(&r);
	h_run_release(&run);
}

CHECK_MAIN(CASE(real_npm_and_bun_on_a_tiny_fixture),
	   CASE(real_run_build_dev_on_todo_api),
	   CASE(real_variants_on_todo_api))
