/*
 * `pmbench compare`: two results' cells side by side.
 */
#include "pmbench/common.h"

#include "cli.h"
#include "options.h"
#include "pmbench/doc.h"
#include "pmbench/report_kind.h"
#include "pmbench/resultfile.h"

/* Whether both results used the same registry mode and link. */
static int same_registry(const struct pmbench_result *a,
			 const struct pmbench_result *b)
{
	static const char *const keys[] = { "registry", "link" };
	static const char *const defaults[] = { "live", "none" };

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(keys); i++) {
		const char *va = pmbench_result_env_get(a, keys[i]);
		const char *vb = pmbench_result_env_get(b, keys[i]);

		if (strcmp(va ? va : defaults[i], vb ? vb : defaults[i]))
			return 0;
	}
	return 1;
}

/*
 * Compare takes two results of one family: bench and claim results (the
 * same cells), two ci-cache results, or two migrate results whole.
 */
static unsigned family(enum pmbench_result_kind k)
{
	return k == PMBENCH_RESULT_CLAIM ? PMBENCH_RESULT_BENCH : k;
}

static int read_pair(struct pmbench_result_file *a,
		     struct pmbench_result_file *b, const char *pa,
		     const char *pb)
{
	int ret =
		pmbench_cli_read_file(a, pa, "compare", PMBENCH_CLI_EVERY_KIND);

	if (!ret)
		ret = pmbench_cli_read_file(b, pb, "compare",
					    PMBENCH_CLI_EVERY_KIND);
	if (!ret && family(a->kind) != family(b->kind))
		ret = pmbench_error_setc(
			PMBENCH_EINVALID,
			"'%s' is %s and '%s' %s; compare takes "
			"two results of one kind (bench and "
			"claim results together)",
			pa, a->what, pb, b->what);
	if (!ret)
		ret = pmbench_cli_whole_migrate(a, pa, "compare");
	if (!ret)
		ret = pmbench_cli_whole_migrate(b, pb, "compare");
	return ret;
}

/*
 * The comparison of `a` and `b` as a document: two migrations whole.
 * Nothing to compare is an error (-1, said): no report, no --out file.
 */
static int make_doc(struct pmbench_doc *doc, struct pmbench_report_compare *cmp,
		    const struct pmbench_result_file *a, const char *pa,
		    const struct pmbench_result_file *b, const char *pb)
{
	pmbench_report_compare_init(cmp, &a->result, pa, &b->result, pb);
	if (a->kind == PMBENCH_RESULT_MIGRATE)
		pmbench_report_compare_migrate(doc, cmp, &a->migrate,
					       &b->migrate);
	else
		pmbench_report_compare(doc, cmp);
	if (!same_registry(&a->result, &b->result))
		fprintf(stderr,
			"pmbench: warning: '%s' and '%s' used different "
			"registries or links (see the legends): the changes "
			"include the network\n",
			pa, pb);
	if (cmp->pairs_nr)
		return 0;
	fprintf(stderr,
		"pmbench: error: '%s' and '%s' have no cell (fixture, task, "
		"scenario, PM) in common\n",
		pa, pb);
	return -1;
}

/*
 * One result: the two sides of a `bench --base` run, base (A) against
 * head (B), paired by round. Returns the exit code.
 */
static int compare_sides(struct pmbench_cli_opts *cli, const char *path)
{
	struct pmbench_result_file f = PMBENCH_RESULT_FILE_INIT;
	struct pmbench_report_compare cmp = PMBENCH_REPORT_COMPARE_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	int code = PMBENCH_EXIT_ERROR;

	if (pmbench_cli_read_file(&f, path, "compare", PMBENCH_CLI_EVERY_KIND) <
	    0) {
		pmbench_cli_error(NULL);
		goto done;
	}
	if (!pmbench_report_has_sides(&f.result)) {
		fprintf(stderr,
			"pmbench: error: '%s' is not a result of 'bench "
			"--base' (no fixture named '<name>@base'); give two "
			"result files, A (before) and B (after)\n",
			path);
		goto done;
	}
	pmbench_report_compare_sides(&cmp, &f.result, path);
	if (!cmp.pairs_nr) {
		fprintf(stderr,
			"pmbench: error: '%s' has no cell measured on both "
			"sides\n",
			path);
		goto done;
	}
	pmbench_report_compare(&doc, &cmp);
	code = pmbench_cli_show(&cli->output, &doc) ? PMBENCH_EXIT_ERROR
						    : PMBENCH_EXIT_OK;
done:
	pmbench_doc_release(&doc);
	pmbench_report_compare_release(&cmp);
	pmbench_result_file_release(&f);
	return code;
}

int cmd_compare(int argc, char **argv)
{
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	struct pmbench_result_file fa = PMBENCH_RESULT_FILE_INIT;
	struct pmbench_result_file fb = PMBENCH_RESULT_FILE_INIT;
	struct pmbench_report_compare cmp = PMBENCH_REPORT_COMPARE_INIT;
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	const char *pa, *pb;
	int code = pmbench_cli_parse(&cli, "compare", argc, argv);

	if (!code && argc - cli.optind == 1) {
		code = compare_sides(&cli, argv[cli.optind]);
		goto done;
	}
	if (!code && argc - cli.optind != 2)
		code = pmbench_cli_usage_error("compare",
					       "give two result files, A "
					       "(before) and B (after), or "
					       "one of 'bench --base'; see "
					       "'pmbench compare --help'");
	if (code) {
		code = pmbench_cli_parse_exit(code);
		goto done;
	}
	pa = argv[cli.optind];
	pb = argv[cli.optind + 1];
	code = PMBENCH_EXIT_ERROR;
	if (read_pair(&fa, &fb, pa, pb) < 0)
		pmbench_cli_error(NULL);
	else if (make_doc(&doc, &cmp, &fa, pa, &fb, pb) == 0)
		code = pmbench_cli_show(&cli.output, &doc) ? PMBENCH_EXIT_ERROR
							   : PMBENCH_EXIT_OK;
done:
	pmbench_doc_release(&doc);
	pmbench_report_compare_release(&cmp);
	pmbench_result_file_release(&fa);
	pmbench_result_file_release(&fb);
	pmbench_cli_opts_release(&cli);
	return code;
}
