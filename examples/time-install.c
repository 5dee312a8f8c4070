/*
 * time-install: time one install of a project with a package manager,
 * with the pmbench engine alone (its public headers, no cli, no report).
 *
 *	time-install /path/to/project npm
 *
 * The PM is found on PATH and installs in the project itself, with its
 * caches, HOME and temp folder in a new folder under /tmp (a cold cache),
 * removed afterwards. Ctrl-C stops the install, tree and all.
 */
#include "pmbench/common.h"

#include <signal.h>
#include <unistd.h>

#include "pmbench/ctx.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/pmfind.h"
#include "pmbench/proc.h"

static struct pmbench_ctx ctx = PMBENCH_CTX_INIT;

static void on_interrupt(int sig)
{
	pmbench_ctx_cancel(&ctx, sig);
	pmbench_proc_signal_live(SIGTERM);
}

static int time_install(const char *dir, const struct pmbench_pm *pm,
			const char *cache)
{
	struct pmbench_pm_found found = PMBENCH_PM_FOUND_INIT;
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf how = PMBENCH_BUF_INIT, path = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_addf(&path, "%s/tmp", cache);
	ret = pmbench_fs_mkdirp(path.ptr, 0755);
	if (!ret)
		ret = pmbench_pm_find(&found, &ctx, pm, getenv("PATH"), cache);
	if (ret < 0)
		goto done;
	pmbench_strvec_push(&c.args, found.path);
	pmbench_pm_push_args(&c.args, pm->install_args, cache);
	pmbench_pm_env(&c.env, pm, cache);
	c.dir = dir;
	c.ctx = &ctx;
	c.flags = PMBENCH_CHILD_SAMPLE_TREE;
	ret = pmbench_child_run(&c);
	if (ret < 0)
		goto done;
	pmbench_child_describe(&c, &how);
	printf("%s %s: %.3f s, %s, tree RSS %.1f MiB, %d left running\n",
	       pm->name, found.version, (double)c.result.wall_ns / 1e9, how.ptr,
	       (double)c.result.tree_rss_kib / 1024, c.result.leftover);
	ret = c.result.exit_code == 0 ? 0 : 2;
done:
	pmbench_child_release(&c);
	pmbench_pm_found_release(&found);
	pmbench_buf_release(&how);
	pmbench_buf_release(&path);
	return ret;
}

int main(int argc, char **argv)
{
	const struct pmbench_pm *pm = argc == 3 ? pmbench_pm_get(argv[2])
						: NULL;
	char cache[] = "/tmp/time-install-XXXXXX";
	struct sigaction sa;
	int ret;

	if (!pm) {
		fprintf(stderr, "usage: time-install DIR npm|yarn|yarn-berry|"
				"pnpm|bun|deno\n");
		return 129;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	if (!mkdtemp(cache))
		pmbench_die("cannot make a folder in /tmp: %s",
			    strerror(errno));
	ctx.cache_dir = cache;
	ret = pmbench_ctx_init(&ctx);
	if (!ret)
		ret = pmbench_proc_init();
	if (!ret)
		ret = pmbench_proc_subreaper();
	if (!ret)
		ret = time_install(argv[1], pm, cache);
	if (ret < 0 && ret != PMBENCH_EINTERRUPTED)
		fprintf(stderr, "time-install: error: %s\n",
			pmbench_error_last());
	/* The PM's folders go; nothing outside `cache` may be deleted. */
	if (pmbench_fs_set_sandbox(cache) < 0 ||
	    pmbench_fs_empty_dir(cache) < 0 || rmdir(cache) < 0)
		fprintf(stderr, "time-install: cannot remove '%s'\n", cache);
	pmbench_ctx_release(&ctx);
	return ret == PMBENCH_EINTERRUPTED ? 130 : ret < 0 ? 1 : ret;
}
