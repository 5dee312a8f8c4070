#ifndef PMBENCH_RESOLUTION_H
#define PMBENCH_RESOLUTION_H

#include <stddef.h>

#include "pmbench/strvec.h"

/**
 * What a PM resolved: the set of installed packages (name@version) read
 * from the package.json files of a project's node_modules trees, in
 * every layout the PMs make: npm, yarn and bun's flat and nested
 * folders, @scoped packages, and the stores the PM table names
 * (pmbench_pm_is_store()): pnpm's node_modules/.pnpm/<id>/node_modules,
 * deno's .deno, npm's linked .store (scoped ids in @scope/), bun's
 * isolated .bun, and yarn 4's pnpm linker's .store/<id>/package.
 * Symlinks are not followed (the stores' top-level links point into
 * them, and they are walked directly; workspace links are the
 * project's own).
 *
 * A Plug'n'Play install (yarn 4's default linker) has no node_modules:
 * its map is read instead, the JSON of .pnp.data.json or the one .pnp.cjs
 * embeds (RAW_RUNTIME_STATE), every packageRegistryData entry with an
 * npm reference that was installed (its .yarn/unplugged folder or its
 * zip in yarn's cache exists; another platform's optional packages are
 * listed but never fetched). Install scripts are read from the
 * unplugged folder's package.json, or from the package.json inside the
 * zip (with libarchive); a zip whose cache folder has gone (moved after
 * the install) is counted but reads as having no script.
 * Used to compare two PMs' installs of one project.
 */

/** One installed name@version (several folders may hold it). */
struct pmbench_package {
	char *name;	 /**< "name" of its package.json */
	char *version;	 /**< "version" of its package.json */
	char *path;	 /**< first folder found, relative to the project */
	int has_script;	 /**< preinstall/install/postinstall, or binding.gyp */
	unsigned copies; /**< how many folders hold this name@version */
};

/** A set of packages, sorted by name, then version (strcmp), unique. */
struct pmbench_resolution {
	struct pmbench_package *pkgs;
	size_t nr, alloc;
};

#define PMBENCH_RESOLUTION_INIT \
	{                       \
		.pkgs = NULL    \
	}

/**
 * Scan every node_modules folder below `project` (workspaces included),
 * and the Plug'n'Play map in `project` if there is one, into `out`
 * (which must be empty or initialised). A package.json that is
 * unreadable or has no name or version is skipped. Returns 0, or
 * PMBENCH_ENOTFOUND when `project` does not exist.
 */
int pmbench_resolution_scan(struct pmbench_resolution *out,
			    const char *project);

/**
 * Append a copy of a package to `r` (one folder of it, `path`), out of
 * order: pmbench_resolution_sort() sorts them after the last.
 */
void pmbench_resolution_add(struct pmbench_resolution *r, const char *name,
			    const char *version, const char *path,
			    int has_script);

/**
 * Sort `r` by name, then version, then path, and fold the copies of one
 * name@version into its first entry (`copies`, `has_script` of any).
 */
void pmbench_resolution_sort(struct pmbench_resolution *r);

/** The package name@version, or NULL. */
const struct pmbench_package *
pmbench_resolution_find(const struct pmbench_resolution *r, const char *name,
			const char *version);

/** Push "name@version" of every package with an install script. */
void pmbench_resolution_scripts(const struct pmbench_resolution *r,
				struct pmbench_strvec *out);

void pmbench_resolution_release(struct pmbench_resolution *r);

/** How one package differs between two resolutions. */
enum pmbench_change_kind {
	PMBENCH_CHANGE_VERSION,	    /**< both have it, at other versions */
	PMBENCH_CHANGE_ONLY_SOURCE, /**< only the source has it */
	PMBENCH_CHANGE_ONLY_TARGET  /**< only the target has it */
};

struct pmbench_change {
	enum pmbench_change_kind kind;
	const char *name;
	const char *from; /**< source version, NULL for ONLY_TARGET */
	const char *to;	  /**< target version, NULL for ONLY_SOURCE */
	/** For VERSION: "major", "minor", "patch" or "other". */
	const char *level;
};

/**
 * The difference of two resolutions. Per package name, versions both
 * sides have count as identical; the remaining versions are paired in
 * ascending order as version changes, and what is left over is "only
 * in" one side. Strings point into the two resolutions, which must
 * outlive the diff.
 */
struct pmbench_resolution_diff {
	size_t identical; /**< name@version in both */
	size_t changed, only_source, only_target;
	struct pmbench_change *changes; /**< sorted by name */
	size_t changes_nr, changes_alloc;
};

#define PMBENCH_RESOLUTION_DIFF_INIT \
	{                            \
		.changes = NULL      \
	}

/** Fill `out` (initialised) with the difference from `a` to `b`. */
void pmbench_resolution_diff(struct pmbench_resolution_diff *out,
			     const struct pmbench_resolution *a,
			     const struct pmbench_resolution *b);

void pmbench_resolution_diff_release(struct pmbench_resolution_diff *d);

/**
 * Which part of a semantic version changed from `a` to `b`: "major",
 * "minor", "patch", or "other" (a pre-release or build suffix, or a
 * version that is not MAJOR.MINOR.PATCH). Static storage.
 */
const char *pmbench_semver_level(const char *a, const char *b);

/**
 * Compare two versions: numerically by MAJOR.MINOR.PATCH, then a
 * release above its pre-releases, then by strcmp. Like strcmp's sign.
 */
int pmbench_semver_cmp(const char *a, const char *b);

#endif
