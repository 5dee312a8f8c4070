/*
 * The resolve task: the PM's lockfile-only install (pnpm's "resolution
 * only" action), once per install scenario: resolve the dependency tree
 * and write the lockfile, download and link nothing. The command is the
 * PM table's resolve_args; a PM without one (yarn 1) says so in its
 * cell and gets no time.
 */
#include "pmbench/common.h"

#include "pmbench/pm.h"
#include "pmbench/pmrun.h"
#include "pmbench/proc.h"
#include "task_ops.h"

const char *pmbench_task_resolve_unsupported(const struct pmbench_task_job *j)
{
	return j->ps->pm->resolve_args ? NULL
				       : "n/a: it has no lockfile-only install";
}

/* The lockfile-only command: binary, resolve_args, a variant's args. */
static void resolve_argv(struct pmbench_strvec *out,
			 const struct pmbench_task_job *j)
{
	const struct pmbench_pm *pm = j->ps->pm;

	pmbench_strvec_push(out, j->ps->found.path);
	pmbench_pm_push_args(out, pm->resolve_args, j->ps->ws.cache);
	if (pm->variant)
		pmbench_pm_push_args(out, pm->variant->args, j->ps->ws.cache);
	pmbench_pmrun_fixture_flags(out, j->f, pm);
}

void pmbench_task_resolve_describe(struct pmbench_cell *cell,
				   const struct pmbench_task_job *j)
{
	/* No command to say (bench marks the cell unsupported). */
	if (pmbench_task_resolve_unsupported(j))
		return;
	resolve_argv(&cell->command, j);
	PMBENCH_PMRUN_ENV_RECORD(&cell->env, j->ps);
}

int pmbench_task_resolve_run(const struct pmbench_task_job *j,
			     struct pmbench_sample *s,
			     struct pmbench_strvec *argv_out)
{
	struct pmbench_strvec argv = PMBENCH_STRVEC_INIT;
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	int ret;

	resolve_argv(&argv, j);
	ret = pmbench_pmrun_exec(j->ps, &argv, j->ps->ws.run_project,
				 j->timeout_ns, s, &c);
	/* It links nothing: no node_modules size to show, not 0 bytes. */
	s->no_node_modules = 1;
	if (argv_out) {
		pmbench_strvec_release(argv_out);
		pmbench_strvec_pushv(argv_out, (const char *const *)argv.v);
	}
	pmbench_strvec_release(&argv);
	pmbench_child_release(&c);
	return ret;
}
