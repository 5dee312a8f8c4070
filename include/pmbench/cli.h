#ifndef PMBENCH_CLI_H
#define PMBENCH_CLI_H

#include "pmbench/common.h"

/** Exit codes (documented in README.md). */
enum pmbench_exit {
	PMBENCH_EXIT_OK = 0,
	PMBENCH_EXIT_ERROR = 1,
	PMBENCH_EXIT_FAILED_RUNS = 2, /**< finished, but runs failed */
	PMBENCH_EXIT_NOT_REPRODUCED = 3, /**< claim: the data refute it */
	PMBENCH_EXIT_INCONCLUSIVE = 4,	 /**< claim: too noisy to decide */
	PMBENCH_EXIT_USAGE = 129,
	PMBENCH_EXIT_INTERRUPTED = 130
};

/** Where pmbench keeps its data; resolved once by main. */
struct pmbench_config {
	char *cache_dir;     /**< --cache-dir, $PMBENCH_CACHE_DIR, or built-in */
	char *fixtures_dir;  /**< --fixtures-dir, $PMBENCH_FIXTURES_DIR, ... */
	char *toolchain_dir; /**< $PMBENCH_TOOLCHAIN_DIR or cache/toolchain */
};

extern struct pmbench_config pmbench_config;

/**
 * Fill pmbench_config from the given overrides (NULL: not given), the
 * environment and the built-in defaults; make the paths absolute, create
 * the cache folder and confine deletions to it.
 */
int pmbench_config_resolve(const char *cache_dir, const char *fixtures_dir);

void pmbench_config_release(void);

/** Convert a negative error code into an exit code, printing the error. */
int pmbench_cli_fail(int code);

struct pmbench_adaptive_opts;

/**
 * Parse one `--runs auto` knob for command `cmd`: `opt` is "--target"
 * (a percentage above 0 and at most 100), "--max-runs" (a whole number
 * from the minimum runs to 100000) or "--time-budget" (a duration above
 * 0). Prints a one-line error and returns -1 on bad input.
 */
int pmbench_cli_parse_auto(struct pmbench_adaptive_opts *o, const char *opt,
			   const char *value, const char *cmd);

/* The subcommands. */
int cmd_bench(int argc, char **argv);
int cmd_fixtures(int argc, char **argv);
int cmd_pms(int argc, char **argv);
int cmd_migrate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_claim(int argc, char **argv);
int cmd_ci_cache(int argc, char **argv);

#endif
