/*
 * Charts as SVG, drawn by pmbench itself: horizontal bars with whiskers
 * for intervals, dots for single runs, an axis with round ticks and an
 * optional dashed reference line (1x). The html format inlines them; the
 * svg format stacks every chart of a document, each under its section's
 * heading, into one standalone image for a README.
 */
#include "pmbench/common.h"

#include <math.h>

#include "internal.h"
#include "pmbench/text.h"

#define CHART_W PMBENCH_CHART_W
#define LABEL_W PMBENCH_CHART_LABEL_W
#define VALUE_W PMBENCH_CHART_VALUE_W
#define ROW_H	PMBENCH_CHART_ROW_H
#define AXIS_H	PMBENCH_CHART_AXIS_H

static void add_num(struct pmbench_buf *out, double v)
{
	pmbench_buf_addf(out, "%.1f", v);
}

/* How values map to the plot: linear from 0, or log from `min`. */
struct scale {
	int log;
	double min, max;
};

/* The x of value `v`, clamped to the plot. */
static double xof(const struct scale *s, double v)
{
	double plot = CHART_W - LABEL_W - VALUE_W, f;

	if (s->log)
		f = v > 0 ? log(v / s->min) / log(s->max / s->min) : 0;
	else
		f = v / s->max;
	if (!(f > 0))
		f = 0;
	if (f > 1)
		f = 1;
	return LABEL_W + f * plot;
}

static void tick(struct pmbench_buf *out, const struct scale *s, double t,
		 double y, const char *unit)
{
	double x = xof(s, t);

	pmbench_buf_adds(out, "<line x1=\"");
	add_num(out, x);
	pmbench_buf_adds(out, "\" x2=\"");
	add_num(out, x);
	pmbench_buf_addf(out,
			 "\" y1=\"0\" y2=\"%.1f\" "
			 "stroke=\"#e2e6ee\"/><text x=\"",
			 y);
	add_num(out, x);
	pmbench_buf_addf(out, "\" y=\"%.1f\" text-anchor=\"middle\">%g", y + 16,
			 t);
	pmbench_fmt_xml_escape(out, unit);
	pmbench_buf_adds(out, "</text>\n");
}

/* Round ticks: every step from 0, or 1, 2 and 5 per decade on a log axis. */
static void axis(struct pmbench_buf *out, const struct scale *s, double y,
		 const char *unit)
{
	double step;

	if (!s->log) {
		step = pmbench_fmt_tick_step(s->max, 5);
		for (double t = 0; t <= s->max * 1.0001; t += step)
			tick(out, s, t, y, unit);
		return;
	}
	for (double p = pow(10, floor(log10(s->min))); p <= s->max; p *= 10)
		for (int m = 1; m <= 5; m += m == 1 ? 1 : 3)
			if (p * m >= s->min && p * m <= s->max)
				tick(out, s, p * m, y, unit);
}

/* Widen [lo, hi] by every value, interval end, dot and the reference. */
static void extent(const struct pmbench_doc_chart *c, double *lo, double *hi)
{
	*lo = c->has_ref ? c->ref : INFINITY;
	*hi = c->has_ref ? c->ref : 0;
	for (size_t i = 0; i < c->bars_nr; i++) {
		const struct pmbench_doc_bar *b = &c->bars[i];
		double v[3] = { b->value, b->lo, b->hi };

		for (int k = 0; b->has_value && k < (b->has_interval ? 3 : 1);
		     k++) {
			if (v[k] > *hi)
				*hi = v[k];
			if (v[k] > 0 && v[k] < *lo)
				*lo = v[k];
		}
		for (size_t k = 0; k < b->dots_nr; k++) {
			if (b->dots[k] > *hi)
				*hi = b->dots[k];
			if (b->dots[k] > 0 && b->dots[k] < *lo)
				*lo = b->dots[k];
		}
	}
}

/* The axis: from 0 (or, on a log axis, below the smallest) past the end. */
static struct scale chart_scale(const struct pmbench_doc_chart *c)
{
	struct scale s = { c->log_scale, 0, 1 };
	double lo, hi;

	extent(c, &lo, &hi);
	if (!(hi > 0) || !isfinite(hi))
		hi = 1;
	if (!s.log) {
		s.max = hi * (c->has_ref ? 1.08 : 1.05);
		return s;
	}
	if (!(lo > 0) || !isfinite(lo) || lo >= hi)
		lo = hi / 10;
	s.min = lo / 1.25;
	s.max = hi * 1.25;
	return s;
}

/* The rows: one per bar, and one per group named above its first bar. */
static size_t chart_rows(const struct pmbench_doc_chart *c)
{
	size_t rows = c->bars_nr;

	for (size_t i = 0; i < c->bars_nr; i++)
		rows += c->bars[i].group != NULL;
	return rows;
}

double pmbench_fmt_chart_height(const struct pmbench_doc_chart *c)
{
	if (c->trend)
		return pmbench_fmt_trend_height(c);
	if (c->curve)
		return pmbench_fmt_curve_height(c);
	if (c->series.nr)
		return pmbench_fmt_spans_height(c);
	return (double)chart_rows(c) * ROW_H + AXIS_H;
}

static const char *tone_fill(enum pmbench_doc_tone tone)
{
	switch (tone) {
	case PMBENCH_DOC_BEST:
		return "#4c9a6a";
	case PMBENCH_DOC_MUTED:
		return "#b9c3d3";
	case PMBENCH_DOC_WORSE:
		return "#d68a6b";
	default:
		return "#6b8fd6";
	}
}

static void whisker(struct pmbench_buf *out, double x1, double x2, double ym)
{
	pmbench_buf_adds(out, "<path class=\"whisker\" d=\"M");
	add_num(out, x1);
	pmbench_buf_addf(out, " %.1f V%.1f M", ym - 8, ym + 8);
	add_num(out, x1);
	pmbench_buf_addf(out, " %.1f H", ym);
	add_num(out, x2);
	pmbench_buf_adds(out, " M");
	add_num(out, x2);
	pmbench_buf_addf(out,
			 " %.1f V%.1f\" stroke=\"#1d2433\" "
			 "stroke-width=\"1.5\" fill=\"none\"/>",
			 ym - 8, ym + 8);
}

static void bar(struct pmbench_buf *out, const struct pmbench_doc_bar *b,
		size_t row, const struct scale *s)
{
	double y = (double)row * ROW_H;
	double ym = y + ROW_H / 2.0;

	pmbench_buf_addf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
			 LABEL_W - 8, ym + 4);
	pmbench_fmt_xml_escape(out, b->label);
	pmbench_buf_adds(out, "</text>");
	if (!b->has_value) {
		pmbench_buf_addf(out,
				 "<text class=\"warn\" x=\"%d\" "
				 "y=\"%.1f\">",
				 LABEL_W + 4, ym + 4);
		pmbench_fmt_xml_escape(out, b->text);
		pmbench_buf_adds(out, "</text>\n");
		return;
	}
	pmbench_buf_addf(out,
			 "<rect class=\"bar\" x=\"%d\" y=\"%.1f\" "
			 "width=\"",
			 LABEL_W, y + 7);
	add_num(out, xof(s, b->value) - LABEL_W);
	pmbench_buf_addf(out, "\" height=\"%d\" fill=\"%s\"/>", ROW_H - 14,
			 tone_fill(b->tone));
	if (b->has_interval)
		whisker(out, xof(s, b->lo), xof(s, b->hi), ym);
	for (size_t k = 0; k < b->dots_nr; k++) {
		/* A fixed spread so that equal times stay visible. */
		double dy = (double)(k % 5) * 3 - 6;

		pmbench_buf_adds(out, "<circle class=\"run\" cx=\"");
		add_num(out, xof(s, b->dots[k]));
		pmbench_buf_addf(out,
				 "\" cy=\"%.1f\" r=\"2.5\" "
				 "fill=\"#1d2433\" "
				 "fill-opacity=\"0.55\"/>",
				 ym + dy);
	}
	pmbench_buf_addf(out, "<text x=\"%d\" y=\"%.1f\">",
			 CHART_W - VALUE_W + 8, ym + 4);
	pmbench_fmt_xml_escape(out, b->text);
	pmbench_buf_adds(out, "</text>\n");
}

/* A group's name on the row above its first bar. */
static void group_row(struct pmbench_buf *out, const char *name, size_t row)
{
	pmbench_buf_addf(out, "<text class=\"group\" x=\"8\" y=\"%.1f\">",
			 (double)row * ROW_H + ROW_H / 2.0 + 8);
	pmbench_fmt_xml_escape(out, name);
	pmbench_buf_adds(out, "</text>\n");
}

void pmbench_fmt_chart(struct pmbench_buf *out,
		       const struct pmbench_doc_chart *c, double at_y)
{
	struct scale s = chart_scale(c);
	double h = pmbench_fmt_chart_height(c), rows = h - AXIS_H;
	size_t row = 0;

	if (c->trend) {
		pmbench_fmt_trend(out, c, at_y);
		return;
	}
	if (c->curve) {
		pmbench_fmt_curve(out, c, at_y);
		return;
	}
	if (c->series.nr) {
		pmbench_fmt_spans(out, c, at_y);
		return;
	}
	pmbench_fmt_chart_open(out, c, s.log ? " log" : NULL, h, at_y);
	axis(out, &s, rows, c->unit);
	for (size_t i = 0; i < c->bars_nr; i++) {
		if (c->bars[i].group)
			group_row(out, c->bars[i].group, row++);
		bar(out, &c->bars[i], row++, &s);
	}
	if (c->has_ref) {
		double x = xof(&s, c->ref);

		pmbench_buf_adds(out, "<line x1=\"");
		add_num(out, x);
		pmbench_buf_adds(out, "\" x2=\"");
		add_num(out, x);
		pmbench_buf_addf(out,
				 "\" y1=\"0\" y2=\"%.1f\" "
				 "stroke=\"#4c9a6a\" "
				 "stroke-dasharray=\"4 3\"/>\n",
				 rows);
	}
	pmbench_buf_adds(out, "</svg>\n");
}

/* One line of text in the standalone image. */
static void svg_text(struct pmbench_buf *out, double y, const char *cls,
		     const char *s)
{
	pmbench_buf_addf(out, "<text class=\"%s\" x=\"8\" y=\"%.0f\">", cls, y);
	pmbench_fmt_xml_escape(out, s);
	pmbench_buf_adds(out, "</text>\n");
}

/*
 * The title and every chart with its caption, each section's heading once
 * above its first chart, into `body`; the image's height into `*height`.
 * Returns how many charts were drawn.
 */
static size_t svg_charts(struct pmbench_buf *body,
			 const struct pmbench_doc *doc, double *height)
{
	const char *heading = NULL, *drawn = NULL;
	double y = 36;
	size_t charts = 0;

	svg_text(body, 22, "title", doc->title);
	for (size_t i = 0; i < doc->blocks_nr; i++) {
		const struct pmbench_doc_block *b = doc->blocks[i];

		if (b->kind == PMBENCH_DOC_HEADING &&
		    b->audience & PMBENCH_DOC_PAGE)
			heading = b->text;
		if (b->kind != PMBENCH_DOC_CHART || !b->chart.bars_nr)
			continue;
		/* Each section's heading once, above its first chart. */
		if (heading && heading != drawn) {
			svg_text(body, y + 18, "heading", heading);
			y += 28;
			drawn = heading;
		}
		if (b->chart.caption) {
			svg_text(body, y + 14, "cap", b->chart.caption);
			y += 22;
		}
		pmbench_fmt_chart(body, &b->chart, y);
		y += pmbench_fmt_chart_height(&b->chart) + 14;
		charts++;
	}
	*height = y;
	return charts;
}

/* The image's opening: its size, title, style and white background. */
static void svg_open(struct pmbench_buf *out, const char *title, double y)
{
	pmbench_buf_addf(out,
			 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			 "<svg xmlns=\"http://www.w3.org/2000/svg\" "
			 "width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d "
			 "%.0f\" role=\"img\">\n<title>",
			 CHART_W, y, CHART_W, y);
	pmbench_fmt_xml_escape(out, title);
	pmbench_buf_adds(out,
			 "</title>\n<style>text{font:12px system-ui,sans-serif;"
			 "fill:#1d2433}.title{font-size:16px;font-weight:600}"
			 ".heading{font-size:14px;font-weight:600}"
			 ".cap,.warn{fill:#4a5568}.group{font-weight:600}"
			 "</style>\n");
	pmbench_buf_addf(out,
			 "<rect width=\"%d\" height=\"%.0f\" "
			 "fill=\"#fff\"/>\n",
			 CHART_W, y);
}

int pmbench_fmt_svg(struct pmbench_buf *out, const struct pmbench_doc *doc)
{
	struct pmbench_buf body = PMBENCH_BUF_INIT;
	double y;

	if (!svg_charts(&body, doc, &y)) {
		pmbench_buf_release(&body);
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "this %s report has no chart to "
					  "draw: nothing was measured",
					  doc->kind);
	}
	svg_open(out, doc->title, y);
	pmbench_buf_add(out, body.ptr, body.len);
	pmbench_buf_adds(out, "</svg>\n");
	pmbench_buf_release(&body);
	return 0;
}
