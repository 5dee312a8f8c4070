#ifndef PMBENCH_SHA512_H
#define PMBENCH_SHA512_H

#include <stddef.h>
#include <stdint.h>

#include "pmbench/buf.h"

/**
 * SHA-512 (FIPS 180-4), for the `integrity` of packages pmbench fetches
 * from the npm registry itself (a Node installation): npm's Subresource
 * Integrity strings are "sha512-" and the digest in base64.
 */

struct pmbench_sha512 {
	uint64_t h[8];
	uint64_t bytes; /* hashed so far */
	unsigned char block[128];
	size_t used;
};

void pmbench_sha512_init(struct pmbench_sha512 *s);
void pmbench_sha512_update(struct pmbench_sha512 *s, const void *data,
			   size_t len);
/** The 64-byte digest into `out`; `s` must be initialised again to reuse. */
void pmbench_sha512_final(struct pmbench_sha512 *s, unsigned char out[64]);

/** Append `len` bytes as base64 (RFC 4648, padded) to `out`. */
void pmbench_base64(struct pmbench_buf *out, const unsigned char *data,
		    size_t len);

#endif
