/*
 * The migrate kind: "should this repo move?" said from what the engine
 * collected (struct pmbench_migrate: each PM's lockfile route, what it
 * installed, its parity tasks) and the install benchmark. One verdict
 * line per target first, then the details against the source, then the
 * benchmark as the bench kind shows it. Its JSON is the
 * "pmbench-migrate" report `migrate --out` writes: the engine writes the
 * model (src/engine/result/migrate_json.c), this kind the verdicts, and
 * `report` makes this document again from the model read back. The
 * speed and the words of a check are shared with compare and history
 * (internal.h).
 */
#include "pmbench/common.h"

#include "internal.h"
#include "pmbench/report_kind.h"
#include "pmbench/stats.h"
#include "pmbench/task.h"

/* Changes listed per target on the terminal; the JSON has them all. */
#define CHANGES_SHOWN 12
/* Resamples of the speed intervals in the verdicts. */
#define BOOTSTRAP_RESAMPLES 2000

/* Why a timed task cell has no successful run. */
static const char *cell_failure(const struct pmbench_cell *c)
{
	if (c->prime_failure)
		return c->prime_failure;
	for (size_t i = 0; i < c->samples_nr; i++)
		if (!c->samples[i].ok && !c->samples[i].interrupted &&
		    c->samples[i].failure)
			return c->samples[i].failure;
	return "no successful run";
}

/* A cell whose runs were all cut short by a signal: no failure. */
static int cell_interrupted(const struct pmbench_cell *c)
{
	return c && !c->prime_failure && !pmbench_cell_failures(c) &&
	       pmbench_cell_interrupted(c);
}

/* ---- Comparisons ------------------------------------------------------- */

static void add_size(struct pmbench_buf *b, double bytes)
{
	if (bytes >= 1024.0 * 1024.0)
		pmbench_buf_addf(b, "%.1f MiB", bytes / (1024.0 * 1024.0));
	else
		pmbench_buf_addf(b, "%.1f KiB", bytes / 1024.0);
}

/* "build identical (...)": the output of a task that writes one. */
static void describe_output(struct pmbench_buf *b, const char *task,
			    const struct pmbench_migrate_pm *src,
			    const struct pmbench_migrate_pm *e)
{
	size_t a = pmbench_strvec_missing(&src->build_files, &e->build_files,
					  NULL);
	size_t z = pmbench_strvec_missing(&e->build_files, &src->build_files,
					  NULL);

	if (!a && !z) {
		pmbench_buf_addf(b, "%s identical (%zu file%s, ", task,
				 e->build_files.nr,
				 e->build_files.nr == 1 ? "" : "s");
		add_size(b, (double)e->build_bytes);
		pmbench_buf_adds(b, ")");
		return;
	}
	pmbench_buf_addf(b,
			 "%s differs (%zu of %s's %zu files not "
			 "matched by name and size, %zu new; ",
			 task, a, src->pm, src->build_files.nr, z);
	add_size(b, (double)src->build_bytes);
	pmbench_buf_adds(b, " vs ");
	add_size(b, (double)e->build_bytes);
	pmbench_buf_adds(b, ")");
}

int pmbench_kind_cells_speed(struct pmbench_kind_speed *out,
			     const struct pmbench_cell *cs,
			     const struct pmbench_cell *ct, uint64_t seed)
{
	struct pmbench_rng rng;
	double *a, *z;
	int ok = 0;

	if (!cs || !ct)
		return 0;
	a = pmbench_cell_times(cs, &out->na);
	z = pmbench_cell_times(ct, &out->nz);
	pmbench_rng_seed(&rng, seed);
	if (out->na && out->nz &&
	    !pmbench_stats_compare(&out->cmp, z, out->nz, a, out->na, 0.95,
				   BOOTSTRAP_RESAMPLES, 0.05, &rng)) {
		ok = 1;
		out->up.point = 1.0 / out->cmp.ratio.point;
		out->up.lo = 1.0 / out->cmp.ratio.hi;
		out->up.hi = 1.0 / out->cmp.ratio.lo;
	}
	pmbench_error_clear();
	free(a);
	free(z);
	return ok;
}

int pmbench_kind_migrate_speed(struct pmbench_kind_speed *out,
			       const struct pmbench_result *r,
			       const char *source, uint64_t seed,
			       const char *task, const char *scenario,
			       const char *pm)
{
	const struct pmbench_cell *cs = NULL, *ct = NULL;

	for (size_t i = 0; i < r->cells_nr; i++) {
		const struct pmbench_cell *c = &r->cells[i];

		if (strcmp(c->task, task) || strcmp(c->scenario, scenario))
			continue;
		if (!strcmp(c->pm, source))
			cs = c;
		else if (!strcmp(c->pm, pm))
			ct = c;
	}
	return pmbench_kind_cells_speed(out, cs, ct, seed);
}

void pmbench_kind_speed_text(struct pmbench_buf *b,
			     const struct pmbench_kind_speed *s,
			     const char *source, const char *pm, int brief)
{
	const struct pmbench_comparison *cmp = &s->cmp;
	size_t na = s->na, nz = s->nz;

	/* With 3 runs against 3 the test cannot say "significant". */
	if (na >= 2 && nz >= 2 && cmp->verdict == PMBENCH_VERDICT_SAME &&
	    pmbench_stats_mwu_min_p(na, nz) < 0.05)
		pmbench_buf_adds(b, "no significant difference, ");
	/* cmp->ratio is target / source: show it as "N x faster/slower". */
	if (cmp->ratio.point <= 1.0)
		pmbench_buf_addf(b, "%.2fx faster", 1.0 / cmp->ratio.point);
	else
		pmbench_buf_addf(b, "%.2fx slower", cmp->ratio.point);
	if (na >= 2 && nz >= 2)
		pmbench_buf_addf(b,
				 " (%s/%s %.2fx, 95%% CI %.2fx-%.2fx, "
				 "Mann-Whitney p=%.2g, %zu and %zu runs%s)",
				 source, pm, 1.0 / cmp->ratio.point,
				 1.0 / cmp->ratio.hi, 1.0 / cmp->ratio.lo,
				 cmp->mwu.p, na, nz,
				 pmbench_stats_mwu_min_p(na, nz) >= 0.05
					 ? ": too few runs for the test to "
					   "reach p < 0.05, use --runs 5"
					 : "");
	else if (!brief)
		pmbench_buf_adds(b, " (one run each: no interval)");
}

/* Two runs a side or more: the interval says something. */
static int has_interval(const struct pmbench_kind_speed *s)
{
	return s->na >= 2 && s->nz >= 2;
}

int pmbench_kind_speedup_moved(const struct pmbench_kind_speed *a,
			       const struct pmbench_kind_speed *b)
{
	if (!has_interval(a) || !has_interval(b))
		return 0;
	return b->up.lo > a->up.hi ? 1 : b->up.hi < a->up.lo ? -1 : 0;
}

void pmbench_kind_speedup_text(struct pmbench_buf *b,
			       const struct pmbench_kind_speed *s,
			       const char *source, const char *pm)
{
	if (s->up.point >= 1.0)
		pmbench_buf_addf(b, "%.2fx faster", s->up.point);
	else
		pmbench_buf_addf(b, "%.2fx slower", 1.0 / s->up.point);
	if (has_interval(s))
		pmbench_buf_addf(b, " (%s/%s %.2fx–%.2fx)", source, pm,
				 s->up.lo, s->up.hi);
}

/*
 * The install speed of `pm` against the source in one scenario: the
 * ratio of medians (source / target, so above 1 means the target is
 * faster) with its bootstrap interval, Mann-Whitney p and the shared
 * verdict (pmbench_stats_compare()). Returns 0 when there is nothing to
 * compare.
 */
static int speed(struct pmbench_buf *b, const struct pmbench_migrate *m,
		 const struct pmbench_result *r, const char *task,
		 const char *scenario, const char *pm, int brief)
{
	struct pmbench_kind_speed s;

	if (!pmbench_kind_migrate_speed(&s, r, m->source_pm, m->seed, task,
					scenario, pm))
		return 0;
	pmbench_buf_addf(b, "%s %s: ", task, scenario);
	pmbench_kind_speed_text(b, &s, m->source_pm, pm, brief);
	return 1;
}

void pmbench_kind_migrate_resolution(struct pmbench_buf *b,
				     const struct pmbench_migrate_pm *src,
				     const struct pmbench_migrate_pm *e)
{
	struct pmbench_resolution_diff d = PMBENCH_RESOLUTION_DIFF_INIT;
	struct pmbench_strvec x = PMBENCH_STRVEC_INIT, y = PMBENCH_STRVEC_INIT;
	size_t major = 0, minor = 0, patch = 0;

	pmbench_resolution_diff(&d, &src->res, &e->res);
	for (size_t i = 0; i < d.changes_nr; i++) {
		const char *l = d.changes[i].level;

		if (!l)
			continue;
		major += !strcmp(l, "major");
		minor += !strcmp(l, "minor");
		patch += !strcmp(l, "patch");
	}
	if (!d.changed && !d.only_source && !d.only_target)
		pmbench_buf_addf(b, "resolves the same %zu package%s",
				 d.identical, d.identical == 1 ? "" : "s");
	else
		pmbench_buf_addf(b,
				 "%zu package%s resolve%s to other "
				 "versions (%zu major, %zu minor, %zu "
				 "patch), %zu only under %s, %zu only "
				 "under %s, %zu identical",
				 d.changed, d.changed == 1 ? "" : "s",
				 d.changed == 1 ? "s" : "", major, minor, patch,
				 d.only_source, src->pm, d.only_target, e->pm,
				 d.identical);
	if (pmbench_migrate_script_differences(src, e, &x, &y))
		pmbench_buf_addf(b,
				 "; install scripts differ: their "
				 "packages hold %zu file%s only under "
				 "%s, %zu only under %s",
				 x.nr, x.nr == 1 ? "" : "s", src->pm, y.nr,
				 e->pm);
	pmbench_resolution_diff_release(&d);
	pmbench_strvec_release(&x);
	pmbench_strvec_release(&y);
}

/*
 * A build that exited 0 and wrote no file: what the source's did says
 * whether that is a check-only build or a failure.
 */
static void no_output(struct pmbench_buf *b,
		      const struct pmbench_migrate_pm *src,
		      const struct pmbench_migrate_pm *e,
		      const struct pmbench_migrate_task *t,
		      const struct pmbench_migrate_task *st)
{
	if (!src || src == e || (st && st->ok && st->no_output))
		pmbench_buf_addf(b,
				 "%s ok, writes no file%s%s: a check-only "
				 "build",
				 t->name, src && src != e ? ", nor under " : "",
				 src && src != e ? src->pm : "");
	else if (st && st->ok)
		pmbench_buf_addf(b,
				 "%s FAILS: it exited 0 but wrote no file "
				 "(under %s it wrote %zu)",
				 t->name, src->pm, src->build_files.nr);
	else
		pmbench_buf_addf(b, "%s ok, writes no file (%s's %s fails)",
				 t->name, src->pm, t->name);
}

void pmbench_kind_migrate_task(struct pmbench_buf *b,
			       const struct pmbench_migrate_pm *src,
			       const struct pmbench_migrate_pm *e,
			       const struct pmbench_migrate_task *t)
{
	const struct pmbench_migrate_task *st =
		pmbench_migrate_task_get(src, t->name);

	if (!t->ran)
		pmbench_buf_addf(b, "%s: no script", t->name);
	else if (t->ok && t->no_output)
		no_output(b, src, e, t, st);
	else if (t->interrupted)
		pmbench_buf_addf(b, "%s interrupted", t->name);
	else if (!t->ok)
		pmbench_buf_addf(b, "%s FAILS%s", t->name,
				 st && !st->ok ? " (as under the source)" : "");
	else if (pmbench_task_cell_has(t->name, PMBENCH_TASK_OUTPUT) && src &&
		 src != e && st && st->ok)
		describe_output(b, t->name, src, e);
	else
		pmbench_buf_addf(b, "%s ok", t->name);
}

/* "; build identical (...); test ok": the parity tasks that ran. */
static void verdict_tasks(struct pmbench_buf *b,
			  const struct pmbench_migrate_pm *src,
			  const struct pmbench_migrate_pm *e)
{
	for (size_t i = 0; i < e->tasks_nr; i++) {
		if (!e->tasks[i].ran)
			continue;
		pmbench_buf_adds(b, "; ");
		pmbench_kind_migrate_task(b, src, e, &e->tasks[i]);
	}
}

/*
 * "; dev server answers in 0.38 s (median, 3 runs)", or its failure:
 * a server task's (PMBENCH_TASK_SERVER).
 */
static void verdict_server(struct pmbench_buf *b,
			   const struct pmbench_result *r,
			   const struct pmbench_migrate_pm *e, const char *task)
{
	const struct pmbench_cell *c =
		pmbench_migrate_task_cell(r, task, e->pm);

	if (pmbench_migrate_cell_ok(c)) {
		size_t n = 0;
		double *t = pmbench_cell_times(c, &n);

		pmbench_buf_addf(b,
				 "; %s server answers in %.2f s (median, "
				 "%zu runs)",
				 task, pmbench_stats_median(t, n), n);
		free(t);
	} else if (cell_interrupted(c)) {
		pmbench_buf_addf(b,
				 "; %s server interrupted (no run "
				 "finished)",
				 task);
	} else if (c) {
		pmbench_buf_addf(b, "; %s server FAILS: ", task);
		pmbench_buf_add(b, cell_failure(c),
				strcspn(cell_failure(c), "\n"));
	}
}

/* "; install clean: 14.21x faster (...)" per scenario and timed task. */
static void verdict_speed(struct pmbench_buf *b,
			  const struct pmbench_migrate *m,
			  const struct pmbench_result *r,
			  const struct pmbench_migrate_pm *e)
{
	struct pmbench_buf s = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < r->scenarios.nr; i++) {
		pmbench_buf_reset(&s);
		if (speed(&s, m, r, pmbench_task_default()->name,
			  r->scenarios.v[i], e->pm, 1))
			pmbench_buf_addf(b, "; %s", s.ptr);
	}
	for (size_t i = 0; i < r->tasks.nr; i++) {
		pmbench_buf_reset(&s);
		if (!pmbench_task_cell_has(r->tasks.v[i],
					   PMBENCH_TASK_PER_SCENARIO) &&
		    speed(&s, m, r, r->tasks.v[i], PMBENCH_TASK_SCENARIO, e->pm,
			  1))
			pmbench_buf_addf(b, "; %s", s.ptr);
	}
	pmbench_buf_release(&s);
}

/* "; changed for pnpm: a, b (a choice: c over d)": the recipe's changes. */
static void verdict_changes(struct pmbench_buf *b,
			    const struct pmbench_migrate_pm *e)
{
	const struct pmbench_recipe *r = &e->recipe;
	const char *sep = "";

	if (!e->recipe_ran)
		return;
	pmbench_buf_addf(b, "; changed for %s: ", e->pm);
	for (size_t i = 0; i < r->changes_nr; i++) {
		if (!r->changes[i].applied)
			continue;
		pmbench_buf_addf(b, "%s%s", sep, r->changes[i].id);
		sep = ", ";
	}
	if (!*sep)
		pmbench_buf_adds(b, "nothing");
	for (size_t i = 0; i < r->changes_nr; i++)
		if (!r->changes[i].applied)
			pmbench_buf_addf(b, " (%s instead: --choose %s)",
					 r->changes[i].id, r->changes[i].id);
}

/*
 * One verdict line: "bun: installs (lockfile: ...); resolves ...", or,
 * for a target whose every timed run failed in a scenario where the
 * source's ran, what the decision table's installs column says instead
 * ("bun: fails in install clean (exit 1: ...); lockfile: ...").
 */
static void verdict(struct pmbench_buf *b, const struct pmbench_migrate *m,
		    const struct pmbench_result *r,
		    const struct pmbench_migrate_pm *e)
{
	const struct pmbench_migrate_pm *src =
		pmbench_migrate_get(m, m->source_pm);
	struct pmbench_buf fails = PMBENCH_BUF_INIT;

	pmbench_buf_addf(b, "%s: ", e->pm);
	if (e->prime_failure) {
		pmbench_buf_adds(b, "does not install: ");
		pmbench_buf_add(b, e->prime_failure,
				strcspn(e->prime_failure, "\n"));
		verdict_changes(b, e);
		return;
	}
	if (src != e && pmbench_kind_migrate_fails(&fails, m, r, e->pm))
		pmbench_buf_addf(b, "%s; lockfile: %s", fails.ptr,
				 e->lockfile ? e->lockfile : "?");
	else
		pmbench_buf_addf(b, "installs (lockfile: %s)",
				 e->lockfile ? e->lockfile : "?");
	pmbench_buf_release(&fails);
	verdict_changes(b, e);
	if (src && src->scanned && e->scanned && src != e) {
		pmbench_buf_adds(b, "; ");
		pmbench_kind_migrate_resolution(b, src, e);
	}
	verdict_tasks(b, src, e);
	for (size_t i = 0; i < r->tasks.nr; i++)
		if (pmbench_task_cell_has(r->tasks.v[i], PMBENCH_TASK_SERVER))
			verdict_server(b, r, e, r->tasks.v[i]);
	if (src != e)
		verdict_speed(b, m, r, e);
}

/* ---- The document ------------------------------------------------------ */

/* The first changes of the resolution, "name 1.1.0 -> 1.3.0 (minor)". */
static void changes(struct pmbench_doc_block *list,
		    const struct pmbench_migrate_pm *src,
		    const struct pmbench_migrate_pm *e)
{
	struct pmbench_resolution_diff d = PMBENCH_RESOLUTION_DIFF_INIT;

	if (!src->scanned || !e->scanned)
		return;
	pmbench_resolution_diff(&d, &src->res, &e->res);
	for (size_t i = 0; i < d.changes_nr && i < CHANGES_SHOWN; i++) {
		const struct pmbench_change *c = &d.changes[i];

		if (c->kind == PMBENCH_CHANGE_VERSION)
			pmbench_doc_item(list, "%s %s -> %s (%s)", c->name,
					 c->from, c->to, c->level);
		else if (c->kind == PMBENCH_CHANGE_ONLY_SOURCE)
			pmbench_doc_item(list, "%s %s only under %s", c->name,
					 c->from, src->pm);
		else
			pmbench_doc_item(list, "%s %s only under %s", c->name,
					 c->to, e->pm);
	}
	if (d.changes_nr > CHANGES_SHOWN)
		pmbench_doc_item(list,
				 "... and %zu more (all in the JSON "
				 "report)",
				 d.changes_nr - CHANGES_SHOWN);
	pmbench_resolution_diff_release(&d);
}

/*
 * "changed for pnpm": each change its recipe made in pmbench's copy, as
 * a diff the team can apply, then the alternatives of a choice it did
 * not make, each with its diff too.
 */
static void recipe_changes(struct pmbench_doc *d,
			   const struct pmbench_migrate_pm *e)
{
	const struct pmbench_recipe *r = &e->recipe;

	if (!e->recipe_ran)
		return;
	pmbench_doc_heading(d, PMBENCH_DOC_HUMAN, 3, "changed for %s", e->pm);
	if (!r->changes_nr)
		pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
				 "nothing: %s takes the repo as it is", e->pm);
	for (size_t i = 0; i < r->changes_nr; i++) {
		const struct pmbench_recipe_change *c = &r->changes[i];

		if (c->applied && c->choice)
			pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
					 "%s: %s (a choice, %s: this one, the "
					 "default)",
					 c->id, c->what, c->choice);
		else if (c->applied)
			pmbench_doc_para(d, PMBENCH_DOC_HUMAN, "%s: %s", c->id,
					 c->what);
		else
			pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
					 "or instead (a choice, %s; not "
					 "applied, --choose %s makes it): %s: "
					 "%s",
					 c->choice, c->id, c->id, c->what);
		pmbench_doc_diff(d, PMBENCH_DOC_HUMAN, c->diff);
	}
}

/* What `e`'s dependency scripts did, or why that is not known. */
static const char *scripts_said(const struct pmbench_migrate_pm *e)
{
	if (e->scripts)
		return e->scripts;
	return e->prime_failure ? "not known: it did not install" : "not known";
}

/* One target against the source: what changed, scripts, failures, speed. */
static void details(struct pmbench_doc *d, const struct pmbench_migrate *m,
		    const struct pmbench_result *r,
		    const struct pmbench_migrate_pm *src,
		    const struct pmbench_migrate_pm *e)
{
	struct pmbench_strvec x = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec y = PMBENCH_STRVEC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_doc_block *list;

	pmbench_doc_heading(d, PMBENCH_DOC_HUMAN, 2, "%s against %s", e->pm,
			    src->pm);
	recipe_changes(d, e);
	if (e->prime_failure) {
		pmbench_doc_para(d, PMBENCH_DOC_HUMAN, "%s", e->prime_failure);
		return;
	}
	list = pmbench_doc_list(d, PMBENCH_DOC_HUMAN);
	changes(list, src, e);
	pmbench_migrate_script_differences(src, e, &x, &y);
	for (size_t k = 0; k < x.nr && k < CHANGES_SHOWN; k++)
		pmbench_doc_item(list, "install-script file only under %s: %s",
				 src->pm, x.v[k]);
	for (size_t k = 0; k < y.nr && k < CHANGES_SHOWN; k++)
		pmbench_doc_item(list, "install-script file only under %s: %s",
				 e->pm, y.v[k]);
	pmbench_doc_item(list, "scripts: %s: %s", src->pm, scripts_said(src));
	pmbench_doc_item(list, "scripts: %s: %s", e->pm, scripts_said(e));
	for (size_t k = 0; k < e->tasks_nr; k++)
		if (e->tasks[k].ran && !e->tasks[k].ok)
			pmbench_doc_item(list, "%s %s: %s", e->tasks[k].name,
					 e->tasks[k].interrupted ? "interrupted"
								 : "failed",
					 e->tasks[k].failure
						 ? e->tasks[k].failure
						 : "?");
	for (size_t k = 0; k < r->scenarios.nr; k++) {
		pmbench_buf_reset(&b);
		if (speed(&b, m, r, pmbench_task_default()->name,
			  r->scenarios.v[k], e->pm, 0))
			pmbench_doc_item(list, "%s", b.ptr);
	}
	pmbench_strvec_release(&x);
	pmbench_strvec_release(&y);
	pmbench_buf_release(&b);
}

enum {
	COL_PM,
	COL_SOURCE,
	COL_INSTALLS,
	COL_LOCKFILE,
	COL_PACKAGES,
	COL_DIFF,
	COL_BUILD,
	COL_CHANGES,
	COL_VERDICT,
};

/* One row per PM, for CSV: the figures the verdict line says. */
static const struct pmbench_doc_column target_cols[] = {
	[COL_PM] = { NULL, 0, { { "pm", PMBENCH_DOC_TEXT, 0 } } },
	[COL_SOURCE] = { NULL, 0, { { "source", PMBENCH_DOC_FLAG, 0 } } },
	[COL_INSTALLS] = { NULL,
			   0,
			   { { "installs", PMBENCH_DOC_FLAG, 0 },
			     { "install_failure", PMBENCH_DOC_TEXT, 0 } } },
	[COL_LOCKFILE] = { NULL, 0, { { "lockfile", PMBENCH_DOC_TEXT, 0 } } },
	[COL_PACKAGES] = { NULL, 0, { { "packages", PMBENCH_DOC_COUNT, 0 } } },
	[COL_DIFF] = { NULL,
		       0,
		       { { "identical", PMBENCH_DOC_COUNT, 0 },
			 { "changed", PMBENCH_DOC_COUNT, 0 },
			 { "only_source", PMBENCH_DOC_COUNT, 0 },
			 { "only_target", PMBENCH_DOC_COUNT, 0 } } },
	[COL_BUILD] = { NULL,
			0,
			{ { "build_files", PMBENCH_DOC_COUNT, 0 },
			  { "build_bytes", PMBENCH_DOC_COUNT, 0 } } },
	[COL_CHANGES] = { NULL,
			  0,
			  { { "changes", PMBENCH_DOC_COUNT, 0 },
			    { "changed_files_lines", PMBENCH_DOC_COUNT, 0 } } },
	[COL_VERDICT] = { NULL, 0, { { "verdict", PMBENCH_DOC_TEXT, 0 } } },
};

static void target_row(struct pmbench_doc_table *t,
		       const struct pmbench_migrate *m,
		       const struct pmbench_result *r,
		       const struct pmbench_migrate_pm *src,
		       const struct pmbench_migrate_pm *e)
{
	struct pmbench_doc_row *row = pmbench_doc_row(t);
	struct pmbench_buf v = PMBENCH_BUF_INIT, fails = PMBENCH_BUF_INIT;
	/*
	 * As the decision's installs column and the verdict line: a target
	 * that primed but whose every timed run failed in a cell where the
	 * source's ran does not install there (the priming alone said 1).
	 */
	int timed_fail = !e->prime_failure && src && e != src &&
			 pmbench_kind_migrate_fails(&fails, m, r, e->pm);

	pmbench_doc_str(row, COL_PM, 0, e->pm);
	pmbench_doc_num(row, COL_SOURCE, 0, e == src);
	pmbench_doc_num(row, COL_INSTALLS, 0, !e->prime_failure && !timed_fail);
	pmbench_doc_str(row, COL_INSTALLS, 1,
			e->prime_failure ? e->prime_failure
			: timed_fail	 ? fails.ptr
					 : NULL);
	pmbench_buf_release(&fails);
	pmbench_doc_str(row, COL_LOCKFILE, 0, e->lockfile);
	if (e->scanned)
		pmbench_doc_num(row, COL_PACKAGES, 0, (double)e->res.nr);
	if (src && e != src && src->scanned && e->scanned) {
		struct pmbench_resolution_diff d = PMBENCH_RESOLUTION_DIFF_INIT;

		pmbench_resolution_diff(&d, &src->res, &e->res);
		pmbench_doc_num(row, COL_DIFF, 0, (double)d.identical);
		pmbench_doc_num(row, COL_DIFF, 1, (double)d.changed);
		pmbench_doc_num(row, COL_DIFF, 2, (double)d.only_source);
		pmbench_doc_num(row, COL_DIFF, 3, (double)d.only_target);
		pmbench_resolution_diff_release(&d);
	}
	pmbench_doc_num(row, COL_BUILD, 0, (double)e->build_files.nr);
	pmbench_doc_num(row, COL_BUILD, 1, (double)e->build_bytes);
	if (e->recipe_ran) {
		size_t n = 0, lines = 0;

		for (size_t i = 0; i < e->recipe.changes_nr; i++) {
			n += e->recipe.changes[i].applied;
			if (e->recipe.changes[i].applied)
				lines += e->recipe.changes[i].lines;
		}
		pmbench_doc_num(row, COL_CHANGES, 0, (double)n);
		pmbench_doc_num(row, COL_CHANGES, 1, (double)lines);
	}
	verdict(&v, m, r, e);
	pmbench_doc_str(row, COL_VERDICT, 0, v.ptr);
	pmbench_buf_release(&v);
}

void pmbench_report_migrate(struct pmbench_doc *out,
			    const struct pmbench_migrate *m,
			    const struct pmbench_result *r)
{
	const struct pmbench_migrate_pm *src =
		pmbench_migrate_get(m, m->source_pm);
	const struct pmbench_report *rep;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_doc_block *list;
	struct pmbench_doc_table *t;

	pmbench_buf_addf(&b, "Migration from %s (%s)", m->source_pm,
			 m->detected_by);
	pmbench_doc_init(out, "migrate", b.ptr);
	out->flags |= PMBENCH_DOC_TITLE_ON_TERM;
	out->json = pmbench_report_migrate_json(m, r);
	out->csv = pmbench_xstrdup("targets");
	rep = pmbench_doc_attach(out, r, NULL);
	pmbench_kind_migrate_decision(out, m, r);
	pmbench_doc_heading(out, PMBENCH_DOC_HUMAN, 2, "Evidence");
	list = pmbench_doc_list(out, PMBENCH_DOC_HUMAN);
	for (size_t i = 0; i < m->pms_nr; i++) {
		pmbench_buf_reset(&b);
		verdict(&b, m, r, &m->pms[i]);
		pmbench_doc_item(list, "%s%s",
				 &m->pms[i] == src ? "(source) " : "", b.ptr);
	}
	for (size_t i = 0; src && i < m->pms_nr; i++)
		if (&m->pms[i] != src)
			details(out, m, r, src, &m->pms[i]);
	t = pmbench_doc_table(out, PMBENCH_DOC_DATA, "targets", target_cols,
			      PMBENCH_ARRAY_SIZE(target_cols));
	for (size_t i = 0; i < m->pms_nr; i++)
		target_row(t, m, r, src, &m->pms[i]);
	pmbench_kind_bench_sections(out, rep);
	pmbench_kind_failures(out, r);
	pmbench_kind_legend(out, r, NULL);
	pmbench_kind_environment(out, r);
	pmbench_buf_release(&b);
}

char *pmbench_report_migrate_json(const struct pmbench_migrate *m,
				  const struct pmbench_result *r)
{
	struct pmbench_strvec verdicts = PMBENCH_STRVEC_INIT;
	struct pmbench_buf v = PMBENCH_BUF_INIT;
	char *json;

	for (size_t i = 0; i < m->pms_nr; i++) {
		pmbench_buf_reset(&v);
		verdict(&v, m, r, &m->pms[i]);
		pmbench_strvec_push(&verdicts, v.ptr);
	}
	json = pmbench_migrate_to_json(m, r, (const char *const *)verdicts.v);
	json = pmbench_kind_migrate_decision_json(json, m, r);
	pmbench_strvec_release(&verdicts);
	pmbench_buf_release(&v);
	return json;
}
