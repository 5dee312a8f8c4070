#include "pmbench/common.h"

#include <cjson/cJSON.h>

#include "check.h"
#include "fields.h"
#include "pmbench/buf.h"
#include "pmbench/format.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/report_kind.h"
#include "pmbench/strvec.h"

/*
 * Every report format from the committed tests/data/sample-result.json,
 * checked for content: the hand-computed medians, the ratio sentences the
 * fixed seed gives, the cache states, escaping, and CSV read back.
 */

static int load(struct pmbench_result *r)
{
	return h_data_result(r, "sample-result.json");
}

/* The bench kind of `r` in the format called `f`. */
static char *render(const struct pmbench_result *r, const char *f)
{
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_report_bench(&doc, r);
	if (pmbench_format_write(&b, pmbench_format_get(f), &doc) < 0)
		pmbench_buf_addf(&b, "error: %s", pmbench_error_last());
	pmbench_doc_release(&doc);
	return pmbench_buf_detach(&b);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

TEST(statistics)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_report rep = PMBENCH_REPORT_INIT;
	const struct pmbench_report_cell *npm, *pnpm, *bun, *bun2;

	CHECK_INT(load(&r), 0);
	pmbench_report_init(&rep, &r);
	CHECK_INT(rep.cells_nr, 6);
	npm = &rep.cells[0];
	pnpm = &rep.cells[1];
	bun = &rep.cells[2];
	bun2 = &rep.cells[5];
	/*
	 * clean, npm: 13.640 14.303 14.493 14.727 14.763 sorted: the
	 * median is the third. pnpm has 4 successes: the mean of 9.609 and
	 * 9.800. bun: 3.053 3.056 3.098 3.175 3.198.
	 */
	CHECK_INT(npm->n, 5);
	CHECK_NEAR(npm->wall.median, 14.493216367, 1e-9);
	CHECK_INT(pnpm->n, 4);
	CHECK_INT(pnpm->failed, 1);
	CHECK_NEAR(pnpm->wall.median, (9.609004272 + 9.799891808) / 2, 1e-9);
	CHECK_NEAR(bun->wall.median, 3.097789824, 1e-9);
	CHECK(npm->has_ci);
	CHECK(npm->median_ci.lo <= npm->wall.median &&
	      npm->wall.median <= npm->median_ci.hi);
	/* With five runs, resampled medians are sample values. */
	CHECK_NEAR(npm->median_ci.lo, 13.640172384, 1e-9);
	CHECK_NEAR(npm->median_ci.hi, 14.763109519, 1e-9);
	/* bun is the fastest of clean; npm against it. */
	CHECK_INT(npm->fastest, 2);
	CHECK(!bun->has_vs);
	CHECK(npm->has_vs);
	CHECK_NEAR(npm->vs.ratio.point, 14.493216367 / 3.097789824, 1e-9);
	CHECK(npm->vs.ratio.lo <= npm->vs.ratio.point &&
	      npm->vs.ratio.point <= npm->vs.ratio.hi);
	CHECK_NEAR(npm->vs.mwu.p, 2.0 / 252, 1e-12);
	CHECK_INT(npm->vs.verdict, PMBENCH_VERDICT_SLOWER);
	/* cache+lockfile: bun's priming failed; pnpm is the fastest. */
	CHECK_INT(bun2->n, 0);
	CHECK(!bun2->has_vs);
	CHECK_INT(rep.cells[3].fastest, 4);
	CHECK_INT(npm->outliers, 0);
	pmbench_report_release(&rep);
	pmbench_result_release(&r);
}

TEST(table)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char *t;

	CHECK_INT(load(&r), 0);
	t = render(&r, "table");
	CHECK_CONTAINS(t, "vite-react · install · clean\n"
			  "  (cache empty, lockfile absent, node_modules "
			  "absent)\n");
	/*
	 * The fixed seed gives these intervals every time. Complete rounds
	 * give the verdict from the ratio paired by round; pnpm's failed
	 * run leaves its rounds incomplete, so bun against pnpm is the
	 * independent interval with Mann-Whitney.
	 */
	CHECK_CONTAINS(t, "bun is 4.68x (4.30x–4.75x, paired over 5 rounds) "
			  "faster than npm");
	CHECK_CONTAINS(t, "bun is 3.13x (3.01x–3.25x) faster than pnpm "
			  "(p = 0.016)");
	CHECK_CONTAINS(t, "pnpm is 2.63x (2.50x–2.71x, paired over 5 "
			  "rounds) faster than npm");
	CHECK_CONTAINS(t, "4.68x (4.40x–4.82x)");
	CHECK_CONTAINS(t, "paired vs fastest (95% CI)");
	CHECK_CONTAINS(t, "14.493 s  13.640 s – 14.763 s  14.385 s ± 456.4 ms");
	CHECK_CONTAINS(t, "4 (+1 failed)");
	CHECK_CONTAINS(t, "bun   failed: priming run 'bun install' exited");
	CHECK_CONTAINS(t, "note: pnpm has only 4 successful run(s)");
	CHECK_CONTAINS(t, "not like for like");
	free(t);
	pmbench_result_release(&r);
}

/*
 * Cells told --scripts none (or all) are like for like: the note goes,
 * and the JSON keeps the choice (read back as it was).
 */
TEST(scripts_told_is_like_for_like)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_result back = PMBENCH_RESULT_INIT;
	char *t, *json;

	CHECK_INT(load(&r), 0);
	for (size_t i = 0; i < r.cells_nr; i++)
		r.cells[i].scripts_choice = PMBENCH_SCRIPTS_RUN_NONE;
	t = render(&r, "table");
	CHECK(!strstr(t, "not like for like"));
	free(t);
	json = pmbench_result_to_json(&r);
	CHECK_CONTAINS(json, "\"scripts_choice\":\t\"none\"");
	CHECK_INT(pmbench_result_from_json(&back, json, NULL), 0);
	CHECK_INT(back.cells[0].scripts_choice, PMBENCH_SCRIPTS_RUN_NONE);
	free(json);
	pmbench_result_release(&back);
	pmbench_result_release(&r);
}

/*
 * A max RSS at or below pmbench's own peak at the spawn is an upper
 * bound: shown with "≤", and only there.
 */
TEST(max_rss_at_floor_is_an_upper_bound)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_cell *c;
	char *t;

	CHECK_INT(load(&r), 0);
	t = render(&r, "markdown");
	CHECK_INT(count(t, "≤"), 0);
	free(t);
	c = &r.cells[0];
	for (size_t i = 0; i < c->samples_nr; i++)
		c->samples[i].max_rss_floor_kib = c->samples[i].max_rss_kib;
	t = render(&r, "markdown");
	CHECK_INT(count(t, "≤ "), 1);
	free(t);
	pmbench_result_release(&r);
}

TEST(outlier_warning)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	double t[] = { 1.00, 1.01, 0.99, 1.00, 1.02, 3.5 };
	struct pmbench_cell *c;
	char *text;

	c = pmbench_result_add_cell(&r, "f", "install", "clean", "npm");
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(t); i++) {
		struct pmbench_sample *s = pmbench_cell_add_sample(c);

		s->ok = 1;
		s->round = (unsigned)i;
		s->wall_ns = (uint64_t)(t[i] * 1e9);
	}
	text = render(&r, "table");
	/* An outlier by its z-score, and how far: not "every run 1 % off". */
	CHECK_CONTAINS(text, "warning: npm: 1 outlier run (modified z-score "
			     "above 3.5), 248% off the median");
	/* One line per cell, after the findings. */
	CHECK(!strstr(strstr(text, "warning: npm") + 1, "warning"));
	CHECK(strstr(text, "warning: npm") > strstr(text, "  npm  "));
	free(text);
	/* The same outlier as the first run: a cold cache, probably. */
	c->samples[0].wall_ns = 3500000000u;
	c->samples[5].wall_ns = 1000000000u;
	text = render(&r, "table");
	CHECK_CONTAINS(text, "npm: first timed run much slower");
	free(text);
	pmbench_result_release(&r);
}

/*
 * A deterministic 300 ms run with σ 0.4 ms has outliers by the modified
 * z-score, none of which moves the median: no warning.
 */
TEST(no_outlier_warning_when_tight)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	double t[] = { 0.3001, 0.3002, 0.3001, 0.3000, 0.3011, 0.3001 };
	struct pmbench_cell *c;
	char *text;

	c = pmbench_result_add_cell(&r, "f", "install", "clean", "npm");
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(t); i++) {
		struct pmbench_sample *s = pmbench_cell_add_sample(c);

		s->ok = 1;
		s->round = (unsigned)i;
		s->wall_ns = (uint64_t)(t[i] * 1e9);
	}
	text = render(&r, "table");
	CHECK(!strstr(text, "warning"));
	free(text);
	pmbench_result_release(&r);
}

/*
 * The budget's header says the cap it had and the rounds it spent, not
 * the rounds spent as "at most N runs" (issue 37).
 */
TEST(auto_budget_header)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_cell *c;
	char *text;

	c = pmbench_result_add_cell(&r, "f", "install", "clean", "npm");
	for (unsigned i = 0; i < 5; i++) {
		struct pmbench_sample *s = pmbench_cell_add_sample(c);

		s->ok = 1;
		s->round = i;
		s->wall_ns = 1000000000u + i * 1000000u;
	}
	r.runs_auto = 1;
	r.auto_target = 0.10;
	r.auto_max_runs = 30;
	r.auto_budget_ns = 600000000000u;
	r.runs = 5;
	text = render(&r, "html");
	CHECK_CONTAINS(text, "--runs auto (target ±10%, budget 600 s, at most "
			     "30 rounds a scenario; the most a scenario ran: 5 "
			     "rounds)");
	CHECK(!strstr(text, "at most 5 runs"));
	free(text);
	pmbench_result_release(&r);
}

/* Add `n` successful runs of `secs` (plus i ms) to a new cell. */
static void add_runs(struct pmbench_result *r, const char *pm, size_t n,
		     double secs)
{
	struct pmbench_cell *c =
		pmbench_result_add_cell(r, "f", "install", "clean", pm);

	for (size_t i = 0; i < n; i++) {
		struct pmbench_sample *s = pmbench_cell_add_sample(c);

		s->ok = 1;
		s->round = (unsigned)i;
		s->wall_ns = (uint64_t)((secs + (double)i * 1e-3) * 1e9);
	}
}

TEST(drift_warning)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char *text;

	/*
	 * 8 runs of 0.1 s, each 1 ms slower than the one before: rho = 1,
	 * and 7 % from first to last.
	 */
	add_runs(&r, "npm", 8, 0.1);
	text = render(&r, "table");
	CHECK_CONTAINS(text, "warning: npm: times rise run after run "
			     "(Spearman rho 1.00)");
	free(text);
	pmbench_result_release(&r);

	/* The same times in a shuffled order: no drift. */
	{
		static const int order[] = { 3, 7, 0, 5, 2, 6, 1, 4 };
		struct pmbench_cell *c = pmbench_result_add_cell(
			&r, "f", "install", "clean", "npm");

		for (size_t i = 0; i < 8; i++) {
			struct pmbench_sample *smp = pmbench_cell_add_sample(c);

			smp->ok = 1;
			smp->round = (unsigned)i;
			smp->wall_ns =
				(uint64_t)((0.1 + order[i] * 1e-3) * 1e9);
		}
	}
	text = render(&r, "table");
	CHECK(!strstr(text, "run after run"));
	free(text);
	pmbench_result_release(&r);

	/* Drift within 1 % of the median (1 s, 7 ms) moves nothing. */
	add_runs(&r, "npm", 8, 1.0);
	text = render(&r, "table");
	CHECK(!strstr(text, "run after run"));
	free(text);
	pmbench_result_release(&r);
}

TEST(too_few_runs_to_test)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char *text;

	/* Ten times apart, but 3 against 3 cannot reach p < 0.05. */
	add_runs(&r, "npm", 3, 1.0);
	add_runs(&r, "bun", 3, 0.1);
	text = render(&r, "table");
	CHECK_CONTAINS(text, "too few runs to tell bun and npm apart (3 and 3");
	CHECK(!strstr(text, "no significant difference"));
	free(text);
	pmbench_result_release(&r);

	/* With 4 each the same gap is significant. */
	add_runs(&r, "npm", 4, 1.0);
	add_runs(&r, "bun", 4, 0.1);
	text = render(&r, "table");
	CHECK(!strstr(text, "too few runs"));
	CHECK_CONTAINS(text, "bun is ");
	CHECK_CONTAINS(text, "faster than npm");
	free(text);
	pmbench_result_release(&r);
}

TEST(markdown)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char *t;

	CHECK_INT(load(&r), 0);
	t = render(&r, "markdown");
	/* Every pair: pnpm's failed run leaves its pairs unpaired. */
	CHECK_CONTAINS(t, "| vite-react | install | clean | npm | bun | 4.68x "
			  "(4.40x–4.82x) | 4.68x (4.30x–4.75x) | 5 |\n");
	CHECK_CONTAINS(t, "| vite-react | install | clean | pnpm | bun | "
			  "3.13x (3.01x–3.25x) |  |  |\n");
	CHECK_CONTAINS(t, "| action | cache | lockfile | node_modules | npm | "
			  "pnpm | bun |\n|---|---|---|---|---|---|---|\n");
	CHECK_CONTAINS(t, "| install |  |  |  | 14.493 s (13.640 s–14.763 s) "
			  "| 9.704 s (9.558 s–10.049 s), 1 failed | 3.098 s "
			  "(3.053 s–3.198 s) |\n");
	CHECK_CONTAINS(t, "| install | ✔ | ✔ |  | 6.978 s (6.695 s–7.125 s) | "
			  "2.646 s (2.599 s–2.778 s) | failed |\n");
	/* Every ratio row carries its cache state. */
	CHECK_CONTAINS(t, "| vite-react | install | cache+lockfile | cache "
			  "warm, lockfile present, node_modules absent | pnpm "
			  "| npm | 2.64x | 2.50x–2.71x | p = 0.008 |");
	/* 3 ratio rows, and 4 pairs (3 PMs clean, bun failed primed). */
	CHECK_INT(count(t, "| vite-react | install | "), 3 + 4);
	CHECK_CONTAINS(t,
		       "| pnpm |  | none (removed before each run) | blocked "
		       "by pnpm's default (esbuild not approved) |");
	/* One note for every format now, naming its fixture as HTML did. */
	CHECK_CONTAINS(t, "**Note:** vite-react: some PMs ran dependency "
			  "install scripts and others skipped them");
	CHECK_CONTAINS(t, "## Failures");
	CHECK_CONTAINS(t, "```\nProgress: resolved 412");
	CHECK_CONTAINS(t, "ERR_PNPM_FETCH_503");
	CHECK_CONTAINS(t, "| pnpm | 10.24.0 (/usr/local/bin/pnpm) |");
	CHECK_CONTAINS(t, "| cpu_model | AMD Ryzen 7 7840U");
	free(t);
	pmbench_result_release(&r);
}

/* A strict RFC 4180 reader: rows of fields, CRLF or LF line ends. */
static int csv_parse(struct pmbench_strvec **rows, size_t *nr, const char *s)
{
	struct pmbench_buf f = PMBENCH_BUF_INIT;
	struct pmbench_strvec row = PMBENCH_STRVEC_INIT;

	*rows = NULL;
	*nr = 0;
	while (*s) {
		pmbench_buf_reset(&f);
		if (*s == '"') {
			for (s++;; s++) {
				if (!*s)
					return -1;
				if (*s == '"' && s[1] == '"') {
					pmbench_buf_addch(&f, '"');
					s++;
				} else if (*s == '"') {
					s++;
					break;
				} else {
					pmbench_buf_addch(&f, *s);
				}
			}
		} else {
			while (*s && *s != ',' && *s != '\r' && *s != '\n')
				pmbench_buf_addch(&f, *s++);
		}
		pmbench_strvec_push(&row, f.ptr);
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s == '\r')
			s++;
		if (*s && *s != '\n')
			return -1;
		if (*s)
			s++;
		*rows = pmbench_xrealloc(*rows, (*nr + 1) * sizeof(**rows));
		(*rows)[(*nr)++] = row;
		pmbench_strvec_init(&row);
	}
	pmbench_buf_release(&f);
	return 0;
}

static void csv_free(struct pmbench_strvec *rows, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		pmbench_strvec_release(&rows[i]);
	free(rows);
}

TEST(csv_round_trip)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_strvec *rows = NULL;
	size_t nr = 0, k = 1, total = 0;
	char *t;

	CHECK_INT(load(&r), 0);
	/* A failure line that needs quoting: comma, quote, newline. */
	free(r.cells[1].samples[3].failure);
	r.cells[1].samples[3].failure =
		pmbench_xstrdup("exited, said \"no\"\nand stopped");
	t = render(&r, "csv");
	CHECK_INT(csv_parse(&rows, &nr, t), 0);
	for (size_t i = 0; i < r.cells_nr; i++)
		total += r.cells[i].samples_nr;
	CHECK_INT(nr, total + 1);
	CHECK_INT(rows[0].nr, 30);
	CHECK_STR(rows[0].v[0], "fixture");
	CHECK_STR(rows[0].v[7], "wall_s");
	CHECK_STR(rows[0].v[17], "failure");
	/* The phases last, empty for runs without (an older result). */
	CHECK_STR(rows[0].v[20], "phase_startup_s");
	CHECK_STR(rows[0].v[26], "registry_requests");
	/* The state check last: empty for a run not checked. */
	CHECK_STR(rows[0].v[27], "state_check");
	CHECK_STR(rows[0].v[28], "state_why");
	/* Then the release the PM ran: empty in an older result. */
	CHECK_STR(rows[0].v[29], "pm_version");
	CHECK_STR(rows[1].v[29], "");
	CHECK_STR(rows[1].v[27], "");
	CHECK_STR(rows[1].v[20], "");
	for (size_t i = 0; i < r.cells_nr; i++) {
		const struct pmbench_cell *c = &r.cells[i];

		for (size_t s = 0; s < c->samples_nr; s++, k++) {
			const struct pmbench_sample *x = &c->samples[s];
			double wall = strtod(rows[k].v[7], NULL);

			CHECK_INT(rows[k].nr, 30);
			CHECK_STR(rows[k].v[2], c->scenario);
			CHECK_STR(rows[k].v[3], c->pm);
			CHECK_INT(strtol(rows[k].v[4], NULL, 10), x->round);
			CHECK_INT(strtol(rows[k].v[5], NULL, 10), x->warmup);
			CHECK_INT(strtol(rows[k].v[6], NULL, 10), x->ok);
			/* Nanoseconds survive: nine decimals. */
			CHECK(llround(wall * 1e9) == (long long)x->wall_ns);
			CHECK(strtoull(rows[k].v[10], NULL, 10) ==
			      x->max_rss_kib);
			CHECK_STR(rows[k].v[17], x->failure ? x->failure : "");
		}
	}
	CHECK_STR(rows[10].v[17], "exited, said \"no\"\nand stopped");
	csv_free(rows, nr);
	free(t);
	pmbench_result_release(&r);
}

TEST(hyperfine_json)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	cJSON *root, *results, *first, *times, *codes;
	char *t;

	CHECK_INT(load(&r), 0);
	t = render(&r, "json");
	root = cJSON_Parse(t);
	CHECK(root);
	results = cJSON_GetObjectItemCaseSensitive(root, "results");
	CHECK(cJSON_IsArray(results));
	/* Five cells have times; bun's unprimed cell has none. */
	CHECK_INT(cJSON_GetArraySize(results), 5);
	first = cJSON_GetArrayItem(results, 0);
	CHECK_STR(
		cJSON_GetObjectItemCaseSensitive(first, "command")->valuestring,
		"npm install (clean, vite-react)");
	CHECK_NEAR(
		cJSON_GetObjectItemCaseSensitive(first, "median")->valuedouble,
		14.493216367, 1e-9);
	CHECK_NEAR(cJSON_GetObjectItemCaseSensitive(first, "min")->valuedouble,
		   13.640172384, 1e-9);
	CHECK_NEAR(
		cJSON_GetObjectItemCaseSensitive(first, "stddev")->valuedouble,
		0.456366186537, 1e-9);
	CHECK(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(first, "user")));
	CHECK(cJSON_IsNumber(
		cJSON_GetObjectItemCaseSensitive(first, "system")));
	times = cJSON_GetObjectItemCaseSensitive(first, "times");
	codes = cJSON_GetObjectItemCaseSensitive(first, "exit_codes");
	CHECK_INT(cJSON_GetArraySize(times), 5);
	CHECK_INT(cJSON_GetArraySize(codes), 5);
	CHECK_NEAR(cJSON_GetArrayItem(times, 0)->valuedouble, 14.303031792,
		   1e-9);
	CHECK_STR(cJSON_GetObjectItemCaseSensitive(
			  cJSON_GetObjectItemCaseSensitive(first, "parameters"),
			  "scenario")
			  ->valuestring,
		  "clean");
	cJSON_Delete(root);
	free(t);
	pmbench_result_release(&r);
}

TEST(html)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char *t;

	CHECK_INT(load(&r), 0);
	free(r.cells[1].samples[3].tail);
	r.cells[1].samples[3].tail =
		pmbench_xstrdup("<script>alert('x')</script> & \"quoted\"\n");
	t = render(&r, "html");
	CHECK(!strncmp(t, "<!DOCTYPE html>", 15));
	CHECK_CONTAINS(t, "</html>\n");
	/* Nothing to fetch and nothing to run. */
	CHECK(!strstr(t, "<script"));
	CHECK(!strstr(t, "src="));
	CHECK(!strstr(t, "href="));
	CHECK_CONTAINS(t, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; "
			  "&amp; &quot;quoted&quot;");
	/* Two time charts and two ratio charts, on a log axis. */
	CHECK_INT(count(t, "<svg class=\"chart time\""), 2);
	CHECK_INT(count(t, "<svg class=\"chart ratio log\""), 2);
	CHECK_CONTAINS(t, ">1x</text>");
	CHECK_CONTAINS(t, ">2x</text>");
	/*
	 * The overview first: every scenario and PM, each scenario a chart
	 * on its own axis, its headline under it.
	 */
	CHECK_INT(count(t, "<svg class=\"chart overview\""), 2);
	CHECK(strstr(t, "chart overview") < strstr(t, "chart time"));
	CHECK_CONTAINS(t,
		       "vite-react · install · clean</p>\n<svg class=\"chart "
		       "overview\"");
	CHECK_CONTAINS(t, "</svg>\n<p>bun is 4.68x (4.30x–4.75x, paired over "
			  "5 rounds) faster than npm");
	CHECK_CONTAINS(t, "</svg>\n<p>pnpm is 2.63x (2.50x–2.71x, paired "
			  "over 5 rounds)");
	/* One dot per successful timed run: 5 + 4 + 5 + 5 + 5. */
	CHECK_INT(count(t, "<circle class=\"run\""), 24);
	/* Bars: the overview's 5, the time charts' 5, the ratios' 3. */
	CHECK_INT(count(t, "<rect class=\"bar\""), 5 + 5 + 3);
	CHECK_INT(count(t, "<path class=\"whisker\""), 5 + 5 + 3);
	CHECK_CONTAINS(t, "bun is 4.68x (4.30x–4.75x, paired over 5 rounds) "
			  "faster than npm");
	CHECK_CONTAINS(t, "cache warm, lockfile present, node_modules absent");
	CHECK_CONTAINS(t, "Failures");
	CHECK_CONTAINS(t, "esbuild@0.25.12 failed to download");
	CHECK_CONTAINS(t, "<td>blocked by pnpm&#39;s default (esbuild not "
			  "approved)</td>");
	CHECK_CONTAINS(t, "vite-react: some PMs ran dependency install "
			  "scripts");
	CHECK_CONTAINS(t, "Time relative to the fastest, bun (1x)");
	CHECK_CONTAINS(t, "<th>cpu_model</th><td>AMD Ryzen 7 7840U");
	free(t);
	pmbench_result_release(&r);
}

/*
 * A result of a benchmark stopped by a signal, read from JSON: npm's
 * sixth install, bun's only install and npm's fourth build were in
 * flight and are "interrupted": neither times nor failures.
 */
static int load_interrupted(struct pmbench_result *r)
{
	struct pmbench_buf j = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_adds(&j, "{\"schema\": \"pmbench-result\", \"version\": 1, "
			     "\"pmbench_version\": \"0.1.0\", \"created\": "
			     "\"2026-12-02T18:40:00Z\", \"options\": "
			     "{\"tasks\": [\"install\", \"build\"], "
			     "\"runs\": 5, \"seed\": 1}, "
			     "\"cells\": [{\"fixture\": \"f\", \"task\": "
			     "\"install\", \"scenario\": \"clean\", "
			     "\"pm\": \"npm\", \"samples\": [");
	for (int i = 0; i < 5; i++)
		pmbench_buf_addf(&j,
				 "{\"round\": %d, \"ok\": true, "
				 "\"wall_s\": 1.0%d}, ",
				 i, i);
	pmbench_buf_adds(&j, "{\"round\": 5, \"ok\": false, \"wall_s\": "
			     "0.5, \"exit_code\": -1, \"failure\": "
			     "\"interrupted by SIGINT\", \"interrupted\": "
			     "true}]}, {\"fixture\": \"f\", \"task\": "
			     "\"install\", \"scenario\": \"clean\", "
			     "\"pm\": \"bun\", \"samples\": [{\"ok\": "
			     "false, \"wall_s\": 0.25, \"exit_code\": -1, "
			     "\"failure\": \"interrupted by SIGTERM\", "
			     "\"interrupted\": true}]}, {\"fixture\": \"f\", "
			     "\"task\": \"build\", \"scenario\": "
			     "\"cache+lockfile+node_modules\", \"pm\": "
			     "\"npm\", \"samples\": [");
	for (int i = 0; i < 3; i++)
		pmbench_buf_addf(&j,
				 "{\"round\": %d, \"ok\": true, "
				 "\"wall_s\": 2.0%d}, ",
				 i, i);
	pmbench_buf_adds(&j, "{\"round\": 3, \"ok\": false, \"wall_s\": "
			     "0.1, \"exit_code\": -1, \"failure\": "
			     "\"interrupted by SIGINT\", \"interrupted\": "
			     "true}]}]}");
	ret = pmbench_result_from_json(r, j.ptr, "interrupted");
	pmbench_buf_release(&j);
	return ret;
}

TEST(interrupted_runs_are_neither_times_nor_failures)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_report rep = PMBENCH_REPORT_INIT;
	struct pmbench_strvec *rows = NULL;
	size_t nr = 0;
	cJSON *root, *first;
	char *t;

	CHECK_INT(load_interrupted(&r), 0);
	for (size_t i = 0; i < r.cells_nr; i++)
		CHECK_INT(pmbench_cell_failures(&r.cells[i]), 0);
	pmbench_report_init(&rep, &r);
	CHECK_INT(rep.cells[0].n, 5);
	CHECK_INT(rep.cells[0].failed, 0);
	CHECK_NEAR(rep.cells[0].wall.median, 1.02, 1e-9);
	CHECK_INT(rep.cells[1].n, 0);
	CHECK_INT(rep.cells[1].failed, 0);
	pmbench_report_release(&rep);

	/* The terminal table, the build task's table included. */
	t = render(&r, "table");
	CHECK_CONTAINS(t, "5 (+1 interrupted)");
	CHECK_CONTAINS(t, "bun  interrupted before a run finished");
	CHECK_CONTAINS(t, "3 (+1 interrupted)");
	CHECK_CONTAINS(t, "npm: 1 run interrupted");
	CHECK(!strstr(t, "failed"));
	CHECK(!strstr(t, "unknown"));
	free(t);

	t = render(&r, "markdown");
	CHECK_CONTAINS(t, "1.020 s (");
	CHECK_CONTAINS(t, "| interrupted |");
	CHECK_CONTAINS(t, "1 run interrupted");
	CHECK(!strstr(t, "Failures"));
	CHECK(!strstr(t, "failed"));
	CHECK(!strstr(t, "unknown"));
	free(t);

	t = render(&r, "csv");
	CHECK_INT(csv_parse(&rows, &nr, t), 0);
	CHECK_INT(nr, 1 + 6 + 1 + 4);
	CHECK_STR(rows[0].v[18], "interrupted");
	CHECK_STR(rows[5].v[18], "0");
	CHECK_STR(rows[6].v[18], "1");
	CHECK_STR(rows[7].v[18], "1");
	CHECK_STR(rows[6].v[17], "interrupted by SIGINT");
	csv_free(rows, nr);
	free(t);

	t = render(&r, "json");
	root = cJSON_Parse(t);
	first = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "results"), 0);
	CHECK_INT(cJSON_GetArraySize(cJSON_GetObjectItem(first, "times")), 5);
	CHECK_NEAR(cJSON_GetObjectItem(first, "failed_runs")->valuedouble, 0,
		   0);
	CHECK(cJSON_GetObjectItem(first, "interrupted_runs"));
	CHECK_NEAR(cJSON_GetObjectItem(first, "interrupted_runs")->valuedouble,
		   1, 0);
	cJSON_Delete(root);
	free(t);

	t = render(&r, "html");
	CHECK_CONTAINS(t, "(5 runs, 1 interrupted)");
	CHECK_CONTAINS(t, ">interrupted</text>");
	CHECK_CONTAINS(t, "1 run interrupted");
	CHECK(!strstr(t, "Failures"));
	CHECK(!strstr(t, "failed"));
	free(t);
	pmbench_result_release(&r);
}

/*
 * Processes a PM left running (counted in each sample's "leftover",
 * stopped by pmbench) are shown: npm left 1 after two of its five
 * installs, and 2 after one of its three builds.
 */
TEST(leftover_processes_are_shown)
{
	static const char *const json =
		"{\"schema\": \"pmbench-result\", \"version\": 1, "
		"\"pmbench_version\": \"0.1.0\", \"created\": "
		"\"2026-12-02T18:40:00Z\", \"options\": {\"tasks\": "
		"[\"install\", \"build\"], \"runs\": 5, \"seed\": 1}, "
		"\"cells\": [{\"fixture\": \"f\", \"task\": \"install\", "
		"\"scenario\": \"clean\", \"pm\": \"npm\", \"samples\": ["
		"{\"ok\": true, \"wall_s\": 1.00, \"leftover\": 1}, "
		"{\"ok\": true, \"wall_s\": 1.01}, "
		"{\"ok\": true, \"wall_s\": 1.02, \"leftover\": 1}, "
		"{\"ok\": true, \"wall_s\": 1.03}, "
		"{\"ok\": true, \"wall_s\": 1.04}]}, "
		"{\"fixture\": \"f\", \"task\": \"install\", \"scenario\": "
		"\"clean\", \"pm\": \"bun\", \"samples\": ["
		"{\"ok\": true, \"wall_s\": 0.5}]}, "
		"{\"fixture\": \"f\", \"task\": \"build\", \"scenario\": "
		"\"cache+lockfile+node_modules\", \"pm\": \"npm\", "
		"\"samples\": [{\"ok\": true, \"wall_s\": 2.0}, "
		"{\"ok\": true, \"wall_s\": 2.1, \"leftover\": 2}, "
		"{\"ok\": true, \"wall_s\": 2.2}]}]}";
	static const char *const note = "npm left 2 processes running after "
					"2 of 5 runs (stopped by pmbench)";
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_strvec *rows = NULL;
	size_t nr = 0;
	cJSON *root;
	char *t;

	CHECK_INT(pmbench_result_from_json(&r, json, "leftover"), 0);
	t = render(&r, "table");
	CHECK_CONTAINS(t, note);
	/* The build task's table too. */
	CHECK_CONTAINS(t, "npm left 2 processes running after 1 of 3 runs "
			  "(stopped by pmbench)");
	CHECK(!strstr(t, "bun left"));
	free(t);
	t = render(&r, "markdown");
	CHECK_CONTAINS(t, note);
	free(t);
	t = render(&r, "html");
	CHECK_CONTAINS(t, note);
	free(t);
	t = render(&r, "csv");
	CHECK_INT(csv_parse(&rows, &nr, t), 0);
	CHECK_STR(rows[0].v[19], "leftover");
	CHECK_STR(rows[1].v[19], "1");
	CHECK_STR(rows[2].v[19], "0");
	csv_free(rows, nr);
	free(t);
	t = render(&r, "json");
	root = cJSON_Parse(t);
	CHECK(cJSON_GetObjectItem(
		cJSON_GetArrayItem(cJSON_GetObjectItem(root, "results"), 0),
		"leftover_processes"));
	CHECK_NEAR(cJSON_GetObjectItem(
			   cJSON_GetArrayItem(
				   cJSON_GetObjectItem(root, "results"), 0),
			   "leftover_processes")
			   ->valuedouble,
		   2, 0);
	cJSON_Delete(root);
	free(t);
	pmbench_result_release(&r);
}

TEST(format_names)
{
	const struct pmbench_format *f;

	f = pmbench_format_get("markdown");
	CHECK(f);
	CHECK_STR(f->name, "markdown");
	CHECK(pmbench_format_get("md") == f);
	CHECK(pmbench_format_get("hyperfine"));
	CHECK(pmbench_format_get("svg"));
	CHECK(!pmbench_format_get("pdf"));
	CHECK_CONTAINS(pmbench_error_last(), "unknown report format 'pdf'");
	CHECK_CONTAINS(
		pmbench_error_last(),
		"hyperfine, github-action-benchmark, bencher, html or svg");
	CHECK(pmbench_format_for_path("out/r.HTML") ==
	      pmbench_format_get("html"));
	CHECK(pmbench_format_for_path("r.md") == f);
	CHECK(!pmbench_format_for_path("r.txt"));
}

/* A cell of `r` with these wall times (seconds), one per round. */
static struct pmbench_cell *timed_cell(struct pmbench_result *r, const char *pm,
				       const double *t, size_t n)
{
	struct pmbench_cell *c =
		pmbench_result_add_cell(r, "fx", "install", "clean", pm);

	for (size_t i = 0; i < n; i++) {
		struct pmbench_sample *s = pmbench_cell_add_sample(c);

		s->round = (unsigned)i;
		s->ok = 1;
		s->wall_ns = (uint64_t)(t[i] * 1e9);
	}
	return c;
}

TEST(resolver_stalls_warned_unless_local)
{
	const double stalled[] = { 0.61, 5.72, 0.58, 10.66, 0.64 };
	const double fine[] = { 0.30, 0.31, 0.29, 0.32, 0.30 };
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char *t;

	timed_cell(&r, "pnpm", stalled, 5);
	timed_cell(&r, "bun", fine, 5);
	t = render(&r, "table");
	CHECK_CONTAINS(t, "pnpm: 2 of 5 runs sit up to 2 x 5 s above its "
			  "fastest");
	CHECK_CONTAINS(t, "DNS resolver's 5 s timeout");
	CHECK(!strstr(t, "bun: 2 of"));
	free(t);
	pmbench_result_env_set(&r, "registry", "local");
	t = render(&r, "table");
	CHECK(!strstr(t, "DNS resolver"));
	free(t);
	pmbench_result_release(&r);
}

TEST(paired_only_with_complete_rounds)
{
	const double a[] = { 1.0, 1.1, 1.2, 1.3, 1.4, 1.5 };
	const double b[] = { 2.0, 2.2, 2.4, 2.6, 2.8, 3.0 };
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_report rep = PMBENCH_REPORT_INIT;
	struct pmbench_cell *cb;
	double *pa, *pb;
	size_t n;

	timed_cell(&r, "npm", b, 6);
	timed_cell(&r, "bun", a, 6);
	pmbench_report_init(&rep, &r);
	CHECK(rep.cells[0].has_paired && rep.cells[0].verdict_paired);
	CHECK_INT(rep.cells[0].paired_n, 6);
	CHECK_NEAR(rep.cells[0].paired.point, 2, 1e-9);
	CHECK(rep.cells[0].vs.verdict == PMBENCH_VERDICT_SLOWER);
	CHECK_INT(rep.pairs_nr, 1);
	CHECK(rep.pairs[0].has_paired && rep.pairs[0].rounds == 6);
	pmbench_report_release(&rep);
	/* A failed run of npm: its round is incomplete, so no pairing. */
	cb = &r.cells[0];
	cb->samples[2].ok = 0;
	CHECK_INT(pmbench_report_pair_rounds(&pa, &pb, &n, &r.cells[0],
					     &r.cells[1]),
		  0);
	CHECK(!pa && !pb && n == 0);
	pmbench_report_init(&rep, &r);
	CHECK(rep.cells[0].has_vs && !rep.cells[0].has_paired);
	CHECK(!rep.cells[0].verdict_paired);
	pmbench_report_release(&rep);
	/* An interrupted run leaves its round out of both. */
	cb->samples[2].ok = 0;
	cb->samples[2].interrupted = 1;
	CHECK_INT(pmbench_report_pair_rounds(&pa, &pb, &n, &r.cells[0],
					     &r.cells[1]),
		  1);
	CHECK_INT(n, 5);
	free(pa);
	free(pb);
	pmbench_result_release(&r);
}

/*
 * The sample's clean npm and bun cells, as cells of three generated
 * workspaces (gen:workspace:N), each run's time N times 10 ms plus the
 * sample's: the scaling section, its per-package slope and the curve.
 */
static int load_scaled(struct pmbench_result *r)
{
	static const unsigned sizes[] = { 1, 10, 50 };
	struct pmbench_buf path = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	const char *root = getenv("PMBENCH_SOURCE_DIR");
	cJSON *doc, *fx, *cells, *cell;
	char *json;
	int ret = -1;

	pmbench_buf_path(&path, root ? root : ".",
			 "tests/data/sample-result.json");
	if (pmbench_fs_read_text(&text, path.ptr, 1u << 24) < 0 ||
	    !(doc = cJSON_Parse(text.ptr)))
		goto done;
	fx = cJSON_CreateArray();
	cells = cJSON_CreateArray();
	for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(sizes); k++) {
		char name[64], repo[64];
		cJSON *f = cJSON_CreateObject(), *c, *sm;

		snprintf(name, sizeof(name), "gen-workspace-%u", sizes[k]);
		snprintf(repo, sizeof(repo), "gen:workspace:%u:1", sizes[k]);
		cJSON_AddStringToObject(f, "name", name);
		cJSON_AddStringToObject(f, "repo", repo);
		cJSON_AddItemToArray(fx, f);
		cJSON_ArrayForEach(cell, cJSON_GetObjectItem(doc, "cells"))
		{
			const char *pm =
				cJSON_GetObjectItem(cell, "pm")->valuestring;
			const char *sc = cJSON_GetObjectItem(cell, "scenario")
						 ->valuestring;

			if (strcmp(sc, "clean") ||
			    (strcmp(pm, "npm") && strcmp(pm, "bun")))
				continue;
			c = cJSON_Duplicate(cell, 1);
			cJSON_ReplaceItemInObject(c, "fixture",
						  cJSON_CreateString(name));
			cJSON_ArrayForEach(sm,
					   cJSON_GetObjectItem(c, "samples"))
			{
				cJSON *w = cJSON_GetObjectItem(sm, "wall_s");

				cJSON_SetNumberValue(
					w, w->valuedouble + 0.01 * sizes[k]);
			}
			cJSON_AddItemToArray(cells, c);
		}
	}
	cJSON_ReplaceItemInObject(doc, "fixtures", fx);
	cJSON_ReplaceItemInObject(doc, "cells", cells);
	json = cJSON_Print(doc);
	ret = pmbench_result_from_json(r, json, "scaled");
	free(json);
	cJSON_Delete(doc);
done:
	pmbench_buf_release(&path);
	pmbench_buf_release(&text);
	return ret;
}

TEST(scaling_curve)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char *t;

	CHECK_INT(load_scaled(&r), 0);
	t = render(&r, "markdown");
	CHECK_CONTAINS(t, "scaling · install · clean: 1 to 50 workspace "
			  "packages (gen:workspace, seed 1)");
	/* Every run 10 ms more per package: the slope says so. */
	CHECK_CONTAINS(t, "10.00 ms |");
	free(t);
	t = render(&r, "csv");
	CHECK_CONTAINS(t, "fixture,generator,seed,task,scenario,pm,packages,"
			  "median");
	CHECK_CONTAINS(t, "gen-workspace-50,gen:workspace,1,install,clean,"
			  "npm,50,");
	free(t);
	t = render(&r, "html");
	CHECK_CONTAINS(t, "<path class=\"curve\"");
	CHECK_INT(count(t, "<path class=\"curve\""), 2);
	free(t);
	t = render(&r, "json");
	CHECK_CONTAINS(t, "\"packages\"");
	free(t);
	pmbench_result_release(&r);
}

/*
 * The state check in every format: bun's clean runs all failed it (a
 * cell not in the state asked: no time, no ratio), one of pnpm's did
 * (a mark beside the median and the reason under the scenario).
 */
TEST(state_check_in_every_format)
{
	static const char *const formats[] = { "table", "markdown", "html",
					       "csv", "json" };
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_cell *pnpm, *bun;

	CHECK_INT(load(&r), 0);
	pnpm = &r.cells[1];
	bun = &r.cells[2];
	for (size_t i = 0; i < bun->samples_nr; i++) {
		bun->samples[i].state_check = PMBENCH_CHECK_FAIL;
		bun->samples[i].state_why =
			pmbench_xstrdup("warm: 0 of the tree's 89 tarballs");
	}
	for (size_t i = 0; i < pnpm->samples_nr; i++)
		pnpm->samples[i].state_check = PMBENCH_CHECK_PASS;
	pnpm->samples[pnpm->samples_nr - 1].state_check = PMBENCH_CHECK_FAIL;
	pnpm->samples[pnpm->samples_nr - 1].state_why =
		pmbench_xstrdup("resolved again: the lockfile changed");
	for (size_t f = 0; f < PMBENCH_ARRAY_SIZE(formats); f++) {
		char *t = render(&r, formats[f]);

		/* hyperfine's export: the timed cells, with their counts. */
		if (!strcmp(formats[f], "json")) {
			CHECK_CONTAINS(t, "\"state_failed_runs\":\t1");
			CHECK(!strstr(t, "bun install (clean"));
			free(t);
			continue;
		}
		CHECK_CONTAINS(t, "warm: 0 of the tree");
		if (strcmp(formats[f], "csv"))
			CHECK_CONTAINS(t, "not the state asked");
		if (!strcmp(formats[f], "table") ||
		    !strcmp(formats[f], "markdown")) {
			CHECK_CONTAINS(t, "pnpm ✗: 1 of");
			CHECK_CONTAINS(t, "the lockfile changed");
			CHECK(count(t, " s ✗") >= 1);
		}
		if (!strcmp(formats[f], "csv"))
			CHECK_CONTAINS(t, ",fail,warm: 0 of the tree");
		free(t);
	}
	pmbench_result_release(&r);
}

/*
 * tests/data/versions-result.json: pnpm at 9.15.9 (--pm pnpm@9),
 * 10.28.2 (--pm pnpm@10) and 12.23.0 (pinned) beside npm, 5 rounds each
 * in clean and cache+lockfile. clean: 36 s, 12 s, 6 s (each round's
 * 10.x over 9.x about 1/3: it moved most at 10.28.2); cache+lockfile:
 * 20 s, 18 s, 2.4 s (it moved most at 12.23.0).
 */
static int load_versions(struct pmbench_result *r)
{
	return h_data_result(r, "versions-result.json");
}

/*
 * With --baseline (tests/data/baseline-result.json: the sample, run with
 * --baseline=npm), the decision opens bench's report in every format:
 * each other PM against npm per scenario, paired by round where the
 * rounds pair, what failed, and one sentence; without the chosen
 * baseline (the sample), no decision (issue 37).
 */
TEST(bench_baseline_decision_first)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	cJSON *root, *d;
	char *t;

	CHECK_INT(h_data_result(&r, "baseline-result.json"), 0);
	CHECK(r.baseline_chosen);
	t = render(&r, "table");
	CHECK(!strncmp(t, "Decision: against npm (--baseline)\n", 35));
	CHECK_CONTAINS(t, "  pnpm    1 of 5 runs failed in install clean  "
			  "1.49x faster ±6%");
	CHECK_CONTAINS(t, "2.63x faster ±5% (paired)");
	CHECK_CONTAINS(t, "  bun     fails in install cache+lockfile      "
			  "4.68x faster ±8% (paired)");
	/* bun fails a scenario npm passes: the sentence names pnpm. */
	CHECK_CONTAINS(t, "\n  Move to pnpm: 1 of 5 runs failed in install "
			  "clean;");
	free(t);
	t = render(&r, "markdown");
	CHECK(strstr(t, "## Decision") &&
	      strstr(t, "## Decision") < strstr(t, "vite-react · install"));
	free(t);
	t = render(&r, "html");
	CHECK(strstr(t, "Decision: against npm") &&
	      strstr(t, "Decision: against npm") <
		      strstr(t, "vite-react · install"));
	free(t);
	t = render(&r, "json");
	root = cJSON_Parse(t);
	d = cJSON_GetObjectItem(root, "decision");
	CHECK_CONTAINS(h_str(d, "verdict"), "Move to pnpm: ");
	CHECK_STR(
		h_str(cJSON_GetArrayItem(cJSON_GetObjectItem(d, "targets"), 1),
		      "runs"),
		"fails in install cache+lockfile");
	CHECK(cJSON_GetObjectItem(root, "results"));
	cJSON_Delete(root);
	free(t);
	/* The default baseline is no choice: no decision. */
	r.baseline_chosen = 0;
	t = render(&r, "table");
	CHECK(!strstr(t, "Decision"));
	free(t);
	pmbench_result_release(&r);
}

/* The JSON result record whose command starts `command`, or NULL. */
static const cJSON *result_of(const cJSON *root, const char *command)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, cJSON_GetObjectItem(root, "results"))
	{
		const char *c = h_str(it, "command");

		if (c && !strncmp(c, command, strlen(command)))
			return it;
	}
	return NULL;
}

/*
 * A warm cell that failed its offline proof was not warm: marked, said
 * under its scenario, "fail" in the data column state_check (the
 * numbers-only JSON: offline_proof_failed 1), ranked against
 * no cell, and no speed of that state in the decision, which it blocks.
 */
TEST(failed_offline_proof_is_no_warm_time)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_report rep = PMBENCH_REPORT_INIT;
	struct pmbench_cell *pnpm;
	cJSON *root;
	char *t;

	CHECK_INT(h_data_result(&r, "baseline-result.json"), 0);
	pnpm = pmbench_result_find_cell(&r, "vite-react", "install",
					"cache+lockfile", "pnpm");
	CHECK(pnpm);
	pnpm->proof = PMBENCH_PROOF_FAIL;
	pnpm->proof_why = pmbench_xstrdup("not warm: it asked the registry "
					  "3 requests (3 packuments)");
	pmbench_report_init(&rep, &r);
	/* npm is the fastest warm cell, pnpm in no pair, no ratio. */
	CHECK_STR(rep.cells[rep.cells[4].fastest].cell->pm, "npm");
	CHECK(!rep.cells[4].has_vs && !rep.cells[4].has_base);
	for (size_t i = 0; i < rep.pairs_nr; i++)
		CHECK(rep.pairs[i].a != 4 && rep.pairs[i].b != 4);
	pmbench_report_release(&rep);
	t = render(&r, "table");
	CHECK_CONTAINS(t, "  pnpm    1 of 5 runs failed in install clean, not "
			  "warm (failed offline) in install cache+lockfile");
	CHECK(!strstr(t, "2.63x faster"));
	CHECK_CONTAINS(t, "Stay on npm: no target passes every check");
	CHECK_CONTAINS(t, " ✗");
	CHECK_CONTAINS(t, "pnpm ✗ offline proof (cache+lockfile): not warm: "
			  "it asked the registry 3 requests (3 packuments); no "
			  "warm time to compare");
	free(t);
	t = render(&r, "json");
	root = cJSON_Parse(t);
	CHECK_NEAR(h_num(result_of(root, "pnpm install (cache+lockfile"),
			 "offline_proof_failed"),
		   1, 0);
	CHECK(result_of(root, "npm install (cache+lockfile"));
	CHECK_NEAR(h_num(result_of(root, "npm install (cache+lockfile"),
			 "offline_proof_failed"),
		   -1, 0);
	cJSON_Delete(root);
	free(t);
	/* The baseline not warm: no speed there, said, and no block. */
	pnpm->proof = PMBENCH_PROOF_PASS;
	r.cells[3].proof = PMBENCH_PROOF_FAIL;
	t = render(&r, "table");
	CHECK_CONTAINS(t, "1 of 5 runs failed in install clean, npm not warm "
			  "(failed offline) in install cache+lockfile");
	CHECK_CONTAINS(t, "Move to pnpm: ");
	CHECK(!strstr(t, "2.63x faster"));
	free(t);
	pmbench_result_release(&r);
}

/* The record of the versions table at `version` in `scenario`. */
static const cJSON *version_record(const cJSON *arr, const char *scenario,
				   const char *version)
{
	const cJSON *o;

	cJSON_ArrayForEach(o, arr)
	{
		const cJSON *sc =
			cJSON_GetObjectItemCaseSensitive(o, "scenario");
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "version");

		if (cJSON_IsString(sc) && cJSON_IsString(v) &&
		    !strcmp(sc->valuestring, scenario) &&
		    !strcmp(v->valuestring, version))
			return o;
	}
	return NULL;
}

static double number_of(const cJSON *o, const char *key)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(n) ? n->valuedouble : -1;
}

TEST(versions_side_by_side)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	cJSON *root;
	const cJSON *arr, *o;
	char *t;

	CHECK_INT(load_versions(&r), 0);
	t = render(&r, "table");
	CHECK_CONTAINS(t, "todo-api · install: pnpm at 3 releases");
	CHECK_CONTAINS(t, "clean: pnpm moved most from 9.15.9 to 10.28.2: "
			  "0.33x the time");
	CHECK_CONTAINS(t, "cache+lockfile: pnpm moved most from 10.28.2 to "
			  "12.23.0: 0.13x the time");
	/* npm ran at one release: no section of its own. */
	CHECK(!strstr(t, "install: npm at"));
	free(t);
	t = render(&r, "markdown");
	CHECK_CONTAINS(t, "| clean | 10.28.2 | pnpm@10 | \\--pm pnpm@10 | "
			  "12.000 s |");
	CHECK_CONTAINS(t, "0.50x (0.50x–0.52x, paired)");
	free(t);
	t = render(&r, "csv");
	CHECK_CONTAINS(t, "fixture,task,package_manager,scenario,version,pm,"
			  "source,median");
	CHECK_CONTAINS(t, "todo-api,install,pnpm,cache+lockfile,12.23.0,pnpm,"
			  "pinned (toolchain),2.400000000,5,");
	free(t);
	t = render(&r, "html");
	/* A line per scenario, the releases under the axis. */
	CHECK_INT(count(t, "<path class=\"curve\""), 2);
	CHECK_CONTAINS(t, "text-anchor=\"middle\">10.28.2</text>");
	free(t);
	t = render(&r, "json");
	root = cJSON_Parse(t);
	CHECK(root != NULL);
	arr = cJSON_GetObjectItemCaseSensitive(root, "versions");
	CHECK_INT(cJSON_GetArraySize(arr), 6);
	o = version_record(arr, "clean", "10.28.2");
	CHECK(o != NULL);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "moved_most")));
	CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "paired")));
	CHECK_NEAR(number_of(o, "ratio_to_previous"), 1.0 / 3, 0.01);
	o = version_record(arr, "clean", "12.23.0");
	CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(o, "moved_most")));
	CHECK_NEAR(number_of(o, "ratio_to_previous"), 0.5, 1e-9);
	/* What each PM used, per cell: the release and why. */
	CHECK_CONTAINS(t, "\"pm_version\":\t\"10.28.2\"");
	CHECK_CONTAINS(t, "\"pm_version_source\":\t\"--pm pnpm@10\"");
	cJSON_Delete(root);
	free(t);
	pmbench_result_release(&r);
}

/* The sample result has one release per PM: no versions section. */
TEST(no_versions_section_for_one_release)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char *t;

	CHECK_INT(load(&r), 0);
	t = render(&r, "table");
	CHECK(!strstr(t, "releases"));
	free(t);
	t = render(&r, "csv");
	CHECK_CONTAINS(t, "fixture,task,scenario,pm,round");
	free(t);
	pmbench_result_release(&r);
}

CHECK_MAIN(CASE(statistics), CASE(table), CASE(scripts_told_is_like_for_like),
	   CASE(max_rss_at_floor_is_an_upper_bound), CASE(outlier_warning),
	   CASE(no_outlier_warning_when_tight), CASE(auto_budget_header),
	   CASE(too_few_runs_to_test), CASE(drift_warning), CASE(markdown),
	   CASE(csv_round_trip), CASE(hyperfine_json), CASE(html),
	   CASE(interrupted_runs_are_neither_times_nor_failures),
	   CASE(leftover_processes_are_shown), CASE(format_names),
	   CASE(resolver_stalls_warned_unless_local),
	   CASE(paired_only_with_complete_rounds), CASE(scaling_curve),
	   CASE(state_check_in_every_format), CASE(versions_side_by_side),
	   CASE(bench_baseline_decision_first),
	   CASE(failed_offline_proof_is_no_warm_time),
	   CASE(no_versions_section_for_one_release))
