/*
 * bench --explain against the fake PMs, which print what the real PMs'
 * timers printed (FAKEPM_TIMERS: tests/data/pm-timers/) when an install
 * carries the PM's timer flag: after each scenario's timed runs, three
 * untimed runs per PM with its timers on, read by its table entry into
 * the result and the report; the timed runs never carry the flags.
 */
#include "pmbench/common.h"

#include <cjson/cJSON.h>

#include "check.h"
#include "harness.h"
#include "pmbench/result.h"

static int argv_has(const cJSON *e, const char *arg)
{
	const cJSON *a;

	cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(e, "argv"))
	{
		if (cJSON_IsString(a) && !strcmp(a->valuestring, arg))
			return 1;
	}
	return 0;
}

/*
 * `pm`'s installs in the fakes' log: how many, and how many carried
 * `flag`; only the last `last` may carry it (the timed runs come first).
 */
static void flags_in_log(int *out, const char *pm, const char *flag,
			 size_t last)
{
	cJSON *log = h_log_entries(), *mine = h_log_of(log, pm), *e;
	size_t n = (size_t)cJSON_GetArraySize(mine), i = 0, with = 0;

	*out = 0;
	CHECK(n > last);
	cJSON_ArrayForEach(e, mine)
	{
		int has = argv_has(e, flag);

		with += has;
		if (i++ < n - last)
			CHECK(!has);
		else
			CHECK(has);
	}
	CHECK_INT(with, last);
	cJSON_Delete(mine);
	cJSON_Delete(log);
	*out = 1;
}

static const struct pmbench_pm_phase *phase(const struct pmbench_cell *c,
					    size_t run, const char *name)
{
	if (!c || run >= c->explain_nr)
		return NULL;
	return pmbench_pm_phases_find(&c->explain[run].phases, name);
}

static void run_bench(struct h_run *run, const char *out, const char *proj,
		      int explain)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	const char *args[] = { "bench",
			       "--pm",
			       "npm,pnpm,yarn-berry,deno",
			       "--scenario",
			       "clean",
			       "--runs",
			       "2",
			       "--warmup",
			       "0",
			       "--no-control",
			       "--out",
			       out,
			       proj,
			       explain ? "--explain" : NULL,
			       NULL };

	pmbench_strvec_pushf(&env, "FAKEPM_TIMERS=%s/tests/data/pm-timers",
			     getenv("PMBENCH_SOURCE_DIR"));
	h_pmbench(run, args, &env);
	pmbench_strvec_release(&env);
}

TEST(explained_runs_read_the_timers)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_pm_phase *ph;
	const struct pmbench_cell *c;
	struct h_run run, rep;
	const char *proj;
	char out[4200];

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	run_bench(&run, out, proj, 1);
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	c = pmbench_result_find_cell(&r, "proj", "install", "clean", "npm");
	CHECK(c && c->explain_nr == 3 && c->explain[2].ok);
	CHECK_STR(c->explain_how, "--timing");
	/* npm's own timer, as the real npm printed it. */
	CHECK((ph = phase(c, 2, "idealTree")) != NULL);
	CHECK_NEAR(ph->seconds, 2.027, 1e-9);
	CHECK_INT(ph->count, 114);
	c = pmbench_result_find_cell(&r, "proj", "install", "clean", "pnpm");
	CHECK((ph = phase(c, 0, "resolution")) != NULL);
	CHECK_NEAR(ph->seconds, 1.051, 1e-9);
	c = pmbench_result_find_cell(&r, "proj", "install", "clean",
				     "yarn-berry");
	CHECK((ph = phase(c, 1, "Fetch step")) != NULL);
	CHECK_INT(ph->count, 89);
	c = pmbench_result_find_cell(&r, "proj", "install", "clean", "deno");
	CHECK((ph = phase(c, 0, "total")) != NULL);
	CHECK_NEAR(ph->seconds, 0.784, 1e-9);
	/* The timed runs first, without the flags; the explained after. */
	H_CHECK_CALL(flags_in_log, "npm", "--timing", 3);
	H_CHECK_CALL(flags_in_log, "pnpm", "--reporter=ndjson", 3);
	H_CHECK_CALL(flags_in_log, "deno", "debug", 3);
	/* Shown beside the times. */
	CHECK_CONTAINS(run.out.ptr, "what each PM's own timers said");
	CHECK_CONTAINS(run.out.ptr, "npm (--timing, 3 of 3 runs)");
	CHECK_CONTAINS(run.out.ptr, "idealTree 2.027 s (114)");
	/* And in the dashboards' formats. */
	{
		const char *args[] = { "report", "--format", "bencher", out,
				       NULL };

		h_pmbench(&rep, args, NULL);
	}
	CHECK_INT(rep.exit_code, 0);
	CHECK_CONTAINS(rep.out.ptr, "\"explain-idealtree\"");
	CHECK_CONTAINS(rep.out.ptr, "\"explain-resolution-step\"");
	h_run_release(&rep);
	pmbench_result_release(&r);
	h_run_release(&run);
}

/* Without --explain: no flag in any run, no explained runs. */
TEST(no_explain_no_flags)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const char *proj;
	char out[4200];

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	run_bench(&run, out, proj, 0);
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	for (size_t i = 0; i < r.cells_nr; i++) {
		CHECK_INT(r.cells[i].explain_nr, 0);
		CHECK(!r.cells[i].explain_how);
	}
	H_CHECK_CALL(flags_in_log, "npm", "--timing", 0);
	H_CHECK_CALL(flags_in_log, "pnpm", "--reporter=ndjson", 0);
	CHECK(!strstr(run.out.ptr, "own timers said"));
	pmbench_result_release(&r);
	h_run_release(&run);
}

CHECK_MAIN(CASE(explained_runs_read_the_timers), CASE(no_explain_no_flags))
