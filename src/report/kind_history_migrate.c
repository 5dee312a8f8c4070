/*
 * A migration over time, in a history: per migrate result of the folder,
 * one target's speed-up against the source in one scenario (the
 * source's median over the target's, with the interval migrate gives
 * it), and a change flagged where two results in a row have intervals
 * that do not overlap. The terminal shows one line per series; pages a
 * trend chart and a table; data the rows of history's table.
 */
#include "pmbench/common.h"

#include "internal.h"
#include "pmbench/history.h"

/* One migrate result's speed-up of the series. */
struct mpoint {
	const struct pmbench_history_entry *e;
	const char *version; /* the target's */
	int has;	     /* both sides have successful runs */
	struct pmbench_kind_speed sp;
	/* Against the point before with a speed-up: 1 faster, -1 slower. */
	int moved;
	double factor; /* up now / up before */
	int has_factor;
};

/* The points of the series, oldest first; *out is freed by the caller. */
static size_t points(struct mpoint **out, const struct pmbench_history *h,
		     const struct pmbench_cell *key, const char *source)
{
	struct mpoint *pts = pmbench_xcalloc(h->nr, sizeof(*pts));
	const struct mpoint *before = NULL;
	size_t n = 0;

	for (size_t i = 0; i < h->nr; i++) {
		const struct pmbench_history_entry *e = &h->entries[i];
		struct mpoint *p = &pts[n];

		if (e->kind != PMBENCH_RESULT_MIGRATE ||
		    strcmp(e->source_pm, source) ||
		    !pmbench_result_find_cell(&e->result, key->fixture,
					      key->task, key->scenario,
					      key->pm))
			continue;
		p->e = e;
		p->version = pmbench_kind_pm_version(&e->result, key->pm);
		p->has = pmbench_kind_migrate_speed(&p->sp, &e->result, source,
						    e->seed, key->task,
						    key->scenario, key->pm);
		if (p->has && before) {
			p->has_factor = 1;
			p->factor = p->sp.up.point / before->sp.up.point;
			p->moved =
				pmbench_kind_speedup_moved(&before->sp, &p->sp);
		}
		if (p->has)
			before = p;
		n++;
	}
	*out = pts;
	return n;
}

/* "1.20x faster (npm/bun 0.90x–1.55x)", or why there is none. */
static void up_text(struct pmbench_buf *b, const struct mpoint *p,
		    const char *source, const char *pm)
{
	if (p->has)
		pmbench_kind_speedup_text(b, &p->sp, source, pm);
	else
		pmbench_buf_adds(b, "no successful runs to compare");
}

/* "faster: the speed-up 1.31x of the one before", or no change. */
static void change_text(struct pmbench_buf *b, const struct mpoint *p)
{
	if (!p->has)
		pmbench_buf_adds(b, "cannot compare");
	else if (!p->has_factor)
		pmbench_buf_adds(b, "first");
	else if (!p->moved)
		pmbench_buf_adds(b, "no change (the intervals overlap, or "
				    "one run a side)");
	else
		pmbench_buf_addf(b, "%s: %.2fx the speed-up before",
				 p->moved > 0 ? "faster" : "slower", p->factor);
}

static void term_line(struct pmbench_doc *d, const struct pmbench_cell *key,
		      const char *source, const struct mpoint *pts, size_t n)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_addf(&b, "%s · %s · %s · %s against %s:", key->fixture,
			 key->task, key->scenario, key->pm, source);
	for (size_t i = 0; i < n; i++) {
		const struct mpoint *p = &pts[i];

		pmbench_buf_addf(&b, "%s %s", i ? " →" : "", p->e->date);
		if (!i || strcmp(pts[i - 1].version, p->version))
			pmbench_buf_addf(&b, " [%s]", p->version);
		pmbench_buf_addch(&b, ' ');
		up_text(&b, p, source, key->pm);
		if (p->moved)
			pmbench_buf_addf(&b, " %s %.2fx",
					 p->moved > 0 ? "FASTER" : "SLOWER",
					 p->moved > 0 ? p->factor
						      : 1.0 / p->factor);
	}
	pmbench_doc_para(d, PMBENCH_DOC_TERM, "%s", b.ptr);
	pmbench_buf_release(&b);
}

enum { MH_DATE, MH_VERSION, MH_UP, MH_RUNS, MH_CHANGE, MH_FILE };

/* The page's table of a migration's series (its data is "history"). */
static const struct pmbench_doc_column page_cols[] = {
	[MH_DATE] = { "date", 0, { { NULL, 0, 0 } } },
	[MH_VERSION] = { "version", 0, { { NULL, 0, 0 } } },
	[MH_UP] = { "speed-up (95% CI)", 0, { { NULL, 0, 0 } } },
	[MH_RUNS] = { "runs", PMBENCH_DOC_RIGHT, { { NULL, 0, 0 } } },
	[MH_CHANGE] = { "change", 0, { { NULL, 0, 0 } } },
	[MH_FILE] = { "file", 0, { { NULL, 0, 0 } } },
};

static void page_row(struct pmbench_doc_table *t, const struct mpoint *p,
		     const char *source, const char *pm)
{
	struct pmbench_doc_row *row = pmbench_doc_row(t);
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_doc_text(row, MH_DATE, "%s", p->e->date);
	pmbench_doc_text(row, MH_VERSION, "%s", p->version);
	up_text(&b, p, source, pm);
	pmbench_doc_text(row, MH_UP, "%s", b.ptr);
	pmbench_doc_text(row, MH_RUNS, "%zu and %zu", p->sp.na, p->sp.nz);
	pmbench_buf_reset(&b);
	change_text(&b, p);
	pmbench_doc_text(row, MH_CHANGE, "%s", b.ptr);
	pmbench_doc_text(row, MH_FILE, "%s", p->e->path);
	pmbench_buf_release(&b);
}

static void data_row(struct pmbench_doc_table *t,
		     const struct pmbench_cell *key, const char *source,
		     const struct mpoint *p)
{
	struct pmbench_doc_row *row =
		pmbench_kind_history_row(t, key, p->e, p->version);

	pmbench_doc_str(row, PMBENCH_HIST_AGAINST, 0, source);
	pmbench_doc_num(row, PMBENCH_HIST_RUNS, 0, (double)p->sp.nz);
	pmbench_doc_str(row, PMBENCH_HIST_CHANGE, 0,
			!p->moved      ? "none"
			: p->moved > 0 ? "faster"
				       : "slower");
	if (p->has_factor)
		pmbench_doc_num(row, PMBENCH_HIST_CHANGE, 1, p->factor);
	if (!p->has)
		return;
	pmbench_doc_num(row, PMBENCH_HIST_SPEEDUP, 0, p->sp.up.point);
	pmbench_doc_interval(row, PMBENCH_HIST_SPEEDUP, 1, p->sp.up.lo,
			     p->sp.up.hi);
}

static void trend(struct pmbench_doc *d, const struct pmbench_cell *key,
		  const char *source, const struct mpoint *pts, size_t n)
{
	struct pmbench_buf title = PMBENCH_BUF_INIT;
	struct pmbench_doc_chart *c;

	pmbench_buf_addf(&title, "%s %s %s %s against %s: speed-up over time",
			 key->fixture, key->task, key->scenario, key->pm,
			 source);
	c = pmbench_doc_chart(d, PMBENCH_DOC_PAGE, "trend", NULL, title.ptr,
			      "x");
	c->trend = 1;
	for (size_t i = 0; i < n; i++) {
		struct pmbench_doc_bar *bar =
			pmbench_doc_bar(c, pts[i].e->date);

		bar->has_value = pts[i].has;
		bar->value = pts[i].sp.up.point;
		bar->has_interval = pts[i].has;
		bar->lo = pts[i].sp.up.lo;
		bar->hi = pts[i].sp.up.hi;
		pmbench_doc_bar_text(bar, "%s", pts[i].version);
		if (pts[i].moved)
			bar->tone = pts[i].moved > 0 ? PMBENCH_DOC_BEST
						     : PMBENCH_DOC_WORSE;
	}
	pmbench_buf_release(&title);
}

void pmbench_kind_history_migrate(struct pmbench_doc *d,
				  const struct pmbench_history *h,
				  const struct pmbench_cell *key,
				  const char *source, size_t *changes)
{
	struct pmbench_doc_table *page, *data;
	struct mpoint *pts;
	size_t n = points(&pts, h, key, source);

	term_line(d, key, source, pts, n);
	pmbench_doc_heading(d, PMBENCH_DOC_PAGE, 2,
			    "%s · %s · %s · %s against %s (migrate)",
			    key->fixture, key->task, key->scenario, key->pm,
			    source);
	trend(d, key, source, pts, n);
	page = pmbench_doc_table(d, PMBENCH_DOC_PAGE, "migrate_history",
				 page_cols, PMBENCH_ARRAY_SIZE(page_cols));
	data = pmbench_kind_history_table(d, PMBENCH_DOC_DATA);
	for (size_t i = 0; i < n; i++) {
		page_row(page, &pts[i], source, key->pm);
		data_row(data, key, source, &pts[i]);
		*changes += pts[i].moved != 0;
	}
	free(pts);
}
