/*
 * What a repo asks of Node (src/engine/node/node.c), read as CI reads it:
 * .nvmrc (comments and blank lines aside), .node-version, asdf's
 * .tool-versions, package.json volta.node then engines.node, the
 * project folder before the repo's root.
 */
#include "pmbench/common.h"

#include "check.h"
#include "pmbench/fs.h"
#include "pmbench/node.h"

static void ask(struct pmbench_node_ask *a, const char *subdir)
{
	pmbench_node_ask_repo(a, check_path("repo"), subdir);
}

TEST(node_ask_files)
{
	struct pmbench_node_ask a = PMBENCH_NODE_ASK_INIT;

	check_sandbox();
	CHECK_INT(pmbench_fs_mkdirp(check_path("repo"), 0755), 0);
	check_write("repo/package.json", "{\"name\":\"r\"}");
	ask(&a, NULL);
	CHECK(!a.spec && !a.source);
	check_write("repo/package.json", "{\"engines\":{\"node\":\">=18 <21\"},"
					 "\"volta\":{\"node\":\"20.11.1\"}}");
	ask(&a, NULL);
	CHECK_STR(a.spec, "20.11.1");
	CHECK_STR(a.source, "package.json volta.node");
	check_write("repo/package.json",
		    "{\"engines\":{\"node\":\">=18 <21\"}}");
	ask(&a, NULL);
	CHECK_STR(a.spec, ">=18 <21");
	CHECK_STR(a.source, "package.json engines.node");
	check_write("repo/.tool-versions", "python 3.11\nnodejs 18.19.0 17\n");
	ask(&a, NULL);
	CHECK_STR(a.spec, "18.19.0");
	check_write("repo/.node-version", "v22.1.0\r\n");
	ask(&a, NULL);
	CHECK_STR(a.spec, "v22.1.0");
	CHECK_STR(a.source, ".node-version");
	check_write("repo/.nvmrc", "# the team's\n\n  lts/iron  # LTS\n21\n");
	ask(&a, NULL);
	CHECK_STR(a.spec, "lts/iron");
	CHECK_STR(a.source, ".nvmrc");
	pmbench_node_ask_release(&a);
}

TEST(node_ask_project_first)
{
	struct pmbench_node_ask a = PMBENCH_NODE_ASK_INIT;

	check_sandbox();
	CHECK_INT(pmbench_fs_mkdirp(check_path("repo/apps/web"), 0755), 0);
	check_write("repo/.nvmrc", "20\n");
	check_write("repo/apps/web/package.json",
		    "{\"engines\":{\"node\":\"22\"}}");
	ask(&a, "apps/web");
	CHECK_STR(a.spec, "22");
	CHECK_STR(a.source, "apps/web/package.json engines.node");
	ask(&a, "apps/none");
	CHECK_STR(a.spec, "20");
	CHECK_STR(a.source, ".nvmrc");
	/* A file of comments only asks nothing; junk JSON neither. */
	check_write("repo/.nvmrc", "# nothing\n");
	check_write("repo/package.json", "{not json");
	ask(&a, NULL);
	CHECK(!a.spec);
	pmbench_node_ask_release(&a);
}

/*
 * The Node of a date: the newest line in Active LTS that day (the Node.js
 * release schedule), on its first day and the day before.
 */
TEST(node_of_an_era)
{
	CHECK_INT(pmbench_node_era_major("2015-10-11"), 0);
	CHECK_INT(pmbench_node_era_major("2015-10-12"), 4);
	/* A 2020 NestJS repo's lockfile, before 14 became LTS: 12. */
	CHECK_INT(pmbench_node_era_major("2020-06-14T09:12:00.000Z"), 12);
	CHECK_INT(pmbench_node_era_major("2020-10-26T23:59:59.999Z"), 12);
	CHECK_INT(pmbench_node_era_major("2020-10-27"), 14);
	CHECK_INT(pmbench_node_era_major("2023-10-23"), 18);
	CHECK_INT(pmbench_node_era_major("2023-10-24"), 20);
	CHECK_INT(pmbench_node_era_major("2026-12-06T02:00:00Z"), 24);
	/* Not a day: no era. */
	CHECK_INT(pmbench_node_era_major("2020-6-14"), -1);
	CHECK_INT(pmbench_node_era_major("yesterday"), -1);
	CHECK_INT(pmbench_node_era_major(""), -1);
	CHECK_INT(pmbench_node_era_major(NULL), -1);
}

CHECK_MAIN(CASE(node_ask_files), CASE(node_ask_project_first),
	   CASE(node_of_an_era))
