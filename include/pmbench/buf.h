#ifndef PMBENCH_BUF_H
#define PMBENCH_BUF_H

#include <stddef.h>

#include "pmbench/common.h"

/**
 * A growable NUL-terminated string. `ptr` is never NULL: an empty buffer
 * points at a shared empty string until something is added (and that
 * string is never written).
 *
 * Threads: any thread may call these functions (the registry front and
 * the link relay do); a buffer is used by one thread at a time.
 */
struct pmbench_buf {
	char *ptr;
	size_t len;
	size_t alloc;
};

extern char pmbench_buf_empty[];
#define PMBENCH_BUF_INIT                 \
	{                                \
		.ptr = pmbench_buf_empty \
	}

/** Make `b` empty without freeing (it must be released or initialised). */
void pmbench_buf_init(struct pmbench_buf *b);
/** Free the contents; `b` is left initialised and can be reused. */
void pmbench_buf_release(struct pmbench_buf *b);
/** Ensure room for `extra` more bytes plus the NUL. */
void pmbench_buf_grow(struct pmbench_buf *b, size_t extra);
/** Set the length to `len` (<= current length) and terminate. */
void pmbench_buf_setlen(struct pmbench_buf *b, size_t len);
#define pmbench_buf_reset(b) pmbench_buf_setlen((b), 0)
void pmbench_buf_add(struct pmbench_buf *b, const void *data, size_t len);
void pmbench_buf_adds(struct pmbench_buf *b, const char *s);
void pmbench_buf_addch(struct pmbench_buf *b, int c);
void pmbench_buf_addf(struct pmbench_buf *b, const char *fmt, ...)
	PMBENCH_PRINTF(2, 3);
void pmbench_buf_vaddf(struct pmbench_buf *b, const char *fmt, va_list ap)
	PMBENCH_PRINTF(2, 0);
/** Remove trailing whitespace. */
void pmbench_buf_rtrim(struct pmbench_buf *b);
/**
 * Hand over the string; the caller frees it with free(). `b` is left
 * initialised. Never returns NULL.
 */
char *pmbench_buf_detach(struct pmbench_buf *b);

/**
 * Append a duration as a clock: "1:05", "1:02:03" (rounded to whole
 * seconds; a negative one is 0:00).
 */
void pmbench_buf_add_clock(struct pmbench_buf *b, double seconds);

/**
 * pmbench_buf_add_clock() and its unit: "1:05 (m:ss)", "1:02:03
 * (h:mm:ss)".
 */
void pmbench_buf_add_clock_unit(struct pmbench_buf *b, double seconds);

/** Join path parts with '/', avoiding doubled separators. */
void pmbench_buf_path(struct pmbench_buf *b, const char *dir, const char *name);

#endif
