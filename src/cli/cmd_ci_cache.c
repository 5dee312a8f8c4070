/* The ci-cache command: its options' setters and its run. */

#include "pmbench/common.h"

#include "pmbench/buf.h"
#include "pmbench/cicache.h"
#include "cli.h"
#include "pmbench/fixture.h"
#include "pmbench/pm.h"
#include "options.h"
#include "progress.h"
#include "pmbench/doc.h"
#include "pmbench/report_kind.h"

#define DEFAULT_FIXTURE "todo-api"

/* --strategy LIST */
int pmbench_cli_set_strategies(struct pmbench_cli_opts *cli,
			       const struct pmbench_option *o, const char *arg)
{
	struct pmbench_cicache_opts *c = cli->cicache;
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	int ret = 0;

	pmbench_strvec_split(&v, arg, ',');
	c->strategies_nr = 0;
	for (size_t i = 0; i < v.nr && !ret; i++) {
		unsigned st;
		int dup = 0;

		ret = pmbench_cicache_parse_strategy(&st, v.v[i]);
		for (size_t k = 0; k < c->strategies_nr && !ret; k++)
			dup |= c->strategies[k] == st;
		if (!ret && !dup)
			c->strategies[c->strategies_nr++] = st;
		else if (!ret)
			pmbench_cli_note_twice(v.v[i], "--strategy", "running");
	}
	if (!ret && !c->strategies_nr)
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "'--%s': needs at least one strategy",
					 o->name);
	pmbench_strvec_release(&v);
	return ret;
}

/* One compression of --compression, unless it is there already. */
static int add_compression(struct pmbench_cicache_opts *c, const char *item)
{
	struct pmbench_cachearc_compression z;
	int ret = pmbench_cachearc_parse(&z, item);

	for (size_t k = 0; k < c->compressions_nr && !ret; k++)
		if (c->compressions[k].filter == z.filter &&
		    c->compressions[k].level == z.level) {
			pmbench_cli_note_twice(item, "--compression",
					       "running");
			return 0;
		}
	if (!ret && c->compressions_nr == PMBENCH_ARRAY_SIZE(c->compressions))
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "'--compression': at most 8 "
					 "compressions");
	if (!ret)
		c->compressions[c->compressions_nr++] = z;
	return ret;
}

/* --compression LIST */
int pmbench_cli_set_compressions(struct pmbench_cli_opts *cli,
				 const struct pmbench_option *o,
				 const char *arg)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	int ret = 0;

	pmbench_strvec_split(&v, arg, ',');
	cli->cicache->compressions_nr = 0;
	for (size_t i = 0; i < v.nr && !ret; i++)
		ret = add_compression(cli->cicache, v.v[i]);
	if (!ret && !cli->cicache->compressions_nr)
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "'--%s': needs at least one "
					 "compression",
					 o->name);
	pmbench_strvec_release(&v);
	return ret;
}

int pmbench_cli_set_archiver(struct pmbench_cli_opts *cli,
			     const struct pmbench_option *o, const char *arg)
{
	(void)o;
	return pmbench_cachearc_parse_archiver(&cli->cicache->archiver, arg);
}

int pmbench_cli_set_bandwidth(struct pmbench_cli_opts *cli,
			      const struct pmbench_option *o, const char *arg)
{
	(void)o;
	return pmbench_cicache_parse_bandwidth(&cli->cicache->bandwidth, arg);
}

/* What the options left to the defaults. */
static void defaults(struct pmbench_cicache_opts *o)
{
	o->pms_explicit = o->pms.nr > 0;
	if (!o->pms.nr)
		for (size_t i = 0; i < pmbench_pms_nr; i++)
			pmbench_strvec_push(&o->pms, pmbench_pms[i].name);
	if (!o->strategies_nr) {
		for (unsigned s = 0; s < 4; s++)
			o->strategies[s] = s;
		o->strategies_nr = 4;
	}
	if (!o->compressions_nr) {
		o->compressions[0].filter = PMBENCH_CACHEARC_ZSTD;
		o->compressions[0].level = 3;
		o->compressions_nr = 1;
	}
}

/* Run the jobs, show the report, write the result: the exit code. */
static int run(struct pmbench_cicache_opts *o, struct pmbench_cli_opts *cli,
	       struct pmbench_fixture *f)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	int code = PMBENCH_EXIT_ERROR, ret;

	if (pmbench_cli_prepare_out(&o->out, &out, "ci-cache-", f->name) < 0) {
		pmbench_cli_error(NULL);
		goto done;
	}
	if (pmbench_cli_check_output(&cli->output) < 0)
		goto done;
	pmbench_cli_read_prior(o->runs_auto);
	ret = pmbench_cicache_run(&pmbench_cli_ctx, &r, o, f);
	code = pmbench_cli_show_finish(&cli->output, &r, ret, o->out,
				       pmbench_report_cicache);
done:
	if (o->out == out.ptr)
		o->out = NULL;
	pmbench_result_release(&r);
	pmbench_buf_release(&out);
	return code;
}

int cmd_ci_cache(int argc, char **argv)
{
	struct pmbench_cicache_opts o = PMBENCH_CICACHE_OPTS_INIT;
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	int code, ret, loaded = 0;

	o.timeout_ns = PMBENCH_CLI_DEFAULT_TIMEOUT_NS;
	cli.cicache = &o;
	ret = pmbench_cli_parse(&cli, "ci-cache", argc, argv);
	if (!ret && argc - cli.optind > 1)
		ret = pmbench_cli_usage_error("ci-cache",
					      "one FIXTURE at a time, got '%s' "
					      "and '%s'",
					      argv[cli.optind],
					      argv[cli.optind + 1]);
	if (ret) {
		code = pmbench_cli_parse_exit(ret);
		goto done;
	}
	code = PMBENCH_EXIT_ERROR;
	if (pmbench_cli_take_workdir(argc, argv) < 0)
		goto done;
	pmbench_progress_init(cli.tty);
	pmbench_progress_no_estimate();
	defaults(&o);
	ret = pmbench_fixture_load(
		&f, cli.optind < argc ? argv[cli.optind] : DEFAULT_FIXTURE,
		pmbench_config.fixtures_dir);
	if (ret < 0) {
		pmbench_cli_error(NULL);
		goto done;
	}
	loaded = 1;
	code = run(&o, &cli, &f);
done:
	if (loaded)
		pmbench_fixture_release(&f);
	pmbench_cicache_opts_release(&o);
	pmbench_cli_opts_release(&cli);
	return code;
}
