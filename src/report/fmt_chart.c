/*
 * What every SVG chart shares (fmt_svg.c's bars, fmt_trend.c, fmt_curve.c,
 * fmt_spans.c; internal.h): XML text escaped (the html format's too), a
 * chart's <svg> opening with its title, and round tick steps.
 */
#include "pmbench/common.h"

#include <math.h>

#include "internal.h"
#include "pmbench/text.h"

/*
 * At `s`, a character beyond ASCII: copied when XML 1.0 allows it (its
 * Char production), else U+FFFD: for U+FFFE, U+FFFF and a byte that is
 * no UTF-8 (a result file read from anywhere can hold them). Returns
 * the bytes it spans.
 */
static size_t xml_char(struct pmbench_buf *out, const char *s)
{
	unsigned cp;
	size_t n = pmbench_text_utf8(s, strnlen(s, 4), &cp);

	if (n && cp != 0xfffe && cp != 0xffff)
		pmbench_buf_add(out, s, n);
	else
		pmbench_buf_adds(out, "\xef\xbf\xbd");
	return n ? n : 1;
}

void pmbench_fmt_xml_escape(struct pmbench_buf *out, const char *s)
{
	for (; s && *s; s++) {
		if ((unsigned char)*s >= 0x80) {
			s += xml_char(out, s) - 1;
			continue;
		}
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

void pmbench_fmt_chart_open(struct pmbench_buf *out,
			    const struct pmbench_doc_chart *c, const char *more,
			    double h, double at_y)
{
	pmbench_buf_adds(out, "<svg class=\"chart ");
	pmbench_fmt_xml_escape(out, c->name);
	if (more)
		pmbench_buf_adds(out, more);
	pmbench_buf_addf(out, "\" width=\"%d\" height=\"%.0f\" ",
			 PMBENCH_CHART_W, h);
	if (at_y >= 0)
		pmbench_buf_addf(out, "x=\"0\" y=\"%.0f\" ", at_y);
	pmbench_buf_addf(out,
			 "viewBox=\"0 0 %d %.0f\" role=\"img\" "
			 "xmlns=\"http://www.w3.org/2000/svg\"><title>",
			 PMBENCH_CHART_W, h);
	pmbench_fmt_xml_escape(out, c->title);
	pmbench_buf_adds(out, "</title>\n");
}

double pmbench_fmt_tick_step(double max, unsigned ticks)
{
	double raw = max / ticks, p = pow(10, floor(log10(raw)));

	if (raw / p < 1.5)
		return p;
	if (raw / p < 3.5)
		return 2 * p;
	if (raw / p < 7.5)
		return 5 * p;
	return 10 * p;
}
