#ifndef PMBENCH_FS_H
#define PMBENCH_FS_H

#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "pmbench/buf.h"
#include "pmbench/common.h"

/*
 * The file system as pmbench uses it, in sections that follow the files of
 * src/util/fs/ (one idea each; docs/architecture.md lists them).
 */

struct pmbench_buf;
struct pmbench_strvec;

/*
 * src/util/fs/path.c: paths and simple questions about them.
 */

/**
 * Canonical absolute path of an existing `path` into `out` (replaced),
 * through realpath(3). PMBENCH_ENOTFOUND if it does not exist.
 */
int pmbench_fs_realpath(struct pmbench_buf *out, const char *path);

/**
 * Absolute form of a possibly missing `path` (relative to the current
 * directory, "." and ".." folded lexically, symlinks ignored) into `out`
 * (replaced; `path` may point into `out`). Dies if the current directory
 * cannot be found.
 */
void pmbench_fs_abspath(struct pmbench_buf *out, const char *path);

/**
 * 1 if `path` resolves (symlinks included, as far as it exists) to a place
 * strictly inside `root`, 0 if not, negative on error. Both are resolved
 * the same way: realpath(3) of the longest existing prefix, then the rest
 * appended lexically.
 */
int pmbench_fs_is_inside(const char *root, const char *path);

/**
 * mkdir -p. Existing directories (or symlinks to them) are fine; anything
 * else in the way is an error. Returns 0 or PMBENCH_ERROR.
 */
int pmbench_fs_mkdirp(const char *path, mode_t mode);

/** 1 if something exists at `path` (lstat), else 0. */
int pmbench_fs_exists(const char *path);
/** 1 if `path` is a directory (stat, follows symlinks), else 0. */
int pmbench_fs_isdir(const char *path);
/** 1 if `path` is a regular file (stat), else 0. */
int pmbench_fs_isfile(const char *path);

/*
 * src/util/fs/remove.c: deleting, only inside pmbench's work folder.
 */

/**
 * Confine destructive operations: after this call pmbench_fs_rmtree() and
 * pmbench_fs_empty_dir() refuse any path that does not resolve to a place
 * strictly inside `root` (symlinks resolved), and pmbench's own writes
 * (pmbench_fs_write_atomic(), pmbench_fs_copyfile(), the destination of
 * pmbench_fs_copytree()) refuse one whose folder does not, unless it is
 * in the folder of pmbench_fs_set_writable(): a symlink in a repo copy
 * cannot lead them elsewhere. NULL lifts the restriction (tests only),
 * and the writable folder with it; without a call there is none either.
 * `root` must exist. Returns 0, or an error if `root` cannot be resolved.
 */
int pmbench_fs_set_sandbox(const char *root);

/**
 * A second folder pmbench's own writes may go to (the toolchain, where
 * Node is installed), deletions staying confined to the sandbox. It need
 * not exist yet; NULL forgets it. Returns 0 or an error.
 */
int pmbench_fs_set_writable(const char *root);

/**
 * rm -rf that never follows symlinks. A missing path is success. Refuses
 * (PMBENCH_EINVALID) a path outside the sandbox set above, and the
 * sandbox root itself. The parent of `path` is resolved with realpath(3)
 * (as far as it exists) and the check and the removal both work on that
 * resolved parent plus the final name, so a symlink at `path` is removed,
 * not what it points to. Folders inside the tree without write or search
 * permission are chmod'ed as needed. "/" is always refused.
 */
int pmbench_fs_rmtree(const char *path);

/**
 * From now on pmbench_fs_rmtree() and pmbench_fs_trash_drain() stop
 * between two entries once `*flag` is set (by a signal handler), and
 * return PMBENCH_EINTERRUPTED, leaving the rest; NULL: never (the
 * default). The deleter's way to put its deletion off (deleter.h).
 */
void pmbench_fs_rmtree_stop_on(const volatile sig_atomic_t *flag);

/** pmbench_fs_rmtree() without the sandbox check (tests only). */
int pmbench_fs_rmtree_unchecked(const char *path);

/**
 * Remove everything inside the directory `path`, keeping the directory
 * (created if missing, mode 0755). Same sandbox rule as
 * pmbench_fs_rmtree(), except that the sandbox root itself is allowed;
 * `path` is resolved entirely, so a symlink to a folder empties that
 * folder (if it is in the sandbox). Something else than a directory at
 * `path` is an error.
 */
int pmbench_fs_empty_dir(const char *path);

/*
 * src/util/fs/copy.c (linkmap.c: the inode map): copying trees.
 */

/**
 * An inode map shared by several copies, so that files hard-linked to each
 * other in the sources (pnpm's store and node_modules, bun's cache) are
 * hard-linked to each other in the copies too. Opaque.
 */
struct pmbench_fs_linkmap;

/** A new, empty map. Never NULL. Free with pmbench_fs_linkmap_free(). */
struct pmbench_fs_linkmap *pmbench_fs_linkmap_new(void);
/** Free `map` and the paths it holds. NULL is fine. */
void pmbench_fs_linkmap_free(struct pmbench_fs_linkmap *map);

enum pmbench_fs_copy_flags {
	/** Skip `.git` directly under the source root. */
	PMBENCH_FS_COPY_SKIP_GIT = (1 << 0),
	/** Skip every directory named `node_modules` (below `src`). */
	PMBENCH_FS_COPY_SKIP_NODE_MODULES = (1 << 1),
	/**
	 * Hard-link regular files instead of copying them (a copy where
	 * linking fails): for read-only trees that share the source's data.
	 */
	PMBENCH_FS_COPY_LINK = (1 << 2),
};

/**
 * Copy the tree at `src` (a directory, regular file or symlink) to `dst`,
 * which must not exist yet (its parent is created). Regular files keep
 * their mode and atime/mtime (nanoseconds), directories their mode and
 * times (empty ones included; the mode is applied after filling, so
 * read-only folders copy), symlinks are copied verbatim (never followed).
 * Sockets, fifos and devices are skipped. When `links` is not NULL, a
 * source file with more than one link whose (device, inode) was already
 * copied through the same map becomes a hard link to that copy (the map
 * stores absolute destination paths, so it works across calls).
 * Returns 0, PMBENCH_ENOTFOUND if `src` is missing, PMBENCH_EINVALID if
 * `dst` is outside the sandbox (pmbench_fs_set_sandbox()), or
 * PMBENCH_ERROR with a message naming the failing path; on failure the
 * partial copy at `dst` is removed.
 */
int pmbench_fs_copytree(const char *src, const char *dst, unsigned flags,
			struct pmbench_fs_linkmap *links);

/*
 * src/util/fs/index.c: the copy index.
 */

/**
 * What pmbench_fs_synctree() copied where: the inode number and ctime of
 * each copy right after it was made, and which source file it copies.
 * Opaque.
 */
struct pmbench_fs_index;

/** A new, empty index. Never NULL. Free with pmbench_fs_index_free(). */
struct pmbench_fs_index *pmbench_fs_index_new(void);
/** Free `idx`. NULL is fine. */
void pmbench_fs_index_free(struct pmbench_fs_index *idx);

/**
 * Make the generation the synctree calls since the last commit noted the
 * one trusted by the next calls (entries of trees not synced since are
 * forgotten). Waits until the newest copy is 20 ms old, so that a change
 * made after the commit cannot share its ctime on file systems whose
 * timestamps are as coarse as the scheduler's tick.
 */
void pmbench_fs_index_commit(struct pmbench_fs_index *idx);

/** How many entries the trusted generation holds. */
size_t pmbench_fs_index_size(const struct pmbench_fs_index *idx);

/*
 * src/util/fs/sync.c: syncing a copy with its source, through an index.
 */

/**
 * Make `dst` what pmbench_fs_copytree(src, dst, flags, links) would
 * make, without copying again what is still as the last generation of
 * `index` left it. An inode of `dst` is kept when its number and ctime
 * are those noted right after it was copied from the same source file
 * (same inode, mtime and size): any change to it since (its data, mode,
 * times, links; for a folder, its entries) would have set its ctime to a
 * later time, which no program can set back. Everything else in `dst`
 * is discarded into `trash` (pmbench_fs_discard(); deleted at once when
 * `trash` is NULL) and copied afresh. Kept files stay hard-linked as the
 * sources are, through `links`, like copies. Atimes are not restored.
 * Every copy and kept inode goes into the index's next generation;
 * pmbench_fs_index_commit() makes it the one trusted. On failure `dst`
 * is discarded. Returns 0, PMBENCH_ENOTFOUND when `src` is missing, or
 * PMBENCH_ERROR naming the failing path.
 */
int pmbench_fs_synctree(const char *src, const char *dst, unsigned flags,
			struct pmbench_fs_linkmap *links,
			struct pmbench_fs_index *index, const char *trash);

/*
 * src/util/fs/io.c: reading a file whole.
 */

/**
 * Append the contents of the file `path` to `out`. Fails with
 * PMBENCH_ENOTFOUND when missing, PMBENCH_ERROR when larger than `max`
 * bytes; `out` is unchanged on failure.
 */
int pmbench_fs_read(struct pmbench_buf *out, const char *path, size_t max);

/**
 * pmbench_fs_read() for a text file (a manifest, a result): a file holding
 * a NUL byte is refused with PMBENCH_EINVALID, since string parsers would
 * silently stop there ("malformed YAML": the kind named by the file's
 * ending, .json, .yaml or .yml, .toml, .lock, else "text"), `out` as it
 * was.
 */
int pmbench_fs_read_text(struct pmbench_buf *out, const char *path, size_t max);

/*
 * src/util/fs/output.c: files written whole and atomically.
 */

/**
 * Write `data` to `path` atomically: a temporary file in the same
 * directory, fsync, then rename over `path` and fsync the directory.
 * The file keeps the mode of the regular file it replaces; a new one
 * gets 0666 less the umask (pmbench_fs_umask()), as a shell's '>' would.
 * The temporary file is removed on failure. A symlink at `path` is
 * replaced, not written through. With a sandbox set
 * (pmbench_fs_set_sandbox()), a `path` whose folder resolves outside it
 * is refused with PMBENCH_EINVALID, nothing written.
 */
int pmbench_fs_write_atomic(const char *path, const void *data, size_t len);

/**
 * The process's umask, read once (the first call; later changes are not
 * seen): what new files' modes are computed from.
 */
mode_t pmbench_fs_umask(void);

/**
 * Write `data` to `path`, a file the user named (a result, a report):
 * symlinks are followed to their end (a dangling one's target is
 * created); a regular file or a new name there is replaced atomically as
 * by pmbench_fs_write_atomic(), so on failure it is as it was; a
 * character device (/dev/null, /dev/full, a terminal) is written
 * through, opened for writing without creating or renaming anything. A
 * folder, FIFO, socket or block device is refused with PMBENCH_EINVALID.
 * Returns 0 or a negative error naming the file.
 */
int pmbench_fs_write_output(const char *path, const void *data, size_t len);

/**
 * Check, writing nothing, that pmbench_fs_write_output() could write
 * `path`: not a folder or another refused kind of file, and for a
 * regular file or a new name, a folder pmbench may create files in.
 * Returns 0 or a negative error naming the file and the reason.
 */
int pmbench_fs_check_output(const char *path);

/**
 * Copy one regular file (mode kept, mtime not). `dst` is replaced
 * atomically through a temporary file in its folder (a symlink at `dst`
 * is replaced, not written through), within the sandbox as by
 * pmbench_fs_write_atomic(). PMBENCH_ENOTFOUND if `src` is missing.
 */
int pmbench_fs_copyfile(const char *src, const char *dst);

/*
 * src/util/fs/walk.c: folders' entries, disk usage, finding folders.
 */

/**
 * The next entry of `dir` other than "." and "..", or NULL at the end
 * (errno 0) or on an error (errno set, as readdir(3) does).
 */
struct dirent *pmbench_fs_readdir(DIR *dir);

/** Disk usage of a tree, as `du` counts it. */
struct pmbench_fs_usage {
	uint64_t disk_bytes;	 /**< allocated blocks * 512 */
	uint64_t apparent_bytes; /**< sum of st_size */
	uint64_t files;		 /**< regular files, each inode once */
	uint64_t dirs;
	uint64_t symlinks;
};

/**
 * Measure the tree at `path` without following symlinks; a file with
 * several hard links inside the tree is counted once (bytes included).
 * `dirs` counts `path` itself when it is a directory; the bytes include
 * directories and symlinks, as du does. A missing path (or any error)
 * gives all zeros and PMBENCH_ENOTFOUND (PMBENCH_ERROR).
 */
int pmbench_fs_usage(struct pmbench_fs_usage *out, const char *path);

/**
 * The file system's "now" for pmbench_fs_changed_since(), into `out`:
 * the ctime of a probe file `dir`/.pmbench-clock touched now (on the
 * file system of what will be checked), once a later ctime can be had,
 * so that whatever is written from now on is stamped after it and what
 * was written before is not. The kernel stamps files from its coarse
 * clock, and since Linux 6.13 finer where a stamp was looked at
 * (multigrain timestamps): CLOCK_REALTIME_COARSE read before a run
 * could equal a write of the run (a fake yarn's write into node_modules
 * went unseen in 1 of 2 runs, every time, on 6.18) or come before a
 * write of the reset. On failure `out` is CLOCK_REALTIME_COARSE and
 * PMBENCH_ERROR is returned.
 */
int pmbench_fs_time_mark(struct timespec *out, const char *dir);

/**
 * What was written in the tree at `root`/`rel` after `since`: the
 * entries whose ctime is later (data or status written, made, renamed
 * into place; a folder with an entry added or removed), without
 * following symlinks. How many into *out_count; the paths of the first
 * `keep`, relative to `root`, pushed onto `names`. A missing tree: 0
 * and PMBENCH_ENOTFOUND.
 */
int pmbench_fs_changed_since(uint64_t *out_count, struct pmbench_strvec *names,
			     size_t keep, const char *root, const char *rel,
			     const struct timespec *since);

/**
 * Push onto `out` the path, relative to `root`, of every directory named
 * `name` below `root`, without descending into the matches or into
 * symlinks, nor into `.git` (finds each workspace's node_modules). The
 * new elements are sorted with strcmp. A symlink named `name` is not a
 * match. PMBENCH_ENOTFOUND if `root` is missing.
 */
int pmbench_fs_find_dirs(struct pmbench_strvec *out, const char *root,
			 const char *name);

/*
 * src/util/fs/trash.c: deleting later.
 */

/**
 * Delete the tree at `path` later: move it into the folder `trash` (same
 * file system; created if missing) under a new name. Deleting frees
 * inodes, and ext4 without a journal avoids reusing an inode for 60 s
 * after its deletion (360 s while its inode table block is dirty) by
 * scanning past it: every file created in that group meanwhile pays for
 * the scan, so a deletion between two timed runs slows the second. The
 * trash is emptied by pmbench_fs_trash_empty() after the measurements,
 * or first, here, when the file system has lost more space or inodes
 * since the trash was last empty than the trash limit allows (half of
 * what was free then, at most pmbench_fs_trash_limit() bytes). Same
 * sandbox rule as pmbench_fs_rmtree(); a missing path is success; when
 * the tree cannot be moved (another file system) it is deleted now.
 */
int pmbench_fs_discard(const char *path, const char *trash);

/**
 * Empty `trash` (see pmbench_fs_discard()); a missing one is success. The
 * space and inode baseline is taken again at the next discard. A large
 * emptying (1,000 files or more) is synced to disk and recorded in the
 * trash, for pmbench_fs_trash_emptied(); a smaller one keeps the record
 * of the last large one.
 */
int pmbench_fs_trash_empty(const char *trash);

/**
 * Hand what `trash` holds over for deletion elsewhere (a process of its
 * own, pmbench_fs_trash_drain()): the folder is renamed to a new batch
 * folder in `queue` (same file system) and made again, its record of the
 * last large emptying moved back into it. Returns 1 when a batch was
 * made, 0 when the trash held nothing but its record, or an error.
 */
int pmbench_fs_trash_handoff(const char *trash, const char *queue);

/** How many batches `queue` holds (0 when it does not exist). */
int pmbench_fs_trash_pending(const char *queue);

/**
 * Delete every batch in `queue`, also those handed over while it
 * deletes, then record a large deletion in `trash` as
 * pmbench_fs_trash_empty() does (synced first). `out_files`: the files
 * and folders deleted. Returns 0 or an error; PMBENCH_EINTERRUPTED when
 * stopped (pmbench_fs_rmtree_stop_on()), the part deleted recorded all
 * the same, the rest left in the queue.
 */
int pmbench_fs_trash_drain(const char *queue, const char *trash,
			   uint64_t *out_files);

/**
 * When the last large emptying of `trash` ended (its `when`, real time)
 * and how many files it deleted. Returns 1, or 0 when none is recorded.
 */
int pmbench_fs_trash_emptied(const char *trash, struct timespec *when,
			     uint64_t *files);

/**
 * The most bytes the trash may hold before a discard empties it first
 * (default 16 GiB); returns the previous limit. Tests set 0 to see a
 * discard empty the trash.
 */
uint64_t pmbench_fs_trash_limit(uint64_t bytes);

/**
 * The default trash limit, in bytes, for a test (pmbench_fs_trash_limit()
 * overrides it): a small one makes a bench's trash fill up.
 */
#define PMBENCH_FS_TRASH_LIMIT_ENV "PMBENCH_TEST_TRASH_LIMIT"

/** What the trash holds and may hold (pmbench_fs_trash_room()). */
struct pmbench_fs_trash_room {
	/** space and inodes lost since the trash was last empty */
	uint64_t used_bytes, used_files;
	/** what a discard lets it hold before emptying it first */
	uint64_t limit_bytes, limit_files;
	uint64_t avail_bytes, avail_files; /**< free now */
};

/**
 * The room of the trash `trash` now: what it holds and its limits as
 * pmbench_fs_discard() judges them (the limit in bytes, half the space
 * and half the inodes free when it was last empty; before its first
 * discard, what is free now). Returns 0, or an error.
 */
int pmbench_fs_trash_room(struct pmbench_fs_trash_room *out, const char *trash);

/** How often a discard had to empty the trash first (this process). */
unsigned pmbench_fs_trash_forced(const char **why);

/*
 * src/util/fs/reuse.c: what a deletion or a write leaves the next run.
 */

/** Overrides pmbench_fs_inode_reuse_delay() (seconds; tests). */
#define PMBENCH_FS_REUSE_DELAY_ENV "PMBENCH_TEST_INODE_REUSE_DELAY"

/**
 * For how many seconds the file system holding `path` keeps the inodes a
 * deletion freed from being reused, making every file created meanwhile
 * scan past them: ext4 without a journal skips an inode deleted less than
 * 60 s ago, or 360 s while its inode table block is dirty (fs/ext4/
 * ialloc.c, recently_deleted()), and creating files dirties those blocks,
 * so 360. Measured here: after deleting 60,000 files (synced), creating
 * 2,000 next to them took 3.7 times as long for minutes. 0 for other file
 * systems or when it cannot tell. `why` (may be NULL) gets the file
 * system and its device, e.g. "ext4 without a journal (vda)". The
 * environment variable above overrides it.
 */
unsigned pmbench_fs_inode_reuse_delay(const char *path,
				      struct pmbench_buf *why);

/**
 * pmbench_fs_inode_reuse_delay() for a file system of type `fs_type`
 * (statfs) on device `dev`, reading `root`/sys and `root`/proc ("" for
 * the machine's own; tests give a tree of their own).
 */
unsigned pmbench_fs_inode_reuse_delay_at(const char *root,
					 unsigned long fs_type, dev_t dev,
					 struct pmbench_buf *why);

/**
 * Write out every dirty page of the file system that holds `path`
 * (syncfs), so that what one run wrote is not flushed during the next
 * one. Returns 0, or -1 (set) when `path` cannot be opened.
 */
int pmbench_fs_settle(const char *path);

/*
 * src/util/fs/space.c: the room on a file system.
 */

/** The space of the file system holding a path (pmbench_fs_space()). */
struct pmbench_fs_space {
	uint64_t avail_bytes; /**< what an unprivileged writer may still use */
	uint64_t total_bytes; /**< the file system's size */
};

/**
 * The space of the file system holding `path` (statvfs) into `out`.
 * Returns 0, or an error naming the path.
 */
int pmbench_fs_space(struct pmbench_fs_space *out, const char *path);

/**
 * 1 when `sp` says the file system is full: less than 1 MiB (or 1 % of
 * a file system smaller than 100 MiB) left to write. A writer then
 * meets ENOSPC, or waits for space that never comes.
 */
int pmbench_fs_space_full(const struct pmbench_fs_space *sp);

/**
 * 1 when the file system holding `path` is full (pmbench_fs_space_full()),
 * `why` replaced by "disk full: 0.1 MB free on /mnt/small (tmpfs)"; 0
 * when it is not, or cannot be told.
 */
int pmbench_fs_full(struct pmbench_buf *why, const char *path);

/*
 * src/util/fs/mount.c: the file system under a path, and how it is
 * mounted.
 */

/** A mount, as /proc/self/mountinfo says. */
struct pmbench_fs_mount {
	struct pmbench_buf type;    /**< "ext4", "overlay", "tmpfs" */
	struct pmbench_buf point;   /**< where it is mounted: "/" */
	struct pmbench_buf source;  /**< "/dev/vda", "overlay" */
	struct pmbench_buf options; /**< the mount's, then the super block's */
	/** ext3 and ext4: 1 with a journal, 0 without; else -1. */
	int journal;
};

#define PMBENCH_FS_MOUNT_INIT                                            \
	{                                                                \
		.type = PMBENCH_BUF_INIT, .point = PMBENCH_BUF_INIT,     \
		.source = PMBENCH_BUF_INIT, .options = PMBENCH_BUF_INIT, \
		.journal = -1                                            \
	}

/**
 * The file system holding `path` (the mount of its device with the
 * longest mount point above it) into `out` (initialised). Returns 0, or
 * PMBENCH_ENOTFOUND (no message) when the kernel does not tell.
 */
int pmbench_fs_mount(struct pmbench_fs_mount *out, const char *path);

void pmbench_fs_mount_release(struct pmbench_fs_mount *m);

/**
 * Append "ext4 (no journal) at / from /dev/vda; rw,relatime,discard" to
 * `out`: the type, the journal of ext3 and ext4, where and from what it
 * is mounted and its options (an overlay's name its layers).
 */
void pmbench_fs_mount_describe(struct pmbench_buf *out,
			       const struct pmbench_fs_mount *m);

/**
 * The mount point and type of the file system holding `path`, as
 * /proc/self/mountinfo says, appended to `out`: "/mnt/small (tmpfs)";
 * `path` itself when it cannot tell.
 */
void pmbench_fs_describe_mount(struct pmbench_buf *out, const char *path);

#endif
