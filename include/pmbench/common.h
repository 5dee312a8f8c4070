#ifndef PMBENCH_COMMON_H
#define PMBENCH_COMMON_H

/*
 * The first include of every .c file. It fixes the feature-test macros
 * (POSIX 2008 with XSI, plus the extras glibc gates behind _DEFAULT_SOURCE),
 * pulls in the headers nearly every module needs, and bans the functions
 * listed in banned.h.
 */
#ifndef _GNU_SOURCE
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1
#endif
#endif

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PMBENCH_VERSION "0.1.0"

#define PMBENCH_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define PMBENCH_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define PMBENCH_NORETURN     __attribute__((noreturn))
#else
#define PMBENCH_PRINTF(f, a)
#define PMBENCH_NORETURN
#endif

/** Error codes returned (negated) by fallible functions. */
enum pmbench_error_code {
	PMBENCH_OK = 0,
	PMBENCH_ERROR = -1,	  /**< generic failure, message set */
	PMBENCH_ENOTFOUND = -2,	  /**< a named thing does not exist */
	PMBENCH_EINVALID = -3,	  /**< bad input from the user */
	PMBENCH_EINTERRUPTED = -4 /**< SIGINT, SIGTERM, SIGHUP or SIGQUIT */
};

/*
 * Threads. The error state below is per thread (like libgit2's
 * git_error_last()): a message set in one thread is seen by
 * pmbench_error_last() in that thread only, and never by another. Every
 * function in this header may be called from any thread; none keeps
 * state shared between threads.
 */

/**
 * Store a formatted message as the last error of the calling thread and
 * return PMBENCH_ERROR, so callers can write
 * `return pmbench_error_set("...")`.
 */
int pmbench_error_set(const char *fmt, ...) PMBENCH_PRINTF(1, 2);

/** Like pmbench_error_set() but returns the given code. */
int pmbench_error_setc(int code, const char *fmt, ...) PMBENCH_PRINTF(2, 3);

/**
 * Prefix the stored message with "<prefix>: ", keeping the rest, so that
 * outer layers can add context without losing the cause.
 */
void pmbench_error_prefix(const char *fmt, ...) PMBENCH_PRINTF(1, 2);

/**
 * The calling thread's last stored error message; never NULL ("unknown
 * error" if none). Valid until that thread sets or clears it.
 */
const char *pmbench_error_last(void);

/** Forget the calling thread's stored message. */
void pmbench_error_clear(void);

/* Out-of-memory is fatal: these never return NULL. */
void *pmbench_xmalloc(size_t n);
void *pmbench_xcalloc(size_t nmemb, size_t size);
void *pmbench_xrealloc(void *p, size_t n);
char *pmbench_xstrdup(const char *s);
char *pmbench_xstrndup(const char *s, size_t n);
/** Multiply with overflow check; dies on overflow. */
size_t pmbench_st_mult(size_t a, size_t b);
/** Add with overflow check; dies on overflow. */
size_t pmbench_st_add(size_t a, size_t b);

/**
 * Grow array `x` (element count `nr`, capacity `alloc`) so that it holds
 * at least `want` elements.
 */
#define PMBENCH_ALLOC_GROW(x, want, alloc)                                     \
	do {                                                                   \
		if ((size_t)(want) > (alloc)) {                                \
			size_t pmbench_ag_n_ = (alloc) < 8 ? 8 : (alloc);      \
			while (pmbench_ag_n_ < (size_t)(want))                 \
				pmbench_ag_n_ =                                \
					pmbench_st_mult(pmbench_ag_n_, 2);     \
			(x) = pmbench_xrealloc((x),                            \
					       pmbench_st_mult(pmbench_ag_n_,  \
							       sizeof(*(x)))); \
			(alloc) = pmbench_ag_n_;                               \
		}                                                              \
	} while (0)

/*
 * A fatal internal error (out of memory, a size overflow): "pmbench:
 * fatal: ..." on stderr, then exit(1). The only output of the util and
 * engine layers; everything else goes through the engine context.
 */
PMBENCH_NORETURN void pmbench_die(const char *fmt, ...) PMBENCH_PRINTF(1, 2);

/** Monotonic clock in nanoseconds (CLOCK_MONOTONIC). */
uint64_t pmbench_now_ns(void);

/** Sleep for the given number of nanoseconds (restarts on EINTR). */
void pmbench_sleep_ns(uint64_t ns);

/**
 * Parse a non-negative decimal integer that must fill the whole string.
 * Returns 0 and stores it in *out, or PMBENCH_EINVALID.
 */
int pmbench_parse_u64(uint64_t *out, const char *s);

/**
 * Parse a duration such as "90", "90s", "500ms", "2m" (bare numbers are
 * seconds) into nanoseconds. Returns 0 or PMBENCH_EINVALID.
 */
int pmbench_parse_duration(uint64_t *out_ns, const char *s);

#include "pmbench/banned.h"

#endif
