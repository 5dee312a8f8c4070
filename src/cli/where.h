#ifndef PMBENCH_CLI_WHERE_H
#define PMBENCH_CLI_WHERE_H

/*
 * Where pmbench's folders are when no option or variable names them,
 * found at run time from the binary's own path (/proc/self/exe), never
 * compiled in, so that a moved or copied tree uses its own folders:
 *
 * - A binary of a build tree (the folder holds the marker file
 *   PMBENCH_TREE_MARKER, which CMake writes with the way from the build
 *   tree to its source tree): the source tree's cache/ and fixtures/, and
 *   its ci/setup.
 * - Otherwise an installed binary: the user's cache folder
 *   ($XDG_CACHE_HOME/pmbench, else ~/.cache/pmbench), the fixtures
 *   installed with it (<prefix>/share/pmbench/fixtures) and pmbench-setup
 *   beside it.
 */

#ifndef PMBENCH_TREE_MARKER
#define PMBENCH_TREE_MARKER "pmbench-source-tree"
#endif

struct pmbench_where {
	char *cache_dir;    /**< the default work folder (absolute) */
	char *fixtures_dir; /**< the default fixtures folder (absolute) */
	/** The command that installs the pinned toolchain (absolute path). */
	char *setup;
};

#define PMBENCH_WHERE_INIT       \
	{                        \
		NULL, NULL, NULL \
	}

/**
 * Fill `w` for the binary running (released first). The user's cache
 * folder: `XDG_CACHE_HOME` when it is an absolute path, else `HOME`'s
 * (or the password database's) .cache.
 */
void pmbench_where_find(struct pmbench_where *w);

void pmbench_where_release(struct pmbench_where *w);

#endif
