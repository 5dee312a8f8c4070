/*
 * A PM at a version asked for (`--pm pnpm@9`, pmversion.h), from a fake
 * static registry serving fake pnpm releases (a shell script that runs
 * the fake PM saying that version): the newest release in the range is
 * installed into the toolchain's versions folder and benched as a cell
 * of its own; a second bench asks the registry nothing; a range the
 * registry lacks, or a tarball that does not match its integrity, is an
 * error that names it and leaves nothing installed; two pmbench at once
 * install it once (the lock).
 */
#include "pmbench/common.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fields.h"
#include "harness.h"
#include "pmbench/ctx.h"
#include "pmbench/fs.h"
#include "pmbench/pmversion.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"
#include "pmbench/sha512.h"

/*
 * What a release that needs Node 20 (8.15.0) does under another: it
 * stops, even for --version, as pnpm does on a Node it does not support
 * ("This version of pnpm requires at least Node.js v18.12").
 */
#define NEEDS_NODE_20                                                   \
	"case \"$(node --version)\" in v20.*) ;; *) echo \"needs node " \
	"20, not $(node --version)\" >&2; exit 1;; esac\n"

/*
 * The engines.node of the fake pnpm release `v`: 8.15.0 rules out the
 * fake pinned Node (h_fake_node(): 24.1.0).
 */
static const char *engines_of(const char *v)
{
	return strcmp(v, "8.15.0") ? ">=18.12" : "^20.1";
}

/* A fake pnpm release `v` as reg/pnpm/-/pnpm-<v>.tgz; its integrity. */
static void release(struct pmbench_buf *sri, const char *v)
{
	struct pmbench_buf sh = PMBENCH_BUF_INIT, pkg = PMBENCH_BUF_INIT;
	char path[256];

	pmbench_buf_addf(&sh,
			 "#!/bin/sh\n%sFAKEPM_NAME=pnpm FAKEPM_VERSION_PNPM=%s "
			 "exec \"$PMBENCH_FAKEPM\" \"$@\"\n",
			 strcmp(v, "8.15.0") ? "" : NEEDS_NODE_20, v);
	pmbench_buf_addf(&pkg,
			 "{\"name\":\"pnpm\",\"version\":\"%s\",\"bin\":"
			 "{\"pnpm\":\"bin/pnpm.cjs\"}}",
			 v);
	{
		const struct h_tgz_entry e[] = {
			{ "package/package.json", pkg.ptr, 0644 },
			/* Not executable in the tarball: pmbench makes it. */
			{ "package/bin/pnpm.cjs", sh.ptr, 0644 },
		};

		snprintf(path, sizeof(path), "reg/pnpm/-/pnpm-%s.tgz", v);
		h_make_tgz(sri, check_path(path), e, PMBENCH_ARRAY_SIZE(e));
	}
	pmbench_buf_release(&sh);
	pmbench_buf_release(&pkg);
}

/*
 * The registry's pnpm: 8.15.0 (for Node 20 only), 9.1.0, 9.15.0 and
 * 10.0.0 (`corrupt`: 9.15.0's tarball changed after its integrity was
 * taken).
 */
static void registry_files(int corrupt)
{
	static const char *const v[] = { "8.15.0", "9.1.0", "9.15.0",
					 "10.0.0" };
	struct pmbench_buf sri = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;
	struct pmbench_buf other = PMBENCH_BUF_INIT;

	h_write("reg/pnpm/-/.keep", "");
	pmbench_buf_adds(&b, "{\"name\":\"pnpm\",\"versions\":{");
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(v); i++) {
		release(&sri, v[i]);
		if (corrupt && !strcmp(v[i], "9.15.0"))
			release(&other, "9.1.0");
		pmbench_buf_addf(
			&b,
			"%s\"%s\":{\"version\":\"%s\",\"bin\":{"
			"\"pnpm\":\"bin/pnpm.cjs\"},\"engines\":{"
			"\"node\":\"%s\"},\"dist\":{"
			"\"tarball\":\"{registry}/pnpm/-/pnpm-%s.tgz\","
			"\"integrity\":\"%s\"}}",
			i ? "," : "", v[i], v[i], engines_of(v[i]), v[i],
			sri.ptr);
	}
	if (corrupt) {
		char src[4200];

		snprintf(src, sizeof(src), "%s",
			 check_path("reg/pnpm/-/pnpm-9.1.0.tgz"));
		pmbench_fs_copyfile(src,
				    check_path("reg/pnpm/-/pnpm-9.15.0.tgz"));
	}
	pmbench_buf_adds(&b, "}}");
	h_write("reg/pnpm/index.json", b.ptr);
	pmbench_buf_release(&sri);
	pmbench_buf_release(&b);
	pmbench_buf_release(&other);
}

static void start_registry(int *out, struct pmbench_child *c)
{
	struct pmbench_buf url = PMBENCH_BUF_INIT;

	*out = 0;
	H_CHECK_CALL(h_serve_registry, c, check_path("reg"), &url);
	setenv("PMBENCH_NODE_REGISTRY", url.ptr, 1);
	pmbench_buf_release(&url);
	*out = 1;
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

/*
 * `bench --task run --pm <pms>` on the project p (its package.json `pkg`,
 * or a plain one): exit `exit_code`, `says` in the output.
 */
static void bench_on(int *out, struct pmbench_result *r, const char *pms,
		     const char *pkg, int exit_code, const char *says)
{
	struct h_run run;
	char out_path[4200], proj[4200];

	*out = 0;
	snprintf(out_path, sizeof(out_path), "%s", h_write("result.json", ""));
	snprintf(proj, sizeof(proj), "%s", h_project("p"));
	if (pkg)
		h_write("p/package.json", pkg);
	h_pmbench(&run,
		  (const char *const[]){ "bench", "--pm", pms, "--task", "run",
					 "--runs", "1", "--warmup", "0",
					 "--out", out_path, proj, NULL },
		  NULL);
	CHECK_INT(run.exit_code, exit_code);
	if (says)
		CHECK_CONTAINS(run.out.ptr, says);
	if (exit_code == 0)
		CHECK_INT(pmbench_result_read(r, out_path), 0);
	h_run_release(&run);
	*out = 1;
}

static void bench(int *out, struct pmbench_result *r, const char *pms,
		  int exit_code, const char *says)
{
	bench_on(out, r, pms, NULL, exit_code, says);
}

TEST(a_range_installs_its_newest_release_once)
{
	struct pmbench_child reg = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf listing = PMBENCH_BUF_INIT;
	const struct pmbench_result_pm *p;

	h_setup();
	registry_files(0);
	H_CHECK_CALL(start_registry, &reg);
	H_CHECK_CALL(bench, &r, "pnpm@9,pnpm", 0,
		     "installed pnpm 9.15.0 (for pnpm@9)");
	/* Two cells: the release asked for, and the pinned one. */
	CHECK(pmbench_result_find_cell(
		&r, "p", "run", "cache+lockfile+node_modules", "pnpm@9"));
	CHECK(pmbench_result_find_cell(&r, "p", "run",
				       "cache+lockfile+node_modules", "pnpm"));
	p = h_found_pm(&r, "pnpm@9");
	CHECK(p && p->version && p->path);
	CHECK_STR(p->version, "9.15.0");
	CHECK_CONTAINS(p->path, "no-toolchain/versions/pnpm@9.15.0/bin/"
				"pnpm.cjs");
	CHECK_STR(h_found_pm(&r, "pnpm")->version, "12.0.0-fake");
	CHECK(pmbench_fs_isfile(check_path("no-toolchain/versions/"
					   "pnpm@9.15.0/.pmbench-pm")));
	h_listing(&listing, check_path("no-toolchain/versions"));
	CHECK(!strstr(listing.ptr, ".partial"));
	CHECK_INT(requests("GET /pnpm/-/pnpm-9.15.0.tgz"), 1);
	CHECK_INT(requests("GET /pnpm/-/pnpm-9.1.0.tgz"), 0);
	pmbench_result_release(&r);
	/* Installed: the next bench asks the registry nothing. */
	H_CHECK_CALL(bench, &r, "pnpm@9.15", 0, NULL);
	CHECK_STR(h_found_pm(&r, "pnpm@9.15")->version, "9.15.0");
	CHECK_INT(requests("GET "), 2);
	pmbench_result_release(&r);
	/* A range nothing installed satisfies is fetched: 9.1.0 exactly. */
	H_CHECK_CALL(bench, &r, "pnpm@9.1.0", 0, NULL);
	CHECK_STR(h_found_pm(&r, "pnpm@9.1.0")->version, "9.1.0");
	pmbench_result_release(&r);
	h_stop_registry(&reg);
	pmbench_buf_release(&listing);
}

TEST(what_the_registry_lacks_or_garbles_is_an_error)
{
	struct pmbench_child reg = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf listing = PMBENCH_BUF_INIT;

	h_setup();
	registry_files(1);
	H_CHECK_CALL(start_registry, &reg);
	H_CHECK_CALL(bench, &r, "pnpm@7", 1,
		     "cannot install pnpm@7: the registry has no pnpm release "
		     "that satisfies '7' (newest: 10.0.0)");
	H_CHECK_CALL(bench, &r, "pnpm@9", 1, "does not match its integrity");
	h_listing(&listing, check_path("no-toolchain"));
	CHECK(!strstr(listing.ptr, "pnpm@9.15.0"));
	/* The other releases are whole. */
	H_CHECK_CALL(bench, &r, "pnpm@10", 0, NULL);
	CHECK_STR(h_found_pm(&r, "pnpm@10")->version, "10.0.0");
	pmbench_result_release(&r);
	h_stop_registry(&reg);
	pmbench_buf_release(&listing);
}

/* The version the cells of `pm` ran at, and why. */
static const char *ran_at(const struct pmbench_result *r, const char *pm)
{
	const struct pmbench_cell *c = pmbench_result_find_cell(
		r, "p", "run", "cache+lockfile+node_modules", pm);

	return c && c->pm_version ? c->pm_version : "(none)";
}

/* corepack's hash of the registry's tarball of `v`: "sha512.<hex>". */
static void corepack_hash(struct pmbench_buf *out, const char *v)
{
	struct pmbench_buf data = PMBENCH_BUF_INIT;
	struct pmbench_sha512 s;
	unsigned char d[64];
	char path[256];

	snprintf(path, sizeof(path), "reg/pnpm/-/pnpm-%s.tgz", v);
	if (pmbench_fs_read(&data, check_path(path), 1u << 24) < 0)
		pmbench_die("cannot read '%s'", path);
	pmbench_sha512_init(&s);
	pmbench_sha512_update(&s, data.ptr, data.len);
	pmbench_sha512_final(&s, d);
	pmbench_buf_adds(out, "sha512.");
	for (size_t i = 0; i < sizeof(d); i++)
		pmbench_buf_addf(out, "%02x", d[i]);
	pmbench_buf_release(&data);
}

/*
 * The repo's own version of its own PM, read as corepack and the PMs
 * read it: packageManager (its hash checked), then devEngines, then
 * engines.<pm>; the other PMs stay pinned, and pnpm@pinned overrides.
 */
TEST(the_repo_names_its_own_version)
{
	struct pmbench_child reg = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf pkg = PMBENCH_BUF_INIT, hash = PMBENCH_BUF_INIT;

	h_setup();
	registry_files(0);
	H_CHECK_CALL(start_registry, &reg);
	corepack_hash(&hash, "9.15.0");
	pmbench_buf_addf(
		&pkg,
		"{\"name\":\"p\",\"packageManager\":\"pnpm@9.15.0+%s\","
		"\"devEngines\":{\"packageManager\":{\"name\":"
		"\"pnpm\",\"version\":\"9.1.0\"}}}",
		hash.ptr);
	H_CHECK_CALL(bench_on, &r, "pnpm,npm", pkg.ptr, 0,
		     "pnpm: pnpm 9.15.0, as the repo's packageManager field "
		     "says");
	CHECK_STR(ran_at(&r, "pnpm"), "9.15.0: the repo's packageManager "
				      "field (pnpm@9.15.0)");
	CHECK_STR(ran_at(&r, "npm"), "11.0.0-fake: pinned (PATH)");
	CHECK_STR(h_found_pm(&r, "pnpm")->version, "9.15.0");
	pmbench_result_release(&r);
	/* pnpm@pinned: the pinned one all the same. */
	H_CHECK_CALL(bench_on, &r, "pnpm@pinned", pkg.ptr, 0, NULL);
	CHECK_CONTAINS(ran_at(&r, "pnpm@pinned"), "12.0.0-fake: pinned");
	pmbench_result_release(&r);
	/* A hash that is not the registry's tarball's: refused, one line. */
	pmbench_buf_reset(&pkg);
	pmbench_buf_addf(&pkg, "{\"packageManager\":\"pnpm@9.1.0+%s\"}",
			 hash.ptr);
	H_CHECK_CALL(bench_on, &r, "pnpm", pkg.ptr, 1,
		     "error: p: the repo's packageManager field names pnpm "
		     "9.1.0 with hash sha512.");
	/* devEngines without packageManager, before engines. */
	H_CHECK_CALL(bench_on, &r, "pnpm",
		     "{\"devEngines\":{\"packageManager\":[{\"name\":"
		     "\"pnpm\",\"version\":\"9.1.0\"}]},\"engines\":{"
		     "\"pnpm\":\"^10\"}}",
		     0, NULL);
	CHECK_STR(ran_at(&r, "pnpm"), "9.1.0: the repo's "
				      "devEngines.packageManager (pnpm@9.1.0)");
	pmbench_result_release(&r);
	/* engines.pnpm, a range: the newest release in it. */
	H_CHECK_CALL(bench_on, &r, "pnpm",
		     "{\"engines\":{\"pnpm\":\"^10\",\"node\":\">=18\"}}", 0,
		     NULL);
	CHECK_STR(ran_at(&r, "pnpm"), "10.0.0: the repo's engines.pnpm "
				      "(pnpm@^10)");
	pmbench_result_release(&r);
	h_stop_registry(&reg);
	pmbench_buf_release(&pkg);
	pmbench_buf_release(&hash);
}

/*
 * yarn berry's committed release: .yarnrc.yml's yarnPath is what yarn
 * runs, so the yarn-berry cells run that file (committed without its x
 * bit here), whatever packageManager says, and ask no registry; the
 * other PMs stay pinned. A yarnPath out of the repo, or naming a file
 * the repo lacks, leaves the pinned yarn timed.
 */
TEST(yarn_runs_the_release_the_repo_commits)
{
	struct pmbench_child reg = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const char *pkg = "{\"name\":\"p\",\"packageManager\":"
			  "\"yarn@3.8.7\"}";

	h_setup();
	registry_files(0);
	H_CHECK_CALL(start_registry, &reg);
	/*
	 * As yarn 3 does, it answers --version but stops on a setting of
	 * yarn 4's in its environment.
	 */
	h_write("p/.yarn/releases/yarn-3.6.4.cjs",
		"#!/bin/sh\nif [ \"$1\" != --version ] && "
		"[ \"${YARN_ENABLE_HARDENED_MODE+set}\" ]; then echo "
		"'Unrecognized or legacy configuration settings found: "
		"enableHardenedMode (in <environment>)'; exit 1; fi\n"
		"FAKEPM_NAME=yarn-berry FAKEPM_VERSION_YARN_BERRY="
		"3.6.4 exec \"$PMBENCH_FAKEPM\" \"$@\"\n");
	h_write("p/.yarnrc.yml", "nodeLinker: node-modules\n"
				 "yarnPath: .yarn/releases/yarn-3.6.4.cjs\n");
	H_CHECK_CALL(bench_on, &r, "yarn-berry,pnpm", pkg, 0,
		     "yarn-berry: yarn 3.6.4, as the repo's .yarnrc.yml "
		     "yarnPath (.yarn/releases/yarn-3.6.4.cjs) says");
	CHECK_STR(ran_at(&r, "yarn-berry"),
		  "3.6.4: the repo's .yarnrc.yml yarnPath "
		  "(.yarn/releases/yarn-3.6.4.cjs)");
	CHECK_STR(h_found_pm(&r, "yarn-berry")->version, "3.6.4");
	CHECK_CONTAINS(h_found_pm(&r, "yarn-berry")->path,
		       ".yarn/releases/yarn-3.6.4.cjs");
	CHECK_STR(ran_at(&r, "pnpm"), "12.0.0-fake: pinned (PATH)");
	/* packageManager's yarn@3.8.7 was not fetched: yarnPath wins. */
	CHECK_INT(requests("GET "), 0);
	pmbench_result_release(&r);
	/* yarn-berry@pinned: the pinned yarn all the same. */
	H_CHECK_CALL(bench_on, &r, "yarn-berry@pinned", pkg, 0, NULL);
	CHECK_CONTAINS(ran_at(&r, "yarn-berry@pinned"), "4.18.1: pinned");
	pmbench_result_release(&r);
	/* Out of the repo: not followed. */
	h_write("p/.yarnrc.yml", "yarnPath: ../yarn-3.6.4.cjs\n");
	h_write("yarn-3.6.4.cjs", "#!/bin/sh\nexit 1\n");
	H_CHECK_CALL(bench_on, &r, "yarn-berry", "{\"name\":\"p\"}", 0, NULL);
	CHECK_CONTAINS(ran_at(&r, "yarn-berry"), "4.18.1: pinned");
	pmbench_result_release(&r);
	/* A file the repo lacks: the pinned yarn, and the output says so. */
	h_write("p/.yarnrc.yml", "yarnPath: .yarn/releases/yarn-9.cjs\n");
	H_CHECK_CALL(bench_on, &r, "yarn-berry", "{\"name\":\"p\"}", 0,
		     "names a file the repo lacks; the pinned 4.18.1 is "
		     "timed");
	CHECK_CONTAINS(ran_at(&r, "yarn-berry"), "4.18.1: pinned (PATH): "
						 "the repo's .yarnrc.yml");
	pmbench_result_release(&r);
	h_stop_registry(&reg);
}

/*
 * A claim about versions ("pnpm 9 install is as fast as pnpm 10
 * install"): claim installs exactly those releases, times them, and its
 * verdict names the releases it judged.
 */
TEST(a_claim_judges_the_versions_it_names)
{
	struct pmbench_child reg = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	char out_path[4200], proj[4200];

	h_setup();
	registry_files(0);
	H_CHECK_CALL(start_registry, &reg);
	snprintf(out_path, sizeof(out_path), "%s", h_write("claim.json", ""));
	snprintf(proj, sizeof(proj), "%s", h_project("p"));
	h_pmbench(&run,
		  (const char *const[]){
			  "claim",
			  "pnpm 9 install is as fast as pnpm 10 install", proj,
			  "--scenario", "clean", "--runs", "2", "--warmup", "0",
			  "--tolerance", "50", "--out", out_path,
			  "--no-progress", NULL },
		  NULL);
	CHECK_CONTAINS(run.out.ptr, "installed pnpm 9.15.0 (for pnpm@9)");
	CHECK_CONTAINS(run.out.ptr, "installed pnpm 10.0.0 (for pnpm@10)");
	CHECK_CONTAINS(run.out.ptr, "pnpm@9 install is ");
	CHECK_CONTAINS(run.out.ptr, "versions judged: pnpm@9 ran 9.15.0, "
				    "pnpm@10 ran 10.0.0");
	CHECK_INT(pmbench_result_read(&r, out_path), 0);
	CHECK_STR(h_found_pm(&r, "pnpm@9")->version, "9.15.0");
	CHECK_STR(h_found_pm(&r, "pnpm@10")->version, "10.0.0");
	/* Nothing else was installed: the 9.1.0 tarball was not asked. */
	CHECK_INT(requests("GET /pnpm/-/pnpm-9.1.0.tgz"), 0);
	pmbench_result_release(&r);
	h_run_release(&run);
	h_stop_registry(&reg);
}

/*
 * migrate's source is the repo's own release: a pnpm repo whose
 * packageManager names pnpm 9.15.0 is migrated --to npm, and the "before"
 * it measures is pnpm 9.15.0, not the pinned pnpm.
 */
TEST(migrate_measures_the_repo_release_as_its_source)
{
	struct pmbench_child reg = PMBENCH_CHILD_INIT;
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	struct h_run run;
	char report[4200], proj[4200];
	cJSON *rep = NULL;

	h_setup();
	registry_files(0);
	H_CHECK_CALL(start_registry, &reg);
	snprintf(report, sizeof(report), "%s", h_write("migrate.json", ""));
	snprintf(proj, sizeof(proj), "%s", h_project("p"));
	h_write("p/package.json",
		"{\"name\":\"p\",\"packageManager\":\"pnpm@9.15.0\","
		"\"dependencies\":{\"left-pad\":\"1.3.0\"}}");
	h_write("p/pnpm-lock.yaml", "lockfileVersion: '9.0'\n");
	h_pmbench(&run,
		  (const char *const[]){
			  "migrate", proj, "--to", "npm", "--runs", "1",
			  "--warmup", "0", "--scenario", "cache+lockfile",
			  "--out", report, "--no-progress", NULL },
		  NULL);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "pnpm: pnpm 9.15.0, as the repo's "
				    "packageManager field says");
	CHECK_INT(pmbench_fs_read(&text, report, 1u << 24), 0);
	rep = cJSON_Parse(text.ptr);
	CHECK(rep);
	CHECK_STR(h_str(rep, "source_pm"), "pnpm");
	CHECK_CONTAINS(text.ptr, "9.15.0: the repo's packageManager field "
				 "(pnpm@9.15.0)");
	CHECK_INT(requests("GET /pnpm/-/pnpm-9.15.0.tgz"), 1);
	cJSON_Delete(rep);
	pmbench_buf_release(&text);
	h_run_release(&run);
	h_stop_registry(&reg);
}

/*
 * A release whose engines.node rules out the fixture's Node (pnpm 8.15.0
 * needs ^20.1; the pinned fake Node is 24.1.0, and the release stops
 * under it, --version too) is asked its version and runs under a Node
 * of its own from the registry (20.3.0), said and recorded per cell,
 * asked for or as the repo's release; the other PMs stay under the
 * fixture's.
 */
TEST(a_release_runs_under_a_node_its_engines_allow)
{
	struct pmbench_child reg = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;

	h_setup();
	h_fake_node();
	registry_files(0);
	h_fake_node_registry(0);
	H_CHECK_CALL(start_registry, &reg);
	H_CHECK_CALL(bench, &r, "pnpm@8,pnpm", 0,
		     "pnpm@8: pnpm 8.15.0 needs node ^20.1: ran under node "
		     "20.3.0 of its own");
	c = pmbench_result_find_cell(&r, "p", "run",
				     "cache+lockfile+node_modules", "pnpm@8");
	CHECK(c && c->samples_nr == 1 && c->samples[0].ok && c->node);
	/* Installed when it was asked its version, before the runs. */
	CHECK_STR(c->node,
		  "v20.3.0: pnpm 8.15.0 needs node ^20.1: ran under "
		  "node 20.3.0 of its own (from pnpm 8.15.0's "
		  "engines.node: ^20.1 -> 20.3.0 (installed earlier))");
	CHECK_STR(h_found_pm(&r, "pnpm@8")->version, "8.15.0");
	CHECK_STR(c->runtime, "node v20.3.0");
	CHECK_CONTAINS(h_cell_env(c, "PATH"), "no-toolchain/node-20.3.0/bin:");
	c = pmbench_result_find_cell(&r, "p", "run",
				     "cache+lockfile+node_modules", "pnpm");
	CHECK(c && c->samples[0].ok);
	CHECK_STR(c->runtime, "node " H_FAKE_NODE_VERSION);
	pmbench_result_release(&r);
	/* The repo's own release: the same Node, installed earlier. */
	H_CHECK_CALL(bench_on, &r, "pnpm",
		     "{\"name\":\"p\",\"packageManager\":\"pnpm@8.15.0\"}", 0,
		     "pnpm: pnpm 8.15.0 needs node ^20.1: ran under node "
		     "20.3.0 of its own");
	CHECK_STR(ran_at(&r, "pnpm"), "8.15.0: the repo's packageManager "
				      "field (pnpm@8.15.0)");
	c = pmbench_result_find_cell(&r, "p", "run",
				     "cache+lockfile+node_modules", "pnpm");
	CHECK(c && c->samples[0].ok && c->node);
	CHECK_CONTAINS(c->node, "-> 20.3.0 (installed earlier)");
	pmbench_result_release(&r);
	h_stop_registry(&reg);
}

/*
 * pnpm 12.25's registry shape: the `pnpm` package's bin is a shim that
 * answers nothing without the native binary of @pnpm/exe.<os>-<cpu>, an
 * optionalDependency of the same version (reg/@pnpm/exe.linux-*). Its
 * packument replaces registry_files()'s.
 */
static void native_release_files(void)
{
	static const char *const exe[] = { "exe.linux-x64", "exe.linux-arm64" };
	struct pmbench_buf sri = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;
	const struct h_tgz_entry shim[] = {
		{ "package/package.json",
		  "{\"name\":\"pnpm\",\"version\":\"12.25.1\"}", 0644 },
		{ "package/bin/pnpm.cjs", "#!/bin/sh\nexit 1\n", 0644 },
	};
	const struct h_tgz_entry native[] = {
		{ "package/package.json", "{\"name\":\"@pnpm/exe\"}", 0644 },
		{ "package/pnpm",
		  "#!/bin/sh\nFAKEPM_NAME=pnpm FAKEPM_VERSION_PNPM=12.25.1 "
		  "exec \"$PMBENCH_FAKEPM\" \"$@\"\n",
		  0755 },
	};

	h_make_tgz(&sri, check_path("reg/pnpm/-/pnpm-12.25.1.tgz"), shim,
		   PMBENCH_ARRAY_SIZE(shim));
	pmbench_buf_addf(&b,
			 "{\"name\":\"pnpm\",\"versions\":{\"12.25.1\":{"
			 "\"version\":\"12.25.1\",\"bin\":{\"pnpm\":"
			 "\"bin/pnpm.cjs\"},\"optionalDependencies\":{"
			 "\"@pnpm/exe.linux-x64\":\"12.25.1\","
			 "\"@pnpm/exe.linux-arm64\":\"12.25.1\"},\"dist\":{"
			 "\"tarball\":\"{registry}/pnpm/-/pnpm-12.25.1.tgz\","
			 "\"integrity\":\"%s\"}}}}",
			 sri.ptr);
	h_write("reg/pnpm/index.json", b.ptr);
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(exe); i++) {
		char path[256];

		pmbench_buf_reset(&sri);
		pmbench_buf_reset(&b);
		snprintf(path, sizeof(path), "reg/@pnpm/%s/-/.keep", exe[i]);
		h_write(path, "");
		snprintf(path, sizeof(path), "reg/@pnpm/%s/-/%s-12.25.1.tgz",
			 exe[i], exe[i]);
		h_make_tgz(&sri, check_path(path), native,
			   PMBENCH_ARRAY_SIZE(native));
		pmbench_buf_addf(
			&b,
			"{\"name\":\"@pnpm/%s\",\"versions\":{\"12.25.1\":{"
			"\"version\":\"12.25.1\",\"dist\":{\"tarball\":"
			"\"{registry}/@pnpm/%s/-/%s-12.25.1.tgz\",\"integrity\":"
			"\"%s\"}}}}",
			exe[i], exe[i], exe[i], sri.ptr);
		snprintf(path, sizeof(path), "reg/@pnpm/%s/index.json", exe[i]);
		h_write(path, b.ptr);
	}
	pmbench_buf_release(&sri);
	pmbench_buf_release(&b);
}

/*
 * A release whose binary is its platform package's (pnpm 12.25): that
 * package is installed with it, and its binary is the one run.
 */
TEST(a_release_gets_the_native_binary_it_names)
{
	struct pmbench_child reg = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;

	h_setup();
	registry_files(0);
	native_release_files();
	H_CHECK_CALL(start_registry, &reg);
	H_CHECK_CALL(bench, &r, "pnpm@12", 0, NULL);
	CHECK_STR(ran_at(&r, "pnpm@12"), "12.25.1: --pm pnpm@12");
	/* The platform package is the release pmbench installed. */
	CHECK_CONTAINS(h_found_pm(&r, "pnpm@12")->path,
		       "/versions/pnpm@12.25.1/pnpm");
	CHECK_INT(requests("GET /@pnpm/exe.linux-"), 2);
	pmbench_result_release(&r);
	h_stop_registry(&reg);
}

/*
 * A release folder an older pmbench laid out (its stamp says
 * installed_by pmbench) whose binary does not answer --version: pnpm
 * 12.25.1's JS shim without its native binary.
 */
static void old_release_folder(const char *installed_by)
{
	struct pmbench_buf stamp = PMBENCH_BUF_INIT;

	h_write("no-toolchain/versions/pnpm@12.25.1/bin/pnpm.cjs",
		"#!/bin/sh\nexit 1\n");
	chmod(check_path("no-toolchain/versions/pnpm@12.25.1/bin/pnpm.cjs"),
	      0755);
	pmbench_buf_addf(&stamp,
			 "{\"pm\": \"pnpm\", \"package\": \"pnpm\", "
			 "\"version\": \"12.25.1\", \"bin\": "
			 "\"bin/pnpm.cjs\"%s%s%s}",
			 installed_by ? ", \"installed_by\": \"" : "",
			 installed_by ? installed_by : "",
			 installed_by ? "\"" : "");
	h_write("no-toolchain/versions/pnpm@12.25.1/.pmbench-pm", stamp.ptr);
	pmbench_buf_release(&stamp);
}

/*
 * A release folder of pmbench's own that does not answer --version is
 * installed again, once, said in one line; one pmbench did not install
 * (no installed_by) is left as it is, and the error says it did not
 * answer.
 */
TEST(a_release_that_does_not_answer_is_installed_again)
{
	struct pmbench_child reg = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf listing = PMBENCH_BUF_INIT;

	h_setup();
	registry_files(0);
	native_release_files();
	H_CHECK_CALL(start_registry, &reg);
	old_release_folder("pmbench");
	H_CHECK_CALL(bench, &r, "pnpm@12", 0,
		     "/no-toolchain/versions did not answer --version: "
		     "installed again");
	CHECK_CONTAINS(h_found_pm(&r, "pnpm@12")->path,
		       "/versions/pnpm@12.25.1/pnpm");
	CHECK_STR(ran_at(&r, "pnpm@12"), "12.25.1: --pm pnpm@12");
	CHECK(!pmbench_fs_exists(
		check_path("no-toolchain/versions/pnpm@12.25.1/bin")));
	CHECK_INT(requests("GET /@pnpm/exe.linux-"), 2);
	/* Outside pmbench's work folder the old one is kept, aside. */
	h_listing(&listing, check_path("no-toolchain/versions"));
	CHECK_CONTAINS(listing.ptr, ".pnpm@12.25.1.unanswered-");
	pmbench_result_release(&r);
	/* Once: answered, it is not installed a third time. */
	H_CHECK_CALL(bench, &r, "pnpm@12", 0, NULL);
	CHECK_INT(requests("GET /@pnpm/exe.linux-"), 2);
	pmbench_result_release(&r);
	/* A folder pmbench did not install: left alone, an error. */
	pmbench_fs_rmtree_unchecked(
		check_path("no-toolchain/versions/pnpm@12.25.1"));
	old_release_folder(NULL);
	H_CHECK_CALL(bench, &r, "pnpm@12", 1,
		     "/bin/pnpm.cjs' did not answer --version");
	CHECK(pmbench_fs_isfile(
		check_path("no-toolchain/versions/pnpm@12.25.1/bin/pnpm.cjs")));
	CHECK_INT(requests("GET /@pnpm/exe.linux-"), 2);
	h_stop_registry(&reg);
	pmbench_buf_release(&listing);
}

/*
 * The registry's yarn berry 3.8.7 (@yarnpkg/cli-dist), a release that
 * stops on yarn 4's enableHardenedMode in its environment at once,
 * --version too. The real yarn 3.8.7 answers --version with it set and
 * stops on every other command (checked 2026-12-06: `yarn config get
 * enableScripts` refuses it); the fake checks earlier, so that the
 * environment of the question is seen to be the run's.
 */
static void yarn3_release_files(void)
{
	struct pmbench_buf sri = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;
	const struct h_tgz_entry e[] = {
		{ "package/package.json",
		  "{\"name\":\"@yarnpkg/cli-dist\",\"version\":\"3.8.7\"}",
		  0644 },
		{ "package/bin/yarn.js",
		  "#!/bin/sh\nif [ \"${YARN_ENABLE_HARDENED_MODE+set}\" ]; "
		  "then echo 'Unrecognized or legacy configuration settings "
		  "found: enableHardenedMode (in <environment>)'; exit 1; fi\n"
		  "FAKEPM_NAME=yarn-berry FAKEPM_VERSION_YARN_BERRY=3.8.7 "
		  "exec \"$PMBENCH_FAKEPM\" \"$@\"\n",
		  0644 },
	};

	h_write("reg/@yarnpkg/cli-dist/-/.keep", "");
	h_make_tgz(&sri,
		   check_path("reg/@yarnpkg/cli-dist/-/cli-dist-3.8.7.tgz"), e,
		   PMBENCH_ARRAY_SIZE(e));
	pmbench_buf_addf(
		&b,
		"{\"name\":\"@yarnpkg/cli-dist\",\"versions\":{"
		"\"3.8.7\":{\"version\":\"3.8.7\",\"bin\":{\"yarn\":"
		"\"bin/yarn.js\"},\"dist\":{\"tarball\":"
		"\"{registry}/@yarnpkg/cli-dist/-/cli-dist-3.8.7.tgz\","
		"\"integrity\":\"%s\"}}}}",
		sri.ptr);
	h_write("reg/@yarnpkg/cli-dist/index.json", b.ptr);
	pmbench_buf_release(&sri);
	pmbench_buf_release(&b);
}

/*
 * `--pm yarn-berry@3` is asked its version in the environment it runs
 * in: without yarn 4's settings that yarn 3 does not know.
 */
TEST(a_release_is_asked_its_version_as_it_runs)
{
	struct pmbench_child reg = PMBENCH_CHILD_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;

	h_setup();
	registry_files(0);
	yarn3_release_files();
	H_CHECK_CALL(start_registry, &reg);
	H_CHECK_CALL(bench, &r, "yarn-berry@3", 0,
		     "installed yarn-berry 3.8.7 (for yarn-berry@3)");
	CHECK_STR(h_found_pm(&r, "yarn-berry@3")->version, "3.8.7");
	CHECK_STR(ran_at(&r, "yarn-berry@3"), "3.8.7: --pm yarn-berry@3");
	pmbench_result_release(&r);
	h_stop_registry(&reg);
}

/*
 * The lock: while another pmbench holds versions/.lock-pnpm, an install
 * waits and asks the registry nothing; then it installs once.
 */
TEST(two_pmbench_at_once_install_once)
{
	struct pmbench_child reg = PMBENCH_CHILD_INIT;
	struct pmbench_ctx ctx = PMBENCH_CTX_INIT;
	char tc[4200], cache[4200];
	int fd, status = -1;
	pid_t pid;

	h_setup();
	registry_files(0);
	H_CHECK_CALL(start_registry, &reg);
	snprintf(tc, sizeof(tc), "%s", check_path("no-toolchain"));
	snprintf(cache, sizeof(cache), "%s", check_path("cache"));
	pmbench_fs_mkdirp(check_path("no-toolchain/versions"), 0755);
	fd = open(check_path("no-toolchain/versions/.lock-pnpm"),
		  O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	CHECK(fd >= 0 && flock(fd, LOCK_EX) == 0);
	ctx.toolchain_dir = tc;
	ctx.cache_dir = cache;
	pid = fork();
	if (pid == 0) {
		/* Its copy of the held lock's file must not hold it too. */
		close(fd);
		_exit(pmbench_pm_release_ensure(&ctx, pmbench_pm_get("pnpm@9"))
			      ? 1
			      : 0);
	}
	usleep(500 * 1000);
	/* Still waiting: nothing asked, nothing installed. */
	CHECK(waitpid(pid, &status, WNOHANG) == 0);
	CHECK_INT(requests("GET "), 0);
	/* The holder installs it meanwhile; the waiter then takes it. */
	h_write("no-toolchain/versions/pnpm@9.15.0/bin/pnpm.cjs",
		"#!/bin/sh\n");
	h_write("no-toolchain/versions/pnpm@9.15.0/.pmbench-pm",
		"{\"version\": \"9.15.0\", \"bin\": \"bin/pnpm.cjs\"}");
	close(fd);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_INT(requests("GET "), 0);
	h_stop_registry(&reg);
}

/*
 * A repo of another era: yarn 1's lockfile locks argon2 0.26.2 and
 * @nestjs/core 7.5.1 (as registry tarball URLs), whose packuments the
 * mirror already holds (its storage, as verdaccio keeps what it
 * fetched) with their publish times; its yarn fails as node-gyp does on
 * a C++ module too old for the Node in use (the fake pinned Node 24).
 */
static void era_repo(const char *package_json)
{
	h_write("old/package.json", package_json);
	h_write("old/yarn.lock",
		"# yarn lockfile v1\n\n\n"
		"\"@nestjs/core@^7.5.1\":\n  version \"7.5.1\"\n  resolved "
		"\"https://registry.yarnpkg.com/@nestjs/core/-/core-7.5.1.tgz"
		"#abc\"\n\nargon2@^0.26.0:\n  version \"0.26.2\"\n  resolved "
		"\"https://registry.yarnpkg.com/argon2/-/argon2-0.26.2.tgz"
		"#def\"\n");
	h_write("cache/.pmbench-cache", "");
	h_write("cache/registry/registry.npmjs.org/storage/argon2/"
		"package.json",
		"{\"name\":\"argon2\",\"time\":{\"created\":"
		"\"2015-01-01T00:00:00.000Z\",\"0.26.2\":"
		"\"2020-04-20T10:00:00.000Z\",\"0.40.0\":"
		"\"2024-05-01T00:00:00.000Z\"}}");
	h_write("cache/registry/registry.npmjs.org/storage/@nestjs/core/"
		"package.json",
		"{\"name\":\"@nestjs/core\",\"time\":{\"7.5.1\":"
		"\"2020-11-03T09:14:02.115Z\",\"10.0.0\":"
		"\"2023-06-15T00:00:00.000Z\"}}");
	/* yarn: its install fails as node-gyp does; the rest is the fake's. */
	CHECK_INT(chmod(h_write("gyp/yarn",
				"#!/bin/sh\ncase \"$1\" in --version|cache|"
				"config|run) FAKEPM_NAME=yarn exec "
				"\"$PMBENCH_FAKEPM\" \"$@\";; esac\n"
				"echo 'gyp info using node@24.1.0' >&2\n"
				"echo 'gyp ERR! build error' >&2\n"
				"echo 'gyp ERR! stack Error: make failed' "
				">&2\nexit 1\n"),
			0755),
		  0);
}

/* bench --pm yarn,npm on era_repo() against the fake mirror. */
static void bench_era(int *out, struct pmbench_result *r, struct h_run *run)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	const char *fake = getenv("PMBENCH_FAKEREGISTRY");
	char out_path[4200], proj[4200], gyp[4200];

	*out = 0;
	snprintf(out_path, sizeof(out_path), "%s", h_write("result.json", ""));
	snprintf(proj, sizeof(proj), "%s", h_write("old/.keep", ""));
	proj[strlen(proj) - 6] = '\0';
	snprintf(gyp, sizeof(gyp), "%s", h_write("gyp/.keep", ""));
	gyp[strlen(gyp) - 6] = '\0';
	pmbench_strvec_push(&env, "PMBENCH_REGISTRY=local");
	pmbench_strvec_pushf(&env, "PMBENCH_VERDACCIO=%s", fake ? fake : "");
	pmbench_strvec_pushf(&env, "PATH=%s:%s", gyp, getenv("PATH"));
	h_pmbench(run,
		  (const char *const[]){ "bench", "--pm", "yarn,npm",
					 "--scenario", "cache+lockfile",
					 "--runs", "1", "--warmup", "0",
					 "--out", out_path, proj, NULL },
		  &env);
	CHECK_INT(pmbench_result_read(r, out_path), 0);
	pmbench_strvec_release(&env);
	*out = 1;
}

#define ERA_LINE                                                    \
	"this lockfile's newest package was published 2020-11-03: " \
	"Node 14 was the LTS then; try --node 14"

/*
 * The repo names no Node and its own PM fails as a Node of its era
 * would not: the failure says which Node that was, from the locked
 * packages' publish dates, and the --node that tries it; the cell
 * records it. A repo that names its Node is told nothing of the kind.
 */
TEST(a_repo_of_another_era_is_told_its_node)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	struct h_run run;

	h_setup();
	h_fake_node();
	era_repo("{\"name\":\"old\",\"dependencies\":{\"argon2\":"
		 "\"^0.26.0\",\"@nestjs/core\":\"^7.5.1\"}}");
	H_CHECK_CALL(bench_era, &r, &run);
	CHECK_INT(run.exit_code, 2);
	CHECK_CONTAINS(run.out.ptr, ERA_LINE);
	c = pmbench_result_find_cell(&r, "old", "install", "cache+lockfile",
				     "yarn");
	CHECK(c && c->prime_failure && c->node_era);
	CHECK_CONTAINS(c->prime_failure,
		       "a native module failed to build with node-gyp");
	CHECK_CONTAINS(c->prime_failure, "; " ERA_LINE);
	CHECK_STR(c->node_era, ERA_LINE);
	/* npm installs (the repo's PM is yarn): nothing to say. */
	c = pmbench_result_find_cell(&r, "old", "install", "cache+lockfile",
				     "npm");
	CHECK(c && !c->prime_failure && !c->node_era);
	pmbench_result_release(&r);
	h_run_release(&run);
	/* A repo that names its Node (engines.node, which 24 satisfies). */
	era_repo("{\"name\":\"old\",\"engines\":{\"node\":\">=10\"}}");
	H_CHECK_CALL(bench_era, &r, &run);
	CHECK_INT(run.exit_code, 2);
	c = pmbench_result_find_cell(&r, "old", "install", "cache+lockfile",
				     "yarn");
	CHECK(c && c->prime_failure && !c->node_era);
	CHECK(!strstr(run.out.ptr, "try --node"));
	pmbench_result_release(&r);
	h_run_release(&run);
}

/*
 * What each PM used follows the release: yarn 3 (a repo's yarnPath)
 * builds dependency scripts by default, as its enableScripts says; the
 * pinned yarn 4 does not.
 */
TEST(a_release_says_its_own_scripts_default)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;

	h_setup();
	h_write("p/.yarn/releases/yarn-3.6.4.cjs",
		"#!/bin/sh\nFAKEPM_NAME=yarn-berry FAKEPM_VERSION_YARN_BERRY="
		"3.6.4 exec \"$PMBENCH_FAKEPM\" \"$@\"\n");
	h_write("p/.yarnrc.yml", "nodeLinker: node-modules\n"
				 "yarnPath: .yarn/releases/yarn-3.6.4.cjs\n");
	H_CHECK_CALL(bench_on, &r, "yarn-berry,yarn-berry@pinned",
		     "{\"name\":\"p\"}", 0, NULL);
	c = pmbench_result_find_cell(
		&r, "p", "run", "cache+lockfile+node_modules", "yarn-berry");
	CHECK(c && c->scripts);
	CHECK_CONTAINS(c->scripts, "yarn 2 and 3 build dependency scripts by "
				   "default (enableScripts: true before yarn "
				   "4)");
	c = pmbench_result_find_cell(&r, "p", "run",
				     "cache+lockfile+node_modules",
				     "yarn-berry@pinned");
	CHECK(c && c->scripts);
	CHECK_CONTAINS(c->scripts,
		       "yarn 4 builds no dependency scripts here by default");
	pmbench_result_release(&r);
}

CHECK_MAIN(CASE(a_range_installs_its_newest_release_once),
	   CASE(what_the_registry_lacks_or_garbles_is_an_error),
	   CASE(the_repo_names_its_own_version),
	   CASE(yarn_runs_the_release_the_repo_commits),
	   CASE(a_claim_judges_the_versions_it_names),
	   CASE(migrate_measures_the_repo_release_as_its_source),
	   CASE(two_pmbench_at_once_install_once),
	   CASE(a_release_runs_under_a_node_its_engines_allow),
	   CASE(a_release_gets_the_native_binary_it_names),
	   CASE(a_release_that_does_not_answer_is_installed_again),
	   CASE(a_release_is_asked_its_version_as_it_runs),
	   CASE(a_repo_of_another_era_is_told_its_node),
	   CASE(a_release_says_its_own_scripts_default))
