#include "pmbench/common.h"

#include "pmbench/adaptive.h"
#include "pmbench/buf.h"
#include "pmbench/cli.h"
#include "pmbench/fs.h"

#ifndef PMBENCH_DEFAULT_CACHE_DIR
#define PMBENCH_DEFAULT_CACHE_DIR "cache"
#endif
#ifndef PMBENCH_DEFAULT_FIXTURES_DIR
#define PMBENCH_DEFAULT_FIXTURES_DIR "fixtures"
#endif

struct pmbench_config pmbench_config;

static char *pick(const char *given, const char *var, const char *def)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *v = given;

	if (!v || !*v)
		v = getenv(var);
	if (!v || !*v)
		v = def;
	pmbench_fs_abspath(&b, v);
	return pmbench_buf_detach(&b);
}

int pmbench_config_resolve(const char *cache_dir, const char *fixtures_dir)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int ret;

	pmbench_config_release();
	pmbench_config.cache_dir =
		pick(cache_dir, "PMBENCH_CACHE_DIR", PMBENCH_DEFAULT_CACHE_DIR);
	pmbench_config.fixtures_dir = pick(fixtures_dir, "PMBENCH_FIXTURES_DIR",
					   PMBENCH_DEFAULT_FIXTURES_DIR);
	pmbench_buf_path(&b, pmbench_config.cache_dir, "toolchain");
	pmbench_config.toolchain_dir =
		pick(NULL, "PMBENCH_TOOLCHAIN_DIR", b.ptr);
	pmbench_buf_release(&b);

	ret = pmbench_fs_mkdirp(pmbench_config.cache_dir, 0755);
	if (ret < 0) {
		pmbench_error_prefix("cannot use cache folder '%s' (set "
				     "--cache-dir or PMBENCH_CACHE_DIR)",
				     pmbench_config.cache_dir);
		return ret;
	}
	return pmbench_fs_set_sandbox(pmbench_config.cache_dir);
}

void pmbench_config_release(void)
{
	free(pmbench_config.cache_dir);
	free(pmbench_config.fixtures_dir);
	free(pmbench_config.toolchain_dir);
	memset(&pmbench_config, 0, sizeof(pmbench_config));
}

int pmbench_cli_fail(int code)
{
	if (code == PMBENCH_EINTERRUPTED) {
		fprintf(stderr, "pmbench: interrupted\n");
		return PMBENCH_EXIT_INTERRUPTED;
	}
	fprintf(stderr, "pmbench: error: %s\n", pmbench_error_last());
	return PMBENCH_EXIT_ERROR;
}

int pmbench_cli_parse_auto(struct pmbench_adaptive_opts *o, const char *opt,
			   const char *value, const char *cmd)
{
	uint64_t n;
	char *end = NULL;
	double pct;

	if (!strcmp(opt, "--target")) {
		errno = 0;
		pct = strtod(value, &end);
		if (end == value || (*end && strcmp(end, "%")) || errno ||
		    !(pct > 0 && pct <= 100)) {
			fprintf(stderr,
				"pmbench: %s: '--target' must be a percentage "
				"above 0 and at most 100, such as 5 or 2.5%%, "
				"got '%s'\n",
				cmd, value);
			return -1;
		}
		o->target = pct / 100;
	} else if (!strcmp(opt, "--max-runs")) {
		if (pmbench_parse_u64(&n, value) < 0 || n < o->min_runs ||
		    n > 100000) {
			fprintf(stderr,
				"pmbench: %s: '--max-runs' must be a whole "
				"number from %u to 100000, got '%s'\n",
				cmd, o->min_runs, value);
			return -1;
		}
		o->max_runs = (unsigned)n;
	} else {
		if (pmbench_parse_duration(&o->budget_ns, value) < 0 ||
		    !o->budget_ns) {
			fprintf(stderr,
				"pmbench: %s: '--time-budget' must be a "
				"duration such as 90s or 10m, got '%s'\n",
				cmd, value);
			return -1;
		}
	}
	return 0;
}
