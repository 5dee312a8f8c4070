/*
 * The local registry mirror's wiring and lifecycle, with the fake PMs and
 * the fake verdaccio (tests/fakes/fakeregistry.c): every PM gets the
 * mirror through its own variable, the mirror is restarted sealed for the
 * timed runs, a link puts a relay in front, lockfile URLs are pointed at
 * it, and no mirror process and no open port is left after a normal run,
 * a failed one, SIGINT, SIGTERM and SIGHUP.
 */
#include "pmbench/common.h"

#include <ctype.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include "pmbench/fs.h"
#include "pmbench/probe.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"

#include "check.h"
#include "fields.h"
#include "harness.h"

static char pidfile[4200];

/* The environment of a local-mirror run against the fake verdaccio. */
static void mirror_env(struct pmbench_strvec *env)
{
	const char *fake = getenv("PMBENCH_FAKEREGISTRY");

	snprintf(pidfile, sizeof(pidfile), "%s", h_write("registry.pids", ""));
	pmbench_strvec_push(env, "PMBENCH_REGISTRY=local");
	pmbench_strvec_pushf(env, "PMBENCH_VERDACCIO=%s", fake ? fake : "");
	pmbench_strvec_pushf(env, "FAKEREGISTRY_PIDFILE=%s", pidfile);
}

/* How many mirror processes were started, and how many still live. */
static int mirrors(int *alive)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	int n;

	*alive = 0;
	pmbench_fs_read(&b, pidfile, 1 << 16);
	pmbench_strvec_split(&v, b.ptr, '\n');
	for (size_t i = 0; i < v.nr; i++)
		if (*v.v[i] && h_alive(strtol(v.v[i], NULL, 10)))
			(*alive)++;
	n = 0;
	for (size_t i = 0; i < v.nr; i++)
		n += *v.v[i] != '\0';
	pmbench_strvec_release(&v);
	pmbench_buf_release(&b);
	return n;
}

/* The port of "http://127.0.0.1:PORT/", or 0. */
static int port_of(const char *url)
{
	const char *p = url ? strstr(url, "127.0.0.1:") : NULL;

	return p ? (int)strtol(p + 10, NULL, 10) : 0;
}

/* The registry every fake saw: one URL for all, its port. */
static int seen_port(void)
{
	cJSON *all = h_log_entries(), *e;
	const char *url = NULL;
	int port = 0, same = 1;

	cJSON_ArrayForEach(e, all)
	{
		const char *r = cJSON_GetStringValue(
			cJSON_GetObjectItem(e, "registry"));
		const char *cmd = cJSON_GetStringValue(
			cJSON_GetArrayItem(cJSON_GetObjectItem(e, "argv"), 0));

		/* pmbench asks npm for the upstream: not an install. */
		if (cmd && !strcmp(cmd, "config"))
			continue;
		if (!r || (url && strcmp(r, url)))
			same = 0;
		else
			url = r;
	}
	if (same && url)
		port = port_of(url);
	cJSON_Delete(all);
	return port;
}

TEST(every_pm_gets_the_mirror_and_nothing_is_left)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	const char *proj;
	char out[4200];
	const cJSON *s;
	cJSON *json;
	struct h_run run;
	int alive, port;

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	mirror_env(&env);
	{
		const char *args[] = { "bench",
				       "--pm",
				       "npm,yarn,yarn-berry,pnpm,bun,deno",
				       "--scenario",
				       "clean,lockfile",
				       "--runs",
				       "1",
				       "--warmup",
				       "0",
				       "--out",
				       out,
				       proj,
				       NULL };

		h_pmbench(&run, args, &env);
	}
	CHECK_INT(run.exit_code, 0);
	port = seen_port();
	CHECK(port > 0);
	/* Primed with the uplink, then restarted sealed: two processes. */
	CHECK_INT(mirrors(&alive), 2);
	CHECK_INT(alive, 0);
	CHECK(!pmbench_probe_port_open((unsigned)port));
	json = h_read_json(out);
	CHECK(json);
	CHECK_STR(
		cJSON_GetStringValue(cJSON_GetObjectItem(
			cJSON_GetObjectItem(json, "environment"), "registry")),
		"local");
	s = h_json_sample(json, "install", "lockfile", "pnpm", 0);
	CHECK(s && cJSON_GetObjectItem(cJSON_GetObjectItem(s, "metrics"),
				       "registry_tarball_requests"));
	cJSON_Delete(json);
	h_run_release(&run);
	pmbench_strvec_release(&env);
}

/*
 * The mirror's uplink is told the machine's CA certificates (Node trusts
 * its own bundle only): as user pmtest, without root's
 * NODE_EXTRA_CA_CERTS, every priming failed with a 404 behind this
 * machine's TLS-inspecting proxy. SSL_CERT_FILE is passed on; a user's
 * own NODE_EXTRA_CA_CERTS stays as it is.
 */
TEST(the_uplink_is_told_the_machines_ca)
{
	const char *proj, *ca, *own = "/nonexistent/own-ca.pem";
	char log[4200];
	struct pmbench_buf got = PMBENCH_BUF_INIT;

	h_setup();
	proj = h_project("proj");
	ca = h_write("ca.pem", "-----BEGIN CERTIFICATE-----\n");
	snprintf(log, sizeof(log), "%s", h_write("ca.log", ""));
	for (int mine = 0; mine < 2; mine++) {
		struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
		struct h_run run;
		const char *args[] = { "bench", "--pm",	  "npm", "--scenario",
				       "clean", "--runs", "1",	 "--warmup",
				       "0",	proj,	  NULL };

		mirror_env(&env);
		pmbench_strvec_pushf(&env, "FAKEREGISTRY_CA_LOG=%s", log);
		pmbench_strvec_pushf(&env, "SSL_CERT_FILE=%s", ca);
		if (mine)
			pmbench_strvec_pushf(&env, "NODE_EXTRA_CA_CERTS=%s",
					     own);
		else
			pmbench_strvec_push(&env, "NODE_EXTRA_CA_CERTS");
		h_pmbench(&run, args, &env);
		CHECK_INT(run.exit_code, 0);
		h_run_release(&run);
		pmbench_strvec_release(&env);
	}
	CHECK_INT(pmbench_fs_read_text(&got, log, 1 << 16), 0);
	fprintf(stderr, "NODE_EXTRA_CA_CERTS given:\n%s", got.ptr);
	/* Each run: primed, then sealed; the first two lines are ours. */
	CHECK(!strncmp(got.ptr, ca, strlen(ca)));
	CHECK_CONTAINS(got.ptr, own);
	CHECK(!strstr(got.ptr, "(unset)"));
	pmbench_buf_release(&got);
}

TEST(a_link_puts_a_relay_in_front)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_buf conf = PMBENCH_BUF_INIT;
	const char *proj, *link;
	char out[4200];
	cJSON *json;
	struct h_run run;
	int port, alive;

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	mirror_env(&env);
	{
		const char *args[] = { "bench",	     "--pm",	     "npm,bun",
				       "--scenario", "clean",	     "--runs",
				       "1",	     "--warmup",     "0",
				       "--link",     "20ms,100mbit", "--out",
				       out,	     proj,	     NULL };

		h_pmbench(&run, args, &env);
	}
	CHECK_INT(run.exit_code, 0);
	port = seen_port();
	CHECK(port > 0);
	CHECK(!pmbench_probe_port_open((unsigned)port));
	/* The PMs were given the relay's port, not the mirror's. */
	{
		struct pmbench_buf p = PMBENCH_BUF_INIT;

		pmbench_buf_path(&p, h_cache(),
				 "registry/registry.npmjs.org/"
				 "config-sealed.yaml");
		pmbench_fs_read(&conf, p.ptr, 1 << 16);
		pmbench_buf_release(&p);
	}
	CHECK_CONTAINS(conf.ptr, "listen: 127.0.0.1:");
	{
		char want[64];

		snprintf(want, sizeof(want), "listen: 127.0.0.1:%d\n", port);
		CHECK(!strstr(conf.ptr, want));
	}
	CHECK_INT(mirrors(&alive), 2);
	CHECK_INT(alive, 0);
	json = h_read_json(out);
	link = cJSON_GetStringValue(cJSON_GetObjectItem(
		cJSON_GetObjectItem(json, "environment"), "link"));
	CHECK(link && strstr(link, "20 ms RTT") && strstr(link, "100 Mbit/s"));
	cJSON_Delete(json);
	h_run_release(&run);
	pmbench_buf_release(&conf);
	pmbench_strvec_release(&env);
}

TEST(shipped_yarn_lock_urls_point_at_the_mirror)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	const struct pmbench_cell *c;
	const char *proj;
	char out[4200];
	struct h_run run;

	h_setup();
	proj = h_project("proj");
	h_write("proj/yarn.lock",
		"# yarn lockfile v1\n\n\nms@^2.1.3:\n  version \"2.1.3\"\n"
		"  resolved \"https://registry.yarnpkg.com/ms/-/"
		"ms-2.1.3.tgz#abc\"\n");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	mirror_env(&env);
	{
		const char *args[] = { "bench",	     "--pm",	 "yarn",
				       "--scenario", "lockfile", "--runs",
				       "1",	     "--warmup", "0",
				       "--out",	     out,	 proj,
				       NULL };

		h_pmbench(&run, args, &env);
	}
	CHECK_INT(run.exit_code, 0);
	CHECK_INT(pmbench_result_read(&r, out), 0);
	c = pmbench_result_find_cell(&r, "proj", "install", "lockfile", "yarn");
	CHECK(c && c->lockfile);
	CHECK_CONTAINS(c->lockfile, "pointed at the local mirror");
	CHECK_CONTAINS(c->lockfile, "yarn.lock: 1 tarball URLs");
	pmbench_result_release(&r);
	h_run_release(&run);
	pmbench_strvec_release(&env);
}

/*
 * --registry live: the PMs reach the user's registry as the user's
 * config names it (npm_config_registry), a static registry on 127.0.0.1
 * standing in for registry.npmjs.org; pmbench starts no mirror and
 * points no PM anywhere, and the result says the registry was live. The
 * option wins over PMBENCH_REGISTRY=local.
 */
TEST(live_is_the_users_registry)
{
	struct pmbench_child reg = PMBENCH_CHILD_INIT;
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	struct pmbench_buf url = PMBENCH_BUF_INIT, log = PMBENCH_BUF_INIT;
	struct h_run run;
	const char *proj;
	char out[4200];
	cJSON *all, *npm;
	const cJSON *e;
	int alive, asked = 0;

	h_setup();
	proj = h_project("proj");
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	h_write("reg/left-pad/index.json", "{\"name\":\"left-pad\"}\n");
	H_CHECK_CALL(h_serve_registry, &reg, check_path("reg"), &url);
	mirror_env(&env);
	pmbench_strvec_pushf(&env, "npm_config_registry=%s", url.ptr);
	pmbench_strvec_push(&env, "FAKEPM_NPM_FETCH=/left-pad");
	{
		const char *args[] = { "bench", "--registry", "live",  "--pm",
				       "npm",	"--scenario", "clean", "--runs",
				       "1",	"--warmup",   "0",     "--out",
				       out,	proj,	      NULL };

		h_pmbench(&run, args, &env);
	}
	h_stop_registry(&reg);
	CHECK_INT(run.exit_code, 0);
	/* No mirror was started. */
	CHECK_INT(mirrors(&alive), 0);
	/* Every install asked the user's registry, and got its answer. */
	all = h_log_entries();
	npm = h_log_of(all, "npm");
	CHECK_INT(cJSON_GetArraySize(npm), 2);
	cJSON_ArrayForEach(e, npm) CHECK_STR(h_str(e, "registry"), url.ptr);
	cJSON_Delete(npm);
	cJSON_Delete(all);
	CHECK_INT(pmbench_fs_read(&log, check_path("reg/requests.log"),
				  1u << 20),
		  0);
	for (const char *p = log.ptr; (p = strstr(p, "/left-pad")); p++)
		asked++;
	CHECK_INT(asked, 2);
	CHECK(!strstr(run.out.ptr, "WARN"));
	CHECK_INT(pmbench_result_read(&r, out), 0);
	CHECK_STR(pmbench_result_env_get(&r, "network"), "live npm registry");
	pmbench_result_release(&r);
	pmbench_buf_release(&url);
	pmbench_buf_release(&log);
	pmbench_strvec_release(&env);
	h_run_release(&run);
}

TEST(link_needs_the_mirror)
{
	const char *args[] = { "bench",	 "--registry",	 "live",
			       "--link", "50ms,200mbit", NULL };

	h_setup();
	H_CHECK_CALL(h_expect, args, NULL, 129, "needs the local registry");
}

TEST(failed_runs_leave_no_mirror)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	const char *proj;
	struct h_run run;
	int alive, port;

	h_setup();
	proj = h_project("proj");
	mirror_env(&env);
	/* A mirror that ignores SIGTERM gets SIGKILL after the grace. */
	pmbench_strvec_push(&env, "FAKEREGISTRY_IGNORE_TERM=1");
	pmbench_strvec_push(&env, "FAKEPM_BUN_MODE=fail");
	{
		const char *args[] = { "bench",	     "--pm",	 "npm,bun",
				       "--scenario", "clean",	 "--runs",
				       "1",	     "--warmup", "0",
				       proj,	     NULL };

		h_pmbench(&run, args, &env);
	}
	CHECK_INT(run.exit_code, 2);
	port = seen_port();
	CHECK(port > 0);
	CHECK(!pmbench_probe_port_open((unsigned)port));
	CHECK(mirrors(&alive) >= 1);
	CHECK_INT(alive, 0);
	h_run_release(&run);
	pmbench_strvec_release(&env);
}

/* bun hangs in the lockfile scenario; pmbench gets `sig` then. */
static void stopped_by(int *ok, int sig)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	char bunpid[4200];
	int alive, port;

	*ok = 0;
	h_setup();
	snprintf(bunpid, sizeof(bunpid), "%s", h_write("bun.pid", ""));
	pmbench_strvec_push(&c.args, getenv("PMBENCH_BIN"));
	pmbench_strvec_pushv(
		&c.args,
		(const char *const[]){ "bench", "--pm", "npm,bun", "--scenario",
				       "clean,lockfile", "--runs", "1",
				       "--warmup", "0", "--link", "10ms,1gbit",
				       h_project("proj"), NULL });
	mirror_env(&c.env);
	pmbench_strvec_push(&c.env, "FAKEPM_BUN_MODE=hang-escape");
	pmbench_strvec_push(&c.env, "FAKEPM_BUN_WHEN=lockfile");
	pmbench_strvec_pushf(&c.env, "FAKEPM_PIDFILE=%s", bunpid);
	H_CHECK_CALL(h_signal, &c, bunpid, sig);
	port = seen_port();
	CHECK(port > 0);
	CHECK(!pmbench_probe_port_open((unsigned)port));
	CHECK_INT(mirrors(&alive), 2);
	CHECK_INT(alive, 0);
	pmbench_child_kill_tree(&c);
	pmbench_child_release(&c);
	*ok = 1;
}

TEST(sigint_leaves_no_mirror)
{
	H_CHECK_CALL(stopped_by, SIGINT);
}

TEST(sigterm_leaves_no_mirror)
{
	H_CHECK_CALL(stopped_by, SIGTERM);
}

TEST(sighup_leaves_no_mirror)
{
	H_CHECK_CALL(stopped_by, SIGHUP);
}

/*
 * Pipeline `n` requests for "/left-pad" to 127.0.0.1:`port` on one
 * connection, sending while reading as a pipelining client does;
 * returns how many were answered 200.
 */
static size_t pipeline(int port, size_t n)
{
	const char *req = "GET /left-pad HTTP/1.1\r\nHost: x\r\nAccept: "
			  "application/json\r\n\r\n";
	const char *ok_line = "HTTP/1.1 200 ";
	size_t len = strlen(req), sent = 0, off = 0, answered = 0, match = 0;
	uint64_t until = pmbench_now_ns() + 60ull * 1000000000ull;
	struct sockaddr_in a;
	char chunk[65536];
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		n = 0;
	while (answered < n && pmbench_now_ns() < until) {
		struct pollfd p = { fd, POLLIN | (sent < n ? POLLOUT : 0), 0 };
		ssize_t got;

		if (poll(&p, 1, 1000) <= 0)
			continue;
		if ((p.revents & POLLOUT) && sent < n) {
			ssize_t k = send(fd, req + off, len - off,
					 MSG_NOSIGNAL | MSG_DONTWAIT);

			if (k > 0 && (off += (size_t)k) == len) {
				off = 0;
				sent++;
			}
		}
		if (!(p.revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		got = recv(fd, chunk, sizeof(chunk), MSG_DONTWAIT);
		if (got == 0)
			break;
		for (ssize_t i = 0; i < got; i++) {
			match = chunk[i] == ok_line[match] ? match + 1
				: chunk[i] == ok_line[0]   ? 1
							   : 0;
			if (!ok_line[match]) {
				answered++;
				match = 0;
			}
		}
	}
	if (fd >= 0)
		close(fd);
	return answered;
}

/*
 * How many installs npm began (its priming, then its timed run), and the
 * registry port the last one was given, into *port.
 */
static int npm_installs(int *port)
{
	cJSON *all = h_log_entries(), *npm = h_log_of(all, "npm"), *e;
	const char *url = NULL;
	int installs = 0;

	cJSON_ArrayForEach(e, npm)
	{
		const char *cmd = cJSON_GetStringValue(
			cJSON_GetArrayItem(cJSON_GetObjectItem(e, "argv"), 0));

		if (cmd && !strcmp(cmd, "config"))
			continue;
		installs++;
		url = cJSON_GetStringValue(cJSON_GetObjectItem(e, "registry"));
	}
	*port = port_of(url);
	cJSON_Delete(npm);
	cJSON_Delete(all);
	return installs;
}

/* `text` with every run of white space made one space (lines unwrapped). */
static void unwrap(struct pmbench_buf *out, const char *text)
{
	for (const char *p = text; *p; p++) {
		if (!isspace((unsigned char)*p))
			pmbench_buf_addch(out, *p);
		else if (out->len && out->ptr[out->len - 1] != ' ')
			pmbench_buf_addch(out, ' ');
	}
}

/* A metric of npm's first timed run in the result at `out`, or -1. */
static double npm_metric(const char *out, const char *name)
{
	cJSON *json = h_read_json(out);
	const cJSON *s = h_json_sample(json, "install", "clean", "npm", 0);
	const cJSON *v =
		cJSON_GetObjectItem(cJSON_GetObjectItem(s, "metrics"), name);
	double d = cJSON_IsNumber(v) ? v->valuedouble : -1;

	cJSON_Delete(json);
	return d;
}

/*
 * Another program pipelines 500 requests to the registry while npm's
 * timed install runs (issue 24, fault 4: another client's 7,978 were
 * once recorded as the PM's registry_meta_requests). npm's own 3 are its
 * metrics; the 500 are counted apart and the report says so. With a
 * link, the relay tells the front whose each connection is.
 */
static void others_apart(int *ok, const char *link)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf said = PMBENCH_BUF_INIT;
	const char *sandbox;
	char out[4200];
	int port = 0, rc = 0, installs = 0, opened = 0;
	size_t answered = 0;

	*ok = 0;
	sandbox = h_setup();
	snprintf(out, sizeof(out), "%s", h_write("result.json", ""));
	pmbench_strvec_push(&c.args, getenv("PMBENCH_BIN"));
	pmbench_strvec_pushv(
		&c.args,
		(const char *const[]){ "bench", "--pm", "npm", "--scenario",
				       "clean", "--runs", "1", "--warmup", "0",
				       "--no-control", "--link", link, "--out",
				       out, h_project("proj"), NULL });
	mirror_env(&c.env);
	pmbench_strvec_push(&c.env, "FAKEPM_FETCH=3");
	/* npm's install waits for the other program's requests. */
	pmbench_strvec_pushf(&c.env, "FAKEPM_FETCH_WAIT=%s/gate/open", sandbox);
	c.tail_max = 1u << 20;
	CHECK_INT(pmbench_child_start(&c), 0);
	/* The priming goes on at once; the timed install waits for us. */
	for (int i = 0; i < 1200 && !rc && installs < 2; i++) {
		rc = pmbench_child_pump(&c, 50 * 1000000ull);
		installs = npm_installs(&port);
		if (installs == 2)
			answered = pipeline(port, 500);
		if (installs > opened)
			h_write("gate/open", ""), opened++;
	}
	for (int i = 0; i < 1200 && !rc; i++)
		rc = pmbench_child_pump(&c, 50 * 1000000ull);
	if (rc != 1 || c.result.exit_code)
		fprintf(stderr, "--- pmbench:\n%s\n---\n", c.tail.ptr);
	CHECK(port > 0);
	CHECK_INT(answered, 500);
	CHECK_INT(rc, 1);
	CHECK_INT(c.result.exit_code, 0);
	CHECK_INT(npm_metric(out, "registry_meta_requests"), 3);
	CHECK_INT(npm_metric(out, "registry_foreign_requests"), 500);
	unwrap(&said, c.tail.ptr);
	CHECK_CONTAINS(said.ptr, "npm: 3 metadata, 0 tarballs, 0.0 MB; other "
				 "programs used the mirror during 1 run (500 "
				 "requests, not counted here)");
	pmbench_buf_release(&said);
	pmbench_child_kill_tree(&c);
	pmbench_child_release(&c);
	*ok = 1;
}

TEST(other_programs_requests_are_not_the_pms)
{
	H_CHECK_CALL(others_apart, "none");
}

TEST(other_programs_requests_through_the_link)
{
	H_CHECK_CALL(others_apart, "1ms,1gbit");
}

CHECK_MAIN(CASE(live_is_the_users_registry),
	   CASE(every_pm_gets_the_mirror_and_nothing_is_left),
	   CASE(the_uplink_is_told_the_machines_ca),
	   CASE(a_link_puts_a_relay_in_front),
	   CASE(shipped_yarn_lock_urls_point_at_the_mirror),
	   CASE(link_needs_the_mirror), CASE(failed_runs_leave_no_mirror),
	   CASE(sigint_leaves_no_mirror), CASE(sigterm_leaves_no_mirror),
	   CASE(sighup_leaves_no_mirror),
	   CASE(other_programs_requests_are_not_the_pms),
	   CASE(other_programs_requests_through_the_link))
