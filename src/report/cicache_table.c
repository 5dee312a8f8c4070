/*
 * The ci-cache table: per PM and strategy the median restore, install and
 * save time, the archive's size compressed and raw, the total, and the
 * modelled CI totals, from the cells pmbench_cicache_run() wrote.
 */
#include "pmbench/common.h"

#include <math.h>

#include "pmbench/buf.h"
#include "pmbench/cicache.h"
#include "pmbench/report.h"
#include "pmbench/result.h"
#include "pmbench/stats.h"

/* The job kinds, as the cells' scenario names end (src/engine/cicache.c). */
enum job_kind { JOB_MISS, JOB_HIT, JOB_CHANGED };

static const char *const kind_names[] = { "miss", "hit", "lockfile-changed" };

/* One table row: one cell's figures. */
struct row {
	const struct pmbench_cell *cell;
	char *label;
	enum job_kind kind;
	size_t n, failed, interrupted;
	double restore, install, save, archive, raw, xfer, keyed;
	struct pmbench_summary total;
};

static double metric_median(const struct pmbench_cell *c, const char *name)
{
	size_t n;
	double *v = pmbench_cell_metric_values(c, name, &n);
	double m = pmbench_stats_median(v, n);

	free(v);
	return m;
}

static void add_secs(struct pmbench_buf *b, double s)
{
	if (s < 0.01)
		pmbench_buf_addf(b, "%.1f ms", s * 1e3);
	else if (s < 1.0)
		pmbench_buf_addf(b, "%.0f ms", s * 1e3);
	else
		pmbench_buf_addf(b, "%.2f s", s);
}

static void add_bytes(struct pmbench_buf *b, double v)
{
	if (v >= 1e9)
		pmbench_buf_addf(b, "%.2f GB", v / 1e9);
	else if (v >= 1e6)
		pmbench_buf_addf(b, "%.1f MB", v / 1e6);
	else if (v >= 1e3)
		pmbench_buf_addf(b, "%.1f kB", v / 1e3);
	else
		pmbench_buf_addf(b, "%.0f B", v);
}

static void row_fill(struct row *w, const struct pmbench_cell *c)
{
	const char *sc = c->scenario;
	size_t len = strlen(sc);
	double *t;

	memset(w, 0, sizeof(*w));
	w->cell = c;
	w->kind = JOB_HIT;
	for (int k = JOB_MISS; k <= JOB_CHANGED; k += 2) {
		size_t kl = strlen(kind_names[k]);

		if (len > kl + 1 && sc[len - kl - 1] == '/' &&
		    !strcmp(sc + len - kl, kind_names[k])) {
			w->kind = (enum job_kind)k;
			len -= kl + 1;
		}
	}
	w->label = pmbench_xstrndup(sc, len);
	t = pmbench_cell_times(c, &w->n);
	pmbench_stats_summary(&w->total, t, w->n);
	free(t);
	w->failed = pmbench_cell_failures(c);
	w->interrupted = pmbench_cell_interrupted(c);
	w->restore = metric_median(c, "restore_s");
	w->install = metric_median(c, "install_s");
	w->save = metric_median(c, "save_s");
	w->archive = metric_median(c, "archive_bytes");
	w->raw = metric_median(c, "raw_bytes");
	w->xfer = metric_median(c, "transfer_total_s");
	w->keyed = metric_median(c, "keyed_total_s");
}

enum col_kind {
	COL_RESTORE,
	COL_INSTALL,
	COL_SAVE,
	COL_ARCHIVE,
	COL_RAW,
	COL_TOTAL,
	COL_XFER,
	COL_KEYED
};

/* The figure columns, in order: title, width, what. */
static const struct {
	const char *title;
	int width;
	enum col_kind kind;
} cols[] = {
	{ "restore", 9, COL_RESTORE }, { "install", 9, COL_INSTALL },
	{ "save", 9, COL_SAVE },       { "archive", 9, COL_ARCHIVE },
	{ "raw", 9, COL_RAW },	       { "total", 24, COL_TOTAL },
	{ "+transfer", 10, COL_XFER }, { "keyed CI", 9, COL_KEYED },
};

static void col_text(struct pmbench_buf *out, const struct row *w,
		     enum col_kind kind)
{
	int has_arc = strcmp(w->label, "none") != 0;

	switch (kind) {
	case COL_RESTORE:
		if (has_arc && w->kind != JOB_MISS)
			add_secs(out, w->restore);
		else
			pmbench_buf_adds(out, "-");
		break;
	case COL_INSTALL:
		add_secs(out, w->install);
		break;
	case COL_SAVE:
	case COL_ARCHIVE:
	case COL_RAW:
		if (!has_arc)
			pmbench_buf_adds(out, "-");
		else if (kind == COL_SAVE)
			add_secs(out, w->save);
		else
			add_bytes(out, kind == COL_RAW ? w->raw : w->archive);
		break;
	case COL_TOTAL:
		add_secs(out, w->total.median);
		if (w->n > 1) {
			pmbench_buf_adds(out, " (");
			add_secs(out, w->total.min);
			pmbench_buf_adds(out, "..");
			add_secs(out, w->total.max);
			pmbench_buf_adds(out, ")");
		}
		break;
	case COL_XFER:
		add_secs(out, w->xfer);
		break;
	case COL_KEYED:
		add_secs(out, w->keyed);
		break;
	}
}

static void print_header(FILE *out)
{
	fprintf(out, "  %-26s %-8s %3s", "strategy", "job", "n");
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(cols); i++)
		fprintf(out, " %*s", cols[i].width, cols[i].title);
	fprintf(out, "\n");
}

static void print_row(FILE *out, const struct row *w, int fastest)
{
	static const char *const kinds[] = { "miss", "hit", "changed" };
	struct pmbench_buf b = PMBENCH_BUF_INIT, c = PMBENCH_BUF_INIT;

	/* Jobs without a cache are neither hits nor misses. */
	pmbench_buf_addf(&b, "  %-26s %-8s", w->label,
			 !strcmp(w->label, "none") && w->kind == JOB_HIT
				 ? "-"
				 : kinds[w->kind]);
	if (w->failed)
		pmbench_buf_addf(&b, " %zu/%zu", w->n, w->n + w->failed);
	else
		pmbench_buf_addf(&b, " %3zu", w->n);
	if (!w->n && w->failed)
		pmbench_buf_adds(&b, "   every job failed");
	else if (!w->n && w->interrupted)
		pmbench_buf_adds(&b, "   every job interrupted");
	else if (!w->n)
		pmbench_buf_adds(&b, "   no job ran");
	for (size_t i = 0; w->n && i < PMBENCH_ARRAY_SIZE(cols); i++) {
		pmbench_buf_reset(&c);
		col_text(&c, w, cols[i].kind);
		pmbench_buf_addf(&b, " %*s", cols[i].width, c.ptr);
	}
	if (fastest)
		pmbench_buf_adds(&b, "  * fastest");
	fprintf(out, "%s\n", b.ptr);
	pmbench_buf_release(&b);
	pmbench_buf_release(&c);
}

void pmbench_cicache_table_print(FILE *out, const struct pmbench_result *r)
{
	struct pmbench_strvec pms = PMBENCH_STRVEC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *bw =
		pmbench_result_env_get(r, "ci_cache_bandwidth_bytes_per_s");
	const char *change =
		pmbench_result_env_get(r, "ci_cache_lockfile_change");
	struct row *rows =
		pmbench_xcalloc(r->cells_nr ? r->cells_nr : 1, sizeof(*rows));
	size_t nrows = 0;
	const struct row *best_all = NULL;

	for (size_t i = 0; i < r->cells_nr; i++) {
		if (strcmp(r->cells[i].task, PMBENCH_CICACHE_TASK))
			continue;
		row_fill(&rows[nrows++], &r->cells[i]);
		if (pmbench_strvec_find(&pms, r->cells[i].pm) < 0)
			pmbench_strvec_push(&pms, r->cells[i].pm);
	}
	if (!nrows)
		goto done;
	add_bytes(&b, bw ? strtod(bw, NULL) : 0);
	fprintf(out,
		"\nci-cache: %s; medians, total with min..max; transfer "
		"modelled at %s/s:\n"
		"  +transfer = total + download (before restore) + upload "
		"(after save)\n"
		"  keyed CI  = download + restore + install (+ save + upload "
		"when the key\n"
		"              missed: a CI cache skips the upload on an "
		"exact key hit)\n",
		rows[0].cell->fixture, b.ptr);
	for (size_t p = 0; p < pms.nr; p++) {
		const struct row *best = NULL;

		for (size_t i = 0; i < nrows; i++)
			if (!strcmp(rows[i].cell->pm, pms.v[p]) &&
			    rows[i].kind == JOB_HIT && rows[i].n &&
			    (!best || rows[i].xfer < best->xfer))
				best = &rows[i];
		if (best && (!best_all || best->xfer < best_all->xfer))
			best_all = best;
		pmbench_buf_reset(&b);
		for (size_t i = 0; i < nrows; i++) {
			const struct pmbench_strvec *cmd =
				&rows[i].cell->command;

			if (strcmp(rows[i].cell->pm, pms.v[p]) ||
			    rows[i].kind == JOB_CHANGED || !cmd->nr)
				continue;
			/* The binary's name, not its whole path. */
			pmbench_buf_adds(&b,
					 strrchr(cmd->v[0], '/')
						 ? strrchr(cmd->v[0], '/') + 1
						 : cmd->v[0]);
			for (size_t k = 1; k < cmd->nr; k++)
				pmbench_buf_addf(&b, " %s", cmd->v[k]);
			break;
		}
		fprintf(out, "\n%s (CI install: %s)\n", pms.v[p], b.ptr);
		print_header(out);
		for (size_t i = 0; i < nrows; i++)
			if (!strcmp(rows[i].cell->pm, pms.v[p]))
				print_row(out, &rows[i], &rows[i] == best);
		for (size_t i = 0; i < nrows; i++) {
			const struct pmbench_cell *c = rows[i].cell;

			if (strcmp(c->pm, pms.v[p]))
				continue;
			if (c->prime_failure)
				fprintf(out, "  ! %s: %s\n", c->scenario,
					c->prime_failure);
			pmbench_buf_reset(&b);
			pmbench_report_add_leftover(&b, c, "jobs");
			if (b.len)
				fprintf(out, "  note: %s: %s\n", c->scenario,
					b.ptr);
			for (size_t k = 0; k < c->samples_nr; k++) {
				const struct pmbench_sample *s = &c->samples[k];

				/* A job cut short by a signal is no failure. */
				if (s->interrupted)
					fprintf(out, "  %s round %u: %s, left "
						     "out\n",
						c->scenario, s->round + 1,
						s->failure ? s->failure
							   : "interrupted");
				else if (!s->ok && s->failure)
					fprintf(out, "  ! %s round %u: %s\n",
						c->scenario, s->round + 1,
						s->failure);
			}
		}
	}
	fprintf(out, "\nfastest strategy per PM (hit jobs, +transfer):");
	for (size_t p = 0; p < pms.nr; p++) {
		const struct row *best = NULL;

		for (size_t i = 0; i < nrows; i++)
			if (!strcmp(rows[i].cell->pm, pms.v[p]) &&
			    rows[i].kind == JOB_HIT && rows[i].n &&
			    (!best || rows[i].xfer < best->xfer))
				best = &rows[i];
		pmbench_buf_reset(&b);
		if (best)
			add_secs(&b, best->xfer);
		fprintf(out, "%s %s %s%s%s%s", p ? "," : "", pms.v[p],
			best ? best->label : "(no successful job)",
			best ? " (" : "", b.ptr, best ? ")" : "");
	}
	fprintf(out, "\n");
	if (best_all) {
		pmbench_buf_reset(&b);
		add_secs(&b, best_all->xfer);
		fprintf(out, "fastest PM overall: %s with %s (%s)\n",
			best_all->cell->pm, best_all->label, b.ptr);
	}
	if (change)
		fprintf(out,
			"lockfile-changed jobs: %s, installed non-frozen "
			"with the old archive\n",
			change);
done:
	for (size_t i = 0; i < nrows; i++)
		free(rows[i].label);
	free(rows);
	pmbench_strvec_release(&pms);
	pmbench_buf_release(&b);
}
