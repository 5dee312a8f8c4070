#ifndef PMBENCH_FIXTURE_H
#define PMBENCH_FIXTURE_H

#include "pmbench/strvec.h"

/**
 * A fixture: a JavaScript project pinned by repository and commit, read
 * from a JSON manifest under fixtures/ or given as a bare local path.
 */

/** Per-PM flags and environment a fixture needs (e.g. npm's
 * --legacy-peer-deps). */
struct pmbench_fixture_pm {
	char *pm;
	struct pmbench_strvec flags; /**< extra install arguments */
	struct pmbench_strvec env;   /**< "K=V" */
};

/**
 * A parsed fixture. Every string is owned by the struct and freed by
 * pmbench_fixture_release(). `repo` is remote when it is a URL with a
 * scheme other than file:// or scp-like `host:path` (as git decides);
 * anything else is local: a file:// URL is always cloned as a git
 * repository, a local path is cloned when it is the top of a git
 * repository (its HEAD, not its working tree) and copied otherwise.
 */
struct pmbench_fixture {
	char *name;	     /**< manifest "name", or the folder's name */
	char *repo;	     /**< git URL or local path, as written */
	char *commit;	     /**< full SHA (lower case); NULL: local HEAD */
	char *subdir;	     /**< normalised project folder, NULL for root */
	char *description;   /**< or NULL */
	char *manifest_path; /**< the JSON file read (the parse origin),
				  NULL for a bare path */
	int is_remote;	     /**< repo is a URL other than file:// */
	int is_bare_path;    /**< a plain folder given on the command line */
	/**
	 * A generated workspace (gen.h): `repo` is its canonical spelling
	 * ("gen:workspace:50:1"); the checkout writes it.
	 */
	int is_generated;
	struct pmbench_strvec env; /**< "K=V" for every PM */
	struct pmbench_fixture_pm *pms;
	size_t pms_nr, pms_alloc;

	/*
	 * Tasks other than install (the run/build/dev issue). The defaults
	 * below are filled in even when the manifest has no "build", "test"
	 * or "dev" section (and for a bare path); has_build and has_dev say
	 * whether it had one.
	 */
	struct pmbench_strvec scripts; /**< further scripts to time */
	int has_build;		       /**< the manifest has "build" */
	char *build_script;	       /**< default "build" */
	char *build_output;	       /**< folder the build writes, or NULL */
	char *test_script;	       /**< default "test" */
	int has_dev;		       /**< the manifest has "dev" */
	char *dev_script;	       /**< default "dev" */
	char *dev_args;	     /**< e.g. "--port {port} --host 127.0.0.1" */
	char *ready_pattern; /**< substring/regex of the ready line */
	char *ready_path;    /**< URL path to poll, default "/" */
	/*
	 * The hmr task: the file an edit touches (relative to the
	 * project, normalised) and the URL path that serves it; NULL: the
	 * framework table's (framework.h).
	 */
	int has_hmr; /**< the manifest has "hmr" */
	char *hmr_file;
	char *hmr_path;

	/* Filled by pmbench_fixture_checkout(). */
	char *resolved_commit; /**< the SHA checked out, or NULL */
	char *source_dir;      /**< scratch tree of the whole repo */
	char *project_dir;     /**< source_dir + subdir */
};

#define PMBENCH_FIXTURE_INIT \
	{                    \
		.name = NULL \
	}

/**
 * Parse a manifest from `json` (`origin` names it in messages, e.g. the
 * file path). Errors are one line naming the origin and, for malformed
 * JSON, the line and column. Unknown fields are errors. `*out` is
 * overwritten (release it first if it held a fixture) and is left zeroed
 * on error. `origin` is kept as manifest_path, and a relative local
 * `repo` is later taken relative to its folder. Returns 0 or
 * PMBENCH_EINVALID.
 */
int pmbench_fixture_parse(struct pmbench_fixture *out, const char *json,
			  const char *origin);

/**
 * Load a fixture named on the command line: a generated workspace
 * (`gen:workspace:N[:SEED]`, gen.h), an existing `.json` manifest,
 * a folder holding a package.json (a bare local path: name is the
 * folder's base name with characters unfit for a folder name replaced,
 * repo its absolute path), or a bare name found as
 * `<fixtures_dir>/<name>.json` (`fixtures_dir` may be NULL). `*out` is
 * overwritten. Returns 0, PMBENCH_ENOTFOUND or PMBENCH_EINVALID.
 */
int pmbench_fixture_load(struct pmbench_fixture *out, const char *arg,
			 const char *fixtures_dir);

/**
 * Make the fixture's scratch source tree: clone `repo` once into
 * `<cache_dir>/repos/` as a bare repository (fetching only when the
 * commit is missing; with no commit, always fetching the origin's HEAD),
 * check out the commit into `<cache_dir>/work/<name>/source` (replaced;
 * it has no .git), and validate the subdir (exists, does not escape the
 * repo) and its package.json. A bare path, or a manifest whose local
 * `repo` is not a git repository, is copied without .git and
 * node_modules. A generated fixture is written there (gen.h). Never
 * writes into `repo` itself. The caller must have
 * set the fs sandbox to (a parent of) `cache_dir`. Sets resolved_commit
 * (NULL for a copy), source_dir and project_dir (absolute, owned by `f`,
 * replaced on each call). Returns 0, PMBENCH_ENOTFOUND (missing commit,
 * subdir or package.json), PMBENCH_EINVALID or PMBENCH_ERROR.
 */
int pmbench_fixture_checkout(struct pmbench_fixture *f, const char *cache_dir);

/** The per-PM entry for `pm`, or NULL. */
const struct pmbench_fixture_pm *
pmbench_fixture_pm(const struct pmbench_fixture *f, const char *pm);

/** Free everything `f` holds; `f` is left zeroed. */
void pmbench_fixture_release(struct pmbench_fixture *f);

/**
 * List the manifests in `fixtures_dir` (sorted by file name) into `out`
 * as paths. Returns 0 or an error.
 */
int pmbench_fixture_list(struct pmbench_strvec *out, const char *fixtures_dir);

#endif
