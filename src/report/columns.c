/*
 * The columns of a bench cell's statistics, one table for every writer
 * (curl's tool_writeout.c variables[] habit): each column has the header
 * people read, the data fields CSV and JSON write (key and type), and
 * the writer that fills both from a cell. The terminal, Markdown and
 * HTML tables show "14.493 s"; the hyperfine export and the JSON write
 * 14.493216367 under "median". Where hyperfine has a name for a figure
 * (mean, stddev, median, user, system, min, max) the key is that name.
 */
#include "pmbench/common.h"

#include "internal.h"
#include "pmbench/format.h"
#include "pmbench/strvec.h"

#define TEXT	 PMBENCH_DOC_TEXT
#define COUNT	 PMBENCH_DOC_COUNT
#define FLAG	 PMBENCH_DOC_FLAG
#define SECONDS	 PMBENCH_DOC_SECONDS
#define NUMBER	 PMBENCH_DOC_NUMBER
#define INTERVAL PMBENCH_DOC_INTERVAL
/* The terminal's default columns; the pm is always shown. */
#define DEF  PMBENCH_DOC_TERM_DEFAULT
#define KEEP (PMBENCH_DOC_TERM_DEFAULT | PMBENCH_DOC_TERM_KEEP)

static void w_fixture(struct pmbench_doc_row *row, size_t k,
		      const struct pmbench_report_cell *c)
{
	pmbench_doc_str(row, k, 0, c->cell->fixture);
}

static void w_task(struct pmbench_doc_row *row, size_t k,
		   const struct pmbench_report_cell *c)
{
	pmbench_doc_str(row, k, 0, c->cell->task);
}

static void w_scenario(struct pmbench_doc_row *row, size_t k,
		       const struct pmbench_report_cell *c)
{
	pmbench_doc_str(row, k, 0, c->cell->scenario);
}

static void w_pm(struct pmbench_doc_row *row, size_t k,
		 const struct pmbench_report_cell *c)
{
	pmbench_doc_name(row, k, c->cell->pm);
}

/* Set field `f` to `seconds` and add it to `b` as people read it. */
static void dur(struct pmbench_buf *b, struct pmbench_doc_row *row, size_t k,
		size_t f, double seconds)
{
	pmbench_report_add_duration(b, seconds);
	pmbench_doc_num(row, k, f, seconds);
}

/*
 * The median, marked when runs were not in the state asked or the cell
 * failed its offline proof ("✗"), differed from it as the PM documents
 * ("*"), or was proven warm offline ("✓"): the line under the scenario
 * says why (pmbench_report_cell_notes()).
 */
static void w_median(struct pmbench_doc_row *row, size_t k,
		     const struct pmbench_report_cell *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	dur(&b, row, k, 0, c->wall.median);
	if (pmbench_cell_checks(c->cell, PMBENCH_CHECK_FAIL, NULL) ||
	    c->cell->proof == PMBENCH_PROOF_FAIL)
		pmbench_buf_adds(&b, " ✗");
	else if (pmbench_cell_checks(c->cell, PMBENCH_CHECK_KNOWN, NULL))
		pmbench_buf_adds(&b, " *");
	if (c->cell->proof == PMBENCH_PROOF_PASS)
		pmbench_buf_adds(&b, " ✓");
	pmbench_doc_text(row, k, "%s", b.ptr);
	pmbench_buf_release(&b);
}

/*
 * Data only: the state check of the cell's runs (statecheck.h): "pass",
 * "known", "fail" (some runs, or the cell failed its offline proof: it
 * was not warm), "wrong_state" (every run: no time), or nothing when
 * nothing was checked; and the runs of each.
 */
static void w_state(struct pmbench_doc_row *row, size_t k,
		    const struct pmbench_report_cell *c)
{
	size_t fail = pmbench_cell_checks(c->cell, PMBENCH_CHECK_FAIL, NULL);
	size_t known = pmbench_cell_checks(c->cell, PMBENCH_CHECK_KNOWN, NULL);
	size_t pass = pmbench_cell_checks(c->cell, PMBENCH_CHECK_PASS, NULL);
	int unproven = c->cell->proof == PMBENCH_PROOF_FAIL;

	if (!fail && !known && !pass && !unproven)
		return;
	pmbench_doc_str(row, k, 0,
			pmbench_cell_wrong_state(c->cell) ? "wrong_state"
			: fail || unproven		  ? "fail"
			: known				  ? "known"
							  : "pass");
	pmbench_doc_num(row, k, 1, (double)fail);
	pmbench_doc_num(row, k, 2, (double)known);
}

/*
 * Data only: the cell's offline proof (bench --prove-offline), if any,
 * and whether it failed as a number, for the exports of numbers only.
 */
static void w_proof(struct pmbench_doc_row *row, size_t k,
		    const struct pmbench_report_cell *c)
{
	if (!c->cell->proof)
		return;
	pmbench_doc_str(row, k, 0, pmbench_proof_name(c->cell->proof));
	if (c->cell->proof_why)
		pmbench_doc_str(row, k, 1, c->cell->proof_why);
	pmbench_doc_num(row, k, 2, c->cell->proof == PMBENCH_PROOF_FAIL);
}

static void w_ci(struct pmbench_doc_row *row, size_t k,
		 const struct pmbench_report_cell *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (!c->has_ci)
		return;
	pmbench_report_add_duration(&b, c->median_ci.lo);
	pmbench_buf_adds(&b, " – ");
	pmbench_report_add_duration(&b, c->median_ci.hi);
	pmbench_doc_text(row, k, "%s", b.ptr);
	pmbench_doc_interval(row, k, 0, c->median_ci.lo, c->median_ci.hi);
	pmbench_buf_release(&b);
}

static void w_mean(struct pmbench_doc_row *row, size_t k,
		   const struct pmbench_report_cell *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	dur(&b, row, k, 0, c->wall.mean);
	pmbench_buf_adds(&b, " ± ");
	dur(&b, row, k, 1, c->wall.sd);
	pmbench_doc_text(row, k, "%s", b.ptr);
	pmbench_buf_release(&b);
}

static void w_range(struct pmbench_doc_row *row, size_t k,
		    const struct pmbench_report_cell *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	dur(&b, row, k, 0, c->wall.min);
	pmbench_buf_adds(&b, " … ");
	dur(&b, row, k, 1, c->wall.max);
	pmbench_doc_text(row, k, "%s", b.ptr);
	pmbench_buf_release(&b);
}

/*
 * The rounds with a time, and, when a round's value is the median of
 * several runs (bench's budget repeats a cheap PM), how many: "8 ×5"
 * (rounds × runs in each), "8 ×3–5".
 */
static void w_runs(struct pmbench_doc_row *row, size_t k,
		   const struct pmbench_report_cell *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	size_t lo, hi;

	pmbench_cell_runs_per_round(c->cell, &lo, &hi);
	pmbench_buf_addf(&b, "%zu", c->n);
	if (hi > 1 && lo != hi)
		pmbench_buf_addf(&b, " ×%zu–%zu", lo, hi);
	else if (hi > 1)
		pmbench_buf_addf(&b, " ×%zu", hi);
	if (c->failed && c->interrupted)
		pmbench_buf_addf(&b, " (+%zu failed, +%zu interrupted)",
				 c->failed, c->interrupted);
	else if (c->failed)
		pmbench_buf_addf(&b, " (+%zu failed)", c->failed);
	else if (c->interrupted)
		pmbench_buf_addf(&b, " (+%zu interrupted)", c->interrupted);
	pmbench_doc_text(row, k, "%s", b.ptr);
	pmbench_doc_num(row, k, 0, (double)c->n);
	pmbench_doc_num(row, k, 1, (double)c->failed);
	pmbench_doc_num(row, k, 2, (double)c->interrupted);
	pmbench_doc_num(row, k, 3, (double)(hi ? hi : 1));
	pmbench_buf_release(&b);
}

static void w_outliers(struct pmbench_doc_row *row, size_t k,
		       const struct pmbench_report_cell *c)
{
	pmbench_doc_text(row, k, "%zu", c->outliers);
	pmbench_doc_num(row, k, 0, (double)c->outliers);
}

static void w_user(struct pmbench_doc_row *row, size_t k,
		   const struct pmbench_report_cell *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	dur(&b, row, k, 0, c->user);
	pmbench_doc_text(row, k, "%s", b.ptr);
	pmbench_buf_release(&b);
}

static void w_sys(struct pmbench_doc_row *row, size_t k,
		  const struct pmbench_report_cell *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	dur(&b, row, k, 0, c->sys);
	pmbench_doc_text(row, k, "%s", b.ptr);
	pmbench_buf_release(&b);
}

static void w_rss(struct pmbench_doc_row *row, size_t k,
		  const struct pmbench_report_cell *c)
{
	pmbench_doc_text(row, k, "%s%.0f MiB", c->max_rss_at_floor ? "≤ " : "",
			 c->max_rss / 1024.0);
	pmbench_doc_num(row, k, 0, c->max_rss);
}

static void w_tree(struct pmbench_doc_row *row, size_t k,
		   const struct pmbench_report_cell *c)
{
	pmbench_doc_text(row, k, "%.0f MiB", c->tree_rss / 1024.0);
	pmbench_doc_num(row, k, 0, c->tree_rss);
}

static void w_nm(struct pmbench_doc_row *row, size_t k,
		 const struct pmbench_report_cell *c)
{
	/* A Plug'n'Play install has no node_modules: no size, not 0. */
	if (c->no_nm) {
		pmbench_doc_text(row, k, "n/a");
		return;
	}
	pmbench_doc_text(row, k, "%.1f MB, %.0f files", c->nm_bytes / 1e6,
			 c->nm_files);
	pmbench_doc_num(row, k, 0, c->nm_bytes);
	pmbench_doc_num(row, k, 1, c->nm_files);
}

/*
 * Where the time went: the medians of the phases (phases.h), their line
 * for people and data, each in seconds.
 */
static void w_phases(struct pmbench_doc_row *row, size_t k,
		     const struct pmbench_report_cell *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (!c->phases.runs)
		return;
	pmbench_report_add_phases(&b, &c->phases);
	pmbench_doc_text(row, k, "%s", b.ptr);
	pmbench_doc_str(row, k, 0, b.ptr);
	for (int p = 0; p < PMBENCH_PHASES; p++)
		pmbench_doc_num(row, k, 1 + (size_t)p, c->phases.median[p]);
	pmbench_buf_release(&b);
}

static void w_vs(struct pmbench_doc_row *row, size_t k,
		 const struct pmbench_report_cell *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (!c->has_vs) {
		if (c->fastest >= 0 && c->n) {
			pmbench_doc_text(row, k, "fastest");
			pmbench_doc_num(row, k, 0, 1);
		}
		return;
	}
	pmbench_report_add_ratio(&b, c->vs.ratio.point);
	pmbench_buf_adds(&b, " (");
	pmbench_report_add_ratio(&b, c->vs.ratio.lo);
	pmbench_buf_adds(&b, "–");
	pmbench_report_add_ratio(&b, c->vs.ratio.hi);
	pmbench_buf_adds(&b, c->vs.verdict == PMBENCH_VERDICT_SAME ? ") n.s."
								   : ")");
	pmbench_doc_text(row, k, "%s", b.ptr);
	pmbench_doc_num(row, k, 0, c->vs.ratio.point);
	pmbench_doc_interval(row, k, 1, c->vs.ratio.lo, c->vs.ratio.hi);
	pmbench_doc_num(row, k, 2, c->vs.mwu.p);
	pmbench_doc_num(row, k, 3, c->vs.verdict != PMBENCH_VERDICT_SAME);
	pmbench_buf_release(&b);
}

/*
 * The ratio to the fastest paired by round (its drift cancels), and
 * whether it gave the verdict: "1.98x (1.95x–2.01x, 8 rounds)".
 */
static void w_paired(struct pmbench_doc_row *row, size_t k,
		     const struct pmbench_report_cell *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (!c->has_paired)
		return;
	pmbench_report_add_ratio(&b, c->paired.point);
	pmbench_buf_adds(&b, " (");
	pmbench_report_add_ratio(&b, c->paired.lo);
	pmbench_buf_adds(&b, "–");
	pmbench_report_add_ratio(&b, c->paired.hi);
	pmbench_buf_addf(&b, ", %zu rounds)", c->paired_n);
	pmbench_doc_text(row, k, "%s", b.ptr);
	pmbench_doc_num(row, k, 0, c->paired.point);
	pmbench_doc_interval(row, k, 1, c->paired.lo, c->paired.hi);
	pmbench_doc_num(row, k, 2, (double)c->paired_n);
	pmbench_doc_str(row, k, 3,
			c->verdict_paired ? "paired" : "independent");
	pmbench_buf_release(&b);
}

void pmbench_report_add_base(struct pmbench_buf *out,
			     const struct pmbench_report_cell *c)
{
	pmbench_report_add_ratio(out, c->base.point);
	pmbench_buf_adds(out, " (");
	pmbench_report_add_ratio(out, c->base.lo);
	pmbench_buf_adds(out, "–");
	pmbench_report_add_ratio(out, c->base.hi);
	pmbench_buf_addf(out, ") ±%.*f%%", c->base_half < 0.1 ? 1 : 0,
			 c->base_half * 100);
}

/*
 * The ratio to the baseline paired by round, and how wide it is against
 * the target when there is one: "1.32x (1.28x–1.36x) ±3.0%", the
 * baseline's own row "baseline".
 */
static void w_base(struct pmbench_doc_row *row, size_t k,
		   const struct pmbench_report_cell *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (c->is_baseline) {
		pmbench_doc_text(row, k, "baseline");
		pmbench_doc_num(row, k, 0, 1);
		return;
	}
	if (!c->has_base)
		return;
	pmbench_report_add_base(&b, c);
	if (c->base_reached == 0)
		pmbench_buf_adds(&b, " (not reached)");
	pmbench_doc_text(row, k, "%s", b.ptr);
	pmbench_doc_num(row, k, 0, c->base.point);
	pmbench_doc_interval(row, k, 1, c->base.lo, c->base.hi);
	pmbench_doc_num(row, k, 2, (double)c->base_n);
	if (c->base_reached >= 0)
		pmbench_doc_num(row, k, 3, c->base_reached);
	pmbench_buf_release(&b);
}

/* Data only: the resolver-stall rule and the control's drift. */
static void w_signals(struct pmbench_doc_row *row, size_t k,
		      const struct pmbench_report_cell *c)
{
	pmbench_doc_num(row, k, 0, (double)c->stalls);
	if (c->has_drift)
		pmbench_doc_num(row, k, 1, c->drift);
}

char *pmbench_report_pm_release(const char *pm_version, const char **source)
{
	size_t n = strcspn(pm_version, ":");
	const char *rest = pm_version + n + (pm_version[n] == ':');

	*source = rest + strspn(rest, " ");
	return pmbench_xstrndup(pm_version, n);
}

/* The release a cell's PM ran, and where it came from. */
static void w_version(struct pmbench_doc_row *row, size_t k,
		      const struct pmbench_report_cell *c)
{
	const char *source;
	char *exact;

	if (!c->cell->pm_version)
		return;
	exact = pmbench_report_pm_release(c->cell->pm_version, &source);
	pmbench_doc_text(row, k, "%s", exact);
	pmbench_doc_str(row, k, 0, exact);
	pmbench_doc_str(row, k, 1, source);
	free(exact);
}

static void w_leftover(struct pmbench_doc_row *row, size_t k,
		       const struct pmbench_report_cell *c)
{
	size_t with;

	pmbench_doc_num(row, k, 0,
			(double)pmbench_cell_leftover(c->cell, &with));
}

/*
 * The columns; the writers of the figures run only for cells with times.
 * Whether the terminal shows one by default is its flags (DEF), and
 * --columns knows it by its keys and header: a new column is one entry.
 */
static const struct cell_column {
	struct pmbench_doc_column col;
	void (*write)(struct pmbench_doc_row *row, size_t k,
		      const struct pmbench_report_cell *c);
	int figure; /* needs successful runs */
} columns[] = {
	{ { NULL, 0, { { "fixture", TEXT, 0 } } }, w_fixture, 0 },
	{ { NULL, 0, { { "task", TEXT, 0 } } }, w_task, 0 },
	{ { NULL, 0, { { "scenario", TEXT, 0 } } }, w_scenario, 0 },
	{ { "pm", KEEP, { { "pm", TEXT, 0 } } }, w_pm, 0 },
	{ { "median", DEF, { { "median", SECONDS, 0 } } }, w_median, 1 },
	{ { "95% CI", DEF, { { "median_ci95", SECONDS, INTERVAL } } }, w_ci, 1 },
	{ { "mean ± σ",
	    0,
	    { { "mean", SECONDS, 0 }, { "stddev", SECONDS, 0 } } },
	  w_mean,
	  1 },
	{ { "min … max", 0, { { "min", SECONDS, 0 }, { "max", SECONDS, 0 } } },
	  w_range,
	  1 },
	{ { "runs",
	    DEF,
	    { { "runs", COUNT, 0 },
	      { "failed_runs", COUNT, 0 },
	      { "interrupted_runs", COUNT, 0 },
	      { "runs_per_round", COUNT, 0 } } },
	  w_runs,
	  1 },
	{ { "outliers", 0, { { "outliers", COUNT, 0 } } }, w_outliers, 1 },
	{ { "user", 0, { { "user", SECONDS, 0 } } }, w_user, 1 },
	{ { "sys", 0, { { "system", SECONDS, 0 } } }, w_sys, 1 },
	{ { "max RSS", 0, { { "max_rss_kib", NUMBER, 0 } } }, w_rss, 1 },
	{ { "tree RSS", 0, { { "tree_rss_kib", NUMBER, 0 } } }, w_tree, 1 },
	{ { "node_modules",
	    0,
	    { { "node_modules_bytes", NUMBER, 0 },
	      { "node_modules_files", NUMBER, 0 } } },
	  w_nm,
	  1 },
	{ { "phases",
	    0,
	    { { "phases", TEXT, 0 },
	      { "phases_startup", SECONDS, 0 },
	      { "phases_network", SECONDS, 0 },
	      { "phases_write", SECONDS, 0 },
	      { "phases_scripts", SECONDS, 0 },
	      { "phases_exit", SECONDS, 0 } } },
	  w_phases,
	  1 },
	{ { "vs fastest (95% CI)",
	    DEF,
	    { { "ratio", NUMBER, 0 },
	      { "ratio_ci95", NUMBER, INTERVAL },
	      { "p", NUMBER, 0 },
	      { "significant", FLAG, 0 } } },
	  w_vs,
	  1 },
	{ { "vs baseline (paired 95% CI)",
	    DEF,
	    { { "baseline_ratio", NUMBER, 0 },
	      { "baseline_ratio_ci95", NUMBER, INTERVAL },
	      { "baseline_rounds", COUNT, 0 },
	      { "target_reached", FLAG, 0 } } },
	  w_base,
	  1 },
	{ { "paired vs fastest (95% CI)",
	    0,
	    { { "paired_ratio", NUMBER, 0 },
	      { "paired_ratio_ci95", NUMBER, INTERVAL },
	      { "paired_rounds", COUNT, 0 },
	      { "verdict_from", TEXT, 0 } } },
	  w_paired,
	  1 },
	{ { NULL,
	    0,
	    { { "resolver_stalls", COUNT, 0 },
	      { "control_drift", NUMBER, 0 } } },
	  w_signals,
	  1 },
	{ { NULL, 0, { { "leftover_processes", COUNT, 0 } } }, w_leftover, 0 },
	{ { NULL,
	    0,
	    { { "state_check", TEXT, 0 },
	      { "state_failed_runs", COUNT, 0 },
	      { "state_known_runs", COUNT, 0 } } },
	  w_state,
	  0 },
	{ { NULL,
	    0,
	    { { "offline_proof", TEXT, 0 },
	      { "offline_proof_why", TEXT, 0 },
	      { "offline_proof_failed", COUNT, 0 } } },
	  w_proof,
	  0 },
	{ { "version",
	    0,
	    { { "pm_version", TEXT, 0 }, { "pm_version_source", TEXT, 0 } } },
	  w_version,
	  0 },
};

void pmbench_format_column_names(struct pmbench_buf *out)
{
	size_t from = out->len;

	for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(columns); k++) {
		if (!columns[k].col.header)
			continue;
		if (out->len > from)
			pmbench_buf_adds(out, ", ");
		pmbench_doc_column_name(out, &columns[k].col);
	}
}

int pmbench_format_check_columns(const char *list)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	struct pmbench_buf names = PMBENCH_BUF_INIT;
	int ret = 0;

	pmbench_strvec_split(&v, list, ',');
	pmbench_format_column_names(&names);
	for (size_t i = 0; i < v.nr && !ret; i++) {
		int found = 0;

		for (int exact = 1; exact >= 0 && !found; exact--)
			for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(columns); k++)
				found |= columns[k].col.header &&
					 pmbench_doc_column_is(&columns[k].col,
							       v.v[i], exact);
		if (!found)
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "unknown column '%s' in "
						 "--columns; use %s",
						 v.v[i], names.ptr);
	}
	if (!ret && !v.nr)
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "--columns needs at least one of %s",
					 names.ptr);
	pmbench_strvec_release(&v);
	pmbench_buf_release(&names);
	return ret;
}

/* The first column with a header: where a cell without times says why. */
#define FIRST_FIGURE 4

struct pmbench_doc_table *pmbench_cell_table(struct pmbench_doc *d,
					     unsigned audience, const char *id)
{
	struct pmbench_doc_column cols[PMBENCH_ARRAY_SIZE(columns)];

	for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(columns); k++)
		cols[k] = columns[k].col;
	return pmbench_doc_table(d, audience, id, cols,
				 PMBENCH_ARRAY_SIZE(columns));
}

/* The first line of `s`. */
static int line_len(const char *s)
{
	return (int)strcspn(s, "\n");
}

/* The note of a cell without times, in place of its figures. */
static void no_times_note(struct pmbench_doc_row *row,
			  const struct pmbench_report_cell *c)
{
	const char *why = pmbench_report_first_failure(c->cell);

	if (c->cell->prime_failure)
		pmbench_doc_row_note(row, FIRST_FIGURE, "failed: %.*s",
				     line_len(why), why);
	else if (c->failed)
		pmbench_doc_row_note(row, FIRST_FIGURE,
				     "failed (%zu of %zu runs): %.*s",
				     c->failed, c->failed, line_len(why), why);
	else if (c->cell->state == PMBENCH_CELL_UNSUPPORTED)
		pmbench_doc_row_note(row, FIRST_FIGURE, "%s", c->cell->note);
	else if (pmbench_cell_wrong_state(c->cell))
		pmbench_doc_row_note(row, FIRST_FIGURE,
				     "not the state asked: no time to "
				     "compare (see below)");
	else if (c->interrupted)
		/* pmbench was stopped during its first run. */
		pmbench_doc_row_note(row, FIRST_FIGURE,
				     "interrupted before a run finished");
	else
		pmbench_doc_row_note(row, FIRST_FIGURE,
				     "not run: the benchmark stopped before "
				     "it");
}

void pmbench_cell_row(struct pmbench_doc_table *t,
		      const struct pmbench_report *rep, size_t i)
{
	const struct pmbench_report_cell *c = &rep->cells[i];
	int figures = !c->cell->prime_failure && c->n;
	struct pmbench_doc_row *row = pmbench_doc_row(t);
	const char *why;

	for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(columns); k++)
		if (figures || !columns[k].figure)
			columns[k].write(row, k, c);
	if (!figures) {
		no_times_note(row, c);
		return;
	}
	if (!c->failed)
		return;
	why = pmbench_report_first_failure(c->cell);
	row = pmbench_doc_row(t);
	row->flags = PMBENCH_DOC_ROW_HUMAN;
	pmbench_doc_row_note(row, FIRST_FIGURE, "%zu run(s) failed: %.*s",
			     c->failed, line_len(why), why);
}

/* ---- Samples: one row per run, for CSV and JSON ----------------------- */

enum sample_var {
	S_FIXTURE,
	S_TASK,
	S_SCENARIO,
	S_PM,
	S_ROUND,
	S_WARMUP,
	S_OK,
	S_WALL,
	S_USER,
	S_SYS,
	S_MAX_RSS,
	S_TREE_RSS,
	S_EXIT,
	S_SIGNAL,
	S_TIMED_OUT,
	S_NM_BYTES,
	S_NM_FILES,
	S_FAILURE,
	S_INTERRUPTED,
	S_LEFTOVER,
	S_PHASE_STARTUP,
	S_PHASE_NETWORK,
	S_PHASE_WRITE,
	S_PHASE_SCRIPTS,
	S_PHASE_EXIT,
	S_WRITTEN,
	S_REQUESTS,
	S_STATE_CHECK,
	S_STATE_WHY,
	S_PM_VERSION,
};

/*
 * The per-sample columns, in the order `report --format csv` has always
 * written them: new columns go last, so positions stay valid.
 */
static const struct {
	const char *key;
	enum pmbench_doc_type type;
	enum sample_var var;
} sample_vars[] = {
	{ "fixture", TEXT, S_FIXTURE },
	{ "task", TEXT, S_TASK },
	{ "scenario", TEXT, S_SCENARIO },
	{ "pm", TEXT, S_PM },
	{ "round", COUNT, S_ROUND },
	{ "warmup", FLAG, S_WARMUP },
	{ "ok", FLAG, S_OK },
	{ "wall_s", SECONDS, S_WALL },
	{ "user_s", SECONDS, S_USER },
	{ "sys_s", SECONDS, S_SYS },
	{ "max_rss_kib", COUNT, S_MAX_RSS },
	{ "tree_rss_kib", COUNT, S_TREE_RSS },
	{ "exit_code", COUNT, S_EXIT },
	{ "signal", COUNT, S_SIGNAL },
	{ "timed_out", FLAG, S_TIMED_OUT },
	{ "node_modules_bytes", COUNT, S_NM_BYTES },
	{ "node_modules_files", COUNT, S_NM_FILES },
	{ "failure", TEXT, S_FAILURE },
	{ "interrupted", FLAG, S_INTERRUPTED },
	{ "leftover", COUNT, S_LEFTOVER },
	{ "phase_startup_s", SECONDS, S_PHASE_STARTUP },
	{ "phase_network_s", SECONDS, S_PHASE_NETWORK },
	{ "phase_write_s", SECONDS, S_PHASE_WRITE },
	{ "phase_scripts_s", SECONDS, S_PHASE_SCRIPTS },
	{ "phase_exit_s", SECONDS, S_PHASE_EXIT },
	{ "written_bytes", COUNT, S_WRITTEN },
	{ "registry_requests", COUNT, S_REQUESTS },
	{ "state_check", TEXT, S_STATE_CHECK },
	{ "state_why", TEXT, S_STATE_WHY },
	{ "pm_version", TEXT, S_PM_VERSION },
};

/* A phase's figure of a sample (only when it has phases). */
static double phase_num(enum sample_var var, const struct pmbench_phases *ph)
{
	if (var == S_WRITTEN)
		return (double)ph->written_bytes;
	if (var == S_REQUESTS)
		return ph->requests;
	return (double)pmbench_phases_get(
		       ph, (enum pmbench_phase)(var - S_PHASE_STARTUP)) /
	       1e9;
}

static double sample_num(enum sample_var var, const struct pmbench_sample *s)
{
	if (var >= S_PHASE_STARTUP)
		return phase_num(var, s->phases);
	switch (var) {
	case S_ROUND:
		return s->round;
	case S_WARMUP:
		return s->warmup;
	case S_OK:
		return s->ok;
	case S_WALL:
		return (double)s->wall_ns / 1e9;
	case S_USER:
		return (double)s->user_ns / 1e9;
	case S_SYS:
		return (double)s->sys_ns / 1e9;
	case S_MAX_RSS:
		return (double)s->max_rss_kib;
	case S_TREE_RSS:
		return (double)s->tree_rss_kib;
	case S_EXIT:
		return s->exit_code;
	case S_SIGNAL:
		return s->signal;
	case S_TIMED_OUT:
		return s->timed_out;
	case S_NM_BYTES:
		return (double)s->nm_bytes;
	case S_NM_FILES:
		return (double)s->nm_files;
	case S_INTERRUPTED:
		return s->interrupted;
	case S_LEFTOVER:
		return s->leftover;
	default:
		return 0;
	}
}

static const char *sample_str(enum sample_var var, const struct pmbench_cell *c,
			      const struct pmbench_sample *s)
{
	switch (var) {
	case S_FIXTURE:
		return c->fixture;
	case S_TASK:
		return c->task;
	case S_SCENARIO:
		return c->scenario;
	case S_PM:
		return c->pm;
	case S_FAILURE:
		return s->failure;
	case S_STATE_CHECK:
		return pmbench_check_name(s->state_check);
	case S_STATE_WHY:
		return s->state_why;
	case S_PM_VERSION:
		return c->pm_version;
	default:
		return NULL;
	}
}

void pmbench_sample_table(struct pmbench_doc *d, unsigned audience,
			  const struct pmbench_result *r)
{
	struct pmbench_doc_column cols[PMBENCH_ARRAY_SIZE(sample_vars)];
	struct pmbench_doc_table *t;

	memset(cols, 0, sizeof(cols));
	for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(sample_vars); k++) {
		cols[k].fields[0].key = sample_vars[k].key;
		cols[k].fields[0].type = sample_vars[k].type;
	}
	t = pmbench_doc_table(d, audience, "samples", cols,
			      PMBENCH_ARRAY_SIZE(cols));
	for (size_t i = 0; i < r->cells_nr; i++) {
		const struct pmbench_cell *c = &r->cells[i];

		for (size_t j = 0; j < c->samples_nr; j++) {
			const struct pmbench_sample *s = &c->samples[j];
			struct pmbench_doc_row *row = pmbench_doc_row(t);

			for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(sample_vars);
			     k++) {
				enum sample_var var = sample_vars[k].var;

				if (sample_vars[k].type == TEXT)
					pmbench_doc_str(row, k, 0,
							sample_str(var, c, s));
				else if (var < S_PHASE_STARTUP || s->phases)
					pmbench_doc_num(row, k, 0,
							sample_num(var, s));
			}
		}
	}
}
