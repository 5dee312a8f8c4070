#ifndef PMBENCH_PMRUN_H
#define PMBENCH_PMRUN_H

#include <stdint.h>

#include "pmbench/buf.h"
#include "pmbench/pm.h"
#include "pmbench/pmfind.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"
#include "pmbench/scenario.h"
#include "pmbench/strvec.h"
#include "pmbench/workspace.h"

struct pmbench_ctx;
struct pmbench_fixture;
struct pmbench_node;

/** struct pmbench_pmrun's `ci`. */
#define PMBENCH_PMRUN_CI       1
#define PMBENCH_PMRUN_CI_UNPIN 2

/**
 * One package manager working on one fixture: the binary found, its
 * workspace, the install command and the environment every command of
 * this PM runs with, and what its priming install left. Shared by every
 * subcommand that runs PMs (bench, ci-cache, migrate), so that a PM is
 * told the same things whoever runs it.
 */
struct pmbench_pmrun {
	struct pmbench_ctx *ctx; /**< where it works; cancellation */
	const struct pmbench_pm *pm;
	struct pmbench_pm_found found;
	/**
	 * The release the repo names of this PM, run instead of the pinned
	 * one (pmbench_pmrun_use_repo_pm()), and the pinned one it stands
	 * in for (restored for the next fixture); NULL and empty: none.
	 */
	const struct pmbench_pm *release;
	struct pmbench_pm_found pinned;
	/**
	 * The version it ran at and why ("9.15.0: the repo's packageManager
	 * field (pnpm@9.15.0)"), for every cell.
	 */
	char *pm_version;
	struct pmbench_workspace ws;
	struct pmbench_strvec command; /**< argv of the install */
	struct pmbench_strvec env;     /**< deltas for every command */
	/**
	 * `env`'s entries [env_given, env_given_end) are the user's
	 * `--env`: recorded by pmbench_pmrun_env_record() as the rule of
	 * pmbench_text_env_record() says.
	 */
	size_t env_given, env_given_end;
	char *prime_failure; /**< why priming failed, or NULL */
	char *lockfile;	     /**< which lockfile and where from, or NULL */
	char *scripts;	     /**< dependency lifecycle scripts, or NULL */
	/**
	 * `--scripts`: what it is told of dependencies' install scripts
	 * (set before pmbench_pmrun_compose(), which tells it), and the
	 * installed packages that have one, "name@version", as the priming
	 * found them: what `all` must run (scriptcheck.h).
	 */
	enum pmbench_scripts_choice scripts_choice;
	struct pmbench_strvec script_packages;
	/**
	 * `--ci` (set before pmbench_pmrun_compose()): PMBENCH_PMRUN_CI, as
	 * on a CI runner (pmbench_pm_ci_env()), with PMBENCH_PMRUN_CI_UNPIN
	 * also without the table's `ci_pins`; 0: not. Its deltas are
	 * `env`'s entries [ci_from, ci_to), which every command gets but
	 * the priming's (`priming` set): pmbench's own set-up, as on the
	 * machine that wrote the lockfile.
	 */
	int ci;
	size_t ci_from, ci_to;
	int priming;
	/**
	 * What its cells cannot measure and why ("node_modules: n/a:
	 * Plug'n'Play"), for pmbench_cell's `note`; NULL: nothing.
	 */
	char *note;
	/**
	 * What its scripts run under, for every cell: "node v24.22.3"
	 * (the Node first on its PATH) or "bun 1.4.5" (bun:runtime).
	 */
	char *runtime;
	/**
	 * Which Node it runs under and why ("v20.19.5: from .nvmrc: 20 ->
	 * 20.19.5 (from the registry)"), for every cell; NULL: not told.
	 */
	char *node;
	/**
	 * The Node of its own its release runs under, when the release's
	 * engines.node rules out the fixture's (pmbench_pmrun_own_node());
	 * NULL: the context's.
	 */
	struct pmbench_node *own_node;
	/**
	 * Its priming failed where a Node of the lockfile's era would not
	 * have (pmbench_pmrun_era_hint()): the line naming that Node, for
	 * every cell's `node_era`; NULL: nothing to say.
	 */
	char *node_era;
	/** Lockfile URLs rewritten to the local mirror, or NULL. */
	char *registry_note;
	/**
	 * The configuration that changes its work, as set and where
	 * (pmbench_pm_conf_scan()), for every cell; NULL: not told.
	 */
	char *pm_config;
	/**
	 * The priming installed from a lockfile (the fixture's, or another
	 * PM's it converted): a run without one resolves afresh, and asks
	 * the registry for what the priming never fetched.
	 */
	int primed_locked;
	/**
	 * The tarballs the tree needs: those the priming install asked the
	 * mirror for, from an empty cache (0: not counted); each install
	 * run records it for its state check (statecheck.h).
	 */
	double tree_tarballs;
};

/**
 * Find every PM named in `pms` (in order) into `states` (room for
 * pms->nr), recording each (found or not) in `r`. A PM that is missing
 * is skipped with a progress line, unless `pms_explicit`, which makes it
 * PMBENCH_ENOTFOUND. `*out_nr` gets how many were found; none at all is
 * PMBENCH_ENOTFOUND too. `scratch` is a folder outside any project to
 * ask versions in.
 */
int pmbench_pmrun_find_all(struct pmbench_ctx *ctx,
			   struct pmbench_pmrun *states, size_t *out_nr,
			   struct pmbench_result *r,
			   const struct pmbench_strvec *pms, int pms_explicit,
			   const char *scratch);

/**
 * Start a result the way every subcommand that runs PMs does: pmbench's
 * version, the time, the machine (sysinfo), how pmbench measures
 * (pmbench_environment_record()), then find the PMs
 * (pmbench_pmrun_find_all(), asking versions in <cache>/tmp). Record the
 * subcommand's own options before calling it. Returns 0 or an error.
 */
int pmbench_pmrun_start(struct pmbench_ctx *ctx, struct pmbench_result *r,
			struct pmbench_pmrun *states, size_t *out_nr,
			const struct pmbench_strvec *pms, int pms_explicit);

/**
 * Append the fixture's per-PM install flags for `pm` to `out`: those
 * under its base's name, then, for a variant, those under its own
 * (`"pm": {"npm": {...}, "npm:linked": {...}}`).
 */
void pmbench_pmrun_fixture_flags(struct pmbench_strvec *out,
				 const struct pmbench_fixture *f,
				 const struct pmbench_pm *pm);

/**
 * Fill `ps->command` (the install: binary, the PM's install arguments,
 * a variant's, the fixture's per-PM flags) and `ps->env` (the PM's cache
 * redirection and quietness, a variant's settings, PATH with the
 * binary's folder first, the fixture's environment, its per-PM
 * environment (the base's, then the variant's), then `extra_env`,
 * which may be NULL). Sets `ps->note`. The workspace must be
 * initialised.
 */
void pmbench_pmrun_compose(struct pmbench_pmrun *ps,
			   const struct pmbench_fixture *f,
			   const struct pmbench_strvec *extra_env);

/**
 * Run `argv` in `dir` with the PM's environment and record it into `s`
 * (times, rusage, tree RSS, exit, failure reason and tail). `c` is a
 * PMBENCH_CHILD_INIT child the caller may have given a line callback;
 * the caller releases it. A command that cannot start is a failed sample,
 * never a time. Returns 0 (whatever the command did) or
 * PMBENCH_EINTERRUPTED, with `s` marked interrupted (what was measured
 * until pmbench stopped the command is kept).
 */
int pmbench_pmrun_exec(struct pmbench_pmrun *ps,
		       const struct pmbench_strvec *argv, const char *dir,
		       uint64_t timeout_ns, struct pmbench_sample *s,
		       struct pmbench_child *c);

/**
 * After a successful install: the size and file count of the run copy's
 * node_modules into `s`, or, for a PM that makes none (Plug'n'Play),
 * `s->no_node_modules` set and no size.
 */
void pmbench_pmrun_measure_node_modules(struct pmbench_pmrun *ps,
					struct pmbench_sample *s);

/**
 * pmbench_pmrun_exec() of the install command in the run copy, then,
 * after a success, pmbench_pmrun_measure_node_modules().
 */
int pmbench_pmrun_install(struct pmbench_pmrun *ps, uint64_t timeout_ns,
			  struct pmbench_sample *s, struct pmbench_child *c);

/**
 * The priming install: a fresh copy with only this PM's shipped
 * lockfile, an empty cache, one full install; then the copy and the cache
 * become the primed snapshot. A failed install is not an error: it is
 * kept in `ps->prime_failure` (with the output's last lines). Sets
 * `ps->lockfile` and `ps->scripts`. Returns 0, PMBENCH_EINTERRUPTED or an
 * error that stops the benchmark.
 */
int pmbench_pmrun_prime(struct pmbench_pmrun *ps, uint64_t timeout_ns);

/**
 * The priming install of a migration: this PM starts from `from_lock`,
 * the lockfile of the PM named `from_pm`, the way a team would migrate
 * (pmbench_pm_route(): its install converts it, its import command
 * converts it first, or it cannot use it and resolves fresh; a failed
 * import falls back to a fresh resolution). `ps->lockfile` says which
 * way it went. With NULL names, or from_pm naming this PM, it is
 * pmbench_pmrun_prime(). Nothing when the priming already failed
 * (pmbench_pmrun_fail_priming()).
 */
int pmbench_pmrun_prime_from(struct pmbench_pmrun *ps, uint64_t timeout_ns,
			     const char *from_pm, const char *from_lock);

/**
 * The priming of `ps` failed before its install (the repo could not be
 * changed for this PM): `why` becomes `ps->prime_failure`, reported as a
 * failed install is, and pmbench_pmrun_prime_from() leaves it so.
 */
void pmbench_pmrun_fail_priming(struct pmbench_pmrun *ps, const char *why);

/**
 * After a priming that installed from a lockfile (`ps->primed_locked`):
 * one more full install, untimed, in a fresh copy without any lockfile
 * and with an empty cache, so that the local mirror holds what a run
 * without a lockfile resolves (the scenarios `for`, such as "clean,
 * cache"); the primed snapshot stays the first priming's, and this
 * copy and cache are discarded. Says how long it took, or that it
 * failed (not an error: runs without a lockfile then may ask the mirror
 * for what it lacks, and fail so). `*out_seconds` gets its wall time.
 * Returns 0, PMBENCH_EINTERRUPTED or an error that stops the benchmark.
 */
int pmbench_pmrun_prime_unlocked(struct pmbench_pmrun *ps, uint64_t timeout_ns,
				 const char *for_scenarios,
				 double *out_seconds);

/**
 * Append to `out` the one line of `text` (a PM's captured output) that
 * says why it failed, trimmed and cut at 300 bytes; nothing if `text` has
 * no line. `pm` may be NULL (a command that is no PM's).
 */
void pmbench_pmrun_failure_line(struct pmbench_buf *out,
				const struct pmbench_pm *pm, const char *text);

/**
 * Describe a failed child of `pm` (NULL: no PM's): "exit 1: npm error
 * code ERESOLVE (hint: ...)" into `reason` (the way it ended,
 * pmbench_pmrun_failure_line() of its output, and a hint when the output
 * matches a known trap), its last lines into `tail`.
 */
void pmbench_pmrun_describe_failure(struct pmbench_buf *reason,
				    struct pmbench_buf *tail,
				    const struct pmbench_child *c,
				    const struct pmbench_pm *pm);

/**
 * Put `ps` under the context's Node (ctx->node, which bench sets per
 * fixture): its binary found again when a Node installation brings it
 * (npm's `node_bin`), its `runtime` and `node` for the cells. A PM the
 * new Node lacks keeps the binary it had, and `node` says so. `scratch`
 * is a folder outside any project.
 */
void pmbench_pmrun_use_node(struct pmbench_pmrun *ps, const char *scratch);

/** Forget what belongs to one fixture; the PM found stays. */
void pmbench_pmrun_reset(struct pmbench_pmrun *ps);

/** Free everything; `ps` is zeroed. */
void pmbench_pmrun_release(struct pmbench_pmrun *ps);

/**
 * Copy into `cell` what the priming found out about `ps`: its priming
 * failure, the lockfile it used, what its dependency scripts did, its
 * note (each only when set).
 */
void pmbench_pmrun_describe_cell(struct pmbench_cell *cell,
				 const struct pmbench_pmrun *ps);

/**
 * `ps`'s environment deltas into `out`, as its commands get them: while
 * `priming` (pmbench's own set-up) without the CI mode's.
 */
void pmbench_pmrun_push_env(struct pmbench_strvec *out,
			    const struct pmbench_pmrun *ps);

/**
 * Append `env` to `out` as a result records it (a cell's `env`): its
 * entries [given, given_end), the user's `--env`, with their values only
 * when they cannot be a credential (pmbench_text_env_record()), the
 * others, pmbench's own, as they are.
 */
void pmbench_pmrun_env_record(struct pmbench_strvec *out,
			      const struct pmbench_strvec *env, size_t given,
			      size_t given_end);

/** pmbench_pmrun_env_record() of `ps->env`, its `--env` given by `ps`. */
#define PMBENCH_PMRUN_ENV_RECORD(out, ps)                          \
	pmbench_pmrun_env_record(out, &(ps)->env, (ps)->env_given, \
				 (ps)->env_given_end)

/**
 * When the release `release` (the repo's, or one asked for; pinned or
 * without a stamp: nothing) declares an engines.node the fixture's Node
 * (ctx->node) is outside of, choose a Node in that range as a repo's
 * Node is chosen (node.h: the pinned one, one installed, else from the
 * registry) and run `ps` under it: its PATH, headers, `runtime`, and
 * `node` ("v18.20.8: pnpm 10.0.0 needs node >=18.12: ran under node
 * 18.20.8 of its own (...)"), said as it starts. None to be had leaves
 * the fixture's Node, with a warning. Returns 0, or an error (Ctrl-C).
 */
int pmbench_pmrun_own_node(struct pmbench_pmrun *ps,
			   const struct pmbench_pm *release);

/**
 * pmbench_pm_find() of `pm` under `ps`'s Node (its own when it has
 * one), so that a release asked its version runs under a Node it takes.
 */
int pmbench_pmrun_find_under_node(struct pmbench_pm_found *out,
				  struct pmbench_pmrun *ps,
				  const struct pmbench_pm *pm,
				  const char *scratch);

/**
 * `release` (one asked for, installed) found and asked its version under
 * the Node of its own it would run under (pmbench_pmrun_own_node()'s
 * choice, neither kept nor said), else the context's: as
 * pmbench_pmrun_find_under_node(). `ps` needs its ctx and pm.
 */
int pmbench_pmrun_find_release(struct pmbench_pm_found *out,
			       struct pmbench_pmrun *ps,
			       const struct pmbench_pm *release,
			       const char *scratch);

/** The Node `ps` runs under: its own, else the context's (or NULL). */
const struct pmbench_node *pmbench_pmrun_node(const struct pmbench_pmrun *ps);

/** Forget `ps`'s Node of its own (a new fixture chooses again). */
void pmbench_pmrun_drop_own_node(struct pmbench_pmrun *ps);

/**
 * After a failed priming install `s` of the repo's own PM on its shipped
 * lockfile `shipped` (NULL: none, so no hint), under a Node that neither
 * `--node` nor the repo named: when the failure is one a Node of the
 * repo's era would not have (pmbench_node_era_failure()), the line that
 * names that Node (pmbench_node_era_hint(), from the packuments the
 * mirror already holds) is appended to `s`'s failure ("...; this
 * lockfile's newest package was published 2020-11-03: Node 14 was the
 * LTS then; try --node 14") and kept in `node_era`.
 */
void pmbench_pmrun_era_hint(struct pmbench_pmrun *ps, struct pmbench_sample *s,
			    const char *shipped);

struct pmbench_pm_ask;

/**
 * For the fixture about to run: when the repo names a version of `ps`'s
 * PM (`ask`, pmbench_pm_ask_repo()) and `ps` was asked for without one
 * (`pnpm`, `pnpm:hoisted`; not `pnpm@9` or `pnpm@pinned`), install that
 * release (outside any timed run), check corepack's hash against it, and
 * run it instead of the pinned one; a range the pinned one satisfies
 * keeps it. Otherwise (and first) the pinned one is back. Sets
 * `pm_version`. The release run (the repo's, or the one `ps` was asked
 * at) gets a Node of its own when its engines.node rules out the
 * fixture's (pmbench_pmrun_own_node()), so call it after the fixture's
 * Node is chosen (pmbench_pmrun_use_node()). Returns 0, or an error naming the field (a hash that
 * does not match is refused; a release that cannot be had).
 */
int pmbench_pmrun_use_repo_pm(struct pmbench_pmrun *ps,
			      const struct pmbench_pm_ask *ask,
			      const char *scratch);

#endif
