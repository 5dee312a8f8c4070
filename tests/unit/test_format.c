/*
 * Every report kind in every output format: each writes without error
 * and what it writes reads back as its format says (CSV parsed, JSON
 * parsed, SVG well-formed XML with one root <svg>, HTML a whole page
 * with nothing to fetch or run), from the committed sample result and
 * small results and migrations made here.
 */
#include "pmbench/common.h"

#include <cjson/cJSON.h>

#include "check.h"
#include "fields.h"
#include "pmbench/buf.h"
#include "pmbench/format.h"
#include "pmbench/fs.h"
#include "pmbench/report_kind.h"
#include "pmbench/resultfile.h"
#include "pmbench/strvec.h"

static int load_sample(struct pmbench_result *r)
{
	return h_data_result(r, "sample-result.json");
}

/* A ci-cache result: npm with none and store, one failed hit job. */
static int load_cicache(struct pmbench_result *r)
{
	return pmbench_result_from_json(
		r,
		"{\"schema\": \"pmbench-result\", \"version\": 1, "
		"\"environment\": {\"ci_cache_bandwidth_bytes_per_s\": "
		"\"100000000\"}, "
		"\"package_managers\": [{\"name\": \"npm\", \"path\": "
		"\"/usr/bin/npm\", \"version\": \"11.0.0\"}], "
		"\"cells\": [{\"fixture\": \"f\", \"task\": \"ci-cache\", "
		"\"scenario\": \"none\", \"pm\": \"npm\", \"command\": "
		"[\"/usr/bin/npm\", \"ci\"], \"samples\": ["
		"{\"round\": 0, \"ok\": true, \"wall_s\": 1.5, \"metrics\": "
		"{\"install_s\": 1.5, \"transfer_total_s\": 1.5, "
		"\"keyed_total_s\": 1.5}}, "
		"{\"round\": 1, \"ok\": true, \"wall_s\": 1.6, \"metrics\": "
		"{\"install_s\": 1.6, \"transfer_total_s\": 1.6, "
		"\"keyed_total_s\": 1.6}}]}, "
		"{\"fixture\": \"f\", \"task\": \"ci-cache\", \"scenario\": "
		"\"store/zstd-3\", \"pm\": \"npm\", \"samples\": ["
		"{\"round\": 0, \"ok\": true, \"wall_s\": 0.9, \"metrics\": "
		"{\"restore_s\": 0.1, \"install_s\": 0.7, \"save_s\": 0.1, "
		"\"archive_bytes\": 1200000, \"raw_bytes\": 5000000, "
		"\"transfer_total_s\": 1.0, \"keyed_total_s\": 0.9}}, "
		"{\"round\": 1, \"ok\": false, \"wall_s\": 0.2, \"failure\": "
		"\"install failed, \\\"on purpose\\\"\"}]}]}",
		"memory");
}

/* B: the sample with bun 1.5 times slower in every run. */
static int load_slower(struct pmbench_result *r)
{
	int ret = load_sample(r);

	for (size_t i = 0; !ret && i < r->cells_nr; i++)
		if (!strcmp(r->cells[i].pm, "bun"))
			for (size_t k = 0; k < r->cells[i].samples_nr; k++)
				r->cells[i].samples[k].wall_ns =
					r->cells[i].samples[k].wall_ns * 3 / 2;
	return ret;
}

static struct pmbench_migrate_pm *add_pm(struct pmbench_migrate *m,
					 const char *pm, const char *lock)
{
	struct pmbench_migrate_pm *e;

	PMBENCH_ALLOC_GROW(m->pms, m->pms_nr + 1, m->pms_alloc);
	e = &m->pms[m->pms_nr++];
	memset(e, 0, sizeof(*e));
	e->pm = pmbench_xstrdup(pm);
	e->lockfile = pmbench_xstrdup(lock);
	e->scripts = pmbench_xstrdup("runs dependency install scripts");
	pmbench_strvec_init(&e->build_files);
	pmbench_strvec_init(&e->script_files);
	return e;
}

/* A migration from npm to bun and pnpm (pnpm does not install). */
static void make_migration(struct pmbench_migrate *m)
{
	struct pmbench_migrate_pm *e;

	m->source_pm = pmbench_xstrdup("npm");
	m->source_lock = pmbench_xstrdup("package-lock.json");
	m->detected_by = pmbench_xstrdup("it ships package-lock.json");
	m->seed = 1;
	pmbench_strvec_init(&m->tasks);
	add_pm(m, "npm", "package-lock.json as shipped");
	add_pm(m, "bun", "bun.lock converted by bun install");
	e = add_pm(m, "pnpm", "pnpm-lock.yaml by 'pnpm import'");
	e->prime_failure = pmbench_xstrdup("'pnpm install' exited 1 <&>");
}

/* `text` is a whole document of format `f`. */
static void check_valid(int *ok, const char *f, const char *text,
			const char *kind)
{
	struct pmbench_buf root = PMBENCH_BUF_INIT, words = PMBENCH_BUF_INIT;
	struct pmbench_strvec *rows = NULL;
	size_t nr = 0;
	cJSON *json = NULL;

	*ok = 0;
	CHECK(*text);
	CHECK(!strstr(text, "(null)"));
	if (!strcmp(f, "markdown")) {
		CHECK(!strncmp(text, "# ", 2));
	} else if (!strcmp(f, "csv")) {
		CHECK_INT(check_csv_parse(&rows, &nr, text), 0);
		CHECK(nr >= 2);
		for (size_t i = 1; i < nr; i++)
			CHECK_INT(rows[i].nr, rows[0].nr);
		check_csv_free(rows, nr);
	} else if (!strcmp(f, "json") || !strcmp(f, "hyperfine")) {
		json = cJSON_Parse(text);
		CHECK(json);
		if (!strcmp(f, "hyperfine") ||
		    (!strcmp(kind, "bench") && !strcmp(f, "json")))
			CHECK(cJSON_GetArraySize(cJSON_GetObjectItem(
				      json, "results")) > 0);
		else if (!strcmp(kind, "migrate"))
			CHECK_STR(cJSON_GetStringValue(
					  cJSON_GetObjectItem(json, "schema")),
				  "pmbench-migrate");
		else
			CHECK_STR(cJSON_GetStringValue(
					  cJSON_GetObjectItem(json, "kind")),
				  kind);
		cJSON_Delete(json);
	} else if (!strcmp(f, "html")) {
		CHECK(!strncmp(text, "<!DOCTYPE html>", 15));
		CHECK_CONTAINS(text, "</html>\n");
		CHECK(!strstr(text, "<script"));
		CHECK(!strstr(text, "src="));
		CHECK(!strstr(text, "href="));
	} else if (!strcmp(f, "svg")) {
		if (check_xml_parse(&root, &words, text) < 0) {
			check_fail(__FILE__, __LINE__, "%s svg: %s", kind,
				   words.ptr);
			return;
		}
		CHECK_STR(root.ptr, "svg");
		CHECK_CONTAINS(text, "<svg class=\"chart ");
	}
	pmbench_buf_release(&root);
	pmbench_buf_release(&words);
	*ok = 1;
}

/* Write `doc` in every format and check each. */
static void every_format(int *ok, const struct pmbench_doc *doc)
{
	*ok = 0;
	for (size_t i = 0; i < pmbench_formats_nr; i++) {
		const struct pmbench_format *f = &pmbench_formats[i];
		struct pmbench_buf b = PMBENCH_BUF_INIT;
		int valid = 0;

		if (pmbench_format_write(&b, f, doc) < 0) {
			check_fail(__FILE__, __LINE__, "%s as %s: %s",
				   doc->kind, f->name, pmbench_error_last());
			return;
		}
		check_valid(&valid, f->name, b.ptr, doc->kind);
		if (!valid) {
			check_fail(__FILE__, __LINE__, "%s as %s:\n%s",
				   doc->kind, f->name, b.ptr);
			return;
		}
		pmbench_buf_release(&b);
	}
	*ok = 1;
}

#define EVERY_FORMAT(doc)                        \
	do {                                     \
		int every_ok_ = 0;               \
		every_format(&every_ok_, (doc)); \
		if (!every_ok_)                  \
			return;                  \
	} while (0)

static char *write_as(const char *format, const struct pmbench_doc *doc)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (pmbench_format_write(&b, pmbench_format_get(format), doc) < 0)
		pmbench_buf_addf(&b, "error: %s", pmbench_error_last());
	return pmbench_buf_detach(&b);
}

TEST(bench_in_every_format)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	struct pmbench_buf root = PMBENCH_BUF_INIT, words = PMBENCH_BUF_INIT;
	char *t;

	CHECK_INT(load_sample(&r), 0);
	pmbench_report_bench(&doc, &r);
	EVERY_FORMAT(&doc);
	/* The standalone image: both charts of both scenarios, named. */
	t = write_as("svg", &doc);
	CHECK_INT(check_xml_parse(&root, &words, t), 0);
	CHECK_CONTAINS(words.ptr, "vite-react · install · clean");
	CHECK_CONTAINS(words.ptr, "vite-react · install · cache+lockfile");
	CHECK_CONTAINS(words.ptr, "3.098 s (5 runs)");
	CHECK_CONTAINS(words.ptr, "4.68x");
	CHECK(strstr(t, "<svg class=\"chart time\""));
	free(t);
	/* The legend of the package managers, in every human format. */
	t = write_as("table", &doc);
	CHECK_CONTAINS(t, "package managers\n  npm: 11.19.1 (/usr/bin/npm)");
	free(t);
	t = write_as("html", &doc);
	CHECK_CONTAINS(t, "<tr><th>pnpm</th><td>10.24.0 "
			  "(/usr/local/bin/pnpm)</td></tr>");
	free(t);
	pmbench_doc_release(&doc);
	pmbench_buf_release(&root);
	pmbench_buf_release(&words);
	pmbench_result_release(&r);
}

/*
 * The cell columns are one table: the header people read, the key and
 * the raw number data formats write.
 */
TEST(one_field_table)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	cJSON *root, *first;
	char *t;

	CHECK_INT(load_sample(&r), 0);
	pmbench_report_bench(&doc, &r);
	t = write_as("table", &doc);
	CHECK_CONTAINS(t, "max RSS");
	CHECK_CONTAINS(t, "245 MiB");
	free(t);
	t = write_as("hyperfine", &doc);
	root = cJSON_Parse(t);
	first = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "results"), 0);
	/* Means in KiB, raw: the table's 245 MiB. */
	CHECK_NEAR(cJSON_GetObjectItem(first, "max_rss_kib")->valuedouble /
			   1024,
		   245, 0.5);
	CHECK_NEAR(cJSON_GetObjectItem(first, "ratio")->valuedouble, 4.68,
		   0.005);
	CHECK_INT(cJSON_GetArraySize(cJSON_GetObjectItem(first, "ratio_ci95")),
		  2);
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(first, "significant")));
	cJSON_Delete(root);
	free(t);
	pmbench_doc_release(&doc);
	pmbench_result_release(&r);
}

TEST(cicache_in_every_format)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	struct pmbench_strvec *rows = NULL;
	size_t nr = 0;
	char *t;

	CHECK_INT(load_cicache(&r), 0);
	pmbench_report_cicache(&doc, &r);
	EVERY_FORMAT(&doc);
	t = write_as("table", &doc);
	CHECK_CONTAINS(t, "npm (CI install: npm ci)");
	CHECK_CONTAINS(t, "* fastest");
	CHECK_CONTAINS(t, "1.2 MB");
	CHECK_CONTAINS(t, "! store/zstd-3 round 2: install failed");
	free(t);
	/* The jobs as data: keys and raw numbers. */
	t = write_as("csv", &doc);
	CHECK_INT(check_csv_parse(&rows, &nr, t), 0);
	CHECK_INT(nr, 3);
	CHECK_STR(rows[0].v[0], "pm");
	CHECK_STR(rows[0].v[1], "strategy");
	CHECK_STR(rows[2].v[1], "store/zstd-3");
	CHECK_STR(rows[2].v[2], "hit");
	CHECK_STR(rows[2].v[4], "1");
	/* A result from before the setup step has none to show. */
	CHECK_STR(rows[0].v[6], "setup_s");
	CHECK_STR(rows[2].v[6], "");
	CHECK_STR(rows[0].v[10], "archive_bytes");
	CHECK_STR(rows[2].v[10], "1200000");
	check_csv_free(rows, nr);
	free(t);
	t = write_as("html", &doc);
	CHECK_CONTAINS(t, "<table class=\"jobs\">");
	CHECK_CONTAINS(t, "install failed, &quot;on purpose&quot;");
	free(t);
	/* report picks the kind from the result. */
	pmbench_doc_release(&doc);
	pmbench_report_result(&doc, &r);
	CHECK_STR(doc.kind, "ci-cache");
	pmbench_doc_release(&doc);
	pmbench_result_release(&r);
}

/*
 * tests/data/versions-result.json kept to the cells of `keep` (PM names,
 * NULL-terminated): two results that differ only in pnpm's release.
 */
static int load_versions_of(struct pmbench_result *r, const char *const *keep)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	const char *root = getenv("PMBENCH_SOURCE_DIR");
	cJSON *doc, *cells;
	char *out;
	int ret = -1;

	pmbench_buf_path(&path, root ? root : ".",
			 "tests/data/versions-result.json");
	if (pmbench_fs_read_text(&text, path.ptr, 1 << 24) < 0)
		goto done;
	doc = cJSON_Parse(text.ptr);
	cells = cJSON_GetObjectItemCaseSensitive(doc, "cells");
	for (int i = cJSON_GetArraySize(cells) - 1; i >= 0; i--) {
		const cJSON *pm = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetArrayItem(cells, i), "pm");
		int in = 0;

		for (size_t k = 0; keep[k]; k++)
			in |= !strcmp(pm->valuestring, keep[k]);
		if (!in)
			cJSON_DeleteItemFromArray(cells, i);
	}
	out = cJSON_PrintUnformatted(doc);
	ret = pmbench_result_from_json(r, out, "versions-result.json");
	cJSON_free(out);
	cJSON_Delete(doc);
done:
	pmbench_buf_release(&path);
	pmbench_buf_release(&text);
	return ret;
}

/* pnpm 9 in A, pnpm pinned in B: paired, and the change named. */
TEST(compare_names_a_version_change)
{
	static const char *const in_a[] = { "pnpm@9", "npm", NULL };
	static const char *const in_b[] = { "pnpm", "npm", NULL };
	struct pmbench_result a = PMBENCH_RESULT_INIT, b = PMBENCH_RESULT_INIT;
	struct pmbench_report_compare cmp = PMBENCH_REPORT_COMPARE_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	char *t;

	CHECK_INT(load_versions_of(&a, in_a), 0);
	CHECK_INT(load_versions_of(&b, in_b), 0);
	pmbench_report_compare_init(&cmp, &a, "a.json", &b, "b.json");
	/* pnpm@9 against pnpm and npm against npm, in both scenarios. */
	CHECK_INT(cmp.pairs_nr, 4);
	CHECK_INT(cmp.only_a.nr, 0);
	CHECK_INT(cmp.only_b.nr, 0);
	pmbench_report_compare(&doc, &cmp);
	EVERY_FORMAT(&doc);
	t = write_as("table", &doc);
	CHECK_CONTAINS(t, "version changed: pnpm 9.15.9 → 12.23.0 (A: --pm "
			  "pnpm@9; B: pinned (toolchain))");
	CHECK_CONTAINS(t, "pnpm@9 -> pnpm");
	CHECK_CONTAINS(t, "9.15.9 -> 12.23.0");
	/* npm ran one release in both: not named. */
	CHECK(!strstr(t, "version changed: npm"));
	free(t);
	t = write_as("csv", &doc);
	CHECK_CONTAINS(t, "todo-api,install,clean,pnpm,9.15.9,12.23.0,36.");
	free(t);
	pmbench_doc_release(&doc);
	pmbench_report_compare_release(&cmp);
	pmbench_result_release(&a);
	pmbench_result_release(&b);
}

TEST(compare_in_every_format)
{
	struct pmbench_result a = PMBENCH_RESULT_INIT, b = PMBENCH_RESULT_INIT;
	struct pmbench_report_compare cmp = PMBENCH_REPORT_COMPARE_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	struct pmbench_strvec *rows = NULL;
	size_t nr = 0, col = 0;
	char *t;

	CHECK_INT(load_sample(&a), 0);
	CHECK_INT(load_slower(&b), 0);
	pmbench_report_compare_init(&cmp, &a, "a.json", &b, "b.json");
	CHECK_INT(cmp.pairs_nr, 6);
	pmbench_report_compare(&doc, &cmp);
	EVERY_FORMAT(&doc);
	t = write_as("csv", &doc);
	CHECK_INT(check_csv_parse(&rows, &nr, t), 0);
	CHECK_INT(nr, 7);
	CHECK_STR(rows[0].v[0], "fixture");
	while (col < rows[0].nr && strcmp(rows[0].v[col], "ratio"))
		col++;
	CHECK(col < rows[0].nr);
	/* bun got 50 % slower, exactly. */
	CHECK_STR(rows[3].v[3], "bun");
	CHECK_NEAR(strtod(rows[3].v[col], NULL), 1.5, 1e-6);
	CHECK_STR(rows[0].v[rows[0].nr - 1], "note");
	CHECK_STR(rows[6].v[rows[6].nr - 1], "no successful runs in A and B");
	check_csv_free(rows, nr);
	free(t);
	pmbench_doc_release(&doc);
	pmbench_report_compare_release(&cmp);
	pmbench_result_release(&a);
	pmbench_result_release(&b);
}

/* A claim judged in the sample result, and its report. */
struct judged {
	struct pmbench_result r;
	struct pmbench_claim claim;
	struct pmbench_report_claim j;
	struct pmbench_doc doc;
};

/* `x` from the claim `text` in the sample, tolerance ±10 %. */
static int judge_sample(struct judged *x, const char *text)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_claim claim = PMBENCH_CLAIM_INIT;
	struct pmbench_report_claim j = PMBENCH_REPORT_CLAIM_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;

	x->r = r;
	x->claim = claim;
	x->j = j;
	x->doc = doc;
	if (load_sample(&x->r) || pmbench_claim_parse(&x->claim, text))
		return -1;
	pmbench_report_claim_init(&x->j, &x->r, &x->claim, NULL, NULL, 0, 0.1);
	pmbench_report_claim(&x->doc, &x->j, &x->r);
	return 0;
}

static void judged_release(struct judged *x)
{
	pmbench_doc_release(&x->doc);
	pmbench_report_claim_release(&x->j);
	pmbench_claim_release(&x->claim);
	pmbench_result_release(&x->r);
}

TEST(claim_in_every_format)
{
	struct judged x;
	cJSON *root, *rows;
	char *t;

	CHECK_INT(judge_sample(&x, "bun is 4.5x faster than npm"), 0);
	CHECK_INT(x.j.scenarios_nr, 2);
	CHECK_INT(x.j.judged, 1);
	CHECK_INT(x.j.refuted + x.j.unsure, 0);
	EVERY_FORMAT(&x.doc);
	t = write_as("table", &x.doc);
	CHECK_CONTAINS(t, "  reproduced: bun install is 4.68x (");
	CHECK_CONTAINS(t, "\nverdict: reproduced in 1 of 1 scenario(s)\n");
	free(t);
	t = write_as("json", &x.doc);
	root = cJSON_Parse(t);
	rows = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "tables"),
				   "judgements");
	CHECK_INT(cJSON_GetArraySize(rows), 2);
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(
			  cJSON_GetArrayItem(rows, 0), "verdict")),
		  "reproduced");
	CHECK_CONTAINS(cJSON_GetStringValue(cJSON_GetObjectItem(
			       cJSON_GetArrayItem(rows, 1), "note")),
		       "no verdict");
	cJSON_Delete(root);
	free(t);
	judged_release(&x);
}

/*
 * The claim's decision opens its report in every format: its first PM
 * against its second per scenario, the claim's word per cell, and one
 * sentence with the claim's overall verdict (issue 37).
 */
TEST(claim_decision_first)
{
	struct judged x;
	cJSON *root, *d;
	char *t;

	CHECK_INT(judge_sample(&x, "bun is 20x faster than npm"), 0);
	t = write_as("table", &x.doc);
	CHECK(!strncmp(t, "Decision: against npm", 21));
	CHECK_CONTAINS(t, "  bun     fails in install cache+lockfile  "
			  "4.68x faster ±8% (short)");
	CHECK_CONTAINS(t, "The claim is short in 1 of 1 scenario(s): bun "
			  "fails in install cache+lockfile; install clean: "
			  "4.68x faster ±8% (short).");
	CHECK(strstr(t, "Decision") < strstr(t, "claim: bun install is") &&
	      strstr(t, "claim: bun install is"));
	free(t);
	t = write_as("markdown", &x.doc);
	CHECK(strstr(t, "## Decision") &&
	      strstr(t, "## Decision") < strstr(t, "## vite-react"));
	free(t);
	t = write_as("html", &x.doc);
	CHECK(strstr(t, "Decision: against npm") &&
	      strstr(t, "Decision: against npm") < strstr(t, "vite-react"));
	free(t);
	t = write_as("json", &x.doc);
	root = cJSON_Parse(t);
	d = cJSON_GetObjectItem(root, "decision");
	CHECK_CONTAINS(h_str(d, "verdict"), "The claim is short in 1 of 1");
	CHECK_STR(
		h_str(cJSON_GetArrayItem(cJSON_GetObjectItem(d, "targets"), 0),
		      "install clean"),
		"4.68x faster ±8% (short)");
	cJSON_Delete(root);
	free(t);
	judged_release(&x);
}

TEST(migrate_in_every_format)
{
	static const char *const head =
		"Migration from npm (it ships package-lock.json)\n\n"
		"Decision\n";
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_migrate m = PMBENCH_MIGRATE_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	char *t;

	CHECK_INT(load_sample(&r), 0);
	make_migration(&m);
	pmbench_report_migrate(&doc, &m, &r);
	EVERY_FORMAT(&doc);
	t = write_as("table", &doc);
	/* The decision first, the verdict lines after it as evidence. */
	CHECK(!strncmp(t, head, strlen(head)));
	CHECK_CONTAINS(t,
		       "  pnpm    does not install: 'pnpm install' exited 1");
	CHECK_CONTAINS(t, "\nEvidence\n    (source) npm: installs");
	CHECK_CONTAINS(t, "pnpm: does not install: 'pnpm install' exited 1");
	CHECK_CONTAINS(t, "\nbun against npm\n");
	CHECK_CONTAINS(t, "vite-react · install · clean");
	free(t);
	t = write_as("csv", &doc);
	CHECK(!strncmp(t, "pm,source,installs,install_failure,lockfile,", 44));
	free(t);
	pmbench_doc_release(&doc);
	pmbench_migrate_release(&m);
	pmbench_result_release(&r);
}

/* A parity task of `e`. */
static void add_task(struct pmbench_migrate_pm *e, const char *name, int ok,
		     const char *failure)
{
	struct pmbench_migrate_task *t;

	PMBENCH_ALLOC_GROW(e->tasks, e->tasks_nr + 1, e->tasks_alloc);
	t = &e->tasks[e->tasks_nr++];
	memset(t, 0, sizeof(*t));
	t->name = pmbench_xstrdup(name);
	t->ran = 1;
	t->ok = ok;
	t->failure = failure ? pmbench_xstrdup(failure) : NULL;
	t->wall_s = 1.25;
}

/* What `e` installed: "name@version" words, and that it was scanned. */
static void installed(struct pmbench_migrate_pm *e, const char *const *pkgs)
{
	for (; *pkgs; pkgs++) {
		const char *at = strrchr(*pkgs, '@');
		char *name = pmbench_xstrndup(*pkgs, (size_t)(at - *pkgs));

		pmbench_resolution_add(&e->res, name, at + 1, "node_modules",
				       !strcmp(name, "esbuild"));
		free(name);
	}
	pmbench_resolution_sort(&e->res);
	e->scanned = 1;
}

/* A recipe change of `e`: applied, or an alternative of `choice`. */
static void change(struct pmbench_migrate_pm *e, const char *id,
		   const char *choice, int applied)
{
	struct pmbench_recipe_change *c;

	PMBENCH_ALLOC_GROW(e->recipe.changes, e->recipe.changes_nr + 1,
			   e->recipe.changes_alloc);
	c = &e->recipe.changes[e->recipe.changes_nr++];
	memset(c, 0, sizeof(*c));
	c->id = pmbench_xstrdup(id);
	c->what = pmbench_xstrdup("what it does <and why>");
	c->choice = choice ? pmbench_xstrdup(choice) : NULL;
	c->applied = applied;
	c->diff = pmbench_xstrdup("--- a/package.json\n+++ b/package.json\n"
				  "@@ -1 +1 @@\n-{}\n+{\"private\": true}\n");
	c->lines = 2;
	e->recipe_ran = 1;
}

/*
 * make_migration() with everything a report says: what each PM
 * installed (a version moved, one package only under bun), build
 * output, install-script files, parity tasks, bun's recipe.
 */
static void make_rich_migration(struct pmbench_migrate *m)
{
	static const char *const npm[] = { "esbuild@0.28.2", "react@18.2.0",
					   "zod@3.24.1", NULL };
	static const char *const bun[] = { "esbuild@0.28.2", "react@18.3.1",
					   "zod@3.24.1", "@types/node@20.0.0",
					   NULL };
	struct pmbench_migrate_pm *src, *e;

	make_migration(m);
	m->seed = 7;
	pmbench_strvec_push(&m->tasks, "build");
	pmbench_strvec_push(&m->tasks, "test");
	src = &m->pms[0];
	e = &m->pms[1];
	installed(src, npm);
	installed(e, bun);
	for (int k = 0; k < 2; k++) {
		struct pmbench_migrate_pm *x = k ? e : src;

		pmbench_strvec_push(&x->build_files, "dist/app.js 4096");
		pmbench_strvec_push(&x->build_files,
				    k ? "dist/b.js 9" : "dist/a.js 7");
		x->build_bytes = k ? 4105 : 4103;
		pmbench_strvec_push(&x->script_files,
				    "esbuild@0.28.2\tbin/esbuild");
		add_task(x, "build", 1, NULL);
		add_task(x, "test", !k,
			 k ? "exit 1: 1 of 3 tests failed" : NULL);
	}
	pmbench_strvec_push(&src->script_files, "esbuild@0.28.2\tinstall.log");
	/* Both lists are sorted, as the engine makes them. */
	for (int k = 0; k < 2; k++) {
		pmbench_strvec_sort(&(k ? e : src)->build_files, 0);
		pmbench_strvec_sort(&(k ? e : src)->script_files, 0);
	}
	change(e, "private", NULL, 1);
	change(e, "workspace-protocol", "linking", 0);
}

/* The sample's migration with pnpm installing; bun installs `bun_pkgs`. */
static void weighed_migration(struct pmbench_migrate *m,
			      const char *const *bun_pkgs)
{
	static const char *const npm[] = { "react@18.2.0", "zod@3.24.1", NULL };

	make_migration(m);
	free(m->pms[2].prime_failure);
	m->pms[2].prime_failure = NULL;
	installed(&m->pms[0], npm);
	installed(&m->pms[1], bun_pkgs);
	installed(&m->pms[2], npm);
	m->pms[1].recipe_ran = 1;
	change(&m->pms[2], "pnpm-workspace", NULL, 1);
}

/* The verdict of the sample's migration where bun installs `bun_pkgs`. */
static char *weighed_verdict(const char *const *bun_pkgs)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_migrate m = PMBENCH_MIGRATE_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	char *v = NULL;

	if (!load_sample(&r)) {
		weighed_migration(&m, bun_pkgs);
		pmbench_report_migrate(&doc, &m, &r);
		v = doc.decision ? pmbench_xstrdup(doc.decision) : NULL;
	}
	pmbench_doc_release(&doc);
	pmbench_migrate_release(&m);
	pmbench_result_release(&r);
	return v;
}

/*
 * The fastest target moves versions and another keeps every one: the
 * sentence names the keeper first and the faster one with what it moves,
 * as the table shows them (bun 4.68x faster in the sample, react 18 to
 * 19 and one package more; pnpm 1.49x-2.64x, the same versions). When
 * the fastest keeps every version too, it is named alone (issue 37).
 */
TEST(migrate_decision_weighs_versions)
{
	static const char *const moved[] = { "react@19.0.0", "zod@3.24.1",
					     "@types/node@20.0.0", NULL };
	static const char *const same[] = { "react@18.2.0", "zod@3.24.1",
					    NULL };
	char *v = weighed_verdict(moved);

	CHECK(v);
	/* The ratios of the sample's medians: 1.49x clean, 2.6x warm. */
	CHECK(!strncmp(v, "Move to pnpm to keep every version (1.49x-2.6", 45));
	CHECK_CONTAINS(v, "x faster, 1 change); bun is 4.6");
	CHECK_CONTAINS(v, "x faster but moves 1 version (1 major), adds 1 "
			  "package.");
	free(v);
	v = weighed_verdict(same);
	CHECK(v);
	CHECK(!strncmp(v, "Move to bun: installs; versions: same 2;", 40));
	CHECK(!strstr(v, "keep every version"));
	free(v);
}

/*
 * A target whose every timed run failed in one scenario, where the
 * source's ran, does not install: its decision row says where and why,
 * and the verdict does not move to it (bun, the fastest and keeping
 * every version, otherwise chosen); the evidence's verdict line agrees.
 */
TEST(migrate_decision_a_target_that_fails_a_scenario)
{
	static const char *const same[] = { "react@18.2.0", "zod@3.24.1",
					    NULL };
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_migrate m = PMBENCH_MIGRATE_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	struct pmbench_cell *c;
	char *t;

	CHECK_INT(load_sample(&r), 0);
	c = (struct pmbench_cell *)pmbench_result_find_cell(
		&r, "vite-react", "install", "clean", "bun");
	CHECK(c && c->samples_nr > 1);
	for (size_t i = 0; i < c->samples_nr; i++) {
		c->samples[i].ok = 0;
		free(c->samples[i].failure);
		c->samples[i].failure =
			pmbench_xstrdup("exit 1: error: lockfile had changes");
	}
	weighed_migration(&m, same);
	pmbench_report_migrate(&doc, &m, &r);
	CHECK(doc.decision && strncmp(doc.decision, "Move to bun", 11));
	t = write_as("table", &doc);
	CHECK_CONTAINS(t, "fails in install clean (exit 1: error: lockfile "
			  "had changes)");
	free(t);
	/*
	 * The evidence's verdict line says the same, not "bun: installs"
	 * (it did, from its own test of the prime install only).
	 */
	t = write_as("markdown", &doc);
	CHECK_CONTAINS(t, "- bun: fails in install clean (exit 1: error: "
			  "lockfile had changes); lockfile: ");
	CHECK(!strstr(t, "bun: installs"));
	CHECK_CONTAINS(t, "- pnpm: installs (lockfile: ");
	free(t);
	/*
	 * The data table too: bun's installs is 0, with the decision's words
	 * as its install_failure (it said 1 and nothing, from the priming
	 * install alone); pnpm's is 1. The JSON's decision says the same.
	 */
	t = write_as("csv", &doc);
	CHECK_CONTAINS(t, "pm,source,installs,install_failure,");
	CHECK_CONTAINS(t, "\nbun,0,0,fails in install clean (exit 1: error: "
			  "lockfile had changes),");
	CHECK_CONTAINS(t, "\npnpm,0,1,,");
	free(t);
	t = write_as("json", &doc);
	CHECK_CONTAINS(t, "\"installs\":\t\"fails in install clean (exit 1: "
			  "error: lockfile had changes)\"");
	free(t);
	pmbench_doc_release(&doc);
	pmbench_migrate_release(&m);
	pmbench_result_release(&r);
}

/*
 * A migration written as its JSON report and read back (resultfile.h)
 * is the same model: every format writes the same bytes from either,
 * and the JSON read back is written again byte for byte.
 */
TEST(migrate_read_back_in_every_format)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_migrate m = PMBENCH_MIGRATE_INIT;
	struct pmbench_result_file f = PMBENCH_RESULT_FILE_INIT;
	struct pmbench_doc a = PMBENCH_DOC_INIT, b = PMBENCH_DOC_INIT;
	char *json;

	CHECK_INT(load_sample(&r), 0);
	make_rich_migration(&m);
	json = pmbench_report_migrate_json(&m, &r);
	CHECK_INT(pmbench_result_file_parse(&f, json, "m.json"), 0);
	CHECK_INT(f.kind, PMBENCH_RESULT_MIGRATE);
	CHECK_INT(f.version, PMBENCH_MIGRATE_VERSION);
	CHECK(!f.lacks);
	CHECK_INT(f.migrate.pms[1].res.nr, 4);
	pmbench_report_migrate(&a, &m, &r);
	pmbench_report_migrate(&b, &f.migrate, &f.result);
	for (size_t i = 0; i < pmbench_formats_nr; i++) {
		char *x = write_as(pmbench_formats[i].name, &a);
		char *y = write_as(pmbench_formats[i].name, &b);

		size_t k = 0, line = 1, start = 0;

		for (; x[k] && x[k] == y[k]; k++)
			if (x[k] == '\n') {
				line++;
				start = k + 1;
			}
		if (x[k] || y[k])
			check_fail(__FILE__, __LINE__,
				   "%s differs at line %zu:\n%.*s\n%.*s",
				   pmbench_formats[i].name, line,
				   (int)strcspn(x + start, "\n"), x + start,
				   (int)strcspn(y + start, "\n"), y + start);
		free(x);
		free(y);
	}
	CHECK_STR(b.json, json);
	CHECK_CONTAINS(json, "\"react\":\t[\"18.2.0\"]");
	free(json);
	pmbench_doc_release(&a);
	pmbench_doc_release(&b);
	pmbench_result_file_release(&f);
	pmbench_migrate_release(&m);
	pmbench_result_release(&r);
}

/* A field of CSV row `row` under `key` of the header `head`. */
static const char *csv_at(const struct pmbench_strvec *head,
			  const struct pmbench_strvec *row, const char *key)
{
	long k = pmbench_strvec_find(head, key);

	return k < 0 || (size_t)k >= row->nr ? "(none)" : row->v[k];
}

/* The moves row of `pm` and `check` in CSV rows `rows`, or NULL. */
static const struct pmbench_strvec *move_row(const struct pmbench_strvec *rows,
					     size_t nr, const char *pm,
					     const char *check)
{
	for (size_t i = 1; i < nr; i++)
		if (!strcmp(csv_at(rows, &rows[i], "pm"), pm) &&
		    !strcmp(csv_at(rows, &rows[i], "check"), check))
			return &rows[i];
	return NULL;
}

/*
 * Two migrations: in B pnpm installs, bun's test passes, its build
 * output and a version move, and bun is 1.5 times slower in every run.
 */
TEST(compare_two_migrations)
{
	struct pmbench_result ra = PMBENCH_RESULT_INIT,
			      rb = PMBENCH_RESULT_INIT;
	struct pmbench_migrate ma = PMBENCH_MIGRATE_INIT;
	struct pmbench_migrate mb = PMBENCH_MIGRATE_INIT;
	struct pmbench_report_compare c = PMBENCH_REPORT_COMPARE_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	struct pmbench_strvec *rows = NULL;
	const struct pmbench_strvec *row;
	size_t nr = 0;
	char *t;

	CHECK_INT(load_sample(&ra), 0);
	CHECK_INT(load_slower(&rb), 0);
	make_rich_migration(&ma);
	make_rich_migration(&mb);
	free(mb.pms[2].prime_failure);
	mb.pms[2].prime_failure = NULL;
	mb.pms[1].tasks[1].ok = 1;
	free(mb.pms[1].res.pkgs[2].version); /* react */
	mb.pms[1].res.pkgs[2].version = pmbench_xstrdup("19.0.0");
	mb.pms[1].build_bytes = 5000;
	pmbench_report_compare_init(&c, &ra, "a.json", &rb, "b.json");
	pmbench_report_compare_migrate(&doc, &c, &ma, &mb);
	EVERY_FORMAT(&doc);
	t = write_as("table", &doc);
	CHECK_CONTAINS(t, "bun against npm\n");
	CHECK_CONTAINS(t, "installs: no: 'pnpm install' exited 1 <&> -> yes "
			  "(moved)");
	CHECK_CONTAINS(t, "test: test FAILS -> test ok (moved)");
	CHECK_CONTAINS(t, "bun resolves differently in B than in A: 1 other "
			  "versions, 0 only in A, 0 only in B");
	CHECK_CONTAINS(t, "react 18.3.1 -> 19.0.0 (major)");
	/* Then the cells, as compare shows two results. */
	CHECK_CONTAINS(t, "vite-react · install · clean");
	free(t);
	t = write_as("csv", &doc);
	CHECK_INT(check_csv_parse(&rows, &nr, t), 0);
	CHECK_STR(csv_at(rows, &rows[0], "moved"), "moved");
	row = move_row(rows, nr, "bun", "installs");
	CHECK(row);
	CHECK_STR(csv_at(rows, row, "a"), "yes");
	CHECK_STR(csv_at(rows, row, "moved"), "0");
	row = move_row(rows, nr, "bun", "build");
	CHECK(row);
	CHECK_CONTAINS(csv_at(rows, row, "b"), "build differs");
	CHECK_STR(csv_at(rows, row, "moved"), "1");
	row = move_row(rows, nr, "pnpm", "versions");
	CHECK(row);
	CHECK_STR(csv_at(rows, row, "a"), "not scanned (no install)");
	/* Every bun run 1.5 times longer: its speed-up a third lower. */
	row = move_row(rows, nr, "bun", "install clean");
	CHECK(row);
	CHECK_NEAR(atof(csv_at(rows, row, "speedup_a")) /
			   atof(csv_at(rows, row, "speedup_b")),
		   1.5, 1e-9);
	check_csv_free(rows, nr);
	free(t);
	pmbench_doc_release(&doc);
	pmbench_report_compare_release(&c);
	pmbench_migrate_release(&ma);
	pmbench_migrate_release(&mb);
	pmbench_result_release(&ra);
	pmbench_result_release(&rb);
}

/*
 * A source that did not install: what its scripts did is not known, and
 * said so (issue 32: "scripts: yarn: ?").
 */
TEST(migrate_from_a_failed_source)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_migrate m = PMBENCH_MIGRATE_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	char *t;

	CHECK_INT(load_sample(&r), 0);
	make_migration(&m);
	free(m.pms[0].scripts);
	m.pms[0].scripts = NULL;
	m.pms[0].prime_failure = pmbench_xstrdup("'npm ci' exited 1");
	pmbench_report_migrate(&doc, &m, &r);
	t = write_as("markdown", &doc);
	CHECK_CONTAINS(t, "- scripts: npm: not known: it did not install\n");
	CHECK_CONTAINS(t, "- scripts: bun: runs dependency install scripts\n");
	CHECK(!strstr(t, ": ?"));
	free(t);
	pmbench_doc_release(&doc);
	pmbench_migrate_release(&m);
	pmbench_result_release(&r);
}

/* A format that has nothing to show says so instead of writing. */
TEST(nothing_to_chart)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_report_compare cmp = PMBENCH_REPORT_COMPARE_INIT;
	struct pmbench_result empty = PMBENCH_RESULT_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	CHECK_INT(load_sample(&r), 0);
	pmbench_report_compare_init(&cmp, &r, "a.json", &empty, "b.json");
	pmbench_report_compare(&doc, &cmp);
	CHECK_INT(pmbench_format_write(&b, pmbench_format_get("svg"), &doc),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "no chart");
	CHECK_INT(b.len, 0);
	pmbench_doc_release(&doc);
	pmbench_report_compare_release(&cmp);
	pmbench_result_release(&r);
	pmbench_buf_release(&b);
}

/*
 * A report in any format given where a result is read is told for what
 * it is, never read as a result nor refused as broken JSON (issue 38:
 * 'r.html': malformed JSON at line 1, column 1); so is an empty file.
 * A result cut short is malformed JSON, where it breaks.
 */
TEST(a_report_is_told_from_a_result)
{
	static const struct {
		const char *text, *what;
	} others[] = {
		{ "", "an empty file, not a result" },
		{ " \n\t\n", "an empty file, not a result" },
		{ "\xef\xbb\xbf<html>", "an HTML report (--format html)" },
		{ "<?xml version=\"1.0\"?>\n<!-- x -->\n<svg/>",
		  "an SVG report (--format svg)" },
		{ "<?xml version=\"1.0\"?>\n<feed/>", "text, not JSON" },
	};
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	struct pmbench_result_file f = PMBENCH_RESULT_FILE_INIT;

	CHECK_INT(load_sample(&r), 0);
	pmbench_report_bench(&doc, &r);
	for (size_t i = 0; i < pmbench_formats_nr; i++) {
		char *t = write_as(pmbench_formats[i].name, &doc);

		if (pmbench_result_file_parse(&f, t, "r") < 0)
			check_fail(__FILE__, __LINE__, "%s: %s",
				   pmbench_formats[i].name,
				   pmbench_error_last());
		else if (f.kind != PMBENCH_RESULT_NONE || !f.what)
			check_fail(__FILE__, __LINE__, "%s read as %s",
				   pmbench_formats[i].name, f.what);
		pmbench_result_file_release(&f);
		free(t);
	}
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(others); i++) {
		CHECK_INT(pmbench_result_file_parse(&f, others[i].text, "r"),
			  0);
		CHECK_INT(f.kind, PMBENCH_RESULT_NONE);
		CHECK_CONTAINS(f.what, others[i].what);
		pmbench_result_file_release(&f);
	}
	CHECK_INT(pmbench_result_file_parse(&f, "\n {\"schema\": \"pm", "r"),
		  PMBENCH_EINVALID);
	CHECK_STR(pmbench_error_last(), "'r': malformed JSON at line 2, "
					"column 14");
	pmbench_error_clear();
	pmbench_doc_release(&doc);
	pmbench_result_release(&r);
}

/* The readers above catch what they are there to catch. */
TEST(readers_catch_broken_files)
{
	static const char *const bad_xml[] = {
		"<svg><g></svg>",
		"<svg a=b/>",
		"<svg a=\"<\"/>",
		"<svg>&x;</svg>",
		"<svg>a & b</svg>",
		"<svg/><svg/>",
		"<svg>",
		"text",
		"<svg><g/></svg> x",
	};
	struct pmbench_buf root = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	struct pmbench_strvec *rows = NULL;
	size_t nr = 0;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(bad_xml); i++) {
		pmbench_buf_reset(&text);
		if (!check_xml_parse(&root, &text, bad_xml[i])) {
			check_fail(__FILE__, __LINE__, "accepted '%s'",
				   bad_xml[i]);
			return;
		}
	}
	pmbench_buf_reset(&root);
	pmbench_buf_reset(&text);
	CHECK_INT(check_xml_parse(&root, &text,
				  "<?xml version=\"1.0\"?>\n<svg x=\"1\">"
				  "<text>a &amp; b</text><g/></svg>\n"),
		  0);
	CHECK_STR(root.ptr, "svg");
	CHECK_STR(text.ptr, "a & b\n");
	CHECK_INT(check_csv_parse(&rows, &nr, "a,\"b\r\n"), -1);
	CHECK_INT(check_csv_parse(&rows, &nr, "a,b\"c\r\n"), -1);
	CHECK_INT(check_csv_parse(&rows, &nr, "a,\"b,\"\"c\"\"\"\r\n1,2\n"), 0);
	CHECK_INT(nr, 2);
	CHECK_STR(rows[0].v[1], "b,\"c\"");
	check_csv_free(rows, nr);
	pmbench_buf_release(&root);
	pmbench_buf_release(&text);
}

CHECK_MAIN(CASE(readers_catch_broken_files), CASE(bench_in_every_format),
	   CASE(one_field_table), CASE(cicache_in_every_format),
	   CASE(compare_in_every_format), CASE(compare_names_a_version_change),
	   CASE(claim_in_every_format), CASE(claim_decision_first),
	   CASE(migrate_in_every_format),
	   CASE(migrate_decision_weighs_versions),
	   CASE(migrate_decision_a_target_that_fails_a_scenario),
	   CASE(migrate_read_back_in_every_format),
	   CASE(compare_two_migrations), CASE(migrate_from_a_failed_source),
	   CASE(nothing_to_chart), CASE(a_report_is_told_from_a_result))
