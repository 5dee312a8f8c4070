#ifndef PMBENCH_MIGRATE_H
#define PMBENCH_MIGRATE_H

#include <stdint.h>
#include <stdio.h>

#include "pmbench/buf.h"
#include "pmbench/recipe.h"
#include "pmbench/resolution.h"
#include "pmbench/result.h"
#include "pmbench/strvec.h"

struct pmbench_fixture;
struct pmbench_pmrun;

/** A migrate result's "schema", and the "version" this pmbench writes. */
#define PMBENCH_MIGRATE_SCHEMA	"pmbench-migrate"
#define PMBENCH_MIGRATE_VERSION 2

/**
 * Migration evaluation: does a repo install, resolve, build and test the
 * same under other PMs, and how much faster. The benchmark itself is
 * `pmbench bench` with every PM primed from the source PM's lockfile;
 * this module detects the source PM, collects what each PM installed and
 * how its tasks went (through the bench's after-priming hook), and
 * decides whether every target passes. The report layer says it
 * (pmbench_report_migrate() in report_kind.h): the engine keeps the data.
 */

/** How one parity task (build, test, lint) went under one PM. */
struct pmbench_migrate_task {
	char *name; /**< "build", "test", "lint" */
	int ran;    /**< 0: the project has no such script */
	int ok;
	int interrupted; /**< pmbench was stopped while it ran (not ok) */
	char *failure;	 /**< one line when !ok */
	double wall_s;
	/**
	 * An output task (build) that exited 0 and wrote no file: ok when
	 * the source's wrote none either (a check-only build), a failure
	 * when the source's wrote some (pmbench_migrate_task_failed()).
	 */
	int no_output;
};

/** What one PM did with the repo (the source PM comes first). */
struct pmbench_migrate_pm {
	char *pm;
	char *lockfile;	     /**< how its lockfile was produced */
	char *prime_failure; /**< the install failed: why */
	char *scripts;	     /**< its policy and what it said */
	int scanned;	     /**< `res` holds what it installed */
	struct pmbench_resolution res;
	struct pmbench_migrate_task *tasks;
	size_t tasks_nr, tasks_alloc;
	struct pmbench_strvec build_files; /**< "path size", sorted */
	uint64_t build_bytes;
	/** "name@version<TAB>file" of packages with install scripts. */
	struct pmbench_strvec script_files;
	/**
	 * What its recipe changed in the copy it installed (recipe.h), and
	 * the alternatives it did not apply; none for the source PM or
	 * with `no_recipe`.
	 */
	struct pmbench_recipe recipe;
	int recipe_ran; /**< the recipe ran (a target, recipes on) */
};

struct pmbench_migrate {
	char *source_pm;   /**< npm, yarn, yarn-berry, pnpm, bun, deno */
	char *source_lock; /**< the lockfile it ships, or NULL */
	char *detected_by; /**< how the source PM was told */
	struct pmbench_strvec tasks; /**< parity tasks to run */
	/** Step ids chosen over their choice's default (--choose). */
	struct pmbench_strvec choose;
	int no_recipe; /**< --no-recipe: each target gets the repo as it is */
	uint64_t timeout_ns;
	uint64_t seed;
	struct pmbench_migrate_pm *pms;
	size_t pms_nr, pms_alloc;
};

#define PMBENCH_MIGRATE_INIT                                     \
	{                                                        \
		.source_pm = NULL, .tasks = PMBENCH_STRVEC_INIT, \
		.choose = PMBENCH_STRVEC_INIT                    \
	}

/**
 * Which PM the project in `project` uses: `from` when not NULL (with its
 * own shipped lockfile, if any, as the one to start from; a variant's is
 * its base's), else its shipped lockfile (whose, the PM table says:
 * pmbench_pm_lockfile_owner(), which tells yarn 1's yarn.lock from yarn
 * 4's by its format, at any size), else its packageManager field
 * (pmbench_pm_from_package_manager()). Fills the source fields of
 * `m`. PMBENCH_ENOTFOUND with a message naming --from when nothing
 * tells; PMBENCH_EINVALID when lockfiles of several PMs disagree and no
 * packageManager field settles it.
 */
int pmbench_migrate_detect(struct pmbench_migrate *m, const char *project,
			   const char *from);

/**
 * The bench's before-priming hook (struct pmbench_bench_opts'
 * `on_workspace`) with a `struct pmbench_migrate` as payload: for a
 * target PM, copies the fixture's source into the PM's work folder,
 * runs the PM's recipe there (pmbench_recipe_run(), with `choose`) and
 * points the workspace's source at the copy, so that its priming and
 * every run install the repo as a team moving to it would have it. The
 * source PM, and every PM with `no_recipe`, get the repo as it is.
 */
int pmbench_migrate_on_workspace(const struct pmbench_fixture *f,
				 struct pmbench_pmrun *ps, void *payload);

/**
 * The bench's after-priming hook (pmbench_bench_primed_cb) with a
 * `struct pmbench_migrate` as payload: records the PM's lockfile route,
 * scans what it installed, and runs each parity task once on its
 * node_modules.
 */
int pmbench_migrate_on_primed(const struct pmbench_fixture *f,
			      struct pmbench_pmrun *ps, void *payload);

/** The entry of `pm`, or NULL. */
const struct pmbench_migrate_pm *
pmbench_migrate_get(const struct pmbench_migrate *m, const char *pm);

/** The parity task `name` of PM entry `e` (which may be NULL), or NULL. */
const struct pmbench_migrate_task *
pmbench_migrate_task_get(const struct pmbench_migrate_pm *e, const char *name);

/**
 * The timed cell of task `task` (run, build, dev) for `pm` in `r` (which
 * may be NULL), in scenario PMBENCH_TASK_SCENARIO, or NULL.
 */
const struct pmbench_cell *
pmbench_migrate_task_cell(const struct pmbench_result *r, const char *task,
			  const char *pm);

/**
 * The files that install scripts left in packages both PMs installed at
 * one version ("name@version<TAB>file", pmbench_migrate_pm's
 * `script_files`) under the source `src` alone, pushed to `src_only`,
 * and under `e` alone, pushed to `tgt_only`: the number of packages
 * they are in.
 */
size_t pmbench_migrate_script_differences(const struct pmbench_migrate_pm *src,
					  const struct pmbench_migrate_pm *e,
					  struct pmbench_strvec *src_only,
					  struct pmbench_strvec *tgt_only);

/** 1 if cell `c` (which may be NULL) primed and has a successful sample. */
int pmbench_migrate_cell_ok(const struct pmbench_cell *c);

/**
 * Whether the parity task `t` of a target fails where the source's task
 * `st` (may be NULL) did not: it failed, or it wrote no output where the
 * source's wrote some.
 */
int pmbench_migrate_task_failed(const struct pmbench_migrate_task *t,
				const struct pmbench_migrate_task *st);

/**
 * 1 if every target installed and every task that succeeded under the
 * source (parity tasks, and the timed tasks of `r`, which may be NULL,
 * such as the dev server) also succeeded under it, else 0.
 */
int pmbench_migrate_all_ok(const struct pmbench_migrate *m,
			   const struct pmbench_result *r);

/**
 * The migrate result of `m` and `r` as JSON (docs/result-schema.md,
 * "pmbench-migrate"): the model whole (each PM's lockfile route,
 * install failure, scripts, what it installed, its parity tasks, build
 * output, install-script files and recipe; the seed), `r` embedded as
 * "result", and what is said of them for other readers: all_ok
 * (pmbench_migrate_all_ok()), each target's resolution diff and
 * install-script differences, and `verdicts`, one line per entry of
 * m->pms (the report layer's; NULL, or an entry NULL: null). Strings are
 * redacted (pmbench_text_redact()). pmbench_result_file_parse()
 * (resultfile.h) reads it back into the same model, so that the report
 * made from the file is the one made from memory. Ends in a newline;
 * the caller frees it with free().
 */
char *pmbench_migrate_to_json(const struct pmbench_migrate *m,
			      const struct pmbench_result *r,
			      const char *const *verdicts);

void pmbench_migrate_release(struct pmbench_migrate *m);

#endif
