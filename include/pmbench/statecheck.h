#ifndef PMBENCH_STATECHECK_H
#define PMBENCH_STATECHECK_H

#include "pmbench/buf.h"
#include "pmbench/result.h"

struct pmbench_pm;

/** How many of the paths written into node_modules a sample keeps. */
#define PMBENCH_NM_WRITTEN_KEEP 3

/**
 * The state check of one install run (issue 36): was the run in the
 * state its scenario asks for? From what pmbench records of every run:
 * the mirror's counts of packuments and tarballs (metrics
 * registry_meta_requests and registry_tarball_requests), the tarballs
 * the tree needs (`tree_tarballs_count`: the priming install's, from an
 * empty cache) and whether the lockfile changed
 * (`lockfile_changed_count`). The rules (enum pmbench_check_rule):
 *
 * - an empty cache (no "cache" in the scenario, no node_modules)
 *   downloads every tarball the tree needs, else "warm";
 * - a warm cache without node_modules downloads no tarball;
 * - a lockfile asks for no packument and stays the same, else
 *   "resolved again".
 *
 * A rule the PM's table documents an exception to (struct
 * pmbench_pm_known, its `config` found in `pm_config` when set) gives
 * PMBENCH_CHECK_KNOWN with that reason; any other broken rule gives
 * PMBENCH_CHECK_FAIL. A rule whose figures the sample lacks (a run
 * without the mirror) is not judged: with none judged, NONE.
 */

/**
 * Check sample `s` of `pm` in scenario `state` (PMBENCH_STATE_*) with
 * the PM configuration `pm_config` (may be NULL); the reasons go into
 * `why`, "; " between them. A pure function. Returns enum pmbench_check.
 */
int pmbench_state_check(struct pmbench_buf *why, const struct pmbench_sample *s,
			unsigned state, const struct pmbench_pm *pm,
			const char *pm_config);

/** pmbench_state_check() into the sample's state_check and state_why. */
void pmbench_state_check_sample(struct pmbench_sample *s, unsigned state,
				const struct pmbench_pm *pm,
				const char *pm_config);

/**
 * The offline proof of a warm cell (bench --prove-offline): sample `s`
 * is one install run in the cell's state with the registry refusing
 * every request (pmbench_registry_refuse()). It passes when the run
 * succeeded and asked the registry nothing (its metrics
 * registry_meta_requests, registry_tarball_requests and
 * registry_other_requests all 0); a run that failed, or that asked
 * anything, was not warm. `why` gets what the run did, one line. A
 * pure function. Returns enum pmbench_proof: NONE when `s` lacks the
 * mirror's counts (nothing can be told).
 */
int pmbench_state_proof(struct pmbench_buf *why,
			const struct pmbench_sample *s);

/** Whether scenario `state` (PMBENCH_STATE_*) is warm: it is proven. */
int pmbench_state_warm(unsigned state);

#endif
