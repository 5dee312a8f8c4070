/*
 * 127.0.0.1 probed: a port free or open (a dev server's, the registry
 * mirror's), and libcurl against a local dev server, its readiness and
 * its load. Every handle is confined to plain HTTP on 127.0.0.1: no
 * proxy from the environment, no redirects, no other protocol, so a
 * probe can never leave the machine.
 */
#include "pmbench/common.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <curl/curl.h>

#include "pmbench/buf.h"
#include "pmbench/ctx.h"
#include "pmbench/probe.h"
#include "pmbench/stats.h"

int pmbench_probe_check_url(const char *url)
{
	static const char prefix[] = "http://127.0.0.1";
	size_t n = sizeof(prefix) - 1;

	if (url && !strncmp(url, prefix, n) &&
	    (url[n] == '/' || url[n] == ':' || !url[n]) &&
	    !strchr(url + n, '@'))
		return 0;
	return pmbench_error_setc(PMBENCH_EINVALID,
				  "refusing to probe '%s': only "
				  "http://127.0.0.1 URLs are allowed",
				  url ? url : "(null)");
}

int pmbench_probe_free_port(unsigned *out)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), ret = 0;

	if (fd < 0)
		return pmbench_error_set("cannot make a socket: %s",
					 strerror(errno));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&sin, &len) < 0)
		ret = pmbench_error_set("cannot find a free port on "
					"127.0.0.1: %s",
					strerror(errno));
	else
		*out = ntohs(sin.sin_port);
	close(fd);
	return ret;
}

int pmbench_probe_port_open(unsigned port)
{
	struct sockaddr_in sin;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), ok;

	if (fd < 0)
		return 0;
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	do {
		ok = connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0;
	} while (!ok && errno == EINTR);
	close(fd);
	return ok;
}

/* The options every handle gets: loopback HTTP, nothing else. */
static int confine(CURL *h, const char *url, uint64_t timeout_ns)
{
	long ms = (long)((timeout_ns + 999999) / 1000000);
	CURLcode rc = CURLE_OK;

	if (ms < 1)
		ms = 1;
#define SET(opt, val)                                       \
	do {                                                \
		if (rc == CURLE_OK)                         \
			rc = curl_easy_setopt(h, opt, val); \
	} while (0)
	SET(CURLOPT_URL, url);
	SET(CURLOPT_PROXY, "");
	SET(CURLOPT_NOPROXY, "*");
	SET(CURLOPT_FOLLOWLOCATION, 0L);
	SET(CURLOPT_PROTOCOLS_STR, "http");
	SET(CURLOPT_TIMEOUT_MS, ms);
	SET(CURLOPT_CONNECTTIMEOUT_MS, ms);
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_FORBID_REUSE, 1L);
	SET(CURLOPT_ACCEPT_ENCODING, NULL);
	SET(CURLOPT_USERAGENT, "pmbench/" PMBENCH_VERSION);
#undef SET
	if (rc != CURLE_OK)
		return pmbench_error_set("cannot set up a request to '%s': %s",
					 url, curl_easy_strerror(rc));
	return 0;
}

static int status_of_line(const char *p, size_t n)
{
	int code = 0;

	if (n < 12 || strncmp(p, "HTTP/", 5))
		return 0;
	p += 5;
	n -= 5;
	while (n && *p != ' ') {
		p++;
		n--;
	}
	while (n && *p == ' ') {
		p++;
		n--;
	}
	for (int i = 0; i < 3 && n && *p >= '0' && *p <= '9'; i++, p++, n--)
		code = code * 10 + (*p - '0');
	return code;
}

/* ---- readiness ---- */

struct pmbench_ready_poll {
	CURLM *multi;
	CURL *easy;
	char *url;
	int in_flight;
	int head_status;  /* status of the attempt's final head */
	uint64_t bytes;	  /* body bytes of the attempt */
	uint64_t next_ns; /* when the next attempt may start */
	uint64_t gap_ns;
	uint64_t max_gap_ns;
	uint64_t attempt_timeout_ns;
	struct pmbench_ready_state *st;
	/* With a needle: the body of the attempt, and of the last answer. */
	char *needle;
	struct pmbench_buf body, last_body;
};

/* How much of a body a poller with a needle keeps. */
#define NEEDLE_BODY_MAX (8u << 20)

static size_t ready_header(char *p, size_t size, size_t n, void *payload)
{
	struct pmbench_ready_poll *rp = payload;
	size_t len = size * n;
	int code = status_of_line(p, len);

	if (code)
		rp->head_status = code;
	/* The blank line ends a head; 1xx heads are interim ones. */
	if ((len == 2 && p[0] == '\r') || (len == 1 && p[0] == '\n')) {
		if (rp->head_status >= 200 && rp->head_status < 500 && rp->st &&
		    !rp->st->first_status_ns)
			rp->st->first_status_ns = pmbench_now_ns();
	}
	return len;
}

static size_t ready_body(char *p, size_t size, size_t n, void *payload)
{
	struct pmbench_ready_poll *rp = payload;

	rp->bytes += size * n;
	if (rp->needle && rp->body.len + size * n <= NEEDLE_BODY_MAX)
		pmbench_buf_add(&rp->body, p, size * n);
	return size * n;
}

int pmbench_ready_poll_new(struct pmbench_ready_poll **out, const char *url,
			   uint64_t max_gap_ns, uint64_t attempt_timeout_ns)
{
	struct pmbench_ready_poll *p;
	int ret;

	*out = NULL;
	ret = pmbench_probe_check_url(url);
	if (ret < 0)
		return ret;
	ret = pmbench_ctx_libraries();
	if (ret < 0)
		return ret;
	p = pmbench_xcalloc(1, sizeof(*p));
	p->url = pmbench_xstrdup(url);
	pmbench_buf_init(&p->body);
	pmbench_buf_init(&p->last_body);
	p->multi = curl_multi_init();
	p->easy = curl_easy_init();
	p->gap_ns = 1000000;
	p->max_gap_ns = max_gap_ns ? max_gap_ns : 10000000;
	p->attempt_timeout_ns = attempt_timeout_ns;
	if (!p->multi || !p->easy) {
		pmbench_ready_poll_free(p);
		return pmbench_error_set("cannot create a libcurl handle");
	}
	ret = confine(p->easy, p->url, attempt_timeout_ns);
	if (!ret &&
	    (curl_easy_setopt(p->easy, CURLOPT_HEADERFUNCTION, ready_header) ||
	     curl_easy_setopt(p->easy, CURLOPT_HEADERDATA, p) ||
	     curl_easy_setopt(p->easy, CURLOPT_WRITEFUNCTION, ready_body) ||
	     curl_easy_setopt(p->easy, CURLOPT_WRITEDATA, p)))
		ret = pmbench_error_set("cannot set libcurl callbacks");
	if (ret < 0) {
		pmbench_ready_poll_free(p);
		return ret;
	}
	*out = p;
	return 0;
}

/* An attempt finished: classify it. */
static void ready_done(struct pmbench_ready_poll *p, CURLcode rc)
{
	struct pmbench_ready_state *st = p->st;
	long code = 0;

	curl_easy_getinfo(p->easy, CURLINFO_RESPONSE_CODE, &code);
	curl_multi_remove_handle(p->multi, p->easy);
	p->in_flight = 0;
	st->attempts++;
	if (code)
		st->last_status = (int)code;
	if (rc == CURLE_OK && code >= 200 && code < 500 && p->needle) {
		pmbench_buf_reset(&p->last_body);
		pmbench_buf_add(&p->last_body, p->body.ptr, p->body.len);
		if (!strstr(p->body.ptr, p->needle)) {
			/* An answer without the needle: poll again. */
			st->stale++;
			snprintf(st->last_error, sizeof(st->last_error),
				 "HTTP status %ld without the text looked for",
				 code);
			goto again;
		}
	}
	if (rc == CURLE_OK && code >= 200 && code < 500) {
		st->body_ns = pmbench_now_ns();
		if (!st->first_status_ns)
			st->first_status_ns = st->body_ns;
		st->status = (int)code;
		st->body_bytes = p->bytes;
		return;
	}
	if (rc == CURLE_OK && code >= 500)
		st->errors_5xx++;
	else if (rc == CURLE_COULDNT_CONNECT)
		st->refused++;
	else if (rc == CURLE_OPERATION_TIMEDOUT)
		st->timeouts++;
	else
		st->other_errors++;
	if (rc != CURLE_OK)
		snprintf(st->last_error, sizeof(st->last_error), "%s",
			 curl_easy_strerror(rc));
	else
		snprintf(st->last_error, sizeof(st->last_error),
			 "HTTP status %ld", code);
again:
	p->next_ns = pmbench_now_ns() + p->gap_ns;
	p->gap_ns *= 2;
	if (p->gap_ns > p->max_gap_ns)
		p->gap_ns = p->max_gap_ns;
}

int pmbench_ready_poll_step(struct pmbench_ready_poll *p, uint64_t wait_ns,
			    struct pmbench_ready_state *st)
{
	uint64_t now = pmbench_now_ns(), until = now + wait_ns;

	p->st = st;
	for (;;) {
		CURLMsg *msg;
		int running = 0, left = 0;
		uint64_t wake;
		int ms;

		if (st->body_ns)
			return 1;
		now = pmbench_now_ns();
		if (!p->in_flight && now >= p->next_ns) {
			p->head_status = 0;
			p->bytes = 0;
			pmbench_buf_reset(&p->body);
			if (curl_multi_add_handle(p->multi, p->easy) !=
			    CURLM_OK)
				return pmbench_error_set("cannot start a "
							 "request to '%s'",
							 p->url);
			p->in_flight = 1;
		}
		if (curl_multi_perform(p->multi, &running) != CURLM_OK)
			return pmbench_error_set("libcurl failed polling '%s'",
						 p->url);
		while ((msg = curl_multi_info_read(p->multi, &left)))
			if (msg->msg == CURLMSG_DONE)
				ready_done(p, msg->data.result);
		if (st->body_ns)
			return 1;
		now = pmbench_now_ns();
		if (now >= until)
			return 0;
		wake = until;
		if (!p->in_flight && p->next_ns < wake)
			wake = p->next_ns > now ? p->next_ns : now;
		ms = (int)((wake - now + 999999) / 1000000);
		if (ms < 1 && p->in_flight)
			ms = 1;
		if (ms > 0 &&
		    curl_multi_poll(p->multi, NULL, 0, ms, NULL) != CURLM_OK)
			return pmbench_error_set("libcurl failed waiting on "
						 "'%s'",
						 p->url);
	}
}

void pmbench_ready_poll_free(struct pmbench_ready_poll *p)
{
	if (!p)
		return;
	if (p->multi && p->easy && p->in_flight)
		curl_multi_remove_handle(p->multi, p->easy);
	if (p->easy)
		curl_easy_cleanup(p->easy);
	if (p->multi)
		curl_multi_cleanup(p->multi);
	free(p->url);
	free(p->needle);
	pmbench_buf_release(&p->body);
	pmbench_buf_release(&p->last_body);
	free(p);
}

void pmbench_ready_poll_rearm(struct pmbench_ready_poll *p, const char *needle)
{
	free(p->needle);
	p->needle = needle ? pmbench_xstrdup(needle) : NULL;
	pmbench_buf_reset(&p->last_body);
	p->gap_ns = 1000000;
	p->next_ns = 0;
}

const char *pmbench_ready_poll_last_body(const struct pmbench_ready_poll *p)
{
	return p->last_body.ptr;
}

/* ---- load probe ---- */

struct slot {
	CURL *easy;
	uint64_t bytes;
	int busy;
};

static size_t slot_body(char *p, size_t size, size_t n, void *payload)
{
	struct slot *s = payload;

	(void)p;
	s->bytes += size * n;
	return size * n;
}

static void count_status(struct pmbench_probe_stats *out, int code)
{
	size_t i;

	for (i = 0; i < out->statuses_nr; i++)
		if (out->statuses[i].code == code) {
			out->statuses[i].count++;
			return;
		}
	if (out->statuses_nr == PMBENCH_ARRAY_SIZE(out->statuses))
		return;
	/* Keep them ascending. */
	for (i = out->statuses_nr; i > 0 && out->statuses[i - 1].code > code;
	     i--)
		out->statuses[i] = out->statuses[i - 1];
	out->statuses[i].code = code;
	out->statuses[i].count = 1;
	out->statuses_nr++;
}

/* One load probe's state, from probe_open() to probe_close(). */
struct probe {
	const char *url;
	struct pmbench_probe_stats *out;
	CURLM *multi;
	struct slot *slots;
	unsigned conc, started, inflight;
	double *lat; /* each successful request's latency, in seconds */
	size_t lat_nr;
	uint64_t last; /* when the last request ended */
};

/* `conc` easy handles confined to `url`, and the multi handle. */
static int probe_open(struct probe *pr, const struct pmbench_probe_opts *o)
{
	int ret;

	pr->slots = pmbench_xcalloc(pr->conc, sizeof(*pr->slots));
	pr->lat = pmbench_xcalloc(o->requests, sizeof(*pr->lat));
	pr->multi = curl_multi_init();
	if (!pr->multi)
		return pmbench_error_set("cannot create a libcurl handle");
	for (unsigned i = 0; i < pr->conc; i++) {
		struct slot *sl = &pr->slots[i];

		sl->easy = curl_easy_init();
		if (!sl->easy)
			return pmbench_error_set("cannot create a libcurl "
						 "handle");
		ret = confine(sl->easy, pr->url,
			      o->req_timeout_ns ? o->req_timeout_ns
						: 10000000000ull);
		if (ret < 0)
			return ret;
		curl_easy_setopt(sl->easy, CURLOPT_WRITEFUNCTION, slot_body);
		curl_easy_setopt(sl->easy, CURLOPT_WRITEDATA, sl);
		curl_easy_setopt(sl->easy, CURLOPT_PRIVATE, sl);
	}
	return 0;
}

/* Start a request on every idle slot, up to `requests` in all, until `cap`. */
static int probe_fill(struct probe *pr, unsigned requests, uint64_t cap)
{
	for (unsigned i = 0; i < pr->conc && pr->started < requests; i++) {
		struct slot *sl = &pr->slots[i];

		if (sl->busy)
			continue;
		if (pmbench_now_ns() >= cap) {
			pr->out->capped = 1;
			break;
		}
		sl->bytes = 0;
		if (curl_multi_add_handle(pr->multi, sl->easy) != CURLM_OK)
			return pmbench_error_set("cannot start a request to "
						 "'%s'",
						 pr->url);
		sl->busy = 1;
		pr->started++;
		pr->inflight++;
	}
	return 0;
}

/* Count one finished request: its status, bytes, latency or error. */
static void probe_finished(struct probe *pr, CURLMsg *msg)
{
	struct pmbench_probe_stats *out = pr->out;
	struct slot *sl = NULL;
	curl_off_t us = 0;
	long code = 0;

	curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&sl);
	curl_easy_getinfo(msg->easy_handle, CURLINFO_RESPONSE_CODE, &code);
	curl_easy_getinfo(msg->easy_handle, CURLINFO_TOTAL_TIME_T, &us);
	curl_multi_remove_handle(pr->multi, msg->easy_handle);
	sl->busy = 0;
	pr->inflight--;
	out->requests++;
	out->bytes_in += sl->bytes;
	if (code > 0)
		count_status(out, (int)code);
	if (msg->data.result == CURLE_OK && code > 0) {
		pr->lat[pr->lat_nr++] = (double)us / 1e6;
		if (code >= 200 && code < 400)
			out->ok++;
	} else if (msg->data.result != CURLE_OK) {
		out->errors++;
		if (!out->first_error[0])
			snprintf(out->first_error, sizeof(out->first_error),
				 "%s", curl_easy_strerror(msg->data.result));
	}
	pr->last = pmbench_now_ns();
}

/* The latency summary of the successful requests. */
static void probe_latencies(struct probe *pr)
{
	struct pmbench_probe_stats *out = pr->out;
	double *lat = pr->lat, sum = 0;
	size_t n = pr->lat_nr;

	if (!n)
		return;
	pmbench_stats_sort(lat, n);
	for (size_t i = 0; i < n; i++)
		sum += lat[i];
	out->lat_min = lat[0];
	out->lat_max = lat[n - 1];
	out->lat_mean = sum / (double)n;
	out->lat_p50 = pmbench_stats_quantile(lat, n, 0.50);
	out->lat_p90 = pmbench_stats_quantile(lat, n, 0.90);
	out->lat_p95 = pmbench_stats_quantile(lat, n, 0.95);
	out->lat_p99 = pmbench_stats_quantile(lat, n, 0.99);
}

static void probe_close(struct probe *pr)
{
	for (unsigned i = 0; pr->slots && i < pr->conc; i++) {
		if (pr->slots[i].easy && pr->slots[i].busy)
			curl_multi_remove_handle(pr->multi, pr->slots[i].easy);
		if (pr->slots[i].easy)
			curl_easy_cleanup(pr->slots[i].easy);
	}
	if (pr->multi)
		curl_multi_cleanup(pr->multi);
	free(pr->slots);
	free(pr->lat);
}

int pmbench_probe_run(struct pmbench_probe_stats *out, const char *url,
		      const struct pmbench_probe_opts *o,
		      pmbench_probe_tick_cb tick, void *payload)
{
	struct probe pr;
	uint64_t t0, cap;
	int ret;

	memset(out, 0, sizeof(*out));
	memset(&pr, 0, sizeof(pr));
	ret = pmbench_probe_check_url(url);
	if (ret < 0)
		return ret;
	if (!o->requests || !o->concurrency)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "a probe needs at least one request "
					  "and a concurrency of one");
	ret = pmbench_ctx_libraries();
	if (ret < 0)
		return ret;
	pr.url = url;
	pr.out = out;
	pr.conc = o->concurrency < o->requests ? o->concurrency : o->requests;
	ret = probe_open(&pr, o);
	if (ret < 0)
		goto done;
	t0 = pmbench_now_ns();
	cap = o->time_cap_ns ? t0 + o->time_cap_ns : UINT64_MAX;
	for (;;) {
		CURLMsg *msg;
		int running = 0, left = 0;

		ret = probe_fill(&pr, o->requests, cap);
		if (ret < 0 || !pr.inflight)
			break;
		if (curl_multi_perform(pr.multi, &running) != CURLM_OK) {
			ret = pmbench_error_set("libcurl failed probing '%s'",
						url);
			break;
		}
		while ((msg = curl_multi_info_read(pr.multi, &left)))
			if (msg->msg == CURLMSG_DONE)
				probe_finished(&pr, msg);
		if (tick)
			tick(payload);
		if (pr.inflight && running &&
		    curl_multi_poll(pr.multi, NULL, 0, 5, NULL) != CURLM_OK) {
			ret = pmbench_error_set("libcurl failed waiting on "
						"'%s'",
						url);
			break;
		}
	}
	if (ret < 0)
		goto done;
	out->duration_s = pr.last > t0 ? (double)(pr.last - t0) / 1e9 : 0;
	out->ok_ratio = out->requests ? (double)out->ok / out->requests : 0;
	probe_latencies(&pr);
	ret = 0;
done:
	probe_close(&pr);
	return ret;
}
