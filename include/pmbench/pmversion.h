#ifndef PMBENCH_PMVERSION_H
#define PMBENCH_PMVERSION_H

#include <sys/types.h>

#include "pmbench/buf.h"
#include "pmbench/pm.h"
#include "pmbench/strvec.h"

struct pmbench_ctx;

/**
 * A PM at a version asked for (`pnpm@9`: struct pmbench_pm's `version`),
 * installed from the npm registry as its own release is published there
 * (pnpm, yarn, @yarnpkg/cli-dist, npm; bun's and deno's platform package
 * for this machine, @oven/bun-linux-x64 and @deno/linux-x64-glibc, whose
 * binary their main package's postinstall would copy) into
 * `<toolchain>/versions/<pm>@<version>/`: the range resolved against the
 * package's packument (the newest release that satisfies it), the
 * tarball checked against the registry's sha512 integrity, extracted by
 * pmbench's confined extraction into a folder of its own, a stamp
 * (`.pmbench-pm`: package, version, integrity, binary, engines.node)
 * written last and the folder renamed into place, all under a lock
 * (`versions/.lock-<pm>`, flock) so that two pmbench at once install it
 * once. Installed, it is reused without a registry request: a range
 * takes the newest installed release that satisfies it.
 */

/** A release found in the versions folder. */
struct pmbench_pm_release {
	char *dir;	    /**< <toolchain>/versions/<pm>@<version> */
	char *bin;	    /**< its binary */
	char *version;	    /**< "9.15.9" */
	char *engines_node; /**< its package.json engines.node, or NULL */
	char *integrity;    /**< its tarball's ("sha512-..."), or NULL */
	/**
	 * Whether pmbench installed it: its stamp says so (installed_by)
	 * and names the folder it is in (<pm>@<version>). Only such a
	 * folder is ever installed again.
	 */
	int own;
	dev_t dev; /**< the folder's, when found */
	ino_t ino;
};

#define PMBENCH_PM_RELEASE_INIT \
	{                       \
		.dir = NULL     \
	}

void pmbench_pm_release_release(struct pmbench_pm_release *r);

/**
 * The newest release of `pm`'s base installed in `toolchain_dir` that
 * satisfies `pm->version` (an exact version when `range` is NULL: else
 * `range`): 0 and `out`, or 1 when there is none. Asks no registry.
 */
int pmbench_pm_release_find(struct pmbench_pm_release *out,
			    const char *toolchain_dir,
			    const struct pmbench_pm *pm, const char *range);

/**
 * Make sure a release of `pm` satisfying `pm->version` is installed in
 * the context's toolchain folder (see above), from the registry of
 * $PMBENCH_NODE_REGISTRY, else the mirror's uplink, else the user's npm
 * config; says what it installed through the context. A PM without a
 * version, or `@pinned`, needs nothing: 0. Returns 0, or an error naming
 * the PM, the version and what failed (nothing half-made is left).
 */
int pmbench_pm_release_ensure(struct pmbench_ctx *ctx,
			      const struct pmbench_pm *pm);

/**
 * Install `rel`, a release of `pm` that pmbench installed (`own`) but
 * that does not answer --version (an old pmbench laid out pnpm 12.25's
 * JS shim without its native binary), again at its exact version, as
 * pmbench_pm_release_ensure() installs one, its folder moved aside
 * first (versions/.<pm>@<version>.unanswered-<pid>: put back when the
 * install fails; deleted after, or left when the toolchain is outside
 * pmbench's work folder, which pmbench deletes nothing outside of); says
 * so in one line through the context. Unless another pmbench replaced
 * the folder meanwhile (then nothing). Returns 0; 1 when `rel` is not
 * pmbench's own (left alone); or an error naming the release and what
 * failed.
 */
int pmbench_pm_release_reinstall(struct pmbench_ctx *ctx,
				 const struct pmbench_pm *pm,
				 const struct pmbench_pm_release *rel);

/**
 * Every version of `pm`'s package (bun's and deno's main package) the
 * registry has, oldest first (by semver; pre-releases left out), into
 * `out`.
 */
int pmbench_pm_release_list(struct pmbench_strvec *out, struct pmbench_ctx *ctx,
			    const struct pmbench_pm *pm);

/**
 * Every release installed in `toolchain_dir`'s versions folder, as
 * "<pm>@<version>", sorted, into `out`.
 */
void pmbench_pm_release_installed(struct pmbench_strvec *out,
				  const char *toolchain_dir);

/** The version of its own PM a repo names, and where. */
struct pmbench_pm_ask {
	const struct pmbench_pm *pm; /**< the table's entry; NULL: none */
	char *version;		     /**< "9.15.0", or a range ("^9") */
	char *hash;		     /**< corepack's "sha512.<hex>", or NULL */
	char *source;		     /**< "the repo's packageManager field" */
	/**
	 * yarn berry's committed release: `.yarnrc.yml`'s yarnPath
	 * (absolute, inside the repo), or NULL; it wins over the fields
	 * above for yarn-berry, as yarn itself runs it whatever they say.
	 */
	char *yarn_path;
	char *yarn_path_source; /**< "the repo's .yarnrc.yml yarnPath (...)" */
};

#define PMBENCH_PM_ASK_INIT \
	{                   \
		.pm = NULL  \
	}

void pmbench_pm_ask_release(struct pmbench_pm_ask *a);

/**
 * The PM and version the repo at `root` (its project folder `subdir`, or
 * NULL) names, read as its tools read it, first found of, in the project
 * folder then at the root: package.json `packageManager` (corepack's
 * field, "pnpm@9.15.0+sha512.<hex>": yarn 1 or yarn-berry by the
 * major), `devEngines.packageManager` ({name, version}, or a list whose
 * first counts), `engines.<pm>` (a range); and apart from these,
 * `.yarnrc.yml`'s `yarnPath` (the project folder's, else the root's),
 * kept when it stays inside the repo. Nothing found leaves `out` empty.
 * Returns 0 (unreadable files count as absent).
 */
int pmbench_pm_ask_repo(struct pmbench_pm_ask *out, const char *root,
			const char *subdir);

/**
 * Whether the release `rel` is what `ask`'s corepack hash names
 * ("sha512.<hex>": the registry tarball's sha512, or for yarn 2+ its
 * bundle's): 0, or PMBENCH_EINVALID with one line naming the field, both
 * hashes and the fix. Other hash kinds are not checked (0).
 */
int pmbench_pm_release_check_hash(const struct pmbench_pm_release *rel,
				  const struct pmbench_pm_ask *ask);

#endif
