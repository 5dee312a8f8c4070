#include "pmbench/common.h"

#include <signal.h>
#include <unistd.h>

#include "check.h"
#include "pmbench/proc.h"

static size_t live_descendants(void)
{
	pid_t *pids;
	size_t n = pmbench_proc_descendants(&pids);

	free(pids);
	return n;
}

static void sh(struct pmbench_child *c, const char *script)
{
	pmbench_strvec_push(&c->args, "/bin/sh");
	pmbench_strvec_push(&c->args, "-c");
	pmbench_strvec_push(&c->args, script);
}

TEST(exit_code_and_output)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf tail = PMBENCH_BUF_INIT;

	sh(&c, "echo first; echo second >&2; exit 3");
	CHECK_INT(pmbench_child_run(&c), 0);
	CHECK(c.result.exited);
	CHECK_INT(c.result.exit_code, 3);
	CHECK_INT(c.result.signal, 0);
	CHECK(c.result.wall_ns > 0);
	pmbench_child_tail_lines(&c, 1, &tail);
	CHECK_STR(tail.ptr, "second");
	pmbench_child_tail_lines(&c, 5, &tail);
	CHECK_STR(tail.ptr, "first\nsecond");
	pmbench_buf_release(&tail);
	pmbench_child_release(&c);
}

TEST(killed_by_signal)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf d = PMBENCH_BUF_INIT;

	sh(&c, "kill -SEGV $$");
	CHECK_INT(pmbench_child_run(&c), 0);
	CHECK_INT(c.result.exit_code, -1);
	CHECK_INT(c.result.signal, SIGSEGV);
	pmbench_child_describe(&c, &d);
	CHECK_CONTAINS(d.ptr, "exit 139");
	pmbench_buf_release(&d);
	pmbench_child_release(&c);
}

TEST(missing_program)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;

	pmbench_strvec_push(&c.args, "pmbench-no-such-program");
	CHECK_INT(pmbench_child_run(&c), PMBENCH_ENOTFOUND);
	CHECK_CONTAINS(pmbench_error_last(), "pmbench-no-such-program");
	pmbench_child_release(&c);
}

TEST(bad_directory)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;

	pmbench_strvec_push(&c.args, "/bin/true");
	c.dir = "/nonexistent/pmbench";
	CHECK(pmbench_child_run(&c) < 0);
	CHECK_CONTAINS(pmbench_error_last(), "No such file");
	CHECK_INT(live_descendants(), 0);
	pmbench_child_release(&c);
}

TEST(timeout_kills_group)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;

	sh(&c, "sleep 100 & sleep 100 & wait");
	c.timeout_ns = 300 * 1000000ull;
	CHECK_INT(pmbench_child_run(&c), 0);
	CHECK(c.result.timed_out);
	CHECK_INT(live_descendants(), 0);
	pmbench_child_release(&c);
}

TEST(timeout_kills_escaped_and_stubborn)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;

	/* One grandchild leaves the group, another ignores SIGTERM. */
	sh(&c, "setsid sleep 100 & (trap '' TERM; sleep 100) & wait");
	c.timeout_ns = 300 * 1000000ull;
	c.grace_ns = 200 * 1000000ull;
	CHECK_INT(pmbench_child_run(&c), 0);
	CHECK(c.result.timed_out);
	CHECK_INT(live_descendants(), 0);
	pmbench_child_release(&c);
}

TEST(leftover_counted_and_killed)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;

	sh(&c, "setsid sleep 100 >/dev/null 2>&1 & exit 0");
	CHECK_INT(pmbench_child_run(&c), 0);
	CHECK_INT(c.result.exit_code, 0);
	CHECK(c.result.leftover >= 1);
	CHECK_INT(live_descendants(), 0);
	pmbench_child_release(&c);
}

TEST(env_deltas)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf tail = PMBENCH_BUF_INIT;

	setenv("PMBENCH_TEST_UNSET_ME", "x", 1);
	sh(&c, "echo \"${PMBENCH_TEST_A}-${PMBENCH_TEST_UNSET_ME:-gone}\"");
	pmbench_strvec_push(&c.env, "PMBENCH_TEST_A=1");
	pmbench_strvec_push(&c.env, "PMBENCH_TEST_A=2");
	pmbench_strvec_push(&c.env, "PMBENCH_TEST_UNSET_ME");
	CHECK_INT(pmbench_child_run(&c), 0);
	pmbench_child_tail_lines(&c, 1, &tail);
	CHECK_STR(tail.ptr, "2-gone");
	pmbench_buf_release(&tail);
	pmbench_child_release(&c);
}

struct lines {
	int n;
	char last[128];
};

static void on_line(const char *line, size_t len, void *payload)
{
	struct lines *l = payload;

	l->n++;
	snprintf(l->last, sizeof(l->last), "%.*s", (int)len, line);
}

TEST(line_callback_strips_ansi)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct lines l = { 0, "" };

	sh(&c, "printf 'a\\n\\033[32mVITE\\033[0m ready in 5 ms\\n'");
	c.on_line = on_line;
	c.payload = &l;
	CHECK_INT(pmbench_child_run(&c), 0);
	CHECK_INT(l.n, 2);
	CHECK_STR(l.last, "VITE ready in 5 ms");
	pmbench_child_release(&c);
}

TEST(tree_rss_sampled)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;

	sh(&c, "sleep 0.2");
	c.flags = PMBENCH_CHILD_SAMPLE_TREE;
	c.sample_ns = 10 * 1000000ull;
	CHECK_INT(pmbench_child_run(&c), 0);
	CHECK(c.result.tree_samples >= 2);
	CHECK(c.result.tree_rss_kib > 0);
	CHECK(c.result.max_rss_kib > 0);
	pmbench_child_release(&c);
}

TEST(tail_is_capped)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;

	sh(&c, "i=0; while [ $i -lt 3000 ]; do echo line $i; i=$((i+1)); done");
	c.tail_max = 1024;
	CHECK_INT(pmbench_child_run(&c), 0);
	CHECK(c.tail.len <= 2 * 1024);
	CHECK(c.result.output_bytes > 10000);
	CHECK_CONTAINS(c.tail.ptr, "line 2999");
	pmbench_child_release(&c);
}

static void count_line(const char *line, size_t len, void *payload)
{
	(void)line;
	(void)len;
	(*(int *)payload)++;
}

TEST(pump_without_waiting_takes_the_output)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	int lines = 0, rc = 0;

	sh(&c, "echo one; echo two; exec sleep 30");
	c.on_line = count_line;
	c.payload = &lines;
	CHECK_INT(pmbench_child_start(&c), 0);
	/* A zero wait never blocks, yet reads what has arrived. */
	for (int i = 0; i < 500 && lines < 2; i++) {
		rc = pmbench_child_pump(&c, 0);
		if (rc)
			break;
		pmbench_sleep_ns(10000000);
	}
	CHECK_INT(rc, 0);
	CHECK_INT(lines, 2);
	pmbench_child_kill_tree(&c);
	pmbench_child_release(&c);
	CHECK_INT(live_descendants(), 0);
}

TEST(which)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	CHECK_INT(pmbench_proc_which(&b, "sh", "/nonexistent:/bin"), 0);
	CHECK_STR(b.ptr, "/bin/sh");
	CHECK_INT(pmbench_proc_which(&b, "sh", "/nonexistent"),
		  PMBENCH_ENOTFOUND);
	pmbench_buf_release(&b);
}

static void init(void)
{
	if (pmbench_proc_init() < 0 || pmbench_proc_subreaper() < 0)
		pmbench_die("%s", pmbench_error_last());
}

int main(int argc, char **argv)
{
	static const struct check_case cases[] = {
		CASE(exit_code_and_output), CASE(killed_by_signal),
		CASE(missing_program), CASE(bad_directory),
		CASE(timeout_kills_group), CASE(timeout_kills_escaped_and_stubborn),
		CASE(leftover_counted_and_killed), CASE(env_deltas),
		CASE(line_callback_strips_ansi), CASE(tree_rss_sampled),
		CASE(tail_is_capped), CASE(which),
		CASE(pump_without_waiting_takes_the_output),
	};

	init();
	return check_run(cases, PMBENCH_ARRAY_SIZE(cases), argc, argv);
}
