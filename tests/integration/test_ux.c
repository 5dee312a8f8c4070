/*
 * Using pmbench as one uses hyperfine: options before and after operands
 * for every command, "--" ending the options, a terminal table that fits
 * 80 or 120 columns, and warnings only when they matter.
 */
#include "pmbench/common.h"

#include "check.h"
#include "harness.h"

#define RUN(run, ...)                                        \
	do {                                                 \
		const char *args_[] = { __VA_ARGS__, NULL }; \
		h_pmbench((run), args_, NULL);               \
	} while (0)

/* The sample result of the source tree (three PMs, two scenarios). */
static const char *sample(void)
{
	static char path[4200];

	snprintf(path, sizeof(path), "%s/tests/data/sample-result.json",
		 getenv("PMBENCH_SOURCE_DIR"));
	return path;
}

/* The longest line of `s`, in display columns. */
static size_t longest(const char *s)
{
	size_t max = 0;

	while (*s) {
		size_t n = strcspn(s, "\n"), cols = 0;

		for (size_t i = 0; i < n; i++)
			cols += ((unsigned char)s[i] & 0xc0) != 0x80;
		if (cols > max)
			max = cols;
		s += n;
		if (*s)
			s++;
	}
	return max;
}

/* Every command reads --help after its operands. */
TEST(help_after_operands)
{
	static const char *const cmds[][3] = {
		{ "bench", "todo-api", "usage: pmbench bench" },
		{ "ci-cache", "todo-api", "usage: pmbench ci-cache" },
		{ "migrate", ".", "usage: pmbench migrate" },
		{ "report", "r.json", "usage: pmbench report" },
		{ "compare", "a.json", "usage: pmbench compare" },
		{ "claim", "bun is 2x faster than npm",
		  "usage: pmbench claim" },
		{ "pms", "--help", "usage: pmbench pms" },
		{ "fixtures", "--help", "usage: pmbench fixtures" },
	};
	struct h_run run;

	h_setup();
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(cmds); i++) {
		RUN(&run, cmds[i][0], cmds[i][1], "--help");
		CHECK_INT(run.exit_code, 0);
		CHECK_CONTAINS(run.out.ptr, cmds[i][2]);
		h_run_release(&run);
	}
}

/* The example: `bench ./myrepo --pm npm,bun`. */
TEST(bench_options_after_the_fixture)
{
	struct h_run run;
	const char *proj;
	cJSON *res, *pms;
	char out[4200];

	h_setup();
	proj = h_project("myrepo");
	snprintf(out, sizeof(out), "%s/r.json", h_cache());
	RUN(&run, "bench", proj, "--pm", "npm,bun", "--scenario", "clean",
	    "--runs", "2", "--warmup", "0", "--out", out);
	CHECK_INT(run.exit_code, 0);
	CHECK(!strstr(run.out.ptr, "no fixture"));
	h_run_release(&run);
	res = h_read_json(out);
	CHECK(res != NULL);
	pms = cJSON_GetObjectItem(cJSON_GetObjectItem(res, "options"), "pms");
	if (!pms)
		pms = cJSON_GetObjectItem(res, "pms");
	CHECK_INT(cJSON_GetArraySize(pms), 2);
	cJSON_Delete(res);
}

/* Operands then options for the commands that read results. */
TEST(report_compare_claim_options_after_operands)
{
	struct h_run run;

	h_setup();
	RUN(&run, "report", sample(), "--format", "csv");
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "fixture,task,scenario,pm,round");
	h_run_release(&run);
	RUN(&run, "compare", sample(), sample(), "--format", "markdown");
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "|");
	h_run_release(&run);
	/*
	 * The sample's bun is 4.68x faster (5 and 5 runs): more than
	 * claimed, exit 5 (the man page's exit status), said in markdown.
	 */
	RUN(&run, "claim", "bun install is 2x faster than npm install",
	    "--from", sample(), "--format", "markdown");
	CHECK_INT(run.exit_code, 5);
	CHECK_CONTAINS(run.out.ptr, "## verdict: exceeded in 1 of 1 "
				    "scenario(s)");
	CHECK(!strstr(run.out.ptr, "unknown or incomplete option"));
	h_run_release(&run);
	/* migrate and ci-cache: an unknown option after the operand. */
	RUN(&run, "migrate", ".", "--bogus");
	CHECK_INT(run.exit_code, 129);
	CHECK_CONTAINS(run.out.ptr, "'--bogus'");
	h_run_release(&run);
	RUN(&run, "ci-cache", "todo-api", "--bogus");
	CHECK_INT(run.exit_code, 129);
	CHECK_CONTAINS(run.out.ptr, "'--bogus'");
	h_run_release(&run);
}

/* After "--" everything is an operand, even "--help". */
TEST(double_dash_ends_options)
{
	struct h_run run;

	h_setup();
	RUN(&run, "report", "--format", "csv", "--", sample());
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "fixture,task,scenario,pm,round");
	h_run_release(&run);
	RUN(&run, "report", "--", "--help");
	CHECK_INT(run.exit_code, 1);
	CHECK(!strstr(run.out.ptr, "usage:"));
	CHECK_CONTAINS(run.out.ptr, "--help");
	h_run_release(&run);
	RUN(&run, "bench", "--", "--pm");
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "no fixture '--pm'");
	h_run_release(&run);
	RUN(&run, "pms", "--", "--help");
	CHECK_INT(run.exit_code, 129);
	CHECK_CONTAINS(run.out.ptr, "unexpected argument '--help'");
	h_run_release(&run);
}

static void report_at(int *out, struct h_run *run, const char *columns,
		      const char *const *extra)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	const char *args[8] = { "report", sample() };
	size_t n = 2;

	*out = 0;
	for (size_t i = 0; extra && extra[i] && n < 7; i++)
		args[n++] = extra[i];
	args[n] = NULL;
	pmbench_strvec_pushf(&env, "COLUMNS=%s", columns);
	h_pmbench(run, args, &env);
	pmbench_strvec_release(&env);
	CHECK_INT(run->exit_code, 0);
	*out = 1;
}

TEST(table_fits_80_and_120_columns)
{
	static const char *const wide[] = { "--wide", NULL };
	struct h_run run;

	h_setup();
	H_CHECK_CALL(report_at, &run, "80", NULL);
	CHECK(longest(run.out.ptr) <= 80);
	/* The columns a reader needs first. */
	CHECK_CONTAINS(run.out.ptr, "pm    median    95% CI");
	CHECK_CONTAINS(run.out.ptr, "vs fastest (95% CI)");
	CHECK_CONTAINS(run.out.ptr, "4 (+1 failed)");
	CHECK(!strstr(run.out.ptr, "mean ± σ"));
	h_run_release(&run);
	H_CHECK_CALL(report_at, &run, "120", NULL);
	CHECK(longest(run.out.ptr) <= 120);
	CHECK(longest(run.out.ptr) > 60);
	h_run_release(&run);
	/* compare's table has no optional column: its verdict moves down. */
	{
		struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
		const char *args[] = { "compare", sample(), sample(), NULL };

		pmbench_strvec_push(&env, "COLUMNS=80");
		h_pmbench(&run, args, &env);
		pmbench_strvec_release(&env);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK(longest(run.out.ptr) <= 80);
	CHECK_CONTAINS(run.out.ptr, "\n      no significant difference\n");
	h_run_release(&run);
	/* --wide shows all, as wide as they are. */
	H_CHECK_CALL(report_at, &run, "80", wide);
	CHECK_CONTAINS(run.out.ptr, "mean ± σ");
	CHECK_CONTAINS(run.out.ptr, "node_modules");
	CHECK(longest(run.out.ptr) > 120);
	h_run_release(&run);
}

TEST(columns_picks_others)
{
	static const char *const pick[] = { "--columns", "user,system,max_rss",
					    NULL };
	static const char *const bad[] = { "--columns", "median,colour", NULL };
	struct h_run run;

	h_setup();
	H_CHECK_CALL(report_at, &run, "100", pick);
	CHECK_CONTAINS(run.out.ptr, "pm    user");
	CHECK_CONTAINS(run.out.ptr, "max RSS");
	CHECK(!strstr(run.out.ptr, "95% CI  "));
	h_run_release(&run);
	{
		const char *args[] = { "report", sample(), bad[0], bad[1],
				       NULL };

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 129);
	CHECK_CONTAINS(run.out.ptr, "unknown column 'colour'");
	h_run_release(&run);
	/* Files keep everything. */
	RUN(&run, "report", sample(), "--format", "markdown");
	CHECK_CONTAINS(run.out.ptr, "mean ± σ");
	CHECK_CONTAINS(run.out.ptr, "tree RSS");
	h_run_release(&run);
}

CHECK_MAIN(CASE(help_after_operands), CASE(bench_options_after_the_fixture),
	   CASE(report_compare_claim_options_after_operands),
	   CASE(double_dash_ends_options), CASE(table_fits_80_and_120_columns),
	   CASE(columns_picks_others))
