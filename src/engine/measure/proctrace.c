/*
 * The sampler's timeline of a run (proc.h's struct pmbench_child_trace):
 * what each walk of a handle's tree found, for the phases (phases.h).
 *
 * Bytes written: /proc/PID/io's write_bytes, what a process dirtied in
 * the page cache (counted when it writes, not when the kernel flushes).
 * A process's count takes in those of the children it has reaped (the
 * kernel adds them at the wait, like cutime), so a process seen before
 * and gone now has its last count taken off its parent's growth: each
 * byte counts once, and a reap is not taken for a write.
 *
 * A zombie's io file is root's (mode 0400): for a normal user the walks
 * cannot read it. A zombie whose parent is in the tree is read again
 * through its parent once reaped. The main process at the exit's walk,
 * and the orphans re-parented to pmbench, are zombies of pmbench's own:
 * their count is what waitid's rusage gives the parent, its block
 * output (write_bytes in 512-byte blocks, per process: at most 511 bytes
 * short per process, never more than the file says). What that leaves
 * out at the exit's walk (a zombie whose parent is a leftover, another
 * user's process, an orphan re-parented to init when pmbench is no
 * subreaper) is counted in written_unread: the figure is then partial.
 *
 * Lifecycle scripts: npm, yarn, pnpm and bun run a package's script with
 * npm_lifecycle_event and npm_package_name in its environment, which its
 * own children inherit; deno names neither (see deno_script()). /proc/PID/environ is read when a walk first
 * finds a process (it is readable for the program's own children), and
 * again after each exec while it names no event: a process found between
 * its fork and its exec still has its parent's environment. An exec
 * shows as a new env_start in /proc/PID/stat (the new stack is placed
 * anew); where the kernel shows none, the next walks read it again up to
 * ENV_READS. (Re-read at the next four walks only, a script whose exec
 * came more than 100 ms after its fork, a shell's wait on a loaded
 * machine, was never seen.) What the main process itself has (pmbench
 * run from an npm script) is not a script.
 */
#define _GNU_SOURCE 1
#include "pmbench/common.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pmbench/fs.h"
#include "pmbench/jsonedit.h"
#include "pmbench/proc.h"
#include "proctrace.h"

/* Most processes a trace keeps; later ones are left out. */
#define TRACE_PROCS_MAX 8192
/* Most of an environment read. */
#define ENVIRON_MAX (1u << 20)
/*
 * Reads of a process's environ while it names no event (100 ms), where
 * the kernel does not show when it execs.
 */
#define ENV_READS 4

uint64_t pmbench_proctrace_cpu(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void pmbench_child_trace_release(struct pmbench_child_trace *t)
{
	const char *mark_dir;
	int lean;

	if (!t)
		return;
	lean = t->lean;
	mark_dir = t->mark_dir;
	for (size_t i = 0; i < t->procs_nr; i++) {
		free(t->procs[i].event);
		free(t->procs[i].package);
	}
	free(t->procs);
	free(t->points);
	memset(t, 0, sizeof(*t));
	t->lean = lean;
	t->mark_dir = mark_dir;
}

/*
 * Whether the trace's mark_dir changed since it was last looked at
 * (made, removed, or its entries changed); the first look only notes it.
 */
static int mark_changed(struct pmbench_child_trace *t, int first)
{
	struct stat st;
	int seen, changed;

	if (!t->mark_dir)
		return 0;
	seen = !stat(t->mark_dir, &st);
	changed = seen != t->mark_seen ||
		  (seen && ((uint64_t)st.st_ino != t->mark_ino ||
			    (int64_t)st.st_mtim.tv_sec != t->mark_sec ||
			    (int64_t)st.st_mtim.tv_nsec != t->mark_nsec));
	t->mark_seen = seen;
	if (seen) {
		t->mark_ino = (uint64_t)st.st_ino;
		t->mark_sec = (int64_t)st.st_mtim.tv_sec;
		t->mark_nsec = (int64_t)st.st_mtim.tv_nsec;
	}
	return !first && changed;
}

void pmbench_proctrace_begin(struct pmbench_child_trace *t)
{
	pmbench_child_trace_release(t);
	mark_changed(t, 1);
}

static uint64_t tick_ns(void)
{
	static uint64_t ns;

	if (!ns) {
		long hz = sysconf(_SC_CLK_TCK);

		ns = 1000000000u / (uint64_t)(hz > 0 ? hz : 100);
	}
	return ns;
}

/* /proc/PID/`name` whole (at most `max` bytes) into `out`; 0 or -1. */
static int read_proc(struct pmbench_buf *out, pid_t pid, const char *name,
		     size_t max)
{
	char path[64], chunk[16384];
	ssize_t n = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	pmbench_buf_reset(out);
	while (out->len < max) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		pmbench_buf_add(out, chunk, (size_t)n);
	}
	close(fd);
	return n < 0 ? -1 : 0;
}

/*
 * write_bytes of /proc/PID/io into *out; 0, PMBENCH_ENOTFOUND (gone), or
 * -1 (not ours to read: another user's process, a zombie).
 */
static int read_written(uint64_t *out, pid_t pid)
{
	char path[64], buf[512];
	const char *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/io", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? PMBENCH_ENOTFOUND : -1;
	do {
		n = read(fd, buf, sizeof(buf) - 1);
	} while (n < 0 && errno == EINTR);
	if (n < 0 && errno == ESRCH)
		n = PMBENCH_ENOTFOUND;
	close(fd);
	if (n <= 0)
		return n == PMBENCH_ENOTFOUND ? PMBENCH_ENOTFOUND : -1;
	buf[n] = '\0';
	p = strstr(buf, "\nwrite_bytes: ");
	if (!p)
		return -1;
	*out = strtoull(p + 14, NULL, 10);
	return 0;
}

/* The value of `key` ("npm_lifecycle_event=") in an environ, or NULL. */
static char *environ_get(const struct pmbench_buf *env, const char *key)
{
	size_t klen = strlen(key);

	for (size_t i = 0; i < env->len;) {
		const char *e = env->ptr + i;
		size_t n = strnlen(e, env->len - i);

		if (n >= klen && !memcmp(e, key, klen))
			return pmbench_xstrndup(e + klen, n - klen);
		i += n + 1;
	}
	return NULL;
}

/* Is `p` a lifecycle script: an event the main process does not have? */
static int is_script(const struct pmbench_trace_proc *p,
		     const struct pmbench_trace_proc *main)
{
	if (!p->event || !*p->event)
		return 0;
	if (!main || main == p || !main->event)
		return main != p;
	return strcmp(p->event, main->event) ||
	       strcmp(p->package ? p->package : "",
		      main->package ? main->package : "");
}

static struct pmbench_trace_proc *find(struct pmbench_child_trace *t, pid_t pid,
				       uint64_t start)
{
	for (size_t i = t->procs_nr; i-- > 0;)
		if (t->procs[i].pid == pid && t->procs[i].start_tick == start)
			return &t->procs[i];
	return NULL;
}

/*
 * The install script a package's folder `dir` has: "postinstall" when
 * it has that one only, "install scripts" when it has several.
 */
static char *install_event(const char *dir)
{
	static const char *const events[] = { "preinstall", "install",
					      "postinstall" };
	struct pmbench_buf json = PMBENCH_BUF_INIT, path = PMBENCH_BUF_INIT;
	const char *one = NULL;
	size_t n = 0, start, end;

	pmbench_buf_path(&path, dir, "package.json");
	if (!pmbench_fs_read(&json, path.ptr, ENVIRON_MAX))
		for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(events); i++) {
			const char *key[] = { "scripts", events[i], NULL };

			if (pmbench_json_find(json.ptr, key, &start, &end) == 1)
				one = events[i], n++;
		}
	pmbench_error_clear();
	pmbench_buf_release(&json);
	pmbench_buf_release(&path);
	return pmbench_xstrdup(n == 1 ? one : "install scripts");
}

/*
 * deno 2.9 runs a package's install script ("node install.js" as `deno
 * run -A ... install.js`) in the package's folder with INIT_CWD and
 * npm_config_user_agent "deno/..." but no npm_lifecycle_event or
 * npm_package_name (strace of `deno install --allow-scripts`, deno 2.9.6,
 * 2026-12-06): such a process in a folder under node_modules/ is a script
 * of the package that folder is, the event the one its package.json has.
 */
static void deno_script(struct pmbench_trace_proc *p,
			const struct pmbench_buf *env)
{
	char *agent = environ_get(env, "npm_config_user_agent=");
	char *init = environ_get(env, "INIT_CWD=");
	char path[64], cwd[PATH_MAX];
	const char *nm, *at;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/cwd", (int)p->pid);
	if (!agent || !init || strncmp(agent, "deno/", 5) ||
	    (n = readlink(path, cwd, sizeof(cwd) - 1)) <= 0)
		goto done;
	cwd[n] = '\0';
	for (nm = NULL, at = cwd; (at = strstr(at, "/node_modules/")); at++)
		nm = at + 14;
	if (!nm || !*nm)
		goto done;
	free(p->package);
	p->package = pmbench_xstrdup(nm);
	p->event = install_event(cwd);
done:
	free(agent);
	free(init);
}

/*
 * Read the lifecycle variables of `p`'s environ (`e` as the walk found
 * it): when first found, and again when it exec'd since the last read.
 */
static void read_env(const struct pmbench_child_trace *t,
		     struct pmbench_trace_proc *p,
		     const struct pmbench_proctrace_ent *e)
{
	struct pmbench_buf env = PMBENCH_BUF_INIT;

	if (t->lean || p->event)
		return;
	if (p->env_reads &&
	    (e->env_at ? e->env_at == p->env_at : p->env_reads >= ENV_READS))
		return;
	p->env_reads++;
	p->env_at = e->env_at;
	if (!read_proc(&env, p->pid, "environ", ENVIRON_MAX)) {
		free(p->package);
		p->event = environ_get(&env, "npm_lifecycle_event=");
		p->package = environ_get(&env, "npm_package_name=");
		if (!p->event)
			deno_script(p, &env);
	}
	pmbench_buf_release(&env);
}

/* A process a walk found for the first time. */
static struct pmbench_trace_proc *add(struct pmbench_child *c,
				      const struct pmbench_proctrace_ent *e)
{
	struct pmbench_child_trace *t = c->trace;
	struct pmbench_trace_proc *p;

	if (t->procs_nr >= TRACE_PROCS_MAX)
		return NULL;
	PMBENCH_ALLOC_GROW(t->procs, t->procs_nr + 1, t->procs_alloc);
	p = &t->procs[t->procs_nr++];
	memset(p, 0, sizeof(*p));
	p->pid = e->pid;
	p->start_tick = e->start;
	p->start_ns =
		e->start > c->t0_tick ? (e->start - c->t0_tick) * tick_ns() : 0;
	read_env(t, p, e);
	return p;
}

/* The main process's record (its start tick is whatever it was). */
static const struct pmbench_trace_proc *main_of(const struct pmbench_child *c)
{
	for (size_t i = 0; i < c->trace->procs_nr; i++)
		if (c->trace->procs[i].pid == c->pid)
			return &c->trace->procs[i];
	return NULL;
}

/*
 * Processes the last walk found and this one does not: gone, reaped by
 * their parent (whose count now holds theirs) if it is still here.
 */
static void note_gone(struct pmbench_child_trace *t, uint64_t rel)
{
	for (size_t i = 0; i < t->procs_nr; i++) {
		struct pmbench_trace_proc *p = &t->procs[i];

		if (p->mark || p->gone_ns)
			continue;
		p->gone_ns = rel > p->seen_ns ? rel : p->seen_ns;
		for (size_t k = 0; k < t->procs_nr; k++) {
			struct pmbench_trace_proc *parent = &t->procs[k];

			if (parent->mark && parent->pid == p->ppid) {
				parent->written += p->written;
				break;
			}
		}
	}
}

/*
 * The count of `e` (whose record is `p`) now: its io file; else, for a
 * zombie of the program's own, what waitid gave the parent (its file is
 * root's); else the count last read. At the exit's walk (`last`) a count
 * that could not be read is one the trace never gets: the tree's figure
 * is partial, and says so.
 */
static uint64_t written_now(struct pmbench_child_trace *t,
			    const struct pmbench_trace_proc *p,
			    const struct pmbench_proctrace_ent *e, int last)
{
	uint64_t n = 0;
	int r;

	if (t->lean)
		return p->written;
	r = read_written(&n, e->pid);
	if (!r)
		return n;
	if (e->waited)
		return e->written > p->written ? e->written : p->written;
	/* Gone since the walk: its parent reaped it, and holds its count. */
	if (last && r != PMBENCH_ENOTFOUND)
		t->written_unread++;
	return p->written;
}

void pmbench_proctrace_walk(struct pmbench_child *c,
			    const struct pmbench_proctrace_ent *v, size_t n,
			    uint64_t now, uint64_t cpu0)
{
	struct pmbench_child_trace *t = c->trace;
	uint64_t rel = now > c->t0 ? now - c->t0 : 0;
	uint64_t *cur = pmbench_xcalloc(n ? n : 1, sizeof(*cur));
	/* Indices into t->procs, not pointers: add() may move them. */
	size_t *of = pmbench_xcalloc(n ? n : 1, sizeof(*of));
	const struct pmbench_trace_proc *main;

	for (size_t i = 0; i < t->procs_nr; i++)
		t->procs[i].mark = 0;
	for (size_t i = 0; i < n; i++) {
		struct pmbench_trace_proc *p = find(t, v[i].pid, v[i].start);

		if (!p)
			p = add(c, &v[i]);
		else
			read_env(t, p, &v[i]);
		of[i] = p ? (size_t)(p - t->procs) : SIZE_MAX;
		if (!p)
			continue;
		p->mark = 1;
		p->ppid = v[i].ppid;
		p->cpu_ns = v[i].cpu * tick_ns();
		if (!v[i].zombie)
			p->seen_ns = rel;
		cur[i] = written_now(t, p, &v[i], c->result.exited);
	}
	note_gone(t, rel);
	for (size_t i = 0; i < n; i++) {
		struct pmbench_trace_proc *p;

		if (of[i] == SIZE_MAX)
			continue;
		p = &t->procs[of[i]];
		if (cur[i] > p->written)
			t->written += cur[i] - p->written;
		p->written = cur[i];
	}
	/* The main process may have been found after a child of it. */
	main = main_of(c);
	for (size_t i = 0; main && i < t->procs_nr; i++)
		t->procs[i].script = is_script(&t->procs[i], main);
	PMBENCH_ALLOC_GROW(t->points, t->points_nr + 1, t->points_alloc);
	t->points[t->points_nr].t_ns = rel;
	t->points[t->points_nr].written = t->written;
	t->points[t->points_nr].marked = !t->lean && mark_changed(t, 0);
	t->points_nr++;
	free(cur);
	free(of);
	t->cpu_ns += pmbench_proctrace_cpu() - cpu0;
}
