/*
 * Progress on a terminal, under a pseudo-terminal (forkpty): one bar per
 * group of runs with the PM, runs done, the running median and an ETA
 * that is never negative and ends at 100 %; no line per run. Off a
 * terminal: one line per run, as before, unless --progress asks for the
 * bars. The plan comes first, and an
 * estimate once the primings are done; --dry-run prints the plan alone.
 */
#include "pmbench/common.h"

#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"

/*
 * Run pmbench with `args` on a 100x30 pseudo-terminal (stdout and stderr
 * both) and keep everything it wrote in `out`; returns its exit status.
 */
static int run_on_pty(struct pmbench_buf *out, const char *const *args)
{
	struct winsize ws = { 30, 100, 0, 0 };
	const char *argv[32];
	int fd, status = -1;
	size_t n = 0;
	pid_t pid;

	argv[n++] = getenv("PMBENCH_BIN");
	for (size_t i = 0; args[i] && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	pid = forkpty(&fd, NULL, NULL, &ws);
	if (pid < 0)
		return -1;
	if (!pid) {
		unsetenv("COLUMNS");
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	for (;;) {
		char buf[4096];
		ssize_t got = read(fd, buf, sizeof(buf));

		if (got > 0) {
			pmbench_buf_add(out, buf, (size_t)got);
			continue;
		}
		if (got < 0 && errno == EINTR)
			continue;
		break; /* EIO: the other side is closed */
	}
	close(fd);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Every "ETA m:ss" in `s` is a clock (never "-0:01"); how many. */
static int etas_ok(const char *s, size_t *count)
{
	*count = 0;
	while ((s = strstr(s, "ETA ")) != NULL) {
		s += 4;
		if (!(*s >= '0' && *s <= '9'))
			return 0;
		(*count)++;
	}
	return 1;
}

TEST(bars_on_a_terminal)
{
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	const char *proj, *end;
	size_t etas;
	int code;

	h_setup();
	proj = h_project("proj");
	setenv("FAKEPM_NPM_SLEEP_MS", "30", 1);
	setenv("FAKEPM_BUN_SLEEP_MS", "30", 1);
	{
		const char *args[] = { "bench",	     proj,
				       "--pm",	     "npm,bun",
				       "--runs",     "4",
				       "--scenario", "clean,cache+lockfile",
				       NULL };

		code = run_on_pty(&out, args);
	}
	unsetenv("FAKEPM_NPM_SLEEP_MS");
	unsetenv("FAKEPM_BUN_SLEEP_MS");
	/* PROGRESS_DUMP=FILE keeps the terminal's bytes, to look at. */
	if (getenv("PROGRESS_DUMP")) {
		FILE *f = fopen(getenv("PROGRESS_DUMP"), "wb");

		if (f) {
			fwrite(out.ptr, 1, out.len, f);
			fclose(f);
		}
	}
	CHECK_INT(code, 0);
	/* The plan first, then the estimate once primed. */
	CHECK_CONTAINS(out.ptr, "pmbench: plan:");
	CHECK_CONTAINS(out.ptr, "pmbench:   runs:      4 timed and 1 warm-up");
	CHECK_CONTAINS(out.ptr, "pmbench: estimate: about ");
	CHECK(strstr(out.ptr, "estimate") > strstr(out.ptr, "primed in"));
	/* Bars, not a line per run. */
	CHECK(!strstr(out.ptr, "run 1/4:"));
	CHECK_CONTAINS(out.ptr, "proj · install · clean ");
	CHECK_CONTAINS(out.ptr, "█");
	CHECK_CONTAINS(out.ptr, " median ");
	CHECK(etas_ok(out.ptr, &etas));
	CHECK(etas > 4);
	/* Each group ends at 100 %, its line of medians replacing the bar. */
	CHECK_CONTAINS(out.ptr, "100%  10/10");
	CHECK_CONTAINS(out.ptr, "proj · install · clean: 100%, 10 runs in ");
	CHECK_CONTAINS(out.ptr,
		       "proj · install · cache+lockfile: 100%, 10 runs in ");
	/* The percentages never go down within a group, nor past 100. */
	end = strstr(out.ptr, "proj · install · clean: 100%");
	{
		const char *p = out.ptr;
		int last = -1, ok = 1;

		while ((p = strstr(p, "%  ")) && p < end) {
			const char *q = p;
			int pct;

			while (q > out.ptr && q[-1] >= '0' && q[-1] <= '9')
				q--;
			pct = (int)strtol(q, NULL, 10);
			ok &= pct >= last && pct <= 100;
			last = pct;
			p += 3;
		}
		CHECK(ok);
		CHECK_INT(last, 100);
	}
	/* The table follows. */
	CHECK_CONTAINS(out.ptr, "vs fastest");
	pmbench_buf_release(&out);
}

/*
 * The ETA clock of each bar in s[0, end) whose group starts with
 * `group`: the smallest, in seconds (-1: no such bar).
 */
static int least_eta(const char *s, const char *end, const char *group)
{
	int least = -1;

	while ((s = strstr(s, group)) != NULL && s < end) {
		const char *eta = strstr(s, "ETA "), *next;
		int m = 0, sec = 0;

		s += strlen(group);
		next = strstr(s, group);
		if (!eta || (next && eta > next) || eta > end)
			continue;
		if (sscanf(eta + 4, "%d:%d", &m, &sec) != 2)
			continue;
		if (least < 0 || m * 60 + sec < least)
			least = m * 60 + sec;
	}
	return least;
}

/*
 * ci-cache's jobs on a terminal, as bench's runs (its progress had a
 * status line alone, no bar and no ETA): a bar per group (a strategy's
 * hit jobs, its miss job, its lockfile-changed job) with jobs done, the
 * PM's median and an ETA, and a line of medians when the group ends.
 * Under a budget the ETA is the plan's of the whole command, not the
 * group's: while the first strategy's hit jobs run to the minimum (after
 * the estimate), the second's minimum rounds are still ahead, so no bar
 * of that group says "ETA 0:00", as a group's own ETA does at its last
 * job.
 */
TEST(ci_cache_bars_on_a_terminal)
{
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	const char *proj, *from, *end;
	size_t etas;
	int code;

	h_setup();
	proj = h_project("proj");
	setenv("FAKEPM_NPM_SLEEP_MS", "200", 1);
	setenv("FAKEPM_BUN_SLEEP_MS", "100", 1);
	{
		const char *args[] = {
			"ci-cache", proj,	  "--pm",
			"npm,bun",  "--strategy", "none,store",
			"--budget", "15s",	  "--compression",
			"gzip",	    "--max-runs", "8",
			NULL
		};

		code = run_on_pty(&out, args);
	}
	unsetenv("FAKEPM_NPM_SLEEP_MS");
	unsetenv("FAKEPM_BUN_SLEEP_MS");
	CHECK_INT(code, 0);
	CHECK(!strstr(out.ptr, "none round 1: setup"));
	CHECK_CONTAINS(out.ptr, "proj · ci-cache · none ");
	CHECK_CONTAINS(out.ptr, "█");
	CHECK_CONTAINS(out.ptr, " median ");
	CHECK(etas_ok(out.ptr, &etas));
	CHECK(etas > 4);
	CHECK_CONTAINS(out.ptr, "proj · ci-cache · store/gzip-6/miss: 100%, 2 "
				"runs in ");
	CHECK_CONTAINS(out.ptr, "proj · ci-cache · none/lockfile-changed: "
				"100%, 2 runs in ");
	from = strstr(out.ptr, "pmbench: estimate: about ");
	CHECK(from != NULL);
	end = from ? strstr(from, "proj · ci-cache · none: 100%") : NULL;
	CHECK(end != NULL);
	if (from && end)
		CHECK(least_eta(from, end, "proj · ci-cache · none ") > 0);
	pmbench_buf_release(&out);
}

TEST(lines_off_a_terminal)
{
	struct h_run run;
	const char *proj;

	h_setup();
	proj = h_project("proj");
	{
		const char *args[] = { "bench",	     proj,     "--pm",
				       "npm",	     "--runs", "2",
				       "--scenario", "clean",  NULL };

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "proj clean npm run 1/2: ");
	CHECK_CONTAINS(run.out.ptr, "proj clean npm run 2/2: ");
	CHECK(!strstr(run.out.ptr, "█"));
	CHECK(!strstr(run.out.ptr, "\033["));
	h_run_release(&run);
}

/* --progress off a terminal: the bars all the same, no line per run. */
TEST(progress_forces_the_bars_off_a_terminal)
{
	struct h_run run;
	const char *proj;

	h_setup();
	proj = h_project("proj");
	{
		const char *args[] = { "bench",	     proj,     "--pm",
				       "npm",	     "--runs", "2",
				       "--scenario", "clean",  "--progress",
				       NULL };

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK(!strstr(run.out.ptr, "proj clean npm run 1/2: "));
	CHECK_CONTAINS(run.out.ptr, "█");
	CHECK_CONTAINS(run.out.ptr, "proj · install · clean: 100%, 3 runs in ");
	CHECK_CONTAINS(run.out.ptr, "vs fastest");
	h_run_release(&run);
}

TEST(dry_run_prints_the_plan)
{
	struct h_run run;
	const char *proj;

	h_setup();
	proj = h_project("proj");
	{
		const char *args[] = { "bench",	  proj,	       "--pm",
				       "npm,bun", "--dry-run", NULL };

		h_pmbench(&run, args, NULL);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "PMs:       npm, bun\n");
	CHECK_CONTAINS(run.out.ptr, "scenarios: clean, lockfile, "
				    "cache+lockfile, "
				    "cache+lockfile+node_modules\n");
	/* The default plan is a time budget; the estimate is the budget. */
	CHECK_CONTAINS(run.out.ptr, "runs:      a budget of 8:00 (m:ss): 1 "
				    "warm-up and 5 rounds in each of 4 "
				    "groups, then rounds where a paired ratio "
				    "against npm is widest, until each is "
				    "within ±10 %");
	/* Nothing ran. */
	CHECK(!strstr(run.out.ptr, "primed"));
	h_run_release(&run);
	{
		cJSON *log = h_log_entries();

		CHECK(!log || cJSON_GetArraySize(log) == 0);
		cJSON_Delete(log);
	}
}

/* The median of `cell` in the group's closing line `line`: seconds, -1. */
static double closing_median(const char *line, const char *cell)
{
	const char *eol = strchr(line, '\n'), *at = strstr(line, cell);
	double v;
	int n = 0;

	if (!at || (eol && at > eol) ||
	    sscanf(at + strlen(cell), "%lf%n", &v, &n) != 1)
		return -1;
	return strncmp(at + strlen(cell) + n, " ms", 3) ? v : v / 1e3;
}

/*
 * bench --base, as the pull-request check runs it: each PM runs on the
 * base and the head commit in every round of one group. The bar and the
 * group's closing line keep a median per cell (PM and side), so a head
 * 150 ms slower per install is not mixed into the base's median; the
 * plan counts the runs and primings of both sides.
 */
TEST(base_and_head_keep_their_own_medians)
{
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	char first[41], second[41];
	const char *proj, *done;
	int code;

	h_setup();
	proj = h_project("proj");
	h_git_commit_all(first, proj, "base");
	h_write("proj/fakepm-extra-ms", "150\n");
	h_git_commit_all(second, proj, "head: slower installs");
	setenv("FAKEPM_NPM_SLEEP_MS", "30", 1);
	setenv("FAKEPM_BUN_SLEEP_MS", "30", 1);
	{
		const char *args[] = { "bench",	 "--base",     first,
				       "--head", second,       proj,
				       "--pm",	 "npm,bun",    "--runs",
				       "3",	 "--scenario", "clean",
				       NULL };

		code = run_on_pty(&out, args);
	}
	unsetenv("FAKEPM_NPM_SLEEP_MS");
	unsetenv("FAKEPM_BUN_SLEEP_MS");
	CHECK_INT(code, 0);
	/* 2 PMs on 2 sides: 4 cells of 4 runs, 4 primings. */
	CHECK_CONTAINS(out.ptr, "each on the base and the head commit");
	CHECK_CONTAINS(out.ptr, "3 timed and 1 warm-up per PM and side in "
				"each of 1 group: 16 runs after 4 primings");
	CHECK_CONTAINS(out.ptr, "100%  16/16");
	CHECK_CONTAINS(out.ptr, " npm (head) median ");
	CHECK_CONTAINS(out.ptr, " npm (base) median ");
	done = strstr(out.ptr, "proj · install · clean: 100%, 16 runs in ");
	CHECK(done != NULL);
	if (done) {
		double base = closing_median(done, "npm (base) "),
		       head = closing_median(done, "npm (head) ");

		CHECK(base > 0 && head > 0);
		/* The head's 150 ms more per install, in its median alone. */
		CHECK(head > base + 0.1);
		CHECK(closing_median(done, "bun (head) ") >
		      closing_median(done, "bun (base) ") + 0.1);
	}
	pmbench_buf_release(&out);
}

CHECK_MAIN(CASE(bars_on_a_terminal), CASE(ci_cache_bars_on_a_terminal),
	   CASE(lines_off_a_terminal),
	   CASE(progress_forces_the_bars_off_a_terminal),
	   CASE(dry_run_prints_the_plan),
	   CASE(base_and_head_keep_their_own_medians))
