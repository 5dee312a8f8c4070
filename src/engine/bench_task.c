/*
 * Orchestration of the run, build and dev tasks: the same shape as the
 * install rounds in bench.c (rounds outside, PMs inside, warm-ups first),
 * on each PM's own primed tree.
 */
#include "pmbench/common.h"

#include "pmbench/bench.h"
#include "pmbench/fixture.h"
#include "pmbench/pm.h"
#include "pmbench/pmrun.h"
#include "pmbench/proc.h"
#include "pmbench/schedule.h"
#include "pmbench/ctx.h"
#include "pmbench/task.h"

/* A dev server that is not ready after this long has failed. */
#define DEV_READY_MAX_NS (120ull * 1000000000ull)
#define DEV_GRACE_NS (3ull * 1000000000ull)
#define PROBE_CAP_NS (60ull * 1000000000ull)

/* The environment of the runs made without a PM: the fixture's and --env. */
static void bare_env(struct pmbench_strvec *out,
		     const struct pmbench_fixture *f,
		     const struct pmbench_bench_opts *o)
{
	pmbench_strvec_pushv(out, pmbench_ci_vars);
	for (size_t i = 0; i < f->env.nr; i++)
		pmbench_strvec_push(out, f->env.v[i]);
	for (size_t i = 0; i < o->env.nr; i++)
		pmbench_strvec_push(out, o->env.v[i]);
}

static int node_has_run(const struct pmbench_result *r)
{
	const char *v = pmbench_result_env_get(r, "node_version");

	/* `node --run` came with Node 22. */
	return v && pmbench_pm_version_major(v) >= 22;
}

static struct pmbench_cell *new_cell(struct pmbench_result *r,
				     const struct pmbench_fixture *f,
				     const char *task, const char *pm,
				     const struct pmbench_pmrun *ps,
				     const struct pmbench_strvec *argv,
				     const struct pmbench_strvec *env)
{
	struct pmbench_cell *cell = pmbench_result_add_cell(
		r, f->name, task, PMBENCH_TASK_SCENARIO, pm);

	if (ps && ps->prime_failure)
		cell->prime_failure = pmbench_xstrdup(ps->prime_failure);
	if (ps && ps->lockfile)
		cell->lockfile = pmbench_xstrdup(ps->lockfile);
	if (ps && ps->scripts)
		cell->scripts = pmbench_xstrdup(ps->scripts);
	for (size_t i = 0; argv && i < argv->nr; i++)
		pmbench_strvec_push(&cell->command, argv->v[i]);
	for (size_t i = 0; env && i < env->nr; i++)
		pmbench_strvec_push(&cell->env, env->v[i]);
	return cell;
}

/* The script a task cell runs: "run:lint" runs "lint". */
static const char *script_of(const struct pmbench_fixture *f,
			     const char *cell_task)
{
	if (!strcmp(cell_task, "run"))
		return PMBENCH_TASK_NOOP_SCRIPT;
	if (!strncmp(cell_task, "run:", 4))
		return cell_task + 4;
	if (!strcmp(cell_task, "build"))
		return f->build_script;
	return f->dev_script;
}

static void report(const struct pmbench_ctx *ctx,
		   const struct pmbench_cell *cell,
		   const struct pmbench_bench_opts *o,
		   const struct pmbench_sample *s, unsigned round)
{
	unsigned total = o->warmup + o->runs;
	double v;

	if (!s->ok) {
		pmbench_ctx_event(ctx, "%s %s %s round %u/%u failed: %s",
				       cell->fixture, cell->task, cell->pm,
				       round + 1, total, s->failure);
		return;
	}
	if (!strcmp(cell->task, "dev") &&
	    pmbench_sample_metric_get(s, "ready_line_s", &v)) {
		double body = 0;

		pmbench_sample_metric_get(s, "body_s", &body);
		pmbench_ctx_event(ctx,
				  "%s dev %s %s %u/%u: ready line %.3f s, "
				       "HTTP %.3f s, body %.3f s",
				       cell->fixture, cell->pm,
				       s->warmup ? "warm-up" : "run",
				       s->warmup ? round + 1
						 : round + 1 - o->warmup,
				       s->warmup ? o->warmup : o->runs, v,
				       (double)s->wall_ns / 1e9, body);
		return;
	}
	pmbench_ctx_event(ctx, "%s %s %s %s %u/%u: %.3f s", cell->fixture,
			       cell->task, cell->pm,
			       s->warmup ? "warm-up" : "run",
			       s->warmup ? round + 1 : round + 1 - o->warmup,
			       s->warmup ? o->warmup : o->runs,
			       (double)s->wall_ns / 1e9);
}

static struct pmbench_sample *new_sample(struct pmbench_result *r,
					 const struct pmbench_fixture *f,
					 const char *task, const char *pm,
					 const struct pmbench_bench_opts *o,
					 unsigned round)
{
	/* The cell array grows: never keep pointers across additions. */
	struct pmbench_cell *cell = pmbench_result_find_cell(
		r, f->name, task, PMBENCH_TASK_SCENARIO, pm);
	struct pmbench_sample *s = pmbench_cell_add_sample(cell);

	s->round = round;
	s->warmup = round < o->warmup;
	return s;
}

static void prepare_failed(struct pmbench_sample *s)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_addf(&b, "cannot prepare the run copy: %s",
			 pmbench_error_last());
	s->ok = 0;
	s->exit_code = -1;
	s->failure = pmbench_buf_detach(&b);
}

/* One round of one PM: prepare, then every cell of the task. */
static int one_pm(struct pmbench_result *r, const struct pmbench_bench_opts *o,
		  const struct pmbench_fixture *f, struct pmbench_pmrun *ps,
		  const char *task, const struct pmbench_strvec *cell_tasks,
		  unsigned round, int *prepared)
{
	int ret = pmbench_task_prepare(ps, f, !strcmp(task, "run"));

	*prepared = ret == 0;
	for (size_t k = 0; k < cell_tasks->nr; k++) {
		const char *ct = cell_tasks->v[k];
		struct pmbench_cell *cell = pmbench_result_find_cell(
			r, f->name, ct, PMBENCH_TASK_SCENARIO, ps->pm->name);
		struct pmbench_sample *s;
		struct pmbench_strvec argv = PMBENCH_STRVEC_INIT;
		int rc = 0;

		if (cell->prime_failure)
			continue;
		pmbench_ctx_status(ps->ctx, "%s: %s %s %u/%u", f->name, ct,
					ps->pm->name, round + 1,
					o->warmup + o->runs);
		s = new_sample(r, f, ct, ps->pm->name, o, round);
		if (ret < 0 && pmbench_ctx_cancelled(ps->ctx)) {
			/* A signal cut the copy short. */
			pmbench_pmrun_interrupt(ps->ctx, s);
			rc = PMBENCH_EINTERRUPTED;
		} else if (ret < 0) {
			prepare_failed(s);
		} else if (!strcmp(task, "build")) {
			rc = pmbench_task_build(ps, f, o->timeout_ns, s);
		} else if (!strcmp(task, "dev")) {
			struct pmbench_task_dev_opts d;

			memset(&d, 0, sizeof(d));
			d.ready_timeout_ns = o->timeout_ns < DEV_READY_MAX_NS
						     ? o->timeout_ns
						     : DEV_READY_MAX_NS;
			d.grace_ns = DEV_GRACE_NS;
			d.probe_requests = o->probe_requests;
			d.probe_concurrency = o->probe_concurrency;
			d.probe_cap_ns = PROBE_CAP_NS;
			rc = pmbench_task_dev(ps, f, &d, s, &argv);
			cell = pmbench_result_find_cell(r, f->name, ct,
							PMBENCH_TASK_SCENARIO,
							ps->pm->name);
			if (!cell->command.nr)
				for (size_t i = 0; i < argv.nr; i++)
					pmbench_strvec_push(&cell->command,
							    argv.v[i]);
		} else {
			rc = pmbench_task_script(ps, script_of(f, ct),
						 o->timeout_ns, s);
		}
		pmbench_strvec_release(&argv);
		if (rc < 0)
			return rc;
		cell = pmbench_result_find_cell(r, f->name, ct,
						PMBENCH_TASK_SCENARIO,
						ps->pm->name);
		report(ps->ctx, cell, o, &cell->samples[cell->samples_nr - 1],
		       round);
	}
	return 0;
}

/* What the rounds of one task share. */
struct task_rounds {
	struct pmbench_ctx *ctx;
	struct pmbench_result *r;
	const struct pmbench_bench_opts *o;
	const struct pmbench_fixture *f;
	struct pmbench_pmrun *states;
	const char *task;
	const struct pmbench_strvec *cell_tasks;
	struct pmbench_strvec *bare;
	const char *const *bare_names;
	size_t bare_nr;
	const struct pmbench_strvec *env;
	const char *bare_dir; /* the last copy prepared in this round */
};

static int task_turn(size_t i, const struct pmbench_round *round,
		     void *payload)
{
	struct task_rounds *x = payload;
	int prepared = 0, ret;

	if (x->states[i].prime_failure)
		return 0;
	ret = one_pm(x->r, x->o, x->f, &x->states[i], x->task, x->cell_tasks,
		     round->number, &prepared);
	if (prepared)
		x->bare_dir = x->states[i].ws.run_project;
	return ret;
}

/* The baselines run in the last prepared copy, after every PM. */
static int task_round_done(const struct pmbench_round *round, void *payload)
{
	struct task_rounds *x = payload;
	int ret = 0;

	for (size_t b = 0; x->bare_dir && b < x->bare_nr && !ret; b++) {
		struct pmbench_sample *s = new_sample(
			x->r, x->f, "run", x->bare_names[b], x->o,
			round->number);
		struct pmbench_cell *cell;

		ret = pmbench_task_bare(x->ctx, &x->bare[b], x->bare_dir,
					x->env, x->o->timeout_ns, s);
		if (ret < 0)
			break;
		cell = pmbench_result_find_cell(x->r, x->f->name, "run",
						PMBENCH_TASK_SCENARIO,
						x->bare_names[b]);
		report(x->ctx, cell, x->o,
		       &cell->samples[cell->samples_nr - 1], round->number);
	}
	x->bare_dir = NULL;
	return ret;
}

int pmbench_bench_task(struct pmbench_ctx *ctx, struct pmbench_result *r,
		       const struct pmbench_bench_opts *o,
		       const struct pmbench_fixture *f,
		       struct pmbench_pmrun *states, size_t nr,
		       const char *task)
{
	struct pmbench_strvec cell_tasks = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec bare[2] = { PMBENCH_STRVEC_INIT,
					  PMBENCH_STRVEC_INIT };
	const char *bare_names[2] = { PMBENCH_TASK_BARE_NODE,
				      PMBENCH_TASK_NODE_RUN };
	size_t bare_nr = 0;
	struct task_rounds x;
	struct pmbench_schedule sch = PMBENCH_SCHEDULE_INIT;
	int is_run = !strcmp(task, "run"), ret = 0;

	pmbench_strvec_push(&cell_tasks, task);
	if (is_run)
		for (size_t i = 0; i < f->scripts.nr; i++)
			pmbench_strvec_pushf(&cell_tasks, "run:%s",
					     f->scripts.v[i]);
	pmbench_result_env_set(r, "task_state",
			       "run, build and dev work in a fresh copy of "
			       "each PM's primed tree (cache, lockfile and "
			       "node_modules from its own install); the build "
			       "output folder and node_modules/.vite, .cache "
			       "and .tmp are removed before every run, "
			       "outside the timed window");
	pmbench_result_env_set(r, "dev_timing",
			       "from spawn: ready_line_s (the ready line on "
			       "stdout/stderr), http_s (first HTTP response "
			       "head with status < 500, polled every 1 to 10 "
			       "ms; the sample's wall_s), body_s (first whole "
			       "body)");

	/* The cells: one per PM and script, then the baselines. */
	for (size_t i = 0; i < nr; i++) {
		struct pmbench_pmrun *ps = &states[i];

		for (size_t k = 0; k < cell_tasks.nr; k++) {
			struct pmbench_strvec argv = PMBENCH_STRVEC_INIT;
			const char *script = script_of(f, cell_tasks.v[k]);
			struct pmbench_cell *cell;

			if (strcmp(task, "dev"))
				pmbench_task_run_argv(&argv, ps, script, NULL);
			cell = new_cell(r, f, cell_tasks.v[k], ps->pm->name,
					ps, &argv, &ps->env);
			pmbench_strvec_release(&argv);
			if (!strcmp(task, "dev")) {
				/*
				 * The port differs per run; the command
				 * shows the first run's.
				 */
				pmbench_strvec_push(&cell->env, "PORT={port}");
				pmbench_strvec_push(&cell->env,
						    "HOST=127.0.0.1");
				pmbench_strvec_push(&cell->env, "BROWSER=none");
			}
			if (!cell->prime_failure &&
			    strcmp(script, PMBENCH_TASK_NOOP_SCRIPT) &&
			    !pmbench_task_has_script(f, script)) {
				struct pmbench_buf b = PMBENCH_BUF_INIT;

				pmbench_buf_addf(&b,
						 "the fixture's package.json "
						 "has no '%s' script",
						 script);
				cell->prime_failure = pmbench_buf_detach(&b);
			}
		}
	}
	if (is_run) {
		bare_env(&env, f, o);
		pmbench_strvec_push(&bare[0], "node");
		pmbench_strvec_push(&bare[0], "-e");
		pmbench_strvec_push(&bare[0], "0");
		bare_nr = 1;
		if (node_has_run(r)) {
			pmbench_strvec_push(&bare[1], "node");
			pmbench_strvec_push(&bare[1], "--run");
			pmbench_strvec_push(&bare[1], PMBENCH_TASK_NOOP_SCRIPT);
			bare_nr = 2;
		} else {
			pmbench_result_env_set(r, "node_run_baseline",
					       "skipped: this node has no "
					       "--run (Node 22 and later)");
		}
		for (size_t b = 0; b < bare_nr; b++)
			new_cell(r, f, "run", bare_names[b], NULL, &bare[b],
				 &env);
	}

	/* Rounds outside, PMs inside, rotating, as for installs. */
	memset(&x, 0, sizeof(x));
	x.ctx = ctx;
	x.r = r;
	x.o = o;
	x.f = f;
	x.states = states;
	x.task = task;
	x.cell_tasks = &cell_tasks;
	x.bare = bare;
	x.bare_names = bare_names;
	x.bare_nr = bare_nr;
	x.env = &env;
	sch.ctx = ctx;
	sch.nr = nr;
	sch.warmup = o->warmup;
	sch.runs = o->runs;
	sch.turn = task_turn;
	sch.round_done = task_round_done;
	sch.payload = &x;
	if (o->runs_auto) {
		sch.autostop = &o->autostop;
		sch.result = r;
		sch.fixture = f->name;
		sch.task = task;
		sch.scenario = PMBENCH_TASK_SCENARIO;
	}
	ret = pmbench_schedule_run(&sch);

	pmbench_strvec_release(&cell_tasks);
	pmbench_strvec_release(&env);
	pmbench_strvec_release(&bare[0]);
	pmbench_strvec_release(&bare[1]);
	return ret;
}
