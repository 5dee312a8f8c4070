/*
 * github-action-benchmark's customSmallerIsBetter JSON: an array of
 * {"name", "unit", "value", "range", "extra"} (its README, and the zod
 * schema BenchmarkResult in its src/extract.ts; the committed copy is
 * tests/data/schemas/github-action-benchmark.json). One entry per figure
 * of every timed cell (figures.c): "<fixture>/<task>/<scenario>/<pm>/
 * wall" and the like; its interval as "± <half-width>" (the action parses
 * "±" and a number, so the larger side of the asymmetric interval) and
 * exactly in "extra". Every figure is smaller-is-better.
 */
#include "pmbench/common.h"

#include <math.h>

#include <cjson/cJSON.h>

#include "internal.h"

static cJSON *must(cJSON *item)
{
	if (!item)
		pmbench_die("out of memory building JSON");
	return item;
}

/* "todo-api/install/clean/npm" (and " [A]" for a comparison's side). */
void pmbench_fmt_bench_name(struct pmbench_buf *out,
			    const struct pmbench_cell *c, const char *label)
{
	pmbench_buf_addf(out, "%s/%s/%s/%s", c->fixture, c->task, c->scenario,
			 c->pm);
	if (label)
		pmbench_buf_addf(out, " [%s]", label);
}

/* A value as the JSON carries it: seconds, or a count. */
static void add_value(struct pmbench_buf *b, const struct pmbench_figure *g,
		      double v)
{
	if (g->unit == PMBENCH_FIGURE_COUNT)
		pmbench_buf_addf(b, "%.0f", v);
	else
		pmbench_buf_addf(b, "%.9g s", v);
}

static void extra(struct pmbench_buf *b, const struct pmbench_figure *g,
		  const struct pmbench_cell *c)
{
	pmbench_buf_adds(b, "median of ");
	pmbench_buf_addf(b, "%zu %s run%s; 95%% CI ", g->n,
			 g->phase ? "untimed --explain" : "timed",
			 g->n == 1 ? "" : "s");
	add_value(b, g, g->lo);
	pmbench_buf_adds(b, " to ");
	add_value(b, g, g->hi);
	if (g->phase)
		pmbench_buf_addf(b, "\n%s's own timer (%s), kind %s%s", c->pm,
				 c->explain_how ? c->explain_how : "?",
				 pmbench_pm_phase_kind_name(g->kind),
				 g->arrival ? ", timed by its lines' arrival"
					    : "");
	if (g->phase && g->count >= 0)
		pmbench_buf_addf(b, "\ncount %.0f", g->count);
}

static void entry(cJSON *arr, const struct pmbench_figure *g,
		  const struct pmbench_cell *c, const char *label)
{
	cJSON *o = must(cJSON_CreateObject());
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	double half = fmax(g->median - g->lo, g->hi - g->median);

	pmbench_fmt_bench_name(&b, c, label);
	pmbench_buf_addf(&b, "/%s%s", g->phase ? "explain:" : "", g->name);
	must(cJSON_AddStringToObject(o, "name", b.ptr));
	must(cJSON_AddStringToObject(
		o, "unit",
		g->unit == PMBENCH_FIGURE_COUNT ? "instructions" : "s"));
	must(cJSON_AddNumberToObject(o, "value", g->median));
	pmbench_buf_reset(&b);
	pmbench_buf_addf(&b, "± %.9g", half > 0 ? half : 0);
	must(cJSON_AddStringToObject(o, "range", b.ptr));
	pmbench_buf_reset(&b);
	extra(&b, g, c);
	must(cJSON_AddStringToObject(o, "extra", b.ptr));
	if (!cJSON_AddItemToArray(arr, o))
		pmbench_die("out of memory building JSON");
	pmbench_buf_release(&b);
}

int pmbench_fmt_gab(struct pmbench_buf *out, const struct pmbench_doc *doc)
{
	cJSON *arr;
	char *text;

	if (!doc->timed_nr)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "this %s report has no timed runs "
					  "for github-action-benchmark's "
					  "format",
					  doc->kind);
	arr = must(cJSON_CreateArray());
	for (size_t r = 0; r < doc->timed_nr; r++) {
		const struct pmbench_report *rep = doc->timed[r];

		for (size_t i = 0; i < rep->cells_nr; i++) {
			struct pmbench_figures f = PMBENCH_FIGURES_INIT;

			pmbench_figures_of_cell(&f, rep, i);
			for (size_t k = 0; k < f.nr; k++)
				entry(arr, &f.v[k], rep->cells[i].cell,
				      doc->timed_labels[r]);
			pmbench_figures_release(&f);
		}
	}
	if (!arr->child) {
		cJSON_Delete(arr);
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "this %s report has no successful "
					  "runs for github-action-benchmark's "
					  "format",
					  doc->kind);
	}
	text = cJSON_Print(arr);
	if (!text)
		pmbench_die("out of memory printing JSON");
	pmbench_buf_adds(out, text);
	pmbench_buf_addch(out, '\n');
	cJSON_free(text);
	cJSON_Delete(arr);
	return 0;
}
