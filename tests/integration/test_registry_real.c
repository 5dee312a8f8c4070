/*
 * The local mirror with real verdaccio and every real PM, without the
 * Internet (label `registry`): the test starts its own verdaccio with no
 * uplink as "the user's registry" (the sandbox's ~/.npmrc names it),
 * publishes tiny packages to it with npm (a dependency chain, a bin, an
 * install script), and benchmarks a project that needs them. Then the
 * upstream is stopped: with a warm mirror every PM still installs, and a
 * package the mirror never saw fails loudly instead of reaching anything
 * but 127.0.0.1.
 */
#include "pmbench/control.h"
#include "pmbench/common.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <curl/curl.h>

#include "pmbench/fs.h"
#include "pmbench/probe.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"

#include "check.h"
#include "harness.h"

#define ALL_PMS "npm,yarn,yarn-berry,pnpm,bun,deno"

static struct pmbench_child upstream = PMBENCH_CHILD_INIT;
static int up_port;
static char sandbox[4200];

static int free_port(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = 0;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (!bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(fd, (struct sockaddr *)&a, &len))
		port = ntohs(a.sin_port);
	close(fd);
	return port;
}

/* The test's own verdaccio: no uplink, anyone registered may publish. */
static int start_upstream(void)
{
	struct pmbench_buf conf = PMBENCH_BUF_INIT, bin = PMBENCH_BUF_INIT;
	const char *path;

	up_port = free_port();
	pmbench_buf_addf(&conf,
			 "storage: %s/upstream/storage\n"
			 "auth:\n  htpasswd:\n    file: %s/upstream/htpasswd\n"
			 "    max_users: 10\n"
			 "uplinks: {}\n"
			 "packages:\n  '**':\n    access: $all\n"
			 "    publish: $authenticated\n"
			 "web:\n  enable: false\n"
			 "listen: 127.0.0.1:%d\n"
			 "log: { type: file, path: %s/upstream/log.json, "
			 "format: json, level: http }\n",
			 sandbox, sandbox, up_port, sandbox);
	path = h_write("upstream/config.yaml", conf.ptr);
	pmbench_buf_addf(&bin,
			 "%s/cache/toolchain/verdaccio/node_modules/.bin/"
			 "verdaccio",
			 getenv("PMBENCH_SOURCE_DIR"));
	pmbench_strvec_push(&upstream.args, bin.ptr);
	pmbench_strvec_push(&upstream.args, "--config");
	pmbench_strvec_push(&upstream.args, path);
	pmbench_buf_release(&conf);
	pmbench_buf_release(&bin);
	if (pmbench_child_start(&upstream) < 0)
		return -1;
	for (int i = 0; i < 3000 && !pmbench_probe_port_open((unsigned)up_port);
	     i++)
		if (pmbench_child_pump(&upstream, 20000000ull) != 0)
			return -1;
	return pmbench_probe_port_open((unsigned)up_port) ? 0 : -1;
}

static size_t take(char *p, size_t size, size_t n, void *payload)
{
	pmbench_buf_add(payload, p, size * n);
	return size * n;
}

/* Register a user with the upstream and return its token (or ""). */
static void add_user(struct pmbench_buf *token)
{
	struct pmbench_buf url = PMBENCH_BUF_INIT, resp = PMBENCH_BUF_INIT;
	struct curl_slist *h = curl_slist_append(NULL, "Content-Type: "
						       "application/json");
	CURL *c = curl_easy_init();
	cJSON *j;

	pmbench_buf_addf(&url,
			 "http://127.0.0.1:%d/-/user/org.couchdb.user:pmb",
			 up_port);
	curl_easy_setopt(c, CURLOPT_URL, url.ptr);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "PUT");
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS,
			 "{\"name\":\"pmb\",\"password\":\"pmb-secret-1\"}");
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, take);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &resp);
	curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
	curl_easy_perform(c);
	curl_easy_cleanup(c);
	curl_slist_free_all(h);
	j = cJSON_Parse(resp.ptr);
	if (cJSON_GetStringValue(cJSON_GetObjectItem(j, "token")))
		pmbench_buf_adds(
			token,
			cJSON_GetStringValue(cJSON_GetObjectItem(j, "token")));
	cJSON_Delete(j);
	pmbench_buf_release(&url);
	pmbench_buf_release(&resp);
}

/* Write release `version` of `name` with `extra` fields and publish it. */
static int publish_version(const char *name, const char *version,
			   const char *extra, const char *userconfig)
{
	struct pmbench_buf rel = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	int ok;

	pmbench_buf_addf(&rel, "pkgs/%s/package.json", name);
	pmbench_buf_addf(&text,
			 "{ \"name\": \"%s\", \"version\": \"%s\", "
			 "\"main\": \"index.js\"%s%s }\n",
			 name, version, *extra ? ", " : "", extra);
	h_write(rel.ptr, text.ptr);
	pmbench_buf_reset(&rel);
	pmbench_buf_addf(&rel, "pkgs/%s/index.js", name);
	h_write(rel.ptr, "module.exports = 42;\n");
	pmbench_buf_reset(&rel);
	pmbench_buf_addf(&rel, "pkgs/%s/bin/hello.js", name);
	h_write(rel.ptr, "#!/usr/bin/env node\nconsole.log('hello');\n");
	pmbench_buf_reset(&rel);
	pmbench_buf_addf(&rel, "%s/pkgs/%s", sandbox, name);
	pmbench_strvec_pushv(&c.args,
			     (const char *const[]){ "npm", "publish",
						    "--registry", NULL });
	pmbench_strvec_pushf(&c.args, "http://127.0.0.1:%d/", up_port);
	pmbench_strvec_pushf(&c.args, "--userconfig=%s", userconfig);
	pmbench_strvec_pushf(&c.env, "npm_config_cache=%s/publish-cache",
			     sandbox);
	c.dir = rel.ptr;
	c.timeout_ns = 120ull * 1000000000ull;
	ok = pmbench_child_run(&c) == 0 && c.result.exit_code == 0;
	if (!ok)
		fprintf(stderr, "npm publish %s failed:\n%s\n", name,
			c.tail.ptr);
	pmbench_child_release(&c);
	pmbench_buf_release(&rel);
	pmbench_buf_release(&text);
	return ok ? 0 : -1;
}

static int publish(const char *name, const char *extra, const char *userconfig)
{
	return publish_version(name, "1.0.0", extra, userconfig);
}

/*
 * Backdate every release in the upstream's storage: yarn 4, pnpm and
 * deno quarantine versions younger than a day or so by default, and
 * these were published a second ago. Verdaccio reads the file per
 * request.
 */
static int backdate(const char *name)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;
	cJSON *j = NULL, *t, *e;
	char *text = NULL;
	int ret = -1;

	pmbench_buf_addf(&p, "%s/upstream/storage/%s/package.json", sandbox,
			 name);
	if (pmbench_fs_read(&b, p.ptr, 1 << 24) < 0)
		goto done;
	j = cJSON_Parse(b.ptr);
	t = cJSON_GetObjectItem(j, "time");
	if (!t)
		goto done;
	cJSON_ArrayForEach(e, t)
	{
		if (cJSON_IsString(e))
			cJSON_SetValuestring(e, "2020-01-01T00:00:00.000Z");
	}
	text = cJSON_Print(j);
	ret = pmbench_fs_write_atomic(p.ptr, text, strlen(text));
done:
	cJSON_free(text);
	cJSON_Delete(j);
	pmbench_buf_release(&p);
	pmbench_buf_release(&b);
	return ret;
}

static int publish_all(void)
{
	struct pmbench_buf token = PMBENCH_BUF_INIT, rc = PMBENCH_BUF_INIT;
	char userconfig[4200];
	int ret = -1;

	add_user(&token);
	if (!token.len)
		goto done;
	pmbench_buf_addf(&rc, "//127.0.0.1:%d/:_authToken=%s\n", up_port,
			 token.ptr);
	snprintf(userconfig, sizeof(userconfig), "%s",
		 h_write("publish.npmrc", rc.ptr));
	if (publish("pmb-leaf", "", userconfig) ||
	    publish("pmb-mid", "\"dependencies\": { \"pmb-leaf\": \"^1.0.0\" }",
		    userconfig) ||
	    publish("pmb-bin",
		    "\"bin\": { \"pmb-hello\": \"bin/hello.js\" }, "
		    "\"dependencies\": { \"pmb-mid\": \"^1.0.0\" }",
		    userconfig) ||
	    publish("pmb-script",
		    "\"scripts\": { \"install\": \"node -e \\\"require('fs')."
		    "writeFileSync('installed.txt', 'ok')\\\"\" }",
		    userconfig) ||
	    publish("pmb-extra", "", userconfig) ||
	    publish_version("pmb-ver", "1.0.0", "", userconfig) ||
	    publish_version("pmb-ver", "1.1.0", "", userconfig))
		goto done;
	if (backdate("pmb-leaf") || backdate("pmb-mid") ||
	    backdate("pmb-bin") || backdate("pmb-script") ||
	    backdate("pmb-extra") || backdate("pmb-ver"))
		goto done;
	ret = 0;
done:
	pmbench_buf_release(&token);
	pmbench_buf_release(&rc);
	return ret;
}

/* The project: the bin (and through it the chain) and the script. */
static const char *project(int extra)
{
	return h_write("proj/package.json",
		       extra ? "{ \"name\": \"proj\", \"version\": \"1.0.0\", "
			       "\"private\": true, \"dependencies\": { "
			       "\"pmb-bin\": \"^1.0.0\", \"pmb-script\": "
			       "\"^1.0.0\", \"pmb-extra\": \"^1.0.0\" } }\n"
			     : "{ \"name\": \"proj\", \"version\": \"1.0.0\", "
			       "\"private\": true, \"dependencies\": { "
			       "\"pmb-bin\": \"^1.0.0\", \"pmb-script\": "
			       "\"^1.0.0\" } }\n");
}

static void bench(struct h_run *run, const char *pms, const char *out)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_buf proj = PMBENCH_BUF_INIT;
	const char *args[] = {
		"bench",  "--pm", pms,	      "--scenario", "clean,lockfile",
		"--runs", "1",	  "--warmup", "0",	    "--out",
		out,	  NULL,	  NULL
	};

	pmbench_buf_addf(&proj, "%s/proj", sandbox);
	args[11] = proj.ptr;
	pmbench_strvec_push(&env, "PMBENCH_REGISTRY=local");
	h_pmbench(run, args, &env);
	pmbench_strvec_release(&env);
	pmbench_buf_release(&proj);
}

/*
 * The update task under the mirror: its bump (pmb-ver ^1.1.0 -> <1.1.0)
 * needs 1.0.0, which no priming install fetched; the task's own priming
 * step must have put it into the mirror before sealing, or every timed
 * run fails with the sealed mirror's 500.
 */
static void check_update(int *ok, const char *name)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct h_run run;
	char out[4200];
	cJSON *json, *c, *s, *m;
	int runs = 0;
	const char *args[] = {
		"bench",  "--pm", ALL_PMS,    "--task", "update",
		"--runs", "1",	  "--warmup", "0",	"--no-control",
		"--out",  out,	  NULL,	      NULL
	};

	*ok = 0;
	snprintf(out, sizeof(out), "%s", h_write(name, ""));
	h_write("upd/package.json",
		"{ \"name\": \"upd\", \"version\": \"1.0.0\", "
		"\"private\": true, \"dependencies\": { \"pmb-ver\": "
		"\"^1.1.0\" } }\n");
	args[12] = check_path("upd");
	pmbench_strvec_push(&env, "PMBENCH_REGISTRY=local");
	h_pmbench(&run, args, &env);
	pmbench_strvec_release(&env);
	if (run.exit_code)
		fprintf(stderr, "%s\n", run.out.ptr);
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	json = h_read_json(out);
	CHECK(json);
	cJSON_ArrayForEach(c, cJSON_GetObjectItem(json, "cells"))
	{
		cJSON_ArrayForEach(s, cJSON_GetObjectItem(c, "samples"))
		{
			m = cJSON_GetObjectItem(s, "metrics");
			CHECK(cJSON_IsTrue(cJSON_GetObjectItem(s, "ok")));
			CHECK_INT(cJSON_GetNumberValue(cJSON_GetObjectItem(
					  m, "registry_failed_requests")),
				  0);
			CHECK_INT(cJSON_GetNumberValue(cJSON_GetObjectItem(
					  m, "registry_uplink_requests")),
				  0);
			CHECK_INT(cJSON_GetNumberValue(cJSON_GetObjectItem(
					  m, "registry_fallback_requests")),
				  0);
			runs++;
		}
	}
	cJSON_Delete(json);
	CHECK_INT(runs, 6);
	*ok = 1;
}

/*
 * Every timed run asked the mirror only, and something of it, and the
 * front had every answer from the primings.
 */
static void check_sealed(int *ok, const char *out)
{
	cJSON *json = h_read_json(out), *cells, *c, *s;
	int runs = 0;

	*ok = 0;
	CHECK(json);
	cells = cJSON_GetObjectItem(json, "cells");
	cJSON_ArrayForEach(c, cells)
	{
		/* The drift control is pmbench's own work: no registry. */
		if (pmbench_control_is(
			    cJSON_GetStringValue(cJSON_GetObjectItem(c, "pm"))))
			continue;
		cJSON_ArrayForEach(s, cJSON_GetObjectItem(c, "samples"))
		{
			cJSON *m = cJSON_GetObjectItem(s, "metrics");

			CHECK(cJSON_IsTrue(cJSON_GetObjectItem(s, "ok")));
			CHECK_INT(cJSON_GetNumberValue(cJSON_GetObjectItem(
					  m, "registry_uplink_requests")),
				  0);
			CHECK_INT(cJSON_GetNumberValue(cJSON_GetObjectItem(
					  m, "registry_failed_requests")),
				  0);
			CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(
				      m, "registry_tarball_requests")) >= 1);
			/* All answered by the front, from memory. */
			CHECK_INT(cJSON_GetNumberValue(cJSON_GetObjectItem(
					  m, "registry_fallback_requests")),
				  0);
			/*
			 * Every connection found to be the PM's (peer.h):
			 * none another program's, none unattributed.
			 */
			CHECK(!cJSON_GetObjectItem(
				m, "registry_foreign_requests"));
			CHECK(!cJSON_GetObjectItem(
				m, "registry_unattributed_connections"));
			runs++;
		}
	}
	cJSON_Delete(json);
	CHECK_INT(runs, 12);
	*ok = 1;
}

TEST(every_pm_installs_from_the_mirror_offline)
{
	struct h_run run;
	char out[4200];
	cJSON *json;
	const char *why;

	snprintf(sandbox, sizeof(sandbox), "%s", h_setup());
	h_real_pms();
	CHECK_INT(start_upstream(), 0);
	CHECK_INT(publish_all(), 0);
	{
		/* The user's registry is the test's verdaccio. */
		char rc[128];

		snprintf(rc, sizeof(rc), "registry=http://127.0.0.1:%d/\n",
			 up_port);
		h_write("home/.npmrc", rc);
	}
	project(0);

	/* 1. Primed through the mirror from the upstream, timed sealed. */
	snprintf(out, sizeof(out), "%s", h_write("r1.json", ""));
	bench(&run, ALL_PMS, out);
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	H_CHECK_CALL(check_sealed, out);

	/* 1b. The update task fetches a release no priming install did. */
	H_CHECK_CALL(check_update, "update.json");

	/* The upstream goes away. */
	pmbench_child_kill_tree(&upstream);
	pmbench_child_release(&upstream);
	/* Node's last thread may hold the socket a moment longer. */
	for (int i = 0; i < 1000 && pmbench_probe_port_open((unsigned)up_port);
	     i++)
		pmbench_sleep_ns(10000000);
	CHECK(!pmbench_probe_port_open((unsigned)up_port));

	/* 2. The warm mirror alone serves every PM. */
	snprintf(out, sizeof(out), "%s", h_write("r2.json", ""));
	bench(&run, ALL_PMS, out);
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	H_CHECK_CALL(check_sealed, out);

	/*
	 * 3. A package the mirror never saw fails, loudly. The drift
	 * control's cell is what gets measured, so that the failures are
	 * recorded in a result (exit 2), not "nothing was measured".
	 */
	h_with_control();
	project(1);
	snprintf(out, sizeof(out), "%s", h_write("r3.json", ""));
	bench(&run, "npm,bun", out);
	CHECK_INT(run.exit_code, 2);
	h_run_release(&run);
	json = h_read_json(out);
	why = cJSON_GetStringValue(cJSON_GetObjectItem(
		cJSON_GetArrayItem(cJSON_GetObjectItem(json, "cells"), 0),
		"prime_failure"));
	CHECK(why && strstr(why, "priming install failed"));
	cJSON_Delete(json);
}

CHECK_MAIN(CASE(every_pm_installs_from_the_mirror_offline))
