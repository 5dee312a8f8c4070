#include "pmbench/common.h"

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/ctx.h"
#include "pmbench/fixture.h"
#include "pmbench/pm.h"
#include "pmbench/fs.h"
#include "pmbench/strvec.h"

/*
 * Helpers. Repositories are made with libgit2 inside the case's sandbox;
 * nothing here runs git or touches the network.
 */

static char sandbox_dir[4096];

/* A fresh sandbox that is also the fs module's sandbox. */
static const char *setup(void)
{
	if (pmbench_ctx_libraries() < 0)
		pmbench_die("%s", pmbench_error_last());
	snprintf(sandbox_dir, sizeof(sandbox_dir), "%s", check_sandbox());
	if (pmbench_fs_set_sandbox(sandbox_dir) < 0)
		pmbench_die("%s", pmbench_error_last());
	return sandbox_dir;
}

/* A path inside the sandbox, from a small ring of static buffers. */
static const char *sp(const char *fmt, ...) PMBENCH_PRINTF(1, 2);
static const char *sp(const char *fmt, ...)
{
	static char ring[8][4096];
	static size_t next;
	char *out = ring[next++ % PMBENCH_ARRAY_SIZE(ring)];
	char rel[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if (snprintf(out, sizeof(ring[0]), "%s/%s", sandbox_dir, rel) >=
	    (int)sizeof(ring[0]))
		pmbench_die("test path too long");
	return out;
}

/* Write `text` to the sandbox-relative `rel`, making parent folders. */
static void put(const char *rel, const char *text)
{
	const char *path = sp("%s", rel);
	char parent[4096];
	char *slash;
	FILE *fp;

	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	*slash = '\0';
	if (pmbench_fs_mkdirp(parent, 0755) < 0)
		pmbench_die("%s", pmbench_error_last());
	fp = fopen(path, "w");
	if (!fp)
		pmbench_die("cannot write '%s'", path);
	fputs(text, fp);
	fclose(fp);
}

/* The contents of a file (static buffer), or "(missing)". */
static const char *slurp(const char *path)
{
	static char text[4096];
	FILE *fp = fopen(path, "r");
	size_t n;

	if (!fp)
		return "(missing)";
	n = fread(text, 1, sizeof(text) - 1, fp);
	text[n] = '\0';
	fclose(fp);
	return text;
}

static git_repository *repo_init(const char *rel)
{
	git_repository *repo = NULL;

	if (git_repository_init(&repo, sp("%s", rel), 0) < 0)
		pmbench_die("git init: %s", git_error_last()->message);
	return repo;
}

/*
 * Stage everything in the work tree (deletions included) and commit it on
 * the current branch. Returns the SHA (static buffer).
 */
static const char *commit_all(git_repository *repo, const char *msg)
{
	static char hex[GIT_OID_HEXSZ + 1];
	static git_time_t when = 1700000000;
	char *all = (char *)"*";
	git_strarray spec = { &all, 1 };
	git_index *index = NULL;
	git_oid tree_id, parent_id, id;
	git_tree *tree = NULL;
	git_signature *sig = NULL;
	git_commit *parent = NULL;
	const git_commit *parents[1];
	size_t nparents = 0;

	if (git_repository_index(&index, repo) < 0 ||
	    git_index_add_all(index, &spec, GIT_INDEX_ADD_FORCE, NULL, NULL) <
		    0 ||
	    git_index_update_all(index, &spec, NULL, NULL) < 0 ||
	    git_index_write(index) < 0 ||
	    git_index_write_tree(&tree_id, index) < 0 ||
	    git_tree_lookup(&tree, repo, &tree_id) < 0 ||
	    git_signature_new(&sig, "Test", "test@example.com", when++, 0) < 0)
		pmbench_die("commit: %s", git_error_last()->message);
	if (git_reference_name_to_id(&parent_id, repo, "HEAD") == 0) {
		if (git_commit_lookup(&parent, repo, &parent_id) < 0)
			pmbench_die("commit: %s", git_error_last()->message);
		parents[nparents++] = parent;
	}
	if (git_commit_create(&id, repo, "HEAD", sig, sig, NULL, msg, tree,
			      nparents, parents) < 0)
		pmbench_die("commit: %s", git_error_last()->message);
	git_oid_tostr(hex, sizeof(hex), &id);
	git_commit_free(parent);
	git_signature_free(sig);
	git_tree_free(tree);
	git_index_free(index);
	return hex;
}

/* The SHA that HEAD of the repository at `rel` points at (static). */
static const char *head_of(const char *rel)
{
	static char hex[GIT_OID_HEXSZ + 1];
	git_repository *repo = NULL;
	git_oid id;

	if (git_repository_open(&repo, sp("%s", rel)) < 0 ||
	    git_reference_name_to_id(&id, repo, "HEAD") < 0)
		pmbench_die("head: %s", git_error_last()->message);
	git_oid_tostr(hex, sizeof(hex), &id);
	git_repository_free(repo);
	return hex;
}

/*
 * A fingerprint of every entry under a folder (path, type, mode, size,
 * mtime, contents' size), .git included, to prove nothing wrote there.
 */
static struct pmbench_strvec fp_lines = PMBENCH_STRVEC_INIT;
static size_t fp_root_len;

static int fp_entry(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	(void)type;
	(void)ftw;
	pmbench_strvec_pushf(&fp_lines, "%s %o %lld %lld.%09ld",
			     path + fp_root_len, (unsigned)st->st_mode,
			     (long long)st->st_size,
			     (long long)st->st_mtim.tv_sec,
			     st->st_mtim.tv_nsec);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *fingerprint(const char *rel)
{
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	const char *root = sp("%s", rel);

	fp_root_len = strlen(root);
	if (nftw(root, fp_entry, 16, FTW_PHYS) < 0)
		pmbench_die("cannot walk '%s'", root);
	qsort(fp_lines.v, fp_lines.nr, sizeof(*fp_lines.v), cmp_str);
	pmbench_strvec_join(&out, &fp_lines, "\n");
	pmbench_strvec_release(&fp_lines);
	return pmbench_buf_detach(&out);
}

/* Parse `json` expecting failure; returns the message. */
static const char *parse_error(const char *json)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	int ret = pmbench_fixture_parse(&f, json, "fixtures/x.json");

	pmbench_fixture_release(&f);
	return ret == PMBENCH_EINVALID ? pmbench_error_last() : "(no error)";
}

/*
 * An origin repository "origin" with two commits: the first has
 * a.txt "one", the second a.txt "two". Stores both SHAs.
 */
static void make_origin(char first[41], char second[41])
{
	git_repository *repo = repo_init("origin");

	put("origin/package.json", "{ \"name\": \"app\" }\n");
	put("origin/a.txt", "one\n");
	put("origin/packages/web/package.json", "{ \"name\": \"web\" }\n");
	snprintf(first, 41, "%s", commit_all(repo, "first"));
	put("origin/a.txt", "two\n");
	snprintf(second, 41, "%s", commit_all(repo, "second"));
	git_repository_free(repo);
}

/* Write a manifest for the origin at `commit` (NULL: none) and load it. */
static int load_origin(struct pmbench_fixture *f, const char *commit,
		       const char *extra)
{
	char json[4096];

	snprintf(json, sizeof(json),
		 "{ \"name\": \"app\", \"repo\": \"origin\"%s%s%s%s }",
		 commit ? ", \"commit\": \"" : "", commit ? commit : "",
		 commit ? "\"" : "", extra ? extra : "");
	put("app.json", json);
	return pmbench_fixture_load(f, sp("app.json"), NULL);
}

/*
 * Parsing.
 */

TEST(parse_full)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	const struct pmbench_fixture_pm *pm;
	const char *json =
		"{\n"
		"  \"name\": \"react-vite\",\n"
		"  \"repo\": \"https://github.com/o/r.git\",\n"
		"  \"commit\": \"6072AE1D389A9088A7FDDE9548601E5561E6198D\",\n"
		"  \"subdir\": \"./packages//app/\",\n"
		"  \"description\": \"React app\",\n"
		"  \"env\": { \"CYPRESS_INSTALL_BINARY\": \"0\",\n"
		"           \"E\": \"\" },\n"
		"  \"pm\": {\n"
		"    \"npm\": { \"flags\": [\"--legacy-peer-deps\"],\n"
		"             \"env\": { \"K\": \"V\" } },\n"
		"    \"bun\": { \"flags\": [\"--ignore-scripts\", \"-x\"] }\n"
		"  },\n"
		"  \"scripts\": [\"lint\", \"test\"],\n"
		"  \"build\": { \"script\": \"build:prod\", \"output\": "
		"\"dist/\" },\n"
		"  \"test\": { \"script\": \"test:unit\" },\n"
		"  \"dev\": { \"script\": \"serve\",\n"
		"           \"args\": \"--port {port}\",\n"
		"           \"ready\": \"ready in\", \"path\": \"/health\" }\n"
		"}\n";

	CHECK_INT(pmbench_fixture_parse(&f, json, "fixtures/react-vite.json"),
		  0);
	CHECK_STR(f.name, "react-vite");
	CHECK_STR(f.repo, "https://github.com/o/r.git");
	CHECK_STR(f.commit, "6072ae1d389a9088a7fdde9548601e5561e6198d");
	CHECK_STR(f.subdir, "packages/app");
	CHECK_STR(f.description, "React app");
	CHECK_STR(f.manifest_path, "fixtures/react-vite.json");
	CHECK_INT(f.is_remote, 1);
	CHECK_INT(f.is_bare_path, 0);
	CHECK_INT(f.env.nr, 2);
	CHECK_STR(f.env.v[0], "CYPRESS_INSTALL_BINARY=0");
	CHECK_STR(f.env.v[1], "E=");
	CHECK_INT(f.pms_nr, 2);
	pm = pmbench_fixture_pm(&f, "npm");
	CHECK(pm != NULL);
	CHECK_INT(pm->flags.nr, 1);
	CHECK_STR(pm->flags.v[0], "--legacy-peer-deps");
	CHECK_INT(pm->env.nr, 1);
	CHECK_STR(pm->env.v[0], "K=V");
	pm = pmbench_fixture_pm(&f, "bun");
	CHECK(pm != NULL);
	CHECK_INT(pm->flags.nr, 2);
	CHECK_STR(pm->flags.v[1], "-x");
	CHECK_INT(pm->env.nr, 0);
	CHECK(pmbench_fixture_pm(&f, "pnpm") == NULL);
	CHECK_INT(f.scripts.nr, 2);
	CHECK_STR(f.scripts.v[1], "test");
	CHECK_INT(pmbench_fixture_has(&f, "build"), 1);
	CHECK_STR(pmbench_fixture_get(&f, "build", "script"), "build:prod");
	CHECK_STR(pmbench_fixture_get(&f, "build", "output"), "dist");
	CHECK_STR(pmbench_fixture_get(&f, "test", "script"), "test:unit");
	CHECK_INT(pmbench_fixture_has(&f, "dev"), 1);
	CHECK_STR(pmbench_fixture_get(&f, "dev", "script"), "serve");
	CHECK_STR(pmbench_fixture_get(&f, "dev", "args"), "--port {port}");
	CHECK_STR(pmbench_fixture_get(&f, "dev", "ready"), "ready in");
	CHECK_STR(pmbench_fixture_get(&f, "dev", "path"), "/health");
	CHECK(f.resolved_commit == NULL && f.source_dir == NULL);
	pmbench_fixture_release(&f);
	CHECK(f.name == NULL && f.pms == NULL && f.pms_nr == 0);
}

TEST(parse_minimal_defaults)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;

	CHECK_INT(pmbench_fixture_parse(&f,
					"{\"name\":\"a.b_c-1\","
					"\"repo\":\"../x\","
					"\"subdir\":\".\"}",
					"m.json"),
		  0);
	CHECK_STR(f.name, "a.b_c-1");
	CHECK_INT(f.is_remote, 0);
	CHECK(f.commit == NULL);
	CHECK(f.subdir == NULL);
	CHECK(f.description == NULL);
	CHECK_INT(f.env.nr, 0);
	CHECK(f.env.v != NULL);
	CHECK_INT(pmbench_fixture_has(&f, "build"), 0);
	CHECK_INT(pmbench_fixture_has(&f, "dev"), 0);
	CHECK_STR(pmbench_fixture_get(&f, "build", "script"), "build");
	CHECK_STR(pmbench_fixture_get(&f, "test", "script"), "test");
	CHECK_STR(pmbench_fixture_get(&f, "dev", "script"), "dev");
	CHECK_STR(pmbench_fixture_get(&f, "dev", "path"), "/");
	CHECK(pmbench_fixture_get(&f, "build", "output") == NULL &&
	      pmbench_fixture_get(&f, "dev", "args") == NULL &&
	      pmbench_fixture_get(&f, "dev", "ready") == NULL);
	pmbench_fixture_release(&f);

	/* file:// is local (no commit needed); scp-like syntax is remote. */
	CHECK_INT(pmbench_fixture_parse(&f,
					"{\"name\":\"a\",\"repo\":"
					"\"file:///srv/r.git\"}",
					"m.json"),
		  0);
	CHECK_INT(f.is_remote, 0);
	pmbench_fixture_release(&f);
	CHECK_CONTAINS(parse_error("{\"name\":\"a\",\"repo\":"
				   "\"git@github.com:o/r.git\"}"),
		       "missing required field 'commit'");
}

TEST(parse_malformed_json)
{
	const char *msg;

	msg = parse_error("{\n  \"name\": \"x\",\n  \"repo\" \"y\"\n}\n");
	CHECK_CONTAINS(msg, "fixtures/x.json:3:10: malformed JSON near "
			    "'\"y\"'");
	CHECK(!strchr(msg, '\n'));

	msg = parse_error("{\n\t\"name\": \"x\",\n\t\"repo\": \"y\",\n}");
	CHECK_CONTAINS(msg, "fixtures/x.json:4:1: malformed JSON near '}'");

	msg = parse_error("{ name: \"x\" }");
	CHECK_CONTAINS(msg, "fixtures/x.json:1:3: malformed JSON near "
			    "'name: \"x\" }'");

	msg = parse_error("{ \"name\": \"x\"");
	CHECK_CONTAINS(msg, "fixtures/x.json:1:14: malformed JSON: "
			    "unexpected end of input");

	msg = parse_error("{ \"name\": \"x\", \"repo\": \"y\" } trailing");
	CHECK_CONTAINS(msg, "fixtures/x.json:1:30: malformed JSON near "
			    "'trailing'");

	msg = parse_error("");
	CHECK_CONTAINS(msg, "fixtures/x.json:1:1: malformed JSON");

	msg = parse_error("[1, 2]");
	CHECK_CONTAINS(msg, "fixtures/x.json: a manifest must be a JSON "
			    "object");
}

TEST(parse_missing_fields)
{
	CHECK_STR(parse_error("{ \"repo\": \"x\" }"),
		  "fixtures/x.json: missing required field 'name' (the "
		  "fixture's name, used as a folder name)");
	CHECK_STR(parse_error("{ \"name\": \"x\" }"),
		  "fixtures/x.json: missing required field 'repo' (the git "
		  "URL or local path of the project)");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": "
				   "\"https://h/r.git\" }"),
		       "fixtures/x.json: missing required field 'commit' (a "
		       "remote repository must be pinned");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"\" }"),
		       "field 'repo' must not be empty");
	CHECK_CONTAINS(parse_error("{ \"name\": 3, \"repo\": \"r\" }"),
		       "field 'name' must be a string, got a number");
}

TEST(parse_bad_name)
{
	CHECK_CONTAINS(parse_error("{ \"name\": \".hidden\", "
				   "\"repo\": \"r\" }"),
		       "field 'name' must be 1 to 100 letters");
	CHECK_CONTAINS(parse_error("{ \"name\": \"a/b\", \"repo\": \"r\" }"),
		       "got 'a/b'");
	CHECK_CONTAINS(parse_error("{ \"name\": \"\", \"repo\": \"r\" }"),
		       "field 'name' must be 1 to 100");
	/* results/-x-<time>.json would read as an option. */
	CHECK_CONTAINS(parse_error("{ \"name\": \"-x\", \"repo\": \"r\" }"),
		       "not start with '.' or '-', got '-x'");
}

/* The name of `path` (a folder) or, when `url`, of a repository URL. */
static const char *name_of(const char *path, int url)
{
	static struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	struct pmbench_buf json = PMBENCH_BUF_INIT;

	pmbench_buf_reset(&b);
	if (url)
		pmbench_fixture_name_of_url(&b, path);
	else
		pmbench_fixture_name_of(&b, path);
	/* Every name made is one a manifest may have. */
	pmbench_buf_addf(&json, "{ \"name\": \"%s\", \"repo\": \"r\" }", b.ptr);
	if (pmbench_fixture_parse(&f, json.ptr, "x.json") < 0)
		pmbench_buf_adds(&b, " (refused as a manifest's name)");
	pmbench_fixture_release(&f);
	pmbench_buf_release(&json);
	return b.ptr;
}

/*
 * Issue 32, items 6 and 7: a folder named 'ü' was the fixture '--'; a
 * URL with a trailing slash had an empty name.
 */
TEST(names_of_folders_and_urls)
{
	CHECK_STR(name_of("/x/app", 0), "app");
	CHECK_STR(name_of("/x/app/", 0), "app");
	CHECK_STR(name_of("/x/my.app_2-b", 0), "my.app_2-b");
	CHECK_STR(name_of("/x/\xc3\xbc", 0), "u-119dd44a");
	CHECK_STR(name_of("/x/caf\xc3\xa9", 0), "cafe-a82b5049");
	CHECK_STR(name_of("/x/Stra\xc3\x9f"
			  "e",
			  0),
		  "Strasse-1dc32e38");
	CHECK_STR(name_of("/x/\xe6\x97\xa5\xe6\x9c\xac", 0),
		  "fixture-9f26ee51");
	CHECK_STR(name_of("/x/-rf", 0), "_rf-2a6775c8");
	CHECK_STR(name_of("/x/.app", 0), "_app-ace4ef90");
	CHECK_STR(name_of("/", 0), "root");
	/* Two folders that read alike are two fixtures. */
	CHECK(strcmp(name_of("/x/a b", 0), "a-b"));
	CHECK_STR(name_of("/x/a b", 0), "a-b-10a3f9f2");
	/* A long name is cut, and its hash kept. */
	{
		struct pmbench_buf p = PMBENCH_BUF_INIT;

		pmbench_buf_adds(&p, "/x/");
		for (int i = 0; i < 120; i++)
			pmbench_buf_adds(&p, "\xc3\xbc");
		CHECK_INT(strlen(name_of(p.ptr, 0)), 100);
		CHECK_INT(strspn(name_of(p.ptr, 0), "u"), 91);
		pmbench_buf_reset(&p);
		pmbench_buf_adds(&p, "/x/");
		for (int i = 0; i < 120; i++)
			pmbench_buf_addch(&p, 'a');
		CHECK_INT(strlen(name_of(p.ptr, 0)), 100);
		CHECK_INT(name_of(p.ptr, 0)[91], '-');
		pmbench_buf_release(&p);
	}

	/* As git names a clone. */
	CHECK_STR(name_of("file:///p/repo/", 1), "repo");
	CHECK_STR(name_of("file:///p/repo//", 1), "repo");
	CHECK_STR(name_of("https://host/o/repo.git", 1), "repo");
	CHECK_STR(name_of("https://host/o/repo/.git/", 1), "repo");
	CHECK_STR(name_of("git@host:o/repo.git", 1), "repo");
	CHECK_STR(name_of("git@host:repo.git", 1), "repo");
	CHECK_STR(name_of("https://host/o/\xc3\xbc.git", 1), "u-119dd44a");
}

TEST(parse_bad_commit)
{
	CHECK_STR(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
			      "\"commit\": \"abc\" }"),
		  "fixtures/x.json: 'commit' must be a full 40-character "
		  "SHA, got 'abc'");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"commit\": \"zzzzzzzzzzzzzzzzzzzzzzzzzz"
				   "zzzzzzzzzzzzzz\" }"),
		       "must be a full 40-character SHA");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"commit\": 12 }"),
		       "field 'commit' must be a string, got a number");
}

TEST(parse_unknown_field)
{
	CHECK_STR(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
			      "\"comit\": \"a\" }"),
		  "fixtures/x.json: unknown field 'comit' (did you mean "
		  "'commit'?)");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"zzzzzz\": 1 }"),
		       "unknown field 'zzzzzz' (known fields: name, repo, "
		       "commit, subdir");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"build\": { \"out\": \"dist\" } }"),
		       "unknown field 'build.out'");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"dev\": { \"redy\": \"x\" } }"),
		       "unknown field 'dev.redy' (did you mean 'ready'?)");
	CHECK_STR(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
			      "\"test\": { \"scrpt\": \"t\" } }"),
		  "fixtures/x.json: unknown field 'test.scrpt' (did you mean "
		  "'script'?)");
	CHECK_STR(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
			      "\"test\": \"vitest\" }"),
		  "fixtures/x.json: field 'test' must be an object ({ ... }), "
		  "got a string");
	CHECK_STR(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
			      "\"test\": { \"script\": \"\" } }"),
		  "fixtures/x.json: field 'test.script' must not be empty "
		  "(leave the field out instead)");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"tset\": {} }"),
		       "unknown field 'tset' (did you mean 'test'?)");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"name\": \"y\" }"),
		       "field 'name' appears twice");
}

TEST(parse_bad_subdir)
{
	CHECK_STR(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
			      "\"subdir\": \"a/../../b\" }"),
		  "fixtures/x.json: field 'subdir' must not contain '..' or "
		  "be absolute, got 'a/../../b' (give a folder inside the "
		  "repository)");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"subdir\": \"..\" }"),
		       "field 'subdir' must not contain '..'");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"subdir\": \"/etc\" }"),
		       "field 'subdir' must not contain '..' or be absolute, "
		       "got '/etc'");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"build\": { \"output\": \"../out\" } }"),
		       "field 'build.output' must not contain '..'");
	/* A name that merely starts with two dots is fine. */
	CHECK_STR(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
			      "\"subdir\": \"..a/b..\" }"),
		  "(no error)");
}

TEST(parse_bad_env)
{
	CHECK_STR(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
			      "\"env\": { \"A\": \"1\", \"B\": 2 } }"),
		  "fixtures/x.json: field 'env.B' must be a string, got a "
		  "number (quote it: \"...\")");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"env\": { \"A\": true } }"),
		       "field 'env.A' must be a string, got a boolean");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"env\": [\"A=1\"] }"),
		       "field 'env' must be an object");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"env\": { \"A=B\": \"1\" } }"),
		       "invalid variable name 'A=B'");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"pm\": { \"npm\": { \"env\": "
				   "{ \"K\": null } } } }"),
		       "field 'pm.npm.env.K' must be a string, got null");
}

TEST(parse_bad_pm)
{
	CHECK_STR(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
			      "\"pm\": { \"pnmp\": {} } }"),
		  "fixtures/x.json: unknown field 'pm.pnmp' (did you mean "
		  "'pnpm'?)");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"pm\": { \"cargo-x\": {} } }"),
		       "unknown field 'pm.cargo-x' (known package managers: "
		       "npm, yarn, yarn-berry, pnpm, bun, deno, "
		       "yarn-berry:pnp, ");
	/* Every PM and variant of the table, in its order. */
	{
		struct pmbench_buf want = PMBENCH_BUF_INIT;

		pmbench_buf_adds(&want, "(known package managers: ");
		pmbench_pm_join_names(&want, ", ", PMBENCH_PM_JOIN_VARIANTS);
		pmbench_buf_adds(&want, ")");
		CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": "
					   "\"r\", \"pm\": { \"cargo-x\": {} "
					   "} }"),
			       want.ptr);
		pmbench_buf_release(&want);
	}
	/* A variant is a key of its own. */
	CHECK_STR(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
			      "\"pm\": { \"npm:linkd\": {} } }"),
		  "fixtures/x.json: unknown field 'pm.npm:linkd' (did you "
		  "mean 'npm:linked'?)");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"pm\": { \"npm\": { \"flag\": [] } } }"),
		       "unknown field 'pm.npm.flag' (did you mean 'flags'?)");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"pm\": { \"npm\": { \"flags\": "
				   "\"--x\" } } }"),
		       "field 'pm.npm.flags' must be an array of strings, got "
		       "a string");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"scripts\": [\"a\", 1] }"),
		       "field 'scripts[1]' must be a string, got a number");
	CHECK_CONTAINS(parse_error("{ \"name\": \"x\", \"repo\": \"r\", "
				   "\"dev\": { \"path\": \"health\" } }"),
		       "field 'dev.path' must start with '/'");
}

/*
 * Loading.
 */

TEST(load_by_name)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	struct pmbench_strvec list = PMBENCH_STRVEC_INIT;

	setup();
	put("fixtures/b.json", "{ \"name\": \"bee\", \"repo\": \"r\" }");
	put("fixtures/a.json", "{ \"name\": \"ay\", \"repo\": \"r\" }");
	put("fixtures/notes.txt", "not a manifest");
	put("fixtures/.hidden.json", "{}");

	CHECK_INT(pmbench_fixture_load(&f, "b", sp("fixtures")), 0);
	CHECK_STR(f.name, "bee");
	CHECK_STR(f.manifest_path, sp("fixtures/b.json"));
	pmbench_fixture_release(&f);

	CHECK_INT(pmbench_fixture_load(&f, "a.json", sp("fixtures")), 0);
	CHECK_STR(f.name, "ay");
	pmbench_fixture_release(&f);

	CHECK_INT(pmbench_fixture_load(&f, sp("fixtures/a.json"), NULL), 0);
	CHECK_STR(f.name, "ay");
	pmbench_fixture_release(&f);

	CHECK_INT(pmbench_fixture_list(&list, sp("fixtures")), 0);
	CHECK_INT(list.nr, 2);
	CHECK_STR(list.v[0], sp("fixtures/a.json"));
	CHECK_STR(list.v[1], sp("fixtures/b.json"));
	pmbench_strvec_release(&list);

	CHECK_INT(pmbench_fixture_list(&list, sp("nope")), PMBENCH_ENOTFOUND);
	CHECK_INT(list.nr, 0);
}

TEST(load_errors)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	char want[8192];

	setup();
	put("fixtures/bad.json", "{ \"name\": \"bad\",\n \"repo\": }");
	CHECK_INT(pmbench_fixture_load(&f, "missing", sp("fixtures")),
		  PMBENCH_ENOTFOUND);
	snprintf(want, sizeof(want),
		 "no fixture 'missing': not a manifest in %s, a .json file "
		 "or a folder with a package.json (see 'pmbench fixtures')",
		 sp("fixtures"));
	CHECK_STR(pmbench_error_last(), want);
	CHECK(f.name == NULL);

	/* A folder without package.json is not a fixture. */
	put("empty/readme", "x");
	CHECK_INT(pmbench_fixture_load(&f, sp("empty"), sp("fixtures")),
		  PMBENCH_ENOTFOUND);

	CHECK_INT(pmbench_fixture_load(&f, "bad", sp("fixtures")),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "fixtures/bad.json:2:10: "
					     "malformed JSON near '}'");
}

TEST(bare_path)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	char *before = NULL, *after = NULL;

	setup();
	put("my app/package.json", "{ \"name\": \"my-app\" }\n");
	put("my app/src/index.js", "console.log(1)\n");
	put("my app/node_modules/dep/index.js", "x\n");
	put("my app/src/node_modules/dep/index.js", "x\n");
	put("my app/.git/HEAD", "ref: refs/heads/main\n");
	put("my app/.npmrc", "x=1\n");
	before = fingerprint("my app");

	CHECK_INT(pmbench_fixture_load(&f, sp("my app"), sp("fixtures")), 0);
	CHECK_INT(f.is_bare_path, 1);
	/* The space is no name's: the hash of "my app" tells it apart. */
	CHECK_STR(f.name, "my-app-aaadca38");
	CHECK_STR(f.repo, sp("my app"));
	CHECK(f.manifest_path == NULL);
	CHECK_STR(pmbench_fixture_get(&f, "build", "script"), "build");

	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), 0);
	CHECK(f.resolved_commit == NULL);
	CHECK_STR(f.source_dir, sp("cache/work/my-app-aaadca38/source"));
	CHECK_STR(f.project_dir, f.source_dir);
	CHECK_STR(slurp(sp("cache/work/my-app-aaadca38/source/src/index.js")),
		  "console.log(1)\n");
	CHECK_STR(slurp(sp("cache/work/my-app-aaadca38/source/.npmrc")),
		  "x=1\n");
	CHECK(!pmbench_fs_exists(sp("cache/work/my-app-aaadca38/source/.git")));
	CHECK(!pmbench_fs_exists(
		sp("cache/work/my-app-aaadca38/source/node_modules")));
	CHECK(!pmbench_fs_exists(
		sp("cache/work/my-app-aaadca38/source/src/node_modules")));

	/* A second checkout replaces the copy. */
	put("cache/work/my-app-aaadca38/source/stray", "x");
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), 0);
	CHECK(!pmbench_fs_exists(
		sp("cache/work/my-app-aaadca38/source/stray")));

	after = fingerprint("my app");
	CHECK_STR(after, before);
	free(before);
	free(after);
	pmbench_fixture_release(&f);

	/* The cache inside the project would copy itself forever. */
	CHECK_INT(pmbench_fixture_load(&f, sp("my app"), NULL), 0);
	CHECK(pmbench_fixture_checkout(&f, sp("my app/.cache")) < 0);
	CHECK_CONTAINS(pmbench_error_last(), "is inside the fixture");
	pmbench_fixture_release(&f);
}

TEST(manifest_plain_folder)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;

	setup();
	put("proj/package.json", "{}\n");
	put("proj/web/package.json", "{}\n");
	put("m/plain.json", "{ \"name\": \"plain\", \"repo\": \"../proj\", "
			    "\"subdir\": \"web\" }");
	CHECK_INT(pmbench_fixture_load(&f, sp("m/plain.json"), NULL), 0);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), 0);
	CHECK(f.resolved_commit == NULL);
	CHECK_STR(f.project_dir, sp("cache/work/plain/source/web"));
	CHECK(pmbench_fs_isfile(
		sp("cache/work/plain/source/web/package.json")));
	pmbench_fixture_release(&f);

	put("m/pinned.json", "{ \"name\": \"pinned\", \"repo\": \"../proj\", "
			     "\"commit\": "
			     "\"0123456789abcdef0123456789abcdef01234567\" }");
	CHECK_INT(pmbench_fixture_load(&f, sp("m/pinned.json"), NULL), 0);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "'../proj' is not a git "
					     "repository");
	pmbench_fixture_release(&f);

	put("m/gone.json", "{ \"name\": \"gone\", \"repo\": \"../nothing\" }");
	CHECK_INT(pmbench_fixture_load(&f, sp("m/gone.json"), NULL), 0);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), PMBENCH_ENOTFOUND);
	CHECK_CONTAINS(pmbench_error_last(), "repository folder '../nothing'");
	CHECK_CONTAINS(pmbench_error_last(), "(check 'repo' in ");
	pmbench_fixture_release(&f);
}

/*
 * Checkout of git repositories.
 */

/* The path of the single clone in cache/repos (static), or "". */
static const char *the_clone(void)
{
	static char path[4096];
	struct pmbench_strvec found = PMBENCH_STRVEC_INIT;

	path[0] = '\0';
	if (pmbench_fs_find_dirs(&found, sp("cache/repos"), "objects") == 0 &&
	    found.nr == 1) {
		char *slash = strrchr(found.v[0], '/');

		if (slash)
			*slash = '\0';
		snprintf(path, sizeof(path), "%s",
			 sp("cache/repos/%s", found.v[0]));
	}
	pmbench_strvec_release(&found);
	return path;
}

TEST(clone_pinned_commit)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	char first[41], second[41];
	char *before = NULL, *after = NULL;

	setup();
	make_origin(first, second);
	before = fingerprint("origin");

	CHECK_INT(load_origin(&f, first, NULL), 0);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), 0);
	CHECK_STR(f.resolved_commit, first);
	CHECK_STR(f.source_dir, sp("cache/work/app/source"));
	CHECK_STR(f.project_dir, f.source_dir);
	CHECK_STR(slurp(sp("cache/work/app/source/a.txt")), "one\n");
	CHECK(pmbench_fs_isfile(sp("cache/work/app/source/package.json")));
	CHECK(!pmbench_fs_exists(sp("cache/work/app/source/.git")));
	/* A bare clone named <name>-<12 hex>.git. */
	CHECK_CONTAINS(the_clone(), "/cache/repos/app-");
	CHECK_INT(strlen(strrchr(the_clone(), '/')), strlen("/app-") + 12 + 4);
	CHECK(pmbench_fs_isfile(
		sp("%s/HEAD", the_clone() + strlen(sandbox_dir) + 1)));
	CHECK(!pmbench_fs_exists(
		sp("%s/index", the_clone() + strlen(sandbox_dir) + 1)));
	pmbench_fixture_release(&f);

	/* The second commit, then a subdir of it. */
	CHECK_INT(load_origin(&f, second, ", \"subdir\": \"packages/web\""), 0);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), 0);
	CHECK_STR(f.resolved_commit, second);
	CHECK_STR(slurp(sp("cache/work/app/source/a.txt")), "two\n");
	CHECK_STR(f.project_dir, sp("cache/work/app/source/packages/web"));
	pmbench_fixture_release(&f);

	after = fingerprint("origin");
	CHECK_STR(after, before);
	CHECK_STR(head_of("origin"), second);
	CHECK_STR(slurp(sp("origin/a.txt")), "two\n");
	free(before);
	free(after);
}

TEST(clone_reused)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	char first[41], second[41], clone[4096];
	struct stat st1, st2;

	setup();
	make_origin(first, second);
	CHECK_INT(load_origin(&f, first, NULL), 0);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), 0);
	snprintf(clone, sizeof(clone), "%s", the_clone());
	CHECK(clone[0] != '\0');
	CHECK_INT(stat(clone, &st1), 0);
	/* A re-clone would lose this marker. */
	snprintf(clone + strlen(clone), sizeof(clone) - strlen(clone),
		 "/pmbench-marker");
	{
		FILE *fp = fopen(clone, "w");

		CHECK(fp != NULL);
		fclose(fp);
	}
	*strrchr(clone, '/') = '\0';
	put("cache/work/app/source/stray", "x");

	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), 0);
	CHECK_STR(f.resolved_commit, first);
	CHECK_INT(stat(clone, &st2), 0);
	CHECK_INT(st1.st_ino, st2.st_ino);
	CHECK(pmbench_fs_exists(
		sp("%s/pmbench-marker", clone + strlen(sandbox_dir) + 1)));
	CHECK_STR(the_clone(), clone);
	/* The work tree was replaced. */
	CHECK(!pmbench_fs_exists(sp("cache/work/app/source/stray")));
	CHECK_STR(slurp(sp("cache/work/app/source/a.txt")), "one\n");
	pmbench_fixture_release(&f);
}

TEST(fetch_new_commit)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	char first[41], second[41], third[41], clone[4096];
	char *before = NULL, *after = NULL;
	git_repository *repo = NULL;

	setup();
	make_origin(first, second);
	CHECK_INT(load_origin(&f, first, NULL), 0);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), 0);
	pmbench_fixture_release(&f);
	snprintf(clone, sizeof(clone), "%s/pmbench-marker", the_clone());
	{
		FILE *fp = fopen(clone, "w");

		CHECK(fp != NULL);
		fclose(fp);
	}

	CHECK_INT(git_repository_open(&repo, sp("origin")), 0);
	put("origin/a.txt", "three\n");
	put("origin/new.txt", "new\n");
	snprintf(third, sizeof(third), "%s", commit_all(repo, "third"));
	git_repository_free(repo);
	before = fingerprint("origin");

	CHECK_INT(load_origin(&f, third, NULL), 0);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), 0);
	CHECK_STR(f.resolved_commit, third);
	CHECK_STR(slurp(sp("cache/work/app/source/a.txt")), "three\n");
	CHECK_STR(slurp(sp("cache/work/app/source/new.txt")), "new\n");
	/* Fetched into the same clone, not cloned again. */
	CHECK(pmbench_fs_exists(clone));
	pmbench_fixture_release(&f);

	after = fingerprint("origin");
	CHECK_STR(after, before);
	CHECK_STR(head_of("origin"), third);
	free(before);
	free(after);
}

TEST(local_head)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	char first[41], second[41], third[41];
	git_repository *repo = NULL;
	char *before = NULL, *after = NULL;

	setup();
	make_origin(first, second);
	/* Uncommitted changes are not part of HEAD. */
	put("origin/a.txt", "dirty\n");
	before = fingerprint("origin");
	CHECK_INT(load_origin(&f, NULL, NULL), 0);
	CHECK(f.commit == NULL);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), 0);
	CHECK_STR(f.resolved_commit, second);
	CHECK_STR(slurp(sp("cache/work/app/source/a.txt")), "two\n");
	after = fingerprint("origin");
	CHECK_STR(after, before);
	free(before);
	free(after);

	/* HEAD moves: the next checkout follows it. */
	CHECK_INT(git_repository_open(&repo, sp("origin")), 0);
	snprintf(third, sizeof(third), "%s", commit_all(repo, "third"));
	git_repository_free(repo);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), 0);
	CHECK_STR(f.resolved_commit, third);
	CHECK_STR(slurp(sp("cache/work/app/source/a.txt")), "dirty\n");
	pmbench_fixture_release(&f);
}

TEST(file_url)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	char first[41], second[41], json[8192];

	setup();
	make_origin(first, second);
	snprintf(json, sizeof(json),
		 "{ \"name\": \"url\", \"repo\": \"file://%s\", "
		 "\"commit\": \"%s\" }",
		 sp("origin"), first);
	CHECK_INT(pmbench_fixture_parse(&f, json, "url.json"), 0);
	CHECK_INT(f.is_remote, 0);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), 0);
	CHECK_STR(f.resolved_commit, first);
	CHECK_STR(slurp(sp("cache/work/url/source/a.txt")), "one\n");
	pmbench_fixture_release(&f);
}

TEST(commit_not_in_repo)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	char first[41], second[41], want[8192];

	setup();
	make_origin(first, second);
	CHECK_INT(load_origin(&f, "0123456789abcdef0123456789abcdef01234567",
			      NULL),
		  0);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), PMBENCH_ENOTFOUND);
	snprintf(want, sizeof(want),
		 "commit 0123456789abcdef0123456789abcdef01234567 is not in "
		 "'origin' (check 'commit' in %s)",
		 sp("app.json"));
	CHECK_STR(pmbench_error_last(), want);
	CHECK(f.resolved_commit == NULL && f.source_dir == NULL);
	pmbench_fixture_release(&f);
}

TEST(clone_fails)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;

	setup();
	CHECK_INT(pmbench_fixture_parse(&f,
					"{ \"name\": \"x\", \"repo\": "
					"\"file:///nonexistent\" }",
					"fixtures/x.json"),
		  0);
	CHECK(pmbench_fixture_checkout(&f, sp("cache")) < 0);
	CHECK_CONTAINS(pmbench_error_last(),
		       "cannot clone 'file:///nonexistent': ");
	CHECK_CONTAINS(pmbench_error_last(),
		       " (check 'repo' in fixtures/x.json)");
	CHECK(!strchr(pmbench_error_last(), '\n'));
	/* No half-made clone is left to be reused. */
	CHECK_STR(the_clone(), "");
	pmbench_fixture_release(&f);
}

TEST(subdir_missing)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	char first[41], second[41];

	setup();
	make_origin(first, second);
	CHECK_INT(load_origin(&f, first, ", \"subdir\": \"packages/api\""), 0);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), PMBENCH_ENOTFOUND);
	CHECK_CONTAINS(pmbench_error_last(),
		       "subdir 'packages/api' does not exist in 'origin' "
		       "(check 'subdir' in ");
	CHECK(f.project_dir == NULL);
	pmbench_fixture_release(&f);

	CHECK_INT(load_origin(&f, first, ", \"subdir\": \"a.txt\""), 0);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "subdir 'a.txt' of 'origin' is "
					     "not a folder");
	pmbench_fixture_release(&f);
}

TEST(subdir_symlink_escape)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	git_repository *repo;
	char sha[41];

	setup();
	put("outside/package.json", "{}\n");
	repo = repo_init("origin");
	put("origin/package.json", "{}\n");
	CHECK_INT(symlink(sp("outside"), sp("origin/escape")), 0);
	CHECK_INT(symlink("../../../../../../../../../../..", sp("origin/up")),
		  0);
	CHECK_INT(symlink("package.json", sp("origin/inner")), 0);
	snprintf(sha, sizeof(sha), "%s", commit_all(repo, "links"));
	git_repository_free(repo);

	CHECK_INT(load_origin(&f, sha, ", \"subdir\": \"escape\""), 0);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(),
		       "subdir 'escape' of 'origin' leads outside the "
		       "repository");
	/* The link was checked out as a link, not followed. */
	CHECK(pmbench_fs_exists(sp("cache/work/app/source/escape")));
	pmbench_fixture_release(&f);

	CHECK_INT(load_origin(&f, sha, ", \"subdir\": \"up\""), 0);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "leads outside the repository");
	pmbench_fixture_release(&f);
}

TEST(no_package_json)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	git_repository *repo;
	char sha[41];

	setup();
	repo = repo_init("origin");
	put("origin/README.md", "hi\n");
	put("origin/docs/index.md", "hi\n");
	snprintf(sha, sizeof(sha), "%s", commit_all(repo, "docs"));
	git_repository_free(repo);

	CHECK_INT(load_origin(&f, sha, NULL), 0);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), PMBENCH_ENOTFOUND);
	CHECK_STR(pmbench_error_last(),
		  "no package.json in 'origin' of fixture 'app' (set "
		  "'subdir' to the project's folder)");
	pmbench_fixture_release(&f);

	CHECK_INT(load_origin(&f, sha, ", \"subdir\": \"docs\""), 0);
	CHECK_INT(pmbench_fixture_checkout(&f, sp("cache")), PMBENCH_ENOTFOUND);
	CHECK_CONTAINS(pmbench_error_last(),
		       "no package.json in 'docs' of fixture 'app'");
	pmbench_fixture_release(&f);
}

/*
 * The context initialises libgit2 (and libcurl) once, before anything
 * of the engine uses it: pmbench_ctx_init() in a process where nothing
 * did leaves libgit2 initialised once, and again changes nothing (issue
 * 34: each user had its own static). The first case, so that nothing
 * else initialised it before.
 */
TEST(context_initialises_the_libraries)
{
	struct pmbench_ctx ctx = PMBENCH_CTX_INIT;

	CHECK_INT(pmbench_ctx_init(&ctx), 0);
	/* git_libgit2_init() says how many initialisations there are now. */
	CHECK_INT(git_libgit2_init(), 2);
	git_libgit2_shutdown();
	CHECK_INT(pmbench_ctx_libraries(), 0);
	CHECK_INT(git_libgit2_init(), 2);
	git_libgit2_shutdown();
	pmbench_ctx_release(&ctx);
}

CHECK_MAIN(CASE(context_initialises_the_libraries), CASE(parse_full),
	   CASE(parse_minimal_defaults), CASE(parse_malformed_json),
	   CASE(parse_missing_fields), CASE(parse_bad_name),
	   CASE(names_of_folders_and_urls), CASE(parse_bad_commit),
	   CASE(parse_unknown_field), CASE(parse_bad_subdir),
	   CASE(parse_bad_env), CASE(parse_bad_pm), CASE(load_by_name),
	   CASE(load_errors), CASE(bare_path), CASE(manifest_plain_folder),
	   CASE(clone_pinned_commit), CASE(clone_reused),
	   CASE(fetch_new_commit), CASE(local_head), CASE(file_url),
	   CASE(commit_not_in_repo), CASE(clone_fails), CASE(subdir_missing),
	   CASE(subdir_symlink_escape), CASE(no_package_json))
