/*
 * The era of a lockfile (node.h): the packages and versions it locks,
 * read from its text whatever PM wrote it, and the newest publish time
 * among them, from the packuments the local mirror already holds (each
 * carries the registry's `time` of every version). With
 * pmbench_node_era_major() it names the Node a repo that names none was
 * most likely run under, for a failure such a Node would not have had.
 */
#include "pmbench/common.h"

#include <ctype.h>

#include <cjson/cJSON.h>

#include "pmbench/fs.h"
#include "pmbench/node.h"

/* The biggest packument read (@types/node's is tens of MB). */
#define PACKUMENT_MAX (128u << 20)

/* A lockfile this size or bigger is not read past it. */
#define LOCKFILE_MAX (64u << 20)

static int name_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '.' || c == '_' ||
	       c == '~';
}

/* The length of the version at `p` ("1.2.3", "1.0.0-rc.1+b"), or 0. */
static size_t version_len(const char *p)
{
	size_t n = 0;

	for (int part = 0; part < 3; part++) {
		size_t digits = strspn(p + n, "0123456789");

		if (!digits || (part < 2 && p[n + digits] != '.'))
			return 0;
		n += digits + (part < 2);
	}
	if (p[n] == '-' || p[n] == '+')
		while (isalnum((unsigned char)p[n]) || p[n] == '.' ||
		       p[n] == '-' || p[n] == '+')
			n++;
	return n;
}

/* Keep "name@version" when both are there. */
static void add_pair(struct pmbench_strvec *out, const char *name,
		     size_t name_len, const char *version, size_t version_len)
{
	if (!name_len || !version_len || name_len > 214 || version_len > 256)
		return;
	pmbench_strvec_pushf(out, "%.*s@%.*s", (int)name_len, name,
			     (int)version_len, version);
}

/*
 * Where the name that ends at `end` (the '@' before its version) starts
 * in `text`, or NULL: a name ("argon2") or a scoped one ("@nestjs/core").
 */
static const char *name_start(const char *text, const char *end)
{
	const char *p = end;

	while (p > text && name_char(p[-1]))
		p--;
	if (p == end)
		return NULL;
	if (p - text >= 2 && p[-1] == '/') {
		const char *s = p - 1;

		while (s > text && name_char(s[-1]))
			s--;
		if (s > text && s[-1] == '@' && s < p - 1)
			return s - 1;
	}
	return p;
}

/*
 * "name@version" and "name@npm:version" (yarn berry, pnpm 9, bun; a
 * range "^1.2" is no version): each '@' after a name.
 */
static void scan_at(struct pmbench_strvec *out, const char *text)
{
	for (const char *at = strchr(text, '@'); at; at = strchr(at + 1, '@')) {
		const char *start = at > text ? name_start(text, at) : NULL;
		const char *v = at + 1;

		if (!start)
			continue;
		if (!strncmp(v, "npm:", 4))
			v += 4;
		add_pair(out, start, (size_t)(at - start), v, version_len(v));
	}
}

/*
 * A tarball URL's package ("https://host/@s/name/-/name-1.2.3.tgz", as
 * package-lock.json and yarn 1's yarn.lock write them): each "/-/".
 */
static void scan_tarballs(struct pmbench_strvec *out, const char *text)
{
	for (const char *d = strstr(text, "/-/"); d; d = strstr(d + 1, "/-/")) {
		const char *base = d, *start, *file = d + 3;
		size_t base_len, v;

		while (base > text && name_char(base[-1]))
			base--;
		base_len = (size_t)(d - base);
		start = base;
		if (base - text >= 2 && base[-1] == '/') {
			const char *s = base - 1;

			while (s > text && name_char(s[-1]))
				s--;
			if (s > text && s[-1] == '@')
				start = s - 1;
		}
		if (!base_len || strncmp(file, base, base_len) ||
		    file[base_len] != '-')
			continue;
		v = version_len(file + base_len + 1);
		if (v && !strncmp(file + base_len + 1 + v, ".tgz", 4))
			add_pair(out, start, (size_t)(d - start),
				 file + base_len + 1, v);
	}
}

void pmbench_lockfile_packages(struct pmbench_strvec *out, const char *text)
{
	size_t from = out->nr, keep = from;

	scan_at(out, text);
	scan_tarballs(out, text);
	pmbench_strvec_sort(out, from);
	/* Unique: each pair once. */
	for (size_t i = from; i < out->nr; i++) {
		if (keep > from && !strcmp(out->v[keep - 1], out->v[i])) {
			free(out->v[i]);
			continue;
		}
		out->v[keep++] = out->v[i];
	}
	if (keep != out->nr) {
		out->nr = keep;
		out->v[keep] = NULL;
	}
}

/* The '@' between a "name@version" pair's name and version. */
static const char *version_at(const char *pair)
{
	return strchr(pair + 1, '@');
}

/*
 * The newest `time` in `storage`'s packument of the pairs [i, j) (one
 * name), kept in `newest` when newer.
 */
static void newest_of(struct pmbench_buf *newest, const char *storage,
		      const struct pmbench_strvec *pairs, size_t i, size_t j)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	const char *at = version_at(pairs->v[i]);
	cJSON *doc = NULL, *time;

	pmbench_buf_addf(&path, "%s/%.*s/package.json", storage,
			 (int)(at - pairs->v[i]), pairs->v[i]);
	if (pmbench_fs_read(&text, path.ptr, PACKUMENT_MAX) < 0) {
		pmbench_error_clear();
		goto done;
	}
	doc = cJSON_ParseWithLength(text.ptr, text.len);
	time = cJSON_GetObjectItemCaseSensitive(doc, "time");
	for (size_t k = i; k < j && cJSON_IsObject(time); k++) {
		const char *t =
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
				time, version_at(pairs->v[k]) + 1));

		if (t && pmbench_node_era_major(t) >= 0 &&
		    (!newest->len || strcmp(t, newest->ptr) > 0)) {
			pmbench_buf_reset(newest);
			pmbench_buf_adds(newest, t);
		}
	}
done:
	cJSON_Delete(doc);
	pmbench_buf_release(&path);
	pmbench_buf_release(&text);
}

/* Whether the pairs `a` and `b` name the same package. */
static int same_name(const char *a, const char *b)
{
	size_t n = (size_t)(version_at(a) - a);

	return !strncmp(a, b, n) && b[n] == '@';
}

int pmbench_lockfile_newest(struct pmbench_buf *out, const char *lockfile,
			    const char *storage)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	struct pmbench_strvec pairs = PMBENCH_STRVEC_INIT;

	pmbench_buf_reset(out);
	if (pmbench_fs_read(&text, lockfile, LOCKFILE_MAX) < 0)
		pmbench_error_clear();
	else
		pmbench_lockfile_packages(&pairs, text.ptr);
	for (size_t i = 0, j; i < pairs.nr; i = j) {
		for (j = i + 1;
		     j < pairs.nr && same_name(pairs.v[i], pairs.v[j]); j++)
			;
		newest_of(out, storage, &pairs, i, j);
	}
	pmbench_strvec_release(&pairs);
	pmbench_buf_release(&text);
	return out->len ? 0 : -1;
}

/*
 * What a PM prints when a Node newer than the repo's era fails it: a
 * native module's build (node-gyp), or an `engines` refusal of the Node
 * in use (yarn 1, npm's EBADENGINE, pnpm).
 */
static const struct {
	const char *pattern, *also;
} era_failures[] = {
	{ "gyp ERR!", NULL },
	{ "failed to build with node-gyp", NULL },
	{ "The engine \"node\" is incompatible", NULL },
	{ "EBADENGINE", "node" },
	{ "ERR_PNPM_UNSUPPORTED_ENGINE", "node" },
};

int pmbench_node_era_failure(const char *text)
{
	for (size_t i = 0; text && i < PMBENCH_ARRAY_SIZE(era_failures); i++)
		if (strstr(text, era_failures[i].pattern) &&
		    (!era_failures[i].also ||
		     strstr(text, era_failures[i].also)))
			return 1;
	return 0;
}

int pmbench_node_era_hint(struct pmbench_buf *out, const char *lockfile,
			  const char *storage, int node_major)
{
	struct pmbench_buf newest = PMBENCH_BUF_INIT;
	int major = -1;

	if (lockfile && storage &&
	    pmbench_lockfile_newest(&newest, lockfile, storage) == 0)
		major = pmbench_node_era_major(newest.ptr);
	/* Only an era before the Node in use (and after Node 4) says more. */
	if (major > 0 && (node_major <= 0 || major < node_major))
		pmbench_buf_addf(
			out,
			"this lockfile's newest package was published "
			"%.10s: Node %d was the LTS then; try --node %d",
			newest.ptr, major, major);
	pmbench_buf_release(&newest);
	return major > 0 && (node_major <= 0 || major < node_major) ? 0 : -1;
}
