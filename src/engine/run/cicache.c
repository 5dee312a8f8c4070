/*
 * ci-cache's engine: simulated CI jobs per PM and strategy (setup,
 * restore, install in CI mode, save), their miss, hit and
 * lockfile-changed rounds, spent by the budget or fixed by --runs.
 */

#include "pmbench/common.h"

#include <math.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "pmbench/change.h"
#include "pmbench/cicache.h"
#include "pmbench/ctx.h"
#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/pmrun.h"
#include "pmbench/prior.h"
#include "pmbench/registry.h"
#include "pmbench/proc.h"
#include "pmbench/scenario.h"
#include "pmbench/schedule.h"
#include "pmbench/scriptcheck.h"
#include "pmbench/stats.h"
#include "pmbench/task.h"
#include "pmbench/trashplan.h"
#include "cisetup.h"

#define TASK PMBENCH_CICACHE_TASK
#define S    PMBENCH_CICACHE_STORE
#define NM   PMBENCH_CICACHE_NODE_MODULES
#define TC   PMBENCH_CICACHE_TOOLCHAIN
/* What the job's cache archive holds (the toolchain has its own). */
#define CACHES (S | NM)

enum job_kind { JOB_MISS, JOB_HIT, JOB_CHANGED };

static const char *const kind_names[] = { "miss", "hit", "lockfile-changed" };

void pmbench_cicache_opts_release(struct pmbench_cicache_opts *o)
{
	pmbench_strvec_release(&o->pms);
	pmbench_strvec_release(&o->env);
}

const char *pmbench_cicache_strategy_name(unsigned strategy)
{
	static const char *const names[] = {
		"none",
		"store",
		"node_modules",
		"store+node_modules",
		"toolchain",
		"store+toolchain",
		"node_modules+toolchain",
		"store+node_modules+toolchain",
	};

	return names[strategy & 7];
}

int pmbench_cicache_parse_strategy(unsigned *out, const char *s)
{
	struct pmbench_strvec parts = PMBENCH_STRVEC_INIT;
	unsigned st = 0;
	int bad = 0;

	if (!strcmp(s, "none")) {
		*out = 0;
		return 0;
	}
	pmbench_strvec_split(&parts, s, '+');
	bad = !parts.nr;
	for (size_t i = 0; i < parts.nr && !bad; i++) {
		unsigned bit = !strcmp(parts.v[i], "store")	     ? S
			       : !strcmp(parts.v[i], "node_modules") ? NM
			       : !strcmp(parts.v[i], "toolchain")    ? TC
								     : 0;

		bad = !bit || (st & bit);
		st |= bit;
	}
	pmbench_strvec_release(&parts);
	if (bad)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "unknown strategy '%s'; use none, "
					  "or store, node_modules and "
					  "toolchain joined by '+' "
					  "(store+toolchain)",
					  s);
	*out = st;
	return 0;
}

int pmbench_cicache_parse_bandwidth(double *out, const char *s)
{
	static const struct {
		const char *unit;
		double bytes;
	} units[] = {
		{ "B", 1 },	      { "kB", 1e3 },
		{ "KB", 1e3 },	      { "MB", 1e6 },
		{ "GB", 1e9 },	      { "KiB", 1024.0 },
		{ "MiB", 1048576.0 }, { "GiB", 1073741824.0 },
		{ "kbit", 1e3 / 8 },  { "Kbit", 1e3 / 8 },
		{ "Mbit", 1e6 / 8 },  { "Gbit", 1e9 / 8 },
	};
	struct pmbench_buf unit = PMBENCH_BUF_INIT;
	char *end = NULL;
	double v;
	int ret = PMBENCH_EINVALID;

	errno = 0;
	v = (*s >= '0' && *s <= '9') || *s == '.' ? strtod(s, &end) : 0;
	if (end && end != s && !errno && isfinite(v) && v > 0) {
		pmbench_buf_adds(&unit, end);
		if (unit.len > 2 && !strcmp(unit.ptr + unit.len - 2, "/s"))
			pmbench_buf_setlen(&unit, unit.len - 2);
		for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(units); i++) {
			if (!strcmp(unit.ptr, units[i].unit)) {
				*out = v * units[i].bytes;
				ret = 0;
			}
		}
	}
	pmbench_buf_release(&unit);
	if (ret)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "bad bandwidth '%s'; use a positive "
					  "number with a unit, e.g. 100MB/s, "
					  "50MiB/s or 250Mbit/s",
					  s);
	return 0;
}

/* One strategy and compression, for every PM. */
struct config {
	unsigned strategy;
	struct pmbench_cachearc_compression comp;
	char *label; /* "none", "store/zstd-3" */
	char *file;  /* "store-zstd-3.tar.zst" */
	/* Per job kind, for its progress bar: jobs done and planned. */
	unsigned done[3], total[3];
};

static void config_release(struct config *c)
{
	free(c->label);
	free(c->file);
}

/* What one PM has for one config. */
struct slot {
	char *archive; /* the miss job's archive, once saved */
	uint64_t archive_bytes;
	char *toolchain; /* the miss job's toolchain archive, once saved */
};

static void scenario_of(struct pmbench_buf *out, const struct config *c,
			enum job_kind kind)
{
	pmbench_buf_adds(out, c->label);
	if (kind != JOB_HIT)
		pmbench_buf_addf(out, "/%s", kind_names[kind]);
}

/* Where a PM keeps its archives: beside the run copy, never inside it. */
static void archive_path(struct pmbench_buf *out,
			 const struct pmbench_pmrun *ps, const struct config *c,
			 const char *what)
{
	pmbench_buf_addf(out, "%s/ci-cache/%s%s%s", ps->ws.root, what, c->file,
			 pmbench_cachearc_suffix(&c->comp));
}

/* Everything one run shares. */
struct run {
	struct pmbench_ctx *ctx;
	const struct pmbench_cicache_opts *o;
	struct pmbench_result *r;
	struct pmbench_fixture *f;
	struct pmbench_pmrun *states;
	size_t nr;
	struct config *configs;
	size_t configs_nr;
	struct slot *slots;	       /* configs_nr * nr */
	struct pmbench_strvec *frozen; /* per PM: the CI install argv */
	char *change;		       /* what the lockfile-changed job edits */
	char **store;		       /* per PM: the store strategy's folder */
	char *work;		       /* realpath of pmbench's cache folder */
	struct pmbench_pm_found npm;   /* what installs the other PMs */
	struct budget *b;	       /* the budget's, or NULL (--runs N) */
	uint64_t start_ns;	       /* the command's start */
	uint64_t end_at; /* the budget's plan end (monotonic) for the ETA */
};

/*
 * Archive names are paths relative to pmbench's cache folder, the way
 * actions/cache names paths relative to GITHUB_WORKSPACE, so that GNU
 * tar saves and restores them with one `-C`. The part of `path` (a path
 * pmbench built from that folder) below it, or NULL.
 */
static const char *work_rel(const struct run *x, const char *path)
{
	const char *top = x->ctx->cache_dir;
	size_t n = strlen(top);

	while (n > 1 && top[n - 1] == '/')
		n--;
	if (strncmp(path, top, n) || path[n] != '/')
		return NULL;
	return path + n + 1;
}

/* The last line of `text` that is an absolute path, into `out`. */
static void last_path_line(struct pmbench_buf *out, const char *text)
{
	const char *p = text;

	pmbench_buf_reset(out);
	while (*p) {
		size_t n = strcspn(p, "\n");

		if (*p == '/') {
			pmbench_buf_reset(out);
			pmbench_buf_add(out, p, n);
			pmbench_buf_rtrim(out);
		}
		p += n + (p[n] == '\n');
	}
}

/*
 * Ask PM `ps` its store_query into `ans`, saying how in `how`; the
 * answer's path under the work folder, or NULL (warned) when outside it.
 */
static const char *ask_store_query(struct run *x,
				   const struct pmbench_pmrun *ps,
				   struct pmbench_buf *ans,
				   struct pmbench_buf *how)
{
	const struct pmbench_pm *pm = ps->pm;
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	const char *rel;

	pmbench_strvec_push(&c.args, ps->found.path);
	pmbench_strvec_pushv(&c.args, pm->store_query);
	for (size_t i = 0; i < ps->env.nr; i++)
		pmbench_strvec_push(&c.env, ps->env.v[i]);
	c.dir = ps->ws.run_project;
	c.ctx = x->ctx;
	c.timeout_ns = 60ull * 1000000000ull;
	if (!pmbench_child_run(&c) && !c.result.exit_code && !c.result.signal)
		last_path_line(ans, c.tail.ptr);
	rel = ans->len ? work_rel(x, ans->ptr) : NULL;
	pmbench_buf_addf(how, "`%s", pmbench_pm_command_name(pm));
	for (const char *const *q = pm->store_query; *q; q++)
		pmbench_buf_addf(how, " %s", *q);
	pmbench_buf_adds(how, "` (actions/setup-node)");
	if (!rel) {
		pmbench_ctx_warn(x->ctx,
				 "'%s': %s answered '%s', not a folder "
				 "in pmbench's cache folder; caching $%s",
				 pm->name, how->ptr, ans->ptr, pm->store_var);
		pmbench_buf_addf(how, " answered '%s'; used $%s", ans->ptr,
				 pm->store_var);
	}
	pmbench_child_release(&c);
	return rel;
}

/*
 * Find the folder the store strategy caches for PM `pi` (once), into
 * x->store[pi], recording how in the environment. The answer must lie in
 * the PM's cache folder or its run copy; otherwise the folder pmbench
 * points the PM's cache variable at is taken, with a warning.
 */
static void resolve_store(struct run *x, size_t pi)
{
	struct pmbench_pmrun *ps = &x->states[pi];
	const struct pmbench_pm *pm = ps->pm;
	struct pmbench_buf ans = PMBENCH_BUF_INIT, how = PMBENCH_BUF_INIT;
	struct pmbench_buf key = PMBENCH_BUF_INIT;
	const char *rel = NULL;

	if (x->store[pi])
		return;
	/*
	 * The question actions/setup-node asks (its cache-utils.ts: `npm
	 * config get cache`, `yarn cache dir`, `yarn config get
	 * cacheFolder`, `pnpm store path --silent`), asked with the PM's
	 * own environment, or the folder its store variable names (the
	 * table's store_query and store_var).
	 */
	if (pm->store_query)
		rel = ask_store_query(x, ps, &ans, &how);
	if (!rel && pm->store_var) {
		const char *v = pmbench_env_get(&ps->env, pm->store_var);

		pmbench_buf_reset(&ans);
		pmbench_buf_adds(&ans, v ? v : "");
		rel = ans.len ? work_rel(x, ans.ptr) : NULL;
		if (!pm->store_query)
			pmbench_buf_addf(&how,
					 "$%s (no actions/setup-node "
					 "cache for %s)",
					 pm->store_var, pm->name);
	}
	if (!rel) {
		/* No rule, or no answer at all: the whole cache folder. */
		pmbench_buf_reset(&ans);
		pmbench_buf_adds(&ans, ps->ws.cache);
		pmbench_buf_reset(&how);
		pmbench_buf_adds(&how, "the PM's whole cache folder");
	}
	x->store[pi] = pmbench_buf_detach(&ans);
	pmbench_buf_addf(&key, "ci_cache_store_%s", ps->pm->name);
	pmbench_buf_reset(&ans);
	pmbench_buf_addf(&ans, "%s, from %s", work_rel(x, x->store[pi]),
			 how.ptr);
	pmbench_result_env_set(x->r, key.ptr, ans.ptr);
	pmbench_buf_release(&ans);
	pmbench_buf_release(&how);
	pmbench_buf_release(&key);
}

/* Add the tree at `path` under its archive name. */
static int add_tree(const struct run *x, struct pmbench_strvec *names,
		    struct pmbench_strvec *paths, const char *path)
{
	const char *rel = work_rel(x, path);

	if (!rel)
		return pmbench_error_set("'%s' is not in pmbench's cache "
					 "folder '%s'",
					 path, x->ctx->cache_dir);
	pmbench_strvec_push(names, rel);
	pmbench_strvec_push(paths, path);
	return 0;
}

/*
 * The trees a strategy caches, as archive names (relative to pmbench's
 * cache folder) and paths. "store": the folder actions/setup-node caches
 * for the PM (resolve_store()). "node_modules": every node_modules
 * folder of the project and the PM's install-state files. The store
 * comes first so that files hard-linked into node_modules are stored
 * with the store and linked from there.
 */
static int save_maps(struct pmbench_strvec *names, struct pmbench_strvec *paths,
		     struct run *x, size_t pi, unsigned strategy)
{
	const struct pmbench_pmrun *ps = &x->states[pi];
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int ret = 0;

	if (strategy & S) {
		resolve_store(x, pi);
		if (pmbench_fs_exists(x->store[pi]))
			ret = add_tree(x, names, paths, x->store[pi]);
	}
	if (strategy & NM) {
		struct pmbench_strvec dirs = PMBENCH_STRVEC_INIT;

		if (!ret)
			ret = pmbench_fs_find_dirs(&dirs, ps->ws.run,
						   "node_modules");
		for (size_t i = 0; i < dirs.nr && !ret; i++) {
			pmbench_buf_reset(&b);
			pmbench_buf_path(&b, ps->ws.run, dirs.v[i]);
			ret = add_tree(x, names, paths, b.ptr);
		}
		for (const char *const *sp = ps->pm->state_paths; *sp && !ret;
		     sp++) {
			pmbench_buf_reset(&b);
			pmbench_buf_path(&b, ps->ws.run_project, *sp);
			if (pmbench_fs_exists(b.ptr))
				ret = add_tree(x, names, paths, b.ptr);
		}
		pmbench_strvec_release(&dirs);
	}
	pmbench_buf_release(&b);
	return ret;
}

static void to_maps(struct pmbench_cachearc_map *maps,
		    const struct pmbench_strvec *names,
		    const struct pmbench_strvec *paths)
{
	for (size_t i = 0; i < names->nr; i++) {
		maps[i].name = names->v[i];
		maps[i].path = paths->v[i];
	}
}

/*
 * Save the trees `names`/`paths` into `path` with the chosen archiver (in
 * process, or GNU tar as actions/cache runs it). `*ns` gets the save's
 * time.
 */
static int save_archive(struct pmbench_cachearc_stats *st, uint64_t *ns,
			const struct run *x, const struct pmbench_strvec *names,
			const struct pmbench_strvec *paths,
			const struct config *c, const char *path)
{
	struct pmbench_cachearc_map *maps = NULL;
	struct pmbench_buf dir = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_add(&dir, path, (size_t)(strrchr(path, '/') - path));
	ret = pmbench_fs_mkdirp(dir.ptr, 0755);
	if (!ret) {
		struct pmbench_cachearc_job job = {
			.archiver = x->o->archiver,
			.maps_nr = names->nr,
			.dir = x->work,
			.comp = &c->comp,
		};

		maps = pmbench_xcalloc(names->nr ? names->nr : 1,
				       sizeof(*maps));
		to_maps(maps, names, paths);
		job.maps = maps;
		ret = pmbench_cachearc_save(st, ns, path, &job);
	}
	free(maps);
	pmbench_buf_release(&dir);
	return ret;
}

/*
 * Restore `path` into the places `maps` name. `*ns` gets the restore's
 * time: with GNU tar the tar process only, as a CI job runs nothing
 * else; libarchive's check before it goes to `*check_ns`.
 */
static int restore_archive(struct pmbench_cachearc_stats *st, uint64_t *ns,
			   uint64_t *check_ns, const struct run *x,
			   const struct pmbench_cachearc_map *maps,
			   size_t maps_nr, const struct config *c,
			   const char *path)
{
	const struct pmbench_cachearc_job job = {
		.archiver = x->o->archiver,
		.maps = maps,
		.maps_nr = maps_nr,
		.dir = x->work,
		.comp = &c->comp,
	};
	int ret;

	for (size_t i = 0; i < maps_nr; i++)
		if (!maps[i].name)
			return pmbench_error_set("'%s' is not in pmbench's "
						 "cache folder",
						 maps[i].path);
	ret = pmbench_cachearc_restore(st, ns, path, &job);
	*check_ns = st->check_ns;
	return ret;
}

static void fail_sample(struct pmbench_sample *s, const char *fmt, ...)
	PMBENCH_PRINTF(2, 3);

static void fail_sample(struct pmbench_sample *s, const char *fmt, ...)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	pmbench_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	s->ok = 0;
	if (!s->exit_code)
		s->exit_code = -1;
	free(s->failure);
	s->failure = pmbench_buf_detach(&b);
}

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

static void save_result(const struct run *x)
{
	/* Nothing measured yet: an earlier file there stays as it is. */
	if (x->o->out && pmbench_result_has_samples(x->r) &&
	    pmbench_result_write(x->r, x->o->out) < 0)
		pmbench_ctx_warn(x->ctx, "%s (trying again at the end)",
				 pmbench_error_last());
}

/* What one job measured. */
struct job_measures {
	uint64_t setup_ns, setup_save_ns;
	uint64_t restore_ns, install_ns, save_ns, check_ns;
	double setup_bytes, setup_archive_bytes;
	double restore_bytes, archive_bytes, raw_bytes, files;
};

/*
 * Restore the miss job's archive (hit and lockfile-changed jobs). Returns
 * 0 to go on, 1 when the sample failed (`s` says why), or
 * PMBENCH_EINTERRUPTED.
 */
static int job_restore(struct job_measures *m, struct run *x, size_t pi,
		       size_t ci, struct pmbench_sample *s)
{
	const struct slot *slot = &x->slots[ci * x->nr + pi];
	const struct pmbench_pmrun *ps = &x->states[pi];
	const struct pmbench_cachearc_map maps[] = {
		{ work_rel(x, ps->ws.cache), ps->ws.cache },
		{ work_rel(x, ps->ws.run), ps->ws.run },
	};
	struct pmbench_cachearc_stats st;
	int ret;

	if (!slot->archive) {
		fail_sample(s, "no archive to restore: the miss job failed");
		return 1;
	}
	ret = restore_archive(&st, &m->restore_ns, &m->check_ns, x, maps,
			      PMBENCH_ARRAY_SIZE(maps), &x->configs[ci],
			      slot->archive);
	if (ret == PMBENCH_EINTERRUPTED) {
		fail_sample(s, "interrupted");
		return ret;
	}
	if (ret < 0) {
		fail_sample(s, "restore failed: %s", pmbench_error_last());
		return 1;
	}
	m->restore_bytes = (double)st.archive_bytes;
	return 0;
}

/*
 * Save the job's cache: the miss job's archive is the cache later jobs
 * restore, the others' are measured and discarded. Returns as
 * job_restore() does.
 */
static int job_save(struct job_measures *m, struct run *x, size_t pi, size_t ci,
		    enum job_kind kind, struct pmbench_sample *s)
{
	struct pmbench_pmrun *ps = &x->states[pi];
	const struct config *c = &x->configs[ci];
	struct slot *slot = &x->slots[ci * x->nr + pi];
	struct pmbench_cachearc_stats st;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_strvec names = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec paths = PMBENCH_STRVEC_INIT;
	int ret;

	archive_path(&b, ps, c, kind == JOB_MISS ? "" : "job-");
	/* The folder question is asked before the timed save. */
	ret = save_maps(&names, &paths, x, pi, c->strategy);
	if (!ret)
		ret = save_archive(&st, &m->save_ns, x, &names, &paths, c,
				   b.ptr);
	if (ret == PMBENCH_EINTERRUPTED) {
		fail_sample(s, "interrupted");
		goto done;
	}
	if (ret < 0) {
		fail_sample(s, "save failed: %s", pmbench_error_last());
		ret = 1;
		goto done;
	}
	m->archive_bytes = (double)st.archive_bytes;
	m->raw_bytes = (double)st.raw_bytes;
	m->files = (double)st.files;
	if (kind == JOB_MISS) {
		free(slot->archive);
		slot->archive = pmbench_xstrdup(b.ptr);
		slot->archive_bytes = st.archive_bytes;
	} else {
		pmbench_fs_discard(b.ptr, ps->ws.trash);
	}
done:
	pmbench_buf_release(&b);
	pmbench_strvec_release(&names);
	pmbench_strvec_release(&paths);
	return ret;
}

/* The PM's setup folder (its prefix and npm cache): beside the run copy. */
static void setup_root(struct pmbench_buf *out, const struct pmbench_pmrun *ps)
{
	pmbench_buf_path(out, ps->ws.root, "ci-setup");
}

/* The toolchain archive of the setup prefix, as one map. */
static void toolchain_map(struct pmbench_cachearc_map *map,
			  struct pmbench_buf *prefix, const struct run *x,
			  const struct pmbench_pmrun *ps)
{
	struct pmbench_buf root = PMBENCH_BUF_INIT;

	setup_root(&root, ps);
	pmbench_cisetup_prefix(prefix, root.ptr);
	map->path = prefix->ptr;
	map->name = work_rel(x, prefix->ptr);
	pmbench_buf_release(&root);
}

/*
 * The setup step with the toolchain strategy, after the miss job: the
 * prefix the miss job installed, restored from its archive into a fresh
 * setup folder. Returns as job_restore() does.
 */
static int toolchain_restore(struct job_measures *m, const struct run *x,
			     const struct pmbench_pmrun *ps,
			     const struct config *c, const struct slot *slot,
			     struct pmbench_sample *s)
{
	struct pmbench_buf prefix = PMBENCH_BUF_INIT, root = PMBENCH_BUF_INIT;
	struct pmbench_cachearc_map map;
	struct pmbench_cachearc_stats st;
	uint64_t check_ns = 0;
	int ret = 1;

	if (!slot->toolchain) {
		fail_sample(s, "no toolchain archive to restore: the miss job "
			       "failed");
		goto done;
	}
	setup_root(&root, ps);
	toolchain_map(&map, &prefix, x, ps);
	ret = pmbench_fs_discard(root.ptr, ps->ws.trash);
	if (!ret)
		ret = pmbench_fs_mkdirp(prefix.ptr, 0755);
	if (!ret)
		ret = restore_archive(&st, &m->setup_ns, &check_ns, x, &map, 1,
				      c, slot->toolchain);
	if (ret == PMBENCH_EINTERRUPTED) {
		fail_sample(s, "interrupted");
	} else if (ret < 0) {
		fail_sample(s, "toolchain restore failed: %s",
			    pmbench_error_last());
		ret = 1;
	} else {
		m->setup_bytes = (double)st.archive_bytes;
	}
done:
	pmbench_buf_release(&prefix);
	pmbench_buf_release(&root);
	return ret;
}

/*
 * The job's first step, getting the PM as CI does (cisetup.c): nothing
 * for a preinstalled PM; with the toolchain strategy after the miss job,
 * its prefix restored; else the PM installed with npm. Returns as
 * job_restore() does.
 */
static int job_setup(struct job_measures *m, struct run *x, size_t pi,
		     size_t ci, enum job_kind kind, struct pmbench_sample *s)
{
	const struct pmbench_pmrun *ps = &x->states[pi];
	const struct config *c = &x->configs[ci];
	struct pmbench_buf root = PMBENCH_BUF_INIT, why = PMBENCH_BUF_INIT;
	int ret;

	if (pmbench_cisetup_preinstalled(ps->pm))
		return 0;
	if ((c->strategy & TC) && kind != JOB_MISS)
		return toolchain_restore(m, x, ps, c,
					 &x->slots[ci * x->nr + pi], s);
	setup_root(&root, ps);
	ret = pmbench_cisetup_install(&m->setup_ns, &why, ps, x->npm.path,
				      root.ptr, x->o->timeout_ns);
	if (ret == PMBENCH_EINTERRUPTED)
		fail_sample(s, "interrupted");
	else if (ret < 0)
		fail_sample(s, "setup failed: %s", pmbench_error_last());
	else if (ret > 0)
		fail_sample(s, "%s", why.ptr);
	pmbench_buf_release(&root);
	pmbench_buf_release(&why);
	return ret < 0 && ret != PMBENCH_EINTERRUPTED ? 1 : ret;
}

/*
 * The miss job of the toolchain strategy saves the setup's prefix, the
 * archive later jobs restore instead of installing the PM. Returns as
 * job_restore() does.
 */
static int toolchain_save(struct job_measures *m, struct run *x, size_t pi,
			  size_t ci, struct pmbench_sample *s)
{
	const struct pmbench_pmrun *ps = &x->states[pi];
	const struct config *c = &x->configs[ci];
	struct slot *slot = &x->slots[ci * x->nr + pi];
	struct pmbench_strvec names = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec paths = PMBENCH_STRVEC_INIT;
	struct pmbench_buf prefix = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;
	struct pmbench_cachearc_map map;
	struct pmbench_cachearc_stats st;
	int ret;

	toolchain_map(&map, &prefix, x, ps);
	pmbench_strvec_push(&names, map.name ? map.name : "");
	pmbench_strvec_push(&paths, map.path);
	archive_path(&b, ps, c, "toolchain-");
	ret = map.name ? save_archive(&st, &m->setup_save_ns, x, &names, &paths,
				      c, b.ptr)
		       : pmbench_error_set("'%s' is not in pmbench's cache "
					   "folder",
					   map.path);
	if (ret == PMBENCH_EINTERRUPTED) {
		fail_sample(s, "interrupted");
	} else if (ret < 0) {
		fail_sample(s, "toolchain save failed: %s",
			    pmbench_error_last());
		ret = 1;
	} else {
		m->setup_archive_bytes = (double)st.archive_bytes;
		free(slot->toolchain);
		slot->toolchain = pmbench_buf_detach(&b);
	}
	pmbench_strvec_release(&names);
	pmbench_strvec_release(&paths);
	pmbench_buf_release(&prefix);
	pmbench_buf_release(&b);
	return ret;
}

/* The job's wall time and metrics into `s`. */
static void job_metrics(struct pmbench_sample *s, const struct job_measures *m,
			const struct run *x, const struct config *c,
			enum job_kind kind)
{
	const double bw = x->o->bandwidth;
	double download_s = (m->restore_bytes + m->setup_bytes) / bw;
	double upload_s = (m->archive_bytes + m->setup_archive_bytes) / bw;
	uint64_t saves_ns = m->save_ns + m->setup_save_ns;

	s->wall_ns = m->setup_ns + m->restore_ns + m->install_ns + saves_ns;
	pmbench_sample_metric_set(s, "setup_s", secs(m->setup_ns));
	if (c->strategy & TC) {
		pmbench_sample_metric_set(s, "setup_bytes", m->setup_bytes);
		pmbench_sample_metric_set(s, "setup_save_s",
					  secs(m->setup_save_ns));
		pmbench_sample_metric_set(s, "setup_archive_bytes",
					  m->setup_archive_bytes);
	}
	pmbench_sample_metric_set(s, "restore_s", secs(m->restore_ns));
	if (pmbench_cachearc_checks_first(x->o->archiver) &&
	    (c->strategy & CACHES) && kind != JOB_MISS)
		pmbench_sample_metric_set(s, "restore_check_s",
					  secs(m->check_ns));
	pmbench_sample_metric_set(s, "install_s", secs(m->install_ns));
	pmbench_sample_metric_set(s, "save_s", secs(m->save_ns));
	pmbench_sample_metric_set(s, "archive_bytes", m->archive_bytes);
	pmbench_sample_metric_set(s, "raw_bytes", m->raw_bytes);
	pmbench_sample_metric_set(s, "files_count", m->files);
	pmbench_sample_metric_set(s, "restore_bytes", m->restore_bytes);
	pmbench_sample_metric_set(s, "download_s", download_s);
	pmbench_sample_metric_set(s, "upload_s", upload_s);
	pmbench_sample_metric_set(s, "transfer_total_s",
				  secs(s->wall_ns) + download_s + upload_s);
	/* The toolchain's key (the PM's version) misses only once. */
	pmbench_sample_metric_set(
		s, "keyed_total_s",
		download_s + secs(m->setup_ns + m->restore_ns + m->install_ns) +
			(kind == JOB_HIT ? 0 : secs(saves_ns) + upload_s));
}

/*
 * A progress report of kind `pk` about `pm`'s job of config c's `kind`,
 * as bench's: its group ("proj · ci-cache · store/zstd-3", named into
 * `group`), jobs done of planned, and under a budget the plan's ETA of
 * the whole command.
 */
static struct pmbench_progress
progress_of(const struct run *x, const struct config *c, enum job_kind kind,
	    enum pmbench_progress_kind pk, const char *pm,
	    struct pmbench_buf *group)
{
	struct pmbench_progress p;
	uint64_t now = pmbench_now_ns();

	memset(&p, 0, sizeof(p));
	pmbench_buf_addf(group, "%s · %s · ", x->f->name, TASK);
	scenario_of(group, c, kind);
	p.kind = pk;
	p.group = group->ptr;
	p.pm = pm;
	p.done = c->done[kind];
	p.total = c->total[kind];
	if (x->end_at > now)
		p.eta_s = (double)(x->end_at - now) / 1e9;
	return p;
}

/* Say how the job went. */
static void job_event(const struct run *x, const struct pmbench_pmrun *ps,
		      const struct config *c, enum job_kind kind,
		      unsigned round, const struct pmbench_sample *s,
		      const struct job_measures *m)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT, g = PMBENCH_BUF_INIT;
	struct pmbench_progress p = progress_of(
		x, c, kind, PMBENCH_PROGRESS_EVENT, ps->pm->name, &g);

	p.seconds = s->ok ? secs(s->wall_ns) : -1;
	scenario_of(&b, c, kind);
	if (s->ok)
		pmbench_ctx_report(x->ctx, &p,
				   "%s %s %s round %u: setup %.2f s, restore "
				   "%.2f s, install %.2f s, save %.2f s, "
				   "archive %.2f MB",
				   x->f->name, ps->pm->name, b.ptr, round + 1,
				   secs(m->setup_ns), secs(m->restore_ns),
				   secs(m->install_ns), secs(m->save_ns),
				   m->archive_bytes / 1e6);
	else
		pmbench_ctx_report(x->ctx, &p, "%s %s %s round %u failed: %s",
				   x->f->name, ps->pm->name, b.ptr, round + 1,
				   s->failure);
	pmbench_buf_release(&b);
	pmbench_buf_release(&g);
}

/*
 * The job's fresh checkout with the primed lockfile (and, for the
 * lockfile-changed job, one dependency changed): 0, or 1 when it failed
 * (the sample says why).
 */
static int job_checkout(struct run *x, struct pmbench_pmrun *ps,
			enum job_kind kind, struct pmbench_sample *s)
{
	struct pmbench_buf what = PMBENCH_BUF_INIT;
	int ret = 1;

	if (pmbench_workspace_prepare(&ps->ws, PMBENCH_STATE_LOCKFILE) < 0) {
		fail_sample(s, "cannot prepare the checkout: %s",
			    pmbench_error_last());
		goto done;
	}
	if (kind == JOB_CHANGED) {
		if (pmbench_change_dependency(&what, ps->ws.run_project) < 0) {
			fail_sample(s, "cannot change a dependency: %s",
				    pmbench_error_last());
			goto done;
		}
		if (!x->change)
			x->change = pmbench_xstrdup(what.ptr);
	}
	ret = 0;
done:
	pmbench_buf_release(&what);
	return ret;
}

/*
 * --scripts none or all confirmed by the job install's process tree, as
 * bench's runs are (scriptcheck.h): a job installs with its lockfile,
 * and with node_modules in place when a hit restored them.
 */
static void job_scripts_check(const struct pmbench_pmrun *ps,
			      const struct config *c, enum job_kind kind,
			      struct pmbench_sample *s)
{
	unsigned state = PMBENCH_STATE_LOCKFILE;

	if ((c->strategy & NM) && kind != JOB_MISS)
		state |= PMBENCH_STATE_NODE_MODULES;
	pmbench_scripts_check_sample(s, state, ps->scripts_choice,
				     &ps->script_packages);
}

/* The job's install (frozen, or not after the lockfile change), then save. */
static int job_install(struct job_measures *m, struct run *x, size_t pi,
		       size_t ci, enum job_kind kind, struct pmbench_sample *s)
{
	struct pmbench_pmrun *ps = &x->states[pi];
	const struct config *c = &x->configs[ci];
	struct pmbench_child child = PMBENCH_CHILD_INIT;
	int ret;

	ret = pmbench_pmrun_exec(
		ps, kind == JOB_CHANGED ? &ps->command : &x->frozen[pi],
		ps->ws.run_project, x->o->timeout_ns, s, &child);
	if (ret < 0)
		goto done; /* interrupted: pmbench_pmrun_exec() says so */
	m->install_ns = s->wall_ns;
	if (!s->ok)
		goto done;
	pmbench_pmrun_measure_node_modules(ps, s);
	job_scripts_check(ps, c, kind, s);
	if (c->strategy & CACHES)
		ret = job_save(m, x, pi, ci, kind, s);
	if (!ret && (c->strategy & TC) && kind == JOB_MISS &&
	    !pmbench_cisetup_preinstalled(ps->pm))
		ret = toolchain_save(m, x, pi, ci, s);
	if (ret > 0)
		ret = 0;
done:
	pmbench_child_release(&child);
	return ret;
}

/*
 * One simulated CI job: a fresh checkout with the primed lockfile and an
 * empty cache, restore (hit and lockfile-changed jobs), install (frozen,
 * or not after the lockfile change), save.
 */
static int one_job(struct run *x, size_t pi, size_t ci, enum job_kind kind,
		   unsigned round, struct pmbench_sample *s)
{
	struct pmbench_pmrun *ps = &x->states[pi];
	const struct config *c = &x->configs[ci];
	struct job_measures m = { 0 };
	int ret = 0;

	s->round = round;
	if (job_checkout(x, ps, kind, s))
		goto done;
	ret = job_setup(&m, x, pi, ci, kind, s);
	if (ret) {
		ret = ret < 0 ? ret : 0;
		goto done;
	}
	if ((c->strategy & CACHES) && kind != JOB_MISS) {
		ret = job_restore(&m, x, pi, ci, s);
		if (ret) {
			ret = ret < 0 ? ret : 0;
			goto done;
		}
	}
	ret = job_install(&m, x, pi, ci, kind, s);
done:
	if (pmbench_ctx_cancelled(x->ctx)) {
		/*
		 * A signal during the job (an archive step may have failed
		 * with EINTR): the job is interrupted, not failed.
		 */
		if (!s->interrupted)
			pmbench_sample_stopped(s, x->ctx);
		ret = PMBENCH_EINTERRUPTED;
	}
	job_metrics(s, &m, x, c, kind);
	if (ret == 0) {
		x->configs[ci].done[kind]++;
		job_event(x, ps, c, kind, round, s, &m);
	}
	return ret;
}

static void fill_cell(struct pmbench_cell *cell, const struct pmbench_pmrun *ps,
		      const struct pmbench_strvec *argv)
{
	pmbench_pmrun_describe_cell(cell, ps);
	for (size_t i = 0; i < argv->nr; i++)
		pmbench_strvec_push(&cell->command, argv->v[i]);
	PMBENCH_PMRUN_ENV_RECORD(&cell->env, ps);
}

/*
 * The budget of a run (--runs N aside): a group of rounds per config,
 * its hit jobs, judged PM against the baseline (the first PM primed) as
 * bench judges a scenario's.
 */
struct budget {
	unsigned *rounds;   /* hit rounds of each config */
	uint64_t *turn_ns;  /* configs_nr * nr: each PM's last job */
	uint64_t *first_ns; /* per config: its miss job and first hit round */
	uint64_t *min_ns;   /* per config: its hit rounds to the minimum */
	uint64_t *tail_ns;  /* per config: its lockfile-changed job, about */
	struct pmbench_schedule_cell *cells; /* configs_nr * nr */
	/* configs_nr * nr: what each PM's last hit job left in the trash */
	struct pmbench_trash_need *trash;
	uint64_t primed_ns; /* the budget's time before the first job */
	double overrun;	    /* the extra rounds' wall over their estimate */
	size_t base;	    /* the baseline's index */
	struct pmbench_trash_tally tally; /* the trash emptied between them */
};

/* A PM's job took `ns` (its checkout, restore, install and save). */
static void budget_turn(struct run *x, size_t ci, size_t pi, uint64_t ns)
{
	if (x->b)
		x->b->turn_ns[ci * x->nr + pi] = ns;
}

/* What the rounds of one kind of job share. */
struct jobs {
	struct run *x;
	size_t ci;
	enum job_kind kind;
	const char *scenario;
	const size_t *who; /* the PMs of the rounds (NULL: all) */
};

/*
 * What PM i's job (of `j`) left in the trash since `before`: on its
 * sample (the metrics trash_bytes and trash_files_count, as bench's
 * runs), and for a hit job in the budget's plan of the trash. The job's
 * archive, its restored cache and node_modules are moved to the trash by
 * the next job's reset, so what the file system lost over the job is
 * what the trash will hold (as bench.c's turn()).
 */
static void job_trash(struct run *x, const struct jobs *j, size_t i,
		      const struct pmbench_fs_trash_room *before)
{
	struct pmbench_trash_need t = { 0, 0 };
	struct pmbench_cell *cell;

	if (!before->avail_bytes)
		return;
	pmbench_trash_took(&t, before, x->ctx, 1);
	cell = pmbench_result_find_cell(x->r, x->f->name, TASK, j->scenario,
					x->states[i].pm->name);
	if (cell && cell->samples_nr) {
		struct pmbench_sample *s = &cell->samples[cell->samples_nr - 1];

		pmbench_sample_metric_set(s, "trash_bytes", (double)t.bytes);
		pmbench_sample_metric_set(s, "trash_files_count",
					  (double)t.files);
	}
	if (j->kind == JOB_HIT)
		x->b->trash[j->ci * x->nr + i] = t;
}

static int job_turn(size_t k, const struct pmbench_round *round, void *payload)
{
	struct jobs *j = payload;
	struct run *x = j->x;
	size_t i = j->who ? j->who[k] : k;
	struct pmbench_cell *cell;
	struct pmbench_sample *s;
	uint64_t t0 = pmbench_now_ns();
	struct pmbench_buf g = PMBENCH_BUF_INIT;
	struct pmbench_fs_trash_room room;
	struct pmbench_progress p;
	int ret;

	if (x->states[i].prime_failure)
		return 0;
	p = progress_of(x, &x->configs[j->ci], j->kind, PMBENCH_PROGRESS_STATUS,
			x->states[i].pm->name, &g);
	pmbench_ctx_report(x->ctx, &p, "%s: %s %s %u/%u", x->f->name,
			   j->scenario, x->states[i].pm->name, round->nth,
			   round->of);
	pmbench_buf_release(&g);
	/* The cell array grows: never keep pointers. */
	cell = pmbench_result_find_cell(x->r, x->f->name, TASK, j->scenario,
					x->states[i].pm->name);
	s = pmbench_cell_add_sample(cell);
	memset(&room, 0, sizeof(room));
	if (x->b)
		pmbench_trash_snap(&room, x->ctx);
	ret = one_job(x, i, j->ci, j->kind, round->number, s);
	budget_turn(x, j->ci, i, pmbench_now_ns() - t0);
	if (x->b)
		job_trash(x, j, i, &room);
	return ret;
}

/* How many of the `n` PMs of `who` (NULL: all) were primed. */
static unsigned primed(const struct run *x, const size_t *who, size_t n)
{
	unsigned k = 0;

	for (size_t i = 0; i < n; i++)
		k += !x->states[who ? who[i] : i].prime_failure;
	return k;
}

/*
 * Run `kind` jobs of config `ci` for `rounds` rounds numbered from
 * `first_round`, PMs interleaved and rotating as in bench: the `n` PMs of
 * `who`, or all (NULL). `waited` (or NULL) gets the file-system wait.
 */
static int run_jobs(struct run *x, size_t ci, enum job_kind kind,
		    unsigned first_round, unsigned rounds, const size_t *who,
		    size_t n, uint64_t *waited)
{
	struct pmbench_buf sc = PMBENCH_BUF_INIT;
	struct pmbench_schedule s = PMBENCH_SCHEDULE_INIT;
	struct jobs j;
	int ret;

	scenario_of(&sc, &x->configs[ci], kind);
	/* The budget's later rounds add samples to the cells made first. */
	if (pmbench_strvec_find(&x->r->scenarios, sc.ptr) < 0) {
		pmbench_strvec_push(&x->r->scenarios, sc.ptr);
		for (size_t i = 0; i < x->nr; i++)
			fill_cell(pmbench_result_add_cell(
					  x->r, x->f->name, TASK, sc.ptr,
					  x->states[i].pm->name),
				  &x->states[i],
				  kind == JOB_CHANGED ? &x->states[i].command
						      : &x->frozen[i]);
	}
	x->configs[ci].total[kind] += rounds * primed(x, who, who ? n : x->nr);
	j.x = x;
	j.ci = ci;
	j.kind = kind;
	j.scenario = sc.ptr;
	j.who = who;
	s.ctx = x->ctx;
	s.result = x->r;
	s.nr = who ? n : x->nr;
	s.runs = rounds;
	s.first_round = first_round;
	s.turn = job_turn;
	s.payload = &j;
	s.waited_ns = waited;
	ret = pmbench_schedule_run(&s);
	pmbench_buf_release(&sc);
	return ret;
}

/*
 * Name the archiver, its version and the exact commands of each
 * compression. GNU tar and zstd must be there before anything runs.
 */
static int record_archiver(struct pmbench_result *r,
			   const struct pmbench_cicache_opts *o)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT, key = PMBENCH_BUF_INIT;
	struct pmbench_buf name = PMBENCH_BUF_INIT;
	struct pmbench_buf restore = PMBENCH_BUF_INIT;
	int ret;

	pmbench_result_env_set(r, "ci_cache_archiver",
			       pmbench_cachearc_archiver_name(o->archiver));
	ret = pmbench_cachearc_archiver_version(
		&b, o->archiver, o->compressions, o->compressions_nr);
	if (!ret)
		pmbench_result_env_set(r, "ci_cache_archiver_version", b.ptr);
	for (size_t i = 0; i < o->compressions_nr && !ret; i++) {
		const struct pmbench_cachearc_compression *c =
			&o->compressions[i];

		pmbench_buf_reset(&name);
		pmbench_cachearc_name(&name, c);
		pmbench_buf_reset(&b);
		pmbench_buf_reset(&restore);
		pmbench_cachearc_describe(&b, &restore, o->archiver, c);
		pmbench_buf_reset(&key);
		pmbench_buf_addf(&key, "ci_cache_save_command_%s", name.ptr);
		pmbench_result_env_set(r, key.ptr, b.ptr);
		pmbench_buf_reset(&key);
		pmbench_buf_addf(&key, "ci_cache_restore_command_%s", name.ptr);
		pmbench_result_env_set(r, key.ptr, restore.ptr);
	}
	pmbench_buf_release(&b);
	pmbench_buf_release(&key);
	pmbench_buf_release(&name);
	pmbench_buf_release(&restore);
	return ret;
}

static int record(struct pmbench_result *r,
		  const struct pmbench_cicache_opts *o)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < o->pms.nr; i++)
		pmbench_strvec_push(&r->pms, o->pms.v[i]);
	pmbench_strvec_push(&r->tasks, TASK);
	r->runs = o->runs;
	if (o->runs_auto)
		pmbench_schedule_record(r, &o->budget);
	r->warmup = 0;
	r->timeout_ns = o->timeout_ns;
	r->seed = 1;
	pmbench_buf_addf(&b, "%.0f", o->bandwidth);
	pmbench_result_env_set(r, "ci_cache_bandwidth_bytes_per_s", b.ptr);
	pmbench_result_env_set(
		r, "ci_cache_model",
		"a job restores the miss job's archive (download modelled "
		"as archive bytes / bandwidth before the restore), installs "
		"in frozen-lockfile mode, saves a new archive (upload "
		"modelled after it); transfer_total_s counts both "
		"transfers on every job, keyed_total_s skips the save and "
		"upload on a hit (an exact cache-key match, as "
		"actions/cache does)");
	pmbench_result_env_set(
		r, "ci_cache_store",
		"the folder actions/setup-node caches for the PM (the answer "
		"to the PM's own store question; without "
		"one, the folder its cache variable names), per PM in "
		"ci_cache_store_<pm>");
	pmbench_result_env_set(
		r, "ci_cache_node_modules",
		"every node_modules folder of the project and the PM's "
		"install-state files; store+node_modules is one archive, so "
		"hard links between them (content-addressed stores) "
		"survive");
	pmbench_result_env_set(
		r, "ci_cache_names",
		"archive entries are named relative to pmbench's cache folder "
		"(pm/<pm>/..., work/<fixture>/<pm>/run/...), as actions/cache "
		"names them relative to GITHUB_WORKSPACE");
	pmbench_buf_release(&b);
	return record_archiver(r, o);
}

/*
 * Before the mirror is sealed: how each PM's setup step gets it, in the
 * environment, and that setup once, untimed, so that the mirror holds
 * what a job's setup fetches (a failure warns; every job's setup then
 * fails with its reason).
 */
static int prime_setup(struct run *x, struct pmbench_pmrun *ps)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT, key = PMBENCH_BUF_INIT;
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	uint64_t ns;
	int ret = 0;

	pmbench_cisetup_describe(&b, ps);
	pmbench_buf_addf(&key, "ci_cache_setup_%s", ps->pm->name);
	pmbench_result_env_set(x->r, key.ptr, b.ptr);
	if (!pmbench_cisetup_preinstalled(ps->pm) && !ps->prime_failure) {
		pmbench_buf_reset(&b);
		setup_root(&b, ps);
		/* pmbench's own set-up, as the priming install: not CI. */
		ps->priming = 1;
		ret = pmbench_cisetup_install(&ns, &why, ps, x->npm.path, b.ptr,
					      x->o->timeout_ns);
		ps->priming = 0;
		if (ret > 0)
			pmbench_ctx_warn(x->ctx, "%s: %s", ps->pm->name,
					 why.ptr);
		ret = ret > 0 ? 0 : ret;
	}
	pmbench_buf_release(&b);
	pmbench_buf_release(&key);
	pmbench_buf_release(&why);
	return ret;
}

/* npm, which installs every other PM in the setup step, if one needs it. */
static int find_npm(struct run *x)
{
	struct pmbench_buf scratch = PMBENCH_BUF_INIT;
	int need = 0, ret = 0;

	for (size_t i = 0; i < x->nr; i++)
		need |= !pmbench_cisetup_preinstalled(x->states[i].pm);
	if (!need)
		return 0;
	pmbench_buf_path(&scratch, x->ctx->cache_dir, "tmp");
	ret = pmbench_pm_find(&x->npm, x->ctx, pmbench_pm_get("npm"),
			      getenv("PATH"), scratch.ptr);
	if (ret < 0)
		ret = pmbench_error_set("ci-cache's setup step installs the "
					"PMs with npm: %s",
					pmbench_error_last());
	pmbench_buf_release(&scratch);
	return ret;
}

/* Every config's jobs in turn, `--runs N` hit rounds each. */
static int fixed_jobs(struct run *x)
{
	const struct pmbench_cicache_opts *o = x->o;
	int ret = 0;

	for (size_t ci = 0; ci < x->configs_nr && !ret; ci++) {
		unsigned first = x->configs[ci].strategy ? 1 : 0;

		if (first)
			ret = run_jobs(x, ci, JOB_MISS, 0, 1, NULL, 0, NULL);
		if (!ret)
			ret = run_jobs(x, ci, JOB_HIT, first, o->runs, NULL, 0,
				       NULL);
		if (!ret && o->lockfile_changed)
			ret = run_jobs(x, ci, JOB_CHANGED, o->runs + 1, 1, NULL,
				       0, NULL);
		save_result(x);
	}
	return ret;
}

/* The budget's time spent so far: the whole command's, waits included. */
static uint64_t budget_used(const struct run *x)
{
	return pmbench_now_ns() - x->start_ns;
}

/*
 * Rounds of config ci's `kind` jobs, timed without the file system's
 * wait before them (which the budget pays, as it is the wall's).
 */
static int budget_rounds(struct run *x, size_t ci, enum job_kind kind,
			 unsigned first, unsigned rounds, const size_t *who,
			 size_t n, uint64_t *ns)
{
	uint64_t w = 0, t0 = pmbench_now_ns();
	int ret = run_jobs(x, ci, kind, first, rounds, who, n, &w);

	*ns = pmbench_now_ns() - t0 - w;
	save_result(x);
	return ret;
}

/*
 * Every config's first jobs: the miss job (not for "none") and the first
 * hit round, their cost measured; the lockfile-changed job costs about
 * what the miss job did (a whole install), for "none" a hit round.
 */
static int budget_first(struct run *x)
{
	struct budget *b = x->b;
	int ret = 0;

	b->primed_ns = budget_used(x);
	for (size_t ci = 0; ci < x->configs_nr && !ret; ci++) {
		uint64_t miss = 0, hit = 0;
		unsigned first = x->configs[ci].strategy ? 1 : 0;

		if (first)
			ret = budget_rounds(x, ci, JOB_MISS, 0, 1, NULL, 0,
					    &miss);
		if (!ret)
			ret = budget_rounds(x, ci, JOB_HIT, first, 1, NULL, 0,
					    &hit);
		b->rounds[ci] = 1;
		b->first_ns[ci] = miss + hit;
		b->min_ns[ci] = hit;
		if (x->o->lockfile_changed)
			b->tail_ns[ci] = first ? miss : hit;
	}
	return ret;
}

/* The number of config ci's next hit round (after its miss job's 0). */
static unsigned next_round(const struct run *x, size_t ci)
{
	return (x->configs[ci].strategy ? 1 : 0) + x->b->rounds[ci];
}

/* Config ci's costs as measured: a hit round from its rounds so far. */
static struct pmbench_schedule_costs budget_costs(const struct run *x,
						  size_t ci)
{
	const struct budget *b = x->b;

	return (struct pmbench_schedule_costs){
		.round_ns = b->rounds[ci] ? b->min_ns[ci] / b->rounds[ci] : 0,
		.first_ns = b->first_ns[ci],
		.done = b->rounds[ci],
		.min = x->o->budget.min_runs,
		.max = x->o->budget.max_runs
	};
}

/* The lockfile-changed jobs still to run, about. */
static uint64_t budget_tail(const struct run *x)
{
	uint64_t tail = 0;

	for (size_t ci = 0; ci < x->configs_nr; ci++)
		tail += x->b->tail_ns[ci];
	return tail;
}

/*
 * What a hit round of config ci leaves in the trash: its PMs' jobs, the
 * `n` of `who` (NULL: every primed one).
 */
static struct pmbench_trash_need round_trash(const struct run *x, size_t ci,
					     const size_t *who, size_t n)
{
	struct pmbench_trash_need t = { 0, 0 };

	for (size_t k = 0; k < (who ? n : x->nr); k++) {
		size_t i = who ? who[k] : k;

		if (x->states[i].prime_failure)
			continue;
		t.bytes += x->b->trash[ci * x->nr + i].bytes;
		t.files += x->b->trash[ci * x->nr + i].files;
	}
	return t;
}

/*
 * Before `rounds` hit rounds of config ci (by the `n` PMs of `who`;
 * NULL: all): the trash emptied now if it cannot hold them, rather than
 * by a job's reset within them, as bench's make_room(). Its time, and
 * the file system's wait after it (the rounds' schedule waits), are the
 * budget's, as the plan foresaw (budget_estimate()).
 */
static int make_room(struct run *x, size_t ci, unsigned rounds,
		     const size_t *who, size_t n)
{
	struct pmbench_trash_need need = round_trash(x, ci, who, n);
	int ret = pmbench_trash_make_room(x->ctx, &need, rounds,
					  x->configs[ci].label, &x->b->tally);

	return ret < 0 ? ret : 0;
}

/*
 * Whether a further hit round of config ci by the `n` PMs of `who`,
 * `est_ns` by its jobs, fits in `left_ns` with the trash's emptying it
 * needs first, if any (pmbench_trash_round_fits()).
 */
static int room_fits(const struct run *x, size_t ci, const size_t *who,
		     size_t n, uint64_t est_ns, uint64_t left_ns)
{
	struct pmbench_trash_need need = round_trash(x, ci, who, n);

	return pmbench_trash_round_fits(x->ctx, &need, est_ns, x->b->overrun,
					left_ns);
}

/* Config ci's hit round by the PMs `runs` marks (pmbench_trash_round_fn). */
static struct pmbench_trash_need config_trash(void *payload, size_t ci,
					      const int *runs)
{
	const struct run *x = payload;
	size_t *who = pmbench_xcalloc(x->nr ? x->nr : 1, sizeof(*who)), n = 0;
	struct pmbench_trash_need t;

	for (size_t i = 0; i < x->nr; i++)
		if (runs[i])
			who[n++] = i;
	t = round_trash(x, ci, who, n);
	free(who);
	return t;
}

/*
 * What the further rounds of `need_ns` leave in the trash: each
 * config's hit rounds as the cells need them, by the PMs that take part
 * in them (pmbench_trash_pace_of(), as bench's further_pace()); not
 * known (ns 0) when need_ns is not.
 */
static struct pmbench_trash_pace further_pace(struct run *x, uint64_t need_ns)
{
	return pmbench_trash_pace_of(x->b->cells, x->configs_nr, x->nr,
				     x->b->rounds, &x->o->budget, need_ns,
				     config_trash, x);
}

/*
 * The allocation's view of every config's PMs (hit cells) after
 * `rounds` hit rounds of each (NULL: as many as ran), as they are or,
 * before the minimum ran, as `prior` predicts them (prior.h); with
 * `rounds` NULL and a `prior`, the estimates' view as the rounds run
 * (pmbench_prior_judge_now()). Returns the weakest source of a cell's
 * prediction.
 */
static enum pmbench_prior_source budget_cells_of(struct run *x,
						 const unsigned *rounds,
						 struct pmbench_prior *prior)
{
	struct budget *b = x->b;
	struct pmbench_buf sc = PMBENCH_BUF_INIT;
	const char *base = x->states[b->base].pm->name;
	enum pmbench_prior_source src = PMBENCH_PRIOR_SETTLED;

	for (size_t ci = 0; ci < x->configs_nr; ci++) {
		unsigned n = rounds ? rounds[ci] : b->rounds[ci];

		pmbench_buf_reset(&sc);
		scenario_of(&sc, &x->configs[ci], JOB_HIT);
		for (size_t i = 0; i < x->nr; i++) {
			struct pmbench_schedule_cell *c =
				&b->cells[ci * x->nr + i];
			struct pmbench_cell *cell = pmbench_result_find_cell(
				x->r, x->f->name, TASK, sc.ptr,
				x->states[i].pm->name);
			struct pmbench_cell *bc = pmbench_result_find_cell(
				x->r, x->f->name, TASK, sc.ptr, base);
			double most = -1;

			memset(c, 0, sizeof(*c));
			c->group = ci;
			c->baseline = i == b->base;
			uint64_t seed =
				x->r->seed +
				(cell ? (size_t)(cell - x->r->cells) : 0);

			if (prior && rounds) {
				enum pmbench_prior_source s =
					pmbench_prior_judge(
						c, &most, prior, cell, bc, n,
						x->o->budget.margin);

				if (s < src)
					src = s;
			} else if (prior) {
				pmbench_prior_judge_now(c, &most, prior, cell,
							bc, n,
							x->o->budget.margin,
							x->o->budget.target,
							seed);
			} else {
				pmbench_schedule_judge(c, &most, cell, bc, n,
						       x->o->budget.margin,
						       seed);
			}
			c->cost_ns = b->turn_ns[ci * x->nr + i];
		}
	}
	pmbench_buf_release(&sc);
	return src;
}

static void budget_cells(struct run *x)
{
	budget_cells_of(x, NULL, NULL);
}

/* The estimates' view as the rounds run (the prior's spread pooled). */
static void estimate_cells(struct run *x)
{
	budget_cells_of(x, NULL, x->ctx->prior);
}

/* The cells at the prior's pick, and the further rounds they need. */
static enum pmbench_prior_source
view_judge(void *payload, struct pmbench_prior *p, uint64_t *need_ns)
{
	struct run *x = payload;
	size_t cn = x->configs_nr;
	unsigned *rounds = pmbench_xcalloc(cn ? cn : 1, sizeof(*rounds));
	enum pmbench_prior_source src;

	for (size_t ci = 0; ci < cn; ci++)
		rounds[ci] = x->b->rounds[ci] > x->o->budget.min_runs
				     ? x->b->rounds[ci]
				     : x->o->budget.min_runs;
	src = budget_cells_of(x, rounds, p);
	*need_ns = pmbench_schedule_need_ns(x->b->cells, cn * x->nr, rounds, cn,
					    0, &x->o->budget);
	free(rounds);
	return src;
}

static struct pmbench_trash_pace view_pace(void *payload, uint64_t need_ns)
{
	return further_pace(payload, need_ns);
}

/*
 * After every config's first hit round: the time the further rounds
 * will need as this machine's earlier results predict (prior.h), the
 * mean over the picks of the same pairs' spreads
 * (pmbench_prior_expect()), UINT64_MAX when none says; `src` the
 * weakest source, `pairs` the machine's, `pace` what those rounds leave
 * in the trash (the mean too).
 */
static uint64_t prior_need(struct run *x, enum pmbench_prior_source *src,
			   size_t *pairs, struct pmbench_trash_pace *pace)
{
	static const struct pmbench_prior_view view = { view_judge, view_pace };
	struct pmbench_prior none = PMBENCH_PRIOR_INIT;
	struct pmbench_prior *p = x->ctx->prior ? x->ctx->prior : &none;
	uint64_t need = pmbench_prior_expect(p, &view, x, src, pace);

	*pairs = p->pairs;
	return need;
}

/*
 * The plan from what the rounds cost so far, with the trash's emptyings
 * it foresees (bench's budget_plan(): the minimum's are part of it, the
 * further rounds' off what is left for them), said (`when`: see bench).
 * `further` is what the further rounds of `need_ns` leave (NULL: as the
 * cells need them, further_pace()).
 */
static void budget_estimate(struct run *x, const char *when, uint64_t need_ns,
			    const struct pmbench_trash_pace *further, int prior,
			    size_t pairs)
{
	struct pmbench_buf pw = PMBENCH_BUF_INIT, also = PMBENCH_BUF_INIT;
	struct budget *b = x->b;
	size_t cn = x->configs_nr;
	struct pmbench_schedule_costs *costs =
		pmbench_xcalloc(cn ? cn : 1, sizeof(*costs));
	struct pmbench_trash_need *need =
		pmbench_xcalloc(cn + 1, sizeof(*need));
	const char **words =
		pmbench_xcalloc(3 * cn + x->nr + 1, sizeof(*words));
	const char **labels = words + 2 * cn + x->nr;
	struct pmbench_schedule_names n = { .labels = words,
					    .groups = words + cn,
					    .group_option = "--strategy",
					    .pms = words + 2 * cn,
					    .pms_nr = x->nr,
					    .base = b->base,
					    .pm_ns = b->turn_ns,
					    .fixed_ns = b->primed_ns };
	struct pmbench_trash_pace pace = further ? *further
						 : further_pace(x, need_ns);
	struct pmbench_fs_trash_room room;
	struct pmbench_trash_model m;
	struct pmbench_schedule_plan plan;
	struct pmbench_trash_plan tp;
	/* What runs after the rounds is reserved as if spent already. */
	uint64_t used = budget_used(x) + budget_tail(x), upto = 0;

	for (size_t ci = 0; ci < cn; ci++) {
		costs[ci] = budget_costs(x, ci);
		need[ci] = round_trash(x, ci, NULL, 0);
		words[ci] = x->configs[ci].label;
		words[cn + ci] =
			pmbench_cicache_strategy_name(x->configs[ci].strategy);
		labels[ci] = x->configs[ci].label;
	}
	labels[cn] = "the further rounds";
	for (size_t i = 0; i < x->nr; i++)
		words[2 * cn + i] = x->states[i].pm->name;
	pmbench_trash_now(&room, &m, x->ctx);
	if (prior) {
		pmbench_trash_plan_budget(&plan, &tp, costs, cn, need, NULL,
					  &room, &m, used,
					  x->o->budget.budget_ns, UINT64_MAX);
		upto = plan.end_ns;
	}
	pmbench_trash_plan_budget(&plan, &tp, costs, cn, need, &pace, &room, &m,
				  used, x->o->budget.budget_ns, need_ns);
	if (prior) {
		pmbench_schedule_prior_words(&pw, prior, pairs, plan.end_ns,
					     upto);
		n.prior = pw.ptr;
	}
	pmbench_trash_plan_words(&also, &tp, labels, cn + 1);
	n.also = also.ptr;
	x->end_at = x->start_ns + plan.end_ns;
	pmbench_schedule_say(x->ctx, when, &plan, plan.end_ns, costs, cn, &n,
			     &x->o->budget);
	pmbench_buf_release(&pw);
	pmbench_buf_release(&also);
	free(costs);
	free(need);
	free(words);
}

/* Every config's hit rounds up to the minimum. */
static int budget_min(struct run *x)
{
	struct budget *b = x->b;
	unsigned min = x->o->budget.min_runs;
	int ret = 0;

	for (size_t ci = 0; ci < x->configs_nr && !ret; ci++) {
		uint64_t ns = 0;

		if (b->rounds[ci] >= min)
			continue;
		ret = make_room(x, ci, min - b->rounds[ci], NULL, 0);
		if (!ret)
			ret = budget_rounds(x, ci, JOB_HIT, next_round(x, ci),
					    min - b->rounds[ci], NULL, 0, &ns);
		b->min_ns[ci] += ns;
		b->rounds[ci] = min;
	}
	return ret;
}

/* Further hit rounds where a verdict is open, while the budget lasts. */
static int budget_spend(struct run *x)
{
	struct budget *b = x->b;
	size_t *who = pmbench_xcalloc(x->nr, sizeof(*who));
	int ret = 0;

	while (!ret) {
		uint64_t used = budget_used(x) + budget_tail(x), est = 0, ns;
		uint64_t left = x->o->budget.budget_ns > used
					? x->o->budget.budget_ns - used
					: 0;
		long g;
		size_t n = 0;

		/* The ETA as the rounds run: as bench's (budget_eta()). */
		estimate_cells(x);
		x->end_at = pmbench_now_ns() + budget_tail(x) +
			    pmbench_schedule_eta_ns(b->cells,
						    x->configs_nr * x->nr,
						    b->rounds, x->configs_nr, 0,
						    &x->o->budget, b->overrun,
						    left);
		budget_cells(x);
		g = pmbench_schedule_allocate(
			b->cells, x->configs_nr * x->nr, b->rounds,
			x->configs_nr, 0, &x->o->budget,
			(uint64_t)((double)left / b->overrun));
		if (g < 0)
			break;
		for (size_t i = 0; i < x->nr; i++)
			if (b->cells[(size_t)g * x->nr + i].next) {
				who[n++] = i;
				est += b->cells[(size_t)g * x->nr + i].cost_ns;
			}
		/* An emptying of the trash it cannot pay for: stop here. */
		if (!room_fits(x, (size_t)g, who, n, est, left))
			break;
		ret = make_room(x, (size_t)g, 1, who, n);
		if (ret)
			break;
		ret = budget_rounds(x, (size_t)g, JOB_HIT,
				    next_round(x, (size_t)g), 1, who, n, &ns);
		if (est && (double)ns / (double)est > b->overrun)
			b->overrun = (double)ns / (double)est;
		b->rounds[g]++;
	}
	free(who);
	return ret;
}

/* Why each config's hit cells stopped adding rounds; the most rounds. */
static void budget_mark(struct run *x)
{
	struct budget *b = x->b;
	struct pmbench_buf sc = PMBENCH_BUF_INIT;

	budget_cells(x);
	for (size_t ci = 0; ci < x->configs_nr; ci++) {
		pmbench_buf_reset(&sc);
		scenario_of(&sc, &x->configs[ci], JOB_HIT);
		for (size_t i = 0; i < x->nr; i++) {
			struct pmbench_cell *cell = pmbench_result_find_cell(
				x->r, x->f->name, TASK, sc.ptr,
				x->states[i].pm->name);

			/* Stopped before its first hit round: none made. */
			if (!cell)
				continue;
			free(cell->stopped_by);
			cell->stopped_by = pmbench_xstrdup(
				pmbench_schedule_stop_name(pmbench_schedule_why(
					&b->cells[ci * x->nr + i],
					b->rounds[ci], &x->o->budget)));
		}
		if (b->rounds[ci] > x->r->runs)
			x->r->runs = b->rounds[ci];
	}
	pmbench_buf_release(&sc);
}

/*
 * The budget's jobs: every config's first jobs, the estimate (and the
 * warning when the minimum cannot fit), the hit rounds to the minimum,
 * the estimate again, the rounds the allocation gives, then every
 * config's lockfile-changed job.
 */
static int budget_run(struct run *x)
{
	struct budget *b = x->b;
	int ret = budget_first(x);

	if (!ret) {
		enum pmbench_prior_source src;
		struct pmbench_trash_pace pace;
		size_t pairs = 0;
		uint64_t need = prior_need(x, &src, &pairs, &pace);

		budget_estimate(x, "", need, need == UINT64_MAX ? NULL : &pace,
				src, pairs);
	}
	if (!ret)
		ret = budget_min(x);
	if (!ret) {
		estimate_cells(x);
		budget_estimate(x, " after the first rounds",
				pmbench_schedule_need_ns(
					b->cells, x->configs_nr * x->nr,
					b->rounds, x->configs_nr, 0,
					&x->o->budget),
				NULL, 0, 0);
		ret = budget_spend(x);
	}
	budget_mark(x);
	for (size_t ci = 0; ci < x->configs_nr && !ret; ci++) {
		uint64_t ns;

		if (!x->o->lockfile_changed)
			continue;
		/* A whole install: at least what a hit round leaves. */
		ret = make_room(x, ci, 1, NULL, 0);
		if (!ret)
			ret = budget_rounds(x, ci, JOB_CHANGED,
					    next_round(x, ci), 1, NULL, 0, &ns);
	}
	pmbench_trash_note_tally(x->r, &x->b->tally, "jobs");
	return ret;
}

/* The budget's state for the run's configs and PMs, then its jobs. */
static int budget_jobs(struct run *x)
{
	size_t cn = x->configs_nr ? x->configs_nr : 1;
	size_t cells = pmbench_st_mult(cn, x->nr ? x->nr : 1);
	struct budget b = { .overrun = 1 };
	int ret;

	b.rounds = pmbench_xcalloc(cn, sizeof(*b.rounds));
	b.turn_ns = pmbench_xcalloc(cells, sizeof(*b.turn_ns));
	b.first_ns = pmbench_xcalloc(cn, sizeof(*b.first_ns));
	b.min_ns = pmbench_xcalloc(cn, sizeof(*b.min_ns));
	b.tail_ns = pmbench_xcalloc(cn, sizeof(*b.tail_ns));
	b.cells = pmbench_xcalloc(cells, sizeof(*b.cells));
	b.trash = pmbench_xcalloc(cells, sizeof(*b.trash));
	while (b.base + 1 < x->nr && x->states[b.base].prime_failure)
		b.base++;
	x->b = &b;
	ret = budget_run(x);
	x->b = NULL;
	free(b.rounds);
	free(b.turn_ns);
	free(b.first_ns);
	free(b.min_ns);
	free(b.tail_ns);
	free(b.cells);
	free(b.trash);
	return ret;
}

/*
 * The CI install of `ps` into `out`: its binary, its CI arguments, the
 * arguments that tell it --scripts, the fixture's flags. The variables
 * that tell it (npm's and yarn 4's) are in its environment already
 * (pmbench_pmrun_compose()), which every job runs with; bun's list is in
 * the package.json of every copy (the priming's trust_scripts()).
 */
static void frozen_command(struct pmbench_strvec *out, const struct run *x,
			   const struct pmbench_pmrun *ps)
{
	pmbench_strvec_push(out, ps->found.path);
	pmbench_pm_push_install(out, ps->pm, 1, ps->ws.cache);
	pmbench_pm_push_scripts(out, NULL, ps->pm, ps->scripts_choice);
	pmbench_pmrun_fixture_flags(out, x->f, ps->pm);
}

/*
 * PM `i`'s workspace and commands for the fixture, its old archives
 * discarded, the mirror primed for its jobs.
 */
static int prepare_pm(struct run *x, size_t i)
{
	const struct pmbench_cicache_opts *o = x->o;
	struct pmbench_pmrun *ps = &x->states[i];
	struct pmbench_buf d = PMBENCH_BUF_INIT;
	int ret;

	pmbench_pmrun_reset(ps);
	pmbench_workspace_init(&ps->ws, ps->pm, x->ctx->cache_dir, x->f->name,
			       x->f->source_dir, x->f->subdir);
	ps->scripts_choice = o->scripts;
	/*
	 * Its jobs as on a runner; the frozen ones are told so anyway, and
	 * the lockfile-changed job resolves on purpose (for the lockfile a
	 * real pull request commits): pmbench's pins stay.
	 */
	ps->ci = o->ci ? PMBENCH_PMRUN_CI : 0;
	pmbench_pmrun_compose(ps, x->f, &o->env);
	frozen_command(&x->frozen[i], x, ps);
	/* Old archives of an earlier run must not be restored. */
	pmbench_buf_path(&d, ps->ws.root, "ci-cache");
	ret = pmbench_fs_discard(d.ptr, ps->ws.trash);
	pmbench_buf_release(&d);
	if (ret < 0)
		return ret;
	ret = pmbench_pmrun_prime(ps, o->timeout_ns);
	/* The lockfile-changed job fetches a release no priming did. */
	if (!ret && o->lockfile_changed)
		ret = pmbench_task_update_prime(ps, o->timeout_ns);
	if (!ret)
		ret = prime_setup(x, ps);
	return ret;
}

static int run_fixture(struct run *x)
{
	int ret;

	pmbench_ctx_status(x->ctx, "%s: checking out", x->f->name);
	ret = pmbench_fixture_checkout(x->f, x->ctx->cache_dir);
	if (ret < 0)
		return ret;
	pmbench_result_add_fixture(x->r, x->f->name, x->f->repo,
				   x->f->resolved_commit, x->f->subdir,
				   x->f->description);
	/* The mirror's uplink is live for priming only (registry.h). */
	ret = pmbench_registry_prime(x->ctx->registry, x->ctx);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < x->nr; i++) {
		ret = prepare_pm(x, i);
		if (ret < 0)
			return ret;
	}
	ret = pmbench_registry_seal(x->ctx->registry, x->ctx);
	if (ret < 0)
		return ret;
	/* What sealing learnt (the upstream's caching headers). */
	pmbench_registry_record(x->ctx->registry, x->r);
	ret = x->o->runs_auto ? budget_jobs(x) : fixed_jobs(x);
	pmbench_trash_note_forced(x->ctx, x->r);
	if (ret < 0)
		return ret;
	if (x->change)
		pmbench_result_env_set(x->r, "ci_cache_lockfile_change",
				       x->change);
	for (size_t i = 0; i < x->nr; i++) {
		/* Work copies and archives can be large. */
		pmbench_workspace_discard_all(&x->states[i].ws);
	}
	return 0;
}

/* The configs in run order: each strategy with each compression. */
static size_t make_configs(struct config **out,
			   const struct pmbench_cicache_opts *o)
{
	struct config *cs = pmbench_xcalloc(
		pmbench_st_mult(o->strategies_nr, o->compressions_nr + 1),
		sizeof(*cs));
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	size_t n = 0;

	for (size_t si = 0; si < o->strategies_nr; si++) {
		unsigned st = o->strategies[si];
		const char *name = pmbench_cicache_strategy_name(st);

		if (!st) {
			cs[n].strategy = 0;
			cs[n].label = pmbench_xstrdup("none");
			cs[n].file = pmbench_xstrdup("none");
			n++;
			continue;
		}
		for (size_t k = 0; k < o->compressions_nr; k++) {
			cs[n].strategy = st;
			cs[n].comp = o->compressions[k];
			pmbench_buf_reset(&b);
			pmbench_buf_addf(&b, "%s/", name);
			pmbench_cachearc_name(&b, &cs[n].comp);
			cs[n].label = pmbench_xstrdup(b.ptr);
			for (char *p = b.ptr; *p; p++)
				if (*p == '/' || *p == '+')
					*p = '-';
			cs[n].file = pmbench_buf_detach(&b);
			n++;
		}
	}
	pmbench_buf_release(&b);
	*out = cs;
	return n;
}

/* Free what the run `x` over `pms_nr` PM slots holds. */
static void run_release(struct run *x, size_t pms_nr)
{
	for (size_t i = 0; i < pms_nr; i++) {
		pmbench_pmrun_release(&x->states[i]);
		pmbench_strvec_release(&x->frozen[i]);
		free(x->store[i]);
	}
	free(x->store);
	free(x->work);
	pmbench_pm_found_release(&x->npm);
	for (size_t i = 0; i < x->configs_nr * pms_nr; i++) {
		free(x->slots[i].archive);
		free(x->slots[i].toolchain);
	}
	for (size_t i = 0; i < x->configs_nr; i++)
		config_release(&x->configs[i]);
	free(x->configs);
	free(x->slots);
	free(x->states);
	free(x->frozen);
	free(x->change);
}

int pmbench_cicache_run(struct pmbench_ctx *ctx, struct pmbench_result *r,
			const struct pmbench_cicache_opts *o,
			struct pmbench_fixture *f)
{
	struct run x;
	size_t pms_nr = o->pms.nr ? o->pms.nr : 1;
	int ret;

	memset(&x, 0, sizeof(x));
	x.start_ns = pmbench_now_ns();
	x.ctx = ctx;
	x.o = o;
	x.r = r;
	x.f = f;
	x.npm = (struct pmbench_pm_found)PMBENCH_PM_FOUND_INIT;
	x.states = pmbench_xcalloc(pms_nr, sizeof(*x.states));
	x.frozen = pmbench_xcalloc(pms_nr, sizeof(*x.frozen));
	for (size_t i = 0; i < pms_nr; i++)
		pmbench_strvec_init(&x.frozen[i]);
	x.configs_nr = make_configs(&x.configs, o);
	x.slots = pmbench_xcalloc(
		pmbench_st_mult(x.configs_nr ? x.configs_nr : 1, pms_nr),
		sizeof(*x.slots));

	x.store = pmbench_xcalloc(pms_nr, sizeof(*x.store));
	ret = record(r, o);
	if (!ret) {
		struct pmbench_buf w = PMBENCH_BUF_INIT;

		ret = pmbench_fs_realpath(&w, ctx->cache_dir);
		x.work = pmbench_buf_detach(&w);
	}
	if (!ret)
		ret = pmbench_pmrun_start(ctx, r, x.states, &x.nr, &o->pms,
					  o->pms_explicit);
	if (!ret)
		ret = find_npm(&x);
	if (ret < 0)
		goto done;
	/* The caller writes the final result (pmbench_cli_finish()). */
	ret = run_fixture(&x);
done:
	pmbench_ctx_done(ctx);
	run_release(&x, pms_nr);
	return ret;
}
