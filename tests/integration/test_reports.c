/*
 * The report, compare and claim commands on the committed sample result:
 * exit codes, files written, the figures and verdicts they print.
 */
#include "pmbench/common.h"

#include "check.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"

static char sample[4200];

static void setup(void)
{
	const char *root = getenv("PMBENCH_SOURCE_DIR");

	h_setup();
	snprintf(sample, sizeof(sample), "%s/tests/data/sample-result.json",
		 root ? root : ".");
}

static int run(struct h_run *out, const char *const *args)
{
	h_pmbench(out, args, NULL);
	return out->exit_code;
}

TEST(report_formats_to_files)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	struct h_run r;
	char md[4200], html[4200];

	setup();
	snprintf(md, sizeof(md), "%s", h_write("out/r.md", ""));
	snprintf(html, sizeof(html), "%s", h_write("out/r.html", ""));
	{
		const char *args[] = { "report", sample, "--format", "markdown",
				       "--out",	 md,	 NULL };

		CHECK_INT(run(&r, args), 0);
		h_run_release(&r);
	}
	CHECK_INT(pmbench_fs_read_text(&text, md, 1 << 20), 0);
	CHECK_CONTAINS(text.ptr, "| action | cache | lockfile | node_modules "
				 "| npm | pnpm | bun |");
	CHECK_CONTAINS(text.ptr, "bun is 4.68x (4.30x–4.75x, paired over 5 "
				 "rounds) faster than npm");
	{
		const char *args[] = { "report", "-f",	 "html", "-o",
				       html,	 sample, NULL };

		CHECK_INT(run(&r, args), 0);
		h_run_release(&r);
	}
	pmbench_buf_reset(&text);
	CHECK_INT(pmbench_fs_read_text(&text, html, 1 << 20), 0);
	CHECK_CONTAINS(text.ptr, "<svg class=\"chart time\"");
	{
		const char *args[] = { "report", sample, NULL };

		CHECK_INT(run(&r, args), 0);
		CHECK_CONTAINS(r.out.ptr, "(cache warm, lockfile present, "
					  "node_modules absent)");
		CHECK_CONTAINS(r.out.ptr, "pnpm is 2.63x (2.50x–2.71x, paired "
					  "over 5 rounds) faster than npm");
		h_run_release(&r);
	}
	{
		const char *args[] = { "report", sample, "--format", "csv",
				       NULL };

		CHECK_INT(run(&r, args), 0);
		CHECK(!strncmp(r.out.ptr, "fixture,task,scenario,pm,", 25));
		h_run_release(&r);
	}
	pmbench_buf_release(&text);
}

TEST(report_errors)
{
	struct h_run r;

	setup();
	{
		const char *args[] = { "report", sample, "--format", "pdf",
				       NULL };

		CHECK_INT(run(&r, args), 129);
		CHECK_CONTAINS(r.out.ptr, "unknown report format 'pdf'");
		h_run_release(&r);
	}
	{
		const char *args[] = { "report", NULL };

		CHECK_INT(run(&r, args), 129);
		h_run_release(&r);
	}
	{
		const char *args[] = { "report", "/nonexistent/r.json", NULL };

		CHECK_INT(run(&r, args), 1);
		CHECK_CONTAINS(r.out.ptr, "/nonexistent/r.json");
		h_run_release(&r);
	}
}

/* B: the sample with bun's clean times 1.5 times longer. */
static const char *slower_copy(void)
{
	struct pmbench_result res = PMBENCH_RESULT_INIT;
	const char *path = h_write("b.json", "");

	if (pmbench_result_read(&res, sample) < 0)
		return NULL;
	for (size_t i = 0; i < res.cells[2].samples_nr; i++)
		res.cells[2].samples[i].wall_ns =
			res.cells[2].samples[i].wall_ns * 3 / 2;
	free(res.found[2].version);
	res.found[2].version = pmbench_xstrdup("1.4.5");
	if (pmbench_result_write(&res, path) < 0)
		path = NULL;
	pmbench_result_release(&res);
	return path;
}

TEST(compare)
{
	struct h_run r;
	const char *b;

	setup();
	b = slower_copy();
	CHECK(b);
	{
		const char *args[] = { "compare", sample, b, NULL };

		CHECK_INT(run(&r, args), 0);
		/* bun 1.3.3 -> 1.4.5 got 50 % slower, exactly. */
		CHECK_CONTAINS(r.out.ptr, "1.3.3 -> 1.4.5");
		CHECK_CONTAINS(r.out.ptr, "+50.0% (+");
		CHECK_CONTAINS(r.out.ptr, "slower");
		/* npm did not change at all. */
		CHECK_CONTAINS(r.out.ptr, "+0.0% (");
		/* The verdict wraps on a 100-column table. */
		CHECK_CONTAINS(r.out.ptr, "no significant");
		CHECK_CONTAINS(r.out.ptr, "no successful runs in A and B");
		h_run_release(&r);
	}
	{
		const char *args[] = { "compare", sample, NULL };

		/* One file is the two sides of a bench --base, or an error. */
		CHECK_INT(run(&r, args), 1);
		CHECK_CONTAINS(r.out.ptr, "is not a result of 'bench --base'");
		h_run_release(&r);
	}
}

TEST(claim_from_result)
{
	struct h_run r;

	setup();
	{
		const char *args[] = { "claim",
				       "bun install is 4.5x faster than npm "
				       "install",
				       "--from",
				       sample,
				       "--scenario",
				       "clean",
				       NULL };

		CHECK_INT(run(&r, args), 0);
		CHECK_CONTAINS(r.out.ptr, "vite-react · clean (cache empty, "
					  "lockfile absent, node_modules "
					  "absent)");
		CHECK_CONTAINS(r.out.ptr, "reproduced: bun install is 4.68x "
					  "(");
		h_run_release(&r);
	}
	{
		const char *args[] = { "claim", "bun is 20x faster than npm",
				       "--from", sample, NULL };

		CHECK_INT(run(&r, args), 3);
		CHECK_CONTAINS(r.out.ptr, "short: bun install is "
					  "4.68x");
		/* bun has no run in cache+lockfile: no verdict there. */
		CHECK_CONTAINS(r.out.ptr, "no verdict: bun install has no "
					  "successful run");
		h_run_release(&r);
	}
	{
		/* 3.01x-3.25x straddles 2.9x * 1.1 = 3.19x. */
		const char *args[] = { "claim",
				       "bun is 2.9 times faster than pnpm",
				       "--from", sample, NULL };

		CHECK_INT(run(&r, args), 4);
		CHECK_CONTAINS(r.out.ptr, "inconclusive: bun install is 3.13x");
		CHECK_CONTAINS(r.out.ptr, "runs per PM would settle it");
		h_run_release(&r);
	}
	{
		const char *args[] = {
			"claim",      "npm is 2.64x slower than pnpm",
			"--from",     sample,
			"--scenario", "cache+lockfile",
			NULL
		};

		CHECK_INT(run(&r, args), 0);
		/* Complete rounds: the median of the per-round ratios. */
		CHECK_CONTAINS(r.out.ptr, "reproduced: npm install is 2.63x (");
		CHECK_CONTAINS(r.out.ptr, "interval paired by round over 5");
		CHECK_CONTAINS(r.out.ptr, ") slower than pnpm install");
		h_run_release(&r);
	}
}

/*
 * The sample with one more run of npm and of bun in the clean scenario,
 * each interrupted (pmbench was stopped while it ran): the figures must
 * not change, and every command must say the run was left out.
 */
static const char *interrupted_copy(void)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	const char *path = h_write("interrupted.json", "");
	cJSON *root = NULL, *cell;
	char *printed = NULL;

	if (pmbench_fs_read_text(&text, sample, 1u << 24) < 0)
		goto done;
	root = cJSON_Parse(text.ptr);
	cJSON_ArrayForEach(cell, cJSON_GetObjectItem(root, "cells"))
	{
		const char *pm =
			cJSON_GetStringValue(cJSON_GetObjectItem(cell, "pm"));
		const char *sc = cJSON_GetStringValue(
			cJSON_GetObjectItem(cell, "scenario"));
		cJSON *s;

		if (strcmp(sc, "clean") ||
		    (strcmp(pm, "npm") && strcmp(pm, "bun")))
			continue;
		s = cJSON_CreateObject();
		cJSON_AddNumberToObject(s, "round", 6);
		cJSON_AddBoolToObject(s, "warmup", 0);
		cJSON_AddBoolToObject(s, "ok", 0);
		cJSON_AddNumberToObject(s, "wall_s", 0.5);
		cJSON_AddNumberToObject(s, "exit_code", -1);
		cJSON_AddStringToObject(s, "failure", "interrupted by SIGINT");
		cJSON_AddBoolToObject(s, "interrupted", 1);
		cJSON_AddItemToArray(cJSON_GetObjectItem(cell, "samples"), s);
	}
	printed = cJSON_Print(root);
	if (!printed)
		goto done;
	path = h_write("interrupted.json", printed);
done:
	if (printed)
		cJSON_free(printed);
	cJSON_Delete(root);
	pmbench_buf_release(&text);
	return path;
}

TEST(interrupted_runs_are_left_out_and_said)
{
	struct h_run r;
	char b[4200];

	setup();
	snprintf(b, sizeof(b), "%s", interrupted_copy());
	{
		const char *args[] = { "compare", sample, b, NULL };

		CHECK_INT(run(&r, args), 0);
		/* The same times: no change at all for npm and bun. */
		CHECK(!strstr(r.out.ptr, "slower"));
		CHECK_CONTAINS(r.out.ptr, "+0.0% (");
		CHECK_CONTAINS(r.out.ptr, "1 interrupted run in B left out");
		h_run_release(&r);
	}
	{
		const char *args[] = { "claim",
				       "bun install is 4.5x faster than npm "
				       "install",
				       "--from",
				       b,
				       "--scenario",
				       "clean",
				       NULL };

		CHECK_INT(run(&r, args), 0);
		CHECK_CONTAINS(r.out.ptr, "reproduced: bun install is 4.68x "
					  "(");
		CHECK_CONTAINS(r.out.ptr, "5 and 5 runs");
		CHECK_CONTAINS(r.out.ptr, "1 interrupted run of bun install "
					  "and 1 of npm install left out");
		h_run_release(&r);
	}
	{
		const char *args[] = { "report", b, NULL };

		/* The same figures as the sample's, and nothing "failed". */
		CHECK_INT(run(&r, args), 0);
		CHECK_CONTAINS(r.out.ptr, "bun is 4.68x (4.30x–4.75x, paired "
					  "over 5 rounds) faster than npm");
		CHECK_CONTAINS(r.out.ptr, "5 (+1 interrupted)");
		CHECK(!strstr(r.out.ptr, "unknown"));
		h_run_release(&r);
	}
}

TEST(claim_errors)
{
	struct h_run r;

	setup();
	{
		const char *args[] = { "claim", "bun is quick", NULL };

		CHECK_INT(run(&r, args), 129);
		CHECK_CONTAINS(r.out.ptr, "cannot read the claim 'bun is "
					  "quick'");
		h_run_release(&r);
	}
	{
		const char *args[] = { "claim",
				       "bun build is 2x faster than npm build",
				       h_project("proj"), NULL };

		/* Timed live, but the project has no build script. */
		CHECK_INT(run(&r, args), 1);
		CHECK_CONTAINS(r.out.ptr, "no verdict");
		CHECK_CONTAINS(r.out.ptr, "bun build has no successful run");
		h_run_release(&r);
	}
	{
		/* deno is not in the sample. */
		const char *args[] = { "claim", "deno is as fast as npm",
				       "--from", sample, NULL };

		CHECK_INT(run(&r, args), 1);
		CHECK_CONTAINS(r.out.ptr, "nothing to judge");
		h_run_release(&r);
	}
	{
		const char *args[] = { "claim", "bun is 2x faster than npm",
				       "--tolerance", "0", NULL };

		CHECK_INT(run(&r, args), 129);
		CHECK_CONTAINS(r.out.ptr, "'--tolerance' must be");
		h_run_release(&r);
	}
	{
		const char *args[] = { "claim", "bun is 2x faster than npm",
				       "--target", "2", NULL };

		CHECK_INT(run(&r, args), 129);
		CHECK_CONTAINS(r.out.ptr, "'--target' applies to the time "
					  "budget");
		h_run_release(&r);
	}
	{
		const char *args[] = { "bench",	   "--runs", "auto",
				       "--target", "0",	     NULL };

		CHECK_INT(run(&r, args), 129);
		CHECK_CONTAINS(r.out.ptr, "'--target' must be a percentage");
		h_run_release(&r);
	}
}

/* `text` with every `from` replaced by `to`, into `out`. */
static void replaced(struct pmbench_buf *out, const char *text,
		     const char *from, const char *to)
{
	const char *p = text, *at;

	while ((at = strstr(p, from))) {
		pmbench_buf_add(out, p, (size_t)(at - p));
		pmbench_buf_adds(out, to);
		p = at + strlen(from);
	}
	pmbench_buf_adds(out, p);
}

/* `report RESULT --format FORMAT --out OUT`; its exit code. */
static int report_to(const char *result, const char *format, const char *out)
{
	const char *args[] = { "report", result, "--format", format,
			       "--out",	 out,	 NULL };
	struct h_run r;
	int code = run(&r, args);

	h_run_release(&r);
	return code;
}

/*
 * A result file is user input: a fixture name with U+FFFE, U+FFFF, a
 * line break, a heading, HTML and a table's '|' in it, and a value of
 * two lines. The SVG is well-formed XML (xmllint), the Markdown shows
 * them as text: no heading, no tag, no cell cut short (issue 32).
 */
TEST(hostile_names_stay_text)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT, evil = PMBENCH_BUF_INIT;
	struct pmbench_buf mid = PMBENCH_BUF_INIT;
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	char path[4200], svg[4200], md[4200];

	setup();
	CHECK_INT(pmbench_fs_read_text(&text, sample, 1 << 22), 0);
	replaced(&mid, text.ptr, "\"vite-react\"",
		 "\"evil\\ufffe\\uffff\\n# pwned <img src=x "
		 "onerror=alert(1)> | cell\"");
	replaced(&evil, mid.ptr, "\"environment\":\t{",
		 "\"environment\":\t{\"two_lines\": \"first\\n- second | "
		 "third\", ");
	snprintf(path, sizeof(path), "%s", h_write("evil.json", evil.ptr));
	snprintf(svg, sizeof(svg), "%s", check_path("evil.svg"));
	snprintf(md, sizeof(md), "%s", check_path("evil.md"));
	CHECK_INT(report_to(path, "svg", svg), 0);
	pmbench_strvec_pushv(&c.args,
			     (const char *const[]){ "xmllint", "--noout", svg,
						    NULL });
	CHECK_INT(pmbench_child_run(&c), 0);
	CHECK_INT(c.result.exit_code, 0);
	CHECK_INT(report_to(path, "markdown", md), 0);
	pmbench_buf_reset(&text);
	CHECK_INT(pmbench_fs_read_text(&text, md, 1 << 22), 0);
	CHECK(!strstr(text.ptr, "\n# pwned"));
	CHECK(!strstr(text.ptr, "<img"));
	CHECK_CONTAINS(text.ptr, "\n\\# pwned &lt;img src=x onerror=alert(1)> "
				 "\\| cell");
	CHECK_CONTAINS(text.ptr,
		       "| two_lines | first<br>\\- second \\| third |");
	pmbench_child_release(&c);
	pmbench_buf_release(&text);
	pmbench_buf_release(&evil);
	pmbench_buf_release(&mid);
}

/*
 * compare with no cell in common is an error and writes nothing: an
 * earlier file at -o stays as it was (issue 32: it was replaced).
 */
TEST(compare_without_common_cells_writes_nothing)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT, other = PMBENCH_BUF_INIT;
	struct h_run r;
	char path[4200], out[4200];

	setup();
	CHECK_INT(pmbench_fs_read_text(&text, sample, 1 << 22), 0);
	replaced(&other, text.ptr, "\"vite-react\"", "\"other\"");
	snprintf(path, sizeof(path), "%s", h_write("other.json", other.ptr));
	snprintf(out, sizeof(out), "%s", h_write("cmp.md", "earlier\n"));
	{
		const char *args[] = {
			"compare", sample, path, "-o", out, NULL
		};

		CHECK_INT(run(&r, args), 1);
	}
	CHECK_CONTAINS(r.out.ptr, "have no cell (fixture, task, scenario, PM) "
				  "in common");
	CHECK(!strstr(r.out.ptr, "report written"));
	h_run_release(&r);
	pmbench_buf_reset(&text);
	CHECK_INT(pmbench_fs_read_text(&text, out, 1 << 20), 0);
	CHECK_STR(text.ptr, "earlier\n");
	pmbench_buf_release(&text);
	pmbench_buf_release(&other);
}

/*
 * bench --seed N: the result keeps N (the default 1 otherwise), every
 * interval reported from it is drawn with it (the page says "seed N"),
 * and the same file gives the same report, byte for byte.
 */
TEST(seed_is_kept_and_said)
{
	struct pmbench_result res = PMBENCH_RESULT_INIT;
	struct h_run r, again;
	const char *proj;
	char out[4200], plain[4200];

	setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("seeded.json", ""));
	snprintf(plain, sizeof(plain), "%s", h_write("plain.json", ""));
	{
		const char *args[] = { "bench",	     proj,     "--pm",
				       "npm",	     "--runs", "2",
				       "--scenario", "clean",  "--seed",
				       "424242",     "--out",  out,
				       NULL };

		CHECK_INT(run(&r, args), 0);
		h_run_release(&r);
	}
	{
		const char *args[] = { "bench",	 proj,	"--pm",	      "npm",
				       "--runs", "2",	"--scenario", "clean",
				       "--out",	 plain, NULL };

		CHECK_INT(run(&r, args), 0);
		h_run_release(&r);
	}
	CHECK_INT(pmbench_result_read(&res, out), 0);
	CHECK_INT(res.seed, 424242);
	pmbench_result_release(&res);
	CHECK_INT(pmbench_result_read(&res, plain), 0);
	CHECK_INT(res.seed, 1);
	pmbench_result_release(&res);
	{
		const char *args[] = { "report", out, "--format", "markdown",
				       NULL };

		CHECK_INT(run(&r, args), 0);
		CHECK_INT(run(&again, args), 0);
	}
	CHECK_CONTAINS(r.out.ptr, "warm-up(s) per cell, seed 424242.");
	CHECK_STR(r.out.ptr, again.out.ptr);
	h_run_release(&r);
	h_run_release(&again);
}

CHECK_MAIN(CASE(report_formats_to_files), CASE(report_errors),
	   CASE(interrupted_runs_are_left_out_and_said), CASE(compare),
	   CASE(claim_from_result), CASE(claim_errors),
	   CASE(hostile_names_stay_text),
	   CASE(compare_without_common_cells_writes_nothing),
	   CASE(seed_is_kept_and_said))
