#ifndef PMBENCH_TASK_H
#define PMBENCH_TASK_H

#include <stdint.h>

#include "pmbench/buf.h"
#include "pmbench/pmrun.h"
#include "pmbench/result.h"
#include "pmbench/strvec.h"

struct pmbench_fixture;

/**
 * The tasks beside install: `run` (script-runner overhead on a no-op
 * script, and the fixture's own scripts), `build` and `dev` (dev-server
 * start until ready, with an optional HTTP load probe). Each works in a
 * PM's run copy prepared from its own primed snapshot (cache, lockfile
 * and node_modules all present), never in another PM's tree.
 */

/** The script pmbench adds to the run copy's package.json. */
#define PMBENCH_TASK_NOOP_SCRIPT "pmbench-noop"
#define PMBENCH_TASK_NOOP_COMMAND "node -e 0"

/** The scenario name of every non-install cell. */
#define PMBENCH_TASK_SCENARIO "cache+lockfile+node_modules"

/** The pm names of the runs made without any PM. */
#define PMBENCH_TASK_BARE_NODE "(node)"
#define PMBENCH_TASK_NODE_RUN "(node --run)"

/** How the dev task runs. */
struct pmbench_task_dev_opts {
	uint64_t ready_timeout_ns; /**< start to ready, then a failure */
	uint64_t grace_ns;	   /**< SIGTERM to SIGKILL on stop */
	unsigned probe_requests;   /**< 0: no probe */
	unsigned probe_concurrency;
	uint64_t probe_cap_ns;	   /**< time cap of the probe */
};

/**
 * 1 if `name` is a task ("install", "run", "build", "dev"), else 0.
 */
int pmbench_task_known(const char *name);

/**
 * Put the PM's run copy into cache+lockfile+node_modules (outside any
 * timed window), then remove what would make a later run warm: the
 * manifest's build output folder and node_modules/.vite, .cache and .tmp
 * (TypeScript build info). With `add_noop`, add the no-op script to the
 * copy's package.json. Returns 0 or an error (the run is then failed).
 */
int pmbench_task_prepare(struct pmbench_pmrun *ps,
			 const struct pmbench_fixture *f, int add_noop);

/**
 * `argv` for `<pm> run <script> [--] [args]` into `out` (the PM's
 * binary, its run words, the script, "--" when the PM needs it before
 * arguments, then `args`, which may be NULL).
 */
void pmbench_task_run_argv(struct pmbench_strvec *out,
			   const struct pmbench_pmrun *ps, const char *script,
			   const struct pmbench_strvec *args);

/**
 * Whether the fixture's package.json (in its checkout) has `script`:
 * 1 or 0 (also when the file cannot be read or parsed).
 */
int pmbench_task_has_script(const struct pmbench_fixture *f,
			    const char *script);

/**
 * Time `<pm> run <script>` in the prepared run copy into `s`. Returns 0
 * or PMBENCH_EINTERRUPTED.
 */
int pmbench_task_script(struct pmbench_pmrun *ps, const char *script,
			uint64_t timeout_ns, struct pmbench_sample *s);

/**
 * Time `argv` run without any PM (a baseline such as `node -e 0`) in
 * `dir` with the environment deltas `env` into `s`. Returns 0 or
 * PMBENCH_EINTERRUPTED.
 */
int pmbench_task_bare(struct pmbench_ctx *ctx, const struct pmbench_strvec *argv,
		      const char *dir,
		      const struct pmbench_strvec *env, uint64_t timeout_ns,
		      struct pmbench_sample *s);

/**
 * Time the build script through the PM into `s`, then measure the
 * manifest's output folder (metrics output_bytes, output_files). A build
 * that exits 0 but leaves the folder missing or empty is a failed run.
 * Returns 0 or PMBENCH_EINTERRUPTED.
 */
int pmbench_task_build(struct pmbench_pmrun *ps,
		       const struct pmbench_fixture *f, uint64_t timeout_ns,
		       struct pmbench_sample *s);

/**
 * Start the dev script through the PM on a free 127.0.0.1 port and time,
 * from the spawn: the ready line (metric ready_line_s), the first HTTP
 * response with status < 500 (http_s, also the sample's wall time) and
 * the first whole body (body_s); then run the probe if asked (probe_*
 * metrics), stop the whole tree (SIGTERM, grace, SIGKILL) and check that
 * the port is closed and no process is left. A server that exits early,
 * is not ready in time, keeps its port or leaves processes is a failed
 * run with its last output lines. `argv_out` (may be NULL) gets the argv
 * used. Returns 0 or PMBENCH_EINTERRUPTED.
 */
int pmbench_task_dev(struct pmbench_pmrun *ps, const struct pmbench_fixture *f,
		     const struct pmbench_task_dev_opts *o,
		     struct pmbench_sample *s, struct pmbench_strvec *argv_out);

#endif
