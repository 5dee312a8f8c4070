/*
 * The task table: one entry per task pmbench can time, with its metrics,
 * its manifest sections, its knobs, its report tables and its
 * operations (task_install.c, task_script.c, task_test.c, task_dev.c,
 * ...). Adding a task is adding an entry here and a file of operations;
 * bench, claims, migrate, the manifest reader, the option checks, the
 * reports and the help texts find it here.
 *
 * Also what the tasks on the primed tree share: each run starts from a
 * fresh copy of the PM's primed snapshot, so a build or dev server always
 * sees the node_modules that this PM installed, and nothing a previous
 * run left (build output, Vite's pre-bundle cache, TypeScript build
 * info) makes a later run warm.
 */
#include "pmbench/common.h"

#include <cjson/cJSON.h>

#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/monorepo.h"
#include "pmbench/pm.h"
#include "pmbench/pmrun.h"
#include "pmbench/scenario.h"
#include "pmbench/task.h"
#include "task_ops.h"

#define PACKAGE_JSON_MAX (16u << 20)

/*
 * Each list ends with { 0 }, the zero initializer, which no compiler
 * takes for fields left out ({ NULL } was, for clang's -Wextra).
 */
static const struct pmbench_task_metric no_metrics[] = { { 0 } };

static const struct pmbench_task_metric build_metrics[] = {
	{ "output_bytes", PMBENCH_TASK_BYTES, "output", NULL },
	{ "output_files", PMBENCH_TASK_COUNT, "output", "files" },
	{ 0 },
};

static const struct pmbench_task_metric test_metrics[] = {
	{ "tests_count", PMBENCH_TASK_COUNT, "tests", NULL },
	{ "tests_passed_count", PMBENCH_TASK_COUNT, "passed", NULL },
	{ "tests_failed_count", PMBENCH_TASK_COUNT, "failed", NULL },
	{ 0 },
};

/*
 * The dev server's; with --probe also probe_status_<code>_count, one
 * per status code seen.
 */
static const struct pmbench_task_metric dev_metrics[] = {
	{ "ready_line_s", PMBENCH_TASK_SECONDS, "ready line", NULL },
	{ "http_s", PMBENCH_TASK_SECONDS, "first HTTP < 500", NULL },
	{ "body_s", PMBENCH_TASK_SECONDS, "first body", NULL },
	{ "stop_s", PMBENCH_TASK_SECONDS, "stop", NULL },
	{ "body_bytes", PMBENCH_TASK_BYTES, NULL, NULL },
	{ "http_attempts_count", PMBENCH_TASK_COUNT, NULL, NULL },
	{ "http_refused_count", PMBENCH_TASK_COUNT, NULL, NULL },
	{ "http_timeout_count", PMBENCH_TASK_COUNT, NULL, NULL },
	{ "http_5xx_count", PMBENCH_TASK_COUNT, NULL, NULL },
	{ "stopped_processes_count", PMBENCH_TASK_COUNT, NULL, NULL },
	{ "port_open_after_stop_count", PMBENCH_TASK_COUNT, NULL, NULL },
	{ "probe_requests_count", PMBENCH_TASK_COUNT, NULL, NULL },
	{ "probe_ok_count", PMBENCH_TASK_COUNT, NULL, NULL },
	{ "probe_errors_count", PMBENCH_TASK_COUNT, NULL, NULL },
	{ "probe_ok_ratio", PMBENCH_TASK_RATIO, NULL, NULL },
	{ "probe_latency_min_s", PMBENCH_TASK_SECONDS, NULL, NULL },
	{ "probe_latency_mean_s", PMBENCH_TASK_SECONDS, NULL, NULL },
	{ "probe_latency_p50_s", PMBENCH_TASK_SECONDS, NULL, NULL },
	{ "probe_latency_p90_s", PMBENCH_TASK_SECONDS, NULL, NULL },
	{ "probe_latency_p95_s", PMBENCH_TASK_SECONDS, NULL, NULL },
	{ "probe_latency_p99_s", PMBENCH_TASK_SECONDS, NULL, NULL },
	{ "probe_latency_max_s", PMBENCH_TASK_SECONDS, NULL, NULL },
	{ "probe_bytes", PMBENCH_TASK_BYTES, NULL, NULL },
	{ "probe_duration_s", PMBENCH_TASK_SECONDS, NULL, NULL },
	{ "probe_capped_count", PMBENCH_TASK_COUNT, NULL, NULL },
	{ 0 },
};

/*
 * hmr's: the dev server's readiness as for dev, then each edit's time
 * (hmr_edit_<k>_s, k from 1) and these; the sample's wall_s is the
 * median edit.
 */
static const struct pmbench_task_metric hmr_metrics[] = {
	{ "hmr_min_s", PMBENCH_TASK_SECONDS, "fastest edit", NULL },
	{ "hmr_max_s", PMBENCH_TASK_SECONDS, "slowest edit", NULL },
	{ "ready_line_s", PMBENCH_TASK_SECONDS, "ready line", NULL },
	{ "hmr_edits_count", PMBENCH_TASK_COUNT, NULL, NULL },
	{ "hmr_stale_count", PMBENCH_TASK_COUNT, NULL, NULL },
	{ "http_s", PMBENCH_TASK_SECONDS, NULL, NULL },
	{ "body_s", PMBENCH_TASK_SECONDS, NULL, NULL },
	{ "stop_s", PMBENCH_TASK_SECONDS, NULL, NULL },
	{ "stopped_processes_count", PMBENCH_TASK_COUNT, NULL, NULL },
	{ "port_open_after_stop_count", PMBENCH_TASK_COUNT, NULL, NULL },
	{ 0 },
};

/* dev: the readiness table, then the probe's (with --probe). */
static const struct pmbench_task_column ready_cols[] = {
	{ "ready line", PMBENCH_TASK_SHOW_RANGE, "ready_line_s" },
	{ "first HTTP < 500", PMBENCH_TASK_SHOW_RANGE, "http_s" },
	{ "first body", PMBENCH_TASK_SHOW_RANGE, "body_s" },
	{ "runs", PMBENCH_TASK_SHOW_RUNS, NULL },
	{ "stop", PMBENCH_TASK_SHOW_RANGE, "stop_s" },
	{ 0 },
};

static const struct pmbench_task_column probe_cols[] = {
	{ "requests", PMBENCH_TASK_SHOW_EACH, "probe_requests_count" },
	{ "ok", PMBENCH_TASK_SHOW_MEDIAN, "probe_ok_ratio" },
	{ "p50", PMBENCH_TASK_SHOW_MEDIAN, "probe_latency_p50_s" },
	{ "p90", PMBENCH_TASK_SHOW_MEDIAN, "probe_latency_p90_s" },
	{ "p95", PMBENCH_TASK_SHOW_MEDIAN, "probe_latency_p95_s" },
	{ "p99", PMBENCH_TASK_SHOW_MEDIAN, "probe_latency_p99_s" },
	{ "max", PMBENCH_TASK_SHOW_MEDIAN, "probe_latency_max_s" },
	{ "mean", PMBENCH_TASK_SHOW_MEDIAN, "probe_latency_mean_s" },
	{ "bytes in", PMBENCH_TASK_SHOW_MEDIAN, "probe_bytes" },
	{ "status codes", PMBENCH_TASK_SHOW_FAMILY, "probe_status_" },
	{ 0 },
};

static const struct pmbench_task_table dev_tables[] = {
	{
		.id = "dev",
		.legend = "(median (min … max) from spawn; the port is "
			  "checked closed and no process left after each "
			  "stop)",
		.columns = ready_cols,
	},
	{
		.id = "probe",
		.title = "probe (medians over the runs; latency per request)",
		.only_with = "probe_requests_count",
		.columns = probe_cols,
	},
	{ 0 },
};

/*
 * The manifest's sections of the tasks (fixture.h): a field, how it is
 * checked, its value when the manifest leaves it out.
 */
static const struct pmbench_manifest_field build_fields[] = {
	{ "script", PMBENCH_MANIFEST_STRING, "build" },
	{ "output", PMBENCH_MANIFEST_FOLDER, NULL },
	{ 0 },
};

static const struct pmbench_manifest_field test_fields[] = {
	{ "script", PMBENCH_MANIFEST_STRING, "test" },
	{ 0 },
};

/* How the dev server is started: its script, arguments, ready line, URL. */
static const struct pmbench_manifest_field dev_fields[] = {
	{ "script", PMBENCH_MANIFEST_STRING, "dev" },
	{ "args", PMBENCH_MANIFEST_TEXT, NULL },
	{ "ready", PMBENCH_MANIFEST_STRING, NULL },
	{ "path", PMBENCH_MANIFEST_URL_PATH, "/" },
	{ 0 },
};

/*
 * "hmr": { "file": "src/App.tsx", "path": "/src/App.tsx" }: the file an
 * edit touches (inside the project) and the URL path that serves it.
 */
static const struct pmbench_manifest_field hmr_fields[] = {
	{ "file", PMBENCH_MANIFEST_FILE, NULL },
	{ "path", PMBENCH_MANIFEST_URL_PATH, NULL },
	{ 0 },
};

static const struct pmbench_manifest_section build_section = {
	.key = "build",
	.fields = build_fields,
};
static const struct pmbench_manifest_section test_section = {
	.key = "test",
	.fields = test_fields,
};
static const struct pmbench_manifest_section dev_section = {
	.key = "dev",
	.fields = dev_fields,
};
static const struct pmbench_manifest_section hmr_section = {
	.key = "hmr",
	.fields = hmr_fields,
};

#define SECTIONS(...) \
	((const struct pmbench_manifest_section *const[]){ __VA_ARGS__, NULL })

/* The knob value landing in member `f` of struct pmbench_task_knobs. */
#define KNOB_AT(f)                                             \
	_Generic(((struct pmbench_task_knobs *)0)->f, unsigned \
		 : offsetof(struct pmbench_task_knobs, f))

static const struct pmbench_task_knob dev_knobs[] = {
	{
		.name = "probe",
		.kind = PMBENCH_TASK_KNOB_COUNTS,
		.arg = "N[,C]",
		.help = "N HTTP requests to the ready server, C at once, "
			"127.0.0.1 only, 60 s cap",
		.values = { { "N", 1, 1000000, 0, KNOB_AT(probe_requests) },
			    { "C", 1, 256, PMBENCH_TASK_PROBE_CONCURRENCY,
			      KNOB_AT(probe_concurrency) } },
	},
	{ 0 },
};

static const struct pmbench_task_knob hmr_knobs[] = {
	{
		.name = "edits",
		.kind = PMBENCH_TASK_KNOB_COUNT,
		.arg = "N",
		.help = "edits per run; the median is the run's sample",
		.values = { { "N", 1, 100, PMBENCH_TASK_EDITS,
			      KNOB_AT(edits) } },
	},
	{ 0 },
};

const struct pmbench_task pmbench_tasks[] = {
	{
		.name = "install",
		.summary = "the install, in each --scenario (the default)",
		.flags = PMBENCH_TASK_PER_SCENARIO |
			 PMBENCH_TASK_MIGRATE_TIMED | PMBENCH_TASK_DEFAULT,
		.metrics = no_metrics,
		.describe = pmbench_task_install_describe,
		.prepare = pmbench_task_install_prepare,
		.run = pmbench_task_install_run,
		.explain = pmbench_task_install_explain,
		.prove = pmbench_task_install_prove,
	},
	{
		.name = "run",
		.summary = "`<pm> run` of a no-op script (against bare "
			   "node) and of \"scripts\"",
		.flags = PMBENCH_TASK_FIXTURE_SCRIPTS | PMBENCH_TASK_BASELINES,
		.metrics = no_metrics,
		.script = pmbench_task_run_script,
		.describe = pmbench_task_script_describe,
		.prepare = pmbench_task_run_prepare,
		.run = pmbench_task_script_run,
	},
	{
		.name = "build",
		.summary = "`<pm> run <build.script>`; size and files of "
			   "build.output",
		.manifest_key = "build",
		.sections = SECTIONS(&build_section),
		.flags = PMBENCH_TASK_MIGRATE_PARITY |
			 PMBENCH_TASK_MIGRATE_DEFAULT | PMBENCH_TASK_OUTPUT,
		.metrics = build_metrics,
		.script = pmbench_task_build_script,
		.describe = pmbench_task_script_describe,
		.prepare = pmbench_task_primed_prepare,
		.run = pmbench_task_build_run,
		.output = pmbench_task_build_output,
	},
	{
		.name = "test",
		.summary = "`<pm> run <test.script>`; tests, passed, failed "
			   "as printed",
		.manifest_key = "test",
		.sections = SECTIONS(&test_section),
		.flags = PMBENCH_TASK_MIGRATE_PARITY |
			 PMBENCH_TASK_MIGRATE_DEFAULT,
		.metrics = test_metrics,
		.script = pmbench_task_test_script,
		.describe = pmbench_task_script_describe,
		.prepare = pmbench_task_primed_prepare,
		.run = pmbench_task_test_run,
	},
	{
		.name = "lint",
		.summary = "`<pm> run lint`",
		.flags = PMBENCH_TASK_MIGRATE_PARITY,
		.metrics = no_metrics,
		.script = pmbench_task_lint_script,
		.describe = pmbench_task_script_describe,
		.prepare = pmbench_task_primed_prepare,
		.run = pmbench_task_script_run,
	},
	{
		.name = "dev",
		.summary = "the dev server: ready line, first HTTP answer, "
			   "first body",
		.manifest_key = "dev",
		.sections = SECTIONS(&dev_section),
		.knobs = dev_knobs,
		.flags = PMBENCH_TASK_MIGRATE_TIMED | PMBENCH_TASK_SERVER,
		.metrics = dev_metrics,
		.tables = dev_tables,
		.note_key = "dev_timing",
		.note = "from spawn: ready_line_s (the ready line on "
			"stdout/stderr), http_s (first HTTP response head "
			"with status < 500, polled every 1 to 10 ms; the "
			"sample's wall_s), body_s (first whole body)",
		.script = pmbench_task_dev_script,
		.describe = pmbench_task_dev_describe,
		.prepare = pmbench_task_primed_prepare,
		.run = pmbench_task_dev_run,
	},
	{
		.name = "hmr",
		.summary = "edit-to-update: a marker written into a source "
			   "file until the dev server serves it (--edits)",
		.manifest_key = "dev",
		.sections = SECTIONS(&dev_section, &hmr_section),
		.knobs = hmr_knobs,
		.metrics = hmr_metrics,
		.note_key = "hmr_timing",
		.note = "once the dev server is ready, each edit writes a "
			"fresh marker into hmr.file of the run copy and times "
			"until hmr.path on 127.0.0.1 (polled every 1 to 10 ms) "
			"answers with a body holding it; the file is restored "
			"after each edit, 0.5 s settle before the next; the "
			"sample's wall_s is the run's median edit",
		.script = pmbench_task_dev_script,
		.describe = pmbench_task_hmr_describe,
		.prepare = pmbench_task_primed_prepare,
		.run = pmbench_task_hmr_run,
	},
	{
		.name = "resolve",
		.summary = "lockfile only (npm --package-lock-only, pnpm/bun/"
			   "deno --lockfile-only, yarn 4 --mode=update-"
			   "lockfile), in each --scenario",
		.flags = PMBENCH_TASK_PER_SCENARIO,
		.metrics = no_metrics,
		.describe = pmbench_task_resolve_describe,
		.prepare = pmbench_task_install_prepare,
		.run = pmbench_task_resolve_run,
		.unsupported = pmbench_task_resolve_unsupported,
	},
	{
		.name = "update",
		.summary = "one dependency bumped (as ci-cache's lockfile-"
			   "changed job), then a non-frozen install",
		.metrics = no_metrics,
		.note_key = "update_change",
		.note = "on a fresh copy of each PM's primed tree, the first "
			"direct dependency with a plain version X.Y.Z gets "
			"the range <X.Y.Z (outside the timed window), then the "
			"PM's ordinary install is timed",
		.describe = pmbench_task_install_describe,
		.prepare = pmbench_task_update_prepare,
		.run = pmbench_task_update_run,
		.prime = pmbench_task_update_prime,
	},
};

const size_t pmbench_tasks_nr = PMBENCH_ARRAY_SIZE(pmbench_tasks);

/* Tool caches inside node_modules that would make a second run warm. */
static const char *const warm_caches[] = {
	"node_modules/.vite",
	"node_modules/.cache",
	"node_modules/.tmp",
};

const struct pmbench_task *pmbench_task_get(const char *name)
{
	for (size_t i = 0; name && i < pmbench_tasks_nr; i++)
		if (!strcmp(pmbench_tasks[i].name, name))
			return &pmbench_tasks[i];
	return NULL;
}

const struct pmbench_task *pmbench_task_default(void)
{
	for (size_t i = 0; i < pmbench_tasks_nr; i++)
		if (pmbench_tasks[i].flags & PMBENCH_TASK_DEFAULT)
			return &pmbench_tasks[i];
	return &pmbench_tasks[0];
}

void pmbench_task_names(struct pmbench_strvec *out, unsigned flags)
{
	for (size_t i = 0; i < pmbench_tasks_nr; i++)
		if (pmbench_tasks[i].flags & flags)
			pmbench_strvec_push(out, pmbench_tasks[i].name);
}

const struct pmbench_task_metric *
pmbench_task_metric(const struct pmbench_task *t, const char *name)
{
	for (const struct pmbench_task_metric *m = t ? t->metrics : NULL;
	     m && m->name; m++)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}

const struct pmbench_task *pmbench_task_of_cell(const char *cell)
{
	const char *colon = cell ? strchr(cell, ':') : NULL;

	if (!colon)
		return pmbench_task_get(cell);
	for (size_t i = 0; colon[1] && i < pmbench_tasks_nr; i++) {
		const struct pmbench_task *t = &pmbench_tasks[i];

		if (t->flags & PMBENCH_TASK_FIXTURE_SCRIPTS &&
		    strlen(t->name) == (size_t)(colon - cell) &&
		    !strncmp(t->name, cell, (size_t)(colon - cell)))
			return t;
	}
	return NULL;
}

int pmbench_task_cell_has(const char *cell_task, unsigned flags)
{
	const struct pmbench_task *t = pmbench_task_of_cell(cell_task);

	return t && (t->flags & flags) != 0;
}

void pmbench_task_list(struct pmbench_buf *out, unsigned flags)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < pmbench_tasks_nr; i++)
		n += !flags || pmbench_tasks[i].flags & flags;
	for (size_t i = 0; i < pmbench_tasks_nr; i++) {
		if (flags && !(pmbench_tasks[i].flags & flags))
			continue;
		if (k)
			pmbench_buf_adds(out, k + 1 == n ? " or " : ", ");
		pmbench_buf_adds(out, pmbench_tasks[i].name);
		k++;
	}
}

/* How many numbers knob `k` takes. */
static size_t knob_values(const struct pmbench_task_knob *k)
{
	return k->kind == PMBENCH_TASK_KNOB_COUNTS ? 2 : 1;
}

void pmbench_task_knob_bounds(struct pmbench_buf *out,
			      const struct pmbench_task_knob *k)
{
	for (size_t i = 0; i < knob_values(k); i++) {
		const struct pmbench_task_knob_value *v = &k->values[i];

		if (i)
			pmbench_buf_adds(out, "; ");
		if (knob_values(k) > 1)
			pmbench_buf_addf(out, "%s: ", v->what);
		pmbench_buf_addf(out, "%u to %u", v->min, v->max);
		if (v->def >= v->min)
			pmbench_buf_addf(out, ", default %u", v->def);
	}
}

/* `text` as value `v`: 0, or -1 when it is no number within its bounds. */
static int knob_number(unsigned *out, const struct pmbench_task_knob_value *v,
		       const char *text)
{
	uint64_t n;

	if (pmbench_parse_u64(&n, text) < 0 || n < v->min || n > v->max)
		return -1;
	*out = (unsigned)n;
	return 0;
}

int pmbench_task_knob_set(struct pmbench_task_knobs *o,
			  const struct pmbench_task_knob *k, const char *arg)
{
	const char *comma = knob_values(k) > 1 ? strchr(arg, ',') : NULL;
	char *first = pmbench_xstrndup(arg, comma ? (size_t)(comma - arg)
						  : strlen(arg));
	struct pmbench_buf bounds = PMBENCH_BUF_INIT;
	unsigned n[2] = { k->values[0].def, k->values[1].def };
	int ret = knob_number(&n[0], &k->values[0], first);

	if (!ret && comma)
		ret = knob_number(&n[1], &k->values[1], comma + 1);
	for (size_t i = 0; i < knob_values(k) && !ret; i++)
		*(unsigned *)((char *)o + k->values[i].at) = n[i];
	if (ret) {
		pmbench_task_knob_bounds(&bounds, k);
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "'--%s' takes %s (%s), got '%s'",
					 k->name, k->arg, bounds.ptr, arg);
	}
	free(first);
	pmbench_buf_release(&bounds);
	return ret;
}

void pmbench_task_metric_format(struct pmbench_buf *out,
				const struct pmbench_task_metric *m,
				double value)
{
	switch (m->unit) {
	case PMBENCH_TASK_SECONDS:
		if (value < 1.0 && value > -1.0)
			pmbench_buf_addf(out, "%.1f ms", value * 1e3);
		else
			pmbench_buf_addf(out, "%.3f s", value);
		break;
	case PMBENCH_TASK_BYTES:
		pmbench_buf_addf(out, "%.1f kB", value / 1e3);
		break;
	case PMBENCH_TASK_COUNT:
		pmbench_buf_addf(out, "%.0f", value);
		if (m->noun)
			pmbench_buf_addf(out, " %s", m->noun);
		break;
	case PMBENCH_TASK_RATIO:
		pmbench_buf_addf(out, "%.1f %%", value * 100);
		break;
	}
}

void pmbench_task_fail(struct pmbench_sample *s, const char *reason,
		       const char *tail)
{
	s->ok = 0;
	free(s->failure);
	s->failure = pmbench_xstrdup(reason);
	if (tail) {
		free(s->tail);
		s->tail = pmbench_xstrdup(tail);
	}
}

static int add_noop(const char *project)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	cJSON *root = NULL, *scripts;
	char *out = NULL;
	int ret;

	pmbench_buf_path(&path, project, "package.json");
	ret = pmbench_fs_read_text(&text, path.ptr, PACKAGE_JSON_MAX);
	if (ret < 0)
		goto done;
	root = cJSON_Parse(text.ptr);
	if (!cJSON_IsObject(root)) {
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "'%s' is not a JSON object", path.ptr);
		goto done;
	}
	scripts = cJSON_GetObjectItemCaseSensitive(root, "scripts");
	if (!scripts) {
		scripts = cJSON_AddObjectToObject(root, "scripts");
	} else if (!cJSON_IsObject(scripts)) {
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "'scripts' in '%s' is not an object",
					 path.ptr);
		goto done;
	}
	cJSON_DeleteItemFromObjectCaseSensitive(scripts,
						PMBENCH_TASK_NOOP_SCRIPT);
	cJSON_AddStringToObject(scripts, PMBENCH_TASK_NOOP_SCRIPT,
				PMBENCH_TASK_NOOP_COMMAND);
	out = cJSON_Print(root);
	if (!out) {
		ret = pmbench_error_set("cannot write '%s'", path.ptr);
		goto done;
	}
	ret = pmbench_fs_write_atomic(path.ptr, out, strlen(out));
done:
	if (out)
		cJSON_free(out);
	cJSON_Delete(root);
	pmbench_buf_release(&path);
	pmbench_buf_release(&text);
	return ret;
}

/*
 * Discard the output folder `path` of the project and the folder of the
 * same name in each of its workspace packages (packages/api/dist).
 */
static int discard_outputs(struct pmbench_pmrun *ps, const char *path)
{
	struct pmbench_strvec dirs = PMBENCH_STRVEC_INIT;
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	size_t n = strlen(ps->ws.run_project);
	int ret = pmbench_fs_discard(path, ps->ws.trash);

	if (!ret && !strncmp(path, ps->ws.run_project, n) && path[n] == '/' &&
	    pmbench_monorepo_outputs(&dirs, ps->ws.run_project, path + n + 1) <
		    0)
		pmbench_error_clear();
	for (size_t i = 0; i < dirs.nr && !ret; i++) {
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, ps->ws.run_project, dirs.v[i]);
		ret = pmbench_fs_discard(p.ptr, ps->ws.trash);
	}
	pmbench_strvec_release(&dirs);
	pmbench_buf_release(&p);
	return ret;
}

int pmbench_task_prepare(struct pmbench_pmrun *ps,
			 const struct pmbench_fixture *f, int noop)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int ret;

	ret = pmbench_workspace_prepare(
		&ps->ws, PMBENCH_STATE_CACHE | PMBENCH_STATE_LOCKFILE |
				 PMBENCH_STATE_NODE_MODULES);
	if (ret < 0)
		goto done;
	/*
	 * What a task's run writes, as the manifest names it, in the project
	 * and in each of its workspace packages.
	 */
	for (size_t i = 0; i < pmbench_tasks_nr; i++) {
		if (!pmbench_tasks[i].output)
			continue;
		pmbench_buf_reset(&p);
		pmbench_tasks[i].output(&p, ps->ws.run_project, f, 0);
		if (!p.len)
			continue;
		ret = discard_outputs(ps, p.ptr);
		if (ret < 0)
			goto done;
	}
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(warm_caches); i++) {
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, ps->ws.run_project, warm_caches[i]);
		ret = pmbench_fs_discard(p.ptr, ps->ws.trash);
		if (ret < 0)
			goto done;
	}
	if (noop)
		ret = add_noop(ps->ws.run_project);
done:
	pmbench_buf_release(&p);
	return ret;
}

int pmbench_task_primed_prepare(const struct pmbench_task_job *j)
{
	return pmbench_task_prepare(j->ps, j->f, 0);
}

void pmbench_task_run_argv(struct pmbench_strvec *out,
			   const struct pmbench_pmrun *ps, const char *script,
			   const struct pmbench_strvec *args)
{
	pmbench_strvec_push(out, ps->found.path);
	pmbench_pm_push_args(out, ps->pm->run_args, ps->ws.cache);
	pmbench_strvec_push(out, script);
	if (args && args->nr && ps->pm->run_dashdash)
		pmbench_strvec_push(out, "--");
	for (size_t i = 0; args && i < args->nr; i++)
		pmbench_strvec_push(out, args->v[i]);
}

int pmbench_task_project_has_script(const char *project, const char *script)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	cJSON *root = NULL;
	const cJSON *x;
	int has = 0;

	if (!project)
		return 0;
	pmbench_buf_path(&path, project, "package.json");
	if (pmbench_fs_read_text(&text, path.ptr, PACKAGE_JSON_MAX) < 0)
		goto done;
	root = cJSON_Parse(text.ptr);
	x = cJSON_GetObjectItemCaseSensitive(root, "scripts");
	x = cJSON_GetObjectItemCaseSensitive(x, script);
	has = cJSON_IsString(x);
done:
	cJSON_Delete(root);
	pmbench_buf_release(&path);
	pmbench_buf_release(&text);
	return has;
}

int pmbench_task_has_script(const struct pmbench_fixture *f, const char *script)
{
	return pmbench_task_project_has_script(f->project_dir, script);
}
