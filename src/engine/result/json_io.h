#ifndef PMBENCH_ENGINE_RESULT_JSON_IO_H
#define PMBENCH_ENGINE_RESULT_JSON_IO_H

/*
 * The JSON walkers of the engine's result files, private to
 * src/engine/result/: result_json.c implements them for a result
 * (docs/result-schema.md), and migrate_json.c walks a migrate result
 * (its model, and the result it embeds) with the same ones, so that
 * both files say a field, a missing field and a wrong type alike.
 */
#include <cjson/cJSON.h>

#include "pmbench/buf.h"
#include "pmbench/result.h"
#include "pmbench/strvec.h"

#include "result_fields.h"

/* ---- Writing ------------------------------------------------------------ */

/* `item`, or death when cJSON could not allocate it. */
cJSON *pmbench_json_must(cJSON *item);

/* `s` (redacted: pmbench_text_redact_dup()) as `key`, null when NULL. */
void pmbench_json_add_str(cJSON *obj, const char *key, const char *s);

/* `sv` as the array of strings `key`, each redacted. */
void pmbench_json_add_strvec(cJSON *obj, const char *key,
			     const struct pmbench_strvec *sv);

/* A new empty object at the end of the array `arr`. */
cJSON *pmbench_json_add_object(cJSON *arr);

/* `item` at the end of the array `arr`. */
void pmbench_json_add_item(cJSON *arr, cJSON *item);

/* Every field of the table `f` of the struct at `base` into `o`. */
void pmbench_json_write_fields(cJSON *o, const void *base,
			       const struct pmbench_result_field *f);

/* The whole result `r` as a new object ("schema" first); caller deletes. */
cJSON *pmbench_result_to_cjson(const struct pmbench_result *r);

/*
 * `root` printed as the files are (cJSON's tabs, a final newline), into
 * a new string the caller frees with free(); `root` is deleted.
 */
char *pmbench_json_print(cJSON *root);

/* ---- Reading ------------------------------------------------------------ */

/*
 * Where the reader is, for error messages: the origin (a file name) and
 * the path of the object being read, such as "cells[2].samples[4]" or,
 * in a migrate result, "result.cells[2]".
 */
struct pmbench_json_reader {
	const char *origin;
	struct pmbench_buf where;
	/* What the `more` callbacks of the objects read need, or NULL. */
	const void *payload;
};

/* An EINVALID error naming the file and the field `key` (may be NULL). */
PMBENCH_PRINTF(3, 4)
int pmbench_json_bad_field(const struct pmbench_json_reader *rd,
			   const char *key, const char *fmt, ...);

/*
 * Look up `key`. A missing key and a JSON null mean the same thing: the
 * field is absent. Returns 1 if present, 0 if absent and optional, or
 * PMBENCH_EINVALID if absent and required.
 */
int pmbench_json_lookup(const cJSON **out, const struct pmbench_json_reader *rd,
			const cJSON *obj, const char *key, int required);

/* A number that must be a whole number within [lo, hi]. */
int pmbench_json_whole(double *out, const struct pmbench_json_reader *rd,
		       const cJSON *item, const char *key, double lo,
		       double hi);

/* The array of strings `arr` (the field `key`) appended to `out`. */
int pmbench_json_read_strvec(struct pmbench_strvec *out,
			     const struct pmbench_json_reader *rd,
			     const cJSON *arr, const char *key);

/* Every field of the table `fields` from `o` into the struct at `base`. */
int pmbench_json_read_fields(void *base, const struct pmbench_json_reader *rd,
			     const cJSON *o,
			     const struct pmbench_result_field *fields);

/* The array `key` of `obj`, or NULL (and 0) when absent and optional. */
int pmbench_json_get_array(const cJSON **out,
			   const struct pmbench_json_reader *rd,
			   const cJSON *obj, const char *key, int required);

/* The object `key` of `obj`, or NULL (and 0) when absent. */
int pmbench_json_get_object(const cJSON **out,
			    const struct pmbench_json_reader *rd,
			    const cJSON *obj, const char *key);

/*
 * Step into element `i` of the array `key`: its position is appended to
 * the reader's path (restore it with pmbench_buf_setlen() to `*old_len`)
 * and it must be an object.
 */
int pmbench_json_enter(size_t *old_len, struct pmbench_json_reader *rd,
		       const cJSON *item, const char *key, int i);

/*
 * An array of objects, such as "cells": for each element, `add` appends
 * a new zeroed one at position `i` to `owner` and returns it, the table
 * `fields` is read into it, then `more` (when not NULL) reads what the
 * table does not hold.
 */
struct pmbench_json_objects {
	const char *key;
	int required;
	void *(*add)(void *owner, int i);
	const struct pmbench_result_field *fields;
	int (*more)(void *elem, struct pmbench_json_reader *rd,
		    const cJSON *item);
};

int pmbench_json_read_objects(void *owner, struct pmbench_json_reader *rd,
			      const cJSON *obj,
			      const struct pmbench_json_objects *spec);

/*
 * Parse `json` into *out (the caller deletes it): PMBENCH_EINVALID
 * "'<origin>': malformed JSON at line L, column C" when it is not JSON.
 */
int pmbench_json_parse(cJSON **out, const char *json, const char *origin);

/*
 * The result in the object `root` (its "schema" and "version" first)
 * into `out`, which must be PMBENCH_RESULT_INIT; the reader's path is
 * where `root` is ("result" inside a migrate result). On error `out`
 * holds what was read so far: release it.
 */
int pmbench_result_from_cjson(struct pmbench_result *out,
			      struct pmbench_json_reader *rd,
			      const cJSON *root);

struct pmbench_result_file;

/*
 * The "pmbench-migrate" object `root` (after its "schema") into `out`'s
 * migrate, result, version and lacks (migrate_json.c).
 */
int pmbench_migrate_from_cjson(struct pmbench_result_file *out,
			       struct pmbench_json_reader *rd,
			       const cJSON *root);

#endif
