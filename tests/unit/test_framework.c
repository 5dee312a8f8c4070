#include "pmbench/common.h"

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/fixture.h"
#include "pmbench/framework.h"
#include "pmbench/fs.h"

/*
 * The dev-server table: every entry complete, each server told from a
 * dev script and dependencies the way real projects write them, the
 * hmr file and path found, and the manifest's "hmr" fields parsed.
 */

/* A project folder `name` with this package.json text. */
static const char *project(const char *name, const char *pkg)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	const char *dir = check_path(name);

	pmbench_fs_mkdirp(dir, 0755);
	pmbench_buf_path(&p, dir, "package.json");
	pmbench_fs_write_atomic(p.ptr, pkg, strlen(pkg));
	pmbench_buf_release(&p);
	return dir;
}

static const char *detect(const char *script, const char *deps)
{
	struct pmbench_buf pkg = PMBENCH_BUF_INIT;
	const struct pmbench_framework *fw;
	const char *dir;

	pmbench_buf_addf(&pkg,
			 "{ \"scripts\": { \"dev\": \"%s\" }, "
			 "\"devDependencies\": { %s } }",
			 script, deps);
	dir = project("p", pkg.ptr);
	fw = pmbench_framework_detect(dir, "dev");
	pmbench_buf_release(&pkg);
	return fw ? fw->name : "(none)";
}

TEST(table_entries_are_complete)
{
	for (size_t i = 0; i < pmbench_frameworks_nr; i++) {
		const struct pmbench_framework *fw = &pmbench_frameworks[i];

		CHECK(fw->name && fw->title && fw->args && fw->ready);
		CHECK(strstr(fw->args, "{port}") != NULL);
		CHECK(strstr(fw->args, "127.0.0.1") != NULL);
		CHECK(fw->commands && fw->commands[0]);
		CHECK(fw->deps && fw->deps[0]);
		CHECK(fw->hmr_files && fw->hmr_files[0] && fw->hmr_path);
		CHECK(!fw->hmr_path[0] || fw->hmr_path[0] == '/');
		CHECK(!fw->via || pmbench_framework_get(fw->via));
		CHECK(pmbench_framework_get(fw->name) == fw);
	}
	CHECK(pmbench_framework_get("nope") == NULL);
}

TEST(detected_from_script_and_dependencies)
{
	check_sandbox();
	CHECK_STR(detect("vite", "\"vite\": \"^8\""), "vite");
	CHECK_STR(detect("vite dev", "\"vite\": \"^8\", \"@sveltejs/kit\": "
				     "\"^2\""),
		  "sveltekit");
	CHECK_STR(detect("next dev --turbopack", "\"next\": \"15\""), "next");
	CHECK_STR(detect("astro dev", "\"astro\": \"5\""), "astro");
	CHECK_STR(detect("vue-cli-service serve", "\"@vue/cli-service\": "
						  "\"5\""),
		  "vue-cli");
	CHECK_STR(detect("webpack serve --mode development",
			 "\"webpack-dev-server\": \"5\""),
		  "webpack-dev-server");
	/* A script that only names the bin's path. */
	CHECK_STR(detect("node_modules/.bin/vite --open", "\"react\": \"19\""),
		  "vite");
	/* A wrapper script: the dependency tells. */
	CHECK_STR(detect("node scripts/dev.js", "\"next\": \"15\""), "next");
	/* Words inside other words do not count. */
	CHECK_STR(detect("invite-server", "\"react\": \"19\""), "(none)");
	CHECK_STR(detect("node server.js", "\"express\": \"4\""), "(none)");
	CHECK(pmbench_framework_detect(check_path("missing"), "dev") == NULL);
	CHECK(pmbench_framework_detect(NULL, "dev") == NULL);
}

TEST(hmr_target_is_the_first_file_there)
{
	struct pmbench_buf file = PMBENCH_BUF_INIT, path = PMBENCH_BUF_INIT;
	const struct pmbench_framework *vite = pmbench_framework_get("vite");
	const struct pmbench_framework *vue = pmbench_framework_get("vue-cli");
	const char *dir;
	struct pmbench_buf f = PMBENCH_BUF_INIT;

	check_sandbox();
	dir = project("q", "{}");
	CHECK_INT(pmbench_framework_hmr_target(&file, &path, vite, dir),
		  PMBENCH_ENOTFOUND);
	CHECK_INT((int)file.len, 0);
	pmbench_buf_path(&f, dir, "src");
	pmbench_fs_mkdirp(f.ptr, 0755);
	pmbench_buf_reset(&f);
	pmbench_buf_path(&f, dir, "src/App.vue");
	pmbench_fs_write_atomic(f.ptr, "<template/>", 11);
	CHECK_INT(pmbench_framework_hmr_target(&file, &path, vite, dir), 0);
	CHECK_STR(file.ptr, "src/App.vue");
	/* Vite serves the module at its own path. */
	CHECK_STR(path.ptr, "/src/App.vue");
	pmbench_buf_reset(&file);
	pmbench_buf_reset(&path);
	CHECK_INT(pmbench_framework_hmr_target(&file, &path, vue, dir), 0);
	CHECK_STR(path.ptr, "/js/app.js");
	pmbench_buf_release(&file);
	pmbench_buf_release(&path);
	pmbench_buf_release(&f);
}

TEST(manifest_hmr_fields)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;

	CHECK_INT(pmbench_fixture_parse(
			  &f,
			  "{ \"name\": \"a\", \"repo\": \".\", "
			  "\"hmr\": { \"file\": \"./src//App.tsx\", "
			  "\"path\": \"/src/App.tsx\" } }",
			  "m.json"),
		  0);
	CHECK(pmbench_fixture_has(&f, "hmr"));
	CHECK_STR(pmbench_fixture_get(&f, "hmr", "file"), "src/App.tsx");
	CHECK_STR(pmbench_fixture_get(&f, "hmr", "path"), "/src/App.tsx");
	pmbench_fixture_release(&f);
	CHECK_INT(pmbench_fixture_parse(
			  &f, "{ \"name\": \"a\", \"repo\": \".\" }", "m.json"),
		  0);
	CHECK(!pmbench_fixture_has(&f, "hmr") &&
	      !pmbench_fixture_get(&f, "hmr", "file") &&
	      !pmbench_fixture_get(&f, "hmr", "path"));
	pmbench_fixture_release(&f);
	CHECK_INT(pmbench_fixture_parse(&f,
					"{ \"name\": \"a\", \"repo\": \".\", "
					"\"hmr\": { \"file\": \"../b.js\" } }",
					"m.json"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "m.json");
	CHECK_CONTAINS(pmbench_error_last(), "hmr.file");
	CHECK_INT(pmbench_fixture_parse(&f,
					"{ \"name\": \"a\", \"repo\": \".\", "
					"\"hmr\": { \"path\": \"x\" } }",
					"m.json"),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(),
		       "field 'hmr.path' must start with '/'");
	CHECK(!strchr(pmbench_error_last(), '\n'));
}

CHECK_MAIN(CASE(table_entries_are_complete),
	   CASE(detected_from_script_and_dependencies),
	   CASE(hmr_target_is_the_first_file_there), CASE(manifest_hmr_fields))
