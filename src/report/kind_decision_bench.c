/*
 * The decision table atop `bench --baseline X` and `claim`: each fills
 * the decision model of kind_decision.c from its own statistics (bench:
 * every other PM against the chosen baseline, paired by round where the
 * rounds pair; claim: its first PM against its second, in each scenario
 * judged), which pmbench_kind_decision() says as it says migrate's.
 */
#include "pmbench/common.h"

#include "internal.h"
#include "pmbench/control.h"
#include "pmbench/report_kind.h"
#include "pmbench/task.h"

/* "install clean", "build", "test clean"; the fixture first with `fx`. */
static void cell_head(struct pmbench_buf *b, const struct pmbench_cell *c,
		      int fx)
{
	if (fx)
		pmbench_buf_addf(b, "%s ", c->fixture);
	if (!strcmp(c->task, pmbench_task_default()->name))
		pmbench_buf_addf(b, "install %s", c->scenario);
	else if (pmbench_task_cell_has(c->task, PMBENCH_TASK_PER_SCENARIO))
		pmbench_buf_addf(b, "%s %s", c->task, c->scenario);
	else
		pmbench_buf_adds(b, c->task);
}

/* Whether `pm` is a PM of its own (not the control, not a node baseline). */
static int a_pm(const char *pm)
{
	return *pm != '(' && !pmbench_control_is(pm);
}

/* Whether the cells of `rep` are of more than one fixture. */
static int several_fixtures(const struct pmbench_report *rep)
{
	for (size_t i = 1; i < rep->cells_nr; i++)
		if (strcmp(rep->cells[i].cell->fixture,
			   rep->cells[0].cell->fixture))
			return 1;
	return 0;
}

/*
 * Cell `c` against the baseline's `base`: paired by round when bench
 * paired them over enough rounds, else the independent ratio of medians.
 */
static void bench_speed(struct pmbench_decision_speed *sp,
			const struct pmbench_report_cell *c,
			const struct pmbench_report_cell *base, uint64_t seed)
{
	struct pmbench_kind_speed s;

	sp->install = !strcmp(c->cell->task, pmbench_task_default()->name);
	if (c->has_base && c->base_n >= PMBENCH_REPORT_PAIRED_MIN_ROUNDS &&
	    c->base.point > 0 && c->base.lo > 0) {
		sp->has = 1;
		sp->up.point = 1 / c->base.point;
		sp->up.lo = 1 / c->base.hi;
		sp->up.hi = 1 / c->base.lo;
		sp->verdict = c->base_verdict;
		sp->note = "paired";
	} else if (pmbench_kind_cells_speed(&s, base->cell, c->cell, seed)) {
		pmbench_kind_speed_model(sp, &s);
	}
}

/*
 * What failed of cell `c` in the runs column: all its runs (it blocks the
 * move where the reference `ref` has times) or some.
 */
static void runs_failed(struct pmbench_decision_target *tg,
			const struct pmbench_report_cell *c,
			const struct pmbench_report_cell *ref, const char *head)
{
	if (!c->n && ref->n) {
		pmbench_decision_ok_add(tg, "fails in %s", head);
		tg->blocked = 1;
	} else if (c->n && c->failed) {
		pmbench_decision_ok_add(tg, "%zu of %zu runs failed in %s",
					c->failed, c->failed + c->n, head);
	}
}

const char *pmbench_kind_not_the_state(const struct pmbench_cell *c)
{
	if (pmbench_cell_wrong_state(c))
		return "not the state asked";
	if (c->proof == PMBENCH_PROOF_FAIL)
		return "not warm (failed offline)";
	return NULL;
}

/*
 * What of the target's cell `c` and the reference's `base` (with
 * `base_n` times) is not of the state asked, said in the runs column in
 * `head`: a target not in a state the reference was in, with times, is
 * blocked, as one that fails there. 1 when either is not.
 */
static int unfit(const struct pmbench_decision *dec,
		 struct pmbench_decision_target *tg, const char *head,
		 const struct pmbench_cell *c, const struct pmbench_cell *base,
		 size_t base_n)
{
	const char *mine = pmbench_kind_not_the_state(c);
	const char *theirs = pmbench_kind_not_the_state(base);

	if (mine) {
		pmbench_decision_ok_add(tg, "%s in %s", mine, head);
		tg->blocked |= !theirs && base_n;
	}
	if (theirs)
		pmbench_decision_ok_add(tg, "%s %s in %s", dec->reference,
					theirs, head);
	return mine || theirs;
}

/*
 * Target cell `c` against the baseline's `base` in head `i`: its speed
 * when both are of the state asked, else what was not.
 */
static void group_speed(struct pmbench_decision *dec,
			struct pmbench_decision_target *tg, size_t i,
			const struct pmbench_report_cell *c,
			const struct pmbench_report_cell *base, uint64_t seed)
{
	if (!pmbench_kind_not_the_state(c->cell))
		runs_failed(tg, c, base, dec->heads.v[i]);
	if (!unfit(dec, tg, dec->heads.v[i], c->cell, base->cell, base->n) &&
	    c->n && base->n)
		bench_speed(&tg->speeds[i], c, base, seed);
}

/* The cell of `pm` in the group of cell `g`, or -1. */
static long group_cell(const struct pmbench_report *rep, size_t g,
		       const char *pm)
{
	for (size_t j = g; j < rep->cells_nr; j++)
		if (pmbench_report_same_group(rep, g, j) &&
		    !strcmp(rep->cells[j].cell->pm, pm))
			return (long)j;
	return -1;
}

/* The groups (first cells) where the baseline ran, their heads. */
static void bench_groups(struct pmbench_decision *dec,
			 struct pmbench_strvec *firsts,
			 const struct pmbench_report *rep)
{
	int fx = several_fixtures(rep);
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t g = 0; g < rep->cells_nr; g++) {
		if (!pmbench_report_group_start(rep, g) ||
		    group_cell(rep, g, dec->reference) < 0)
			continue;
		pmbench_buf_reset(&b);
		cell_head(&b, rep->cells[g].cell, fx);
		pmbench_strvec_push(&dec->heads, b.ptr);
		pmbench_strvec_pushf(firsts, "%zu", g);
	}
	pmbench_buf_release(&b);
}

/* PM `pm`'s row: its speed against the baseline in every group. */
static void bench_target(struct pmbench_decision *dec, const char *pm,
			 const struct pmbench_strvec *firsts,
			 const struct pmbench_report *rep)
{
	struct pmbench_decision_target *tg = pmbench_decision_target(dec, pm);
	size_t ran = 0;

	for (size_t i = 0; i < firsts->nr; i++) {
		size_t g = (size_t)strtoul(firsts->v[i], NULL, 10);
		long j = group_cell(rep, g, pm);
		long b = group_cell(rep, g, dec->reference);

		if (j < 0)
			continue;
		ran += rep->cells[j].n > 0 ||
		       pmbench_cell_wrong_state(rep->cells[j].cell);
		group_speed(dec, tg, i, &rep->cells[j], &rep->cells[b],
			    rep->result->seed + (uint64_t)j);
	}
	if (!ran) {
		tg->blocked = 1;
		tg->failure = pmbench_xstrdup("no successful run");
	}
}

int pmbench_kind_bench_decision(struct pmbench_doc *out,
				const struct pmbench_report *rep)
{
	const struct pmbench_result *r = rep->result;
	struct pmbench_decision dec = PMBENCH_DECISION_INIT;
	struct pmbench_strvec firsts = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec pms = PMBENCH_STRVEC_INIT;
	int said;

	if (!r->baseline || !r->baseline_chosen)
		return 0;
	dec.reference = r->baseline;
	dec.against = "--baseline";
	dec.ok_head = "runs";
	dec.ok_says = "passes every run";
	bench_groups(&dec, &firsts, rep);
	for (size_t i = 0; i < rep->cells_nr; i++) {
		const char *pm = rep->cells[i].cell->pm;

		if (a_pm(pm) && strcmp(pm, r->baseline) &&
		    pmbench_strvec_find(&pms, pm) < 0) {
			pmbench_strvec_push(&pms, pm);
			bench_target(&dec, pms.v[pms.nr - 1], &firsts, rep);
		}
	}
	said = firsts.nr > 0;
	if (said)
		pmbench_kind_decision(out, &dec);
	pmbench_decision_release(&dec);
	pmbench_strvec_release(&firsts);
	pmbench_strvec_release(&pms);
	return said;
}

/* A claim's judgement in one scenario as a speed of the model. */
static void claim_speed(struct pmbench_decision_speed *sp,
			const struct pmbench_report_judgement *s)
{
	sp->has = 1;
	sp->up = s->j.speedup;
	sp->verdict = s->j.speedup.lo > 1   ? PMBENCH_VERDICT_FASTER
		      : s->j.speedup.hi < 1 ? PMBENCH_VERDICT_SLOWER
					    : PMBENCH_VERDICT_SAME;
	sp->one_run = s->na < 2 || s->nb < 2;
	sp->install = !strcmp(s->a->task, pmbench_task_default()->name);
	sp->note = pmbench_claim_verdict_name(s->j.verdict);
}

void pmbench_kind_claim_decision(struct pmbench_doc *out,
				 const struct pmbench_report_claim *c,
				 const char *lead)
{
	struct pmbench_decision dec = PMBENCH_DECISION_INIT;
	struct pmbench_decision_target *tg;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int fx = 0;

	dec.reference = c->claim->pm_b;
	dec.against = "the claim's second PM";
	dec.ok_head = "runs";
	dec.ok_says = "passes every run";
	dec.lead = pmbench_xstrdup(lead);
	for (size_t i = 1; i < c->scenarios_nr; i++)
		fx |= !!strcmp(c->scenarios[i].a->fixture,
			       c->scenarios[0].a->fixture);
	for (size_t i = 0; i < c->scenarios_nr; i++) {
		pmbench_buf_reset(&b);
		cell_head(&b, c->scenarios[i].a, fx);
		pmbench_strvec_push(&dec.heads, b.ptr);
	}
	tg = pmbench_decision_target(&dec, c->claim->pm_a);
	for (size_t i = 0; i < c->scenarios_nr; i++) {
		const struct pmbench_report_judgement *s = &c->scenarios[i];

		if (s->judged) {
			claim_speed(&tg->speeds[i], s);
		} else if (!unfit(&dec, tg, dec.heads.v[i], s->a, s->b,
				  s->nb) &&
			   !s->na && s->nb) {
			pmbench_decision_ok_add(tg, "fails in %s",
						dec.heads.v[i]);
			tg->blocked = 1;
		}
	}
	pmbench_kind_decision(out, &dec);
	pmbench_decision_release(&dec);
	pmbench_buf_release(&b);
}
