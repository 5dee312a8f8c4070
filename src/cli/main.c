#include "pmbench/common.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "cli.h"
#include "pmbench/ctx.h"
#include "pmbench/proc.h"
#include "pmbench/reaper.h"

struct pmbench_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct pmbench_cmd cmds[] = {
	{ "bench", cmd_bench,
	  "Time installs, run, build and dev-server start on fixtures" },
	{ "fixtures", cmd_fixtures, "List the fixture manifests" },
	{ "pms", cmd_pms,
	  "Show each package manager found, its path and version" },
	{ "migrate", cmd_migrate,
	  "Evaluate moving a repo to other package managers" },
	{ "report", cmd_report,
	  "Write a result as a table, Markdown, CSV, JSON or HTML" },
	{ "compare", cmd_compare, "Compare two results cell by cell" },
	{ "claim", cmd_claim,
	  "Check a claim such as 'bun is 20x faster than npm'" },
	{ "ci-cache", cmd_ci_cache,
	  "Measure what caching the store or node_modules saves in CI" },
	{ "merge", cmd_merge,
	  "Pool the shards of a benchmark into one result" },
	{ "history", cmd_history,
	  "Medians over time per fixture, task, scenario and PM" },
	{ "workflow", cmd_workflow,
	  "Write a GitHub Actions workflow that shards a benchmark" },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: pmbench [--cache-dir DIR] [--fixtures-dir DIR] "
		     "<command> [<args>]\n"
		     "\n"
		     "How much faster would this repo be with another package "
		     "manager?\n"
		     "\n"
		     "Commands:\n");
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(cmds); i++)
		fprintf(out, "  %-10s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(out,
		"\n"
		"Global options:\n"
		"  --cache-dir DIR     pmbench's work folder (default: the "
		"source tree's\n"
		"                      cache/, or $PMBENCH_CACHE_DIR)\n"
		"  --fixtures-dir DIR  where manifests are looked up (default: "
		"fixtures/,\n"
		"                      or $PMBENCH_FIXTURES_DIR)\n"
		"  --version           print pmbench's version\n"
		"  -h, --help          this help; 'pmbench <command> --help' "
		"for a command\n"
		"\n"
		"Exit status: 0 ok, 1 error, 2 finished but some runs failed, "
		"3 claim not\n"
		"reproduced, 4 claim inconclusive, 129 usage, 130 "
		"interrupted.\n");
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

int main(int argc, char **argv)
{
	const char *cache_dir = NULL, *fixtures_dir = NULL;
	const struct pmbench_cmd *cmd = NULL;
	int i, code;

	if (setup_process() < 0) {
		fprintf(stderr, "pmbench: error: %s\n", pmbench_error_last());
		return PMBENCH_EXIT_ERROR;
	}
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return finish_stdout(0);
		} else if (!strcmp(a, "--version")) {
			printf("pmbench %s\n", PMBENCH_VERSION);
			return finish_stdout(0);
		} else if ((!strcmp(a, "--cache-dir") ||
			    !strcmp(a, "--fixtures-dir")) &&
			   i + 1 < argc) {
			if (!strcmp(a, "--cache-dir"))
				cache_dir = argv[++i];
			else
				fixtures_dir = argv[++i];
		} else if (!strncmp(a, "--cache-dir=", 12)) {
			cache_dir = a + 12;
		} else if (!strncmp(a, "--fixtures-dir=", 15)) {
			fixtures_dir = a + 15;
		} else {
			fprintf(stderr, "pmbench: unknown option '%s'\n", a);
			usage(stderr);
			return PMBENCH_EXIT_USAGE;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return PMBENCH_EXIT_USAGE;
	}
	if (!strcmp(argv[i], "help")) {
		if (i + 1 >= argc) {
			usage(stdout);
			return finish_stdout(0);
		}
		/* "pmbench help bench" is "pmbench bench --help". */
		argv[i] = argv[i + 1];
		argv[i + 1] = "--help";
	}
	for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(cmds); k++)
		if (!strcmp(cmds[k].name, argv[i]))
			cmd = &cmds[k];
	if (!cmd) {
		fprintf(stderr,
			"pmbench: '%s' is not a pmbench command; see 'pmbench "
			"--help'\n",
			argv[i]);
		return PMBENCH_EXIT_USAGE;
	}
	if (pmbench_config_resolve(cache_dir, fixtures_dir) < 0) {
		fprintf(stderr, "pmbench: error: %s\n", pmbench_error_last());
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
