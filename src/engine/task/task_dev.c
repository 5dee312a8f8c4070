/*
 * The dev task: start the dev script through the PM on a free 127.0.0.1
 * port and time, from the spawn, the ready line (ready_line_s), the
 * first HTTP response with status < 500 (http_s, also the sample's wall
 * time) and the first whole body (body_s); then run the probe if asked,
 * stop the whole tree (SIGTERM, grace, SIGKILL) and check that the port
 * is closed and no process is left. A server that exits early, is not
 * ready in time, keeps its port or leaves processes is a failed run with
 * its last output lines.
 */
#include "pmbench/common.h"

#include <ctype.h>
#include <regex.h>
#include <time.h>

#include "pmbench/bench.h"
#include "pmbench/ctx.h"
#include "pmbench/fixture.h"
#include "pmbench/framework.h"
#include "pmbench/pmrun.h"
#include "pmbench/probe.h"
#include "pmbench/proc.h"
#include "task_ops.h"

#define TAIL_LINES 20
/* A dev server that is not ready after this long has failed. */
#define READY_MAX_NS	 (120ull * 1000000000ull)
#define GRACE_NS	 (3ull * 1000000000ull)
#define PROBE_CAP_NS	 (60ull * 1000000000ull)
#define PROBE_REQUEST_NS (10ull * 1000000000ull)
/* The first poll of the port comes after 1 ms, doubling to 10 ms. */
#define POLL_MAX_GAP_NS 10000000ull
#define POLL_ATTEMPT_NS 2000000000ull
/*
 * A server whose ready line is out but whose port (pmbench's) still
 * refuses after this long listens elsewhere: fail at once.
 */
#define REFUSING_NS (5ull * 1000000000ull)
/* How long a server that named another local URL may still answer. */
#define OTHER_URL_NS (1ull * 1000000000ull)
#define SET_ARGS                                                           \
	"set \"dev.args\" in the manifest so that it listens on "          \
	"127.0.0.1:{port} (e.g. \"--port {port} --host 127.0.0.1\"), and " \
	"\"dev.path\""

/* Ready lines of the common dev servers, when the manifest names none. */
static const char *const default_ready[] = {
	"ready in",		 /* Vite, Astro */
	"Ready in",		 /* Next */
	"App running at",	 /* Vue CLI */
	"compiled successfully", /* webpack-dev-server */
	"Project is running at", /* webpack-dev-server */
};

const char *pmbench_task_dev_script(const struct pmbench_fixture *f,
				    const char *cell)
{
	(void)cell;
	return pmbench_fixture_get(f, "dev", "script");
}

void pmbench_task_dev_describe(struct pmbench_cell *cell,
			       const struct pmbench_task_job *j)
{
	/* The port differs per run: the first run's argv is the command. */
	PMBENCH_PMRUN_ENV_RECORD(&cell->env, j->ps);
	pmbench_strvec_push(&cell->env, "PORT={port}");
	pmbench_strvec_push(&cell->env, "HOST=127.0.0.1");
	pmbench_strvec_push(&cell->env, "BROWSER=none");
}

void pmbench_dev_config(struct pmbench_dev_config *out,
			const struct pmbench_task_job *j)
{
	const struct pmbench_fixture *f = j->f;
	const char *args = pmbench_fixture_get(f, "dev", "args");
	const char *ready = pmbench_fixture_get(f, "dev", "ready");

	out->fw = pmbench_framework_detect(
		f->project_dir, pmbench_fixture_get(f, "dev", "script"));
	out->args = args ? args : out->fw ? out->fw->args : NULL;
	out->ready = ready ? ready : out->fw ? out->fw->ready : NULL;
	out->path = pmbench_fixture_get(f, "dev", "path");
}

uint64_t pmbench_dev_ready_timeout(const struct pmbench_task_job *j)
{
	return j->timeout_ns < READY_MAX_NS ? j->timeout_ns : READY_MAX_NS;
}

static double unix_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double since(uint64_t t, uint64_t t0)
{
	return t > t0 ? (double)(t - t0) / 1e9 : 0;
}

static int local_host(const char *h, size_t n)
{
	static const char *const hosts[] = { "localhost", "127.0.0.1",
					     "0.0.0.0", "[::1]", "[::]" };

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(hosts); i++)
		if (strlen(hosts[i]) == n && !strncmp(h, hosts[i], n))
			return 1;
	return 0;
}

/*
 * A local URL in `line` (ANSI escapes removed) on a port other than
 * pmbench's: the server listens where pmbench does not poll ("Local:
 * http://localhost:5173/" after pmbench gave it another port).
 */
static void check_url(struct pmbench_dev_watch *w, const char *line)
{
	for (const char *p = strstr(line, "http://"); p;
	     p = strstr(p + 1, "http://")) {
		const char *h = p + 7, *colon, *rb = strchr(h, ']');
		size_t hn = strcspn(h, ":/ \t");
		unsigned long port;

		/* An IPv6 address is in brackets: "[::1]:5173". */
		if (h[0] == '[' && !rb)
			continue;
		if (h[0] == '[')
			hn = (size_t)(rb - h) + 1;
		colon = h + hn;
		if (*colon != ':' || !local_host(h, hn) ||
		    !isdigit((unsigned char)colon[1]))
			continue;
		port = strtoul(colon + 1, NULL, 10);
		if (port == w->port || w->other_url[0])
			continue;
		snprintf(w->other_url, sizeof(w->other_url), "%.*s",
			 (int)strcspn(p, " \t\"'"), p);
		w->other_ns = pmbench_now_ns();
	}
}

/* The line without ANSI escapes (a bold port number in a URL). */
static void strip_ansi(struct pmbench_buf *out, const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (line[i] == '\033' && i + 1 < len && line[i + 1] == '[') {
			i += 2;
			while (i < len && !isalpha((unsigned char)line[i]))
				i++;
			continue;
		}
		pmbench_buf_add(out, line + i, 1);
	}
}

static void on_line(const char *line, size_t len, void *payload)
{
	struct pmbench_dev_watch *w = payload;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int hit = 0;

	strip_ansi(&b, line, len);
	check_url(w, b.ptr);
	if (w->line_ns) {
		pmbench_buf_release(&b);
		return;
	}
	if (w->pattern) {
		hit = strstr(b.ptr, w->pattern) != NULL ||
		      (w->has_re && !regexec(&w->re, b.ptr, 0, NULL, 0));
	} else {
		for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(default_ready); i++)
			hit |= strstr(b.ptr, default_ready[i]) != NULL;
	}
	if (hit)
		w->line_ns = pmbench_now_ns();
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

/*
 * Pick a port, fill in the command and start the server in its own
 * process group. Returns 0 when it runs; -1 when it could not start (the
 * sample says why).
 */
int pmbench_dev_start(struct pmbench_dev_run *d,
		      struct pmbench_strvec *argv_out)
{
	const struct pmbench_task_job *j = d->j;
	struct pmbench_strvec args = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec argv = PMBENCH_STRVEC_INIT;
	int ret = -1;

	if (pmbench_probe_free_port(&d->port) < 0)
		goto done;
	d->w.port = d->port;
	dev_args(&args, d->cfg.args, d->port);
	pmbench_task_run_argv(&argv, j->ps, pmbench_task_dev_script(j->f, NULL),
			      &args);
	if (argv_out) {
		pmbench_strvec_release(argv_out);
		pmbench_strvec_pushv(argv_out, (const char *const *)argv.v);
	}
	pmbench_buf_addf(&d->url, "http://127.0.0.1:%u%s", d->port,
			 d->cfg.path);
	if (pmbench_ready_poll_new(&d->poll, d->url.ptr, POLL_MAX_GAP_NS,
				   POLL_ATTEMPT_NS) < 0)
		goto done;

	pmbench_strvec_pushv(&d->c.args, (const char *const *)argv.v);
	for (size_t i = 0; i < j->ps->env.nr; i++)
		pmbench_strvec_push(&d->c.env, j->ps->env.v[i]);
	pmbench_strvec_pushf(&d->c.env, "PORT=%u", d->port);
	pmbench_strvec_push(&d->c.env, "HOST=127.0.0.1");
	pmbench_strvec_push(&d->c.env, "BROWSER=none");
	d->c.dir = j->ps->ws.run_project;
	d->c.ctx = j->ps->ctx;
	d->c.flags |= PMBENCH_CHILD_SAMPLE_TREE;
	d->c.grace_ns = GRACE_NS;
	d->c.on_line = on_line;
	d->c.payload = &d->w;
	if (pmbench_child_start(&d->c) < 0)
		goto done;
	d->started = 1;
	ret = 0;
done:
	if (ret < 0)
		pmbench_task_fail(d->s, pmbench_error_last(), NULL);
	pmbench_strvec_release(&args);
	pmbench_strvec_release(&argv);
	return ret;
}

/*
 * Read the server's output and poll its port until the ready line has
 * been seen and a body has arrived, it exits, or `timeout_ns` passes.
 * Returns 0, PMBENCH_EINTERRUPTED (the sample says so), or -1 when the
 * poll failed (the sample says why).
 */
int pmbench_dev_wait_ready(struct pmbench_dev_run *d, uint64_t timeout_ns)
{
	const struct pmbench_ctx *ctx = d->j->ps->ctx;
	uint64_t deadline = d->c.t0 + timeout_ns;
	int n;

	for (;;) {
		n = pmbench_child_pump(&d->c, 0);
		/* Ctrl-C stops the server too: that is no early exit. */
		if (n == 1 && pmbench_ctx_cancelled(ctx))
			n = PMBENCH_EINTERRUPTED;
		if (n == PMBENCH_EINTERRUPTED) {
			struct pmbench_buf why = PMBENCH_BUF_INIT;

			pmbench_buf_addf(&why,
					 "interrupted by %s before the "
					 "dev server was ready",
					 pmbench_proc_signal_name(
						 pmbench_ctx_cancelled(ctx)));
			pmbench_sample_interrupt(d->s, why.ptr);
			pmbench_buf_release(&why);
			return n;
		}
		if (n == 1) {
			d->exited = 1;
			return 0;
		}
		if (!d->st.body_ns &&
		    pmbench_ready_poll_step(d->poll, 1000000, &d->st) < 0) {
			pmbench_task_fail(d->s, pmbench_error_last(), NULL);
			return -1;
		}
		if (d->st.body_ns)
			pmbench_child_pump(&d->c, 1000000);
		if (d->w.line_ns && d->st.body_ns) {
			d->ready = 1;
			return 0;
		}
		/* Given a second to answer on its port too, it does not. */
		if (d->w.other_url[0] && !d->st.first_status_ns &&
		    pmbench_now_ns() - d->w.other_ns >= OTHER_URL_NS) {
			d->wrong_url = 1;
			return 0;
		}
		if (d->w.line_ns && !d->st.first_status_ns && d->st.refused &&
		    pmbench_now_ns() - d->w.line_ns >= REFUSING_NS) {
			d->refusing = 1;
			return 0;
		}
		if (pmbench_now_ns() >= deadline)
			return 0;
	}
}

/* Describe what was missing when the server did not become ready. */
static void not_ready(struct pmbench_buf *why, const struct pmbench_dev_run *d,
		      double after_s)
{
	const struct pmbench_ready_state *st = &d->st;

	if (d->wrong_url) {
		pmbench_buf_addf(why,
				 "the dev server says it serves %s but pmbench "
				 "polls %s: %s",
				 d->w.other_url, d->url.ptr, SET_ARGS);
		return;
	}
	if (d->refusing) {
		pmbench_buf_addf(why,
				 "the dev server printed its ready line but "
				 "%s still refused connections %.0f s later: "
				 "%s",
				 d->url.ptr, (double)REFUSING_NS / 1e9,
				 SET_ARGS);
		return;
	}
	pmbench_buf_addf(why, "dev server not ready after %.0f s:", after_s);
	if (!d->w.line_ns) {
		if (d->w.pattern)
			pmbench_buf_addf(why, " no output line matched '%s';",
					 d->w.pattern);
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
				 since(st->body_ns, d->c.t0));
	}
}

/* The readiness metrics, and the verdict: ready, exited or too slow. */
void pmbench_dev_record_ready(struct pmbench_dev_run *d, uint64_t timeout_ns)
{
	struct pmbench_sample *s = d->s;
	const struct pmbench_ready_state *st = &d->st;
	struct pmbench_buf why = PMBENCH_BUF_INIT, tail = PMBENCH_BUF_INIT;

	pmbench_sample_metric_set(s, "http_attempts_count", st->attempts);
	pmbench_sample_metric_set(s, "http_refused_count", st->refused);
	pmbench_sample_metric_set(s, "http_timeout_count", st->timeouts);
	pmbench_sample_metric_set(s, "http_5xx_count", st->errors_5xx);
	if (d->w.line_ns)
		pmbench_sample_metric_set(s, "ready_line_s",
					  since(d->w.line_ns, d->c.t0));
	if (st->first_status_ns)
		pmbench_sample_metric_set(s, "http_s",
					  since(st->first_status_ns, d->c.t0));
	if (st->body_ns) {
		pmbench_sample_metric_set(s, "body_s",
					  since(st->body_ns, d->c.t0));
		pmbench_sample_metric_set(s, "body_bytes",
					  (double)st->body_bytes);
	}
	if (d->ready) {
		s->ok = 1;
		s->wall_ns = st->first_status_ns - d->c.t0;
	} else if (d->exited) {
		struct pmbench_buf reason = PMBENCH_BUF_INIT;

		pmbench_pmrun_describe_failure(&reason, &tail, &d->c,
					       d->j->ps->pm);
		pmbench_buf_addf(&why,
				 "dev server exited before it was "
				 "ready: %s",
				 reason.ptr);
		pmbench_buf_release(&reason);
		pmbench_task_fail(s, why.ptr, tail.ptr);
	} else {
		not_ready(&why, d, (double)timeout_ns / 1e9);
		pmbench_child_tail_lines(&d->c, TAIL_LINES, &tail);
		pmbench_task_fail(s, why.ptr, tail.ptr);
	}
	pmbench_buf_release(&why);
	pmbench_buf_release(&tail);
}

/*
 * Keep reading the server's output while the probe runs: a server that
 * logs every request would block on a full pipe otherwise.
 */
static void drain_child(void *payload)
{
	pmbench_child_pump(payload, 0);
}

static void probe_metrics(struct pmbench_sample *s,
			  const struct pmbench_probe_stats *ps)
{
	struct pmbench_buf name = PMBENCH_BUF_INIT;

	pmbench_sample_metric_set(s, "probe_requests_count", ps->requests);
	pmbench_sample_metric_set(s, "probe_ok_count", ps->ok);
	pmbench_sample_metric_set(s, "probe_errors_count", ps->errors);
	pmbench_sample_metric_set(s, "probe_ok_ratio", ps->ok_ratio);
	pmbench_sample_metric_set(s, "probe_latency_min_s", ps->lat_min);
	pmbench_sample_metric_set(s, "probe_latency_mean_s", ps->lat_mean);
	pmbench_sample_metric_set(s, "probe_latency_p50_s", ps->lat_p50);
	pmbench_sample_metric_set(s, "probe_latency_p90_s", ps->lat_p90);
	pmbench_sample_metric_set(s, "probe_latency_p95_s", ps->lat_p95);
	pmbench_sample_metric_set(s, "probe_latency_p99_s", ps->lat_p99);
	pmbench_sample_metric_set(s, "probe_latency_max_s", ps->lat_max);
	pmbench_sample_metric_set(s, "probe_bytes", (double)ps->bytes_in);
	pmbench_sample_metric_set(s, "probe_duration_s", ps->duration_s);
	pmbench_sample_metric_set(s, "probe_capped_count", ps->capped);
	for (size_t i = 0; i < ps->statuses_nr; i++) {
		pmbench_buf_reset(&name);
		pmbench_buf_addf(&name, "probe_status_%d_count",
				 ps->statuses[i].code);
		pmbench_sample_metric_set(s, name.ptr, ps->statuses[i].count);
	}
	pmbench_buf_release(&name);
}

/* --probe: load the ready server; fewer answers than asked fail it. */
static void dev_probe(struct pmbench_dev_run *d)
{
	const struct pmbench_task_job *j = d->j;
	struct pmbench_probe_opts po;
	struct pmbench_probe_stats st;
	struct pmbench_buf why = PMBENCH_BUF_INIT;

	po.requests = j->opts->knobs.probe_requests;
	po.concurrency = j->opts->knobs.probe_concurrency
				 ? j->opts->knobs.probe_concurrency
				 : 1;
	po.time_cap_ns = PROBE_CAP_NS;
	po.req_timeout_ns = PROBE_REQUEST_NS;
	pmbench_ctx_status(j->ps->ctx, "probing %s with %u requests",
			   d->url.ptr, po.requests);
	if (pmbench_probe_run(&st, d->url.ptr, &po, drain_child, &d->c) < 0) {
		pmbench_task_fail(d->s, pmbench_error_last(), NULL);
		return;
	}
	probe_metrics(d->s, &st);
	if (st.requests < po.requests) {
		pmbench_buf_addf(&why,
				 "the probe finished %u of %u requests "
				 "within its time cap",
				 st.requests, po.requests);
		pmbench_task_fail(d->s, why.ptr, NULL);
	}
	pmbench_buf_release(&why);
}

/* Whether the port still accepts connections, allowing it a moment. */
static int port_still_open(unsigned port)
{
	int open_after = 0;

	/* A listener that is gone refuses at once. */
	for (int i = 0; i < 50; i++) {
		open_after = pmbench_probe_port_open(port);
		if (!open_after)
			break;
		pmbench_sleep_ns(10000000);
	}
	return open_after;
}

/*
 * Stop the whole tree, then check that it is really gone: the port
 * closed, no process left. Returns PMBENCH_EINTERRUPTED when pmbench was
 * stopped while the server ran, else 0.
 */
int pmbench_dev_stop_and_check(struct pmbench_dev_run *d)
{
	struct pmbench_sample *s = d->s;
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	uint64_t t_stop = pmbench_now_ns();
	int n, open_after;
	size_t left;

	n = pmbench_child_kill_tree(&d->c);
	pmbench_sample_metric_set(s, "stop_s", since(pmbench_now_ns(), t_stop));
	pmbench_sample_metric_set(s, "stopped_processes_count", n);
	left = (size_t)pmbench_child_leftovers(&d->c);
	s->leftover = (int)left;
	s->user_ns = d->c.result.user_ns;
	s->sys_ns = d->c.result.sys_ns;
	s->max_rss_kib = d->c.result.max_rss_kib;
	s->max_rss_floor_kib = d->c.result.max_rss_floor_kib;
	s->tree_rss_kib = d->c.result.tree_rss_kib;
	s->exit_code = d->c.result.exit_code;
	s->signal = d->c.result.signal;
	open_after = port_still_open(d->port);
	pmbench_sample_metric_set(s, "port_open_after_stop_count", open_after);
	if (s->ok && open_after) {
		pmbench_buf_addf(&why,
				 "port %u still accepted connections "
				 "after the dev server was stopped",
				 d->port);
		pmbench_task_fail(s, why.ptr, NULL);
	}
	if (s->ok && left) {
		pmbench_buf_reset(&why);
		pmbench_buf_addf(&why,
				 "%zu process(es) still running after "
				 "the dev server was stopped",
				 left);
		pmbench_task_fail(s, why.ptr, NULL);
	}
	pmbench_buf_release(&why);
	if (pmbench_ctx_cancelled(d->j->ps->ctx)) {
		/* Stopped in flight: interrupted, whatever it measured. */
		if (!s->interrupted)
			pmbench_sample_stopped(s, d->j->ps->ctx);
		return PMBENCH_EINTERRUPTED;
	}
	return 0;
}

void pmbench_dev_init(struct pmbench_dev_run *d,
		      const struct pmbench_task_job *j,
		      struct pmbench_sample *s)
{
	memset(d, 0, sizeof(*d));
	d->j = j;
	d->s = s;
	d->c = (struct pmbench_child)PMBENCH_CHILD_INIT;
	pmbench_buf_init(&d->url);
	pmbench_dev_config(&d->cfg, j);
	d->w.pattern = d->cfg.ready;
	if (d->w.pattern &&
	    !regcomp(&d->w.re, d->w.pattern, REG_EXTENDED | REG_NOSUB))
		d->w.has_re = 1;
	s->exit_code = -1;
	s->started = unix_now();
}

void pmbench_dev_release(struct pmbench_dev_run *d)
{
	pmbench_ready_poll_free(d->poll);
	d->poll = NULL;
	pmbench_child_release(&d->c);
	if (d->w.has_re)
		regfree(&d->w.re);
	d->w.has_re = 0;
	pmbench_buf_release(&d->url);
}

int pmbench_task_dev_run(const struct pmbench_task_job *j,
			 struct pmbench_sample *s,
			 struct pmbench_strvec *argv_out)
{
	struct pmbench_dev_run d;
	uint64_t timeout_ns = pmbench_dev_ready_timeout(j);
	int ret = 0, waited;

	pmbench_dev_init(&d, j, s);
	if (pmbench_dev_start(&d, argv_out) < 0)
		goto done;
	waited = pmbench_dev_wait_ready(&d, timeout_ns);
	if (waited == 0) {
		pmbench_dev_record_ready(&d, timeout_ns);
		if (d.ready && j->opts->knobs.probe_requests)
			dev_probe(&d);
	}
	ret = pmbench_dev_stop_and_check(&d);
	if (waited == PMBENCH_EINTERRUPTED)
		ret = waited;
done:
	pmbench_dev_release(&d);
	return ret;
}
