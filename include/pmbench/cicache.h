#ifndef PMBENCH_CICACHE_H
#define PMBENCH_CICACHE_H

#include <stdio.h>

#include "pmbench/cachearc.h"
#include "pmbench/pm.h"
#include "pmbench/result.h"
#include "pmbench/schedule.h"

/** The task name of every ci-cache cell. */
#define PMBENCH_CICACHE_TASK "ci-cache"

struct pmbench_buf;
struct pmbench_ctx;
struct pmbench_fixture;

/**
 * CI cache-strategy experiments (`pmbench ci-cache`): simulated CI jobs
 * that restore a cache archive, install in the PM's frozen-lockfile mode
 * and save a new archive, per PM, strategy and compression.
 *
 * Every job is one sample of a cell with task "ci-cache" and scenario:
 *
 * - "none": jobs without any cache (no archive);
 * - "<strategy>/<compression>/miss": the first job, with nothing to
 *   restore; its saved archive is the one later jobs restore (like a CI
 *   cache keyed on the lockfile);
 * - "<strategy>/<compression>" (e.g. "store/zstd-3"): the `--runs` hit
 *   jobs, each restoring the miss job's archive;
 * - "<label>/lockfile-changed": one job after a dependency change in
 *   package.json, installing non-frozen with the old (stale) archive;
 *   "none/lockfile-changed" is its no-cache baseline.
 *
 * Every job starts by getting the PM as CI does (the setup step): npm
 * comes with Node (preinstalled, as on the runner images: nothing to
 * do); any other PM is installed per job with `npm install --global
 * <package>@<version>` from the mirror into a fresh prefix with an empty
 * npm cache, or, with the toolchain strategy, that prefix is restored
 * from its own archive (keyed on the PM's version: the miss job installs
 * and saves it, the hit and lockfile-changed jobs restore it).
 *
 * A sample's wall time is the job's setup + restore + install + save
 * (the toolchain archive's save included); its user,
 * sys, RSS, exit and failure fields are the install's. Metrics (seconds
 * and bytes): restore_s (with GNU tar: the tar process only),
 * restore_check_s (GNU tar: libarchive's check before it), setup_s
 * (the setup step: 0 for a preinstalled PM), setup_bytes (the toolchain
 * archive it restored), setup_save_s and setup_archive_bytes (the
 * toolchain archive the miss job saved), install_s,
 * save_s, archive_bytes and raw_bytes
 * (the archive the job saved, compressed and as an uncompressed tar),
 * files_count, restore_bytes (the archive it restored), download_s and
 * upload_s (those sizes at the modelled bandwidth), transfer_total_s
 * (wall + download + upload: a CI that always uploads) and
 * keyed_total_s (download + restore + install, plus save + upload only
 * when the cache key did not match, i.e. miss and lockfile-changed jobs:
 * what actions/cache-style CI does, which skips the upload on an exact
 * key hit).
 */

/** What a strategy caches. "none" is 0. */
enum pmbench_cicache_flags {
	PMBENCH_CICACHE_STORE = (1 << 0),	 /**< the PM's cache folders */
	PMBENCH_CICACHE_NODE_MODULES = (1 << 1), /**< node_modules + state */
	/** the PM itself: the prefix of its `npm install --global` */
	PMBENCH_CICACHE_TOOLCHAIN = (1 << 2)
};

/** What `pmbench ci-cache` was asked to do. */
struct pmbench_cicache_opts {
	struct pmbench_strvec pms; /**< PM names, in run order */
	int pms_explicit;	   /**< --pm given: a missing PM is an error */
	unsigned strategies[8];
	size_t strategies_nr;
	struct pmbench_cachearc_compression compressions[8];
	size_t compressions_nr;
	unsigned runs; /**< hit jobs per PM and strategy */
	/**
	 * The budget spends the hit rounds (the default; `--runs N` fixes
	 * them): see pmbench_cicache_run().
	 */
	int runs_auto;
	struct pmbench_schedule_budget budget;
	int lockfile_changed; /**< run the lockfile-changed job */
	/** Jobs run as on a CI runner (CI=true: pmrun.h's `ci`); --no-ci */
	int ci;
	uint64_t timeout_ns;	   /**< per install */
	double bandwidth;	   /**< bytes per second, > 0 */
	const char *out;	   /**< result file, rewritten as it goes */
	struct pmbench_strvec env; /**< --env K=V for every PM */
	/** --scripts: what every PM is told of dependencies' scripts */
	enum pmbench_scripts_choice scripts;
	/** --archiver: what saves and restores (libarchive by default) */
	enum pmbench_cachearc_archiver archiver;
};

/*
 * 12 min: ci-cache's default budget. Its default run is every PM (six)
 * and four strategies; three PMs (npm, pnpm, bun) of todo-api needed
 * 4:39 of their own (the primings, every strategy's miss job and 5 hit
 * rounds, the lockfile-changed jobs; 759 s wall less 8 min of waits,
 * 2026-12-06, quiet), so six about 9:20, 10:16 with the host's noise
 * (+-10 %): 12 min holds that with room for the rounds of open verdicts.
 */
#define PMBENCH_CICACHE_BUDGET_NS (12ull * 60ull * 1000000000ull)

#define PMBENCH_CICACHE_OPTS_INIT                                             \
	{                                                                     \
		.pms = PMBENCH_STRVEC_INIT, .runs = 3, .lockfile_changed = 1, \
		.ci = 1, .bandwidth = 100e6, .env = PMBENCH_STRVEC_INIT,      \
		.archiver = PMBENCH_CACHEARC_LIBARCHIVE,                      \
		.budget = PMBENCH_SCHEDULE_BUDGET_INIT_NS(                    \
			PMBENCH_CICACHE_BUDGET_NS),                           \
	}

void pmbench_cicache_opts_release(struct pmbench_cicache_opts *o);

/**
 * Parse "none", or "store", "node_modules" and "toolchain" joined by '+'
 * (any order, each once). Returns 0 or PMBENCH_EINVALID with a message
 * saying what is accepted.
 */
int pmbench_cicache_parse_strategy(unsigned *out, const char *s);

/** "none", "store", ..., "store+node_modules+toolchain" (static). */
const char *pmbench_cicache_strategy_name(unsigned strategy);

/**
 * Parse a bandwidth such as "100MB/s", "1.5GB/s", "250Mbit/s", "50MiB/s"
 * (units B, kB, MB, GB, KiB, MiB, GiB, kbit, Mbit, Gbit; "/s" optional;
 * decimal prefixes are powers of 1000) into bytes per second. Returns 0
 * or PMBENCH_EINVALID.
 */
int pmbench_cicache_parse_bandwidth(double *out, const char *s);

/**
 * Run the experiment on one fixture (loaded, not yet checked out),
 * filling `r`. Once `r` has a cell, the result file is rewritten after
 * each strategy, so a killed run keeps what it measured (a failed write
 * warns); the caller writes the final result and fails if it cannot
 * (pmbench_cli_finish()). Returns 0 (failed jobs are results),
 * PMBENCH_EINTERRUPTED, or an error that stopped it.
 */
int pmbench_cicache_run(struct pmbench_ctx *ctx, struct pmbench_result *r,
			const struct pmbench_cicache_opts *o,
			struct pmbench_fixture *f);

#endif
