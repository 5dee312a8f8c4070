/*
 * The install task: once per scenario, from a fresh copy of the checkout
 * put into the scenario's state (cache, lockfile, node_modules restored
 * from the primed snapshot or emptied), the PM's install command.
 */
#include "pmbench/common.h"

#include "pmbench/explain.h"
#include "pmbench/pmrun.h"
#include "pmbench/proc.h"
#include "pmbench/registry.h"
#include "pmbench/ctx.h"
#include "pmbench/fs.h"
#include "pmbench/scenario.h"
#include "pmbench/scriptcheck.h"
#include "pmbench/statecheck.h"
#include "pmbench/workspace.h"
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

/* The run copy's own lockfile into `out` (empty without one). */
static void read_lockfile(struct pmbench_buf *out,
			  const struct pmbench_pmrun *ps)
{
	const char *lock = pmbench_workspace_run_lockfile(&ps->ws);
	struct pmbench_buf p = PMBENCH_BUF_INIT;

	pmbench_buf_reset(out);
	if (lock) {
		pmbench_buf_path(&p, ps->ws.run_project, lock);
		if (pmbench_fs_read(out, p.ptr, SIZE_MAX) < 0)
			pmbench_error_clear();
	}
	pmbench_buf_release(&p);
}

/*
 * With node_modules in place: what the run wrote there after `since`
 * (the metric node_modules_written_count, the first paths).
 */
static void record_written(const struct pmbench_task_job *j,
			   struct pmbench_sample *s,
			   const struct timespec *since)
{
	struct pmbench_strvec names = PMBENCH_STRVEC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	uint64_t n = 0;

	if (pmbench_workspace_node_modules_written(&j->ps->ws, since,
						   PMBENCH_NM_WRITTEN_KEEP, &n,
						   &names) < 0) {
		pmbench_error_clear();
		goto done;
	}
	pmbench_sample_metric_set(s, "node_modules_written_count", (double)n);
	free(s->nm_written);
	pmbench_strvec_join(&b, &names, ", ");
	s->nm_written = names.nr ? pmbench_buf_detach(&b) : NULL;
done:
	pmbench_strvec_release(&names);
	pmbench_buf_release(&b);
}

/*
 * What the state check needs beside the mirror's counts (statecheck.h):
 * the tarballs the tree needs, whether the lockfile changed; then the
 * check.
 */
static void check_state(const struct pmbench_task_job *j,
			struct pmbench_sample *s,
			const struct pmbench_buf *before,
			const struct timespec *since)
{
	struct pmbench_buf after = PMBENCH_BUF_INIT;

	if (!s->ok)
		return;
	if (j->ps->tree_tarballs > 0)
		pmbench_sample_metric_set(s, "tree_tarballs_count",
					  j->ps->tree_tarballs);
	if (j->state & PMBENCH_STATE_LOCKFILE) {
		read_lockfile(&after, j->ps);
		pmbench_sample_metric_set(s, "lockfile_changed_count",
					  after.len != before->len ||
						  memcmp(after.ptr, before->ptr,
							 after.len));
	} else if (j->ps->ci)
		pmbench_sample_metric_set(
			s, "lockfile_written_count",
			pmbench_workspace_run_lockfile(&j->ps->ws) != NULL);
	if (j->state & PMBENCH_STATE_NODE_MODULES)
		record_written(j, s, since);
	pmbench_state_check_sample(s, j->state, j->ps->pm, j->ps->pm_config);
	pmbench_scripts_check_sample(s, j->state, j->ps->scripts_choice,
				     &j->ps->script_packages);
	pmbench_buf_release(&after);
}

int pmbench_task_install_run(const struct pmbench_task_job *j,
			     struct pmbench_sample *s,
			     struct pmbench_strvec *argv_out)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf before = PMBENCH_BUF_INIT;
	struct timespec since;
	int ret;

	(void)argv_out; /* the cell's command, always */
	if (j->state & PMBENCH_STATE_LOCKFILE)
		read_lockfile(&before, j->ps);
	/* The file system's clock: what the prepare wrote is not later. */
	if (pmbench_fs_time_mark(&since, j->ps->ws.root) < 0)
		pmbench_error_clear();
	ret = pmbench_pmrun_install(j->ps, j->timeout_ns, s, &c);
	if (!ret)
		check_state(j, s, &before, &since);
	pmbench_child_release(&c);
	pmbench_buf_release(&before);
	return ret;
}

int pmbench_task_install_explain(const struct pmbench_task_job *j,
				 struct pmbench_explain_run *out,
				 const char *label)
{
	return pmbench_explain_install(out, j->ps, j->timeout_ns, label);
}

int pmbench_task_install_prove(const struct pmbench_task_job *j,
			       struct pmbench_cell *cell)
{
	struct pmbench_registry *reg = j->ps->ctx ? j->ps->ctx->registry : NULL;
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	struct pmbench_sample s;
	int ret;

	memset(&s, 0, sizeof(s));
	ret = pmbench_registry_refuse(reg, PMBENCH_REGISTRY_REFUSE_STATUS);
	if (ret < 0)
		goto done;
	ret = pmbench_pmrun_install(j->ps, j->timeout_ns, &s, &c);
	pmbench_registry_refuse(reg, 0);
	if (ret < 0)
		goto done;
	cell->proof = pmbench_state_proof(&why, &s);
	free(cell->proof_why);
	cell->proof_why = why.len ? pmbench_buf_detach(&why) : NULL;
done:
	pmbench_sample_release(&s);
	pmbench_child_release(&c);
	pmbench_buf_release(&why);
	return ret;
}
