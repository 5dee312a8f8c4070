/*
 * Each of the eight scenarios gives every PM exactly its state: the fake
 * PMs log what they find (cache warm, own lockfile, node_modules, other
 * lockfiles, CI, Node's compile cache in the temp folder) before they do
 * anything, and the log is checked against the scenario of each timed
 * run.
 */
#include "pmbench/common.h"

#include "check.h"
#include "fields.h"
#include "harness.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"

static const char *const pms[] = { "npm",  "yarn", "yarn-berry",
				   "pnpm", "bun",  "deno" };

static const char *const own_lockfile[] = {
	"package-lock.json", "yarn.lock", "yarn.lock",
	"pnpm-lock.yaml",    "bun.lock",  "deno.lock",
};

/* findmnt's file system type, mount point and source of `path`; 0 or -1. */
static int findmnt(char *type, char *point, char *source, const char *path)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	int n = 0;

	pmbench_strvec_pushv(&c.args,
			     (const char *const[]){ "findmnt", "-n", "-o",
						    "FSTYPE,TARGET,SOURCE",
						    "-T", path, NULL });
	if (!pmbench_child_run(&c) && c.result.exit_code == 0)
		n = sscanf(c.tail.ptr, "%255s %4095s %4095s", type, point,
			   source);
	pmbench_child_release(&c);
	return n == 3 ? 0 : -1;
}

TEST(eight_states_exactly)
{
	static const char *const scenarios[8] = {
		"clean",
		"cache",
		"lockfile",
		"node_modules",
		"cache+lockfile",
		"cache+node_modules",
		"lockfile+node_modules",
		"cache+lockfile+node_modules",
	};
	const char *proj;
	struct h_run run;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	cJSON *log;
	const char *out;

	h_setup();
	h_home_markers();
	proj = h_project("proj");
	out = h_write("result.json", "");
	{
		const char *args[] = { "bench", "--scenario", "all", "--runs",
				       "2",	"--warmup",   "1",   "--out",
				       out,	proj,	      NULL };

		struct pmbench_strvec env = PMBENCH_STRVEC_INIT;

		pmbench_strvec_push(&env, "FAKEPM_LOG_VARS=TMPDIR,TMP,TEMP");
		h_pmbench(&run, args, &env);
		pmbench_strvec_release(&env);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	/*
	 * Six PMs in each of the 8 scenarios (the drift control is off:
	 * test_drift.c checks its cell in each scenario).
	 */
	CHECK_INT(r.cells_nr, 8 * 6);
	/*
	 * The file system under the runs, as findmnt (util-linux) says it:
	 * the known answer from outside the module that wrote it.
	 */
	{
		const char *fs = pmbench_result_env_get(&r, "filesystem");
		char type[256], point[4096], source[4096], at[8600];

		CHECK_INT(findmnt(type, point, source, h_cache()), 0);
		snprintf(at, sizeof(at), " at %s from %s;", point, source);
		CHECK(fs && !strncmp(fs, type, strlen(type)) &&
		      (fs[strlen(type)] == ' '));
		CHECK_CONTAINS(fs, at);
	}

	log = h_log_entries();
	for (size_t p = 0; p < PMBENCH_ARRAY_SIZE(pms); p++) {
		cJSON *mine = h_log_of(log, pms[p]);
		size_t n = (size_t)cJSON_GetArraySize(mine);
		struct pmbench_buf cachedir = PMBENCH_BUF_INIT;

		/* One priming install, then 3 rounds in each of 8 scenarios. */
		if (n != 1 + 8 * 3) {
			check_fail(__FILE__, __LINE__, "%s ran %zu times",
				   pms[p], n);
			cJSON_Delete(mine);
			break;
		}
		pmbench_buf_addf(&cachedir, "%s/pm/%s/", h_cache(), pms[p]);
		for (size_t i = 0; i < n; i++) {
			const cJSON *e = cJSON_GetArrayItem(mine, (int)i);
			unsigned want = 0;
			const cJSON *any, *l;

			if (i) {
				const char *sc = scenarios[(i - 1) / 3];

				want = (strstr(sc, "cache") ? 1 : 0) |
				       (strstr(sc, "lockfile") ? 2 : 0) |
				       (strstr(sc, "node_modules") ? 4 : 0);
			}
			CHECK_INT(h_flag(e, "cache_warm"), (want & 1) != 0);
			/*
			 * Node's compile cache goes with the cache; nothing
			 * else a run left in the temp folder reaches the next.
			 */
			CHECK_INT(h_flag(e, "tmp_compile_cache"),
				  (want & 1) != 0);
			CHECK(h_num(e, "tmp_others") == 0);
			CHECK_INT(h_flag(e, "lockfile"), (want & 2) != 0);
			CHECK_INT(h_flag(e, "node_modules"), (want & 4) != 0);
			CHECK_INT(h_flag(e, "node_modules_any"),
				  (want & 4) != 0);
			/* No other PM's lockfile is ever lying around. */
			any = cJSON_GetObjectItemCaseSensitive(e,
							       "lockfile_any");
			cJSON_ArrayForEach(l, any)
				CHECK_STR(l->valuestring, own_lockfile[p]);
			/* The caller's CI=true never reaches a PM. */
			CHECK(cJSON_IsNull(
				cJSON_GetObjectItemCaseSensitive(e, "ci")));
			/* Each PM's cache is its own folder under cache/pm/. */
			CHECK(h_str(e, "cache_dir"));
			CHECK(!strncmp(h_str(e, "cache_dir"), cachedir.ptr,
				       cachedir.len));
			/* So is its temp folder, whatever the scenario. */
			for (int k = 0; k < 3; k++) {
				static const char *const vars[] = {
					"TMPDIR",
					"TMP",
					"TEMP",
				};
				const char *v =
					h_str(cJSON_GetObjectItemCaseSensitive(
						      e, "env"),
					      vars[k]);

				CHECK(v);
				CHECK(!strncmp(v, cachedir.ptr, cachedir.len));
				CHECK_STR(v + cachedir.len, "tmp");
			}
		}
		pmbench_buf_release(&cachedir);
		cJSON_Delete(mine);
	}
	cJSON_Delete(log);

	for (size_t i = 0; i < r.cells_nr; i++) {
		const struct pmbench_cell *c = &r.cells[i];
		size_t n = 0;
		double *t = pmbench_cell_times(c, &n);

		free(t);
		CHECK_INT(n, 2);
		CHECK_INT(c->samples_nr, 3);
		CHECK(c->samples[0].warmup);
		/* The drift control is pmbench's own work, not a PM's. */
		if (!strcmp(c->pm, "(control)"))
			continue;
		CHECK(c->lockfile && strstr(c->lockfile, "priming install"));
		CHECK(c->scripts && strstr(c->scripts, "has-script@"));
		CHECK(c->samples[1].nm_files >= 3);
		CHECK(c->samples[1].wall_ns > 0);
	}
	H_CHECK_HOME_INTACT(&why);
	pmbench_buf_release(&why);
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(shipped_lockfile_is_used_by_its_pm)
{
	const char *proj, *out;
	struct h_run run;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;

	h_setup();
	proj = h_project("proj");
	h_write("proj/yarn.lock", "# yarn lockfile v1\n# generated by "
				  "fakepm yarn\n");
	out = h_write("result.json", "");
	{
		const char *args[] = { "bench",	     "--pm",	 "yarn,npm,bun",
				       "--scenario", "lockfile", "--runs",
				       "1",	     "--warmup", "0",
				       "--out",	     out,	 proj,
				       NULL };

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	c = pmbench_result_find_cell(&r, "proj", "install", "lockfile", "yarn");
	CHECK(c);
	CHECK_STR(c->lockfile, "yarn.lock shipped with the fixture");
	c = pmbench_result_find_cell(&r, "proj", "install", "lockfile", "npm");
	CHECK(c);
	CHECK_CONTAINS(c->lockfile, "package-lock.json written by");
	c = pmbench_result_find_cell(&r, "proj", "install", "lockfile", "bun");
	CHECK(c);
	CHECK_CONTAINS(c->lockfile, "bun.lock written by");
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(order_rotates_each_round)
{
	struct pmbench_buf order = PMBENCH_BUF_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char out[4200];
	const char *proj;
	struct h_run run;
	const cJSON *e;
	cJSON *log;
	size_t n = 0;

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	{
		const char *args[] = { "bench",
				       "--pm",
				       "npm,bun,pnpm",
				       "--scenario",
				       "cache+lockfile",
				       "--runs",
				       "2",
				       "--warmup",
				       "1",
				       "--out",
				       out,
				       proj,
				       NULL };

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 0);
	/* The result says how runs were ordered and how names resolve. */
	CHECK_INT(pmbench_result_read(&r, out), 0);
	CHECK_CONTAINS(pmbench_result_env_get(&r, "run_order"), "rotates");
	CHECK_CONTAINS(pmbench_result_env_get(&r, "resolver"), "nameserver");
	pmbench_result_release(&r);
	/* After the three primings, three rounds of three timed installs. */
	log = h_log_entries();
	cJSON_ArrayForEach(e, log)
	{
		if (n++ >= 3)
			pmbench_buf_addf(&order, "%s ", h_str(e, "pm"));
	}
	CHECK_STR(order.ptr, "npm bun pnpm bun pnpm npm pnpm npm bun ");
	cJSON_Delete(log);
	pmbench_buf_release(&order);
	h_run_release(&run);
}

/*
 * A reset undoes what a run did to its state, however it did it: the
 * fakes overwrite every file of node_modules and the cache in place,
 * change modes and add files and folders (FAKEPM_SCRIBBLE), and each
 * run's digest of both trees, taken before that, is the same in every
 * round of a scenario.
 */
TEST(resets_undo_what_a_run_did)
{
	static const char *const some[] = { "npm", "pnpm", "yarn", "bun" };
	static const char *const keys[] = { "node_modules_digest",
					    "cache_digest" };
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	const char *proj, *out;
	struct h_run run;
	cJSON *log;

	h_setup();
	proj = h_project("proj");
	out = h_write("result.json", "");
	{
		const char *args[] = { "bench",
				       "--pm",
				       "npm,pnpm,yarn,bun",
				       "--scenario",
				       "cache+lockfile,cache+lockfile+"
				       "node_modules",
				       "--runs",
				       "3",
				       "--warmup",
				       "1",
				       "--out",
				       out,
				       proj,
				       NULL };

		pmbench_strvec_push(&env, "FAKEPM_DIGEST=1");
		pmbench_strvec_push(&env, "FAKEPM_SCRIBBLE=1");
		h_pmbench(&run, args, &env);
		pmbench_strvec_release(&env);
	}
	CHECK_INT(run.exit_code, 0);
	log = h_log_entries();
	for (size_t p = 0; p < PMBENCH_ARRAY_SIZE(some); p++) {
		cJSON *mine = h_log_of(log, some[p]);

		/* The priming, then 4 rounds of each scenario. */
		CHECK_INT(cJSON_GetArraySize(mine), 1 + 2 * 4);
		for (int i = 1; i < cJSON_GetArraySize(mine); i++) {
			const cJSON *e = cJSON_GetArrayItem(mine, i);
			const cJSON *first =
				cJSON_GetArrayItem(mine, 1 + (i - 1) / 4 * 4);

			for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(keys); k++) {
				const char *d = h_str(e, keys[k]);

				/* cache+lockfile has no node_modules. */
				if (k == 0 && i <= 4) {
					CHECK(!d);
					continue;
				}
				CHECK(d);
				if (!d || !h_str(first, keys[k]))
					continue;
				if (strcmp(d, h_str(first, keys[k])))
					check_fail(__FILE__, __LINE__,
						   "%s run %d: %s %s, not %s "
						   "as in the first round",
						   some[p], i, keys[k], d,
						   h_str(first, keys[k]));
			}
		}
		cJSON_Delete(mine);
	}
	cJSON_Delete(log);
	h_run_release(&run);
}

CHECK_MAIN(CASE(eight_states_exactly), CASE(shipped_lockfile_is_used_by_its_pm),
	   CASE(order_rotates_each_round), CASE(resets_undo_what_a_run_did))
