/*
 * `--registry local|live` and `--link RTT,BANDWIDTH`, shared by bench,
 * claim, migrate and ci-cache: one registry per process, started by the
 * engine when the first PM is primed and stopped by main() whatever
 * happened (a normal end, a failure, a stop signal).
 */
#include "pmbench/common.h"

#include <stdio.h>

#include "cli.h"
#include "pmbench/ctx.h"
#include "pmbench/registry.h"

struct pmbench_registry pmbench_cli_registry = PMBENCH_REGISTRY_INIT;

int pmbench_cli_registry_init(void)
{
	const char *mode = getenv("PMBENCH_REGISTRY");
	const char *verdaccio = getenv("PMBENCH_VERDACCIO");

	if (mode && *mode &&
	    pmbench_registry_parse_mode(&pmbench_cli_registry.mode, mode) < 0) {
		fprintf(stderr, "pmbench: error: PMBENCH_REGISTRY: %s\n",
			pmbench_error_last());
		return -1;
	}
	if (verdaccio && *verdaccio)
		pmbench_cli_registry.verdaccio = verdaccio;
	pmbench_cli_ctx.registry = &pmbench_cli_registry;
	return 0;
}

int pmbench_cli_registry_option(const char *cmd, int c, const char *arg)
{
	int ret;

	if (c == PMBENCH_CLI_OPT_REGISTRY)
		ret = pmbench_registry_parse_mode(&pmbench_cli_registry.mode,
						  arg);
	else if (c == PMBENCH_CLI_OPT_LINK)
		ret = pmbench_link_parse(&pmbench_cli_registry.link, arg);
	else if (c == PMBENCH_CLI_OPT_NO_FS_WAIT) {
		pmbench_cli_ctx.no_fs_wait = 1;
		ret = 0;
	} else
		return 0;
	if (ret < 0) {
		fprintf(stderr, "pmbench: %s: %s\n", cmd, pmbench_error_last());
		return -1;
	}
	return 1;
}

int pmbench_cli_registry_check(const char *cmd)
{
	if (pmbench_cli_registry.mode == PMBENCH_REGISTRY_LIVE &&
	    !pmbench_link_none(&pmbench_cli_registry.link)) {
		fprintf(stderr,
			"pmbench: %s: '--link' needs the local registry "
			"mirror; drop '--registry live' or '--link'\n",
			cmd);
		return -1;
	}
	return 0;
}

void pmbench_cli_registry_help(FILE *out, int col)
{
	fprintf(out,
		"  --registry MODE%*slocal (default): a verdaccio mirror on "
		"127.0.0.1,\n"
		"%*sfilled while priming, sealed for the timed runs;\n"
		"%*slive: your npm config's registry ($PMBENCH_REGISTRY)\n"
		"  --link RTT,BW%*san emulated link to the mirror, e.g. "
		"50ms,200mbit,\n"
		"%*sone cap shared by all connections (default: none)\n"
		"  --no-fs-wait%*stime at once even while the file system is\n"
		"%*sstill slowed by pmbench's last large deletion (ext4\n"
		"%*swithout a journal: up to 6 min; default: wait)\n",
		col - 17, "", col, "", col, "", col - 15, "", col, "", col - 14,
		"", col, "", col, "");
}

int pmbench_cli_registry_stop(int code)
{
	if (pmbench_registry_stop(&pmbench_cli_registry) < 0) {
		fprintf(stderr, "pmbench: error: %s\n", pmbench_error_last());
		if (code == 0 || code == PMBENCH_EXIT_FAILED_RUNS)
			code = PMBENCH_EXIT_ERROR;
	}
	pmbench_registry_release(&pmbench_cli_registry);
	return code;
}
