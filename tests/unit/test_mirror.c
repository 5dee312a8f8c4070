/*
 * The registry's front (mirror.c) against a fake verdaccio in a thread
 * of this process, with libcurl as the package manager: what it keeps,
 * what it serves from memory, what it asks the backend again, what it
 * refuses, and what it counts.
 *
 * The fake backend answers one request per connection (Connection:
 * close) and notes, per request, the path and the Host, Accept and
 * Accept-Encoding it was asked with. Its bodies say which kind of answer
 * was asked for ("corgi:/pkg", "full:/pkg", "tgz:/pkg/-/pkg-1.0.0.tgz"),
 * so a test can tell a right answer from a wrong kept one. Its gzip
 * bodies are not gzip: the front passes bytes through, and the client
 * sets Accept-Encoding as a raw header so that curl does not decode.
 */
#include "pmbench/common.h"

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <dirent.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <curl/curl.h>

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/mirror.h"

/* What the PMs send for an abbreviated packument (npm's words). */
#define CORGI_TYPE "application/vnd.npm.install-v1+json"
#define CORGI	   CORGI_TYPE "; q=1.0, application/json; q=0.8, */*"
/* The host:port the PMs are told; not where the backend listens. */
#define HOST	     "127.0.0.1:5555"
#define CC_META	     "public, max-age=300"
#define CC_TARBALL   "public, immutable, max-age=31557600"
#define TARBALL	     "/pkg/-/pkg-1.0.0.tgz"
#define MISSING_BODY "{\"error\":\"no such package available\"}"
/* A tarball larger than a socket's buffers: written in many goes. */
#define BIG	       "/big/-/big-1.0.0.tgz"
#define BIG_LEN	       (4u << 20)
#define MAX_CONNS      256
#define MAX_HEAD_BYTES 8192

/* ---- the fake verdaccio ------------------------------------------------ */

struct seen {
	char path[256], host[128], accept[256], encoding[128];
};

struct backend {
	int fd, port;
	pthread_t thread;
	pthread_mutex_t lock; /* requests, last */
	unsigned requests;
	struct seen last;
	/* Written by the accepting thread only; read after it is joined. */
	pthread_t conns[MAX_CONNS];
	size_t nconns;
};

struct backend_conn {
	struct backend *b;
	int fd;
};

/* Copy the value of header `name` in request head `head` into `out`. */
static void head_value(const char *head, const char *name, char *out,
		       size_t size)
{
	size_t n = strlen(name);
	const char *p = strstr(head, "\r\n");

	out[0] = '\0';
	while (p && p[2] && strncmp(p, "\r\n\r\n", 4)) {
		const char *line = p + 2, *eol = strstr(line, "\r\n");

		if (!eol)
			return;
		if ((size_t)(eol - line) > n && !strncasecmp(line, name, n) &&
		    line[n] == ':') {
			const char *v = line + n + 1;

			while (*v == ' ' || *v == '\t')
				v++;
			snprintf(out, size, "%.*s", (int)(eol - v), v);
			return;
		}
		p = eol;
	}
}

static unsigned char big_byte(size_t i)
{
	return (unsigned char)((i * 131u + 7u) & 0xff);
}

static int is_big(const struct pmbench_buf *b)
{
	if (b->len != BIG_LEN)
		return 0;
	for (size_t i = 0; i < b->len; i++)
		if ((unsigned char)b->ptr[i] != big_byte(i))
			return 0;
	return 1;
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

static void send_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		len -= (size_t)n;
	}
}

static void *backend_conn_main(void *arg)
{
	struct backend_conn *bc = arg;
	struct backend *b = bc->b;
	int fd = bc->fd;
	struct timeval tv = { 10, 0 };
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	struct seen s;
	char head[MAX_HEAD_BYTES];
	const char *sp, *type, *body;
	char *sp2;
	size_t got = 0;
	int status = 200, gzip;

	free(bc);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	head[0] = '\0';
	while (got < sizeof(head) - 1 && !strstr(head, "\r\n\r\n")) {
		ssize_t n = recv(fd, head + got, sizeof(head) - 1 - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
		head[got] = '\0';
	}
	sp = strchr(head, ' ');
	sp2 = sp ? strchr(sp + 1, ' ') : NULL;
	if (!strstr(head, "\r\n\r\n") || !sp2) {
		close(fd);
		return NULL;
	}
	memset(&s, 0, sizeof(s));
	snprintf(s.path, sizeof(s.path), "%.*s", (int)(sp2 - sp - 1), sp + 1);
	head_value(head, "Host", s.host, sizeof(s.host));
	head_value(head, "Accept", s.accept, sizeof(s.accept));
	head_value(head, "Accept-Encoding", s.encoding, sizeof(s.encoding));
	pthread_mutex_lock(&b->lock);
	b->requests++;
	b->last = s;
	pthread_mutex_unlock(&b->lock);

	gzip = strstr(s.encoding, "gzip") != NULL;
	if (strstr(s.path, "slow"))
		pmbench_sleep_ns(300000000ull);
	if (strstr(s.path, "missing")) {
		status = 404;
		type = "application/json";
		body = MISSING_BODY;
	} else if (!strcmp(s.path, BIG)) {
		pmbench_buf_addf(
			&out,
			"HTTP/1.1 200 OK\r\nContent-Type: "
			"application/octet-stream\r\nETag: \"e1\"\r\n"
			"Content-Length: %u\r\nConnection: close\r\n\r\n",
			BIG_LEN);
		for (size_t i = 0; i < BIG_LEN; i++)
			pmbench_buf_addch(&out, big_byte(i));
		goto send;
	} else if (ends_with(s.path, ".tgz")) {
		type = "application/octet-stream";
		body = "tgz:";
	} else {
		type = "application/json";
		body = strstr(s.accept, CORGI_TYPE) ? "corgi:" : "full:";
	}
	pmbench_buf_addf(&out, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\n", status,
			 status == 200 ? "OK" : "Not Found", type);
	if (status == 200) {
		pmbench_buf_adds(&out, "ETag: \"e1\"\r\n");
		/* As the public registry: "/cc..." answers say how to cache. */
		if (!strncmp(s.path, "/cc", 3))
			pmbench_buf_addf(&out, "Cache-Control: %s\r\n",
					 ends_with(s.path, ".tgz") ? CC_TARBALL
								   : CC_META);
		if (gzip)
			pmbench_buf_adds(&out, "Content-Encoding: gzip\r\n");
		pmbench_buf_addf(&out, "Content-Length: %zu\r\n",
				 strlen(body) + strlen(s.path));
		pmbench_buf_addf(&out, "Connection: close\r\n\r\n%s%s", body,
				 s.path);
	} else {
		pmbench_buf_addf(&out,
				 "Content-Length: %zu\r\nConnection: close\r\n"
				 "\r\n%s",
				 strlen(body), body);
	}
send:
	send_all(fd, out.ptr, out.len);
	shutdown(fd, SHUT_WR);
	close(fd);
	pmbench_buf_release(&out);
	return NULL;
}

static void *backend_main(void *arg)
{
	struct backend *b = arg;

	for (;;) {
		struct backend_conn *bc;
		int c = accept(b->fd, NULL, NULL);

		if (c < 0) {
			if (errno == EINTR)
				continue;
			return NULL;
		}
		if (b->nconns == MAX_CONNS) {
			close(c);
			continue;
		}
		bc = pmbench_xcalloc(1, sizeof(*bc));
		bc->b = b;
		bc->fd = c;
		if (pthread_create(&b->conns[b->nconns], NULL,
				   backend_conn_main, bc)) {
			free(bc);
			close(c);
			continue;
		}
		b->nconns++;
	}
}

static int backend_start(struct backend *b)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);

	memset(b, 0, sizeof(*b));
	pthread_mutex_init(&b->lock, NULL);
	b->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (b->fd < 0 || bind(b->fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(b->fd, 64) < 0 ||
	    getsockname(b->fd, (struct sockaddr *)&a, &len) < 0)
		return -1;
	b->port = ntohs(a.sin_port);
	return pthread_create(&b->thread, NULL, backend_main, b) ? -1 : 0;
}

/* Stop accepting (shutdown() fails the accept()), join every thread. */
static void backend_stop(struct backend *b)
{
	shutdown(b->fd, SHUT_RDWR);
	pthread_join(b->thread, NULL);
	for (size_t i = 0; i < b->nconns; i++)
		pthread_join(b->conns[i], NULL);
	close(b->fd);
	pthread_mutex_destroy(&b->lock);
}

/* How many requests the backend answered; the last one into `last`. */
static unsigned backend_seen(struct backend *b, struct seen *last)
{
	unsigned n;

	pthread_mutex_lock(&b->lock);
	n = b->requests;
	if (last)
		*last = b->last;
	pthread_mutex_unlock(&b->lock);
	return n;
}

/* ---- ports --------------------------------------------------------------- */

/* A port of 127.0.0.1 nothing listens on (just now), or -1. */
static int free_port(void)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), port = -1;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(fd, (struct sockaddr *)&a, &len))
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

/* Whether a TCP connection to 127.0.0.1:`port` is accepted. */
static int can_connect(int port)
{
	struct sockaddr_in a;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), ok;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ok = fd >= 0 && !connect(fd, (struct sockaddr *)&a, sizeof(a));
	if (fd >= 0)
		close(fd);
	return ok;
}

/* ---- the client (the PM) ------------------------------------------------ */

struct reply {
	long status;
	long connects; /* new connections this request opened */
	struct pmbench_buf head, body;
};

static size_t take_bytes(char *p, size_t size, size_t n, void *data)
{
	pmbench_buf_add(data, p, size * n);
	return size * n;
}

/*
 * `method` `path` to the front on `port`, with the extra header lines
 * `headers` (NULL-ended), on `easy` (its connections kept between
 * calls). Returns the CURLcode.
 */
static int ask(CURL *easy, int port, const char *method, const char *path,
	       const char *const *headers, struct reply *r)
{
	struct pmbench_buf url = PMBENCH_BUF_INIT;
	struct curl_slist *list = NULL;
	CURLcode rc;

	r->status = r->connects = 0;
	pmbench_buf_reset(&r->head);
	pmbench_buf_reset(&r->body);
	for (size_t i = 0; headers && headers[i]; i++)
		list = curl_slist_append(list, headers[i]);
	pmbench_buf_addf(&url, "http://127.0.0.1:%d%s", port, path);
	curl_easy_reset(easy);
	curl_easy_setopt(easy, CURLOPT_URL, url.ptr);
	curl_easy_setopt(easy, CURLOPT_NOPROXY, "*");
	curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(easy, CURLOPT_TIMEOUT, 30L);
	curl_easy_setopt(easy, CURLOPT_HTTPHEADER, list);
	curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, take_bytes);
	curl_easy_setopt(easy, CURLOPT_WRITEDATA, &r->body);
	curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, take_bytes);
	curl_easy_setopt(easy, CURLOPT_HEADERDATA, &r->head);
	if (!strcmp(method, "HEAD")) {
		curl_easy_setopt(easy, CURLOPT_NOBODY, 1L);
	} else if (!strcmp(method, "POST")) {
		curl_easy_setopt(easy, CURLOPT_POSTFIELDS, "");
		curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE, 0L);
	} else if (strcmp(method, "GET")) {
		curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, method);
	}
	rc = curl_easy_perform(easy);
	if (rc == CURLE_OK) {
		curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &r->status);
		curl_easy_getinfo(easy, CURLINFO_NUM_CONNECTS, &r->connects);
	} else {
		fprintf(stderr, "%s %s: %s\n", method, path,
			curl_easy_strerror(rc));
	}
	curl_slist_free_all(list);
	pmbench_buf_release(&url);
	return (int)rc;
}

/* The value of header `name` in the reply (a static copy), or NULL. */
static const char *reply_header(const struct reply *r, const char *name)
{
	static char v[256];
	size_t n = strlen(name);

	for (const char *p = r->head.ptr; p && *p;) {
		const char *eol = strstr(p, "\r\n");

		if (!eol)
			eol = p + strlen(p);
		if ((size_t)(eol - p) > n && !strncasecmp(p, name, n) &&
		    p[n] == ':') {
			const char *s = p + n + 1;

			while (*s == ' ')
				s++;
			snprintf(v, sizeof(v), "%.*s", (int)(eol - s), s);
			return v;
		}
		p = *eol ? eol + 2 : eol;
	}
	return NULL;
}

static const char *const corgi_gzip[] = { "Accept: " CORGI,
					  "Accept-Encoding: gzip", NULL };
static const char *const full_plain[] = { "Accept: application/json", NULL };
static const char *const full_gzip[] = { "Accept: application/json",
					 "Accept-Encoding: gzip", NULL };
static const char *const corgi_plain[] = { "Accept: " CORGI, NULL };

/* ---- the front ----------------------------------------------------------- */

struct world {
	struct backend backend;
	struct pmbench_mirror *m;
	CURL *pm;
	int port; /* the front's */
	struct reply r;
	int passed; /* set by each step that got to its end */
	long slow_status;
};

static void check_counts(const struct pmbench_mirror_counts *c, unsigned meta,
			 unsigned tarball, unsigned other, unsigned failed,
			 unsigned fallbacks, uint64_t bytes, int *ok)
{
	*ok = 0;
	CHECK_INT(c->meta_requests, meta);
	CHECK_INT(c->tarball_requests, tarball);
	CHECK_INT(c->other_requests, other);
	CHECK_INT(c->failed, failed);
	CHECK_INT(c->fallbacks, fallbacks);
	CHECK_INT(c->bytes, bytes);
	*ok = 1;
}

#define CHECK_COUNTS(w, meta, tarball, other, failed, fallbacks, bytes)     \
	do {                                                                \
		struct pmbench_mirror_counts cc_;                           \
		int ok_;                                                    \
		pmbench_mirror_take_counts((w)->m, &cc_);                   \
		check_counts(&cc_, meta, tarball, other, failed, fallbacks, \
			     bytes, &ok_);                                  \
		if (!ok_)                                                   \
			return;                                             \
	} while (0)

/* Preloading, before the front serves. */
static void preload(struct world *w)
{
	struct seen s;
	uint64_t bytes = 1;
	int dead = free_port();

	CHECK(dead > 0);
	/* The backend not there: an error, nothing kept; then it moves. */
	w->m = pmbench_mirror_new(dead, HOST);
	CHECK_INT(pmbench_mirror_preload(w->m, "/pkg", CORGI, 1), -1);
	CHECK_CONTAINS(pmbench_error_last(), "/pkg");
	pmbench_error_clear();
	CHECK_INT(pmbench_mirror_kept(w->m, &bytes), 0);
	CHECK_INT(bytes, 0);
	pmbench_mirror_set_backend(w->m, w->backend.port);

	/* 1. Kept once; asked as the kind says, with the PMs' Host. */
	CHECK_INT(pmbench_mirror_preload(w->m, "/pkg", CORGI, 1), 1);
	CHECK_INT(pmbench_mirror_preload(w->m, "/pkg", CORGI, 1), 0);
	CHECK_INT(backend_seen(&w->backend, &s), 1);
	CHECK_STR(s.path, "/pkg");
	CHECK_STR(s.host, HOST);
	CHECK_CONTAINS(s.accept, CORGI_TYPE);
	CHECK_CONTAINS(s.encoding, "gzip");
	CHECK_INT(pmbench_mirror_kept(w->m, &bytes), 1);
	CHECK_INT(bytes, strlen("corgi:/pkg"));

	/*
	 * A 404 is kept too: the registry's answer that it has no such
	 * package (pnpm asks for a workspace's own packages).
	 */
	CHECK_INT(pmbench_mirror_preload(w->m, "/missing-kept", NULL, 0), 1);
	CHECK_INT(pmbench_mirror_preload(w->m, "/missing-kept", NULL, 0), 0);
	CHECK_INT(backend_seen(&w->backend, &s), 2);
	CHECK_STR(s.path, "/missing-kept");
	CHECK_STR(s.encoding, "");
	CHECK_INT(pmbench_mirror_kept(w->m, NULL), 2);
	/* Preloading is not serving: nothing counted. */
	CHECK_COUNTS(w, 0, 0, 0, 0, 0, 0);
	w->passed = 1;
}

static void serve(struct world *w)
{
	struct pmbench_mirror *other;
	struct seen s;
	struct reply *r = &w->r;
	int taken;
	const char *const stale[] = { "Accept: " CORGI, "Accept-Encoding: gzip",
				      "If-None-Match: \"e0\"", NULL };
	const char *const fresh[] = { "Accept: " CORGI, "Accept-Encoding: gzip",
				      "If-None-Match: \"e1\"", NULL };

	/* 2. Served from memory, the very bytes and headers. */
	w->port = free_port();
	CHECK(w->port > 0);
	CHECK_INT(pmbench_mirror_serve(w->m, w->port), 0);
	/* The port taken: an error, not a second front. */
	other = pmbench_mirror_new(w->backend.port, HOST);
	taken = pmbench_mirror_serve(other, w->port);
	pmbench_mirror_free(other);
	CHECK(taken != 0);
	pmbench_error_clear();

	CHECK_INT(ask(w->pm, w->port, "GET", "/pkg", corgi_gzip, r), CURLE_OK);
	CHECK_INT(r->status, 200);
	CHECK_STR(r->body.ptr, "corgi:/pkg");
	CHECK_STR(reply_header(r, "Content-Encoding"), "gzip");
	CHECK_STR(reply_header(r, "Content-Type"), "application/json");
	CHECK_STR(reply_header(r, "ETag"), "\"e1\"");
	CHECK_INT(backend_seen(&w->backend, NULL), 2);
	CHECK_COUNTS(w, 1, 0, 0, 0, 0, strlen("corgi:/pkg"));
	CHECK_COUNTS(w, 0, 0, 0, 0, 0, 0);

	/* 3. The full document: a fallback, then kept. */
	CHECK_INT(ask(w->pm, w->port, "GET", "/pkg", full_plain, r), CURLE_OK);
	CHECK_INT(r->status, 200);
	CHECK_STR(r->body.ptr, "full:/pkg");
	CHECK(!reply_header(r, "Content-Encoding"));
	CHECK_INT(backend_seen(&w->backend, &s), 3);
	CHECK_STR(s.path, "/pkg");
	CHECK_STR(s.host, HOST);
	CHECK_STR(s.accept, "application/json");
	CHECK_STR(s.encoding, "");
	CHECK_COUNTS(w, 1, 0, 0, 0, 1, strlen("full:/pkg"));
	CHECK_INT(ask(w->pm, w->port, "GET", "/pkg", full_plain, r), CURLE_OK);
	CHECK_INT(r->status, 200);
	CHECK_STR(r->body.ptr, "full:/pkg");
	CHECK_INT(backend_seen(&w->backend, NULL), 3);
	CHECK_COUNTS(w, 1, 0, 0, 0, 0, strlen("full:/pkg"));
	/* And the gzip corgi is still the corgi. */
	CHECK_INT(ask(w->pm, w->port, "GET", "/pkg", corgi_gzip, r), CURLE_OK);
	CHECK_STR(r->body.ptr, "corgi:/pkg");
	CHECK_COUNTS(w, 1, 0, 0, 0, 0, strlen("corgi:/pkg"));

	/*
	 * The kind and the encoding each make an answer of its own: the
	 * full document gzipped, the corgi plain, each a fallback once.
	 */
	CHECK_INT(ask(w->pm, w->port, "GET", "/pkg", full_gzip, r), CURLE_OK);
	CHECK_INT(r->status, 200);
	CHECK_STR(r->body.ptr, "full:/pkg");
	CHECK_STR(reply_header(r, "Content-Encoding"), "gzip");
	CHECK_INT(backend_seen(&w->backend, &s), 4);
	CHECK_STR(s.accept, "application/json");
	CHECK_STR(s.encoding, "gzip");
	CHECK_COUNTS(w, 1, 0, 0, 0, 1, strlen("full:/pkg"));
	CHECK_INT(ask(w->pm, w->port, "GET", "/pkg", corgi_plain, r), CURLE_OK);
	CHECK_INT(r->status, 200);
	CHECK_STR(r->body.ptr, "corgi:/pkg");
	CHECK(!reply_header(r, "Content-Encoding"));
	CHECK_INT(backend_seen(&w->backend, &s), 5);
	CHECK_CONTAINS(s.accept, CORGI_TYPE);
	CHECK_STR(s.encoding, "");
	CHECK_COUNTS(w, 1, 0, 0, 0, 1, strlen("corgi:/pkg"));
	CHECK_INT(ask(w->pm, w->port, "GET", "/pkg", full_gzip, r), CURLE_OK);
	CHECK_STR(r->body.ptr, "full:/pkg");
	CHECK_INT(ask(w->pm, w->port, "GET", "/pkg", corgi_plain, r), CURLE_OK);
	CHECK_STR(r->body.ptr, "corgi:/pkg");
	CHECK_INT(backend_seen(&w->backend, NULL), 5);
	CHECK_COUNTS(w, 2, 0, 0, 0, 0,
		     strlen("full:/pkg") + strlen("corgi:/pkg"));

	/* 4. A tarball counts as one. */
	CHECK_INT(ask(w->pm, w->port, "GET", TARBALL, NULL, r), CURLE_OK);
	CHECK_INT(r->status, 200);
	CHECK_STR(r->body.ptr, "tgz:" TARBALL);
	CHECK_STR(reply_header(r, "Content-Type"), "application/octet-stream");
	CHECK_INT(backend_seen(&w->backend, &s), 6);
	CHECK_STR(s.path, TARBALL);
	CHECK_COUNTS(w, 0, 1, 0, 0, 1, strlen("tgz:" TARBALL));
	CHECK_INT(ask(w->pm, w->port, "GET", TARBALL, NULL, r), CURLE_OK);
	CHECK_STR(r->body.ptr, "tgz:" TARBALL);
	CHECK_INT(backend_seen(&w->backend, NULL), 6);
	CHECK_COUNTS(w, 0, 1, 0, 0, 0, strlen("tgz:" TARBALL));

	/* 5. If-None-Match: 304 without a body when it names the ETag. */
	CHECK_INT(ask(w->pm, w->port, "GET", "/pkg", fresh, r), CURLE_OK);
	CHECK_INT(r->status, 304);
	CHECK_INT(r->body.len, 0);
	CHECK_STR(reply_header(r, "ETag"), "\"e1\"");
	CHECK_COUNTS(w, 1, 0, 0, 0, 0, 0);
	CHECK_INT(ask(w->pm, w->port, "GET", "/pkg", stale, r), CURLE_OK);
	CHECK_INT(r->status, 200);
	CHECK_STR(r->body.ptr, "corgi:/pkg");
	CHECK_INT(backend_seen(&w->backend, NULL), 6);
	CHECK_COUNTS(w, 1, 0, 0, 0, 0, strlen("corgi:/pkg"));

	/* 6. A 404 passed through, counted, and not kept. */
	CHECK_INT(ask(w->pm, w->port, "GET", "/missing", full_plain, r),
		  CURLE_OK);
	CHECK_INT(r->status, 404);
	CHECK_STR(r->body.ptr, MISSING_BODY);
	CHECK_INT(backend_seen(&w->backend, &s), 7);
	CHECK_STR(s.path, "/missing");
	CHECK_COUNTS(w, 1, 0, 0, 1, 1, strlen(MISSING_BODY));
	CHECK_INT(ask(w->pm, w->port, "GET", "/missing", full_plain, r),
		  CURLE_OK);
	CHECK_INT(r->status, 404);
	CHECK_STR(r->body.ptr, MISSING_BODY);
	CHECK_INT(backend_seen(&w->backend, NULL), 8);
	CHECK_COUNTS(w, 1, 0, 0, 1, 1, strlen(MISSING_BODY));
	/* A 404 the preload kept: from memory, no failure of the mirror. */
	CHECK_INT(ask(w->pm, w->port, "GET", "/missing-kept", full_plain, r),
		  CURLE_OK);
	CHECK_INT(r->status, 404);
	CHECK_STR(r->body.ptr, MISSING_BODY);
	CHECK_INT(backend_seen(&w->backend, NULL), 8);
	CHECK_COUNTS(w, 1, 0, 0, 0, 0, strlen(MISSING_BODY));

	/* 7. Only GET and HEAD; the backend not asked. */
	CHECK_INT(ask(w->pm, w->port, "POST", "/pkg", full_plain, r), CURLE_OK);
	CHECK_INT(r->status, 405);
	CHECK_INT(ask(w->pm, w->port, "DELETE", "/pkg", full_plain, r),
		  CURLE_OK);
	CHECK_INT(r->status, 405);
	CHECK_INT(backend_seen(&w->backend, NULL), 8);
	CHECK_COUNTS(w, 0, 0, 2, 2, 0, 0);

	/* 9. HEAD: the length of the body, not the body. */
	CHECK_INT(ask(w->pm, w->port, "HEAD", "/pkg", corgi_gzip, r), CURLE_OK);
	CHECK_INT(r->status, 200);
	CHECK_INT(r->body.len, 0);
	CHECK_STR(reply_header(r, "Content-Length"), "10");
	CHECK_STR(reply_header(r, "Content-Encoding"), "gzip");
	CHECK_INT(backend_seen(&w->backend, NULL), 8);
	CHECK_COUNTS(w, 1, 0, 0, 0, 0, 0);
	/* The connection survives a HEAD: the next answer is whole. */
	CHECK_INT(ask(w->pm, w->port, "GET", "/pkg", corgi_gzip, r), CURLE_OK);
	CHECK_INT(r->status, 200);
	CHECK_STR(r->body.ptr, "corgi:/pkg");
	CHECK_INT(r->connects, 0);
	CHECK_COUNTS(w, 1, 0, 0, 0, 0, strlen("corgi:/pkg"));
	w->passed = 1;
}

/*
 * The counts and the request log since the last take. A request is
 * logged once its answer is out, which the client may see a moment
 * before the front notes it: wait up to 2 s for `want` of them.
 */
static void take_log(struct pmbench_mirror *m, struct pmbench_mirror_counts *c,
		     struct pmbench_mirror_log *log, size_t want)
{
	struct pmbench_mirror_log more = PMBENCH_MIRROR_LOG_INIT;
	struct pmbench_mirror_counts none;

	pmbench_mirror_take(m, c, log);
	for (int i = 0; i < 200 && log->nr < want; i++) {
		pmbench_sleep_ns(10000000);
		pmbench_mirror_take(m, &none, &more);
		for (size_t k = 0; k < more.nr; k++) {
			PMBENCH_ALLOC_GROW(log->v, log->nr + 1, log->alloc);
			log->v[log->nr++] = more.v[k];
		}
	}
	pmbench_mirror_log_release(&more);
}

/*
 * 8a. The request log, taken with the counts: each request in the order
 * answered, with its kind, status, body bytes and times within the
 * asking; a second take finds it empty.
 */
static void request_log(struct world *w)
{
	struct pmbench_mirror_log log = PMBENCH_MIRROR_LOG_INIT;
	struct pmbench_mirror_counts c;
	struct reply *r = &w->r;
	uint64_t t0, t1, prev = 0;
	const char kinds[] = "cftc";
	const size_t bytes[] = { strlen("corgi:/pkg"), strlen("full:/pkg"),
				 strlen("tgz:" TARBALL), 0 };

	/* The last answer of the step before may be noted only now. */
	pmbench_sleep_ns(50000000);
	pmbench_mirror_take(w->m, &c, NULL);
	t0 = pmbench_now_ns();

	CHECK_INT(ask(w->pm, w->port, "GET", "/pkg", corgi_gzip, r), CURLE_OK);
	CHECK_INT(ask(w->pm, w->port, "GET", "/pkg", full_plain, r), CURLE_OK);
	CHECK_INT(ask(w->pm, w->port, "GET", TARBALL, NULL, r), CURLE_OK);
	CHECK_INT(ask(w->pm, w->port, "HEAD", "/pkg", corgi_gzip, r), CURLE_OK);
	take_log(w->m, &c, &log, 4);
	t1 = pmbench_now_ns();
	CHECK_INT(c.meta_requests, 3);
	CHECK_INT(c.tarball_requests, 1);
	CHECK_INT(log.nr, 4);
	CHECK_INT(log.dropped, 0);
	for (size_t i = 0; i < log.nr; i++) {
		const struct pmbench_mirror_request *q = &log.v[i];

		CHECK_INT(q->kind, kinds[i]);
		CHECK_INT(q->status, 200);
		CHECK_INT(q->bytes, bytes[i]);
		CHECK_INT(q->fallback, 0);
		CHECK(q->start_ns >= t0 && q->start_ns >= prev);
		CHECK(q->end_ns >= q->start_ns && q->end_ns <= t1);
		prev = q->start_ns;
	}
	pmbench_mirror_take(w->m, &c, &log);
	CHECK_INT(log.nr, 0);
	CHECK_INT(c.meta_requests, 0);
	pmbench_mirror_log_release(&log);
	w->passed = 1;
}

/* 8. Keep-alive: 50 answers over one connection. */
static void keep_alive(struct world *w)
{
	CURL *easy = curl_easy_init();
	struct reply *r = &w->r;
	long connects = 0;
	int i;

	CHECK(easy);
	for (i = 0; i < 50; i++) {
		if (ask(easy, w->port, "GET", "/pkg", corgi_gzip, r) ||
		    r->status != 200 || strcmp(r->body.ptr, "corgi:/pkg"))
			break;
		connects += r->connects;
	}
	curl_easy_cleanup(easy);
	CHECK_INT(i, 50);
	CHECK_INT(connects, 1);
	CHECK_INT(backend_seen(&w->backend, NULL), 8);
	CHECK_COUNTS(w, 50, 0, 0, 0, 0, 50 * strlen("corgi:/pkg"));
	w->passed = 1;
}

/*
 * Answers larger than the socket takes at once, from the backend and
 * from memory; and two requests sent in one write (pipelined), answered
 * in order.
 */
/*
 * Send `text` to the front on `port` over a socket of its own (its
 * sending side shut after, with `shut`) and read until it closes, into
 * `got`. Returns whether all of `text` went out.
 */
static int raw_exchange(int port, const char *text, int shut,
			struct pmbench_buf *got)
{
	struct sockaddr_in a;
	struct timeval tv = { 10, 0 };
	char chunk[4096];
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), sent;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	sent = fd >= 0 && !connect(fd, (struct sockaddr *)&a, sizeof(a)) &&
	       send(fd, text, strlen(text), MSG_NOSIGNAL) ==
		       (ssize_t)strlen(text) &&
	       (!shut || !shutdown(fd, SHUT_WR));
	for (ssize_t n; sent && (n = recv(fd, chunk, sizeof(chunk), 0)) > 0;)
		pmbench_buf_add(got, chunk, (size_t)n);
	if (fd >= 0)
		close(fd);
	return sent;
}

static void big_and_pipelined(struct world *w)
{
	struct reply *r = &w->r;
	struct pmbench_buf got = PMBENCH_BUF_INIT;
	const char *two = "GET /pkg HTTP/1.1\r\nHost: x\r\nAccept: " CORGI
			  "\r\nAccept-Encoding: gzip\r\n\r\n"
			  "GET /pkg HTTP/1.1\r\nHost: x\r\nAccept: "
			  "application/json\r\nConnection: close\r\n\r\n";
	const char *second;
	int sent;

	for (int i = 0; i < 2; i++) {
		CHECK_INT(ask(w->pm, w->port, "GET", BIG, NULL, r), CURLE_OK);
		CHECK_INT(r->status, 200);
		CHECK(is_big(&r->body));
		CHECK_COUNTS(w, 0, 1, 0, 0, !i, BIG_LEN);
	}
	CHECK_INT(backend_seen(&w->backend, NULL), 9);

	sent = raw_exchange(w->port, two, 0, &got);
	second = got.len ? strstr(got.ptr, "corgi:/pkg") : NULL;
	second = second ? strstr(second, "HTTP/1.1 200 ") : NULL;
	if (!sent || !second || !strstr(got.ptr, "Connection: keep-alive") ||
	    !strstr(second, "Connection: close") ||
	    !ends_with(second, "\r\n\r\nfull:/pkg")) {
		check_fail(__FILE__, __LINE__,
			   "two pipelined answers, got \"%s\"",
			   got.len ? got.ptr : "");
		pmbench_buf_release(&got);
		return;
	}
	pmbench_buf_release(&got);
	CHECK_INT(backend_seen(&w->backend, NULL), 9);
	CHECK_COUNTS(w, 2, 0, 0, 0, 0,
		     strlen("corgi:/pkg") + strlen("full:/pkg"));
	w->passed = 1;
}

static void *ask_slow(void *arg)
{
	struct world *w = arg;
	struct reply r = { 0, 0, PMBENCH_BUF_INIT, PMBENCH_BUF_INIT };
	CURL *easy = curl_easy_init();

	if (easy && ask(easy, w->port, "GET", "/slow", full_plain, &r) == 0)
		w->slow_status = r.status;
	if (easy)
		curl_easy_cleanup(easy);
	pmbench_buf_release(&r.head);
	pmbench_buf_release(&r.body);
	return NULL;
}

/*
 * A request whose end of input comes with it (the client shut its side
 * at once, as `nc -N` does) is answered, then closed. The front is kept
 * busy meanwhile by a slow fallback, so that the request and the end of
 * input both wait for it when it reads.
 */
static void half_closed(struct world *w)
{
	const char *req = "GET /pkg HTTP/1.1\r\nHost: x\r\nAccept: " CORGI
			  "\r\nAccept-Encoding: gzip\r\n\r\n";
	struct pmbench_buf got = PMBENCH_BUF_INIT;
	pthread_t slow;
	int sent;

	CHECK(!pthread_create(&slow, NULL, ask_slow, w));
	/* The fallback has reached the backend: the front is busy. */
	for (int i = 0; i < 500 && backend_seen(&w->backend, NULL) < 10; i++)
		pmbench_sleep_ns(1000000);
	sent = raw_exchange(w->port, req, 1, &got);
	pthread_join(slow, NULL);
	CHECK_INT(w->slow_status, 200);
	if (!sent || !got.len || !ends_with(got.ptr, "\r\n\r\ncorgi:/pkg")) {
		check_fail(__FILE__, __LINE__,
			   "a half-closed request unanswered, got \"%s\"",
			   got.len ? got.ptr : "");
		pmbench_buf_release(&got);
		return;
	}
	pmbench_buf_release(&got);
	CHECK_COUNTS(w, 2, 0, 0, 0, 1,
		     strlen("full:/slow") + strlen("corgi:/pkg"));
	w->passed = 1;
}

/* ---- limits and attribution (issue 24) ---------------------------------- */

/*
 * Send `len` bytes of `data` (NULs allowed) over a connection of its
 * own, then read until the front closes it or 5 s pass, into `got`.
 * Returns 1 if the front closed it.
 */
static int raw_send(int port, const char *data, size_t len,
		    struct pmbench_buf *got)
{
	struct sockaddr_in a;
	struct timeval tv = { 5, 0 };
	char chunk[4096];
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), closed = 0;
	ssize_t n;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0)
		return 0;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (!connect(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    send(fd, data, len, MSG_NOSIGNAL) == (ssize_t)len) {
		while ((n = recv(fd, chunk, sizeof(chunk), 0)) > 0)
			pmbench_buf_add(got, chunk, (size_t)n);
		closed = n == 0;
	}
	close(fd);
	return closed;
}

/* A connected socket to 127.0.0.1:`port`, or -1. */
static int dial(int port)
{
	struct sockaddr_in a;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

#define PKG_REQUEST                                      \
	"GET /pkg HTTP/1.1\r\nHost: x\r\nAccept: " CORGI \
	"\r\nAccept-Encoding: gzip\r\n\r\n"
#define OK_LINE "HTTP/1.1 200 "

/*
 * `n` (at most 16) requests for the kept corgi, sent at once on one
 * connection, then the end of input; returns how many were answered
 * 200. No allocation: a forked child of this threaded test calls it.
 */
static int plain_requests(int port, int n)
{
	char text[16 * sizeof(PKG_REQUEST)], chunk[4096];
	size_t len = 0, match = 0;
	int fd = dial(port), ok = 0;
	ssize_t got;

	if (fd < 0)
		return -1;
	for (int i = 0; i < n && i < 16; i++) {
		memcpy(text + len, PKG_REQUEST, sizeof(PKG_REQUEST) - 1);
		len += sizeof(PKG_REQUEST) - 1;
	}
	if (send(fd, text, len, MSG_NOSIGNAL) != (ssize_t)len ||
	    shutdown(fd, SHUT_WR) < 0) {
		close(fd);
		return -1;
	}
	while ((got = recv(fd, chunk, sizeof(chunk), 0)) > 0) {
		for (ssize_t i = 0; i < got; i++) {
			match = chunk[i] == OK_LINE[match] ? match + 1
				: chunk[i] == OK_LINE[0]   ? 1
							   : 0;
			if (match == sizeof(OK_LINE) - 1) {
				ok++;
				match = 0;
			}
		}
	}
	close(fd);
	return ok;
}

/*
 * 20,000 requests pipelined on one connection, sent while the answers
 * are read, as a client that pipelines does: every one is answered (the
 * front used to drop what came beyond 256 KiB of input: 9,143 of 20,000
 * answered).
 */
static void pipelined(struct world *w)
{
	const size_t n = 20000, len = sizeof(PKG_REQUEST) - 1;
	size_t sent = 0, off = 0, answered = 0, match = 0;
	uint64_t until = pmbench_now_ns() + 60ull * 1000000000ull;
	char chunk[65536];
	int fd = dial(w->port);

	CHECK(fd >= 0);
	while (answered < n && pmbench_now_ns() < until) {
		struct pollfd p = { fd, POLLIN | (sent < n ? POLLOUT : 0), 0 };
		ssize_t got;

		if (poll(&p, 1, 1000) <= 0)
			continue;
		if ((p.revents & POLLOUT) && sent < n) {
			ssize_t k = send(fd, &PKG_REQUEST[off], len - off,
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
			match = chunk[i] == OK_LINE[match] ? match + 1
				: chunk[i] == OK_LINE[0]   ? 1
							   : 0;
			if (match == sizeof(OK_LINE) - 1) {
				answered++;
				match = 0;
			}
		}
	}
	close(fd);
	CHECK_INT(sent, n);
	CHECK_INT(answered, n);
	CHECK_COUNTS(w, n, 0, 0, 0, 0, n * strlen("corgi:/pkg"));
	w->passed = 1;
}

#define T(s)                     \
	{                        \
		s, sizeof(s) - 1 \
	}

/*
 * Heads that are not HTTP/1.x, or whose target is not a plain path, get
 * 400 and a close without reaching the backend (they used to go
 * unanswered, NULs, or upstream: "GET / HTTP/1." and "/../../etc/passwd"
 * were forwarded); a head over 64 KiB gets 431.
 */
static void bad_heads(struct world *w)
{
	static const struct {
		const char *text;
		size_t len;
	} bad[] = {
		T("GET /pkg HTTP/1.1\r\nHost: x\0y\r\n\r\n"),
		T("GET /pk\0g HTTP/1.1\r\n\r\n"),
		T("\0\0\0\0\r\n\r\n"),
		T("GET / HTTP/1.\r\n\r\n"),
		T("GET /pkg HTTP/2.0\r\n\r\n"),
		T("GET /pkg HTTP/1.1 x\r\n\r\n"),
		T("G@T /pkg HTTP/1.1\r\n\r\n"),
		T("GET /../../etc/passwd HTTP/1.1\r\n\r\n"),
		T("GET /%2e%2e/etc/passwd HTTP/1.1\r\n\r\n"),
		T("GET /@s%2f..%2F..%2fetc HTTP/1.1\r\n\r\n"),
		T("GET /pkg/. HTTP/1.1\r\n\r\n"),
		T("GET /pkg/.%2E HTTP/1.1\r\n\r\n"),
		T("GET /pkg%00 HTTP/1.1\r\n\r\n"),
		T("GET /pkg%zz HTTP/1.1\r\n\r\n"),
		T("GET /pk\\g HTTP/1.1\r\n\r\n"),
		T("GET /pkg#x HTTP/1.1\r\n\r\n"),
		T("GET http://127.0.0.1/pkg HTTP/1.1\r\n\r\n"),
		T("GET * HTTP/1.1\r\n\r\n"),
		T("GET /pkg HTTP/1.1\r\nAccept: a\nX-Evil: 1\r\n\r\n"),
		T("GET /pkg HTTP/1.1\r\nAccept: a\rX-Evil: 1\r\n\r\n"),
		T("GET /pkg HTTP/1.1\r\n Accept: folded\r\n\r\n"),
		T("GET /pkg HTTP/1.1\r\nno colon\r\n\r\n"),
	};
	struct pmbench_buf got = PMBENCH_BUF_INIT, big = PMBENCH_BUF_INIT;
	struct reply *r = &w->r;
	unsigned seen = backend_seen(&w->backend, NULL);
	int closed;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(bad); i++) {
		pmbench_buf_reset(&got);
		closed = raw_send(w->port, bad[i].text, bad[i].len, &got);
		if (!closed || strncmp(got.ptr, "HTTP/1.1 400 ", 13)) {
			check_fail(__FILE__, __LINE__,
				   "bad head %zu: %s, got \"%.40s\"", i,
				   closed ? "closed" : "left open", got.ptr);
			pmbench_buf_release(&got);
			return;
		}
	}
	CHECK_INT(backend_seen(&w->backend, NULL), seen);
	CHECK_COUNTS(w, 0, 0, PMBENCH_ARRAY_SIZE(bad), PMBENCH_ARRAY_SIZE(bad),
		     0, 0);

	/* No end of the head in 64 KiB: 431, closed, nothing read on. */
	pmbench_buf_adds(&big, "GET /pkg HTTP/1.1\r\nX-Big: ");
	for (int i = 0; i < 70000; i++)
		pmbench_buf_addch(&big, 'a');
	pmbench_buf_reset(&got);
	closed = raw_send(w->port, big.ptr, big.len, &got);
	pmbench_buf_release(&big);
	CHECK(closed);
	CHECK(!strncmp(got.ptr, "HTTP/1.1 431 ", 13));
	pmbench_buf_release(&got);
	CHECK_COUNTS(w, 0, 0, 1, 1, 0, 0);

	/* A scoped name's encoded slash is a path, not a climb. */
	CHECK_INT(ask(w->pm, w->port, "GET", "/@scope%2fpkg?x=1", full_plain,
		      r),
		  CURLE_OK);
	CHECK_INT(r->status, 200);
	CHECK_STR(r->body.ptr, "full:/@scope%2fpkg?x=1");
	CHECK_INT(backend_seen(&w->backend, NULL), seen + 1);
	CHECK_COUNTS(w, 1, 0, 0, 0, 1, strlen("full:/@scope%2fpkg?x=1"));
	w->passed = 1;
}
#undef T

/*
 * Whose requests (fault 4): this process's and its child's are counted;
 * an orphan's (reparented away from this process's tree, as any other
 * program) are counted only as foreign requests.
 */
static void foreign(struct world *w)
{
	struct pmbench_mirror_log log = PMBENCH_MIRROR_LOG_INIT;
	struct pmbench_mirror_counts c;
	pid_t kid;
	int p[2], status = -1, ok = -1;

	/* The last answers of the step before may be logged only now. */
	pmbench_sleep_ns(50000000);
	pmbench_mirror_take(w->m, &c, &log);
	CHECK_INT(c.meta_requests + c.other_requests, 0);
	CHECK_INT(plain_requests(w->port, 3), 3);
	kid = fork();
	if (kid == 0)
		_exit(plain_requests(w->port, 4) == 4 ? 0 : 1);
	CHECK(kid > 0);
	CHECK_INT(waitpid(kid, &status, 0), kid);
	CHECK_INT(status, 0);
	CHECK_INT(pipe(p), 0);
	kid = fork();
	if (kid == 0) {
		pid_t mid = getpid();

		if (fork() != 0)
			_exit(0);
		/* The middle one is gone: this one left the tree. */
		while (getppid() == mid)
			pmbench_sleep_ns(1000000);
		ok = plain_requests(w->port, 5);
		if (write(p[1], &ok, sizeof(ok)) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	CHECK(kid > 0);
	CHECK_INT(waitpid(kid, &status, 0), kid);
	CHECK_INT(read(p[0], &ok, sizeof(ok)), sizeof(ok));
	/*
	 * Its end of the pipe closes when it exits, with its copy of our
	 * listening socket: then the front's port can be seen to refuse.
	 */
	CHECK_INT(read(p[0], &status, sizeof(status)), 0);
	close(p[0]);
	CHECK_INT(ok, 5);
	take_log(w->m, &c, &log, 7);
	/* Only this process's tree's requests are logged. */
	CHECK_INT(log.nr, 7);
	pmbench_mirror_log_release(&log);
	CHECK_INT(c.meta_requests, 7);
	CHECK_INT(c.bytes, 7 * strlen("corgi:/pkg"));
	CHECK_INT(c.foreign_requests, 5);
	CHECK_INT(c.foreign_connections, 1);
	CHECK_INT(c.unattributed_connections, 0);
	w->passed = 1;
}

/* 10. Halted: the port refuses; halting again is harmless. */
static void halt(struct world *w)
{
	uint64_t bytes = 0;

	CHECK(can_connect(w->port));
	pmbench_mirror_halt(w->m);
	CHECK(!can_connect(w->port));
	pmbench_mirror_halt(w->m);
	/* Kept: both corgis, four full documents, the two tarballs, a 404. */
	CHECK_INT(pmbench_mirror_kept(w->m, &bytes), 9);
	CHECK_INT(bytes, 2 * strlen("corgi:/pkg") + 2 * strlen("full:/pkg") +
				 strlen(MISSING_BODY) + strlen("full:/slow") +
				 strlen("full:/@scope%2fpkg?x=1") +
				 strlen("tgz:" TARBALL) + BIG_LEN);
}

TEST(front)
{
	struct world w;

	memset(&w, 0, sizeof(w));
	pmbench_buf_init(&w.r.head);
	pmbench_buf_init(&w.r.body);
	CHECK_INT(curl_global_init(CURL_GLOBAL_DEFAULT), CURLE_OK);
	if (backend_start(&w.backend) < 0) {
		check_fail(__FILE__, __LINE__, "backend_start: %s",
			   strerror(errno));
		if (w.backend.fd >= 0)
			close(w.backend.fd);
		curl_global_cleanup();
		return;
	}
	w.pm = curl_easy_init();
	/* Each step on from where the one before got to its end. */
	if (w.pm)
		preload(&w);
	if (w.passed && !(w.passed = 0))
		serve(&w);
	if (w.passed && !(w.passed = 0))
		request_log(&w);
	if (w.passed && !(w.passed = 0))
		keep_alive(&w);
	if (w.passed && !(w.passed = 0))
		big_and_pipelined(&w);
	if (w.passed && !(w.passed = 0))
		half_closed(&w);
	if (w.passed && !(w.passed = 0))
		pipelined(&w);
	if (w.passed && !(w.passed = 0))
		bad_heads(&w);
	if (w.passed && !(w.passed = 0))
		foreign(&w);
	if (w.passed)
		halt(&w);
	/* Whatever failed, leave nothing behind (LSan is watching). */
	pmbench_mirror_free(w.m);
	if (w.pm)
		curl_easy_cleanup(w.pm);
	backend_stop(&w.backend);
	pmbench_buf_release(&w.r.head);
	pmbench_buf_release(&w.r.body);
	curl_global_cleanup();
	CHECK(w.pm);
}

/*
 * The size of the file without a name that this process holds open in
 * `dir` (the front's store), or -1 when it holds none.
 */
static long long nameless_in(const char *dir)
{
	char fd_path[64], target[4200];
	long long size = -1;
	struct stat st;

	for (int fd = 3; fd < 1024; fd++) {
		ssize_t n;

		snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", fd);
		n = readlink(fd_path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (!strncmp(target, dir, strlen(dir)) &&
		    target[strlen(dir)] == '/' && strstr(target, "(deleted)") &&
		    !fstat(fd, &st))
			size = (long long)st.st_size;
	}
	return size;
}

/*
 * The bodies are kept in a file without a name in the store folder, not
 * in memory, and served from it byte for byte; nothing is left in the
 * folder, and the file is gone with the front.
 */
TEST(bodies_in_a_file)
{
	struct backend b;
	struct pmbench_mirror *m = NULL;
	struct reply r;
	const char *dir = check_sandbox();
	uint64_t bytes = 0;
	CURL *pm = NULL;
	int port = free_port(), rc = -1, kept = -1;
	long long size = -1;
	DIR *d;
	struct dirent *de;
	int entries = 0;

	memset(&r, 0, sizeof(r));
	pmbench_buf_init(&r.head);
	pmbench_buf_init(&r.body);
	CHECK_INT(curl_global_init(CURL_GLOBAL_DEFAULT), CURLE_OK);
	if (backend_start(&b) == 0) {
		m = pmbench_mirror_new(b.port, HOST);
		pmbench_mirror_set_store(m, dir);
		kept = pmbench_mirror_preload(m, BIG, "*/*", 0);
		CHECK_INT(pmbench_mirror_preload(m, "/pkg", CORGI, 1), 1);
		size = nameless_in(dir);
		pmbench_mirror_kept(m, &bytes);
		pm = curl_easy_init();
		rc = pmbench_mirror_serve(m, port);
		if (!rc && pm)
			rc = ask(pm, port, "GET", BIG, NULL, &r);
		pmbench_mirror_free(m);
		backend_stop(&b);
	}
	if (pm)
		curl_easy_cleanup(pm);
	curl_global_cleanup();
	CHECK_INT(kept, 1);
	CHECK_INT(rc, 0);
	CHECK_INT(r.status, 200);
	CHECK(is_big(&r.body));
	pmbench_buf_release(&r.head);
	pmbench_buf_release(&r.body);
	/* Both bodies, one after the other, in the one file. */
	CHECK(bytes == BIG_LEN + strlen("corgi:/pkg"));
	CHECK(size == (long long)bytes);
	CHECK(nameless_in(dir) < 0);
	d = opendir(dir);
	CHECK(d);
	while ((de = readdir(d)))
		entries += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	CHECK_INT(entries, 0);
}

/* The backend gone while serving: 502, counted as a failed fallback. */
TEST(backend_gone)
{
	struct pmbench_mirror *m;
	struct pmbench_mirror_counts c;
	struct reply r;
	char body[256];
	CURL *pm;
	int dead = free_port(), port = free_port(), rc;

	/*
	 * The kernel may hand out a port just closed again: two in a row
	 * were the same once in a fresh rehearsal (2026-12-06, 55).
	 */
	for (int i = 0; i < 20 && port == dead; i++)
		port = free_port();
	CHECK(dead > 0 && port > 0 && dead != port);
	CHECK_INT(curl_global_init(CURL_GLOBAL_DEFAULT), CURLE_OK);
	memset(&r, 0, sizeof(r));
	pmbench_buf_init(&r.head);
	pmbench_buf_init(&r.body);
	m = pmbench_mirror_new(dead, HOST);
	pm = curl_easy_init();
	rc = pmbench_mirror_serve(m, port);
	if (!rc && pm)
		rc = ask(pm, port, "GET", "/pkg", corgi_gzip, &r);
	pmbench_mirror_take_counts(m, &c);
	pmbench_mirror_free(m);
	if (pm)
		curl_easy_cleanup(pm);
	curl_global_cleanup();
	snprintf(body, sizeof(body), "%s", r.body.ptr);
	pmbench_buf_release(&r.head);
	pmbench_buf_release(&r.body);
	CHECK(pm);
	CHECK_INT(rc, 0);
	CHECK_INT(r.status, 502);
	CHECK_CONTAINS(body, "did not answer");
	CHECK_INT(c.meta_requests, 1);
	CHECK_INT(c.failed, 1);
	CHECK_INT(c.fallbacks, 1);
	CHECK_INT(c.bytes, 0);
}

/*
 * The upstream's caching headers: read with HEAD from the upstream (here
 * the backend, which sends them for "/cc..." paths), then sent with
 * every answer of that kind; none when the upstream sends none.
 */
TEST(caching_headers)
{
	struct backend b;
	struct pmbench_mirror *m = NULL, *plain = NULL;
	struct pmbench_buf said = PMBENCH_BUF_INIT, none = PMBENCH_BUF_INIT;
	struct pmbench_buf up = PMBENCH_BUF_INIT;
	struct reply r;
	char meta_cc[128] = "", tgz_cc[128] = "", plain_cc[128] = "";
	const char *v;
	CURL *pm = NULL;
	int port = free_port(), rc = -1, started;

	memset(&b, 0, sizeof(b));
	memset(&r, 0, sizeof(r));
	pmbench_buf_init(&r.head);
	pmbench_buf_init(&r.body);
	CHECK_INT(curl_global_init(CURL_GLOBAL_DEFAULT), CURLE_OK);
	started = backend_start(&b) == 0;
	if (started) {
		pmbench_buf_addf(&up, "http://127.0.0.1:%d/", b.port);
		m = pmbench_mirror_new(b.port, HOST);
		pmbench_mirror_imitate(m, up.ptr, "/cc-pkg",
				       "/cc/-/cc-1.0.0.tgz", &said);
		plain = pmbench_mirror_new(b.port, HOST);
		pmbench_mirror_imitate(plain, up.ptr, "/pkg", TARBALL, &none);
		pm = curl_easy_init();
		rc = pmbench_mirror_serve(m, port);
	}
	if (!rc && pm && !ask(pm, port, "GET", "/pkg", corgi_gzip, &r) &&
	    (v = reply_header(&r, "Cache-Control")))
		snprintf(meta_cc, sizeof(meta_cc), "%s", v);
	if (!rc && pm && !ask(pm, port, "GET", TARBALL, NULL, &r) &&
	    (v = reply_header(&r, "Cache-Control")))
		snprintf(tgz_cc, sizeof(tgz_cc), "%s", v);
	pmbench_mirror_halt(m);
	if (!rc && plain && !pmbench_mirror_serve(plain, port) &&
	    !ask(pm, port, "GET", "/pkg", corgi_gzip, &r) &&
	    (v = reply_header(&r, "Cache-Control")))
		snprintf(plain_cc, sizeof(plain_cc), "%s", v);
	pmbench_mirror_free(m);
	pmbench_mirror_free(plain);
	if (pm)
		curl_easy_cleanup(pm);
	if (started)
		backend_stop(&b);
	curl_global_cleanup();
	CHECK(started);
	CHECK_INT(rc, 0);
	CHECK_STR(meta_cc, CC_META);
	CHECK_STR(tgz_cc, CC_TARBALL);
	CHECK_STR(plain_cc, "");
	CHECK_STR(said.ptr,
		  "packuments: \"" CC_META "\"; tarballs: \"" CC_TARBALL "\"");
	CHECK_STR(none.ptr,
		  "packuments: no Cache-Control; tarballs: no Cache-Control");
	pmbench_buf_release(&said);
	pmbench_buf_release(&none);
	pmbench_buf_release(&up);
	pmbench_buf_release(&r.head);
	pmbench_buf_release(&r.body);
}

/* A front on a free port before `b`, with the corgi of "/pkg" kept. */
static struct pmbench_mirror *front_on(struct backend *b, int *port,
				       const struct pmbench_mirror_limits *l)
{
	struct pmbench_mirror *m = pmbench_mirror_new(b->port, HOST);

	if (l)
		pmbench_mirror_set_limits(m, l);
	*port = free_port();
	if (pmbench_mirror_preload(m, "/pkg", CORGI, 1) != 1 ||
	    pmbench_mirror_serve(m, *port) < 0) {
		pmbench_mirror_free(m);
		return NULL;
	}
	return m;
}

/*
 * At most an eighth of the descriptor limit of connections (issue 24:
 * 1,100 idle connections under `ulimit -n 1024` left pmbench none of its
 * own): under a limit of 256, 100 idle connections and then a request;
 * the request is answered, and the front keeps 32 connections, closing
 * the idle ones longest idle to make room.
 */
TEST(connection_cap)
{
	struct rlimit old, low;
	struct backend b;
	struct pmbench_mirror *m = NULL;
	struct pmbench_mirror_counts c;
	int fds[100], port = 0, closed = 0, answered = -1, first_closed = 0;

	CHECK_INT(getrlimit(RLIMIT_NOFILE, &old), 0);
	low = old;
	low.rlim_cur = 256;
	CHECK(old.rlim_cur == RLIM_INFINITY || old.rlim_cur >= 256);
	CHECK_INT(backend_start(&b), 0);
	CHECK_INT(setrlimit(RLIMIT_NOFILE, &low), 0);
	m = front_on(&b, &port, NULL);
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(fds); i++)
		fds[i] = m ? dial(port) : -1;
	if (m)
		answered = plain_requests(port, 1);
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(fds); i++) {
		char ch;
		int gone = fds[i] >= 0 &&
			   recv(fds[i], &ch, 1, MSG_DONTWAIT) == 0;

		closed += gone;
		first_closed += gone && i < 69;
		if (fds[i] >= 0)
			close(fds[i]);
	}
	if (m)
		pmbench_mirror_take_counts(m, &c);
	pmbench_mirror_free(m);
	backend_stop(&b);
	setrlimit(RLIMIT_NOFILE, &old);
	CHECK(m);
	CHECK_INT(answered, 1);
	/* 101 connections, 32 kept: the 69 longest idle were closed. */
	CHECK_INT(closed, 69);
	CHECK_INT(first_closed, 69);
	CHECK_INT(c.dropped_connections, 69);
	CHECK_INT(c.meta_requests, 1);
}

/*
 * A head that never ends gets 408 and a close (slowloris); an answer the
 * client takes nothing of is abandoned and counted.
 */
TEST(timeouts)
{
	const struct pmbench_mirror_limits l = { .head_ns = 200000000ull,
						 .stall_ns = 300000000ull };
	const char *slow = "GET /pkg HTTP/1.1\r\nHost: x\r\n";
	const char *take = "GET " BIG " HTTP/1.1\r\nHost: x\r\n\r\n";
	struct pmbench_buf got = PMBENCH_BUF_INIT;
	struct pmbench_mirror_counts c = { 0 };
	struct backend b;
	struct pmbench_mirror *m;
	int port = 0, closed = 0, fd = -1, small = 4096;
	uint64_t t0;

	CHECK_INT(backend_start(&b), 0);
	m = front_on(&b, &port, &l);
	if (m && pmbench_mirror_preload(m, BIG, NULL, 0) != 1)
		pmbench_mirror_halt(m);
	t0 = pmbench_now_ns();
	if (m)
		closed = raw_send(port, slow, strlen(slow), &got);
	t0 = pmbench_now_ns() - t0;
	if (m)
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		struct sockaddr_in a;

		/* A small window: the answer cannot all go out. */
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
		memset(&a, 0, sizeof(a));
		a.sin_family = AF_INET;
		a.sin_port = htons((uint16_t)port);
		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
		    send(fd, take, strlen(take), MSG_NOSIGNAL) < 0)
			close(fd), fd = -1;
	}
	for (int i = 0; i < 300 && m && !c.dropped_connections; i++) {
		struct pmbench_mirror_counts more;

		pmbench_sleep_ns(10000000ull);
		pmbench_mirror_take_counts(m, &more);
		c.dropped_connections += more.dropped_connections;
		c.failed += more.failed;
		c.other_requests += more.other_requests;
		c.tarball_requests += more.tarball_requests;
	}
	if (fd >= 0)
		close(fd);
	pmbench_mirror_free(m);
	backend_stop(&b);
	CHECK(m);
	CHECK(closed);
	CHECK(!strncmp(got.ptr, "HTTP/1.1 408 ", 13));
	pmbench_buf_release(&got);
	/* Not before the limit: the timer runs from the head's first byte. */
	CHECK(t0 >= l.head_ns);
	CHECK_INT(c.failed, 1);
	CHECK_INT(c.other_requests, 1);
	CHECK(fd >= 0);
	CHECK_INT(c.tarball_requests, 1);
	CHECK_INT(c.dropped_connections, 1);
}

TEST(is_tarball)
{
	CHECK(pmbench_mirror_is_tarball("/x/-/x-1.0.0.tgz"));
	CHECK(pmbench_mirror_is_tarball("/@s%2fx/-/x-1.0.0.tgz?a=1"));
	CHECK(pmbench_mirror_is_tarball("/@s/x/-/x-1.0.0.tgz"));
	CHECK(!pmbench_mirror_is_tarball("/x"));
	CHECK(!pmbench_mirror_is_tarball("/x.tgz"));
	CHECK(!pmbench_mirror_is_tarball("/x/-/x-1.0.0.tgz.sig"));
	CHECK(!pmbench_mirror_is_tarball("/-/npm/v1/security/advisories/bulk"));
	CHECK(!pmbench_mirror_is_tarball(""));
}

CHECK_MAIN(CASE(is_tarball), CASE(front), CASE(bodies_in_a_file),
	   CASE(backend_gone), CASE(caching_headers), CASE(connection_cap),
	   CASE(timeouts))
