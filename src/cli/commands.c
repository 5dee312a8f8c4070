/*
 * The commands and what `pmbench help COMMAND` and the man pages say
 * about them (options.h); their options are the rows of options.c.
 */
#include "pmbench/common.h"

#include "options.h"

const struct pmbench_cli_command pmbench_cli_program = {
	.name = "pmbench",
	.id = CMD_MAIN,
	.flags = CMDF_OPTIONS_FIRST,
	.summary = "benchmark JavaScript package managers on real projects",
	.synopsis = "[options] <command> [<args>]",
	.description =
		"How much faster would this repo be with another package "
		"manager? pmbench clones a real JavaScript project (a "
		"fixture), puts its cache, lockfile and node_modules into a "
		"precisely defined state, and times npm, yarn, yarn-berry, "
		"pnpm, bun and deno installing it, run after run, "
		"interleaved, with honest statistics. A failed install is "
		"reported as a failure with the PM's own last error lines, "
		"never as a time.\n"
		"\n"
		"Commands:\n"
		"{command_table}\n"
		"\n"
		"'pmbench help COMMAND' (or 'pmbench COMMAND --help') shows "
		"a command's options. Options go before or after the "
		"operands, and '--' ends them.\n"
		"\n"
		"Environment: PMBENCH_CACHE_DIR and PMBENCH_FIXTURES_DIR (the "
		"folders of the options below), PMBENCH_TOOLCHAIN_DIR (the "
		"pinned PMs, Node and verdaccio; default: the work folder's "
		"toolchain/ if it has one, else the default work folder's), "
		"PMBENCH_REGISTRY (local or live, as --registry), "
		"PMBENCH_VERDACCIO (another verdaccio), "
		"PMBENCH_DELETER_DELAY (seconds the deleter of a command's "
		"work copies waits before it deletes them, default 120; a "
		"command started meanwhile puts the deletion off until it is "
		"done), COLUMNS (the terminal table's width).",
	.examples = {
		{ "Benchmark the default fixture with every PM found",
		  "pmbench bench" },
		{ "Evaluate moving the repo here to bun or pnpm",
		  "pmbench migrate . --to bun,pnpm" },
		{ "Check a claim against a result",
		  "pmbench claim 'bun is 20x faster than npm' --from "
		  "result.json" },
	},
	.exit_status = "{exits}.",
};

const struct pmbench_cli_command pmbench_cli_commands[] = {
	{
		.name = "bench",
		.id = CMD_BENCH,
		.flags = CMDF_RUNS_PMS,
		.fn = cmd_bench,
		.summary = "Time installs, run, build and dev-server start "
			   "on fixtures",
		.synopsis = "[options] [FIXTURE...]",
		.description =
			"Clone each FIXTURE (a name from 'pmbench "
			"fixtures', a .json manifest, or a folder with a "
			"package.json; default: todo-api), prime every "
			"package manager once, then time its install in each "
			"scenario, and the other tasks asked for in each "
			"PM's primed tree.\n"
			"\n"
			"Tasks:\n"
			"{task_table}",
		.examples = {
			{ "Time npm and bun on a folder of yours, in every "
			  "scenario",
			  "pmbench bench ./myrepo --pm npm,bun --scenario "
			  "all" },
			{ "Run until each median is known within 2 %",
			  "pmbench bench --runs auto --target 2" },
			{ "Time the build and the dev server's start too",
			  "pmbench bench --task install,build,dev" },
			{ "Also write a Markdown report",
			  "pmbench bench --report report.md" },
		},
		.exit_status = "0 all runs succeeded, 2 finished but some "
			       "runs or primings failed (see the table), 1 "
			       "error (the result or report not written), "
			       "129 usage, 130 interrupted.",
	},
	{
		.name = "fixtures",
		.id = CMD_FIXTURES,
		.fn = cmd_fixtures,
		.summary = "List the fixture manifests",
		.synopsis = "",
		.description =
			"List the fixture manifests in the fixtures folder "
			"(pmbench --fixtures-dir; default: the source tree's "
			"fixtures/): name, repository, pinned commit and "
			"description. A manifest that does not parse is "
			"reported with its error and makes the exit status "
			"1.",
		.exit_status = "0 ok, 1 a manifest does not parse, 129 "
			       "usage.",
	},
	{
		.name = "pms",
		.id = CMD_PMS,
		.fn = cmd_pms,
		.summary = "Show each package manager found, its path and "
			   "version",
		.synopsis = "",
		.description =
			"Show each package manager pmbench can use: where it "
			"was found (the pinned toolchain under "
			"cache/toolchain first, then PATH) and its version, "
			"then each variant (a PM with a configuration, e.g. "
			"a linker) and what it sets.",
		.exit_status = "0 ok, 1 error, 129 usage.",
	},
	{
		.name = "migrate",
		.id = CMD_MIGRATE,
		.flags = CMDF_RUNS_PMS,
		.fn = cmd_migrate,
		.summary = "Evaluate moving a repo to other package managers",
		.synopsis = "[options] PATH|URL@COMMIT|FIXTURE --to "
			    "PM[,PM...]",
		.description =
			"Should this repo move to another package manager? "
			"On scratch copies (the user's checkout is never "
			"written), install it with its own PM and with each "
			"target, starting from its lockfile the way a team "
			"would migrate; compare what got installed "
			"(name@version), whether build, test and lint still "
			"pass, and time the installs. Verdict lines first, "
			"details after.",
		.examples = {
			{ "Evaluate bun and pnpm for the repo here",
			  "pmbench migrate . --to bun,pnpm" },
			{ "A commit of a remote repository, with its dev "
			  "server",
			  "pmbench migrate https://github.com/org/app@SHA "
			  "--to bun --task build,test,dev" },
		},
		.exit_status = "0 every target installs and passes what the "
			       "source passes, 2 finished but a target fails "
			       "something (or no target installs), 1 error, "
			       "129 usage, 130 interrupted.",
	},
	{
		.name = "report",
		.id = CMD_REPORT,
		.fn = cmd_report,
		.summary = "Write a result's report, in any format",
		.synopsis = "RESULT.json [options]",
		.description =
			"Write the report of a result file again, as the "
			"command that wrote it showed it: a result of "
			"'pmbench bench' (or merge) or 'pmbench ci-cache' "
			"its tables, a live 'pmbench claim' its claim judged "
			"again, a 'pmbench migrate' report the migration, "
			"byte for byte in every format. A migrate report of "
			"an older pmbench, which lacks what that needs, is "
			"refused in one line that names its version; so is "
			"a file that is no result (a report's JSON, "
			"hyperfine's).\n"
			"\n"
			"Formats:\n"
			"{format_table}\n"
			"\n"
			"Medians carry bootstrap 95% intervals and ratios a "
			"Mann-Whitney test; the figures depend only on the "
			"file (its seed).",
		.examples = {
			{ "The terminal table", "pmbench report result.json" },
			{ "One HTML page with charts",
			  "pmbench report result.json -o report.html" },
			{ "CSV of other columns",
			  "pmbench report result.json --format csv" },
		},
		.exit_status = "0 ok, 1 error (unreadable file), 129 usage.",
	},
	{
		.name = "compare",
		.id = CMD_COMPARE,
		.fn = cmd_compare,
		.summary = "Compare two results cell by cell",
		.synopsis = "A.json B.json [options]",
		.description =
			"Compare two result files cell by cell (same "
			"fixture, task, scenario and PM): the change of the "
			"median from A to B with its bootstrap 95% interval, "
			"a Mann-Whitney test, and a verdict: faster, slower "
			"or no significant difference. For upgrades (bun 1.1 "
			"-> 1.4) and before/after experiments.\n"
			"\n"
			"A and B are of one kind: bench and claim results, "
			"two ci-cache results, or two migrate reports, which "
			"first say per target what moved from A to B "
			"(whether it installs, its lockfile, the versions it "
			"resolves against the source, each parity task, its "
			"speed-up against the source per scenario) and what "
			"it resolves differently, then compare the "
			"benchmarks' cells.",
		.examples = {
			{ "Before and after an upgrade",
			  "pmbench compare before.json after.json" },
			{ "As Markdown, for a pull request",
			  "pmbench compare before.json after.json -o "
			  "change.md" },
		},
		.exit_status = "0 ok, 1 error (unreadable file, nothing in "
			       "common), 129 usage.",
	},
	{
		.name = "claim",
		.id = CMD_CLAIM,
		.flags = CMDF_RUNS_PMS,
		.fn = cmd_claim,
		.summary = "Check a claim such as 'bun is 20x faster than "
			   "npm'",
		.synopsis = "\"CLAIM\" [FIXTURE] [options]",
		.description =
			"Check a claim such as \"bun install is 20x faster "
			"than npm install\" (also \"N times\", \"slower "
			"than\", \"as fast as\"; the task may be left out "
			"and is then install; a version may follow a PM, "
			"\"bun 1.1 install is 10x faster than npm 10 "
			"install\", and those releases are installed and "
			"timed). Reads --from RESULT.json (a "
			"bench or claim result, or a migrate report's "
			"benchmark), or runs the two PMs on FIXTURE (default "
			"todo-api; live runs time any task of 'pmbench bench "
			"--help', and their result records the claim, which "
			"'pmbench report' judges again), and gives a verdict "
			"per scenario:\n"
			"  reproduced    the 95% interval of the measured "
			"ratio lies within the\n"
			"                claimed factor, give or take the "
			"tolerance\n"
			"  short         it lies wholly below: clearly less "
			"than claimed\n"
			"  exceeded      it lies wholly above: clearly more "
			"than claimed\n"
			"  inconclusive  it straddles an edge: too noisy; the "
			"runs that would\n"
			"                settle it are estimated",
		.examples = {
			{ "Judge a result file",
			  "pmbench claim 'bun install is 20x faster than npm "
			  "install' --from result.json" },
			{ "A claim about versions, run live",
			  "pmbench claim 'bun 1.1 install is 10x faster than "
			  "npm 10 install' --scenario clean" },
			{ "Run it live until settled, for 10 minutes at most",
			  "pmbench claim 'pnpm is 2x faster than npm' --runs "
			  "auto --time-budget 10m" },
		},
		.exit_status = "0 reproduced in every scenario judged, 3 "
			       "short in at least one, 5 otherwise exceeded "
			       "in at least one, 4 otherwise inconclusive in "
			       "at least one, 1 error (nothing to judge, the "
			       "report not written), 129 usage, 130 "
			       "interrupted.",
	},
	{
		.name = "ci-cache",
		.id = CMD_CI_CACHE,
		.flags = CMDF_RUNS_PMS,
		.fn = cmd_ci_cache,
		.summary = "Measure what caching the store or node_modules "
			   "saves in CI",
		.synopsis = "[options] [FIXTURE]",
		.description =
			"Simulate CI jobs on FIXTURE (default todo-api): a "
			"fresh checkout with the lockfile, restore the "
			"strategy's cache archive, install in the PM's "
			"frozen-lockfile mode (npm ci, ... "
			"--frozen-lockfile), save a new archive. The first "
			"job of each strategy is the cache miss; its archive "
			"is what the --runs hit jobs restore. One more job "
			"changes a dependency in package.json and installs "
			"with the old archive.",
		.examples = {
			{ "The store against node_modules, for pnpm and bun",
			  "pmbench ci-cache --pm pnpm,bun --strategy "
			  "store,node_modules" },
			{ "gzip and zstd archives, made by GNU tar",
			  "pmbench ci-cache --compression gzip,zstd "
			  "--archiver gnu-tar" },
		},
		.exit_status = "0 every job succeeded, 2 finished but some "
			       "jobs or primings failed (see the table), 1 "
			       "error (the result or report not written), "
			       "129 usage, 130 interrupted.",
	},
	{
		.name = "merge",
		.id = CMD_MERGE,
		.fn = cmd_merge,
		.summary = "Pool the shards of a benchmark into one result",
		.synopsis = "-o OUT.json IN.json...",
		.description =
			"Pool the results of 'pmbench bench --shard K/N' (or "
			"whole runs of one plan) into OUT.json, an ordinary "
			"result for report, compare and claim; a migrate "
			"report is no shard and is refused. Refused, "
			"naming the field, when the inputs differ in plan, "
			"options, fixture commits or PM versions, give one "
			"shard twice, or hold rounds that contradict the "
			"plan. Every sample keeps its machine "
			"(the shard's CPU model, kernel and hashed host "
			"name), and intervals resample machines first, then "
			"runs within them; the lines printed show, per cell "
			"run on two or more machines, the per-machine "
			"medians and both intervals.",
		.examples = {
			{ "Three shards into one result",
			  "pmbench merge -o merged.json s1.json s2.json "
			  "s3.json" },
		},
		.exit_status = "0 merged, 1 error (an input unreadable or of "
			       "another plan, OUT not written), 129 usage.",
	},
	{
		.name = "history",
		.id = CMD_HISTORY,
		.fn = cmd_history,
		.summary = "Medians over time per fixture, task, scenario "
			   "and PM; migrations' speed-ups",
		.synopsis = "DIR [options]",
		.description =
			"Read every result file under DIR (sub-folders too: "
			"a workflow's merged results, dated, over PM "
			"releases) and show each fixture, task, scenario and "
			"PM over time: per date and PM version the median "
			"with its 95% interval, and a change flagged where "
			"'pmbench compare' would find one against the result "
			"before (Mann-Whitney p < 0.05 and the ratio's "
			"interval on one side of 1). Every kind of result is "
			"read: ci-cache jobs are series of their own, a live "
			"claim's cells join the bench series, and each "
			"migrate report gives its targets' series: per date "
			"the speed-up against the source (the source's "
			"median over the target's, with its interval, as "
			"migrate gives it), a change flagged where two in a "
			"row do not overlap.\n"
			"\n"
			"The table shows one line per series; markdown, csv "
			"and json every point; html a trend chart per "
			"series; svg the charts alone. A file that is no "
			"result, or whose date does not exist, is left out "
			"with a warning on standard error.",
		.examples = {
			{ "A workflow's history folder",
			  "pmbench history bench-history/" },
			{ "Its trend charts",
			  "pmbench history bench-history/ -o history.html" },
		},
		.exit_status = "0 ok, 1 error (no result in DIR, output not "
			       "written), 129 usage.",
	},
	{
		.name = "wait",
		.id = CMD_WAIT,
		.fn = cmd_wait,
		.summary = "Wait until the work folder's deleter is done",
		.synopsis = "",
		.description =
			"Wait until the deleter a command left deleting its "
			"runs' trees in the background is done (it shows in "
			"ps as 'pmbench-deleter: deleting ...', short name "
			"pmb-deleter; it waits PMBENCH_DELETER_DELAY seconds, "
			"120 by default, before it deletes: this ends the "
			"wait), and its process gone: then the work "
			"folder may be unmounted or removed. Returns at once "
			"when none is at work; says how long it waited when "
			"one was. The work folder is --cache-dir's.",
		.examples = {
			{ "Unmount after a benchmark",
			  "pmbench bench todo-api && pmbench wait && umount "
			  "/mnt/bench" },
		},
		.exit_status = "0 ok, 129 usage.",
	},
	{
		.name = "workflow",
		.id = CMD_WORKFLOW,
		.flags = CMDF_BENCH_OPTIONS,
		.fn = cmd_workflow,
		.summary = "Write a GitHub Actions workflow that shards a "
			   "benchmark",
		.synopsis = "github-actions [options] [bench options] "
			    "[FIXTURE...]",
		.description =
			"Write a GitHub Actions workflow to standard output: "
			"a matrix of jobs, one per fixture and shard (and PM "
			"with --pm-matrix), each on its own runner "
			"installing Debian's packages and the pinned PMs "
			"(ci/setup), building pmbench, running 'pmbench "
			"bench --shard K/N' with the bench options given and "
			"uploading its result; then a job that merges the "
			"shards per fixture ('pmbench merge'), writes the "
			"Markdown report to the job summary and uploads the "
			"HTML report and merged results. FIXTURE: manifest "
			"names (default todo-api). A value with a line "
			"break, a GitHub expression or a credential is "
			"refused: the workflow is committed.",
		.examples = {
			{ "Three shards each of two fixtures, npm against bun",
			  "pmbench workflow github-actions --pm npm,bun "
			  "--shards 3 todo-api vite-react-ts > "
			  ".github/workflows/pmbench.yml" },
		},
		.exit_status = "0 written, 1 error, 129 usage.",
	},
};

const size_t pmbench_cli_commands_nr = PMBENCH_ARRAY_SIZE(pmbench_cli_commands);

const struct pmbench_cli_command *pmbench_cli_command_get(const char *name)
{
	if (!strcmp(name, pmbench_cli_program.name))
		return &pmbench_cli_program;
	for (size_t i = 0; i < pmbench_cli_commands_nr; i++)
		if (!strcmp(pmbench_cli_commands[i].name, name))
			return &pmbench_cli_commands[i];
	return NULL;
}
