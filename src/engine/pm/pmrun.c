/*
 * Running one PM on one fixture: its run state (workspace, environment
 * and config composed, the release it runs), priming its cache and
 * lockfile, one timed exec with its measures, and a failure's reason.
 */

#include "pmbench/common.h"

#include <sys/stat.h>
#include <time.h>

#include "pmbench/ctx.h"
#include "pmbench/environment.h"
#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/jsonedit.h"
#include "pmbench/pm.h"
#include "pmbench/node.h"
#include "pmbench/phases.h"
#include "pmbench/pmrun.h"
#include "pmbench/pmversion.h"
#include "pmbench/registry.h"
#include "pmbench/resolution.h"
#include "pmbench/semver.h"
#include "pmbench/text.h"

#define TAIL_LINES 20

static int looks_like_error(const char *line)
{
	static const char *const words[] = { "ERR",   "error", "Error",
					     "fail",  "FAIL",  "fatal",
					     "Fatal", "✖",     "denied" };

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(words); i++)
		if (strstr(line, words[i]))
			return 1;
	return 0;
}

/* A PM table pattern: a substring, or with a leading "^" a prefix. */
static int line_matches(const char *line, const char *pat)
{
	if (*pat == '^')
		return !strncmp(line, pat + 1, strlen(pat + 1));
	return strstr(line, pat) != NULL;
}

static int matches_any(const char *line, const char *const *pats)
{
	for (; pats && *pats; pats++)
		if (line_matches(line, *pats))
			return 1;
	return 0;
}

static void split_lines(struct pmbench_strvec *out, const char *text)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	while (*text) {
		size_t n = strcspn(text, "\n");

		pmbench_buf_reset(&b);
		pmbench_buf_add(&b, text, n);
		pmbench_strvec_push(out, b.ptr);
		text += n;
		if (*text)
			text++;
	}
	pmbench_buf_release(&b);
}

/*
 * Append `line` without its indentation, trimmed, and cut at 300 bytes
 * on a character boundary (the result file is UTF-8).
 */
static void add_reason_line(struct pmbench_buf *out, const char *line)
{
	size_t n;

	line += strspn(line, " \t");
	n = strlen(line);
	if (n > 300) {
		n = 300;
		while (n && ((unsigned char)line[n] & 0xc0) == 0x80)
			n--;
	}
	pmbench_buf_add(out, line, n);
	pmbench_buf_rtrim(out);
}

/*
 * The line that names the cause by the PM's own patterns (its table
 * entry), best pattern first, the first line that matches it; returns 1
 * if one did.
 */
static int pick_cause_line(struct pmbench_buf *out, const struct pmbench_pm *pm,
			   const char *text)
{
	struct pmbench_strvec lines = PMBENCH_STRVEC_INIT;
	int found = 0;

	if (!pm || !pm->fail_causes)
		return 0;
	split_lines(&lines, text);
	for (const char *const *p = pm->fail_causes; *p && !found; p++) {
		for (size_t i = 0; i < lines.nr && !found; i++) {
			if (!line_matches(lines.v[i], *p) ||
			    matches_any(lines.v[i], pm->fail_noise))
				continue;
			add_reason_line(out, lines.v[i]);
			found = 1;
		}
	}
	pmbench_strvec_release(&lines);
	return found;
}

/*
 * Without a pattern that matches: the last line that looks like an
 * error, else the last line, skipping the PM's noise lines (`pm` may be
 * NULL) unless nothing else is left.
 */
static void pick_error_line(struct pmbench_buf *out,
			    const struct pmbench_pm *pm, const char *text)
{
	struct pmbench_strvec lines = PMBENCH_STRVEC_INIT;
	const char *best = NULL, *last = NULL, *any = NULL;

	split_lines(&lines, text);
	for (size_t i = lines.nr; i-- > 0 && !best;) {
		const char *l = lines.v[i];

		if (!l[strspn(l, " \t")])
			continue;
		if (!any)
			any = l;
		if (pm && matches_any(l, pm->fail_noise))
			continue;
		if (!last)
			last = l;
		if (looks_like_error(l))
			best = l;
	}
	if (!best)
		best = last ? last : any;
	if (best)
		add_reason_line(out, best);
	pmbench_strvec_release(&lines);
}

void pmbench_pmrun_failure_line(struct pmbench_buf *out,
				const struct pmbench_pm *pm, const char *text)
{
	if (!pick_cause_line(out, pm, text))
		pick_error_line(out, pm, text);
}

/*
 * Describe a failed child: "exit 1: npm error code ERESOLVE (hint: ...)"
 * into `reason`, its last lines into `tail`.
 */
void pmbench_pmrun_describe_failure(struct pmbench_buf *reason,
				    struct pmbench_buf *tail,
				    const struct pmbench_child *c,
				    const struct pmbench_pm *pm)
{
	struct pmbench_buf full = PMBENCH_BUF_INIT;
	const char *hint;

	pmbench_child_describe(c, reason);
	pmbench_child_tail_lines(c, TAIL_LINES, tail);
	pmbench_child_tail_lines(c, 400, &full);
	/*
	 * The line that names the cause may be further up than the tail
	 * (npm's ERESOLVE report is long); the generic guess stays within
	 * the tail.
	 */
	if (tail->len) {
		pmbench_buf_adds(reason, ": ");
		if (!pick_cause_line(reason, pm, full.ptr))
			pick_error_line(reason, pm, tail->ptr);
	}
	hint = pmbench_pm_hint_in(pm, full.ptr, c->dir);
	if (hint)
		pmbench_buf_addf(reason, " (hint: %s)", hint);
	pmbench_buf_release(&full);
}

/* The registry the PMs are pointed at; NULL: the live one. */
static struct pmbench_registry *reg_of(const struct pmbench_pmrun *ps)
{
	return ps->ctx ? ps->ctx->registry : NULL;
}

static int sample_ok(const struct pmbench_child *c)
{
	return c->result.exited && !c->result.timed_out && !c->result.signal &&
	       c->result.exit_code == 0;
}

static double unix_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* How often a run's dependencies are looked at while it runs. */
#define WATCH_NS 1000000000ull

/* What a run depends on, looked at while it runs (watch_run()). */
struct watch {
	struct pmbench_pmrun *ps;
	uint64_t next;		/* when to look again */
	unsigned full;		/* looks in a row that found the disk full */
	int err;		/* the mirror ended while priming */
	struct pmbench_buf why; /* why the run was stopped */
};

/*
 * "disk full: 0.1 MB free on /mnt/small (tmpfs)" into `why` (replaced)
 * when the file system of the work folder is full; returns 1 then.
 */
static int disk_full(const struct pmbench_pmrun *ps, struct pmbench_buf *why)
{
	return pmbench_fs_full(why, ps->ctx ? ps->ctx->cache_dir : NULL);
}

/*
 * The watch of every PM run (pmbench_child_watch_cb): the verdaccio
 * pmbench started, and the free space of the work folder's file system.
 * A PM whose registry is gone retries for minutes, and one on a full disk
 * may wait for space forever (bun did): either would wait out the run
 * timeout without a word.
 */
static int watch_run(struct pmbench_child *c, void *payload)
{
	struct watch *w = payload;
	uint64_t now = pmbench_now_ns();
	int ret;

	(void)c;
	if (now < w->next)
		return 0;
	w->next = now + WATCH_NS;
	ret = pmbench_registry_watch(reg_of(w->ps), w->ps->ctx);
	if (ret < 0) {
		w->err = ret;
		pmbench_buf_reset(&w->why);
		pmbench_buf_adds(&w->why, pmbench_error_last());
		return 1;
	}
	/* Twice in a row: a PM that frees what it just wrote goes on. */
	if (!disk_full(w->ps, &w->why)) {
		w->full = 0;
		return 0;
	}
	return ++w->full >= 2;
}

/* What to do about a full disk, said when a run met one. */
static void warn_disk(const struct pmbench_pmrun *ps, const char *why)
{
	pmbench_ctx_warn(ps->ctx,
			 "%s, which holds the work folder '%s': %s was "
			 "stopped; free space there, or give --cache-dir a "
			 "folder on a file system with more room",
			 why, ps->ctx->cache_dir, ps->pm->name);
}

/*
 * Whether the run measured the PM: `s->ok`, else its failure and tail.
 * A run the watch stopped says why; a failure on a full disk says so
 * first; a run whose registry requests failed or went upstream is no
 * time of the PM's, whatever its exit.
 */
static int judge(struct pmbench_pmrun *ps, struct pmbench_sample *s,
		 const struct pmbench_child *c, struct watch *w)
{
	int full = 0;
	struct pmbench_buf reason = PMBENCH_BUF_INIT;
	struct pmbench_buf tail = PMBENCH_BUF_INIT;
	struct pmbench_buf registry = PMBENCH_BUF_INIT;

	s->ok = sample_ok(c);
	if (!s->ok)
		pmbench_pmrun_describe_failure(&reason, &tail, c, ps->pm);
	if (c->result.stopped) {
		pmbench_buf_reset(&reason);
		pmbench_buf_adds(&reason, w->why.ptr);
		full = !w->err;
		if (full)
			warn_disk(ps, w->why.ptr);
	} else if (!s->ok && disk_full(ps, &w->why)) {
		full = 1;
		warn_disk(ps, w->why.ptr);
		pmbench_buf_addf(&w->why, ": %s", reason.ptr);
		pmbench_buf_reset(&reason);
		pmbench_buf_adds(&reason, w->why.ptr);
	}
	if (pmbench_registry_spoiled(s, &registry)) {
		if (s->ok)
			pmbench_child_tail_lines(c, TAIL_LINES, &tail);
		pmbench_buf_addf(&reason, "%s%s", s->ok ? "" : "; ",
				 registry.ptr);
		s->ok = 0;
	}
	if (!s->ok) {
		s->failure = pmbench_buf_detach(&reason);
		s->tail = pmbench_buf_detach(&tail);
	}
	pmbench_buf_release(&reason);
	pmbench_buf_release(&tail);
	pmbench_buf_release(&registry);
	return full;
}

/*
 * A run that filled the disk: its copy and cache go (each discard
 * empties the trash first for lack of space, pmbench_fs_discard(), which
 * the result then says), and the trash is emptied once more if the disk
 * is still full (node_modules may be hard links into the cache), so that
 * the next PM and the mirror have room; its next run starts afresh.
 */
static void drop_run(struct pmbench_pmrun *ps)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT;

	if (!ps->ws.run || !ps->ws.trash)
		return;
	if (pmbench_fs_discard(ps->ws.run, ps->ws.trash) < 0 ||
	    pmbench_fs_discard(ps->ws.cache, ps->ws.trash) < 0 ||
	    (disk_full(ps, &why) && pmbench_fs_trash_empty(ps->ws.trash) < 0))
		pmbench_error_clear();
	pmbench_buf_release(&why);
}

/*
 * The work the tree did, as metrics of the run: instructions where the
 * machine counts them, task-clock (its CPU time, every process of the
 * tree included); a count the kernel had to scale (the counter was
 * multiplexed with others) is flagged.
 */
static void record_work(struct pmbench_sample *s, const struct pmbench_child *c)
{
	const struct pmbench_child_result *r = &c->result;

	if (r->work_counted & (1u << PMBENCH_WORK_INSTRUCTIONS))
		pmbench_sample_metric_set(
			s, "instructions_count",
			(double)r->work[PMBENCH_WORK_INSTRUCTIONS]);
	if (r->work_counted & (1u << PMBENCH_WORK_TASK_CLOCK))
		pmbench_sample_metric_set(
			s, "task_clock_s",
			(double)r->work[PMBENCH_WORK_TASK_CLOCK] / 1e9);
	if (r->work_scaled)
		pmbench_sample_metric_set(s, "work_scaled_count", 1);
}

/* The child's measurements into the sample. */
static void record(struct pmbench_sample *s, const struct pmbench_child *c)
{
	s->wall_ns = c->result.wall_ns;
	s->user_ns = c->result.user_ns;
	s->sys_ns = c->result.sys_ns;
	s->max_rss_kib = c->result.max_rss_kib;
	s->max_rss_floor_kib = c->result.max_rss_floor_kib;
	s->tree_rss_kib = c->result.tree_rss_kib;
	s->exit_code = c->result.exit_code;
	s->signal = c->result.signal;
	s->timed_out = c->result.timed_out;
	s->leftover = c->result.leftover;
	record_work(s, c);
}

/*
 * Trace the run (proc.h) for its phases (phases.h), unless the test knob
 * PMBENCH_TEST_TRACE says "off" (no trace) or "lean" (walks timed, no
 * extra reads): what measures the sampler's own cost.
 */
static void trace_on(struct pmbench_child *c, struct pmbench_child_trace *t,
		     struct pmbench_buf *nm, const char *dir)
{
	const char *knob = getenv("PMBENCH_TEST_TRACE");

	if (knob && !strcmp(knob, "off"))
		return;
	t->lean = knob && !strcmp(knob, "lean");
	/* Its first change ends the PM's startup (phases.h). */
	if (dir) {
		pmbench_buf_addf(nm, "%s/node_modules", dir);
		t->mark_dir = nm->ptr;
	}
	c->trace = t;
}

/* The run's phases into `s`, from its trace and the front's log. */
static void trace_off(struct pmbench_pmrun *ps, struct pmbench_sample *s,
		      struct pmbench_child *c, struct pmbench_child_trace *t)
{
	struct pmbench_mirror_log log = PMBENCH_MIRROR_LOG_INIT;

	pmbench_registry_take_log(reg_of(ps), &log);
	if (c->trace) {
		pmbench_phases_free(s->phases);
		s->phases = pmbench_phases_of_run(c, &log);
	}
	pmbench_mirror_log_release(&log);
	c->trace = NULL;
	pmbench_child_trace_release(t);
}

void pmbench_pmrun_push_env(struct pmbench_strvec *out,
			    const struct pmbench_pmrun *ps)
{
	for (size_t i = 0; i < ps->env.nr; i++)
		if (!ps->priming || i < ps->ci_from || i >= ps->ci_to)
			pmbench_strvec_push(out, ps->env.v[i]);
}

int pmbench_pmrun_exec(struct pmbench_pmrun *ps,
		       const struct pmbench_strvec *argv, const char *dir,
		       uint64_t timeout_ns, struct pmbench_sample *s,
		       struct pmbench_child *c)
{
	struct watch w = { .ps = ps, .why = PMBENCH_BUF_INIT };
	struct pmbench_child_trace trace = PMBENCH_CHILD_TRACE_INIT;
	struct pmbench_buf nm = PMBENCH_BUF_INIT;
	int ret;

	for (size_t i = 0; i < argv->nr; i++)
		pmbench_strvec_push(&c->args, argv->v[i]);
	pmbench_pmrun_push_env(&c->env, ps);
	c->dir = dir;
	c->timeout_ns = timeout_ns;
	c->ctx = ps->ctx;
	c->flags |= PMBENCH_CHILD_SAMPLE_TREE | PMBENCH_CHILD_COUNT_WORK;
	c->watch = watch_run;
	c->watch_payload = &w;
	trace_on(c, &trace, &nm, dir);
	pmbench_registry_mark(reg_of(ps));
	s->started = unix_now();
	ret = pmbench_child_run(c);
	/* What the PM asked the mirror for, as metrics of the run. */
	pmbench_registry_add_metrics(reg_of(ps), s);
	record(s, c);
	trace_off(ps, s, c, &trace);
	pmbench_buf_release(&nm);
	if (ret == PMBENCH_EINTERRUPTED) {
		/* pmbench was stopped: not the PM's failure, and no time. */
		pmbench_sample_stopped(s, ps->ctx);
	} else if (ret < 0) {
		/* It could not even start: a failure, never a time. */
		s->ok = 0;
		s->failure = pmbench_xstrdup(pmbench_error_last());
		s->wall_ns = 0;
		ret = 0;
	} else {
		if (judge(ps, s, c, &w))
			drop_run(ps);
		/* The mirror is gone: nothing after this run can work. */
		if (w.err)
			ret = pmbench_error_set("%s's priming was stopped: %s",
						ps->pm->name, w.why.ptr);
	}
	pmbench_buf_release(&w.why);
	return ret;
}

int pmbench_pmrun_install(struct pmbench_pmrun *ps, uint64_t timeout_ns,
			  struct pmbench_sample *s, struct pmbench_child *c)
{
	struct pmbench_buf what = PMBENCH_BUF_INIT;
	int ret;

	/*
	 * Lockfiles that name tarballs by absolute URL point at the mirror
	 * in the scratch copy, outside the timed window.
	 */
	ret = pmbench_registry_rewrite_lockfiles(reg_of(ps), ps->ws.run_project,
						 &what);
	if (what.len && !ps->registry_note)
		ps->registry_note = pmbench_buf_detach(&what);
	pmbench_buf_release(&what);
	if (ret < 0)
		return ret;
	ret = pmbench_pmrun_exec(ps, &ps->command, ps->ws.run_project,
				 timeout_ns, s, c);

	if (!ret && s->ok)
		pmbench_pmrun_measure_node_modules(ps, s);
	return ret;
}

void pmbench_pmrun_measure_node_modules(struct pmbench_pmrun *ps,
					struct pmbench_sample *s)
{
	/* Nothing to measure is not a size of 0. */
	if (ps->pm->caps & PMBENCH_PM_NO_NODE_MODULES) {
		s->no_node_modules = 1;
		s->nm_bytes = s->nm_files = 0;
		return;
	}
	pmbench_workspace_node_modules(&ps->ws, &s->nm_bytes, &s->nm_files);
}

/* What the PM's output said it skipped (the table knows how), if it did. */
static void add_said(struct pmbench_buf *out, const struct pmbench_pm *pm,
		     const struct pmbench_child *c)
{
	struct pmbench_buf lines = PMBENCH_BUF_INIT;
	const char *said = NULL;

	pmbench_child_tail_lines(c, 200, &lines);
	for (const char *const *w = pm->scripts_said; w && *w && !said; w++)
		said = strstr(lines.ptr, *w);
	if (said) {
		size_t n = strcspn(said, "\n");

		pmbench_buf_addf(out, " (%s said: %.*s)", pm->name,
				 (int)(n > 200 ? 200 : n), said);
	}
	pmbench_buf_release(&lines);
}

/*
 * What happened to dependencies' lifecycle scripts: the PM's policy, the
 * packages that have such scripts, and what the PM itself said.
 */
static char *describe_scripts(struct pmbench_pmrun *ps,
			      const struct pmbench_child *c)
{
	struct pmbench_strvec *found = &ps->script_packages;
	struct pmbench_resolution res = PMBENCH_RESOLUTION_INIT;
	struct pmbench_buf out = PMBENCH_BUF_INIT;

	/*
	 * Every node_modules of the copy (a workspace root above the
	 * project included), or Plug'n'Play's map, which is in the project
	 * folder (yarn's root: see the table's root_file).
	 */
	pmbench_resolution_scan(&res, ps->pm->caps & PMBENCH_PM_NO_NODE_MODULES
					      ? ps->ws.run_project
					      : ps->ws.run);
	pmbench_strvec_release(found);
	pmbench_resolution_scripts(&res, found);
	pmbench_pm_scripts_told(&out, ps->pm, ps->found.version,
				ps->scripts_choice);
	if (!found->nr) {
		pmbench_buf_adds(&out, "; no installed dependency has one");
	} else {
		pmbench_buf_addf(&out,
				 "; %zu installed dependenc%s an install "
				 "script: ",
				 found->nr,
				 found->nr == 1 ? "y has" : "ies have");
		for (size_t i = 0; i < found->nr && i < 8; i++)
			pmbench_buf_addf(&out, "%s%s", i ? ", " : "",
					 found->v[i]);
		if (found->nr > 8)
			pmbench_buf_addf(&out, " and %zu more", found->nr - 8);
	}
	add_said(&out, ps->pm, c);
	pmbench_resolution_release(&res);
	return pmbench_buf_detach(&out);
}

/*
 * The fixture's per-PM entries that apply to `pm`: its base's, then a
 * variant's own; into `out` (room for two), returns how many.
 */
static size_t fixture_pms(const struct pmbench_fixture_pm **out,
			  const struct pmbench_fixture *f,
			  const struct pmbench_pm *pm)
{
	size_t nr = 0;

	out[nr] = pmbench_fixture_pm(f, pmbench_pm_base(pm)->name);
	nr += out[nr] != NULL;
	if (pm->variant) {
		out[nr] = pmbench_fixture_pm(f, pm->name);
		nr += out[nr] != NULL;
	}
	return nr;
}

void pmbench_pmrun_fixture_flags(struct pmbench_strvec *out,
				 const struct pmbench_fixture *f,
				 const struct pmbench_pm *pm)
{
	const struct pmbench_fixture_pm *fp[2];
	size_t nr = fixture_pms(fp, f, pm);

	for (size_t k = 0; k < nr; k++)
		for (size_t i = 0; i < fp[k]->flags.nr; i++)
			pmbench_strvec_push(out, fp[k]->flags.v[i]);
}

/*
 * The PM's environment, less what its release is too old to know; the
 * repo's older release reads it elsewhere.
 */
static void push_env(struct pmbench_pmrun *ps)
{
	pmbench_pm_env(&ps->env, ps->pm, ps->ws.cache);
	pmbench_pm_env_older(&ps->env, ps->pm, ps->found.version);
	if (ps->release)
		pmbench_pm_push_args(&ps->env, ps->release->version_env,
				     ps->ws.cache);
}

/*
 * The fixture's environment, its per-PM environment (the base's, then
 * the variant's), then what tells the PM the --scripts choice (its
 * arguments too).
 */
static void push_fixture_env(struct pmbench_pmrun *ps,
			     const struct pmbench_fixture *f)
{
	const struct pmbench_fixture_pm *fp[2];
	size_t fp_nr = fixture_pms(fp, f, ps->pm);

	for (size_t i = 0; i < f->env.nr; i++)
		pmbench_strvec_push(&ps->env, f->env.v[i]);
	for (size_t k = 0; k < fp_nr; k++)
		for (size_t i = 0; i < fp[k]->env.nr; i++)
			pmbench_strvec_push(&ps->env, fp[k]->env.v[i]);
	pmbench_pm_push_scripts(&ps->command, &ps->env, ps->pm,
				ps->scripts_choice);
}

void pmbench_pmrun_compose(struct pmbench_pmrun *ps,
			   const struct pmbench_fixture *f,
			   const struct pmbench_strvec *extra_env)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *slash;

	pmbench_strvec_release(&ps->command);
	pmbench_strvec_release(&ps->env);
	pmbench_strvec_push(&ps->command, ps->found.path);
	pmbench_pm_push_install(&ps->command, ps->pm, 0, ps->ws.cache);
	pmbench_pmrun_fixture_flags(&ps->command, f, ps->pm);

	push_env(ps);
	ps->ci_from = ps->env.nr;
	if (ps->ci)
		pmbench_pm_ci_env(&ps->env, ps->pm,
				  ps->ci & PMBENCH_PMRUN_CI_UNPIN);
	ps->ci_to = ps->env.nr;
	/*
	 * The pinned Node first, then the PM's folder: scripts that call
	 * the PM again get the same binary.
	 */
	slash = strrchr(ps->found.path, '/');
	if (slash)
		pmbench_buf_add(&b, ps->found.path,
				(size_t)(slash - ps->found.path));
	pmbench_node_path_env_of(&ps->env, pmbench_pmrun_node(ps),
				 ps->ctx ? ps->ctx->node_dir : NULL,
				 slash ? b.ptr : NULL);
	/* Its headers for node-gyp; the manifest and --env may say else. */
	pmbench_node_env(&ps->env, pmbench_pmrun_node(ps));
	push_fixture_env(ps, f);
	ps->env_given = ps->env.nr;
	for (size_t i = 0; extra_env && i < extra_env->nr; i++)
		pmbench_strvec_push(&ps->env, extra_env->v[i]);
	ps->env_given_end = ps->env.nr;
	/* Last: in local mode the mirror is the registry, whatever else. */
	pmbench_registry_pm_env(reg_of(ps), &ps->env, ps->pm->registry_env);
	free(ps->note);
	ps->note = NULL;
	if (ps->pm->caps & PMBENCH_PM_NO_NODE_MODULES) {
		pmbench_buf_reset(&b);
		pmbench_buf_addf(&b, "node_modules: n/a: %s",
				 ps->pm->linker ? ps->pm->linker
						: "it makes none");
		ps->note = pmbench_buf_detach(&b);
	}
	pmbench_buf_release(&b);
}

/* The priming install: a full cache, a lockfile and node_modules. */
/*
 * Run the PM's import command (pnpm import, yarn import) in the run
 * copy. On failure, say why in `how` and return 0 with *ok = 0.
 */
static int run_import(struct pmbench_pmrun *ps, uint64_t timeout_ns,
		      const char *from_lock, struct pmbench_buf *how, int *ok)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_strvec argv = PMBENCH_STRVEC_INIT;
	struct pmbench_sample s;
	int ret;

	memset(&s, 0, sizeof(s));
	pmbench_strvec_push(&argv, ps->found.path);
	pmbench_pm_push_args(&argv, ps->pm->import_args, ps->ws.cache);
	ret = pmbench_pmrun_exec(ps, &argv, ps->ws.run_project, timeout_ns, &s,
				 &c);
	*ok = !ret && s.ok;
	if (!ret && !s.ok)
		pmbench_buf_addf(how, "'%s %s' of %s failed (%s)", ps->pm->name,
				 ps->pm->import_args[0], from_lock, s.failure);
	pmbench_sample_release(&s);
	pmbench_child_release(&c);
	pmbench_strvec_release(&argv);
	return ret;
}

/*
 * What the PM itself said about converting a lockfile ("migrated
 * lockfile from yarn.lock", "cannot migrate package-lock.json: ..."),
 * into `out`; returns 1 if it said it could not.
 */
static int said_migrated(struct pmbench_buf *out, const struct pmbench_child *c)
{
	static const char *const refusals[] = { "cannot",      "can't",
						"unsupported", "failed",
						"error",       "Error" };
	struct pmbench_buf lines = PMBENCH_BUF_INIT;
	const char *said, *start;
	int refused = 0;

	pmbench_child_tail_lines(c, 200, &lines);
	said = strstr(lines.ptr, "igrat");
	if (said) {
		size_t n;

		start = said;
		while (start > lines.ptr && start[-1] != '\n')
			start--;
		n = strcspn(start, "\n");
		pmbench_buf_add(out, start, n > 160 ? 160 : n);
		for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(refusals); i++)
			refused |= strstr(out->ptr, refusals[i]) != NULL;
	}
	pmbench_buf_release(&lines);
	return refused;
}

int pmbench_pmrun_prime(struct pmbench_pmrun *ps, uint64_t timeout_ns)
{
	return pmbench_pmrun_prime_from(ps, timeout_ns, NULL, NULL);
}

/* The details of a priming's event (its time; < 0: it failed). */
static const struct pmbench_progress *primed(const struct pmbench_pmrun *ps,
					     double seconds)
{
	static struct pmbench_progress p;

	memset(&p, 0, sizeof(p));
	p.kind = PMBENCH_PROGRESS_EVENT;
	p.pm = ps->pm->name;
	p.seconds = seconds;
	p.priming = 1;
	return &p;
}

/*
 * Which lockfile the priming `c` (by `route`) left in the run copy and
 * where it came from, into `b`. Returns 1 when the priming installed from
 * a lockfile (the fixture's own, or another PM's it converted or
 * imported), 0 when it resolved without one.
 */
static int describe_lockfile(struct pmbench_buf *b,
			     const struct pmbench_pmrun *ps,
			     enum pmbench_pm_route route, const char *shipped,
			     const char *from_lock,
			     const struct pmbench_buf *how,
			     const struct pmbench_child *c)
{
	struct pmbench_buf said = PMBENCH_BUF_INIT;
	/* The run copy is not moved to the snapshot yet: look there. */
	const char *lock = pmbench_workspace_run_lockfile(&ps->ws);
	int refused = lock && route == PMBENCH_ROUTE_READS &&
		      said_migrated(&said, c);
	int locked = (route == PMBENCH_ROUTE_OWN && shipped) ||
		     (route == PMBENCH_ROUTE_READS && !refused) ||
		     route == PMBENCH_ROUTE_IMPORT;

	if (!lock)
		pmbench_buf_addf(b, "none: %s wrote no lockfile", ps->pm->name);
	else if (route == PMBENCH_ROUTE_OWN && shipped &&
		 !strcmp(shipped, lock))
		pmbench_buf_addf(b, "%s shipped with the fixture", lock);
	else if (route == PMBENCH_ROUTE_OWN)
		pmbench_buf_addf(b, "%s written by %s's priming install", lock,
				 ps->pm->name);
	else if (refused)
		pmbench_buf_addf(b,
				 "%s resolved fresh from package.json: %s "
				 "could not use %s (%s said: %s)",
				 lock, ps->pm->name, from_lock, ps->pm->name,
				 said.ptr);
	else if (route == PMBENCH_ROUTE_READS)
		pmbench_buf_addf(b, "%s converted by %s install from %s%s%s%s",
				 lock, ps->pm->name, from_lock,
				 said.len ? " (it said: " : "", said.ptr,
				 said.len ? ")" : "");
	else if (route == PMBENCH_ROUTE_IMPORT)
		pmbench_buf_addf(b, "%s made by '%s %s' from %s", lock,
				 ps->pm->name, ps->pm->import_args[0],
				 from_lock);
	else
		pmbench_buf_addf(
			b, "%s resolved fresh from package.json: %s", lock,
			how->len ? how->ptr : "it cannot read that lockfile");
	pmbench_buf_release(&said);
	return locked;
}

/* Readies the workspace for a priming install by the route from_lock takes
 * (the PM's own lockfile, a migration, an import that may fall back to a
 * fresh resolution); *route ends as the route taken. */
static int prepare_route(struct pmbench_pmrun *ps, uint64_t timeout_ns,
			 const char *from_lock, enum pmbench_pm_route *route,
			 const char **shipped, struct pmbench_buf *how)
{
	int ret, ok;

	if (*route == PMBENCH_ROUTE_OWN)
		return pmbench_workspace_prepare_prime(&ps->ws, shipped);
	ret = pmbench_workspace_prepare_migrate(
		&ps->ws, *route == PMBENCH_ROUTE_FRESH ? NULL : from_lock);
	if (ret < 0 || *route != PMBENCH_ROUTE_IMPORT)
		return ret;
	ret = run_import(ps, timeout_ns, from_lock, how, &ok);
	if (ret < 0 || ok)
		return ret;
	/* A failed import is a result: resolve fresh. */
	*route = PMBENCH_ROUTE_FRESH;
	return pmbench_workspace_prepare_migrate(&ps->ws, NULL);
}

/* A failed priming install: kept as the PM's priming failure (every cell
 * of this PM then says it) and reported. */
static void record_prime_failure(struct pmbench_pmrun *ps,
				 const struct pmbench_sample *s,
				 const struct pmbench_buf *how)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_addf(&b, "priming install failed: %s", s->failure);
	if (how->len)
		pmbench_buf_addf(&b, " (after %s)", how->ptr);
	if (s->tail && *s->tail)
		pmbench_buf_addf(&b, "\n%s", s->tail);
	ps->prime_failure = pmbench_buf_detach(&b);
	pmbench_ctx_report(ps->ctx, primed(ps, -1),
			   "%s: priming install failed: %s", ps->pm->name,
			   s->failure);
}

/* The names of `packages` ("name@version") as a JSON array, each once. */
static void name_list(struct pmbench_buf *out,
		      const struct pmbench_strvec *packages)
{
	struct pmbench_strvec names = PMBENCH_STRVEC_INIT;

	for (size_t i = 0; i < packages->nr; i++) {
		const char *p = packages->v[i], *at = strrchr(p, '@');
		int len = (int)(at && at != p ? (size_t)(at - p) : strlen(p));

		if (!i || strncmp(names.v[names.nr - 1], p, (size_t)len) ||
		    names.v[names.nr - 1][len])
			pmbench_strvec_pushf(&names, "%.*s", len, p);
	}
	pmbench_buf_addch(out, '[');
	for (size_t i = 0; i < names.nr; i++) {
		if (i)
			pmbench_buf_adds(out, ", ");
		pmbench_json_quote(out, names.v[i]);
	}
	pmbench_buf_addch(out, ']');
	pmbench_strvec_release(&names);
}

/*
 * --scripts all told by a package.json list (the table's trust_field:
 * bun's trustedDependencies): the packages the priming found with an
 * install script are listed there, in the run copy and every copy after,
 * and the PM installs once more, untimed, so that the primed tree ran
 * their scripts and its lockfile holds the list. 1 when that install
 * failed (recorded as the priming's failure).
 */
static int trust_scripts(struct pmbench_pmrun *ps, uint64_t timeout_ns,
			 const struct pmbench_buf *how)
{
	const char *field =
		pmbench_pm_scripts_field(ps->pm, ps->scripts_choice);
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf list = PMBENCH_BUF_INIT;
	struct pmbench_sample s;
	int ret;

	if (!field || !ps->script_packages.nr)
		return 0;
	memset(&s, 0, sizeof(s));
	name_list(&list, &ps->script_packages);
	ret = pmbench_workspace_set_package_field(&ps->ws, field, list.ptr);
	if (!ret)
		ret = pmbench_pmrun_install(ps, timeout_ns, &s, &c);
	if (!ret && !s.ok) {
		record_prime_failure(ps, &s, how);
		ret = 1;
	} else if (!ret) {
		free(ps->scripts);
		ps->scripts = describe_scripts(ps, &c);
	}
	pmbench_sample_release(&s);
	pmbench_child_release(&c);
	pmbench_buf_release(&list);
	return ret;
}

/* A successful priming install: what the lockfile is, how many tarballs
 * the tree needs, which scripts ran; the primed workspace is saved. */
static int record_primed(struct pmbench_pmrun *ps, struct pmbench_sample *s,
			 struct pmbench_child *c, enum pmbench_pm_route route,
			 const char *shipped, const char *from_lock,
			 struct pmbench_buf *how, uint64_t timeout_ns)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int ret;

	ps->primed_locked =
		describe_lockfile(&b, ps, route, shipped, from_lock, how, c);
	ps->tree_tarballs = 0;
	pmbench_sample_metric_get(s, "registry_tarball_requests",
				  &ps->tree_tarballs);
	if (ps->registry_note)
		pmbench_buf_addf(&b,
				 "; tarball URLs pointed at the local "
				 "mirror in the scratch copy (%s)",
				 ps->registry_note);
	ps->lockfile = pmbench_buf_detach(&b);
	ps->scripts = describe_scripts(ps, c);
	ret = trust_scripts(ps, timeout_ns, how);
	if (ret)
		return ret > 0 ? 0 : ret;
	ret = pmbench_workspace_save_primed(&ps->ws);
	pmbench_ctx_report(ps->ctx, primed(ps, (double)s->wall_ns / 1e9),
			   "%s: primed in %.2f s (lockfile: %s)", ps->pm->name,
			   (double)s->wall_ns / 1e9, ps->lockfile);
	return ret;
}

int pmbench_pmrun_prime_from(struct pmbench_pmrun *ps, uint64_t timeout_ns,
			     const char *from_pm, const char *from_lock)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_sample s;
	struct pmbench_buf how = PMBENCH_BUF_INIT;
	enum pmbench_pm_route route = PMBENCH_ROUTE_OWN;
	const char *shipped = NULL;
	int ret;

	memset(&s, 0, sizeof(s));
	if (ps->prime_failure)
		return 0;
	if (from_pm && from_lock)
		route = pmbench_pm_route(ps->pm, from_pm);
	pmbench_ctx_status(ps->ctx, "priming %s (full install, not timed)",
			   ps->pm->name);
	ps->priming = 1;
	ret = prepare_route(ps, timeout_ns, from_lock, &route, &shipped, &how);
	if (ret < 0)
		goto done;
	ret = pmbench_pmrun_install(ps, timeout_ns, &s, &c);
	if (ret < 0)
		goto done;
	if (!s.ok && route == PMBENCH_ROUTE_OWN)
		pmbench_pmrun_era_hint(ps, &s, shipped);
	if (!s.ok)
		record_prime_failure(ps, &s, &how);
	else
		ret = record_primed(ps, &s, &c, route, shipped, from_lock, &how,
				    timeout_ns);
done:
	ps->priming = 0;
	pmbench_sample_release(&s);
	pmbench_child_release(&c);
	pmbench_buf_release(&how);
	return ret;
}

void pmbench_pmrun_fail_priming(struct pmbench_pmrun *ps, const char *why)
{
	free(ps->prime_failure);
	ps->prime_failure = pmbench_xstrdup(why);
	pmbench_ctx_report(ps->ctx, primed(ps, -1), "%s: %s", ps->pm->name,
			   why);
}

int pmbench_pmrun_prime_unlocked(struct pmbench_pmrun *ps, uint64_t timeout_ns,
				 const char *for_scenarios, double *out_seconds)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_sample s;
	int ret;

	memset(&s, 0, sizeof(s));
	*out_seconds = 0;
	pmbench_ctx_status(ps->ctx,
			   "priming %s again without a lockfile, for %s (full "
			   "install, not timed)",
			   ps->pm->name, for_scenarios);
	/* A fresh copy without any lockfile, and an empty cache. */
	ret = pmbench_workspace_prepare_migrate(&ps->ws, NULL);
	ps->priming = 1;
	if (!ret)
		ret = pmbench_pmrun_install(ps, timeout_ns, &s, &c);
	ps->priming = 0;
	if (ret < 0)
		goto done;
	*out_seconds = (double)s.wall_ns / 1e9;
	if (s.ok)
		pmbench_ctx_report(ps->ctx, primed(ps, *out_seconds),
				   "%s: primed again without a lockfile in "
				   "%.2f s, for the runs in %s",
				   ps->pm->name, *out_seconds, for_scenarios);
	else
		pmbench_ctx_report(ps->ctx, primed(ps, -1),
				   "%s: the priming without a lockfile failed "
				   "(%s): its runs in %s may ask the mirror "
				   "for what it lacks",
				   ps->pm->name, s.failure, for_scenarios);
	/* Only the mirror keeps what it fetched; the snapshot stays. */
	ret = pmbench_fs_discard(ps->ws.run, ps->ws.trash);
	if (!ret)
		ret = pmbench_fs_discard(ps->ws.cache, ps->ws.trash);
done:
	pmbench_sample_release(&s);
	pmbench_child_release(&c);
	return ret;
}

void pmbench_pmrun_reset(struct pmbench_pmrun *ps)
{
	pmbench_workspace_release(&ps->ws);
	free(ps->prime_failure);
	free(ps->lockfile);
	free(ps->scripts);
	free(ps->note);
	free(ps->registry_note);
	free(ps->node_era);
	pmbench_strvec_release(&ps->script_packages);
	ps->prime_failure = ps->lockfile = ps->scripts = ps->note = NULL;
	ps->registry_note = ps->node_era = NULL;
	ps->primed_locked = 0;
	ps->tree_tarballs = 0;
}

void pmbench_pmrun_release(struct pmbench_pmrun *ps)
{
	pmbench_pmrun_reset(ps);
	free(ps->runtime);
	free(ps->node);
	free(ps->pm_config);
	free(ps->pm_version);
	pmbench_pm_found_release(&ps->found);
	pmbench_pm_found_release(&ps->pinned);
	pmbench_pmrun_drop_own_node(ps);
	pmbench_strvec_release(&ps->command);
	pmbench_strvec_release(&ps->env);
	memset(ps, 0, sizeof(*ps));
}

/* The result's record of `pm`, found or not; a variant's configuration. */
static void record_pm(struct pmbench_result *r, const struct pmbench_pm *pm,
		      const struct pmbench_pm_found *found)
{
	struct pmbench_result_pm *p =
		pmbench_result_add_pm(r, pm->name, found ? found->path : NULL,
				      found ? found->version : NULL);
	struct pmbench_buf config = PMBENCH_BUF_INIT;

	pmbench_pm_config(&config, pm);
	if (pm->base)
		p->base = pmbench_xstrdup(pm->base);
	if (config.len)
		p->config = pmbench_buf_detach(&config);
	pmbench_buf_release(&config);
}

/*
 * What the PM runs at and why, for every cell: "9.15.9: --pm pnpm@9",
 * "12.23.0: pinned (toolchain)", or `why` ("the repo's packageManager
 * field (pnpm@9.15.0)").
 */
static void version_note(struct pmbench_pmrun *ps, const char *why)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *v = ps->found.version ? ps->found.version : "?";

	if (why)
		pmbench_buf_addf(&b, "%s: %s", v, why);
	else if (ps->pm->version && strcmp(ps->pm->version, PMBENCH_PM_PINNED))
		pmbench_buf_addf(&b, "%s: --pm %s", v, ps->pm->name);
	else
		pmbench_buf_addf(&b, "%s: pinned (%s)", v, ps->found.source);
	free(ps->pm_version);
	ps->pm_version = pmbench_buf_detach(&b);
}

/* The pinned binary back in place of the last fixture's release. */
static void restore_pinned(struct pmbench_pmrun *ps)
{
	if (ps->pinned.path) {
		pmbench_pm_found_release(&ps->found);
		ps->found = ps->pinned;
		memset(&ps->pinned, 0, sizeof(ps->pinned));
	}
	ps->release = NULL;
	pmbench_pmrun_drop_own_node(ps);
}

/* The repo's release of `ps`'s PM, installed and found, into `found`. */
static int find_repo_release(struct pmbench_pm_found *found,
			     struct pmbench_pmrun *ps,
			     const struct pmbench_pm *want,
			     const struct pmbench_pm_ask *ask,
			     const char *scratch)
{
	struct pmbench_pm_release rel = PMBENCH_PM_RELEASE_INIT;
	int ret = 0;

	if (pmbench_pm_release_find(&rel, ps->ctx->toolchain_dir, want, NULL))
		ret = pmbench_error_set("%s vanished from the versions folder",
					want->name);
	if (!ret)
		ret = pmbench_pm_release_check_hash(&rel, ask);
	if (!ret)
		ret = pmbench_pmrun_find_under_node(found, ps, want, scratch);
	pmbench_pm_release_release(&rel);
	return ret;
}

/* Whether the pinned `version` satisfies the range `range`. */
static int pinned_satisfies(const char *range, const char *version)
{
	struct pmbench_semver v;

	return version && !pmbench_semver_parse(&v, version) &&
	       pmbench_semver_satisfies(range, &v) == 1;
}

/*
 * yarn berry's committed release (yarnPath), run instead of the pinned
 * yarn as yarn itself would run it, under the cell's Node (its shebang),
 * whatever packageManager says. A release committed without its x bit
 * (yarn runs it through node) is made executable in pmbench's scratch
 * tree of the repo; one the repo lacks leaves the pinned yarn timed, said.
 */
static int use_yarn_path(struct pmbench_pmrun *ps,
			 const struct pmbench_pm_ask *ask, const char *scratch)
{
	struct pmbench_pm_found found = PMBENCH_PM_FOUND_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct stat st;
	int ret = 0;

	if (stat(ask->yarn_path, &st) < 0 || !S_ISREG(st.st_mode)) {
		pmbench_buf_addf(&b,
				 "pinned (%s): %s names a file the repo "
				 "lacks",
				 ps->found.source, ask->yarn_path_source);
		version_note(ps, b.ptr);
		pmbench_ctx_warn(ps->ctx,
				 "%s: %s names a file the repo lacks; "
				 "the pinned %s is timed",
				 ps->pm->name, ask->yarn_path_source,
				 ps->found.version);
		goto done;
	}
	if (!(st.st_mode & S_IXUSR) &&
	    chmod(ask->yarn_path, (st.st_mode & 07777) | 0111) < 0) {
		ret = pmbench_error_set("cannot make '%s' executable: %s",
					ask->yarn_path, strerror(errno));
		goto done;
	}
	ret = pmbench_pm_find_at(&found, ps->ctx, ps->pm, ask->yarn_path,
				 "yarnPath", scratch);
	if (ret)
		goto done;
	ps->pinned = ps->found;
	ps->found = found;
	version_note(ps, ask->yarn_path_source);
	pmbench_ctx_event(ps->ctx, "%s: yarn %s, as %s says", ps->pm->name,
			  found.version, ask->yarn_path_source);
done:
	pmbench_buf_release(&b);
	return ret;
}

/* Whether `ps` runs yarn berry as the repo would: its yarnPath applies. */
static int takes_yarn_path(const struct pmbench_pmrun *ps,
			   const struct pmbench_pm_ask *ask)
{
	return ask->yarn_path && !ps->pm->version &&
	       pmbench_pm_base(ps->pm)->yarn_path;
}

/*
 * The release the repo asks for (spec, "pnpm@9.1.0") is not to be had
 * (offline, a registry that lacks it): the pinned one is timed, and every
 * cell says so, as the repo's Node falls back. A release that is had but
 * whose hash differs stays an error (find_repo_release()).
 */
static void keep_pinned(struct pmbench_pmrun *ps,
			const struct pmbench_pm_ask *ask, const char *spec)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;

	pmbench_buf_addf(&why, "%s says %s, which cannot be had: %s",
			 ask->source, spec, pmbench_error_last());
	pmbench_error_clear();
	pmbench_buf_addf(&b, "pinned (%s): %s", ps->found.source, why.ptr);
	version_note(ps, b.ptr);
	pmbench_ctx_warn(ps->ctx, "%s: %s; the pinned %s is timed",
			 ps->pm->name, why.ptr, ps->found.version);
	pmbench_buf_release(&why);
	pmbench_buf_release(&b);
}

/* The repo's release `want`, found, is the one timed: said per cell. */
static void adopt_release(struct pmbench_pmrun *ps,
			  const struct pmbench_pm_ask *ask,
			  const struct pmbench_pm *want,
			  const struct pmbench_pm_found *found)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	ps->pinned = ps->found;
	ps->found = *found;
	ps->release = want;
	pmbench_buf_addf(&b, "%s (%s)", ask->source, want->name);
	version_note(ps, b.ptr);
	pmbench_ctx_event(ps->ctx, "%s: %s %s, as %s says", ps->pm->name,
			  pmbench_pm_command_name(ps->pm), found->version,
			  ask->source);
	pmbench_buf_release(&b);
}

/*
 * A release asked for (`--pm pnpm@8`), under a Node of its own when its
 * engines.node rules out the fixture's: asked its version under that
 * Node too, as it runs (the binary found before is back next fixture).
 */
static int asked_release(struct pmbench_pmrun *ps, const char *scratch)
{
	struct pmbench_pm_found found = PMBENCH_PM_FOUND_INIT;
	int ret = pmbench_pmrun_own_node(ps, ps->pm);

	if (ret || !ps->own_node)
		return ret;
	ret = pmbench_pmrun_find_under_node(&found, ps, ps->pm, scratch);
	if (ret)
		return ret;
	ps->pinned = ps->found;
	ps->found = found;
	version_note(ps, NULL);
	return 0;
}

int pmbench_pmrun_use_repo_pm(struct pmbench_pmrun *ps,
			      const struct pmbench_pm_ask *ask,
			      const char *scratch)
{
	struct pmbench_pm_found found = PMBENCH_PM_FOUND_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const struct pmbench_pm *want = NULL;
	int ret = 0;

	restore_pinned(ps);
	version_note(ps, NULL);
	if (takes_yarn_path(ps, ask))
		return use_yarn_path(ps, ask, scratch);
	if (ps->pm->version)
		return asked_release(ps, scratch);
	if (!ask->pm || pmbench_pm_base(ps->pm) != ask->pm)
		return 0;
	pmbench_buf_addf(&b, "%s %s", ask->source, ask->version);
	if (pinned_satisfies(ask->version, ps->found.version)) {
		pmbench_buf_adds(&b, " (the pinned one satisfies it)");
		version_note(ps, b.ptr);
		goto done;
	}
	pmbench_buf_reset(&b);
	pmbench_buf_addf(&b, "%s@%s", ask->pm->name, ask->version);
	ret = pmbench_pm_lookup(&want, b.ptr);
	if (!ret && pmbench_pm_release_ensure(ps->ctx, want) < 0) {
		keep_pinned(ps, ask, b.ptr);
		goto done;
	}
	if (!ret)
		ret = pmbench_pmrun_own_node(ps, want);
	if (!ret)
		ret = find_repo_release(&found, ps, want, ask, scratch);
	if (!ret)
		adopt_release(ps, ask, want, &found);
done:
	pmbench_buf_release(&b);
	return ret;
}

/* "node v24.22.3" (the Node every PM runs under) or "bun 1.4.5". */
static void set_runtime(struct pmbench_pmrun *ps,
			const struct pmbench_result *r)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *node = r ? pmbench_result_env_get(r, "node_version") : NULL;

	if (ps->ctx && ps->ctx->node && ps->ctx->node->version)
		node = ps->ctx->node->version;
	free(ps->runtime);
	if (ps->pm->runtime)
		pmbench_buf_addf(&b, "%s %s", ps->pm->runtime,
				 ps->found.version ? ps->found.version : "?");
	else
		pmbench_buf_addf(&b, "node %s", node ? node : "(unknown)");
	ps->runtime = pmbench_buf_detach(&b);
}

void pmbench_pmrun_use_node(struct pmbench_pmrun *ps, const char *scratch)
{
	const struct pmbench_node *n = ps->ctx ? ps->ctx->node : NULL;
	struct pmbench_pm_found found = PMBENCH_PM_FOUND_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	restore_pinned(ps);
	pmbench_buf_addf(&b, "%s: %s",
			 n && n->version ? n->version : "the machine's",
			 n && n->why ? n->why : "no Node chosen");
	if (ps->pm->node_bin) {
		if (pmbench_pm_find(&found, ps->ctx, ps->pm, getenv("PATH"),
				    scratch) < 0) {
			pmbench_buf_addf(&b, "; %s still %s (%s)", ps->pm->name,
					 ps->found.path, pmbench_error_last());
			pmbench_error_clear();
		} else {
			if (strcmp(found.path, ps->found.path))
				pmbench_buf_addf(&b, "; %s %s (%s)",
						 ps->pm->name, found.version,
						 found.path);
			pmbench_pm_found_release(&ps->found);
			ps->found = found;
		}
	}
	free(ps->node);
	ps->node = pmbench_buf_detach(&b);
	set_runtime(ps, NULL);
}

/*
 * Where the work folder's file system changes what `pm` does (pnpm's
 * hard links on overlayfs): a warning, and a line of the result's
 * "filesystem_pms".
 */
static void warn_filesystem(struct pmbench_ctx *ctx, struct pmbench_result *r,
			    const struct pmbench_pm *pm)
{
	struct pmbench_fs_mount m = PMBENCH_FS_MOUNT_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *note = NULL, *had;

	if (ctx && ctx->cache_dir && !pmbench_fs_mount(&m, ctx->cache_dir))
		note = pmbench_pm_fs_note(pm, m.type.ptr);
	if (note) {
		pmbench_ctx_warn(ctx, "%s: %s", pm->name, note);
		had = pmbench_result_env_get(r, "filesystem_pms");
		if (had)
			pmbench_buf_addf(&b, "%s; ", had);
		pmbench_buf_addf(&b, "%s: %s", pm->name, note);
		pmbench_result_env_set(r, "filesystem_pms", b.ptr);
	}
	pmbench_fs_mount_release(&m);
	pmbench_buf_release(&b);
}

/*
 * `pm` found for `ps`, a release asked for installed first and asked its
 * version under the Node it would run under.
 */
static int find_one(struct pmbench_pmrun *ps, struct pmbench_ctx *ctx,
		    const struct pmbench_pm *pm, const char *scratch)
{
	int ret = pmbench_pm_release_ensure(ctx, pm);

	if (ret)
		return ret;
	if (!pm->version || !strcmp(pm->version, PMBENCH_PM_PINNED))
		return pmbench_pm_find(&ps->found, ctx, pm, getenv("PATH"),
				       scratch);
	ps->ctx = ctx;
	ps->pm = pm;
	return pmbench_pmrun_find_release(&ps->found, ps, pm, scratch);
}

int pmbench_pmrun_find_all(struct pmbench_ctx *ctx,
			   struct pmbench_pmrun *states, size_t *out_nr,
			   struct pmbench_result *r,
			   const struct pmbench_strvec *pms, int pms_explicit,
			   const char *scratch)
{
	size_t nr = 0;
	int ret;

	for (size_t i = 0; i < pms->nr; i++) {
		const struct pmbench_pm *pm = pmbench_pm_get(pms->v[i]);
		struct pmbench_pmrun *ps = &states[nr];

		if (!pm)
			return pmbench_error_setc(
				PMBENCH_EINVALID,
				"unknown package manager '%s'", pms->v[i]);
		memset(ps, 0, sizeof(*ps));
		pmbench_ctx_status(ctx, "looking for %s", pm->name);
		ret = find_one(ps, ctx, pm, scratch);
		if (ret < 0) {
			record_pm(r, pm, NULL);
			/* A full disk is no missing PM: it stops here. */
			if (pms_explicit || ret != PMBENCH_ENOTFOUND) {
				*out_nr = nr;
				return ret;
			}
			pmbench_ctx_event(ctx, "skipping %s: %s", pm->name,
					  pmbench_error_last());
			continue;
		}
		ps->ctx = ctx;
		ps->pm = pm;
		version_note(ps, NULL);
		set_runtime(ps, r);
		record_pm(r, pm, &ps->found);
		warn_filesystem(ctx, r, pm);
		nr++;
	}
	*out_nr = nr;
	if (!nr)
		return pmbench_error_setc(PMBENCH_ENOTFOUND,
					  "no package manager found; run "
					  "'%s' to install the pinned "
					  "toolchain",
					  pmbench_ctx_setup(ctx));
	return 0;
}

int pmbench_pmrun_start(struct pmbench_ctx *ctx, struct pmbench_result *r,
			struct pmbench_pmrun *states, size_t *out_nr,
			const struct pmbench_strvec *pms, int pms_explicit)
{
	struct pmbench_buf scratch = PMBENCH_BUF_INIT;
	int ret;

	*out_nr = 0;
	r->pmbench_version = pmbench_xstrdup(PMBENCH_VERSION);
	pmbench_result_stamp(r);
	pmbench_result_collect_sysinfo(r);
	pmbench_buf_path(&scratch, ctx->cache_dir, "tmp");
	ret = pmbench_fs_mkdirp(scratch.ptr, 0755);
	if (!ret) {
		pmbench_environment_record(ctx, r, scratch.ptr);
		ret = pmbench_pmrun_find_all(ctx, states, out_nr, r, pms,
					     pms_explicit, scratch.ptr);
	}
	pmbench_buf_release(&scratch);
	return ret;
}

void pmbench_pmrun_env_record(struct pmbench_strvec *out,
			      const struct pmbench_strvec *env, size_t given,
			      size_t given_end)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < env->nr; i++) {
		if (i < given || i >= given_end) {
			pmbench_strvec_push(out, env->v[i]);
			continue;
		}
		pmbench_buf_reset(&b);
		pmbench_text_env_record(&b, env->v[i]);
		pmbench_strvec_push(out, b.ptr);
	}
	pmbench_buf_release(&b);
}

void pmbench_pmrun_describe_cell(struct pmbench_cell *cell,
				 const struct pmbench_pmrun *ps)
{
	if (ps->prime_failure)
		cell->prime_failure = pmbench_xstrdup(ps->prime_failure);
	if (ps->lockfile)
		cell->lockfile = pmbench_xstrdup(ps->lockfile);
	if (ps->scripts)
		cell->scripts = pmbench_xstrdup(ps->scripts);
	if (ps->note)
		cell->note = pmbench_xstrdup(ps->note);
	if (ps->pm_version)
		cell->pm_version = pmbench_xstrdup(ps->pm_version);
	if (ps->node_era)
		cell->node_era = pmbench_xstrdup(ps->node_era);
	cell->ci = ps->ci != 0;
}
