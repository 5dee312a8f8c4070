#include "pmbench/common.h"

#include <dirent.h>
#include <sys/stat.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "pmbench/bench.h"
#include "pmbench/cli.h"
#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/proc.h"
#include "pmbench/progress.h"
#include "pmbench/scenario.h"

#define TAIL_LINES 20

/* One PM's state through a fixture's benchmark. */
struct pm_state {
	const struct pmbench_pm *pm;
	struct pmbench_pm_found found;
	struct pmbench_workspace ws;
	struct pmbench_strvec command;
	struct pmbench_strvec env;
	char *prime_failure;
	char *lockfile;
	char *scripts;
};

void pmbench_bench_opts_release(struct pmbench_bench_opts *o)
{
	pmbench_strvec_release(&o->pms);
	pmbench_strvec_release(&o->env);
}

/*
 * Known ways real projects fail, from what six real repositories did
 * under each PM on this kind of machine (shared/PITFALLS.md). A failure
 * whose output matches gets the hint appended, so the user learns which
 * trap it was and what to put in the manifest.
 */
static const struct {
	const char *pattern;
	const char *also; /* a second pattern that must match too, or NULL */
	const char *hint;
} hints[] = {
	{ "ERESOLVE", NULL,
	  "npm found a peer-dependency conflict; if the project installs "
	  "with it, add \"pm\": {\"npm\": {\"flags\": "
	  "[\"--legacy-peer-deps\"]}} to the manifest" },
	{ "is incompatible with this module", NULL,
	  "yarn 1 enforces dependencies' engines; set \"pm\": {\"yarn\": "
	  "{\"env\": {\"YARN_IGNORE_ENGINES\": \"1\"}}} to let it through" },
	{ "Workspaces can only be enabled in private projects", NULL,
	  "yarn 1 needs \"private\": true in a package.json with "
	  "workspaces" },
	{ "node-sass", "gyp",
	  "node-sass does not build on this Node version (a native module "
	  "the project pins)" },
	{ "ERR_PNPM_IGNORED_BUILDS", NULL,
	  "pnpm exits 1 when it skipped build scripts; pmbench sets "
	  "pnpm_config_strict_dep_builds=false unless the manifest "
	  "overrides it" },
	{ "ERR_PNPM_OTHER_PM_EXPECTED", NULL,
	  "the packageManager field names another PM" },
	{ "ERR_PNPM_BAD_CONFIG_DEP", NULL,
	  "pnpm tried to switch to the packageManager field's version" },
	{ "Cypress", "download",
	  "Cypress downloads its binary in postinstall; set env "
	  "CYPRESS_INSTALL_BINARY=0 in the manifest" },
	{ "gyp ERR!", NULL,
	  "a native module failed to build with node-gyp" },
	{ "getaddrinfo", NULL,
	  "a download from a host other than the registry failed (no "
	  "network to it)" },
	{ "EAI_AGAIN", NULL,
	  "a download from a host other than the registry failed (no "
	  "network to it)" },
	{ "ETARGET", NULL,
	  "a version named in package.json is not in the registry" },
	{ "No matching version", NULL,
	  "a version named in package.json is not in the registry" },
};

static const char *find_hint(const char *text)
{
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(hints); i++)
		if (strstr(text, hints[i].pattern) &&
		    (!hints[i].also || strstr(text, hints[i].also)))
			return hints[i].hint;
	return NULL;
}

static int looks_like_error(const char *line, size_t len)
{
	static const char *const words[] = { "ERR",   "error", "Error",
					     "fail",  "FAIL",  "fatal",
					     "Fatal", "✖",     "denied" };
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int hit = 0;

	pmbench_buf_add(&b, line, len);
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(words) && !hit; i++)
		hit = strstr(b.ptr, words[i]) != NULL;
	pmbench_buf_release(&b);
	return hit;
}

/*
 * The one line that says why: the last line of the output that looks
 * like an error, else the last line. `tail` is the trimmed tail text.
 */
static void pick_error_line(struct pmbench_buf *out, const char *tail)
{
	const char *end = tail + strlen(tail), *best = NULL, *best_end = NULL;
	const char *last = NULL, *last_end = NULL;

	while (end > tail) {
		const char *start = end;

		while (start > tail && start[-1] != '\n')
			start--;
		if (end > start) {
			if (!last) {
				last = start;
				last_end = end;
			}
			if (looks_like_error(start, (size_t)(end - start))) {
				best = start;
				best_end = end;
				break;
			}
		}
		end = start > tail ? start - 1 : tail;
	}
	if (!best) {
		best = last;
		best_end = last_end;
	}
	if (best) {
		size_t n = (size_t)(best_end - best);

		if (n > 300)
			n = 300;
		pmbench_buf_add(out, best, n);
		pmbench_buf_rtrim(out);
	}
}

/*
 * Describe a failed child: "exit 1: npm ERR! code ERESOLVE (hint: ...)"
 * into `reason`, its last lines into `tail`.
 */
static void describe_failure(struct pmbench_buf *reason,
			     struct pmbench_buf *tail,
			     const struct pmbench_child *c)
{
	struct pmbench_buf full = PMBENCH_BUF_INIT;
	const char *hint;

	pmbench_child_describe(c, reason);
	pmbench_child_tail_lines(c, TAIL_LINES, tail);
	if (tail->len) {
		pmbench_buf_adds(reason, ": ");
		pick_error_line(reason, tail->ptr);
	}
	pmbench_child_tail_lines(c, 400, &full);
	hint = find_hint(full.ptr);
	if (hint)
		pmbench_buf_addf(reason, " (hint: %s)", hint);
	pmbench_buf_release(&full);
}

static int sample_ok(const struct pmbench_child *c)
{
	return c->result.exited && !c->result.timed_out &&
	       !c->result.signal && c->result.exit_code == 0;
}

static double unix_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run one install in the run copy and record it into `s`. */
static int run_install(struct pm_state *ps, const struct pmbench_bench_opts *o,
		       struct pmbench_sample *s, struct pmbench_child *c)
{
	int ret;

	for (size_t i = 0; i < ps->command.nr; i++)
		pmbench_strvec_push(&c->args, ps->command.v[i]);
	for (size_t i = 0; i < ps->env.nr; i++)
		pmbench_strvec_push(&c->env, ps->env.v[i]);
	c->dir = ps->ws.run_project;
	c->timeout_ns = o->timeout_ns;
	c->flags = PMBENCH_CHILD_SAMPLE_TREE;
	s->started = unix_now();
	ret = pmbench_child_run(c);
	if (ret == PMBENCH_EINTERRUPTED)
		return ret;
	s->wall_ns = c->result.wall_ns;
	s->user_ns = c->result.user_ns;
	s->sys_ns = c->result.sys_ns;
	s->max_rss_kib = c->result.max_rss_kib;
	s->tree_rss_kib = c->result.tree_rss_kib;
	s->exit_code = c->result.exit_code;
	s->signal = c->result.signal;
	s->timed_out = c->result.timed_out;
	s->leftover = c->result.leftover;
	if (ret < 0) {
		/* It could not even start: a failure, never a time. */
		s->ok = 0;
		s->failure = pmbench_xstrdup(pmbench_error_last());
		s->wall_ns = 0;
		return 0;
	}
	s->ok = sample_ok(c);
	if (!s->ok) {
		struct pmbench_buf reason = PMBENCH_BUF_INIT;
		struct pmbench_buf tail = PMBENCH_BUF_INIT;

		describe_failure(&reason, &tail, c);
		s->failure = pmbench_buf_detach(&reason);
		s->tail = pmbench_buf_detach(&tail);
	} else {
		pmbench_workspace_node_modules(&ps->ws, &s->nm_bytes,
					       &s->nm_files);
	}
	return 0;
}

/* Does the package folder `dir` have an install-time script? */
static int has_install_script(const char *dir, struct pmbench_buf *id)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	cJSON *json = NULL;
	const cJSON *scripts, *name, *version;
	int found = 0;

	pmbench_buf_path(&p, dir, "package.json");
	if (pmbench_fs_read(&text, p.ptr, 4u << 20) < 0)
		goto done;
	json = cJSON_Parse(text.ptr);
	if (!json)
		goto done;
	scripts = cJSON_GetObjectItemCaseSensitive(json, "scripts");
	if (cJSON_IsObject(scripts) &&
	    (cJSON_GetObjectItemCaseSensitive(scripts, "preinstall") ||
	     cJSON_GetObjectItemCaseSensitive(scripts, "install") ||
	     cJSON_GetObjectItemCaseSensitive(scripts, "postinstall")))
		found = 1;
	if (!found) {
		/* npm runs node-gyp rebuild for a binding.gyp by itself. */
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, dir, "binding.gyp");
		found = pmbench_fs_isfile(p.ptr);
	}
	name = cJSON_GetObjectItemCaseSensitive(json, "name");
	version = cJSON_GetObjectItemCaseSensitive(json, "version");
	if (found) {
		const char *base = strrchr(dir, '/');

		pmbench_buf_reset(id);
		pmbench_buf_addf(id, "%s@%s",
				 cJSON_IsString(name) ? name->valuestring
						      : base ? base + 1 : dir,
				 cJSON_IsString(version) ? version->valuestring
							 : "?");
	}
done:
	cJSON_Delete(json);
	pmbench_buf_release(&p);
	pmbench_buf_release(&text);
	return found;
}

static void scan_node_modules(struct pmbench_strvec *out, const char *nm,
			      int depth);

static void scan_package(struct pmbench_strvec *out, const char *dir,
			 int depth)
{
	struct pmbench_buf id = PMBENCH_BUF_INIT, sub = PMBENCH_BUF_INIT;

	if (has_install_script(dir, &id) && pmbench_strvec_find(out, id.ptr) < 0)
		pmbench_strvec_push(out, id.ptr);
	pmbench_buf_path(&sub, dir, "node_modules");
	scan_node_modules(out, sub.ptr, depth + 1);
	pmbench_buf_release(&id);
	pmbench_buf_release(&sub);
}

/*
 * Every package below a node_modules folder: plain and @scoped ones,
 * nested node_modules, and pnpm's .pnpm/<id>/node_modules. Symlinks are
 * not followed (pnpm's top level links into .pnpm, walked directly).
 */
static void scan_node_modules(struct pmbench_strvec *out, const char *nm,
			      int depth)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	struct dirent *de;
	DIR *d;

	if (depth > 32)
		return;
	d = opendir(nm);
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;
		const char *n = de->d_name;

		if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, ".bin") ||
		    !strcmp(n, ".cache"))
			continue;
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, nm, n);
		if (lstat(p.ptr, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (!strcmp(n, ".pnpm")) {
			DIR *pd = opendir(p.ptr);
			struct dirent *pe;
			struct pmbench_buf q = PMBENCH_BUF_INIT;

			while (pd && (pe = readdir(pd))) {
				if (pe->d_name[0] == '.')
					continue;
				pmbench_buf_reset(&q);
				pmbench_buf_addf(&q, "%s/%s/node_modules",
						 p.ptr, pe->d_name);
				scan_node_modules(out, q.ptr, depth + 1);
			}
			if (pd)
				closedir(pd);
			pmbench_buf_release(&q);
		} else if (n[0] == '@') {
			scan_node_modules(out, p.ptr, depth);
		} else if (n[0] != '.') {
			scan_package(out, p.ptr, depth);
		}
	}
	closedir(d);
	pmbench_buf_release(&p);
}

/*
 * What happened to dependencies' lifecycle scripts: the PM's policy, the
 * packages that have such scripts, and what the PM itself said.
 */
static char *describe_scripts(struct pm_state *ps, const struct pmbench_child *c)
{
	struct pmbench_strvec found = PMBENCH_STRVEC_INIT, dirs = PMBENCH_STRVEC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT, out = PMBENCH_BUF_INIT;
	struct pmbench_buf lines = PMBENCH_BUF_INIT;
	const char *said;

	pmbench_fs_find_dirs(&dirs, ps->ws.run, "node_modules");
	for (size_t i = 0; i < dirs.nr; i++) {
		pmbench_buf_reset(&b);
		pmbench_buf_path(&b, ps->ws.run, dirs.v[i]);
		scan_node_modules(&found, b.ptr, 0);
	}
	pmbench_strvec_sort(&found, 0);
	pmbench_buf_adds(&out, ps->pm->scripts_note);
	if (!found.nr) {
		pmbench_buf_adds(&out, "; no installed dependency has one");
	} else {
		pmbench_buf_addf(&out, "; %zu installed dependenc%s an install "
				 "script: ",
				 found.nr, found.nr == 1 ? "y has" : "ies have");
		for (size_t i = 0; i < found.nr && i < 8; i++)
			pmbench_buf_addf(&out, "%s%s", i ? ", " : "",
					 found.v[i]);
		if (found.nr > 8)
			pmbench_buf_addf(&out, " and %zu more", found.nr - 8);
	}
	/* bun and pnpm say what they skipped. */
	pmbench_child_tail_lines(c, 200, &lines);
	said = strstr(lines.ptr, "Blocked ");
	if (!said)
		said = strstr(lines.ptr, "Ignored build scripts");
	if (said) {
		size_t n = strcspn(said, "\n");

		pmbench_buf_addf(&out, " (%s said: %.*s)", ps->pm->name,
				 (int)(n > 200 ? 200 : n), said);
	}
	pmbench_strvec_release(&found);
	pmbench_strvec_release(&dirs);
	pmbench_buf_release(&b);
	pmbench_buf_release(&lines);
	return pmbench_buf_detach(&out);
}

static void build_command(struct pm_state *ps, const struct pmbench_fixture *f,
			  const struct pmbench_bench_opts *o)
{
	const struct pmbench_fixture_pm *fp = pmbench_fixture_pm(f, ps->pm->name);
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *path = getenv("PATH");
	const char *slash;

	pmbench_strvec_release(&ps->command);
	pmbench_strvec_release(&ps->env);
	pmbench_strvec_push(&ps->command, ps->found.path);
	pmbench_pm_push_args(&ps->command, ps->pm->install_args, ps->ws.cache);
	if (fp)
		for (size_t i = 0; i < fp->flags.nr; i++)
			pmbench_strvec_push(&ps->command, fp->flags.v[i]);

	pmbench_pm_env(&ps->env, ps->pm, ps->ws.cache);
	/* Scripts that call the PM again get the same binary. */
	slash = strrchr(ps->found.path, '/');
	if (slash) {
		pmbench_buf_add(&b, ps->found.path,
				(size_t)(slash - ps->found.path));
		pmbench_strvec_pushf(&ps->env, "PATH=%s%s%s", b.ptr,
				     path ? ":" : "", path ? path : "");
	}
	for (size_t i = 0; i < f->env.nr; i++)
		pmbench_strvec_push(&ps->env, f->env.v[i]);
	if (fp)
		for (size_t i = 0; i < fp->env.nr; i++)
			pmbench_strvec_push(&ps->env, fp->env.v[i]);
	for (size_t i = 0; i < o->env.nr; i++)
		pmbench_strvec_push(&ps->env, o->env.v[i]);
	pmbench_buf_release(&b);
}

/* The priming install: a full cache, a lockfile and node_modules. */
static int prime(struct pm_state *ps, const struct pmbench_bench_opts *o)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_sample s;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *shipped = NULL, *lock;
	int ret;

	memset(&s, 0, sizeof(s));
	pmbench_progress_status("priming %s (full install, not timed)",
				ps->pm->name);
	ret = pmbench_workspace_prepare_prime(&ps->ws, &shipped);
	if (ret < 0)
		goto done;
	ret = run_install(ps, o, &s, &c);
	if (ret < 0)
		goto done;
	if (!s.ok) {
		pmbench_buf_addf(&b, "priming install failed: %s", s.failure);
		if (s.tail && *s.tail)
			pmbench_buf_addf(&b, "\n%s", s.tail);
		ps->prime_failure = pmbench_buf_detach(&b);
		pmbench_progress_event("%s: priming install failed: %s",
				       ps->pm->name, s.failure);
		goto done;
	}
	/* The run copy is not moved to the snapshot yet: look there. */
	lock = pmbench_workspace_run_lockfile(&ps->ws);
	if (shipped && lock && !strcmp(shipped, lock))
		pmbench_buf_addf(&b, "%s shipped with the fixture", lock);
	else if (lock)
		pmbench_buf_addf(&b, "%s written by %s's priming install", lock,
				 ps->pm->name);
	else
		pmbench_buf_addf(&b, "none: %s wrote no lockfile",
				 ps->pm->name);
	ps->lockfile = pmbench_buf_detach(&b);
	ps->scripts = describe_scripts(ps, &c);
	ret = pmbench_workspace_save_primed(&ps->ws);
	pmbench_progress_event("%s: primed in %.2f s (lockfile: %s)",
			       ps->pm->name, (double)s.wall_ns / 1e9,
			       ps->lockfile);
done:
	free(s.failure);
	free(s.tail);
	pmbench_child_release(&c);
	pmbench_buf_release(&b);
	return ret;
}

static void fill_cell(struct pmbench_cell *cell, const struct pm_state *ps)
{
	if (ps->prime_failure)
		cell->prime_failure = pmbench_xstrdup(ps->prime_failure);
	if (ps->lockfile)
		cell->lockfile = pmbench_xstrdup(ps->lockfile);
	if (ps->scripts)
		cell->scripts = pmbench_xstrdup(ps->scripts);
	for (size_t i = 0; i < ps->command.nr; i++)
		pmbench_strvec_push(&cell->command, ps->command.v[i]);
	for (size_t i = 0; i < ps->env.nr; i++)
		pmbench_strvec_push(&cell->env, ps->env.v[i]);
}

/* Forget what belongs to one fixture; the PM found stays. */
static void reset_fixture_state(struct pm_state *ps)
{
	pmbench_workspace_release(&ps->ws);
	free(ps->prime_failure);
	free(ps->lockfile);
	free(ps->scripts);
	ps->prime_failure = ps->lockfile = ps->scripts = NULL;
}

static void release_state(struct pm_state *ps)
{
	reset_fixture_state(ps);
	pmbench_pm_found_release(&ps->found);
	pmbench_strvec_release(&ps->command);
	pmbench_strvec_release(&ps->env);
	memset(ps, 0, sizeof(*ps));
}

static void save(const struct pmbench_result *r,
		 const struct pmbench_bench_opts *o)
{
	if (o->out && pmbench_result_write(r, o->out) < 0)
		pmbench_warn("cannot write '%s': %s", o->out,
			     pmbench_error_last());
}

/* One timed (or warm-up) install of one PM in one scenario. */
static int one_run(struct pm_state *ps,
		   const struct pmbench_bench_opts *o, unsigned state,
		   unsigned round, struct pmbench_cell *cell)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_sample *s = pmbench_cell_add_sample(cell);
	unsigned total = o->warmup + o->runs;
	const char *sc = pmbench_scenario_name(state);
	int ret;

	s->round = round;
	s->warmup = round < o->warmup;
	pmbench_progress_status("%s: %s %s %u/%u", cell->fixture, sc,
				ps->pm->name, round + 1, total);
	ret = pmbench_workspace_prepare(&ps->ws, state);
	if (ret < 0) {
		struct pmbench_buf b = PMBENCH_BUF_INIT;

		pmbench_buf_addf(&b, "cannot prepare scenario '%s': %s", sc,
				 pmbench_error_last());
		s->ok = 0;
		s->exit_code = -1;
		s->failure = pmbench_buf_detach(&b);
		ret = 0;
	} else {
		ret = run_install(ps, o, s, &c);
	}
	if (ret == 0) {
		if (s->ok)
			pmbench_progress_event("%s %s %s %s %u/%u: %.3f s",
					       cell->fixture, sc, ps->pm->name,
					       s->warmup ? "warm-up" : "run",
					       s->warmup ? round + 1
							 : round + 1 - o->warmup,
					       s->warmup ? o->warmup : o->runs,
					       (double)s->wall_ns / 1e9);
		else
			pmbench_progress_event("%s %s %s round %u/%u failed: %s",
					       cell->fixture, sc, ps->pm->name,
					       round + 1, total, s->failure);
	}
	pmbench_child_release(&c);
	return ret;
}

static void record_node(struct pmbench_result *r, const char *scratch)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf v = PMBENCH_BUF_INIT, path = PMBENCH_BUF_INIT;

	pmbench_strvec_push(&c.args, "node");
	pmbench_strvec_push(&c.args, "--version");
	c.dir = scratch;
	c.timeout_ns = 30ull * 1000000000ull;
	if (!pmbench_child_run(&c) && c.result.exit_code == 0) {
		pmbench_child_tail_lines(&c, 1, &v);
		pmbench_result_env_set(r, "node_version", v.ptr);
	} else {
		pmbench_result_env_set(r, "node_version", "not found");
	}
	if (!pmbench_proc_which(&path, "node", getenv("PATH")))
		pmbench_result_env_set(r, "node_path", path.ptr);
	pmbench_child_release(&c);
	pmbench_buf_release(&v);
	pmbench_buf_release(&path);
}

extern char **environ;

/*
 * Which of the caller's variables reached the PMs and may change what
 * they do. Names only: values can hold registry tokens.
 */
static void record_inherited(struct pmbench_result *r)
{
	static const char *const prefixes[] = { "npm_config_", "NPM_CONFIG_",
						"YARN_",       "PNPM_",
						"pnpm_config_", "BUN_",
						"DENO_",       "NODE_",
						"COREPACK_" };
	struct pmbench_strvec names = PMBENCH_STRVEC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (char **e = environ; e && *e; e++) {
		for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(prefixes); i++) {
			if (!strncmp(*e, prefixes[i], strlen(prefixes[i]))) {
				pmbench_buf_reset(&b);
				pmbench_buf_add(&b, *e, strcspn(*e, "="));
				pmbench_strvec_push(&names, b.ptr);
				break;
			}
		}
	}
	pmbench_strvec_sort(&names, 0);
	pmbench_buf_reset(&b);
	pmbench_strvec_join(&b, &names, " ");
	pmbench_result_env_set(r, "inherited_pm_vars", names.nr ? b.ptr : "none");
	pmbench_strvec_release(&names);
	pmbench_buf_release(&b);
}

static int find_pms(struct pmbench_result *r, const struct pmbench_bench_opts *o,
		    struct pm_state *states, size_t *out_nr, const char *scratch)
{
	size_t nr = 0;

	for (size_t i = 0; i < o->pms.nr; i++) {
		const struct pmbench_pm *pm = pmbench_pm_get(o->pms.v[i]);
		struct pm_state *ps = &states[nr];

		if (!pm)
			return pmbench_error_setc(PMBENCH_EINVALID,
						  "unknown package manager '%s'",
						  o->pms.v[i]);
		memset(ps, 0, sizeof(*ps));
		pmbench_progress_status("looking for %s", pm->name);
		if (pmbench_pm_find(&ps->found, pm, pmbench_config.toolchain_dir,
				    getenv("PATH"), scratch) < 0) {
			pmbench_result_add_pm(r, pm->name, NULL, NULL);
			if (o->pms_explicit) {
				*out_nr = nr;
				return PMBENCH_ENOTFOUND;
			}
			pmbench_progress_event("skipping %s: %s", pm->name,
					       pmbench_error_last());
			continue;
		}
		ps->pm = pm;
		pmbench_result_add_pm(r, pm->name, ps->found.path,
				      ps->found.version);
		nr++;
	}
	*out_nr = nr;
	if (!nr)
		return pmbench_error_setc(PMBENCH_ENOTFOUND,
					  "no package manager found; run "
					  "'ci/setup' to install the pinned "
					  "toolchain");
	return 0;
}

static void record_options(struct pmbench_result *r,
			   const struct pmbench_bench_opts *o)
{
	for (size_t i = 0; i < o->pms.nr; i++)
		pmbench_strvec_push(&r->pms, o->pms.v[i]);
	for (size_t i = 0; i < o->scenarios_nr; i++)
		pmbench_strvec_push(&r->scenarios,
				    pmbench_scenario_name(o->scenarios[i]));
	pmbench_strvec_push(&r->tasks, "install");
	r->runs = o->runs;
	r->warmup = o->warmup;
	r->timeout_ns = o->timeout_ns;
	r->seed = o->seed;
	if (o->runs_auto) {
		r->runs_auto = 1;
		r->auto_target = o->adaptive.target;
		r->auto_min_runs = o->adaptive.min_runs;
		r->auto_budget_ns = o->adaptive.budget_ns;
	}
}

static int bench_fixture(struct pmbench_result *r,
			 const struct pmbench_bench_opts *o,
			 struct pmbench_fixture *f, struct pm_state *states,
			 size_t nr)
{
	int ret;

	pmbench_progress_status("%s: checking out", f->name);
	ret = pmbench_fixture_checkout(f, pmbench_config.cache_dir);
	if (ret < 0)
		return ret;
	pmbench_result_add_fixture(r, f->name, f->repo, f->resolved_commit,
				   f->subdir, f->description);
	for (size_t i = 0; i < nr; i++) {
		reset_fixture_state(&states[i]);
		pmbench_workspace_init(&states[i].ws, states[i].pm,
				       pmbench_config.cache_dir, f->name,
				       f->source_dir, f->subdir);
		build_command(&states[i], f, o);
		ret = prime(&states[i], o);
		if (ret < 0)
			return ret;
	}

	for (size_t si = 0; si < o->scenarios_nr; si++) {
		unsigned state = o->scenarios[si];
		const char *sc = pmbench_scenario_name(state);

		for (size_t i = 0; i < nr; i++) {
			struct pmbench_cell *cell = pmbench_result_add_cell(
				r, f->name, "install", sc, states[i].pm->name);

			fill_cell(cell, &states[i]);
		}
		uint64_t started = pmbench_now_ns();

		/* Rounds outside, PMs inside: a drifting machine hits all alike. */
		for (unsigned round = 0; round < o->warmup + o->runs; round++) {
			for (size_t i = 0; i < nr; i++) {
				struct pmbench_cell *cell;

				if (states[i].prime_failure)
					continue;
				/* The cell array grows: never keep pointers. */
				cell = pmbench_result_find_cell(
					r, f->name, "install", sc,
					states[i].pm->name);
				ret = one_run(&states[i], o, state, round, cell);
				if (ret < 0) {
					save(r, o);
					return ret;
				}
			}
			/* --runs auto: o->runs is the maximum. */
			if (o->runs_auto && round >= o->warmup &&
			    pmbench_adaptive_scenario(
				    r, &o->adaptive, f->name, "install", sc,
				    round + 1 - o->warmup,
				    pmbench_now_ns() - started))
				break;
		}
		save(r, o);
	}
	for (size_t i = 0; i < nr; i++) {
		/* Work copies can be large; the checkout stays for reuse. */
		pmbench_fs_rmtree(states[i].ws.root);
		pmbench_fs_rmtree(states[i].ws.cache);
	}
	return 0;
}

int pmbench_bench_run(struct pmbench_result *r,
		      const struct pmbench_bench_opts *o,
		      struct pmbench_fixture *fixtures, size_t fixtures_nr)
{
	struct pm_state *states = pmbench_xcalloc(o->pms.nr ? o->pms.nr : 1,
						  sizeof(*states));
	struct pmbench_buf scratch = PMBENCH_BUF_INIT;
	size_t nr = 0;
	int ret;

	r->pmbench_version = pmbench_xstrdup(PMBENCH_VERSION);
	pmbench_result_stamp(r);
	record_options(r, o);
	pmbench_result_collect_sysinfo(r);
	pmbench_result_env_set(r, "timer", "CLOCK_MONOTONIC, fork to reap");
	pmbench_result_env_set(r, "cpu_time", "wait4 rusage of the PM and "
					      "the descendants it waited for");
	pmbench_result_env_set(r, "max_rss",
			       "ru_maxrss: the largest single process");
	pmbench_result_env_set(r, "tree_rss",
			       "peak of the summed RSS (/proc/<pid>/statm) of "
			       "all descendants, sampled every 25 ms");
	pmbench_result_env_set(r, "network", "live npm registry");
	{
		const char *home = getenv("HOME");
		struct pmbench_buf p = PMBENCH_BUF_INIT;

		if (home)
			pmbench_buf_path(&p, home, ".npmrc");
		pmbench_result_env_set(r, "npmrc",
				       home && pmbench_fs_isfile(p.ptr)
					       ? "the user's ~/.npmrc, copied "
						 "into each PM's own HOME"
					       : "none");
		pmbench_buf_release(&p);
	}
	record_inherited(r);

	pmbench_buf_path(&scratch, pmbench_config.cache_dir, "tmp");
	ret = pmbench_fs_mkdirp(scratch.ptr, 0755);
	if (ret < 0)
		goto done;
	record_node(r, scratch.ptr);
	ret = find_pms(r, o, states, &nr, scratch.ptr);
	if (ret < 0)
		goto done;
	for (size_t fi = 0; fi < fixtures_nr; fi++) {
		ret = bench_fixture(r, o, &fixtures[fi], states, nr);
		if (ret < 0)
			break;
	}
	save(r, o);
done:
	pmbench_progress_clear();
	for (size_t i = 0; i < o->pms.nr; i++)
		release_state(&states[i]);
	free(states);
	pmbench_buf_release(&scratch);
	return ret;
}
