/*
 * The tables of the tasks on the primed tree in the bench kind: the
 * times table, with the task's metric columns (build's output) and, for
 * a task with baselines, the overhead over the bare command; or the
 * tables the task declares as its own (dev's readiness times and
 * probe), each column a metric of the task shown as its entry says.
 */
#include "pmbench/common.h"

#include "internal.h"
#include "pmbench/stats.h"
#include "pmbench/task.h"

/* Durations may be negative here: an overhead below the baseline. */
static void add_duration(struct pmbench_buf *b, double s)
{
	if (s < 1.0 && s > -1.0)
		pmbench_buf_addf(b, "%.1f ms", s * 1e3);
	else
		pmbench_buf_addf(b, "%.3f s", s);
}

/* A table with columns of these headers, for people only. */
static struct pmbench_doc_table *
headed_table(struct pmbench_doc *d, const char *id,
	     const struct pmbench_strvec *heads)
{
	struct pmbench_doc_column *cols =
		pmbench_xcalloc(heads->nr, sizeof(*cols));
	struct pmbench_doc_table *t;

	for (size_t k = 0; k < heads->nr; k++)
		cols[k].header = heads->v[k];
	t = pmbench_doc_table(d, PMBENCH_DOC_HUMAN, id, cols, heads->nr);
	free(cols);
	return t;
}

/*
 * A row that cannot show times: a priming failure or no successful run.
 * Returns 1 if it added one.
 */
static int failure_row(struct pmbench_doc_table *t,
		       const struct pmbench_cell *c, size_t n)
{
	struct pmbench_doc_row *row;
	const char *why = pmbench_report_first_failure(c);

	if (!c->prime_failure && n)
		return 0;
	row = pmbench_doc_row(t);
	pmbench_doc_text(row, 0, "%s", c->pm);
	if (c->prime_failure)
		pmbench_doc_row_note(row, 1, "not run: %.*s",
				     (int)strcspn(why, "\n"), why);
	else if (pmbench_cell_failures(c))
		pmbench_doc_row_note(row, 1, "failed (%zu of %zu runs): %s",
				     pmbench_cell_failures(c),
				     pmbench_cell_failures(c), why);
	else if (pmbench_cell_interrupted(c))
		pmbench_doc_row_note(row, 1,
				     "interrupted before a run finished");
	else
		pmbench_doc_row_note(row, 1,
				     "not run: the benchmark stopped "
				     "before it");
	return 1;
}

/* A note under the row before it, for people only. */
static struct pmbench_doc_row *note_row(struct pmbench_doc_table *t)
{
	struct pmbench_doc_row *row = pmbench_doc_row(t);

	row->flags = PMBENCH_DOC_ROW_HUMAN;
	return row;
}

/* Failed and interrupted runs and processes left, under a PM's row. */
static void failed_note(struct pmbench_doc_table *t,
			const struct pmbench_cell *c)
{
	size_t failed = pmbench_cell_failures(c);
	size_t interrupted = pmbench_cell_interrupted(c);
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (failed)
		pmbench_doc_row_note(note_row(t), 1, "%zu run(s) failed: %s",
				     failed, pmbench_report_first_failure(c));
	pmbench_report_add_leftover(&b, c, "runs");
	if (b.len)
		pmbench_doc_row_note(note_row(t), 1, "%s", b.ptr);
	if (interrupted)
		pmbench_doc_row_note(note_row(t), 1,
				     "%zu run%s interrupted (pmbench was "
				     "stopped): left out of the statistics",
				     interrupted, interrupted == 1 ? "" : "s");
	pmbench_buf_release(&b);
}

/* Columns k, k+1, k+2: median, mean ± σ, min … max. */
static void summary_cells(struct pmbench_doc_row *row, size_t k,
			  const struct pmbench_summary *m)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	add_duration(&b, m->median);
	pmbench_doc_text(row, k, "%s", b.ptr);
	pmbench_buf_reset(&b);
	add_duration(&b, m->mean);
	pmbench_buf_adds(&b, " ± ");
	add_duration(&b, m->sd);
	pmbench_doc_text(row, k + 1, "%s", b.ptr);
	pmbench_buf_reset(&b);
	add_duration(&b, m->min);
	pmbench_buf_adds(&b, " … ");
	add_duration(&b, m->max);
	pmbench_doc_text(row, k + 2, "%s", b.ptr);
	pmbench_buf_release(&b);
}

static void runs_cell(struct pmbench_doc_row *row, size_t k,
		      const struct pmbench_cell *c, size_t n)
{
	size_t failed = pmbench_cell_failures(c);
	size_t interrupted = pmbench_cell_interrupted(c);

	if (failed && interrupted)
		pmbench_doc_text(row, k, "%zu (+%zu failed, +%zu interrupted)",
				 n, failed, interrupted);
	else if (failed)
		pmbench_doc_text(row, k, "%zu (+%zu failed)", n, failed);
	else if (interrupted)
		pmbench_doc_text(row, k, "%zu (+%zu interrupted)", n,
				 interrupted);
	else
		pmbench_doc_text(row, k, "%zu", n);
}

static int metric_summary(struct pmbench_summary *out,
			  const struct pmbench_cell *c, const char *name)
{
	size_t n = 0;
	double *v = pmbench_cell_metric_values(c, name, &n);

	pmbench_stats_summary(out, v, n);
	free(v);
	return n > 0;
}

static double cell_median(const struct pmbench_cell *c)
{
	size_t n = 0;
	double *t = pmbench_cell_times(c, &n), m;

	m = n ? pmbench_stats_median(t, n) : -1;
	free(t);
	return m;
}

static int same_task(const struct pmbench_cell *c, const char *fixture,
		     const char *cell_task)
{
	return !strcmp(c->fixture, fixture) && !strcmp(c->task, cell_task);
}

/*
 * The headers of a task's metric columns (the task table's headers;
 * metrics with one header share a column) appended to `heads`.
 */
static void metric_heads(struct pmbench_strvec *heads,
			 const struct pmbench_task *task)
{
	const struct pmbench_task_metric *m = task ? task->metrics : NULL;

	for (; m && m->name; m++) {
		if (!m->header)
			continue;
		/* The last metric of a column closes it. */
		if (m[1].name && m[1].header && !strcmp(m[1].header, m->header))
			continue;
		pmbench_strvec_push(heads, m->header);
	}
}

/*
 * The cells of a task's metric columns from column `k` on: the median of
 * each metric, joined where metrics share a header. Returns the next
 * column.
 */
static size_t metric_cells(struct pmbench_doc_row *row, size_t k,
			   const struct pmbench_cell *c,
			   const struct pmbench_task *task)
{
	const struct pmbench_task_metric *m = task ? task->metrics : NULL;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_summary s;

	for (; m && m->name; m++) {
		if (!m->header)
			continue;
		if (metric_summary(&s, c, m->name)) {
			pmbench_buf_adds(&b, b.len ? ", " : "");
			pmbench_task_metric_format(&b, m, s.median);
		}
		if (m[1].name && m[1].header && !strcmp(m[1].header, m->header))
			continue;
		if (b.len)
			pmbench_doc_text(row, k, "%s", b.ptr);
		k++;
		pmbench_buf_reset(&b);
	}
	pmbench_buf_release(&b);
	return k;
}

/* One row of run, run:<script>, build, test, ... */
static void times_row(struct pmbench_doc_table *t, const struct pmbench_cell *c,
		      int is_run, const struct pmbench_task *task, double bare,
		      double fastest)
{
	struct pmbench_summary w;
	struct pmbench_doc_row *row;
	size_t n = 0, k = 0;
	double *v = pmbench_cell_times(c, &n);

	pmbench_stats_summary(&w, v, n);
	free(v);
	if (failure_row(t, c, n))
		return;
	row = pmbench_doc_row(t);
	pmbench_doc_text(row, k++, "%s", c->pm);
	summary_cells(row, k, &w);
	k += 3;
	runs_cell(row, k++, c, n);
	if (is_run) {
		struct pmbench_buf b = PMBENCH_BUF_INIT;

		if (!strcmp(c->pm, PMBENCH_TASK_BARE_NODE)) {
			pmbench_buf_adds(&b, "(baseline)");
		} else if (bare >= 0) {
			pmbench_buf_adds(&b, w.median >= bare ? "+" : "");
			add_duration(&b, w.median - bare);
		}
		pmbench_doc_text(row, k++, "%s", b.ptr);
		pmbench_buf_release(&b);
	}
	k = metric_cells(row, k, c, task);
	if (fastest > 0 && c->pm[0] != '(')
		pmbench_doc_text(row, k, "%.2fx", w.median / fastest);
	failed_note(t, c);
}

/* run, run:<script>, build, test, ...: times, and for run the overhead. */
static void times_table(struct pmbench_doc *d, const struct pmbench_result *r,
			const char *fixture, const char *cell_task)
{
	struct pmbench_strvec heads = PMBENCH_STRVEC_INIT;
	struct pmbench_doc_table *t;
	const struct pmbench_task *task = pmbench_task_of_cell(cell_task);
	int is_run = task && !strcmp(cell_task, task->name) &&
		     task->flags & PMBENCH_TASK_BASELINES;
	double bare = -1, fastest = -1;

	for (size_t i = 0; i < r->cells_nr; i++) {
		const struct pmbench_cell *c = &r->cells[i];
		double m;

		if (!same_task(c, fixture, cell_task))
			continue;
		m = cell_median(c);
		if (is_run && !strcmp(c->pm, PMBENCH_TASK_BARE_NODE))
			bare = m;
		if (m >= 0 && c->pm[0] != '(' && (fastest < 0 || m < fastest))
			fastest = m;
	}
	pmbench_doc_heading(d, PMBENCH_DOC_HUMAN, 2, "%s · %s · %s", fixture,
			    cell_task, PMBENCH_TASK_SCENARIO);
	if (is_run)
		pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
				 "(`<pm> run %s` = `%s` in each PM's own "
				 "primed tree; overhead = median minus the "
				 "bare command's)",
				 PMBENCH_TASK_NOOP_SCRIPT,
				 PMBENCH_TASK_NOOP_COMMAND);
	else
		pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
				 "(each PM's own primed tree; build output and "
				 "tool caches removed before each run)");
	pmbench_strvec_pushv(
		&heads, (const char *const[]){ "pm", "median", "mean ± σ",
					       "min … max", "runs", NULL });
	if (is_run)
		pmbench_strvec_push(&heads, "overhead vs (node)");
	metric_heads(&heads, task);
	pmbench_strvec_push(&heads, "vs fastest");
	t = headed_table(d, "task_times", &heads);
	for (size_t i = 0; i < r->cells_nr; i++)
		if (same_task(&r->cells[i], fixture, cell_task))
			times_row(t, &r->cells[i], is_run, task, bare, fastest);
	pmbench_strvec_release(&heads);
}

/* "1.234 s (1.1 … 1.4)" for one metric, or "-". */
static void metric_cell(struct pmbench_doc_row *row, size_t k,
			const struct pmbench_cell *c, const char *name)
{
	struct pmbench_summary m;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (metric_summary(&m, c, name)) {
		add_duration(&b, m.median);
		pmbench_buf_adds(&b, " (");
		add_duration(&b, m.min);
		pmbench_buf_adds(&b, " … ");
		add_duration(&b, m.max);
		pmbench_buf_adds(&b, ")");
	} else {
		pmbench_buf_adds(&b, "-");
	}
	pmbench_doc_text(row, k, "%s", b.ptr);
	pmbench_buf_release(&b);
}

/* The metrics named <prefix><code>_count, summed: "200: 16". */
static void family_sums(struct pmbench_buf *b, const struct pmbench_cell *c,
			const char *prefix)
{
	struct pmbench_strvec names = PMBENCH_STRVEC_INIT;
	size_t len = strlen(prefix);

	pmbench_cell_metric_names(c, &names);
	for (size_t k = 0; k < names.nr; k++) {
		const char *nm = names.v[k];
		size_t cnt = 0;
		double *v, sum = 0;

		if (strncmp(nm, prefix, len))
			continue;
		v = pmbench_cell_metric_values(c, nm, &cnt);
		for (size_t j = 0; j < cnt; j++)
			sum += v[j];
		free(v);
		pmbench_buf_addf(b, "%s%.3s: %.0f", b->len ? ", " : "",
				 nm + len, sum);
	}
	pmbench_strvec_release(&names);
}

/* Column `k` of a task's own table for cell `c` of `n` runs. */
static void own_cell(struct pmbench_doc_row *row, size_t k,
		     const struct pmbench_cell *c, size_t n,
		     const struct pmbench_task *task,
		     const struct pmbench_task_column *col)
{
	const struct pmbench_task_metric *unit =
		col->metric ? pmbench_task_metric(task, col->metric) : NULL;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_summary m;

	switch (col->show) {
	case PMBENCH_TASK_SHOW_RANGE:
		metric_cell(row, k, c, col->metric);
		break;
	case PMBENCH_TASK_SHOW_RUNS:
		runs_cell(row, k, c, n);
		break;
	case PMBENCH_TASK_SHOW_EACH:
		if (metric_summary(&m, c, col->metric))
			pmbench_doc_text(row, k, "%.0f × %zu runs", m.median,
					 m.n);
		break;
	case PMBENCH_TASK_SHOW_MEDIAN:
		if (unit && metric_summary(&m, c, col->metric))
			pmbench_task_metric_format(&b, unit, m.median);
		pmbench_doc_text(row, k, "%s", b.ptr);
		break;
	case PMBENCH_TASK_SHOW_FAMILY:
		family_sums(&b, c, col->metric);
		pmbench_doc_text(row, k, "%s", b.ptr);
		break;
	}
	pmbench_buf_release(&b);
}

/* One row of a task's own table, or none (a cell without its metric). */
static void own_row(struct pmbench_doc_table *t, const struct pmbench_cell *c,
		    const struct pmbench_task *task,
		    const struct pmbench_task_table *spec)
{
	struct pmbench_doc_row *row;
	struct pmbench_summary m;
	size_t n = 0;

	free(pmbench_cell_times(c, &n));
	if (spec->only_with ? !metric_summary(&m, c, spec->only_with)
			    : failure_row(t, c, n))
		return;
	row = pmbench_doc_row(t);
	pmbench_doc_text(row, 0, "%s", c->pm);
	for (size_t k = 0; spec->columns[k].header; k++)
		own_cell(row, k + 1, c, n, task, &spec->columns[k]);
	if (!spec->only_with)
		failed_note(t, c);
}

/* Whether a cell of the task has metric `name`. */
static int any_has(const struct pmbench_result *r, const char *fixture,
		   const char *cell_task, const char *name)
{
	struct pmbench_summary m;

	for (size_t i = 0; i < r->cells_nr; i++)
		if (same_task(&r->cells[i], fixture, cell_task) &&
		    metric_summary(&m, &r->cells[i], name))
			return 1;
	return 0;
}

/* A task's own table (the task table's `tables`): dev's readiness. */
static void own_table(struct pmbench_doc *d, const struct pmbench_result *r,
		      const char *fixture, const char *cell_task,
		      const struct pmbench_task_table *spec)
{
	const struct pmbench_task *task = pmbench_task_of_cell(cell_task);
	struct pmbench_strvec heads = PMBENCH_STRVEC_INIT;
	struct pmbench_doc_table *t;

	if (spec->only_with && !any_has(r, fixture, cell_task, spec->only_with))
		return;
	if (spec->title)
		pmbench_doc_heading(d, PMBENCH_DOC_HUMAN, 2, "%s · %s %s",
				    fixture, cell_task, spec->title);
	else
		pmbench_doc_heading(d, PMBENCH_DOC_HUMAN, 2, "%s · %s · %s",
				    fixture, cell_task, PMBENCH_TASK_SCENARIO);
	if (spec->legend)
		pmbench_doc_para(d, PMBENCH_DOC_HUMAN, "%s", spec->legend);
	pmbench_strvec_push(&heads, "pm");
	for (size_t k = 0; spec->columns[k].header; k++)
		pmbench_strvec_push(&heads, spec->columns[k].header);
	t = headed_table(d, spec->id, &heads);
	for (size_t i = 0; i < r->cells_nr; i++)
		if (same_task(&r->cells[i], fixture, cell_task))
			own_row(t, &r->cells[i], task, spec);
	pmbench_strvec_release(&heads);
}

/* The tables of a cell task: its task's own, else the times table. */
static void tables(struct pmbench_doc *d, const struct pmbench_result *r,
		   const char *fixture, const char *cell_task)
{
	const struct pmbench_task *task = pmbench_task_of_cell(cell_task);

	if (!task || !task->tables) {
		times_table(d, r, fixture, cell_task);
		return;
	}
	for (const struct pmbench_task_table *t = task->tables; t->id; t++)
		own_table(d, r, fixture, cell_task, t);
}

void pmbench_kind_tasks(struct pmbench_doc *d, const struct pmbench_result *r,
			const char *fixture)
{
	struct pmbench_strvec seen = PMBENCH_STRVEC_INIT;

	/* In the order the tasks were asked for, scripts after run. */
	for (size_t t = 0; t < r->tasks.nr; t++) {
		const char *task = r->tasks.v[t];
		size_t len = strlen(task);

		/* Tasks timed per scenario (install, resolve) have theirs. */
		if (pmbench_task_cell_has(task, PMBENCH_TASK_PER_SCENARIO))
			continue;
		for (size_t i = 0; i < r->cells_nr; i++) {
			const struct pmbench_cell *c = &r->cells[i];

			if (strcmp(c->fixture, fixture) ||
			    strncmp(c->task, task, len) ||
			    (c->task[len] && c->task[len] != ':') ||
			    pmbench_strvec_find(&seen, c->task) >= 0)
				continue;
			pmbench_strvec_push(&seen, c->task);
			tables(d, r, fixture, c->task);
		}
	}
	pmbench_strvec_release(&seen);
}
