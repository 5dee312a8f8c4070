#ifndef PMBENCH_CLI_H
#define PMBENCH_CLI_H

#include "pmbench/common.h"

#include <stdio.h>

struct pmbench_registry;

/*
 * The exit codes, each with what it means: X(name, code, meaning). The
 * enum and every list of them in the help texts and man pages come from
 * here. One code stands for every stop signal (SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT): 128 + SIGHUP would be 129, the usage code.
 */
#define PMBENCH_EXITS(X)                                                    \
	X(PMBENCH_EXIT_OK, 0, "ok")                                         \
	X(PMBENCH_EXIT_ERROR, 1, "error")                                   \
	X(PMBENCH_EXIT_FAILED_RUNS, 2, "finished but some runs failed")     \
	X(PMBENCH_EXIT_SHORT, 3, "claim short (clearly less than claimed)") \
	X(PMBENCH_EXIT_INCONCLUSIVE, 4,                                     \
	  "claim inconclusive (too noisy to decide)")                       \
	X(PMBENCH_EXIT_EXCEEDED, 5,                                         \
	  "claim exceeded (clearly more than claimed)")                     \
	X(PMBENCH_EXIT_USAGE, 129, "usage")                                 \
	X(PMBENCH_EXIT_INTERRUPTED, 130, "interrupted")

/** Exit codes (PMBENCH_EXITS). */
enum pmbench_exit {
#define PMBENCH_EXIT_ENUM(name, code, meaning) name = code,
	PMBENCH_EXITS(PMBENCH_EXIT_ENUM)
#undef PMBENCH_EXIT_ENUM
};

/** The run timeout of every command that runs PMs, unless --timeout. */
#define PMBENCH_CLI_DEFAULT_TIMEOUT_NS (15ull * 60ull * 1000000000ull)

/** Where pmbench keeps its data; resolved once by main. */
struct pmbench_config {
	char *cache_dir;    /**< --cache-dir, $PMBENCH_CACHE_DIR, or built-in */
	char *fixtures_dir; /**< --fixtures-dir, $PMBENCH_FIXTURES_DIR, ... */
	char *toolchain_dir; /**< $PMBENCH_TOOLCHAIN_DIR or cache/toolchain */
	char *node_dir;	     /**< the pinned Node's folder (--node), or NULL */
};

extern struct pmbench_config pmbench_config;

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
 * For a budgeted command (bench, migrate, ci-cache; `budgeted` 0: do
 * nothing): read this machine's earlier results in the work folder's
 * results/ (prior.h) as the context's `prior`, for the estimate before
 * the first timed round; once per process.
 */
void pmbench_cli_read_prior(int budgeted);

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

/**
 * Print the thread's last error (pmbench_error_last()) as one line to
 * stderr: "pmbench: error: <what>: <error>", or without "<what>: " when
 * `what` is NULL, made fit to print as pmbench_cli_line() does. The
 * one place src/cli prints an error the engine set.
 */
void pmbench_cli_error(const char *what);

struct pmbench_buf;
struct pmbench_result;
struct pmbench_strvec;

/**
 * Print "pmbench: <cmd>: " and the formatted message as one line to
 * stderr, made fit to print as pmbench_cli_line() does (it may quote
 * the command line); returns -1 (a usage error: the caller exits with
 * PMBENCH_EXIT_USAGE).
 */
int pmbench_cli_usage_error(const char *cmd, const char *fmt, ...)
	PMBENCH_PRINTF(2, 3);

/**
 * Print "pmbench: note: '<item>' given twice in <opt>; <verb> it once"
 * for a list item that is kept once, so a merge is never silent.
 */
void pmbench_cli_note_twice(const char *item, const char *opt,
			    const char *verb);

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

struct pmbench_result_file;

/** Every kind of result (resultfile.h), for pmbench_cli_read_file(). */
#define PMBENCH_CLI_EVERY_KIND                           \
	(PMBENCH_RESULT_BENCH | PMBENCH_RESULT_CICACHE | \
	 PMBENCH_RESULT_CLAIM | PMBENCH_RESULT_MIGRATE)

/**
 * Read the result file `path` for `cmd` ("report", "compare", "claim
 * --from", "merge"), which takes the kinds `takes` (a mask of
 * enum pmbench_result_kind): pmbench_result_file_read(). A folder, a
 * file of another kind, or no result at all, is refused with PMBENCH_EINVALID
 * and one line naming the file, what it is and which commands take it
 * ("'x.json' is a ci-cache result; report, compare and history read it,
 * claim --from takes bench, claim and migrate results"); so is a result
 * without cells (nothing measured). A `created` that is no real date is
 * a warning on stderr naming the file; nothing else is printed.
 */
int pmbench_cli_read_file(struct pmbench_result_file *out, const char *path,
			  const char *cmd, unsigned takes);

/**
 * For `history`: 0 when `path` is a folder or nothing, else
 * PMBENCH_EINVALID with one line saying what the file is and which
 * commands read it ("'m.json' is a migrate result, not a folder; report,
 * compare and claim --from read it, history reads a folder of results").
 */
int pmbench_cli_history_folder(const char *path);

/**
 * pmbench_cli_read_file(), keeping the cells alone into `out`
 * (PMBENCH_RESULT_INIT on error): a migrate result's benchmark.
 */
int pmbench_cli_read_cells(struct pmbench_result *out, const char *path,
			   const char *cmd, unsigned takes);

/**
 * For `cmd` (report, compare), which renders a migrate result as
 * `migrate` did: 0, or PMBENCH_EINVALID with one line when `f` is a
 * migrate result an older pmbench wrote, naming the pmbench and schema
 * versions that wrote it and the fields it lacks.
 */
int pmbench_cli_whole_migrate(const struct pmbench_result_file *f,
			      const char *path, const char *cmd);

/**
 * Write the final result `r` to `out` if it has a sample
 * (pmbench_result_has_samples(): a result without a run is never
 * written, so a file there keeps what it held) and print one line:
 * "results written to '<out>'", or the error that the result was not
 * saved. The error message stored
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

struct pmbench_doc;
struct pmbench_format;
struct pmbench_cli_output;

/**
 * The end of a command that ran PMs into `r` (`ret`, its engine's
 * return): when `r` has a cell, its report (`report` fills the
 * document) shown as `o` says; then pmbench_cli_finish(). A report that
 * could not be shown makes an error of a run that was not interrupted:
 * the report the user asked for is a product too. Returns the exit code.
 */
int pmbench_cli_show_finish(const struct pmbench_cli_output *o,
			    const struct pmbench_result *r, int ret,
			    const char *out,
			    void (*report)(struct pmbench_doc *,
					   const struct pmbench_result *));

/**
 * How a command shows its results: every command that shows results
 * takes `--format F` and writes through pmbench_cli_show(). The option
 * table fills it (options.h: struct pmbench_cli_opts' `output`).
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
int cmd_wait(int argc, char **argv);
int cmd_migrate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_claim(int argc, char **argv);
int cmd_ci_cache(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_workflow(int argc, char **argv);

/** The registry of this process (`pmbench_cli_ctx.registry`). */
extern struct pmbench_registry pmbench_cli_registry;

/**
 * Point pmbench_cli_ctx at the registry, its mode from $PMBENCH_REGISTRY
 * (default local) and verdaccio from $PMBENCH_VERDACCIO (default: the
 * toolchain's). Prints the error and returns -1 for a bad mode.
 */
int pmbench_cli_registry_init(void);

/**
 * Stop the registry (main(), after every command) and check its ports
 * are closed: returns `code`, or PMBENCH_EXIT_ERROR (message printed)
 * when a port stayed open and `code` said success.
 */
int pmbench_cli_registry_stop(int code);

#endif
