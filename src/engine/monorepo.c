/*
 * A project's workspace packages: the globs of package.json's
 * "workspaces" or pnpm-workspace.yaml's "packages", expanded over the
 * project's folders, and the dependencies between the packages.
 */
#include "pmbench/common.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/monorepo.h"

#define PACKAGE_JSON_MAX (4u << 20)
/* How deep "**" looks, and how many packages a workspace may have. */
#define DEPTH_MAX 8
#define PKGS_MAX  10000

static const char *const dep_fields[] = { "dependencies", "devDependencies",
					  "optionalDependencies",
					  "peerDependencies", NULL };

/* The package.json in `dir`, parsed; NULL (no error) when there is none. */
static int read_json(cJSON **out, const char *dir)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	int ret = 0;

	*out = NULL;
	pmbench_buf_path(&p, dir, "package.json");
	if (!pmbench_fs_isfile(p.ptr))
		goto done;
	ret = pmbench_fs_read_text(&text, p.ptr, PACKAGE_JSON_MAX);
	if (!ret) {
		*out = cJSON_Parse(text.ptr);
		if (!*out)
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "'%s' is not JSON", p.ptr);
	}
done:
	pmbench_buf_release(&p);
	pmbench_buf_release(&text);
	return ret;
}

static void strings_of(struct pmbench_strvec *out, const cJSON *arr)
{
	const cJSON *it;

	cJSON_ArrayForEach(it, arr) if (cJSON_IsString(it) && *it->valuestring)
		pmbench_strvec_push(out, it->valuestring);
}

/* The item of a YAML list line ("- 'apps/web'"), unquoted, into `out`. */
static void yaml_item(struct pmbench_strvec *out, const char *v, size_t vn)
{
	while (vn && (*v == ' ' || *v == '\t')) {
		v++;
		vn--;
	}
	while (vn && strchr(" \t\r", v[vn - 1]))
		vn--;
	if (vn >= 2 && (*v == '\'' || *v == '"') && v[vn - 1] == *v) {
		v++;
		vn -= 2;
	}
	if (vn)
		pmbench_strvec_pushf(out, "%.*s", (int)vn, v);
}

/* The items of the list under the top-level key "packages:". */
static void yaml_packages(struct pmbench_strvec *out, const char *text)
{
	const char *l = text;
	int in = 0;

	while (l && *l) {
		size_t n = strcspn(l, "\n"), ind = strspn(l, " \t");
		const char *v = l + ind;
		size_t vn = n > ind ? n - ind : 0;

		if (vn && *v != '#' && !ind && *v != '-')
			in = vn >= 9 && !strncmp(v, "packages:", 9);
		else if (vn && in && *v == '-')
			yaml_item(out, v + 1, vn - 1);
		l = l[n] ? l + n + 1 : NULL;
	}
}

static int skipped_dir(const char *name)
{
	return name[0] == '.' || !strcmp(name, "node_modules");
}

/* Every folder below `rel` (itself first), down to DEPTH_MAX. */
static void all_below(struct pmbench_strvec *out, const char *project,
		      const char *rel, int depth)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	struct dirent *de;
	DIR *d;

	pmbench_strvec_push(out, rel);
	if (depth >= DEPTH_MAX || out->nr > PKGS_MAX)
		return;
	pmbench_buf_path(&p, project, rel);
	d = opendir(p.ptr);
	while (d && (de = pmbench_fs_readdir(d))) {
		struct pmbench_buf sub = PMBENCH_BUF_INIT,
				   full = PMBENCH_BUF_INIT;

		if (skipped_dir(de->d_name))
			continue;
		pmbench_buf_addf(&sub, "%s%s%s", rel, *rel ? "/" : "",
				 de->d_name);
		pmbench_buf_path(&full, project, sub.ptr);
		if (pmbench_fs_isdir(full.ptr))
			all_below(out, project, sub.ptr, depth + 1);
		pmbench_buf_release(&sub);
		pmbench_buf_release(&full);
	}
	if (d)
		closedir(d);
	pmbench_buf_release(&p);
}

/* The folders in `rel` whose names match `seg` (a glob segment). */
static void matching(struct pmbench_strvec *out, const char *project,
		     const char *rel, const char *seg)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT, sub = PMBENCH_BUF_INIT;
	struct dirent *de;
	DIR *d;

	pmbench_buf_path(&p, project, rel);
	d = opendir(p.ptr);
	while (d && (de = pmbench_fs_readdir(d))) {
		if (skipped_dir(de->d_name) || fnmatch(seg, de->d_name, 0))
			continue;
		pmbench_buf_reset(&sub);
		pmbench_buf_addf(&sub, "%s%s%s", rel, *rel ? "/" : "",
				 de->d_name);
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, project, sub.ptr);
		if (pmbench_fs_isdir(p.ptr))
			pmbench_strvec_push(out, sub.ptr);
	}
	if (d)
		closedir(d);
	pmbench_buf_release(&p);
	pmbench_buf_release(&sub);
}

/* The folders a glob names, segment by segment. */
static void expand(struct pmbench_strvec *out, const char *project,
		   const char *glob)
{
	struct pmbench_strvec segs = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec cur = PMBENCH_STRVEC_INIT;

	pmbench_strvec_split(&segs, glob, '/');
	pmbench_strvec_push(&cur, "");
	for (size_t s = 0; s < segs.nr && cur.nr; s++) {
		struct pmbench_strvec next = PMBENCH_STRVEC_INIT;
		const char *seg = segs.v[s];

		for (size_t i = 0; i < cur.nr && next.nr <= PKGS_MAX; i++) {
			if (!*seg || !strcmp(seg, "."))
				pmbench_strvec_push(&next, cur.v[i]);
			else if (!strcmp(seg, "**"))
				all_below(&next, project, cur.v[i], 0);
			else
				matching(&next, project, cur.v[i], seg);
		}
		pmbench_strvec_release(&cur);
		cur = next;
	}
	for (size_t i = 0; i < cur.nr; i++)
		if (*cur.v[i])
			pmbench_strvec_push(out, cur.v[i]);
	pmbench_strvec_release(&segs);
	pmbench_strvec_release(&cur);
}

static int excluded(const struct pmbench_strvec *patterns, const char *dir)
{
	for (size_t i = 0; i < patterns->nr; i++)
		if (patterns->v[i][0] == '!' &&
		    !fnmatch(patterns->v[i] + 1, dir, 0))
			return 1;
	return 0;
}

/* The globs: package.json's "workspaces", else pnpm-workspace.yaml. */
static void patterns_of(struct pmbench_monorepo *m, const cJSON *root,
			const char *project)
{
	const cJSON *ws = cJSON_GetObjectItemCaseSensitive(root, "workspaces");
	struct pmbench_buf p = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;

	if (cJSON_IsObject(ws))
		ws = cJSON_GetObjectItemCaseSensitive(ws, "packages");
	if (cJSON_IsArray(ws)) {
		m->listed_in = "package.json";
		strings_of(&m->patterns, ws);
		goto done;
	}
	pmbench_buf_path(&p, project, "pnpm-workspace.yaml");
	if (pmbench_fs_isfile(p.ptr) &&
	    !pmbench_fs_read_text(&text, p.ptr, PACKAGE_JSON_MAX)) {
		m->listed_in = "pnpm-workspace.yaml";
		yaml_packages(&m->patterns, text.ptr);
	}
	pmbench_error_clear();
done:
	pmbench_buf_release(&p);
	pmbench_buf_release(&text);
}

static char *string_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? pmbench_xstrdup(v->valuestring) : NULL;
}

static int by_dir(const void *a, const void *b)
{
	return strcmp(((const struct pmbench_monorepo_pkg *)a)->dir,
		      ((const struct pmbench_monorepo_pkg *)b)->dir);
}

/* Each folder the globs name that has a package.json is a package. */
static int add_packages(struct pmbench_monorepo *m, const char *project)
{
	struct pmbench_strvec dirs = PMBENCH_STRVEC_INIT;
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < m->patterns.nr; i++)
		if (m->patterns.v[i][0] != '!')
			expand(&dirs, project, m->patterns.v[i]);
	pmbench_strvec_sort(&dirs, 0);
	for (size_t i = 0; i < dirs.nr && !ret && m->pkgs_nr < PKGS_MAX; i++) {
		struct pmbench_monorepo_pkg *pkg;
		cJSON *json;

		if ((i && !strcmp(dirs.v[i], dirs.v[i - 1])) ||
		    excluded(&m->patterns, dirs.v[i]))
			continue;
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, project, dirs.v[i]);
		ret = read_json(&json, p.ptr);
		if (ret < 0 || !json)
			continue;
		PMBENCH_ALLOC_GROW(m->pkgs, m->pkgs_nr + 1, m->pkgs_alloc);
		pkg = &m->pkgs[m->pkgs_nr++];
		pkg->dir = pmbench_xstrdup(dirs.v[i]);
		pkg->name = string_of(json, "name");
		pkg->version = string_of(json, "version");
		cJSON_Delete(json);
	}
	if (m->pkgs_nr)
		qsort(m->pkgs, m->pkgs_nr, sizeof(*m->pkgs), by_dir);
	pmbench_strvec_release(&dirs);
	pmbench_buf_release(&p);
	return ret;
}

/* The internal dependencies in the package.json `json` of `dir`. */
static void add_refs(struct pmbench_monorepo *m, const cJSON *json,
		     const char *dir)
{
	for (const char *const *f = dep_fields; *f; f++) {
		const cJSON *deps = cJSON_GetObjectItemCaseSensitive(json, *f);
		const cJSON *d;

		if (!cJSON_IsObject(deps))
			continue;
		cJSON_ArrayForEach(d, deps)
		{
			const struct pmbench_monorepo_pkg *p =
				pmbench_monorepo_find(m, d->string);
			struct pmbench_monorepo_ref *r;

			if (!p || !cJSON_IsString(d))
				continue;
			PMBENCH_ALLOC_GROW(m->refs, m->refs_nr + 1,
					   m->refs_alloc);
			r = &m->refs[m->refs_nr++];
			r->dir = pmbench_xstrdup(dir);
			r->field = pmbench_xstrdup(*f);
			r->name = pmbench_xstrdup(d->string);
			r->range = pmbench_xstrdup(d->valuestring);
			r->pkg = (size_t)(p - m->pkgs);
		}
	}
}

int pmbench_monorepo_read(struct pmbench_monorepo *out, const char *project)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	cJSON *root = NULL, *json = NULL;
	int ret;

	pmbench_monorepo_release(out);
	ret = read_json(&root, project);
	if (ret < 0 || !root)
		goto done;
	out->root_private =
		cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "private"));
	patterns_of(out, root, project);
	ret = add_packages(out, project);
	if (ret < 0)
		goto done;
	add_refs(out, root, "");
	for (size_t i = 0; i < out->pkgs_nr && !ret; i++) {
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, project, out->pkgs[i].dir);
		ret = read_json(&json, p.ptr);
		if (json)
			add_refs(out, json, out->pkgs[i].dir);
		cJSON_Delete(json);
		json = NULL;
	}
done:
	cJSON_Delete(root);
	pmbench_buf_release(&p);
	return ret;
}

const struct pmbench_monorepo_pkg *
pmbench_monorepo_find(const struct pmbench_monorepo *m, const char *name)
{
	for (size_t i = 0; name && i < m->pkgs_nr; i++)
		if (m->pkgs[i].name && !strcmp(m->pkgs[i].name, name))
			return &m->pkgs[i];
	return NULL;
}

/* "1.2.3" into v[3]; parts that are "x", "X", "*" or missing are -1. */
static int parse_version(long v[3], const char *s)
{
	int n = 0;

	v[0] = v[1] = v[2] = -1;
	while (*s == 'v' || *s == '=' || *s == ' ')
		s++;
	while (n < 3 && *s) {
		char *end;

		if (*s == 'x' || *s == 'X' || *s == '*') {
			end = (char *)s + 1;
		} else {
			v[n] = strtol(s, &end, 10);
			if (end == s || v[n] < 0)
				return -1;
		}
		n++;
		s = end;
		if (*s != '.')
			break;
		s++;
	}
	return *s && *s != '-' && *s != '+' ? -1 : 0;
}

static int compare(const long a[3], const long b[3])
{
	for (int i = 0; i < 3; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

int pmbench_monorepo_range_matches(const struct pmbench_monorepo_pkg *p,
				   const char *range)
{
	long have[3], want[3];
	char op = 0;

	if (!*range || !strcmp(range, "*") || !strcmp(range, "latest"))
		return 1;
	if (!p->version || parse_version(have, p->version) < 0 || have[0] < 0 ||
	    have[1] < 0 || have[2] < 0)
		return 0;
	if (*range == '^' || *range == '~')
		op = *range++;
	else if (!strncmp(range, ">=", 2)) {
		op = '>';
		range += 2;
	}
	if (parse_version(want, range) < 0)
		return 0;
	for (int i = 0; i < 3; i++)
		if (want[i] < 0)
			want[i] = op == '>' ? 0 : -1;
	if (op == '>')
		return compare(have, want) >= 0;
	if (op == '^' || op == '~') {
		/* The parts that must stay: ^ the first non-zero, ~ two. */
		int keep = op == '~' ? 2 : want[0] ? 1 : want[1] ? 2 : 3;
		long floor[3];

		for (int i = 0; i < keep && i < 3; i++)
			if (want[i] >= 0 && want[i] != have[i])
				return 0;
		for (int i = 0; i < 3; i++)
			floor[i] = want[i] < 0 ? 0 : want[i];
		return compare(have, floor) >= 0;
	}
	for (int i = 0; i < 3; i++)
		if (want[i] >= 0 && want[i] != have[i])
			return 0;
	return 1;
}

/* The output folder in `dir` (relative, "" for the project), if any. */
static void output_in(struct pmbench_strvec *out, const char *project,
		      const char *dir, const char *output)
{
	static const char *const usual[] = { "dist", "build", "out", ".next",
					     NULL };
	const char *const one[] = { output, NULL };
	struct pmbench_buf rel = PMBENCH_BUF_INIT, p = PMBENCH_BUF_INIT;

	for (const char *const *o = output ? one : usual; *o; o++) {
		pmbench_buf_reset(&rel);
		pmbench_buf_addf(&rel, "%s%s%s", dir, *dir ? "/" : "", *o);
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, project, rel.ptr);
		if (pmbench_fs_isdir(p.ptr)) {
			pmbench_strvec_push(out, rel.ptr);
			break;
		}
	}
	pmbench_buf_release(&rel);
	pmbench_buf_release(&p);
}

int pmbench_monorepo_outputs(struct pmbench_strvec *out, const char *project,
			     const char *output)
{
	struct pmbench_monorepo m = PMBENCH_MONOREPO_INIT;
	int ret = pmbench_monorepo_read(&m, project);

	output_in(out, project, "", output);
	for (size_t i = 0; !ret && i < m.pkgs_nr; i++)
		output_in(out, project, m.pkgs[i].dir, output);
	pmbench_monorepo_release(&m);
	return ret;
}

void pmbench_monorepo_release(struct pmbench_monorepo *m)
{
	for (size_t i = 0; i < m->pkgs_nr; i++) {
		free(m->pkgs[i].dir);
		free(m->pkgs[i].name);
		free(m->pkgs[i].version);
	}
	for (size_t i = 0; i < m->refs_nr; i++) {
		free(m->refs[i].dir);
		free(m->refs[i].field);
		free(m->refs[i].name);
		free(m->refs[i].range);
	}
	free(m->pkgs);
	free(m->refs);
	pmbench_strvec_release(&m->patterns);
	memset(m, 0, sizeof(*m));
	pmbench_strvec_init(&m->patterns);
}
