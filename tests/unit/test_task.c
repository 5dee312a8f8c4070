#include "pmbench/common.h"

#include "check.h"
#include "fields.h"
#include "pmbench/buf.h"
#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/result.h"
#include "pmbench/task.h"

/*
 * The task table (names, lookups, what each entry promises) and the test
 * runners' counts read from real output (tests/data/test-runners/, see
 * its README) and from lines that only look like a summary.
 */

/* Call fn(&ok, ...), which says whether its own checks passed. */
#define CHECK_CALL(fn, ...)                                           \
	do {                                                          \
		int ok_ = 0;                                          \
		fn(&ok_, __VA_ARGS__);                                \
		if (!ok_) {                                           \
			check_fail(__FILE__, __LINE__, "%s(%s)", #fn, \
				   #__VA_ARGS__);                     \
			return;                                       \
		}                                                     \
	} while (0)

/* Feed `text` line by line, splitting at \n and \r as pmbench does. */
static void feed(struct pmbench_task_tests *t, const char *text)
{
	while (*text) {
		size_t n = strcspn(text, "\r\n");

		if (n)
			pmbench_task_tests_line(t, text, n);
		text += n;
		if (*text)
			text++;
	}
}

/*
 * The counts read from tests/data/test-runners/`name`, into `s`'s
 * metrics.
 */
static void read_counts(int *out, struct pmbench_sample *s, const char *name)
{
	struct pmbench_task_tests t = PMBENCH_TASK_TESTS_INIT;
	struct pmbench_buf path = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	const char *root = getenv("PMBENCH_SOURCE_DIR");

	*out = 0;
	CHECK(root);
	pmbench_buf_addf(&path, "%s/tests/data/test-runners/%s", root, name);
	CHECK_INT(pmbench_fs_read_text(&text, path.ptr, 1 << 20), 0);
	feed(&t, text.ptr);
	pmbench_task_tests_record(&t, s);
	pmbench_buf_release(&path);
	pmbench_buf_release(&text);
	*out = 1;
}

/* The metric `name` of `s`, or -1 when it is not there. */
static void expect_counts(int *out, const char *file, double tests,
			  double passed, double failed)
{
	struct pmbench_sample s;
	int ok = 0;

	*out = 0;
	memset(&s, 0, sizeof(s));
	read_counts(&ok, &s, file);
	if (ok) {
		fprintf(stderr, "%s: %g %g %g\n", file,
			h_metric(&s, "tests_count"),
			h_metric(&s, "tests_passed_count"),
			h_metric(&s, "tests_failed_count"));
		*out = h_metric(&s, "tests_count") == tests &&
		       h_metric(&s, "tests_passed_count") == passed &&
		       h_metric(&s, "tests_failed_count") == failed;
	}
	pmbench_sample_release(&s);
}

TEST(node_test_runner)
{
	CHECK_CALL(expect_counts, "node-tap-pass.txt", 2, 2, 0);
	CHECK_CALL(expect_counts, "node-tap-fail.txt", 3, 2, 1);
	CHECK_CALL(expect_counts, "node-spec-fail.txt", 3, 2, 1);
}

TEST(vitest)
{
	CHECK_CALL(expect_counts, "vitest-pass.txt", 2, 2, 0);
	CHECK_CALL(expect_counts, "vitest-fail.txt", 3, 2, 1);
	/* 3 passed | 1 skipped | 1 todo (5): none failed. */
	CHECK_CALL(expect_counts, "vitest-skip.txt", 5, 3, 0);
}

TEST(jest)
{
	CHECK_CALL(expect_counts, "jest-pass.txt", 2, 2, 0);
	CHECK_CALL(expect_counts, "jest-fail.txt", 6, 3, 1);
	CHECK_CALL(expect_counts, "jest-skip.txt", 5, 3, 0);
}

/* `text` fed alone: the three counts, -1 for each one not recorded. */
static void counts_of(double out[3], const char *text)
{
	struct pmbench_task_tests t = PMBENCH_TASK_TESTS_INIT;
	struct pmbench_sample s;

	memset(&s, 0, sizeof(s));
	feed(&t, text);
	pmbench_task_tests_record(&t, &s);
	out[0] = h_metric(&s, "tests_count");
	out[1] = h_metric(&s, "tests_passed_count");
	out[2] = h_metric(&s, "tests_failed_count");
	pmbench_sample_release(&s);
}

#define CHECK_COUNTS(text, a, b, c)                                        \
	do {                                                               \
		double got_[3];                                            \
		counts_of(got_, text);                                     \
		CHECK(got_[0] == (a) && got_[1] == (b) && got_[2] == (c)); \
	} while (0)

TEST(only_what_was_printed)
{
	/* No summary at all: no metric. */
	CHECK_COUNTS("ok 1 - adds\nall good\n", -1, -1, -1);
	/* Vitest: 2 passed out of 3 leaves one unaccounted for. */
	CHECK_COUNTS("      Tests  2 passed (3)\n", 3, 2, -1);
	CHECK_COUNTS("      Tests  1 failed (1)\n", 1, 0, 1);
	/* Node's TAP summary without its pass and fail lines. */
	CHECK_COUNTS("# tests 4\n", 4, -1, -1);
	/* Jest without a total is no summary. */
	CHECK_COUNTS("Tests:       1 failed, 2 passed\n", -1, -1, -1);
	/* Look-alikes: other words, nested or indented node lines, junk. */
	CHECK_COUNTS("Test Files  1 failed | 1 passed (2)\n"
		     "Test Suites: 1 failed, 1 passed, 2 total\n"
		     "    # tests 9\n"
		     "# Subtest: tests 5\n"
		     "# tests 5 of them\n"
		     "Tests passed (3)\n"
		     "Tests:  many passed, 3 total\n"
		     "      Tests  2 passed (x)\n",
		     -1, -1, -1);
	/* Two runners in one script: their summaries add up. */
	CHECK_COUNTS("# tests 3\n# pass 3\n# fail 0\n"
		     "      Tests  1 failed | 4 passed (5)\n",
		     8, 7, 1);
	/* ... unless one of them did not give a count. */
	CHECK_COUNTS("# tests 3\n"
		     "      Tests  1 failed | 4 passed (5)\n",
		     8, -1, -1);
	/* Trailing blanks and a carriage return are no matter. */
	CHECK_COUNTS("\xe2\x84\xb9 tests 2 \r\n\xe2\x84\xb9 pass 2\r\n"
		     "\xe2\x84\xb9 fail 0\r\n",
		     2, 2, 0);
}

TEST(table)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const struct pmbench_task *t;

	/* Every entry: a unique name, a summary and every operation. */
	for (size_t i = 0; i < pmbench_tasks_nr; i++) {
		t = &pmbench_tasks[i];
		CHECK(pmbench_task_get(t->name) == t);
		CHECK(t->summary && t->metrics && t->describe && t->prepare &&
		      t->run);
		/*
		 * A task timed per scenario (install, resolve) runs no
		 * script; update runs none either, on the primed tree.
		 */
		CHECK(!t->script || !(t->flags & PMBENCH_TASK_PER_SCENARIO));
		for (const struct pmbench_task_metric *m = t->metrics; m->name;
		     m++) {
			const char *suffix[] = { "_s", "_bytes", "_count",
						 "_ratio" };
			size_t n = strlen(m->name), k = strlen(suffix[m->unit]);

			/* The unit is the name's suffix (but one old name). */
			CHECK(!strcmp(m->name, "output_files") ||
			      (n > k &&
			       !strcmp(m->name + n - k, suffix[m->unit])));
		}
	}
	CHECK(pmbench_task_default() == pmbench_task_get("install"));
	CHECK(pmbench_task_get("resolve")->flags & PMBENCH_TASK_PER_SCENARIO);
	CHECK(pmbench_task_get("resolve")->unsupported);
	CHECK(!(pmbench_task_get("update")->flags & PMBENCH_TASK_PER_SCENARIO));
	CHECK(!pmbench_task_get("deploy"));
	CHECK(!pmbench_task_get(NULL));
	CHECK(pmbench_task_of_cell("run:lint") == pmbench_task_get("run"));
	CHECK(pmbench_task_of_cell("test") == pmbench_task_get("test"));
	CHECK(!pmbench_task_of_cell("build:x"));
	CHECK(!pmbench_task_of_cell("run:"));
	CHECK(!pmbench_task_of_cell("ci-cache"));

	pmbench_task_list(&b, 0);
	CHECK_STR(b.ptr,
		  "install, run, build, test, lint, dev, hmr, resolve or "
		  "update");
	pmbench_buf_reset(&b);
	pmbench_task_list(&b, PMBENCH_TASK_MIGRATE_PARITY);
	CHECK_STR(b.ptr, "build, test or lint");
	pmbench_buf_reset(&b);
	pmbench_task_list(&b, PMBENCH_TASK_MIGRATE_TIMED);
	CHECK_STR(b.ptr, "install or dev");
	pmbench_buf_reset(&b);
	pmbench_task_list(&b, PMBENCH_TASK_DEFAULT);
	CHECK_STR(b.ptr, "install");
	pmbench_buf_release(&b);
	pmbench_task_names(&v, PMBENCH_TASK_MIGRATE_DEFAULT);
	CHECK_INT(v.nr, 2);
	CHECK_STR(v.v[0], "build");
	CHECK_STR(v.v[1], "test");
	pmbench_strvec_release(&v);
}

/* A section's fields are unique, and two tasks share a key only as one. */
static void check_sections(const struct pmbench_task *t)
{
	for (const struct pmbench_manifest_section *const *s = t->sections;
	     s && *s; s++) {
		for (size_t k = 0; (*s)->fields[k].name; k++)
			for (size_t j = 0; j < k; j++)
				CHECK(strcmp((*s)->fields[j].name,
					     (*s)->fields[k].name));
		for (size_t i = 0; i < pmbench_tasks_nr; i++)
			for (const struct pmbench_manifest_section *const *o =
				     pmbench_tasks[i].sections;
			     o && *o; o++)
				CHECK(*o == *s || strcmp((*o)->key, (*s)->key));
	}
}

/* Each column of a task's own tables shows one of its metrics. */
static void check_tables(const struct pmbench_task *t)
{
	for (const struct pmbench_task_table *tb = t->tables; tb && tb->id;
	     tb++) {
		CHECK(!tb->only_with || pmbench_task_metric(t, tb->only_with));
		for (const struct pmbench_task_column *c = tb->columns;
		     c->header; c++)
			CHECK(c->show == PMBENCH_TASK_SHOW_RUNS ? !c->metric
			      : c->show == PMBENCH_TASK_SHOW_FAMILY
				      ? c->metric != NULL
				      : pmbench_task_metric(t, c->metric) !=
						NULL);
	}
}

/*
 * What a task owns: its manifest sections, its report tables, its
 * output folder (PMBENCH_TASK_OUTPUT), one default task.
 */
TEST(owned)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	size_t defaults = 0;

	for (size_t i = 0; i < pmbench_tasks_nr; i++) {
		const struct pmbench_task *t = &pmbench_tasks[i];

		check_sections(t);
		check_tables(t);
		CHECK(!(t->flags & PMBENCH_TASK_OUTPUT) == !t->output);
		defaults += !!(t->flags & PMBENCH_TASK_DEFAULT);
	}
	CHECK_INT(defaults, 1);
	CHECK(pmbench_task_get("dev")->tables);
	CHECK(!pmbench_task_get("hmr")->tables);
	CHECK_STR(pmbench_task_get("dev")->knobs[0].name, "probe");
	CHECK_STR(pmbench_task_get("hmr")->knobs[0].name, "edits");

	/* build's output: the manifest's, else a usual folder if asked. */
	check_sandbox();
	CHECK_INT(pmbench_fs_mkdirp(check_path("p/build"), 0755), 0);
	CHECK_INT(pmbench_fixture_parse(&f,
					"{ \"name\": \"x\", \"repo\": "
					"\"x\" }",
					"m.json"),
		  0);
	pmbench_task_get("build")->output(&b, check_path("p"), &f, 0);
	CHECK_INT(b.len, 0);
	pmbench_task_get("build")->output(&b, check_path("p"), &f, 1);
	CHECK_STR(b.ptr, check_path("p/build"));
	pmbench_fixture_release(&f);
	pmbench_buf_reset(&b);
	CHECK_INT(pmbench_fixture_parse(&f,
					"{ \"name\": \"x\", \"repo\": \"x\", "
					"\"build\": { \"output\": \"./o/\" } }",
					"m.json"),
		  0);
	pmbench_task_get("build")->output(&b, check_path("p"), &f, 1);
	CHECK_STR(b.ptr, check_path("p/o"));
	pmbench_fixture_release(&f);
	pmbench_buf_release(&b);
}

TEST(scripts_and_formats)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const struct pmbench_task *t = pmbench_task_get("test");

	CHECK_INT(pmbench_fixture_parse(&f,
					"{ \"name\": \"x\", \"repo\": \"x\", "
					"\"test\": { \"script\": \"spec\" } }",
					"m.json"),
		  0);
	CHECK_STR(t->script(&f, "test"), "spec");
	CHECK_STR(pmbench_task_get("build")->script(&f, "build"), "build");
	CHECK_STR(pmbench_task_get("lint")->script(&f, "lint"), "lint");
	CHECK_STR(pmbench_task_get("dev")->script(&f, "dev"), "dev");
	CHECK_STR(pmbench_task_get("run")->script(&f, "run"),
		  PMBENCH_TASK_NOOP_SCRIPT);
	CHECK_STR(pmbench_task_get("run")->script(&f, "run:e2e"), "e2e");
	pmbench_fixture_release(&f);

	pmbench_task_metric_format(&b, &t->metrics[0], 12);
	CHECK_STR(b.ptr, "12");
	pmbench_buf_reset(&b);
	pmbench_task_metric_format(&b, &pmbench_task_get("build")->metrics[1],
				   2);
	CHECK_STR(b.ptr, "2 files");
	pmbench_buf_reset(&b);
	pmbench_task_metric_format(&b, &pmbench_task_get("dev")->metrics[0],
				   0.4123);
	CHECK_STR(b.ptr, "412.3 ms");
	pmbench_buf_release(&b);
}

CHECK_MAIN(CASE(node_test_runner), CASE(vitest), CASE(jest),
	   CASE(only_what_was_printed), CASE(table), CASE(scripts_and_formats),
	   CASE(owned))
