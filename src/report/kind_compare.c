/*
 * The compare kind: two results cell by cell (same fixture, task,
 * scenario and PM), the change of the median from A to B with its
 * bootstrap interval, Mann-Whitney and the verdict, for upgrades (bun
 * 1.1 -> 1.4) and before/after experiments. The statistics are the
 * model (pmbench_report_compare_init()); the rest says them.
 */
#include "pmbench/common.h"

#include "internal.h"
#include "pmbench/control.h"
#include "pmbench/report_kind.h"
#include "pmbench/scenario.h"

static void cell_name(struct pmbench_buf *b, const struct pmbench_cell *c)
{
	pmbench_buf_addf(b, "%s · %s · %s · %s", c->fixture, c->task,
			 c->scenario, c->pm);
}

/*
 * The cell of `x` that is `c` (of `y`) at another release: same fixture,
 * task and scenario, a PM of the same family whose name `y` lacks
 * (`pnpm@9` in A, `pnpm` in B); NULL unless exactly one is.
 */
static const struct pmbench_cell *other_release(const struct pmbench_result *x,
						const struct pmbench_result *y,
						const struct pmbench_cell *c)
{
	const char *family = pmbench_kind_pm_family(c->pm);
	const struct pmbench_cell *found = NULL;
	size_t n = 0;

	for (size_t i = 0; family && i < x->cells_nr; i++) {
		const struct pmbench_cell *o = &x->cells[i];
		const char *f = pmbench_kind_pm_family(o->pm);

		if (!f || strcmp(f, family) || !strcmp(o->pm, c->pm) ||
		    strcmp(o->fixture, c->fixture) ||
		    strcmp(o->task, c->task) ||
		    strcmp(o->scenario, c->scenario) ||
		    pmbench_result_find_cell(y, o->fixture, o->task,
					     o->scenario, o->pm))
			continue;
		found = o;
		n++;
	}
	return n == 1 && !pmbench_result_find_cell(x, c->fixture, c->task,
						   c->scenario, c->pm)
		       ? found
		       : NULL;
}

/* The cells of `x` that `y` lacks, named, into `out`. */
static void only_in(struct pmbench_strvec *out, const struct pmbench_result *x,
		    const struct pmbench_result *y)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < x->cells_nr; i++) {
		const struct pmbench_cell *c = &x->cells[i];

		if (pmbench_control_is(c->pm) ||
		    pmbench_result_find_cell(y, c->fixture, c->task,
					     c->scenario, c->pm) ||
		    other_release(y, x, c))
			continue;
		pmbench_buf_reset(&b);
		cell_name(&b, c);
		pmbench_strvec_push(out, b.ptr);
	}
	pmbench_buf_release(&b);
}

static void pair_fill(struct pmbench_report_pair *p,
		      const struct pmbench_cell *ca,
		      const struct pmbench_result *b, size_t i)
{
	const struct pmbench_cell *cb = &b->cells[i];
	struct pmbench_rng rng;
	double *ta, *tb;

	memset(p, 0, sizeof(*p));
	p->a = ca;
	p->b = cb;
	p->b_index = i;
	if (pmbench_scenario_parse(&p->state, cb->scenario) < 0)
		pmbench_error_clear();
	ta = pmbench_cell_times(ca, &p->na);
	tb = pmbench_cell_times(cb, &p->nb);
	p->median_a = pmbench_stats_median(ta, p->na);
	p->median_b = pmbench_stats_median(tb, p->nb);
	pmbench_rng_seed(&rng, b->seed + i);
	if (p->na && p->nb &&
	    !pmbench_stats_compare(
		    &p->cmp, tb, p->nb, ta, p->na, PMBENCH_REPORT_LEVEL,
		    PMBENCH_REPORT_RESAMPLES, PMBENCH_REPORT_ALPHA, &rng))
		p->has_cmp = 1;
	else
		pmbench_error_clear();
	p->too_few = pmbench_stats_mwu_min_p(p->na, p->nb) >=
		     PMBENCH_REPORT_ALPHA;
	pmbench_report_phases(&p->phases_a, ca);
	pmbench_report_phases(&p->phases_b, cb);
	free(ta);
	free(tb);
}

/* Whether `name` ends with the base side's mark ("todo@base"). */
static int base_side(const char *name)
{
	size_t n = strlen(name), k = strlen(PMBENCH_RESULT_BASE_SIDE);

	return n > k && !strcmp(name + n - k, PMBENCH_RESULT_BASE_SIDE);
}

int pmbench_report_has_sides(const struct pmbench_result *r)
{
	for (size_t i = 0; i < r->fixtures_nr; i++)
		if (base_side(r->fixtures[i].name))
			return 1;
	return 0;
}

/* The base side's cell of head cell `cb`, or NULL. */
static const struct pmbench_cell *base_of(const struct pmbench_result *r,
					  const struct pmbench_cell *cb)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const struct pmbench_cell *ca;

	pmbench_buf_addf(&b, "%s" PMBENCH_RESULT_BASE_SIDE, cb->fixture);
	ca = pmbench_result_find_cell(r, b.ptr, cb->task, cb->scenario, cb->pm);
	pmbench_buf_release(&b);
	return ca;
}

/* Whether the cell `c` of one side has its other side's in `r`. */
static int has_other_side(const struct pmbench_result *r,
			  const struct pmbench_cell *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int found;

	if (!base_side(c->fixture))
		return base_of(r, c) != NULL;
	pmbench_buf_add(&b, c->fixture,
			strlen(c->fixture) - strlen(PMBENCH_RESULT_BASE_SIDE));
	found = pmbench_result_find_cell(r, b.ptr, c->task, c->scenario,
					 c->pm) != NULL;
	pmbench_buf_release(&b);
	return found;
}

/* The base side's cells without a head's (only in A), and the head's. */
static void sides_only(struct pmbench_report_compare *out,
		       const struct pmbench_result *r)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < r->cells_nr; i++) {
		const struct pmbench_cell *c = &r->cells[i];

		if (pmbench_control_is(c->pm) || has_other_side(r, c))
			continue;
		pmbench_buf_reset(&b);
		cell_name(&b, c);
		pmbench_strvec_push(base_side(c->fixture) ? &out->only_a
							  : &out->only_b,
				    b.ptr);
	}
	pmbench_buf_release(&b);
}

void pmbench_report_compare_sides(struct pmbench_report_compare *out,
				  const struct pmbench_result *r,
				  const char *name)
{
	struct pmbench_report_compare blank = PMBENCH_REPORT_COMPARE_INIT;

	*out = blank;
	out->a = out->b = r;
	out->name_a = out->name_b = name;
	out->sides = 1;
	for (size_t i = 0; i < r->cells_nr; i++) {
		const struct pmbench_cell *cb = &r->cells[i], *ca;
		struct pmbench_report_pair *p;

		if (pmbench_control_is(cb->pm) || base_side(cb->fixture) ||
		    !(ca = base_of(r, cb)))
			continue;
		PMBENCH_ALLOC_GROW(out->pairs, out->pairs_nr + 1,
				   out->pairs_alloc);
		p = &out->pairs[out->pairs_nr++];
		pair_fill(p, ca, r, i);
		if (pmbench_cell_paired_ratio(&p->paired, &p->paired_n, cb, ca,
					      PMBENCH_REPORT_LEVEL,
					      PMBENCH_REPORT_RESAMPLES,
					      r->seed + i) > 0)
			p->has_paired = 1;
		else
			pmbench_error_clear();
	}
	sides_only(out, r);
}

void pmbench_report_compare_init(struct pmbench_report_compare *out,
				 const struct pmbench_result *a,
				 const char *name_a,
				 const struct pmbench_result *b,
				 const char *name_b)
{
	struct pmbench_report_compare blank = PMBENCH_REPORT_COMPARE_INIT;

	*out = blank;
	out->a = a;
	out->b = b;
	out->name_a = name_a;
	out->name_b = name_b;
	for (size_t i = 0; i < b->cells_nr; i++) {
		const struct pmbench_cell *cb = &b->cells[i];
		const struct pmbench_cell *ca = pmbench_result_find_cell(
			a, cb->fixture, cb->task, cb->scenario, cb->pm);

		if (!ca)
			ca = other_release(a, b, cb);

		/* The drift control is the machine, not a PM. */
		if (!ca || pmbench_control_is(cb->pm))
			continue;
		PMBENCH_ALLOC_GROW(out->pairs, out->pairs_nr + 1,
				   out->pairs_alloc);
		pair_fill(&out->pairs[out->pairs_nr++], ca, b, i);
	}
	only_in(&out->only_a, a, b);
	only_in(&out->only_b, b, a);
}

void pmbench_report_compare_release(struct pmbench_report_compare *c)
{
	struct pmbench_report_compare blank = PMBENCH_REPORT_COMPARE_INIT;

	free(c->pairs);
	pmbench_strvec_release(&c->only_a);
	pmbench_strvec_release(&c->only_b);
	*c = blank;
}

/* ---- The document ------------------------------------------------------ */

static void add_pct(struct pmbench_buf *b, double ratio)
{
	pmbench_buf_addf(b, "%+.1f%%", (ratio - 1) * 100);
}

/*
 * The verdict of the two sides of one bench --base from the paired
 * interval (as bench's against its baseline): faster, slower, or none.
 */
static enum pmbench_verdict paired_verdict(const struct pmbench_report_pair *p)
{
	if (p->paired.hi < 1)
		return PMBENCH_VERDICT_FASTER;
	if (p->paired.lo > 1)
		return PMBENCH_VERDICT_SLOWER;
	return PMBENCH_VERDICT_SAME;
}

/* Whether B's time changed from A's: the paired verdict if there is one. */
static int changed(const struct pmbench_report_pair *p)
{
	if (p->has_paired)
		return paired_verdict(p) != PMBENCH_VERDICT_SAME;
	return p->has_cmp && p->cmp.verdict != PMBENCH_VERDICT_SAME;
}

static const char *verdict(const struct pmbench_report_pair *p)
{
	if (p->has_paired)
		return paired_verdict(p) == PMBENCH_VERDICT_FASTER ? "faster"
		       : paired_verdict(p) == PMBENCH_VERDICT_SLOWER
			       ? "slower"
			       : "no difference (paired)";
	if (p->cmp.verdict == PMBENCH_VERDICT_FASTER)
		return "faster";
	if (p->cmp.verdict == PMBENCH_VERDICT_SLOWER)
		return "slower";
	return p->too_few ? "too few runs to test (4 each needed)"
			  : "no significant difference";
}

enum {
	COL_FIXTURE,
	COL_TASK,
	COL_SCENARIO,
	COL_PM,
	COL_VERSION,
	COL_MEDIAN_A,
	COL_MEDIAN_B,
	COL_CHANGE,
	COL_P,
	COL_VERDICT,
	COL_PHASE,
	/* Last: only the two sides of one bench --base have it. */
	COL_PAIRED,
};

static const struct pmbench_doc_column cmp_cols[] = {
	[COL_FIXTURE] = { NULL, 0, { { "fixture", PMBENCH_DOC_TEXT, 0 } } },
	[COL_TASK] = { NULL, 0, { { "task", PMBENCH_DOC_TEXT, 0 } } },
	[COL_SCENARIO] = { NULL, 0, { { "scenario", PMBENCH_DOC_TEXT, 0 } } },
	[COL_PM] = { "pm", 0, { { "pm", PMBENCH_DOC_TEXT, 0 } } },
	[COL_VERSION] = { "version A -> B",
			  0,
			  { { "version_a", PMBENCH_DOC_TEXT, 0 },
			    { "version_b", PMBENCH_DOC_TEXT, 0 } } },
	[COL_MEDIAN_A] = { "median A",
			   0,
			   { { "median_a", PMBENCH_DOC_SECONDS, 0 },
			     { "runs_a", PMBENCH_DOC_COUNT, 0 } } },
	[COL_MEDIAN_B] = { "median B",
			   0,
			   { { "median_b", PMBENCH_DOC_SECONDS, 0 },
			     { "runs_b", PMBENCH_DOC_COUNT, 0 } } },
	[COL_CHANGE] = { "change (95% CI)",
			 0,
			 { { "ratio", PMBENCH_DOC_NUMBER, 0 },
			   { "ratio_ci95", PMBENCH_DOC_NUMBER,
			     PMBENCH_DOC_INTERVAL } } },
	[COL_P] = { "p", 0, { { "p", PMBENCH_DOC_NUMBER, 0 } } },
	[COL_VERDICT] = { "verdict", 0, { { "verdict", PMBENCH_DOC_TEXT, 0 } } },
	[COL_PHASE] = { "phase moved most",
			0,
			{ { "phase_moved", PMBENCH_DOC_TEXT, 0 },
			  { "phase_a", PMBENCH_DOC_SECONDS, 0 },
			  { "phase_b", PMBENCH_DOC_SECONDS, 0 } } },
	[COL_PAIRED] = { "paired change (95% CI)",
			 0,
			 { { "paired_ratio", PMBENCH_DOC_NUMBER, 0 },
			   { "paired_ratio_ci95", PMBENCH_DOC_NUMBER,
			     PMBENCH_DOC_INTERVAL },
			   { "paired_rounds", PMBENCH_DOC_COUNT, 0 } } },
};

/* The runs of A and B cut short by a signal to pmbench, left out. */
static void interrupted_note(struct pmbench_doc_table *t,
			     const struct pmbench_report_pair *p)
{
	size_t ia = pmbench_cell_interrupted(p->a);
	size_t ib = pmbench_cell_interrupted(p->b);
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_doc_row *row;

	if (!ia && !ib)
		return;
	if (ia)
		pmbench_buf_addf(&b, "%zu interrupted run%s in A", ia,
				 ia == 1 ? "" : "s");
	if (ia && ib)
		pmbench_buf_addf(&b, " and %zu in B", ib);
	else if (ib)
		pmbench_buf_addf(&b, "%zu interrupted run%s in B", ib,
				 ib == 1 ? "" : "s");
	row = pmbench_doc_row(t);
	row->flags = PMBENCH_DOC_ROW_HUMAN;
	pmbench_doc_row_note(row, COL_VERSION, "note: %s left out", b.ptr);
	pmbench_buf_release(&b);
}

/*
 * The phase whose median moved most from A to B: "scripts 0.31 s ->
 * 0.61 s (+0.30 s)" into `out`, its name returned; NULL (and nothing)
 * when A or B has no phases.
 */
static const char *phase_moved(struct pmbench_buf *out,
			       const struct pmbench_report_pair *p,
			       enum pmbench_phase *which)
{
	const struct pmbench_report_phases *a = &p->phases_a, *b = &p->phases_b;
	double d;

	if (!a->runs || !b->runs)
		return NULL;
	d = pmbench_report_phase_moved(which, a, b);
	pmbench_buf_addf(out, "%s ", pmbench_phase_name(*which));
	pmbench_report_add_phase(out, a->median[*which], a->sample);
	pmbench_buf_adds(out, " -> ");
	pmbench_report_add_phase(out, b->median[*which], b->sample);
	pmbench_buf_addf(out, " (%+.2f s)", d);
	return pmbench_phase_name(*which);
}

/* The phase column of `row`, when A and B have phases. */
static void phase_cell(struct pmbench_doc_row *row,
		       const struct pmbench_report_pair *p)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	enum pmbench_phase which;
	const char *name = phase_moved(&b, p, &which);

	if (name) {
		pmbench_doc_text(row, COL_PHASE, "%s", b.ptr);
		pmbench_doc_str(row, COL_PHASE, 0, name);
		pmbench_doc_num(row, COL_PHASE, 1, p->phases_a.median[which]);
		pmbench_doc_num(row, COL_PHASE, 2, p->phases_b.median[which]);
	}
	pmbench_buf_release(&b);
}

/* "-12.0% (-15.1% … -9.2%)": a ratio and its interval as changes. */
static void add_change(struct pmbench_buf *b,
		       const struct pmbench_interval *ratio)
{
	add_pct(b, ratio->point);
	pmbench_buf_adds(b, " (");
	add_pct(b, ratio->lo);
	pmbench_buf_adds(b, " … ");
	add_pct(b, ratio->hi);
	pmbench_buf_adds(b, ")");
}

/* The paired change of the two sides of one bench --base, and its rounds. */
static void paired_cell(struct pmbench_doc_row *row,
			const struct pmbench_report_pair *p)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (!p->has_paired)
		return;
	add_change(&b, &p->paired);
	pmbench_buf_addf(&b, ", %zu rounds", p->paired_n);
	pmbench_doc_text(row, COL_PAIRED, "%s", b.ptr);
	pmbench_doc_num(row, COL_PAIRED, 0, p->paired.point);
	pmbench_doc_interval(row, COL_PAIRED, 1, p->paired.lo, p->paired.hi);
	pmbench_doc_num(row, COL_PAIRED, 2, (double)p->paired_n);
	pmbench_buf_release(&b);
}

/*
 * The release a cell's PM ran: "9.15.9" of its pm_version, else what
 * its result found for its PM (an older result); the caller frees it.
 */
static char *release_of(const struct pmbench_result *r,
			const struct pmbench_cell *c)
{
	const char *source;

	if (c->pm_version)
		return pmbench_report_pm_release(c->pm_version, &source);
	return pmbench_xstrdup(pmbench_kind_pm_version(r, c->pm));
}

/* The PM ("pnpm@9 -> pnpm" when A's differs) and its versions A -> B. */
static void pm_cells(struct pmbench_doc_row *row,
		     const struct pmbench_report_compare *c,
		     const struct pmbench_report_pair *p)
{
	char *va = release_of(c->a, p->a), *vb = release_of(c->b, p->b);

	pmbench_doc_str(row, COL_FIXTURE, 0, p->b->fixture);
	pmbench_doc_str(row, COL_TASK, 0, p->b->task);
	pmbench_doc_str(row, COL_SCENARIO, 0, p->b->scenario);
	pmbench_doc_name(row, COL_PM, p->b->pm);
	if (strcmp(p->a->pm, p->b->pm))
		pmbench_doc_text(row, COL_PM, "%s -> %s", p->a->pm, p->b->pm);
	pmbench_doc_text(row, COL_VERSION, "%s -> %s", va, vb);
	pmbench_doc_str(row, COL_VERSION, 0, va);
	pmbench_doc_str(row, COL_VERSION, 1, vb);
	free(va);
	free(vb);
}

static void pair_row(struct pmbench_doc_table *t,
		     const struct pmbench_report_compare *c,
		     const struct pmbench_report_pair *p)
{
	struct pmbench_doc_row *row = pmbench_doc_row(t);
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pm_cells(row, c, p);
	pmbench_doc_num(row, COL_MEDIAN_A, 1, (double)p->na);
	pmbench_doc_num(row, COL_MEDIAN_B, 1, (double)p->nb);
	if (!p->has_cmp) {
		pmbench_doc_row_note(row, COL_MEDIAN_A,
				     "no successful runs in %s",
				     !p->na ? (!p->nb ? "A and B" : "A") : "B");
		goto done;
	}
	pmbench_report_add_duration(&b, p->median_a);
	pmbench_doc_text(row, COL_MEDIAN_A, "%s", b.ptr);
	pmbench_doc_num(row, COL_MEDIAN_A, 0, p->median_a);
	pmbench_buf_reset(&b);
	pmbench_report_add_duration(&b, p->median_b);
	pmbench_doc_text(row, COL_MEDIAN_B, "%s", b.ptr);
	pmbench_doc_num(row, COL_MEDIAN_B, 0, p->median_b);
	pmbench_buf_reset(&b);
	add_change(&b, &p->cmp.ratio);
	pmbench_doc_text(row, COL_CHANGE, "%s", b.ptr);
	pmbench_doc_num(row, COL_CHANGE, 0, p->cmp.ratio.point);
	pmbench_doc_interval(row, COL_CHANGE, 1, p->cmp.ratio.lo,
			     p->cmp.ratio.hi);
	if (p->cmp.mwu.p < 0.001)
		pmbench_doc_text(row, COL_P, "<0.001");
	else
		pmbench_doc_text(row, COL_P, "%.3f", p->cmp.mwu.p);
	pmbench_doc_num(row, COL_P, 0, p->cmp.mwu.p);
	pmbench_doc_name(row, COL_VERDICT, verdict(p));
	phase_cell(row, p);
	paired_cell(row, p);
done:
	interrupted_note(t, p);
	pmbench_buf_release(&b);
}

static int same_scenario(const struct pmbench_report_pair *x,
			 const struct pmbench_report_pair *y)
{
	return !strcmp(x->b->fixture, y->b->fixture) &&
	       !strcmp(x->b->task, y->b->task) &&
	       !strcmp(x->b->scenario, y->b->scenario);
}

/*
 * Under a scenario's table, for each PM whose time changed: the phase
 * that moved most ("npm: faster; the phase that moved most: scripts
 * 0.61 s -> 0.31 s (-0.30 s)").
 */
static void moved_notes(struct pmbench_doc *d,
			const struct pmbench_report_compare *c, size_t g)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	enum pmbench_phase which;

	for (size_t i = g; i < c->pairs_nr; i++) {
		const struct pmbench_report_pair *p = &c->pairs[i];

		if (!same_scenario(p, &c->pairs[g]))
			break;
		pmbench_buf_reset(&b);
		if (!changed(p))
			continue;
		if (p->has_paired) {
			pmbench_buf_adds(&b, " by ");
			add_change(&b, &p->paired);
			pmbench_buf_addf(&b, ", paired over %zu rounds",
					 p->paired_n);
		}
		pmbench_buf_adds(&b, "; the phase that moved most: ");
		if (!phase_moved(&b, p, &which) && !p->has_paired)
			continue;
		if (!p->phases_a.runs || !p->phases_b.runs)
			pmbench_buf_adds(&b, "not measured");
		pmbench_doc_para(d, PMBENCH_DOC_HUMAN, "%s: %s%s", p->b->pm,
				 verdict(p), b.ptr);
	}
	pmbench_buf_release(&b);
}

/* B / A per PM with its interval; 1x (no change) is marked. */
static void change_chart(struct pmbench_doc *d,
			 const struct pmbench_report_compare *c, size_t g)
{
	struct pmbench_doc_chart *ch = NULL;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = g; i < c->pairs_nr; i++) {
		const struct pmbench_report_pair *p = &c->pairs[i];
		struct pmbench_doc_bar *bar;

		if (!p->has_cmp || !same_scenario(p, &c->pairs[g]))
			continue;
		if (!ch) {
			ch = pmbench_doc_chart(d, PMBENCH_DOC_PAGE, "ratio",
					       "Median B / median A with its "
					       "95% interval; green: faster, "
					       "orange: slower, grey: no "
					       "significant difference",
					       "Time of B relative to A, with "
					       "95% intervals",
					       "x");
			ch->has_ref = 1;
			ch->ref = 1;
			ch->log_scale = 1;
		}
		bar = pmbench_doc_bar(ch, p->b->pm);
		bar->has_value = 1;
		bar->value = p->cmp.ratio.point;
		bar->has_interval = 1;
		bar->lo = p->cmp.ratio.lo;
		bar->hi = p->cmp.ratio.hi;
		bar->tone = p->cmp.verdict == PMBENCH_VERDICT_FASTER
				    ? PMBENCH_DOC_BEST
			    : p->cmp.verdict == PMBENCH_VERDICT_SLOWER
				    ? PMBENCH_DOC_WORSE
				    : PMBENCH_DOC_MUTED;
		pmbench_buf_reset(&b);
		add_pct(&b, p->cmp.ratio.point);
		pmbench_doc_bar_text(bar, "%s", b.ptr);
	}
	pmbench_buf_release(&b);
}

void pmbench_kind_compare_head(struct pmbench_doc *out,
			       const struct pmbench_report_compare *c,
			       const char *title, const char *csv)
{
	struct pmbench_buf ra = PMBENCH_BUF_INIT, rb = PMBENCH_BUF_INIT;

	pmbench_doc_init(out, "compare", title);
	out->csv = pmbench_xstrdup(csv);
	pmbench_doc_attach(out, c->a, "A");
	pmbench_doc_attach(out, c->b, "B");
	if (c->sides)
		pmbench_doc_para(out, PMBENCH_DOC_HUMAN,
				 "A: the base side, B: the head side of one "
				 "run (%s, %s), interleaved on one machine\n"
				 "change = median B / median A - 1; negative "
				 "is faster; paired: the median of the "
				 "per-round ratios, which decides the verdict",
				 c->name_b,
				 c->b->created ? c->b->created : "?");
	else
		pmbench_doc_para(
			out, PMBENCH_DOC_HUMAN,
			"A: %s (%s)\nB: %s (%s)\n"
			"change = median B / median A - 1; negative is faster",
			c->name_a, c->a->created ? c->a->created : "?",
			c->name_b, c->b->created ? c->b->created : "?");
	if (pmbench_kind_same_registry(c->a, c->b))
		return;
	pmbench_kind_registry(&ra, c->a);
	pmbench_kind_registry(&rb, c->b);
	pmbench_doc_note(out, PMBENCH_DOC_HUMAN, PMBENCH_DOC_WARNING,
			 "A and B used different registries (A: %s; "
			 "B: %s): their install times differ by the "
			 "network too, not only by the package "
			 "managers",
			 ra.ptr, rb.ptr);
	pmbench_buf_release(&ra);
	pmbench_buf_release(&rb);
}

/*
 * "pnpm 9.15.9 → 12.23.0 (A: --pm pnpm@9; B: pinned (toolchain))": each
 * PM whose release differs between A and B, once.
 */
static void version_changes(struct pmbench_doc *out,
			    const struct pmbench_report_compare *c)
{
	struct pmbench_strvec seen = PMBENCH_STRVEC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < c->pairs_nr; i++) {
		const struct pmbench_report_pair *p = &c->pairs[i];
		char *va = release_of(c->a, p->a), *vb = release_of(c->b, p->b);
		const char *family = pmbench_kind_pm_family(p->b->pm);
		const char *sa = "", *sb = "";

		pmbench_buf_reset(&b);
		pmbench_buf_addf(&b, "%s %s → %s", family ? family : p->b->pm,
				 va, vb);
		if (strcmp(va, vb) && pmbench_strvec_find(&seen, b.ptr) < 0) {
			pmbench_strvec_push(&seen, b.ptr);
			free(pmbench_report_pm_release(
				p->a->pm_version ? p->a->pm_version : "", &sa));
			free(pmbench_report_pm_release(
				p->b->pm_version ? p->b->pm_version : "", &sb));
			pmbench_doc_para(out, PMBENCH_DOC_HUMAN,
					 "version changed: %s (A: %s; B: %s)",
					 b.ptr, *sa ? sa : p->a->pm,
					 *sb ? sb : p->b->pm);
		}
		free(va);
		free(vb);
	}
	pmbench_strvec_release(&seen);
	pmbench_buf_release(&b);
}

/* The cells one file has and the other lacks. */
static void only_one(struct pmbench_doc *out,
		     const struct pmbench_report_compare *c)
{
	struct pmbench_doc_block *list;

	if (!c->only_a.nr && !c->only_b.nr)
		return;
	pmbench_doc_heading(out, PMBENCH_DOC_HUMAN, 2,
			    "cells in one file only");
	list = pmbench_doc_list(out, PMBENCH_DOC_HUMAN);
	for (size_t i = 0; i < c->only_a.nr; i++)
		pmbench_doc_item(list, "only in A: %s", c->only_a.v[i]);
	for (size_t i = 0; i < c->only_b.nr; i++)
		pmbench_doc_item(list, "only in B: %s", c->only_b.v[i]);
}

void pmbench_kind_compare_cells(struct pmbench_doc *out,
				const struct pmbench_report_compare *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_doc_table *t = NULL;

	version_changes(out, c);
	for (size_t i = 0; i < c->pairs_nr; i++) {
		const struct pmbench_report_pair *p = &c->pairs[i];

		if (!i || !same_scenario(p, &c->pairs[i - 1])) {
			pmbench_doc_heading(out, PMBENCH_DOC_HUMAN, 2,
					    "%s · %s · %s", p->b->fixture,
					    p->b->task, p->b->scenario);
			pmbench_buf_reset(&b);
			pmbench_report_add_state(&b, p->state);
			pmbench_doc_para(out, PMBENCH_DOC_HUMAN, "(%s)", b.ptr);
			change_chart(out, c, i);
			t = pmbench_doc_table(
				out, PMBENCH_DOC_ALL, "comparisons", cmp_cols,
				PMBENCH_ARRAY_SIZE(cmp_cols) - !c->sides);
		}
		pair_row(t, c, p);
		if (i + 1 == c->pairs_nr ||
		    !same_scenario(p, &c->pairs[i + 1])) {
			size_t g = i;

			while (g && same_scenario(&c->pairs[g - 1], p))
				g--;
			moved_notes(out, c, g);
		}
	}
	only_one(out, c);
	/* The two sides of one bench --base share their legend. */
	pmbench_kind_legend(out, c->a, c->sides ? "A and B" : "A");
	if (!c->sides)
		pmbench_kind_legend(out, c->b, "B");
	pmbench_buf_release(&b);
}

void pmbench_report_compare(struct pmbench_doc *out,
			    const struct pmbench_report_compare *c)
{
	pmbench_kind_compare_head(out, c, "pmbench comparison", "comparisons");
	pmbench_kind_compare_cells(out, c);
}
