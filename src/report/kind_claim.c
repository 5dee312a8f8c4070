/*
 * The claim kind: "bun install is 20x faster than npm install" judged in
 * every scenario of a result that has both sides (the engine's
 * pmbench_claim_judge() decides each), then said: the verdict with the
 * measured ratio and its interval, what would settle an inconclusive
 * one, and the overall verdict.
 */
#include "pmbench/common.h"

#include "internal.h"
#include "pmbench/report_kind.h"
#include "pmbench/scenario.h"

/* Does cell `ca` carry the claim's first side in a wanted scenario? */
static int wanted(const struct pmbench_cell *ca, const struct pmbench_claim *c,
		  const char *fixture, const unsigned *states, size_t states_nr,
		  unsigned *state)
{
	int want = !states_nr;

	if (strcmp(ca->pm, c->pm_a) || strcmp(ca->task, c->task_a) ||
	    (fixture && strcmp(ca->fixture, fixture)))
		return 0;
	if (pmbench_scenario_parse(state, ca->scenario) < 0) {
		pmbench_error_clear();
		return 0;
	}
	for (size_t k = 0; k < states_nr; k++)
		want |= states[k] == *state;
	return want;
}

/*
 * Judge one scenario: from the ratio paired by round when both sides
 * have complete rounds (PMBENCH_REPORT_PAIRED_MIN_ROUNDS at least),
 * else from the independent one. 1 when judged.
 */
static int judge(struct pmbench_report_judgement *s,
		 const struct pmbench_claim *claim, const double *ta,
		 const double *tb, double tolerance, uint64_t seed)
{
	double *pa, *pb;
	size_t n;
	int ret = -1;

	if (!s->na || !s->nb || s->unfit)
		return 0;
	pa = pb = NULL;
	/* Only the cells of one schedule share their rounds. */
	if (!strcmp(s->a->task, s->b->task) &&
	    pmbench_report_pair_rounds(&pa, &pb, &n, s->a, s->b) &&
	    n >= PMBENCH_REPORT_PAIRED_MIN_ROUNDS)
		ret = pmbench_claim_judge_paired(&s->j, claim, pa, pb, n,
						 tolerance, seed);
	free(pa);
	free(pb);
	if (ret < 0)
		ret = pmbench_claim_judge(&s->j, claim, ta, s->na, tb, s->nb,
					  tolerance, seed);
	return ret == 0;
}

/*
 * The scenario of cells `ca` and `cb` judged into `s`: not when a side's
 * times are not of the state asked (pmbench_kind_not_the_state()).
 */
static void judge_cells(struct pmbench_report_judgement *s,
			const struct pmbench_report_claim *out,
			const struct pmbench_cell *ca,
			const struct pmbench_cell *cb, uint64_t seed)
{
	double *ta, *tb;

	s->a = ca;
	s->b = cb;
	s->unfit = pmbench_kind_not_the_state(ca)   ? ca
		   : pmbench_kind_not_the_state(cb) ? cb
						    : NULL;
	ta = pmbench_cell_times(ca, &s->na);
	tb = pmbench_cell_times(cb, &s->nb);
	if (judge(s, out->claim, ta, tb, out->tolerance, seed))
		s->judged = 1;
	else
		pmbench_error_clear();
	free(ta);
	free(tb);
}

void pmbench_report_claim_init(struct pmbench_report_claim *out,
			       const struct pmbench_result *r,
			       const struct pmbench_claim *claim,
			       const char *fixture, const unsigned *states,
			       size_t states_nr, double tolerance)
{
	struct pmbench_report_claim blank = PMBENCH_REPORT_CLAIM_INIT;

	*out = blank;
	out->claim = claim;
	out->tolerance = tolerance;
	for (size_t i = 0; i < r->cells_nr; i++) {
		const struct pmbench_cell *ca = &r->cells[i], *cb;
		struct pmbench_report_judgement *s;
		unsigned state = 0;

		if (!wanted(ca, claim, fixture, states, states_nr, &state))
			continue;
		cb = pmbench_result_find_cell(r, ca->fixture, claim->task_b,
					      ca->scenario, claim->pm_b);
		if (!cb)
			continue;
		PMBENCH_ALLOC_GROW(out->scenarios, out->scenarios_nr + 1,
				   out->scenarios_alloc);
		s = &out->scenarios[out->scenarios_nr++];
		memset(s, 0, sizeof(*s));
		s->state = state;
		judge_cells(s, out, ca, cb, r->seed + i);
		if (!s->judged)
			continue;
		out->judged++;
		out->refuted += s->j.verdict == PMBENCH_CLAIM_SHORT ||
				s->j.verdict == PMBENCH_CLAIM_EXCEEDED;
		out->exceeded += s->j.verdict == PMBENCH_CLAIM_EXCEEDED;
		out->unsure += s->j.verdict == PMBENCH_CLAIM_INCONCLUSIVE;
	}
}

void pmbench_report_claim_release(struct pmbench_report_claim *c)
{
	struct pmbench_report_claim blank = PMBENCH_REPORT_CLAIM_INIT;

	free(c->scenarios);
	*c = blank;
}

/* ---- The document ------------------------------------------------------ */

/* "4.12x (3.90x–4.30x) faster than", or slower with the inverse. */
static void add_measured(struct pmbench_buf *b,
			 const struct pmbench_claim_judgement *j)
{
	const struct pmbench_interval *s = &j->speedup;

	if (s->point >= 1) {
		pmbench_report_add_ratio(b, s->point);
		pmbench_buf_adds(b, " (");
		pmbench_report_add_ratio(b, s->lo);
		pmbench_buf_adds(b, "–");
		pmbench_report_add_ratio(b, s->hi);
		pmbench_buf_adds(b, ") faster than");
	} else {
		pmbench_report_add_ratio(b, 1 / s->point);
		pmbench_buf_adds(b, " (");
		pmbench_report_add_ratio(b, 1 / s->hi);
		pmbench_buf_adds(b, "–");
		pmbench_report_add_ratio(b, 1 / s->lo);
		pmbench_buf_adds(b, ") slower than");
	}
}

/* The runs of either side cut short by a signal to pmbench. */
static void interrupted(struct pmbench_doc *d, const struct pmbench_claim *c,
			const struct pmbench_report_judgement *s)
{
	size_t ia = pmbench_cell_interrupted(s->a);
	size_t ib = pmbench_cell_interrupted(s->b);
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (!ia && !ib)
		return;
	if (ia)
		pmbench_buf_addf(&b, "%zu interrupted run%s of %s %s", ia,
				 ia == 1 ? "" : "s", c->pm_a, c->task_a);
	if (ia && ib)
		pmbench_buf_addf(&b, " and %zu of %s %s", ib, c->pm_b,
				 c->task_b);
	else if (ib)
		pmbench_buf_addf(&b, "%zu interrupted run%s of %s %s", ib,
				 ib == 1 ? "" : "s", c->pm_b, c->task_b);
	pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
			 "%s left out (pmbench was stopped while %s ran)",
			 b.ptr, ia + ib == 1 ? "it" : "they");
	pmbench_buf_release(&b);
}

enum {
	COL_FIXTURE,
	COL_SCENARIO,
	COL_A,
	COL_B,
	COL_VERDICT,
	COL_SPEEDUP,
	COL_BAND,
	COL_P,
	COL_RUNS,
	COL_NEEDED,
	COL_INTERVAL,
};

static const struct pmbench_doc_column judgement_cols[] = {
	[COL_FIXTURE] = { NULL, 0, { { "fixture", PMBENCH_DOC_TEXT, 0 } } },
	[COL_SCENARIO] = { NULL, 0, { { "scenario", PMBENCH_DOC_TEXT, 0 } } },
	[COL_A] = { NULL,
		    0,
		    { { "pm_a", PMBENCH_DOC_TEXT, 0 },
		      { "task_a", PMBENCH_DOC_TEXT, 0 } } },
	[COL_B] = { NULL,
		    0,
		    { { "pm_b", PMBENCH_DOC_TEXT, 0 },
		      { "task_b", PMBENCH_DOC_TEXT, 0 } } },
	[COL_VERDICT] = { NULL, 0, { { "verdict", PMBENCH_DOC_TEXT, 0 } } },
	[COL_SPEEDUP] = { NULL,
			  0,
			  { { "speedup", PMBENCH_DOC_NUMBER, 0 },
			    { "speedup_ci95", PMBENCH_DOC_NUMBER,
			      PMBENCH_DOC_INTERVAL } } },
	[COL_BAND] = { NULL,
		       0,
		       { { "band", PMBENCH_DOC_NUMBER,
			   PMBENCH_DOC_INTERVAL } } },
	[COL_P] = { NULL, 0, { { "p", PMBENCH_DOC_NUMBER, 0 } } },
	[COL_RUNS] = { NULL,
		       0,
		       { { "runs_a", PMBENCH_DOC_COUNT, 0 },
			 { "runs_b", PMBENCH_DOC_COUNT, 0 } } },
	[COL_NEEDED] = { NULL, 0, { { "runs_needed", PMBENCH_DOC_COUNT, 0 } } },
	[COL_INTERVAL] = { NULL,
			   0,
			   { { "interval", PMBENCH_DOC_TEXT, 0 },
			     { "paired_rounds", PMBENCH_DOC_COUNT, 0 } } },
};

/* "no verdict: npm install not warm (failed offline)", or no run. */
static void no_verdict(struct pmbench_buf *b, const struct pmbench_claim *c,
		       const struct pmbench_report_judgement *s)
{
	int first = s->unfit ? s->unfit == s->a : !s->na;

	pmbench_buf_addf(b, "no verdict: %s %s %s", first ? c->pm_a : c->pm_b,
			 first ? c->task_a : c->task_b,
			 s->unfit ? pmbench_kind_not_the_state(s->unfit)
				  : "has no successful run");
}

static void judgement_row(struct pmbench_doc_table *t,
			  const struct pmbench_claim *c,
			  const struct pmbench_report_judgement *s)
{
	struct pmbench_doc_row *row = pmbench_doc_row(t);

	pmbench_doc_str(row, COL_FIXTURE, 0, s->a->fixture);
	pmbench_doc_str(row, COL_SCENARIO, 0, s->a->scenario);
	pmbench_doc_str(row, COL_A, 0, c->pm_a);
	pmbench_doc_str(row, COL_A, 1, c->task_a);
	pmbench_doc_str(row, COL_B, 0, c->pm_b);
	pmbench_doc_str(row, COL_B, 1, c->task_b);
	pmbench_doc_num(row, COL_RUNS, 0, (double)s->na);
	pmbench_doc_num(row, COL_RUNS, 1, (double)s->nb);
	if (!s->judged) {
		struct pmbench_buf b = PMBENCH_BUF_INIT;

		no_verdict(&b, c, s);
		pmbench_doc_row_note(row, COL_VERDICT, "%s", b.ptr);
		pmbench_buf_release(&b);
		return;
	}
	pmbench_doc_str(row, COL_VERDICT, 0,
			pmbench_claim_verdict_name(s->j.verdict));
	pmbench_doc_num(row, COL_SPEEDUP, 0, s->j.speedup.point);
	pmbench_doc_interval(row, COL_SPEEDUP, 1, s->j.speedup.lo,
			     s->j.speedup.hi);
	pmbench_doc_interval(row, COL_BAND, 0, s->j.band_lo, s->j.band_hi);
	pmbench_doc_num(row, COL_P, 0, s->j.p);
	pmbench_doc_str(row, COL_INTERVAL, 0,
			s->j.paired ? "paired" : "independent");
	if (s->j.paired)
		pmbench_doc_num(row, COL_INTERVAL, 1, (double)s->j.rounds);
	if (s->j.verdict == PMBENCH_CLAIM_INCONCLUSIVE)
		pmbench_doc_num(row, COL_NEEDED, 0, (double)s->j.runs_needed);
}

/* "10.9.4" of a cell's pm_version "10.9.4: --pm npm@10", or "?". */
static void ran_version(struct pmbench_buf *out, const struct pmbench_cell *c)
{
	const char *source;
	char *release;

	if (!c || !c->pm_version) {
		pmbench_buf_adds(out, "?");
		return;
	}
	release = pmbench_report_pm_release(c->pm_version, &source);
	pmbench_buf_adds(out, release);
	free(release);
}

/* The releases judged, when the claim names a version of either PM. */
static void versions_judged(struct pmbench_doc *d,
			    const struct pmbench_claim *c,
			    const struct pmbench_report_judgement *s)
{
	struct pmbench_buf a = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;

	if (!strchr(c->pm_a, '@') && !strchr(c->pm_b, '@'))
		return;
	ran_version(&a, s->a);
	ran_version(&b, s->b);
	pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
			 "versions judged: %s ran %s, %s ran %s", c->pm_a,
			 a.ptr, c->pm_b, b.ptr);
	pmbench_buf_release(&a);
	pmbench_buf_release(&b);
}

/* The verdict with the measured ratio, p and the count of runs. */
static void verdict_line(struct pmbench_doc *d, const struct pmbench_claim *c,
			 const struct pmbench_report_judgement *s)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	add_measured(&b, &s->j);
	pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
			 "%s: %s %s is %s %s %s%s (p %s %.3f; %zu and %zu "
			 "runs)",
			 pmbench_claim_verdict_name(s->j.verdict), c->pm_a,
			 c->task_a, b.ptr, c->pm_b, c->task_b,
			 s->j.verdict == PMBENCH_CLAIM_EXCEEDED ? ", more than "
								  "claimed"
			 : s->j.verdict == PMBENCH_CLAIM_SHORT
				 ? ", less than claimed"
				 : "",
			 s->j.p < 0.001 ? "<" : "=",
			 s->j.p < 0.001 ? 0.001 : s->j.p, s->na, s->nb);
	pmbench_buf_release(&b);
}

/* Whether the interval was paired by round, and why not. */
static void interval_kind(struct pmbench_doc *d,
			  const struct pmbench_report_judgement *s)
{
	if (s->j.paired)
		pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
				 "(interval paired by round over %zu rounds: "
				 "a drift of the machine cancels out of it)",
				 s->j.rounds);
	else
		pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
				 "(independent interval: the rounds are not "
				 "complete, or fewer than %d)",
				 PMBENCH_REPORT_PAIRED_MIN_ROUNDS);
}

/* One scenario: its verdict, or why there is none. */
static void scenario(struct pmbench_doc *d, const struct pmbench_claim *c,
		     const struct pmbench_report_judgement *s)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_report_add_state(&b, s->state);
	pmbench_doc_heading(d, PMBENCH_DOC_HUMAN, 2, "%s · %s (%s)",
			    s->a->fixture, s->a->scenario, b.ptr);
	pmbench_report_proof_note(d, PMBENCH_DOC_HUMAN, s->a);
	if (s->b != s->a)
		pmbench_report_proof_note(d, PMBENCH_DOC_HUMAN, s->b);
	if (!s->judged) {
		pmbench_buf_reset(&b);
		no_verdict(&b, c, s);
		pmbench_doc_para(d, PMBENCH_DOC_HUMAN, "%s", b.ptr);
		interrupted(d, c, s);
		goto done;
	}
	verdict_line(d, c, s);
	versions_judged(d, c, s);
	interval_kind(d, s);
	interrupted(d, c, s);
	if (s->j.verdict != PMBENCH_CLAIM_INCONCLUSIVE)
		goto done;
	if (s->j.runs_needed)
		pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
				 "the interval is too wide to decide; about "
				 "%lu runs per PM would settle it (--runs %lu)",
				 s->j.runs_needed, s->j.runs_needed);
	else
		pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
				 "the measured ratio sits on the edge of the "
				 "tolerance; more runs will not settle it");
done:
	pmbench_buf_release(&b);
}

/* The measured ratio of every judged scenario against the claimed one. */
static void chart(struct pmbench_doc *d, const struct pmbench_report_claim *c)
{
	struct pmbench_doc_chart *ch;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_addf(&b,
			 "Measured speed-up (time of %s %s / time of %s "
			 "%s) with its 95%% interval; dashed: the claim, "
			 "green: reproduced, orange: short or exceeded, "
			 "grey: inconclusive",
			 c->claim->pm_b, c->claim->task_b, c->claim->pm_a,
			 c->claim->task_a);
	ch = pmbench_doc_chart(d, PMBENCH_DOC_PAGE, "ratio", b.ptr,
			       "Measured speed-up per scenario against the "
			       "claimed one",
			       "x");
	ch->has_ref = 1;
	ch->ref = pmbench_claim_speedup(c->claim);
	ch->log_scale = 1;
	for (size_t i = 0; i < c->scenarios_nr; i++) {
		const struct pmbench_report_judgement *s = &c->scenarios[i];
		struct pmbench_doc_bar *bar;

		if (!s->judged)
			continue;
		bar = pmbench_doc_bar(ch, s->a->scenario);
		bar->has_value = 1;
		bar->value = s->j.speedup.point;
		bar->has_interval = 1;
		bar->lo = s->j.speedup.lo;
		bar->hi = s->j.speedup.hi;
		bar->tone = s->j.verdict == PMBENCH_CLAIM_REPRODUCED
				    ? PMBENCH_DOC_BEST
			    : s->j.verdict != PMBENCH_CLAIM_INCONCLUSIVE
				    ? PMBENCH_DOC_WORSE
				    : PMBENCH_DOC_MUTED;
		pmbench_buf_reset(&b);
		pmbench_report_add_ratio(&b, s->j.speedup.point);
		pmbench_doc_bar_text(bar, "%s (%s)", b.ptr,
				     pmbench_claim_verdict_name(s->j.verdict));
	}
	pmbench_buf_release(&b);
}

/* "short in 2 of 3 scenario(s) (others inconclusive)": over all judged. */
static void overall_verdict(struct pmbench_buf *b,
			    const struct pmbench_report_claim *c)
{
	pmbench_buf_addf(b, "%s in %zu of %zu scenario(s)%s",
			 c->refuted > c->exceeded ? "short"
			 : c->exceeded		  ? "exceeded"
			 : c->unsure		  ? "inconclusive"
						  : "reproduced",
			 c->refuted > c->exceeded ? c->refuted - c->exceeded
			 : c->exceeded		  ? c->exceeded
			 : c->unsure		  ? c->unsure
						  : c->judged,
			 c->judged,
			 c->refuted && c->unsure ? " (others inconclusive)"
						 : "");
}

void pmbench_report_claim(struct pmbench_doc *out,
			  const struct pmbench_report_claim *c,
			  const struct pmbench_result *r)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_doc_table *t;
	struct pmbench_buf title = PMBENCH_BUF_INIT;
	struct pmbench_buf overall = PMBENCH_BUF_INIT;

	pmbench_claim_describe(&b, c->claim);
	pmbench_buf_addf(&title, "claim: %s", b.ptr);
	pmbench_doc_init(out, "claim", title.ptr);
	out->csv = pmbench_xstrdup("judgements");
	pmbench_doc_attach(out, r, NULL);
	overall_verdict(&overall, c);
	pmbench_buf_reset(&title);
	pmbench_buf_addf(&title, "The claim is %s",
			 c->judged ? overall.ptr : "not judged");
	pmbench_kind_claim_decision(out, c, title.ptr);
	pmbench_buf_release(&title);
	pmbench_doc_para(out, PMBENCH_DOC_HUMAN,
			 "claim: %s\nreproduced if the 95%% interval of the "
			 "measured ratio lies within ±%g%% of the claim",
			 b.ptr, c->tolerance * 100);
	for (size_t i = 0; i < c->scenarios_nr; i++)
		scenario(out, c->claim, &c->scenarios[i]);
	if (c->judged) {
		pmbench_doc_heading(out, PMBENCH_DOC_HUMAN, 2, "verdict: %s",
				    overall.ptr);
		chart(out, c);
	}
	t = pmbench_doc_table(out, PMBENCH_DOC_DATA, "judgements",
			      judgement_cols,
			      PMBENCH_ARRAY_SIZE(judgement_cols));
	for (size_t i = 0; i < c->scenarios_nr; i++)
		judgement_row(t, c->claim, &c->scenarios[i]);
	pmbench_kind_legend(out, r, NULL);
	pmbench_buf_release(&b);
	pmbench_buf_release(&overall);
}

int pmbench_kind_claim_again(struct pmbench_doc *out,
			     const struct pmbench_result *r)
{
	struct pmbench_report_claim judged = PMBENCH_REPORT_CLAIM_INIT;
	struct pmbench_claim claim = PMBENCH_CLAIM_INIT;
	unsigned *states =
		pmbench_xcalloc(r->scenarios.nr + 1, sizeof(*states));
	size_t n = 0;
	int ret = pmbench_claim_parse(&claim, r->claim);

	/* The scenarios `claim` ran are the ones it judged in. */
	for (size_t i = 0; !ret && i < r->scenarios.nr; i++)
		if (!pmbench_scenario_parse(&states[n], r->scenarios.v[i]))
			n++;
	pmbench_error_clear();
	if (!ret) {
		pmbench_report_claim_init(&judged, r, &claim, NULL, states, n,
					  r->claim_tolerance);
		pmbench_report_claim(out, &judged, r);
	}
	pmbench_report_claim_release(&judged);
	pmbench_claim_release(&claim);
	free(states);
	return ret;
}
