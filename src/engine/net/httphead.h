#ifndef PMBENCH_ENGINE_HTTPHEAD_H
#define PMBENCH_ENGINE_HTTPHEAD_H

/*
 * The head of an HTTP/1.x request as the registry front (mirror.c) reads
 * it, checked before anything of it reaches verdaccio. Private to the
 * engine. Threads: any thread may call these (the front's does); they
 * keep no state.
 */
#include <stddef.h>
#include <stdint.h>

/* What the front needs of a request head. */
struct pmbench_httphead {
	char method[16];
	char *path; /* the request target, as sent */
	char *accept, *accept_encoding, *if_none_match, *connection;
	uint64_t content_length; /* UINT64_MAX when not a number */
	int http10, chunked;
};

enum pmbench_httphead_status {
	PMBENCH_HTTPHEAD_OK = 0,
	/*
	 * Not an HTTP/1.0 or 1.1 head: a control byte (NUL, a bare CR or
	 * LF), a bad request line or version, a header without a name.
	 */
	PMBENCH_HTTPHEAD_MALFORMED = -1,
	/* The target is not a plain origin-form path (see below). */
	PMBENCH_HTTPHEAD_TARGET = -2,
};

/*
 * Parse the head `text` of `len` bytes (without its blank line; NULs
 * allowed, they make it malformed) into `out` (release it whatever the
 * result). The target must be origin-form: '/' and visible ASCII only,
 * no '#' or '\', every '%' followed by two hex digits, and once decoded
 * no "." or ".." segment in its path (so not "/../x", "/%2e%2e/x" nor
 * "/a%2f..%2fx") and no control byte. Returns a status above.
 */
int pmbench_httphead_parse(struct pmbench_httphead *out, const char *text,
			   size_t len);

/* Free what `r` holds; it is left empty. */
void pmbench_httphead_release(struct pmbench_httphead *r);

/*
 * The value of header `name` if the line `line` (`len` bytes, CRLF or
 * not) is that header, trimmed, as a new string; else NULL.
 */
char *pmbench_httphead_value(const char *line, size_t len, const char *name);

#endif
