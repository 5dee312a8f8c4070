#ifndef PMBENCH_FORMAT_H
#define PMBENCH_FORMAT_H

#include <stddef.h>

#include "pmbench/buf.h"
#include "pmbench/doc.h"

/**
 * The output formats: one table of { name, writer }, and every writer
 * takes any document (doc.h), so every command that shows results writes
 * every format.
 *
 *   table      the terminal: aligned tables, sentences, notes
 *   markdown   headings, pipe tables, notes; charts are left out
 *   csv        one table of the document, RFC 4180, keys as the header
 *   json       the document's data: tables as arrays of records keyed by
 *              the field keys, key-value blocks, notes; for a bench
 *              result hyperfine's export (as `report` has always written)
 *              and for a migration its "pmbench-migrate" report
 *   hyperfine  hyperfine's JSON export of the timed cells
 *   html       one self-contained page: inline CSS and SVG charts, no
 *              script, nothing to fetch
 *   svg        the charts alone, as one standalone SVG image
 */
struct pmbench_format {
	const char *name;
	const char *ext;  /**< the file name ending that implies it, or NULL */
	const char *help; /**< one line for --help */
	/**
	 * Append `doc` to `out`. Returns 0, or a negative PMBENCH_E* with a
	 * message when the document has nothing this format can show.
	 */
	int (*write)(struct pmbench_buf *out, const struct pmbench_doc *doc);
};

/** The formats, in the order --help lists them. */
extern const struct pmbench_format pmbench_formats[];
extern const size_t pmbench_formats_nr;

/**
 * The format called `name` ("md" is markdown). Returns it, or NULL with
 * PMBENCH_EINVALID and a message listing the names.
 */
const struct pmbench_format *pmbench_format_get(const char *name);

/**
 * The format a file name implies by its ending (".md", ".html", ".csv",
 * ".json", ".svg"), or NULL.
 */
const struct pmbench_format *pmbench_format_for_path(const char *path);

/** The names of the formats, "table, markdown, ..., html or svg". */
void pmbench_format_names(struct pmbench_buf *out);

/**
 * Append the names of the bench table's columns `--columns` takes, as
 * "median, median_ci95, ..., ratio" (the column table's, in its order).
 */
void pmbench_format_column_names(struct pmbench_buf *out);

/**
 * Check the `--columns` list `list` (comma-separated names of the bench
 * table's columns by key or header, pmbench_format_column_names()).
 * Returns 0, or PMBENCH_EINVALID with a message listing the names.
 */
int pmbench_format_check_columns(const char *list);

/** Append `doc` in format `f` to `out`; returns f->write()'s result. */
int pmbench_format_write(struct pmbench_buf *out,
			 const struct pmbench_format *f,
			 const struct pmbench_doc *doc);

#endif
