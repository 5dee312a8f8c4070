/*
 * `pmbench bench`: prime every PM once per fixture, then time each task
 * of the task table that was asked for, in rounds (the scheduler): an
 * install task once per scenario, the others on each PM's primed tree.
 * Everything a task does is its entry's operations; this file only
 * makes the cells, runs the rounds and reports each run.
 */
#include "pmbench/common.h"

#include <math.h>

#include "pmbench/bench.h"
#include "pmbench/control.h"
#include "pmbench/ctx.h"
#include "pmbench/explain.h"
#include "pmbench/statecheck.h"
#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/node.h"
#include "pmbench/pm.h"
#include "pmbench/pmrun.h"
#include "pmbench/pmversion.h"
#include "pmbench/prior.h"
#include "pmbench/proc.h"
#include "pmbench/registry.h"
#include "pmbench/scenario.h"
#include "pmbench/schedule.h"
#include "pmbench/stats.h"
#include "pmbench/task.h"
#include "pmbench/trashplan.h"

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
	uint64_t rewaited_ns;	     /* the first round's wait: not timing */
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
	/*
	 * The budget (NULL arrays without one): each PM's runs per round
	 * and the cost of one of its runs (reset included) in its last
	 * turn, the control's last cost, the participants of the round
	 * (indices into states; NULL: all), the timed rounds so far.
	 */
	unsigned *k;
	uint64_t *cost_ns;
	uint64_t control_ns, control_at; /* its cost, when it last ended */
	/* What a run of each PM, and the control, leave in the trash. */
	struct pmbench_trash_need *trash, control_trash;
	/*
	 * A warm-up turn's trash is its run's alone, from after its reset
	 * (`prepared`): see turn().
	 */
	struct pmbench_fs_trash_room prepared;
	const size_t *who;
	unsigned timed;
	/* The budget's plan: when the command ends (monotonic; 0: none). */
	const uint64_t *end_at;
	/*
	 * bench --base: the base side's cells' fixture ("name@base"), whose
	 * PMs are the second half of states; NULL: one side.
	 */
	char *base_name;
};

/* The Node of the fixture being run, and the pinned one to go back to. */
struct node_use {
	const char *pinned_dir;
	const struct pmbench_node *pinned;
	struct pmbench_node node;
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

/* The fixture of `ps`'s cells: its side's (bench --base). */
static const char *fx(const struct rounds *x, const struct pmbench_pmrun *ps)
{
	return x->base_name && (size_t)(ps - x->states) >= x->nr / 2
		       ? x->base_name
		       : x->f->name;
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
 * Why the job's PM cannot do the task (yarn 1 has no lockfile-only
 * install), or, for an install, be told --scripts (bun cannot run them
 * all), or NULL: it can.
 */
static const char *unsupported(const struct rounds *x,
			       const struct pmbench_task_job *j)
{
	const char *why = x->task->unsupported ? x->task->unsupported(j) : NULL;

	if (!why && x->task->flags & PMBENCH_TASK_PER_SCENARIO)
		why = pmbench_pm_scripts_refusal(j->ps->pm, x->o->scripts);
	return why;
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
		x->r, fx(x, ps), name, x->scenario, ps->pm->name);
	const char *why = unsupported(x, &j);

	pmbench_pmrun_describe_cell(cell, ps);
	if (ps->runtime)
		cell->runtime = pmbench_xstrdup(ps->runtime);
	if (ps->node)
		cell->node = pmbench_xstrdup(ps->node);
	if (ps->pm_config)
		cell->pm_config = pmbench_xstrdup(ps->pm_config);
	cell->scripts_choice = (int)ps->scripts_choice;
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

static int node_has_run(const struct pmbench_ctx *ctx,
			const struct pmbench_result *r)
{
	const char *v = ctx->node && ctx->node->version
				? ctx->node->version
				: pmbench_result_env_get(r, "node_version");

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
	int node_run = node_has_run(x->ctx, x->r);
	size_t given;

	pmbench_strvec_pushv(&x->bare_env, pmbench_ci_vars);
	/* The bare runs use the Node the PMs run under. */
	pmbench_node_path_env(&x->bare_env, x->ctx, NULL);
	for (size_t i = 0; i < f->env.nr; i++)
		pmbench_strvec_push(&x->bare_env, f->env.v[i]);
	given = x->bare_env.nr;
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
		pmbench_pmrun_env_record(&cell->env, &x->bare_env, given,
					 x->bare_env.nr);
	}
}

/* The scenario's name for an install task, else the cell's task. */
static const char *label(const struct rounds *x, const char *cell)
{
	return x->task->flags & PMBENCH_TASK_PER_SCENARIO ? x->scenario : cell;
}

/*
 * A progress report of kind `kind` about `pm`'s cell of `fixture` (NULL:
 * no side, as the control's) in this group: with --base, its side too.
 */
static struct pmbench_progress progress_of(const struct rounds *x,
					   enum pmbench_progress_kind kind,
					   const char *pm, const char *fixture)
{
	struct pmbench_progress p;

	memset(&p, 0, sizeof(p));
	p.kind = kind;
	p.group = x->group.ptr;
	p.pm = pm;
	if (x->base_name && fixture)
		p.side = strcmp(fixture, x->base_name) ? "head" : "base";
	p.done = x->done;
	p.total = x->total;
	if (x->end_at && *x->end_at > pmbench_now_ns())
		p.eta_s = (double)(*x->end_at - pmbench_now_ns()) / 1e9;
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
		progress_of(x, PMBENCH_PROGRESS_EVENT, cell->pm, cell->fixture);

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
	pmbench_ctx_report(
		x->ctx, &p, "%s %s %s %s %u/%u%s: %.3f s%s", cell->fixture,
		label(x, cell->task), cell->pm, s->warmup ? "warm-up" : "run",
		x->k && !round->warmup ? x->timed + 1 : round->nth,
		x->k && !round->warmup ? x->o->budget.max_runs : round->of,
		s->repeat ? " (repeat)" : "", (double)s->wall_ns / 1e9, b.ptr);
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
		pmbench_sample_stopped(s, ps->ctx);
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

/* One cell's run in a prepared copy (`rep`: the repeat in the round). */
static int run_cell(struct rounds *x, struct pmbench_pmrun *ps,
		    const char *name, const struct pmbench_round *round,
		    int prepared, unsigned rep)
{
	struct pmbench_task_job j = job_of(x, ps, name);
	struct pmbench_strvec argv = PMBENCH_STRVEC_INIT;
	struct pmbench_cell *cell;
	struct pmbench_sample *s;
	int ret;

	/* The cell array grows: never keep pointers across additions. */
	cell = pmbench_result_find_cell(x->r, fx(x, ps), name, x->scenario,
					ps->pm->name);
	if (cell->prime_failure)
		return 0;
	s = new_sample(cell, round);
	s->repeat = rep;
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

/*
 * One run of every cell of a PM: prepare its copy (its own reset state),
 * then run each cell in it.
 */
static int one_pass(struct rounds *x, struct pmbench_pmrun *ps,
		    const struct pmbench_round *round, unsigned rep)
{
	struct pmbench_task_job j = job_of(x, ps, x->task->name);
	struct pmbench_progress p = progress_of(x, PMBENCH_PROGRESS_STATUS,
						ps->pm->name, fx(x, ps));
	int prepared, ret = 0;

	pmbench_ctx_report(x->ctx, &p, "%s: %s %s %u/%u", fx(x, ps),
			   label(x, x->task->name), ps->pm->name,
			   round->number + 1, x->o->warmup + x->o->runs);
	prepared = x->task->prepare(&j);
	if (prepared == 0)
		x->bare_dir = ps->ws.run_project;
	settle(x);
	if (x->trash && round->warmup && !rep)
		pmbench_trash_snap(&x->prepared, x->ctx);
	for (size_t k = 0; k < x->cells.nr && !ret; k++)
		ret = run_cell(x, ps, x->cells.v[k], round, prepared, rep);
	return ret;
}

/*
 * What PM ps's turn in `round` left in the trash per run, `t`, on each of
 * its runs' samples (the metrics trash_bytes and trash_files_count): the
 * next command's plan reads them (pmbench_prior_run_trash()).
 */
static void note_run_trash(const struct rounds *x,
			   const struct pmbench_pmrun *ps,
			   const struct pmbench_round *round,
			   const struct pmbench_trash_need *t)
{
	for (size_t k = 0; k < x->cells.nr; k++) {
		struct pmbench_cell *c =
			pmbench_result_find_cell(x->r, fx(x, ps), x->cells.v[k],
						 x->scenario, ps->pm->name);

		for (size_t i = c ? c->samples_nr : 0; i-- > 0;) {
			struct pmbench_sample *s = &c->samples[i];

			if (s->round != round->number ||
			    s->warmup != round->warmup)
				break;
			pmbench_sample_metric_set(s, "trash_bytes",
						  (double)t->bytes);
			pmbench_sample_metric_set(s, "trash_files_count",
						  (double)t->files);
		}
	}
}

/*
 * One PM's turn in a round: its runs (k of them with a budget, each
 * from its own reset state), and what one cost.
 */
static int turn(size_t w, const struct pmbench_round *round, void *payload)
{
	struct rounds *x = payload;
	size_t i = x->who ? x->who[w] : w;
	struct pmbench_pmrun *ps = &x->states[i];
	struct pmbench_task_job j;
	/* Before the first round set the repeats (no warm-up): once. */
	unsigned k = x->k && !round->warmup && x->k[i] ? x->k[i] : 1;
	uint64_t t0 = pmbench_now_ns();
	struct pmbench_fs_trash_room room;
	int ret = 0;

	if (ps->prime_failure)
		return 0;
	j = job_of(x, ps, x->task->name);
	/* A PM that has no way to do the task: its cell says so. */
	if (unsupported(x, &j))
		return 0;
	if (x->trash)
		pmbench_trash_snap(&room, x->ctx);
	memset(&x->prepared, 0, sizeof(x->prepared));
	for (unsigned rep = 0; rep < k && !ret; rep++)
		ret = one_pass(x, ps, round, rep);
	if (x->cost_ns)
		x->cost_ns[i] = (pmbench_now_ns() - t0) / k;
	/*
	 * A warm-up's reset puts the state's cache and node_modules in
	 * place for the first time, and they stay: its turn is no guide to
	 * a timed one (todo-api, cache+lockfile: yarn's warm-up turn left
	 * 453 MB, its timed turns 25; in cache+lockfile+node_modules every
	 * warm-up turn 25 MB, the timed ones 0 to 0.05), so the first
	 * bench in a new work folder saw its trash full after the minimum
	 * rounds, held 0:05 of further rounds, said 5:04 and took 6:11
	 * (2026-12-06). Its run alone is what a timed turn leaves.
	 */
	if (x->trash && round->warmup && x->prepared.avail_bytes)
		room = x->prepared;
	if (x->trash && room.avail_bytes) {
		pmbench_trash_took(&x->trash[i], &room, x->ctx, k);
		note_run_trash(x, ps, round, &x->trash[i]);
	}
	return ret;
}

/*
 * The budget's repeats, once the first round (a warm-up, usually) gave
 * every PM's cost: k per PM (pmbench_schedule_repeats()).
 */
static void set_repeats(struct rounds *x)
{
	uint64_t sum = 0, slowest = 0;

	if (!x->k || x->k[0])
		return;
	for (size_t i = 0; i < x->nr; i++) {
		sum += x->cost_ns[i];
		if (x->cost_ns[i] > slowest)
			slowest = x->cost_ns[i];
	}
	for (size_t i = 0; i < x->nr; i++)
		x->k[i] = pmbench_schedule_repeats(x->cost_ns[i], sum, slowest,
						   &x->o->budget);
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
	set_repeats(x);
	if (!round->warmup)
		x->timed++;
	return ret;
}

/*
 * The first control after the wait before timing: a file system still
 * slowed where it writes makes pmbench wait again (fswait.c), said in
 * the result beside the first wait.
 */
static int recheck(struct rounds *x, double files_s)
{
	struct pmbench_buf note = PMBENCH_BUF_INIT, all = PMBENCH_BUF_INIT;
	uint64_t t0 = pmbench_now_ns();
	const char *was;
	int ret = pmbench_workspace_recheck_reuse(x->ctx, files_s, &note);

	x->rewaited_ns += pmbench_now_ns() - t0;
	if (note.len) {
		was = pmbench_result_env_get(x->r, "inode_reuse_wait");
		if (was)
			pmbench_buf_addf(&all, "%s; ", was);
		pmbench_buf_add(&all, note.ptr, note.len);
		pmbench_result_env_set(x->r, "inode_reuse_wait", all.ptr);
	}
	pmbench_buf_release(&note);
	pmbench_buf_release(&all);
	return ret;
}

/* The drift control, first in every round. */
static int control_run(struct rounds *x, const struct pmbench_round *round)
{
	struct pmbench_sample *s;
	double files_s;
	struct pmbench_cell *cell =
		pmbench_result_find_cell(x->r, x->f->name, x->task->name,
					 x->scenario, PMBENCH_CONTROL_PM);
	struct pmbench_progress p = progress_of(x, PMBENCH_PROGRESS_STATUS,
						PMBENCH_CONTROL_PM, NULL);
	struct pmbench_fs_trash_room room;
	uint64_t t0;
	int ret;

	pmbench_ctx_report(x->ctx, &p, "%s: %s %s %u/%u", x->f->name,
			   label(x, x->task->name), PMBENCH_CONTROL_PM,
			   round->number + 1, x->o->warmup + x->o->runs);
	settle(x);
	if (x->trash)
		pmbench_trash_snap(&room, x->ctx);
	t0 = pmbench_now_ns();
	s = new_sample(cell, round);
	ret = pmbench_control_run(x->ctx, x->ctx->cache_dir, s);
	x->control_at = pmbench_now_ns();
	x->control_ns = x->control_at - t0;
	if (x->trash)
		pmbench_trash_took(&x->control_trash, &room, x->ctx, 1);
	if (ret == 0)
		report(x, cell, round);
	if (ret == 0 && s->ok &&
	    pmbench_sample_metric_get(s, "control_files_s", &files_s))
		ret = recheck(x, files_s);
	return ret;
}

/* One `--explain` run of a PM: its copy prepared, then the run. */
static int explain_one(struct rounds *x, struct pmbench_pmrun *ps, unsigned k)
{
	struct pmbench_task_job j = job_of(x, ps, x->task->name);
	struct pmbench_progress p = progress_of(x, PMBENCH_PROGRESS_STATUS,
						ps->pm->name, fx(x, ps));
	struct pmbench_buf name = PMBENCH_BUF_INIT;
	struct pmbench_explain_run *e;
	int ret;

	pmbench_ctx_report(x->ctx, &p, "%s: %s %s explained %u/%d", fx(x, ps),
			   label(x, x->task->name), ps->pm->name, k + 1,
			   x->o->explain);
	ret = x->task->prepare(&j);
	e = pmbench_cell_add_explain(pmbench_result_find_cell(
		x->r, fx(x, ps), x->task->name, x->scenario, ps->pm->name));
	if (ret < 0) {
		if (pmbench_ctx_cancelled(x->ctx))
			return PMBENCH_EINTERRUPTED;
		e->failure = pmbench_xstrdup(pmbench_error_last());
		return 0;
	}
	pmbench_buf_addf(&name, "%s-%s-%s-%u", fx(x, ps), x->scenario,
			 pmbench_pm_folder(ps->pm), k + 1);
	for (size_t i = 0; i < name.len; i++)
		if (name.ptr[i] == '+' || name.ptr[i] == '/')
			name.ptr[i] = '_';
	ret = x->task->explain(&j, e, name.ptr);
	pmbench_buf_release(&name);
	return ret;
}

/* Whether `ps`'s cell gets untimed runs after the timed ones. */
static int untimed_ok(const struct rounds *x, const struct pmbench_pmrun *ps,
		      const struct pmbench_cell *cell,
		      const struct pmbench_task_job *j)
{
	return !ps->prime_failure && cell && !cell->prime_failure &&
	       !unsupported(x, j);
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
		struct pmbench_cell *cell =
			pmbench_result_find_cell(x->r, fx(x, ps), x->task->name,
						 x->scenario, ps->pm->name);

		if (!untimed_ok(x, ps, cell, &j))
			continue;
		free(cell->explain_how);
		cell->explain_how = pmbench_explain_how(ps);
		for (int k = 0; k < x->o->explain && !ret; k++)
			ret = explain_one(x, ps, (unsigned)k);
	}
	return ret;
}

/* The offline proof of `ps`'s warm cell: its copy prepared, the run. */
static int prove_one(struct rounds *x, struct pmbench_pmrun *ps,
		     struct pmbench_cell *cell,
		     const struct pmbench_task_job *j)
{
	struct pmbench_progress p = progress_of(x, PMBENCH_PROGRESS_STATUS,
						ps->pm->name, fx(x, ps));
	int ret;

	pmbench_ctx_report(x->ctx, &p, "%s: %s %s proven offline", x->f->name,
			   label(x, x->task->name), ps->pm->name);
	ret = x->task->prepare(j);
	if (ret < 0) {
		if (pmbench_ctx_cancelled(x->ctx))
			return PMBENCH_EINTERRUPTED;
		free(cell->proof_why);
		cell->proof_why = pmbench_xstrdup(pmbench_error_last());
		pmbench_error_clear();
		return 0;
	}
	return x->task->prove(j, cell);
}

/*
 * `--prove-offline`: after the timed rounds of a warm scenario (its
 * cache or node_modules in place), one untimed run of every PM with the
 * registry refusing every request, its verdict into the cell. Cold
 * scenarios are not proven: they need the registry.
 */
static int prove_runs(struct rounds *x)
{
	int ret = 0;

	if (!x->o->prove || !x->task->prove || !pmbench_state_warm(x->state))
		return 0;
	for (size_t i = 0; i < x->nr && !ret; i++) {
		struct pmbench_pmrun *ps = &x->states[i];
		struct pmbench_task_job j = job_of(x, ps, x->task->name);
		struct pmbench_cell *cell = pmbench_result_find_cell(
			x->r, x->f->name, x->task->name, x->scenario,
			ps->pm->name);

		if (untimed_ok(x, ps, cell, &j))
			ret = prove_one(x, ps, cell, &j);
	}
	return ret;
}

/* The untimed runs after a group's timed ones: explained, proven. */
static int untimed_runs(struct rounds *x)
{
	int ret = 0;

	if (x->o->explain > 0 && x->task->explain)
		ret = explain_runs(x);
	if (!ret)
		ret = prove_runs(x);
	return ret;
}

/*
 * Under a budget, a round past the first ones times the control only
 * when its cost is at most this share of the time since it last ran:
 * cheap rounds would otherwise pay for it every time (0.1 to 0.7 s on
 * the shared 2-core machine, against 10 to 300 ms rounds of fake PMs),
 * and its drift line needs its first and last rounds, not every one.
 */
#define CONTROL_SHARE 0.10

static int control_turn(const struct pmbench_round *round, void *payload)
{
	struct rounds *x = payload;

	if (x->k && x->timed >= x->o->budget.min_runs &&
	    (double)(pmbench_now_ns() - x->control_at) * CONTROL_SHARE <
		    (double)x->control_ns)
		return 0;
	return control_run(x, round);
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
					  x->r, fx(x, &x->states[i]),
					  x->cells.v[k], x->scenario,
					  x->states[i].pm->name)
					  ->prime_failure;
	if (cells)
		cells += (unsigned)x->bare_nr;
	x->total = (x->o->warmup + x->o->runs) * cells;
}

/*
 * One task of a checked-out, primed fixture for the `nr` PMs in
 * `states`, starting each run from `state`, its cells in `scenario`: a
 * cell per PM (and per fixture script, and baseline, when the task has
 * them). rounds_run() then runs its rounds, rounds_close() frees it.
 */
static void
rounds_open(struct rounds *x, struct pmbench_ctx *ctx, struct pmbench_result *r,
	    const struct pmbench_bench_opts *o, const struct pmbench_fixture *f,
	    struct pmbench_pmrun *states, size_t nr,
	    const struct pmbench_task *t, unsigned state, const char *scenario)
{
	memset(x, 0, sizeof(*x));
	x->ctx = ctx;
	x->r = r;
	x->o = o;
	x->f = f;
	x->states = states;
	x->nr = nr;
	x->task = t;
	x->state = state;
	x->scenario = scenario;
	pmbench_strvec_init(&x->cells);
	pmbench_strvec_init(&x->bare[0]);
	pmbench_strvec_init(&x->bare[1]);
	pmbench_strvec_init(&x->bare_env);
	pmbench_buf_init(&x->group);
	if (o->base_commit) {
		pmbench_buf_addf(&x->group, "%s" PMBENCH_RESULT_BASE_SIDE,
				 f->name);
		x->base_name = pmbench_buf_detach(&x->group);
	}
	pmbench_strvec_push(&x->cells, t->name);
	for (size_t i = 0;
	     t->flags & PMBENCH_TASK_FIXTURE_SCRIPTS && i < f->scripts.nr; i++)
		pmbench_strvec_pushf(&x->cells, "%s:%s", t->name,
				     f->scripts.v[i]);
	if (t->note_key)
		pmbench_result_env_set(r, t->note_key, t->note);
	add_cells(x);
	if (t->flags & PMBENCH_TASK_BASELINES)
		add_baselines(x);
	if (pmbench_control_enabled(o->control))
		pmbench_result_add_cell(r, f->name, t->name, scenario,
					PMBENCH_CONTROL_PM);
	plan_progress(x);
	if (o->runs_auto) {
		x->k = pmbench_xcalloc(nr ? nr : 1, sizeof(*x->k));
		x->cost_ns = pmbench_xcalloc(nr ? nr : 1, sizeof(*x->cost_ns));
		x->trash = pmbench_xcalloc(nr ? nr : 1, sizeof(*x->trash));
	}
}

/*
 * Rounds `first` on: `warmup` warm-ups, then `runs` timed rounds, for
 * the `who_nr` PMs of `who` (NULL: all). `waited` gets the file-system
 * waits (the first schedule's, before its rounds and in its first).
 */
static int rounds_run(struct rounds *x, unsigned first, unsigned warmup,
		      unsigned runs, const size_t *who, size_t who_nr,
		      uint64_t *waited)
{
	struct pmbench_schedule s = PMBENCH_SCHEDULE_INIT;
	const struct pmbench_bench_opts *o = x->o;
	int ret;

	s.ctx = x->ctx;
	s.nr = who ? who_nr : x->nr;
	s.warmup = warmup;
	s.runs = runs;
	s.first_round = first;
	s.turn = turn;
	s.round_done = round_done;
	if (pmbench_control_enabled(o->control))
		s.round_start = control_turn;
	s.payload = x;
	s.shard = o->shard;
	s.shards = o->shards;
	s.result = x->r;
	s.waited_ns = waited;
	x->who = who;
	ret = pmbench_schedule_run(&s);
	x->who = NULL;
	/* A wait again in the first round is the budget's no more. */
	if (waited)
		*waited += x->rewaited_ns;
	x->rewaited_ns = 0;
	return ret;
}

static void rounds_close(struct rounds *x)
{
	pmbench_strvec_release(&x->cells);
	pmbench_strvec_release(&x->bare[0]);
	pmbench_strvec_release(&x->bare[1]);
	pmbench_strvec_release(&x->bare_env);
	pmbench_buf_release(&x->group);
	free(x->base_name);
	x->base_name = NULL;
	free(x->k);
	free(x->cost_ns);
	free(x->trash);
	x->k = NULL;
	x->cost_ns = NULL;
	x->trash = NULL;
}

/* A task in a scenario with the fixed plan: --runs N. */
static int run_task(struct pmbench_ctx *ctx, struct pmbench_result *r,
		    const struct pmbench_bench_opts *o,
		    const struct pmbench_fixture *f,
		    struct pmbench_pmrun *states, size_t nr,
		    const struct pmbench_task *t, unsigned state,
		    const char *scenario)
{
	struct rounds x;
	int ret;

	rounds_open(&x, ctx, r, o, f, states, nr, t, state, scenario);
	ret = rounds_run(&x, 0, o->warmup, o->runs, NULL, 0, NULL);
	if (!ret)
		ret = untimed_runs(&x);
	rounds_close(&x);
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
	free(r->baseline);
	r->baseline = pmbench_xstrdup(
		o->baseline
			? o->baseline
			: pmbench_pm_default_baseline(
				  (const char *const *)o->pms.v, o->pms.nr));
	r->baseline_chosen = o->baseline != NULL;
	for (size_t i = 0; o->arguments && i < o->arguments->nr; i++)
		pmbench_strvec_push(&r->arguments, o->arguments->v[i]);
	if (o->runs_auto)
		pmbench_schedule_record(r, &o->budget);
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

/*
 * The release of its own PM the checked-out repo names (pmversion.h),
 * run instead of the pinned one for this fixture, and recorded in `r`
 * (NULL: not, for the base side) as the version that PM was found at.
 */
static int use_repo_pm(struct pmbench_result *r,
		       const struct pmbench_fixture *f,
		       struct pmbench_pmrun *states, size_t nr,
		       const char *scratch)
{
	struct pmbench_pm_ask ask = PMBENCH_PM_ASK_INIT;
	int ret = 0;

	pmbench_pm_ask_repo(&ask, f->source_dir, f->subdir);
	for (size_t i = 0; i < nr && !ret; i++) {
		struct pmbench_result_pm *p = NULL;

		ret = pmbench_pmrun_use_repo_pm(&states[i], &ask, scratch);
		for (size_t k = 0; !ret && r && k < r->found_nr && !p; k++)
			if (!strcmp(r->found[k].name, states[i].pm->name))
				p = &r->found[k];
		if (p && states[i].found.version) {
			free(p->version);
			free(p->path);
			p->version = pmbench_xstrdup(states[i].found.version);
			p->path = pmbench_xstrdup(states[i].found.path);
		}
	}
	if (ret < 0) {
		char *why = pmbench_xstrdup(pmbench_error_last());

		ret = pmbench_error_setc(ret, "%s: %s", f->name, why);
		free(why);
	}
	pmbench_pm_ask_release(&ask);
	return ret;
}

/*
 * The Node the checked-out fixture runs under (node.h): chosen,
 * installed if need be (outside any timed run), put in the context, and
 * given to every PM (of both sides: the head's choice) and the fixture's
 * record.
 */
static int use_node(struct pmbench_ctx *ctx, struct pmbench_result *r,
		    const struct pmbench_bench_opts *o,
		    const struct pmbench_fixture *f,
		    struct pmbench_pmrun *states, size_t nr, struct node_use *u)
{
	struct pmbench_node_ask ask = PMBENCH_NODE_ASK_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int ret;

	ctx->node_dir = u->pinned_dir;
	ctx->node = u->pinned;
	pmbench_node_ask_repo(&ask, f->source_dir, f->subdir);
	pmbench_ctx_status(ctx, "%s: choosing its Node", f->name);
	ret = pmbench_node_choose(&u->node, ctx, o->node, &ask, u->pinned_dir);
	pmbench_node_ask_release(&ask);
	if (ret < 0)
		return ret;
	ctx->node_dir = u->node.bin;
	ctx->node = &u->node;
	if (u->node.warning)
		pmbench_ctx_warn(ctx, "%s: %s", f->name, u->node.warning);
	pmbench_buf_addf(&b, "%s: %s",
			 u->node.version ? u->node.version : "unknown",
			 u->node.why);
	r->fixtures[r->fixtures_nr - 1].node = pmbench_buf_detach(&b);
	pmbench_buf_path(&b, ctx->cache_dir, "tmp");
	for (size_t i = 0; i < nr; i++)
		pmbench_pmrun_use_node(&states[i], b.ptr);
	pmbench_buf_release(&b);
	return 0;
}

static int pm_config_defaults(const struct pmbench_bench_opts *o)
{
	return o->pm_config && !strcmp(o->pm_config, "defaults");
}

/*
 * The PM configuration of `ps` on `f`: with --pm-config defaults no user
 * file is passed on; what the files set of the table's keys is stated
 * for every cell, and what changes the work is warned about.
 */
static void use_pm_config(struct pmbench_ctx *ctx,
			  const struct pmbench_bench_opts *o,
			  const struct pmbench_fixture *f,
			  struct pmbench_pmrun *ps)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT, w = PMBENCH_BUF_INIT;
	char *line, *nl, *project;

	if (pm_config_defaults(o)) {
		free(ps->ws.npmrc);
		ps->ws.npmrc = NULL;
	}
	pmbench_buf_path(&b, ps->ws.source, ps->ws.subdir);
	project = pmbench_buf_detach(&b);
	pmbench_pm_conf_scan(&b, &w, ps->pm, project, ps->ws.npmrc);
	free(project);
	if (!b.len)
		pmbench_buf_adds(&b, "none set");
	if (pm_config_defaults(o))
		pmbench_buf_adds(&b, "; --pm-config defaults: no user file");
	free(ps->pm_config);
	ps->pm_config = pmbench_buf_detach(&b);
	for (line = w.ptr; line && (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		pmbench_ctx_warn(ctx, "%s on %s: %s", ps->pm->name, f->name,
				 line);
	}
	pmbench_buf_release(&b);
	pmbench_buf_release(&w);
}

/*
 * bench --base: the base side, the fixture checked out again at the
 * base commit as "<name>@base", into `base`: a shallow copy of `f`
 * whose own fields (name, commit, what the checkout sets) are freed by
 * side_release().
 */
static int side_checkout(struct pmbench_fixture *base, struct pmbench_ctx *ctx,
			 const struct pmbench_fixture *f, const char *commit)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	*base = *f;
	pmbench_buf_addf(&b, "%s" PMBENCH_RESULT_BASE_SIDE, f->name);
	base->name = pmbench_buf_detach(&b);
	base->commit = pmbench_xstrdup(commit);
	base->resolved_commit = NULL;
	base->source_dir = NULL;
	base->project_dir = NULL;
	pmbench_ctx_status(ctx, "%s: checking out", base->name);
	return pmbench_fixture_checkout(base, ctx->cache_dir);
}

static void side_release(struct pmbench_fixture *base)
{
	struct pmbench_fixture blank = PMBENCH_FIXTURE_INIT;

	if (!base->name)
		return;
	free(base->name);
	free(base->commit);
	free(base->resolved_commit);
	free(base->source_dir);
	free(base->project_dir);
	*base = blank;
}

/* Check out the fixture (and its base side) and record them. */
static int checkout_sides(struct pmbench_ctx *ctx, struct pmbench_result *r,
			  const struct pmbench_bench_opts *o,
			  struct pmbench_fixture *f,
			  struct pmbench_fixture *base)
{
	int ret;

	pmbench_ctx_status(ctx, "%s: checking out", f->name);
	ret = pmbench_fixture_checkout(f, ctx->cache_dir);
	if (ret < 0)
		return ret;
	pmbench_result_add_fixture(r, f->name, f->repo, f->resolved_commit,
				   f->subdir, f->description);
	if (!o->base_commit)
		return 0;
	ret = side_checkout(base, ctx, f, o->base_commit);
	if (ret < 0)
		return ret;
	pmbench_result_add_fixture(r, base->name, base->repo,
				   base->resolved_commit, base->subdir,
				   base->description);
	return 0;
}

/*
 * Each side's PMs at the release its own checkout names (use_repo_pm()):
 * a pull request may change the PM's version.
 */
static int use_repo_pms(struct pmbench_ctx *ctx, struct pmbench_result *r,
			const struct pmbench_fixture *f,
			const struct pmbench_fixture *base,
			struct pmbench_pmrun *states, size_t nr)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	size_t half = base ? nr / 2 : nr;
	int ret;

	pmbench_buf_path(&b, ctx->cache_dir, "tmp");
	ret = use_repo_pm(r, f, states, half, b.ptr);
	if (!ret && base)
		ret = use_repo_pm(NULL, base, states + half, half, b.ptr);
	pmbench_buf_release(&b);
	return ret;
}

/* Prime one PM on its side's checkout `f`, untimed. */
static int prime_one(struct pmbench_ctx *ctx,
		     const struct pmbench_bench_opts *o,
		     const struct pmbench_fixture *f, struct pmbench_pmrun *ps,
		     const struct pmbench_strvec *tasks)
{
	int ret;

	pmbench_pmrun_reset(ps);
	pmbench_workspace_init(&ps->ws, ps->pm, ctx->cache_dir, f->name,
			       f->source_dir, f->subdir);
	use_pm_config(ctx, o, f, ps);
	pmbench_pmrun_compose(ps, f, &o->env);
	ret = o->on_workspace ? o->on_workspace(f, ps, o->payload) : 0;
	if (!ret)
		ret = pmbench_pmrun_prime_from(ps, o->timeout_ns, o->from_pm,
					       o->from_lock);
	if (!ret && o->on_primed)
		ret = o->on_primed(f, ps, o->payload);
	/* What a task fetches beyond the priming (update's bump). */
	for (size_t ti = 0; !ret && ti < tasks->nr; ti++) {
		const struct pmbench_task *t = pmbench_task_get(tasks->v[ti]);

		if (t && t->prime)
			ret = t->prime(ps, o->timeout_ns);
	}
	return ret;
}

/*
 * Check out the fixture (with --base, its base side into `base` too,
 * whose PMs are the second half of `states`), choose its Node and prime
 * every PM once.
 */
static int prime_all(struct pmbench_ctx *ctx, struct pmbench_result *r,
		     const struct pmbench_bench_opts *o,
		     struct pmbench_fixture *f, struct pmbench_fixture *base,
		     struct pmbench_pmrun *states, size_t nr,
		     struct node_use *u)
{
	struct pmbench_strvec tasks = PMBENCH_STRVEC_INIT;
	const struct pmbench_fixture *side = o->base_commit ? base : NULL;
	int ret = checkout_sides(ctx, r, o, f, base);

	if (!ret)
		ret = use_node(ctx, r, o, f, states, nr, u);
	if (!ret)
		ret = use_repo_pms(ctx, r, f, side, states, nr);
	if (ret < 0)
		return ret;
	tasks_of(&tasks, o);
	/* The mirror's uplink is live for priming only (registry.h). */
	ret = pmbench_registry_prime(ctx->registry, ctx);
	for (size_t i = 0; !ret && i < nr; i++)
		ret = prime_one(ctx, o, side && i >= nr / 2 ? side : f,
				&states[i], &tasks);
	if (!ret)
		ret = prime_unlocked(ctx, r, o, states, nr, &tasks);
	if (!ret)
		ret = pmbench_registry_seal(ctx->registry, ctx);
	/* What sealing learnt (the upstream's caching headers). */
	if (ret == 0)
		pmbench_registry_record(ctx->registry, r);
	pmbench_strvec_release(&tasks);
	return ret;
}

/* A group of rounds: a task in a scenario (install) or on primed trees. */
struct group {
	const struct pmbench_task *task;
	unsigned state;
	const char *scenario;
};

#define TASK_STATE_NOTE                                                      \
	"tasks other than install work in a fresh copy of each PM's primed " \
	"tree (cache, lockfile and node_modules from its own install); the " \
	"build output folder and node_modules/.vite, .cache and .tmp are "   \
	"removed before every run, outside the timed window"

/*
 * Every task asked for, in order: those timed per scenario (install)
 * first, each scenario in turn, then those on the primed trees in the
 * order given. Returns how many (at most `max`).
 */
static size_t groups_of(struct group *out, size_t max, struct pmbench_result *r,
			const struct pmbench_bench_opts *o)
{
	struct pmbench_strvec tasks = PMBENCH_STRVEC_INIT;
	size_t n = 0;

	tasks_of(&tasks, o);
	for (size_t ti = 0; ti < tasks.nr; ti++) {
		const struct pmbench_task *t = pmbench_task_get(tasks.v[ti]);

		for (size_t si = 0; t && t->flags & PMBENCH_TASK_PER_SCENARIO &&
				    si < o->scenarios_nr && n < max;
		     si++)
			out[n++] = (struct group){
				.task = t,
				.state = o->scenarios[si],
				.scenario =
					pmbench_scenario_name(o->scenarios[si]),
			};
	}
	for (size_t ti = 0; ti < tasks.nr && n < max; ti++) {
		const struct pmbench_task *t = pmbench_task_get(tasks.v[ti]);

		if (!t || t->flags & PMBENCH_TASK_PER_SCENARIO)
			continue;
		pmbench_result_env_set(r, "task_state", TASK_STATE_NOTE);
		out[n++] = (struct group){ .task = t,
					   .state = PRIMED_STATE,
					   .scenario = PMBENCH_TASK_SCENARIO };
	}
	pmbench_strvec_release(&tasks);
	return n;
}

/* The budget of a fixture: its groups' rounds, open together. */
struct budget {
	struct rounds *xs;
	unsigned *rounds; /* timed rounds of each group */
	size_t nr;
	uint64_t start_ns;		     /* the command's start */
	struct pmbench_schedule_cell *cells; /* group-major, nr * PMs */
	double overrun; /* the extra rounds' wall over their estimate, >= 1 */
	/* Per group: its warm-ups' wall, its minimum rounds' (without waits). */
	uint64_t *first_ns, *min_ns;
	uint64_t primed_ns; /* the budget's time before the first round */
	/*
	 * Per group and PM (group-major), before the first timed round: a
	 * timed turn (repeats included) as the warm-up's runs and the
	 * prior's overhead per run predict it; 0: not known (the warm-up's
	 * turn then).
	 */
	uint64_t *turn_ns;
	uint64_t end_at; /* the plan's end (monotonic), for the ETA */
	struct pmbench_trash_tally tally; /* the trash emptied between groups */
};

/*
 * How pm_ratio() judges a cell: by its runs (the allocation's view), by
 * its runs with the same pair's earlier spread (the estimates as the
 * rounds run, pmbench_prior_judge_now()), or as the prior predicts it
 * before the first timed round (pmbench_prior_judge()).
 */
enum judge_by { BY_RUNS, BY_ESTIMATE, BY_PRIOR };

/*
 * PM i of group x against its reference, in `out`: its cells judged
 * `by` (prior: the earlier results), the least settled of them kept.
 * The reference is the baseline PM, or with bench --base the same PM on
 * the base side (which is then the baseline).
 */
static enum pmbench_prior_source
pm_ratio(const struct rounds *x, size_t i, unsigned rounds,
	 const struct pmbench_schedule_budget *o, struct pmbench_prior *prior,
	 enum judge_by by, struct pmbench_schedule_cell *out)
{
	const char *pm = x->states[i].pm->name, *base = x->r->baseline;
	const char *fa = x->f->name, *fb = x->f->name;
	enum pmbench_prior_source src = PMBENCH_PRIOR_SETTLED;
	double most = -1, margin = o->margin;

	if (x->base_name) {
		base = pm;
		fb = x->base_name;
		fa = fx(x, &x->states[i]);
	}
	out->baseline = !strcmp(pm, base) && !strcmp(fa, fb);
	out->excluded = 0;
	out->half = 0;
	for (size_t k = 0; k < x->cells.nr; k++) {
		const char *t = x->cells.v[k];
		struct pmbench_cell *c =
			pmbench_result_find_cell(x->r, fa, t, x->scenario, pm);
		struct pmbench_cell *bc = pmbench_result_find_cell(
			x->r, fb, t, x->scenario, base);
		uint64_t seed =
			x->r->seed + (c ? (size_t)(c - x->r->cells) : 0);

		/* Before the first timed round: as the prior predicts. */
		if (prior && by == BY_PRIOR) {
			enum pmbench_prior_source s = pmbench_prior_judge(
				out, &most, prior, c, bc, rounds, margin);

			if (s < src)
				src = s;
			if (out->excluded || s == PMBENCH_PRIOR_NONE)
				break;
		} else if (prior && by == BY_ESTIMATE) {
			if (pmbench_prior_judge_now(out, &most, prior, c, bc,
						    rounds, margin, o->target,
						    seed))
				break;
		} else if (pmbench_schedule_judge(out, &most, c, bc, rounds,
						  margin, seed)) {
			break;
		}
	}
	return src;
}

/*
 * Every group's PMs judged `by` (BY_RUNS: the allocation's view;
 * BY_ESTIMATE: the estimates'); the control's cost.
 */
static uint64_t budget_cells(struct budget *b,
			     const struct pmbench_bench_opts *o,
			     enum judge_by by)
{
	uint64_t control = 0;

	for (size_t g = 0; g < b->nr; g++) {
		const struct rounds *x = &b->xs[g];

		if (x->control_ns > control)
			control = x->control_ns;
		for (size_t i = 0; i < x->nr; i++) {
			struct pmbench_schedule_cell *c =
				&b->cells[g * x->nr + i];

			c->group = g;
			pm_ratio(x, i, b->rounds[g], &o->budget, x->ctx->prior,
				 by, c);
			c->cost_ns = x->cost_ns[i] * (x->k[i] ? x->k[i] : 1);
			c->next = 0;
		}
	}
	return control;
}

/* The latest successful warm-up's wall time of a cell, in s; -1: none. */
static double warm_wall(const struct pmbench_cell *c)
{
	double w = -1;

	for (size_t i = 0; c && i < c->samples_nr; i++)
		if (c->samples[i].warmup && c->samples[i].ok)
			w = (double)c->samples[i].wall_ns / 1e9;
	return w;
}

/*
 * PM i's timed run in group x as predicted: each of its cells' warm-up
 * run plus what a run cost beyond it in the same group of an earlier
 * result (prior.h); 0 when not known.
 */
static uint64_t prior_run(const struct rounds *x, size_t i,
			  const struct pmbench_prior *p)
{
	const char *pm = x->states[i].pm->name, *fa = fx(x, &x->states[i]);
	double sum = 0;

	for (size_t k = 0; k < x->cells.nr; k++) {
		const char *t = x->cells.v[k];
		double w = warm_wall(
			pmbench_result_find_cell(x->r, fa, t, x->scenario, pm));
		double ov =
			pmbench_prior_run_overhead(p, fa, t, x->scenario, pm);

		if (w < 0 || ov < 0)
			return 0;
		sum += w + ov;
	}
	return (uint64_t)(sum * 1e9);
}

/*
 * What a timed run of PM i in group x leaves in the trash, as the prior
 * says, for the plan before the first timed round (x->trash[i], which
 * the warm-up measured and each timed turn measures again).
 */
static void prior_trash(struct rounds *x, size_t i,
			const struct pmbench_prior *p)
{
	double bytes, files;

	if (!x->trash || !x->cells.nr ||
	    pmbench_prior_run_trash(p, fx(x, &x->states[i]), x->cells.v[0],
				    x->scenario, x->states[i].pm->name, &bytes,
				    &files) < 0)
		return;
	x->trash[i].bytes = (uint64_t)bytes;
	x->trash[i].files = (uint64_t)files;
}

/*
 * Group x's timed turns as the prior predicts them, into `turn` (0: not
 * known): where every PM's run is known and those costs
 * (pmbench_schedule_repeats()) give a PM fewer repeats than its
 * warm-up's turn did, it gets those: a warm-up's turn costs a quarter
 * of a timed one for a fast PM on a large app, and a repeat of pnpm
 * planned at a tenth of the round took a sixth.
 */
static void prior_turns(struct rounds *x, const struct pmbench_prior *p,
			const struct pmbench_schedule_budget *o, uint64_t *turn)
{
	uint64_t sum = 0, slowest = 0;
	size_t known = 0;

	for (size_t i = 0; i < x->nr; i++) {
		prior_trash(x, i, p);
		turn[i] = x->states[i].prime_failure ? 0 : prior_run(x, i, p);
		known += turn[i] || x->states[i].prime_failure;
		sum += turn[i];
		if (turn[i] > slowest)
			slowest = turn[i];
	}
	for (size_t i = 0; i < x->nr; i++) {
		unsigned k;

		/*
		 * Fewer only: more repeats leave more in the trash, and a
		 * bench of todo-api given up to 9 then foresaw an emptying
		 * of 16 GB (7 min) in its first rounds (2026-12-06 18:06).
		 */
		if (known == x->nr && x->k && turn[i]) {
			k = pmbench_schedule_repeats(turn[i], sum, slowest, o);
			if (k < x->k[i])
				x->k[i] = k;
		}
		turn[i] *= x->k && x->k[i] ? x->k[i] : 1;
	}
}

/*
 * What a round of group x leaves in the trash: the control's run and
 * its PMs' (those `runs` marks, where it is not NULL).
 */
static struct pmbench_trash_need round_trash(const struct rounds *x,
					     const int *runs)
{
	struct pmbench_trash_need n = x->control_trash;

	for (size_t i = 0; x->trash && i < x->nr; i++) {
		unsigned k = x->k[i] ? x->k[i] : 1;

		if (runs && !runs[i])
			continue;
		n.bytes += x->trash[i].bytes * k;
		n.files += x->trash[i].files * k;
	}
	return n;
}

/* Group g's round by the PMs `runs` marks (pmbench_trash_round_fn). */
static struct pmbench_trash_need group_trash(void *payload, size_t g,
					     const int *runs)
{
	const struct budget *b = payload;

	return round_trash(&b->xs[g], runs);
}

/*
 * What the further rounds of `need_ns` leave in the trash: each group's
 * rounds as the cells need them, run by the PMs that take part in them
 * (pmbench_trash_pace_of()); not known (ns 0) when need_ns is not.
 */
static struct pmbench_trash_pace
further_pace(struct budget *b, const struct pmbench_bench_opts *o,
	     uint64_t need_ns)
{
	return pmbench_trash_pace_of(b->cells, b->nr, b->xs[0].nr, b->rounds,
				     &o->budget, need_ns, group_trash, b);
}

/*
 * The cells judged as the prior predicts them at pick `p->pick`
 * (prior.h), their turns as it says; the weakest source of a cell.
 */
static enum pmbench_prior_source prior_cells(struct budget *b,
					     const struct pmbench_bench_opts *o,
					     struct pmbench_prior *p,
					     uint64_t *control)
{
	enum pmbench_prior_source src = PMBENCH_PRIOR_SETTLED;

	*control = 0;
	for (size_t g = 0; g < b->nr; g++) {
		struct rounds *x = &b->xs[g];

		if (x->control_ns > *control)
			*control = x->control_ns;
		prior_turns(x, p, &o->budget, &b->turn_ns[g * x->nr]);
		for (size_t i = 0; i < x->nr; i++) {
			struct pmbench_schedule_cell *c =
				&b->cells[g * x->nr + i];
			enum pmbench_prior_source s;

			c->group = g;
			s = pm_ratio(x, i, o->budget.min_runs, &o->budget, p,
				     BY_PRIOR, c);
			if (s < src)
				src = s;
			c->cost_ns = b->turn_ns[g * x->nr + i]
					     ? b->turn_ns[g * x->nr + i]
					     : x->cost_ns[i] *
						       (x->k[i] ? x->k[i] : 1);
			c->next = 0;
		}
	}
	return src;
}

/* The budget and its options, for the prior's view. */
struct prior_view {
	struct budget *b;
	const struct pmbench_bench_opts *o;
};

/* The cells at the prior's pick, and the further rounds they need. */
static enum pmbench_prior_source
view_judge(void *payload, struct pmbench_prior *p, uint64_t *need_ns)
{
	struct prior_view *v = payload;
	struct budget *b = v->b;
	unsigned *rounds = pmbench_xcalloc(b->nr, sizeof(*rounds));
	uint64_t control;
	enum pmbench_prior_source src = prior_cells(b, v->o, p, &control);

	for (size_t g = 0; g < b->nr; g++)
		rounds[g] = v->o->budget.min_runs;
	*need_ns = pmbench_schedule_need_ns(b->cells, b->nr * b->xs[0].nr,
					    rounds, b->nr, control,
					    &v->o->budget);
	free(rounds);
	return src;
}

static struct pmbench_trash_pace view_pace(void *payload, uint64_t need_ns)
{
	struct prior_view *v = payload;

	return further_pace(v->b, v->o, need_ns);
}

/*
 * Before the first timed round: the time the further rounds will need
 * as this machine's earlier results predict (prior.h), UINT64_MAX when
 * none says; `src` the weakest source of a cell, `pairs` the machine's,
 * `pace` what those rounds leave in the trash. Both the mean over the
 * picks of the same pairs' spreads (pmbench_prior_expect()): an
 * expected time; the cells are left as the median judges them.
 */
static uint64_t prior_need(struct budget *b, const struct pmbench_bench_opts *o,
			   enum pmbench_prior_source *src, size_t *pairs,
			   struct pmbench_trash_pace *pace)
{
	static const struct pmbench_prior_view view = { view_judge, view_pace };
	struct pmbench_prior none = PMBENCH_PRIOR_INIT;
	struct pmbench_prior *p = b->xs[0].ctx->prior ? b->xs[0].ctx->prior
						      : &none;
	struct prior_view v = { b, o };
	uint64_t need = pmbench_prior_expect(p, &view, &v, src, pace);

	*pairs = p->pairs;
	return need;
}

/*
 * Before `rounds` rounds of group g (run by the PMs `runs` marks; NULL:
 * all): the trash emptied now if it cannot hold them, rather than by a
 * reset within them (a timed run would then follow the deletion). Its
 * time, as the file system's wait after it (the group's schedule
 * waits), is the budget's, as the plan foresaw.
 */
static int make_room(struct budget *b, size_t g, unsigned rounds,
		     const int *runs)
{
	struct rounds *x = &b->xs[g];
	struct pmbench_trash_need need = round_trash(x, runs);
	int ret = pmbench_trash_make_room(x->ctx, &need, rounds,
					  label(x, x->task->name), &b->tally);

	return ret < 0 ? ret : 0;
}

/* The budget's time spent so far: the whole command's, waits included. */
static uint64_t budget_used(const struct budget *b)
{
	return pmbench_now_ns() - b->start_ns;
}

/*
 * Whether a further round of group g run by the PMs `runs` marks,
 * `est_ns` by its turns, fits in `left_ns` with the trash's emptying it
 * needs first (pmbench_trash_round_fits()).
 */
static int room_fits(const struct budget *b, size_t g, const int *runs,
		     uint64_t est_ns, uint64_t left_ns)
{
	struct pmbench_trash_need need = round_trash(&b->xs[g], runs);

	return pmbench_trash_round_fits(b->xs[g].ctx, &need, est_ns, b->overrun,
					left_ns);
}

/* An extra round took `wall_ns` against its estimate `est_ns`. */
static void note_overrun(struct budget *b, uint64_t wall_ns, uint64_t est_ns)
{
	double r = est_ns ? (double)wall_ns / (double)est_ns : 1;

	if (r > b->overrun)
		b->overrun = r;
}

/*
 * The ETA while rounds are spent: what the cells still need (as the
 * allocation sees them, scaled by the overrun), at most what is left.
 */
static void budget_eta(struct budget *b, const struct pmbench_bench_opts *o,
		       uint64_t left)
{
	uint64_t control = budget_cells(b, o, BY_ESTIMATE);

	b->end_at = pmbench_now_ns() +
		    pmbench_schedule_eta_ns(b->cells, b->nr * b->xs[0].nr,
					    b->rounds, b->nr, control,
					    &o->budget, b->overrun, left);
}

/* Further rounds where the intervals are widest, while the budget lasts. */
static int budget_spend(struct budget *b, const struct pmbench_bench_opts *o)
{
	size_t pms = b->xs[0].nr, *who = pmbench_xcalloc(pms, sizeof(*who));
	int *runs = pmbench_xcalloc(pms, sizeof(*runs));
	int ret = 0;

	while (!ret) {
		uint64_t used = budget_used(b);
		uint64_t left = o->budget.budget_ns > used
					? o->budget.budget_ns - used
					: 0,
			 w = 0;
		uint64_t control, est, t0;
		size_t n = 0;
		long g;

		budget_eta(b, o, left);
		control = budget_cells(b, o, BY_RUNS);
		est = control;
		/*
		 * The estimates are the PMs' last turns; a round costs more
		 * (its control, the result saved): what is left is scaled by
		 * how much more the extra rounds took so far.
		 */
		g = pmbench_schedule_allocate(
			b->cells, b->nr * pms, b->rounds, b->nr, control,
			&o->budget, (uint64_t)((double)left / b->overrun));
		if (g < 0)
			break;
		for (size_t i = 0; i < pms; i++) {
			runs[i] = b->cells[(size_t)g * pms + i].next;
			if (runs[i]) {
				who[n++] = i;
				est += b->cells[(size_t)g * pms + i].cost_ns;
			}
		}
		if (!room_fits(b, (size_t)g, runs, est, left))
			break;
		b->xs[g].total += (unsigned)n;
		ret = make_room(b, (size_t)g, 1, runs);
		if (ret < 0)
			break;
		t0 = pmbench_now_ns();
		ret = rounds_run(&b->xs[g], o->warmup + b->rounds[g], 0, 1, who,
				 n, &w);
		note_overrun(b, pmbench_now_ns() - t0 - w, est);
		b->rounds[g]++;
		save(b->xs[g].ctx, b->xs[g].r, o);
	}
	free(who);
	free(runs);
	return ret;
}

/* Why each cell's scenario stopped adding rounds (cell.stopped_by). */
static void budget_mark(struct budget *b, const struct pmbench_bench_opts *o)
{
	size_t pms = b->xs[0].nr;

	budget_cells(b, o, BY_RUNS);
	for (size_t g = 0; g < b->nr; g++) {
		struct rounds *x = &b->xs[g];

		for (size_t i = 0; i < pms; i++) {
			const char *why = pmbench_schedule_stop_name(
				pmbench_schedule_why(&b->cells[g * pms + i],
						     b->rounds[g], &o->budget));

			for (size_t k = 0; k < x->cells.nr; k++) {
				struct pmbench_cell *cell =
					pmbench_result_find_cell(
						x->r, fx(x, &x->states[i]),
						x->cells.v[k], x->scenario,
						x->states[i].pm->name);

				free(cell->stopped_by);
				cell->stopped_by = pmbench_xstrdup(why);
			}
		}
		if (b->rounds[g] > x->r->runs)
			x->r->runs = b->rounds[g];
	}
}

/*
 * Group g's costs as measured: a round from its minimum rounds once
 * they ran, before from its warm-up (each PM's turn times its repeats,
 * or as the prior predicts a timed turn, b->turn_ns; the rest of the
 * round as the warm-up took it).
 */
static struct pmbench_schedule_costs
group_costs(const struct budget *b, size_t g,
	    const struct pmbench_bench_opts *o)
{
	const struct rounds *x = &b->xs[g];
	struct pmbench_schedule_costs c = { .first_ns = b->first_ns[g],
					    .done = b->rounds[g],
					    .min = o->budget.min_runs,
					    .max = o->budget.max_runs };
	uint64_t turns = 0, once = 0;

	for (size_t i = 0; i < x->nr; i++) {
		uint64_t t = b->turn_ns ? b->turn_ns[g * x->nr + i] : 0;

		once += x->cost_ns[i];
		turns += t ? t : x->cost_ns[i] * (x->k[i] ? x->k[i] : 1);
	}
	if (b->rounds[g])
		c.round_ns = b->min_ns[g] / b->rounds[g];
	else if (b->first_ns[g] > once)
		c.round_ns = b->first_ns[g] - once + turns;
	else
		c.round_ns = turns + x->control_ns;
	return c;
}

/*
 * The plan from what the rounds cost so far, the trash's emptyings it
 * foresees reserved in the budget (`tp`); sets b->end_at. `further` is
 * what the further rounds of `need_ns` leave (NULL: as the cells need
 * them, further_pace()).
 */
static void budget_plan(struct budget *b, const struct pmbench_bench_opts *o,
			struct pmbench_schedule_costs *costs, uint64_t need_ns,
			const struct pmbench_trash_pace *further,
			struct pmbench_schedule_plan *plan,
			struct pmbench_trash_plan *tp)
{
	struct pmbench_trash_need *need =
		pmbench_xcalloc(b->nr + 1, sizeof(*need));
	struct pmbench_trash_pace pace = further ? *further
						 : further_pace(b, o, need_ns);
	struct pmbench_fs_trash_room room;
	struct pmbench_trash_model m;

	for (size_t g = 0; g < b->nr; g++) {
		costs[g] = group_costs(b, g, o);
		need[g] = round_trash(&b->xs[g], NULL);
	}
	pmbench_trash_now(&room, &m, b->xs[0].ctx);
	pmbench_trash_plan_budget(plan, tp, costs, b->nr, need, &pace, &room,
				  &m, budget_used(b), o->budget.budget_ns,
				  need_ns);
	b->end_at = b->start_ns + plan->end_ns;
	free(need);
}

/* Say the plan, with the trash's emptying it foresees (in the ETA too). */
static void budget_say(struct budget *b, const struct pmbench_bench_opts *o,
		       const char *when,
		       const struct pmbench_schedule_plan *plan,
		       const struct pmbench_trash_plan *tp,
		       const struct pmbench_schedule_costs *costs,
		       struct pmbench_schedule_names *n)
{
	struct pmbench_buf also = PMBENCH_BUF_INIT;
	const char **labels = pmbench_xcalloc(b->nr + 1, sizeof(*labels));

	memcpy(labels, n->labels, b->nr * sizeof(*labels));
	labels[b->nr] = "the further rounds";
	pmbench_trash_plan_words(&also, tp, labels, b->nr + 1);
	n->also = also.ptr;
	pmbench_schedule_say(b->xs[0].ctx, when, plan, b->end_at - b->start_ns,
			     costs, b->nr, n, &o->budget);
	free(labels);
	pmbench_buf_release(&also);
}

/*
 * The estimate of the whole command from what the rounds cost so far,
 * in words, and before the first timed round, where the minimum cannot
 * fit the budget, a warning with what would.
 */
static void budget_estimate(struct budget *b,
			    const struct pmbench_bench_opts *o,
			    const char *when, uint64_t need_ns,
			    const struct pmbench_trash_pace *pace, int prior,
			    size_t pairs)
{
	struct pmbench_buf pw = PMBENCH_BUF_INIT;
	struct pmbench_schedule_costs costs[16];
	struct pmbench_schedule_plan plan;
	struct pmbench_trash_plan tp;
	size_t pms = b->xs[0].nr;
	const char **words = pmbench_xcalloc(2 * b->nr + pms, sizeof(*words));
	uint64_t *pm_ns = pmbench_xcalloc(b->nr * pms, sizeof(*pm_ns));
	struct pmbench_schedule_names n = { .labels = words,
					    .groups = words + b->nr,
					    .group_option = "--scenario",
					    .pms = words + 2 * b->nr,
					    .pms_nr = pms,
					    .pm_ns = pm_ns,
					    .fixed_ns = b->primed_ns };

	for (size_t g = 0; g < b->nr; g++) {
		const struct rounds *x = &b->xs[g];

		words[g] = label(x, x->task->name);
		words[b->nr + g] = x->scenario;
		for (size_t i = 0; i < pms; i++) {
			words[2 * b->nr + i] = x->states[i].pm->name;
			pm_ns[g * pms + i] =
				x->cost_ns[i] * (x->k[i] ? x->k[i] : 1);
			if (!strcmp(x->states[i].pm->name, x->r->baseline))
				n.base = i;
		}
	}
	if (prior) {
		uint64_t end;

		budget_plan(b, o, costs, UINT64_MAX, NULL, &plan, &tp);
		end = b->end_at;
		budget_plan(b, o, costs, need_ns, pace, &plan, &tp);
		pmbench_schedule_prior_words(&pw, prior, pairs,
					     b->end_at - b->start_ns,
					     end - b->start_ns);
		n.prior = pw.ptr;
	} else {
		budget_plan(b, o, costs, need_ns, pace, &plan, &tp);
	}
	budget_say(b, o, when, &plan, &tp, costs, &n);
	pmbench_buf_release(&pw);
	free(words);
	free(pm_ns);
}

/* Every group's warm-ups (their cost measured), then the estimate. */
static int budget_warmups(struct budget *b, const struct pmbench_bench_opts *o)
{
	int ret = 0;

	b->primed_ns = budget_used(b);
	for (size_t g = 0; g < b->nr && !ret; g++) {
		uint64_t w = 0, t0 = pmbench_now_ns();

		b->xs[g].end_at = &b->end_at;
		if (o->warmup)
			ret = rounds_run(&b->xs[g], 0, o->warmup, 0, NULL, 0,
					 &w);
		b->first_ns[g] = pmbench_now_ns() - t0 - w;
	}
	if (!ret && o->warmup) {
		enum pmbench_prior_source src;
		struct pmbench_trash_pace pace;
		size_t pairs = 0;
		uint64_t need = prior_need(b, o, &src, &pairs, &pace);

		budget_estimate(b, o, "", need,
				src == PMBENCH_PRIOR_NONE ? NULL : &pace, src,
				pairs);
	}
	return ret;
}

/*
 * The budget: every group's warm-ups, the estimate, every group's
 * minimum rounds, then the rounds the allocation gives, then the
 * reasons.
 */
static int budget_run(struct budget *b, const struct pmbench_bench_opts *o)
{
	int ret = budget_warmups(b, o);

	for (size_t g = 0; g < b->nr && !ret; g++) {
		uint64_t w = 0, t0;

		ret = make_room(b, g, o->budget.min_runs, NULL);
		t0 = pmbench_now_ns();
		if (!ret)
			ret = rounds_run(&b->xs[g], o->warmup, 0,
					 o->budget.min_runs, NULL, 0, &w);
		b->min_ns[g] = pmbench_now_ns() - t0 - w;
		b->rounds[g] = o->budget.min_runs;
		save(b->xs[g].ctx, b->xs[g].r, o);
	}
	if (!ret && b->nr) {
		uint64_t control = budget_cells(b, o, BY_ESTIMATE);

		budget_estimate(b, o, " after the first rounds",
				pmbench_schedule_need_ns(
					b->cells, b->nr * b->xs[0].nr,
					b->rounds, b->nr, control, &o->budget),
				NULL, 0, 0);
		ret = budget_spend(b, o);
	}
	if (b->nr)
		budget_mark(b, o);
	pmbench_trash_note_tally(b->xs[0].r, &b->tally, "runs");
	/* `--explain`, `--prove-offline`: as with a fixed plan. */
	for (size_t g = 0; g < b->nr && !ret; g++)
		ret = untimed_runs(&b->xs[g]);
	return ret;
}

/* Every group of a fixture: in order (--runs N), or by the budget. */
static int bench_groups(struct pmbench_ctx *ctx, struct pmbench_result *r,
			const struct pmbench_bench_opts *o,
			struct pmbench_fixture *f, struct pmbench_pmrun *states,
			size_t nr, uint64_t start_ns)
{
	struct group gs[16];
	size_t n = groups_of(gs, PMBENCH_ARRAY_SIZE(gs), r, o);
	struct budget b = { .nr = n, .start_ns = start_ns, .overrun = 1 };
	int ret = 0;

	if (!o->runs_auto) {
		for (size_t g = 0; g < n && !ret; g++) {
			ret = run_task(ctx, r, o, f, states, nr, gs[g].task,
				       gs[g].state, gs[g].scenario);
			save(ctx, r, o);
		}
		return ret;
	}
	b.xs = pmbench_xcalloc(n ? n : 1, sizeof(*b.xs));
	b.rounds = pmbench_xcalloc(n ? n : 1, sizeof(*b.rounds));
	b.cells =
		pmbench_xcalloc((n ? n : 1) * (nr ? nr : 1), sizeof(*b.cells));
	b.first_ns = pmbench_xcalloc(n ? n : 1, sizeof(*b.first_ns));
	b.min_ns = pmbench_xcalloc(n ? n : 1, sizeof(*b.min_ns));
	b.turn_ns = pmbench_xcalloc((n ? n : 1) * (nr ? nr : 1),
				    sizeof(*b.turn_ns));
	for (size_t g = 0; g < n; g++)
		rounds_open(&b.xs[g], ctx, r, o, f, states, nr, gs[g].task,
			    gs[g].state, gs[g].scenario);
	ret = budget_run(&b, o);
	for (size_t g = 0; g < n; g++)
		rounds_close(&b.xs[g]);
	free(b.xs);
	free(b.rounds);
	free(b.cells);
	free(b.first_ns);
	free(b.min_ns);
	free(b.turn_ns);
	return ret;
}

/* Prime, then every group of the fixture. */
static int bench_fixture(struct pmbench_ctx *ctx, struct pmbench_result *r,
			 const struct pmbench_bench_opts *o,
			 struct pmbench_fixture *f,
			 struct pmbench_pmrun *states, size_t nr,
			 uint64_t start_ns, struct node_use *u)
{
	struct pmbench_fixture base = PMBENCH_FIXTURE_INIT;
	int ret = prime_all(ctx, r, o, f, &base, states, nr, u);

	if (!ret)
		ret = bench_groups(ctx, r, o, f, states, nr, start_ns);
	side_release(&base);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < nr; i++)
		pmbench_workspace_discard_all(&states[i].ws);
	return 0;
}

static int check_pm_config(const struct pmbench_bench_opts *o)
{
	if (o->pm_config && strcmp(o->pm_config, "user") &&
	    strcmp(o->pm_config, "defaults"))
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "--pm-config '%s' is neither 'user' "
					  "nor 'defaults'",
					  o->pm_config);
	return 0;
}

/* The result says which configuration the PMs were given. */
static void record_pm_config(struct pmbench_result *r,
			     const struct pmbench_bench_opts *o)
{
	if (pm_config_defaults(o)) {
		pmbench_result_env_set(r, "pm_config",
				       "defaults: no user file passed on; "
				       "each PM with its own defaults and the "
				       "repo's own files");
		pmbench_result_env_set(r, "npmrc",
				       "none (--pm-config defaults)");
	} else {
		pmbench_result_env_set(r, "pm_config",
				       "user: the user's ~/.npmrc passed on "
				       "to every PM, with the repo's own "
				       "files");
	}
}

/*
 * Every fixture once: a fixture's work folder and its rounds in the
 * result go by its name, so two of one name would mix their runs.
 */
static int check_fixtures(const struct pmbench_fixture *fixtures, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		for (size_t j = i + 1; j < nr; j++) {
			int same = pmbench_fixture_same(&fixtures[i],
							&fixtures[j]);

			if (same > 0)
				return pmbench_error_setc(
					PMBENCH_EINVALID,
					"fixture '%s' is given twice",
					fixtures[i].name);
			if (same < 0)
				return same;
		}
	return 0;
}

/* What the options say that cannot run: tasks, baseline, fixtures. */
static int check_opts(const struct pmbench_bench_opts *o,
		      const struct pmbench_fixture *fixtures,
		      size_t fixtures_nr)
{
	for (size_t i = 0; i < o->tasks.nr; i++) {
		if (!pmbench_task_get(o->tasks.v[i])) {
			struct pmbench_buf b = PMBENCH_BUF_INIT;
			int ret;

			pmbench_task_list(&b, 0);
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "'%s' is not a task; use %s",
						 o->tasks.v[i], b.ptr);
			pmbench_buf_release(&b);
			return ret;
		}
	}
	if (o->baseline && pmbench_strvec_find(&o->pms, o->baseline) < 0)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "'--baseline %s' is not one of the "
					  "PMs benchmarked; add it to --pm or "
					  "name one of them",
					  o->baseline);
	if (o->base_commit && (fixtures_nr != 1 || o->from_pm))
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "--base benches two commits of one "
					  "fixture: give one fixture (%zu "
					  "given)",
					  fixtures_nr);
	return check_fixtures(fixtures, fixtures_nr);
}

/*
 * bench --base: the PMs of the base side, found again into `states` after
 * the head's `nr` (their record goes to a scratch result: `r` has them).
 */
static int start_base_side(struct pmbench_ctx *ctx,
			   const struct pmbench_bench_opts *o,
			   struct pmbench_pmrun *states, size_t *nr)
{
	struct pmbench_result scratch = PMBENCH_RESULT_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	size_t found = 0;
	int ret;

	if (!o->base_commit)
		return 0;
	pmbench_buf_path(&b, ctx->cache_dir, "tmp");
	ret = pmbench_pmrun_find_all(ctx, states + *nr, &found, &scratch,
				     &o->pms, o->pms_explicit, b.ptr);
	if (!ret && found != *nr)
		ret = pmbench_error_set("the base side found %zu PMs and the "
					"head %zu",
					found, *nr);
	if (!ret)
		*nr += found;
	pmbench_result_release(&scratch);
	pmbench_buf_release(&b);
	return ret;
}

int pmbench_bench_run(struct pmbench_ctx *ctx, struct pmbench_result *r,
		      const struct pmbench_bench_opts *o,
		      struct pmbench_fixture *fixtures, size_t fixtures_nr)
{
	size_t room = (o->pms.nr ? o->pms.nr : 1) * (o->base_commit ? 2 : 1);
	struct pmbench_pmrun *states = pmbench_xcalloc(room, sizeof(*states));
	struct node_use u = { .pinned_dir = ctx->node_dir,
			      .pinned = ctx->node,
			      .node = PMBENCH_NODE_INIT };
	uint64_t start_ns = pmbench_now_ns();
	size_t nr = 0;
	int ret = check_opts(o, fixtures, fixtures_nr);

	if (ret < 0)
		goto done;
	record_options(r, o);
	ret = check_pm_config(o);
	if (!ret)
		ret = pmbench_pmrun_start(ctx, r, states, &nr, &o->pms,
					  o->pms_explicit);
	if (!ret)
		ret = start_base_side(ctx, o, states, &nr);
	if (ret < 0)
		goto done;
	record_pm_config(r, o);
	for (size_t i = 0; i < nr; i++) {
		states[i].scripts_choice = o->scripts;
		states[i].ci = o->ci ? PMBENCH_PMRUN_CI | PMBENCH_PMRUN_CI_UNPIN
				     : 0;
	}
	for (size_t fi = 0; !ret && fi < fixtures_nr; fi++)
		ret = bench_fixture(ctx, r, o, &fixtures[fi], states, nr,
				    start_ns, &u);
	pmbench_trash_note_forced(ctx, r);
done:
	pmbench_ctx_done(ctx);
	for (size_t i = 0; i < room; i++)
		pmbench_pmrun_release(&states[i]);
	free(states);
	ctx->node_dir = u.pinned_dir;
	ctx->node = u.pinned;
	pmbench_node_release(&u.node);
	return ret;
}
