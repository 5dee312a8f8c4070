/* The migrate command: its options' setters and its run. */

#include "pmbench/common.h"

#include <cjson/cJSON.h>

#include "pmbench/bench.h"
#include "pmbench/ctx.h"
#include "cli.h"
#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/migrate.h"
#include "pmbench/pm.h"
#include "pmbench/recipe.h"
#include "options.h"
#include "progress.h"
#include "pmbench/doc.h"
#include "pmbench/format.h"
#include "pmbench/report_kind.h"
#include "pmbench/scenario.h"
#include "pmbench/task.h"

/*
 * --task LIST. The task table says what migrate does with each task: run
 * it once per PM for parity (cli->parity: build, test, lint) or time it
 * with the installs in the benchmark (the run's tasks: dev). Install is
 * always timed.
 */
int pmbench_cli_set_migrate_tasks(struct pmbench_cli_opts *cli,
				  const struct pmbench_option *o,
				  const char *arg)
{
	struct pmbench_strvec *timed = &cli->run->tasks;
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	struct pmbench_buf known = PMBENCH_BUF_INIT;
	int ret = 0;

	pmbench_strvec_release(&cli->parity);
	pmbench_strvec_release(timed);
	pmbench_strvec_split(&v, arg, ',');
	pmbench_task_list(&known, PMBENCH_TASK_MIGRATE_PARITY |
					  PMBENCH_TASK_MIGRATE_TIMED);
	for (size_t i = 0; i < v.nr && !ret; i++) {
		const struct pmbench_task *t = pmbench_task_get(v.v[i]);
		struct pmbench_strvec *to = NULL;

		if (t && t->flags & PMBENCH_TASK_MIGRATE_PARITY)
			to = &cli->parity;
		else if (t && t->flags & PMBENCH_TASK_MIGRATE_TIMED)
			to = timed;
		if (!t)
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "unknown task '%s' in --%s; "
						 "use %s",
						 v.v[i], o->name, known.ptr);
		else if (!to)
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "migrate does not check the "
						 "task '%s'; use %s",
						 v.v[i], known.ptr);
		else if (t->flags & PMBENCH_TASK_PER_SCENARIO)
			continue; /* install: always */
		else if (pmbench_strvec_find(to, v.v[i]) >= 0)
			pmbench_cli_note_twice(v.v[i], "--task", "running");
		else if (to == timed && !timed->nr)
			pmbench_strvec_pushv(
				timed, (const char *const[]){
					       pmbench_task_default()->name,
					       v.v[i], NULL });
		else
			pmbench_strvec_push(to, v.v[i]);
	}
	pmbench_strvec_release(&v);
	pmbench_buf_release(&known);
	return ret;
}

/* --choose LIST: recipe steps that are one of a choice's alternatives. */
int pmbench_cli_set_choose(struct pmbench_cli_opts *cli,
			   const struct pmbench_option *o, const char *arg)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	int ret = 0;

	pmbench_strvec_split(&v, arg, ',');
	for (size_t i = 0; i < v.nr && !ret; i++) {
		if (!pmbench_recipe_is_choice(v.v[i]))
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "'%s' in --%s is no recipe "
						 "change of a choice; use %s",
						 v.v[i], o->name, o->values);
		else if (pmbench_strvec_find(&cli->choose, v.v[i]) < 0)
			pmbench_strvec_push(&cli->choose, v.v[i]);
	}
	pmbench_strvec_release(&v);
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
	pmbench_fixture_name_of_url(&name, url.ptr);
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

/* Before each priming: the target's recipe, in its own copy. */
static int on_workspace(const struct pmbench_fixture *f,
			struct pmbench_pmrun *ps, void *payload)
{
	struct early_stop *x = payload;

	return pmbench_migrate_on_workspace(f, ps, x->m);
}

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

/*
 * Check out the repository and tell its PM; the benchmark's PMs are
 * then the source and the targets. Returns 0, or the exit code.
 */
static int prepare(struct pmbench_migrate *m, struct pmbench_fixture *f,
		   struct pmbench_bench_opts *o,
		   const struct pmbench_cli_opts *cli, const char *repo)
{
	int ret = load_repo(f, repo);

	if (!ret) {
		pmbench_progress_status("%s: checking out", f->name);
		ret = pmbench_fixture_checkout(f, pmbench_config.cache_dir);
	}
	if (!ret)
		ret = pmbench_migrate_detect(m, f->project_dir, cli->from);
	pmbench_progress_clear();
	if (ret < 0) {
		struct pmbench_buf what = PMBENCH_BUF_INIT;

		pmbench_buf_addf(&what, "'%s'", repo);
		pmbench_cli_error(what.ptr);
		pmbench_buf_release(&what);
		return PMBENCH_EXIT_ERROR;
	}
	pmbench_progress_event("%s: migrating from %s (%s)", f->name,
			       m->source_pm, m->detected_by);
	pmbench_strvec_push(&o->pms, m->source_pm);
	for (size_t i = 0; i < cli->to.nr; i++)
		if (strcmp(cli->to.v[i], m->source_pm))
			pmbench_strvec_push(&o->pms, cli->to.v[i]);
	if (o->pms.nr < 2) {
		pmbench_cli_usage_error("migrate",
					"--to names only the repo's own "
					"package manager (%s); name another",
					m->source_pm);
		return PMBENCH_EXIT_USAGE;
	}
	o->pms_explicit = 1;
	o->from_pm = m->source_pm;
	/* A migration is measured against the repo's own PM. */
	if (!o->baseline)
		o->baseline = m->source_pm;
	o->from_lock = m->source_lock;
	return 0;
}

/* Write the report where the options say: -1 when one was not. */
static int report(struct pmbench_cli_opts *cli, struct pmbench_doc *doc,
		  const char *out)
{
	struct pmbench_cli_output md = {
		.cmd = "migrate",
		.format = pmbench_format_get("markdown"),
		.path = cli->markdown,
	};
	int shown = pmbench_cli_show(&cli->output, doc);

	if (md.path && pmbench_cli_show(&md, doc) < 0)
		shown = -1;
	if (write_file(out, doc->json) < 0) {
		pmbench_cli_error(NULL);
		return -2;
	}
	fprintf(stderr, "pmbench: report written to '%s'\n", out);
	return shown;
}

/* Run the benchmark with migrate's hook, report: the exit code. */
static int run(struct pmbench_migrate *m, struct pmbench_fixture *f,
	       struct pmbench_bench_opts *o, struct pmbench_cli_opts *cli,
	       const char *out)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	struct early_stop stop = { m, o->pms.nr, cli->time_source, 0 };
	int code = PMBENCH_EXIT_ERROR, ret, shown = 0;

	o->on_primed = on_primed;
	o->on_workspace = on_workspace;
	o->payload = &stop;
	pmbench_cli_read_prior(o->runs_auto);
	ret = pmbench_bench_run(&pmbench_cli_ctx, &r, o, f, 1);
	if (stop.stopped && !pmbench_ctx_cancelled(&pmbench_cli_ctx)) {
		say_stopped(m);
		ret = 0;
	}
	if (m->pms_nr) {
		pmbench_report_migrate(&doc, m, &r);
		shown = report(cli, &doc, out);
	}
	/* A stop signal's exit status comes first. */
	if (shown == -2 || (shown < 0 && ret >= 0))
		goto done;
	if (ret < 0)
		code = pmbench_cli_fail(ret);
	else
		code = !stop.stopped && pmbench_migrate_all_ok(m, &r)
			       ? PMBENCH_EXIT_OK
			       : PMBENCH_EXIT_FAILED_RUNS;
done:
	pmbench_doc_release(&doc);
	pmbench_result_release(&r);
	return code;
}

/* Before the run: every file the report goes to can be written. */
static int check_outputs(struct pmbench_cli_opts *cli, struct pmbench_buf *out,
			 const char *name)
{
	struct pmbench_cli_output md = { .cmd = "migrate",
					 .path = cli->markdown };

	if (cli->out)
		pmbench_buf_adds(out, cli->out);
	else
		pmbench_cli_default_out(out, "migrate-", name);
	if (check_out(out->ptr) < 0) {
		pmbench_cli_error(NULL);
		return -1;
	}
	if (pmbench_cli_check_output(&md) < 0 ||
	    pmbench_cli_check_output(&cli->output) < 0)
		return -1;
	return 0;
}

/* The engine's share of the options; the parity tasks are its from here. */
static void take_options(struct pmbench_migrate *m,
			 const struct pmbench_bench_opts *o,
			 struct pmbench_cli_opts *cli)
{
	m->tasks = cli->parity;
	pmbench_strvec_init(&cli->parity);
	m->choose = cli->choose;
	pmbench_strvec_init(&cli->choose);
	m->no_recipe = cli->no_recipe;
	m->timeout_ns = o->timeout_ns;
	m->seed = o->seed;
}

int cmd_migrate(int argc, char **argv)
{
	struct pmbench_bench_opts o = PMBENCH_BENCH_OPTS_INIT;
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	struct pmbench_migrate m = PMBENCH_MIGRATE_INIT;
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	int code, ret;

	o.timeout_ns = PMBENCH_CLI_DEFAULT_TIMEOUT_NS;
	o.scenarios[0] = 0;
	o.scenarios[1] = PMBENCH_STATE_CACHE | PMBENCH_STATE_LOCKFILE;
	o.scenarios_nr = 2;
	cli.run = &o;
	pmbench_task_names(&cli.parity, PMBENCH_TASK_MIGRATE_DEFAULT);
	ret = pmbench_cli_parse(&cli, "migrate", argc, argv);
	if (!ret && cli.optind + 1 != argc)
		ret = pmbench_cli_usage_error("migrate",
					      "name one repository (a path, "
					      "URL@COMMIT or fixture); see "
					      "'pmbench migrate --help'");
	if (ret) {
		code = pmbench_cli_parse_exit(ret);
		goto done;
	}
	code = PMBENCH_EXIT_ERROR;
	if (pmbench_cli_take_workdir(argc, argv) < 0)
		goto done;
	pmbench_progress_init(cli.tty);
	if (o.runs_auto)
		pmbench_progress_budget((double)o.budget.budget_ns / 1e9);
	take_options(&m, &o, &cli);
	code = prepare(&m, &f, &o, &cli, argv[cli.optind]);
	if (!code)
		code = check_outputs(&cli, &out, f.name) < 0
			       ? PMBENCH_EXIT_ERROR
			       : run(&m, &f, &o, &cli, out.ptr);
done:
	pmbench_fixture_release(&f);
	pmbench_migrate_release(&m);
	pmbench_bench_opts_release(&o);
	pmbench_cli_opts_release(&cli);
	pmbench_buf_release(&out);
	return code;
}
