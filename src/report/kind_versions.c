/*
 * Versions of one PM side by side: when a result holds a PM at two or
 * more releases in one fixture and task (`--pm pnpm@9,pnpm@10,pnpm`),
 * a section per PM with, per scenario and release (oldest first), the
 * median, the time against the release before as the paired ratio of
 * their rounds (the independent ratio of medians when the rounds are
 * not complete) with its 95 % interval, and the release where it moved
 * most; a curve chart for pages (a line per scenario across the
 * releases) and the table "versions" for CSV and JSON.
 */
#include "pmbench/common.h"

#include <math.h>
#include <stdlib.h>

#include "internal.h"
#include "pmbench/control.h"
#include "pmbench/pm.h"
#include "pmbench/semver.h"

/* A cell of the section: its release and why it ran that one. */
struct vcell {
	size_t i; /* the report cell */
	char *version;
	const char *source;
	struct pmbench_semver sv;
};

/* One PM's releases in one fixture and task. */
struct section {
	const struct pmbench_report *rep;
	const char *fixture, *task, *pm;
	struct vcell *cells;
	size_t nr, alloc;
	struct pmbench_strvec versions;	 /* distinct, oldest first */
	struct pmbench_strvec scenarios; /* in the result's order */
};

/* A step from one release to the next in one scenario. */
struct step {
	int has; /* both have times */
	int paired;
	struct pmbench_interval ratio; /* newer / older */
};

const char *pmbench_kind_pm_family(const char *name)
{
	const struct pmbench_pm *pm;

	if (pmbench_control_is(name))
		return NULL;
	pm = pmbench_pm_get(name);
	if (!pm) {
		pmbench_error_clear();
		return NULL;
	}
	return pm->unversioned ? pm->unversioned : pm->name;
}

static const char *pm_of(const struct pmbench_cell *c)
{
	return pmbench_kind_pm_family(c->pm);
}

/*
 * The release a cell ran ("9.15.9" of its pm_version "9.15.9: --pm
 * pnpm@9", else what the result found for its PM) into `v`, and where
 * it came from; 0, or -1 when it is no version.
 */
static int release_of(struct vcell *v, const struct pmbench_result *r,
		      const struct pmbench_cell *c)
{
	const char *pv = c->pm_version;

	if (pv) {
		v->version = pmbench_report_pm_release(pv, &v->source);
	} else {
		v->version = pmbench_xstrdup(pmbench_kind_pm_version(r, c->pm));
		v->source = "";
	}
	if (!pmbench_semver_parse(&v->sv, v->version))
		return 0;
	free(v->version);
	v->version = NULL;
	return -1;
}

static int by_release(const void *a, const void *b)
{
	const struct vcell *x = a, *y = b;

	return pmbench_semver_order(&x->sv, &y->sv);
}

/* The first cell of `s` in `scenario` at `version`, or NULL. */
static const struct vcell *find(const struct section *s, const char *scenario,
				const char *version)
{
	for (size_t k = 0; k < s->nr; k++)
		if (!strcmp(s->rep->cells[s->cells[k].i].cell->scenario,
			    scenario) &&
		    !strcmp(s->cells[k].version, version))
			return &s->cells[k];
	return NULL;
}

/* Every cell of the PM in the fixture and task, sorted by release. */
static void collect(struct section *s)
{
	for (size_t i = 0; i < s->rep->cells_nr; i++) {
		const struct pmbench_cell *c = s->rep->cells[i].cell;
		const char *pm = pm_of(c);
		struct vcell v = { i, NULL, NULL, { 0, 0, 0, 0 } };

		if (strcmp(c->fixture, s->fixture) ||
		    strcmp(c->task, s->task) || !pm || strcmp(pm, s->pm) ||
		    release_of(&v, s->rep->result, c) < 0)
			continue;
		/* Two cells of one release in a scenario: the first. */
		if (find(s, c->scenario, v.version)) {
			free(v.version);
			continue;
		}
		PMBENCH_ALLOC_GROW(s->cells, s->nr + 1, s->alloc);
		s->cells[s->nr++] = v;
		if (pmbench_strvec_find(&s->scenarios, c->scenario) < 0)
			pmbench_strvec_push(&s->scenarios, c->scenario);
	}
	if (s->nr)
		qsort(s->cells, s->nr, sizeof(*s->cells), by_release);
	for (size_t k = 0; k < s->nr; k++)
		if (pmbench_strvec_find(&s->versions, s->cells[k].version) < 0)
			pmbench_strvec_push(&s->versions, s->cells[k].version);
}

static void section_release(struct section *s)
{
	for (size_t k = 0; k < s->nr; k++)
		free(s->cells[k].version);
	free(s->cells);
	pmbench_strvec_release(&s->versions);
	pmbench_strvec_release(&s->scenarios);
}

static void invert(struct pmbench_interval *iv)
{
	double lo = iv->lo;

	iv->point = 1 / iv->point;
	iv->lo = 1 / iv->hi;
	iv->hi = 1 / lo;
}

/* Cell `newer` against cell `older`: the report's pair of the two. */
static struct step step_of(const struct pmbench_report *rep, size_t older,
			   size_t newer)
{
	struct step st = { 0, 0, { 0, 0, 0 } };

	for (size_t k = 0; k < rep->pairs_nr; k++) {
		const struct pmbench_report_pm_pair *p = &rep->pairs[k];

		if (!((p->a == newer && p->b == older) ||
		      (p->a == older && p->b == newer)))
			continue;
		st.has = 1;
		st.paired = p->has_paired;
		st.ratio = p->has_paired ? p->paired : p->ratio;
		if (p->a == older)
			invert(&st.ratio);
		break;
	}
	return st;
}

/* The step before release `v` (an index in versions) in `scenario`. */
static struct step step_before(const struct section *s, const char *scenario,
			       size_t v)
{
	struct step none = { 0, 0, { 0, 0, 0 } };
	const struct vcell *newer, *older = NULL;

	newer = find(s, scenario, s->versions.v[v]);
	while (!older && v--)
		older = find(s, scenario, s->versions.v[v]);
	if (!newer || !older)
		return none;
	return step_of(s->rep, older->i, newer->i);
}

/*
 * "0.33x (0.32x–0.35x, paired)"; "0.16x (independent, no interval)" when
 * the interval is a point (one run each).
 */
static void add_step(struct pmbench_buf *b, const struct step *st)
{
	pmbench_report_add_ratio(b, st->ratio.point);
	pmbench_buf_adds(b, " (");
	if (st->ratio.lo < st->ratio.hi) {
		pmbench_report_add_ratio(b, st->ratio.lo);
		pmbench_buf_adds(b, "–");
		pmbench_report_add_ratio(b, st->ratio.hi);
		pmbench_buf_adds(b, ", ");
	}
	pmbench_buf_addf(b, "%s%s)", st->paired ? "paired" : "independent",
			 st->ratio.lo < st->ratio.hi ? "" : ", no interval");
}

/* The release whose step moved most in `scenario` (largest |log|), or -1. */
static long moved_most(const struct section *s, const char *scenario)
{
	long best = -1;
	double most = 0;

	for (size_t v = 1; v < s->versions.nr; v++) {
		struct step st = step_before(s, scenario, v);

		if (st.has && st.ratio.point > 0 &&
		    fabs(log(st.ratio.point)) > most) {
			most = fabs(log(st.ratio.point));
			best = (long)v;
		}
	}
	return best;
}

#define DEF  PMBENCH_DOC_TERM_DEFAULT
#define KEEP PMBENCH_DOC_TERM_KEEP

/*
 * The "why" and interval columns show on pages, and on the terminal with
 * --wide; --columns keeps the release and its cell.
 */
enum {
	COL_FIXTURE,
	COL_TASK,
	COL_BASE,
	COL_SCENARIO,
	COL_VERSION,
	COL_PM,
	COL_SOURCE,
	COL_MEDIAN,
	COL_CI,
	COL_STEP,
	COL_MOST,
};

static const struct pmbench_doc_column cols[] = {
	[COL_FIXTURE] = { NULL, 0, { { "fixture", PMBENCH_DOC_TEXT, 0 } } },
	[COL_TASK] = { NULL, 0, { { "task", PMBENCH_DOC_TEXT, 0 } } },
	[COL_BASE] = { NULL, 0, { { "package_manager", PMBENCH_DOC_TEXT, 0 } } },
	[COL_SCENARIO] = { "scenario",
			   KEEP,
			   { { "scenario", PMBENCH_DOC_TEXT, 0 } } },
	[COL_VERSION] = { "release",
			  KEEP,
			  { { "version", PMBENCH_DOC_TEXT, 0 } } },
	[COL_PM] = { "as", KEEP, { { "pm", PMBENCH_DOC_TEXT, 0 } } },
	[COL_SOURCE] = { "why", 0, { { "source", PMBENCH_DOC_TEXT, 0 } } },
	[COL_MEDIAN] = { "median",
			 DEF | PMBENCH_DOC_RIGHT,
			 { { "median", PMBENCH_DOC_SECONDS, 0 },
			   { "runs", PMBENCH_DOC_COUNT, 0 } } },
	[COL_CI] = { "95% CI",
		     0,
		     { { "median_ci95", PMBENCH_DOC_SECONDS,
			 PMBENCH_DOC_INTERVAL } } },
	[COL_STEP] = { "vs the release before (95% CI)",
		       DEF,
		       { { "ratio_to_previous", PMBENCH_DOC_NUMBER, 0 },
			 { "ratio_to_previous_ci95", PMBENCH_DOC_NUMBER,
			   PMBENCH_DOC_INTERVAL },
			 { "paired", PMBENCH_DOC_FLAG, 0 } } },
	[COL_MOST] = { NULL, 0, { { "moved_most", PMBENCH_DOC_FLAG, 0 } } },
};

/* The median and its interval, with their data. */
static void median_cell(struct pmbench_doc_row *row,
			const struct pmbench_report_cell *rc)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_doc_num(row, COL_MEDIAN, 1, (double)rc->n);
	if (!rc->n) {
		pmbench_doc_text(row, COL_MEDIAN, "failed");
		return;
	}
	pmbench_report_add_duration(&b, rc->wall.median);
	pmbench_doc_text(row, COL_MEDIAN, "%s", b.ptr);
	pmbench_doc_num(row, COL_MEDIAN, 0, rc->wall.median);
	if (rc->has_ci && rc->n >= 2) {
		pmbench_buf_reset(&b);
		pmbench_report_add_duration(&b, rc->median_ci.lo);
		pmbench_buf_adds(&b, " – ");
		pmbench_report_add_duration(&b, rc->median_ci.hi);
		pmbench_doc_text(row, COL_CI, "%s", b.ptr);
		pmbench_doc_interval(row, COL_CI, 0, rc->median_ci.lo,
				     rc->median_ci.hi);
	}
	pmbench_buf_release(&b);
}

/* The step cell against the release before, marked where it moved most. */
static void step_cell(struct pmbench_doc_row *row, const struct section *s,
		      const char *scenario, size_t v, long most)
{
	struct step st = step_before(s, scenario, v);
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_doc_num(row, COL_MOST, 0, (long)v == most);
	if (!st.has)
		return;
	add_step(&b, &st);
	pmbench_doc_text(row, COL_STEP, "%s", b.ptr);
	pmbench_doc_num(row, COL_STEP, 0, st.ratio.point);
	pmbench_doc_interval(row, COL_STEP, 1, st.ratio.lo, st.ratio.hi);
	pmbench_doc_num(row, COL_STEP, 2, st.paired);
	pmbench_buf_release(&b);
}

static void rows(struct pmbench_doc_table *t, const struct section *s,
		 const char *scenario)
{
	long most = moved_most(s, scenario);

	for (size_t v = 0; v < s->versions.nr; v++) {
		const struct vcell *vc = find(s, scenario, s->versions.v[v]);
		const struct pmbench_cell *c;
		struct pmbench_doc_row *row;

		if (!vc)
			continue;
		c = s->rep->cells[vc->i].cell;
		row = pmbench_doc_row(t);
		pmbench_doc_str(row, COL_FIXTURE, 0, s->fixture);
		pmbench_doc_str(row, COL_TASK, 0, s->task);
		pmbench_doc_str(row, COL_BASE, 0, s->pm);
		pmbench_doc_str(row, COL_SCENARIO, 0, scenario);
		pmbench_doc_text(row, COL_SCENARIO, "%s", scenario);
		pmbench_doc_str(row, COL_VERSION, 0, vc->version);
		pmbench_doc_text(row, COL_VERSION, "%s", vc->version);
		pmbench_doc_name(row, COL_PM, c->pm);
		pmbench_doc_str(row, COL_SOURCE, 0, vc->source);
		pmbench_doc_text(row, COL_SOURCE, "%s", vc->source);
		median_cell(row, &s->rep->cells[vc->i]);
		step_cell(row, s, scenario, v, most);
	}
}

/*
 * "clean: pnpm moved most from 9.15.9 to 10.28.2: 0.33x the time
 * (0.32x–0.35x, paired)"
 */
static void most_line(struct pmbench_doc *d, const struct section *s,
		      const char *scenario)
{
	long v = moved_most(s, scenario), before = v;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct step st;
	size_t point;

	if (v < 0)
		return;
	st = step_before(s, scenario, (size_t)v);
	while (before-- > 0 && !find(s, scenario, s->versions.v[before]))
		;
	add_step(&b, &st);
	point = strcspn(b.ptr, " ");
	pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
			 "%s: %s moved most from %s to %s: %.*s the time%s",
			 scenario, s->pm, s->versions.v[before],
			 s->versions.v[v], (int)point, b.ptr, b.ptr + point);
	pmbench_buf_release(&b);
}

/* A line per scenario across the releases, for pages. */
static void chart(struct pmbench_doc *d, const struct section *s)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_doc_chart *c;

	pmbench_buf_addf(&b, "%s release", s->pm);
	c = pmbench_kind_curve_chart(
		d,
		"Median (points joined per scenario), 95% interval "
		"(whiskers), by release",
		b.ptr,
		"%s %s: median time by %s release, one line per scenario, "
		"with 95%% intervals",
		s->fixture, s->task, s->pm);
	for (size_t v = 0; v < s->versions.nr; v++)
		pmbench_strvec_push(&c->x_labels, s->versions.v[v]);
	for (size_t k = 0; k < s->scenarios.nr; k++)
		for (size_t v = 0; v < s->versions.nr; v++) {
			const struct vcell *vc =
				find(s, s->scenarios.v[k], s->versions.v[v]);

			if (!vc)
				continue;
			pmbench_buf_reset(&b);
			pmbench_buf_addf(&b, "%s, %s %s", s->scenarios.v[k],
					 s->pm, s->versions.v[v]);
			pmbench_kind_curve_point(c, s->scenarios.v[k],
						 (double)(v + 1),
						 &s->rep->cells[vc->i], b.ptr);
		}
	pmbench_buf_release(&b);
}

static void one_section(struct pmbench_doc *d, const struct section *s)
{
	struct pmbench_doc_table *t;

	pmbench_doc_heading(d, PMBENCH_DOC_HUMAN, 2,
			    "%s · %s: %s at %zu releases", s->fixture, s->task,
			    s->pm, s->versions.nr);
	pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
			 "Per scenario, each release's median, oldest first, "
			 "and its time against the release before: the "
			 "median of the ratios of the runs of one round "
			 "(paired), else the ratio of the medians "
			 "(independent), with 95%% intervals.");
	t = pmbench_doc_table(d, PMBENCH_DOC_ALL, "versions", cols,
			      PMBENCH_ARRAY_SIZE(cols));
	for (size_t k = 0; k < s->scenarios.nr; k++)
		rows(t, s, s->scenarios.v[k]);
	for (size_t k = 0; k < s->scenarios.nr; k++)
		most_line(d, s, s->scenarios.v[k]);
	chart(d, s);
}

size_t pmbench_kind_versions(struct pmbench_doc *d,
			     const struct pmbench_report *rep)
{
	struct pmbench_strvec seen = PMBENCH_STRVEC_INIT;
	struct pmbench_buf key = PMBENCH_BUF_INIT;
	size_t shown = 0;

	for (size_t i = 0; i < rep->cells_nr; i++) {
		const struct pmbench_cell *c = rep->cells[i].cell;
		const char *pm = pm_of(c);
		struct section s = { rep,
				     c->fixture,
				     c->task,
				     pm,
				     NULL,
				     0,
				     0,
				     PMBENCH_STRVEC_INIT,
				     PMBENCH_STRVEC_INIT };

		if (!pm)
			continue;
		pmbench_buf_reset(&key);
		pmbench_buf_addf(&key, "%s\n%s\n%s", c->fixture, c->task, pm);
		if (pmbench_strvec_find(&seen, key.ptr) >= 0)
			continue;
		pmbench_strvec_push(&seen, key.ptr);
		collect(&s);
		if (s.versions.nr >= 2) {
			one_section(d, &s);
			shown++;
		}
		section_release(&s);
	}
	pmbench_strvec_release(&seen);
	pmbench_buf_release(&key);
	return shown;
}
