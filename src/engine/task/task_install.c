/*
 * The install task: once per scenario, from a fresh copy of the checkout
 * put into the scenario's state (cache, lockfile, node_modules restored
 * from the primed snapshot or emptied), the PM's install command.
 */
#include "pmbench/common.h"

#include "pmbench/explain.h"
#include "pmbench/pmrun.h"
#include "pmbench/proc.h"
#include "pmbench/scenario.h"
#include "task_ops.h"

void pmbench_task_install_describe(struct pmbench_cell *cell,
				   const struct pmbench_task_job *j)
{
	for (size_t i = 0; i < j->ps->command.nr; i++)
		pmbench_strvec_push(&cell->command, j->ps->command.v[i]);
	PMBENCH_PMRUN_ENV_RECORD(&cell->env, j->ps);
}

int pmbench_task_install_prepare(const struct pmbench_task_job *j)
{
	return pmbench_workspace_prepare(&j->ps->ws, j->state);
}

int pmbench_task_install_run(const struct pmbench_task_job *j,
			     struct pmbench_sample *s,
			     struct pmbench_strvec *argv_out)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	int ret = pmbench_pmrun_install(j->ps, j->timeout_ns, s, &c);

	(void)argv_out; /* the cell's command, always */
	pmbench_child_release(&c);
	return ret;
}

int pmbench_task_install_explain(const struct pmbench_task_job *j,
				 struct pmbench_explain_run *out,
				 const char *label)
{
	return pmbench_explain_install(out, j->ps, j->timeout_ns, label);
}
