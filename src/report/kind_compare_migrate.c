/*
 * Two migrations compared (`compare` of two migrate results): per
 * target, what moved from A to B, in migrate's own words for each side
 * (whether it installs, how its lockfile was made, the versions it
 * resolves against the source, each parity task, its speed against the
 * source per scenario), what it resolves differently in B than in A,
 * then the two benchmarks cell by cell as compare shows two results.
 */
#include "pmbench/common.h"

#include "internal.h"
#include "pmbench/report_kind.h"
#include "pmbench/task.h"

/* Version changes listed per target; the moves table counts them all. */
#define MOVES_SHOWN 12

enum {
	MV_PM,
	MV_CHECK,
	MV_A,
	MV_B,
	MV_MOVED,
};

/* One row per target and check, for CSV and JSON. */
static const struct pmbench_doc_column move_cols[] = {
	[MV_PM] = { NULL, 0, { { "pm", PMBENCH_DOC_TEXT, 0 } } },
	[MV_CHECK] = { NULL, 0, { { "check", PMBENCH_DOC_TEXT, 0 } } },
	[MV_A] = { NULL,
		   0,
		   { { "a", PMBENCH_DOC_TEXT, 0 },
		     { "speedup_a", PMBENCH_DOC_NUMBER, 0 },
		     { "speedup_a_ci95", PMBENCH_DOC_NUMBER,
		       PMBENCH_DOC_INTERVAL } } },
	[MV_B] = { NULL,
		   0,
		   { { "b", PMBENCH_DOC_TEXT, 0 },
		     { "speedup_b", PMBENCH_DOC_NUMBER, 0 },
		     { "speedup_b_ci95", PMBENCH_DOC_NUMBER,
		       PMBENCH_DOC_INTERVAL } } },
	[MV_MOVED] = { NULL, 0, { { "moved", PMBENCH_DOC_FLAG, 0 } } },
};

/* Both sides of one target: the migrations and their results. */
struct side {
	const struct pmbench_migrate *m;
	const struct pmbench_result *r;
	const struct pmbench_migrate_pm *src, *e; /* e: NULL, not a target */
};

/* One check's text in A and in B, and its figures (a speed's). */
struct check {
	struct pmbench_buf a, b;
	int differs;	  /* moved whatever the texts say (a resolution) */
	int has_a, has_b; /* a speed: source / target and its interval */
	struct pmbench_kind_speed sa, sb;
};

static void check_init(struct check *k)
{
	memset(k, 0, sizeof(*k));
	pmbench_buf_init(&k->a);
	pmbench_buf_init(&k->b);
}

/* Moved: the texts differ, or a speed's intervals do not overlap. */
static int moved(const struct check *k)
{
	if (k->has_a && k->has_b)
		return pmbench_kind_speedup_moved(&k->sa, &k->sb) != 0;
	return k->differs || strcmp(k->a.ptr, k->b.ptr) != 0;
}

/* The check as a list item for people and a row for data. */
static void say(struct pmbench_doc_block *list, struct pmbench_doc_table *t,
		const char *pm, const char *name, const struct check *k,
		size_t *moves)
{
	struct pmbench_doc_row *row = pmbench_doc_row(t);
	int m = moved(k);

	pmbench_doc_item(list, "%s: %s -> %s%s", name, k->a.ptr, k->b.ptr,
			 m ? " (moved)" : "");
	pmbench_doc_str(row, MV_PM, 0, pm);
	pmbench_doc_str(row, MV_CHECK, 0, name);
	pmbench_doc_str(row, MV_A, 0, k->a.ptr);
	pmbench_doc_str(row, MV_B, 0, k->b.ptr);
	if (k->has_a) {
		pmbench_doc_num(row, MV_A, 1, k->sa.up.point);
		pmbench_doc_interval(row, MV_A, 2, k->sa.up.lo, k->sa.up.hi);
	}
	if (k->has_b) {
		pmbench_doc_num(row, MV_B, 1, k->sb.up.point);
		pmbench_doc_interval(row, MV_B, 2, k->sb.up.lo, k->sb.up.hi);
	}
	pmbench_doc_num(row, MV_MOVED, 0, m);
	*moves += m;
}

/* "yes" or "no: <its first line>"; "not a target" when absent. */
static void installs(struct pmbench_buf *b, const struct side *s)
{
	if (!s->e)
		pmbench_buf_adds(b, "not a target");
	else if (s->e->prime_failure)
		pmbench_buf_addf(b, "no: %.*s",
				 (int)strcspn(s->e->prime_failure, "\n"),
				 s->e->prime_failure);
	else
		pmbench_buf_adds(b, "yes");
}

static void lockfile(struct pmbench_buf *b, const struct side *s)
{
	if (!s->e)
		pmbench_buf_adds(b, "not a target");
	else if (s->e->lockfile)
		pmbench_buf_adds(b, s->e->lockfile);
	else
		pmbench_buf_adds(b, s->e->prime_failure ? "none (no install)"
							: "?");
}

/* Against the source: migrate's words, or why there is nothing to say. */
static void versions(struct pmbench_buf *b, const struct side *s)
{
	if (!s->e)
		pmbench_buf_adds(b, "not a target");
	else if (!s->src || !s->src->scanned || !s->e->scanned)
		pmbench_buf_adds(b, "not scanned (no install)");
	else
		pmbench_kind_migrate_resolution(b, s->src, s->e);
}

/* A parity task in migrate's words, or that it was not run. */
static void task(struct pmbench_buf *b, const struct side *s, const char *name)
{
	const struct pmbench_migrate_task *t =
		pmbench_migrate_task_get(s->e, name);

	if (t)
		pmbench_kind_migrate_task(b, s->src, s->e, t);
	else
		pmbench_buf_addf(b, "%s not run", name);
}

/* "1.20x faster (0.90x-1.55x)": the target against the source. */
static void speed(struct pmbench_buf *b, int *has,
		  struct pmbench_kind_speed *sp, const struct side *s,
		  const char *task_name, const char *scenario)
{
	*has = s->e &&
	       pmbench_kind_migrate_speed(sp, s->r, s->m->source_pm, s->m->seed,
					  task_name, scenario, s->e->pm);
	if (*has)
		pmbench_kind_speedup_text(b, sp, s->m->source_pm, s->e->pm);
	else
		pmbench_buf_adds(b, "not timed");
}

/* The parity tasks either side ran, each once. */
static void task_names(struct pmbench_strvec *out, const struct side *a,
		       const struct side *b)
{
	for (int k = 0; k < 2; k++) {
		const struct pmbench_migrate_pm *e = k ? b->e : a->e;

		for (size_t i = 0; e && i < e->tasks_nr; i++)
			if (pmbench_strvec_find(out, e->tasks[i].name) < 0)
				pmbench_strvec_push(out, e->tasks[i].name);
	}
}

/* Every timed (task, scenario) of either result, "task\tscenario". */
static void timed_names(struct pmbench_strvec *out,
			const struct pmbench_result *ra,
			const struct pmbench_result *rb)
{
	for (int k = 0; k < 2; k++) {
		const struct pmbench_result *r = k ? rb : ra;

		for (size_t i = 0; i < r->cells_nr; i++) {
			struct pmbench_buf n = PMBENCH_BUF_INIT;

			pmbench_buf_addf(&n, "%s\t%s", r->cells[i].task,
					 r->cells[i].scenario);
			if (pmbench_strvec_find(out, n.ptr) < 0)
				pmbench_strvec_push(out, n.ptr);
			pmbench_buf_release(&n);
		}
	}
}

/* The speed checks of one target: one per timed task and scenario. */
static void speeds(struct pmbench_doc_block *list, struct pmbench_doc_table *t,
		   const struct side *a, const struct side *b, size_t *moves)
{
	struct pmbench_strvec timed = PMBENCH_STRVEC_INIT;
	struct pmbench_buf name = PMBENCH_BUF_INIT;

	timed_names(&timed, a->r, b->r);
	for (size_t i = 0; i < timed.nr; i++) {
		char *tab = strchr(timed.v[i], '\t');
		struct check k;

		*tab = '\0';
		check_init(&k);
		speed(&k.a, &k.has_a, &k.sa, a, timed.v[i], tab + 1);
		speed(&k.b, &k.has_b, &k.sb, b, timed.v[i], tab + 1);
		pmbench_buf_reset(&name);
		pmbench_buf_addf(&name, "%s %s", timed.v[i], tab + 1);
		if (k.has_a || k.has_b)
			say(list, t, (a->e ? a->e : b->e)->pm, name.ptr, &k,
			    moves);
		pmbench_buf_release(&k.a);
		pmbench_buf_release(&k.b);
	}
	pmbench_strvec_release(&timed);
	pmbench_buf_release(&name);
}

/*
 * A check whose text each side's `fn` writes; `differs`: it moved
 * whatever the texts say.
 */
static void text_check(struct pmbench_doc_block *list,
		       struct pmbench_doc_table *t, const char *pm,
		       const char *name,
		       void (*fn)(struct pmbench_buf *, const struct side *),
		       const struct side *a, const struct side *b, int differs,
		       size_t *moves)
{
	struct check k;

	check_init(&k);
	k.differs = differs;
	fn(&k.a, a);
	fn(&k.b, b);
	say(list, t, pm, name, &k, moves);
	pmbench_buf_release(&k.a);
	pmbench_buf_release(&k.b);
}

/* Whether both sides scanned what the target installed. */
static int both_scanned(const struct side *a, const struct side *b)
{
	return a->e && b->e && a->e->scanned && b->e->scanned;
}

/* Whether the target resolves anything differently in B than in A. */
static int resolves_otherwise(const struct side *a, const struct side *b)
{
	struct pmbench_resolution_diff diff = PMBENCH_RESOLUTION_DIFF_INIT;
	int n;

	if (!both_scanned(a, b))
		return 0;
	pmbench_resolution_diff(&diff, &a->e->res, &b->e->res);
	n = diff.changes_nr > 0;
	pmbench_resolution_diff_release(&diff);
	return n;
}

/* What the target resolves differently in B than in A. */
static void resolved(struct pmbench_doc *d, const struct side *a,
		     const struct side *b)
{
	struct pmbench_resolution_diff diff = PMBENCH_RESOLUTION_DIFF_INIT;
	struct pmbench_doc_block *list;

	if (!both_scanned(a, b))
		return;
	pmbench_resolution_diff(&diff, &a->e->res, &b->e->res);
	if (!diff.changes_nr)
		goto done;
	pmbench_doc_para(d, PMBENCH_DOC_HUMAN,
			 "%s resolves differently in B than in A: %zu other "
			 "versions, %zu only in A, %zu only in B",
			 b->e->pm, diff.changed, diff.only_source,
			 diff.only_target);
	list = pmbench_doc_list(d, PMBENCH_DOC_HUMAN);
	for (size_t i = 0; i < diff.changes_nr && i < MOVES_SHOWN; i++) {
		const struct pmbench_change *c = &diff.changes[i];

		if (c->kind == PMBENCH_CHANGE_VERSION)
			pmbench_doc_item(list, "%s %s -> %s (%s)", c->name,
					 c->from, c->to, c->level);
		else
			pmbench_doc_item(list, "%s %s only in %s", c->name,
					 c->from ? c->from : c->to,
					 c->from ? "A" : "B");
	}
	if (diff.changes_nr > MOVES_SHOWN)
		pmbench_doc_item(list, "... and %zu more",
				 diff.changes_nr - MOVES_SHOWN);
done:
	pmbench_resolution_diff_release(&diff);
}

/* One target: every check, then what it resolves differently. */
static size_t target(struct pmbench_doc *d, struct pmbench_doc_table *t,
		     const struct side *a, const struct side *b)
{
	const char *pm = (b->e ? b->e : a->e)->pm;
	struct pmbench_strvec tasks = PMBENCH_STRVEC_INIT;
	struct pmbench_doc_block *list;
	size_t moves = 0;

	pmbench_doc_heading(d, PMBENCH_DOC_HUMAN, 2, "%s against %s", pm,
			    b->m->source_pm);
	list = pmbench_doc_list(d, PMBENCH_DOC_HUMAN);
	text_check(list, t, pm, "installs", installs, a, b, 0, &moves);
	text_check(list, t, pm, "lockfile", lockfile, a, b, 0, &moves);
	text_check(list, t, pm, "versions", versions, a, b,
		   resolves_otherwise(a, b), &moves);
	task_names(&tasks, a, b);
	for (size_t i = 0; i < tasks.nr; i++) {
		struct check k;

		check_init(&k);
		task(&k.a, a, tasks.v[i]);
		task(&k.b, b, tasks.v[i]);
		say(list, t, pm, tasks.v[i], &k, &moves);
		pmbench_buf_release(&k.a);
		pmbench_buf_release(&k.b);
	}
	speeds(list, t, a, b, &moves);
	resolved(d, a, b);
	pmbench_strvec_release(&tasks);
	return moves;
}

/* `m`'s entry of `pm` when it is a target there, else NULL. */
static const struct pmbench_migrate_pm *
target_of(const struct pmbench_migrate *m, const char *pm)
{
	const struct pmbench_migrate_pm *e = pmbench_migrate_get(m, pm);

	return e && strcmp(pm, m->source_pm) ? e : NULL;
}

/* B's targets in its order, then those only A had. */
static void targets(struct pmbench_strvec *out,
		    const struct pmbench_migrate *ma,
		    const struct pmbench_migrate *mb)
{
	for (int k = 0; k < 2; k++) {
		const struct pmbench_migrate *m = k ? ma : mb;

		for (size_t i = 0; i < m->pms_nr; i++)
			if (target_of(m, m->pms[i].pm) &&
			    pmbench_strvec_find(out, m->pms[i].pm) < 0)
				pmbench_strvec_push(out, m->pms[i].pm);
	}
}

void pmbench_report_compare_migrate(struct pmbench_doc *out,
				    const struct pmbench_report_compare *c,
				    const struct pmbench_migrate *ma,
				    const struct pmbench_migrate *mb)
{
	struct pmbench_strvec pms = PMBENCH_STRVEC_INIT;
	struct pmbench_doc_table *t;
	size_t moves = 0;

	pmbench_kind_compare_head(
		out, c, "pmbench comparison of two migrations", "moves");
	pmbench_doc_para(out, PMBENCH_DOC_HUMAN,
			 "A migrates from %s (%s)\nB migrates from %s (%s)",
			 ma->source_pm, ma->detected_by ? ma->detected_by : "?",
			 mb->source_pm,
			 mb->detected_by ? mb->detected_by : "?");
	t = pmbench_doc_table(out, PMBENCH_DOC_DATA, "moves", move_cols,
			      PMBENCH_ARRAY_SIZE(move_cols));
	targets(&pms, ma, mb);
	for (size_t i = 0; i < pms.nr; i++) {
		struct side a = { ma, c->a,
				  pmbench_migrate_get(ma, ma->source_pm),
				  target_of(ma, pms.v[i]) };
		struct side b = { mb, c->b,
				  pmbench_migrate_get(mb, mb->source_pm),
				  target_of(mb, pms.v[i]) };

		moves += target(out, t, &a, &b);
	}
	pmbench_doc_note(out, PMBENCH_DOC_HUMAN, PMBENCH_DOC_NOTE,
			 "%zu check(s) moved from A to B (a speed moves when "
			 "its 95%% intervals in A and B do not overlap)",
			 moves);
	pmbench_kind_compare_cells(out, c);
	pmbench_strvec_release(&pms);
}
