/*
 * The dashboard formats (src/report/fmt_gab.c, fmt_bmf.c): what pmbench
 * writes validates against each format's published schema
 * (tests/data/schemas/, see its README), checked by a small JSON Schema
 * validator of this file's own that knows the keywords those schemas use
 * and fails on any other; and it carries every figure of a cell, each
 * with its interval: the wall time, the work counters, the --explain
 * phases.
 */
#include "pmbench/common.h"

#include <math.h>
#include <regex.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "pmbench/doc.h"
#include "pmbench/format.h"
#include "pmbench/fs.h"
#include "pmbench/report_kind.h"
#include "pmbench/result.h"

/* ---- A JSON Schema (draft-07) validator for the keywords used --------- */

static int valid(const cJSON *schema, const cJSON *v, struct pmbench_buf *why,
		 const char *at);

static int has_type(const cJSON *v, const char *t)
{
	if (!strcmp(t, "object"))
		return cJSON_IsObject(v);
	if (!strcmp(t, "array"))
		return cJSON_IsArray(v);
	if (!strcmp(t, "string"))
		return cJSON_IsString(v);
	if (!strcmp(t, "number"))
		return cJSON_IsNumber(v);
	if (!strcmp(t, "integer"))
		return cJSON_IsNumber(v) &&
		       v->valuedouble == floor(v->valuedouble);
	if (!strcmp(t, "boolean"))
		return cJSON_IsBool(v);
	return !strcmp(t, "null") && cJSON_IsNull(v);
}

static int matches(const char *pattern, const char *s)
{
	regex_t re;
	int ok;

	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB))
		return 0;
	ok = !regexec(&re, s, 0, NULL, 0);
	regfree(&re);
	return ok;
}

/* properties, patternProperties, additionalProperties of an object. */
static int valid_members(const cJSON *schema, const cJSON *v,
			 struct pmbench_buf *why, const char *at)
{
	const cJSON *props = cJSON_GetObjectItem(schema, "properties");
	const cJSON *pats = cJSON_GetObjectItem(schema, "patternProperties");
	const cJSON *extra =
		cJSON_GetObjectItem(schema, "additionalProperties");
	const cJSON *m, *p;
	char path[512];

	cJSON_ArrayForEach(m, v)
	{
		int known = 0;

		snprintf(path, sizeof(path), "%s.%s", at, m->string);
		if (props && (p = cJSON_GetObjectItem(props, m->string))) {
			known = 1;
			if (!valid(p, m, why, path))
				return 0;
		}
		cJSON_ArrayForEach(p, pats)
		{
			if (!matches(p->string, m->string))
				continue;
			known = 1;
			if (!valid(p, m, why, path))
				return 0;
		}
		if (!known && cJSON_IsFalse(extra)) {
			pmbench_buf_addf(why, "%s: not allowed", path);
			return 0;
		}
		if (!known && cJSON_IsObject(extra) &&
		    !valid(extra, m, why, path))
			return 0;
	}
	return 1;
}

static int valid_keyword(const cJSON *k, const cJSON *schema, const cJSON *v,
			 struct pmbench_buf *why, const char *at)
{
	const char *name = k->string;
	const cJSON *e;
	char path[512];
	int i = 0;

	if (!strcmp(name, "type")) {
		if (!has_type(v, k->valuestring ? k->valuestring : "")) {
			pmbench_buf_addf(why, "%s: not of type %s", at,
					 k->valuestring);
			return 0;
		}
	} else if (!strcmp(name, "required")) {
		cJSON_ArrayForEach(
			e, k) if (!cJSON_GetObjectItem(v, e->valuestring))
		{
			pmbench_buf_addf(why, "%s: '%s' is missing", at,
					 e->valuestring);
			return 0;
		}
	} else if (!strcmp(name, "items")) {
		cJSON_ArrayForEach(e, v)
		{
			snprintf(path, sizeof(path), "%s[%d]", at, i++);
			if (!valid(k, e, why, path))
				return 0;
		}
	} else if (!strcmp(name, "properties") ||
		   !strcmp(name, "patternProperties") ||
		   !strcmp(name, "additionalProperties")) {
		/* Once per object, by valid_members(). */
		(void)schema;
	} else if (strcmp(name, "$id") && strcmp(name, "$schema") &&
		   strcmp(name, "$comment") && strcmp(name, "title") &&
		   strcmp(name, "description")) {
		pmbench_buf_addf(why, "%s: keyword '%s' is not known here", at,
				 name);
		return 0;
	}
	return 1;
}

static int valid(const cJSON *schema, const cJSON *v, struct pmbench_buf *why,
		 const char *at)
{
	const cJSON *k;

	cJSON_ArrayForEach(k, schema) if (!valid_keyword(k, schema, v, why,
							 at)) return 0;
	if (cJSON_IsObject(v))
		return valid_members(schema, v, why, at);
	return 1;
}

/* Whether `text` validates against tests/data/schemas/`file`. */
static int against(const char *file, const char *text, struct pmbench_buf *why)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT, s = PMBENCH_BUF_INIT;
	const char *root = getenv("PMBENCH_SOURCE_DIR");
	cJSON *schema = NULL, *doc = cJSON_Parse(text);
	int ok = 0;

	pmbench_buf_addf(&path, "%s/tests/data/schemas/%s", root ? root : ".",
			 file);
	if (pmbench_fs_read_text(&s, path.ptr, 1 << 20) < 0)
		pmbench_buf_addf(why, "%s: %s", file, pmbench_error_last());
	else if (!(schema = cJSON_Parse(s.ptr)))
		pmbench_buf_addf(why, "%s: not JSON", file);
	else if (!doc)
		pmbench_buf_adds(why, "the output is not JSON");
	else
		ok = valid(schema, doc, why, "$");
	cJSON_Delete(schema);
	cJSON_Delete(doc);
	pmbench_buf_release(&path);
	pmbench_buf_release(&s);
	return ok;
}

/* ---- A result with every figure ------------------------------------------ */

static void add_phase_run(struct pmbench_cell *c, double scale)
{
	struct pmbench_explain_run *e = pmbench_cell_add_explain(c);

	e->ok = 1;
	e->wall_ns = (uint64_t)(5e9 * scale);
	pmbench_pm_phases_add(&e->phases, "idealTree", PMBENCH_PMPHASE_RESOLVE,
			      1.3, 2.0 * scale, 114, 0);
	pmbench_pm_phases_add(&e->phases, "reify:unpack", PMBENCH_PMPHASE_FETCH,
			      3.4, 1.5 * scale, 89, 0);
	pmbench_pm_phases_add(&e->phases, "startup", PMBENCH_PMPHASE_STARTUP, 0,
			      0.3 * scale, -1, PMBENCH_PMPHASE_ARRIVAL);
}

/*
 * npm (and pnpm at twice its times) with 5 runs of 1.0 to 1.4 s, work
 * counted, and `explained` runs of --explain.
 */
static void make_result(struct pmbench_result *r, int timed, int explained)
{
	static const char *const pms[] = { "npm", "pnpm" };

	r->seed = 7;
	r->runs = 5;
	pmbench_result_env_set(r, "registry", "local");
	for (size_t p = 0; p < 2; p++) {
		struct pmbench_cell *c = pmbench_result_add_cell(
			r, "todo-api", "install", "clean", pms[p]);

		c->explain_how = pmbench_xstrdup("--timing");
		for (unsigned k = 0; k < 5; k++) {
			struct pmbench_sample *s = pmbench_cell_add_sample(c);

			s->round = k;
			s->ok = timed;
			s->wall_ns =
				(uint64_t)((1.0 + 0.1 * k) * 1e9) * (p + 1);
			pmbench_sample_metric_set(s, "task_clock_s",
						  0.5 + 0.01 * k);
			pmbench_sample_metric_set(s, "instructions_count",
						  1.2e10 + 1e6 * k);
		}
		for (int k = 0; k < explained; k++)
			add_phase_run(c, 1.0 + 0.1 * k);
	}
}

static char *write_as(const char *format, const struct pmbench_result *r)
{
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_report_bench(&doc, r);
	if (pmbench_format_write(&b, pmbench_format_get(format), &doc) < 0)
		pmbench_buf_addf(&b, "error: %s", pmbench_error_last());
	pmbench_doc_release(&doc);
	return pmbench_buf_detach(&b);
}

/* ---- The tests ------------------------------------------------------------ */

TEST(bencher_validates)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	char *text;

	make_result(&r, 1, 3);
	text = write_as("bencher", &r);
	if (!against("bencher-bmf.json", text, &why))
		check_fail(__FILE__, __LINE__, "%s\n%s", why.ptr, text);
	free(text);
	pmbench_buf_release(&why);
	pmbench_result_release(&r);
}

TEST(github_action_benchmark_validates)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	char *text;

	make_result(&r, 1, 3);
	text = write_as("github-action-benchmark", &r);
	if (!against("github-action-benchmark.json", text, &why))
		check_fail(__FILE__, __LINE__, "%s\n%s", why.ptr, text);
	free(text);
	pmbench_buf_release(&why);
	pmbench_result_release(&r);
}

/* The validator can fail: what the schemas forbid is caught. */
TEST(validator_catches)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT;

	CHECK(!against("github-action-benchmark.json",
		       "[{\"name\": \"x\", \"unit\": \"s\"}]", &why));
	CHECK_CONTAINS(why.ptr, "'value' is missing");
	pmbench_buf_reset(&why);
	CHECK(!against("github-action-benchmark.json",
		       "[{\"name\": 1, \"unit\": \"s\", \"value\": 1}]", &why));
	pmbench_buf_reset(&why);
	CHECK(!against("bencher-bmf.json",
		       "{\"b\": {\"latency\": {\"value\": \"1\"}}}", &why));
	pmbench_buf_reset(&why);
	CHECK(!against("bencher-bmf.json", "[]", &why));
	pmbench_buf_reset(&why);
	CHECK(against("bencher-bmf.json", "{\"b\": {\"m\": {\"value\": 1}}}",
		      &why));
	pmbench_buf_release(&why);
}

/* A measure per figure, each with its interval around it. */
TEST(bencher_carries_every_figure)
{
	static const char *const measures[] = {
		"latency",	     "task-clock",	     "instructions",
		"explain-idealtree", "explain-reify-unpack", "explain-startup",
	};
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char *text;
	cJSON *root, *bench, *m;

	make_result(&r, 1, 3);
	text = write_as("bencher", &r);
	root = cJSON_Parse(text);
	CHECK(root);
	bench = cJSON_GetObjectItem(root, "todo-api/install/clean/npm");
	CHECK(bench);
	CHECK(cJSON_GetObjectItem(root, "todo-api/install/clean/pnpm"));
	CHECK_INT(cJSON_GetArraySize(bench), PMBENCH_ARRAY_SIZE(measures));
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(measures); i++) {
		double v, lo, hi;

		m = cJSON_GetObjectItem(bench, measures[i]);
		CHECK(m);
		v = cJSON_GetObjectItem(m, "value")->valuedouble;
		lo = cJSON_GetObjectItem(m, "lower_value")->valuedouble;
		hi = cJSON_GetObjectItem(m, "upper_value")->valuedouble;
		CHECK(lo <= v && v <= hi);
		CHECK(strlen(measures[i]) <= 64);
	}
	/* Latency in nanoseconds, as Bencher's built-in measure is. */
	CHECK_NEAR(cJSON_GetObjectItem(cJSON_GetObjectItem(bench, "latency"),
				       "value")
			   ->valuedouble,
		   1.2e9, 1);
	CHECK_NEAR(cJSON_GetObjectItem(cJSON_GetObjectItem(bench,
							   "explain-idealtree"),
				       "value")
			   ->valuedouble,
		   2.2e9, 1);
	cJSON_Delete(root);
	free(text);
	pmbench_result_release(&r);
}

/* An entry per figure: its name, unit, "± half-width" and interval. */
TEST(github_action_benchmark_carries_every_figure)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const cJSON *e, *wall = NULL, *phase = NULL;
	char *text;
	cJSON *root;
	int n = 0;

	make_result(&r, 1, 3);
	text = write_as("github-action-benchmark", &r);
	root = cJSON_Parse(text);
	CHECK(root);
	cJSON_ArrayForEach(e, root)
	{
		const char *name = cJSON_GetObjectItem(e, "name")->valuestring;

		n++;
		CHECK(!strncmp(cJSON_GetObjectItem(e, "range")->valuestring,
			       "\xc2\xb1 ", 3));
		if (!strcmp(name, "todo-api/install/clean/npm/wall"))
			wall = e;
		if (!strcmp(name,
			    "todo-api/install/clean/npm/explain:idealTree"))
			phase = e;
	}
	CHECK_INT(n, 12);
	CHECK(wall && phase);
	CHECK_STR(cJSON_GetObjectItem(wall, "unit")->valuestring, "s");
	CHECK_NEAR(cJSON_GetObjectItem(wall, "value")->valuedouble, 1.2, 1e-9);
	CHECK_CONTAINS(cJSON_GetObjectItem(wall, "extra")->valuestring,
		       "median of 5 timed runs; 95% CI 1 s to 1.4 s");
	CHECK_CONTAINS(cJSON_GetObjectItem(phase, "extra")->valuestring,
		       "npm's own timer (--timing), kind resolve");
	cJSON_Delete(root);
	free(text);
	pmbench_result_release(&r);
}

/*
 * Without a timed run only the --explain phases are there; with neither,
 * an error, never an empty file.
 */
TEST(nothing_timed)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char *text;

	make_result(&r, 0, 3);
	text = write_as("bencher", &r);
	CHECK(!strstr(text, "latency"));
	CHECK_CONTAINS(text, "explain-idealtree");
	free(text);
	pmbench_result_release(&r);
	make_result(&r, 0, 0);
	text = write_as("bencher", &r);
	CHECK_CONTAINS(text, "error: ");
	free(text);
	text = write_as("github-action-benchmark", &r);
	CHECK_CONTAINS(text, "error: ");
	free(text);
	pmbench_result_release(&r);
}

CHECK_MAIN(CASE(bencher_validates), CASE(github_action_benchmark_validates),
	   CASE(validator_catches), CASE(bencher_carries_every_figure),
	   CASE(github_action_benchmark_carries_every_figure),
	   CASE(nothing_timed))
