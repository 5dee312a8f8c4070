/*
 * Workspaces (issue 26): unified diffs, layout-keeping JSON edits, the
 * workspace reader, each PM's migration recipe on the embedded workspace
 * fixture, the fixes a failure names, and generated workspaces.
 */
#include "pmbench/common.h"

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/diff.h"
#include "pmbench/fs.h"
#include "pmbench/gen.h"
#include "pmbench/jsonedit.h"
#include "pmbench/monorepo.h"
#include "pmbench/pm.h"
#include "pmbench/proc.h"
#include "pmbench/recipe.h"

/* A fresh copy of fixtures/apps/workspaces in the sandbox, as `name`. */
static const char *fixture_copy(const char *name)
{
	static char path[4200];
	struct pmbench_buf src = PMBENCH_BUF_INIT;
	const char *root = getenv("PMBENCH_SOURCE_DIR");

	snprintf(path, sizeof(path), "%s", check_path(name));
	pmbench_buf_addf(&src, "%s/fixtures/apps/workspaces", root ? root : "");
	if (pmbench_fs_copytree(src.ptr, path, PMBENCH_FS_COPY_SKIP_GIT, NULL))
		path[0] = '\0';
	pmbench_buf_release(&src);
	return path;
}

/* The text of `file` in `dir` ("" when there is none). */
static const char *text_of(const char *dir, const char *file)
{
	static struct pmbench_buf text = PMBENCH_BUF_INIT;
	struct pmbench_buf p = PMBENCH_BUF_INIT;

	pmbench_buf_reset(&text);
	pmbench_buf_path(&p, dir, file);
	if (pmbench_fs_isfile(p.ptr) &&
	    pmbench_fs_read_text(&text, p.ptr, 1u << 20) < 0)
		pmbench_buf_reset(&text);
	pmbench_buf_release(&p);
	return text.ptr ? text.ptr : "";
}

/* The change `id` the recipe recorded, or NULL. */
static const struct pmbench_recipe_change *
change(const struct pmbench_recipe *r, const char *id)
{
	for (size_t i = 0; i < r->changes_nr; i++)
		if (!strcmp(r->changes[i].id, id))
			return &r->changes[i];
	return NULL;
}

TEST(diff_is_a_patch)
{
	struct pmbench_buf out = PMBENCH_BUF_INIT;

	CHECK_INT(pmbench_diff_unified(&out, "a.txt", "x\n", "x\n"), 0);
	CHECK_INT(out.len, 0);
	CHECK_INT(pmbench_diff_unified(&out, "new.yaml", NULL, "a: 1\n"), 1);
	CHECK_CONTAINS(out.ptr, "--- /dev/null\n+++ b/new.yaml\n");
	CHECK_CONTAINS(out.ptr, "@@ -0,0 +1 @@\n+a: 1\n");
	pmbench_buf_reset(&out);
	CHECK_INT(pmbench_diff_unified(&out, "p.json", "1\n2\n3\n4\n5\n",
				       "1\n2\nthree\n4\n5\n"),
		  2);
	CHECK_CONTAINS(out.ptr, "--- a/p.json\n+++ b/p.json\n");
	CHECK_CONTAINS(out.ptr, " 2\n-3\n+three\n 4\n");
	pmbench_buf_reset(&out);
	CHECK_INT(pmbench_diff_unified(&out, "n", "a", "b"), 2);
	CHECK_CONTAINS(out.ptr, "\\ No newline at end of file");
	pmbench_buf_release(&out);
}

/*
 * Whether `diff` applies to `before` (the file `name`) with `git apply
 * --check`, as a team would apply it; 1 if it does.
 */
static int git_applies(const char *name, const char *before, const char *diff)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf dir = PMBENCH_BUF_INIT, p = PMBENCH_BUF_INIT;
	int ok;

	pmbench_buf_adds(&dir, check_path("apply"));
	pmbench_buf_path(&p, dir.ptr, name);
	if (pmbench_fs_mkdirp(dir.ptr, 0755) < 0 ||
	    pmbench_fs_write_atomic(p.ptr, before, strlen(before)) < 0)
		return 0;
	pmbench_buf_reset(&p);
	pmbench_buf_path(&p, dir.ptr, "change.diff");
	if (pmbench_fs_write_atomic(p.ptr, diff, strlen(diff)) < 0)
		return 0;
	pmbench_strvec_pushv(&c.args,
			     (const char *const[]){ "git", "apply", "--check",
						    "change.diff", NULL });
	c.dir = dir.ptr;
	ok = pmbench_child_run(&c) == 0 && c.result.exit_code == 0;
	if (!ok)
		fprintf(stderr, "git apply --check:\n%s\n%s", diff,
			c.tail.ptr ? c.tail.ptr : "");
	pmbench_child_release(&c);
	pmbench_buf_release(&dir);
	pmbench_buf_release(&p);
	return ok;
}

/*
 * A diff shows no credential (issue 32: a .yarnrc.yml's npmAuthIdent and
 * npmAuthToken were context lines on stdout, in the result and in the
 * reports), and still applies: a line holding one is never context.
 */
TEST(diff_hides_credentials_and_applies)
{
	static const char *const before[] = {
		"enableTelemetry: false\n"
		"npmScopes:\n"
		"  acme:\n"
		"    npmAuthIdent: \"alice:s3cret\"\n"
		"    npmAuthToken: \"abc123def456abc123def456\"\n"
		"npmAuthToken: npm_0123456789abcdefghijABCDEFGHIJklmnop\n",
		"a: 1\n_auth=Zm9vOmJhcg==\nnodeLinker: pnp\nb: 2\nc: 3\n"
		"d: 4\ne: 5\n//r.example/:_authToken=xyz\nf: 6\ng: 7\n",
	};
	static const char *const after[] = {
		NULL,
		"a: 1\n_auth=Zm9vOmJhcg==\nnodeLinker: node-modules\nb: 2\n"
		"c: 3\nd: 4\ne: 5\n//r.example/:_authToken=xyz\nf: 6\nG: 7\n",
	};
	struct pmbench_buf out = PMBENCH_BUF_INIT, a = PMBENCH_BUF_INIT;

	check_sandbox();
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(before); i++) {
		pmbench_buf_reset(&a);
		pmbench_buf_adds(&a, after[i] ? after[i] : before[i]);
		if (!after[i])
			pmbench_buf_adds(&a, "nodeLinker: node-modules\n");
		pmbench_buf_reset(&out);
		CHECK(pmbench_diff_unified(&out, ".yarnrc.yml", before[i],
					   a.ptr) > 0);
		CHECK(!strstr(out.ptr, "s3cret") && !strstr(out.ptr, "abc123"));
		CHECK(!strstr(out.ptr, "npm_0") && !strstr(out.ptr, "Zm9v"));
		CHECK(!strstr(out.ptr, "xyz") && !strstr(out.ptr, "***"));
		CHECK(git_applies(".yarnrc.yml", before[i], out.ptr));
	}
	/* The credential between two changes parts their hunks. */
	CHECK_CONTAINS(out.ptr, "@@ -3,4 +3,4 @@\n-nodeLinker: pnp\n");
	CHECK_CONTAINS(out.ptr, "@@ -9,2 +9,2 @@\n f: 6\n-g: 7\n+G: 7\n");
	pmbench_buf_release(&out);
	pmbench_buf_release(&a);
}

TEST(json_edits_keep_the_layout)
{
	static const char *const version[] = { "version", NULL };
	static const char *const priv[] = { "private", NULL };
	static const char *const dep[] = { "dependencies", "zod", NULL };
	struct pmbench_buf j = PMBENCH_BUF_INIT;
	size_t a, b;

	pmbench_buf_adds(&j, "{\n    \"name\": \"x\",\n    \"version\": "
			     "\"1.0.0\",\n    \"dependencies\": {\n        "
			     "\"zod\": \"3.0.0\"\n    }\n}\n");
	CHECK_INT(pmbench_json_find(j.ptr, version, &a, &b), 1);
	CHECK_INT(b - a, strlen("\"1.0.0\""));
	CHECK_INT(pmbench_json_find(j.ptr, priv, &a, &b), 0);
	CHECK_INT(pmbench_json_set(&j, priv, "true", "version"), 0);
	CHECK_CONTAINS(j.ptr, "\"version\": \"1.0.0\",\n    \"private\": "
			      "true,\n    \"dependencies\"");
	CHECK_INT(pmbench_json_set(&j, dep, "\"workspace:*\"", NULL), 0);
	CHECK_CONTAINS(j.ptr, "        \"zod\": \"workspace:*\"\n    }\n}\n");
	pmbench_buf_reset(&j);
	pmbench_buf_adds(&j, "{\"a\": ");
	CHECK_INT(pmbench_json_set(&j, priv, "true", NULL), PMBENCH_EINVALID);
	CHECK_STR(j.ptr, "{\"a\": ");
	pmbench_error_clear();
	pmbench_buf_release(&j);
}

TEST(workspace_fixture_is_read_with_its_internal_dependencies)
{
	struct pmbench_monorepo m = PMBENCH_MONOREPO_INIT;
	struct pmbench_strvec out = PMBENCH_STRVEC_INIT;
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	const char *dir;

	check_sandbox();
	dir = fixture_copy("ws-read");
	CHECK(*dir);
	CHECK_INT(pmbench_monorepo_read(&m, dir), 0);
	CHECK_STR(m.listed_in, "package.json");
	CHECK_INT(m.root_private, 0);
	CHECK_INT(m.pkgs_nr, 3);
	CHECK_STR(m.pkgs[0].dir, "packages/api");
	CHECK(pmbench_monorepo_find(&m, "@pmbench-ws/shared"));
	CHECK(!pmbench_monorepo_find(&m, "express"));
	CHECK_INT(m.refs_nr, 2);
	CHECK_STR(m.refs[0].dir, "packages/api");
	CHECK_STR(m.refs[0].range, "1.0.0");
	CHECK_STR(m.refs[1].range, "^1.0.0");
	CHECK(pmbench_monorepo_range_matches(&m.pkgs[m.refs[1].pkg], "^1.0.0"));
	CHECK(!pmbench_monorepo_range_matches(&m.pkgs[m.refs[1].pkg],
					      "^2.0.0"));
	/* The build check looks in every package's output folder. */
	pmbench_buf_path(&p, dir, "packages/api/dist");
	pmbench_fs_mkdirp(p.ptr, 0755);
	pmbench_buf_reset(&p);
	pmbench_buf_path(&p, dir, "packages/shared/dist");
	pmbench_fs_mkdirp(p.ptr, 0755);
	CHECK_INT(pmbench_monorepo_outputs(&out, dir, "dist"), 0);
	CHECK_INT(out.nr, 2);
	CHECK(pmbench_strvec_find(&out, "packages/api/dist") >= 0);
	CHECK(pmbench_strvec_find(&out, "packages/shared/dist") >= 0);
	pmbench_strvec_release(&out);
	pmbench_buf_release(&p);
	pmbench_monorepo_release(&m);
}

/* pnpm: its workspace file, then the choice between link and protocol. */
TEST(pnpm_recipe_states_its_choice)
{
	struct pmbench_recipe r = PMBENCH_RECIPE_INIT;
	const struct pmbench_recipe_change *c;
	const char *dir;

	check_sandbox();
	dir = fixture_copy("ws-pnpm");
	CHECK(*dir);
	CHECK_INT(pmbench_recipe_run(&r, dir, pmbench_pm_get("pnpm"), "12.23.0",
				     NULL),
		  0);
	c = change(&r, "pnpm-workspace");
	CHECK(c && c->applied);
	CHECK_CONTAINS(c->diff, "+++ b/pnpm-workspace.yaml");
	CHECK_CONTAINS(c->diff, "+  - 'packages/*'");
	c = change(&r, "link-workspace-packages");
	CHECK(c && c->applied && c->choice);
	CHECK_CONTAINS(c->diff, "+linkWorkspacePackages: true");
	c = change(&r, "workspace-protocol");
	CHECK(c && !c->applied && c->choice);
	CHECK_CONTAINS(c->diff, "+    \"@pmbench-ws/shared\": \"workspace:*\"");
	CHECK_CONTAINS(c->diff, "\"workspace:^\"");
	c = change(&r, "package-manager");
	CHECK(c && c->applied);
	CHECK_CONTAINS(c->diff, "\"packageManager\": \"pnpm@12.23.0\"");
	/* Written: the applied ones only. */
	CHECK_CONTAINS(text_of(dir, "pnpm-workspace.yaml"),
		       "linkWorkspacePackages: true");
	CHECK_CONTAINS(text_of(dir, "packages/api/package.json"),
		       "\"@pmbench-ws/shared\": \"1.0.0\"");
	pmbench_recipe_release(&r);

	/* --choose workspace-protocol: the other way round. */
	dir = fixture_copy("ws-pnpm-protocol");
	CHECK_INT(pmbench_recipe_run(
			  &r, dir, pmbench_pm_get("pnpm"), "12.23.0",
			  (const char *const[]){ "workspace-protocol", NULL }),
		  0);
	CHECK(change(&r, "workspace-protocol")->applied);
	CHECK(!change(&r, "link-workspace-packages")->applied);
	CHECK_CONTAINS(text_of(dir, "packages/api/package.json"),
		       "\"@pmbench-ws/shared\": \"workspace:*\"");
	CHECK_CONTAINS(text_of(dir, "packages/cli/package.json"),
		       "\"@pmbench-ws/shared\": \"workspace:^\"");
	CHECK(!strstr(text_of(dir, "pnpm-workspace.yaml"),
		      "linkWorkspacePackages"));
	CHECK(pmbench_recipe_is_choice("workspace-protocol"));
	CHECK(!pmbench_recipe_is_choice("private"));
	pmbench_recipe_release(&r);
}

/* yarn 1 gets a private root; npm and bun take the fixture as it is. */
TEST(other_recipes)
{
	struct pmbench_recipe r = PMBENCH_RECIPE_INIT;
	const struct pmbench_recipe_change *c;
	const char *dir;

	check_sandbox();
	dir = fixture_copy("ws-yarn");
	CHECK_INT(pmbench_recipe_run(&r, dir, pmbench_pm_get("yarn"), "1.22.22",
				     NULL),
		  0);
	c = change(&r, "private");
	CHECK(c && c->applied);
	CHECK_CONTAINS(c->diff, "+  \"private\": true,");
	CHECK(!change(&r, "plain-versions"));
	CHECK_CONTAINS(text_of(dir, "package.json"), "\"private\": true");
	pmbench_recipe_release(&r);

	dir = fixture_copy("ws-bun");
	CHECK_INT(pmbench_recipe_run(&r, dir, pmbench_pm_get("bun"), "1.4.5",
				     NULL),
		  0);
	CHECK_INT(r.changes_nr, 0);
	pmbench_recipe_release(&r);

	/* After pnpm's protocol, npm's recipe takes it back. */
	dir = fixture_copy("ws-npm");
	CHECK_INT(pmbench_recipe_run(
			  &r, dir, pmbench_pm_get("pnpm"), NULL,
			  (const char *const[]){ "workspace-protocol", NULL }),
		  0);
	pmbench_recipe_release(&r);
	CHECK_INT(pmbench_recipe_run(&r, dir, pmbench_pm_get("npm"), NULL,
				     NULL),
		  0);
	c = change(&r, "plain-versions");
	CHECK(c && c->applied);
	CHECK_CONTAINS(text_of(dir, "packages/api/package.json"),
		       "\"@pmbench-ws/shared\": \"1.0.0\"");
	CHECK_CONTAINS(text_of(dir, "packages/cli/package.json"),
		       "\"@pmbench-ws/shared\": \"^1.0.0\"");
	pmbench_recipe_release(&r);
}

/* pnpm's 404 for the repo's own package names its fix; another does not. */
TEST(failure_names_the_fix)
{
	const char *out =
		" ERR_PNPM_FETCH_404  GET http://127.0.0.1:4873/"
		"@pmbench-ws%2Fshared: Not Found - 404\n\n"
		"@pmbench-ws/shared is not in the npm registry, or you have no "
		"permission to fetch it.\n";
	const char *other =
		" ERR_PNPM_FETCH_404  GET http://127.0.0.1:4873/nope: Not Found"
		" - 404\n\nnope is not in the npm registry, or you have no "
		"permission to fetch it.\n";
	const struct pmbench_pm *pnpm = pmbench_pm_get("pnpm");
	const char *dir, *hint;

	check_sandbox();
	dir = fixture_copy("ws-fix");
	hint = pmbench_pm_hint_in(pnpm, out, dir);
	CHECK(hint);
	CHECK_CONTAINS(hint, "linkWorkspacePackages: true");
	CHECK_CONTAINS(hint, "workspace:*");
	CHECK_CONTAINS(hint, "pmbench migrate --to pnpm");
	hint = pmbench_pm_hint_in(pnpm, other, dir);
	CHECK(!hint || !strstr(hint, "linkWorkspacePackages"));
	hint = pmbench_pm_hint_in(pnpm, out, NULL);
	CHECK(!hint || !strstr(hint, "linkWorkspacePackages"));
	hint = pmbench_pm_hint_in(pmbench_pm_get("yarn"),
				  "error Workspaces can only be enabled in "
				  "private projects.",
				  dir);
	CHECK(hint);
	CHECK_CONTAINS(hint, "\"private\": true");
}

TEST(generated_workspace_is_deterministic)
{
	struct pmbench_gen g;
	struct pmbench_buf name = PMBENCH_BUF_INIT, spec = PMBENCH_BUF_INIT;
	struct pmbench_monorepo m = PMBENCH_MONOREPO_INIT;
	char *first;

	check_sandbox();
	CHECK(pmbench_gen_is("gen:workspace:10"));
	CHECK(!pmbench_gen_is("workspaces"));
	CHECK_INT(pmbench_gen_parse(&g, "gen:workspace:10"), 0);
	CHECK_INT(g.packages, 10);
	CHECK_INT(g.seed, PMBENCH_GEN_DEFAULT_SEED);
	pmbench_gen_names(&name, &spec, &g);
	CHECK_STR(name.ptr, "gen-workspace-10");
	CHECK_STR(spec.ptr, "gen:workspace:10:1");
	CHECK_INT(pmbench_gen_parse(&g, "gen:workspace:0"), PMBENCH_EINVALID);
	pmbench_error_clear();
	CHECK_INT(pmbench_gen_parse(&g, "gen:tree:5"), PMBENCH_EINVALID);
	pmbench_error_clear();

	CHECK_INT(pmbench_gen_parse(&g, "gen:workspace:10:7"), 0);
	CHECK_INT(pmbench_gen_write(&g, check_path("gen-a")), 0);
	CHECK_INT(pmbench_gen_write(&g, check_path("gen-b")), 0);
	CHECK_INT(pmbench_monorepo_read(&m, check_path("gen-a")), 0);
	CHECK_INT(m.pkgs_nr, 10);
	CHECK(m.root_private);
	CHECK(m.refs_nr >= 9);
	first = pmbench_xstrdup(
		text_of(check_path("gen-a"), "packages/pkg-010/package.json"));
	CHECK(*first);
	CHECK_STR(text_of(check_path("gen-b"), "packages/pkg-010/package.json"),
		  first);
	free(first);
	pmbench_monorepo_release(&m);
	pmbench_buf_release(&name);
	pmbench_buf_release(&spec);
}

CHECK_MAIN(CASE(diff_is_a_patch), CASE(diff_hides_credentials_and_applies),
	   CASE(json_edits_keep_the_layout),
	   CASE(workspace_fixture_is_read_with_its_internal_dependencies),
	   CASE(pnpm_recipe_states_its_choice), CASE(other_recipes),
	   CASE(failure_names_the_fix),
	   CASE(generated_workspace_is_deterministic))
