#ifndef PMBENCH_CLI_H
#define PMBENCH_CLI_H

#include "pmbench/common.h"

/** Exit codes (documented in README.md). */
enum pmbench_exit {
	PMBENCH_EXIT_OK = 0,
	PMBENCH_EXIT_ERROR = 1,
	PMBENCH_EXIT_FAILED_RUNS = 2, /**< finished, but runs failed */
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

/* The subcommands. */
int cmd_bench(int argc, char **argv);
int cmd_fixtures(int argc, char **argv);
int cmd_pms(int argc, char **argv);
int cmd_ci_cache(int argc, char **argv);

#endif
