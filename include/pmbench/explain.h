#ifndef PMBENCH_EXPLAIN_H
#define PMBENCH_EXPLAIN_H

#include <stdint.h>

#include "pmbench/result.h"

struct pmbench_pmrun;

/**
 * `bench --explain`: after a scenario's timed runs, a few untimed runs
 * per PM with the PM's own timers switched on (its table entry's
 * `timer_args` and `timer_env`: npm --timing, pnpm --reporter=ndjson,
 * yarn 1 and bun --verbose, deno -L debug; yarn 4 prints its steps in
 * every run), their output read line by line as it comes, each line
 * with the time it arrived, and handed to the PM's `timer_parse`. The
 * phases go into the cell's `explain` runs (result.h). A timed run never
 * carries those flags: they slow some PMs (docs/explain.md).
 *
 * With PMBENCH_EXPLAIN_TRANSCRIPTS=DIR in pmbench's environment, each
 * run's transcript (pmtimer.h) is also written to DIR/<label>.txt (how
 * tests/data/pm-timers/ was made).
 */

/** The untimed runs `--explain` adds per PM and scenario. */
#define PMBENCH_EXPLAIN_RUNS 3

/** The most output an explained run keeps (the rest is not read). */
#define PMBENCH_EXPLAIN_OUTPUT_MAX (64u * 1024u * 1024u)

/**
 * One untimed install of `ps` in its run copy, which the caller has
 * prepared (the state the scenario starts from), with the PM's timers on,
 * into `out`: ok, its wall time and phases, or why not (it failed; its
 * output held no timer line the PM's reader knows; the PM has no
 * timers). `label` names the transcript file (see above). Returns 0
 * whatever the run did, or PMBENCH_EINTERRUPTED.
 */
int pmbench_explain_install(struct pmbench_explain_run *out,
			    struct pmbench_pmrun *ps, uint64_t timeout_ns,
			    const char *label);

/**
 * What `--explain` switched on for `pm`'s runs, for the cell: "npm
 * install ... --timing", or why it has no timers. A new string.
 */
char *pmbench_explain_how(const struct pmbench_pmrun *ps);

#endif
