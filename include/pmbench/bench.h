#ifndef PMBENCH_BENCH_H
#define PMBENCH_BENCH_H

#include "pmbench/pm.h"
#include "pmbench/result.h"
#include "pmbench/schedule.h"
#include "pmbench/task.h"

struct pmbench_ctx;
struct pmbench_fixture;
struct pmbench_pmrun;

/**
 * Called after each PM's priming install of a fixture (also when it
 * failed: ps->prime_failure is set), while its primed snapshot exists.
 * A negative return stops the benchmark with that error.
 */
typedef int (*pmbench_bench_primed_cb)(const struct pmbench_fixture *f,
				       struct pmbench_pmrun *ps, void *payload);

/** What `pmbench bench` was asked to do. */
struct pmbench_bench_opts {
	struct pmbench_strvec pms; /**< PM names, in run order */
	int pms_explicit;	   /**< --pm given: a missing PM is an error */
	unsigned scenarios[8];
	size_t scenarios_nr;
	unsigned runs;
	unsigned warmup;
	uint64_t timeout_ns;
	uint64_t seed;
	const char *out; /**< result file; a checkpoint after every scenario */
	struct pmbench_strvec env; /**< --env K=V for every PM */
	/** --scripts: what every PM is told of dependencies' scripts */
	enum pmbench_scripts_choice scripts;
	/** --ci: every PM's timed commands as on a CI runner (pmrun.h) */
	int ci;
	/* Migration: every PM primes from this PM's lockfile (or NULL). */
	const char *from_pm;
	const char *from_lock;
	pmbench_bench_primed_cb on_primed; /**< or NULL */
	/**
	 * Called before each PM's priming, once its workspace's folders are
	 * named and nothing is copied yet (migrate points ps->ws.source at
	 * a copy it changed for that PM), or NULL. A negative return stops
	 * the benchmark with that error.
	 */
	pmbench_bench_primed_cb on_workspace;
	void *payload;
	/**
	 * The time budget (`--budget`, bench's default; `--runs auto`):
	 * rounds and repeats spent by `budget` (schedule.h); `runs` is not
	 * used then. 0: the fixed plan of `runs` rounds.
	 */
	int runs_auto;
	struct pmbench_schedule_budget budget;
	/**
	 * The PM every other is measured against (`--baseline`); NULL:
	 * pmbench_pm_default_baseline() of `pms`. Recorded in the result.
	 */
	const char *baseline;
	/** --task: names of the task table (task.h) in order; empty: install */
	struct pmbench_strvec tasks;
	/** the task knobs' values (--probe, --edits: task.h) */
	struct pmbench_task_knobs knobs;
	/** `--shard K/N`: only shard K's timed rounds (schedule.h); N 0: all */
	unsigned shard, shards;
	/**
	 * Time the drift control (control.h) at the start of every round,
	 * as cell PMBENCH_CONTROL_PM of each scenario (bench: on unless
	 * --no-control).
	 */
	int control;
	/**
	 * --node: "system", or a version or range every fixture runs
	 * under; NULL: each fixture's own (node.h), else the pinned one.
	 */
	const char *node;
	/**
	 * --pm-config: "user" (NULL too: the user's ~/.npmrc passed on to
	 * every PM) or "defaults" (no user file passed: each PM with its
	 * own defaults; the repo's own files stay, as they are the repo's).
	 */
	const char *pm_config;
	/** the command's options as given, recorded in the result; or NULL */
	const struct pmbench_strvec *arguments;
	/**
	 * `--explain`: after each scenario's timed runs of a task that can
	 * be explained (install), this many untimed runs per PM with the
	 * PM's own timers on (explain.h); 0: none.
	 */
	int explain;
	/**
	 * `--base SHA`: the fixture (one, a git repository) is checked out
	 * twice, at this commit and at its own (`--head SHA`, or its
	 * manifest's, or HEAD), and every PM runs on both sides in each
	 * round, paired by round: the base side's cells are those of
	 * fixture "<name>@base" (PMBENCH_RESULT_BASE_SIDE), each the
	 * reference of its PM's cell on the head side. NULL: one side.
	 */
	const char *base_commit;
	/** `--head SHA`: the head side's commit (the CLI pins the fixture's) */
	const char *head_commit;
	/**
	 * `--prove-offline`: after each warm scenario's timed installs
	 * (cache or node_modules in place), one untimed run per PM with
	 * the local registry refusing every request: its cell's proof.
	 */
	int prove;
};

#define PMBENCH_BENCH_OPTS_INIT                                                \
	{                                                                      \
		.pms = PMBENCH_STRVEC_INIT, .runs = 5, .warmup = 1, .seed = 1, \
		.env = PMBENCH_STRVEC_INIT,                                    \
		.budget = PMBENCH_SCHEDULE_BUDGET_INIT,                        \
		.tasks = PMBENCH_STRVEC_INIT,                                  \
		.knobs = PMBENCH_TASK_KNOBS_INIT,                              \
	}

void pmbench_bench_opts_release(struct pmbench_bench_opts *o);

/**
 * Benchmark the tasks of `o->tasks` (the task table's: install in each
 * scenario first, then the others in each PM's primed tree, in the order
 * given) on `fixtures` (loaded, not yet checked out) with the options,
 * filling `r` (options, environment, fixtures, cells). Once
 * `r` has a cell, the result file `o->out` is rewritten after each
 * scenario and task so a killed run keeps what it measured (a failed
 * write warns); the caller writes the final result, and fails if it
 * cannot (pmbench_cli_finish()). Returns 0 (failed runs are results, not
 * errors), PMBENCH_EINTERRUPTED, PMBENCH_EINVALID for a name that is no
 * task, or an error that stopped it.
 */
int pmbench_bench_run(struct pmbench_ctx *ctx, struct pmbench_result *r,
		      const struct pmbench_bench_opts *o,
		      struct pmbench_fixture *fixtures, size_t fixtures_nr);

#endif
