#ifndef PMBENCH_RESULT_H
#define PMBENCH_RESULT_H

#include <stdint.h>

#include "pmbench/pmtimer.h"
#include "pmbench/strvec.h"

struct pmbench_ctx;
struct pmbench_phases;

/**
 * The in-memory result of a benchmark: every raw sample, the options and
 * the environment. It is what the table, the JSON file and the reports
 * are written from, and what `pmbench report` reads back.
 */

#define PMBENCH_RESULT_SCHEMA  "pmbench-result"
#define PMBENCH_RESULT_VERSION 1

/**
 * What ends the fixture name of the base side's cells in a result of
 * `bench --base` ("todo@base"): its head side's are the fixture's own.
 */
#define PMBENCH_RESULT_BASE_SIDE "@base"

/**
 * A named figure of one run beyond the fixed fields, e.g. "ready_line_s"
 * or "archive_bytes" for tasks that measure more than one time. The unit
 * is the name's suffix: "_s" seconds, "_bytes", "_count", "_ratio".
 */
struct pmbench_metric {
	char *name;
	double value; /**< finite */
};

/**
 * Whether a run was in the state its scenario asks for (statecheck.h):
 * not checked (a task that is no install, a run without the mirror's
 * counts, an older result), as asked, different in a way the PM's
 * table documents, or not the state asked.
 */
enum pmbench_check {
	PMBENCH_CHECK_NONE = 0,
	PMBENCH_CHECK_PASS,
	PMBENCH_CHECK_KNOWN,
	PMBENCH_CHECK_FAIL,
};

/** "pass", "known", "fail"; NULL for PMBENCH_CHECK_NONE (or no check). */
const char *pmbench_check_name(int check);

/**
 * The offline proof of a warm cell (bench --prove-offline): one untimed
 * install with the registry refusing every request (statecheck.h).
 */
enum pmbench_proof {
	PMBENCH_PROOF_NONE = 0, /**< not proven: not asked, a cold cell */
	PMBENCH_PROOF_PASS,	/**< it installed and asked nothing */
	PMBENCH_PROOF_FAIL,	/**< it failed offline, or asked: not warm */
};

/** "pass", "fail"; NULL for PMBENCH_PROOF_NONE (or no proof). */
const char *pmbench_proof_name(int proof);

/** One timed (or warm-up) run. */
struct pmbench_sample {
	unsigned round;	  /**< 0-based round index, warm-ups included */
	int warmup;	  /**< 1 for a warm-up run (not in statistics) */
	int ok;		  /**< 1 if the run succeeded */
	uint64_t wall_ns; /**< CLOCK_MONOTONIC from spawn to exit */
	uint64_t user_ns; /**< wait4 rusage of the PM and waited descendants */
	uint64_t sys_ns;
	uint64_t max_rss_kib; /**< ru_maxrss: the largest single process */
	/**
	 * pmbench's own peak RSS at the spawn, 0 if not recorded: a
	 * max_rss_kib at or below it means "at most this" (see
	 * struct pmbench_child_result)
	 */
	uint64_t max_rss_floor_kib;
	uint64_t tree_rss_kib; /**< sampled peak of the whole tree's RSS sum */
	int exit_code;	       /**< -1 if killed by a signal */
	int signal;	       /**< terminating signal, 0 if none */
	int timed_out;
	/**
	 * pmbench was stopped (SIGINT, SIGTERM, SIGHUP, SIGQUIT) while this
	 * run was in flight: it is neither a time nor a failure (ok is 0,
	 * failure says "interrupted ..."), and is left out of the
	 * statistics and of the failure counts.
	 */
	int interrupted;
	int leftover; /**< processes still alive after the PM exited */
	/**
	 * The PM makes no node_modules (Plug'n'Play): nm_bytes and nm_files
	 * are not measured, and left out of the file.
	 */
	int no_node_modules;
	uint64_t nm_bytes; /**< node_modules on disk after the run */
	uint64_t nm_files;
	double started; /**< Unix time the run started (seconds);
				    written to the microsecond */
	char *failure;	/**< one-line reason when !ok, else NULL */
	char *tail;	/**< last output lines when !ok, else NULL */
	struct pmbench_metric *metrics; /**< in the order they were set */
	size_t metrics_nr, metrics_alloc;
	/** A merged result: 1-based index into `machines`, else 0. */
	unsigned machine;
	/**
	 * 0 for a round's first run; 1, 2, ... for the repeats of a cheap
	 * PM within the round (bench's budget): the round's value is the
	 * median of its runs (pmbench_cell_times()).
	 */
	unsigned repeat;
	/**
	 * Where the run's time went (phases.h), owned, or NULL (a run not
	 * traced, an older result). A result file keeps one run's
	 * request log a cell (the waterfall): see pmbench_cell_waterfall().
	 */
	struct pmbench_phases *phases;
	/** Its state check (enum pmbench_check; JSON `state_check`). */
	int state_check;
	/**
	 * Why it is not PASS, one line ("resolved again: 113 packument
	 * requests with the lockfile"), else NULL (`state_why`).
	 */
	char *state_why;
	/**
	 * In a scenario with node_modules in place: the first paths the run
	 * wrote there (relative to the run copy, ", " between them; the
	 * count is the metric node_modules_written_count), else NULL
	 * (`node_modules_written`).
	 */
	char *nm_written;
};

/**
 * One `--explain` run: untimed, after the timed ones, with the PM's own
 * timers switched on (its table entry's `timer_args`), and what they
 * said (pmtimer.h). Its wall time is not a measurement to compare: the
 * timers' output slows some PMs (docs/explain.md).
 */
struct pmbench_explain_run {
	int ok;		  /**< it succeeded and its timers were read */
	uint64_t wall_ns; /**< spawn to exit, timers on */
	char *failure;	  /**< why not ok (or what was cut), else NULL */
	struct pmbench_pm_phases phases;
};

/** Whether a cell can be measured at all. */
enum pmbench_cell_state {
	/** Its runs are timed (each may still fail). */
	PMBENCH_CELL_MEASURABLE = 0,
	/**
	 * The PM has no way to do the task (resolve under yarn 1: no
	 * lockfile-only install): no runs and never a time; the cell's
	 * `note` says why. Reports show "n/a" and the note.
	 */
	PMBENCH_CELL_UNSUPPORTED,
};

/** Every sample of one (fixture, task, scenario, PM). */
struct pmbench_cell {
	char *fixture;
	char *task;	/**< "install", "run", "build", "dev" */
	char *scenario; /**< e.g. "cache+lockfile" */
	char *pm;
	char *lockfile; /**< which lockfile the PM used and where from */
	char *scripts;	/**< what happened to dependency lifecycle scripts */
	/**
	 * `--scripts`: what the PM was told of them (enum
	 * pmbench_scripts_choice, pm.h; JSON `scripts_choice`, written
	 * unless "default").
	 */
	int scripts_choice;
	/**
	 * `--ci`: its timed commands ran as on a CI runner (CI=true,
	 * GITHUB_ACTIONS=true; JSON `ci`, written when true).
	 */
	int ci;
	char *prime_failure; /**< priming failed: why (no samples then) */
	/** `--runs auto`: why its scenario stopped adding runs, else NULL */
	char *stopped_by;
	/** Set where it is decided (pmbench_cell_set_unsupported()). */
	enum pmbench_cell_state state;
	/**
	 * What the cell cannot measure and why, for humans (e.g.
	 * "node_modules: n/a: Plug'n'Play"; for an unsupported cell, why
	 * the PM cannot do the task), else NULL.
	 */
	char *note;
	/**
	 * What the PM's scripts and their bins ran under: "node v24.22.3"
	 * or "bun 1.4.5" (bun:runtime), else NULL (an older result).
	 */
	char *runtime;
	/**
	 * The version its PM ran at and why: "9.15.0: the repo's
	 * packageManager field (pnpm@9.15.0)", "9.15.9: --pm pnpm@9",
	 * "12.23.0: pinned (toolchain)"; NULL in an older result.
	 */
	char *pm_version;
	/**
	 * Which Node it ran under and why: "v20.19.5: from .nvmrc: 20 ->
	 * 20.19.5 (from the registry)", "v24.22.3: pinned default 24.22.3
	 * (the repo asks for none)"; NULL: an older result.
	 */
	char *node;
	/**
	 * Its priming failed where a Node of the lockfile's era would not
	 * have, and the repo names no Node: "this lockfile's newest package
	 * was published 2020-11-03: Node 14 was the LTS then; try --node
	 * 14" (pmrun.h pmbench_pmrun_era_hint()), else NULL.
	 */
	char *node_era;
	/**
	 * The PM configuration that changes the work, as set and where
	 * ("omit-lockfile-registry-resolved=true (~/.npmrc)"; "none set"),
	 * or NULL: an older result.
	 */
	char *pm_config;
	struct pmbench_strvec command; /**< argv of the timed command */
	struct pmbench_strvec env;     /**< "K=V" / "K" deltas applied */
	struct pmbench_sample *samples;
	size_t samples_nr, samples_alloc;
	/**
	 * `--explain`: how the PM's timers were switched on ("--timing"),
	 * else NULL; and the runs with them on, in order.
	 */
	char *explain_how;
	struct pmbench_explain_run *explain;
	size_t explain_nr, explain_alloc;
	/**
	 * Its offline proof (enum pmbench_proof; JSON `offline_proof`),
	 * and what the proof's run did, one line (`offline_proof_why`),
	 * else NULL.
	 */
	int proof;
	char *proof_why;
};

/** A key and value pair, for the environment record. */
struct pmbench_kv {
	char *key;
	char *value;
};

/** A PM (or a variant) looked for on this machine. */
struct pmbench_result_pm {
	char *name;
	char *path;    /**< NULL when not found */
	char *version; /**< NULL when not found */
	char *base;    /**< a variant: the PM it configures, else NULL */
	/**
	 * A variant: its configuration, for humans and legends ("npm with
	 * --install-strategy=linked"), else NULL.
	 */
	char *config;
};

/** A fixture the run used; every string may be NULL. */
struct pmbench_result_fixture {
	char *name;
	char *repo;
	char *commit; /**< resolved commit, or NULL */
	char *subdir;
	char *description;
	/** The Node it ran under and why (see pmbench_cell's), or NULL. */
	char *node;
};

/**
 * The machine a merged result's samples ran on (pmbench merge): what the
 * shard's environment said; every string but `id` may be NULL.
 */
struct pmbench_result_machine {
	char *id;	 /**< "m1", "m2", ... */
	char *cpu_model; /**< the shard's environment.cpu_model */
	char *kernel;	 /**< environment.kernel */
	char *host;	 /**< environment.host_hash */
	char *shards;	 /**< the shards it ran, "1/3, 3/3" */
};

/**
 * A whole result. Initialise with PMBENCH_RESULT_INIT, free with
 * pmbench_result_release(). See docs/result-schema.md for the JSON form.
 */
struct pmbench_result {
	int schema_version; /**< version of the file it was read from */
	char *pmbench_version;
	char *created; /**< ISO 8601 UTC, e.g. 2026-12-02T18:40:00Z */

	/* Options. */
	struct pmbench_strvec pms;
	struct pmbench_strvec scenarios;
	struct pmbench_strvec tasks;
	struct pmbench_strvec arguments; /**< the options as given */
	unsigned runs;
	unsigned warmup;
	uint64_t timeout_ns;
	uint64_t seed;
	/*
	 * The time budget (`--budget`, bench's default, `--runs auto`;
	 * runs is then the most rounds a scenario ran); see schedule.h.
	 */
	int runs_auto;
	/**
	 * the target half-width of each PM's paired ratio against the
	 * baseline, relative to the ratio (0.10: ±10 %)
	 */
	double auto_target;
	unsigned auto_min_runs;
	uint64_t auto_budget_ns; /**< the whole command's budget */
	unsigned auto_max_runs;	 /**< rounds of a scenario at most */
	/**
	 * `--baseline`: the PM every other is measured against (paired
	 * ratios and verdicts beside "vs fastest"), or NULL (none: an
	 * older result).
	 */
	char *baseline;
	/** `baseline` was named (`--baseline`), not the default */
	int baseline_chosen;

	/* Environment: os, kernel, cpu_model, cpu_count, ... in order. */
	struct pmbench_kv *env;
	size_t env_nr, env_alloc;
	struct pmbench_result_pm *found;
	size_t found_nr, found_alloc;

	struct pmbench_result_fixture *fixtures;
	size_t fixtures_nr, fixtures_alloc;
	struct pmbench_cell *cells;
	size_t cells_nr, cells_alloc;

	/* `--shard K/N` and `pmbench merge`: see include/pmbench/plan.h. */
	unsigned shard;	 /**< K of a shard's result, else 0 */
	unsigned shards; /**< N (a merge keeps it), else 0 */
	char *plan_id;	 /**< the plan's hash, or NULL */
	/**
	 * the options given that change what is measured, "name=value" in
	 * the option table's order, as the plan id hashes them (an --env
	 * value only when it cannot be a credential); `merge` names the one
	 * that differs
	 */
	struct pmbench_strvec plan_options;
	struct pmbench_result_machine *machines; /**< a merge's, else none */
	size_t machines_nr, machines_alloc;

	/**
	 * The result of a live `claim`: the claim it judged, as given
	 * ("bun install is 20x faster than npm install"), and its
	 * tolerance (0.10: ±10 %), so that `report` judges it again as
	 * `claim` did; NULL for every other result.
	 */
	char *claim;
	double claim_tolerance;
};

#define PMBENCH_RESULT_INIT                                                   \
	{                                                                     \
		.schema_version = PMBENCH_RESULT_VERSION,                     \
		.pms = PMBENCH_STRVEC_INIT, .scenarios = PMBENCH_STRVEC_INIT, \
		.tasks = PMBENCH_STRVEC_INIT,                                 \
		.arguments = PMBENCH_STRVEC_INIT,                             \
		.plan_options = PMBENCH_STRVEC_INIT                           \
	}

/**
 * Set (or replace, keeping its position) an environment entry; copies
 * both strings, neither of which may be NULL.
 */
void pmbench_result_env_set(struct pmbench_result *r, const char *key,
			    const char *value);
/** The value of an environment entry, or NULL. */
const char *pmbench_result_env_get(const struct pmbench_result *r,
				   const char *key);

/**
 * Append a cell with copies of the four names and everything else empty;
 * returns it (owned by r, valid until the next cell is added).
 */
struct pmbench_cell *
pmbench_result_add_cell(struct pmbench_result *r, const char *fixture,
			const char *task, const char *scenario, const char *pm);
/** The first cell with these four names, or NULL. */
struct pmbench_cell *pmbench_result_find_cell(const struct pmbench_result *r,
					      const char *fixture,
					      const char *task,
					      const char *scenario,
					      const char *pm);
/**
 * Append a zeroed sample to a cell; returns it (owned by the cell, valid
 * until the next sample is added to it). The samples before it are
 * finished then: a warm-up's and a failed run's request log are dropped,
 * and of the timed runs' logs at most 9 are kept (past 9, those of the
 * runs farthest from the median so far go first), so that a cell holds
 * at most 10 at any time and the median run's is among them.
 */
struct pmbench_sample *pmbench_cell_add_sample(struct pmbench_cell *c);

/**
 * The sample of `c` whose request log is the cell's waterfall: of the
 * successful timed runs that have one, the closest to the median time
 * of all its successful timed runs (the earliest of equals): the median
 * run itself for up to 9 timed runs (pmbench_cell_add_sample()), past
 * that the closest of the logs kept on the way. NULL when there is none.
 */
const struct pmbench_sample *
pmbench_cell_waterfall(const struct pmbench_cell *c);

/**
 * Append an empty `--explain` run to a cell; returns it (owned by the
 * cell, valid until the next run is added to it).
 */
struct pmbench_explain_run *pmbench_cell_add_explain(struct pmbench_cell *c);

/**
 * Mark `c` PMBENCH_CELL_UNSUPPORTED, `why` (copied) its note in place of
 * any other: "n/a: it has no lockfile-only install".
 */
void pmbench_cell_set_unsupported(struct pmbench_cell *c, const char *why);

/**
 * The wall times (in seconds) of the cell, one per timed round with a
 * successful run, in the order the rounds first appear, into a new
 * array; *out_n gets the count. A round's value is the median of its
 * successful runs: one run, or the repeats of a cheap PM (bench's
 * budget, docs/statistics.md). Never NULL, even when the count is 0; the
 * caller frees it with free().
 */
double *pmbench_cell_times(const struct pmbench_cell *c, size_t *out_n);

/** What a cell has in one timed round. */
enum pmbench_round_state {
	PMBENCH_ROUND_NONE = 0,	   /**< no run in that round */
	PMBENCH_ROUND_INTERRUPTED, /**< only interrupted runs */
	PMBENCH_ROUND_FAILED,	   /**< no successful run, a failed one */
	PMBENCH_ROUND_OK	   /**< at least one successful run */
};

/**
 * Timed round `round` of the cell on machine `machine` (0 but in merged
 * results): its state, and with PMBENCH_ROUND_OK the median of its
 * successful runs into *out (seconds) and their count into *out_runs
 * (either may be NULL).
 */
enum pmbench_round_state pmbench_cell_round(const struct pmbench_cell *c,
					    unsigned round, unsigned machine,
					    double *out, size_t *out_runs);

/**
 * The machine (`sample.machine`) of each value pmbench_cell_times()
 * gives, in the same order; *out_n gets the count. free() it.
 */
unsigned *pmbench_cell_round_machines(const struct pmbench_cell *c,
				      size_t *out_n);

/**
 * The fewest and the most successful runs a round's value holds (0 and
 * 0 without one): 1 and 1 unless runs were repeated within rounds.
 */
void pmbench_cell_runs_per_round(const struct pmbench_cell *c, size_t *out_min,
				 size_t *out_max);

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
int pmbench_cell_pair_rounds(double **out_a, double **out_b, size_t *out_n,
			     const struct pmbench_cell *a,
			     const struct pmbench_cell *b);

struct pmbench_interval;

/**
 * The paired ratio a / b (median of the per-round ratios, a bootstrap
 * over whole rounds seeded with `seed`: stats.h) into *out, and the
 * rounds paired into *out_n. Returns 1, 0 when the rounds do not pair
 * (pmbench_cell_pair_rounds()), or a negative error.
 */
int pmbench_cell_paired_ratio(struct pmbench_interval *out, size_t *out_n,
			      const struct pmbench_cell *a,
			      const struct pmbench_cell *b, double level,
			      unsigned resamples, uint64_t seed);

/**
 * Set (or replace, keeping its position) the metric `name` of a sample;
 * `value` must be finite.
 */
void pmbench_sample_metric_set(struct pmbench_sample *s, const char *name,
			       double value);

/**
 * The metric `name` of a sample into *out. Returns 1 if the sample has
 * it, else 0 (and *out is left alone).
 */
int pmbench_sample_metric_get(const struct pmbench_sample *s, const char *name,
			      double *out);

/**
 * Like pmbench_cell_times(), for the metric `name`: its values in the
 * successful non-warm-up samples that have it. Never NULL; free() it.
 */
double *pmbench_cell_metric_values(const struct pmbench_cell *c,
				   const char *name, size_t *out_n);

/**
 * The names of every metric any sample of the cell has, in the order
 * first seen, appended to `out` (each once).
 */
void pmbench_cell_metric_names(const struct pmbench_cell *c,
			       struct pmbench_strvec *out);

/**
 * 1 when the cell is "not the state asked": it has a successful timed
 * run and every one of them failed its state check (PMBENCH_CHECK_FAIL).
 * Its runs are then no times: pmbench_cell_times(), pmbench_cell_round()
 * and the pairs leave them out, as the budget and the reports do.
 */
int pmbench_cell_wrong_state(const struct pmbench_cell *c);

/**
 * The successful timed runs of `c` whose state check is `check`, and
 * the first such run's `state_why` into *out_why (may be NULL; NULL
 * when none has one).
 */
size_t pmbench_cell_checks(const struct pmbench_cell *c, int check,
			   const char **out_why);

/** Number of failed non-warm-up samples (interrupted ones are not). */
size_t pmbench_cell_failures(const struct pmbench_cell *c);

/**
 * 1 if a cell of `r` has a sample (a run, failed or interrupted ones
 * included), else 0. A result without one holds nothing a run measured
 * (its cells were made, then pmbench stopped, or every priming failed):
 * it is never written over a file (pmbench_cli_save(), the checkpoints).
 */
int pmbench_result_has_samples(const struct pmbench_result *r);

/** Number of interrupted samples, warm-ups included. */
size_t pmbench_cell_interrupted(const struct pmbench_cell *c);

/**
 * The processes the PM left running (`leftover`, summed over every
 * sample, warm-ups included); `*out_runs` gets how many samples left any.
 */
size_t pmbench_cell_leftover(const struct pmbench_cell *c, size_t *out_runs);

/**
 * Mark a sample as interrupted: not ok, `interrupted` set, and `why`
 * (such as "interrupted by SIGINT") as its failure line; with a NULL
 * `why` a failure line already there is kept, else it is "interrupted".
 */
void pmbench_sample_interrupt(struct pmbench_sample *s, const char *why);

/**
 * Mark `s` as the run in flight when pmbench was stopped (`ctx`
 * cancelled): pmbench_sample_interrupt() with "interrupted by SIGINT",
 * the signal that stopped pmbench, as its line.
 */
void pmbench_sample_stopped(struct pmbench_sample *s,
			    const struct pmbench_ctx *ctx);

/**
 * Free what a sample holds (failure, tail, metrics), for a sample that
 * is not in a cell (a cell's are freed with the result).
 */
void pmbench_sample_release(struct pmbench_sample *s);

/**
 * Append a fixture record with copies of the strings (any may be NULL);
 * returns it (owned by r, valid until the next fixture is added).
 */
struct pmbench_result_fixture *
pmbench_result_add_fixture(struct pmbench_result *r, const char *name,
			   const char *repo, const char *commit,
			   const char *subdir, const char *description);

/**
 * Append a found-PM record with copies of the strings (path and version
 * may be NULL; base and config are left NULL); returns it (owned by r,
 * valid until the next record is added).
 */
struct pmbench_result_pm *pmbench_result_add_pm(struct pmbench_result *r,
						const char *name,
						const char *path,
						const char *version);

/**
 * Fill the environment entries this machine can tell without running a
 * program, in this order: os, os_release, kernel, arch, cpu_model,
 * cpu_count, mem_total_kib, loadavg, cpu_governor. An entry whose source
 * is missing or unreadable is left out. The hostname is NOT recorded.
 * Existing entries with the same keys are replaced.
 */
void pmbench_result_collect_sysinfo(struct pmbench_result *r);

/** Set `created` to the current UTC time, e.g. "2026-12-02T18:40:00Z". */
void pmbench_result_stamp(struct pmbench_result *r);

/**
 * Serialise as JSON (docs/result-schema.md) into a new string, ending in
 * a newline, that the caller frees with free(). Never NULL. Always writes
 * the current PMBENCH_RESULT_VERSION, whatever `schema_version` says.
 * Times survive exactly below 10^15 ns and counts below 2^52.
 */
char *pmbench_result_to_json(const struct pmbench_result *r);

/**
 * Parse JSON written by pmbench_result_to_json() into `out`, which is
 * overwritten without being released first. Missing optional fields get
 * defaults (0, false, NULL, empty) and unknown fields are ignored.
 * Returns 0, or PMBENCH_EINVALID on malformed JSON, another "schema", a
 * "version" newer than PMBENCH_RESULT_VERSION, a missing required field
 * or a field of the wrong type, with a one-line message that names
 * `origin` (a file name; NULL gives "(string)") and the field, such as
 * "cells[2].samples[4].wall_s". On error `out` is PMBENCH_RESULT_INIT.
 */
int pmbench_result_from_json(struct pmbench_result *out, const char *json,
			     const char *origin);

/**
 * Write pmbench_result_to_json() to `path`, a file the user named,
 * through pmbench_fs_write_output(): atomically (a temporary file in the
 * same directory, then rename) for a regular file or a new name, at the
 * end of any symlinks; written through for a character device. Returns 0
 * or a negative error naming the file.
 */
int pmbench_result_write(const struct pmbench_result *r, const char *path);

/**
 * Read and parse a result file, as pmbench_result_from_json() with the
 * path as origin. PMBENCH_ENOTFOUND if it does not exist.
 */
int pmbench_result_read(struct pmbench_result *out, const char *path);

/** Free everything; `r` is left as PMBENCH_RESULT_INIT. */
void pmbench_result_release(struct pmbench_result *r);

/**
 * When `r` was made: `created` as seconds since 1970-01-01 UTC in *out.
 * Returns 1 when it is a real date and time (pmbench_date_parse(): month
 * 01 to 12, a day the month has, leap years), 0 when the result has no
 * `created` (*out is 0), or PMBENCH_EINVALID with a message naming the
 * file `name` and what is wrong with the date.
 */
int pmbench_result_created(int64_t *out, const struct pmbench_result *r,
			   const char *name);

#endif
