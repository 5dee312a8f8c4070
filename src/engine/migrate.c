#include "pmbench/common.h"

#include <dirent.h>
#include <math.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/migrate.h"
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
#define CHANGES_SHOWN 12
#define BOOTSTRAP_RESAMPLES 2000

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

/*
 * The lockfiles `project` ships and whose they are (the table's
 * sniffers), into found_file[] and found_pm[]; returns how many.
 * `*out_distinct` gets how many different PMs they belong to.
 */
static size_t shipped_lockfiles(const char **found_file,
				const char **found_pm, size_t *out_distinct,
				const char *project)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	size_t nr = 0, distinct = 0;

	for (const char *const *l = pmbench_pm_all_lockfiles(); *l; l++) {
		const struct pmbench_pm *owner;

		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, project, *l);
		owner = pmbench_pm_lockfile_owner(p.ptr);
		if (!owner || nr == SHIPPED_MAX)
			continue;
		found_file[nr] = *l;
		found_pm[nr] = owner->name;
		distinct += !nr || strcmp(found_pm[nr], found_pm[0]);
		nr++;
	}
	pmbench_buf_release(&p);
	*out_distinct = distinct;
	return nr;
}

int pmbench_migrate_detect(struct pmbench_migrate *m, const char *project,
			   const char *from)
{
	struct pmbench_buf raw = PMBENCH_BUF_INIT, how = PMBENCH_BUF_INIT;
	const char *found_pm[SHIPPED_MAX], *found_file[SHIPPED_MAX];
	const char *field, *pm = NULL, *lock = NULL;
	size_t distinct;
	size_t nr = shipped_lockfiles(found_file, found_pm, &distinct, project);
	int ret = 0;

	field = package_manager_field(project, &raw);
	if (from) {
		/* Told: start from its own lockfile, if the repo ships one. */
		const struct pmbench_pm *told = pmbench_pm_get(from);
		const char *base = told ? pmbench_pm_base(told)->name : from;

		pm = from;
		/* A variant's lockfile is its base's. */
		for (size_t i = 0; i < nr && !lock; i++)
			if (!strcmp(found_pm[i], base))
				lock = found_file[i];
		pmbench_buf_adds(&how, "--from");
		if (lock)
			pmbench_buf_addf(&how, "; it ships %s", lock);
		else
			pmbench_buf_addf(&how, "; it ships no %s lockfile, so "
					 "every PM resolves fresh", from);
	} else if (nr && distinct == 1) {
		pm = found_pm[0];
		lock = found_file[0];
		pmbench_buf_addf(&how, "it ships %s", lock);
		if (field && strcmp(field, pm))
			pmbench_buf_addf(&how, " (its packageManager field "
					 "says '%s'; the lockfile wins)",
					 raw.ptr);
	} else if (nr) {
		for (size_t i = 0; i < nr && field && !pm; i++) {
			if (!strcmp(found_pm[i], field)) {
				pm = found_pm[i];
				lock = found_file[i];
			}
		}
		if (!pm) {
			ret = pmbench_error_setc(
				PMBENCH_EINVALID,
				"it ships lockfiles of several package "
				"managers (%s and %s); say which one it uses "
				"with --from",
				found_file[0], found_file[nr - 1]);
			goto done;
		}
		pmbench_buf_addf(&how, "it ships %s, and its packageManager "
				 "field says '%s'", lock, raw.ptr);
	} else if (field) {
		pm = field;
		pmbench_buf_addf(&how, "its packageManager field says '%s' (it "
				 "ships no lockfile)", raw.ptr);
	} else {
		ret = pmbench_error_setc(
			PMBENCH_ENOTFOUND,
			"it ships no lockfile and has no packageManager "
			"field; say which package manager it uses with --from");
		goto done;
	}
	free(m->source_pm);
	free(m->source_lock);
	free(m->detected_by);
	m->source_pm = pmbench_xstrdup(pm);
	m->source_lock = lock ? pmbench_xstrdup(lock) : NULL;
	m->detected_by = pmbench_buf_detach(&how);
done:
	pmbench_buf_release(&raw);
	pmbench_buf_release(&how);
	return ret;
}

/* ---- What each PM did ------------------------------------------------------ */

static struct pmbench_migrate_pm *add_pm(struct pmbench_migrate *m,
					 const char *pm)
{
	struct pmbench_migrate_pm *e;

	PMBENCH_ALLOC_GROW(m->pms, m->pms_nr + 1, m->pms_alloc);
	e = &m->pms[m->pms_nr++];
	memset(e, 0, sizeof(*e));
	e->pm = pmbench_xstrdup(pm);
	pmbench_strvec_init(&e->build_files);
	pmbench_strvec_init(&e->script_files);
	return e;
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
				pmbench_strvec_pushf(out, "%s%s %llu", prefix,
						     r.ptr,
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

/* The folder a build writes: the manifest's, else a usual one. */
static void build_output(struct pmbench_buf *out, const char *project,
			 const struct pmbench_fixture *f)
{
	static const char *const usual[] = { "dist", "build", "out", ".next" };

	if (f->build_output) {
		pmbench_buf_path(out, project, f->build_output);
		return;
	}
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(usual); i++) {
		pmbench_buf_reset(out);
		pmbench_buf_path(out, project, usual[i]);
		if (pmbench_fs_isdir(out->ptr))
			return;
	}
	pmbench_buf_reset(out);
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
	struct pmbench_task_job j = PMBENCH_TASK_JOB_INIT;
	struct pmbench_migrate_task *t;
	struct pmbench_buf out = PMBENCH_BUF_INIT;
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
		t->failure = pmbench_xstrdup(s.failure ? s.failure
						       : "interrupted");
		goto done;
	}
	t->ok = s.ok;
	t->wall_s = (double)s.wall_ns / 1e9;
	if (!s.ok)
		t->failure = pmbench_xstrdup(s.failure ? s.failure : "failed");
	/* The build's output, compared with the source's. */
	if (s.ok && task->flags & PMBENCH_TASK_OUTPUT) {
		build_output(&out, ps->ws.run_project, f);
		if (out.len)
			list_files(&e->build_files, out.ptr, "", "", 1,
				   &e->build_bytes, 0);
		pmbench_strvec_sort(&e->build_files, 0);
		if (!e->build_files.nr) {
			t->ok = 0;
			t->failure = pmbench_xstrdup(
				"the build exited 0 but wrote no output "
				"(no file in dist, build, out or .next, or the "
				"manifest's build output folder)");
		}
	}
	pmbench_ctx_event(ps->ctx, "%s: %s %s %s", f->name, ps->pm->name,
			  name, t->ok ? "ok" : t->failure);
done:
	pmbench_sample_release(&s);
	pmbench_buf_release(&out);
	return ret;
}

int pmbench_migrate_on_primed(const struct pmbench_fixture *f,
			      struct pmbench_pmrun *ps, void *payload)
{
	struct pmbench_migrate *m = payload;
	struct pmbench_migrate_pm *e = add_pm(m, ps->pm->name);
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
		list_files(&e->script_files, p.ptr, "", prefix.ptr, 0, NULL,
			   0);
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

const struct pmbench_migrate_pm *
pmbench_migrate_get(const struct pmbench_migrate *m, const char *pm)
{
	for (size_t i = 0; i < m->pms_nr; i++)
		if (!strcmp(m->pms[i].pm, pm))
			return &m->pms[i];
	return NULL;
}

static const struct pmbench_migrate_task *
get_task(const struct pmbench_migrate_pm *e, const char *name)
{
	for (size_t i = 0; e && i < e->tasks_nr; i++)
		if (!strcmp(e->tasks[i].name, name))
			return &e->tasks[i];
	return NULL;
}

/* The timed task cell of `pm` (run, build, dev), or NULL. */
static const struct pmbench_cell *task_cell(const struct pmbench_result *r,
					    const char *task, const char *pm)
{
	for (size_t i = 0; r && i < r->cells_nr; i++) {
		const struct pmbench_cell *c = &r->cells[i];

		if (!strcmp(c->task, task) && !strcmp(c->pm, pm) &&
		    !strcmp(c->scenario, PMBENCH_TASK_SCENARIO))
			return c;
	}
	return NULL;
}

static int cell_ok(const struct pmbench_cell *c)
{
	size_t n = 0;
	double *t;

	if (!c || c->prime_failure)
		return 0;
	t = pmbench_cell_times(c, &n);
	free(t);
	return n > 0;
}

/* Why a timed task cell has no successful run. */
static const char *cell_failure(const struct pmbench_cell *c)
{
	if (c->prime_failure)
		return c->prime_failure;
	for (size_t i = 0; i < c->samples_nr; i++)
		if (!c->samples[i].ok && !c->samples[i].interrupted &&
		    c->samples[i].failure)
			return c->samples[i].failure;
	return "no successful run";
}

/* A cell whose runs were all cut short by a signal: no failure. */
static int cell_interrupted(const struct pmbench_cell *c)
{
	return c && !c->prime_failure && !pmbench_cell_failures(c) &&
	       pmbench_cell_interrupted(c);
}

int pmbench_migrate_all_ok(const struct pmbench_migrate *m,
			   const struct pmbench_result *r)
{
	const struct pmbench_migrate_pm *src = pmbench_migrate_get(m, m->source_pm);

	/* The dev server (and the timed tasks) as the source does. */
	for (size_t i = 0; r && i < m->pms_nr; i++)
		for (size_t t = 0; t < r->tasks.nr; t++)
			if (strcmp(r->tasks.v[t], "install") &&
			    cell_ok(task_cell(r, r->tasks.v[t], m->source_pm)) &&
			    !cell_ok(task_cell(r, r->tasks.v[t], m->pms[i].pm)))
				return 0;

	for (size_t i = 0; i < m->pms_nr; i++) {
		const struct pmbench_migrate_pm *e = &m->pms[i];

		if (e->prime_failure)
			return 0;
		for (size_t k = 0; k < e->tasks_nr; k++) {
			const struct pmbench_migrate_task *st =
				get_task(src, e->tasks[k].name);

			if (e->tasks[k].ran && !e->tasks[k].ok &&
			    (!st || st->ok))
				return 0;
		}
	}
	return 1;
}

/* ---- Comparisons ------------------------------------------------------------ */

/* Entries of sorted `a` not in sorted `b`. */
static size_t only_in(const struct pmbench_strvec *a,
		      const struct pmbench_strvec *b,
		      struct pmbench_strvec *out)
{
	size_t n = 0, j = 0;

	for (size_t i = 0; i < a->nr; i++) {
		int c = 1;

		while (j < b->nr && (c = strcmp(b->v[j], a->v[i])) < 0)
			j++;
		if (j >= b->nr || c) {
			if (out)
				pmbench_strvec_push(out, a->v[i]);
			n++;
		}
	}
	return n;
}

static void add_size(struct pmbench_buf *b, double bytes)
{
	if (bytes >= 1024.0 * 1024.0)
		pmbench_buf_addf(b, "%.1f MiB", bytes / (1024.0 * 1024.0));
	else
		pmbench_buf_addf(b, "%.1f KiB", bytes / 1024.0);
}

static void describe_build(struct pmbench_buf *b,
			   const struct pmbench_migrate_pm *src,
			   const struct pmbench_migrate_pm *e)
{
	size_t a = only_in(&src->build_files, &e->build_files, NULL);
	size_t z = only_in(&e->build_files, &src->build_files, NULL);

	if (!a && !z) {
		pmbench_buf_addf(b, "build identical (%zu file%s, ",
				 e->build_files.nr,
				 e->build_files.nr == 1 ? "" : "s");
		add_size(b, (double)e->build_bytes);
		pmbench_buf_adds(b, ")");
		return;
	}
	pmbench_buf_addf(b, "build differs (%zu of %s's %zu files not "
			 "matched by name and size, %zu new; ",
			 a, src->pm, src->build_files.nr, z);
	add_size(b, (double)src->build_bytes);
	pmbench_buf_adds(b, " vs ");
	add_size(b, (double)e->build_bytes);
	pmbench_buf_adds(b, ")");
}

/* Packages whose install-script leftovers differ between the two. */
static size_t script_differences(const struct pmbench_migrate_pm *src,
				 const struct pmbench_migrate_pm *e,
				 struct pmbench_strvec *src_only,
				 struct pmbench_strvec *tgt_only)
{
	struct pmbench_strvec a = PMBENCH_STRVEC_INIT, z = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec pkgs = PMBENCH_STRVEC_INIT;
	size_t n;

	only_in(&src->script_files, &e->script_files, &a);
	only_in(&e->script_files, &src->script_files, &z);
	/* Only packages both installed at one version: others are in the diff. */
	for (int side = 0; side < 2; side++) {
		struct pmbench_strvec *files = side ? &z : &a;
		struct pmbench_strvec *to = side ? tgt_only : src_only;

		for (size_t i = 0; i < files->nr; i++) {
			const char *tab = strchr(files->v[i], '\t');
			struct pmbench_buf id = PMBENCH_BUF_INIT;
			const char *at;

			if (!tab)
				continue;
			pmbench_buf_add(&id, files->v[i],
					(size_t)(tab - files->v[i]));
			at = strrchr(id.ptr, '@');
			if (at && at != id.ptr) {
				struct pmbench_buf name = PMBENCH_BUF_INIT;

				pmbench_buf_add(&name, id.ptr,
						(size_t)(at - id.ptr));
				if (pmbench_resolution_find(&src->res, name.ptr,
							    at + 1) &&
				    pmbench_resolution_find(&e->res, name.ptr,
							    at + 1)) {
					pmbench_strvec_push(to, files->v[i]);
					if (pmbench_strvec_find(&pkgs, id.ptr) < 0)
						pmbench_strvec_push(&pkgs,
								    id.ptr);
				}
				pmbench_buf_release(&name);
			}
			pmbench_buf_release(&id);
		}
	}
	n = pkgs.nr;
	pmbench_strvec_release(&a);
	pmbench_strvec_release(&z);
	pmbench_strvec_release(&pkgs);
	return n;
}

/*
 * The install speed of `pm` against the source in one scenario: the
 * ratio of medians (source / target, so above 1 means the target is
 * faster) with its bootstrap interval, Mann-Whitney p and the shared
 * verdict (pmbench_stats_compare()). Returns 0 when there is nothing to
 * compare.
 */
static int speed(struct pmbench_buf *b, const struct pmbench_migrate *m,
		 const struct pmbench_result *r, const char *task,
		 const char *scenario, const char *pm, int brief)
{
	const struct pmbench_cell *cs = NULL, *ct = NULL;
	struct pmbench_comparison cmp;
	struct pmbench_rng rng;
	double *a, *z;
	size_t na, nz;
	int ok = 0;

	for (size_t i = 0; i < r->cells_nr; i++) {
		const struct pmbench_cell *c = &r->cells[i];

		if (strcmp(c->task, task) || strcmp(c->scenario, scenario))
			continue;
		if (!strcmp(c->pm, m->source_pm))
			cs = c;
		else if (!strcmp(c->pm, pm))
			ct = c;
	}
	if (!cs || !ct)
		return 0;
	a = pmbench_cell_times(cs, &na);
	z = pmbench_cell_times(ct, &nz);
	pmbench_rng_seed(&rng, m->seed);
	if (!na || !nz ||
	    pmbench_stats_compare(&cmp, z, nz, a, na, 0.95,
				  BOOTSTRAP_RESAMPLES, 0.05, &rng) < 0)
		goto done;
	ok = 1;
	pmbench_buf_addf(b, "%s %s: ", task, scenario);
	/* With 3 runs against 3 the test cannot say "significant". */
	if (na >= 2 && nz >= 2 && cmp.verdict == PMBENCH_VERDICT_SAME &&
	    pmbench_stats_mwu_min_p(na, nz) < 0.05)
		pmbench_buf_adds(b, "no significant difference, ");
	/* cmp.ratio is target / source: show it as "N x faster/slower". */
	if (cmp.ratio.point <= 1.0)
		pmbench_buf_addf(b, "%.2fx faster", 1.0 / cmp.ratio.point);
	else
		pmbench_buf_addf(b, "%.2fx slower", cmp.ratio.point);
	if (na >= 2 && nz >= 2)
		pmbench_buf_addf(b, " (%s/%s %.2fx, 95%% CI %.2fx-%.2fx, "
				 "Mann-Whitney p=%.2g, %zu and %zu runs%s)",
				 m->source_pm, pm, 1.0 / cmp.ratio.point,
				 1.0 / cmp.ratio.hi, 1.0 / cmp.ratio.lo,
				 cmp.mwu.p, na, nz,
				 pmbench_stats_mwu_min_p(na, nz) >= 0.05
					 ? ": too few runs for the test to "
					   "reach p < 0.05, use --runs 5"
					 : "");
	else if (!brief)
		pmbench_buf_adds(b, " (one run each: no interval)");
done:
	free(a);
	free(z);
	return ok;
}

static void verdict(struct pmbench_buf *b, const struct pmbench_migrate *m,
		    const struct pmbench_result *r,
		    const struct pmbench_migrate_pm *e)
{
	const struct pmbench_migrate_pm *src =
		pmbench_migrate_get(m, m->source_pm);
	struct pmbench_resolution_diff d = PMBENCH_RESOLUTION_DIFF_INIT;
	struct pmbench_strvec x = PMBENCH_STRVEC_INIT, y = PMBENCH_STRVEC_INIT;
	size_t major = 0, minor = 0, patch = 0;

	pmbench_buf_addf(b, "%s: ", e->pm);
	if (e->prime_failure) {
		pmbench_buf_adds(b, "does not install: ");
		pmbench_buf_add(b, e->prime_failure,
				strcspn(e->prime_failure, "\n"));
		return;
	}
	pmbench_buf_addf(b, "installs (lockfile: %s)",
			 e->lockfile ? e->lockfile : "?");
	if (src && src->scanned && e->scanned && src != e) {
		pmbench_resolution_diff(&d, &src->res, &e->res);
		for (size_t i = 0; i < d.changes_nr; i++) {
			const char *l = d.changes[i].level;

			if (!l)
				continue;
			major += !strcmp(l, "major");
			minor += !strcmp(l, "minor");
			patch += !strcmp(l, "patch");
		}
		if (!d.changed && !d.only_source && !d.only_target)
			pmbench_buf_addf(b, "; resolves the same %zu package%s",
					 d.identical, d.identical == 1 ? "" : "s");
		else
			pmbench_buf_addf(b, "; %zu package%s resolve%s to other "
					 "versions (%zu major, %zu minor, %zu "
					 "patch), %zu only under %s, %zu only "
					 "under %s, %zu identical",
					 d.changed, d.changed == 1 ? "" : "s",
					 d.changed == 1 ? "s" : "", major,
					 minor, patch, d.only_source, src->pm,
					 d.only_target, e->pm, d.identical);
		if (script_differences(src, e, &x, &y))
			pmbench_buf_addf(b, "; install scripts differ: their "
					 "packages hold %zu file%s only under "
					 "%s, %zu only under %s",
					 x.nr, x.nr == 1 ? "" : "s", src->pm,
					 y.nr, e->pm);
	}
	for (size_t i = 0; i < e->tasks_nr; i++) {
		const struct pmbench_migrate_task *t = &e->tasks[i];
		const struct pmbench_migrate_task *st = get_task(src, t->name);

		if (!t->ran)
			continue;
		pmbench_buf_adds(b, "; ");
		if (t->interrupted) {
			pmbench_buf_addf(b, "%s interrupted", t->name);
		} else if (!t->ok) {
			pmbench_buf_addf(b, "%s FAILS%s", t->name,
					 st && !st->ok ? " (as under the source)"
						       : "");
		} else if (!strcmp(t->name, "build") && src && src != e &&
			   st && st->ok) {
			describe_build(b, src, e);
		} else {
			pmbench_buf_addf(b, "%s ok", t->name);
		}
	}
	if (pmbench_strvec_find(&r->tasks, "dev") >= 0) {
		const struct pmbench_cell *c = task_cell(r, "dev", e->pm);

		if (cell_ok(c)) {
			size_t n = 0;
			double *t = pmbench_cell_times(c, &n);

			pmbench_buf_addf(b, "; dev server answers in %.2f s "
					 "(median, %zu runs)",
					 pmbench_stats_median(t, n), n);
			free(t);
		} else if (cell_interrupted(c)) {
			pmbench_buf_adds(b, "; dev server interrupted (no run "
					    "finished)");
		} else if (c) {
			pmbench_buf_adds(b, "; dev server FAILS: ");
			pmbench_buf_add(b, cell_failure(c),
					strcspn(cell_failure(c), "\n"));
		}
	}
	if (src != e) {
		for (size_t i = 0; i < r->scenarios.nr; i++) {
			struct pmbench_buf s = PMBENCH_BUF_INIT;

			if (speed(&s, m, r, "install", r->scenarios.v[i], e->pm,
				  1))
				pmbench_buf_addf(b, "; %s", s.ptr);
			pmbench_buf_release(&s);
		}
		for (size_t i = 0; i < r->tasks.nr; i++) {
			struct pmbench_buf s = PMBENCH_BUF_INIT;

			if (strcmp(r->tasks.v[i], "install") &&
			    speed(&s, m, r, r->tasks.v[i], PMBENCH_TASK_SCENARIO,
				  e->pm, 1))
				pmbench_buf_addf(b, "; %s", s.ptr);
			pmbench_buf_release(&s);
		}
	}
	pmbench_resolution_diff_release(&d);
	pmbench_strvec_release(&x);
	pmbench_strvec_release(&y);
}

static void print_changes(FILE *out, const struct pmbench_migrate_pm *src,
			  const struct pmbench_migrate_pm *e, int markdown)
{
	struct pmbench_resolution_diff d = PMBENCH_RESOLUTION_DIFF_INIT;

	if (!src->scanned || !e->scanned)
		return;
	pmbench_resolution_diff(&d, &src->res, &e->res);
	for (size_t i = 0; i < d.changes_nr && i < CHANGES_SHOWN; i++) {
		const struct pmbench_change *c = &d.changes[i];

		fprintf(out, "%s%s ", markdown ? "- " : "    ", c->name);
		if (c->kind == PMBENCH_CHANGE_VERSION)
			fprintf(out, "%s -> %s (%s)\n", c->from, c->to,
				c->level);
		else if (c->kind == PMBENCH_CHANGE_ONLY_SOURCE)
			fprintf(out, "%s only under %s\n", c->from, src->pm);
		else
			fprintf(out, "%s only under %s\n", c->to, e->pm);
	}
	if (d.changes_nr > CHANGES_SHOWN)
		fprintf(out, "%s... and %zu more (all in the JSON report)\n",
			markdown ? "- " : "    ", d.changes_nr - CHANGES_SHOWN);
	pmbench_resolution_diff_release(&d);
}

void pmbench_migrate_print(FILE *out, const struct pmbench_migrate *m,
			   const struct pmbench_result *r, int markdown)
{
	const struct pmbench_migrate_pm *src =
		pmbench_migrate_get(m, m->source_pm);
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	fprintf(out, "%sMigration from %s (%s)\n\n",
		markdown ? "# " : "", m->source_pm, m->detected_by);
	for (size_t i = 0; i < m->pms_nr; i++) {
		pmbench_buf_reset(&b);
		verdict(&b, m, r, &m->pms[i]);
		fprintf(out, "%s%s%s\n", markdown ? "- " : "",
			&m->pms[i] == src ? "(source) " : "", b.ptr);
	}
	for (size_t i = 0; src && i < m->pms_nr; i++) {
		const struct pmbench_migrate_pm *e = &m->pms[i];
		struct pmbench_strvec x = PMBENCH_STRVEC_INIT;
		struct pmbench_strvec y = PMBENCH_STRVEC_INIT;

		if (e == src)
			continue;
		fprintf(out, "\n%s%s against %s\n", markdown ? "## " : "",
			e->pm, src->pm);
		if (e->prime_failure) {
			fprintf(out, "%s\n", e->prime_failure);
			continue;
		}
		print_changes(out, src, e, markdown);
		script_differences(src, e, &x, &y);
		for (size_t k = 0; k < x.nr && k < CHANGES_SHOWN; k++)
			fprintf(out, "%sinstall-script file only under %s: %s\n",
				markdown ? "- " : "    ", src->pm, x.v[k]);
		for (size_t k = 0; k < y.nr && k < CHANGES_SHOWN; k++)
			fprintf(out, "%sinstall-script file only under %s: %s\n",
				markdown ? "- " : "    ", e->pm, y.v[k]);
		fprintf(out, "%sscripts: %s: %s\n", markdown ? "- " : "    ",
			src->pm, src->scripts ? src->scripts : "?");
		fprintf(out, "%sscripts: %s: %s\n", markdown ? "- " : "    ",
			e->pm, e->scripts ? e->scripts : "?");
		for (size_t k = 0; k < e->tasks_nr; k++)
			if (e->tasks[k].ran && !e->tasks[k].ok)
				fprintf(out, "%s%s %s: %s\n",
					markdown ? "- " : "    ",
					e->tasks[k].name,
					e->tasks[k].interrupted ? "interrupted"
								: "failed",
					e->tasks[k].failure);
		for (size_t k = 0; k < r->scenarios.nr; k++) {
			pmbench_buf_reset(&b);
			if (speed(&b, m, r, "install", r->scenarios.v[k], e->pm,
				  0))
				fprintf(out, "%s%s\n", markdown ? "- " : "    ",
					b.ptr);
		}
		pmbench_strvec_release(&x);
		pmbench_strvec_release(&y);
	}
	pmbench_buf_release(&b);
}

/* ---- JSON ------------------------------------------------------------------ */

static cJSON *must(cJSON *item)
{
	if (!item)
		pmbench_die("out of memory building JSON");
	return item;
}

static void add_str(cJSON *o, const char *key, const char *s)
{
	must(s ? cJSON_AddStringToObject(o, key, s)
	       : cJSON_AddNullToObject(o, key));
}

static void add_item(cJSON *arr, cJSON *item)
{
	if (!cJSON_AddItemToArray(arr, must(item)))
		pmbench_die("out of memory building JSON");
}

static cJSON *diff_json(const struct pmbench_migrate_pm *src,
			const struct pmbench_migrate_pm *e)
{
	struct pmbench_resolution_diff d = PMBENCH_RESOLUTION_DIFF_INIT;
	cJSON *o = must(cJSON_CreateObject()), *arr;

	pmbench_resolution_diff(&d, &src->res, &e->res);
	must(cJSON_AddNumberToObject(o, "identical", (double)d.identical));
	must(cJSON_AddNumberToObject(o, "changed", (double)d.changed));
	must(cJSON_AddNumberToObject(o, "only_source", (double)d.only_source));
	must(cJSON_AddNumberToObject(o, "only_target", (double)d.only_target));
	arr = must(cJSON_AddArrayToObject(o, "changes"));
	for (size_t i = 0; i < d.changes_nr; i++) {
		const struct pmbench_change *c = &d.changes[i];
		cJSON *x = must(cJSON_CreateObject());

		add_str(x, "kind",
			c->kind == PMBENCH_CHANGE_VERSION ? "version"
			: c->kind == PMBENCH_CHANGE_ONLY_SOURCE ? "only_source"
								: "only_target");
		add_str(x, "name", c->name);
		add_str(x, "from", c->from);
		add_str(x, "to", c->to);
		add_str(x, "level", c->level);
		add_item(arr, x);
	}
	pmbench_resolution_diff_release(&d);
	return o;
}

char *pmbench_migrate_to_json(const struct pmbench_migrate *m,
			      const struct pmbench_result *r)
{
	const struct pmbench_migrate_pm *src =
		pmbench_migrate_get(m, m->source_pm);
	cJSON *root = must(cJSON_CreateObject()), *arr, *res;
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	char *rjson, *text;

	add_str(root, "schema", "pmbench-migrate");
	must(cJSON_AddNumberToObject(root, "version", 1));
	add_str(root, "source_pm", m->source_pm);
	add_str(root, "source_lockfile", m->source_lock);
	add_str(root, "detected_by", m->detected_by);
	must(cJSON_AddBoolToObject(root, "all_ok", pmbench_migrate_all_ok(m, r)));
	arr = must(cJSON_AddArrayToObject(root, "pms"));
	for (size_t i = 0; i < m->pms_nr; i++) {
		const struct pmbench_migrate_pm *e = &m->pms[i];
		cJSON *o = must(cJSON_CreateObject()), *t, *x;
		struct pmbench_buf v = PMBENCH_BUF_INIT;
		struct pmbench_strvec a = PMBENCH_STRVEC_INIT;
		struct pmbench_strvec z = PMBENCH_STRVEC_INIT;

		add_str(o, "pm", e->pm);
		must(cJSON_AddBoolToObject(o, "source", e == src));
		verdict(&v, m, r, e);
		add_str(o, "verdict", v.ptr);
		add_str(o, "lockfile", e->lockfile);
		add_str(o, "install_failure", e->prime_failure);
		add_str(o, "scripts", e->scripts);
		must(cJSON_AddNumberToObject(o, "packages", (double)e->res.nr));
		if (src && e != src && src->scanned && e->scanned) {
			if (!cJSON_AddItemToObject(o, "resolution",
						   diff_json(src, e)))
				pmbench_die("out of memory building JSON");
			script_differences(src, e, &a, &z);
			x = must(cJSON_AddArrayToObject(o, "script_files_only_source"));
			for (size_t k = 0; k < a.nr; k++)
				add_item(x, cJSON_CreateString(a.v[k]));
			x = must(cJSON_AddArrayToObject(o, "script_files_only_target"));
			for (size_t k = 0; k < z.nr; k++)
				add_item(x, cJSON_CreateString(z.v[k]));
		}
		t = must(cJSON_AddArrayToObject(o, "tasks"));
		for (size_t k = 0; k < e->tasks_nr; k++) {
			const struct pmbench_migrate_task *tk = &e->tasks[k];

			x = must(cJSON_CreateObject());
			add_str(x, "name", tk->name);
			must(cJSON_AddBoolToObject(x, "ran", tk->ran));
			must(cJSON_AddBoolToObject(x, "ok", tk->ok));
			must(cJSON_AddBoolToObject(x, "interrupted",
						   tk->interrupted));
			add_str(x, "failure", tk->failure);
			must(cJSON_AddNumberToObject(x, "wall_s", tk->wall_s));
			add_item(t, x);
		}
		must(cJSON_AddNumberToObject(o, "build_files",
					     (double)e->build_files.nr));
		must(cJSON_AddNumberToObject(o, "build_bytes",
					     (double)e->build_bytes));
		add_item(arr, o);
		pmbench_buf_release(&v);
		pmbench_strvec_release(&a);
		pmbench_strvec_release(&z);
	}
	rjson = pmbench_result_to_json(r);
	res = cJSON_Parse(rjson);
	free(rjson);
	if (!res || !cJSON_AddItemToObject(root, "result", res))
		pmbench_die("out of memory building JSON");
	text = cJSON_Print(root);
	if (!text)
		pmbench_die("out of memory printing JSON");
	pmbench_buf_adds(&out, text);
	pmbench_buf_addch(&out, '\n');
	cJSON_free(text);
	cJSON_Delete(root);
	return pmbench_buf_detach(&out);
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
	}
	free(m->pms);
	free(m->source_pm);
	free(m->source_lock);
	free(m->detected_by);
	pmbench_strvec_release(&m->tasks);
	memset(m, 0, sizeof(*m));
}
