/*
 * The libarchive backend: pmbench saves in process, libarchive writing a
 * pax tar stream of the files pmbench reads, and restores through the
 * confined extraction of extract.c (libarchive reads, pmbench writes).
 */
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

#include "backend.h"

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
		ssize_t n = read(fd, w->buf, PMBENCH_CACHEARC_IO_CHUNK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = pmbench_error_set("cannot read '%s': %s", path,
						strerror(errno));
		} else if (n == 0) {
			/* It shrank while we read: pad to the size promised. */
			memset(w->buf, 0, PMBENCH_CACHEARC_IO_CHUNK);
			n = left < PMBENCH_CACHEARC_IO_CHUNK
				    ? (ssize_t)left
				    : PMBENCH_CACHEARC_IO_CHUNK;
			if (archive_write_data(w->a, w->buf, (size_t)n) < 0)
				ret = pmbench_error_set(
					"cannot write '%s': %s", w->archive,
					pmbench_cachearc_errmsg(w->a));
			left -= n;
		} else {
			if (n > left)
				n = (ssize_t)left;
			if (archive_write_data(w->a, w->buf, (size_t)n) < 0)
				ret = pmbench_error_set(
					"cannot write '%s': %s", w->archive,
					pmbench_cachearc_errmsg(w->a));
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
	while ((de = pmbench_fs_readdir(d)))
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

/*
 * The archive entry `*out` of `path` (stat `st`), named `name`: its
 * metadata as pmbench stores it, and a symlink's target.
 */
static int new_entry(struct archive_entry **out, const char *path,
		     const char *name, const struct stat *st)
{
	struct archive_entry *e = archive_entry_new();

	*out = e;
	archive_entry_copy_stat(e, st);
	archive_entry_set_pathname(e, name);
	/*
	 * Whole seconds and no atime/ctime: sub-second times would cost a
	 * pax extended header per file, doubling the headers.
	 */
	archive_entry_set_mtime(e, st->st_mtime, 0);
	archive_entry_unset_atime(e);
	archive_entry_unset_ctime(e);
	archive_entry_unset_birthtime(e);
	if (!S_ISREG(st->st_mode))
		archive_entry_set_size(e, 0);
	if (S_ISLNK(st->st_mode)) {
		char target[4096];
		ssize_t n = readlink(path, target, sizeof(target) - 1);

		if (n < 0)
			return pmbench_error_set("cannot read the link '%s': "
						 "%s",
						 path, strerror(errno));
		target[n] = '\0';
		archive_entry_set_symlink(e, target);
	}
	return 0;
}

/* Write the header of `e` (`path` named `name`, stat `st`) and its data. */
static int write_entry(struct writer *w, const char *path, const char *name,
		       const struct stat *st, struct archive_entry *e)
{
	int regular = S_ISREG(st->st_mode) && !archive_entry_hardlink(e);

	if (archive_write_header(w->a, e) < ARCHIVE_WARN)
		return pmbench_error_set("cannot write '%s' into '%s': %s",
					 name, w->archive,
					 pmbench_cachearc_errmsg(w->a));
	w->st->entries++;
	if (regular)
		w->st->files++;
	if (regular && archive_entry_size(e) > 0)
		return write_data(w, path, e);
	return 0;
}

static int add_path(struct writer *w, const char *path, const char *name,
		    int depth)
{
	struct archive_entry *e = NULL, *spare = NULL;
	struct stat st;
	int ret = 0;

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
	ret = new_entry(&e, path, name, &st);
	if (ret)
		goto done;
	/*
	 * A file with several links is stored once; the later names become
	 * hard-link entries (no data) to the first.
	 */
	if (S_ISREG(st.st_mode) && st.st_nlink > 1)
		archive_entry_linkify(w->links, &e, &spare);
	if (e)
		ret = write_entry(w, path, name, &st, e);
	if (!ret && S_ISDIR(st.st_mode))
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

/*
 * Set up the writer `w` for a pax tar with the compression `c`, and open
 * it on `tmp` (the temporary name of `archive`).
 */
static int writer_open(struct writer *w, const char *archive, const char *tmp,
		       const struct pmbench_cachearc_compression *c)
{
	w->a = archive_write_new();
	w->buf = pmbench_xmalloc(PMBENCH_CACHEARC_IO_CHUNK);
	if (!w->a)
		pmbench_die("out of memory creating an archive");
	if (archive_write_set_format_pax_restricted(w->a) < ARCHIVE_WARN ||
	    set_filter(w->a, c) < ARCHIVE_WARN)
		return pmbench_error_set("cannot set up '%s': %s", archive,
					 pmbench_cachearc_errmsg(w->a));
	archive_write_set_bytes_in_last_block(w->a, 1);
	w->links = archive_entry_linkresolver_new();
	if (!w->links)
		pmbench_die("out of memory creating an archive");
	archive_entry_linkresolver_set_strategy(w->links, archive_format(w->a));
	if (archive_write_open_filename(w->a, tmp) < ARCHIVE_WARN)
		return pmbench_error_set("cannot create '%s': %s", tmp,
					 pmbench_cachearc_errmsg(w->a));
	return 0;
}

int pmbench_cachearc_create(struct pmbench_cachearc_stats *out,
			    const char *archive,
			    const struct pmbench_cachearc_map *maps,
			    size_t maps_nr,
			    const struct pmbench_cachearc_compression *c)
{
	struct writer w = { .archive = archive, .st = out };
	struct pmbench_buf tmp = PMBENCH_BUF_INIT;
	struct stat st;
	int ret = 0, opened = 0;

	memset(out, 0, sizeof(*out));
	pmbench_buf_addf(&tmp, "%s.tmp.%ld", archive, (long)getpid());
	ret = writer_open(&w, archive, tmp.ptr, c);
	if (ret)
		goto done;
	opened = 1;
	for (size_t i = 0; i < maps_nr && !ret; i++)
		ret = add_path(&w, maps[i].path, maps[i].name, 0);
	if (!ret && archive_write_close(w.a) < ARCHIVE_WARN)
		ret = pmbench_error_set("cannot write '%s': %s", archive,
					pmbench_cachearc_errmsg(w.a));
	/* Filter 0 is the uncompressed tar stream. */
	if (!ret)
		out->raw_bytes = (uint64_t)archive_filter_bytes(w.a, 0);
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

const char *pmbench_cachearc_libarchive_version(void)
{
	return archive_version_details();
}

static int libarchive_version(struct pmbench_buf *out,
			      const struct pmbench_cachearc_compression *cs,
			      size_t nr)
{
	(void)cs;
	(void)nr;
	pmbench_buf_adds(out, pmbench_cachearc_libarchive_version());
	return 0;
}

static void libarchive_describe(struct pmbench_buf *save,
				struct pmbench_buf *restore,
				const struct pmbench_cachearc_compression *c)
{
	struct pmbench_buf name = PMBENCH_BUF_INIT;

	pmbench_cachearc_name(&name, c);
	pmbench_buf_addf(save,
			 "in process: libarchive writes a pax tar (%s) of the "
			 "files read with openat",
			 name.ptr);
	pmbench_buf_adds(restore, "in process: libarchive reads, pmbench "
				  "writes each entry with openat/mkdirat "
				  "relative to its folder's descriptor "
				  "(O_NOFOLLOW, O_EXCL)");
	pmbench_buf_release(&name);
}

static int libarchive_save(struct pmbench_cachearc_stats *out, uint64_t *ns,
			   const char *archive,
			   const struct pmbench_cachearc_job *job)
{
	uint64_t t0 = pmbench_now_ns();
	int ret = pmbench_cachearc_create(out, archive, job->maps, job->maps_nr,
					  job->comp);

	*ns = pmbench_now_ns() - t0;
	return ret;
}

static int libarchive_restore(struct pmbench_cachearc_stats *out, uint64_t *ns,
			      const char *archive,
			      const struct pmbench_cachearc_job *job)
{
	uint64_t t0 = pmbench_now_ns();
	int ret = pmbench_cachearc_extract(out, archive, job->maps,
					   job->maps_nr, job->dir);

	*ns = pmbench_now_ns() - t0;
	return ret;
}

const struct pmbench_cachearc_backend pmbench_cachearc_libarchive_backend = {
	.id = PMBENCH_CACHEARC_LIBARCHIVE,
	.name = "libarchive",
	.version = libarchive_version,
	.describe = libarchive_describe,
	.save = libarchive_save,
	.restore = libarchive_restore,
};
