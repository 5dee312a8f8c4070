#include "pmbench/common.h"

#include <dirent.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "check.h"
#include "sample_result.h"
#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/result.h"
#include "pmbench/strvec.h"

/*
 * The committed sample is tests/data/sample-result.json under
 * $PMBENCH_SOURCE_DIR (CTest sets it; "." otherwise): the known answer,
 * which this test only reads. Regenerating it from sample_result_build()
 * is a step of its own, never a test: `cmake --build build --target
 * write-sample` (tests/unit/write_sample.c), then a look at the diff.
 */
#define SAMPLE_PATH "tests/data/sample-result.json"

/* ---- Comparing two results field by field ------------------------------ */

static int same_str(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

static int same_strvec(const struct pmbench_strvec *a,
		       const struct pmbench_strvec *b)
{
	if (a->nr != b->nr)
		return 0;
	for (size_t i = 0; i < a->nr; i++)
		if (strcmp(a->v[i], b->v[i]))
			return 0;
	return !a->v[a->nr] && !b->v[b->nr];
}

#define SAME_STR(a, b, f)                                             \
	do {                                                          \
		if (!same_str((a)->f, (b)->f)) {                      \
			pmbench_buf_addf(msg, "%s: '%s' vs '%s'", #f, \
					 (a)->f ? (a)->f : "(null)",  \
					 (b)->f ? (b)->f : "(null)"); \
			return 1;                                     \
		}                                                     \
	} while (0)

#define SAME_NUM(a, b, f)                                                 \
	do {                                                              \
		if ((a)->f != (b)->f) {                                   \
			pmbench_buf_addf(msg, "%s: %.17g vs %.17g", #f,   \
					 (double)(a)->f, (double)(b)->f); \
			return 1;                                         \
		}                                                         \
	} while (0)

#define SAME_VEC(a, b, f)                             \
	do {                                          \
		if (!same_strvec(&(a)->f, &(b)->f)) { \
			pmbench_buf_adds(msg, #f);    \
			return 1;                     \
		}                                     \
	} while (0)

static int diff_sample(struct pmbench_buf *msg, const struct pmbench_sample *a,
		       const struct pmbench_sample *b)
{
	SAME_NUM(a, b, round);
	SAME_NUM(a, b, warmup);
	SAME_NUM(a, b, ok);
	SAME_NUM(a, b, wall_ns);
	SAME_NUM(a, b, user_ns);
	SAME_NUM(a, b, sys_ns);
	SAME_NUM(a, b, max_rss_kib);
	SAME_NUM(a, b, tree_rss_kib);
	SAME_NUM(a, b, exit_code);
	SAME_NUM(a, b, signal);
	SAME_NUM(a, b, timed_out);
	SAME_NUM(a, b, interrupted);
	SAME_NUM(a, b, leftover);
	SAME_NUM(a, b, no_node_modules);
	SAME_NUM(a, b, nm_bytes);
	SAME_NUM(a, b, nm_files);
	SAME_NUM(a, b, started);
	SAME_STR(a, b, failure);
	SAME_STR(a, b, tail);
	return 0;
}

static int diff_cell(struct pmbench_buf *msg, const struct pmbench_cell *a,
		     const struct pmbench_cell *b)
{
	SAME_STR(a, b, fixture);
	SAME_STR(a, b, task);
	SAME_STR(a, b, scenario);
	SAME_STR(a, b, pm);
	SAME_STR(a, b, lockfile);
	SAME_STR(a, b, scripts);
	SAME_STR(a, b, prime_failure);
	SAME_STR(a, b, note);
	SAME_VEC(a, b, command);
	SAME_VEC(a, b, env);
	SAME_NUM(a, b, samples_nr);
	for (size_t i = 0, len = msg->len; i < a->samples_nr; i++) {
		pmbench_buf_addf(msg, "samples[%zu].", i);
		if (diff_sample(msg, &a->samples[i], &b->samples[i]))
			return 1;
		pmbench_buf_setlen(msg, len);
	}
	return 0;
}

/* 0 if equal; else 1, with the first difference described in `msg`. */
static int diff_result(struct pmbench_buf *msg, const struct pmbench_result *a,
		       const struct pmbench_result *b)
{
	SAME_NUM(a, b, schema_version);
	SAME_STR(a, b, pmbench_version);
	SAME_STR(a, b, created);
	SAME_VEC(a, b, pms);
	SAME_VEC(a, b, scenarios);
	SAME_VEC(a, b, tasks);
	SAME_NUM(a, b, runs);
	SAME_NUM(a, b, warmup);
	SAME_NUM(a, b, timeout_ns);
	SAME_NUM(a, b, seed);
	SAME_NUM(a, b, env_nr);
	for (size_t i = 0; i < a->env_nr; i++) {
		SAME_STR(&a->env[i], &b->env[i], key);
		SAME_STR(&a->env[i], &b->env[i], value);
	}
	SAME_NUM(a, b, found_nr);
	for (size_t i = 0; i < a->found_nr; i++) {
		SAME_STR(&a->found[i], &b->found[i], name);
		SAME_STR(&a->found[i], &b->found[i], path);
		SAME_STR(&a->found[i], &b->found[i], version);
		SAME_STR(&a->found[i], &b->found[i], base);
		SAME_STR(&a->found[i], &b->found[i], config);
	}
	SAME_NUM(a, b, fixtures_nr);
	for (size_t i = 0; i < a->fixtures_nr; i++) {
		SAME_STR(&a->fixtures[i], &b->fixtures[i], name);
		SAME_STR(&a->fixtures[i], &b->fixtures[i], repo);
		SAME_STR(&a->fixtures[i], &b->fixtures[i], commit);
		SAME_STR(&a->fixtures[i], &b->fixtures[i], subdir);
		SAME_STR(&a->fixtures[i], &b->fixtures[i], description);
	}
	SAME_NUM(a, b, cells_nr);
	for (size_t i = 0; i < a->cells_nr; i++) {
		pmbench_buf_addf(msg, "cells[%zu].", i);
		if (diff_cell(msg, &a->cells[i], &b->cells[i]))
			return 1;
		pmbench_buf_reset(msg);
	}
	return 0;
}

#define CHECK_SAME_RESULT(a, b)                                                \
	do {                                                                   \
		struct pmbench_buf check_m_ = PMBENCH_BUF_INIT;                \
		int check_d_ = diff_result(&check_m_, (a), (b));               \
		if (check_d_)                                                  \
			check_fail(__FILE__, __LINE__, "results differ at %s", \
				   check_m_.ptr);                              \
		pmbench_buf_release(&check_m_);                                \
		if (check_d_)                                                  \
			return;                                                \
	} while (0)

/* ---- Builders ----------------------------------------------------------- */

/*
 * A small result that exercises every kind of field, including every
 * nullable string both set and NULL, awkward characters and big numbers.
 */
static void build_small(struct pmbench_result *r)
{
	struct pmbench_cell *c;
	struct pmbench_sample *s;

	r->pmbench_version = pmbench_xstrdup("0.1.0");
	r->created = pmbench_xstrdup("2026-12-02T18:40:00Z");
	pmbench_strvec_push(&r->pms, "npm");
	pmbench_strvec_push(&r->pms, "deno");
	pmbench_strvec_push(&r->scenarios, "clean");
	pmbench_strvec_push(&r->tasks, "install");
	r->runs = 3;
	r->warmup = 1;
	r->timeout_ns = 900000000000u;
	r->seed = 4503599627370495u; /* 2^52 - 1 */
	pmbench_result_env_set(r, "os", "Linux");
	pmbench_result_env_set(r, "empty", "");
	pmbench_result_env_set(r, "quote\"key", "tab\there \xc3\xa9\x01");
	pmbench_result_add_pm(r, "npm", "/usr/bin/npm", "11.19.1");
	pmbench_result_add_pm(r, "deno", NULL, NULL);
	{
		struct pmbench_result_pm *p = pmbench_result_add_pm(
			r, "yarn-berry:pnp", "/usr/bin/yarn", "4.18.1");

		p->base = pmbench_xstrdup("yarn-berry");
		p->config = pmbench_xstrdup("yarn-berry with "
					    "YARN_NODE_LINKER=pnp");
	}
	pmbench_result_add_fixture(r, "app", "https://example.com/app.git",
				   NULL, "packages/web", NULL);

	c = pmbench_result_add_cell(r, "app", "install", "clean", "npm");
	c->lockfile = pmbench_xstrdup("package-lock.json (from priming)");
	pmbench_strvec_push(&c->command, "npm");
	pmbench_strvec_push(&c->command, "install");
	pmbench_strvec_push(&c->env, "npm_config_cache=/tmp/x y/cache");
	pmbench_strvec_push(&c->env, "NODE_OPTIONS");
	s = pmbench_cell_add_sample(c);
	s->round = 0;
	s->warmup = 1;
	s->ok = 1;
	s->wall_ns = 1234567891;
	s->started = 1796236800.125;
	s = pmbench_cell_add_sample(c);
	s->round = 1;
	s->ok = 0;
	s->wall_ns = 123456789012u;
	s->user_ns = 98765432109u;
	s->sys_ns = 1;
	s->max_rss_kib = 4294967296u;
	s->tree_rss_kib = 4503599627370495u;
	s->exit_code = -1;
	s->signal = 9;
	s->timed_out = 1;
	s->leftover = 2;
	s->nm_bytes = 4503599627370495u;
	s->nm_files = 123456789;
	s->started = 1796236801.5;
	s->failure = pmbench_xstrdup("timed out after 900 s");
	s->tail = pmbench_xstrdup("line \"one\"\nline\ttwo\\\n"
				  "\xe2\x9c\x93 done");

	c = pmbench_result_add_cell(r, "app", "install", "clean", "deno");
	c->scripts = pmbench_xstrdup("blocked");
	c->prime_failure = pmbench_xstrdup("'deno' was not found");

	c = pmbench_result_add_cell(r, "app", "install", "clean",
				    "yarn-berry:pnp");
	c->note = pmbench_xstrdup("node_modules: n/a: Plug'n'Play");
	s = pmbench_cell_add_sample(c);
	s->ok = 1;
	s->wall_ns = 2000000000u;
	s->no_node_modules = 1;
}

/* to_json, then from_json; checks the result is identical. */
static int round_trip(struct pmbench_result *out,
		      const struct pmbench_result *in)
{
	char *json = pmbench_result_to_json(in);
	int ret = pmbench_result_from_json(out, json, "memory");

	free(json);
	return ret;
}

/* ---- Tests ------------------------------------------------------------- */

TEST(round_trip)
{
	struct pmbench_result a = PMBENCH_RESULT_INIT;
	struct pmbench_result b = PMBENCH_RESULT_INIT;
	char *ja = NULL, *jb = NULL;

	build_small(&a);
	ja = pmbench_result_to_json(&a);
	CHECK_INT(pmbench_result_from_json(&b, ja, "memory"), 0);
	CHECK_SAME_RESULT(&a, &b);
	CHECK(b.found[1].path == NULL && b.found[1].version == NULL);
	CHECK(b.fixtures[0].commit == NULL);
	CHECK(b.cells[0].scripts == NULL && b.cells[1].lockfile == NULL);
	CHECK(b.cells[0].samples[0].failure == NULL);
	CHECK_INT(b.cells[1].samples_nr, 0);
	CHECK_STR(pmbench_result_env_get(&b, "quote\"key"),
		  "tab\there \xc3\xa9\x01");
	/* Written again, it is byte for byte the same. */
	jb = pmbench_result_to_json(&b);
	CHECK_STR(jb, ja);
	CHECK_CONTAINS(ja, "\"path\":\tnull");
	CHECK_CONTAINS(ja, "\"wall_s\":\t123.456789012");
	CHECK(ja[strlen(ja) - 1] == '\n');

	free(ja);
	free(jb);
	pmbench_result_release(&a);
	pmbench_result_release(&b);
	/* Released results are reusable and releasing twice is harmless. */
	CHECK(a.cells == NULL && a.cells_nr == 0 && a.pms.nr == 0);
	pmbench_result_release(&a);
	pmbench_result_release(NULL);
}

TEST(nanoseconds_exact)
{
	static const uint64_t fixed[] = {
		0,
		1,
		999999999,
		1000000000,
		1000000001,
		123456789012u,
		900000000000u,
		3599999999999u,
		86400000000001u,
		999999999999999u,
	};
	struct pmbench_result a = PMBENCH_RESULT_INIT;
	struct pmbench_result b = PMBENCH_RESULT_INIT;
	struct pmbench_cell *c;
	size_t n = 0;

	c = pmbench_result_add_cell(&a, "f", "install", "clean", "npm");
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(fixed); i++) {
		struct pmbench_sample *s = pmbench_cell_add_sample(c);

		s->round = (unsigned)i;
		s->wall_ns = fixed[i];
		s->user_ns = fixed[PMBENCH_ARRAY_SIZE(fixed) - 1 - i];
		s->nm_bytes = 4503599627370495u - fixed[i];
	}
	/* Random values: all below 10^15 ns, some below a second. */
	sample_lcg_seed(42);
	for (int i = 0; i < 2000; i++) {
		struct pmbench_sample *s = pmbench_cell_add_sample(c);
		uint64_t lim = i % 2 ? 1000000000000000u : 10000000000u;

		s->wall_ns = sample_lcg() % lim;
		s->user_ns = sample_lcg() % lim;
		s->sys_ns = sample_lcg() % 1000000000u;
		s->max_rss_kib = sample_lcg() % 4503599627370496u;
		s->nm_bytes = sample_lcg() % 4503599627370496u;
		s->nm_files = sample_lcg() % 4294967296u;
		s->started = (double)(1796236800000000u +
				      sample_lcg() % 1000000000000u) /
			     1e6;
	}
	a.timeout_ns = 123456789012u;
	a.seed = 4503599627370495u;
	CHECK_INT(round_trip(&b, &a), 0);
	CHECK_SAME_RESULT(&a, &b);
	CHECK_INT(b.cells[0].samples[5].wall_ns, 123456789012);
	CHECK_INT(b.timeout_ns, 123456789012);

	/* started is kept to the microsecond. */
	pmbench_result_release(&b);
	c->samples[0].started = 1796236800.1234567;
	CHECK_INT(round_trip(&b, &a), 0);
	CHECK_NEAR(b.cells[0].samples[0].started, 1796236800.123457, 1e-7);
	CHECK(b.cells[0].samples[0].started != 1796236800.1234567);

	/* cell_times gives the same seconds for both. */
	{
		double *ta = pmbench_cell_times(&a.cells[0], &n);
		size_t nb;
		double *tb = pmbench_cell_times(&b.cells[0], &nb);
		int same = n == nb && !memcmp(ta, tb, n * sizeof(*ta));

		free(ta);
		free(tb);
		CHECK(same);
	}
	pmbench_result_release(&a);
	pmbench_result_release(&b);
}

/* Write `text` into the sandbox and read it as a result file. */
static int read_text(struct pmbench_result *out, const char *name,
		     const char *text)
{
	return pmbench_result_read(out, check_write(name, text));
}

/* How many times `needle` occurs in `hay`. */
static size_t count_of(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

#define MINIMAL_CELL                                                         \
	"{\"fixture\": \"f\", \"task\": \"install\", \"scenario\": "         \
	"\"clean\", \"pm\": \"npm\", \"samples\": [{\"ok\": true, "          \
	"\"wall_s\": 1.5}, {\"ok\": false, \"wall_s\": 0.25, \"round\": 7, " \
	"\"failure\": \"exit code 2\", \"exit_code\": 2}]}"

TEST(read_errors)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const char *msg;

	check_sandbox();

	CHECK_INT(read_text(&r, "schema.json",
			    "{\"schema\": \"other\", \"version\": 1, "
			    "\"cells\": []}"),
		  PMBENCH_EINVALID);
	msg = pmbench_error_last();
	CHECK_CONTAINS(msg, "schema.json': field 'schema' is 'other', not "
			    "'pmbench-result'");
	CHECK(!strchr(msg, '\n'));
	CHECK(r.cells == NULL && r.pmbench_version == NULL);

	CHECK_INT(read_text(&r, "newer.json",
			    "{\"schema\": \"pmbench-result\", \"version\": 2, "
			    "\"cells\": []}"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(),
		       "newer.json': field 'version' is 2, newer than the 1");

	CHECK_INT(read_text(&r, "bad.json",
			    "{\"schema\": \"pmbench-result\",\n"
			    "  \"version\": 1,\n  \"cells\": [,]}"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(),
		       "bad.json': malformed JSON at line 3, column 13");

	CHECK_INT(read_text(&r, "trailing.json",
			    "{\"schema\": \"pmbench-result\", \"version\": 1, "
			    "\"cells\": []} x"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "trailing.json': malformed JSON");

	CHECK_INT(read_text(&r, "empty.json", ""), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "empty.json': malformed JSON");

	CHECK_INT(read_text(&r, "array.json", "[1, 2]"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "array.json': not a pmbench");

	CHECK_INT(read_text(&r, "noschema.json",
			    "{\"version\": 1, \"cells\": []}"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(),
		       "noschema.json': missing required field 'schema'");

	CHECK_INT(read_text(&r, "nover.json",
			    "{\"schema\": \"pmbench-result\", \"cells\": []}"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(),
		       "nover.json': missing required field 'version'");

	CHECK_INT(read_text(&r, "nocells.json",
			    "{\"schema\": \"pmbench-result\", "
			    "\"version\": 1}"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(),
		       "nocells.json': missing required field 'cells'");

	CHECK_INT(read_text(&r, "nopm.json",
			    "{\"schema\": \"pmbench-result\", \"version\": 1, "
			    "\"cells\": [" MINIMAL_CELL ", {\"fixture\": "
			    "\"f\", \"task\": \"install\", \"scenario\": "
			    "\"clean\"}]}"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(),
		       "nopm.json': missing required field 'cells[1].pm'");

	CHECK_INT(read_text(&r, "nowall.json",
			    "{\"schema\": \"pmbench-result\", \"version\": 1, "
			    "\"cells\": [{\"fixture\": \"f\", \"task\": "
			    "\"install\", \"scenario\": \"clean\", \"pm\": "
			    "\"npm\", \"samples\": [{\"ok\": true, \"wall_s\":"
			    " 1}, {\"ok\": true}]}]}"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(),
		       "nowall.json': missing required field "
		       "'cells[0].samples[1].wall_s'");

	CHECK_INT(read_text(&r, "type.json",
			    "{\"schema\": \"pmbench-result\", \"version\": 1, "
			    "\"options\": {\"runs\": \"five\"}, "
			    "\"cells\": []}"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(),
		       "type.json': field 'options.runs' must be a number");

	CHECK_INT(read_text(&r, "neg.json",
			    "{\"schema\": \"pmbench-result\", \"version\": 1, "
			    "\"cells\": [{\"fixture\": \"f\", \"task\": "
			    "\"install\", \"scenario\": \"clean\", \"pm\": "
			    "\"npm\", \"samples\": [{\"ok\": true, \"wall_s\":"
			    " -1}]}]}"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(),
		       "neg.json': field 'cells[0].samples[0].wall_s' must");

	CHECK_INT(read_text(&r, "env.json",
			    "{\"schema\": \"pmbench-result\", \"version\": 1, "
			    "\"environment\": {\"cpu_count\": 8}, "
			    "\"cells\": []}"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(),
		       "env.json': field 'environment.cpu_count' must be a "
		       "string");

	CHECK_INT(read_text(&r, "cellobj.json",
			    "{\"schema\": \"pmbench-result\", \"version\": 1, "
			    "\"cells\": [3]}"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(),
		       "cellobj.json': field 'cells[0]' must be an object");

	CHECK_INT(pmbench_result_read(&r, check_path("missing.json")),
		  PMBENCH_ENOTFOUND);
	CHECK_CONTAINS(pmbench_error_last(), "missing.json");

	/* Without a file, the origin given names the input. */
	CHECK_INT(pmbench_result_from_json(&r, "{", "stdin"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "'stdin': malformed JSON");
	pmbench_result_release(&r);
}

TEST(defaults)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_sample *s;

	check_sandbox();
	/* Unknown fields are ignored, missing optional ones defaulted. */
	CHECK_INT(read_text(&r, "min.json",
			    "{\"schema\": \"pmbench-result\", \"version\": 1, "
			    "\"future\": {\"x\": [1]}, \"created\": null, "
			    "\"cells\": [" MINIMAL_CELL "]}"),
		  0);
	CHECK_INT(r.schema_version, 1);
	CHECK(r.pmbench_version == NULL && r.created == NULL);
	CHECK_INT(r.pms.nr, 0);
	CHECK(r.pms.v[0] == NULL);
	CHECK_INT(r.runs, 0);
	CHECK_INT(r.timeout_ns, 0);
	CHECK_INT(r.env_nr + r.found_nr + r.fixtures_nr, 0);
	CHECK_INT(r.cells_nr, 1);
	CHECK(r.cells[0].lockfile == NULL && r.cells[0].prime_failure == NULL);
	CHECK_INT(r.cells[0].command.nr, 0);
	CHECK_INT(r.cells[0].samples_nr, 2);
	s = &r.cells[0].samples[0];
	CHECK_INT(s->round, 0);
	CHECK_INT(s->warmup, 0);
	CHECK_INT(s->ok, 1);
	CHECK_INT(s->wall_ns, 1500000000);
	CHECK_INT(s->user_ns + s->sys_ns + s->nm_bytes + s->max_rss_kib, 0);
	CHECK(s->failure == NULL && s->tail == NULL && s->started == 0);
	s = &r.cells[0].samples[1];
	CHECK_INT(s->round, 7);
	CHECK_INT(s->ok, 0);
	CHECK_INT(s->exit_code, 2);
	CHECK_STR(s->failure, "exit code 2");
	CHECK_INT(pmbench_cell_failures(&r.cells[0]), 1);
	pmbench_result_release(&r);
}

/*
 * A run in flight when pmbench was stopped is "interrupted": the flag
 * survives a read and a write, is written only when set (files without
 * it read as before), and the run is not counted as a failure.
 */
TEST(interrupted_flag)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char *json;

	check_sandbox();
	CHECK_INT(read_text(&r, "i.json",
			    "{\"schema\": \"pmbench-result\", \"version\": "
			    "1, \"cells\": [{\"fixture\": \"f\", \"task\": "
			    "\"install\", \"scenario\": \"clean\", \"pm\": "
			    "\"npm\", \"samples\": [{\"ok\": true, "
			    "\"wall_s\": 1.5}, {\"ok\": false, \"wall_s\": "
			    "0.25, \"failure\": \"interrupted by SIGINT\", "
			    "\"interrupted\": true}]}]}"),
		  0);
	CHECK_INT(pmbench_cell_failures(&r.cells[0]), 0);
	json = pmbench_result_to_json(&r);
	CHECK_INT(count_of(json, "\"interrupted\":\ttrue"), 1);
	CHECK_INT(count_of(json, "\"interrupted\""), 1);
	free(json);
	pmbench_result_release(&r);
}

#define CELL_HEAD                                                      \
	"{\"schema\": \"pmbench-result\", \"version\": 1, \"cells\": " \
	"[{\"fixture\": \"f\", \"task\": \"resolve\", \"scenario\": "  \
	"\"clean\", \"pm\": \"yarn\""

/*
 * A PM that cannot do the task: its cell's typed state survives a read
 * and a write ("state" written only for such a cell), a file from
 * before the field says it by its note alone (no samples, "n/a: ..."),
 * and a state no version wrote is refused.
 */
TEST(unsupported_state)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_cell *c;
	char *json;

	check_sandbox();
	c = pmbench_result_add_cell(&r, "f", "resolve", "clean", "yarn");
	c->note = pmbench_xstrdup("node_modules: n/a: Plug'n'Play");
	pmbench_cell_set_unsupported(c, "it has no lockfile-only install");
	CHECK_INT(c->state, PMBENCH_CELL_UNSUPPORTED);
	CHECK_STR(c->note, "it has no lockfile-only install");
	pmbench_result_add_cell(&r, "f", "resolve", "clean", "npm");
	json = pmbench_result_to_json(&r);
	CHECK_INT(count_of(json, "\"state\":\t\"unsupported\""), 1);
	CHECK_INT(count_of(json, "\"state\""), 1);
	pmbench_result_release(&r);
	CHECK_INT(pmbench_result_from_json(&r, json, "s.json"), 0);
	CHECK_INT(r.cells[0].state, PMBENCH_CELL_UNSUPPORTED);
	CHECK_INT(r.cells[1].state, PMBENCH_CELL_MEASURABLE);
	free(json);
	pmbench_result_release(&r);

	/* Written before the field: the note said it. */
	CHECK_INT(read_text(&r, "old.json",
			    CELL_HEAD ", \"note\": \"n/a: it has no "
				      "lockfile-only install\"}, "
				      "{\"fixture\": \"f\", \"task\": "
				      "\"install\", \"scenario\": \"clean\", "
				      "\"pm\": \"yarn-berry:pnp\", \"note\": "
				      "\"node_modules: n/a: Plug'n'Play\"}]}"),
		  0);
	CHECK_INT(r.cells[0].state, PMBENCH_CELL_UNSUPPORTED);
	CHECK_INT(r.cells[1].state, PMBENCH_CELL_MEASURABLE);
	pmbench_result_release(&r);

	CHECK_INT(read_text(&r, "bad.json",
			    CELL_HEAD ", \"state\": \"later\"}]}"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(),
		       "field 'cells[0].state' must be one of 'measurable', "
		       "'unsupported'");
	pmbench_result_release(&r);
}

/*
 * A variant's record says what it configures; a PM that makes no
 * node_modules (Plug'n'Play) leaves the sizes out of its samples rather
 * than writing a 0, and its cell says why.
 */
TEST(variants_and_no_node_modules)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char *json;

	build_small(&r);
	json = pmbench_result_to_json(&r);
	CHECK_INT(count_of(json, "\"config\":\t\"yarn-berry with "
				 "YARN_NODE_LINKER=pnp\""),
		  1);
	CHECK_INT(count_of(json, "\"base\":\t\"yarn-berry\""), 1);
	CHECK_INT(count_of(json, "\"no_node_modules\":\ttrue"), 1);
	/* Two samples of npm have sizes; the Plug'n'Play one has none. */
	CHECK_INT(count_of(json, "\"node_modules_bytes\""), 2);
	CHECK_INT(count_of(json, "\"note\":\t\"node_modules: n/a: "
				 "Plug'n'Play\""),
		  1);
	free(json);
	pmbench_result_release(&r);
}

TEST(write_atomic)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf got = PMBENCH_BUF_INIT;
	const char *dir = check_sandbox();
	char *json = NULL;
	struct dirent *de;
	DIR *d;
	int entries = 0;

	build_small(&r);
	json = pmbench_result_to_json(&r);
	/* Replaces whatever was there. */
	check_write("out.json", "old contents that are longer than nothing");
	CHECK_INT(pmbench_result_write(&r, check_path("out.json")), 0);
	CHECK_INT(pmbench_fs_read(&got, check_path("out.json"), 1 << 20), 0);
	CHECK_STR(got.ptr, json);
	CHECK_INT(got.len, strlen(json));

	d = opendir(dir);
	CHECK(d);
	for (;;) {
		de = readdir(d);
		if (!de)
			break;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		entries++;
		if (strcmp(de->d_name, "out.json"))
			check_fail(__FILE__, __LINE__, "left behind: '%s'",
				   de->d_name);
	}
	closedir(d);
	CHECK_INT(entries, 1);

	/* A directory that does not exist is an error, not a crash. */
	CHECK(pmbench_result_write(&r, check_path("no/such/dir/x.json")) < 0);
	CHECK_CONTAINS(pmbench_error_last(), "x.json");

	free(json);
	pmbench_buf_release(&got);
	pmbench_result_release(&r);
}

TEST(cell_times)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_cell *c, *empty;
	double *t;
	size_t n = 99;
	static const struct {
		int warmup, ok;
		uint64_t wall_ns;
	} in[] = {
		{ 1, 1, 9000000000u }, { 0, 1, 1500000000u },
		{ 0, 0, 7000000000u }, { 1, 0, 8000000000u },
		{ 0, 1, 2250000000u }, { 0, 1, 1 },
	};

	c = pmbench_result_add_cell(&r, "f", "install", "clean", "npm");
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(in); i++) {
		struct pmbench_sample *s = pmbench_cell_add_sample(c);

		CHECK(s->failure == NULL && s->wall_ns == 0 && !s->ok);
		s->round = (unsigned)i;
		s->warmup = in[i].warmup;
		s->ok = in[i].ok;
		s->wall_ns = in[i].wall_ns;
	}
	t = pmbench_cell_times(c, &n);
	CHECK(t);
	CHECK_INT(n, 3);
	CHECK(t[0] == 1.5 && t[1] == 2.25 && t[2] == 1e-9);
	free(t);
	CHECK_INT(pmbench_cell_failures(c), 1);

	empty = pmbench_result_add_cell(&r, "f", "install", "clean", "pnpm");
	t = pmbench_cell_times(empty, &n);
	CHECK(t);
	CHECK_INT(n, 0);
	free(t);
	CHECK_INT(pmbench_cell_failures(empty), 0);

	CHECK(pmbench_result_find_cell(&r, "f", "install", "clean", "pnpm") ==
	      &r.cells[1]);
	CHECK(pmbench_result_find_cell(&r, "f", "install", "clean", "npm") ==
	      &r.cells[0]);
	CHECK(!pmbench_result_find_cell(&r, "f", "install", "cache", "npm"));
	CHECK(!pmbench_result_find_cell(&r, "g", "install", "clean", "npm"));
	pmbench_result_release(&r);
}

TEST(metrics)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT, b = PMBENCH_RESULT_INIT;
	struct pmbench_strvec names = PMBENCH_STRVEC_INIT;
	struct pmbench_cell *c;
	struct pmbench_sample *s;
	char *json = NULL, *again = NULL;
	double v = -1, *vals;
	size_t n = 0;
	int ret;

	c = pmbench_result_add_cell(&r, "f", "dev", "cache+lockfile", "bun");
	s = pmbench_cell_add_sample(c);
	s->ok = 1;
	pmbench_sample_metric_set(s, "ready_line_s", 0.25);
	pmbench_sample_metric_set(s, "http_s", 0.5);
	pmbench_sample_metric_set(s, "ready_line_s", 0.125);
	CHECK_INT(s->metrics_nr, 2);
	CHECK(pmbench_sample_metric_get(s, "ready_line_s", &v) && v == 0.125);
	CHECK(!pmbench_sample_metric_get(s, "body_s", &v) && v == 0.125);
	s = pmbench_cell_add_sample(c);
	s->warmup = 1;
	s->ok = 1;
	pmbench_sample_metric_set(s, "http_s", 9);
	s = pmbench_cell_add_sample(c);
	s->ok = 1;
	pmbench_sample_metric_set(s, "probe_bytes", 123456789.0);
	pmbench_sample_metric_set(s, "http_s", 0.75);
	s = pmbench_cell_add_sample(c);
	pmbench_sample_metric_set(s, "http_s", 5);

	/* Only successful timed runs count, in sample order. */
	vals = pmbench_cell_metric_values(c, "http_s", &n);
	CHECK_INT(n, 2);
	CHECK(vals[0] == 0.5 && vals[1] == 0.75);
	free(vals);
	pmbench_cell_metric_names(c, &names);
	CHECK_INT(names.nr, 3);
	CHECK_STR(names.v[0], "ready_line_s");
	CHECK_STR(names.v[2], "probe_bytes");

	json = pmbench_result_to_json(&r);
	CHECK(strstr(json, "\"metrics\""));
	ret = pmbench_result_from_json(&b, json, "m.json");
	CHECK_INT(ret, 0);
	CHECK_INT(b.cells[0].samples[2].metrics_nr, 2);
	CHECK(pmbench_sample_metric_get(&b.cells[0].samples[2], "probe_bytes",
					&v) &&
	      v == 123456789.0);
	again = pmbench_result_to_json(&b);
	CHECK_STR(again, json);
	pmbench_result_release(&b);

	/* A metric that is not a number is named in the error. */
	ret = pmbench_result_from_json(
		&b,
		"{\"schema\":\"pmbench-result\",\"version\":1,\"cells\":[{"
		"\"fixture\":\"f\",\"task\":\"dev\",\"scenario\":\"clean\","
		"\"pm\":\"npm\",\"samples\":[{\"ok\":true,\"wall_s\":1,"
		"\"metrics\":{\"http_s\":\"fast\"}}]}]}",
		"bad.json");
	CHECK(ret < 0);
	CHECK(strstr(pmbench_error_last(), "cells[0].samples[0].metrics"));
	CHECK(strstr(pmbench_error_last(), "http_s"));
	free(json);
	free(again);
	pmbench_strvec_release(&names);
	pmbench_result_release(&r);
	pmbench_result_release(&b);
}

TEST(env_order)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char *json;

	pmbench_result_env_set(&r, "zeta", "1");
	pmbench_result_env_set(&r, "alpha", "2");
	pmbench_result_env_set(&r, "zeta", "3");
	CHECK_INT(r.env_nr, 2);
	CHECK_STR(r.env[0].key, "zeta");
	CHECK_STR(pmbench_result_env_get(&r, "zeta"), "3");
	CHECK_STR(pmbench_result_env_get(&r, "alpha"), "2");
	CHECK(!pmbench_result_env_get(&r, "beta"));
	json = pmbench_result_to_json(&r);
	CHECK(strstr(json, "\"zeta\"") < strstr(json, "\"alpha\""));
	CHECK_CONTAINS(json, "\"cells\":\t[]");
	free(json);
	pmbench_result_release(&r);
}

TEST(sysinfo)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf want = PMBENCH_BUF_INIT;
	struct utsname u;
	const char *v;

	pmbench_result_collect_sysinfo(&r);
	CHECK(uname(&u) == 0);
	CHECK_STR(pmbench_result_env_get(&r, "kernel"), u.release);
	CHECK_STR(pmbench_result_env_get(&r, "os"), u.sysname);
	CHECK_STR(pmbench_result_env_get(&r, "arch"), u.machine);
	pmbench_buf_addf(&want, "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	CHECK_STR(pmbench_result_env_get(&r, "cpu_count"), want.ptr);
	pmbench_buf_release(&want);
	CHECK(!pmbench_result_env_get(&r, "hostname"));
	if (pmbench_fs_exists("/proc/meminfo")) {
		v = pmbench_result_env_get(&r, "mem_total_kib");
		CHECK(v && *v && strspn(v, "0123456789") == strlen(v));
	}
	if (pmbench_fs_exists("/proc/loadavg")) {
		double a, b, c;

		v = pmbench_result_env_get(&r, "loadavg");
		CHECK(v);
		CHECK_INT(sscanf(v, "%lf %lf %lf", &a, &b, &c), 3);
		CHECK(!strchr(v, '/'));
	}
	v = pmbench_result_env_get(&r, "os_release");
	if (pmbench_fs_exists("/etc/os-release"))
		CHECK(v && *v && v[0] != '"' && v[strlen(v) - 1] != '"');
	for (size_t i = 0; i < r.env_nr; i++)
		CHECK(!strchr(r.env[i].value, '\n'));
	/* Collecting twice replaces rather than duplicates. */
	{
		size_t n = r.env_nr;

		pmbench_result_collect_sysinfo(&r);
		CHECK_INT(r.env_nr, n);
	}
	pmbench_result_release(&r);
}

TEST(stamp)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	int y, mo, d, h, mi, s;
	char z = 0;

	pmbench_result_stamp(&r);
	pmbench_result_stamp(&r);
	CHECK(r.created);
	CHECK_INT(strlen(r.created), 20);
	CHECK_INT(sscanf(r.created, "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d,
			 &h, &mi, &s, &z),
		  7);
	CHECK(z == 'Z');
	CHECK(y >= 2024 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31);
	CHECK(h < 24 && mi < 60 && s <= 60);
	pmbench_result_release(&r);
}

TEST(sample_file)
{
	struct pmbench_result built = PMBENCH_RESULT_INIT;
	struct pmbench_result read = PMBENCH_RESULT_INIT;
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	const char *root = getenv("PMBENCH_SOURCE_DIR");
	char *json = NULL;
	const struct pmbench_cell *c;

	pmbench_buf_path(&path, root ? root : ".", SAMPLE_PATH);
	sample_result_build(&built);

	CHECK_INT(pmbench_fs_read(&text, path.ptr, 1 << 24), 0);
	CHECK_INT(pmbench_result_read(&read, path.ptr), 0);
	/* Re-serialised, it is byte for byte the committed file... */
	json = pmbench_result_to_json(&read);
	CHECK_STR(json, text.ptr);
	free(json);
	/* ...and it is what this code makes of the synthetic result. */
	CHECK_SAME_RESULT(&built, &read);
	json = pmbench_result_to_json(&built);
	CHECK_STR(json, text.ptr);

	/* The shape the brief asks for. */
	CHECK_INT(read.fixtures_nr, 1);
	CHECK_INT(read.found_nr, 3);
	CHECK_INT(read.cells_nr, 6);
	c = pmbench_result_find_cell(&read, "vite-react", "install", "clean",
				     "pnpm");
	CHECK(c);
	CHECK_INT(c->samples_nr, 6);
	CHECK_INT(pmbench_cell_failures(c), 1);
	CHECK(c->samples[3].failure && c->samples[3].tail);
	c = pmbench_result_find_cell(&read, "vite-react", "install",
				     "cache+lockfile", "bun");
	CHECK(c && c->prime_failure && c->samples_nr == 0);

	free(json);
	pmbench_buf_release(&path);
	pmbench_buf_release(&text);
	pmbench_result_release(&built);
	pmbench_result_release(&read);
}

CHECK_MAIN(CASE(round_trip), CASE(nanoseconds_exact), CASE(read_errors),
	   CASE(defaults), CASE(interrupted_flag),
	   CASE(variants_and_no_node_modules), CASE(write_atomic),
	   CASE(cell_times), CASE(metrics), CASE(env_order), CASE(sysinfo),
	   CASE(stamp), CASE(sample_file), CASE(unsupported_state))
