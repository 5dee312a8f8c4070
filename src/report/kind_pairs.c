/*
 * Every pair of PMs of each scenario, for pages and data: the ratio of
 * medians with its independent interval beside the median of the
 * per-round ratios with its paired interval (model.c), and the rounds
 * that paired. The paired one cancels a drift of the machine during the
 * scenario; it is blank when the rounds are not complete.
 */
#include "pmbench/common.h"

#include "internal.h"

#define NUMBER	 PMBENCH_DOC_NUMBER
#define TEXT	 PMBENCH_DOC_TEXT
#define INTERVAL PMBENCH_DOC_INTERVAL

enum {
	COL_FIXTURE,
	COL_TASK,
	COL_SCENARIO,
	COL_A,
	COL_B,
	COL_RATIO,
	COL_PAIRED,
	COL_ROUNDS,
};

static const struct pmbench_doc_column cols[] = {
	[COL_FIXTURE] = { "fixture", 0, { { "fixture", TEXT, 0 } } },
	[COL_TASK] = { "action", 0, { { "task", TEXT, 0 } } },
	[COL_SCENARIO] = { "scenario", 0, { { "scenario", TEXT, 0 } } },
	[COL_A] = { "a", 0, { { "pm_a", TEXT, 0 } } },
	[COL_B] = { "b", 0, { { "pm_b", TEXT, 0 } } },
	[COL_RATIO] = { "a / b, independent (95% CI)",
			0,
			{ { "ratio", NUMBER, 0 },
			  { "ratio_ci95", NUMBER, INTERVAL } } },
	[COL_PAIRED] = { "a / b, paired by round (95% CI)",
			 0,
			 { { "paired_ratio", NUMBER, 0 },
			   { "paired_ratio_ci95", NUMBER, INTERVAL } } },
	[COL_ROUNDS] = { "rounds",
			 0,
			 { { "paired_rounds", PMBENCH_DOC_COUNT, 0 } } },
};

/* "1.98x (1.95x–2.01x)" into column k, with its data fields. */
static void ratio_cell(struct pmbench_doc_row *row, size_t k,
		       const struct pmbench_interval *iv)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_report_add_ratio(&b, iv->point);
	pmbench_buf_adds(&b, " (");
	pmbench_report_add_ratio(&b, iv->lo);
	pmbench_buf_adds(&b, "–");
	pmbench_report_add_ratio(&b, iv->hi);
	pmbench_buf_adds(&b, ")");
	pmbench_doc_text(row, k, "%s", b.ptr);
	pmbench_doc_num(row, k, 0, iv->point);
	pmbench_doc_interval(row, k, 1, iv->lo, iv->hi);
	pmbench_buf_release(&b);
}

void pmbench_kind_pairs(struct pmbench_doc *d, const struct pmbench_report *rep)
{
	struct pmbench_doc_table *t;

	if (!rep->pairs_nr)
		return;
	pmbench_doc_heading(d, PMBENCH_DOC_PAGE, 2, "Every pair of PMs");
	pmbench_doc_para(d, PMBENCH_DOC_PAGE,
			 "Each pair's ratio of medians with its independent "
			 "bootstrap 95%% interval, and the median of the "
			 "ratios of the runs of one round with a bootstrap "
			 "over whole rounds, which a drift of the machine "
			 "does not widen (blank: the rounds are not "
			 "complete).");
	t = pmbench_doc_table(d, PMBENCH_DOC_PAGE | PMBENCH_DOC_DATA, "pairs",
			      cols, PMBENCH_ARRAY_SIZE(cols));
	for (size_t i = 0; i < rep->pairs_nr; i++) {
		const struct pmbench_report_pm_pair *p = &rep->pairs[i];
		const struct pmbench_cell *a = rep->cells[p->a].cell;
		const struct pmbench_cell *b = rep->cells[p->b].cell;
		struct pmbench_doc_row *row = pmbench_doc_row(t);

		pmbench_doc_str(row, COL_FIXTURE, 0, a->fixture);
		pmbench_doc_text(row, COL_FIXTURE, "%s", a->fixture);
		pmbench_doc_str(row, COL_TASK, 0, a->task);
		pmbench_doc_text(row, COL_TASK, "%s", a->task);
		pmbench_doc_str(row, COL_SCENARIO, 0, a->scenario);
		pmbench_doc_text(row, COL_SCENARIO, "%s", a->scenario);
		pmbench_doc_name(row, COL_A, a->pm);
		pmbench_doc_name(row, COL_B, b->pm);
		ratio_cell(row, COL_RATIO, &p->ratio);
		if (!p->has_paired)
			continue;
		ratio_cell(row, COL_PAIRED, &p->paired);
		pmbench_doc_text(row, COL_ROUNDS, "%zu", p->rounds);
		pmbench_doc_num(row, COL_ROUNDS, 0, (double)p->rounds);
	}
}
