#ifndef PMBENCH_MONOREPO_H
#define PMBENCH_MONOREPO_H

#include <stddef.h>

#include "pmbench/strvec.h"

/**
 * A project's workspace packages, as its package managers find them: the
 * folders that package.json's "workspaces" (an array, or an object's
 * "packages") or, without it, pnpm-workspace.yaml's "packages" name
 * (globs: a folder, "packages" followed by a slash and a star, "**" for
 * any depth, a "!" before a glob to leave folders out), each
 * with a package.json; and the dependencies of the root and of those
 * packages on one another ("internal" dependencies). Migration recipes
 * (recipe.h), the build check and the test count read it.
 */

/** One workspace package. */
struct pmbench_monorepo_pkg {
	char *dir;     /**< relative to the project, '/'-separated */
	char *name;    /**< its package.json "name", or NULL */
	char *version; /**< its "version", or NULL */
};

/** A dependency of the root or a workspace package on a workspace package. */
struct pmbench_monorepo_ref {
	char *dir;   /**< the package asking: its folder, "" for the root */
	char *field; /**< "dependencies", "devDependencies", ... */
	char *name;  /**< the workspace package it asks for */
	char *range; /**< as written: "1.0.0", "^1.0.0", "workspace:*" */
	size_t pkg;  /**< the package asked for: index into `pkgs` */
};

struct pmbench_monorepo {
	/** Where the list came from: "package.json", "pnpm-workspace.yaml" or NULL */
	const char *listed_in;
	struct pmbench_strvec patterns; /**< the globs as written */
	int root_private;		/**< package.json has "private": true */
	struct pmbench_monorepo_pkg *pkgs; /**< sorted by folder */
	size_t pkgs_nr, pkgs_alloc;
	struct pmbench_monorepo_ref *refs; /**< in folder, field, name order */
	size_t refs_nr, refs_alloc;
};

#define PMBENCH_MONOREPO_INIT                                       \
	{                                                           \
		.listed_in = NULL, .patterns = PMBENCH_STRVEC_INIT, \
	}

/**
 * Read the workspace of the project in folder `project` into `out`
 * (released first). A project without workspaces has none (listed_in
 * NULL, no packages): that is no error. Folders named node_modules and
 * those starting with '.' are never packages. Returns 0, or
 * PMBENCH_EINVALID when a package.json is not JSON or a package's folder
 * leads outside `project` (a symlink; the message names it).
 */
int pmbench_monorepo_read(struct pmbench_monorepo *out, const char *project);

/**
 * Check that every workspace package of the project in `project` is
 * inside it, symlinks resolved: 0, or PMBENCH_EINVALID naming the first
 * that leads outside, where it leads and the fix. A package.json that is
 * not JSON is no error here.
 */
int pmbench_monorepo_check(const char *project);

/** The workspace package named `name`, or NULL. */
const struct pmbench_monorepo_pkg *
pmbench_monorepo_find(const struct pmbench_monorepo *m, const char *name);

/**
 * Whether the package.json of the workspace package `name` would be
 * picked by a range `range` without a protocol: it is "*", "", "latest",
 * or its version, or a ^ or ~ range or an x-range that the version
 * satisfies (a plain-version request the PMs that link by version
 * resolve to the workspace package).
 */
int pmbench_monorepo_range_matches(const struct pmbench_monorepo_pkg *p,
				   const char *range);

/**
 * The folders a build wrote in `project` and in each of its workspace
 * packages, relative to `project` ("dist", "packages/api/dist"), into
 * `out`: in each, the folder `output` (the manifest's build.output; NULL:
 * the first of dist, build, out and .next that is there). Returns 0 or
 * the error of reading the workspace.
 */
int pmbench_monorepo_outputs(struct pmbench_strvec *out, const char *project,
			     const char *output);

void pmbench_monorepo_release(struct pmbench_monorepo *m);

#endif
