#include "pmbench/common.h"

#include "pmbench/bench.h"
#include "pmbench/ctx.h"
#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/pmrun.h"
#include "pmbench/proc.h"
#include "pmbench/scenario.h"

void pmbench_bench_opts_release(struct pmbench_bench_opts *o)
{
	pmbench_strvec_release(&o->pms);
	pmbench_strvec_release(&o->env);
	pmbench_strvec_release(&o->tasks);
}

size_t pmbench_bench_order(size_t k, unsigned round, size_t nr)
{
	return nr ? (k + round) % nr : 0;
}

static int wants_task(const struct pmbench_bench_opts *o, const char *task)
{
	if (!o->tasks.nr)
		return !strcmp(task, "install");
	return pmbench_strvec_find(&o->tasks, task) >= 0;
}

static void fill_cell(struct pmbench_cell *cell, const struct pmbench_pmrun *ps)
{
	if (ps->prime_failure)
		cell->prime_failure = pmbench_xstrdup(ps->prime_failure);
	if (ps->lockfile)
		cell->lockfile = pmbench_xstrdup(ps->lockfile);
	if (ps->scripts)
		cell->scripts = pmbench_xstrdup(ps->scripts);
	if (ps->note)
		cell->note = pmbench_xstrdup(ps->note);
	for (size_t i = 0; i < ps->command.nr; i++)
		pmbench_strvec_push(&cell->command, ps->command.v[i]);
	for (size_t i = 0; i < ps->env.nr; i++)
		pmbench_strvec_push(&cell->env, ps->env.v[i]);
}

/*
 * A checkpoint after each scenario and task, so a run that is killed keeps
 * what it measured. The caller writes the whole result at the end and
 * fails if it cannot (pmbench_cli_finish()), so a failed checkpoint only
 * warns: the run goes on, and the final write may yet succeed.
 */
static void save(const struct pmbench_ctx *ctx, const struct pmbench_result *r,
		 const struct pmbench_bench_opts *o)
{
	/* Nothing measured yet: an earlier file there stays as it is. */
	if (o->out && r->cells_nr && pmbench_result_write(r, o->out) < 0)
		pmbench_ctx_warn(ctx, "%s (trying again at the end)",
				 pmbench_error_last());
}

/* One timed (or warm-up) install of one PM in one scenario. */
static int one_run(struct pmbench_pmrun *ps,
		   const struct pmbench_bench_opts *o, unsigned state,
		   unsigned round, struct pmbench_cell *cell)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_sample *s = pmbench_cell_add_sample(cell);
	unsigned total = o->warmup + o->runs;
	const char *sc = pmbench_scenario_name(state);
	int ret;

	s->round = round;
	s->warmup = round < o->warmup;
	pmbench_ctx_status(ps->ctx, "%s: %s %s %u/%u", cell->fixture, sc,
			   ps->pm->name, round + 1, total);
	ret = pmbench_workspace_prepare(&ps->ws, state);
	if (ret < 0 && pmbench_ctx_cancelled(ps->ctx)) {
		/* A signal cut the copy short: the run is interrupted. */
		pmbench_pmrun_interrupt(ps->ctx, s);
		ret = PMBENCH_EINTERRUPTED;
	} else if (ret < 0) {
		struct pmbench_buf b = PMBENCH_BUF_INIT;

		pmbench_buf_addf(&b, "cannot prepare scenario '%s': %s", sc,
				 pmbench_error_last());
		s->ok = 0;
		s->exit_code = -1;
		s->failure = pmbench_buf_detach(&b);
		ret = 0;
	} else {
		ret = pmbench_pmrun_install(ps, o->timeout_ns, s, &c);
	}
	if (ret == 0) {
		if (s->ok)
			pmbench_ctx_event(ps->ctx, "%s %s %s %s %u/%u: %.3f s",
					       cell->fixture, sc, ps->pm->name,
					       s->warmup ? "warm-up" : "run",
					       s->warmup ? round + 1
							 : round + 1 - o->warmup,
					       s->warmup ? o->warmup : o->runs,
					       (double)s->wall_ns / 1e9);
		else
			pmbench_ctx_event(ps->ctx,
					  "%s %s %s round %u/%u failed: %s",
					       cell->fixture, sc, ps->pm->name,
					       round + 1, total, s->failure);
	}
	pmbench_child_release(&c);
	return ret;
}

static void record_options(struct pmbench_result *r,
			   const struct pmbench_bench_opts *o)
{
	for (size_t i = 0; i < o->pms.nr; i++)
		pmbench_strvec_push(&r->pms, o->pms.v[i]);
	for (size_t i = 0; i < o->scenarios_nr; i++)
		pmbench_strvec_push(&r->scenarios,
				    pmbench_scenario_name(o->scenarios[i]));
	if (!o->tasks.nr)
		pmbench_strvec_push(&r->tasks, "install");
	for (size_t i = 0; i < o->tasks.nr; i++)
		pmbench_strvec_push(&r->tasks, o->tasks.v[i]);
	r->runs = o->runs;
	r->warmup = o->warmup;
	r->timeout_ns = o->timeout_ns;
	r->seed = o->seed;
	if (o->runs_auto) {
		r->runs_auto = 1;
		r->auto_target = o->adaptive.target;
		r->auto_min_runs = o->adaptive.min_runs;
		r->auto_budget_ns = o->adaptive.budget_ns;
	}
}

static int bench_fixture(struct pmbench_ctx *ctx, struct pmbench_result *r,
			 const struct pmbench_bench_opts *o,
			 struct pmbench_fixture *f, struct pmbench_pmrun *states,
			 size_t nr)
{
	uint64_t started;
	int ret;

	pmbench_ctx_status(ctx, "%s: checking out", f->name);
	ret = pmbench_fixture_checkout(f, ctx->cache_dir);
	if (ret < 0)
		return ret;
	pmbench_result_add_fixture(r, f->name, f->repo, f->resolved_commit,
				   f->subdir, f->description);
	for (size_t i = 0; i < nr; i++) {
		pmbench_pmrun_reset(&states[i]);
		pmbench_workspace_init(&states[i].ws, states[i].pm,
				       ctx->cache_dir, f->name,
				       f->source_dir, f->subdir);
		pmbench_pmrun_compose(&states[i], f, &o->env);
		ret = pmbench_pmrun_prime_from(&states[i], o->timeout_ns,
					       o->from_pm, o->from_lock);
		if (!ret && o->on_primed)
			ret = o->on_primed(f, &states[i], o->payload);
		if (ret < 0)
			return ret;
	}

	for (size_t si = 0; wants_task(o, "install") && si < o->scenarios_nr;
	     si++) {
		unsigned state = o->scenarios[si];
		const char *sc = pmbench_scenario_name(state);

		for (size_t i = 0; i < nr; i++) {
			struct pmbench_cell *cell = pmbench_result_add_cell(
				r, f->name, "install", sc, states[i].pm->name);

			fill_cell(cell, &states[i]);
		}
		started = pmbench_now_ns();
		/*
		 * Rounds outside, PMs inside: a drifting machine hits all
		 * alike, and the order rotates so no PM is always first.
		 */
		for (unsigned round = 0; round < o->warmup + o->runs; round++) {
			for (size_t k = 0; k < nr; k++) {
				size_t i = pmbench_bench_order(k, round, nr);
				struct pmbench_cell *cell;

				if (states[i].prime_failure)
					continue;
				/* The cell array grows: never keep pointers. */
				cell = pmbench_result_find_cell(
					r, f->name, "install", sc,
					states[i].pm->name);
				ret = one_run(&states[i], o, state, round, cell);
				if (ret < 0)
					return ret;
			}
			/* --runs auto: o->runs is the maximum. */
			if (o->runs_auto && round >= o->warmup &&
			    pmbench_adaptive_scenario(
				    r, &o->adaptive, f->name, "install", sc,
				    round + 1 - o->warmup,
				    pmbench_now_ns() - started))
				break;
		}
		save(ctx, r, o);
	}
	for (size_t ti = 0; ti < o->tasks.nr; ti++) {
		if (!strcmp(o->tasks.v[ti], "install"))
			continue;
		ret = pmbench_bench_task(ctx, r, o, f, states, nr,
					 o->tasks.v[ti]);
		if (ret < 0)
			return ret;
		save(ctx, r, o);
	}
	for (size_t i = 0; i < nr; i++) {
		/* Work copies can be large; the checkout stays for reuse. */
		pmbench_fs_rmtree(states[i].ws.root);
		pmbench_fs_rmtree(states[i].ws.cache);
	}
	return 0;
}

int pmbench_bench_run(struct pmbench_ctx *ctx, struct pmbench_result *r,
		      const struct pmbench_bench_opts *o,
		      struct pmbench_fixture *fixtures, size_t fixtures_nr)
{
	struct pmbench_pmrun *states = pmbench_xcalloc(o->pms.nr ? o->pms.nr : 1,
						  sizeof(*states));
	size_t nr = 0;
	int ret;

	record_options(r, o);
	ret = pmbench_pmrun_start(ctx, r, states, &nr, &o->pms,
				  o->pms_explicit);
	if (ret < 0)
		goto done;
	for (size_t fi = 0; fi < fixtures_nr; fi++) {
		ret = bench_fixture(ctx, r, o, &fixtures[fi], states, nr);
		if (ret < 0)
			break;
	}
done:
	pmbench_ctx_done(ctx);
	for (size_t i = 0; i < o->pms.nr; i++)
		pmbench_pmrun_release(&states[i]);
	free(states);
	return ret;
}
