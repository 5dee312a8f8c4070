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

#define CHART_W PMBENCH_CHART_W
#define LABEL_W PMBENCH_CHART_LABEL_W
#define VALUE_W PMBENCH_CHART_VALUE_W
#define ROW_H	PMBENCH_CHART_ROW_H
#define AXIS_H	PMBENCH_CHART_AXIS_H

void pmbench_fmt_xml_escape(struct pmbench_buf *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			pmbench_buf_adds(out, "&amp;");
			break;
		case '<':
			pmbench_buf_adds(out, "&lt;");
			break;
		case '>':
			pmbench_buf_adds(out, "&gt;");
			break;
		case '"':
			pmbench_buf_adds(out, "&quot;");
			break;
		case '\'':
			pmbench_buf_adds(out, "&#39;");
			break;
		default:
			/*
			 * Control bytes other than tab and newline are not
			 * allowed in HTML or XML text.
			 */
			if ((unsigned char)*s < 0x20 && *s != '\n' &&
			    *s != '\t')
				pmbench_buf_addch(out, ' ');
			else
				pmbench_buf_addch(out, *s);
		}
	}
}

static void add_num(struct pmbench_buf *out, double v)
{
	pmbench_buf_addf(out, "%.1f", v);
}

/* A tick step of 1, 2 or 5 times a power of ten, about `max` / 5. */
static double tick_step(double max)
{
	double raw = max / 5, p = pow(10, floor(log10(raw)));

	if (raw / p < 1.5)
		return p;
	if (raw / p < 3.5)
		return 2 * p;
	if (raw / p < 7.5)
		return 5 * p;
	return 10 * p;
}

static void axis(struct pmbench_buf *out, double max, double y,
		 const char *unit)
{
	double step = tick_step(max), plot = CHART_W - LABEL_W - VALUE_W;

	for (double t = 0; t <= max * 1.0001; t += step) {
		double x = LABEL_W + t / max * plot;

		pmbench_buf_adds(out, "<line x1=\"");
		add_num(out, x);
		pmbench_buf_adds(out, "\" x2=\"");
		add_num(out, x);
		pmbench_buf_addf(out,
				 "\" y1=\"0\" y2=\"%.1f\" "
				 "stroke=\"#e2e6ee\"/><text x=\"",
				 y);
		add_num(out, x);
		pmbench_buf_addf(out, "\" y=\"%.1f\" text-anchor=\"middle\">%g",
				 y + 16, t);
		pmbench_fmt_xml_escape(out, unit);
		pmbench_buf_adds(out, "</text>\n");
	}
}

/* The axis' end: the largest value, interval end, dot or reference. */
static double chart_max(const struct pmbench_doc_chart *c)
{
	double max = c->has_ref ? c->ref : 0;

	for (size_t i = 0; i < c->bars_nr; i++) {
		const struct pmbench_doc_bar *b = &c->bars[i];

		if (b->has_value && b->value > max)
			max = b->value;
		if (b->has_value && b->has_interval && b->hi > max)
			max = b->hi;
		for (size_t k = 0; k < b->dots_nr; k++)
			if (b->dots[k] > max)
				max = b->dots[k];
	}
	if (!(max > 0) || !isfinite(max))
		max = 1;
	return max * (c->has_ref ? 1.08 : 1.05);
}

double pmbench_fmt_chart_height(const struct pmbench_doc_chart *c)
{
	if (c->trend)
		return pmbench_fmt_trend_height(c);
	return (double)c->bars_nr * ROW_H + AXIS_H;
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
		size_t row, double max)
{
	double plot = CHART_W - LABEL_W - VALUE_W, y = (double)row * ROW_H;
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
	add_num(out, (b->value > 0 ? b->value : 0) / max * plot);
	pmbench_buf_addf(out, "\" height=\"%d\" fill=\"%s\"/>", ROW_H - 14,
			 tone_fill(b->tone));
	if (b->has_interval)
		whisker(out, LABEL_W + b->lo / max * plot,
			LABEL_W + b->hi / max * plot, ym);
	for (size_t k = 0; k < b->dots_nr; k++) {
		/* A fixed spread so that equal times stay visible. */
		double dy = (double)(k % 5) * 3 - 6;

		pmbench_buf_adds(out, "<circle class=\"run\" cx=\"");
		add_num(out, LABEL_W + b->dots[k] / max * plot);
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

void pmbench_fmt_chart(struct pmbench_buf *out,
		       const struct pmbench_doc_chart *c, double at_y)
{
	double max = chart_max(c), h = pmbench_fmt_chart_height(c);
	double plot = CHART_W - LABEL_W - VALUE_W, rows = h - AXIS_H;

	if (c->trend) {
		pmbench_fmt_trend(out, c, at_y);
		return;
	}
	pmbench_buf_adds(out, "<svg class=\"chart ");
	pmbench_fmt_xml_escape(out, c->name);
	pmbench_buf_addf(out, "\" width=\"%d\" height=\"%.0f\" ", CHART_W, h);
	if (at_y >= 0)
		pmbench_buf_addf(out, "x=\"0\" y=\"%.0f\" ", at_y);
	pmbench_buf_addf(out,
			 "viewBox=\"0 0 %d %.0f\" role=\"img\" "
			 "xmlns=\"http://www.w3.org/2000/svg\"><title>",
			 CHART_W, h);
	pmbench_fmt_xml_escape(out, c->title);
	pmbench_buf_adds(out, "</title>\n");
	axis(out, max, rows, c->unit);
	for (size_t i = 0; i < c->bars_nr; i++)
		bar(out, &c->bars[i], i, max);
	if (c->has_ref) {
		double x = LABEL_W + c->ref / max * plot;

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

int pmbench_fmt_svg(struct pmbench_buf *out, const struct pmbench_doc *doc)
{
	struct pmbench_buf body = PMBENCH_BUF_INIT;
	const char *heading = NULL, *drawn = NULL;
	double y = 36;
	size_t charts = 0;

	svg_text(&body, 22, "title", doc->title);
	for (size_t i = 0; i < doc->blocks_nr; i++) {
		const struct pmbench_doc_block *b = doc->blocks[i];

		if (b->kind == PMBENCH_DOC_HEADING &&
		    b->audience & PMBENCH_DOC_PAGE)
			heading = b->text;
		if (b->kind != PMBENCH_DOC_CHART || !b->chart.bars_nr)
			continue;
		/* Each section's heading once, above its first chart. */
		if (heading && heading != drawn) {
			svg_text(&body, y + 18, "heading", heading);
			y += 28;
			drawn = heading;
		}
		if (b->chart.caption) {
			svg_text(&body, y + 14, "cap", b->chart.caption);
			y += 22;
		}
		pmbench_fmt_chart(&body, &b->chart, y);
		y += pmbench_fmt_chart_height(&b->chart) + 14;
		charts++;
	}
	if (!charts) {
		pmbench_buf_release(&body);
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "this %s report has no chart to "
					  "draw: nothing was measured",
					  doc->kind);
	}
	pmbench_buf_addf(out,
			 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			 "<svg xmlns=\"http://www.w3.org/2000/svg\" "
			 "width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d "
			 "%.0f\" role=\"img\">\n<title>",
			 CHART_W, y, CHART_W, y);
	pmbench_fmt_xml_escape(out, doc->title);
	pmbench_buf_adds(out,
			 "</title>\n<style>text{font:12px system-ui,sans-serif;"
			 "fill:#1d2433}.title{font-size:16px;font-weight:600}"
			 ".heading{font-size:14px;font-weight:600}"
			 ".cap,.warn{fill:#4a5568}</style>\n");
	pmbench_buf_addf(out,
			 "<rect width=\"%d\" height=\"%.0f\" "
			 "fill=\"#fff\"/>\n",
			 CHART_W, y);
	pmbench_buf_add(out, body.ptr, body.len);
	pmbench_buf_adds(out, "</svg>\n");
	pmbench_buf_release(&body);
	return 0;
}
