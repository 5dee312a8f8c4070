/*
 * PM variants end to end against the fakes. A variant (a PM with a
 * configuration: npm:linked, yarn-berry:pnp, ...) is one entry of the
 * PM table and a PM of its own: primed, timed in every scenario, in its
 * own column, with its own cache and work folder, its configuration in
 * the result and its arguments and environment in its cells. Plug'n'Play
 * has no node_modules to measure and says so; the manifest's per-PM
 * settings reach the variants of a PM.
 */
#include "pmbench/common.h"

#include "check.h"
#include "fields.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/result.h"

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

/* The fakes' log entries of the PM whose work folder is `folder`. */
static cJSON *log_of_folder(cJSON *entries, const char *fixture,
			    const char *folder)
{
	struct pmbench_buf want = PMBENCH_BUF_INIT;
	cJSON *arr = cJSON_CreateArray(), *e;

	pmbench_buf_addf(&want, "/work/%s/%s/run", fixture, folder);
	cJSON_ArrayForEach(e, entries)
	{
		const char *cwd = h_str(e, "cwd");
		const char *at = cwd ? strstr(cwd, want.ptr) : NULL;

		if (at && (!at[want.len] || at[want.len] == '/'))
			cJSON_AddItemToArray(arr, cJSON_Duplicate(e, 1));
	}
	pmbench_buf_release(&want);
	return arr;
}

static int argv_has(const cJSON *e, const char *arg)
{
	const cJSON *a;

	cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(
				      e, "argv")) if (cJSON_IsString(a) &&
						      !strcmp(a->valuestring,
							      arg)) return 1;
	return 0;
}

static const struct pmbench_result_pm *record(const struct pmbench_result *r,
					      const char *name)
{
	for (size_t i = 0; i < r->found_nr; i++)
		if (!strcmp(r->found[i].name, name))
			return &r->found[i];
	return NULL;
}

/*
 * What one variant must show after `bench --pm <base>,<variant>
 * --scenario all`: `want_arg` (an install argument, or NULL) in its
 * commands, `want_env` ("K=V", or NULL) in its environment (the fakes
 * log K), `want_linker` (or NULL) the linker the fake saw.
 */
struct want {
	const char *variant;
	const char *want_arg;
	const char *want_env;
	const char *want_linker;
};

/* The variant's cells: one per scenario, each run ok, argv and env. */
static void check_cells(int *out, const struct pmbench_result *r,
			const struct want *w, const struct pmbench_pm *pm)
{
	*out = 0;
	for (size_t s = 0; s < PMBENCH_ARRAY_SIZE(scenarios); s++) {
		const struct pmbench_cell *c = pmbench_result_find_cell(
			r, "proj", "install", scenarios[s], w->variant);

		CHECK(c);
		CHECK(!c->prime_failure);
		CHECK_INT(c->samples_nr, 1);
		CHECK(c->samples[0].ok);
		CHECK(c->samples[0].wall_ns > 0);
		if (w->want_arg)
			CHECK(pmbench_strvec_find(&c->command, w->want_arg) >=
			      0);
		if (w->want_env)
			CHECK(pmbench_strvec_find(&c->env, w->want_env) >= 0);
		/* The install-script scan read its layout. */
		CHECK(c->scripts && strstr(c->scripts, "has-script@1.0.0"));
		if (pm->caps & PMBENCH_PM_NO_NODE_MODULES) {
			CHECK(c->samples[0].no_node_modules);
			CHECK_INT(c->samples[0].nm_files, 0);
			CHECK(c->note &&
			      strstr(c->note, "node_modules: n/a: "));
		} else {
			CHECK(!c->samples[0].no_node_modules);
			CHECK(c->samples[0].nm_files >= 3);
			CHECK(!c->note);
		}
	}
	*out = 1;
}

/*
 * What the fake saw, run by run: one priming, then one install per
 * scenario in order, each in the variant's own work and cache folder,
 * in exactly the scenario's state, with its arguments and settings.
 */
static void check_log(int *out, const struct want *w,
		      const struct pmbench_pm *pm)
{
	const char *folder = pmbench_pm_folder(pm);
	struct pmbench_buf cachedir = PMBENCH_BUF_INIT;
	cJSON *log = h_log_entries();
	cJSON *mine = log_of_folder(log, "proj", folder);
	cJSON *base = log_of_folder(log, "proj", pm->base);
	size_t eq = w->want_env ? strcspn(w->want_env, "=") : 0;
	char key[128];

	*out = 0;
	snprintf(key, sizeof(key), "%.*s", (int)eq,
		 w->want_env ? w->want_env : "");
	pmbench_buf_addf(&cachedir, "%s/pm/%s/", h_cache(), folder);
	CHECK_INT(cJSON_GetArraySize(mine), 1 + 8);
	CHECK_INT(cJSON_GetArraySize(base), 1 + 8);
	for (int i = 0; i < 1 + 8; i++) {
		const cJSON *e = cJSON_GetArrayItem(mine, i);
		const cJSON *b = cJSON_GetArrayItem(base, i);
		const char *sc = i ? scenarios[i - 1] : "clean";

		CHECK_STR(h_str(e, "pm"), pm->base);
		CHECK(h_str(e, "cache_dir"));
		CHECK(!strncmp(h_str(e, "cache_dir"), cachedir.ptr,
			       cachedir.len));
		CHECK_INT(h_flag(e, "cache_warm"), i && strstr(sc, "cache"));
		CHECK_INT(h_flag(e, "lockfile"), i && strstr(sc, "lockfile"));
		CHECK_INT(h_flag(e, "node_modules"),
			  i && strstr(sc, "node_modules"));
		if (pm->caps & PMBENCH_PM_NO_NODE_MODULES)
			CHECK(!h_flag(e, "node_modules_any"));
		if (w->want_arg) {
			CHECK(argv_has(e, w->want_arg));
			CHECK(!argv_has(b, w->want_arg));
		}
		if (w->want_env)
			CHECK_STR(h_str(cJSON_GetObjectItem(e, "env"), key),
				  w->want_env + eq + 1);
		if (w->want_linker) {
			CHECK_STR(h_str(e, "linker"), w->want_linker);
			CHECK(strcmp(h_str(b, "linker"), w->want_linker));
		}
	}
	cJSON_Delete(mine);
	cJSON_Delete(base);
	cJSON_Delete(log);
	pmbench_buf_release(&cachedir);
	*out = 1;
}

/* Measure `w->variant` beside its base, in every scenario, and check it. */
static void measure_variant(int *out, const struct want *w)
{
	const struct pmbench_pm *pm = pmbench_pm_get(w->variant);
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_buf list = PMBENCH_BUF_INIT;
	const struct pmbench_result_pm *rec;
	const char *proj;
	struct h_run run;
	char result[4200];

	*out = 0;
	CHECK(pm && pm->base);
	h_setup();
	proj = h_project("proj");
	snprintf(result, sizeof(result), "%s", h_write("result.json", ""));
	pmbench_buf_addf(&list, "%s,%s", pm->base, w->variant);
	if (w->want_env)
		pmbench_strvec_pushf(&env, "FAKEPM_LOG_VARS=%.*s",
				     (int)strcspn(w->want_env, "="),
				     w->want_env);
	{
		const char *args[] = { "bench",	     "--pm",	 list.ptr,
				       "--scenario", "all",	 "--runs",
				       "1",	     "--warmup", "0",
				       "--out",	     result,	 proj,
				       NULL };

		h_pmbench(&run, args, &env);
	}
	if (run.exit_code)
		fprintf(stderr, "%s\n", run.out.ptr);
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, result), 0);
	/* Its own column: the base's cells and its own (no control). */
	CHECK_INT(r.cells_nr, 2 * 8);
	rec = record(&r, w->variant);
	CHECK(rec && rec->path && rec->version);
	CHECK_STR(rec->base, pm->base);
	CHECK(rec->config && !strncmp(rec->config, pm->base, strlen(pm->base)));
	if (w->want_arg)
		CHECK_CONTAINS(rec->config, w->want_arg);
	if (w->want_env)
		CHECK_CONTAINS(rec->config, w->want_env);
	CHECK(!record(&r, pm->base)->config);
	H_CHECK_CALL(check_cells, &r, w, pm);
	H_CHECK_CALL(check_log, w, pm);
	pmbench_result_release(&r);
	pmbench_strvec_release(&env);
	pmbench_buf_release(&list);
	h_run_release(&run);
	*out = 1;
}

TEST(npm_linked)
{
	static const struct want w = { "npm:linked",
				       "--install-strategy=linked", NULL,
				       "linked" };

	H_CHECK_CALL(measure_variant, &w);
}

TEST(bun_isolated)
{
	static const struct want w = { "bun:isolated", "isolated", NULL,
				       "isolated" };

	H_CHECK_CALL(measure_variant, &w);
}

TEST(pnpm_hoisted)
{
	static const struct want w = { "pnpm:hoisted", NULL,
				       "pnpm_config_node_linker=hoisted",
				       "hoisted" };

	H_CHECK_CALL(measure_variant, &w);
}

TEST(yarn_berry_pnpm)
{
	static const struct want w = { "yarn-berry:pnpm", NULL,
				       "YARN_NODE_LINKER=pnpm", "pnpm" };

	H_CHECK_CALL(measure_variant, &w);
}

/*
 * The proof that a variant is one table entry: npm:prefer-offline was
 * added to pm.c with this test and nothing else, and is primed, timed in
 * every scenario in its own column and folders, with its configuration
 * in the result and its argument in its cells and the fake's argv.
 */
TEST(one_entry_makes_a_variant)
{
	static const struct want w = { "npm:prefer-offline", "--prefer-offline",
				       NULL, NULL };

	H_CHECK_CALL(measure_variant, &w);
}

/*
 * Plug'n'Play: no node_modules at all. The sizes are left out of the
 * file (not written as 0), the cell says why, and the "node_modules"
 * state is its install state (.pnp.cjs and the rest), restored.
 */
TEST(yarn_berry_pnp)
{
	static const struct want w = { "yarn-berry:pnp", NULL,
				       "YARN_NODE_LINKER=pnp", "pnp" };
	const cJSON *s;
	cJSON *json;

	H_CHECK_CALL(measure_variant, &w);
	json = h_read_json(check_path("result.json"));
	CHECK(json);
	s = h_json_sample(json, "install", "cache+lockfile+node_modules",
			  "yarn-berry:pnp", 0);
	CHECK(s);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(s, "no_node_modules")));
	CHECK(!cJSON_GetObjectItem(s, "node_modules_bytes"));
	CHECK(!cJSON_GetObjectItem(s, "node_modules_files"));
	s = h_json_sample(json, "install", "cache+lockfile+node_modules",
			  "yarn-berry", 0);
	CHECK(cJSON_IsNumber(cJSON_GetObjectItem(s, "node_modules_bytes")));
	cJSON_Delete(json);
}

/*
 * The manifest's settings for a PM apply to its variants too, and a
 * variant's own key comes after them (its environment wins).
 */
TEST(manifest_settings_reach_the_variants)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	struct h_run run;
	char manifest[4200], result[4200];
	cJSON *log, *mine;

	h_setup();
	h_project("proj");
	snprintf(manifest, sizeof(manifest), "%s",
		 h_write("proj.json",
			 "{ \"name\": \"proj\", \"repo\": \"proj\", \"pm\": {"
			 " \"npm\": { \"flags\": [\"--base-flag\"], \"env\": "
			 "{ \"FAKE_FIXTURE_ENV\": \"base\" } },"
			 " \"npm:linked\": { \"flags\": [\"--own-flag\"], "
			 "\"env\": { \"FAKE_FIXTURE_ENV\": \"variant\" } } "
			 "} }\n"));
	snprintf(result, sizeof(result), "%s", h_write("result.json", ""));
	{
		const char *args[] = {
			"bench",      "--pm",		"npm,npm:linked",
			"--scenario", "cache+lockfile", "--runs",
			"1",	      "--warmup",	"0",
			"--out",      result,		manifest,
			NULL
		};

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, result), 0);
	c = pmbench_result_find_cell(&r, "proj", "install", "cache+lockfile",
				     "npm:linked");
	CHECK(c);
	CHECK(pmbench_strvec_find(&c->command, "--base-flag") >= 0);
	CHECK(pmbench_strvec_find(&c->command, "--own-flag") >
	      pmbench_strvec_find(&c->command, "--base-flag"));
	CHECK_STR(pmbench_env_get(&c->env, "FAKE_FIXTURE_ENV"), "variant");
	c = pmbench_result_find_cell(&r, "proj", "install", "cache+lockfile",
				     "npm");
	CHECK(pmbench_strvec_find(&c->command, "--own-flag") < 0);
	CHECK_STR(pmbench_env_get(&c->env, "FAKE_FIXTURE_ENV"), "base");
	log = h_log_entries();
	mine = log_of_folder(log, "proj", "npm_linked");
	CHECK_INT(cJSON_GetArraySize(mine), 2);
	CHECK(argv_has(cJSON_GetArrayItem(mine, 1), "--own-flag"));
	CHECK_STR(h_str(cJSON_GetObjectItem(cJSON_GetArrayItem(mine, 1), "env"),
			"FAKE_FIXTURE_ENV"),
		  "variant");
	cJSON_Delete(mine);
	cJSON_Delete(log);
	pmbench_result_release(&r);
	h_run_release(&run);
}

/*
 * ci-cache: a variant's CI install carries its arguments too, and
 * Plug'n'Play's "node_modules" strategy caches its install state.
 */
TEST(ci_cache_with_variants)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c = NULL;
	struct h_run run;
	char result[4200];
	const char *proj;

	h_setup();
	proj = h_project("proj");
	snprintf(result, sizeof(result), "%s", h_write("result.json", ""));
	{
		const char *args[] = { "ci-cache",
				       "--pm",
				       "bun:isolated,yarn-berry:pnp",
				       "--strategy",
				       "node_modules",
				       "--runs",
				       "1",
				       "--no-lockfile-change",
				       "--out",
				       result,
				       proj,
				       NULL };

		h_pmbench(&run, args, NULL);
	}
	if (run.exit_code)
		fprintf(stderr, "%s\n", run.out.ptr);
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, result), 0);
	for (size_t i = 0; i < r.cells_nr; i++) {
		const struct pmbench_cell *x = &r.cells[i];

		CHECK(x->samples_nr >= 1);
		CHECK(x->samples[0].ok);
		if (!strcmp(x->pm, "bun:isolated")) {
			CHECK(pmbench_strvec_find(&x->command,
						  "--frozen-lockfile") >= 0);
			CHECK(pmbench_strvec_find(&x->command, "isolated") >=
			      0);
			CHECK(x->samples[0].nm_files >= 3);
		} else {
			CHECK_STR(x->pm, "yarn-berry:pnp");
			CHECK(x->samples[0].no_node_modules);
			CHECK(x->note);
			c = x;
		}
	}
	CHECK(c);
	pmbench_result_release(&r);
	h_run_release(&run);
}

/*
 * migrate to variants: each starts from the source's lockfile the way
 * its base does, and the resolution diff reads its layout (a store, or
 * the Plug'n'Play map).
 */
TEST(migrate_to_variants)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	struct h_run run;
	char report[4200];
	const cJSON *e;
	cJSON *rep;
	const char *proj;

	h_setup();
	proj = h_project("app");
	h_write("app/package-lock.json",
		"{\n  \"name\": \"fakepm-project\",\n"
		"  \"lockfileVersion\": 3,\n"
		"  \"generatedBy\": \"generated by fakepm npm\",\n"
		"  \"packages\": {}\n}\n");
	snprintf(report, sizeof(report), "%s/migrate.json", h_cache());
	{
		const char *args[] = {
			"migrate",    proj,
			"--to",	      "npm:linked,yarn-berry:pnp",
			"--runs",     "1",
			"--warmup",   "0",
			"--scenario", "cache+lockfile",
			"--task",     "build",
			"--out",      report,
			NULL
		};

		h_pmbench(&run, args, NULL);
	}
	if (run.exit_code)
		fprintf(stderr, "%s\n", run.out.ptr);
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_fs_read(&text, report, 1u << 24), 0);
	rep = cJSON_Parse(text.ptr);
	CHECK(rep);
	cJSON_ArrayForEach(e, cJSON_GetObjectItem(rep, "pms"))
	{
		const char *pm = h_str(e, "pm");
		const cJSON *res = cJSON_GetObjectItem(e, "resolution");

		if (!strcmp(pm, "npm"))
			continue;
		/* left-pad and has-script, the same as npm's. */
		CHECK(res);
		CHECK_INT(cJSON_GetObjectItem(res, "identical")->valueint, 2);
		CHECK_INT(cJSON_GetObjectItem(res, "changed")->valueint, 0);
		if (!strcmp(pm, "npm:linked"))
			CHECK_CONTAINS(h_str(e, "lockfile"),
				       "package-lock.json");
	}
	cJSON_Delete(rep);
	pmbench_buf_release(&text);
	h_run_release(&run);
}

/* An unknown variant is a usage error that says where to look. */
TEST(unknown_variant)
{
	struct h_run run;
	const char *proj;

	h_setup();
	proj = h_project("proj");
	{
		const char *args[] = { "bench", "--pm", "npm:nope", proj,
				       NULL };

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 129);
	CHECK_CONTAINS(run.out.ptr, "unknown package manager 'npm:nope'");
	CHECK_CONTAINS(run.out.ptr,
		       "bun or deno, or a variant ('pmbench pms')");
	h_run_release(&run);
}

CHECK_MAIN(CASE(npm_linked), CASE(bun_isolated), CASE(pnpm_hoisted),
	   CASE(yarn_berry_pnpm), CASE(yarn_berry_pnp),
	   CASE(one_entry_makes_a_variant),
	   CASE(manifest_settings_reach_the_variants),
	   CASE(ci_cache_with_variants), CASE(migrate_to_variants),
	   CASE(unknown_variant))
