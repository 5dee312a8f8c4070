/*
 * `pmbench merge`: the shards of one plan pooled into one result, each
 * sample keeping its machine, after checking that they belong together.
 */
#include "pmbench/common.h"

#include "pmbench/buf.h"
#include "pmbench/merge.h"
#include "pmbench/phases.h"
#include "pmbench/plan.h"
#include "pmbench/stats.h"

#define RESAMPLES 2000
#define LEVEL	  0.95

static int same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static int same_list(const struct pmbench_strvec *a,
		     const struct pmbench_strvec *b)
{
	if (a->nr != b->nr)
		return 0;
	for (size_t i = 0; i < a->nr; i++)
		if (strcmp(a->v[i], b->v[i]))
			return 0;
	return 1;
}

static void list_text(struct pmbench_buf *out, const struct pmbench_strvec *v)
{
	for (size_t i = 0; i < v->nr; i++)
		pmbench_buf_addf(out, "%s%s", i ? "," : "", v->v[i]);
}

/* One line naming the field, both files and both values. */
static int refuse(const char *field, const char *a, const char *va,
		  const char *b, const char *vb)
{
	return pmbench_error_setc(PMBENCH_EINVALID,
				  "cannot merge '%s' and '%s': field '%s' "
				  "differs ('%s' against '%s'): not shards "
				  "of one plan",
				  a, b, field, va ? va : "(none)",
				  vb ? vb : "(none)");
}

static int refuse_num(const char *field, const char *a, unsigned long long va,
		      const char *b, unsigned long long vb)
{
	char x[32], y[32];

	snprintf(x, sizeof(x), "%llu", va);
	snprintf(y, sizeof(y), "%llu", vb);
	return refuse(field, a, x, b, y);
}

static int refuse_list(const char *field, const char *a,
		       const struct pmbench_strvec *va, const char *b,
		       const struct pmbench_strvec *vb)
{
	struct pmbench_buf x = PMBENCH_BUF_INIT, y = PMBENCH_BUF_INIT;
	int ret;

	list_text(&x, va);
	list_text(&y, vb);
	ret = refuse(field, a, x.ptr, b, y.ptr);
	pmbench_buf_release(&x);
	pmbench_buf_release(&y);
	return ret;
}

static int check_options(const struct pmbench_result *a, const char *na,
			 const struct pmbench_result *b, const char *nb)
{
	if (a->shards != b->shards)
		return refuse_num("of", na, a->shards, nb, b->shards);
	if (!same_list(&a->pms, &b->pms))
		return refuse_list("options.pms", na, &a->pms, nb, &b->pms);
	if (!same_list(&a->scenarios, &b->scenarios))
		return refuse_list("options.scenarios", na, &a->scenarios, nb,
				   &b->scenarios);
	if (!same_list(&a->tasks, &b->tasks))
		return refuse_list("options.tasks", na, &a->tasks, nb,
				   &b->tasks);
	if (a->runs != b->runs)
		return refuse_num("options.runs", na, a->runs, nb, b->runs);
	if (a->warmup != b->warmup)
		return refuse_num("options.warmup", na, a->warmup, nb,
				  b->warmup);
	if (a->timeout_ns != b->timeout_ns)
		return refuse_num("options.timeout_s", na,
				  a->timeout_ns / 1000000000ull, nb,
				  b->timeout_ns / 1000000000ull);
	if (a->runs_auto != b->runs_auto)
		return refuse_num("options.runs_auto", na, a->runs_auto, nb,
				  b->runs_auto);
	return 0;
}

static int check_fixtures(const struct pmbench_result *a, const char *na,
			  const struct pmbench_result *b, const char *nb)
{
	char field[64];

	if (a->fixtures_nr != b->fixtures_nr)
		return refuse_num("fixtures", na, a->fixtures_nr, nb,
				  b->fixtures_nr);
	for (size_t i = 0; i < a->fixtures_nr; i++) {
		const struct pmbench_result_fixture *x = &a->fixtures[i];
		const struct pmbench_result_fixture *y = &b->fixtures[i];

		snprintf(field, sizeof(field), "fixtures[%zu].name", i);
		if (!same_str(x->name, y->name))
			return refuse(field, na, x->name, nb, y->name);
		snprintf(field, sizeof(field), "fixtures[%zu].commit", i);
		if (!same_str(x->commit, y->commit))
			return refuse(field, na, x->commit, nb, y->commit);
		snprintf(field, sizeof(field), "fixtures[%zu].repo", i);
		if (!same_str(x->repo, y->repo))
			return refuse(field, na, x->repo, nb, y->repo);
	}
	return 0;
}

static const struct pmbench_result_pm *find_pm(const struct pmbench_result *r,
					       const char *name)
{
	for (size_t i = 0; i < r->found_nr; i++)
		if (!strcmp(r->found[i].name, name))
			return &r->found[i];
	return NULL;
}

static int check_versions(const struct pmbench_result *a, const char *na,
			  const struct pmbench_result *b, const char *nb)
{
	struct pmbench_buf field = PMBENCH_BUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < a->found_nr && !ret; i++) {
		const struct pmbench_result_pm *x = &a->found[i];
		const struct pmbench_result_pm *y = find_pm(b, x->name);

		if (y && same_str(x->version, y->version))
			continue;
		pmbench_buf_reset(&field);
		pmbench_buf_addf(&field, "package_managers[%s].version",
				 x->name);
		ret = refuse(field.ptr, na, x->version, nb,
			     y ? y->version : NULL);
	}
	pmbench_buf_release(&field);
	return ret;
}

/* The values of option `name` in `opts` ("name=value"), comma-joined. */
static void option_values(struct pmbench_buf *out,
			  const struct pmbench_strvec *opts, const char *name,
			  size_t len)
{
	for (size_t i = 0; i < opts->nr; i++)
		if (!strncmp(opts->v[i], name, len) && opts->v[i][len] == '=')
			pmbench_buf_addf(out, "%s%s", out->len ? ", " : "",
					 opts->v[i] + len + 1);
	if (!out->len)
		pmbench_buf_adds(out, "(default)");
}

/*
 * Whether option `e` ("name=value", of a's or b's plan_options) has the
 * same values in both; else refused, naming it.
 */
static int same_option(const char *e, const struct pmbench_result *a,
		       const char *na, const struct pmbench_result *b,
		       const char *nb)
{
	struct pmbench_buf x = PMBENCH_BUF_INIT, y = PMBENCH_BUF_INIT;
	size_t len = strcspn(e, "=");
	int ret = 0;

	option_values(&x, &a->plan_options, e, len);
	option_values(&y, &b->plan_options, e, len);
	if (strcmp(x.ptr, y.ptr))
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "cannot merge '%s' and '%s': they ran "
					 "with different --%.*s ('%s' against "
					 "'%s'): not shards of one plan; run "
					 "each shard with the same options",
					 na, nb, (int)len, e, x.ptr, y.ptr);
	pmbench_buf_release(&x);
	pmbench_buf_release(&y);
	return ret;
}

/*
 * The plans' ids: when they differ, the option that does, named from
 * the options each recorded, else the ids.
 */
static int check_plan(const struct pmbench_result *a, const char *na,
		      const struct pmbench_result *b, const char *nb)
{
	int ret = 0;

	if (same_str(a->plan_id, b->plan_id))
		return 0;
	for (size_t i = 0; i < a->plan_options.nr && !ret; i++)
		ret = same_option(a->plan_options.v[i], a, na, b, nb);
	for (size_t i = 0; i < b->plan_options.nr && !ret; i++)
		ret = same_option(b->plan_options.v[i], a, na, b, nb);
	if (!ret)
		ret = refuse("plan_id", na, a->plan_id, nb, b->plan_id);
	return ret;
}

/* Every input against the first, then no shard twice. */
static int check_all(const struct pmbench_result *in, const char *const *names,
		     size_t n)
{
	int ret = 0;

	for (size_t i = 1; i < n && !ret; i++) {
		ret = check_options(&in[0], names[0], &in[i], names[i]);
		if (!ret)
			ret = check_fixtures(&in[0], names[0], &in[i],
					     names[i]);
		if (!ret)
			ret = check_versions(&in[0], names[0], &in[i],
					     names[i]);
		if (!ret)
			ret = check_plan(&in[0], names[0], &in[i], names[i]);
	}
	for (size_t i = 0; i < n && !ret; i++)
		for (size_t j = i + 1; j < n && !ret; j++)
			if (in[i].shard && in[i].shard == in[j].shard)
				ret = pmbench_error_setc(
					PMBENCH_EINVALID,
					"cannot merge '%s' and '%s': both are "
					"shard %u/%u (field 'shard')",
					names[i], names[j], in[i].shard,
					in[i].shards);
	return ret;
}

/* ---- Rounds against the plan ------------------------------------------- */

/* "f · install · clean · npm", for messages. */
static void cell_name(struct pmbench_buf *out, const struct pmbench_cell *c)
{
	pmbench_buf_addf(out, "%s · %s · %s · %s", c->fixture, c->task,
			 c->scenario, c->pm);
}

static int refuse_round(const char *name, const struct pmbench_result *r,
			size_t cell, size_t sample, const char *why)
{
	struct pmbench_buf c = PMBENCH_BUF_INIT;
	int ret;

	cell_name(&c, &r->cells[cell]);
	ret = pmbench_error_setc(PMBENCH_EINVALID,
				 "cannot merge '%s': field "
				 "'cells[%zu].samples[%zu].round' (%s) is %u, "
				 "%s: not a result of its plan",
				 name, cell, sample, c.ptr,
				 r->cells[cell].samples[sample].round, why);
	pmbench_buf_release(&c);
	return ret;
}

/*
 * Each sample of `r` in a round its plan has (options.warmup warm-ups,
 * then options.runs timed rounds), a warm-up in a warm-up round, and a
 * shard's timed sample in its own share of the rounds.
 */
static int check_own_rounds(const struct pmbench_result *r, const char *name)
{
	char why[160];

	for (size_t i = 0; i < r->cells_nr; i++) {
		const struct pmbench_cell *c = &r->cells[i];

		for (size_t k = 0; k < c->samples_nr; k++) {
			const struct pmbench_sample *s = &c->samples[k];
			int owner = pmbench_plan_round_owner(r, s->round);

			if (owner == PMBENCH_PLAN_BEYOND) {
				snprintf(why, sizeof(why),
					 "beyond the plan's %u warm-up and %u "
					 "timed rounds (options.warmup, "
					 "options.runs)",
					 r->warmup, r->runs);
				return refuse_round(name, r, i, k, why);
			}
			if ((owner == PMBENCH_PLAN_WARMUP) != !!s->warmup)
				return refuse_round(
					name, r, i, k,
					s->warmup ? "a timed round, but the "
						    "sample is a warm-up"
						  : "a warm-up round, but the "
						    "sample is timed");
			if (s->warmup || !r->shard || owner == (int)r->shard)
				continue;
			snprintf(why, sizeof(why),
				 "a round of shard %d/%u, not of this shard "
				 "%u/%u",
				 owner, r->shards, r->shard, r->shards);
			return refuse_round(name, r, i, k, why);
		}
	}
	return 0;
}

/* A timed sample of an input, to find rounds given twice. */
struct round_ref {
	const struct pmbench_cell *cell;
	unsigned round, repeat;
	size_t input, cell_i, sample;
};

static int cmp_cells(const struct pmbench_cell *a, const struct pmbench_cell *b)
{
	int c = strcmp(a->fixture, b->fixture);

	if (!c)
		c = strcmp(a->task, b->task);
	if (!c)
		c = strcmp(a->scenario, b->scenario);
	if (!c)
		c = strcmp(a->pm, b->pm);
	return c;
}

static int by_cell_round(const void *pa, const void *pb)
{
	const struct round_ref *a = pa, *b = pb;
	int c = cmp_cells(a->cell, b->cell);

	if (c)
		return c;
	if (a->round != b->round)
		return a->round < b->round ? -1 : 1;
	if (a->repeat != b->repeat)
		return a->repeat < b->repeat ? -1 : 1;
	if (a->input != b->input)
		return a->input < b->input ? -1 : 1;
	if (a->cell_i != b->cell_i)
		return a->cell_i < b->cell_i ? -1 : 1;
	return a->sample < b->sample ? -1 : a->sample > b->sample;
}

static int refuse_twice(const struct pmbench_result *in,
			const char *const *names, const struct round_ref *a,
			const struct round_ref *b)
{
	struct pmbench_buf c = PMBENCH_BUF_INIT;
	int ret;

	cell_name(&c, a->cell);
	if (a->input == b->input)
		ret = pmbench_error_setc(
			PMBENCH_EINVALID,
			"cannot merge '%s': it has round %u of %s twice "
			"(fields 'cells[%zu].samples[%zu].round' and "
			"'cells[%zu].samples[%zu].round'): not a result of "
			"its plan",
			names[a->input], a->round, c.ptr, a->cell_i, a->sample,
			b->cell_i, b->sample);
	else
		ret = pmbench_error_setc(
			PMBENCH_EINVALID,
			"cannot merge '%s' and '%s': both have round %u of %s "
			"(field 'cells[%zu].samples[%zu].round' of '%s'): the "
			"shards of a plan share no round (shard %u/%u and "
			"%u/%u)",
			names[a->input], names[b->input], a->round, c.ptr,
			b->cell_i, b->sample, names[b->input],
			in[a->input].shard, in[a->input].shards,
			in[b->input].shard, in[b->input].shards);
	pmbench_buf_release(&c);
	return ret;
}

/*
 * No timed round of a cell twice: not within one input, and not across
 * the shards of a plan (whole runs of one plan may repeat each other's
 * rounds: they are repetitions, pooled as such).
 */
static int check_duplicates(const struct pmbench_result *in,
			    const char *const *names, size_t n)
{
	struct round_ref *refs = NULL;
	size_t nr = 0, alloc = 0;
	int ret = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; c < in[i].cells_nr; c++)
			for (size_t k = 0; k < in[i].cells[c].samples_nr; k++) {
				const struct pmbench_sample *s =
					&in[i].cells[c].samples[k];

				if (s->warmup)
					continue;
				PMBENCH_ALLOC_GROW(refs, nr + 1, alloc);
				refs[nr++] = (struct round_ref){
					.cell = &in[i].cells[c],
					.round = s->round,
					.repeat = s->repeat,
					.input = i,
					.cell_i = c,
					.sample = k,
				};
			}
	if (nr)
		qsort(refs, nr, sizeof(*refs), by_cell_round);
	for (size_t j = 1; j < nr && !ret; j++) {
		const struct round_ref *a = &refs[j - 1], *b = &refs[j];

		/* A repeat of a round (bench's budget) is no round twice. */
		if (a->round != b->round || a->repeat != b->repeat ||
		    cmp_cells(a->cell, b->cell))
			continue;
		if (a->input == b->input ||
		    (in[a->input].shards && in[b->input].shards))
			ret = refuse_twice(in, names, a, b);
	}
	free(refs);
	return ret;
}

static int check_rounds(const struct pmbench_result *in,
			const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (check_own_rounds(&in[i], names[i]) < 0)
			return PMBENCH_EINVALID;
	return check_duplicates(in, names, n);
}

static const char *env_of(const struct pmbench_result *r, const char *key)
{
	return pmbench_result_env_get(r, key);
}

/* The merged result's machine of input `r`: found, or added. */
static unsigned machine_of(struct pmbench_result *out,
			   const struct pmbench_result *r)
{
	const char *host = env_of(r, "host_hash");
	const char *cpu = env_of(r, "cpu_model");
	const char *kernel = env_of(r, "kernel");
	struct pmbench_result_machine *m;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	size_t i;

	for (i = 0; host && i < out->machines_nr; i++) {
		m = &out->machines[i];
		if (same_str(m->host, host) && same_str(m->cpu_model, cpu) &&
		    same_str(m->kernel, kernel))
			break;
	}
	if (!host || i == out->machines_nr) {
		PMBENCH_ALLOC_GROW(out->machines, out->machines_nr + 1,
				   out->machines_alloc);
		i = out->machines_nr++;
		m = &out->machines[i];
		memset(m, 0, sizeof(*m));
		pmbench_buf_addf(&b, "m%zu", i + 1);
		m->id = pmbench_buf_detach(&b);
		m->cpu_model = cpu ? pmbench_xstrdup(cpu) : NULL;
		m->kernel = kernel ? pmbench_xstrdup(kernel) : NULL;
		m->host = host ? pmbench_xstrdup(host) : NULL;
	}
	m = &out->machines[i];
	if (r->shard) {
		if (m->shards)
			pmbench_buf_addf(&b, "%s, ", m->shards);
		pmbench_buf_addf(&b, "%u/%u", r->shard, r->shards);
		free(m->shards);
		m->shards = pmbench_buf_detach(&b);
	}
	return (unsigned)i + 1;
}

static char *dup_opt(const char *s)
{
	return s ? pmbench_xstrdup(s) : NULL;
}

static void copy_sample(struct pmbench_cell *to, const struct pmbench_sample *s,
			unsigned machine)
{
	struct pmbench_sample *d = pmbench_cell_add_sample(to);

	*d = *s;
	d->failure = dup_opt(s->failure);
	d->tail = dup_opt(s->tail);
	d->state_why = dup_opt(s->state_why);
	d->nm_written = dup_opt(s->nm_written);
	d->metrics = NULL;
	d->metrics_nr = d->metrics_alloc = 0;
	for (size_t k = 0; k < s->metrics_nr; k++)
		pmbench_sample_metric_set(d, s->metrics[k].name,
					  s->metrics[k].value);
	d->phases = pmbench_phases_dup(s->phases);
	d->machine = machine;
}

/*
 * The offline proof (bench --prove-offline): kept from the part that
 * has one; a proof that failed anywhere is news for the whole.
 */
static void merge_proof(struct pmbench_cell *to, const struct pmbench_cell *c)
{
	if (!c->proof || to->proof == PMBENCH_PROOF_FAIL ||
	    (to->proof && c->proof != PMBENCH_PROOF_FAIL))
		return;
	to->proof = c->proof;
	free(to->proof_why);
	to->proof_why = dup_opt(c->proof_why);
}

static void merge_cell(struct pmbench_result *out, const struct pmbench_cell *c,
		       unsigned machine)
{
	struct pmbench_cell *to = pmbench_result_find_cell(
		out, c->fixture, c->task, c->scenario, c->pm);

	if (!to) {
		to = pmbench_result_add_cell(out, c->fixture, c->task,
					     c->scenario, c->pm);
		to->lockfile = dup_opt(c->lockfile);
		to->scripts = dup_opt(c->scripts);
		to->state = c->state;
		to->note = dup_opt(c->note);
		to->runtime = dup_opt(c->runtime);
		to->pm_version = dup_opt(c->pm_version);
		to->node = dup_opt(c->node);
		to->node_era = dup_opt(c->node_era);
		to->pm_config = dup_opt(c->pm_config);
		to->scripts_choice = c->scripts_choice;
		to->ci = c->ci;
		pmbench_strvec_pushv(&to->command,
				     (const char *const *)c->command.v);
		pmbench_strvec_pushv(&to->env, (const char *const *)c->env.v);
	}
	/* A priming that failed on one machine is news for the whole. */
	if (c->prime_failure && !to->prime_failure)
		to->prime_failure = pmbench_xstrdup(c->prime_failure);
	merge_proof(to, c);
	for (size_t k = 0; k < c->samples_nr; k++)
		copy_sample(to, &c->samples[k], machine);
}

/* Warm-ups first, then by round, then by machine: as one run reads. */
static int by_round(const void *pa, const void *pb)
{
	const struct pmbench_sample *a = pa, *b = pb;

	if (a->warmup != b->warmup)
		return a->warmup ? -1 : 1;
	if (a->round != b->round)
		return a->round < b->round ? -1 : 1;
	if (a->machine != b->machine)
		return a->machine < b->machine ? -1 : 1;
	return 0;
}

static void copy_header(struct pmbench_result *out,
			const struct pmbench_result *r)
{
	out->pmbench_version = dup_opt(r->pmbench_version);
	out->created = dup_opt(r->created);
	pmbench_strvec_pushv(&out->pms, (const char *const *)r->pms.v);
	pmbench_strvec_pushv(&out->scenarios,
			     (const char *const *)r->scenarios.v);
	pmbench_strvec_pushv(&out->tasks, (const char *const *)r->tasks.v);
	/* The shards' options as given, but for which shard each was. */
	for (size_t i = 0; i < r->arguments.nr; i++)
		if (strncmp(r->arguments.v[i], "--shard", 7))
			pmbench_strvec_push(&out->arguments, r->arguments.v[i]);
	out->runs = r->runs;
	out->warmup = r->warmup;
	out->timeout_ns = r->timeout_ns;
	out->seed = r->seed;
	out->shards = r->shards;
	out->plan_id = dup_opt(r->plan_id);
	pmbench_strvec_pushv(&out->plan_options,
			     (const char *const *)r->plan_options.v);
	for (size_t i = 0; i < r->env_nr; i++)
		pmbench_result_env_set(out, r->env[i].key, r->env[i].value);
	for (size_t i = 0; i < r->found_nr; i++) {
		struct pmbench_result_pm *p = pmbench_result_add_pm(
			out, r->found[i].name, r->found[i].path,
			r->found[i].version);

		p->base = dup_opt(r->found[i].base);
		p->config = dup_opt(r->found[i].config);
	}
	for (size_t i = 0; i < r->fixtures_nr; i++)
		pmbench_result_add_fixture(out, r->fixtures[i].name,
					   r->fixtures[i].repo,
					   r->fixtures[i].commit,
					   r->fixtures[i].subdir,
					   r->fixtures[i].description);
}

int pmbench_merge(struct pmbench_result *out, const struct pmbench_result *in,
		  const char *const *names, size_t n)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int ret;

	if (!n)
		return pmbench_error_setc(PMBENCH_EINVALID, "nothing to merge");
	ret = check_all(in, names, n);
	if (!ret)
		ret = check_rounds(in, names, n);
	if (ret < 0)
		return ret;
	copy_header(out, &in[0]);
	for (size_t i = 0; i < n; i++) {
		unsigned m = machine_of(out, &in[i]);

		for (size_t c = 0; c < in[i].cells_nr; c++)
			merge_cell(out, &in[i].cells[c], m);
	}
	/* A cell without samples (a failed priming) has no array to sort. */
	for (size_t c = 0; c < out->cells_nr; c++)
		if (out->cells[c].samples_nr)
			qsort(out->cells[c].samples, out->cells[c].samples_nr,
			      sizeof(*out->cells[c].samples), by_round);
	pmbench_buf_addf(&b, "%zu result(s) on %zu machine(s)", n,
			 out->machines_nr);
	pmbench_result_env_set(out, "merged", b.ptr);
	pmbench_buf_release(&b);
	return 0;
}

unsigned *pmbench_cell_machines(const struct pmbench_cell *c, size_t *out_n,
				size_t *out_distinct)
{
	/* One per value pmbench_cell_times() gives: a round's. */
	unsigned *m = pmbench_cell_round_machines(c, out_n);
	size_t distinct = 0;

	for (size_t i = 0; i < *out_n; i++) {
		size_t k;

		for (k = 0; k < i && m[k] != m[i]; k++)
			;
		if (k == i && m[i])
			distinct++;
	}
	*out_distinct = distinct;
	return m;
}

/* Per-machine medians: the lowest and the highest. */
static void machine_medians(struct pmbench_machine_effect *out, const double *t,
			    const unsigned *m, size_t n)
{
	double *one = pmbench_xcalloc(n, sizeof(*one));

	for (size_t i = 0; i < n; i++) {
		size_t k = 0, seen = 0;
		double med;

		for (size_t j = 0; j < i && !seen; j++)
			seen = m[j] == m[i];
		if (seen)
			continue;
		for (size_t j = i; j < n; j++)
			if (m[j] == m[i])
				one[k++] = t[j];
		med = pmbench_stats_median(one, k);
		if (!out->machines || med < out->fastest) {
			out->fastest = med;
			out->fastest_m = m[i];
		}
		if (!out->machines || med > out->slowest) {
			out->slowest = med;
			out->slowest_m = m[i];
		}
		out->machines++;
	}
	free(one);
}

int pmbench_merge_machine_effect(struct pmbench_machine_effect *out,
				 const struct pmbench_cell *c, uint64_t seed)
{
	size_t n, nm, distinct;
	double *t = pmbench_cell_times(c, &n);
	unsigned *m = pmbench_cell_machines(c, &nm, &distinct);
	struct pmbench_interval iv;
	struct pmbench_rng rng;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (distinct < 2 || n != nm)
		goto done;
	machine_medians(out, t, m, n);
	pmbench_rng_seed(&rng, seed);
	if (pmbench_stats_bootstrap_median(&iv, t, n, LEVEL, RESAMPLES, &rng))
		goto done;
	out->median = iv.point;
	out->runs_lo = iv.lo;
	out->runs_hi = iv.hi;
	pmbench_rng_seed(&rng, seed);
	if (pmbench_stats_bootstrap_median_blocks(&iv, NULL, t, m, n, LEVEL,
						  RESAMPLES, &rng))
		goto done;
	out->lo = iv.lo;
	out->hi = iv.hi;
	ret = 1;
done:
	pmbench_error_clear();
	free(t);
	free(m);
	return ret;
}
