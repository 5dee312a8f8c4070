/*
 * The Node installation with the real PMs (label "online": the registry
 * is needed): a dependency that builds with node-gyp (a tiny addon
 * packed as a tarball, its install script `node-gyp rebuild`) installs
 * under npm, yarn 1 and bun with the pinned Node, although nodejs.org,
 * where node-gyp would download headers from, is out of reach: every
 * PM finds node-gyp and the Node's own headers. Then a repo's .nvmrc
 * asking for Node 22 gets a Node 22 installation from the registry,
 * which runs its scripts.
 */
#include "pmbench/common.h"

#include <archive.h>
#include <archive_entry.h>

#include "check.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/result.h"

/* The addon's package, as `npm pack` would make it. */
static void pack_addon(const char *path)
{
	static const char *const files[][2] = {
		{ "package/package.json",
		  "{\"name\":\"pmbench-addon\",\"version\":\"1.0.0\","
		  "\"main\":\"index.js\",\"gypfile\":true,"
		  "\"scripts\":{\"install\":\"node-gyp rebuild\"}}\n" },
		{ "package/binding.gyp",
		  "{\"targets\":[{\"target_name\":\"hello\","
		  "\"sources\":[\"hello.c\"]}]}\n" },
		{ "package/hello.c",
		  "#include <node_api.h>\n"
		  "static napi_value init(napi_env env, napi_value exports)\n"
		  "{\n\treturn exports;\n}\n"
		  "NAPI_MODULE(NODE_GYP_MODULE_NAME, init)\n" },
		{ "package/index.js",
		  "module.exports = require('./build/Release/hello.node');\n" },
	};
	struct archive *a = archive_write_new();

	archive_write_set_format_pax_restricted(a);
	archive_write_add_filter_gzip(a);
	if (archive_write_open_filename(a, path) != ARCHIVE_OK)
		pmbench_die("cannot write '%s'", path);
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(files); i++) {
		struct archive_entry *e = archive_entry_new();
		size_t n = strlen(files[i][1]);

		archive_entry_set_pathname(e, files[i][0]);
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 0644);
		archive_entry_set_size(e, (la_int64_t)n);
		archive_write_header(a, e);
		archive_write_data(a, files[i][1], n);
		archive_entry_free(e);
	}
	archive_write_close(a);
	archive_write_free(a);
}

static void bench(int *out, struct pmbench_result *r, const char *pms,
		  const char *task, const char *proj)
{
	struct h_run run;
	char out_path[4200], p[4200];

	*out = 0;
	snprintf(out_path, sizeof(out_path), "%s", h_write("result.json", ""));
	snprintf(p, sizeof(p), "%s", proj);
	h_pmbench(&run,
		  (const char *const[]){ "bench", "--pm", pms, "--task", task,
					 "--scenario", "clean", "--runs", "1",
					 "--warmup", "0", "--timeout", "10m",
					 "--out", out_path, p, NULL },
		  NULL);
	if (run.exit_code)
		fprintf(stderr, "%s\n", run.out.ptr);
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(r, out_path), 0);
	h_run_release(&run);
	*out = 1;
}

TEST(native_build_under_npm_yarn_bun)
{
	static const char *const pms[] = { "npm", "yarn", "bun" };
	struct pmbench_result r = PMBENCH_RESULT_INIT;

	h_setup();
	h_real_pms();
	h_write("app/package.json",
		"{\"name\":\"app\",\"version\":\"1.0.0\",\"private\":true,"
		"\"dependencies\":{\"pmbench-addon\":"
		"\"file:pmbench-addon-1.0.0.tgz\"},"
		"\"trustedDependencies\":[\"pmbench-addon\"]}\n");
	pack_addon(check_path("app/pmbench-addon-1.0.0.tgz"));
	H_CHECK_CALL(bench, &r, "npm,yarn,bun", "install", check_path("app"));
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(pms); i++) {
		const struct pmbench_cell *c = pmbench_result_find_cell(
			&r, "app", "install", "clean", pms[i]);

		CHECK(c && !c->prime_failure && c->samples_nr == 1);
		if (!c->samples[0].ok)
			check_fail(__FILE__, __LINE__, "%s: %s", pms[i],
				   c->samples[0].failure);
		CHECK_CONTAINS(c->node, "pinned default");
		CHECK_CONTAINS(c->scripts, "pmbench-addon@1.0.0");
	}
	pmbench_result_release(&r);
}

TEST(nvmrc_22_runs_under_node_22)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;

	h_setup();
	h_real_pms();
	h_write("app/package.json",
		"{\"name\":\"app\",\"version\":\"1.0.0\",\"private\":true,"
		"\"dependencies\":{\"is-number\":\"7.0.0\"},"
		"\"scripts\":{\"v\":\"node --version\"}}\n");
	h_write("app/.nvmrc", "22\n");
	H_CHECK_CALL(bench, &r, "npm", "run", check_path("app"));
	c = pmbench_result_find_cell(&r, "app", "run",
				     "cache+lockfile+node_modules", "npm");
	CHECK(c && c->samples_nr == 1 && c->samples[0].ok);
	CHECK_CONTAINS(c->node, "from .nvmrc: 22 -> 22.");
	CHECK_CONTAINS(c->runtime, "node v22.");
	CHECK_CONTAINS(c->command.v[0], "/node-22.");
	pmbench_result_release(&r);
}

CHECK_MAIN(CASE(native_build_under_npm_yarn_bun),
	   CASE(nvmrc_22_runs_under_node_22))
