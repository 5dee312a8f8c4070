/*
 * The terminal format: a heading opens a section whose lines are
 * indented by two spaces (lists by four); tables are aligned on the
 * widest cell with two spaces between columns; notes and warnings say
 * so. Charts and page-only blocks are left out.
 */
#include "pmbench/common.h"

#include "internal.h"

struct text_writer {
	struct pmbench_buf *out;
	size_t start; /* where this document starts in `out` */
	const char *indent;
	int want_gap; /* a blank line before the next block */
};

/* One blank line before what comes next, unless at the start. */
static void gap(struct text_writer *w)
{
	const struct pmbench_buf *o = w->out;

	w->want_gap = 0;
	if (o->len <= w->start)
		return;
	if (o->len - w->start >= 2 && o->ptr[o->len - 1] == '\n' &&
	    o->ptr[o->len - 2] == '\n')
		return;
	pmbench_buf_addch(w->out, '\n');
}

/* Drop the spaces at the end of the line being written. */
static void trim_spaces(struct pmbench_buf *b)
{
	size_t len = b->len;

	while (len && (b->ptr[len - 1] == ' ' || b->ptr[len - 1] == '\t'))
		len--;
	pmbench_buf_setlen(b, len);
}

/* `text`, line by line, each after `first` (the first) or `rest`. */
static void lines(struct text_writer *w, const char *first, const char *rest,
		  const char *text)
{
	const char *p = text ? text : "";
	int first_line = 1;

	if (w->want_gap)
		gap(w);
	do {
		size_t n = strcspn(p, "\n");

		pmbench_buf_adds(w->out, first_line ? first : rest);
		first_line = 0;
		pmbench_buf_add(w->out, p, n);
		trim_spaces(w->out);
		pmbench_buf_addch(w->out, '\n');
		p += n;
		if (*p)
			p++;
	} while (*p);
}

static void pad(struct pmbench_buf *b, const char *s, size_t width, int right)
{
	size_t len = pmbench_doc_display_len(s);

	if (right)
		while (len++ < width)
			pmbench_buf_addch(b, ' ');
	pmbench_buf_adds(b, s ? s : "");
	if (!right)
		while (len++ < width)
			pmbench_buf_addch(b, ' ');
}

/* Is column k shown in `row` (not under its note)? */
static int shown(const struct pmbench_doc_row *row, size_t k)
{
	return !row->note || k < row->note_from;
}

static void table(struct text_writer *w, const struct pmbench_doc_table *t)
{
	size_t *width = pmbench_xcalloc(t->cols_nr + 1, sizeof(*width));
	int titled = 0;

	for (size_t k = 0; k < t->cols_nr; k++) {
		width[k] = pmbench_doc_display_len(t->cols[k].header);
		for (size_t i = 0; i < t->rows_nr; i++) {
			const char *s = t->rows[i].cells[k].text;

			if (shown(&t->rows[i], k) &&
			    pmbench_doc_display_len(s) > width[k])
				width[k] = pmbench_doc_display_len(s);
		}
	}
	if (w->want_gap)
		gap(w);
	/* A table whose headers are all empty has no header line. */
	for (size_t k = 0; k < t->cols_nr && !titled; k++)
		titled = t->cols[k].header && *t->cols[k].header;
	for (size_t i = !titled; i <= t->rows_nr; i++) {
		const struct pmbench_doc_row *row = i ? &t->rows[i - 1] : NULL;
		int first = 1;

		pmbench_buf_adds(w->out, w->indent);
		for (size_t k = 0; k < t->cols_nr; k++) {
			const struct pmbench_doc_column *col = &t->cols[k];

			if (!col->header)
				continue;
			if (row && !shown(row, k))
				break;
			if (!first)
				pmbench_buf_adds(w->out, "  ");
			first = 0;
			pad(w->out, row ? row->cells[k].text : col->header,
			    width[k], col->flags & PMBENCH_DOC_RIGHT);
		}
		if (row && row->note)
			pmbench_buf_addf(w->out, "%s%s", first ? "" : "  ",
					 row->note);
		trim_spaces(w->out);
		pmbench_buf_addch(w->out, '\n');
	}
	free(width);
}

static void kv(struct text_writer *w, const struct pmbench_doc_block *b)
{
	if (w->want_gap)
		gap(w);
	for (size_t i = 0; i < b->keys.nr; i++)
		pmbench_buf_addf(w->out, "%s%s: %s\n", w->indent, b->keys.v[i],
				 b->items.v[i]);
}

static void block(struct text_writer *w, const struct pmbench_doc_block *b)
{
	struct pmbench_buf first = PMBENCH_BUF_INIT;
	int in_section = *w->indent != '\0';

	switch (b->kind) {
	case PMBENCH_DOC_HEADING:
		gap(w);
		pmbench_buf_addf(w->out, "%s\n", b->text);
		w->indent = b->level > 1 ? "  " : "";
		w->want_gap = b->level == 1;
		break;
	case PMBENCH_DOC_PARAGRAPH:
	case PMBENCH_DOC_CODE:
		lines(w, w->indent, w->indent, b->text);
		break;
	case PMBENCH_DOC_NOTE:
	case PMBENCH_DOC_WARNING:
		pmbench_buf_addf(&first, "%s%s: ", w->indent,
				 b->kind == PMBENCH_DOC_NOTE ? "note"
							     : "warning");
		lines(w, first.ptr, w->indent, b->text);
		break;
	case PMBENCH_DOC_LIST:
		for (size_t i = 0; i < b->items.nr; i++)
			lines(w, in_section ? "    " : "",
			      in_section ? "      " : "  ", b->items.v[i]);
		break;
	case PMBENCH_DOC_KV:
		kv(w, b);
		break;
	case PMBENCH_DOC_TABLE:
		table(w, &b->table);
		break;
	case PMBENCH_DOC_CHART:
		/* Charts are for pages and images. */
		break;
	}
	pmbench_buf_release(&first);
}

int pmbench_fmt_text(struct pmbench_buf *out, const struct pmbench_doc *doc)
{
	struct text_writer w = { out, out->len, "", 0 };

	if (doc->flags & PMBENCH_DOC_TITLE_ON_TERM) {
		pmbench_buf_addf(out, "%s\n", doc->title);
		w.want_gap = 1;
	}
	for (size_t i = 0; i < doc->blocks_nr; i++)
		if (doc->blocks[i]->audience & PMBENCH_DOC_TERM)
			block(&w, doc->blocks[i]);
	return 0;
}
