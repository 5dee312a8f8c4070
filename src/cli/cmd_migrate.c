#include "pmbench/common.h"

#include <getopt.h>

#include <cjson/cJSON.h>

#include "pmbench/bench.h"
#include "pmbench/ctx.h"
#include "cli.h"
#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/migrate.h"
#include "pmbench/pm.h"
#include "progress.h"
#include "pmbench/doc.h"
#include "pmbench/format.h"
#include "pmbench/report_kind.h"
#include "pmbench/scenario.h"
#include "pmbench/task.h"

#define DEFAULT_TIMEOUT_NS (15ull * 60ull * 1000000000ull)

/* The table's tasks migrate runs for `flag`, comma-separated. */
static void task_names(struct pmbench_buf *out, unsigned flag)
{
	for (size_t i = 0; i < pmbench_tasks_nr; i++)
		if (pmbench_tasks[i].flags & flag &&
		    !(pmbench_tasks[i].flags & PMBENCH_TASK_PER_SCENARIO))
			pmbench_buf_addf(out, "%s%s", out->len ? "," : "",
					 pmbench_tasks[i].name);
}

static void usage(FILE *out)
{
	struct pmbench_buf pms = PMBENCH_BUF_INIT;
	struct pmbench_buf parity = PMBENCH_BUF_INIT;
	struct pmbench_buf timed = PMBENCH_BUF_INIT;

	pmbench_pm_join_names(&pms, ",", 0);
	task_names(&parity, PMBENCH_TASK_MIGRATE_PARITY);
	task_names(&timed, PMBENCH_TASK_MIGRATE_TIMED);
	fprintf(out,
		"usage: pmbench migrate [options] PATH|URL@COMMIT|FIXTURE "
		"--to PM[,PM...]\n"
		"\n"
		"Should this repo move to another package manager? On scratch "
		"copies (the\n"
		"user's checkout is never written), install it with its own PM "
		"and with each\n"
		"target, starting from its lockfile the way a team would "
		"migrate; compare\n"
		"what got installed (name@version), whether build, test and "
		"lint still pass,\n"
		"and time the installs. Verdict lines first, details after.\n"
		"\n"
		"Options:\n"
		"  --to LIST        target PMs (required): %s,\n"
		"                   or variants ('pmbench pms')\n"
		"  --from PM        the repo's PM (default: told by its "
		"lockfile, else its\n"
		"                   packageManager field)\n"
		"  --task LIST      from %s (run once per PM for parity) and "
		"%s\n"
		"                   (timed like install); default build,test;"
		"\n"
		"                   a task the repo has no script for is "
		"skipped\n"
		"  --scenario LIST  install scenarios to time (default: "
		"clean,cache+lockfile)\n"
		"  --runs N         timed runs per PM and scenario (default "
		"5)\n"
		"  --warmup N       untimed runs first (default 1)\n"
		"  --timeout DUR    per command (default 15m)\n"
		"  --out FILE       JSON report (default: "
		"cache/results/migrate-<name>-<time>.json)\n"
		"  --markdown FILE  also write the report as Markdown (as "
		"--format markdown\n"
		"                   --report FILE does)\n"
		"  --seed N         seed for the bootstrap intervals (default "
		"1)\n"
		"  --env K=V        set a variable for every PM (repeatable), "
		"e.g.\n"
		"                   CYPRESS_INSTALL_BINARY=0\n"
		"  --time-source    time the source PM even when no target "
		"installs\n"
		"                   (else pmbench stops once their primings "
		"failed)\n",
		pms.ptr, parity.ptr, timed.ptr);
	pmbench_cli_output_help(out, "--report FILE", 1, 19);
	pmbench_cli_registry_help(out, 19);
	fprintf(out, "  -h, --help       this help\n"
		     "\n"
		     "Exit status: 0 every target installs and passes what the "
		     "source passes,\n"
		     "2 finished but a target fails something (or no target "
		     "installs), 1 error,\n129 usage, 130 interrupted.\n");
	pmbench_buf_release(&pms);
	pmbench_buf_release(&parity);
	pmbench_buf_release(&timed);
}

/*
 * The task table says what migrate does with each task: run it once per
 * PM for parity (`out`: build, test, lint) or time it with the installs
 * in the benchmark (`timed`: dev). Install is always timed.
 */
static int parse_tasks(struct pmbench_strvec *out, struct pmbench_strvec *timed,
		       const char *list)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	struct pmbench_buf known = PMBENCH_BUF_INIT;
	int ret = 0;

	pmbench_strvec_release(out);
	pmbench_strvec_release(timed);
	pmbench_strvec_split(&v, list, ',');
	pmbench_task_list(&known, PMBENCH_TASK_MIGRATE_PARITY |
					  PMBENCH_TASK_MIGRATE_TIMED);
	for (size_t i = 0; i < v.nr && !ret; i++) {
		const struct pmbench_task *t = pmbench_task_get(v.v[i]);
		struct pmbench_strvec *to = NULL;

		if (t && t->flags & PMBENCH_TASK_MIGRATE_PARITY)
			to = out;
		else if (t && t->flags & PMBENCH_TASK_MIGRATE_TIMED)
			to = timed;
		if (!t) {
			ret = pmbench_cli_usage_error("migrate",
						      "unknown task '%s' in "
						      "--task; use %s",
						      v.v[i], known.ptr);
		} else if (!to) {
			ret = pmbench_cli_usage_error("migrate",
						      "migrate does not check "
						      "the task '%s'; use %s",
						      v.v[i], known.ptr);
		} else if (t->flags & PMBENCH_TASK_PER_SCENARIO) {
			continue; /* install: always */
		} else if (pmbench_strvec_find(to, v.v[i]) >= 0) {
			pmbench_cli_note_twice(v.v[i], "--task", "running");
		} else {
			if (to == timed && !timed->nr)
				pmbench_strvec_push(timed, "install");
			pmbench_strvec_push(to, v.v[i]);
		}
	}
	pmbench_strvec_release(&v);
	pmbench_buf_release(&known);
	return ret;
}

static int is_hex40(const char *s)
{
	return strlen(s) == 40 && strspn(s, "0123456789abcdefABCDEF") == 40;
}

/*
 * PATH (a folder or manifest), a fixture name, or URL@COMMIT: the last
 * becomes a manifest of our own, through the same parser.
 */
static int load_repo(struct pmbench_fixture *f, const char *arg)
{
	const char *at = strrchr(arg, '@'), *slash = strrchr(arg, '/');
	struct pmbench_buf url = PMBENCH_BUF_INIT, name = PMBENCH_BUF_INIT;
	cJSON *m = NULL;
	char *json = NULL;
	int ret;

	if (pmbench_fs_exists(arg) ||
	    (!strstr(arg, "://") && strncmp(arg, "git@", 4)))
		return pmbench_fixture_load(f, arg,
					    pmbench_config.fixtures_dir);
	if (at && slash && at > slash && is_hex40(at + 1))
		pmbench_buf_add(&url, arg, (size_t)(at - arg));
	else
		pmbench_buf_adds(&url, arg);
	slash = strrchr(url.ptr, '/');
	pmbench_buf_adds(&name, slash ? slash + 1 : url.ptr);
	if (name.len > 4 && !strcmp(name.ptr + name.len - 4, ".git"))
		pmbench_buf_setlen(&name, name.len - 4);
	m = cJSON_CreateObject();
	if (!m || !cJSON_AddStringToObject(m, "name", name.ptr) ||
	    !cJSON_AddStringToObject(m, "repo", url.ptr) ||
	    (url.len < strlen(arg) &&
	     !cJSON_AddStringToObject(m, "commit", at + 1)))
		pmbench_die("out of memory building JSON");
	json = cJSON_PrintUnformatted(m);
	if (!json)
		pmbench_die("out of memory printing JSON");
	ret = pmbench_fixture_parse(f, json, arg);
	if (ret < 0 && url.len == strlen(arg))
		pmbench_error_set("'%s': a repository URL needs the commit to "
				  "evaluate, as URL@<40-hex SHA>",
				  arg);
	cJSON_free(json);
	cJSON_Delete(m);
	pmbench_buf_release(&url);
	pmbench_buf_release(&name);
	return ret;
}

/* Before the run: the report's folder, and nothing there refuses it. */
static int check_out(const char *path)
{
	int ret = pmbench_cli_mkdir_parent(path);

	if (!ret)
		ret = pmbench_fs_check_output(path);
	return ret;
}

static int write_file(const char *path, const char *text)
{
	int ret = pmbench_cli_mkdir_parent(path);

	if (!ret)
		ret = pmbench_fs_write_output(path, text, strlen(text));
	return ret;
}

/* The after-priming hook's state: stop when no target installs. */
struct early_stop {
	struct pmbench_migrate *m;
	size_t pms_nr;	 /* the source and the targets */
	int time_source; /* --time-source: time the source alone anyway */
	int stopped;	 /* no target installs: the benchmark stopped */
};

/*
 * After each priming, migrate's own hook; once the last PM is primed,
 * if every target failed there is nothing to compare the source with:
 * stop before timing it alone for minutes, unless --time-source.
 */
static int on_primed(const struct pmbench_fixture *f, struct pmbench_pmrun *ps,
		     void *payload)
{
	struct early_stop *x = payload;
	int ret = pmbench_migrate_on_primed(f, ps, x->m);
	size_t failed = 0;

	if (ret < 0 || x->time_source || x->m->pms_nr < x->pms_nr)
		return ret;
	for (size_t i = 1; i < x->m->pms_nr; i++)
		failed += x->m->pms[i].prime_failure != NULL;
	if (failed < x->pms_nr - 1)
		return 0;
	x->stopped = 1;
	return pmbench_error_setc(PMBENCH_ERROR,
				  "no target installs: every target's priming "
				  "failed");
}

/* Say at once why nothing was timed. */
static void say_stopped(const struct pmbench_migrate *m)
{
	pmbench_cli_flush();
	for (size_t i = 1; i < m->pms_nr; i++)
		pmbench_cli_line(stderr, "pmbench: %s does not install: %.*s",
				 m->pms[i].pm,
				 (int)strcspn(m->pms[i].prime_failure, "\n"),
				 m->pms[i].prime_failure);
	fprintf(stderr,
		"pmbench: no target installs, so nothing was timed; fix "
		"the install or add --time-source to time %s alone\n",
		m->source_pm);
}

int cmd_migrate(int argc, char **argv)
{
	enum {
		OPT_TO = PMBENCH_CLI_OPT_OWN,
		OPT_FROM,
		OPT_TASK,
		OPT_MD,
		OPT_TIME_SOURCE
	};
	static const struct option longopts[] = {
		{ "to", required_argument, NULL, OPT_TO },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "task", required_argument, NULL, OPT_TASK },
		{ "scenario", required_argument, NULL,
		  PMBENCH_CLI_OPT_SCENARIO },
		{ "runs", required_argument, NULL, PMBENCH_CLI_OPT_RUNS },
		{ "warmup", required_argument, NULL, PMBENCH_CLI_OPT_WARMUP },
		{ "timeout", required_argument, NULL, PMBENCH_CLI_OPT_TIMEOUT },
		{ "out", required_argument, NULL, PMBENCH_CLI_OPT_OUT },
		{ "markdown", required_argument, NULL, OPT_MD },
		{ "time-source", no_argument, NULL, OPT_TIME_SOURCE },
		{ "seed", required_argument, NULL, PMBENCH_CLI_OPT_SEED },
		{ "env", required_argument, NULL, PMBENCH_CLI_OPT_ENV },
		{ "format", required_argument, NULL, PMBENCH_CLI_OPT_FORMAT },
		{ "report", required_argument, NULL, PMBENCH_CLI_OPT_REPORT },
		{ "columns", required_argument, NULL, PMBENCH_CLI_OPT_COLUMNS },
		{ "wide", no_argument, NULL, PMBENCH_CLI_OPT_WIDE },
		PMBENCH_CLI_REGISTRY_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pmbench_cli_bench how =
		PMBENCH_CLI_BENCH_INIT("migrate", 10000, 0, 0);
	struct pmbench_bench_opts o = PMBENCH_BENCH_OPTS_INIT;
	struct pmbench_migrate m = PMBENCH_MIGRATE_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	struct pmbench_strvec to = PMBENCH_STRVEC_INIT;
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	struct pmbench_cli_output report =
		PMBENCH_CLI_OUTPUT_INIT("migrate", 1);
	struct pmbench_cli_output md = PMBENCH_CLI_OUTPUT_INIT("migrate", 0);
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	struct early_stop stop = { &m, 0, 0, 0 };
	const char *from = NULL;
	int c, code = PMBENCH_EXIT_USAGE, ret, shown;

	o.timeout_ns = DEFAULT_TIMEOUT_NS;
	o.runs = 5;
	o.warmup = 1;
	o.scenarios[0] = 0;
	o.scenarios[1] = PMBENCH_STATE_CACHE | PMBENCH_STATE_LOCKFILE;
	o.scenarios_nr = 2;
	pmbench_strvec_push(&m.tasks, "build");
	pmbench_strvec_push(&m.tasks, "test");
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_TO:
			if (pmbench_cli_parse_pms(&to, "migrate", "--to",
						  optarg) < 0)
				goto done;
			break;
		case OPT_FROM:
			if (pmbench_cli_check_pm("migrate", "--from", optarg) <
			    0)
				goto done;
			from = optarg;
			break;
		case OPT_TASK:
			if (parse_tasks(&m.tasks, &o.tasks, optarg) < 0)
				goto done;
			break;
		case PMBENCH_CLI_OPT_OUT:
			/* The report is ours: the benchmark writes no file. */
			pmbench_buf_reset(&out);
			pmbench_buf_adds(&out, optarg);
			break;
		case OPT_MD:
			md.format = pmbench_format_get("markdown");
			md.path = optarg;
			break;
		case OPT_TIME_SOURCE:
			stop.time_source = 1;
			break;
		case 'h':
			usage(stdout);
			code = 0;
			goto done;
		case PMBENCH_CLI_OPT_FORMAT:
		case PMBENCH_CLI_OPT_REPORT:
		case PMBENCH_CLI_OPT_COLUMNS:
		case PMBENCH_CLI_OPT_WIDE:
			if (pmbench_cli_output_option(&report, c, optarg) < 0)
				goto done;
			break;
		default:
			if (pmbench_cli_bench_option(&o, &how, c, optarg,
						     argv[optind - 1]) < 0)
				goto done;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "pmbench: migrate: name one repository (a "
				"path, URL@COMMIT or fixture); see 'pmbench "
				"migrate --help'\n");
		goto done;
	}
	if (!to.nr) {
		fprintf(stderr, "pmbench: migrate: say which package managers "
				"to evaluate with --to, e.g. --to bun,pnpm\n");
		goto done;
	}
	if (pmbench_cli_registry_check("migrate") < 0)
		goto done;
	code = PMBENCH_EXIT_ERROR;
	if (pmbench_cli_take_workdir(argc, argv) < 0)
		goto done;
	pmbench_progress_init(-1);
	m.timeout_ns = o.timeout_ns;
	m.seed = o.seed;

	ret = load_repo(&f, argv[optind]);
	if (!ret) {
		pmbench_progress_status("%s: checking out", f.name);
		ret = pmbench_fixture_checkout(&f, pmbench_config.cache_dir);
	}
	if (!ret)
		ret = pmbench_migrate_detect(&m, f.project_dir, from);
	pmbench_progress_clear();
	if (ret < 0) {
		pmbench_cli_line(stderr, "pmbench: error: '%s': %s",
				 argv[optind], pmbench_error_last());
		goto done;
	}
	pmbench_progress_event("%s: migrating from %s (%s)", f.name,
			       m.source_pm, m.detected_by);

	pmbench_strvec_push(&o.pms, m.source_pm);
	for (size_t i = 0; i < to.nr; i++)
		if (strcmp(to.v[i], m.source_pm))
			pmbench_strvec_push(&o.pms, to.v[i]);
	if (o.pms.nr < 2) {
		fprintf(stderr,
			"pmbench: migrate: --to names only the repo's "
			"own package manager (%s); name another\n",
			m.source_pm);
		code = PMBENCH_EXIT_USAGE;
		goto done;
	}
	o.pms_explicit = 1;
	o.from_pm = m.source_pm;
	o.from_lock = m.source_lock;
	o.on_primed = on_primed;
	o.payload = &stop;
	stop.pms_nr = o.pms.nr;
	if (!out.len)
		pmbench_cli_default_out(&out, "migrate-", f.name);
	if (check_out(out.ptr) < 0) {
		fprintf(stderr, "pmbench: error: %s\n", pmbench_error_last());
		goto done;
	}
	if (pmbench_cli_check_output(&md) < 0 ||
	    pmbench_cli_check_output(&report) < 0)
		goto done;

	ret = pmbench_bench_run(&pmbench_cli_ctx, &r, &o, &f, 1);
	if (stop.stopped && !pmbench_ctx_cancelled(&pmbench_cli_ctx)) {
		say_stopped(&m);
		ret = 0;
	}
	if (m.pms_nr) {
		pmbench_report_migrate(&doc, &m, &r);
		shown = pmbench_cli_show(&report, &doc);
		if (md.path && pmbench_cli_show(&md, &doc) < 0)
			shown = -1;
		if (write_file(out.ptr, doc.json) < 0) {
			fprintf(stderr, "pmbench: error: %s\n",
				pmbench_error_last());
			goto done;
		}
		fprintf(stderr, "pmbench: report written to '%s'\n", out.ptr);
		/* A stop signal's exit status comes first. */
		if (shown < 0 && ret >= 0)
			goto done;
	}
	if (ret < 0) {
		code = pmbench_cli_fail(ret);
		goto done;
	}
	code = !stop.stopped && pmbench_migrate_all_ok(&m, &r)
		       ? PMBENCH_EXIT_OK
		       : PMBENCH_EXIT_FAILED_RUNS;
done:
	pmbench_doc_release(&doc);
	pmbench_fixture_release(&f);
	pmbench_migrate_release(&m);
	pmbench_result_release(&r);
	pmbench_bench_opts_release(&o);
	pmbench_strvec_release(&to);
	pmbench_buf_release(&out);
	return code;
}
