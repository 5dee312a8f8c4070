/*
 * Trend charts: a series of medians over time as points joined by a
 * line, each with its interval as a vertical whisker, the dates and
 * versions under the axis, and the points where a change was flagged
 * ringed in its colour. The axis starts at 0, so heights compare as
 * ratios. Drawn by pmbench itself, like the bar charts (fmt_svg.c).
 */
#include "pmbench/common.h"

#include <math.h>

#include "internal.h"

#define W      PMBENCH_CHART_W
#define LEFT   70.0 /* the value axis' labels */
#define RIGHT  20.0
#define TOP    14.0
#define PLOT_H 160.0
#define FOOT   46.0 /* dates and versions */

double pmbench_fmt_trend_height(const struct pmbench_doc_chart *c)
{
	(void)c;
	return TOP + PLOT_H + FOOT;
}

static double top_of(const struct pmbench_doc_chart *c)
{
	double max = 0;

	for (size_t i = 0; i < c->bars_nr; i++) {
		const struct pmbench_doc_bar *b = &c->bars[i];

		if (b->has_value && b->value > max)
			max = b->value;
		if (b->has_value && b->has_interval && b->hi > max)
			max = b->hi;
	}
	if (!(max > 0) || !isfinite(max))
		max = 1;
	return max * 1.08;
}

static double x_of(size_t i, size_t n)
{
	double plot = W - LEFT - RIGHT;

	return n < 2 ? LEFT + plot / 2
		     : LEFT + 20 + (plot - 40) * (double)i / (double)(n - 1);
}

static double y_of(double v, double max)
{
	return TOP + PLOT_H - (v > 0 ? v : 0) / max * PLOT_H;
}

static const char *tone_colour(enum pmbench_doc_tone t)
{
	return t == PMBENCH_DOC_WORSE  ? "#c0502a"
	       : t == PMBENCH_DOC_BEST ? "#2f7d4f"
				       : "#3a64b8";
}

static void axis(struct pmbench_buf *out, double max, const char *unit)
{
	double step = pmbench_fmt_tick_step(max, 4);

	for (double t = 0; t <= max * 1.0001; t += step) {
		double y = y_of(t, max);

		pmbench_buf_addf(out,
				 "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
				 "y2=\"%.1f\" stroke=\"#e2e6ee\"/>"
				 "<text x=\"%.1f\" y=\"%.1f\" "
				 "text-anchor=\"end\">%g",
				 LEFT, W - RIGHT, y, y, LEFT - 6, y + 4, t);
		pmbench_fmt_xml_escape(out, unit);
		pmbench_buf_adds(out, "</text>\n");
	}
}

static void line(struct pmbench_buf *out, const struct pmbench_doc_chart *c,
		 double max)
{
	int first = 1;

	pmbench_buf_adds(out, "<path class=\"trend-line\" d=\"");
	for (size_t i = 0; i < c->bars_nr; i++) {
		if (!c->bars[i].has_value)
			continue;
		pmbench_buf_addf(out, "%s%.1f %.1f ", first ? "M" : "L",
				 x_of(i, c->bars_nr),
				 y_of(c->bars[i].value, max));
		first = 0;
	}
	pmbench_buf_adds(out, "\" fill=\"none\" stroke=\"#3a64b8\" "
			      "stroke-width=\"1.5\"/>\n");
}

static void point(struct pmbench_buf *out, const struct pmbench_doc_bar *b,
		  double x, double max)
{
	const char *col = tone_colour(b->tone);
	double foot = TOP + PLOT_H;

	pmbench_buf_addf(out,
			 "<text x=\"%.1f\" y=\"%.1f\" "
			 "text-anchor=\"middle\">",
			 x, foot + 18);
	pmbench_fmt_xml_escape(out, b->label);
	pmbench_buf_addf(out,
			 "</text><text class=\"version\" x=\"%.1f\" "
			 "y=\"%.1f\" text-anchor=\"middle\">",
			 x, foot + 34);
	pmbench_fmt_xml_escape(out, b->text);
	pmbench_buf_adds(out, "</text>\n");
	if (!b->has_value) {
		pmbench_buf_addf(out,
				 "<text class=\"warn\" x=\"%.1f\" y=\"%.1f\" "
				 "text-anchor=\"middle\">failed</text>\n",
				 x, foot - 6);
		return;
	}
	if (b->has_interval)
		pmbench_buf_addf(out,
				 "<path class=\"whisker\" d=\"M%.1f %.1f "
				 "H%.1f M%.1f %.1f V%.1f M%.1f %.1f H%.1f\" "
				 "stroke=\"#1d2433\" stroke-width=\"1.2\" "
				 "fill=\"none\"/>",
				 x - 5, y_of(b->hi, max), x + 5, x,
				 y_of(b->hi, max), y_of(b->lo, max), x - 5,
				 y_of(b->lo, max), x + 5);
	pmbench_buf_addf(out,
			 "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" "
			 "r=\"4\" fill=\"%s\"/>",
			 x, y_of(b->value, max), col);
	if (b->tone == PMBENCH_DOC_WORSE || b->tone == PMBENCH_DOC_BEST)
		pmbench_buf_addf(out,
				 "<circle class=\"change\" cx=\"%.1f\" "
				 "cy=\"%.1f\" r=\"9\" fill=\"none\" "
				 "stroke=\"%s\" stroke-width=\"2\"/>",
				 x, y_of(b->value, max), col);
	pmbench_buf_adds(out, "\n");
}

void pmbench_fmt_trend(struct pmbench_buf *out,
		       const struct pmbench_doc_chart *c, double at_y)
{
	double max = top_of(c), h = pmbench_fmt_trend_height(c);

	pmbench_fmt_chart_open(out, c, NULL, h, at_y);
	axis(out, max, c->unit);
	line(out, c, max);
	for (size_t i = 0; i < c->bars_nr; i++)
		point(out, &c->bars[i], x_of(i, c->bars_nr), max);
	pmbench_buf_adds(out, "</svg>\n");
}
