#ifndef PMBENCH_PLAN_H
#define PMBENCH_PLAN_H

#include "pmbench/buf.h"
#include "pmbench/strvec.h"

struct pmbench_result;

/**
 * A plan: what a benchmark measures, the same for every shard of it
 * (`bench --shard K/N`), so that `pmbench merge` can check that its
 * pieces belong together. Its id is a hash of its canonical text: the
 * fixtures with their repositories, commits and folders, the PMs,
 * scenarios and tasks, the runs, warm-ups, timeout, `--runs auto`, the
 * number of shards, and the options that change what is measured
 * without being in the result otherwise (`--env`, `--probe`, passed in
 * `extra`). Not in it: PM versions (merge checks them on their own, to
 * name them), the seed, the machine and the work folders.
 */

/**
 * Parse `--shard K/N` (1 <= K <= N <= 1000) into *k and *n. Returns 0, or
 * PMBENCH_EINVALID with a message naming `arg`.
 */
int pmbench_plan_parse_shard(unsigned *k, unsigned *n, const char *arg);

/**
 * Whose round `round` is in the plan of `r` (a sample's 0-based round,
 * the `options.warmup` warm-up rounds first, then `options.runs` timed
 * ones, as the scheduler numbers them): PMBENCH_PLAN_WARMUP for a
 * warm-up round (every shard runs them all), the shard K (1 to `of`)
 * whose share the timed round is (timed round i belongs to shard
 * i mod N + 1), 0 for a timed round of an unsharded plan, or
 * PMBENCH_PLAN_BEYOND when the plan has no such round.
 */
int pmbench_plan_round_owner(const struct pmbench_result *r, unsigned round);

#define PMBENCH_PLAN_WARMUP (-1)
#define PMBENCH_PLAN_BEYOND (-2)

/**
 * Append the plan's canonical text of `r` (its options and fixtures)
 * and the lines of `extra` (may be NULL) to `out`: one "key=value" line
 * each.
 */
void pmbench_plan_text(struct pmbench_buf *out, const struct pmbench_result *r,
		       const struct pmbench_strvec *extra);

/**
 * Set `r->plan_id` to the hash of pmbench_plan_text() (16 hexadecimal
 * digits of FNV-1a 64), replacing one already there.
 */
void pmbench_plan_set_id(struct pmbench_result *r,
			 const struct pmbench_strvec *extra);

/**
 * Record this machine's name as a hash (environment "host_hash", 16
 * hexadecimal digits), never the name itself, so a merge can tell two
 * shards that ran on one machine from two machines of one model.
 */
void pmbench_plan_host_hash(struct pmbench_result *r);

/** FNV-1a 64 of `len` bytes of `p`, as 16 hexadecimal digits, to `out`. */
void pmbench_plan_hash(struct pmbench_buf *out, const void *p, size_t len);

#endif
