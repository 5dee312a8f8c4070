#include "pmbench/common.h"

#include <stdio.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

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
	pmbench_buf_addf(&j, "{\"name\":\"%s\",\"version\":\"%s\"%s%s%s}", name,
			 version, scripts ? ",\"scripts\":" : "",
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

/*
 * The variants' stores: npm's linked .store (scoped ids nested in
 * @scope/), bun's isolated .bun, yarn 4's pnpm linker (.store/<id>/package).
 */
TEST(variant_store_layouts)
{
	const char *root = check_sandbox();
	struct pmbench_resolution r = PMBENCH_RESOLUTION_INIT;

	pkg(root,
	    "npm/node_modules/.store/left-pad@1.3.0-AbC/node_modules/"
	    "left-pad",
	    "left-pad", "1.3.0", NULL);
	pkg(root, "npm/node_modules/.store/@s/b@2.0.0-XyZ/node_modules/@s/b",
	    "@s/b", "2.0.0", "{\"install\":\"node-gyp rebuild\"}");
	link_to(root, ".store/left-pad@1.3.0-AbC/node_modules/left-pad",
		"npm/node_modules/left-pad");
	pkg(root, "bun/node_modules/.bun/@s+b@2.0.0/node_modules/@s/b", "@s/b",
	    "2.0.0", NULL);
	pkg(root, "yarn/node_modules/.store/zod-npm-3.25.76-0e3c/package",
	    "zod", "3.25.76", NULL);
	pkg(root, "yarn/node_modules/.store/@s-c-npm-1.0.0-99/package", "@s/c",
	    "1.0.0", NULL);
	/* Its dependencies: links beside the package, never walked. */
	pmbench_fs_mkdirp(check_path("yarn/node_modules/.store/"
				     "@s-c-npm-1.0.0-99/node_modules"),
			  0755);
	link_to(root, "../../zod-npm-3.25.76-0e3c/package",
		"yarn/node_modules/.store/@s-c-npm-1.0.0-99/node_modules/zod");

	CHECK_INT(pmbench_resolution_scan(&r, root), 0);
	CHECK_INT(r.nr, 4);
	CHECK_STR(r.pkgs[0].name, "@s/b");
	CHECK_INT(r.pkgs[0].copies, 2);
	CHECK(r.pkgs[0].has_script);
	CHECK_STR(r.pkgs[1].name, "@s/c");
	CHECK_STR(r.pkgs[2].name, "left-pad");
	CHECK_INT(r.pkgs[2].copies, 1);
	CHECK_STR(r.pkgs[3].name, "zod");
	CHECK_STR(r.pkgs[3].path, "yarn/node_modules/.store/"
				  "zod-npm-3.25.76-0e3c/package");
	pmbench_resolution_release(&r);
}

/* A zip archive like yarn's cache: `files` are name, content pairs. */
static void write_zip(const char *path, const char *const *files)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();

	archive_write_set_format_zip(a);
	if (archive_write_open_filename(a, path) != ARCHIVE_OK)
		pmbench_die("zip %s", path);
	for (; files[0]; files += 2) {
		archive_entry_clear(e);
		archive_entry_set_pathname(e, files[0]);
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 0644);
		archive_entry_set_size(e, (la_int64_t)strlen(files[1]));
		archive_write_header(a, e);
		archive_write_data(a, files[1], strlen(files[1]));
	}
	archive_entry_free(e);
	archive_write_close(a);
	archive_write_free(a);
}

/* `json` quoted the way yarn 4 embeds it in .pnp.cjs. */
static void write_pnp_cjs(const char *path, const char *json)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_adds(&b, "#!/usr/bin/env node\n/* eslint-disable */\n"
			     "\"use strict\";\n\nconst RAW_RUNTIME_STATE =\n'");
	for (const char *c = json; *c; c++) {
		if (*c == '\\' || *c == '\'' || *c == '\n')
			pmbench_buf_addch(&b, '\\');
		pmbench_buf_addch(&b, *c);
	}
	pmbench_buf_adds(&b, "';\n\nfunction $$SETUP_STATE(h, basePath) {\n"
			     "  return h(JSON.parse(RAW_RUNTIME_STATE));\n}\n");
	if (pmbench_fs_write_atomic(path, b.ptr, b.len) < 0)
		pmbench_die("write %s", path);
	pmbench_buf_release(&b);
}

/*
 * Plug'n'Play: no node_modules; the map in .pnp.cjs names every package,
 * in yarn's cache zips (install scripts read inside them) or unplugged.
 * Another platform's package (never fetched), virtual instances and
 * workspaces are not installed packages; an alias is its package.
 */
TEST(plug_n_play_map)
{
	const char *root = check_sandbox();
	struct pmbench_resolution r = PMBENCH_RESOLUTION_INIT;
	struct pmbench_strvec scripts = PMBENCH_STRVEC_INIT;
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	static const char *const esbuild[] = {
		"node_modules/esbuild/",
		"",
		"node_modules/esbuild/package.json",
		"{\"name\":\"esbuild\",\"version\":\"0.28.2\",\"scripts\":"
		"{\"postinstall\":\"node install.js\"}}",
		"node_modules/esbuild/install.js",
		"// it's 'quoted'\n",
		NULL,
	};
	static const char *const express[] = {
		"node_modules/express/package.json",
		"{\"name\":\"express\",\"version\":\"4.22.3\"}",
		NULL,
	};

	pmbench_fs_mkdirp(check_path("cache"), 0755);
	pmbench_fs_mkdirp(check_path("app"), 0755);
	write_zip(check_path("cache/esbuild-npm-0.28.2-cf50-10c0.zip"),
		  esbuild);
	write_zip(check_path("cache/express-npm-4.22.3-0e3c-10c0.zip"),
		  express);
	pkg(root,
	    "app/.yarn/unplugged/fsevents-npm-2.3.3-1a/node_modules/"
	    "fsevents",
	    "fsevents", "2.3.3", "{\"install\":\"node-gyp rebuild\"}");
	pmbench_buf_path(&p, root, "app/.pnp.cjs");
	write_pnp_cjs(
		p.ptr,
		"{\n  \"__info\": [\"it's generated\"],\n"
		"  \"ignorePatternData\": \"(^(?:\\\\.yarn\\\\/sdks))\",\n"
		"  \"packageRegistryData\": [\n"
		"    [null, [[null, {\"packageLocation\": \"./\", "
		"\"linkType\": \"SOFT\"}]]],\n"
		"    [\"esbuild\", [[\"npm:0.28.2\", {\"packageLocation\": "
		"\"../cache/esbuild-npm-0.28.2-cf50-10c0.zip/node_modules/"
		"esbuild/\", \"linkType\": \"HARD\"}]]],\n"
		"    [\"express\", [[\"npm:4.22.3\", {\"packageLocation\": "
		"\"../cache/express-npm-4.22.3-0e3c-10c0.zip/node_modules/"
		"express/\", \"linkType\": \"HARD\"}],\n"
		"      [\"virtual:abc#npm:4.22.3\", {\"packageLocation\": "
		"\"./.yarn/__virtual__/express-virtual-1/2/cache/express-npm-"
		"4.22.3-0e3c-10c0.zip/node_modules/express/\"}]]],\n"
		"    [\"fsevents\", [[\"npm:2.3.3\", {\"packageLocation\": "
		"\"./.yarn/unplugged/fsevents-npm-2.3.3-1a/node_modules/"
		"fsevents/\"}]]],\n"
		"    [\"@esbuild/aix-ppc64\", [[\"npm:0.28.2\", "
		"{\"packageLocation\": \"./.yarn/unplugged/@esbuild-aix-ppc64-"
		"npm-0.28.2-7/node_modules/@esbuild/aix-ppc64/\"}]]],\n"
		"    [\"string-width-cjs\", [[\"npm:string-width@4.2.3\", "
		"{\"packageLocation\": \"../cache/string-width-npm-4.2.3-9-"
		"10c0.zip/node_modules/string-width/\"}]]],\n"
		"    [\"lib\", [[\"workspace:packages/lib\", "
		"{\"packageLocation\": \"./packages/lib/\"}]]]\n"
		"  ]\n}\n");

	CHECK_INT(pmbench_resolution_scan(&r, check_path("app")), 0);
	/* string-width's zip is missing from a cache that is there. */
	CHECK_INT(r.nr, 3);
	CHECK_STR(r.pkgs[0].name, "esbuild");
	CHECK_STR(r.pkgs[0].version, "0.28.2");
	CHECK(r.pkgs[0].has_script);
	CHECK_STR(r.pkgs[0].path, "../cache/esbuild-npm-0.28.2-cf50-10c0.zip/"
				  "node_modules/esbuild");
	CHECK_STR(r.pkgs[1].name, "express");
	CHECK_INT(r.pkgs[1].copies, 1);
	CHECK(!r.pkgs[1].has_script);
	CHECK_STR(r.pkgs[2].name, "fsevents");
	CHECK(r.pkgs[2].has_script);
	pmbench_resolution_scripts(&r, &scripts);
	CHECK_INT(scripts.nr, 2);
	pmbench_resolution_release(&r);

	/* The cache moved away: its zips count, without scripts. */
	{
		char from[4200];

		snprintf(from, sizeof(from), "%s", check_path("cache"));
		CHECK_INT(rename(from, check_path("moved")), 0);
	}
	CHECK_INT(pmbench_resolution_scan(&r, check_path("app")), 0);
	CHECK_INT(r.nr, 4);
	CHECK_STR(r.pkgs[3].name, "string-width");
	CHECK_STR(r.pkgs[3].version, "4.2.3");
	CHECK(!r.pkgs[0].has_script);
	pmbench_resolution_release(&r);

	/* .pnp.data.json (pnpEnableInlining: false) is read as it is. */
	pmbench_fs_mkdirp(check_path("data"), 0755);
	check_write("data/.pnp.data.json",
		    "{\"packageRegistryData\": [[\"zod\", [[\"npm:3.25.76\", "
		    "{\"packageLocation\": \"./z/\"}]]]]}");
	pmbench_fs_mkdirp(check_path("data/z"), 0755);
	CHECK_INT(pmbench_resolution_scan(&r, check_path("data")), 0);
	CHECK_INT(r.nr, 1);
	CHECK_STR(r.pkgs[0].path, "z");
	pmbench_resolution_release(&r);
	pmbench_strvec_release(&scripts);
	pmbench_buf_release(&p);
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

CHECK_MAIN(CASE(npm_layout), CASE(pnpm_and_deno_layouts),
	   CASE(variant_store_layouts), CASE(plug_n_play_map), CASE(diff),
	   CASE(semver))
