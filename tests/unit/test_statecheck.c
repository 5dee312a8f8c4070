/*
 * The state check of an install run (statecheck.h): each rule, a PM's
 * documented exception, a run without the mirror's counts, and a cell
 * whose every run failed it kept out of the times and ratios.
 */
#include "pmbench/common.h"

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/merge.h"
#include "pmbench/pm.h"
#include "pmbench/result.h"
#include "pmbench/scenario.h"
#include "pmbench/statecheck.h"

/* A successful run that asked the mirror for `meta` and `tgz`. */
static void run_of(struct pmbench_sample *s, double meta, double tgz,
		   double need)
{
	memset(s, 0, sizeof(*s));
	s->ok = 1;
	s->wall_ns = 1000000000;
	pmbench_sample_metric_set(s, "registry_meta_requests", meta);
	pmbench_sample_metric_set(s, "registry_tarball_requests", tgz);
	if (need > 0)
		pmbench_sample_metric_set(s, "tree_tarballs_count", need);
}

/* The check of `s` as `pm` in `scenario`; its reason into `why`. */
static int check(struct pmbench_buf *why, const struct pmbench_sample *s,
		 const char *scenario, const char *pm)
{
	unsigned state = 0;

	pmbench_buf_reset(why);
	if (pmbench_scenario_parse(&state, scenario) < 0)
		return -1;
	return pmbench_state_check(why, s, state, pmbench_pm_get(pm), NULL);
}

TEST(empty_cache_downloads_every_tarball)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	struct pmbench_sample s;

	run_of(&s, 113, 89, 89);
	CHECK_INT(check(&why, &s, "clean", "npm"), PMBENCH_CHECK_PASS);
	CHECK_INT(why.len, 0);
	pmbench_sample_release(&s);
	/* A hidden cache: the tree needs 89, the run fetched none. */
	run_of(&s, 113, 0, 89);
	CHECK_INT(check(&why, &s, "clean", "bun"), PMBENCH_CHECK_FAIL);
	CHECK_CONTAINS(why.ptr, "warm: 0 of the tree's 89 tarballs");
	CHECK_INT(check(&why, &s, "lockfile", "bun"), PMBENCH_CHECK_FAIL);
	pmbench_sample_release(&s);
	/* node_modules there: nothing to download is right. */
	run_of(&s, 0, 0, 89);
	CHECK_INT(check(&why, &s, "lockfile+node_modules", "bun"),
		  PMBENCH_CHECK_PASS);
	pmbench_sample_release(&s);
	pmbench_buf_release(&why);
}

TEST(warm_cache_downloads_nothing)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	struct pmbench_sample s;

	run_of(&s, 0, 0, 89);
	CHECK_INT(check(&why, &s, "cache+lockfile", "yarn"),
		  PMBENCH_CHECK_PASS);
	pmbench_sample_release(&s);
	run_of(&s, 0, 3, 89);
	CHECK_INT(check(&why, &s, "cache+lockfile", "yarn"),
		  PMBENCH_CHECK_FAIL);
	CHECK_CONTAINS(why.ptr, "3 tarballs downloaded with a warm cache");
	pmbench_sample_release(&s);
	pmbench_buf_release(&why);
}

TEST(lockfile_resolves_nothing)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	struct pmbench_sample s;

	run_of(&s, 162, 89, 89);
	CHECK_INT(check(&why, &s, "clean", "yarn-berry"), PMBENCH_CHECK_PASS);
	CHECK_INT(check(&why, &s, "lockfile", "yarn-berry"),
		  PMBENCH_CHECK_FAIL);
	CHECK_CONTAINS(why.ptr,
		       "resolved again: 162 packument requests with the "
		       "lockfile");
	/* pnpm's minimumReleaseAge check: documented, with its source. */
	CHECK_INT(check(&why, &s, "lockfile", "pnpm"), PMBENCH_CHECK_KNOWN);
	CHECK_CONTAINS(why.ptr, "known: pnpm checks every locked version");
	CHECK_CONTAINS(why.ptr, "pnpm.io/settings#minimumreleaseage");
	/* A variant has its base's exceptions. */
	if (pmbench_pm_get("pnpm:hoisted"))
		CHECK_INT(check(&why, &s, "lockfile", "pnpm:hoisted"),
			  PMBENCH_CHECK_KNOWN);
	/* npm's only with the setting that omits the tarball URLs. */
	CHECK_INT(check(&why, &s, "lockfile", "npm"), PMBENCH_CHECK_FAIL);
	CHECK_INT(pmbench_state_check(&why, &s, PMBENCH_STATE_LOCKFILE,
				      pmbench_pm_get("npm"),
				      "omit-lockfile-registry-resolved=true "
				      "(~/.npmrc)"),
		  PMBENCH_CHECK_KNOWN);
	/* The lockfile changed: resolved again, whatever the PM. */
	pmbench_sample_metric_set(&s, "lockfile_changed_count", 1);
	CHECK_INT(check(&why, &s, "lockfile", "pnpm"), PMBENCH_CHECK_FAIL);
	CHECK_CONTAINS(why.ptr, "resolved again: the lockfile changed");
	pmbench_sample_release(&s);
	pmbench_buf_release(&why);
}

TEST(node_modules_in_place_is_not_written)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	struct pmbench_sample s;

	run_of(&s, 0, 0, 89);
	pmbench_sample_metric_set(&s, "node_modules_written_count", 0);
	CHECK_INT(check(&why, &s, "cache+lockfile+node_modules", "npm"),
		  PMBENCH_CHECK_PASS);
	/* Four entries written, the first three named. */
	pmbench_sample_metric_set(&s, "node_modules_written_count", 4);
	s.nm_written = pmbench_xstrdup("node_modules/.package-lock.json, "
				       "node_modules/a, node_modules/b");
	CHECK_INT(check(&why, &s, "cache+lockfile+node_modules", "yarn"),
		  PMBENCH_CHECK_FAIL);
	CHECK_STR(why.ptr, "4 entries written into node_modules "
			   "(node_modules/.package-lock.json, node_modules/a, "
			   "node_modules/b, ...)");
	/* npm's hidden lockfile: documented, with its source. */
	CHECK_INT(check(&why, &s, "cache+lockfile+node_modules", "npm"),
		  PMBENCH_CHECK_KNOWN);
	CHECK_CONTAINS(why.ptr, "known: npm rewrites its hidden lockfile");
	/* Without node_modules in place, writing it is the install. */
	CHECK_INT(check(&why, &s, "cache+lockfile", "npm"), PMBENCH_CHECK_PASS);
	pmbench_sample_release(&s);
	pmbench_buf_release(&why);
}

TEST(unchecked_without_the_mirror)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	struct pmbench_sample s;

	memset(&s, 0, sizeof(s));
	s.ok = 1;
	CHECK_INT(check(&why, &s, "clean", "npm"), PMBENCH_CHECK_NONE);
	pmbench_state_check_sample(&s, 0, pmbench_pm_get("npm"), NULL);
	CHECK_INT(s.state_check, PMBENCH_CHECK_NONE);
	CHECK(!s.state_why);
	pmbench_sample_release(&s);
	pmbench_buf_release(&why);
}

/* A cell of `n` runs of 1 s, `fail` of them failing their check. */
static void cell_of(struct pmbench_result *r, const char *pm, size_t n,
		    size_t fail)
{
	struct pmbench_cell *c =
		pmbench_result_add_cell(r, "f", "install", "clean", pm);

	for (size_t i = 0; i < n; i++) {
		struct pmbench_sample *s = pmbench_cell_add_sample(c);

		s->round = (unsigned)i;
		s->ok = 1;
		s->wall_ns = 1000000000 + i * 1000000;
		s->state_check = i < fail ? PMBENCH_CHECK_FAIL
					  : PMBENCH_CHECK_PASS;
		if (i < fail)
			s->state_why = pmbench_xstrdup("warm: 0 of 9");
	}
}

TEST(wrong_state_is_no_time)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT,
			      back = PMBENCH_RESULT_INIT;
	double *a, *b;
	size_t n;
	char *json;

	cell_of(&r, "npm", 4, 4);
	cell_of(&r, "pnpm", 4, 1);
	CHECK(pmbench_cell_wrong_state(&r.cells[0]));
	CHECK(!pmbench_cell_wrong_state(&r.cells[1]));
	free(pmbench_cell_times(&r.cells[0], &n));
	CHECK_INT(n, 0);
	free(pmbench_cell_times(&r.cells[1], &n));
	CHECK_INT(n, 4);
	CHECK_INT(pmbench_cell_round(&r.cells[0], 0, 0, NULL, NULL),
		  PMBENCH_ROUND_FAILED);
	CHECK_INT(pmbench_cell_pair_rounds(&a, &b, &n, &r.cells[1],
					   &r.cells[0]),
		  0);
	CHECK_INT(pmbench_cell_checks(&r.cells[1], PMBENCH_CHECK_FAIL, NULL),
		  1);
	/* Written and read back as it was. */
	json = pmbench_result_to_json(&r);
	CHECK_CONTAINS(json, "\"state_check\":\t\"fail\"");
	CHECK_CONTAINS(json, "\"state_why\":\t\"warm: 0 of 9\"");
	CHECK_INT(pmbench_result_from_json(&back, json, NULL), 0);
	CHECK(pmbench_cell_wrong_state(&back.cells[0]));
	CHECK_INT(back.cells[1].samples[3].state_check, PMBENCH_CHECK_PASS);
	CHECK_STR(back.cells[0].samples[0].state_why, "warm: 0 of 9");
	free(json);
	pmbench_result_release(&r);
	pmbench_result_release(&back);
}

/* A result of one cell whose proof is `proof` (`why`), for the merge. */
static void proven(struct pmbench_result *r, unsigned shard, int proof,
		   const char *why)
{
	struct pmbench_cell *c;
	struct pmbench_sample *s;

	r->runs = 2;
	r->shard = shard;
	r->shards = 2;
	c = pmbench_result_add_cell(r, "f", "install", "cache+lockfile", "bun");
	s = pmbench_cell_add_sample(c);
	run_of(s, 0, 0, 0);
	s->round = shard - 1; /* its shard's round */
	c->proof = proof;
	c->proof_why = why ? pmbench_xstrdup(why) : NULL;
}

TEST(offline_proof)
{
	struct pmbench_result in[2] = { PMBENCH_RESULT_INIT,
					PMBENCH_RESULT_INIT };
	struct pmbench_result m = PMBENCH_RESULT_INIT;
	const char *names[] = { "a.json", "b.json" };
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	struct pmbench_sample s;
	char *json;

	CHECK(pmbench_state_warm(PMBENCH_STATE_CACHE));
	CHECK(pmbench_state_warm(PMBENCH_STATE_NODE_MODULES));
	CHECK(!pmbench_state_warm(PMBENCH_STATE_LOCKFILE));
	run_of(&s, 0, 0, 0);
	CHECK_INT(pmbench_state_proof(&why, &s), PMBENCH_PROOF_PASS);
	CHECK_STR(why.ptr, "installed with the registry offline, asking it "
			   "nothing");
	pmbench_buf_reset(&why);
	pmbench_sample_metric_set(&s, "registry_other_requests", 1);
	CHECK_INT(pmbench_state_proof(&why, &s), PMBENCH_PROOF_FAIL);
	CHECK_STR(why.ptr, "not warm: it asked the registry 1 request (1 "
			   "other) with it offline, every one refused, and "
			   "went on");
	pmbench_sample_release(&s);
	run_of(&s, 162, 2, 0);
	s.ok = 0;
	s.failure = pmbench_xstrdup("exit 1: ERR_PNPM_META_FETCH_FAIL");
	pmbench_buf_reset(&why);
	CHECK_INT(pmbench_state_proof(&why, &s), PMBENCH_PROOF_FAIL);
	CHECK_STR(why.ptr, "not warm: it failed with the registry offline, "
			   "after 164 requests (162 packuments, 2 tarballs): "
			   "exit 1: ERR_PNPM_META_FETCH_FAIL");
	pmbench_sample_release(&s);
	/* Without the mirror's counts nothing can be told. */
	memset(&s, 0, sizeof(s));
	s.ok = 1;
	CHECK_INT(pmbench_state_proof(&why, &s), PMBENCH_PROOF_NONE);
	/* Written, read back, and a failure anywhere kept by the merge. */
	proven(&in[0], 1, PMBENCH_PROOF_PASS, "asking it nothing");
	proven(&in[1], 2, PMBENCH_PROOF_FAIL, "not warm: it asked");
	CHECK_INT(pmbench_merge(&m, in, names, 2), 0);
	json = pmbench_result_to_json(&m);
	pmbench_result_release(&m);
	CHECK_INT(pmbench_result_from_json(&m, json, "merged"), 0);
	CHECK_INT(m.cells[0].proof, PMBENCH_PROOF_FAIL);
	CHECK_STR(m.cells[0].proof_why, "not warm: it asked");
	pmbench_result_release(&m);
	in[1].cells[0].proof = PMBENCH_PROOF_NONE;
	CHECK_INT(pmbench_merge(&m, in, names, 2), 0);
	CHECK_INT(m.cells[0].proof, PMBENCH_PROOF_PASS);
	free(json);
	pmbench_result_release(&m);
	pmbench_result_release(&in[0]);
	pmbench_result_release(&in[1]);
	pmbench_buf_release(&why);
}

/* A --ci cell's `ci`: written, read back, kept by the merge. */
TEST(ci_is_kept)
{
	struct pmbench_result in[2] = { PMBENCH_RESULT_INIT,
					PMBENCH_RESULT_INIT };
	struct pmbench_result m = PMBENCH_RESULT_INIT;
	const char *names[] = { "a.json", "b.json" };
	char *json;

	proven(&in[0], 1, PMBENCH_PROOF_NONE, NULL);
	proven(&in[1], 2, PMBENCH_PROOF_NONE, NULL);
	in[0].cells[0].ci = in[1].cells[0].ci = 1;
	CHECK_INT(pmbench_merge(&m, in, names, 2), 0);
	CHECK_INT(m.cells[0].ci, 1);
	json = pmbench_result_to_json(&m);
	CHECK_CONTAINS(json, "\"ci\":\ttrue");
	pmbench_result_release(&m);
	CHECK_INT(pmbench_result_from_json(&m, json, "merged"), 0);
	CHECK_INT(m.cells[0].ci, 1);
	free(json);
	pmbench_result_release(&m);
	pmbench_result_release(&in[0]);
	pmbench_result_release(&in[1]);
}

CHECK_MAIN(CASE(empty_cache_downloads_every_tarball), CASE(offline_proof),
	   CASE(ci_is_kept), CASE(node_modules_in_place_is_not_written),
	   CASE(warm_cache_downloads_nothing), CASE(lockfile_resolves_nothing),
	   CASE(unchecked_without_the_mirror), CASE(wrong_state_is_no_time))
