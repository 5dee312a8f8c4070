#ifndef PMBENCH_SCRIPTCHECK_H
#define PMBENCH_SCRIPTCHECK_H

#include "pmbench/buf.h"
#include "pmbench/pm.h"
#include "pmbench/result.h"
#include "pmbench/strvec.h"

/**
 * `--scripts none` and `--scripts all` confirmed by the run's process
 * tree (issue 36): the lifecycle scripts pmbench saw run (the sample's
 * phases, phases.h: each a package's npm_package_name and event) against
 * the choice. Under `none` no lifecycle script ran, else "--scripts
 * none: N lifecycle scripts ran: esbuild postinstall, ..."; under `all`,
 * in a scenario without node_modules in place (an up-to-date
 * node_modules has nothing to build), every installed package with an
 * install script (`packages`, "name@version", as the priming found them)
 * ran one, else "--scripts all: N of M packages with an install script
 * ran none: ...". A run without a traced tree, or the PM as it comes, is
 * not judged.
 */

/**
 * Check sample `s` in scenario `state` (PMBENCH_STATE_*) under
 * `choice`; the reason into `why`. A pure function. Returns enum
 * pmbench_check: NONE (not judged), PASS or FAIL.
 */
int pmbench_scripts_check(struct pmbench_buf *why,
			  const struct pmbench_sample *s, unsigned state,
			  enum pmbench_scripts_choice choice,
			  const struct pmbench_strvec *packages);

/**
 * pmbench_scripts_check() folded into the sample's state check (after
 * pmbench_state_check_sample()): a failure makes it FAIL with the
 * reason appended to `state_why`; a pass makes an unjudged one PASS.
 */
void pmbench_scripts_check_sample(struct pmbench_sample *s, unsigned state,
				  enum pmbench_scripts_choice choice,
				  const struct pmbench_strvec *packages);

#endif
