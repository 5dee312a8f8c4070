/*
 * A migrate result as JSON ("pmbench-migrate", docs/result-schema.md):
 * the model of struct pmbench_migrate (migrate.h) written whole and read
 * back whole, the benchmark's result embedded, so that `report` makes
 * from the file the very document `migrate` made from memory; and what
 * is said of the model for other readers (each target's verdict,
 * resolution diff and install-script differences), which the reader
 * leaves: it recomputes them. Version 1 files (before the model was
 * written) are read for what they hold, saying what they lack.
 */
#include "pmbench/common.h"

#include <limits.h>

#include "pmbench/migrate.h"
#include "pmbench/resultfile.h"

#include "json_io.h"

_Static_assert(sizeof(size_t) == sizeof(uint64_t),
	       "a recipe change's line count is read and written as a u64");

/* ---- The model's fields ------------------------------------------------- */

/* The top level, version 1 and on (struct pmbench_migrate). */
static const struct pmbench_result_field top_fields[] = {
	FIELD(pmbench_migrate, "source_pm", F_STR, source_pm, 1),
	FIELD(pmbench_migrate, "source_lockfile", F_STR, source_lock, 0),
	FIELD(pmbench_migrate, "detected_by", F_STR, detected_by, 0),
	FIELD(pmbench_migrate, "choose", F_STRVEC, choose, 0),
	FIELD_END,
};

/* The top level from version 2: what the report computes with. */
static const struct pmbench_result_field top_model_fields[] = {
	FIELD(pmbench_migrate, "parity_tasks", F_STRVEC, tasks, 0),
	FIELD(pmbench_migrate, "seed", F_U64, seed, 1),
	FIELD(pmbench_migrate, "timeout_s", F_SECS, timeout_ns, 0),
	FIELD_END,
};

/* A PM, version 1 and on (struct pmbench_migrate_pm). */
static const struct pmbench_result_field pm_fields[] = {
	FIELD(pmbench_migrate_pm, "pm", F_STR, pm, 1),
	FIELD(pmbench_migrate_pm, "lockfile", F_STR, lockfile, 0),
	FIELD(pmbench_migrate_pm, "install_failure", F_STR, prime_failure, 0),
	FIELD(pmbench_migrate_pm, "scripts", F_STR, scripts, 0),
	FIELD(pmbench_migrate_pm, "build_bytes", F_U64, build_bytes, 0),
	FIELD_END,
};

/* A PM from version 2; "installed" follows them. */
static const struct pmbench_result_field pm_model_fields[] = {
	FIELD(pmbench_migrate_pm, "scanned", F_BOOL, scanned, 1),
	FIELD(pmbench_migrate_pm, "build_output", F_STRVEC, build_files, 0),
	FIELD(pmbench_migrate_pm, "script_files", F_STRVEC, script_files, 0),
	FIELD_END,
};

/* A parity task (struct pmbench_migrate_task). */
static const struct pmbench_result_field task_fields[] = {
	FIELD(pmbench_migrate_task, "name", F_STR, name, 1),
	FIELD(pmbench_migrate_task, "ran", F_BOOL, ran, 0),
	FIELD(pmbench_migrate_task, "ok", F_BOOL, ok, 0),
	FIELD(pmbench_migrate_task, "interrupted", F_BOOL, interrupted, 0),
	FIELD(pmbench_migrate_task, "failure", F_STR, failure, 0),
	FIELD(pmbench_migrate_task, "wall_s", F_DOUBLE, wall_s, 0),
	FIELD(pmbench_migrate_task, "no_output", F_BOOL, no_output, 0),
	FIELD_END,
};

/* A change of a target's recipe (struct pmbench_recipe_change). */
static const struct pmbench_result_field change_fields[] = {
	FIELD(pmbench_recipe_change, "id", F_STR, id, 1),
	FIELD(pmbench_recipe_change, "what", F_STR, what, 1),
	FIELD(pmbench_recipe_change, "choice", F_STR, choice, 0),
	FIELD(pmbench_recipe_change, "applied", F_BOOL, applied, 0),
	FIELD(pmbench_recipe_change, "lines", F_U64, lines, 0),
	FIELD(pmbench_recipe_change, "diff", F_STR, diff, 1),
	FIELD_END,
};

/* What a version 1 file lacks that rendering it again needs. */
#define V1_LACKS                                           \
	"pms[].installed (each PM's installed packages), " \
	"pms[].build_output, pms[].script_files, pms[].scanned and seed"

/* ---- Writing ------------------------------------------------------------ */

/* "installed": {name: [versions]}, in the resolution's order. */
static void write_installed(cJSON *o, const struct pmbench_resolution *res)
{
	cJSON *all = pmbench_json_must(cJSON_AddObjectToObject(o, "installed"));
	cJSON *versions = NULL;

	for (size_t i = 0; i < res->nr; i++) {
		const struct pmbench_package *p = &res->pkgs[i];

		if (!i || strcmp(res->pkgs[i - 1].name, p->name))
			versions = pmbench_json_must(
				cJSON_AddArrayToObject(all, p->name));
		pmbench_json_add_item(versions, cJSON_CreateString(p->version));
	}
}

static cJSON *diff_json(const struct pmbench_migrate_pm *src,
			const struct pmbench_migrate_pm *e)
{
	static const char *const kinds[] = {
		[PMBENCH_CHANGE_VERSION] = "version",
		[PMBENCH_CHANGE_ONLY_SOURCE] = "only_source",
		[PMBENCH_CHANGE_ONLY_TARGET] = "only_target",
	};
	struct pmbench_resolution_diff d = PMBENCH_RESOLUTION_DIFF_INIT;
	cJSON *o = pmbench_json_must(cJSON_CreateObject()), *arr;

	pmbench_resolution_diff(&d, &src->res, &e->res);
	pmbench_json_must(
		cJSON_AddNumberToObject(o, "identical", (double)d.identical));
	pmbench_json_must(
		cJSON_AddNumberToObject(o, "changed", (double)d.changed));
	pmbench_json_must(cJSON_AddNumberToObject(o, "only_source",
						  (double)d.only_source));
	pmbench_json_must(cJSON_AddNumberToObject(o, "only_target",
						  (double)d.only_target));
	arr = pmbench_json_must(cJSON_AddArrayToObject(o, "changes"));
	for (size_t i = 0; i < d.changes_nr; i++) {
		const struct pmbench_change *c = &d.changes[i];
		cJSON *x = pmbench_json_add_object(arr);

		pmbench_json_add_str(x, "kind", kinds[c->kind]);
		pmbench_json_add_str(x, "name", c->name);
		pmbench_json_add_str(x, "from", c->from);
		pmbench_json_add_str(x, "to", c->to);
		pmbench_json_add_str(x, "level", c->level);
	}
	pmbench_resolution_diff_release(&d);
	return o;
}

/* What is said of a target against the source, for other readers. */
static void write_against(cJSON *o, const struct pmbench_migrate_pm *src,
			  const struct pmbench_migrate_pm *e)
{
	struct pmbench_strvec a = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec z = PMBENCH_STRVEC_INIT;

	if (!src || e == src || !src->scanned || !e->scanned)
		return;
	if (!cJSON_AddItemToObject(o, "resolution", diff_json(src, e)))
		pmbench_die("out of memory building JSON");
	pmbench_migrate_script_differences(src, e, &a, &z);
	pmbench_json_add_strvec(o, "script_files_only_source", &a);
	pmbench_json_add_strvec(o, "script_files_only_target", &z);
	pmbench_strvec_release(&a);
	pmbench_strvec_release(&z);
}

static void write_pm(cJSON *o, const struct pmbench_migrate_pm *src,
		     const struct pmbench_migrate_pm *e, const char *verdict)
{
	cJSON *arr;

	pmbench_json_add_str(o, "pm", e->pm);
	pmbench_json_must(cJSON_AddBoolToObject(o, "source", e == src));
	pmbench_json_add_str(o, "verdict", verdict);
	pmbench_json_must(
		cJSON_AddNumberToObject(o, "packages", (double)e->res.nr));
	pmbench_json_must(cJSON_AddNumberToObject(o, "build_files",
						  (double)e->build_files.nr));
	write_against(o, src, e);
	pmbench_json_write_fields(o, e, pm_fields);
	arr = pmbench_json_must(cJSON_AddArrayToObject(o, "tasks"));
	for (size_t k = 0; k < e->tasks_nr; k++)
		pmbench_json_write_fields(pmbench_json_add_object(arr),
					  &e->tasks[k], task_fields);
	/* Present exactly when the recipe ran. */
	if (e->recipe_ran) {
		arr = pmbench_json_must(cJSON_AddArrayToObject(o, "changes"));
		for (size_t k = 0; k < e->recipe.changes_nr; k++)
			pmbench_json_write_fields(pmbench_json_add_object(arr),
						  &e->recipe.changes[k],
						  change_fields);
	}
	pmbench_json_write_fields(o, e, pm_model_fields);
	write_installed(o, &e->res);
}

char *pmbench_migrate_to_json(const struct pmbench_migrate *m,
			      const struct pmbench_result *r,
			      const char *const *verdicts)
{
	const struct pmbench_migrate_pm *src =
		pmbench_migrate_get(m, m->source_pm);
	cJSON *root = pmbench_json_must(cJSON_CreateObject()), *arr;

	pmbench_json_add_str(root, "schema", PMBENCH_MIGRATE_SCHEMA);
	pmbench_json_must(cJSON_AddNumberToObject(root, "version",
						  PMBENCH_MIGRATE_VERSION));
	pmbench_json_write_fields(root, m, top_fields);
	pmbench_json_must(cJSON_AddBoolToObject(root, "all_ok",
						pmbench_migrate_all_ok(m, r)));
	pmbench_json_must(
		cJSON_AddBoolToObject(root, "recipes", !m->no_recipe));
	pmbench_json_write_fields(root, m, top_model_fields);
	arr = pmbench_json_must(cJSON_AddArrayToObject(root, "pms"));
	for (size_t i = 0; i < m->pms_nr; i++)
		write_pm(pmbench_json_add_object(arr), src, &m->pms[i],
			 verdicts ? verdicts[i] : NULL);
	if (!cJSON_AddItemToObject(root, "result", pmbench_result_to_cjson(r)))
		pmbench_die("out of memory building JSON");
	return pmbench_json_print(root);
}

/* ---- Reading ------------------------------------------------------------ */

/* The file's version: 1 or 2 (reads as PMBENCH_MIGRATE_VERSION). */
static int version_of(int *out, struct pmbench_json_reader *rd,
		      const cJSON *root)
{
	const cJSON *item;
	double v = 0;
	int ret = pmbench_json_lookup(&item, rd, root, "version", 1);

	if (ret > 0)
		ret = pmbench_json_whole(&v, rd, item, "version", 1, INT_MAX);
	if (ret < 0)
		return ret;
	if (v > PMBENCH_MIGRATE_VERSION)
		return pmbench_json_bad_field(rd, "version",
					      "is %.0f, newer than the %d this "
					      "pmbench reads",
					      v, PMBENCH_MIGRATE_VERSION);
	*out = (int)v;
	return 0;
}

/* "installed": each name's versions into the PM's resolution. */
static int read_installed(struct pmbench_migrate_pm *e,
			  struct pmbench_json_reader *rd, const cJSON *o)
{
	const cJSON *all, *versions, *v;
	int ret = pmbench_json_get_object(&all, rd, o, "installed");

	if (ret < 0 || !all)
		return ret;
	cJSON_ArrayForEach(versions, all)
	{
		if (!cJSON_IsArray(versions))
			return pmbench_json_bad_field(
				rd, "installed",
				"must map each name to an array of versions "
				"('%s' does not)",
				versions->string);
		cJSON_ArrayForEach(v, versions)
		{
			if (!cJSON_IsString(v) || !v->valuestring)
				return pmbench_json_bad_field(
					rd, "installed",
					"must hold versions as strings ('%s' "
					"does not)",
					versions->string);
			pmbench_resolution_add(&e->res, versions->string,
					       v->valuestring, "", 0);
		}
	}
	pmbench_resolution_sort(&e->res);
	return 0;
}

static void *add_task(void *pm, int i)
{
	struct pmbench_migrate_pm *e = pm;
	struct pmbench_migrate_task *t;

	(void)i;
	PMBENCH_ALLOC_GROW(e->tasks, e->tasks_nr + 1, e->tasks_alloc);
	t = &e->tasks[e->tasks_nr++];
	memset(t, 0, sizeof(*t));
	return t;
}

static const struct pmbench_json_objects task_array = {
	.key = "tasks",
	.add = add_task,
	.fields = task_fields,
};

static void *add_change(void *pm, int i)
{
	struct pmbench_recipe *r = &((struct pmbench_migrate_pm *)pm)->recipe;
	struct pmbench_recipe_change *c;

	(void)i;
	PMBENCH_ALLOC_GROW(r->changes, r->changes_nr + 1, r->changes_alloc);
	c = &r->changes[r->changes_nr++];
	memset(c, 0, sizeof(*c));
	return c;
}

/* A change not applied is an alternative: it names its choice. */
static int check_change(void *change, struct pmbench_json_reader *rd,
			const cJSON *item)
{
	const struct pmbench_recipe_change *c = change;

	(void)item;
	if (!c->applied && !c->choice)
		return pmbench_json_bad_field(rd, "choice",
					      "must name the choice of a "
					      "change not applied");
	return 0;
}

static const struct pmbench_json_objects change_array = {
	.key = "changes",
	.add = add_change,
	.fields = change_fields,
	.more = check_change,
};

/* Version 2's model of a PM. */
static int read_pm_model(struct pmbench_migrate_pm *e,
			 struct pmbench_json_reader *rd, const cJSON *o)
{
	const cJSON *installed;
	int ret = pmbench_json_read_fields(e, rd, o, pm_model_fields);

	/* What it installed is the diff's half: no scan, no packages. */
	if (!ret)
		ret = pmbench_json_lookup(&installed, rd, o, "installed",
					  e->scanned);
	if (ret > 0)
		ret = read_installed(e, rd, o);
	/* The comparisons walk them in order. */
	pmbench_strvec_sort(&e->build_files, 0);
	pmbench_strvec_sort(&e->script_files, 0);
	return ret;
}

/* What the PM table does not hold: tasks, recipe, and the model. */
static int read_pm_more(void *pm, struct pmbench_json_reader *rd,
			const cJSON *o)
{
	struct pmbench_migrate_pm *e = pm;
	int version = *(const int *)rd->payload;
	int ret = pmbench_json_read_objects(e, rd, o, &task_array);

	e->recipe_ran = cJSON_IsArray(cJSON_GetObjectItem(o, "changes"));
	if (!ret)
		ret = pmbench_json_read_objects(e, rd, o, &change_array);
	if (!ret && version >= 2)
		ret = read_pm_model(e, rd, o);
	return ret;
}

static void *add_pm(void *migrate, int i)
{
	struct pmbench_migrate *m = migrate;
	struct pmbench_recipe recipe = PMBENCH_RECIPE_INIT;
	struct pmbench_migrate_pm *e;

	(void)i;
	PMBENCH_ALLOC_GROW(m->pms, m->pms_nr + 1, m->pms_alloc);
	e = &m->pms[m->pms_nr++];
	memset(e, 0, sizeof(*e));
	pmbench_strvec_init(&e->build_files);
	pmbench_strvec_init(&e->script_files);
	e->recipe = recipe;
	return e;
}

static const struct pmbench_json_objects pm_array = {
	.key = "pms",
	.required = 1,
	.add = add_pm,
	.fields = pm_fields,
	.more = read_pm_more,
};

/* "recipes": false is --no-recipe (absent: recipes ran). */
static int read_recipes(struct pmbench_migrate *m,
			struct pmbench_json_reader *rd, const cJSON *root)
{
	const cJSON *item;
	int ret = pmbench_json_lookup(&item, rd, root, "recipes", 0);

	if (ret <= 0)
		return ret;
	if (!cJSON_IsBool(item))
		return pmbench_json_bad_field(rd, "recipes",
					      "must be true or false");
	m->no_recipe = cJSON_IsFalse(item);
	return 0;
}

/* The embedded "result", read as a result file is, its path "result". */
static int read_result(struct pmbench_result *r, struct pmbench_json_reader *rd,
		       const cJSON *root)
{
	const cJSON *o;
	int ret = pmbench_json_lookup(&o, rd, root, "result", 1);

	if (ret < 0)
		return ret;
	if (!cJSON_IsObject(o))
		return pmbench_json_bad_field(rd, "result",
					      "must be an object (a result)");
	pmbench_buf_adds(&rd->where, "result");
	ret = pmbench_result_from_cjson(r, rd, o);
	pmbench_buf_reset(&rd->where);
	return ret;
}

int pmbench_migrate_from_cjson(struct pmbench_result_file *out,
			       struct pmbench_json_reader *rd,
			       const cJSON *root)
{
	struct pmbench_migrate *m = &out->migrate;
	int ret = version_of(&out->version, rd, root);

	rd->payload = &out->version;
	if (!ret)
		ret = pmbench_json_read_fields(m, rd, root, top_fields);
	if (!ret && out->version >= 2)
		ret = pmbench_json_read_fields(m, rd, root, top_model_fields);
	if (!ret)
		ret = read_recipes(m, rd, root);
	if (!ret)
		ret = pmbench_json_read_objects(m, rd, root, &pm_array);
	if (!ret)
		ret = read_result(&out->result, rd, root);
	if (!ret && out->version < 2)
		out->lacks = pmbench_xstrdup(V1_LACKS);
	return ret;
}
