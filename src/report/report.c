#include "pmbench/common.h"

#include <math.h>

#include <cjson/cJSON.h>

#include "pmbench/bench.h"
#include "pmbench/report.h"
#include "pmbench/scenario.h"

/* ---- Statistics ------------------------------------------------------- */

static void fill_cell(struct pmbench_report_cell *rc,
		      const struct pmbench_cell *c, uint64_t seed)
{
	struct pmbench_rng rng;

	memset(rc, 0, sizeof(*rc));
	rc->cell = c;
	rc->fastest = -1;
	if (pmbench_scenario_parse(&rc->state, c->scenario) < 0) {
		pmbench_error_clear();
		rc->state = 0;
	}
	rc->times = pmbench_cell_times(c, &rc->n);
	rc->failed = pmbench_cell_failures(c);
	rc->interrupted = pmbench_cell_interrupted(c);
	pmbench_stats_summary(&rc->wall, rc->times, rc->n);
	pmbench_rng_seed(&rng, seed);
	if (rc->n &&
	    !pmbench_stats_bootstrap_median(&rc->median_ci, rc->times, rc->n,
					    PMBENCH_REPORT_LEVEL,
					    PMBENCH_REPORT_RESAMPLES, &rng))
		rc->has_ci = 1;
	rc->outliers = pmbench_stats_outliers(NULL, rc->times, rc->n,
					      PMBENCH_REPORT_OUTLIER_Z);
	if (rc->n >= 3) {
		unsigned char *flags = pmbench_xcalloc(rc->n, 1);

		pmbench_stats_outliers(flags, rc->times, rc->n,
				       PMBENCH_REPORT_OUTLIER_Z);
		rc->slow_first = flags[0] && rc->times[0] > rc->wall.median;
		free(flags);
	}
	for (size_t i = 0; i < c->samples_nr; i++) {
		const struct pmbench_sample *s = &c->samples[i];

		if (s->warmup || !s->ok)
			continue;
		rc->user += (double)s->user_ns / 1e9;
		rc->sys += (double)s->sys_ns / 1e9;
		rc->max_rss += (double)s->max_rss_kib;
		rc->tree_rss += (double)s->tree_rss_kib;
		rc->nm_bytes += (double)s->nm_bytes;
		rc->nm_files += (double)s->nm_files;
	}
	if (rc->n) {
		double n = (double)rc->n;

		rc->user /= n;
		rc->sys /= n;
		rc->max_rss /= n;
		rc->tree_rss /= n;
		rc->nm_bytes /= n;
		rc->nm_files /= n;
	}
}

int pmbench_report_same_group(const struct pmbench_report *rep, size_t i,
			      size_t j)
{
	const struct pmbench_cell *a = rep->cells[i].cell;
	const struct pmbench_cell *b = rep->cells[j].cell;

	return !strcmp(a->fixture, b->fixture) && !strcmp(a->task, b->task) &&
	       !strcmp(a->scenario, b->scenario);
}

int pmbench_report_group_start(const struct pmbench_report *rep, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (pmbench_report_same_group(rep, i, j))
			return 0;
	return 1;
}

void pmbench_report_init(struct pmbench_report *out,
			 const struct pmbench_result *r)
{
	out->result = r;
	out->cells_nr = r->cells_nr;
	out->cells = pmbench_xcalloc(r->cells_nr ? r->cells_nr : 1,
				     sizeof(*out->cells));
	for (size_t i = 0; i < r->cells_nr; i++)
		fill_cell(&out->cells[i], &r->cells[i], r->seed + i);

	/* The fastest of each scenario, then everyone against it. */
	for (size_t i = 0; i < out->cells_nr; i++) {
		long best = -1;

		if (!pmbench_report_group_start(out, i))
			continue;
		for (size_t j = i; j < out->cells_nr; j++) {
			const struct pmbench_report_cell *c = &out->cells[j];

			if (!pmbench_report_same_group(out, i, j) || !c->n)
				continue;
			if (best < 0 ||
			    c->wall.median < out->cells[best].wall.median)
				best = (long)j;
		}
		for (size_t j = i; j < out->cells_nr; j++) {
			struct pmbench_report_cell *c = &out->cells[j];
			const struct pmbench_report_cell *f;
			struct pmbench_rng rng;

			if (!pmbench_report_same_group(out, i, j))
				continue;
			c->fastest = best;
			if (best < 0 || (long)j == best || !c->n)
				continue;
			f = &out->cells[best];
			pmbench_rng_seed(&rng, r->seed + j);
			if (!pmbench_stats_compare(&c->vs, c->times, c->n,
						   f->times, f->n,
						   PMBENCH_REPORT_LEVEL,
						   PMBENCH_REPORT_RESAMPLES,
						   PMBENCH_REPORT_ALPHA, &rng))
				c->has_vs = 1;
			else
				pmbench_error_clear();
		}
	}
}

void pmbench_report_release(struct pmbench_report *rep)
{
	for (size_t i = 0; i < rep->cells_nr; i++)
		free(rep->cells[i].times);
	free(rep->cells);
	rep->cells = NULL;
	rep->cells_nr = 0;
	rep->result = NULL;
}

int pmbench_report_format_parse(enum pmbench_report_format *out,
				const char *name)
{
	static const struct {
		const char *name;
		enum pmbench_report_format format;
	} names[] = {
		{ "table", PMBENCH_REPORT_TABLE },
		{ "markdown", PMBENCH_REPORT_MARKDOWN },
		{ "md", PMBENCH_REPORT_MARKDOWN },
		{ "csv", PMBENCH_REPORT_CSV },
		{ "json", PMBENCH_REPORT_JSON },
		{ "hyperfine", PMBENCH_REPORT_JSON },
		{ "html", PMBENCH_REPORT_HTML },
	};

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(names); i++) {
		if (!strcmp(names[i].name, name)) {
			*out = names[i].format;
			return 0;
		}
	}
	return pmbench_error_setc(PMBENCH_EINVALID,
				  "unknown report format '%s'; use table, "
				  "markdown, csv, json or html",
				  name);
}

/* ---- Text helpers ------------------------------------------------------ */

void pmbench_report_add_duration(struct pmbench_buf *out, double s)
{
	if (s < 1.0)
		pmbench_buf_addf(out, "%.1f ms", s * 1e3);
	else
		pmbench_buf_addf(out, "%.3f s", s);
}

void pmbench_report_add_ratio(struct pmbench_buf *out, double ratio)
{
	if (ratio >= 10)
		pmbench_buf_addf(out, "%.1fx", ratio);
	else
		pmbench_buf_addf(out, "%.2fx", ratio);
}

void pmbench_report_add_state(struct pmbench_buf *out, unsigned state)
{
	pmbench_buf_addf(out, "cache %s, lockfile %s, node_modules %s",
			 state & PMBENCH_STATE_CACHE ? "warm" : "empty",
			 state & PMBENCH_STATE_LOCKFILE ? "present" : "absent",
			 state & PMBENCH_STATE_NODE_MODULES ? "present"
							    : "absent");
}

static void add_p(struct pmbench_buf *out, double p)
{
	if (p < 0.001)
		pmbench_buf_adds(out, "p < 0.001");
	else
		pmbench_buf_addf(out, "p = %.3f", p);
}

void pmbench_report_add_sentence(struct pmbench_buf *out,
				 const struct pmbench_report *rep, size_t i)
{
	const struct pmbench_report_cell *c = &rep->cells[i];
	const struct pmbench_report_cell *f;

	if (!c->has_vs)
		return;
	f = &rep->cells[c->fastest];
	if (c->vs.verdict == PMBENCH_VERDICT_SAME &&
	    pmbench_stats_mwu_min_p(c->n, f->n) >= PMBENCH_REPORT_ALPHA) {
		/* 3 runs against 3 can never reach p < 0.05: say so. */
		pmbench_buf_addf(out, "too few runs to tell %s and %s apart "
				      "(%zu and %zu; Mann-Whitney needs 4 each "
				      "to reach p < 0.05): ",
				 f->cell->pm, c->cell->pm, f->n, c->n);
		pmbench_report_add_ratio(out, c->vs.ratio.point);
		pmbench_buf_adds(out, ", 95% CI ");
		pmbench_report_add_ratio(out, c->vs.ratio.lo);
		pmbench_buf_adds(out, "–");
		pmbench_report_add_ratio(out, c->vs.ratio.hi);
		return;
	}
	if (c->vs.verdict == PMBENCH_VERDICT_SAME) {
		pmbench_buf_addf(out, "no significant difference between %s "
				      "and %s (",
				 f->cell->pm, c->cell->pm);
		pmbench_report_add_ratio(out, c->vs.ratio.point);
		pmbench_buf_adds(out, ", 95% CI ");
		pmbench_report_add_ratio(out, c->vs.ratio.lo);
		pmbench_buf_adds(out, "–");
		pmbench_report_add_ratio(out, c->vs.ratio.hi);
		pmbench_buf_adds(out, ", ");
		add_p(out, c->vs.mwu.p);
		pmbench_buf_adds(out, ")");
		return;
	}
	pmbench_buf_addf(out, "%s is ", f->cell->pm);
	pmbench_report_add_ratio(out, c->vs.ratio.point);
	pmbench_buf_adds(out, " (");
	pmbench_report_add_ratio(out, c->vs.ratio.lo);
	pmbench_buf_adds(out, "–");
	pmbench_report_add_ratio(out, c->vs.ratio.hi);
	pmbench_buf_addf(out, ") faster than %s (", c->cell->pm);
	add_p(out, c->vs.mwu.p);
	pmbench_buf_adds(out, ")");
}

/* ---- The column table -------------------------------------------------- */

static void col_median(struct pmbench_buf *b,
		       const struct pmbench_report_cell *c)
{
	pmbench_report_add_duration(b, c->wall.median);
}

static void col_ci(struct pmbench_buf *b, const struct pmbench_report_cell *c)
{
	if (!c->has_ci)
		return;
	pmbench_report_add_duration(b, c->median_ci.lo);
	pmbench_buf_adds(b, " – ");
	pmbench_report_add_duration(b, c->median_ci.hi);
}

static void col_mean(struct pmbench_buf *b,
		     const struct pmbench_report_cell *c)
{
	pmbench_report_add_duration(b, c->wall.mean);
	pmbench_buf_adds(b, " ± ");
	pmbench_report_add_duration(b, c->wall.sd);
}

static void col_range(struct pmbench_buf *b,
		      const struct pmbench_report_cell *c)
{
	pmbench_report_add_duration(b, c->wall.min);
	pmbench_buf_adds(b, " … ");
	pmbench_report_add_duration(b, c->wall.max);
}

static void col_runs(struct pmbench_buf *b,
		     const struct pmbench_report_cell *c)
{
	pmbench_buf_addf(b, "%zu", c->n);
	if (c->failed && c->interrupted)
		pmbench_buf_addf(b, " (+%zu failed, +%zu interrupted)",
				 c->failed, c->interrupted);
	else if (c->failed)
		pmbench_buf_addf(b, " (+%zu failed)", c->failed);
	else if (c->interrupted)
		pmbench_buf_addf(b, " (+%zu interrupted)", c->interrupted);
}

static void col_outliers(struct pmbench_buf *b,
			 const struct pmbench_report_cell *c)
{
	pmbench_buf_addf(b, "%zu", c->outliers);
}

static void col_user(struct pmbench_buf *b,
		     const struct pmbench_report_cell *c)
{
	pmbench_report_add_duration(b, c->user);
}

static void col_sys(struct pmbench_buf *b, const struct pmbench_report_cell *c)
{
	pmbench_report_add_duration(b, c->sys);
}

static void col_rss(struct pmbench_buf *b, const struct pmbench_report_cell *c)
{
	pmbench_buf_addf(b, "%.0f MiB", c->max_rss / 1024.0);
}

static void col_tree(struct pmbench_buf *b,
		     const struct pmbench_report_cell *c)
{
	pmbench_buf_addf(b, "%.0f MiB", c->tree_rss / 1024.0);
}

static void col_nm(struct pmbench_buf *b, const struct pmbench_report_cell *c)
{
	pmbench_buf_addf(b, "%.1f MB, %.0f files", c->nm_bytes / 1e6,
			 c->nm_files);
}

static void col_vs(struct pmbench_buf *b, const struct pmbench_report_cell *c)
{
	if (!c->has_vs) {
		if (c->fastest >= 0 && c->n)
			pmbench_buf_adds(b, "fastest");
		return;
	}
	pmbench_report_add_ratio(b, c->vs.ratio.point);
	pmbench_buf_adds(b, " (");
	pmbench_report_add_ratio(b, c->vs.ratio.lo);
	pmbench_buf_adds(b, "–");
	pmbench_report_add_ratio(b, c->vs.ratio.hi);
	pmbench_buf_adds(b, c->vs.verdict == PMBENCH_VERDICT_SAME ? ") n.s."
								   : ")");
}

/* One column table drives the terminal, Markdown and HTML tables. */
static const struct {
	const char *header;
	void (*fn)(struct pmbench_buf *b, const struct pmbench_report_cell *c);
} columns[] = {
	{ "median", col_median },	  { "95% CI", col_ci },
	{ "mean ± σ", col_mean },	  { "min … max", col_range },
	{ "runs", col_runs },		  { "outliers", col_outliers },
	{ "user", col_user },		  { "sys", col_sys },
	{ "max RSS", col_rss },		  { "tree RSS", col_tree },
	{ "node_modules", col_nm },	  { "vs fastest (95% CI)", col_vs },
};

size_t pmbench_report_columns(void)
{
	return PMBENCH_ARRAY_SIZE(columns);
}

const char *pmbench_report_column_header(size_t k)
{
	return k < PMBENCH_ARRAY_SIZE(columns) ? columns[k].header : "";
}

void pmbench_report_column_text(struct pmbench_buf *out, size_t k,
				const struct pmbench_report_cell *c)
{
	if (k < PMBENCH_ARRAY_SIZE(columns) && c->n)
		columns[k].fn(out, c);
}

/* ---- Shared pieces ----------------------------------------------------- */

static const char *first_failure(const struct pmbench_cell *c)
{
	if (c->prime_failure)
		return c->prime_failure;
	for (size_t i = 0; i < c->samples_nr; i++)
		if (!c->samples[i].warmup && !c->samples[i].ok &&
		    !c->samples[i].interrupted && c->samples[i].failure)
			return c->samples[i].failure;
	return "unknown";
}

const char *pmbench_report_no_times(const struct pmbench_report_cell *c)
{
	if (c->cell->prime_failure || c->failed)
		return "failed";
	return c->interrupted ? "interrupted" : "not run";
}

void pmbench_report_add_leftover(struct pmbench_buf *out,
				 const struct pmbench_cell *c,
				 const char *runs)
{
	size_t with = 0, n = pmbench_cell_leftover(c, &with);

	if (!n || !strcmp(c->task, "dev"))
		return;
	pmbench_buf_addf(out,
			 "%s left %zu process%s running after %zu of %zu %s "
			 "(stopped by pmbench)",
			 c->pm, n, n == 1 ? "" : "es", with, c->samples_nr,
			 runs);
}

void pmbench_report_add_notes(struct pmbench_buf *out, const char *indent,
			      const struct pmbench_report_cell *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (c->interrupted)
		pmbench_buf_addf(out,
				 "%snote: %s: %zu run%s interrupted (pmbench "
				 "was stopped): no failure, left out of the "
				 "statistics\n",
				 indent, c->cell->pm, c->interrupted,
				 c->interrupted == 1 ? "" : "s");
	pmbench_report_add_leftover(&b, c->cell, "runs");
	if (b.len)
		pmbench_buf_addf(out, "%snote: %s\n", indent, b.ptr);
	pmbench_buf_release(&b);
}

/* The first line of `s`, for one-line summaries. */
static void add_line(struct pmbench_buf *b, const char *s)
{
	pmbench_buf_add(b, s, strcspn(s, "\n"));
}

/* Outlier and slow-first-run warnings of one cell, hyperfine style. */
/*
 * Times that rise or fall with the run order (Spearman's rho of run index
 * against time) mean the machine drifted during the benchmark: a thermal
 * throttle, a filling disk, a background job. Judged from 6 runs on.
 */
static void add_drift(struct pmbench_buf *b, const char *indent,
		      const struct pmbench_report_cell *c)
{
	double *idx, rho;

	if (c->n < PMBENCH_REPORT_DRIFT_MIN_RUNS)
		return;
	idx = pmbench_xmalloc(pmbench_st_mult(c->n, sizeof(*idx)));
	for (size_t i = 0; i < c->n; i++)
		idx[i] = (double)i;
	rho = pmbench_stats_spearman(idx, c->times, c->n);
	free(idx);
	if (fabs(rho) >= PMBENCH_REPORT_DRIFT_RHO)
		pmbench_buf_addf(b,
				 "%swarning: %s's times %s run after run "
				 "(Spearman rho %.2f): the machine drifted; "
				 "re-run on a quiet system\n",
				 indent, c->cell->pm,
				 rho > 0 ? "rise" : "fall", rho);
}

static void add_warnings(struct pmbench_buf *b, const char *indent,
			 const struct pmbench_report_cell *c)
{
	if (c->slow_first)
		pmbench_buf_addf(b,
				 "%swarning: %s's first timed run was much "
				 "slower than the others; a cache may have "
				 "been cold: add warm-up runs (--warmup)\n",
				 indent, c->cell->pm);
	else if (c->outliers)
		pmbench_buf_addf(b,
				 "%swarning: %zu statistical outlier(s) in "
				 "%s's runs; consider re-running on a quiet "
				 "system (fewer background programs, no "
				 "other benchmarks)\n",
				 indent, c->outliers, c->cell->pm);
	if (c->n && c->n < 5)
		pmbench_buf_addf(b,
				 "%snote: %s has only %zu successful run(s); "
				 "its interval is rough\n",
				 indent, c->cell->pm, c->n);
	add_drift(b, indent, c);
	pmbench_report_add_notes(b, indent, c);
}

size_t pmbench_report_display_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

static void pad(struct pmbench_buf *b, const char *s, size_t width)
{
	size_t len = pmbench_report_display_len(s);

	pmbench_buf_adds(b, s);
	while (len++ < width)
		pmbench_buf_addch(b, ' ');
}

/* ---- Terminal table ---------------------------------------------------- */

static void table_group(struct pmbench_buf *out,
			const struct pmbench_report *rep, size_t g)
{
	size_t ncols = PMBENCH_ARRAY_SIZE(columns), *width;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const struct pmbench_report_cell *first = &rep->cells[g];

	width = pmbench_xcalloc(ncols + 1, sizeof(*width));
	width[0] = 2;
	for (size_t i = g; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];

		if (!pmbench_report_same_group(rep, g, i))
			continue;
		if (strlen(c->cell->pm) > width[0])
			width[0] = strlen(c->cell->pm);
		for (size_t k = 0; k < ncols; k++) {
			size_t len;

			pmbench_buf_reset(&b);
			pmbench_report_column_text(&b, k, c);
			len = pmbench_report_display_len(b.ptr);
			if (len > width[k + 1])
				width[k + 1] = len;
		}
	}
	for (size_t k = 0; k < ncols; k++) {
		size_t len = pmbench_report_display_len(columns[k].header);

		if (len > width[k + 1])
			width[k + 1] = len;
	}

	pmbench_buf_addf(out, "\n%s · %s · %s\n  (", first->cell->fixture,
			 first->cell->task, first->cell->scenario);
	pmbench_report_add_state(out, first->state);
	pmbench_buf_adds(out, ")\n");
	if (first->cell->stopped_by)
		pmbench_buf_addf(out, "  --runs auto stopped by: %s\n",
				 first->cell->stopped_by);
	pmbench_buf_adds(out, "  ");
	pad(out, "pm", width[0]);
	for (size_t k = 0; k < ncols; k++) {
		pmbench_buf_adds(out, "  ");
		pad(out, columns[k].header, width[k + 1]);
	}
	pmbench_buf_rtrim(out);
	pmbench_buf_addch(out, '\n');
	for (size_t i = g; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];

		if (!pmbench_report_same_group(rep, g, i))
			continue;
		pmbench_buf_adds(out, "  ");
		pad(out, c->cell->pm, width[0]);
		if (c->cell->prime_failure || !c->n) {
			if (c->cell->prime_failure) {
				pmbench_buf_adds(out, "  failed: ");
				add_line(out, first_failure(c->cell));
			} else if (c->failed) {
				pmbench_buf_addf(out,
						 "  failed (%zu of %zu runs): ",
						 c->failed, c->failed);
				add_line(out, first_failure(c->cell));
			} else if (c->interrupted) {
				/* pmbench was stopped during its first run. */
				pmbench_buf_adds(out, "  interrupted before a "
						      "run finished");
			} else {
				pmbench_buf_adds(out, "  not run: the "
						      "benchmark stopped "
						      "before it");
			}
			pmbench_buf_addch(out, '\n');
			continue;
		}
		for (size_t k = 0; k < ncols; k++) {
			pmbench_buf_reset(&b);
			pmbench_report_column_text(&b, k, c);
			pmbench_buf_adds(out, "  ");
			pad(out, b.ptr, width[k + 1]);
		}
		pmbench_buf_rtrim(out);
		pmbench_buf_addch(out, '\n');
		if (c->failed) {
			pmbench_buf_addf(out, "  %*s  %zu run(s) failed: ",
					 (int)width[0], "", c->failed);
			add_line(out, first_failure(c->cell));
			pmbench_buf_addch(out, '\n');
		}
	}
	for (size_t i = g; i < rep->cells_nr; i++) {
		if (!pmbench_report_same_group(rep, g, i))
			continue;
		pmbench_buf_reset(&b);
		pmbench_report_add_sentence(&b, rep, i);
		if (b.len)
			pmbench_buf_addf(out, "  %s\n", b.ptr);
		add_warnings(out, "  ", &rep->cells[i]);
	}
	pmbench_buf_release(&b);
	free(width);
}

int pmbench_report_scripts_mixed(const struct pmbench_report *rep,
				 const char *fixture)
{
	int any_all = 0, any_not = 0;

	for (size_t i = 0; i < rep->cells_nr; i++) {
		const struct pmbench_cell *c = rep->cells[i].cell;

		if (strcmp(c->fixture, fixture) || !c->scripts ||
		    strstr(c->scripts, "no installed dependency"))
			continue;
		if (strstr(c->scripts, "runs every") ||
		    strstr(c->scripts, "runs dependency"))
			any_all = 1;
		else
			any_not = 1;
	}
	return any_all && any_not;
}

/* The lockfile and lifecycle-script notes, once per fixture. */
static void table_notes(struct pmbench_buf *out,
			const struct pmbench_report *rep, const char *fixture)
{
	struct pmbench_strvec seen = PMBENCH_STRVEC_INIT;

	for (size_t i = 0; i < rep->cells_nr; i++) {
		const struct pmbench_cell *c = rep->cells[i].cell;

		/* "(node)" and the like ran without a PM. */
		if (strcmp(c->fixture, fixture) || c->pm[0] == '(' ||
		    pmbench_strvec_find(&seen, c->pm) >= 0)
			continue;
		pmbench_strvec_push(&seen, c->pm);
		if (seen.nr == 1)
			pmbench_buf_addf(out, "\n%s: what each PM used\n",
					 fixture);
		pmbench_buf_addf(out, "  %-10s lockfile: %s\n", c->pm,
				 c->lockfile ? c->lockfile : "(not primed)");
		if (c->scripts)
			pmbench_buf_addf(out, "  %-10s scripts:  %s\n", "",
					 c->scripts);
	}
	if (pmbench_report_scripts_mixed(rep, fixture))
		pmbench_buf_adds(out, "  note: " PMBENCH_REPORT_SCRIPTS_NOTE
				      "\n");
	pmbench_strvec_release(&seen);
}

/* The run, build and dev details (table_tasks.c) of one fixture. */
static void add_task_tables(struct pmbench_buf *out,
			    const struct pmbench_report *rep,
			    const char *fixture)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		pmbench_die("out of memory writing a table");
	pmbench_table_tasks_print(mem, rep->result, fixture);
	if (fclose(mem))
		pmbench_die("out of memory writing a table");
	pmbench_buf_add(out, text, len);
	free(text);
}

static void write_table(struct pmbench_buf *out,
			const struct pmbench_report *rep)
{
	struct pmbench_strvec fixtures = PMBENCH_STRVEC_INIT;

	for (size_t i = 0; i < rep->cells_nr; i++) {
		const char *name = rep->cells[i].cell->fixture;

		if (pmbench_strvec_find(&fixtures, name) < 0)
			pmbench_strvec_push(&fixtures, name);
	}
	for (size_t f = 0; f < fixtures.nr; f++) {
		for (size_t i = 0; i < rep->cells_nr; i++)
			if (!strcmp(rep->cells[i].cell->fixture,
				    fixtures.v[f]) &&
			    pmbench_report_group_start(rep, i))
				table_group(out, rep, i);
		add_task_tables(out, rep, fixtures.v[f]);
		table_notes(out, rep, fixtures.v[f]);
	}
	pmbench_strvec_release(&fixtures);
}

/* ---- Markdown ---------------------------------------------------------- */

/* Text for a Markdown table cell: no newlines, '|' escaped. */
static void md_cell(struct pmbench_buf *out, const char *s)
{
	for (; *s && *s != '\n'; s++) {
		if (*s == '|')
			pmbench_buf_addch(out, '\\');
		if (*s == '\r' || *s == '\t')
			pmbench_buf_addch(out, ' ');
		else
			pmbench_buf_addch(out, *s);
	}
}

static void md_median(struct pmbench_buf *out,
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

static void md_matrix(struct pmbench_buf *out, const struct pmbench_report *rep,
		      const char *fixture, const struct pmbench_strvec *pms)
{
	pmbench_buf_addf(out, "## %s: median time (95%% CI)\n\n", fixture);
	pmbench_buf_adds(out, "| action | cache | lockfile | node_modules |");
	for (size_t p = 0; p < pms->nr; p++) {
		pmbench_buf_addch(out, ' ');
		md_cell(out, pms->v[p]);
		pmbench_buf_adds(out, " |");
	}
	pmbench_buf_adds(out, "\n|---|---|---|---|");
	for (size_t p = 0; p < pms->nr; p++)
		pmbench_buf_adds(out, "---|");
	pmbench_buf_addch(out, '\n');
	for (size_t g = 0; g < rep->cells_nr; g++) {
		const struct pmbench_report_cell *first = &rep->cells[g];

		if (strcmp(first->cell->fixture, fixture) ||
		    !pmbench_report_group_start(rep, g))
			continue;
		pmbench_buf_adds(out, "| ");
		md_cell(out, first->cell->task);
		pmbench_buf_addf(out, " | %s | %s | %s |",
				 first->state & PMBENCH_STATE_CACHE ? "✔" : "",
				 first->state & PMBENCH_STATE_LOCKFILE ? "✔"
								       : "",
				 first->state & PMBENCH_STATE_NODE_MODULES
					 ? "✔"
					 : "");
		for (size_t p = 0; p < pms->nr; p++) {
			const struct pmbench_report_cell *c = NULL;

			for (size_t i = g; i < rep->cells_nr && !c; i++)
				if (pmbench_report_same_group(rep, g, i) &&
				    !strcmp(rep->cells[i].cell->pm, pms->v[p]))
					c = &rep->cells[i];
			pmbench_buf_addch(out, ' ');
			if (c)
				md_median(out, c);
			else
				pmbench_buf_adds(out, "–");
			pmbench_buf_adds(out, " |");
		}
		pmbench_buf_addch(out, '\n');
	}
	pmbench_buf_addch(out, '\n');
}

static void md_ratios(struct pmbench_buf *out, const struct pmbench_report *rep)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int any = 0;

	for (size_t i = 0; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];

		if (!c->has_vs)
			continue;
		if (!any)
			pmbench_buf_adds(out,
					 "## Ratios against the fastest\n\n"
					 "Ratio of medians with its bootstrap "
					 "95% interval; significance by "
					 "Mann–Whitney U (α = 0.05).\n\n"
					 "| fixture | action | scenario | cache "
					 "state | fastest | pm | ratio | 95% "
					 "CI | p | verdict |\n"
					 "|---|---|---|---|---|---|---|---|---"
					 "|---|\n");
		any = 1;
		pmbench_buf_adds(out, "| ");
		md_cell(out, c->cell->fixture);
		pmbench_buf_adds(out, " | ");
		md_cell(out, c->cell->task);
		pmbench_buf_adds(out, " | ");
		md_cell(out, c->cell->scenario);
		pmbench_buf_adds(out, " | ");
		pmbench_report_add_state(out, c->state);
		pmbench_buf_adds(out, " | ");
		md_cell(out, rep->cells[c->fastest].cell->pm);
		pmbench_buf_adds(out, " | ");
		md_cell(out, c->cell->pm);
		pmbench_buf_adds(out, " | ");
		pmbench_report_add_ratio(out, c->vs.ratio.point);
		pmbench_buf_adds(out, " | ");
		pmbench_report_add_ratio(out, c->vs.ratio.lo);
		pmbench_buf_adds(out, "–");
		pmbench_report_add_ratio(out, c->vs.ratio.hi);
		pmbench_buf_adds(out, " | ");
		add_p(out, c->vs.mwu.p);
		pmbench_buf_adds(out, " | ");
		pmbench_buf_reset(&b);
		pmbench_report_add_sentence(&b, rep, i);
		md_cell(out, b.ptr);
		pmbench_buf_adds(out, " |\n");
	}
	if (any)
		pmbench_buf_addch(out, '\n');
	pmbench_buf_release(&b);
}

static void md_details(struct pmbench_buf *out,
		       const struct pmbench_report *rep)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_adds(out, "## Details\n");
	for (size_t g = 0; g < rep->cells_nr; g++) {
		const struct pmbench_report_cell *first = &rep->cells[g];

		if (!pmbench_report_group_start(rep, g))
			continue;
		pmbench_buf_adds(out, "\n### ");
		md_cell(out, first->cell->fixture);
		pmbench_buf_adds(out, " · ");
		md_cell(out, first->cell->task);
		pmbench_buf_adds(out, " · ");
		md_cell(out, first->cell->scenario);
		pmbench_buf_adds(out, "\n\n");
		pmbench_report_add_state(out, first->state);
		if (first->cell->stopped_by)
			pmbench_buf_addf(out, "; `--runs auto` stopped by %s",
					 first->cell->stopped_by);
		pmbench_buf_adds(out, ".\n\n| pm |");
		for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(columns); k++)
			pmbench_buf_addf(out, " %s |", columns[k].header);
		pmbench_buf_adds(out, "\n|---|");
		for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(columns); k++)
			pmbench_buf_adds(out, "---|");
		pmbench_buf_addch(out, '\n');
		for (size_t i = g; i < rep->cells_nr; i++) {
			const struct pmbench_report_cell *c = &rep->cells[i];

			if (!pmbench_report_same_group(rep, g, i))
				continue;
			pmbench_buf_adds(out, "| ");
			md_cell(out, c->cell->pm);
			pmbench_buf_adds(out, " |");
			for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(columns);
			     k++) {
				pmbench_buf_reset(&b);
				if (!c->n && !k)
					pmbench_buf_adds(
						&b, pmbench_report_no_times(c));
				pmbench_report_column_text(&b, k, c);
				pmbench_buf_addch(out, ' ');
				md_cell(out, b.ptr);
				pmbench_buf_adds(out, " |");
			}
			pmbench_buf_addch(out, '\n');
		}
		pmbench_buf_reset(&b);
		for (size_t i = g; i < rep->cells_nr; i++)
			if (pmbench_report_same_group(rep, g, i))
				add_warnings(&b, "> ", &rep->cells[i]);
		if (b.len)
			pmbench_buf_addf(out, "\n%s", b.ptr);
	}
	pmbench_buf_addch(out, '\n');
	pmbench_buf_release(&b);
}

/* A fenced code block whose fence cannot occur in the text. */
static void md_code(struct pmbench_buf *out, const char *text)
{
	size_t fence = 3, run = 0;

	for (const char *p = text; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run >= fence)
			fence = run + 1;
	}
	for (size_t i = 0; i < fence; i++)
		pmbench_buf_addch(out, '`');
	pmbench_buf_addf(out, "\n%s", text);
	if (!*text || text[strlen(text) - 1] != '\n')
		pmbench_buf_addch(out, '\n');
	for (size_t i = 0; i < fence; i++)
		pmbench_buf_addch(out, '`');
	pmbench_buf_addch(out, '\n');
}

static void md_failures(struct pmbench_buf *out,
			const struct pmbench_report *rep)
{
	int any = 0;

	for (size_t i = 0; i < rep->cells_nr; i++) {
		const struct pmbench_cell *c = rep->cells[i].cell;

		for (size_t k = 0; k <= c->samples_nr; k++) {
			const char *why, *tail;

			if (k == c->samples_nr) {
				why = c->prime_failure;
				tail = NULL;
			} else if (!c->samples[k].ok &&
				   !c->samples[k].interrupted) {
				why = c->samples[k].failure
					      ? c->samples[k].failure
					      : "unknown";
				tail = c->samples[k].tail;
			} else {
				/* Interrupted runs are no failures. */
				continue;
			}
			if (!why)
				continue;
			if (!any)
				pmbench_buf_adds(out, "## Failures\n\n");
			any = 1;
			pmbench_buf_adds(out, "* ");
			md_cell(out, c->pm);
			pmbench_buf_adds(out, ", ");
			md_cell(out, c->fixture);
			pmbench_buf_adds(out, " · ");
			md_cell(out, c->task);
			pmbench_buf_adds(out, " · ");
			md_cell(out, c->scenario);
			if (k == c->samples_nr)
				pmbench_buf_adds(out, ", priming: ");
			else
				pmbench_buf_addf(out, ", round %u: ",
						 c->samples[k].round);
			md_cell(out, why);
			pmbench_buf_addch(out, '\n');
			if (tail) {
				pmbench_buf_addch(out, '\n');
				md_code(out, tail);
				pmbench_buf_addch(out, '\n');
			}
		}
	}
	if (any)
		pmbench_buf_addch(out, '\n');
}

static void md_environment(struct pmbench_buf *out,
			   const struct pmbench_result *r)
{
	pmbench_buf_adds(out, "## Environment\n\n| | |\n|---|---|\n");
	for (size_t i = 0; i < r->found_nr; i++) {
		pmbench_buf_adds(out, "| ");
		md_cell(out, r->found[i].name);
		pmbench_buf_adds(out, " | ");
		md_cell(out, r->found[i].version ? r->found[i].version
						 : "not found");
		if (r->found[i].path) {
			pmbench_buf_adds(out, " (");
			md_cell(out, r->found[i].path);
			pmbench_buf_adds(out, ")");
		}
		pmbench_buf_adds(out, " |\n");
	}
	for (size_t i = 0; i < r->env_nr; i++) {
		pmbench_buf_adds(out, "| ");
		md_cell(out, r->env[i].key);
		pmbench_buf_adds(out, " | ");
		md_cell(out, r->env[i].value);
		pmbench_buf_adds(out, " |\n");
	}
	for (size_t i = 0; i < r->fixtures_nr; i++) {
		const struct pmbench_result_fixture *f = &r->fixtures[i];

		pmbench_buf_adds(out, "| fixture ");
		md_cell(out, f->name ? f->name : "?");
		pmbench_buf_adds(out, " | ");
		md_cell(out, f->repo ? f->repo : "(local)");
		if (f->commit) {
			pmbench_buf_adds(out, " @ ");
			md_cell(out, f->commit);
		}
		pmbench_buf_adds(out, " |\n");
	}
}

static void md_used(struct pmbench_buf *out, const struct pmbench_report *rep,
		    const char *fixture)
{
	struct pmbench_strvec seen = PMBENCH_STRVEC_INIT;

	pmbench_buf_adds(out, "## ");
	md_cell(out, fixture);
	pmbench_buf_adds(out, ": what each PM used\n\n| pm | lockfile | "
			      "dependency scripts |\n|---|---|---|\n");
	for (size_t i = 0; i < rep->cells_nr; i++) {
		const struct pmbench_cell *c = rep->cells[i].cell;

		if (strcmp(c->fixture, fixture) ||
		    pmbench_strvec_find(&seen, c->pm) >= 0)
			continue;
		pmbench_strvec_push(&seen, c->pm);
		pmbench_buf_adds(out, "| ");
		md_cell(out, c->pm);
		pmbench_buf_adds(out, " | ");
		md_cell(out, c->lockfile ? c->lockfile : "(not primed)");
		pmbench_buf_adds(out, " | ");
		md_cell(out, c->scripts ? c->scripts : "");
		pmbench_buf_adds(out, " |\n");
	}
	if (pmbench_report_scripts_mixed(rep, fixture))
		pmbench_buf_adds(out, "\n**Note:** " PMBENCH_REPORT_SCRIPTS_NOTE
				      ".\n");
	pmbench_buf_addch(out, '\n');
	pmbench_strvec_release(&seen);
}

static void write_markdown(struct pmbench_buf *out,
			   const struct pmbench_report *rep)
{
	const struct pmbench_result *r = rep->result;
	struct pmbench_strvec fixtures = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec pms = PMBENCH_STRVEC_INIT;

	for (size_t i = 0; i < rep->cells_nr; i++) {
		const struct pmbench_cell *c = rep->cells[i].cell;

		if (pmbench_strvec_find(&fixtures, c->fixture) < 0)
			pmbench_strvec_push(&fixtures, c->fixture);
		if (pmbench_strvec_find(&pms, c->pm) < 0)
			pmbench_strvec_push(&pms, c->pm);
	}
	pmbench_buf_adds(out, "# pmbench results\n\n");
	pmbench_buf_addf(out, "Created %s by pmbench %s; ",
			 r->created ? r->created : "(unknown)",
			 r->pmbench_version ? r->pmbench_version : "?");
	if (r->runs_auto)
		pmbench_buf_addf(out, "`--runs auto` (target ±%g%%, at most "
				      "%u runs)",
				 r->auto_target * 100, r->runs);
	else
		pmbench_buf_addf(out, "%u timed run(s)", r->runs);
	pmbench_buf_addf(out, " and %u warm-up(s) per cell, seed %llu.\n\n",
			 r->warmup, (unsigned long long)r->seed);
	for (size_t f = 0; f < fixtures.nr; f++)
		md_matrix(out, rep, fixtures.v[f], &pms);
	md_ratios(out, rep);
	for (size_t f = 0; f < fixtures.nr; f++)
		md_used(out, rep, fixtures.v[f]);
	md_details(out, rep);
	md_failures(out, rep);
	md_environment(out, r);
	pmbench_strvec_release(&fixtures);
	pmbench_strvec_release(&pms);
}

/* ---- CSV --------------------------------------------------------------- */

static void csv_field(struct pmbench_buf *out, const char *s)
{
	if (!s)
		return;
	if (!s[strcspn(s, ",\"\r\n")]) {
		pmbench_buf_adds(out, s);
		return;
	}
	pmbench_buf_addch(out, '"');
	for (; *s; s++) {
		if (*s == '"')
			pmbench_buf_addch(out, '"');
		pmbench_buf_addch(out, *s);
	}
	pmbench_buf_addch(out, '"');
}

static void write_csv(struct pmbench_buf *out, const struct pmbench_report *rep)
{
	pmbench_buf_adds(out, "fixture,task,scenario,pm,round,warmup,ok,"
			      "wall_s,user_s,sys_s,max_rss_kib,tree_rss_kib,"
			      "exit_code,signal,timed_out,node_modules_bytes,"
			      "node_modules_files,failure,interrupted,"
			      "leftover\r\n");
	for (size_t i = 0; i < rep->cells_nr; i++) {
		const struct pmbench_cell *c = rep->cells[i].cell;

		for (size_t k = 0; k < c->samples_nr; k++) {
			const struct pmbench_sample *s = &c->samples[k];

			csv_field(out, c->fixture);
			pmbench_buf_addch(out, ',');
			csv_field(out, c->task);
			pmbench_buf_addch(out, ',');
			csv_field(out, c->scenario);
			pmbench_buf_addch(out, ',');
			csv_field(out, c->pm);
			pmbench_buf_addf(
				out,
				",%u,%d,%d,%.9f,%.9f,%.9f,%llu,%llu,%d,%d,%d,"
				"%llu,%llu,",
				s->round, s->warmup, s->ok,
				(double)s->wall_ns / 1e9,
				(double)s->user_ns / 1e9,
				(double)s->sys_ns / 1e9,
				(unsigned long long)s->max_rss_kib,
				(unsigned long long)s->tree_rss_kib,
				s->exit_code, s->signal, s->timed_out,
				(unsigned long long)s->nm_bytes,
				(unsigned long long)s->nm_files);
			csv_field(out, s->failure);
			/* New columns go last: positions stay valid. */
			pmbench_buf_addf(out, ",%d,%d\r\n", s->interrupted,
					 s->leftover);
		}
	}
}

/* ---- hyperfine-compatible JSON ----------------------------------------- */

static cJSON *must(cJSON *item)
{
	if (!item)
		pmbench_die("out of memory building JSON");
	return item;
}

static void json_num(cJSON *o, const char *key, double v)
{
	must(cJSON_AddNumberToObject(o, key, v));
}

static void write_json(struct pmbench_buf *out,
		       const struct pmbench_report *rep)
{
	cJSON *root = must(cJSON_CreateObject());
	cJSON *results = must(cJSON_AddArrayToObject(root, "results"));
	struct pmbench_buf cmd = PMBENCH_BUF_INIT;
	char *text;

	for (size_t i = 0; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];
		cJSON *o, *times, *codes, *params, *ci;

		if (!c->n)
			continue;
		o = must(cJSON_CreateObject());
		cJSON_AddItemToArray(results, o);
		pmbench_buf_reset(&cmd);
		pmbench_buf_addf(&cmd, "%s %s (%s, %s)", c->cell->pm,
				 c->cell->task, c->cell->scenario,
				 c->cell->fixture);
		must(cJSON_AddStringToObject(o, "command", cmd.ptr));
		json_num(o, "mean", c->wall.mean);
		json_num(o, "stddev", c->wall.sd);
		json_num(o, "median", c->wall.median);
		json_num(o, "user", c->user);
		json_num(o, "system", c->sys);
		json_num(o, "min", c->wall.min);
		json_num(o, "max", c->wall.max);
		times = must(cJSON_AddArrayToObject(o, "times"));
		codes = must(cJSON_AddArrayToObject(o, "exit_codes"));
		for (size_t k = 0; k < c->n; k++) {
			cJSON_AddItemToArray(times,
					     must(cJSON_CreateNumber(
						     c->times[k])));
			cJSON_AddItemToArray(codes,
					     must(cJSON_CreateNumber(0)));
		}
		params = must(cJSON_AddObjectToObject(o, "parameters"));
		must(cJSON_AddStringToObject(params, "pm", c->cell->pm));
		must(cJSON_AddStringToObject(params, "task", c->cell->task));
		must(cJSON_AddStringToObject(params, "scenario",
					     c->cell->scenario));
		must(cJSON_AddStringToObject(params, "fixture",
					     c->cell->fixture));
		/* Ours, past hyperfine's fields; its tools ignore them. */
		ci = must(cJSON_AddArrayToObject(o, "median_ci95"));
		cJSON_AddItemToArray(ci, must(cJSON_CreateNumber(
						 c->median_ci.lo)));
		cJSON_AddItemToArray(ci, must(cJSON_CreateNumber(
						 c->median_ci.hi)));
		json_num(o, "outliers", (double)c->outliers);
		json_num(o, "failed_runs", (double)c->failed);
		json_num(o, "interrupted_runs", (double)c->interrupted);
		{
			size_t with;

			json_num(o, "leftover_processes",
				 (double)pmbench_cell_leftover(c->cell, &with));
		}
	}
	text = cJSON_Print(root);
	if (!text)
		pmbench_die("out of memory printing JSON");
	pmbench_buf_adds(out, text);
	pmbench_buf_addch(out, '\n');
	cJSON_free(text);
	cJSON_Delete(root);
	pmbench_buf_release(&cmd);
}

void pmbench_report_write(struct pmbench_buf *out,
			  const struct pmbench_report *rep,
			  enum pmbench_report_format format)
{
	switch (format) {
	case PMBENCH_REPORT_TABLE:
		write_table(out, rep);
		break;
	case PMBENCH_REPORT_MARKDOWN:
		write_markdown(out, rep);
		break;
	case PMBENCH_REPORT_CSV:
		write_csv(out, rep);
		break;
	case PMBENCH_REPORT_JSON:
		write_json(out, rep);
		break;
	case PMBENCH_REPORT_HTML:
		pmbench_report_html(out, rep);
		break;
	}
}
