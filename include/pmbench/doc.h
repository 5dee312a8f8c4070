#ifndef PMBENCH_DOC_H
#define PMBENCH_DOC_H

#include <stddef.h>

#include "pmbench/buf.h"
#include "pmbench/common.h"
#include "pmbench/strvec.h"

/**
 * A report as a document: what a command shows, built once by a report
 * kind (report_kind.h: a bench result, a ci-cache result, a migration, a
 * comparison of two results, a claim's judgement) and written by any
 * output format (format.h: the terminal table, Markdown, CSV, JSON,
 * hyperfine's JSON, HTML, SVG). Kinds say what there is to show; formats
 * say how, so every command gets every format without a function per
 * kind and format.
 *
 * A document is a title and a list of blocks: headings, paragraphs, notes
 * and warnings, lists, key-value blocks, tables with typed columns,
 * charts and code. The terminal draws the charts whose bars are stacked
 * (spans) as lines of letters; pages draw every chart. Each block names its audience: the terminal, pages
 * (Markdown, HTML) and data (CSV, JSON). A table's column has a header
 * for people and data fields (key and type) for CSV and JSON: each cell
 * holds the text people read, with units ("123.4 ms"), and the raw
 * numbers the data formats write under the keys (curl's writeout
 * `variables[]` habit: one table drives every writer).
 *
 * The document owns everything in it: every string given to a builder is
 * copied, made fit to print on the way (pmbench_text_clean(): credentials
 * redacted, terminal controls escaped; a code block's ANSI sequences
 * dropped), so no format writes a user's raw bytes. Pointers a builder
 * returns (a block, a row, a bar) stay valid until the document is
 * released, except a row or bar pointer, which is valid until the next
 * row or bar of the same table or chart is added.
 */

/** Who a block is for; a block may be for several. */
enum pmbench_doc_audience {
	PMBENCH_DOC_TERM = (1 << 0), /**< the terminal table format */
	PMBENCH_DOC_PAGE = (1 << 1), /**< Markdown and HTML */
	PMBENCH_DOC_DATA = (1 << 2), /**< CSV and JSON (tables only) */
	PMBENCH_DOC_HUMAN = PMBENCH_DOC_TERM | PMBENCH_DOC_PAGE,
	PMBENCH_DOC_ALL = PMBENCH_DOC_HUMAN | PMBENCH_DOC_DATA,
};

/** The type of a data field: how CSV and JSON write its value. */
enum pmbench_doc_type {
	PMBENCH_DOC_TEXT,    /**< a string */
	PMBENCH_DOC_COUNT,   /**< a whole number */
	PMBENCH_DOC_FLAG,    /**< 0 or 1 in CSV, false or true in JSON */
	PMBENCH_DOC_SECONDS, /**< a duration in seconds, to the nanosecond */
	PMBENCH_DOC_NUMBER   /**< any other number: bytes, KiB, ratios, p */
};

/** Flags of a data field. */
enum pmbench_doc_field_flags {
	/**
	 * The value is an interval: CSV writes the columns `<key>_lo` and
	 * `<key>_hi`, JSON an array [lo, hi].
	 */
	PMBENCH_DOC_INTERVAL = (1 << 0),
};

/** The most data fields one column has. */
#define PMBENCH_DOC_FIELDS 6

/** One datum of a column: its key in CSV and JSON, and its type. */
struct pmbench_doc_field {
	const char *key; /**< NULL: no field (the end of the list) */
	enum pmbench_doc_type type;
	unsigned flags; /**< pmbench_doc_field_flags */
};

/** Flags of a column. */
enum pmbench_doc_column_flags {
	PMBENCH_DOC_RIGHT = (1 << 0), /**< right-aligned on the terminal */
	/**
	 * Shown on the terminal by default. A table with such columns is a
	 * table of choices: the terminal shows these (or those `--columns`
	 * names, or all with `--wide`) and the other formats show all.
	 * A table without any shows every column.
	 */
	PMBENCH_DOC_TERM_DEFAULT = (1 << 1),
	/** Always shown on the terminal, whatever is chosen (the pm). */
	PMBENCH_DOC_TERM_KEEP = (1 << 2),
};

/**
 * A table column: the header people read (NULL: a column for data
 * only, such as the fixture of every row), and up to PMBENCH_DOC_FIELDS
 * data fields (none: a column for people only).
 */
struct pmbench_doc_column {
	const char *header;
	unsigned flags; /**< pmbench_doc_column_flags */
	struct pmbench_doc_field fields[PMBENCH_DOC_FIELDS];
};

/**
 * Whether `--columns` word `word` names column `c`: with `exact`, it is
 * one of its field keys ("median", "max_rss_kib") or its header
 * ("max RSS", any case); else it starts a field key up to a '_'
 * ("max_rss", "node_modules"). Callers try exact first.
 */
int pmbench_doc_column_is(const struct pmbench_doc_column *c, const char *word,
			  int exact);

/**
 * The name `--columns` lists for column `c` in its help and errors: its
 * first key without a unit ending ("_kib", "_bytes"), else the header.
 */
void pmbench_doc_column_name(struct pmbench_buf *out,
			     const struct pmbench_doc_column *c);

/** The value of one data field in one cell. */
struct pmbench_doc_value {
	int set;       /**< 0: no value (empty in CSV, null in JSON) */
	double num;    /**< numbers; the point of an interval */
	double lo, hi; /**< PMBENCH_DOC_INTERVAL fields */
	char *str;     /**< PMBENCH_DOC_TEXT fields */
};

/** One cell: the text for people and the values for data. */
struct pmbench_doc_cell {
	char *text; /**< NULL: empty */
	struct pmbench_doc_value values[PMBENCH_DOC_FIELDS];
};

/** Flags of a row. */
enum pmbench_doc_row_flags {
	/**
	 * A row only people read, such as a note under the row before it
	 * ("2 run(s) failed: ..."): CSV and JSON leave it out.
	 */
	PMBENCH_DOC_ROW_HUMAN = (1 << 0),
};

/** A table row. */
struct pmbench_doc_row {
	struct pmbench_doc_cell *cells; /**< one per column */
	/**
	 * Text that spans the columns from `note_from` on, whose cells are
	 * then empty: "failed: priming run 'bun install' exited 1". Data
	 * formats write it under the key "note".
	 */
	char *note;
	size_t note_from;
	unsigned flags; /**< pmbench_doc_row_flags */
};

struct pmbench_doc_table {
	/**
	 * The table's name in CSV and JSON ("samples", "comparisons");
	 * tables with the same id are one table to the data formats.
	 */
	char *id;
	struct pmbench_doc_column *cols; /**< strings owned */
	size_t cols_nr;
	struct pmbench_doc_row *rows;
	size_t rows_nr, rows_alloc;
};

/** The colour of a bar: what it means. */
enum pmbench_doc_tone {
	PMBENCH_DOC_PLAIN, /**< a measurement */
	PMBENCH_DOC_BEST,  /**< the fastest, or faster */
	PMBENCH_DOC_MUTED, /**< no significant difference */
	PMBENCH_DOC_WORSE  /**< slower, or refuted */
};

/**
 * A part of a bar: a segment of a stacked bar (a run's phase), or a span
 * of a waterfall (a request in flight, on a lane of the bar's row).
 */
struct pmbench_doc_span {
	double from, to; /**< on the axis */
	unsigned series; /**< index into the chart's `series` */
	/** a waterfall's lane (0 first), or PMBENCH_DOC_BAND */
	unsigned lane;
};

/** A span drawn behind a waterfall's lanes, across them (a phase). */
#define PMBENCH_DOC_BAND 0xffffffffu

/** One row of a chart: a bar, its interval and its single runs. */
struct pmbench_doc_bar {
	char *label;
	int has_value; /**< 0: no bar, `text` in its place */
	double value;
	int has_interval; /**< whiskers from lo to hi */
	double lo, hi;
	double *dots; /**< single runs, drawn as dots */
	size_t dots_nr;
	char *text; /**< right of the chart ("3.098 s (5 runs)") */
	enum pmbench_doc_tone tone;
	/** A group this bar opens, named on a row above it, or NULL. */
	char *group;
	/** A curve's point: its place on the horizontal axis (see `curve`). */
	double x;
	/**
	 * Its parts (pmbench_doc_bar_span()): a stacked bar's segments in
	 * order (its value is then their end), or a waterfall's spans.
	 */
	struct pmbench_doc_span *spans;
	size_t spans_nr, spans_alloc;
};

/** A horizontal bar chart, drawn as SVG by the html and svg formats. */
struct pmbench_doc_chart {
	char *name;    /**< the SVG's class after "chart": "time", "ratio" */
	char *caption; /**< the line above it, or NULL */
	char *title;   /**< its accessible title (the SVG's <title>) */
	char *unit;    /**< after each axis tick: " s", "x" */
	int has_ref;   /**< a dashed line at `ref` (1x, a claimed factor) */
	double ref;
	/** A log axis (ratios: 135x does not squash 1.2x against 1x). */
	int log_scale;
	struct pmbench_doc_bar *bars;
	size_t bars_nr, bars_alloc;
	/**
	 * A trend over time instead of bars: each bar is a point, left to
	 * right in order, its value on the vertical axis with its interval
	 * as a vertical whisker, its label (a date) under the axis and its
	 * text (a version) under that; a point whose tone is WORSE or BEST
	 * is marked as a change. Set it after pmbench_doc_chart().
	 */
	int trend;
	/**
	 * Curves instead of bars: lines, one per series (the bars that
	 * share a label, in the order they first appear), each bar a point
	 * at (`x`, `value`) with its interval as a vertical whisker; the
	 * horizontal axis is linear and marks every `x`, the vertical one
	 * starts at 0; a legend names the series. A bar without a value is
	 * left out of its line. Set it after pmbench_doc_chart().
	 */
	int curve;
	char *x_unit; /**< the horizontal axis' title ("packages"), or NULL */
	/**
	 * A curve's names of x = 1, 2, ... under the axis (releases: "9.15.9"),
	 * or empty: the numbers themselves.
	 */
	struct pmbench_strvec x_labels;
	/**
	 * The series of the bars' spans (pmbench_doc_series()), in a legend
	 * above the chart: names, and the terminal's letter of each.
	 */
	struct pmbench_strvec series;
	char *glyphs;
	/**
	 * A waterfall: each bar's row holds its spans on lanes, one line of
	 * pixels each, its bands behind them; no value, no whiskers. Pages
	 * only. Set it after pmbench_doc_chart().
	 */
	int waterfall;
};

enum pmbench_doc_kind {
	PMBENCH_DOC_HEADING,   /**< `text` at `level` 1 to 3 */
	PMBENCH_DOC_PARAGRAPH, /**< `text`; lines end in '\n' */
	PMBENCH_DOC_NOTE,      /**< "note: `text`" */
	PMBENCH_DOC_WARNING,   /**< "warning: `text`" */
	PMBENCH_DOC_LIST,      /**< `items` */
	PMBENCH_DOC_KV,	       /**< `keys` and `items`, pairwise; `id` */
	PMBENCH_DOC_TABLE,     /**< `table` */
	PMBENCH_DOC_CHART,     /**< `chart` */
	PMBENCH_DOC_CODE       /**< `text`, preformatted; `id` its language */
};

struct pmbench_doc_block {
	enum pmbench_doc_kind kind;
	unsigned audience; /**< pmbench_doc_audience */
	int level;
	char *text;
	char *id;		     /**< KV: its name in JSON */
	struct pmbench_strvec keys;  /**< KV */
	struct pmbench_strvec items; /**< LIST items, KV values */
	struct pmbench_doc_table table;
	struct pmbench_doc_chart chart;
};

struct pmbench_report;
struct pmbench_result;

/** Flags of a document. */
enum pmbench_doc_flags {
	/** The terminal shows the title as the first line. */
	PMBENCH_DOC_TITLE_ON_TERM = (1 << 0),
	/**
	 * The json format writes hyperfine's export (bench results: what
	 * `report --format json` has always written).
	 */
	PMBENCH_DOC_JSON_HYPERFINE = (1 << 1),
};

struct pmbench_doc {
	char *kind;  /**< "bench", "ci-cache", "migrate", "compare", "claim" */
	char *title; /**< the page's title */
	unsigned flags; /**< pmbench_doc_flags */
	/**
	 * The kind's own JSON, which the json format writes instead of the
	 * document (a migration's "pmbench-migrate" report), or NULL.
	 */
	char *json;
	/** The id of the table the csv format writes; NULL: the first. */
	char *csv;
	/**
	 * The id of a data table hyperfine's export (PMBENCH_DOC_JSON_HYPERFINE)
	 * carries beside its results, under that id ("versions"), or NULL.
	 */
	char *json_also;
	/**
	 * The sentence of verdict of its decision table (id "decision"),
	 * which every JSON shape carries as "decision", or NULL.
	 */
	char *decision;
	struct pmbench_doc_block **blocks;
	size_t blocks_nr, blocks_alloc;
	/**
	 * The results whose timed cells the hyperfine format exports, each
	 * with its statistics and a label ("A", "B"; NULL for one result).
	 */
	struct pmbench_report **timed;
	char **timed_labels;
	size_t timed_nr, timed_alloc;
	/** How the terminal format fits it; see pmbench_doc_term(). */
	struct pmbench_doc_term {
		unsigned width; /**< the longest line; 0: no limit */
		char *columns;	/**< comma-separated names, or NULL */
		int wide;	/**< every column */
	} term;
};

#define PMBENCH_DOC_INIT     \
	{                    \
		.kind = NULL \
	}

/**
 * Tell the terminal format how to fit `d`: no line longer than `width`
 * columns (0: no limit; tables drop optional columns, then wrap or cut
 * their last one; text wraps), and which columns of a table of choices
 * to show: `columns` (comma-separated names, copied; NULL: the default
 * ones) or, with `wide`, all. Other formats ignore it.
 */
void pmbench_doc_term(struct pmbench_doc *d, unsigned width,
		      const char *columns, int wide);

/** Start an empty document of `kind` titled `title`. */
void pmbench_doc_init(struct pmbench_doc *d, const char *kind,
		      const char *title);

/** Free everything in `d`; it is left as PMBENCH_DOC_INIT. */
void pmbench_doc_release(struct pmbench_doc *d);

/**
 * Compute the statistics of `r` (pmbench_report_init()) and keep them in
 * `d` for the hyperfine format, labelled `label` (may be NULL). `r` must
 * outlive `d`. Returns the statistics, owned by `d`.
 */
const struct pmbench_report *pmbench_doc_attach(struct pmbench_doc *d,
						const struct pmbench_result *r,
						const char *label);

/** Append an empty block of `kind` for `audience`; owned by `d`. */
struct pmbench_doc_block *pmbench_doc_add(struct pmbench_doc *d,
					  enum pmbench_doc_kind kind,
					  unsigned audience);

/** Append a heading of `level` (1 to 3). */
void pmbench_doc_heading(struct pmbench_doc *d, unsigned audience, int level,
			 const char *fmt, ...) PMBENCH_PRINTF(4, 5);

/** Append a paragraph. */
void pmbench_doc_para(struct pmbench_doc *d, unsigned audience, const char *fmt,
		      ...) PMBENCH_PRINTF(3, 4);

/** Append a note (PMBENCH_DOC_NOTE) or a warning (PMBENCH_DOC_WARNING). */
void pmbench_doc_note(struct pmbench_doc *d, unsigned audience,
		      enum pmbench_doc_kind kind, const char *fmt, ...)
	PMBENCH_PRINTF(4, 5);

/** Append a preformatted block of `text`. */
void pmbench_doc_code(struct pmbench_doc *d, unsigned audience,
		      const char *text);

/**
 * Append a unified diff (diff.h) as a preformatted block whose `id` is
 * "diff": Markdown fences it as ```diff, HTML gives its <pre> the class
 * "diff".
 */
void pmbench_doc_diff(struct pmbench_doc *d, unsigned audience,
		      const char *text);

/** Append an empty list; add its items with pmbench_doc_item(). */
struct pmbench_doc_block *pmbench_doc_list(struct pmbench_doc *d,
					   unsigned audience);

/** Add an item to the list `b`. */
void pmbench_doc_item(struct pmbench_doc_block *b, const char *fmt, ...)
	PMBENCH_PRINTF(2, 3);

/**
 * Append an empty key-value block named `id` in JSON; add its pairs with
 * pmbench_doc_pair().
 */
struct pmbench_doc_block *pmbench_doc_kv(struct pmbench_doc *d,
					 unsigned audience, const char *id);

/** Add the pair `key`, value to the key-value block `b`. */
void pmbench_doc_pair(struct pmbench_doc_block *b, const char *key,
		      const char *fmt, ...) PMBENCH_PRINTF(3, 4);

/**
 * Append an empty table named `id` with the `cols_nr` columns `cols`
 * (copied, strings too).
 */
struct pmbench_doc_table *
pmbench_doc_table(struct pmbench_doc *d, unsigned audience, const char *id,
		  const struct pmbench_doc_column *cols, size_t cols_nr);

/** Add an empty row to `t`. */
struct pmbench_doc_row *pmbench_doc_row(struct pmbench_doc_table *t);

/** Set the text people read in column `col` of `row`. */
void pmbench_doc_text(struct pmbench_doc_row *row, size_t col, const char *fmt,
		      ...) PMBENCH_PRINTF(3, 4);

/** Set data field `field` of column `col` of `row` to the number `v`. */
void pmbench_doc_num(struct pmbench_doc_row *row, size_t col, size_t field,
		     double v);

/** Set the interval field `field` of column `col` to [lo, hi]. */
void pmbench_doc_interval(struct pmbench_doc_row *row, size_t col, size_t field,
			  double lo, double hi);

/** Set the text field `field` of column `col` to `s` (NULL: unset). */
void pmbench_doc_str(struct pmbench_doc_row *row, size_t col, size_t field,
		     const char *s);

/**
 * Set column `col` to the text `s` for people and, when the column has a
 * text field, the same string as its first value: a name ("npm").
 */
void pmbench_doc_name(struct pmbench_doc_row *row, size_t col, const char *s);

/** Make the columns of `row` from `from` on one note, `fmt`. */
void pmbench_doc_row_note(struct pmbench_doc_row *row, size_t from,
			  const char *fmt, ...) PMBENCH_PRINTF(3, 4);

/**
 * Append an empty chart: its SVG class `name`, the line above it
 * (`caption`, may be NULL), its accessible `title` and the axis `unit`.
 */
struct pmbench_doc_chart *
pmbench_doc_chart(struct pmbench_doc *d, unsigned audience, const char *name,
		  const char *caption, const char *title, const char *unit);

/** Add a bar labelled `label` to `c`; fill in its fields. */
struct pmbench_doc_bar *pmbench_doc_bar(struct pmbench_doc_chart *c,
					const char *label);

/** Set the text right of the bar `b`. */
void pmbench_doc_bar_text(struct pmbench_doc_bar *b, const char *fmt, ...)
	PMBENCH_PRINTF(2, 3);

/** Copy the `n` single runs `dots` into the bar `b`. */
void pmbench_doc_bar_dots(struct pmbench_doc_bar *b, const double *dots,
			  size_t n);

/**
 * Add a series for the spans of `c`'s bars: its `name` in the legend and
 * its letter `glyph` on the terminal. The first is series 0.
 */
void pmbench_doc_series(struct pmbench_doc_chart *c, const char *name,
			char glyph);

/** Add a span of `series` from `from` to `to` on `lane` to the bar `b`. */
void pmbench_doc_bar_span(struct pmbench_doc_bar *b, double from, double to,
			  unsigned series, unsigned lane);

/**
 * The columns UTF-8 text `s` takes on a terminal: one per character, as
 * continuation bytes take none (no wide or combining characters here).
 */
size_t pmbench_doc_display_len(const char *s);

#endif
