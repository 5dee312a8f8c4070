/*
 * CSV (RFC 4180, CRLF): one table of the document, the one the kind
 * names (a bench result's every run), else its first data table; tables
 * that share that id are one. The header is the fields' keys, an
 * interval is two columns (<key>_lo, <key>_hi), and a row's note is the
 * last column, "note", when any row has one.
 */
#include "pmbench/common.h"

#include "internal.h"

static void csv_field(struct pmbench_buf *out, const char *s)
{
	if (!s)
		return;
	if (!s[strcspn(s, ",\"\r\n")]) {
		pmbench_buf_adds(out, s);
		return;
	}
	pmbench_buf_addch(out, '"');
	for (; *s; s++) {
		if (*s == '"')
			pmbench_buf_addch(out, '"');
		pmbench_buf_addch(out, *s);
	}
	pmbench_buf_addch(out, '"');
}

static void csv_number(struct pmbench_buf *out, enum pmbench_doc_type type,
		       double v)
{
	switch (type) {
	case PMBENCH_DOC_SECONDS:
		/* Nanoseconds survive: nine decimals. */
		pmbench_buf_addf(out, "%.9f", v);
		break;
	case PMBENCH_DOC_COUNT:
		pmbench_buf_addf(out, "%.0f", v);
		break;
	case PMBENCH_DOC_FLAG:
		pmbench_buf_adds(out, v != 0 ? "1" : "0");
		break;
	default:
		pmbench_buf_addf(out, "%.10g", v);
	}
}

/* The data tables of `doc` named `id`. */
static int is_data(const struct pmbench_doc_block *b, const char *id)
{
	return b->kind == PMBENCH_DOC_TABLE && b->audience & PMBENCH_DOC_DATA &&
	       (!id || !strcmp(b->table.id, id));
}

static void header(struct pmbench_buf *out, const struct pmbench_doc_table *t,
		   int notes)
{
	int first = 1;

	for (size_t k = 0; k < t->cols_nr; k++) {
		for (size_t f = 0; f < PMBENCH_DOC_FIELDS; f++) {
			const struct pmbench_doc_field *fd =
				&t->cols[k].fields[f];

			if (!fd->key)
				break;
			if (!first)
				pmbench_buf_addch(out, ',');
			first = 0;
			csv_field(out, fd->key);
			if (fd->flags & PMBENCH_DOC_INTERVAL) {
				pmbench_buf_adds(out, "_lo,");
				csv_field(out, fd->key);
				pmbench_buf_adds(out, "_hi");
			}
		}
	}
	if (notes)
		pmbench_buf_adds(out, first ? "note" : ",note");
	pmbench_buf_adds(out, "\r\n");
}

static void row(struct pmbench_buf *out, const struct pmbench_doc_table *t,
		const struct pmbench_doc_row *r, int notes)
{
	int first = 1;

	for (size_t k = 0; k < t->cols_nr; k++) {
		for (size_t f = 0; f < PMBENCH_DOC_FIELDS; f++) {
			const struct pmbench_doc_field *fd =
				&t->cols[k].fields[f];
			const struct pmbench_doc_value *v =
				&r->cells[k].values[f];

			if (!fd->key)
				break;
			if (!first)
				pmbench_buf_addch(out, ',');
			first = 0;
			if (fd->flags & PMBENCH_DOC_INTERVAL) {
				/* Two columns, empty when unset. */
				if (v->set)
					csv_number(out, fd->type, v->lo);
				pmbench_buf_addch(out, ',');
				if (v->set)
					csv_number(out, fd->type, v->hi);
			} else if (v->set && fd->type == PMBENCH_DOC_TEXT) {
				csv_field(out, v->str);
			} else if (v->set) {
				csv_number(out, fd->type, v->num);
			}
		}
	}
	if (notes) {
		if (!first)
			pmbench_buf_addch(out, ',');
		csv_field(out, r->note);
	}
	pmbench_buf_adds(out, "\r\n");
}

int pmbench_fmt_csv(struct pmbench_buf *out, const struct pmbench_doc *doc)
{
	const struct pmbench_doc_table *first = NULL;
	const char *id = doc->csv;
	int notes = 0;

	for (size_t i = 0; i < doc->blocks_nr && !first; i++)
		if (is_data(doc->blocks[i], id))
			first = &doc->blocks[i]->table;
	if (!first)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "this %s report has no table to "
					  "write as CSV",
					  doc->kind);
	id = first->id;
	for (size_t i = 0; i < doc->blocks_nr; i++) {
		const struct pmbench_doc_table *t = &doc->blocks[i]->table;

		if (!is_data(doc->blocks[i], id))
			continue;
		for (size_t j = 0; j < t->rows_nr; j++)
			notes |= t->rows[j].note &&
				 !(t->rows[j].flags & PMBENCH_DOC_ROW_HUMAN);
	}
	header(out, first, notes);
	for (size_t i = 0; i < doc->blocks_nr; i++) {
		const struct pmbench_doc_table *t = &doc->blocks[i]->table;

		if (!is_data(doc->blocks[i], id))
			continue;
		for (size_t j = 0; j < t->rows_nr; j++)
			if (!(t->rows[j].flags & PMBENCH_DOC_ROW_HUMAN))
				row(out, t, &t->rows[j], notes);
	}
	return 0;
}
