#ifndef PMBENCH_ENGINE_PMTIMER_PARSE_H
#define PMBENCH_ENGINE_PMTIMER_PARSE_H

/*
 * The readers of each PM's timers (src/engine/pm/pmtimer.c), for the PM
 * table's `timer_parse` (src/engine/pm/pm.c) only: elsewhere a PM's reader
 * is reached through its table entry. Each reads a transcript
 * (pmtimer.h) of `len` bytes, which need not be NUL-terminated, into
 * `out` and returns how many phases it added. Any bytes are safe.
 */
#include <stddef.h>

#include "pmbench/pmtimer.h"

int pmbench_pmtimer_npm(struct pmbench_pm_phases *out, const char *text,
			size_t len);
int pmbench_pmtimer_yarn(struct pmbench_pm_phases *out, const char *text,
			 size_t len);
int pmbench_pmtimer_berry(struct pmbench_pm_phases *out, const char *text,
			  size_t len);
int pmbench_pmtimer_pnpm(struct pmbench_pm_phases *out, const char *text,
			 size_t len);
int pmbench_pmtimer_bun(struct pmbench_pm_phases *out, const char *text,
			size_t len);
int pmbench_pmtimer_deno(struct pmbench_pm_phases *out, const char *text,
			 size_t len);

#endif
