/*
 * pmbench's main(): the program's own options, the signals, the
 * registry, and the command run.
 */
#include "pmbench/common.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "cli.h"
#include "options.h"
#include "pmbench/ctx.h"
#include "pmbench/deleter.h"
#include "pmbench/proc.h"
#include "pmbench/reaper.h"

/* The help of `c` to `out`. */
static void usage(FILE *out, const struct pmbench_cli_command *c)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_cli_help(&b, c);
	fwrite(b.ptr, 1, b.len, out);
	pmbench_buf_release(&b);
}

/* Fail if stdout could not be written (a full disk, a closed pipe). */
static int finish_stdout(int code)
{
	if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
		if (code == 0)
			fprintf(stderr, "pmbench: error: cannot write to "
					"standard output\n");
		return code ? code : PMBENCH_EXIT_ERROR;
	}
	return code;
}

/*
 * The signals that stop a benchmark, all the same way: Ctrl-C, the
 * caller's SIGTERM (timeout, a supervisor), a closed terminal and Ctrl-\.
 * Left to their default action they would kill pmbench at once, leaving
 * escaped descendants running and no result written. The engine is told
 * through its context and stops its children's trees itself; the process
 * groups get SIGTERM at once.
 */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static void on_stop(int sig)
{
	if (pmbench_ctx_cancelled(&pmbench_cli_ctx)) {
		/*
		 * Already stopping. A second Ctrl-C or Ctrl-\ is a user who
		 * will not wait: stop at once, the default way. A repeated
		 * SIGHUP (the kernel's, then the shell's passing it on) or
		 * SIGTERM must not cut the cleanup short.
		 */
		if (sig == SIGINT || sig == SIGQUIT) {
			/* The groups; escaped ones cannot be found here. */
			pmbench_proc_signal_live(SIGKILL);
			signal(sig, SIG_DFL);
			raise(sig);
		}
		return;
	}
	pmbench_ctx_cancel(&pmbench_cli_ctx, sig);
	pmbench_proc_signal_live(SIGTERM);
}

/*
 * Process set-up, once: fds 0-2 open (so no file pmbench opens lands
 * there), SIGPIPE ignored, the reaper (forked here, before any thread and
 * before any handler of ours, and before the engine's exit handler is
 * registered, so that its own runs after it: the children's groups are
 * killed first, then the supervisor sweeps and is reaped), the engine's
 * child handling, pmbench as the subreaper of whatever its children
 * leave, and the stop signals.
 */
static int setup_process(void)
{
	struct sigaction sa;
	int fd;

	for (;;) {
		fd = open("/dev/null", O_RDWR);
		if (fd < 0)
			return pmbench_error_set("cannot open /dev/null: %s",
						 strerror(errno));
		if (fd > 2) {
			close(fd);
			break;
		}
	}
	signal(SIGPIPE, SIG_IGN);
	if (pmbench_reaper_start() < 0)
		fprintf(stderr,
			"pmbench: warning: %s; if pmbench is killed, "
			"processes that left their group may keep running\n",
			pmbench_error_last());
	if (pmbench_proc_init() < 0)
		return -1;
	if (pmbench_proc_subreaper() < 0)
		fprintf(stderr,
			"pmbench: warning: %s; processes a PM leaves "
			"behind may escape\n",
			pmbench_error_last());
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocking call returns EINTR so we notice. */
	sa.sa_handler = on_stop;
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(stop_signals); i++)
		sigaction(stop_signals[i], &sa, NULL);
	return 0;
}

/*
 * `pmbench help [COMMAND]`: the help of the command, or pmbench's own.
 * Returns the exit code.
 */
static int help(int argc, char **argv)
{
	const struct pmbench_cli_command *c =
		argc > 1 ? pmbench_cli_command_get(argv[1])
			 : &pmbench_cli_program;

	if (!c) {
		pmbench_cli_line(stderr,
				 "pmbench: '%s' is not a pmbench command; "
				 "see 'pmbench --help'",
				 argv[1]);
		return PMBENCH_EXIT_USAGE;
	}
	usage(stdout, c);
	return PMBENCH_EXIT_OK;
}

/* Everything after the top-level options are read. */
static int run(const struct pmbench_cli_opts *cli, int argc, char **argv)
{
	const struct pmbench_cli_command *cmd = NULL;
	int i, code;

	if (cli->version) {
		printf("pmbench %s\n", PMBENCH_VERSION);
		return finish_stdout(0);
	}
	i = cli->optind;
	if (i >= argc) {
		usage(stderr, &pmbench_cli_program);
		return PMBENCH_EXIT_USAGE;
	}
	if (!strcmp(argv[i], "help"))
		return finish_stdout(help(argc - i, argv + i));
	cmd = pmbench_cli_command_get(argv[i]);
	if (!cmd || !cmd->fn) {
		pmbench_cli_line(stderr,
				 "pmbench: '%s' is not a pmbench command; "
				 "see 'pmbench --help'",
				 argv[i]);
		return PMBENCH_EXIT_USAGE;
	}
	if (pmbench_config_resolve(cli->cache_dir, cli->fixtures_dir) < 0) {
		pmbench_cli_error(NULL);
		return PMBENCH_EXIT_ERROR;
	}
	if (pmbench_cli_registry_init() < 0)
		return PMBENCH_EXIT_ERROR;
	code = cmd->fn(argc - i, argv + i);
	/* The mirror and its relay end with the command, whatever it did. */
	code = pmbench_cli_registry_stop(code);
	pmbench_config_release();
	pmbench_ctx_release(&pmbench_cli_ctx);
	return finish_stdout(code);
}

int main(int argc, char **argv)
{
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	int code;

	pmbench_deleter_title_area(argv, argc);
	if (setup_process() < 0) {
		pmbench_cli_error(NULL);
		return PMBENCH_EXIT_ERROR;
	}
	code = pmbench_cli_parse(&cli, "pmbench", argc, argv);
	if (code)
		code = finish_stdout(pmbench_cli_parse_exit(code));
	else
		code = run(&cli, argc, argv);
	/* What the top-level options collected (the pass-through list). */
	pmbench_cli_opts_release(&cli);
	return code;
}
