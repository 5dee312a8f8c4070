/*
 * Markdown: the title as the page's heading, sections as "##", pipe
 * tables, notes in bold, failures' output in fenced code blocks. Charts
 * are left out (a README links the svg format's image instead). Text
 * from the document is text: nothing in it makes Markdown or HTML (a
 * name with "\n# x" or "<img onerror>" in it is shown as it is).
 */
#include "pmbench/common.h"

#include <ctype.h>

#include "internal.h"

/*
 * Text inside a line: what makes emphasis, code, links, tables or HTML
 * escaped ('<' and an entity's '&' as entities, the rest with a
 * backslash); tabs and carriage returns as spaces.
 */
static void md_escape(struct pmbench_buf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i], next = i + 1 < n ? s[i + 1] : '\0';

		if (c == '<')
			pmbench_buf_adds(out, "&lt;");
		else if (c == '&' &&
			 (isalpha((unsigned char)next) || next == '#'))
			pmbench_buf_adds(out, "&amp;");
		else if (c == '\t' || c == '\r')
			pmbench_buf_addch(out, ' ');
		else if (strchr("`*[]|", c) ||
			 (c == '\\' && ispunct((unsigned char)next)))
			pmbench_buf_addf(out, "\\%c", c);
		else
			pmbench_buf_addch(out, c);
	}
}

/* Does the marker at s[i] end there (a blank or the line's end next)? */
static int md_ends(const char *s, size_t n, size_t i)
{
	return i + 1 >= n || s[i + 1] == ' ' || s[i + 1] == '\t';
}

/*
 * The start of a line of text (`n` bytes): what would make it a block,
 * a heading, a quote, a list item, a fence, a rule or a setext
 * underline, escaped. Returns the bytes written so.
 */
static size_t md_start(struct pmbench_buf *out, const char *s, size_t n)
{
	size_t i = 0, d;

	while (i < n && s[i] == ' ')
		pmbench_buf_addch(out, s[i++]);
	for (d = i; d < n && d - i < 10 && isdigit((unsigned char)s[d]); d++)
		;
	if (d > i && d < n && (s[d] == '.' || s[d] == ')') &&
	    md_ends(s, n, d)) {
		pmbench_buf_add(out, s + i, d - i);
		pmbench_buf_addf(out, "\\%c", s[d]);
		return d + 1;
	}
	if (i < n &&
	    (strchr("#>", s[i]) || (strchr("-+*=_~", s[i]) &&
				    (md_ends(s, n, i) || s[i + 1] == s[i])))) {
		pmbench_buf_addf(out, "\\%c", s[i]);
		return i + 1;
	}
	return i;
}

/* One line of text, escaped. */
static void md_line(struct pmbench_buf *out, const char *s, size_t n)
{
	size_t used = md_start(out, s, n);

	md_escape(out, s + used, n - used);
}

/* Text for a table cell, a heading or an item: its lines kept as <br>. */
static void md_cell(struct pmbench_buf *out, const char *s)
{
	for (const char *p = s; p && *p;) {
		size_t n = strcspn(p, "\n");

		md_line(out, p, n);
		p += n;
		if (*p && *++p)
			pmbench_buf_adds(out, "<br>");
	}
}

/* A fenced code block whose fence cannot occur in the text. */
static void md_code(struct pmbench_buf *out, const char *text, const char *lang)
{
	size_t fence = 3, run = 0;

	for (const char *p = text; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run >= fence)
			fence = run + 1;
	}
	for (size_t i = 0; i < fence; i++)
		pmbench_buf_addch(out, '`');
	pmbench_buf_addf(out, "%s\n%s", lang ? lang : "", text);
	if (!*text || text[strlen(text) - 1] != '\n')
		pmbench_buf_addch(out, '\n');
	for (size_t i = 0; i < fence; i++)
		pmbench_buf_addch(out, '`');
	pmbench_buf_adds(out, "\n\n");
}

/* Lines of a paragraph, each but the last ending in a hard break. */
static void md_lines(struct pmbench_buf *out, const char *text)
{
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");

		md_line(out, p, n);
		p += n;
		if (*p)
			p++;
		pmbench_buf_adds(out, *p ? "  \n" : "\n");
	}
	pmbench_buf_addch(out, '\n');
}

static void md_table(struct pmbench_buf *out, const struct pmbench_doc_table *t)
{
	pmbench_buf_addch(out, '|');
	for (size_t k = 0; k < t->cols_nr; k++) {
		if (!t->cols[k].header)
			continue;
		pmbench_buf_addch(out, ' ');
		md_cell(out, t->cols[k].header);
		pmbench_buf_adds(out, " |");
	}
	pmbench_buf_adds(out, "\n|");
	for (size_t k = 0; k < t->cols_nr; k++)
		if (t->cols[k].header)
			pmbench_buf_adds(out, "---|");
	pmbench_buf_addch(out, '\n');
	for (size_t i = 0; i < t->rows_nr; i++) {
		const struct pmbench_doc_row *row = &t->rows[i];
		int noted = 0;

		pmbench_buf_addch(out, '|');
		for (size_t k = 0; k < t->cols_nr; k++) {
			const char *s = row->cells[k].text;

			if (!t->cols[k].header)
				continue;
			/* The note fills the first cell it spans. */
			if (row->note && k >= row->note_from) {
				s = noted ? NULL : row->note;
				noted = 1;
			}
			pmbench_buf_addch(out, ' ');
			md_cell(out, s);
			pmbench_buf_adds(out, " |");
		}
		pmbench_buf_addch(out, '\n');
	}
	pmbench_buf_addch(out, '\n');
}

static void md_block(struct pmbench_buf *out, const struct pmbench_doc_block *b)
{
	switch (b->kind) {
	case PMBENCH_DOC_HEADING:
		pmbench_buf_adds(out, b->level < 3 ? "## " : "### ");
		md_cell(out, b->text);
		pmbench_buf_adds(out, "\n\n");
		break;
	case PMBENCH_DOC_PARAGRAPH:
		md_lines(out, b->text);
		break;
	case PMBENCH_DOC_NOTE:
	case PMBENCH_DOC_WARNING:
		pmbench_buf_adds(out, b->kind == PMBENCH_DOC_NOTE
					      ? "**Note:** "
					      : "**Warning:** ");
		md_lines(out, b->text);
		break;
	case PMBENCH_DOC_LIST:
		for (size_t i = 0; i < b->items.nr; i++) {
			pmbench_buf_adds(out, "- ");
			md_cell(out, b->items.v[i]);
			pmbench_buf_addch(out, '\n');
		}
		pmbench_buf_addch(out, '\n');
		break;
	case PMBENCH_DOC_KV:
		pmbench_buf_adds(out, "| | |\n|---|---|\n");
		for (size_t i = 0; i < b->keys.nr; i++) {
			pmbench_buf_adds(out, "| ");
			md_cell(out, b->keys.v[i]);
			pmbench_buf_adds(out, " | ");
			md_cell(out, b->items.v[i]);
			pmbench_buf_adds(out, " |\n");
		}
		pmbench_buf_addch(out, '\n');
		break;
	case PMBENCH_DOC_TABLE:
		md_table(out, &b->table);
		break;
	case PMBENCH_DOC_CODE:
		md_code(out, b->text, b->id);
		break;
	case PMBENCH_DOC_CHART:
		break;
	}
}

int pmbench_fmt_markdown(struct pmbench_buf *out, const struct pmbench_doc *doc)
{
	pmbench_buf_adds(out, "# ");
	md_cell(out, doc->title);
	pmbench_buf_adds(out, "\n\n");
	for (size_t i = 0; i < doc->blocks_nr; i++)
		if (doc->blocks[i]->audience & PMBENCH_DOC_PAGE)
			md_block(out, doc->blocks[i]);
	/* One newline at the end, not a blank line. */
	while (out->len > 1 && out->ptr[out->len - 1] == '\n' &&
	       out->ptr[out->len - 2] == '\n')
		pmbench_buf_setlen(out, out->len - 1);
	return 0;
}
