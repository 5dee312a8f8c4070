#ifndef PMBENCH_CLI_OPTIONS_H
#define PMBENCH_CLI_OPTIONS_H

/*
 * The command line as data, in the shape of curl's tool_getparam.c:
 * one sorted table of options (options.c), each row a name, the kind of
 * its argument, the commands that take it, its help line and where its
 * value lands; and one table of commands (commands.c) with their
 * descriptions and examples. From them come each command's array of
 * long options and its parsing (pmbench_cli_parse(), parse.c), `pmbench
 * help COMMAND`, the man pages in docs/man/, the shell completions in
 * completions/ (help.c, completion.c; written by pmbench-gendoc) and the
 * bench options `pmbench workflow` passes to its shards.
 */

#include "pmbench/common.h"

#include "cli.h"
#include "pmbench/buf.h"
#include "pmbench/strvec.h"

struct pmbench_bench_opts;
struct pmbench_cicache_opts;
struct pmbench_task_knob;

/** The commands, as the bits of an option's `cmds`. */
enum pmbench_cli_cmd {
	CMD_MAIN = (1 << 0), /**< pmbench's own, before the command */
	CMD_BENCH = (1 << 1),
	CMD_CI_CACHE = (1 << 2),
	CMD_CLAIM = (1 << 3),
	CMD_COMPARE = (1 << 4),
	CMD_FIXTURES = (1 << 5),
	CMD_HISTORY = (1 << 6),
	CMD_MERGE = (1 << 7),
	CMD_MIGRATE = (1 << 8),
	CMD_PMS = (1 << 9),
	CMD_REPORT = (1 << 10),
	CMD_WORKFLOW = (1 << 11),
	CMD_WAIT = (1 << 12),
};

/** What an option's argument is, and so how it is checked. */
enum pmbench_arg {
	ARG_FLAG,  /**< none: stores `value` (an int) */
	ARG_COUNT, /**< a whole number from `min` to `max` (unsigned) */
	ARG_U64,   /**< any whole number (uint64_t) */
	/** such as 90s or 15m, from 1 s to 24 h: nanoseconds (uint64_t) */
	ARG_DURATION,
	/** from 0.1 to 100, '%' optional: a fraction (double) */
	ARG_PERCENT,
	ARG_STRING, /**< any text (const char *) */
	ARG_PATH,   /**< a file or folder name, not empty (const char *) */
	ARG_PM,	    /**< one package manager or variant (const char *) */
	ARG_PMS,    /**< comma-separated PMs (a strvec it replaces) */
	ARG_ENV,    /**< NAME=VALUE, appended (a strvec) */
	ARG_FORMAT, /**< a report format (const struct pmbench_format *) */
	ARG_CUSTOM, /**< the row's `set` parses and lands it */
	/** a task's knob (task.h): its row generated from the entry */
	ARG_KNOB,
};

/** Which configuration an option's value lands in, at `at`. */
enum pmbench_cli_in {
	IN_CLI,	    /**< struct pmbench_cli_opts, the command line's own */
	IN_RUN,	    /**< struct pmbench_bench_opts (cli->run) */
	IN_CICACHE, /**< struct pmbench_cicache_opts (cli->cicache) */
};

enum pmbench_option_flags {
	/** workflow keeps it: a bench option its shards do not get */
	OPT_LOCAL = (1 << 0),
	/** a `--runs auto` knob: refused without it */
	OPT_AUTO_KNOB = (1 << 1),
	/** the command cannot go on without it */
	OPT_REQUIRED = (1 << 2),
	/**
	 * it does not change what is measured (where results go, how they
	 * are shown, which shard runs): left out of the plan id. Every other
	 * row is in it (pmbench_cli_plan_options()), so a new option is in
	 * the plan unless its row says otherwise.
	 */
	OPT_UNMEASURED = (1 << 3),
};

/** What a shell completes for an option's value. */
enum pmbench_cli_complete {
	CPL_NONE,      /**< nothing: the user types it */
	CPL_FILE,      /**< file names */
	CPL_DIR,       /**< folder names */
	CPL_PM,	       /**< one PM or variant */
	CPL_PMS,       /**< comma-separated PMs and variants */
	CPL_SCENARIOS, /**< comma-separated scenarios, all, default */
	CPL_TASKS,     /**< comma-separated tasks */
	CPL_FORMAT,    /**< a report format */
	CPL_COLUMNS,   /**< comma-separated table columns */
	CPL_WORDS,     /**< one of `values` */
};

struct pmbench_cli_opts;
struct pmbench_option;

/**
 * Parse `arg` for option `o` into `cli`. Returns 0, or a negative
 * PMBENCH_E* with the error set (the parser prints it).
 */
typedef int (*pmbench_option_set_cb)(struct pmbench_cli_opts *cli,
				     const struct pmbench_option *o,
				     const char *arg);

/**
 * One row of the option table. Rows are sorted by name; a name has
 * several rows when commands document it differently (their defaults),
 * and then the rows share its kind and never a command.
 */
struct pmbench_option {
	const char *name; /**< "runs" for --runs */
	enum pmbench_arg kind;
	unsigned cmds;		/**< enum pmbench_cli_cmd bits */
	const char *arg;	/**< the value's name in help ("N"), or NULL */
	const char *help;	/**< its help, with {placeholders} (help.c) */
	char letter;		/**< the short option, or 0 */
	unsigned flags;		/**< enum pmbench_option_flags */
	enum pmbench_cli_in in; /**< where it lands: in, at */
	size_t at;
	int value;		   /**< ARG_FLAG: the value it stores */
	unsigned min, max;	   /**< ARG_COUNT: the bounds */
	pmbench_option_set_cb set; /**< ARG_CUSTOM: the parser */
	enum pmbench_cli_complete complete;
	const char *values; /**< CPL_WORDS: the words, space-separated */
	/** ARG_KNOB: the task knob it is generated from */
	const struct pmbench_task_knob *knob;
};

/**
 * The option table: options.c's rows and a row generated from each task
 * knob (task.h: name, argument, bounds, default, help "with the <task>
 * task: ..."), all sorted by name. Built on the first call; the same
 * rows, at the same addresses, for the whole run.
 */
const struct pmbench_option *pmbench_cli_options(void);
size_t pmbench_cli_options_nr(void);

/** The most rows the table may have, knobs' too (the size of `given`). */
#define PMBENCH_CLI_OPTIONS_MAX 128

/** Flags of a command. */
enum pmbench_cli_command_flags {
	/** it runs package managers: its report also goes to the terminal */
	CMDF_RUNS_PMS = (1 << 0),
	/** it takes every bench option that is not OPT_LOCAL (workflow) */
	CMDF_BENCH_OPTIONS = (1 << 1),
	/** options end at the first operand (pmbench's own, before the
	 * command) */
	CMDF_OPTIONS_FIRST = (1 << 2),
};

struct pmbench_cli_example {
	const char *what;    /**< what it does, one line */
	const char *command; /**< the command line */
};

/** A command and its documentation: help, man page, completions. */
struct pmbench_cli_command {
	const char *name; /**< "bench"; "pmbench" for the program itself */
	unsigned id;	  /**< its enum pmbench_cli_cmd bit */
	unsigned flags;	  /**< enum pmbench_cli_command_flags */
	int (*fn)(int argc, char **argv); /**< NULL for the program */
	const char *summary;		  /**< one line, for lists and NAME */
	const char *synopsis;		  /**< after "pmbench NAME " */
	/**
	 * Paragraphs separated by a blank line, wrapped to fit; a paragraph
	 * whose lines start with two spaces is kept as it is. May hold
	 * {placeholders} (help.c).
	 */
	const char *description;
	struct pmbench_cli_example examples[4]; /**< ending with a NULL what */
	const char *exit_status;		/**< as description */
};

/** The program itself: its global options and its list of commands. */
extern const struct pmbench_cli_command pmbench_cli_program;

/** The commands, in the order `pmbench --help` lists them. */
extern const struct pmbench_cli_command pmbench_cli_commands[];
extern const size_t pmbench_cli_commands_nr;

/** The command called `name`, or NULL. */
const struct pmbench_cli_command *pmbench_cli_command_get(const char *name);

/** Whether command `c` takes option `o`. */
int pmbench_cli_takes(const struct pmbench_cli_command *c,
		      const struct pmbench_option *o);

/**
 * Everything a command line can say that is not the engine's options,
 * for every command; and the engine's option structs the rows land in.
 * Initialise with PMBENCH_CLI_OPTS_INIT, then point `run` or `cicache`
 * at the command's engine options (with their defaults) and call
 * pmbench_cli_parse(); release with pmbench_cli_opts_release().
 */
struct pmbench_cli_opts {
	const struct pmbench_cli_command *cmd; /**< set by the parser */
	struct pmbench_bench_opts *run;	       /**< IN_RUN, or NULL */
	struct pmbench_cicache_opts *cicache;  /**< IN_CICACHE, or NULL */
	struct pmbench_cli_output output;      /**< --format, --report, ... */
	int tty; /**< --progress 1, --no-progress 0, else -1 */
	int dry_run;
	const char *from;	  /**< claim --from FILE, migrate --from PM */
	double tolerance;	  /**< claim --tolerance, a fraction */
	struct pmbench_strvec to; /**< migrate --to */
	struct pmbench_strvec parity; /**< migrate --task: parity tasks */
	const char *markdown;	      /**< migrate --markdown */
	int time_source;	      /**< migrate --time-source */
	struct pmbench_strvec choose; /**< migrate --choose: recipe step ids */
	int no_recipe;		      /**< migrate --no-recipe */
	const char *out;	      /**< migrate's and merge's --out */
	uint64_t seed;		      /**< merge --seed */
	/* workflow */
	unsigned shards;
	const char *runner;
	const char *container; /**< NULL: the runner itself */
	unsigned job_timeout;  /**< minutes */
	const char *cron;
	int pm_matrix;
	const char *history_dir;
	int pull_request;	  /**< workflow --pull-request */
	const char *pmbench_repo; /**< its --pmbench-repo OWNER/NAME[@REF] */
	const char *versions;	  /**< pms --versions PM */
	/** workflow: the bench options given, "--name[=value]", in order */
	struct pmbench_strvec pass;
	/** every option given, "--name[=value]", in order: a result records it */
	struct pmbench_strvec args;
	/**
	 * the options given that change what is measured (no
	 * OPT_UNMEASURED), "name=value" as given, credentials and all: the
	 * plan's (pmbench_cli_plan_options())
	 */
	struct pmbench_strvec measured;
	/* pmbench's own */
	const char *cache_dir;
	const char *fixtures_dir;
	int version;
	/* The parser's */
	int optind;				      /**< the first operand */
	unsigned char given[PMBENCH_CLI_OPTIONS_MAX]; /**< rows given */
};

#define PMBENCH_CLI_OPTS_INIT                                             \
	{                                                                 \
		.tty = -1, .tolerance = 0.10, .to = PMBENCH_STRVEC_INIT,  \
		.parity = PMBENCH_STRVEC_INIT, .shards = 3,               \
		.choose = PMBENCH_STRVEC_INIT, .runner = "ubuntu-latest", \
		.container = "debian:12", .job_timeout = 60,              \
		.pass = PMBENCH_STRVEC_INIT, .args = PMBENCH_STRVEC_INIT, \
		.measured = PMBENCH_STRVEC_INIT,                          \
	}

void pmbench_cli_opts_release(struct pmbench_cli_opts *cli);

/**
 * Parse the options of command `name` in argv[1..argc) into `cli` with
 * getopt, from the rows the command takes: each value is checked
 * by its kind and lands where its row says. Options may follow operands
 * (unless the command says otherwise) and "--" ends them; cli->optind is
 * the first operand. After the options: the required ones are there,
 * the `--runs auto` knobs come with it, `--link` with the local
 * registry.
 *
 * Returns 0 to go on; 1 after printing the help (--help: exit 0); -1
 * after printing a one-line usage error, "pmbench: <cmd>: ..." (exit
 * PMBENCH_EXIT_USAGE). See pmbench_cli_parse_exit().
 */
int pmbench_cli_parse(struct pmbench_cli_opts *cli, const char *name, int argc,
		      char **argv);

/** The exit code of pmbench_cli_parse()'s `ret` when not 0. */
int pmbench_cli_parse_exit(int ret);

/**
 * Check `arg` as the kind of row `o` says and land it where the row
 * says (a row of its own kind: its setter). Returns 0 or an error.
 */
int pmbench_cli_apply(struct pmbench_cli_opts *cli,
		      const struct pmbench_option *o, const char *arg);

/**
 * The plan's options (plan.h): of every row the command takes that
 * changes what is measured (no OPT_UNMEASURED), in the table's order, the
 * values given, as given: "name=value" lines to `hashed` (every value)
 * and to `shown` (an `--env` value only when it cannot be a credential).
 * An option not given is in neither: its default is the plan's.
 */
void pmbench_cli_plan_options(const struct pmbench_cli_opts *cli,
			      struct pmbench_strvec *hashed,
			      struct pmbench_strvec *shown);

struct pmbench_result;

/**
 * Set the plan of `r`, a bench's result, from its own options and the
 * plan's options of `cli`: its id (plan.h) and `plan_options` (those
 * shown); a shard also records its machine (hashed).
 */
void pmbench_cli_mark_plan(struct pmbench_result *r,
			   const struct pmbench_cli_opts *cli);

/** Whether option `name` was given on the command line parsed. */
int pmbench_cli_given(const struct pmbench_cli_opts *cli, const char *name);

/*
 * The setters of the options that are not of a generic kind, each with
 * the command it belongs to.
 */
int pmbench_cli_set_runs(struct pmbench_cli_opts *cli,
			 const struct pmbench_option *o, const char *arg);
int pmbench_cli_set_scenarios(struct pmbench_cli_opts *cli,
			      const struct pmbench_option *o, const char *arg);
int pmbench_cli_set_registry(struct pmbench_cli_opts *cli,
			     const struct pmbench_option *o, const char *arg);
int pmbench_cli_set_link(struct pmbench_cli_opts *cli,
			 const struct pmbench_option *o, const char *arg);
int pmbench_cli_set_no_fs_wait(struct pmbench_cli_opts *cli,
			       const struct pmbench_option *o, const char *arg);
int pmbench_cli_set_columns(struct pmbench_cli_opts *cli,
			    const struct pmbench_option *o, const char *arg);
int pmbench_cli_set_scripts(struct pmbench_cli_opts *cli,
			    const struct pmbench_option *o, const char *arg);
/* cmd_bench.c */
int pmbench_cli_set_tasks(struct pmbench_cli_opts *cli,
			  const struct pmbench_option *o, const char *arg);
int pmbench_cli_set_shard(struct pmbench_cli_opts *cli,
			  const struct pmbench_option *o, const char *arg);
/* cmd_ci_cache.c */
int pmbench_cli_set_strategies(struct pmbench_cli_opts *cli,
			       const struct pmbench_option *o, const char *arg);
int pmbench_cli_set_compressions(struct pmbench_cli_opts *cli,
				 const struct pmbench_option *o,
				 const char *arg);
int pmbench_cli_set_archiver(struct pmbench_cli_opts *cli,
			     const struct pmbench_option *o, const char *arg);
int pmbench_cli_set_bandwidth(struct pmbench_cli_opts *cli,
			      const struct pmbench_option *o, const char *arg);
/* cmd_migrate.c */
int pmbench_cli_set_migrate_tasks(struct pmbench_cli_opts *cli,
				  const struct pmbench_option *o,
				  const char *arg);
int pmbench_cli_set_choose(struct pmbench_cli_opts *cli,
			   const struct pmbench_option *o, const char *arg);
/* cmd_workflow.c */
int pmbench_cli_set_runner(struct pmbench_cli_opts *cli,
			   const struct pmbench_option *o, const char *arg);
int pmbench_cli_set_container(struct pmbench_cli_opts *cli,
			      const struct pmbench_option *o, const char *arg);
int pmbench_cli_set_cron(struct pmbench_cli_opts *cli,
			 const struct pmbench_option *o, const char *arg);
int pmbench_cli_set_history_dir(struct pmbench_cli_opts *cli,
				const struct pmbench_option *o,
				const char *arg);

/**
 * The checks of bench's options against each other (cmd_bench.c), for
 * bench and for workflow's shards: --probe needs the dev task, --edits
 * the hmr task. Prints the error and returns -1.
 */
int pmbench_cli_check_bench(const struct pmbench_cli_opts *cli);

/* Documentation (help.c, completion.c) */

/**
 * Append `text` to `out` with its {placeholders} filled in: {pms},
 * {formats}, {columns}, {tasks}, {parity_tasks}, {timed_tasks} (lists
 * joined as the text needs them), {task_table}, {format_table} (lines
 * for a paragraph kept as it is) and {exits} (every exit code).
 */
void pmbench_cli_expand(struct pmbench_buf *out, const char *text);

/** Append the help of `c` (`pmbench help NAME`) to `out`. */
void pmbench_cli_help(struct pmbench_buf *out,
		      const struct pmbench_cli_command *c);

/** Append the man page of `c` (roff, section 1) to `out`. */
void pmbench_cli_man(struct pmbench_buf *out,
		     const struct pmbench_cli_command *c);

/** The shells pmbench_cli_completion() writes for. */
enum pmbench_cli_shell { SHELL_BASH, SHELL_ZSH, SHELL_FISH };

/** Append the completion script for `shell` to `out`. */
void pmbench_cli_completion(struct pmbench_buf *out,
			    enum pmbench_cli_shell shell);

#endif
