/*
 * HTML: one self-contained page with inline CSS and the SVG charts
 * pmbench draws itself (fmt_svg.c). No script and no external resource,
 * so it opens offline and passes any content security policy. Each
 * section of the document is a <section>.
 */
#include "pmbench/common.h"

#include "internal.h"

static void esc(struct pmbench_buf *out, const char *s)
{
	pmbench_fmt_xml_escape(out, s);
}

static const char style[] =
	"body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;"
	"max-width:1100px;padding:0 16px;color:#1d2433;background:#fff}"
	"h1{font-size:24px}h2{font-size:18px;margin-top:36px;"
	"border-bottom:1px solid #d6dbe4}h3{font-size:15px}"
	"table{border-collapse:collapse;margin:10px 0;font-size:13px}"
	"td,th{border:1px solid #d6dbe4;padding:3px 8px;text-align:left}"
	"th{background:#f1f4f9}.kv th{background:none}"
	".warn{color:#9a5b00}.note{color:#4a5568}"
	"pre{background:#f6f8fa;border:1px solid #d6dbe4;padding:8px;"
	"overflow:auto;font-size:12px}"
	"svg{display:block;margin:8px 0}.cap{margin:14px 0 0;color:#4a5568}"
	"svg text{font:12px system-ui,sans-serif;fill:#1d2433}"
	"svg text.group{font-weight:600}";

/* Text with its line breaks kept. */
static void esc_lines(struct pmbench_buf *out, const char *s)
{
	for (const char *p = s; p && *p;) {
		size_t n = strcspn(p, "\n");
		char *line = pmbench_xstrndup(p, n);

		esc(out, line);
		free(line);
		p += n;
		if (*p) {
			p++;
			if (*p)
				pmbench_buf_adds(out, "<br>");
		}
	}
}

static void html_table(struct pmbench_buf *out,
		       const struct pmbench_doc_table *t)
{
	size_t shown = 0;

	pmbench_buf_adds(out, "<table class=\"");
	esc(out, t->id);
	pmbench_buf_adds(out, "\"><tr>");
	for (size_t k = 0; k < t->cols_nr; k++) {
		if (!t->cols[k].header)
			continue;
		shown++;
		pmbench_buf_adds(out, "<th>");
		esc(out, t->cols[k].header);
		pmbench_buf_adds(out, "</th>");
	}
	pmbench_buf_adds(out, "</tr>\n");
	for (size_t i = 0; i < t->rows_nr; i++) {
		const struct pmbench_doc_row *row = &t->rows[i];
		size_t col = 0;

		pmbench_buf_adds(out, "<tr>");
		for (size_t k = 0; k < t->cols_nr; k++) {
			if (!t->cols[k].header)
				continue;
			if (row->note && k >= row->note_from)
				break;
			col++;
			pmbench_buf_adds(out, "<td>");
			esc(out, row->cells[k].text);
			pmbench_buf_adds(out, "</td>");
		}
		if (row->note) {
			pmbench_buf_addf(out, "<td colspan=\"%zu\">",
					 shown > col ? shown - col : 1);
			esc(out, row->note);
			pmbench_buf_adds(out, "</td>");
		}
		pmbench_buf_adds(out, "</tr>\n");
	}
	pmbench_buf_adds(out, "</table>\n");
}

struct html_writer {
	struct pmbench_buf *out;
	int in_section;
	/* The charts' names seen: the first of each is an anchor (#time). */
	struct pmbench_strvec charts;
};

static void close_section(struct html_writer *w)
{
	if (w->in_section)
		pmbench_buf_adds(w->out, "</section>\n");
	w->in_section = 0;
}

/* Preformatted text; its `id` (a language: "diff") as its class. */
static void html_code(struct pmbench_buf *out,
		      const struct pmbench_doc_block *b)
{
	pmbench_buf_adds(out, "<pre");
	if (b->id) {
		pmbench_buf_adds(out, " class=\"");
		esc(out, b->id);
		pmbench_buf_adds(out, "\"");
	}
	pmbench_buf_adds(out, ">");
	esc(out, b->text);
	pmbench_buf_adds(out, "</pre>\n");
}

/* A heading: level 1 and 2 open a new <section>, deeper ones an <h3>. */
static void html_heading(struct html_writer *w,
			 const struct pmbench_doc_block *b)
{
	struct pmbench_buf *out = w->out;

	if (b->level < 3) {
		close_section(w);
		pmbench_buf_adds(out, "<section><h2>");
		w->in_section = 1;
	} else {
		pmbench_buf_adds(out, "<h3>");
	}
	esc(out, b->text);
	pmbench_buf_adds(out, b->level < 3 ? "</h2>\n" : "</h3>\n");
}

/* A bullet list, or key/value pairs as a two-column table. */
static void html_items(struct pmbench_buf *out,
		       const struct pmbench_doc_block *b)
{
	if (b->kind == PMBENCH_DOC_LIST) {
		pmbench_buf_adds(out, "<ul>\n");
		for (size_t i = 0; i < b->items.nr; i++) {
			pmbench_buf_adds(out, "<li>");
			esc_lines(out, b->items.v[i]);
			pmbench_buf_adds(out, "</li>\n");
		}
		pmbench_buf_adds(out, "</ul>\n");
		return;
	}
	pmbench_buf_adds(out, "<table class=\"kv\">\n");
	for (size_t i = 0; i < b->keys.nr; i++) {
		pmbench_buf_adds(out, "<tr><th>");
		esc(out, b->keys.v[i]);
		pmbench_buf_adds(out, "</th><td>");
		esc(out, b->items.v[i]);
		pmbench_buf_adds(out, "</td></tr>\n");
	}
	pmbench_buf_adds(out, "</table>\n");
}

/* A chart with its anchor (the first of its name only) and caption. */
static void html_chart(struct html_writer *w, const struct pmbench_doc_block *b)
{
	struct pmbench_buf *out = w->out;

	if (!b->chart.bars_nr)
		return;
	if (pmbench_strvec_find(&w->charts, b->chart.name) < 0) {
		pmbench_strvec_push(&w->charts, b->chart.name);
		pmbench_buf_adds(out, "<a id=\"");
		esc(out, b->chart.name);
		pmbench_buf_adds(out, "\"></a>");
	}
	if (b->chart.caption) {
		pmbench_buf_adds(out, "<p class=\"cap\">");
		esc(out, b->chart.caption);
		pmbench_buf_adds(out, "</p>\n");
	}
	pmbench_fmt_chart(out, &b->chart, -1);
}

static void html_block(struct html_writer *w, const struct pmbench_doc_block *b)
{
	struct pmbench_buf *out = w->out;

	switch (b->kind) {
	case PMBENCH_DOC_HEADING:
		html_heading(w, b);
		break;
	case PMBENCH_DOC_PARAGRAPH:
		pmbench_buf_adds(out, "<p>");
		esc_lines(out, b->text);
		pmbench_buf_adds(out, "</p>\n");
		break;
	case PMBENCH_DOC_NOTE:
	case PMBENCH_DOC_WARNING:
		pmbench_buf_adds(out, b->kind == PMBENCH_DOC_NOTE
					      ? "<p class=\"note\">note: "
					      : "<p class=\"warn\">warning: ");
		esc_lines(out, b->text);
		pmbench_buf_adds(out, "</p>\n");
		break;
	case PMBENCH_DOC_LIST:
	case PMBENCH_DOC_KV:
		html_items(out, b);
		break;
	case PMBENCH_DOC_TABLE:
		html_table(out, &b->table);
		break;
	case PMBENCH_DOC_CHART:
		html_chart(w, b);
		break;
	case PMBENCH_DOC_CODE:
		html_code(out, b);
		break;
	}
}

int pmbench_fmt_html(struct pmbench_buf *out, const struct pmbench_doc *doc)
{
	struct html_writer w = { out, 0, PMBENCH_STRVEC_INIT };

	pmbench_buf_addf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
			      "<meta charset=\"utf-8\">\n"
			      "<meta name=\"viewport\" content=\"width=device-"
			      "width, initial-scale=1\">\n<title>");
	esc(out, doc->title);
	pmbench_buf_addf(out,
			 "</title>\n<style>%s</style>\n</head>\n<body>\n"
			 "<h1>",
			 style);
	esc(out, doc->title);
	pmbench_buf_adds(out, "</h1>\n");
	for (size_t i = 0; i < doc->blocks_nr; i++)
		if (doc->blocks[i]->audience & PMBENCH_DOC_PAGE)
			html_block(&w, doc->blocks[i]);
	close_section(&w);
	pmbench_strvec_release(&w.charts);
	pmbench_buf_adds(out, "</body>\n</html>\n");
	return 0;
}
