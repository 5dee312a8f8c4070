/*
 * A PM release's Node of its own (pmrun.h): when the release a cell runs
 * (the repo's, or one asked for) declares an engines.node that the
 * fixture's Node is outside of, the cell runs under a Node in that
 * range, chosen and installed as a repo's Node is (node.h), and says so.
 */
#include "pmbench/common.h"

#include "pmbench/buf.h"
#include "pmbench/ctx.h"
#include "pmbench/node.h"
#include "pmbench/pmrun.h"
#include "pmbench/pmversion.h"
#include "pmbench/registry.h"
#include "pmbench/result.h"

const struct pmbench_node *pmbench_pmrun_node(const struct pmbench_pmrun *ps)
{
	if (ps->own_node)
		return ps->own_node;
	return ps->ctx ? ps->ctx->node : NULL;
}

void pmbench_pmrun_drop_own_node(struct pmbench_pmrun *ps)
{
	if (ps->own_node) {
		pmbench_node_release(ps->own_node);
		free(ps->own_node);
		ps->own_node = NULL;
	}
}

/*
 * Whether `release`'s installed release (into `rel`: its version and
 * engines.node) rules out the Node in use, `in_use` ("v24.22.3"): 1 or 0.
 */
static int excluded(struct pmbench_pm_release *rel,
		    const struct pmbench_pmrun *ps,
		    const struct pmbench_pm *release, const char *in_use)
{
	if (!release || !release->version || !in_use || !ps->ctx ||
	    !strcmp(release->version, PMBENCH_PM_PINNED))
		return 0;
	return !pmbench_pm_release_find(rel, ps->ctx->toolchain_dir, release,
					NULL) &&
	       rel->engines_node && *rel->engines_node &&
	       !pmbench_node_in_range(rel->engines_node, in_use);
}

/* `ps` runs under `own` (taken): its record, runtime and the event. */
static void adopt(struct pmbench_pmrun *ps, struct pmbench_node *own,
		  const char *label, const char *range)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *v = own->version[0] == 'v' ? own->version + 1
					       : own->version;

	pmbench_ctx_event(ps->ctx,
			  "%s: %s needs node %s: ran under node %s of its own",
			  ps->pm->name, label, range, v);
	pmbench_buf_addf(&b,
			 "%s: %s needs node %s: ran under node %s of its own "
			 "(%s)",
			 own->version, label, range, v, own->why);
	free(ps->node);
	ps->node = pmbench_buf_detach(&b);
	if (!ps->pm->runtime) {
		pmbench_buf_addf(&b, "node %s", own->version);
		free(ps->runtime);
		ps->runtime = pmbench_buf_detach(&b);
	}
	ps->own_node = own;
}

/*
 * Choose the Node in `rel`'s engines.node for `ps` (`label`: "pnpm
 * 10.0.0"): into `out` when it is in the range, else NULL and (`warn`)
 * a warning.
 */
static int pick(struct pmbench_node **out, struct pmbench_pmrun *ps,
		const struct pmbench_pm_release *rel, const char *label,
		int warn)
{
	struct pmbench_node_ask ask = { .spec = rel->engines_node };
	struct pmbench_buf source = PMBENCH_BUF_INIT, pinned = PMBENCH_BUF_INIT;
	struct pmbench_node *own = pmbench_xcalloc(1, sizeof(*own));
	int ret;

	*out = NULL;
	pmbench_buf_addf(&source, "%s's engines.node", label);
	ask.source = source.ptr;
	pmbench_node_pinned_dir(&pinned, ps->ctx->toolchain_dir);
	ret = pmbench_node_choose(own, ps->ctx, NULL, &ask,
				  pinned.len ? pinned.ptr : NULL);
	if (!ret && pmbench_node_in_range(ask.spec, own->version)) {
		*out = own;
		own = NULL;
	} else if (!ret && warn) {
		pmbench_ctx_warn(ps->ctx,
				 "%s: %s needs node %s, and none can be had "
				 "(%s): it runs under node %s",
				 ps->pm->name, label, ask.spec,
				 own->warning ? own->warning : "?",
				 ps->ctx->node->version);
	}
	if (own)
		pmbench_node_release(own);
	free(own);
	pmbench_buf_release(&source);
	pmbench_buf_release(&pinned);
	return ret;
}

/*
 * The Node of its own `release` needs under `ps`'s fixture (its
 * engines.node rules out the context's): into `out`, or NULL; with
 * `say`, adopted by `ps` and said (or a warning that none can be had).
 */
static int own_node_of(struct pmbench_node **out, struct pmbench_pmrun *ps,
		       const struct pmbench_pm *release, int say)
{
	const struct pmbench_node *in_use = ps->ctx ? ps->ctx->node : NULL;
	struct pmbench_pm_release rel = PMBENCH_PM_RELEASE_INIT;
	struct pmbench_buf label = PMBENCH_BUF_INIT;
	int ret = 0;

	*out = NULL;
	if (excluded(&rel, ps, release, in_use ? in_use->version : NULL)) {
		pmbench_buf_addf(
			&label, "%s %s",
			pmbench_pm_command_name(pmbench_pm_base(ps->pm)),
			rel.version);
		ret = pick(out, ps, &rel, label.ptr, say);
		if (*out && say)
			adopt(ps, *out, label.ptr, rel.engines_node);
	}
	pmbench_pm_release_release(&rel);
	pmbench_buf_release(&label);
	return ret;
}

int pmbench_pmrun_own_node(struct pmbench_pmrun *ps,
			   const struct pmbench_pm *release)
{
	struct pmbench_node *own = NULL;

	pmbench_pmrun_drop_own_node(ps);
	return own_node_of(&own, ps, release, 1);
}

int pmbench_pmrun_find_release(struct pmbench_pm_found *out,
			       struct pmbench_pmrun *ps,
			       const struct pmbench_pm *release,
			       const char *scratch)
{
	struct pmbench_node *own = NULL;
	int ret;

	pmbench_pmrun_drop_own_node(ps);
	ret = own_node_of(&own, ps, release, 0);
	ps->own_node = own;
	if (!ret)
		ret = pmbench_pmrun_find_under_node(out, ps, release, scratch);
	pmbench_pmrun_drop_own_node(ps);
	return ret;
}

int pmbench_pmrun_find_under_node(struct pmbench_pm_found *out,
				  struct pmbench_pmrun *ps,
				  const struct pmbench_pm *pm,
				  const char *scratch)
{
	const struct pmbench_node *node = ps->ctx->node;
	const char *node_dir = ps->ctx->node_dir;
	int ret;

	if (ps->own_node) {
		ps->ctx->node = ps->own_node;
		ps->ctx->node_dir = ps->own_node->bin;
	}
	ret = pmbench_pm_find(out, ps->ctx, pm, NULL, scratch);
	ps->ctx->node = node;
	ps->ctx->node_dir = node_dir;
	return ret;
}

/* The major of a Node version ("v24.22.3" -> 24), or 0. */
static int node_major(const struct pmbench_node *n)
{
	const char *v = n && n->version ? n->version : NULL;

	if (!v)
		return 0;
	return (int)strtol(v + (*v == 'v'), NULL, 10);
}

void pmbench_pmrun_era_hint(struct pmbench_pmrun *ps, struct pmbench_sample *s,
			    const char *shipped)
{
	const struct pmbench_node *node = ps->ctx ? ps->ctx->node : NULL;
	struct pmbench_buf lock = PMBENCH_BUF_INIT, storage = PMBENCH_BUF_INIT;
	struct pmbench_buf line = PMBENCH_BUF_INIT;

	/* The repo's own PM on its own lockfile, under a Node none named. */
	if (!shipped || !node || node->named || ps->own_node ||
	    !(pmbench_node_era_failure(s->failure) ||
	      pmbench_node_era_failure(s->tail)))
		return;
	pmbench_buf_addf(&lock, "%s/%s%s%s", ps->ws.source,
			 ps->ws.subdir ? ps->ws.subdir : "",
			 ps->ws.subdir && *ps->ws.subdir ? "/" : "", shipped);
	pmbench_registry_storage(&storage, ps->ctx->registry);
	if (storage.len && pmbench_node_era_hint(&line, lock.ptr, storage.ptr,
						 node_major(node)) == 0) {
		free(ps->node_era);
		ps->node_era = pmbench_xstrdup(line.ptr);
		pmbench_buf_reset(&lock);
		pmbench_buf_addf(&lock, "%s; %s", s->failure, line.ptr);
		free(s->failure);
		s->failure = pmbench_buf_detach(&lock);
	}
	pmbench_buf_release(&lock);
	pmbench_buf_release(&storage);
	pmbench_buf_release(&line);
}
