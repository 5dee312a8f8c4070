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

#include "cli.h"
#include "options.h"
#include "pmbench/bench.h"
#include "pmbench/buf.h"
#include "pmbench/pm.h"
#include "pmbench/strvec.h"
#include "pmbench/text.h"

#define DEFAULT_FIXTURE "todo-api"

/* What starts the pull-request check's comment, to find it again. */
#define PMBENCH_CLI_PR_MARKER "<!-- pmbench pull-request check -->"

struct wf {
	const struct pmbench_cli_opts *o; /* the options, parsed */
	const struct pmbench_strvec *pms; /* --pm */
	struct pmbench_strvec fixtures;
	struct pmbench_strvec argv; /* the command line, for the header */
};

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

/*
 * The message goes to the error store, which redacts credentials and
 * escapes controls; parse() or the option parser prints it.
 */
static int refuse(const char *what, const char *value, const char *why)
{
	return pmbench_error_setc(PMBENCH_EINVALID, "invalid %s '%s': %s", what,
				  value, why);
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

int pmbench_cli_set_runner(struct pmbench_cli_opts *cli,
			   const struct pmbench_option *o, const char *arg)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	int ok;

	(void)o;
	cli->runner = arg;
	pmbench_strvec_split(&v, arg, ',');
	ok = v.nr > 0 && strlen(arg) > 0 && arg[strlen(arg) - 1] != ',';
	for (size_t i = 0; i < v.nr && ok; i++)
		ok = plain(v.v[i], "_.-");
	pmbench_strvec_release(&v);
	return ok ? 0
		  : refuse("--runner", arg,
			   "runner labels such as ubuntu-latest, or "
			   "self-hosted,linux,x64 (a runner with all of "
			   "them)");
}

int pmbench_cli_set_container(struct pmbench_cli_opts *cli,
			      const struct pmbench_option *o, const char *arg)
{
	(void)o;
	cli->container = strcmp(arg, "none") ? arg : NULL;
	return plain(arg, "_./:@-") ? 0
				    : refuse("--container", arg,
					     "an image such as debian:12");
}

int pmbench_cli_set_cron(struct pmbench_cli_opts *cli,
			 const struct pmbench_option *o, const char *arg)
{
	(void)o;
	cli->cron = arg;
	return check_cron(arg);
}

int pmbench_cli_set_history_dir(struct pmbench_cli_opts *cli,
				const struct pmbench_option *o, const char *arg)
{
	(void)o;
	cli->history_dir = arg;
	return check_history_dir(arg);
}

/* ---- Writing ------------------------------------------------------------ */

static void yaml_list(struct pmbench_buf *b, const struct pmbench_strvec *v)
{
	pmbench_buf_adds(b, "[");
	for (size_t i = 0; i < v->nr; i++)
		pmbench_buf_addf(b, "%s'%s'", i ? ", " : "", v->v[i]);
	pmbench_buf_adds(b, "]");
}

/* "# WHAT, written by:" and the command line that wrote it. */
static void written_by(struct pmbench_buf *b, const struct wf *w,
		       const char *what)
{
	pmbench_buf_addf(b, "# %s, written by:\n#  ", what);
	for (size_t i = 0; i < w->argv.nr; i++) {
		pmbench_buf_addch(b, ' ');
		add_word(b, w->argv.v[i]);
	}
}

static void header(struct pmbench_buf *b, const struct wf *w)
{
	written_by(b, w, "A sharded pmbench benchmark");
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
	if (w->o->cron)
		pmbench_buf_addf(b, "  schedule:\n    - cron: '%s'\n",
				 w->o->cron);
	pmbench_buf_addf(b, "permissions:\n  contents: %s\n",
			 w->o->history_dir ? "write" : "read");
}

/* runs-on, container and the steps every job starts with. */
static void job_start(struct pmbench_buf *b, const struct wf *w,
		      unsigned timeout)
{
	if (strchr(w->o->runner, ',')) {
		struct pmbench_strvec v = PMBENCH_STRVEC_INIT;

		/* Every label: a runner that has them all. */
		pmbench_strvec_split(&v, w->o->runner, ',');
		pmbench_buf_adds(b, "    runs-on: ");
		yaml_list(b, &v);
		pmbench_buf_addch(b, '\n');
		pmbench_strvec_release(&v);
	} else {
		pmbench_buf_addf(b, "    runs-on: %s\n", w->o->runner);
	}
	if (w->o->container)
		pmbench_buf_addf(b, "    container: %s\n", w->o->container);
	pmbench_buf_addf(b, "    timeout-minutes: %u\n", timeout);
}

/*
 * git before the checkout: without it actions/checkout downloads a
 * tarball, and the history step could not commit. A job that runs PMs
 * (`toolchain`) restores the toolchain ci/setup installs from a cache
 * keyed on its pinned versions (ci/setup then installs nothing); the
 * merge job needs none. Either builds pmbench alone, not the tests.
 */
static void setup_steps(struct pmbench_buf *b, const struct wf *w,
			int toolchain)
{
	const char *sudo = w->o->container ? "" : "sudo ";

	pmbench_buf_addf(
		b,
		"      - name: Install node, npm and git from Debian\n"
		"        id: deps\n"
		"        run: |\n"
		"          %sapt-get update -qq\n"
		"          %sDEBIAN_FRONTEND=noninteractive apt-get install "
		"-y -qq --no-install-recommends nodejs npm git sudo "
		"ca-certificates\n"
		"      - uses: actions/checkout@v4\n",
		sudo, sudo);
	if (toolchain)
		pmbench_buf_adds(b, "      - name: Restore the toolchain\n"
				    "        id: toolchain\n"
				    "        uses: actions/cache@v4\n"
				    "        with:\n"
				    "          path: cache/toolchain\n"
				    "          key: pmbench-toolchain-${{ "
				    "runner.os }}-${{ "
				    "hashFiles('ci/toolchain.versions') }}\n");
	pmbench_buf_addf(b,
			 "      - name: Build pmbench (ci/setup installs the "
			 "rest)\n"
			 "        id: build\n"
			 "        env:\n"
			 "          PMBENCH_SETUP_BROWSER: '0'\n"
			 "        run: ci/build.sh --pmbench-only%s\n",
			 toolchain ? "" : " --no-toolchain");
}

/* The result name of a job: fixture-shard, or fixture-pm-shard. */
static void key_expr(struct pmbench_buf *b, const struct wf *w)
{
	pmbench_buf_adds(b, "${{ matrix.fixture }}-");
	if (w->o->pm_matrix)
		pmbench_buf_adds(b, "${{ matrix.pm_key }}-");
	pmbench_buf_adds(b, "${{ matrix.shard }}");
}

/* A PM's name as artifact names and paths may hold it: "npm_linked". */
static const char *pm_key(const char *name)
{
	const struct pmbench_pm *pm = pmbench_pm_get(name);

	return pm ? pmbench_pm_folder(pm) : name;
}

/*
 * The matrix's include: each PM's key, since upload-artifact refuses a
 * ':' (a variant's "npm:linked") in an artifact's name and path.
 */
static void pm_keys(struct pmbench_buf *b, const struct wf *w)
{
	pmbench_buf_adds(b, "        include:\n");
	for (size_t p = 0; p < w->pms->nr; p++)
		pmbench_buf_addf(b,
				 "          - pm: '%s'\n"
				 "            pm_key: '%s'\n",
				 w->pms->v[p], pm_key(w->pms->v[p]));
}

/*
 * The shard's bench command: the bench options as given (pass: "--name"
 * or "--name=value"), then the shard's own.
 */
static void bench_command(struct pmbench_buf *b, const struct wf *w)
{
	const struct pmbench_strvec *pass = &w->o->pass;

	/*
	 * The checkout's cache/ (its own on each runner), where ci/setup
	 * put the toolchain.
	 */
	pmbench_buf_adds(b, "          build/pmbench bench --no-progress");
	for (size_t i = 0; i < pass->nr; i++) {
		size_t n = strcspn(pass->v[i], "=");
		char *name = pmbench_xstrndup(pass->v[i], n);

		if (!w->o->pm_matrix || strcmp(name, "--pm")) {
			pmbench_buf_addch(b, ' ');
			add_word(b, name);
		}
		if (pass->v[i][n] &&
		    (!w->o->pm_matrix || strcmp(name, "--pm"))) {
			pmbench_buf_addch(b, ' ');
			add_word(b, pass->v[i] + n + 1);
		}
		free(name);
	}
	if (w->o->pm_matrix)
		pmbench_buf_adds(b, " --pm ${{ matrix.pm }}");
	pmbench_buf_addf(b, " --shard ${{ matrix.shard }}/%u --out \"results/",
			 w->o->shards);
	key_expr(b, w);
	pmbench_buf_adds(b, ".json\" ${{ matrix.fixture }}\n");
}

static void shard_job(struct pmbench_buf *b, const struct wf *w)
{
	pmbench_buf_adds(b, "jobs:\n  shard:\n    name: ${{ matrix.fixture }}");
	if (w->o->pm_matrix)
		pmbench_buf_adds(b, " ${{ matrix.pm }}");
	pmbench_buf_addf(b, " shard ${{ matrix.shard }}/%u\n", w->o->shards);
	job_start(b, w, w->o->job_timeout);
	pmbench_buf_adds(b, "    strategy:\n"
			    "      fail-fast: false\n"
			    "      matrix:\n"
			    "        fixture: ");
	yaml_list(b, &w->fixtures);
	if (w->o->pm_matrix) {
		pmbench_buf_adds(b, "\n        pm: ");
		yaml_list(b, w->pms);
	}
	pmbench_buf_adds(b, "\n        shard: [");
	for (unsigned k = 1; k <= w->o->shards; k++)
		pmbench_buf_addf(b, "%s%u", k > 1 ? ", " : "", k);
	pmbench_buf_adds(b, "]\n");
	if (w->o->pm_matrix)
		pm_keys(b, w);
	pmbench_buf_adds(b, "    steps:\n");
	setup_steps(b, w, 1);
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
		if (!w->o->pm_matrix) {
			pmbench_buf_addf(b, " %s", w->fixtures.v[f]);
			continue;
		}
		for (size_t p = 0; p < w->pms->nr; p++)
			pmbench_buf_addf(b, " %s-%s", w->fixtures.v[f],
					 pm_key(w->pms->v[p]));
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
		w->o->history_dir, w->o->history_dir, w->o->history_dir,
		w->o->history_dir, w->o->history_dir);
}

/*
 * The merge step: per fixture (and PM) merge its shards and report. A
 * fixture whose every shard failed has no file to merge (the glob would
 * stay literal): it is named in the summary, the others go on, and the
 * step fails at the end.
 */
static void merge_step(struct pmbench_buf *b, const struct wf *w)
{
	pmbench_buf_adds(b, "      - name: Merge the shards and report\n"
			    "        id: merge\n"
			    "        run: |\n"
			    "          mkdir -p merged report\n"
			    "          missing=0\n"
			    "          for key in");
	merge_keys(b, w);
	pmbench_buf_adds(
		b, "; do\n"
		   "            set -- shards/\"$key\"-[0-9]*.json\n"
		   "            if [ ! -e \"$1\" ]; then\n"
		   "              echo \"pmbench: no shard of $key left a "
		   "result: see its shard jobs\" | tee -a "
		   "\"$GITHUB_STEP_SUMMARY\" >&2\n"
		   "              missing=1\n"
		   "              continue\n"
		   "            fi\n"
		   "            build/pmbench merge -o \"merged/$key.json\" "
		   "\"$@\"\n"
		   "            build/pmbench report \"merged/$key.json\" "
		   "--format markdown >> \"$GITHUB_STEP_SUMMARY\"\n"
		   "            build/pmbench report \"merged/$key.json\" "
		   "--format html --out \"report/$key.html\"\n"
		   "          done\n"
		   "          exit \"$missing\"\n");
}

static void merge_job(struct pmbench_buf *b, const struct wf *w)
{
	pmbench_buf_adds(b, "  merge:\n"
			    "    name: merge and report\n"
			    "    needs: shard\n"
			    "    if: ${{ !cancelled() }}\n");
	job_start(b, w, 30);
	pmbench_buf_adds(b, "    steps:\n");
	setup_steps(b, w, 0);
	pmbench_buf_adds(b, "      - uses: actions/download-artifact@v4\n"
			    "        with:\n"
			    "          pattern: pmbench-*\n"
			    "          path: shards\n"
			    "          merge-multiple: true\n");
	merge_step(b, w);
	pmbench_buf_adds(b, "      - name: Upload the reports and merged "
			    "results\n"
			    "        if: ${{ !cancelled() }}\n"
			    "        uses: actions/upload-artifact@v4\n"
			    "        with:\n"
			    "          name: pmbench-report\n"
			    "          path: |\n"
			    "            report/\n"
			    "            merged/\n");
	if (w->o->history_dir)
		history_steps(b, w);
}

/* ---- The pull-request check (--pull-request) ----------------------------- */

/*
 * What a pull request must touch for the check to run: the lockfiles,
 * package.json (whose PM fields the `changed` step then compares) and
 * the PMs' configuration, anywhere in the repository.
 */
static const char *const pr_paths[] = {
	"**/package.json",  "**/package-lock.json", "**/npm-shrinkwrap.json",
	"**/yarn.lock",	    "**/pnpm-lock.yaml",    "**/pnpm-workspace.yaml",
	"**/.pnpmfile.cjs", "**/bun.lock",	    "**/bun.lockb",
	"**/bunfig.toml",   "**/deno.lock",	    "**/.npmrc",
	"**/.yarnrc",	    "**/.yarnrc.yml",	    ".yarn/releases/**",
};

static void pr_header(struct pmbench_buf *b, const struct wf *w)
{
	written_by(b, w, "A pmbench check of pull requests");
	pmbench_buf_adds(
		b, "\n"
		   "# On a pull request that changes the lockfile, the PM "
		   "fields of\n"
		   "# package.json or the PM's configuration, one job benches "
		   "the base and\n"
		   "# the head commit in one run ('pmbench bench --base'): "
		   "each PM on both\n"
		   "# in every round, paired by round on one runner, so no "
		   "runner\n"
		   "# difference shows as a change. The comparison goes to one "
		   "comment,\n"
		   "# updated on each push, and to the job summary. Regenerate "
		   "it rather\n"
		   "# than edit it.\n"
		   "name: pmbench pull request\n"
		   "\"on\":\n"
		   "  pull_request:\n"
		   "    paths:\n");
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(pr_paths); i++)
		pmbench_buf_addf(b, "      - '%s'\n", pr_paths[i]);
	pmbench_buf_adds(b, "permissions:\n"
			    "  contents: read\n"
			    "  pull-requests: write\n");
}

/*
 * The job's start: the packages, pmbench built from --pmbench-repo with
 * its toolchain from a cache, and the repository with its history (the
 * base commit).
 */
static void pr_setup(struct pmbench_buf *b, const struct wf *w)
{
	const char *repo = w->o->pmbench_repo, *at = strchr(repo, '@');
	const char *sudo = w->o->container ? "" : "sudo ";

	pmbench_buf_adds(b, "jobs:\n  check:\n    name: pmbench base against "
			    "head\n");
	job_start(b, w, w->o->job_timeout);
	pmbench_buf_addf(
		b,
		"    env:\n"
		"      PMBENCH_CACHE_DIR: ${{ github.workspace }}/pmbench/cache\n"
		"    steps:\n"
		"      - name: Install node, npm and git from Debian\n"
		"        id: deps\n"
		"        run: |\n"
		"          %sapt-get update -qq\n"
		"          %sDEBIAN_FRONTEND=noninteractive apt-get install "
		"-y -qq --no-install-recommends nodejs npm git sudo "
		"ca-certificates\n"
		"      - uses: actions/checkout@v4\n"
		"        with:\n"
		"          repository: %.*s\n",
		sudo, sudo, at ? (int)(at - repo) : (int)strlen(repo), repo);
	if (at)
		pmbench_buf_addf(b, "          ref: %s\n", at + 1);
	pmbench_buf_adds(
		b, "          path: pmbench\n"
		   "      - name: Restore the toolchain\n"
		   "        id: toolchain\n"
		   "        uses: actions/cache@v4\n"
		   "        with:\n"
		   "          path: pmbench/cache/toolchain\n"
		   "          key: pmbench-toolchain-${{ runner.os }}-${{ "
		   "hashFiles('pmbench/ci/toolchain.versions') }}\n"
		   "      - name: Build pmbench (ci/setup installs the rest)\n"
		   "        id: build\n"
		   "        working-directory: pmbench\n"
		   "        env:\n"
		   "          PMBENCH_SETUP_BROWSER: '0'\n"
		   "        run: ci/build.sh --pmbench-only\n"
		   "      - uses: actions/checkout@v4\n"
		   "        with:\n"
		   "          path: project\n"
		   "          fetch-depth: 0\n");
}

/* The base commit, from the event GitHub gives the job. */
#define PR_BASE                     \
	"          base=$(node -p " \
	"'require(process.env.GITHUB_EVENT_PATH).pull_request.base.sha')\n"

/*
 * Whether the change is the PMs' work: a lockfile or PM configuration
 * changed, or one of package.json's fields a PM reads (the paths filter
 * cannot look inside package.json).
 */
static void pr_changed(struct pmbench_buf *b)
{
	pmbench_buf_adds(
		b,
		"      - name: Whether the change is the PM's work\n"
		"        id: changed\n"
		"        working-directory: project\n"
		"        run: |\n" PR_BASE "          why=$(node -e '\n"
		"            const { execFileSync } = require(\"child_process\");\n"
		"            const [base, head] = process.argv.slice(1);\n"
		"            const git = (...a) => execFileSync(\"git\", a, { "
		"encoding: \"utf8\" });\n"
		"            const own = /(^|\\/)(package-lock\\.json|npm-"
		"shrinkwrap\\.json|yarn\\.lock|pnpm-lock\\.yaml|pnpm-workspace"
		"\\.yaml|\\.pnpmfile\\.cjs|bun\\.lockb?|bunfig\\.toml|deno\\."
		"lock|\\.npmrc|\\.yarnrc(\\.yml)?)$|^\\.yarn\\/releases\\//;\n"
		"            const fields = [\"packageManager\", \"engines\", "
		"\"dependencies\", \"devDependencies\", \"optionalDependencies\", "
		"\"peerDependencies\", \"overrides\", \"resolutions\", \"pnpm\", "
		"\"workspaces\"];\n"
		"            const read = (rev, f) => { try { return "
		"JSON.parse(git(\"show\", rev + \":\" + f)); } catch (e) { "
		"return {}; } };\n"
		"            const why = [];\n"
		"            for (const f of git(\"diff\", \"--name-only\", base, "
		"head).split(\"\\n\").filter(Boolean)) {\n"
		"              if (own.test(f)) { why.push(f); continue; }\n"
		"              if (!/(^|\\/)package\\.json$/.test(f)) continue;\n"
		"              const a = read(base, f), b = read(head, f);\n"
		"              const moved = fields.filter((k) => "
		"JSON.stringify(a[k]) !== JSON.stringify(b[k]));\n"
		"              if (moved.length) why.push(f + \" (\" + "
		"moved.join(\", \") + \")\");\n"
		"            }\n"
		"            console.log(why.join(\"; \"));\n"
		"          ' \"$base\" \"$GITHUB_SHA\")\n"
		"          if [ -n \"$why\" ]; then\n"
		"            echo \"pmbench: the pull request changes $why\"\n"
		"            echo run=true >>\"$GITHUB_OUTPUT\"\n"
		"          else\n"
		"            echo \"pmbench: no lockfile, PM field of "
		"package.json or PM configuration changed: nothing to bench\" "
		">>\"$GITHUB_STEP_SUMMARY\"\n"
		"            echo run=false >>\"$GITHUB_OUTPUT\"\n"
		"          fi\n");
}

/* bench --base: the bench options as given, base and head, one result. */
static void pr_bench(struct pmbench_buf *b, const struct wf *w)
{
	const struct pmbench_strvec *pass = &w->o->pass;

	pmbench_buf_adds(b,
			 "      - name: Bench base and head, paired by round\n"
			 "        id: bench\n"
			 "        if: steps.changed.outputs.run == 'true'\n"
			 "        run: |\n" PR_BASE
			 "          pmbench/build/pmbench bench --no-progress");
	for (size_t i = 0; i < pass->nr; i++) {
		size_t n = strcspn(pass->v[i], "=");
		char *name = pmbench_xstrndup(pass->v[i], n);

		pmbench_buf_addch(b, ' ');
		add_word(b, name);
		if (pass->v[i][n]) {
			pmbench_buf_addch(b, ' ');
			add_word(b, pass->v[i] + n + 1);
		}
		free(name);
	}
	pmbench_buf_adds(b, " --base \"$base\" --head \"$GITHUB_SHA\" --out "
			    "pmbench-pr.json project\n");
}

/*
 * compare's table of the two sides into the job summary, and the comment
 * into pmbench-comment.md, cut to GitHub's 65,536 characters (bytes are
 * at least as many) at a line, with a line saying so.
 */
static void pr_comment(struct pmbench_buf *b)
{
	pmbench_buf_adds(
		b,
		"      - name: The comparison, as the comment and the summary\n"
		"        id: comment\n"
		"        if: steps.changed.outputs.run == 'true'\n"
		"        run: |\n" PR_BASE
		"          pmbench/build/pmbench compare pmbench-pr.json "
		"--format markdown >pmbench-pr.md\n"
		"          {\n"
		"            echo '" PMBENCH_CLI_PR_MARKER "'\n"
		"            echo \"## pmbench: base $base, head $GITHUB_SHA\"\n"
		"            echo\n"
		"            cat pmbench-pr.md\n"
		"          } >pmbench-comment.md\n"
		"          cat pmbench-comment.md >>\"$GITHUB_STEP_SUMMARY\"\n"
		"          if [ \"$(wc -c <pmbench-comment.md)\" -gt 65536 ]; "
		"then\n"
		"            head -c 65000 pmbench-comment.md | sed '$d' "
		">pmbench-comment.cut\n"
		"            printf '\\n_Cut here: the comparison is longer "
		"than the 65,536 characters of a comment; the whole of it is "
		"in the job summary and the pmbench-pr artifact._\\n' "
		">>pmbench-comment.cut\n"
		"            mv pmbench-comment.cut pmbench-comment.md\n"
		"          fi\n");
}

/* The result as an artifact; the comment created, or updated in place. */
static void pr_post(struct pmbench_buf *b)
{
	pmbench_buf_adds(
		b,
		"      - uses: actions/upload-artifact@v4\n"
		"        if: steps.changed.outputs.run == 'true'\n"
		"        with:\n"
		"          name: pmbench-pr\n"
		"          path: |\n"
		"            pmbench-pr.json\n"
		"            pmbench-pr.md\n"
		"      - name: Create or update the comment\n"
		"        id: post\n"
		"        if: steps.changed.outputs.run == 'true'\n"
		"        uses: actions/github-script@v7\n"
		"        with:\n"
		"          script: |\n"
		"            const body = require(\"fs\").readFileSync("
		"\"pmbench-comment.md\", \"utf8\");\n"
		"            const marker = \"" PMBENCH_CLI_PR_MARKER "\";\n"
		"            const { owner, repo } = context.repo;\n"
		"            const issue_number = context.issue.number;\n"
		"            const all = await github.paginate("
		"github.rest.issues.listComments, { owner, repo, issue_number "
		"});\n"
		"            const old = all.find((c) => c.body && "
		"c.body.startsWith(marker));\n"
		"            if (old)\n"
		"              await github.rest.issues.updateComment({ owner, "
		"repo, comment_id: old.id, body });\n"
		"            else\n"
		"              await github.rest.issues.createComment({ owner, "
		"repo, issue_number, body });\n");
}

static void pr_workflow(struct pmbench_buf *b, const struct wf *w)
{
	pr_header(b, w);
	pr_setup(b, w);
	pr_changed(b);
	pr_bench(b, w);
	pr_comment(b);
	pr_post(b);
}

/* ---- The command -------------------------------------------------------- */

/* A value the shards get: refused if it could break the workflow. */
static int check_values(const struct pmbench_strvec *pass)
{
	for (size_t i = 0; i < pass->nr; i++) {
		size_t n = strcspn(pass->v[i], "=");
		char *name = pmbench_xstrndup(pass->v[i], n);
		int ret = pass->v[i][n] ? check_value(name, pass->v[i] + n + 1)
					: 0;

		free(name);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* What --pull-request takes: no fixture (the repository), a pmbench repo. */
static int check_pr(const struct wf *w)
{
	const char *repo = w->o->pmbench_repo;

	if (w->fixtures.nr)
		return refuse("fixture", w->fixtures.v[0],
			      "the pull-request check benches the repository "
			      "it runs in; give no fixture");
	if (!repo)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "--pull-request needs --pmbench-repo "
					  "OWNER/NAME[@REF], the repository "
					  "the job builds pmbench from");
	if (!plain(repo, "_.-/@") || !strchr(repo, '/') ||
	    strchr(repo, '@') != strrchr(repo, '@'))
		return refuse("--pmbench-repo", repo,
			      "give OWNER/NAME or OWNER/NAME@REF");
	return check_values(&w->o->pass);
}

static int check_plan(struct wf *w)
{
	const struct pmbench_cli_opts *o = w->o;
	unsigned runs = pmbench_cli_given(o, "runs") ? o->run->runs : 0;

	for (size_t i = 0; i < w->fixtures.nr; i++)
		if (!plain(w->fixtures.v[i], "_.-") ||
		    w->fixtures.v[i][0] == '.')
			return refuse("fixture", w->fixtures.v[i],
				      "give a manifest name of fixtures/ "
				      "(a job checks out this repository)");
	if (!w->fixtures.nr)
		pmbench_strvec_push(&w->fixtures, DEFAULT_FIXTURE);
	if (o->run->runs_auto)
		return refuse("--runs", "auto",
			      "shards need a fixed number of runs");
	if (runs && runs < o->shards)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "--shards %u with --runs %u leaves "
					  "shards without a run; use --runs %u "
					  "or more",
					  o->shards, runs, o->shards);
	if (!runs && o->shards > 5)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "--shards %u needs --runs %u or more "
					  "(bench runs 5 by default)",
					  o->shards, o->shards);
	if (o->pm_matrix && !w->pms->nr)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "--pm-matrix needs --pm LIST");
	return check_values(&o->pass);
}

/*
 * The options, with the bench options checked as bench checks them,
 * then "github-actions" and the fixtures. Returns -1 to go on, else the
 * exit code.
 */
static int parse(struct wf *w, struct pmbench_cli_opts *cli, int argc,
		 char **argv)
{
	int ret = pmbench_cli_parse(cli, "workflow", argc, argv);

	if (!ret && (cli->optind >= argc ||
		     strcmp(argv[cli->optind], "github-actions")))
		ret = pmbench_cli_usage_error("workflow",
					      "give the engine: 'pmbench "
					      "workflow github-actions "
					      "[options]'");
	if (!ret)
		ret = pmbench_cli_check_bench(cli);
	if (ret)
		return pmbench_cli_parse_exit(ret);
	for (int i = cli->optind + 1; i < argc; i++)
		pmbench_strvec_push(&w->fixtures, argv[i]);
	if ((cli->pull_request ? check_pr(w) : check_plan(w)) < 0) {
		pmbench_cli_usage_error("workflow", "%s", pmbench_error_last());
		return PMBENCH_EXIT_USAGE;
	}
	return -1;
}

int cmd_workflow(int argc, char **argv)
{
	struct pmbench_bench_opts run = PMBENCH_BENCH_OPTS_INIT;
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	struct wf w = { &cli, &run.pms, PMBENCH_STRVEC_INIT,
			PMBENCH_STRVEC_INIT };
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int code;

	/* The bench options are checked into a benchmark never run. */
	cli.run = &run;
	/* As given: getopt reorders argv. */
	pmbench_strvec_pushv(&w.argv, (const char *const[]){ "pmbench", NULL });
	for (int i = 0; i < argc; i++)
		pmbench_strvec_push(&w.argv, argv[i]);
	code = parse(&w, &cli, argc, argv);
	if (code < 0 && cli.pull_request) {
		pr_workflow(&b, &w);
		fwrite(b.ptr, 1, b.len, stdout);
		code = PMBENCH_EXIT_OK;
	} else if (code < 0) {
		header(&b, &w);
		shard_job(&b, &w);
		merge_job(&b, &w);
		fwrite(b.ptr, 1, b.len, stdout);
		code = PMBENCH_EXIT_OK;
	}
	pmbench_buf_release(&b);
	pmbench_strvec_release(&w.fixtures);
	pmbench_strvec_release(&w.argv);
	pmbench_bench_opts_release(&run);
	pmbench_cli_opts_release(&cli);
	return code;
}
