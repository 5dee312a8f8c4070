/*
 * A PM at a version asked for (pmversion.h): its releases in the
 * toolchain's versions/ folder, found there without the network, and
 * installed from the npm registry under a lock, the range resolved
 * against the packument, the tarball checked against its integrity and
 * extracted by pmbench's confined extraction (node_install.c's), the
 * stamp written last.
 */
#include "pmbench/common.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "pmbench/conf.h"
#include "pmbench/ctx.h"
#include "pmbench/fs.h"
#include "pmbench/pmversion.h"
#include "pmbench/semver.h"
#include "pmbench/sha512.h"
#include "../node/node_registry.h"

#define STAMP	  ".pmbench-pm"
#define STAMP_MAX (64u << 10)

/*
 * The platform package of `base` for this machine (its table entry's
 * platforms), or NULL: none needed, or none for this machine.
 */
static const struct pmbench_pm_platform *
platform_of(const struct pmbench_pm *base)
{
	struct utsname u;

	if (!base->platforms || uname(&u) < 0)
		return NULL;
	for (const struct pmbench_pm_platform *p = base->platforms; p->machine;
	     p++)
		if (!strcmp(p->machine, u.machine))
			return p;
	return NULL;
}

/* Whether `base` needs a platform package pmbench has none for here. */
static int platform_missing(const struct pmbench_pm *base)
{
	return base->platforms && !base->platforms_if_named &&
	       !platform_of(base);
}

/*
 * The platform package release `version` of `base` needs: its table's
 * for this machine, unless the table needs it only where the release's
 * optionalDependencies name it and they don't (the packument `root`).
 */
static const struct pmbench_pm_platform *
platform_for(const struct pmbench_pm *base, const cJSON *root,
	     const char *version)
{
	const struct pmbench_pm_platform *plat = platform_of(base);
	const cJSON *entry, *optional;

	if (!plat || !base->platforms_if_named)
		return plat;
	entry = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(root, "versions"), version);
	optional =
		cJSON_GetObjectItemCaseSensitive(entry, "optionalDependencies");
	return cJSON_GetObjectItemCaseSensitive(optional, plat->package) ? plat
									 : NULL;
}

/* The package a PM's releases are published as ("@yarnpkg/cli-dist"). */
static const char *package_of(const struct pmbench_pm *base)
{
	return base->npm_package ? base->npm_package : base->name;
}

void pmbench_pm_release_release(struct pmbench_pm_release *r)
{
	free(r->dir);
	free(r->bin);
	free(r->version);
	free(r->engines_node);
	free(r->integrity);
	memset(r, 0, sizeof(*r));
}

static const char *json_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/*
 * Whether the stamp `root` of the folder `dir` is pmbench's own: written
 * by pmbench (installed_by) into the folder it names (<pm>@<version>).
 */
static int own_layout(const cJSON *root, const char *dir)
{
	const char *by = json_str(root, "installed_by");
	const char *pm = json_str(root, "pm"), *v = json_str(root, "version");
	const char *name = strrchr(dir, '/');
	struct pmbench_buf want = PMBENCH_BUF_INIT;
	int yes;

	if (!by || strcmp(by, "pmbench") || !pm || !v)
		return 0;
	pmbench_buf_addf(&want, "%s@%s", pm, v);
	yes = !strcmp(name ? name + 1 : dir, want.ptr);
	pmbench_buf_release(&want);
	return yes;
}

/* Read the stamp of the release folder `dir` into `out`: 0, or 1. */
static int read_stamp(struct pmbench_pm_release *out, const char *dir)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	cJSON *root = NULL;
	const char *version, *bin, *node;
	struct stat st;
	int ret = 1;

	pmbench_buf_path(&p, dir, STAMP);
	if (pmbench_fs_read_text(&text, p.ptr, STAMP_MAX) < 0)
		pmbench_error_clear();
	else
		root = cJSON_Parse(text.ptr);
	version = json_str(root, "version");
	bin = json_str(root, "bin");
	node = json_str(root, "engines_node");
	if (version && bin && !strstr(bin, "..") && *bin != '/') {
		out->dir = pmbench_xstrdup(dir);
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, dir, bin);
		out->bin = pmbench_buf_detach(&p);
		out->version = pmbench_xstrdup(version);
		out->engines_node = node ? pmbench_xstrdup(node) : NULL;
		node = json_str(root, "integrity");
		out->integrity = node ? pmbench_xstrdup(node) : NULL;
		out->own = own_layout(root, dir);
		if (stat(dir, &st) == 0) {
			out->dev = st.st_dev;
			out->ino = st.st_ino;
		}
		ret = 0;
	}
	cJSON_Delete(root);
	pmbench_buf_release(&p);
	pmbench_buf_release(&text);
	return ret;
}

/* Whether the folder name `name` is a release of `base` in `range`. */
static int release_matches(const char *name, const char *base,
			   const char *range, struct pmbench_semver *v)
{
	size_t n = strlen(base);

	if (strncmp(name, base, n) || name[n] != '@' ||
	    pmbench_semver_parse(v, name + n + 1) < 0)
		return 0;
	return pmbench_semver_satisfies(range, v) == 1;
}

/* Whether the folder `name` of `dir` has a stamp. */
static int stamped(const char *dir, const char *name)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int yes;

	pmbench_buf_addf(&p, "%s/%s/" STAMP, dir, name);
	yes = pmbench_fs_isfile(p.ptr);
	pmbench_buf_release(&p);
	return yes;
}

/* The newest stamped folder of the versions folder `dir` that matches. */
static char *newest_match(const char *dir, const char *base, const char *range)
{
	struct pmbench_semver best = { .major = 0 }, v;
	DIR *d = opendir(dir);
	struct dirent *e;
	char *found = NULL;

	while (d && (e = readdir(d))) {
		if (!release_matches(e->d_name, base, range, &v) ||
		    (found && pmbench_semver_order(&v, &best) <= 0) ||
		    !stamped(dir, e->d_name))
			continue;
		free(found);
		found = pmbench_xstrdup(e->d_name);
		best = v;
	}
	if (d)
		closedir(d);
	return found;
}

int pmbench_pm_release_find(struct pmbench_pm_release *out,
			    const char *toolchain_dir,
			    const struct pmbench_pm *pm, const char *range)
{
	const char *base = pmbench_pm_base(pm)->name;
	struct pmbench_buf dir = PMBENCH_BUF_INIT;
	char *name = NULL;
	int ret = 1;

	if (!range)
		range = pm->version;
	if (!toolchain_dir || !range)
		return 1;
	pmbench_buf_path(&dir, toolchain_dir, "versions");
	name = newest_match(dir.ptr, base, range);
	if (name) {
		pmbench_buf_addf(&dir, "/%s", name);
		ret = read_stamp(out, dir.ptr);
	}
	free(name);
	pmbench_buf_release(&dir);
	return ret;
}

/*
 * The versions of packument `root`, releases only, sorted oldest first
 * into `out`.
 */
static void sorted_versions(struct pmbench_strvec *out, const cJSON *root)
{
	const cJSON *e;

	cJSON_ArrayForEach(e,
			   cJSON_GetObjectItemCaseSensitive(root, "versions"))
	{
		struct pmbench_semver v, w;
		size_t i = out->nr;

		if (!e->string || pmbench_semver_parse(&v, e->string) < 0 ||
		    v.prerelease)
			continue;
		pmbench_strvec_push(out, e->string);
		/* Insertion: packuments are nearly sorted already. */
		while (i > 0 && !pmbench_semver_parse(&w, out->v[i - 1]) &&
		       pmbench_semver_order(&w, &v) > 0) {
			char *t = out->v[i - 1];

			out->v[i - 1] = out->v[i];
			out->v[i] = t;
			i--;
		}
	}
}

/* What to install: the release, its tarball and what is inside. */
struct plan {
	struct pmbench_npm_tarball tarball;
	char *bin;	    /* inside the package */
	char *engines_node; /* NULL: any */
	int again;	    /* a folder of its own that did not answer */
};

static void plan_release(struct plan *p)
{
	pmbench_npm_tarball_release(&p->tarball);
	free(p->bin);
	free(p->engines_node);
	memset(p, 0, sizeof(*p));
}

/* The binary `command` of a package.json `bin` (a string or object). */
static char *bin_of(const cJSON *version, const char *command)
{
	const cJSON *bin = cJSON_GetObjectItemCaseSensitive(version, "bin");
	const char *s = cJSON_IsString(bin) ? bin->valuestring
					    : json_str(bin, command);

	if (!s)
		return NULL;
	while (!strncmp(s, "./", 2))
		s += 2;
	if (!*s || *s == '/' || strstr(s, ".."))
		return NULL;
	return pmbench_xstrdup(s);
}

/* Resolve `pm->version` against the main package's packument. */
static int plan_main(struct plan *out, char **version, const cJSON *root,
		     const struct pmbench_pm *pm)
{
	struct pmbench_strvec all = PMBENCH_STRVEC_INIT;
	const struct pmbench_pm *base = pmbench_pm_base(pm);
	const cJSON *entry;
	long i;
	int ret = 0;

	sorted_versions(&all, root);
	i = pmbench_semver_max_satisfying((const char *const *)all.v, all.nr,
					  pm->version);
	if (i < 0) {
		ret = pmbench_error_set("the registry has no %s release "
					"that satisfies '%s' (newest: %s); "
					"'pmbench pms --versions %s' lists "
					"them",
					package_of(base), pm->version,
					all.nr ? all.v[all.nr - 1] : "none",
					base->name);
		goto done;
	}
	*version = pmbench_xstrdup(all.v[i]);
	entry = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(root, "versions"), *version);
	if (json_str(cJSON_GetObjectItemCaseSensitive(entry, "engines"),
		     "node"))
		out->engines_node = pmbench_xstrdup(json_str(
			cJSON_GetObjectItemCaseSensitive(entry, "engines"),
			"node"));
	out->bin = bin_of(entry, pmbench_pm_command_name(base));
done:
	pmbench_strvec_release(&all);
	return ret;
}

/* The plan for `pm` at its range, from the registry. */
static int plan_make(struct plan *out, struct pmbench_ctx *ctx,
		     const char *registry, const struct pmbench_pm *pm)
{
	const struct pmbench_pm *base = pmbench_pm_base(pm);
	const struct pmbench_pm_platform *plat = NULL;
	cJSON *root = NULL;
	char *version = NULL;
	int ret;

	pmbench_ctx_status(ctx, "installing %s@%s: asking the registry",
			   base->name, pm->version);
	ret = pmbench_npm_packument(&root, ctx, registry, package_of(base));
	if (!ret)
		ret = plan_main(out, &version, root, pm);
	if (!ret)
		plat = platform_for(base, root, version);
	if (!ret && plat) {
		/* The binary is the platform package's, same version. */
		cJSON_Delete(root);
		root = NULL;
		free(out->bin);
		out->bin = pmbench_xstrdup(plat->bin);
		ret = pmbench_npm_packument(&root, ctx, registry,
					    plat->package);
	}
	out->tarball.package = plat ? plat->package : package_of(base);
	if (!ret)
		ret = pmbench_npm_tarball_of(&out->tarball, root, version);
	if (!ret && !out->bin)
		ret = pmbench_error_set("%s %s names no '%s' binary in its "
					"package.json",
					package_of(base), version,
					pmbench_pm_command_name(base));
	cJSON_Delete(root);
	free(version);
	return ret;
}

/* The stamp, last: what the folder holds. */
static int write_stamp(const char *dir, const struct pmbench_pm *pm,
		       const struct plan *p)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	cJSON *o = cJSON_CreateObject();
	char *text;
	int ret;

	cJSON_AddStringToObject(o, "pm", pmbench_pm_base(pm)->name);
	cJSON_AddStringToObject(o, "package", p->tarball.package);
	cJSON_AddStringToObject(o, "version", p->tarball.version);
	cJSON_AddStringToObject(o, "integrity", p->tarball.integrity);
	cJSON_AddStringToObject(o, "bin", p->bin);
	if (p->engines_node)
		cJSON_AddStringToObject(o, "engines_node", p->engines_node);
	cJSON_AddStringToObject(o, "installed_by", "pmbench");
	text = cJSON_Print(o);
	pmbench_buf_path(&path, dir, STAMP);
	ret = pmbench_fs_write_atomic(path.ptr, text, strlen(text));
	free(text);
	cJSON_Delete(o);
	pmbench_buf_release(&path);
	return ret;
}

/* Extract the plan into `partial`, its binary executable, stamped. */
static int lay_out(struct pmbench_ctx *ctx, const char *partial,
		   const char *confine, const struct pmbench_pm *pm,
		   const struct plan *p)
{
	struct pmbench_buf label = PMBENCH_BUF_INIT, bin = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_addf(&label, "%s %s", pmbench_pm_base(pm)->name,
			 p->tarball.version);
	/* The extraction makes the folder: a failed download leaves none. */
	ret = pmbench_npm_unpack(ctx, &p->tarball, partial, confine, label.ptr);
	pmbench_buf_path(&bin, partial, p->bin);
	if (!ret && !pmbench_fs_isfile(bin.ptr))
		ret = pmbench_error_set("%s has no '%s' in its package",
					label.ptr, p->bin);
	if (!ret && chmod(bin.ptr, 0755) < 0)
		ret = pmbench_error_set("cannot make '%s' executable: %s",
					bin.ptr, strerror(errno));
	if (!ret)
		ret = write_stamp(partial, pm, p);
	pmbench_buf_release(&label);
	pmbench_buf_release(&bin);
	return ret;
}

/* Install the plan as versions/<pm>@<version>, via a partial folder. */
static int install_plan(struct pmbench_ctx *ctx, const char *versions,
			const struct pmbench_pm *pm, const struct plan *p)
{
	const char *base = pmbench_pm_base(pm)->name;
	struct pmbench_buf dir = PMBENCH_BUF_INIT, partial = PMBENCH_BUF_INIT;
	int ret = 0;

	pmbench_buf_addf(&dir, "%s/%s@%s", versions, base, p->tarball.version);
	/* Its own partial folder: another one's leftover is no obstacle. */
	pmbench_buf_addf(&partial, "%s/.%s@%s.partial-%ld", versions, base,
			 p->tarball.version, (long)getpid());
	if (pmbench_fs_exists(partial.ptr))
		ret = pmbench_fs_rmtree(partial.ptr);
	if (!ret)
		ret = lay_out(ctx, partial.ptr, versions, pm, p);
	/* A folder without a stamp is a leftover: replaced. */
	if (!ret && pmbench_fs_exists(dir.ptr))
		ret = pmbench_fs_rmtree(dir.ptr);
	if (!ret && rename(partial.ptr, dir.ptr) < 0)
		ret = pmbench_error_set("cannot move '%s' to '%s': %s",
					partial.ptr, dir.ptr, strerror(errno));
	if (ret) {
		char *why = pmbench_xstrdup(pmbench_error_last());

		/* Outside pmbench's work folder it may not delete: left. */
		if (pmbench_fs_exists(partial.ptr) &&
		    pmbench_fs_rmtree(partial.ptr) < 0)
			pmbench_error_clear();
		ret = pmbench_error_setc(ret, "%s", why);
		free(why);
	} else if (p->again) {
		pmbench_ctx_event(ctx,
				  "%s@%s in %s did not answer --version: "
				  "installed again",
				  base, p->tarball.version, versions);
	} else {
		pmbench_ctx_event(ctx, "installed %s %s (for %s) into %s", base,
				  p->tarball.version, pm->name, dir.ptr);
	}
	pmbench_buf_release(&dir);
	pmbench_buf_release(&partial);
	return ret;
}

/* Take versions/.lock-<base>, waiting for another pmbench: the fd. */
static int lock_versions(int *fd, const struct pmbench_ctx *ctx,
			 const char *versions, const char *base)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int ret = pmbench_fs_mkdirp(versions, 0755);

	pmbench_buf_addf(&p, "%s/.lock-%s", versions, base);
	*fd = ret ? -1 : open(p.ptr, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (!ret && *fd < 0)
		ret = pmbench_error_set("cannot open '%s': %s", p.ptr,
					strerror(errno));
	if (!ret && flock(*fd, LOCK_EX | LOCK_NB) < 0) {
		pmbench_ctx_status(ctx,
				   "waiting for another pmbench "
				   "installing %s",
				   base);
		while (flock(*fd, LOCK_EX) < 0 && errno == EINTR &&
		       !pmbench_ctx_cancelled(ctx))
			;
	}
	if (!ret && pmbench_ctx_cancelled(ctx))
		ret = pmbench_error_setc(PMBENCH_EINTERRUPTED,
					 "stopped while waiting for '%s'",
					 p.ptr);
	pmbench_buf_release(&p);
	return ret;
}

/* Under the lock: installed meanwhile, or from the registry. */
static int ensure_locked(struct pmbench_ctx *ctx, const char *versions,
			 const struct pmbench_pm *pm)
{
	struct pmbench_pm_release rel = PMBENCH_PM_RELEASE_INIT;
	struct plan p = { .bin = NULL };
	char *registry = NULL;
	int ret = 0;

	if (!pmbench_pm_release_find(&rel, ctx->toolchain_dir, pm, NULL))
		goto done;
	registry = pmbench_node_registry_url(ctx);
	ret = plan_make(&p, ctx, registry, pm);
	if (!ret)
		ret = install_plan(ctx, versions, pm, &p);
done:
	pmbench_pm_release_release(&rel);
	plan_release(&p);
	free(registry);
	return ret;
}

int pmbench_pm_release_ensure(struct pmbench_ctx *ctx,
			      const struct pmbench_pm *pm)
{
	struct pmbench_pm_release rel = PMBENCH_PM_RELEASE_INIT;
	struct pmbench_buf versions = PMBENCH_BUF_INIT;
	const struct pmbench_pm *base = pmbench_pm_base(pm);
	int fd = -1, ret = 0;

	if (!pm->version || !strcmp(pm->version, PMBENCH_PM_PINNED))
		return 0;
	if (!pmbench_pm_release_find(&rel, ctx->toolchain_dir, pm, NULL))
		goto done;
	if (!ctx->toolchain_dir)
		ret = pmbench_error_set("no toolchain folder to install %s "
					"into",
					pm->name);
	else if (platform_missing(base))
		ret = pmbench_error_set("pmbench knows no %s package for "
					"this machine",
					base->name);
	if (ret)
		goto done;
	pmbench_buf_path(&versions, ctx->toolchain_dir, "versions");
	ret = lock_versions(&fd, ctx, versions.ptr, base->name);
	if (!ret)
		ret = ensure_locked(ctx, versions.ptr, pm);
done:
	if (ret) {
		char *why = pmbench_xstrdup(pmbench_error_last());

		ret = pmbench_error_setc(ret, "cannot install %s: %s", pm->name,
					 why);
		free(why);
	}
	if (fd >= 0)
		close(fd);
	pmbench_pm_release_release(&rel);
	pmbench_buf_release(&versions);
	return ret;
}

/*
 * Install the plan in place of `rel`'s folder, which is moved aside
 * first (`versions`/.<pm>@<version>.unanswered-<pid>) and back when the
 * install fails; then deleted, or, outside pmbench's work folder, left.
 */
static int replace_release(struct pmbench_ctx *ctx, const char *versions,
			   const struct pmbench_pm *pm, const struct plan *p,
			   const struct pmbench_pm_release *rel)
{
	struct pmbench_buf aside = PMBENCH_BUF_INIT;
	int ret = 0;

	pmbench_buf_addf(&aside, "%s/.%s@%s.unanswered-%ld", versions,
			 pmbench_pm_base(pm)->name, rel->version,
			 (long)getpid());
	if (rename(rel->dir, aside.ptr) < 0)
		ret = pmbench_error_set("cannot move '%s' aside: %s", rel->dir,
					strerror(errno));
	if (!ret)
		ret = install_plan(ctx, versions, pm, p);
	if (ret && pmbench_fs_exists(aside.ptr) &&
	    rename(aside.ptr, rel->dir) < 0)
		pmbench_error_set("cannot move '%s' back: %s", aside.ptr,
				  strerror(errno));
	if (!ret && pmbench_fs_rmtree(aside.ptr) < 0)
		pmbench_error_clear();
	pmbench_buf_release(&aside);
	return ret;
}

/*
 * Under the lock: `rel` installed again as it was asked for (its exact
 * version), unless another pmbench replaced its folder meanwhile.
 */
static int reinstall_locked(struct pmbench_ctx *ctx, const char *versions,
			    const struct pmbench_pm *pm,
			    const struct pmbench_pm_release *rel)
{
	struct pmbench_pm exact = *pm;
	struct plan p = { .again = 1 };
	struct stat st;
	char *registry = NULL;
	int ret;

	if (stat(rel->dir, &st) < 0 || st.st_dev != rel->dev ||
	    st.st_ino != rel->ino)
		return 0;
	exact.version = rel->version;
	registry = pmbench_node_registry_url(ctx);
	ret = plan_make(&p, ctx, registry, &exact);
	if (!ret)
		ret = replace_release(ctx, versions, &exact, &p, rel);
	plan_release(&p);
	free(registry);
	return ret;
}

int pmbench_pm_release_reinstall(struct pmbench_ctx *ctx,
				 const struct pmbench_pm *pm,
				 const struct pmbench_pm_release *rel)
{
	struct pmbench_buf versions = PMBENCH_BUF_INIT;
	int fd = -1, ret;

	if (!rel->own || !ctx || !ctx->toolchain_dir)
		return 1;
	pmbench_buf_path(&versions, ctx->toolchain_dir, "versions");
	ret = lock_versions(&fd, ctx, versions.ptr, pmbench_pm_base(pm)->name);
	if (!ret)
		ret = reinstall_locked(ctx, versions.ptr, pm, rel);
	if (ret) {
		char *why = pmbench_xstrdup(pmbench_error_last());

		ret = pmbench_error_setc(ret,
					 "%s@%s in %s did not answer "
					 "--version, and installing it again "
					 "failed: %s",
					 pmbench_pm_base(pm)->name,
					 rel->version, versions.ptr, why);
		free(why);
	}
	if (fd >= 0)
		close(fd);
	pmbench_buf_release(&versions);
	return ret;
}

int pmbench_pm_release_list(struct pmbench_strvec *out, struct pmbench_ctx *ctx,
			    const struct pmbench_pm *pm)
{
	char *registry = pmbench_node_registry_url(ctx);
	cJSON *root = NULL;
	int ret = pmbench_npm_packument(&root, ctx, registry,
					package_of(pmbench_pm_base(pm)));

	if (!ret)
		sorted_versions(out, root);
	cJSON_Delete(root);
	free(registry);
	return ret;
}

void pmbench_pm_release_installed(struct pmbench_strvec *out,
				  const char *toolchain_dir)
{
	struct pmbench_buf dir = PMBENCH_BUF_INIT;
	size_t from = out->nr;
	DIR *d;
	struct dirent *e;

	if (!toolchain_dir)
		return;
	pmbench_buf_path(&dir, toolchain_dir, "versions");
	d = opendir(dir.ptr);
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && stamped(dir.ptr, e->d_name))
			pmbench_strvec_push(out, e->d_name);
	if (d)
		closedir(d);
	pmbench_strvec_sort(out, from);
	pmbench_buf_release(&dir);
}

void pmbench_pm_ask_release(struct pmbench_pm_ask *a)
{
	free(a->version);
	free(a->hash);
	free(a->source);
	free(a->yarn_path);
	free(a->yarn_path_source);
	memset(a, 0, sizeof(*a));
}

/* "pnpm@9.15.0+sha512.<hex>" into `out`: 0, or 1 when it names no PM. */
static int ask_spec(struct pmbench_pm_ask *out, const char *spec,
		    const char *field)
{
	const char *at = strchr(spec, '@');
	const char *plus = at ? strchr(at, '+') : NULL;
	const struct pmbench_pm *pm = pmbench_pm_from_package_manager(spec);
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (!pm || !at || !at[1] || at[1] == '+')
		return 1;
	out->pm = pm;
	out->version = pmbench_xstrndup(at + 1, plus ? (size_t)(plus - at - 1)
						     : strlen(at + 1));
	out->hash = plus ? pmbench_xstrdup(plus + 1) : NULL;
	pmbench_buf_addf(&b, "the repo's %s", field);
	out->source = pmbench_buf_detach(&b);
	return 0;
}

/* devEngines.packageManager: an object, or a list whose first counts. */
static int ask_dev_engines(struct pmbench_pm_ask *out, const cJSON *pkg)
{
	const cJSON *pm = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(pkg, "devEngines"),
		"packageManager");
	struct pmbench_buf spec = PMBENCH_BUF_INIT;
	int ret = 1;

	if (cJSON_IsArray(pm))
		pm = cJSON_GetArrayItem(pm, 0);
	if (json_str(pm, "name") && json_str(pm, "version")) {
		pmbench_buf_addf(&spec, "%s@%s", json_str(pm, "name"),
				 json_str(pm, "version"));
		ret = ask_spec(out, spec.ptr, "devEngines.packageManager");
	}
	pmbench_buf_release(&spec);
	return ret;
}

/* engines.<pm> of the PMs with a packageManager name, first found. */
static int ask_engines(struct pmbench_pm_ask *out, const cJSON *pkg)
{
	const cJSON *eng = cJSON_GetObjectItemCaseSensitive(pkg, "engines");
	struct pmbench_buf spec = PMBENCH_BUF_INIT, field = PMBENCH_BUF_INIT;
	int ret = 1;

	for (size_t i = 0; ret && i < pmbench_pms_nr; i++) {
		const char *name = pmbench_pms[i].package_manager;
		const char *range = name ? json_str(eng, name) : NULL;

		if (!range ||
		    (i && pmbench_pms[i - 1].package_manager &&
		     !strcmp(pmbench_pms[i - 1].package_manager, name)))
			continue;
		pmbench_buf_reset(&spec);
		pmbench_buf_reset(&field);
		pmbench_buf_addf(&spec, "%s@%s", name, range);
		pmbench_buf_addf(&field, "engines.%s", name);
		ret = ask_spec(out, spec.ptr, field.ptr);
	}
	pmbench_buf_release(&spec);
	pmbench_buf_release(&field);
	return ret;
}

/* What the package.json in `dir` asks for: 0 and `out`, or 1. */
static int ask_package_json(struct pmbench_pm_ask *out, const char *dir)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	cJSON *pkg = NULL;
	const char *field;
	int ret = 1;

	pmbench_buf_path(&p, dir, "package.json");
	if (pmbench_fs_read_text(&text, p.ptr, 16u << 20) < 0)
		pmbench_error_clear();
	else
		pkg = cJSON_Parse(text.ptr);
	field = json_str(pkg, "packageManager");
	if (field)
		ret = ask_spec(out, field, "packageManager field");
	if (ret)
		ret = ask_dev_engines(out, pkg);
	if (ret)
		ret = ask_engines(out, pkg);
	cJSON_Delete(pkg);
	pmbench_buf_release(&p);
	pmbench_buf_release(&text);
	return ret;
}

/*
 * yarn berry's yarnPath in `dir`/.yarnrc.yml, relative to `dir` and
 * inside `root`: 0 and `out`'s yarn_path, or 1.
 */
static int ask_yarn_path(struct pmbench_pm_ask *out, const char *dir,
			 const char *root)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	struct pmbench_conf c = PMBENCH_CONF_INIT;
	const char *rel;
	int ret = 1;

	pmbench_buf_path(&p, dir, ".yarnrc.yml");
	if (pmbench_fs_read_text(&text, p.ptr, 1u << 20) < 0) {
		pmbench_error_clear();
		goto done;
	}
	pmbench_conf_parse(&c, PMBENCH_CONF_YAML, text.ptr, text.len);
	rel = pmbench_conf_get(&c, "yarnPath");
	if (!rel || !*rel || rel[0] == '/')
		goto done;
	pmbench_buf_reset(&p);
	pmbench_buf_path(&p, dir, rel);
	if (pmbench_fs_is_inside(root, p.ptr) != 1) {
		pmbench_error_clear();
		goto done;
	}
	out->yarn_path = pmbench_buf_detach(&p);
	pmbench_buf_reset(&text);
	pmbench_buf_addf(&text, "the repo's .yarnrc.yml yarnPath (%s)", rel);
	out->yarn_path_source = pmbench_buf_detach(&text);
	ret = 0;
done:
	pmbench_conf_release(&c);
	pmbench_buf_release(&p);
	pmbench_buf_release(&text);
	return ret;
}

int pmbench_pm_ask_repo(struct pmbench_pm_ask *out, const char *root,
			const char *subdir)
{
	struct pmbench_buf dir = PMBENCH_BUF_INIT;
	int ret = 1, yarn = 1;

	if (subdir && *subdir && strcmp(subdir, ".")) {
		pmbench_buf_path(&dir, root, subdir);
		ret = ask_package_json(out, dir.ptr);
		yarn = ask_yarn_path(out, dir.ptr, root);
	}
	if (ret)
		ret = ask_package_json(out, root);
	if (yarn)
		ask_yarn_path(out, root, root);
	pmbench_buf_release(&dir);
	return 0;
}

/* "sha512.<128 hex>" as an integrity ("sha512-<base64>"); 0, or -1. */
static int hash_integrity(struct pmbench_buf *out, const char *hex)
{
	unsigned char d[64];

	if (strncmp(hex, "sha512.", 7) || strlen(hex + 7) != 128 ||
	    hex[7 + strspn(hex + 7, "0123456789abcdefABCDEF")])
		return -1;
	for (size_t i = 0; i < 64; i++) {
		char two[3] = { hex[7 + 2 * i], hex[8 + 2 * i], 0 };

		d[i] = (unsigned char)strtoul(two, NULL, 16);
	}
	pmbench_buf_adds(out, "sha512-");
	pmbench_base64(out, d, sizeof(d));
	return 0;
}

/* The integrity of the file `path` ("sha512-<base64>"), or nothing. */
static void file_integrity(struct pmbench_buf *out, const char *path)
{
	struct pmbench_buf data = PMBENCH_BUF_INIT;
	struct pmbench_sha512 s;
	unsigned char d[64];

	if (pmbench_fs_read(&data, path, 256u << 20) < 0) {
		pmbench_error_clear();
		goto done;
	}
	pmbench_sha512_init(&s);
	pmbench_sha512_update(&s, data.ptr, data.len);
	pmbench_sha512_final(&s, d);
	pmbench_buf_adds(out, "sha512-");
	pmbench_base64(out, d, sizeof(d));
done:
	pmbench_buf_release(&data);
}

int pmbench_pm_release_check_hash(const struct pmbench_pm_release *rel,
				  const struct pmbench_pm_ask *ask)
{
	struct pmbench_buf want = PMBENCH_BUF_INIT, file = PMBENCH_BUF_INIT;
	int ret = 0;

	/* corepack's other hashes (sha1, sha224, sha256): not checked. */
	if (!ask->hash || strncmp(ask->hash, "sha512.", 7))
		return 0;
	if (hash_integrity(&want, ask->hash) < 0)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "%s names %s@%s with a hash that is "
					  "no sha512 ('%s'); fix the field",
					  ask->source, ask->pm->name,
					  ask->version, ask->hash);
	/* The tarball's (pnpm, npm, yarn 1), or the bundle's (yarn 2+). */
	file_integrity(&file, rel->bin);
	if ((!rel->integrity || strcmp(rel->integrity, want.ptr)) &&
	    strcmp(file.ptr, want.ptr))
		ret = pmbench_error_setc(
			PMBENCH_EINVALID,
			"%s names %s %s with hash %.20s..., but the registry's "
			"%s %s is %s; fix the field (corepack use %s@%s "
			"rewrites it)",
			ask->source, ask->pm->name, ask->version, ask->hash,
			ask->pm->name, rel->version,
			rel->integrity ? rel->integrity : "unknown",
			pmbench_pm_command_name(ask->pm), rel->version);
	pmbench_buf_release(&want);
	pmbench_buf_release(&file);
	return ret;
}
