#include "pmbench/common.h"

#include <getopt.h>

#include "pmbench/buf.h"
#include "cli.h"
#include "pmbench/report.h"
#include "pmbench/scenario.h"
#include "pmbench/stats.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pmbench compare A.json B.json\n"
		"\n"
		"Compare two result files cell by cell (same fixture, task, "
		"scenario and PM):\n"
		"the change of the median from A to B with its bootstrap 95%% "
		"interval, a\n"
		"Mann-Whitney test, and a verdict: faster, slower or no "
		"significant difference.\n"
		"For upgrades (bun 1.1 -> 1.4) and before/after experiments.\n"
		"\n"
		"Exit status: 0 ok, 1 error (unreadable file, nothing in "
		"common), 129 usage.\n");
}

static const char *pm_version(const struct pmbench_result *r, const char *pm)
{
	for (size_t i = 0; i < r->found_nr; i++)
		if (!strcmp(r->found[i].name, pm) && r->found[i].version)
			return r->found[i].version;
	return "?";
}

static void add_pct(struct pmbench_buf *b, double ratio)
{
	pmbench_buf_addf(b, "%+.1f%%", (ratio - 1) * 100);
}

/* One line per cell of `x` that `y` lacks, "only in <name>: ...". */
static void print_only_in(const char *name, const struct pmbench_result *x,
			  const struct pmbench_result *y)
{
	for (size_t i = 0; i < x->cells_nr; i++) {
		const struct pmbench_cell *c = &x->cells[i];

		if (!pmbench_result_find_cell(y, c->fixture, c->task,
					      c->scenario, c->pm))
			printf("only in %s: %s · %s · %s · %s\n", name,
			       c->fixture, c->task, c->scenario, c->pm);
	}
}

/*
 * Under a cell's line: the runs of A and B cut short by a signal to
 * pmbench, which are neither times nor failures and are left out.
 */
static void print_interrupted(const struct pmbench_cell *ca,
			      const struct pmbench_cell *cb)
{
	size_t ia = pmbench_cell_interrupted(ca);
	size_t ib = pmbench_cell_interrupted(cb);

	if (!ia && !ib)
		return;
	printf("  %-10s note: ", "");
	if (ia)
		printf("%zu interrupted run%s in A", ia, ia == 1 ? "" : "s");
	if (ia && ib)
		printf(" and %zu in B", ib);
	else if (ib)
		printf("%zu interrupted run%s in B", ib, ib == 1 ? "" : "s");
	printf(" left out\n");
}

/* One line per cell of B that A has too; returns how many. */
static size_t compare(const struct pmbench_result *a,
		      const struct pmbench_result *b)
{
	struct pmbench_buf line = PMBENCH_BUF_INIT;
	const char *last = NULL;
	size_t matched = 0;

	for (size_t i = 0; i < b->cells_nr; i++) {
		const struct pmbench_cell *cb = &b->cells[i];
		const struct pmbench_cell *ca = pmbench_result_find_cell(
			a, cb->fixture, cb->task, cb->scenario, cb->pm);
		struct pmbench_comparison cmp;
		struct pmbench_rng rng;
		double *ta = NULL, *tb = NULL;
		size_t na = 0, nb = 0;
		unsigned state = 0;

		if (!ca)
			continue;
		matched++;
		pmbench_buf_reset(&line);
		pmbench_buf_addf(&line, "%s · %s · %s", cb->fixture, cb->task,
				 cb->scenario);
		if (!last || strcmp(last, line.ptr)) {
			if (pmbench_scenario_parse(&state, cb->scenario) < 0)
				pmbench_error_clear();
			printf("\n%s\n  (", line.ptr);
			pmbench_buf_reset(&line);
			pmbench_report_add_state(&line, state);
			printf("%s)\n  %-10s %-22s %-10s %-10s %-26s %-9s %s\n",
			       line.ptr, "pm", "version A -> B", "median A",
			       "median B", "change (95% CI)", "p",
			       "verdict");
			pmbench_buf_reset(&line);
			pmbench_buf_addf(&line, "%s · %s · %s", cb->fixture,
					 cb->task, cb->scenario);
			free((char *)last);
			last = pmbench_xstrdup(line.ptr);
		}
		ta = pmbench_cell_times(ca, &na);
		tb = pmbench_cell_times(cb, &nb);
		pmbench_buf_reset(&line);
		pmbench_buf_addf(&line, "%s -> %s", pm_version(a, cb->pm),
				 pm_version(b, cb->pm));
		printf("  %-10s %-22s ", cb->pm, line.ptr);
		pmbench_rng_seed(&rng, b->seed + i);
		if (!na || !nb ||
		    pmbench_stats_compare(&cmp, tb, nb, ta, na,
					  PMBENCH_REPORT_LEVEL,
					  PMBENCH_REPORT_RESAMPLES,
					  PMBENCH_REPORT_ALPHA, &rng) < 0) {
			pmbench_error_clear();
			printf("no successful runs in %s\n",
			       !na ? (!nb ? "A and B" : "A") : "B");
			print_interrupted(ca, cb);
			free(ta);
			free(tb);
			continue;
		}
		pmbench_buf_reset(&line);
		pmbench_report_add_duration(&line,
					    pmbench_stats_median(ta, na));
		printf("%-10s ", line.ptr);
		pmbench_buf_reset(&line);
		pmbench_report_add_duration(&line,
					    pmbench_stats_median(tb, nb));
		printf("%-10s ", line.ptr);
		pmbench_buf_reset(&line);
		add_pct(&line, cmp.ratio.point);
		pmbench_buf_adds(&line, " (");
		add_pct(&line, cmp.ratio.lo);
		pmbench_buf_adds(&line, " … ");
		add_pct(&line, cmp.ratio.hi);
		pmbench_buf_adds(&line, ")");
		printf("%-28s ", line.ptr);
		if (cmp.mwu.p < 0.001)
			printf("%-9s ", "<0.001");
		else
			printf("%-9.3f ", cmp.mwu.p);
		printf("%s\n", cmp.verdict == PMBENCH_VERDICT_FASTER
				       ? "faster"
			       : cmp.verdict == PMBENCH_VERDICT_SLOWER
				       ? "slower"
			       : pmbench_stats_mwu_min_p(na, nb) >=
					       PMBENCH_REPORT_ALPHA
				       ? "too few runs to test (4 each needed)"
				       : "no significant difference");
		print_interrupted(ca, cb);
		free(ta);
		free(tb);
	}
	print_only_in("A", a, b);
	print_only_in("B", b, a);
	free((char *)last);
	pmbench_buf_release(&line);
	return matched;
}

int cmd_compare(int argc, char **argv)
{
	struct pmbench_result a = PMBENCH_RESULT_INIT, b = PMBENCH_RESULT_INIT;
	int code = PMBENCH_EXIT_USAGE;

	if (argc == 2 &&
	    (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc != 3 || argv[1][0] == '-' || argv[2][0] == '-') {
		fprintf(stderr, "pmbench: compare: give two result files, A "
				"(before) and B (after); see 'pmbench compare "
				"--help'\n");
		return code;
	}
	code = PMBENCH_EXIT_ERROR;
	if (pmbench_cli_read_result(&a, argv[1]) < 0 ||
	    pmbench_cli_read_result(&b, argv[2]) < 0) {
		fprintf(stderr, "pmbench: error: %s\n", pmbench_error_last());
		goto done;
	}
	printf("A: %s (%s)\nB: %s (%s)\n", argv[1],
	       a.created ? a.created : "?", argv[2],
	       b.created ? b.created : "?");
	printf("change = median B / median A - 1; negative is faster\n");
	if (!compare(&a, &b)) {
		fprintf(stderr, "pmbench: error: '%s' and '%s' have no cell "
				"(fixture, task, scenario, PM) in common\n",
			argv[1], argv[2]);
		goto done;
	}
	code = PMBENCH_EXIT_OK;
done:
	pmbench_result_release(&a);
	pmbench_result_release(&b);
	return code;
}
