/*
 * The local registry mirror (`--registry local`, the default): verdaccio
 * started by pmbench on 127.0.0.1, primed with its uplink live, then
 * sealed for the timed runs (registry.h says what each mode means), and
 * the emulated link in front of it (link.c).
 */
#include "pmbench/common.h"

#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "pmbench/ctx.h"
#include "pmbench/fs.h"
#include "pmbench/mirror.h"
#include "pmbench/probe.h"
#include "pmbench/registry.h"
#include "pmbench/result.h"

#define NS		 1000000000ull
#define READY_TIMEOUT_NS (90ull * NS)
#define DEFAULT_UPSTREAM "https://registry.npmjs.org/"
#define STATE_PRIMING	 1
#define STATE_SEALED	 2

int pmbench_registry_parse_mode(enum pmbench_registry_mode *out,
				const char *text)
{
	if (!strcmp(text, "local"))
		*out = PMBENCH_REGISTRY_LOCAL;
	else if (!strcmp(text, "live"))
		*out = PMBENCH_REGISTRY_LIVE;
	else
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "'%s' is not a registry mode; use "
					  "'local' (a mirror on 127.0.0.1) or "
					  "'live'",
					  text);
	return 0;
}

const char *pmbench_registry_mode_name(enum pmbench_registry_mode mode)
{
	return mode == PMBENCH_REGISTRY_LIVE ? "live" : "local";
}

static int running(const struct pmbench_registry *reg)
{
	return reg && reg->mode == PMBENCH_REGISTRY_LOCAL && reg->state;
}

/*
 * A socket bound to a free port of 127.0.0.1. With `keep`, it stays
 * bound and never listens (connections to it are refused, and no one
 * else can take the port); without, it is closed and the port returned.
 */
static int bind_free(int *out_port, int keep)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return pmbench_error_set("registry: socket: %s",
					 strerror(errno));
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) < 0) {
		int e = errno;

		close(fd);
		return pmbench_error_set("registry: no free port on "
					 "127.0.0.1: %s",
					 strerror(e));
	}
	*out_port = ntohs(a.sin_port);
	if (keep)
		return fd;
	close(fd);
	return 0;
}

/* What asks npm for the registry the user's configuration names. */
static const char *const upstream_query[] = {
	"npm", "config", "get", "registry", "--logs-max=0", NULL,
};

char *pmbench_registry_upstream(struct pmbench_ctx *ctx, const char *scratch)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	/*
	 * The user's config is read (the .npmrc every PM reads), their
	 * ~/.npm left alone: npm writes a debug log of every command there
	 * (--logs-max=0), and makes the folder if it has none.
	 */
	pmbench_strvec_pushv(&c.args, upstream_query);
	pmbench_strvec_pushf(&c.args, "--cache=%s/npm-cache", scratch);
	c.dir = scratch;
	c.ctx = ctx;
	c.timeout_ns = 60 * NS;
	if (pmbench_child_run(&c) == 0 && c.result.exited &&
	    c.result.exit_code == 0)
		pmbench_child_tail_lines(&c, 1, &b);
	pmbench_error_clear();
	pmbench_child_release(&c);
	if (strncmp(b.ptr, "http://", 7) && strncmp(b.ptr, "https://", 8)) {
		pmbench_buf_reset(&b);
		pmbench_buf_adds(&b, DEFAULT_UPSTREAM);
	}
	if (b.ptr[b.len - 1] != '/')
		pmbench_buf_addch(&b, '/');
	return pmbench_buf_detach(&b);
}

/* A folder name for the upstream: "registry.npmjs.org". */
static void upstream_key(struct pmbench_buf *out, const char *url)
{
	const char *p = strstr(url, "://");

	p = p ? p + 3 : url;
	/* Credentials in the URL never reach a folder name. */
	if (strchr(p, '@') && strchr(p, '@') < p + strcspn(p, "/"))
		p = strchr(p, '@') + 1;
	for (; *p; p++) {
		int ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			 (*p >= '0' && *p <= '9') || *p == '.' || *p == '-';

		pmbench_buf_addch(out, ok ? *p : '_');
	}
	while (out->len && out->ptr[out->len - 1] == '_')
		pmbench_buf_setlen(out, out->len - 1);
	if (!out->len)
		pmbench_buf_adds(out, "registry");
}

/* Read "verdaccio@6.8.0" from ci/setup's stamp; "verdaccio" without. */
static char *verdaccio_version(const struct pmbench_ctx *ctx)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;
	char *at;

	if (ctx->toolchain_dir) {
		pmbench_buf_path(&p, ctx->toolchain_dir,
				 "verdaccio/.pmbench-installed");
		if (pmbench_fs_read_text(&b, p.ptr, 256) < 0)
			pmbench_error_clear();
	}
	pmbench_buf_rtrim(&b);
	at = strrchr(b.ptr, '@');
	pmbench_buf_release(&p);
	if (!at) {
		pmbench_buf_release(&b);
		return pmbench_xstrdup("verdaccio");
	}
	*at = ' ';
	return pmbench_buf_detach(&b);
}

static int write_config(const struct pmbench_registry *reg, int sealed,
			struct pmbench_buf *path)
{
	struct pmbench_buf y = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_addf(&y, "storage: %s/storage\n", reg->dir);
	pmbench_buf_addf(&y, "uplinks:\n  up:\n    url: %s\n", reg->upstream);
	if (sealed) {
		/*
		 * Cached metadata is never revalidated, and whatever the
		 * mirror still asks the upstream for (a package or tarball
		 * it lacks, a tarball's own URL) goes to a port that
		 * refuses: the PM gets an error, never the Internet.
		 */
		pmbench_buf_adds(&y, "    maxage: 9999d\n    timeout: 5s\n");
		pmbench_buf_addf(&y,
				 "http_proxy: http://127.0.0.1:%d/\n"
				 "https_proxy: http://127.0.0.1:%d/\n",
				 reg->refuse_port, reg->refuse_port);
	}
	pmbench_buf_adds(&y, "packages:\n");
	pmbench_buf_adds(&y, "  '@*/*':\n    access: $all\n"
			     "    publish: $authenticated\n    proxy: up\n");
	pmbench_buf_adds(&y, "  '**':\n    access: $all\n"
			     "    publish: $authenticated\n    proxy: up\n");
	pmbench_buf_adds(&y, "web:\n  enable: false\n");
	pmbench_buf_addf(&y, "listen: 127.0.0.1:%d\n",
			 sealed ? reg->backend_port : reg->port);
	pmbench_buf_addf(&y,
			 "log: { type: file, path: %s, format: json, "
			 "level: http }\n",
			 reg->log_path);
	pmbench_buf_path(path, reg->dir,
			 sealed ? "config-sealed.yaml" : "config-prime.yaml");
	ret = pmbench_fs_write_atomic(path->ptr, y.ptr, y.len);
	pmbench_buf_release(&y);
	return ret;
}

static void stop_child(struct pmbench_registry *reg)
{
	uint64_t t0 = pmbench_now_ns();

	if (reg->child.pid > 0)
		pmbench_child_kill_tree(&reg->child);
	pmbench_child_release(&reg->child);
	reg->child = (struct pmbench_child)PMBENCH_CHILD_INIT;
	if (!reg->child_port)
		return;
	/*
	 * Node's last thread can outlive its zombie leader by a moment,
	 * holding the socket: wait for the port to refuse, so that the next
	 * start can bind it and the final check is true.
	 */
	while (pmbench_probe_port_open((unsigned)reg->child_port) &&
	       pmbench_now_ns() - t0 < 10 * NS)
		pmbench_sleep_ns(5000000);
	reg->child_port = 0;
}

/* Wait until verdaccio accepts connections; an error if it ends first. */
static int wait_ready(struct pmbench_registry *reg, struct pmbench_ctx *ctx)
{
	uint64_t t0 = pmbench_now_ns();
	struct pmbench_buf tail = PMBENCH_BUF_INIT;
	int ret = 0;

	while (!pmbench_probe_port_open((unsigned)reg->child_port)) {
		int r = pmbench_child_pump(&reg->child, 20000000ull);

		if (pmbench_ctx_cancelled(ctx)) {
			ret = PMBENCH_EINTERRUPTED;
			break;
		}
		if (r == 1 || r < 0 ||
		    pmbench_now_ns() - t0 > READY_TIMEOUT_NS) {
			pmbench_child_tail_lines(&reg->child, 3, &tail);
			ret = pmbench_error_set(
				"the local registry mirror (verdaccio) did not "
				"start on 127.0.0.1:%d%s%s; see %s, or "
				"use --registry live",
				reg->child_port, tail.len ? ": " : "", tail.ptr,
				pmbench_ctx_setup(ctx));
			break;
		}
	}
	pmbench_buf_release(&tail);
	return ret;
}

/*
 * The machine's CA certificates for verdaccio's uplink, as
 * NODE_EXTRA_CA_CERTS into `env`: Node trusts its own bundle only, so
 * where the machine adds a CA (a TLS-inspecting proxy) the uplink fails
 * ("self-signed certificate in certificate chain", and every package a
 * 404 to the PMs) unless told, as a user whose login environment lacks
 * what root's has was not (issue 33, user pmtest). The user's own
 * NODE_EXTRA_CA_CERTS stays; else SSL_CERT_FILE, else the system bundle
 * (Debian's, Fedora's) where it exists.
 */
static void ca_env(struct pmbench_strvec *env)
{
	static const char *const bundles[] = {
		"/etc/ssl/certs/ca-certificates.crt",
		"/etc/pki/tls/certs/ca-bundle.crt",
	};
	const char *f = getenv("SSL_CERT_FILE");

	if (getenv("NODE_EXTRA_CA_CERTS"))
		return;
	for (size_t i = 0; !(f && *f && pmbench_fs_isfile(f)) &&
			   i < PMBENCH_ARRAY_SIZE(bundles);
	     i++)
		f = bundles[i];
	if (f && *f && pmbench_fs_isfile(f))
		pmbench_strvec_pushf(env, "NODE_EXTRA_CA_CERTS=%s", f);
}

static int start_child(struct pmbench_registry *reg, struct pmbench_ctx *ctx,
		       int sealed)
{
	struct pmbench_buf conf = PMBENCH_BUF_INIT, bin = PMBENCH_BUF_INIT;
	int ret;

	ret = write_config(reg, sealed, &conf);
	if (ret < 0)
		goto done;
	if (reg->verdaccio)
		pmbench_buf_adds(&bin, reg->verdaccio);
	else if (ctx->toolchain_dir)
		pmbench_buf_path(&bin, ctx->toolchain_dir,
				 "verdaccio/node_modules/.bin/verdaccio");
	if (!bin.len || !pmbench_fs_isfile(bin.ptr)) {
		ret = pmbench_error_setc(
			PMBENCH_ENOTFOUND,
			"the local registry mirror needs verdaccio, not found "
			"at '%s'; run '%s' (it installs the pinned "
			"version), or use --registry live",
			bin.len ? bin.ptr : "<toolchain>/verdaccio",
			pmbench_ctx_setup(ctx));
		goto done;
	}
	pmbench_strvec_push(&reg->child.args, bin.ptr);
	pmbench_strvec_push(&reg->child.args, "--config");
	pmbench_strvec_push(&reg->child.args, conf.ptr);
	pmbench_strvec_push(&reg->child.env, "NODE_ENV=production");
	ca_env(&reg->child.env);
	reg->child.dir = reg->dir;
	reg->child.grace_ns = 2 * NS;
	/* Walks for stray processes only, rarely: it lives for the run. */
	reg->child.sample_ns = NS;
	reg->child_port = sealed ? reg->backend_port : reg->port;
	ret = pmbench_child_start(&reg->child);
	if (ret == 0)
		ret = wait_ready(reg, ctx);
	if (ret < 0)
		stop_child(reg);
done:
	pmbench_buf_release(&conf);
	pmbench_buf_release(&bin);
	return ret;
}

/* The first start: upstream, folders, ports, relay. */
static int setup(struct pmbench_registry *reg, struct pmbench_ctx *ctx)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT, key = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_path(&b, ctx->cache_dir, "tmp");
	ret = pmbench_fs_mkdirp(b.ptr, 0755);
	if (ret < 0)
		goto done;
	pmbench_ctx_status(ctx, "starting the local registry mirror");
	reg->upstream = pmbench_registry_upstream(ctx, b.ptr);
	upstream_key(&key, reg->upstream);
	pmbench_buf_reset(&b);
	pmbench_buf_path(&b, ctx->cache_dir, "registry");
	pmbench_buf_addf(&b, "/%s", key.ptr);
	reg->dir = pmbench_buf_detach(&b);
	pmbench_buf_path(&b, reg->dir, "storage");
	ret = pmbench_fs_mkdirp(b.ptr, 0755);
	if (ret < 0)
		goto done;
	pmbench_buf_reset(&b);
	pmbench_buf_path(&b, reg->dir, "verdaccio.log");
	reg->log_path = pmbench_buf_detach(&b);
	unlink(reg->log_path);
	reg->log_off = 0;
	reg->version = verdaccio_version(ctx);
	ret = bind_free(&reg->port, 0);
	if (ret == 0)
		ret = bind_free(&reg->backend_port, 0);
	if (ret < 0)
		goto done;
	ret = bind_free(&reg->refuse_port, 1);
	if (ret < 0)
		goto done;
	reg->refuse_fd = ret;
	ret = 0;
	if (!pmbench_link_none(&reg->link)) {
		ret = pmbench_link_start(&reg->relay, &reg->link, reg->port);
		if (ret < 0)
			goto done;
	}
	pmbench_buf_addf(&b, "http://127.0.0.1:%d/",
			 reg->relay ? pmbench_link_port(reg->relay)
				    : reg->port);
	reg->url = pmbench_buf_detach(&b);
	pmbench_buf_addf(&b, "127.0.0.1:%d",
			 reg->relay ? pmbench_link_port(reg->relay)
				    : reg->port);
	reg->front = pmbench_mirror_new(reg->backend_port, b.ptr);
	/* The answers' bodies: a file beside the mirror's storage. */
	pmbench_mirror_set_store(reg->front, reg->dir);
done:
	pmbench_buf_release(&b);
	pmbench_buf_release(&key);
	return ret;
}

static void drain_output(struct pmbench_registry *reg);

static uint64_t log_size(const struct pmbench_registry *reg)
{
	struct stat st;

	return stat(reg->log_path, &st) < 0 ? 0 : (uint64_t)st.st_size;
}

/* Append verdaccio's log from byte `off` to its end to `out`. */
static void read_log(struct pmbench_buf *out,
		     const struct pmbench_registry *reg, uint64_t off)
{
	FILE *fp = log_size(reg) > off ? fopen(reg->log_path, "rb") : NULL;

	if (fp && fseeko(fp, (off_t)off, SEEK_SET) == 0) {
		char chunk[65536];
		size_t n;

		while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
			pmbench_buf_add(out, chunk, n);
	}
	if (fp)
		fclose(fp);
}

/* The header `name` of a logged request, or NULL. */
static const char *logged_header(const cJSON *req, const char *name)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(req, "headers");

	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(h, name));
}

/*
 * Give the front every answer the primings got: each GET verdaccio
 * logged since priming began, asked again of the sealed verdaccio.
 */
static int preload_front(struct pmbench_registry *reg, struct pmbench_ctx *ctx)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	char *meta = NULL, *tarball = NULL;
	uint64_t bytes;
	const char *p;
	int ret = 0;

	pmbench_ctx_status(ctx, "loading the primed answers into the "
				"registry front");
	read_log(&b, reg, reg->prime_off);
	p = b.ptr;
	for (const char *nl; b.len && !ret && (nl = strchr(p, '\n'));
	     p = nl + 1) {
		char *line = pmbench_xstrndup(p, (size_t)(nl - p));
		cJSON *j = cJSON_Parse(line);
		const cJSON *req = cJSON_GetObjectItemCaseSensitive(j, "req");
		const char *method = cJSON_GetStringValue(
			cJSON_GetObjectItemCaseSensitive(req, "method"));
		const char *url = cJSON_GetStringValue(
			cJSON_GetObjectItemCaseSensitive(req, "url"));
		const char *enc = logged_header(req, "accept-encoding");

		if (method && url && !strcmp(method, "GET") && *url == '/') {
			char **first = pmbench_mirror_is_tarball(url) ? &tarball
								      : &meta;

			if (!*first && strncmp(url, "/-/", 3))
				*first = pmbench_xstrdup(url);
			if (pmbench_mirror_preload(reg->front, url,
						   logged_header(req, "accept"),
						   enc && strstr(enc, "gzip")) <
			    0)
				ret = -1;
		}
		cJSON_Delete(j);
		free(line);
		drain_output(reg);
	}
	pmbench_buf_release(&b);
	if (!ret && (meta || tarball)) {
		/* The uplink is still the primings': ask it, not verdaccio. */
		free(reg->caching);
		pmbench_mirror_imitate(reg->front, reg->upstream, meta, tarball,
				       &b);
		reg->caching = pmbench_buf_detach(&b);
		pmbench_ctx_event(ctx,
				  "registry front: the upstream's caching "
				  "headers, sent with every answer: %s",
				  reg->caching);
	}
	free(meta);
	free(tarball);
	if (!ret) {
		size_t kept = pmbench_mirror_kept(reg->front, &bytes);

		pmbench_ctx_event(ctx,
				  "registry front: %zu answers (%.1f MB) from "
				  "the primings, served from a file",
				  kept, (double)bytes / 1e6);
	}
	return ret;
}

static int switch_to(struct pmbench_registry *reg, struct pmbench_ctx *ctx,
		     int state)
{
	int ret;

	if (reg->state == state)
		return 0;
	pmbench_mirror_halt(reg->front);
	stop_child(reg);
	reg->state = 0;
	if (reg->relay)
		pmbench_link_shape(reg->relay, state == STATE_SEALED);
	if (state == STATE_PRIMING)
		reg->prime_off = log_size(reg);
	ret = start_child(reg, ctx, state == STATE_SEALED);
	if (ret == 0 && state == STATE_SEALED) {
		ret = preload_front(reg, ctx);
		if (ret == 0)
			ret = pmbench_mirror_serve(reg->front, reg->port);
		if (ret < 0) {
			pmbench_mirror_halt(reg->front);
			stop_child(reg);
		}
	}
	if (ret == 0)
		reg->state = state;
	return ret;
}

int pmbench_registry_prime(struct pmbench_registry *reg,
			   struct pmbench_ctx *ctx)
{
	int ret;

	if (!reg || reg->mode != PMBENCH_REGISTRY_LOCAL)
		return 0;
	if (!reg->url) {
		ret = setup(reg, ctx);
		if (ret < 0)
			return ret;
	}
	return switch_to(reg, ctx, STATE_PRIMING);
}

int pmbench_registry_seal(struct pmbench_registry *reg, struct pmbench_ctx *ctx)
{
	if (!running(reg))
		return 0;
	pmbench_ctx_status(ctx, "sealing the local registry mirror");
	return switch_to(reg, ctx, STATE_SEALED);
}

int pmbench_registry_watch(struct pmbench_registry *reg,
			   struct pmbench_ctx *ctx)
{
	struct pmbench_buf how = PMBENCH_BUF_INIT;
	int noticed, ret = 0;

	if (!running(reg) || reg->child.pid <= 0)
		return 0;
	/* Its exit is noticed once; `exited` stays set after. */
	noticed = reg->child.result.exited;
	if (!noticed && pmbench_child_pump(&reg->child, 0) != 1) {
		pmbench_error_clear();
		return 0;
	}
	pmbench_child_describe(&reg->child, &how);
	/* Ended: reaped now, not a zombie until the mirror stops. */
	pmbench_child_reap(&reg->child);
	if (reg->state == STATE_PRIMING)
		ret = pmbench_error_set(
			"the local registry mirror (verdaccio, pid %ld) ended: "
			"%s; see its log '%s', then run the command again, or "
			"use --registry live",
			(long)reg->child.pid, how.ptr, reg->log_path);
	else if (!noticed)
		pmbench_ctx_warn(ctx,
				 "the sealed registry mirror (verdaccio, pid "
				 "%ld) ended: %s; the front still answers "
				 "what the primings fetched, and a run that "
				 "asks for anything else fails",
				 (long)reg->child.pid, how.ptr);
	pmbench_buf_release(&how);
	return ret;
}

void pmbench_registry_pm_env(const struct pmbench_registry *reg,
			     struct pmbench_strvec *env,
			     const char *const *settings)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (!reg || reg->mode != PMBENCH_REGISTRY_LOCAL || !reg->url)
		return;
	for (const char *const *t = settings; t && *t; t++) {
		const char *hole = strstr(*t, "{registry}");

		pmbench_buf_reset(&b);
		if (hole) {
			pmbench_buf_add(&b, *t, (size_t)(hole - *t));
			pmbench_buf_adds(&b, reg->url);
			pmbench_buf_adds(&b, hole + strlen("{registry}"));
		} else {
			pmbench_buf_adds(&b, *t);
		}
		pmbench_strvec_push(env, b.ptr);
	}
	pmbench_buf_release(&b);
}

/* Replace every `from` in `text` by `to`; returns how many. */
static unsigned replace_all(struct pmbench_buf *text, const char *from,
			    const char *to)
{
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	size_t n = strlen(from);
	const char *p = text->ptr, *hit;
	unsigned count = 0;

	if (!n || !strcmp(from, to))
		return 0;
	while ((hit = strstr(p, from))) {
		pmbench_buf_add(&out, p, (size_t)(hit - p));
		pmbench_buf_adds(&out, to);
		p = hit + n;
		count++;
	}
	if (count) {
		pmbench_buf_adds(&out, p);
		pmbench_buf_release(text);
		*text = out;
	} else {
		pmbench_buf_release(&out);
	}
	return count;
}

int pmbench_registry_rewrite_lockfiles(const struct pmbench_registry *reg,
				       const char *project,
				       struct pmbench_buf *what)
{
	static const char *const names[] = { "package-lock.json",
					     "npm-shrinkwrap.json", "yarn.lock",
					     "bun.lock", "pnpm-lock.yaml" };
	static const char *const hosts[] = { "https://registry.npmjs.org/",
					     "http://registry.npmjs.org/",
					     "https://registry.yarnpkg.com/",
					     "http://registry.yarnpkg.com/" };
	struct pmbench_buf path = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	int ret = 0;

	if (!running(reg))
		return 0;
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(names) && !ret; i++) {
		unsigned n;

		pmbench_buf_reset(&path);
		pmbench_buf_reset(&text);
		pmbench_buf_path(&path, project, names[i]);
		if (!pmbench_fs_isfile(path.ptr))
			continue;
		ret = pmbench_fs_read(&text, path.ptr, (size_t)1 << 30);
		if (ret < 0)
			break;
		n = replace_all(&text, reg->upstream, reg->url);
		for (size_t h = 0; h < PMBENCH_ARRAY_SIZE(hosts); h++)
			n += replace_all(&text, hosts[h], reg->url);
		if (!n)
			continue;
		ret = pmbench_fs_write_atomic(path.ptr, text.ptr, text.len);
		if (what && !ret)
			pmbench_buf_addf(what, "%s%s: %u tarball URLs",
					 what->len ? ", " : "", names[i], n);
	}
	pmbench_buf_release(&path);
	pmbench_buf_release(&text);
	return ret;
}

static void drain_output(struct pmbench_registry *reg)
{
	/* Whatever verdaccio printed: keep its pipe from filling up. */
	if (reg->child.pid > 0 && pmbench_child_pump(&reg->child, 0) < 0)
		pmbench_error_clear();
}

void pmbench_registry_mark(struct pmbench_registry *reg)
{
	struct pmbench_registry_counts c;

	if (running(reg))
		pmbench_registry_count(reg, &c);
}

void pmbench_registry_count_line(struct pmbench_registry_counts *c,
				 const char *line)
{
	cJSON *j = cJSON_Parse(line);
	const cJSON *sub, *req, *url, *method, *status, *bytes, *out, *msg;

	if (!j)
		return;
	sub = cJSON_GetObjectItemCaseSensitive(j, "sub");
	msg = cJSON_GetObjectItemCaseSensitive(j, "msg");
	req = cJSON_GetObjectItemCaseSensitive(j, "req");
	status = cJSON_GetObjectItemCaseSensitive(j, "status");
	bytes = cJSON_GetObjectItemCaseSensitive(j, "bytes");
	out = bytes ? cJSON_GetObjectItemCaseSensitive(bytes, "out") : NULL;
	if (!cJSON_IsString(sub) || strcmp(sub->valuestring, "in")) {
		/* verdaccio's own requests to the upstream */
		if (cJSON_IsString(msg) &&
		    !strncmp(msg->valuestring, "making request", 14))
			c->uplink_requests++;
		goto done;
	}
	if (cJSON_IsObject(req)) {
		url = cJSON_GetObjectItemCaseSensitive(req, "url");
		method = cJSON_GetObjectItemCaseSensitive(req, "method");
		if (!cJSON_IsString(url) || !cJSON_IsString(method))
			goto done;
		if (pmbench_mirror_is_tarball(url->valuestring))
			c->tarball_requests++;
		else if ((!strcmp(method->valuestring, "GET") ||
			  !strcmp(method->valuestring, "HEAD")) &&
			 strncmp(url->valuestring, "/-/", 3))
			c->meta_requests++;
		else
			c->other_requests++;
		goto done;
	}
	/*
	 * An answer is logged when its headers go out (0 bytes) and again
	 * when its body has: count the bytes of both, and a failure once,
	 * by its body.
	 */
	if (cJSON_IsNumber(out) && out->valuedouble > 0) {
		c->bytes += (uint64_t)out->valuedouble;
		if (cJSON_IsNumber(status) && status->valuedouble >= 400)
			c->failed++;
	}
done:
	cJSON_Delete(j);
}

int pmbench_registry_count(struct pmbench_registry *reg,
			   struct pmbench_registry_counts *out)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *p;

	memset(out, 0, sizeof(*out));
	if (reg)
		pmbench_mirror_log_release(&reg->requests);
	if (!running(reg))
		return -1;
	drain_output(reg);
	read_log(&b, reg, reg->log_off);
	/* Complete lines only; a line being written waits for next time. */
	p = b.ptr;
	for (const char *nl; b.len && (nl = strchr(p, '\n')); p = nl + 1) {
		char *line = pmbench_xstrndup(p, (size_t)(nl - p));

		pmbench_registry_count_line(out, line);
		free(line);
	}
	reg->log_off += (uint64_t)(p - b.ptr);
	pmbench_buf_release(&b);
	if (reg->state == STATE_SEALED) {
		/*
		 * The front answered the PMs; verdaccio's log holds only its
		 * fallbacks then, and what it asked its (refused) uplink.
		 */
		struct pmbench_mirror_counts f;
		unsigned uplink = out->uplink_requests;

		pmbench_mirror_take(reg->front, &f, &reg->requests);
		memset(out, 0, sizeof(*out));
		out->meta_requests = f.meta_requests;
		out->tarball_requests = f.tarball_requests;
		out->other_requests = f.other_requests;
		out->failed = f.failed;
		out->fallbacks = f.fallbacks;
		out->bytes = f.bytes;
		out->uplink_requests = uplink;
		out->foreign_requests = f.foreign_requests;
		out->foreign_connections = f.foreign_connections;
		out->unattributed = f.unattributed_connections;
		out->dropped = f.dropped_connections;
		out->refused = f.refused;
	}
	return 0;
}

int pmbench_registry_refuse(struct pmbench_registry *reg, int status)
{
	if (!reg || reg->state != STATE_SEALED || !reg->front)
		return pmbench_error_setc(
			PMBENCH_EINVALID,
			"the offline proof needs the local "
			"registry, sealed (--registry local)");
	pmbench_mirror_refuse(reg->front, status);
	return 0;
}

void pmbench_registry_take_log(struct pmbench_registry *reg,
			       struct pmbench_mirror_log *out)
{
	struct pmbench_mirror_log blank = PMBENCH_MIRROR_LOG_INIT;

	pmbench_mirror_log_release(out);
	if (!reg)
		return;
	*out = reg->requests;
	reg->requests = blank;
}

void pmbench_registry_add_metrics(struct pmbench_registry *reg,
				  struct pmbench_sample *s)
{
	struct pmbench_registry_counts c;

	if (pmbench_registry_count(reg, &c) < 0)
		return;
	pmbench_sample_metric_set(s, "registry_meta_requests", c.meta_requests);
	pmbench_sample_metric_set(s, "registry_tarball_requests",
				  c.tarball_requests);
	pmbench_sample_metric_set(s, "registry_other_requests",
				  c.other_requests);
	pmbench_sample_metric_set(s, "registry_failed_requests", c.failed);
	pmbench_sample_metric_set(s, "registry_uplink_requests",
				  c.uplink_requests);
	if (reg->state == STATE_SEALED)
		pmbench_sample_metric_set(s, "registry_fallback_requests",
					  c.fallbacks);
	pmbench_sample_metric_set(s, "registry_bytes", (double)c.bytes);
	/* What others did meanwhile, when they did anything (mirror.h). */
	if (c.foreign_requests || c.foreign_connections)
		pmbench_sample_metric_set(s, "registry_foreign_requests",
					  c.foreign_requests);
	if (c.unattributed)
		pmbench_sample_metric_set(
			s, "registry_unattributed_connections", c.unattributed);
	if (c.dropped)
		pmbench_sample_metric_set(s, "registry_dropped_connections",
					  c.dropped);
	if (c.refused)
		pmbench_sample_metric_set(s, "registry_refused_requests",
					  c.refused);
}

/* A registry metric of `s`, 0 without. */
static double metric(const struct pmbench_sample *s, const char *name)
{
	double v = 0;

	pmbench_sample_metric_get(s, name, &v);
	return v;
}

int pmbench_registry_spoiled(const struct pmbench_sample *s,
			     struct pmbench_buf *why)
{
	double failed, up, fallbacks, all;

	/* Only a run against the sealed mirror counts its fallbacks. */
	if (!pmbench_sample_metric_get(s, "registry_fallback_requests",
				       &fallbacks))
		return 0;
	failed = metric(s, "registry_failed_requests");
	up = metric(s, "registry_uplink_requests");
	if (!failed && !up)
		return 0;
	all = metric(s, "registry_meta_requests") +
	      metric(s, "registry_tarball_requests") +
	      metric(s, "registry_other_requests");
	if (failed)
		pmbench_buf_addf(why, "registry: %.0f of %.0f requests failed",
				 failed, all);
	if (up && failed)
		pmbench_buf_addf(why, ", %.0f sent upstream", up);
	else if (up)
		pmbench_buf_addf(
			why, "registry: %.0f of %.0f requests sent upstream",
			up, all);
	if (fallbacks)
		pmbench_buf_addf(why, ", %.0f not primed", fallbacks);
	pmbench_buf_adds(why, " (not a measurement of the PM: the mirror "
			      "lacked what it asked for)");
	return 1;
}

void pmbench_registry_record(const struct pmbench_registry *reg,
			     struct pmbench_result *r)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	if (!reg || reg->mode == PMBENCH_REGISTRY_LIVE) {
		pmbench_result_env_set(r, "registry", "live");
		pmbench_result_env_set(r, "registry_mirror",
				       "none: the registry of the user's npm "
				       "config, over the network");
		pmbench_result_env_set(r, "link", "none");
		return;
	}
	pmbench_result_env_set(r, "registry", "local");
	pmbench_buf_addf(&b,
			 "%s on 127.0.0.1, a mirror of the registry the "
			 "user's npm config names; primed with its uplink "
			 "live, sealed for the timed runs (cached metadata "
			 "not revalidated, no request leaves 127.0.0.1); "
			 "the timed runs answered by pmbench's front from "
			 "a file of the sealed mirror's own bytes, counting "
			 "only the requests of the PM's own processes",
			 reg->version ? reg->version : "verdaccio");
	pmbench_result_env_set(r, "registry_mirror", b.ptr);
	if (reg->caching)
		pmbench_result_env_set(r, "registry_cache_control",
				       reg->caching);
	pmbench_buf_reset(&b);
	pmbench_link_describe(&b, &reg->link);
	pmbench_result_env_set(r, "link", b.ptr);
	pmbench_buf_release(&b);
}

int pmbench_registry_priming(const struct pmbench_registry *reg)
{
	return reg && reg->mode == PMBENCH_REGISTRY_LOCAL && reg->state == 1;
}

const char *pmbench_registry_state(const struct pmbench_registry *reg)
{
	if (!reg || reg->mode == PMBENCH_REGISTRY_LIVE)
		return "live";
	return "local mirror, warm";
}

void pmbench_registry_storage(struct pmbench_buf *out,
			      const struct pmbench_registry *reg)
{
	if (reg && reg->mode == PMBENCH_REGISTRY_LOCAL && reg->dir)
		pmbench_buf_path(out, reg->dir, "storage");
}

int pmbench_registry_stop(struct pmbench_registry *reg)
{
	int ret = 0, relay_port = 0;

	if (!reg)
		return 0;
	pmbench_mirror_halt(reg->front);
	stop_child(reg);
	reg->state = 0;
	if (reg->relay) {
		relay_port = pmbench_link_port(reg->relay);
		pmbench_link_stop(reg->relay);
		reg->relay = NULL;
	}
	if (reg->refuse_fd >= 0) {
		close(reg->refuse_fd);
		reg->refuse_fd = -1;
	}
	if (reg->port && pmbench_probe_port_open((unsigned)reg->port))
		ret = pmbench_error_set("the local registry mirror's port "
					"127.0.0.1:%d still accepts "
					"connections after it was stopped",
					reg->port);
	else if (relay_port && pmbench_probe_port_open((unsigned)relay_port))
		ret = pmbench_error_set("the link relay's port 127.0.0.1:%d "
					"still accepts connections after it "
					"was stopped",
					relay_port);
	return ret;
}

void pmbench_registry_release(struct pmbench_registry *reg)
{
	if (!reg)
		return;
	pmbench_registry_stop(reg);
	pmbench_mirror_free(reg->front);
	reg->front = NULL;
	pmbench_mirror_log_release(&reg->requests);
	free(reg->upstream);
	free(reg->dir);
	free(reg->url);
	free(reg->log_path);
	free(reg->version);
	free(reg->caching);
	reg->caching = NULL;
	reg->upstream = reg->dir = reg->url = reg->log_path = NULL;
	reg->version = NULL;
	reg->port = 0;
}
