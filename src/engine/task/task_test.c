/*
 * The test task: `<pm> run <test.script>` in the PM's primed tree, timed
 * like build. Its exit code says whether it passed; the counts the test
 * runner prints become metrics, and only what it printed: a line that is
 * not exactly a runner's summary is ignored, and a count no summary gave
 * is left out rather than guessed.
 */
#include "pmbench/common.h"

#include <ctype.h>

#include "pmbench/fixture.h"
#include "pmbench/proc.h"
#include "task_ops.h"

/* Node's spec reporter starts its summary lines with U+2139 and a space. */
#define INFO_SIGN "\xe2\x84\xb9 "

const char *pmbench_task_test_script(const struct pmbench_fixture *f,
				     const char *cell)
{
	(void)cell;
	return pmbench_fixture_get(f, "test", "script");
}

/* What one summary line said. */
struct summary {
	double total, passed, failed;
	int has_total, has_passed, has_failed;
	double parts; /* the sum of the parts listed beside the total */
};

/* A whole number filling [p, end): 1, else 0. */
static int whole(double *out, const char *p, const char *end)
{
	double v = 0;

	if (p == end || end - p > 9)
		return 0;
	for (; p < end; p++) {
		if (!isdigit((unsigned char)*p))
			return 0;
		v = v * 10 + (*p - '0');
	}
	*out = v;
	return 1;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static const char *trim_end(const char *p, const char *end)
{
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	return end;
}

/*
 * One part "<N> <word>" of a Vitest or Jest summary, in [p, end): adds
 * it to `sm`. Returns 0, or -1 when it is not such a part.
 */
static int add_part(struct summary *sm, const char *p, const char *end)
{
	const char *num, *word;
	double n;

	p = skip_blanks(p, end);
	end = trim_end(p, end);
	num = p;
	while (p < end && isdigit((unsigned char)*p))
		p++;
	if (!whole(&n, num, p) || p == end || *p != ' ')
		return -1;
	word = p + 1;
	if (word == end || !isalpha((unsigned char)*word))
		return -1;
	if ((size_t)(end - word) == 5 && !strncmp(word, "total", 5)) {
		sm->total = n;
		sm->has_total = 1;
		return 0;
	}
	if ((size_t)(end - word) == 6 && !strncmp(word, "passed", 6)) {
		sm->passed = n;
		sm->has_passed = 1;
	} else if ((size_t)(end - word) == 6 && !strncmp(word, "failed", 6)) {
		sm->failed = n;
		sm->has_failed = 1;
	}
	sm->parts += n;
	return 0;
}

/* Parts separated by `sep` in [p, end). Returns 0 or -1. */
static int add_parts(struct summary *sm, const char *p, const char *end,
		     char sep)
{
	while (p < end) {
		const char *next = memchr(p, sep, (size_t)(end - p));

		if (!next)
			next = end;
		if (add_part(sm, p, next) < 0)
			return -1;
		p = next < end ? next + 1 : end;
	}
	return 0;
}

/* Jest: "Tests:       1 failed, 2 passed, 3 total" (after "Tests:"). */
static int jest_summary(struct summary *sm, const char *p, const char *end)
{
	if (add_parts(sm, p, end, ',') < 0 || !sm->has_total)
		return -1;
	return 0;
}

/* Vitest: "Tests  1 failed | 2 passed (3)" (after "Tests"). */
static int vitest_summary(struct summary *sm, const char *p, const char *end)
{
	const char *open = end;

	if (end == p || end[-1] != ')')
		return -1;
	while (open > p && open[-1] != '(')
		open--;
	if (open == p || !whole(&sm->total, open, end - 1))
		return -1;
	sm->has_total = 1;
	return add_parts(sm, p, open - 1, '|');
}

/* Node's test runner: "# tests 3" (TAP) or "ℹ tests 3" (spec). */
static void node_line(struct pmbench_task_tests *t, const char *p,
		      const char *end)
{
	static const struct {
		const char *word;
		size_t len;
	} words[] = { { "tests ", 6 }, { "pass ", 5 }, { "fail ", 5 } };
	double n;

	if (end - p > 2 && !strncmp(p, "# ", 2))
		p += 2;
	else if (end - p > 4 && !strncmp(p, INFO_SIGN, 4))
		p += 4;
	else
		return;
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(words); i++) {
		if ((size_t)(end - p) <= words[i].len ||
		    strncmp(p, words[i].word, words[i].len) ||
		    !whole(&n, p + words[i].len, end))
			continue;
		if (i == 0) {
			/* The first line of a summary. */
			t->summaries++;
			t->tests += n;
			t->has_tests++;
		} else if (i == 1) {
			t->passed += n;
			t->has_passed++;
		} else {
			t->failed += n;
			t->has_failed++;
		}
		return;
	}
}

void pmbench_task_tests_line(struct pmbench_task_tests *t, const char *line,
			     size_t len)
{
	const char *end = trim_end(line, line + len), *p;
	struct summary sm;
	int ret;

	/* Node's summary starts at the first column; nested ones do not. */
	node_line(t, line, end);
	p = skip_blanks(line, end);
	if (end - p < 6 || strncmp(p, "Tests", 5))
		return;
	memset(&sm, 0, sizeof(sm));
	if (p[5] == ':')
		ret = jest_summary(&sm, p + 6, end);
	else if (p[5] == ' ')
		ret = vitest_summary(&sm, p + 6, end);
	else
		return;
	if (ret < 0)
		return;
	t->summaries++;
	t->tests += sm.total;
	t->has_tests++;
	/* A count left out is 0 only when the parts add up to the total. */
	if (sm.has_passed || sm.parts == sm.total) {
		t->passed += sm.passed;
		t->has_passed++;
	}
	if (sm.has_failed || sm.parts == sm.total) {
		t->failed += sm.failed;
		t->has_failed++;
	}
}

void pmbench_task_tests_record(const struct pmbench_task_tests *t,
			       struct pmbench_sample *s)
{
	if (!t->summaries)
		return;
	if (t->has_tests == t->summaries)
		pmbench_sample_metric_set(s, "tests_count", t->tests);
	if (t->has_passed == t->summaries)
		pmbench_sample_metric_set(s, "tests_passed_count", t->passed);
	if (t->has_failed == t->summaries)
		pmbench_sample_metric_set(s, "tests_failed_count", t->failed);
}

static void on_line(const char *line, size_t len, void *payload)
{
	pmbench_task_tests_line(payload, line, len);
}

int pmbench_task_test_run(const struct pmbench_task_job *j,
			  struct pmbench_sample *s,
			  struct pmbench_strvec *argv_out)
{
	struct pmbench_task_tests t = PMBENCH_TASK_TESTS_INIT;
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	int ret;

	c.on_line = on_line;
	c.payload = &t;
	ret = pmbench_task_script_exec(j, s, argv_out, &c);
	if (ret < 0)
		goto done;
	pmbench_task_tests_record(&t, s);
	/*
	 * The runner's own count says more than the PM's line about a
	 * failed script; the tail keeps the runner's last lines.
	 */
	if (!s->ok && !s->interrupted && t.summaries &&
	    t.has_failed == t.summaries && t.failed > 0) {
		pmbench_child_describe(&c, &why);
		pmbench_buf_addf(&why, ": %.0f ", t.failed);
		if (t.has_tests == t.summaries)
			pmbench_buf_addf(&why, "of %.0f ", t.tests);
		pmbench_buf_addf(
			&why, "test%s failed",
			t.failed == 1 && t.has_tests != t.summaries ? "" : "s");
		pmbench_task_fail(s, why.ptr, NULL);
	}
done:
	pmbench_child_release(&c);
	pmbench_buf_release(&why);
	return ret;
}
