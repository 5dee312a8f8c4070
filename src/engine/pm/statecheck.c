/*
 * The state check of an install run (statecheck.h): its scenario's
 * rules judged from what the run recorded, with each PM's documented
 * exceptions from its table entry (struct pmbench_pm_known).
 */
#include "pmbench/common.h"

#include "pmbench/pm.h"
#include "pmbench/scenario.h"
#include "pmbench/statecheck.h"

/* What the rules found: the broken ones' reasons, and known ones'. */
struct verdict {
	struct pmbench_buf failed;
	struct pmbench_buf known;
	int judged;
};

/* The documented exception of `pm` to `rule` under `pm_config`, or NULL. */
static const struct pmbench_pm_known *known_of(const struct pmbench_pm *pm,
					       enum pmbench_check_rule rule,
					       const char *pm_config)
{
	const struct pmbench_pm_known *k = pm ? pm->known : NULL;

	if (!k && pm && pm->base)
		k = pmbench_pm_base(pm)->known;
	for (; k && k->why; k++)
		if (k->rule == rule &&
		    (!k->config || (pm_config && strstr(pm_config, k->config))))
			return k;
	return NULL;
}

/* A broken rule: known (the table says why) or failed. */
static void broken(struct verdict *v, const struct pmbench_pm *pm,
		   enum pmbench_check_rule rule, const char *pm_config,
		   const char *what)
{
	const struct pmbench_pm_known *k = known_of(pm, rule, pm_config);
	struct pmbench_buf *b = k ? &v->known : &v->failed;

	pmbench_buf_addf(b, "%s%s", b->len ? "; " : "", what);
	if (k)
		pmbench_buf_addf(b, ": known: %s (%s)", k->why, k->source);
}

/* The registry's rules: tarballs as the cache says, packuments. */
static void check_registry(struct verdict *v, const struct pmbench_sample *s,
			   unsigned state, const struct pmbench_pm *pm,
			   const char *pm_config)
{
	double meta, tgz, need = 0;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (!pmbench_sample_metric_get(s, "registry_meta_requests", &meta) ||
	    !pmbench_sample_metric_get(s, "registry_tarball_requests", &tgz))
		return;
	v->judged = 1;
	pmbench_sample_metric_get(s, "tree_tarballs_count", &need);
	if (!(state & (PMBENCH_STATE_CACHE | PMBENCH_STATE_NODE_MODULES)) &&
	    tgz < need) {
		pmbench_buf_addf(
			&b,
			"warm: %.0f of the tree's %.0f tarballs "
			"downloaded with an empty cache: the PM read a "
			"cache pmbench did not clear",
			tgz, need);
		broken(v, pm, PMBENCH_RULE_COLD_TARBALLS, pm_config, b.ptr);
	}
	pmbench_buf_reset(&b);
	if ((state & PMBENCH_STATE_CACHE) &&
	    !(state & PMBENCH_STATE_NODE_MODULES) && tgz > 0) {
		pmbench_buf_addf(&b,
				 "%.0f tarball%s downloaded with a warm cache",
				 tgz, tgz == 1 ? "" : "s");
		broken(v, pm, PMBENCH_RULE_WARM_TARBALLS, pm_config, b.ptr);
	}
	pmbench_buf_reset(&b);
	if ((state & PMBENCH_STATE_LOCKFILE) && meta > 0) {
		pmbench_buf_addf(&b,
				 "resolved again: %.0f packument request%s "
				 "with the lockfile",
				 meta, meta == 1 ? "" : "s");
		broken(v, pm, PMBENCH_RULE_LOCK_PACKUMENTS, pm_config, b.ptr);
	}
	pmbench_buf_release(&b);
}

/* The files' rule: the lockfile unchanged. */
static void check_files(struct verdict *v, const struct pmbench_sample *s,
			unsigned state, const struct pmbench_pm *pm,
			const char *pm_config)
{
	double changed;

	if ((state & PMBENCH_STATE_LOCKFILE) &&
	    pmbench_sample_metric_get(s, "lockfile_changed_count", &changed)) {
		v->judged = 1;
		if (changed > 0)
			broken(v, pm, PMBENCH_RULE_LOCK_CHANGED, pm_config,
			       "resolved again: the lockfile changed");
	}
}

/* The node_modules rule: nothing written into it when in place. */
static void check_node_modules(struct verdict *v,
			       const struct pmbench_sample *s, unsigned state,
			       const struct pmbench_pm *pm,
			       const char *pm_config)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	double n;

	if (!(state & PMBENCH_STATE_NODE_MODULES) ||
	    !pmbench_sample_metric_get(s, "node_modules_written_count", &n))
		return;
	v->judged = 1;
	if (n > 0) {
		pmbench_buf_addf(&b, "%.0f entr%s written into node_modules", n,
				 n == 1 ? "y" : "ies");
		if (s->nm_written)
			pmbench_buf_addf(&b, " (%s%s)", s->nm_written,
					 n > PMBENCH_NM_WRITTEN_KEEP ? ", ..."
								     : "");
		broken(v, pm, PMBENCH_RULE_NM_UNTOUCHED, pm_config, b.ptr);
	}
	pmbench_buf_release(&b);
}

int pmbench_state_check(struct pmbench_buf *why, const struct pmbench_sample *s,
			unsigned state, const struct pmbench_pm *pm,
			const char *pm_config)
{
	struct verdict v = { PMBENCH_BUF_INIT, PMBENCH_BUF_INIT, 0 };
	int ret = PMBENCH_CHECK_PASS;

	check_registry(&v, s, state, pm, pm_config);
	check_files(&v, s, state, pm, pm_config);
	check_node_modules(&v, s, state, pm, pm_config);
	if (v.failed.len) {
		ret = PMBENCH_CHECK_FAIL;
		pmbench_buf_add(why, v.failed.ptr, v.failed.len);
	} else if (v.known.len) {
		ret = PMBENCH_CHECK_KNOWN;
		pmbench_buf_add(why, v.known.ptr, v.known.len);
	} else if (!v.judged) {
		ret = PMBENCH_CHECK_NONE;
	}
	pmbench_buf_release(&v.failed);
	pmbench_buf_release(&v.known);
	return ret;
}

void pmbench_state_check_sample(struct pmbench_sample *s, unsigned state,
				const struct pmbench_pm *pm,
				const char *pm_config)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT;

	s->state_check = pmbench_state_check(&why, s, state, pm, pm_config);
	free(s->state_why);
	s->state_why = why.len ? pmbench_buf_detach(&why) : NULL;
	pmbench_buf_release(&why);
}

int pmbench_state_warm(unsigned state)
{
	return !!(state & (PMBENCH_STATE_CACHE | PMBENCH_STATE_NODE_MODULES));
}

/* "3 requests (2 packuments, 1 tarball)": what a run asked the mirror. */
static void add_requests(struct pmbench_buf *b, double meta, double tgz,
			 double other)
{
	double all = meta + tgz + other;
	const char *sep = " (";

	pmbench_buf_addf(b, "%.0f request%s", all, all == 1 ? "" : "s");
	if (meta) {
		pmbench_buf_addf(b, "%s%.0f packument%s", sep, meta,
				 meta == 1 ? "" : "s");
		sep = ", ";
	}
	if (tgz) {
		pmbench_buf_addf(b, "%s%.0f tarball%s", sep, tgz,
				 tgz == 1 ? "" : "s");
		sep = ", ";
	}
	if (other)
		pmbench_buf_addf(b, "%s%.0f other", sep, other);
	if (all)
		pmbench_buf_addch(b, ')');
}

int pmbench_state_proof(struct pmbench_buf *why, const struct pmbench_sample *s)
{
	double meta, tgz, other = 0;

	if (!pmbench_sample_metric_get(s, "registry_meta_requests", &meta) ||
	    !pmbench_sample_metric_get(s, "registry_tarball_requests", &tgz))
		return PMBENCH_PROOF_NONE;
	pmbench_sample_metric_get(s, "registry_other_requests", &other);
	if (!s->ok) {
		pmbench_buf_addf(why, "not warm: it failed with the registry "
				      "offline, after ");
		add_requests(why, meta, tgz, other);
		pmbench_buf_addf(why, ": %s",
				 s->failure ? s->failure : "failed");
		return PMBENCH_PROOF_FAIL;
	}
	if (meta + tgz + other > 0) {
		pmbench_buf_adds(why, "not warm: it asked the registry ");
		add_requests(why, meta, tgz, other);
		pmbench_buf_adds(why, " with it offline, every one refused, "
				      "and went on");
		return PMBENCH_PROOF_FAIL;
	}
	pmbench_buf_adds(why, "installed with the registry offline, asking "
			      "it nothing");
	return PMBENCH_PROOF_PASS;
}
