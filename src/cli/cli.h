#ifndef PMBENCH_CLI_H
#define PMBENCH_CLI_H

#include "pmbench/common.h"

#include <stdio.h>

struct pmbench_registry;

/** Exit codes (documented in README.md). */
enum pmbench_exit {
	PMBENCH_EXIT_OK = 0,
	PMBENCH_EXIT_ERROR = 1,
	PMBENCH_EXIT_FAILED_RUNS = 2, /**< finished, but runs failed */
	/** claim: the data refute it, the factor clearly less than claimed */
	PMBENCH_EXIT_SHORT = 3,
	PMBENCH_EXIT_INCONCLUSIVE = 4, /**< claim: too noisy to decide */
	/** claim: the data refute it, the factor clearly more than claimed */
	PMBENCH_EXIT_EXCEEDED = 5,
	PMBENCH_EXIT_USAGE = 129,
	/**
	 * SIGINT, SIGTERM, SIGHUP or SIGQUIT stopped it: one code for all
	 * (128 + SIGHUP would be 129, the usage code).
	 */
	PMBENCH_EXIT_INTERRUPTED = 130,
};

/** Where pmbench keeps its data; resolved once by main. */
struct pmbench_config {
	char *cache_dir;    /**< --cache-dir, $PMBENCH_CACHE_DIR, or built-in */
	char *fixtures_dir; /**< --fixtures-dir, $PMBENCH_FIXTURES_DIR, ... */
	char *toolchain_dir; /**< $PMBENCH_TOOLCHAIN_DIR or cache/toolchain */
	char *node_dir;	     /**< the pinned Node's folder (--node), or NULL */
};

extern struct pmbench_config pmbench_config;

/**
 * Choose the Node every PM and script runs under (`want`: NULL for the
 * toolchain's pinned one if any, "system", or a version), into
 * pmbench_config.node_dir and the context. Prints nothing; returns 0
 * or an error (a version that is not in the toolchain).
 */
int pmbench_cli_node(const char *want);

/**
 * The engine context of this process: the work folder of pmbench_config,
 * progress and messages on stderr (progress.c), cancelled by the stop
 * signals (main.c). Set up by pmbench_config_resolve().
 */
extern struct pmbench_ctx pmbench_cli_ctx;

/**
 * Fill pmbench_config from the given overrides (NULL: not given), the
 * environment and the built-in defaults; make the paths absolute, create
 * the cache folder and confine deletions to it.
 */
int pmbench_config_resolve(const char *cache_dir, const char *fixtures_dir);

void pmbench_config_release(void);

/**
 * For a command that runs PMs or writes into the work folder (bench,
 * ci-cache, migrate, a live claim, pms): check that the cache folder is
 * pmbench's (pmbench_workdir_check(); the built-in default is trusted)
 * and take its lock for the rest of the process, recording `argv` (the
 * subcommand's, argc items) as the command. Read-only commands never call
 * it. Prints the error and returns -1 if the folder is not pmbench's or
 * another pmbench holds it; 0 otherwise.
 */
int pmbench_cli_take_workdir(int argc, char **argv);

/**
 * Convert a negative error code into an exit code, printing the error:
 * PMBENCH_EXIT_INTERRUPTED for PMBENCH_EINTERRUPTED, and for any error
 * once a stop signal has come (a call it cut short), else
 * PMBENCH_EXIT_ERROR.
 */
int pmbench_cli_fail(int code);

struct pmbench_schedule_auto;

/**
 * Parse one `--runs auto` knob for command `cmd`: `opt` is "--target"
 * (a percentage above 0 and at most 100), "--max-runs" (a whole number
 * from the minimum runs to 100000) or "--time-budget" (a duration above
 * 0). Prints a one-line error and returns -1 on bad input.
 */
int pmbench_cli_parse_auto(struct pmbench_schedule_auto *o, const char *opt,
			   const char *value, const char *cmd);

struct pmbench_buf;
struct pmbench_result;
struct pmbench_strvec;

/*
 * Option parsing shared by the subcommands. Each parser takes the
 * subcommand's name `cmd`; on bad input it prints one line,
 * "pmbench: <cmd>: ...", to stderr and returns -1 (the caller exits with
 * PMBENCH_EXIT_USAGE), and on success it returns 0.
 */

/**
 * Print "pmbench: <cmd>: " and the formatted message as one line to
 * stderr; returns -1.
 */
int pmbench_cli_usage_error(const char *cmd, const char *fmt, ...)
	PMBENCH_PRINTF(2, 3);

/**
 * Print "pmbench: <cmd>: unknown or incomplete option '<arg>'; see
 * 'pmbench <cmd> --help'" for getopt's '?' or ':'.
 */
void pmbench_cli_unknown_option(const char *cmd, const char *arg);

/** Flags of pmbench_cli_parse_count(). */
enum pmbench_cli_count_flags {
	/** The error also offers 'auto', which the caller accepts itself. */
	PMBENCH_CLI_COUNT_OR_AUTO = (1 << 0),
};

/**
 * Parse the whole number `value` of option `opt` (such as "--runs" or
 * "--warmup") into `out`; it must be from `min` to `max`. `flags` are
 * pmbench_cli_count_flags. `out` is left alone on error.
 */
int pmbench_cli_parse_count(unsigned *out, const char *cmd, const char *opt,
			    const char *value, unsigned min, unsigned max,
			    unsigned flags);

/**
 * Print "pmbench: note: '<item>' given twice in <opt>; <verb> it once"
 * for a list item that is kept once, so a merge is never silent.
 */
void pmbench_cli_note_twice(const char *item, const char *opt,
			    const char *verb);

/**
 * Check that `name`, given to option `opt` (such as "--from"), is a
 * package manager pmbench knows; the error lists the known ones.
 */
int pmbench_cli_check_pm(const char *cmd, const char *opt, const char *name);

/**
 * Append the comma-separated package managers of `list`, given to option
 * `opt` ("--pm", "--to"), to `out`, skipping (with a note) those already
 * in it. Fails
 * on an unknown name and when `out` is still empty afterwards. The
 * caller releases `out` first if a repeated option should replace it.
 */
int pmbench_cli_parse_pms(struct pmbench_strvec *out, const char *cmd,
			  const char *opt, const char *list);

/**
 * Parse the `--scenario` list `list` into the install states `states`
 * (room for all 8) and their number `states_nr`, replacing what was
 * there: each item is 'all', 'default' or a scenario for
 * pmbench_scenario_parse(); a state given twice is kept once, with a
 * note.
 */
int pmbench_cli_parse_scenarios(unsigned *states, size_t *states_nr,
				const char *cmd, const char *list);

/** Parse the `--timeout` duration `value` (above 0) into nanoseconds. */
int pmbench_cli_parse_timeout(uint64_t *out_ns, const char *cmd,
			      const char *value);

/** Parse the `--seed` whole number `value` into `out`. */
int pmbench_cli_parse_seed(uint64_t *out, const char *cmd, const char *value);

/** Check the `--env` item `value` is NAME=VALUE and append it to `out`. */
int pmbench_cli_parse_env(struct pmbench_strvec *out, const char *cmd,
			  const char *value);

/**
 * Fail when `--target`, `--max-runs` or `--time-budget` (`knob`, NULL if
 * none was given) comes without `--runs auto` (`runs_auto` 0).
 */
int pmbench_cli_check_auto(const char *cmd, const char *knob, int runs_auto);

/**
 * Append the default result path to `out`:
 * "<cache>/results/<prefix><name>-<UTC time>.json", where `prefix` is
 * such as "" or "ci-cache-" and `name` the fixture's.
 */
void pmbench_cli_default_out(struct pmbench_buf *out, const char *prefix,
			     const char *name);

/**
 * Create the folder `path` (a result or report file) goes in, with its
 * parents; nothing for a file in the current folder. Returns 0 or a
 * negative PMBENCH_E* with the error set; prints nothing.
 */
int pmbench_cli_mkdir_parent(const char *path);

/**
 * Settle the result path: if `*path` is NULL, point it at the default
 * one for `prefix` and `name` (see pmbench_cli_default_out()), kept in
 * `buf`; then create its folder and check that the result can be written
 * there (pmbench_fs_check_output()). Returns 0, or a negative PMBENCH_E*
 * with the error set; prints nothing.
 */
int pmbench_cli_prepare_out(const char **path, struct pmbench_buf *buf,
			    const char *prefix, const char *name);

/**
 * Read the result file `path` for report, compare or claim --from, as
 * pmbench_result_read() does; a result without cells (nothing measured)
 * is refused with PMBENCH_EINVALID naming the file. A `created` that is
 * no real date is a warning on stderr naming the file; nothing else is
 * printed.
 */
int pmbench_cli_read_result(struct pmbench_result *out, const char *path);

/**
 * Write the final result `r` to `out` if it has a sample
 * (pmbench_result_has_samples(): a result without a run is never
 * written, so a file there keeps what it held) and print one line: "results written to '<out>'", or
 * the error that the result was not saved. The error message stored
 * before (the run's own) is kept for the caller. Returns 0 (written, or
 * nothing to write) or -1 when the write failed.
 */
int pmbench_cli_save(const struct pmbench_result *r, const char *out);

/**
 * The end of a benchmark whose result goes to `out`: pmbench_cli_save(),
 * then return the exit code: pmbench_cli_fail(ret) for an error
 * (interrupted: 130), PMBENCH_EXIT_ERROR if the result could not be
 * written or has no sample, PMBENCH_EXIT_FAILED_RUNS if a cell of `r` has a
 * failed run or priming, else PMBENCH_EXIT_OK.
 */
int pmbench_cli_finish(const struct pmbench_result *r, int ret,
		       const char *out);

struct pmbench_bench_opts;

/**
 * getopt_long ids of the options pmbench_cli_bench_option() parses; a
 * subcommand numbers its own options from PMBENCH_CLI_OPT_OWN.
 */
enum pmbench_cli_opt {
	PMBENCH_CLI_OPT_PM = 256,
	PMBENCH_CLI_OPT_SCENARIO,
	PMBENCH_CLI_OPT_RUNS,
	PMBENCH_CLI_OPT_WARMUP,
	PMBENCH_CLI_OPT_TIMEOUT,
	PMBENCH_CLI_OPT_OUT,
	PMBENCH_CLI_OPT_ENV,
	PMBENCH_CLI_OPT_SEED,
	PMBENCH_CLI_OPT_TARGET,
	PMBENCH_CLI_OPT_MAX_RUNS,
	PMBENCH_CLI_OPT_TIME_BUDGET,
	PMBENCH_CLI_OPT_PROGRESS,
	PMBENCH_CLI_OPT_NO_PROGRESS,
	PMBENCH_CLI_OPT_FORMAT,	    /**< pmbench_cli_output_option() */
	PMBENCH_CLI_OPT_REPORT,	    /**< pmbench_cli_output_option() */
	PMBENCH_CLI_OPT_COLUMNS,    /**< pmbench_cli_output_option() */
	PMBENCH_CLI_OPT_WIDE,	    /**< pmbench_cli_output_option() */
	PMBENCH_CLI_OPT_REGISTRY,   /**< pmbench_cli_registry_option() */
	PMBENCH_CLI_OPT_LINK,	    /**< pmbench_cli_registry_option() */
	PMBENCH_CLI_OPT_NO_FS_WAIT, /**< pmbench_cli_registry_option() */
	PMBENCH_CLI_OPT_OWN,
};

/** How a subcommand takes the benchmark options, and what they left. */
struct pmbench_cli_bench {
	const char *cmd;       /**< the subcommand, for the messages */
	unsigned max_count;    /**< the most --runs and --warmup may be */
	int runs_auto_ok;      /**< --runs takes 'auto' */
	unsigned runs_flags;   /**< pmbench_cli_count_flags for --runs */
	const char *auto_knob; /**< out: the last auto knob given, or NULL */
	int tty; /**< out: 1 --progress, 0 --no-progress, else -1 */
};

#define PMBENCH_CLI_BENCH_INIT(cmd, max_count, runs_auto_ok, runs_flags)   \
	{                                                                  \
		(cmd), (max_count), (runs_auto_ok), (runs_flags), NULL, -1 \
	}

/**
 * Parse option `c` (a pmbench_cli_opt) with argument `arg` into `o`, as
 * the subcommand `how` describes: --pm replaces the list and makes it
 * explicit, --runs and --warmup are counts from 1 and 0 to
 * `how->max_count`, the auto knobs are recorded in `how->auto_knob` for
 * pmbench_cli_check_auto(), and --progress/--no-progress in `how->tty`.
 * Any other `c` is an unknown or incomplete option, `given` (getopt's
 * argv[optind - 1]). Returns 0, or -1 after printing the error.
 */
int pmbench_cli_bench_option(struct pmbench_bench_opts *o,
			     struct pmbench_cli_bench *how, int c,
			     const char *arg, const char *given);

struct pmbench_doc;
struct pmbench_format;

/**
 * How a command shows its results: every command that shows results
 * takes `--format F` and writes through pmbench_cli_show().
 *
 * - Without a file the report goes to standard output in the format
 *   (the terminal table by default).
 * - With a file (`--report FILE`; for `report` and `compare`, which write
 *   no result file, `--out FILE` too) the report goes to the file, in
 *   the format given or else the one its name implies (.md, .csv, .json,
 *   .html, .svg), else the table. A command that runs package managers
 *   still prints the terminal table on standard output; `report` and
 *   `compare` print nothing more.
 */
struct pmbench_cli_output {
	const char *cmd;
	const struct pmbench_format *format; /**< NULL: not given */
	const char *path;		     /**< NULL: standard output */
	int runs; /**< the command runs PMs: the table on stdout too */
	const char *columns; /**< --columns LIST, or NULL */
	int wide;	     /**< --wide */
};

#define PMBENCH_CLI_OUTPUT_INIT(cmd, runs)         \
	{                                          \
		(cmd), NULL, NULL, (runs), NULL, 0 \
	}

/**
 * Parse option `c` if it is PMBENCH_CLI_OPT_FORMAT (the format `arg`),
 * PMBENCH_CLI_OPT_REPORT (the file `arg`), PMBENCH_CLI_OPT_COLUMNS (the
 * terminal table's columns, `arg`) or PMBENCH_CLI_OPT_WIDE (all of
 * them). Returns 1 if it was one of them, 0 if not, -1 after printing a
 * usage error.
 */
int pmbench_cli_output_option(struct pmbench_cli_output *o, int c,
			      const char *arg);

/**
 * Print the help lines of --format and of `file_opt` ("--report FILE",
 * "--out FILE") for a command, their text from column `col` as the
 * command's other options; `runs`: it runs PMs (the table stays on
 * standard output).
 */
void pmbench_cli_output_help(FILE *out, const char *file_opt, int runs,
			     int col);

/**
 * Before any work: make the report file's folder and check that nothing
 * there refuses it (a folder, a FIFO). Prints the error and returns -1.
 */
int pmbench_cli_check_output(const struct pmbench_cli_output *o);

/**
 * Write `doc` as `o` says. Returns 0, or -1 after printing the error (a
 * format that cannot show this document, a file that cannot be
 * written).
 */
int pmbench_cli_show(const struct pmbench_cli_output *o,
		     struct pmbench_doc *doc);

/**
 * The width the terminal table fits: $COLUMNS, else the terminal's
 * (standard output's) width, else 100 when it is not a terminal; never
 * below 80.
 */
unsigned pmbench_cli_term_width(void);

/**
 * Flush standard output, so that what goes to standard error next
 * starts on a line of its own.
 */
void pmbench_cli_flush(void);

/**
 * Print one line to `out` (a newline is added): the formatted text made
 * fit for a terminal (pmbench_text_clean(): credentials redacted,
 * controls escaped), for lines that quote user data (names, paths,
 * versions and output of PMs, fields of result files).
 */
void pmbench_cli_line(FILE *out, const char *fmt, ...) PMBENCH_PRINTF(2, 3);

/* The subcommands. */
int cmd_bench(int argc, char **argv);
int cmd_fixtures(int argc, char **argv);
int cmd_pms(int argc, char **argv);
int cmd_migrate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_claim(int argc, char **argv);
int cmd_ci_cache(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_workflow(int argc, char **argv);

/*
 * The options of every command that runs PMs (cli_registry.c): the
 * registry, the link, and --no-fs-wait.
 */
#define PMBENCH_CLI_REGISTRY_LONGOPTS                                       \
	{ "registry", required_argument, NULL, PMBENCH_CLI_OPT_REGISTRY },  \
		{ "link", required_argument, NULL, PMBENCH_CLI_OPT_LINK },  \
	{                                                                   \
		"no-fs-wait", no_argument, NULL, PMBENCH_CLI_OPT_NO_FS_WAIT \
	}

/** The registry of this process (`pmbench_cli_ctx.registry`). */
extern struct pmbench_registry pmbench_cli_registry;

/**
 * Point pmbench_cli_ctx at the registry, its mode from $PMBENCH_REGISTRY
 * (default local) and verdaccio from $PMBENCH_VERDACCIO (default: the
 * toolchain's). Prints the error and returns -1 for a bad mode.
 */
int pmbench_cli_registry_init(void);

/**
 * Parse `--registry`, `--link` or `--no-fs-wait` (`c`): 1 when it was
 * one of them, 0 when not, -1 (message printed) when its value is wrong.
 */
int pmbench_cli_registry_option(const char *cmd, int c, const char *arg);

/** After the options: refuse `--link` with `--registry live` (-1). */
int pmbench_cli_registry_check(const char *cmd);

/** The help lines of both options, their text at column `col`. */
void pmbench_cli_registry_help(FILE *out, int col);

/**
 * Stop the registry (main(), after every command) and check its ports
 * are closed: returns `code`, or PMBENCH_EXIT_ERROR (message printed)
 * when a port stayed open and `code` said success.
 */
int pmbench_cli_registry_stop(int code);

#endif
