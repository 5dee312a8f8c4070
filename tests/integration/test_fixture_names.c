/*
 * Fixtures as the command line names them (issue 32, items 5 to 7): the
 * same fixture given twice is benchmarked once with a note, two
 * fixtures of one name are refused; a folder's name that is not one
 * (non-ASCII, a leading '-') is spelt in ASCII with a hash of it; a URL
 * with a trailing slash is named as git names its clone.
 */
#include "pmbench/common.h"

#include "check.h"
#include "fields.h"
#include "harness.h"
#include "pmbench/fs.h"

/* A folder with a package.json at `rel`; its absolute path. */
static const char *project(const char *rel)
{
	static char path[4200];
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_addf(&b, "%s/package.json", rel);
	snprintf(path, sizeof(path), "%s",
		 h_write(b.ptr,
			 "{ \"name\": \"p\", \"version\": \"1.0.0\" }\n"));
	*strrchr(path, '/') = '\0';
	pmbench_buf_release(&b);
	return path;
}

/* bench `a` and `b` with npm and pnpm, 2 runs, the result in `out`. */
static void bench_two(struct h_run *run, const char *a, const char *b,
		      const char *out)
{
	const char *args[] = {
		"bench",	  a,	   b,	       "--pm", "npm,pnpm",
		"--runs",	  "2",	   "--warmup", "0",    "--scenario",
		"cache+lockfile", "--out", out,	       NULL
	};

	h_pmbench(run, args, NULL);
}

/*
 * Whether the result `path` holds one fixture whose cells have the
 * rounds `want` ("fixture pm: 0 1; ..."); says why not on stderr.
 */
static int once_with(const char *path, const char *want)
{
	struct pmbench_buf got = PMBENCH_BUF_INIT;
	cJSON *r = h_read_json(path);
	const cJSON *c, *s;
	int ok;

	cJSON_ArrayForEach(c, cJSON_GetObjectItem(r, "cells"))
	{
		pmbench_buf_addf(&got, "%s %s:", h_str(c, "fixture"),
				 h_str(c, "pm"));
		cJSON_ArrayForEach(s, cJSON_GetObjectItem(c, "samples"))
			pmbench_buf_addf(&got, " %d", (int)h_num(s, "round"));
		pmbench_buf_adds(&got, "; ");
	}
	ok = cJSON_GetArraySize(cJSON_GetObjectItem(r, "fixtures")) == 1 &&
	     !strcmp(got.ptr, want);
	if (!ok)
		fprintf(stderr,
			"%s: rounds '%s', expected one fixture and "
			"'%s'\n",
			path, got.ptr, want);
	cJSON_Delete(r);
	pmbench_buf_release(&got);
	return ok;
}

/* Issue 32, item 5: `bench R R` gave R rounds 0 1 0 1. */
TEST(same_fixture_twice_runs_once)
{
	struct pmbench_buf again = PMBENCH_BUF_INIT;
	char out[4200];
	struct h_run run;

	h_setup();
	snprintf(out, sizeof(out), "%s/r.json", h_cache());
	pmbench_buf_addf(&again, "%s/./", project("R"));
	bench_two(&run, project("R"), again.ptr, out);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "pmbench: note: '");
	CHECK_CONTAINS(run.out.ptr, "/R/./' given twice in the fixtures; "
				    "benchmarking it once");
	CHECK(once_with(out, "R npm: 0 1; R pnpm: 0 1; "));
	h_run_release(&run);

	bench_two(&run, "gen:workspace:1", "gen:workspace:1", out);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "'gen:workspace:1' given twice in the "
				    "fixtures; benchmarking it once");
	CHECK(once_with(out, "gen-workspace-1 npm: 0 1; "
			     "gen-workspace-1 pnpm: 0 1; "));
	h_run_release(&run);
	pmbench_buf_release(&again);
}

/* Two different folders named alike: refused, naming both. */
TEST(two_fixtures_of_one_name_refused)
{
	struct pmbench_buf a = PMBENCH_BUF_INIT;
	char out[4200];
	struct h_run run;

	h_setup();
	snprintf(out, sizeof(out), "%s/r.json", h_cache());
	pmbench_buf_adds(&a, project("x/app"));
	bench_two(&run, a.ptr, project("y/app"), out);
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "/x/app' and '");
	CHECK_CONTAINS(run.out.ptr, "/y/app' are two fixtures named 'app': "
				    "their work folders and results would "
				    "mix");
	CHECK(!pmbench_fs_exists(out));
	CHECK(!strstr(run.out.ptr, "priming"));
	h_run_release(&run);
	pmbench_buf_release(&a);
}

/*
 * Issue 32, item 6: a folder named 'ü' was the fixture '--', its result
 * '---<time>.json', which `report` then read as an option.
 */
TEST(folder_names_become_fixture_names)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	char out[4200];
	struct h_run run;
	cJSON *r;

	h_setup();
	snprintf(out, sizeof(out), "%s/r.json", h_cache());
	pmbench_buf_adds(&path, project("\xc3\xbc"));
	bench_two(&run, path.ptr, project("-rf"), out);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "fixtures:  u-119dd44a, _rf-2a6775c8");
	r = h_read_json(out);
	CHECK(r);
	CHECK_STR(
		h_str(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "fixtures"), 0),
		      "name"),
		"u-119dd44a");
	cJSON_Delete(r);
	pmbench_buf_reset(&path);
	pmbench_buf_addf(&path, "%s/work/u-119dd44a/source/package.json",
			 h_cache());
	CHECK(pmbench_fs_isfile(path.ptr));
	pmbench_buf_reset(&path);
	pmbench_buf_addf(&path, "%s/work/_rf-2a6775c8/source/package.json",
			 h_cache());
	CHECK(pmbench_fs_isfile(path.ptr));
	h_run_release(&run);

	/* The default result's name starts with the name, never a '-'. */
	{
		const char *args[] = { "bench",	     project("\xc3\xbc"),
				       "--pm",	     "npm",
				       "--runs",     "1",
				       "--warmup",   "0",
				       "--scenario", "cache+lockfile",
				       NULL };

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "/results/u-119dd44a-");
	h_run_release(&run);
	pmbench_buf_release(&path);
}

/*
 * Issue 32, item 7: `migrate file:///path/repo/@SHA` was refused with
 * "field 'name' must be 1 to 100 letters ... got ''".
 */
TEST(url_with_a_trailing_slash)
{
	struct pmbench_buf url = PMBENCH_BUF_INIT;
	char sha[41], report[4200];
	const char *repo;
	struct h_run run;
	cJSON *r;

	h_setup();
	repo = project("repo");
	h_write("repo/package-lock.json",
		"{\n  \"name\": \"fakepm-project\",\n  \"lockfileVersion\": "
		"3,\n  \"generatedBy\": \"generated by fakepm npm\",\n"
		"  \"packages\": {}\n}\n");
	h_git_commit_all(sha, repo, "only");
	pmbench_buf_addf(&url, "file://%s/@%s", repo, sha);
	snprintf(report, sizeof(report), "%s/m.json", h_cache());
	{
		const char *args[] = { "migrate",    url.ptr,
				       "--to",	     "pnpm",
				       "--runs",     "1",
				       "--warmup",   "0",
				       "--scenario", "cache+lockfile",
				       "--out",	     report,
				       NULL };

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 0);
	r = h_read_json(report);
	CHECK(r);
	CHECK_STR(h_str(r, "source_pm"), "npm");
	CHECK_STR(h_str(cJSON_GetArrayItem(
				cJSON_GetObjectItem(
					cJSON_GetObjectItem(r, "result"),
					"fixtures"),
				0),
			"name"),
		  "repo");
	cJSON_Delete(r);
	h_run_release(&run);
	pmbench_buf_release(&url);
}

CHECK_MAIN(CASE(same_fixture_twice_runs_once),
	   CASE(two_fixtures_of_one_name_refused),
	   CASE(folder_names_become_fixture_names),
	   CASE(url_with_a_trailing_slash))
