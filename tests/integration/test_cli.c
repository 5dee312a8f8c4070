/*
 * The command line: help, exit codes, one-line errors that name the thing
 * and the fix, and the fixtures and pms listings.
 */
#include "pmbench/common.h"

#include <unistd.h>

#include "check.h"
#include "harness.h"
#include "pmbench/fs.h"

#define RUN(run, ...)                                        \
	do {                                                 \
		const char *args_[] = { __VA_ARGS__, NULL }; \
		h_pmbench((run), args_, NULL);               \
	} while (0)

/* The last non-empty line of the output. */
static const char *last_line(const struct h_run *run)
{
	static char line[2048];
	const char *end = run->out.ptr + run->out.len, *start;

	while (end > run->out.ptr && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	start = end;
	while (start > run->out.ptr && start[-1] != '\n')
		start--;
	snprintf(line, sizeof(line), "%.*s", (int)(end - start), start);
	return line;
}

TEST(help_and_version)
{
	struct h_run run;

	h_setup();
	RUN(&run, "--help");
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "bench");
	CHECK_CONTAINS(run.out.ptr, "fixtures");
	CHECK_CONTAINS(run.out.ptr, "130 interrupted");
	h_run_release(&run);
	RUN(&run, "bench", "--help");
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "--scenario");
	CHECK_CONTAINS(run.out.ptr, "--timeout");
	h_run_release(&run);
	RUN(&run, "help", "pms");
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "usage: pmbench pms");
	h_run_release(&run);
	RUN(&run, "--version");
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "pmbench 0.");
	h_run_release(&run);
}

TEST(usage_errors)
{
	struct h_run run;

	h_setup();
	RUN(&run, "frobnicate");
	CHECK_INT(run.exit_code, 129);
	CHECK_CONTAINS(run.out.ptr, "'frobnicate' is not a pmbench command");
	h_run_release(&run);
	RUN(&run, "bench", "--runs", "0");
	CHECK_INT(run.exit_code, 129);
	CHECK_CONTAINS(last_line(&run),
		       "'--runs' must be 'auto' or a whole number");
	h_run_release(&run);
	RUN(&run, "bench", "--scenario", "cache+cache");
	CHECK_INT(run.exit_code, 129);
	CHECK_CONTAINS(last_line(&run), "unknown scenario 'cache+cache'");
	h_run_release(&run);
	RUN(&run, "bench", "--pm", "npm,cargo");
	CHECK_INT(run.exit_code, 129);
	CHECK_CONTAINS(last_line(&run), "unknown package manager 'cargo'");
	h_run_release(&run);
	RUN(&run, "bench", "--timeout", "soon");
	CHECK_INT(run.exit_code, 129);
	CHECK_CONTAINS(last_line(&run), "'--timeout' must be a duration");
	h_run_release(&run);
	RUN(&run, "bench", "--bogus");
	CHECK_INT(run.exit_code, 129);
	CHECK_CONTAINS(last_line(&run), "'--bogus'");
	h_run_release(&run);
}

TEST(missing_fixture_is_one_line)
{
	struct h_run run;

	h_setup();
	RUN(&run, "bench", "no-such-fixture");
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "no fixture 'no-such-fixture'");
	/* One line, nothing else printed. */
	CHECK(!strchr(run.out.ptr, '\n') ||
	      strchr(run.out.ptr, '\n') == run.out.ptr + run.out.len - 1);
	h_run_release(&run);
}

TEST(explicit_missing_pm_is_an_error)
{
	struct h_run run;
	const char *proj;
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;

	h_setup();
	proj = h_project("proj");
	/* A PATH without the fakes: deno is nowhere. */
	pmbench_strvec_push(&env, "PATH=/nonexistent");
	{
		const char *args[] = { "bench", "--pm", "deno", proj, NULL };

		h_pmbench(&run, args, &env);
	}
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "deno not found");
	CHECK_CONTAINS(run.out.ptr, "ci/setup");
	pmbench_strvec_release(&env);
	h_run_release(&run);
}

TEST(pms_lists_what_it_finds)
{
	struct h_run run;

	h_setup();
	RUN(&run, "pms");
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "yarn-berry");
	CHECK_CONTAINS(run.out.ptr, "4.18.1");
	CHECK_CONTAINS(run.out.ptr, "1.22.22");
	/* "deno 2.9.6 (fake)" is parsed as the others are: 2.9.6. */
	CHECK_CONTAINS(run.out.ptr, "\ndeno               2.9.6 ");
	/* The name column fits the longest name. */
	CHECK_CONTAINS(run.out.ptr, "\nnpm:prefer-offline 11.0.0-fake ");
	CHECK(!strstr(run.out.ptr, "deno 2.9.6"));
	CHECK_CONTAINS(run.out.ptr, "PATH");
	h_run_release(&run);
}

TEST(fixtures_lists_and_reports_bad_manifests)
{
	struct h_run run;
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	char dir[4200];
	const char *sb;

	sb = h_setup();
	h_project("fx/apps/tiny");
	h_write("fx/good.json", "{ \"name\": \"good\", \"repo\": \"apps/tiny\","
				" \"description\": \"a good one\" }\n");
	h_write("fx/bad.json", "{ \"name\": \"bad\",\n  \"repo\": }\n");
	snprintf(dir, sizeof(dir), "%s/fx", sb);
	pmbench_strvec_pushf(&env, "PMBENCH_FIXTURES_DIR=%s", dir);
	{
		const char *args[] = { "fixtures", NULL };

		h_pmbench(&run, args, &env);
	}
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "good");
	CHECK_CONTAINS(run.out.ptr, "a good one");
	CHECK_CONTAINS(run.out.ptr, "bad.json:2:");
	pmbench_strvec_release(&env);
	h_run_release(&run);
}

/* The bytes of the file at `path` (a static copy). */
static const char *contents(const char *path)
{
	static struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_reset(&b);
	if (pmbench_fs_read(&b, path, 1 << 24) < 0)
		return "(unreadable)";
	return b.ptr;
}

/*
 * merge writes to -o/--out only: two inputs without it are refused (it
 * once merged s2 alone over s1), and so is an output that is an input.
 */
TEST(merge_out_is_an_option)
{
	struct pmbench_buf sample = PMBENCH_BUF_INIT;
	char s1[4200], s2[4200];
	struct h_run run;

	h_setup();
	snprintf(s1, sizeof(s1), "%s/tests/data/sample-result.json",
		 getenv("PMBENCH_SOURCE_DIR"));
	CHECK_INT(pmbench_fs_read(&sample, s1, 1 << 24), 0);
	snprintf(s1, sizeof(s1), "%s", h_write("s1.json", sample.ptr));
	snprintf(s2, sizeof(s2), "%s", h_write("s2.json", sample.ptr));
	RUN(&run, "merge", s1, s2);
	CHECK_INT(run.exit_code, 129);
	CHECK_CONTAINS(run.out.ptr, "'--out FILE' is required");
	CHECK_STR(contents(s1), sample.ptr);
	h_run_release(&run);
	RUN(&run, "merge", "-o", s1, s1, s2);
	CHECK_INT(run.exit_code, 129);
	CHECK_CONTAINS(run.out.ptr, "is an input too");
	CHECK_STR(contents(s1), sample.ptr);
	h_run_release(&run);
	RUN(&run, "merge", "--out", s1);
	CHECK_INT(run.exit_code, 129);
	CHECK_CONTAINS(run.out.ptr, "give at least one result");
	h_run_release(&run);
	pmbench_buf_release(&sample);
}

/* Run `prog` with `args` in the source tree, its output into *out. */
static int run_shell(struct pmbench_buf *out, const char *prog,
		     const char *const *args)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	int ret;

	pmbench_strvec_push(&c.args, prog);
	pmbench_strvec_pushv(&c.args, args);
	pmbench_strvec_push(&c.env, "MANWIDTH=80");
	c.dir = getenv("PMBENCH_SOURCE_DIR");
	c.tail_max = 1u << 20;
	c.timeout_ns = 60ull * 1000000000ull;
	ret = pmbench_child_run(&c);
	pmbench_buf_reset(out);
	if (c.tail.ptr)
		pmbench_buf_adds(out, c.tail.ptr);
	ret = ret < 0 ? ret : c.result.exit_code;
	pmbench_child_release(&c);
	return ret;
}

/* The bash completion loads and completes from the option table. */
TEST(bash_completion_completes)
{
	static const char *const script[] = {
		"-c",
		". completions/pmbench.bash\n"
		"complete -p pmbench\n"
		"t() { COMP_WORDS=(\"$@\"); "
		"COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); "
		"_pmbench; echo \"$*: ${COMPREPLY[*]}\"; }\n"
		"t pmbench bench --scen\n"
		"t pmbench bench --pm npm,b\n"
		"t pmbench merge --o\n"
		"t pmbench he\n",
		NULL
	};
	struct pmbench_buf out = PMBENCH_BUF_INIT;

	CHECK_INT(run_shell(&out, "bash", script), 0);
	CHECK_CONTAINS(out.ptr, "complete -F _pmbench pmbench");
	CHECK_CONTAINS(out.ptr, "pmbench bench --scen: --scenario\n");
	CHECK_CONTAINS(out.ptr, "npm,b: npm,bun ");
	CHECK_CONTAINS(out.ptr, "pmbench merge --o: --out\n");
	CHECK_CONTAINS(out.ptr, "pmbench he: help\n");
	pmbench_buf_release(&out);
}

/* man renders the bench page, every option in it. */
TEST(man_page_renders)
{
	static const char *const groff[] = {
		"-man", "-Tutf8", "-ww", "-z", "docs/man/pmbench-bench.1", NULL
	};
	static const char *const man[] = { "-l", "docs/man/pmbench-bench.1",
					   NULL };
	struct pmbench_buf out = PMBENCH_BUF_INIT;

	if (access("/usr/bin/groff", X_OK) || access("/usr/bin/man", X_OK))
		SKIP("no /usr/bin/groff or /usr/bin/man to render with");
	/* No warning from groff. */
	CHECK_INT(run_shell(&out, "groff", groff), 0);
	CHECK_STR(out.ptr, "");
	CHECK_INT(run_shell(&out, "man", man), 0);
	CHECK_CONTAINS(out.ptr, "PMBENCH-BENCH(1)");
	CHECK_CONTAINS(out.ptr, "--time-budget DUR");
	CHECK_CONTAINS(out.ptr, "EXIT STATUS");
	pmbench_buf_release(&out);
}

CHECK_MAIN(CASE(help_and_version), CASE(usage_errors),
	   CASE(missing_fixture_is_one_line),
	   CASE(explicit_missing_pm_is_an_error), CASE(pms_lists_what_it_finds),
	   CASE(fixtures_lists_and_reports_bad_manifests),
	   CASE(merge_out_is_an_option), CASE(bash_completion_completes),
	   CASE(man_page_renders))
