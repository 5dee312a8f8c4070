#include "pmbench/common.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "pmbench/cachearc.h"
#include "pmbench/fs.h"
#include "pmbench/strvec.h"

#define IO_CHUNK (64 * 1024)

int pmbench_cachearc_parse(struct pmbench_cachearc_compression *out,
			   const char *s)
{
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	uint64_t level = 0;
	int max = 0;

	if (n == 4 && !strncmp(s, "none", 4) && !colon) {
		out->filter = PMBENCH_CACHEARC_NONE;
		out->level = 0;
		return 0;
	}
	if (n == 4 && !strncmp(s, "gzip", 4)) {
		out->filter = PMBENCH_CACHEARC_GZIP;
		max = 9;
		level = 6;
	} else if (n == 4 && !strncmp(s, "zstd", 4)) {
		out->filter = PMBENCH_CACHEARC_ZSTD;
		max = 19;
		level = 3;
	}
	if (!max || (colon && (pmbench_parse_u64(&level, colon + 1) < 0 ||
			       level < 1 || level > (uint64_t)max)))
		return pmbench_error_setc(
			PMBENCH_EINVALID,
			"unknown compression '%s'; use none, gzip, gzip:LEVEL "
			"(1-9), zstd or zstd:LEVEL (1-19)",
			s);
	out->level = (int)level;
	return 0;
}

void pmbench_cachearc_name(struct pmbench_buf *out,
			   const struct pmbench_cachearc_compression *c)
{
	switch (c->filter) {
	case PMBENCH_CACHEARC_GZIP:
		pmbench_buf_addf(out, "gzip-%d", c->level ? c->level : 6);
		break;
	case PMBENCH_CACHEARC_ZSTD:
		pmbench_buf_addf(out, "zstd-%d", c->level ? c->level : 3);
		break;
	default:
		pmbench_buf_adds(out, "none");
	}
}

const char *
pmbench_cachearc_suffix(const struct pmbench_cachearc_compression *c)
{
	switch (c->filter) {
	case PMBENCH_CACHEARC_GZIP:
		return ".tar.gz";
	case PMBENCH_CACHEARC_ZSTD:
		return ".tar.zst";
	default:
		return ".tar";
	}
}

static const char *arc_msg(struct archive *a)
{
	const char *m = a ? archive_error_string(a) : NULL;

	return m ? m : "unknown error";
}

/* The state of one archive being written. */
struct writer {
	struct archive *a;
	struct archive_entry_linkresolver *links;
	const char *archive; /* the final name, for messages */
	struct pmbench_cachearc_stats *st;
	char *buf;
};

static int write_data(struct writer *w, const char *path,
		      struct archive_entry *e)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	int64_t left = archive_entry_size(e);
	int ret = 0;

	if (fd < 0)
		return pmbench_error_set("cannot read '%s': %s", path,
					 strerror(errno));
	while (left > 0 && !ret) {
		ssize_t n = read(fd, w->buf, IO_CHUNK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = pmbench_error_set("cannot read '%s': %s", path,
						strerror(errno));
		} else if (n == 0) {
			/* It shrank while we read: pad to the size promised. */
			memset(w->buf, 0, IO_CHUNK);
			n = left < IO_CHUNK ? (ssize_t)left : IO_CHUNK;
			if (archive_write_data(w->a, w->buf, (size_t)n) < 0)
				ret = pmbench_error_set("cannot write '%s': %s",
							w->archive,
							arc_msg(w->a));
			left -= n;
		} else {
			if (n > left)
				n = (ssize_t)left;
			if (archive_write_data(w->a, w->buf, (size_t)n) < 0)
				ret = pmbench_error_set("cannot write '%s': %s",
							w->archive,
							arc_msg(w->a));
			left -= n;
		}
	}
	close(fd);
	return ret;
}

static int add_path(struct writer *w, const char *path, const char *name,
		    int depth);

static int add_children(struct writer *w, const char *path, const char *name,
			int depth)
{
	struct pmbench_strvec kids = PMBENCH_STRVEC_INIT;
	struct pmbench_buf p = PMBENCH_BUF_INIT, n = PMBENCH_BUF_INIT;
	struct dirent *de;
	DIR *d = opendir(path);
	int ret = 0;

	if (!d)
		return pmbench_error_set("cannot read '%s': %s", path,
					 strerror(errno));
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			pmbench_strvec_push(&kids, de->d_name);
	closedir(d);
	pmbench_strvec_sort(&kids, 0);
	for (size_t i = 0; i < kids.nr && !ret; i++) {
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, path, kids.v[i]);
		pmbench_buf_reset(&n);
		pmbench_buf_path(&n, name, kids.v[i]);
		ret = add_path(w, p.ptr, n.ptr, depth + 1);
	}
	pmbench_strvec_release(&kids);
	pmbench_buf_release(&p);
	pmbench_buf_release(&n);
	return ret;
}

static int add_path(struct writer *w, const char *path, const char *name,
		    int depth)
{
	struct archive_entry *e = NULL, *spare = NULL;
	struct stat st;
	int ret = 0, is_dir;

	if (depth > 256)
		return pmbench_error_set("'%s' is nested too deeply", path);
	if (lstat(path, &st) < 0)
		return errno == ENOENT
			       ? 0
			       : pmbench_error_set("cannot stat '%s': %s", path,
						   strerror(errno));
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) &&
	    !S_ISLNK(st.st_mode))
		return 0; /* sockets, fifos, devices: not cache content */
	is_dir = S_ISDIR(st.st_mode);
	e = archive_entry_new();
	archive_entry_copy_stat(e, &st);
	archive_entry_set_pathname(e, name);
	/*
	 * Whole seconds and no atime/ctime: sub-second times would cost a
	 * pax extended header per file, doubling the headers.
	 */
	archive_entry_set_mtime(e, st.st_mtime, 0);
	archive_entry_unset_atime(e);
	archive_entry_unset_ctime(e);
	archive_entry_unset_birthtime(e);
	if (!S_ISREG(st.st_mode))
		archive_entry_set_size(e, 0);
	if (S_ISLNK(st.st_mode)) {
		char target[4096];
		ssize_t n = readlink(path, target, sizeof(target) - 1);

		if (n < 0) {
			ret = pmbench_error_set("cannot read the link '%s': %s",
						path, strerror(errno));
			goto done;
		}
		target[n] = '\0';
		archive_entry_set_symlink(e, target);
	}
	/*
	 * A file with several links is stored once; the later names become
	 * hard-link entries (no data) to the first.
	 */
	if (S_ISREG(st.st_mode) && st.st_nlink > 1)
		archive_entry_linkify(w->links, &e, &spare);
	if (e) {
		int regular_data = S_ISREG(st.st_mode) &&
				   !archive_entry_hardlink(e) &&
				   archive_entry_size(e) > 0;

		if (archive_write_header(w->a, e) < ARCHIVE_WARN) {
			ret = pmbench_error_set(
				"cannot write '%s' into '%s': %s", name,
				w->archive, arc_msg(w->a));
			goto done;
		}
		w->st->entries++;
		if (S_ISREG(st.st_mode) && !archive_entry_hardlink(e))
			w->st->files++;
		if (regular_data)
			ret = write_data(w, path, e);
	}
	if (!ret && is_dir)
		ret = add_children(w, path, name, depth);
done:
	if (e)
		archive_entry_free(e);
	if (spare)
		archive_entry_free(spare);
	return ret;
}

static int set_filter(struct archive *a,
		      const struct pmbench_cachearc_compression *c)
{
	char level[16];
	int r;

	switch (c->filter) {
	case PMBENCH_CACHEARC_GZIP:
		r = archive_write_add_filter_gzip(a);
		break;
	case PMBENCH_CACHEARC_ZSTD:
		r = archive_write_add_filter_zstd(a);
		break;
	default:
		return archive_write_add_filter_none(a);
	}
	if (r < ARCHIVE_WARN || !c->level)
		return r;
	snprintf(level, sizeof(level), "%d", c->level);
	return archive_write_set_filter_option(a, NULL, "compression-level",
					       level);
}

int pmbench_cachearc_create(struct pmbench_cachearc_stats *out,
			    const char *archive,
			    const struct pmbench_cachearc_map *maps,
			    size_t maps_nr,
			    const struct pmbench_cachearc_compression *c)
{
	struct writer w = { NULL, NULL, archive, out, NULL };
	struct pmbench_buf tmp = PMBENCH_BUF_INIT;
	struct stat st;
	int ret = 0, opened = 0;

	memset(out, 0, sizeof(*out));
	pmbench_buf_addf(&tmp, "%s.tmp.%ld", archive, (long)getpid());
	w.a = archive_write_new();
	w.buf = pmbench_xmalloc(IO_CHUNK);
	if (!w.a)
		pmbench_die("out of memory creating an archive");
	if (archive_write_set_format_pax_restricted(w.a) < ARCHIVE_WARN ||
	    set_filter(w.a, c) < ARCHIVE_WARN) {
		ret = pmbench_error_set("cannot set up '%s': %s", archive,
					arc_msg(w.a));
		goto done;
	}
	archive_write_set_bytes_in_last_block(w.a, 1);
	w.links = archive_entry_linkresolver_new();
	if (!w.links)
		pmbench_die("out of memory creating an archive");
	archive_entry_linkresolver_set_strategy(w.links, archive_format(w.a));
	if (archive_write_open_filename(w.a, tmp.ptr) < ARCHIVE_WARN) {
		ret = pmbench_error_set("cannot create '%s': %s", tmp.ptr,
					arc_msg(w.a));
		goto done;
	}
	opened = 1;
	for (size_t i = 0; i < maps_nr && !ret; i++)
		ret = add_path(&w, maps[i].path, maps[i].name, 0);
	if (!ret) {
		if (archive_write_close(w.a) < ARCHIVE_WARN) {
			ret = pmbench_error_set("cannot write '%s': %s",
						archive, arc_msg(w.a));
			goto done;
		}
		/* Filter 0 is the uncompressed tar stream. */
		out->raw_bytes = (uint64_t)archive_filter_bytes(w.a, 0);
	}
	if (!ret && rename(tmp.ptr, archive) < 0)
		ret = pmbench_error_set("cannot rename '%s' to '%s': %s",
					tmp.ptr, archive, strerror(errno));
	if (!ret && stat(archive, &st) == 0)
		out->archive_bytes = (uint64_t)st.st_size;
done:
	if (w.links)
		archive_entry_linkresolver_free(w.links);
	if (w.a)
		archive_write_free(w.a);
	if (ret && opened)
		unlink(tmp.ptr);
	free(w.buf);
	pmbench_buf_release(&tmp);
	return ret;
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

/* A resolved map for extraction. */
struct dest {
	const char *name;
	size_t name_len;
	char *root; /* realpath of the map's folder */
};

/*
 * Where the entry `name` goes: the map with the longest name that is
 * `name` or a folder above it. Fills `out` and returns the map, or NULL.
 */
static const struct dest *place(struct pmbench_buf *out,
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
	pmbench_buf_reset(out);
	pmbench_buf_adds(out, best->root);
	if (len > best->name_len)
		pmbench_buf_add(out, name + best->name_len,
				len - best->name_len);
	return best;
}

static int copy_data(struct archive *in, struct archive *disk, const char *name,
		     const char *archive)
{
	for (;;) {
		const void *buf;
		size_t size;
		la_int64_t offset;
		int r = archive_read_data_block(in, &buf, &size, &offset);

		if (r == ARCHIVE_EOF)
			return 0;
		if (r < ARCHIVE_WARN)
			return pmbench_error_set(
				"cannot read '%s' from '%s': %s", name, archive,
				arc_msg(in));
		if (archive_write_data_block(disk, buf, size, offset) <
		    ARCHIVE_WARN)
			return pmbench_error_set("cannot extract '%s' from "
						 "'%s': %s",
						 name, archive, arc_msg(disk));
	}
}

int pmbench_cachearc_extract(struct pmbench_cachearc_stats *out,
			     const char *archive,
			     const struct pmbench_cachearc_map *maps,
			     size_t maps_nr, const char *confine)
{
	struct pmbench_cachearc_stats local;
	struct archive *in = NULL, *disk = NULL;
	struct dest *dests =
		pmbench_xcalloc(maps_nr ? maps_nr : 1, sizeof(*dests));
	struct pmbench_buf path = PMBENCH_BUF_INIT, link = PMBENCH_BUF_INIT;
	struct pmbench_buf real = PMBENCH_BUF_INIT, name = PMBENCH_BUF_INIT;
	struct archive_entry *e;
	struct stat st;
	int ret = 0, r;

	if (!out)
		out = &local;
	memset(out, 0, sizeof(*out));
	if (!confine) {
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "no work folder to extract '%s' into",
					 archive);
		goto done;
	}
	for (size_t i = 0; i < maps_nr; i++) {
		int inside = pmbench_fs_is_inside(confine, maps[i].path);

		if (inside < 0) {
			ret = inside;
			goto done;
		}
		if (!inside || !name_ok(maps[i].name)) {
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "refusing to extract '%s' "
						 "into '%s': not inside "
						 "pmbench's work folder '%s'",
						 archive, maps[i].path,
						 confine);
			goto done;
		}
		ret = pmbench_fs_mkdirp(maps[i].path, 0755);
		if (!ret)
			ret = pmbench_fs_realpath(&real, maps[i].path);
		if (ret)
			goto done;
		/* Whatever mkdir went through must still be inside. */
		if (pmbench_fs_is_inside(confine, real.ptr) != 1) {
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "refusing to extract '%s' "
						 "into '%s': not inside "
						 "pmbench's work folder '%s'",
						 archive, real.ptr, confine);
			goto done;
		}
		dests[i].name = maps[i].name;
		dests[i].name_len = strlen(maps[i].name);
		while (dests[i].name_len > 1 &&
		       maps[i].name[dests[i].name_len - 1] == '/')
			dests[i].name_len--;
		dests[i].root = pmbench_xstrdup(real.ptr);
	}

	in = archive_read_new();
	disk = archive_write_disk_new();
	if (!in || !disk)
		pmbench_die("out of memory reading an archive");
	/*
	 * Only the filters pmbench writes, all in-process (filter_all would
	 * also accept formats libarchive decodes by running a program).
	 */
	archive_read_support_filter_none(in);
	archive_read_support_filter_gzip(in);
	archive_read_support_filter_zstd(in);
	archive_read_support_format_tar(in);
	/*
	 * Every pathname is rewritten to an absolute path below its map
	 * (no chdir), so libarchive's SECURE_NOABSOLUTEPATHS cannot be
	 * set: absolute names and ".." are refused above, before the
	 * rewrite, and SECURE_NODOTDOT stays on as a second guard.
	 * SECURE_SYMLINKS refuses anything written through a symlink. No
	 * owners, ACLs, xattrs or file flags.
	 */
	archive_write_disk_set_options(
		disk, ARCHIVE_EXTRACT_SECURE_SYMLINKS |
			      ARCHIVE_EXTRACT_SECURE_NODOTDOT |
			      ARCHIVE_EXTRACT_PERM | ARCHIVE_EXTRACT_TIME);
	if (stat(archive, &st) < 0) {
		ret = pmbench_error_setc(
			errno == ENOENT ? PMBENCH_ENOTFOUND : PMBENCH_ERROR,
			"cannot open '%s': %s", archive, strerror(errno));
		goto done;
	}
	out->archive_bytes = (uint64_t)st.st_size;
	if (archive_read_open_filename(in, archive, IO_CHUNK) < ARCHIVE_WARN) {
		ret = pmbench_error_set("cannot open '%s': %s", archive,
					arc_msg(in));
		goto done;
	}
	while ((r = archive_read_next_header(in, &e)) != ARCHIVE_EOF) {
		const char *hard;
		const struct dest *d;
		int type, is_hard;

		if (r < ARCHIVE_WARN) {
			ret = pmbench_error_set("cannot read '%s': %s", archive,
						arc_msg(in));
			goto done;
		}
		/* Copied: setting the pathname frees the entry's copy. */
		pmbench_buf_reset(&name);
		if (archive_entry_pathname(e))
			pmbench_buf_adds(&name, archive_entry_pathname(e));
		hard = archive_entry_hardlink(e);
		is_hard = hard != NULL;
		type = archive_entry_filetype(e);
		if (!name_ok(name.ptr)) {
			ret = pmbench_error_setc(
				PMBENCH_EINVALID,
				"refused entry '%s' in '%s': an absolute path "
				"or one with '.' or '..' parts",
				name.ptr, archive);
			goto done;
		}
		d = place(&path, dests, maps_nr, name.ptr);
		if (!d) {
			ret = pmbench_error_setc(
				PMBENCH_EINVALID,
				"refused entry '%s' in '%s': outside the "
				"archive's folders",
				name.ptr, archive);
			goto done;
		}
		if (!hard && type != AE_IFREG && type != AE_IFDIR &&
		    type != AE_IFLNK) {
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "refused entry '%s' in '%s': "
						 "not a file, folder "
						 "or symlink",
						 name.ptr, archive);
			goto done;
		}
		if (hard) {
			const struct dest *hd;

			if (!name_ok(hard) ||
			    !(hd = place(&link, dests, maps_nr, hard)) ||
			    pmbench_fs_is_inside(hd->root, link.ptr) != 1) {
				ret = pmbench_error_setc(
					PMBENCH_EINVALID,
					"refused entry '%s' in '%s': a hard "
					"link to '%s', outside the archive's "
					"folders",
					name.ptr, archive, hard);
				goto done;
			}
			archive_entry_set_hardlink(e, link.ptr);
		}
		archive_entry_set_pathname(e, path.ptr);
		/* No set-user-ID or set-group-ID bits from a cache. */
		archive_entry_set_perm(e, archive_entry_perm(e) & 01777);
		if (archive_write_header(disk, e) < ARCHIVE_WARN) {
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "refused entry '%s' in '%s': "
						 "%s",
						 name.ptr, archive,
						 arc_msg(disk));
			goto done;
		}
		out->entries++;
		if (type == AE_IFREG && !is_hard)
			out->files++;
		if (archive_entry_size(e) > 0) {
			ret = copy_data(in, disk, name.ptr, archive);
			if (ret)
				goto done;
		}
		if (archive_write_finish_entry(disk) < ARCHIVE_WARN) {
			ret = pmbench_error_set(
				"cannot extract '%s' from '%s': "
				"%s",
				name.ptr, archive, arc_msg(disk));
			goto done;
		}
	}
	out->raw_bytes = (uint64_t)archive_filter_bytes(in, 0);
	/* Folder modes and times are applied at close. */
	if (archive_write_close(disk) < ARCHIVE_WARN)
		ret = pmbench_error_set("cannot finish extracting '%s': %s",
					archive, arc_msg(disk));
done:
	if (in)
		archive_read_free(in);
	if (disk)
		archive_write_free(disk);
	for (size_t i = 0; i < maps_nr; i++)
		free(dests[i].root);
	free(dests);
	pmbench_buf_release(&path);
	pmbench_buf_release(&link);
	pmbench_buf_release(&real);
	pmbench_buf_release(&name);
	return ret;
}
