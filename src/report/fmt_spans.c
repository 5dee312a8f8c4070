/*
 * Charts of spans (doc.h): stacked bars, one segment a series (a run's
 * phases end to end), and waterfalls, each bar's row a run with its
 * requests as thin bars on lanes over the run's phases drawn as bands.
 * A legend of the series opens the chart; the axis is linear from 0, a
 * chart's own (so a scenario of 7 ms is not squashed by one of 6 s).
 * Drawn by pmbench itself, like the bar charts (fmt_svg.c).
 */
#include "pmbench/common.h"

#include <math.h>

#include "internal.h"

#define W	 PMBENCH_CHART_W
#define LABEL_W	 PMBENCH_CHART_LABEL_W
#define VALUE_W	 PMBENCH_CHART_VALUE_W
#define ROW_H	 PMBENCH_CHART_ROW_H
#define AXIS_H	 PMBENCH_CHART_AXIS_H
#define LEGEND_H 20.0
#define LANE_H	 3.0
#define PAD	 6.0

/* One colour a series, in order: the phases first, then request kinds. */
static const char *const palette[] = {
	"#b9c3d3", "#6b8fd6", "#e0a458", "#c2645a", "#8aa39b",
	"#3f6fc4", "#7b4fb8", "#2f9e6e", "#8a8f99", "#d62828",
};

static const char *colour(unsigned series)
{
	return palette[series % PMBENCH_ARRAY_SIZE(palette)];
}

static void num(struct pmbench_buf *out, double v)
{
	pmbench_buf_addf(out, "%.1f", v);
}

/* The legend's lines: its items laid out left to right. */
static size_t legend_lines(const struct pmbench_doc_chart *c)
{
	double x = 8;
	size_t lines = c->series.nr ? 1 : 0;

	for (size_t i = 0; i < c->series.nr; i++) {
		double w = 22 + 7.0 * (double)strlen(c->series.v[i]);

		if (x + w > W && x > 8) {
			lines++;
			x = 8;
		}
		x += w;
	}
	return lines;
}

static void legend(struct pmbench_buf *out, const struct pmbench_doc_chart *c)
{
	double x = 8, y = 4;

	for (size_t i = 0; i < c->series.nr; i++) {
		double w = 22 + 7.0 * (double)strlen(c->series.v[i]);

		if (x + w > W && x > 8) {
			x = 8;
			y += LEGEND_H;
		}
		pmbench_buf_adds(out, "<rect x=\"");
		num(out, x);
		pmbench_buf_addf(out,
				 "\" y=\"%.1f\" width=\"11\" height=\"11\" "
				 "fill=\"%s\"/><text class=\"legend\" x=\"",
				 y + 1, colour((unsigned)i));
		num(out, x + 15);
		pmbench_buf_addf(out, "\" y=\"%.1f\">", y + 11);
		pmbench_fmt_xml_escape(out, c->series.v[i]);
		pmbench_buf_adds(out, "</text>\n");
		x += w;
	}
}

/* The lanes a waterfall bar uses. */
static unsigned lanes_of(const struct pmbench_doc_bar *b)
{
	unsigned n = 0;

	for (size_t k = 0; k < b->spans_nr; k++)
		if (b->spans[k].lane != PMBENCH_DOC_BAND &&
		    b->spans[k].lane + 1 > n)
			n = b->spans[k].lane + 1;
	return n;
}

static double row_h(const struct pmbench_doc_chart *c,
		    const struct pmbench_doc_bar *b)
{
	double h = c->waterfall ? (double)lanes_of(b) * LANE_H + 2 * PAD : 0;

	return h > ROW_H ? h : ROW_H;
}

double pmbench_fmt_spans_height(const struct pmbench_doc_chart *c)
{
	double h = (double)legend_lines(c) * LEGEND_H + AXIS_H;

	for (size_t i = 0; i < c->bars_nr; i++)
		h += row_h(c, &c->bars[i]);
	return h;
}

/* The axis' end: past every value and span. */
static double top_of(const struct pmbench_doc_chart *c)
{
	double max = 0;

	for (size_t i = 0; i < c->bars_nr; i++) {
		const struct pmbench_doc_bar *b = &c->bars[i];

		if (b->has_value && b->value > max)
			max = b->value;
		for (size_t k = 0; k < b->spans_nr; k++)
			if (b->spans[k].to > max)
				max = b->spans[k].to;
	}
	if (!(max > 0) || !isfinite(max))
		max = 1;
	return max * 1.05;
}

static double xof(double v, double max)
{
	double f = v / max;

	if (!(f > 0))
		f = 0;
	if (f > 1)
		f = 1;
	return LABEL_W + f * (W - LABEL_W - VALUE_W);
}

static void axis(struct pmbench_buf *out, double max, double top, double y,
		 const char *unit)
{
	double step = pmbench_fmt_tick_step(max, 5);

	for (double t = 0; t <= max * 1.0001; t += step) {
		double x = xof(t, max);

		pmbench_buf_adds(out, "<line x1=\"");
		num(out, x);
		pmbench_buf_adds(out, "\" x2=\"");
		num(out, x);
		pmbench_buf_addf(out,
				 "\" y1=\"%.1f\" y2=\"%.1f\" "
				 "stroke=\"#e2e6ee\"/><text x=\"",
				 top, y);
		num(out, x);
		pmbench_buf_addf(out, "\" y=\"%.1f\" text-anchor=\"middle\">%g",
				 y + 16, t);
		pmbench_fmt_xml_escape(out, unit);
		pmbench_buf_adds(out, "</text>\n");
	}
}

/* A rectangle of a span from `from` to `to` (at least a pixel wide). */
static void span_rect(struct pmbench_buf *out, double from, double to,
		      double max, double y, double h, unsigned series,
		      const char *extra)
{
	double x = xof(from, max), w = xof(to, max) - x;

	pmbench_buf_adds(out, "<rect x=\"");
	num(out, x);
	pmbench_buf_addf(out, "\" y=\"%.1f\" width=\"", y);
	num(out, w < 1 ? 1 : w);
	pmbench_buf_addf(out, "\" height=\"%.1f\" fill=\"%s\"%s/>", h,
			 colour(series), extra);
}

/* A stacked bar: its segments, each titled with its series and size. */
static void stacked(struct pmbench_buf *out, const struct pmbench_doc_chart *c,
		    const struct pmbench_doc_bar *b, double y, double max)
{
	for (size_t k = 0; k < b->spans_nr; k++) {
		const struct pmbench_doc_span *s = &b->spans[k];

		span_rect(out, s->from, s->to, max, y + 7, ROW_H - 14,
			  s->series, "");
		if (s->series < c->series.nr) {
			/* The rect's title: its phase and size on hover. */
			pmbench_buf_setlen(out, out->len - 2);
			pmbench_buf_adds(out, "><title>");
			pmbench_fmt_xml_escape(out, c->series.v[s->series]);
			pmbench_buf_addf(out, " %.3f", s->to - s->from);
			pmbench_fmt_xml_escape(out, c->unit);
			pmbench_buf_adds(out, "</title></rect>");
		}
	}
}

/* A waterfall row: the run's extent, its bands, its spans on lanes. */
static void lanes(struct pmbench_buf *out, const struct pmbench_doc_bar *b,
		  double y, double h, double max)
{
	if (b->has_value)
		span_rect(out, 0, b->value, max, y + h - PAD + 1, 1, 8, "");
	for (size_t k = 0; k < b->spans_nr; k++)
		if (b->spans[k].lane == PMBENCH_DOC_BAND)
			span_rect(out, b->spans[k].from, b->spans[k].to, max,
				  y + 2, h - 4, b->spans[k].series,
				  " fill-opacity=\"0.3\"");
	for (size_t k = 0; k < b->spans_nr; k++)
		if (b->spans[k].lane != PMBENCH_DOC_BAND)
			span_rect(out, b->spans[k].from, b->spans[k].to, max,
				  y + PAD + b->spans[k].lane * LANE_H,
				  LANE_H - 1, b->spans[k].series, "");
	pmbench_buf_adds(out, "\n");
}

/*
 * A row: its label, its spans, and right of them its text (a waterfall)
 * or its end, the bar's text on hover (a stacked bar, whose text is the
 * terminal's line of figures).
 */
static void row(struct pmbench_buf *out, const struct pmbench_doc_chart *c,
		const struct pmbench_doc_bar *b, double y, double max)
{
	double h = row_h(c, b), ym = y + h / 2;

	pmbench_buf_addf(out, "<g><title>");
	pmbench_fmt_xml_escape(out, b->label);
	pmbench_buf_adds(out, ": ");
	pmbench_fmt_xml_escape(out, b->text);
	pmbench_buf_addf(out,
			 "</title><text x=\"%d\" y=\"%.1f\" "
			 "text-anchor=\"end\">",
			 LABEL_W - 8, ym + 4);
	pmbench_fmt_xml_escape(out, b->label);
	pmbench_buf_adds(out, "</text>");
	if (c->waterfall)
		lanes(out, b, y, h, max);
	else
		stacked(out, c, b, y, max);
	pmbench_buf_addf(out, "<text x=\"%d\" y=\"%.1f\">", W - VALUE_W + 8,
			 ym + 4);
	if (c->waterfall || !b->has_value)
		pmbench_fmt_xml_escape(out, b->text);
	else {
		pmbench_buf_addf(out, "%.2f", b->value);
		pmbench_fmt_xml_escape(out, c->unit);
	}
	pmbench_buf_adds(out, "</text></g>\n");
}

void pmbench_fmt_spans(struct pmbench_buf *out,
		       const struct pmbench_doc_chart *c, double at_y)
{
	double h = pmbench_fmt_spans_height(c), max = top_of(c);
	double top = (double)legend_lines(c) * LEGEND_H, y = top;

	pmbench_fmt_chart_open(out, c, NULL, h, at_y);
	legend(out, c);
	axis(out, max, top, h - AXIS_H, c->unit);
	for (size_t i = 0; i < c->bars_nr; i++) {
		row(out, c, &c->bars[i], y, max);
		y += row_h(c, &c->bars[i]);
	}
	pmbench_buf_adds(out, "</svg>\n");
}
