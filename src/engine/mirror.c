/*
 * The local registry's front (mirror.h): answers from memory what the
 * sealed verdaccio answered, so that the timed runs do not measure
 * verdaccio's CPU. One thread, one poll() loop, non-blocking sockets.
 */
/* accept4() and pipe2(), for sockets and pipes born non-blocking. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "pmbench/common.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <curl/curl.h>

#include "pmbench/buf.h"
#include "pmbench/mirror.h"

#define BUCKETS	     4096
#define MAX_HEAD     65536
#define FETCH_SECS   120L
#define CORGI	     "application/vnd.npm.install-v1+json"
#define FULL_ACCEPT  "application/json"
#define CORGI_ACCEPT CORGI "; q=1.0, application/json; q=0.8, */*"

struct entry {
	char *key;
	int status;
	char *type, *encoding, *etag;
	char *body;
	size_t len;
	struct entry *next;
};

struct conn {
	int fd;
	struct pmbench_buf in;
	struct pmbench_buf out; /* status line and headers */
	size_t out_off;
	const char *body; /* an entry's, never owned */
	size_t body_len, body_off;
	int writing, close_after;
	int eof; /* the client sent all it will: answer, then close */
	const char *cache_control; /* for the answer being made */
};

struct pmbench_mirror {
	int backend_port;
	char *host;
	char *cache_control[2]; /* the upstream's: packuments, tarballs */
	struct entry *table[BUCKETS];
	size_t kept;
	uint64_t kept_bytes;
	CURL *easy;

	pthread_mutex_t lock; /* counts */
	struct pmbench_mirror_counts counts;

	int listen_fd, wake[2], serving;
	pthread_t thread;
	struct conn *conns;
	size_t nconns, conns_alloc;
};

int pmbench_mirror_is_tarball(const char *path)
{
	size_t n = strcspn(path, "?");

	return strstr(path, "/-/") && n > 4 &&
	       !strncmp(path + n - 4, ".tgz", 4);
}

/* The kind of answer a request wants: a tarball, a corgi, a full doc. */
static char kind_of(const char *path, const char *accept)
{
	if (pmbench_mirror_is_tarball(path))
		return 't';
	return accept && strstr(accept, CORGI) ? 'c' : 'f';
}

static void make_key(struct pmbench_buf *out, char kind, int gzip,
		     const char *path)
{
	pmbench_buf_reset(out);
	pmbench_buf_addf(out, "%c%c %s", kind, gzip ? 'g' : 'i', path);
}

static unsigned hash(const char *s)
{
	unsigned h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h % BUCKETS;
}

static struct entry *find(const struct pmbench_mirror *m, const char *key)
{
	for (struct entry *e = m->table[hash(key)]; e; e = e->next)
		if (!strcmp(e->key, key))
			return e;
	return NULL;
}

static void entry_free(struct entry *e)
{
	free(e->key);
	free(e->type);
	free(e->encoding);
	free(e->etag);
	free(e->body);
	free(e);
}

struct pmbench_mirror *pmbench_mirror_new(int backend_port, const char *host)
{
	struct pmbench_mirror *m = pmbench_xcalloc(1, sizeof(*m));

	m->backend_port = backend_port;
	m->host = pmbench_xstrdup(host);
	m->listen_fd = m->wake[0] = m->wake[1] = -1;
	pthread_mutex_init(&m->lock, NULL);
	return m;
}

void pmbench_mirror_set_backend(struct pmbench_mirror *m, int port)
{
	m->backend_port = port;
}

/* --- asking the backend ------------------------------------------------ */

struct fetched {
	struct pmbench_buf body;
	char *type, *encoding, *etag, *cache_control;
};

static size_t on_body(char *p, size_t size, size_t n, void *data)
{
	pmbench_buf_add(&((struct fetched *)data)->body, p, size * n);
	return size * n;
}

/* A header's value if `line` is that header, trimmed, else NULL. */
static char *header_value(const char *line, size_t len, const char *name)
{
	size_t n = strlen(name);

	if (len <= n || strncasecmp(line, name, n) || line[n] != ':')
		return NULL;
	line += n + 1;
	len -= n + 1;
	while (len && (*line == ' ' || *line == '\t'))
		line++, len--;
	while (len && (line[len - 1] == '\r' || line[len - 1] == '\n' ||
		       line[len - 1] == ' '))
		len--;
	return pmbench_xstrndup(line, len);
}

static size_t on_header(char *p, size_t size, size_t n, void *data)
{
	struct fetched *f = data;
	size_t len = size * n;
	char *v;

	if ((v = header_value(p, len, "Content-Type"))) {
		free(f->type);
		f->type = v;
	} else if ((v = header_value(p, len, "Content-Encoding"))) {
		free(f->encoding);
		f->encoding = v;
	} else if ((v = header_value(p, len, "ETag"))) {
		free(f->etag);
		f->etag = v;
	} else if ((v = header_value(p, len, "Cache-Control"))) {
		free(f->cache_control);
		f->cache_control = v;
	}
	return len;
}

static void fetched_release(struct fetched *f)
{
	pmbench_buf_release(&f->body);
	free(f->type);
	free(f->encoding);
	free(f->etag);
	free(f->cache_control);
}

/*
 * GET `path` from the backend as a PM would ask it. Returns the status
 * (0 when no answer came, with the reason set as the error).
 */
static int fetch(struct pmbench_mirror *m, const char *path, const char *accept,
		 int gzip, struct fetched *f)
{
	struct pmbench_buf url = PMBENCH_BUF_INIT, h = PMBENCH_BUF_INIT;
	struct curl_slist *headers = NULL;
	long status = 0;
	CURLcode rc;

	if (!m->easy)
		m->easy = curl_easy_init();
	if (!m->easy)
		return pmbench_error_set("registry front: curl_easy_init "
					 "failed"),
		       0;
	curl_easy_reset(m->easy);
	pmbench_buf_addf(&url, "http://127.0.0.1:%d%s", m->backend_port, path);
	pmbench_buf_addf(&h, "Host: %s", m->host);
	headers = curl_slist_append(headers, h.ptr);
	pmbench_buf_reset(&h);
	pmbench_buf_addf(&h, "Accept: %s", accept ? accept : "*/*");
	headers = curl_slist_append(headers, h.ptr);
	if (gzip)
		headers = curl_slist_append(headers, "Accept-Encoding: gzip");
	curl_easy_setopt(m->easy, CURLOPT_URL, url.ptr);
	curl_easy_setopt(m->easy, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(m->easy, CURLOPT_NOPROXY, "*");
	curl_easy_setopt(m->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(m->easy, CURLOPT_TIMEOUT, FETCH_SECS);
	curl_easy_setopt(m->easy, CURLOPT_PROTOCOLS_STR, "http");
	curl_easy_setopt(m->easy, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(m->easy, CURLOPT_WRITEDATA, f);
	curl_easy_setopt(m->easy, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(m->easy, CURLOPT_HEADERDATA, f);
	rc = curl_easy_perform(m->easy);
	if (rc == CURLE_OK)
		curl_easy_getinfo(m->easy, CURLINFO_RESPONSE_CODE, &status);
	else
		pmbench_error_set("registry front: GET %s from the mirror "
				  "(127.0.0.1:%d): %s",
				  path, m->backend_port,
				  curl_easy_strerror(rc));
	curl_slist_free_all(headers);
	pmbench_buf_release(&url);
	pmbench_buf_release(&h);
	return (int)status;
}

static struct entry *keep(struct pmbench_mirror *m, const char *key, int status,
			  struct fetched *f)
{
	struct entry *e = pmbench_xcalloc(1, sizeof(*e));
	unsigned b = hash(key);

	e->key = pmbench_xstrdup(key);
	e->status = status;
	e->type = f->type;
	e->encoding = f->encoding;
	e->etag = f->etag;
	e->len = f->body.len;
	e->body = pmbench_buf_detach(&f->body);
	f->type = f->encoding = f->etag = NULL;
	e->next = m->table[b];
	m->table[b] = e;
	m->kept++;
	m->kept_bytes += e->len;
	return e;
}

int pmbench_mirror_preload(struct pmbench_mirror *m, const char *path,
			   const char *accept, int gzip)
{
	struct pmbench_buf key = PMBENCH_BUF_INIT;
	struct fetched f = { PMBENCH_BUF_INIT, NULL, NULL, NULL, NULL };
	char kind = kind_of(path, accept);
	int status, ret = 0;

	make_key(&key, kind, gzip, path);
	if (find(m, key.ptr))
		goto done;
	/* Ask as the kind says, whatever words the PM's header used. */
	if (kind != 't')
		accept = kind == 'c' ? CORGI_ACCEPT : FULL_ACCEPT;
	status = fetch(m, path, accept, gzip, &f);
	if (!status)
		ret = -1;
	else if (status == 200 && keep(m, key.ptr, status, &f))
		ret = 1;
done:
	fetched_release(&f);
	pmbench_buf_release(&key);
	return ret;
}

/* HEAD `url` as a PM would ask; its Cache-Control, or NULL. */
static char *head_cache_control(struct pmbench_mirror *m, const char *url,
				const char *accept)
{
	struct fetched f = { PMBENCH_BUF_INIT, NULL, NULL, NULL, NULL };
	struct pmbench_buf h = PMBENCH_BUF_INIT;
	struct curl_slist *headers = NULL;
	char *value = NULL;

	if (!m->easy)
		m->easy = curl_easy_init();
	if (!m->easy)
		return NULL;
	curl_easy_reset(m->easy);
	pmbench_buf_addf(&h, "Accept: %s", accept);
	headers = curl_slist_append(headers, h.ptr);
	pmbench_buf_release(&h);
	curl_easy_setopt(m->easy, CURLOPT_URL, url);
	curl_easy_setopt(m->easy, CURLOPT_NOBODY, 1L);
	curl_easy_setopt(m->easy, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(m->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(m->easy, CURLOPT_TIMEOUT, 20L);
	curl_easy_setopt(m->easy, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(m->easy, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(m->easy, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(m->easy, CURLOPT_HEADERDATA, &f);
	if (curl_easy_perform(m->easy) == CURLE_OK)
		value = f.cache_control, f.cache_control = NULL;
	curl_slist_free_all(headers);
	fetched_release(&f);
	return value;
}

void pmbench_mirror_imitate(struct pmbench_mirror *m, const char *upstream,
			    const char *meta_path, const char *tarball_path,
			    struct pmbench_buf *out)
{
	const char *paths[2] = { meta_path, tarball_path };
	const char *names[2] = { "packuments", "tarballs" };
	size_t n = strlen(upstream);

	while (n && upstream[n - 1] == '/')
		n--;
	for (int i = 0; i < 2; i++) {
		struct pmbench_buf url = PMBENCH_BUF_INIT;

		free(m->cache_control[i]);
		m->cache_control[i] = NULL;
		if (!paths[i])
			continue;
		pmbench_buf_addf(&url, "%.*s%s", (int)n, upstream, paths[i]);
		m->cache_control[i] = head_cache_control(
			m, url.ptr, i ? "*/*" : CORGI_ACCEPT);
		pmbench_buf_release(&url);
		pmbench_buf_addf(out, "%s%s: %s%s%s", out->len ? "; " : "",
				 names[i], m->cache_control[i] ? "\"" : "",
				 m->cache_control[i] ? m->cache_control[i]
						     : "no Cache-Control",
				 m->cache_control[i] ? "\"" : "");
	}
}

size_t pmbench_mirror_kept(const struct pmbench_mirror *m, uint64_t *bytes)
{
	if (bytes)
		*bytes = m->kept_bytes;
	return m->kept;
}

/* --- serving ------------------------------------------------------------ */

struct request {
	char method[16];
	char *path;
	char *accept, *accept_encoding, *if_none_match, *connection;
	uint64_t content_length;
	int http10, chunked;
};

static void request_release(struct request *r)
{
	free(r->path);
	free(r->accept);
	free(r->accept_encoding);
	free(r->if_none_match);
	free(r->connection);
}

/* Parse the head `text` (without its blank line). -1: not HTTP. */
static int parse_request(struct request *r, const char *text)
{
	const char *eol = strstr(text, "\r\n"), *sp1, *sp2, *p;

	memset(r, 0, sizeof(*r));
	if (!eol)
		eol = text + strlen(text);
	sp1 = memchr(text, ' ', (size_t)(eol - text));
	sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(eol - sp1 - 1)) : NULL;
	if (!sp1 || !sp2 || (size_t)(sp1 - text) >= sizeof(r->method) ||
	    sp1[1] != '/' || strncmp(sp2 + 1, "HTTP/1.", 7))
		return -1;
	memcpy(r->method, text, (size_t)(sp1 - text));
	r->path = pmbench_xstrndup(sp1 + 1, (size_t)(sp2 - sp1 - 1));
	r->http10 = sp2[8] == '0';
	for (p = *eol ? eol + 2 : eol; *p; p = *eol ? eol + 2 : eol) {
		size_t len;
		char *v;

		eol = strstr(p, "\r\n");
		if (!eol)
			eol = p + strlen(p);
		len = (size_t)(eol - p);
		if ((v = header_value(p, len, "Accept")))
			free(r->accept), r->accept = v;
		else if ((v = header_value(p, len, "Accept-Encoding")))
			free(r->accept_encoding), r->accept_encoding = v;
		else if ((v = header_value(p, len, "If-None-Match")))
			free(r->if_none_match), r->if_none_match = v;
		else if ((v = header_value(p, len, "Connection")))
			free(r->connection), r->connection = v;
		else if ((v = header_value(p, len, "Content-Length"))) {
			if (pmbench_parse_u64(&r->content_length, v) < 0) {
				pmbench_error_clear();
				r->content_length = UINT64_MAX;
			}
			free(v);
		} else if ((v = header_value(p, len, "Transfer-Encoding"))) {
			r->chunked = 1;
			free(v);
		}
	}
	return 0;
}

static const char *reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 304:
		return "Not Modified";
	case 400:
		return "Bad Request";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 431:
		return "Request Header Fields Too Large";
	default:
		return status < 400 ? "OK" : "Error";
	}
}

static void count(struct pmbench_mirror *m, const struct request *r, int status,
		  size_t bytes, int fallback)
{
	pthread_mutex_lock(&m->lock);
	if (!r || !r->path)
		m->counts.other_requests++;
	else if (pmbench_mirror_is_tarball(r->path))
		m->counts.tarball_requests++;
	else if ((!strcmp(r->method, "GET") || !strcmp(r->method, "HEAD")) &&
		 strncmp(r->path, "/-/", 3))
		m->counts.meta_requests++;
	else
		m->counts.other_requests++;
	if (status >= 400)
		m->counts.failed++;
	m->counts.fallbacks += (unsigned)fallback;
	m->counts.bytes += bytes;
	pthread_mutex_unlock(&m->lock);
}

/* An answer with a small body of our own (errors). */
static void answer_text(struct conn *c, int status, const char *text)
{
	char body[512];

	snprintf(body, sizeof(body),
		 "{\"error\":\"pmbench registry front: %s\"}\n", text);
	pmbench_buf_addf(&c->out,
			 "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\n"
			 "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
			 status, reason(status), strlen(body), body);
	c->close_after = 1;
}

static void answer_entry(struct conn *c, const struct request *r,
			 const struct entry *e, int head)
{
	int not_modified = e->etag && r->if_none_match &&
			   !strcmp(e->etag, r->if_none_match);
	int status = not_modified ? 304 : e->status;

	pmbench_buf_addf(&c->out, "HTTP/1.1 %d %s\r\n", status, reason(status));
	if (e->type)
		pmbench_buf_addf(&c->out, "Content-Type: %s\r\n", e->type);
	if (e->encoding && !not_modified)
		pmbench_buf_addf(&c->out, "Content-Encoding: %s\r\n",
				 e->encoding);
	if (e->etag)
		pmbench_buf_addf(&c->out, "ETag: %s\r\n", e->etag);
	if (c->cache_control)
		pmbench_buf_addf(&c->out, "Cache-Control: %s\r\n",
				 c->cache_control);
	if (!not_modified)
		pmbench_buf_addf(&c->out, "Content-Length: %zu\r\n", e->len);
	pmbench_buf_addf(&c->out, "Connection: %s\r\n\r\n",
			 c->close_after ? "close" : "keep-alive");
	if (!head && !not_modified) {
		c->body = e->body;
		c->body_len = e->len;
	}
}

static int wants_close(const struct request *r)
{
	if (r->connection && !strcasecmp(r->connection, "close"))
		return 1;
	return r->http10 &&
	       !(r->connection && !strcasecmp(r->connection, "keep-alive"));
}

/*
 * A request the primings did not make: ask the backend now. A 200 is
 * kept and returned; anything else is answered here (its body copied
 * after the head, as nothing keeps it) and NULL returned.
 */
static struct entry *fall_back(struct pmbench_mirror *m, struct conn *c,
			       const struct request *r, const char *key,
			       int gzip, int head)
{
	struct fetched f = { PMBENCH_BUF_INIT, NULL, NULL, NULL, NULL };
	int status = fetch(m, r->path, r->accept, gzip, &f);
	struct entry *e = NULL;

	if (status == 200) {
		e = keep(m, key, status, &f);
	} else if (!status) {
		answer_text(c, 502, "the mirror behind did not answer");
		pmbench_error_clear();
		count(m, r, 502, 0, 1);
	} else {
		struct entry failure = { NULL,	     status, f.type,
					 f.encoding, f.etag, f.body.ptr,
					 f.body.len, NULL };

		answer_entry(c, r, &failure, head);
		if (c->body) {
			pmbench_buf_add(&c->out, failure.body, failure.len);
			c->body = NULL;
			c->body_len = 0;
		}
		count(m, r, status, head ? 0 : failure.len, 1);
	}
	fetched_release(&f);
	return e;
}

/* Answer one whole request head of `c`; its bytes are consumed. */
static void handle(struct pmbench_mirror *m, struct conn *c, size_t head_len)
{
	struct pmbench_buf key = PMBENCH_BUF_INIT;
	struct request r;
	struct entry *e;
	int head, gzip, fallback = 0;
	char *text = pmbench_xstrndup(c->in.ptr, head_len);

	c->writing = 1;
	c->out_off = c->body_off = c->body_len = 0;
	c->body = NULL;
	c->cache_control = NULL;
	pmbench_buf_reset(&c->out);
	if (parse_request(&r, text) < 0) {
		answer_text(c, 400, "not an HTTP/1.x request");
		count(m, NULL, 400, 0, 0);
		goto done;
	}
	head = !strcmp(r.method, "HEAD");
	if ((strcmp(r.method, "GET") && !head) || r.chunked ||
	    r.content_length) {
		answer_text(c, 405, "only GET and HEAD are served");
		count(m, &r, 405, 0, 0);
		goto done;
	}
	c->close_after = wants_close(&r);
	gzip = r.accept_encoding && strstr(r.accept_encoding, "gzip");
	make_key(&key, kind_of(r.path, r.accept), gzip, r.path);
	e = find(m, key.ptr);
	fallback = !e;
	c->cache_control = m->cache_control[pmbench_mirror_is_tarball(r.path)];
	if (!e && !(e = fall_back(m, c, &r, key.ptr, gzip, head)))
		goto done;
	answer_entry(c, &r, e, head);
	count(m, &r, e->status, c->body_len, fallback);
done:
	request_release(&r);
	free(text);
	pmbench_buf_release(&key);
	/* Drop the head and its blank line. */
	memmove(c->in.ptr, c->in.ptr + head_len + 4, c->in.len - head_len - 4);
	c->in.len -= head_len + 4;
	c->in.ptr[c->in.len] = '\0';
}

/* Answer the next complete request in `c`'s input, if there is one. */
static void next_request(struct pmbench_mirror *m, struct conn *c)
{
	char *end;

	if (c->writing || !c->in.len)
		return;
	end = strstr(c->in.ptr, "\r\n\r\n");
	if (end) {
		handle(m, c, (size_t)(end - c->in.ptr));
	} else if (c->in.len > MAX_HEAD) {
		c->writing = 1;
		pmbench_buf_reset(&c->out);
		answer_text(c, 431, "request head over 64 KiB");
		count(m, NULL, 431, 0, 0);
		pmbench_buf_reset(&c->in);
	}
}

static void conn_close(struct pmbench_mirror *m, size_t i)
{
	struct conn *c = &m->conns[i];

	close(c->fd);
	pmbench_buf_release(&c->in);
	pmbench_buf_release(&c->out);
	m->conns[i] = m->conns[--m->nconns];
}

/* Write what `c` can; 1 when the connection is to be closed. */
static int flush(struct pmbench_mirror *m, struct conn *c)
{
	while (c->writing) {
		const char *p;
		size_t left;
		ssize_t n;
		int more = 0;

		if (c->out_off < c->out.len) {
			p = c->out.ptr + c->out_off;
			left = c->out.len - c->out_off;
			/* The head and the body in as few packets as can be. */
			more = c->body_off < c->body_len ? MSG_MORE : 0;
		} else if (c->body_off < c->body_len) {
			p = c->body + c->body_off;
			left = c->body_len - c->body_off;
		} else {
			c->writing = 0;
			if (c->close_after)
				return 1;
			next_request(m, c);
			continue;
		}
		n = send(c->fd, p, left, MSG_NOSIGNAL | more);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno != EAGAIN && errno != EWOULDBLOCK;
		if (c->out_off < c->out.len)
			c->out_off += (size_t)n;
		else
			c->body_off += (size_t)n;
	}
	return c->eof;
}

/* Read what `c` sent; 1 when the connection is to be closed. */
static int take_input(struct pmbench_mirror *m, struct conn *c)
{
	char chunk[16384];

	for (;;) {
		ssize_t n = recv(c->fd, chunk, sizeof(chunk), 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (n == 0) {
			c->eof = 1;
			break;
		}
		/* While answering, keep reading: a pipelined request. */
		if (c->in.len < 4 * MAX_HEAD)
			pmbench_buf_add(&c->in, chunk, (size_t)n);
	}
	next_request(m, c);
	return flush(m, c);
}

static void accept_all(struct pmbench_mirror *m)
{
	int one = 1;

	for (;;) {
		int fd = accept4(m->listen_fd, NULL, NULL,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0)
			return;
		/*
		 * Without it, a small answer waits for the PM's delayed ACK
		 * of the one before: 40 ms a request.
		 */
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (m->nconns == m->conns_alloc) {
			m->conns_alloc = m->conns_alloc ? 2 * m->conns_alloc
							: 32;
			m->conns = pmbench_xrealloc(
				m->conns, m->conns_alloc * sizeof(*m->conns));
		}
		m->conns[m->nconns++] =
			(struct conn){ .fd = fd,
				       .in = PMBENCH_BUF_INIT,
				       .out = PMBENCH_BUF_INIT };
	}
}

static void *serve_loop(void *arg)
{
	struct pmbench_mirror *m = arg;
	struct pollfd *fds = NULL;
	size_t alloc = 0;

	for (;;) {
		size_t n = m->nconns + 2;

		if (n > alloc) {
			alloc = 2 * n;
			fds = pmbench_xrealloc(fds, alloc * sizeof(*fds));
		}
		fds[0] = (struct pollfd){ m->wake[0], POLLIN, 0 };
		fds[1] = (struct pollfd){ m->listen_fd, POLLIN, 0 };
		for (size_t i = 0; i < m->nconns; i++)
			fds[i + 2] = (struct pollfd){
				m->conns[i].fd,
				(short)((m->conns[i].eof ? 0 : POLLIN) |
					(m->conns[i].writing ? POLLOUT : 0)),
				0
			};
		if (poll(fds, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (fds[0].revents)
			break;
		/* Back to front: closing moves the last one into its place. */
		for (size_t i = m->nconns; i-- > 0;) {
			short ev = fds[i + 2].revents;
			struct conn *c = &m->conns[i];
			int gone = 0;

			if (!ev)
				continue;
			if (ev & (POLLIN | POLLHUP | POLLERR))
				gone = take_input(m, c);
			if (!gone && (ev & POLLOUT))
				gone = flush(m, c);
			if (gone)
				conn_close(m, i);
		}
		if (fds[1].revents & POLLIN)
			accept_all(m);
	}
	free(fds);
	return NULL;
}

int pmbench_mirror_serve(struct pmbench_mirror *m, int port)
{
	struct sockaddr_in a;
	int one = 1, fd;

	if (m->serving)
		return 0;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return pmbench_error_set("registry front: socket: %s",
					 strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons((uint16_t)port);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(fd, 512) < 0) {
		int e = errno;

		close(fd);
		return pmbench_error_set("registry front: cannot listen on "
					 "127.0.0.1:%d: %s",
					 port, strerror(e));
	}
	if (pipe2(m->wake, O_CLOEXEC) < 0) {
		int e = errno;

		close(fd);
		return pmbench_error_set("registry front: pipe: %s",
					 strerror(e));
	}
	m->listen_fd = fd;
	if (pthread_create(&m->thread, NULL, serve_loop, m)) {
		pmbench_mirror_halt(m);
		return pmbench_error_set("registry front: no thread");
	}
	m->serving = 1;
	return 0;
}

void pmbench_mirror_halt(struct pmbench_mirror *m)
{
	if (!m)
		return;
	if (m->serving) {
		if (write(m->wake[1], "x", 1) < 0) {
			/* The pipe is ours and empty: cannot fail. */
		}
		pthread_join(m->thread, NULL);
		m->serving = 0;
	}
	while (m->nconns)
		conn_close(m, m->nconns - 1);
	for (int i = 0; i < 2; i++)
		if (m->wake[i] >= 0)
			close(m->wake[i]);
	if (m->listen_fd >= 0)
		close(m->listen_fd);
	m->listen_fd = m->wake[0] = m->wake[1] = -1;
}

void pmbench_mirror_take_counts(struct pmbench_mirror *m,
				struct pmbench_mirror_counts *out)
{
	pthread_mutex_lock(&m->lock);
	*out = m->counts;
	memset(&m->counts, 0, sizeof(m->counts));
	pthread_mutex_unlock(&m->lock);
}

void pmbench_mirror_free(struct pmbench_mirror *m)
{
	if (!m)
		return;
	pmbench_mirror_halt(m);
	for (size_t b = 0; b < BUCKETS; b++)
		while (m->table[b]) {
			struct entry *e = m->table[b];

			m->table[b] = e->next;
			entry_free(e);
		}
	if (m->easy)
		curl_easy_cleanup(m->easy);
	free(m->conns);
	free(m->host);
	free(m->cache_control[0]);
	free(m->cache_control[1]);
	pthread_mutex_destroy(&m->lock);
	free(m);
}
