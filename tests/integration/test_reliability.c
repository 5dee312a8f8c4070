/*
 * Nothing lost, nothing overwritten (issue 14): an early error or Ctrl-C
 * keeps an earlier result, --out follows symlinks and writes through
 * devices instead of replacing them, a failed write is an error, one
 * pmbench at a time per work folder, a folder pmbench did not make is
 * never emptied, and duplicates in a list are said out loud.
 */
#include "pmbench/common.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"

#define RUN(run, ...)                                        \
	do {                                                 \
		const char *args_[] = { __VA_ARGS__, NULL }; \
		h_pmbench((run), args_, NULL);               \
	} while (0)

/* What the table prints for the tiny project's clean scenario. */
#define TABLE_HEAD "proj · install · clean"

static char sample[4200];

static const char *sample_path(void)
{
	const char *root = getenv("PMBENCH_SOURCE_DIR");

	snprintf(sample, sizeof(sample), "%s/tests/data/sample-result.json",
		 root ? root : ".");
	return sample;
}

/* A copy of `path` in a fresh static buffer, since h_write's is shared. */
static const char *keep(char *buf, size_t size, const char *path)
{
	snprintf(buf, size, "%s", path);
	return buf;
}

/* The committed sample result, written to `rel` as an earlier good one. */
static const char *good_result(char *buf, size_t size, const char *rel,
			       struct pmbench_buf *bytes)
{
	pmbench_buf_reset(bytes);
	if (pmbench_fs_read(bytes, sample_path(), 16u << 20) < 0)
		pmbench_die("cannot read the sample result: %s",
			    pmbench_error_last());
	return keep(buf, size, h_write(rel, bytes->ptr));
}

/* 1 if the file at `path` holds exactly `bytes`. */
static int same_bytes(const char *path, const struct pmbench_buf *bytes)
{
	struct pmbench_buf now = PMBENCH_BUF_INIT;
	int same = !pmbench_fs_read(&now, path, 16u << 20) &&
		   now.len == bytes->len &&
		   !memcmp(now.ptr, bytes->ptr, now.len);

	pmbench_buf_release(&now);
	return same;
}

static int entries_in(const char *dir)
{
	struct pmbench_buf l = PMBENCH_BUF_INIT;
	int n = 0;

	h_listing(&l, dir);
	for (size_t i = 0; i < l.len; i++)
		n += l.ptr[i] == '\n';
	n += l.len > 0;
	pmbench_buf_release(&l);
	return n;
}

static int log_lines(void)
{
	cJSON *log = h_log_entries();
	int n = cJSON_GetArraySize(log);

	cJSON_Delete(log);
	return n;
}

static mode_t type_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) < 0 ? 0 : st.st_mode & S_IFMT;
}

/* A repository with one commit and a manifest pinning a missing commit. */
static const char *bad_commit_manifest(char *buf, size_t size)
{
	struct pmbench_buf m = PMBENCH_BUF_INIT;
	char sha[41], dir[4200];

	keep(dir, sizeof(dir), h_project("upstream/app"));
	h_git_commit_all(sha, dir, "first");
	pmbench_buf_addf(&m,
			 "{ \"name\": \"pinned\", \"repo\": \"file://%s\", "
			 "\"commit\": \"%s\" }\n",
			 dir, "0123456789abcdef0123456789abcdef01234567");
	keep(buf, size, h_write("pinned.json", m.ptr));
	pmbench_buf_release(&m);
	return buf;
}

/* ---- 1. an early error writes nothing ---------------------------------- */

TEST(bad_commit_keeps_the_previous_result)
{
	struct pmbench_buf bytes = PMBENCH_BUF_INIT, results = PMBENCH_BUF_INIT;
	struct h_run run;
	char manifest[4200], out[4200];

	h_setup();
	bad_commit_manifest(manifest, sizeof(manifest));
	good_result(out, sizeof(out), "good.json", &bytes);
	RUN(&run, "bench", "--pm", "npm", "--scenario", "clean", "--runs", "1",
	    "--warmup", "0", "--out", out, manifest);
	CHECK_INT(run.exit_code, 1);
	CHECK(!strstr(run.out.ptr, "results written"));
	h_run_release(&run);
	CHECK(same_bytes(out, &bytes));

	/* Without --out, no empty file appears under cache/results. */
	RUN(&run, "bench", "--pm", "npm", "--scenario", "clean", "--runs", "1",
	    "--warmup", "0", manifest);
	CHECK_INT(run.exit_code, 1);
	CHECK(!strstr(run.out.ptr, "results written"));
	h_run_release(&run);
	pmbench_buf_addf(&results, "%s/results", h_cache());
	CHECK_INT(entries_in(results.ptr), 0);
	pmbench_buf_release(&results);
	pmbench_buf_release(&bytes);
}

TEST(ctrl_c_while_priming_keeps_the_previous_result)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf bytes = PMBENCH_BUF_INIT;
	char out[4200], pidfile[4200];
	const char *proj;

	h_setup();
	proj = h_project("proj");
	good_result(out, sizeof(out), "good.json", &bytes);
	keep(pidfile, sizeof(pidfile), h_write("pidfile", ""));
	pmbench_strvec_push(&c.args, getenv("PMBENCH_BIN"));
	pmbench_strvec_pushv(
		&c.args,
		(const char *const[]){ "bench", "--pm", "npm", "--scenario",
				       "clean", "--runs", "1", "--warmup", "0",
				       "--out", out, proj, NULL });
	/* npm's priming install hangs: nothing has been measured. */
	pmbench_strvec_push(&c.env, "FAKEPM_NPM_MODE=hang-escape");
	pmbench_strvec_pushf(&c.env, "FAKEPM_PIDFILE=%s", pidfile);
	H_CHECK_CALL(h_interrupt, &c, pidfile);
	CHECK(!strstr(c.tail.ptr, "results written"));
	pmbench_child_kill_tree(&c);
	pmbench_child_release(&c);
	CHECK(same_bytes(out, &bytes));
	pmbench_buf_release(&bytes);
}

TEST(readers_refuse_a_result_without_cells)
{
	struct pmbench_result empty = PMBENCH_RESULT_INIT;
	struct h_run run;
	char path[4200];

	h_setup();
	keep(path, sizeof(path), h_write("empty.json", ""));
	CHECK_INT(pmbench_result_write(&empty, path), 0);

	RUN(&run, "report", path);
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "holds no measurements");
	CHECK_CONTAINS(run.out.ptr, path);
	/* One line, and nothing else. */
	CHECK(strchr(run.out.ptr, '\n') == run.out.ptr + run.out.len - 1);
	h_run_release(&run);

	RUN(&run, "report", path, "--format", "markdown");
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "holds no measurements");
	h_run_release(&run);

	RUN(&run, "compare", sample_path(), path);
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "holds no measurements");
	h_run_release(&run);

	RUN(&run, "claim", "bun is 2x faster than npm", "--from", path);
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "holds no measurements");
	h_run_release(&run);
}

/* ---- 4. --out follows symlinks, writes through devices ----------------- */

static void bench_out(struct h_run *run, const char *out)
{
	char proj[4200];

	keep(proj, sizeof(proj), h_project("proj"));
	RUN(run, "bench", "--pm", "npm", "--scenario", "clean", "--runs", "1",
	    "--warmup", "0", "--out", out, proj);
}

TEST(out_symlink_is_followed)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct h_run run;
	char link[4200], target[4200], dangling[4200], made[4200];

	h_setup();
	keep(target, sizeof(target), h_write("results/real.json", "old\n"));
	keep(link, sizeof(link), check_path("link.json"));
	CHECK_INT(symlink("results/real.json", link), 0);
	bench_out(&run, link);
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	/* The link is still a link, and its target holds the result. */
	CHECK_INT(type_of(link), S_IFLNK);
	CHECK_INT(pmbench_result_read(&r, target), 0);
	CHECK(r.cells_nr > 0);
	pmbench_result_release(&r);
	/* No temporary file is left beside either. */
	CHECK_INT(entries_in(check_path("results")), 1);

	/* A dangling link: its target is created. */
	keep(made, sizeof(made), check_path("results/made.json"));
	keep(dangling, sizeof(dangling), check_path("dangling.json"));
	CHECK_INT(symlink(made, dangling), 0);
	bench_out(&run, dangling);
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	CHECK_INT(type_of(dangling), S_IFLNK);
	CHECK_INT(pmbench_result_read(&r, made), 0);
	CHECK(r.cells_nr > 0);
	pmbench_result_release(&r);

	/* report --out goes through the same writer. */
	RUN(&run, "report", sample_path(), "--format", "csv", "--out", link);
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	CHECK_INT(type_of(link), S_IFLNK);
	{
		struct pmbench_buf text = PMBENCH_BUF_INIT;

		CHECK_INT(pmbench_fs_read(&text, target, 1u << 20), 0);
		CHECK_CONTAINS(text.ptr, "fixture,task,scenario,pm");
		pmbench_buf_release(&text);
	}
}

/* pmbench with `args` under the umask `mask` (octal); its exit code. */
static int run_umask(const char *mask, const char *const *args)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	int code = -1;

	pmbench_strvec_pushv(
		&c.args, (const char *const[]){
				 "/bin/sh", "-c",
				 "umask \"$0\" && exec \"$PMBENCH_BIN\" \"$@\"",
				 mask, NULL });
	pmbench_strvec_pushv(&c.args, args);
	if (pmbench_child_run(&c) == 0 && !c.result.signal)
		code = c.result.exit_code;
	pmbench_child_release(&c);
	return code;
}

static unsigned mode_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) < 0 ? 0u : (unsigned)(st.st_mode & 07777);
}

/*
 * Results and reports are created with the user's umask, as a shell's
 * '>' creates them (issue 32: 0644 under umask 077), and a file written
 * over keeps its mode.
 */
TEST(outputs_are_created_with_the_umask)
{
	char proj[4200], out[4200], md[4200], csv[4200];

	h_setup();
	keep(proj, sizeof(proj), h_project("proj"));
	keep(out, sizeof(out), check_path("private.json"));
	keep(md, sizeof(md), check_path("private.md"));
	keep(csv, sizeof(csv), h_write("shared.csv", "old\n"));
	CHECK_INT(chmod(csv, 0640), 0);
	{
		const char *args[] = { "bench", "--pm",	  "npm", "--scenario",
				       "clean", "--runs", "1",	 "--warmup",
				       "0",	"--out",  out,	 "--report",
				       md,	proj,	  NULL };

		CHECK_INT(run_umask("077", args), 0);
	}
	CHECK_INT(mode_of(out), 0600);
	CHECK_INT(mode_of(md), 0600);
	{
		const char *args[] = { "report", out, "--format", "csv",
				       "--out",	 csv, NULL };

		CHECK_INT(run_umask("077", args), 0);
	}
	CHECK_INT(mode_of(csv), 0640);
	{
		struct pmbench_buf text = PMBENCH_BUF_INIT;

		CHECK_INT(pmbench_fs_read(&text, csv, 1u << 20), 0);
		CHECK_CONTAINS(text.ptr, "fixture,task,scenario,pm");
		pmbench_buf_release(&text);
	}
	CHECK_INT(unlink(md), 0);
	{
		const char *args[] = { "report", out, "--format", "markdown",
				       "--out",	 md,  NULL };

		CHECK_INT(run_umask("022", args), 0);
	}
	CHECK_INT(mode_of(md), 0644);
}

TEST(out_character_device_is_written_through)
{
	struct stat st;
	struct h_run run;
	char node[4200], link[4200];

	h_setup();
	/*
	 * A private null device in the sandbox (root only): a writer that
	 * replaces device nodes replaces this one, never the real
	 * /dev/null.
	 */
	keep(node, sizeof(node), check_path("null"));
	if (mknod(node, S_IFCHR | 0666, makedev(1, 3)) == 0) {
		bench_out(&run, node);
		CHECK_INT(run.exit_code, 0);
		CHECK_CONTAINS(run.out.ptr, "results written");
		h_run_release(&run);
		CHECK_INT(type_of(node), S_IFCHR);
	} else {
		fprintf(stderr,
			"note: cannot make a device node (%s); "
			"checking the symlink only\n",
			strerror(errno));
	}
	/* A symlink to /dev/null: followed and written through. */
	keep(link, sizeof(link), check_path("null-link"));
	CHECK_INT(symlink("/dev/null", link), 0);
	bench_out(&run, link);
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	CHECK_INT(type_of(link), S_IFLNK);
	CHECK_INT(stat("/dev/null", &st), 0);
	CHECK(S_ISCHR(st.st_mode));
}

TEST(out_fifo_and_folder_are_refused)
{
	struct h_run run;
	char fifo[4200], dir[4200];

	h_setup();
	keep(fifo, sizeof(fifo), check_path("fifo"));
	CHECK_INT(mkfifo(fifo, 0644), 0);
	bench_out(&run, fifo);
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "pmbench: error: ");
	CHECK_CONTAINS(run.out.ptr, "FIFO");
	CHECK(!strstr(run.out.ptr, "results written"));
	h_run_release(&run);
	CHECK_INT(type_of(fifo), S_IFIFO);
	/* Refused before anything ran. */
	CHECK_INT(log_lines(), 0);

	keep(dir, sizeof(dir), check_path("a-folder"));
	CHECK_INT(mkdir(dir, 0755), 0);
	bench_out(&run, dir);
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "is a folder");
	CHECK(!strstr(run.out.ptr, "results written"));
	h_run_release(&run);
	CHECK_INT(type_of(dir), S_IFDIR);
	CHECK_INT(log_lines(), 0);
}

/* ---- 5. a failed write is an error ------------------------------------- */

/*
 * A path that fails every write with ENOSPC: a private full device (root
 * only), else a symlink to /dev/full.
 */
static const char *full_device(char *buf, size_t size)
{
	keep(buf, size, check_path("full"));
	if (mknod(buf, S_IFCHR | 0666, makedev(1, 7)) < 0 &&
	    symlink("/dev/full", buf) < 0)
		pmbench_die("cannot make '%s': %s", buf, strerror(errno));
	return buf;
}

TEST(failed_write_is_an_error)
{
	struct stat st;
	struct h_run run;
	char full[4200], proj[4200];

	h_setup();
	full_device(full, sizeof(full));
	keep(proj, sizeof(proj), h_project("proj"));

	RUN(&run, "bench", "--pm", "npm", "--scenario", "clean", "--runs", "1",
	    "--warmup", "0", "--out", full, proj);
	CHECK_INT(run.exit_code, 1);
	/* The measured table is still printed. */
	CHECK_CONTAINS(run.out.ptr, TABLE_HEAD);
	CHECK_CONTAINS(run.out.ptr, "pmbench: error: ");
	CHECK_CONTAINS(run.out.ptr, "No space left on device");
	CHECK(!strstr(run.out.ptr, "results written"));
	h_run_release(&run);

	RUN(&run, "ci-cache", "--pm", "npm", "--strategy", "none", "--runs",
	    "1", "--no-lockfile-change", "--out", full, proj);
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "No space left on device");
	CHECK(!strstr(run.out.ptr, "results written"));
	h_run_release(&run);

	RUN(&run, "claim", "npm is as fast as bun", proj, "--scenario", "clean",
	    "--runs", "2", "--warmup", "0", "--out", full);
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "No space left on device");
	CHECK(!strstr(run.out.ptr, "results written"));
	h_run_release(&run);

	CHECK_INT(stat(full, &st), 0);
	CHECK(S_ISCHR(st.st_mode));
	CHECK_INT(stat("/dev/full", &st), 0);
	CHECK(S_ISCHR(st.st_mode));
}

/* A project, a mount point, a folder for results and a script. */
struct small_disk {
	char proj[4200], mnt[4200], res[4200], script[4200];
};

/* `d` made in the case's sandbox, its script `text`; 0 or -1. */
static int small_disk(struct small_disk *d, const char *text)
{
	keep(d->proj, sizeof(d->proj), h_project("proj"));
	keep(d->mnt, sizeof(d->mnt), check_path("small"));
	keep(d->res, sizeof(d->res), check_path("res"));
	keep(d->script, sizeof(d->script), h_write("full.sh", text));
	return mkdir(d->mnt, 0755) < 0 || mkdir(d->res, 0755) < 0 ? -1 : 0;
}

/*
 * A full work folder is no missing PM (issue 32: "npm not found ...; run
 * 'ci/setup'"): a 16 MiB tmpfs, its work folder made, then filled up.
 */
TEST(full_work_folder_is_said)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf v = PMBENCH_BUF_INIT;
	struct small_disk d;

	h_setup();
	CHECK_INT(
		small_disk(
			&d,
			"set -u\n"
			"mnt=$1 bin=$2 proj=$3 res=$4\n"
			": > \"$res/started\"\n"
			"mount -t tmpfs -o size=16m pmbench-test \"$mnt\" || "
			"exit 77\n"
			"export PMBENCH_CACHE_DIR=\"$mnt/cache\"\n"
			"\"$bin\" pms > /dev/null 2>&1\n"
			"dd if=/dev/zero of=\"$mnt/fill\" bs=4096 2>/dev/null\n"
			"\"$bin\" bench --pm npm --scenario clean --runs 1 "
			"--warmup 0 --no-progress \"$proj\" > \"$res/out\" 2>&1\n"
			"echo $? > \"$res/rc\"\n"
			"umount \"$mnt\"\n"),
		0);
	if (!h_unshared(&c, d.res, d.script,
			(const char *const[]){ d.mnt, getenv("PMBENCH_BIN"),
					       d.proj, d.res, NULL }))
		goto done;
	CHECK_INT(h_read_in(&v, d.res, "rc"), 0);
	CHECK_STR(v.ptr, "1\n");
	CHECK_INT(h_read_in(&v, d.res, "out"), 0);
	CHECK_CONTAINS(v.ptr, "pmbench: error: cannot ask '");
	CHECK_CONTAINS(v.ptr, "its version: disk full: ");
	CHECK(!strstr(v.ptr, "not found"));
	CHECK(!strstr(v.ptr, "ci/setup"));
done:
	pmbench_child_release(&c);
	pmbench_buf_release(&v);
}

/*
 * A full disk: a 64 KiB tmpfs in a private mount namespace holding an
 * earlier result, filled up; bench --out there must fail with the table
 * printed and the earlier file intact byte for byte.
 */
TEST(disk_full_keeps_the_previous_result)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf bytes = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	struct small_disk d;
	char good[4200];

	h_setup();
	good_result(good, sizeof(good), "good.json", &bytes);
	CHECK_INT(
		small_disk(
			&d,
			"set -u\n"
			"mnt=$1 bin=$2 good=$3 proj=$4 res=$5\n"
			": > \"$res/started\"\n"
			"mount -t tmpfs -o size=64k pmbench-test \"$mnt\" || "
			"exit 77\n"
			"cp \"$good\" \"$mnt/good.json\"\n"
			"dd if=/dev/zero of=\"$mnt/fill\" bs=1024 2>/dev/null\n"
			"\"$bin\" bench --pm npm --scenario clean --runs 1 "
			"--warmup 0 --no-progress --out \"$mnt/good.json\" "
			"\"$proj\" > \"$res/out\" 2>&1\n"
			"echo $? > \"$res/rc\"\n"
			"if cmp -s \"$good\" \"$mnt/good.json\"; then "
			"echo intact > \"$res/cmp\"; else "
			"echo changed > \"$res/cmp\"; fi\n"
			"ls -A \"$mnt\" > \"$res/ls\"\n"
			"umount \"$mnt\"\n"),
		0);
	if (!h_unshared(&c, d.res, d.script,
			(const char *const[]){ d.mnt, getenv("PMBENCH_BIN"),
					       good, d.proj, d.res, NULL }))
		goto done;
	CHECK_INT(c.result.exit_code, 0);
	pmbench_buf_reset(&text);
	pmbench_buf_path(&text, d.res, "rc");
	{
		struct pmbench_buf v = PMBENCH_BUF_INIT, o = PMBENCH_BUF_INIT;

		CHECK_INT(pmbench_fs_read(&v, text.ptr, 64), 0);
		pmbench_buf_reset(&text);
		pmbench_buf_path(&text, d.res, "out");
		CHECK_INT(pmbench_fs_read(&o, text.ptr, 1u << 20), 0);
		fprintf(stderr, "--- bench on a full disk:\n%s---\n", o.ptr);
		CHECK_STR(v.ptr, "1\n");
		CHECK_CONTAINS(o.ptr, TABLE_HEAD);
		CHECK_CONTAINS(o.ptr, "No space left on device");
		CHECK(!strstr(o.ptr, "results written"));
		pmbench_buf_reset(&v);
		pmbench_buf_reset(&text);
		pmbench_buf_path(&text, d.res, "cmp");
		CHECK_INT(pmbench_fs_read(&v, text.ptr, 64), 0);
		CHECK_STR(v.ptr, "intact\n");
		/* No temporary file was left on the full disk. */
		pmbench_buf_reset(&v);
		pmbench_buf_reset(&text);
		pmbench_buf_path(&text, d.res, "ls");
		CHECK_INT(pmbench_fs_read(&v, text.ptr, 4096), 0);
		CHECK_STR(v.ptr, "fill\ngood.json\n");
		pmbench_buf_release(&v);
		pmbench_buf_release(&o);
	}
done:
	/* The mount went with the namespace; make sure of it. */
	{
		struct pmbench_buf mounts = PMBENCH_BUF_INIT;

		if (!pmbench_fs_read(&mounts, "/proc/self/mountinfo", 1u << 22))
			CHECK(!strstr(mounts.ptr, d.mnt));
		pmbench_buf_release(&mounts);
	}
	pmbench_child_release(&c);
	pmbench_buf_release(&bytes);
	pmbench_buf_release(&text);
}

/* ---- 7. one pmbench per work folder ------------------------------------ */

/*
 * h_pmbench() without its sweep: pmbench_child_run() stops every
 * descendant of the test once its child exits, which would include the
 * first pmbench that holds the work folder. This one waits for its own
 * child only.
 */
static void run_beside(struct h_run *out, const char *const *args)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	int rc = 0;

	pmbench_buf_init(&out->out);
	pmbench_strvec_push(&c.args, getenv("PMBENCH_BIN"));
	pmbench_strvec_pushv(&c.args, args);
	c.tail_max = 1u << 20;
	if (pmbench_child_start(&c) < 0)
		pmbench_die("%s", pmbench_error_last());
	for (int i = 0; i < 1200 && rc == 0; i++)
		rc = pmbench_child_pump(&c, 100 * 1000000ull);
	if (rc != 1)
		pmbench_die("'%s' did not finish", args[0]);
	out->exit_code = c.result.signal ? 128 + c.result.signal
					 : c.result.exit_code;
	pmbench_buf_add(&out->out, c.tail.ptr, c.tail.len);
	pmbench_child_release(&c);
}

#undef RUN
#define RUN(run, ...)                                        \
	do {                                                 \
		const char *args_[] = { __VA_ARGS__, NULL }; \
		run_beside((run), args_);                    \
	} while (0)

/* What a second pmbench sees while `apid` holds the work folder. */
static void while_another_runs(int *out, long apid, const char *proj)
{
	struct h_run run;
	char pid[32];
	int lines_before = log_lines();

	*out = 0;
	snprintf(pid, sizeof(pid), "pid %ld", apid);
	/* B on the same work folder: one clear line, no PM run or blamed. */
	RUN(&run, "bench", "--pm", "bun", "--scenario", "clean", "--runs", "1",
	    "--warmup", "0", proj);
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "pmbench: error: ");
	CHECK_CONTAINS(run.out.ptr, h_cache());
	CHECK_CONTAINS(run.out.ptr, "in use");
	CHECK_CONTAINS(run.out.ptr, pid);
	CHECK_CONTAINS(run.out.ptr, "pmbench bench --pm npm");
	CHECK_CONTAINS(run.out.ptr, "since ");
	CHECK_CONTAINS(run.out.ptr, "--cache-dir");
	CHECK(!strstr(run.out.ptr, "bun"));
	CHECK(strchr(run.out.ptr, '\n') == run.out.ptr + run.out.len - 1);
	h_run_release(&run);
	/* The same for every command that runs PMs or writes there. */
	RUN(&run, "ci-cache", "--pm", "bun", "--strategy", "none", proj);
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "in use");
	h_run_release(&run);
	RUN(&run, "claim", "bun is as fast as npm", proj, "--runs", "1");
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "in use");
	h_run_release(&run);
	RUN(&run, "migrate", proj, "--from", "npm", "--to", "bun");
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "in use");
	h_run_release(&run);
	RUN(&run, "pms");
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "in use");
	h_run_release(&run);
	CHECK_INT(log_lines(), lines_before);
	/* Read-only commands take no lock. */
	RUN(&run, "report", sample_path());
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	RUN(&run, "compare", sample_path(), sample_path());
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	RUN(&run, "claim", "npm is 2.64x slower than pnpm", "--from",
	    sample_path(), "--scenario", "cache+lockfile");
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	RUN(&run, "fixtures");
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	*out = 1;
}

TEST(one_run_per_work_folder)
{
	struct pmbench_child a = PMBENCH_CHILD_INIT;
	struct h_run run;
	char pidfile[4200], proj[4200];
	int rc = 0, ok = 0;

	h_setup();
	keep(proj, sizeof(proj), h_project("proj"));
	keep(pidfile, sizeof(pidfile), h_write("pidfile", ""));
	/* A: npm's priming install hangs until A is interrupted. */
	pmbench_strvec_push(&a.args, getenv("PMBENCH_BIN"));
	pmbench_strvec_pushv(
		&a.args,
		(const char *const[]){ "bench", "--pm", "npm", "--scenario",
				       "clean", "--runs", "1", "--warmup", "0",
				       "--no-progress", proj, NULL });
	pmbench_strvec_push(&a.env, "FAKEPM_NPM_MODE=hang-escape");
	pmbench_strvec_pushf(&a.env, "FAKEPM_PIDFILE=%s", pidfile);
	a.tail_max = 1u << 20;
	CHECK_INT(pmbench_child_start(&a), 0);
	for (int i = 0; i < 600 && rc == 0 && h_read_pid(pidfile) <= 0; i++)
		rc = pmbench_child_pump(&a, 50 * 1000000ull);
	if (h_read_pid(pidfile) > 0)
		while_another_runs(&ok, (long)a.pid, proj);
	else
		check_fail(__FILE__, __LINE__, "A never started npm:\n%s",
			   a.tail.ptr);

	/* A ends; its lock goes with it, and B may run. */
	kill(a.pid, SIGINT);
	for (int i = 0; i < 600 && rc == 0; i++)
		rc = pmbench_child_pump(&a, 50 * 1000000ull);
	pmbench_child_kill_tree(&a);
	CHECK(ok);
	CHECK_INT(rc, 1);
	CHECK_INT(a.result.exit_code, 130);
	pmbench_child_release(&a);
	RUN(&run, "bench", "--pm", "bun", "--scenario", "clean", "--runs", "1",
	    "--warmup", "0", proj);
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
}

#undef RUN
#define RUN(run, ...)                                        \
	do {                                                 \
		const char *args_[] = { __VA_ARGS__, NULL }; \
		h_pmbench((run), args_, NULL);               \
	} while (0)

/* ---- the work folder's marker ------------------------------------------- */

TEST(foreign_cache_dir_is_left_alone)
{
	struct h_run run;
	char foreign[4200], empty[4200], proj[4200], marker[4400];

	h_setup();
	keep(proj, sizeof(proj), h_project("proj"));
	h_write("mine/pm/npm/precious", "the user's\n");
	h_write("mine/notes.txt", "the user's\n");
	keep(foreign, sizeof(foreign), check_path("mine"));
	RUN(&run, "--cache-dir", foreign, "bench", "--pm", "npm", "--scenario",
	    "clean", "--runs", "1", "--warmup", "0", proj);
	CHECK_INT(run.exit_code, 1);
	CHECK_CONTAINS(run.out.ptr, "pmbench: error: ");
	CHECK_CONTAINS(run.out.ptr, foreign);
	CHECK_CONTAINS(run.out.ptr, ".pmbench-cache");
	CHECK(strchr(run.out.ptr, '\n') == run.out.ptr + run.out.len - 1);
	h_run_release(&run);
	CHECK(pmbench_fs_exists(check_path("mine/pm/npm/precious")));
	CHECK_INT(entries_in(foreign), 4);
	CHECK_INT(log_lines(), 0);

	/* An empty folder is fine: pmbench marks it and uses it. */
	keep(empty, sizeof(empty), check_path("empty"));
	CHECK_INT(mkdir(empty, 0755), 0);
	RUN(&run, "--cache-dir", empty, "bench", "--pm", "npm", "--scenario",
	    "clean", "--runs", "1", "--warmup", "0", proj);
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	snprintf(marker, sizeof(marker), "%s/.pmbench-cache", empty);
	CHECK_INT(type_of(marker), S_IFREG);
	/* And again, now that it holds pmbench's files. */
	RUN(&run, "--cache-dir", empty, "bench", "--pm", "npm", "--scenario",
	    "clean", "--runs", "1", "--warmup", "0", proj);
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	/* A new folder (the harness's) is created and marked. */
	RUN(&run, "bench", "--pm", "npm", "--scenario", "clean", "--runs", "1",
	    "--warmup", "0", proj);
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	snprintf(marker, sizeof(marker), "%s/.pmbench-cache", h_cache());
	CHECK_INT(type_of(marker), S_IFREG);
}

/* ---- duplicates in a list ------------------------------------------------ */

TEST(duplicates_are_noted)
{
	struct h_run run;
	char proj[4200];

	h_setup();
	keep(proj, sizeof(proj), h_project("proj"));
	RUN(&run, "bench", "--pm", "npm,npm", "--scenario", "clean,clean",
	    "--task", "install,install", "--runs", "1", "--warmup", "0", proj);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "pmbench: note: 'npm' given twice in "
				    "--pm; timing it once");
	CHECK_CONTAINS(run.out.ptr, "pmbench: note: 'clean' given twice in "
				    "--scenario; running it once");
	CHECK_CONTAINS(run.out.ptr, "pmbench: note: 'install' given twice in "
				    "--task; running it once");
	h_run_release(&run);
}

CHECK_MAIN(CASE(bad_commit_keeps_the_previous_result),
	   CASE(ctrl_c_while_priming_keeps_the_previous_result),
	   CASE(readers_refuse_a_result_without_cells),
	   CASE(out_symlink_is_followed),
	   CASE(outputs_are_created_with_the_umask),
	   CASE(out_character_device_is_written_through),
	   CASE(out_fifo_and_folder_are_refused),
	   CASE(failed_write_is_an_error),
	   CASE(disk_full_keeps_the_previous_result),
	   CASE(full_work_folder_is_said), CASE(one_run_per_work_folder),
	   CASE(foreign_cache_dir_is_left_alone), CASE(duplicates_are_noted))
