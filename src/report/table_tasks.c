/*
 * The terminal tables of the run, build and dev tasks. Each table is
 * built as text cells first, then printed with column widths, so that
 * every task can choose its own columns.
 */
#include "pmbench/common.h"

#include "pmbench/bench.h"
#include "pmbench/buf.h"
#include "pmbench/report.h"
#include "pmbench/stats.h"
#include "pmbench/task.h"

struct ttable {
	struct pmbench_strvec head;
	struct pmbench_strvec *rows; /* each: cells, or one "!" note */
	size_t rows_nr, rows_alloc;
};

static void add_duration(struct pmbench_buf *b, double s)
{
	if (s < 1.0 && s > -1.0)
		pmbench_buf_addf(b, "%.1f ms", s * 1e3);
	else
		pmbench_buf_addf(b, "%.3f s", s);
}

static struct pmbench_strvec *new_row(struct ttable *t)
{
	struct pmbench_strvec *row;

	PMBENCH_ALLOC_GROW(t->rows, t->rows_nr + 1, t->rows_alloc);
	row = &t->rows[t->rows_nr++];
	pmbench_strvec_init(row);
	return row;
}

static void widen(size_t *width, const char *s)
{
	size_t len = pmbench_report_display_len(s);

	if (len > *width)
		*width = len;
}

/* Two spaces, then `s` padded to `width` columns. */
static void print_cell(FILE *out, const char *s, size_t width)
{
	fprintf(out, "  %s%*s", s,
		(int)(width - pmbench_report_display_len(s)), "");
}

static void print_table(FILE *out, struct ttable *t)
{
	size_t ncols = t->head.nr;
	size_t *width = pmbench_xcalloc(ncols, sizeof(*width));

	for (size_t k = 0; k < ncols; k++)
		width[k] = pmbench_report_display_len(t->head.v[k]);
	for (size_t i = 0; i < t->rows_nr; i++)
		if (t->rows[i].nr == ncols)
			for (size_t k = 0; k < ncols; k++)
				widen(&width[k], t->rows[i].v[k]);
	for (size_t k = 0; k < ncols; k++)
		print_cell(out, t->head.v[k], width[k]);
	fputc('\n', out);
	for (size_t i = 0; i < t->rows_nr; i++) {
		const struct pmbench_strvec *r = &t->rows[i];

		if (r->nr != ncols) {
			/* A pm name and a note that spans the rest. */
			fprintf(out, "  %-*s  %s\n", (int)width[0], r->v[0],
				r->nr > 1 ? r->v[1] : "");
			continue;
		}
		for (size_t k = 0; k < ncols; k++)
			print_cell(out, r->v[k], width[k]);
		fputc('\n', out);
	}
	for (size_t i = 0; i < t->rows_nr; i++)
		pmbench_strvec_release(&t->rows[i]);
	free(t->rows);
	t->rows = NULL;
	t->rows_nr = t->rows_alloc = 0;
	pmbench_strvec_release(&t->head);
	free(width);
}

static const char *first_failure(const struct pmbench_cell *c)
{
	for (size_t i = 0; i < c->samples_nr; i++)
		if (!c->samples[i].warmup && !c->samples[i].ok &&
		    !c->samples[i].interrupted && c->samples[i].failure)
			return c->samples[i].failure;
	return "unknown";
}

/*
 * A row that cannot show times: a priming failure or no successful run.
 * Returns 1 if it added one.
 */
static int failure_row(struct ttable *t, const struct pmbench_cell *c,
		       size_t n)
{
	struct pmbench_strvec *row;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (!c->prime_failure && n)
		return 0;
	row = new_row(t);
	pmbench_strvec_push(row, c->pm);
	if (c->prime_failure)
		pmbench_buf_addf(&b, "not run: %.*s",
				 (int)strcspn(c->prime_failure, "\n"),
				 c->prime_failure);
	else if (pmbench_cell_failures(c))
		pmbench_buf_addf(&b, "failed (%zu of %zu runs): %s",
				 pmbench_cell_failures(c),
				 pmbench_cell_failures(c), first_failure(c));
	else if (pmbench_cell_interrupted(c))
		pmbench_buf_adds(&b, "interrupted before a run finished");
	else
		pmbench_buf_adds(&b, "not run: the benchmark stopped before "
				     "it");
	pmbench_strvec_push(row, b.ptr);
	pmbench_buf_release(&b);
	return 1;
}

static void failed_note(struct ttable *t, const struct pmbench_cell *c)
{
	size_t failed = pmbench_cell_failures(c);
	size_t interrupted = pmbench_cell_interrupted(c);
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_strvec *row;

	if (failed) {
		row = new_row(t);
		pmbench_strvec_push(row, "");
		pmbench_buf_addf(&b, "%zu run(s) failed: %s", failed,
				 first_failure(c));
		pmbench_strvec_push(row, b.ptr);
	}
	pmbench_buf_reset(&b);
	pmbench_report_add_leftover(&b, c, "runs");
	if (b.len) {
		row = new_row(t);
		pmbench_strvec_push(row, "");
		pmbench_strvec_push(row, b.ptr);
	}
	if (interrupted) {
		row = new_row(t);
		pmbench_strvec_push(row, "");
		pmbench_buf_reset(&b);
		pmbench_buf_addf(&b, "%zu run%s interrupted (pmbench was "
				     "stopped): left out of the statistics",
				 interrupted, interrupted == 1 ? "" : "s");
		pmbench_strvec_push(row, b.ptr);
	}
	pmbench_buf_release(&b);
}

static void push_summary(struct pmbench_strvec *row,
			 const struct pmbench_summary *m)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	add_duration(&b, m->median);
	pmbench_strvec_push(row, b.ptr);
	pmbench_buf_reset(&b);
	add_duration(&b, m->mean);
	pmbench_buf_adds(&b, " ± ");
	add_duration(&b, m->sd);
	pmbench_strvec_push(row, b.ptr);
	pmbench_buf_reset(&b);
	add_duration(&b, m->min);
	pmbench_buf_adds(&b, " … ");
	add_duration(&b, m->max);
	pmbench_strvec_push(row, b.ptr);
	pmbench_buf_release(&b);
}

static void push_runs(struct pmbench_strvec *row, const struct pmbench_cell *c,
		      size_t n)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_buf_addf(&b, "%zu", n);
	if (pmbench_cell_failures(c) && pmbench_cell_interrupted(c))
		pmbench_buf_addf(&b, " (+%zu failed, +%zu interrupted)",
				 pmbench_cell_failures(c),
				 pmbench_cell_interrupted(c));
	else if (pmbench_cell_failures(c))
		pmbench_buf_addf(&b, " (+%zu failed)",
				 pmbench_cell_failures(c));
	else if (pmbench_cell_interrupted(c))
		pmbench_buf_addf(&b, " (+%zu interrupted)",
				 pmbench_cell_interrupted(c));
	pmbench_strvec_push(row, b.ptr);
	pmbench_buf_release(&b);
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
 * The columns of a task's metrics (the task table's headers): the
 * median of each, metrics with one header sharing a column.
 */
static void metric_columns(struct pmbench_strvec *head,
			   struct pmbench_strvec *row,
			   const struct pmbench_cell *c,
			   const struct pmbench_task *task)
{
	const struct pmbench_task_metric *m = task ? task->metrics : NULL;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_summary s;

	for (; m && m->name; m++) {
		if (!m->header)
			continue;
		if (row && metric_summary(&s, c, m->name)) {
			pmbench_buf_adds(&b, b.len ? ", " : "");
			pmbench_task_metric_format(&b, m, s.median);
		}
		/* The last metric of a column closes it. */
		if (m[1].name && m[1].header &&
		    !strcmp(m[1].header, m->header))
			continue;
		if (head)
			pmbench_strvec_push(head, m->header);
		if (row)
			pmbench_strvec_push(row, b.ptr);
		pmbench_buf_reset(&b);
	}
	pmbench_buf_release(&b);
}

/* run, run:<script>, build, test, ...: times, and for run the overhead. */
static void print_times(FILE *out, const struct pmbench_result *r,
			const char *fixture, const char *cell_task)
{
	struct ttable t = { PMBENCH_STRVEC_INIT, NULL, 0, 0 };
	int is_run = !strcmp(cell_task, "run");
	const struct pmbench_task *task = pmbench_task_of_cell(cell_task);
	double bare = -1, fastest = -1;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

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
	pmbench_strvec_push(&t.head, "pm");
	pmbench_strvec_push(&t.head, "median");
	pmbench_strvec_push(&t.head, "mean ± σ");
	pmbench_strvec_push(&t.head, "min … max");
	pmbench_strvec_push(&t.head, "runs");
	if (is_run)
		pmbench_strvec_push(&t.head, "overhead vs (node)");
	metric_columns(&t.head, NULL, NULL, task);
	pmbench_strvec_push(&t.head, "vs fastest");
	for (size_t i = 0; i < r->cells_nr; i++) {
		const struct pmbench_cell *c = &r->cells[i];
		struct pmbench_summary w;
		struct pmbench_strvec *row;
		size_t n = 0;
		double *v;

		if (!same_task(c, fixture, cell_task))
			continue;
		v = pmbench_cell_times(c, &n);
		pmbench_stats_summary(&w, v, n);
		free(v);
		if (failure_row(&t, c, n))
			continue;
		row = new_row(&t);
		pmbench_strvec_push(row, c->pm);
		push_summary(row, &w);
		push_runs(row, c, n);
		pmbench_buf_reset(&b);
		if (is_run && bare >= 0 &&
		    strcmp(c->pm, PMBENCH_TASK_BARE_NODE)) {
			pmbench_buf_adds(&b, w.median >= bare ? "+" : "");
			add_duration(&b, w.median - bare);
		} else if (is_run && !strcmp(c->pm, PMBENCH_TASK_BARE_NODE)) {
			pmbench_buf_adds(&b, "(baseline)");
		}
		if (is_run)
			pmbench_strvec_push(row, b.ptr);
		metric_columns(NULL, row, c, task);
		pmbench_buf_reset(&b);
		if (fastest > 0 && c->pm[0] != '(')
			pmbench_buf_addf(&b, "%.2fx", w.median / fastest);
		pmbench_strvec_push(row, b.ptr);
		failed_note(&t, c);
	}
	fprintf(out, "\n%s · %s · %s\n", fixture, cell_task,
		PMBENCH_TASK_SCENARIO);
	if (is_run)
		fprintf(out, "  (`<pm> run %s` = `%s` in each PM's own primed "
			     "tree; overhead = median minus the bare "
			     "command's)\n",
			PMBENCH_TASK_NOOP_SCRIPT, PMBENCH_TASK_NOOP_COMMAND);
	else
		fprintf(out, "  (each PM's own primed tree; build output and "
			     "tool caches removed before each run)\n");
	print_table(out, &t);
	pmbench_buf_release(&b);
}

/* "1.234 s (1.1 … 1.4)" for one metric, or "-". */
static void add_metric(struct pmbench_strvec *row, const struct pmbench_cell *c,
		       const char *name)
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
	pmbench_strvec_push(row, b.ptr);
	pmbench_buf_release(&b);
}

static void print_dev(FILE *out, const struct pmbench_result *r,
		      const char *fixture)
{
	static const char *const probe_cols[][2] = {
		{ "p50", "probe_latency_p50_s" },
		{ "p90", "probe_latency_p90_s" },
		{ "p95", "probe_latency_p95_s" },
		{ "p99", "probe_latency_p99_s" },
		{ "max", "probe_latency_max_s" },
		{ "mean", "probe_latency_mean_s" },
	};
	struct ttable t = { PMBENCH_STRVEC_INIT, NULL, 0, 0 };
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int any_probe = 0;

	pmbench_strvec_push(&t.head, "pm");
	pmbench_strvec_push(&t.head, "ready line");
	pmbench_strvec_push(&t.head, "first HTTP < 500");
	pmbench_strvec_push(&t.head, "first body");
	pmbench_strvec_push(&t.head, "runs");
	pmbench_strvec_push(&t.head, "stop");
	for (size_t i = 0; i < r->cells_nr; i++) {
		const struct pmbench_cell *c = &r->cells[i];
		struct pmbench_strvec *row;
		size_t n = 0;
		double *v;
		struct pmbench_summary p;

		if (!same_task(c, fixture, "dev"))
			continue;
		v = pmbench_cell_times(c, &n);
		free(v);
		if (metric_summary(&p, c, "probe_requests_count"))
			any_probe = 1;
		if (failure_row(&t, c, n))
			continue;
		row = new_row(&t);
		pmbench_strvec_push(row, c->pm);
		add_metric(row, c, "ready_line_s");
		add_metric(row, c, "http_s");
		add_metric(row, c, "body_s");
		push_runs(row, c, n);
		add_metric(row, c, "stop_s");
		failed_note(&t, c);
	}
	fprintf(out, "\n%s · dev · %s\n", fixture, PMBENCH_TASK_SCENARIO);
	fprintf(out, "  (median (min … max) from spawn; the port is checked "
		     "closed and no process left after each stop)\n");
	print_table(out, &t);
	if (!any_probe)
		goto done;

	pmbench_strvec_push(&t.head, "pm");
	pmbench_strvec_push(&t.head, "requests");
	pmbench_strvec_push(&t.head, "ok");
	for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(probe_cols); k++)
		pmbench_strvec_push(&t.head, probe_cols[k][0]);
	pmbench_strvec_push(&t.head, "bytes in");
	pmbench_strvec_push(&t.head, "status codes");
	for (size_t i = 0; i < r->cells_nr; i++) {
		const struct pmbench_cell *c = &r->cells[i];
		struct pmbench_strvec names = PMBENCH_STRVEC_INIT;
		struct pmbench_strvec *row;
		struct pmbench_summary m;

		if (!same_task(c, fixture, "dev") ||
		    !metric_summary(&m, c, "probe_requests_count"))
			continue;
		row = new_row(&t);
		pmbench_strvec_push(row, c->pm);
		pmbench_buf_reset(&b);
		pmbench_buf_addf(&b, "%.0f × %zu runs", m.median, m.n);
		pmbench_strvec_push(row, b.ptr);
		pmbench_buf_reset(&b);
		if (metric_summary(&m, c, "probe_ok_ratio"))
			pmbench_buf_addf(&b, "%.1f %%", m.median * 100);
		pmbench_strvec_push(row, b.ptr);
		for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(probe_cols); k++) {
			pmbench_buf_reset(&b);
			if (metric_summary(&m, c, probe_cols[k][1]))
				add_duration(&b, m.median);
			pmbench_strvec_push(row, b.ptr);
		}
		pmbench_buf_reset(&b);
		if (metric_summary(&m, c, "probe_bytes"))
			pmbench_buf_addf(&b, "%.1f kB", m.median / 1e3);
		pmbench_strvec_push(row, b.ptr);
		/* Status counts summed over the runs. */
		pmbench_buf_reset(&b);
		pmbench_cell_metric_names(c, &names);
		for (size_t k = 0; k < names.nr; k++) {
			const char *nm = names.v[k];
			size_t cnt = 0;
			double *v;
			double sum = 0;

			if (strncmp(nm, "probe_status_", 13))
				continue;
			v = pmbench_cell_metric_values(c, nm, &cnt);
			for (size_t j = 0; j < cnt; j++)
				sum += v[j];
			free(v);
			pmbench_buf_addf(&b, "%s%.3s: %.0f", b.len ? ", " : "",
					 nm + 13, sum);
		}
		pmbench_strvec_push(row, b.ptr);
		pmbench_strvec_release(&names);
	}
	fprintf(out, "\n%s · dev probe (medians over the runs; latency per "
		     "request)\n",
		fixture);
	print_table(out, &t);
done:
	pmbench_buf_release(&b);
}

void pmbench_table_tasks_print(FILE *out, const struct pmbench_result *r,
			       const char *fixture)
{
	struct pmbench_strvec seen = PMBENCH_STRVEC_INIT;

	/* In the order the tasks were asked for, scripts after run. */
	for (size_t t = 0; t < r->tasks.nr; t++) {
		const char *task = r->tasks.v[t];
		size_t len = strlen(task);

		if (!strcmp(task, "install"))
			continue;
		for (size_t i = 0; i < r->cells_nr; i++) {
			const struct pmbench_cell *c = &r->cells[i];

			if (strcmp(c->fixture, fixture) ||
			    strncmp(c->task, task, len) ||
			    (c->task[len] && c->task[len] != ':') ||
			    pmbench_strvec_find(&seen, c->task) >= 0)
				continue;
			pmbench_strvec_push(&seen, c->task);
			if (!strcmp(task, "dev"))
				print_dev(out, r, fixture);
			else
				print_times(out, r, fixture, c->task);
		}
	}
	pmbench_strvec_release(&seen);
}
