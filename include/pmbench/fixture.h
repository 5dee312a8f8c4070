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

/** How a field of a task's manifest section is checked. */
enum pmbench_manifest_kind {
	PMBENCH_MANIFEST_STRING,   /**< a string, not empty */
	PMBENCH_MANIFEST_TEXT,	   /**< a string, may be empty */
	PMBENCH_MANIFEST_FOLDER,   /**< a folder inside the project */
	PMBENCH_MANIFEST_FILE,	   /**< a file inside the project */
	PMBENCH_MANIFEST_URL_PATH, /**< the path of a URL: starts with '/' */
};

/**
 * A field of a task's manifest section. A FOLDER or FILE is kept
 * normalised (relative, no "." or doubled slashes; ".." and absolute
 * paths are refused).
 */
struct pmbench_manifest_field {
	const char *name; /**< "script" */
	enum pmbench_manifest_kind kind;
	/** Its value when the manifest does not give it, or NULL. */
	const char *fallback;
};

/**
 * A task's own section of a manifest, declared by the task table
 * (task.h): `"build": { "script": "build:prod", "output": "dist" }`. A
 * manifest's section is an object of these fields only, each checked
 * by its kind; several tasks may read one section (hmr reads dev's).
 */
struct pmbench_manifest_section {
	const char *key; /**< "build" */
	/** Its fields, ending with a NULL name. */
	const struct pmbench_manifest_field *fields;
};

/**
 * A section of a fixture: every section a task declares is there, as
 * the manifest gave it or (`given` 0) not at all.
 */
struct pmbench_fixture_section {
	const struct pmbench_manifest_section *spec;
	char **values; /**< one per field of spec, NULL where not given */
	int given;     /**< the manifest has the section */
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
	 * Further scripts the run task times ("scripts"), and the tasks' own
	 * sections ("build", "dev", ...), as the task table declares them
	 * (struct pmbench_task's `sections`): read them with
	 * pmbench_fixture_get().
	 */
	struct pmbench_strvec scripts;
	struct pmbench_fixture_section *sections;
	size_t sections_nr, sections_alloc;

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
 * Whether `a` and `b`, loaded by pmbench_fixture_load(), are one fixture
 * given twice: 1 when they are (the same name, repo, commit, subdir and
 * manifest file), 0 when they are two with different names, and
 * PMBENCH_EINVALID when two different fixtures share a name, so that
 * their work folders and results would mix (the message names both and
 * the fix).
 */
int pmbench_fixture_same(const struct pmbench_fixture *a,
			 const struct pmbench_fixture *b);

/**
 * Append to `out` the fixture name of the folder `path` (its last
 * component, any bytes): ASCII letters, digits, '.', '_' and '-' kept,
 * accented Latin letters (U+00C0 to U+017F) as their base letters, any
 * other run of characters one '-', a '.' or '-' at the start '_', at
 * most 100 bytes. Whenever that is not the component itself, '-' and 8
 * hex digits of a hash of the component follow ("ü" is "u-2a3df3b2"), so
 * two different folders do not share a name. "/" is "root".
 */
void pmbench_fixture_name_of(struct pmbench_buf *out, const char *path);

/**
 * pmbench_fixture_name_of() for the repository URL `url`, whose name is
 * the part git would name its clone: trailing '/', spaces and "/.git"
 * dropped, the part after the last '/' or ':', without ".git".
 */
void pmbench_fixture_name_of_url(struct pmbench_buf *out, const char *url);

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

/**
 * The value of field `field` of the manifest's section `section`
 * ("build", "output"): the manifest's, else the field's fallback (also
 * for a manifest without the section, and a bare path), else NULL. A
 * section or field no task declares is NULL too. Owned by `f`.
 */
const char *pmbench_fixture_get(const struct pmbench_fixture *f,
				const char *section, const char *field);

/** Whether the manifest has the section `section` ("hmr"): 1 or 0. */
int pmbench_fixture_has(const struct pmbench_fixture *f, const char *section);

/**
 * The section `key` of `f` (given by the manifest or not), or NULL when
 * no task declares it or `f` was not loaded (pmbench_fixture_parse(),
 * pmbench_fixture_load()).
 */
const struct pmbench_fixture_section *
pmbench_fixture_section(const struct pmbench_fixture *f, const char *key);

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
