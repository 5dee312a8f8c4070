/*
 * Where each PM's time went, in a scenario's section of the bench kind
 * (phases.h): a stacked bar per PM of its phases' medians (the terminal
 * draws it as letters), the sentences the phases call for, and on pages
 * one run's request waterfall per PM: every registry request as a bar
 * over time, on as many lanes as were in flight at once, over the run's
 * phases.
 */
#include "pmbench/common.h"

#include "internal.h"
#include "pmbench/control.h"

/* The phases' letters on the terminal, in enum pmbench_phase order. */
static const char glyphs[PMBENCH_PHASES + 1] = "snwpx";

/* A waterfall shows at most this many lanes; more share the last. */
#define LANES_MAX 32

/* The request kinds of a waterfall, after the phases' series. */
enum req_series {
	REQ_CORGI = PMBENCH_PHASES,
	REQ_FULL,
	REQ_TARBALL,
	REQ_OTHER,
	REQ_FAILED,
};

static void phase_series(struct pmbench_doc_chart *ch)
{
	for (int p = 0; p < PMBENCH_PHASES; p++)
		pmbench_doc_series(ch,
				   pmbench_phase_name((enum pmbench_phase)p),
				   glyphs[p]);
}

/* Does the scenario of `g` have a cell with phases? How many runs? */
static size_t phase_runs(const struct pmbench_report *rep, size_t g,
			 double *sample)
{
	size_t runs = 0;

	*sample = 0;
	for (size_t i = g; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];

		if (!pmbench_report_same_group(rep, g, i) || !c->n ||
		    pmbench_control_is(c->cell->pm))
			continue;
		if (c->phases.runs > runs)
			runs = c->phases.runs;
		if (c->phases.sample > *sample)
			*sample = c->phases.sample;
	}
	return runs;
}

/*
 * One PM's stacked bar: as long as its median time, split in proportion
 * to its phases' medians (which need not add up to it).
 */
static void phase_bar(struct pmbench_doc_chart *ch,
		      const struct pmbench_report_cell *c)
{
	struct pmbench_doc_bar *bar = pmbench_doc_bar(ch, c->cell->pm);
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	double at = 0, sum = 0;

	if (!c->phases.runs) {
		pmbench_doc_bar_text(bar, "no timeline recorded");
		return;
	}
	for (int p = 0; p < PMBENCH_PHASES; p++)
		sum += c->phases.median[p];
	for (int p = 0; p < PMBENCH_PHASES && sum > 0; p++) {
		double v = c->phases.median[p] / sum * c->wall.median;

		if (v > 0)
			pmbench_doc_bar_span(bar, at, at + v, (unsigned)p, 0);
		at += v;
	}
	bar->has_value = 1;
	bar->value = c->wall.median;
	pmbench_report_add_phases(&b, &c->phases);
	pmbench_doc_bar_text(bar, "%s", b.ptr);
	pmbench_buf_release(&b);
}

/* The stacked bars of the scenario of `g`: pages and the terminal. */
static void phase_chart(struct pmbench_doc *d, const struct pmbench_report *rep,
			size_t g)
{
	struct pmbench_buf cap = PMBENCH_BUF_INIT;
	struct pmbench_doc_chart *ch;
	double sample;
	size_t runs = phase_runs(rep, g, &sample);

	if (!runs)
		return;
	pmbench_buf_addf(&cap,
			 "Where the time went: the median time, split in "
			 "proportion to the median of each phase over %s%zu "
			 "run%s (scripts count first where they overlap; a "
			 "phase shorter than the sampler's %.0f ms reads "
			 "\"< %.0f ms\")",
			 runs > 1 ? "up to " : "", runs, runs == 1 ? "" : "s",
			 sample * 1e3, sample * 1e3);
	ch = pmbench_doc_chart(d, PMBENCH_DOC_HUMAN, "phases", cap.ptr,
			       "Median time of each phase per package "
			       "manager, seconds",
			       " s");
	phase_series(ch);
	for (size_t i = g; i < rep->cells_nr; i++)
		if (pmbench_report_same_group(rep, g, i) && rep->cells[i].n &&
		    !pmbench_control_is(rep->cells[i].cell->pm))
			phase_bar(ch, &rep->cells[i]);
	pmbench_buf_release(&cap);
}

static unsigned req_series(const struct pmbench_phase_request *r)
{
	if (r->status >= 400)
		return REQ_FAILED;
	switch (r->kind) {
	case 'c':
		return REQ_CORGI;
	case 'f':
		return REQ_FULL;
	case 't':
		return REQ_TARBALL;
	default:
		return REQ_OTHER;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Is [a, b] inside the network window or a script's? */
static int busy(const struct pmbench_phases *ph, double a, double b)
{
	if (ph->requests && (double)ph->first_request_ns / 1e9 <= a &&
	    b <= (double)ph->last_response_ns / 1e9)
		return 1;
	for (size_t k = 0; k < ph->scripts_nr; k++)
		if ((double)ph->scripts[k].start_ns / 1e9 <= a &&
		    b <= (double)ph->scripts[k].end_ns / 1e9)
			return 1;
	return 0;
}

/*
 * The write phase's bands: between the startup and the exit, outside
 * the network window and the scripts' (phases.h).
 */
static void write_bands(struct pmbench_doc_bar *bar,
			const struct pmbench_phases *ph, double from, double to)
{
	double *b = pmbench_xcalloc(4 + 2 * ph->scripts_nr, sizeof(*b));
	size_t n = 0;

	b[n++] = from;
	b[n++] = to;
	if (ph->requests) {
		b[n++] = (double)ph->first_request_ns / 1e9;
		b[n++] = (double)ph->last_response_ns / 1e9;
	}
	for (size_t k = 0; k < ph->scripts_nr; k++) {
		b[n++] = (double)ph->scripts[k].start_ns / 1e9;
		b[n++] = (double)ph->scripts[k].end_ns / 1e9;
	}
	qsort(b, n, sizeof(*b), cmp_double);
	for (size_t i = 0; i + 1 < n; i++)
		if (b[i] >= from && b[i + 1] <= to && b[i + 1] > b[i] &&
		    !busy(ph, b[i], b[i + 1]))
			pmbench_doc_bar_span(bar, b[i], b[i + 1],
					     PMBENCH_PHASE_WRITE,
					     PMBENCH_DOC_BAND);
	free(b);
}

/*
 * The run's phases behind its requests: the startup from 0, the network
 * window, each script's window, the writes between, the exit up to the
 * end.
 */
static void bands(struct pmbench_doc_bar *bar, const struct pmbench_sample *s)
{
	const struct pmbench_phases *ph = s->phases;
	double wall = (double)s->wall_ns / 1e9;

	write_bands(bar, ph, (double)ph->startup_ns / 1e9,
		    wall - (double)ph->exit_ns / 1e9);
	if (ph->startup_ns)
		pmbench_doc_bar_span(bar, 0, (double)ph->startup_ns / 1e9,
				     PMBENCH_PHASE_STARTUP, PMBENCH_DOC_BAND);
	if (ph->requests)
		pmbench_doc_bar_span(bar, (double)ph->first_request_ns / 1e9,
				     (double)ph->last_response_ns / 1e9,
				     PMBENCH_PHASE_NETWORK, PMBENCH_DOC_BAND);
	for (size_t k = 0; k < ph->scripts_nr; k++)
		pmbench_doc_bar_span(bar, (double)ph->scripts[k].start_ns / 1e9,
				     (double)ph->scripts[k].end_ns / 1e9,
				     PMBENCH_PHASE_SCRIPTS, PMBENCH_DOC_BAND);
	if (ph->exit_ns)
		pmbench_doc_bar_span(bar, wall - (double)ph->exit_ns / 1e9,
				     wall, PMBENCH_PHASE_EXIT,
				     PMBENCH_DOC_BAND);
}

/*
 * Each request on the first lane free at its start (the log is in the
 * order answered, close to the order of the starts); past LANES_MAX
 * lanes, the one free soonest.
 */
static void lanes(struct pmbench_doc_bar *bar, const struct pmbench_phases *ph)
{
	double free_at[LANES_MAX];
	unsigned used = 0;

	for (size_t i = 0; i < ph->log_nr; i++) {
		const struct pmbench_phase_request *r = &ph->log[i];
		double from = (double)r->start_ns / 1e9;
		double to = (double)r->end_ns / 1e9;
		unsigned lane = 0;

		while (lane < used && free_at[lane] > from)
			lane++;
		if (lane == used && used < LANES_MAX)
			used++;
		if (lane == LANES_MAX)
			for (unsigned k = lane = 0; k < LANES_MAX; k++)
				if (free_at[k] < free_at[lane])
					lane = k;
		free_at[lane] = to > from ? to : from;
		pmbench_doc_bar_span(bar, from, to, req_series(r), lane);
	}
}

/* One run's requests per PM, on one time axis for the scenario. */
static void waterfall(struct pmbench_doc *d, const struct pmbench_report *rep,
		      size_t g)
{
	static const char *const kinds[] = { "abbreviated packument",
					     "full packument", "tarball",
					     "other request",
					     "failed (status 400 or more)" };
	struct pmbench_doc_chart *ch = NULL;

	for (size_t i = g; i < rep->cells_nr; i++) {
		const struct pmbench_cell *c = rep->cells[i].cell;
		const struct pmbench_sample *s = pmbench_cell_waterfall(c);
		struct pmbench_doc_bar *bar;

		if (!pmbench_report_same_group(rep, g, i) || !s)
			continue;
		if (!ch) {
			ch = pmbench_doc_chart(
				d, PMBENCH_DOC_PAGE, "waterfall",
				"One run's registry requests per package "
				"manager (the timed run closest to its median "
				"time): each a line from its start to its "
				"answer's end, one lane per request in flight "
				"at once, over the run's phases",
				"Registry requests over time, one run per "
				"package manager",
				" s");
			ch->waterfall = 1;
			phase_series(ch);
			for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(kinds); k++)
				pmbench_doc_series(ch, kinds[k], '-');
		}
		bar = pmbench_doc_bar(ch, c->pm);
		bar->has_value = 1;
		bar->value = (double)s->wall_ns / 1e9;
		bands(bar, s);
		lanes(bar, s->phases);
		pmbench_doc_bar_text(bar, "%zu req · %u at once",
				     s->phases->log_nr,
				     s->phases->in_flight_max);
	}
}

void pmbench_kind_phases(struct pmbench_doc *d,
			 const struct pmbench_report *rep, size_t g)
{
	struct pmbench_strvec said = PMBENCH_STRVEC_INIT;

	phase_chart(d, rep, g);
	pmbench_report_phase_sentences(&said, rep, g);
	for (size_t k = 0; k < said.nr; k++)
		pmbench_doc_para(d, PMBENCH_DOC_HUMAN, "%s", said.v[k]);
	waterfall(d, rep, g);
	pmbench_strvec_release(&said);
}
