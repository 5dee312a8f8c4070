/*
 * A result file of any kind, told by what it holds (resultfile.h): a
 * bench, ci-cache or claim result ("pmbench-result"), a migrate result
 * ("pmbench-migrate"), or JSON pmbench writes that is no result (a
 * report's, hyperfine's, the dashboards'), said as what it is.
 */
#include "pmbench/common.h"

#include <strings.h>

#include "pmbench/buf.h"
#include "pmbench/cicache.h"
#include "pmbench/fs.h"
#include "pmbench/resultfile.h"

#include "json_io.h"

/* As a result file: anything larger is not ours (result_json.c). */
#define FILE_MAX_BYTES ((size_t)256 << 20)

const char *pmbench_result_kind_name(enum pmbench_result_kind k)
{
	switch (k) {
	case PMBENCH_RESULT_BENCH:
		return "bench";
	case PMBENCH_RESULT_CICACHE:
		return "ci-cache";
	case PMBENCH_RESULT_CLAIM:
		return "claim";
	case PMBENCH_RESULT_MIGRATE:
		return "migrate";
	case PMBENCH_RESULT_NONE:
		break;
	}
	return "none";
}

/* A "pmbench-result": a claim's (it names one), a ci-cache's, a bench's. */
static enum pmbench_result_kind kind_of(const struct pmbench_result *r)
{
	if (r->claim)
		return PMBENCH_RESULT_CLAIM;
	for (size_t i = 0; i < r->cells_nr; i++)
		if (!strcmp(r->cells[i].task, PMBENCH_CICACHE_TASK))
			return PMBENCH_RESULT_CICACHE;
	return PMBENCH_RESULT_BENCH;
}

/* Whether every value of `o` is an object of objects with a "value". */
static int bencher_shaped(const cJSON *o)
{
	const cJSON *bench, *measure;

	if (!cJSON_IsObject(o) || !o->child)
		return 0;
	cJSON_ArrayForEach(bench, o)
	{
		if (!cJSON_IsObject(bench) || !bench->child)
			return 0;
		cJSON_ArrayForEach(measure, bench) if (
			!cJSON_IsNumber(cJSON_GetObjectItem(measure,
							    "value"))) return 0;
	}
	return 1;
}

/*
 * What pmbench writes that is no result, or NULL: a report's JSON, the
 * hyperfine export, Bencher's and github-action-benchmark's formats.
 */
static char *no_result(const cJSON *root)
{
	const cJSON *schema = cJSON_GetObjectItem(root, "schema");
	const cJSON *kind = cJSON_GetObjectItem(root, "kind");
	const cJSON *first = cJSON_IsArray(root) ? root->child : NULL;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (cJSON_IsString(schema) &&
	    !strcmp(schema->valuestring, "pmbench-report"))
		pmbench_buf_addf(&b,
				 "the JSON of a %s report (pmbench-report, "
				 "--format json), not a result",
				 cJSON_IsString(kind) ? kind->valuestring
						      : "pmbench");
	else if (cJSON_IsArray(cJSON_GetObjectItem(root, "results")))
		pmbench_buf_adds(&b, "hyperfine's JSON (--format hyperfine, "
				     "or a bench report's --format json), "
				     "not a result");
	else if (first && cJSON_GetObjectItem(first, "name") &&
		 cJSON_GetObjectItem(first, "unit"))
		pmbench_buf_adds(&b, "github-action-benchmark's JSON "
				     "(--format github-action-benchmark), not "
				     "a result");
	else if (!schema && bencher_shaped(root))
		pmbench_buf_adds(&b, "Bencher's metric format (--format "
				     "bencher), not a result");
	else if (!schema)
		pmbench_buf_adds(&b, "JSON that pmbench did not write (it has "
				     "no \"schema\")");
	else if (cJSON_IsString(schema) &&
		 strcmp(schema->valuestring, PMBENCH_RESULT_SCHEMA) &&
		 strcmp(schema->valuestring, PMBENCH_MIGRATE_SCHEMA))
		pmbench_buf_addf(&b,
				 "JSON of the schema '%s', which pmbench "
				 "does not write",
				 schema->valuestring);
	return b.len ? pmbench_buf_detach(&b) : NULL;
}

/* Whether `text` begins with `word`, in any case. */
static int begins(const char *text, const char *word)
{
	return !strncasecmp(text, word, strlen(word));
}

/*
 * What the text `json` is when it cannot be JSON (past blanks and a
 * byte order mark, it opens with neither '{' nor '['), or NULL: nothing,
 * or a report pmbench printed in a format but JSON, which is not read
 * again (its result file is).
 */
static char *no_json(const char *json)
{
	const char *p = json + strspn(json, " \t\r\n");
	const char *what;

	if (begins(p, "\xef\xbb\xbf"))
		p += 3;
	if (*p == '{' || *p == '[')
		return NULL;
	if (!*p)
		what = "an empty file, not a result";
	else if (begins(p, "<!doctype html") || begins(p, "<html"))
		what = "an HTML report (--format html), not a result";
	else if (begins(p, "<svg") || (begins(p, "<?xml") && strstr(p, "<svg")))
		what = "an SVG report (--format svg), not a result";
	else
		what = "text, not JSON (a report in the table, markdown or "
		       "csv format is not read again, the result file it was "
		       "made from is)";
	return pmbench_xstrdup(what);
}

/* The object `root`, told by its "schema". */
static int read_kind(struct pmbench_result_file *out,
		     struct pmbench_json_reader *rd, const cJSON *root)
{
	const cJSON *schema = cJSON_GetObjectItem(root, "schema");
	int ret;

	out->what = no_result(root);
	if (out->what)
		return 0;
	if (!cJSON_IsObject(root))
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "'%s': not a pmbench result (the "
					  "top level is not a JSON object)",
					  rd->origin);
	if (cJSON_IsString(schema) &&
	    !strcmp(schema->valuestring, PMBENCH_MIGRATE_SCHEMA)) {
		out->kind = PMBENCH_RESULT_MIGRATE;
		ret = pmbench_migrate_from_cjson(out, rd, root);
	} else {
		/* Its reader says a missing or another schema. */
		ret = pmbench_result_from_cjson(&out->result, rd, root);
		/* Only a whole one: a cell read half has no names. */
		if (!ret)
			out->kind = kind_of(&out->result);
		out->version = out->result.schema_version;
	}
	if (!ret) {
		struct pmbench_buf b = PMBENCH_BUF_INIT;

		pmbench_buf_addf(&b, "a %s result",
				 pmbench_result_kind_name(out->kind));
		out->what = pmbench_buf_detach(&b);
	}
	return ret;
}

int pmbench_result_file_parse(struct pmbench_result_file *out, const char *json,
			      const char *origin)
{
	struct pmbench_result_file init = PMBENCH_RESULT_FILE_INIT;
	struct pmbench_json_reader rd = { .where = PMBENCH_BUF_INIT };
	cJSON *root = NULL;
	int ret;

	*out = init;
	rd.origin = origin ? origin : "(string)";
	out->what = no_json(json);
	ret = out->what ? 0 : pmbench_json_parse(&root, json, rd.origin);
	if (!ret && !out->what)
		ret = read_kind(out, &rd, root);
	if (ret < 0)
		pmbench_result_file_release(out);
	cJSON_Delete(root);
	pmbench_buf_release(&rd.where);
	return ret;
}

int pmbench_result_file_read(struct pmbench_result_file *out, const char *path)
{
	struct pmbench_result_file init = PMBENCH_RESULT_FILE_INIT;
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	int ret;

	*out = init;
	ret = pmbench_fs_read_text(&text, path, FILE_MAX_BYTES);
	if (!ret)
		ret = pmbench_result_file_parse(out, text.ptr, path);
	pmbench_buf_release(&text);
	return ret;
}

void pmbench_result_file_release(struct pmbench_result_file *f)
{
	struct pmbench_result_file init = PMBENCH_RESULT_FILE_INIT;

	free(f->what);
	free(f->lacks);
	pmbench_result_release(&f->result);
	pmbench_migrate_release(&f->migrate);
	*f = init;
}
