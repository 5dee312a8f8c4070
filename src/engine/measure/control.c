/*
 * The drift control: the same piece of pmbench's own work every round
 * (copy a fixed tree of small files, read the copy back, a fixed CPU
 * loop), so that a change in its time is the machine's, not a PM's.
 */
#include "pmbench/common.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "pmbench/buf.h"
#include "pmbench/control.h"
#include "pmbench/ctx.h"
#include "pmbench/fs.h"
#include "pmbench/workdir.h"
#include "pmbench/result.h"

/* 40 folders of 50 files: a small package's worth of entries each. */
#define DIRS	  40
#define PER_DIR	  (PMBENCH_CONTROL_FILES / DIRS)
#define CPU_STEPS 20000000ull

/* Bump the name when the tree changes, so that an old one is not used. */
#define TREE "tree-v1"

int pmbench_control_is(const char *pm)
{
	return pm && !strcmp(pm, PMBENCH_CONTROL_PM);
}

int pmbench_control_enabled(int asked)
{
	const char *off = getenv(PMBENCH_CONTROL_OFF_ENV);

	return asked && !(off && *off && strcmp(off, "0"));
}

/* File j of folder d: 64 to 1,087 bytes of fixed text. */
static size_t file_size(size_t d, size_t j)
{
	return 64 + (d * 131 + j * 37) % 1024;
}

static void file_path(struct pmbench_buf *out, const char *root, size_t d,
		      size_t j)
{
	pmbench_buf_reset(out);
	pmbench_buf_addf(out, "%s/d%02zu/f%02zu.js", root, d, j);
}

/*
 * One file, without fsync: the tree is made under a temporary name and
 * renamed when whole, and 2,000 fsyncs would cost seconds.
 */
static int put(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t done = 0;

	if (fd < 0)
		return pmbench_error_set("cannot create '%s': %s", path,
					 strerror(errno));
	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			int e = errno;

			close(fd);
			return pmbench_error_set("cannot write '%s': %s", path,
						 strerror(e));
		}
		done += (size_t)w;
	}
	if (close(fd) < 0)
		return pmbench_error_set("cannot write '%s': %s", path,
					 strerror(errno));
	return 0;
}

/* Make the tree at `root` (which must not exist). */
static int make_tree(const char *root)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	int ret = 0;

	for (size_t d = 0; d < DIRS && !ret; d++) {
		pmbench_buf_reset(&path);
		pmbench_buf_addf(&path, "%s/d%02zu", root, d);
		ret = pmbench_fs_mkdirp(path.ptr, 0755);
		for (size_t j = 0; j < PER_DIR && !ret; j++) {
			size_t n = file_size(d, j);

			pmbench_buf_reset(&text);
			while (text.len < n)
				pmbench_buf_addf(&text, "/* %zu %zu */\n", d,
						 j);
			file_path(&path, root, d, j);
			ret = put(path.ptr, text.ptr, n);
		}
	}
	pmbench_buf_release(&path);
	pmbench_buf_release(&text);
	return ret;
}

/* The tree under `dir`, made once (to a temporary name, then renamed). */
static int ensure_tree(struct pmbench_buf *out, const char *dir)
{
	struct pmbench_buf tmp = PMBENCH_BUF_INIT;
	int ret = 0;

	pmbench_buf_addf(out, "%s/" TREE, dir);
	if (pmbench_fs_isdir(out->ptr))
		goto done;
	pmbench_buf_addf(&tmp, "%s/" TREE ".tmp", dir);
	if (pmbench_fs_exists(tmp.ptr))
		pmbench_fs_rmtree(tmp.ptr);
	ret = make_tree(tmp.ptr);
	if (!ret && rename(tmp.ptr, out->ptr) < 0)
		ret = pmbench_error_set("cannot rename '%s': %s", tmp.ptr,
					strerror(errno));
	if (ret < 0)
		pmbench_fs_rmtree(tmp.ptr);
done:
	pmbench_buf_release(&tmp);
	return ret;
}

/* Read every file of the copy back; each must have its size. */
static int read_back(const char *root)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	char buf[2048];
	int ret = 0;

	for (size_t d = 0; d < DIRS && !ret; d++) {
		for (size_t j = 0; j < PER_DIR && !ret; j++) {
			size_t got = 0;
			ssize_t r;
			int fd;

			file_path(&path, root, d, j);
			fd = open(path.ptr, O_RDONLY | O_CLOEXEC);
			if (fd < 0) {
				ret = pmbench_error_set("cannot open '%s': %s",
							path.ptr,
							strerror(errno));
				break;
			}
			do {
				r = read(fd, buf, sizeof(buf));
				if (r > 0)
					got += (size_t)r;
			} while (r > 0 || (r < 0 && errno == EINTR));
			close(fd);
			if (got != file_size(d, j))
				ret = pmbench_error_set("'%s' read back %zu "
							"bytes, not %zu",
							path.ptr, got,
							file_size(d, j));
		}
	}
	pmbench_buf_release(&path);
	return ret;
}

/* A fixed amount of integer work the compiler cannot drop. */
static uint64_t cpu_loop(uint64_t steps)
{
	volatile uint64_t sink;
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (uint64_t i = 0; i < steps; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	sink = x;
	return sink;
}

/*
 * The test knob: round `round` of the control takes at least (1 + PCT /
 * 100 * round) times the work of the first round this process timed, by
 * sleeping up to that. One reference for every round, so a slow round
 * on a loaded machine adds to the drift instead of scaling its own
 * target (a noisy round 0 and 1 once hid a 3x drift in CI). Never set
 * outside tests.
 */
static void forced_drift(uint64_t work_ns, unsigned round)
{
	static uint64_t ref_ns;
	const char *v = getenv(PMBENCH_CONTROL_DRIFT_ENV);
	uint64_t pct;
	double target;

	if (!v || !*v)
		return;
	if (pmbench_parse_u64(&pct, v) < 0) {
		pmbench_error_clear();
		return;
	}
	if (!ref_ns)
		ref_ns = work_ns ? work_ns : 1;
	target = (double)ref_ns * (1 + (double)pct / 100 * (double)round);
	if (target > (double)work_ns)
		pmbench_sleep_ns((uint64_t)(target - (double)work_ns));
}

static double unix_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void failed(struct pmbench_sample *s, const char *why)
{
	s->ok = 0;
	s->exit_code = -1;
	s->failure = pmbench_xstrdup(why);
}

/*
 * The test knob: the figure this call (the process's `n`th, of the
 * control in a round or before timing) reports, or < 0 to report what
 * it measured.
 */
static double fake_files_s(void)
{
	static unsigned calls;
	const char *v = getenv(PMBENCH_CONTROL_FILES_ENV), *p = v;
	unsigned n = calls++;
	double last = -1;

	for (unsigned i = 0; p && *p; i++) {
		char *end;
		double x = strtod(p, &end);

		if (end == p || !(x > 0))
			return -1;
		last = x;
		if (i == n)
			break;
		p = *end == ',' ? end + 1 : end;
	}
	return last;
}

int pmbench_control_run(const struct pmbench_ctx *ctx, const char *work_dir,
			struct pmbench_sample *s)
{
	struct pmbench_buf dir = PMBENCH_BUF_INIT, tree = PMBENCH_BUF_INIT;
	struct pmbench_buf copy = PMBENCH_BUF_INIT, trash = PMBENCH_BUF_INIT;
	uint64_t t0, t1, t2, cpu_ns;
	double fake;
	int ret = 0;

	pmbench_buf_addf(&dir, "%s/control", work_dir);
	pmbench_buf_addf(&copy, "%s/copy", dir.ptr);
	pmbench_workdir_trash(&trash, work_dir);
	if (ensure_tree(&tree, dir.ptr) < 0 ||
	    pmbench_fs_discard(copy.ptr, trash.ptr) < 0) {
		failed(s, pmbench_error_last());
		goto done;
	}
	if (pmbench_ctx_cancelled(ctx)) {
		pmbench_sample_stopped(s, ctx);
		ret = PMBENCH_EINTERRUPTED;
		goto done;
	}
	s->started = unix_now();
	t0 = pmbench_now_ns();
	if (pmbench_fs_copytree(tree.ptr, copy.ptr, 0, NULL) < 0 ||
	    read_back(copy.ptr) < 0) {
		failed(s, pmbench_error_last());
		goto done;
	}
	t1 = pmbench_now_ns();
	cpu_loop(CPU_STEPS);
	t2 = pmbench_now_ns();
	cpu_ns = t2 - t1;
	forced_drift(t2 - t0, s->round);
	t2 = pmbench_now_ns();
	s->ok = 1;
	s->wall_ns = t2 - t0;
	fake = fake_files_s();
	pmbench_sample_metric_set(s, "control_files_s",
				  fake > 0 ? fake : (double)(t1 - t0) / 1e9);
	pmbench_sample_metric_set(s, "control_cpu_s", (double)cpu_ns / 1e9);
done:
	/* The copy is the next round's to make again: leave no clutter. */
	if (pmbench_fs_discard(copy.ptr, trash.ptr) < 0)
		pmbench_error_clear();
	pmbench_buf_release(&trash);
	pmbench_buf_release(&dir);
	pmbench_buf_release(&tree);
	pmbench_buf_release(&copy);
	return ret;
}

/* ---- The reference and the control before timing (control.h). ---- */

#define REF_NAME "reference"
#define REF_HEAD "pmbench control reference 1"

/* What a reference was measured on: machine, device, file system. */
static void ref_key(struct pmbench_buf *out, const char *work_dir)
{
	struct pmbench_buf id = PMBENCH_BUF_INIT;
	struct statfs sf;
	struct stat st;

	if (pmbench_fs_read(&id, "/etc/machine-id", 256) < 0) {
		pmbench_error_clear();
		pmbench_buf_reset(&id);
	}
	pmbench_buf_rtrim(&id);
	pmbench_buf_reset(out);
	pmbench_buf_addf(out, "machine %s", id.len ? id.ptr : "unknown");
	if (!stat(work_dir, &st) && !statfs(work_dir, &sf))
		pmbench_buf_addf(out, " dev %u:%u fs %lx", major(st.st_dev),
				 minor(st.st_dev), (unsigned long)sf.f_type);
	pmbench_buf_release(&id);
}

static void ref_path(struct pmbench_buf *out, const char *work_dir)
{
	pmbench_buf_reset(out);
	pmbench_buf_addf(out, "%s/control/" REF_NAME, work_dir);
}

void pmbench_control_ref_release(struct pmbench_control_ref *ref)
{
	free(ref->key);
	memset(ref, 0, sizeof(*ref));
}

/* The "quiet" line's seconds into `ref`; a value that is none ends it. */
static void ref_parse_quiet(struct pmbench_control_ref *ref, const char *p)
{
	while (*p && ref->nr < PMBENCH_CONTROL_REF_KEEP) {
		char *end;
		double v = strtod(p, &end);

		if (end == p || !(v > 0) || v > 3600)
			break;
		ref->quiet[ref->nr++] = v;
		p = end;
	}
}

void pmbench_control_ref_load(struct pmbench_control_ref *out,
			      const char *work_dir)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	struct pmbench_buf key = PMBENCH_BUF_INIT;
	const char *line, *nl;

	pmbench_control_ref_release(out);
	ref_key(&key, work_dir);
	out->key = pmbench_buf_detach(&key);
	ref_path(&path, work_dir);
	if (pmbench_fs_read(&text, path.ptr, 4096) < 0) {
		pmbench_error_clear();
		goto done;
	}
	line = text.ptr;
	nl = strchr(line, '\n');
	if (!nl || strncmp(line, REF_HEAD "\n", (size_t)(nl - line) + 1))
		goto done;
	line = nl + 1;
	nl = strchr(line, '\n');
	if (!nl || strncmp(line, "key ", 4) ||
	    (size_t)(nl - line - 4) != strlen(out->key) ||
	    strncmp(line + 4, out->key, strlen(out->key)))
		goto done; /* another machine's or file system's */
	line = nl + 1;
	if (!strncmp(line, "quiet ", 6))
		ref_parse_quiet(out, line + 6);
done:
	pmbench_buf_release(&path);
	pmbench_buf_release(&text);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double pmbench_control_ref_value(const struct pmbench_control_ref *ref)
{
	double v[PMBENCH_CONTROL_REF_KEEP];

	if (!ref->nr)
		return 0;
	memcpy(v, ref->quiet, ref->nr * sizeof(v[0]));
	qsort(v, ref->nr, sizeof(v[0]), cmp_double);
	return v[(ref->nr - 1) / 4];
}

void pmbench_control_ref_add(struct pmbench_control_ref *ref, double files_s)
{
	if (!(files_s > 0))
		return;
	if (ref->nr == PMBENCH_CONTROL_REF_KEEP) {
		memmove(ref->quiet, ref->quiet + 1,
			(ref->nr - 1) * sizeof(ref->quiet[0]));
		ref->nr--;
	}
	ref->quiet[ref->nr++] = files_s;
}

int pmbench_control_ref_save(const struct pmbench_control_ref *ref,
			     const char *work_dir)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_addf(&text, REF_HEAD "\nkey %s\nquiet",
			 ref->key ? ref->key : "");
	for (size_t i = 0; i < ref->nr; i++)
		pmbench_buf_addf(&text, " %.6f", ref->quiet[i]);
	pmbench_buf_addch(&text, '\n');
	pmbench_buf_addf(&path, "%s/control", work_dir);
	ret = pmbench_fs_mkdirp(path.ptr, 0755);
	ref_path(&path, work_dir);
	if (!ret)
		ret = pmbench_fs_write_atomic(path.ptr, text.ptr, text.len);
	pmbench_buf_release(&path);
	pmbench_buf_release(&text);
	return ret;
}

int pmbench_control_files(double *out_s, const struct pmbench_ctx *ctx,
			  const char *work_dir)
{
	struct pmbench_buf dir = PMBENCH_BUF_INIT, tree = PMBENCH_BUF_INIT;
	struct pmbench_buf copy = PMBENCH_BUF_INIT, trash = PMBENCH_BUF_INIT;
	uint64_t t0;
	double fake;
	int ret;

	*out_s = 0;
	pmbench_buf_addf(&dir, "%s/control", work_dir);
	pmbench_buf_addf(&copy, "%s/copy", dir.ptr);
	pmbench_workdir_trash(&trash, work_dir);
	ret = ensure_tree(&tree, dir.ptr);
	if (!ret)
		ret = pmbench_fs_discard(copy.ptr, trash.ptr);
	if (!ret && pmbench_ctx_cancelled(ctx))
		ret = PMBENCH_EINTERRUPTED;
	if (ret < 0)
		goto done;
	t0 = pmbench_now_ns();
	ret = pmbench_fs_copytree(tree.ptr, copy.ptr, 0, NULL);
	if (!ret)
		ret = read_back(copy.ptr);
	*out_s = (double)(pmbench_now_ns() - t0) / 1e9;
	fake = fake_files_s();
	if (fake > 0)
		*out_s = fake;
	if (pmbench_fs_discard(copy.ptr, trash.ptr) < 0 && !ret)
		ret = -1;
done:
	pmbench_buf_release(&dir);
	pmbench_buf_release(&tree);
	pmbench_buf_release(&copy);
	pmbench_buf_release(&trash);
	return ret;
}
