/*
 * A result as JSON: the writer and the reader of its field tables, the
 * checks of every value read, and the redaction of what is written.
 */
#include "pmbench/common.h"

#include <limits.h>
#include <math.h>

#include <cjson/cJSON.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/phases.h"
#include "pmbench/result.h"
#include "pmbench/strvec.h"
#include "pmbench/text.h"

#include "json_io.h"
#include "result_fields.h"

/*
 * A result as JSON (docs/result-schema.md): the writer and the reader,
 * each walking the field tables of result.c.
 */

/*
 * A result file holds every raw sample, so it can grow large with many
 * cells and failure tails; anything beyond this is not ours.
 */
#define RESULT_MAX_BYTES ((size_t)256 << 20)

/*
 * cJSON reports allocation failure by returning NULL from every builder;
 * out-of-memory is fatal for us, so each call goes through this check.
 */
cJSON *pmbench_json_must(cJSON *item)
{
	if (!item)
		pmbench_die("out of memory building JSON");
	return item;
}

/*
 * Every string of a result file goes through here or
 * pmbench_json_add_strvec(): they quote URLs, commands and PM output, so
 * credentials are redacted (the redaction of a redacted text is itself,
 * so a file read and written again is the same bytes).
 */
void pmbench_json_add_str(cJSON *obj, const char *key, const char *s)
{
	char *r = pmbench_text_redact_dup(s);

	if (r)
		pmbench_json_must(cJSON_AddStringToObject(obj, key, r));
	else
		pmbench_json_must(cJSON_AddNullToObject(obj, key));
	free(r);
}

static void add_num(cJSON *obj, const char *key, double v)
{
	pmbench_json_must(cJSON_AddNumberToObject(obj, key, v));
}

void pmbench_json_add_strvec(cJSON *obj, const char *key,
			     const struct pmbench_strvec *sv)
{
	cJSON *arr = pmbench_json_must(cJSON_AddArrayToObject(obj, key));

	for (size_t i = 0; i < sv->nr; i++) {
		char *r = pmbench_text_redact_dup(sv->v[i]);

		if (!cJSON_AddItemToArray(
			    arr, pmbench_json_must(cJSON_CreateString(r))))
			pmbench_die("out of memory building JSON");
		free(r);
	}
}

cJSON *pmbench_json_add_object(cJSON *arr)
{
	cJSON *obj = pmbench_json_must(cJSON_CreateObject());

	if (!cJSON_AddItemToArray(arr, obj))
		pmbench_die("out of memory building JSON");
	return obj;
}

/* A field of one of the number kinds. */
static void write_number(cJSON *o, const void *base,
			 const struct pmbench_result_field *f)
{
	double started;

	switch (f->type) {
	case F_INT:
		add_num(o, f->key, *RESULT_CMEMBER(base, f, int));
		break;
	case F_UINT:
		add_num(o, f->key, *RESULT_CMEMBER(base, f, unsigned));
		break;
	case F_OPTUINT:
		if (*RESULT_CMEMBER(base, f, unsigned))
			add_num(o, f->key, *RESULT_CMEMBER(base, f, unsigned));
		break;
	case F_OPTU64:
		/* Absent means 0: files without it read as before. */
		if (!*RESULT_CMEMBER(base, f, uint64_t))
			break;
		/* fall through */
	case F_U64:
		/* Exact below 2^52; see the schema doc. */
		add_num(o, f->key, (double)*RESULT_CMEMBER(base, f, uint64_t));
		break;
	case F_SECS:
		add_num(o, f->key,
			(double)*RESULT_CMEMBER(base, f, uint64_t) / NS_PER_S);
		break;
	case F_STARTED:
		/*
		 * Whole microseconds: such a value always prints in a form
		 * that reads back as the same double, so a file read and
		 * written again comes out identical. Beyond about 1.8e302
		 * seconds the product overflows to infinity (printed as
		 * null): such a value is written as it is.
		 */
		started = *RESULT_CMEMBER(base, f, double);
		if (isfinite(started * 1e6))
			started = round(started * 1e6) / 1e6;
		add_num(o, f->key, started);
		break;
	case F_DOUBLE:
		add_num(o, f->key, *RESULT_CMEMBER(base, f, double));
		break;
	default:
		break;
	}
}

static void write_field(cJSON *o, const void *base,
			const struct pmbench_result_field *f)
{
	if (f->unless != NO_UNLESS &&
	    *(const int *)(const void *)((const char *)base + f->unless))
		return;
	switch (f->type) {
	case F_STR:
		pmbench_json_add_str(o, f->key,
				     *RESULT_CMEMBER(base, f, char *));
		break;
	case F_OPTSTR:
		if (*RESULT_CMEMBER(base, f, char *))
			pmbench_json_add_str(o, f->key,
					     *RESULT_CMEMBER(base, f, char *));
		break;
	case F_BOOL:
		pmbench_json_must(cJSON_AddBoolToObject(
			o, f->key, *RESULT_CMEMBER(base, f, int) ? 1 : 0));
		break;
	case F_FLAG:
		/* Absent means false: files without it read as before. */
		if (*RESULT_CMEMBER(base, f, int))
			pmbench_json_must(cJSON_AddTrueToObject(o, f->key));
		break;
	case F_OPTSTRVEC:
		if (!RESULT_CMEMBER(base, f, struct pmbench_strvec)->nr)
			break;
		/* fall through */
	case F_STRVEC:
		pmbench_json_add_strvec(o, f->key,
					RESULT_CMEMBER(base, f,
						       struct pmbench_strvec));
		break;
	case F_OPTNAME:
		if (*RESULT_CMEMBER(base, f, int))
			pmbench_json_add_str(
				o, f->key,
				f->names[*RESULT_CMEMBER(base, f, int)]);
		break;
	default:
		write_number(o, base, f);
		break;
	}
}

void pmbench_json_write_fields(cJSON *o, const void *base,
			       const struct pmbench_result_field *f)
{
	for (; f->key; f++)
		write_field(o, base, f);
}

void pmbench_json_add_item(cJSON *arr, cJSON *item)
{
	if (!cJSON_AddItemToArray(arr, pmbench_json_must(item)))
		pmbench_die("out of memory building JSON");
}

/*
 * A request of the waterfall: [start_s, end_s, bytes, kind, status,
 * fallback], an array to keep a log of thousands small.
 */
static void write_request(cJSON *arr, const struct pmbench_phase_request *r)
{
	cJSON *a = pmbench_json_must(cJSON_CreateArray());
	char kind[2] = { r->kind, '\0' };

	pmbench_json_add_item(arr, a);
	pmbench_json_add_item(
		a, cJSON_CreateNumber((double)r->start_ns / NS_PER_S));
	pmbench_json_add_item(a,
			      cJSON_CreateNumber((double)r->end_ns / NS_PER_S));
	pmbench_json_add_item(a, cJSON_CreateNumber((double)r->bytes));
	pmbench_json_add_item(a, cJSON_CreateString(kind));
	pmbench_json_add_item(a, cJSON_CreateNumber(r->status));
	pmbench_json_add_item(a, cJSON_CreateNumber(r->fallback ? 1 : 0));
}

/* A sample's "phases"; its request log only when `with_log`. */
static void write_phases(cJSON *so, const struct pmbench_phases *ph,
			 int with_log)
{
	cJSON *o = pmbench_json_must(cJSON_AddObjectToObject(so, "phases")),
	      *arr;

	pmbench_json_write_fields(o, ph, pmbench_result_phases_fields);
	if (ph->scripts_nr) {
		arr = pmbench_json_must(cJSON_AddArrayToObject(o, "scripts"));
		for (size_t i = 0; i < ph->scripts_nr; i++)
			pmbench_json_write_fields(pmbench_json_add_object(arr),
						  &ph->scripts[i],
						  pmbench_result_script_fields);
	}
	if (!with_log || !ph->log_nr)
		return;
	arr = pmbench_json_must(cJSON_AddArrayToObject(o, "requests_log"));
	for (size_t i = 0; i < ph->log_nr; i++)
		write_request(arr, &ph->log[i]);
}

/* The phases a PM's timers named, each as {name, kind, seconds, ...}. */
static void write_pm_phases(cJSON *o, const struct pmbench_pm_phases *p)
{
	cJSON *arr = pmbench_json_must(cJSON_AddArrayToObject(o, "phases"));

	for (size_t i = 0; i < p->nr; i++) {
		const struct pmbench_pm_phase *ph = &p->v[i];
		cJSON *po = pmbench_json_add_object(arr);

		pmbench_json_add_str(po, "name", ph->name);
		pmbench_json_add_str(po, "kind",
				     pmbench_pm_phase_kind_name(ph->kind));
		add_num(po, "seconds", ph->seconds);
		if (ph->start >= 0)
			add_num(po, "start_s", ph->start);
		if (ph->count >= 0)
			add_num(po, "count", ph->count);
		if (ph->flags & PMBENCH_PMPHASE_ARRIVAL)
			pmbench_json_must(cJSON_AddTrueToObject(po, "arrival"));
	}
}

/* `--explain`'s runs of a cell. */
static void write_explain(cJSON *o, const struct pmbench_cell *c)
{
	cJSON *arr;

	if (!c->explain_nr)
		return;
	arr = pmbench_json_must(cJSON_AddArrayToObject(o, "explain"));
	for (size_t i = 0; i < c->explain_nr; i++) {
		const struct pmbench_explain_run *e = &c->explain[i];
		cJSON *eo = pmbench_json_add_object(arr);

		pmbench_json_must(cJSON_AddBoolToObject(eo, "ok", e->ok));
		add_num(eo, "wall_s", (double)e->wall_ns / NS_PER_S);
		if (e->failure)
			pmbench_json_add_str(eo, "failure", e->failure);
		write_pm_phases(eo, &e->phases);
	}
}

static void write_cell(cJSON *arr, const struct pmbench_cell *c)
{
	const struct pmbench_sample *waterfall = pmbench_cell_waterfall(c);
	cJSON *o = pmbench_json_add_object(arr);
	cJSON *samples;

	pmbench_json_write_fields(o, c, pmbench_result_cell_fields);
	samples = pmbench_json_must(cJSON_AddArrayToObject(o, "samples"));
	for (size_t i = 0; i < c->samples_nr; i++) {
		const struct pmbench_sample *s = &c->samples[i];
		cJSON *so = pmbench_json_add_object(samples), *m;

		pmbench_json_write_fields(so, s, pmbench_result_sample_fields);
		if (s->metrics_nr) {
			m = pmbench_json_must(
				cJSON_AddObjectToObject(so, "metrics"));
			for (size_t k = 0; k < s->metrics_nr; k++)
				add_num(m, s->metrics[k].name,
					s->metrics[k].value);
		}
		if (s->phases)
			write_phases(so, s->phases, s == waterfall);
	}
	write_explain(o, c);
}

/* The claim a live `claim` judged, when it is one's result. */
static void write_claim(cJSON *root, const struct pmbench_result *r)
{
	if (r->claim)
		pmbench_json_write_fields(
			pmbench_json_must(
				cJSON_AddObjectToObject(root, "claim")),
			r, pmbench_result_claim_fields);
}

cJSON *pmbench_result_to_cjson(const struct pmbench_result *r)
{
	cJSON *root = pmbench_json_must(cJSON_CreateObject());
	cJSON *o, *arr;

	pmbench_json_add_str(root, "schema", PMBENCH_RESULT_SCHEMA);
	add_num(root, "version", PMBENCH_RESULT_VERSION);
	pmbench_json_write_fields(root, r, pmbench_result_root_fields);
	pmbench_json_write_fields(root, r, pmbench_result_shard_fields);
	write_claim(root, r);

	o = pmbench_json_must(cJSON_AddObjectToObject(root, "options"));
	pmbench_json_write_fields(o, r, pmbench_result_option_fields);

	o = pmbench_json_must(cJSON_AddObjectToObject(root, "environment"));
	for (size_t i = 0; i < r->env_nr; i++)
		pmbench_json_add_str(o, r->env[i].key, r->env[i].value);

	arr = pmbench_json_must(
		cJSON_AddArrayToObject(root, "package_managers"));
	for (size_t i = 0; i < r->found_nr; i++)
		pmbench_json_write_fields(pmbench_json_add_object(arr),
					  &r->found[i],
					  pmbench_result_pm_fields);

	arr = pmbench_json_must(cJSON_AddArrayToObject(root, "fixtures"));
	for (size_t i = 0; i < r->fixtures_nr; i++)
		pmbench_json_write_fields(pmbench_json_add_object(arr),
					  &r->fixtures[i],
					  pmbench_result_fixture_fields);

	if (r->machines_nr) {
		arr = pmbench_json_must(
			cJSON_AddArrayToObject(root, "machines"));
		for (size_t i = 0; i < r->machines_nr; i++)
			pmbench_json_write_fields(
				pmbench_json_add_object(arr), &r->machines[i],
				pmbench_result_machine_fields);
	}

	arr = pmbench_json_must(cJSON_AddArrayToObject(root, "cells"));
	for (size_t i = 0; i < r->cells_nr; i++)
		write_cell(arr, &r->cells[i]);
	return root;
}

char *pmbench_json_print(cJSON *root)
{
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	char *text = cJSON_Print(root);

	if (!text)
		pmbench_die("out of memory printing JSON");
	/* Our callers free with free(), and a text file ends in a newline. */
	pmbench_buf_adds(&out, text);
	pmbench_buf_addch(&out, '\n');
	cJSON_free(text);
	cJSON_Delete(root);
	return pmbench_buf_detach(&out);
}

char *pmbench_result_to_json(const struct pmbench_result *r)
{
	return pmbench_json_print(pmbench_result_to_cjson(r));
}

int pmbench_result_write(const struct pmbench_result *r, const char *path)
{
	char *json = pmbench_result_to_json(r);
	int ret;

	ret = pmbench_fs_write_output(path, json, strlen(json));
	free(json);
	return ret;
}

/* ---- Reading ----------------------------------------------------------- */

int pmbench_json_bad_field(const struct pmbench_json_reader *rd,
			   const char *key, const char *fmt, ...)
{
	struct pmbench_buf msg = PMBENCH_BUF_INIT;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	pmbench_buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	ret = pmbench_error_setc(PMBENCH_EINVALID, "'%s': field '%s%s%s' %s",
				 rd->origin, rd->where.ptr,
				 rd->where.len && key ? "." : "",
				 key ? key : "", msg.ptr);
	pmbench_buf_release(&msg);
	return ret;
}

/*
 * Look up `key`. A missing key and a JSON null mean the same thing: the
 * field is absent. Returns 1 if present, 0 if absent and optional, or
 * PMBENCH_EINVALID if absent and required.
 */
int pmbench_json_lookup(const cJSON **out, const struct pmbench_json_reader *rd,
			const cJSON *obj, const char *key, int required)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = NULL;
	if (item && !cJSON_IsNull(item)) {
		*out = item;
		return 1;
	}
	if (!required)
		return 0;
	return pmbench_error_setc(PMBENCH_EINVALID,
				  "'%s': missing required field '%s%s%s'",
				  rd->origin, rd->where.ptr,
				  rd->where.len ? "." : "", key);
}

/* A number that must be a whole number within [lo, hi]. */
int pmbench_json_whole(double *out, const struct pmbench_json_reader *rd,
		       const cJSON *item, const char *key, double lo, double hi)
{
	double v = item->valuedouble;

	if (!cJSON_IsNumber(item))
		return pmbench_json_bad_field(rd, key, "must be a number");
	if (!isfinite(v) || v != floor(v) || v < lo || v > hi)
		return pmbench_json_bad_field(
			rd, key, "must be a whole number from %.0f to %.0f", lo,
			hi);
	*out = v;
	return 0;
}

int pmbench_json_read_strvec(struct pmbench_strvec *out,
			     const struct pmbench_json_reader *rd,
			     const cJSON *arr, const char *key)
{
	const cJSON *item;
	int i = 0;

	if (!cJSON_IsArray(arr))
		return pmbench_json_bad_field(rd, key,
					      "must be an array of strings");
	cJSON_ArrayForEach(item, arr)
	{
		if (!cJSON_IsString(item) || !item->valuestring)
			return pmbench_json_bad_field(
				rd, key,
				"must hold only strings (item %d is "
				"not one)",
				i);
		pmbench_strvec_push(out, item->valuestring);
		i++;
	}
	return 0;
}

/*
 * Whether the writer can print `v` so that it reads back. cJSON 1.7
 * prints 15 significant digits when they read back within DBL_EPSILON of
 * the value, a test that infinity passes: DBL_MAX comes out as
 * 1.79769313486232e+308, which reads as infinity. Below 1e308 the 15
 * digits never round past DBL_MAX.
 */
static int printable(double v)
{
	return isfinite(v) && fabs(v) <= 1e308;
}

/* The largest double below 2^64 (2^64 - 1 itself is not a double). */
#define U64_MAX_DOUBLE 18446744073709549568.0

/* An F_OPTNAME field: one of its names, as the index of that name. */
static int read_name(int *out, const struct pmbench_json_reader *rd,
		     const cJSON *item, const struct pmbench_result_field *f)
{
	struct pmbench_buf known = PMBENCH_BUF_INIT;
	int ret;

	for (int i = 0; f->names[i]; i++)
		if (cJSON_IsString(item) && item->valuestring &&
		    !strcmp(item->valuestring, f->names[i])) {
			*out = i;
			return 0;
		}
	for (int i = 0; f->names[i]; i++)
		pmbench_buf_addf(&known, "%s'%s'", i ? ", " : "", f->names[i]);
	ret = pmbench_json_bad_field(rd, f->key, "must be one of %s",
				     known.ptr);
	pmbench_buf_release(&known);
	return ret;
}

/* A field of seconds or of a real number, checked to read back. */
static int read_real(void *base, const struct pmbench_json_reader *rd,
		     const cJSON *item, const struct pmbench_result_field *f)
{
	double v;

	switch (f->type) {
	case F_SECS:
		v = item->valuedouble;
		/*
		 * llround() must not overflow: about 292 years is plenty.
		 * The limit itself is allowed, as a count just below it is
		 * written as 9200000000 s.
		 */
		if (!cJSON_IsNumber(item) || !isfinite(v) || v < 0 ||
		    v * NS_PER_S > 9.2e18)
			return pmbench_json_bad_field(
				rd, f->key,
				"must be a number of seconds from 0 "
				"to 9.2e9");
		*RESULT_MEMBER(base, f, uint64_t) =
			(uint64_t)llround(v * NS_PER_S);
		return 0;
	case F_STARTED:
	case F_DOUBLE:
		/*
		 * cJSON reads 1e999 as infinity, which it would write back
		 * as null: a different file.
		 */
		if (!cJSON_IsNumber(item) || !printable(item->valuedouble))
			return pmbench_json_bad_field(
				rd, f->key,
				"must be a finite number from -1e308 "
				"to 1e308");
		*RESULT_MEMBER(base, f, double) = item->valuedouble;
		return 0;
	default:
		break;
	}
	return 0;
}

static int read_field(void *base, const struct pmbench_json_reader *rd,
		      const cJSON *o, const struct pmbench_result_field *f)
{
	const cJSON *item;
	double v = 0;
	int ret = pmbench_json_lookup(&item, rd, o, f->key, f->required);

	if (ret <= 0)
		return ret;
	switch (f->type) {
	case F_STR:
	case F_OPTSTR:
		if (!cJSON_IsString(item) || !item->valuestring)
			return pmbench_json_bad_field(rd, f->key,
						      "must be a string");
		free(*RESULT_MEMBER(base, f, char *));
		*RESULT_MEMBER(base, f, char *) =
			pmbench_xstrdup(item->valuestring);
		return 0;
	case F_BOOL:
	case F_FLAG:
		if (!cJSON_IsBool(item))
			return pmbench_json_bad_field(rd, f->key,
						      "must be true or false");
		*RESULT_MEMBER(base, f, int) = cJSON_IsTrue(item) ? 1 : 0;
		return 0;
	case F_INT:
		ret = pmbench_json_whole(&v, rd, item, f->key, INT_MIN,
					 INT_MAX);
		if (!ret)
			*RESULT_MEMBER(base, f, int) = (int)v;
		return ret;
	case F_UINT:
	case F_OPTUINT:
		ret = pmbench_json_whole(&v, rd, item, f->key, 0, UINT_MAX);
		if (!ret)
			*RESULT_MEMBER(base, f, unsigned) = (unsigned)v;
		return ret;
	case F_U64:
	case F_OPTU64:
		ret = pmbench_json_whole(&v, rd, item, f->key, 0,
					 U64_MAX_DOUBLE);
		if (!ret)
			*RESULT_MEMBER(base, f, uint64_t) = (uint64_t)v;
		return ret;
	case F_SECS:
	case F_STARTED:
	case F_DOUBLE:
		return read_real(base, rd, item, f);
	case F_STRVEC:
	case F_OPTSTRVEC:
		return pmbench_json_read_strvec(
			RESULT_MEMBER(base, f, struct pmbench_strvec), rd, item,
			f->key);
	case F_OPTNAME:
		return read_name(RESULT_MEMBER(base, f, int), rd, item, f);
	}
	return 0;
}

int pmbench_json_read_fields(void *base, const struct pmbench_json_reader *rd,
			     const cJSON *o,
			     const struct pmbench_result_field *fields)
{
	int ret = 0;

	for (const struct pmbench_result_field *f = fields; f->key && !ret; f++)
		ret = read_field(base, rd, o, f);
	return ret;
}

/*
 * The array `key` of `obj`, or NULL (and 0) when absent and optional.
 */
int pmbench_json_get_array(const cJSON **out,
			   const struct pmbench_json_reader *rd,
			   const cJSON *obj, const char *key, int required)
{
	int ret = pmbench_json_lookup(out, rd, obj, key, required);

	if (ret <= 0)
		return ret;
	if (!cJSON_IsArray(*out))
		return pmbench_json_bad_field(rd, key, "must be an array");
	return 0;
}

int pmbench_json_get_object(const cJSON **out,
			    const struct pmbench_json_reader *rd,
			    const cJSON *obj, const char *key)
{
	int ret = pmbench_json_lookup(out, rd, obj, key, 0);

	if (ret <= 0)
		return ret;
	if (!cJSON_IsObject(*out))
		return pmbench_json_bad_field(rd, key, "must be an object");
	return 0;
}

/*
 * Step into element `i` of the array `key`: its position is appended to
 * the reader's path (restore it with pmbench_buf_setlen() to `*old_len`)
 * and it must be an object.
 */
int pmbench_json_enter(size_t *old_len, struct pmbench_json_reader *rd,
		       const cJSON *item, const char *key, int i)
{
	*old_len = rd->where.len;
	if (rd->where.len)
		pmbench_buf_addch(&rd->where, '.');
	pmbench_buf_addf(&rd->where, "%s[%d]", key, i);
	if (!cJSON_IsObject(item))
		return pmbench_json_bad_field(rd, NULL, "must be an object");
	return 0;
}

/*
 * Step into the object `key`: its name is appended to the reader's path;
 * returns the length to restore with pmbench_buf_setlen().
 */
static size_t step_in(struct pmbench_json_reader *rd, const char *key)
{
	size_t old = rd->where.len;

	pmbench_buf_addf(&rd->where, "%s%s", old ? "." : "", key);
	return old;
}

static int read_environment(struct pmbench_result *r,
			    struct pmbench_json_reader *rd, const cJSON *root)
{
	const cJSON *env, *item;
	int ret = pmbench_json_get_object(&env, rd, root, "environment");

	if (ret < 0 || !env)
		return ret;
	cJSON_ArrayForEach(item, env)
	{
		if (!cJSON_IsString(item) || !item->valuestring) {
			size_t old = step_in(rd, "environment");

			ret = pmbench_json_bad_field(rd, item->string,
						     "must be a string");
			pmbench_buf_setlen(&rd->where, old);
			return ret;
		}
		pmbench_result_env_set(r, item->string, item->valuestring);
	}
	return 0;
}

/*
 * The object `key` of `root`, when there is one, read with the table
 * `fields` into `r`: "options", a live claim's "claim".
 */
static int read_object(struct pmbench_result *r, struct pmbench_json_reader *rd,
		       const cJSON *root, const char *key,
		       const struct pmbench_result_field *fields)
{
	const cJSON *o;
	int ret = pmbench_json_get_object(&o, rd, root, key);
	size_t old;

	if (ret < 0 || !o)
		return ret;
	old = step_in(rd, key);
	ret = pmbench_json_read_fields(r, rd, o, fields);
	pmbench_buf_setlen(&rd->where, old);
	return ret;
}

int pmbench_json_read_objects(void *owner, struct pmbench_json_reader *rd,
			      const cJSON *obj,
			      const struct pmbench_json_objects *spec)
{
	const cJSON *arr, *item;
	int ret = pmbench_json_get_array(&arr, rd, obj, spec->key,
					 spec->required);
	int i = 0;

	if (ret < 0 || !arr)
		return ret;
	cJSON_ArrayForEach(item, arr)
	{
		void *elem;
		size_t old;

		ret = pmbench_json_enter(&old, rd, item, spec->key, i);
		if (ret < 0)
			return ret;
		elem = spec->add(owner, i);
		ret = pmbench_json_read_fields(elem, rd, item, spec->fields);
		if (!ret && spec->more)
			ret = spec->more(elem, rd, item);
		if (ret < 0)
			return ret;
		pmbench_buf_setlen(&rd->where, old);
		i++;
	}
	return 0;
}

/* "metrics": an object of printable numbers, optional. */
static int read_metrics(void *sample, struct pmbench_json_reader *rd,
			const cJSON *o)
{
	const cJSON *m, *item;
	int ret = pmbench_json_get_object(&m, rd, o, "metrics");

	if (ret < 0 || !m)
		return ret;
	cJSON_ArrayForEach(item, m)
	{
		if (!item->string || !cJSON_IsNumber(item) ||
		    !printable(item->valuedouble))
			return pmbench_json_bad_field(
				rd, "metrics",
				"must hold only finite numbers from "
				"-1e308 to 1e308 ('%s' is not one)",
				item->string ? item->string : "?");
		pmbench_sample_metric_set(sample, item->string,
					  item->valuedouble);
	}
	return 0;
}

static void *add_script(void *phases, int i)
{
	struct pmbench_phases *ph = phases;
	struct pmbench_phase_script *s;

	(void)i;
	PMBENCH_ALLOC_GROW(ph->scripts, ph->scripts_nr + 1, ph->scripts_alloc);
	s = &ph->scripts[ph->scripts_nr++];
	memset(s, 0, sizeof(*s));
	return s;
}

static const struct pmbench_json_objects script_array = {
	.key = "scripts",
	.add = add_script,
	.fields = pmbench_result_script_fields,
};

/* A number of the request array `a` at `k`, within [0, hi]. */
static int request_num(double *out, const cJSON *a, int k, double hi)
{
	const cJSON *item = cJSON_GetArrayItem(a, k);

	if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble) ||
	    item->valuedouble < 0 || item->valuedouble > hi)
		return -1;
	*out = item->valuedouble;
	return 0;
}

/* One item of "requests_log" (write_request()); 0 or -1. */
static int read_request(struct pmbench_phase_request *out, const cJSON *a)
{
	const cJSON *kind = cJSON_GetArrayItem(a, 3);
	double start, end, bytes, status, fallback;

	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 6 ||
	    request_num(&start, a, 0, 9.2e9) ||
	    request_num(&end, a, 1, 9.2e9) ||
	    request_num(&bytes, a, 2, 9007199254740992.0) ||
	    request_num(&status, a, 4, 999) ||
	    request_num(&fallback, a, 5, 1) || !cJSON_IsString(kind) ||
	    !kind->valuestring || strlen(kind->valuestring) != 1 ||
	    !strchr("cfto", kind->valuestring[0]) || bytes != floor(bytes) ||
	    status != floor(status) || fallback != floor(fallback))
		return -1;
	*out = (struct pmbench_phase_request){
		.start_ns = (uint64_t)llround(start * NS_PER_S),
		.end_ns = (uint64_t)llround(end * NS_PER_S),
		.bytes = (uint64_t)bytes,
		.status = (int)status,
		.kind = kind->valuestring[0],
		.fallback = fallback != 0,
	};
	return 0;
}

static int read_log(struct pmbench_phases *ph, struct pmbench_json_reader *rd,
		    const cJSON *o)
{
	const cJSON *arr, *item;
	int ret = pmbench_json_get_array(&arr, rd, o, "requests_log", 0), i = 0;

	if (ret < 0 || !arr)
		return ret;
	cJSON_ArrayForEach(item, arr)
	{
		PMBENCH_ALLOC_GROW(ph->log, ph->log_nr + 1, ph->log_alloc);
		if (read_request(&ph->log[ph->log_nr], item) < 0)
			return pmbench_json_bad_field(
				rd, "requests_log",
				"item %d must be [start_s, end_s, "
				"bytes, kind (c, f, t or o), status, "
				"fallback (0 or 1)]",
				i);
		ph->log_nr++;
		i++;
	}
	return 0;
}

/* "phases": optional; results before them have none. */
static int read_phases(struct pmbench_sample *s, struct pmbench_json_reader *rd,
		       const cJSON *o)
{
	const cJSON *po;
	size_t old = rd->where.len;
	int ret = pmbench_json_get_object(&po, rd, o, "phases");

	if (ret < 0 || !po)
		return ret;
	s->phases = pmbench_xcalloc(1, sizeof(*s->phases));
	if (rd->where.len)
		pmbench_buf_addch(&rd->where, '.');
	pmbench_buf_adds(&rd->where, "phases");
	ret = pmbench_json_read_fields(s->phases, rd, po,
				       pmbench_result_phases_fields);
	if (!ret)
		ret = pmbench_json_read_objects(s->phases, rd, po,
						&script_array);
	if (!ret)
		ret = read_log(s->phases, rd, po);
	if (!ret)
		pmbench_buf_setlen(&rd->where, old);
	return ret;
}

/* What a sample holds besides its fields: metrics and phases. */
static int read_sample_more(void *sample, struct pmbench_json_reader *rd,
			    const cJSON *o)
{
	int ret = read_metrics(sample, rd, o);

	return ret < 0 ? ret : read_phases(sample, rd, o);
}

static void *add_sample(void *cell, int i)
{
	struct pmbench_sample *s = pmbench_cell_add_sample(cell);

	/* Without "round", the position in the array is the round. */
	s->round = (unsigned)i;
	return s;
}

static const struct pmbench_json_objects sample_array = {
	.key = "samples",
	.add = add_sample,
	.fields = pmbench_result_sample_fields,
	.more = read_sample_more,
};

/* An optional number of a phase; -1 when absent. */
static int phase_num(double *out, const struct pmbench_json_reader *rd,
		     const cJSON *o, const char *key, int required)
{
	const cJSON *item;
	int ret = pmbench_json_lookup(&item, rd, o, key, required);

	*out = -1;
	if (ret <= 0)
		return ret;
	if (!cJSON_IsNumber(item) || !printable(item->valuedouble) ||
	    item->valuedouble < 0)
		return pmbench_json_bad_field(
			rd, key, "must be a number from 0 to 1e308");
	*out = item->valuedouble;
	return 0;
}

static int read_pm_phase(struct pmbench_pm_phases *p,
			 struct pmbench_json_reader *rd, const cJSON *o)
{
	const cJSON *name, *kind, *arrival;
	double start, secs, count;
	int k = PMBENCH_PMPHASE_OTHER;
	int ret = pmbench_json_lookup(&name, rd, o, "name", 1);

	if (ret < 0)
		return ret;
	if (!cJSON_IsString(name) || !*name->valuestring)
		return pmbench_json_bad_field(rd, "name", "must be a string");
	if (pmbench_json_lookup(&kind, rd, o, "kind", 0) > 0) {
		if (!cJSON_IsString(kind))
			return pmbench_json_bad_field(rd, "kind",
						      "must be a string");
		k = pmbench_pm_phase_kind_get(kind->valuestring);
		if (k < 0)
			k = PMBENCH_PMPHASE_OTHER;
	}
	pmbench_json_lookup(&arrival, rd, o, "arrival", 0);
	if (arrival && !cJSON_IsBool(arrival))
		return pmbench_json_bad_field(rd, "arrival",
					      "must be true or false");
	/* Stop at the first error (< 0): every number is set past it. */
	ret = phase_num(&secs, rd, o, "seconds", 1);
	if (ret < 0)
		return ret;
	ret = phase_num(&start, rd, o, "start_s", 0);
	if (ret < 0)
		return ret;
	ret = phase_num(&count, rd, o, "count", 0);
	if (ret < 0)
		return ret;
	if (!pmbench_pm_phases_add(
		    p, name->valuestring, k, start, secs, count,
		    cJSON_IsTrue(arrival) ? PMBENCH_PMPHASE_ARRIVAL : 0))
		return pmbench_json_bad_field(rd, "seconds",
					      "must be at most a year");
	return 0;
}

/* "phases" of an `--explain` run. */
static int read_explain_phases(void *run, struct pmbench_json_reader *rd,
			       const cJSON *o)
{
	struct pmbench_explain_run *e = run;
	const cJSON *arr, *item;
	int ret = pmbench_json_get_array(&arr, rd, o, "phases", 0), i = 0;

	cJSON_ArrayForEach(item, arr)
	{
		size_t old;

		if (ret < 0)
			break;
		ret = pmbench_json_enter(&old, rd, item, "phases", i++);
		if (!ret)
			ret = read_pm_phase(&e->phases, rd, item);
		if (!ret)
			pmbench_buf_setlen(&rd->where, old);
	}
	return ret < 0 ? ret : 0;
}

#define EXPLAIN_FIELD(k, t, member, req)                                \
	{                                                               \
		.key = (k), .type = (t),                                \
		.offset = offsetof(struct pmbench_explain_run, member), \
		.required = (req), .unless = NO_UNLESS                  \
	}

static const struct pmbench_result_field explain_fields[] = {
	EXPLAIN_FIELD("ok", F_BOOL, ok, 1),
	EXPLAIN_FIELD("wall_s", F_SECS, wall_ns, 0),
	EXPLAIN_FIELD("failure", F_OPTSTR, failure, 0),
	{ .key = NULL },
};

static void *add_explain(void *cell, int i)
{
	(void)i;
	return pmbench_cell_add_explain(cell);
}

static const struct pmbench_json_objects explain_array = {
	.key = "explain",
	.add = add_explain,
	.fields = explain_fields,
	.more = read_explain_phases,
};

/*
 * A cell's samples, then its `--explain` runs; then, in a file written
 * before cells had a "state", an unsupported cell is told by what the
 * writer put in its note: no sample and a note "n/a: ...".
 */
static int read_samples(void *cell, struct pmbench_json_reader *rd,
			const cJSON *o)
{
	struct pmbench_cell *c = cell;
	int ret = pmbench_json_read_objects(cell, rd, o, &sample_array);

	if (!ret)
		ret = pmbench_json_read_objects(cell, rd, o, &explain_array);
	if (!ret && !cJSON_GetObjectItemCaseSensitive(o, "state") &&
	    !c->samples_nr && c->note && !strncmp(c->note, "n/a", 3))
		c->state = PMBENCH_CELL_UNSUPPORTED;
	return ret < 0 ? ret : 0;
}

/*
 * A new zeroed cell, read into straight away: the required names may be
 * left NULL on error, which release copes with.
 */
static void *add_cell(void *result, int i)
{
	struct pmbench_result *r = result;
	struct pmbench_cell *c;

	(void)i;
	PMBENCH_ALLOC_GROW(r->cells, r->cells_nr + 1, r->cells_alloc);
	c = &r->cells[r->cells_nr++];
	memset(c, 0, sizeof(*c));
	pmbench_strvec_init(&c->command);
	pmbench_strvec_init(&c->env);
	return c;
}

static const struct pmbench_json_objects cell_array = {
	.key = "cells",
	.required = 1,
	.add = add_cell,
	.fields = pmbench_result_cell_fields,
	.more = read_samples,
};

static void *add_pm(void *result, int i)
{
	struct pmbench_result *r = result;
	struct pmbench_result_pm *p;

	(void)i;
	PMBENCH_ALLOC_GROW(r->found, r->found_nr + 1, r->found_alloc);
	p = &r->found[r->found_nr++];
	memset(p, 0, sizeof(*p));
	return p;
}

static const struct pmbench_json_objects pm_array = {
	.key = "package_managers",
	.add = add_pm,
	.fields = pmbench_result_pm_fields,
};

static void *add_fixture(void *result, int i)
{
	(void)i;
	return pmbench_result_add_fixture(result, NULL, NULL, NULL, NULL, NULL);
}

static const struct pmbench_json_objects fixture_array = {
	.key = "fixtures",
	.add = add_fixture,
	.fields = pmbench_result_fixture_fields,
};

static void *add_machine(void *result, int i)
{
	struct pmbench_result *r = result;
	struct pmbench_result_machine *m;

	(void)i;
	PMBENCH_ALLOC_GROW(r->machines, r->machines_nr + 1, r->machines_alloc);
	m = &r->machines[r->machines_nr++];
	memset(m, 0, sizeof(*m));
	return m;
}

static const struct pmbench_json_objects machine_array = {
	.key = "machines",
	.add = add_machine,
	.fields = pmbench_result_machine_fields,
};

/* Every sample's machine is one of "machines". */
static int check_machines(const struct pmbench_result *r,
			  const struct pmbench_json_reader *rd)
{
	for (size_t i = 0; i < r->cells_nr; i++)
		for (size_t k = 0; k < r->cells[i].samples_nr; k++)
			if (r->cells[i].samples[k].machine > r->machines_nr)
				return pmbench_error_setc(
					PMBENCH_EINVALID,
					"'%s': field "
					"'%s%scells[%zu].samples[%zu].machine' "
					"is %u, but 'machines' has %zu",
					rd->origin, rd->where.ptr,
					rd->where.len ? "." : "", i, k,
					r->cells[i].samples[k].machine,
					r->machines_nr);
	return 0;
}

/* Check "schema" and "version" before anything else is trusted. */
static int read_header(struct pmbench_result *r, struct pmbench_json_reader *rd,
		       const cJSON *root)
{
	const cJSON *item;
	double version = 0;
	int ret;

	ret = pmbench_json_lookup(&item, rd, root, "schema", 1);
	if (ret < 0)
		return ret;
	if (!cJSON_IsString(item) || !item->valuestring)
		return pmbench_json_bad_field(rd, "schema",
					      "must be the string '%s'",
					      PMBENCH_RESULT_SCHEMA);
	if (strcmp(item->valuestring, PMBENCH_RESULT_SCHEMA))
		return pmbench_json_bad_field(rd, "schema", "is '%s', not '%s'",
					      item->valuestring,
					      PMBENCH_RESULT_SCHEMA);
	ret = pmbench_json_lookup(&item, rd, root, "version", 1);
	if (ret < 0)
		return ret;
	ret = pmbench_json_whole(&version, rd, item, "version", 1, INT_MAX);
	if (ret < 0)
		return ret;
	if (version > PMBENCH_RESULT_VERSION)
		return pmbench_json_bad_field(rd, "version",
					      "is %.0f, newer than the %d this "
					      "pmbench reads",
					      version, PMBENCH_RESULT_VERSION);
	r->schema_version = (int)version;
	return 0;
}

int pmbench_result_from_cjson(struct pmbench_result *r,
			      struct pmbench_json_reader *rd, const cJSON *root)
{
	int ret = read_header(r, rd, root);

	if (!ret)
		ret = pmbench_json_read_fields(r, rd, root,
					       pmbench_result_root_fields);
	if (!ret)
		ret = pmbench_json_read_fields(r, rd, root,
					       pmbench_result_shard_fields);
	if (!ret)
		ret = read_object(r, rd, root, "claim",
				  pmbench_result_claim_fields);
	if (!ret)
		ret = pmbench_json_read_objects(r, rd, root, &machine_array);
	if (!ret)
		ret = read_object(r, rd, root, "options",
				  pmbench_result_option_fields);
	if (!ret)
		ret = read_environment(r, rd, root);
	if (!ret)
		ret = pmbench_json_read_objects(r, rd, root, &pm_array);
	if (!ret)
		ret = pmbench_json_read_objects(r, rd, root, &fixture_array);
	if (!ret)
		ret = pmbench_json_read_objects(r, rd, root, &cell_array);
	if (!ret)
		ret = check_machines(r, rd);
	return ret;
}

/* 1-based line and column of `pos` in `text`, for parse errors. */
static void line_col(int *line, int *col, const char *text, const char *pos)
{
	*line = 1;
	*col = 1;
	for (const char *p = text; p < pos && *p; p++) {
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

int pmbench_json_parse(cJSON **out, const char *json, const char *origin)
{
	const char *end = NULL;
	int line, col;

	*out = cJSON_ParseWithOpts(json, &end, 1);
	if (*out)
		return 0;
	line_col(&line, &col, json, end ? end : json);
	return pmbench_error_setc(PMBENCH_EINVALID,
				  "'%s': malformed JSON at line %d, column %d",
				  origin, line, col);
}

int pmbench_result_from_json(struct pmbench_result *out, const char *json,
			     const char *origin)
{
	struct pmbench_result init = PMBENCH_RESULT_INIT;
	struct pmbench_json_reader rd = { .where = PMBENCH_BUF_INIT };
	cJSON *root = NULL;
	int ret;

	*out = init;
	rd.origin = origin ? origin : "(string)";
	ret = pmbench_json_parse(&root, json, rd.origin);
	if (!ret && !cJSON_IsObject(root))
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "'%s': not a pmbench result (the "
					 "top level is not a JSON object)",
					 rd.origin);
	if (!ret)
		ret = pmbench_result_from_cjson(out, &rd, root);
	if (ret < 0)
		pmbench_result_release(out);
	cJSON_Delete(root);
	pmbench_buf_release(&rd.where);
	return ret;
}

int pmbench_result_read(struct pmbench_result *out, const char *path)
{
	struct pmbench_result init = PMBENCH_RESULT_INIT;
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	int ret;

	*out = init;
	ret = pmbench_fs_read_text(&text, path, RESULT_MAX_BYTES);
	if (ret < 0)
		goto done;
	ret = pmbench_result_from_json(out, text.ptr, path);

done:
	pmbench_buf_release(&text);
	return ret;
}
