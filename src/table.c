#include "pmbench/common.h"

#include "pmbench/bench.h"
#include "pmbench/buf.h"
#include "pmbench/scenario.h"
#include "pmbench/stats.h"

/* What one table row is made from. */
struct row {
	const struct pmbench_cell *cell;
	struct pmbench_summary wall;
	double user, sys;	 /* means, seconds */
	double max_rss, tree_rss; /* means, KiB */
	double nm_bytes, nm_files; /* means */
	size_t failed;
	double fastest; /* median of the fastest row of the table */
};

/* Columns on a terminal, for UTF-8 text: continuation bytes take none. */
static size_t display_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

static void add_duration(struct pmbench_buf *b, double s)
{
	if (s < 1.0)
		pmbench_buf_addf(b, "%.1f ms", s * 1e3);
	else
		pmbench_buf_addf(b, "%.3f s", s);
}

static void add_kib(struct pmbench_buf *b, double kib)
{
	pmbench_buf_addf(b, "%.0f MiB", kib / 1024.0);
}

static void col_median(struct pmbench_buf *b, const struct row *r)
{
	add_duration(b, r->wall.median);
}

static void col_mean(struct pmbench_buf *b, const struct row *r)
{
	add_duration(b, r->wall.mean);
	pmbench_buf_adds(b, " ± ");
	add_duration(b, r->wall.sd);
}

static void col_range(struct pmbench_buf *b, const struct row *r)
{
	add_duration(b, r->wall.min);
	pmbench_buf_adds(b, " … ");
	add_duration(b, r->wall.max);
}

static void col_runs(struct pmbench_buf *b, const struct row *r)
{
	pmbench_buf_addf(b, "%zu", r->wall.n);
	if (r->failed)
		pmbench_buf_addf(b, " (+%zu failed)", r->failed);
}

static void col_user(struct pmbench_buf *b, const struct row *r)
{
	add_duration(b, r->user);
}

static void col_sys(struct pmbench_buf *b, const struct row *r)
{
	add_duration(b, r->sys);
}

static void col_rss(struct pmbench_buf *b, const struct row *r)
{
	add_kib(b, r->max_rss);
}

static void col_tree(struct pmbench_buf *b, const struct row *r)
{
	add_kib(b, r->tree_rss);
}

static void col_nm(struct pmbench_buf *b, const struct row *r)
{
	pmbench_buf_addf(b, "%.1f MB, %.0f files", r->nm_bytes / 1e6,
			 r->nm_files);
}

static void col_factor(struct pmbench_buf *b, const struct row *r)
{
	if (r->fastest > 0)
		pmbench_buf_addf(b, "%.2fx", r->wall.median / r->fastest);
}

/* One sorted column table drives the terminal table. */
static const struct {
	const char *header;
	void (*fn)(struct pmbench_buf *b, const struct row *r);
} columns[] = {
	{ "median", col_median },   { "mean ± σ", col_mean },
	{ "min … max", col_range }, { "runs", col_runs },
	{ "user", col_user },	    { "sys", col_sys },
	{ "max RSS", col_rss },	    { "tree RSS", col_tree },
	{ "node_modules", col_nm }, { "vs fastest", col_factor },
};

#define NCOLS PMBENCH_ARRAY_SIZE(columns)

static void fill_row(struct row *r, const struct pmbench_cell *c)
{
	size_t n = 0;
	double *t = pmbench_cell_times(c, &n);

	memset(r, 0, sizeof(*r));
	r->cell = c;
	pmbench_stats_summary(&r->wall, t, n);
	r->failed = pmbench_cell_failures(c);
	for (size_t i = 0; i < c->samples_nr; i++) {
		const struct pmbench_sample *s = &c->samples[i];

		if (s->warmup || !s->ok)
			continue;
		r->user += (double)s->user_ns / 1e9;
		r->sys += (double)s->sys_ns / 1e9;
		r->max_rss += (double)s->max_rss_kib;
		r->tree_rss += (double)s->tree_rss_kib;
		r->nm_bytes += (double)s->nm_bytes;
		r->nm_files += (double)s->nm_files;
	}
	if (n) {
		r->user /= (double)n;
		r->sys /= (double)n;
		r->max_rss /= (double)n;
		r->tree_rss /= (double)n;
		r->nm_bytes /= (double)n;
		r->nm_files /= (double)n;
	}
	free(t);
}

static const char *first_failure(const struct pmbench_cell *c)
{
	for (size_t i = 0; i < c->samples_nr; i++)
		if (!c->samples[i].warmup && !c->samples[i].ok &&
		    c->samples[i].failure)
			return c->samples[i].failure;
	return "unknown";
}

static void print_state_line(FILE *out, unsigned state)
{
	fprintf(out, "  (cache %s, lockfile %s, node_modules %s)\n",
		state & PMBENCH_STATE_CACHE ? "warm" : "empty",
		state & PMBENCH_STATE_LOCKFILE ? "present" : "absent",
		state & PMBENCH_STATE_NODE_MODULES ? "present" : "absent");
}

static void print_one(FILE *out, const struct pmbench_result *res,
		      const char *fixture, const char *task,
		      const char *scenario)
{
	struct row *rows = pmbench_xcalloc(res->cells_nr, sizeof(*rows));
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	size_t nr = 0, width[NCOLS + 1];
	double fastest = 0;
	unsigned state = 0;

	for (size_t i = 0; i < res->cells_nr; i++) {
		const struct pmbench_cell *c = &res->cells[i];

		if (strcmp(c->fixture, fixture) || strcmp(c->task, task) ||
		    strcmp(c->scenario, scenario))
			continue;
		fill_row(&rows[nr], c);
		if (rows[nr].wall.n &&
		    (!fastest || rows[nr].wall.median < fastest))
			fastest = rows[nr].wall.median;
		nr++;
	}
	for (size_t i = 0; i < nr; i++)
		rows[i].fastest = fastest;

	/* Column widths from the header and every successful row. */
	width[0] = strlen("pm");
	for (size_t i = 0; i < nr; i++)
		if (strlen(rows[i].cell->pm) > width[0])
			width[0] = strlen(rows[i].cell->pm);
	for (size_t k = 0; k < NCOLS; k++) {
		width[k + 1] = display_len(columns[k].header);
		for (size_t i = 0; i < nr; i++) {
			if (!rows[i].wall.n)
				continue;
			pmbench_buf_reset(&b);
			columns[k].fn(&b, &rows[i]);
			if (display_len(b.ptr) > width[k + 1])
				width[k + 1] = display_len(b.ptr);
		}
	}

	pmbench_scenario_parse(&state, scenario);
	fprintf(out, "\n%s · %s · %s\n", fixture, task, scenario);
	print_state_line(out, state);
	fprintf(out, "  %-*s", (int)width[0], "pm");
	for (size_t k = 0; k < NCOLS; k++)
		fprintf(out, "  %s%*s", columns[k].header,
			(int)(width[k + 1] - display_len(columns[k].header)),
			"");
	fputc('\n', out);
	for (size_t i = 0; i < nr; i++) {
		const struct row *r = &rows[i];

		fprintf(out, "  %-*s", (int)width[0], r->cell->pm);
		if (r->cell->prime_failure) {
			fprintf(out, "  failed: %.*s\n",
				(int)strcspn(r->cell->prime_failure, "\n"),
				r->cell->prime_failure);
			continue;
		}
		if (!r->wall.n) {
			fprintf(out, "  failed (%zu of %zu runs): %s\n",
				r->failed, r->failed, first_failure(r->cell));
			continue;
		}
		for (size_t k = 0; k < NCOLS; k++) {
			pmbench_buf_reset(&b);
			columns[k].fn(&b, r);
			fprintf(out, "  %s%*s", b.ptr,
				(int)(width[k + 1] - display_len(b.ptr)), "");
		}
		fputc('\n', out);
		if (r->failed)
			fprintf(out, "  %-*s  %zu run(s) failed: %s\n",
				(int)width[0], "", r->failed,
				first_failure(r->cell));
	}
	pmbench_buf_release(&b);
	free(rows);
}

/* The lockfile and lifecycle-script notes, once per fixture. */
static void print_notes(FILE *out, const struct pmbench_result *res,
			const char *fixture)
{
	struct pmbench_strvec seen = PMBENCH_STRVEC_INIT;
	int mixed = 0, any_all = 0, any_not = 0;

	for (size_t i = 0; i < res->cells_nr; i++) {
		const struct pmbench_cell *c = &res->cells[i];

		/* "(node)" and the like ran without a PM. */
		if (strcmp(c->fixture, fixture) || c->pm[0] == '(' ||
		    pmbench_strvec_find(&seen, c->pm) >= 0)
			continue;
		pmbench_strvec_push(&seen, c->pm);
		if (seen.nr == 1)
			fprintf(out, "\n%s: what each PM used\n", fixture);
		fprintf(out, "  %-10s lockfile: %s\n", c->pm,
			c->lockfile ? c->lockfile : "(not primed)");
		if (c->scripts) {
			fprintf(out, "  %-10s scripts:  %s\n", "", c->scripts);
			if (!strstr(c->scripts, "no installed dependency")) {
				if (strstr(c->scripts, "runs every") ||
				    strstr(c->scripts, "runs dependency"))
					any_all = 1;
				else
					any_not = 1;
			}
		}
	}
	mixed = any_all && any_not;
	if (mixed)
		fprintf(out, "  note: some PMs ran dependency install scripts "
			     "and others skipped them: the install times are "
			     "not like for like\n");
	pmbench_strvec_release(&seen);
}

void pmbench_table_print(FILE *out, const struct pmbench_result *r)
{
	for (size_t f = 0; f < r->fixtures_nr; f++) {
		const char *fixture = r->fixtures[f].name;

		for (size_t t = 0; t < r->tasks.nr; t++)
			for (size_t s = 0; s < r->scenarios.nr; s++)
				if (!strcmp(r->tasks.v[t], "install"))
					print_one(out, r, fixture,
						  r->tasks.v[t],
						  r->scenarios.v[s]);
		pmbench_table_tasks_print(out, r, fixture);
		print_notes(out, r, fixture);
	}
}
