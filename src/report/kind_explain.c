/*
 * Where a run's time went, per scenario: what each PM's own timers said
 * in its --explain runs (the phases it names, medians over the runs),
 * and the work its process tree did per timed run (task-clock and
 * instructions, perf events) with its run-to-run spread beside the wall
 * time's. Both from the cell's figures (figures.c).
 */
#include "pmbench/common.h"

#include <math.h>

#include "internal.h"

/* "12.35 G", "812.4 M": a count of instructions. */
static void add_count(struct pmbench_buf *b, double v)
{
	if (v >= 1e9)
		pmbench_buf_addf(b, "%.2f G", v / 1e9);
	else if (v >= 1e6)
		pmbench_buf_addf(b, "%.1f M", v / 1e6);
	else
		pmbench_buf_addf(b, "%.0f", v);
}

static void add_figure(struct pmbench_buf *b, const struct pmbench_figure *g)
{
	if (g->unit == PMBENCH_FIGURE_COUNT)
		add_count(b, g->median);
	else
		pmbench_report_add_duration(b, g->median);
}

/* "3 of 3 runs" and why the others failed. */
static void runs_said(struct pmbench_buf *b, const struct pmbench_cell *c)
{
	size_t ok = 0;
	const char *why = NULL;

	for (size_t r = 0; r < c->explain_nr; r++) {
		if (c->explain[r].ok)
			ok++;
		else if (!why)
			why = c->explain[r].failure;
	}
	pmbench_buf_addf(b, "%zu of %zu run%s", ok, c->explain_nr,
			 c->explain_nr == 1 ? "" : "s");
	if (ok < c->explain_nr && why)
		pmbench_buf_addf(b, "; failed: %s", why);
}

/*
 * One PM's line: "npm (--timing, 3 of 3 runs): npm:load 35.0 ms ·
 * idealTree 2.027 s (114) · ... · total 4.731 s; timed: 8.258 s".
 */
static int explain_line(struct pmbench_buf *b,
			const struct pmbench_report_cell *rc,
			const struct pmbench_figures *f)
{
	const char *sep = "";
	int arrival = 0;

	pmbench_buf_addf(b, "%s (%s, ", rc->cell->pm,
			 rc->cell->explain_how ? rc->cell->explain_how : "?");
	runs_said(b, rc->cell);
	pmbench_buf_adds(b, ")");
	for (size_t i = 0; i < f->nr; i++) {
		const struct pmbench_figure *g = &f->v[i];

		if (!g->phase)
			continue;
		pmbench_buf_addf(b, "%s%s %s", *sep ? sep : ": ", g->name,
				 g->arrival ? "~" : "");
		pmbench_report_add_duration(b, g->median);
		if (g->count >= 0)
			pmbench_buf_addf(b, " (%.0f)", g->count);
		arrival |= g->arrival;
		sep = " · ";
	}
	if (rc->n) {
		pmbench_buf_adds(b, "; timed runs: ");
		pmbench_report_add_duration(b, rc->wall.median);
	}
	return arrival;
}

static const struct pmbench_doc_column explain_cols[] = {
	{ "pm", 0, { { "pm", PMBENCH_DOC_TEXT, 0 } } },
	{ "phase", 0, { { "phase", PMBENCH_DOC_TEXT, 0 } } },
	{ "kind", 0, { { "kind", PMBENCH_DOC_TEXT, 0 } } },
	{ "median",
	  PMBENCH_DOC_RIGHT,
	  { { "median_s", PMBENCH_DOC_SECONDS, 0 } } },
	{ "95% CI",
	  PMBENCH_DOC_RIGHT,
	  { { "median_ci95_s", PMBENCH_DOC_SECONDS, PMBENCH_DOC_INTERVAL } } },
	{ "count", PMBENCH_DOC_RIGHT, { { "count", PMBENCH_DOC_NUMBER, 0 } } },
	{ "runs", PMBENCH_DOC_RIGHT, { { "runs", PMBENCH_DOC_COUNT, 0 } } },
	{ "timed by", 0, { { "timed_by", PMBENCH_DOC_TEXT, 0 } } },
};

static void explain_rows(struct pmbench_doc_table *t, const char *pm,
			 const struct pmbench_figures *f)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < f->nr; i++) {
		const struct pmbench_figure *g = &f->v[i];
		struct pmbench_doc_row *row;

		if (!g->phase)
			continue;
		row = pmbench_doc_row(t);
		pmbench_doc_name(row, 0, pm);
		pmbench_doc_name(row, 1, g->name);
		pmbench_doc_name(row, 2, pmbench_pm_phase_kind_name(g->kind));
		pmbench_buf_reset(&b);
		pmbench_report_add_duration(&b, g->median);
		pmbench_doc_text(row, 3, "%s", b.ptr);
		pmbench_doc_num(row, 3, 0, g->median);
		pmbench_buf_reset(&b);
		pmbench_report_add_duration(&b, g->lo);
		pmbench_buf_adds(&b, " – ");
		pmbench_report_add_duration(&b, g->hi);
		pmbench_doc_text(row, 4, "%s", b.ptr);
		pmbench_doc_interval(row, 4, 0, g->lo, g->hi);
		if (g->count >= 0) {
			pmbench_doc_text(row, 5, "%.0f", g->count);
			pmbench_doc_num(row, 5, 0, g->count);
		}
		pmbench_doc_text(row, 6, "%zu", g->n);
		pmbench_doc_num(row, 6, 0, (double)g->n);
		pmbench_doc_name(row, 7, g->arrival ? "arrival" : "pm");
	}
	pmbench_buf_release(&b);
}

void pmbench_kind_explain(struct pmbench_doc *d,
			  const struct pmbench_report *rep, size_t g)
{
	struct pmbench_doc_block *list = NULL;
	struct pmbench_doc_table *t = NULL;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int arrival = 0;

	for (size_t i = g; i < rep->cells_nr; i++) {
		struct pmbench_figures f = PMBENCH_FIGURES_INIT;

		if (!pmbench_report_same_group(rep, g, i) ||
		    !rep->cells[i].cell->explain_nr)
			continue;
		if (!list) {
			pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
					 "what each PM's own timers said "
					 "(--explain: untimed runs with its "
					 "timers on; medians):");
			/* A line per PM on the terminal, a table on pages. */
			list = pmbench_doc_list(d, PMBENCH_DOC_TERM);
			t = pmbench_doc_table(d, PMBENCH_DOC_PAGE, "explain",
					      explain_cols,
					      PMBENCH_ARRAY_SIZE(explain_cols));
		}
		pmbench_figures_of_cell(&f, rep, i);
		pmbench_buf_reset(&b);
		arrival |= explain_line(&b, &rep->cells[i], &f);
		pmbench_doc_item(list, "%s", b.ptr);
		explain_rows(t, rep->cells[i].cell->pm, &f);
		pmbench_figures_release(&f);
	}
	if (arrival)
		pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
				 "~: the PM printed no time for it; timed by "
				 "when its lines reached pmbench");
	pmbench_buf_release(&b);
}

/* ---- Work per run ---------------------------------------------------------- */

/* Whether an earlier scenario of `rep` already showed work figures. */
static int work_shown_before(const struct pmbench_report *rep, size_t g)
{
	for (size_t i = 0; i < g; i++) {
		size_t n = 0;
		double *v = pmbench_cell_metric_values(rep->cells[i].cell,
						       "task_clock_s", &n);

		free(v);
		if (n)
			return 1;
	}
	return 0;
}

/* " (spread 3.1 %)" of a metric (NULL: the wall time), if it has one. */
static void add_spread(struct pmbench_buf *b, const struct pmbench_cell *c,
		       const char *metric)
{
	double cv = pmbench_figure_cv(c, metric);

	if (cv >= 0)
		pmbench_buf_addf(b, " (spread %.2g %%)", cv * 100);
}

/*
 * "npm: instructions 12.35 G (spread 0.02 %); task-clock 2.799 s
 * (spread 3.1 %); wall 8.258 s (spread 6.4 %)".
 */
static void work_item(struct pmbench_doc_block *list,
		      const struct pmbench_report_cell *rc,
		      const struct pmbench_figures *f)
{
	static const char *const names[][2] = {
		{ "instructions", "instructions_count" },
		{ "task-clock", "task_clock_s" },
		{ "wall", NULL },
	};
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *sep = ": ";

	pmbench_buf_adds(&b, rc->cell->pm);
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(names); i++) {
		const struct pmbench_figure *g =
			pmbench_figures_find(f, names[i][0], 0);

		if (!g)
			continue;
		pmbench_buf_addf(&b, "%s%s ", sep, names[i][0]);
		add_figure(&b, g);
		add_spread(&b, rc->cell, names[i][1]);
		sep = "; ";
	}
	pmbench_doc_item(list, "%s", b.ptr);
	pmbench_buf_release(&b);
}

void pmbench_kind_work(struct pmbench_doc *d, const struct pmbench_report *rep,
		       size_t g)
{
	const char *why = pmbench_result_env_get(rep->result, "instructions");
	struct pmbench_doc_block *list = NULL;

	for (size_t i = g; i < rep->cells_nr; i++) {
		struct pmbench_figures f = PMBENCH_FIGURES_INIT;

		if (!pmbench_report_same_group(rep, g, i) || !rep->cells[i].n)
			continue;
		pmbench_figures_of_cell(&f, rep, i);
		if (pmbench_figures_find(&f, "task-clock", 0) ||
		    pmbench_figures_find(&f, "instructions", 0)) {
			if (!list) {
				pmbench_doc_para(
					d, PMBENCH_DOC_HUMAN,
					"CPU work of the PM's whole process "
					"tree per run (median; spread: "
					"standard deviation over mean):");
				list = pmbench_doc_list(d, PMBENCH_DOC_HUMAN);
			}
			work_item(list, &rep->cells[i], &f);
		}
		pmbench_figures_release(&f);
	}
	/* Said once, under the first scenario that has work figures. */
	if (list && why && !strncmp(why, "not counted", 11) &&
	    !work_shown_before(rep, g))
		pmbench_doc_note(d, PMBENCH_DOC_HUMAN, PMBENCH_DOC_NOTE,
				 "instructions: %s", why);
}
