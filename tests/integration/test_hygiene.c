/*
 * What pmbench prints and records from user data (issue 24): credentials
 * in a repository URL never shown, control bytes of manifests and of PM
 * output never reaching the terminal, and a history that neither orders
 * by nor shows a date that does not exist, with its warnings on stderr.
 */
#include "pmbench/common.h"

#include "check.h"
#include "fields.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"

#define COMMIT "b6dc05b2e7239f7ee722afe18123600e0e59618d"

/* No byte that drives a terminal: C0 but line feeds, DEL, C1, ESC. */
static int terminal_safe(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
			return 0;
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			return 0;
	}
	return 1;
}

/* `bench` of one manifest for npm, once; its output in `run`. */
static void bench_manifest(struct h_run *run, const char *manifest,
			   const char *extra_arg)
{
	const char *args[] = { "bench", "--pm",	  "npm",     "--scenario",
			       "clean", "--runs", "1",	     "--warmup",
			       "0",	manifest, extra_arg, NULL };

	h_pmbench(run, args, NULL);
}

TEST(credentials_are_never_shown)
{
	struct h_run run;
	char cred[4200], tok[4200], dir[4200];

	h_setup();
	snprintf(cred, sizeof(cred), "%s",
		 h_write("fx/cred.json",
			 "{ \"name\": \"cred\", \"repo\": "
			 "\"https://alice:s3cretPASS@127.0.0.1:9/repo.git\", "
			 "\"commit\": \"" COMMIT "\" }\n"));
	snprintf(tok, sizeof(tok), "%s",
		 h_write("fx/tok.json",
			 "{ \"name\": \"tok\", \"repo\": \"https://"
			 "ghp_0123456789abcdefghijABCDEFGHIJklmn@127.0.0.1:9/"
			 "repo.git?access_token=zz9\", \"commit\": \"" COMMIT
			 "\" }\n"));
	/* The clone fails; the message names the URL without its secrets. */
	bench_manifest(&run, cred, NULL);
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr,
		       "cannot clone 'https://***@127.0.0.1:9/repo.git'");
	CHECK(!strstr(run.out.ptr, "s3cretPASS"));
	CHECK(!strstr(run.out.ptr, "alice"));
	h_run_release(&run);
	bench_manifest(&run, tok, NULL);
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "cannot clone 'https://***@127.0.0.1:9/"
				    "repo.git?access_token=***'");
	CHECK(!strstr(run.out.ptr, "ghp_0123"));
	CHECK(!strstr(run.out.ptr, "zz9"));
	h_run_release(&run);
	/* The list of fixtures shows them alike. */
	snprintf(dir, sizeof(dir), "%s", check_path("fx"));
	{
		const char *args[] = { "--fixtures-dir", dir, "fixtures",
				       NULL };

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "https://***@127.0.0.1:9/repo.git @ ");
	CHECK(!strstr(run.out.ptr, "s3cretPASS"));
	CHECK(!strstr(run.out.ptr, "ghp_0123"));
	h_run_release(&run);
	/* A workflow is committed: a credential in it is refused, unshown. */
	{
		const char *args[] = { "workflow", "github-actions", "--env",
				       "REG=https://bob:hunter2@r.example/",
				       NULL };

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 129);
	CHECK_CONTAINS(run.out.ptr, "invalid --env 'REG=https://***@"
				    "r.example/': a credential");
	CHECK(!strstr(run.out.ptr, "hunter2"));
	h_run_release(&run);
}

/* A project whose script prints a title, colours and a cursor move. */
static const char *hostile_project(void)
{
	h_write("hostile/package.json",
		"{ \"name\": \"hostile\", \"version\": \"1.0.0\", "
		"\"private\": true, \"scripts\": { \"boom\": \"printf "
		"'\\\\033]0;PWNED\\\\007\\\\033[31mboom failed\\\\033[0m"
		"\\\\033[2K\\\\n' >&2; exit 3\" } }\n");
	return check_path("hostile");
}

/*
 * `bench --task run` of the script `script` of the project `dir`, once,
 * through a manifest named `name`; the result's path into `out`.
 */
static void script_bench(struct h_run *run, char *out, size_t size,
			 const char *name, const char *dir, const char *script)
{
	struct pmbench_buf man = PMBENCH_BUF_INIT, rel = PMBENCH_BUF_INIT;
	char path[4200];

	pmbench_buf_addf(&man,
			 "{ \"name\": \"%s\", \"repo\": \"%s\", "
			 "\"scripts\": [\"%s\"] }\n",
			 name, dir, script);
	pmbench_buf_addf(&rel, "%s.json", name);
	snprintf(path, sizeof(path), "%s", h_write(rel.ptr, man.ptr));
	pmbench_buf_reset(&rel);
	pmbench_buf_addf(&rel, "%s-result.json", name);
	snprintf(out, size, "%s", check_path(rel.ptr));
	{
		const char *args[] = { "bench", "--pm",	  "npm", "--task",
				       "run",	"--runs", "1",	 "--warmup",
				       "0",	"--out",  out,	 path,
				       NULL };

		h_pmbench(run, args, NULL);
	}
	pmbench_buf_release(&man);
	pmbench_buf_release(&rel);
}

TEST(control_bytes_never_reach_the_terminal)
{
	struct h_run run;
	char path[4200], out[4200];

	h_setup();
	/* A name with a title and a colour: refused, and shown escaped. */
	snprintf(path, sizeof(path), "%s",
		 h_write("bad.json",
			 "{ \"name\": \"x\\u001b]0;PWNED\\u0007"
			 "\\u001b[31mred\", \"repo\": \"https://127.0.0.1:9/"
			 "r.git\", \"commit\": \"" COMMIT "\" }\n"));
	bench_manifest(&run, path, NULL);
	CHECK_INT(run.exit_code, 1);
	CHECK(terminal_safe(run.out.ptr));
	CHECK_CONTAINS(run.out.ptr, "got 'x\\x1b]0;PWNED\\x07\\x1b[31mred'");
	h_run_release(&run);
	/* A usage error quotes the command line: escaped too. */
	{
		const char *args[] = { "bench", "--\033]0;PWNED\007x", NULL };

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 129);
	CHECK(terminal_safe(run.out.ptr));
	CHECK_CONTAINS(run.out.ptr, "unknown option '--\\x1b]0;PWNED\\x07x'");
	h_run_release(&run);

	/* A script whose output is quoted in the failure: no escapes. */
	script_bench(&run, out, sizeof(out), "hostile", hostile_project(),
		     "boom");
	CHECK_INT(run.exit_code, 2);
	CHECK(terminal_safe(run.out.ptr));
	CHECK_CONTAINS(run.out.ptr, "boom failed");
	CHECK(!strstr(run.out.ptr, "PWNED"));
	h_run_release(&run);
	/* The Markdown report quotes the output without its colours. */
	{
		const char *args[] = { "report", out, "--format", "markdown",
				       NULL };

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK(terminal_safe(run.out.ptr));
	CHECK_CONTAINS(run.out.ptr, "\nboom failed\n");
	CHECK(!strstr(run.out.ptr, "[31m"));
	h_run_release(&run);
}

/* `report RESULT --format FORMAT`'s output into `out`; 0 on success. */
static int report_of(struct pmbench_buf *out, const char *result,
		     const char *format)
{
	const char *args[] = { "report", result, "--format", format, NULL };
	struct h_run run;
	int ret;

	h_pmbench(&run, args, NULL);
	ret = run.exit_code;
	pmbench_buf_add(out, run.out.ptr, run.out.len);
	h_run_release(&run);
	return ret;
}

/*
 * A failing command's output is quoted in the result and the reports:
 * the credentials a PM prints there, in every syntax of its settings,
 * are not (issue 32: all five reached the JSON, HTML and Markdown).
 */
TEST(credentials_in_pm_output_are_never_recorded)
{
	struct pmbench_buf all = PMBENCH_BUF_INIT;
	struct h_run run;
	char out[4200];

	h_setup();
	h_write("leaky/leak.sh",
		"echo 'Authorization: Basic YWxpY2U6czNjcmV0' >&2\n"
		"echo '_auth = s3cretA' >&2\n"
		"echo '_auth=\"s3cretB\"' >&2\n"
		"echo '{\"_authToken\": \"s3cretC\"}' >&2\n"
		"echo 'npmAuthToken: s3cretD' >&2\n"
		"exit 1\n");
	h_write("leaky/package.json",
		"{ \"name\": \"leaky\", \"version\": \"1.0.0\", "
		"\"private\": true, \"scripts\": { \"leak\": \"sh "
		"leak.sh\" } }\n");
	script_bench(&run, out, sizeof(out), "leaky", check_path("leaky"),
		     "leak");
	CHECK_INT(run.exit_code, 2);
	pmbench_buf_add(&all, run.out.ptr, run.out.len);
	h_run_release(&run);
	CHECK_INT(pmbench_fs_read_text(&all, out, 1 << 24), 0);
	CHECK_INT(report_of(&all, out, "html"), 0);
	CHECK_INT(report_of(&all, out, "markdown"), 0);
	/* The failure is there, its settings' values are not. */
	CHECK_CONTAINS(all.ptr, "npmAuthToken: ***");
	CHECK_CONTAINS(all.ptr, "Basic ***");
	CHECK(!strstr(all.ptr, "YWxpY2U6czNjcmV0"));
	CHECK(!strstr(all.ptr, "s3cret"));
	pmbench_buf_release(&all);
}

/*
 * `--env` reaches the PMs as given, and the result records a value only
 * when it cannot be a credential (issue 32: NODE_AUTH_TOKEN's value was
 * in cells[].env and options.arguments, though inherited variables were
 * recorded by name only).
 */
TEST(env_values_are_recorded_only_when_harmless)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf all = PMBENCH_BUF_INIT;
	const struct pmbench_cell *c;
	struct h_run run;
	cJSON *log, *e;
	char out[4200];
	const char *proj;

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", check_path("env-result.json"));
	{
		const char *args[] = {
			"bench",
			"--pm",
			"npm",
			"--scenario",
			"clean",
			"--runs",
			"1",
			"--warmup",
			"0",
			"--env",
			"NODE_AUTH_TOKEN=npm_s3cretS3cretS3cretS3cretS3cret",
			"--env",
			"FAKE_FIXTURE_ENV=s3cretValue",
			"--env",
			"CYPRESS_INSTALL_BINARY=0",
			"--out",
			out,
			proj,
			NULL
		};

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 0);
	pmbench_buf_add(&all, run.out.ptr, run.out.len);
	h_run_release(&run);
	/* The PM got the value. */
	log = h_log_entries();
	CHECK(cJSON_GetArraySize(log) >= 1);
	cJSON_ArrayForEach(e, log)
	{
		CHECK_STR(h_str(cJSON_GetObjectItemCaseSensitive(e, "env"),
				"FAKE_FIXTURE_ENV"),
			  "s3cretValue");
	}
	cJSON_Delete(log);
	/* The result records the names, and harmless values. */
	CHECK_INT(pmbench_result_read(&r, out), 0);
	c = pmbench_result_find_cell(&r, "proj", "install", "clean", "npm");
	CHECK(c);
	CHECK_STR(pmbench_env_get(&c->env, "NODE_AUTH_TOKEN"), "***");
	CHECK_STR(pmbench_env_get(&c->env, "FAKE_FIXTURE_ENV"), "***");
	CHECK_STR(pmbench_env_get(&c->env, "CYPRESS_INSTALL_BINARY"), "0");
	CHECK(pmbench_strvec_find(&r.arguments, "--env=FAKE_FIXTURE_ENV=***") >=
	      0);
	CHECK(pmbench_strvec_find(&r.arguments,
				  "--env=CYPRESS_INSTALL_BINARY=0") >= 0);
	CHECK_INT(pmbench_fs_read_text(&all, out, 1 << 24), 0);
	CHECK_INT(report_of(&all, out, "markdown"), 0);
	CHECK_INT(report_of(&all, out, "html"), 0);
	CHECK(!strstr(all.ptr, "s3cret"));
	pmbench_result_release(&r);
	pmbench_buf_release(&all);
}

/* pmbench with `args` (after the binary), one stream kept: 1 or 2. */
static void one_stream(struct h_run *run, int fd, const char *a1,
		       const char *a2)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;

	pmbench_strvec_push(&c.args, "/bin/sh");
	pmbench_strvec_push(&c.args, "-c");
	pmbench_strvec_push(&c.args,
			    fd == 1 ? "\"$PMBENCH_BIN\" \"$@\" 2>/dev/null"
				    : "\"$PMBENCH_BIN\" \"$@\" >/dev/null");
	pmbench_strvec_push(&c.args, "sh");
	pmbench_strvec_push(&c.args, a1);
	pmbench_strvec_push(&c.args, a2);
	c.tail_max = 1u << 20;
	pmbench_buf_init(&run->out);
	run->exit_code = -1;
	if (pmbench_child_run(&c) == 0 && !c.result.signal)
		run->exit_code = c.result.exit_code;
	pmbench_buf_add(&run->out, c.tail.ptr, c.tail.len);
	pmbench_child_release(&c);
}

/* tests/data/history's result of `day`, `created` replaced by `created`. */
static void dated_copy(int *ok, unsigned day, const char *to,
		       const char *created)
{
	const char *root = getenv("PMBENCH_SOURCE_DIR");
	struct pmbench_buf text = PMBENCH_BUF_INIT, edited = PMBENCH_BUF_INIT;
	char from[4200], was[64];
	const char *at;

	*ok = 0;
	snprintf(from, sizeof(from),
		 "%s/tests/data/history/2026-11-%02u/result.json",
		 root ? root : ".", day);
	snprintf(was, sizeof(was), "\"2026-11-%02uT06:00:00Z\"", day);
	CHECK_INT(pmbench_fs_read_text(&text, from, 1 << 22), 0);
	at = strstr(text.ptr, was);
	CHECK(at != NULL);
	pmbench_buf_add(&edited, text.ptr, (size_t)(at - text.ptr));
	pmbench_buf_addf(&edited, "\"%s\"%s", created, at + strlen(was));
	h_write(to, edited.ptr);
	pmbench_buf_release(&text);
	pmbench_buf_release(&edited);
	*ok = 1;
}

TEST(history_refuses_impossible_dates_on_stderr)
{
	struct h_run run;
	char dir[4200], bad[4200];

	h_setup();
	H_CHECK_CALL(dated_copy, 1, "hist/a/result.json",
		     "2026-11-01T06:00:00Z");
	H_CHECK_CALL(dated_copy, 2, "hist/b/result.json",
		     "2026-11-02T06:00:00Z");
	H_CHECK_CALL(dated_copy, 3, "hist/c/result.json",
		     "9999-99-99T99:99:99Z");
	h_write("hist/notes.json", "{\"hello\": 1}\n");
	snprintf(dir, sizeof(dir), "%s", check_path("hist"));
	snprintf(bad, sizeof(bad), "%s", check_path("hist/c/result.json"));

	/* The report: the results with real dates, no warning in it. */
	one_stream(&run, 1, "history", dir);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "2 result(s) under");
	CHECK_CONTAINS(run.out.ptr, "2026-11-01 to 2026-11-02.");
	CHECK(!strstr(run.out.ptr, "9999"));
	CHECK(!strstr(run.out.ptr, "warning"));
	CHECK(!strstr(run.out.ptr, "notes.json"));
	h_run_release(&run);
	/* The warnings, on stderr, each naming its file. */
	one_stream(&run, 2, "history", dir);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "pmbench: warning: skipped '");
	CHECK_CONTAINS(run.out.ptr, "notes.json");
	CHECK_CONTAINS(run.out.ptr,
		       "c/result.json': field 'created': "
		       "'9999-99-99T99:99:99Z' is not a date and "
		       "time (YYYY-MM-DDTHH:MM:SSZ, UTC): month 99 "
		       "is not 01 to 12; correct it to place the result");
	h_run_release(&run);
	/* report reads the file as well, saying so on stderr. */
	one_stream(&run, 2, "report", bad);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "pmbench: warning: '");
	CHECK_CONTAINS(run.out.ptr, "month 99 is not 01 to 12");
	h_run_release(&run);
}

CHECK_MAIN(CASE(credentials_are_never_shown),
	   CASE(control_bytes_never_reach_the_terminal),
	   CASE(credentials_in_pm_output_are_never_recorded),
	   CASE(env_values_are_recorded_only_when_harmless),
	   CASE(history_refuses_impossible_dates_on_stderr))
