/* The claim command: a claim read, measured or judged from a result. */

#include "pmbench/common.h"

#include "pmbench/bench.h"
#include "pmbench/buf.h"
#include "pmbench/claim.h"
#include "cli.h"
#include "pmbench/fixture.h"
#include "options.h"
#include "progress.h"
#include "pmbench/doc.h"
#include "pmbench/report_kind.h"
#include "pmbench/resultfile.h"
#include "pmbench/scenario.h"
#include "pmbench/task.h"

#define DEFAULT_FIXTURE "todo-api"
#define DEFAULT_RUNS	10
/* What --from takes: a migrate result's timed cells are its benchmark's. */
#define JUDGED \
	(PMBENCH_RESULT_BENCH | PMBENCH_RESULT_CLAIM | PMBENCH_RESULT_MIGRATE)

/* The exit code of a judgement, with the error when nothing was judged. */
static int verdict_code(const struct pmbench_report_claim *j)
{
	const struct pmbench_claim *c = j->claim;

	if (!j->judged) {
		fprintf(stderr,
			"pmbench: error: %s: no scenario with successful runs "
			"of both '%s %s' and '%s %s' in the state asked\n",
			j->scenarios_nr ? "no verdict" : "nothing to judge",
			c->pm_a, c->task_a, c->pm_b, c->task_b);
		return PMBENCH_EXIT_ERROR;
	}
	return j->refuted > j->exceeded ? PMBENCH_EXIT_SHORT
	       : j->exceeded		? PMBENCH_EXIT_EXCEEDED
	       : j->unsure		? PMBENCH_EXIT_INCONCLUSIVE
					: PMBENCH_EXIT_OK;
}

/*
 * What a live claim measures: both tasks (each one pmbench can time)
 * and both PMs, b the baseline unless one was named.
 */
static int claim_plan(struct pmbench_bench_opts *o,
		      const struct pmbench_claim *c)
{
	for (int side = 0; side < 2; side++) {
		const char *t = side ? c->task_b : c->task_a;

		if (!pmbench_task_get(t)) {
			struct pmbench_buf known = PMBENCH_BUF_INIT;

			pmbench_task_list(&known, 0);
			pmbench_error_setc(PMBENCH_EINVALID,
					   "pmbench cannot time '%s' itself; "
					   "use %s, or judge a result with "
					   "--from RESULT.json",
					   t, known.ptr);
			pmbench_buf_release(&known);
			return PMBENCH_EINVALID;
		}
		if (pmbench_strvec_find(&o->tasks, t) < 0)
			pmbench_strvec_push(&o->tasks, t);
	}
	pmbench_strvec_push(&o->pms, c->pm_a);
	if (strcmp(c->pm_a, c->pm_b))
		pmbench_strvec_push(&o->pms, c->pm_b);
	o->pms_explicit = 1;
	/* "a is N times faster than b": b is what a is measured against. */
	if (!o->baseline)
		o->baseline = c->pm_b;
	return 0;
}

/*
 * Run both PMs' tasks on the fixture, as 'pmbench bench' would, and write
 * the result; *unsaved is set if that write failed (already said).
 */
static int run_live(struct pmbench_result *r, struct pmbench_bench_opts *o,
		    const struct pmbench_claim *c, const char *fixture_arg,
		    int *unsaved)
{
	struct pmbench_fixture f;
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	int ret, loaded = 0;

	ret = claim_plan(o, c);
	if (ret < 0)
		return ret;
	ret = pmbench_fixture_load(&f, fixture_arg,
				   pmbench_config.fixtures_dir);
	if (ret < 0)
		goto done;
	loaded = 1;
	ret = pmbench_cli_prepare_out(&o->out, &out, "claim-", f.name);
	if (ret < 0)
		goto done;
	ret = pmbench_bench_run(&pmbench_cli_ctx, r, o, &f, 1);
	*unsaved = pmbench_cli_save(r, o->out) < 0;
done:
	if (o->out == out.ptr)
		o->out = NULL;
	if (loaded)
		pmbench_fixture_release(&f);
	pmbench_buf_release(&out);
	return ret;
}

/* A live run: the two PMs' tasks on the fixture, as bench would. */
static int run_claim(struct pmbench_result *r, struct pmbench_bench_opts *o,
		     const struct pmbench_cli_opts *cli,
		     const struct pmbench_claim *claim, const char *fixture,
		     int *unsaved)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;

	if (!o->scenarios_nr) {
		memcpy(o->scenarios, pmbench_scenarios_default,
		       sizeof(pmbench_scenarios_default));
		o->scenarios_nr = 4;
	}
	pmbench_progress_init(cli->tty);
	/* The result says what it was run for: report judges it again. */
	pmbench_claim_describe(&text, claim);
	r->claim = pmbench_buf_detach(&text);
	r->claim_tolerance = cli->tolerance;
	return run_live(r, o, claim, fixture ? fixture : DEFAULT_FIXTURE,
			unsaved);
}

/* Judge `r`, show the verdicts: the exit code. */
static int judge(const struct pmbench_result *r,
		 const struct pmbench_bench_opts *o,
		 struct pmbench_cli_opts *cli,
		 const struct pmbench_claim *claim, const char *fixture,
		 int unsaved)
{
	struct pmbench_report_claim judged = PMBENCH_REPORT_CLAIM_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	int code;

	pmbench_report_claim_init(&judged, r, claim, fixture, o->scenarios,
				  o->scenarios_nr, cli->tolerance);
	pmbench_report_claim(&doc, &judged, r);
	if (pmbench_cli_show(&cli->output, &doc) < 0)
		unsaved = 1;
	code = verdict_code(&judged);
	/*
	 * The verdict stands, but a result or report that was not saved is
	 * an error.
	 */
	if (unsaved)
		code = PMBENCH_EXIT_ERROR;
	pmbench_doc_release(&doc);
	pmbench_report_claim_release(&judged);
	return code;
}

/* --from FILE: the cells claim judges; a migrate result's benchmark's. */
static int read_from(struct pmbench_result *r, const char *path)
{
	return pmbench_cli_read_cells(r, path, "claim --from",
				      PMBENCH_RESULT_BENCH |
					      PMBENCH_RESULT_CLAIM |
					      PMBENCH_RESULT_MIGRATE);
}

int cmd_claim(int argc, char **argv)
{
	struct pmbench_bench_opts o = PMBENCH_BENCH_OPTS_INIT;
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_claim claim = PMBENCH_CLAIM_INIT;
	const char *fixture = NULL;
	int code, ret, unsaved = 0;

	o.runs = DEFAULT_RUNS;
	o.timeout_ns = PMBENCH_CLI_DEFAULT_TIMEOUT_NS;
	cli.run = &o;
	/* Options may follow the claim. */
	ret = pmbench_cli_parse(&cli, "claim", argc, argv);
	if (!ret && (cli.optind >= argc || argc - cli.optind > 2))
		ret = pmbench_cli_usage_error("claim",
					      "give one claim in quotes, and "
					      "at most one fixture; see "
					      "'pmbench claim --help'");
	if (!ret && pmbench_claim_parse(&claim, argv[cli.optind]) < 0)
		ret = pmbench_cli_usage_error("claim", "%s",
					      pmbench_error_last());
	if (ret) {
		code = pmbench_cli_parse_exit(ret);
		goto done;
	}
	fixture = cli.optind + 1 < argc ? argv[cli.optind + 1] : NULL;
	code = PMBENCH_EXIT_ERROR;
	if (pmbench_cli_check_output(&cli.output) < 0)
		goto done;
	/* A live run: the work folder is ours alone. */
	if (!cli.from && pmbench_cli_take_workdir(argc, argv) < 0)
		goto done;
	if (cli.from)
		ret = read_from(&r, cli.from);
	else
		ret = run_claim(&r, &o, &cli, &claim, fixture, &unsaved);
	if (ret < 0) {
		code = pmbench_cli_fail(ret);
		goto done;
	}
	/* A live run's cells are matched by its fixture's name. */
	code = judge(&r, &o, &cli, &claim, cli.from ? fixture : NULL, unsaved);
done:
	pmbench_claim_release(&claim);
	pmbench_result_release(&r);
	pmbench_bench_opts_release(&o);
	pmbench_cli_opts_release(&cli);
	return code;
}
