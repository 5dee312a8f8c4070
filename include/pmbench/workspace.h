#ifndef PMBENCH_WORKSPACE_H
#define PMBENCH_WORKSPACE_H

#include <stdint.h>

#include "pmbench/strvec.h"

struct pmbench_buf;
struct pmbench_fs_index;
struct pmbench_pm;

/**
 * Workspaces: the folders of one PM's (or variant's) work on one
 * fixture, its priming copy and snapshot, and the preparation that puts
 * its run copy into exactly one scenario (scenario.h) from that
 * snapshot.
 */

/**
 * The folders of one PM's work on one fixture. All live under pmbench's
 * cache folder, on one filesystem, so hard links between a store and
 * node_modules survive a copy.
 */
struct pmbench_workspace {
	const struct pmbench_pm *pm;
	char *source;	    /**< pristine checkout of the fixture (read only) */
	char *subdir;	    /**< project folder inside it, or "" */
	char *root;	    /**< <cache>/work/<fixture>/<pm folder> */
	char *primed;	    /**< root/primed: the primed repo copy */
	char *primed_cache; /**< root/primed-cache: the primed PM cache */
	char *run;	    /**< root/run: the copy a timed run works in */
	char *run_project;  /**< run + subdir */
	char *cache;	    /**< <cache>/pm/<pm folder>: cache, HOME, tmp */
	char *trash;	    /**< <cache>/trash: trees to delete later */
	char *templates;    /**< root/templates: each state's run copy */
	struct pmbench_fs_index *index; /**< what the resets copied */
	char *npmrc; /**< user's ~/.npmrc copied into HOME, or NULL */
	/**
	 * root/runtime-cache: what the runtime keeps in the temp folder
	 * between runs (Node's compile cache; pmbench_pm_tmp_cache()),
	 * held here between runs and lent to the temp folder of every run
	 * whose state has a warm cache (task runs too).
	 */
	char *runtime;
	int runtime_lent; /**< its entries are in the temp folder now */
	/**
	 * A field of the project's package.json that every copy gets
	 * (pmbench_workspace_set_package_field()), and its JSON value;
	 * NULL: none.
	 */
	char *package_field, *package_value;
};

#define PMBENCH_WORKSPACE_INIT \
	{                      \
		.pm = NULL     \
	}

/**
 * Fill the paths (the PM's folder name is pmbench_pm_folder(): a
 * variant's ':' becomes '_'). Nothing is created yet.
 */
void pmbench_workspace_init(struct pmbench_workspace *ws,
			    const struct pmbench_pm *pm, const char *cache_dir,
			    const char *fixture_name, const char *source,
			    const char *subdir);

void pmbench_workspace_release(struct pmbench_workspace *ws);

/**
 * Prepare the copy for priming: a fresh copy of the source with every
 * lockfile removed but this PM's own shipped one (if the fixture ships
 * it), an empty cache, HOME and temp folder (the PM's TMPDIR, <cache>/tmp)
 * and no runtime cache.
 * `*out_shipped` is set to the name of the shipped lockfile kept, or NULL.
 */
int pmbench_workspace_prepare_prime(struct pmbench_workspace *ws,
				    const char **out_shipped);

/**
 * Prepare the copy for a migration's priming: like
 * pmbench_workspace_prepare_prime(), but the lockfile kept is `keep`
 * (another PM's, which this PM is to start from), or none when NULL.
 */
int pmbench_workspace_prepare_migrate(struct pmbench_workspace *ws,
				      const char *keep);

/**
 * After the priming install: move the copy and the cache into the primed
 * snapshot (renames, no copying). The runtime caches the priming left in
 * the temp folder go to `runtime`, and the rest of it is removed first:
 * locks and the like are never part of the cache state.
 */
int pmbench_workspace_save_primed(struct pmbench_workspace *ws);

/**
 * Set `field` of the project's package.json to the JSON text `value`, in
 * the run copy now and in every copy made after (bun's
 * trustedDependencies under --scripts all). Fails when the copy has no
 * package.json or it does not parse.
 */
int pmbench_workspace_set_package_field(struct pmbench_workspace *ws,
					const char *field, const char *value);

/** The PM's own lockfile in the run copy (static name), or NULL. */
const char *pmbench_workspace_run_lockfile(const struct pmbench_workspace *ws);

/** The lockfile the primed copy holds (static name), or NULL. */
const char *
pmbench_workspace_primed_lockfile(const struct pmbench_workspace *ws);

/**
 * Put the run copy into exactly `state`: a fresh copy of the source, no
 * lockfile of any PM unless LOCKFILE (then this PM's primed one), an
 * empty cache unless CACHE (then the primed cache), no node_modules
 * unless NODE_MODULES (then every primed node_modules folder and the PM's
 * install-state files), and in every state a temp folder (the PM's
 * TMPDIR, <cache>/tmp) that is empty but for the runtime caches
 * (`runtime`) when the state has CACHE: what the last run of this PM
 * left there, or the priming. The first call for a state builds that
 * state's run copy once as a template (root/templates/<state>, hard
 * links into the primed snapshot); every call then brings the run copy
 * and the cache to the template and the primed cache with
 * pmbench_fs_synctree(): what the last run left untouched stays, the
 * rest goes to the trash and is copied again. Fails with
 * PMBENCH_EINVALID when the state needs something the priming did not
 * produce (e.g. no lockfile).
 */
int pmbench_workspace_prepare(struct pmbench_workspace *ws, unsigned state);

/**
 * What was written into the run copy's node_modules folders after
 * `since` (pmbench_fs_changed_since()): how many entries into
 * *out_count, the first `keep` paths (relative to the run copy) onto
 * `names`. Without node_modules: 0.
 */
int pmbench_workspace_node_modules_written(const struct pmbench_workspace *ws,
					   const struct timespec *since,
					   size_t keep, uint64_t *out_count,
					   struct pmbench_strvec *names);

/**
 * Sum the disk usage of every node_modules folder of the run copy (hard
 * links counted once across them).
 */
int pmbench_workspace_node_modules(const struct pmbench_workspace *ws,
				   uint64_t *out_bytes, uint64_t *out_files);

struct pmbench_ctx;
struct pmbench_buf;

/**
 * Before timed runs: when pmbench's last large deletion (the trash of
 * `ctx->cache_dir` emptied, pmbench_fs_trash_emptied()) ended less than
 * the file system's inode reuse delay ago (pmbench_fs_inode_reuse_delay()),
 * wait out the rest, saying so, so that no run creates its files among
 * the inodes that deletion freed: a command started right after another
 * would otherwise time its first minutes on a slower file system. `note`
 * (may be NULL) gets what was waited for and why, when anything was.
 * Returns 0, or PMBENCH_EINTERRUPTED when `ctx` is cancelled meanwhile.
 */
int pmbench_workspace_await_reuse(const struct pmbench_ctx *ctx,
				  struct pmbench_buf *note);

/**
 * The first control of the rounds after that wait, `files_s` its file
 * work: the wait's probe sees the control's own folders, and a file
 * system still slowed where the runs write has been seen to pass it
 * (the next control, in the first round, 3 to 7 times the reference).
 * Once per process after a measured wait: when this control is beyond
 * the margin of the reference, wait again as before timing, within what
 * is left of the bound; `note` (may be NULL) gets a sentence when it
 * waited. Returns 0 or PMBENCH_EINTERRUPTED.
 */
int pmbench_workspace_recheck_reuse(const struct pmbench_ctx *ctx,
				    double files_s, struct pmbench_buf *note);

/**
 * After the last timed run of a fixture: the primed snapshot, the run
 * copy and the PM's cache go to the trash. Errors are ignored (nothing of
 * the user's is at stake; the next run starts them afresh).
 */
void pmbench_workspace_discard_all(const struct pmbench_workspace *ws);

#endif
