/*
 * What a result records of the machine itself (the CPU, its count, the
 * kernel, the memory, ...): pmbench_result_collect_sysinfo().
 */
#include "pmbench/common.h"

#include <sys/utsname.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/result.h"
#include "pmbench/strvec.h"

/*
 * The machine a result was measured on, as the environment entries of
 * pmbench_result_collect_sysinfo() (result.h): what uname(), /proc, /sys
 * and os-release tell without running a program.
 */

/* /proc/cpuinfo has a stanza per CPU; this covers machines with thousands. */
#define PROC_MAX_BYTES ((size_t)4 << 20)

/*
 * Find the first line of `text` that starts with `key` followed by
 * optional blanks and `sep`, and store the rest of it, trimmed, in `out`.
 * Returns 1 if found.
 */
static int find_field(struct pmbench_buf *out, const char *text,
		      const char *key, char sep)
{
	size_t klen = strlen(key);
	const char *line = text;

	while (line && *line) {
		const char *eol = strchr(line, '\n');
		const char *p = line + klen;

		if (!strncmp(line, key, klen)) {
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p == sep) {
				size_t n;

				p++;
				while (*p == ' ' || *p == '\t')
					p++;
				n = eol ? (size_t)(eol - p) : strlen(p);
				pmbench_buf_reset(out);
				pmbench_buf_add(out, p, n);
				pmbench_buf_rtrim(out);
				return 1;
			}
		}
		line = eol ? eol + 1 : NULL;
	}
	return 0;
}

/*
 * Read a small system file into `out` (replaced). A missing or unreadable
 * file only means one entry fewer, so callers ignore the error message.
 */
static int read_sysfile(struct pmbench_buf *out, const char *path)
{
	pmbench_buf_reset(out);
	return pmbench_fs_read(out, path, PROC_MAX_BYTES);
}

static void sysinfo_os_release(struct pmbench_result *r,
			       struct pmbench_buf *text,
			       struct pmbench_buf *val)
{
	const char *v;
	size_t n;

	if (read_sysfile(text, "/etc/os-release") < 0 &&
	    read_sysfile(text, "/usr/lib/os-release") < 0)
		return;
	if (!find_field(val, text->ptr, "PRETTY_NAME", '='))
		return;
	/* The value is a shell-style string, usually double-quoted. */
	v = val->ptr;
	n = val->len;
	if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
		v++;
		n -= 2;
	}
	if (!n)
		return;
	pmbench_buf_reset(text);
	pmbench_buf_add(text, v, n);
	pmbench_result_env_set(r, "os_release", text->ptr);
}

/* The CPU's model (/proc/cpuinfo) and how many are online. */
static void sysinfo_cpu(struct pmbench_result *r, struct pmbench_buf *text,
			struct pmbench_buf *val)
{
	long ncpu;

	if (!read_sysfile(text, "/proc/cpuinfo") &&
	    find_field(val, text->ptr, "model name", ':') && val->len)
		pmbench_result_env_set(r, "cpu_model", val->ptr);

	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu > 0) {
		pmbench_buf_reset(val);
		pmbench_buf_addf(val, "%ld", ncpu);
		pmbench_result_env_set(r, "cpu_count", val->ptr);
	}
}

/* The memory's total in KiB (/proc/meminfo's MemTotal). */
static void sysinfo_memory(struct pmbench_result *r, struct pmbench_buf *text,
			   struct pmbench_buf *val)
{
	if (!read_sysfile(text, "/proc/meminfo") &&
	    find_field(val, text->ptr, "MemTotal", ':')) {
		/* "16318412 kB": keep the number only. */
		size_t n = strspn(val->ptr, "0123456789");

		if (n) {
			pmbench_buf_setlen(val, n);
			pmbench_result_env_set(r, "mem_total_kib", val->ptr);
		}
	}
}

/* The load averages of /proc/loadavg, the three of them. */
static void sysinfo_loadavg(struct pmbench_result *r, struct pmbench_buf *text,
			    struct pmbench_buf *val)
{
	struct pmbench_strvec parts = PMBENCH_STRVEC_INIT;

	if (read_sysfile(text, "/proc/loadavg"))
		return;
	/* "0.52 0.58 0.59 1/389 12345": the three averages. */
	pmbench_buf_rtrim(text);
	pmbench_strvec_split(&parts, text->ptr, ' ');
	if (parts.nr >= 3) {
		pmbench_buf_reset(val);
		pmbench_buf_addf(val, "%s %s %s", parts.v[0], parts.v[1],
				 parts.v[2]);
		pmbench_result_env_set(r, "loadavg", val->ptr);
	}
	pmbench_strvec_release(&parts);
}

void pmbench_result_collect_sysinfo(struct pmbench_result *r)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	struct pmbench_buf val = PMBENCH_BUF_INIT;
	struct utsname u;
	int have_uname;

	have_uname = uname(&u) == 0;
	if (have_uname)
		pmbench_result_env_set(r, "os", u.sysname);
	sysinfo_os_release(r, &text, &val);
	if (have_uname) {
		pmbench_result_env_set(r, "kernel", u.release);
		pmbench_result_env_set(r, "arch", u.machine);
	}
	sysinfo_cpu(r, &text, &val);
	sysinfo_memory(r, &text, &val);
	sysinfo_loadavg(r, &text, &val);
	if (!read_sysfile(&text, "/sys/devices/system/cpu/cpu0/cpufreq/"
				 "scaling_governor")) {
		pmbench_buf_rtrim(&text);
		if (text.len)
			pmbench_result_env_set(r, "cpu_governor", text.ptr);
	}
	pmbench_buf_release(&text);
	pmbench_buf_release(&val);
}
