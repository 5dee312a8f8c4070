#ifndef PMBENCH_ENGINE_CACHE_BACKEND_H
#define PMBENCH_ENGINE_CACHE_BACKEND_H

/*
 * The archive backends of ci-cache, private to src/engine/cache/ (the
 * shape of curl's lib/vtls/vtls.h): each backend is one file defining one
 * `struct pmbench_cachearc_backend`, and the table in cachearc.c lists
 * them. The generic layer (include/pmbench/cachearc.h) calls through the
 * table only, so adding a backend is its file, its row, the declaration
 * below and its name in enum pmbench_cachearc_archiver.
 */
#include <stdint.h>

#include "pmbench/buf.h"
#include "pmbench/cachearc.h"

/* How much is read or written at a time. */
#define PMBENCH_CACHEARC_IO_CHUNK (64 * 1024)

/* What a backend does; unset flags are the common case. */
enum pmbench_cachearc_backend_flags {
	/*
	 * A restore reads the whole archive first and refuses a hostile one
	 * (out->check_ns), apart from the timed restore.
	 */
	PMBENCH_CACHEARC_CHECKS_FIRST = (1 << 0),
};

struct pmbench_cachearc_backend {
	enum pmbench_cachearc_archiver id;
	const char *name; /* --archiver's value */
	unsigned flags;	  /* enum pmbench_cachearc_backend_flags */
	/*
	 * Append the version of what saves and restores, for the
	 * compressions `cs` it will be asked for.
	 */
	int (*version)(struct pmbench_buf *out,
		       const struct pmbench_cachearc_compression *cs,
		       size_t nr);
	/* Append what a save and a restore with `c` run, in words. */
	void (*describe)(struct pmbench_buf *save, struct pmbench_buf *restore,
			 const struct pmbench_cachearc_compression *c);
	/* pmbench_cachearc_save() and _restore() for this backend. */
	int (*save)(struct pmbench_cachearc_stats *out, uint64_t *ns,
		    const char *archive,
		    const struct pmbench_cachearc_job *job);
	int (*restore)(struct pmbench_cachearc_stats *out, uint64_t *ns,
		       const char *archive,
		       const struct pmbench_cachearc_job *job);
};

/* libarchive.c */
extern const struct pmbench_cachearc_backend pmbench_cachearc_libarchive_backend;

/* gnutar.c */
extern const struct pmbench_cachearc_backend pmbench_cachearc_gnutar_backend;

/*
 * extract.c: reading archives, which every backend does with libarchive
 * (extracting, checking before another program extracts, counting).
 */
struct archive;

/* libarchive's last error on `a`, or "unknown error" (never NULL). */
const char *pmbench_cachearc_errmsg(struct archive *a);

/*
 * Read all of `archive`, refusing what pmbench_cachearc_extract() refuses,
 * and write each entry below its map (`write`) or only check it (what
 * runs before GNU tar extracts it). With `identity`, each map's folder
 * must also be "<confine>/<map name>", as GNU tar writes every entry
 * below one folder. `out` is zeroed first; NULL when not wanted.
 */
int pmbench_cachearc_read(struct pmbench_cachearc_stats *out,
			  const char *archive,
			  const struct pmbench_cachearc_map *maps,
			  size_t maps_nr, const char *confine, int identity,
			  int write);

/* Count what `archive` holds into `st`, reading every header. */
int pmbench_cachearc_scan(struct pmbench_cachearc_stats *st,
			  const char *archive);

#endif
