/*
 * The option table of every command (options.h): a row names the
 * option, the kind of its argument, the commands that take it, its help
 * line and where its value lands. Here too, how a value of each kind is
 * checked and landed (pmbench_cli_apply()) and the setters of the rows
 * of no generic kind; the rows the task knobs generate (task.h) join
 * them in pmbench_cli_options(). The parser that reads the table is
 * parse.c.
 */
#include "pmbench/common.h"

#include <pthread.h>
#include <stddef.h>

#include "options.h"
#include "pmbench/bench.h"
#include "pmbench/cicache.h"
#include "pmbench/ctx.h"
#include "pmbench/explain.h"
#include "pmbench/format.h"
#include "pmbench/pm.h"
#include "pmbench/registry.h"
#include "pmbench/scenario.h"
#include "pmbench/task.h"
#include "pmbench/text.h"

/*
 * Where a row's value lands: member `f` of the configuration, which must
 * have type `type` (a mismatch does not compile).
 */
#define LAND(T, in_, f, type) \
	.in = (in_), .at = _Generic(((T *)0)->f, type : offsetof(T, f))
#define CLI_AT(f, type) LAND(struct pmbench_cli_opts, IN_CLI, f, type)
#define RUN_AT(f, type) LAND(struct pmbench_bench_opts, IN_RUN, f, type)
#define CICACHE_AT(f, type) \
	LAND(struct pmbench_cicache_opts, IN_CICACHE, f, type)

/* Groups of commands. */
#define RUNS_PMS      (CMD_BENCH | CMD_CI_CACHE | CMD_CLAIM | CMD_MIGRATE)
#define READS_RESULTS (CMD_REPORT | CMD_COMPARE | CMD_HISTORY)
#define TABLES	      (RUNS_PMS | CMD_REPORT | CMD_COMPARE)
/* Every command, those after the last one named too. */
#define ALL_CMDS (~0u)

/*
 * Sorted by name (a test checks it); see options.h. The task knobs'
 * rows are not here: pmbench_cli_options() generates them from the task
 * table.
 */
static const struct pmbench_option rows[] = {
	{ "archiver", ARG_CUSTOM, CMD_CI_CACHE, "NAME",
	  "libarchive (in process, the default) or gnu-tar (tar and "
	  "zstdmt/unzstd as actions/cache runs them)",
	  .set = pmbench_cli_set_archiver, .complete = CPL_WORDS,
	  .values = "libarchive gnu-tar" },
	{ "bandwidth", ARG_CUSTOM, CMD_CI_CACHE, "RATE",
	  "the modelled cache download and upload rate, e.g. 100MB/s, "
	  "50MiB/s, 250Mbit/s (default 100MB/s)",
	  .set = pmbench_cli_set_bandwidth },
	{ "base", ARG_STRING, CMD_BENCH, "SHA",
	  "bench two commits of one git fixture in one run: every PM on a "
	  "checkout of this commit (cells of '<fixture>@base') and on the "
	  "fixture's own (or --head), interleaved and paired by round; "
	  "'pmbench compare RESULT' reads the two sides",
	  .flags = OPT_LOCAL, RUN_AT(base_commit, const char *) },
	{ "baseline", ARG_PM, CMD_BENCH | CMD_CLAIM | CMD_MIGRATE, "PM",
	  "the PM the others are measured against, paired by round, beside "
	  "the fastest (default: npm in bench, the source PM in migrate, "
	  "the claim's second PM in claim)",
	  RUN_AT(baseline, const char *), .complete = CPL_PMS },
	{ "budget", ARG_DURATION, CMD_BENCH | CMD_CLAIM | CMD_MIGRATE, "DUR",
	  "the whole command's time budget: after the first rounds, "
	  "further rounds go where a verdict against the baseline is still "
	  "open, then where a paired ratio is widest, until all are within "
	  "--target (bench's and migrate's default: 8m; --runs N fixes the "
	  "plan instead)",
	  .flags = OPT_AUTO_KNOB, RUN_AT(budget.budget_ns, uint64_t) },
	{ "budget", ARG_DURATION, CMD_CI_CACHE, "DUR",
	  "the whole command's time budget (default 12m): after every "
	  "strategy's first jobs and 5 hit rounds, further hit rounds go "
	  "where a PM's verdict against the first PM is still open, then "
	  "where a paired ratio is widest; --runs N fixes the plan instead",
	  .flags = OPT_AUTO_KNOB, CICACHE_AT(budget.budget_ns, uint64_t) },
	{ "cache-dir", ARG_PATH, CMD_MAIN, "DIR",
	  "pmbench's work folder (default: $PMBENCH_CACHE_DIR, else the "
	  "source tree's cache/, or installed $XDG_CACHE_HOME/pmbench, "
	  "else ~/.cache/pmbench)",
	  CLI_AT(cache_dir, const char *), .complete = CPL_DIR,
	  .flags = OPT_UNMEASURED },
	{ "choose", ARG_CUSTOM, CMD_MIGRATE, "LIST",
	  "recipe changes to make instead of their choice's default, "
	  "comma-separated: workspace-protocol (pnpm: internal "
	  "dependencies as workspace:*, instead of linkWorkspacePackages)",
	  .set = pmbench_cli_set_choose, .complete = CPL_WORDS,
	  .values = "link-workspace-packages workspace-protocol" },
	{ "ci", ARG_FLAG, CMD_BENCH | CMD_CLAIM | CMD_MIGRATE, NULL,
	  "time every PM as on a CI runner: CI=true and GITHUB_ACTIONS=true "
	  "(what the PMs read to detect CI), without pmbench's frozen-"
	  "lockfile pins, so each PM's CI default decides (yarn 4 refuses to "
	  "write a lockfile, pnpm to change one); the priming is not run so",
	  RUN_AT(ci, int), .value = 1 },
	{ "columns", ARG_CUSTOM, TABLES, "LIST",
	  "the terminal table's columns, comma-separated: {columns}",
	  .flags = OPT_LOCAL | OPT_UNMEASURED, .set = pmbench_cli_set_columns,
	  .complete = CPL_COLUMNS },
	{ "compression", ARG_CUSTOM, CMD_CI_CACHE, "LIST",
	  "none, gzip[:1-9], zstd[:1-19], comma-separated (default: zstd, "
	  "which is zstd:3)",
	  .set = pmbench_cli_set_compressions, .complete = CPL_WORDS,
	  .values = "none gzip zstd" },
	{ "container", ARG_CUSTOM, CMD_WORKFLOW, "IMAGE",
	  "the jobs' container (default debian:12, as ci/setup expects; "
	  "'none': the runner itself, with sudo)",
	  .set = pmbench_cli_set_container },
	{ "cron", ARG_CUSTOM, CMD_WORKFLOW, "EXPR",
	  "also run on this schedule, e.g. '0 4 * * 1'",
	  .set = pmbench_cli_set_cron },
	{ "dry-run", ARG_FLAG, CMD_BENCH, NULL,
	  "print the plan (fixtures, PMs, scenarios, runs) and exit",
	  .flags = OPT_LOCAL | OPT_UNMEASURED, CLI_AT(dry_run, int),
	  .value = 1 },
	{ "env", ARG_ENV, CMD_BENCH | CMD_MIGRATE, "K=V",
	  "set a variable for every PM (repeatable), e.g. "
	  "CYPRESS_INSTALL_BINARY=0; the result records its value only "
	  "when it cannot be a credential (0, 1, true, false, ...), else "
	  "NAME=***",
	  RUN_AT(env, struct pmbench_strvec) },
	{ "env", ARG_ENV, CMD_CI_CACHE, "K=V",
	  "set a variable for every PM (repeatable); the result records "
	  "its value only when it cannot be a credential (0, 1, true, "
	  "false, ...), else NAME=***",
	  CICACHE_AT(env, struct pmbench_strvec) },
	{ "explain", ARG_FLAG, CMD_BENCH, NULL,
	  "after each scenario's timed installs, 3 untimed ones per PM with "
	  "its own timers on (npm --timing, pnpm --reporter=ndjson, ...): "
	  "the phases it names, beside the times",
	  .flags = OPT_LOCAL, RUN_AT(explain, int),
	  .value = PMBENCH_EXPLAIN_RUNS },
	{ "fixtures-dir", ARG_PATH, CMD_MAIN, "DIR",
	  "where manifests are looked up (default: $PMBENCH_FIXTURES_DIR, "
	  "else the source tree's fixtures/, or installed "
	  "<prefix>/share/pmbench/fixtures)",
	  CLI_AT(fixtures_dir, const char *), .complete = CPL_DIR,
	  .flags = OPT_UNMEASURED },
	{ "format", ARG_FORMAT, TABLES | CMD_HISTORY, "F",
	  "the report's format: {formats} (default: table)", .letter = 'f',
	  .flags = OPT_LOCAL | OPT_UNMEASURED,
	  CLI_AT(output.format, const struct pmbench_format *),
	  .complete = CPL_FORMAT },
	{ "from", ARG_PATH, CMD_CLAIM, "FILE",
	  "judge the cells of this result file instead of running",
	  CLI_AT(from, const char *), .complete = CPL_FILE },
	{ "from", ARG_PM, CMD_MIGRATE, "PM",
	  "the repo's PM (default: told by its lockfile, else its "
	  "packageManager field)",
	  CLI_AT(from, const char *), .complete = CPL_PM },
	{ "head", ARG_STRING, CMD_BENCH, "SHA",
	  "with --base: the head side's commit (default: the fixture's own, "
	  "or its HEAD)",
	  .flags = OPT_LOCAL, RUN_AT(head_commit, const char *) },
	{ "help", ARG_FLAG, ALL_CMDS, NULL, "this help", .letter = 'h',
	  .flags = OPT_UNMEASURED },
	{ "history-dir", ARG_CUSTOM, CMD_WORKFLOW, "DIR",
	  "commit the merged results into DIR/<date>/ and add 'pmbench "
	  "history DIR' to the summary",
	  .set = pmbench_cli_set_history_dir, .complete = CPL_DIR },
	{ "job-timeout", ARG_COUNT, CMD_WORKFLOW, "MIN",
	  "timeout-minutes of a shard job (default 60)",
	  CLI_AT(job_timeout, unsigned), .min = 1, .max = 4320 },
	{ "link", ARG_CUSTOM, RUNS_PMS, "RTT,BW",
	  "an emulated link to the mirror, e.g. 50ms,200mbit, one cap "
	  "shared by all connections (default: none)",
	  .set = pmbench_cli_set_link },
	{ "markdown", ARG_PATH, CMD_MIGRATE, "FILE",
	  "also write the report as Markdown (as --format markdown "
	  "--report FILE does)",
	  CLI_AT(markdown, const char *), .complete = CPL_FILE,
	  .flags = OPT_UNMEASURED },
	{ "max-runs", ARG_COUNT, CMD_BENCH | CMD_CLAIM | CMD_MIGRATE, "N",
	  "with a budget: at most this many rounds per scenario (default "
	  "30; at least 5)",
	  .flags = OPT_AUTO_KNOB, RUN_AT(budget.max_runs, unsigned),
	  .min = PMBENCH_SCHEDULE_BUDGET_MIN_RUNS, .max = 100000 },
	{ "max-runs", ARG_COUNT, CMD_CI_CACHE, "N",
	  "with a budget: at most this many hit rounds per strategy "
	  "(default 30; at least 5)",
	  .flags = OPT_AUTO_KNOB, CICACHE_AT(budget.max_runs, unsigned),
	  .min = PMBENCH_SCHEDULE_BUDGET_MIN_RUNS, .max = 100000 },
	{ "no-ci", ARG_FLAG, CMD_CI_CACHE, NULL,
	  "run the jobs without CI=true and GITHUB_ACTIONS=true (default: "
	  "with them, as on a GitHub Actions runner)",
	  CICACHE_AT(ci, int), .value = 0 },
	{ "no-control", ARG_FLAG, CMD_BENCH, NULL,
	  "skip the drift control: pmbench's own fixed work, timed every "
	  "round as the cell (control)",
	  RUN_AT(control, int), .value = 0 },
	{ "no-fs-wait", ARG_CUSTOM, RUNS_PMS, NULL,
	  "time at once even while the file system is still slowed by "
	  "pmbench's last large deletion (ext4 without a journal: up to 6 "
	  "min; default: wait)",
	  .set = pmbench_cli_set_no_fs_wait },
	{ "no-lockfile-change", ARG_FLAG, CMD_CI_CACHE, NULL,
	  "skip the lockfile-changed job", CICACHE_AT(lockfile_changed, int),
	  .value = 0 },
	{ "no-progress", ARG_FLAG, RUNS_PMS, NULL,
	  "one line per step instead of the progress bars (the default "
	  "when standard error is not a terminal)",
	  .flags = OPT_LOCAL | OPT_UNMEASURED, CLI_AT(tty, int), .value = 0 },
	{ "no-recipe", ARG_FLAG, CMD_MIGRATE, NULL,
	  "give every target the repo as it is (no recipe: no "
	  "pnpm-workspace.yaml, \"private\", packageManager, ...)",
	  CLI_AT(no_recipe, int), .value = 1 },
	{ "node", ARG_STRING, CMD_BENCH | CMD_CLAIM | CMD_MIGRATE, "system|VER",
	  "the Node every PM and script runs under: system (the machine's), "
	  "or a version or range, installed from the registry if need be "
	  "(default: the one the repo asks for, else the pinned one)",
	  RUN_AT(node, const char *), .complete = CPL_WORDS,
	  .values = "system" },
	{ "out", ARG_PATH, CMD_BENCH, "FILE",
	  "the result file, rewritten after each scenario (default: "
	  "cache/results/<fixture>-<time>.json)",
	  .letter = 'o', .flags = OPT_LOCAL | OPT_UNMEASURED,
	  RUN_AT(out, const char *), .complete = CPL_FILE },
	{ "out", ARG_PATH, CMD_CI_CACHE, "FILE",
	  "the result file (default: "
	  "cache/results/ci-cache-<fixture>-<time>.json)",
	  .letter = 'o', CICACHE_AT(out, const char *), .complete = CPL_FILE,
	  .flags = OPT_UNMEASURED },
	{ "out", ARG_PATH, CMD_CLAIM, "FILE",
	  "where a live run's result goes (default: "
	  "cache/results/claim-<fixture>-<time>.json)",
	  .letter = 'o', RUN_AT(out, const char *), .complete = CPL_FILE,
	  .flags = OPT_UNMEASURED },
	{ "out", ARG_PATH, CMD_MERGE, "FILE", "the merged result (required)",
	  .letter = 'o', .flags = OPT_REQUIRED | OPT_UNMEASURED,
	  CLI_AT(out, const char *), .complete = CPL_FILE },
	{ "out", ARG_PATH, CMD_MIGRATE, "FILE",
	  "the JSON report (default: "
	  "cache/results/migrate-<name>-<time>.json)",
	  .letter = 'o', CLI_AT(out, const char *), .complete = CPL_FILE,
	  .flags = OPT_UNMEASURED },
	{ "out", ARG_PATH, READS_RESULTS, "FILE",
	  "write to FILE instead of standard output, in the format its "
	  "name says ({extensions}) unless --format does",
	  .letter = 'o', CLI_AT(output.path, const char *),
	  .complete = CPL_FILE, .flags = OPT_UNMEASURED },
	{ "pm", ARG_PMS, CMD_BENCH, "LIST",
	  "comma-separated: {pms}, or variants ('pmbench pms'), each at a "
	  "version if need be (pnpm@9.15.0, pnpm@9, pnpm@9:hoisted, "
	  "pnpm@pinned); default: every PM found",
	  RUN_AT(pms, struct pmbench_strvec), .complete = CPL_PMS },
	{ "pm", ARG_PMS, CMD_CI_CACHE, "LIST",
	  "comma-separated: {pms}, or variants ('pmbench pms'), each at a "
	  "version if need be (pnpm@9); default: every PM found",
	  CICACHE_AT(pms, struct pmbench_strvec), .complete = CPL_PMS },
	{ "pm-config", ARG_STRING, CMD_BENCH | CMD_CLAIM | CMD_MIGRATE,
	  "user|defaults",
	  "the PM configuration passed on: user (default: your ~/.npmrc, "
	  "copied into every PM's HOME) or defaults (no user file: each PM "
	  "with its own defaults); the repo's own files stay in both",
	  RUN_AT(pm_config, const char *), .complete = CPL_WORDS,
	  .values = "user defaults" },
	{ "pm-matrix", ARG_FLAG, CMD_WORKFLOW, NULL,
	  "one job per PM of --pm too (each PM its own plan)",
	  CLI_AT(pm_matrix, int), .value = 1 },
	{ "pmbench-repo", ARG_STRING, CMD_WORKFLOW, "OWNER/NAME[@REF]",
	  "with --pull-request: the repository (and ref) the job builds "
	  "pmbench from",
	  CLI_AT(pmbench_repo, const char *) },
	{ "progress", ARG_FLAG, RUNS_PMS, NULL,
	  "the progress bars on standard error even when it is not a "
	  "terminal",
	  .flags = OPT_LOCAL | OPT_UNMEASURED, CLI_AT(tty, int), .value = 1 },
	{ "prove-offline", ARG_FLAG, CMD_BENCH | CMD_CLAIM, NULL,
	  "after each warm scenario's timed installs (cache or node_modules "
	  "in place), one untimed install per PM with the local registry "
	  "refusing every request: one that fails or asks anything was not "
	  "warm (cold scenarios are not proven: they need the registry)",
	  .flags = OPT_LOCAL, RUN_AT(prove, int), .value = 1 },
	{ "pull-request", ARG_FLAG, CMD_WORKFLOW, NULL,
	  "instead of the sharded benchmark: a check for the repository's "
	  "pull requests that touch its lockfile, package.json's PM fields "
	  "or PM configuration, benching base and head in one job paired by "
	  "round (bench --base), with one comment and a job summary",
	  CLI_AT(pull_request, int), .value = 1 },
	{ "registry", ARG_CUSTOM, RUNS_PMS, "MODE",
	  "local (default): a verdaccio mirror on 127.0.0.1, filled while "
	  "priming, sealed for the timed runs; live: your npm config's "
	  "registry ($PMBENCH_REGISTRY)",
	  .set = pmbench_cli_set_registry, .complete = CPL_WORDS,
	  .values = "local live" },
	{ "report", ARG_PATH, RUNS_PMS, "FILE",
	  "also write the report to FILE, in the format its name says "
	  "({extensions}) unless --format does; the table still goes to "
	  "standard output",
	  .flags = OPT_LOCAL | OPT_UNMEASURED,
	  CLI_AT(output.path, const char *), .complete = CPL_FILE },
	{ "report", ARG_PATH, READS_RESULTS, "FILE", "the same as --out",
	  CLI_AT(output.path, const char *), .complete = CPL_FILE,
	  .flags = OPT_UNMEASURED },
	{ "runner", ARG_CUSTOM, CMD_WORKFLOW, "LABELS",
	  "runs-on: a label, or several comma-separated (a runner with every "
	  "one; default ubuntu-latest)",
	  .set = pmbench_cli_set_runner },
	{ "runs", ARG_CUSTOM, CMD_BENCH, "N|auto",
	  "timed rounds per scenario, a fixed plan (with --shard: default "
	  "5); without it, or 'auto', --budget spends the rounds",
	  .min = 1, .max = 100000, .set = pmbench_cli_set_runs,
	  .complete = CPL_WORDS, .values = "auto" },
	{ "runs", ARG_COUNT, CMD_CI_CACHE, "N",
	  "hit jobs per PM and strategy, a fixed plan; without it --budget "
	  "spends the hit rounds",
	  CICACHE_AT(runs, unsigned), .min = 1, .max = 10000 },
	{ "runs", ARG_CUSTOM, CMD_CLAIM, "N|auto",
	  "timed runs when running (default 10); 'auto' as in bench, with "
	  "--budget, --target and --max-runs",
	  .min = 1, .max = 100000, .set = pmbench_cli_set_runs,
	  .complete = CPL_WORDS, .values = "auto" },
	{ "runs", ARG_CUSTOM, CMD_MIGRATE, "N|auto",
	  "timed rounds per scenario, a fixed plan; without it, or 'auto', "
	  "--budget spends the rounds",
	  .min = 1, .max = 100000, .set = pmbench_cli_set_runs,
	  .complete = CPL_WORDS, .values = "auto" },
	{ "scenario", ARG_CUSTOM, CMD_BENCH, "LIST",
	  "comma-separated scenarios, 'all' or 'default'; a scenario is "
	  "'clean' or cache, lockfile, node_modules joined by '+' (default: "
	  "clean,lockfile,cache+lockfile,cache+lockfile+node_modules)",
	  .set = pmbench_cli_set_scenarios, .complete = CPL_SCENARIOS },
	{ "scenario", ARG_CUSTOM, CMD_CLAIM, "LIST",
	  "only these scenarios (default: every one in the file; when "
	  "running, bench's default)",
	  .set = pmbench_cli_set_scenarios, .complete = CPL_SCENARIOS },
	{ "scenario", ARG_CUSTOM, CMD_MIGRATE, "LIST",
	  "the install scenarios to time (default: clean,cache+lockfile)",
	  .set = pmbench_cli_set_scenarios, .complete = CPL_SCENARIOS },
	{ "scripts", ARG_CUSTOM, RUNS_PMS, "CHOICE",
	  "dependencies' install scripts: default (each PM as it comes), "
	  "none (every PM told to run none) or all (told to run every one), "
	  "each PM by its own flag or setting; the process tree of each "
	  "run confirms it",
	  .set = pmbench_cli_set_scripts, .complete = CPL_WORDS,
	  .values = "default none all" },
	{ "seed", ARG_U64, CMD_BENCH | CMD_CLAIM | CMD_MIGRATE, "N",
	  "the seed of the statistics' resampling (default 1)",
	  RUN_AT(seed, uint64_t) },
	{ "seed", ARG_U64, CMD_MERGE, "N",
	  "the seed of the intervals printed (default: the result's)",
	  CLI_AT(seed, uint64_t), .flags = OPT_UNMEASURED },
	{ "shard", ARG_CUSTOM, CMD_BENCH, "K/N",
	  "run only shard K of N: every Nth timed round, from the Kth "
	  "(warm-ups in every shard); merge the N results with 'pmbench "
	  "merge'",
	  .flags = OPT_LOCAL | OPT_UNMEASURED, .set = pmbench_cli_set_shard },
	{ "shards", ARG_COUNT, CMD_WORKFLOW, "N",
	  "shards per fixture (default 3; at most --runs)",
	  CLI_AT(shards, unsigned), .min = 1, .max = 256 },
	{ "strategy", ARG_CUSTOM, CMD_CI_CACHE, "LIST",
	  "none, or store, node_modules and toolchain (the PM itself) "
	  "joined by '+', comma-separated (default: none, store, "
	  "node_modules, store+node_modules)",
	  .set = pmbench_cli_set_strategies, .complete = CPL_WORDS,
	  .values = "none store node_modules store+node_modules toolchain "
		    "store+toolchain store+node_modules+toolchain" },
	{ "target", ARG_PERCENT, CMD_BENCH | CMD_CLAIM | CMD_MIGRATE, "PCT",
	  "with a budget: the half-width of each PM's paired ratio against "
	  "the baseline, in % of the ratio (default 10)",
	  .flags = OPT_AUTO_KNOB, RUN_AT(budget.target, double) },
	{ "target", ARG_PERCENT, CMD_CI_CACHE, "PCT",
	  "with a budget: the half-width of each PM's paired ratio against "
	  "the first PM, in % of the ratio (default 10)",
	  .flags = OPT_AUTO_KNOB, CICACHE_AT(budget.target, double) },
	{ "task", ARG_CUSTOM, CMD_BENCH, "LIST",
	  "comma-separated tasks, listed above (default: install); all but "
	  "install work in each PM's own primed tree",
	  .set = pmbench_cli_set_tasks, .complete = CPL_TASKS },
	{ "task", ARG_CUSTOM, CMD_MIGRATE, "LIST",
	  "from {parity_tasks} (run once per PM for parity) and "
	  "{timed_tasks} (timed like install); default build,test; a task "
	  "the repo has no script for is skipped",
	  .set = pmbench_cli_set_migrate_tasks, .complete = CPL_TASKS },
	{ "time-budget", ARG_DURATION, CMD_BENCH | CMD_CLAIM, "DUR",
	  "the old spelling of --budget (it was per scenario; it is now the "
	  "whole command's)",
	  .flags = OPT_AUTO_KNOB, RUN_AT(budget.budget_ns, uint64_t) },
	{ "time-source", ARG_FLAG, CMD_MIGRATE, NULL,
	  "time the source PM even when no target installs (else pmbench "
	  "stops once their primings failed)",
	  CLI_AT(time_source, int), .value = 1 },
	{ "timeout", ARG_DURATION, CMD_BENCH | CMD_CLAIM | CMD_MIGRATE, "DUR",
	  "per run, e.g. 90s, 15m (default 15m)",
	  RUN_AT(timeout_ns, uint64_t) },
	{ "timeout", ARG_DURATION, CMD_CI_CACHE, "DUR",
	  "per install, e.g. 90s, 15m (default 15m)",
	  CICACHE_AT(timeout_ns, uint64_t) },
	{ "to", ARG_PMS, CMD_MIGRATE, "LIST",
	  "the target PMs (required): {pms}, or variants ('pmbench pms'), "
	  "each at a version if need be (bun@1.1)",
	  .flags = OPT_REQUIRED, CLI_AT(to, struct pmbench_strvec),
	  .complete = CPL_PMS },
	{ "tolerance", ARG_PERCENT, CMD_CLAIM, "PCT",
	  "how far from N still counts as N (default 10)",
	  CLI_AT(tolerance, double), .flags = OPT_UNMEASURED },
	{ "version", ARG_FLAG, CMD_MAIN, NULL, "print pmbench's version",
	  CLI_AT(version, int), .value = 1, .flags = OPT_UNMEASURED },
	{ "versions", ARG_STRING, CMD_PMS, "PM",
	  "the releases of PM the registry has (the npm registry of your "
	  "npm config, or $PMBENCH_NODE_REGISTRY), oldest first, those "
	  "installed marked",
	  CLI_AT(versions, const char *), .complete = CPL_WORDS,
	  .values = "npm yarn yarn-berry pnpm bun deno",
	  .flags = OPT_UNMEASURED },
	{ "warmup", ARG_COUNT, CMD_BENCH | CMD_CLAIM | CMD_MIGRATE, "N",
	  "untimed runs before the timed ones (default 1)",
	  RUN_AT(warmup, unsigned), .min = 0, .max = 100000 },
	{ "wide", ARG_FLAG, TABLES, NULL,
	  "every column, as wide as they are (else the table fits $COLUMNS "
	  "or the terminal, 80 at least, 100 off one)",
	  .flags = OPT_LOCAL | OPT_UNMEASURED, CLI_AT(output.wide, int),
	  .value = 1 },
};

_Static_assert(PMBENCH_ARRAY_SIZE(rows) <= PMBENCH_CLI_OPTIONS_MAX,
	       "raise PMBENCH_CLI_OPTIONS_MAX");

/* ---- The table: the rows above and the task knobs' -------------------- */

static struct pmbench_option table[PMBENCH_CLI_OPTIONS_MAX];
static size_t table_nr;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

/*
 * The row knob `k` of task `t` generates: bench's (and so its shards'),
 * measured, its help "with the <task> task: <help> (<bounds>)".
 */
static struct pmbench_option knob_row(const struct pmbench_task *t,
				      const struct pmbench_task_knob *k)
{
	struct pmbench_buf help = PMBENCH_BUF_INIT;
	struct pmbench_option o = { .name = k->name,
				    .kind = ARG_KNOB,
				    .cmds = CMD_BENCH,
				    .arg = k->arg,
				    .in = IN_RUN,
				    .at = k->values[0].at,
				    .min = k->values[0].min,
				    .max = k->values[0].max,
				    .knob = k };

	pmbench_buf_addf(&help, "with the %s task: %s (", t->name, k->help);
	pmbench_task_knob_bounds(&help, k);
	pmbench_buf_adds(&help, ")");
	o.help = pmbench_buf_detach(&help);
	return o;
}

/* Row `o` into the table, after the rows of names up to its own. */
static void insert_row(const struct pmbench_option *o)
{
	size_t at = table_nr;

	if (table_nr == PMBENCH_CLI_OPTIONS_MAX)
		pmbench_die("raise PMBENCH_CLI_OPTIONS_MAX");
	while (at && strcmp(table[at - 1].name, o->name) > 0)
		at--;
	memmove(&table[at + 1], &table[at], (table_nr - at) * sizeof(*table));
	table[at] = *o;
	table_nr++;
}

static void build_table(void)
{
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(rows); i++)
		insert_row(&rows[i]);
	for (size_t i = 0; i < pmbench_tasks_nr; i++) {
		const struct pmbench_task *t = &pmbench_tasks[i];

		for (const struct pmbench_task_knob *k = t->knobs; k && k->name;
		     k++) {
			struct pmbench_option o = knob_row(t, k);

			insert_row(&o);
		}
	}
}

const struct pmbench_option *pmbench_cli_options(void)
{
	pthread_once(&table_once, build_table);
	return table;
}

size_t pmbench_cli_options_nr(void)
{
	pthread_once(&table_once, build_table);
	return table_nr;
}

int pmbench_cli_takes(const struct pmbench_cli_command *c,
		      const struct pmbench_option *o)
{
	if (o->cmds & c->id)
		return 1;
	return c->flags & CMDF_BENCH_OPTIONS && o->cmds & CMD_BENCH &&
	       !(o->flags & OPT_LOCAL);
}

void pmbench_cli_opts_release(struct pmbench_cli_opts *cli)
{
	pmbench_strvec_release(&cli->to);
	pmbench_strvec_release(&cli->parity);
	pmbench_strvec_release(&cli->choose);
	pmbench_strvec_release(&cli->pass);
	pmbench_strvec_release(&cli->args);
	pmbench_strvec_release(&cli->measured);
}

int pmbench_cli_given(const struct pmbench_cli_opts *cli, const char *name)
{
	for (size_t i = 0; i < pmbench_cli_options_nr(); i++)
		if (cli->given[i] && !strcmp(table[i].name, name))
			return 1;
	return 0;
}

/* ---- The kinds ---------------------------------------------------------- */

static int parse_count(unsigned *out, const struct pmbench_option *o,
		       const char *arg, const char *or_auto)
{
	uint64_t n;

	if (pmbench_parse_u64(&n, arg) < 0 || n < o->min || n > o->max)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "'--%s' must be %sa whole number "
					  "from %u to %u, got '%s'",
					  o->name, or_auto, o->min, o->max,
					  arg);
	*out = (unsigned)n;
	return 0;
}

/*
 * The bounds of the kinds, one rule for every option of a kind: what is
 * shown as it was given (a budget as m:ss, a target as ±N %) and means
 * something. A duration below a second ran as "0:00" while 0 was
 * refused; a percentage of 0.0001 was shown as "±0 %".
 */
#define DURATION_MIN_NS 1000000000ull
#define DURATION_MAX_NS (24ull * 3600 * 1000000000ull)
#define PERCENT_MIN	0.1

static int parse_percent(double *out, const struct pmbench_option *o,
			 const char *arg)
{
	char *end = NULL;
	double pct;

	errno = 0;
	pct = strtod(arg, &end);
	if (end == arg || (*end && strcmp(end, "%")) || errno ||
	    !(pct >= PERCENT_MIN && pct <= 100))
		return pmbench_error_setc(
			PMBENCH_EINVALID,
			"'--%s' must be a percentage from %g to 100, such as "
			"5 or 2.5%%, got '%s'",
			o->name, PERCENT_MIN, arg);
	*out = pct / 100;
	return 0;
}

static int parse_duration(uint64_t *out, const struct pmbench_option *o,
			  const char *arg)
{
	if (pmbench_parse_duration(out, arg) < 0 || *out < DURATION_MIN_NS ||
	    *out > DURATION_MAX_NS)
		return pmbench_error_setc(
			PMBENCH_EINVALID,
			"'--%s' must be a duration from 1s to 24h, such as "
			"90s or 15m, got '%s'",
			o->name, arg);
	return 0;
}

static int check_pm(const struct pmbench_option *o, const char *name)
{
	struct pmbench_buf known = PMBENCH_BUF_INIT;
	int ret;

	const struct pmbench_pm *pm;

	if (strchr(name, '@')) {
		if (pmbench_pm_lookup(&pm, name) < 0)
			return pmbench_error_setc(PMBENCH_EINVALID, "--%s: %s",
						  o->name,
						  pmbench_error_last());
		return 0;
	}
	if (pmbench_pm_get(name))
		return 0;
	pmbench_pm_join_names(&known, ", ", PMBENCH_PM_JOIN_OR);
	ret = pmbench_error_setc(PMBENCH_EINVALID,
				 "unknown package manager '%s' in --%s; use "
				 "%s, or a variant ('pmbench pms')",
				 name, o->name, known.ptr);
	pmbench_buf_release(&known);
	return ret;
}

/* A list replaces the one before; an item given twice is kept once. */
static int parse_pms(struct pmbench_strvec *out, const struct pmbench_option *o,
		     const char *list)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	char opt[32];
	int ret = 0;

	snprintf(opt, sizeof(opt), "--%s", o->name);
	pmbench_strvec_release(out);
	pmbench_strvec_split(&v, list, ',');
	for (size_t i = 0; i < v.nr && !ret; i++) {
		ret = check_pm(o, v.v[i]);
		if (ret)
			break;
		if (pmbench_strvec_find(out, v.v[i]) < 0)
			pmbench_strvec_push(out, v.v[i]);
		else
			pmbench_cli_note_twice(v.v[i], opt,
					       strcmp(o->name, "to")
						       ? "timing"
						       : "evaluating");
	}
	if (!ret && !out->nr)
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "--%s needs at least one package "
					 "manager",
					 o->name);
	pmbench_strvec_release(&v);
	return ret;
}

/* Where row `o` lands in `cli` and the engine options it points at. */
static void *land(struct pmbench_cli_opts *cli, const struct pmbench_option *o)
{
	char *base = (char *)cli;

	if (o->in == IN_RUN)
		base = (char *)cli->run;
	else if (o->in == IN_CICACHE)
		base = (char *)cli->cicache;
	if (!base)
		pmbench_die("--%s of '%s' has nowhere to land", o->name,
			    cli->cmd->name);
	return base + o->at;
}

static int set_text(void *p, const struct pmbench_option *o, const char *arg)
{
	if (o->kind == ARG_PATH && !*arg)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "'--%s' needs a name, not an empty "
					  "one",
					  o->name);
	if (o->kind == ARG_PM && check_pm(o, arg) < 0)
		return PMBENCH_EINVALID;
	*(const char **)p = arg;
	return 0;
}

int pmbench_cli_apply(struct pmbench_cli_opts *cli,
		      const struct pmbench_option *o, const char *arg)
{
	void *p;

	if (o->kind == ARG_CUSTOM)
		return o->set(cli, o, arg);
	p = land(cli, o);
	switch (o->kind) {
	case ARG_FLAG:
		*(int *)p = o->value;
		return 0;
	case ARG_COUNT:
		return parse_count(p, o, arg, "");
	case ARG_U64:
		if (pmbench_parse_u64(p, arg) < 0)
			return pmbench_error_setc(PMBENCH_EINVALID,
						  "'--%s' must be a whole "
						  "number, got '%s'",
						  o->name, arg);
		return 0;
	case ARG_DURATION:
		return parse_duration(p, o, arg);
	case ARG_PERCENT:
		return parse_percent(p, o, arg);
	case ARG_PMS:
		return parse_pms(p, o, arg);
	case ARG_ENV:
		if (!strchr(arg, '=') || arg[0] == '=')
			return pmbench_error_setc(
				PMBENCH_EINVALID,
				"'--%s' takes NAME=VALUE, got "
				"'%s'",
				o->name, arg);
		pmbench_strvec_push(p, arg);
		return 0;
	case ARG_KNOB:
		return pmbench_task_knob_set(&cli->run->knobs, o->knob, arg);
	case ARG_FORMAT:
		*(const struct pmbench_format **)p = pmbench_format_get(arg);
		return *(const struct pmbench_format **)p ? 0
							  : PMBENCH_EINVALID;
	default:
		return set_text(p, o, arg);
	}
}

/* ---- The setters of options.c's own rows -------------------------------- */

int pmbench_cli_set_runs(struct pmbench_cli_opts *cli,
			 const struct pmbench_option *o, const char *arg)
{
	cli->run->runs_auto = !strcmp(arg, "auto");
	if (cli->run->runs_auto)
		return 0;
	return parse_count(&cli->run->runs, o, arg, "'auto' or ");
}

int pmbench_cli_set_scenarios(struct pmbench_cli_opts *cli,
			      const struct pmbench_option *o, const char *arg)
{
	struct pmbench_bench_opts *run = cli->run;
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	int ret = 0;

	pmbench_strvec_split(&v, arg, ',');
	run->scenarios_nr = 0;
	for (size_t i = 0; i < v.nr && !ret; i++) {
		const unsigned *add = pmbench_scenarios_all;
		size_t add_nr = PMBENCH_ARRAY_SIZE(pmbench_scenarios_all);
		unsigned one;

		if (!strcmp(v.v[i], "default")) {
			add = pmbench_scenarios_default;
			add_nr = PMBENCH_ARRAY_SIZE(pmbench_scenarios_default);
		} else if (strcmp(v.v[i], "all")) {
			ret = pmbench_scenario_parse(&one, v.v[i]);
			add = &one;
			add_nr = !ret;
		}
		for (size_t k = 0; k < add_nr; k++) {
			int dup = 0;

			for (size_t j = 0; j < run->scenarios_nr; j++)
				dup |= run->scenarios[j] == add[k];
			if (!dup)
				run->scenarios[run->scenarios_nr++] = add[k];
			else
				pmbench_cli_note_twice(
					pmbench_scenario_name(add[k]),
					"--scenario", "running");
		}
	}
	if (!ret && !run->scenarios_nr)
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "--%s needs at least one scenario",
					 o->name);
	pmbench_strvec_release(&v);
	return ret;
}

int pmbench_cli_set_registry(struct pmbench_cli_opts *cli,
			     const struct pmbench_option *o, const char *arg)
{
	(void)cli;
	(void)o;
	return pmbench_registry_parse_mode(&pmbench_cli_registry.mode, arg);
}

int pmbench_cli_set_link(struct pmbench_cli_opts *cli,
			 const struct pmbench_option *o, const char *arg)
{
	(void)cli;
	(void)o;
	return pmbench_link_parse(&pmbench_cli_registry.link, arg);
}

int pmbench_cli_set_no_fs_wait(struct pmbench_cli_opts *cli,
			       const struct pmbench_option *o, const char *arg)
{
	(void)cli;
	(void)o;
	(void)arg;
	pmbench_cli_ctx.no_fs_wait = 1;
	return 0;
}

int pmbench_cli_set_scripts(struct pmbench_cli_opts *cli,
			    const struct pmbench_option *o, const char *arg)
{
	enum pmbench_scripts_choice *at = cli->run ? &cli->run->scripts
						   : &cli->cicache->scripts;

	(void)o;
	return pmbench_scripts_choice_parse(at, arg);
}

int pmbench_cli_set_columns(struct pmbench_cli_opts *cli,
			    const struct pmbench_option *o, const char *arg)
{
	(void)o;
	if (pmbench_format_check_columns(arg) < 0)
		return PMBENCH_EINVALID;
	cli->output.columns = arg;
	return 0;
}
