/*
 * ci-cache with fake package managers: the store strategy restores the
 * cache the fake then finds warm, the node_modules strategy makes the
 * install a no-op but for npm ci (which deletes node_modules first, as
 * the PM table says and each fake does), frozen installs are frozen, sizes and times reach the
 * JSON and the table, failures are results, bad options are one line,
 * and nothing is written outside pmbench's work folders.
 */
#include "pmbench/common.h"

#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "fields.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"

static int has_arg(const cJSON *e, const char *arg)
{
	const cJSON *a;

	cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(
				      e, "argv")) if (cJSON_IsString(a) &&
						      !strcmp(a->valuestring,
							      arg)) return 1;
	return 0;
}

static const struct pmbench_cell *cell(const struct pmbench_result *r,
				       const char *sc, const char *pm)
{
	return pmbench_result_find_cell(r, "proj", "ci-cache", sc, pm);
}

/*
 * ci-cache for npm and pnpm with `strategy` and `runs`, the fakes tuned by
 * `env` ("K=V" strings, NULL-terminated; may be NULL): it must exit with
 * `exit_code` and leave a result, read into `r`.
 */
static void run_ci(int *out, struct pmbench_result *r, struct h_run *run,
		   const char *strategy, const char *runs,
		   const char *const *env, int exit_code)
{
	struct pmbench_strvec envv = PMBENCH_STRVEC_INIT;
	char result[4200], proj[4200];

	*out = 0;
	snprintf(proj, sizeof(proj), "%s", h_project("proj"));
	snprintf(result, sizeof(result), "%s", h_write("result.json", ""));
	if (env)
		pmbench_strvec_pushv(&envv, env);
	{
		const char *args[] = {
			"ci-cache",   proj,	"--pm",		 "npm,pnpm",
			"--strategy", strategy, "--compression", "gzip",
			"--runs",     runs,	"--out",	 result,
			NULL,
		};

		h_pmbench(run, args, &envv);
	}
	pmbench_strvec_release(&envv);
	CHECK_INT(pmbench_result_read(r, result), 0);
	CHECK_INT(run->exit_code, exit_code);
	*out = 1;
}

TEST(store_restores_a_warm_cache)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf why = PMBENCH_BUF_INIT, listing = PMBENCH_BUF_INIT;
	struct h_run run;
	cJSON *log;

	h_setup();
	h_home_markers();
	H_CHECK_CALL(run_ci, &r, &run, "none,store", "2", NULL, 0);
	log = h_log_entries();
	for (int p = 0; p < 2; p++) {
		const char *pm = p ? "pnpm" : "npm";
		const char *frozen_word = p ? "--frozen-lockfile" : "ci";
		cJSON *mine = h_log_of(log, pm);
		/*
		 * prime; none: 2 hits, changed; store: miss, 2 hits,
		 * changed. Frozen and warm as a CI job would be.
		 */
		static const int frozen[] = { 0, 1, 1, 0, 1, 1, 1, 0 };
		static const int warm[] = { 0, 0, 0, 0, 0, 1, 1, 1 };
		int n = cJSON_GetArraySize(mine);

		if (n != 8) {
			check_fail(__FILE__, __LINE__, "%s ran %d times", pm,
				   n);
			cJSON_Delete(mine);
			break;
		}
		for (int i = 0; i < n; i++) {
			const cJSON *e = cJSON_GetArrayItem(mine, i);

			if (h_flag(e, "frozen") != frozen[i] ||
			    has_arg(e, frozen_word) != frozen[i] ||
			    h_flag(e, "cache_warm") != warm[i] ||
			    !h_flag(e, "lockfile") != (i == 0) ||
			    h_flag(e, "node_modules")) {
				check_fail(__FILE__, __LINE__,
					   "%s install %d: %s", pm, i,
					   cJSON_PrintUnformatted(e));
				break;
			}
		}
		cJSON_Delete(mine);
	}
	cJSON_Delete(log);

	for (int p = 0; p < 2; p++) {
		const char *pm = p ? "pnpm" : "npm";
		const struct pmbench_cell *c = cell(&r, "store/gzip-6", pm);
		const struct pmbench_cell *miss =
			cell(&r, "store/gzip-6/miss", pm);
		const struct pmbench_cell *none = cell(&r, "none", pm);

		CHECK(c && miss && none);
		CHECK(cell(&r, "store/gzip-6/lockfile-changed", pm));
		CHECK(cell(&r, "none/lockfile-changed", pm));
		CHECK_INT(c->samples_nr, 2);
		CHECK_INT(miss->samples_nr, 1);
		CHECK_INT(none->samples_nr, 2);
		CHECK_STR(c->command.v[1], p ? "install" : "ci");
		for (size_t i = 0; i < c->samples_nr; i++) {
			const struct pmbench_sample *s = &c->samples[i];

			CHECK(s->ok);
			CHECK(h_metric(s, "archive_bytes") > 0);
			/* The fake's cache is repetitive text. */
			CHECK(h_metric(s, "raw_bytes") >
			      h_metric(s, "archive_bytes"));
			CHECK(h_metric(s, "files_count") >= 1);
			CHECK(h_metric(s, "restore_bytes") > 0);
			CHECK(h_metric(s, "restore_s") > 0);
			CHECK(h_metric(s, "install_s") > 0);
			CHECK(h_metric(s, "save_s") > 0);
			CHECK(h_metric(s, "download_s") > 0);
			CHECK(h_metric(s, "upload_s") > 0);
			/* The job's total is its parts. */
			CHECK_NEAR((double)s->wall_ns / 1e9,
				   h_metric(s, "setup_s") +
					   h_metric(s, "restore_s") +
					   h_metric(s, "install_s") +
					   h_metric(s, "save_s"),
				   1e-6);
			CHECK(h_metric(s, "transfer_total_s") >
			      (double)s->wall_ns / 1e9);
			/* A key hit skips the save in the keyed model. */
			CHECK(h_metric(s, "keyed_total_s") <
			      h_metric(s, "transfer_total_s"));
		}
		CHECK_INT((long long)h_metric(&miss->samples[0],
					      "restore_bytes"),
			  0);
		CHECK(h_metric(&miss->samples[0], "archive_bytes") > 0);
		CHECK_INT((long long)h_metric(&none->samples[0],
					      "archive_bytes"),
			  0);
	}
	CHECK_STR(pmbench_result_env_get(&r, "ci_cache_bandwidth_bytes_per_s"),
		  "100000000");
	CHECK_CONTAINS(pmbench_result_env_get(&r, "ci_cache_lockfile_change"),
		       "left-pad 1.3.0 -> <1.3.0");
	CHECK_CONTAINS(run.out.ptr, "store/gzip-6");
	CHECK_CONTAINS(run.out.ptr, "* fastest");
	CHECK_CONTAINS(run.out.ptr, "fastest PM overall:");
	CHECK_CONTAINS(run.out.ptr, "100.0 MB/s");
	CHECK_CONTAINS(run.out.ptr, "npm (CI install: npm ci");
	/* The user's caches and the project itself are untouched. */
	H_CHECK_HOME_INTACT(&why);
	h_listing(&listing, check_path("proj"));
	CHECK_STR(listing.ptr, "package.json");
	pmbench_buf_release(&why);
	pmbench_buf_release(&listing);
	pmbench_result_release(&r);
	h_run_release(&run);
}

/*
 * The node_modules strategy: the restored node_modules makes pnpm's
 * frozen install a no-op; npm ci deletes it first, every time (npm's
 * documentation, docs/ci-cache.md and the PM table's
 * PMBENCH_PM_FROZEN_CLEARS), so for npm it is restored and still
 * installed. States from the fakes' log, no times (a time ratio here
 * failed under load, outside the timing label).
 */
TEST(node_modules_makes_the_install_a_noop)
{
	static const char *const env[] = { "FAKEPM_NOOP=1", NULL };
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	cJSON *log;

	h_setup();
	H_CHECK_CALL(run_ci, &r, &run, "node_modules", "2", env, 0);
	log = h_log_entries();
	for (int p = 0; p < 2; p++) {
		const char *pm = p ? "pnpm" : "npm";
		cJSON *mine = h_log_of(log, pm);
		const struct pmbench_cell *hit =
			cell(&r, "node_modules/gzip-6", pm);
		const struct pmbench_cell *miss =
			cell(&r, "node_modules/gzip-6/miss", pm);

		/* prime, miss, 2 hits, changed. */
		CHECK_INT(cJSON_GetArraySize(mine), 5);
		CHECK(!h_flag(cJSON_GetArrayItem(mine, 1), "node_modules"));
		CHECK(!h_flag(cJSON_GetArrayItem(mine, 1), "noop"));
		for (int i = 2; i < 4; i++) {
			const cJSON *e = cJSON_GetArrayItem(mine, i);

			CHECK(h_flag(e, "frozen"));
			CHECK(h_flag(e, "node_modules"));
			/* pnpm has nothing to do; npm ci deletes it. */
			CHECK_INT(h_flag(e, "noop"), p == 1);
			/* Only node_modules was cached. */
			CHECK(!h_flag(e, "cache_warm"));
		}
		cJSON_Delete(mine);
		CHECK(hit && miss && hit->samples_nr == 2);
		CHECK(hit->samples[0].ok && hit->samples[1].ok);
		CHECK(h_metric(&hit->samples[0], "install_s") > 0);
		CHECK(hit->samples[0].nm_files >= 3);
	}
	cJSON_Delete(log);
	CHECK_CONTAINS(run.out.ptr, "node_modules/gzip-6");
	pmbench_result_release(&r);
	h_run_release(&run);
}

/*
 * Each fake's CI install (the table's frozen_args) on a complete
 * node_modules, no-ops allowed: it deletes node_modules first (a file
 * put there is gone, the install is done again) exactly where pmbench's
 * table says the PM does (PMBENCH_PM_FROZEN_CLEARS), and is a no-op
 * everywhere else.
 */
static void ci_install_as_the_table_says(int *out, const struct pmbench_pm *pm)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf dir = PMBENCH_BUF_INIT, keep = PMBENCH_BUF_INIT;
	int clears = !!(pm->caps & PMBENCH_PM_FROZEN_CLEARS), has_nm = 0;

	*out = 0;
	pmbench_buf_addf(&dir, "%s", h_project(pm->name));
	for (int frozen = 0; frozen < 2; frozen++) {
		c = (struct pmbench_child)PMBENCH_CHILD_INIT;
		pmbench_strvec_push(&c.args, pm->name);
		pmbench_strvec_pushv(&c.args, frozen ? pm->frozen_args
						     : pm->install_args);
		pmbench_strvec_push(&c.env, "FAKEPM_NOOP=1");
		c.dir = dir.ptr;
		/* Plug'n'Play (yarn 4's default) makes no node_modules. */
		pmbench_buf_reset(&keep);
		pmbench_buf_path(&keep, dir.ptr, "node_modules");
		has_nm = pmbench_fs_isdir(keep.ptr);
		if (frozen && has_nm) {
			pmbench_buf_reset(&keep);
			pmbench_buf_path(&keep, dir.ptr,
					 "node_modules/put-there");
			CHECK_INT(pmbench_fs_write_atomic(keep.ptr, "x", 1), 0);
		}
		CHECK_INT(pmbench_child_run(&c), 0);
		CHECK_INT(c.result.exit_code, 0);
		if (frozen) {
			fprintf(stderr, "%s %s: %s", pm->name,
				pm->frozen_args[0], c.tail.ptr);
			CHECK_INT(strstr(c.tail.ptr, "already up to date") ==
					  NULL,
				  clears);
			if (has_nm)
				CHECK_INT(pmbench_fs_exists(keep.ptr), !clears);
		}
		pmbench_child_release(&c);
	}
	pmbench_buf_release(&dir);
	pmbench_buf_release(&keep);
	*out = 1;
}

TEST(fakes_ci_install_as_the_table_says)
{
	h_setup();
	for (size_t i = 0; i < pmbench_pms_nr; i++)
		H_CHECK_CALL(ci_install_as_the_table_says, &pmbench_pms[i]);
}

TEST(failed_jobs_are_results)
{
	/* npm fails once its cache is warm: every hit job. */
	static const char *const env[] = { "FAKEPM_NPM_MODE=fail",
					   "FAKEPM_NPM_WHEN=cache", NULL };
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	struct h_run run;

	h_setup();
	H_CHECK_CALL(run_ci, &r, &run, "store", "2", env, 2);
	c = cell(&r, "store/gzip-6/miss", "npm");
	CHECK(c && c->samples_nr == 1 && c->samples[0].ok);
	c = cell(&r, "store/gzip-6", "npm");
	CHECK(c && c->samples_nr == 2 && !c->samples[0].ok);
	CHECK_CONTAINS(c->samples[0].failure, "install failed on purpose");
	/* A failed install saves nothing. */
	CHECK_INT((long long)h_metric(&c->samples[0], "archive_bytes"), 0);
	c = cell(&r, "store/gzip-6", "pnpm");
	CHECK(c && c->samples_nr == 2 && c->samples[0].ok);
	CHECK_CONTAINS(run.out.ptr, "install failed on purpose");
	pmbench_result_release(&r);
	h_run_release(&run);
}

/* How many lines of the fake npm's global-install log name `spec`. */
static int global_installs(const char *path, const char *spec)
{
	struct pmbench_buf log = PMBENCH_BUF_INIT;
	int n = 0;

	if (!pmbench_fs_read(&log, path, 1u << 20))
		for (const char *p = log.ptr; (p = strstr(p, spec)); p++)
			n++;
	pmbench_buf_release(&log);
	return n;
}

/*
 * The setup step: npm comes with Node (nothing to do, 0 s); pnpm is
 * installed with `npm install --global pnpm@<its version>` by every job
 * but the toolchain strategy's hits and lockfile-changed job, which
 * restore the prefix the miss job saved. The setup is part of the job's
 * total, and the table says its share of a cold job.
 */
TEST(setup_step_gets_the_pm)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	struct h_run run;
	char logenv[4300], logpath[4200];
	const char *env[] = { logenv, NULL };

	h_setup();
	snprintf(logpath, sizeof(logpath), "%s", h_write("global.log", ""));
	snprintf(logenv, sizeof(logenv), "FAKEPM_GLOBAL_LOG=%s", logpath);
	H_CHECK_CALL(run_ci, &r, &run, "none,store+toolchain", "2", env, 0);
	/* Priming, none's 2 hits and changed job, the toolchain's miss. */
	CHECK_INT(global_installs(logpath, "\"spec\":\"pnpm@"), 5);
	CHECK_INT(global_installs(logpath, "\"spec\":\"npm@"), 0);
	/* The jobs' setups run as on a runner; the priming's is pmbench's. */
	CHECK_INT(global_installs(logpath, "\"ci\":\"true\""), 4);
	CHECK_INT(global_installs(logpath, "\"ci\":\"\""), 1);
	for (int k = 0; k < 4; k++) {
		static const char *const sc[] = {
			"none", "store+toolchain/gzip-6/miss",
			"store+toolchain/gzip-6",
			"store+toolchain/gzip-6/lockfile-changed"
		};

		c = cell(&r, sc[k], "npm");
		CHECK(c && c->samples_nr && c->samples[0].ok);
		for (size_t i = 0; c && i < c->samples_nr; i++)
			CHECK_INT((long long)h_metric(&c->samples[i],
						      "setup_s"),
				  0);
		c = cell(&r, sc[k], "pnpm");
		CHECK(c && c->samples_nr && c->samples[0].ok);
		for (size_t i = 0; c && i < c->samples_nr; i++) {
			const struct pmbench_sample *s = &c->samples[i];

			CHECK(h_metric(s, "setup_s") > 0);
			/* Restored from the toolchain archive after the miss. */
			CHECK((h_metric(s, "setup_bytes") > 0) == (k >= 2));
			CHECK((h_metric(s, "setup_save_s") >= 0) == (k >= 1));
			CHECK((h_metric(s, "setup_archive_bytes") > 0) ==
			      (k == 1));
			/* Only the toolchain strategy saves a toolchain. */
			CHECK_NEAR((double)s->wall_ns / 1e9,
				   h_metric(s, "setup_s") +
					   (k ? h_metric(s, "setup_save_s")
					      : 0) +
					   h_metric(s, "restore_s") +
					   h_metric(s, "install_s") +
					   h_metric(s, "save_s"),
				   1e-6);
		}
	}
	CHECK_CONTAINS(pmbench_result_env_get(&r, "ci_cache_setup_npm"),
		       "preinstalled");
	CHECK_CONTAINS(pmbench_result_env_get(&r, "ci_cache_setup_pnpm"),
		       "`npm install --global pnpm@");
	CHECK_CONTAINS(run.out.ptr, "getting the PM (setup) in a cold job");
	CHECK_CONTAINS(run.out.ptr, "setup: `npm install --global pnpm@");
	pmbench_result_release(&r);
	h_run_release(&run);
}

/* A setup that fails fails the job, with npm's words; npm needs none. */
TEST(failed_setup_is_a_failed_job)
{
	static const char *const env[] = { "FAKEPM_NPM_GLOBAL=fail", NULL };
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	struct h_run run;

	h_setup();
	H_CHECK_CALL(run_ci, &r, &run, "none", "1", env, 2);
	c = cell(&r, "none", "pnpm");
	CHECK(c && c->samples_nr == 1 && !c->samples[0].ok);
	CHECK_CONTAINS(c->samples[0].failure,
		       "setup `npm install --global` exited 1");
	CHECK_CONTAINS(c->samples[0].failure, "404 Not Found");
	c = cell(&r, "none", "npm");
	CHECK(c && c->samples_nr == 1 && c->samples[0].ok);
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(frozen_install_without_lockfile_fails)
{
	/* npm's priming writes no lockfile: the CI jobs cannot be frozen. */
	static const char *const env[] = { "FAKEPM_NPM_MODE=nolock", NULL };
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	struct h_run run;

	h_setup();
	H_CHECK_CALL(run_ci, &r, &run, "none", "1", env, 2);
	c = cell(&r, "none", "npm");
	CHECK(c && c->samples_nr == 1 && !c->samples[0].ok);
	CHECK_CONTAINS(c->samples[0].failure, "lockfile");
	c = cell(&r, "none", "pnpm");
	CHECK(c && c->samples[0].ok);
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(bad_options_are_one_line)
{
	static const struct {
		const char *opt, *value, *says;
	} bad[] = {
		{ "--strategy", "cache", "unknown strategy 'cache'" },
		{ "--strategy", "store+store", "unknown strategy" },
		{ "--compression", "zstd:99", "unknown compression 'zstd:99'" },
		{ "--compression", "brotli", "unknown compression" },
		{ "--bandwidth", "fast", "bad bandwidth 'fast'" },
		{ "--bandwidth", "0MB/s", "bad bandwidth" },
		{ "--bandwidth", "100", "bad bandwidth" },
		{ "--runs", "0", "'--runs'" },
		{ "--pm", "pip", "unknown package manager 'pip'" },
		{ "--archiver", "bsdtar", "unknown archiver 'bsdtar'" },
	};

	h_setup();
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(bad); i++) {
		const char *args[] = { "ci-cache", bad[i].opt, bad[i].value,
				       "proj", NULL };
		struct h_run run;

		h_pmbench(&run, args, NULL);
		CHECK_INT(run.exit_code, 129);
		CHECK_CONTAINS(run.out.ptr, bad[i].says);
		/* One line. */
		CHECK(strchr(run.out.ptr, '\n') ==
		      run.out.ptr + run.out.len - 1);
		h_run_release(&run);
	}
	H_CHECK_CALL(h_expect,
		     (const char *const[]){ "ci-cache", "--bandwidth",
					    "250Mbit/s", "--help", NULL },
		     NULL, 0, "--strategy");
}

TEST(hanging_hit_times_out)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	const struct pmbench_cell *c;
	struct h_run run;
	char out[4200], proj[4200];

	h_setup();
	snprintf(proj, sizeof(proj), "%s", h_project("proj"));
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	pmbench_strvec_push(&env, "FAKEPM_BUN_MODE=hang");
	pmbench_strvec_push(&env, "FAKEPM_BUN_WHEN=cache");
	{
		const char *args[] = {
			"ci-cache",  proj,	   "--pm",
			"bun",	     "--strategy", "store",
			"--runs",    "1",	   "--no-lockfile-change",
			"--timeout", "1s",	   "--out",
			out,	     NULL,
		};

		h_pmbench(&run, args, &env);
	}
	CHECK_INT(run.exit_code, 2);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	c = pmbench_result_find_cell(&r, "proj", "ci-cache", "store/zstd-3",
				     "bun");
	CHECK(c && c->samples_nr == 1);
	CHECK(!c->samples[0].ok && c->samples[0].timed_out);
	CHECK_CONTAINS(c->samples[0].failure, "timed out");
	CHECK(!pmbench_result_find_cell(&r, "proj", "ci-cache",
					"store/zstd-3/lockfile-changed",
					"bun"));
	pmbench_strvec_release(&env);
	pmbench_result_release(&r);
	h_run_release(&run);
}

/* The largest number under key `key` anywhere in `j`, or -1. */
static double json_most(const cJSON *j, const char *key)
{
	double most = -1;
	const cJSON *k;

	if (j && j->string && !strcmp(j->string, key) && cJSON_IsNumber(j))
		most = j->valuedouble;
	cJSON_ArrayForEach(k, j) most = fmax(most, json_most(k, key));
	return most;
}

/* The largest number in CSV `text`'s column `key`, or -1. */
static double csv_most(const char *text, const char *key)
{
	struct pmbench_strvec *rows = NULL;
	size_t nr = 0, col = SIZE_MAX;
	double most = -1;

	if (check_csv_parse(&rows, &nr, text) || !nr)
		return -1;
	for (size_t k = 0; k < rows[0].nr; k++)
		if (!strcmp(rows[0].v[k], key))
			col = k;
	for (size_t i = 1; col != SIZE_MAX && i < nr; i++)
		if (col < rows[i].nr && *rows[i].v[col])
			most = fmax(most, strtod(rows[i].v[col], NULL));
	check_csv_free(rows, nr);
	return most;
}

/*
 * The partial result of an interrupted ci-cache run (`out`, bun's hit
 * job interrupted) reads "interrupted" in every format `report` writes
 * it in, never as a failed job: the words in the human formats, the
 * count interrupted_jobs in the data formats (issue 37).
 */
static void interrupted_in_every_format(const char *out)
{
	static const char *const formats[] = { "table", "markdown", "html",
					       "csv", "json" };

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(formats); i++) {
		const char *args[] = { "report", out, "--format", formats[i],
				       NULL };
		struct h_run run;
		cJSON *json;

		h_pmbench(&run, args, NULL);
		CHECK_INT(run.exit_code, 0);
		if (!strcmp(formats[i], "csv")) {
			CHECK(csv_most(run.out.ptr, "interrupted_jobs") >= 1);
			CHECK(csv_most(run.out.ptr, "failed_jobs") == 0);
		} else if (!strcmp(formats[i], "json")) {
			json = cJSON_Parse(run.out.ptr);
			CHECK(json_most(json, "interrupted_jobs") >= 1);
			CHECK(json_most(json, "failed_jobs") == 0);
			cJSON_Delete(json);
		} else {
			CHECK_CONTAINS(run.out.ptr, "interrupted");
			CHECK(!strstr(run.out.ptr, "failed"));
		}
		h_run_release(&run);
	}
}

/*
 * ci-cache of npm and bun on a new project with the arguments TAIL, bun
 * hanging (escaping its group) in the first job that finds WHEN, then
 * Ctrl-C (h_interrupt); the result file's path into OUT.
 */
static void ci_cache_interrupted(int *ok, struct pmbench_child *c, char *out,
				 size_t n, const char *when,
				 const char *const *tail)
{
	char pidfile[4200], proj[4200];

	snprintf(proj, sizeof(proj), "%s", h_project("proj"));
	snprintf(out, n, "%s", h_write("result.json", ""));
	snprintf(pidfile, sizeof(pidfile), "%s", h_write("pidfile", ""));
	pmbench_strvec_push(&c->args, getenv("PMBENCH_BIN"));
	pmbench_strvec_pushv(&c->args,
			     (const char *const[]){ "ci-cache", proj, "--pm",
						    "npm,bun", NULL });
	pmbench_strvec_pushv(&c->args, tail);
	pmbench_strvec_pushv(&c->args,
			     (const char *const[]){ "--out", out, NULL });
	pmbench_strvec_push(&c->env, "FAKEPM_BUN_MODE=hang-escape");
	pmbench_strvec_pushf(&c->env, "FAKEPM_BUN_WHEN=%s", when);
	pmbench_strvec_pushf(&c->env, "FAKEPM_PIDFILE=%s", pidfile);
	h_interrupt(ok, c, pidfile);
}

TEST(ctrl_c_stops_everything_and_keeps_the_result)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *miss;
	char out[4200];

	h_setup();
	/* bun hangs once its cache is restored. */
	H_CHECK_CALL(ci_cache_interrupted, &c, out, sizeof(out), "cache",
		     (const char *const[]){ "--strategy", "none,store",
					    "--runs", "1", NULL });
	/* The jobs before the interrupt are in the result file. */
	CHECK_INT(pmbench_result_read(&r, out), 0);
	CHECK(pmbench_result_find_cell(&r, "proj", "ci-cache", "none", "bun"));
	miss = pmbench_result_find_cell(&r, "proj", "ci-cache",
					"store/zstd-3/miss", "bun");
	CHECK(miss && miss->samples_nr == 1 && miss->samples[0].ok);
	miss = pmbench_result_find_cell(&r, "proj", "ci-cache", "store/zstd-3",
					"bun");
	CHECK(miss && miss->samples_nr == 1 && !miss->samples[0].ok);
	CHECK_CONTAINS(miss->samples[0].failure, "interrupted");
	/* The job in flight was interrupted: no failure of bun's. */
	CHECK_INT(pmbench_cell_failures(miss), 0);
	{
		cJSON *json = h_read_json(out);
		const cJSON *s = h_json_sample(json, "ci-cache", "store/zstd-3",
					       "bun", 0);
		int flagged = cJSON_IsTrue(
			cJSON_GetObjectItemCaseSensitive(s, "interrupted"));

		cJSON_Delete(json);
		CHECK(flagged);
	}
	CHECK(!strstr(c.tail.ptr, "failed"));
	interrupted_in_every_format(out);
	pmbench_result_release(&r);
	pmbench_child_kill_tree(&c);
	pmbench_child_release(&c);
}

/*
 * --archiver gnu-tar: GNU tar saves and restores as actions/cache runs
 * it, the hit jobs find the cache warm, and the result names the
 * archiver, its version, the exact commands and the folder
 * actions/setup-node would cache.
 */
TEST(gnu_tar_archiver_as_actions_cache)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	char result[4200], proj[4200];
	struct h_run run;
	cJSON *log, *mine;

	h_setup();
	h_home_markers();
	snprintf(proj, sizeof(proj), "%s", h_project("proj"));
	snprintf(result, sizeof(result), "%s", h_write("result.json", ""));
	{
		const char *args[] = { "ci-cache",
				       proj,
				       "--pm",
				       "npm,pnpm",
				       "--strategy",
				       "store+node_modules",
				       "--archiver",
				       "gnu-tar",
				       "--runs",
				       "2",
				       "--no-lockfile-change",
				       "--out",
				       result,
				       NULL };

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, result), 0);
	CHECK_STR(pmbench_result_env_get(&r, "ci_cache_archiver"), "gnu-tar");
	CHECK_CONTAINS(pmbench_result_env_get(&r, "ci_cache_archiver_version"),
		       "GNU tar");
	CHECK_CONTAINS(pmbench_result_env_get(&r, "ci_cache_archiver_version"),
		       "Zstandard");
	CHECK_CONTAINS(pmbench_result_env_get(&r,
					      "ci_cache_save_command_zstd-3"),
		       "tar --posix -cf <archive> --exclude <archive> -P -C "
		       "<cache folder> --files-from <manifest> "
		       "--use-compress-program zstdmt");
	CHECK_CONTAINS(
		pmbench_result_env_get(&r, "ci_cache_restore_command_zstd-3"),
		"tar -xf <archive> -P -C <cache folder> "
		"--use-compress-program unzstd");
	CHECK_CONTAINS(pmbench_result_env_get(&r, "ci_cache_store_npm"),
		       "pm/npm/npm-cache, from `npm config get cache`");
	CHECK_CONTAINS(pmbench_result_env_get(&r, "ci_cache_store_pnpm"),
		       "`pnpm store path --silent`");
	log = h_log_entries();
	mine = h_log_of(log, "npm");
	/* prime, miss, 2 hits: the hits found the cache and node_modules. */
	CHECK_INT(cJSON_GetArraySize(mine), 4);
	for (int i = 2; i < 4 && i < cJSON_GetArraySize(mine); i++) {
		CHECK(h_flag(cJSON_GetArrayItem(mine, i), "cache_warm"));
		CHECK(h_flag(cJSON_GetArrayItem(mine, i), "node_modules"));
	}
	cJSON_Delete(mine);
	cJSON_Delete(log);
	for (int p = 0; p < 2; p++) {
		const struct pmbench_cell *c = cell(
			&r, "store+node_modules/zstd-3", p ? "pnpm" : "npm");

		CHECK(c && c->samples_nr == 2);
		for (size_t i = 0; c && i < c->samples_nr; i++) {
			CHECK(c->samples[i].ok);
			CHECK(h_metric(&c->samples[i], "restore_s") > 0);
			CHECK(h_metric(&c->samples[i], "restore_check_s") > 0);
			CHECK(h_metric(&c->samples[i], "save_s") > 0);
			CHECK(h_metric(&c->samples[i], "files_count") >= 1);
		}
	}
	CHECK(h_home_intact(&why));
	pmbench_buf_release(&why);
	pmbench_result_release(&r);
	h_run_release(&run);
}

/*
 * Under the budget, Ctrl-C in a strategy's miss job, before its first hit
 * round: the budget's marks skip the hit cells that were never made, and
 * pmbench exits 130 (it died of SIGSEGV, rc 139, 2026-12-06).
 */
TEST(ctrl_c_before_the_first_hit_round_under_the_budget)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	char out[4200];

	h_setup();
	/* bun hangs in its miss job (the first to find its lockfile). */
	H_CHECK_CALL(ci_cache_interrupted, &c, out, sizeof(out), "lockfile",
		     (const char *const[]){ "--strategy", "store", "--budget",
					    "1m", NULL });
	CHECK_INT(c.result.exit_code, 130);
	pmbench_child_release(&c);
}

/* The first line of `text` with `word` in it (malloc'd), or NULL. */
static char *line_with(const char *text, const char *word)
{
	const char *at = strstr(text, word), *start, *end;

	if (!at)
		return NULL;
	start = at;
	while (start > text && start[-1] != '\n')
		start--;
	end = strchr(at, '\n');
	if (!end)
		end = at + strlen(at);
	return pmbench_xstrndup(start, (size_t)(end - start));
}

/*
 * The report judges each PM's hit jobs against the first PM's, per
 * strategy, as bench judges a PM against its baseline: the paired ratio
 * with its 95 % interval and the verdict (before, ci-cache's report had
 * no verdict, while its budget spent rounds on them). pnpm sleeps six
 * times as long as npm: "slower" over 5 rounds, npm's row the baseline.
 */
TEST(report_judges_each_pm_against_the_first)
{
	static const char *const env[] = { "FAKEPM_NPM_SLEEP_MS=50",
					   "FAKEPM_PNPM_SLEEP_MS=300", NULL };
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const char *v, *row;

	h_setup();
	H_CHECK_CALL(run_ci, &r, &run, "none", "5", env, 0);
	v = strstr(run.out.ptr, "each PM against npm (hit jobs' totals, "
				"paired by round, 95 % interval; decided "
				"when it is on one side of 1 or within ±10 "
				"%)");
	CHECK(v != NULL);
	/* The table, after the heading (which names npm too). */
	v = v ? strchr(v, '\n') : NULL;
	row = v ? line_with(v, " npm ") : NULL;
	CHECK(row && strstr(row, "none") && strstr(row, "baseline"));
	free((char *)row);
	row = v ? line_with(v, " pnpm ") : NULL;
	CHECK(row && strstr(row, "none") && strstr(row, "slower") &&
	      strstr(row, "x–"));
	free((char *)row);
	pmbench_result_release(&r);
	h_run_release(&run);
}

CHECK_MAIN(CASE(store_restores_a_warm_cache),
	   CASE(node_modules_makes_the_install_a_noop),
	   CASE(fakes_ci_install_as_the_table_says),
	   CASE(failed_jobs_are_results), CASE(setup_step_gets_the_pm),
	   CASE(failed_setup_is_a_failed_job),
	   CASE(frozen_install_without_lockfile_fails),
	   CASE(bad_options_are_one_line), CASE(hanging_hit_times_out),
	   CASE(ctrl_c_stops_everything_and_keeps_the_result),
	   CASE(ctrl_c_before_the_first_hit_round_under_the_budget),
	   CASE(gnu_tar_archiver_as_actions_cache),
	   CASE(report_judges_each_pm_against_the_first))
