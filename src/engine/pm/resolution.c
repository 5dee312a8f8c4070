/*
 * What a PM resolved: the packages and versions of its installed tree
 * (read from node_modules and the lockfiles), their install scripts, and
 * the differences between two PMs' trees that migrate reports.
 */

#include "pmbench/common.h"

#include <dirent.h>
#include <sys/stat.h>

#include <archive.h>
#include <archive_entry.h>
#include <cjson/cJSON.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/resolution.h"

/* Deeper than any real tree; a guard against loops we cannot see. */
#define MAX_DEPTH	 48
#define PACKAGE_JSON_MAX (4u << 20)
/* A .pnp.cjs of tens of thousands of packages is tens of megabytes. */
#define PNP_MAX (256u << 20)

struct scan {
	struct pmbench_resolution *out;
	size_t root_len; /* strip this much of a path to make it relative */
};

void pmbench_resolution_add(struct pmbench_resolution *r, const char *name,
			    const char *version, const char *path,
			    int has_script)
{
	struct pmbench_package *p;

	PMBENCH_ALLOC_GROW(r->pkgs, r->nr + 1, r->alloc);
	p = &r->pkgs[r->nr++];
	p->name = pmbench_xstrdup(name);
	p->version = pmbench_xstrdup(version);
	p->path = pmbench_xstrdup(path);
	p->has_script = has_script;
	p->copies = 1;
}

static void add_package(struct scan *sc, const char *dir, const char *name,
			const char *version, int has_script)
{
	const char *rel = dir + sc->root_len;

	while (*rel == '/')
		rel++;
	pmbench_resolution_add(sc->out, name, version, rel, has_script);
}

/* Does this package.json name a script that runs at install time? */
static int lifecycle_script(const cJSON *json)
{
	const cJSON *scripts =
		cJSON_GetObjectItemCaseSensitive(json, "scripts");

	return cJSON_IsObject(scripts) &&
	       (cJSON_GetObjectItemCaseSensitive(scripts, "preinstall") ||
		cJSON_GetObjectItemCaseSensitive(scripts, "install") ||
		cJSON_GetObjectItemCaseSensitive(scripts, "postinstall"));
}

/* Does the package in `dir` run code at install time? */
static int install_script(const cJSON *json, const char *dir)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int found;

	if (lifecycle_script(json))
		return 1;
	/* npm and yarn 1 run node-gyp rebuild for a binding.gyp by itself. */
	pmbench_buf_path(&p, dir, "binding.gyp");
	found = pmbench_fs_isfile(p.ptr);
	pmbench_buf_release(&p);
	return found;
}

static void scan_node_modules(struct scan *sc, const char *nm, int depth);

static void scan_package(struct scan *sc, const char *dir, int depth)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	const cJSON *name, *version;
	cJSON *json = NULL;

	pmbench_buf_path(&p, dir, "package.json");
	if (pmbench_fs_read(&text, p.ptr, PACKAGE_JSON_MAX) == 0)
		json = cJSON_Parse(text.ptr);
	name = cJSON_GetObjectItemCaseSensitive(json, "name");
	version = cJSON_GetObjectItemCaseSensitive(json, "version");
	if (cJSON_IsString(name) && cJSON_IsString(version) &&
	    *name->valuestring && *version->valuestring)
		add_package(sc, dir, name->valuestring, version->valuestring,
			    install_script(json, dir));
	cJSON_Delete(json);
	pmbench_buf_reset(&p);
	pmbench_buf_path(&p, dir, "node_modules");
	scan_node_modules(sc, p.ptr, depth + 1);
	pmbench_buf_release(&p);
	pmbench_buf_release(&text);
}

/*
 * A store folder inside node_modules (the PM table's `stores`: pnpm's
 * .pnpm, deno's .deno, npm's linked .store, bun's isolated .bun): one
 * folder per package, <id>/node_modules/<name> (pnpm, deno, npm, bun;
 * npm nests scoped ids in @scope/), or <id>/package (yarn 4's pnpm
 * linker). Its own node_modules holds hoisted links, not packages.
 */
static int real_dir(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void scan_store(struct scan *sc, const char *store, int depth)
{
	struct pmbench_buf id = PMBENCH_BUF_INIT, q = PMBENCH_BUF_INIT;
	struct dirent *de;
	DIR *d = depth > MAX_DEPTH ? NULL : opendir(store);

	while (d && (de = readdir(d))) {
		int found = 0;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "node_modules"))
			continue;
		pmbench_buf_reset(&id);
		pmbench_buf_path(&id, store, de->d_name);
		pmbench_buf_reset(&q);
		pmbench_buf_path(&q, id.ptr, "package");
		if (real_dir(q.ptr)) {
			scan_package(sc, q.ptr, depth + 1);
			found = 1;
		}
		pmbench_buf_reset(&q);
		pmbench_buf_path(&q, id.ptr, "node_modules");
		if (real_dir(q.ptr)) {
			scan_node_modules(sc, q.ptr, depth + 1);
			found = 1;
		}
		/* Not a package's folder: npm's @scope/ of scoped ids. */
		if (!found && de->d_name[0] == '@')
			scan_store(sc, id.ptr, depth + 1);
	}
	if (d)
		closedir(d);
	pmbench_buf_release(&id);
	pmbench_buf_release(&q);
}

static void scan_node_modules(struct scan *sc, const char *nm, int depth)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	struct dirent *de;
	DIR *d;

	if (depth > MAX_DEPTH)
		return;
	d = opendir(nm);
	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		struct stat st;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, nm, n);
		/* Symlinks are links into a store or to workspaces. */
		if (lstat(p.ptr, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (pmbench_pm_is_store(n))
			scan_store(sc, p.ptr, depth);
		else if (n[0] == '@')
			scan_node_modules(sc, p.ptr, depth);
		else if (n[0] != '.')
			scan_package(sc, p.ptr, depth);
	}
	closedir(d);
	pmbench_buf_release(&p);
}

static int cmp_package(const void *a, const void *b)
{
	const struct pmbench_package *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (!c)
		c = strcmp(x->version, y->version);
	if (!c)
		c = strcmp(x->path, y->path);
	return c;
}

void pmbench_resolution_sort(struct pmbench_resolution *r)
{
	size_t w = 0;

	if (r->nr)
		qsort(r->pkgs, r->nr, sizeof(*r->pkgs), cmp_package);
	for (size_t i = 0; i < r->nr; i++) {
		struct pmbench_package *p = &r->pkgs[i];

		if (w && !strcmp(r->pkgs[w - 1].name, p->name) &&
		    !strcmp(r->pkgs[w - 1].version, p->version)) {
			r->pkgs[w - 1].copies++;
			r->pkgs[w - 1].has_script |= p->has_script;
			free(p->name);
			free(p->version);
			free(p->path);
			continue;
		}
		r->pkgs[w++] = *p;
	}
	r->nr = w;
}

/* ---- Plug'n'Play ------------------------------------------------------- */

/*
 * Does the package in folder `member` ("node_modules/esbuild/") of the
 * zip archive `zip` (yarn's cache) run code at install time? A zip that
 * cannot be read says no.
 */
static int zip_install_script(const char *zip, const char *member)
{
	struct pmbench_buf json = PMBENCH_BUF_INIT;
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	size_t n = strlen(member);
	int found = 0, seen = 0;
	cJSON *parsed;

	archive_read_support_format_zip(a);
	if (archive_read_open_filename(a, zip, 16384) != ARCHIVE_OK)
		seen = 2;
	while (seen < 2 && archive_read_next_header(a, &e) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);
		char chunk[8192];
		la_ssize_t got;

		if (!name || strncmp(name, member, n))
			continue;
		if (!strcmp(name + n, "binding.gyp")) {
			found = 1;
			seen++;
		}
		if (strcmp(name + n, "package.json"))
			continue;
		seen++;
		while ((got = archive_read_data(a, chunk, sizeof(chunk))) > 0 &&
		       json.len < PACKAGE_JSON_MAX)
			pmbench_buf_add(&json, chunk, (size_t)got);
	}
	archive_read_free(a);
	parsed = cJSON_Parse(json.ptr);
	found |= lifecycle_script(parsed);
	cJSON_Delete(parsed);
	pmbench_buf_release(&json);
	return found;
}

/*
 * Undo yarn's quoting of the runtime state in .pnp.cjs: a single-quoted
 * JavaScript string with backslashes and quotes escaped and every line
 * ending in a backslash (a line continuation). `p` is after the opening
 * quote; the JSON goes into `out`. Returns 0, or -1 if it never ends.
 */
static int unquote_js(struct pmbench_buf *out, const char *p)
{
	for (; *p; p++) {
		if (*p == '\'')
			return 0;
		if (*p != '\\') {
			pmbench_buf_addch(out, *p);
			continue;
		}
		p++;
		if (*p == 'n')
			pmbench_buf_addch(out, '\n');
		else if (*p == 't')
			pmbench_buf_addch(out, '\t');
		else if (*p && *p != '\n')
			pmbench_buf_addch(out, *p);
		if (!*p)
			break;
	}
	return -1;
}

/*
 * The runtime state of a Plug'n'Play install in `project`: the JSON of
 * .pnp.data.json (pnpEnableInlining: false), else the one embedded in
 * .pnp.cjs as RAW_RUNTIME_STATE. NULL when there is neither.
 */
static cJSON *pnp_state(const char *project)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	struct pmbench_buf json = PMBENCH_BUF_INIT;
	const char *at;
	cJSON *state = NULL;

	pmbench_buf_path(&p, project, ".pnp.data.json");
	if (!pmbench_fs_read(&text, p.ptr, PNP_MAX)) {
		state = cJSON_Parse(text.ptr);
		goto done;
	}
	pmbench_error_clear();
	pmbench_buf_reset(&p);
	pmbench_buf_path(&p, project, ".pnp.cjs");
	if (pmbench_fs_read(&text, p.ptr, PNP_MAX) < 0) {
		pmbench_error_clear();
		goto done;
	}
	at = strstr(text.ptr, "RAW_RUNTIME_STATE =");
	if (at)
		at = strchr(at, '\'');
	if (at && !unquote_js(&json, at + 1))
		state = cJSON_Parse(json.ptr);
done:
	pmbench_buf_release(&p);
	pmbench_buf_release(&text);
	pmbench_buf_release(&json);
	return state;
}

/*
 * The name and version of a Plug'n'Play reference: "npm:1.2.3",
 * "npm:real-name@1.2.3" (an alias), or a "patch:" of one
 * ("patch:x@npm%3A1.2.3#..."). `name` starts as the entry's. 0, or -1
 * for references with no registry version (workspace:, link:, file:,
 * git) and for "virtual:<hash>#..." instances (the same package for
 * other peers, under .yarn/__virtual__: the map lists the package
 * itself too).
 */
static int pnp_version(struct pmbench_buf *name, struct pmbench_buf *version,
		       const char *ref)
{
	const char *v, *at;

	if (!strncmp(ref, "npm:", 4)) {
		v = ref + 4;
		at = strrchr(v, '@');
		if (at && at != v) {
			/* An alias: the package's own name. */
			pmbench_buf_reset(name);
			pmbench_buf_add(name, v, (size_t)(at - v));
			v = at + 1;
		}
	} else if (!strncmp(ref, "patch:", 6) && strstr(ref, "@npm%3A")) {
		v = strstr(ref, "@npm%3A") + 7;
	} else {
		return -1;
	}
	pmbench_buf_reset(version);
	pmbench_buf_add(version, v, strcspn(v, "#&"));
	return version->len ? 0 : -1;
}

/*
 * Whether the package at `loc` (a packageLocation, relative to the
 * project) has an install script: its package.json in a folder (an
 * unplugged package), or inside the zip of yarn's cache when the zip is
 * where the map says. A zip that is not there (the cache was moved
 * after the install) reads as no script.
 */
static int pnp_has_script(const char *project, const char *loc)
{
	struct pmbench_buf dir = PMBENCH_BUF_INIT, file = PMBENCH_BUF_INIT;
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	const char *zip_end = strstr(loc, ".zip/");
	cJSON *parsed = NULL;
	int found = 0;

	if (zip_end) {
		pmbench_buf_addf(&file, "%s/%.*s", project,
				 (int)(zip_end + 4 - loc), loc);
		found = zip_install_script(file.ptr, zip_end + 5);
		goto done;
	}
	pmbench_buf_path(&dir, project, loc);
	pmbench_buf_path(&file, dir.ptr, "package.json");
	if (pmbench_fs_read(&text, file.ptr, PACKAGE_JSON_MAX) < 0) {
		pmbench_error_clear();
		goto done;
	}
	parsed = cJSON_Parse(text.ptr);
	found = install_script(parsed, dir.ptr);
done:
	cJSON_Delete(parsed);
	pmbench_buf_release(&dir);
	pmbench_buf_release(&file);
	pmbench_buf_release(&text);
	return found;
}

/*
 * Whether the package at `loc` was installed: the map lists every
 * package of the lockfile, those of other platforms too (@esbuild/aix-
 * ppc64), whose folder or zip was never made. A zip missing from a cache
 * folder that is gone (moved after the install) cannot tell: it counts.
 */
static int pnp_installed(const char *project, const char *loc)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	const char *zip_end = strstr(loc, ".zip/");
	int ret;

	if (!zip_end) {
		pmbench_buf_path(&p, project, loc);
		ret = pmbench_fs_isdir(p.ptr);
	} else {
		pmbench_buf_addf(&p, "%s/%.*s", project,
				 (int)(zip_end + 4 - loc), loc);
		ret = pmbench_fs_isfile(p.ptr);
		if (!ret) {
			pmbench_buf_setlen(
				&p, (size_t)(strrchr(p.ptr, '/') - p.ptr));
			ret = !pmbench_fs_isdir(p.ptr);
		}
	}
	pmbench_buf_release(&p);
	return ret;
}

/*
 * What a Plug'n'Play install resolved: every installed package of the
 * map's packageRegistryData (name -> [reference, {packageLocation}]),
 * except the project and its workspaces.
 */
static void scan_pnp(struct scan *sc, const char *project)
{
	struct pmbench_buf name = PMBENCH_BUF_INIT, version = PMBENCH_BUF_INIT;
	struct pmbench_buf dir = PMBENCH_BUF_INIT;
	cJSON *state = pnp_state(project);
	const cJSON *entry, *ref;

	cJSON_ArrayForEach(entry, cJSON_GetObjectItemCaseSensitive(
					  state, "packageRegistryData"))
	{
		const cJSON *ident = cJSON_GetArrayItem(entry, 0);

		if (!cJSON_IsString(ident))
			continue; /* null: the project itself */
		cJSON_ArrayForEach(ref, cJSON_GetArrayItem(entry, 1))
		{
			const cJSON *r = cJSON_GetArrayItem(ref, 0);
			const cJSON *loc = cJSON_GetObjectItemCaseSensitive(
				cJSON_GetArrayItem(ref, 1), "packageLocation");
			const char *l;

			if (!cJSON_IsString(r) || !cJSON_IsString(loc))
				continue;
			pmbench_buf_reset(&name);
			pmbench_buf_adds(&name, ident->valuestring);
			if (pnp_version(&name, &version, r->valuestring) < 0)
				continue;
			l = loc->valuestring;
			l += !strncmp(l, "./", 2) ? 2 : 0;
			if (!pnp_installed(project, l))
				continue;
			pmbench_buf_reset(&dir);
			pmbench_buf_path(&dir, project, l);
			while (dir.len && dir.ptr[dir.len - 1] == '/')
				pmbench_buf_setlen(&dir, dir.len - 1);
			add_package(sc, dir.ptr, name.ptr, version.ptr,
				    pnp_has_script(project, l));
		}
	}
	cJSON_Delete(state);
	pmbench_buf_release(&name);
	pmbench_buf_release(&version);
	pmbench_buf_release(&dir);
}

int pmbench_resolution_scan(struct pmbench_resolution *out, const char *project)
{
	struct pmbench_strvec dirs = PMBENCH_STRVEC_INIT;
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	struct scan sc = { out, strlen(project) };
	int ret = pmbench_fs_find_dirs(&dirs, project, "node_modules");

	for (size_t i = 0; !ret && i < dirs.nr; i++) {
		/* Unplugged packages: the Plug'n'Play map lists them. */
		if (!strncmp(dirs.v[i], ".yarn/", 6))
			continue;
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, project, dirs.v[i]);
		scan_node_modules(&sc, p.ptr, 0);
	}
	if (!ret)
		scan_pnp(&sc, project);
	pmbench_resolution_sort(out);
	pmbench_strvec_release(&dirs);
	pmbench_buf_release(&p);
	return ret;
}

const struct pmbench_package *
pmbench_resolution_find(const struct pmbench_resolution *r, const char *name,
			const char *version)
{
	for (size_t i = 0; i < r->nr; i++)
		if (!strcmp(r->pkgs[i].name, name) &&
		    !strcmp(r->pkgs[i].version, version))
			return &r->pkgs[i];
	return NULL;
}

void pmbench_resolution_scripts(const struct pmbench_resolution *r,
				struct pmbench_strvec *out)
{
	for (size_t i = 0; i < r->nr; i++)
		if (r->pkgs[i].has_script)
			pmbench_strvec_pushf(out, "%s@%s", r->pkgs[i].name,
					     r->pkgs[i].version);
}

void pmbench_resolution_release(struct pmbench_resolution *r)
{
	for (size_t i = 0; i < r->nr; i++) {
		free(r->pkgs[i].name);
		free(r->pkgs[i].version);
		free(r->pkgs[i].path);
	}
	free(r->pkgs);
	r->pkgs = NULL;
	r->nr = r->alloc = 0;
}

/* ---- Versions ---------------------------------------------------------- */

struct semver {
	unsigned long long part[3];
	const char *pre; /* after '-', up to '+' or the end; NULL if none */
	size_t pre_len;
};

static int semver_parse(struct semver *v, const char *s)
{
	char *end;

	memset(v, 0, sizeof(*v));
	if (*s == 'v')
		s++;
	for (int i = 0; i < 3; i++) {
		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		v->part[i] = strtoull(s, &end, 10);
		if (errno)
			return -1;
		s = end;
		if (i < 2) {
			if (*s != '.')
				return -1;
			s++;
		}
	}
	if (*s == '-') {
		v->pre = ++s;
		v->pre_len = strcspn(s, "+");
		s += v->pre_len;
	}
	return *s == '\0' || *s == '+' ? 0 : -1;
}

const char *pmbench_semver_level(const char *a, const char *b)
{
	static const char *const names[] = { "major", "minor", "patch" };
	struct semver x, y;

	if (semver_parse(&x, a) < 0 || semver_parse(&y, b) < 0)
		return "other";
	for (int i = 0; i < 3; i++)
		if (x.part[i] != y.part[i])
			return names[i];
	return "other";
}

int pmbench_semver_cmp(const char *a, const char *b)
{
	struct semver x, y;
	int c;

	if (semver_parse(&x, a) < 0 || semver_parse(&y, b) < 0)
		return strcmp(a, b);
	for (int i = 0; i < 3; i++)
		if (x.part[i] != y.part[i])
			return x.part[i] < y.part[i] ? -1 : 1;
	/* A release ranks above its pre-releases. */
	if (!x.pre != !y.pre)
		return x.pre ? -1 : 1;
	if (x.pre) {
		size_t n = x.pre_len < y.pre_len ? x.pre_len : y.pre_len;

		c = strncmp(x.pre, y.pre, n);
		if (c)
			return c;
		if (x.pre_len != y.pre_len)
			return x.pre_len < y.pre_len ? -1 : 1;
	}
	return strcmp(a, b);
}

/* ---- Diff -------------------------------------------------------------- */

static void add_change(struct pmbench_resolution_diff *d,
		       enum pmbench_change_kind kind, const char *name,
		       const char *from, const char *to)
{
	struct pmbench_change *c;

	PMBENCH_ALLOC_GROW(d->changes, d->changes_nr + 1, d->changes_alloc);
	c = &d->changes[d->changes_nr++];
	c->kind = kind;
	c->name = name;
	c->from = from;
	c->to = to;
	c->level = kind == PMBENCH_CHANGE_VERSION
			   ? pmbench_semver_level(from, to)
			   : NULL;
	if (kind == PMBENCH_CHANGE_VERSION)
		d->changed++;
	else if (kind == PMBENCH_CHANGE_ONLY_SOURCE)
		d->only_source++;
	else
		d->only_target++;
}

static int cmp_version_ptr(const void *a, const void *b)
{
	return pmbench_semver_cmp(*(const char *const *)a,
				  *(const char *const *)b);
}

/* The end of the run of entries named like r->pkgs[i]. */
static size_t name_end(const struct pmbench_resolution *r, size_t i)
{
	size_t j = i;

	while (j < r->nr && !strcmp(r->pkgs[j].name, r->pkgs[i].name))
		j++;
	return j;
}

/*
 * One package name: versions in both are identical; the rest are paired
 * in ascending version order, and the remainder is only on one side.
 */
static void diff_name(struct pmbench_resolution_diff *d,
		      const struct pmbench_resolution *a, size_t ai, size_t ae,
		      const struct pmbench_resolution *b, size_t bi, size_t be)
{
	size_t na = 0, nb = 0, n;
	const char **ra = pmbench_xcalloc(ae - ai + 1, sizeof(*ra));
	const char **rb = pmbench_xcalloc(be - bi + 1, sizeof(*rb));
	const char *name = ai < ae ? a->pkgs[ai].name : b->pkgs[bi].name;

	for (size_t i = ai; i < ae; i++) {
		int both = 0;

		for (size_t j = bi; j < be && !both; j++)
			both = !strcmp(a->pkgs[i].version, b->pkgs[j].version);
		if (both)
			d->identical++;
		else
			ra[na++] = a->pkgs[i].version;
	}
	for (size_t j = bi; j < be; j++) {
		int both = 0;

		for (size_t i = ai; i < ae && !both; i++)
			both = !strcmp(a->pkgs[i].version, b->pkgs[j].version);
		if (!both)
			rb[nb++] = b->pkgs[j].version;
	}
	qsort(ra, na, sizeof(*ra), cmp_version_ptr);
	qsort(rb, nb, sizeof(*rb), cmp_version_ptr);
	n = na < nb ? na : nb;
	for (size_t i = 0; i < n; i++)
		add_change(d, PMBENCH_CHANGE_VERSION, name, ra[i], rb[i]);
	for (size_t i = n; i < na; i++)
		add_change(d, PMBENCH_CHANGE_ONLY_SOURCE, name, ra[i], NULL);
	for (size_t i = n; i < nb; i++)
		add_change(d, PMBENCH_CHANGE_ONLY_TARGET, name, NULL, rb[i]);
	free(ra);
	free(rb);
}

void pmbench_resolution_diff(struct pmbench_resolution_diff *out,
			     const struct pmbench_resolution *a,
			     const struct pmbench_resolution *b)
{
	size_t i = 0, j = 0;

	while (i < a->nr || j < b->nr) {
		int c;

		if (i >= a->nr)
			c = 1;
		else if (j >= b->nr)
			c = -1;
		else
			c = strcmp(a->pkgs[i].name, b->pkgs[j].name);
		if (c < 0) {
			size_t e = name_end(a, i);

			diff_name(out, a, i, e, b, j, j);
			i = e;
		} else if (c > 0) {
			size_t e = name_end(b, j);

			diff_name(out, a, i, i, b, j, e);
			j = e;
		} else {
			size_t ea = name_end(a, i), eb = name_end(b, j);

			diff_name(out, a, i, ea, b, j, eb);
			i = ea;
			j = eb;
		}
	}
}

void pmbench_resolution_diff_release(struct pmbench_resolution_diff *d)
{
	free(d->changes);
	memset(d, 0, sizeof(*d));
}
