#ifndef PMBENCH_ENGINE_TASK_OPS_H
#define PMBENCH_ENGINE_TASK_OPS_H

/*
 * The operations of the task table (src/engine/task.c), private to the
 * engine: each task_<name>.c defines its own, and the table names them.
 * See struct pmbench_task in include/pmbench/task.h for what each does.
 */
#include "pmbench/task.h"

/* Shared by the tasks on the primed tree (task.c). */
void pmbench_task_fail(struct pmbench_sample *s, const char *reason,
		       const char *tail);
int pmbench_task_primed_prepare(const struct pmbench_task_job *j);

/* task_install.c */
void pmbench_task_install_describe(struct pmbench_cell *cell,
				   const struct pmbench_task_job *j);
int pmbench_task_install_prepare(const struct pmbench_task_job *j);
int pmbench_task_install_run(const struct pmbench_task_job *j,
			     struct pmbench_sample *s,
			     struct pmbench_strvec *argv_out);

/* task_script.c: run, build, lint (and test's script run) */
const char *pmbench_task_run_script(const struct pmbench_fixture *f,
				    const char *cell);
const char *pmbench_task_build_script(const struct pmbench_fixture *f,
				      const char *cell);
const char *pmbench_task_lint_script(const struct pmbench_fixture *f,
				     const char *cell);
void pmbench_task_script_describe(struct pmbench_cell *cell,
				  const struct pmbench_task_job *j);
int pmbench_task_run_prepare(const struct pmbench_task_job *j);
int pmbench_task_script_run(const struct pmbench_task_job *j,
			    struct pmbench_sample *s,
			    struct pmbench_strvec *argv_out);
int pmbench_task_build_run(const struct pmbench_task_job *j,
			   struct pmbench_sample *s,
			   struct pmbench_strvec *argv_out);
/*
 * `<pm> run <the cell's script>` into `s`, `c` a PMBENCH_CHILD_INIT
 * child the caller may give a line callback and releases.
 */
int pmbench_task_script_exec(const struct pmbench_task_job *j,
			     struct pmbench_sample *s,
			     struct pmbench_strvec *argv_out,
			     struct pmbench_child *c);

/* task_test.c */
const char *pmbench_task_test_script(const struct pmbench_fixture *f,
				     const char *cell);
int pmbench_task_test_run(const struct pmbench_task_job *j,
			  struct pmbench_sample *s,
			  struct pmbench_strvec *argv_out);

/* task_resolve.c */
const char *pmbench_task_resolve_unsupported(const struct pmbench_task_job *j);
void pmbench_task_resolve_describe(struct pmbench_cell *cell,
				   const struct pmbench_task_job *j);
int pmbench_task_resolve_run(const struct pmbench_task_job *j,
			     struct pmbench_sample *s,
			     struct pmbench_strvec *argv_out);

/* task_update.c */
int pmbench_task_update_prepare(const struct pmbench_task_job *j);
int pmbench_task_update_run(const struct pmbench_task_job *j,
			    struct pmbench_sample *s,
			    struct pmbench_strvec *argv_out);

/* task_dev.c */
const char *pmbench_task_dev_script(const struct pmbench_fixture *f,
				    const char *cell);
void pmbench_task_dev_describe(struct pmbench_cell *cell,
			       const struct pmbench_task_job *j);
int pmbench_task_dev_run(const struct pmbench_task_job *j,
			 struct pmbench_sample *s,
			 struct pmbench_strvec *argv_out);

#endif
