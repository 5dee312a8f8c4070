/*
 * `pmbench wait`: wait until the detached deleter of the work folder
 * (deleter.h) is done, so that a script may unmount or remove the
 * folder after a command returned.
 */
#include "pmbench/common.h"

#include <signal.h>

#include "cli.h"
#include "options.h"
#include "pmbench/deleter.h"
#include "pmbench/proc.h"

/* How often the deleter's lock is looked at. */
#define WAIT_POLL_NS (50ull * 1000000ull)

/*
 * Until no deleter holds the lock of the work folder and the last one
 * seen is gone (its lock goes as its files close, a moment before the
 * process). Someone waits: it is given the normal I/O priority back.
 */
static pid_t wait_deleter(const char *cache_dir, uint64_t *waited_ns)
{
	uint64_t start = pmbench_now_ns();
	pid_t pid, seen = 0;

	while ((pid = pmbench_deleter_running(cache_dir)) != 0 ||
	       (seen > 0 && kill(seen, 0) == 0)) {
		if (pid > 0 && pid != seen) {
			seen = pid;
			pmbench_deleter_hurry(pid);
		}
		pmbench_sleep_ns(WAIT_POLL_NS);
	}
	*waited_ns = pmbench_now_ns() - start;
	return seen;
}

int cmd_wait(int argc, char **argv)
{
	struct pmbench_cli_opts cli = PMBENCH_CLI_OPTS_INIT;
	uint64_t waited = 0;
	pid_t pid;
	int code = pmbench_cli_parse(&cli, "wait", argc, argv);

	if (!code && cli.optind < argc)
		code = pmbench_cli_usage_error("wait", "takes no operand; the "
						       "work folder is "
						       "--cache-dir's");
	if (code) {
		code = pmbench_cli_parse_exit(code);
		goto done;
	}
	pid = wait_deleter(pmbench_config.cache_dir, &waited);
	if (pid)
		fprintf(stderr,
			"pmbench: waited %.1f s for the deleter (pid %ld) of "
			"%s\n",
			(double)waited / 1e9, (long)pid,
			pmbench_config.cache_dir);
	code = PMBENCH_EXIT_OK;
done:
	pmbench_cli_opts_release(&cli);
	return code;
}
