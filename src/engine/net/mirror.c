/*
 * The local registry's front (mirror.h): answers what the sealed
 * verdaccio answered, so that the timed runs do not measure verdaccio's
 * CPU. One thread, one poll() loop, non-blocking sockets, with limits on
 * what a client can make it hold (connections, input, time) and a count
 * of requests per connection's owner (peer.h).
 *
 * The answers' bodies are kept in one file, not in memory: a nameless
 * file in the store folder (O_TMPFILE, or one unlinked at once), gone
 * when pmbench ends however it ends. An answer is an offset and a length
 * into it, sent from the file's mapping, whose pages are unmapped again
 * as soon as they are sent: they stay in the page cache, and pmbench's
 * own memory does not grow with the fixture (the default bench's 369
 * answers are 123 MB, most of it yarn 1's full packuments).
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
#include <signal.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include <curl/curl.h>

#include "httphead.h"
#include "pmbench/buf.h"
#include "pmbench/ctx.h"
#include "pmbench/mirror.h"
#include "pmbench/peer.h"

#define BUCKETS	 4096
#define MAX_HEAD 65536
/*
 * A connection's input is read at most this far ahead of what was
 * answered; the rest waits in the kernel (TCP flow control) until the
 * answers are out, so pipelined requests are never dropped.
 */
#define IN_MAX (MAX_HEAD + 16384)
/*
 * The defaults of struct pmbench_mirror_limits: a head unfinished this
 * long after its first byte gets 408; an answer the client takes nothing
 * of for this long is abandoned; connections at most: CONNS_MAX, or an
 * eighth of the descriptor limit (at least CONNS_MIN).
 */
#define HEAD_NS	  (30ull * 1000000000ull)
#define STALL_NS  (30ull * 1000000000ull)
#define CONNS_MAX 256
#define CONNS_MIN 8
/* After accept() ran out of descriptors, wait this long to try again. */
#define ACCEPT_PAUSE_NS (100ull * 1000000ull)
#define FETCH_SECS	120L
#define CORGI		"application/vnd.npm.install-v1+json"
#define FULL_ACCEPT	"application/json"
#define CORGI_ACCEPT	CORGI "; q=1.0, application/json; q=0.8, */*"
/* A fetched body is written to the store in pieces of this size. */
#define STORE_CHUNK (64 * 1024)
/* Sent from the store's mapping, its pages leave pmbench's memory. */
#define MAP_DROP (16u << 20)

struct entry {
	char *key;
	int status;
	char *type, *encoding, *etag;
	uint64_t off; /* the body: at this offset of the store */
	size_t len;
	struct entry *next;
};

struct conn {
	int fd;
	enum pmbench_peer peer; /* who opened it (peer.h) */
	struct pmbench_buf in;
	size_t in_off;	  /* answered up to here: the next head starts */
	size_t scanned;	  /* bytes after in_off searched for a head's end */
	uint64_t head_t0; /* when the unanswered head's first byte came */
	uint64_t active;  /* the last byte in or out: eviction, stalls */
	struct pmbench_buf out; /* status line and headers */
	size_t out_off;
	uint64_t body_at; /* an entry's body, in the store */
	size_t body_len, body_off;
	int writing, close_after;
	int eof; /* the client sent all it will: answer, then close */
	const char *cache_control; /* for the answer being made */
	/* The request being answered, logged once its answer is out. */
	struct pmbench_mirror_request req;
	int req_open;
};

struct pmbench_mirror {
	int backend_port;
	char *host;
	char *cache_control[2]; /* the upstream's: packuments, tarballs */
	struct entry *table[BUCKETS];
	size_t kept;
	uint64_t kept_bytes;
	uint64_t store_end; /* the store's length */
	char *store_dir;    /* where the store is made; NULL: TMPDIR */
	int store;	    /* the answers' bodies (a nameless file), or -1 */
	char *map;	    /* the store mapped (store_map()), or NULL */
	size_t map_len;	    /* its length */
	size_t map_sent;    /* sent from it since it was last dropped */
	CURL *easy;

	pthread_mutex_t lock; /* counts, log and refuse */
	int refuse; /* every request gets this status (mirror.h), or 0 */
	struct pmbench_mirror_counts counts;
	struct pmbench_mirror_log log; /* the PM's requests (mirror.h) */

	int listen_fd, wake[2], serving;
	pthread_t thread;
	struct conn *conns;
	size_t nconns, conns_alloc;
	struct pmbench_mirror_limits limits; /* as set; 0: the default */
	struct pmbench_mirror_limits use;    /* while serving */
	struct pmbench_peer_cache *peers;    /* the serving thread's */
	uint64_t accept_paused_till; /* out of descriptors: until then */
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
	free(e);
}

struct pmbench_mirror *pmbench_mirror_new(int backend_port, const char *host)
{
	struct pmbench_mirror *m = pmbench_xcalloc(1, sizeof(*m));

	m->backend_port = backend_port;
	m->host = pmbench_xstrdup(host);
	m->listen_fd = m->wake[0] = m->wake[1] = m->store = -1;
	m->peers = pmbench_xcalloc(1, sizeof(*m->peers));
	pthread_mutex_init(&m->lock, NULL);
	return m;
}

void pmbench_mirror_set_backend(struct pmbench_mirror *m, int port)
{
	m->backend_port = port;
}

void pmbench_mirror_set_store(struct pmbench_mirror *m, const char *dir)
{
	free(m->store_dir);
	m->store_dir = dir ? pmbench_xstrdup(dir) : NULL;
}

/* A file without a name in `dir`: O_TMPFILE, else one unlinked at once. */
static int nameless_file(const char *dir)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0)
		return fd;
	pmbench_buf_path(&path, dir, ".pmbench-front-XXXXXX");
	fd = mkostemp(path.ptr, O_CLOEXEC);
	if (fd >= 0)
		unlink(path.ptr);
	pmbench_buf_release(&path);
	return fd;
}

/* The store, made on first use. Returns 0 or an error. */
static int open_store(struct pmbench_mirror *m)
{
	const char *dir = m->store_dir;

	if (m->store >= 0)
		return 0;
	if (!dir || !*dir)
		dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	m->store = nameless_file(dir);
	if (m->store < 0)
		return pmbench_error_set("registry front: cannot make a file "
					 "for its answers in '%s': %s",
					 dir, strerror(errno));
	return 0;
}

/* --- asking the backend ------------------------------------------------ */

/*
 * An answer being fetched. A 200's body goes to the store (`fd`, from
 * offset `at`) in pieces, any other's stays in `body`.
 */
struct fetched {
	struct pmbench_buf body;
	char *type, *encoding, *etag, *cache_control;
	int fd;		  /* the store, or -1: keep the body in memory */
	int to_store;	  /* the status line said 200 */
	uint64_t at;	  /* where the body starts in the store */
	uint64_t written; /* of it, so far */
	int failed;	  /* errno of a failed write, or 0 */
};

#define FETCHED_INIT                                                        \
	{                                                                   \
		.body = PMBENCH_BUF_INIT, .fd = -1, .to_store = 0, .at = 0, \
		.written = 0, .failed = 0                                   \
	}

/* Write the body's pending piece to the store. */
static int store_flush(struct fetched *f)
{
	size_t done = 0;

	while (done < f->body.len) {
		ssize_t w = pwrite(f->fd, f->body.ptr + done,
				   f->body.len - done,
				   (off_t)(f->at + f->written + done));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			f->failed = w < 0 ? errno : EIO;
			return -1;
		}
		done += (size_t)w;
	}
	f->written += done;
	pmbench_buf_reset(&f->body);
	return 0;
}

static size_t on_body(char *p, size_t size, size_t n, void *data)
{
	struct fetched *f = data;

	pmbench_buf_add(&f->body, p, size * n);
	if (f->to_store && f->body.len >= STORE_CHUNK && store_flush(f) < 0)
		return 0; /* curl stops with CURLE_WRITE_ERROR */
	return size * n;
}

static size_t on_header(char *p, size_t size, size_t n, void *data)
{
	struct fetched *f = data;
	size_t len = size * n;
	char *v;

	/* The status line comes first: a 200 is kept, in the store. */
	if (len > 12 && !strncmp(p, "HTTP/", 5)) {
		const char *sp = memchr(p, ' ', len);

		f->to_store = f->fd >= 0 && sp && (size_t)(sp - p) + 4 <= len &&
			      !strncmp(sp, " 200", 4);
	}
	if ((v = pmbench_httphead_value(p, len, "Content-Type"))) {
		free(f->type);
		f->type = v;
	} else if ((v = pmbench_httphead_value(p, len, "Content-Encoding"))) {
		free(f->encoding);
		f->encoding = v;
	} else if ((v = pmbench_httphead_value(p, len, "ETag"))) {
		free(f->etag);
		f->etag = v;
	} else if ((v = pmbench_httphead_value(p, len, "Cache-Control"))) {
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

/* Set `m->easy` up to GET `url` with `headers` into `f`. */
static void fetch_setup(struct pmbench_mirror *m, const char *url,
			struct curl_slist *headers, struct fetched *f)
{
	curl_easy_reset(m->easy);
	curl_easy_setopt(m->easy, CURLOPT_URL, url);
	curl_easy_setopt(m->easy, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(m->easy, CURLOPT_NOPROXY, "*");
	curl_easy_setopt(m->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(m->easy, CURLOPT_TIMEOUT, FETCH_SECS);
	curl_easy_setopt(m->easy, CURLOPT_PROTOCOLS_STR, "http");
	curl_easy_setopt(m->easy, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(m->easy, CURLOPT_WRITEDATA, f);
	curl_easy_setopt(m->easy, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(m->easy, CURLOPT_HEADERDATA, f);
}

/*
 * GET `path` from the backend as a PM would ask it; a 200's body goes to
 * the store, from its end. Returns the status (0 when no answer came,
 * with the reason set as the error).
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
	if (open_store(m) < 0)
		return 0;
	f->fd = m->store;
	f->at = m->store_end;
	pmbench_buf_addf(&url, "http://127.0.0.1:%d%s", m->backend_port, path);
	pmbench_buf_addf(&h, "Host: %s", m->host);
	headers = curl_slist_append(headers, h.ptr);
	pmbench_buf_reset(&h);
	pmbench_buf_addf(&h, "Accept: %s", accept ? accept : "*/*");
	headers = curl_slist_append(headers, h.ptr);
	if (gzip)
		headers = curl_slist_append(headers, "Accept-Encoding: gzip");
	fetch_setup(m, url.ptr, headers, f);
	rc = curl_easy_perform(m->easy);
	if (rc == CURLE_OK)
		curl_easy_getinfo(m->easy, CURLINFO_RESPONSE_CODE, &status);
	/* A 200 is kept: what is left of its body goes to the store too. */
	f->to_store = status == 200;
	if (f->to_store && f->body.len && store_flush(f) < 0)
		rc = CURLE_WRITE_ERROR;
	if (rc != CURLE_OK) {
		status = 0;
		if (f->failed)
			pmbench_error_set("registry front: cannot write %s "
					  "to its answer file: %s",
					  path, strerror(f->failed));
		else
			pmbench_error_set("registry front: GET %s from the "
					  "mirror (127.0.0.1:%d): %s",
					  path, m->backend_port,
					  curl_easy_strerror(rc));
	}
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
	e->off = f->at;
	e->len = (size_t)f->written;
	f->type = f->encoding = f->etag = NULL;
	m->store_end += f->written;
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
	struct fetched f = FETCHED_INIT;
	char kind = kind_of(path, accept);
	int status, ret = pmbench_ctx_libraries();

	if (ret < 0)
		return ret;
	make_key(&key, kind, gzip, path);
	if (find(m, key.ptr))
		goto done;
	/* Ask as the kind says, whatever words the PM's header used. */
	if (kind != 't')
		accept = kind == 'c' ? CORGI_ACCEPT : FULL_ACCEPT;
	status = fetch(m, path, accept, gzip, &f);
	/*
	 * A 404 is an answer too: the registry has no such package (pnpm
	 * asks it for a workspace's own packages before it links them).
	 */
	if (!status)
		ret = -1;
	/* Only a 200's body went to the store as it came: the 404's too. */
	else if (status == 404 && store_flush(&f) < 0)
		ret = pmbench_error_set("registry front: cannot write %s to "
					"its answer file: %s",
					path, strerror(f.failed));
	else if ((status == 200 || status == 404) &&
		 keep(m, key.ptr, status, &f))
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
	struct fetched f = FETCHED_INIT;
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

static const char *reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 304:
		return "Not Modified";
	case 400:
		return "Bad Request";
	case 403:
		return "Forbidden";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 408:
		return "Request Timeout";
	case 431:
		return "Request Header Fields Too Large";
	case 502:
		return "Bad Gateway";
	default:
		return status < 400 ? "OK" : "Error";
	}
}

/*
 * Count one answer to `c`. A connection of another process (peer.h)
 * counts only as a foreign request: what the PM being timed asked for
 * stays its own (issue 24: another client's pipelining was once
 * recorded as 7,978 packument requests of the PM).
 */
static void count(struct pmbench_mirror *m, struct conn *c,
		  const struct pmbench_httphead *r, int status, size_t bytes,
		  int fallback)
{
	char kind;

	pthread_mutex_lock(&m->lock);
	if (c->peer == PMBENCH_PEER_OTHER) {
		m->counts.foreign_requests++;
		pthread_mutex_unlock(&m->lock);
		return;
	}
	if (!r || !r->path) {
		m->counts.other_requests++;
		kind = 'o';
	} else if (pmbench_mirror_is_tarball(r->path)) {
		m->counts.tarball_requests++;
		kind = 't';
	} else if ((!strcmp(r->method, "GET") || !strcmp(r->method, "HEAD")) &&
		   strncmp(r->path, "/-/", 3)) {
		m->counts.meta_requests++;
		kind = kind_of(r->path, r->accept);
	} else {
		m->counts.other_requests++;
		kind = 'o';
	}
	/* Logged when its answer is out (log_done()). */
	c->req = (struct pmbench_mirror_request){
		.start_ns = c->head_t0 ? c->head_t0 : pmbench_now_ns(),
		.bytes = bytes,
		.status = status,
		.kind = kind,
		.fallback = fallback,
	};
	c->req_open = 1;
	/*
	 * A 404 the primings got as well is the registry's answer; a
	 * refusal asked for is no failure of the mirror.
	 */
	if (m->refuse)
		m->counts.refused++;
	else if (status >= 400 && (fallback || status != 404))
		m->counts.failed++;
	m->counts.fallbacks += (unsigned)fallback;
	m->counts.bytes += bytes;
	pthread_mutex_unlock(&m->lock);
}

/*
 * The answer on `c` is out, or its connection is closing: log the
 * request it answered, if it is one of what pmbench runs.
 */
static void log_done(struct pmbench_mirror *m, struct conn *c)
{
	if (!c->req_open)
		return;
	c->req_open = 0;
	c->req.end_ns = pmbench_now_ns();
	pthread_mutex_lock(&m->lock);
	if (m->log.nr < PMBENCH_MIRROR_LOG_MAX) {
		PMBENCH_ALLOC_GROW(m->log.v, m->log.nr + 1, m->log.alloc);
		m->log.v[m->log.nr++] = c->req;
	} else {
		m->log.dropped++;
	}
	pthread_mutex_unlock(&m->lock);
}

/* Count a connection accepted (by its owner), or dropped. */
static void count_conn(struct pmbench_mirror *m, enum pmbench_peer peer,
		       int dropped)
{
	pthread_mutex_lock(&m->lock);
	if (dropped)
		m->counts.dropped_connections++;
	else if (peer == PMBENCH_PEER_OTHER)
		m->counts.foreign_connections++;
	else if (peer == PMBENCH_PEER_UNKNOWN)
		m->counts.unattributed_connections++;
	pthread_mutex_unlock(&m->lock);
}

/*
 * Start an answer on `c`: nothing of an earlier one is left, and the
 * client has the stall limit from now to take it.
 */
static void begin_answer(struct conn *c)
{
	c->active = pmbench_now_ns();
	c->writing = 1;
	c->out_off = c->body_off = c->body_len = 0;
	c->body_at = 0;
	c->cache_control = NULL;
	pmbench_buf_reset(&c->out);
}

/* An answer with a small body of our own (errors); the connection ends. */
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

/* Refuse what `c` sent with `status`, counted, and close after. */
static void refuse(struct pmbench_mirror *m, struct conn *c, int status,
		   const char *text)
{
	begin_answer(c);
	answer_text(c, status, text);
	count(m, c, NULL, status, 0, 0);
	/* Nothing after it is read: the framing cannot be trusted. */
	c->in_off = c->in.len;
	c->eof = 1;
}

/*
 * The head of the answer `e` (its body: `len` bytes) to `r` into `c`'s
 * output. Returns 1 when the body is to follow.
 */
static int answer_head(struct conn *c, const struct pmbench_httphead *r,
		       const struct entry *e, size_t len, int head)
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
		pmbench_buf_addf(&c->out, "Content-Length: %zu\r\n", len);
	pmbench_buf_addf(&c->out, "Connection: %s\r\n\r\n",
			 c->close_after ? "close" : "keep-alive");
	return !head && !not_modified;
}

/* The answer `e`, kept: its head, then its body from the store. */
static void answer_entry(struct conn *c, const struct pmbench_httphead *r,
			 const struct entry *e, int head)
{
	if (answer_head(c, r, e, e->len, head)) {
		c->body_at = e->off;
		c->body_len = e->len;
	}
}

static int wants_close(const struct pmbench_httphead *r)
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
			       const struct pmbench_httphead *r,
			       const char *key, int gzip, int head)
{
	struct fetched f = FETCHED_INIT;
	int status = fetch(m, r->path, r->accept, gzip, &f);
	struct entry *e = NULL;

	if (status == 200) {
		e = keep(m, key, status, &f);
	} else if (!status) {
		answer_text(c, 502, "the mirror behind did not answer");
		pmbench_error_clear();
		count(m, c, r, 502, 0, 1);
	} else {
		struct entry failure = {
			.status = status,
			.type = f.type,
			.encoding = f.encoding,
			.etag = f.etag,
		};

		/* Not kept: its body goes after the head, from memory. */
		if (answer_head(c, r, &failure, f.body.len, head))
			pmbench_buf_add(&c->out, f.body.ptr, f.body.len);
		count(m, c, r, status, head ? 0 : f.body.len, 1);
	}
	fetched_release(&f);
	return e;
}

void pmbench_mirror_refuse(struct pmbench_mirror *m, int status)
{
	pthread_mutex_lock(&m->lock);
	m->refuse = status;
	pthread_mutex_unlock(&m->lock);
}

/* The status every request gets now (pmbench_mirror_refuse()), or 0. */
static int refusing(struct pmbench_mirror *m)
{
	int status;

	pthread_mutex_lock(&m->lock);
	status = m->refuse;
	pthread_mutex_unlock(&m->lock);
	return status;
}

/* Answer the request `r` (parsed and checked) on `c`. */
static void answer(struct pmbench_mirror *m, struct conn *c,
		   const struct pmbench_httphead *r)
{
	struct pmbench_buf key = PMBENCH_BUF_INIT;
	int head = !strcmp(r->method, "HEAD"), gzip, fallback;
	int refuse = refusing(m);
	struct entry *e;

	if (refuse) {
		answer_text(c, refuse,
			    "offline: every request is refused (the offline "
			    "proof)");
		count(m, c, r, refuse, 0, 0);
		return;
	}
	if ((strcmp(r->method, "GET") && !head) || r->chunked ||
	    r->content_length) {
		answer_text(c, 405, "only GET and HEAD are served");
		count(m, c, r, 405, 0, 0);
		return;
	}
	c->close_after = wants_close(r);
	gzip = r->accept_encoding && strstr(r->accept_encoding, "gzip");
	make_key(&key, kind_of(r->path, r->accept), gzip, r->path);
	e = find(m, key.ptr);
	fallback = !e;
	c->cache_control = m->cache_control[pmbench_mirror_is_tarball(r->path)];
	if (e || (e = fall_back(m, c, r, key.ptr, gzip, head))) {
		answer_entry(c, r, e, head);
		count(m, c, r, e->status, c->body_len, fallback);
	}
	pmbench_buf_release(&key);
}

/* Answer the head of `head_len` bytes at the start of `c`'s input. */
static void handle(struct pmbench_mirror *m, struct conn *c, size_t head_len)
{
	struct pmbench_httphead r;
	int ret = pmbench_httphead_parse(&r, c->in.ptr + c->in_off, head_len);

	if (ret == PMBENCH_HTTPHEAD_TARGET) {
		refuse(m, c, 400,
		       "only a path is served: no '.' or '..' segment, "
		       "no control byte");
	} else if (ret < 0) {
		refuse(m, c, 400, "not an HTTP/1.0 or 1.1 request head");
	} else {
		begin_answer(c);
		answer(m, c, &r);
		/* The head and its blank line are answered. */
		c->in_off += head_len + 4;
		c->scanned = 0;
		c->head_t0 = pmbench_now_ns();
	}
	pmbench_httphead_release(&r);
}

/* Answer the next complete request in `c`'s input, if there is one. */
static void next_request(struct pmbench_mirror *m, struct conn *c)
{
	size_t avail = c->in.len - c->in_off, from;
	const char *start = c->in.ptr + c->in_off, *end;

	if (c->writing || !avail)
		return;
	/* Where the last look stopped, less a terminator cut in two. */
	from = c->scanned > 3 ? c->scanned - 3 : 0;
	end = memmem(start + from, avail - from, "\r\n\r\n", 4);
	if (end && (size_t)(end - start) <= MAX_HEAD) {
		handle(m, c, (size_t)(end - start));
		return;
	}
	c->scanned = avail;
	if (end || avail >= MAX_HEAD + 4)
		refuse(m, c, 431, "request head over 64 KiB");
}

static void conn_close(struct pmbench_mirror *m, size_t i)
{
	struct conn *c = &m->conns[i];

	log_done(m, c);
	close(c->fd);
	pmbench_buf_release(&c->in);
	pmbench_buf_release(&c->out);
	m->conns[i] = m->conns[--m->nconns];
}

/*
 * The store mapped, all of it that is written (the serving thread's
 * alone: a fallback while serving makes it longer), or NULL.
 */
static const char *store_map(struct pmbench_mirror *m)
{
	void *p;

	if (m->map && m->map_len >= m->store_end)
		return m->map;
	if (m->map)
		munmap(m->map, m->map_len);
	m->map = NULL;
	m->map_len = m->map_sent = 0;
	p = mmap(NULL, (size_t)m->store_end, PROT_READ, MAP_SHARED, m->store,
		 0);
	if (p == MAP_FAILED)
		return NULL;
	m->map = p;
	m->map_len = (size_t)m->store_end;
	return m->map;
}

/*
 * Send what the socket takes of `c`'s body from the store's mapping.
 * send() copies what it takes, and the pages stay in the page cache, so
 * every MAP_DROP bytes sent the whole mapping is dropped from pmbench's
 * resident memory (MADV_DONTNEED), which then holds at most that much of
 * the store. Measured here (2026-12-04, 369 answers of 2 KB to 10 MB, a
 * client in the same process): sendfile() spared the copy but cost 60 %
 * more CPU per megabyte, a read into a buffer as much, and dropping the
 * pages after every send() 8 us more per answer.
 */
static ssize_t send_body(struct pmbench_mirror *m, struct conn *c, size_t left)
{
	uint64_t at = c->body_at + c->body_off;
	const char *map = store_map(m);
	ssize_t n;

	if (!map) {
		off_t off = (off_t)at;

		/* No mapping to be had: the kernel reads the file itself. */
		return sendfile(c->fd, m->store, &off, left);
	}
	n = send(c->fd, map + at, left, MSG_NOSIGNAL);
	if (n > 0)
		m->map_sent += (size_t)n;
	if (m->map_sent >= MAP_DROP) {
		madvise(m->map, m->map_len, MADV_DONTNEED);
		m->map_sent = 0;
	}
	return n;
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
			p = NULL;
			left = c->body_len - c->body_off;
		} else {
			c->writing = 0;
			log_done(m, c);
			if (c->close_after)
				return 1;
			next_request(m, c);
			continue;
		}
		n = p ? send(c->fd, p, left, MSG_NOSIGNAL | more)
		      : send_body(m, c, left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno != EAGAIN && errno != EWOULDBLOCK;
		c->active = pmbench_now_ns();
		if (c->out_off < c->out.len)
			c->out_off += (size_t)n;
		else
			c->body_off += (size_t)n;
	}
	/* All sent; the client said all it will and nothing whole is left. */
	return c->eof;
}

/* What `c`'s input holds that is not answered yet. */
static size_t pending(const struct conn *c)
{
	return c->in.len - c->in_off;
}

/*
 * Read what `c` sent, at most IN_MAX bytes ahead of the answers; 1 when
 * the connection is to be closed.
 */
static int take_input(struct pmbench_mirror *m, struct conn *c)
{
	char chunk[16384];

	if (c->in_off) {
		memmove(c->in.ptr, c->in.ptr + c->in_off, pending(c));
		pmbench_buf_setlen(&c->in, pending(c));
		c->in_off = 0;
	}
	while (!c->eof && c->in.len < IN_MAX) {
		size_t room = IN_MAX - c->in.len;
		ssize_t n = recv(c->fd, chunk,
				 room < sizeof(chunk) ? room : sizeof(chunk),
				 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (n == 0) {
			c->eof = 1;
			break;
		}
		c->active = pmbench_now_ns();
		if (!pending(c))
			c->head_t0 = c->active;
		pmbench_buf_add(&c->in, chunk, (size_t)n);
	}
	next_request(m, c);
	return flush(m, c);
}

/* Nothing asked and nothing to send: it may be closed to make room. */
static int idle(const struct conn *c)
{
	return !c->writing && !pending(c) && !c->eof;
}

/*
 * Close one idle connection to make room for a new one: another
 * process's first, then the one idle longest (HTTP lets a server close
 * an idle persistent connection; clients retry on a new one). Returns 0
 * when none is idle.
 */
static int evict(struct pmbench_mirror *m)
{
	size_t best = m->nconns;

	for (size_t i = 0; i < m->nconns; i++) {
		const struct conn *c = &m->conns[i], *b;

		if (!idle(c))
			continue;
		b = best < m->nconns ? &m->conns[best] : NULL;
		if (!b ||
		    (c->peer == PMBENCH_PEER_OTHER) >
			    (b->peer == PMBENCH_PEER_OTHER) ||
		    ((c->peer == PMBENCH_PEER_OTHER) ==
			     (b->peer == PMBENCH_PEER_OTHER) &&
		     c->active < b->active))
			best = i;
	}
	if (best == m->nconns)
		return 0;
	count_conn(m, m->conns[best].peer, 1);
	conn_close(m, best);
	return 1;
}

/* Whether a new connection can be taken now (see accept_all()). */
static int can_accept(const struct pmbench_mirror *m, uint64_t now)
{
	if (now < m->accept_paused_till)
		return 0;
	if (m->nconns < m->use.max_conns)
		return 1;
	for (size_t i = 0; i < m->nconns; i++)
		if (idle(&m->conns[i]))
			return 1;
	return 0;
}

/*
 * Take the waiting connections, up to max_conns, making room by closing
 * idle ones; when every one is busy the rest wait in the listen backlog.
 * Each is attributed to its owner once (peer.h).
 */
static void accept_all(struct pmbench_mirror *m)
{
	int one = 1;

	while (can_accept(m, pmbench_now_ns())) {
		int fd = accept4(m->listen_fd, NULL, NULL,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			/* Out of descriptors: the backlog holds them. */
			if (errno == EMFILE || errno == ENFILE ||
			    errno == ENOBUFS || errno == ENOMEM)
				m->accept_paused_till =
					pmbench_now_ns() + ACCEPT_PAUSE_NS;
			return;
		}
		if (m->nconns >= m->use.max_conns)
			evict(m);
		/*
		 * Without it, a small answer waits for the PM's delayed ACK
		 * of the one before: 40 ms a request.
		 */
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		PMBENCH_ALLOC_GROW(m->conns, m->nconns + 1, m->conns_alloc);
		m->conns[m->nconns] = (struct conn){
			.fd = fd,
			.peer = pmbench_peer_of(fd, m->peers),
			.in = PMBENCH_BUF_INIT,
			.out = PMBENCH_BUF_INIT,
			.active = pmbench_now_ns(),
		};
		count_conn(m, m->conns[m->nconns].peer, 0);
		m->nconns++;
	}
}

/*
 * When `c` is due a timeout (its head unfinished, or its answer not
 * taken), or UINT64_MAX.
 */
static uint64_t due(const struct pmbench_mirror *m, const struct conn *c)
{
	if (c->writing)
		return c->active + m->use.stall_ns;
	if (pending(c) && !c->eof)
		return c->head_t0 + m->use.head_ns;
	return UINT64_MAX;
}

/*
 * Apply the timeouts due at `now`: a head not finished in time gets 408,
 * an answer not taken is abandoned (counted as dropped). Back to front:
 * closing moves the last connection into the closed one's place.
 */
static void expire(struct pmbench_mirror *m, uint64_t now)
{
	for (size_t i = m->nconns; i-- > 0;) {
		struct conn *c = &m->conns[i];

		if (due(m, c) > now)
			continue;
		if (c->writing) {
			count_conn(m, c->peer, 1);
			conn_close(m, i);
			continue;
		}
		refuse(m, c, 408, "request head not finished in time");
		if (flush(m, c))
			conn_close(m, i);
	}
}

/* The poll set: the wake pipe, the listening socket, every connection. */
static size_t poll_set(struct pmbench_mirror *m, struct pollfd **fds,
		       size_t *alloc, uint64_t now, int *timeout_ms)
{
	size_t n = m->nconns + 2;
	uint64_t next = m->accept_paused_till > now ? m->accept_paused_till
						    : UINT64_MAX;

	PMBENCH_ALLOC_GROW(*fds, n, *alloc);
	(*fds)[0] = (struct pollfd){ m->wake[0], POLLIN, 0 };
	(*fds)[1] = (struct pollfd){ can_accept(m, now) ? m->listen_fd : -1,
				     POLLIN, 0 };
	for (size_t i = 0; i < m->nconns; i++) {
		const struct conn *c = &m->conns[i];
		int reading = !c->eof && pending(c) < IN_MAX;

		(*fds)[i + 2] =
			(struct pollfd){ c->fd,
					 (short)((reading ? POLLIN : 0) |
						 (c->writing ? POLLOUT : 0)),
					 0 };
		if (due(m, c) < next)
			next = due(m, c);
	}
	*timeout_ms = next == UINT64_MAX ? -1
		      : next <= now	 ? 0
				    : (int)((next - now + 999999) / 1000000);
	return n;
}

static void *serve_loop(void *arg)
{
	struct pmbench_mirror *m = arg;
	struct pollfd *fds = NULL;
	size_t alloc = 0;

	for (;;) {
		int timeout;
		size_t n =
			poll_set(m, &fds, &alloc, pmbench_now_ns(), &timeout);

		if (poll(fds, n, timeout) < 0) {
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
		expire(m, pmbench_now_ns());
		if (fds[1].revents & POLLIN)
			accept_all(m);
	}
	free(fds);
	return NULL;
}

/* max_conns, unless set: CONNS_MAX, or an eighth of the fd limit. */
static size_t conns_limit(void)
{
	struct rlimit rl;
	rlim_t n;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		return CONNS_MAX;
	n = rl.rlim_cur / 8;
	return n < CONNS_MIN ? CONNS_MIN : n > CONNS_MAX ? CONNS_MAX : n;
}

int pmbench_mirror_serve(struct pmbench_mirror *m, int port)
{
	struct sockaddr_in a;
	sigset_t all, old;
	int one = 1, fd, e;

	if (m->serving)
		return 0;
	/* libcurl before the thread that uses it. */
	e = pmbench_ctx_libraries();
	if (e < 0)
		return e;
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
		e = errno;
		close(fd);
		return pmbench_error_set("registry front: cannot listen on "
					 "127.0.0.1:%d: %s",
					 port, strerror(e));
	}
	if (pipe2(m->wake, O_CLOEXEC) < 0) {
		e = errno;
		close(fd);
		return pmbench_error_set("registry front: pipe: %s",
					 strerror(e));
	}
	m->listen_fd = fd;
	m->use = m->limits;
	if (!m->use.max_conns)
		m->use.max_conns = conns_limit();
	if (!m->use.head_ns)
		m->use.head_ns = HEAD_NS;
	if (!m->use.stall_ns)
		m->use.stall_ns = STALL_NS;
	/* Signals stay with the program's own thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&m->thread, NULL, serve_loop, m);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		pmbench_mirror_halt(m);
		return pmbench_error_set("registry front: no thread: %s",
					 strerror(e));
	}
	m->serving = 1;
	return 0;
}

void pmbench_mirror_set_limits(struct pmbench_mirror *m,
			       const struct pmbench_mirror_limits *limits)
{
	m->limits = *limits;
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

void pmbench_mirror_log_release(struct pmbench_mirror_log *log)
{
	struct pmbench_mirror_log blank = PMBENCH_MIRROR_LOG_INIT;

	if (!log)
		return;
	free(log->v);
	*log = blank;
}

void pmbench_mirror_take(struct pmbench_mirror *m,
			 struct pmbench_mirror_counts *counts,
			 struct pmbench_mirror_log *log)
{
	struct pmbench_mirror_log blank = PMBENCH_MIRROR_LOG_INIT, old;

	pmbench_mirror_log_release(log);
	pthread_mutex_lock(&m->lock);
	*counts = m->counts;
	memset(&m->counts, 0, sizeof(m->counts));
	old = m->log;
	m->log = blank;
	pthread_mutex_unlock(&m->lock);
	/* Freed outside the lock: the front does not wait for it. */
	if (log)
		*log = old;
	else
		pmbench_mirror_log_release(&old);
}

void pmbench_mirror_take_counts(struct pmbench_mirror *m,
				struct pmbench_mirror_counts *out)
{
	pmbench_mirror_take(m, out, NULL);
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
	if (m->store >= 0)
		close(m->store);
	if (m->map)
		munmap(m->map, m->map_len);
	free(m->store_dir);
	free(m->conns);
	free(m->peers);
	free(m->host);
	free(m->cache_control[0]);
	free(m->cache_control[1]);
	pmbench_mirror_log_release(&m->log);
	pthread_mutex_destroy(&m->lock);
	free(m);
}
