/*
 * Shell completions for bash, zsh and fish, written from the command and
 * option tables (as hyperfine ships the ones clap writes): each command's
 * options, and for an option's value the names the tables know (PMs,
 * scenarios, tasks, formats, columns), files or folders.
 */
#include "pmbench/common.h"

#include "options.h"
#include "pmbench/format.h"
#include "pmbench/pm.h"
#include "pmbench/scenario.h"
#include "pmbench/task.h"

#define HEADER                                                             \
	"completion for pmbench. Written by pmbench-gendoc from "          \
	"src/cli/options.c\n# and commands.c: do not edit; regenerate it " \
	"with 'build/pmbench-gendoc write .'\n"

/* A single quote inside a single-quoted word of zsh, of fish. */
#define ZSH_QUOTE  "'\\''"
#define FISH_QUOTE "\\'"

/* The words an option's value completes to, space-separated. */
static void values(struct pmbench_buf *out, const struct pmbench_option *o)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	switch (o->complete) {
	case CPL_PM:
	case CPL_PMS:
		for (size_t i = 0; pmbench_pm_nth(i); i++)
			pmbench_buf_addf(out, "%s%s", i ? " " : "",
					 pmbench_pm_nth(i)->name);
		break;
	case CPL_SCENARIOS:
		pmbench_buf_adds(out, "all default");
		for (size_t i = 0;
		     i < PMBENCH_ARRAY_SIZE(pmbench_scenarios_all); i++)
			pmbench_buf_addf(out, " %s",
					 pmbench_scenario_name(
						 pmbench_scenarios_all[i]));
		break;
	case CPL_TASKS:
		for (size_t i = 0; i < pmbench_tasks_nr; i++)
			pmbench_buf_addf(out, "%s%s", i ? " " : "",
					 pmbench_tasks[i].name);
		break;
	case CPL_FORMAT:
		for (size_t i = 0; i < pmbench_formats_nr; i++)
			pmbench_buf_addf(out, "%s%s", i ? " " : "",
					 pmbench_formats[i].name);
		break;
	case CPL_COLUMNS:
		pmbench_format_column_names(&b);
		for (const char *p = b.ptr; *p; p++)
			if (*p != ',')
				pmbench_buf_addch(out, *p);
		break;
	case CPL_WORDS:
		pmbench_buf_adds(out, o->values);
		break;
	default:
		break;
	}
	pmbench_buf_release(&b);
}

static int is_list(const struct pmbench_option *o)
{
	return o->arg && !strcmp(o->arg, "LIST");
}

static int takes_value(const struct pmbench_option *o)
{
	return o->arg != NULL;
}

/*
 * The first clause of an option's help, for the shells that show one
 * line: up to a ';' or ' (', with only characters no quoting needs but
 * the single quote, written as `quote` says.
 */
static void blurb(struct pmbench_buf *out, const char *help, const char *quote)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	size_t n;

	pmbench_cli_expand(&b, help);
	n = strcspn(b.ptr, ";(");
	while (n && b.ptr[n - 1] == ' ')
		n--;
	for (size_t i = 0; i < n; i++) {
		char c = b.ptr[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr(" ,./+-_%=<>|", c))
			pmbench_buf_addch(out, c);
		else if (c == '\'')
			pmbench_buf_adds(out, quote);
	}
	pmbench_buf_release(&b);
}

static const struct pmbench_cli_command *nth(size_t i)
{
	return i ? &pmbench_cli_commands[i - 1] : &pmbench_cli_program;
}

/* ---- bash --------------------------------------------------------------- */

/* One case of the value completions: "cmd --opt" | "cmd -o") ... */
static void bash_value(struct pmbench_buf *out,
		       const struct pmbench_cli_command *c,
		       const struct pmbench_option *o)
{
	const char *cmd = c->fn ? c->name : "";

	pmbench_buf_addf(out, "\t\"%s --%s\"", cmd, o->name);
	if (o->letter)
		pmbench_buf_addf(out, " | \"%s -%c\"", cmd, o->letter);
	pmbench_buf_adds(out, ")\n\t\t");
	if (o->complete == CPL_FILE)
		pmbench_buf_adds(out, "_pmbench_files -f");
	else if (o->complete == CPL_DIR)
		pmbench_buf_adds(out, "_pmbench_files -d");
	else if (o->complete == CPL_NONE)
		pmbench_buf_adds(out, "COMPREPLY=()");
	else {
		pmbench_buf_adds(out, "_pmbench_words '");
		values(out, o);
		pmbench_buf_addf(out, "'%s", is_list(o) ? " list" : "");
	}
	pmbench_buf_adds(out, "\n\t\treturn\n\t\t;;\n");
}

/* The command's options, space-separated. */
static void option_words(struct pmbench_buf *out,
			 const struct pmbench_cli_command *c)
{
	size_t n = 0;

	for (size_t i = 0; i < pmbench_cli_options_nr(); i++) {
		const struct pmbench_option *o = &pmbench_cli_options()[i];

		if (!pmbench_cli_takes(c, o))
			continue;
		pmbench_buf_addf(out, "%s--%s", n++ ? " " : "", o->name);
		if (o->letter)
			pmbench_buf_addf(out, " -%c", o->letter);
	}
}

static void bash_commands(struct pmbench_buf *out)
{
	for (size_t i = 0; i < pmbench_cli_commands_nr; i++)
		pmbench_buf_addf(out, "%s ", pmbench_cli_commands[i].name);
	pmbench_buf_adds(out, "help");
}

/* The word and file helpers, and _pmbench up to the command's name. */
static void bash_prelude(struct pmbench_buf *out)
{
	pmbench_buf_addf(
		out,
		"# bash " HEADER "\n"
		"_pmbench_words()\n{\n"
		"\tlocal pre= word=$cur\n"
		"\tif [[ $2 == list && $word == *,* ]]; then\n"
		"\t\tpre=${word%%,*},\n\t\tword=${word##*,}\n\tfi\n"
		"\tCOMPREPLY=($(compgen -P \"$pre\" -W \"$1\" -- \"$word\"))\n"
		"}\n\n"
		"_pmbench_files()\n{\n"
		"\tcompopt -o filenames 2>/dev/null\n"
		"\tCOMPREPLY=($(compgen \"$1\" -- \"$cur\"))\n}\n\n"
		"_pmbench()\n{\n"
		"\tlocal cur=${COMP_WORDS[COMP_CWORD]}\n"
		"\tlocal prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
		"\tlocal cmd= opts i\n\n"
		"\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
		"\t\tcase ${COMP_WORDS[i]} in\n"
		"\t\t--cache-dir | --fixtures-dir) ((i++)) ;;\n"
		"\t\t-*) ;;\n"
		"\t\t*) cmd=${COMP_WORDS[i]}; break ;;\n"
		"\t\tesac\n\tdone\n"
		"\tcase \"$cmd $prev\" in\n");
}

/* The values of each command's options that take one, by previous word. */
static void bash_values(struct pmbench_buf *out)
{
	for (size_t k = 0; k <= pmbench_cli_commands_nr; k++)
		for (size_t i = 0; i < pmbench_cli_options_nr(); i++)
			if (pmbench_cli_takes(nth(k),
					      &pmbench_cli_options()[i]) &&
			    takes_value(&pmbench_cli_options()[i]))
				bash_value(out, nth(k),
					   &pmbench_cli_options()[i]);
}

/* The options of the program and of each command; command names. */
static void bash_options(struct pmbench_buf *out)
{
	pmbench_buf_adds(out, "\tesac\n\tcase $cmd in\n\t\"\")\n\t\topts='");
	option_words(out, &pmbench_cli_program);
	pmbench_buf_adds(out, "'\n\t\tif [[ $cur != -* ]]; then\n"
			      "\t\t\t_pmbench_words '");
	bash_commands(out);
	pmbench_buf_adds(out, "'\n\t\t\treturn\n\t\tfi\n\t\t;;\n"
			      "\thelp)\n\t\t_pmbench_words '");
	bash_commands(out);
	pmbench_buf_adds(out, "'\n\t\treturn\n\t\t;;\n");
	for (size_t k = 0; k < pmbench_cli_commands_nr; k++) {
		pmbench_buf_addf(out, "\t%s)\n\t\topts='",
				 pmbench_cli_commands[k].name);
		option_words(out, &pmbench_cli_commands[k]);
		pmbench_buf_adds(out, "'\n\t\t;;\n");
	}
}

static void bash(struct pmbench_buf *out)
{
	bash_prelude(out);
	bash_values(out);
	bash_options(out);
	pmbench_buf_adds(out,
			 "\tesac\n"
			 "\tif [[ $cur == -* ]]; then\n"
			 "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
			 "\telif [[ $cmd == workflow && $prev == workflow ]]; "
			 "then\n"
			 "\t\tCOMPREPLY=($(compgen -W github-actions -- "
			 "\"$cur\"))\n"
			 "\telse\n\t\t_pmbench_files -f\n\tfi\n"
			 "}\n\ncomplete -F _pmbench pmbench\n");
}

/* ---- zsh ---------------------------------------------------------------- */

static void zsh_option(struct pmbench_buf *out, const struct pmbench_option *o)
{
	pmbench_buf_adds(out, " \\\n\t\t");
	if (o->letter)
		pmbench_buf_addf(out, "'(-%c --%s)'{-%c%s,--%s%s}'", o->letter,
				 o->name, o->letter, o->arg ? "+" : "", o->name,
				 o->arg ? "=" : "");
	else
		pmbench_buf_addf(out, "'--%s%s", o->name, o->arg ? "=" : "");
	pmbench_buf_addch(out, '[');
	blurb(out, o->help, ZSH_QUOTE);
	pmbench_buf_addch(out, ']');
	if (o->arg) {
		pmbench_buf_addf(out, ":%s:", o->arg);
		if (o->complete == CPL_FILE)
			pmbench_buf_adds(out, "_files");
		else if (o->complete == CPL_DIR)
			pmbench_buf_adds(out, "_files -/");
		else if (o->complete != CPL_NONE) {
			pmbench_buf_adds(
				out, is_list(o) ? "_sequence compadd - " : "(");
			values(out, o);
			if (!is_list(o))
				pmbench_buf_addch(out, ')');
		}
	}
	pmbench_buf_addch(out, '\'');
}

static void zsh_options(struct pmbench_buf *out,
			const struct pmbench_cli_command *c)
{
	for (size_t i = 0; i < pmbench_cli_options_nr(); i++)
		if (pmbench_cli_takes(c, &pmbench_cli_options()[i]))
			zsh_option(out, &pmbench_cli_options()[i]);
}

static void zsh(struct pmbench_buf *out)
{
	pmbench_buf_adds(out, "#compdef pmbench\n# zsh " HEADER "\n"
			      "_pmbench() {\n"
			      "\tlocal curcontext=$curcontext state line\n"
			      "\ttypeset -A opt_args\n\n"
			      "\t_arguments -C");
	zsh_options(out, &pmbench_cli_program);
	pmbench_buf_adds(out, " \\\n\t\t'1:command:->command' \\\n"
			      "\t\t'*::arg:->args'\n"
			      "\tcase $state in\n\tcommand)\n"
			      "\t\tlocal -a cmds\n\t\tcmds=(\n");
	for (size_t i = 0; i < pmbench_cli_commands_nr; i++) {
		pmbench_buf_addf(out,
				 "\t\t\t'%s:", pmbench_cli_commands[i].name);
		blurb(out, pmbench_cli_commands[i].summary, ZSH_QUOTE);
		pmbench_buf_adds(out, "'\n");
	}
	pmbench_buf_adds(out, "\t\t\t'help:a command'\"'\"'s options'\n"
			      "\t\t)\n\t\t_describe command cmds\n\t\t;;\n"
			      "\targs)\n\t\tcase $words[1] in\n");
	for (size_t i = 0; i < pmbench_cli_commands_nr; i++) {
		pmbench_buf_addf(out, "\t\t%s)\n\t\t\t_arguments",
				 pmbench_cli_commands[i].name);
		zsh_options(out, &pmbench_cli_commands[i]);
		pmbench_buf_adds(out, " \\\n\t\t\t\t'*:operand:_files'\n"
				      "\t\t\t;;\n");
	}
	pmbench_buf_adds(out, "\t\thelp)\n\t\t\t_arguments '1:command:(");
	bash_commands(out);
	pmbench_buf_adds(out, ")'\n\t\t\t;;\n\t\tesac\n\t\t;;\n\tesac\n}\n\n"
			      "_pmbench \"$@\"\n");
}

/* ---- fish --------------------------------------------------------------- */

static void fish_option(struct pmbench_buf *out, const char *cond,
			const struct pmbench_option *o)
{
	pmbench_buf_addf(out, "complete -c pmbench -n '%s'", cond);
	if (o->letter)
		pmbench_buf_addf(out, " -s %c", o->letter);
	pmbench_buf_addf(out, " -l %s", o->name);
	if (o->complete == CPL_FILE)
		pmbench_buf_adds(out, " -r -F");
	else if (o->complete == CPL_DIR)
		pmbench_buf_adds(out, " -x -a '(__fish_complete_directories)'");
	else if (o->arg) {
		pmbench_buf_adds(out, " -x");
		if (o->complete != CPL_NONE) {
			pmbench_buf_adds(out, " -a '");
			values(out, o);
			pmbench_buf_addch(out, '\'');
		}
	}
	pmbench_buf_adds(out, " -d '");
	blurb(out, o->help, FISH_QUOTE);
	pmbench_buf_adds(out, "'\n");
}

/*
 * The conditions name the commands themselves: a completion file's
 * variables are gone by the time fish evaluates them.
 */
static void fish(struct pmbench_buf *out)
{
	struct pmbench_buf none = PMBENCH_BUF_INIT, cond = PMBENCH_BUF_INIT;

	pmbench_buf_adds(&none, "not __fish_seen_subcommand_from ");
	bash_commands(&none);
	pmbench_buf_adds(out, "# fish " HEADER "\n");
	for (size_t i = 0; i < pmbench_cli_commands_nr; i++) {
		pmbench_buf_addf(out,
				 "complete -c pmbench -f -n '%s' -a %s -d '",
				 none.ptr, pmbench_cli_commands[i].name);
		blurb(out, pmbench_cli_commands[i].summary, FISH_QUOTE);
		pmbench_buf_adds(out, "'\n");
	}
	pmbench_buf_addf(out,
			 "complete -c pmbench -f -n '%s' -a help -d \"a "
			 "command's options\"\n"
			 "complete -c pmbench -f -n "
			 "'__fish_seen_subcommand_from help' -a '",
			 none.ptr);
	bash_commands(out);
	pmbench_buf_adds(out, "'\n");
	for (size_t k = 0; k <= pmbench_cli_commands_nr; k++) {
		pmbench_buf_reset(&cond);
		if (k)
			pmbench_buf_addf(&cond,
					 "__fish_seen_subcommand_from %s",
					 nth(k)->name);
		else
			pmbench_buf_adds(&cond, none.ptr);
		pmbench_buf_addch(out, '\n');
		for (size_t i = 0; i < pmbench_cli_options_nr(); i++)
			if (pmbench_cli_takes(nth(k),
					      &pmbench_cli_options()[i]))
				fish_option(out, cond.ptr,
					    &pmbench_cli_options()[i]);
	}
	pmbench_buf_release(&none);
	pmbench_buf_release(&cond);
}

void pmbench_cli_completion(struct pmbench_buf *out,
			    enum pmbench_cli_shell shell)
{
	if (shell == SHELL_BASH)
		bash(out);
	else if (shell == SHELL_ZSH)
		zsh(out);
	else
		fish(out);
}
