#ifndef PMBENCH_CHANGE_H
#define PMBENCH_CHANGE_H

#include "pmbench/buf.h"

/**
 * A dependency changed in `<project>/package.json`, the way a team's
 * change stales its lockfile: the first direct dependency (by name, in
 * dependencies, then devDependencies) with a plain version X.Y.Z (or
 * ^X.Y.Z, ~X.Y.Z) gets the range "<X.Y.Z", the newest release below
 * the one locked: deterministic, and it always
 * changes the lockfile. `what` gets "name 1.2.3 -> <1.2.3 in
 * dependencies". Returns 0, or PMBENCH_EINVALID when no dependency has a
 * plain version (or package.json does not parse), or a read/write error.
 * ci-cache's lockfile-changed job and the `update` task make it.
 */
int pmbench_change_dependency(struct pmbench_buf *what, const char *project);

#endif
