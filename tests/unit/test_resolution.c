#include "pmbench/common.h"

#include <unistd.h>

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/resolution.h"

/* Write <root>/<dir>/package.json for name@version (scripts optional). */
static void pkg(const char *root, const char *dir, const char *name,
		const char *version, const char *scripts)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT, j = PMBENCH_BUF_INIT;

	pmbench_buf_path(&p, root, dir);
	if (pmbench_fs_mkdirp(p.ptr, 0755) < 0)
		pmbench_die("mkdir %s", p.ptr);
	pmbench_buf_addf(&j, "{\"name\":\"%s\",\"version\":\"%s\"%s%s%s}",
			 name, version, scripts ? ",\"scripts\":" : "",
			 scripts ? scripts : "", "");
	pmbench_buf_adds(&p, "/package.json");
	if (pmbench_fs_write_atomic(p.ptr, j.ptr, j.len) < 0)
		pmbench_die("write %s", p.ptr);
	pmbench_buf_release(&p);
	pmbench_buf_release(&j);
}

static void link_to(const char *root, const char *target, const char *at)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;

	pmbench_buf_path(&p, root, at);
	if (symlink(target, p.ptr) < 0)
		pmbench_die("symlink %s", p.ptr);
	pmbench_buf_release(&p);
}

TEST(npm_layout)
{
	const char *root = check_sandbox();
	struct pmbench_resolution r = PMBENCH_RESOLUTION_INIT;
	struct pmbench_strvec scripts = PMBENCH_STRVEC_INIT;
	const struct pmbench_package *p;

	pkg(root, "node_modules/left-pad", "left-pad", "1.3.0", NULL);
	pkg(root, "node_modules/@scope/tool", "@scope/tool", "2.0.0",
	    "{\"postinstall\":\"node x.js\"}");
	/* A nested copy at another version, and a duplicate of one. */
	pkg(root, "node_modules/@scope/tool/node_modules/left-pad", "left-pad",
	    "1.1.0", NULL);
	pkg(root, "node_modules/a/node_modules/left-pad", "left-pad", "1.3.0",
	    NULL);
	pkg(root, "node_modules/a", "a", "0.1.0", "{\"test\":\"jest\"}");
	/* A workspace with its own node_modules, and a link to it. */
	pkg(root, "packages/web", "web", "1.0.0", NULL);
	pkg(root, "packages/web/node_modules/vite", "vite", "5.4.1", NULL);
	link_to(root, "../packages/web", "node_modules/web");
	/* Folders that are not packages. */
	pkg(root, "node_modules/.cache/x", "cached", "1.0.0", NULL);
	check_write("node_modules/.package-lock.json", "{}");
	pkg(root, "node_modules/broken", "broken", "", NULL);

	CHECK_INT(pmbench_resolution_scan(&r, root), 0);
	CHECK_INT(r.nr, 5);
	CHECK_STR(r.pkgs[0].name, "@scope/tool");
	CHECK_STR(r.pkgs[1].name, "a");
	CHECK_STR(r.pkgs[2].name, "left-pad");
	CHECK_STR(r.pkgs[2].version, "1.1.0");
	CHECK_STR(r.pkgs[3].version, "1.3.0");
	CHECK_INT(r.pkgs[3].copies, 2);
	CHECK_STR(r.pkgs[3].path, "node_modules/a/node_modules/left-pad");
	CHECK_STR(r.pkgs[4].name, "vite");
	CHECK_STR(r.pkgs[4].path, "packages/web/node_modules/vite");
	p = pmbench_resolution_find(&r, "@scope/tool", "2.0.0");
	CHECK(p && p->has_script);
	CHECK(!pmbench_resolution_find(&r, "web", "1.0.0"));
	CHECK(!pmbench_resolution_find(&r, "cached", "1.0.0"));
	pmbench_resolution_scripts(&r, &scripts);
	CHECK_INT(scripts.nr, 1);
	CHECK_STR(scripts.v[0], "@scope/tool@2.0.0");
	pmbench_strvec_release(&scripts);
	pmbench_resolution_release(&r);
}

TEST(pnpm_and_deno_layouts)
{
	const char *root = check_sandbox();
	struct pmbench_resolution r = PMBENCH_RESOLUTION_INIT;

	pkg(root, "node_modules/.pnpm/left-pad@1.3.0/node_modules/left-pad",
	    "left-pad", "1.3.0", NULL);
	pkg(root,
	    "node_modules/.pnpm/@babel+core@7.24.0/node_modules/@babel/core",
	    "@babel/core", "7.24.0", NULL);
	link_to(root, "../left-pad@1.3.0/node_modules/left-pad",
		"node_modules/.pnpm/@babel+core@7.24.0/node_modules/left-pad");
	link_to(root, ".pnpm/left-pad@1.3.0/node_modules/left-pad",
		"node_modules/left-pad");
	pkg(root, "node_modules/.pnpm/node_modules/hoisted", "hoisted", "1.0.0",
	    NULL);
	pkg(root, "app/node_modules/.deno/esbuild@0.25.0/node_modules/esbuild",
	    "esbuild", "0.25.0", "{\"postinstall\":\"node install.js\"}");

	CHECK_INT(pmbench_resolution_scan(&r, root), 0);
	CHECK_INT(r.nr, 3);
	CHECK_STR(r.pkgs[0].name, "@babel/core");
	CHECK_STR(r.pkgs[1].name, "esbuild");
	CHECK(r.pkgs[1].has_script);
	CHECK_STR(r.pkgs[2].name, "left-pad");
	CHECK_INT(r.pkgs[2].copies, 1);
	pmbench_resolution_release(&r);
	CHECK(pmbench_resolution_scan(&r, check_path("missing")) < 0);
	CHECK_INT(r.nr, 0);
}

static void add(struct pmbench_resolution *r, const char *name,
		const char *version)
{
	PMBENCH_ALLOC_GROW(r->pkgs, r->nr + 1, r->alloc);
	memset(&r->pkgs[r->nr], 0, sizeof(r->pkgs[0]));
	r->pkgs[r->nr].name = pmbench_xstrdup(name);
	r->pkgs[r->nr].version = pmbench_xstrdup(version);
	r->pkgs[r->nr].path = pmbench_xstrdup("");
	r->nr++;
}

TEST(diff)
{
	struct pmbench_resolution a = PMBENCH_RESOLUTION_INIT;
	struct pmbench_resolution b = PMBENCH_RESOLUTION_INIT;
	struct pmbench_resolution_diff d = PMBENCH_RESOLUTION_DIFF_INIT;
	const struct pmbench_change *c;

	/* Sorted by name, then version, as a scan leaves them. */
	add(&a, "a", "1.0.0");
	add(&a, "gone", "2.0.0");
	add(&a, "left-pad", "1.1.0");
	add(&a, "multi", "1.0.0");
	add(&a, "multi", "2.0.0");
	add(&a, "react", "17.0.2");
	add(&b, "a", "1.0.0");
	add(&b, "left-pad", "1.3.0");
	add(&b, "multi", "2.0.0");
	add(&b, "multi", "3.1.0");
	add(&b, "multi", "3.2.0");
	add(&b, "new", "0.0.1");
	add(&b, "react", "18.3.1");
	pmbench_resolution_diff(&d, &a, &b);
	CHECK_INT(d.identical, 2);
	CHECK_INT(d.changed, 3);
	CHECK_INT(d.only_source, 1);
	CHECK_INT(d.only_target, 2);
	CHECK_INT(d.changes_nr, 6);
	c = &d.changes[0];
	CHECK(c->kind == PMBENCH_CHANGE_ONLY_SOURCE);
	CHECK_STR(c->name, "gone");
	CHECK(c->to == NULL);
	c = &d.changes[1];
	CHECK(c->kind == PMBENCH_CHANGE_VERSION);
	CHECK_STR(c->from, "1.1.0");
	CHECK_STR(c->to, "1.3.0");
	CHECK_STR(c->level, "minor");
	/* multi: 2.0.0 in both; 1.0.0 pairs with 3.1.0; 3.2.0 is new. */
	c = &d.changes[2];
	CHECK_STR(c->name, "multi");
	CHECK_STR(c->from, "1.0.0");
	CHECK_STR(c->to, "3.1.0");
	CHECK_STR(c->level, "major");
	c = &d.changes[3];
	CHECK(c->kind == PMBENCH_CHANGE_ONLY_TARGET);
	CHECK_STR(c->to, "3.2.0");
	CHECK_STR(d.changes[4].name, "new");
	CHECK_STR(d.changes[5].name, "react");
	CHECK_STR(d.changes[5].level, "major");
	pmbench_resolution_diff_release(&d);

	/* A resolution against itself is identical. */
	pmbench_resolution_diff(&d, &b, &b);
	CHECK_INT(d.identical, b.nr);
	CHECK_INT(d.changes_nr, 0);
	pmbench_resolution_diff_release(&d);
	pmbench_resolution_release(&a);
	pmbench_resolution_release(&b);
}

TEST(semver)
{
	CHECK_STR(pmbench_semver_level("1.2.3", "2.0.0"), "major");
	CHECK_STR(pmbench_semver_level("1.2.3", "1.3.0"), "minor");
	CHECK_STR(pmbench_semver_level("1.2.3", "1.2.10"), "patch");
	CHECK_STR(pmbench_semver_level("1.2.3-beta.1", "1.2.3"), "other");
	CHECK_STR(pmbench_semver_level("1.2", "1.2.0"), "other");
	CHECK(pmbench_semver_cmp("1.2.10", "1.2.9") > 0);
	CHECK(pmbench_semver_cmp("1.10.0", "1.9.9") > 0);
	CHECK(pmbench_semver_cmp("1.0.0-rc.1", "1.0.0") < 0);
	CHECK(pmbench_semver_cmp("1.0.0", "1.0.0-rc.1") > 0);
	CHECK(pmbench_semver_cmp("1.0.0-alpha", "1.0.0-beta") < 0);
	CHECK(pmbench_semver_cmp("v2.0.0", "2.0.0") != 0);
	CHECK_INT(pmbench_semver_cmp("3.0.0", "3.0.0"), 0);
	CHECK(pmbench_semver_cmp("99999999999999999999999.0.0", "1.0.0") != 0);
}

CHECK_MAIN(CASE(npm_layout), CASE(pnpm_and_deno_layouts), CASE(diff),
	   CASE(semver))
