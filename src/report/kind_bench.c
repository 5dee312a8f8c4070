/*
 * The bench kind: a benchmark result as `bench` and `report` show it.
 * Per scenario a section: the cache state, on pages a chart of the
 * medians and one of the ratios, the statistics table (columns.c), each
 * PM against the fastest and the warnings. Then the run, build and dev
 * tables (kind_tasks.c) and what each PM used. Pages open with the PM
 * matrix pnpm's benchmark page made familiar and the ratio table, and
 * end with the failures and the environment.
 */
#include "pmbench/common.h"

#include <math.h>

#include "pmbench/stats.h"

#include "internal.h"
#include "pmbench/cicache.h"
#include "pmbench/report_kind.h"
#include "pmbench/resultfile.h"
#include "pmbench/scenario.h"

/* "14.493 s (13.640 s–14.763 s), 1 failed", or why there is no time. */
static void matrix_cell(struct pmbench_buf *out,
			const struct pmbench_report_cell *c)
{
	if (c->cell->prime_failure || !c->n) {
		pmbench_buf_adds(out, pmbench_report_no_times(c));
		return;
	}
	pmbench_report_add_duration(out, c->wall.median);
	if (c->has_ci) {
		pmbench_buf_adds(out, " (");
		pmbench_report_add_duration(out, c->median_ci.lo);
		pmbench_buf_adds(out, "–");
		pmbench_report_add_duration(out, c->median_ci.hi);
		pmbench_buf_adds(out, ")");
	}
	if (c->failed)
		pmbench_buf_addf(out, ", %zu failed", c->failed);
	if (c->interrupted)
		pmbench_buf_addf(out, ", %zu interrupted", c->interrupted);
}

/* The cell of `pm` in the group starting at g, or NULL. */
static const struct pmbench_report_cell *
group_cell_of(const struct pmbench_report *rep, size_t g, const char *pm)
{
	for (size_t i = g; i < rep->cells_nr; i++)
		if (pmbench_report_same_group(rep, g, i) &&
		    !strcmp(rep->cells[i].cell->pm, pm))
			return &rep->cells[i];
	return NULL;
}

/* action | cache | lockfile | node_modules | one column per PM. */
static void matrix(struct pmbench_doc *d, const struct pmbench_report *rep,
		   const char *fixture, const struct pmbench_strvec *pms)
{
	static const char *const heads[] = { "action", "cache", "lockfile",
					     "node_modules" };
	struct pmbench_doc_column *cols =
		pmbench_xcalloc(4 + pms->nr, sizeof(*cols));
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_doc_table *t;

	for (size_t k = 0; k < 4; k++)
		cols[k].header = heads[k];
	for (size_t p = 0; p < pms->nr; p++)
		cols[4 + p].header = pms->v[p];
	pmbench_doc_heading(d, PMBENCH_DOC_PAGE, 2, "%s: median time (95%% CI)",
			    fixture);
	t = pmbench_doc_table(d, PMBENCH_DOC_PAGE, "matrix", cols, 4 + pms->nr);
	for (size_t g = 0; g < rep->cells_nr; g++) {
		const struct pmbench_report_cell *first = &rep->cells[g];
		struct pmbench_doc_row *row;

		if (strcmp(first->cell->fixture, fixture) ||
		    !pmbench_report_group_start(rep, g))
			continue;
		row = pmbench_doc_row(t);
		pmbench_doc_text(row, 0, "%s", first->cell->task);
		pmbench_doc_text(row, 1, "%s",
				 first->state & PMBENCH_STATE_CACHE ? "✔" : "");
		pmbench_doc_text(row, 2, "%s",
				 first->state & PMBENCH_STATE_LOCKFILE ? "✔"
								       : "");
		pmbench_doc_text(
			row, 3, "%s",
			first->state & PMBENCH_STATE_NODE_MODULES ? "✔" : "");
		for (size_t p = 0; p < pms->nr; p++) {
			const struct pmbench_report_cell *c =
				group_cell_of(rep, g, pms->v[p]);

			pmbench_buf_reset(&b);
			if (c)
				matrix_cell(&b, c);
			else
				pmbench_buf_adds(&b, "–");
			pmbench_doc_text(row, 4 + p, "%s", b.ptr);
		}
	}
	pmbench_buf_release(&b);
	free(cols);
}

/* Cell i's row of the ratios table; `b` is scratch. */
static void ratio_row(struct pmbench_doc_row *row, struct pmbench_buf *b,
		      const struct pmbench_report *rep, size_t i)
{
	const struct pmbench_report_cell *c = &rep->cells[i];

	pmbench_doc_text(row, 0, "%s", c->cell->fixture);
	pmbench_doc_text(row, 1, "%s", c->cell->task);
	pmbench_doc_text(row, 2, "%s", c->cell->scenario);
	pmbench_buf_reset(b);
	pmbench_report_add_state(b, c->state);
	pmbench_doc_text(row, 3, "%s", b->ptr);
	pmbench_doc_text(row, 4, "%s", rep->cells[c->fastest].cell->pm);
	pmbench_doc_text(row, 5, "%s", c->cell->pm);
	pmbench_buf_reset(b);
	pmbench_report_add_ratio(b, c->vs.ratio.point);
	pmbench_doc_text(row, 6, "%s", b->ptr);
	pmbench_buf_reset(b);
	pmbench_report_add_ratio(b, c->vs.ratio.lo);
	pmbench_buf_adds(b, "–");
	pmbench_report_add_ratio(b, c->vs.ratio.hi);
	pmbench_doc_text(row, 7, "%s", b->ptr);
	pmbench_buf_reset(b);
	pmbench_report_add_p(b, c->vs.mwu.p);
	pmbench_doc_text(row, 8, "%s", b->ptr);
	pmbench_buf_reset(b);
	pmbench_report_add_sentence(b, rep, i);
	pmbench_doc_text(row, 9, "%s", b->ptr);
}

/* Every PM against the fastest of its scenario, with the cache state. */
static void ratios(struct pmbench_doc *d, const struct pmbench_report *rep)
{
	static const struct pmbench_doc_column cols[] = {
		{ "fixture", 0, { { 0 } } },  { "action", 0, { { 0 } } },
		{ "scenario", 0, { { 0 } } }, { "cache state", 0, { { 0 } } },
		{ "fastest", 0, { { 0 } } },  { "pm", 0, { { 0 } } },
		{ "ratio", 0, { { 0 } } },    { "95% CI", 0, { { 0 } } },
		{ "p", 0, { { 0 } } },	      { "verdict", 0, { { 0 } } },
	};
	struct pmbench_doc_table *t = NULL;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];

		if (!c->has_vs)
			continue;
		if (!t) {
			pmbench_doc_heading(d, PMBENCH_DOC_PAGE, 2,
					    "Ratios against the fastest");
			pmbench_doc_para(d, PMBENCH_DOC_PAGE,
					 "Ratio of medians with its bootstrap "
					 "95%% interval; significance by "
					 "Mann–Whitney U (α = 0.05).");
			t = pmbench_doc_table(d, PMBENCH_DOC_PAGE, "ratios",
					      cols, PMBENCH_ARRAY_SIZE(cols));
		}
		ratio_row(pmbench_doc_row(t), &b, rep, i);
	}
	pmbench_buf_release(&b);
}

/*
 * Cell i's bar in `ch`: its median with its interval, the fastest's
 * toned; NULL when it has no times (the bar's text then says why).
 */
static struct pmbench_doc_bar *median_bar(struct pmbench_doc_chart *ch,
					  const struct pmbench_report *rep,
					  size_t i)
{
	const struct pmbench_report_cell *c = &rep->cells[i];
	struct pmbench_doc_bar *bar = pmbench_doc_bar(ch, c->cell->pm);

	if (!c->n) {
		pmbench_doc_bar_text(bar, "%s", pmbench_report_no_times(c));
		return NULL;
	}
	bar->has_value = 1;
	bar->value = c->wall.median;
	bar->has_interval = c->has_ci;
	bar->lo = c->median_ci.lo;
	bar->hi = c->median_ci.hi;
	bar->tone = (long)i == c->fastest ? PMBENCH_DOC_BEST
					  : PMBENCH_DOC_PLAIN;
	return bar;
}

/* Medians as bars, 95 % intervals as whiskers, every run as a dot. */
static void time_chart(struct pmbench_doc *d, const struct pmbench_report *rep,
		       size_t g)
{
	struct pmbench_doc_chart *ch = pmbench_doc_chart(
		d, PMBENCH_DOC_PAGE, "time",
		"Time: median (bar), 95% interval (whiskers), every run (dots)",
		"Median time per package manager, seconds, with 95% "
		"intervals and every run",
		" s");
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = g; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];
		struct pmbench_doc_bar *bar;

		if (!pmbench_report_same_group(rep, g, i))
			continue;
		bar = median_bar(ch, rep, i);
		if (!bar)
			continue;
		pmbench_doc_bar_dots(bar, c->times, c->n);
		pmbench_buf_reset(&b);
		pmbench_report_add_duration(&b, c->wall.median);
		pmbench_buf_addf(&b, " (%zu runs", c->n);
		if (c->interrupted)
			pmbench_buf_addf(&b, ", %zu interrupted",
					 c->interrupted);
		pmbench_buf_adds(&b, ")");
		pmbench_doc_bar_text(bar, "%s", b.ptr);
	}
	pmbench_buf_release(&b);
}

/* Each PM's ratio to the fastest, with its interval; 1x is marked. */
static void ratio_chart(struct pmbench_doc *d, const struct pmbench_report *rep,
			size_t g)
{
	struct pmbench_doc_chart *ch = NULL;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = g; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];
		struct pmbench_doc_bar *bar;

		if (!pmbench_report_same_group(rep, g, i) || !c->has_vs)
			continue;
		if (!ch) {
			pmbench_buf_addf(&b,
					 "Time relative to the fastest, %s "
					 "(1x), with 95%% intervals; grey: "
					 "no significant difference",
					 rep->cells[c->fastest].cell->pm);
			ch = pmbench_doc_chart(d, PMBENCH_DOC_PAGE, "ratio",
					       b.ptr,
					       "Time relative to the fastest, "
					       "with 95% intervals",
					       "x");
			ch->has_ref = 1;
			ch->ref = 1;
			ch->log_scale = 1;
		}
		bar = pmbench_doc_bar(ch, c->cell->pm);
		bar->has_value = 1;
		bar->value = c->vs.ratio.point;
		bar->has_interval = 1;
		bar->lo = c->vs.ratio.lo;
		bar->hi = c->vs.ratio.hi;
		bar->tone = c->vs.verdict == PMBENCH_VERDICT_SAME
				    ? PMBENCH_DOC_MUTED
				    : PMBENCH_DOC_WORSE;
		pmbench_buf_reset(&b);
		pmbench_report_add_ratio(&b, c->vs.ratio.point);
		if (c->vs.verdict == PMBENCH_VERDICT_SAME)
			pmbench_buf_adds(&b, " (n.s.)");
		pmbench_doc_bar_text(bar, "%s", b.ptr);
	}
	pmbench_buf_release(&b);
}

/*
 * The cell of `g`'s group that most differs from the fastest: the one
 * whose sentence heads the group in the overview. -1 if none has a ratio.
 */
static long headline(const struct pmbench_report *rep, size_t g)
{
	long best = -1;

	for (size_t i = g; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];

		if (!pmbench_report_same_group(rep, g, i) || !c->has_vs)
			continue;
		if (best < 0 ||
		    c->vs.ratio.point > rep->cells[best].vs.ratio.point)
			best = (long)i;
	}
	return best;
}

/* The overview's bars of the scenario of `g`. */
static void overview_bars(struct pmbench_doc_chart *ch,
			  const struct pmbench_report *rep, size_t g)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = g; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];
		struct pmbench_doc_bar *bar;

		if (!pmbench_report_same_group(rep, g, i))
			continue;
		bar = median_bar(ch, rep, i);
		if (!bar)
			continue;
		pmbench_buf_reset(&b);
		pmbench_report_add_duration(&b, c->wall.median);
		pmbench_doc_bar_text(bar, "%s", b.ptr);
	}
	pmbench_buf_release(&b);
}

/*
 * Pages open with a chart of every scenario and PM (pnpm's benchmark
 * page habit), each scenario on an axis of its own (warm installs of
 * 7 ms beside cold ones of 6 s would be invisible on one), each with its
 * headline sentence under it.
 */
static void overview(struct pmbench_doc *d, const struct pmbench_report *rep)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int any = 0;

	for (size_t g = 0; g < rep->cells_nr; g++) {
		const struct pmbench_cell *first = rep->cells[g].cell;
		struct pmbench_doc_chart *ch;
		long h;

		if (!pmbench_report_group_start(rep, g))
			continue;
		if (!any++) {
			pmbench_doc_heading(d, PMBENCH_DOC_PAGE, 2, "Overview");
			pmbench_doc_para(d, PMBENCH_DOC_PAGE,
					 "Median time per scenario and package "
					 "manager, with 95%% intervals, each "
					 "scenario on its own axis; green: the "
					 "fastest");
		}
		pmbench_buf_reset(&b);
		pmbench_buf_addf(&b, "%s · %s · %s", first->fixture,
				 first->task, first->scenario);
		ch = pmbench_doc_chart(d, PMBENCH_DOC_PAGE, "overview", b.ptr,
				       "Median time of every package manager "
				       "in one scenario",
				       " s");
		overview_bars(ch, rep, g);
		h = headline(rep, g);
		if (h < 0)
			continue;
		pmbench_buf_reset(&b);
		pmbench_report_add_sentence(&b, rep, (size_t)h);
		pmbench_doc_para(d, PMBENCH_DOC_PAGE, "%s", b.ptr);
	}
	pmbench_buf_release(&b);
}

/* The median of a cell's metric over its timed runs; -1 without. */
static double metric_median(const struct pmbench_cell *c, const char *name)
{
	size_t n = 0;
	double *v = pmbench_cell_metric_values(c, name, &n);
	double m = n ? pmbench_stats_median(v, n) : -1;

	free(v);
	return m;
}

/*
 * The sum of a cell's metric over its timed runs, and in how many runs
 * it was recorded (metrics written only when something happened).
 */
static double metric_sum(const struct pmbench_cell *c, const char *name,
			 size_t *runs)
{
	double *v = pmbench_cell_metric_values(c, name, runs), sum = 0;

	for (size_t i = 0; i < *runs; i++)
		sum += v[i];
	free(v);
	return sum;
}

/*
 * What else the front saw during a cell's runs: other programs' requests
 * (not counted as the PM's), connections it closed at its cap, and
 * connections whose program it could not tell.
 */
static void registry_others(struct pmbench_buf *out,
			    const struct pmbench_cell *c)
{
	size_t runs = 0;
	double n = metric_sum(c, "registry_foreign_requests", &runs);

	if (runs)
		pmbench_buf_addf(out,
				 "; other programs used the mirror during %zu "
				 "run%s (%.0f request%s, not counted here)",
				 runs, runs == 1 ? "" : "s", n,
				 n == 1 ? "" : "s");
	n = metric_sum(c, "registry_dropped_connections", &runs);
	if (runs)
		pmbench_buf_addf(out,
				 "; %.0f connection%s closed at the front's "
				 "connection cap",
				 n, n == 1 ? "" : "s");
	n = metric_sum(c, "registry_unattributed_connections", &runs);
	if (runs)
		pmbench_buf_addf(out,
				 "; %.0f connection%s of a program that could "
				 "not be told, counted as the PM's",
				 n, n == 1 ? "" : "s");
}

/*
 * What each PM asked the local mirror for per run (medians): metadata
 * and tarball requests, bytes, and any the mirror could not answer or
 * sent upstream (a warm, sealed mirror has none).
 */
static void registry_requests(struct pmbench_doc *d,
			      const struct pmbench_report *rep, size_t g)
{
	struct pmbench_doc_block *list = NULL;
	struct pmbench_buf others = PMBENCH_BUF_INIT;

	for (size_t i = g; i < rep->cells_nr; i++) {
		const struct pmbench_cell *c = rep->cells[i].cell;
		double meta, tgz, bytes, failed, up;

		if (!pmbench_report_same_group(rep, g, i))
			continue;
		meta = metric_median(c, "registry_meta_requests");
		if (meta < 0)
			continue;
		tgz = metric_median(c, "registry_tarball_requests");
		bytes = metric_median(c, "registry_bytes");
		failed = metric_median(c, "registry_failed_requests");
		up = metric_median(c, "registry_uplink_requests");
		if (!list) {
			pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
					 "registry requests per run (median):");
			list = pmbench_doc_list(d, PMBENCH_DOC_HUMAN);
		}
		pmbench_buf_reset(&others);
		registry_others(&others, c);
		pmbench_doc_item(
			list, "%s: %.0f metadata, %.0f tarballs, %.1f MB%s%s%s",
			c->pm, meta, tgz, bytes / 1e6,
			failed > 0 ? ", some failed" : "",
			up > 0 ? ", some sent upstream" : "", others.ptr);
	}
	pmbench_buf_release(&others);
}

/* One scenario: state, charts, table, sentences and warnings. */
/*
 * Under a budget: which PMs' paired ratios against the baseline reached
 * the target, and for those that did not, how wide they are, why the
 * rounds stopped and about how many rounds would reach it (the width
 * shrinks as one over the square root of the rounds).
 */
static void target_line(struct pmbench_doc *d, const struct pmbench_report *rep,
			size_t g)
{
	const struct pmbench_result *r = rep->result;
	struct pmbench_buf yes = PMBENCH_BUF_INIT, no = PMBENCH_BUF_INIT;

	if (!r->runs_auto || !(r->auto_target > 0) || !r->baseline)
		return;
	for (size_t i = g; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];
		double need;

		if (!pmbench_report_same_group(rep, g, i) || !c->has_base)
			continue;
		if (c->base_reached > 0) {
			pmbench_buf_addf(&yes, "%s%s", yes.len ? ", " : "",
					 c->cell->pm);
			continue;
		}
		need = (double)c->base_n * (c->base_half / r->auto_target) *
		       (c->base_half / r->auto_target);
		pmbench_buf_addf(&no,
				 "%s%s ±%.0f %% after %zu rounds (%s; about "
				 "%.0f rounds would reach it)",
				 no.len ? "; " : "", c->cell->pm,
				 c->base_half * 100, c->base_n,
				 c->cell->stopped_by ? c->cell->stopped_by
						     : "stopped",
				 ceil(need));
	}
	if (yes.len || no.len)
		pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
				 "target ±%g %% against %s (paired): "
				 "%s%s%s%s%s",
				 r->auto_target * 100, r->baseline,
				 yes.len ? "reached by " : "", yes.ptr,
				 yes.len && no.len ? "; " : "",
				 no.len ? "not reached: " : "", no.ptr);
	pmbench_buf_release(&yes);
	pmbench_buf_release(&no);
}

static void scenario(struct pmbench_doc *d, const struct pmbench_report *rep,
		     size_t g)
{
	const struct pmbench_report_cell *first = &rep->cells[g];
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_doc_table *t;

	pmbench_doc_heading(d, PMBENCH_DOC_HUMAN, 2, "%s · %s · %s",
			    first->cell->fixture, first->cell->task,
			    first->cell->scenario);
	pmbench_report_add_state(&b, first->state);
	/*
	 * The mirror is part of the stated state; live results say so in
	 * the legend.
	 */
	if (pmbench_result_env_get(rep->result, "registry") &&
	    !strcmp(pmbench_result_env_get(rep->result, "registry"), "local")) {
		pmbench_buf_adds(&b, "; registry: ");
		pmbench_kind_registry(&b, rep->result);
	}
	pmbench_doc_para(d, PMBENCH_DOC_HUMAN, "(%s)", b.ptr);
	target_line(d, rep, g);
	time_chart(d, rep, g);
	ratio_chart(d, rep, g);
	t = pmbench_cell_table(d, PMBENCH_DOC_HUMAN, "cells");
	for (size_t i = g; i < rep->cells_nr; i++)
		if (pmbench_report_same_group(rep, g, i))
			pmbench_cell_row(t, rep, i);
	for (size_t i = g; i < rep->cells_nr; i++) {
		if (!pmbench_report_same_group(rep, g, i))
			continue;
		pmbench_buf_reset(&b);
		pmbench_report_add_sentence(&b, rep, i);
		if (b.len)
			pmbench_doc_para(d, PMBENCH_DOC_HUMAN, "%s", b.ptr);
	}
	registry_requests(d, rep, g);
	pmbench_kind_phases(d, rep, g);
	pmbench_kind_work(d, rep, g);
	pmbench_kind_explain(d, rep, g);
	/* The findings first, then what to be wary of. */
	for (size_t i = g; i < rep->cells_nr; i++)
		if (pmbench_report_same_group(rep, g, i))
			pmbench_report_cell_notes(d, PMBENCH_DOC_HUMAN,
						  &rep->cells[i]);
	pmbench_buf_release(&b);
}

/* One PM's row in the page table of `used`. */
static void used_page_row(struct pmbench_doc_table *t,
			  const struct pmbench_cell *c, const char *lock)
{
	struct pmbench_doc_row *row = pmbench_doc_row(t);

	pmbench_doc_text(row, 0, "%s", c->pm);
	pmbench_doc_text(row, 1, "%s", c->pm_version ? c->pm_version : "");
	pmbench_doc_text(row, 2, "%s", lock);
	pmbench_doc_text(row, 3, "%s", c->scripts ? c->scripts : "");
	pmbench_doc_text(row, 4, "%s", c->runtime ? c->runtime : "");
	pmbench_doc_text(row, 5, "%s", c->pm_config ? c->pm_config : "");
}

/* A further line of the terminal table of `used`: "label: text". */
static void used_term_fact(struct pmbench_doc_table *term, const char *label,
			   const char *prefix, const char *text)
{
	struct pmbench_doc_row *row;

	if (!text)
		return;
	row = pmbench_doc_row(term);
	pmbench_doc_text(row, 1, "%s", label);
	pmbench_doc_text(row, 2, "%s%s", prefix, text);
}

/* One PM's lines in the terminal table of `used`: a line per known fact. */
static void used_term_rows(struct pmbench_doc_table *term,
			   const struct pmbench_cell *c, const char *lock)
{
	struct pmbench_doc_row *row = pmbench_doc_row(term);

	pmbench_doc_text(row, 0, "%s", c->pm);
	pmbench_doc_text(row, 1, "lockfile:");
	pmbench_doc_text(row, 2, "%s", lock);
	used_term_fact(term, "version:", "", c->pm_version);
	used_term_fact(term, "runtime:", "scripts ran under ", c->runtime);
	used_term_fact(term, "config:", "", c->pm_config);
	used_term_fact(term, "scripts:", "", c->scripts);
}

/*
 * The lockfile and dependency scripts of each PM: parity matters. Pages
 * get a table; the terminal two lines per PM, as the texts are long.
 */
static void used(struct pmbench_doc *d, const struct pmbench_report *rep,
		 const char *fixture)
{
	static const struct pmbench_doc_column cols[] = {
		{ "pm", 0, { { 0 } } },
		{ "version", 0, { { 0 } } },
		{ "lockfile", 0, { { 0 } } },
		{ "dependency scripts", 0, { { 0 } } },
		{ "scripts ran under", 0, { { 0 } } },
		{ "configuration", 0, { { 0 } } },
	};
	static const struct pmbench_doc_column lines[] = {
		{ "", 0, { { 0 } } },
		{ "", 0, { { 0 } } },
		{ "", 0, { { 0 } } },
	};
	struct pmbench_strvec seen = PMBENCH_STRVEC_INIT;
	struct pmbench_doc_table *t = NULL, *term = NULL;

	for (size_t i = 0; i < rep->cells_nr; i++) {
		const struct pmbench_cell *c = rep->cells[i].cell;
		const char *lock = c->lockfile ? c->lockfile : "(not primed)";

		/* "(node)" and the like ran without a PM. */
		if (strcmp(c->fixture, fixture) || c->pm[0] == '(' ||
		    pmbench_strvec_find(&seen, c->pm) >= 0)
			continue;
		pmbench_strvec_push(&seen, c->pm);
		if (!t) {
			pmbench_doc_heading(d, PMBENCH_DOC_HUMAN, 2,
					    "%s: what each PM used", fixture);
			t = pmbench_doc_table(d, PMBENCH_DOC_PAGE, "used", cols,
					      PMBENCH_ARRAY_SIZE(cols));
			term = pmbench_doc_table(d, PMBENCH_DOC_TERM, "used",
						 lines,
						 PMBENCH_ARRAY_SIZE(lines));
		}
		used_page_row(t, c, lock);
		used_term_rows(term, c, lock);
	}
	if (t && pmbench_report_scripts_mixed(rep, fixture))
		pmbench_doc_note(d, PMBENCH_DOC_HUMAN, PMBENCH_DOC_NOTE,
				 "%s: " PMBENCH_REPORT_SCRIPTS_NOTE, fixture);
	if (t)
		pmbench_kind_ci_note(d, rep, fixture);
	pmbench_strvec_release(&seen);
}

static void fixtures_of(struct pmbench_strvec *out,
			const struct pmbench_report *rep)
{
	for (size_t i = 0; i < rep->cells_nr; i++)
		if (pmbench_strvec_find(out, rep->cells[i].cell->fixture) < 0)
			pmbench_strvec_push(out, rep->cells[i].cell->fixture);
}

void pmbench_kind_bench_sections(struct pmbench_doc *d,
				 const struct pmbench_report *rep)
{
	struct pmbench_strvec fixtures = PMBENCH_STRVEC_INIT;

	fixtures_of(&fixtures, rep);
	for (size_t f = 0; f < fixtures.nr; f++) {
		for (size_t i = 0; i < rep->cells_nr; i++)
			if (!strcmp(rep->cells[i].cell->fixture,
				    fixtures.v[f]) &&
			    pmbench_report_group_start(rep, i))
				scenario(d, rep, i);
		pmbench_kind_tasks(d, rep->result, fixtures.v[f]);
		used(d, rep, fixtures.v[f]);
	}
	pmbench_strvec_release(&fixtures);
}

void pmbench_report_bench(struct pmbench_doc *out,
			  const struct pmbench_result *r)
{
	struct pmbench_strvec fixtures = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec pms = PMBENCH_STRVEC_INIT;
	const struct pmbench_report *rep;

	pmbench_doc_init(out, "bench", "pmbench results");
	out->flags |= PMBENCH_DOC_JSON_HYPERFINE;
	out->csv = pmbench_xstrdup("samples");
	rep = pmbench_doc_attach(out, r, NULL);
	pmbench_kind_bench_decision(out, rep);
	fixtures_of(&fixtures, rep);
	for (size_t i = 0; i < rep->cells_nr; i++)
		if (pmbench_strvec_find(&pms, rep->cells[i].cell->pm) < 0)
			pmbench_strvec_push(&pms, rep->cells[i].cell->pm);
	pmbench_kind_created(out, r, NULL);
	overview(out, rep);
	for (size_t f = 0; f < fixtures.nr; f++)
		matrix(out, rep, fixtures.v[f], &pms);
	ratios(out, rep);
	/* A curve's table is what CSV writes (every run is in the result). */
	if (pmbench_kind_scale(out, rep)) {
		free(out->csv);
		out->csv = pmbench_xstrdup("scaling");
	}
	/* Releases side by side: their table is CSV's, and in the JSON. */
	if (pmbench_kind_versions(out, rep)) {
		free(out->csv);
		out->csv = pmbench_xstrdup("versions");
		out->json_also = pmbench_xstrdup("versions");
	}
	pmbench_kind_pairs(out, rep);
	pmbench_kind_bench_sections(out, rep);
	pmbench_kind_failures(out, r);
	pmbench_kind_legend(out, r, NULL);
	pmbench_kind_environment(out, r);
	pmbench_sample_table(out, PMBENCH_DOC_DATA, r);
	pmbench_strvec_release(&fixtures);
	pmbench_strvec_release(&pms);
}

int pmbench_report_file(struct pmbench_doc *out,
			const struct pmbench_result_file *f)
{
	switch (f->kind) {
	case PMBENCH_RESULT_MIGRATE:
		if (f->lacks)
			return pmbench_error_setc(PMBENCH_EINVALID,
						  "a migrate result of version "
						  "%d lacks %s",
						  f->version, f->lacks);
		pmbench_report_migrate(out, &f->migrate, &f->result);
		return 0;
	case PMBENCH_RESULT_CLAIM:
		return pmbench_kind_claim_again(out, &f->result);
	case PMBENCH_RESULT_NONE:
		return pmbench_error_setc(PMBENCH_EINVALID, "%s", f->what);
	case PMBENCH_RESULT_BENCH:
	case PMBENCH_RESULT_CICACHE:
		break;
	}
	pmbench_report_result(out, &f->result);
	return 0;
}

void pmbench_report_result(struct pmbench_doc *out,
			   const struct pmbench_result *r)
{
	for (size_t i = 0; i < r->cells_nr; i++) {
		if (!strcmp(r->cells[i].task, PMBENCH_CICACHE_TASK)) {
			pmbench_report_cicache(out, r);
			return;
		}
	}
	pmbench_report_bench(out, r);
}
