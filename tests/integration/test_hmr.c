/*
 * The hmr task against the fake dev server serving a file's current
 * text (tests/fakes/fakeserver.c --serve-file): edit-to-update times
 * track the server's configured update delay (ratios only), the run
 * copy's file gets its text back, a server that never updates fails
 * naming the edit and what it served, a server that says it serves
 * another port fails within seconds naming both URLs, and nothing is
 * left running, listening or edited after a run, a failure or Ctrl-C.
 */
#include "pmbench/common.h"

#include <signal.h>
#include <stdlib.h>

#include "check.h"
#include "fields.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/probe.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"

#define APP_TEXT "export const answer = 42;\n"

/* Where the fake servers log the texts of App.tsx they saw. */
static const char *texts_log(void)
{
	return check_path("texts.log");
}

/*
 * Every server started saw the original text, then each edit followed
 * by the original text again: `edits` edits per server, `servers`
 * servers, one after the other.
 */
static void texts_alternate(int *out, unsigned servers, unsigned edits)
{
	struct pmbench_buf log = PMBENCH_BUF_INIT;
	unsigned orig = 0, edited = 0;
	int last_edited = 1;
	const char *p;

	*out = 0;
	CHECK_INT(pmbench_fs_read_text(&log, texts_log(), 1 << 24), 0);
	p = log.ptr;
	while (*p) {
		const char *end = strstr(p, "----\n");
		size_t n;

		CHECK(end != NULL);
		n = (size_t)(end - p);
		if (n == strlen(APP_TEXT) && !strncmp(p, APP_TEXT, n)) {
			orig++;
			last_edited = 0;
		} else {
			/* An edit follows an original text, never an edit. */
			CHECK(!last_edited);
			CHECK(!strncmp(p, APP_TEXT, strlen(APP_TEXT)));
			CHECK(strstr(p, "pmbench-hmr-") < end);
			edited++;
			last_edited = 1;
		}
		p = end + 5;
	}
	CHECK_INT(edited, servers * edits);
	CHECK_INT(orig, servers * (edits + 1));
	pmbench_buf_release(&log);
	*out = 1;
}

/*
 * A project whose dev script runs the fake server with `server_args`
 * serving src/App.tsx; with `manifest`, a manifest naming the ready line
 * and the hmr file (else the folder itself is benchmarked). Returns the
 * argument to give pmbench.
 */
static const char *hmr_project(const char *server_args, int manifest,
			       const char *pidfile)
{
	static char arg[4200];
	struct pmbench_buf pkg = PMBENCH_BUF_INIT, man = PMBENCH_BUF_INIT;
	const char *server = getenv("PMBENCH_FAKESERVER");

	if (!server)
		pmbench_die("PMBENCH_FAKESERVER is not set (use ctest)");
	pmbench_buf_addf(&pkg,
			 "{ \"name\": \"hmrproj\", \"version\": \"1.0.0\", "
			 "\"private\": true, \"scripts\": { \"dev\": \"%s%s%s"
			 "exec %s --serve-file src/App.tsx --texts-log %s %s\" "
			 "} }\n",
			 pidfile ? "echo $$ > " : "", pidfile ? pidfile : "",
			 pidfile ? " && " : "", server, texts_log(),
			 server_args);
	h_write("hmrproj/package.json", pkg.ptr);
	h_write("hmrproj/src/App.tsx", APP_TEXT);
	h_write("texts.log", "");
	snprintf(arg, sizeof(arg), "%s", check_path("hmrproj"));
	if (manifest) {
		pmbench_buf_addf(&man,
				 "{ \"name\": \"hmrproj\", \"repo\": \"%s\", "
				 "\"dev\": { \"args\": \"--port {port}\", "
				 "\"ready\": \"fake server ready\" }, \"hmr\": "
				 "{ \"file\": \"src/App.tsx\", \"path\": "
				 "\"/src/App.tsx\" } }\n",
				 arg);
		snprintf(arg, sizeof(arg), "%s",
			 h_write("hmrproj.json", man.ptr));
	}
	pmbench_buf_release(&pkg);
	pmbench_buf_release(&man);
	return arg;
}

/* `bench --task TASKS --pm npm,bun` with one run of `edits` edits. */
static int hmr_bench(struct pmbench_result *r, struct h_run *run,
		     const char *fixture, const char *tasks, const char *edits,
		     const char *timeout)
{
	char out[4200];

	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	h_pmbench(run,
		  (const char *const[]){ "bench", "--pm", "npm,bun", "--task",
					 tasks, "--runs", "1", "--warmup", "0",
					 "--edits", edits, "--timeout", timeout,
					 "--out", out, fixture, NULL },
		  NULL);
	return pmbench_result_read(r, out);
}

static const struct pmbench_sample *sample_of(const struct pmbench_result *r,
					      const char *task, const char *pm)
{
	const struct pmbench_cell *c = pmbench_result_find_cell(
		r, "hmrproj", task, "cache+lockfile+node_modules", pm);

	return c && c->samples_nr == 1 ? &c->samples[0] : NULL;
}

/* No process left, no port open, every run copy's App.tsx as it was. */
static void nothing_left(int *out, const struct pmbench_result *r,
			 const char *task)
{
	static const char *const pms[] = { "npm", "bun" };
	struct pmbench_buf p = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	pid_t *pids;
	size_t left = pmbench_proc_descendants(&pids);

	*out = 0;
	free(pids);
	CHECK_INT(left, 0);
	for (size_t i = 0; i < 2; i++) {
		const struct pmbench_sample *s = sample_of(r, task, pms[i]);

		CHECK(s != NULL);
		CHECK(!s->leftover);
		CHECK(h_metric(s, "port_open_after_stop_count") <= 0);
		/* The run copy is gone after a run, or as it was. */
		pmbench_buf_reset(&p);
		pmbench_buf_addf(&p, "%s/work/hmrproj/%s/run/src/App.tsx",
				 h_cache(), pms[i]);
		pmbench_buf_reset(&text);
		if (!pmbench_fs_read_text(&text, p.ptr, 1 << 20))
			CHECK_STR(text.ptr, APP_TEXT);
		pmbench_error_clear();
	}
	/* The project itself is never edited. */
	pmbench_buf_reset(&text);
	CHECK_INT(pmbench_fs_read_text(&text, check_path("hmrproj/src/App.tsx"),
				       1 << 20),
		  0);
	CHECK_STR(text.ptr, APP_TEXT);
	pmbench_buf_release(&p);
	pmbench_buf_release(&text);
	*out = 1;
}

/* The median edit of each PM's one run, with `delay_ms` of rebuild. */
static void medians(int *out, double med[2], const char *delay_ms)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf args = PMBENCH_BUF_INIT;
	struct h_run run;

	*out = 0;
	h_setup();
	pmbench_buf_addf(&args, "--update-delay-ms %s", delay_ms);
	CHECK_INT(hmr_bench(&r, &run, hmr_project(args.ptr, 1, NULL), "hmr",
			    "5", "60s"),
		  0);
	CHECK_INT(run.exit_code, 0);
	for (int i = 0; i < 2; i++) {
		const struct pmbench_sample *s =
			sample_of(&r, "hmr", i ? "bun" : "npm");

		CHECK(s && s->ok);
		CHECK_INT((int)h_metric(s, "hmr_edits_count"), 5);
		/* Every edit is recorded; the wall time is their median. */
		for (int k = 1; k <= 5; k++) {
			char name[32];

			snprintf(name, sizeof(name), "hmr_edit_%d_s", k);
			CHECK(h_metric(s, name) > 0);
		}
		CHECK(h_metric(s, "hmr_min_s") <= (double)s->wall_ns / 1e9);
		CHECK(h_metric(s, "hmr_max_s") >= (double)s->wall_ns / 1e9);
		med[i] = (double)s->wall_ns / 1e9;
	}
	H_CHECK_CALL(nothing_left, &r, "hmr");
	/* Two servers (npm's, bun's), each edit restored before the next. */
	H_CHECK_CALL(texts_alternate, 2, 5);
	pmbench_result_release(&r);
	pmbench_buf_release(&args);
	h_run_release(&run);
	*out = 1;
}

TEST(edit_times_track_the_update_delay)
{
	double fast[2], slow[2];

	H_CHECK_CALL(medians, fast, "40");
	H_CHECK_CALL(medians, slow, "400");
	/* 400 ms of rebuild against 40: the ratio shows, for both PMs. */
	for (int i = 0; i < 2; i++) {
		fprintf(stderr, "edit %.3f s against %.3f s: %.2fx (3-15)\n",
			slow[i], fast[i], slow[i] / fast[i]);
		CHECK(slow[i] > 3 * fast[i]);
		CHECK(slow[i] < 15 * fast[i]);
	}
}

TEST(never_updating_server_fails_naming_the_edit)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;

	h_setup();
	CHECK_INT(hmr_bench(&r, &run,
			    hmr_project("--mode never-update", 1, NULL), "hmr",
			    "3", "3s"),
		  0);
	CHECK_INT(run.exit_code, 2);
	for (int i = 0; i < 2; i++) {
		const struct pmbench_sample *s =
			sample_of(&r, "hmr", i ? "bun" : "npm");

		CHECK(s && !s->ok && !s->interrupted);
		CHECK_CONTAINS(s->failure, "hmr edit 1 of 3 (src/App.tsx) "
					   "did not show");
		CHECK_CONTAINS(s->failure, "/src/App.tsx within 3.0 s");
		/* What it served instead: the original text. */
		CHECK_CONTAINS(s->failure, "without the marker");
		CHECK_CONTAINS(s->failure, "export const answer = 42;");
	}
	H_CHECK_CALL(nothing_left, &r, "hmr");
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(other_port_fails_at_once_with_both_urls)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;

	h_setup();
	/* A plain folder: no manifest, the ready line says the URL. */
	CHECK_INT(hmr_bench(&r, &run, hmr_project("--mode other-port", 0, NULL),
			    "dev,hmr", "2", "120s"),
		  0);
	CHECK_INT(run.exit_code, 2);
	for (int i = 0; i < 4; i++) {
		const struct pmbench_sample *s = sample_of(
			&r, i < 2 ? "dev" : "hmr", i % 2 ? "bun" : "npm");

		CHECK(s && !s->ok);
		CHECK_CONTAINS(s->failure, "says it serves http://localhost:");
		CHECK_CONTAINS(s->failure, "pmbench polls http://127.0.0.1:");
		CHECK_CONTAINS(s->failure, "\"dev.args\"");
		/* At once: for what it said, not by the 120 s timeout. */
		CHECK(!strstr(s->failure, "timed out"));
	}
	CHECK(!strstr(run.out.ptr, "timed out"));
	H_CHECK_CALL(nothing_left, &r, "hmr");
	pmbench_result_release(&r);
	h_run_release(&run);
}

TEST(bad_hmr_fields_are_one_line_errors)
{
	static const char *const bad[][2] = {
		{ "{ \"file\": \"../x.js\" }", "hmr.file" },
		{ "{ \"file\": \"\" }", "hmr.file" },
		{ "{ \"path\": \"src/App.tsx\" }",
		  "field 'hmr.path' must start with '/'" },
		{ "{ \"files\": \"a\" }", "files" },
		{ "[]", "hmr" },
	};

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(bad); i++) {
		struct pmbench_buf man = PMBENCH_BUF_INIT;
		const char *m;

		h_setup();
		h_project("p");
		pmbench_buf_addf(&man,
				 "{ \"name\": \"p\", \"repo\": \"%s\", "
				 "\"hmr\": %s }\n",
				 check_path("p"), bad[i][0]);
		m = h_write("p.json", man.ptr);
		H_CHECK_CALL(h_expect,
			     (const char *const[]){ "bench", "--task", "hmr", m,
						    NULL },
			     NULL, 1, bad[i][1]);
		pmbench_buf_release(&man);
	}
	H_CHECK_CALL(h_expect,
		     (const char *const[]){ "bench", "--task", "hmr", "--edits",
					    "0", NULL },
		     NULL, 129, "'--edits' takes N (1 to 100, default 5)");
	H_CHECK_CALL(h_expect,
		     (const char *const[]){ "bench", "--task", "dev", "--edits",
					    "3", NULL },
		     NULL, 129, "'--edits' needs the hmr task");
}

TEST(ctrl_c_during_hmr_restores_the_file)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	char pidfile[4200], out[4200];
	const char *fixture;
	const struct pmbench_sample *s;

	h_setup();
	snprintf(pidfile, sizeof(pidfile), "%s", h_write("server.pid", ""));
	/* Each edit takes 2 s to show: Ctrl-C lands during one. */
	fixture = hmr_project("--update-delay-ms 2000", 1, pidfile);
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	pmbench_strvec_push(&c.args, getenv("PMBENCH_BIN"));
	pmbench_strvec_pushv(&c.args,
			     (const char *const[]){
				     "bench", "--pm", "npm", "--task", "hmr",
				     "--runs", "1", "--warmup", "0", "--edits",
				     "50", "--out", out, fixture, NULL });
	{
		long pid;

		H_CHECK_CALL(h_start_until, &c, pidfile, &pid);
		/* Ready within milliseconds, settled, then in edit 1. */
		pmbench_sleep_ns(1500000000ull);
		H_CHECK_CALL(h_stop_with, &c, SIGINT, pid);
	}
	pmbench_child_kill_tree(&c);
	pmbench_child_release(&c);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	s = sample_of(&r, "hmr", "npm");
	CHECK(s && s->interrupted);
	CHECK_CONTAINS(s->failure, "during hmr edit 1 of 50");
	{
		struct pmbench_buf p = PMBENCH_BUF_INIT, t = PMBENCH_BUF_INIT;
		pid_t *pids;
		size_t left = pmbench_proc_descendants(&pids);

		free(pids);
		CHECK_INT(left, 0);
		pmbench_buf_addf(&p, "%s/work/hmrproj/npm/run/src/App.tsx",
				 h_cache());
		CHECK_INT(pmbench_fs_read_text(&t, p.ptr, 1 << 20), 0);
		CHECK_STR(t.ptr, APP_TEXT);
		pmbench_buf_release(&p);
		pmbench_buf_release(&t);
	}
	pmbench_result_release(&r);
}

CHECK_MAIN(CASE(edit_times_track_the_update_delay),
	   CASE(never_updating_server_fails_naming_the_edit),
	   CASE(other_port_fails_at_once_with_both_urls),
	   CASE(bad_hmr_fields_are_one_line_errors),
	   CASE(ctrl_c_during_hmr_restores_the_file))
