/*
 * How pmbench measures and what reached the PMs, into a result's
 * environment (environment.h), beside the machine (sysinfo.c): the
 * timer, CPU, memory and work counters, the network and the registry,
 * the file system, the user's ~/.npmrc, the inherited PM variables, the
 * resolver, the Node on the PMs' PATH.
 */
#include "pmbench/common.h"

#include "pmbench/ctx.h"
#include "pmbench/environment.h"
#include "pmbench/fs.h"
#include "pmbench/node.h"
#include "pmbench/pm.h"
#include "pmbench/proc.h"
#include "pmbench/reaper.h"
#include "pmbench/registry.h"
#include "pmbench/result.h"

static void record_node(struct pmbench_ctx *ctx, struct pmbench_result *r,
			const char *scratch)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf v = PMBENCH_BUF_INIT, path = PMBENCH_BUF_INIT;

	pmbench_strvec_push(&c.args, "node");
	pmbench_strvec_push(&c.args, "--version");
	pmbench_node_path_env(&c.env, ctx, NULL);
	c.dir = scratch;
	c.ctx = ctx;
	c.timeout_ns = 30ull * 1000000000ull;
	if (!pmbench_child_run(&c) && c.result.exit_code == 0) {
		pmbench_child_tail_lines(&c, 1, &v);
		pmbench_result_env_set(r, "node_version", v.ptr);
	} else {
		pmbench_result_env_set(r, "node_version", "not found");
	}
	if (!pmbench_proc_which(&path, "node",
				pmbench_env_get(&c.env, "PATH")
					? pmbench_env_get(&c.env, "PATH")
					: getenv("PATH")))
		pmbench_result_env_set(r, "node_path", path.ptr);
	pmbench_result_env_set(r, "node_source",
			       ctx->node_dir
				       ? "the pinned toolchain's, first on "
					 "every PM's PATH, unless --node "
					 "or the repo asks for another "
					 "(each fixture's and cell's "
					 "'node' says which and why)"
				       : "the machine's PATH (none "
					 "pinned)");
	pmbench_child_release(&c);
	pmbench_buf_release(&v);
	pmbench_buf_release(&path);
}

extern char **environ;

/*
 * How names are resolved: a resolver that drops some of many parallel
 * lookups makes glibc wait its 5 s timeout, which shows as install times
 * in whole multiples of 5 s. Addresses are not recorded, only counts.
 */
static void record_resolver(struct pmbench_result *r)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;
	unsigned servers = 0;
	const char *line;

	if (pmbench_fs_read(&text, "/etc/resolv.conf", 1u << 16) < 0) {
		pmbench_error_clear();
		pmbench_result_env_set(r, "resolver", "no /etc/resolv.conf");
		goto done;
	}
	line = text.ptr;
	while (*line) {
		size_t n = strcspn(line, "\n");

		if (!strncmp(line, "nameserver", 10))
			servers++;
		else if (!strncmp(line, "options", 7))
			pmbench_buf_addf(&b, "%s%.*s", b.len ? "; " : "",
					 (int)(n > 120 ? 120 : n), line);
		line += n;
		if (*line == '\n')
			line++;
	}
	pmbench_buf_reset(&text);
	pmbench_buf_addf(&text, "%u nameserver%s; %s", servers,
			 servers == 1 ? "" : "s",
			 b.len ? b.ptr
			       : "no options (5 s timeout, A and AAAA "
				 "queries in parallel)");
	pmbench_result_env_set(r, "resolver", text.ptr);
done:
	pmbench_buf_release(&text);
	pmbench_buf_release(&b);
}

/*
 * Which of the caller's variables reached the PMs and may change what
 * they do. Names only: values can hold registry tokens.
 */
static void record_inherited(struct pmbench_result *r)
{
	struct pmbench_strvec names = PMBENCH_STRVEC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (char **e = environ; e && *e; e++) {
		pmbench_buf_reset(&b);
		pmbench_buf_add(&b, *e, strcspn(*e, "="));
		if (pmbench_pm_env_related(b.ptr))
			pmbench_strvec_push(&names, b.ptr);
	}
	pmbench_strvec_sort(&names, 0);
	pmbench_buf_reset(&b);
	pmbench_strvec_join(&b, &names, " ");
	pmbench_result_env_set(r, "inherited_pm_vars",
			       names.nr ? b.ptr : "none");
	pmbench_strvec_release(&names);
	pmbench_buf_release(&b);
}

/*
 * The file system under the work folder, where every run happens:
 * "filesystem" in the result, and what it changes for any run.
 */
static void record_filesystem(struct pmbench_ctx *ctx, struct pmbench_result *r)
{
	struct pmbench_fs_mount m = PMBENCH_FS_MOUNT_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *note;

	if (!ctx || !ctx->cache_dir || pmbench_fs_mount(&m, ctx->cache_dir)) {
		pmbench_result_env_set(r, "filesystem", "unknown");
		goto done;
	}
	pmbench_fs_mount_describe(&b, &m);
	pmbench_result_env_set(r, "filesystem", b.ptr);
	note = pmbench_pm_fs_note(NULL, m.type.ptr);
	if (note)
		pmbench_result_env_set(r, "filesystem_note", note);
done:
	pmbench_fs_mount_release(&m);
	pmbench_buf_release(&b);
}

/*
 * How the work counters count, or why they do not: into the result, and
 * said once on stderr when instructions cannot be counted.
 */
static void record_work_env(struct pmbench_ctx *ctx, struct pmbench_result *r)
{
	const char *why = pmbench_proc_work_why(PMBENCH_WORK_INSTRUCTIONS);
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (why) {
		pmbench_buf_addf(&b, "not counted: %s", why);
		pmbench_ctx_note(ctx, "CPU instructions are not counted: %s",
				 why);
	} else {
		pmbench_buf_addf(
			&b,
			"perf_event_open instructions%s of the PM's "
			"whole process tree (inherited by every "
			"child), from its exec to the last process's "
			"exit",
			pmbench_proc_work_user_only(PMBENCH_WORK_INSTRUCTIONS)
				? ":u (user space only: "
				  "perf_event_paranoid forbids "
				  "more)"
				: "");
	}
	pmbench_result_env_set(r, "instructions", b.ptr);
	pmbench_buf_reset(&b);
	why = pmbench_proc_work_why(PMBENCH_WORK_TASK_CLOCK);
	if (why)
		pmbench_buf_addf(&b, "not counted: %s", why);
	else
		pmbench_buf_adds(&b, "perf_event_open task-clock of the PM's "
				     "whole process tree: CPU time, kernel "
				     "included, of every process, waited for "
				     "or not (rusage has only those waited "
				     "for)");
	pmbench_result_env_set(r, "task_clock", b.ptr);
	pmbench_buf_release(&b);
}

/* Whether the user's ~/.npmrc reaches the PMs (a copy in their HOME). */
static void record_npmrc(struct pmbench_result *r)
{
	const char *home = getenv("HOME");
	struct pmbench_buf p = PMBENCH_BUF_INIT;

	if (home)
		pmbench_buf_path(&p, home, ".npmrc");
	pmbench_result_env_set(r, "npmrc",
			       home && pmbench_fs_isfile(p.ptr)
				       ? "the user's ~/.npmrc, copied into "
					 "each PM's own HOME"
				       : "none");
	pmbench_buf_release(&p);
}

void pmbench_environment_record(struct pmbench_ctx *ctx,
				struct pmbench_result *r, const char *scratch)
{
	record_filesystem(ctx, r);
	pmbench_result_env_set(r, "timer", "CLOCK_MONOTONIC, spawn to exit");
	pmbench_result_env_set(r, "cpu_time",
			       "wait4 rusage of the PM and "
			       "the descendants it waited for");
	pmbench_result_env_set(r, "max_rss",
			       "ru_maxrss: the largest single process");
	record_work_env(ctx, r);
	pmbench_result_env_set(r, "tree_rss",
			       "peak of the summed RSS (/proc/<pid>/statm) of "
			       "the PM's process tree, sampled every 25 ms "
			       "from 25 ms on");
	pmbench_result_env_set(r, "network",
			       ctx && ctx->registry &&
					       ctx->registry->mode ==
						       PMBENCH_REGISTRY_LOCAL
				       ? "local registry mirror on 127.0.0.1 "
					 "(registry_mirror, link)"
				       : "live npm registry");
	pmbench_registry_record(ctx ? ctx->registry : NULL, r);
	pmbench_result_env_set(r, "run_order",
			       "rounds interleave the PMs; the order rotates "
			       "by one each round");
	pmbench_result_env_set(r, "between_runs",
			       "the file system is synced (syncfs) before "
			       "every timed run; trees removed by a reset go "
			       "to a trash folder, deleted after the last run, "
			       "so that no run creates files among inodes "
			       "freed moments before");
	pmbench_result_env_set(r, "process_cleanup", pmbench_reaper_describe());
	pmbench_result_env_set(r, "runtime_cache",
			       "Node's compile cache (and yarn 1's "
			       "v8-compile-cache) in the PM's temp folder: "
			       "warm where the PM's cache is warm and in "
			       "task runs, kept from run to run; cold in the "
			       "others; locks and the rest of the temp folder "
			       "removed before every run");
	record_npmrc(r);
	record_inherited(r);
	record_resolver(r);
	record_node(ctx, r, scratch);
}
