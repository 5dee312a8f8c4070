/*
 * pmbench workflow github-actions [options] [bench options] [FIXTURE...]:
 * a GitHub Actions workflow whose matrix runs one shard of one fixture's
 * plan per job (bench --shard K/N), and whose last job merges the shards
 * (pmbench merge), writes the Markdown report to the job summary and
 * keeps the HTML report as an artifact; optionally it commits the merged
 * results into a history folder (pmbench history).
 */
#include "pmbench/common.h"

#include <ctype.h>
#include <getopt.h>

#include "cli.h"
#include "pmbench/buf.h"
#include "pmbench/strvec.h"
#include "pmbench/text.h"

#define DEFAULT_FIXTURE "todo-api"

struct wf {
	unsigned shards;
	unsigned runs;		 /* 0: bench's default */
	const char *runner;	 /* runs-on */
	const char *container;	 /* NULL: the runner itself */
	unsigned job_timeout;	 /* minutes, per shard job */
	const char *cron;	 /* NULL: no schedule */
	int pm_matrix;		 /* one job per PM too */
	const char *history_dir; /* NULL: no commit */
	struct pmbench_strvec pms;
	struct pmbench_strvec bench; /* bench options, as given */
	struct pmbench_strvec fixtures;
	struct pmbench_strvec argv; /* the command line, for the header */
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: pmbench workflow github-actions [options] [bench "
		"options] [FIXTURE...]\n"
		"\n"
		"Write a GitHub Actions workflow to standard output: a matrix "
		"of jobs, one per\n"
		"fixture and shard (and PM with --pm-matrix), each on its own "
		"runner installing\n"
		"Debian's packages and the pinned PMs (ci/setup), building "
		"pmbench, running\n"
		"'pmbench bench --shard K/N' and uploading its result; then a "
		"job that merges\n"
		"the shards per fixture ('pmbench merge'), writes the Markdown "
		"report to the\n"
		"job summary and uploads the HTML report and merged results.\n"
		"\n"
		"  pmbench workflow github-actions --pm npm,bun --shards 3 "
		"todo-api \\\n"
		"    > .github/workflows/pmbench.yml\n"
		"\n"
		"Options:\n"
		"  --shards N         shards per fixture (default 3; at most "
		"--runs)\n"
		"  --runner LABEL     runs-on (default ubuntu-latest)\n"
		"  --container IMAGE  the jobs' container (default debian:12, "
		"as ci/setup\n"
		"                     expects; 'none': the runner itself, with "
		"sudo)\n"
		"  --job-timeout MIN  timeout-minutes of a shard job (default "
		"60)\n"
		"  --cron EXPR        also run on this schedule, e.g. '0 4 * * "
		"1'\n"
		"  --pm-matrix        one job per PM of --pm too (each PM its "
		"own plan)\n"
		"  --history-dir DIR  commit the merged results into "
		"DIR/<date>/ and add\n"
		"                     'pmbench history DIR' to the summary\n"
		"  -h, --help         this help\n"
		"\n"
		"Bench options passed to every shard: --pm, --scenario, "
		"--task, --runs,\n"
		"--warmup, --timeout, --env, --seed, --probe (see 'pmbench "
		"bench --help').\n"
		"FIXTURE: manifest names (default " DEFAULT_FIXTURE ").\n"
		"\n"
		"Exit status: 0 written, 1 error, 129 usage.\n");
}

/* Characters that need no quoting in sh and no escaping in YAML. */
static int plain(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return 0;
	return 1;
}

/* A word for sh inside a YAML block scalar: quoted unless plain. */
static void add_word(struct pmbench_buf *b, const char *s)
{
	if (plain(s, "_./=:,@%+-")) {
		pmbench_buf_adds(b, s);
		return;
	}
	pmbench_buf_addch(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			pmbench_buf_adds(b, "'\\''");
		else
			pmbench_buf_addch(b, *s);
	}
	pmbench_buf_addch(b, '\'');
}

static int refuse(const char *what, const char *value, const char *why)
{
	pmbench_cli_line(stderr, "pmbench: workflow: invalid %s '%s': %s", what,
			 value, why);
	return -1;
}

/*
 * A value that lands in the workflow: no newline (it would end the YAML
 * block), no "${{" (GitHub would evaluate it) and no credential.
 */
static int check_value(const char *opt, const char *v)
{
	if (strchr(v, '\n') || strchr(v, '\r') || strstr(v, "${{"))
		return refuse(opt, v,
			      "no line break or '${{' in a workflow "
			      "value");
	/* The workflow is committed: a token in it is published. */
	if (pmbench_text_has_secret(v))
		return refuse(opt, v,
			      "a credential would be committed with the "
			      "workflow; give the job it from a repository "
			      "secret instead");
	return 0;
}

static int check_cron(const char *v)
{
	size_t fields = 0;
	int in = 0;

	if (!plain(v, "*/,- "))
		return refuse("--cron", v, "use digits, '*', '/', ',' and '-'");
	for (const char *p = v; *p; p++) {
		if (*p != ' ' && !in)
			fields++;
		in = *p != ' ';
	}
	if (fields != 5)
		return refuse("--cron", v,
			      "a cron schedule has five fields, e.g. "
			      "'0 4 * * 1'");
	return 0;
}

static int check_history_dir(const char *v)
{
	if (!plain(v, "_./-") || v[0] == '/' || strstr(v, ".."))
		return refuse("--history-dir", v,
			      "a folder of the repository, e.g. "
			      "bench-history");
	return 0;
}

/* A bench option kept for the shard jobs' command line. */
static int bench_option(struct wf *w, const char *name, const char *v)
{
	if (check_value(name, v) < 0)
		return -1;
	if (!strcmp(name, "--runs")) {
		if (!strcmp(v, "auto"))
			return refuse("--runs", v,
				      "shards need a fixed number of runs");
		if (pmbench_cli_parse_count(&w->runs, "workflow", "--runs", v,
					    1, 100000, 0) < 0)
			return -1;
	}
	if (!strcmp(name, "--pm")) {
		pmbench_strvec_release(&w->pms);
		pmbench_strvec_split(&w->pms, v, ',');
	}
	pmbench_strvec_push(&w->bench, name);
	pmbench_strvec_push(&w->bench, v);
	return 0;
}

static int workflow_option(struct wf *w, int c, const char *name, const char *v)
{
	switch (c) {
	case 's':
		return pmbench_cli_parse_count(&w->shards, "workflow",
					       "--shards", v, 1, 256, 0);
	case 'r':
		w->runner = v;
		return plain(v, "_.-") ? 0
				       : refuse("--runner", v,
						"a runner label such as "
						"ubuntu-latest");
	case 'c':
		w->container = strcmp(v, "none") ? v : NULL;
		return plain(v, "_./:@-") ? 0
					  : refuse("--container", v,
						   "an image such as "
						   "debian:12");
	case 't':
		return pmbench_cli_parse_count(&w->job_timeout, "workflow",
					       "--job-timeout", v, 1, 4320, 0);
	case 'C':
		w->cron = v;
		return check_cron(v);
	case 'm':
		w->pm_matrix = 1;
		return 0;
	case 'H':
		w->history_dir = v;
		return check_history_dir(v);
	default:
		return bench_option(w, name, v);
	}
}

/* ---- Writing ------------------------------------------------------------ */

static void yaml_list(struct pmbench_buf *b, const struct pmbench_strvec *v)
{
	pmbench_buf_adds(b, "[");
	for (size_t i = 0; i < v->nr; i++)
		pmbench_buf_addf(b, "%s'%s'", i ? ", " : "", v->v[i]);
	pmbench_buf_adds(b, "]");
}

static void header(struct pmbench_buf *b, const struct wf *w)
{
	pmbench_buf_adds(b, "# A sharded pmbench benchmark, written by:\n#  ");
	for (size_t i = 0; i < w->argv.nr; i++) {
		pmbench_buf_addch(b, ' ');
		add_word(b, w->argv.v[i]);
	}
	pmbench_buf_adds(
		b, "\n"
		   "# Each job of the matrix runs one shard of one fixture's "
		   "plan\n"
		   "# ('pmbench bench --shard K/N') on a runner of its own; "
		   "the merge job\n"
		   "# pools them ('pmbench merge'), refusing shards of "
		   "another plan, and\n"
		   "# reports with every machine's effect in the intervals. "
		   "Regenerate it\n"
		   "# rather than edit it.\n"
		   "name: pmbench\n"
		   "\"on\":\n"
		   "  workflow_dispatch:\n");
	if (w->cron)
		pmbench_buf_addf(b, "  schedule:\n    - cron: '%s'\n", w->cron);
	pmbench_buf_addf(b, "permissions:\n  contents: %s\n",
			 w->history_dir ? "write" : "read");
}

/* runs-on, container and the steps every job starts with. */
static void job_start(struct pmbench_buf *b, const struct wf *w,
		      unsigned timeout)
{
	pmbench_buf_addf(b, "    runs-on: %s\n", w->runner);
	if (w->container)
		pmbench_buf_addf(b, "    container: %s\n", w->container);
	pmbench_buf_addf(b, "    timeout-minutes: %u\n", timeout);
}

/*
 * git before the checkout: without it actions/checkout downloads a
 * tarball, and the history step could not commit.
 */
static void setup_steps(struct pmbench_buf *b, const struct wf *w)
{
	const char *sudo = w->container ? "" : "sudo ";

	pmbench_buf_addf(
		b,
		"      - name: Install node, npm and git from Debian\n"
		"        id: deps\n"
		"        run: |\n"
		"          %sapt-get update -qq\n"
		"          %sDEBIAN_FRONTEND=noninteractive apt-get install "
		"-y -qq --no-install-recommends nodejs npm git sudo "
		"ca-certificates\n"
		"      - uses: actions/checkout@v4\n"
		"      - name: Build pmbench (ci/setup installs the rest)\n"
		"        id: build\n"
		"        env:\n"
		"          PMBENCH_SETUP_BROWSER: '0'\n"
		"        run: ci/build.sh\n",
		sudo, sudo);
}

/* The result name of a job: fixture-shard, or fixture-pm-shard. */
static void key_expr(struct pmbench_buf *b, const struct wf *w)
{
	pmbench_buf_adds(b, "${{ matrix.fixture }}-");
	if (w->pm_matrix)
		pmbench_buf_adds(b, "${{ matrix.pm }}-");
	pmbench_buf_adds(b, "${{ matrix.shard }}");
}

static void bench_command(struct pmbench_buf *b, const struct wf *w)
{
	/*
	 * The checkout's cache/ (its own on each runner), where ci/setup
	 * put the toolchain.
	 */
	pmbench_buf_adds(b, "          build/pmbench bench --no-progress");
	for (size_t i = 0; i < w->bench.nr; i += 2) {
		if (w->pm_matrix && !strcmp(w->bench.v[i], "--pm"))
			continue;
		pmbench_buf_addch(b, ' ');
		add_word(b, w->bench.v[i]);
		pmbench_buf_addch(b, ' ');
		add_word(b, w->bench.v[i + 1]);
	}
	if (w->pm_matrix)
		pmbench_buf_adds(b, " --pm ${{ matrix.pm }}");
	pmbench_buf_addf(b, " --shard ${{ matrix.shard }}/%u --out \"results/",
			 w->shards);
	key_expr(b, w);
	pmbench_buf_adds(b, ".json\" ${{ matrix.fixture }}\n");
}

static void shard_job(struct pmbench_buf *b, const struct wf *w)
{
	pmbench_buf_adds(b, "jobs:\n  shard:\n    name: ${{ matrix.fixture }}");
	if (w->pm_matrix)
		pmbench_buf_adds(b, " ${{ matrix.pm }}");
	pmbench_buf_addf(b, " shard ${{ matrix.shard }}/%u\n", w->shards);
	job_start(b, w, w->job_timeout);
	pmbench_buf_adds(b, "    strategy:\n"
			    "      fail-fast: false\n"
			    "      matrix:\n"
			    "        fixture: ");
	yaml_list(b, &w->fixtures);
	if (w->pm_matrix) {
		pmbench_buf_adds(b, "\n        pm: ");
		yaml_list(b, &w->pms);
	}
	pmbench_buf_adds(b, "\n        shard: [");
	for (unsigned k = 1; k <= w->shards; k++)
		pmbench_buf_addf(b, "%s%u", k > 1 ? ", " : "", k);
	pmbench_buf_adds(b, "]\n    steps:\n");
	setup_steps(b, w);
	pmbench_buf_adds(b, "      - name: Run the shard\n"
			    "        id: bench\n"
			    "        run: |\n"
			    "          mkdir -p results\n");
	bench_command(b, w);
	pmbench_buf_adds(b, "      - name: Upload the shard's result\n"
			    "        if: ${{ !cancelled() }}\n"
			    "        uses: actions/upload-artifact@v4\n"
			    "        with:\n"
			    "          name: pmbench-");
	key_expr(b, w);
	pmbench_buf_adds(b, "\n          path: results/");
	key_expr(b, w);
	pmbench_buf_adds(b, ".json\n          if-no-files-found: error\n");
}

/* The merge job's loop: one plan per fixture (and PM). */
static void merge_keys(struct pmbench_buf *b, const struct wf *w)
{
	for (size_t f = 0; f < w->fixtures.nr; f++) {
		if (!w->pm_matrix) {
			pmbench_buf_addf(b, " %s", w->fixtures.v[f]);
			continue;
		}
		for (size_t p = 0; p < w->pms.nr; p++)
			pmbench_buf_addf(b, " %s-%s", w->fixtures.v[f],
					 w->pms.v[p]);
	}
}

static void history_steps(struct pmbench_buf *b, const struct wf *w)
{
	pmbench_buf_addf(
		b,
		"      - name: Add the merged results to %s\n"
		"        id: history\n"
		"        run: |\n"
		"          day=$(date -u +%%Y-%%m-%%d)\n"
		"          mkdir -p \"%s/$day\"\n"
		"          cp merged/*.json \"%s/$day/\"\n"
		"          build/pmbench history %s --format markdown >> "
		"\"$GITHUB_STEP_SUMMARY\"\n"
		"      - name: Commit them\n"
		"        id: commit\n"
		"        run: |\n"
		"          git config --global --add safe.directory "
		"\"$GITHUB_WORKSPACE\"\n"
		"          git config user.name pmbench\n"
		"          git config user.email "
		"pmbench@users.noreply.github.com\n"
		"          git add %s\n"
		"          git commit -m \"pmbench: results of $(date -u "
		"+%%Y-%%m-%%d)\"\n"
		"          git push\n",
		w->history_dir, w->history_dir, w->history_dir, w->history_dir,
		w->history_dir);
}

static void merge_job(struct pmbench_buf *b, const struct wf *w)
{
	pmbench_buf_adds(b, "  merge:\n"
			    "    name: merge and report\n"
			    "    needs: shard\n"
			    "    if: ${{ !cancelled() }}\n");
	job_start(b, w, 30);
	pmbench_buf_adds(b, "    steps:\n");
	setup_steps(b, w);
	pmbench_buf_adds(b, "      - uses: actions/download-artifact@v4\n"
			    "        with:\n"
			    "          pattern: pmbench-*\n"
			    "          path: shards\n"
			    "          merge-multiple: true\n"
			    "      - name: Merge the shards and report\n"
			    "        id: merge\n"
			    "        run: |\n"
			    "          mkdir -p merged report\n"
			    "          for key in");
	merge_keys(b, w);
	pmbench_buf_adds(
		b, "; do\n"
		   "            build/pmbench merge \"merged/$key.json\" "
		   "shards/\"$key\"-[0-9]*.json\n"
		   "            build/pmbench report \"merged/$key.json\" "
		   "--format markdown >> \"$GITHUB_STEP_SUMMARY\"\n"
		   "            build/pmbench report \"merged/$key.json\" "
		   "--format html --out \"report/$key.html\"\n"
		   "          done\n"
		   "      - name: Upload the reports and merged results\n"
		   "        if: ${{ !cancelled() }}\n"
		   "        uses: actions/upload-artifact@v4\n"
		   "        with:\n"
		   "          name: pmbench-report\n"
		   "          path: |\n"
		   "            report/\n"
		   "            merged/\n");
	if (w->history_dir)
		history_steps(b, w);
}

/* ---- The command -------------------------------------------------------- */

static int check_plan(struct wf *w)
{
	for (size_t i = 0; i < w->fixtures.nr; i++)
		if (!plain(w->fixtures.v[i], "_.-") ||
		    w->fixtures.v[i][0] == '.')
			return refuse("fixture", w->fixtures.v[i],
				      "give a manifest name of fixtures/ "
				      "(a job checks out this repository)");
	if (!w->fixtures.nr)
		pmbench_strvec_push(&w->fixtures, DEFAULT_FIXTURE);
	if (w->runs && w->runs < w->shards) {
		fprintf(stderr,
			"pmbench: workflow: --shards %u with --runs %u "
			"leaves shards without a run; use --runs %u or "
			"more\n",
			w->shards, w->runs, w->shards);
		return -1;
	}
	if (!w->runs && w->shards > 5) {
		fprintf(stderr,
			"pmbench: workflow: --shards %u needs --runs %u or "
			"more (bench runs 5 by default)\n",
			w->shards, w->shards);
		return -1;
	}
	if (w->pm_matrix && !w->pms.nr) {
		fprintf(stderr, "pmbench: workflow: --pm-matrix needs --pm "
				"LIST\n");
		return -1;
	}
	return 0;
}

static int parse(struct wf *w, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "shards", required_argument, NULL, 's' },
		{ "runner", required_argument, NULL, 'r' },
		{ "container", required_argument, NULL, 'c' },
		{ "job-timeout", required_argument, NULL, 't' },
		{ "cron", required_argument, NULL, 'C' },
		{ "pm-matrix", no_argument, NULL, 'm' },
		{ "history-dir", required_argument, NULL, 'H' },
		{ "pm", required_argument, NULL, 'b' },
		{ "scenario", required_argument, NULL, 'b' },
		{ "task", required_argument, NULL, 'b' },
		{ "runs", required_argument, NULL, 'b' },
		{ "warmup", required_argument, NULL, 'b' },
		{ "timeout", required_argument, NULL, 'b' },
		{ "env", required_argument, NULL, 'b' },
		{ "seed", required_argument, NULL, 'b' },
		{ "probe", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, idx;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, &idx)) != -1) {
		char name[32];

		if (c == 'h') {
			usage(stdout);
			return 1;
		}
		if (c == '?' || c == ':') {
			pmbench_cli_unknown_option("workflow",
						   argv[optind - 1]);
			return -1;
		}
		snprintf(name, sizeof(name), "--%s", longopts[idx].name);
		if (workflow_option(w, c, name, optarg ? optarg : "") < 0)
			return -1;
	}
	for (int i = optind; i < argc; i++)
		pmbench_strvec_push(&w->fixtures, argv[i]);
	return check_plan(w);
}

int cmd_workflow(int argc, char **argv)
{
	struct wf w;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int code = PMBENCH_EXIT_USAGE, ret;

	memset(&w, 0, sizeof(w));
	w.shards = 3;
	w.runner = "ubuntu-latest";
	w.container = "debian:12";
	w.job_timeout = 60;
	pmbench_strvec_init(&w.pms);
	pmbench_strvec_init(&w.bench);
	pmbench_strvec_init(&w.fixtures);
	pmbench_strvec_init(&w.argv);
	if (argc < 2 || strcmp(argv[1], "github-actions")) {
		if (argc >= 2 &&
		    (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
			usage(stdout);
			code = PMBENCH_EXIT_OK;
			goto done;
		}
		fprintf(stderr,
			"pmbench: workflow: give the engine: "
			"'pmbench workflow github-actions [options]'\n");
		goto done;
	}
	pmbench_strvec_push(&w.argv, "pmbench");
	pmbench_strvec_push(&w.argv, "workflow");
	for (int i = 1; i < argc; i++)
		pmbench_strvec_push(&w.argv, argv[i]);
	ret = parse(&w, argc - 1, argv + 1);
	if (ret) {
		code = ret > 0 ? PMBENCH_EXIT_OK : PMBENCH_EXIT_USAGE;
		goto done;
	}
	header(&b, &w);
	shard_job(&b, &w);
	merge_job(&b, &w);
	fwrite(b.ptr, 1, b.len, stdout);
	code = PMBENCH_EXIT_OK;
done:
	pmbench_buf_release(&b);
	pmbench_strvec_release(&w.pms);
	pmbench_strvec_release(&w.bench);
	pmbench_strvec_release(&w.fixtures);
	pmbench_strvec_release(&w.argv);
	return code;
}
