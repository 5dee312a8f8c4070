/*
 * The one parser of every command line (options.h's pmbench_cli_parse()):
 * each command's getopt_long array built from the rows of the option
 * table (options.c) it takes, each value checked by its row's kind,
 * every error said the same way, and --help answered with the command's
 * help (help.c).
 */
#include "pmbench/common.h"

#include <getopt.h>

#include "options.h"
#include "pmbench/bench.h"
#include "pmbench/cicache.h"
#include "pmbench/registry.h"
#include "pmbench/text.h"

int pmbench_cli_parse_exit(int ret)
{
	return ret > 0 ? PMBENCH_EXIT_OK : PMBENCH_EXIT_USAGE;
}

/* The row command `c` takes for the short option `letter`, or NULL. */
static const struct pmbench_option *
by_letter(const struct pmbench_cli_command *c, int letter)
{
	for (size_t i = 0; i < pmbench_cli_options_nr(); i++)
		if (pmbench_cli_options()[i].letter == letter &&
		    pmbench_cli_takes(c, &pmbench_cli_options()[i]))
			return &pmbench_cli_options()[i];
	return NULL;
}

/*
 * A bench option workflow keeps from its shards: getopt knows it (so it
 * is not read as an abbreviation of another), the parser refuses it.
 */
static int kept_local(const struct pmbench_cli_command *c,
		      const struct pmbench_option *o)
{
	return c->flags & CMDF_BENCH_OPTIONS && o->cmds & CMD_BENCH &&
	       o->flags & OPT_LOCAL && !pmbench_cli_takes(c, o);
}

/*
 * getopt_long's array and short options for command `c`: each row's id
 * is 256 plus its index in the table.
 */
static void build(struct option *longopts, char *shortopts,
		  const struct pmbench_cli_command *c)
{
	size_t n = 0, s = 0;

	if (c->flags & CMDF_OPTIONS_FIRST)
		shortopts[s++] = '+';
	/* Tell a missing value (':') from an unknown option ('?'). */
	shortopts[s++] = ':';
	for (size_t i = 0; i < pmbench_cli_options_nr(); i++) {
		const struct pmbench_option *o = &pmbench_cli_options()[i];
		int has_arg = o->arg ? required_argument : no_argument;

		if (!pmbench_cli_takes(c, o) && !kept_local(c, o))
			continue;
		longopts[n++] =
			(struct option){ o->name, has_arg, NULL, 256 + (int)i };
		if (o->letter && !kept_local(c, o)) {
			shortopts[s++] = o->letter;
			if (has_arg == required_argument)
				shortopts[s++] = ':';
		}
	}
	longopts[n] = (struct option){ NULL, 0, NULL, 0 };
	shortopts[s] = '\0';
}

/*
 * Print "pmbench: <cmd>: <message>" (no command for pmbench's own), fit
 * for a terminal: `msg` may quote the command line.
 */
static int usage_fail(const struct pmbench_cli_opts *cli, const char *msg)
{
	if (cli->cmd->fn)
		return pmbench_cli_usage_error(cli->cmd->name, "%s", msg);
	pmbench_cli_line(stderr, "pmbench: %s", msg);
	return -1;
}

/* The options of `c` that start with `word`'s name, for an ambiguity. */
static size_t prefixed(struct pmbench_buf *out,
		       const struct pmbench_cli_command *c, const char *word)
{
	size_t n, found = 0;

	if (strncmp(word, "--", 2))
		return 0;
	n = strcspn(word + 2, "=");
	for (size_t i = 0; i < pmbench_cli_options_nr(); i++)
		if (!strncmp(pmbench_cli_options()[i].name, word + 2, n) &&
		    pmbench_cli_takes(c, &pmbench_cli_options()[i]))
			pmbench_buf_addf(out, "%s--%s", found++ ? ", " : "",
					 pmbench_cli_options()[i].name);
	return found;
}

/* getopt_long's '?' or ':' (`c`), said in one line with the way out. */
static int bad_option(const struct pmbench_cli_opts *cli, int c,
		      const char *word)
{
	const struct pmbench_option *o = NULL;
	struct pmbench_buf msg = PMBENCH_BUF_INIT, near = PMBENCH_BUF_INIT;

	if (optopt >= 256)
		o = &pmbench_cli_options()[optopt - 256];
	else if (optopt)
		o = by_letter(cli->cmd, optopt);
	if (o && c == ':')
		pmbench_buf_addf(&msg, "'--%s' needs a value, %s", o->name,
				 o->arg);
	else if (o)
		pmbench_buf_addf(&msg, "'--%s' takes no value", o->name);
	else if (prefixed(&near, cli->cmd, word) > 1)
		pmbench_buf_addf(&msg, "ambiguous option '%.*s': %s",
				 (int)strcspn(word, "="), word, near.ptr);
	else if (optopt)
		pmbench_buf_addf(&msg, "unknown option '-%c'", optopt);
	else
		pmbench_buf_addf(&msg, "unknown option '%.*s'",
				 (int)strcspn(word, "="), word);
	pmbench_buf_addf(&msg, "; see 'pmbench %s%s--help'",
			 cli->cmd->fn ? cli->cmd->name : "",
			 cli->cmd->fn ? " " : "");
	usage_fail(cli, msg.ptr);
	pmbench_buf_release(&msg);
	pmbench_buf_release(&near);
	return -1;
}

/*
 * An option as given, into the list a result records (and the bench's
 * options point at) and, for workflow, a bench option for the shards.
 * The record has an `--env` value only when it cannot be a credential.
 */
static void pass_on(struct pmbench_cli_opts *cli,
		    const struct pmbench_option *o, const char *arg)
{
	struct pmbench_buf v = PMBENCH_BUF_INIT;

	if (arg && o->kind == ARG_ENV)
		pmbench_text_env_record(&v, arg);
	else if (arg)
		pmbench_buf_adds(&v, arg);
	if (arg)
		pmbench_strvec_pushf(&cli->args, "--%s=%s", o->name, v.ptr);
	else
		pmbench_strvec_pushf(&cli->args, "--%s", o->name);
	if (!(o->cmds & cli->cmd->id))
		pmbench_strvec_pushf(&cli->pass, "--%s%s%s", o->name,
				     arg ? "=" : "", arg ? arg : "");
	if (cli->run)
		cli->run->arguments = &cli->args;
	if (!(o->flags & OPT_UNMEASURED))
		pmbench_strvec_pushf(&cli->measured, "%s=%s", o->name,
				     arg ? arg : "(given)");
	pmbench_buf_release(&v);
}

/*
 * Whether the rounds are the budget's (pmbench_schedule_budgeted()):
 * bench's, migrate's and ci-cache's default unless '--runs N' (or a
 * shard); claim's only with '--runs auto' or '--budget'.
 */
static int budgeted(const struct pmbench_cli_opts *cli)
{
	unsigned by_default = CMD_BENCH | CMD_MIGRATE | CMD_CI_CACHE;

	return pmbench_schedule_budgeted(
		(cli->cmd->id & by_default) != 0,
		pmbench_cli_given(cli, "runs"), cli->run && cli->run->runs_auto,
		pmbench_cli_given(cli, "budget") ||
			pmbench_cli_given(cli, "time-budget"),
		cli->run && cli->run->shards);
}

/* What the options say together, once they are all read. */
static int check_after(struct pmbench_cli_opts *cli)
{
	struct pmbench_buf msg = PMBENCH_BUF_INIT;
	int ret;

	for (size_t i = 0; i < pmbench_cli_options_nr() && !msg.len; i++) {
		const struct pmbench_option *o = &pmbench_cli_options()[i];

		if (!pmbench_cli_takes(cli->cmd, o))
			continue;
		if (o->flags & OPT_REQUIRED && !cli->given[i])
			pmbench_buf_addf(&msg,
					 "'--%s %s' is required; see 'pmbench "
					 "%s --help'",
					 o->name, o->arg, cli->cmd->name);
		else if (o->flags & OPT_AUTO_KNOB && cli->given[i] &&
			 !budgeted(cli))
			pmbench_buf_addf(&msg,
					 "'--%s' applies to the time budget "
					 "(--budget, --runs auto), not to a "
					 "fixed number of runs",
					 o->name);
		else if (!strcmp(o->name, "link") &&
			 pmbench_cli_registry.mode == PMBENCH_REGISTRY_LIVE &&
			 !pmbench_link_none(&pmbench_cli_registry.link))
			pmbench_buf_adds(&msg, "'--link' needs the local "
					       "registry mirror; drop "
					       "'--registry live' or '--link'");
		else if (!strcmp(o->name, "prove-offline") && cli->given[i] &&
			 pmbench_cli_registry.mode == PMBENCH_REGISTRY_LIVE)
			pmbench_buf_adds(&msg,
					 "'--prove-offline' needs the local "
					 "registry mirror, which it takes "
					 "offline; drop '--registry live' or "
					 "'--prove-offline'");
	}
	ret = msg.len ? usage_fail(cli, msg.ptr) : 0;
	pmbench_buf_release(&msg);
	/* Said here once for every command: the engine reads the flag. */
	if (cli->run)
		cli->run->runs_auto = budgeted(cli);
	if (cli->cicache)
		cli->cicache->runs_auto = budgeted(cli);
	return ret;
}

/* Print the help of `cli->cmd`. */
static int help(const struct pmbench_cli_opts *cli)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_cli_help(&b, cli->cmd);
	fwrite(b.ptr, 1, b.len, stdout);
	pmbench_buf_release(&b);
	return 1;
}

int pmbench_cli_parse(struct pmbench_cli_opts *cli, const char *name, int argc,
		      char **argv)
{
	struct option longopts[PMBENCH_CLI_OPTIONS_MAX + 1];
	char shortopts[2 * PMBENCH_CLI_OPTIONS_MAX + 3];
	int c;

	cli->cmd = pmbench_cli_command_get(name);
	if (!cli->cmd)
		pmbench_die("no command '%s' in the command table", name);
	cli->output.cmd = cli->cmd->name;
	cli->output.runs = !!(cli->cmd->flags & CMDF_RUNS_PMS);
	build(longopts, shortopts, cli->cmd);
	/* 0: getopt starts afresh (another command line may come before). */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct pmbench_option *o =
			c >= 256	       ? &pmbench_cli_options()[c - 256]
			: c == '?' || c == ':' ? NULL
					       : by_letter(cli->cmd, c);

		if (!o)
			return bad_option(cli, c, argv[optind - 1]);
		if (kept_local(cli->cmd, o)) {
			pmbench_error_set("'--%s' is a bench option the shards "
					  "do not get (the workflow sets it, "
					  "or it shows one run)",
					  o->name);
			return usage_fail(cli, pmbench_error_last());
		}
		if (!strcmp(o->name, "help"))
			return help(cli);
		if (pmbench_cli_apply(cli, o, optarg) < 0)
			return usage_fail(cli, pmbench_error_last());
		cli->given[o - pmbench_cli_options()] = 1;
		pass_on(cli, o, optarg);
	}
	cli->optind = optind;
	return check_after(cli);
}
