#ifndef PMBENCH_SEMVER_H
#define PMBENCH_SEMVER_H

#include <stddef.h>

/**
 * Versions and ranges the way npm's node-semver reads them, enough to
 * pick a Node for a repo (`.nvmrc` "20", `engines.node` ">=18 <21",
 * "^20.17.0 || >=22.9.0") and an npm for a Node: `||` alternatives of
 * space-separated comparators (`<`, `<=`, `>`, `>=`, `=`), x-ranges
 * ("20", "20.x", "*"), tilde, caret and hyphen ranges ("18 - 20"), each
 * version with an optional leading "v". A version with a prerelease tag
 * ("21.0.0-rc.1") satisfies no range, as npm leaves them out unless a
 * range names one (which pmbench never needs for Node).
 */

/** A version: MAJOR.MINOR.PATCH and whether a prerelease tag follows. */
struct pmbench_semver {
	unsigned long major, minor, patch;
	int prerelease;
};

/**
 * Read `text` ("20.11.1", "v20.11.1", "20.11.1-rc.1+build"), whole, into
 * `out`. Returns 0, or -1 when it is no full version (nothing is set).
 */
int pmbench_semver_parse(struct pmbench_semver *out, const char *text);

/** <0, 0 or >0 as `a` is older, the same as, or newer than `b`. */
int pmbench_semver_order(const struct pmbench_semver *a,
			 const struct pmbench_semver *b);

/**
 * Whether `v` satisfies `range` (see above; "" and "*" take every
 * release). Returns 1 or 0, or -1 when `range` cannot be read.
 */
int pmbench_semver_satisfies(const char *range, const struct pmbench_semver *v);

/**
 * The newest of `versions[0..nr)` (texts; those that are no version are
 * skipped) that satisfies `range`: its index, or -1 when none does or the
 * range cannot be read.
 */
long pmbench_semver_max_satisfying(const char *const *versions, size_t nr,
				   const char *range);

#endif
