#ifndef PMBENCH_HISTORY_H
#define PMBENCH_HISTORY_H

#include <stddef.h>

#include "pmbench/result.h"
#include "pmbench/resultfile.h"
#include "pmbench/strvec.h"

/**
 * `pmbench history DIR`: every result file under a folder (a workflow's
 * merged results, dated, over PM releases), read once and put in time
 * order, for the history report kind (report_kind.h).
 */

/** One result file of the folder. */
struct pmbench_history_entry {
	char *path; /**< as found under the folder */
	/** "2026-12-02": from `created`; "undated" without one */
	char *date;
	int dated;		       /**< 1: it has `created` */
	int64_t when;		       /**< `created`, s since 1970 (UTC) */
	enum pmbench_result_kind kind; /**< what wrote it (resultfile.h) */
	/** its cells: a migrate result's benchmark; owned */
	struct pmbench_result result;
	/** a migrate result's source PM, its targets' baseline; owned */
	char *source_pm;
	uint64_t seed; /**< a migrate result's seed (its result's, before) */
};

struct pmbench_history {
	struct pmbench_history_entry *entries; /**< oldest first */
	size_t nr, alloc;
	/**
	 * "path: why" for each .json file left out: not a result, or a
	 * result whose `created` is no real date; the caller prints them
	 * as warnings
	 */
	struct pmbench_strvec skipped;
};

#define PMBENCH_HISTORY_INIT                                    \
	{                                                       \
		.entries = NULL, .skipped = PMBENCH_STRVEC_INIT \
	}

/**
 * Read every `*.json` file under `dir` (sub-folders too, to a depth of
 * 8, symlinks not followed) that is a pmbench result with cells, of any
 * kind (resultfile.h; a migrate result's benchmark with its source PM,
 * also one an older pmbench wrote); other `.json` files go to
 * `out->skipped` with what they are or the reader's reason, and so
 * does a result whose `created` is no real date (pmbench_result_created()
 * says what is wrong). Entries are ordered by `created`, then by path; a
 * result without it is "undated" and counts as oldest.
 * Returns 0, PMBENCH_ENOTFOUND when `dir` is not a folder, or
 * PMBENCH_EINVALID when it holds no result (naming it). `out` must be
 * PMBENCH_HISTORY_INIT; release it with pmbench_history_release(), also
 * after an error.
 */
int pmbench_history_load(struct pmbench_history *out, const char *dir);

/** Free everything; `h` is left as PMBENCH_HISTORY_INIT. */
void pmbench_history_release(struct pmbench_history *h);

#endif
