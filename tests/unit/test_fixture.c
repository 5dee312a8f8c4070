#include "pmbench/common.h"

#include <unistd.h>

#include "check.h"
#include "pmbench/fixture.h"
#include "pmbench/fs.h"

static int parse(struct pmbench_fixture *f, const char *json)
{
	return pmbench_fixture_parse(f, json, "fixtures/x.json");
}

TEST(full_manifest)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;

	CHECK_INT(parse(&f, "{ \"name\": \"react-vite\", \"repo\": "
			    "\"https://example.invalid/r.git\", \"commit\": "
			    "\"6072ae1d389a9088a7fdde9548601e5561e6198d\", "
			    "\"subdir\": \"app\", \"description\": \"d\", "
			    "\"env\": { \"CYPRESS_INSTALL_BINARY\": \"0\" }, "
			    "\"pm\": { \"npm\": { \"flags\": "
			    "[\"--legacy-peer-deps\"], \"env\": { \"A\": "
			    "\"1\" } } }, \"build\": { \"script\": \"build\", "
			    "\"output\": \"dist\" }, \"dev\": { \"script\": "
			    "\"dev\", \"args\": \"--port {port}\", \"ready\": "
			    "\"ready in\", \"path\": \"/\" } }"),
		  0);
	CHECK_STR(f.name, "react-vite");
	CHECK(f.is_remote);
	CHECK_STR(f.subdir, "app");
	CHECK_STR(f.env.v[0], "CYPRESS_INSTALL_BINARY=0");
	CHECK(pmbench_fixture_pm(&f, "npm"));
	CHECK_STR(pmbench_fixture_pm(&f, "npm")->flags.v[0], "--legacy-peer-deps");
	CHECK_STR(pmbench_fixture_pm(&f, "npm")->env.v[0], "A=1");
	CHECK(!pmbench_fixture_pm(&f, "bun"));
	CHECK_STR(f.build_output, "dist");
	CHECK_STR(f.ready_pattern, "ready in");
	pmbench_fixture_release(&f);
}

static void expect_error(const char *json, const char *msg)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;

	if (parse(&f, json) != PMBENCH_EINVALID)
		check_fail(__FILE__, __LINE__, "accepted: %s", json);
	else if (!strstr(pmbench_error_last(), msg))
		check_fail(__FILE__, __LINE__, "message '%s' lacks '%s'",
			   pmbench_error_last(), msg);
	pmbench_fixture_release(&f);
}

TEST(errors)
{
	expect_error("{ \"name\": \"x\",\n  \"repo\": }", "fixtures/x.json:2:");
	expect_error("{ \"name\": \"x\",\n  \"repo\": }", "malformed JSON");
	expect_error("{ \"repo\": \"a\" }", "missing required field 'name'");
	expect_error("{ \"name\": \"x\" }", "missing required field 'repo'");
	expect_error("{ \"name\": \"x\", \"repo\": \"https://h/r.git\" }",
		     "'commit' is required");
	expect_error("{ \"name\": \"x\", \"repo\": \"a\", \"commit\": \"abc\" }",
		     "full 40-character SHA, got 'abc'");
	expect_error("{ \"name\": \"x\", \"repo\": \"a\", \"comit\": \"abc\" }",
		     "unknown field 'comit'");
	expect_error("{ \"name\": \"x\", \"repo\": \"a\", \"subdir\": \"../up\" }",
		     "must not contain '..'");
	expect_error("{ \"name\": \"x\", \"repo\": \"a\", \"subdir\": \"/etc\" }",
		     "must not contain '..' or be absolute");
	expect_error("{ \"name\": \"x\", \"repo\": \"a\", \"env\": { \"A\": 1 } }",
		     "'env.A' must be a string");
	expect_error("{ \"name\": \"x\", \"repo\": \"a\", \"pm\": { \"cargo\": {} } }",
		     "unknown package manager 'pm.cargo'");
	expect_error("{ \"name\": \"../x\", \"repo\": \"a\" }", "'name' may hold");
}

TEST(load_and_checkout_bare_folder)
{
	const char *sb = check_sandbox();
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	char proj[4200], cache[4200], fx[4200];

	snprintf(proj, sizeof(proj), "%s/apps/tiny", sb);
	snprintf(cache, sizeof(cache), "%s/cache", sb);
	snprintf(fx, sizeof(fx), "%s", sb);
	pmbench_fs_mkdirp(proj, 0755);
	check_write("apps/tiny/package.json", "{}");
	pmbench_fs_mkdirp(check_path("apps/tiny/node_modules/x"), 0755);
	check_write("tiny.json", "{ \"name\": \"tiny\", \"repo\": \"apps/tiny\" }");
	pmbench_fs_mkdirp(cache, 0755);
	pmbench_fs_set_sandbox(cache);
	CHECK_INT(pmbench_fixture_load(&f, "tiny", fx), 0);
	CHECK_STR(f.repo, proj);
	CHECK_INT(pmbench_fixture_checkout(&f, cache), 0);
	CHECK(pmbench_fs_isfile(check_path("cache/work/tiny/source/package.json")));
	CHECK(!pmbench_fs_exists(check_path("cache/work/tiny/source/node_modules")));
	CHECK(pmbench_fs_exists(check_path("apps/tiny/node_modules/x")));
	pmbench_fixture_release(&f);

	CHECK_INT(pmbench_fixture_load(&f, "nope", fx), PMBENCH_ENOTFOUND);
	CHECK_CONTAINS(pmbench_error_last(), "no fixture 'nope'");
	pmbench_fixture_release(&f);

	/* A folder without package.json. */
	pmbench_fs_mkdirp(check_path("empty"), 0755);
	CHECK_INT(pmbench_fixture_load(&f, check_path("empty"), fx),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "no package.json");
	pmbench_fixture_release(&f);

	/* subdir missing, and no package.json in the subdir. */
	check_write("sub.json", "{ \"name\": \"sub\", \"repo\": \"apps/tiny\", "
				"\"subdir\": \"missing\" }");
	CHECK_INT(pmbench_fixture_load(&f, "sub", fx), 0);
	CHECK(pmbench_fixture_checkout(&f, cache) < 0);
	CHECK_CONTAINS(pmbench_error_last(), "subdir 'missing' is not a folder");
	pmbench_fixture_release(&f);
	pmbench_fs_mkdirp(check_path("apps/tiny/lib"), 0755);
	check_write("apps/tiny/lib/x.js", "1");
	check_write("sub.json", "{ \"name\": \"sub\", \"repo\": \"apps/tiny\", "
				"\"subdir\": \"lib\" }");
	CHECK_INT(pmbench_fixture_load(&f, "sub", fx), 0);
	CHECK(pmbench_fixture_checkout(&f, cache) < 0);
	CHECK_CONTAINS(pmbench_error_last(), "no package.json in 'lib'");
	pmbench_fixture_release(&f);
}

TEST(subdir_symlink_escape_refused)
{
	const char *sb = check_sandbox();
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	char cache[4200];

	snprintf(cache, sizeof(cache), "%s/cache", sb);
	pmbench_fs_mkdirp(check_path("apps/tiny"), 0755);
	pmbench_fs_mkdirp(check_path("outside"), 0755);
	check_write("outside/package.json", "{}");
	check_write("apps/tiny/package.json", "{}");
	CHECK_INT(symlink("/nonexistent-or-outside", check_path("apps/tiny/esc")), 0);
	check_write("esc.json", "{ \"name\": \"esc\", \"repo\": \"apps/tiny\", "
				"\"subdir\": \"esc\" }");
	pmbench_fs_mkdirp(cache, 0755);
	pmbench_fs_set_sandbox(cache);
	CHECK_INT(pmbench_fixture_load(&f, "esc", sb), 0);
	CHECK(pmbench_fixture_checkout(&f, cache) < 0);
	pmbench_fixture_release(&f);
}

TEST(unclonable_url)
{
	const char *sb = check_sandbox();
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	char cache[4200];

	snprintf(cache, sizeof(cache), "%s/cache", sb);
	pmbench_fs_mkdirp(cache, 0755);
	pmbench_fs_set_sandbox(cache);
	CHECK_INT(parse(&f, "{ \"name\": \"gone\", \"repo\": "
			    "\"file:///nonexistent/pmbench-repo\" }"),
		  0);
	CHECK(pmbench_fixture_checkout(&f, cache) < 0);
	CHECK_CONTAINS(pmbench_error_last(),
		       "cannot clone 'file:///nonexistent/pmbench-repo'");
	pmbench_fixture_release(&f);
}

CHECK_MAIN(CASE(full_manifest), CASE(errors), CASE(load_and_checkout_bare_folder),
	   CASE(subdir_symlink_escape_refused), CASE(unclonable_url))
