#ifndef PMBENCH_CACHEARC_H
#define PMBENCH_CACHEARC_H

#include <stdint.h>

#include "pmbench/buf.h"

/**
 * Cache archives: the tar files a CI job saves its caches into and
 * restores them from (libarchive, pax format, no compression, gzip or
 * zstd). Symlinks, hard links (a file linked several times is stored once
 * and restored as hard links), permissions, modification times and empty
 * folders survive a round trip. Extraction is confined: entries with an
 * absolute name or a ".." component, hard links to such targets, entries
 * outside the archive's roots, special files and anything written
 * through a symlink are refused.
 */

/** How an archive is compressed. */
enum pmbench_cachearc_filter {
	PMBENCH_CACHEARC_NONE,
	PMBENCH_CACHEARC_GZIP,
	PMBENCH_CACHEARC_ZSTD
};

/** A compression and its level (0: the compressor's default). */
struct pmbench_cachearc_compression {
	enum pmbench_cachearc_filter filter;
	int level;
};

/**
 * Parse "none", "gzip", "gzip:LEVEL" (1-9), "zstd" or "zstd:LEVEL"
 * (1-19). A missing level is the compressor's default, which is written
 * out: gzip 6, zstd 3. Returns 0 or PMBENCH_EINVALID with a message
 * naming the value and what is accepted.
 */
int pmbench_cachearc_parse(struct pmbench_cachearc_compression *out,
			   const char *s);

/** Append "none", "gzip-6" or "zstd-3" to `out`. */
void pmbench_cachearc_name(struct pmbench_buf *out,
			   const struct pmbench_cachearc_compression *c);

/** The usual file suffix: ".tar", ".tar.gz", ".tar.zst" (static). */
const char *
pmbench_cachearc_suffix(const struct pmbench_cachearc_compression *c);

/**
 * One tree of an archive: stored under the archive name `name` (a
 * relative path such as "cache" or "project/node_modules", no "." or
 * ".." parts) from, or restored to, the folder `path`.
 */
struct pmbench_cachearc_map {
	const char *name;
	const char *path;
};

/** What an archive held or what was written. */
struct pmbench_cachearc_stats {
	uint64_t archive_bytes; /**< the file on disk (compressed) */
	uint64_t raw_bytes;	/**< the uncompressed tar stream */
	uint64_t files;		/**< regular files, each inode once */
	uint64_t entries;	/**< every entry: files, links, folders */
};

/**
 * Write the archive `archive` (replaced atomically: a temporary file in
 * its folder, then rename) holding each map's tree under its name. A
 * map whose path does not exist is skipped; symlinks are stored, never
 * followed; sockets, fifos and devices are skipped. Entries are written
 * in sorted order, so equal trees give equal archives. Returns 0 or
 * PMBENCH_ERROR with a message naming the file.
 */
int pmbench_cachearc_create(struct pmbench_cachearc_stats *out,
			    const char *archive,
			    const struct pmbench_cachearc_map *maps,
			    size_t maps_nr,
			    const struct pmbench_cachearc_compression *c);

/**
 * Extract `archive` (any of the compressions) without changing the
 * working directory: an entry named "<map name>/<rest>" is written to
 * "<map path>/<rest>". Every map path must resolve to a place strictly
 * inside `confine` (pmbench's own work folder); map paths are created as
 * needed. Refused, with PMBENCH_EINVALID and a message naming the entry:
 * an absolute name, a "." or ".." component, a name under no map, a hard
 * link whose target is refused by the same rules or resolves outside its
 * map, a special file, and (libarchive's secure-extraction flags) any
 * entry whose path runs through a symlink. Extraction stops at the first
 * refused entry; what was written before it stays (inside the maps).
 * Modes and modification times are restored, owners and ACLs are not.
 * `out` may be NULL. Returns 0, PMBENCH_EINVALID, or PMBENCH_ERROR.
 */
int pmbench_cachearc_extract(struct pmbench_cachearc_stats *out,
			     const char *archive,
			     const struct pmbench_cachearc_map *maps,
			     size_t maps_nr, const char *confine);

#endif
