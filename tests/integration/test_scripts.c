/*
 * `--scripts none|all` (issue 36), with fake PMs whose dependency
 * has-script has a postinstall that runs as a process
 * ($FAKEPM_LIFECYCLE): each PM told by its table's flag or setting, the
 * process tree of each run confirming it in the state check, and a fake
 * that does not do as told ($FAKEPM_<NAME>_LIFECYCLE) failing it; the
 * "not like for like" note gone once they are told; bun told all by
 * the trustedDependencies pmbench writes, deno's scripts seen though
 * they name no event.
 */
#include "pmbench/common.h"

#include "pmbench/result.h"

#include "check.h"
#include "harness.h"

/*
 * `bench --scripts choice --scenario scenario` of `pms` on a fresh
 * project, with `knobs`.
 */
static void bench_in(struct h_run *run, struct pmbench_result *r,
		     const char *choice, const char *pms, const char *scenario,
		     const char *const *knobs)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	const char *fake = getenv("PMBENCH_FAKEREGISTRY");
	const char *proj = h_project("proj");
	char out[4200];
	const char *args[] = {
		"bench",     "--pm", pms,	 "--scenario", scenario,
		"--runs",    "1",    "--warmup", "0",	       "--no-control",
		"--scripts", choice, "--out",	 out,	       proj,
		NULL
	};

	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	pmbench_strvec_push(&env, "PMBENCH_REGISTRY=local");
	pmbench_strvec_pushf(&env, "PMBENCH_VERDACCIO=%s", fake ? fake : "");
	/* Long enough for the tree's walks (every 25 ms) to see it. */
	pmbench_strvec_push(&env, "FAKEPM_LIFECYCLE=400");
	pmbench_strvec_pushv(&env, knobs);
	h_pmbench(run, args, &env);
	CHECK_INT(pmbench_result_read(r, out), 0);
	pmbench_strvec_release(&env);
}

/* `bench --scripts choice` of `pms` in clean, with `knobs`. */
static void bench(struct h_run *run, struct pmbench_result *r,
		  const char *choice, const char *pms, const char *const *knobs)
{
	bench_in(run, r, choice, pms, "clean", knobs);
}

/* The cell of `pm` in `scenario`: its run checked `want`, `why` in it. */
static void check_cell_in(int *ok, const struct pmbench_result *r,
			  const char *pm, const char *scenario, int want,
			  const char *why)
{
	const struct pmbench_cell *c =
		pmbench_result_find_cell(r, "proj", "install", scenario, pm);

	*ok = 0;
	CHECK(c);
	CHECK_INT(c->samples_nr, 1);
	CHECK(c->samples[0].ok);
	CHECK_INT(c->samples[0].state_check, want);
	if (why)
		CHECK_CONTAINS(c->samples[0].state_why, why);
	*ok = 1;
}

/* The clean cell of `pm`: its run checked `want`, `why` in the reason. */
static void check_cell(int *ok, const struct pmbench_result *r, const char *pm,
		       int want, const char *why)
{
	check_cell_in(ok, r, pm, "clean", want, why);
}

TEST(none_runs_no_lifecycle_script)
{
	const char *const honest[] = { NULL };
	const char *const liar[] = { "FAKEPM_NPM_LIFECYCLE=always", NULL };
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;

	/* npm runs them unasked: told --ignore-scripts, it runs none. */
	h_setup();
	bench(&run, &r, "none", "npm,yarn-berry", honest);
	H_CHECK_CALL(check_cell, &r, "npm", PMBENCH_CHECK_PASS, NULL);
	H_CHECK_CALL(check_cell, &r, "yarn-berry", PMBENCH_CHECK_PASS, NULL);
	CHECK_INT(r.cells[0].scripts_choice, 1);
	CHECK_CONTAINS(r.cells[0].scripts, "--scripts none: told "
					   "--ignore-scripts");
	CHECK(!strstr(run.out.ptr, "not like for like"));
	pmbench_result_release(&r);
	h_run_release(&run);
	/* One that runs it anyway is caught by its process tree. */
	h_setup();
	bench(&run, &r, "none", "npm", liar);
	H_CHECK_CALL(check_cell, &r, "npm", PMBENCH_CHECK_FAIL,
		     "--scripts none: 1 lifecycle script ran: has-script "
		     "postinstall");
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(all_runs_every_install_script)
{
	const char *const honest[] = { NULL };
	const char *const liar[] = { "FAKEPM_PNPM_LIFECYCLE=never", NULL };
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	struct h_run run;

	/*
	 * pnpm and deno run none unasked; told, they run has-script's (deno
	 * naming neither its event nor its package, as deno 2.9 does). bun
	 * runs those its package.json's trustedDependencies names: the
	 * priming found has-script, and the timed copy lists it.
	 */
	h_setup();
	bench(&run, &r, "all", "pnpm,deno,bun", honest);
	H_CHECK_CALL(check_cell, &r, "pnpm", PMBENCH_CHECK_PASS, NULL);
	H_CHECK_CALL(check_cell, &r, "deno", PMBENCH_CHECK_PASS, NULL);
	H_CHECK_CALL(check_cell, &r, "bun", PMBENCH_CHECK_PASS, NULL);
	c = pmbench_result_find_cell(&r, "proj", "install", "clean", "bun");
	CHECK_CONTAINS(c->scripts, "package.json's trustedDependencies "
				   "listing every installed package");
	CHECK(!strstr(run.out.ptr, "not like for like"));
	pmbench_result_release(&r);
	h_run_release(&run);
	h_setup();
	bench(&run, &r, "all", "pnpm", liar);
	H_CHECK_CALL(check_cell, &r, "pnpm", PMBENCH_CHECK_FAIL,
		     "--scripts all: 1 of 1 packages with an install script "
		     "ran none: has-script@1.0.0");
	pmbench_result_release(&r);
	h_run_release(&run);
}

/*
 * pnpm replays a package its store holds built (its side-effects cache,
 * on by default) instead of running its script: under --scripts all
 * pmbench turns the cache off, so a warm store's run still runs
 * has-script's postinstall, and says so in what pnpm was told. In the
 * node_modules scenario nothing installs, and nothing fails the check.
 */
TEST(all_runs_scripts_from_a_warm_store)
{
	const char *const honest[] = { NULL };
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	struct h_run run;

	h_setup();
	bench_in(&run, &r, "all", "pnpm", "cache+lockfile,node_modules",
		 honest);
	H_CHECK_CALL(check_cell_in, &r, "pnpm", "cache+lockfile",
		     PMBENCH_CHECK_PASS, NULL);
	c = pmbench_result_find_cell(&r, "proj", "install", "node_modules",
				     "pnpm");
	CHECK(c && c->samples_nr == 1 && c->samples[0].ok);
	CHECK(c->samples[0].state_check != PMBENCH_CHECK_FAIL);
	c = pmbench_result_find_cell(&r, "proj", "install", "cache+lockfile",
				     "pnpm");
	CHECK_CONTAINS(c->scripts, "pnpm_config_side_effects_cache=false "
				   "(side-effects cache off: under --scripts "
				   "all every install script runs; pnpm would "
				   "replay a built package from its store)");
	pmbench_result_release(&r);
	h_run_release(&run);
}

/*
 * `ci-cache --scripts choice` of `pms` (strategy none, one round), with
 * `knobs`: every job of each PM's cell (miss, hit) checked `want`, `why`
 * in the reason.
 */
static void ci_cache(int *ok, const char *choice, const char *pms,
		     const char *const *knobs, int want, const char *why)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT,
			      list = PMBENCH_STRVEC_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const char *fake = getenv("PMBENCH_FAKEREGISTRY");
	const char *proj = h_project("proj");
	char out[4200];
	const char *args[] = { "ci-cache",   proj,   "--pm",   pms,
			       "--strategy", "none", "--runs", "1",
			       "--scripts",  choice, "--out",  out,
			       NULL };
	struct h_run run;

	*ok = 0;
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	pmbench_strvec_push(&env, "PMBENCH_REGISTRY=local");
	pmbench_strvec_pushf(&env, "PMBENCH_VERDACCIO=%s", fake ? fake : "");
	pmbench_strvec_push(&env, "FAKEPM_LIFECYCLE=400");
	pmbench_strvec_pushv(&env, knobs);
	h_pmbench(&run, args, &env);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	pmbench_strvec_split(&list, pms, ',');
	for (size_t i = 0; i < list.nr; i++) {
		const struct pmbench_cell *c = pmbench_result_find_cell(
			&r, "proj", "ci-cache", "none", list.v[i]);

		CHECK(c && c->samples_nr >= 1);
		for (size_t k = 0; k < c->samples_nr; k++) {
			CHECK(c->samples[k].ok);
			CHECK_INT(c->samples[k].state_check, want);
			if (why)
				CHECK_CONTAINS(c->samples[k].state_why, why);
		}
	}
	pmbench_strvec_release(&list);
	pmbench_strvec_release(&env);
	pmbench_result_release(&r);
	h_run_release(&run);
	*ok = 1;
}

/*
 * ci-cache's jobs are told as bench's runs are: npm by its flag, yarn 4
 * by its environment, bun by the trustedDependencies of its primed copy,
 * and each job's process tree confirms it; one that does not do as told
 * fails its check.
 */
TEST(ci_cache_jobs_are_told)
{
	const char *const honest[] = { NULL };
	const char *const liar[] = { "FAKEPM_YARN_BERRY_LIFECYCLE=always",
				     NULL };

	h_setup();
	H_CHECK_CALL(ci_cache, "all", "yarn-berry,bun,npm", honest,
		     PMBENCH_CHECK_PASS, NULL);
	h_setup();
	H_CHECK_CALL(ci_cache, "none", "yarn-berry,npm", honest,
		     PMBENCH_CHECK_PASS, NULL);
	h_setup();
	H_CHECK_CALL(ci_cache, "none", "yarn-berry", liar, PMBENCH_CHECK_FAIL,
		     "--scripts none: 1 lifecycle script ran: has-script "
		     "postinstall");
}

/* As they come, npm runs it and pnpm does not: the note stays. */
TEST(as_they_come_the_note_stays)
{
	const char *const none[] = { NULL };
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;

	h_setup();
	bench(&run, &r, "default", "npm,pnpm", none);
	CHECK_CONTAINS(run.out.ptr, "not like for like");
	CHECK_INT(r.cells[0].scripts_choice, 0);
	pmbench_result_release(&r);
	h_run_release(&run);
}

CHECK_MAIN(CASE(none_runs_no_lifecycle_script),
	   CASE(all_runs_every_install_script),
	   CASE(all_runs_scripts_from_a_warm_store),
	   CASE(as_they_come_the_note_stays), CASE(ci_cache_jobs_are_told))
