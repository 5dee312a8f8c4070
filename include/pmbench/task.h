#ifndef PMBENCH_TASK_H
#define PMBENCH_TASK_H

#include <stddef.h>
#include <stdint.h>

#include "pmbench/buf.h"
#include "pmbench/pmrun.h"
#include "pmbench/result.h"
#include "pmbench/strvec.h"

struct pmbench_bench_opts;
struct pmbench_ctx;
struct pmbench_fixture;
struct pmbench_manifest_section;

/**
 * The task table: everything pmbench knows about what it can time, one
 * entry per task (src/engine/task/task.c), its operations in
 * src/engine/task/task_<name>.c. A task timed per scenario (install,
 * resolve) runs once per install scenario; the others work in a fresh
 * copy of a PM's own primed snapshot (cache, lockfile and node_modules
 * all present, scenario PMBENCH_TASK_SCENARIO), never in another PM's
 * tree. `bench --task`, claims, `migrate --task`, the manifest's
 * sections, the options that belong to a task, the reports and the help
 * texts look tasks up here; a name that is not in the table is no task
 * anywhere, and no code outside a task's entry and its file names one.
 *
 * A benchmark of one task, for every PM of a fixture:
 *
 *	t = pmbench_task_get("test");
 *	for each PM: a cell, filled by t->describe(cell, &job);
 *	for each round, for each PM (pmbench_schedule_run()):
 *		t->prepare(&job), outside the timed window;
 *		t->run(&job, sample, argv), the timed run.
 */

/** The script pmbench adds to the run copy's package.json. */
#define PMBENCH_TASK_NOOP_SCRIPT  "pmbench-noop"
#define PMBENCH_TASK_NOOP_COMMAND "node -e 0"

/** The scenario name of every cell of a task on the primed tree. */
#define PMBENCH_TASK_SCENARIO "cache+lockfile+node_modules"

/** The pm names of the runs made without any PM. */
#define PMBENCH_TASK_BARE_NODE "(node)"
#define PMBENCH_TASK_NODE_RUN  "(node --run)"

/** What a metric measures; its name ends in the unit's suffix. */
enum pmbench_task_unit {
	PMBENCH_TASK_SECONDS, /**< "_s" */
	PMBENCH_TASK_BYTES,   /**< "_bytes" */
	PMBENCH_TASK_COUNT,   /**< "_count" (build's older "output_files") */
	PMBENCH_TASK_RATIO    /**< "_ratio", from 0 to 1 */
};

/** A metric a task records in its samples beside the wall time. */
struct pmbench_task_metric {
	const char *name; /**< as in the sample: "tests_count" */
	enum pmbench_task_unit unit;
	/**
	 * The column of the task's table that shows it, or NULL. Metrics
	 * in a row with the same header share one column ("12.3 kB, 4
	 * files").
	 */
	const char *header;
	const char *noun; /**< a word after a count ("files"), or NULL */
};

enum pmbench_task_flags {
	/**
	 * Timed once per install scenario (install). Without it, a task
	 * works on each PM's primed tree, in scenario PMBENCH_TASK_SCENARIO.
	 */
	PMBENCH_TASK_PER_SCENARIO = (1 << 0),
	/**
	 * Also times each script of the manifest's "scripts" the same way,
	 * as a cell "<task>:<script>" (run).
	 */
	PMBENCH_TASK_FIXTURE_SCRIPTS = (1 << 1),
	/**
	 * Beside the PMs, times the runs of pmbench_task_baselines() once
	 * per round, without any PM (run).
	 */
	PMBENCH_TASK_BASELINES = (1 << 2),
	/** `migrate --task` runs it once per PM and compares (parity). */
	PMBENCH_TASK_MIGRATE_PARITY = (1 << 3),
	/** `migrate --task` times it with the installs (the benchmark). */
	PMBENCH_TASK_MIGRATE_TIMED = (1 << 4),
	/**
	 * It writes the project's output folder (build.output), whose files
	 * migrate compares with the source PM's (build).
	 */
	PMBENCH_TASK_OUTPUT = (1 << 5),
	/**
	 * It starts a server that pmbench stops (dev): the processes it
	 * leaves are stopped by design, not reported as leftovers, and
	 * its cells get the server tables (ready, probe).
	 */
	PMBENCH_TASK_SERVER = (1 << 6),
	/**
	 * The task of `bench` and of a claim that name none; `migrate`
	 * times it always (install).
	 */
	PMBENCH_TASK_DEFAULT = (1 << 7),
	/** `migrate` runs it for parity unless --task says otherwise. */
	PMBENCH_TASK_MIGRATE_DEFAULT = (1 << 8),
};

/**
 * Whether the task of cell task `cell_task` ("run:lint" is run's) has
 * any bit of `flags`; 0 for a task the table does not know.
 */
int pmbench_task_cell_has(const char *cell_task, unsigned flags);

struct pmbench_task;

/** One run of a task: what the operations work on. */
struct pmbench_task_job {
	const struct pmbench_task *task;
	struct pmbench_pmrun *ps; /**< the PM, its workspace and env */
	const struct pmbench_fixture *f;
	const char *cell;    /**< the cell's task: "run", "run:lint", "test" */
	unsigned state;	     /**< per-scenario tasks: PMBENCH_STATE_* */
	uint64_t timeout_ns; /**< of the timed run */
	/**
	 * The options of the benchmark (never NULL), where a task finds
	 * its knobs (struct pmbench_task's `knobs`): dev's --probe, hmr's
	 * --edits.
	 */
	const struct pmbench_bench_opts *opts;
};

#define PMBENCH_TASK_JOB_INIT \
	{                     \
		.task = NULL  \
	}

/** How a column of a task's own table in reports shows a cell. */
enum pmbench_task_show {
	/** the metric's median (min … max) in seconds, or "-" */
	PMBENCH_TASK_SHOW_RANGE,
	/** the metric's median, as its unit says (task metric format) */
	PMBENCH_TASK_SHOW_MEDIAN,
	/** the metric's median and its runs: "16 × 5 runs" */
	PMBENCH_TASK_SHOW_EACH,
	/** the cell's runs: "5 (+1 failed)" */
	PMBENCH_TASK_SHOW_RUNS,
	/**
	 * the metrics named <metric><code>_count, summed over the runs:
	 * "200: 16, 404: 2"
	 */
	PMBENCH_TASK_SHOW_FAMILY,
};

/** A column of a task's own table in reports. */
struct pmbench_task_column {
	const char *header;
	enum pmbench_task_show show;
	const char *metric; /**< what it shows (FAMILY: the prefix), or NULL */
};

/**
 * A table of a task's own in the reports, in place of the times table
 * every other task gets (dev: the readiness times, then the probe's).
 * Its first column is the PM; a row that cannot show times (a priming
 * failure, no successful run) says why, and failed runs are noted under
 * their row.
 */
struct pmbench_task_table {
	const char *id; /**< the document table's id: "dev", "probe" */
	/**
	 * The heading after "<fixture> · <task>": NULL for
	 * " · <scenario>", as the times table.
	 */
	const char *title;
	const char *legend; /**< the paragraph under the heading, or NULL */
	/**
	 * Only the cells that have this metric get a row (no failure
	 * rows), and the table is shown only when one has; NULL: every
	 * cell of the task.
	 */
	const char *only_with;
	/** Its columns after the PM, ending with a NULL header. */
	const struct pmbench_task_column *columns;
};

/** How a task knob's value is written on the command line. */
enum pmbench_task_knob_kind {
	/** a whole number within values[0]'s bounds */
	PMBENCH_TASK_KNOB_COUNT,
	/**
	 * "N[,C]": whole numbers, comma-separated, each within the bounds
	 * of its value; the second may be left out (its default)
	 */
	PMBENCH_TASK_KNOB_COUNTS,
};

/**
 * The values of the task knobs: what the tasks read, in bench's options
 * (`struct pmbench_bench_opts` holds one), each declared by its task's
 * entry (task.c) with its bounds and default.
 */
struct pmbench_task_knobs {
	unsigned probe_requests;    /**< --probe with dev: 0 for none */
	unsigned probe_concurrency; /**< requests in flight, >= 1 */
	unsigned edits;		    /**< --edits with hmr: per run, >= 1 */
};

#define PMBENCH_TASK_PROBE_CONCURRENCY 1
#define PMBENCH_TASK_EDITS	       5
#define PMBENCH_TASK_KNOBS_INIT                                      \
	{                                                            \
		.probe_concurrency = PMBENCH_TASK_PROBE_CONCURRENCY, \
		.edits = PMBENCH_TASK_EDITS,                         \
	}

/** One number of a knob: its bounds, its default, where it lands. */
struct pmbench_task_knob_value {
	const char *what; /**< its name in messages: "N", "C" */
	unsigned min, max;
	/** its default (PMBENCH_BENCH_OPTS_INIT's): 0 and below min: none */
	unsigned def;
	/** where the task reads it: an unsigned of struct pmbench_task_knobs */
	size_t at;
};

/**
 * A knob of a task's own: a long option of `bench` (and workflow's
 * shards) that only this task reads, in the job's `opts`. The cli's
 * option table generates its row from it (name, argument, help, bounds)
 * and parses it with pmbench_task_knob_set(); `bench` refuses it without
 * the task; the plan id covers it as every measuring option.
 */
struct pmbench_task_knob {
	const char *name; /**< the long option: "edits" for --edits */
	enum pmbench_task_knob_kind kind;
	const char *arg;  /**< the value's name in help: "N", "N[,C]" */
	const char *help; /**< what it does, for its row's help line */
	/** COUNT: values[0]; COUNTS: both */
	struct pmbench_task_knob_value values[2];
};

/** A task: one entry of the table. */
struct pmbench_task {
	const char *name;    /**< "install", "test", ... */
	const char *summary; /**< what it times, one line for help texts */
	/**
	 * The manifest's section that names its script ("test" for
	 * `"test": { "script": "..." }`), or NULL.
	 */
	const char *manifest_key;
	/**
	 * The manifest's sections it reads (fixture.h), ending with NULL,
	 * or NULL: none. The manifest reader parses and checks each when a
	 * manifest has it; one several tasks read (dev's, for hmr) is
	 * listed by each of them.
	 */
	const struct pmbench_manifest_section *const *sections;
	/**
	 * Its knobs, the long options that only it uses, ending with a
	 * NULL name, or NULL: none. `bench` refuses them without the task;
	 * the job finds their values in `opts`.
	 */
	const struct pmbench_task_knob *knobs;
	unsigned flags; /**< enum pmbench_task_flags */
	/** Its metrics, ending with a NULL name (never NULL itself). */
	const struct pmbench_task_metric *metrics;
	/**
	 * Its own tables in reports, ending with a NULL id, or NULL: the
	 * times table (median, mean, range, runs, its metrics' columns).
	 */
	const struct pmbench_task_table *tables;
	/**
	 * What the result's environment says about the task (key and
	 * value), or NULL.
	 */
	const char *note_key;
	const char *note;

	/**
	 * The package.json script cell `cell` of fixture `f` runs ("run"
	 * runs PMBENCH_TASK_NOOP_SCRIPT, "run:lint" runs "lint"; "test"
	 * the manifest's test.script), or NULL: the task runs no script
	 * (install).
	 */
	const char *(*script)(const struct pmbench_fixture *f,
			      const char *cell);
	/** Fill a new cell's command and environment deltas. */
	void (*describe)(struct pmbench_cell *cell,
			 const struct pmbench_task_job *j);
	/**
	 * Put the PM's run copy into the state the run starts from,
	 * outside the timed window. Returns 0 or an error (the run is then
	 * failed, or interrupted if the context was cancelled).
	 */
	int (*prepare)(const struct pmbench_task_job *j);
	/**
	 * The timed run into `s` (round and warmup already set): times,
	 * exit, failure with the last output lines, metrics. `argv_out`
	 * (may be NULL) gets the argv it ran. Returns 0 (a failed run is a
	 * sample, not an error) or PMBENCH_EINTERRUPTED with `s` marked
	 * interrupted.
	 */
	int (*run)(const struct pmbench_task_job *j, struct pmbench_sample *s,
		   struct pmbench_strvec *argv_out);
	/**
	 * Why the job's PM has no way to do the task ("n/a: yarn 1 has no
	 * lockfile-only install", static), or NULL when it has one; the op
	 * itself may be NULL: every PM can. A PM without one gets a cell
	 * with that note and no runs, never a time.
	 */
	const char *(*unsupported)(const struct pmbench_task_job *j);
	/**
	 * Fetch, while the local mirror's uplink is still live (after the
	 * PM's priming install, before sealing), what the task's timed
	 * runs need beyond the priming install, or NULL: nothing more.
	 * Returns 0 (a failure is warned about: the timed runs then fail
	 * with their own reason) or PMBENCH_EINTERRUPTED.
	 */
	int (*prime)(struct pmbench_pmrun *ps, uint64_t timeout_ns);
	/**
	 * `bench --explain`: one untimed run of the job, prepared (`prepare`
	 * has run), with the PM's own timers on, into `out` (explain.h);
	 * `label` names its transcript. NULL: the task is not explained.
	 * Returns 0 or PMBENCH_EINTERRUPTED.
	 */
	int (*explain)(const struct pmbench_task_job *j,
		       struct pmbench_explain_run *out, const char *label);
	/**
	 * `bench --prove-offline`: one untimed run of the job, prepared,
	 * with the registry refusing every request, its verdict into
	 * `cell`'s proof (statecheck.h's pmbench_state_proof()). NULL: the
	 * task is not proven. Returns 0, PMBENCH_EINTERRUPTED, or an error
	 * (no local registry to refuse).
	 */
	int (*prove)(const struct pmbench_task_job *j,
		     struct pmbench_cell *cell);
	/**
	 * The folder its run writes (PMBENCH_TASK_OUTPUT) in `project`
	 * into `out`: the manifest's; without one, when `guess`, the first
	 * usual one that exists there; else nothing. Runs remove the
	 * manifest's before they start; migrate compares what is in it.
	 */
	void (*output)(struct pmbench_buf *out, const char *project,
		       const struct pmbench_fixture *f, int guess);
};

/** The table, in the order help texts list it. */
extern const struct pmbench_task pmbench_tasks[];
extern const size_t pmbench_tasks_nr;

/** The task named `name` ("test"), or NULL. */
const struct pmbench_task *pmbench_task_get(const char *name);

/** The task of `bench` when none is named (PMBENCH_TASK_DEFAULT). */
const struct pmbench_task *pmbench_task_default(void);

/**
 * Append the names of the tasks that have any bit of `flags` to `out`,
 * in the table's order.
 */
void pmbench_task_names(struct pmbench_strvec *out, unsigned flags);

/** The metric `name` of task `t` (NULL: none), or NULL. */
const struct pmbench_task_metric *
pmbench_task_metric(const struct pmbench_task *t, const char *name);

/**
 * The task of a result cell's task name: "run:lint" is run's (a
 * fixture script, when run has PMBENCH_TASK_FIXTURE_SCRIPTS), "test"
 * is test's. NULL for other names ("ci-cache").
 */
const struct pmbench_task *pmbench_task_of_cell(const char *cell);

/**
 * Parse `arg` as knob `k` says into `o`, where its task reads it.
 * Returns 0, or PMBENCH_EINVALID with a one-line error naming the
 * option and its bounds ("'--edits' must be a whole number from 1 to
 * 100, got '0'").
 */
int pmbench_task_knob_set(struct pmbench_task_knobs *o,
			  const struct pmbench_task_knob *k, const char *arg);

/**
 * Append the bounds and defaults of knob `k` to `out`, as its help and
 * its errors say them: "1 to 100, default 5"; "N: 1 to 1000000, C: 1 to
 * 256, default 1".
 */
void pmbench_task_knob_bounds(struct pmbench_buf *out,
			      const struct pmbench_task_knob *k);

/**
 * Append the names of the tasks that have any bit of `flags` (0: all
 * tasks) to `out`, as "install, run, build or dev", for messages.
 */
void pmbench_task_list(struct pmbench_buf *out, unsigned flags);

/**
 * Append `value` of metric `m` to `out`, as tables and progress lines
 * show it: "412.0 ms" or "1.234 s", "12.3 kB", "3" or "3 files",
 * "99.5 %".
 */
void pmbench_task_metric_format(struct pmbench_buf *out,
				const struct pmbench_task_metric *m,
				double value);

/**
 * The update task's prime op, also what ci-cache's lockfile-changed job
 * needs: once, untimed, on a copy of the PM's primed tree, the edit
 * pmbench_cicache_change_dependency() makes and the PM's ordinary
 * install, so that the sealed mirror holds the release below the locked
 * one that no priming asked for. Nothing unless the mirror is priming.
 */
int pmbench_task_update_prime(struct pmbench_pmrun *ps, uint64_t timeout_ns);

/**
 * Put the PM's run copy into cache+lockfile+node_modules (outside any
 * timed window), then remove what would make a later run warm: the
 * manifest's build output folder and node_modules/.vite, .cache and .tmp
 * (TypeScript build info). With `add_noop`, add the no-op script to the
 * copy's package.json. Returns 0 or an error (the run is then failed).
 */
int pmbench_task_prepare(struct pmbench_pmrun *ps,
			 const struct pmbench_fixture *f, int add_noop);

/**
 * `argv` for `<pm> run <script> [--] [args]` into `out` (the PM's
 * binary, its run words, the script, "--" when the PM needs it before
 * arguments, then `args`, which may be NULL).
 */
void pmbench_task_run_argv(struct pmbench_strvec *out,
			   const struct pmbench_pmrun *ps, const char *script,
			   const struct pmbench_strvec *args);

/**
 * Whether the fixture's package.json (in its checkout) has `script`:
 * 1 or 0 (also when the file cannot be read or parsed).
 */
int pmbench_task_has_script(const struct pmbench_fixture *f,
			    const char *script);

/**
 * Like pmbench_task_has_script(), for the package.json in the folder
 * `project` (a PM's run copy).
 */
int pmbench_task_project_has_script(const char *project, const char *script);

/**
 * The runs without any PM beside the run task (PMBENCH_TASK_BASELINES):
 * `node -e 0` as pm PMBENCH_TASK_BARE_NODE and, when `node_run` (Node 22
 * and later), `node --run pmbench-noop` as PMBENCH_TASK_NODE_RUN. Fills
 * `argv[i]` (PMBENCH_STRVEC_INIT vectors the caller releases) and
 * `pms[i]` (static strings); returns how many (1 or 2).
 */
size_t pmbench_task_baselines(struct pmbench_strvec argv[2], const char *pms[2],
			      int node_run);

/**
 * Time `argv` run without any PM (a baseline such as `node -e 0`) in
 * `dir` with the environment deltas `env` into `s`. Returns 0 or
 * PMBENCH_EINTERRUPTED.
 */
int pmbench_task_bare(struct pmbench_ctx *ctx,
		      const struct pmbench_strvec *argv, const char *dir,
		      const struct pmbench_strvec *env, uint64_t timeout_ns,
		      struct pmbench_sample *s);

/**
 * The counts a test runner printed, read line by line: Node's test
 * runner (`# tests 3`, `# pass 2`, `# fail 1`, and the spec reporter's
 * `ℹ tests 3`, ...), Vitest (`Tests  1 failed | 2 passed (3)`) and Jest
 * (`Tests:       1 failed, 2 passed, 3 total`). Each such summary adds
 * up (a script that runs two runners prints two); a count is known when
 * every summary gave it, or when its parts account for the total
 * ("2 passed (2)": none failed). Nothing is guessed.
 */
struct pmbench_task_tests {
	unsigned summaries;	      /**< summaries seen */
	double tests, passed, failed; /**< sums over the summaries */
	unsigned has_tests, has_passed, has_failed; /**< summaries giving it */
};

#define PMBENCH_TASK_TESTS_INIT \
	{                       \
		.summaries = 0  \
	}

/** Read one output line (no newline; ANSI escapes already removed). */
void pmbench_task_tests_line(struct pmbench_task_tests *t, const char *line,
			     size_t len);

/**
 * Set the known counts as `s`'s metrics tests_count,
 * tests_passed_count and tests_failed_count; nothing when none is
 * known.
 */
void pmbench_task_tests_record(const struct pmbench_task_tests *t,
			       struct pmbench_sample *s);

#endif
