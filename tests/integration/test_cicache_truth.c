/*
 * The truth check of ci-cache's restore time: on one archive of a tree
 * shaped like an npm cache (a few hundred folders, about 400 files,
 * about 15 MB), pmbench's restore, with either archiver and timed the way
 * ci-cache times it, against `tar --zstd -xf` (and `tar -xf` without
 * compression), the command GitHub's cache action runs. Measured in one
 * run, interleaved (a round restores with the three tools back to back,
 * in each of the six orders in turn) and repeated, and judged by the
 * median of the per-round ratios: pmbench / tar must be at most 1.2.
 * Only ratios are asserted, never a time.
 *
 * The restores go to a tmpfs (/dev/shm) when there is one, each deleted
 * right after it is timed: on an ext4 without a journal, as on the
 * machine this was written on, every file made within minutes of a
 * large deletion anywhere on the disk costs a scan past the freed inodes
 * (ext4 will not reuse them yet), which made the same extraction take
 * 0.06 s or 1 s depending on what other processes had just deleted. That
 * hits every tool alike but drowns the difference between them; a CI
 * runner's ext4 has a journal and does not do it. PMBENCH_TRUTH_DIR
 * names another folder.
 */
#include "pmbench/common.h"

#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/cachearc.h"
#include "pmbench/fs.h"
#include "pmbench/proc.h"
#include "pmbench/stats.h"

/* Rounds per batch, and batches at most (see the test). */
#define ROUNDS	30
#define BATCHES 3

static char root[4096];

/* Where the restores go: PMBENCH_TRUTH_DIR, /dev/shm, or the sandbox. */
static void pick_root(void)
{
	const char *base = getenv("PMBENCH_TRUTH_DIR");

	if (!base || !*base)
		base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : NULL;
	if (base)
		snprintf(root, sizeof(root), "%s/pmbench-truth-%ld", base,
			 (long)getpid());
	else
		snprintf(root, sizeof(root), "%s", check_sandbox());
	pmbench_fs_rmtree_unchecked(root);
	pmbench_fs_mkdirp(root, 0755);
	fprintf(stderr, "restoring below %s\n", root);
}
/*
 * Under ASan pmbench's own extraction code is instrumented and GNU tar
 * is not: that build measures the sanitizer, so it gets a loose limit
 * that still catches a pathological restore; the 1.2 is the normal
 * build's.
 */
#if defined(__SANITIZE_ADDRESS__)
#define LIMIT 2.0
#else
#define LIMIT 1.2
#endif

static uint64_t rng = 0x9e3779b97f4a7c15ull;

/* xorshift64: the same tree on every machine. */
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void write_file(const char *path, size_t size, int text)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int fd;

	while (b.len < size) {
		if (text) {
			pmbench_buf_addf(&b,
					 "{\"key\":\"make-fetch-happen:%llu\","
					 "\"integrity\":\"sha512-%llx\"}\n",
					 (unsigned long long)(next() % 1000),
					 (unsigned long long)next());
		} else {
			uint64_t v = next();

			pmbench_buf_add(&b, &v, sizeof(v));
		}
	}
	pmbench_buf_setlen(&b, size);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, b.ptr, b.len) != (ssize_t)b.len)
		check_fail(__FILE__, __LINE__, "cannot write %s", path);
	if (fd >= 0)
		close(fd);
	pmbench_buf_release(&b);
}

/*
 * An npm-cache-like tree: _cacache/content-v2/sha512/xx/yy/<hash> (half
 * of them tarballs, incompressible, half package documents, JSON; 1 kB
 * to 200 kB, log-uniform) and _cacache/index-v5/xx/yy/<hash> (small JSON
 * lines). zstd makes about half of it, as it does of a real npm cache.
 */
static void make_cache(const char *top)
{
	struct pmbench_buf dir = PMBENCH_BUF_INIT, file = PMBENCH_BUF_INIT;

	for (int i = 0; i < 400; i++) {
		int content = i < 300;
		uint64_t h = next();
		double e = (double)(next() % 1000) / 1000.0;
		size_t size = content ? (size_t)(1000.0 * pow(200.0, e))
				      : 300 + (size_t)(next() % 700);

		pmbench_buf_reset(&dir);
		pmbench_buf_addf(&dir, "%s/_cacache/%s/%02x/%02x", top,
				 content ? "content-v2/sha512" : "index-v5",
				 (unsigned)(h & 0xff),
				 (unsigned)(h >> 8 & 0xff));
		pmbench_fs_mkdirp(dir.ptr, 0755);
		pmbench_buf_reset(&file);
		pmbench_buf_addf(&file, "%s/%016llx%016llx", dir.ptr,
				 (unsigned long long)h,
				 (unsigned long long)next());
		write_file(file.ptr, size, !content || i % 2);
	}
	pmbench_buf_release(&dir);
	pmbench_buf_release(&file);
}

enum tool { TAR, LIBARCHIVE, GNU_TAR, TOOLS };

static const char *const tool_names[] = { "tar", "pmbench libarchive",
					  "pmbench gnu-tar" };

/* One restore of `archive` into `dir` (new); its time, or 0 on failure. */
static uint64_t restore(enum tool t, const char *archive, const char *dir,
			const struct pmbench_cachearc_compression *c)
{
	struct pmbench_buf into = PMBENCH_BUF_INIT;
	struct pmbench_cachearc_map map = { "npm-cache", NULL };
	struct pmbench_cachearc_stats st;
	uint64_t ns = 0, t0;

	pmbench_fs_mkdirp(dir, 0755);
	pmbench_buf_path(&into, dir, "npm-cache");
	map.path = into.ptr;
	if (t == TAR) {
		struct pmbench_child ch = PMBENCH_CHILD_INIT;

		/*
		 * What the issue compared against, with GNU tar's defaults
		 * for a user other than root (GitHub's runners) spelled out,
		 * since the tests may run as root.
		 */
		pmbench_strvec_push(&ch.args, "tar");
		if (c->filter == PMBENCH_CACHEARC_ZSTD)
			pmbench_strvec_push(&ch.args, "--zstd");
		pmbench_strvec_push(&ch.args, "-xf");
		pmbench_strvec_push(&ch.args, archive);
		pmbench_strvec_push(&ch.args, "-C");
		pmbench_strvec_push(&ch.args, dir);
		pmbench_strvec_push(&ch.args, "--no-same-owner");
		pmbench_strvec_push(&ch.args, "--no-same-permissions");
		if (!pmbench_child_run(&ch) && !ch.result.exit_code)
			ns = ch.result.wall_ns;
		pmbench_child_release(&ch);
	} else if (t == LIBARCHIVE) {
		/* As ci-cache times it: around the call. */
		t0 = pmbench_now_ns();
		if (!pmbench_cachearc_extract(&st, archive, &map, 1, root))
			ns = pmbench_now_ns() - t0;
	} else {
		/* As ci-cache reports it: the tar process. */
		if (!pmbench_cachearc_tar_extract(&st, archive, &map, 1, dir,
						  c))
			ns = st.tar_ns;
	}
	if (!ns)
		check_fail(__FILE__, __LINE__, "%s failed on %s: %s",
			   tool_names[t], archive, pmbench_error_last());
	pmbench_buf_release(&into);
	return ns;
}

/* One compression's archive and what it holds. */
struct subject {
	const char *compression;
	struct pmbench_cachearc_compression c;
	struct pmbench_buf archive;
	struct pmbench_fs_usage want;
	double times[TOOLS][ROUNDS * BATCHES];
};

static void prepare(struct subject *sj, const char *tree)
{
	struct pmbench_cachearc_stats st;
	struct pmbench_cachearc_map m = { "npm-cache", NULL };

	m.path = tree;
	CHECK_INT(pmbench_cachearc_parse(&sj->c, sj->compression), 0);
	pmbench_buf_init(&sj->archive);
	pmbench_buf_addf(&sj->archive, "%s/cache%s", root,
			 pmbench_cachearc_suffix(&sj->c));
	CHECK_INT(pmbench_cachearc_create(&st, sj->archive.ptr, &m, 1, &sj->c),
		  0);
	CHECK_INT(pmbench_fs_usage(&sj->want, tree), 0);
	fprintf(stderr,
		"%s: %llu folders, %llu files, %.1f MB raw, %.1f MB "
		"archive\n",
		sj->compression, (unsigned long long)sj->want.dirs,
		(unsigned long long)sj->want.files, (double)st.raw_bytes / 1e6,
		(double)st.archive_bytes / 1e6);
}

/*
 * Judge one compression after `rounds` rounds: the median over rounds of
 * each tool's time divided by tar's in the same round. Returns 1 when
 * both of pmbench's are within the limit; with `final`, a miss fails the
 * test.
 */
static int judge(const struct subject *sj, int rounds, int final)
{
	int ok = 1;

	for (int t = 0; t < TOOLS; t++) {
		double ratio[ROUNDS * BATCHES], rmed;

		for (int r = 0; r < rounds; r++)
			ratio[r] = sj->times[TAR][r] > 0
					   ? sj->times[t][r] / sj->times[TAR][r]
					   : 0;
		rmed = pmbench_stats_median(ratio, (size_t)rounds);
		fprintf(stderr,
			"%-5s %-19s %d rounds: median %6.1f ms, median ratio "
			"to tar %.2f\n",
			sj->compression, tool_names[t], rounds,
			pmbench_stats_median(sj->times[t], (size_t)rounds) *
				1e3,
			rmed);
		if (t == TAR || rmed <= LIMIT)
			continue;
		ok = 0;
		if (final)
			check_fail(__FILE__, __LINE__,
				   "%s: %s restores in %.2f times tar's time "
				   "(limit %.1f)",
				   sj->compression, tool_names[t], rmed, LIMIT);
	}
	return ok;
}

/*
 * Round `r`: each compression restored by the three tools back to back,
 * in one of the six orders (in turn: over 30 rounds each tool runs in
 * every place and after every other equally often), the compressions
 * alternating. Each restore is deleted right after it is timed.
 */
static void one_round(struct subject *sj, int n, int r)
{
	static const enum tool order[6][TOOLS] = {
		{ TAR, LIBARCHIVE, GNU_TAR }, { LIBARCHIVE, GNU_TAR, TAR },
		{ GNU_TAR, TAR, LIBARCHIVE }, { TAR, GNU_TAR, LIBARCHIVE },
		{ GNU_TAR, LIBARCHIVE, TAR }, { LIBARCHIVE, TAR, GNU_TAR },
	};
	struct pmbench_buf dir = PMBENCH_BUF_INIT;
	struct pmbench_fs_usage got;

	for (int k = 0; k < n * TOOLS; k++) {
		struct subject *s = &sj[(k / TOOLS + r) % n];
		enum tool t = order[r % 6][k % TOOLS];

		pmbench_buf_reset(&dir);
		pmbench_buf_addf(&dir, "%s/out", root);
		s->times[t][r] =
			(double)restore(t, s->archive.ptr, dir.ptr, &s->c) /
			1e9;
		if (r < 2) {
			/* The same tree from each. */
			pmbench_buf_adds(&dir, "/npm-cache");
			CHECK_INT(pmbench_fs_usage(&got, dir.ptr), 0);
			CHECK_INT(got.files, s->want.files);
			CHECK_INT(got.dirs, s->want.dirs);
			CHECK_INT(got.apparent_bytes, s->want.apparent_bytes);
			pmbench_buf_reset(&dir);
			pmbench_buf_addf(&dir, "%s/out", root);
		}
		pmbench_fs_rmtree_unchecked(dir.ptr);
	}
	pmbench_buf_release(&dir);
}

TEST(restore_within_20_percent_of_tar)
{
	struct subject sj[] = {
		{ "zstd", { 0, 0 }, PMBENCH_BUF_INIT, { 0 }, { { 0 } } },
		{ "none", { 0, 0 }, PMBENCH_BUF_INIT, { 0 }, { { 0 } } }
	};
	struct pmbench_buf tree = PMBENCH_BUF_INIT;
	int n = (int)PMBENCH_ARRAY_SIZE(sj);

	/* As pmbench's main does: a child's exit wakes the wait at once. */
	CHECK_INT(pmbench_proc_init(), 0);
	check_sandbox();
	pick_root();
	pmbench_buf_path(&tree, root, "npm-cache");
	make_cache(tree.ptr);
	for (int i = 0; i < n; i++)
		prepare(&sj[i], tree.ptr);
	CHECK(sj[0].want.dirs >= 200 && sj[0].want.files == 400);
	/*
	 * A batch of rounds, judged on every round so far; on a busy
	 * machine a borderline median gets another batch (at most three)
	 * before it counts as a failure.
	 */
	for (int b = 0, ok = 0, rounds = 0; b < BATCHES && !ok; b++) {
		for (int r = rounds; r < rounds + ROUNDS; r++)
			one_round(sj, n, r);
		rounds += ROUNDS;
		ok = 1;
		for (int i = 0; i < n; i++)
			ok &= judge(&sj[i], rounds, b == BATCHES - 1);
	}
	for (int i = 0; i < n; i++)
		pmbench_buf_release(&sj[i].archive);
	pmbench_fs_rmtree_unchecked(root);
	pmbench_buf_release(&tree);
}

CHECK_MAIN(CASE(restore_within_20_percent_of_tar))
