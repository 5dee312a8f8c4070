/*
 * The dev task against the fake dev server (tests/fakes/fakeserver.c),
 * started by the fake PMs' `run` from the project's dev script: each
 * misbehaviour gives the right times or the right failure, and after
 * every case no process is left and the port is closed. Only orderings
 * and ratios of times are asserted, never absolute values.
 */
#include "pmbench/common.h"

#include <signal.h>
#include <stdlib.h>

#include "check.h"
#include "fields.h"
#include "harness.h"
#include "pmbench/probe.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"

/*
 * A project whose dev script runs the fake server with `server_args`, a
 * manifest for it (ready pattern, path), then `pmbench bench --task dev`
 * for npm and bun. The result goes into `r`.
 */
static int dev_bench(struct pmbench_result *r, struct h_run *run,
		     const char *server_args, const char *path,
		     const char *timeout, const char *probe)
{
	const char *server = getenv("PMBENCH_FAKESERVER");
	struct pmbench_buf pkg = PMBENCH_BUF_INIT, man = PMBENCH_BUF_INIT;
	char proj[4200], mpath[4200], out[4200];

	if (!server)
		pmbench_die("PMBENCH_FAKESERVER is not set (use ctest)");
	pmbench_buf_addf(&pkg,
			 "{ \"name\": \"devproj\", \"version\": \"1.0.0\", "
			 "\"private\": true, \"scripts\": { \"dev\": \"%s "
			 "%s\" } }\n",
			 server, server_args);
	h_write("devproj/package.json", pkg.ptr);
	snprintf(proj, sizeof(proj), "%s", check_path("devproj"));
	pmbench_buf_addf(&man,
			 "{ \"name\": \"devproj\", \"repo\": \"%s\", \"dev\": "
			 "{ \"script\": \"dev\", \"args\": \"--port {port}\", "
			 "\"ready\": \"fake server ready\", \"path\": \"%s\" "
			 "} }\n",
			 proj, path);
	snprintf(mpath, sizeof(mpath), "%s", h_write("devproj.json", man.ptr));
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	{
		const char *args[] = { "bench",
				       "--pm",
				       "npm,bun",
				       "--task",
				       "dev",
				       "--runs",
				       "1",
				       "--warmup",
				       "0",
				       "--timeout",
				       timeout,
				       "--out",
				       out,
				       probe ? "--probe" : mpath,
				       probe ? probe : NULL,
				       probe ? mpath : NULL,
				       NULL };

		h_pmbench(run, args, NULL);
	}
	pmbench_buf_release(&pkg);
	pmbench_buf_release(&man);
	return pmbench_result_read(r, out);
}

static const struct pmbench_sample *dev_sample(const struct pmbench_result *r,
					       const char *pm)
{
	const struct pmbench_cell *c = pmbench_result_find_cell(
		r, "devproj", "dev", "cache+lockfile+node_modules", pm);

	return c && c->samples_nr == 1 ? &c->samples[0] : NULL;
}

/* The port a cell's server got, from its recorded command. */
static unsigned port_of(const struct pmbench_result *r, const char *pm)
{
	const struct pmbench_cell *c = pmbench_result_find_cell(
		r, "devproj", "dev", "cache+lockfile+node_modules", pm);

	for (size_t i = 0; c && i + 1 < c->command.nr; i++)
		if (!strcmp(c->command.v[i], "--port"))
			return (unsigned)strtoul(c->command.v[i + 1], NULL, 10);
	return 0;
}

/* Nothing left running and every server's port closed. */
static int all_gone(const struct pmbench_result *r, struct pmbench_buf *why)
{
	static const char *const pms[] = { "npm", "bun" };
	pid_t *pids;
	size_t left = pmbench_proc_descendants(&pids);

	free(pids);
	if (left) {
		pmbench_buf_addf(why, "%zu process(es) left", left);
		return 0;
	}
	for (size_t i = 0; i < 2; i++) {
		unsigned port = port_of(r, pms[i]);
		const struct pmbench_sample *s = dev_sample(r, pms[i]);

		if (!port) {
			pmbench_buf_addf(why, "no port recorded for %s",
					 pms[i]);
			return 0;
		}
		if (pmbench_probe_port_open(port)) {
			pmbench_buf_addf(why, "port %u of %s still open", port,
					 pms[i]);
			return 0;
		}
		if (!s || s->leftover ||
		    h_metric(s, "port_open_after_stop_count")) {
			pmbench_buf_addf(why, "%s's sample reports leftovers",
					 pms[i]);
			return 0;
		}
	}
	return 1;
}

/*
 * Checks of one PM's sample in a dev case: each is a void function that
 * uses CHECK and sets *out to 1 as its last statement (see harness.h).
 * `before` is the same PM's sample of an earlier run, or NULL.
 */
typedef void (*dev_sample_cb)(int *out, const struct pmbench_sample *s,
			      const struct pmbench_sample *before);

/*
 * A fresh sandbox and dev_bench() with the arguments given: pmbench must
 * exit with `exit_code`, each PM's sample pass `check`, the output say
 * `says` (unless NULL), and nothing be left running afterwards. `before`
 * (may be NULL) is an earlier result whose samples `check` gets too.
 */
static void dev_case(const char *server_args, const char *path,
		     const char *timeout, const char *probe, int exit_code,
		     const char *says, dev_sample_cb check,
		     const struct pmbench_result *before)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	struct h_run run;

	h_setup();
	CHECK_INT(dev_bench(&r, &run, server_args, path, timeout, probe), 0);
	CHECK_INT(run.exit_code, exit_code);
	for (int i = 0; i < 2; i++) {
		const char *pm = i ? "bun" : "npm";
		int ok = 0;

		check(&ok, dev_sample(&r, pm),
		      before ? dev_sample(before, pm) : NULL);
		if (!ok) {
			check_fail(__FILE__, __LINE__, "%s's sample", pm);
			return;
		}
	}
	if (says)
		CHECK_CONTAINS(run.out.ptr, says);
	CHECK(all_gone(&r, &why));
	pmbench_result_release(&r);
	h_run_release(&run);
	pmbench_buf_release(&why);
}

static void print_then_listen_sample(int *out, const struct pmbench_sample *s,
				     const struct pmbench_sample *before)
{
	double line = h_metric(s, "ready_line_s");
	double http = h_metric(s, "http_s"), body = h_metric(s, "body_s");

	(void)before;
	*out = 0;
	fprintf(stderr, "line %.3f s, http %.3f s: line/http %.3f (< 0.5)\n",
		line, http, http > 0 ? line / http : -1);
	CHECK(s && s->ok);
	CHECK(line > 0 && http > 0 && body > 0);
	/* The line comes well before the port answers. */
	CHECK(line < 0.5 * http);
	CHECK(http <= body);
	/* wall_s is the first HTTP response. */
	CHECK(fabs((double)s->wall_ns / 1e9 - http) < 1e-6);
	/* Connections were refused until it listened. */
	CHECK(h_metric(s, "http_refused_count") >= 1);
	*out = 1;
}

TEST(print_then_listen)
{
	dev_case("--mode print-then-listen --ready-delay-ms 50 "
		 "--listen-delay-ms 1500",
		 "/", "60s", NULL, 0, "first HTTP < 500",
		 print_then_listen_sample, NULL);
}

static void listen_then_print_sample(int *out, const struct pmbench_sample *s,
				     const struct pmbench_sample *before)
{
	double line = h_metric(s, "ready_line_s");
	double http = h_metric(s, "http_s"), body = h_metric(s, "body_s");

	(void)before;
	*out = 0;
	CHECK(s && s->ok);
	fprintf(stderr, "body %.3f s, line %.3f s: body/line %.3f (< 0.5)\n",
		body, line, line > 0 ? body / line : -1);
	CHECK(http > 0 && body >= http);
	/* Served long before it said so. */
	CHECK(body < 0.5 * line);
	CHECK(h_metric(s, "body_bytes") == 512);
	*out = 1;
}

TEST(listen_then_print)
{
	dev_case("--mode listen-then-print --listen-delay-ms 50 "
		 "--ready-delay-ms 1500",
		 "/", "60s", NULL, 0, NULL, listen_then_print_sample, NULL);
}

static void never_listen_sample(int *out, const struct pmbench_sample *s,
				const struct pmbench_sample *before)
{
	(void)before;
	*out = 0;
	CHECK(s && !s->ok);
	CHECK_CONTAINS(s->failure, "not ready after 3 s");
	CHECK_CONTAINS(s->failure, "refused");
	/* The ready line did come, and is among the last lines. */
	CHECK(h_metric(s, "ready_line_s") > 0);
	CHECK(h_metric(s, "http_s") < 0);
	CHECK_CONTAINS(s->tail, "fake server ready");
	CHECK(h_metric(s, "http_refused_count") >= 10);
	*out = 1;
}

TEST(never_listen_fails_after_the_timeout)
{
	dev_case("--mode never-listen --ready-delay-ms 10", "/", "3s", NULL, 2,
		 "not ready after 3 s", never_listen_sample, NULL);
}

static void exit_now_sample(int *out, const struct pmbench_sample *s,
			    const struct pmbench_sample *before)
{
	(void)before;
	*out = 0;
	CHECK(s && !s->ok);
	CHECK_CONTAINS(s->failure, "exited before it was ready");
	CHECK_CONTAINS(s->failure, "exit 3");
	CHECK_CONTAINS(s->failure, "fatal error: boom");
	CHECK_CONTAINS(s->tail, "boom");
	CHECK(h_metric(s, "ready_line_s") < 0);
	*out = 1;
}

TEST(exit_now_is_a_failure_with_the_reason)
{
	dev_case("--mode exit-now", "/", "60s", NULL, 2, NULL, exit_now_sample,
		 NULL);
}

static void ignore_term_sample(int *out, const struct pmbench_sample *s,
			       const struct pmbench_sample *before)
{
	double slow = h_metric(s, "stop_s");
	double quick = h_metric(before, "stop_s");

	*out = 0;
	fprintf(stderr, "stop %.3f s against %.3f s: %.1fx (> 10)\n", slow,
		quick, quick > 0 ? slow / quick : -1);
	CHECK(s && s->ok);
	CHECK(slow > 0 && quick > 0);
	/* It waited out the grace period, then killed it. */
	CHECK(slow > 10 * quick);
	*out = 1;
}

TEST(ignore_term_is_killed_after_the_grace_period)
{
	struct pmbench_result fast = PMBENCH_RESULT_INIT;
	struct h_run run;

	h_setup();
	CHECK_INT(dev_bench(&fast, &run, "--mode print-then-listen", "/", "60s",
			    NULL),
		  0);
	h_run_release(&run);
	dev_case("--mode ignore-term", "/", "60s", NULL, 0, NULL,
		 ignore_term_sample, &fast);
	pmbench_result_release(&fast);
}

static void grandchild_sample(int *out, const struct pmbench_sample *s,
			      const struct pmbench_sample *before)
{
	(void)before;
	*out = 0;
	CHECK(s && s->ok);
	/* The server's process and the grandchild at least. */
	CHECK(h_metric(s, "stopped_processes_count") >= 2);
	CHECK(h_metric(s, "port_open_after_stop_count") == 0);
	*out = 1;
}

TEST(escaped_grandchild_keeping_the_port_is_killed)
{
	dev_case("--mode grandchild --listen-delay-ms 10 --ready-delay-ms 100",
		 "/", "60s", NULL, 0, NULL, grandchild_sample, NULL);
}

static void error500_sample(int *out, const struct pmbench_sample *s,
			    const struct pmbench_sample *before)
{
	(void)before;
	*out = 0;
	CHECK(s && !s->ok);
	CHECK_CONTAINS(s->failure, "no HTTP answer below 500");
	CHECK(h_metric(s, "http_5xx_count") >= 10);
	CHECK(h_metric(s, "ready_line_s") > 0);
	CHECK(h_metric(s, "http_s") < 0);
	*out = 1;
}

TEST(error500_is_never_ready)
{
	dev_case("--mode error500 --ready-delay-ms 10", "/", "3s", NULL, 2,
		 NULL, error500_sample, NULL);
}

/* Body bytes of /count answers numbered from..to ("1", "2", ... "37"). */
static double count_bytes(unsigned from, unsigned to)
{
	double n = 0;

	for (unsigned i = from; i <= to; i++)
		n += i < 10 ? 1 : i < 100 ? 2 : i < 1000 ? 3 : 4;
	return n;
}

static void probe_count_sample(int *out, const struct pmbench_sample *s,
			       const struct pmbench_sample *before)
{
	(void)before;
	*out = 0;
	CHECK(s && s->ok);
	CHECK(h_metric(s, "body_bytes") == 1);
	CHECK(h_metric(s, "probe_requests_count") == 137);
	CHECK(h_metric(s, "probe_status_200_count") == 137);
	CHECK(h_metric(s, "probe_ok_ratio") == 1);
	CHECK(h_metric(s, "probe_errors_count") == 0);
	CHECK(h_metric(s, "probe_bytes") == count_bytes(1, 137));
	CHECK(h_metric(s, "probe_latency_min_s") > 0);
	CHECK(h_metric(s, "probe_latency_min_s") <=
	      h_metric(s, "probe_latency_p50_s"));
	CHECK(h_metric(s, "probe_latency_p50_s") <=
	      h_metric(s, "probe_latency_p90_s"));
	CHECK(h_metric(s, "probe_latency_p99_s") <=
	      h_metric(s, "probe_latency_max_s"));
	*out = 1;
}

TEST(probe_counts_are_exact)
{
	/*
	 * The poller and the probe ask /count, which answers how many
	 * requests the server answered before: the readiness request gets
	 * "0", the probe's 137 get "1" to "137" if, and only if, the server
	 * saw exactly the requests the probe counted.
	 */
	dev_case("--mode print-then-listen --listen-delay-ms 200", "/count",
		 "60s", "137,7", 0, "200: 137", probe_count_sample, NULL);
}

static void probe_404_sample(int *out, const struct pmbench_sample *s,
			     const struct pmbench_sample *before)
{
	(void)before;
	*out = 0;
	CHECK(s && s->ok);
	CHECK(h_metric(s, "probe_requests_count") == 50);
	CHECK(h_metric(s, "probe_status_404_count") == 50);
	CHECK(h_metric(s, "probe_status_200_count") < 0);
	/* vegeta's success: status 200 to 399 only. */
	CHECK(h_metric(s, "probe_ok_ratio") == 0);
	CHECK(h_metric(s, "probe_bytes") == 50 * 100);
	*out = 1;
}

TEST(probe_counts_other_status_codes)
{
	dev_case("--mode listen-then-print --status 404 --body-bytes 100", "/",
		 "60s", "50,4", 0, NULL, probe_404_sample, NULL);
}

TEST(probe_needs_dev_and_sane_numbers)
{
	const char *proj;

	h_setup();
	proj = h_project("proj");
	H_CHECK_CALL(h_expect,
		     (const char *const[]){ "bench", "--probe", "10", proj,
					    NULL },
		     NULL, 129, "'--probe' needs the dev task");
	H_CHECK_CALL(h_expect,
		     (const char *const[]){ "bench", "--task", "dev", "--probe",
					    "10,0", proj, NULL },
		     NULL, 129,
		     "'--probe' takes N[,C] (N: 1 to 1000000; C: 1 to 256");
	H_CHECK_CALL(h_expect,
		     (const char *const[]){ "bench", "--task", "deploy", proj,
					    NULL },
		     NULL, 129, "unknown task 'deploy'");
}

TEST(ctrl_c_during_dev_stops_the_server)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf pkg = PMBENCH_BUF_INIT, man = PMBENCH_BUF_INIT;
	char proj[4200], mpath[4200], out[4200], pidfile[4200];
	const struct pmbench_cell *cell;

	h_setup();
	snprintf(pidfile, sizeof(pidfile), "%s", h_write("server.pid", ""));
	pmbench_buf_addf(&pkg,
			 "{ \"name\": \"devproj\", \"version\": \"1.0.0\", "
			 "\"private\": true, \"scripts\": { \"dev\": \"echo "
			 "$$ > %s && exec %s --mode never-listen\" } }\n",
			 pidfile, getenv("PMBENCH_FAKESERVER"));
	h_write("devproj/package.json", pkg.ptr);
	snprintf(proj, sizeof(proj), "%s", check_path("devproj"));
	pmbench_buf_addf(&man,
			 "{ \"name\": \"devproj\", \"repo\": \"%s\", \"dev\": "
			 "{ \"args\": \"--port {port}\" } }\n",
			 proj);
	snprintf(mpath, sizeof(mpath), "%s", h_write("devproj.json", man.ptr));
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	pmbench_strvec_push(&c.args, getenv("PMBENCH_BIN"));
	pmbench_strvec_pushv(&c.args, (const char *const[]){
					      "bench", "--pm", "npm", "--task",
					      "dev", "--runs", "1", "--warmup",
					      "0", "--timeout", "120s", "--out",
					      out, mpath, NULL });
	/* Ctrl-C once the server runs; the server is gone afterwards. */
	H_CHECK_CALL(h_interrupt, &c, pidfile);
	/* The interrupted run's cell is in the result, with its port. */
	CHECK_INT(pmbench_result_read(&r, out), 0);
	cell = pmbench_result_find_cell(&r, "devproj", "dev",
					"cache+lockfile+node_modules", "npm");
	CHECK(cell && cell->samples_nr == 1 && !cell->samples[0].ok);
	CHECK_CONTAINS(cell->samples[0].failure, "interrupted");
	/* Interrupted, which is not the server's failure. */
	CHECK_INT(pmbench_cell_failures(cell), 0);
	{
		cJSON *json = h_read_json(out);
		const cJSON *s = h_json_sample(
			json, "dev", "cache+lockfile+node_modules", "npm", 0);
		int flagged = cJSON_IsTrue(
			cJSON_GetObjectItemCaseSensitive(s, "interrupted"));

		cJSON_Delete(json);
		CHECK(flagged);
	}
	CHECK(!strstr(c.tail.ptr, "failed"));
	CHECK(port_of(&r, "npm") > 0);
	CHECK(!pmbench_probe_port_open(port_of(&r, "npm")));
	pmbench_child_kill_tree(&c);
	pmbench_child_release(&c);
	{
		pid_t *pids;
		size_t left = pmbench_proc_descendants(&pids);

		free(pids);
		CHECK_INT(left, 0);
	}
	pmbench_result_release(&r);
	pmbench_buf_release(&pkg);
	pmbench_buf_release(&man);
}

/*
 * Stop pmbench (`c`) with `sig` while its dev server is listening: the
 * server's grandchild has left the session and holds the port, and the
 * ready line is a minute away. Afterwards nothing may run, the port must
 * be closed and the result written with the run interrupted.
 */
static void check_dev_stopped(int *ok, struct pmbench_child *c, int sig,
			      const char *out, const char *pidfile,
			      const char *portfile)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *cell;
	long pid, port = -1;
	int open = 0, flagged;
	size_t left;
	pid_t *pids;
	cJSON *json;

	*ok = 0;
	H_CHECK_CALL(h_start_until, c, pidfile, &pid);
	for (int i = 0; i < 400 && !open; i++) {
		pmbench_child_pump(c, 25 * 1000000ull);
		port = h_read_pid(portfile);
		open = port > 0 && pmbench_probe_port_open((unsigned)port);
	}
	CHECK(open);
	kill(c->pid, sig);
	for (int i = 0; i < 600 && !c->result.exited; i++)
		pmbench_child_pump(c, 50 * 1000000ull);
	CHECK(c->result.exited);
	/* Nothing left (it would be ours: a subreaper), the port closed. */
	left = pmbench_proc_descendants(&pids);
	free(pids);
	CHECK_INT(left, 0);
	CHECK(!h_alive(pid));
	CHECK(!pmbench_probe_port_open((unsigned)port));
	/* 130, not death by the signal. */
	CHECK_INT(c->result.signal, 0);
	CHECK_INT(c->result.exit_code, 130);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	cell = pmbench_result_find_cell(&r, "devproj", "dev",
					"cache+lockfile+node_modules", "npm");
	CHECK(cell && cell->samples_nr == 1);
	CHECK_INT(pmbench_cell_failures(cell), 0);
	CHECK_INT(port_of(&r, "npm"), port);
	pmbench_result_release(&r);
	json = h_read_json(out);
	flagged = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
		h_json_sample(json, "dev", "cache+lockfile+node_modules", "npm",
			      0),
		"interrupted"));
	cJSON_Delete(json);
	CHECK(flagged);
	*ok = 1;
}

static void dev_stopped_by(int *ok, int sig)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf pkg = PMBENCH_BUF_INIT, man = PMBENCH_BUF_INIT;
	char proj[4200], mpath[4200], out[4200], pidfile[4200];
	char portfile[4200];

	*ok = 0;
	h_setup();
	snprintf(pidfile, sizeof(pidfile), "%s", h_write("server.pid", ""));
	snprintf(portfile, sizeof(portfile), "%s", h_write("server.port", ""));
	pmbench_buf_addf(&pkg,
			 "{ \"name\": \"devproj\", \"version\": \"1.0.0\", "
			 "\"private\": true, \"scripts\": { \"dev\": \"echo "
			 "$PORT > %s && echo $$ > %s && exec %s --mode "
			 "grandchild --ready-delay-ms 60000\" } }\n",
			 portfile, pidfile, getenv("PMBENCH_FAKESERVER"));
	h_write("devproj/package.json", pkg.ptr);
	snprintf(proj, sizeof(proj), "%s", check_path("devproj"));
	pmbench_buf_addf(&man,
			 "{ \"name\": \"devproj\", \"repo\": \"%s\", \"dev\": "
			 "{ \"args\": \"--port {port}\", \"ready\": \"fake "
			 "server ready\" } }\n",
			 proj);
	snprintf(mpath, sizeof(mpath), "%s", h_write("devproj.json", man.ptr));
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	pmbench_strvec_push(&c.args, getenv("PMBENCH_BIN"));
	pmbench_strvec_pushv(&c.args, (const char *const[]){
					      "bench", "--pm", "npm", "--task",
					      "dev", "--runs", "1", "--warmup",
					      "0", "--timeout", "120s", "--out",
					      out, mpath, NULL });
	check_dev_stopped(ok, &c, sig, out, pidfile, portfile);
	/* Whatever pmbench left is ours now (a subreaper): stop it. */
	pmbench_child_kill_tree(&c);
	pmbench_child_release(&c);
	pmbench_buf_release(&pkg);
	pmbench_buf_release(&man);
}

/* The terminal closed during a dev run. */
TEST(sighup_during_dev_stops_the_server)
{
	H_CHECK_CALL(dev_stopped_by, SIGHUP);
}

TEST(sigquit_during_dev_stops_the_server)
{
	H_CHECK_CALL(dev_stopped_by, SIGQUIT);
}

CHECK_MAIN(CASE(print_then_listen), CASE(listen_then_print),
	   CASE(never_listen_fails_after_the_timeout),
	   CASE(exit_now_is_a_failure_with_the_reason),
	   CASE(ignore_term_is_killed_after_the_grace_period),
	   CASE(escaped_grandchild_keeping_the_port_is_killed),
	   CASE(error500_is_never_ready), CASE(probe_counts_are_exact),
	   CASE(probe_counts_other_status_codes),
	   CASE(probe_needs_dev_and_sane_numbers),
	   CASE(ctrl_c_during_dev_stops_the_server),
	   CASE(sighup_during_dev_stops_the_server),
	   CASE(sigquit_during_dev_stops_the_server))
