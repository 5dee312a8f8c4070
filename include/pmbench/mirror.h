#ifndef PMBENCH_MIRROR_H
#define PMBENCH_MIRROR_H

#include <stddef.h>
#include <stdint.h>

#include "pmbench/buf.h"

/**
 * The local registry's front (registry.h): a small HTTP/1.1 server on
 * 127.0.0.1 that answers the timed runs with the very bytes the sealed
 * verdaccio behind it gave for the same request, kept in a file.
 *
 * Why: verdaccio renders every packument from its storage on every
 * request, in one Node process. On a 2-core machine it burned 1.0 s of
 * CPU during a 1.9 s pnpm install and 5 s during yarn 1's 8.7 s, so the
 * timed runs measured verdaccio as much as the PM. The front costs a
 * hash lookup and a write per request.
 *
 * What it keeps: per request kind (a tarball; an abbreviated or a full
 * packument, by the Accept header; gzip or not, by Accept-Encoding) the
 * status, Content-Type, Content-Encoding and ETag in memory, and the body
 * in one nameless file of the store folder (pmbench_mirror_set_store()),
 * sent from there with sendfile(), so that pmbench's own memory does not
 * grow with the fixture; filled before
 * the timed runs by pmbench_mirror_preload() with what the primings
 * asked for (a 404 too: the registry lacks the package, as pnpm finds
 * when it asks for a workspace's own packages; answered from memory, it
 * is no failure of the mirror). A request it has no answer for is a
 * *fallback*: fetched
 * from verdaccio there and then (blocking the front for that time),
 * kept when it is a 200, and counted, so a report can say so. An
 * If-None-Match that names the kept ETag gets 304, as from verdaccio.
 * Only GET and HEAD are served; anything else gets 405.
 *
 * Limits (issue 24): at most max_conns connections (256, or an eighth
 * of the descriptor limit, so pmbench keeps descriptors of its own); at
 * the cap an idle one is closed for a new one, another process's first,
 * and while none is idle new ones wait in the listen backlog. Input is
 * read at most 80 KiB ahead of the answers (pipelined requests wait in
 * the kernel, none is dropped); a head over 64 KiB gets 431, one with a
 * NUL or another control byte, a bare CR or LF, a version other than
 * HTTP/1.0 or 1.1, or a target that is not a plain path (a "." or ".."
 * segment, encoded or not) gets 400 without reaching verdaccio; a head
 * unfinished 30 s after its first byte gets 408; each of those closes
 * the connection. An answer the client takes nothing of for 30 s is
 * abandoned.
 *
 * Whose requests (issue 24): every connection is attributed when
 * accepted (peer.h). Requests on a connection of a process outside
 * pmbench's tree are counted only as foreign_requests, so the counts
 * are those of what pmbench runs: the PM being timed.
 *
 * Threads: pmbench_mirror_serve() starts a thread of the front's own;
 * until pmbench_mirror_halt() returns, the only functions another thread
 * may call are pmbench_mirror_take_counts() and pmbench_mirror_take()
 * (and pmbench_mirror_log_release() on what it gave). The others are for the
 * thread that owns the front, while it does not serve.
 */

struct pmbench_mirror;

/** What the front served, since the last pmbench_mirror_take_counts(). */
struct pmbench_mirror_counts {
	unsigned meta_requests;	   /**< packuments */
	unsigned tarball_requests; /**< .tgz */
	unsigned other_requests;   /**< anything else */
	unsigned failed;    /**< answers of 400 and above (not a kept 404) */
	unsigned fallbacks; /**< answered by asking verdaccio, not memory */
	uint64_t bytes;	    /**< body bytes sent */
	/** Requests on other processes' connections: in none of the above. */
	unsigned foreign_requests;
	/** Connections of other processes accepted. */
	unsigned foreign_connections;
	/** Connections whose owner could not be told: counted as ours. */
	unsigned unattributed_connections;
	/** Connections closed to make room at the cap, or stalled. */
	unsigned dropped_connections;
	/**
	 * Requests refused on purpose (pmbench_mirror_refuse()): counted
	 * by kind above, never as `failed`.
	 */
	unsigned refused;
};

/**
 * One request on a connection of what pmbench runs (the PM), as the
 * front served it: the waterfall of a run (phases.h).
 */
struct pmbench_mirror_request {
	/** pmbench_now_ns() when its head's first byte was read */
	uint64_t start_ns;
	/**
	 * when the answer's last byte was handed to the kernel, or the
	 * connection closed before it was
	 */
	uint64_t end_ns;
	uint64_t bytes; /**< body bytes sent */
	int status;
	/**
	 * 'c' an abbreviated packument, 'f' a full one, 't' a tarball,
	 * 'o' anything else (audit, a refused head)
	 */
	char kind;
	int fallback; /**< answered by asking verdaccio, not from memory */
};

/** Most requests a log holds; later ones are only counted. */
#define PMBENCH_MIRROR_LOG_MAX 65536

/** The front's request log since the last take, in the order answered. */
struct pmbench_mirror_log {
	struct pmbench_mirror_request *v;
	size_t nr, alloc;
	unsigned dropped; /**< past PMBENCH_MIRROR_LOG_MAX */
};

#define PMBENCH_MIRROR_LOG_INIT \
	{                       \
		.v = NULL       \
	}

/** Free what `log` holds; it is left as PMBENCH_MIRROR_LOG_INIT. */
void pmbench_mirror_log_release(struct pmbench_mirror_log *log);

/**
 * A front with nothing kept yet, that asks the server on 127.0.0.1 at
 * `backend_port` with `Host: host` (the host:port the PMs use, so that
 * the tarball URLs in packuments name it). Never fails.
 */
struct pmbench_mirror *pmbench_mirror_new(int backend_port, const char *host);

/** Ask the backend at `port` from now on (it moved). */
void pmbench_mirror_set_backend(struct pmbench_mirror *m, int port);

/**
 * Keep the answers' bodies in a file made in the folder `dir` (copied;
 * NULL: $TMPDIR, else /tmp) when the first one comes: a file without a
 * name (O_TMPFILE), gone when the front is freed or pmbench ends, however
 * it ends. Only before the first answer is kept.
 */
void pmbench_mirror_set_store(struct pmbench_mirror *m, const char *dir);

/**
 * Fetch the answer to `GET path` with `accept` and (if `gzip`)
 * `Accept-Encoding: gzip` from the backend and keep it, unless one is
 * kept already. Only while not serving. Returns 1 if kept, 0 if already
 * there or the backend did not answer 200 or 404, -1 on an error (set).
 */
int pmbench_mirror_preload(struct pmbench_mirror *m, const char *path,
			   const char *accept, int gzip);

/**
 * Send the upstream's caching headers, as verdaccio does not: HEAD
 * `upstream` (a base URL ending in '/') + `meta_path` (asked as a PM
 * asks for an abbreviated packument) and + `tarball_path`, and add each
 * answer's Cache-Control, if any, to every answer of that kind. With
 * none (verdaccio's own behaviour, and that of some proxies), PMs
 * revalidate what they cached (npm refetches every tarball); with the
 * public registry's, they keep what is fresh. Only while not serving.
 * `out` gets one line saying what was found. A path may be NULL.
 */
void pmbench_mirror_imitate(struct pmbench_mirror *m, const char *upstream,
			    const char *meta_path, const char *tarball_path,
			    struct pmbench_buf *out);

/** How many answers are kept, and their bytes. */
size_t pmbench_mirror_kept(const struct pmbench_mirror *m, uint64_t *bytes);

/**
 * Listen on 127.0.0.1:`port` and serve from a thread of its own until
 * pmbench_mirror_halt(). Returns 0 or an error (the port taken).
 */
int pmbench_mirror_serve(struct pmbench_mirror *m, int port);

/** What clients can make the front hold (see above); 0: the default. */
struct pmbench_mirror_limits {
	size_t max_conns;  /**< 256, or an eighth of the descriptor limit */
	uint64_t head_ns;  /**< a head's first byte to its end: 30 s */
	uint64_t stall_ns; /**< an answer nothing of which is taken: 30 s */
};

/** Use `limits` from the next pmbench_mirror_serve() on. */
void pmbench_mirror_set_limits(struct pmbench_mirror *m,
			       const struct pmbench_mirror_limits *limits);

/**
 * From now on answer every request with `status` (an error, 400 or
 * above) and a short JSON body saying why, whatever is kept: the
 * registry is "offline" (bench's offline proof). Each such request is
 * counted by kind and as `refused`. 0 serves again. Any thread may call
 * it, also while the front serves.
 */
void pmbench_mirror_refuse(struct pmbench_mirror *m, int status);

/** Stop serving: the thread joined, every socket closed. Idempotent. */
void pmbench_mirror_halt(struct pmbench_mirror *m);

/**
 * Copy the counts since the last call into `out` and start again. Any
 * thread may call it, also while the front serves.
 */
void pmbench_mirror_take_counts(struct pmbench_mirror *m,
				struct pmbench_mirror_counts *out);

/**
 * pmbench_mirror_take_counts(), and at the same moment, under the same
 * lock, the request log since then into `log` (released first; NULL:
 * the log is dropped). A request is logged once its answer is out (or
 * its connection closed), so one in flight goes to the next take. Any
 * thread may call it, also while the front serves.
 */
void pmbench_mirror_take(struct pmbench_mirror *m,
			 struct pmbench_mirror_counts *counts,
			 struct pmbench_mirror_log *log);

/** Halt and free everything. NULL is fine. */
void pmbench_mirror_free(struct pmbench_mirror *m);

/** Whether a request path names a tarball ("/x/-/x-1.0.0.tgz"). */
int pmbench_mirror_is_tarball(const char *path);

#endif
