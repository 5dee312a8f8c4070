/*
 * How each PM's time grows with a generated workspace (gen.h): the
 * fixtures of a result that are one generator's workspaces (one kind,
 * one seed) at several sizes become, per task and scenario, a row per
 * PM of its medians by size with the cost of one more package (the
 * least-squares slope of the medians), a curve chart for pages and one
 * row per PM and size for CSV and JSON ("scaling").
 */
#include "pmbench/common.h"

#include <math.h>
#include <stdlib.h>

#include "internal.h"
#include "pmbench/control.h"
#include "pmbench/gen.h"
#include "pmbench/pm.h"
#include "pmbench/report.h"

/* A generated fixture of the result and its size. */
struct sized {
	const char *fixture;
	const char *kind;
	uint64_t seed;
	unsigned n;
};

/* The cells one section shows: a family's sizes in one task, scenario. */
struct section {
	const struct pmbench_report *rep;
	const struct sized *sizes;
	size_t nr; /* sizes, ascending, distinct */
	const char *task, *scenario;
	struct pmbench_strvec pms;
};

static int by_family(const void *a, const void *b)
{
	const struct sized *x = a, *y = b;
	int c = strcmp(x->kind, y->kind);

	if (c)
		return c;
	if (x->seed != y->seed)
		return x->seed < y->seed ? -1 : 1;
	return x->n < y->n ? -1 : x->n > y->n;
}

/* The generated fixtures of `r`, sorted by kind, seed and size. */
static size_t sized_fixtures(struct sized **out, const struct pmbench_result *r)
{
	size_t nr = 0;

	*out = pmbench_xcalloc(r->fixtures_nr + 1, sizeof(**out));
	for (size_t i = 0; i < r->fixtures_nr; i++) {
		struct pmbench_gen g;

		if (!pmbench_gen_is(r->fixtures[i].repo) ||
		    pmbench_gen_parse(&g, r->fixtures[i].repo) < 0) {
			pmbench_error_clear();
			continue;
		}
		(*out)[nr].fixture = r->fixtures[i].name;
		(*out)[nr].kind = g.kind;
		(*out)[nr].seed = g.seed;
		(*out)[nr].n = g.packages;
		nr++;
	}
	qsort(*out, nr, sizeof(**out), by_family);
	return nr;
}

/* The report cell of one fixture, task, scenario and PM, or -1. */
static long cell_of(const struct section *s, const char *fixture,
		    const char *pm)
{
	for (size_t i = 0; i < s->rep->cells_nr; i++) {
		const struct pmbench_cell *c = s->rep->cells[i].cell;

		if (!strcmp(c->fixture, fixture) && !strcmp(c->task, s->task) &&
		    !strcmp(c->scenario, s->scenario) && !strcmp(c->pm, pm))
			return (long)i;
	}
	return -1;
}

/* Seconds per added package: the least-squares slope, or NAN. */
static double slope(const struct section *s, const char *pm)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, k = 0;

	for (size_t i = 0; i < s->nr; i++) {
		long c = cell_of(s, s->sizes[i].fixture, pm);
		double x = s->sizes[i].n, y;

		if (c < 0 || !s->rep->cells[c].n)
			continue;
		y = s->rep->cells[c].wall.median;
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
		k++;
	}
	if (k < 2 || k * sxx - sx * sx <= 0)
		return NAN;
	return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

/* One size's cell: the median, "-" or "failed"; `wide` adds the interval. */
static void size_cell(struct pmbench_buf *b,
		      const struct pmbench_report_cell *rc, int wide)
{
	if (!rc)
		pmbench_buf_adds(b, "-");
	else if (!rc->n)
		pmbench_buf_adds(b, "failed");
	else
		pmbench_report_add_duration(b, rc->wall.median);
	if (rc && rc->n && wide && rc->has_ci) {
		pmbench_buf_adds(b, " (");
		pmbench_report_add_duration(b, rc->median_ci.lo);
		pmbench_buf_adds(b, " – ");
		pmbench_report_add_duration(b, rc->median_ci.hi);
		pmbench_buf_adds(b, ")");
	}
}

/* The people's table: a column per size; `wide` adds the intervals. */
static void human_table(struct pmbench_doc *d, const struct section *s,
			unsigned audience, int wide)
{
	struct pmbench_doc_column *cols =
		pmbench_xcalloc(s->nr + 2, sizeof(*cols));
	struct pmbench_strvec heads = PMBENCH_STRVEC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_doc_table *t;

	cols[0].header = "pm";
	for (size_t i = 0; i < s->nr; i++) {
		cols[1 + i].header =
			pmbench_strvec_pushf(&heads, "N=%u", s->sizes[i].n);
		cols[1 + i].flags = PMBENCH_DOC_RIGHT;
	}
	cols[1 + s->nr].header = "per package";
	cols[1 + s->nr].flags = PMBENCH_DOC_RIGHT;
	t = pmbench_doc_table(d, audience, "scaling-table", cols, s->nr + 2);
	for (size_t p = 0; p < s->pms.nr; p++) {
		struct pmbench_doc_row *row = pmbench_doc_row(t);
		double per = slope(s, s->pms.v[p]);

		pmbench_doc_text(row, 0, "%s", s->pms.v[p]);
		for (size_t i = 0; i < s->nr; i++) {
			long c = cell_of(s, s->sizes[i].fixture, s->pms.v[p]);
			const struct pmbench_report_cell *rc =
				c < 0 ? NULL : &s->rep->cells[c];

			pmbench_buf_reset(&b);
			size_cell(&b, rc, wide);
			pmbench_doc_text(row, 1 + i, "%s", b.ptr);
		}
		if (per == per)
			pmbench_doc_text(row, 1 + s->nr, "%.2f ms", per * 1e3);
	}
	free(cols);
	pmbench_strvec_release(&heads);
	pmbench_buf_release(&b);
}

struct pmbench_doc_chart *pmbench_kind_curve_chart(struct pmbench_doc *d,
						   const char *caption,
						   const char *x_unit,
						   const char *fmt, ...)
{
	struct pmbench_buf title = PMBENCH_BUF_INIT;
	struct pmbench_doc_chart *c;
	va_list ap;

	va_start(ap, fmt);
	pmbench_buf_vaddf(&title, fmt, ap);
	va_end(ap);
	c = pmbench_doc_chart(d, PMBENCH_DOC_PAGE, "curve", caption, title.ptr,
			      " s");
	c->curve = 1;
	c->x_unit = pmbench_xstrdup(x_unit);
	pmbench_buf_release(&title);
	return c;
}

void pmbench_kind_curve_point(struct pmbench_doc_chart *c, const char *series,
			      double x, const struct pmbench_report_cell *rc,
			      const char *what)
{
	struct pmbench_doc_bar *bar = pmbench_doc_bar(c, series);
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	bar->x = x;
	bar->has_value = rc->n > 0;
	bar->value = rc->wall.median;
	bar->has_interval = rc->n > 0 && rc->has_ci;
	bar->lo = rc->median_ci.lo;
	bar->hi = rc->median_ci.hi;
	pmbench_buf_addf(&b, "%s: ", what);
	if (rc->n)
		pmbench_report_add_duration(&b, rc->wall.median);
	else
		pmbench_buf_adds(&b, "failed");
	pmbench_doc_bar_text(bar, "%s", b.ptr);
	pmbench_buf_release(&b);
}

static void chart(struct pmbench_doc *d, const struct section *s)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_doc_chart *c = pmbench_kind_curve_chart(
		d,
		"Median (points joined per package manager), 95% interval "
		"(whiskers), by workspace packages",
		"workspace packages",
		"%s %s: median time against the number of workspace packages, "
		"one line per package manager, with 95%% intervals",
		s->task, s->scenario);

	for (size_t p = 0; p < s->pms.nr; p++) {
		for (size_t i = 0; i < s->nr; i++) {
			long k = cell_of(s, s->sizes[i].fixture, s->pms.v[p]);

			if (k < 0)
				continue;
			pmbench_buf_reset(&b);
			pmbench_buf_addf(&b, "%s, %u packages", s->pms.v[p],
					 s->sizes[i].n);
			pmbench_kind_curve_point(c, s->pms.v[p], s->sizes[i].n,
						 &s->rep->cells[k], b.ptr);
		}
	}
	pmbench_buf_release(&b);
}

static const struct pmbench_doc_column data_cols[] = {
	{ NULL, 0, { { "fixture", PMBENCH_DOC_TEXT, 0 } } },
	{ NULL, 0, { { "generator", PMBENCH_DOC_TEXT, 0 } } },
	{ NULL, 0, { { "seed", PMBENCH_DOC_COUNT, 0 } } },
	{ NULL, 0, { { "task", PMBENCH_DOC_TEXT, 0 } } },
	{ NULL, 0, { { "scenario", PMBENCH_DOC_TEXT, 0 } } },
	{ NULL, 0, { { "pm", PMBENCH_DOC_TEXT, 0 } } },
	{ NULL, 0, { { "packages", PMBENCH_DOC_COUNT, 0 } } },
	{ NULL,
	  0,
	  { { "median", PMBENCH_DOC_SECONDS, 0 },
	    { "median_ci95", PMBENCH_DOC_SECONDS, PMBENCH_DOC_INTERVAL } } },
	{ NULL, 0, { { "runs", PMBENCH_DOC_COUNT, 0 } } },
	{ NULL, 0, { { "per_package", PMBENCH_DOC_SECONDS, 0 } } },
};

static void data_table(struct pmbench_doc *d, const struct section *s)
{
	struct pmbench_doc_table *t =
		pmbench_doc_table(d, PMBENCH_DOC_DATA, "scaling", data_cols,
				  PMBENCH_ARRAY_SIZE(data_cols));

	for (size_t p = 0; p < s->pms.nr; p++) {
		double per = slope(s, s->pms.v[p]);

		for (size_t i = 0; i < s->nr; i++) {
			long k = cell_of(s, s->sizes[i].fixture, s->pms.v[p]);
			const struct pmbench_report_cell *rc;
			struct pmbench_doc_row *row;

			if (k < 0)
				continue;
			rc = &s->rep->cells[k];
			row = pmbench_doc_row(t);
			pmbench_doc_str(row, 0, 0, s->sizes[i].fixture);
			pmbench_doc_str(row, 1, 0, "gen:workspace");
			pmbench_doc_num(row, 2, 0, (double)s->sizes[i].seed);
			pmbench_doc_str(row, 3, 0, s->task);
			pmbench_doc_str(row, 4, 0, s->scenario);
			pmbench_doc_str(row, 5, 0, s->pms.v[p]);
			pmbench_doc_num(row, 6, 0, s->sizes[i].n);
			if (rc->n) {
				pmbench_doc_num(row, 7, 0, rc->wall.median);
				if (rc->has_ci)
					pmbench_doc_interval(row, 7, 1,
							     rc->median_ci.lo,
							     rc->median_ci.hi);
			}
			pmbench_doc_num(row, 8, 0, (double)rc->n);
			if (per == per)
				pmbench_doc_num(row, 9, 0, per);
		}
	}
}

/* The PMs with a cell in the section, in the result's order. */
static void pms_of(struct section *s)
{
	for (size_t i = 0; i < s->rep->cells_nr; i++) {
		const struct pmbench_cell *c = s->rep->cells[i].cell;

		if (strcmp(c->task, s->task) ||
		    strcmp(c->scenario, s->scenario) ||
		    pmbench_control_is(c->pm) || !pmbench_pm_get(c->pm) ||
		    pmbench_strvec_find(&s->pms, c->pm) >= 0)
			continue;
		for (size_t k = 0; k < s->nr; k++)
			if (!strcmp(c->fixture, s->sizes[k].fixture)) {
				pmbench_strvec_push(&s->pms, c->pm);
				break;
			}
	}
}

static int one_section(struct pmbench_doc *d, struct section *s)
{
	pms_of(s);
	if (!s->pms.nr)
		return 0;
	pmbench_doc_heading(d, PMBENCH_DOC_HUMAN, 2,
			    "%s · %s · %s: %u to %u workspace packages "
			    "(gen:%s, seed %llu)",
			    "scaling", s->task, s->scenario, s->sizes[0].n,
			    s->sizes[s->nr - 1].n, s->sizes[0].kind,
			    (unsigned long long)s->sizes[0].seed);
	pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
			 "Median time by number of workspace packages N; per "
			 "package: the least-squares slope of those medians, "
			 "what one more package costs.");
	human_table(d, s, PMBENCH_DOC_TERM, 0);
	human_table(d, s, PMBENCH_DOC_PAGE, 1);
	chart(d, s);
	data_table(d, s);
	return 1;
}

/* Every task and scenario of one family's fixtures, a section each. */
static size_t family(struct pmbench_doc *d, const struct pmbench_report *rep,
		     const struct sized *sizes, size_t nr)
{
	struct pmbench_strvec seen = PMBENCH_STRVEC_INIT;
	struct pmbench_buf key = PMBENCH_BUF_INIT;
	size_t shown = 0;

	for (size_t i = 0; i < rep->cells_nr; i++) {
		const struct pmbench_cell *c = rep->cells[i].cell;
		struct section s = { rep,     sizes,	   nr,
				     c->task, c->scenario, PMBENCH_STRVEC_INIT };
		int in = 0;

		for (size_t k = 0; k < nr; k++)
			in |= !strcmp(c->fixture, sizes[k].fixture);
		pmbench_buf_reset(&key);
		pmbench_buf_addf(&key, "%s\n%s", c->task, c->scenario);
		if (!in || pmbench_strvec_find(&seen, key.ptr) >= 0)
			continue;
		pmbench_strvec_push(&seen, key.ptr);
		shown += one_section(d, &s);
		pmbench_strvec_release(&s.pms);
	}
	pmbench_strvec_release(&seen);
	pmbench_buf_release(&key);
	return shown;
}

size_t pmbench_kind_scale(struct pmbench_doc *d,
			  const struct pmbench_report *rep)
{
	size_t shown = 0;
	struct sized *all;
	size_t nr = sized_fixtures(&all, rep->result);

	for (size_t i = 0; i < nr;) {
		size_t j = i + 1, distinct = 1;

		while (j < nr && !strcmp(all[j].kind, all[i].kind) &&
		       all[j].seed == all[i].seed) {
			distinct += all[j].n != all[j - 1].n;
			j++;
		}
		/* Two fixtures of one size: the first is shown. */
		if (distinct >= 2) {
			struct sized *u = pmbench_xcalloc(j - i, sizeof(*u));
			size_t un = 0;

			for (size_t k = i; k < j; k++)
				if (!un || u[un - 1].n != all[k].n)
					u[un++] = all[k];
			shown += family(d, rep, u, un);
			free(u);
		}
		i = j;
	}
	free(all);
	return shown;
}
