#ifndef PMBENCH_REPORT_H
#define PMBENCH_REPORT_H

#include <stddef.h>

#include "pmbench/buf.h"
#include "pmbench/phases.h"
#include "pmbench/result.h"
#include "pmbench/stats.h"

/**
 * The statistics every report shows, computed from a result: per cell
 * the median with its bootstrap interval, mean and standard deviation,
 * range, outliers (src/report/model.c), and every PM against the fastest
 * of its scenario (ratio of medians with its interval, Mann-Whitney,
 * verdict); and the sentences that say them (src/report/sentences.c).
 * Everything is deterministic given the result's seed. The report kinds
 * (report_kind.h) turn them into documents (doc.h), which the output
 * formats (format.h) write.
 */

/** Confidence level of every interval in the reports. */
#define PMBENCH_REPORT_LEVEL 0.95
/** Bootstrap resamples behind every interval. */
#define PMBENCH_REPORT_RESAMPLES 10000
/** Significance level of the Mann-Whitney test. */
#define PMBENCH_REPORT_ALPHA 0.05
/** Modified z-score above which a run is an outlier (Iglewicz-Hoaglin). */
#define PMBENCH_REPORT_OUTLIER_Z 3.5
/**
 * An outlier is worth a warning only when it is this far from the
 * median, as a fraction of it, and farther than the timer's resolution:
 * a 300 ms install 0.4 ms off moves neither the median nor its interval.
 */
#define PMBENCH_REPORT_OUTLIER_FAR 0.01
#define PMBENCH_REPORT_TIMER_RES_S 1e-6
/** Drift warning: |Spearman rho| of run order against time, from n runs. */
#define PMBENCH_REPORT_DRIFT_RHO      0.8
#define PMBENCH_REPORT_DRIFT_MIN_RUNS 6
/**
 * Fewest complete rounds for a verdict from the paired interval: with 5,
 * a verdict needs every round's ratio on one side of 1 (the percentile
 * bootstrap of a median of 5 spans their range).
 */
#define PMBENCH_REPORT_PAIRED_MIN_ROUNDS 5
/** The drift control's change above which a scenario gets a warning. */
#define PMBENCH_REPORT_CONTROL_DRIFT 0.20

/**
 * Where a cell's time went (phases.h), over its successful timed runs
 * that have phases (pmbench_report_phases()).
 */
struct pmbench_report_phases {
	size_t runs; /**< runs with phases; 0: nothing below is set */
	/** the median of each phase, seconds (they need not add up) */
	double median[PMBENCH_PHASES];
	double requests; /**< median registry requests of the PM */
	double written;	 /**< median bytes the tree wrote */
	/** the sampler's period (the longest): a shorter phase is unresolved */
	double sample;
	double sampler_cpu; /**< median CPU time of pmbench's walks, s */
	/**
	 * The lifecycle script with the longest median time over the runs
	 * (0 in a run without it): its package and event (owned by the
	 * result) and that median, seconds; NULLs and 0 without scripts.
	 */
	const char *script_package, *script_event;
	double script;
	/** how many distinct scripts (package and event) ran */
	size_t scripts;
};

/**
 * The phases of `c` into `out` (zeroed first): medians over its
 * successful timed runs with phases. Returns out->runs.
 */
size_t pmbench_report_phases(struct pmbench_report_phases *out,
			     const struct pmbench_cell *c);

/**
 * The phase that moved most from `a` to `b` (both with runs): the one
 * whose median changed most, in seconds, into *out_phase, the change
 * (b - a, seconds) returned.
 */
double pmbench_report_phase_moved(enum pmbench_phase *out_phase,
				  const struct pmbench_report_phases *a,
				  const struct pmbench_report_phases *b);

/** The statistics of one cell. */
struct pmbench_report_cell {
	const struct pmbench_cell *cell; /**< in the result; not owned */
	unsigned state;			 /**< PMBENCH_STATE_* of its scenario */
	double *times; /**< successful timed wall times (s), run order; owned */
	size_t n;      /**< how many */
	size_t failed; /**< failed timed runs */
	/** runs stopped by a signal to pmbench: neither times nor failures */
	size_t interrupted;
	struct pmbench_summary wall;
	int has_ci;			   /**< n >= 1 */
	struct pmbench_interval median_ci; /**< point is the median */
	size_t outliers;		   /**< runs flagged by modified z */
	/** of them, those far enough to matter (PMBENCH_REPORT_OUTLIER_FAR) */
	size_t outliers_far;
	/** the farthest of them from the median, as a fraction of it */
	double outlier_farthest;
	int slow_first;		  /**< the first timed run is a high outlier */
	double user, sys;	  /**< means, seconds */
	double max_rss, tree_rss; /**< means, KiB */
	/**
	 * runs whose max RSS was at or below pmbench's own peak at the
	 * spawn (the floor a vfork-style spawn leaves): max_rss is then an
	 * upper bound, shown as "≤"
	 */
	size_t max_rss_at_floor;
	double nm_bytes, nm_files; /**< means */
	/** the PM makes no node_modules (Plug'n'Play): no sizes */
	int no_nm;
	/** index of the fastest cell of the same scenario, or -1 if none */
	long fastest;
	/** `vs` is valid: this cell is not the fastest and both have times */
	int has_vs;
	/** this cell against the fastest: ratio = median / fastest median */
	struct pmbench_comparison vs;
	/**
	 * `paired` is valid: this cell and the fastest have complete rounds
	 * (pmbench_report_pair_rounds()), `paired_n` of them.
	 */
	int has_paired;
	/** median of the per-round ratios this / fastest, bootstrap 95 % */
	struct pmbench_interval paired;
	size_t paired_n;
	/**
	 * vs.verdict came from the paired interval (has_paired and at least
	 * PMBENCH_REPORT_PAIRED_MIN_ROUNDS rounds: FASTER or SLOWER when
	 * it lies wholly on one side of 1), not from the independent
	 * interval and Mann-Whitney.
	 */
	int verdict_paired;
	/**
	 * The cell of the result's baseline PM (`baseline`) in the same
	 * scenario, or -1 (no baseline, or it has no times there).
	 */
	long baseline;
	/**
	 * `base` is valid: this cell is not the baseline's and their rounds
	 * pair (pmbench_report_pair_rounds()), `base_n` of them.
	 */
	int has_base;
	/** median of the per-round ratios this / baseline, bootstrap 95 % */
	struct pmbench_interval base;
	size_t base_n;
	/** half the width of `base` relative to its point (0.1: ±10 %) */
	double base_half;
	int is_baseline; /**< this is the baseline's cell */
	/**
	 * With a target (the result's auto_target, bench's budget): 1 when
	 * base_half is within it, 0 when not; -1 without a target or ratio.
	 */
	int base_reached;
	/**
	 * The verdict against the baseline: from the paired interval with
	 * at least PMBENCH_REPORT_PAIRED_MIN_ROUNDS rounds (FASTER, SLOWER
	 * or SAME), else PMBENCH_VERDICT_SAME with too few rounds.
	 */
	enum pmbench_verdict base_verdict;
	/**
	 * The resolver-stall rule (pmbench_stats_stalls(), 5 s, slack from
	 * pmbench_stats_stall_slack()):
	 * how many runs sit a whole number of 5 s timeouts above the
	 * fastest, and the most timeouts in one run. Only judged when the
	 * result does not say it used a local registry (its environment's
	 * "registry" is not "local"); 0 otherwise.
	 */
	size_t stalls;
	unsigned stall_kmax;
	/**
	 * The drift control's cell (PMBENCH_CONTROL_PM) with at least 2
	 * times: `drift` is the median of its last rounds over that of its
	 * first (the last and first n / 2), `drift_range` max / min.
	 */
	int has_drift;
	double drift;
	double drift_range;
	/** where its time went (phases.runs is 0 without phases) */
	struct pmbench_report_phases phases;
};

/** Every pair of PMs of a scenario: a ratio of a over b. */
struct pmbench_report_pm_pair {
	size_t a, b; /**< cell indices; a comes first in the result */
	/** median(a) / median(b), independent bootstrap 95 % */
	struct pmbench_interval ratio;
	/** `paired` is valid: the rounds are complete */
	int has_paired;
	/** median of the per-round ratios a / b, bootstrap over rounds */
	struct pmbench_interval paired;
	size_t rounds; /**< how many paired */
};

/** A result with its statistics. */
struct pmbench_report {
	const struct pmbench_result *result; /**< not owned */
	struct pmbench_report_cell *cells;   /**< parallel to result->cells */
	size_t cells_nr;
	/** every pair of PM cells with times in each scenario; owned */
	struct pmbench_report_pm_pair *pairs;
	size_t pairs_nr, pairs_alloc;
};

#define PMBENCH_REPORT_INIT    \
	{                      \
		.result = NULL \
	}

/**
 * Compute the statistics of every cell of `r`, which must outlive the
 * report. Cell i's bootstrap RNG is seeded with r->seed + i, so the
 * figures depend only on the result.
 */
void pmbench_report_init(struct pmbench_report *out,
			 const struct pmbench_result *r);

/**
 * The times of cells `a` and `b` (of one scenario) paired by round: new
 * arrays into *out_a and *out_b (the caller frees both) and their length
 * into *out_n. A round's time is its value (the median of its repeats,
 * pmbench_cell_round()); a round only one cell ran (bench's budget runs
 * an extra round for some PMs, a round cut short by a signal to pmbench)
 * pairs nothing. Returns 1 when the rounds are complete: no timed round
 * of either cell failed in the other, and at least 2 pair; else 0, with
 * both arrays NULL and *out_n 0.
 */
int pmbench_report_pair_rounds(double **out_a, double **out_b, size_t *out_n,
			       const struct pmbench_cell *a,
			       const struct pmbench_cell *b);

/** Free the statistics; `rep` is left as PMBENCH_REPORT_INIT. */
void pmbench_report_release(struct pmbench_report *rep);

/* The sentences (src/report/sentences.c). */

/** "14.3 s" or "512.0 ms". */
void pmbench_report_add_duration(struct pmbench_buf *out, double seconds);

/**
 * A phase's median as the reports say it: "–" for none, "< 25 ms" below
 * the sampler's period `sample` (seconds), else "310 ms" or "1.20 s".
 */
void pmbench_report_add_phase(struct pmbench_buf *out, double seconds,
			      double sample);

/**
 * "start 0.21 s · network 1.20 s · write 0.31 s · scripts – · exit
 * 0.02 s": the medians of `ph`.
 */
void pmbench_report_add_phases(struct pmbench_buf *out,
			       const struct pmbench_report_phases *ph);

/**
 * What the phases of the scenario that starts at cell `g` say that a
 * reader should know, one sentence an item into `out`: a PM whose time
 * is mostly its registry requests ("npm: 1.20 s of 1.83 s in 178
 * registry requests with a warm cache"), one that downloaded far more
 * than the others ("yarn downloaded 117 MB (full packuments) where the
 * others downloaded 7.6 MB"), one whose lifecycle scripts took much of
 * its run ("pnpm: 40 % of the run in esbuild's postinstall").
 */
void pmbench_report_phase_sentences(struct pmbench_strvec *out,
				    const struct pmbench_report *rep, size_t g);

/** "5.8x", "12.0x" or "1.03x": the precision a ratio deserves. */
void pmbench_report_add_ratio(struct pmbench_buf *out, double ratio);

/**
 * A cell's paired ratio against the baseline with its 95 % interval and
 * half-width: "1.32x (1.28x–1.36x) ±3.0%" (c->has_base must be set).
 */
void pmbench_report_add_base(struct pmbench_buf *out,
			     const struct pmbench_report_cell *c);

/**
 * The verdict of a cell's paired ratio against the baseline, as a word:
 * "faster" or "slower" (its 95 % interval on one side of 1), "the same"
 * (within the equivalence margin [1 / (1 + margin), 1 + margin]),
 * "open" (neither), "too few rounds" (under
 * PMBENCH_REPORT_PAIRED_MIN_ROUNDS); NULL without a ratio. The budget's
 * rule (pmbench_schedule_decided()).
 */
const char *pmbench_report_base_verdict(const struct pmbench_report_cell *c,
					double margin);

/** "cache warm, lockfile present, node_modules absent". */
void pmbench_report_add_state(struct pmbench_buf *out, unsigned state);

/** "p = 0.008", or "p < 0.001". */
void pmbench_report_add_p(struct pmbench_buf *out, double p);

/**
 * The sentence comparing cell `i` with the fastest of its scenario, e.g.
 * "bun is 5.8x (5.1x–6.6x) faster than npm (p = 0.008)" or "no
 * significant difference between bun and pnpm (p = 0.42)"; nothing when
 * the cell has no comparison.
 */
void pmbench_report_add_sentence(struct pmbench_buf *out,
				 const struct pmbench_report *rep, size_t i);

/**
 * What stands in for the times of a cell that has none: "failed" (its
 * priming or a run failed), "interrupted" (its only runs were cut short
 * by a signal to pmbench) or "not run" (the benchmark stopped before).
 */
const char *pmbench_report_no_times(const struct pmbench_report_cell *c);

/**
 * Why cell `c` has no time, or why its runs failed: its priming failure,
 * else the first failed timed run's reason, else "unknown". Not owned.
 */
const char *pmbench_report_first_failure(const struct pmbench_cell *c);

/**
 * "npm left 2 processes running after 3 of 5 runs (stopped by pmbench)"
 * (`runs` names the runs: "runs", "jobs") for a cell whose PM left
 * processes behind; nothing otherwise, and nothing for a dev cell, where
 * a process still running after the stop is a failed run.
 */
void pmbench_report_add_leftover(struct pmbench_buf *out,
				 const struct pmbench_cell *c,
				 const char *runs);

struct pmbench_doc;

/**
 * Append the warnings and notes of cell `c` to `d` for `audience`: a
 * slow first run or outliers, too few runs for a fine interval, drift
 * over the run order, interrupted runs, processes left running.
 */
void pmbench_report_cell_notes(struct pmbench_doc *d, unsigned audience,
			       const struct pmbench_report_cell *c);

/** The warning when some PMs ran dependency scripts and others did not. */
#define PMBENCH_REPORT_SCRIPTS_NOTE                                         \
	"some PMs ran dependency install scripts and others skipped them: " \
	"the install times are not like for like (--scripts none or all "   \
	"makes them alike)"

/**
 * 1 if, in `fixture`, some PMs ran dependency lifecycle scripts and
 * others skipped them (from the cells' `scripts` notes); never for
 * cells told `--scripts none` or `all` (`scripts_choice`), whose runs'
 * process trees confirm it.
 */
int pmbench_report_scripts_mixed(const struct pmbench_report *rep,
				 const char *fixture);

/**
 * 1 if cell `i` starts a scenario (its fixture, task and scenario come
 * first at index i); such groups are how every writer walks the result.
 */
int pmbench_report_group_start(const struct pmbench_report *rep, size_t i);

/** 1 if cells i and j belong to the same fixture, task and scenario. */
int pmbench_report_same_group(const struct pmbench_report *rep, size_t i,
			      size_t j);

#endif
