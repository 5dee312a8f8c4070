/*
 * pmbench workflow github-actions: the YAML it writes, parsed by a real
 * YAML reader (python3-yaml, which ci/setup installs) and checked against
 * the options; then the commands its jobs run, run here with the fake
 * PMs: three shards at once, each with its own cache folder (a runner
 * of its own), the merge and report loop, the history step. The example in
 * docs/ must be what the command writes.
 */
#include "pmbench/common.h"

#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"

static char sandbox[4200];

static const char *at(const char *rel)
{
	static char path[2][8400];
	static int k;

	k = !k;
	snprintf(path[k], sizeof(path[k]), "%s/%s", sandbox, rel);
	return path[k];
}

/* The workflow for `args` into `yml`, and its JSON (via python3-yaml). */
static cJSON *generate(const char *const *args, const char *yml)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct h_run r;
	cJSON *root;

	h_pmbench(&r, args, NULL);
	if (r.exit_code) {
		check_fail(__FILE__, __LINE__, "workflow exited %d",
			   r.exit_code);
		h_run_release(&r);
		return NULL;
	}
	pmbench_fs_write_atomic(yml, r.out.ptr, r.out.len);
	h_run_release(&r);
	pmbench_strvec_pushv(
		&c.args, (const char *const[]){
				 "python3", "-c",
				 "import json, sys, yaml\n"
				 "json.dump(yaml.safe_load(open(sys.argv[1])),"
				 " open(sys.argv[2], 'w'))\n",
				 yml, at("wf.json"), NULL });
	if (pmbench_child_run(&c) < 0 || c.result.exit_code) {
		check_fail(__FILE__, __LINE__, "python3-yaml: %s",
			   c.tail.ptr ? c.tail.ptr : pmbench_error_last());
		pmbench_child_release(&c);
		return NULL;
	}
	pmbench_child_release(&c);
	root = h_read_json(at("wf.json"));
	if (!root)
		check_fail(__FILE__, __LINE__, "no JSON from the YAML");
	return root;
}

static const cJSON *get(const cJSON *o, const char *path)
{
	char key[128];

	while (o && *path) {
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t)(dot - path) : strlen(path);

		snprintf(key, sizeof(key), "%.*s", (int)n, path);
		o = cJSON_IsArray(o)
			    ? cJSON_GetArrayItem(o, (int)strtol(key, NULL, 10))
			    : cJSON_GetObjectItemCaseSensitive(o, key);
		path += n + (dot != NULL);
	}
	return o;
}

static const char *str(const cJSON *o, const char *path)
{
	const cJSON *v = get(o, path);

	return cJSON_IsString(v) ? v->valuestring : "(none)";
}

/* The step of a job with this id. */
static const cJSON *step(const cJSON *wf, const char *job, const char *id)
{
	char path[64];
	const cJSON *s;

	snprintf(path, sizeof(path), "jobs.%s.steps", job);
	cJSON_ArrayForEach(s, get(wf, path))
	{
		if (!strcmp(str(s, "id"), id))
			return s;
	}
	return NULL;
}

/*
 * The step's script with the matrix values put in, as Actions would
 * (`pm` for matrix.pm and, as its include says, matrix.pm_key, which
 * only --pm-matrix makes; NULL: none).
 */
static char *script(const cJSON *s, const char *shard, const char *pm)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *p = str(s, "run");

	while (*p) {
		if (!strncmp(p, "${{ matrix.shard }}", 19)) {
			pmbench_buf_adds(&b, shard);
			p += 19;
		} else if (pm && !strncmp(p, "${{ matrix.pm_key }}", 20)) {
			/* The matrix's include: the PM's folder name. */
			for (const char *q = pm; *q; q++)
				pmbench_buf_addch(&b, *q == ':' ? '_' : *q);
			p += 20;
		} else if (pm && !strncmp(p, "${{ matrix.pm }}", 16)) {
			pmbench_buf_adds(&b, pm);
			p += 16;
		} else if (!strncmp(p, "${{ matrix.fixture }}", 21)) {
			pmbench_buf_adds(&b, "todo-api");
			p += 21;
		} else {
			pmbench_buf_addch(&b, *p++);
		}
	}
	return pmbench_buf_detach(&b);
}

static void sh(struct pmbench_child *c, char *text, const char *temp)
{
	pmbench_strvec_pushv(&c->args,
			     (const char *const[]){ "/bin/sh", "-e", "-c", text,
						    NULL });
	c->dir = sandbox;
	/* Each runner has a checkout, and so a cache/, of its own. */
	pmbench_strvec_pushf(&c->env, "PMBENCH_CACHE_DIR=%s", at(temp));
	pmbench_strvec_pushf(&c->env, "GITHUB_STEP_SUMMARY=%s",
			     at("summary.md"));
	c->tail_max = 1u << 20;
	c->timeout_ns = 600ull * 1000000000ull;
}

/* The shard job's run step for shards 1 to 3, all at once. */
static void run_shards(const cJSON *bench)
{
	struct pmbench_child c[3] = { PMBENCH_CHILD_INIT, PMBENCH_CHILD_INIT,
				      PMBENCH_CHILD_INIT };
	char *text[3];
	int left = 3, done[3] = { 0, 0, 0 };

	for (int k = 0; k < 3; k++) {
		char shard[12], temp[24];

		snprintf(shard, sizeof(shard), "%d", k + 1);
		snprintf(temp, sizeof(temp), "runner-%d", k + 1);
		text[k] = script(bench, shard, NULL);
		sh(&c[k], text[k], temp);
		CHECK_INT(pmbench_child_start(&c[k]), 0);
	}
	while (left)
		for (int k = 0; k < 3; k++)
			if (!done[k] &&
			    pmbench_child_pump(&c[k], 20000000) == 1) {
				done[k] = 1;
				left--;
			}
	for (int k = 0; k < 3; k++) {
		pmbench_child_release(&c[k]);
		if (c[k].result.exit_code)
			fprintf(stderr, "shard %d:\n%s\n", k + 1,
				c[k].tail.ptr);
		CHECK_INT(c[k].result.exit_code, 0);
		free(text[k]);
	}
}

static void run_step(const cJSON *s)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	char *text = script(s, "", NULL);

	sh(&c, text, "runner-merge");
	CHECK_INT(pmbench_child_run(&c), 0);
	if (c.result.exit_code)
		fprintf(stderr, "step %s:\n%s\n", str(s, "id"), c.tail.ptr);
	CHECK_INT(c.result.exit_code, 0);
	pmbench_child_release(&c);
	free(text);
}

static void check_shape(const cJSON *wf)
{
	CHECK_STR(str(wf, "on.schedule.0.cron"), "0 4 * * 1");
	CHECK_STR(str(wf, "permissions.contents"), "write");
	CHECK_STR(str(wf, "jobs.shard.runs-on"), "self-hosted");
	CHECK_STR(str(wf, "jobs.shard.container"), "debian:12");
	CHECK_INT(get(wf, "jobs.shard.timeout-minutes")->valueint, 45);
	CHECK_INT(cJSON_GetArraySize(get(wf, "jobs.shard.strategy.matrix."
					     "fixture")),
		  1);
	CHECK_STR(str(wf, "jobs.shard.strategy.matrix.fixture.0"), "todo-api");
	CHECK_INT(cJSON_GetArraySize(get(wf, "jobs.shard.strategy.matrix."
					     "shard")),
		  3);
	CHECK_INT(get(wf, "jobs.shard.strategy.matrix.shard.2")->valueint, 3);
	CHECK_STR(str(wf, "jobs.shard.steps.0.id"), "deps");
	CHECK_STR(str(wf, "jobs.shard.steps.1.uses"), "actions/checkout@v4");
	/* pmbench alone, the toolchain from a cache (the merge needs none). */
	CHECK_STR(str(step(wf, "shard", "build"), "run"),
		  "ci/build.sh --pmbench-only");
	CHECK_STR(str(step(wf, "merge", "build"), "run"),
		  "ci/build.sh --pmbench-only --no-toolchain");
	CHECK_STR(str(step(wf, "shard", "toolchain"), "uses"),
		  "actions/cache@v4");
	CHECK_STR(str(step(wf, "shard", "toolchain"), "with.path"),
		  "cache/toolchain");
	CHECK_CONTAINS(str(step(wf, "shard", "toolchain"), "with.key"),
		       "hashFiles('ci/toolchain.versions')");
	CHECK(!step(wf, "merge", "toolchain"));
	CHECK_CONTAINS(str(step(wf, "shard", "deps"), "run"),
		       "apt-get install");
	CHECK_CONTAINS(str(step(wf, "shard", "bench"), "run"),
		       "bench --no-progress --pm npm,bun --runs 3 --warmup 0 "
		       "--scenario clean --env 'A=b c' --shard "
		       "${{ matrix.shard }}/3");
	CHECK_STR(str(wf, "jobs.shard.steps.5.uses"),
		  "actions/upload-artifact@v4");
	CHECK_STR(str(wf, "jobs.merge.needs"), "shard");
	CHECK_STR(str(wf, "jobs.merge.steps.3.uses"),
		  "actions/download-artifact@v4");
	CHECK_CONTAINS(str(step(wf, "merge", "merge"), "run"),
		       "for key in todo-api; do");
	CHECK_CONTAINS(str(step(wf, "merge", "history"), "run"),
		       "pmbench history bench-history --format markdown");
	CHECK_CONTAINS(str(step(wf, "merge", "commit"), "run"), "git push");
}

TEST(workflow_parses_and_its_jobs_run)
{
	struct pmbench_result m = PMBENCH_RESULT_INIT;
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	const char *args[] = { "workflow",	"github-actions",
			       "--pm",		"npm,bun",
			       "--shards",	"3",
			       "--runs",	"3",
			       "--warmup",	"0",
			       "--scenario",	"clean",
			       "--env",		"A=b c",
			       "--cron",	"0 4 * * 1",
			       "--runner",	"self-hosted",
			       "--job-timeout", "45",
			       "--history-dir", "bench-history",
			       "todo-api",	NULL };
	char bin[8400];
	cJSON *wf;

	snprintf(sandbox, sizeof(sandbox), "%s", h_setup());
	/* The merged shards keep the drift control's cell. */
	h_with_control();
	wf = generate(args, at("pmbench.yml"));
	if (!wf)
		return;
	check_shape(wf);
	/* The checkout's build/pmbench is the one under test. */
	snprintf(bin, sizeof(bin), "%s", at("build"));
	CHECK_INT(pmbench_fs_mkdirp(bin, 0755), 0);
	CHECK_INT(symlink(getenv("PMBENCH_BIN"), at("build/pmbench")), 0);
	run_shards(step(wf, "shard", "bench"));
	/* download-artifact with merge-multiple: every result in shards/. */
	CHECK_INT(pmbench_fs_mkdirp(at("shards"), 0755), 0);
	for (int k = 1; k <= 3; k++) {
		char from[64], to[64];

		snprintf(from, sizeof(from), "results/todo-api-%d.json", k);
		snprintf(to, sizeof(to), "shards/todo-api-%d.json", k);
		CHECK_INT(pmbench_fs_copyfile(at(from), at(to)), 0);
	}
	run_step(step(wf, "merge", "merge"));
	run_step(step(wf, "merge", "history"));
	CHECK_INT(pmbench_result_read(&m, at("merged/todo-api.json")), 0);
	CHECK_INT(m.shards, 3);
	/* npm, bun and the drift control, each with every shard's runs. */
	CHECK_INT(m.cells_nr, 3);
	CHECK(pmbench_result_find_cell(&m, "todo-api", "install",
				       m.cells[0].scenario,
				       "(control)") != NULL);
	for (size_t i = 0; i < m.cells_nr; i++)
		CHECK_INT(m.cells[i].samples_nr, 3);
	CHECK(pmbench_fs_isfile(at("report/todo-api.html")));
	CHECK_INT(pmbench_fs_read_text(&text, at("summary.md"), 1 << 20), 0);
	CHECK_CONTAINS(text.ptr, "| action | cache | lockfile | node_modules");
	CHECK_CONTAINS(text.ptr, "pmbench history");
	pmbench_result_release(&m);
	pmbench_buf_release(&text);
	cJSON_Delete(wf);
}

/* docs/github-actions-example.yml is what the command writes. */
TEST(docs_example_is_current)
{
	const char *args[] = { "workflow", "github-actions", "--pm",
			       "npm,bun",  "--shards",	     "3",
			       "todo-api", "vite-react-ts",  NULL };
	const char *root = getenv("PMBENCH_SOURCE_DIR");
	struct pmbench_buf doc = PMBENCH_BUF_INIT;
	char path[4200];
	struct h_run r;
	cJSON *wf;

	snprintf(sandbox, sizeof(sandbox), "%s", h_setup());
	snprintf(path, sizeof(path), "%s/docs/github-actions-example.yml",
		 root ? root : ".");
	CHECK_INT(pmbench_fs_read_text(&doc, path, 1 << 20), 0);
	h_pmbench(&r, args, NULL);
	CHECK_INT(r.exit_code, 0);
	CHECK_STR(r.out.ptr, doc.ptr);
	h_run_release(&r);
	wf = generate(args, at("example.yml"));
	if (!wf)
		return;
	CHECK_INT(cJSON_GetArraySize(get(wf, "jobs.shard.strategy.matrix."
					     "fixture")),
		  2);
	CHECK_STR(str(wf, "permissions.contents"), "read");
	CHECK(!get(wf, "on.schedule"));
	cJSON_Delete(wf);
	pmbench_buf_release(&doc);
}

TEST(workflow_refuses)
{
	struct h_run r;

	snprintf(sandbox, sizeof(sandbox), "%s", h_setup());
	{
		const char *args[] = { "workflow", "github-actions", "--runs",
				       "auto", NULL };

		H_CHECK_CALL(h_expect, args, NULL, 129,
			     "shards need a fixed number of runs");
	}
	{
		const char *args[] = { "workflow", "github-actions", "--shards",
				       "4",	   "--runs",	     "3",
				       NULL };

		h_pmbench(&r, args, NULL);
		CHECK_INT(r.exit_code, 129);
		CHECK_CONTAINS(r.out.ptr, "use --runs 4 or more");
		h_run_release(&r);
	}
	{
		const char *args[] = { "workflow", "github-actions", "--env",
				       "X=${{ secrets.T }}", NULL };

		h_pmbench(&r, args, NULL);
		CHECK_INT(r.exit_code, 129);
		CHECK_CONTAINS(r.out.ptr, "no line break or '${{'");
		h_run_release(&r);
	}
	{
		const char *args[] = { "workflow", "github-actions", "--cron",
				       "daily", NULL };

		h_pmbench(&r, args, NULL);
		CHECK_INT(r.exit_code, 129);
		CHECK_CONTAINS(r.out.ptr, "invalid --cron 'daily'");
		h_run_release(&r);
	}
	{
		const char *args[] = { "workflow", "github-actions", "../x",
				       NULL };

		h_pmbench(&r, args, NULL);
		CHECK_INT(r.exit_code, 129);
		CHECK_CONTAINS(r.out.ptr, "invalid fixture '../x'");
		h_run_release(&r);
	}
}

/*
 * Every bench option reaches the shards as given, the ones no list
 * named before too, checked as bench checks them; one the workflow sets
 * itself is refused.
 */
TEST(bench_options_reach_the_shards)
{
	const char *args[] = { "workflow",
			       "github-actions",
			       "--task",
			       "hmr",
			       "--edits",
			       "3",
			       "--node",
			       "22",
			       "--no-control",
			       "--registry",
			       "live",
			       "--runs",
			       "3",
			       "--link=50ms,200mbit",
			       NULL };
	cJSON *wf;

	snprintf(sandbox, sizeof(sandbox), "%s", h_setup());
	{
		const char *ok[] = { "workflow",
				     "github-actions",
				     "--task",
				     "hmr",
				     "--edits",
				     "3",
				     "--node",
				     "22",
				     "--no-control",
				     "--runs",
				     "3",
				     NULL };

		wf = generate(ok, at("pass.yml"));
	}
	if (!wf)
		return;
	CHECK_CONTAINS(str(step(wf, "shard", "bench"), "run"),
		       "bench --no-progress --task hmr --edits 3 --node 22 "
		       "--no-control --runs 3 --shard ${{ matrix.shard }}/3");
	cJSON_Delete(wf);
	/* Checked as bench checks them: --link needs the local registry. */
	H_CHECK_CALL(h_expect, args, NULL, 129, "needs the local registry");
	{
		const char *edits[] = { "workflow", "github-actions", "--edits",
					"3", NULL };

		H_CHECK_CALL(h_expect, edits, NULL, 129,
			     "'--edits' needs the hmr task");
	}
	{
		const char *shard[] = { "workflow", "github-actions", "--shard",
					"1/2", NULL };

		H_CHECK_CALL(h_expect, shard, NULL, 129,
			     "'--shard' is a bench option the shards do not "
			     "get");
	}
}

/* One job of the shard matrix, (`shard`, `pm`), on a runner of its own. */
static void run_job(const cJSON *bench, const char *shard, const char *pm)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	char *text = script(bench, shard, pm);
	char temp[64];

	snprintf(temp, sizeof(temp), "runner-%s-%s", pm, shard);
	sh(&c, text, temp);
	CHECK_INT(pmbench_child_run(&c), 0);
	if (c.result.exit_code)
		fprintf(stderr, "job %s %s:\n%s\n", pm, shard, c.tail.ptr);
	CHECK_INT(c.result.exit_code, 0);
	pmbench_child_release(&c);
	free(text);
}

/*
 * --pm-matrix: a job per PM and shard, each bench of one PM, its result
 * named by the PM; the merge makes one result per fixture and PM, which
 * holds that PM's shards only.
 */
TEST(pm_matrix_gives_each_pm_its_jobs)
{
	static const char *const pms[] = { "npm", "bun" };
	const char *args[] = {
		"workflow",    "github-actions", "--pm", "npm,bun",
		"--pm-matrix", "--shards",	 "2",	 "--runs",
		"2",	       "--warmup",	 "0",	 "--scenario",
		"clean",       "todo-api",	 NULL
	};
	cJSON *wf;

	snprintf(sandbox, sizeof(sandbox), "%s", h_setup());
	wf = generate(args, at("pm-matrix.yml"));
	if (!wf)
		return;
	CHECK_INT(cJSON_GetArraySize(get(wf, "jobs.shard.strategy.matrix.pm")),
		  2);
	CHECK_STR(str(wf, "jobs.shard.strategy.matrix.pm.1"), "bun");
	CHECK_CONTAINS(str(step(wf, "shard", "bench"), "run"),
		       "--pm ${{ matrix.pm }} --shard ${{ matrix.shard }}/2");
	CHECK_INT(pmbench_fs_mkdirp(at("build"), 0755), 0);
	CHECK_INT(symlink(getenv("PMBENCH_BIN"), at("build/pmbench")), 0);
	CHECK_INT(pmbench_fs_mkdirp(at("shards"), 0755), 0);
	for (int p = 0; p < 2; p++)
		for (int k = 1; k <= 2; k++) {
			char shard[12], from[64], to[64];

			snprintf(shard, sizeof(shard), "%d", k);
			run_job(step(wf, "shard", "bench"), shard, pms[p]);
			snprintf(from, sizeof(from),
				 "results/todo-api-%s-%d.json", pms[p], k);
			snprintf(to, sizeof(to), "shards/todo-api-%s-%d.json",
				 pms[p], k);
			CHECK_INT(pmbench_fs_copyfile(at(from), at(to)), 0);
		}
	run_step(step(wf, "merge", "merge"));
	for (int p = 0; p < 2; p++) {
		struct pmbench_result m = PMBENCH_RESULT_INIT;
		char merged[64], report[64];

		snprintf(merged, sizeof(merged), "merged/todo-api-%s.json",
			 pms[p]);
		snprintf(report, sizeof(report), "report/todo-api-%s.html",
			 pms[p]);
		CHECK_INT(pmbench_result_read(&m, at(merged)), 0);
		CHECK_INT(m.shards, 2);
		CHECK_INT(m.cells_nr, 1);
		CHECK_STR(m.cells[0].pm, pms[p]);
		CHECK_INT(m.cells[0].samples_nr, 2);
		CHECK(pmbench_fs_isfile(at(report)));
		pmbench_result_release(&m);
	}
	cJSON_Delete(wf);
}

/*
 * --container IMAGE: both jobs in that image, which runs as root (no
 * sudo); --container none: on the runner itself, with sudo, no
 * container key; the default is debian:12.
 */
TEST(container_sets_where_the_jobs_run)
{
	const char *image[] = { "workflow",    "github-actions",
				"--container", "node:22-bookworm",
				"todo-api",    NULL };
	const char *none[] = { "workflow", "github-actions", "--container",
			       "none",	   "todo-api",	     NULL };
	cJSON *wf;

	snprintf(sandbox, sizeof(sandbox), "%s", h_setup());
	wf = generate(image, at("image.yml"));
	if (!wf)
		return;
	CHECK_STR(str(wf, "jobs.shard.container"), "node:22-bookworm");
	CHECK_STR(str(wf, "jobs.merge.container"), "node:22-bookworm");
	CHECK(!strstr(str(step(wf, "shard", "deps"), "run"), "sudo apt-get"));
	cJSON_Delete(wf);
	wf = generate(none, at("none.yml"));
	if (!wf)
		return;
	CHECK(!get(wf, "jobs.shard.container"));
	CHECK(!get(wf, "jobs.merge.container"));
	CHECK_CONTAINS(str(step(wf, "shard", "deps"), "run"),
		       "sudo apt-get update");
	CHECK_CONTAINS(str(step(wf, "merge", "deps"), "run"),
		       "sudo DEBIAN_FRONTEND=noninteractive apt-get install");
	cJSON_Delete(wf);
	{
		const char *bad[] = { "workflow", "github-actions",
				      "--container", "debian 12", NULL };

		H_CHECK_CALL(h_expect, bad, NULL, 129,
			     "an image such as debian:12");
	}
}

/*
 * --runner with several labels: runs-on lists them all (a runner with
 * every label); a label with a space, or an empty one, is refused.
 */
TEST(runner_takes_several_labels)
{
	const char *args[] = { "workflow", "github-actions",
			       "--runner", "self-hosted,linux,x64",
			       "todo-api", NULL };
	cJSON *wf;

	snprintf(sandbox, sizeof(sandbox), "%s", h_setup());
	wf = generate(args, at("labels.yml"));
	if (!wf)
		return;
	for (int j = 0; j < 2; j++) {
		const char *job = j ? "jobs.merge.runs-on"
				    : "jobs.shard.runs-on";
		char path[64];

		CHECK_INT(cJSON_GetArraySize(get(wf, job)), 3);
		snprintf(path, sizeof(path), "%s.2", job);
		CHECK_STR(str(wf, path), "x64");
	}
	cJSON_Delete(wf);
	for (int k = 0; k < 2; k++) {
		const char *bad[] = { "workflow", "github-actions", "--runner",
				      k ? "linux," : "self hosted,linux",
				      NULL };

		H_CHECK_CALL(h_expect, bad, NULL, 129,
			     "runner labels such as ubuntu-latest");
	}
}

/*
 * A variant in --pm-matrix ("npm:linked"): upload-artifact refuses ':'
 * in names and paths, so the matrix gives each PM a key without one,
 * which the artifact, the result's path and the merge loop use.
 */
TEST(pm_matrix_variant_has_no_colon_in_artifacts)
{
	const char *args[] = { "workflow",    "github-actions",
			       "--pm",	      "npm,npm:linked",
			       "--pm-matrix", "todo-api",
			       NULL };
	const cJSON *up, *inc;
	cJSON *wf;

	snprintf(sandbox, sizeof(sandbox), "%s", h_setup());
	wf = generate(args, at("variant.yml"));
	if (!wf)
		return;
	inc = get(wf, "jobs.shard.strategy.matrix.include");
	CHECK_INT(cJSON_GetArraySize(inc), 2);
	CHECK_STR(str(inc, "1.pm"), "npm:linked");
	CHECK_STR(str(inc, "1.pm_key"), "npm_linked");
	up = get(wf, "jobs.shard.steps.5");
	CHECK_STR(str(up, "uses"), "actions/upload-artifact@v4");
	CHECK_STR(str(up, "with.name"),
		  "pmbench-${{ matrix.fixture }}-${{ matrix.pm_key }}-${{ "
		  "matrix.shard }}");
	CHECK(!strchr(str(up, "with.path"), ':'));
	CHECK_CONTAINS(str(step(wf, "shard", "bench"), "run"),
		       "--pm ${{ matrix.pm }}");
	CHECK_CONTAINS(str(step(wf, "merge", "merge"), "run"),
		       "for key in todo-api-npm todo-api-npm_linked; do");
	cJSON_Delete(wf);
}

/*
 * Every shard of one fixture failed: the merge step says so in the job
 * summary, still merges and reports the other fixture, and fails.
 */
TEST(merge_step_when_a_fixture_has_no_shard)
{
	const char *args[] = { "workflow",   "github-actions",
			       "--pm",	     "npm",
			       "--shards",   "1",
			       "--runs",     "1",
			       "--warmup",   "0",
			       "--scenario", "clean",
			       "todo-api",   "vite-react-ts",
			       NULL };
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	char *merge;
	cJSON *wf;

	snprintf(sandbox, sizeof(sandbox), "%s", h_setup());
	wf = generate(args, at("missing.yml"));
	if (!wf)
		return;
	CHECK_INT(pmbench_fs_mkdirp(at("build"), 0755), 0);
	CHECK_INT(symlink(getenv("PMBENCH_BIN"), at("build/pmbench")), 0);
	/* todo-api's one shard ran; vite-react-ts's failed, nothing left. */
	merge = script(step(wf, "shard", "bench"), "1", NULL);
	sh(&c, merge, "runner-1");
	CHECK_INT(pmbench_child_run(&c), 0);
	CHECK_INT(c.result.exit_code, 0);
	pmbench_child_release(&c);
	free(merge);
	CHECK_INT(pmbench_fs_mkdirp(at("shards"), 0755), 0);
	CHECK_INT(pmbench_fs_copyfile(at("results/todo-api-1.json"),
				      at("shards/todo-api-1.json")),
		  0);
	c = (struct pmbench_child)PMBENCH_CHILD_INIT;
	merge = script(step(wf, "merge", "merge"), "", NULL);
	sh(&c, merge, "runner-merge");
	CHECK_INT(pmbench_child_run(&c), 0);
	CHECK_INT(c.result.exit_code, 1);
	CHECK(pmbench_fs_isfile(at("merged/todo-api.json")));
	CHECK(pmbench_fs_isfile(at("report/todo-api.html")));
	CHECK_CONTAINS(c.tail.ptr, "no shard of vite-react-ts left a result");
	CHECK_INT(pmbench_fs_read_text(&text, at("summary.md"), 1 << 20), 0);
	CHECK_CONTAINS(text.ptr, "no shard of vite-react-ts left a result");
	CHECK(!strstr(c.tail.ptr, "[0-9]"));
	pmbench_child_release(&c);
	pmbench_buf_release(&text);
	free(merge);
	cJSON_Delete(wf);
}

/* ---- The pull-request check ---------------------------------------- */

static const char *const pr_args[] = { "workflow",
				       "github-actions",
				       "--pull-request",
				       "--pmbench-repo",
				       "acme/pmbench@v1",
				       "--pm",
				       "npm,bun",
				       "--runs",
				       "5",
				       "--warmup",
				       "0",
				       "--scenario",
				       "clean",
				       NULL };

/* The validator ci/setup installs from the npm registry, or NULL. */
static const char *validator(void)
{
	static char path[8400];
	const char *src = getenv("PMBENCH_SOURCE_DIR");

	snprintf(path, sizeof(path),
		 "%s/cache/action-validator/node_modules/.bin/"
		 "action-validator",
		 src ? src : ".");
	return access(path, X_OK) == 0 ? path : NULL;
}

/* The validator's verdict on `yml`: its exit code, its words in `out`. */
static int validate(const char *yml, struct pmbench_buf *out)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	int code;

	pmbench_strvec_pushv(&c.args,
			     (const char *const[]){ validator(), yml, NULL });
	c.tail_max = 1u << 16;
	code = pmbench_child_run(&c) < 0 ? -1 : c.result.exit_code;
	pmbench_buf_adds(out, c.tail.ptr ? c.tail.ptr : "");
	pmbench_child_release(&c);
	return code;
}

TEST(pull_request_workflow_passes_the_validator)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT, yml = PMBENCH_BUF_INIT;
	cJSON *wf;

	snprintf(sandbox, sizeof(sandbox), "%s", h_setup());
	if (!validator())
		SKIP("@action-validator/cli is not in cache/action-validator "
		     "(ci/setup installs it from the npm registry)");
	wf = generate(pr_args, at("pr.yml"));
	if (!wf)
		return;
	if (validate(at("pr.yml"), &why))
		check_fail(__FILE__, __LINE__, "the validator: %s", why.ptr);
	/* It does refuse a workflow GitHub would: a job without steps. */
	CHECK_INT(pmbench_fs_read_text(&yml, at("pr.yml"), 1 << 20), 0);
	*strstr(yml.ptr, "    steps:") = '\0';
	pmbench_buf_setlen(&yml, strlen(yml.ptr));
	pmbench_buf_adds(&yml, "    stepz: []\n");
	pmbench_fs_write_atomic(at("bad.yml"), yml.ptr, yml.len);
	pmbench_buf_reset(&why);
	CHECK(validate(at("bad.yml"), &why) != 0);
	CHECK_STR(str(wf, "permissions.pull-requests"), "write");
	CHECK_STR(str(wf, "on.pull_request.paths.1"), "**/package-lock.json");
	CHECK_STR(str(step(wf, "check", "post"), "uses"),
		  "actions/github-script@v7");
	pmbench_buf_release(&why);
	pmbench_buf_release(&yml);
	cJSON_Delete(wf);
}

/* Run step `id` as Actions would on a pull request from base to head. */
static void pr_step(const cJSON *wf, const char *id, const char *base,
		    const char *head, int want)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf event = PMBENCH_BUF_INIT;
	char *text = script(step(wf, "check", id), "", NULL);
	const char *wd = str(step(wf, "check", id), "working-directory");
	char dir[8400];

	pmbench_buf_addf(&event,
			 "{ \"pull_request\": { \"base\": { \"sha\": \"%s\", "
			 "\"ref\": \"main\" } } }\n",
			 base);
	h_write("event.json", event.ptr);
	sh(&c, text, "runner");
	/* The step's working-directory, as Actions runs it. */
	snprintf(dir, sizeof(dir), "%s/%s", sandbox, wd);
	if (strcmp(wd, "(none)"))
		c.dir = dir;
	pmbench_strvec_pushf(&c.env, "GITHUB_EVENT_PATH=%s", at("event.json"));
	pmbench_strvec_pushf(&c.env, "GITHUB_SHA=%s", head);
	pmbench_strvec_push(&c.env, "GITHUB_BASE_REF=main");
	pmbench_strvec_pushf(&c.env, "GITHUB_OUTPUT=%s", at("output.txt"));
	CHECK_INT(pmbench_child_run(&c), 0);
	if (c.result.exit_code != want)
		fprintf(stderr, "step %s:\n%s\n", id, c.tail.ptr);
	CHECK_INT(c.result.exit_code, want);
	pmbench_child_release(&c);
	pmbench_buf_release(&event);
	free(text);
}

/* What the `changed` step said of base..head: 1 to bench, 0 not. */
static int pr_changed(const cJSON *wf, const char *base, const char *head)
{
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	int run;

	pmbench_fs_write_atomic(at("output.txt"), "", 0);
	pr_step(wf, "changed", base, head, 0);
	if (pmbench_fs_read_text(&out, at("output.txt"), 1 << 16) < 0)
		check_fail(__FILE__, __LINE__, "no GITHUB_OUTPUT");
	run = out.ptr && strstr(out.ptr, "run=true") != NULL;
	if (!run && !(out.ptr && strstr(out.ptr, "run=false")))
		check_fail(__FILE__, __LINE__, "no run= in GITHUB_OUTPUT");
	pmbench_buf_release(&out);
	return run;
}

/* A repository whose second commit changes the lockfile and installs slower. */
static void pr_repo(char first[41], char second[41])
{
	char dir[8400];

	snprintf(dir, sizeof(dir), "%s", h_project("project"));
	h_write("project/package-lock.json",
		"{ \"lockfileVersion\": 3, \"left-pad\": \"1.3.0\" }\n");
	h_git_commit_all(first, dir, "base");
	h_write("project/package-lock.json",
		"{ \"lockfileVersion\": 3, \"left-pad\": \"1.3.1\" }\n");
	h_write("project/fakepm-extra-ms", "150\n");
	h_git_commit_all(second, dir, "head: the lockfile moves");
}

TEST(pull_request_steps_run_on_two_commits)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf md = PMBENCH_BUF_INIT, sum = PMBENCH_BUF_INIT;
	char first[41], second[41], third[41], fourth[41];
	cJSON *wf;

	snprintf(sandbox, sizeof(sandbox), "%s", h_setup());
	wf = generate(pr_args, at("pr.yml"));
	if (!wf)
		return;
	pr_repo(first, second);
	CHECK_INT(pmbench_fs_mkdirp(at("pmbench/build"), 0755), 0);
	CHECK_INT(symlink(getenv("PMBENCH_BIN"), at("pmbench/build/pmbench")),
		  0);
	CHECK(pr_changed(wf, first, second));
	pr_step(wf, "bench", first, second, 0);
	pr_step(wf, "comment", first, second, 0);
	CHECK_INT(pmbench_result_read(&r, at("pmbench-pr.json")), 0);
	CHECK_INT(r.fixtures_nr, 2);
	CHECK_STR(r.fixtures[0].commit, second);
	CHECK_STR(r.fixtures[1].name, "project@base");
	CHECK_STR(r.fixtures[1].commit, first);
	CHECK_INT(pmbench_fs_read_text(&md, at("pmbench-comment.md"), 1 << 20),
		  0);
	CHECK(!strncmp(md.ptr, "<!-- pmbench pull-request check -->", 35));
	CHECK_CONTAINS(md.ptr, "paired change (95% CI)");
	/* 150 ms more per install on the head: both PMs slower, paired. */
	CHECK_CONTAINS(md.ptr, "npm: slower by +");
	CHECK_CONTAINS(md.ptr, "bun: slower by +");
	CHECK_CONTAINS(md.ptr, "paired over 5 rounds");
	CHECK_INT(pmbench_fs_read_text(&sum, at("summary.md"), 1 << 20), 0);
	CHECK_CONTAINS(sum.ptr, "npm: slower by +");
	fprintf(stderr, "the comment:\n%s\n", md.ptr);
	/* A change elsewhere, or to a field no PM reads: nothing to bench. */
	h_write("project/README.md", "docs\n");
	h_git_commit_all(third, at("project"), "docs");
	CHECK(!pr_changed(wf, second, third));
	h_write("project/package.json",
		"{ \"name\": \"tiny\", \"version\": \"1.0.0\", \"private\": "
		"true, \"description\": \"new\", \"packageManager\": "
		"\"npm@10.9.0\", \"dependencies\": { \"left-pad\": \"1.3.0\" } "
		"}\n");
	h_git_commit_all(fourth, at("project"), "packageManager");
	CHECK(pr_changed(wf, third, fourth));
	pmbench_result_release(&r);
	pmbench_buf_release(&md);
	pmbench_buf_release(&sum);
	cJSON_Delete(wf);
}

/* A comparison too long for a comment is cut at a line, and says so. */
TEST(pull_request_comment_is_cut_to_the_limit)
{
	struct pmbench_buf md = PMBENCH_BUF_INIT, sum = PMBENCH_BUF_INIT;
	cJSON *wf;

	snprintf(sandbox, sizeof(sandbox), "%s", h_setup());
	wf = generate(pr_args, at("pr.yml"));
	if (!wf)
		return;
	/* A pmbench whose comparison is 80,000 characters. */
	h_write("pmbench/build/pmbench",
		"#!/bin/sh\ni=0\nwhile [ $i -lt 1000 ]; do\n"
		"  printf '| row %04d | %070d |\\n' $i 0\n  i=$((i + 1))\n"
		"done\n");
	CHECK_INT(chmod(at("pmbench/build/pmbench"), 0755), 0);
	pr_step(wf, "comment", "1111111111111111111111111111111111111111",
		"2222222222222222222222222222222222222222", 0);
	CHECK_INT(pmbench_fs_read_text(&md, at("pmbench-comment.md"), 1 << 20),
		  0);
	CHECK(md.len <= 65536);
	CHECK(md.len > 60000);
	CHECK_CONTAINS(md.ptr, "the comparison is longer than the 65,536");
	/* Every row kept is whole. */
	CHECK_CONTAINS(md.ptr, "| row 0700 |");
	CHECK(strstr(md.ptr, " |\n\n_Cut here") != NULL);
	/* The summary has it all. */
	CHECK_INT(pmbench_fs_read_text(&sum, at("summary.md"), 1 << 20), 0);
	CHECK_CONTAINS(sum.ptr, "| row 0999 |");
	pmbench_buf_release(&md);
	pmbench_buf_release(&sum);
	cJSON_Delete(wf);
}

/* bench --base and compare of one file refuse what they cannot do. */
TEST(bench_base_refuses)
{
	static const char sha[] = "0123456789abcdef0123456789abcdef01234567";
	char dir[8400], res[8400];

	snprintf(sandbox, sizeof(sandbox), "%s", h_setup());
	snprintf(dir, sizeof(dir), "%s", h_project("project"));
	H_CHECK_CALL(h_expect,
		     (const char *const[]){ "bench", "--base", "main", dir,
					    NULL },
		     NULL, 129, "--base takes a full 40-character commit SHA");
	H_CHECK_CALL(h_expect,
		     (const char *const[]){ "bench", "--head", sha, dir, NULL },
		     NULL, 129, "--head goes with --base SHA");
	/* A folder that is no git repository has no commits to check out. */
	H_CHECK_CALL(h_expect,
		     (const char *const[]){ "bench", "--pm", "npm", "--base",
					    sha, dir, NULL },
		     NULL, 1, "is not a git repository");
	/* A result of one side only. */
	snprintf(res, sizeof(res), "%s/tests/data/sample-result.json",
		 getenv("PMBENCH_SOURCE_DIR"));
	H_CHECK_CALL(h_expect, (const char *const[]){ "compare", res, NULL },
		     NULL, 1, "give two result files");
}

CHECK_MAIN(CASE(workflow_parses_and_its_jobs_run),
	   CASE(pm_matrix_gives_each_pm_its_jobs),
	   CASE(container_sets_where_the_jobs_run),
	   CASE(runner_takes_several_labels),
	   CASE(pm_matrix_variant_has_no_colon_in_artifacts),
	   CASE(merge_step_when_a_fixture_has_no_shard),
	   CASE(docs_example_is_current), CASE(workflow_refuses),
	   CASE(bench_options_reach_the_shards),
	   CASE(pull_request_workflow_passes_the_validator),
	   CASE(pull_request_steps_run_on_two_commits),
	   CASE(pull_request_comment_is_cut_to_the_limit),
	   CASE(bench_base_refuses))
