/*
 * The room on a file system and where it is mounted: free space, when it
 * counts as full, and a mount point to name in a message.
 */
#include "pmbench/common.h"

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/strvec.h"

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

/* Undo mountinfo's octal escapes ("\040" for a space) in place. */
static void unescape_octal(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/*
 * One line of /proc/self/mountinfo: "36 35 98:0 /mnt1 /mnt/parent rw
 * ... - ext3 /dev/root rw"; the mount point and type into `point` and
 * `type` if its device is `dev`. Returns 1 then, else 0.
 */
static int mount_line(struct pmbench_buf *point, struct pmbench_buf *type,
		      char *line, dev_t dev)
{
	struct pmbench_strvec f = PMBENCH_STRVEC_INIT;
	unsigned maj, min;
	size_t dash = 0;
	int ret = 0;

	pmbench_strvec_split(&f, line, ' ');
	for (size_t i = 6; i < f.nr && !dash; i++)
		if (!strcmp(f.v[i], "-"))
			dash = i;
	if (f.nr < 5 || !dash || dash + 1 >= f.nr ||
	    sscanf(f.v[2], "%u:%u", &maj, &min) != 2 ||
	    makedev(maj, min) != dev)
		goto done;
	unescape_octal(f.v[4]);
	pmbench_buf_reset(point);
	pmbench_buf_adds(point, f.v[4]);
	pmbench_buf_reset(type);
	pmbench_buf_adds(type, f.v[dash + 1]);
	ret = 1;
done:
	pmbench_strvec_release(&f);
	return ret;
}

void pmbench_fs_describe_mount(struct pmbench_buf *out, const char *path)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT, best = PMBENCH_BUF_INIT;
	struct pmbench_buf point = PMBENCH_BUF_INIT, type = PMBENCH_BUF_INIT;
	struct pmbench_buf kind = PMBENCH_BUF_INIT;
	char *real = realpath(path, NULL);
	struct stat st;
	char *p, *nl;

	if (!real || stat(real, &st) < 0 ||
	    pmbench_fs_read(&text, "/proc/self/mountinfo", 1 << 22) < 0) {
		pmbench_error_clear();
		goto done;
	}
	/* The longest mount point of that device above the path. */
	for (p = text.ptr; (nl = strchr(p, '\n')); p = nl + 1) {
		size_t n;

		*nl = '\0';
		if (!mount_line(&point, &type, p, st.st_dev))
			continue;
		n = point.len;
		if (strncmp(real, point.ptr, n) ||
		    (n > 1 && real[n] && real[n] != '/') || n < best.len)
			continue;
		pmbench_buf_reset(&best);
		pmbench_buf_adds(&best, point.ptr);
		pmbench_buf_reset(&kind);
		pmbench_buf_adds(&kind, type.ptr);
	}
done:
	if (best.len)
		pmbench_buf_addf(out, "%s (%s)", best.ptr, kind.ptr);
	else
		pmbench_buf_adds(out, path);
	free(real);
	pmbench_buf_release(&text);
	pmbench_buf_release(&best);
	pmbench_buf_release(&point);
	pmbench_buf_release(&type);
	pmbench_buf_release(&kind);
}
