/*
 * The ci-cache kind: per PM and strategy the median restore, install and
 * save time, the archive's size compressed and raw, the total, and the
 * modelled CI totals, from the cells pmbench_cicache_run() wrote; the
 * fastest strategy per PM and the fastest PM marked.
 */
#include "pmbench/common.h"

#include <math.h>

#include "internal.h"
#include "pmbench/cicache.h"
#include "pmbench/report_kind.h"
#include "pmbench/schedule.h"
#include "pmbench/stats.h"

/* The job kinds, as the cells' scenario names end (src/engine/run/cicache.c). */
enum job_kind { JOB_MISS, JOB_HIT, JOB_CHANGED };

static const char *const kind_names[] = { "miss", "hit", "lockfile-changed" };

/* One table row: one cell's figures. */
struct job_row {
	const struct pmbench_cell *cell;
	char *label;
	enum job_kind kind;
	size_t n, failed, interrupted;
	double setup, restore, install, save, archive, raw, xfer, keyed;
	struct pmbench_summary total;
};

/*
 * The median of a metric over the cell's jobs, or `none` when no job has
 * it.
 */
static double metric_median_or(const struct pmbench_cell *c, const char *name,
			       double none)
{
	size_t n;
	double *v = pmbench_cell_metric_values(c, name, &n);
	double m = n ? pmbench_stats_median(v, n) : none;

	free(v);
	return m;
}

static double metric_median(const struct pmbench_cell *c, const char *name)
{
	return metric_median_or(c, name, 0);
}

static void add_secs(struct pmbench_buf *b, double s)
{
	if (s < 0.01)
		pmbench_buf_addf(b, "%.1f ms", s * 1e3);
	else if (s < 1.0)
		pmbench_buf_addf(b, "%.0f ms", s * 1e3);
	else
		pmbench_buf_addf(b, "%.2f s", s);
}

static void add_bytes(struct pmbench_buf *b, double v)
{
	if (v >= 1e9)
		pmbench_buf_addf(b, "%.2f GB", v / 1e9);
	else if (v >= 1e6)
		pmbench_buf_addf(b, "%.1f MB", v / 1e6);
	else if (v >= 1e3)
		pmbench_buf_addf(b, "%.1f kB", v / 1e3);
	else
		pmbench_buf_addf(b, "%.0f B", v);
}

static void row_fill(struct job_row *w, const struct pmbench_cell *c)
{
	const char *sc = c->scenario;
	size_t len = strlen(sc);
	double *t;

	memset(w, 0, sizeof(*w));
	w->cell = c;
	w->kind = JOB_HIT;
	for (int k = JOB_MISS; k <= JOB_CHANGED; k += 2) {
		size_t kl = strlen(kind_names[k]);

		if (len > kl + 1 && sc[len - kl - 1] == '/' &&
		    !strcmp(sc + len - kl, kind_names[k])) {
			w->kind = (enum job_kind)k;
			len -= kl + 1;
		}
	}
	w->label = pmbench_xstrndup(sc, len);
	t = pmbench_cell_times(c, &w->n);
	pmbench_stats_summary(&w->total, t, w->n);
	free(t);
	w->failed = pmbench_cell_failures(c);
	w->interrupted = pmbench_cell_interrupted(c);
	/* NaN: a result from before the setup step. */
	w->setup = metric_median_or(c, "setup_s", NAN);
	w->restore = metric_median(c, "restore_s");
	w->install = metric_median(c, "install_s");
	w->save = metric_median(c, "save_s");
	w->archive = metric_median(c, "archive_bytes");
	w->raw = metric_median(c, "raw_bytes");
	w->xfer = metric_median(c, "transfer_total_s");
	w->keyed = metric_median(c, "keyed_total_s");
}

#define R	PMBENCH_DOC_RIGHT
#define SECONDS PMBENCH_DOC_SECONDS

enum {
	COL_PM,
	COL_STRATEGY,
	COL_JOB,
	COL_N,
	COL_SETUP,
	COL_RESTORE,
	COL_INSTALL,
	COL_SAVE,
	COL_ARCHIVE,
	COL_RAW,
	COL_TOTAL,
	COL_XFER,
	COL_KEYED,
	COL_MARK,
};

/* The jobs table: the header people read and the data keys. */
static const struct pmbench_doc_column job_cols[] = {
	[COL_PM] = { NULL, 0, { { "pm", PMBENCH_DOC_TEXT, 0 } } },
	[COL_STRATEGY] = { "strategy",
			   0,
			   { { "strategy", PMBENCH_DOC_TEXT, 0 } } },
	[COL_JOB] = { "job", 0, { { "job", PMBENCH_DOC_TEXT, 0 } } },
	[COL_N] = { "n",
		    R,
		    { { "jobs", PMBENCH_DOC_COUNT, 0 },
		      { "failed_jobs", PMBENCH_DOC_COUNT, 0 },
		      { "interrupted_jobs", PMBENCH_DOC_COUNT, 0 } } },
	[COL_SETUP] = { "setup", R, { { "setup_s", SECONDS, 0 } } },
	[COL_RESTORE] = { "restore", R, { { "restore_s", SECONDS, 0 } } },
	[COL_INSTALL] = { "install", R, { { "install_s", SECONDS, 0 } } },
	[COL_SAVE] = { "save", R, { { "save_s", SECONDS, 0 } } },
	[COL_ARCHIVE] = { "archive",
			  R,
			  { { "archive_bytes", PMBENCH_DOC_NUMBER, 0 } } },
	[COL_RAW] = { "raw", R, { { "raw_bytes", PMBENCH_DOC_NUMBER, 0 } } },
	[COL_TOTAL] = { "total",
			R,
			{ { "total_s", SECONDS, 0 },
			  { "total_min_s", SECONDS, 0 },
			  { "total_max_s", SECONDS, 0 } } },
	[COL_XFER] = { "+transfer", R, { { "transfer_total_s", SECONDS, 0 } } },
	[COL_KEYED] = { "keyed CI", R, { { "keyed_total_s", SECONDS, 0 } } },
	[COL_MARK] = { "", 0, { { "fastest", PMBENCH_DOC_FLAG, 0 } } },
};

/* A duration cell, "-" when the job has no such step. */
static void secs_cell(struct pmbench_doc_row *row, size_t k, int has, double s)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (has) {
		add_secs(&b, s);
		pmbench_doc_num(row, k, 0, s);
	} else {
		pmbench_buf_adds(&b, "-");
	}
	pmbench_doc_text(row, k, "%s", b.ptr);
	pmbench_buf_release(&b);
}

static void bytes_cell(struct pmbench_doc_row *row, size_t k, int has, double v)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (has) {
		add_bytes(&b, v);
		pmbench_doc_num(row, k, 0, v);
	} else {
		pmbench_buf_adds(&b, "-");
	}
	pmbench_doc_text(row, k, "%s", b.ptr);
	pmbench_buf_release(&b);
}

/* The total column: the median, with min..max when more than one job ran. */
static void total_cell(struct pmbench_doc_row *row, const struct job_row *w)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	add_secs(&b, w->total.median);
	if (w->n > 1) {
		pmbench_buf_adds(&b, " (");
		add_secs(&b, w->total.min);
		pmbench_buf_adds(&b, "..");
		add_secs(&b, w->total.max);
		pmbench_buf_adds(&b, ")");
	}
	pmbench_doc_text(row, COL_TOTAL, "%s", b.ptr);
	pmbench_doc_num(row, COL_TOTAL, 0, w->total.median);
	pmbench_doc_num(row, COL_TOTAL, 1, w->total.min);
	pmbench_doc_num(row, COL_TOTAL, 2, w->total.max);
	pmbench_buf_release(&b);
}

static void job_row(struct pmbench_doc_table *t, const struct job_row *w,
		    int fastest)
{
	struct pmbench_doc_row *row = pmbench_doc_row(t);
	int has_arc = strcmp(w->label, "none") != 0;

	pmbench_doc_str(row, COL_PM, 0, w->cell->pm);
	pmbench_doc_name(row, COL_STRATEGY, w->label);
	/* Jobs without a cache are neither hits nor misses. */
	pmbench_doc_text(row, COL_JOB, "%s",
			 !has_arc && w->kind == JOB_HIT ? "-"
			 : w->kind == JOB_CHANGED	? "changed"
							: kind_names[w->kind]);
	pmbench_doc_str(row, COL_JOB, 0, kind_names[w->kind]);
	if (w->failed)
		pmbench_doc_text(row, COL_N, "%zu/%zu", w->n, w->n + w->failed);
	else
		pmbench_doc_text(row, COL_N, "%zu", w->n);
	pmbench_doc_num(row, COL_N, 0, (double)w->n);
	pmbench_doc_num(row, COL_N, 1, (double)w->failed);
	pmbench_doc_num(row, COL_N, 2, (double)w->interrupted);
	if (!w->n) {
		pmbench_doc_row_note(row, COL_SETUP, "%s",
				     w->failed	      ? "every job failed"
				     : w->interrupted ? "every job interrupted"
						      : "no job ran");
		return;
	}
	secs_cell(row, COL_SETUP, !isnan(w->setup), w->setup);
	secs_cell(row, COL_RESTORE, has_arc && w->kind != JOB_MISS, w->restore);
	secs_cell(row, COL_INSTALL, 1, w->install);
	secs_cell(row, COL_SAVE, has_arc, w->save);
	bytes_cell(row, COL_ARCHIVE, has_arc, w->archive);
	bytes_cell(row, COL_RAW, has_arc, w->raw);
	total_cell(row, w);
	secs_cell(row, COL_XFER, 1, w->xfer);
	secs_cell(row, COL_KEYED, 1, w->keyed);
	if (fastest)
		pmbench_doc_text(row, COL_MARK, "* fastest");
	pmbench_doc_num(row, COL_MARK, 0, fastest);
}

/* The hit job of `pm` with the smallest +transfer total, or NULL. */
static const struct job_row *best_of(const struct job_row *rows, size_t n,
				     const char *pm)
{
	const struct job_row *best = NULL;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].cell->pm, pm) && rows[i].kind == JOB_HIT &&
		    rows[i].n && (!best || rows[i].xfer < best->xfer))
			best = &rows[i];
	return best;
}

/* "npm ci --no-audit": the CI install of `pm`, binary by its name. */
static void ci_command(struct pmbench_buf *b, const struct job_row *rows,
		       size_t n, const char *pm)
{
	for (size_t i = 0; i < n; i++) {
		const struct pmbench_strvec *cmd = &rows[i].cell->command;
		const char *slash;

		if (strcmp(rows[i].cell->pm, pm) ||
		    rows[i].kind == JOB_CHANGED || !cmd->nr)
			continue;
		slash = strrchr(cmd->v[0], '/');
		pmbench_buf_adds(b, slash ? slash + 1 : cmd->v[0]);
		for (size_t k = 1; k < cmd->nr; k++)
			pmbench_buf_addf(b, " %s", cmd->v[k]);
		return;
	}
}

/* A chart of each job's total, every job a dot; the fastest marked. */
static void pm_chart(struct pmbench_doc *d, const struct job_row *rows,
		     size_t n, const char *pm, const struct job_row *best)
{
	struct pmbench_doc_chart *ch = pmbench_doc_chart(
		d, PMBENCH_DOC_PAGE, "time",
		"Total of each job (setup + restore + install + save): median "
		"(bar), "
		"every job (dots)",
		"Total CI job time per strategy, seconds", " s");
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < n; i++) {
		const struct job_row *w = &rows[i];
		struct pmbench_doc_bar *bar;
		double *t;
		size_t tn;

		if (strcmp(w->cell->pm, pm))
			continue;
		pmbench_buf_reset(&b);
		pmbench_buf_addf(&b, "%s %s", w->label,
				 w->kind == JOB_CHANGED ? "changed"
							: kind_names[w->kind]);
		bar = pmbench_doc_bar(ch, b.ptr);
		if (!w->n) {
			pmbench_doc_bar_text(bar, "%s",
					     w->failed ? "failed"
						       : "interrupted");
			continue;
		}
		bar->has_value = 1;
		bar->value = w->total.median;
		bar->tone = w == best ? PMBENCH_DOC_BEST : PMBENCH_DOC_PLAIN;
		t = pmbench_cell_times(w->cell, &tn);
		pmbench_doc_bar_dots(bar, t, tn);
		free(t);
		pmbench_buf_reset(&b);
		add_secs(&b, w->total.median);
		pmbench_doc_bar_text(bar, "%s", b.ptr);
	}
	pmbench_buf_release(&b);
}

/* Under a PM's table: primings and jobs that failed, jobs cut short. */
static void pm_notes(struct pmbench_doc *d, const struct job_row *rows,
		     size_t n, const char *pm)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < n; i++) {
		const struct pmbench_cell *c = rows[i].cell;

		if (strcmp(c->pm, pm))
			continue;
		if (c->prime_failure)
			pmbench_doc_para(d, PMBENCH_DOC_HUMAN, "! %s: %s",
					 c->scenario, c->prime_failure);
		pmbench_buf_reset(&b);
		pmbench_report_add_leftover(&b, c, "jobs");
		if (b.len)
			pmbench_doc_note(d, PMBENCH_DOC_HUMAN, PMBENCH_DOC_NOTE,
					 "%s: %s", c->scenario, b.ptr);
		for (size_t k = 0; k < c->samples_nr; k++) {
			const struct pmbench_sample *s = &c->samples[k];

			/* A job cut short by a signal is no failure. */
			if (s->interrupted)
				pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
						 "%s round %u: %s, left out",
						 c->scenario, s->round + 1,
						 s->failure ? s->failure
							    : "interrupted");
			else if (!s->ok && s->failure)
				pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
						 "! %s round %u: %s",
						 c->scenario, s->round + 1,
						 s->failure);
		}
	}
	pmbench_buf_release(&b);
}

/*
 * The cold job of `pm`: its jobs without any cache ("none"), else its
 * first miss job; NULL without one that succeeded or with no setup step
 * recorded (an older result).
 */
static const struct job_row *cold_of(const struct job_row *rows, size_t n,
				     const char *pm)
{
	const struct job_row *cold = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct job_row *w = &rows[i];

		if (strcmp(w->cell->pm, pm) || !w->n || isnan(w->setup) ||
		    w->kind == JOB_CHANGED)
			continue;
		if (!strcmp(w->label, "none"))
			return w;
		if (!cold && w->kind == JOB_MISS)
			cold = w;
	}
	return cold;
}

/* "pnpm 1.20 s of 4.00 s (30%)": the setup step's share of a cold job. */
static void setup_shares(struct pmbench_buf *b, const struct job_row *rows,
			 size_t n, const struct pmbench_strvec *pms)
{
	for (size_t p = 0; p < pms->nr; p++) {
		const struct job_row *cold = cold_of(rows, n, pms->v[p]);

		if (!cold)
			continue;
		pmbench_buf_addf(b, "%s%s ", b->len ? ", " : "", pms->v[p]);
		add_secs(b, cold->setup);
		pmbench_buf_adds(b, " of ");
		add_secs(b, cold->total.median);
		pmbench_buf_addf(b, " (%.0f%%)",
				 cold->total.median > 0
					 ? 100.0 * cold->setup /
						   cold->total.median
					 : 0.0);
	}
}

static void summary(struct pmbench_doc *d, const struct job_row *rows, size_t n,
		    const struct pmbench_strvec *pms, const char *change)
{
	struct pmbench_doc_block *kv;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const struct job_row *best_all = NULL;

	pmbench_doc_heading(d, PMBENCH_DOC_HUMAN, 2, "summary");
	kv = pmbench_doc_kv(d, PMBENCH_DOC_HUMAN, "summary");
	for (size_t p = 0; p < pms->nr; p++) {
		const struct job_row *best = best_of(rows, n, pms->v[p]);

		if (best && (!best_all || best->xfer < best_all->xfer))
			best_all = best;
		pmbench_buf_addf(&b, "%s%s ", p ? ", " : "", pms->v[p]);
		if (!best) {
			pmbench_buf_adds(&b, "(no successful job)");
			continue;
		}
		pmbench_buf_addf(&b, "%s (", best->label);
		add_secs(&b, best->xfer);
		pmbench_buf_adds(&b, ")");
	}
	pmbench_doc_pair(kv, "fastest strategy per PM (hit jobs, +transfer)",
			 "%s", b.ptr);
	if (best_all) {
		pmbench_buf_reset(&b);
		add_secs(&b, best_all->xfer);
		pmbench_doc_pair(kv, "fastest PM overall", "%s with %s (%s)",
				 best_all->cell->pm, best_all->label, b.ptr);
	}
	pmbench_buf_reset(&b);
	setup_shares(&b, rows, n, pms);
	if (b.len)
		pmbench_doc_pair(kv,
				 "getting the PM (setup) in a cold job "
				 "(no cache), medians",
				 "%s", b.ptr);
	if (change)
		pmbench_doc_pair(kv, "lockfile-changed jobs",
				 "%s, installed non-frozen with the old "
				 "archive",
				 change);
	pmbench_buf_release(&b);
}

/* The verdicts table: per strategy, each PM against the first. */
static const struct pmbench_doc_column verdict_cols[] = {
	{ "strategy", 0, { { "strategy", PMBENCH_DOC_TEXT, 0 } } },
	{ "PM", 0, { { "pm", PMBENCH_DOC_TEXT, 0 } } },
	{ "vs baseline (paired 95% CI)",
	  0,
	  { { "baseline_ratio", PMBENCH_DOC_NUMBER, 0 },
	    { "baseline_ratio_ci95", PMBENCH_DOC_NUMBER, PMBENCH_DOC_INTERVAL },
	    { "baseline_rounds", PMBENCH_DOC_COUNT, 0 } } },
	{ "rounds", R, { { "rounds", PMBENCH_DOC_COUNT, 0 } } },
	{ "verdict", 0, { { "verdict", PMBENCH_DOC_TEXT, 0 } } },
};

/*
 * The budget's baseline: the first PM (the order of --pm) whose hit jobs
 * were not cut by a failed priming (budget_jobs() in
 * src/engine/run/cicache.c), or NULL.
 */
static const char *reference_of(const struct job_row *rows, size_t n,
				const struct pmbench_strvec *pms)
{
	for (size_t p = 0; p < pms->nr; p++)
		for (size_t i = 0; i < n; i++)
			if (rows[i].kind == JOB_HIT &&
			    !strcmp(rows[i].cell->pm, pms->v[p]) &&
			    !rows[i].cell->prime_failure)
				return pms->v[p];
	return NULL;
}

/* Row `w` (a hit cell, `c` its report cell) of the verdicts table. */
static void verdict_row(struct pmbench_doc_table *t, const struct job_row *w,
			const struct pmbench_report_cell *c)
{
	struct pmbench_doc_row *row = pmbench_doc_row(t);
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *v =
		pmbench_report_base_verdict(c, PMBENCH_SCHEDULE_BUDGET_MARGIN);

	pmbench_doc_name(row, 0, w->label);
	pmbench_doc_text(row, 1, "%s", w->cell->pm);
	pmbench_doc_str(row, 1, 0, w->cell->pm);
	pmbench_doc_text(row, 3, "%zu", w->n);
	pmbench_doc_num(row, 3, 0, (double)w->n);
	if (c->is_baseline) {
		pmbench_doc_text(row, 2, "baseline");
		pmbench_doc_num(row, 2, 0, 1);
		pmbench_doc_text(row, 4, "-");
	} else if (c->has_base) {
		pmbench_report_add_base(&b, c);
		pmbench_doc_text(row, 2, "%s", b.ptr);
		pmbench_doc_num(row, 2, 0, c->base.point);
		pmbench_doc_interval(row, 2, 1, c->base.lo, c->base.hi);
		pmbench_doc_num(row, 2, 2, (double)c->base_n);
		pmbench_doc_text(row, 4, "%s", v);
		pmbench_doc_str(row, 4, 0, v);
	} else {
		pmbench_doc_text(row, 2, "-");
		pmbench_doc_text(row, 4, "%s",
				 w->n ? "no paired rounds" : "no job ran");
	}
	pmbench_buf_release(&b);
}

/*
 * Per strategy, each PM's hit jobs against the first PM's, paired by
 * round with the 95 % interval and the verdict, as bench judges each PM
 * against its baseline (the report's model, pmbench_report_init(), with
 * that PM as the baseline) and as the budget spends the rounds: decided
 * when the interval is on one side of 1 or within the ±10 % margin.
 */
static void verdicts(struct pmbench_doc *d, const struct pmbench_result *r,
		     const struct job_row *rows, size_t n,
		     const struct pmbench_strvec *pms)
{
	const char *ref = reference_of(rows, n, pms);
	struct pmbench_result view;
	struct pmbench_report rep;
	struct pmbench_doc_table *t;

	if (!ref || pms->nr < 2)
		return;
	/* The model judges against the result's baseline: this PM. */
	view = *r;
	view.baseline = (char *)ref;
	pmbench_report_init(&rep, &view);
	pmbench_doc_heading(d, PMBENCH_DOC_HUMAN, 2,
			    "each PM against %s (hit jobs' totals, paired by "
			    "round, 95 %% interval; decided when it is on one "
			    "side of 1 or within ±%.0f %%)",
			    ref, PMBENCH_SCHEDULE_BUDGET_MARGIN * 100);
	t = pmbench_doc_table(d, PMBENCH_DOC_ALL, "verdicts", verdict_cols,
			      PMBENCH_ARRAY_SIZE(verdict_cols));
	for (size_t i = 0; i < n; i++) {
		int first = 1;

		if (rows[i].kind != JOB_HIT)
			continue;
		for (size_t j = 0; j < i && first; j++)
			first = rows[j].kind != JOB_HIT ||
				strcmp(rows[j].label, rows[i].label);
		if (!first)
			continue;
		for (size_t p = 0; p < pms->nr; p++)
			for (size_t k = i; k < n; k++)
				if (rows[k].kind == JOB_HIT &&
				    !strcmp(rows[k].label, rows[i].label) &&
				    !strcmp(rows[k].cell->pm, pms->v[p]))
					verdict_row(t, &rows[k],
						    &rep.cells[rows[k].cell -
							       r->cells]);
	}
	pmbench_report_release(&rep);
}

/* The heading and what each column of the jobs tables adds up. */
static void intro(struct pmbench_doc *out, const char *fixture, const char *bw)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	add_bytes(&b, bw ? strtod(bw, NULL) : 0);
	pmbench_doc_heading(out, PMBENCH_DOC_HUMAN, 2,
			    "ci-cache: %s; medians, total with min..max; "
			    "transfer modelled at %s/s:",
			    fixture, b.ptr);
	pmbench_doc_para(out, PMBENCH_DOC_HUMAN,
			 "total     = setup (getting the PM) + restore + "
			 "install + save\n"
			 "+transfer = total + download (before restore) + "
			 "upload (after save)\n"
			 "keyed CI  = download + setup + restore + install (+ "
			 "save + upload when\n            the key missed: a CI "
			 "cache skips the upload on an exact key hit)");
	pmbench_buf_release(&b);
}

/* One PM: its CI command, setup, chart, jobs table and notes. */
static void pm_section(struct pmbench_doc *out, const struct pmbench_result *r,
		       const struct job_row *rows, size_t nrows, const char *pm)
{
	const struct job_row *best = best_of(rows, nrows, pm);
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_doc_table *t;

	ci_command(&b, rows, nrows, pm);
	pmbench_doc_heading(out, PMBENCH_DOC_HUMAN, 2, "%s (CI install: %s)",
			    pm, b.ptr);
	pmbench_buf_reset(&b);
	pmbench_buf_addf(&b, "ci_cache_setup_%s", pm);
	if (pmbench_result_env_get(r, b.ptr))
		pmbench_doc_para(out, PMBENCH_DOC_HUMAN, "setup: %s",
				 pmbench_result_env_get(r, b.ptr));
	pm_chart(out, rows, nrows, pm, best);
	t = pmbench_doc_table(out, PMBENCH_DOC_ALL, "jobs", job_cols,
			      PMBENCH_ARRAY_SIZE(job_cols));
	for (size_t i = 0; i < nrows; i++)
		if (!strcmp(rows[i].cell->pm, pm))
			job_row(t, &rows[i], &rows[i] == best);
	pm_notes(out, rows, nrows, pm);
	pmbench_buf_release(&b);
}

void pmbench_report_cicache(struct pmbench_doc *out,
			    const struct pmbench_result *r)
{
	struct pmbench_strvec pms = PMBENCH_STRVEC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct job_row *rows =
		pmbench_xcalloc(r->cells_nr ? r->cells_nr : 1, sizeof(*rows));
	size_t nrows = 0;

	for (size_t i = 0; i < r->cells_nr; i++) {
		if (strcmp(r->cells[i].task, PMBENCH_CICACHE_TASK))
			continue;
		row_fill(&rows[nrows++], &r->cells[i]);
		if (pmbench_strvec_find(&pms, r->cells[i].pm) < 0)
			pmbench_strvec_push(&pms, r->cells[i].pm);
	}
	pmbench_buf_addf(&b, "ci-cache: %s",
			 nrows ? rows[0].cell->fixture : "(nothing measured)");
	pmbench_doc_init(out, "ci-cache", b.ptr);
	out->csv = pmbench_xstrdup("jobs");
	pmbench_doc_attach(out, r, NULL);
	if (!nrows)
		goto done;
	pmbench_kind_created(out, r, NULL);
	intro(out, rows[0].cell->fixture,
	      pmbench_result_env_get(r, "ci_cache_bandwidth_bytes_per_s"));
	for (size_t p = 0; p < pms.nr; p++)
		pm_section(out, r, rows, nrows, pms.v[p]);
	verdicts(out, r, rows, nrows, &pms);
	summary(out, rows, nrows, &pms,
		pmbench_result_env_get(r, "ci_cache_lockfile_change"));
	pmbench_kind_failures(out, r);
	pmbench_kind_legend(out, r, NULL);
	pmbench_kind_environment(out, r);
done:
	for (size_t i = 0; i < nrows; i++)
		free(rows[i].label);
	free(rows);
	pmbench_strvec_release(&pms);
	pmbench_buf_release(&b);
}
