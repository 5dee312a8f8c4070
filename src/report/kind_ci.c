/*
 * `bench --ci`: the line that says a fixture's PMs ran as on a CI runner,
 * and what each did differently there, from its cells in a scenario
 * without a lockfile: its priming (outside CI) installed and wrote its
 * lockfile, so runs that failed refused to install without one (a frozen
 * lockfile: pnpm, yarn 4), and runs that wrote none left it unwritten.
 */
#include "pmbench/common.h"

#include "internal.h"
#include "pmbench/report.h"

/* Of `c`'s timed runs: how many, how many failed, how many wrote none. */
struct ci_runs {
	size_t runs, failed, unwritten;
	const char *failure; /* the first failed run's reason */
};

static void count_runs(struct ci_runs *n, const struct pmbench_cell *c)
{
	memset(n, 0, sizeof(*n));
	for (size_t i = 0; i < c->samples_nr; i++) {
		const struct pmbench_sample *s = &c->samples[i];
		double written;

		if (s->warmup)
			continue;
		n->runs++;
		if (!s->ok) {
			n->failed++;
			if (!n->failure)
				n->failure = s->failure;
		} else if (pmbench_sample_metric_get(
				   s, "lockfile_written_count", &written) &&
			   !written) {
			n->unwritten++;
		}
	}
}

/* What `c` (a --ci cell without a lockfile) did under CI, into `out`. */
static void pm_change(struct pmbench_buf *out, const struct pmbench_cell *c)
{
	struct ci_runs n;

	count_runs(&n, c);
	if (!n.runs)
		return;
	pmbench_buf_addf(out, "; %s ", c->pm);
	if (n.failed)
		pmbench_buf_addf(out,
				 "refused to install without a lockfile "
				 "(%s: %zu of %zu runs failed: %.160s)",
				 c->scenario, n.failed, n.runs,
				 n.failure ? n.failure : "no reason recorded");
	else if (n.unwritten)
		pmbench_buf_addf(out,
				 "installed but left its lockfile unwritten "
				 "(%s: %zu of %zu runs)",
				 c->scenario, n.unwritten, n.runs);
	else
		pmbench_buf_addf(out,
				 "did as outside CI (%s: installed and wrote "
				 "its lockfile)",
				 c->scenario);
}

/* The first cell of each PM in `fixture` run under --ci, no lockfile. */
static int changes(struct pmbench_buf *out, const struct pmbench_report *rep,
		   const char *fixture)
{
	struct pmbench_strvec seen = PMBENCH_STRVEC_INIT;
	int any = 0;

	for (size_t i = 0; i < rep->cells_nr; i++) {
		const struct pmbench_cell *c = rep->cells[i].cell;

		if (strcmp(c->fixture, fixture) || !c->ci)
			continue;
		any = 1;
		if (strcmp(c->task, "install") ||
		    strstr(c->scenario, "lockfile") ||
		    pmbench_strvec_find(&seen, c->pm) >= 0)
			continue;
		pmbench_strvec_push(&seen, c->pm);
		pm_change(out, c);
	}
	pmbench_strvec_release(&seen);
	return any;
}

void pmbench_kind_ci_note(struct pmbench_doc *d,
			  const struct pmbench_report *rep, const char *fixture)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (changes(&b, rep, fixture))
		pmbench_doc_note(d, PMBENCH_DOC_HUMAN, PMBENCH_DOC_NOTE,
				 "%s: every PM ran as on a CI runner (--ci: "
				 "CI=true, GITHUB_ACTIONS=true, pmbench's "
				 "frozen-lockfile pins off; the priming "
				 "outside it)%s",
				 fixture,
				 b.len ? b.ptr
				       : "; no scenario without a lockfile, "
					 "where a frozen one would show");
	pmbench_buf_release(&b);
}
