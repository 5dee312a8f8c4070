/*
 * The trash in a budget's plan (trashplan.h): where it must be emptied,
 * given what each group's round leaves in it and its room, and what an
 * emptying costs on this machine kind. Pure arithmetic: bench.c measures
 * the rounds and the room, and empties the trash where this says.
 */
#include "pmbench/common.h"

#include "pmbench/buf.h"
#include "pmbench/ctx.h"
#include "pmbench/fs.h"
#include "pmbench/result.h"
#include "pmbench/trashplan.h"
#include "pmbench/workdir.h"

/*
 * Measured on this machine kind (2 cores, ext4 without a journal on a
 * virtual disk; docs/statistics.md, "What emptying the trash costs"):
 * the default bench's forced emptying deleted 913,534 files in 93 s on
 * a quiet machine (2026-12-06 01:47), then waited 355 s; ci/fswait-cost.py
 * (2026-12-06 05:08, load 10) waited 184 s after 50,000 files and 333 s
 * after 200,000. The wait is minutes whatever the size: at least
 * WAIT_MIN, WAIT_PER_MFILE s per million files, at most the reuse delay;
 * none below MANY_FILES, which the trash does not record (trash.c).
 */
#define DELETE_RATE    9800.0
#define WAIT_PER_MFILE 1700.0
#define WAIT_MIN       180.0
#define MANY_FILES     1000

void pmbench_trash_model_default(struct pmbench_trash_model *out,
				 unsigned reuse_delay_s)
{
	out->delete_rate = DELETE_RATE;
	out->wait_per_mfile = reuse_delay_s ? WAIT_PER_MFILE : 0;
	out->wait_min = reuse_delay_s ? WAIT_MIN : 0;
	out->wait_max = reuse_delay_s;
	out->wait_from = MANY_FILES;
}

int pmbench_trash_must_empty(const struct pmbench_fs_trash_room *room,
			     const struct pmbench_trash_need *need,
			     unsigned rounds)
{
	if (!room->used_bytes && !room->used_files)
		return 0;
	return room->used_bytes + rounds * need->bytes > room->limit_bytes ||
	       room->used_files + rounds * need->files > room->limit_files;
}

uint64_t pmbench_trash_cost_ns(uint64_t files,
			       const struct pmbench_trash_model *m)
{
	double s = m->delete_rate > 0 ? (double)files / m->delete_rate : 0;
	double wait = m->wait_per_mfile * (double)files / 1e6;

	if (files < m->wait_from)
		wait = 0;
	else if (wait < m->wait_min)
		wait = m->wait_min;
	if (wait > m->wait_max)
		wait = m->wait_max;
	return files ? (uint64_t)((s + wait) * 1e9) : 0;
}

/* One emptying of what `room` holds: counted, costed, the room empty. */
static void empty(struct pmbench_trash_plan *out,
		  struct pmbench_fs_trash_room *room, size_t g,
		  const struct pmbench_trash_model *m)
{
	if (!out->emptyings++)
		out->first_group = g;
	out->files += room->used_files;
	out->bytes += room->used_bytes;
	out->cost_ns += pmbench_trash_cost_ns(room->used_files, m);
	room->used_bytes = 0;
	room->used_files = 0;
}

/*
 * Group g's rounds into `room`, one at a time: a round the trash cannot
 * hold any more empties it first (a discard does so within the group).
 */
static void within(struct pmbench_trash_plan *out,
		   struct pmbench_fs_trash_room *room,
		   const struct pmbench_trash_need *need, unsigned rounds,
		   size_t g, const struct pmbench_trash_model *m)
{
	for (unsigned r = 0; r < rounds; r++) {
		if (pmbench_trash_must_empty(room, need, 1)) {
			empty(out, room, g, m);
			out->within++;
		}
		room->used_bytes += need->bytes;
		room->used_files += need->files;
	}
}

void pmbench_trash_plan_make(struct pmbench_trash_plan *out,
			     const struct pmbench_trash_need *need,
			     const unsigned *rounds, size_t nr,
			     const struct pmbench_fs_trash_room *room,
			     const struct pmbench_trash_model *m)
{
	struct pmbench_fs_trash_room r = *room;

	memset(out, 0, sizeof(*out));
	out->first_group = nr;
	for (size_t g = 0; g < nr; g++) {
		if (!rounds[g])
			continue;
		if (pmbench_trash_must_empty(&r, &need[g], rounds[g]))
			empty(out, &r, g, m);
		within(out, &r, &need[g], rounds[g], g, m);
	}
}

void pmbench_trash_further(struct pmbench_trash_need *need, unsigned *rounds,
			   const uint64_t *round_ns, size_t nr,
			   uint64_t extra_ns,
			   const struct pmbench_trash_pace *pace)
{
	struct pmbench_trash_need sum = { 0, 0 };
	double ns = 0, share;

	if (pace && pace->ns) {
		sum = pace->need;
		ns = (double)pace->ns;
	} else {
		for (size_t g = 0; g < nr; g++) {
			sum.bytes += need[g].bytes;
			sum.files += need[g].files;
			ns += (double)round_ns[g];
		}
	}
	rounds[nr] = ns > 0 && extra_ns;
	share = rounds[nr] ? (double)extra_ns / ns : 0;
	need[nr].bytes = (uint64_t)((double)sum.bytes * share);
	need[nr].files = (uint64_t)((double)sum.files * share);
}

struct pmbench_trash_pace
pmbench_trash_pace_of(const struct pmbench_schedule_cell *cells, size_t groups,
		      size_t pms, const unsigned *done,
		      const struct pmbench_schedule_budget *o, uint64_t need_ns,
		      pmbench_trash_round_fn round, void *payload)
{
	struct pmbench_trash_pace pace = { { 0, 0 }, 0 };
	unsigned *rounds;
	double *most;
	int *runs;

	if (need_ns == UINT64_MAX || !need_ns || !groups)
		return pace;
	rounds = pmbench_xcalloc(groups, sizeof(*rounds));
	most = pmbench_xcalloc(groups, sizeof(*most));
	runs = pmbench_xcalloc(groups * pms + 1, sizeof(*runs));
	/* Before the minimum's rounds the cells are judged at its end. */
	for (size_t g = 0; g < groups; g++)
		rounds[g] = done[g] > o->min_runs ? done[g] : o->min_runs;
	pmbench_schedule_need_rounds(cells, groups * pms, rounds, groups, o,
				     most, runs);
	for (size_t g = 0; g < groups; g++) {
		struct pmbench_trash_need n;

		if (!(most[g] > 0))
			continue;
		n = round(payload, g, &runs[g * pms]);
		pace.need.bytes += (uint64_t)(most[g] * (double)n.bytes);
		pace.need.files += (uint64_t)(most[g] * (double)n.files);
	}
	pace.ns = need_ns;
	free(rounds);
	free(most);
	free(runs);
	return pace;
}

void pmbench_trash_now(struct pmbench_fs_trash_room *room,
		       struct pmbench_trash_model *m,
		       const struct pmbench_ctx *ctx)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT;

	pmbench_trash_snap(room, ctx);
	/* --no-fs-wait: the deletion alone. */
	pmbench_trash_model_default(m, ctx->no_fs_wait
					       ? 0
					       : pmbench_fs_inode_reuse_delay(
							 ctx->cache_dir, &why));
	pmbench_buf_release(&why);
}

void pmbench_trash_plan_now(struct pmbench_trash_plan *out,
			    const struct pmbench_ctx *ctx,
			    const struct pmbench_trash_need *need,
			    const unsigned *rounds, size_t nr)
{
	struct pmbench_fs_trash_room room;
	struct pmbench_trash_model m;

	pmbench_trash_now(&room, &m, ctx);
	pmbench_trash_plan_make(out, need, rounds, nr, &room, &m);
}

uint64_t pmbench_trash_room_cost_ns(const struct pmbench_ctx *ctx,
				    const struct pmbench_trash_need *need,
				    unsigned rounds)
{
	struct pmbench_fs_trash_room room;
	struct pmbench_trash_model m;

	pmbench_trash_now(&room, &m, ctx);
	if (!pmbench_trash_must_empty(&room, need, rounds))
		return 0;
	return pmbench_trash_cost_ns(room.used_files, &m);
}

/*
 * The emptyings of the plan's rounds: each group's to its minimum, then
 * `extra_ns` of further rounds (`need` and `rounds`: nr + 1 each).
 */
static void plan_trash(struct pmbench_trash_plan *tp,
		       const struct pmbench_schedule_costs *g, size_t nr,
		       struct pmbench_trash_need *need, unsigned *rounds,
		       uint64_t *round_ns, uint64_t extra_ns,
		       const struct pmbench_trash_pace *pace,
		       const struct pmbench_fs_trash_room *room,
		       const struct pmbench_trash_model *m)
{
	for (size_t i = 0; i < nr; i++) {
		rounds[i] = g[i].min > g[i].done ? g[i].min - g[i].done : 0;
		round_ns[i] = g[i].round_ns;
	}
	pmbench_trash_further(need, rounds, round_ns, nr, extra_ns, pace);
	pmbench_trash_plan_make(tp, need, rounds, nr + 1, room, m);
}

/*
 * The most of `extra_ns` of further rounds that the trash holds without
 * an emptying more than the minimum's (`first`, its cost): to the
 * millisecond, as an emptying only comes with more rounds.
 */
static uint64_t held_ns(struct pmbench_trash_plan *tp,
			const struct pmbench_schedule_costs *g, size_t nr,
			struct pmbench_trash_need *need, unsigned *rounds,
			uint64_t *round_ns, uint64_t extra_ns, uint64_t first,
			const struct pmbench_trash_pace *pace,
			const struct pmbench_fs_trash_room *room,
			const struct pmbench_trash_model *m)
{
	uint64_t lo = 0, hi = extra_ns;

	while (hi - lo > 1000000) {
		uint64_t mid = lo + (hi - lo) / 2;

		plan_trash(tp, g, nr, need, rounds, round_ns, mid, pace, room,
			   m);
		if (tp->cost_ns > first)
			hi = mid;
		else
			lo = mid;
	}
	return lo;
}

void pmbench_trash_plan_budget(struct pmbench_schedule_plan *plan,
			       struct pmbench_trash_plan *tp,
			       const struct pmbench_schedule_costs *g,
			       size_t nr, const struct pmbench_trash_need *need,
			       const struct pmbench_trash_pace *pace,
			       const struct pmbench_fs_trash_room *room,
			       const struct pmbench_trash_model *m,
			       uint64_t used_ns, uint64_t budget_ns,
			       uint64_t need_ns)
{
	struct pmbench_trash_need *n = pmbench_xcalloc(nr + 1, sizeof(*n));
	unsigned *rounds = pmbench_xcalloc(nr + 1, sizeof(*rounds));
	uint64_t *round_ns = pmbench_xcalloc(nr + 1, sizeof(*round_ns));
	uint64_t first, more;

	memcpy(n, need, nr * sizeof(*n));
	/* The minimum's emptyings: part of what the minimum needs. */
	plan_trash(tp, g, nr, n, rounds, round_ns, 0, pace, room, m);
	first = tp->cost_ns;
	pmbench_schedule_plan_make(plan, g, nr, used_ns, first, budget_ns,
				   need_ns);
	/*
	 * The further rounds' emptying: off what is left for them, unless
	 * the rounds the trash holds without one come to more (an emptying
	 * longer than what is left: the budget then runs rounds until the
	 * trash is full, bench.c's room_fits(), and stops there).
	 */
	plan_trash(tp, g, nr, n, rounds, round_ns, plan->extra_ns, pace, room,
		   m);
	more = tp->cost_ns - first;
	if (more) {
		uint64_t paid = plan->extra_ns > more ? plan->extra_ns - more
						      : 0;
		uint64_t held = held_ns(tp, g, nr, n, rounds, round_ns,
					plan->extra_ns, first, pace, room, m);

		/*
		 * Waiting is bought only with rounds: the emptying when
		 * the rounds it makes room for (beyond those the trash
		 * holds) are at least as long as it, as at the rounds'
		 * end (pmbench_trash_round_fits()). Before, ci-cache
		 * emptied 559,964 files for one round of 20 s and then
		 * waited for the file system past its budget.
		 */
		plan->extra_ns = paid >= held + more ? paid : held;
		plan_trash(tp, g, nr, n, rounds, round_ns, plan->extra_ns, pace,
			   room, m);
		plan->end_ns =
			plan->fit_ns + plan->extra_ns + tp->cost_ns - first;
	}
	free(n);
	free(rounds);
	free(round_ns);
}

void pmbench_trash_snap(struct pmbench_fs_trash_room *out,
			const struct pmbench_ctx *ctx)
{
	if (pmbench_fs_trash_room(out, ctx->cache_dir) < 0)
		pmbench_error_clear();
}

void pmbench_trash_took(struct pmbench_trash_need *out,
			const struct pmbench_fs_trash_room *before,
			const struct pmbench_ctx *ctx, unsigned k)
{
	struct pmbench_fs_trash_room now;

	pmbench_trash_snap(&now, ctx);
	if (!before->avail_bytes || !now.avail_bytes || !k)
		return;
	/* Less free: what was written. More (the trash emptied): none. */
	out->bytes = before->avail_bytes > now.avail_bytes
			     ? (before->avail_bytes - now.avail_bytes) / k
			     : 0;
	out->files = before->avail_files > now.avail_files
			     ? (before->avail_files - now.avail_files) / k
			     : 0;
}

int pmbench_trash_make_room(const struct pmbench_ctx *ctx,
			    const struct pmbench_trash_need *need,
			    unsigned rounds, const char *label,
			    struct pmbench_trash_tally *t)
{
	struct pmbench_buf trash = PMBENCH_BUF_INIT;
	struct pmbench_fs_trash_room room;
	int ret = 0;

	pmbench_workdir_trash(&trash, ctx->cache_dir);
	if (pmbench_fs_trash_room(&room, ctx->cache_dir) < 0) {
		pmbench_error_clear();
		goto done;
	}
	if (!pmbench_trash_must_empty(&room, need, rounds))
		goto done;
	pmbench_ctx_event(ctx,
			  "emptying the trash before %s's rounds, outside the "
			  "timed runs: it holds %.1f GB and %llu files, and "
			  "%u round%s of %.1f MB and %llu files each would "
			  "take it past its limit (%.1f GB or %llu files)",
			  label, (double)room.used_bytes / 1e9,
			  (unsigned long long)room.used_files, rounds,
			  rounds == 1 ? "" : "s", (double)need->bytes / 1e6,
			  (unsigned long long)need->files,
			  (double)room.limit_bytes / 1e9,
			  (unsigned long long)room.limit_files);
	ret = pmbench_fs_trash_empty(trash.ptr);
	if (!ret) {
		t->files += room.used_files;
		if (!t->emptied++)
			t->first = label;
		ret = 1;
	}
done:
	pmbench_buf_release(&trash);
	return ret;
}

int pmbench_trash_round_fits(const struct pmbench_ctx *ctx,
			     const struct pmbench_trash_need *need,
			     uint64_t est_ns, double overrun, uint64_t left_ns)
{
	uint64_t cost = pmbench_trash_room_cost_ns(ctx, need, 1);
	uint64_t est = (uint64_t)((double)est_ns * overrun);
	struct pmbench_buf w = PMBENCH_BUF_INIT, l = PMBENCH_BUF_INIT;

	if (!cost)
		return 1;
	if (cost + est <= left_ns && left_ns - cost >= cost)
		return 1;
	pmbench_buf_add_clock(&w, (double)cost / 1e9);
	pmbench_buf_add_clock_unit(&l, (double)left_ns / 1e9);
	pmbench_ctx_event(ctx,
			  "no further rounds: the trash is full, and emptying "
			  "it (the deletion, then the file system's wait) "
			  "would take about %s of the %s left, leaving less "
			  "for rounds than it takes",
			  w.ptr, l.ptr);
	pmbench_buf_release(&w);
	pmbench_buf_release(&l);
	return 0;
}

void pmbench_trash_note_tally(struct pmbench_result *r,
			      const struct pmbench_trash_tally *t,
			      const char *runs)
{
	struct pmbench_buf w = PMBENCH_BUF_INIT;

	if (!t->emptied)
		return;
	pmbench_buf_addf(&w,
			 "%u time%s, %llu files, outside the timed %s: the "
			 "first before %s's rounds, which the trash could not "
			 "hold",
			 t->emptied, t->emptied == 1 ? "" : "s",
			 (unsigned long long)t->files, runs, t->first);
	pmbench_result_env_set(r, "trash_emptied_between_groups", w.ptr);
	pmbench_buf_release(&w);
}

void pmbench_trash_plan_words(struct pmbench_buf *out,
			      const struct pmbench_trash_plan *p,
			      const char *const *labels, size_t nr)
{
	if (!p->emptyings)
		return;
	if (p->emptyings == 1)
		pmbench_buf_adds(out, ", and one emptying of the trash");
	else
		pmbench_buf_addf(out, ", and %u emptyings of the trash",
				 p->emptyings);
	pmbench_buf_addf(out, " (%.1f GB, %llu files)", (double)p->bytes / 1e9,
			 (unsigned long long)p->files);
	if (p->first_group < nr)
		pmbench_buf_addf(out, " %s %s",
				 p->emptyings > 1 ? "from"
				 : p->within	  ? "within"
						  : "before",
				 labels[p->first_group]);
	pmbench_buf_adds(out, ": about ");
	pmbench_buf_add_clock_unit(out, (double)p->cost_ns / 1e9);
}

void pmbench_trash_note_forced(const struct pmbench_ctx *ctx,
			       struct pmbench_result *r)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *why;
	unsigned forced = pmbench_fs_trash_forced(&why);

	if (!forced)
		return;
	pmbench_buf_addf(&b,
			 "yes, %u time%s: the disk ran short, so some runs "
			 "followed the deletion of earlier runs' trees (the "
			 "last time, %s)",
			 forced, forced == 1 ? "" : "s", why);
	pmbench_result_env_set(r, "trash_emptied_between_runs", b.ptr);
	pmbench_ctx_warn(ctx,
			 "the disk ran short of space for the trash (%u "
			 "time%s; the last time, %s): some runs followed a "
			 "large deletion of earlier runs' trees",
			 forced, forced == 1 ? "" : "s", why);
	pmbench_buf_release(&b);
}
