#ifndef PMBENCH_PMFIND_H
#define PMBENCH_PMFIND_H

#include "pmbench/pm.h"

struct pmbench_ctx;

/*
 * Finding a PM of the table (pm.h) on this machine: where its binary may
 * be (beside the Node in use, in the pinned toolchain, on PATH) and which
 * of the candidates is one: the first that answers its version, within
 * the major versions its entry allows.
 */

/** A PM found on this machine. */
struct pmbench_pm_found {
	const struct pmbench_pm *pm;
	char *path;	    /**< absolute path of the binary */
	char *version;	    /**< its version ("2.9.6"), see version_prefix */
	const char *source; /**< "node", "toolchain" or "PATH" */
};

#define PMBENCH_PM_FOUND_INIT \
	{                     \
		.pm = NULL    \
	}

/**
 * Find `pm`: first its `node_bin` beside the Node in use (the context's
 * node_dir), then `<toolchain_dir>/<toolchain_bin>` (the toolchain
 * folder of `ctx`, which may be NULL: then none), then each of its
 * path_names on `path` (a PATH value), accepting the first binary whose
 * version answers within a minute and whose major version is in range.
 * The version is asked in `scratch_dir` (outside any project, so that a
 * packageManager field cannot switch the binary). Returns 0 or
 * PMBENCH_ENOTFOUND with a message saying where it looked and how to
 * install it; another negative error when a binary could not be asked
 * for pmbench's own reason (`scratch_dir`'s disk is full, its temp folder
 * cannot be made, a spawn failed, Ctrl-C). Cancelling `ctx` stops a
 * version query. A release asked for (`pnpm@9`) is the newest installed
 * one in its range (pmversion.h), asked in its environment less what it
 * is too old to know (pmbench_pm_env_older()); one pmbench installed
 * that does not answer is installed again, once, through `ctx`.
 */
int pmbench_pm_find(struct pmbench_pm_found *out, struct pmbench_ctx *ctx,
		    const struct pmbench_pm *pm, const char *path,
		    const char *scratch_dir);

/**
 * `pm` as the binary `bin` (a repo's committed release: yarn berry's
 * yarnPath), asked its version as pmbench_pm_find() asks a candidate and
 * recorded as found in `source`. Returns 0, PMBENCH_ENOTFOUND naming
 * `bin` and why it was not taken, or another negative error.
 */
int pmbench_pm_find_at(struct pmbench_pm_found *out,
		       const struct pmbench_ctx *ctx,
		       const struct pmbench_pm *pm, const char *bin,
		       const char *source, const char *scratch_dir);

void pmbench_pm_found_release(struct pmbench_pm_found *f);

#endif
