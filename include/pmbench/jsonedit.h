#ifndef PMBENCH_JSONEDIT_H
#define PMBENCH_JSONEDIT_H

#include <stddef.h>

#include "pmbench/buf.h"

/**
 * Edits of a JSON text that keep everything else as it was written
 * (indentation, key order, spacing, the final newline), so that the diff
 * of an edited package.json shows only the change: a value replaced in
 * place, or a member added to an object with the indentation and spacing
 * of its siblings. A path is a NULL-terminated list of keys of nested
 * objects ({ "dependencies", "zod", NULL }). Keys are compared as written
 * between their quotes.
 */

/**
 * Where the value at `path` is in `json`: [*start, *end) in bytes.
 * Returns 1 when it is there, 0 when it is not (or a step of the path is
 * no object), PMBENCH_EINVALID when `json` is not JSON.
 */
int pmbench_json_find(const char *json, const char *const *path, size_t *start,
		      size_t *end);

/**
 * Set the value at `path` in `json` to `value` (JSON text, such as
 * "true" or a string from pmbench_json_quote()): replaced in place when
 * it is there, else added to the object the path's other keys lead to,
 * after its member `after` (NULL or absent: after its last member), laid
 * out like its siblings (or, in an empty object, one level deeper than
 * the object's line, with the file's indentation unit). Returns 0, or
 * PMBENCH_EINVALID when `json` is not JSON or that object is missing;
 * `json` is unchanged then.
 */
int pmbench_json_set(struct pmbench_buf *json, const char *const *path,
		     const char *value, const char *after);

/** Append `s` to `out` as a JSON string, quoted and escaped. */
void pmbench_json_quote(struct pmbench_buf *out, const char *s);

#endif
