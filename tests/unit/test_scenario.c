#include "pmbench/common.h"

#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/scenario.h"
#include "pmbench/workspace.h"

TEST(names_round_trip)
{
	unsigned s;

	for (unsigned i = 0; i < 8; i++) {
		CHECK_INT(pmbench_scenario_parse(&s, pmbench_scenario_name(i)),
			  0);
		CHECK_INT(s, i);
	}
	CHECK_INT(pmbench_scenario_parse(&s, "node_modules+cache"), 0);
	CHECK_STR(pmbench_scenario_name(s), "cache+node_modules");
	CHECK_INT(pmbench_scenario_parse(&s, "cache+cache"), PMBENCH_EINVALID);
	CHECK_INT(pmbench_scenario_parse(&s, "warm"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "unknown scenario 'warm'");
	CHECK_INT(pmbench_scenario_parse(&s, ""), PMBENCH_EINVALID);
}

static void put(const char *root, const char *rel, const char *text)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT, d = PMBENCH_BUF_INIT;

	pmbench_buf_path(&p, root, rel);
	pmbench_buf_add(&d, p.ptr, (size_t)(strrchr(p.ptr, '/') - p.ptr));
	pmbench_fs_mkdirp(d.ptr, 0755);
	pmbench_fs_write_atomic(p.ptr, text, strlen(text));
	pmbench_buf_release(&p);
	pmbench_buf_release(&d);
}

static int has(const char *root, const char *rel)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int e;

	pmbench_buf_path(&p, root, rel);
	e = pmbench_fs_exists(p.ptr);
	pmbench_buf_release(&p);
	return e;
}

static ino_t inode(const char *root, const char *rel)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	struct stat st;

	pmbench_buf_path(&p, root, rel);
	if (lstat(p.ptr, &st) < 0)
		st.st_ino = 0;
	pmbench_buf_release(&p);
	return st.st_ino;
}

/*
 * A primed pnpm snapshot by hand: its lockfile, a store file hard-linked
 * into node_modules, a workspace package's node_modules. Every state must
 * then be exactly what it says.
 */
TEST(every_state_exactly)
{
	const char *sb = check_sandbox();
	struct pmbench_workspace ws = PMBENCH_WORKSPACE_INIT;
	struct pmbench_buf src = PMBENCH_BUF_INIT, cache = PMBENCH_BUF_INIT;
	struct pmbench_buf a = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;
	const char *shipped;

	pmbench_buf_addf(&src, "%s/source", sb);
	pmbench_buf_addf(&cache, "%s/cache", sb);
	put(src.ptr, "package.json", "{}");
	put(src.ptr, "packages/a/package.json", "{}");
	/* Another PM's lockfile ships with the fixture: it must never show. */
	put(src.ptr, "package-lock.json", "{}");
	pmbench_fs_set_sandbox(cache.ptr);

	pmbench_workspace_init(&ws, pmbench_pm_get("pnpm"), cache.ptr, "fx",
			       src.ptr, NULL);
	CHECK_INT(pmbench_workspace_prepare_prime(&ws, &shipped), 0);
	CHECK(!shipped);
	CHECK(!has(ws.run, "package-lock.json"));
	/* What a pnpm install would leave. */
	put(ws.run, "pnpm-lock.yaml", "lockfileVersion: 9\n");
	put(ws.cache, "pnpm-store/v10/files/ab/cdef", "content");
	put(ws.run, "packages/a/node_modules/.modules.yaml", "x");
	pmbench_fs_mkdirp(ws.run, 0755);
	pmbench_buf_addf(&a, "%s/pnpm-store/v10/files/ab/cdef", ws.cache);
	pmbench_buf_addf(&b, "%s/node_modules/.pnpm/x/index.js", ws.run);
	put(ws.run, "node_modules/.pnpm/x/placeholder", "");
	CHECK_INT(link(a.ptr, b.ptr), 0);
	CHECK_INT(pmbench_workspace_save_primed(&ws), 0);
	CHECK(!pmbench_fs_exists(ws.run));
	CHECK_STR(pmbench_workspace_primed_lockfile(&ws), "pnpm-lock.yaml");

	for (unsigned s = 0; s < 8; s++) {
		int c = (s & PMBENCH_STATE_CACHE) != 0;
		int l = (s & PMBENCH_STATE_LOCKFILE) != 0;
		int n = (s & PMBENCH_STATE_NODE_MODULES) != 0;

		CHECK_INT(pmbench_workspace_prepare(&ws, s), 0);
		CHECK(has(ws.run, "package.json"));
		CHECK(!has(ws.run, "package-lock.json"));
		CHECK_INT(has(ws.run, "pnpm-lock.yaml"), l);
		CHECK_INT(has(ws.cache, "pnpm-store/v10/files/ab/cdef"), c);
		CHECK(has(ws.cache, "home"));
		CHECK_INT(has(ws.run, "node_modules"), n);
		CHECK_INT(has(ws.run, "packages/a/node_modules/.modules.yaml"),
			  n);
		if (c && n)
			CHECK(inode(ws.cache, "pnpm-store/v10/files/ab/cdef") ==
			      inode(ws.run, "node_modules/.pnpm/x/index.js"));
	}
	/* The snapshot itself is never changed by a preparation. */
	CHECK(has(ws.primed, "pnpm-lock.yaml"));
	CHECK(has(ws.primed_cache, "pnpm-store/v10/files/ab/cdef"));
	{
		uint64_t bytes, files;

		CHECK_INT(pmbench_workspace_prepare(&ws,
						    PMBENCH_STATE_NODE_MODULES),
			  0);
		CHECK_INT(pmbench_workspace_node_modules(&ws, &bytes, &files),
			  0);
		CHECK_INT(files, 3);
	}
	pmbench_workspace_release(&ws);
	pmbench_buf_release(&src);
	pmbench_buf_release(&cache);
	pmbench_buf_release(&a);
	pmbench_buf_release(&b);
}

TEST(missing_lockfile_is_a_clear_error)
{
	const char *sb = check_sandbox();
	struct pmbench_workspace ws = PMBENCH_WORKSPACE_INIT;
	struct pmbench_buf src = PMBENCH_BUF_INIT, cache = PMBENCH_BUF_INIT;
	const char *shipped;

	pmbench_buf_addf(&src, "%s/source", sb);
	pmbench_buf_addf(&cache, "%s/cache", sb);
	put(src.ptr, "package.json", "{}");
	pmbench_fs_set_sandbox(cache.ptr);
	pmbench_workspace_init(&ws, pmbench_pm_get("yarn-berry"), cache.ptr,
			       "fx", src.ptr, NULL);
	CHECK_INT(pmbench_workspace_prepare_prime(&ws, &shipped), 0);
	/* yarn berry's project root is pinned by an empty yarn.lock. */
	CHECK(has(ws.run, "yarn.lock"));
	CHECK_INT(pmbench_workspace_save_primed(&ws), 0);
	CHECK(!pmbench_workspace_primed_lockfile(&ws));
	CHECK_INT(pmbench_workspace_prepare(&ws, PMBENCH_STATE_LOCKFILE),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "wrote no lockfile");
	CHECK_INT(pmbench_workspace_prepare(&ws, PMBENCH_STATE_NODE_MODULES),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "left no node_modules");
	pmbench_workspace_release(&ws);
	pmbench_buf_release(&src);
	pmbench_buf_release(&cache);
}

CHECK_MAIN(CASE(names_round_trip), CASE(every_state_exactly),
	   CASE(missing_lockfile_is_a_clear_error))
