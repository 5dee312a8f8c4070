/*
 * The registry of bench, claim, migrate and ci-cache (--registry and
 * --link are rows of options.c): one per process, started by the engine
 * when the first PM is primed and stopped by main() whatever happened (a
 * normal end, a failure, a stop signal).
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
		pmbench_cli_error("PMBENCH_REGISTRY");
		return -1;
	}
	if (verdaccio && *verdaccio)
		pmbench_cli_registry.verdaccio = verdaccio;
	pmbench_cli_ctx.registry = &pmbench_cli_registry;
	return 0;
}

int pmbench_cli_registry_stop(int code)
{
	if (pmbench_registry_stop(&pmbench_cli_registry) < 0) {
		pmbench_cli_error(NULL);
		if (code == 0 || code == PMBENCH_EXIT_FAILED_RUNS)
			code = PMBENCH_EXIT_ERROR;
	}
	pmbench_registry_release(&pmbench_cli_registry);
	return code;
}
