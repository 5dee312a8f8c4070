/*
 * The resolve and update tasks against the fake PMs: the lockfile-only
 * command of each PM's table entry (a PM without one gets a cell that
 * says so and no time), and the update task's bumped dependency
 * followed by an ordinary, non-frozen install.
 */
#include "pmbench/common.h"

#include <cjson/cJSON.h>

#include "check.h"
#include "harness.h"
#include "pmbench/result.h"

/* The fake's log lines of `pm` with "lockfile_only": true. */
static size_t lockfile_only_runs(cJSON *log, const char *pm)
{
	cJSON *mine = h_log_of(log, pm), *e;
	size_t n = 0;

	cJSON_ArrayForEach(e, mine)
	{
		n += cJSON_IsTrue(
			cJSON_GetObjectItemCaseSensitive(e, "lockfile_only"));
	}
	cJSON_Delete(mine);
	return n;
}

TEST(resolve_is_lockfile_only)
{
	static const char *const with[] = { "npm", "pnpm", "bun", "yarn-berry",
					    "deno" };
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	struct h_run run;
	const char *proj;
	char out[4200];
	cJSON *log;

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	{
		const char *args[] = { "bench",
				       "--pm",
				       "npm,yarn,yarn-berry,pnpm,bun,deno",
				       "--task",
				       "resolve",
				       "--scenario",
				       "clean,cache",
				       "--runs",
				       "2",
				       "--warmup",
				       "0",
				       "--no-control",
				       "--out",
				       out,
				       proj,
				       NULL };

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	CHECK_INT(r.cells_nr, 2 * 6);
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(with); i++) {
		size_t n = 0;
		double *t;

		c = pmbench_result_find_cell(&r, "proj", "resolve", "clean",
					     with[i]);
		CHECK(c != NULL);
		if (!c)
			continue;
		t = pmbench_cell_times(c, &n);
		free(t);
		CHECK_INT(n, 2);
		CHECK(!c->note);
		CHECK_INT(c->state, PMBENCH_CELL_MEASURABLE);
	}
	c = pmbench_result_find_cell(&r, "proj", "resolve", "clean", "npm");
	CHECK(c && c->command.nr > 2 &&
	      pmbench_strvec_find(&c->command, "--package-lock-only") >= 0);
	c = pmbench_result_find_cell(&r, "proj", "resolve", "cache",
				     "yarn-berry");
	CHECK(c &&
	      pmbench_strvec_find(&c->command, "--mode=update-lockfile") >= 0);
	/* yarn 1 has none: said, never timed. */
	c = pmbench_result_find_cell(&r, "proj", "resolve", "clean", "yarn");
	CHECK(c && c->samples_nr == 0 && !c->prime_failure);
	CHECK(c && c->note && strstr(c->note, "n/a"));
	CHECK(c && c->state == PMBENCH_CELL_UNSUPPORTED);
	CHECK_CONTAINS(run.out.ptr, "n/a: it has no lockfile-only install");
	log = h_log_entries();
	/* Two scenarios of two runs each, all lockfile only. */
	CHECK_INT(lockfile_only_runs(log, "npm"), 4);
	CHECK_INT(lockfile_only_runs(log, "deno"), 4);
	CHECK_INT(lockfile_only_runs(log, "yarn"), 0);
	cJSON_Delete(log);
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(update_bumps_then_installs_unfrozen)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const char *proj;
	char out[4200];
	cJSON *log, *mine, *e, *last = NULL;

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	{
		const char *args[] = {
			"bench",  "--pm", "npm,pnpm", "--task", "update",
			"--runs", "2",	  "--warmup", "0",	"--no-control",
			"--out",  out,	  proj,	      NULL
		};

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	CHECK_INT(r.cells_nr, 2);
	CHECK(pmbench_result_env_get(&r, "update_change") != NULL);
	for (size_t i = 0; i < r.cells_nr; i++) {
		size_t n = 0;
		double *t = pmbench_cell_times(&r.cells[i], &n);

		free(t);
		CHECK_INT(n, 2);
		CHECK_STR(r.cells[i].scenario, "cache+lockfile+node_modules");
	}
	log = h_log_entries();
	mine = h_log_of(log, "npm");
	cJSON_ArrayForEach(e, mine)
	{
		last = e;
	}
	/* The timed install found the primed tree and was not frozen. */
	CHECK(last &&
	      cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(last, "frozen")));
	CHECK(last && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
			      last, "node_modules")));
	cJSON_Delete(mine);
	cJSON_Delete(log);
	pmbench_result_release(&r);
	h_run_release(&run);
}

CHECK_MAIN(CASE(resolve_is_lockfile_only),
	   CASE(update_bumps_then_installs_unfrozen))
