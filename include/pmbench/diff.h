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
 *
 * A diff shows no credential (what pmbench_text_redact() would change:
 * `npmAuthToken: ...`, `//host/:_authToken=...`, a URL's password): a
 * kept line holding one is never context, the hunk's context stops
 * before it and a hunk ends there, so the diff still applies
 * (`git apply --check`). Only a changed line holding one is shown
 * redacted, and its hunk then cannot apply; and a change directly before
 * such a line (not at the file's end) gets no trailing context, which
 * `git apply --unidiff-zero` takes but plain `git apply` refuses.
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
