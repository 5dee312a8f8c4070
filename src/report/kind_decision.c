/*
 * migrate's decision on one screen: a table with one row per target
 * (installs, versions that moved, build, tests, dev server, each timed
 * scenario's speed against the source as one number and a word, what
 * the team changes) and one sentence of verdict, which open the
 * migrate document before the paragraphs of evidence (kind_migrate.c).
 */
#include "pmbench/common.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>

#include <cjson/cJSON.h>

#include "internal.h"
#include "pmbench/report_kind.h"
#include "pmbench/stats.h"
#include "pmbench/task.h"

/* The fixed columns; with migrate's, the speed columns follow COL_DEV. */
enum { COL_TARGET, COL_OK, COL_VERSIONS, COL_BUILD, COL_TESTS, COL_DEV };

/* What the verdict sentence needs of one target's row. */
struct decision_row {
	const struct pmbench_decision_target *t;
	int faster;	 /* significantly faster in some timed cell */
	int slower;	 /* significantly slower in some timed cell */
	int untested;	 /* too few runs to test some timed cell */
	double log_gain; /* sum of log speed-ups over the install cells */
	size_t gains;
	double gain_lo, gain_hi; /* the least and most of them */
	struct pmbench_buf says; /* "same 771 versions, build identical, ..." */
};

/*
 * "3 moved (1 major, 2 patch)" or "same 771": the resolution diff, also
 * counted in tg->moves for the sentence.
 */
static void versions(struct pmbench_buf *b, struct pmbench_decision_target *tg,
		     const struct pmbench_migrate_pm *src,
		     const struct pmbench_migrate_pm *e)
{
	struct pmbench_resolution_diff d = PMBENCH_RESOLUTION_DIFF_INIT;
	size_t lv[3] = { 0, 0, 0 };
	static const char *const names[3] = { "major", "minor", "patch" };
	const char *sep = " (";

	pmbench_resolution_diff(&d, &src->res, &e->res);
	for (size_t i = 0; i < d.changes_nr; i++)
		for (size_t k = 0; k < 3 && d.changes[i].level; k++)
			lv[k] += !strcmp(d.changes[i].level, names[k]);
	tg->moves = (struct pmbench_decision_moves){ 1, d.changed, lv[0],
						     d.only_target,
						     d.only_source };
	if (!d.changed && !d.only_source && !d.only_target)
		pmbench_buf_addf(b, "same %zu", d.identical);
	else
		pmbench_buf_addf(b, "%zu moved", d.changed);
	for (size_t k = 0; k < 3; k++)
		if (lv[k]) {
			pmbench_buf_addf(b, "%s%zu %s", sep, lv[k], names[k]);
			sep = ", ";
		}
	if (*sep == ',')
		pmbench_buf_adds(b, ")");
	if (d.only_target || d.only_source)
		pmbench_buf_addf(b, ", %zu added, %zu gone", d.only_target,
				 d.only_source);
	pmbench_resolution_diff_release(&d);
}

/*
 * `path` with its hash-like parts ("index-BdT5x9Kq.js", "main.3f2a1b.js":
 * a run of 6 or more letters and digits holding a digit, between dots
 * or dashes) set to "#", into `out`.
 */
static void unhashed(struct pmbench_buf *out, const char *path)
{
	pmbench_buf_reset(out);
	while (*path) {
		size_t n = strcspn(path, ".-/ "), digits = 0;

		for (size_t i = 0; i < n; i++)
			digits += isdigit((unsigned char)path[i]) != 0;
		if (n >= 6 && digits && digits < n)
			pmbench_buf_adds(out, "#");
		else
			pmbench_buf_add(out, path, n);
		path += n;
		if (*path)
			pmbench_buf_add(out, path++, 1);
	}
}

/* The files of `v` with hashes set apart, sorted. */
static void unhashed_all(struct pmbench_strvec *out,
			 const struct pmbench_strvec *v)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < v->nr; i++) {
		unhashed(&b, v->v[i]);
		pmbench_strvec_push(out, b.ptr);
	}
	pmbench_strvec_sort(out, 0);
	pmbench_buf_release(&b);
}

/*
 * The build in a word: "identical" (every file by name and size), "same
 * files" (the same once hashed names are set apart), "differs".
 */
static const char *build_word(const struct pmbench_migrate_pm *src,
			      const struct pmbench_migrate_pm *e)
{
	struct pmbench_strvec a = PMBENCH_STRVEC_INIT, z = PMBENCH_STRVEC_INIT;
	const char *w = "differs";

	if (!pmbench_strvec_missing(&src->build_files, &e->build_files, NULL) &&
	    !pmbench_strvec_missing(&e->build_files, &src->build_files, NULL))
		return "identical";
	unhashed_all(&a, &src->build_files);
	unhashed_all(&z, &e->build_files);
	if (a.nr == z.nr && !pmbench_strvec_missing(&a, &z, NULL) &&
	    !pmbench_strvec_missing(&z, &a, NULL))
		w = "same files, hashed names differ";
	pmbench_strvec_release(&a);
	pmbench_strvec_release(&z);
	return w;
}

/* The word of parity task `t` of `e`, and whether it blocks the move. */
static void task_word(struct pmbench_buf *b, struct pmbench_decision_target *tg,
		      const struct pmbench_migrate_pm *src,
		      const struct pmbench_migrate_pm *e,
		      const struct pmbench_migrate_task *t)
{
	const struct pmbench_migrate_task *st =
		pmbench_migrate_task_get(src, t->name);
	int output = pmbench_task_cell_has(t->name, PMBENCH_TASK_OUTPUT);

	if (b->len)
		pmbench_buf_adds(b, ", ");
	if (!output)
		pmbench_buf_addf(b, "%s ", t->name);
	if (pmbench_migrate_task_failed(t, st)) {
		tg->blocked = 1;
		pmbench_buf_adds(b, "FAILS");
	} else if (!t->ok) {
		pmbench_buf_addf(b, "fails as under %s", src->pm);
	} else if (t->no_output) {
		pmbench_buf_adds(b, "no file written, as under the source");
	} else if (output && st && st->ok) {
		pmbench_buf_adds(b, build_word(src, e));
	} else {
		pmbench_buf_adds(b, "passes");
	}
}

/* A copy of what `b` holds, or NULL when it is empty. */
static char *held(struct pmbench_buf *b)
{
	return b->len ? pmbench_buf_detach(b) : NULL;
}

/* The build and the other parity tasks of `e` into their columns. */
static void tasks(struct pmbench_decision_target *tg,
		  const struct pmbench_migrate_pm *src,
		  const struct pmbench_migrate_pm *e)
{
	struct pmbench_buf build = PMBENCH_BUF_INIT, rest = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < e->tasks_nr; i++) {
		const struct pmbench_migrate_task *t = &e->tasks[i];

		if (!t->ran)
			continue;
		task_word(pmbench_task_cell_has(t->name, PMBENCH_TASK_OUTPUT)
				  ? &build
				  : &rest,
			  tg, src, e, t);
	}
	tg->build = held(&build);
	tg->tests = held(&rest);
	pmbench_buf_release(&build);
	pmbench_buf_release(&rest);
}

void pmbench_kind_speed_model(struct pmbench_decision_speed *sp,
			      const struct pmbench_kind_speed *s)
{
	sp->has = 1;
	sp->up = s->up;
	sp->verdict = s->cmp.verdict;
	sp->one_run = s->na < 2 || s->nz < 2;
	sp->untested =
		sp->verdict == PMBENCH_VERDICT_SAME &&
		(sp->one_run || pmbench_stats_mwu_min_p(s->na, s->nz) >= 0.05);
}

/* The speed of `pm` against the source in one timed cell of migrate. */
static void migrate_speed(struct pmbench_decision_speed *sp,
			  const struct pmbench_migrate *m,
			  const struct pmbench_result *r, const char *cell,
			  const char *pm)
{
	const char *tab = strchr(cell, '\t');
	char *task = pmbench_xstrndup(cell, (size_t)(tab - cell));
	struct pmbench_kind_speed s;

	if (pmbench_kind_migrate_speed(&s, r, m->source_pm, m->seed, task,
				       tab + 1, pm))
		pmbench_kind_speed_model(sp, &s);
	sp->install = !strcmp(task, pmbench_task_default()->name);
	free(task);
}

/* The timed cells, "task\tscenario": install's scenarios, then tasks. */
static void timed_cells(struct pmbench_strvec *out,
			const struct pmbench_result *r)
{
	for (size_t i = 0; i < r->scenarios.nr; i++)
		pmbench_strvec_pushf(out, "%s\t%s",
				     pmbench_task_default()->name,
				     r->scenarios.v[i]);
	for (size_t i = 0; i < r->tasks.nr; i++)
		if (!pmbench_task_cell_has(r->tasks.v[i],
					   PMBENCH_TASK_PER_SCENARIO))
			pmbench_strvec_pushf(out, "%s\t%s", r->tasks.v[i],
					     PMBENCH_TASK_SCENARIO);
}

/* The dev server: answers or not, as under the source. */
static void dev_word(struct pmbench_decision_target *tg,
		     const struct pmbench_migrate *m,
		     const struct pmbench_result *r)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < r->tasks.nr; i++) {
		const char *t = r->tasks.v[i];

		if (!pmbench_task_cell_has(t, PMBENCH_TASK_SERVER))
			continue;
		if (pmbench_migrate_cell_ok(
			    pmbench_migrate_task_cell(r, t, tg->name))) {
			pmbench_buf_addf(&b, "%s%s answers", b.len ? ", " : "",
					 t);
		} else if (pmbench_migrate_cell_ok(pmbench_migrate_task_cell(
				   r, t, m->source_pm))) {
			tg->blocked = 1;
			pmbench_buf_addf(&b, "%s%s FAILS", b.len ? ", " : "",
					 t);
		}
	}
	tg->dev = held(&b);
	pmbench_buf_release(&b);
}

/*
 * "nothing" or "2 changes, 14 lines (see "changed for bun")"; how many
 * into tg->changes_nr.
 */
static char *changes_word(struct pmbench_decision_target *tg,
			  const struct pmbench_migrate_pm *e)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	size_t n = 0, lines = 0;

	if (!e->recipe_ran)
		return pmbench_xstrdup("not asked (--no-recipe)");
	for (size_t i = 0; i < e->recipe.changes_nr; i++)
		if (e->recipe.changes[i].applied) {
			n++;
			lines += e->recipe.changes[i].lines;
		}
	tg->changes_nr = (int)n;
	if (!n)
		return pmbench_xstrdup("nothing");
	pmbench_buf_addf(&b,
			 "%zu change%s, %zu line%s: diff under "
			 "\"changed for %s\"",
			 n, n == 1 ? "" : "s", lines, lines == 1 ? "" : "s",
			 e->pm);
	return pmbench_buf_detach(&b);
}

/* The cell of `pm` in `cell` ("task\tscenario") of `r`, or NULL. */
static const struct pmbench_cell *timed_cell(const struct pmbench_result *r,
					     const char *cell, const char *pm)
{
	const char *tab = strchr(cell, '\t');

	for (size_t i = 0; i < r->cells_nr; i++) {
		const struct pmbench_cell *c = &r->cells[i];

		if (!strcmp(c->pm, pm) && !strcmp(c->scenario, tab + 1) &&
		    strlen(c->task) == (size_t)(tab - cell) &&
		    !strncmp(c->task, cell, (size_t)(tab - cell)))
			return c;
	}
	return NULL;
}

/* The first failed timed run's reason, or NULL when one succeeded. */
static const char *all_failed(const struct pmbench_cell *c)
{
	const char *why = NULL;

	for (size_t i = 0; c && i < c->samples_nr; i++) {
		const struct pmbench_sample *s = &c->samples[i];

		if (s->warmup)
			continue;
		if (s->ok)
			return NULL;
		if (!why)
			why = s->failure ? s->failure : "failed";
	}
	return why;
}

/*
 * Target `pm`'s cell in timed cell `cell` (its column `head`) against the
 * source's: where the source has times, one whose every timed run
 * failed, or whose times are not of the state asked, does not install
 * there: said into `out` (after ", " when it holds something) with the
 * reason. 1 when it was said.
 */
static int migrate_runs(struct pmbench_buf *out,
			const struct pmbench_migrate *m,
			const struct pmbench_result *r, const char *pm,
			const char *cell, const char *head)
{
	const struct pmbench_cell *c = timed_cell(r, cell, pm);
	const struct pmbench_cell *src = timed_cell(r, cell, m->source_pm);
	const char *failed = all_failed(c);
	const char *unfit = c ? pmbench_kind_not_the_state(c) : NULL;

	if (!src || all_failed(src) || pmbench_kind_not_the_state(src) ||
	    (!failed && !unfit))
		return 0;
	if (out->len)
		pmbench_buf_adds(out, ", ");
	if (failed)
		pmbench_buf_addf(out, "fails in %s (%.*s)", head,
				 (int)strcspn(failed, "\n"), failed);
	else
		pmbench_buf_addf(out, "%s in %s", unfit, head);
	return 1;
}

/* "install clean" for install's cells, the task's name for the others. */
static void cell_heads(struct pmbench_strvec *heads,
		       const struct pmbench_strvec *cells)
{
	for (size_t i = 0; i < cells->nr; i++) {
		const char *tab = strchr(cells->v[i], '\t');

		if (!strncmp(cells->v[i], pmbench_task_default()->name,
			     (size_t)(tab - cells->v[i])))
			pmbench_strvec_pushf(heads, "install %s", tab + 1);
		else
			pmbench_strvec_pushf(heads, "%.*s",
					     (int)(tab - cells->v[i]),
					     cells->v[i]);
	}
}

/*
 * pmbench_kind_migrate_fails() over timed cells `cells` and their column
 * heads `heads` (timed_cells(), cell_heads()), which the decision has.
 */
static int migrate_fails(struct pmbench_buf *out,
			 const struct pmbench_migrate *m,
			 const struct pmbench_result *r, const char *pm,
			 const struct pmbench_strvec *cells,
			 const struct pmbench_strvec *heads)
{
	int fails = 0;

	for (size_t i = 0; i < cells->nr; i++)
		fails |= migrate_runs(out, m, r, pm, cells->v[i], heads->v[i]);
	return fails;
}

int pmbench_kind_migrate_fails(struct pmbench_buf *out,
			       const struct pmbench_migrate *m,
			       const struct pmbench_result *r, const char *pm)
{
	struct pmbench_strvec cells = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec heads = PMBENCH_STRVEC_INIT;
	int fails;

	timed_cells(&cells, r);
	cell_heads(&heads, &cells);
	fails = migrate_fails(out, m, r, pm, &cells, &heads);
	pmbench_strvec_release(&cells);
	pmbench_strvec_release(&heads);
	return fails;
}

/* One migration target's row of the model. */
static void migrate_target(struct pmbench_decision *dec,
			   const struct pmbench_migrate *m,
			   const struct pmbench_result *r,
			   const struct pmbench_migrate_pm *e,
			   const struct pmbench_strvec *cells)
{
	const struct pmbench_migrate_pm *src =
		pmbench_migrate_get(m, m->source_pm);
	struct pmbench_decision_target *tg =
		pmbench_decision_target(dec, e->pm);
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (e->prime_failure) {
		tg->blocked = 1;
		pmbench_buf_addf(&b, "does not install: %.*s",
				 (int)strcspn(e->prime_failure, "\n"),
				 e->prime_failure);
		tg->failure = pmbench_buf_detach(&b);
		return;
	}
	if (src->scanned && e->scanned) {
		versions(&b, tg, src, e);
		tg->versions = pmbench_buf_detach(&b);
	}
	tasks(tg, src, e);
	dev_word(tg, m, r);
	for (size_t i = 0; i < cells->nr; i++)
		migrate_speed(&tg->speeds[i], m, r, cells->v[i], e->pm);
	if (migrate_fails(&b, m, r, e->pm, cells, &dec->heads)) {
		pmbench_decision_ok_add(tg, "%s", b.ptr);
		tg->blocked = 1;
	}
	tg->changes = changes_word(tg, e);
	pmbench_buf_release(&b);
}

void pmbench_kind_migrate_decision(struct pmbench_doc *out,
				   const struct pmbench_migrate *m,
				   const struct pmbench_result *r)
{
	struct pmbench_decision dec = PMBENCH_DECISION_INIT;
	struct pmbench_strvec cells = PMBENCH_STRVEC_INIT;

	dec.reference = m->source_pm;
	dec.migrate = 1;
	timed_cells(&cells, r);
	cell_heads(&dec.heads, &cells);
	for (size_t i = 0; i < m->pms_nr; i++)
		if (strcmp(m->pms[i].pm, m->source_pm))
			migrate_target(&dec, m, r, &m->pms[i], &cells);
	pmbench_kind_decision(out, &dec);
	pmbench_decision_release(&dec);
	pmbench_strvec_release(&cells);
}

/* ---- The model said ---------------------------------------------------- */

void pmbench_decision_ok_add(struct pmbench_decision_target *tg,
			     const char *fmt, ...)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	va_list ap;

	if (tg->ok)
		pmbench_buf_addf(&b, "%s, ", tg->ok);
	va_start(ap, fmt);
	pmbench_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	free(tg->ok);
	tg->ok = pmbench_buf_detach(&b);
}

struct pmbench_decision_target *
pmbench_decision_target(struct pmbench_decision *d, const char *name)
{
	struct pmbench_decision_target *t;

	PMBENCH_ALLOC_GROW(d->targets, d->targets_nr + 1, d->targets_alloc);
	t = &d->targets[d->targets_nr++];
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->changes_nr = -1;
	t->speeds = pmbench_xcalloc(d->heads.nr ? d->heads.nr : 1,
				    sizeof(*t->speeds));
	return t;
}

void pmbench_decision_release(struct pmbench_decision *d)
{
	struct pmbench_decision blank = PMBENCH_DECISION_INIT;

	for (size_t i = 0; i < d->targets_nr; i++) {
		struct pmbench_decision_target *t = &d->targets[i];

		free(t->failure);
		free(t->ok);
		free(t->versions);
		free(t->build);
		free(t->tests);
		free(t->dev);
		free(t->changes);
		free(t->speeds);
	}
	free(d->targets);
	free(d->lead);
	pmbench_strvec_release(&d->heads);
	*d = blank;
}

/*
 * "15.2x faster ±9%": the speed-up in one timed cell, its interval as
 * one relative half-width, and the verdict as a word; its note after.
 */
static void speed_text(struct pmbench_buf *b,
		       const struct pmbench_decision_speed *s)
{
	double up = s->up.point;
	double half = fmax(s->up.hi - up, up - s->up.lo) / up * 100;

	if (s->verdict == PMBENCH_VERDICT_FASTER || (s->untested && up >= 1))
		pmbench_buf_addf(b, "%.2fx faster", up);
	else if (s->verdict == PMBENCH_VERDICT_SLOWER || s->untested)
		pmbench_buf_addf(b, "%.2fx slower", 1.0 / up);
	else
		pmbench_buf_addf(b, "no difference (%.2fx)", up);
	if (!s->one_run)
		pmbench_buf_addf(b, " ±%.0f%%", half);
	else
		pmbench_buf_adds(b, " (1 run)");
	if (s->untested)
		pmbench_buf_adds(b, " (too few runs to test)");
	if (s->note)
		pmbench_buf_addf(b, " (%s)", s->note);
}

/* Column `col` of `row` set to `text` ("-" when NULL), said in `says`. */
static void said(struct pmbench_doc_row *row, size_t col,
		 struct pmbench_buf *says, const char *label, const char *text)
{
	pmbench_doc_text(row, col, "%s", text ? text : "-");
	if (text)
		pmbench_buf_addf(says, "; %s%s", label, text);
}

/* The speed cells of one row from column `col` on, said in `d->says`. */
static void speeds_row(struct pmbench_doc_row *row, size_t col,
		       struct decision_row *d, const struct pmbench_decision *m)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < m->heads.nr; i++) {
		const struct pmbench_decision_speed *s = &d->t->speeds[i];

		if (!s->has || !(s->up.point > 0))
			continue;
		pmbench_buf_reset(&b);
		speed_text(&b, s);
		pmbench_doc_text(row, col + i, "%s", b.ptr);
		pmbench_buf_addf(&d->says, "; %s: %s", m->heads.v[i], b.ptr);
		d->faster |= s->verdict == PMBENCH_VERDICT_FASTER;
		d->slower |= s->verdict == PMBENCH_VERDICT_SLOWER;
		d->untested |= s->untested;
		if (s->install) {
			d->gain_lo = d->gains ? fmin(d->gain_lo, s->up.point)
					      : s->up.point;
			d->gain_hi = fmax(d->gain_hi, s->up.point);
			d->log_gain += log(s->up.point);
			d->gains++;
		}
	}
	pmbench_buf_release(&b);
}

/* One target's row; its words for the verdict into `d`. */
static void decision_row(struct pmbench_doc_table *t, struct decision_row *d,
			 const struct pmbench_decision *m)
{
	struct pmbench_doc_row *row = pmbench_doc_row(t);
	const struct pmbench_decision_target *tg = d->t;
	size_t col = COL_OK + 1;

	pmbench_doc_name(row, COL_TARGET, tg->name);
	if (tg->failure) {
		pmbench_doc_row_note(row, COL_OK, "%s", tg->failure);
		return;
	}
	pmbench_doc_text(row, COL_OK, "%s", tg->ok ? tg->ok : "yes");
	pmbench_buf_adds(&d->says, tg->ok ? tg->ok : m->ok_says);
	if (m->migrate) {
		said(row, COL_VERSIONS, &d->says, "versions: ", tg->versions);
		said(row, COL_BUILD, &d->says, "build: ", tg->build);
		said(row, COL_TESTS, &d->says, "", tg->tests);
		said(row, COL_DEV, &d->says, "", tg->dev);
		col = COL_DEV + 1;
	}
	speeds_row(row, col, d, m);
	if (m->migrate)
		said(row, col + m->heads.nr, &d->says,
		     "to change: ", tg->changes);
}

/* Whether `mv` says the target's versions differ from the source's. */
static int moves_any(const struct pmbench_decision_moves *mv)
{
	return mv->known && (mv->moved || mv->added || mv->gone);
}

/*
 * The target the verdict names: every check passed (and, with `keeps`,
 * every version kept), faster in some cell, then the most gain.
 */
static const struct decision_row *best(const struct decision_row *rows,
				       size_t n, int keeps)
{
	const struct decision_row *b = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct decision_row *d = &rows[i];
		double g = d->gains ? d->log_gain / (double)d->gains : 0;

		if (d->t->blocked ||
		    (keeps && (!d->t->moves.known || moves_any(&d->t->moves))))
			continue;
		if (!b || d->faster > b->faster ||
		    (d->faster == b->faster &&
		     g > (b->gains ? b->log_gain / (double)b->gains : 0)))
			b = d;
	}
	return b;
}

/* "12.08x faster" or "1.49x-2.63x faster": the install cells' speed-ups. */
static void gain_text(struct pmbench_buf *b, const struct decision_row *d)
{
	if (!d->gains)
		pmbench_buf_adds(b, d->faster ? "faster" : "no faster");
	else if (d->gain_lo >= 1 && d->gain_hi - d->gain_lo < 0.005)
		pmbench_buf_addf(b, "%.2fx faster", d->gain_lo);
	else if (d->gain_lo >= 1)
		pmbench_buf_addf(b, "%.2fx-%.2fx faster", d->gain_lo,
				 d->gain_hi);
	else if (d->gain_hi < 1 && d->gain_hi - d->gain_lo < 0.005)
		pmbench_buf_addf(b, "%.2fx slower", 1 / d->gain_lo);
	else if (d->gain_hi < 1)
		pmbench_buf_addf(b, "%.2fx-%.2fx slower", 1 / d->gain_hi,
				 1 / d->gain_lo);
	else
		pmbench_buf_addf(b, "%.2fx slower to %.2fx faster",
				 1 / d->gain_lo, d->gain_hi);
}

/* "moves 54 versions (3 major), adds 19 packages, drops 55 packages". */
static void moves_text(struct pmbench_buf *b,
		       const struct pmbench_decision_moves *mv)
{
	const char *sep = "";

	if (mv->moved) {
		pmbench_buf_addf(b, "moves %zu version%s (%zu major)",
				 mv->moved, mv->moved == 1 ? "" : "s",
				 mv->major);
		sep = ", ";
	}
	if (mv->added) {
		pmbench_buf_addf(b, "%sadds %zu package%s", sep, mv->added,
				 mv->added == 1 ? "" : "s");
		sep = ", ";
	}
	if (mv->gone)
		pmbench_buf_addf(b, "%sdrops %zu package%s", sep, mv->gone,
				 mv->gone == 1 ? "" : "s");
}

/*
 * The passing target that keeps every version, when the one best()
 * names (`f`) moves some and the keeper is faster (or too few runs to
 * tell) and nowhere slower: the team weighs versions against speed.
 */
static const struct decision_row *keeper(const struct decision_row *rows,
					 size_t n, const struct decision_row *f)
{
	const struct decision_row *k;

	if (!f || !moves_any(&f->t->moves))
		return NULL;
	k = best(rows, n, 1);
	if (!k || k->slower || !(k->faster || k->untested) ||
	    !(k->gains && k->log_gain > 0))
		return NULL;
	return k;
}

/*
 * "Move to pnpm to keep every version (12.08x faster, 1 change); bun
 * is 14.00x faster but moves 54 versions (3 major)."
 */
static void keeper_sentence(struct pmbench_buf *out,
			    const struct decision_row *k,
			    const struct decision_row *f)
{
	if (k->faster)
		pmbench_buf_addf(out, "Move to %s to keep every version (",
				 k->t->name);
	else
		pmbench_buf_addf(out, "%s keeps every version (", k->t->name);
	gain_text(out, k);
	if (!k->faster)
		pmbench_buf_adds(out, ", too few runs to test");
	if (k->t->changes_nr == 0)
		pmbench_buf_adds(out, ", nothing to change");
	else if (k->t->changes_nr > 0)
		pmbench_buf_addf(out, ", %d change%s", k->t->changes_nr,
				 k->t->changes_nr == 1 ? "" : "s");
	pmbench_buf_addf(out, "); %s is ", f->t->name);
	gain_text(out, f);
	pmbench_buf_adds(out, " but ");
	moves_text(out, &f->t->moves);
	if (!k->faster || (f->untested && !f->faster))
		pmbench_buf_adds(out, "; --runs 5 or more to test the "
				      "speed-ups");
	pmbench_buf_adds(out, ".");
}

/* The one sentence of verdict, from the rows. */
static void sentence(struct pmbench_buf *out, const struct decision_row *rows,
		     size_t n, const struct pmbench_decision *m)
{
	const struct decision_row *d = best(rows, n, 0);
	const struct decision_row *k = keeper(rows, n, d);
	const char *source = m->reference;

	if (m->lead)
		pmbench_buf_addf(out, "%s: %s %s.", m->lead,
				 n ? rows[0].t->name : source,
				 n ? rows[0].says.ptr : "did not run");
	else if (!n)
		pmbench_buf_addf(out, "No target: %s was the only PM.", source);
	else if (!d)
		pmbench_buf_addf(out,
				 "Stay on %s: no target passes every check "
				 "%s passes (the rows that say FAILS or do "
				 "not %s).",
				 source, source,
				 m->migrate ? "install" : "run");
	else if (k)
		keeper_sentence(out, k, d);
	else if (d->faster && !d->slower)
		pmbench_buf_addf(out, "Move to %s: %s.", d->t->name,
				 d->says.ptr);
	else if (d->faster)
		pmbench_buf_addf(out,
				 "%s passes every check but is faster in some "
				 "cells and slower in others: %s.",
				 d->t->name, d->says.ptr);
	else if (d->untested)
		pmbench_buf_addf(out,
				 "%s passes every check; too few runs to "
				 "tell whether it is faster than %s (--runs "
				 "5 or more): %s.",
				 d->t->name, source, d->says.ptr);
	else
		pmbench_buf_addf(out,
				 "Stay on %s unless another reason moves you: "
				 "%s passes every check but is not measurably "
				 "faster: %s.",
				 source, d->t->name, d->says.ptr);
}

/* The table's columns: the fixed ones, one per timed cell, the changes. */
static struct pmbench_doc_column *columns(const struct pmbench_decision *m,
					  size_t *n)
{
	static const char *const fixed[] = { "target",	       "installs",
					     "versions moved", "build",
					     "tests",	       "dev server" };
	size_t nfixed = m->migrate ? PMBENCH_ARRAY_SIZE(fixed) : COL_OK + 1;
	struct pmbench_doc_column *c;

	*n = nfixed + m->heads.nr + (m->migrate ? 1 : 0);
	c = pmbench_xcalloc(*n, sizeof(*c));
	for (size_t i = 0; i < nfixed; i++)
		c[i].header = fixed[i];
	c[COL_TARGET].fields[0].key = "pm";
	c[COL_OK].header = m->ok_head;
	for (size_t i = 0; i < m->heads.nr; i++)
		c[nfixed + i].header = m->heads.v[i];
	if (m->migrate)
		c[*n - 1].header = "what you change";
	return c;
}

void pmbench_kind_decision(struct pmbench_doc *out,
			   const struct pmbench_decision *m)
{
	struct pmbench_doc_column *cols;
	struct pmbench_doc_table *t;
	struct decision_row *rows;
	struct pmbench_buf v = PMBENCH_BUF_INIT;
	size_t n;

	cols = columns(m, &n);
	rows = pmbench_xcalloc(m->targets_nr ? m->targets_nr : 1,
			       sizeof(*rows));
	if (m->against)
		pmbench_doc_heading(out, PMBENCH_DOC_HUMAN, 2,
				    "Decision: against %s (%s)", m->reference,
				    m->against);
	else
		pmbench_doc_heading(out, PMBENCH_DOC_HUMAN, 2, "Decision");
	t = pmbench_doc_table(out, PMBENCH_DOC_HUMAN, "decision", cols, n);
	for (size_t i = 0; i < m->targets_nr; i++) {
		rows[i].t = &m->targets[i];
		decision_row(t, &rows[i], m);
	}
	sentence(&v, rows, m->targets_nr, m);
	pmbench_doc_para(out, PMBENCH_DOC_HUMAN, "%s", v.ptr);
	free(out->decision);
	out->decision = pmbench_buf_detach(&v);
	for (size_t i = 0; i < m->targets_nr; i++)
		pmbench_buf_release(&rows[i].says);
	free(rows);
	free(cols);
}

/* The decision table's rows as objects, each header to its text. */
static cJSON *rows_json(const struct pmbench_doc_table *t)
{
	cJSON *arr = cJSON_CreateArray();

	for (size_t i = 0; arr && i < t->rows_nr; i++) {
		const struct pmbench_doc_row *row = &t->rows[i];
		cJSON *o = cJSON_CreateObject();

		if (!o || !cJSON_AddItemToArray(arr, o))
			pmbench_die("out of memory building JSON");
		for (size_t k = 0; k < t->cols_nr; k++) {
			const char *text = row->cells[k].text;

			if (row->note && k == row->note_from)
				text = row->note;
			if (text && !cJSON_AddStringToObject(
					    o, t->cols[k].header, text))
				pmbench_die("out of memory building JSON");
		}
	}
	if (!arr)
		pmbench_die("out of memory building JSON");
	return arr;
}

void pmbench_kind_decision_json(void *root, const struct pmbench_doc *doc)
{
	const struct pmbench_doc_table *t = NULL;
	cJSON *o;

	for (size_t i = 0; i < doc->blocks_nr && !t; i++)
		if (doc->blocks[i]->kind == PMBENCH_DOC_TABLE &&
		    !strcmp(doc->blocks[i]->table.id, "decision"))
			t = &doc->blocks[i]->table;
	if (!t || !doc->decision)
		return;
	o = cJSON_AddObjectToObject(root, "decision");
	if (!o || !cJSON_AddStringToObject(o, "verdict", doc->decision) ||
	    !cJSON_AddItemToObject(o, "targets", rows_json(t)))
		pmbench_die("out of memory building JSON");
}

char *pmbench_kind_migrate_decision_json(char *json,
					 const struct pmbench_migrate *m,
					 const struct pmbench_result *r)
{
	struct pmbench_doc d = PMBENCH_DOC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	cJSON *root = cJSON_Parse(json);
	char *text;

	if (!root)
		return json;
	pmbench_doc_init(&d, "migrate", "decision");
	pmbench_kind_migrate_decision(&d, m, r);
	pmbench_kind_decision_json(root, &d);
	text = cJSON_Print(root);
	if (!text)
		pmbench_die("out of memory printing JSON");
	pmbench_buf_adds(&b, text);
	pmbench_buf_addch(&b, '\n');
	cJSON_free(text);
	cJSON_Delete(root);
	free(json);
	pmbench_doc_release(&d);
	return pmbench_buf_detach(&b);
}
