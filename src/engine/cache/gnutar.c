/*
 * The GNU tar backend: tar (and zstdmt/unzstd) run as GitHub's
 * actions/cache runs them on Linux, spawned through proc.c. A restore
 * has libarchive read and check the whole archive first (extract.c), so
 * a hostile archive never reaches tar.
 */
#include "pmbench/common.h"

#include <unistd.h>

#include "pmbench/cachearc.h"
#include "pmbench/fs.h"
#include "pmbench/proc.h"
#include "pmbench/strvec.h"

#include "backend.h"

/*
 * The compression arguments actions/cache gives GNU tar (its tar.ts on
 * Linux): zstd through "zstdmt" when saving and "unzstd" when restoring
 * (@actions/cache picks zstd without --long=30 whenever zstd is
 * installed), gzip through -z. Levels other than those programs'
 * defaults (zstd 3, gzip 6) are passed as an option to the same program.
 */
static void tar_compression_args(struct pmbench_strvec *out,
				 const struct pmbench_cachearc_compression *c,
				 int create)
{
	switch (c->filter) {
	case PMBENCH_CACHEARC_GZIP:
		if (!create || !c->level || c->level == 6) {
			pmbench_strvec_push(out, "-z");
		} else {
			pmbench_strvec_push(out, "--use-compress-program");
			pmbench_strvec_pushf(out, "gzip -%d", c->level);
		}
		break;
	case PMBENCH_CACHEARC_ZSTD:
		pmbench_strvec_push(out, "--use-compress-program");
		if (!create)
			pmbench_strvec_push(out, "unzstd");
		else if (!c->level || c->level == 3)
			pmbench_strvec_push(out, "zstdmt");
		else
			pmbench_strvec_pushf(out, "zstdmt -%d", c->level);
		break;
	default:
		break;
	}
}

void pmbench_cachearc_tar_create_args(
	struct pmbench_strvec *out, const char *archive, const char *dir,
	const char *manifest, const struct pmbench_cachearc_compression *c)
{
	const char *const args[] = { "tar",	     "--posix",	  "-cf",
				     archive,	     "--exclude", archive,
				     "-P",	     "-C",	  dir,
				     "--files-from", manifest,	  NULL };

	pmbench_strvec_pushv(out, args);
	tar_compression_args(out, c, 1);
}

void pmbench_cachearc_tar_extract_args(
	struct pmbench_strvec *out, const char *archive, const char *dir,
	const struct pmbench_cachearc_compression *c)
{
	const char *const args[] = { "tar", "-xf", archive, "-P",
				     "-C",  dir,   NULL };

	pmbench_strvec_pushv(out, args);
	tar_compression_args(out, c, 0);
	/*
	 * GNU tar's defaults for a user other than root, which GitHub's
	 * runners are: no chown of every entry, the umask applied and no
	 * set-user-ID bits. Written out, so pmbench running as root
	 * measures the same work and restores nothing more.
	 */
	pmbench_strvec_push(out, "--no-same-owner");
	pmbench_strvec_push(out, "--no-same-permissions");
}

/* Run GNU tar; its wall time (fork to reap) into `*ns`. */
static int run_tar(uint64_t *ns, const struct pmbench_strvec *argv,
		   const char *dir, const char *archive)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf how = PMBENCH_BUF_INIT, tail = PMBENCH_BUF_INIT;
	int ret;

	for (size_t i = 0; i < argv->nr; i++)
		pmbench_strvec_push(&c.args, argv->v[i]);
	c.dir = dir;
	ret = pmbench_child_run(&c);
	*ns = c.result.wall_ns;
	if (!ret && (c.result.exit_code != 0 || c.result.signal)) {
		pmbench_child_describe(&c, &how);
		pmbench_child_tail_lines(&c, 2, &tail);
		for (char *p = tail.ptr; *p; p++)
			if (*p == '\n')
				*p = ' ';
		ret = pmbench_error_set("GNU tar failed on '%s' (%s)%s%s",
					archive, how.ptr, tail.len ? ": " : "",
					tail.ptr);
	}
	pmbench_child_release(&c);
	pmbench_buf_release(&how);
	pmbench_buf_release(&tail);
	return ret;
}

/* The first line a program prints for `arg`, or an error. */
static int first_line(struct pmbench_buf *out, const char *prog,
		      const char *arg)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	int ret;

	pmbench_strvec_push(&c.args, prog);
	pmbench_strvec_push(&c.args, arg);
	c.timeout_ns = 30ull * 1000000000ull;
	ret = pmbench_child_run(&c);
	if (!ret && (c.result.exit_code != 0 || c.result.spawn_errno))
		ret = pmbench_error_setc(PMBENCH_ENOTFOUND,
					 "'%s %s' did not run; install it "
					 "(Debian: tar, zstd)",
					 prog, arg);
	if (!ret) {
		size_t n = strcspn(c.tail.ptr, "\n");

		pmbench_buf_add(out, c.tail.ptr, n);
	}
	pmbench_child_release(&c);
	return ret;
}

int pmbench_cachearc_tar_version(struct pmbench_buf *out,
				 const struct pmbench_cachearc_compression *c)
{
	struct pmbench_buf line = PMBENCH_BUF_INIT, path = PMBENCH_BUF_INIT;
	int ret = first_line(&line, "tar", "--version");

	if (!ret && !strstr(line.ptr, "GNU tar"))
		ret = pmbench_error_setc(PMBENCH_ENOTFOUND,
					 "the tar on PATH is not GNU tar "
					 "('%s'); install GNU tar",
					 line.ptr);
	if (!ret)
		pmbench_buf_adds(out, line.ptr);
	if (!ret && c->filter == PMBENCH_CACHEARC_ZSTD) {
		const char *path_env = getenv("PATH");

		pmbench_buf_reset(&line);
		ret = first_line(&line, "zstd", "--version");
		if (!ret &&
		    (pmbench_proc_which(&path, "zstdmt", path_env) < 0 ||
		     pmbench_proc_which(&path, "unzstd", path_env) < 0))
			ret = pmbench_error_setc(PMBENCH_ENOTFOUND,
						 "zstdmt or unzstd not found "
						 "on PATH; install zstd");
		if (!ret)
			pmbench_buf_addf(out, "; %s", line.ptr);
	}
	pmbench_buf_release(&line);
	pmbench_buf_release(&path);
	return ret;
}

/*
 * The manifest GNU tar reads the paths from, as actions/cache writes it:
 * one a line. A path with a newline or one tar would take for an option
 * is refused.
 */
static int write_manifest(const char *manifest,
			  const struct pmbench_strvec *paths)
{
	struct pmbench_buf list = PMBENCH_BUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < paths->nr; i++) {
		if (strchr(paths->v[i], '\n') || paths->v[i][0] == '-') {
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "cannot list '%s' for GNU tar",
						 paths->v[i]);
			goto done;
		}
		pmbench_buf_addf(&list, "%s\n", paths->v[i]);
	}
	ret = pmbench_fs_write_atomic(manifest, list.ptr, list.len);
done:
	pmbench_buf_release(&list);
	return ret;
}

int pmbench_cachearc_tar_create(struct pmbench_cachearc_stats *out,
				const char *archive, const char *dir,
				const struct pmbench_strvec *paths,
				const struct pmbench_cachearc_compression *c)
{
	struct pmbench_buf tmp = PMBENCH_BUF_INIT;
	struct pmbench_buf manifest = PMBENCH_BUF_INIT;
	struct pmbench_buf folder = PMBENCH_BUF_INIT;
	struct pmbench_strvec argv = PMBENCH_STRVEC_INIT;
	const char *slash = strrchr(archive, '/');
	uint64_t t0 = pmbench_now_ns(), ns = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	pmbench_buf_addf(&tmp, "%s.tmp.%ld", archive, (long)getpid());
	pmbench_buf_addf(&manifest, "%s.manifest", tmp.ptr);
	if (slash)
		pmbench_buf_add(&folder, archive, (size_t)(slash - archive));
	else
		pmbench_buf_adds(&folder, ".");
	ret = write_manifest(manifest.ptr, paths);
	if (ret)
		goto done;
	pmbench_cachearc_tar_create_args(&argv, tmp.ptr, dir, manifest.ptr, c);
	ret = run_tar(&ns, &argv, folder.ptr, archive);
	unlink(manifest.ptr);
	if (!ret && rename(tmp.ptr, archive) < 0)
		ret = pmbench_error_set("cannot rename '%s' to '%s': %s",
					tmp.ptr, archive, strerror(errno));
	/* Writing the manifest belongs to the save, as in actions/cache. */
	out->tar_ns = pmbench_now_ns() - t0;
	if (!ret)
		ret = pmbench_cachearc_scan(out, archive);
done:
	if (ret)
		unlink(tmp.ptr);
	pmbench_buf_release(&tmp);
	pmbench_buf_release(&manifest);
	pmbench_buf_release(&folder);
	pmbench_strvec_release(&argv);
	return ret;
}

int pmbench_cachearc_tar_extract(struct pmbench_cachearc_stats *out,
				 const char *archive,
				 const struct pmbench_cachearc_map *maps,
				 size_t maps_nr, const char *dir,
				 const struct pmbench_cachearc_compression *c)
{
	struct pmbench_cachearc_stats local;
	struct pmbench_strvec argv = PMBENCH_STRVEC_INIT;
	struct pmbench_buf real = PMBENCH_BUF_INIT;
	uint64_t t0 = pmbench_now_ns();
	int ret;

	if (!out)
		out = &local;
	memset(out, 0, sizeof(*out));
	/* libarchive reads it all first: a refused archive writes nothing. */
	ret = pmbench_cachearc_read(out, archive, maps, maps_nr, dir, 1, 0);
	out->check_ns = pmbench_now_ns() - t0;
	if (!ret)
		ret = pmbench_fs_realpath(&real, dir);
	if (!ret) {
		pmbench_cachearc_tar_extract_args(&argv, archive, real.ptr, c);
		ret = run_tar(&out->tar_ns, &argv, real.ptr, archive);
	}
	pmbench_strvec_release(&argv);
	pmbench_buf_release(&real);
	return ret;
}

/* The longest tar (and zstd) version line of the compressions `cs`. */
static int gnutar_version(struct pmbench_buf *out,
			  const struct pmbench_cachearc_compression *cs,
			  size_t nr)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < nr && !ret; i++) {
		struct pmbench_buf v = PMBENCH_BUF_INIT;

		ret = pmbench_cachearc_tar_version(&v, &cs[i]);
		if (!ret && v.len > b.len) {
			pmbench_buf_reset(&b);
			pmbench_buf_adds(&b, v.ptr);
		}
		pmbench_buf_release(&v);
	}
	if (!ret)
		pmbench_buf_adds(out, b.ptr);
	pmbench_buf_release(&b);
	return ret;
}

static void gnutar_describe(struct pmbench_buf *save,
			    struct pmbench_buf *restore,
			    const struct pmbench_cachearc_compression *c)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;

	pmbench_cachearc_tar_create_args(&v, "<archive>", "<cache folder>",
					 "<manifest>", c);
	pmbench_strvec_join(save, &v, " ");
	pmbench_strvec_release(&v);
	pmbench_cachearc_tar_extract_args(&v, "<archive>", "<cache folder>", c);
	pmbench_strvec_join(restore, &v, " ");
	pmbench_buf_adds(restore, " (after libarchive reads the whole archive "
				  "and refuses it if hostile; not timed)");
	pmbench_strvec_release(&v);
}

/* Each map's tree listed by its name, relative to the job's folder. */
static int gnutar_save(struct pmbench_cachearc_stats *out, uint64_t *ns,
		       const char *archive,
		       const struct pmbench_cachearc_job *job)
{
	struct pmbench_strvec paths = PMBENCH_STRVEC_INIT;
	int ret;

	for (size_t i = 0; i < job->maps_nr; i++)
		pmbench_strvec_push(&paths, job->maps[i].name);
	ret = pmbench_cachearc_tar_create(out, archive, job->dir, &paths,
					  job->comp);
	*ns = out->tar_ns;
	pmbench_strvec_release(&paths);
	return ret;
}

static int gnutar_restore(struct pmbench_cachearc_stats *out, uint64_t *ns,
			  const char *archive,
			  const struct pmbench_cachearc_job *job)
{
	int ret = pmbench_cachearc_tar_extract(
		out, archive, job->maps, job->maps_nr, job->dir, job->comp);

	*ns = out->tar_ns;
	return ret;
}

const struct pmbench_cachearc_backend pmbench_cachearc_gnutar_backend = {
	.id = PMBENCH_CACHEARC_GNU_TAR,
	.name = "gnu-tar",
	.flags = PMBENCH_CACHEARC_CHECKS_FIRST,
	.version = gnutar_version,
	.describe = gnutar_describe,
	.save = gnutar_save,
	.restore = gnutar_restore,
};
