#ifndef PMBENCH_CACHEARC_H
#define PMBENCH_CACHEARC_H

#include <stdint.h>

#include "pmbench/buf.h"
#include "pmbench/strvec.h"

/**
 * Cache archives: the tar files a CI job saves its caches into and
 * restores them from (pax format, no compression, gzip or zstd), written
 * and read in process with libarchive or by GNU tar. Symlinks, hard
 * links (a file linked several times is stored once and restored as hard
 * links), permissions, modification times and empty folders survive a
 * round trip. Extraction is confined: entries with an absolute name or a
 * ".." component, hard links to such targets, entries outside the
 * archive's roots, special files and anything written through a symlink
 * are refused.
 */

/*
 * The generic layer (src/engine/cache/cachearc.c): compressions, the
 * backends chosen by --archiver, and what ci-cache saves and restores.
 */

/** How an archive is compressed. */
enum pmbench_cachearc_filter {
	PMBENCH_CACHEARC_NONE,
	PMBENCH_CACHEARC_GZIP,
	PMBENCH_CACHEARC_ZSTD,
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
	uint64_t check_ns; /**< GNU tar extraction: libarchive's check first */
	uint64_t tar_ns;   /**< GNU tar: the save, or the tar child restoring */
};

/** Which program writes and reads the archives. */
enum pmbench_cachearc_archiver {
	/** In process: libarchive reads and writes the tar stream, pmbench
	 * writes the files (pmbench_cachearc_create/_extract). */
	PMBENCH_CACHEARC_LIBARCHIVE,
	/** GNU tar, run as GitHub's actions/cache runs it on Linux. */
	PMBENCH_CACHEARC_GNU_TAR,
};

/**
 * Parse "libarchive" or "gnu-tar". Returns 0 or PMBENCH_EINVALID with a
 * message saying what is accepted.
 */
int pmbench_cachearc_parse_archiver(enum pmbench_cachearc_archiver *out,
				    const char *s);

/** "libarchive" or "gnu-tar" (static). */
const char *pmbench_cachearc_archiver_name(enum pmbench_cachearc_archiver a);

/**
 * What one save or restore of ci-cache works on: the trees `maps`, whose
 * names are relative to the folder `dir` (pmbench's cache folder,
 * resolved), where a restore may write and nowhere else; the archiver
 * and the compression.
 */
struct pmbench_cachearc_job {
	enum pmbench_cachearc_archiver archiver;
	const struct pmbench_cachearc_map *maps;
	size_t maps_nr;
	const char *dir;
	const struct pmbench_cachearc_compression *comp;
};

/**
 * Save the job's trees into `archive` with its archiver: libarchive
 * (pmbench_cachearc_create()) or GNU tar (pmbench_cachearc_tar_create(),
 * each map's name listed relative to `dir`). `*ns` gets the save's time
 * as a CI job would spend it. Returns 0 or a negative error.
 */
int pmbench_cachearc_save(struct pmbench_cachearc_stats *out, uint64_t *ns,
			  const char *archive,
			  const struct pmbench_cachearc_job *job);

/**
 * Restore `archive` into the job's maps with its archiver: libarchive
 * (pmbench_cachearc_extract(), confined to `dir`) or GNU tar
 * (pmbench_cachearc_tar_extract() below `dir`). `*ns` gets the restore's
 * time as a CI job would spend it; a check before it, not timed, goes to
 * `out->check_ns` (see pmbench_cachearc_checks_first()). Returns 0 or a
 * negative error.
 */
int pmbench_cachearc_restore(struct pmbench_cachearc_stats *out, uint64_t *ns,
			     const char *archive,
			     const struct pmbench_cachearc_job *job);

/**
 * 1 when the archiver's restore reads the whole archive first, to refuse
 * a hostile one before another program extracts it (its time is
 * `check_ns`); 0 when the restore is the check (libarchive).
 */
int pmbench_cachearc_checks_first(enum pmbench_cachearc_archiver a);

/**
 * Append the archiver's version to `out`: libarchive's with its
 * libraries', or for GNU tar the longest pmbench_cachearc_tar_version()
 * of the compressions `cs` (all must be runnable). Returns 0 or
 * PMBENCH_ENOTFOUND.
 */
int pmbench_cachearc_archiver_version(
	struct pmbench_buf *out, enum pmbench_cachearc_archiver a,
	const struct pmbench_cachearc_compression *cs, size_t nr);

/**
 * Append to `save` and `restore` what the archiver runs to save and to
 * restore with the compression `c`: GNU tar's exact command lines (with
 * placeholders for the archive and the folders), or libarchive's steps
 * in words.
 */
void pmbench_cachearc_describe(struct pmbench_buf *save,
			       struct pmbench_buf *restore,
			       enum pmbench_cachearc_archiver a,
			       const struct pmbench_cachearc_compression *c);

/*
 * The libarchive backend (src/engine/cache/libarchive.c) and the reading
 * of archives that both backends use (src/engine/cache/extract.c).
 */

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
 * needed. Entries are written by pmbench itself (libarchive only reads):
 * each relative to a descriptor of its folder, and every folder opened
 * from its parent's descriptor with O_NOFOLLOW, so nothing is ever
 * written through a symlink, whether the archive made it or it was on
 * disk; files are created with O_EXCL (an existing file, symlink or
 * empty folder in the way is removed first, never followed). Refused,
 * with PMBENCH_EINVALID and a message naming the entry: an absolute
 * name, a "." or ".." component, a name under no map, a hard link whose
 * target is refused by the same rules or runs through a symlink, a
 * special file, and any entry whose folder runs through a symlink.
 * Extraction stops at the first refused entry; what was written before
 * it stays (inside the maps). Modes (without set-user-ID and
 * set-group-ID bits) and modification times are restored, folders' at
 * the end; owners and ACLs are not. `out` may be NULL. Returns 0,
 * PMBENCH_EINVALID, or PMBENCH_ERROR.
 */
int pmbench_cachearc_extract(struct pmbench_cachearc_stats *out,
			     const char *archive,
			     const struct pmbench_cachearc_map *maps,
			     size_t maps_nr, const char *confine);

/** libarchive's version with its libraries' ("libarchive 3.6.2 ..."). */
const char *pmbench_cachearc_libarchive_version(void);

/*
 * The GNU tar backend (src/engine/cache/gnutar.c).
 */

/**
 * Append the first line of `tar --version` and, for zstd, of `zstd
 * --version` ("tar (GNU tar) 1.34; *** Zstandard CLI ..."). Returns 0,
 * or PMBENCH_ENOTFOUND when tar is missing or not GNU tar, or zstd,
 * zstdmt or unzstd is missing.
 */
int pmbench_cachearc_tar_version(struct pmbench_buf *out,
				 const struct pmbench_cachearc_compression *c);

/**
 * Push the argv actions/cache runs to save: `tar --posix -cf ARCHIVE
 * --exclude ARCHIVE -P -C DIR --files-from MANIFEST`, then for zstd
 * `--use-compress-program zstdmt` (`zstdmt -LEVEL` for a level other
 * than 3), for gzip `-z` (`--use-compress-program "gzip -LEVEL"` for a
 * level other than 6).
 */
void pmbench_cachearc_tar_create_args(
	struct pmbench_strvec *out, const char *archive, const char *dir,
	const char *manifest, const struct pmbench_cachearc_compression *c);

/**
 * Push the argv actions/cache runs to restore, `tar -xf ARCHIVE -P -C
 * DIR`, then `--use-compress-program unzstd` (zstd) or `-z` (gzip), then
 * `--no-same-owner --no-same-permissions`: GNU tar's defaults for a user
 * other than root, as GitHub's runners are, spelled out.
 */
void pmbench_cachearc_tar_extract_args(
	struct pmbench_strvec *out, const char *archive, const char *dir,
	const struct pmbench_cachearc_compression *c);

/**
 * Save with GNU tar (pmbench_cachearc_tar_create_args(), spawned through
 * proc.c, no shell): `paths` are relative to `dir` and written to a
 * manifest beside the archive, which is replaced atomically. `out->tar_ns`
 * is the save (manifest and tar, fork to reap); the other counts are
 * read back with libarchive afterwards. Returns 0, PMBENCH_EINVALID for a
 * path tar cannot list, or PMBENCH_ERROR (tar's exit and last words).
 */
int pmbench_cachearc_tar_create(struct pmbench_cachearc_stats *out,
				const char *archive, const char *dir,
				const struct pmbench_strvec *paths,
				const struct pmbench_cachearc_compression *c);

/**
 * Restore with GNU tar below `dir`, each map's folder being
 * "<dir>/<map name>". libarchive reads the whole archive first, refusing
 * what pmbench_cachearc_extract() refuses (`out->check_ns`), and a
 * refused archive is never given to tar; then tar runs (`out->tar_ns`,
 * fork to reap), with `c` choosing the decompressor. `out` may be NULL.
 * Returns 0, PMBENCH_EINVALID (refused, or a map not at
 * "<dir>/<name>"), PMBENCH_EINTERRUPTED, or PMBENCH_ERROR.
 */
int pmbench_cachearc_tar_extract(struct pmbench_cachearc_stats *out,
				 const char *archive,
				 const struct pmbench_cachearc_map *maps,
				 size_t maps_nr, const char *dir,
				 const struct pmbench_cachearc_compression *c);

#endif
