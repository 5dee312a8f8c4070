/*
 * `pmbench bench`: prime every PM once per fixture, then time each task
 * of the task table that was asked for, in rounds (the scheduler): an
 * install task once per scenario, the others on each PM's primed tree.
 * Everything a task does is its entry's operations; this file only
 * makes the cells, runs the rounds and reports each run.
 */
#include "pmbench/common.h"

#include "pmbench/bench.h"
#include "pmbench/control.h"
#include "pmbench/ctx.h"
#include "pmbench/explain.h"
#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/pmrun.h"
#include "pmbench/proc.h"
#include "pmbench/registry.h"
#include "pmbench/scenario.h"
#include "pmbench/schedule.h"
#include "pmbench/task.h"

#define PRIMED_STATE                                    \
	(PMBENCH_STATE_CACHE | PMBENCH_STATE_LOCKFILE | \
	 PMBENCH_STATE_NODE_MODULES)

/* What the rounds of one task (in one scenario) share. */
struct rounds {
	struct pmbench_ctx *ctx;
	struct pmbench_result *r;
	const struct pmbench_bench_opts *o;
	const struct pmbench_fixture *f;
	struct pmbench_pmrun *states;
	size_t nr;
	const struct pmbench_task *task;
	unsigned state;		     /* the state each run starts from */
	const char *scenario;	     /* of the cells */
	struct pmbench_strvec cells; /* the task's, then its scripts' */
	/* PMBENCH_TASK_BASELINES: runs without a PM, after each round. */
	struct pmbench_strvec bare[2];
	const char *bare_pms[2];
	size_t bare_nr;
	struct pmbench_strvec bare_env;
	const char *bare_dir; /* the last run copy prepared in the round */
	/* For progress bars: "fixture · task · scenario", runs done, planned. */
	struct pmbench_buf group;
	unsigned done, total;
};

void pmbench_bench_opts_release(struct pmbench_bench_opts *o)
{
	pmbench_strvec_release(&o->pms);
	pmbench_strvec_release(&o->env);
	pmbench_strvec_release(&o->tasks);
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
	/*
	 * No run yet (cells are made before the reuse wait and the first
	 * round): an earlier file there stays as it is.
	 */
	if (o->out && pmbench_result_has_samples(r) &&
	    pmbench_result_write(r, o->out) < 0)
		pmbench_ctx_warn(ctx, "%s (trying again at the end)",
				 pmbench_error_last());
}

static struct pmbench_task_job
job_of(const struct rounds *x, struct pmbench_pmrun *ps, const char *cell)
{
	struct pmbench_task_job j = PMBENCH_TASK_JOB_INIT;

	j.task = x->task;
	j.ps = ps;
	j.f = x->f;
	j.cell = cell;
	j.state = x->state;
	j.timeout_ns = x->o->timeout_ns;
	j.opts = x->o;
	return j;
}

/*
 * A script the fixture's package.json lacks is named, as a priming
 * failure would be: the PM's cell gets no runs.
 */
static void check_script(struct pmbench_cell *cell, const struct rounds *x,
			 const char *name)
{
	const char *script = x->task->script(x->f, name);
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (cell->prime_failure || !strcmp(script, PMBENCH_TASK_NOOP_SCRIPT) ||
	    pmbench_task_has_script(x->f, script))
		return;
	pmbench_buf_addf(&b, "the fixture's package.json has no '%s' script",
			 script);
	if (x->task->manifest_key && !strcmp(name, x->task->name))
		pmbench_buf_addf(&b,
				 " (name another in the manifest's \"%s\": "
				 "{ \"script\": ... })",
				 x->task->manifest_key);
	cell->prime_failure = pmbench_buf_detach(&b);
}

/*
 * A new cell: what the PM's priming said, then the task's description;
 * a PM without a way to do the task is marked so, with the reason.
 */
static void add_cell(struct rounds *x, struct pmbench_pmrun *ps,
		     const char *name)
{
	struct pmbench_task_job j = job_of(x, ps, name);
	struct pmbench_cell *cell = pmbench_result_add_cell(
		x->r, x->f->name, name, x->scenario, ps->pm->name);
	const char *why = x->task->unsupported ? x->task->unsupported(&j)
					       : NULL;

	if (ps->prime_failure)
		cell->prime_failure = pmbench_xstrdup(ps->prime_failure);
	if (ps->lockfile)
		cell->lockfile = pmbench_xstrdup(ps->lockfile);
	if (ps->scripts)
		cell->scripts = pmbench_xstrdup(ps->scripts);
	if (ps->note)
		cell->note = pmbench_xstrdup(ps->note);
	if (ps->runtime)
		cell->runtime = pmbench_xstrdup(ps->runtime);
	x->task->describe(cell, &j);
	if (why)
		pmbench_cell_set_unsupported(cell, why);
	else if (x->task->script)
		check_script(cell, x, name);
}

/* The cells: one per PM and cell task, described by the task. */
static void add_cells(struct rounds *x)
{
	for (size_t i = 0; i < x->nr; i++)
		for (size_t k = 0; k < x->cells.nr; k++)
			add_cell(x, &x->states[i], x->cells.v[k]);
}

static int node_has_run(const struct pmbench_result *r)
{
	const char *v = pmbench_result_env_get(r, "node_version");

	/* `node --run` came with Node 22. */
	return v && pmbench_pm_version_major(v) >= 22;
}

/*
 * The runs without a PM: their cells, run with the fixture's environment
 * and --env.
 */
static void add_baselines(struct rounds *x)
{
	const struct pmbench_fixture *f = x->f;
	int node_run = node_has_run(x->r);

	pmbench_strvec_pushv(&x->bare_env, pmbench_ci_vars);
	/* The bare runs use the Node the PMs run under. */
	pmbench_pmrun_path(&x->bare_env, x->ctx, NULL);
	for (size_t i = 0; i < f->env.nr; i++)
		pmbench_strvec_push(&x->bare_env, f->env.v[i]);
	for (size_t i = 0; i < x->o->env.nr; i++)
		pmbench_strvec_push(&x->bare_env, x->o->env.v[i]);
	x->bare_nr = pmbench_task_baselines(x->bare, x->bare_pms, node_run);
	if (!node_run)
		pmbench_result_env_set(x->r, "node_run_baseline",
				       "skipped: this node has no --run (Node "
				       "22 and later)");
	for (size_t b = 0; b < x->bare_nr; b++) {
		struct pmbench_cell *cell =
			pmbench_result_add_cell(x->r, f->name, x->task->name,
						x->scenario, x->bare_pms[b]);

		for (size_t i = 0; i < x->bare[b].nr; i++)
			pmbench_strvec_push(&cell->command, x->bare[b].v[i]);
		for (size_t i = 0; i < x->bare_env.nr; i++)
			pmbench_strvec_push(&cell->env, x->bare_env.v[i]);
	}
}

/* The scenario's name for an install task, else the cell's task. */
static const char *label(const struct rounds *x, const char *cell)
{
	return x->task->flags & PMBENCH_TASK_PER_SCENARIO ? x->scenario : cell;
}

/* A progress report of kind `kind` about `pm` in this group. */
static struct pmbench_progress progress_of(const struct rounds *x,
					   enum pmbench_progress_kind kind,
					   const char *pm)
{
	struct pmbench_progress p;

	memset(&p, 0, sizeof(p));
	p.kind = kind;
	p.group = x->group.ptr;
	p.pm = pm;
	p.done = x->done;
	p.total = x->total;
	return p;
}

/* One line per run: its time and the metrics the task shows. */
static void report(struct rounds *x, const struct pmbench_cell *cell,
		   const struct pmbench_round *round)
{
	const struct pmbench_sample *s = &cell->samples[cell->samples_nr - 1];
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *last = NULL;
	double v;

	struct pmbench_progress p =
		progress_of(x, PMBENCH_PROGRESS_EVENT, cell->pm);

	/* The control is no PM's run: it moves no bar. */
	p.done = pmbench_control_is(cell->pm) ? x->done : ++x->done;
	p.seconds = s->ok ? (double)s->wall_ns / 1e9 : -1;
	if (!s->ok) {
		pmbench_ctx_report(x->ctx, &p,
				   "%s %s %s round %u/%u failed: %s",
				   cell->fixture, label(x, cell->task),
				   cell->pm, round->number + 1,
				   x->o->warmup + x->o->runs, s->failure);
		return;
	}
	for (const struct pmbench_task_metric *m = x->task->metrics; m->name;
	     m++) {
		if (!m->header || !pmbench_sample_metric_get(s, m->name, &v))
			continue;
		/* Metrics that share a column share their header too. */
		if (!last || strcmp(last, m->header))
			pmbench_buf_addf(&b, "%s%s ", b.len ? ", " : " (",
					 m->header);
		else
			pmbench_buf_adds(&b, ", ");
		last = m->header;
		pmbench_task_metric_format(&b, m, v);
	}
	if (b.len)
		pmbench_buf_adds(&b, ")");
	pmbench_ctx_report(x->ctx, &p, "%s %s %s %s %u/%u: %.3f s%s",
			   cell->fixture, label(x, cell->task), cell->pm,
			   s->warmup ? "warm-up" : "run", round->nth, round->of,
			   (double)s->wall_ns / 1e9, b.ptr);
	pmbench_buf_release(&b);
}

static struct pmbench_sample *new_sample(struct pmbench_cell *cell,
					 const struct pmbench_round *round)
{
	struct pmbench_sample *s = pmbench_cell_add_sample(cell);

	s->round = round->number;
	s->warmup = round->warmup;
	return s;
}

/* The sample of a run whose copy could not be prepared. */
static int prepare_failed(const struct rounds *x,
			  const struct pmbench_pmrun *ps,
			  struct pmbench_sample *s)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (pmbench_ctx_cancelled(ps->ctx)) {
		/* A signal cut the copy short: the run is interrupted. */
		pmbench_pmrun_interrupt(ps->ctx, s);
		return PMBENCH_EINTERRUPTED;
	}
	if (x->task->flags & PMBENCH_TASK_PER_SCENARIO)
		pmbench_buf_addf(&b, "cannot prepare scenario '%s': %s",
				 x->scenario, pmbench_error_last());
	else
		pmbench_buf_addf(&b, "cannot prepare the run copy: %s",
				 pmbench_error_last());
	s->ok = 0;
	s->exit_code = -1;
	s->failure = pmbench_buf_detach(&b);
	return 0;
}

/* One cell's run in a prepared copy. */
static int run_cell(struct rounds *x, struct pmbench_pmrun *ps,
		    const char *name, const struct pmbench_round *round,
		    int prepared)
{
	struct pmbench_task_job j = job_of(x, ps, name);
	struct pmbench_strvec argv = PMBENCH_STRVEC_INIT;
	struct pmbench_cell *cell;
	struct pmbench_sample *s;
	int ret;

	/* The cell array grows: never keep pointers across additions. */
	cell = pmbench_result_find_cell(x->r, x->f->name, name, x->scenario,
					ps->pm->name);
	if (cell->prime_failure)
		return 0;
	s = new_sample(cell, round);
	if (prepared < 0)
		ret = prepare_failed(x, ps, s);
	else
		ret = x->task->run(&j, s, &argv);
	/* A command that differs per run (dev's port): the first one. */
	if (!cell->command.nr)
		pmbench_strvec_pushv(&cell->command,
				     (const char *const *)argv.v);
	pmbench_strvec_release(&argv);
	if (ret == 0)
		report(x, cell, round);
	return ret;
}

/*
 * Before a timed run: what the runs before wrote, and the copy just
 * prepared, go to disk now, not during the run (the kernel's writeback
 * would otherwise charge it to whichever run comes next).
 */
static void settle(const struct rounds *x)
{
	if (pmbench_fs_settle(x->ctx->cache_dir) < 0)
		pmbench_error_clear();
}

/* One PM's turn in a round: prepare its copy, then run every cell. */
static int turn(size_t i, const struct pmbench_round *round, void *payload)
{
	struct rounds *x = payload;
	struct pmbench_pmrun *ps = &x->states[i];
	struct pmbench_task_job j;
	struct pmbench_progress p;
	int prepared, ret = 0;

	if (ps->prime_failure)
		return 0;
	j = job_of(x, ps, x->task->name);
	/* A PM that has no way to do the task: its cell says so. */
	if (x->task->unsupported && x->task->unsupported(&j))
		return 0;
	p = progress_of(x, PMBENCH_PROGRESS_STATUS, ps->pm->name);
	pmbench_ctx_report(x->ctx, &p, "%s: %s %s %u/%u", x->f->name,
			   label(x, x->task->name), ps->pm->name,
			   round->number + 1, x->o->warmup + x->o->runs);
	prepared = x->task->prepare(&j);
	if (prepared == 0)
		x->bare_dir = ps->ws.run_project;
	settle(x);
	for (size_t k = 0; k < x->cells.nr && !ret; k++)
		ret = run_cell(x, ps, x->cells.v[k], round, prepared);
	return ret;
}

/* After every PM: the baselines, in the last copy prepared. */
static int round_done(const struct pmbench_round *round, void *payload)
{
	struct rounds *x = payload;
	int ret = 0;

	for (size_t b = 0; x->bare_dir && b < x->bare_nr && !ret; b++) {
		struct pmbench_cell *cell = pmbench_result_find_cell(
			x->r, x->f->name, x->task->name, x->scenario,
			x->bare_pms[b]);

		ret = pmbench_task_bare(x->ctx, &x->bare[b], x->bare_dir,
					&x->bare_env, x->o->timeout_ns,
					new_sample(cell, round));
		if (ret == 0) {
			cell = pmbench_result_find_cell(x->r, x->f->name,
							x->task->name,
							x->scenario,
							x->bare_pms[b]);
			report(x, cell, round);
		}
	}
	x->bare_dir = NULL;
	return ret;
}

/* The drift control, first in every round. */
static int control_turn(const struct pmbench_round *round, void *payload)
{
	struct rounds *x = payload;
	struct pmbench_cell *cell =
		pmbench_result_find_cell(x->r, x->f->name, x->task->name,
					 x->scenario, PMBENCH_CONTROL_PM);
	struct pmbench_progress p =
		progress_of(x, PMBENCH_PROGRESS_STATUS, PMBENCH_CONTROL_PM);
	int ret;

	pmbench_ctx_report(x->ctx, &p, "%s: %s %s %u/%u", x->f->name,
			   label(x, x->task->name), PMBENCH_CONTROL_PM,
			   round->number + 1, x->o->warmup + x->o->runs);
	settle(x);
	ret = pmbench_control_run(x->ctx, x->ctx->cache_dir,
				  new_sample(cell, round));
	if (ret == 0)
		report(x, cell, round);
	return ret;
}

/* One `--explain` run of a PM: its copy prepared, then the run. */
static int explain_one(struct rounds *x, struct pmbench_pmrun *ps, unsigned k)
{
	struct pmbench_task_job j = job_of(x, ps, x->task->name);
	struct pmbench_progress p =
		progress_of(x, PMBENCH_PROGRESS_STATUS, ps->pm->name);
	struct pmbench_buf name = PMBENCH_BUF_INIT;
	struct pmbench_explain_run *e;
	int ret;

	pmbench_ctx_report(x->ctx, &p, "%s: %s %s explained %u/%d", x->f->name,
			   label(x, x->task->name), ps->pm->name, k + 1,
			   x->o->explain);
	ret = x->task->prepare(&j);
	e = pmbench_cell_add_explain(pmbench_result_find_cell(
		x->r, x->f->name, x->task->name, x->scenario, ps->pm->name));
	if (ret < 0) {
		if (pmbench_ctx_cancelled(x->ctx))
			return PMBENCH_EINTERRUPTED;
		e->failure = pmbench_xstrdup(pmbench_error_last());
		return 0;
	}
	pmbench_buf_addf(&name, "%s-%s-%s-%u", x->f->name, x->scenario,
			 pmbench_pm_folder(ps->pm), k + 1);
	for (size_t i = 0; i < name.len; i++)
		if (name.ptr[i] == '+' || name.ptr[i] == '/')
			name.ptr[i] = '_';
	ret = x->task->explain(&j, e, name.ptr);
	pmbench_buf_release(&name);
	return ret;
}

/*
 * `--explain`: after the timed rounds, untimed runs of every PM with
 * its own timers on, into its cell. Never part of the timed rounds.
 */
static int explain_runs(struct rounds *x)
{
	int ret = 0;

	for (size_t i = 0; i < x->nr && !ret; i++) {
		struct pmbench_pmrun *ps = &x->states[i];
		struct pmbench_task_job j = job_of(x, ps, x->task->name);
		struct pmbench_cell *cell = pmbench_result_find_cell(
			x->r, x->f->name, x->task->name, x->scenario,
			ps->pm->name);

		if (ps->prime_failure || !cell || cell->prime_failure ||
		    (x->task->unsupported && x->task->unsupported(&j)))
			continue;
		free(cell->explain_how);
		cell->explain_how = pmbench_explain_how(ps);
		for (int k = 0; k < x->o->explain && !ret; k++)
			ret = explain_one(x, ps, (unsigned)k);
	}
	return ret;
}

/*
 * The group's name and its planned runs for progress bars: every round
 * runs each cell with a primed PM, then the baselines. With --runs auto
 * the plan is the most runs; the scheduler may stop before.
 */
static void plan_progress(struct rounds *x)
{
	unsigned cells = 0;

	pmbench_buf_addf(&x->group, "%s · %s · %s", x->f->name, x->task->name,
			 x->scenario);
	for (size_t i = 0; i < x->nr; i++)
		for (size_t k = 0; k < x->cells.nr; k++)
			cells += !pmbench_result_find_cell(
					  x->r, x->f->name, x->cells.v[k],
					  x->scenario, x->states[i].pm->name)
					  ->prime_failure;
	if (cells)
		cells += (unsigned)x->bare_nr;
	x->total = (x->o->warmup + x->o->runs) * cells;
}

/*
 * One task of a checked-out, primed fixture for the `nr` PMs in
 * `states`, starting each run from `state`, its cells in `scenario`: a
 * cell per PM (and per fixture script, and baseline, when the task has
 * them), rounds interleaving the PMs.
 */
static int run_task(struct pmbench_ctx *ctx, struct pmbench_result *r,
		    const struct pmbench_bench_opts *o,
		    const struct pmbench_fixture *f,
		    struct pmbench_pmrun *states, size_t nr,
		    const struct pmbench_task *t, unsigned state,
		    const char *scenario)
{
	struct pmbench_schedule s = PMBENCH_SCHEDULE_INIT;
	struct rounds x;
	int control = pmbench_control_enabled(o->control);
	int ret;

	memset(&x, 0, sizeof(x));
	x.ctx = ctx;
	x.r = r;
	x.o = o;
	x.f = f;
	x.states = states;
	x.nr = nr;
	x.task = t;
	x.state = state;
	x.scenario = scenario;
	pmbench_strvec_init(&x.cells);
	pmbench_strvec_init(&x.bare[0]);
	pmbench_strvec_init(&x.bare[1]);
	pmbench_strvec_init(&x.bare_env);
	pmbench_buf_init(&x.group);
	pmbench_strvec_push(&x.cells, t->name);
	for (size_t i = 0;
	     t->flags & PMBENCH_TASK_FIXTURE_SCRIPTS && i < f->scripts.nr; i++)
		pmbench_strvec_pushf(&x.cells, "%s:%s", t->name,
				     f->scripts.v[i]);
	if (t->note_key)
		pmbench_result_env_set(r, t->note_key, t->note);
	add_cells(&x);
	if (t->flags & PMBENCH_TASK_BASELINES)
		add_baselines(&x);
	if (control)
		pmbench_result_add_cell(r, f->name, t->name, scenario,
					PMBENCH_CONTROL_PM);
	plan_progress(&x);

	s.ctx = ctx;
	s.nr = nr;
	s.warmup = o->warmup;
	s.runs = o->runs;
	s.turn = turn;
	s.round_done = round_done;
	if (control)
		s.round_start = control_turn;
	s.payload = &x;
	s.shard = o->shard;
	s.shards = o->shards;
	s.result = r;
	if (o->runs_auto) {
		s.autostop = &o->autostop;
		s.fixture = f->name;
		s.task = t->name;
		s.scenario = scenario;
	}
	ret = pmbench_schedule_run(&s);
	if (!ret && o->explain > 0 && t->explain)
		ret = explain_runs(&x);

	pmbench_strvec_release(&x.cells);
	pmbench_strvec_release(&x.bare[0]);
	pmbench_strvec_release(&x.bare[1]);
	pmbench_strvec_release(&x.bare_env);
	pmbench_buf_release(&x.group);
	return ret;
}

/* The tasks asked for: --task, or the default one. */
static void tasks_of(struct pmbench_strvec *out,
		     const struct pmbench_bench_opts *o)
{
	if (!o->tasks.nr)
		pmbench_strvec_push(out, pmbench_task_default()->name);
	for (size_t i = 0; i < o->tasks.nr; i++)
		pmbench_strvec_push(out, o->tasks.v[i]);
}

static void record_options(struct pmbench_result *r,
			   const struct pmbench_bench_opts *o)
{
	for (size_t i = 0; i < o->pms.nr; i++)
		pmbench_strvec_push(&r->pms, o->pms.v[i]);
	for (size_t i = 0; i < o->scenarios_nr; i++)
		pmbench_strvec_push(&r->scenarios,
				    pmbench_scenario_name(o->scenarios[i]));
	tasks_of(&r->tasks, o);
	r->runs = o->runs;
	r->warmup = o->warmup;
	r->timeout_ns = o->timeout_ns;
	r->seed = o->seed;
	r->shard = o->shard;
	r->shards = o->shards;
	for (size_t i = 0; o->arguments && i < o->arguments->nr; i++)
		pmbench_strvec_push(&r->arguments, o->arguments->v[i]);
	if (o->runs_auto) {
		r->runs_auto = 1;
		r->auto_target = o->autostop.target;
		r->auto_min_runs = o->autostop.min_runs;
		r->auto_budget_ns = o->autostop.budget_ns;
	}
}

/*
 * The timed scenarios without a lockfile ("clean, cache") into `out`:
 * those of the tasks timed per scenario (install). Returns how many.
 */
static size_t unlocked_scenarios(struct pmbench_buf *out,
				 const struct pmbench_bench_opts *o,
				 const struct pmbench_strvec *tasks)
{
	size_t n = 0;
	int per_scenario = 0;

	for (size_t i = 0; i < tasks->nr; i++) {
		const struct pmbench_task *t = pmbench_task_get(tasks->v[i]);

		per_scenario |= t && t->flags & PMBENCH_TASK_PER_SCENARIO;
	}
	for (size_t i = 0; per_scenario && i < o->scenarios_nr; i++) {
		if (o->scenarios[i] & PMBENCH_STATE_LOCKFILE)
			continue;
		pmbench_buf_addf(out, "%s%s", n++ ? ", " : "",
				 pmbench_scenario_name(o->scenarios[i]));
	}
	return n;
}

/*
 * A PM primed from a lockfile (the fixture ships it) is primed once more
 * without one when a timed scenario has none: such a run resolves
 * afresh, and what it asks for must be in the mirror, or its requests
 * fall through to the sealed verdaccio and fail. The time it added is
 * said and recorded. The live registry needs none.
 */
static int prime_unlocked(struct pmbench_ctx *ctx, struct pmbench_result *r,
			  const struct pmbench_bench_opts *o,
			  struct pmbench_pmrun *states, size_t nr,
			  const struct pmbench_strvec *tasks)
{
	struct pmbench_buf names = PMBENCH_BUF_INIT, rec = PMBENCH_BUF_INIT;
	double total = 0, secs;
	int ret = 0;

	/* Only the local mirror keeps what it fetches. */
	if (!pmbench_registry_priming(ctx->registry) ||
	    !unlocked_scenarios(&names, o, tasks))
		goto done;
	for (size_t i = 0; i < nr && !ret; i++) {
		if (states[i].prime_failure || !states[i].primed_locked)
			continue;
		ret = pmbench_pmrun_prime_unlocked(&states[i], o->timeout_ns,
						   names.ptr, &secs);
		total += secs;
		pmbench_buf_addf(&rec, "%s%s %.2f s", rec.len ? ", " : "",
				 states[i].pm->name, secs);
	}
	if (ret < 0 || !rec.len)
		goto done;
	pmbench_ctx_event(ctx,
			  "the primings without a lockfile added %.2f s (%s), "
			  "so that the runs in %s find what they resolve in "
			  "the mirror",
			  total, rec.ptr, names.ptr);
	pmbench_buf_addf(&rec,
			 ": primed again without the lockfile the priming "
			 "installed from, for %s",
			 names.ptr);
	pmbench_result_env_set(r, "priming_without_lockfile", rec.ptr);
done:
	pmbench_buf_release(&names);
	pmbench_buf_release(&rec);
	return ret;
}

/* Check out the fixture and prime every PM once. */
static int prime_all(struct pmbench_ctx *ctx, struct pmbench_result *r,
		     const struct pmbench_bench_opts *o,
		     struct pmbench_fixture *f, struct pmbench_pmrun *states,
		     size_t nr)
{
	struct pmbench_strvec tasks = PMBENCH_STRVEC_INIT;
	int ret;

	pmbench_ctx_status(ctx, "%s: checking out", f->name);
	ret = pmbench_fixture_checkout(f, ctx->cache_dir);
	if (ret < 0)
		return ret;
	pmbench_result_add_fixture(r, f->name, f->repo, f->resolved_commit,
				   f->subdir, f->description);
	tasks_of(&tasks, o);
	/* The mirror's uplink is live for priming only (registry.h). */
	ret = pmbench_registry_prime(ctx->registry, ctx);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < nr; i++) {
		pmbench_pmrun_reset(&states[i]);
		pmbench_workspace_init(&states[i].ws, states[i].pm,
				       ctx->cache_dir, f->name, f->source_dir,
				       f->subdir);
		pmbench_pmrun_compose(&states[i], f, &o->env);
		ret = pmbench_pmrun_prime_from(&states[i], o->timeout_ns,
					       o->from_pm, o->from_lock);
		if (!ret && o->on_primed)
			ret = o->on_primed(f, &states[i], o->payload);
		/* What a task fetches beyond the priming (update's bump). */
		for (size_t ti = 0; !ret && ti < tasks.nr; ti++) {
			const struct pmbench_task *t =
				pmbench_task_get(tasks.v[ti]);

			if (t && t->prime)
				ret = t->prime(&states[i], o->timeout_ns);
		}
		if (ret < 0)
			goto done;
	}
	ret = prime_unlocked(ctx, r, o, states, nr, &tasks);
	if (ret < 0)
		goto done;
	ret = pmbench_registry_seal(ctx->registry, ctx);
	/* What sealing learnt (the upstream's caching headers). */
	if (ret == 0)
		pmbench_registry_record(ctx->registry, r);
done:
	pmbench_strvec_release(&tasks);
	return ret;
}

/*
 * Every task asked for: those timed per scenario (install) first, each
 * scenario in turn, then those on the primed trees in the order given.
 */
static int bench_fixture(struct pmbench_ctx *ctx, struct pmbench_result *r,
			 const struct pmbench_bench_opts *o,
			 struct pmbench_fixture *f,
			 struct pmbench_pmrun *states, size_t nr)
{
	struct pmbench_strvec tasks = PMBENCH_STRVEC_INIT;
	int ret = prime_all(ctx, r, o, f, states, nr);

	tasks_of(&tasks, o);
	for (size_t ti = 0; !ret && ti < tasks.nr; ti++) {
		const struct pmbench_task *t = pmbench_task_get(tasks.v[ti]);

		for (size_t si = 0; t && t->flags & PMBENCH_TASK_PER_SCENARIO &&
				    si < o->scenarios_nr && !ret;
		     si++) {
			ret = run_task(ctx, r, o, f, states, nr, t,
				       o->scenarios[si],
				       pmbench_scenario_name(o->scenarios[si]));
			save(ctx, r, o);
		}
	}
	for (size_t ti = 0; !ret && ti < tasks.nr; ti++) {
		const struct pmbench_task *t = pmbench_task_get(tasks.v[ti]);

		if (!t || t->flags & PMBENCH_TASK_PER_SCENARIO)
			continue;
		pmbench_result_env_set(r, "task_state",
				       "tasks other than install work in a "
				       "fresh copy of each PM's primed tree "
				       "(cache, lockfile and node_modules from "
				       "its own install); the build output "
				       "folder and node_modules/.vite, .cache "
				       "and .tmp are removed before every run, "
				       "outside the timed window");
		ret = run_task(ctx, r, o, f, states, nr, t, PRIMED_STATE,
			       PMBENCH_TASK_SCENARIO);
		save(ctx, r, o);
	}
	pmbench_strvec_release(&tasks);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < nr; i++)
		pmbench_workspace_discard_all(&states[i].ws);
	return 0;
}

int pmbench_bench_run(struct pmbench_ctx *ctx, struct pmbench_result *r,
		      const struct pmbench_bench_opts *o,
		      struct pmbench_fixture *fixtures, size_t fixtures_nr)
{
	struct pmbench_pmrun *states =
		pmbench_xcalloc(o->pms.nr ? o->pms.nr : 1, sizeof(*states));
	size_t nr = 0;
	int ret;

	for (size_t i = 0; i < o->tasks.nr; i++) {
		if (!pmbench_task_get(o->tasks.v[i])) {
			struct pmbench_buf b = PMBENCH_BUF_INIT;

			pmbench_task_list(&b, 0);
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "'%s' is not a task; use %s",
						 o->tasks.v[i], b.ptr);
			pmbench_buf_release(&b);
			goto done;
		}
	}
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
	/* The resets' deletions wait in the trash unless the disk is short. */
	if (pmbench_fs_trash_forced()) {
		pmbench_result_env_set(r, "trash_emptied_between_runs",
				       "yes: the disk ran short, so some runs "
				       "followed the deletion of earlier runs' "
				       "trees");
		pmbench_ctx_warn(ctx, "the disk ran short of space for the "
				      "trash: some runs followed a large "
				      "deletion of earlier runs' trees");
	}
done:
	pmbench_ctx_done(ctx);
	for (size_t i = 0; i < o->pms.nr; i++)
		pmbench_pmrun_release(&states[i]);
	free(states);
	return ret;
}
