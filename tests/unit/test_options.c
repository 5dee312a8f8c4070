/*
 * The option table (src/cli/options.c): sorted and consistent, every
 * command's help naming each of its options, values landing where the
 * rows say, the same checks for every command, and workflow passing on
 * every bench option that is not local.
 */
#include "pmbench/common.h"

#include <math.h>

#include "check.h"
#include "cli.h"
#include "options.h"
#include "pmbench/bench.h"
#include "pmbench/cicache.h"
#include "pmbench/merge.h"
#include "pmbench/registry.h"
#include "pmbench/result.h"
#include "pmbench/strvec.h"
#include "pmbench/task.h"

static const struct pmbench_cli_command *command(size_t i)
{
	return i ? &pmbench_cli_commands[i - 1] : &pmbench_cli_program;
}

#define COMMANDS_NR (pmbench_cli_commands_nr + 1)

/* Sorted by name (the parser's lookups and the help's order). */
TEST(table_is_sorted)
{
	for (size_t i = 1; i < pmbench_cli_options_nr(); i++) {
		if (strcmp(pmbench_cli_options()[i - 1].name,
			   pmbench_cli_options()[i].name) > 0)
			fprintf(stderr, "'%s' before '%s'\n",
				pmbench_cli_options()[i - 1].name,
				pmbench_cli_options()[i].name);
		CHECK(strcmp(pmbench_cli_options()[i - 1].name,
			     pmbench_cli_options()[i].name) <= 0);
	}
}

/*
 * One name, one option: the rows of a name (one per way commands
 * document it) share the short letter and the argument's name, and
 * no command takes two of them; each row is some command's.
 */
TEST(same_name_same_option)
{
	for (size_t i = 0; i < pmbench_cli_options_nr(); i++) {
		const struct pmbench_option *o = &pmbench_cli_options()[i];
		int taken = 0;

		for (size_t k = 0; k < COMMANDS_NR; k++)
			taken |= pmbench_cli_takes(command(k), o);
		CHECK(taken);
		CHECK(o->kind != ARG_CUSTOM || o->set);
		CHECK(o->kind != ARG_COUNT || o->min <= o->max);
		CHECK((o->kind == ARG_FLAG) == !o->arg ||
		      o->kind == ARG_CUSTOM);
		for (size_t j = i + 1;
		     j < pmbench_cli_options_nr() &&
		     !strcmp(pmbench_cli_options()[j].name, o->name);
		     j++) {
			CHECK_INT(pmbench_cli_options()[j].letter, o->letter);
			CHECK(!pmbench_cli_options()[j].arg == !o->arg);
			CHECK(!(pmbench_cli_options()[j].cmds & o->cmds));
		}
	}
	for (size_t k = 0; k < COMMANDS_NR; k++)
		for (size_t i = 0; i < pmbench_cli_options_nr(); i++)
			for (size_t j = i + 1; j < pmbench_cli_options_nr();
			     j++) {
				const struct pmbench_option *a =
					&pmbench_cli_options()[i];
				const struct pmbench_option *b =
					&pmbench_cli_options()[j];

				if (!pmbench_cli_takes(command(k), a) ||
				    !pmbench_cli_takes(command(k), b))
					continue;
				CHECK(strcmp(a->name, b->name));
				CHECK(!a->letter || a->letter != b->letter);
			}
}

/* Each command's help names every option it takes, placeholders filled. */
TEST(help_names_every_option)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT, want = PMBENCH_BUF_INIT;

	for (size_t k = 0; k < COMMANDS_NR; k++) {
		pmbench_buf_reset(&b);
		pmbench_cli_help(&b, command(k));
		CHECK(!strchr(b.ptr, '{'));
		for (size_t i = 0; i < pmbench_cli_options_nr(); i++) {
			if (!pmbench_cli_takes(command(k),
					       &pmbench_cli_options()[i]))
				continue;
			pmbench_buf_reset(&want);
			pmbench_buf_addf(&want, "--%s",
					 pmbench_cli_options()[i].name);
			CHECK_CONTAINS(b.ptr, want.ptr);
		}
		/* No line of it wider than 80 columns, but the tables'. */
		for (const char *p = b.ptr; *p;) {
			size_t n = strcspn(p, "\n");

			CHECK(n <= 80 || !strncmp(p, "  ", 2));
			p += n + (p[n] == '\n');
		}
	}
	pmbench_buf_release(&b);
	pmbench_buf_release(&want);
}

/*
 * Every command takes --help: those in the table, and one added after
 * the last (its bit above CMD_WORKFLOW's), which a row naming the
 * commands up to the last would leave out.
 */
TEST(every_command_takes_help)
{
	const struct pmbench_cli_command later = {
		.name = "later",
		.id = (unsigned)CMD_WORKFLOW << 1,
	};
	const struct pmbench_option *help = NULL;

	for (size_t i = 0; i < pmbench_cli_options_nr(); i++)
		if (!strcmp(pmbench_cli_options()[i].name, "help"))
			help = &pmbench_cli_options()[i];
	CHECK(help != NULL);
	for (size_t k = 0; k < COMMANDS_NR; k++)
		CHECK(pmbench_cli_takes(command(k), help));
	CHECK(pmbench_cli_takes(&later, help));
}

/* The exit codes of pmbench's help come from the enum's list: all of them. */
TEST(exit_codes_from_the_enum)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_cli_help(&b, &pmbench_cli_program);
	for (size_t i = 0; i < b.len; i++)
		if (b.ptr[i] == '\n')
			b.ptr[i] = ' ';
	CHECK_CONTAINS(b.ptr, "3 claim short");
	CHECK_CONTAINS(b.ptr, "5 claim exceeded");
	CHECK_CONTAINS(b.ptr, "130 interrupted");
	/* And the formats from the format table. */
	pmbench_buf_reset(&b);
	pmbench_cli_help(&b, pmbench_cli_command_get("report"));
	CHECK_CONTAINS(b.ptr, "  hyperfine ");
	CHECK_CONTAINS(b.ptr, "  svg ");
	pmbench_buf_release(&b);
}

/* Parse `args` (NULL-terminated) for `cmd`; argv is rewritten. */
static int parse(struct pmbench_cli_opts *cli, const char *cmd,
		 const char *const *args, char **argv)
{
	int argc = 0;

	argv[argc++] = (char *)cmd;
	for (; args[argc - 1]; argc++)
		argv[argc] = (char *)args[argc - 1];
	argv[argc] = NULL;
	return pmbench_cli_parse(cli, cmd, argc, argv);
}

TEST(values_land_where_the_rows_say)
{
	struct pmbench_bench_opts o = PMBENCH_BENCH_OPTS_INIT;
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	const char *args[] = {
		"--edits",	"3",	    "fixture",	 "--runs",
		"auto",		"--target", "2.5%",	 "--no-control",
		"-o",		"r.json",   "--seed",	 "7",
		"--scenario",	"clean",    "--timeout", "90s",
		"--pm=npm,bun", "--env",    "A=1",	 NULL
	};
	char *argv[32];

	o.control = 1;
	cli.run = &o;
	CHECK_INT(parse(&cli, "bench", args, argv), 0);
	CHECK_INT(o.knobs.edits, 3);
	CHECK(o.runs_auto);
	CHECK_NEAR(o.budget.target, 0.025, 1e-12);
	CHECK_INT(o.control, 0);
	CHECK_STR(o.out, "r.json");
	CHECK_INT(o.seed, 7);
	CHECK_INT(o.scenarios_nr, 1);
	CHECK_INT(o.timeout_ns, 90ull * 1000000000ull);
	CHECK_INT(o.pms.nr, 2);
	CHECK_STR(o.env.v[0], "A=1");
	CHECK(pmbench_cli_given(&cli, "edits"));
	CHECK(!pmbench_cli_given(&cli, "warmup"));
	/* The operand, after the options getopt moved before it. */
	CHECK_STR(argv[cli.optind], "fixture");
	pmbench_bench_opts_release(&o);
	pmbench_cli_opts_release(&cli);
}

/* Where value `v` of a task knob lands in `o`. */
static unsigned *knob_at(struct pmbench_bench_opts *o,
			 const struct pmbench_task_knob_value *v)
{
	return (unsigned *)((char *)&o->knobs + v->at);
}

/* Value `i` of knob `k` set to `n` (the others at their minimum). */
static void knob_arg(char *out, size_t size, const struct pmbench_task_knob *k,
		     size_t i, long long n)
{
	if (k->kind == PMBENCH_TASK_KNOB_COUNT)
		snprintf(out, size, "%lld", n);
	else if (!i)
		snprintf(out, size, "%lld,%u", n, k->values[1].min);
	else
		snprintf(out, size, "%u,%lld", k->values[0].min, n);
}

/*
 * Each value of knob `k` (row `row`): its bounds taken at both ends,
 * one past either refused in one line that names the option and its
 * bounds, nothing landed then.
 */
static void check_knob_values(const struct pmbench_option *row,
			      const struct pmbench_task_knob *k,
			      const char *bounds)
{
	struct pmbench_bench_opts o = PMBENCH_BENCH_OPTS_INIT;
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	size_t nr = k->kind == PMBENCH_TASK_KNOB_COUNTS ? 2 : 1;
	char arg[64], name[40];

	cli.run = &o;
	snprintf(name, sizeof(name), "'--%s'", k->name);
	for (size_t i = 0; i < nr; i++) {
		const struct pmbench_task_knob_value *v = &k->values[i];
		long long bad[] = { (long long)v->min - 1,
				    (long long)v->max + 1 };

		knob_arg(arg, sizeof(arg), k, i, v->max);
		CHECK_INT(pmbench_cli_apply(&cli, row, arg), 0);
		CHECK_INT(*knob_at(&o, v), v->max);
		knob_arg(arg, sizeof(arg), k, i, v->min);
		CHECK_INT(pmbench_cli_apply(&cli, row, arg), 0);
		CHECK_INT(*knob_at(&o, v), v->min);
		for (size_t b = 0; b < 2; b++) {
			knob_arg(arg, sizeof(arg), k, i, bad[b]);
			CHECK_INT(pmbench_cli_apply(&cli, row, arg),
				  PMBENCH_EINVALID);
			CHECK(strstr(pmbench_error_last(), name));
			CHECK(strstr(pmbench_error_last(), bounds));
			CHECK(!strchr(pmbench_error_last(), '\n'));
			CHECK_INT(*knob_at(&o, v), v->min);
		}
	}
	pmbench_bench_opts_release(&o);
	pmbench_cli_opts_release(&cli);
}

/*
 * Every task knob has the row it generates: bench's, measured (so in
 * the plan id), its bounds those of the entry, its help naming the task
 * and the bounds; its default is bench's; bad values are refused
 * naming the knob and its bounds.
 */
TEST(task_knobs_have_their_rows)
{
	struct pmbench_bench_opts init = PMBENCH_BENCH_OPTS_INIT;
	size_t knobs = 0;

	for (size_t t = 0; t < pmbench_tasks_nr; t++)
		for (const struct pmbench_task_knob *k = pmbench_tasks[t].knobs;
		     k && k->name; k++) {
			struct pmbench_buf bounds = PMBENCH_BUF_INIT;
			const struct pmbench_option *row = NULL;

			for (size_t i = 0; i < pmbench_cli_options_nr(); i++)
				if (!strcmp(pmbench_cli_options()[i].name,
					    k->name))
					row = &pmbench_cli_options()[i];
			CHECK(row != NULL);
			if (!row)
				continue;
			knobs++;
			CHECK_INT(row->kind, ARG_KNOB);
			CHECK(row->knob == k);
			CHECK(row->cmds & CMD_BENCH);
			CHECK(!(row->flags & (OPT_UNMEASURED | OPT_LOCAL)));
			CHECK_INT(row->min, k->values[0].min);
			CHECK_INT(row->max, k->values[0].max);
			CHECK_STR(row->arg, k->arg);
			pmbench_task_knob_bounds(&bounds, k);
			CHECK(strstr(row->help, bounds.ptr));
			CHECK(strstr(row->help, pmbench_tasks[t].name));
			for (size_t i = 0; i < 2; i++)
				if (k->values[i].def >= k->values[i].min &&
				    k->values[i].def)
					CHECK_INT(*knob_at(&init,
							   &k->values[i]),
						  k->values[i].def);
			check_knob_values(row, k, bounds.ptr);
			pmbench_buf_release(&bounds);
		}
	CHECK_INT(knobs, 2); /* --probe, --edits */
	pmbench_bench_opts_release(&init);
}

/* The kinds' bounds are taken at both ends. */
TEST(bounds_are_inclusive)
{
	struct pmbench_bench_opts o = PMBENCH_BENCH_OPTS_INIT;
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	const char *args[] = { "--budget",  "24h", "--target", "0.1",
			       "--timeout", "1s",  NULL };
	char *argv[16];

	cli.run = &o;
	CHECK_INT(parse(&cli, "bench", args, argv), 0);
	CHECK_INT(o.budget.budget_ns, 24ull * 3600 * 1000000000ull);
	CHECK_NEAR(o.budget.target, 0.001, 1e-12);
	CHECK_INT(o.timeout_ns, 1000000000ull);
	pmbench_bench_opts_release(&o);
	pmbench_cli_opts_release(&cli);
}

/* migrate runs PMs, so it takes --no-progress as the others do. */
TEST(migrate_takes_the_progress_options)
{
	struct pmbench_bench_opts o = PMBENCH_BENCH_OPTS_INIT;
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	const char *args[] = { ".",	   "--to",
			       "bun,pnpm", "--no-progress",
			       "--task",   "build,dev",
			       NULL };
	char *argv[16];

	cli.run = &o;
	CHECK_INT(parse(&cli, "migrate", args, argv), 0);
	CHECK_INT(cli.tty, 0);
	CHECK_INT(cli.to.nr, 2);
	/* build for parity; dev timed with the install. */
	CHECK_INT(cli.parity.nr, 1);
	CHECK_INT(o.tasks.nr, 2);
	CHECK_STR(o.tasks.v[1], "dev");
	pmbench_bench_opts_release(&o);
	pmbench_cli_opts_release(&cli);
}

/* ci-cache's --runs, --pm and --timeout are the same options, elsewhere. */
TEST(ci_cache_lands_in_its_own_options)
{
	struct pmbench_cicache_opts o = PMBENCH_CICACHE_OPTS_INIT;
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	const char *args[] = { "--runs",
			       "4",
			       "--pm",
			       "pnpm",
			       "--timeout",
			       "2m",
			       "--no-lockfile-change",
			       NULL };
	const char *bad[] = { "--runs", "0", NULL };
	char *argv[16];

	cli.cicache = &o;
	CHECK_INT(parse(&cli, "ci-cache", args, argv), 0);
	CHECK_INT(o.runs, 4);
	CHECK_STR(o.pms.v[0], "pnpm");
	CHECK_INT(o.timeout_ns, 120ull * 1000000000ull);
	CHECK_INT(o.lockfile_changed, 0);
	CHECK_INT(parse(&cli, "ci-cache", bad, argv), -1);
	pmbench_cicache_opts_release(&o);
	pmbench_cli_opts_release(&cli);
}

/* Usage errors: -1, for an unknown option as for a bad value. */
TEST(errors_are_usage_errors)
{
	static const char *const cases[][6] = {
		{ "bench", "--bogus", NULL },
		{ "bench", "--runs", NULL },
		{ "bench", "--wide=yes", NULL },
		/* A budget's knob with a fixed plan. */
		{ "bench", "--runs", "5", "--target", "5", NULL },
		{ "bench", "--budget", "0", NULL },
		/*
		 * The kinds' bounds (issue 32: 1e-9 ran as "0:00", 1e9 was
		 * "277777:46:40 (m:ss)", a target of 0.0001 "±0 %").
		 */
		{ "bench", "--budget", "1e-9", NULL },
		{ "bench", "--budget", "0.5s", NULL },
		{ "bench", "--budget", "1e9", NULL },
		{ "bench", "--budget", "25h", NULL },
		{ "bench", "--timeout", "999ms", NULL },
		{ "bench", "--target", "0.0001", NULL },
		{ "bench", "--target", "0.09%", NULL },
		{ "claim", "--tolerance", "100.5", NULL },
		{ "bench", "--baseline", "cargo", NULL },
		{ "bench", "--edits", "101", NULL },
		{ "migrate", "--to", "cargo", NULL },
		{ "migrate", ".", NULL },
		{ "merge", "a.json", NULL },
		{ "report", "--columns", "colour", NULL },
	};
	char *argv[8];

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(cases); i++) {
		struct pmbench_bench_opts o = PMBENCH_BENCH_OPTS_INIT;
		struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;

		cli.run = &o;
		CHECK_INT(parse(&cli, cases[i][0], &cases[i][1], argv), -1);
		pmbench_bench_opts_release(&o);
		pmbench_cli_opts_release(&cli);
	}
}

/*
 * workflow takes every bench option that is not local, checks it as
 * bench does, and keeps it as given for the shards.
 */
TEST(workflow_passes_bench_options_on)
{
	struct pmbench_bench_opts o = PMBENCH_BENCH_OPTS_INIT;
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	const char *args[] = { "github-actions",
			       "--edits",
			       "3",
			       "--node",
			       "22",
			       "--no-control",
			       "--task",
			       "hmr",
			       "--shards",
			       "2",
			       NULL };
	const char *local[] = { "github-actions", "--shard", "1/2", NULL };
	const struct pmbench_cli_command *wf =
		pmbench_cli_command_get("workflow");
	char *argv[16];

	for (size_t i = 0; i < pmbench_cli_options_nr(); i++) {
		const struct pmbench_option *b = &pmbench_cli_options()[i];

		if (b->cmds & CMD_BENCH)
			CHECK(pmbench_cli_takes(wf, b) ==
			      !(b->flags & OPT_LOCAL));
	}
	cli.run = &o;
	CHECK_INT(parse(&cli, "workflow", args, argv), 0);
	CHECK_INT(cli.pass.nr, 4);
	CHECK_STR(cli.pass.v[0], "--edits=3");
	CHECK_STR(cli.pass.v[1], "--node=22");
	CHECK_STR(cli.pass.v[2], "--no-control");
	CHECK_STR(cli.pass.v[3], "--task=hmr");
	CHECK_INT(cli.shards, 2);
	CHECK_INT(o.knobs.edits, 3);
	CHECK_INT(parse(&cli, "workflow", local, argv), -1);
	pmbench_bench_opts_release(&o);
	pmbench_cli_opts_release(&cli);
}

/*
 * Shard `k` of 2 of a bench run of `args`: its plan as bench marks it,
 * from the options whose rows do not say OPT_UNMEASURED.
 */
static void shard_of(struct pmbench_result *r, unsigned k,
		     const char *const *args)
{
	struct pmbench_bench_opts o = PMBENCH_BENCH_OPTS_INIT;
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	struct pmbench_registry saved = pmbench_cli_registry;
	char *argv[32];

	cli.run = &o;
	CHECK_INT(parse(&cli, "bench", args, argv), 0);
	pmbench_strvec_push(&r->pms, "npm");
	r->runs = 4;
	r->shard = k;
	r->shards = 2;
	pmbench_cli_mark_plan(r, &cli);
	pmbench_cli_registry = saved;
	pmbench_bench_opts_release(&o);
	pmbench_cli_opts_release(&cli);
}

/* pmbench_merge() of shard 1 run with `a` and shard 2 run with `b`. */
static int merge_of(const char *const *a, const char *const *b)
{
	struct pmbench_result in[2] = { PMBENCH_RESULT_INIT,
					PMBENCH_RESULT_INIT };
	struct pmbench_result m = PMBENCH_RESULT_INIT;
	const char *names[] = { "a.json", "b.json" };
	int ret;

	shard_of(&in[0], 1, a);
	shard_of(&in[1], 2, b);
	ret = pmbench_merge(&m, in, names, 2);
	pmbench_result_release(&m);
	pmbench_result_release(&in[0]);
	pmbench_result_release(&in[1]);
	return ret;
}

/*
 * Shards run with different options that change what is measured are
 * not one plan: merge refuses them in one line naming the option (issue
 * 34: shards of the default Node and of --node system merged, rc 0).
 */
TEST(merge_names_the_option_plans_differ_in)
{
	static const struct {
		const char *opt, *value, *said;
	} cases[] = {
		{ "--node", "system",
		  "different --node ('system' against "
		  "'(default)')" },
		{ "--pm-config", "defaults", "different --pm-config" },
		{ "--link", "50ms,200mbit",
		  "different --link ('50ms,200mbit'" },
		{ "--edits", "3", "different --edits ('3' against" },
		{ "--explain", NULL, "different --explain ('(given)' against" },
		{ "--env", "TOKEN=s3cret", "different --env ('TOKEN=***'" },
	};
	const char *none[] = { NULL };

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(cases); i++) {
		const char *a[] = { cases[i].opt, cases[i].value, NULL };

		CHECK_INT(merge_of(a, none), PMBENCH_EINVALID);
		CHECK_CONTAINS(pmbench_error_last(), cases[i].said);
		CHECK(!strchr(pmbench_error_last(), '\n'));
		CHECK(!strstr(pmbench_error_last(), "s3cret"));
	}
	/* Both given, each its own value. */
	{
		const char *a[] = { "--node", "20", NULL };
		const char *b[] = { "--node=22", NULL };

		CHECK_INT(merge_of(a, b), PMBENCH_EINVALID);
		CHECK_CONTAINS(pmbench_error_last(),
			       "different --node ('20' against '22')");
	}
}

/*
 * Options that do not change what is measured (their rows say
 * OPT_UNMEASURED) leave the plan alone, and so does the options' order.
 */
TEST(merge_takes_shards_that_differ_in_how_they_show)
{
	const char *a[] = { "--format", "json", "--no-progress", "-o", "a.json",
			    "--node",	"20",	"--edits",	 "3",  NULL };
	const char *b[] = { "--edits=3",  "--wide", "--report", "r.md",
			    "--progress", "--node", "20",	NULL };

	CHECK_INT(merge_of(a, b), 0);
}

/* A result keeps its plan's options, credentials left out, and reads back. */
TEST(plan_options_read_back)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_result back = PMBENCH_RESULT_INIT;
	const char *args[] = { "--env", "TOKEN=s3cret", "--node", "system",
			       "-o",	"r.json",	NULL };
	char *json;

	shard_of(&r, 1, args);
	CHECK_INT(r.plan_options.nr, 2);
	CHECK_STR(r.plan_options.v[0], "env=TOKEN=***");
	CHECK_STR(r.plan_options.v[1], "node=system");
	json = pmbench_result_to_json(&r);
	CHECK(!strstr(json, "s3cret"));
	CHECK_INT(pmbench_result_from_json(&back, json, "r.json"), 0);
	CHECK_INT(back.plan_options.nr, 2);
	CHECK_STR(back.plan_options.v[1], "node=system");
	CHECK_STR(back.plan_id, r.plan_id);
	free(json);
	pmbench_result_release(&back);
	pmbench_result_release(&r);
}

CHECK_MAIN(CASE(table_is_sorted), CASE(same_name_same_option),
	   CASE(help_names_every_option), CASE(every_command_takes_help),
	   CASE(exit_codes_from_the_enum), CASE(values_land_where_the_rows_say),
	   CASE(task_knobs_have_their_rows), CASE(bounds_are_inclusive),
	   CASE(migrate_takes_the_progress_options),
	   CASE(ci_cache_lands_in_its_own_options),
	   CASE(errors_are_usage_errors),
	   CASE(workflow_passes_bench_options_on),
	   CASE(merge_names_the_option_plans_differ_in),
	   CASE(merge_takes_shards_that_differ_in_how_they_show),
	   CASE(plan_options_read_back))
