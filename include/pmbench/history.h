#ifndef PMBENCH_HISTORY_H
#define PMBENCH_HISTORY_H

#include <stddef.h>

#include "pmbench/result.h"
#include "pmbench/strvec.h"

/**
 * `pmbench history DIR`: every result file under a folder (a workflow's
 * merged results, dated, over PM releases), read once and put in time
 * order, for the history report kind (report_kind.h).
 */

/** One result file of the folder. */
struct pmbench_history_entry {
	char *path;		      /**< as found under the folder */
	char *date;		      /**< "2026-12-02": from `created` */
	struct pmbench_result result; /**< owned */
};

struct pmbench_history {
	struct pmbench_history_entry *entries; /**< oldest first */
	size_t nr, alloc;
	/** "path: why" for each .json file that is not a result */
	struct pmbench_strvec skipped;
};

#define PMBENCH_HISTORY_INIT                    \
	{                                       \
		NULL, 0, 0, PMBENCH_STRVEC_INIT \
	}

/**
 * Read every `*.json` file under `dir` (sub-folders too, to a depth of
 * 8, symlinks not followed) that is a pmbench result with cells; other
 * `.json` files go to `out->skipped` with the reader's reason. Entries
 * are ordered by `created` (a result without it counts as oldest), then
 * by path. Returns 0, PMBENCH_ENOTFOUND when `dir` is not a folder, or
 * PMBENCH_EINVALID when it holds no result (naming it). `out` must be
 * PMBENCH_HISTORY_INIT; release it with pmbench_history_release(), also
 * after an error.
 */
int pmbench_history_load(struct pmbench_history *out, const char *dir);

/** Free everything; `h` is left as PMBENCH_HISTORY_INIT. */
void pmbench_history_release(struct pmbench_history *h);

#endif
