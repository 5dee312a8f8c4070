#ifndef PMBENCH_REPORT_KIND_H
#define PMBENCH_REPORT_KIND_H

#include <stddef.h>
#include <stdint.h>

#include "pmbench/claim.h"
#include "pmbench/doc.h"
#include "pmbench/migrate.h"
#include "pmbench/report.h"
#include "pmbench/result.h"

/**
 * The report kinds: what each command shows, as a document (doc.h) that
 * any output format (format.h) writes. Each builder starts `out` with
 * pmbench_doc_init(); the caller releases it with pmbench_doc_release().
 * Every input must outlive the document.
 *
 * Every kind ends with the same legend of the package managers it shows
 * (name: version and path; src/report/kind_common.c), the one place the
 * configurations of PM variants will be named.
 */

/**
 * A benchmark result (`bench`, `report`): per scenario the statistics
 * table with the sentences against the fastest and the warnings, the
 * run, build and dev tables, what each PM used; on pages also the PM
 * matrix, the ratio table, charts, failures with their output and the
 * environment. CSV writes every run; JSON is hyperfine's export.
 */
void pmbench_report_bench(struct pmbench_doc *out,
			  const struct pmbench_result *r);

/**
 * A ci-cache result (`ci-cache`): per PM each strategy's miss, hit and
 * lockfile-changed jobs with medians and spread, the fastest strategy
 * per PM and the fastest PM marked, the transfer model stated. CSV and
 * JSON write the jobs table.
 */
void pmbench_report_cicache(struct pmbench_doc *out,
			    const struct pmbench_result *r);

struct pmbench_history;

/**
 * A history (`history DIR`): one series per fixture, task, scenario and
 * PM over the results of `h` (at least one): per date and PM version
 * the median with its 95 % interval (machines resampled first in merged
 * results) and a change flagged where compare's rule finds one against
 * the result before. The terminal shows one line per series; pages a
 * trend chart and a table per series; CSV and JSON the table "history"
 * (every point). `dir` names the folder in the text.
 */
void pmbench_report_history(struct pmbench_doc *out,
			    const struct pmbench_history *h, const char *dir);

/**
 * The kind `report` shows for a result file: ci-cache for a result of
 * `ci-cache` (its cells have task "ci-cache"), else bench.
 */
void pmbench_report_result(struct pmbench_doc *out,
			   const struct pmbench_result *r);

struct pmbench_result_file;

/**
 * What the command that wrote the result file `f` showed (`report`): a
 * bench or ci-cache result as pmbench_report_result() shows it, a claim
 * result's claim judged again as `claim` judged it
 * (pmbench_report_claim(), in the result's scenarios), a migrate result
 * as `migrate` showed it (pmbench_report_migrate() of its model). `f`
 * must outlive `out`. Returns 0, or PMBENCH_EINVALID with the error set
 * when it cannot be shown as it was: a migrate result that lacks the
 * model (resultfile.h's `lacks`), a claim that does not parse.
 */
int pmbench_report_file(struct pmbench_doc *out,
			const struct pmbench_result_file *f);

/**
 * A migration (`migrate`): one verdict line per target first, then the
 * details per target against the source, then the install benchmark of
 * `r` as the bench kind shows it. JSON is the "pmbench-migrate" report
 * (with `r` embedded as "result"); CSV writes one row per PM.
 */
void pmbench_report_migrate(struct pmbench_doc *out,
			    const struct pmbench_migrate *m,
			    const struct pmbench_result *r);

/**
 * The "pmbench-migrate" JSON report alone (what `migrate --out` writes):
 * the source, each PM's verdict, lockfile route, resolution diff,
 * install-script differences and tasks, and `r` as "result". Caller
 * frees with free().
 */
char *pmbench_report_migrate_json(const struct pmbench_migrate *m,
				  const struct pmbench_result *r);

/** One cell that two results share, with the change from A to B. */
struct pmbench_report_pair {
	const struct pmbench_cell *a, *b; /**< in the results; not owned */
	size_t b_index;			  /**< b's index: its seed */
	unsigned state;			  /**< PMBENCH_STATE_* */
	size_t na, nb;			  /**< successful timed runs */
	double median_a, median_b;
	/** cmp is valid: both have runs (B against A: ratio b / a) */
	int has_cmp;
	struct pmbench_comparison cmp;
	/** the runs cannot reach p < 0.05 (3 against 3) */
	int too_few;
	/** where the time went in A and in B (runs 0: no phases) */
	struct pmbench_report_phases phases_a, phases_b;
	/**
	 * `paired` is valid: A and B are the two sides of one `bench --base`
	 * (the same rounds), whose per-round ratios B / A pair (the median
	 * and a bootstrap over `paired_n` rounds, pmbench_cell_paired_ratio())
	 */
	int has_paired;
	struct pmbench_interval paired;
	size_t paired_n;
};

/**
 * Two results cell by cell (`compare`): every cell of B that A has too
 * (same fixture, task, scenario and PM), with the change of the median
 * (B / A) and its bootstrap interval (seeded with B's seed + the cell's
 * index in B), Mann-Whitney and the verdict; and the cells only one of
 * them has.
 */
struct pmbench_report_compare {
	const struct pmbench_result *a, *b; /**< not owned */
	const char *name_a, *name_b;	    /**< file names; not owned */
	struct pmbench_report_pair *pairs;
	size_t pairs_nr, pairs_alloc;
	struct pmbench_strvec only_a, only_b; /**< "fixture · task · ..." */
	/** A and B are the base and head sides of one result (bench --base) */
	int sides;
};

#define PMBENCH_REPORT_COMPARE_INIT                                          \
	{                                                                    \
		.only_a = PMBENCH_STRVEC_INIT, .only_b = PMBENCH_STRVEC_INIT \
	}

/**
 * Whether `r` holds the two sides of a `bench --base` (a fixture whose
 * name ends with PMBENCH_RESULT_BASE_SIDE): 1 or 0.
 */
int pmbench_report_has_sides(const struct pmbench_result *r);

/**
 * The two sides of one `bench --base` result `r` (named `name`) as a
 * comparison: A the base side's cells ("todo@base"), B the head's
 * ("todo"), each pair also with its paired ratio by round.
 */
void pmbench_report_compare_sides(struct pmbench_report_compare *out,
				  const struct pmbench_result *r,
				  const char *name);

/** Match the cells of `a` and `b` and compare them into `out`. */
void pmbench_report_compare_init(struct pmbench_report_compare *out,
				 const struct pmbench_result *a,
				 const char *name_a,
				 const struct pmbench_result *b,
				 const char *name_b);

void pmbench_report_compare_release(struct pmbench_report_compare *c);

/**
 * The comparison as a document: per scenario each PM's versions (A -> B),
 * both medians, the change with its interval, p and the verdict; a
 * chart of the changes; the cells only one file has. CSV and JSON write
 * the comparisons table.
 */
void pmbench_report_compare(struct pmbench_doc *out,
			    const struct pmbench_report_compare *c);

/**
 * Two migrate results (`compare`): `c` compares the results they embed
 * (pmbench_report_compare_init()), `ma` and `mb` are their models. Per
 * target (B's, then those only A had): whether it installs, how its
 * lockfile was made, the versions it resolves against the source, each
 * parity task and each timed scenario's speed against the source, in
 * migrate's words for A and for B, each marked when it moved (a speed
 * when its 95 % intervals do not overlap); what it resolves differently
 * in B than in A; then the cells as pmbench_report_compare() shows them.
 * CSV writes the table "moves" (pm, check, a, b, speedups, moved).
 */
void pmbench_report_compare_migrate(struct pmbench_doc *out,
				    const struct pmbench_report_compare *c,
				    const struct pmbench_migrate *ma,
				    const struct pmbench_migrate *mb);

/** A claim judged in one scenario of a result. */
struct pmbench_report_judgement {
	const struct pmbench_cell *a, *b; /**< the claim's two sides */
	unsigned state;			  /**< PMBENCH_STATE_* */
	size_t na, nb;			  /**< successful timed runs */
	int judged; /**< 0: a side has no successful run, or `unfit` */
	/**
	 * A side whose times are not of the state asked (every run failed
	 * its state check, or it failed its offline proof), or NULL.
	 */
	const struct pmbench_cell *unfit;
	struct pmbench_claim_judgement j;
};

/**
 * A claim judged against every scenario of a result that has both of its
 * sides (`claim`).
 */
struct pmbench_report_claim {
	const struct pmbench_claim *claim; /**< not owned */
	double tolerance;
	struct pmbench_report_judgement *scenarios;
	size_t scenarios_nr, scenarios_alloc;
	size_t judged, refuted, unsure; /**< scenarios with each outcome */
	/** of the refuted, those that exceed the claim (the others fall short) */
	size_t exceeded;
};

#define PMBENCH_REPORT_CLAIM_INIT \
	{                         \
		.claim = NULL     \
	}

/**
 * Judge `claim` in every scenario of `r` where both sides have a cell:
 * only in `fixture` when it is not NULL, only the `states_nr` install
 * states `states` when that is not 0. Scenario i is seeded with r->seed
 * plus the index of the claim's first side's cell.
 */
void pmbench_report_claim_init(struct pmbench_report_claim *out,
			       const struct pmbench_result *r,
			       const struct pmbench_claim *claim,
			       const char *fixture, const unsigned *states,
			       size_t states_nr, double tolerance);

void pmbench_report_claim_release(struct pmbench_report_claim *c);

/**
 * The judgement as a document: the claim and the rule, per scenario the
 * verdict with the measured ratio and what would settle it, a chart of
 * the measured ratios against the claimed one, and the overall verdict
 * when a scenario was judged. CSV and JSON write the judgements table.
 */
void pmbench_report_claim(struct pmbench_doc *out,
			  const struct pmbench_report_claim *c,
			  const struct pmbench_result *r);

#endif
