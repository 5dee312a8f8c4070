/*
 * Every kind of result pmbench writes through every command that reads
 * results (issue 38), with the fake PMs on the embedded workspace
 * fixture: a migrate result through `report` (every format, the bytes
 * `migrate --format F` printed), `compare` (what moved per target),
 * `claim --from` (its benchmark's cells) and `history` (beside bench
 * results, three dates); a live claim's result reported as `claim`
 * printed it; a migrate result an older pmbench wrote; and one line for
 * a file a command does not take.
 */
#include "pmbench/common.h"

#include <cjson/cJSON.h>

#include "check.h"
#include "fields.h"
#include "harness.h"
#include "pmbench/format.h"
#include "pmbench/fs.h"

/* The fakes resolve differently: a version change, a package only one
 * has, install scripts that leave a file under npm alone. */
static const char *const resolutions[] = {
	"FAKEPM_NPM_PACKAGES=zod@3.24.1,express@4.22.3",
	"FAKEPM_NPM_RUN_SCRIPTS=1",
	"FAKEPM_PNPM_PACKAGES=zod@3.25.76,express@4.22.3",
	"FAKEPM_BUN_PACKAGES=zod@3.24.1,express@4.22.3,@types/node@20.0.0",
	NULL,
};

/*
 * `migrate workspaces --to pnpm,bun` into `out`, printing `format`;
 * `tasks` is its --task (test: the parity run of the fixture's tests;
 * install: none), `more` extra environment (may be NULL).
 */
static void migrate(struct h_split *s, const char *out, const char *format,
		    const char *tasks, const char *scenario,
		    const char *const *more)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	const char *args[] = { "migrate",  "workspaces", "--to",
			       "pnpm,bun", "--runs",	 "3",
			       "--warmup", "0",		 "--scenario",
			       scenario,   "--task",	 tasks,
			       "--format", format,	 "--out",
			       out,	   NULL };

	pmbench_strvec_pushv(&env, resolutions);
	if (more)
		pmbench_strvec_pushv(&env, more);
	h_pmbench_split(s, args, &env);
	pmbench_strvec_release(&env);
}

/* A file of the sandbox's cache folder, by name. */
static const char *cached(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", h_cache(), name);
	return buf;
}

/* `a` and `b` the same bytes, else the first line that differs. */
static int same_text(const char *what, const char *a, const char *b)
{
	size_t i = 0, start = 0, line = 1;

	for (; a[i] && a[i] == b[i]; i++)
		if (a[i] == '\n') {
			start = i + 1;
			line++;
		}
	if (!a[i] && !b[i])
		return 1;
	fprintf(stderr, "%s differs at line %zu:\n  %.*s\n  %.*s\n", what, line,
		(int)strcspn(a + start, "\n"), a + start,
		(int)strcspn(b + start, "\n"), b + start);
	return 0;
}

/*
 * Whether this run checks format `f`: every one, or only those the
 * comma-separated PMBENCH_TEST_FORMATS names. The asan: copy names the
 * table, JSON and markdown (tests/CMakeLists.txt): the two task paths
 * and a plain one, read back through report; every format's writer on a
 * migration runs under ASan in asan:unit_format's migrate_in_every_format.
 */
static int format_checked(const char *f)
{
	const char *p = getenv("PMBENCH_TEST_FORMATS");
	size_t n = strlen(f);

	if (!p)
		return 1;
	for (; *p; p += strcspn(p, ","), p += *p == ',')
		if (strcspn(p, ",") == n && !strncmp(p, f, n))
			return 1;
	return 0;
}

/*
 * Each format: what `migrate --format F` printed, and what `report`
 * prints of the result it wrote, byte for byte. The table and JSON
 * (the model whole) after the fixture's tests ran under every PM.
 */
TEST(report_shows_a_migration_as_migrate_did)
{
	h_setup();
	for (size_t i = 0; i < pmbench_formats_nr; i++) {
		const char *f = pmbench_formats[i].name;
		int rich = !strcmp(f, "table") || !strcmp(f, "json");
		struct h_split m, r;
		char out[4200];
		const char *rep[] = { "report", out, "--format", f, NULL };

		if (!format_checked(f))
			continue;
		snprintf(out, sizeof(out), "%s/migrate-%s.json", h_cache(), f);
		migrate(&m, out, f, rich ? "test" : "install",
			"clean,cache+lockfile", NULL);
		CHECK_INT(m.exit_code, 0);
		CHECK(m.out.len > 0);
		h_pmbench_split(&r, rep, NULL);
		CHECK_INT(r.exit_code, 0);
		CHECK_STR(r.err.ptr, "");
		if (!same_text(f, m.out.ptr, r.out.ptr))
			CHECK(!"report printed what migrate printed");
		if (!strcmp(f, "table")) {
			CHECK_CONTAINS(r.out.ptr, "Migration from npm");
			CHECK_CONTAINS(r.out.ptr, "zod 3.24.1 -> 3.25.76");
			CHECK_CONTAINS(r.out.ptr, "test FAILS");
			CHECK_CONTAINS(r.out.ptr, "install-script file only "
						  "under npm");
		}
		h_split_release(&m);
		h_split_release(&r);
	}
}

/* Two migrations of the workspace: bun stops installing, pnpm moves. */
TEST(compare_shows_what_moved_per_target)
{
	static const char *const later[] = {
		"FAKEPM_PNPM_PACKAGES=zod@3.26.0,express@4.22.3",
		"FAKEPM_BUN_MODE=fail",
		NULL,
	};
	char a[4200], b[4200];
	struct h_split s;

	h_setup();
	migrate(&s, cached(a, sizeof(a), "a.json"), "table", "test",
		"cache+lockfile", NULL);
	CHECK_INT(s.exit_code, 0);
	h_split_release(&s);
	migrate(&s, cached(b, sizeof(b), "b.json"), "table", "test",
		"cache+lockfile", later);
	CHECK_INT(s.exit_code, 2); /* bun fails */
	h_split_release(&s);
	{
		const char *args[] = { "compare", a, b, NULL };

		h_pmbench_split(&s, args, NULL);
	}
	CHECK_INT(s.exit_code, 0);
	CHECK_CONTAINS(s.out.ptr, "A migrates from npm");
	CHECK_CONTAINS(s.out.ptr, "bun against npm\n");
	CHECK_CONTAINS(s.out.ptr, "installs: yes -> no: ");
	CHECK_CONTAINS(s.out.ptr, "test: test FAILS (as under the source) "
				  "-> test not run (moved)");
	CHECK_CONTAINS(s.out.ptr, "pnpm resolves differently in B than in "
				  "A: 1 other versions");
	CHECK_CONTAINS(s.out.ptr, "zod 3.25.76 -> 3.26.0 (minor)");
	CHECK_CONTAINS(s.out.ptr, "    install cache+lockfile: ");
	/* Then the benchmarks, cell by cell. */
	CHECK_CONTAINS(s.out.ptr, "workspaces · install · cache+lockfile");
	h_split_release(&s);
	{
		const char *args[] = {
			"compare", a, b, "--format", "csv", NULL
		};
		struct pmbench_strvec *rows = NULL;
		size_t nr = 0, moved = 0;

		h_pmbench_split(&s, args, NULL);
		CHECK_INT(s.exit_code, 0);
		CHECK_INT(check_csv_parse(&rows, &nr, s.out.ptr), 0);
		CHECK_STR(rows[0].v[0], "pm");
		CHECK_STR(rows[0].v[1], "check");
		/* bun's install and pnpm's versions moved. */
		for (size_t i = 1; i < nr; i++)
			moved += ((!strcmp(rows[i].v[0], "bun") &&
				   !strcmp(rows[i].v[1], "installs")) ||
				  (!strcmp(rows[i].v[0], "pnpm") &&
				   !strcmp(rows[i].v[1], "versions"))) &&
				 !strcmp(rows[i].v[rows[i].nr - 1], "1");
		CHECK_INT(moved, 2);
		check_csv_free(rows, nr);
		h_split_release(&s);
	}
}

/* `text` written to `rel` of the sandbox; its path kept in `buf`. */
static const char *write_kept(char *buf, size_t size, const char *rel,
			      const char *text)
{
	snprintf(buf, size, "%s", h_write(rel, text));
	return buf;
}

/* The embedded benchmark alone, as a result file of its own: its path. */
static const char *extract_result(char *buf, size_t size, const char *from,
				  const char *to)
{
	cJSON *m = h_read_json(from);
	char *text = cJSON_Print(cJSON_GetObjectItem(m, "result"));

	write_kept(buf, size, to, text ? text : "");
	cJSON_free(text);
	cJSON_Delete(m);
	return buf;
}

/* claim --from a migrate result judges its benchmark's cells. */
TEST(claim_judges_a_migration_s_cells)
{
	const char *claim = "bun install is 2x faster than npm install";
	char m[4200], alone[4200];
	struct h_split s, r;

	h_setup();
	migrate(&s, cached(m, sizeof(m), "m.json"), "table", "install", "clean",
		NULL);
	CHECK_INT(s.exit_code, 0);
	h_split_release(&s);
	{
		const char *a[] = { "claim", claim, "--from", m, NULL };
		const char *b[] = { "claim", claim, "--from",
				    extract_result(alone, sizeof(alone), m,
						   "bench.json"),
				    NULL };

		h_pmbench_split(&s, a, NULL);
		h_pmbench_split(&r, b, NULL);
	}
	/* Judged (reproduced, short, inconclusive or exceeded). */
	CHECK(s.exit_code != 1 && s.exit_code != 129);
	CHECK_CONTAINS(s.out.ptr, "workspaces · clean");
	CHECK_CONTAINS(s.out.ptr, "bun install is");
	CHECK_INT(r.exit_code, s.exit_code);
	if (!same_text("claim", s.out.ptr, r.out.ptr))
		CHECK(!"the same judgement as of its result alone");
	h_split_release(&s);
	h_split_release(&r);
}

/* Set every "created" of the result file `path` to `date`. */
static void redate(const char *path, const char *date)
{
	struct pmbench_buf in = PMBENCH_BUF_INIT, out = PMBENCH_BUF_INIT;
	const char *p, *key = "\"created\":";

	if (pmbench_fs_read_text(&in, path, 1u << 26) < 0)
		pmbench_die("%s", pmbench_error_last());
	for (p = in.ptr; strstr(p, key);) {
		const char *at = strstr(p, key), *open, *close;

		open = strchr(at + strlen(key), '"');
		close = open ? strchr(open + 1, '"') : NULL;
		if (!close)
			break;
		pmbench_buf_add(&out, p, (size_t)(open - p));
		pmbench_buf_addf(&out, "\"%sT10:00:00Z\"", date);
		p = close + 1;
	}
	pmbench_buf_adds(&out, p);
	if (pmbench_fs_write_output(path, out.ptr, out.len) < 0)
		pmbench_die("%s", pmbench_error_last());
	pmbench_buf_release(&in);
	pmbench_buf_release(&out);
}

/* bench of npm and bun into `out`. */
static void bench(const char *out)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	const char *args[] = { "bench",	   "workspaces", "--pm",
			       "npm,bun",  "--runs",	 "3",
			       "--warmup", "0",		 "--scenario",
			       "clean",	   "--out",	 out,
			       NULL };
	struct h_run run;

	pmbench_strvec_pushv(&env, resolutions);
	h_pmbench(&run, args, &env);
	if (run.exit_code)
		pmbench_die("bench exited %d", run.exit_code);
	h_run_release(&run);
	pmbench_strvec_release(&env);
}

/* How many times `needle` is in `hay`. */
static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/*
 * A folder of bench and migrate results of three dates: each migration
 * a series of its targets' speed-ups beside the bench series, whose
 * cells the migrations' own do not join.
 */
TEST(history_shows_migrations_beside_benches)
{
	static const char *const dates[] = { "2026-11-01", "2026-11-08",
					     "2026-11-15" };
	char dir[4200], path[4300];
	struct h_split s;

	h_setup();
	snprintf(dir, sizeof(dir), "%s/weekly", h_cache());
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/migrate-%zu.json", dir, i);
		migrate(&s, path, "table", "install", "clean", NULL);
		CHECK_INT(s.exit_code, 0);
		h_split_release(&s);
		redate(path, dates[i]);
		snprintf(path, sizeof(path), "%s/bench-%zu.json", dir, i);
		bench(path);
		redate(path, dates[i]);
	}
	/* Not a result: said, and left out. */
	h_write("cache/weekly/report.json",
		"{\"schema\": \"pmbench-report\", \"version\": 1, "
		"\"kind\": \"compare\"}\n");
	{
		const char *args[] = { "history", dir, NULL };

		h_pmbench_split(&s, args, NULL);
	}
	CHECK_INT(s.exit_code, 0);
	CHECK_CONTAINS(s.err.ptr, "report.json': the JSON of a compare "
				  "report");
	CHECK_CONTAINS(s.out.ptr, "6 result(s) under");
	CHECK_CONTAINS(s.out.ptr, "2026-11-01 to 2026-11-15");
	CHECK_CONTAINS(s.out.ptr, "workspaces · install · clean · bun "
				  "against npm: 2026-11-01 [1.4.5-fake] ");
	CHECK_CONTAINS(s.out.ptr, "workspaces · install · clean · pnpm "
				  "against npm: 2026-11-01 ");
	/* The bench series: three points each, the migrations' not in. */
	CHECK_CONTAINS(s.out.ptr, "workspaces · install · clean · npm: "
				  "2026-11-01 [11.0.0-fake] ");
	CHECK_INT(count(s.out.ptr, "2026-11-15"), 5); /* span, 4 series */
	CHECK(!strstr(s.out.ptr, "· pnpm: "));
	h_split_release(&s);
	{
		const char *args[] = { "history", dir, "--format", "csv",
				       NULL };
		struct pmbench_strvec *rows = NULL;
		size_t nr = 0, against = 0, speedups = 0;
		long a, up;

		h_pmbench_split(&s, args, NULL);
		CHECK_INT(s.exit_code, 0);
		CHECK_INT(check_csv_parse(&rows, &nr, s.out.ptr), 0);
		a = pmbench_strvec_find(&rows[0], "against");
		up = pmbench_strvec_find(&rows[0], "speedup");
		CHECK(a > 0 && up > 0);
		for (size_t i = 1; i < nr; i++) {
			against += !strcmp(rows[i].v[a], "npm");
			speedups += *rows[i].v[up] != '\0';
		}
		/* bun and pnpm against npm, three dates each. */
		CHECK_INT(against, 6);
		CHECK_INT(speedups, 6);
		CHECK_INT(nr, 1 + 6 + 6);
		check_csv_free(rows, nr);
		h_split_release(&s);
	}
}

/* The committed migrate result of pmbench before issue 38 (version 1). */
static const char *old_migration(void)
{
	static char path[4200];
	const char *root = getenv("PMBENCH_SOURCE_DIR");

	snprintf(path, sizeof(path), "%s/tests/data/migrate-v1.json",
		 root ? root : ".");
	return path;
}

/*
 * A migrate result an older pmbench wrote lacks the model: report and
 * compare say so in one line, claim --from and history read its cells.
 */
TEST(an_old_migration_says_what_it_lacks)
{
	struct h_split s;

	h_setup();
	for (int i = 0; i < 2; i++) {
		const char *rep[] = { "report", old_migration(), NULL };
		const char *cmp[] = { "compare", old_migration(),
				      old_migration(), NULL };

		h_pmbench_split(&s, i ? cmp : rep, NULL);
		CHECK_INT(s.exit_code, 1);
		CHECK_STR(s.out.ptr, "");
		CHECK_CONTAINS(s.err.ptr, "is a migrate result written by "
					  "pmbench 0.1.0 (pmbench-migrate "
					  "version 1), which lacks what ");
		CHECK_CONTAINS(s.err.ptr, "pms[].installed");
		CHECK_INT(count(s.err.ptr, "\n"), 1);
		h_split_release(&s);
	}
	{
		const char *args[] = { "claim",
				       "bun install is as fast as npm install",
				       "--from", old_migration(), NULL };

		h_pmbench_split(&s, args, NULL);
		CHECK(s.exit_code != 1 && s.exit_code != 129);
		CHECK_CONTAINS(s.out.ptr, "workspaces · cache+lockfile");
		h_split_release(&s);
	}
	{
		char dir[4200];
		const char *args[] = { "history", dir, NULL };

		snprintf(dir, sizeof(dir), "%s",
			 h_write("old/migrate.json", ""));
		if (pmbench_fs_copyfile(old_migration(), dir) < 0)
			pmbench_die("%s", pmbench_error_last());
		*strrchr(dir, '/') = '\0';
		h_pmbench_split(&s, args, NULL);
		CHECK_INT(s.exit_code, 0);
		CHECK_CONTAINS(s.out.ptr, "workspaces · install · "
					  "cache+lockfile · bun against npm: ");
		h_split_release(&s);
	}
}

/* A live claim's result: report judges its claim again, as claim did. */
TEST(report_judges_a_claim_result_again)
{
	const char *formats[] = { "table", "json" };
	char out[4200];
	struct h_split c, r;

	h_setup();
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(formats); i++) {
		const char *claim[] = { "claim",
					"bun install is as fast as npm install",
					"workspaces",
					"--runs",
					"2",
					"--warmup",
					"0",
					"--scenario",
					"clean,cache",
					"--format",
					formats[i],
					"--out",
					cached(out, sizeof(out), "claim.json"),
					NULL };
		const char *rep[] = { "report", out, "--format", formats[i],
				      NULL };

		h_pmbench_split(&c, claim, NULL);
		CHECK(c.exit_code != 1 && c.exit_code != 129);
		h_pmbench_split(&r, rep, NULL);
		CHECK_INT(r.exit_code, 0);
		if (!same_text(formats[i], c.out.ptr, r.out.ptr))
			CHECK(!"report printed what claim printed");
		CHECK_CONTAINS(r.out.ptr, "bun install");
		h_split_release(&c);
		h_split_release(&r);
	}
}

/* A ci-cache result of one job, for the commands that do not take it. */
#define CICACHE_RESULT                                                 \
	"{\"schema\": \"pmbench-result\", \"version\": 1, \"cells\": " \
	"[{\"fixture\": \"f\", \"task\": \"ci-cache\", \"scenario\": " \
	"\"none\", \"pm\": \"npm\", \"samples\": [{\"ok\": true, "     \
	"\"wall_s\": 1.5}]}]}\n"

/* One line for a file a command does not take: what it is, who takes it. */
TEST(a_file_a_command_does_not_take_is_one_line)
{
	const char *v1 = old_migration();
	char cc[4200], hf[4200], md[4200], html[4200], empty[4200];
	char folder[4200];

	h_setup();
	write_kept(cc, sizeof(cc), "cc.json", CICACHE_RESULT);
	write_kept(hf, sizeof(hf), "hf.json", "{\"results\": []}\n");
	write_kept(md, sizeof(md), "r/report.md", "# bench: f\n");
	write_kept(html, sizeof(html), "r/report.html",
		   "<!DOCTYPE html>\n<html lang=\"en\">\n");
	write_kept(empty, sizeof(empty), "r/empty.json", "");
	snprintf(folder, sizeof(folder), "%s", html);
	*strrchr(folder, '/') = '\0';
	{
		struct {
			const char *args[6];
			const char *says;
		} cases[] = {
			/* Not JSON, a folder, a file to history: said. */
			{ { "report", md, NULL },
			  "report.md' is text, not JSON (a report in the "
			  "table, markdown or csv format is not read again" },
			{ { "compare", html, cc, NULL },
			  "report.html' is an HTML report (--format html), "
			  "not a result; report, compare, claim --from, "
			  "history and merge read the bench, ci-cache, claim "
			  "and migrate results pmbench writes" },
			{ { "claim", "bun is as fast as npm", "--from", empty,
			    NULL },
			  "empty.json' is an empty file, not a result" },
			{ { "report", folder, NULL },
			  "/r' is a folder; history reads a folder of "
			  "results, report takes the files of bench, "
			  "ci-cache, claim and migrate results" },
			{ { "history", v1, NULL },
			  "is a migrate result, not a folder; report, compare "
			  "and claim --from read it, history reads a folder "
			  "of results" },
			{ { "claim", "bun is as fast as npm", "--from", cc,
			    NULL },
			  "cc.json' is a ci-cache result; report, compare, "
			  "history and merge read it, claim --from takes "
			  "bench, claim and migrate results" },
			{ { "merge", "-o", "m.json", v1, NULL },
			  "is a migrate result; report, compare, claim --from "
			  "and history read it, merge takes bench, ci-cache "
			  "and claim results" },
			{ { "compare", cc, v1, NULL },
			  "cc.json' is a ci-cache result and '" },
			{ { "report", hf, NULL },
			  "hf.json' is hyperfine's JSON" },
		};

		for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(cases); i++) {
			struct h_split s;

			h_pmbench_split(&s, cases[i].args, NULL);
			CHECK_INT(s.exit_code, 1);
			CHECK_CONTAINS(s.err.ptr, cases[i].says);
			CHECK_INT(count(s.err.ptr, "\n"), 1);
			h_split_release(&s);
		}
	}
	{
		const char *args[] = { "report", cc, NULL };
		struct h_split s;

		h_pmbench_split(&s, args, NULL);
		CHECK_INT(s.exit_code, 0);
		CHECK_CONTAINS(s.out.ptr, "ci-cache");
		h_split_release(&s);
	}
}

CHECK_MAIN(CASE(report_shows_a_migration_as_migrate_did),
	   CASE(compare_shows_what_moved_per_target),
	   CASE(claim_judges_a_migration_s_cells),
	   CASE(history_shows_migrations_beside_benches),
	   CASE(an_old_migration_says_what_it_lacks),
	   CASE(report_judges_a_claim_result_again),
	   CASE(a_file_a_command_does_not_take_is_one_line))
