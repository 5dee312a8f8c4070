#ifndef PMBENCH_STRVEC_H
#define PMBENCH_STRVEC_H

#include <stddef.h>

#include "pmbench/common.h"

/**
 * A NULL-terminated array of strings that owns copies of its elements.
 * `v` is never NULL.
 */
struct pmbench_strvec {
	char **v;
	size_t nr;
	size_t alloc;
};

extern char *pmbench_strvec_empty[];
#define PMBENCH_STRVEC_INIT               \
	{                                 \
		.v = pmbench_strvec_empty \
	}

void pmbench_strvec_init(struct pmbench_strvec *sv);
/** Append a copy of `s`; returns the copy. */
const char *pmbench_strvec_push(struct pmbench_strvec *sv, const char *s);
const char *pmbench_strvec_pushf(struct pmbench_strvec *sv, const char *fmt,
				 ...) PMBENCH_PRINTF(2, 3);
/** Append copies of every element of the NULL-terminated `items`. */
void pmbench_strvec_pushv(struct pmbench_strvec *sv, const char *const *items);
/** Remove the last element. */
void pmbench_strvec_pop(struct pmbench_strvec *sv);
/** Index of `s`, or -1. */
long pmbench_strvec_find(const struct pmbench_strvec *sv, const char *s);
/** Sort elements [from, nr) in strcmp order. */
void pmbench_strvec_sort(struct pmbench_strvec *sv, size_t from);
/**
 * The elements of `a` that `b` lacks, both sorted (pmbench_strvec_sort()):
 * their count, and each pushed to `out` unless it is NULL.
 */
size_t pmbench_strvec_missing(const struct pmbench_strvec *a,
			      const struct pmbench_strvec *b,
			      struct pmbench_strvec *out);
/** Free every element and the array; `sv` is left initialised. */
void pmbench_strvec_release(struct pmbench_strvec *sv);
/** Split `s` at `sep`, pushing non-empty parts. */
void pmbench_strvec_split(struct pmbench_strvec *sv, const char *s, char sep);
/** Join the elements with `sep` into `out`. */
struct pmbench_buf;
void pmbench_strvec_join(struct pmbench_buf *out,
			 const struct pmbench_strvec *sv, const char *sep);

#endif
