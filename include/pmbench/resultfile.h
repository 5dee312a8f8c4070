#ifndef PMBENCH_RESULTFILE_H
#define PMBENCH_RESULTFILE_H

#include "pmbench/migrate.h"
#include "pmbench/result.h"

/**
 * Every kind of result file pmbench writes, read as what it is. The
 * commands that read results (report, compare, claim --from, history,
 * merge) read them all through here, then take the kinds they take:
 *
 * - a bench result: "schema": "pmbench-result" (bench, a shard, merge);
 * - a ci-cache result: the same schema, its cells' task "ci-cache";
 * - a claim result: the same schema with a "claim" (a live `claim`);
 * - a migrate result: "schema": "pmbench-migrate" (migrate.h), the
 *   migration's model with its benchmark's result embedded.
 *
 * The JSON pmbench writes that is no result (a report's
 * "pmbench-report", hyperfine's export, the dashboards' formats) is
 * told too, and so is a file that is no JSON (empty, a report in
 * another format: HTML, SVG, a table, markdown or CSV), so that a
 * command can say what it was given.
 */

/** The kind of a result file; a mask of them says what a command takes. */
enum pmbench_result_kind {
	PMBENCH_RESULT_NONE = 0, /**< no result; `what` says what it is */
	PMBENCH_RESULT_BENCH = (1 << 0),
	PMBENCH_RESULT_CICACHE = (1 << 1),
	PMBENCH_RESULT_CLAIM = (1 << 2),
	PMBENCH_RESULT_MIGRATE = (1 << 3),
};

/** One file, read. */
struct pmbench_result_file {
	enum pmbench_result_kind kind;
	/** What it is, for messages: "a migrate result", "the JSON of a
	 * compare report (pmbench-report)"; owned. */
	char *what;
	/** Every kind but NONE: its cells (a migrate result's benchmark). */
	struct pmbench_result result;
	/** MIGRATE: the migration (migrate.h), as `migrate` had it. */
	struct pmbench_migrate migrate;
	/**
	 * MIGRATE, a file an older pmbench wrote: the fields it lacks that
	 * rendering it again needs ("pms[].installed, ..."), else NULL.
	 * Its `result` and the source PM are read all the same.
	 */
	char *lacks;
	int version; /**< the file's "version" (0: none) */
};

#define PMBENCH_RESULT_FILE_INIT                                            \
	{                                                                   \
		.kind = PMBENCH_RESULT_NONE, .result = PMBENCH_RESULT_INIT, \
		.migrate = PMBENCH_MIGRATE_INIT                             \
	}

/** "bench", "ci-cache", "claim" or "migrate" (static); "none" for NONE. */
const char *pmbench_result_kind_name(enum pmbench_result_kind k);

/**
 * Read the text `json` of a file (`origin` names it in messages) into
 * `out` (PMBENCH_RESULT_FILE_INIT, or released): a result of any kind,
 * or kind NONE with `what` saying what it is. Returns 0, or
 * PMBENCH_EINVALID with a one-line message naming `origin` and the field
 * when it is malformed JSON (text that opens with '{' or '['; any other
 * is kind NONE), a result with a field that is missing or of
 * the wrong type (pmbench_result_from_json()), or a version newer than
 * this pmbench reads. On error `out` is released.
 */
int pmbench_result_file_parse(struct pmbench_result_file *out, const char *json,
			      const char *origin);

/**
 * pmbench_result_file_parse() of the file at `path` (at most 256 MiB);
 * PMBENCH_ENOTFOUND when it does not exist.
 */
int pmbench_result_file_read(struct pmbench_result_file *out, const char *path);

/** Free everything; `f` is left as PMBENCH_RESULT_FILE_INIT. */
void pmbench_result_file_release(struct pmbench_result_file *f);

#endif
