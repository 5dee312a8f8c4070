/*
 * Bencher's metric format (BMF, https://bencher.dev/bmf.json; the
 * committed copy is tests/data/schemas/bencher-bmf.json): an object of
 * benchmarks, each an object of measures, each {"value", "lower_value",
 * "upper_value"}. A benchmark per timed cell ("todo-api/install/clean/
 * npm"), a measure per figure (figures.c): "latency" for the wall time
 * (Bencher's built-in Latency, in nanoseconds), "task-clock" (ns),
 * "instructions", and "explain-<phase>" (ns) for each phase its PM's
 * own timers named; the bounds are the 95 % interval.
 */
#include "pmbench/common.h"

#include <ctype.h>

#include <cjson/cJSON.h>

#include "internal.h"

/* Bencher takes a measure's name or slug up to 64 characters. */
#define MEASURE_MAX 64

static cJSON *must(cJSON *item)
{
	if (!item)
		pmbench_die("out of memory building JSON");
	return item;
}

/* "explain-reify-unpack": lower case, a '-' for each run of others. */
static void measure_name(struct pmbench_buf *out,
			 const struct pmbench_figure *g)
{
	pmbench_buf_reset(out);
	if (!g->phase) {
		pmbench_buf_adds(out,
				 strcmp(g->name, "wall") ? g->name : "latency");
		return;
	}
	pmbench_buf_adds(out, "explain-");
	for (const char *p = g->name; *p && out->len < MEASURE_MAX - 4; p++) {
		if (isalnum((unsigned char)*p))
			pmbench_buf_addch(out,
					  (char)tolower((unsigned char)*p));
		else if (out->ptr[out->len - 1] != '-')
			pmbench_buf_addch(out, '-');
	}
	while (out->len > 8 && out->ptr[out->len - 1] == '-')
		pmbench_buf_setlen(out, out->len - 1);
}

static void measure(cJSON *bench, const struct pmbench_figure *g)
{
	struct pmbench_buf name = PMBENCH_BUF_INIT;
	double scale = g->unit == PMBENCH_FIGURE_SECONDS ? 1e9 : 1;
	cJSON *m = must(cJSON_CreateObject());

	measure_name(&name, g);
	/* Two phases with one slug: the second gets "-2", and so on. */
	for (int k = 2; cJSON_GetObjectItemCaseSensitive(bench, name.ptr);
	     k++) {
		measure_name(&name, g);
		pmbench_buf_addf(&name, "-%d", k);
	}
	must(cJSON_AddNumberToObject(m, "value", g->median * scale));
	must(cJSON_AddNumberToObject(m, "lower_value", g->lo * scale));
	must(cJSON_AddNumberToObject(m, "upper_value", g->hi * scale));
	if (!cJSON_AddItemToObject(bench, name.ptr, m))
		pmbench_die("out of memory building JSON");
	pmbench_buf_release(&name);
}

static void benchmark(cJSON *root, const struct pmbench_report *rep, size_t i,
		      const char *label)
{
	struct pmbench_figures f = PMBENCH_FIGURES_INIT;
	struct pmbench_buf name = PMBENCH_BUF_INIT;
	cJSON *bench;

	pmbench_figures_of_cell(&f, rep, i);
	if (f.nr) {
		pmbench_fmt_bench_name(&name, rep->cells[i].cell, label);
		bench = must(cJSON_CreateObject());
		for (size_t k = 0; k < f.nr; k++)
			measure(bench, &f.v[k]);
		if (!cJSON_AddItemToObject(root, name.ptr, bench))
			pmbench_die("out of memory building JSON");
	}
	pmbench_figures_release(&f);
	pmbench_buf_release(&name);
}

int pmbench_fmt_bmf(struct pmbench_buf *out, const struct pmbench_doc *doc)
{
	cJSON *root;
	char *text;

	if (!doc->timed_nr)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "this %s report has no timed runs "
					  "for Bencher's metric format",
					  doc->kind);
	root = must(cJSON_CreateObject());
	for (size_t r = 0; r < doc->timed_nr; r++)
		for (size_t i = 0; i < doc->timed[r]->cells_nr; i++)
			benchmark(root, doc->timed[r], i, doc->timed_labels[r]);
	if (!root->child) {
		cJSON_Delete(root);
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "this %s report has no successful "
					  "runs for Bencher's metric format",
					  doc->kind);
	}
	text = cJSON_Print(root);
	if (!text)
		pmbench_die("out of memory printing JSON");
	pmbench_buf_adds(out, text);
	pmbench_buf_addch(out, '\n');
	cJSON_free(text);
	cJSON_Delete(root);
	return 0;
}
