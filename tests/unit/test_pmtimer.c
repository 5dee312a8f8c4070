/*
 * The PMs' own timers (include/pmbench/pmtimer.h, src/engine/pm/pmtimer.c):
 * each PM's reader, reached through its table entry, on what the pinned
 * version really printed (tests/data/pm-timers/, see its README), on
 * output without arrival times, and on junk; the transcript format; and
 * the phases' own rules.
 */
#include "pmbench/common.h"

#include <math.h>

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/pmtimer.h"
#include "pmbench/result.h"

/* The phases `pm`'s reader finds in tests/data/pm-timers/<pm>/<file>. */
static int parse_file(struct pmbench_pm_phases *out, const char *pm,
		      const char *file)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	const char *root = getenv("PMBENCH_SOURCE_DIR");
	int n = -1;

	pmbench_buf_addf(&path, "%s/tests/data/pm-timers/%s/%s",
			 root ? root : ".", pm, file);
	if (!pmbench_fs_read_text(&text, path.ptr, 1u << 24))
		n = pmbench_pm_get(pm)->timer_parse(out, text.ptr, text.len);
	pmbench_buf_release(&path);
	pmbench_buf_release(&text);
	return n;
}

/* The phases' names, "a, b, c". */
static void names(struct pmbench_buf *out, const struct pmbench_pm_phases *p)
{
	pmbench_buf_reset(out);
	for (size_t i = 0; i < p->nr; i++)
		pmbench_buf_addf(out, "%s%s", i ? ", " : "", p->v[i].name);
}

static const struct pmbench_pm_phase *get(const struct pmbench_pm_phases *p,
					  const char *name)
{
	const struct pmbench_pm_phase *ph = pmbench_pm_phases_find(p, name);

	if (!ph)
		fprintf(stderr, "no phase '%s'\n", name);
	return ph;
}

/*
 * npm --timing: its own durations, each phase ending when its line
 * arrived; what it counted (packages placed, unpacked, scripts).
 */
TEST(npm_timing)
{
	struct pmbench_pm_phases p = PMBENCH_PM_PHASES_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const struct pmbench_pm_phase *ph;

	CHECK_INT(parse_file(&p, "npm", "clean.txt"), 9);
	names(&b, &p);
	CHECK_STR(b.ptr, "npm:load, idealTree, reify:diffTrees, "
			 "reify:createSparse, reify:unpack, "
			 "build:run:postinstall, reify:build, reify:save, npm");
	CHECK((ph = get(&p, "idealTree")) != NULL);
	CHECK_INT(ph->kind, PMBENCH_PMPHASE_RESOLVE);
	CHECK_NEAR(ph->seconds, 2.027, 1e-9);
	CHECK_INT(ph->count, 114);
	CHECK_INT(ph->flags, 0);
	/* "npm timing idealTree Completed in 2027ms" arrived at 3.349 s. */
	CHECK(ph->start > 1.3 && ph->start < 1.33);
	CHECK((ph = get(&p, "reify:unpack")) != NULL);
	CHECK_INT(ph->kind, PMBENCH_PMPHASE_FETCH);
	CHECK_INT(ph->count, 89);
	CHECK((ph = get(&p, "build:run:postinstall")) != NULL);
	CHECK_INT(ph->kind, PMBENCH_PMPHASE_SCRIPTS);
	CHECK_INT(ph->count, 1);
	CHECK((ph = get(&p, "npm")) != NULL);
	CHECK_INT(ph->kind, PMBENCH_PMPHASE_TOTAL);
	CHECK_NEAR(ph->seconds, 4.731, 1e-9);
	pmbench_pm_phases_release(&p);
	/* With its lockfile and cache it resolves nothing new. */
	CHECK_INT(parse_file(&p, "npm", "cache+lockfile.txt"), 9);
	CHECK((ph = get(&p, "idealTree")) != NULL);
	CHECK_INT(ph->count, 0);
	CHECK(ph->seconds < get(&p, "reify:unpack")->seconds);
	pmbench_pm_phases_release(&p);
	pmbench_buf_release(&b);
}

/*
 * pnpm's ndjson: its clock (Unix ms) put after the spawn by the earliest
 * arrival; stages and per-package progress.
 */
TEST(pnpm_ndjson)
{
	struct pmbench_pm_phases p = PMBENCH_PM_PHASES_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const struct pmbench_pm_phase *ph, *total;

	CHECK_INT(parse_file(&p, "pnpm", "clean.txt"), 5);
	names(&b, &p);
	CHECK_STR(b.ptr, "startup, resolution, fetch, link, total");
	for (size_t i = 0; i + 1 < p.nr; i++)
		CHECK_INT(p.v[i].count < 0 ? 89 : p.v[i].count, 89);
	total = get(&p, "total");
	CHECK(total != NULL);
	/* execution-time: endedAt - startedAt. */
	CHECK_NEAR(total->seconds, 1.548, 1e-9);
	CHECK((ph = get(&p, "resolution")) != NULL);
	CHECK(ph->start > total->start &&
	      ph->start + ph->seconds < total->start + total->seconds);
	pmbench_pm_phases_release(&p);
	/* From its lockfile: no resolution, every package from the store. */
	CHECK_INT(parse_file(&p, "pnpm", "cache+lockfile.txt"), 3);
	names(&b, &p);
	CHECK_STR(b.ptr, "startup, link, total");
	CHECK_INT(get(&p, "link")->count, 89);
	pmbench_pm_phases_release(&p);
	pmbench_buf_release(&b);
}

/*
 * yarn 4's steps: "Completed in ..." where it printed one; a step under
 * 200 ms ends without it, and is timed by its lines' arrival.
 */
TEST(yarn_berry_steps)
{
	struct pmbench_pm_phases p = PMBENCH_PM_PHASES_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const struct pmbench_pm_phase *ph;

	CHECK_INT(parse_file(&p, "yarn-berry", "clean.txt"), 5);
	names(&b, &p);
	CHECK_STR(b.ptr, "startup, Resolution step, Fetch step, Link step, "
			 "total");
	CHECK((ph = get(&p, "Resolution step")) != NULL);
	CHECK_NEAR(ph->seconds, 1.660, 1e-9);
	CHECK_INT(ph->flags, 0);
	CHECK_INT(get(&p, "Fetch step")->count, 89);
	CHECK_INT(get(&p, "startup")->flags, PMBENCH_PMPHASE_ARRIVAL);
	CHECK_NEAR(get(&p, "total")->seconds, 5.305, 1e-9);
	pmbench_pm_phases_release(&p);
	CHECK_INT(parse_file(&p, "yarn-berry", "cache+lockfile.txt"), 5);
	CHECK((ph = get(&p, "Resolution step")) != NULL);
	CHECK_INT(ph->flags, PMBENCH_PMPHASE_ARRIVAL);
	CHECK(ph->seconds < 0.2);
	CHECK_INT(get(&p, "Link step")->flags, 0);
	pmbench_pm_phases_release(&p);
	pmbench_buf_release(&b);
}

/* yarn 1 --verbose: its steps between its own timestamps. */
TEST(yarn_verbose)
{
	struct pmbench_pm_phases p = PMBENCH_PM_PHASES_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const struct pmbench_pm_phase *ph;
	double sum = 0;

	CHECK_INT(parse_file(&p, "yarn", "clean.txt"), 6);
	names(&b, &p);
	CHECK_STR(b.ptr, "Validating package.json, Resolving packages, "
			 "Fetching packages, Linking dependencies, Building "
			 "fresh packages, total");
	CHECK((ph = get(&p, "Fetching packages")) != NULL);
	CHECK_INT(ph->kind, PMBENCH_PMPHASE_FETCH);
	CHECK_INT(ph->flags, 0);
	/* One request per tarball, esbuild's every platform included. */
	CHECK_INT(ph->count, 114);
	CHECK_INT(get(&p, "Resolving packages")->count, 113);
	/* The steps follow each other: they add up to yarn's "Done in". */
	for (size_t i = 0; i + 1 < p.nr; i++)
		sum += p.v[i].seconds;
	CHECK(sum <= get(&p, "total")->seconds + 0.05);
	CHECK(sum > 0.9 * get(&p, "total")->seconds);
	pmbench_pm_phases_release(&p);
	pmbench_buf_release(&b);
}

/* bun --verbose: no phase times of its own but its total. */
TEST(bun_verbose)
{
	struct pmbench_pm_phases p = PMBENCH_PM_PHASES_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const struct pmbench_pm_phase *ph;

	CHECK_INT(parse_file(&p, "bun", "clean.txt"), 4);
	names(&b, &p);
	CHECK_STR(b.ptr,
		  "resolve, download, extract, clean lockfile, install, total");
	CHECK((ph = get(&p, "resolve, download, extract")) != NULL);
	CHECK_INT(ph->flags, PMBENCH_PMPHASE_ARRIVAL);
	/* Every tarball, downloaded or streamed. */
	CHECK_INT(ph->count, 89);
	CHECK_NEAR(get(&p, "total")->seconds, 0.248, 1e-9);
	pmbench_pm_phases_release(&p);
	CHECK_INT(parse_file(&p, "bun", "cache+lockfile.txt"), 3);
	names(&b, &p);
	CHECK_STR(b.ptr, "clean lockfile, install, total");
	pmbench_pm_phases_release(&p);
	pmbench_buf_release(&b);
}

/* deno -L debug: timed by its lines' arrival; its own total. */
TEST(deno_debug)
{
	struct pmbench_pm_phases p = PMBENCH_PM_PHASES_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const struct pmbench_pm_phase *ph;

	CHECK_INT(parse_file(&p, "deno", "clean.txt"), 4);
	names(&b, &p);
	CHECK_STR(b.ptr, "startup, resolution, install, total");
	CHECK((ph = get(&p, "resolution")) != NULL);
	CHECK_INT(ph->flags, PMBENCH_PMPHASE_ARRIVAL);
	/* The packuments it downloaded while resolving. */
	CHECK_INT(ph->count, 113);
	CHECK_INT(get(&p, "install")->count, 89);
	CHECK_INT(get(&p, "total")->flags, 0);
	pmbench_pm_phases_release(&p);
	CHECK_INT(parse_file(&p, "deno", "cache+lockfile.txt"), 3);
	names(&b, &p);
	CHECK_STR(b.ptr, "startup, install, total");
	pmbench_pm_phases_release(&p);
	pmbench_buf_release(&b);
}

/*
 * Output without arrival times (a PM's raw output): own durations stay,
 * with no start; what only arrival could time is left out.
 */
TEST(raw_output_without_arrivals)
{
	static const char npm[] = "npm timing npm:load Completed in 33ms\n"
				  "npm timing idealTree Completed in 1s\n"
				  "npm timing npm Completed in 5134ms\n";
	static const char berry[] = "➤ YN0000: ┌ Resolution step\n"
				    "➤ YN0000: └ Completed\n"
				    "➤ YN0000: ┌ Link step\n"
				    "➤ YN0000: └ Completed in 1m 2s\n";
	struct pmbench_pm_phases p = PMBENCH_PM_PHASES_INIT;

	CHECK_INT(pmbench_pm_get("npm")->timer_parse(&p, npm, strlen(npm)), 3);
	CHECK_INT(p.v[0].start, -1);
	CHECK_NEAR(p.v[1].seconds, 1.0, 1e-9);
	pmbench_pm_phases_release(&p);
	CHECK_INT(pmbench_pm_get("yarn-berry")
			  ->timer_parse(&p, berry, strlen(berry)),
		  1);
	CHECK_STR(p.v[0].name, "Link step");
	CHECK_NEAR(p.v[0].seconds, 62.0, 1e-9);
	pmbench_pm_phases_release(&p);
}

/* Nothing, junk and other PMs' output give no phase, and no crash. */
TEST(junk_gives_nothing)
{
	static const char *const inputs[] = {
		"",
		"\n\n\n",
		"1.0\t\n2.0\t{\n",
		"npm timing x Completed in\n",
		"not a transcript at all",
		"1e999\tnpm timing npm Completed in 99999999999999999999ms\n",
		"-1\t\xe2\x94\x94 Completed in 3s\n",
	};

	for (size_t i = 0; pmbench_pm_nth(i); i++) {
		const struct pmbench_pm *pm = pmbench_pm_nth(i);

		for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(inputs); k++) {
			struct pmbench_pm_phases p = PMBENCH_PM_PHASES_INIT;

			CHECK_INT(pm->timer_parse(&p, inputs[k],
						  strlen(inputs[k])),
				  0);
			pmbench_pm_phases_release(&p);
		}
	}
}

/* Every PM has its timers, and a variant its base's. */
TEST(table_entries)
{
	for (size_t i = 0; pmbench_pm_nth(i); i++) {
		const struct pmbench_pm *pm = pmbench_pm_nth(i);
		const struct pmbench_pm *base = pmbench_pm_base(pm);

		CHECK(pm->timer_parse != NULL);
		CHECK(pm->timer_how != NULL);
		CHECK(pm->timer_parse == base->timer_parse);
		CHECK(pm->timer_args || pm->timer_env);
	}
	CHECK_STR(pmbench_pm_get("npm")->timer_args[0], "--timing");
	CHECK_STR(pmbench_pm_get("pnpm")->timer_args[0], "--reporter=ndjson");
}

/* A transcript reads back as written; odd lines are taken as they are. */
TEST(transcript_lines)
{
	struct pmbench_buf t = PMBENCH_BUF_INIT;
	struct pmbench_tline l;
	const char *pos, *end;
	char *big = pmbench_xmalloc(PMBENCH_TLINE_MAX + 100);

	memset(big, 'x', PMBENCH_TLINE_MAX + 99);
	big[PMBENCH_TLINE_MAX + 99] = '\0';
	pmbench_transcript_add(&t, 1.5, "first", 5);
	pmbench_transcript_add(&t, -3, "second\r", 7);
	pmbench_buf_adds(&t, "no tab here\n12x\tnot a time\n");
	pmbench_transcript_add(&t, 2, big, strlen(big));
	pos = t.ptr;
	end = t.ptr + t.len;
	CHECK(pmbench_transcript_next(&l, &pos, end));
	CHECK_NEAR(l.at, 1.5, 1e-9);
	CHECK_STR(l.text, "first");
	CHECK(pmbench_transcript_next(&l, &pos, end));
	CHECK_NEAR(l.at, 0, 1e-9);
	CHECK_STR(l.text, "second");
	CHECK(pmbench_transcript_next(&l, &pos, end));
	CHECK_INT(l.at, -1);
	CHECK_STR(l.text, "no tab here");
	CHECK(pmbench_transcript_next(&l, &pos, end));
	CHECK_INT(l.at, -1);
	CHECK_STR(l.text, "12x\tnot a time");
	CHECK(pmbench_transcript_next(&l, &pos, end));
	CHECK_INT(l.len, PMBENCH_TLINE_MAX);
	CHECK(!pmbench_transcript_next(&l, &pos, end));
	free(big);
	pmbench_buf_release(&t);
}

/* A phase is named, finite, at most a year; its name fit to print. */
TEST(phase_rules)
{
	struct pmbench_pm_phases p = PMBENCH_PM_PHASES_INIT;
	char longname[200];

	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	CHECK_INT(pmbench_pm_phases_add(&p, "", PMBENCH_PMPHASE_OTHER, 0, 1, 1,
					0),
		  0);
	CHECK_INT(pmbench_pm_phases_add(&p, "x", PMBENCH_PMPHASE_OTHER, 0, -1,
					1, 0),
		  0);
	CHECK_INT(pmbench_pm_phases_add(&p, "x", PMBENCH_PMPHASE_OTHER, 0, NAN,
					1, 0),
		  0);
	CHECK_INT(pmbench_pm_phases_add(&p, "x", PMBENCH_PMPHASE_OTHER, 0, 1e9,
					1, 0),
		  0);
	CHECK_INT(pmbench_pm_phases_add(&p, "x", PMBENCH_PMPHASE_KINDS, 0, 1, 1,
					0),
		  0);
	CHECK_INT(p.nr, 0);
	CHECK_INT(pmbench_pm_phases_add(&p, "a\x1b[31mb\xc3\xa9",
					PMBENCH_PMPHASE_FETCH, NAN, 1, -5, 0),
		  1);
	CHECK_STR(p.v[0].name, "a?[31mb??");
	CHECK_INT(p.v[0].start, -1);
	CHECK_INT(p.v[0].count, -1);
	CHECK_INT(pmbench_pm_phases_add(&p, longname, PMBENCH_PMPHASE_LINK, 1,
					1, 1, 0),
		  1);
	CHECK_INT(strlen(p.v[1].name), PMBENCH_PMPHASE_NAME_MAX);
	CHECK_STR(pmbench_pm_phase_kind_name(PMBENCH_PMPHASE_SCRIPTS),
		  "scripts");
	CHECK_INT(pmbench_pm_phase_kind_get("total"), PMBENCH_PMPHASE_TOTAL);
	CHECK_INT(pmbench_pm_phase_kind_get("nope"), -1);
	pmbench_pm_phases_release(&p);
}

/* --explain's runs go into the result file and come back the same. */
TEST(explain_runs_round_trip)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT, back;
	struct pmbench_cell *c;
	struct pmbench_explain_run *e;
	const struct pmbench_cell *bc;
	char *json, *again;

	c = pmbench_result_add_cell(&r, "todo-api", "install", "clean", "npm");
	c->explain_how = pmbench_xstrdup("--timing");
	e = pmbench_cell_add_explain(c);
	e->ok = 1;
	e->wall_ns = 5144000000ull;
	pmbench_pm_phases_add(&e->phases, "idealTree", PMBENCH_PMPHASE_RESOLVE,
			      1.322, 2.027, 114, 0);
	pmbench_pm_phases_add(&e->phases, "startup", PMBENCH_PMPHASE_STARTUP,
			      -1, 0.5, -1, PMBENCH_PMPHASE_ARRIVAL);
	e = pmbench_cell_add_explain(c);
	e->failure = pmbench_xstrdup("exit 1");
	json = pmbench_result_to_json(&r);
	CHECK_INT(pmbench_result_from_json(&back, json, "t.json"), 0);
	bc = &back.cells[0];
	CHECK_STR(bc->explain_how, "--timing");
	CHECK_INT(bc->explain_nr, 2);
	CHECK_INT(bc->explain[0].ok, 1);
	CHECK_INT(bc->explain[0].wall_ns, 5144000000ull);
	CHECK_INT(bc->explain[0].phases.nr, 2);
	CHECK_STR(bc->explain[0].phases.v[0].name, "idealTree");
	CHECK_INT(bc->explain[0].phases.v[0].kind, PMBENCH_PMPHASE_RESOLVE);
	CHECK_NEAR(bc->explain[0].phases.v[0].start, 1.322, 1e-12);
	CHECK_INT(bc->explain[0].phases.v[0].count, 114);
	CHECK_INT(bc->explain[0].phases.v[1].start, -1);
	CHECK_INT(bc->explain[0].phases.v[1].flags, PMBENCH_PMPHASE_ARRIVAL);
	CHECK_INT(bc->explain[1].ok, 0);
	CHECK_STR(bc->explain[1].failure, "exit 1");
	again = pmbench_result_to_json(&back);
	CHECK_STR(again, json);
	free(again);
	free(json);
	pmbench_result_release(&back);
	/* A phase that is no phase is named in the error. */
	CHECK(pmbench_result_from_json(
		      &back,
		      "{\"schema\": \"pmbench-result\", \"version\": 1, "
		      "\"cells\": [{\"fixture\": \"f\", \"task\": \"install\", "
		      "\"scenario\": \"clean\", \"pm\": \"npm\", \"samples\": [], "
		      "\"explain\": [{\"ok\": true, \"phases\": [{\"name\": "
		      "\"x\", \"seconds\": -1}]}]}]}",
		      "bad.json") < 0);
	CHECK_CONTAINS(pmbench_error_last(),
		       "cells[0].explain[0].phases[0].seconds");
	pmbench_result_release(&r);
}

CHECK_MAIN(CASE(npm_timing), CASE(pnpm_ndjson), CASE(yarn_berry_steps),
	   CASE(yarn_verbose), CASE(bun_verbose), CASE(deno_debug),
	   CASE(raw_output_without_arrivals), CASE(junk_gives_nothing),
	   CASE(table_entries), CASE(transcript_lines), CASE(phase_rules),
	   CASE(explain_runs_round_trip))
