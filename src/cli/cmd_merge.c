/*
 * pmbench merge -o OUT.json IN.json...: the shards of one plan pooled
 * into one ordinary result, and what the machines did to each median.
 */
#include "pmbench/common.h"

#include <sys/stat.h>

#include "cli.h"
#include "pmbench/resultfile.h"
#include "options.h"
#include "pmbench/merge.h"

/* The shards of the plan that no input is: a warning, not an error. */
static void warn_missing(const struct pmbench_result *in, size_t n)
{
	unsigned of = in[0].shards;

	for (unsigned k = 1; of && k <= of; k++) {
		size_t i;

		for (i = 0; i < n && in[i].shard != k; i++)
			;
		if (i == n)
			fprintf(stderr,
				"pmbench: warning: shard %u/%u is missing: "
				"the merged result has fewer runs than its "
				"plan\n",
				k, of);
	}
}

static void print_machines(const struct pmbench_result *r)
{
	pmbench_cli_line(stdout, "merged: %s, plan %s",
			 pmbench_result_env_get(r, "merged"),
			 r->plan_id ? r->plan_id : "(none)");
	for (size_t i = 0; i < r->machines_nr; i++) {
		const struct pmbench_result_machine *m = &r->machines[i];

		pmbench_cli_line(stdout, "  %s: %s, kernel %s, host %s%s%s",
				 m->id,
				 m->cpu_model ? m->cpu_model : "unknown CPU",
				 m->kernel ? m->kernel : "unknown",
				 m->host ? m->host : "unknown",
				 m->shards ? ", shards " : "",
				 m->shards ? m->shards : "");
	}
}

static void print_effects(const struct pmbench_result *r, uint64_t seed)
{
	int header = 0;

	for (size_t i = 0; i < r->cells_nr; i++) {
		const struct pmbench_cell *c = &r->cells[i];
		struct pmbench_machine_effect e;

		if (!pmbench_merge_machine_effect(&e, c, seed))
			continue;
		if (!header)
			printf("machine effect (median, 95%% interval with "
			       "machines resampled, then over the runs "
			       "alone):\n");
		header = 1;
		pmbench_cli_line(
			stdout,
			"  %s %s %s %s: %s %.3f s .. %s %.3f s (x%.2f across "
			"%zu machines); %.3f s [%.3f, %.3f] against [%.3f, "
			"%.3f]",
			c->fixture, c->task, c->scenario, c->pm,
			r->machines[e.fastest_m - 1].id, e.fastest,
			r->machines[e.slowest_m - 1].id, e.slowest,
			e.fastest > 0 ? e.slowest / e.fastest : 0, e.machines,
			e.median, e.lo, e.hi, e.runs_lo, e.runs_hi);
	}
	if (!header)
		printf("machine effect: none to show (fewer than two "
		       "machines per cell)\n");
}

static int merge_files(const char *out, char **files, size_t n, uint64_t seed,
		       int seeded)
{
	struct pmbench_result *in = pmbench_xcalloc(n, sizeof(*in));
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_result init = PMBENCH_RESULT_INIT;
	int code = PMBENCH_EXIT_ERROR;
	size_t read = 0;

	for (; read < n; read++) {
		in[read] = init;
		/* Shards: never a migrate result. */
		if (pmbench_cli_read_cells(&in[read], files[read], "merge",
					   PMBENCH_RESULT_BENCH |
						   PMBENCH_RESULT_CICACHE |
						   PMBENCH_RESULT_CLAIM) < 0) {
			pmbench_cli_error(NULL);
			goto done;
		}
	}
	if (pmbench_merge(&r, in, (const char *const *)files, n) < 0) {
		pmbench_cli_error(NULL);
		goto done;
	}
	warn_missing(in, n);
	if (pmbench_result_write(&r, out) < 0) {
		pmbench_cli_error(NULL);
		goto done;
	}
	print_machines(&r);
	print_effects(&r, seeded ? seed : r.seed);
	fprintf(stderr, "pmbench: merged result written to '%s'\n", out);
	code = PMBENCH_EXIT_OK;
done:
	for (size_t i = 0; i < read && i < n; i++)
		pmbench_result_release(&in[i]);
	if (read < n)
		pmbench_result_release(&in[read]);
	free(in);
	pmbench_result_release(&r);
	return code;
}

/*
 * The output must not be one of the inputs: `merge -o a.json a.json
 * b.json` would replace a shard with the merge, so say so first.
 */
static int check_out(const char *out, char **files, size_t n)
{
	struct stat o, in;

	if (stat(out, &o) < 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!stat(files[i], &in) && in.st_dev == o.st_dev &&
		    in.st_ino == o.st_ino)
			return pmbench_cli_usage_error("merge",
						       "'%s' is an input too; "
						       "give '--out' a file of "
						       "its own",
						       out);
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	size_t n;
	int code;

	code = pmbench_cli_parse(&cli, "merge", argc, argv);
	n = code ? 0 : (size_t)(argc - cli.optind);
	if (!code && !n)
		code = pmbench_cli_usage_error("merge",
					       "give at least one result to "
					       "merge; see 'pmbench merge "
					       "--help'");
	if (!code)
		code = check_out(cli.out, argv + cli.optind, n);
	if (code)
		code = pmbench_cli_parse_exit(code);
	else
		code = merge_files(cli.out, argv + cli.optind, n, cli.seed,
				   pmbench_cli_given(&cli, "seed"));
	pmbench_cli_opts_release(&cli);
	return code;
}
