/*
 * ci-cache's setup step: getting the PM as a CI job does (cisetup.c).
 * Private to src/engine/run.
 */
#ifndef PMBENCH_RUN_CISETUP_H
#define PMBENCH_RUN_CISETUP_H

#include <stdint.h>

#include "pmbench/buf.h"
#include "pmbench/pmrun.h"

/** 1 when `pm` comes with Node (npm): a CI job has it, no setup. */
int pmbench_cisetup_preinstalled(const struct pmbench_pm *pm);

/** How the setup gets `ps`'s PM, for the result's environment. */
void pmbench_cisetup_describe(struct pmbench_buf *out,
			      const struct pmbench_pmrun *ps);

/** The prefix the setup installs into, below `root`. */
void pmbench_cisetup_prefix(struct pmbench_buf *out, const char *root);

/**
 * The setup step of one job: `root` (the PM's setup folder, discarded
 * first) gets a fresh prefix and npm cache, and `npm` (the binary)
 * installs the PM's package at its found version globally into the
 * prefix, with the PM's environment and the mirror as npm's registry.
 * `*ns` gets its wall time. Returns 0, 1 when the setup failed (`why`
 * says how: an exit other than 0, or no package in the prefix), or a
 * negative error (PMBENCH_EINTERRUPTED; the folder could not be made).
 */
int pmbench_cisetup_install(uint64_t *ns, struct pmbench_buf *why,
			    const struct pmbench_pmrun *ps, const char *npm,
			    const char *root, uint64_t timeout_ns);

#endif
