/*
 * The update task (pnpm's "update" action): on a fresh copy of the PM's
 * primed tree (cache, lockfile and node_modules), one dependency is
 * bumped outside the timed window the way ci-cache's lockfile-changed
 * job does it (pmbench_change_dependency(): deterministic, and the
 * lockfile must change), then the PM's ordinary, non-frozen install
 * is timed: it re-resolves that dependency, fetches it and relinks.
 */
#include "pmbench/common.h"

#include "pmbench/change.h"
#include "pmbench/ctx.h"
#include "pmbench/pmrun.h"
#include "pmbench/proc.h"
#include "pmbench/registry.h"
#include "pmbench/scenario.h"
#include "pmbench/workspace.h"
#include "task_ops.h"

/*
 * With the local mirror, the timed runs reach a sealed mirror that holds
 * only what the primings fetched, and the bumped dependency's release
 * below the locked one is not among it (every run then failed with the
 * mirror's 500). So while the uplink is live, the edit and the install
 * are made once, untimed; the next reset undoes them.
 */
int pmbench_task_update_prime(struct pmbench_pmrun *ps, uint64_t timeout_ns)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf what = PMBENCH_BUF_INIT;
	struct pmbench_sample s;
	int ret;

	if (ps->prime_failure || !pmbench_registry_priming(ps->ctx->registry))
		return 0;
	memset(&s, 0, sizeof(s));
	pmbench_ctx_status(ps->ctx,
			   "%s: fetching what a changed dependency "
			   "needs (not timed)",
			   ps->pm->name);
	ret = pmbench_workspace_prepare(
		&ps->ws, PMBENCH_STATE_CACHE | PMBENCH_STATE_LOCKFILE |
				 PMBENCH_STATE_NODE_MODULES);
	if (!ret)
		ret = pmbench_change_dependency(&what, ps->ws.run_project);
	if (!ret)
		ret = pmbench_pmrun_install(ps, timeout_ns, &s, &c);
	if (ret == PMBENCH_EINTERRUPTED || pmbench_ctx_cancelled(ps->ctx)) {
		ret = PMBENCH_EINTERRUPTED;
	} else if (ret < 0 || !s.ok) {
		pmbench_ctx_warn(ps->ctx,
				 "%s: the install after a changed dependency "
				 "failed while priming (%s): its timed runs "
				 "may fail too",
				 ps->pm->name,
				 ret < 0 ? pmbench_error_last() : s.failure);
		pmbench_error_clear();
		ret = 0;
	}
	pmbench_sample_release(&s);
	pmbench_child_release(&c);
	pmbench_buf_release(&what);
	return ret;
}

int pmbench_task_update_prepare(const struct pmbench_task_job *j)
{
	struct pmbench_buf what = PMBENCH_BUF_INIT;
	int ret = pmbench_task_primed_prepare(j);

	if (!ret)
		ret = pmbench_change_dependency(&what, j->ps->ws.run_project);
	pmbench_buf_release(&what);
	return ret;
}

int pmbench_task_update_run(const struct pmbench_task_job *j,
			    struct pmbench_sample *s,
			    struct pmbench_strvec *argv_out)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	/* ps->command is the ordinary install: never the frozen one. */
	int ret = pmbench_pmrun_install(j->ps, j->timeout_ns, s, &c);

	(void)argv_out; /* the cell's command, always */
	pmbench_child_release(&c);
	return ret;
}
