/*
 * migrate's engine: the repo's own PM detected, each target's install,
 * tasks and resolved tree compared with the source's, and what a
 * migration has to change.
 */

#include "pmbench/common.h"

#include <dirent.h>
#include <math.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "pmbench/bench.h"
#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/migrate.h"
#include "pmbench/monorepo.h"
#include "pmbench/pm.h"
#include "pmbench/pmrun.h"
#include "pmbench/ctx.h"
#include "pmbench/scenario.h"
#include "pmbench/stats.h"
#include "pmbench/task.h"

#define PACKAGE_JSON_MAX (4u << 20)
/*
 * Files listed per package with an install script, and per build: far
 * more than any real build writes (a cut list would compare in readdir
 * order, which differs between copies), but bounded.
 */
#define LIST_MAX 500000

/* ---- Which PM the repo uses ---------------------------------------------- */

/* "yarn@4.1.0+sha512..." -> "yarn-berry" (the table says); NULL if unknown. */
static const char *package_manager_field(const char *project,
					 struct pmbench_buf *raw)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	const struct pmbench_pm *pm = NULL;
	const cJSON *field;
	cJSON *json = NULL;

	pmbench_buf_path(&p, project, "package.json");
	if (pmbench_fs_read(&text, p.ptr, PACKAGE_JSON_MAX) == 0)
		json = cJSON_Parse(text.ptr);
	field = cJSON_GetObjectItemCaseSensitive(json, "packageManager");
	if (cJSON_IsString(field)) {
		pmbench_buf_adds(raw, field->valuestring);
		pm = pmbench_pm_from_package_manager(field->valuestring);
	}
	cJSON_Delete(json);
	pmbench_buf_release(&p);
	pmbench_buf_release(&text);
	return pm ? pm->name : NULL;
}

/* Room for every lockfile name any PM writes. */
#define SHIPPED_MAX 16

/* The lockfiles a project ships and whose they are. */
struct shipped {
	const char *file[SHIPPED_MAX];
	const char *pm[SHIPPED_MAX];
	size_t nr;
	size_t distinct; /* how many different PMs they belong to */
};

/* The lockfiles `project` ships, by the table's sniffers, into `out`. */
static void shipped_lockfiles(struct shipped *out, const char *project)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;

	out->nr = out->distinct = 0;
	for (const char *const *l = pmbench_pm_all_lockfiles(); *l; l++) {
		const struct pmbench_pm *owner;

		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, project, *l);
		owner = pmbench_pm_lockfile_owner(p.ptr);
		if (!owner || out->nr == SHIPPED_MAX)
			continue;
		out->file[out->nr] = *l;
		out->pm[out->nr] = owner->name;
		out->distinct += !out->nr ||
				 strcmp(out->pm[out->nr], out->pm[0]);
		out->nr++;
	}
	pmbench_buf_release(&p);
}

/* What the detection found: the PM, its lockfile (or NULL), and how. */
struct detection {
	const char *pm;
	const char *lock;
	struct pmbench_buf how;
};

/* Told with --from: start from its own lockfile, if the repo ships one. */
static void detect_told(struct detection *d, const struct shipped *s,
			const char *from)
{
	const struct pmbench_pm *told = pmbench_pm_get(from);
	const char *base = told ? pmbench_pm_base(told)->name : from;

	d->pm = from;
	/* A variant's lockfile is its base's. */
	for (size_t i = 0; i < s->nr && !d->lock; i++)
		if (!strcmp(s->pm[i], base))
			d->lock = s->file[i];
	pmbench_buf_adds(&d->how, "--from");
	if (d->lock)
		pmbench_buf_addf(&d->how, "; it ships %s", d->lock);
	else
		pmbench_buf_addf(&d->how,
				 "; it ships no %s lockfile, so "
				 "every PM resolves fresh",
				 from);
}

/*
 * Lockfiles of several PMs: the packageManager field (`field`, the PM
 * it names; `raw`, as written) must say which, or the user with --from.
 */
static int detect_among(struct detection *d, const struct shipped *s,
			const char *field, const char *raw)
{
	for (size_t i = 0; i < s->nr && field && !d->pm; i++) {
		if (!strcmp(s->pm[i], field)) {
			d->pm = s->pm[i];
			d->lock = s->file[i];
		}
	}
	if (!d->pm)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "it ships lockfiles of several "
					  "package managers (%s and %s); say "
					  "which one it uses with --from",
					  s->file[0], s->file[s->nr - 1]);
	pmbench_buf_addf(&d->how,
			 "it ships %s, and its packageManager "
			 "field says '%s'",
			 d->lock, raw);
	return 0;
}

int pmbench_migrate_detect(struct pmbench_migrate *m, const char *project,
			   const char *from)
{
	struct pmbench_buf raw = PMBENCH_BUF_INIT;
	struct detection d = { .how = PMBENCH_BUF_INIT };
	struct shipped s;
	const char *field;
	int ret = 0;

	shipped_lockfiles(&s, project);
	field = package_manager_field(project, &raw);
	if (from) {
		detect_told(&d, &s, from);
	} else if (s.nr && s.distinct == 1) {
		d.pm = s.pm[0];
		d.lock = s.file[0];
		pmbench_buf_addf(&d.how, "it ships %s", d.lock);
		if (field && strcmp(field, d.pm))
			pmbench_buf_addf(&d.how,
					 " (its packageManager field "
					 "says '%s'; the lockfile wins)",
					 raw.ptr);
	} else if (s.nr) {
		ret = detect_among(&d, &s, field, raw.ptr);
	} else if (field) {
		d.pm = field;
		pmbench_buf_addf(&d.how,
				 "its packageManager field says '%s' (it "
				 "ships no lockfile)",
				 raw.ptr);
	} else {
		ret = pmbench_error_setc(
			PMBENCH_ENOTFOUND,
			"it ships no lockfile and has no packageManager "
			"field; say which package manager it uses with --from");
	}
	if (!ret) {
		free(m->source_pm);
		free(m->source_lock);
		free(m->detected_by);
		m->source_pm = pmbench_xstrdup(d.pm);
		m->source_lock = d.lock ? pmbench_xstrdup(d.lock) : NULL;
		m->detected_by = pmbench_buf_detach(&d.how);
	}
	pmbench_buf_release(&raw);
	pmbench_buf_release(&d.how);
	return ret;
}

/* ---- What each PM did ------------------------------------------------------ */

/* The entry of `pm`, added (in priming order) the first time. */
static struct pmbench_migrate_pm *entry(struct pmbench_migrate *m,
					const char *pm)
{
	struct pmbench_recipe recipe = PMBENCH_RECIPE_INIT;
	struct pmbench_migrate_pm *e;

	for (size_t i = 0; i < m->pms_nr; i++)
		if (!strcmp(m->pms[i].pm, pm))
			return &m->pms[i];
	PMBENCH_ALLOC_GROW(m->pms, m->pms_nr + 1, m->pms_alloc);
	e = &m->pms[m->pms_nr++];
	memset(e, 0, sizeof(*e));
	e->pm = pmbench_xstrdup(pm);
	pmbench_strvec_init(&e->build_files);
	pmbench_strvec_init(&e->script_files);
	e->recipe = recipe;
	return e;
}

/* ---- The changes a team makes for each target ------------------------- */

int pmbench_migrate_on_workspace(const struct pmbench_fixture *f,
				 struct pmbench_pmrun *ps, void *payload)
{
	struct pmbench_migrate *m = payload;
	struct pmbench_migrate_pm *e = entry(m, ps->pm->name);
	struct pmbench_buf copy = PMBENCH_BUF_INIT, project = PMBENCH_BUF_INIT;
	struct pmbench_buf prefix = PMBENCH_BUF_INIT;
	int ret;

	(void)f;
	if (m->no_recipe || !strcmp(ps->pm->name, m->source_pm))
		return 0;
	/* In the PM's own work folder: its discard takes the copy too. */
	pmbench_buf_path(&copy, ps->ws.root, "migrated");
	ret = pmbench_fs_discard(copy.ptr, ps->ws.trash);
	if (!ret)
		ret = pmbench_fs_copytree(
			ps->ws.source, copy.ptr,
			PMBENCH_FS_COPY_SKIP_GIT |
				PMBENCH_FS_COPY_SKIP_NODE_MODULES,
			NULL);
	if (ret < 0)
		goto done;
	pmbench_buf_adds(&project, copy.ptr);
	if (*ps->ws.subdir) {
		pmbench_buf_addf(&project, "/%s", ps->ws.subdir);
		pmbench_buf_addf(&prefix, "%s/", ps->ws.subdir);
	}
	pmbench_ctx_status(ps->ctx, "%s: changing the repo for %s", f->name,
			   ps->pm->name);
	e->recipe.prefix = prefix.ptr;
	ret = pmbench_recipe_run(&e->recipe, project.ptr, ps->pm,
				 ps->found.version,
				 (const char *const *)m->choose.v);
	e->recipe.prefix = NULL;
	if (ret == PMBENCH_EINVALID) {
		/* A file of the repo's it cannot read: this target fails. */
		pmbench_buf_reset(&prefix);
		pmbench_buf_addf(&prefix,
				 "its recipe cannot change the repo: %s",
				 pmbench_error_last());
		pmbench_pmrun_fail_priming(ps, prefix.ptr);
		pmbench_error_clear();
		ret = 0;
		goto done;
	}
	if (ret < 0) {
		pmbench_error_set("cannot change the repo for %s: %s",
				  ps->pm->name, pmbench_error_last());
		goto done;
	}
	e->recipe_ran = 1;
	free(ps->ws.source);
	ps->ws.source = pmbench_buf_detach(&copy);
done:
	pmbench_buf_release(&copy);
	pmbench_buf_release(&project);
	pmbench_buf_release(&prefix);
	return ret;
}

/*
 * Every regular file below `dir` as "<prefix><relative path>" (with
 * " <size>" when `sizes`), not descending into node_modules.
 */
static void list_files(struct pmbench_strvec *out, const char *dir,
		       const char *rel, const char *prefix, int sizes,
		       uint64_t *bytes, int depth)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT, r = PMBENCH_BUF_INIT;
	struct dirent *de;
	DIR *d;

	if (depth > 32 || out->nr >= LIST_MAX)
		return;
	d = opendir(dir);
	while (d && (de = readdir(d)) && out->nr < LIST_MAX) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, "node_modules"))
			continue;
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, dir, de->d_name);
		pmbench_buf_reset(&r);
		if (*rel)
			pmbench_buf_addf(&r, "%s/", rel);
		pmbench_buf_adds(&r, de->d_name);
		if (lstat(p.ptr, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			list_files(out, p.ptr, r.ptr, prefix, sizes, bytes,
				   depth + 1);
		} else if (S_ISREG(st.st_mode)) {
			if (sizes)
				pmbench_strvec_pushf(
					out, "%s%s %llu", prefix, r.ptr,
					(unsigned long long)st.st_size);
			else
				pmbench_strvec_pushf(out, "%s%s", prefix,
						     r.ptr);
			if (bytes)
				*bytes += (uint64_t)st.st_size;
		}
	}
	if (d)
		closedir(d);
	pmbench_buf_release(&p);
	pmbench_buf_release(&r);
}

/*
 * What the build wrote: every file of each output folder of the project
 * and of its workspace packages (pmbench_monorepo_outputs()), as
 * "<folder>/<file> <size>", sorted.
 */
static void build_files(struct pmbench_migrate_pm *e, const char *project,
			const struct pmbench_fixture *f)
{
	struct pmbench_strvec dirs = PMBENCH_STRVEC_INIT;
	struct pmbench_buf p = PMBENCH_BUF_INIT, prefix = PMBENCH_BUF_INIT;

	if (pmbench_monorepo_outputs(
		    &dirs, project, pmbench_fixture_get(f, "build", "output")) <
	    0)
		pmbench_error_clear();
	for (size_t i = 0; i < dirs.nr; i++) {
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, project, dirs.v[i]);
		pmbench_buf_reset(&prefix);
		pmbench_buf_addf(&prefix, "%s/", dirs.v[i]);
		list_files(&e->build_files, p.ptr, "", prefix.ptr, 1,
			   &e->build_bytes, 0);
	}
	pmbench_strvec_sort(&e->build_files, 0);
	pmbench_strvec_release(&dirs);
	pmbench_buf_release(&p);
	pmbench_buf_release(&prefix);
}

/*
 * Run one parity task once, on the node_modules this PM installed, with
 * the task's own operations (as `bench --task` would time it).
 */
static int run_task(struct pmbench_migrate *m, struct pmbench_migrate_pm *e,
		    const struct pmbench_fixture *f, struct pmbench_pmrun *ps,
		    const char *name)
{
	const struct pmbench_task *task = pmbench_task_get(name);
	static const struct pmbench_bench_opts defaults =
		PMBENCH_BENCH_OPTS_INIT;
	struct pmbench_task_job j = PMBENCH_TASK_JOB_INIT;
	struct pmbench_migrate_task *t;
	struct pmbench_sample s;
	int ret;

	if (!task || !(task->flags & PMBENCH_TASK_MIGRATE_PARITY))
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "'%s' is no task migrate runs for "
					  "parity",
					  name);
	memset(&s, 0, sizeof(s));
	PMBENCH_ALLOC_GROW(e->tasks, e->tasks_nr + 1, e->tasks_alloc);
	t = &e->tasks[e->tasks_nr++];
	memset(t, 0, sizeof(*t));
	t->name = pmbench_xstrdup(name);
	j.task = task;
	j.ps = ps;
	j.f = f;
	j.cell = name;
	j.state = PMBENCH_STATE_CACHE | PMBENCH_STATE_LOCKFILE |
		  PMBENCH_STATE_NODE_MODULES;
	j.timeout_ns = m->timeout_ns;
	j.opts = &defaults;
	ret = task->prepare(&j);
	if (ret < 0) {
		t->ran = 1;
		t->failure = pmbench_xstrdup(pmbench_error_last());
		return 0;
	}
	if (!pmbench_task_project_has_script(ps->ws.run_project,
					     task->script(f, name)))
		return 0;
	t->ran = 1;
	pmbench_ctx_status(ps->ctx, "%s: %s %s (parity, once)", f->name,
			   ps->pm->name, name);
	ret = task->run(&j, &s, NULL);
	if (ret < 0) {
		/* Stopped by a signal: interrupted, not a failing task. */
		t->interrupted = s.interrupted;
		t->failure =
			pmbench_xstrdup(s.failure ? s.failure : "interrupted");
		goto done;
	}
	t->ok = s.ok;
	t->wall_s = (double)s.wall_ns / 1e9;
	if (!s.ok)
		t->failure = pmbench_xstrdup(s.failure ? s.failure : "failed");
	/* The build's output, compared with the source's. */
	if (s.ok && task->flags & PMBENCH_TASK_OUTPUT && task->output) {
		build_files(e, ps->ws.run_project, f);
		/* A failure only if the source's build writes files. */
		t->no_output = !e->build_files.nr;
	}
	pmbench_ctx_event(ps->ctx, "%s: %s %s %s", f->name, ps->pm->name, name,
			  t->ok ? "ok" : t->failure);
done:
	pmbench_sample_release(&s);
	return ret;
}

int pmbench_migrate_on_primed(const struct pmbench_fixture *f,
			      struct pmbench_pmrun *ps, void *payload)
{
	struct pmbench_migrate *m = payload;
	struct pmbench_migrate_pm *e = entry(m, ps->pm->name);
	struct pmbench_buf project = PMBENCH_BUF_INIT, p = PMBENCH_BUF_INIT;
	struct pmbench_buf prefix = PMBENCH_BUF_INIT;
	int ret = 0;

	if (ps->lockfile)
		e->lockfile = pmbench_xstrdup(ps->lockfile);
	if (ps->scripts)
		e->scripts = pmbench_xstrdup(ps->scripts);
	if (ps->prime_failure) {
		e->prime_failure = pmbench_xstrdup(ps->prime_failure);
		goto done;
	}
	pmbench_buf_path(&project, ps->ws.primed, ps->ws.subdir);
	ret = pmbench_resolution_scan(&e->res, project.ptr);
	if (ret < 0)
		goto done;
	e->scanned = 1;
	/* What the install scripts may have left in their packages. */
	for (size_t i = 0; i < e->res.nr; i++) {
		const struct pmbench_package *pkg = &e->res.pkgs[i];

		if (!pkg->has_script)
			continue;
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, project.ptr, pkg->path);
		pmbench_buf_reset(&prefix);
		pmbench_buf_addf(&prefix, "%s@%s\t", pkg->name, pkg->version);
		list_files(&e->script_files, p.ptr, "", prefix.ptr, 0, NULL, 0);
	}
	pmbench_strvec_sort(&e->script_files, 0);
	for (size_t i = 0; i < m->tasks.nr && !ret; i++)
		ret = run_task(m, e, f, ps, m->tasks.v[i]);
done:
	pmbench_buf_release(&project);
	pmbench_buf_release(&p);
	pmbench_buf_release(&prefix);
	return ret;
}

/* The package of "name@version<TAB>file" in both resolutions, or 0. */
static int in_both(struct pmbench_buf *id, const char *file,
		   const struct pmbench_migrate_pm *src,
		   const struct pmbench_migrate_pm *e)
{
	const char *tab = strchr(file, '\t'), *at;
	struct pmbench_buf name = PMBENCH_BUF_INIT;
	int both = 0;

	pmbench_buf_reset(id);
	if (!tab)
		return 0;
	pmbench_buf_add(id, file, (size_t)(tab - file));
	at = strrchr(id->ptr, '@');
	if (at && at != id->ptr) {
		pmbench_buf_add(&name, id->ptr, (size_t)(at - id->ptr));
		both = pmbench_resolution_find(&src->res, name.ptr, at + 1) &&
		       pmbench_resolution_find(&e->res, name.ptr, at + 1);
	}
	pmbench_buf_release(&name);
	return both;
}

size_t pmbench_migrate_script_differences(const struct pmbench_migrate_pm *src,
					  const struct pmbench_migrate_pm *e,
					  struct pmbench_strvec *src_only,
					  struct pmbench_strvec *tgt_only)
{
	struct pmbench_strvec a = PMBENCH_STRVEC_INIT, z = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec pkgs = PMBENCH_STRVEC_INIT;
	struct pmbench_buf id = PMBENCH_BUF_INIT;
	size_t n;

	pmbench_strvec_missing(&src->script_files, &e->script_files, &a);
	pmbench_strvec_missing(&e->script_files, &src->script_files, &z);
	/*
	 * Only packages both installed at one version: the others are in the
	 * resolution diff.
	 */
	for (int side = 0; side < 2; side++) {
		struct pmbench_strvec *files = side ? &z : &a;
		struct pmbench_strvec *to = side ? tgt_only : src_only;

		for (size_t i = 0; i < files->nr; i++) {
			if (!in_both(&id, files->v[i], src, e))
				continue;
			pmbench_strvec_push(to, files->v[i]);
			if (pmbench_strvec_find(&pkgs, id.ptr) < 0)
				pmbench_strvec_push(&pkgs, id.ptr);
		}
	}
	n = pkgs.nr;
	pmbench_strvec_release(&a);
	pmbench_strvec_release(&z);
	pmbench_strvec_release(&pkgs);
	pmbench_buf_release(&id);
	return n;
}

const struct pmbench_migrate_pm *
pmbench_migrate_get(const struct pmbench_migrate *m, const char *pm)
{
	for (size_t i = 0; i < m->pms_nr; i++)
		if (!strcmp(m->pms[i].pm, pm))
			return &m->pms[i];
	return NULL;
}

const struct pmbench_migrate_task *
pmbench_migrate_task_get(const struct pmbench_migrate_pm *e, const char *name)
{
	for (size_t i = 0; e && i < e->tasks_nr; i++)
		if (!strcmp(e->tasks[i].name, name))
			return &e->tasks[i];
	return NULL;
}

const struct pmbench_cell *
pmbench_migrate_task_cell(const struct pmbench_result *r, const char *task,
			  const char *pm)
{
	for (size_t i = 0; r && i < r->cells_nr; i++) {
		const struct pmbench_cell *c = &r->cells[i];

		if (!strcmp(c->task, task) && !strcmp(c->pm, pm) &&
		    !strcmp(c->scenario, PMBENCH_TASK_SCENARIO))
			return c;
	}
	return NULL;
}

int pmbench_migrate_cell_ok(const struct pmbench_cell *c)
{
	size_t n = 0;
	double *t;

	if (!c || c->prime_failure)
		return 0;
	t = pmbench_cell_times(c, &n);
	free(t);
	return n > 0;
}

int pmbench_migrate_task_failed(const struct pmbench_migrate_task *t,
				const struct pmbench_migrate_task *st)
{
	if (!t->ran)
		return 0;
	if (!t->ok)
		return !st || st->ok;
	return t->no_output && st && st->ok && !st->no_output;
}

int pmbench_migrate_all_ok(const struct pmbench_migrate *m,
			   const struct pmbench_result *r)
{
	const struct pmbench_migrate_pm *src =
		pmbench_migrate_get(m, m->source_pm);

	/* The dev server (and the timed tasks) as the source does. */
	for (size_t i = 0; r && i < m->pms_nr; i++)
		for (size_t t = 0; t < r->tasks.nr; t++)
			if (!pmbench_task_cell_has(r->tasks.v[t],
						   PMBENCH_TASK_PER_SCENARIO) &&
			    pmbench_migrate_cell_ok(pmbench_migrate_task_cell(
				    r, r->tasks.v[t], m->source_pm)) &&
			    !pmbench_migrate_cell_ok(pmbench_migrate_task_cell(
				    r, r->tasks.v[t], m->pms[i].pm)))
				return 0;

	for (size_t i = 0; i < m->pms_nr; i++) {
		const struct pmbench_migrate_pm *e = &m->pms[i];

		if (e->prime_failure)
			return 0;
		for (size_t k = 0; k < e->tasks_nr; k++) {
			const struct pmbench_migrate_task *st =
				pmbench_migrate_task_get(src, e->tasks[k].name);

			if (pmbench_migrate_task_failed(&e->tasks[k], st))
				return 0;
		}
	}
	return 1;
}

void pmbench_migrate_release(struct pmbench_migrate *m)
{
	for (size_t i = 0; i < m->pms_nr; i++) {
		struct pmbench_migrate_pm *e = &m->pms[i];

		free(e->pm);
		free(e->lockfile);
		free(e->prime_failure);
		free(e->scripts);
		pmbench_resolution_release(&e->res);
		for (size_t k = 0; k < e->tasks_nr; k++) {
			free(e->tasks[k].name);
			free(e->tasks[k].failure);
		}
		free(e->tasks);
		pmbench_strvec_release(&e->build_files);
		pmbench_strvec_release(&e->script_files);
		pmbench_recipe_release(&e->recipe);
	}
	free(m->pms);
	free(m->source_pm);
	free(m->source_lock);
	free(m->detected_by);
	pmbench_strvec_release(&m->tasks);
	pmbench_strvec_release(&m->choose);
	memset(m, 0, sizeof(*m));
	pmbench_strvec_init(&m->tasks);
	pmbench_strvec_init(&m->choose);
}
