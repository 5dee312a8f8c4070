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

/* "a@1,b@2" for the pairs a lockfile's `text` names. */
static void packages_of(struct pmbench_buf *out, const char *text)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;

	pmbench_buf_reset(out);
	pmbench_lockfile_packages(&v, text);
	pmbench_strvec_join(out, &v, ",");
	pmbench_strvec_release(&v);
}

/* Each PM's lockfile spelling of the same two packages. */
TEST(lockfile_packages_of_every_pm)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	/* yarn 1 (headers are ranges; the tarball URL has the version). */
	packages_of(&b, "\"@nestjs/core@^7.5.1\":\n  version \"7.5.1\"\n"
			"  resolved \"https://registry.yarnpkg.com/@nestjs/"
			"core/-/core-7.5.1.tgz#a\"\nargon2@^0.26.0:\n"
			"  resolved \"http://127.0.0.1:4873/argon2/-/argon2-"
			"0.26.2.tgz\"\n");
	CHECK_STR(b.ptr, "@nestjs/core@7.5.1,argon2@0.26.2");
	/* package-lock.json v3. */
	packages_of(&b, "\"node_modules/argon2\": {\"version\": \"0.26.2\", "
			"\"resolved\": \"https://registry.npmjs.org/argon2/-/"
			"argon2-0.26.2.tgz\"}");
	CHECK_STR(b.ptr, "argon2@0.26.2");
	/* yarn berry, pnpm 9 and 6, bun. */
	packages_of(&b, "\"argon2@npm:^0.26.0\":\n  version: 0.26.2\n"
			"  resolution: \"argon2@npm:0.26.2\"\n");
	CHECK_STR(b.ptr, "argon2@0.26.2");
	packages_of(&b, "  '@nestjs/core@7.5.1(reflect-metadata@0.1.13)':\n"
			"  /argon2@0.26.2:\n");
	CHECK_STR(b.ptr, "@nestjs/core@7.5.1,argon2@0.26.2,"
			 "reflect-metadata@0.1.13");
	packages_of(&b, "\"argon2\": [\"argon2@0.26.2\", \"\", {}],"
			"\"argon2@0.26.2\"");
	CHECK_STR(b.ptr, "argon2@0.26.2");
	/* Ranges, tags, half versions and odd URLs are none. */
	packages_of(&b, "a@^1.2.3 b@latest c@1.2 @d e@1.2.x /x/-/y-1.0.0.tgz "
			"/-/-1.0.0.tgz @@1.0.0");
	CHECK_STR(b.ptr, "");
	pmbench_buf_release(&b);
}

/*
 * The era of a lockfile from the mirror's packuments: the newest publish
 * time of a locked version (not of the package's newest version); a
 * package the mirror lacks, or a version its packument does not time,
 * is passed over.
 */
TEST(lockfile_era_from_the_mirror)
{
	char lock[4200], dir[4200];
	struct pmbench_buf out = PMBENCH_BUF_INIT;

	check_sandbox();
	snprintf(dir, sizeof(dir), "%s", check_path("storage"));
	snprintf(lock, sizeof(lock), "%s", check_path("yarn.lock"));
	CHECK_INT(pmbench_lockfile_newest(&out, lock, dir), -1);
	CHECK_INT(pmbench_fs_mkdirp(check_path("storage/argon2"), 0755), 0);
	CHECK_INT(pmbench_fs_mkdirp(check_path("storage/@s/b"), 0755), 0);
	CHECK_INT(pmbench_fs_mkdirp(check_path("storage/c"), 0755), 0);
	check_write("storage/argon2/package.json",
		    "{\"time\":{\"0.26.2\":\"2020-04-20T10:00:00.000Z\","
		    "\"0.40.0\":\"2024-05-01T00:00:00.000Z\"}}");
	check_write("storage/@s/b/package.json",
		    "{\"time\":{\"1.0.0\":\"2020-11-03T09:14:02.115Z\"}}");
	check_write("storage/c/package.json",
		    "{\"time\":{\"2.0.0\":\"not a date\"}}");
	check_write("yarn.lock",
		    "resolved \"https://r/argon2/-/argon2-0.26.2.tgz\"\n"
		    "resolved \"https://r/@s/b/-/b-1.0.0.tgz\"\n"
		    "resolved \"https://r/lost/-/lost-9.0.0.tgz\"\n"
		    "resolved \"https://r/c/-/c-2.0.0.tgz\"\n");
	CHECK_INT(pmbench_lockfile_newest(&out, lock, dir), 0);
	CHECK_STR(out.ptr, "2020-11-03T09:14:02.115Z");
	pmbench_buf_reset(&out);
	CHECK_INT(pmbench_node_era_hint(&out, lock, dir, 24), 0);
	CHECK_STR(out.ptr,
		  "this lockfile's newest package was published "
		  "2020-11-03: Node 14 was the LTS then; try --node 14");
	/* Under Node 14 itself, or older, the era says nothing more. */
	pmbench_buf_reset(&out);
	CHECK_INT(pmbench_node_era_hint(&out, lock, dir, 14), -1);
	CHECK_STR(out.ptr, "");
	CHECK(pmbench_node_era_failure("gyp ERR! build error"));
	CHECK(pmbench_node_era_failure(
		"error argon2@0.26.2: The engine \"node\" is incompatible"));
	CHECK(!pmbench_node_era_failure("EBADENGINE npm: >=12"));
	CHECK(!pmbench_node_era_failure("ERESOLVE"));
	pmbench_buf_release(&out);
}

CHECK_MAIN(CASE(node_ask_files), CASE(node_ask_project_first),
	   CASE(node_of_an_era), CASE(lockfile_packages_of_every_pm),
	   CASE(lockfile_era_from_the_mirror))
