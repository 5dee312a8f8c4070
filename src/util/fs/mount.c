/*
 * The file system under a path, as /proc/self/mountinfo says: its type,
 * mount point, source and options, and for ext3 and ext4 whether it
 * keeps a journal (/proc/fs/jbd2). What a result records about the work
 * folder, and a mount point to name in a message.
 */
#include "pmbench/common.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/strvec.h"

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

static void set(struct pmbench_buf *b, const char *s)
{
	pmbench_buf_reset(b);
	pmbench_buf_adds(b, s);
}

/*
 * One line of /proc/self/mountinfo: "36 35 98:0 /mnt1 /mnt/parent rw
 * ... - ext3 /dev/root rw,errors=continue"; into `out` if its device is
 * `dev`. Returns 1 then, else 0.
 */
static int mount_line(struct pmbench_fs_mount *out, char *line, dev_t dev)
{
	struct pmbench_strvec f = PMBENCH_STRVEC_INIT;
	unsigned maj, min;
	size_t dash = 0;
	int ret = 0;

	pmbench_strvec_split(&f, line, ' ');
	for (size_t i = 6; i < f.nr && !dash; i++)
		if (!strcmp(f.v[i], "-"))
			dash = i;
	if (f.nr < 6 || !dash || dash + 2 >= f.nr ||
	    sscanf(f.v[2], "%u:%u", &maj, &min) != 2 ||
	    makedev(maj, min) != dev)
		goto done;
	unescape_octal(f.v[4]);
	unescape_octal(f.v[dash + 2]);
	set(&out->point, f.v[4]);
	set(&out->type, f.v[dash + 1]);
	set(&out->source, f.v[dash + 2]);
	set(&out->options, f.v[5]);
	if (dash + 3 < f.nr)
		pmbench_buf_addf(&out->options, ",%s", f.v[dash + 3]);
	ret = 1;
done:
	pmbench_strvec_release(&f);
	return ret;
}

/* ext3 and ext4 keep their journal's state in /proc/fs/jbd2/<dev>-8. */
static int journal_of(const struct pmbench_fs_mount *m)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	char *real;
	const char *name;
	int ret = -1;

	if (strcmp(m->type.ptr, "ext4") && strcmp(m->type.ptr, "ext3"))
		return -1;
	real = realpath(m->source.ptr, NULL);
	name = strrchr(real ? real : m->source.ptr, '/');
	name = name ? name + 1 : m->source.ptr;
	pmbench_buf_addf(&p, "/proc/fs/jbd2/%s-8", name);
	if (pmbench_fs_exists(p.ptr)) {
		ret = 1;
	} else {
		pmbench_buf_reset(&p);
		pmbench_buf_addf(&p, "/proc/fs/ext4/%s", name);
		if (pmbench_fs_exists(p.ptr))
			ret = 0;
	}
	free(real);
	pmbench_buf_release(&p);
	return ret;
}

void pmbench_fs_mount_release(struct pmbench_fs_mount *m)
{
	pmbench_buf_release(&m->type);
	pmbench_buf_release(&m->point);
	pmbench_buf_release(&m->source);
	pmbench_buf_release(&m->options);
	m->journal = -1;
}

int pmbench_fs_mount(struct pmbench_fs_mount *out, const char *path)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	struct pmbench_fs_mount m = PMBENCH_FS_MOUNT_INIT;
	char *real = realpath(path, NULL);
	struct stat st;
	char *p, *nl;
	int ret = PMBENCH_ENOTFOUND;

	if (!real || stat(real, &st) < 0 ||
	    pmbench_fs_read(&text, "/proc/self/mountinfo", 1 << 22) < 0) {
		pmbench_error_clear();
		goto done;
	}
	/* The longest mount point of that device above the path. */
	for (p = text.ptr; (nl = strchr(p, '\n')); p = nl + 1) {
		size_t n;

		*nl = '\0';
		if (!mount_line(&m, p, st.st_dev))
			continue;
		n = m.point.len;
		if (strncmp(real, m.point.ptr, n) ||
		    (n > 1 && real[n] && real[n] != '/') ||
		    (ret == 0 && n < out->point.len))
			continue;
		set(&out->type, m.type.ptr);
		set(&out->point, m.point.ptr);
		set(&out->source, m.source.ptr);
		set(&out->options, m.options.ptr);
		ret = 0;
	}
	if (ret == 0)
		out->journal = journal_of(out);
done:
	free(real);
	pmbench_fs_mount_release(&m);
	pmbench_buf_release(&text);
	return ret;
}

void pmbench_fs_mount_describe(struct pmbench_buf *out,
			       const struct pmbench_fs_mount *m)
{
	pmbench_buf_adds(out, m->type.ptr);
	if (m->journal >= 0)
		pmbench_buf_adds(out,
				 m->journal ? " (journal)" : " (no journal)");
	pmbench_buf_addf(out, " at %s from %s; %s", m->point.ptr, m->source.ptr,
			 m->options.ptr);
}

void pmbench_fs_describe_mount(struct pmbench_buf *out, const char *path)
{
	struct pmbench_fs_mount m = PMBENCH_FS_MOUNT_INIT;

	if (pmbench_fs_mount(&m, path) == 0)
		pmbench_buf_addf(out, "%s (%s)", m.point.ptr, m.type.ptr);
	else
		pmbench_buf_adds(out, path);
	pmbench_fs_mount_release(&m);
}
