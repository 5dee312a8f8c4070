/*
 * The document model every report kind builds and every format writes
 * (include/pmbench/doc.h). Builders copy what they are given; nothing
 * here knows about results or formats beyond the statistics kept for the
 * hyperfine export.
 */
#include "pmbench/common.h"

#include <strings.h>

#include <stdarg.h>

#include "pmbench/doc.h"
#include "pmbench/report.h"
#include "pmbench/text.h"

/*
 * Every string a document is given is made fit to print here, once for
 * every kind and format: reports show names, paths, commands and PM
 * output from user files, so credentials are redacted and terminal
 * controls escaped (pmbench_text_clean()). Blocks of text keep their
 * line breaks (LINES); a name, a cell or a label is one line.
 */
#define LINES PMBENCH_TEXT_LINES

static char *vfmt(unsigned flags, const char *fmt, va_list ap)
	PMBENCH_PRINTF(2, 0);

static char *vfmt(unsigned flags, const char *fmt, va_list ap)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	char *s;

	pmbench_buf_vaddf(&b, fmt, ap);
	s = pmbench_text_clean_dup(b.ptr, flags);
	pmbench_buf_release(&b);
	return s;
}

static char *clean(const char *s)
{
	return pmbench_text_clean_dup(s, 0);
}

static char *dup_or_null(const char *s)
{
	return s ? pmbench_xstrdup(s) : NULL;
}

void pmbench_doc_init(struct pmbench_doc *d, const char *kind,
		      const char *title)
{
	struct pmbench_doc blank = PMBENCH_DOC_INIT;

	*d = blank;
	d->kind = pmbench_xstrdup(kind);
	d->title = clean(title);
}

void pmbench_doc_term(struct pmbench_doc *d, unsigned width,
		      const char *columns, int wide)
{
	free(d->term.columns);
	d->term.width = width;
	d->term.columns = columns ? pmbench_xstrdup(columns) : NULL;
	d->term.wide = wide;
}

int pmbench_doc_column_is(const struct pmbench_doc_column *c, const char *word,
			  int exact)
{
	size_t n = strlen(word);

	if (exact && c->header && !strcasecmp(c->header, word))
		return 1;
	for (size_t f = 0; f < PMBENCH_DOC_FIELDS && c->fields[f].key; f++) {
		const char *key = c->fields[f].key;

		if (exact ? !strcmp(key, word)
			  : n && !strncmp(key, word, n) && key[n] == '_')
			return 1;
	}
	return 0;
}

void pmbench_doc_column_name(struct pmbench_buf *out,
			     const struct pmbench_doc_column *c)
{
	static const char *const units[] = { "_kib", "_bytes" };
	const char *key = c->fields[0].key;
	size_t n = key ? strlen(key) : 0;

	if (!key) {
		pmbench_buf_adds(out, c->header ? c->header : "");
		return;
	}
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(units); i++) {
		size_t u = strlen(units[i]);

		if (n > u && !strcmp(key + n - u, units[i]))
			n -= u;
	}
	pmbench_buf_add(out, key, n);
}

static void table_release(struct pmbench_doc_table *t)
{
	for (size_t i = 0; i < t->rows_nr; i++) {
		struct pmbench_doc_row *row = &t->rows[i];

		for (size_t k = 0; k < t->cols_nr; k++) {
			free(row->cells[k].text);
			for (size_t f = 0; f < PMBENCH_DOC_FIELDS; f++)
				free(row->cells[k].values[f].str);
		}
		free(row->cells);
		free(row->note);
	}
	free(t->rows);
	for (size_t k = 0; k < t->cols_nr; k++) {
		free((char *)t->cols[k].header);
		for (size_t f = 0; f < PMBENCH_DOC_FIELDS; f++)
			free((char *)t->cols[k].fields[f].key);
	}
	free(t->cols);
	free(t->id);
}

static void chart_release(struct pmbench_doc_chart *c)
{
	for (size_t i = 0; i < c->bars_nr; i++) {
		free(c->bars[i].label);
		free(c->bars[i].dots);
		free(c->bars[i].text);
		free(c->bars[i].group);
		free(c->bars[i].spans);
	}
	free(c->bars);
	pmbench_strvec_release(&c->series);
	pmbench_strvec_release(&c->x_labels);
	free(c->glyphs);
	free(c->name);
	free(c->caption);
	free(c->title);
	free(c->unit);
	free(c->x_unit);
}

void pmbench_doc_release(struct pmbench_doc *d)
{
	struct pmbench_doc blank = PMBENCH_DOC_INIT;

	for (size_t i = 0; i < d->blocks_nr; i++) {
		struct pmbench_doc_block *b = d->blocks[i];

		free(b->text);
		free(b->id);
		pmbench_strvec_release(&b->keys);
		pmbench_strvec_release(&b->items);
		table_release(&b->table);
		chart_release(&b->chart);
		free(b);
	}
	free(d->blocks);
	for (size_t i = 0; i < d->timed_nr; i++) {
		pmbench_report_release(d->timed[i]);
		free(d->timed[i]);
		free(d->timed_labels[i]);
	}
	free(d->timed);
	free(d->timed_labels);
	free(d->kind);
	free(d->title);
	free(d->term.columns);
	free(d->json);
	free(d->csv);
	free(d->json_also);
	free(d->decision);
	*d = blank;
}

const struct pmbench_report *pmbench_doc_attach(struct pmbench_doc *d,
						const struct pmbench_result *r,
						const char *label)
{
	struct pmbench_report *rep = pmbench_xcalloc(1, sizeof(*rep));
	size_t alloc = d->timed_alloc;

	/* Two arrays of one length: both grow by the same rule. */
	PMBENCH_ALLOC_GROW(d->timed, d->timed_nr + 1, d->timed_alloc);
	PMBENCH_ALLOC_GROW(d->timed_labels, d->timed_nr + 1, alloc);
	pmbench_report_init(rep, r);
	d->timed[d->timed_nr] = rep;
	d->timed_labels[d->timed_nr++] = dup_or_null(label);
	return rep;
}

struct pmbench_doc_block *pmbench_doc_add(struct pmbench_doc *d,
					  enum pmbench_doc_kind kind,
					  unsigned audience)
{
	struct pmbench_doc_block *b = pmbench_xcalloc(1, sizeof(*b));

	b->kind = kind;
	b->audience = audience;
	pmbench_strvec_init(&b->keys);
	pmbench_strvec_init(&b->items);
	PMBENCH_ALLOC_GROW(d->blocks, d->blocks_nr + 1, d->blocks_alloc);
	d->blocks[d->blocks_nr++] = b;
	return b;
}

void pmbench_doc_heading(struct pmbench_doc *d, unsigned audience, int level,
			 const char *fmt, ...)
{
	struct pmbench_doc_block *b =
		pmbench_doc_add(d, PMBENCH_DOC_HEADING, audience);
	va_list ap;

	b->level = level < 1 ? 1 : level > 3 ? 3 : level;
	va_start(ap, fmt);
	b->text = vfmt(0, fmt, ap);
	va_end(ap);
}

void pmbench_doc_para(struct pmbench_doc *d, unsigned audience, const char *fmt,
		      ...)
{
	struct pmbench_doc_block *b =
		pmbench_doc_add(d, PMBENCH_DOC_PARAGRAPH, audience);
	va_list ap;

	va_start(ap, fmt);
	b->text = vfmt(LINES, fmt, ap);
	va_end(ap);
}

void pmbench_doc_note(struct pmbench_doc *d, unsigned audience,
		      enum pmbench_doc_kind kind, const char *fmt, ...)
{
	struct pmbench_doc_block *b = pmbench_doc_add(d, kind, audience);
	va_list ap;

	va_start(ap, fmt);
	b->text = vfmt(LINES, fmt, ap);
	va_end(ap);
}

void pmbench_doc_code(struct pmbench_doc *d, unsigned audience,
		      const char *text)
{
	/* A PM's output: its colours dropped, the rest escaped. */
	pmbench_doc_add(d, PMBENCH_DOC_CODE, audience)->text =
		pmbench_text_clean_dup(text, LINES | PMBENCH_TEXT_NO_ANSI);
}

void pmbench_doc_diff(struct pmbench_doc *d, unsigned audience,
		      const char *text)
{
	struct pmbench_doc_block *b =
		pmbench_doc_add(d, PMBENCH_DOC_CODE, audience);

	b->text = pmbench_text_clean_dup(text, LINES);
	b->id = pmbench_xstrdup("diff");
}

struct pmbench_doc_block *pmbench_doc_list(struct pmbench_doc *d,
					   unsigned audience)
{
	return pmbench_doc_add(d, PMBENCH_DOC_LIST, audience);
}

void pmbench_doc_item(struct pmbench_doc_block *b, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = vfmt(LINES, fmt, ap);
	va_end(ap);
	pmbench_strvec_push(&b->items, s);
	free(s);
}

struct pmbench_doc_block *pmbench_doc_kv(struct pmbench_doc *d,
					 unsigned audience, const char *id)
{
	struct pmbench_doc_block *b =
		pmbench_doc_add(d, PMBENCH_DOC_KV, audience);

	b->id = pmbench_xstrdup(id);
	return b;
}

void pmbench_doc_pair(struct pmbench_doc_block *b, const char *key,
		      const char *fmt, ...)
{
	va_list ap;
	char *s, *k;

	va_start(ap, fmt);
	s = vfmt(LINES, fmt, ap);
	va_end(ap);
	k = clean(key);
	pmbench_strvec_push(&b->keys, k);
	pmbench_strvec_push(&b->items, s);
	free(k);
	free(s);
}

struct pmbench_doc_table *
pmbench_doc_table(struct pmbench_doc *d, unsigned audience, const char *id,
		  const struct pmbench_doc_column *cols, size_t cols_nr)
{
	struct pmbench_doc_block *b =
		pmbench_doc_add(d, PMBENCH_DOC_TABLE, audience);
	struct pmbench_doc_table *t = &b->table;

	t->id = pmbench_xstrdup(id);
	t->cols_nr = cols_nr;
	t->cols = pmbench_xcalloc(cols_nr ? cols_nr : 1, sizeof(*t->cols));
	for (size_t k = 0; k < cols_nr; k++) {
		t->cols[k] = cols[k];
		t->cols[k].header = dup_or_null(cols[k].header);
		for (size_t f = 0; f < PMBENCH_DOC_FIELDS; f++)
			t->cols[k].fields[f].key =
				dup_or_null(cols[k].fields[f].key);
	}
	return t;
}

struct pmbench_doc_row *pmbench_doc_row(struct pmbench_doc_table *t)
{
	struct pmbench_doc_row *row;

	PMBENCH_ALLOC_GROW(t->rows, t->rows_nr + 1, t->rows_alloc);
	row = &t->rows[t->rows_nr++];
	memset(row, 0, sizeof(*row));
	row->cells = pmbench_xcalloc(t->cols_nr ? t->cols_nr : 1,
				     sizeof(*row->cells));
	return row;
}

void pmbench_doc_text(struct pmbench_doc_row *row, size_t col, const char *fmt,
		      ...)
{
	va_list ap;

	free(row->cells[col].text);
	va_start(ap, fmt);
	row->cells[col].text = vfmt(0, fmt, ap);
	va_end(ap);
}

void pmbench_doc_num(struct pmbench_doc_row *row, size_t col, size_t field,
		     double v)
{
	struct pmbench_doc_value *x = &row->cells[col].values[field];

	x->set = 1;
	x->num = v;
}

void pmbench_doc_interval(struct pmbench_doc_row *row, size_t col, size_t field,
			  double lo, double hi)
{
	struct pmbench_doc_value *x = &row->cells[col].values[field];

	x->set = 1;
	x->lo = lo;
	x->hi = hi;
}

void pmbench_doc_str(struct pmbench_doc_row *row, size_t col, size_t field,
		     const char *s)
{
	struct pmbench_doc_value *x = &row->cells[col].values[field];

	free(x->str);
	/* Data: CSV and JSON quote line breaks, so they are kept. */
	x->str = pmbench_text_clean_dup(s, LINES);
	x->set = s != NULL;
}

void pmbench_doc_name(struct pmbench_doc_row *row, size_t col, const char *s)
{
	pmbench_doc_text(row, col, "%s", s);
	pmbench_doc_str(row, col, 0, s);
}

void pmbench_doc_row_note(struct pmbench_doc_row *row, size_t from,
			  const char *fmt, ...)
{
	va_list ap;

	free(row->note);
	va_start(ap, fmt);
	row->note = vfmt(0, fmt, ap);
	va_end(ap);
	row->note_from = from;
}

struct pmbench_doc_chart *pmbench_doc_chart(struct pmbench_doc *d,
					    unsigned audience, const char *name,
					    const char *caption,
					    const char *title, const char *unit)
{
	struct pmbench_doc_block *b =
		pmbench_doc_add(d, PMBENCH_DOC_CHART, audience);
	struct pmbench_doc_chart *c = &b->chart;

	c->name = pmbench_xstrdup(name);
	pmbench_strvec_init(&c->series);
	pmbench_strvec_init(&c->x_labels);
	c->caption = clean(caption);
	c->title = clean(title);
	c->unit = pmbench_xstrdup(unit);
	return c;
}

struct pmbench_doc_bar *pmbench_doc_bar(struct pmbench_doc_chart *c,
					const char *label)
{
	struct pmbench_doc_bar *b;

	PMBENCH_ALLOC_GROW(c->bars, c->bars_nr + 1, c->bars_alloc);
	b = &c->bars[c->bars_nr++];
	memset(b, 0, sizeof(*b));
	b->label = clean(label);
	return b;
}

void pmbench_doc_bar_text(struct pmbench_doc_bar *b, const char *fmt, ...)
{
	va_list ap;

	free(b->text);
	va_start(ap, fmt);
	b->text = vfmt(0, fmt, ap);
	va_end(ap);
}

void pmbench_doc_bar_dots(struct pmbench_doc_bar *b, const double *dots,
			  size_t n)
{
	free(b->dots);
	b->dots = NULL;
	b->dots_nr = n;
	if (!n)
		return;
	b->dots = pmbench_xmalloc(pmbench_st_mult(n, sizeof(*dots)));
	memcpy(b->dots, dots, n * sizeof(*dots));
}

void pmbench_doc_series(struct pmbench_doc_chart *c, const char *name,
			char glyph)
{
	size_t n = c->series.nr;
	char *name_clean = clean(name);

	pmbench_strvec_push(&c->series, name_clean);
	free(name_clean);
	c->glyphs = pmbench_xrealloc(c->glyphs, n + 2);
	c->glyphs[n] = glyph >= 0x21 && glyph < 0x7f ? glyph : '#';
	c->glyphs[n + 1] = '\0';
}

void pmbench_doc_bar_span(struct pmbench_doc_bar *b, double from, double to,
			  unsigned series, unsigned lane)
{
	PMBENCH_ALLOC_GROW(b->spans, b->spans_nr + 1, b->spans_alloc);
	b->spans[b->spans_nr++] = (struct pmbench_doc_span){
		.from = from,
		.to = to,
		.series = series,
		.lane = lane,
	};
}

size_t pmbench_doc_display_len(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}
