/*
 * The tasks that are `<pm> run <script>` in the PM's primed tree: run
 * (pmbench's no-op script, the fixture's own scripts, and the bare
 * baselines beside them), build (then its output folder is measured) and
 * lint. test (task_test.c) runs its script the same way.
 */
#include "pmbench/common.h"

#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/monorepo.h"
#include "pmbench/pmrun.h"
#include "pmbench/proc.h"
#include "task_ops.h"

const char *pmbench_task_run_script(const struct pmbench_fixture *f,
				    const char *cell)
{
	const char *colon = strchr(cell, ':');

	(void)f;
	/* "run:lint" runs the fixture's "lint". */
	return colon ? colon + 1 : PMBENCH_TASK_NOOP_SCRIPT;
}

const char *pmbench_task_build_script(const struct pmbench_fixture *f,
				      const char *cell)
{
	(void)cell;
	return pmbench_fixture_get(f, "build", "script");
}

void pmbench_task_build_output(struct pmbench_buf *out, const char *project,
			       const struct pmbench_fixture *f, int guess)
{
	static const char *const usual[] = { "dist", "build", "out", ".next" };
	const char *output = pmbench_fixture_get(f, "build", "output");

	if (output || !guess) {
		if (output)
			pmbench_buf_path(out, project, output);
		return;
	}
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(usual); i++) {
		pmbench_buf_reset(out);
		pmbench_buf_path(out, project, usual[i]);
		if (pmbench_fs_isdir(out->ptr))
			return;
	}
	pmbench_buf_reset(out);
}

const char *pmbench_task_lint_script(const struct pmbench_fixture *f,
				     const char *cell)
{
	(void)f;
	(void)cell;
	return "lint";
}

void pmbench_task_script_describe(struct pmbench_cell *cell,
				  const struct pmbench_task_job *j)
{
	pmbench_task_run_argv(&cell->command, j->ps,
			      j->task->script(j->f, j->cell), NULL);
	PMBENCH_PMRUN_ENV_RECORD(&cell->env, j->ps);
}

int pmbench_task_run_prepare(const struct pmbench_task_job *j)
{
	return pmbench_task_prepare(j->ps, j->f, 1);
}

int pmbench_task_script_exec(const struct pmbench_task_job *j,
			     struct pmbench_sample *s,
			     struct pmbench_strvec *argv_out,
			     struct pmbench_child *c)
{
	struct pmbench_strvec argv = PMBENCH_STRVEC_INIT;
	int ret;

	pmbench_task_run_argv(&argv, j->ps, j->task->script(j->f, j->cell),
			      NULL);
	ret = pmbench_pmrun_exec(j->ps, &argv, j->ps->ws.run_project,
				 j->timeout_ns, s, c);
	if (argv_out) {
		pmbench_strvec_release(argv_out);
		pmbench_strvec_pushv(argv_out, (const char *const *)argv.v);
	}
	pmbench_strvec_release(&argv);
	return ret;
}

int pmbench_task_script_run(const struct pmbench_task_job *j,
			    struct pmbench_sample *s,
			    struct pmbench_strvec *argv_out)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	int ret = pmbench_task_script_exec(j, s, argv_out, &c);

	pmbench_child_release(&c);
	return ret;
}

/*
 * The size and file count of every output folder `dirs` names (relative
 * to `project`) into `sum`. Returns 0 or an error.
 */
static int outputs_usage(struct pmbench_fs_usage *sum, const char *project,
			 const struct pmbench_strvec *dirs)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int ret = 0;

	memset(sum, 0, sizeof(*sum));
	for (size_t i = 0; i < dirs->nr && !ret; i++) {
		struct pmbench_fs_usage u;

		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, project, dirs->v[i]);
		ret = pmbench_fs_usage(&u, p.ptr);
		sum->apparent_bytes += u.apparent_bytes;
		sum->files += u.files;
		sum->dirs += u.dirs;
	}
	pmbench_buf_release(&p);
	return ret;
}

/*
 * The build, then the manifest's output folder, in the project and in
 * each of its workspace packages: their size and file count as metrics.
 * A build that exits 0 but leaves no such folder, or only empty ones,
 * is a failed run.
 */
int pmbench_task_build_run(const struct pmbench_task_job *j,
			   struct pmbench_sample *s,
			   struct pmbench_strvec *argv_out)
{
	const char *output = pmbench_fixture_get(j->f, "build", "output");
	struct pmbench_strvec dirs = PMBENCH_STRVEC_INIT;
	struct pmbench_fs_usage u;
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	int ret = pmbench_task_script_run(j, s, argv_out);

	if (ret < 0 || !s->ok || !output)
		goto done;
	if (pmbench_monorepo_outputs(&dirs, j->ps->ws.run_project, output) <
		    0 ||
	    !dirs.nr || outputs_usage(&u, j->ps->ws.run_project, &dirs) < 0) {
		pmbench_error_clear();
		pmbench_buf_addf(&why,
				 "the build exited 0 but wrote no "
				 "'%s' folder (the manifest's "
				 "build.output) in the project or its "
				 "workspace packages",
				 output);
		pmbench_task_fail(s, why.ptr, NULL);
		goto done;
	}
	pmbench_sample_metric_set(s, "output_bytes", (double)u.apparent_bytes);
	pmbench_sample_metric_set(s, "output_files", (double)u.files);
	if (!u.files) {
		pmbench_buf_addf(&why,
				 "the build exited 0 but its output "
				 "folder '%s' is empty",
				 output);
		pmbench_task_fail(s, why.ptr, NULL);
	}
done:
	pmbench_strvec_release(&dirs);
	pmbench_buf_release(&why);
	return ret;
}

size_t pmbench_task_baselines(struct pmbench_strvec argv[2], const char *pms[2],
			      int node_run)
{
	pmbench_strvec_push(&argv[0], "node");
	pmbench_strvec_push(&argv[0], "-e");
	pmbench_strvec_push(&argv[0], "0");
	pms[0] = PMBENCH_TASK_BARE_NODE;
	if (!node_run)
		return 1;
	pmbench_strvec_push(&argv[1], "node");
	pmbench_strvec_push(&argv[1], "--run");
	pmbench_strvec_push(&argv[1], PMBENCH_TASK_NOOP_SCRIPT);
	pms[1] = PMBENCH_TASK_NODE_RUN;
	return 2;
}

int pmbench_task_bare(struct pmbench_ctx *ctx,
		      const struct pmbench_strvec *argv, const char *dir,
		      const struct pmbench_strvec *env, uint64_t timeout_ns,
		      struct pmbench_sample *s)
{
	struct pmbench_pmrun bare;
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	int ret;

	/* pmbench_pmrun_exec() only reads the context and the deltas. */
	memset(&bare, 0, sizeof(bare));
	bare.ctx = ctx;
	bare.env = *env;
	ret = pmbench_pmrun_exec(&bare, argv, dir, timeout_ns, s, &c);
	pmbench_child_release(&c);
	return ret;
}
