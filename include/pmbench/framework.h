#ifndef PMBENCH_FRAMEWORK_H
#define PMBENCH_FRAMEWORK_H

#include "pmbench/buf.h"

/**
 * The dev-server table: everything pmbench knows about one dev server
 * (Vite, Next, Astro, SvelteKit, webpack-dev-server, Vue CLI) sits in
 * one entry of src/engine/task/framework.c, as the PM table does for PMs:
 * how it is told from a project's dev script and dependencies, the
 * arguments that put it on pmbench's port and host, its ready line, and
 * the file an hmr edit touches with the URL that serves it. A fixture
 * manifest's "dev" and "hmr" fields override every value; a plain repo
 * folder (no manifest) gets the table's.
 */
struct pmbench_framework {
	const char *name;  /**< "vite", "next", ... */
	const char *title; /**< for humans: "Vite" */
	/** Words of the dev script that name it ("next dev"), any of them. */
	const char *const *commands;
	/** Dependencies that name it, any of them (checked after commands). */
	const char *const *deps;
	/**
	 * The entry whose command starts it (SvelteKit's `vite dev`), or
	 * NULL: that command names it only with one of its dependencies.
	 */
	const char *via;
	/** Port and host arguments, {port} filled in ("--port {port} ..."). */
	const char *args;
	/** Its ready line: a substring or an extended regex. */
	const char *ready;
	/**
	 * Files an hmr edit may touch, the first that exists wins, and the
	 * URL path that serves each: "" for a module URL (the file's own
	 * path: Vite serves /src/App.tsx), else a path ("/").
	 */
	const char *const *hmr_files;
	const char *hmr_path;
};

/** The table, most specific first (SvelteKit before Vite). */
extern const struct pmbench_framework pmbench_frameworks[];
extern const size_t pmbench_frameworks_nr;

/** The entry named `name`, or NULL. */
const struct pmbench_framework *pmbench_framework_get(const char *name);

/**
 * The dev server of the project in folder `project` whose dev script is
 * `script`: the first entry with one of its commands (or its `via`'s)
 * a word of the script's command line and one of its dependencies in
 * dependencies or devDependencies, else the first with such a command,
 * else the first with such a dependency. NULL when the package.json cannot be
 * read, has no such script, or names none of them.
 */
const struct pmbench_framework *pmbench_framework_detect(const char *project,
							 const char *script);

/**
 * The file of `fw`'s hmr_files that exists in `project` into `file`
 * (relative) and the URL path that serves it into `path`. Returns 0, or
 * PMBENCH_ENOTFOUND when none exists (nothing appended).
 */
int pmbench_framework_hmr_target(struct pmbench_buf *file,
				 struct pmbench_buf *path,
				 const struct pmbench_framework *fw,
				 const char *project);

#endif
