/*
 * The in-memory result (result.h): its environment entries, cells and
 * samples, their checks, releasing it, and the field tables the JSON
 * writer and reader share (result_fields.h).
 */
#include "pmbench/common.h"

#include <math.h>
#include <time.h>

#include "pmbench/ctx.h"
#include "pmbench/date.h"
#include "pmbench/phases.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"
#include "pmbench/stats.h"
#include "pmbench/strvec.h"
#include "pmbench/text.h"

#include "result_fields.h"

/*
 * The result in memory: its accessors, its field tables and its release.
 * The JSON form is result_json.c, the machine's description sysinfo.c.
 */

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

/* A sample whose request log may become the waterfall. */
static int may_be_waterfall(const struct pmbench_sample *s)
{
	return s->ok && !s->warmup && s->phases && s->phases->log_nr;
}

const struct pmbench_sample *
pmbench_cell_waterfall(const struct pmbench_cell *c)
{
	const struct pmbench_sample *best = NULL;
	size_t n = 0;
	double *t = pmbench_cell_times(c, &n), median, d = 0;

	median = n ? pmbench_stats_median(t, n) : 0;
	free(t);
	for (size_t i = 0; i < c->samples_nr; i++) {
		const struct pmbench_sample *s = &c->samples[i];
		double e = fabs((double)s->wall_ns / NS_PER_S - median);

		if (!may_be_waterfall(s))
			continue;
		if (!best || e < d) {
			best = s;
			d = e;
		}
	}
	return best;
}

/*
 * The request logs a cell keeps while it runs: every timed run's up to
 * this many, so that the final median's run still has its log (exactly
 * for up to this many runs); past it, the log of the run farthest from
 * the median so far goes first.
 */
#define WATERFALL_LOGS_KEPT 9

/* Drop the logs of the finished samples that cannot be the waterfall. */
static void drop_logs(struct pmbench_cell *c)
{
	size_t n = 0, kept = 0;
	double *t, median;

	for (size_t i = 0; i < c->samples_nr; i++) {
		if (may_be_waterfall(&c->samples[i]))
			kept++;
		else
			pmbench_phases_drop_log(c->samples[i].phases);
	}
	/*
	 * The median only when a log must go: a cell read or merged from
	 * files (thousands of samples, no logs) adds each sample without
	 * computing it again.
	 */
	if (kept <= WATERFALL_LOGS_KEPT)
		return;
	t = pmbench_cell_times(c, &n);
	median = n ? pmbench_stats_median(t, n) : 0;
	free(t);
	for (; kept > WATERFALL_LOGS_KEPT; kept--) {
		struct pmbench_sample *far = NULL;
		double d = -1;

		for (size_t i = 0; i < c->samples_nr; i++) {
			struct pmbench_sample *s = &c->samples[i];
			double e = fabs((double)s->wall_ns / NS_PER_S - median);

			if (may_be_waterfall(s) && e > d) {
				far = s;
				d = e;
			}
		}
		pmbench_phases_drop_log(far->phases);
	}
}

struct pmbench_sample *pmbench_cell_add_sample(struct pmbench_cell *c)
{
	struct pmbench_sample *s;

	drop_logs(c);
	PMBENCH_ALLOC_GROW(c->samples, c->samples_nr + 1, c->samples_alloc);
	s = &c->samples[c->samples_nr++];
	memset(s, 0, sizeof(*s));
	s->failure = NULL;
	s->tail = NULL;
	return s;
}

size_t pmbench_cell_checks(const struct pmbench_cell *c, int check,
			   const char **out_why)
{
	size_t n = 0;

	if (out_why)
		*out_why = NULL;
	for (size_t i = 0; i < c->samples_nr; i++) {
		const struct pmbench_sample *s = &c->samples[i];

		if (!s->ok || s->warmup || s->state_check != check)
			continue;
		if (out_why && !*out_why)
			*out_why = s->state_why;
		n++;
	}
	return n;
}

int pmbench_cell_wrong_state(const struct pmbench_cell *c)
{
	size_t ok = 0;

	for (size_t i = 0; i < c->samples_nr; i++)
		ok += c->samples[i].ok && !c->samples[i].warmup;
	return ok && pmbench_cell_checks(c, PMBENCH_CHECK_FAIL, NULL) == ok;
}

/*
 * Is sample i the first timed, successful one of its round? A round is
 * a round number on one machine: whole runs merged from several
 * machines share their numbers (merge.h). A cell not in the state asked
 * has none (pmbench_cell_wrong_state()).
 */
static int round_first(const struct pmbench_cell *c, size_t i)
{
	const struct pmbench_sample *s = &c->samples[i];

	if (!s->ok || s->warmup || pmbench_cell_wrong_state(c))
		return 0;
	for (size_t j = 0; j < i; j++)
		if (c->samples[j].ok && !c->samples[j].warmup &&
		    c->samples[j].round == s->round &&
		    c->samples[j].machine == s->machine)
			return 0;
	return 1;
}

enum pmbench_round_state pmbench_cell_round(const struct pmbench_cell *c,
					    unsigned round, unsigned machine,
					    double *out, size_t *out_runs)
{
	double *v = pmbench_xmalloc(
		pmbench_st_mult(c->samples_nr ? c->samples_nr : 1, sizeof(*v)));
	size_t n = 0, failed = 0, seen = 0;
	int wrong = pmbench_cell_wrong_state(c);

	for (size_t i = 0; i < c->samples_nr; i++) {
		const struct pmbench_sample *s = &c->samples[i];

		if (s->warmup || s->round != round || s->machine != machine)
			continue;
		seen++;
		/* Not the state asked: a run, but no time. */
		if (s->ok && wrong)
			failed++;
		else if (s->ok)
			v[n++] = (double)s->wall_ns / NS_PER_S;
		else if (!s->interrupted)
			failed++;
	}
	if (out)
		*out = n ? pmbench_stats_median(v, n) : 0;
	if (out_runs)
		*out_runs = n;
	free(v);
	if (n)
		return PMBENCH_ROUND_OK;
	if (failed)
		return PMBENCH_ROUND_FAILED;
	return seen ? PMBENCH_ROUND_INTERRUPTED : PMBENCH_ROUND_NONE;
}

struct pmbench_explain_run *pmbench_cell_add_explain(struct pmbench_cell *c)
{
	struct pmbench_explain_run *e;

	PMBENCH_ALLOC_GROW(c->explain, c->explain_nr + 1, c->explain_alloc);
	e = &c->explain[c->explain_nr++];
	memset(e, 0, sizeof(*e));
	e->failure = NULL;
	e->phases = (struct pmbench_pm_phases)PMBENCH_PM_PHASES_INIT;
	return e;
}

void pmbench_cell_set_unsupported(struct pmbench_cell *c, const char *why)
{
	c->state = PMBENCH_CELL_UNSUPPORTED;
	free(c->note);
	c->note = pmbench_xstrdup(why);
}

double *pmbench_cell_times(const struct pmbench_cell *c, size_t *out_n)
{
	double *times;
	size_t n = 0;

	times = pmbench_xmalloc(pmbench_st_mult(
		c->samples_nr ? c->samples_nr : 1, sizeof(*times)));
	for (size_t i = 0; i < c->samples_nr; i++)
		if (round_first(c, i))
			pmbench_cell_round(c, c->samples[i].round,
					   c->samples[i].machine, &times[n++],
					   NULL);
	*out_n = n;
	return times;
}

unsigned *pmbench_cell_round_machines(const struct pmbench_cell *c,
				      size_t *out_n)
{
	unsigned *m =
		pmbench_xcalloc(c->samples_nr ? c->samples_nr : 1, sizeof(*m));
	size_t n = 0;

	for (size_t i = 0; i < c->samples_nr; i++)
		if (round_first(c, i))
			m[n++] = c->samples[i].machine;
	*out_n = n;
	return m;
}

void pmbench_cell_runs_per_round(const struct pmbench_cell *c, size_t *out_min,
				 size_t *out_max)
{
	size_t lo = 0, hi = 0;

	for (size_t i = 0; i < c->samples_nr; i++) {
		size_t k;

		if (!round_first(c, i))
			continue;
		pmbench_cell_round(c, c->samples[i].round,
				   c->samples[i].machine, NULL, &k);
		if (!lo || k < lo)
			lo = k;
		if (k > hi)
			hi = k;
	}
	*out_min = lo;
	*out_max = hi;
}

/*
 * Does every timed round of `x` have a partner in `y`? A round `y` did
 * not run at all (bench's budget runs extra rounds for some PMs only, a
 * round cut short by Ctrl-C) pairs nothing and breaks nothing; a round
 * whose runs failed in either leaves the rounds incomplete.
 */
static int rounds_covered(const struct pmbench_cell *x,
			  const struct pmbench_cell *y)
{
	for (size_t i = 0; i < x->samples_nr; i++) {
		const struct pmbench_sample *s = &x->samples[i];
		enum pmbench_round_state sx, sy;

		if (s->warmup || s->interrupted)
			continue;
		sx = pmbench_cell_round(x, s->round, s->machine, NULL, NULL);
		sy = pmbench_cell_round(y, s->round, s->machine, NULL, NULL);
		if (sx == PMBENCH_ROUND_FAILED || sy == PMBENCH_ROUND_FAILED)
			return 0;
	}
	return 1;
}

int pmbench_cell_pair_rounds(double **out_a, double **out_b, size_t *out_n,
			     const struct pmbench_cell *a,
			     const struct pmbench_cell *b)
{
	size_t n = 0;

	*out_a = *out_b = NULL;
	*out_n = 0;
	if (!rounds_covered(a, b) || !rounds_covered(b, a))
		return 0;
	*out_a = pmbench_xcalloc(a->samples_nr + 1, sizeof(**out_a));
	*out_b = pmbench_xcalloc(a->samples_nr + 1, sizeof(**out_b));
	for (size_t i = 0; i < a->samples_nr; i++) {
		const struct pmbench_sample *s = &a->samples[i];

		/* Each round once: its first successful run stands for it. */
		if (!round_first(a, i) ||
		    pmbench_cell_round(b, s->round, s->machine, &(*out_b)[n],
				       NULL) != PMBENCH_ROUND_OK)
			continue;
		pmbench_cell_round(a, s->round, s->machine, &(*out_a)[n], NULL);
		n++;
	}
	if (n < 2) {
		free(*out_a);
		free(*out_b);
		*out_a = *out_b = NULL;
		return 0;
	}
	*out_n = n;
	return 1;
}

int pmbench_cell_paired_ratio(struct pmbench_interval *out, size_t *out_n,
			      const struct pmbench_cell *a,
			      const struct pmbench_cell *b, double level,
			      unsigned resamples, uint64_t seed)
{
	struct pmbench_rng rng;
	double *ta, *tb;
	int ret;

	if (!pmbench_cell_pair_rounds(&ta, &tb, out_n, a, b))
		return 0;
	pmbench_rng_seed(&rng, seed);
	ret = pmbench_stats_bootstrap_paired_ratio(out, ta, tb, *out_n, level,
						   resamples, &rng);
	free(ta);
	free(tb);
	return ret < 0 ? ret : 1;
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

		if (s->ok && !s->warmup && !pmbench_cell_wrong_state(c) &&
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

/* Free the strings and string vectors a field table names in `base`. */
static void release_fields(void *base, const struct pmbench_result_field *f)
{
	for (; f->key; f++) {
		if (f->type == F_STR || f->type == F_OPTSTR)
			free(*RESULT_MEMBER(base, f, char *));
		else if (f->type == F_STRVEC || f->type == F_OPTSTRVEC)
			pmbench_strvec_release(
				RESULT_MEMBER(base, f, struct pmbench_strvec));
	}
}

void pmbench_sample_release(struct pmbench_sample *s)
{
	release_fields(s, pmbench_result_sample_fields);
	for (size_t i = 0; i < s->metrics_nr; i++)
		free(s->metrics[i].name);
	free(s->metrics);
	pmbench_phases_free(s->phases);
	s->phases = NULL;
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

void pmbench_sample_stopped(struct pmbench_sample *s,
			    const struct pmbench_ctx *ctx)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_addf(&b, "interrupted by %s",
			 pmbench_proc_signal_name(pmbench_ctx_cancelled(ctx)));
	pmbench_sample_interrupt(s, b.ptr);
	pmbench_buf_release(&b);
}

struct pmbench_result_fixture *
pmbench_result_add_fixture(struct pmbench_result *r, const char *name,
			   const char *repo, const char *commit,
			   const char *subdir, const char *description)
{
	struct pmbench_result_fixture *f;

	PMBENCH_ALLOC_GROW(r->fixtures, r->fixtures_nr + 1, r->fixtures_alloc);
	f = &r->fixtures[r->fixtures_nr++];
	memset(f, 0, sizeof(*f));
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

/* Release `nr` elements of `size` bytes at `arr`, then the array. */
static void release_array(void *arr, size_t nr, size_t size,
			  const struct pmbench_result_field *fields)
{
	for (size_t i = 0; i < nr; i++)
		release_fields((char *)arr + i * size, fields);
	free(arr);
}

static void cell_release(struct pmbench_cell *c)
{
	release_fields(c, pmbench_result_cell_fields);
	for (size_t i = 0; i < c->samples_nr; i++)
		pmbench_sample_release(&c->samples[i]);
	free(c->samples);
	for (size_t i = 0; i < c->explain_nr; i++) {
		free(c->explain[i].failure);
		pmbench_pm_phases_release(&c->explain[i].phases);
	}
	free(c->explain);
}

void pmbench_result_release(struct pmbench_result *r)
{
	struct pmbench_result init = PMBENCH_RESULT_INIT;

	if (!r)
		return;
	release_fields(r, pmbench_result_root_fields);
	release_fields(r, pmbench_result_shard_fields);
	release_fields(r, pmbench_result_claim_fields);
	release_fields(r, pmbench_result_option_fields);
	for (size_t i = 0; i < r->env_nr; i++) {
		free(r->env[i].key);
		free(r->env[i].value);
	}
	free(r->env);
	release_array(r->found, r->found_nr, sizeof(*r->found),
		      pmbench_result_pm_fields);
	release_array(r->fixtures, r->fixtures_nr, sizeof(*r->fixtures),
		      pmbench_result_fixture_fields);
	for (size_t i = 0; i < r->cells_nr; i++)
		cell_release(&r->cells[i]);
	free(r->cells);
	release_array(r->machines, r->machines_nr, sizeof(*r->machines),
		      pmbench_result_machine_fields);
	*r = init;
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

/* See result_fields.h; the JSON form is docs/result-schema.md. */

const struct pmbench_result_field pmbench_result_root_fields[] = {
	FIELD(pmbench_result, "pmbench_version", F_STR, pmbench_version, 0),
	FIELD(pmbench_result, "created", F_STR, created, 0),
	FIELD_END,
};

const struct pmbench_result_field pmbench_result_option_fields[] = {
	FIELD(pmbench_result, "pms", F_STRVEC, pms, 0),
	FIELD(pmbench_result, "scenarios", F_STRVEC, scenarios, 0),
	FIELD(pmbench_result, "tasks", F_STRVEC, tasks, 0),
	FIELD(pmbench_result, "arguments", F_STRVEC, arguments, 0),
	FIELD(pmbench_result, "runs", F_UINT, runs, 0),
	FIELD(pmbench_result, "warmup", F_UINT, warmup, 0),
	FIELD(pmbench_result, "timeout_s", F_SECS, timeout_ns, 0),
	FIELD(pmbench_result, "seed", F_U64, seed, 0),
	FIELD(pmbench_result, "runs_auto", F_BOOL, runs_auto, 0),
	FIELD(pmbench_result, "auto_target", F_DOUBLE, auto_target, 0),
	FIELD(pmbench_result, "auto_min_runs", F_UINT, auto_min_runs, 0),
	FIELD(pmbench_result, "auto_time_budget_s", F_SECS, auto_budget_ns, 0),
	FIELD(pmbench_result, "auto_max_runs", F_OPTUINT, auto_max_runs, 0),
	FIELD(pmbench_result, "baseline", F_OPTSTR, baseline, 0),
	FIELD(pmbench_result, "baseline_chosen", F_BOOL, baseline_chosen, 0),
	FIELD_END,
};

const struct pmbench_result_field pmbench_result_pm_fields[] = {
	FIELD(pmbench_result_pm, "name", F_STR, name, 1),
	FIELD(pmbench_result_pm, "path", F_STR, path, 0),
	FIELD(pmbench_result_pm, "version", F_STR, version, 0),
	FIELD(pmbench_result_pm, "base", F_OPTSTR, base, 0),
	FIELD(pmbench_result_pm, "config", F_OPTSTR, config, 0),
	FIELD_END,
};

const struct pmbench_result_field pmbench_result_fixture_fields[] = {
	FIELD(pmbench_result_fixture, "name", F_STR, name, 1),
	FIELD(pmbench_result_fixture, "repo", F_STR, repo, 0),
	FIELD(pmbench_result_fixture, "commit", F_STR, commit, 0),
	FIELD(pmbench_result_fixture, "subdir", F_STR, subdir, 0),
	FIELD(pmbench_result_fixture, "description", F_STR, description, 0),
	FIELD(pmbench_result_fixture, "node", F_OPTSTR, node, 0),
	FIELD_END,
};

/* A cell's "offline_proof": written only when it was proven. */
static const char *const proof_names[] = {
	[PMBENCH_PROOF_NONE] = "none",
	[PMBENCH_PROOF_PASS] = "pass",
	[PMBENCH_PROOF_FAIL] = "fail",
	NULL,
};

const char *pmbench_proof_name(int proof)
{
	if (proof <= PMBENCH_PROOF_NONE || proof > PMBENCH_PROOF_FAIL)
		return NULL;
	return proof_names[proof];
}

/* A cell's "scripts_choice" (enum pmbench_scripts_choice): not default. */
static const char *const scripts_choices[] = { "default", "none", "all", NULL };

/* A cell's "state": written only when it is not the first. */
static const char *const cell_states[] = {
	[PMBENCH_CELL_MEASURABLE] = "measurable",
	[PMBENCH_CELL_UNSUPPORTED] = "unsupported",
	NULL,
};

_Static_assert(sizeof(enum pmbench_cell_state) == sizeof(int),
	       "a cell's state is read and written as an int");

const struct pmbench_result_field pmbench_result_cell_fields[] = {
	FIELD(pmbench_cell, "fixture", F_STR, fixture, 1),
	FIELD(pmbench_cell, "task", F_STR, task, 1),
	FIELD(pmbench_cell, "scenario", F_STR, scenario, 1),
	FIELD(pmbench_cell, "pm", F_STR, pm, 1),
	FIELD(pmbench_cell, "lockfile", F_STR, lockfile, 0),
	FIELD(pmbench_cell, "scripts", F_STR, scripts, 0),
	FIELD(pmbench_cell, "prime_failure", F_STR, prime_failure, 0),
	FIELD(pmbench_cell, "stopped_by", F_STR, stopped_by, 0),
	FIELD_NAMES(pmbench_cell, "state", state, cell_states),
	FIELD(pmbench_cell, "note", F_OPTSTR, note, 0),
	FIELD(pmbench_cell, "runtime", F_OPTSTR, runtime, 0),
	FIELD(pmbench_cell, "pm_version", F_OPTSTR, pm_version, 0),
	FIELD(pmbench_cell, "node", F_OPTSTR, node, 0),
	FIELD(pmbench_cell, "node_era", F_OPTSTR, node_era, 0),
	FIELD(pmbench_cell, "pm_config", F_OPTSTR, pm_config, 0),
	FIELD_NAMES(pmbench_cell, "scripts_choice", scripts_choice,
		    scripts_choices),
	FIELD(pmbench_cell, "ci", F_FLAG, ci, 0),
	FIELD(pmbench_cell, "command", F_STRVEC, command, 0),
	FIELD(pmbench_cell, "env", F_STRVEC, env, 0),
	FIELD(pmbench_cell, "explain_how", F_OPTSTR, explain_how, 0),
	FIELD_NAMES(pmbench_cell, "offline_proof", proof, proof_names),
	FIELD(pmbench_cell, "offline_proof_why", F_OPTSTR, proof_why, 0),
	FIELD_END,
};

/* A sample's "state_check": written only when it was checked. */
static const char *const check_names[] = {
	[PMBENCH_CHECK_NONE] = "none",
	[PMBENCH_CHECK_PASS] = "pass",
	[PMBENCH_CHECK_KNOWN] = "known",
	[PMBENCH_CHECK_FAIL] = "fail",
	NULL,
};

const char *pmbench_check_name(int check)
{
	if (check <= PMBENCH_CHECK_NONE || check > PMBENCH_CHECK_FAIL)
		return NULL;
	return check_names[check];
}

const struct pmbench_result_field pmbench_result_sample_fields[] = {
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
	FIELD(pmbench_sample, "repeat", F_OPTUINT, repeat, 0),
	FIELD_NAMES(pmbench_sample, "state_check", state_check, check_names),
	FIELD(pmbench_sample, "state_why", F_OPTSTR, state_why, 0),
	FIELD(pmbench_sample, "node_modules_written", F_OPTSTR, nm_written, 0),
	FIELD_END,
};

const struct pmbench_result_field pmbench_result_phases_fields[] = {
	FIELD(pmbench_phases, "startup_s", F_SECS, startup_ns, 1),
	FIELD(pmbench_phases, "network_s", F_SECS, network_ns, 1),
	FIELD(pmbench_phases, "write_s", F_SECS, write_ns, 1),
	FIELD(pmbench_phases, "scripts_s", F_SECS, scripts_ns, 1),
	FIELD(pmbench_phases, "exit_s", F_SECS, exit_ns, 1),
	FIELD(pmbench_phases, "sample_s", F_SECS, sample_ns, 0),
	FIELD(pmbench_phases, "samples", F_UINT, samples, 0),
	FIELD(pmbench_phases, "sampler_cpu_s", F_SECS, sampler_cpu_ns, 0),
	FIELD(pmbench_phases, "requests", F_UINT, requests, 0),
	FIELD(pmbench_phases, "in_flight_max", F_UINT, in_flight_max, 0),
	FIELD(pmbench_phases, "first_request_s", F_SECS, first_request_ns, 0),
	FIELD(pmbench_phases, "last_response_s", F_SECS, last_response_ns, 0),
	FIELD(pmbench_phases, "written_bytes", F_U64, written_bytes, 0),
	FIELD(pmbench_phases, "written_partial", F_OPTUINT, written_partial, 0),
	FIELD(pmbench_phases, "first_write_s", F_SECS, first_write_ns, 0),
	FIELD(pmbench_phases, "last_write_s", F_SECS, last_write_ns, 0),
	FIELD(pmbench_phases, "node_modules_s", F_SECS, node_modules_ns, 0),
	FIELD(pmbench_phases, "requests_dropped", F_OPTUINT, log_dropped, 0),
	FIELD_END,
};

const struct pmbench_result_field pmbench_result_script_fields[] = {
	FIELD(pmbench_phase_script, "package", F_STR, package, 1),
	FIELD(pmbench_phase_script, "event", F_STR, event, 1),
	FIELD(pmbench_phase_script, "start_s", F_SECS, start_ns, 1),
	FIELD(pmbench_phase_script, "end_s", F_SECS, end_ns, 1),
	FIELD(pmbench_phase_script, "cpu_s", F_SECS, cpu_ns, 0),
	FIELD_END,
};

const struct pmbench_result_field pmbench_result_shard_fields[] = {
	FIELD(pmbench_result, "plan_id", F_OPTSTR, plan_id, 0),
	FIELD(pmbench_result, "plan_options", F_OPTSTRVEC, plan_options, 0),
	FIELD(pmbench_result, "shard", F_OPTUINT, shard, 0),
	FIELD(pmbench_result, "of", F_OPTUINT, shards, 0),
	FIELD_END,
};

const struct pmbench_result_field pmbench_result_claim_fields[] = {
	FIELD(pmbench_result, "text", F_STR, claim, 1),
	FIELD(pmbench_result, "tolerance", F_DOUBLE, claim_tolerance, 1),
	FIELD_END,
};

const struct pmbench_result_field pmbench_result_machine_fields[] = {
	FIELD(pmbench_result_machine, "id", F_STR, id, 1),
	FIELD(pmbench_result_machine, "cpu_model", F_STR, cpu_model, 0),
	FIELD(pmbench_result_machine, "kernel", F_STR, kernel, 0),
	FIELD(pmbench_result_machine, "host", F_STR, host, 0),
	FIELD(pmbench_result_machine, "shards", F_STR, shards, 0),
	FIELD_END,
};
