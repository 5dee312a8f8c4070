/*
 * The run, build and dev tasks. Each run starts from a fresh copy of the
 * PM's primed snapshot, so a build or dev server always sees the
 * node_modules that this PM installed, and nothing a previous run left
 * (build output, Vite's pre-bundle cache, TypeScript build info) makes a
 * later run warm.
 */
#include "pmbench/common.h"

#include <regex.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/pmrun.h"
#include "pmbench/probe.h"
#include "pmbench/proc.h"
#include "pmbench/ctx.h"
#include "pmbench/scenario.h"
#include "pmbench/task.h"

#define TAIL_LINES 20

/* Tool caches inside node_modules that would make a second run warm. */
static const char *const warm_caches[] = {
	"node_modules/.vite", "node_modules/.cache", "node_modules/.tmp",
};

/* Ready lines of the common dev servers, when the manifest names none. */
static const char *const default_ready[] = {
	"ready in",		  /* Vite, Astro */
	"Ready in",		  /* Next */
	"App running at",	  /* Vue CLI */
	"compiled successfully",  /* webpack-dev-server */
	"Project is running at",  /* webpack-dev-server */
};

int pmbench_task_known(const char *name)
{
	return !strcmp(name, "install") || !strcmp(name, "run") ||
	       !strcmp(name, "build") || !strcmp(name, "dev");
}

static double unix_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void fail(struct pmbench_sample *s, const char *reason,
		 const char *tail)
{
	s->ok = 0;
	free(s->failure);
	s->failure = pmbench_xstrdup(reason);
	if (tail) {
		free(s->tail);
		s->tail = pmbench_xstrdup(tail);
	}
}

static int add_noop(const char *project)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	cJSON *root = NULL, *scripts;
	char *out = NULL;
	int ret;

	pmbench_buf_path(&path, project, "package.json");
	ret = pmbench_fs_read_text(&text, path.ptr, 16u << 20);
	if (ret < 0)
		goto done;
	root = cJSON_Parse(text.ptr);
	if (!cJSON_IsObject(root)) {
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "'%s' is not a JSON object", path.ptr);
		goto done;
	}
	scripts = cJSON_GetObjectItemCaseSensitive(root, "scripts");
	if (!scripts) {
		scripts = cJSON_AddObjectToObject(root, "scripts");
	} else if (!cJSON_IsObject(scripts)) {
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "'scripts' in '%s' is not an object",
					 path.ptr);
		goto done;
	}
	cJSON_DeleteItemFromObjectCaseSensitive(scripts,
						PMBENCH_TASK_NOOP_SCRIPT);
	cJSON_AddStringToObject(scripts, PMBENCH_TASK_NOOP_SCRIPT,
				PMBENCH_TASK_NOOP_COMMAND);
	out = cJSON_Print(root);
	if (!out) {
		ret = pmbench_error_set("cannot write '%s'", path.ptr);
		goto done;
	}
	ret = pmbench_fs_write_atomic(path.ptr, out, strlen(out));
done:
	if (out)
		cJSON_free(out);
	cJSON_Delete(root);
	pmbench_buf_release(&path);
	pmbench_buf_release(&text);
	return ret;
}

int pmbench_task_prepare(struct pmbench_pmrun *ps,
			 const struct pmbench_fixture *f, int noop)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int ret;

	ret = pmbench_workspace_prepare(&ps->ws,
					PMBENCH_STATE_CACHE |
						PMBENCH_STATE_LOCKFILE |
						PMBENCH_STATE_NODE_MODULES);
	if (ret < 0)
		goto done;
	if (f->build_output) {
		pmbench_buf_path(&p, ps->ws.run_project, f->build_output);
		ret = pmbench_fs_rmtree(p.ptr);
		if (ret < 0)
			goto done;
	}
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(warm_caches); i++) {
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, ps->ws.run_project, warm_caches[i]);
		ret = pmbench_fs_rmtree(p.ptr);
		if (ret < 0)
			goto done;
	}
	if (noop)
		ret = add_noop(ps->ws.run_project);
done:
	pmbench_buf_release(&p);
	return ret;
}

void pmbench_task_run_argv(struct pmbench_strvec *out,
			   const struct pmbench_pmrun *ps, const char *script,
			   const struct pmbench_strvec *args)
{
	pmbench_strvec_push(out, ps->found.path);
	pmbench_pm_push_args(out, ps->pm->run_args, ps->ws.cache);
	pmbench_strvec_push(out, script);
	if (args && args->nr && ps->pm->run_dashdash)
		pmbench_strvec_push(out, "--");
	for (size_t i = 0; args && i < args->nr; i++)
		pmbench_strvec_push(out, args->v[i]);
}

int pmbench_task_has_script(const struct pmbench_fixture *f,
			    const char *script)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	cJSON *root = NULL;
	const cJSON *x;
	int has = 0;

	if (!f->project_dir)
		return 0;
	pmbench_buf_path(&path, f->project_dir, "package.json");
	if (pmbench_fs_read_text(&text, path.ptr, 16u << 20) < 0)
		goto done;
	root = cJSON_Parse(text.ptr);
	x = cJSON_GetObjectItemCaseSensitive(root, "scripts");
	x = cJSON_GetObjectItemCaseSensitive(x, script);
	has = cJSON_IsString(x);
done:
	cJSON_Delete(root);
	pmbench_buf_release(&path);
	pmbench_buf_release(&text);
	return has;
}

int pmbench_task_script(struct pmbench_pmrun *ps, const char *script,
			uint64_t timeout_ns, struct pmbench_sample *s)
{
	struct pmbench_strvec argv = PMBENCH_STRVEC_INIT;
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	int ret;

	pmbench_task_run_argv(&argv, ps, script, NULL);
	ret = pmbench_pmrun_exec(ps, &argv, ps->ws.run_project, timeout_ns, s,
				 &c);
	pmbench_child_release(&c);
	pmbench_strvec_release(&argv);
	return ret;
}

int pmbench_task_bare(struct pmbench_ctx *ctx, const struct pmbench_strvec *argv,
		      const char *dir,
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

int pmbench_task_build(struct pmbench_pmrun *ps,
		       const struct pmbench_fixture *f, uint64_t timeout_ns,
		       struct pmbench_sample *s)
{
	struct pmbench_fs_usage u;
	struct pmbench_buf p = PMBENCH_BUF_INIT, why = PMBENCH_BUF_INIT;
	int ret = pmbench_task_script(ps, f->build_script, timeout_ns, s);

	if (ret < 0 || !s->ok || !f->build_output)
		goto done;
	pmbench_buf_path(&p, ps->ws.run_project, f->build_output);
	if (pmbench_fs_usage(&u, p.ptr) < 0 || !u.dirs) {
		pmbench_buf_addf(&why, "the build exited 0 but wrote no "
				       "'%s' folder (the manifest's "
				       "build.output)",
				 f->build_output);
		fail(s, why.ptr, NULL);
		goto done;
	}
	pmbench_sample_metric_set(s, "output_bytes", (double)u.apparent_bytes);
	pmbench_sample_metric_set(s, "output_files", (double)u.files);
	if (!u.files) {
		pmbench_buf_addf(&why, "the build exited 0 but its output "
				       "folder '%s' is empty",
				 f->build_output);
		fail(s, why.ptr, NULL);
	}
done:
	pmbench_buf_release(&p);
	pmbench_buf_release(&why);
	return ret;
}

/* ---- dev ---- */

struct dev_watch {
	const char *pattern; /* NULL: the defaults */
	regex_t re;
	int has_re;
	uint64_t line_ns;
	struct pmbench_buf line;
};

static void on_line(const char *line, size_t len, void *payload)
{
	struct dev_watch *w = payload;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int hit = 0;

	if (w->line_ns)
		return;
	pmbench_buf_add(&b, line, len);
	if (w->pattern) {
		hit = strstr(b.ptr, w->pattern) != NULL ||
		      (w->has_re && !regexec(&w->re, b.ptr, 0, NULL, 0));
	} else {
		for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(default_ready); i++)
			hit |= strstr(b.ptr, default_ready[i]) != NULL;
	}
	if (hit) {
		w->line_ns = pmbench_now_ns();
		pmbench_buf_add(&w->line, b.ptr, b.len);
	}
	pmbench_buf_release(&b);
}

/* Split the manifest's args at blanks, with {port} filled in. */
static void dev_args(struct pmbench_strvec *out, const char *templ,
		     unsigned port)
{
	struct pmbench_strvec words = PMBENCH_STRVEC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	char *t;

	if (!templ)
		return;
	t = pmbench_xstrdup(templ);
	for (char *p = t; *p; p++)
		if (*p == '\t' || *p == '\n')
			*p = ' ';
	pmbench_strvec_split(&words, t, ' ');
	for (size_t i = 0; i < words.nr; i++) {
		const char *w = words.v[i], *hole;

		pmbench_buf_reset(&b);
		while ((hole = strstr(w, "{port}"))) {
			pmbench_buf_add(&b, w, (size_t)(hole - w));
			pmbench_buf_addf(&b, "%u", port);
			w = hole + 6;
		}
		pmbench_buf_adds(&b, w);
		pmbench_strvec_push(out, b.ptr);
	}
	free(t);
	pmbench_strvec_release(&words);
	pmbench_buf_release(&b);
}

/* Keep reading the server's output while the probe runs: a server that
 * logs every request would block on a full pipe otherwise. */
static void drain_child(void *payload)
{
	pmbench_child_pump(payload, 0);
}

static double since(uint64_t t, uint64_t t0)
{
	return t > t0 ? (double)(t - t0) / 1e9 : 0;
}

/* Describe what was missing when the server did not become ready. */
static void not_ready(struct pmbench_buf *why, const struct dev_watch *w,
		      const struct pmbench_ready_state *st, uint64_t t0,
		      double after_s)
{
	pmbench_buf_addf(why, "dev server not ready after %.0f s:", after_s);
	if (!w->line_ns) {
		if (w->pattern)
			pmbench_buf_addf(why, " no output line matched '%s';",
					 w->pattern);
		else
			pmbench_buf_adds(why, " no known ready line seen (set "
					      "\"ready\" in the manifest's "
					      "\"dev\");");
	}
	if (!st->body_ns) {
		pmbench_buf_addf(why,
				 " no HTTP answer below 500 (%u attempts: %u "
				 "refused, %u timed out, %u with status >= "
				 "500",
				 st->attempts, st->refused, st->timeouts,
				 st->errors_5xx);
		if (st->last_error[0])
			pmbench_buf_addf(why, "; last: %s", st->last_error);
		pmbench_buf_adds(why, ")");
	} else {
		pmbench_buf_addf(why, " HTTP answered after %.3f s",
				 since(st->body_ns, t0));
	}
}

int pmbench_task_dev(struct pmbench_pmrun *ps, const struct pmbench_fixture *f,
		     const struct pmbench_task_dev_opts *o,
		     struct pmbench_sample *s, struct pmbench_strvec *argv_out)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_strvec args = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec argv = PMBENCH_STRVEC_INIT;
	struct pmbench_buf url = PMBENCH_BUF_INIT, why = PMBENCH_BUF_INIT;
	struct pmbench_buf tail = PMBENCH_BUF_INIT;
	struct pmbench_ready_poll *poll = NULL;
	struct pmbench_ready_state st;
	struct dev_watch w;
	unsigned port = 0;
	uint64_t deadline, t_stop;
	int ret = 0, started = 0, ready = 0, exited = 0, n;
	size_t left;

	memset(&st, 0, sizeof(st));
	memset(&w, 0, sizeof(w));
	pmbench_buf_init(&w.line);
	w.pattern = f->ready_pattern;
	if (w.pattern && !regcomp(&w.re, w.pattern, REG_EXTENDED | REG_NOSUB))
		w.has_re = 1;
	s->exit_code = -1;
	s->started = unix_now();

	if (pmbench_probe_free_port(&port) < 0) {
		fail(s, pmbench_error_last(), NULL);
		goto done;
	}
	dev_args(&args, f->dev_args, port);
	pmbench_task_run_argv(&argv, ps, f->dev_script, &args);
	if (argv_out) {
		pmbench_strvec_release(argv_out);
		for (size_t i = 0; i < argv.nr; i++)
			pmbench_strvec_push(argv_out, argv.v[i]);
	}
	pmbench_buf_addf(&url, "http://127.0.0.1:%u%s", port,
			 f->ready_path ? f->ready_path : "/");
	if (pmbench_ready_poll_new(&poll, url.ptr, 10000000ull,
				   2000000000ull) < 0) {
		fail(s, pmbench_error_last(), NULL);
		goto done;
	}

	for (size_t i = 0; i < argv.nr; i++)
		pmbench_strvec_push(&c.args, argv.v[i]);
	for (size_t i = 0; i < ps->env.nr; i++)
		pmbench_strvec_push(&c.env, ps->env.v[i]);
	pmbench_strvec_pushf(&c.env, "PORT=%u", port);
	pmbench_strvec_push(&c.env, "HOST=127.0.0.1");
	pmbench_strvec_push(&c.env, "BROWSER=none");
	c.dir = ps->ws.run_project;
	c.ctx = ps->ctx;
	c.flags |= PMBENCH_CHILD_SAMPLE_TREE;
	c.grace_ns = o->grace_ns;
	c.on_line = on_line;
	c.payload = &w;
	if (pmbench_child_start(&c) < 0) {
		fail(s, pmbench_error_last(), NULL);
		goto done;
	}
	started = 1;
	deadline = c.t0 + o->ready_timeout_ns;

	for (;;) {
		n = pmbench_child_pump(&c, 0);
		/* Ctrl-C stops the server too: that is no early exit. */
		if (n == 1 && pmbench_ctx_cancelled(ps->ctx))
			n = PMBENCH_EINTERRUPTED;
		if (n == PMBENCH_EINTERRUPTED) {
			ret = n;
			pmbench_buf_addf(&why, "interrupted by %s before the "
					       "dev server was ready",
					 pmbench_proc_signal_name(
						 pmbench_ctx_cancelled(ps->ctx)));
			pmbench_sample_interrupt(s, why.ptr);
			goto stop;
		}
		if (n == 1) {
			exited = 1;
			break;
		}
		if (!st.body_ns &&
		    pmbench_ready_poll_step(poll, 1000000, &st) < 0) {
			fail(s, pmbench_error_last(), NULL);
			goto stop;
		}
		if (st.body_ns)
			pmbench_child_pump(&c, 1000000);
		if (w.line_ns && st.body_ns) {
			ready = 1;
			break;
		}
		if (pmbench_now_ns() >= deadline)
			break;
	}

	pmbench_sample_metric_set(s, "http_attempts_count", st.attempts);
	pmbench_sample_metric_set(s, "http_refused_count", st.refused);
	pmbench_sample_metric_set(s, "http_timeout_count", st.timeouts);
	pmbench_sample_metric_set(s, "http_5xx_count", st.errors_5xx);
	if (w.line_ns)
		pmbench_sample_metric_set(s, "ready_line_s",
					  since(w.line_ns, c.t0));
	if (st.first_status_ns)
		pmbench_sample_metric_set(s, "http_s",
					  since(st.first_status_ns, c.t0));
	if (st.body_ns) {
		pmbench_sample_metric_set(s, "body_s",
					  since(st.body_ns, c.t0));
		pmbench_sample_metric_set(s, "body_bytes",
					  (double)st.body_bytes);
	}
	if (ready) {
		s->ok = 1;
		s->wall_ns = st.first_status_ns - c.t0;
	} else if (exited) {
		struct pmbench_buf reason = PMBENCH_BUF_INIT;

		pmbench_pmrun_describe_failure(&reason, &tail, &c, ps->pm);
		pmbench_buf_addf(&why, "dev server exited before it was "
				       "ready: %s",
				 reason.ptr);
		pmbench_buf_release(&reason);
		fail(s, why.ptr, tail.ptr);
	} else {
		not_ready(&why, &w, &st, c.t0,
			  (double)o->ready_timeout_ns / 1e9);
		pmbench_child_tail_lines(&c, TAIL_LINES, &tail);
		fail(s, why.ptr, tail.ptr);
	}

	if (ready && o->probe_requests) {
		struct pmbench_probe_opts po;
		struct pmbench_probe_stats ps_;
		struct pmbench_buf name = PMBENCH_BUF_INIT;

		po.requests = o->probe_requests;
		po.concurrency = o->probe_concurrency;
		if (!po.concurrency)
			po.concurrency = 1;
		po.time_cap_ns = o->probe_cap_ns;
		po.req_timeout_ns = 10000000000ull;
		pmbench_ctx_status(ps->ctx, "probing %s with %u requests",
					url.ptr, po.requests);
		if (pmbench_probe_run(&ps_, url.ptr, &po, drain_child, &c) <
		    0) {
			fail(s, pmbench_error_last(), NULL);
		} else {
			pmbench_sample_metric_set(s, "probe_requests_count",
						  ps_.requests);
			pmbench_sample_metric_set(s, "probe_ok_count", ps_.ok);
			pmbench_sample_metric_set(s, "probe_errors_count",
						  ps_.errors);
			pmbench_sample_metric_set(s, "probe_ok_ratio",
						  ps_.ok_ratio);
			pmbench_sample_metric_set(s, "probe_latency_min_s",
						  ps_.lat_min);
			pmbench_sample_metric_set(s, "probe_latency_mean_s",
						  ps_.lat_mean);
			pmbench_sample_metric_set(s, "probe_latency_p50_s",
						  ps_.lat_p50);
			pmbench_sample_metric_set(s, "probe_latency_p90_s",
						  ps_.lat_p90);
			pmbench_sample_metric_set(s, "probe_latency_p95_s",
						  ps_.lat_p95);
			pmbench_sample_metric_set(s, "probe_latency_p99_s",
						  ps_.lat_p99);
			pmbench_sample_metric_set(s, "probe_latency_max_s",
						  ps_.lat_max);
			pmbench_sample_metric_set(s, "probe_bytes",
						  (double)ps_.bytes_in);
			pmbench_sample_metric_set(s, "probe_duration_s",
						  ps_.duration_s);
			pmbench_sample_metric_set(s, "probe_capped_count",
						  ps_.capped);
			for (size_t i = 0; i < ps_.statuses_nr; i++) {
				pmbench_buf_reset(&name);
				pmbench_buf_addf(&name, "probe_status_%d_count",
						 ps_.statuses[i].code);
				pmbench_sample_metric_set(
					s, name.ptr, ps_.statuses[i].count);
			}
			if (ps_.requests < po.requests) {
				pmbench_buf_reset(&why);
				pmbench_buf_addf(&why,
						 "the probe finished %u of %u "
						 "requests within its time cap",
						 ps_.requests, po.requests);
				fail(s, why.ptr, NULL);
			}
		}
		pmbench_buf_release(&name);
	}

stop:
	/* Stop the whole tree, then check that it is really gone. */
	t_stop = pmbench_now_ns();
	n = pmbench_child_kill_tree(&c);
	pmbench_sample_metric_set(s, "stop_s", since(pmbench_now_ns(), t_stop));
	pmbench_sample_metric_set(s, "stopped_processes_count", n);
	left = (size_t)pmbench_child_leftovers(&c);
	s->leftover = (int)left;
	s->user_ns = c.result.user_ns;
	s->sys_ns = c.result.sys_ns;
	s->max_rss_kib = c.result.max_rss_kib;
	s->tree_rss_kib = c.result.tree_rss_kib;
	s->exit_code = c.result.exit_code;
	s->signal = c.result.signal;
	{
		int open_after = 0;

		/* A listener that is gone refuses at once; allow a moment. */
		for (int i = 0; i < 50; i++) {
			open_after = pmbench_probe_port_open(port);
			if (!open_after)
				break;
			pmbench_sleep_ns(10000000);
		}
		pmbench_sample_metric_set(s, "port_open_after_stop_count",
					  open_after);
		if (s->ok && open_after) {
			pmbench_buf_reset(&why);
			pmbench_buf_addf(&why,
					 "port %u still accepted connections "
					 "after the dev server was stopped",
					 port);
			fail(s, why.ptr, NULL);
		}
	}
	if (s->ok && left) {
		pmbench_buf_reset(&why);
		pmbench_buf_addf(&why, "%zu process(es) still running after "
				       "the dev server was stopped",
				 left);
		fail(s, why.ptr, NULL);
	}
	if (started && pmbench_ctx_cancelled(ps->ctx)) {
		/* Stopped in flight: interrupted, whatever it measured. */
		if (!s->interrupted)
			pmbench_pmrun_interrupt(ps->ctx, s);
		ret = PMBENCH_EINTERRUPTED;
	}
done:
	pmbench_ready_poll_free(poll);
	pmbench_child_release(&c);
	if (w.has_re)
		regfree(&w.re);
	pmbench_buf_release(&w.line);
	pmbench_strvec_release(&args);
	pmbench_strvec_release(&argv);
	pmbench_buf_release(&url);
	pmbench_buf_release(&why);
	pmbench_buf_release(&tail);
	return ret;
}
