#include "pmbench/common.h"

#include <limits.h>
#include <math.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "pmbench/buf.h"
#include "pmbench/date.h"
#include "pmbench/fs.h"
#include "pmbench/result.h"
#include "pmbench/strvec.h"
#include "pmbench/text.h"

/*
 * A result file holds every raw sample, so it can grow large with many
 * cells and failure tails; anything beyond this is not ours.
 */
#define RESULT_MAX_BYTES ((size_t)256 << 20)

/* /proc/cpuinfo has a stanza per CPU; this covers machines with thousands. */
#define PROC_MAX_BYTES ((size_t)4 << 20)

/*
 * Times are written as seconds. A count below 10^15 ns has at most 15
 * significant digits, which cJSON's first "%1.15g" attempt prints exactly;
 * see docs/result-schema.md for the limits.
 */
#define NS_PER_S 1e9

/* ---- Accessors -------------------------------------------------------- */

void pmbench_result_env_set(struct pmbench_result *r, const char *key,
			    const char *value)
{
	struct pmbench_kv *kv;

	for (size_t i = 0; i < r->env_nr; i++) {
		if (strcmp(r->env[i].key, key))
			continue;
		free(r->env[i].value);
		r->env[i].value = pmbench_xstrdup(value);
		return;
	}
	PMBENCH_ALLOC_GROW(r->env, r->env_nr + 1, r->env_alloc);
	kv = &r->env[r->env_nr++];
	kv->key = pmbench_xstrdup(key);
	kv->value = pmbench_xstrdup(value);
}

const char *pmbench_result_env_get(const struct pmbench_result *r,
				   const char *key)
{
	for (size_t i = 0; i < r->env_nr; i++)
		if (!strcmp(r->env[i].key, key))
			return r->env[i].value;
	return NULL;
}

static char *dup_or_null(const char *s)
{
	return s ? pmbench_xstrdup(s) : NULL;
}

struct pmbench_cell *
pmbench_result_add_cell(struct pmbench_result *r, const char *fixture,
			const char *task, const char *scenario, const char *pm)
{
	struct pmbench_cell *c;

	PMBENCH_ALLOC_GROW(r->cells, r->cells_nr + 1, r->cells_alloc);
	c = &r->cells[r->cells_nr++];
	memset(c, 0, sizeof(*c));
	c->fixture = pmbench_xstrdup(fixture);
	c->task = pmbench_xstrdup(task);
	c->scenario = pmbench_xstrdup(scenario);
	c->pm = pmbench_xstrdup(pm);
	pmbench_strvec_init(&c->command);
	pmbench_strvec_init(&c->env);
	return c;
}

struct pmbench_cell *
pmbench_result_find_cell(const struct pmbench_result *r, const char *fixture,
			 const char *task, const char *scenario, const char *pm)
{
	for (size_t i = 0; i < r->cells_nr; i++) {
		struct pmbench_cell *c = &r->cells[i];

		if (!strcmp(c->fixture, fixture) && !strcmp(c->task, task) &&
		    !strcmp(c->scenario, scenario) && !strcmp(c->pm, pm))
			return c;
	}
	return NULL;
}

struct pmbench_sample *pmbench_cell_add_sample(struct pmbench_cell *c)
{
	struct pmbench_sample *s;

	PMBENCH_ALLOC_GROW(c->samples, c->samples_nr + 1, c->samples_alloc);
	s = &c->samples[c->samples_nr++];
	memset(s, 0, sizeof(*s));
	s->failure = NULL;
	s->tail = NULL;
	return s;
}

double *pmbench_cell_times(const struct pmbench_cell *c, size_t *out_n)
{
	double *times;
	size_t n = 0;

	times = pmbench_xmalloc(pmbench_st_mult(
		c->samples_nr ? c->samples_nr : 1, sizeof(*times)));
	for (size_t i = 0; i < c->samples_nr; i++) {
		const struct pmbench_sample *s = &c->samples[i];

		if (s->ok && !s->warmup)
			times[n++] = (double)s->wall_ns / NS_PER_S;
	}
	*out_n = n;
	return times;
}

void pmbench_sample_metric_set(struct pmbench_sample *s, const char *name,
			       double value)
{
	struct pmbench_metric *m;

	for (size_t i = 0; i < s->metrics_nr; i++) {
		if (!strcmp(s->metrics[i].name, name)) {
			s->metrics[i].value = value;
			return;
		}
	}
	PMBENCH_ALLOC_GROW(s->metrics, s->metrics_nr + 1, s->metrics_alloc);
	m = &s->metrics[s->metrics_nr++];
	m->name = pmbench_xstrdup(name);
	m->value = value;
}

int pmbench_sample_metric_get(const struct pmbench_sample *s, const char *name,
			      double *out)
{
	for (size_t i = 0; i < s->metrics_nr; i++) {
		if (!strcmp(s->metrics[i].name, name)) {
			*out = s->metrics[i].value;
			return 1;
		}
	}
	return 0;
}

double *pmbench_cell_metric_values(const struct pmbench_cell *c,
				   const char *name, size_t *out_n)
{
	double *v = pmbench_xmalloc(
		pmbench_st_mult(c->samples_nr ? c->samples_nr : 1, sizeof(*v)));
	size_t n = 0;

	for (size_t i = 0; i < c->samples_nr; i++) {
		const struct pmbench_sample *s = &c->samples[i];

		if (s->ok && !s->warmup &&
		    pmbench_sample_metric_get(s, name, &v[n]))
			n++;
	}
	*out_n = n;
	return v;
}

void pmbench_cell_metric_names(const struct pmbench_cell *c,
			       struct pmbench_strvec *out)
{
	for (size_t i = 0; i < c->samples_nr; i++)
		for (size_t k = 0; k < c->samples[i].metrics_nr; k++)
			if (pmbench_strvec_find(
				    out, c->samples[i].metrics[k].name) < 0)
				pmbench_strvec_push(
					out, c->samples[i].metrics[k].name);
}

void pmbench_sample_release(struct pmbench_sample *s)
{
	free(s->failure);
	free(s->tail);
	for (size_t i = 0; i < s->metrics_nr; i++)
		free(s->metrics[i].name);
	free(s->metrics);
}

size_t pmbench_cell_failures(const struct pmbench_cell *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->samples_nr; i++)
		if (!c->samples[i].ok && !c->samples[i].warmup &&
		    !c->samples[i].interrupted)
			n++;
	return n;
}

int pmbench_result_has_samples(const struct pmbench_result *r)
{
	for (size_t i = 0; i < r->cells_nr; i++)
		if (r->cells[i].samples_nr)
			return 1;
	return 0;
}

size_t pmbench_cell_interrupted(const struct pmbench_cell *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->samples_nr; i++)
		if (c->samples[i].interrupted)
			n++;
	return n;
}

size_t pmbench_cell_leftover(const struct pmbench_cell *c, size_t *out_runs)
{
	size_t n = 0, runs = 0;

	for (size_t i = 0; i < c->samples_nr; i++) {
		if (c->samples[i].leftover > 0) {
			n += (size_t)c->samples[i].leftover;
			runs++;
		}
	}
	*out_runs = runs;
	return n;
}

void pmbench_sample_interrupt(struct pmbench_sample *s, const char *why)
{
	s->ok = 0;
	s->interrupted = 1;
	if (why || !s->failure) {
		free(s->failure);
		s->failure = pmbench_xstrdup(why ? why : "interrupted");
	}
}

struct pmbench_result_fixture *
pmbench_result_add_fixture(struct pmbench_result *r, const char *name,
			   const char *repo, const char *commit,
			   const char *subdir, const char *description)
{
	struct pmbench_result_fixture *f;

	PMBENCH_ALLOC_GROW(r->fixtures, r->fixtures_nr + 1, r->fixtures_alloc);
	f = &r->fixtures[r->fixtures_nr++];
	f->name = dup_or_null(name);
	/* The URL recorded, never its credentials (the plan id hashes it). */
	f->repo = pmbench_text_redact_dup(repo);
	f->commit = dup_or_null(commit);
	f->subdir = dup_or_null(subdir);
	f->description = dup_or_null(description);
	return f;
}

struct pmbench_result_pm *pmbench_result_add_pm(struct pmbench_result *r,
						const char *name,
						const char *path,
						const char *version)
{
	struct pmbench_result_pm *p;

	PMBENCH_ALLOC_GROW(r->found, r->found_nr + 1, r->found_alloc);
	p = &r->found[r->found_nr++];
	memset(p, 0, sizeof(*p));
	p->name = pmbench_xstrdup(name);
	p->path = dup_or_null(path);
	p->version = dup_or_null(version);
	return p;
}

static void cell_release(struct pmbench_cell *c)
{
	free(c->fixture);
	free(c->task);
	free(c->scenario);
	free(c->pm);
	free(c->lockfile);
	free(c->scripts);
	free(c->prime_failure);
	free(c->stopped_by);
	free(c->note);
	free(c->runtime);
	pmbench_strvec_release(&c->command);
	pmbench_strvec_release(&c->env);
	for (size_t i = 0; i < c->samples_nr; i++)
		pmbench_sample_release(&c->samples[i]);
	free(c->samples);
}

void pmbench_result_release(struct pmbench_result *r)
{
	struct pmbench_result init = PMBENCH_RESULT_INIT;

	if (!r)
		return;
	free(r->pmbench_version);
	free(r->created);
	pmbench_strvec_release(&r->pms);
	pmbench_strvec_release(&r->scenarios);
	pmbench_strvec_release(&r->tasks);
	for (size_t i = 0; i < r->env_nr; i++) {
		free(r->env[i].key);
		free(r->env[i].value);
	}
	free(r->env);
	for (size_t i = 0; i < r->found_nr; i++) {
		free(r->found[i].name);
		free(r->found[i].path);
		free(r->found[i].version);
		free(r->found[i].base);
		free(r->found[i].config);
	}
	free(r->found);
	for (size_t i = 0; i < r->fixtures_nr; i++) {
		free(r->fixtures[i].name);
		free(r->fixtures[i].repo);
		free(r->fixtures[i].commit);
		free(r->fixtures[i].subdir);
		free(r->fixtures[i].description);
	}
	free(r->fixtures);
	for (size_t i = 0; i < r->cells_nr; i++)
		cell_release(&r->cells[i]);
	free(r->cells);
	free(r->plan_id);
	for (size_t i = 0; i < r->machines_nr; i++) {
		free(r->machines[i].id);
		free(r->machines[i].cpu_model);
		free(r->machines[i].kernel);
		free(r->machines[i].host);
		free(r->machines[i].shards);
	}
	free(r->machines);
	*r = init;
}

/* ---- System information ---------------------------------------------- */

/*
 * Find the first line of `text` that starts with `key` followed by
 * optional blanks and `sep`, and store the rest of it, trimmed, in `out`.
 * Returns 1 if found.
 */
static int find_field(struct pmbench_buf *out, const char *text,
		      const char *key, char sep)
{
	size_t klen = strlen(key);
	const char *line = text;

	while (line && *line) {
		const char *eol = strchr(line, '\n');
		const char *p = line + klen;

		if (!strncmp(line, key, klen)) {
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p == sep) {
				size_t n;

				p++;
				while (*p == ' ' || *p == '\t')
					p++;
				n = eol ? (size_t)(eol - p) : strlen(p);
				pmbench_buf_reset(out);
				pmbench_buf_add(out, p, n);
				pmbench_buf_rtrim(out);
				return 1;
			}
		}
		line = eol ? eol + 1 : NULL;
	}
	return 0;
}

/*
 * Read a small system file into `out` (replaced). A missing or unreadable
 * file only means one entry fewer, so callers ignore the error message.
 */
static int read_sysfile(struct pmbench_buf *out, const char *path)
{
	pmbench_buf_reset(out);
	return pmbench_fs_read(out, path, PROC_MAX_BYTES);
}

static void sysinfo_os_release(struct pmbench_result *r,
			       struct pmbench_buf *text,
			       struct pmbench_buf *val)
{
	const char *v;
	size_t n;

	if (read_sysfile(text, "/etc/os-release") < 0 &&
	    read_sysfile(text, "/usr/lib/os-release") < 0)
		return;
	if (!find_field(val, text->ptr, "PRETTY_NAME", '='))
		return;
	/* The value is a shell-style string, usually double-quoted. */
	v = val->ptr;
	n = val->len;
	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
		v++;
		n -= 2;
	}
	if (!n)
		return;
	pmbench_buf_reset(text);
	pmbench_buf_add(text, v, n);
	pmbench_result_env_set(r, "os_release", text->ptr);
}

void pmbench_result_collect_sysinfo(struct pmbench_result *r)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	struct pmbench_buf val = PMBENCH_BUF_INIT;
	struct utsname u;
	int have_uname;
	long ncpu;

	have_uname = uname(&u) == 0;
	if (have_uname)
		pmbench_result_env_set(r, "os", u.sysname);
	sysinfo_os_release(r, &text, &val);
	if (have_uname) {
		pmbench_result_env_set(r, "kernel", u.release);
		pmbench_result_env_set(r, "arch", u.machine);
	}

	if (!read_sysfile(&text, "/proc/cpuinfo") &&
	    find_field(&val, text.ptr, "model name", ':') && val.len)
		pmbench_result_env_set(r, "cpu_model", val.ptr);

	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu > 0) {
		pmbench_buf_reset(&val);
		pmbench_buf_addf(&val, "%ld", ncpu);
		pmbench_result_env_set(r, "cpu_count", val.ptr);
	}

	if (!read_sysfile(&text, "/proc/meminfo") &&
	    find_field(&val, text.ptr, "MemTotal", ':')) {
		/* "16318412 kB": keep the number only. */
		size_t n = strspn(val.ptr, "0123456789");

		if (n) {
			pmbench_buf_setlen(&val, n);
			pmbench_result_env_set(r, "mem_total_kib", val.ptr);
		}
	}

	if (!read_sysfile(&text, "/proc/loadavg")) {
		struct pmbench_strvec parts = PMBENCH_STRVEC_INIT;

		/* "0.52 0.58 0.59 1/389 12345": the three averages. */
		pmbench_buf_rtrim(&text);
		pmbench_strvec_split(&parts, text.ptr, ' ');
		if (parts.nr >= 3) {
			pmbench_buf_reset(&val);
			pmbench_buf_addf(&val, "%s %s %s", parts.v[0],
					 parts.v[1], parts.v[2]);
			pmbench_result_env_set(r, "loadavg", val.ptr);
		}
		pmbench_strvec_release(&parts);
	}

	if (!read_sysfile(&text, "/sys/devices/system/cpu/cpu0/cpufreq/"
				 "scaling_governor")) {
		pmbench_buf_rtrim(&text);
		if (text.len)
			pmbench_result_env_set(r, "cpu_governor", text.ptr);
	}

	pmbench_buf_release(&text);
	pmbench_buf_release(&val);
}

int pmbench_result_created(int64_t *out, const struct pmbench_result *r,
			   const char *name)
{
	*out = 0;
	if (!r->created)
		return 0;
	if (pmbench_date_parse(out, r->created) < 0) {
		*out = 0;
		pmbench_error_prefix("'%s': field 'created'", name);
		return PMBENCH_EINVALID;
	}
	return 1;
}

void pmbench_result_stamp(struct pmbench_result *r)
{
	char stamp[64];
	time_t now = time(NULL);
	struct tm tm;

	if (!gmtime_r(&now, &tm) ||
	    !strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm))
		pmbench_die("cannot format the current time");
	free(r->created);
	r->created = pmbench_xstrdup(stamp);
}

/* ---- The field tables --------------------------------------------------- */

/*
 * Each JSON object with fixed fields is described once, in order, and the
 * writer and the reader both walk the same table, so that the two cannot
 * drift apart.
 */
enum field_type {
	F_STR,	   /* char *, null when NULL */
	F_OPTSTR,  /* char *, left out when NULL (fields added later) */
	F_BOOL,	   /* int, true or false */
	F_FLAG,	   /* int, written (as true) only when set */
	F_INT,	   /* int */
	F_UINT,	   /* unsigned */
	F_U64,	   /* uint64_t */
	F_OPTU64,  /* uint64_t, written only when not 0 */
	F_SECS,	   /* uint64_t nanoseconds, written as seconds */
	F_STARTED, /* double Unix time, written to the microsecond */
	F_DOUBLE,  /* double, written as it is */
	F_STRVEC,  /* struct pmbench_strvec, an array of strings */
	F_OPTUINT  /* unsigned, left out when 0 (fields added later) */
};

struct field {
	const char *key;
	enum field_type type;
	size_t offset;
	int required;
	/* Left out when the int at this offset is set (NO_UNLESS: never). */
	size_t unless;
};

#define NO_UNLESS ((size_t)-1)
#define FIELD(s, key, type, member, req)                              \
	{                                                             \
		key, type, offsetof(struct s, member), req, NO_UNLESS \
	}
#define FIELD_UNLESS(s, key, type, member, flag)          \
	{                                                 \
		key, type, offsetof(struct s, member), 0, \
			offsetof(struct s, flag)          \
	}

static const struct field option_fields[] = {
	FIELD(pmbench_result, "pms", F_STRVEC, pms, 0),
	FIELD(pmbench_result, "scenarios", F_STRVEC, scenarios, 0),
	FIELD(pmbench_result, "tasks", F_STRVEC, tasks, 0),
	FIELD(pmbench_result, "runs", F_UINT, runs, 0),
	FIELD(pmbench_result, "warmup", F_UINT, warmup, 0),
	FIELD(pmbench_result, "timeout_s", F_SECS, timeout_ns, 0),
	FIELD(pmbench_result, "seed", F_U64, seed, 0),
	FIELD(pmbench_result, "runs_auto", F_BOOL, runs_auto, 0),
	FIELD(pmbench_result, "auto_target", F_DOUBLE, auto_target, 0),
	FIELD(pmbench_result, "auto_min_runs", F_UINT, auto_min_runs, 0),
	FIELD(pmbench_result, "auto_time_budget_s", F_SECS, auto_budget_ns, 0),
};

static const struct field pm_fields[] = {
	FIELD(pmbench_result_pm, "name", F_STR, name, 1),
	FIELD(pmbench_result_pm, "path", F_STR, path, 0),
	FIELD(pmbench_result_pm, "version", F_STR, version, 0),
	FIELD(pmbench_result_pm, "base", F_OPTSTR, base, 0),
	FIELD(pmbench_result_pm, "config", F_OPTSTR, config, 0),
};

static const struct field fixture_fields[] = {
	FIELD(pmbench_result_fixture, "name", F_STR, name, 1),
	FIELD(pmbench_result_fixture, "repo", F_STR, repo, 0),
	FIELD(pmbench_result_fixture, "commit", F_STR, commit, 0),
	FIELD(pmbench_result_fixture, "subdir", F_STR, subdir, 0),
	FIELD(pmbench_result_fixture, "description", F_STR, description, 0),
};

/* "samples" follows these; it is an array of objects. */
static const struct field cell_fields[] = {
	FIELD(pmbench_cell, "fixture", F_STR, fixture, 1),
	FIELD(pmbench_cell, "task", F_STR, task, 1),
	FIELD(pmbench_cell, "scenario", F_STR, scenario, 1),
	FIELD(pmbench_cell, "pm", F_STR, pm, 1),
	FIELD(pmbench_cell, "lockfile", F_STR, lockfile, 0),
	FIELD(pmbench_cell, "scripts", F_STR, scripts, 0),
	FIELD(pmbench_cell, "prime_failure", F_STR, prime_failure, 0),
	FIELD(pmbench_cell, "stopped_by", F_STR, stopped_by, 0),
	FIELD(pmbench_cell, "note", F_OPTSTR, note, 0),
	FIELD(pmbench_cell, "runtime", F_OPTSTR, runtime, 0),
	FIELD(pmbench_cell, "command", F_STRVEC, command, 0),
	FIELD(pmbench_cell, "env", F_STRVEC, env, 0),
};

static const struct field sample_fields[] = {
	FIELD(pmbench_sample, "round", F_UINT, round, 0),
	FIELD(pmbench_sample, "warmup", F_BOOL, warmup, 0),
	FIELD(pmbench_sample, "ok", F_BOOL, ok, 1),
	FIELD(pmbench_sample, "wall_s", F_SECS, wall_ns, 1),
	FIELD(pmbench_sample, "user_s", F_SECS, user_ns, 0),
	FIELD(pmbench_sample, "sys_s", F_SECS, sys_ns, 0),
	FIELD(pmbench_sample, "max_rss_kib", F_U64, max_rss_kib, 0),
	FIELD(pmbench_sample, "max_rss_floor_kib", F_OPTU64, max_rss_floor_kib,
	      0),
	FIELD(pmbench_sample, "tree_rss_kib", F_U64, tree_rss_kib, 0),
	FIELD(pmbench_sample, "exit_code", F_INT, exit_code, 0),
	FIELD(pmbench_sample, "signal", F_INT, signal, 0),
	FIELD(pmbench_sample, "timed_out", F_BOOL, timed_out, 0),
	FIELD(pmbench_sample, "interrupted", F_FLAG, interrupted, 0),
	FIELD(pmbench_sample, "leftover", F_INT, leftover, 0),
	FIELD(pmbench_sample, "no_node_modules", F_FLAG, no_node_modules, 0),
	FIELD_UNLESS(pmbench_sample, "node_modules_bytes", F_U64, nm_bytes,
		     no_node_modules),
	FIELD_UNLESS(pmbench_sample, "node_modules_files", F_U64, nm_files,
		     no_node_modules),
	FIELD(pmbench_sample, "started", F_STARTED, started, 0),
	FIELD(pmbench_sample, "failure", F_STR, failure, 0),
	FIELD(pmbench_sample, "tail", F_STR, tail, 0),
	FIELD(pmbench_sample, "machine", F_OPTUINT, machine, 0),
};

/* A shard's or a merge's fields at the top level, after "created". */
static const struct field shard_fields[] = {
	FIELD(pmbench_result, "plan_id", F_OPTSTR, plan_id, 0),
	FIELD(pmbench_result, "shard", F_OPTUINT, shard, 0),
	FIELD(pmbench_result, "of", F_OPTUINT, shards, 0),
};

static const struct field machine_fields[] = {
	FIELD(pmbench_result_machine, "id", F_STR, id, 1),
	FIELD(pmbench_result_machine, "cpu_model", F_STR, cpu_model, 0),
	FIELD(pmbench_result_machine, "kernel", F_STR, kernel, 0),
	FIELD(pmbench_result_machine, "host", F_STR, host, 0),
	FIELD(pmbench_result_machine, "shards", F_STR, shards, 0),
};

#define MEMBER(base, f, type) ((type *)(void *)((char *)(base) + (f)->offset))
#define CMEMBER(base, f, type) \
	((const type *)(const void *)((const char *)(base) + (f)->offset))

/* ---- Writing ----------------------------------------------------------- */

/*
 * cJSON reports allocation failure by returning NULL from every builder;
 * out-of-memory is fatal for us, so each call goes through this check.
 */
static cJSON *must(cJSON *item)
{
	if (!item)
		pmbench_die("out of memory building JSON");
	return item;
}

/*
 * Every string of a result file goes through here or add_strvec(): they
 * quote URLs, commands and PM output, so credentials are redacted (the
 * redaction of a redacted text is itself, so a file read and written
 * again is the same bytes).
 */
static void add_str(cJSON *obj, const char *key, const char *s)
{
	char *r = pmbench_text_redact_dup(s);

	if (r)
		must(cJSON_AddStringToObject(obj, key, r));
	else
		must(cJSON_AddNullToObject(obj, key));
	free(r);
}

static void add_num(cJSON *obj, const char *key, double v)
{
	must(cJSON_AddNumberToObject(obj, key, v));
}

static void add_strvec(cJSON *obj, const char *key,
		       const struct pmbench_strvec *sv)
{
	cJSON *arr = must(cJSON_AddArrayToObject(obj, key));

	for (size_t i = 0; i < sv->nr; i++) {
		char *r = pmbench_text_redact_dup(sv->v[i]);

		if (!cJSON_AddItemToArray(arr, must(cJSON_CreateString(r))))
			pmbench_die("out of memory building JSON");
		free(r);
	}
}

static cJSON *add_to_array(cJSON *arr)
{
	cJSON *obj = must(cJSON_CreateObject());

	if (!cJSON_AddItemToArray(arr, obj))
		pmbench_die("out of memory building JSON");
	return obj;
}

static void write_field(cJSON *o, const void *base, const struct field *f)
{
	double started;

	if (f->unless != NO_UNLESS &&
	    *(const int *)(const void *)((const char *)base + f->unless))
		return;
	switch (f->type) {
	case F_STR:
		add_str(o, f->key, *CMEMBER(base, f, char *));
		break;
	case F_OPTSTR:
		if (*CMEMBER(base, f, char *))
			add_str(o, f->key, *CMEMBER(base, f, char *));
		break;
	case F_BOOL:
		must(cJSON_AddBoolToObject(o, f->key,
					   *CMEMBER(base, f, int) ? 1 : 0));
		break;
	case F_FLAG:
		/* Absent means false: files without it read as before. */
		if (*CMEMBER(base, f, int))
			must(cJSON_AddTrueToObject(o, f->key));
		break;
	case F_INT:
		add_num(o, f->key, *CMEMBER(base, f, int));
		break;
	case F_UINT:
		add_num(o, f->key, *CMEMBER(base, f, unsigned));
		break;
	case F_OPTUINT:
		if (*CMEMBER(base, f, unsigned))
			add_num(o, f->key, *CMEMBER(base, f, unsigned));
		break;
	case F_OPTU64:
		/* Absent means 0: files without it read as before. */
		if (!*CMEMBER(base, f, uint64_t))
			break;
		/* fall through */
	case F_U64:
		/* Exact below 2^52; see the schema doc. */
		add_num(o, f->key, (double)*CMEMBER(base, f, uint64_t));
		break;
	case F_SECS:
		add_num(o, f->key,
			(double)*CMEMBER(base, f, uint64_t) / NS_PER_S);
		break;
	case F_STARTED:
		/*
		 * Whole microseconds: such a value always prints in a form
		 * that reads back as the same double, so a file read and
		 * written again comes out identical. Beyond about 1.8e302
		 * seconds the product overflows to infinity (printed as
		 * null): such a value is written as it is.
		 */
		started = *CMEMBER(base, f, double);
		if (isfinite(started * 1e6))
			started = round(started * 1e6) / 1e6;
		add_num(o, f->key, started);
		break;
	case F_DOUBLE:
		add_num(o, f->key, *CMEMBER(base, f, double));
		break;
	case F_STRVEC:
		add_strvec(o, f->key, CMEMBER(base, f, struct pmbench_strvec));
		break;
	}
}

static void write_fields(cJSON *o, const void *base, const struct field *fields,
			 size_t n)
{
	for (size_t i = 0; i < n; i++)
		write_field(o, base, &fields[i]);
}

static void write_cell(cJSON *arr, const struct pmbench_cell *c)
{
	cJSON *o = add_to_array(arr);
	cJSON *samples;

	write_fields(o, c, cell_fields, PMBENCH_ARRAY_SIZE(cell_fields));
	samples = must(cJSON_AddArrayToObject(o, "samples"));
	for (size_t i = 0; i < c->samples_nr; i++) {
		const struct pmbench_sample *s = &c->samples[i];
		cJSON *so = add_to_array(samples), *m;

		write_fields(so, s, sample_fields,
			     PMBENCH_ARRAY_SIZE(sample_fields));
		if (!s->metrics_nr)
			continue;
		m = must(cJSON_AddObjectToObject(so, "metrics"));
		for (size_t k = 0; k < s->metrics_nr; k++)
			add_num(m, s->metrics[k].name, s->metrics[k].value);
	}
}

char *pmbench_result_to_json(const struct pmbench_result *r)
{
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	cJSON *root = must(cJSON_CreateObject());
	cJSON *o, *arr;
	char *text;

	add_str(root, "schema", PMBENCH_RESULT_SCHEMA);
	add_num(root, "version", PMBENCH_RESULT_VERSION);
	add_str(root, "pmbench_version", r->pmbench_version);
	add_str(root, "created", r->created);
	write_fields(root, r, shard_fields, PMBENCH_ARRAY_SIZE(shard_fields));

	o = must(cJSON_AddObjectToObject(root, "options"));
	write_fields(o, r, option_fields, PMBENCH_ARRAY_SIZE(option_fields));

	o = must(cJSON_AddObjectToObject(root, "environment"));
	for (size_t i = 0; i < r->env_nr; i++)
		add_str(o, r->env[i].key, r->env[i].value);

	arr = must(cJSON_AddArrayToObject(root, "package_managers"));
	for (size_t i = 0; i < r->found_nr; i++)
		write_fields(add_to_array(arr), &r->found[i], pm_fields,
			     PMBENCH_ARRAY_SIZE(pm_fields));

	arr = must(cJSON_AddArrayToObject(root, "fixtures"));
	for (size_t i = 0; i < r->fixtures_nr; i++)
		write_fields(add_to_array(arr), &r->fixtures[i], fixture_fields,
			     PMBENCH_ARRAY_SIZE(fixture_fields));

	if (r->machines_nr) {
		arr = must(cJSON_AddArrayToObject(root, "machines"));
		for (size_t i = 0; i < r->machines_nr; i++)
			write_fields(add_to_array(arr), &r->machines[i],
				     machine_fields,
				     PMBENCH_ARRAY_SIZE(machine_fields));
	}

	arr = must(cJSON_AddArrayToObject(root, "cells"));
	for (size_t i = 0; i < r->cells_nr; i++)
		write_cell(arr, &r->cells[i]);

	text = cJSON_Print(root);
	if (!text)
		pmbench_die("out of memory printing JSON");
	/* Our callers free with free(), and a text file ends in a newline. */
	pmbench_buf_adds(&out, text);
	pmbench_buf_addch(&out, '\n');
	cJSON_free(text);
	cJSON_Delete(root);
	return pmbench_buf_detach(&out);
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

/*
 * Where the reader is, for error messages: the origin (a file name) and
 * the path of the object being read, such as "cells[2].samples[4]".
 */
struct reader {
	const char *origin;
	struct pmbench_buf where;
};

/* An EINVALID error naming the file and the field `key` (may be NULL). */
PMBENCH_PRINTF(3, 4)
static int bad_field(const struct reader *rd, const char *key, const char *fmt,
		     ...)
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
static int lookup(const cJSON **out, const struct reader *rd, const cJSON *obj,
		  const char *key, int required)
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
static int whole(double *out, const struct reader *rd, const cJSON *item,
		 const char *key, double lo, double hi)
{
	double v = item->valuedouble;

	if (!cJSON_IsNumber(item))
		return bad_field(rd, key, "must be a number");
	if (!isfinite(v) || v != floor(v) || v < lo || v > hi)
		return bad_field(rd, key,
				 "must be a whole number from %.0f to %.0f", lo,
				 hi);
	*out = v;
	return 0;
}

static int read_strvec(struct pmbench_strvec *out, const struct reader *rd,
		       const cJSON *arr, const char *key)
{
	const cJSON *item;
	int i = 0;

	if (!cJSON_IsArray(arr))
		return bad_field(rd, key, "must be an array of strings");
	cJSON_ArrayForEach(item, arr)
	{
		if (!cJSON_IsString(item) || !item->valuestring)
			return bad_field(rd, key,
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

static int read_field(void *base, const struct reader *rd, const cJSON *o,
		      const struct field *f)
{
	const cJSON *item;
	double v = 0;
	int ret = lookup(&item, rd, o, f->key, f->required);

	if (ret <= 0)
		return ret;
	switch (f->type) {
	case F_STR:
	case F_OPTSTR:
		if (!cJSON_IsString(item) || !item->valuestring)
			return bad_field(rd, f->key, "must be a string");
		free(*MEMBER(base, f, char *));
		*MEMBER(base, f, char *) = pmbench_xstrdup(item->valuestring);
		return 0;
	case F_BOOL:
	case F_FLAG:
		if (!cJSON_IsBool(item))
			return bad_field(rd, f->key, "must be true or false");
		*MEMBER(base, f, int) = cJSON_IsTrue(item) ? 1 : 0;
		return 0;
	case F_INT:
		ret = whole(&v, rd, item, f->key, INT_MIN, INT_MAX);
		if (!ret)
			*MEMBER(base, f, int) = (int)v;
		return ret;
	case F_UINT:
	case F_OPTUINT:
		ret = whole(&v, rd, item, f->key, 0, UINT_MAX);
		if (!ret)
			*MEMBER(base, f, unsigned) = (unsigned)v;
		return ret;
	case F_U64:
	case F_OPTU64:
		ret = whole(&v, rd, item, f->key, 0, U64_MAX_DOUBLE);
		if (!ret)
			*MEMBER(base, f, uint64_t) = (uint64_t)v;
		return ret;
	case F_SECS:
		v = item->valuedouble;
		/*
		 * llround() must not overflow: about 292 years is plenty.
		 * The limit itself is allowed, as a count just below it is
		 * written as 9200000000 s.
		 */
		if (!cJSON_IsNumber(item) || !isfinite(v) || v < 0 ||
		    v * NS_PER_S > 9.2e18)
			return bad_field(rd, f->key,
					 "must be a number of seconds from 0 "
					 "to 9.2e9");
		*MEMBER(base, f, uint64_t) = (uint64_t)llround(v * NS_PER_S);
		return 0;
	case F_STARTED:
	case F_DOUBLE:
		/*
		 * cJSON reads 1e999 as infinity, which it would write back
		 * as null: a different file.
		 */
		if (!cJSON_IsNumber(item) || !printable(item->valuedouble))
			return bad_field(rd, f->key,
					 "must be a finite number from -1e308 "
					 "to 1e308");
		*MEMBER(base, f, double) = item->valuedouble;
		return 0;
	case F_STRVEC:
		return read_strvec(MEMBER(base, f, struct pmbench_strvec), rd,
				   item, f->key);
	}
	return 0;
}

static int read_fields(void *base, const struct reader *rd, const cJSON *o,
		       const struct field *fields, size_t n)
{
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++)
		ret = read_field(base, rd, o, &fields[i]);
	return ret;
}

/*
 * The array `key` of `obj`, or NULL (and 0) when absent and optional.
 */
static int get_array(const cJSON **out, const struct reader *rd,
		     const cJSON *obj, const char *key, int required)
{
	int ret = lookup(out, rd, obj, key, required);

	if (ret <= 0)
		return ret;
	if (!cJSON_IsArray(*out))
		return bad_field(rd, key, "must be an array");
	return 0;
}

static int get_object(const cJSON **out, const struct reader *rd,
		      const cJSON *obj, const char *key)
{
	int ret = lookup(out, rd, obj, key, 0);

	if (ret <= 0)
		return ret;
	if (!cJSON_IsObject(*out))
		return bad_field(rd, key, "must be an object");
	return 0;
}

/*
 * Step into element `i` of the array `key`: its position is appended to
 * the reader's path (restore it with pmbench_buf_setlen() to `*old_len`)
 * and it must be an object.
 */
static int enter(size_t *old_len, struct reader *rd, const cJSON *item,
		 const char *key, int i)
{
	*old_len = rd->where.len;
	if (rd->where.len)
		pmbench_buf_addch(&rd->where, '.');
	pmbench_buf_addf(&rd->where, "%s[%d]", key, i);
	if (!cJSON_IsObject(item))
		return bad_field(rd, NULL, "must be an object");
	return 0;
}

/* "metrics": an object of printable numbers, optional. */
static int read_metrics(struct pmbench_sample *s, const struct reader *rd,
			const cJSON *o)
{
	const cJSON *m, *item;
	int ret = get_object(&m, rd, o, "metrics");

	if (ret < 0 || !m)
		return ret;
	cJSON_ArrayForEach(item, m)
	{
		if (!item->string || !cJSON_IsNumber(item) ||
		    !printable(item->valuedouble))
			return bad_field(rd, "metrics",
					 "must hold only finite numbers from "
					 "-1e308 to 1e308 ('%s' is not one)",
					 item->string ? item->string : "?");
		pmbench_sample_metric_set(s, item->string, item->valuedouble);
	}
	return 0;
}

static int read_samples(struct pmbench_cell *c, struct reader *rd,
			const cJSON *o)
{
	const cJSON *arr, *item;
	int ret = get_array(&arr, rd, o, "samples", 0);
	int i = 0;

	if (ret < 0 || !arr)
		return ret;
	cJSON_ArrayForEach(item, arr)
	{
		struct pmbench_sample *s;
		size_t old;

		ret = enter(&old, rd, item, "samples", i);
		if (ret < 0)
			return ret;
		s = pmbench_cell_add_sample(c);
		/* Without "round", the position in the array is the round. */
		s->round = (unsigned)i;
		ret = read_fields(s, rd, item, sample_fields,
				  PMBENCH_ARRAY_SIZE(sample_fields));
		if (!ret)
			ret = read_metrics(s, rd, item);
		if (ret < 0)
			return ret;
		pmbench_buf_setlen(&rd->where, old);
		i++;
	}
	return 0;
}

static int read_cells(struct pmbench_result *r, struct reader *rd,
		      const cJSON *root)
{
	const cJSON *arr, *item;
	int ret = get_array(&arr, rd, root, "cells", 1);
	int i = 0;

	if (ret < 0)
		return ret;
	cJSON_ArrayForEach(item, arr)
	{
		struct pmbench_cell *c;
		size_t old;

		ret = enter(&old, rd, item, "cells", i);
		if (ret < 0)
			return ret;
		/*
		 * Read straight into a new zeroed cell: the required names
		 * may be left NULL on error, which release copes with.
		 */
		PMBENCH_ALLOC_GROW(r->cells, r->cells_nr + 1, r->cells_alloc);
		c = &r->cells[r->cells_nr++];
		memset(c, 0, sizeof(*c));
		pmbench_strvec_init(&c->command);
		pmbench_strvec_init(&c->env);
		ret = read_fields(c, rd, item, cell_fields,
				  PMBENCH_ARRAY_SIZE(cell_fields));
		if (!ret)
			ret = read_samples(c, rd, item);
		if (ret < 0)
			return ret;
		pmbench_buf_setlen(&rd->where, old);
		i++;
	}
	return 0;
}

static int read_environment(struct pmbench_result *r, struct reader *rd,
			    const cJSON *root)
{
	const cJSON *env, *item;
	int ret = get_object(&env, rd, root, "environment");

	if (ret < 0 || !env)
		return ret;
	cJSON_ArrayForEach(item, env)
	{
		if (!cJSON_IsString(item) || !item->valuestring) {
			pmbench_buf_adds(&rd->where, "environment");
			ret = bad_field(rd, item->string, "must be a string");
			pmbench_buf_reset(&rd->where);
			return ret;
		}
		pmbench_result_env_set(r, item->string, item->valuestring);
	}
	return 0;
}

static int read_options(struct pmbench_result *r, struct reader *rd,
			const cJSON *root)
{
	const cJSON *o;
	int ret = get_object(&o, rd, root, "options");

	if (ret < 0 || !o)
		return ret;
	pmbench_buf_adds(&rd->where, "options");
	ret = read_fields(r, rd, o, option_fields,
			  PMBENCH_ARRAY_SIZE(option_fields));
	pmbench_buf_reset(&rd->where);
	return ret;
}

static int read_pms(struct pmbench_result *r, struct reader *rd,
		    const cJSON *root)
{
	const cJSON *arr, *item;
	int ret = get_array(&arr, rd, root, "package_managers", 0);
	int i = 0;

	if (ret < 0 || !arr)
		return ret;
	cJSON_ArrayForEach(item, arr)
	{
		struct pmbench_result_pm *p;
		size_t old;

		ret = enter(&old, rd, item, "package_managers", i);
		if (ret < 0)
			return ret;
		PMBENCH_ALLOC_GROW(r->found, r->found_nr + 1, r->found_alloc);
		p = &r->found[r->found_nr++];
		memset(p, 0, sizeof(*p));
		ret = read_fields(p, rd, item, pm_fields,
				  PMBENCH_ARRAY_SIZE(pm_fields));
		if (ret < 0)
			return ret;
		pmbench_buf_setlen(&rd->where, old);
		i++;
	}
	return 0;
}

static int read_fixtures(struct pmbench_result *r, struct reader *rd,
			 const cJSON *root)
{
	const cJSON *arr, *item;
	int ret = get_array(&arr, rd, root, "fixtures", 0);
	int i = 0;

	if (ret < 0 || !arr)
		return ret;
	cJSON_ArrayForEach(item, arr)
	{
		struct pmbench_result_fixture *f;
		size_t old;

		ret = enter(&old, rd, item, "fixtures", i);
		if (ret < 0)
			return ret;
		f = pmbench_result_add_fixture(r, NULL, NULL, NULL, NULL, NULL);
		ret = read_fields(f, rd, item, fixture_fields,
				  PMBENCH_ARRAY_SIZE(fixture_fields));
		if (ret < 0)
			return ret;
		pmbench_buf_setlen(&rd->where, old);
		i++;
	}
	return 0;
}

static int read_machines(struct pmbench_result *r, struct reader *rd,
			 const cJSON *root)
{
	const cJSON *arr, *item;
	int ret = get_array(&arr, rd, root, "machines", 0);
	int i = 0;

	if (ret < 0 || !arr)
		return ret;
	cJSON_ArrayForEach(item, arr)
	{
		struct pmbench_result_machine *m;
		size_t old;

		ret = enter(&old, rd, item, "machines", i);
		if (ret < 0)
			return ret;
		PMBENCH_ALLOC_GROW(r->machines, r->machines_nr + 1,
				   r->machines_alloc);
		m = &r->machines[r->machines_nr++];
		memset(m, 0, sizeof(*m));
		ret = read_fields(m, rd, item, machine_fields,
				  PMBENCH_ARRAY_SIZE(machine_fields));
		if (ret < 0)
			return ret;
		pmbench_buf_setlen(&rd->where, old);
		i++;
	}
	return 0;
}

/* Every sample's machine is one of "machines". */
static int check_machines(const struct pmbench_result *r,
			  const struct reader *rd)
{
	for (size_t i = 0; i < r->cells_nr; i++)
		for (size_t k = 0; k < r->cells[i].samples_nr; k++)
			if (r->cells[i].samples[k].machine > r->machines_nr)
				return pmbench_error_setc(
					PMBENCH_EINVALID,
					"'%s': field "
					"'cells[%zu].samples[%zu].machine' "
					"is %u, but 'machines' has %zu",
					rd->origin, i, k,
					r->cells[i].samples[k].machine,
					r->machines_nr);
	return 0;
}

/* Check "schema" and "version" before anything else is trusted. */
static int read_header(struct pmbench_result *r, struct reader *rd,
		       const cJSON *root)
{
	const cJSON *item;
	double version = 0;
	int ret;

	ret = lookup(&item, rd, root, "schema", 1);
	if (ret < 0)
		return ret;
	if (!cJSON_IsString(item) || !item->valuestring)
		return bad_field(rd, "schema", "must be the string '%s'",
				 PMBENCH_RESULT_SCHEMA);
	if (strcmp(item->valuestring, PMBENCH_RESULT_SCHEMA))
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "'%s': field 'schema' is '%s', not "
					  "'%s'",
					  rd->origin, item->valuestring,
					  PMBENCH_RESULT_SCHEMA);
	ret = lookup(&item, rd, root, "version", 1);
	if (ret < 0)
		return ret;
	ret = whole(&version, rd, item, "version", 1, INT_MAX);
	if (ret < 0)
		return ret;
	if (version > PMBENCH_RESULT_VERSION)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "'%s': field 'version' is %.0f, "
					  "newer than the %d this pmbench "
					  "reads",
					  rd->origin, version,
					  PMBENCH_RESULT_VERSION);
	r->schema_version = (int)version;
	return 0;
}

static const struct field root_fields[] = {
	FIELD(pmbench_result, "pmbench_version", F_STR, pmbench_version, 0),
	FIELD(pmbench_result, "created", F_STR, created, 0),
};

static int read_root(struct pmbench_result *r, struct reader *rd,
		     const cJSON *root)
{
	int ret;

	if (!cJSON_IsObject(root))
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "'%s': not a pmbench result (the "
					  "top level is not a JSON object)",
					  rd->origin);
	ret = read_header(r, rd, root);
	if (!ret)
		ret = read_fields(r, rd, root, root_fields,
				  PMBENCH_ARRAY_SIZE(root_fields));
	if (!ret)
		ret = read_fields(r, rd, root, shard_fields,
				  PMBENCH_ARRAY_SIZE(shard_fields));
	if (!ret)
		ret = read_machines(r, rd, root);
	if (!ret)
		ret = read_options(r, rd, root);
	if (!ret)
		ret = read_environment(r, rd, root);
	if (!ret)
		ret = read_pms(r, rd, root);
	if (!ret)
		ret = read_fixtures(r, rd, root);
	if (!ret)
		ret = read_cells(r, rd, root);
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

int pmbench_result_from_json(struct pmbench_result *out, const char *json,
			     const char *origin)
{
	struct pmbench_result init = PMBENCH_RESULT_INIT;
	struct reader rd = { NULL, PMBENCH_BUF_INIT };
	const char *end = NULL;
	cJSON *root = NULL;
	int ret = 0;

	*out = init;
	rd.origin = origin ? origin : "(string)";
	root = cJSON_ParseWithOpts(json, &end, 1);
	if (!root) {
		int line, col;

		line_col(&line, &col, json, end ? end : json);
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "'%s': malformed JSON at line %d, "
					 "column %d",
					 rd.origin, line, col);
		goto done;
	}
	ret = read_root(out, &rd, root);

done:
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
