/*
 * Symlinks in a repo that lead outside it (issue 32, item 1): whatever
 * links the repo holds, `migrate` and `bench` change no file outside
 * pmbench's work folder. A workspace package whose folder is such a link
 * is refused at once; a package.json, .yarnrc.yml or pnpm-workspace.yaml
 * that is one is read through it and replaced, in the copy, by the
 * recipe's new file. Every file and every symlink of the folder the links
 * point to is hashed before and after, with its inode (a file replaced
 * by a new one changes it), under every recipe and target.
 */
#include "pmbench/common.h"

#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fields.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/sha512.h"

#define ALL_TARGETS "npm,yarn,yarn-berry,pnpm,bun,deno"

/* Every entry below `dir`: type, inode, mode, size, mtime, and hash. */
static void fingerprint(struct pmbench_buf *out, const char *dir)
{
	struct pmbench_buf list = PMBENCH_BUF_INIT, p = PMBENCH_BUF_INIT;
	struct pmbench_strvec names = PMBENCH_STRVEC_INIT;

	pmbench_buf_reset(out);
	h_listing(&list, dir);
	pmbench_strvec_split(&names, list.ptr, '\n');
	for (size_t i = 0; i < names.nr; i++) {
		struct pmbench_buf text = PMBENCH_BUF_INIT;
		struct stat st;

		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, dir, names.v[i]);
		if (lstat(p.ptr, &st) < 0) {
			pmbench_buf_addf(out, "%s gone\n", names.v[i]);
			continue;
		}
		pmbench_buf_addf(out, "%s %o ino %lu size %lld mtime %lld.%09ld",
				 names.v[i], (unsigned)st.st_mode,
				 (unsigned long)st.st_ino,
				 (long long)st.st_size,
				 (long long)st.st_mtim.tv_sec,
				 st.st_mtim.tv_nsec);
		if (S_ISLNK(st.st_mode)) {
			char target[4096];
			ssize_t n = readlink(p.ptr, target, sizeof(target) - 1);

			pmbench_buf_addf(out, " -> %.*s", (int)(n > 0 ? n : 0),
					 target);
		} else if (S_ISREG(st.st_mode) &&
			   !pmbench_fs_read(&text, p.ptr, 1u << 24)) {
			struct pmbench_sha512 s;
			unsigned char md[64];

			pmbench_sha512_init(&s);
			pmbench_sha512_update(&s, text.ptr, text.len);
			pmbench_sha512_final(&s, md);
			pmbench_buf_adds(out, " sha512 ");
			for (size_t k = 0; k < sizeof(md); k++)
				pmbench_buf_addf(out, "%02x", md[k]);
		}
		pmbench_buf_addch(out, '\n');
		pmbench_buf_release(&text);
	}
	pmbench_strvec_release(&names);
	pmbench_buf_release(&list);
	pmbench_buf_release(&p);
}

/*
 * A relative link target that reaches the absolute `abs` from any folder
 * up to 40 levels deep: from the repo and from pmbench's copy of it.
 */
static void escaping(struct pmbench_buf *out, const char *abs)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (int i = 0; i < 40; i++)
		pmbench_buf_adds(&b, "../");
	pmbench_buf_adds(&b, abs + 1);
	pmbench_buf_release(out);
	*out = b;
}

static void link_to(const char *target, const char *rel)
{
	const char *at = h_write(rel, "");

	CHECK_INT(unlink(at), 0);
	CHECK_INT(symlink(target, at), 0);
}

/* The folder the links lead to, with a link of its own. */
static const char *outside(void)
{
	static char dir[4200];

	h_write("outside/b/package.json",
		"{\n  \"name\": \"b\",\n  \"version\": \"1.0.0\",\n"
		"  \"dependencies\": { \"a\": \"workspace:*\" }\n}\n");
	h_write("outside/c/package.json",
		"{\n  \"name\": \"c\",\n  \"version\": \"1.0.0\",\n"
		"  \"dependencies\": { \"a\": \"1.0.0\" }\n}\n");
	h_write("outside/files/d.json",
		"{\n  \"name\": \"d\",\n  \"version\": \"1.0.0\",\n"
		"  \"dependencies\": { \"a\": \"workspace:*\" }\n}\n");
	h_write("outside/files/e.json",
		"{\n  \"name\": \"e\",\n  \"version\": \"1.0.0\",\n"
		"  \"dependencies\": { \"a\": \"workspace:^\" }\n}\n");
	h_write("outside/files/f.json",
		"{\n  \"name\": \"f\",\n  \"version\": \"1.0.0\",\n"
		"  \"dependencies\": { \"a\": \"1.0.0\" }\n}\n");
	h_write("outside/files/yarnrc.yml", "enableTelemetry: false\n");
	h_write("outside/files/pnpm-workspace.yaml",
		"packages:\n  - 'packages/*'\n");
	h_write("outside/files/settings.yaml", "# shared settings\n");
	snprintf(dir, sizeof(dir), "%s", h_write("outside/files/x", "x\n"));
	*strrchr(dir, '/') = '\0';
	*strrchr(dir, '/') = '\0';
	link_to("files/d.json", "outside/b/alias.json");
	return dir;
}

/* Run pmbench with `args`; its stdout and stderr in `run`. */
static void run_args(struct h_run *run, const char *const *args)
{
	h_pmbench(run, args, NULL);
}

/* migrate `proj` to `to` (plus `extra`, may be NULL) into `report`. */
static void migrate(struct h_run *run, const char *proj, const char *to,
		    const char *extra)
{
	char report[4200];
	const char *args[] = { "migrate",	 proj,	    "--to",
			       to,		 "--runs",  "1",
			       "--warmup",	 "0",	    "--scenario",
			       "cache+lockfile", "--out",   report,
			       extra,		 extra ? "workspace-protocol" : NULL,
			       NULL };

	snprintf(report, sizeof(report), "%s/migrate.json", h_cache());
	run_args(run, args);
}

/* The diff of change `id` for `pm` in the last report, or "". */
static const char *diff_of(cJSON *rep, const char *pm, const char *id)
{
	const cJSON *e, *c;

	cJSON_ArrayForEach(e, cJSON_GetObjectItem(rep, "pms"))
	{
		if (strcmp(h_str(e, "pm"), pm))
			continue;
		cJSON_ArrayForEach(c, cJSON_GetObjectItem(e, "changes"))
			if (!strcmp(h_str(c, "id"), id))
				return h_str(c, "diff");
	}
	return "";
}

static cJSON *report(void)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/migrate.json", h_cache());
	return h_read_json(path);
}

/*
 * A pnpm repo whose packages d and e have their package.json outside
 * (absolute and relative links), as have pnpm-workspace.yaml and
 * .yarnrc.yml: every target's recipe writes through none of them.
 */
TEST(file_links_from_pnpm)
{
	struct pmbench_buf before = PMBENCH_BUF_INIT, after = PMBENCH_BUF_INIT;
	struct pmbench_buf rel = PMBENCH_BUF_INIT;
	const char *out;
	struct h_run run;
	cJSON *rep;

	h_setup();
	out = outside();
	h_write("p/package.json", "{\n  \"name\": \"mono\",\n"
				  "  \"version\": \"1.0.0\"\n}\n");
	h_write("p/pnpm-lock.yaml",
		"lockfileVersion: '9.0'\n# generated by fakepm pnpm\n");
	h_write("p/packages/a/package.json",
		"{\"name\":\"a\",\"version\":\"1.0.0\"}\n");
	pmbench_buf_addf(&rel, "%s/files/d.json", out);
	link_to(rel.ptr, "p/packages/d/package.json");
	pmbench_buf_reset(&rel);
	pmbench_buf_addf(&rel, "%s/files/e.json", out);
	escaping(&rel, rel.ptr);
	link_to(rel.ptr, "p/packages/e/package.json");
	pmbench_buf_reset(&rel);
	pmbench_buf_addf(&rel, "%s/files/pnpm-workspace.yaml", out);
	escaping(&rel, rel.ptr);
	link_to(rel.ptr, "p/pnpm-workspace.yaml");
	pmbench_buf_reset(&rel);
	pmbench_buf_addf(&rel, "%s/files/yarnrc.yml", out);
	link_to(rel.ptr, "p/.yarnrc.yml");
	fingerprint(&before, out);

	migrate(&run, check_path("p"), "npm,yarn,yarn-berry,bun,deno", NULL);
	CHECK_INT(run.exit_code, 0);
	fingerprint(&after, out);
	CHECK_STR(after.ptr, before.ptr);
	/* The recipes did write, in the copy: the links were replaced. */
	rep = report();
	CHECK(rep);
	CHECK_CONTAINS(diff_of(rep, "npm", "plain-versions"),
		       "+++ b/packages/d/package.json");
	CHECK_CONTAINS(diff_of(rep, "npm", "plain-versions"),
		       "+++ b/packages/e/package.json");
	CHECK_CONTAINS(diff_of(rep, "yarn", "plain-versions"),
		       "+  \"dependencies\": { \"a\": \"^1.0.0\" }");
	CHECK_CONTAINS(diff_of(rep, "yarn-berry", "node-linker"),
		       "+nodeLinker: node-modules");
	CHECK_CONTAINS(diff_of(rep, "bun", "workspaces-field"),
		       "\"workspaces\"");
	cJSON_Delete(rep);
	h_run_release(&run);
	pmbench_buf_release(&before);
	pmbench_buf_release(&after);
	pmbench_buf_release(&rel);
}

/*
 * An npm repo with plain-version references, package f's package.json
 * and pnpm-workspace.yaml outside: pnpm's recipe, either choice.
 */
TEST(file_links_from_npm)
{
	struct pmbench_buf before = PMBENCH_BUF_INIT, after = PMBENCH_BUF_INIT;
	struct pmbench_buf rel = PMBENCH_BUF_INIT;
	const char *out;
	struct h_run run;
	cJSON *rep;

	h_setup();
	out = outside();
	h_write("n/package.json",
		"{\n  \"name\": \"mono\",\n  \"version\": \"1.0.0\",\n"
		"  \"workspaces\": [\"packages/*\"]\n}\n");
	h_write("n/package-lock.json",
		"{\n  \"name\": \"fakepm-project\",\n  \"lockfileVersion\": "
		"3,\n  \"generatedBy\": \"generated by fakepm npm\",\n"
		"  \"packages\": {}\n}\n");
	h_write("n/packages/a/package.json",
		"{\"name\":\"a\",\"version\":\"1.0.0\"}\n");
	pmbench_buf_addf(&rel, "%s/files/f.json", out);
	escaping(&rel, rel.ptr);
	link_to(rel.ptr, "n/packages/f/package.json");
	pmbench_buf_reset(&rel);
	pmbench_buf_addf(&rel, "%s/files/settings.yaml", out);
	link_to(rel.ptr, "n/pnpm-workspace.yaml");
	fingerprint(&before, out);

	migrate(&run, check_path("n"), "pnpm,yarn,yarn-berry,bun,deno", NULL);
	CHECK_INT(run.exit_code, 0);
	fingerprint(&after, out);
	CHECK_STR(after.ptr, before.ptr);
	rep = report();
	CHECK(rep);
	CHECK_CONTAINS(diff_of(rep, "pnpm", "pnpm-workspace"),
		       "+++ b/pnpm-workspace.yaml");
	CHECK_CONTAINS(diff_of(rep, "pnpm", "link-workspace-packages"),
		       "+linkWorkspacePackages: true");
	cJSON_Delete(rep);
	h_run_release(&run);

	migrate(&run, check_path("n"), "pnpm", "--choose");
	CHECK_INT(run.exit_code, 0);
	fingerprint(&after, out);
	CHECK_STR(after.ptr, before.ptr);
	rep = report();
	CHECK(rep);
	CHECK_CONTAINS(diff_of(rep, "pnpm", "workspace-protocol"),
		       "+  \"dependencies\": { \"a\": \"workspace:*\" }");
	cJSON_Delete(rep);
	h_run_release(&run);
	pmbench_buf_release(&before);
	pmbench_buf_release(&after);
	pmbench_buf_release(&rel);
}

/*
 * A repo whose workspace package `pkg` is a link to the folder b outside
 * (`relative`: by a path that leaves the repo, else by its absolute
 * path): migrate, under every target and either choice, and bench refuse
 * it, and nothing outside changes.
 */
static void refused(const char *pkg, int relative, const char *lock,
		    const char *lock_text)
{
	struct pmbench_buf before = PMBENCH_BUF_INIT, after = PMBENCH_BUF_INIT;
	struct pmbench_buf p = PMBENCH_BUF_INIT, want = PMBENCH_BUF_INIT;
	const char *out = outside();
	struct h_run run;

	h_write("r/package.json",
		"{\n  \"name\": \"mono\",\n  \"version\": \"1.0.0\",\n"
		"  \"workspaces\": [\"packages/*\"]\n}\n");
	pmbench_buf_addf(&p, "r/%s", lock);
	h_write(p.ptr, lock_text);
	h_write("r/packages/a/package.json",
		"{\"name\":\"a\",\"version\":\"1.0.0\"}\n");
	pmbench_buf_reset(&p);
	pmbench_buf_addf(&p, "%s/b", out);
	if (relative)
		escaping(&p, p.ptr);
	pmbench_buf_addf(&want, "r/packages/%s", pkg);
	link_to(p.ptr, want.ptr);
	pmbench_buf_reset(&want);
	pmbench_buf_addf(&want,
			 "workspace package 'packages/%s' leads outside the "
			 "project",
			 pkg);
	fingerprint(&before, out);
	migrate(&run, check_path("r"), ALL_TARGETS, NULL);
	fingerprint(&after, out);
	CHECK_STR(after.ptr, before.ptr);
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, want.ptr);
	CHECK_CONTAINS(run.out.ptr, "make it a folder inside the project");
	h_run_release(&run);
	migrate(&run, check_path("r"), "pnpm", "--choose");
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, want.ptr);
	h_run_release(&run);
	{
		const char *args[] = { "bench",	     check_path("r"),
				       "--pm",	     ALL_TARGETS,
				       "--runs",     "1",
				       "--warmup",   "0",
				       "--scenario", "cache+lockfile",
				       NULL };

		run_args(&run, args);
	}
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, want.ptr);
	h_run_release(&run);
	fingerprint(&after, out);
	CHECK_STR(after.ptr, before.ptr);
	pmbench_buf_release(&before);
	pmbench_buf_release(&after);
	pmbench_buf_release(&p);
	pmbench_buf_release(&want);
}

/* The case: pnpm's lockfile, b linked by its absolute path. */
TEST(folder_link_absolute)
{
	h_setup();
	refused("b", 0, "pnpm-lock.yaml",
		"lockfileVersion: '9.0'\n# generated by fakepm pnpm\n");
}

/* npm's lockfile, c linked to b by a path that leaves the repo. */
TEST(folder_link_relative)
{
	h_setup();
	refused("c", 1, "package-lock.json",
		"{\n  \"name\": \"fakepm-project\",\n  \"lockfileVersion\": "
		"3,\n  \"generatedBy\": \"generated by fakepm npm\",\n"
		"  \"packages\": {}\n}\n");
}

CHECK_MAIN(CASE(file_links_from_pnpm), CASE(file_links_from_npm),
	   CASE(folder_link_absolute), CASE(folder_link_relative))
