/*
 * `bench --ci` (issue 36), with fake PMs: every timed run gets CI=true
 * and GITHUB_ACTIONS=true, the priming neither; a fake that freezes its
 * lockfile on CI as yarn 4 does ($FAKEPM_<NAME>_FROZEN_IN_CI) refuses the
 * lockfile-less `clean` under it and installs without it; the cell
 * records it (read back, in the plan id) and the report says which PM
 * changed what. Without --ci no PM sees the caller's CI variables.
 */
#include "pmbench/common.h"

#include "check.h"
#include "fields.h"
#include "harness.h"
#include "pmbench/result.h"

/* Where bench() writes its result. */
static char out[4200];

/* `bench [--ci]` of pnpm and bun on a fresh project; read into `r`. */
static void bench(struct h_run *run, struct pmbench_result *r, int ci)
{
	static const char *const knobs[] = {
		"FAKEPM_PNPM_FROZEN_IN_CI=1",
		"FAKEPM_LOG_VARS=GITHUB_ACTIONS,GITLAB_CI",
		/* The caller's own: never passed on. */
		"GITLAB_CI=true",
		NULL,
	};
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	const char *proj = h_project("proj");
	const char *args[] = { "bench",
			       "--pm",
			       "pnpm,bun",
			       "--scenario",
			       "clean,lockfile",
			       "--runs",
			       "2",
			       "--warmup",
			       "0",
			       "--no-control",
			       "--out",
			       out,
			       proj,
			       ci ? "--ci" : NULL,
			       NULL };

	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	pmbench_strvec_pushv(&env, knobs);
	h_pmbench(run, args, &env);
	CHECK_INT(pmbench_result_read(r, out), 0);
	pmbench_strvec_release(&env);
}

/* `pm`'s cell in `scenario`: its runs all ok (`ok`) or all failed. */
static void check_cell(int *okp, const struct pmbench_result *r,
		       const char *scenario, const char *pm, int ci, int ok)
{
	const struct pmbench_cell *c =
		pmbench_result_find_cell(r, "proj", "install", scenario, pm);

	*okp = 0;
	CHECK(c);
	CHECK(!c->prime_failure);
	CHECK_INT(c->ci, ci);
	CHECK_INT(c->samples_nr, 2);
	for (size_t i = 0; i < c->samples_nr; i++) {
		CHECK_INT(c->samples[i].ok, ok);
		if (!ok)
			CHECK_CONTAINS(c->samples[i].failure,
				       "a frozen install needs an existing "
				       "pnpm-lock.yaml");
	}
	*okp = 1;
}

static int is_true(const char *v)
{
	return v && !strcmp(v, "true");
}

/* What `pm` saw: CI and GITHUB_ACTIONS in its timed runs only with ci. */
static void check_log(int *ok, const char *pm, int ci)
{
	cJSON *log = h_log_entries();
	cJSON *mine = h_log_of(log, pm);
	int n = cJSON_GetArraySize(mine);

	*ok = 0;
	CHECK(n == 5); /* the priming, then 2 runs in 2 scenarios */
	for (int i = 0; i < n; i++) {
		const cJSON *e = cJSON_GetArrayItem(mine, i);
		const cJSON *vars = cJSON_GetObjectItemCaseSensitive(e, "env");
		int want = ci && i > 0;

		CHECK_INT(is_true(h_str(e, "ci")), want);
		CHECK_INT(is_true(h_str(vars, "GITHUB_ACTIONS")), want);
		CHECK(!h_str(vars, "GITLAB_CI"));
		CHECK(want || !h_str(e, "ci"));
	}
	cJSON_Delete(mine);
	cJSON_Delete(log);
	*ok = 1;
}

TEST(ci_freezes_what_freezes_on_a_runner)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	char *plan;

	h_setup();
	bench(&run, &r, 0);
	/* Outside CI (the caller's GITLAB_CI unset): both install. */
	H_CHECK_CALL(check_cell, &r, "clean", "pnpm", 0, 1);
	H_CHECK_CALL(check_cell, &r, "clean", "bun", 0, 1);
	H_CHECK_CALL(check_log, "pnpm", 0);
	CHECK(!strstr(run.out.ptr, "as on a CI runner"));
	plan = pmbench_xstrdup(r.plan_id ? r.plan_id : "");
	pmbench_result_release(&r);
	h_run_release(&run);

	h_setup();
	bench(&run, &r, 1);
	/* The priming wrote pnpm's lockfile; clean has none: refused. */
	H_CHECK_CALL(check_cell, &r, "clean", "pnpm", 1, 0);
	H_CHECK_CALL(check_cell, &r, "lockfile", "pnpm", 1, 1);
	H_CHECK_CALL(check_cell, &r, "clean", "bun", 1, 1);
	H_CHECK_CALL(check_log, "pnpm", 1);
	H_CHECK_CALL(check_log, "bun", 1);
	CHECK_CONTAINS(run.out.ptr, "proj: every PM ran as on a CI runner");
	/* (The terminal's lines are cut at spaces.) */
	CHECK_CONTAINS(run.out.ptr, "pnpm refused to install without a");
	CHECK_CONTAINS(run.out.ptr, "(clean: 2 of 2 runs failed: exit 1");
	CHECK_CONTAINS(run.out.ptr, "bun did as outside CI");
	CHECK(r.plan_id && strcmp(r.plan_id, plan));
	pmbench_result_release(&r);
	h_run_release(&run);
	free(plan);
}

/* The report of a --ci result, read back, says it again. */
TEST(ci_is_read_back)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const char *args[] = { "report", NULL, NULL };
	struct h_run run, again;

	h_setup();
	bench(&run, &r, 1);
	args[1] = out;
	h_pmbench(&again, args, NULL);
	CHECK_INT(again.exit_code, 0);
	CHECK_CONTAINS(again.out.ptr, "pnpm refused to install without a");
	CHECK_CONTAINS(again.out.ptr, "(clean: 2 of 2 runs failed: exit 1");
	pmbench_result_release(&r);
	h_run_release(&run);
	h_run_release(&again);
}

CHECK_MAIN(CASE(ci_freezes_what_freezes_on_a_runner), CASE(ci_is_read_back))
