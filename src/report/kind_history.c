/*
 * The history kind: every result of a folder over time, one series per
 * fixture, task, scenario and PM: per date and PM version the median with
 * its 95 % interval, and a change flagged where compare's rule
 * (pmbench_stats_compare(): Mann-Whitney and the ratio's interval agree)
 * finds one against the point before. Pages draw a trend chart per
 * series; the terminal shows one line per series; CSV and JSON write
 * every point.
 */
#include "pmbench/common.h"

#include "internal.h"
#include "pmbench/control.h"
#include "pmbench/history.h"
#include "pmbench/merge.h"
#include "pmbench/report.h"
#include "pmbench/report_kind.h"

/* One result's measurement of a series. */
struct point {
	const struct pmbench_history_entry *e;
	const char *version;
	double *times;
	size_t n;
	struct pmbench_interval ci;
	int has_ci;
	int has_cmp; /* against the point before */
	struct pmbench_comparison cmp;
};

const char *pmbench_kind_pm_version(const struct pmbench_result *r,
				    const char *pm)
{
	for (size_t i = 0; i < r->found_nr; i++)
		if (!strcmp(r->found[i].name, pm) && r->found[i].version)
			return r->found[i].version;
	return "?";
}

static void point_ci(struct point *p, const struct pmbench_cell *c,
		     uint64_t seed)
{
	size_t nm, distinct;
	unsigned *m = pmbench_cell_machines(c, &nm, &distinct);
	struct pmbench_rng rng;
	int ret;

	pmbench_rng_seed(&rng, seed);
	if (!p->n)
		ret = -1;
	else if (distinct >= 2 && nm == p->n)
		ret = pmbench_stats_bootstrap_median_blocks(
			&p->ci, NULL, p->times, m, p->n, PMBENCH_REPORT_LEVEL,
			PMBENCH_REPORT_RESAMPLES, &rng);
	else
		ret = pmbench_stats_bootstrap_median(&p->ci, p->times, p->n,
						     PMBENCH_REPORT_LEVEL,
						     PMBENCH_REPORT_RESAMPLES,
						     &rng);
	p->has_ci = !ret;
	pmbench_error_clear();
	free(m);
}

/* The points of the series of `key` (a cell naming it), oldest first. */
static size_t series(struct point **out, const struct pmbench_history *h,
		     const struct pmbench_cell *key)
{
	struct point *pts = pmbench_xcalloc(h->nr, sizeof(*pts));
	size_t n = 0;

	for (size_t i = 0; i < h->nr; i++) {
		const struct pmbench_result *r = &h->entries[i].result;
		const struct pmbench_cell *c = pmbench_result_find_cell(
			r, key->fixture, key->task, key->scenario, key->pm);
		struct point *p = &pts[n];
		struct pmbench_rng rng;

		/* A migration's times are its own: its series are ratios. */
		if (!c || h->entries[i].kind == PMBENCH_RESULT_MIGRATE)
			continue;
		p->e = &h->entries[i];
		p->version = pmbench_kind_pm_version(r, key->pm);
		p->times = pmbench_cell_times(c, &p->n);
		point_ci(p, c, r->seed);
		if (n && p->n && pts[n - 1].n) {
			pmbench_rng_seed(&rng, r->seed);
			p->has_cmp = !pmbench_stats_compare(
				&p->cmp, p->times, p->n, pts[n - 1].times,
				pts[n - 1].n, PMBENCH_REPORT_LEVEL,
				PMBENCH_REPORT_RESAMPLES, PMBENCH_REPORT_ALPHA,
				&rng);
			pmbench_error_clear();
		}
		n++;
	}
	*out = pts;
	return n;
}

static void free_points(struct point *pts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(pts[i].times);
	free(pts);
}

static int changed(const struct point *p)
{
	return p->has_cmp && p->cmp.verdict != PMBENCH_VERDICT_SAME;
}

/* "slower: 1.24x (1.20x–1.31x), p = 0.008", or no change. */
static void change_text(struct pmbench_buf *b, const struct point *p,
			const struct point *before)
{
	if (before && strcmp(before->version, p->version))
		pmbench_buf_addf(b, "%s → %s; ", before->version, p->version);
	if (!p->n)
		pmbench_buf_adds(b, "no successful run");
	else if (!before)
		pmbench_buf_adds(b, "first");
	else if (!p->has_cmp)
		pmbench_buf_adds(b, "cannot compare");
	else if (!changed(p))
		pmbench_buf_adds(b, "no significant change");
	else
		pmbench_buf_addf(b, "%s: %.2fx (%.2fx–%.2fx), p = %.3g",
				 p->cmp.verdict == PMBENCH_VERDICT_SLOWER
					 ? "slower"
					 : "faster",
				 p->cmp.ratio.point, p->cmp.ratio.lo,
				 p->cmp.ratio.hi, p->cmp.mwu.p);
}

static void median_text(struct pmbench_buf *b, const struct point *p)
{
	if (!p->n) {
		pmbench_buf_adds(b, "failed");
		return;
	}
	pmbench_report_add_duration(b, p->ci.point);
	if (p->has_ci) {
		pmbench_buf_adds(b, " (");
		pmbench_report_add_duration(b, p->ci.lo);
		pmbench_buf_adds(b, "–");
		pmbench_report_add_duration(b, p->ci.hi);
		pmbench_buf_adds(b, ")");
	}
}

/* The terminal's line: every point of the series in turn. */
static void term_line(struct pmbench_doc *d, const struct pmbench_cell *key,
		      const struct point *pts, size_t n)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_addf(&b, "%s · %s · %s · %s:", key->fixture, key->task,
			 key->scenario, key->pm);
	for (size_t i = 0; i < n; i++) {
		const struct point *p = &pts[i];

		pmbench_buf_addf(&b, "%s %s", i ? " →" : "", p->e->date);
		if (!i || strcmp(pts[i - 1].version, p->version))
			pmbench_buf_addf(&b, " [%s]", p->version);
		pmbench_buf_addch(&b, ' ');
		median_text(&b, p);
		if (changed(p))
			pmbench_buf_addf(&b, " %s %.2fx",
					 p->cmp.verdict ==
							 PMBENCH_VERDICT_SLOWER
						 ? "SLOWER"
						 : "FASTER",
					 p->cmp.ratio.point);
	}
	pmbench_doc_para(d, PMBENCH_DOC_TERM, "%s", b.ptr);
	pmbench_buf_release(&b);
}

/*
 * Every point's record, for data: a bench series' (the median and its
 * change) and a migration's (its speed-up against `against`, the source);
 * pages show a bench series' with this table and a migration's with a
 * table of their own (kind_history_migrate.c).
 */
static const struct pmbench_doc_column cols[] = {
	[PMBENCH_HIST_FIXTURE] = { NULL,
				   0,
				   { { "fixture", PMBENCH_DOC_TEXT, 0 } } },
	[PMBENCH_HIST_TASK] = { NULL, 0, { { "task", PMBENCH_DOC_TEXT, 0 } } },
	[PMBENCH_HIST_SCENARIO] = { NULL,
				    0,
				    { { "scenario", PMBENCH_DOC_TEXT, 0 } } },
	[PMBENCH_HIST_PM] = { NULL, 0, { { "pm", PMBENCH_DOC_TEXT, 0 } } },
	[PMBENCH_HIST_DATE] = { "date", 0, { { "date", PMBENCH_DOC_TEXT, 0 } } },
	[PMBENCH_HIST_VERSION] = { "version",
				   0,
				   { { "version", PMBENCH_DOC_TEXT, 0 } } },
	[PMBENCH_HIST_MEDIAN] = { "median (95% CI)",
				  PMBENCH_DOC_RIGHT,
				  { { "median_s", PMBENCH_DOC_SECONDS, 0 },
				    { "median_ci_s", PMBENCH_DOC_SECONDS,
				      PMBENCH_DOC_INTERVAL } } },
	[PMBENCH_HIST_RUNS] = { "runs",
				PMBENCH_DOC_RIGHT,
				{ { "runs", PMBENCH_DOC_COUNT, 0 } } },
	[PMBENCH_HIST_CHANGE] = { "change",
				  0,
				  { { "change", PMBENCH_DOC_TEXT, 0 },
				    { "ratio", PMBENCH_DOC_NUMBER, 0 },
				    { "ratio_ci", PMBENCH_DOC_NUMBER,
				      PMBENCH_DOC_INTERVAL },
				    { "p", PMBENCH_DOC_NUMBER, 0 } } },
	[PMBENCH_HIST_FILE] = { "file", 0, { { "file", PMBENCH_DOC_TEXT, 0 } } },
	[PMBENCH_HIST_AGAINST] = { NULL,
				   0,
				   { { "against", PMBENCH_DOC_TEXT, 0 } } },
	[PMBENCH_HIST_SPEEDUP] = { NULL,
				   0,
				   { { "speedup", PMBENCH_DOC_NUMBER, 0 },
				     { "speedup_ci", PMBENCH_DOC_NUMBER,
				       PMBENCH_DOC_INTERVAL } } },
};

_Static_assert(PMBENCH_ARRAY_SIZE(cols) == PMBENCH_HIST_COLS,
	       "a column of the history table per PMBENCH_HIST_*");

struct pmbench_doc_table *pmbench_kind_history_table(struct pmbench_doc *d,
						     unsigned audience)
{
	return pmbench_doc_table(d, audience, "history", cols,
				 PMBENCH_ARRAY_SIZE(cols));
}

struct pmbench_doc_row *pmbench_kind_history_row(
	struct pmbench_doc_table *t, const struct pmbench_cell *key,
	const struct pmbench_history_entry *e, const char *version)
{
	struct pmbench_doc_row *row = pmbench_doc_row(t);

	pmbench_doc_name(row, PMBENCH_HIST_FIXTURE, key->fixture);
	pmbench_doc_name(row, PMBENCH_HIST_TASK, key->task);
	pmbench_doc_name(row, PMBENCH_HIST_SCENARIO, key->scenario);
	pmbench_doc_name(row, PMBENCH_HIST_PM, key->pm);
	pmbench_doc_name(row, PMBENCH_HIST_DATE, e->date);
	pmbench_doc_name(row, PMBENCH_HIST_VERSION, version);
	pmbench_doc_name(row, PMBENCH_HIST_FILE, e->path);
	return row;
}

static void table_row(struct pmbench_doc_table *t,
		      const struct pmbench_cell *key, const struct point *p,
		      const struct point *before)
{
	struct pmbench_doc_row *row =
		pmbench_kind_history_row(t, key, p->e, p->version);
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	median_text(&b, p);
	pmbench_doc_text(row, PMBENCH_HIST_MEDIAN, "%s", b.ptr);
	if (p->n)
		pmbench_doc_num(row, PMBENCH_HIST_MEDIAN, 0, p->ci.point);
	if (p->n && p->has_ci)
		pmbench_doc_interval(row, PMBENCH_HIST_MEDIAN, 1, p->ci.lo,
				     p->ci.hi);
	pmbench_doc_text(row, PMBENCH_HIST_RUNS, "%zu", p->n);
	pmbench_doc_num(row, PMBENCH_HIST_RUNS, 0, (double)p->n);
	pmbench_buf_reset(&b);
	change_text(&b, p, before);
	pmbench_doc_text(row, PMBENCH_HIST_CHANGE, "%s", b.ptr);
	pmbench_doc_str(row, PMBENCH_HIST_CHANGE, 0,
			changed(p) ? (p->cmp.verdict == PMBENCH_VERDICT_SLOWER
					      ? "slower"
					      : "faster")
				   : "none");
	if (p->has_cmp) {
		pmbench_doc_num(row, PMBENCH_HIST_CHANGE, 1,
				p->cmp.ratio.point);
		pmbench_doc_interval(row, PMBENCH_HIST_CHANGE, 2,
				     p->cmp.ratio.lo, p->cmp.ratio.hi);
		pmbench_doc_num(row, PMBENCH_HIST_CHANGE, 3, p->cmp.mwu.p);
	}
	pmbench_buf_release(&b);
}

static void trend_chart(struct pmbench_doc *d, const struct pmbench_cell *key,
			const struct point *pts, size_t n)
{
	struct pmbench_doc_chart *c;
	struct pmbench_buf title = PMBENCH_BUF_INIT;

	pmbench_buf_addf(&title, "%s %s %s %s: median over time", key->fixture,
			 key->task, key->scenario, key->pm);
	c = pmbench_doc_chart(d, PMBENCH_DOC_PAGE, "trend", NULL, title.ptr,
			      " s");
	c->trend = 1;
	for (size_t i = 0; i < n; i++) {
		const struct point *p = &pts[i];
		struct pmbench_doc_bar *bar = pmbench_doc_bar(c, p->e->date);

		bar->has_value = p->n > 0;
		bar->value = p->ci.point;
		bar->has_interval = p->has_ci;
		bar->lo = p->ci.lo;
		bar->hi = p->ci.hi;
		pmbench_doc_bar_text(bar, "%s", p->version);
		if (changed(p))
			bar->tone = p->cmp.verdict == PMBENCH_VERDICT_SLOWER
					    ? PMBENCH_DOC_WORSE
					    : PMBENCH_DOC_BEST;
	}
	pmbench_buf_release(&title);
}

/*
 * Has a cell with these names been shown already (an earlier file of
 * the same family: a migration's or another's)?
 */
static int seen_before(const struct pmbench_history *h, size_t upto,
		       const struct pmbench_cell *c, const char *source)
{
	for (size_t i = 0; i < upto; i++) {
		const struct pmbench_history_entry *e = &h->entries[i];

		if ((e->kind == PMBENCH_RESULT_MIGRATE) != !!source ||
		    (source && strcmp(e->source_pm, source)))
			continue;
		if (pmbench_result_find_cell(&e->result, c->fixture, c->task,
					     c->scenario, c->pm))
			return 1;
	}
	return 0;
}

static void one_series(struct pmbench_doc *d, const struct pmbench_history *h,
		       const struct pmbench_cell *key, size_t *changes)
{
	struct pmbench_doc_table *t;
	struct point *pts;
	size_t n = series(&pts, h, key);

	term_line(d, key, pts, n);
	pmbench_doc_heading(d, PMBENCH_DOC_PAGE, 2, "%s · %s · %s · %s",
			    key->fixture, key->task, key->scenario, key->pm);
	trend_chart(d, key, pts, n);
	t = pmbench_kind_history_table(d, PMBENCH_DOC_PAGE | PMBENCH_DOC_DATA);
	for (size_t i = 0; i < n; i++) {
		table_row(t, key, &pts[i], i ? &pts[i - 1] : NULL);
		*changes += changed(&pts[i]);
	}
	free_points(pts, n);
}

/*
 * Whether cell `c` of entry `i` opens a series: the first of its names
 * in the file and in the files of its family before; a migration's
 * source opens none (its targets' series are against it).
 */
static int first_of(const struct pmbench_history *h, size_t i,
		    const struct pmbench_cell *c)
{
	const struct pmbench_history_entry *e = &h->entries[i];
	const char *source = e->kind == PMBENCH_RESULT_MIGRATE ? e->source_pm
							       : NULL;

	if (source && (!strcmp(c->pm, source) || pmbench_control_is(c->pm)))
		return 0;
	return !seen_before(h, i, c, source) &&
	       pmbench_result_find_cell(&e->result, c->fixture, c->task,
					c->scenario, c->pm) == c;
}

/* The dates the history spans: its first and last dated results. */
static void span(struct pmbench_buf *out, const struct pmbench_history *h)
{
	size_t first = 0, last = h->nr;

	while (first < h->nr && !h->entries[first].dated)
		first++;
	while (last > first && !h->entries[last - 1].dated)
		last--;
	if (first == h->nr)
		pmbench_buf_adds(out, "all undated");
	else
		pmbench_buf_addf(out, "%s to %s", h->entries[first].date,
				 h->entries[last - 1].date);
}

void pmbench_report_history(struct pmbench_doc *out,
			    const struct pmbench_history *h, const char *dir)
{
	struct pmbench_buf dates = PMBENCH_BUF_INIT;
	size_t changes = 0;

	pmbench_doc_init(out, "history", "pmbench history");
	out->flags |= PMBENCH_DOC_TITLE_ON_TERM;
	span(&dates, h);
	pmbench_doc_para(out, PMBENCH_DOC_HUMAN,
			 "%zu result(s) under %s, %s. Medians with "
			 "their 95%% intervals (machines resampled first in "
			 "merged results); a change is flagged where "
			 "compare's rule finds one against the result "
			 "before: Mann-Whitney p < 0.05 and the ratio's "
			 "interval on one side of 1.",
			 h->nr, dir, dates.ptr);
	for (size_t i = 0; i < h->nr; i++)
		if (h->entries[i].kind == PMBENCH_RESULT_MIGRATE) {
			pmbench_doc_para(out, PMBENCH_DOC_HUMAN,
					 "A migration's series is a target's "
					 "speed-up against its source (the "
					 "source's median over the target's, "
					 "with its 95%% interval, as migrate "
					 "gives it); a change is flagged where "
					 "two migrations in a row have "
					 "intervals that do not overlap.");
			break;
		}
	for (size_t i = 0; i < h->nr; i++) {
		const struct pmbench_history_entry *e = &h->entries[i];
		const struct pmbench_result *r = &e->result;

		for (size_t c = 0; c < r->cells_nr; c++) {
			if (!first_of(h, i, &r->cells[c]))
				continue;
			if (e->kind == PMBENCH_RESULT_MIGRATE)
				pmbench_kind_history_migrate(out, h,
							     &r->cells[c],
							     e->source_pm,
							     &changes);
			else
				one_series(out, h, &r->cells[c], &changes);
		}
	}
	pmbench_doc_note(out, PMBENCH_DOC_HUMAN, PMBENCH_DOC_NOTE,
			 "%zu significant change(s) flagged", changes);
	/* The files left out are the caller's warnings, on stderr. */
	pmbench_buf_release(&dates);
}
