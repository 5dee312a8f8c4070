/*
 * The terminal format: a heading opens a section whose lines are
 * indented by two spaces (lists by four); tables are aligned on the
 * widest cell with two spaces between columns; notes and warnings say
 * so. Charts and page-only blocks are left out.
 *
 * Fitted to the document's width (doc->term): a table of choices shows
 * its default columns (or those asked for), and drops optional ones from
 * the right while it is too wide; a table still too wide wraps its last
 * column, and text wraps at spaces, so no line is longer than the width.
 */
#include "pmbench/common.h"

#include <stdint.h>

#include "internal.h"
#include "pmbench/strvec.h"

struct text_writer {
	struct pmbench_buf *out;
	size_t start; /* where this document starts in `out` */
	const char *indent;
	int want_gap; /* a blank line before the next block */
	const struct pmbench_doc_term *term;
};

/* The display columns of the `len` bytes at `s` (UTF-8). */
static size_t cols_of(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

/*
 * How many of the `len` bytes at `s` go on a line of `avail` columns:
 * all if they fit, else up to the last space that fits, else as many
 * characters as fit (at least one).
 */
static size_t piece(const char *s, size_t len, size_t avail)
{
	size_t cols = 0, space = 0, i;

	if (cols_of(s, len) <= avail)
		return len;
	for (i = 0; i < len; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (cols == avail)
			break;
		if (s[i] == ' ' && i)
			space = i;
		cols++;
	}
	if (i < len && s[i] == ' ')
		return i;
	if (space)
		return space;
	return i ? i : 1;
}

/* Skip the spaces a line break replaced. */
static size_t skip_spaces(const char *s, size_t i, size_t len)
{
	while (i < len && s[i] == ' ')
		i++;
	return i;
}

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

/*
 * The columns left after `used` on a line of the width, at least 20; a
 * table with --wide is as wide as its columns.
 */
static size_t room(const struct text_writer *w, size_t used, int table)
{
	size_t width = w->term && !(table && w->term->wide) ? w->term->width
							    : 0;

	if (!width)
		return SIZE_MAX;
	return used + 20 <= width ? width - used : 20;
}

/*
 * `text`, line by line, each after `first` (the first) or `rest`; lines
 * longer than the width wrap at spaces, after `rest`.
 */
static void lines(struct text_writer *w, const char *first, const char *rest,
		  const char *text)
{
	const char *p = text ? text : "";
	int first_line = 1;

	if (w->want_gap)
		gap(w);
	do {
		size_t n = strcspn(p, "\n"), i = 0;

		do {
			const char *pre = first_line ? first : rest;
			size_t k =
				piece(p + i, n - i,
				      room(w, pmbench_doc_display_len(pre), 0));

			pmbench_buf_adds(w->out, pre);
			first_line = 0;
			pmbench_buf_add(w->out, p + i, k);
			trim_spaces(w->out);
			pmbench_buf_addch(w->out, '\n');
			i = skip_spaces(p, i + k, n);
		} while (i < n);
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

/* A table of choices: some of its columns are the terminal's default. */
static int choosable(const struct pmbench_doc_table *t)
{
	for (size_t k = 0; k < t->cols_nr; k++)
		if (t->cols[k].flags & PMBENCH_DOC_TERM_DEFAULT)
			return 1;
	return 0;
}

/* Mark the columns `list` names (exact names first, else prefixes). */
static void named(unsigned char *show, const struct pmbench_doc_table *t,
		  const char *list)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;

	pmbench_strvec_split(&v, list, ',');
	for (size_t i = 0; i < v.nr; i++) {
		int found = 0;

		for (int exact = 1; exact >= 0 && !found; exact--)
			for (size_t k = 0; k < t->cols_nr; k++)
				if (t->cols[k].header &&
				    pmbench_doc_column_is(&t->cols[k], v.v[i],
							  exact))
					show[k] = found = 1;
	}
	pmbench_strvec_release(&v);
}

/*
 * Which columns to show: every column with a header, or for a table of
 * choices the kept ones and the default (or named) ones. Returns 1 if
 * the choice was the default one (columns may be dropped to fit).
 */
static int choose(unsigned char *show, const struct pmbench_doc_table *t,
		  const struct pmbench_doc_term *term)
{
	/* Without a width or names (a file): every column. */
	int pick = choosable(t) && term && !term->wide &&
		   (term->width || term->columns);

	for (size_t k = 0; k < t->cols_nr; k++) {
		unsigned f = t->cols[k].flags;

		show[k] = t->cols[k].header &&
			  (!pick || f & PMBENCH_DOC_TERM_KEEP ||
			   (!term->columns && f & PMBENCH_DOC_TERM_DEFAULT));
	}
	if (pick && term->columns)
		named(show, t, term->columns);
	/*
	 * A column no row fills says nothing on a terminal: not shown (a
	 * table of choices' default ones, and any column of a fixed table,
	 * such as compare's phase column for results without phases).
	 */
	for (size_t k = 0; term && !term->wide && !term->columns &&
			   (term->width || pick) && k < t->cols_nr;
	     k++) {
		int any = 0;

		if (t->cols[k].flags & PMBENCH_DOC_TERM_KEEP)
			continue;
		for (size_t i = 0; i < t->rows_nr && !any; i++)
			any = t->rows[i].cells[k].text &&
			      *t->rows[i].cells[k].text;
		if (!any)
			show[k] = 0;
	}
	return pick && !term->columns;
}

/*
 * The line length of the shown columns. The last one, left-aligned,
 * wraps (table_line()): it needs room for its header only, 12 at least.
 */
static size_t line_len(const struct text_writer *w,
		       const struct pmbench_doc_table *t, const size_t *width,
		       const unsigned char *show)
{
	size_t len = pmbench_doc_display_len(w->indent), n = 0, last = 0;
	size_t last_w = 0;

	for (size_t k = 0; k < t->cols_nr; k++)
		if (show[k]) {
			len += width[k] + (n++ ? 2 : 0);
			last = k;
		}
	if (n && !(t->cols[last].flags & PMBENCH_DOC_RIGHT)) {
		last_w = pmbench_doc_display_len(t->cols[last].header);
		if (last_w < 12)
			last_w = 12;
		if (last_w < width[last])
			len -= width[last] - last_w;
	}
	return len;
}

/*
 * Drop default columns from the right (never a kept one) while the
 * table is wider than the terminal.
 */
static void drop_to_fit(const struct text_writer *w,
			const struct pmbench_doc_table *t, const size_t *width,
			unsigned char *show)
{
	size_t max = w->term ? w->term->width : 0;

	for (size_t k = t->cols_nr; max && k-- > 0;) {
		if (line_len(w, t, width, show) <= max)
			return;
		if (show[k] && !(t->cols[k].flags & PMBENCH_DOC_TERM_KEEP))
			show[k] = 0;
	}
}

/*
 * Where the last cell or note starts: at `at`, or, when it does not fit
 * and fewer than 12 columns are left there, on the next line, indented.
 */
static size_t make_room(struct text_writer *w, const char *rest, size_t at)
{
	size_t width = w->term && !w->term->wide ? w->term->width : 0;
	size_t indent = pmbench_doc_display_len(w->indent) + 4;

	if (!rest || !width || at + 12 <= width || at <= indent ||
	    at + pmbench_doc_display_len(rest) <= width)
		return at;
	trim_spaces(w->out);
	pmbench_buf_addch(w->out, '\n');
	for (size_t c = 0; c < indent; c++)
		pmbench_buf_addch(w->out, ' ');
	return indent;
}

/*
 * The last cell or note (NULL: none), starting at column `at`: wrapped
 * to the terminal, each further line indented to `at`.
 */
static void wrap_rest(struct text_writer *w, const char *rest, size_t at)
{
	for (size_t i = 0; rest && (!i || rest[i]);) {
		size_t n = strlen(rest), k;

		if (i) {
			pmbench_buf_addch(w->out, '\n');
			for (size_t c = 0; c < at; c++)
				pmbench_buf_addch(w->out, ' ');
		}
		k = piece(rest + i, n - i, room(w, at, 1));
		pmbench_buf_add(w->out, rest + i, k);
		trim_spaces(w->out);
		i = skip_spaces(rest, i + k, n);
		if (!rest[i])
			break;
	}
}

/* One table line with its cells; a long last cell or note wraps. */
static void table_line(struct text_writer *w, const struct pmbench_doc_table *t,
		       const struct pmbench_doc_row *row, const size_t *width,
		       const unsigned char *show)
{
	const char *rest = NULL;
	size_t at = 0, last = t->cols_nr;
	int first = 1;

	for (size_t k = 0; k < t->cols_nr; k++)
		if (show[k] && (!row || shown(row, k)))
			last = k;
	pmbench_buf_adds(w->out, w->indent);
	at = pmbench_doc_display_len(w->indent);
	for (size_t k = 0; k < t->cols_nr; k++) {
		const struct pmbench_doc_column *col = &t->cols[k];
		const char *s = row ? row->cells[k].text : col->header;

		if (!show[k])
			continue;
		if (row && !shown(row, k))
			break;
		if (!first) {
			pmbench_buf_adds(w->out, "  ");
			at += 2;
		}
		first = 0;
		if (k == last && (!row || !row->note) &&
		    !(col->flags & PMBENCH_DOC_RIGHT)) {
			rest = s ? s : "";
			break;
		}
		pad(w->out, s, width[k], col->flags & PMBENCH_DOC_RIGHT);
		at += width[k];
	}
	if (row && row->note) {
		if (!first) {
			pmbench_buf_adds(w->out, "  ");
			at += 2;
		}
		rest = row->note;
	}
	wrap_rest(w, rest, make_room(w, rest, at));
	trim_spaces(w->out);
	pmbench_buf_addch(w->out, '\n');
}

static void table(struct text_writer *w, const struct pmbench_doc_table *t)
{
	size_t *width = pmbench_xcalloc(t->cols_nr + 1, sizeof(*width));
	unsigned char *show = pmbench_xcalloc(t->cols_nr + 1, 1);
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
	if (choose(show, t, w->term))
		drop_to_fit(w, t, width, show);
	if (w->want_gap)
		gap(w);
	/* A table whose shown headers are all empty has no header line. */
	for (size_t k = 0; k < t->cols_nr && !titled; k++)
		titled = show[k] && *t->cols[k].header;
	for (size_t i = !titled; i <= t->rows_nr; i++)
		table_line(w, t, i ? &t->rows[i - 1] : NULL, width, show);
	free(width);
	free(show);
}

static void kv(struct text_writer *w, const struct pmbench_doc_block *b)
{
	if (w->want_gap)
		gap(w);
	for (size_t i = 0; i < b->keys.nr; i++) {
		struct pmbench_buf line = PMBENCH_BUF_INIT;
		const char *indent = w->indent;

		pmbench_buf_addf(&line, "%s: %s", b->keys.v[i], b->items.v[i]);
		lines(w, indent, *indent ? "      " : "    ", line.ptr);
		pmbench_buf_release(&line);
	}
}

/* Bars of letters: the terminal's charts (stacked bars only). */
#define BAR_MIN	  8
#define BAR_MAX	  40
#define BAR_UNFIT 30

static int stackable(const struct pmbench_doc_chart *c)
{
	return c->series.nr && c->glyphs && !c->waterfall && c->bars_nr;
}

/*
 * "[ssssnnnnnnnnnnnnwwx]": the spans of `b` at `max`, in `cols` columns
 * with the brackets (each span ends where its end falls, so a span
 * shorter than half a letter is not drawn).
 */
static void letters(struct pmbench_buf *out, const struct pmbench_doc_chart *c,
		    const struct pmbench_doc_bar *b, size_t cols, double max)
{
	size_t at = 0;

	cols -= 2;

	pmbench_buf_addch(out, '[');
	for (size_t k = 0; k < b->spans_nr; k++) {
		const struct pmbench_doc_span *sp = &b->spans[k];
		double end = sp->to / max * (double)cols;
		size_t to = end > (double)cols ? cols : (size_t)(end + 0.5);
		char g = sp->series < c->series.nr ? c->glyphs[sp->series]
						   : '#';

		for (; at < to; at++)
			pmbench_buf_addch(out, g);
	}
	pmbench_buf_addch(out, ']');
}

/*
 * A stacked chart on the terminal: its caption and legend, then a line
 * per bar, its label, its spans as letters in proportion to its whole
 * (every bar as wide as the line leaves room for: the split, which the
 * table above cannot show; the sizes are in the text) and its text; a
 * line too long wraps its text under it.
 */
static void stacked(struct text_writer *w, const struct pmbench_doc_chart *c)
{
	struct pmbench_buf line = PMBENCH_BUF_INIT, rest = PMBENCH_BUF_INIT;
	size_t label = 0, text = 0, cols = BAR_UNFIT, width = room(w, 0, 0);

	for (size_t i = 0; i < c->bars_nr; i++) {
		const struct pmbench_doc_bar *b = &c->bars[i];

		if (pmbench_doc_display_len(b->label) > label)
			label = pmbench_doc_display_len(b->label);
		if (pmbench_doc_display_len(b->text) > text)
			text = pmbench_doc_display_len(b->text);
	}
	if (width != SIZE_MAX) {
		size_t used =
			pmbench_doc_display_len(w->indent) + label + text + 4;

		cols = used + BAR_MIN < width ? width - used : BAR_MIN;
		cols = cols > BAR_MAX ? BAR_MAX : cols;
	}
	/* Room for the brackets and a letter a series. */
	if (cols < c->series.nr + 2)
		cols = c->series.nr + 2;
	for (size_t k = 0; k < c->series.nr; k++)
		pmbench_buf_addf(&line, "%s%c %s", k ? " · " : "", c->glyphs[k],
				 c->series.v[k]);
	pmbench_buf_addf(&rest, "%s:\n%s", c->caption ? c->caption : "",
			 line.ptr);
	lines(w, w->indent, w->indent, rest.ptr);
	pmbench_buf_reset(&rest);
	for (size_t i = 0; i < c->bars_nr; i++) {
		const struct pmbench_doc_bar *b = &c->bars[i];

		pmbench_buf_reset(&line);
		pad(&line, b->label, label, 0);
		pmbench_buf_adds(&line, "  ");
		if (b->has_value && b->value > 0)
			letters(&line, c, b, cols, b->value);
		while (pmbench_doc_display_len(line.ptr) < label + cols + 2)
			pmbench_buf_addch(&line, ' ');
		pmbench_buf_addf(&line, "  %s", b->text ? b->text : "");
		pmbench_buf_reset(&rest);
		pmbench_buf_addf(&rest, "%s%*s", w->indent, (int)(label + 4),
				 "");
		lines(w, w->indent, rest.ptr, line.ptr);
	}
	pmbench_buf_release(&line);
	pmbench_buf_release(&rest);
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
		/* Stacked bars as letters; other charts are for pages. */
		if (stackable(&b->chart))
			stacked(w, &b->chart);
		break;
	}
	pmbench_buf_release(&first);
}

int pmbench_fmt_text(struct pmbench_buf *out, const struct pmbench_doc *doc)
{
	struct text_writer w = { out, out->len, "", 0, &doc->term };

	if (doc->flags & PMBENCH_DOC_TITLE_ON_TERM) {
		pmbench_buf_addf(out, "%s\n", doc->title);
		w.want_gap = 1;
	}
	for (size_t i = 0; i < doc->blocks_nr; i++)
		if (doc->blocks[i]->audience & PMBENCH_DOC_TERM)
			block(&w, doc->blocks[i]);
	return 0;
}
