#ifndef PMBENCH_DIFF_H
#define PMBENCH_DIFF_H

#include "pmbench/buf.h"

/**
 * Unified diffs of text files, as `git diff` writes them, so that a team
 * can apply a change pmbench made in its own copy (`git apply`, `patch
 * -p1`): "--- a/<path>", "+++ b/<path>" ("--- /dev/null" for a new file),
 * then hunks "@@ -l,n +l,n @@" with three lines of context. Lines are
 * compared whole; a file whose last line has no newline gets git's
 * "\ No newline at end of file". The longest common subsequence of the
 * lines that differ is exact up to PMBENCH_DIFF_MAX_CELLS comparisons;
 * beyond, the differing middle is one hunk (still a correct patch).
 */

/** The most line pairs the exact comparison looks at. */
#define PMBENCH_DIFF_MAX_CELLS (4u << 20)

/**
 * Append the unified diff from `before` (NULL: the file is new) to
 * `after` of the file `path` (relative, '/'-separated) to `out`. Returns
 * the number of changed lines (added plus removed); 0 appends nothing.
 */
size_t pmbench_diff_unified(struct pmbench_buf *out, const char *path,
			    const char *before, const char *after);

#endif
