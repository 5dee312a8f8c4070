/*
 * JSON, with cJSON (kept inside the report layer). Three shapes:
 *
 * - the kind's own JSON when it has one (a migration's report);
 * - hyperfine's export for a bench result (what `report --format json`
 *   has always written), also the hyperfine format of any kind: one
 *   result per timed cell with successful runs, hyperfine's fields and
 *   ours from the same cell columns the tables show (columns.c);
 * - otherwise the document's data: {"schema": "pmbench-report",
 *   "version", "kind", "title", "decision" (with a decision table:
 *   hyperfine's shape has it too), "tables": {id: [records]}, "facts":
 *   {id: {key: value}}, "notes": [...]}, each record keyed by the
 *   fields' keys with raw numbers.
 */
#include "pmbench/common.h"

#include <cjson/cJSON.h>

#include "internal.h"
#include "pmbench/gen.h"

#define REPORT_SCHEMA  "pmbench-report"
#define REPORT_VERSION 1

static cJSON *must(cJSON *item)
{
	if (!item)
		pmbench_die("out of memory building JSON");
	return item;
}

static void add(cJSON *o, const char *key, cJSON *item)
{
	if (!cJSON_AddItemToObject(o, key, must(item)))
		pmbench_die("out of memory building JSON");
}

static void push(cJSON *arr, cJSON *item)
{
	if (!cJSON_AddItemToArray(arr, must(item)))
		pmbench_die("out of memory building JSON");
}

static cJSON *value_json(const struct pmbench_doc_field *f,
			 const struct pmbench_doc_value *v)
{
	cJSON *a;

	if (!v->set)
		return cJSON_CreateNull();
	if (f->flags & PMBENCH_DOC_INTERVAL) {
		a = must(cJSON_CreateArray());
		push(a, cJSON_CreateNumber(v->lo));
		push(a, cJSON_CreateNumber(v->hi));
		return a;
	}
	switch (f->type) {
	case PMBENCH_DOC_TEXT:
		return cJSON_CreateString(v->str ? v->str : "");
	case PMBENCH_DOC_FLAG:
		return cJSON_CreateBool(v->num != 0);
	default:
		return cJSON_CreateNumber(v->num);
	}
}

/*
 * Add every data field of `row` to the object `o` (text fields too, or
 * not when `numbers_only`), and its note.
 */
static void record(cJSON *o, const struct pmbench_doc_table *t,
		   const struct pmbench_doc_row *row, int numbers_only)
{
	for (size_t k = 0; k < t->cols_nr; k++) {
		for (size_t f = 0; f < PMBENCH_DOC_FIELDS; f++) {
			const struct pmbench_doc_field *fd =
				&t->cols[k].fields[f];

			if (!fd->key)
				break;
			if (numbers_only && fd->type == PMBENCH_DOC_TEXT)
				continue;
			add(o, fd->key,
			    value_json(fd, &row->cells[k].values[f]));
		}
	}
	if (row->note && !numbers_only)
		add(o, "note", cJSON_CreateString(row->note));
}

/*
 * A generated workspace's size as the parameter "packages" (a string,
 * as hyperfine's --parameter-scan writes its values): the x of the
 * curve a result of several sizes draws (kind_scale.c).
 */
static void generated_size(cJSON *params, const struct pmbench_result *r,
			   const char *fixture)
{
	struct pmbench_gen g;
	char n[16];

	for (size_t i = 0; i < r->fixtures_nr; i++) {
		if (strcmp(r->fixtures[i].name, fixture) ||
		    !pmbench_gen_is(r->fixtures[i].repo))
			continue;
		if (pmbench_gen_parse(&g, r->fixtures[i].repo) < 0) {
			pmbench_error_clear();
			return;
		}
		snprintf(n, sizeof(n), "%u", g.packages);
		add(params, "packages", cJSON_CreateString(n));
		return;
	}
}

/* The release the cell's PM ran and why, as "pm_version" and its source. */
static void release(cJSON *params, const struct pmbench_cell *c)
{
	const char *source;
	char *exact;

	if (!c->pm_version)
		return;
	exact = pmbench_report_pm_release(c->pm_version, &source);
	add(params, "pm_version", cJSON_CreateString(exact));
	add(params, "pm_version_source", cJSON_CreateString(source));
	free(exact);
}

static void hyperfine_cell(cJSON *results, const struct pmbench_report *rep,
			   size_t i, const char *label)
{
	const struct pmbench_report_cell *c = &rep->cells[i];
	struct pmbench_doc scratch = PMBENCH_DOC_INIT;
	struct pmbench_doc_table *t;
	struct pmbench_buf cmd = PMBENCH_BUF_INIT;
	cJSON *o = must(cJSON_CreateObject()), *times, *codes, *params;

	push(results, o);
	pmbench_buf_addf(&cmd, "%s %s (%s, %s)", c->cell->pm, c->cell->task,
			 c->cell->scenario, c->cell->fixture);
	if (label)
		pmbench_buf_addf(&cmd, " [%s]", label);
	add(o, "command", cJSON_CreateString(cmd.ptr));
	/* hyperfine's figures and ours, by the cell columns' keys. */
	pmbench_doc_init(&scratch, "cells", "cells");
	t = pmbench_cell_table(&scratch, PMBENCH_DOC_DATA, "cells");
	pmbench_cell_row(t, rep, i);
	record(o, t, &t->rows[0], 1);
	pmbench_doc_release(&scratch);
	times = must(cJSON_CreateArray());
	codes = must(cJSON_CreateArray());
	for (size_t k = 0; k < c->n; k++) {
		push(times, cJSON_CreateNumber(c->times[k]));
		push(codes, cJSON_CreateNumber(0));
	}
	add(o, "times", times);
	add(o, "exit_codes", codes);
	params = must(cJSON_CreateObject());
	add(params, "pm", cJSON_CreateString(c->cell->pm));
	add(params, "task", cJSON_CreateString(c->cell->task));
	add(params, "scenario", cJSON_CreateString(c->cell->scenario));
	add(params, "fixture", cJSON_CreateString(c->cell->fixture));
	generated_size(params, rep->result, c->cell->fixture);
	release(params, c->cell);
	if (label)
		add(params, "result", cJSON_CreateString(label));
	add(o, "parameters", params);
	pmbench_buf_release(&cmd);
}

static void print(struct pmbench_buf *out, cJSON *root)
{
	char *text = cJSON_Print(root);

	if (!text)
		pmbench_die("out of memory printing JSON");
	pmbench_buf_adds(out, text);
	pmbench_buf_addch(out, '\n');
	cJSON_free(text);
}

/* The rows of the data tables called `id`, as root[id]: an array. */
static void table_records(cJSON *root, const struct pmbench_doc *doc,
			  const char *id)
{
	cJSON *arr = NULL;

	for (size_t i = 0; i < doc->blocks_nr; i++) {
		const struct pmbench_doc_block *b = doc->blocks[i];

		if (b->kind != PMBENCH_DOC_TABLE ||
		    !(b->audience & PMBENCH_DOC_DATA) ||
		    strcmp(b->table.id, id))
			continue;
		if (!arr) {
			arr = must(cJSON_CreateArray());
			add(root, id, arr);
		}
		for (size_t j = 0; j < b->table.rows_nr; j++) {
			const struct pmbench_doc_row *row = &b->table.rows[j];
			cJSON *o;

			if (row->flags & PMBENCH_DOC_ROW_HUMAN)
				continue;
			o = must(cJSON_CreateObject());
			record(o, &b->table, row, 0);
			push(arr, o);
		}
	}
}

int pmbench_fmt_hyperfine(struct pmbench_buf *out,
			  const struct pmbench_doc *doc)
{
	cJSON *root, *results;

	if (!doc->timed_nr)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "this %s report has no timed runs "
					  "for hyperfine's format",
					  doc->kind);
	root = must(cJSON_CreateObject());
	results = must(cJSON_CreateArray());
	add(root, "results", results);
	for (size_t r = 0; r < doc->timed_nr; r++)
		for (size_t i = 0; i < doc->timed[r]->cells_nr; i++)
			if (doc->timed[r]->cells[i].n)
				hyperfine_cell(results, doc->timed[r], i,
					       doc->timed_labels[r]);
	if (doc->json_also)
		table_records(root, doc, doc->json_also);
	pmbench_kind_decision_json(root, doc);
	print(out, root);
	cJSON_Delete(root);
	return 0;
}

/* "tables": every data table's rows, by id. */
static void tables(cJSON *root, const struct pmbench_doc *doc)
{
	cJSON *all = NULL;

	for (size_t i = 0; i < doc->blocks_nr; i++) {
		const struct pmbench_doc_block *b = doc->blocks[i];

		if (b->kind != PMBENCH_DOC_TABLE ||
		    !(b->audience & PMBENCH_DOC_DATA))
			continue;
		if (!all) {
			all = must(cJSON_CreateObject());
			add(root, "tables", all);
		}
		if (!cJSON_GetObjectItemCaseSensitive(all, b->table.id))
			table_records(all, doc, b->table.id);
	}
}

/* "facts" from the key-value blocks, "notes" from notes and warnings. */
static void facts_and_notes(cJSON *root, const struct pmbench_doc *doc)
{
	cJSON *facts = NULL, *notes = NULL;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < doc->blocks_nr; i++) {
		const struct pmbench_doc_block *bl = doc->blocks[i];

		if (bl->kind == PMBENCH_DOC_KV) {
			cJSON *o = must(cJSON_CreateObject());

			if (!facts) {
				facts = must(cJSON_CreateObject());
				add(root, "facts", facts);
			}
			for (size_t k = 0; k < bl->keys.nr; k++)
				add(o, bl->keys.v[k],
				    cJSON_CreateString(bl->items.v[k]));
			add(facts, bl->id, o);
		} else if (bl->kind == PMBENCH_DOC_NOTE ||
			   bl->kind == PMBENCH_DOC_WARNING) {
			if (!notes) {
				notes = must(cJSON_CreateArray());
				add(root, "notes", notes);
			}
			pmbench_buf_reset(&b);
			pmbench_buf_addf(&b, "%s: %s",
					 bl->kind == PMBENCH_DOC_NOTE
						 ? "note"
						 : "warning",
					 bl->text);
			push(notes, cJSON_CreateString(b.ptr));
		}
	}
	pmbench_buf_release(&b);
}

int pmbench_fmt_json(struct pmbench_buf *out, const struct pmbench_doc *doc)
{
	cJSON *root;

	if (doc->json) {
		pmbench_buf_adds(out, doc->json);
		return 0;
	}
	if (doc->flags & PMBENCH_DOC_JSON_HYPERFINE)
		return pmbench_fmt_hyperfine(out, doc);
	root = must(cJSON_CreateObject());
	add(root, "schema", cJSON_CreateString(REPORT_SCHEMA));
	add(root, "version", cJSON_CreateNumber(REPORT_VERSION));
	add(root, "kind", cJSON_CreateString(doc->kind));
	add(root, "title", cJSON_CreateString(doc->title));
	pmbench_kind_decision_json(root, doc);
	tables(root, doc);
	facts_and_notes(root, doc);
	print(out, root);
	cJSON_Delete(root);
	return 0;
}
