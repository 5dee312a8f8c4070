/*
 * What a file system does after pmbench is done with a tree that would
 * slow the next timed run: ext4's delay before it reuses freed inodes,
 * and dirty pages still to be written out.
 *
 * syncfs() is a GNU extension in glibc's headers; common.h leaves the
 * feature-test macros alone when _GNU_SOURCE is already defined.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "pmbench/common.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"

/* ext2, ext3 and ext4 share the magic; the ext4 driver mounts all three. */
#define EXT4_SUPER_MAGIC 0xEF53

/*
 * The kernel name ("vda1", "dm-0") of the block device `dev` under `root`
 * into `out` (replaced), what /sys and jbd2 use: 0, or -1 when it has
 * none or is not mounted by the ext4 driver.
 */
static int ext4_device_name(struct pmbench_buf *out, const char *root,
			    dev_t dev)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	char link[PATH_MAX];
	const char *name;
	ssize_t n;
	int ret = -1;

	pmbench_buf_addf(&p, "%s/sys/dev/block/%u:%u", root, major(dev),
			 minor(dev));
	n = readlink(p.ptr, link, sizeof(link) - 1);
	if (n <= 0)
		goto done;
	link[n] = '\0';
	name = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	pmbench_buf_reset(&p);
	pmbench_buf_addf(&p, "%s/sys/fs/ext4/%s", root, name);
	if (!*name || !pmbench_fs_isdir(p.ptr))
		goto done;
	pmbench_buf_reset(out);
	pmbench_buf_adds(out, name);
	ret = 0;

done:
	pmbench_buf_release(&p);
	return ret;
}

/*
 * Whether the device `name` has a journal: each mounted journal is an
 * entry "<device>-<journal inode>" in /proc/fs/jbd2. Without jbd2 we
 * cannot tell, and say it has one.
 */
static int has_journal(const char *root, const char *name)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	size_t len = strlen(name);
	struct dirent *de;
	int found = 0;
	DIR *d;

	pmbench_buf_addf(&p, "%s/proc/fs/jbd2", root);
	d = opendir(p.ptr);
	pmbench_buf_release(&p);
	if (!d)
		return 1;
	while (!found) {
		de = pmbench_fs_readdir(d);
		if (!de)
			break;
		found = !strncmp(de->d_name, name, len) &&
			de->d_name[len] == '-';
	}
	closedir(d);
	return found;
}

unsigned pmbench_fs_inode_reuse_delay_at(const char *root,
					 unsigned long fs_type, dev_t dev,
					 struct pmbench_buf *why)
{
	struct pmbench_buf name = PMBENCH_BUF_INIT;
	unsigned delay = 0;

	if (fs_type != EXT4_SUPER_MAGIC || ext4_device_name(&name, root, dev) ||
	    has_journal(root, name.ptr))
		goto done;
	/*
	 * fs/ext4/ialloc.c: RECENTCY_MIN + RECENTCY_DIRTY. Creating files
	 * dirties the inode table blocks the deleted inodes share, so the
	 * longer window is the one a run meets.
	 */
	delay = 360;
	if (why)
		pmbench_buf_addf(why, "ext4 without a journal (%s)", name.ptr);
done:
	pmbench_buf_release(&name);
	return delay;
}

unsigned pmbench_fs_inode_reuse_delay(const char *path, struct pmbench_buf *why)
{
	const char *knob = getenv(PMBENCH_FS_REUSE_DELAY_ENV);
	struct statfs sf;
	struct stat st;
	uint64_t n;

	if (knob && *knob && !pmbench_parse_u64(&n, knob) && n <= 3600) {
		if (why && n)
			pmbench_buf_addf(why, "%s=%s",
					 PMBENCH_FS_REUSE_DELAY_ENV, knob);
		return (unsigned)n;
	}
	if (statfs(path, &sf) < 0 || stat(path, &st) < 0)
		return 0;
	return pmbench_fs_inode_reuse_delay_at("", (unsigned long)sf.f_type,
					       st.st_dev, why);
}

int pmbench_fs_settle(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return pmbench_error_set("cannot open '%s': %s", path,
					 strerror(errno));
	if (syncfs(fd) < 0)
		ret = pmbench_error_set("cannot sync the file system of '%s': "
					"%s",
					path, strerror(errno));
	close(fd);
	return ret;
}
