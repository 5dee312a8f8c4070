/*
 * The room on a file system: free space, and when it counts as full.
 * Where it is mounted, and how, is mount.c's.
 */
#include "pmbench/common.h"

#include <sys/stat.h>
#include <sys/statvfs.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"

int pmbench_fs_space(struct pmbench_fs_space *out, const char *path)
{
	struct statvfs sv;

	memset(out, 0, sizeof(*out));
	if (statvfs(path, &sv) < 0)
		return pmbench_error_set("cannot tell the free space of '%s': "
					 "%s",
					 path, strerror(errno));
	out->avail_bytes = (uint64_t)sv.f_bavail * sv.f_frsize;
	out->total_bytes = (uint64_t)sv.f_blocks * sv.f_frsize;
	return 0;
}

int pmbench_fs_space_full(const struct pmbench_fs_space *sp)
{
	uint64_t floor = (uint64_t)1 << 20;

	/* A small file system: a 20 MB tmpfs is full below 200 KB. */
	if (sp->total_bytes / 100 < floor)
		floor = sp->total_bytes / 100;
	return sp->avail_bytes < floor;
}

int pmbench_fs_full(struct pmbench_buf *why, const char *path)
{
	struct pmbench_fs_space sp;

	if (!path || pmbench_fs_space(&sp, path) < 0) {
		pmbench_error_clear();
		return 0;
	}
	if (!pmbench_fs_space_full(&sp))
		return 0;
	pmbench_buf_reset(why);
	pmbench_buf_addf(why, "disk full: %.1f MB free on ",
			 (double)sp.avail_bytes / 1e6);
	pmbench_fs_describe_mount(why, path);
	return 1;
}
