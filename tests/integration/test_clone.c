/*
 * A fixture pinned by repository and commit: pmbench clones a git
 * repository the test made, checks the pinned commit out (not the newer
 * HEAD), and never writes into the user's repository.
 */
#include "pmbench/common.h"

#include "check.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/result.h"

TEST(clone_pinned_commit)
{
	char first[41], second[41];
	struct pmbench_buf manifest = PMBENCH_BUF_INIT,
			   before = PMBENCH_BUF_INIT;
	struct pmbench_buf after = PMBENCH_BUF_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	const char *repo, *mpath;
	char repo_dir[4200], out[4200];
	cJSON *log, *e;

	h_setup();
	repo = h_project("upstream/app");
	snprintf(repo_dir, sizeof(repo_dir), "%s", repo);
	h_write("upstream/app/VERSION", "first\n");
	h_git_commit_all(first, repo_dir, "first");
	h_write("upstream/app/VERSION", "second\n");
	h_git_commit_all(second, repo_dir, "second");
	h_listing(&before, repo_dir);

	pmbench_buf_addf(&manifest,
			 "{ \"name\": \"pinned\", \"repo\": \"file://%s\", "
			 "\"commit\": \"%s\", \"env\": { \"FAKE_FIXTURE_ENV\": "
			 "\"from-manifest\" } }\n",
			 repo_dir, first);
	mpath = h_write("pinned.json", manifest.ptr);
	{
		char m[4200];
		const char *args[] = { "bench", "--pm",	  "npm", "--scenario",
				       "clean", "--runs", "1",	 "--warmup",
				       "0",	"--out",  out,	 m,
				       NULL };

		snprintf(m, sizeof(m), "%s", mpath);
		snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	CHECK_INT(r.fixtures_nr, 1);
	CHECK_STR(r.fixtures[0].commit, first);
	/* The checkout has the pinned commit's content. */
	{
		struct pmbench_buf v = PMBENCH_BUF_INIT, p = PMBENCH_BUF_INIT;

		pmbench_buf_addf(&p, "%s/work/pinned/source/VERSION",
				 h_cache());
		CHECK_INT(pmbench_fs_read(&v, p.ptr, 100), 0);
		CHECK_STR(v.ptr, "first\n");
		pmbench_buf_release(&v);
		pmbench_buf_release(&p);
	}
	/* The manifest's env reached the PM. */
	log = h_log_entries();
	CHECK(cJSON_GetArraySize(log) >= 2);
	cJSON_ArrayForEach(e, log)
	{
		const cJSON *env = cJSON_GetObjectItemCaseSensitive(e, "env");
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(
			env, "FAKE_FIXTURE_ENV");

		CHECK(cJSON_IsString(v));
		CHECK_STR(v->valuestring, "from-manifest");
	}
	cJSON_Delete(log);
	/* The user's repository is exactly as it was. */
	h_listing(&after, repo_dir);
	CHECK_STR(after.ptr, before.ptr);
	pmbench_result_release(&r);
	h_run_release(&run);
	pmbench_buf_release(&manifest);
	pmbench_buf_release(&before);
	pmbench_buf_release(&after);
}

TEST(commit_not_in_repo)
{
	char sha[41];
	struct pmbench_buf manifest = PMBENCH_BUF_INIT;
	struct h_run run;
	const char *repo;
	char repo_dir[4200], m[4200];

	h_setup();
	repo = h_project("upstream/app");
	snprintf(repo_dir, sizeof(repo_dir), "%s", repo);
	h_git_commit_all(sha, repo_dir, "only");
	pmbench_buf_addf(&manifest,
			 "{ \"name\": \"ghost\", \"repo\": \"file://%s\", "
			 "\"commit\": \"%s\" }\n",
			 repo_dir, "0123456789abcdef0123456789abcdef01234567");
	snprintf(m, sizeof(m), "%s", h_write("ghost.json", manifest.ptr));
	{
		const char *args[] = { "bench", "--pm", "npm", "--runs",
				       "1",	m,	NULL };

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "0123456789abcdef0123456789abcdef01234567");
	CHECK_CONTAINS(run.out.ptr, "is not in");
	h_run_release(&run);
	pmbench_buf_release(&manifest);
}

CHECK_MAIN(CASE(clone_pinned_commit), CASE(commit_not_in_repo))
