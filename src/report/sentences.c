/*
 * The sentences every report says the same way: durations and ratios at
 * the precision they deserve, cache states, each PM against the fastest
 * ("bun is 4.68x (4.40x–4.82x) faster than npm (p = 0.008)"), and the
 * warnings and notes of a cell.
 */
#include "pmbench/common.h"

#include <math.h>

#include "internal.h"
#include "pmbench/control.h"
#include "pmbench/doc.h"
#include "pmbench/report.h"
#include "pmbench/scenario.h"
#include "pmbench/task.h"

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

void pmbench_report_add_p(struct pmbench_buf *out, double p)
{
	if (p < 0.001)
		pmbench_buf_adds(out, "p < 0.001");
	else
		pmbench_buf_addf(out, "p = %.3f", p);
}

/*
 * The verdict from the ratio paired by round: the machine's drift during
 * the scenario cancels out of it, so it is said with its rounds.
 */
static void paired_sentence(struct pmbench_buf *out,
			    const struct pmbench_report_cell *c,
			    const struct pmbench_report_cell *f)
{
	if (c->vs.verdict == PMBENCH_VERDICT_SAME) {
		pmbench_buf_addf(out,
				 "no significant difference between %s "
				 "and %s (",
				 f->cell->pm, c->cell->pm);
		pmbench_report_add_ratio(out, c->paired.point);
		pmbench_buf_adds(out, ", paired 95% CI ");
		pmbench_report_add_ratio(out, c->paired.lo);
		pmbench_buf_adds(out, "–");
		pmbench_report_add_ratio(out, c->paired.hi);
		pmbench_buf_addf(out, " over %zu rounds)", c->paired_n);
		return;
	}
	pmbench_buf_addf(out, "%s is ", f->cell->pm);
	pmbench_report_add_ratio(out, c->paired.point);
	pmbench_buf_adds(out, " (");
	pmbench_report_add_ratio(out, c->paired.lo);
	pmbench_buf_adds(out, "–");
	pmbench_report_add_ratio(out, c->paired.hi);
	pmbench_buf_addf(
		out, ", paired over %zu rounds) %s than %s", c->paired_n,
		c->vs.verdict == PMBENCH_VERDICT_FASTER ? "slower" : "faster",
		c->cell->pm);
}

/*
 * No significant difference between cell c and the fastest f, unpaired;
 * when their counts cannot reach the level at all, says so instead.
 */
static void same_sentence(struct pmbench_buf *out,
			  const struct pmbench_report_cell *c,
			  const struct pmbench_report_cell *f)
{
	if (pmbench_stats_mwu_min_p(c->n, f->n) >= PMBENCH_REPORT_ALPHA) {
		/* 3 runs against 3 can never reach p < 0.05: say so. */
		pmbench_buf_addf(out,
				 "too few runs to tell %s and %s apart "
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
	pmbench_buf_addf(out,
			 "no significant difference between %s "
			 "and %s (",
			 f->cell->pm, c->cell->pm);
	pmbench_report_add_ratio(out, c->vs.ratio.point);
	pmbench_buf_adds(out, ", 95% CI ");
	pmbench_report_add_ratio(out, c->vs.ratio.lo);
	pmbench_buf_adds(out, "–");
	pmbench_report_add_ratio(out, c->vs.ratio.hi);
	pmbench_buf_adds(out, ", ");
	pmbench_report_add_p(out, c->vs.mwu.p);
	pmbench_buf_adds(out, ")");
}

void pmbench_report_add_sentence(struct pmbench_buf *out,
				 const struct pmbench_report *rep, size_t i)
{
	const struct pmbench_report_cell *c = &rep->cells[i];
	const struct pmbench_report_cell *f;

	if (!c->has_vs)
		return;
	f = &rep->cells[c->fastest];
	if (c->verdict_paired) {
		paired_sentence(out, c, f);
		return;
	}
	if (c->vs.verdict == PMBENCH_VERDICT_SAME) {
		same_sentence(out, c, f);
		return;
	}
	pmbench_buf_addf(out, "%s is ", f->cell->pm);
	pmbench_report_add_ratio(out, c->vs.ratio.point);
	pmbench_buf_adds(out, " (");
	pmbench_report_add_ratio(out, c->vs.ratio.lo);
	pmbench_buf_adds(out, "–");
	pmbench_report_add_ratio(out, c->vs.ratio.hi);
	pmbench_buf_addf(out, ") faster than %s (", c->cell->pm);
	pmbench_report_add_p(out, c->vs.mwu.p);
	pmbench_buf_adds(out, ")");
}

void pmbench_report_add_leftover(struct pmbench_buf *out,
				 const struct pmbench_cell *c, const char *runs)
{
	size_t with = 0, n = pmbench_cell_leftover(c, &with);

	if (!n || pmbench_task_cell_has(c->task, PMBENCH_TASK_SERVER))
		return;
	pmbench_buf_addf(out,
			 "%s left %zu process%s running after %zu of %zu %s "
			 "(stopped by pmbench)",
			 c->pm, n, n == 1 ? "" : "es", with, c->samples_nr,
			 runs);
}

/*
 * Times that rise or fall with the run order (Spearman's rho of run index
 * against time) mean the machine drifted during the benchmark: a thermal
 * throttle, a filling disk, a background job. Judged from 6 runs on.
 */
static void add_drift(struct pmbench_buf *b,
		      const struct pmbench_report_cell *c)
{
	double *idx, rho;

	/* A drift within 1 % of the median moves nothing. */
	if (c->n < PMBENCH_REPORT_DRIFT_MIN_RUNS ||
	    c->wall.max - c->wall.min <=
		    PMBENCH_REPORT_OUTLIER_FAR * c->wall.median)
		return;
	idx = pmbench_xmalloc(pmbench_st_mult(c->n, sizeof(*idx)));
	for (size_t i = 0; i < c->n; i++)
		idx[i] = (double)i;
	rho = pmbench_stats_spearman(idx, c->times, c->n);
	free(idx);
	if (fabs(rho) >= PMBENCH_REPORT_DRIFT_RHO)
		pmbench_buf_addf(b,
				 "%stimes %s run after run (Spearman rho "
				 "%.2f): the machine drifted",
				 b->len ? "; " : "", rho > 0 ? "rise" : "fall",
				 rho);
}

/*
 * One warning line per cell at most: a slow first run or outliers far
 * enough from the median to move it (more than 1 % of it), and drift.
 */
static void add_warning(struct pmbench_doc *d, unsigned audience,
			const struct pmbench_report_cell *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (c->slow_first)
		pmbench_buf_adds(&b, "first timed run much slower than the "
				     "others (a cold cache? add --warmup)");
	else if (c->outliers_far)
		pmbench_buf_addf(&b,
				 "%zu outlier run%s (modified z-score above "
				 "%.1f), %s%.0f%% off the median",
				 c->outliers_far,
				 c->outliers_far == 1 ? "" : "s",
				 PMBENCH_REPORT_OUTLIER_Z,
				 c->outliers_far == 1 ? "" : "the farthest ",
				 c->outlier_farthest * 100);
	add_drift(&b, c);
	if (b.len)
		pmbench_doc_note(d, audience, PMBENCH_DOC_WARNING,
				 "%s: %s; re-run on a quiet system if it "
				 "matters",
				 c->cell->pm, b.ptr);
	pmbench_buf_release(&b);
}

/*
 * Runs a whole number of 5 s above the cell's fastest, with little
 * spread: a DNS lookup that timed out and was retried (glibc waits 5 s
 * per attempt), which is the network, not the package manager.
 */
static void add_stalls(struct pmbench_doc *d, unsigned audience,
		       const struct pmbench_report_cell *c)
{
	if (!c->stalls)
		return;
	pmbench_doc_note(d, audience, PMBENCH_DOC_WARNING,
			 "%s: %zu of %zu runs sit %s%u x 5 s above its "
			 "fastest (within %.1f s): the signature of the DNS "
			 "resolver's 5 s timeout (glibc), a stalled lookup, "
			 "not the package manager's speed; measure against "
			 "a local registry",
			 c->cell->pm, c->stalls, c->n,
			 c->stall_kmax > 1 ? "up to " : "", c->stall_kmax,
			 pmbench_stats_stall_slack(c->wall.min));
}

/* How much pmbench's own fixed work changed during the scenario. */
static void add_control(struct pmbench_doc *d, unsigned audience,
			const struct pmbench_report_cell *c)
{
	double change;

	if (!c->has_drift)
		return;
	change = c->drift - 1;
	pmbench_doc_note(d, audience,
			 fabs(change) > PMBENCH_REPORT_CONTROL_DRIFT
				 ? PMBENCH_DOC_WARNING
				 : PMBENCH_DOC_NOTE,
			 "machine drift during this scenario: the control "
			 "(pmbench's own fixed work) took %+.0f %% in the "
			 "last rounds against the first (slowest/fastest "
			 "round %.2fx)%s",
			 change * 100, c->drift_range,
			 fabs(change) > PMBENCH_REPORT_CONTROL_DRIFT
				 ? ": the machine, not the PMs, changed; the "
				   "paired ratios cancel it, the times do not"
				 : "");
}

/*
 * The state check (statecheck.h), one line: a cell not in the state
 * asked, runs that failed it, or a documented difference.
 */
static void add_state_check(struct pmbench_doc *d, unsigned audience,
			    const struct pmbench_report_cell *c)
{
	const char *why;
	size_t fail = pmbench_cell_checks(c->cell, PMBENCH_CHECK_FAIL, &why);
	size_t known;

	if (pmbench_cell_wrong_state(c->cell)) {
		pmbench_doc_note(d, audience, PMBENCH_DOC_WARNING,
				 "%s: not the state asked (%s): every run "
				 "failed the state check: %s; no time to "
				 "compare",
				 c->cell->pm, c->cell->scenario, why);
		return;
	}
	if (fail) {
		pmbench_doc_note(
			d, audience, PMBENCH_DOC_WARNING,
			"%s ✗: %zu of %zu runs not the state asked: %s",
			c->cell->pm, fail, c->n, why);
		return;
	}
	known = pmbench_cell_checks(c->cell, PMBENCH_CHECK_KNOWN, &why);
	if (known)
		pmbench_doc_note(d, audience, PMBENCH_DOC_NOTE, "%s *: %s",
				 c->cell->pm, why);
}

void pmbench_report_proof_note(struct pmbench_doc *d, unsigned audience,
			       const struct pmbench_cell *c)
{
	if (c->proof == PMBENCH_PROOF_FAIL)
		pmbench_doc_note(d, audience, PMBENCH_DOC_WARNING,
				 "%s ✗ offline proof (%s): %s; no warm time "
				 "to compare",
				 c->pm, c->scenario,
				 c->proof_why ? c->proof_why : "");
	else if (c->proof == PMBENCH_PROOF_PASS)
		pmbench_doc_note(d, audience, PMBENCH_DOC_NOTE,
				 "%s ✓ offline proof (%s): %s", c->pm,
				 c->scenario, c->proof_why ? c->proof_why : "");
	else if (c->proof_why)
		pmbench_doc_note(d, audience, PMBENCH_DOC_NOTE,
				 "%s: not proven offline: %s", c->pm,
				 c->proof_why);
}

void pmbench_report_cell_notes(struct pmbench_doc *d, unsigned audience,
			       const struct pmbench_report_cell *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (c->has_drift) {
		add_control(d, audience, c);
		return;
	}
	add_state_check(d, audience, c);
	pmbench_report_proof_note(d, audience, c->cell);
	add_stalls(d, audience, c);
	add_warning(d, audience, c);
	if (c->n && c->n < 5)
		pmbench_doc_note(d, audience, PMBENCH_DOC_NOTE,
				 "%s has only %zu successful run(s); its "
				 "interval is rough",
				 c->cell->pm, c->n);
	if (c->cell->note)
		pmbench_doc_note(d, audience, PMBENCH_DOC_NOTE, "%s: %s",
				 c->cell->pm, c->cell->note);
	if (c->interrupted)
		pmbench_doc_note(d, audience, PMBENCH_DOC_NOTE,
				 "%s: %zu run%s interrupted (pmbench was "
				 "stopped): no failure, left out of the "
				 "statistics",
				 c->cell->pm, c->interrupted,
				 c->interrupted == 1 ? "" : "s");
	pmbench_report_add_leftover(&b, c->cell, "runs");
	if (b.len)
		pmbench_doc_note(d, audience, PMBENCH_DOC_NOTE, "%s", b.ptr);
	pmbench_buf_release(&b);
}

/* ---- Where the time went ------------------------------------------------ */

void pmbench_report_add_phase(struct pmbench_buf *out, double s, double sample)
{
	if (!(s > 0))
		pmbench_buf_adds(out, "–");
	else if (s < sample)
		pmbench_buf_addf(out, "< %.0f ms", sample * 1e3);
	else
		pmbench_buf_addf(out, "%.2f s", s);
}

void pmbench_report_add_phases(struct pmbench_buf *out,
			       const struct pmbench_report_phases *ph)
{
	for (int p = 0; p < PMBENCH_PHASES; p++) {
		/* "start": short enough for a terminal line. */
		pmbench_buf_addf(
			out, "%s%s ", p ? " · " : "",
			p == PMBENCH_PHASE_STARTUP
				? "start"
				: pmbench_phase_name((enum pmbench_phase)p));
		pmbench_report_add_phase(out, ph->median[p], ph->sample);
	}
}

/* "1.20 s" or "310 ms": a figure in a sentence. */
static void add_secs(struct pmbench_buf *out, double s)
{
	if (s < 1.0)
		pmbench_buf_addf(out, "%.0f ms", s * 1e3);
	else
		pmbench_buf_addf(out, "%.2f s", s);
}

/* Most of the run between the first request and the last response. */
static void network_sentence(struct pmbench_strvec *out,
			     const struct pmbench_report_cell *c)
{
	const struct pmbench_report_phases *ph = &c->phases;
	double net = ph->median[PMBENCH_PHASE_NETWORK];
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (!ph->requests || !(net >= 0.4 * c->wall.median) || net < ph->sample)
		return;
	pmbench_buf_addf(&b, "%s: ", c->cell->pm);
	add_secs(&b, net);
	pmbench_buf_adds(&b, " of ");
	add_secs(&b, c->wall.median);
	pmbench_buf_addf(&b, " in %.0f registry request%s with %s cache",
			 ph->requests, ph->requests == 1 ? "" : "s",
			 c->state & PMBENCH_STATE_CACHE ? "a warm"
							: "an empty");
	pmbench_strvec_push(out, b.ptr);
	pmbench_buf_release(&b);
}

/* A fifth of the run or more in lifecycle scripts. */
static void script_sentence(struct pmbench_strvec *out,
			    const struct pmbench_report_cell *c)
{
	const struct pmbench_report_phases *ph = &c->phases;
	double share = ph->median[PMBENCH_PHASE_SCRIPTS] / c->wall.median;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (!ph->script_package || !(share >= 0.2) ||
	    ph->median[PMBENCH_PHASE_SCRIPTS] < ph->sample)
		return;
	pmbench_buf_addf(&b, "%s: %.0f %% of the run in ", c->cell->pm,
			 share * 100);
	if (ph->scripts > 1)
		pmbench_buf_addf(&b, "%zu lifecycle scripts, the longest ",
				 ph->scripts);
	if (*ph->script_package)
		pmbench_buf_addf(&b, "%s's %s", ph->script_package,
				 ph->script_event);
	else
		pmbench_buf_addf(&b, "the project's %s", ph->script_event);
	pmbench_strvec_push(out, b.ptr);
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

/* "117.2 MB", "84 kB" or "nothing". */
static void add_bytes(struct pmbench_buf *out, double bytes)
{
	if (bytes >= 1e5)
		pmbench_buf_addf(out, "%.1f MB", bytes / 1e6);
	else if (bytes >= 500)
		pmbench_buf_addf(out, "%.0f kB", bytes / 1e3);
	else
		pmbench_buf_adds(out, "nothing");
}

/*
 * What the cell's waterfall run asked for, by kind: " (114 tarballs,
 * 113 full packuments)"; nothing without a waterfall.
 */
static void add_asked(struct pmbench_buf *out, const struct pmbench_cell *c)
{
	static const char *const what[] = { "tarballs", "full packuments",
					    "abbreviated packuments",
					    "other requests" };
	const struct pmbench_sample *s = pmbench_cell_waterfall(c);
	size_t n[4] = { 0 }, said = 0;

	for (size_t i = 0; s && i < s->phases->log_nr; i++) {
		char k = s->phases->log[i].kind;

		n[k == 't' ? 0 : k == 'f' ? 1 : k == 'c' ? 2 : 3]++;
	}
	for (size_t k = 0; s && k < 4; k++)
		if (n[k])
			pmbench_buf_addf(out, "%s%zu %s", said++ ? ", " : " (",
					 n[k], what[k]);
	if (said)
		pmbench_buf_adds(out, ")");
}

/* One PM downloaded three times what the others did (a megabyte on). */
static void download_sentence(struct pmbench_strvec *out,
			      const struct pmbench_report *rep, size_t g)
{
	double *others = pmbench_xcalloc(rep->cells_nr + 1, sizeof(*others));
	double top = -1, rest;
	long best = -1;
	size_t n = 0;

	for (size_t i = g; i < rep->cells_nr; i++) {
		double v;

		if (!pmbench_report_same_group(rep, g, i) ||
		    pmbench_control_is(rep->cells[i].cell->pm))
			continue;
		v = metric_median(rep->cells[i].cell, "registry_bytes");
		if (v > top) {
			if (best >= 0)
				others[n++] = top;
			top = v;
			best = (long)i;
		} else if (v >= 0) {
			others[n++] = v;
		}
	}
	rest = n ? pmbench_stats_median(others, n) : 0;
	if (n && top >= 1e6 && top >= 3 * rest) {
		const struct pmbench_cell *c = rep->cells[best].cell;
		struct pmbench_buf b = PMBENCH_BUF_INIT;

		pmbench_buf_addf(&b, "%s downloaded ", c->pm);
		add_bytes(&b, top);
		add_asked(&b, c);
		pmbench_buf_addf(&b, " where %s downloaded ",
				 n > 1 ? "the others" : "the other PM");
		add_bytes(&b, rest);
		pmbench_strvec_push(out, b.ptr);
		pmbench_buf_release(&b);
	}
	free(others);
}

void pmbench_report_phase_sentences(struct pmbench_strvec *out,
				    const struct pmbench_report *rep, size_t g)
{
	for (size_t i = g; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];

		if (!pmbench_report_same_group(rep, g, i) || !c->n ||
		    !c->phases.runs)
			continue;
		network_sentence(out, c);
		script_sentence(out, c);
	}
	download_sentence(out, rep, g);
}
