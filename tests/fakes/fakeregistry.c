/*
 * A fake verdaccio for the integration tests (tests/fakes/README.md):
 * started as `fakeregistry --config FILE`, it reads the two lines of the
 * config pmbench writes that matter here (`listen: 127.0.0.1:PORT` and
 * the log's `path: FILE,`), listens there, answers every HTTP request
 * with `{}` (404 for a path containing "missing") and logs each request
 * in verdaccio's JSON format, so that pmbench's lifecycle, environment
 * wiring and request counts are tested without Node or verdaccio. A path
 * containing "uplink" is one verdaccio lacks: it logs asking its uplink
 * for it, which answers when priming and fails (502) when sealed.
 *
 * `fakeregistry --serve DIR` is a static npm registry instead: it serves
 * the files of DIR (a path naming a folder serves its index.json), with
 * "{registry}" in JSON files replaced by its own URL, writes its port to
 * DIR/port and logs every request to DIR/requests.log.
 */
#include "pmbench/common.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmbench/buf.h"

static void die(const char *what)
{
	fprintf(stderr, "fakeregistry: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* The value after `key` on its line of `text`, up to a stop character. */
static int find_value(char *out, size_t n, const char *text, const char *key,
		      const char *stops)
{
	const char *p = strstr(text, key);
	size_t len;

	if (!p)
		return -1;
	p += strlen(key);
	len = strcspn(p, stops);
	if (!len || len >= n)
		return -1;
	memcpy(out, p, len);
	out[len] = '\0';
	return 0;
}

static void log_line(const char *path, const char *line)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return;
	if (write(fd, line, strlen(line)) < 0) {
		/* A test reads the log; nothing to do about it here. */
	}
	close(fd);
}

/* Sealed: the config sends the uplink through a refusing proxy. */
static int sealed;

static void serve(int fd, const char *logpath)
{
	char req[8192], method[16] = "GET", url[2048] = "/", line[4096];
	const char *body = "{}";
	size_t got = 0;
	int status = 200;

	while (got < sizeof(req) - 1) {
		ssize_t n = read(fd, req + got, sizeof(req) - 1 - got);

		if (n <= 0)
			break;
		got += (size_t)n;
		req[got] = '\0';
		if (strstr(req, "\r\n\r\n"))
			break;
	}
	req[got] = '\0';
	if (sscanf(req, "%15s %2047s", method, url) < 2)
		return;
	if (strstr(url, "missing")) {
		status = 404;
		body = "{\"error\":\"not found\"}";
	}
	if (strstr(url, "uplink")) {
		snprintf(line, sizeof(line),
			 "{\"level\":35,\"msg\":\"making request: 'GET "
			 "https://registry.npmjs.org%s'\"}\n",
			 url);
		log_line(logpath, line);
		if (sealed) {
			status = 502;
			body = "{\"error\":\"uplink unreachable\"}";
		}
	}
	snprintf(line, sizeof(line),
		 "{\"level\":30,\"sub\":\"in\",\"req\":{\"method\":\"%s\","
		 "\"url\":\"%s\"},\"msg\":\"requested\"}\n",
		 method, url);
	log_line(logpath, line);
	snprintf(line, sizeof(line),
		 "HTTP/1.1 %d X\r\nContent-Type: application/json\r\n"
		 "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
		 status, strlen(body), body);
	if (write(fd, line, strlen(line)) < 0) {
		/* The client went away. */
	}
	snprintf(line, sizeof(line),
		 "{\"level\":25,\"sub\":\"in\",\"request\":{\"method\":\"%s\","
		 "\"url\":\"%s\"},\"status\":%d,\"bytes\":{\"in\":0,"
		 "\"out\":%zu},\"msg\":\"answered\"}\n",
		 method, url, status, strlen(body));
	log_line(logpath, line);
}

/* Serving DIR: the root and this server's URL. */
static const char *serve_root;
static char serve_url[64];

/* The file for `url` below the root, into `out`; 0 when there is one. */
static int serve_file(struct pmbench_buf *out, const char *url)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	char chunk[8192];
	struct stat st;
	size_t n;
	FILE *fp;

	if (strstr(url, ".."))
		return -1;
	pmbench_buf_addf(&path, "%s%s", serve_root, url);
	if (stat(path.ptr, &st) == 0 && S_ISDIR(st.st_mode))
		pmbench_buf_adds(&path, "/index.json");
	fp = fopen(path.ptr, "r");
	pmbench_buf_release(&path);
	if (!fp)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		pmbench_buf_add(out, chunk, n);
	fclose(fp);
	return 0;
}

/* `text` with every "{registry}" made this server's URL. */
static void fill_registry(struct pmbench_buf *out, const struct pmbench_buf *in)
{
	for (size_t i = 0; i < in->len; i++) {
		if (!strncmp(in->ptr + i, "{registry}", 10)) {
			pmbench_buf_adds(out, serve_url);
			i += 9;
		} else {
			pmbench_buf_addch(out, in->ptr[i]);
		}
	}
}

static void serve_static(int fd)
{
	struct pmbench_buf body = PMBENCH_BUF_INIT, out = PMBENCH_BUF_INIT;
	char req[8192], method[16] = "GET", url[2048] = "/", line[4200];
	size_t got = 0;
	int status = 200;

	while (got < sizeof(req) - 1) {
		ssize_t n = read(fd, req + got, sizeof(req) - 1 - got);

		if (n <= 0)
			break;
		got += (size_t)n;
		req[got] = '\0';
		if (strstr(req, "\r\n\r\n"))
			break;
	}
	req[got] = '\0';
	if (sscanf(req, "%15s %2047s", method, url) < 2)
		return;
	if (serve_file(&body, url) < 0)
		status = 404;
	else if (body.len && body.ptr[0] == '{')
		fill_registry(&out, &body);
	else
		pmbench_buf_add(&out, body.ptr, body.len);
	snprintf(line, sizeof(line), "%s %s %d\n", method, url, status);
	pmbench_buf_reset(&body);
	pmbench_buf_addf(&body, "%s/requests.log", serve_root);
	log_line(body.ptr, line);
	snprintf(line, sizeof(line),
		 "HTTP/1.1 %d X\r\nContent-Length: %zu\r\n"
		 "Connection: close\r\n\r\n",
		 status, out.len);
	if (write(fd, line, strlen(line)) < 0 ||
	    (out.len && write(fd, out.ptr, out.len) < 0)) {
		/* The client went away. */
	}
	pmbench_buf_release(&body);
	pmbench_buf_release(&out);
}

static void serve_dir(const char *dir)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	char path[4200], tmp[4200], port[16];
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	serve_root = dir;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(fd, 64) || getsockname(fd, (struct sockaddr *)&a, &len))
		die("listen");
	snprintf(serve_url, sizeof(serve_url), "http://127.0.0.1:%u",
		 (unsigned)ntohs(a.sin_port));
	snprintf(port, sizeof(port), "%u\n", (unsigned)ntohs(a.sin_port));
	snprintf(path, sizeof(path), "%s/port", dir);
	snprintf(tmp, sizeof(tmp), "%s/port.tmp", dir);
	log_line(tmp, port);
	if (rename(tmp, path) < 0)
		die("rename");
	for (;;) {
		int c = accept(fd, NULL, NULL);

		if (c < 0) {
			if (errno == EINTR)
				continue;
			die("accept");
		}
		serve_static(c);
		close(c);
	}
}

int main(int argc, char **argv)
{
	struct pmbench_buf conf = PMBENCH_BUF_INIT;
	char port[16], logpath[4096], buf[4096];
	const char *pidfile = getenv("FAKEREGISTRY_PIDFILE");
	struct sockaddr_in a;
	int fd, one = 1;
	FILE *fp;
	size_t n;

	if (argc == 3 && !strcmp(argv[1], "--serve")) {
		serve_dir(argv[2]);
		return 1;
	}
	if (argc != 3 || strcmp(argv[1], "--config")) {
		fprintf(stderr, "usage: fakeregistry --config FILE | --serve "
				"DIR\n");
		return 2;
	}
	fp = fopen(argv[2], "r");
	if (!fp)
		die(argv[2]);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		pmbench_buf_add(&conf, buf, n);
	fclose(fp);
	if (find_value(port, sizeof(port), conf.ptr,
		       "listen: 127.0.0.1:", "\n") < 0 ||
	    find_value(logpath, sizeof(logpath), conf.ptr, "path: ", ",\n") <
		    0) {
		fprintf(stderr, "fakeregistry: no listen or log path\n");
		return 2;
	}
	sealed = strstr(conf.ptr, "http_proxy:") != NULL;
	if (getenv("FAKEREGISTRY_IGNORE_TERM"))
		signal(SIGTERM, SIG_IGN);
	if (pidfile && *pidfile) {
		snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
		log_line(pidfile, buf);
	}
	/* FAKEREGISTRY_CA_LOG=FILE: the NODE_EXTRA_CA_CERTS it was given. */
	if (getenv("FAKEREGISTRY_CA_LOG")) {
		const char *ca = getenv("NODE_EXTRA_CA_CERTS");

		snprintf(buf, sizeof(buf), "%s\n", ca ? ca : "(unset)");
		log_line(getenv("FAKEREGISTRY_CA_LOG"), buf);
	}
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)strtol(port, NULL, 10));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(fd, 64))
		die("listen");
	log_line(logpath, "{\"level\":40,\"msg\":\"http address\"}\n");
	for (;;) {
		int c = accept(fd, NULL, NULL);

		if (c < 0) {
			if (errno == EINTR)
				continue;
			die("accept");
		}
		serve(c, logpath);
		close(c);
	}
}
