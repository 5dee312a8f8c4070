/*
 * Cells that prove their state (issue 36), with fake PMs that break it
 * on purpose against the local mirror: one that keeps a cache outside
 * what pmbench resets is "warm" in `clean`; one that resolves again with
 * its lockfile in place (asks for packuments, rewrites the lockfile) is
 * "resolved again" in `lockfile`; one that writes into node_modules
 * in place is said to, with what it wrote; and the same fake without
 * the knob passes each, so the check tells them apart.
 */
#include "pmbench/common.h"

#include "pmbench/result.h"

#include "check.h"
#include "harness.h"

/*
 * `bench` of the fake `pm` on `proj` against the mirror, with `knobs`,
 * and `flag` (NULL: none).
 */
static void bench_with(struct h_run *run, const char *proj, const char *out,
		       const char *scenario, const char *pm,
		       const char *const *knobs, const char *flag)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	const char *fake = getenv("PMBENCH_FAKEREGISTRY");
	const char *args[] = { "bench",	 "--pm",	 pm,	  "--scenario",
			       scenario, "--runs",	 "2",	  "--warmup",
			       "0",	 "--no-control", "--out", out,
			       proj,	 flag,		 NULL };

	pmbench_strvec_push(&env, "PMBENCH_REGISTRY=local");
	pmbench_strvec_pushf(&env, "PMBENCH_VERDACCIO=%s", fake ? fake : "");
	pmbench_strvec_pushv(&env, knobs);
	h_pmbench(run, args, &env);
	pmbench_strvec_release(&env);
}

static void bench(struct h_run *run, const char *proj, const char *out,
		  const char *scenario, const char *pm,
		  const char *const *knobs)
{
	bench_with(run, proj, out, scenario, pm, knobs, NULL);
}

/* The only cell of `out`'s result, read into `r`, or NULL. */
static const struct pmbench_cell *only_cell(struct pmbench_result *r,
					    const char *out,
					    const char *scenario,
					    const char *pm)
{
	if (pmbench_result_read(r, out) < 0)
		return NULL;
	return pmbench_result_find_cell(r, "proj", "install", scenario, pm);
}

/* Every run of `c` checked as `want`, each reason containing `why`. */
static void check_runs(int *ok, const struct pmbench_cell *c, int want,
		       const char *why)
{
	*ok = 0;
	CHECK(c);
	CHECK_INT(c->samples_nr, 2);
	for (size_t i = 0; i < c->samples_nr; i++) {
		CHECK(c->samples[i].ok);
		CHECK_INT(c->samples[i].state_check, want);
		if (why)
			CHECK_CONTAINS(c->samples[i].state_why, why);
		else
			CHECK(!c->samples[i].state_why);
	}
	*ok = 1;
}

/*
 * `bench` in `scenario` with `knobs`; every run checked `want` (`why`
 * in its reason, or none), and `said` in the output (when not NULL).
 */
static void case_of(const char *scenario, const char *pm,
		    const char *const *knobs, int want, const char *why,
		    const char *said)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const char *proj;
	char out[4200];
	struct h_run run;

	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	bench(&run, proj, out, scenario, pm, knobs);
	if (said)
		CHECK_CONTAINS(run.out.ptr, said);
	H_CHECK_CALL(check_runs, only_cell(&r, out, scenario, pm), want, why);
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(a_hidden_cache_is_warm_in_clean)
{
	char knob[4300];
	const char *const honest[] = { "FAKEPM_NPM_TARBALLS=3", NULL };
	const char *const hidden[] = { "FAKEPM_NPM_TARBALLS=3", knob, NULL };

	/* Without the hidden cache: every tarball, every run. */
	h_setup();
	case_of("clean", "npm", honest, PMBENCH_CHECK_PASS, NULL, NULL);
	/* The priming fills it; the clean runs download nothing. */
	snprintf(knob, sizeof(knob), "FAKEPM_NPM_HIDDEN_CACHE=%s/hidden",
		 h_setup());
	case_of("clean", "npm", hidden, PMBENCH_CHECK_FAIL,
		"warm: 0 of the tree's 3 tarballs downloaded with an empty "
		"cache: the PM read a cache pmbench did not clear",
		"npm: not the state asked (clean): every run failed the "
		"state check: warm: ");
}

TEST(a_relock_is_resolved_again_in_lockfile)
{
	const char *const honest[] = { "FAKEPM_NPM_FETCH_FRESH=/left-pad",
				       NULL };
	const char *const relock[] = { "FAKEPM_NPM_FETCH_FRESH=/left-pad",
				       "FAKEPM_NPM_RELOCK=1", NULL };

	/* Its lockfile in place: no packument, the lockfile as it was. */
	h_setup();
	case_of("lockfile", "npm", honest, PMBENCH_CHECK_PASS, NULL, NULL);
	h_setup();
	case_of("lockfile", "npm", relock, PMBENCH_CHECK_FAIL,
		"resolved again: 1 packument request with the lockfile; "
		"resolved again: the lockfile changed",
		"npm: not the state asked (lockfile): every run failed the "
		"state check: resolved again: ");
}

TEST(a_write_into_node_modules_in_place_is_said)
{
	const char *const none[] = { NULL };
	const char *const writes[] = { "FAKEPM_YARN_TIMELINE=write:4:0", NULL };

	/*
	 * yarn, which has no documented write there (npm's hidden lockfile
	 * is one). Everything in place: the fake checks, writes nothing.
	 */
	h_setup();
	case_of("cache+lockfile+node_modules", "yarn", none, PMBENCH_CHECK_PASS,
		NULL, NULL);
	h_setup();
	case_of("cache+lockfile+node_modules", "yarn", writes,
		PMBENCH_CHECK_FAIL,
		"1 entry written into node_modules "
		"(node_modules/.fakepm-timeline)",
		"yarn: not the state asked (cache+lockfile+node_modules): "
		"every run failed the state");
}

/*
 * `bench --prove-offline` of the fake npm in `scenarios` with `knobs`:
 * the cell of `warm` proven `want` with `why` in its reason and `said`
 * in the output, every timed run of it passing its state check; the
 * cell of `cold` (NULL: none) not proven.
 */
static void proof_of(const char *scenarios, const char *warm, const char *cold,
		     const char *const *knobs, int want, const char *why,
		     const char *said)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	char out[4200];
	struct h_run run;

	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	bench_with(&run, h_project("proj"), out, scenarios, "npm", knobs,
		   "--prove-offline");
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, said);
	c = only_cell(&r, out, warm, "npm");
	H_CHECK_CALL(check_runs, c, PMBENCH_CHECK_PASS, NULL);
	CHECK_INT(c->proof, want);
	CHECK_CONTAINS(c->proof_why, why);
	if (cold) {
		c = pmbench_result_find_cell(&r, "proj", "install", cold,
					     "npm");
		CHECK(c && c->samples_nr == 2);
		CHECK_INT(c->proof, PMBENCH_PROOF_NONE);
		CHECK(!c->proof_why);
	}
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(the_offline_proof_fails_a_pm_that_needs_the_registry)
{
	const char *const honest[] = { "FAKEPM_NPM_TARBALLS=3", NULL };
	const char *const asks[] = { "FAKEPM_NPM_TARBALLS=3",
				     "FAKEPM_NPM_FETCH=/left-pad", NULL };
	const char *const needs[] = { "FAKEPM_NPM_TARBALLS=3",
				      "FAKEPM_NPM_FETCH=/left-pad",
				      "FAKEPM_NPM_NEEDS_REGISTRY=1", NULL };

	/* Its cache in place, it asks nothing: proven; clean is not. */
	h_setup();
	proof_of("clean,cache+lockfile", "cache+lockfile", "clean", honest,
		 PMBENCH_PROOF_PASS,
		 "installed with the registry offline, asking it nothing",
		 "npm ✓ offline proof (cache+lockfile): installed");
	/*
	 * A packument every run, which the state check of a warm cache
	 * without a lockfile allows: only the proof tells it was needed.
	 */
	h_setup();
	proof_of("cache", "cache", NULL, needs, PMBENCH_PROOF_FAIL,
		 "not warm: it failed with the registry offline, after 1 "
		 "request (1 packument): ",
		 "npm ✗ offline proof (cache): not warm: it failed");
	/* Refused and going on is still not warm. */
	h_setup();
	proof_of("cache", "cache", NULL, asks, PMBENCH_PROOF_FAIL,
		 "not warm: it asked the registry 1 request (1 packument) "
		 "with it offline, every one refused, and went on",
		 "npm ✗ offline proof (cache): not warm: it asked");
}

/*
 * `claim "npm install is as fast as bun install" --prove-offline` in the
 * cache scenario with the fake npm tuned by `knobs`: the output says
 * `said`, the result records npm's proof as `want` and bun's as passed.
 */
static void claim_proof(int *ok, const char *const *knobs, int want,
			const char *said)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const char *fake = getenv("PMBENCH_FAKEREGISTRY");
	const struct pmbench_cell *c;
	char out[4200];
	const char *args[] = { "claim",
			       "npm install is as fast as bun install",
			       h_project("proj"),
			       "--scenario",
			       "cache",
			       "--runs",
			       "2",
			       "--warmup",
			       "0",
			       "--prove-offline",
			       "--out",
			       out,
			       NULL };
	struct h_run run;

	*ok = 0;
	snprintf(out, sizeof(out), "%s", h_write("claim.json", ""));
	pmbench_strvec_push(&env, "PMBENCH_REGISTRY=local");
	pmbench_strvec_pushf(&env, "PMBENCH_VERDACCIO=%s", fake ? fake : "");
	pmbench_strvec_pushv(&env, knobs);
	h_pmbench(&run, args, &env);
	CHECK_CONTAINS(run.out.ptr, said);
	CHECK_CONTAINS(run.out.ptr, "bun ✓ offline proof (cache)");
	CHECK_INT(pmbench_result_read(&r, out), 0);
	c = pmbench_result_find_cell(&r, "proj", "install", "cache", "npm");
	CHECK(c && c->proof == want);
	c = pmbench_result_find_cell(&r, "proj", "install", "cache", "bun");
	CHECK(c && c->proof == PMBENCH_PROOF_PASS);
	if (want == PMBENCH_PROOF_FAIL)
		CHECK_INT(run.exit_code, 1); /* no verdict: an error */
	else
		CHECK(!strstr(run.out.ptr, "no verdict"));
	pmbench_result_release(&r);
	pmbench_strvec_release(&env);
	h_run_release(&run);
	*ok = 1;
}

/*
 * claim proves its warm cells as bench does: a side that fails offline
 * has no warm time, and the scenario no verdict.
 */
TEST(claim_proves_its_warm_cells)
{
	const char *const honest[] = { "FAKEPM_NPM_TARBALLS=3", NULL };
	const char *const needs[] = { "FAKEPM_NPM_TARBALLS=3",
				      "FAKEPM_NPM_FETCH=/left-pad",
				      "FAKEPM_NPM_NEEDS_REGISTRY=1", NULL };

	h_setup();
	H_CHECK_CALL(claim_proof, honest, PMBENCH_PROOF_PASS,
		     "npm ✓ offline proof (cache)");
	h_setup();
	H_CHECK_CALL(claim_proof, needs, PMBENCH_PROOF_FAIL,
		     "no verdict: npm install not warm (failed offline)");
}

TEST(the_offline_proof_needs_the_local_registry)
{
	const char *args[] = { "bench",		  "--registry", "live",
			       "--prove-offline", "proj",	NULL };
	struct h_run run;

	h_setup();
	h_pmbench(&run, args, NULL);
	CHECK_INT(run.exit_code, 129);
	CHECK_CONTAINS(run.out.ptr, "'--prove-offline' needs the local "
				    "registry mirror");
	h_run_release(&run);
}

CHECK_MAIN(CASE(a_hidden_cache_is_warm_in_clean),
	   CASE(the_offline_proof_fails_a_pm_that_needs_the_registry),
	   CASE(the_offline_proof_needs_the_local_registry),
	   CASE(claim_proves_its_warm_cells),
	   CASE(a_relock_is_resolved_again_in_lockfile),
	   CASE(a_write_into_node_modules_in_place_is_said))
