/*
 * Curve charts: one line per series (a PM) through its points (x, the
 * number of workspace packages; y, the median), each point with its
 * interval as a vertical whisker, a legend of the series. Both axes are
 * linear and start at 0, so a straight line is a cost per package and
 * its height at x = 0 what does not grow. Drawn by pmbench itself, like
 * the bar and trend charts (fmt_svg.c, fmt_trend.c).
 */
#include "pmbench/common.h"

#include <math.h>

#include "internal.h"

#define W	   PMBENCH_CHART_W
#define LEFT	   70.0
#define RIGHT	   150.0 /* the legend */
#define TOP	   14.0
#define PLOT_H	   200.0
#define FOOT	   40.0 /* the x axis' labels and title */
#define SERIES_MAX 16

/* Colours told apart in print and by most colour-blind readers. */
static const char *const palette[] = { "#3a64b8", "#c0502a", "#2f7d4f",
				       "#8a4fb0", "#b08a1e", "#1e8a8a",
				       "#6b6b6b", "#d0418a" };

double pmbench_fmt_curve_height(const struct pmbench_doc_chart *c)
{
	(void)c;
	return TOP + PLOT_H + FOOT;
}

/* The series' names, in the order they first appear. */
static size_t series_of(const char *out[SERIES_MAX],
			const struct pmbench_doc_chart *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->bars_nr; i++) {
		size_t k = 0;

		while (k < n && strcmp(out[k], c->bars[i].label))
			k++;
		if (k == n && n < SERIES_MAX)
			out[n++] = c->bars[i].label;
	}
	return n;
}

struct frame {
	double xmax, ymax;
};

static struct frame frame_of(const struct pmbench_doc_chart *c)
{
	struct frame f = { 0, 0 };

	for (size_t i = 0; i < c->bars_nr; i++) {
		const struct pmbench_doc_bar *b = &c->bars[i];

		if (b->x > f.xmax)
			f.xmax = b->x;
		if (!b->has_value)
			continue;
		if (b->value > f.ymax)
			f.ymax = b->value;
		if (b->has_interval && b->hi > f.ymax)
			f.ymax = b->hi;
	}
	if (!(f.xmax > 0) || !isfinite(f.xmax))
		f.xmax = 1;
	if (!(f.ymax > 0) || !isfinite(f.ymax))
		f.ymax = 1;
	f.xmax *= 1.04;
	f.ymax *= 1.08;
	return f;
}

static double x_of(double x, const struct frame *f)
{
	return LEFT + (x > 0 ? x : 0) / f->xmax * (W - LEFT - RIGHT);
}

static double y_of(double v, const struct frame *f)
{
	return TOP + PLOT_H - (v > 0 ? v : 0) / f->ymax * PLOT_H;
}

/* The label under x: its name in x_labels (x = 1, 2, ...), else x. */
static void x_tick(struct pmbench_buf *out, const struct pmbench_doc_chart *c,
		   const struct frame *f, double x)
{
	size_t k = (size_t)x;

	pmbench_buf_addf(out,
			 "<text class=\"x\" x=\"%.1f\" y=\"%.1f\" "
			 "text-anchor=\"middle\">",
			 x_of(x, f), TOP + PLOT_H + 16);
	if (x >= 1 && (double)k == x && k <= c->x_labels.nr)
		pmbench_fmt_xml_escape(out, c->x_labels.v[k - 1]);
	else
		pmbench_buf_addf(out, "%g", x);
	pmbench_buf_adds(out, "</text>\n");
}

/* Horizontal grid lines with the values, and a tick at every x. */
static void axes(struct pmbench_buf *out, const struct pmbench_doc_chart *c,
		 const struct frame *f)
{
	double step = pmbench_fmt_tick_step(f->ymax, 4);

	for (double t = 0; t <= f->ymax * 1.0001; t += step) {
		pmbench_buf_addf(out,
				 "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
				 "y2=\"%.1f\" stroke=\"#e2e6ee\"/><text "
				 "x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g",
				 LEFT, W - RIGHT, y_of(t, f), y_of(t, f),
				 LEFT - 6, y_of(t, f) + 4, t);
		pmbench_fmt_xml_escape(out, c->unit);
		pmbench_buf_adds(out, "</text>\n");
	}
	for (size_t i = 0; i < c->bars_nr; i++) {
		int first = 1;

		for (size_t k = 0; k < i && first; k++)
			first = c->bars[k].x != c->bars[i].x;
		if (first)
			x_tick(out, c, f, c->bars[i].x);
	}
	pmbench_buf_addf(out,
			 "<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" "
			 "text-anchor=\"middle\">",
			 (LEFT + W - RIGHT) / 2, TOP + PLOT_H + 34);
	pmbench_fmt_xml_escape(out, c->x_unit);
	pmbench_buf_adds(out, "</text>\n");
}

/* One series: its line, whiskers, points and legend entry. */
static void series(struct pmbench_buf *out, const struct pmbench_doc_chart *c,
		   const struct frame *f, const char *name, size_t k)
{
	const char *col = palette[k % PMBENCH_ARRAY_SIZE(palette)];
	int first = 1;

	pmbench_buf_adds(out, "<path class=\"curve\" d=\"");
	for (size_t i = 0; i < c->bars_nr; i++) {
		const struct pmbench_doc_bar *b = &c->bars[i];

		if (strcmp(b->label, name) || !b->has_value)
			continue;
		pmbench_buf_addf(out, "%s%.1f %.1f ", first ? "M" : "L",
				 x_of(b->x, f), y_of(b->value, f));
		first = 0;
	}
	pmbench_buf_addf(
		out, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n",
		col);
	for (size_t i = 0; i < c->bars_nr; i++) {
		const struct pmbench_doc_bar *b = &c->bars[i];
		double x = x_of(b->x, f);

		if (strcmp(b->label, name) || !b->has_value)
			continue;
		if (b->has_interval)
			pmbench_buf_addf(out,
					 "<path class=\"whisker\" d=\"M%.1f "
					 "%.1f H%.1f M%.1f %.1f V%.1f M%.1f "
					 "%.1f H%.1f\" stroke=\"%s\" "
					 "stroke-width=\"1.2\" fill=\"none\"/>",
					 x - 4, y_of(b->hi, f), x + 4, x,
					 y_of(b->hi, f), y_of(b->lo, f), x - 4,
					 y_of(b->lo, f), x + 4, col);
		pmbench_buf_addf(out,
				 "<circle class=\"point\" cx=\"%.1f\" "
				 "cy=\"%.1f\" r=\"3.5\" fill=\"%s\"><title>",
				 x, y_of(b->value, f), col);
		pmbench_fmt_xml_escape(out, b->text);
		pmbench_buf_adds(out, "</title></circle>\n");
	}
	pmbench_buf_addf(out,
			 "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" "
			 "height=\"3\" fill=\"%s\"/><text class=\"legend\" "
			 "x=\"%.1f\" y=\"%.1f\">",
			 W - RIGHT + 16, TOP + 8 + (double)k * 18, col,
			 W - RIGHT + 36, TOP + 12 + (double)k * 18);
	pmbench_fmt_xml_escape(out, name);
	pmbench_buf_adds(out, "</text>\n");
}

void pmbench_fmt_curve(struct pmbench_buf *out,
		       const struct pmbench_doc_chart *c, double at_y)
{
	const char *names[SERIES_MAX];
	size_t n = series_of(names, c);
	struct frame f = frame_of(c);
	double h = pmbench_fmt_curve_height(c);

	pmbench_fmt_chart_open(out, c, NULL, h, at_y);
	axes(out, c, &f);
	for (size_t k = 0; k < n; k++)
		series(out, c, &f, names[k], k);
	pmbench_buf_adds(out, "</svg>\n");
}
