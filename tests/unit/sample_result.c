/*
 * The synthetic result committed as tests/data/sample-result.json
 * (sample_result.h): built by unit_result, which checks the committed
 * file against it, and by write_sample, the separate step that
 * regenerates the file.
 */
#include "pmbench/common.h"

#include "pmbench/buf.h"
#include "pmbench/result.h"
#include "pmbench/strvec.h"
#include "sample_result.h"

/* A deterministic pseudo-random sequence (Knuth's MMIX LCG). */
static uint64_t lcg_state;

void sample_lcg_seed(uint64_t seed)
{
	lcg_state = seed;
}

uint64_t sample_lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005u + 1442695040888963407u;
	return lcg_state >> 11;
}

/* `base` scaled by a factor in [1 - spread, 1 + spread). */
static uint64_t jitter(uint64_t base, double spread)
{
	double u = (double)(sample_lcg() % 1000000) / 1e6;

	return (uint64_t)((double)base * (1.0 - spread + 2.0 * spread * u));
}

static const char *const sample_pms[] = { "npm", "pnpm", "bun" };
static const char *const sample_scenarios[] = { "clean", "cache+lockfile" };

static void sample_cell(struct pmbench_cell *c, size_t pmi, size_t sci,
			uint64_t *clock_ms)
{
	/* Typical seconds for each (scenario, PM) and node_modules sizes. */
	static const double base_s[2][3] = { { 14.2, 9.8, 3.1 },
					     { 6.9, 2.7, 1.1 } };
	static const uint64_t nm_bytes[3] = { 187301888, 193449984, 181207040 };
	static const uint64_t nm_files[3] = { 14871, 15112, 14790 };
	static const char *const lockfiles[3] = {
		"package-lock.json",
		"pnpm-lock.yaml",
		"bun.lock",
	};
	static const char *const scripts[3] = {
		"allowed (npm runs dependency scripts)",
		"blocked by pnpm's default (esbuild not approved)",
		"blocked by bun's default (not in trustedDependencies)",
	};
	static const char *const env[3] = {
		"npm_config_cache=/tmp/pmbench-4242/cache/npm",
		"npm_config_store_dir=/tmp/pmbench-4242/cache/pnpm-store",
		"BUN_INSTALL_CACHE_DIR=/tmp/pmbench-4242/cache/bun",
	};
	int failing = pmi == 1 && sci == 0;

	pmbench_strvec_push(&c->command, sample_pms[pmi]);
	pmbench_strvec_push(&c->command, "install");
	if (pmi == 0) {
		pmbench_strvec_push(&c->command, "--no-audit");
		pmbench_strvec_push(&c->command, "--no-fund");
	} else if (sci == 1) {
		pmbench_strvec_push(&c->command, "--frozen-lockfile");
	}
	pmbench_strvec_push(&c->env, env[pmi]);
	if (pmi == 0)
		pmbench_strvec_push(&c->env,
				    "npm_config_update_notifier=false");
	if (pmi == 1)
		pmbench_strvec_push(&c->env, "PNPM_HOME");
	if (sci == 0) {
		c->lockfile = pmbench_xstrdup("none (removed before each run)");
	} else {
		struct pmbench_buf b = PMBENCH_BUF_INIT;

		pmbench_buf_addf(&b, "%s (written by the priming run)",
				 lockfiles[pmi]);
		c->lockfile = pmbench_buf_detach(&b);
	}
	c->scripts = pmbench_xstrdup(scripts[pmi]);

	for (unsigned round = 0; round < 6; round++) {
		struct pmbench_sample *s = pmbench_cell_add_sample(c);
		/* The warm-up pays for cold disk caches. */
		double scale = round ? 1.0 : 1.18;
		uint64_t base = (uint64_t)(base_s[sci][pmi] * scale * 1e9);

		s->round = round;
		s->warmup = round == 0;
		s->ok = 1;
		s->wall_ns = jitter(base, 0.04);
		s->user_ns = jitter(base / 10 * 13, 0.05);
		s->sys_ns = jitter(base / 10 * 4, 0.08);
		s->max_rss_kib = jitter(pmi == 2 ? 402000 : 251000, 0.03);
		s->tree_rss_kib = jitter(pmi == 2 ? 455000 : 389000, 0.03);
		s->nm_bytes = nm_bytes[pmi] + sample_lcg() % 4096;
		s->nm_files = nm_files[pmi];
		s->started = (double)*clock_ms / 1e3;
		*clock_ms += s->wall_ns / 1000000 + 2317;
		if (failing && round == 3) {
			s->ok = 0;
			s->exit_code = 1;
			s->wall_ns = jitter(base / 3, 0.04);
			s->user_ns = jitter(base / 3 / 10 * 11, 0.05);
			s->sys_ns = jitter(base / 3 / 10 * 3, 0.08);
			s->tree_rss_kib = jitter(301000, 0.03);
			/* node_modules is measured after good runs only. */
			s->nm_bytes = 0;
			s->nm_files = 0;
			s->failure = pmbench_xstrdup("'pnpm install' exited "
						     "with code 1");
			s->tail = pmbench_xstrdup(
				"Progress: resolved 412, reused 0, "
				"downloaded 398, added 0\n"
				"\xe2\x80\x89"
				"ERR_PNPM_FETCH_503\xe2\x80\x89 GET "
				"https://registry.npmjs.org/@babel%2Fcore: "
				"Service Unavailable - 503\n"
				"\n"
				"This error happened while installing a "
				"direct dependency of /tmp/pmbench-4242/"
				"work/vite-react\n");
		}
	}
}

/* The synthetic result committed as tests/data/sample-result.json. */
void sample_result_build(struct pmbench_result *r)
{
	uint64_t clock_ms = 1796236805000u;

	sample_lcg_seed(1);
	r->pmbench_version = pmbench_xstrdup("0.1.0");
	r->created = pmbench_xstrdup("2026-12-02T18:40:00Z");
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(sample_pms); i++)
		pmbench_strvec_push(&r->pms, sample_pms[i]);
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(sample_scenarios); i++)
		pmbench_strvec_push(&r->scenarios, sample_scenarios[i]);
	pmbench_strvec_push(&r->arguments, "--pm=npm,pnpm,bun");
	pmbench_strvec_push(&r->arguments, "--scenario=clean,cache+lockfile");
	pmbench_strvec_push(&r->tasks, "install");
	r->runs = 5;
	r->warmup = 1;
	r->timeout_ns = 900000000000u;
	r->seed = 1;

	pmbench_result_env_set(r, "os", "Linux");
	pmbench_result_env_set(r, "os_release", "Debian GNU/Linux 13 (trixie)");
	pmbench_result_env_set(r, "kernel", "6.12.57+deb13-amd64");
	pmbench_result_env_set(r, "arch", "x86_64");
	pmbench_result_env_set(r, "cpu_model",
			       "AMD Ryzen 7 7840U w/ Radeon 780M Graphics");
	pmbench_result_env_set(r, "cpu_count", "16");
	pmbench_result_env_set(r, "mem_total_kib", "31997156");
	pmbench_result_env_set(r, "loadavg", "0.41 0.37 0.30");
	pmbench_result_env_set(r, "cpu_governor", "performance");
	/* What the benchmark driver adds after the system information. */
	pmbench_result_env_set(r, "timer", "CLOCK_MONOTONIC, fork to reap");
	pmbench_result_env_set(r, "cpu_time",
			       "wait4 rusage of the PM and the descendants it "
			       "waited for");
	pmbench_result_env_set(r, "max_rss",
			       "ru_maxrss: the largest single process");
	pmbench_result_env_set(r, "tree_rss",
			       "peak of the summed RSS (/proc/<pid>/statm) of "
			       "all descendants, sampled every 25 ms");
	pmbench_result_env_set(r, "network", "live npm registry");
	pmbench_result_env_set(r, "npmrc", "none");
	pmbench_result_env_set(r, "inherited_pm_vars", "none");
	pmbench_result_env_set(r, "node_version", "v22.21.0");
	pmbench_result_env_set(r, "node_path", "/usr/bin/node");

	pmbench_result_add_pm(r, "npm", "/usr/bin/npm", "11.19.1");
	pmbench_result_add_pm(r, "pnpm", "/usr/local/bin/pnpm", "10.24.0");
	pmbench_result_add_pm(r, "bun", "/home/bench/.bun/bin/bun", "1.3.3");

	pmbench_result_add_fixture(
		r, "vite-react", "https://github.com/vitejs/vite.git",
		"8e1ab9a1c0d5f0c4e3b2a7d6f5e4c3b2a1908f7e",
		"packages/create-vite/template-react",
		"Vite's React template: React, Vite and ESLint");

	for (size_t sci = 0; sci < PMBENCH_ARRAY_SIZE(sample_scenarios);
	     sci++) {
		for (size_t pmi = 0; pmi < PMBENCH_ARRAY_SIZE(sample_pms);
		     pmi++) {
			struct pmbench_cell *c = pmbench_result_add_cell(
				r, "vite-react", "install",
				sample_scenarios[sci], sample_pms[pmi]);

			if (pmi == 2 && sci == 1) {
				c->prime_failure = pmbench_xstrdup(
					"priming run 'bun install' exited "
					"with code 1: error: "
					"esbuild@0.25.12 failed to download "
					"(ECONNRESET)");
				pmbench_strvec_push(&c->command, "bun");
				pmbench_strvec_push(&c->command, "install");
				pmbench_strvec_push(&c->command,
						    "--frozen-lockfile");
				continue;
			}
			sample_cell(c, pmi, sci, &clock_ms);
		}
	}
}
