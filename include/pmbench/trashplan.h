/*
 * The trash in a budget's plan (src/engine/run/trashplan.c): from what a
 * round of each group leaves in the trash and the trash's room, whether
 * and before which group it must be emptied, and what that costs (the
 * deletion, then the file system's wait after it).
 */
#ifndef PMBENCH_TRASHPLAN_H
#define PMBENCH_TRASHPLAN_H

#include "pmbench/common.h"
#include "pmbench/buf.h"
#include "pmbench/ctx.h"
#include "pmbench/fs.h"
#include "pmbench/schedule.h"

struct pmbench_result;

/** What a round leaves in the trash: space and inodes (files). */
struct pmbench_trash_need {
	uint64_t bytes, files;
};

/**
 * What emptying the trash costs on this machine kind: the deletion at
 * `delete_rate` files a second, then, from `wait_from` files on, the
 * wait for the file system (fswait.c) of `wait_per_mfile` s per million
 * files deleted, at least `wait_min` s, at most `wait_max` s (the file
 * system's inode reuse delay; 0: no wait, the file system is not slowed).
 */
struct pmbench_trash_model {
	double delete_rate;
	double wait_per_mfile, wait_min, wait_max;
	uint64_t wait_from;
};

/** The model measured on the reference machine (docs/statistics.md). */
void pmbench_trash_model_default(struct pmbench_trash_model *out,
				 unsigned reuse_delay_s);

/** Where the trash is emptied in a plan, and the cost. */
struct pmbench_trash_plan {
	unsigned emptyings;    /**< between groups, and within one */
	size_t first_group;    /**< the group of the first; nr: none */
	uint64_t files, bytes; /**< deleted in all */
	uint64_t cost_ns;      /**< the deletions and the waits after them */
	unsigned within;       /**< of them, within a group's rounds */
};

/**
 * 1 when the trash in `room` holds something and `rounds` rounds each
 * leaving `need` would take it past a limit: empty it before them.
 */
int pmbench_trash_must_empty(const struct pmbench_fs_trash_room *room,
			     const struct pmbench_trash_need *need,
			     unsigned rounds);

/** What emptying `files` files costs (model `m`), in ns. */
uint64_t pmbench_trash_cost_ns(uint64_t files,
			       const struct pmbench_trash_model *m);

/**
 * The plan's emptyings: the `nr` groups run in order, group g `rounds[g]`
 * rounds each leaving `need[g]`, from the trash's `room`. The trash is
 * emptied before a group whose rounds it cannot hold
 * (pmbench_trash_must_empty()); a group whose rounds alone exceed a
 * limit empties it within them too (pmbench_fs_discard()).
 */
void pmbench_trash_plan_make(struct pmbench_trash_plan *out,
			     const struct pmbench_trash_need *need,
			     const unsigned *rounds, size_t nr,
			     const struct pmbench_fs_trash_room *room,
			     const struct pmbench_trash_model *m);

/**
 * What the further rounds leave in the trash: `need` in `ns` of them
 * (the rounds the cells need, pmbench_schedule_need_rounds(), each run
 * by the PMs that take part in it); `ns` 0: not known.
 */
struct pmbench_trash_pace {
	struct pmbench_trash_need need;
	uint64_t ns;
};

/**
 * What a round of group `g` leaves in the trash when the PMs that
 * `runs` marks (one int a PM) take part in it: the command's own measure
 * (bench's rounds, ci-cache's hit jobs).
 */
typedef struct pmbench_trash_need (*pmbench_trash_round_fn)(void *payload,
							    size_t g,
							    const int *runs);

/**
 * The pace of `need_ns` of further rounds (NULL: not known, ns 0 when
 * need_ns is UINT64_MAX or 0): `groups` groups of `pms` cells each in
 * `cells` (group by group), judged after `done[g]` rounds or the
 * minimum, whichever is more; each group's rounds as its cells need
 * them (pmbench_schedule_need_rounds()), each leaving what `round` says
 * of the PMs that take part in them. Bench's and ci-cache's.
 */
struct pmbench_trash_pace
pmbench_trash_pace_of(const struct pmbench_schedule_cell *cells, size_t groups,
		      size_t pms, const unsigned *done,
		      const struct pmbench_schedule_budget *o, uint64_t need_ns,
		      pmbench_trash_round_fn round, void *payload);

/**
 * The further rounds of a budget's plan as one more group, `need[nr]`
 * and `rounds[nr]` (1, or 0 when `extra_ns` is 0): `extra_ns` of rounds
 * leave what `pace` says per second of them, or where it is NULL or
 * not known, what the `nr` groups' whole rounds (`need`, each
 * `round_ns[g]` long) leave per second.
 */
void pmbench_trash_further(struct pmbench_trash_need *need, unsigned *rounds,
			   const uint64_t *round_ns, size_t nr,
			   uint64_t extra_ns,
			   const struct pmbench_trash_pace *pace);

/**
 * pmbench_trash_plan_make() from the trash of `ctx`'s work folder as it
 * is now, with the model of this file system (its reuse delay).
 */
void pmbench_trash_plan_now(struct pmbench_trash_plan *out,
			    const struct pmbench_ctx *ctx,
			    const struct pmbench_trash_need *need,
			    const unsigned *rounds, size_t nr);

/**
 * The free space and inodes now on the file system of the trash of
 * `ctx`'s work folder, for pmbench_trash_took(); zeros when unknown.
 */
void pmbench_trash_snap(struct pmbench_fs_trash_room *out,
			const struct pmbench_ctx *ctx);

/**
 * What ran since `before` (pmbench_trash_snap()), `k` times over, leaves
 * in the trash once: the space and inodes it took, over `k`, into `out`
 * (the next reset moves its tree into the trash). Nothing when unknown.
 */
void pmbench_trash_took(struct pmbench_trash_need *out,
			const struct pmbench_fs_trash_room *before,
			const struct pmbench_ctx *ctx, unsigned k);

/**
 * The trash emptied between groups of a budgeted command (before a
 * group's rounds, outside the timed runs): how often, the files
 * deleted, the group before which the first was.
 */
struct pmbench_trash_tally {
	unsigned emptied;
	uint64_t files;
	const char *first;
};

/**
 * Before `rounds` rounds of group `label` ("lockfile"), each leaving
 * `need`: when the trash cannot hold them, empty it now, said as an
 * event, counted in `t`. Returns 1 when it was emptied, 0 when not, or
 * an error.
 */
int pmbench_trash_make_room(const struct pmbench_ctx *ctx,
			    const struct pmbench_trash_need *need,
			    unsigned rounds, const char *label,
			    struct pmbench_trash_tally *t);

/**
 * Whether one more round leaving `need`, `est_ns` long by its turns
 * (times `overrun`, how much more rounds took than their turns), fits
 * in `left_ns` with the trash's emptying it needs first, if any (the
 * deletion and the wait after it), and leaves at least as much of
 * `left_ns` for rounds as it costs (waiting bought only with rounds):
 * else, said as an event, a budget stops there rather than pay for it.
 */
int pmbench_trash_round_fits(const struct pmbench_ctx *ctx,
			     const struct pmbench_trash_need *need,
			     uint64_t est_ns, double overrun, uint64_t left_ns);

/**
 * `t` in `r`'s environment (trash_emptied_between_groups), when the
 * trash was emptied: "1 time, 392 files, outside the timed `runs`: the
 * first before store's rounds, which the trash could not hold".
 */
void pmbench_trash_note_tally(struct pmbench_result *r,
			      const struct pmbench_trash_tally *t,
			      const char *runs);

/**
 * The plan `p`'s emptyings in the estimate's words, `labels` naming its
 * groups: ", and one emptying of the trash (13.9 GB, 913534 files)
 * before cache+lockfile: about 5:48 (m:ss)"; nothing when there is none.
 */
void pmbench_trash_plan_words(struct pmbench_buf *out,
			      const struct pmbench_trash_plan *p,
			      const char *const *labels, size_t nr);

/**
 * The budget's plan (pmbench_schedule_plan_make()) with the trash's
 * emptyings reserved, so that the budget is the whole command's: group g
 * (of `nr`) leaves `need[g]` a round, and has `g[g].min - g[g].done`
 * rounds to run to its minimum. The emptyings those rounds need (and the
 * file system's wait after each) are part of the minimum (in `fit_ns`,
 * before the further rounds); the further rounds' own emptying, if they
 * need one, is taken from what is left of the budget, so they get less,
 * and is planned only when the rounds it makes room for are at least as
 * long as it (else the further rounds end when the trash is full).
 * `tp` gets the emptyings of the whole plan; `room` and `m`: as in
 * pmbench_trash_plan_make(); `used_ns`, `budget_ns` and `need_ns`: as in
 * pmbench_schedule_plan_make() (used_ns: the wall so far, waits included);
 * `pace`: what the further rounds leave, as in pmbench_trash_further().
 */
void pmbench_trash_plan_budget(struct pmbench_schedule_plan *plan,
			       struct pmbench_trash_plan *tp,
			       const struct pmbench_schedule_costs *g,
			       size_t nr, const struct pmbench_trash_need *need,
			       const struct pmbench_trash_pace *pace,
			       const struct pmbench_fs_trash_room *room,
			       const struct pmbench_trash_model *m,
			       uint64_t used_ns, uint64_t budget_ns,
			       uint64_t need_ns);

/**
 * What `rounds` more rounds each leaving `need` cost in emptying the trash
 * of `ctx`'s work folder first (the deletion and the wait after it, by
 * this file system's model), 0 when it can hold them.
 */
uint64_t pmbench_trash_room_cost_ns(const struct pmbench_ctx *ctx,
				    const struct pmbench_trash_need *need,
				    unsigned rounds);

/**
 * The room of `ctx`'s trash now and this file system's model
 * (--no-fs-wait: the deletion alone).
 */
void pmbench_trash_now(struct pmbench_fs_trash_room *room,
		       struct pmbench_trash_model *m,
		       const struct pmbench_ctx *ctx);

/**
 * The resets' deletions wait in the trash unless the disk is short: when
 * a discard had to empty it (pmbench_fs_trash_forced()), so that a
 * timed run followed a large deletion, say so in `r`'s environment
 * (trash_emptied_between_runs) and as a warning. Bench's and ci-cache's.
 */
void pmbench_trash_note_forced(const struct pmbench_ctx *ctx,
			       struct pmbench_result *r);

#endif
