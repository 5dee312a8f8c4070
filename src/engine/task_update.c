/*
 * The update task (pnpm's "update" action): on a fresh copy of the PM's
 * primed tree (cache, lockfile and node_modules), one dependency is
 * bumped outside the timed window the way ci-cache's lockfile-changed
 * job does it (pmbench_cicache_change_dependency(): deterministic, and
 * the lockfile must change), then the PM's ordinary, non-frozen install
 * is timed: it re-resolves that dependency, fetches it and relinks.
 */
#include "pmbench/common.h"

#include "pmbench/cicache.h"
#include "pmbench/pmrun.h"
#include "pmbench/proc.h"
#include "task_ops.h"

int pmbench_task_update_prepare(const struct pmbench_task_job *j)
{
	struct pmbench_buf what = PMBENCH_BUF_INIT;
	int ret = pmbench_task_primed_prepare(j);

	if (!ret)
		ret = pmbench_cicache_change_dependency(&what,
							j->ps->ws.run_project);
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
