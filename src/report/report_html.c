#include "pmbench/common.h"

#include <math.h>

#include "pmbench/report.h"

/*
 * The HTML report: one self-contained page with inline CSS and SVG that
 * pmbench draws itself. No script and no external resource, so it opens
 * offline and passes any content security policy.
 */

#define CHART_W 760
#define LABEL_W 110
#define VALUE_W 150
#define ROW_H 34
#define AXIS_H 28

static void esc(struct pmbench_buf *out, const char *s)
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
			/* Control bytes other than tab and newline are not
			 * allowed in HTML text. */
			if ((unsigned char)*s < 0x20 && *s != '\n' &&
			    *s != '\t')
				pmbench_buf_addch(out, ' ');
			else
				pmbench_buf_addch(out, *s);
		}
	}
}

static const char style[] =
	"body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;"
	"max-width:1100px;padding:0 16px;color:#1d2433;background:#fff}"
	"h1{font-size:24px}h2{font-size:18px;margin-top:36px;"
	"border-bottom:1px solid #d6dbe4}"
	"table{border-collapse:collapse;margin:10px 0;font-size:13px}"
	"td,th{border:1px solid #d6dbe4;padding:3px 8px;text-align:left}"
	"th{background:#f1f4f9}.state{color:#4a5568;font-weight:600}"
	".warn{color:#9a5b00}.ok{color:#22663a}"
	"pre{background:#f6f8fa;border:1px solid #d6dbe4;padding:8px;"
	"overflow:auto;font-size:12px}"
	"svg{display:block;margin:8px 0}.cap{margin:14px 0 0;color:#4a5568}"
	"svg text{font:12px system-ui,sans-serif;fill:#1d2433}";

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
		pmbench_buf_addf(out, "\" y1=\"0\" y2=\"%.1f\" "
				      "stroke=\"#e2e6ee\"/><text x=\"",
				 y);
		add_num(out, x);
		pmbench_buf_addf(out, "\" y=\"%.1f\" text-anchor=\"middle\">"
				      "%g%s</text>\n",
				 y + 16, t, unit);
	}
}

/* Medians as bars, 95 % intervals as whiskers, every run as a dot. */
static void time_chart(struct pmbench_buf *out,
		       const struct pmbench_report *rep, size_t g)
{
	double max = 0, plot = CHART_W - LABEL_W - VALUE_W, h;
	size_t rows = 0, row = 0;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = g; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];

		if (!pmbench_report_same_group(rep, g, i))
			continue;
		rows++;
		if (c->n && c->wall.max > max)
			max = c->wall.max;
		if (c->has_ci && c->median_ci.hi > max)
			max = c->median_ci.hi;
	}
	if (!(max > 0))
		max = 1;
	max *= 1.05;
	h = (double)rows * ROW_H + AXIS_H;
	pmbench_buf_addf(out,
			 "<svg class=\"chart time\" width=\"%d\" "
			 "height=\"%.0f\" viewBox=\"0 0 %d %.0f\" role=\"img\" "
			 "xmlns=\"http://www.w3.org/2000/svg\">"
			 "<title>Median time per package manager, seconds, "
			 "with 95%% intervals and every run</title>\n",
			 CHART_W, h, CHART_W, h);
	axis(out, max, (double)rows * ROW_H, " s");
	for (size_t i = g; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];
		double y = (double)row * ROW_H;

		if (!pmbench_report_same_group(rep, g, i))
			continue;
		row++;
		pmbench_buf_addf(out, "<text x=\"%d\" y=\"%.1f\" "
				      "text-anchor=\"end\">",
				 LABEL_W - 8, y + ROW_H / 2.0 + 4);
		esc(out, c->cell->pm);
		pmbench_buf_adds(out, "</text>");
		if (!c->n) {
			pmbench_buf_addf(out, "<text class=\"warn\" x=\"%d\" "
					      "y=\"%.1f\">%s</text>\n",
					 LABEL_W + 4, y + ROW_H / 2.0 + 4,
					 pmbench_report_no_times(c));
			continue;
		}
		pmbench_buf_addf(out, "<rect class=\"bar\" x=\"%d\" y=\"%.1f\" "
				      "width=\"",
				 LABEL_W, y + 7);
		add_num(out, c->wall.median / max * plot);
		pmbench_buf_addf(out, "\" height=\"%d\" fill=\"%s\"/>",
				 ROW_H - 14,
				 (long)i == c->fastest ? "#4c9a6a" : "#6b8fd6");
		if (c->has_ci) {
			double x1 = LABEL_W + c->median_ci.lo / max * plot;
			double x2 = LABEL_W + c->median_ci.hi / max * plot;
			double ym = y + ROW_H / 2.0;

			pmbench_buf_adds(out, "<path class=\"whisker\" d=\"M");
			add_num(out, x1);
			pmbench_buf_addf(out, " %.1f V%.1f M", ym - 8, ym + 8);
			add_num(out, x1);
			pmbench_buf_addf(out, " %.1f H", ym);
			add_num(out, x2);
			pmbench_buf_addf(out, " M");
			add_num(out, x2);
			pmbench_buf_addf(out, " %.1f V%.1f\" "
					      "stroke=\"#1d2433\" "
					      "stroke-width=\"1.5\" "
					      "fill=\"none\"/>",
					 ym - 8, ym + 8);
		}
		for (size_t k = 0; k < c->n; k++) {
			/* A fixed spread so that equal times stay visible. */
			double dy = (double)(k % 5) * 3 - 6;

			pmbench_buf_adds(out, "<circle class=\"run\" cx=\"");
			add_num(out, LABEL_W + c->times[k] / max * plot);
			pmbench_buf_addf(out, "\" cy=\"%.1f\" r=\"2.5\" "
					      "fill=\"#1d2433\" "
					      "fill-opacity=\"0.55\"/>",
					 y + ROW_H / 2.0 + dy);
		}
		pmbench_buf_reset(&b);
		pmbench_report_add_duration(&b, c->wall.median);
		pmbench_buf_addf(out, "<text x=\"%d\" y=\"%.1f\">", CHART_W -
				 VALUE_W + 8, y + ROW_H / 2.0 + 4);
		esc(out, b.ptr);
		pmbench_buf_addf(out, " (%zu runs", c->n);
		if (c->interrupted)
			pmbench_buf_addf(out, ", %zu interrupted",
					 c->interrupted);
		pmbench_buf_adds(out, ")</text>\n");
	}
	pmbench_buf_adds(out, "</svg>\n");
	pmbench_buf_release(&b);
}

/* Each PM's ratio to the fastest, with its interval; 1x is marked. */
static void ratio_chart(struct pmbench_buf *out,
			const struct pmbench_report *rep, size_t g)
{
	double max = 1, plot = CHART_W - LABEL_W - VALUE_W, h, x1;
	size_t rows = 0, row = 0;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = g; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];

		if (!pmbench_report_same_group(rep, g, i) || !c->has_vs)
			continue;
		rows++;
		if (c->vs.ratio.hi > max)
			max = c->vs.ratio.hi;
	}
	if (!rows)
		return;
	max *= 1.08;
	h = (double)rows * ROW_H + AXIS_H;
	pmbench_buf_addf(out,
			 "<svg class=\"chart ratio\" width=\"%d\" "
			 "height=\"%.0f\" viewBox=\"0 0 %d %.0f\" role=\"img\" "
			 "xmlns=\"http://www.w3.org/2000/svg\">"
			 "<title>Time relative to the fastest, with 95%% "
			 "intervals</title>\n",
			 CHART_W, h, CHART_W, h);
	axis(out, max, (double)rows * ROW_H, "x");
	for (size_t i = g; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];
		double y = (double)row * ROW_H, ym = y + ROW_H / 2.0, x2;

		if (!pmbench_report_same_group(rep, g, i) || !c->has_vs)
			continue;
		row++;
		pmbench_buf_addf(out, "<text x=\"%d\" y=\"%.1f\" "
				      "text-anchor=\"end\">",
				 LABEL_W - 8, ym + 4);
		esc(out, c->cell->pm);
		pmbench_buf_addf(out, "</text><rect class=\"bar\" x=\"%d\" "
				      "y=\"%.1f\" width=\"",
				 LABEL_W, y + 7);
		add_num(out, c->vs.ratio.point / max * plot);
		pmbench_buf_addf(out, "\" height=\"%d\" fill=\"%s\"/>",
				 ROW_H - 14,
				 c->vs.verdict == PMBENCH_VERDICT_SAME
					 ? "#b9c3d3"
					 : "#d68a6b");
		x1 = LABEL_W + c->vs.ratio.lo / max * plot;
		x2 = LABEL_W + c->vs.ratio.hi / max * plot;
		pmbench_buf_adds(out, "<path class=\"whisker\" d=\"M");
		add_num(out, x1);
		pmbench_buf_addf(out, " %.1f V%.1f M", ym - 8, ym + 8);
		add_num(out, x1);
		pmbench_buf_addf(out, " %.1f H", ym);
		add_num(out, x2);
		pmbench_buf_adds(out, " M");
		add_num(out, x2);
		pmbench_buf_addf(out, " %.1f V%.1f\" stroke=\"#1d2433\" "
				      "stroke-width=\"1.5\" fill=\"none\"/>",
				 ym - 8, ym + 8);
		pmbench_buf_reset(&b);
		pmbench_report_add_ratio(&b, c->vs.ratio.point);
		pmbench_buf_addf(out, "<text x=\"%d\" y=\"%.1f\">",
				 CHART_W - VALUE_W + 8, ym + 4);
		esc(out, b.ptr);
		pmbench_buf_adds(out, c->vs.verdict == PMBENCH_VERDICT_SAME
					      ? " (n.s.)</text>\n"
					      : "</text>\n");
	}
	/* The 1x line: equal to the fastest. */
	x1 = LABEL_W + 1 / max * plot;
	pmbench_buf_adds(out, "<line x1=\"");
	add_num(out, x1);
	pmbench_buf_adds(out, "\" x2=\"");
	add_num(out, x1);
	pmbench_buf_addf(out, "\" y1=\"0\" y2=\"%.1f\" stroke=\"#4c9a6a\" "
			      "stroke-dasharray=\"4 3\"/>\n</svg>\n",
			 (double)rows * ROW_H);
	pmbench_buf_release(&b);
}

static void details(struct pmbench_buf *out, const struct pmbench_report *rep,
		    size_t g)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	size_t ncols = pmbench_report_columns();

	pmbench_buf_adds(out, "<table class=\"details\"><tr><th>pm</th>");
	for (size_t k = 0; k < ncols; k++) {
		pmbench_buf_adds(out, "<th>");
		esc(out, pmbench_report_column_header(k));
		pmbench_buf_adds(out, "</th>");
	}
	pmbench_buf_adds(out, "</tr>\n");
	for (size_t i = g; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];

		if (!pmbench_report_same_group(rep, g, i))
			continue;
		pmbench_buf_adds(out, "<tr><td>");
		esc(out, c->cell->pm);
		pmbench_buf_adds(out, "</td>");
		for (size_t k = 0; k < ncols; k++) {
			pmbench_buf_reset(&b);
			if (!c->n && !k)
				pmbench_buf_adds(&b,
						 pmbench_report_no_times(c));
			pmbench_report_column_text(&b, k, c);
			pmbench_buf_adds(out, "<td>");
			esc(out, b.ptr);
			pmbench_buf_adds(out, "</td>");
		}
		pmbench_buf_adds(out, "</tr>\n");
	}
	pmbench_buf_adds(out, "</table>\n");
	for (size_t i = g; i < rep->cells_nr; i++) {
		const struct pmbench_report_cell *c = &rep->cells[i];

		if (!pmbench_report_same_group(rep, g, i))
			continue;
		pmbench_buf_reset(&b);
		pmbench_report_add_sentence(&b, rep, i);
		if (b.len) {
			pmbench_buf_addf(out, "<p class=\"%s\">",
					 c->vs.verdict == PMBENCH_VERDICT_SAME
						 ? "same"
						 : "ratio");
			esc(out, b.ptr);
			pmbench_buf_adds(out, "</p>\n");
		}
		pmbench_buf_reset(&b);
		pmbench_report_add_notes(&b, "", c);
		for (const char *p = b.ptr; *p;) {
			size_t n = strcspn(p, "\n");
			struct pmbench_buf line = PMBENCH_BUF_INIT;

			pmbench_buf_add(&line, p, n);
			pmbench_buf_adds(out, "<p class=\"note\">");
			esc(out, line.ptr);
			pmbench_buf_adds(out, "</p>\n");
			pmbench_buf_release(&line);
			p += n;
			if (*p)
				p++;
		}
		if (c->outliers) {
			pmbench_buf_addf(out, "<p class=\"warn\">warning: %zu "
					      "statistical outlier(s) in ",
					 c->outliers);
			esc(out, c->cell->pm);
			pmbench_buf_adds(out, c->slow_first
						      ? "'s runs; the first "
							"run was much slower: "
							"a cache may have been "
							"cold</p>\n"
						      : "'s runs</p>\n");
		}
	}
	pmbench_buf_release(&b);
}

/* Lockfile and dependency scripts per PM and fixture: parity matters. */
static void used(struct pmbench_buf *out, const struct pmbench_report *rep)
{
	struct pmbench_strvec seen = PMBENCH_STRVEC_INIT;
	struct pmbench_buf key = PMBENCH_BUF_INIT;

	pmbench_buf_adds(out, "<h2 id=\"used\">What each PM used</h2>\n"
			      "<table class=\"used\"><tr><th>fixture</th>"
			      "<th>pm</th><th>lockfile</th><th>dependency "
			      "scripts</th></tr>\n");
	for (size_t i = 0; i < rep->cells_nr; i++) {
		const struct pmbench_cell *c = rep->cells[i].cell;

		pmbench_buf_reset(&key);
		pmbench_buf_addf(&key, "%s\n%s", c->fixture, c->pm);
		if (pmbench_strvec_find(&seen, key.ptr) >= 0)
			continue;
		pmbench_strvec_push(&seen, key.ptr);
		pmbench_buf_adds(out, "<tr><td>");
		esc(out, c->fixture);
		pmbench_buf_adds(out, "</td><td>");
		esc(out, c->pm);
		pmbench_buf_adds(out, "</td><td>");
		esc(out, c->lockfile ? c->lockfile : "(not primed)");
		pmbench_buf_adds(out, "</td><td>");
		esc(out, c->scripts ? c->scripts : "");
		pmbench_buf_adds(out, "</td></tr>\n");
	}
	pmbench_buf_adds(out, "</table>\n");
	pmbench_strvec_release(&seen);
	for (size_t i = 0; i < rep->cells_nr; i++) {
		const char *fixture = rep->cells[i].cell->fixture;

		if (pmbench_strvec_find(&seen, fixture) >= 0)
			continue;
		pmbench_strvec_push(&seen, fixture);
		if (!pmbench_report_scripts_mixed(rep, fixture))
			continue;
		pmbench_buf_adds(out, "<p class=\"warn\">");
		esc(out, fixture);
		pmbench_buf_adds(out, ": " PMBENCH_REPORT_SCRIPTS_NOTE
				      "</p>\n");
	}
	pmbench_strvec_release(&seen);
	pmbench_buf_release(&key);
}

static void failures(struct pmbench_buf *out, const struct pmbench_report *rep)
{
	int any = 0;

	for (size_t i = 0; i < rep->cells_nr; i++) {
		const struct pmbench_cell *c = rep->cells[i].cell;

		for (size_t k = 0; k <= c->samples_nr; k++) {
			const char *why = NULL, *tail = NULL;

			if (k == c->samples_nr) {
				why = c->prime_failure;
			} else if (!c->samples[k].ok &&
				   !c->samples[k].interrupted) {
				/* Interrupted runs are no failures. */
				why = c->samples[k].failure
					      ? c->samples[k].failure
					      : "unknown";
				tail = c->samples[k].tail;
			}
			if (!why)
				continue;
			if (!any)
				pmbench_buf_adds(out, "<h2 id=\"failures\">"
						      "Failures</h2>\n");
			any = 1;
			pmbench_buf_adds(out, "<div class=\"failure\"><p><b>");
			esc(out, c->pm);
			pmbench_buf_adds(out, "</b>, ");
			esc(out, c->fixture);
			pmbench_buf_adds(out, " · ");
			esc(out, c->task);
			pmbench_buf_adds(out, " · ");
			esc(out, c->scenario);
			if (k == c->samples_nr)
				pmbench_buf_adds(out, ", priming: ");
			else
				pmbench_buf_addf(out, ", round %u: ",
						 c->samples[k].round);
			esc(out, why);
			pmbench_buf_adds(out, "</p>");
			if (tail) {
				pmbench_buf_adds(out, "<pre>");
				esc(out, tail);
				pmbench_buf_adds(out, "</pre>");
			}
			pmbench_buf_adds(out, "</div>\n");
		}
	}
}

static void environment(struct pmbench_buf *out, const struct pmbench_result *r)
{
	pmbench_buf_adds(out, "<h2 id=\"environment\">Environment</h2>\n"
			      "<table class=\"env\">\n");
	for (size_t i = 0; i < r->found_nr; i++) {
		pmbench_buf_adds(out, "<tr><th>");
		esc(out, r->found[i].name);
		pmbench_buf_adds(out, "</th><td>");
		esc(out, r->found[i].version ? r->found[i].version
					     : "not found");
		if (r->found[i].path) {
			pmbench_buf_adds(out, " (");
			esc(out, r->found[i].path);
			pmbench_buf_adds(out, ")");
		}
		pmbench_buf_adds(out, "</td></tr>\n");
	}
	for (size_t i = 0; i < r->env_nr; i++) {
		pmbench_buf_adds(out, "<tr><th>");
		esc(out, r->env[i].key);
		pmbench_buf_adds(out, "</th><td>");
		esc(out, r->env[i].value);
		pmbench_buf_adds(out, "</td></tr>\n");
	}
	for (size_t i = 0; i < r->fixtures_nr; i++) {
		const struct pmbench_result_fixture *f = &r->fixtures[i];

		pmbench_buf_adds(out, "<tr><th>fixture ");
		esc(out, f->name ? f->name : "?");
		pmbench_buf_adds(out, "</th><td>");
		esc(out, f->repo ? f->repo : "(local)");
		if (f->commit) {
			pmbench_buf_adds(out, " @ ");
			esc(out, f->commit);
		}
		if (f->description) {
			pmbench_buf_adds(out, ": ");
			esc(out, f->description);
		}
		pmbench_buf_adds(out, "</td></tr>\n");
	}
	pmbench_buf_adds(out, "</table>\n");
}

void pmbench_report_html(struct pmbench_buf *out,
			 const struct pmbench_report *rep)
{
	const struct pmbench_result *r = rep->result;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_addf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
			      "<meta charset=\"utf-8\">\n"
			      "<meta name=\"viewport\" content=\"width=device-"
			      "width, initial-scale=1\">\n"
			      "<title>pmbench report</title>\n"
			      "<style>%s</style>\n</head>\n<body>\n"
			      "<h1>pmbench report</h1>\n<p>Created ",
			 style);
	esc(out, r->created ? r->created : "(unknown)");
	pmbench_buf_adds(out, " by pmbench ");
	esc(out, r->pmbench_version ? r->pmbench_version : "?");
	if (r->runs_auto)
		pmbench_buf_addf(out, "; <code>--runs auto</code> (target "
				      "±%g%%, at most %u runs)",
				 r->auto_target * 100, r->runs);
	else
		pmbench_buf_addf(out, "; %u timed run(s)", r->runs);
	pmbench_buf_addf(out, " and %u warm-up(s) per cell, seed %llu. "
			      "Bars are medians, whiskers their bootstrap 95%% "
			      "intervals, dots the single runs.</p>\n",
			 r->warmup, (unsigned long long)r->seed);
	for (size_t g = 0; g < rep->cells_nr; g++) {
		const struct pmbench_report_cell *first = &rep->cells[g];

		if (!pmbench_report_group_start(rep, g))
			continue;
		pmbench_buf_adds(out, "<section class=\"scenario\"><h2>");
		esc(out, first->cell->fixture);
		pmbench_buf_adds(out, " · ");
		esc(out, first->cell->task);
		pmbench_buf_adds(out, " · ");
		esc(out, first->cell->scenario);
		pmbench_buf_adds(out, "</h2>\n<p class=\"state\">");
		pmbench_buf_reset(&b);
		pmbench_report_add_state(&b, first->state);
		esc(out, b.ptr);
		if (first->cell->stopped_by) {
			pmbench_buf_adds(out, "; --runs auto stopped by ");
			esc(out, first->cell->stopped_by);
		}
		pmbench_buf_adds(out, "</p>\n");
		pmbench_buf_adds(out, "<p class=\"cap\">Time: median (bar), "
				      "95% interval (whiskers), every run "
				      "(dots)</p>\n");
		time_chart(out, rep, g);
		if (first->fastest >= 0 && rep->cells_nr > 1) {
			pmbench_buf_adds(out, "<p class=\"cap\">Time "
					      "relative to the fastest, ");
			esc(out, rep->cells[first->fastest].cell->pm);
			pmbench_buf_adds(out, " (1x), with 95% intervals; "
					      "grey: no significant "
					      "difference</p>\n");
		}
		ratio_chart(out, rep, g);
		details(out, rep, g);
		pmbench_buf_adds(out, "</section>\n");
	}
	used(out, rep);
	failures(out, rep);
	environment(out, r);
	pmbench_buf_adds(out, "</body>\n</html>\n");
	pmbench_buf_release(&b);
}
