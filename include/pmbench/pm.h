#ifndef PMBENCH_PM_H
#define PMBENCH_PM_H

#include "pmbench/buf.h"
#include "pmbench/strvec.h"

struct pmbench_ctx;

/**
 * The package-manager table. Everything pmbench knows about one package
 * manager sits in one `struct pmbench_pm` entry in src/engine/pm.c: how its
 * binary is found, how its version is asked, how it installs, which
 * lockfiles it writes, where its caches go and how they are redirected,
 * and how colour, progress, prompts and update checks are turned off.
 *
 * Templates in `env` and the argument lists may use {cache} (this PM's
 * own folder under cache/pm/<pm>/) and {home} (the HOME it runs with).
 */

/** What a PM does with dependencies' lifecycle scripts by default. */
enum pmbench_pm_scripts {
	PMBENCH_SCRIPTS_ALL,	 /**< runs every install script */
	PMBENCH_SCRIPTS_NONE,	 /**< runs none unless allowed */
	PMBENCH_SCRIPTS_TRUSTED	 /**< runs only a built-in trusted list */
};

struct pmbench_pm {
	const char *name;	   /**< "npm", "yarn", "yarn-berry", ... */
	const char *title;	   /**< for humans: "yarn 1 (classic)" */
	const char *npm_package;   /**< what ci/setup installs, or NULL */
	const char *toolchain_bin; /**< below the toolchain folder, or NULL */
	const char *const *path_names; /**< tried on PATH, in order */
	int major_min;		   /**< accepted major versions */
	int major_max;
	const char *const *version_args;
	const char *const *install_args; /**< after the binary */
	const char *const *frozen_args;	 /**< CI mode: lockfile must not change */
	const char *const *run_args;	 /**< "run" / "task" before the script */
	int run_dashdash;		 /**< needs "--" before script arguments */
	const char *const *lockfiles;	 /**< first: the one it writes */
	const char *const *state_paths;	 /**< install state besides node_modules */
	const char *const *env;		 /**< "K=V" templates, "K" unsets */
	enum pmbench_pm_scripts scripts;
	const char *scripts_note;	 /**< how it treats install scripts */
	/**
	 * Migration: the PMs whose lockfile this PM's install converts by
	 * itself (NULL: none), and the PMs whose lockfile its import
	 * command (`import_args`) turns into its own.
	 */
	const char *const *migrate_reads;
	const char *const *import_args;
	const char *const *import_from;
	/**
	 * Reading a failed command's output: substrings of the line that
	 * names the cause, best first (the first pattern that some line
	 * matches wins, and its first such line; a leading "^" anchors it
	 * at the line's start), and lines that look like errors but never
	 * say why (npm's log path, yarn's "info Visit ..."). NULL: none.
	 */
	const char *const *fail_causes;
	const char *const *fail_noise;
};

/** Every PM, in the default order. */
extern const struct pmbench_pm pmbench_pms[];
extern const size_t pmbench_pms_nr;

/** How `pm` starts from the lockfile of the PM named `from`. */
enum pmbench_pm_route {
	PMBENCH_ROUTE_OWN,     /**< it is its own lockfile */
	PMBENCH_ROUTE_READS,   /**< its install converts the lockfile */
	PMBENCH_ROUTE_IMPORT,  /**< its import command converts it first */
	PMBENCH_ROUTE_FRESH    /**< it cannot use it: fresh resolution */
};

enum pmbench_pm_route pmbench_pm_route(const struct pmbench_pm *pm,
				       const char *from);

/** Look a PM up by name; NULL if there is none. */
const struct pmbench_pm *pmbench_pm_get(const char *name);

/** Every lockfile name any PM writes (NULL-terminated). */
extern const char *const pmbench_all_lockfiles[];

/**
 * Variables that make a PM behave differently depending on the caller
 * (CI detection and the like); pmbench unsets them all for every child.
 */
extern const char *const pmbench_ci_vars[];

/**
 * Append the environment deltas for running `pm` with its caches in
 * `cache` (and HOME in `cache`/home) to `env`: the CI variables unset,
 * the common quietness settings, then the PM's own entries with the
 * templates filled in.
 */
void pmbench_pm_env(struct pmbench_strvec *env, const struct pmbench_pm *pm,
		    const char *cache);

/** Append a NULL-terminated template list, with {cache}/{home} filled. */
void pmbench_pm_push_args(struct pmbench_strvec *out,
			  const char *const *templ, const char *cache);

/** A PM found on this machine. */
struct pmbench_pm_found {
	const struct pmbench_pm *pm;
	char *path;    /**< absolute path of the binary */
	char *version; /**< first line of its version output, trimmed */
	const char *source; /**< "toolchain" or "PATH" */
};

#define PMBENCH_PM_FOUND_INIT { NULL, NULL, NULL, NULL }

/**
 * Find `pm`: first `<toolchain_dir>/<toolchain_bin>` (the toolchain
 * folder of `ctx`, which may be NULL: then none), then each of its
 * path_names on `path` (a PATH value), accepting the first binary whose
 * version answers within a minute and whose major version is in range.
 * The version is asked in `scratch_dir` (outside any project, so that a
 * packageManager field cannot switch the binary). Returns 0 or
 * PMBENCH_ENOTFOUND with a message saying where it looked and how to
 * install it. Cancelling `ctx` stops a version query.
 */
int pmbench_pm_find(struct pmbench_pm_found *out,
		    const struct pmbench_ctx *ctx, const struct pmbench_pm *pm,
		    const char *path, const char *scratch_dir);

void pmbench_pm_found_release(struct pmbench_pm_found *f);

/**
 * Parse the first "MAJOR[.MINOR[.PATCH]]" in `version` text (e.g.
 * "deno 2.9.6 (stable)"); returns the major or -1.
 */
int pmbench_pm_version_major(const char *version);

#endif
