/*
 * What every report kind ends with: the legend of the package managers,
 * and on pages the failures with their output and the environment.
 */
#include "pmbench/common.h"

#include "internal.h"
#include "pmbench/schedule.h"
#include "pmbench/result.h"

/* Does a cell of `r` name the PM `name`? */
static int shown_pm(const struct pmbench_result *r, const char *name)
{
	for (size_t i = 0; i < r->cells_nr; i++)
		if (!strcmp(r->cells[i].pm, name))
			return 1;
	return 0;
}

/*
 * The hook for PM variants (npm:linked, yarn-berry:pnp): each is its own
 * column, and this legend is where every report says what it is. When
 * struct pmbench_result_pm gains `config` and `base`, add them to the
 * value here ("11.0.0, config linked (path)"), and every format of every
 * kind shows them.
 */
static void legend_value(struct pmbench_buf *out,
			 const struct pmbench_result_pm *pm)
{
	pmbench_buf_adds(out, pm->version ? pm->version : "not found");
	if (pm->config)
		pmbench_buf_addf(out, ", %s", pm->config);
	if (pm->path)
		pmbench_buf_addf(out, " (%s)", pm->path);
}

void pmbench_kind_legend(struct pmbench_doc *d, const struct pmbench_result *r,
			 const char *label)
{
	struct pmbench_doc_block *kv = NULL;
	struct pmbench_buf v = PMBENCH_BUF_INIT;
	int any = 0;

	for (size_t i = 0; i < r->found_nr; i++)
		any |= shown_pm(r, r->found[i].name);
	for (size_t i = 0; i < r->found_nr; i++) {
		const struct pmbench_result_pm *pm = &r->found[i];

		/* The PMs the cells show; all of them if none matches. */
		if (any && !shown_pm(r, pm->name))
			continue;
		if (!kv) {
			if (label)
				pmbench_doc_heading(d, PMBENCH_DOC_HUMAN, 2,
						    "package managers (%s)",
						    label);
			else
				pmbench_doc_heading(d, PMBENCH_DOC_HUMAN, 2,
						    "package managers");
			kv = pmbench_doc_kv(d, PMBENCH_DOC_HUMAN,
					    label && !strcmp(label, "B")
						    ? "package_managers_b"
					    : label ? "package_managers_a"
						    : "package_managers");
		}
		pmbench_buf_reset(&v);
		legend_value(&v, pm);
		pmbench_doc_pair(kv, pm->name, "%s", v.ptr);
	}
	/* Which registry and link every result of the file used. */
	if (kv && pmbench_result_env_get(r, "registry")) {
		pmbench_buf_reset(&v);
		pmbench_kind_registry(&v, r);
		pmbench_doc_pair(kv, "registry", "%s", v.ptr);
	}
	/* The runtime's compile cache, warm or cold (results since). */
	if (kv && pmbench_result_env_get(r, "runtime_cache"))
		pmbench_doc_pair(kv, "compile cache", "%s",
				 pmbench_result_env_get(r, "runtime_cache"));
	pmbench_buf_release(&v);
}

void pmbench_kind_registry(struct pmbench_buf *out,
			   const struct pmbench_result *r)
{
	const char *mode = pmbench_result_env_get(r, "registry");
	const char *link = pmbench_result_env_get(r, "link");

	/* Results from before the mirror reached the live registry. */
	if (!mode || !strcmp(mode, "live")) {
		pmbench_buf_adds(out, "live (the network to the registry of "
				      "the user's npm config)");
		return;
	}
	pmbench_buf_addf(out, "local mirror, warm; link: %s",
			 link ? link : "none");
}

int pmbench_kind_same_registry(const struct pmbench_result *a,
			       const struct pmbench_result *b)
{
	const char *ma = pmbench_result_env_get(a, "registry");
	const char *mb = pmbench_result_env_get(b, "registry");
	const char *la = pmbench_result_env_get(a, "link");
	const char *lb = pmbench_result_env_get(b, "link");

	ma = ma ? ma : "live";
	mb = mb ? mb : "live";
	la = la ? la : "none";
	lb = lb ? lb : "none";
	return !strcmp(ma, mb) && !strcmp(la, lb);
}

void pmbench_kind_environment(struct pmbench_doc *d,
			      const struct pmbench_result *r)
{
	struct pmbench_doc_block *kv;
	struct pmbench_buf key = PMBENCH_BUF_INIT, v = PMBENCH_BUF_INIT;

	if (!r->env_nr && !r->fixtures_nr)
		return;
	pmbench_doc_heading(d, PMBENCH_DOC_PAGE, 2, "Environment");
	kv = pmbench_doc_kv(d, PMBENCH_DOC_PAGE, "environment");
	for (size_t i = 0; i < r->env_nr; i++)
		pmbench_doc_pair(kv, r->env[i].key, "%s", r->env[i].value);
	for (size_t i = 0; i < r->fixtures_nr; i++) {
		const struct pmbench_result_fixture *f = &r->fixtures[i];

		pmbench_buf_reset(&key);
		pmbench_buf_reset(&v);
		pmbench_buf_addf(&key, "fixture %s", f->name ? f->name : "?");
		pmbench_buf_adds(&v, f->repo ? f->repo : "(local)");
		if (f->commit)
			pmbench_buf_addf(&v, " @ %s", f->commit);
		if (f->description)
			pmbench_buf_addf(&v, ": %s", f->description);
		pmbench_doc_pair(kv, key.ptr, "%s", v.ptr);
	}
	pmbench_buf_release(&key);
	pmbench_buf_release(&v);
}

/* "npm, f · install · clean, round 3: why", then its output. */
static void failure(struct pmbench_doc *d, const struct pmbench_cell *c,
		    const struct pmbench_sample *s, const char *why)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_addf(&b, "%s, %s · %s · %s, ", c->pm, c->fixture, c->task,
			 c->scenario);
	if (s)
		pmbench_buf_addf(&b, "round %u: %s", s->round, why);
	else
		pmbench_buf_addf(&b, "priming: %s", why);
	pmbench_doc_para(d, PMBENCH_DOC_PAGE, "%s", b.ptr);
	if (s && s->tail)
		pmbench_doc_code(d, PMBENCH_DOC_PAGE, s->tail);
	pmbench_buf_release(&b);
}

void pmbench_kind_failures(struct pmbench_doc *d,
			   const struct pmbench_result *r)
{
	int any = 0;

	for (size_t i = 0; i < r->cells_nr; i++) {
		const struct pmbench_cell *c = &r->cells[i];

		for (size_t k = 0; k <= c->samples_nr; k++) {
			const struct pmbench_sample *s =
				k < c->samples_nr ? &c->samples[k] : NULL;
			const char *why = s ? s->failure : c->prime_failure;

			/* Interrupted runs are no failures. */
			if (s && (s->ok || s->interrupted))
				continue;
			if (s && !why)
				why = "unknown";
			if (!why)
				continue;
			if (!any)
				pmbench_doc_heading(d, PMBENCH_DOC_PAGE, 2,
						    "Failures");
			any = 1;
			failure(d, c, s, why);
		}
	}
}

/*
 * "--runs auto (target ±10%, at most 30 rounds a scenario; the most a
 * scenario ran: 5 rounds)": the budget as it was set, then what it
 * spent (`runs` is the most rounds a scenario ran, not a cap).
 */
static void auto_budget(struct pmbench_buf *b, const struct pmbench_result *r)
{
	pmbench_buf_addf(b, "--runs auto (target ±%g%%", r->auto_target * 100);
	if (r->auto_budget_ns)
		pmbench_buf_addf(b, ", budget %.0f s",
				 (double)r->auto_budget_ns / 1e9);
	if (r->auto_max_runs)
		pmbench_buf_addf(b, ", at most %u rounds a scenario",
				 r->auto_max_runs);
	pmbench_buf_addf(b, "; the most a scenario ran: %u round%s)", r->runs,
			 r->runs == 1 ? "" : "s");
}

void pmbench_kind_created(struct pmbench_doc *d, const struct pmbench_result *r,
			  const char *more)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_addf(&b, "Created %s by pmbench %s; ",
			 r->created ? r->created : "(unknown)",
			 r->pmbench_version ? r->pmbench_version : "?");
	if (r->runs_auto)
		auto_budget(&b, r);
	else if (r->shard)
		pmbench_buf_addf(&b,
				 "shard %u of %u: %u of the plan's %u timed "
				 "run(s)",
				 r->shard, r->shards,
				 pmbench_schedule_shard_runs(r->runs, r->shard,
							     r->shards),
				 r->runs);
	else
		pmbench_buf_addf(&b, "%u timed run(s)", r->runs);
	pmbench_buf_addf(&b, " and %s%u warm-up(s) per cell, seed %llu.",
			 r->machines_nr ? "each input's " : "", r->warmup,
			 (unsigned long long)r->seed);
	if (r->machines_nr)
		pmbench_buf_addf(&b, " Merged: %s (plan %s).",
				 pmbench_result_env_get(r, "merged")
					 ? pmbench_result_env_get(r, "merged")
					 : "?",
				 r->plan_id ? r->plan_id : "?");
	if (more)
		pmbench_buf_addf(&b, " %s", more);
	pmbench_doc_para(d, PMBENCH_DOC_PAGE, "%s", b.ptr);
	pmbench_buf_release(&b);
}
