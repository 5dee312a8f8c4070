#ifndef PMBENCH_GEN_H
#define PMBENCH_GEN_H

#include <stdint.h>

#include "pmbench/buf.h"

/**
 * Generated fixtures: a FIXTURE operand spelled `gen:workspace:N[:SEED]`
 * is a workspace that pmbench writes into its own work folder (never the
 * user's): a private root listing the folders under packages (in
 * package.json and in pnpm-workspace.yaml, with linkWorkspacePackages, so
 * that every PM
 * installs it as it is), and N packages, each asking for a few shared
 * dependencies (from a pool of 8 every package draws from) and a few of
 * its own (from a pool of 24), all small real packages without
 * dependencies of their own, pinned, and for one earlier package by
 * plain version. The same N and SEED give the same bytes on every
 * machine and in every pmbench version that keeps the pools. A result
 * keeps the spelling as its fixture's `repo`, which is how reports find
 * the N of each fixture (pmbench_gen_parse()) and draw how install time
 * grows with it.
 */

/** The largest N. */
#define PMBENCH_GEN_MAX_PACKAGES 2000
/** The seed when the spelling has none. */
#define PMBENCH_GEN_DEFAULT_SEED 1
/** Dependencies per package: from the shared pool and from its own. */
#define PMBENCH_GEN_SHARED_DEPS 3
#define PMBENCH_GEN_OWN_DEPS	2

/** A generated fixture's parameters. */
struct pmbench_gen {
	const char *kind; /**< "workspace" (static storage) */
	unsigned packages;
	uint64_t seed;
};

/** Whether `spec` is spelled as a generated fixture ("gen:..."). */
int pmbench_gen_is(const char *spec);

/**
 * Parse `spec` ("gen:workspace:50", "gen:workspace:50:7"). Returns 0, or
 * PMBENCH_EINVALID with a one-line message naming the spelling.
 */
int pmbench_gen_parse(struct pmbench_gen *out, const char *spec);

/**
 * The fixture's name ("gen-workspace-50", "gen-workspace-50-s7" for a
 * seed other than the default) and its canonical spelling
 * ("gen:workspace:50:7"), appended to `name` and `spec` (either may be
 * NULL).
 */
void pmbench_gen_names(struct pmbench_buf *name, struct pmbench_buf *spec,
		       const struct pmbench_gen *g);

/**
 * Write the workspace of `g` into `dir`, which must not exist or be
 * empty (pmbench's own work folder). Returns 0 or an error naming the
 * file it could not write.
 */
int pmbench_gen_write(const struct pmbench_gen *g, const char *dir);

#endif
