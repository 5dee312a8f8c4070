#ifndef PMBENCH_REPORT_INTERNAL_H
#define PMBENCH_REPORT_INTERNAL_H

/*
 * Shared inside the report layer only: the format writers (one file
 * each, listed in format.c's table), the SVG chart drawing the html and
 * svg formats share, and the bench cell columns the bench kind and the
 * hyperfine export share.
 */
#include "pmbench/buf.h"
#include "pmbench/doc.h"
#include "pmbench/report.h"

/* The writers of format.c's table. */
int pmbench_fmt_text(struct pmbench_buf *out, const struct pmbench_doc *doc);
int pmbench_fmt_markdown(struct pmbench_buf *out,
			 const struct pmbench_doc *doc);
int pmbench_fmt_csv(struct pmbench_buf *out, const struct pmbench_doc *doc);
int pmbench_fmt_json(struct pmbench_buf *out, const struct pmbench_doc *doc);
int pmbench_fmt_hyperfine(struct pmbench_buf *out,
			  const struct pmbench_doc *doc);
int pmbench_fmt_html(struct pmbench_buf *out, const struct pmbench_doc *doc);
int pmbench_fmt_svg(struct pmbench_buf *out, const struct pmbench_doc *doc);

/*
 * HTML and XML text: &, <, >, quotes escaped; control bytes a space;
 * what XML 1.0 does not allow (U+FFFE, U+FFFF, bytes that are no UTF-8)
 * U+FFFD.
 */
void pmbench_fmt_xml_escape(struct pmbench_buf *out, const char *s);

/* Chart geometry, the same in the page and in the standalone image. */
#define PMBENCH_CHART_W	      760
#define PMBENCH_CHART_LABEL_W 110
#define PMBENCH_CHART_VALUE_W 150
#define PMBENCH_CHART_ROW_H   34
#define PMBENCH_CHART_AXIS_H  28

/*
 * A chart's <svg> element opened, its <title> written: class "chart
 * <name>" (and `more`, if not NULL), the chart's width, height `h`, at
 * `at_y` inside a page's image when >= 0.
 */
void pmbench_fmt_chart_open(struct pmbench_buf *out,
			    const struct pmbench_doc_chart *c, const char *more,
			    double h, double at_y);

/* The height of `c` drawn as SVG. */
double pmbench_fmt_chart_height(const struct pmbench_doc_chart *c);

/** A tick step of 1, 2 or 5 times a power of ten, about `max` / `ticks`. */
double pmbench_fmt_tick_step(double max, unsigned ticks);

/*
 * Draw `c` as an <svg class="chart <name>"> element with its own
 * coordinates; `at_y` >= 0 places it at that height inside another SVG
 * (the standalone image), < 0 makes it a page's inline image.
 */
void pmbench_fmt_chart(struct pmbench_buf *out,
		       const struct pmbench_doc_chart *c, double at_y);

/*
 * A trend chart (`c->trend`): its height, and the chart drawn as
 * pmbench_fmt_chart() draws the others (src/report/fmt_trend.c).
 */
double pmbench_fmt_trend_height(const struct pmbench_doc_chart *c);
void pmbench_fmt_trend(struct pmbench_buf *out,
		       const struct pmbench_doc_chart *c, double at_y);

/*
 * A curve chart (`c->curve`): its height, and the chart drawn as
 * pmbench_fmt_chart() draws the others (src/report/fmt_curve.c).
 */
double pmbench_fmt_curve_height(const struct pmbench_doc_chart *c);
void pmbench_fmt_curve(struct pmbench_buf *out,
		       const struct pmbench_doc_chart *c, double at_y);

/*
 * A chart of spans (`c->series` set: stacked bars or a waterfall): its
 * height, and the chart drawn as pmbench_fmt_chart() draws the others
 * (src/report/fmt_spans.c).
 */
double pmbench_fmt_spans_height(const struct pmbench_doc_chart *c);
void pmbench_fmt_spans(struct pmbench_buf *out,
		       const struct pmbench_doc_chart *c, double at_y);

/*
 * The table of a bench cell's statistics: its identity (fixture, task
 * and scenario for data only, pm) and figures, one column each with its
 * header, data keys and types (src/report/cell_columns.c).
 */
/* Append an empty table of cell columns named `id` to `d`. */
struct pmbench_doc_table *pmbench_cell_table(struct pmbench_doc *d,
					     unsigned audience, const char *id);

/*
 * Append cell `i` of `rep` to `t` (made by pmbench_cell_table()): its
 * figures, or a note saying why it has none, then a note row per failed
 * run's reason when some runs failed.
 */
void pmbench_cell_row(struct pmbench_doc_table *t,
		      const struct pmbench_report *rep, size_t i);

/*
 * Append the table of every run of `r` ("samples": fixture, task,
 * scenario, pm, round, warmup, ok, wall_s, ...), the csv format's table
 * of a bench result.
 */
void pmbench_sample_table(struct pmbench_doc *d, unsigned audience,
			  const struct pmbench_result *r);

/* ---- Parts the report kinds share (kind_common.c) ---------------------- */

/*
 * The legend of the package managers `r` shows, under a heading (with
 * `label`, "A" or "B", when not NULL): one pair per PM, its name and
 * "version (path)". PM variants will add their configuration here.
 */
void pmbench_kind_legend(struct pmbench_doc *d, const struct pmbench_result *r,
			 const char *label);

/*
 * Which registry `r`'s results used, for humans: "live (...)" (also for
 * results older than the mirror) or "local mirror, warm; link: ...".
 */
void pmbench_kind_registry(struct pmbench_buf *out,
			   const struct pmbench_result *r);

/* Whether `a` and `b` used the same registry mode and link. */
int pmbench_kind_same_registry(const struct pmbench_result *a,
			       const struct pmbench_result *b);

/* The environment of `r` (system, fixtures), for pages. */
void pmbench_kind_environment(struct pmbench_doc *d,
			      const struct pmbench_result *r);

/* Every failed priming and run of `r` with its output, for pages. */
void pmbench_kind_failures(struct pmbench_doc *d,
			   const struct pmbench_result *r);

/*
 * "Created <when> by pmbench <version>; N timed run(s) and W warm-up(s)
 * per cell, seed S." and `more`, for pages.
 */
void pmbench_kind_created(struct pmbench_doc *d, const struct pmbench_result *r,
			  const char *more);

/*
 * The bench kind's body (kind_bench.c), which a migration shows too: per
 * fixture the scenario sections, the run, build and dev tables and what
 * each PM used.
 */
void pmbench_kind_bench_sections(struct pmbench_doc *d,
				 const struct pmbench_report *rep);

/*
 * Every pair of PMs of each scenario with its independent and paired
 * ratio, for pages and data (kind_pairs.c).
 */
void pmbench_kind_pairs(struct pmbench_doc *d,
			const struct pmbench_report *rep);

/*
 * How the install time grows with a generated workspace (gen.h): when
 * `rep` holds generated fixtures of one kind and seed at two or more
 * sizes, per task and scenario a table of each PM's medians by size,
 * the cost per package, a curve chart and the data, the table "scaling"
 * (kind_scale.c). Returns how many sections it added.
 */
size_t pmbench_kind_scale(struct pmbench_doc *d,
			  const struct pmbench_report *rep);

/*
 * A curve chart for pages (kind_scale.c), medians joined per series with
 * their 95 % whiskers in seconds: its caption, its horizontal axis'
 * title `x_unit` (copied), its title from `fmt`. Its points are added
 * by pmbench_kind_curve_point().
 */
struct pmbench_doc_chart *
pmbench_kind_curve_chart(struct pmbench_doc *d, const char *caption,
			 const char *x_unit, const char *fmt, ...)
	PMBENCH_PRINTF(4, 5);

/*
 * A point of the curve `c` (kind_scale.c): on the line `series` at `x`,
 * the median of `rc` with its interval, titled "<what>: 12.000 s" (or
 * "failed").
 */
void pmbench_kind_curve_point(struct pmbench_doc_chart *c, const char *series,
			      double x, const struct pmbench_report_cell *rc,
			      const char *what);

/*
 * Split a cell's pm_version ("9.15.9: --pm pnpm@9") into the release it
 * ran, returned ("9.15.9"; the caller frees it), and where that came
 * from into *source (a pointer into pm_version: "--pm pnpm@9"; "" when
 * it says none) (columns.c).
 */
char *pmbench_report_pm_release(const char *pm_version, const char **source);

/*
 * The PM a cell's PM name is a release of, variant kept: "pnpm" for
 * "pnpm@9" and "pnpm", "pnpm:hoisted" for "pnpm@9:hoisted"; NULL for the
 * control and names the PM table does not know (kind_versions.c).
 */
const char *pmbench_kind_pm_family(const char *name);

/*
 * One PM at several releases (`--pm pnpm@9,pnpm@10,pnpm`): per fixture,
 * task and PM with two or more releases, per scenario each release's
 * median, its paired ratio against the release before with its interval
 * and the release where it moved most; a curve chart (a line per
 * scenario across the releases) and the data, the table "versions"
 * (kind_versions.c). Returns how many sections it added.
 */
size_t pmbench_kind_versions(struct pmbench_doc *d,
			     const struct pmbench_report *rep);

/*
 * Where the time went in the scenario that starts at cell `g`
 * (kind_phases.c): the phases' stacked bars, their sentences and, on
 * pages, one run's request waterfall per PM.
 */
void pmbench_kind_phases(struct pmbench_doc *d,
			 const struct pmbench_report *rep, size_t g);

/*
 * With `bench --ci`: a note that `fixture`'s PMs ran as on a CI runner
 * and what each did differently without a lockfile (kind_ci.c).
 */
void pmbench_kind_ci_note(struct pmbench_doc *d,
			  const struct pmbench_report *rep,
			  const char *fixture);

/* The run, build and dev tables of `fixture` in `r` (kind_tasks.c). */
void pmbench_kind_tasks(struct pmbench_doc *d, const struct pmbench_result *r,
			const char *fixture);

/* ---- A cell's figures (figures.c) --------------------------------------- */

enum pmbench_figure_unit { PMBENCH_FIGURE_SECONDS, PMBENCH_FIGURE_COUNT };

/* One named figure of a cell: a median with its 95 % bootstrap interval. */
struct pmbench_figure {
	/* "wall", "task-clock", "instructions", or a phase's own name */
	char *name;
	enum pmbench_figure_unit unit;
	int phase; /* a phase the PM's own timers named (--explain runs) */
	enum pmbench_pm_phase_kind kind; /* a phase's */
	int arrival; /* a phase some run timed by its lines' arrival */
	double median, lo, hi;
	double count; /* a phase's median count, or -1 */
	size_t n;     /* the runs behind it */
};

struct pmbench_figures {
	struct pmbench_figure *v;
	size_t nr, alloc;
};

#define PMBENCH_FIGURES_INIT \
	{                    \
		.v = NULL    \
	}

/*
 * Append the figures of cell `i` of `rep` to `out`: "wall" (its timed
 * runs, the median's interval the tables show), "task-clock" and
 * "instructions" (per run, where counted), then each phase its PM's
 * timers named in its --explain runs, in the order first named (the
 * successful runs that named it). Seeded by the result's seed and `i`.
 */
void pmbench_figures_of_cell(struct pmbench_figures *out,
			     const struct pmbench_report *rep, size_t i);

/* The figure `name` (a phase's when `phase`), or NULL. */
const struct pmbench_figure *
pmbench_figures_find(const struct pmbench_figures *f, const char *name,
		     int phase);

void pmbench_figures_release(struct pmbench_figures *f);

/*
 * The run-to-run spread of cell `c`'s timed runs as a coefficient of
 * variation (standard deviation over mean): of the metric `metric`, or
 * of the wall time when NULL. -1 with fewer than 2 values.
 */
double pmbench_figure_cv(const struct pmbench_cell *c, const char *metric);

/* The explain and work sections of scenario group `g` (kind_explain.c). */
void pmbench_kind_explain(struct pmbench_doc *d,
			  const struct pmbench_report *rep, size_t g);
void pmbench_kind_work(struct pmbench_doc *d, const struct pmbench_report *rep,
		       size_t g);

/* The dashboard formats (fmt_gab.c, fmt_bmf.c). */
int pmbench_fmt_gab(struct pmbench_buf *out, const struct pmbench_doc *doc);
int pmbench_fmt_bmf(struct pmbench_buf *out, const struct pmbench_doc *doc);

/* A timed cell's benchmark name: "todo-api/install/clean/npm [A]". */
void pmbench_fmt_bench_name(struct pmbench_buf *out,
			    const struct pmbench_cell *c, const char *label);

/*
 * The claim of a live claim's result `r` (its `claim`) judged in its
 * scenarios with its tolerance, as `claim` judged it: the claim kind's
 * document. 0, or the claim parser's error (kind_claim.c).
 */
int pmbench_kind_claim_again(struct pmbench_doc *out,
			     const struct pmbench_result *r);

struct pmbench_report_compare;

/*
 * A comparison's document begun: titled `title`, the table `csv` for
 * CSV, both results attached, which is A and which B, and a warning when
 * their registries differ (kind_compare.c).
 */
void pmbench_kind_compare_head(struct pmbench_doc *out,
			       const struct pmbench_report_compare *c,
			       const char *title, const char *csv);

/*
 * The cells of `c` compared, per scenario, then the cells one file
 * alone has and both legends (kind_compare.c).
 */
void pmbench_kind_compare_cells(struct pmbench_doc *out,
				const struct pmbench_report_compare *c);

struct pmbench_migrate_pm;
struct pmbench_migrate_task;
struct pmbench_history;
struct pmbench_history_entry;

/* The version `r` found of `pm`, or "?" (kind_history.c). */
const char *pmbench_kind_pm_version(const struct pmbench_result *r,
				    const char *pm);

/* The columns of history's table "history" (kind_history.c). */
enum pmbench_history_col {
	PMBENCH_HIST_FIXTURE,
	PMBENCH_HIST_TASK,
	PMBENCH_HIST_SCENARIO,
	PMBENCH_HIST_PM,
	PMBENCH_HIST_DATE,
	PMBENCH_HIST_VERSION,
	PMBENCH_HIST_MEDIAN,
	PMBENCH_HIST_RUNS,
	PMBENCH_HIST_CHANGE,
	PMBENCH_HIST_FILE,
	PMBENCH_HIST_AGAINST, /* a migration's source */
	PMBENCH_HIST_SPEEDUP, /* a migration's target against its source */
	PMBENCH_HIST_COLS
};

/* A new table "history" for `audience` (kind_history.c). */
struct pmbench_doc_table *pmbench_kind_history_table(struct pmbench_doc *d,
						     unsigned audience);

/*
 * A row of `t` with the series' names (`key`'s), the date and file of
 * entry `e` and `version`; the caller adds the figures.
 */
struct pmbench_doc_row *pmbench_kind_history_row(
	struct pmbench_doc_table *t, const struct pmbench_cell *key,
	const struct pmbench_history_entry *e, const char *version);

/*
 * The series of a migration's target (`key`'s fixture, task, scenario
 * and PM) against `source` over the migrate results of `h`: its
 * speed-up per date, a change counted into *changes where two in a row
 * have 95 % intervals that do not overlap (kind_history_migrate.c).
 */
void pmbench_kind_history_migrate(struct pmbench_doc *d,
				  const struct pmbench_history *h,
				  const struct pmbench_cell *key,
				  const char *source, size_t *changes);

/*
 * What migrate's verdict says of target `e` against the source `src`
 * (both scanned): "resolves the same 12 packages", or what moved, and
 * the install scripts' differences (kind_migrate.c).
 */
void pmbench_kind_migrate_resolution(struct pmbench_buf *b,
				     const struct pmbench_migrate_pm *src,
				     const struct pmbench_migrate_pm *e);

/*
 * What migrate's verdict says of `e`'s parity task `t` against the
 * source `src` (may be NULL): "build identical (12 files, 340.2 KiB)",
 * "test FAILS (as under the source)", "lint: no script".
 */
void pmbench_kind_migrate_task(struct pmbench_buf *b,
			       const struct pmbench_migrate_pm *src,
			       const struct pmbench_migrate_pm *e,
			       const struct pmbench_migrate_task *t);

/*
 * A decision on one screen (kind_decision.c): one row per target against
 * a reference (migrate's source PM, bench's --baseline, a claim's
 * second PM), each timed cell's speed as one number and a word, and one
 * sentence of verdict. migrate, bench and claim each fill this model;
 * pmbench_kind_decision() says it, the same way for all three.
 */
struct pmbench_decision_speed {
	int has; /**< 0: nothing to compare in this cell ("-") */
	/** reference time / target time (above 1: faster), 95 % */
	struct pmbench_interval up;
	enum pmbench_verdict verdict; /**< of the target against it */
	int one_run;		      /**< a side has one run: no interval */
	/**
	 * No verdict, and the test could not have given one: too few runs
	 * (2 against 2: Mann-Whitney's least p is 0.33). Not "no difference".
	 */
	int untested;
	int install;	  /**< an install cell (the gain) */
	const char *note; /**< said after it ("reproduced"), or NULL */
};

/* migrate's versions of a target against the source's (its resolution diff). */
struct pmbench_decision_moves {
	int known;			  /**< both were scanned */
	size_t moved, major, added, gone; /**< all 0: it keeps every version */
};

struct pmbench_decision_target {
	const char *name;
	/** it did not run at all: why, over the whole row (NULL: it ran) */
	char *failure;
	/** the "installs"/"runs" column ("yes", "fails in clean") */
	char *ok;
	/** migrate's columns, NULL: "-" */
	char *versions, *build, *tests, *dev, *changes;
	int blocked; /**< fails a check the reference passes */
	struct pmbench_decision_moves moves; /**< migrate's */
	/** the recipe's changes applied (migrate's), -1: not asked */
	int changes_nr;
	struct pmbench_decision_speed *speeds; /**< one per head */
};

struct pmbench_decision {
	const char *reference; /**< the PM every target is against */
	int migrate; /**< with migrate's columns (versions ... changes) */
	const char *ok_head; /**< "installs" or "runs" */
	const char *ok_says; /**< the sentence's first word for a target */
	/** what the reference is, in the heading ("--baseline"), or NULL */
	const char *against;
	/** the sentence's start instead of move / stay (a claim's), or NULL */
	char *lead;
	struct pmbench_strvec heads; /**< one per timed cell */
	struct pmbench_decision_target *targets;
	size_t targets_nr, targets_alloc;
};

#define PMBENCH_DECISION_INIT                                       \
	{                                                           \
		.reference = NULL, .ok_head = "installs",           \
		.ok_says = "installs", .heads = PMBENCH_STRVEC_INIT \
	}

/* A new target row of `d` named `name`, with a speed per head. */
struct pmbench_decision_target *
pmbench_decision_target(struct pmbench_decision *d, const char *name);

void pmbench_decision_release(struct pmbench_decision *d);

/*
 * `fmt` added to the target's installs (or runs) column, after what it
 * already says ("fails in install clean").
 */
void PMBENCH_PRINTF(2, 3)
	pmbench_decision_ok_add(struct pmbench_decision_target *tg,
				const char *fmt, ...);

/*
 * `d` said into `out`: the heading "Decision", the table (id "decision")
 * and a paragraph of one sentence of verdict, which is also kept as
 * out->decision for the JSON formats.
 */
void pmbench_kind_decision(struct pmbench_doc *out,
			   const struct pmbench_decision *d);

/*
 * "decision": {"verdict": the sentence, "targets": each row of the
 * decision table, header to text} added to `root` (a cJSON object),
 * when `doc` has a decision; else nothing.
 */
void pmbench_kind_decision_json(void *root, const struct pmbench_doc *doc);

/*
 * migrate's decision (kind_decision.c): installs, versions moved, build,
 * tests, dev server, each timed cell's speed against the source, what
 * the team changes, said by pmbench_kind_decision().
 */
struct pmbench_migrate;
void pmbench_kind_migrate_decision(struct pmbench_doc *out,
				   const struct pmbench_migrate *m,
				   const struct pmbench_result *r);

/*
 * Where target `pm` does not install though it primed: each timed cell
 * whose every run failed, or whose times are not of the state asked,
 * where the source's has times ("fails in install clean (exit 1: ...),
 * not the state asked in install cached"), added to `out`. The decision
 * table's installs column and the evidence's verdict line both say it
 * (kind_decision.c). Returns 1 when there is such a cell, else 0.
 */
int pmbench_kind_migrate_fails(struct pmbench_buf *out,
			       const struct pmbench_migrate *m,
			       const struct pmbench_result *r, const char *pm);

/*
 * `json`, migrate's JSON (consumed), with "decision": {"verdict": the
 * sentence, "targets": each row of the table, header to text}.
 */
char *pmbench_kind_migrate_decision_json(char *json,
					 const struct pmbench_migrate *m,
					 const struct pmbench_result *r);

/*
 * bench's decision when the baseline was chosen (--baseline): each other
 * PM against it, paired by round where the rounds pair (kind_decision_bench.c).
 * Returns 1 when it said one.
 */
int pmbench_kind_bench_decision(struct pmbench_doc *out,
				const struct pmbench_report *rep);

/*
 * Why the times of cell `c` are not of the state asked, or NULL: every
 * run failed its state check ("not the state asked"), or it failed its
 * offline proof ("not warm (failed offline)": a warm cell that needs the
 * registry was not warm). They are then no speed of that state.
 */
const char *pmbench_kind_not_the_state(const struct pmbench_cell *c);

/*
 * The offline proof of cell `c` (bench and claim --prove-offline), one
 * line when proven; one that failed was not warm, and is ranked against
 * none (sentences.c).
 */
void pmbench_report_proof_note(struct pmbench_doc *d, unsigned audience,
			       const struct pmbench_cell *c);

/* claim's decision: the first PM against the second, per scenario. */
struct pmbench_report_claim;
void pmbench_kind_claim_decision(struct pmbench_doc *out,
				 const struct pmbench_report_claim *c,
				 const char *lead);

struct pmbench_kind_speed {
	struct pmbench_comparison cmp; /**< target / source */
	/** The speed-up: source / target (above 1: the target is faster). */
	struct pmbench_interval up;
	size_t na, nz; /**< runs of the source, the target */
};

/*
 * The speed of `pm` against `source` in the cells of `task` and
 * `scenario` of `r`, as migrate computes it: the ratio of medians with
 * its bootstrap interval (seeded with `seed`) and Mann-Whitney. Returns
 * 1, or 0 when either has no cell or no successful run (kind_migrate.c).
 */
int pmbench_kind_migrate_speed(struct pmbench_kind_speed *out,
			       const struct pmbench_result *r,
			       const char *source, uint64_t seed,
			       const char *task, const char *scenario,
			       const char *pm);

/* `s` as a cell of the decision model. */
void pmbench_kind_speed_model(struct pmbench_decision_speed *sp,
			      const struct pmbench_kind_speed *s);

/*
 * The speed of cell `target` against cell `reference` (either may be
 * NULL), as pmbench_kind_migrate_speed(). Returns 1, or 0.
 */
int pmbench_kind_cells_speed(struct pmbench_kind_speed *out,
			     const struct pmbench_cell *reference,
			     const struct pmbench_cell *target, uint64_t seed);

/*
 * "1.20x faster (npm/bun 1.20x, 95% CI 0.90x-1.55x, Mann-Whitney p=0.67,
 * 2 and 2 runs...)": migrate's words for `s`; `brief` leaves out what a
 * single run each cannot give.
 */
void pmbench_kind_speed_text(struct pmbench_buf *b,
			     const struct pmbench_kind_speed *s,
			     const char *source, const char *pm, int brief);

/*
 * Whether the speed-up moved from `a` to `b`: 1 up, -1 down, when both
 * have an interval (two runs or more a side) and the two do not overlap;
 * else 0 (kind_migrate.c).
 */
int pmbench_kind_speedup_moved(const struct pmbench_kind_speed *a,
			       const struct pmbench_kind_speed *b);

/*
 * "1.20x faster (npm/bun 0.90x–1.55x)": the speed-up in short, its
 * interval when both had two runs or more (history, compare).
 */
void pmbench_kind_speedup_text(struct pmbench_buf *b,
			       const struct pmbench_kind_speed *s,
			       const char *source, const char *pm);

#endif
