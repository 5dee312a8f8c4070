#ifndef PMBENCH_ENGINE_TASK_OPS_H
#define PMBENCH_ENGINE_TASK_OPS_H

/*
 * The operations of the task table (src/engine/task/task.c), private to the
 * engine: each task_<name>.c defines its own, and the table names them.
 * See struct pmbench_task in include/pmbench/task.h for what each does.
 */
#include <regex.h>

#include "pmbench/probe.h"
#include "pmbench/proc.h"
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
int pmbench_task_install_explain(const struct pmbench_task_job *j,
				 struct pmbench_explain_run *out,
				 const char *label);
int pmbench_task_install_prove(const struct pmbench_task_job *j,
			       struct pmbench_cell *cell);

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
void pmbench_task_build_output(struct pmbench_buf *out, const char *project,
			       const struct pmbench_fixture *f, int guess);
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

/*
 * What the dev task and hmr share: how the dev server is started (the
 * manifest's "dev", else the framework table's values for the dev
 * server the project's dev script names), started, watched until it is
 * ready, and stopped. Sequence:
 *
 *	struct pmbench_dev_run d;
 *	pmbench_dev_init(&d, j, s);
 *	if (!pmbench_dev_start(&d, argv_out)) {
 *		waited = pmbench_dev_wait_ready(&d, timeout_ns);
 *		if (!waited) pmbench_dev_record_ready(&d, timeout_ns);
 *		... d.ready: use the server ...
 *		pmbench_dev_stop_and_check(&d);
 *	}
 *	pmbench_dev_release(&d);
 */
struct pmbench_framework;

/* How a fixture's dev server is started, manifest first. */
struct pmbench_dev_config {
	const struct pmbench_framework *fw; /* detected, or NULL */
	const char *args;  /* port/host template with {port}, or NULL */
	const char *ready; /* ready line pattern, NULL: every known one */
	const char *path;  /* URL path polled for readiness */
};

void pmbench_dev_config(struct pmbench_dev_config *out,
			const struct pmbench_task_job *j);

/* Watching the output: the ready line, and local URLs it names. */
struct pmbench_dev_watch {
	const char *pattern; /* NULL: the defaults */
	regex_t re;
	int has_re;
	uint64_t line_ns;
	unsigned port;	     /* the one pmbench gave it */
	char other_url[160]; /* a local URL on another port, or "" */
	uint64_t other_ns;   /* when it was seen */
};

struct pmbench_dev_run {
	const struct pmbench_task_job *j;
	struct pmbench_sample *s;
	struct pmbench_child c;
	struct pmbench_dev_config cfg;
	struct pmbench_dev_watch w;
	struct pmbench_ready_poll *poll;
	struct pmbench_ready_state st;
	struct pmbench_buf url;
	unsigned port;
	int started, ready, exited;
	/* Failed at once: another URL named, or the port kept refusing. */
	int wrong_url, refusing;
};

void pmbench_dev_init(struct pmbench_dev_run *d,
		      const struct pmbench_task_job *j,
		      struct pmbench_sample *s);
int pmbench_dev_start(struct pmbench_dev_run *d,
		      struct pmbench_strvec *argv_out);
int pmbench_dev_wait_ready(struct pmbench_dev_run *d, uint64_t timeout_ns);
void pmbench_dev_record_ready(struct pmbench_dev_run *d, uint64_t timeout_ns);
int pmbench_dev_stop_and_check(struct pmbench_dev_run *d);
void pmbench_dev_release(struct pmbench_dev_run *d);
/* The timeout of readiness for a job: --timeout, at most 120 s. */
uint64_t pmbench_dev_ready_timeout(const struct pmbench_task_job *j);

/* task_hmr.c */
void pmbench_task_hmr_describe(struct pmbench_cell *cell,
			       const struct pmbench_task_job *j);
int pmbench_task_hmr_run(const struct pmbench_task_job *j,
			 struct pmbench_sample *s,
			 struct pmbench_strvec *argv_out);

#endif
