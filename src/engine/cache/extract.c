/*
 * Reading cache archives, which both backends do with libarchive: the
 * confined extraction (libarchive reads, pmbench writes every entry
 * relative to its folder's descriptor, never through a symlink), the same
 * reading as a check before another program extracts, and counting what
 * an archive holds.
 */
#include "pmbench/common.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "pmbench/cachearc.h"
#include "pmbench/fs.h"
#include "pmbench/strvec.h"

#include "backend.h"

const char *pmbench_cachearc_errmsg(struct archive *a)
{
	const char *m = a ? archive_error_string(a) : NULL;

	return m ? m : "unknown error";
}

/*
 * A relative name with no empty, "." or ".." component (one trailing
 * slash, as tar writes folders, is fine): 1 if acceptable.
 */
static int name_ok(const char *name)
{
	const char *p = name;

	if (!*name || *name == '/')
		return 0;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 0)
			return 0;
		if ((n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		p += n;
		if (*p == '/') {
			p++;
			if (!*p)
				break; /* the trailing slash */
		}
	}
	return 1;
}

/* How deep below a map's folder an entry may be. */
#define MAX_DEPTH 256
/* The longest file name component (Linux's NAME_MAX). */
#define COMP_MAX 255

/* A resolved map for extraction. */
struct dest {
	const char *name;
	size_t name_len;
	char *root; /* realpath of the map's folder */
	int fd;	    /* that folder, reached without following a symlink */
};

/*
 * Where the entry `name` goes: the map with the longest name that is
 * `name` or a folder above it. `*rel` is set to the rest of the name
 * below the map's folder ("" for the folder itself) and `*rel_len` to its
 * length without a trailing slash. Returns the map, or NULL.
 */
static const struct dest *place(const char **rel, size_t *rel_len,
				const struct dest *dests, size_t nr,
				const char *name)
{
	const struct dest *best = NULL;
	size_t len = strlen(name);

	while (len > 1 && name[len - 1] == '/')
		len--;
	for (size_t i = 0; i < nr; i++) {
		const struct dest *d = &dests[i];

		if (len < d->name_len || strncmp(name, d->name, d->name_len))
			continue;
		if (len > d->name_len && name[d->name_len] != '/')
			continue;
		if (!best || d->name_len > best->name_len)
			best = d;
	}
	if (!best)
		return NULL;
	if (len > best->name_len) {
		*rel = name + best->name_len + 1;
		*rel_len = len - best->name_len - 1;
	} else {
		*rel = "";
		*rel_len = 0;
	}
	return best;
}

/*
 * The folders open along one path below a map's folder. An archive lists
 * a folder's entries together, so keeping the path open makes each entry
 * one call relative to its folder's descriptor instead of a walk from
 * the root (libarchive's disk writer checked every component of every
 * entry's absolute path for symlinks: about ten openat and fstatat calls
 * per entry).
 */
struct walk {
	const struct dest *d;
	struct pmbench_buf path; /* the deepest open folder, relative */
	int fds[MAX_DEPTH];
	size_t ends[MAX_DEPTH]; /* path.len at each depth */
	size_t nr;
};

static void walk_pop(struct walk *w, size_t depth)
{
	while (w->nr > depth) {
		w->nr--;
		close(w->fds[w->nr]);
	}
	pmbench_buf_setlen(&w->path, w->nr ? w->ends[w->nr - 1] : 0);
}

static void walk_release(struct walk *w)
{
	walk_pop(w, 0);
	pmbench_buf_release(&w->path);
}

static int open_dir_at(int dir, const char *name)
{
	return openat(dir, name,
		      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/*
 * The folder made of the first `len` bytes of `rel` below the map `d`,
 * opened one component at a time relative to its parent with O_NOFOLLOW:
 * no symlink, whether the archive made it or it was there before, is
 * ever followed, so the folder is always inside the map's folder (this
 * is what libarchive's SECURE_SYMLINKS and SECURE_NODOTDOT checked, by
 * path). With `create`, missing folders are made with mode 0755, as tar
 * makes a folder the archive does not list. Returns the descriptor
 * (owned by the walk) or -errno: -ELOOP or -ENOTDIR when a component is
 * a symlink or not a folder, -ENAMETOOLONG when it is too deep.
 */
static int walk_to(struct walk *w, const struct dest *d, const char *rel,
		   size_t len, int create)
{
	size_t pos;

	if (w->d != d) {
		walk_pop(w, 0);
		w->d = d;
	}
	/* Keep the deepest open folder that is `rel` or above it. */
	while (w->nr) {
		size_t e = w->ends[w->nr - 1];

		if (e <= len && !memcmp(w->path.ptr, rel, e) &&
		    (e == len || rel[e] == '/'))
			break;
		walk_pop(w, w->nr - 1);
	}
	pos = w->nr ? w->ends[w->nr - 1] + 1 : 0;
	while (pos < len) {
		const char *c = rel + pos;
		const char *slash = memchr(c, '/', len - pos);
		size_t n = slash ? (size_t)(slash - c) : len - pos;
		int parent = w->nr ? w->fds[w->nr - 1] : d->fd;
		char comp[COMP_MAX + 1];
		int fd;

		if (n > COMP_MAX || w->nr == MAX_DEPTH)
			return -ENAMETOOLONG;
		memcpy(comp, c, n);
		comp[n] = '\0';
		fd = open_dir_at(parent, comp);
		if (fd < 0 && errno == ENOENT && create) {
			if (mkdirat(parent, comp, 0755) < 0 && errno != EEXIST)
				return -errno;
			fd = open_dir_at(parent, comp);
		}
		if (fd < 0)
			return -errno;
		w->fds[w->nr] = fd;
		if (w->nr)
			pmbench_buf_addch(&w->path, '/');
		pmbench_buf_add(&w->path, c, n);
		w->ends[w->nr++] = w->path.len;
		pos += n + 1;
	}
	return w->nr ? w->fds[w->nr - 1] : d->fd;
}

/* A folder whose mode and time are set once its contents are written. */
struct fixup {
	size_t dest;
	mode_t mode;
	int chmod; /* the mode differs from what mkdir gave it */
	struct timespec mtime;
	int has_time;
};

/* One extraction (or, for GNU tar, the check before it). */
struct extract {
	const char *archive;
	struct pmbench_cachearc_stats *st;
	struct archive *in;
	struct dest *dests;
	size_t dests_nr;
	int write; /* 0: only check, as before GNU tar writes */
	mode_t umask;
	struct walk w;	/* the entries' folders */
	struct walk lw; /* the folders of hard-link targets */
	struct fixup *fix;
	size_t fix_nr, fix_alloc;
	struct pmbench_strvec fix_paths;
	/* Check only: symlink entries, and every name with its entry. */
	struct pmbench_strvec links;
	struct pmbench_strvec names, owners;
};

/* A refused entry: PMBENCH_EINVALID with a message naming it. */
static int refuse(const struct extract *x, const char *name, const char *why)
{
	return pmbench_error_setc(PMBENCH_EINVALID,
				  "refused entry '%s' in '%s': %s", name,
				  x->archive, why);
}

/* The error for a failed walk_to() on behalf of the entry `name`. */
static int walk_error(const struct extract *x, const char *name, int neg,
		      const char *what)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int ret;

	if (neg == -ELOOP || neg == -ENOTDIR) {
		pmbench_buf_addf(&b, "%s runs through a symlink or a file",
				 what);
		ret = refuse(x, name, b.ptr);
	} else if (neg == -ENAMETOOLONG) {
		ret = refuse(x, name, "nested too deeply or a name too long");
	} else {
		ret = pmbench_error_set("cannot extract '%s' from '%s': %s",
					name, x->archive, strerror(-neg));
	}
	pmbench_buf_release(&b);
	return ret;
}

/*
 * Remove what is at `base` so an entry can take its place: never
 * followed, and a folder only when it is empty.
 */
static int clear_place(int dir, const char *base)
{
	if (!unlinkat(dir, base, 0))
		return 0;
	if (errno == EISDIR || errno == EPERM)
		return unlinkat(dir, base, AT_REMOVEDIR);
	return -1;
}

static void entry_times(struct timespec t[2], int *has, struct archive_entry *e)
{
	t[0].tv_sec = 0;
	t[0].tv_nsec = UTIME_OMIT;
	t[1].tv_sec = archive_entry_mtime(e);
	t[1].tv_nsec = archive_entry_mtime_nsec(e);
	*has = archive_entry_mtime_is_set(e);
	if (!*has)
		t[1].tv_nsec = UTIME_OMIT;
}

/*
 * Create the file `base` in `dir` with the permission bits of `mode`,
 * replacing what is there (never through a symlink). Returns the
 * descriptor, or -1 with errno set.
 */
static int create_file(int dir, const char *base, mode_t mode)
{
	int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int fd = openat(dir, base, flags, mode & 0777);

	if (fd < 0 && errno == EEXIST && !clear_place(dir, base))
		fd = openat(dir, base, flags, mode & 0777);
	return fd;
}

/* pwrite(2) all of `data` at `*off`, which moves past it: 0, or -1. */
static int pwrite_all(int fd, const void *data, size_t n, la_int64_t *off)
{
	while (n > 0) {
		ssize_t w = pwrite(fd, data, n, (off_t)*off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		data = (const char *)data + w;
		n -= (size_t)w;
		*off += w;
	}
	return 0;
}

/*
 * The data of the current entry `name` (`size` bytes) into `fd`, block
 * by block at the offsets the archive gives, holes left as holes.
 */
static int write_data(struct extract *x, const char *name, int fd, int64_t size)
{
	int64_t end = 0;

	while (size > 0) {
		const void *data;
		size_t n;
		la_int64_t off;
		int r = archive_read_data_block(x->in, &data, &n, &off);

		if (r == ARCHIVE_EOF)
			break;
		if (r < ARCHIVE_WARN)
			return pmbench_error_set(
				"cannot read '%s' from '%s': %s", name,
				x->archive, pmbench_cachearc_errmsg(x->in));
		if (pwrite_all(fd, data, n, &off) < 0)
			return pmbench_error_set(
				"cannot extract '%s' from '%s': %s", name,
				x->archive, strerror(errno));
		if (off > end)
			end = off;
	}
	/* A sparse file's last hole. */
	if (end < size && ftruncate(fd, (off_t)size) < 0)
		return pmbench_error_set("cannot extract '%s' from '%s': %s",
					 name, x->archive, strerror(errno));
	return 0;
}

static int write_file(struct extract *x, const char *name, int dir,
		      const char *base, struct archive_entry *e, mode_t mode)
{
	struct timespec t[2];
	int fd = create_file(dir, base, mode), has_time, ret;

	if (fd < 0)
		return pmbench_error_set("cannot extract '%s' from '%s': %s",
					 name, x->archive, strerror(errno));
	ret = write_data(x, name, fd, archive_entry_size(e));
	if (!ret && (mode & ~x->umask) != mode && fchmod(fd, mode) < 0)
		ret = pmbench_error_set("cannot set the mode of '%s': %s", name,
					strerror(errno));
	entry_times(t, &has_time, e);
	if (!ret && has_time && futimens(fd, t) < 0)
		ret = pmbench_error_set("cannot set the time of '%s': %s", name,
					strerror(errno));
	if (close(fd) < 0 && !ret)
		ret = pmbench_error_set("cannot extract '%s' from '%s': %s",
					name, x->archive, strerror(errno));
	return ret;
}

static int write_dir(struct extract *x, const char *name, int dir,
		     const char *base, const struct dest *d, const char *rel,
		     struct archive_entry *e, mode_t mode)
{
	/* Writable by us until the fix-up, whatever the archive says. */
	mode_t made = (mode & 0700) == 0700 ? mode & 0777 : 0700;
	struct fixup *f;
	struct stat st;
	int existed = 0;

	if (mkdirat(dir, base, made) < 0) {
		if (errno != EEXIST)
			return pmbench_error_set(
				"cannot extract '%s' from '%s': %s", name,
				x->archive, strerror(errno));
		if (fstatat(dir, base, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return pmbench_error_set(
				"cannot extract '%s' from '%s': %s", name,
				x->archive, strerror(errno));
		existed = 1;
		if (!S_ISDIR(st.st_mode) && (clear_place(dir, base) < 0 ||
					     mkdirat(dir, base, made) < 0))
			return pmbench_error_set(
				"cannot extract '%s' from '%s': %s", name,
				x->archive, strerror(errno));
	}
	PMBENCH_ALLOC_GROW(x->fix, x->fix_nr + 1, x->fix_alloc);
	f = &x->fix[x->fix_nr++];
	f->dest = (size_t)(d - x->dests);
	f->mode = mode;
	f->chmod = existed || made != (mode & 0777) ||
		   (mode & ~x->umask) != mode;
	{
		struct timespec t[2];

		entry_times(t, &f->has_time, e);
		f->mtime = t[1];
	}
	pmbench_strvec_push(&x->fix_paths, rel);
	return 0;
}

/*
 * Folder modes and times last, deepest first (the reverse of the
 * archive's order), so that writing a folder's contents does not change
 * its time again and a read-only folder is filled before it becomes so.
 */
static int apply_fixups(struct extract *x)
{
	for (size_t i = x->fix_nr; i-- > 0;) {
		const struct fixup *f = &x->fix[i];
		const char *rel = x->fix_paths.v[i];
		struct timespec t[2];
		int fd =
			walk_to(&x->w, &x->dests[f->dest], rel, strlen(rel), 0);

		/* Replaced by a later entry, or removed: nothing to fix. */
		if (fd < 0)
			continue;
		if (f->chmod && fchmod(fd, f->mode) < 0)
			return pmbench_error_set(
				"cannot set the mode of '%s/%s': %s",
				x->dests[f->dest].name, rel, strerror(errno));
		t[0].tv_sec = 0;
		t[0].tv_nsec = UTIME_OMIT;
		t[1] = f->mtime;
		if (f->has_time && futimens(fd, t) < 0)
			return pmbench_error_set(
				"cannot set the time of '%s/%s': %s",
				x->dests[f->dest].name, rel, strerror(errno));
	}
	return 0;
}

/* Push `s` without the trailing slash tar writes after a folder's name. */
static void push_trimmed(struct pmbench_strvec *sv, const char *s)
{
	size_t n = strlen(s);
	char *t;

	while (n > 1 && s[n - 1] == '/')
		n--;
	t = pmbench_xstrndup(s, n);
	pmbench_strvec_push(sv, t);
	free(t);
}

/* Split `rel` (its first `len` bytes) into its folder's length and base. */
static int split_base(char base[COMP_MAX + 1], size_t *dir_len, const char *rel,
		      size_t len)
{
	const char *slash = NULL;
	size_t n;

	for (size_t i = len; i-- > 0;) {
		if (rel[i] == '/') {
			slash = rel + i;
			break;
		}
	}
	*dir_len = slash ? (size_t)(slash - rel) : 0;
	n = slash ? len - *dir_len - 1 : len;
	if (n > COMP_MAX)
		return -1;
	memcpy(base, slash ? slash + 1 : rel, n);
	base[n] = '\0';
	return 0;
}

/*
 * Check only: GNU tar follows a symlink that is on disk where a folder is
 * expected, so there must be none (a missing folder is fine, tar makes a
 * real one); `dir_len` of `rel` is the folder to check (a folder entry's
 * own place counts too, as tar sets its mode and time at the end). The
 * names are noted for the symlink check at the end.
 */
static int check_entry(struct extract *x, const char *name,
		       struct archive_entry *e, const struct dest *d,
		       const char *rel, size_t dir_len, const struct dest *hd,
		       const char *hrel, size_t hdir_len)
{
	int dir = walk_to(&x->w, d, rel, dir_len, 0), hdir;

	if (dir < 0 && dir != -ENOENT)
		return walk_error(x, name, dir, "its folder on disk");
	if (hd) {
		hdir = walk_to(&x->lw, hd, hrel, hdir_len, 0);
		if (hdir < 0 && hdir != -ENOENT)
			return walk_error(x, name, hdir,
					  "its hard-link target");
	}
	push_trimmed(&x->names, name);
	pmbench_strvec_push(&x->owners, name);
	if (hd) {
		push_trimmed(&x->names, archive_entry_hardlink(e));
		pmbench_strvec_push(&x->owners, name);
	} else if (archive_entry_filetype(e) == AE_IFLNK) {
		push_trimmed(&x->links, name);
	}
	return 0;
}

/* A symlink entry, written as `base` in the folder `dir`. */
static int put_symlink(struct extract *x, const char *name,
		       struct archive_entry *e, int dir, const char *base)
{
	const char *target = archive_entry_symlink(e);
	struct timespec t[2];
	int has_time;

	if (!target)
		target = "";
	if (symlinkat(target, dir, base) < 0 &&
	    (errno != EEXIST || clear_place(dir, base) < 0 ||
	     symlinkat(target, dir, base) < 0))
		return pmbench_error_set("cannot extract '%s' from '%s': %s",
					 name, x->archive, strerror(errno));
	entry_times(t, &has_time, e);
	if (has_time && utimensat(dir, base, t, AT_SYMLINK_NOFOLLOW) < 0)
		return pmbench_error_set("cannot set the time of '%s': %s",
					 name, strerror(errno));
	return 0;
}

/*
 * A hard-link entry, written as `base` in the folder `dir`: a link to
 * `hbase` in the folder `hdir_len` bytes of `hrel` below the map `hd`.
 */
static int put_hardlink(struct extract *x, const char *name,
			struct archive_entry *e, int dir, const char *base,
			const struct dest *hd, const char *hrel,
			size_t hdir_len, const char *hbase)
{
	int hdir = walk_to(&x->lw, hd, hrel, hdir_len, 0);

	if (hdir < 0)
		return walk_error(x, name, hdir, "its hard-link target");
	if (linkat(hdir, hbase, dir, base, 0) < 0 &&
	    (errno != EEXIST || clear_place(dir, base) < 0 ||
	     linkat(hdir, hbase, dir, base, 0) < 0))
		return pmbench_error_set("cannot extract '%s' from '%s': a "
					 "hard link to '%s': %s",
					 name, x->archive,
					 archive_entry_hardlink(e),
					 strerror(errno));
	return 0;
}

/*
 * One entry, already checked for its name and type: written below its
 * map, or (check only) its folders on disk checked and its names noted
 * for the symlink check at the end.
 */
static int put_entry(struct extract *x, const char *name,
		     struct archive_entry *e, const struct dest *d,
		     const char *rel, size_t rel_len, const struct dest *hd,
		     const char *hrel, size_t hrel_len)
{
	char base[COMP_MAX + 1], hbase[COMP_MAX + 1];
	size_t dir_len = 0, hdir_len = 0;
	int type = archive_entry_filetype(e);
	mode_t mode = archive_entry_perm(e) & 01777;
	int dir, is_dir = !hd && type == AE_IFDIR;

	if (!rel_len && !is_dir)
		return refuse(x, name,
			      "it would replace a folder it is "
			      "restored into");
	if (!rel_len) {
		/* The map's own folder: only its mode and time. */
		return x->write ? write_dir(x, name, d->fd, ".", d, "", e, mode)
				: 0;
	}
	if (split_base(base, &dir_len, rel, rel_len) < 0 ||
	    (hd && split_base(hbase, &hdir_len, hrel, hrel_len) < 0))
		return refuse(x, name, "a name too long");
	if (hd && !hrel_len)
		return refuse(x, name, "a hard link to a folder");
	if (!x->write)
		return check_entry(x, name, e, d, rel,
				   is_dir ? rel_len : dir_len, hd, hrel,
				   hdir_len);
	dir = walk_to(&x->w, d, rel, dir_len, 1);
	if (dir < 0)
		return walk_error(x, name, dir, "its folder");
	if (hd)
		return put_hardlink(x, name, e, dir, base, hd, hrel, hdir_len,
				    hbase);
	if (type == AE_IFDIR)
		return write_dir(x, name, dir, base, d, rel, e, mode);
	if (type == AE_IFLNK)
		return put_symlink(x, name, e, dir, base);
	return write_file(x, name, dir, base, e, mode);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Check only: no entry and no hard-link target may run through a symlink
 * the archive itself makes, wherever in the archive it comes (GNU tar
 * would follow it; with pmbench's writer the walk refuses it).
 */
static int check_links(struct extract *x)
{
	struct pmbench_buf prefix = PMBENCH_BUF_INIT;
	int ret = 0;

	if (!x->links.nr)
		return 0;
	qsort(x->links.v, x->links.nr, sizeof(*x->links.v), cmp_str);
	for (size_t i = 0; i < x->names.nr && !ret; i++) {
		const char *n = x->names.v[i];

		for (const char *p = strchr(n, '/'); p && !ret;
		     p = strchr(p + 1, '/')) {
			const char *key;

			pmbench_buf_reset(&prefix);
			pmbench_buf_add(&prefix, n, (size_t)(p - n));
			key = prefix.ptr;
			if (bsearch(&key, x->links.v, x->links.nr,
				    sizeof(*x->links.v), cmp_str)) {
				struct pmbench_buf why = PMBENCH_BUF_INIT;

				pmbench_buf_addf(&why,
						 "it runs through the symlink "
						 "'%s' the archive makes",
						 prefix.ptr);
				ret = refuse(x, x->owners.v[i], why.ptr);
				pmbench_buf_release(&why);
			}
		}
	}
	pmbench_buf_release(&prefix);
	return ret;
}

/* Open the folder `rel` below the folder `dir`, following no symlink. */
static int open_below(int dir, const char *rel)
{
	struct pmbench_strvec parts = PMBENCH_STRVEC_INIT;
	int fd = dup(dir);

	pmbench_strvec_split(&parts, rel, '/');
	for (size_t i = 0; i < parts.nr && fd >= 0; i++) {
		int next;

		if (!*parts.v[i])
			continue;
		next = open_dir_at(fd, parts.v[i]);
		close(fd);
		fd = next;
	}
	pmbench_strvec_release(&parts);
	return fd;
}

/*
 * The map `d`'s folder, resolved to `real` after mkdir: still inside
 * `confine` (whose real path is `conf`) and, with `identity`, exactly
 * "<conf>/<map name>".
 */
static int check_dest_real(const struct extract *x, const struct dest *d,
			   const char *confine, const struct pmbench_buf *conf,
			   const struct pmbench_buf *real, int identity)
{
	if (pmbench_fs_is_inside(confine, real->ptr) != 1 ||
	    strncmp(real->ptr, conf->ptr, conf->len) ||
	    real->ptr[conf->len] != '/')
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "refusing to extract '%s' into '%s': "
					  "not inside pmbench's work folder "
					  "'%s'",
					  x->archive, real->ptr, confine);
	if (identity &&
	    (real->len != conf->len + 1 + d->name_len ||
	     strncmp(real->ptr + conf->len + 1, d->name, d->name_len)))
		return pmbench_error_setc(
			PMBENCH_EINVALID,
			"cannot extract '%s' with GNU tar: '%.*s' would go to "
			"'%s/%.*s', not to '%s'",
			x->archive, (int)d->name_len, d->name, conf->ptr,
			(int)d->name_len, d->name, real->ptr);
	return 0;
}

/*
 * One map of open_dests(): created, resolved, checked to be inside
 * `confine` (whose real path is `conf`, open as `conf_fd`) and opened.
 */
static int open_dest(struct extract *x, struct dest *d,
		     const struct pmbench_cachearc_map *map,
		     const char *confine, const struct pmbench_buf *conf,
		     int conf_fd, int identity)
{
	struct pmbench_buf real = PMBENCH_BUF_INIT;
	int inside = pmbench_fs_is_inside(confine, map->path), ret;

	if (inside < 0)
		return inside;
	if (!inside || !name_ok(map->name))
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "refusing to extract '%s' into '%s': "
					  "not inside pmbench's work folder "
					  "'%s'",
					  x->archive, map->path, confine);
	ret = pmbench_fs_mkdirp(map->path, 0755);
	if (!ret)
		ret = pmbench_fs_realpath(&real, map->path);
	if (ret)
		goto done;
	d->name = map->name;
	d->name_len = strlen(map->name);
	while (d->name_len > 1 && map->name[d->name_len - 1] == '/')
		d->name_len--;
	/* Whatever mkdir went through must still be inside. */
	ret = check_dest_real(x, d, confine, conf, &real, identity);
	if (ret)
		goto done;
	d->root = pmbench_xstrdup(real.ptr);
	d->fd = open_below(conf_fd, real.ptr + conf->len + 1);
	if (d->fd < 0)
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "refusing to extract '%s' into '%s': "
					 "%s",
					 x->archive, real.ptr, strerror(errno));
done:
	pmbench_buf_release(&real);
	return ret;
}

/*
 * Resolve the maps: each must be inside `confine`, is created, and is
 * opened by a walk from `confine` that follows no symlink. With
 * `identity`, each map's folder must also be "<confine>/<map name>", as
 * GNU tar writes every entry below one folder.
 */
static int open_dests(struct extract *x,
		      const struct pmbench_cachearc_map *maps, size_t maps_nr,
		      const char *confine, int identity)
{
	struct pmbench_buf conf = PMBENCH_BUF_INIT;
	int conf_fd = -1, ret = 0;

	x->dests = pmbench_xcalloc(maps_nr ? maps_nr : 1, sizeof(*x->dests));
	for (size_t i = 0; i < maps_nr; i++)
		x->dests[i].fd = -1;
	x->dests_nr = maps_nr;
	if (!confine)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "no work folder to extract '%s' into",
					  x->archive);
	ret = pmbench_fs_realpath(&conf, confine);
	if (ret)
		goto done;
	conf_fd = open(conf.ptr, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (conf_fd < 0) {
		ret = pmbench_error_set("cannot open '%s': %s", conf.ptr,
					strerror(errno));
		goto done;
	}
	for (size_t i = 0; i < maps_nr && !ret; i++)
		ret = open_dest(x, &x->dests[i], &maps[i], confine, &conf,
				conf_fd, identity);
done:
	if (conf_fd >= 0)
		close(conf_fd);
	pmbench_buf_release(&conf);
	return ret;
}

static void extract_release(struct extract *x)
{
	if (x->in)
		archive_read_free(x->in);
	walk_release(&x->w);
	walk_release(&x->lw);
	for (size_t i = 0; x->dests && i < x->dests_nr; i++) {
		free(x->dests[i].root);
		if (x->dests[i].fd >= 0)
			close(x->dests[i].fd);
	}
	free(x->dests);
	free(x->fix);
	pmbench_strvec_release(&x->fix_paths);
	pmbench_strvec_release(&x->links);
	pmbench_strvec_release(&x->names);
	pmbench_strvec_release(&x->owners);
}

/* Open `archive` for reading with the filters pmbench writes. */
static int open_archive(struct archive **out, const char *archive,
			struct pmbench_cachearc_stats *st)
{
	struct archive *in = archive_read_new();
	struct stat sb;

	if (!in)
		pmbench_die("out of memory reading an archive");
	*out = in;
	/*
	 * Only the filters pmbench writes, all in-process (filter_all would
	 * also accept formats libarchive decodes by running a program).
	 */
	archive_read_support_filter_none(in);
	archive_read_support_filter_gzip(in);
	archive_read_support_filter_zstd(in);
	archive_read_support_format_tar(in);
	if (stat(archive, &sb) < 0)
		return pmbench_error_setc(
			errno == ENOENT ? PMBENCH_ENOTFOUND : PMBENCH_ERROR,
			"cannot open '%s': %s", archive, strerror(errno));
	st->archive_bytes = (uint64_t)sb.st_size;
	if (archive_read_open_filename(in, archive, PMBENCH_CACHEARC_IO_CHUNK) <
	    ARCHIVE_WARN)
		return pmbench_error_set("cannot open '%s': %s", archive,
					 pmbench_cachearc_errmsg(in));
	return 0;
}

/*
 * Where the entry `name` goes: its map `*d` and the path `*rel` below it
 * (a hard link's target likewise in `*hd`, `*hrel`), or refused: an
 * absolute or dotted name, outside every map, or not a file, folder,
 * symlink or hard link.
 */
static int place_entry(struct extract *x, const char *name,
		       struct archive_entry *e, const struct dest **d,
		       const char **rel, size_t *rel_len,
		       const struct dest **hd, const char **hrel,
		       size_t *hrel_len)
{
	const char *hard = archive_entry_hardlink(e);
	int type = archive_entry_filetype(e), ret;
	struct pmbench_buf why = PMBENCH_BUF_INIT;

	if (!name_ok(name))
		return refuse(x, name,
			      "an absolute path or one with '.' or '..' parts");
	*d = place(rel, rel_len, x->dests, x->dests_nr, name);
	if (!*d)
		return refuse(x, name, "outside the archive's folders");
	if (!hard && type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK)
		return refuse(x, name, "not a file, folder or symlink");
	*hd = NULL;
	if (!hard)
		return 0;
	if (name_ok(hard))
		*hd = place(hrel, hrel_len, x->dests, x->dests_nr, hard);
	if (*hd)
		return 0;
	pmbench_buf_addf(&why,
			 "a hard link to '%s', outside the archive's folders",
			 hard);
	ret = refuse(x, name, why.ptr);
	pmbench_buf_release(&why);
	return ret;
}

/* The entry `e`, named `name`: placed, then written or checked. */
static int extract_entry(struct extract *x, struct archive_entry *e,
			 const char *name)
{
	const char *rel = "", *hrel = "";
	const struct dest *d = NULL, *hd = NULL;
	size_t rel_len = 0, hrel_len = 0;
	int ret = place_entry(x, name, e, &d, &rel, &rel_len, &hd, &hrel,
			      &hrel_len);

	if (!ret)
		ret = put_entry(x, name, e, d, rel, rel_len, hd, hrel,
				hrel_len);
	if (ret)
		return ret;
	x->st->entries++;
	if (archive_entry_filetype(e) == AE_IFREG && !archive_entry_hardlink(e))
		x->st->files++;
	return 0;
}

/*
 * Read every entry of `archive`, refusing what may not be extracted, and
 * write it below its map (`x->write`) or only check it. Stops at the
 * first refused entry.
 */
static int run_extract(struct extract *x, const char *archive,
		       const struct pmbench_cachearc_map *maps, size_t maps_nr,
		       const char *confine, int identity)
{
	struct pmbench_buf name = PMBENCH_BUF_INIT;
	struct archive_entry *e;
	int ret, r;

	x->archive = archive;
	x->umask = pmbench_fs_umask();
	ret = open_dests(x, maps, maps_nr, confine, identity);
	if (!ret)
		ret = open_archive(&x->in, archive, x->st);
	while (!ret) {
		r = archive_read_next_header(x->in, &e);
		if (r == ARCHIVE_EOF)
			break;
		if (r < ARCHIVE_WARN) {
			ret = pmbench_error_set("cannot read '%s': %s", archive,
						pmbench_cachearc_errmsg(x->in));
			break;
		}
		pmbench_buf_reset(&name);
		if (archive_entry_pathname(e))
			pmbench_buf_adds(&name, archive_entry_pathname(e));
		ret = extract_entry(x, e, name.ptr);
	}
	if (!ret)
		x->st->raw_bytes = (uint64_t)archive_filter_bytes(x->in, 0);
	if (!ret && x->write)
		ret = apply_fixups(x);
	if (!ret && !x->write)
		ret = check_links(x);
	pmbench_buf_release(&name);
	return ret;
}

static void extract_init(struct extract *x, struct pmbench_cachearc_stats *st,
			 int write)
{
	memset(x, 0, sizeof(*x));
	x->st = st;
	x->write = write;
	pmbench_buf_init(&x->w.path);
	pmbench_buf_init(&x->lw.path);
	pmbench_strvec_init(&x->fix_paths);
	pmbench_strvec_init(&x->links);
	pmbench_strvec_init(&x->names);
	pmbench_strvec_init(&x->owners);
}

int pmbench_cachearc_read(struct pmbench_cachearc_stats *out,
			  const char *archive,
			  const struct pmbench_cachearc_map *maps,
			  size_t maps_nr, const char *confine, int identity,
			  int write)
{
	struct pmbench_cachearc_stats local;
	struct extract x;
	int ret;

	if (!out)
		out = &local;
	memset(out, 0, sizeof(*out));
	extract_init(&x, out, write);
	ret = run_extract(&x, archive, maps, maps_nr, confine, identity);
	extract_release(&x);
	return ret;
}

int pmbench_cachearc_extract(struct pmbench_cachearc_stats *out,
			     const char *archive,
			     const struct pmbench_cachearc_map *maps,
			     size_t maps_nr, const char *confine)
{
	return pmbench_cachearc_read(out, archive, maps, maps_nr, confine, 0,
				     1);
}

int pmbench_cachearc_scan(struct pmbench_cachearc_stats *st,
			  const char *archive)
{
	struct archive *in = NULL;
	struct archive_entry *e;
	int ret = open_archive(&in, archive, st), r;

	while (!ret) {
		r = archive_read_next_header(in, &e);
		if (r == ARCHIVE_EOF)
			break;
		if (r < ARCHIVE_WARN) {
			ret = pmbench_error_set("cannot read '%s': %s", archive,
						pmbench_cachearc_errmsg(in));
			break;
		}
		st->entries++;
		if (archive_entry_filetype(e) == AE_IFREG &&
		    !archive_entry_hardlink(e))
			st->files++;
	}
	if (!ret)
		st->raw_bytes = (uint64_t)archive_filter_bytes(in, 0);
	archive_read_free(in);
	return ret;
}
