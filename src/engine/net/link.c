/*
 * The emulated link (`--link RTT,BANDWIDTH`): a relay on 127.0.0.1 in a
 * thread of pmbench, between the package managers and the registry
 * mirror. Bytes read from one side become chunks with a due time: the
 * chunk leaves the serial link once every earlier chunk in that
 * direction, of any connection, has left (one shared cap per
 * direction, as a full-duplex link has), and arrives half the RTT
 * later. A half-close travels the same way. TCP's own dynamics on such
 * a link (slow start, window limits) are not emulated: like pnpm's
 * benchmark proxy, the link adds delay and a shared rate, nothing else.
 */
#include "pmbench/common.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "pmbench/link.h"
#include "pmbench/peer.h"

#define CHUNK 16384
/* Bytes queued per direction of a connection before it stops reading. */
#define QUEUE_MAX (32u << 20)
#define CONNS_MAX 256

struct chunk {
	struct chunk *next;
	uint64_t due; /* monotonic ns when it may be written */
	size_t len, off;
	int eof; /* a half-close, no bytes */
	char data[];
};

struct dir {
	struct chunk *head, *tail;
	size_t queued;
	int eof_read; /* the source said end of file */
	int eof_sent; /* the half-close was passed on */
};

struct conn {
	int fd[2];	 /* 0: the client, 1: the mirror */
	struct dir d[2]; /* d[i]: from fd[i] to fd[1 - i] */
	int connecting;	 /* fd[1]'s connect is in progress */
};

struct pmbench_link {
	struct pmbench_link_spec spec;
	int listen_fd;
	int port, target_port;
	int wake[2];
	pthread_t thread;
	int started;
	int shaping; /* set by any thread, read by the relay's (atomics) */
	int stop;    /* likewise */
	uint64_t link_free[2]; /* when each direction's link is idle */
	struct conn *conns[CONNS_MAX];
	int max_conns; /* CONNS_MAX, or less under a low descriptor limit */
	struct pmbench_peer_cache peers; /* the relay thread's */
};

static int parse_scaled(uint64_t *out, const char *s, size_t n,
			const char *const *units, const double *scale)
{
	char num[64], *end;
	double v;

	if (!n || n >= sizeof(num))
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	v = strtod(num, &end);
	/* NaN fails both comparisons: refused too. */
	if (end == num || !(v >= 0 && v <= 1e15))
		return -1;
	for (size_t i = 0; units[i]; i++) {
		if (!strcmp(end, units[i])) {
			*out = (uint64_t)(v * scale[i] + 0.5);
			return 0;
		}
	}
	return -1;
}

int pmbench_link_parse(struct pmbench_link_spec *out, const char *text)
{
	static const char *const t_units[] = { "ms", "s", "us", NULL };
	static const double t_scale[] = { 1e6, 1e9, 1e3 };
	static const char *const b_units[] = { "bit", "kbit", "mbit", "gbit",
					       NULL };
	static const double b_scale[] = { 1, 1e3, 1e6, 1e9 };
	const char *comma = strchr(text, ',');
	struct pmbench_link_spec s = PMBENCH_LINK_SPEC_INIT;

	if (!strcmp(text, "none")) {
		*out = s;
		return 0;
	}
	if (!comma ||
	    parse_scaled(&s.rtt_ns, text, (size_t)(comma - text), t_units,
			 t_scale) < 0 ||
	    parse_scaled(&s.bits_per_s, comma + 1, strlen(comma + 1), b_units,
			 b_scale) < 0 ||
	    s.rtt_ns > 60ull * 1000000000ull ||
	    (s.bits_per_s && s.bits_per_s < 8000))
		return pmbench_error_setc(
			PMBENCH_EINVALID,
			"'%s' is not a link; use RTT,BANDWIDTH such as "
			"'50ms,200mbit' (RTT in ms, s or us, at most 60 s; "
			"bandwidth in bit, kbit, mbit or gbit, at least 8kbit)"
			" or 'none'",
			text);
	*out = s;
	return 0;
}

int pmbench_link_none(const struct pmbench_link_spec *spec)
{
	return !spec->rtt_ns && !spec->bits_per_s;
}

void pmbench_link_describe(struct pmbench_buf *out,
			   const struct pmbench_link_spec *spec)
{
	if (pmbench_link_none(spec)) {
		pmbench_buf_adds(out, "none");
		return;
	}
	pmbench_buf_addf(out,
			 "%g ms RTT, %g Mbit/s shared by all connections "
			 "(each direction)",
			 (double)spec->rtt_ns / 1e6,
			 (double)spec->bits_per_s / 1e6);
}

double pmbench_link_model_s(const struct pmbench_link_spec *spec,
			    uint64_t request_bytes, uint64_t response_bytes)
{
	double t = (double)spec->rtt_ns / 1e9;

	if (spec->bits_per_s)
		t += (double)(request_bytes + response_bytes) * 8.0 /
		     (double)spec->bits_per_s;
	return t;
}

static int nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static void free_conn(struct conn *c)
{
	for (int i = 0; i < 2; i++) {
		struct chunk *k = c->d[i].head;

		while (k) {
			struct chunk *next = k->next;

			free(k);
			k = next;
		}
		if (c->fd[i] >= 0)
			close(c->fd[i]);
	}
	free(c);
}

/* A new chunk at the end of direction `i` of `c`, with its due time. */
static void enqueue(struct pmbench_link *l, struct conn *c, int i,
		    const char *data, size_t len)
{
	struct chunk *k = pmbench_xmalloc(sizeof(*k) + len);
	uint64_t now = pmbench_now_ns(), depart = now;

	if (__atomic_load_n(&l->shaping, __ATOMIC_SEQ_CST)) {
		if (l->link_free[i] > depart)
			depart = l->link_free[i];
		if (l->spec.bits_per_s)
			depart += (uint64_t)((double)len * 8e9 /
					     (double)l->spec.bits_per_s);
		l->link_free[i] = depart;
		depart += l->spec.rtt_ns / 2;
	}
	k->next = NULL;
	k->due = depart;
	k->len = len;
	k->off = 0;
	k->eof = !len;
	if (len)
		memcpy(k->data, data, len);
	if (c->d[i].tail)
		c->d[i].tail->next = k;
	else
		c->d[i].head = k;
	c->d[i].tail = k;
	c->d[i].queued += len;
}

/*
 * Connect from the address that tells the front whose client this is
 * (peer.h): 127.0.0.3 for what pmbench runs, 127.0.0.2 for another
 * program's. Should the address not be there, from 127.0.0.1, and the
 * front finds pmbench itself (counted as the run's).
 */
static void bind_as(int fd, enum pmbench_peer who)
{
	struct sockaddr_in a;

	if (who != PMBENCH_PEER_CHILD && who != PMBENCH_PEER_OTHER)
		return;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(who == PMBENCH_PEER_CHILD
					  ? PMBENCH_PEER_RELAY_CHILD
					  : PMBENCH_PEER_RELAY_OTHER);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		/* As said above. */
	}
}

static void accept_one(struct pmbench_link *l)
{
	struct sockaddr_in a;
	struct conn *c;
	int fd = accept(l->listen_fd, NULL, NULL), slot = -1, one = 1;

	if (fd < 0)
		return;
	for (int i = 0; i < l->max_conns && slot < 0; i++)
		if (!l->conns[i])
			slot = i;
	if (slot < 0) {
		close(fd);
		return;
	}
	c = pmbench_xcalloc(1, sizeof(*c));
	c->fd[0] = fd;
	c->fd[1] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)l->target_port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (c->fd[1] >= 0)
		bind_as(c->fd[1], pmbench_peer_of(fd, &l->peers));
	if (c->fd[1] < 0 || nonblock(fd) < 0 || nonblock(c->fd[1]) < 0) {
		free_conn(c);
		return;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(c->fd[1], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(c->fd[1], (struct sockaddr *)&a, sizeof(a)) < 0) {
		if (errno != EINPROGRESS) {
			free_conn(c);
			return;
		}
		c->connecting = 1;
	}
	l->conns[slot] = c;
}

/* Read what direction `i` has; returns -1 when the connection is dead. */
static int pull(struct pmbench_link *l, struct conn *c, int i)
{
	char buf[CHUNK];
	ssize_t n = read(c->fd[i], buf, sizeof(buf));

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	if (n == 0) {
		c->d[i].eof_read = 1;
		enqueue(l, c, i, NULL, 0);
		return 0;
	}
	enqueue(l, c, i, buf, (size_t)n);
	return 0;
}

/* Write what of direction `i` is due; returns -1 when dead. */
static int push(struct conn *c, int i, uint64_t now)
{
	struct dir *d = &c->d[i];

	while (d->head && d->head->due <= now) {
		struct chunk *k = d->head;

		if (k->eof) {
			shutdown(c->fd[1 - i], SHUT_WR);
			d->eof_sent = 1;
		} else {
			ssize_t n = send(c->fd[1 - i], k->data + k->off,
					 k->len - k->off, MSG_NOSIGNAL);

			if (n < 0)
				return errno == EAGAIN || errno == EINTR ? 0
									 : -1;
			k->off += (size_t)n;
			d->queued -= (size_t)n;
			if (k->off < k->len)
				return 0;
		}
		d->head = k->next;
		if (!d->head)
			d->tail = NULL;
		free(k);
	}
	return 0;
}

/* The poll events of one side, and the earliest due time in *next. */
static short events_of(const struct conn *c, int side, uint64_t now,
		       uint64_t *next)
{
	short ev = 0;
	const struct dir *in = &c->d[side], *out = &c->d[1 - side];

	if (c->connecting)
		return side == 1 ? POLLOUT : 0;
	if (!in->eof_read && in->queued < QUEUE_MAX)
		ev |= POLLIN;
	if (out->head) {
		if (out->head->due <= now)
			ev |= POLLOUT;
		else if (out->head->due < *next)
			*next = out->head->due;
	}
	return ev;
}

static int conn_done(const struct conn *c)
{
	return c->d[0].eof_sent && c->d[1].eof_sent;
}

/* One pass of the loop over every connection, after poll(). */
static void serve(struct pmbench_link *l, struct pollfd *p, int *idx)
{
	uint64_t now = pmbench_now_ns();

	for (int s = 0; s < CONNS_MAX; s++) {
		struct conn *c = l->conns[s];
		int dead = 0;

		if (!c || idx[s] < 0)
			continue;
		for (int side = 0; side < 2 && !dead; side++) {
			short re = p[idx[s] + side].revents;

			if (c->connecting && side == 1 && re) {
				int err = 0;
				socklen_t len = sizeof(err);

				getsockopt(c->fd[1], SOL_SOCKET, SO_ERROR, &err,
					   &len);
				dead = err != 0;
				c->connecting = 0;
				continue;
			}
			if (re & (POLLIN | POLLHUP | POLLERR) &&
			    !c->d[side].eof_read)
				dead = pull(l, c, side) < 0;
		}
		for (int side = 0; side < 2 && !dead && !c->connecting; side++)
			dead = push(c, side, now) < 0;
		if (dead || conn_done(c)) {
			free_conn(c);
			l->conns[s] = NULL;
		}
	}
}

static void *relay(void *arg)
{
	struct pmbench_link *l = arg;
	struct pollfd p[2 + 2 * CONNS_MAX];
	int idx[CONNS_MAX];

	while (!__atomic_load_n(&l->stop, __ATOMIC_SEQ_CST)) {
		uint64_t now = pmbench_now_ns(), next = UINT64_MAX;
		nfds_t n = 2;
		int timeout = -1;

		p[0].fd = l->listen_fd;
		p[0].events = POLLIN;
		p[1].fd = l->wake[0];
		p[1].events = POLLIN;
		for (int s = 0; s < CONNS_MAX; s++) {
			struct conn *c = l->conns[s];

			idx[s] = -1;
			if (!c)
				continue;
			idx[s] = (int)n;
			for (int side = 0; side < 2; side++) {
				p[n].events = events_of(c, side, now, &next);
				/* Nothing to wait for: no busy POLLHUP. */
				p[n].fd = p[n].events ? c->fd[side] : -1;
				p[n].revents = 0;
				n++;
			}
		}
		if (next != UINT64_MAX)
			timeout = (int)((next - now + 999999) / 1000000);
		p[0].revents = p[1].revents = 0;
		if (poll(p, n, timeout) < 0 && errno != EINTR)
			break;
		if (p[1].revents)
			break;
		if (p[0].revents & POLLIN)
			accept_one(l);
		serve(l, p, idx);
	}
	return NULL;
}

static int listen_on_free_port(int *out_fd, int *out_port)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;

	if (fd < 0)
		return pmbench_error_set("link: socket: %s", strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(fd, 128) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) < 0 ||
	    nonblock(fd) < 0) {
		int e = errno;

		close(fd);
		return pmbench_error_set("link: cannot listen on 127.0.0.1: "
					 "%s",
					 strerror(e));
	}
	*out_fd = fd;
	*out_port = ntohs(a.sin_port);
	return 0;
}

/*
 * Connections at most: CONNS_MAX, or what a sixteenth of the descriptor
 * limit allows at two descriptors each, so that pmbench keeps its own.
 */
static int conns_limit(void)
{
	struct rlimit rl;
	rlim_t n;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		return CONNS_MAX;
	n = rl.rlim_cur / 16;
	return n < 8 ? 8 : n > CONNS_MAX ? CONNS_MAX : (int)n;
}

int pmbench_link_start(struct pmbench_link **out,
		       const struct pmbench_link_spec *spec, int target_port)
{
	struct pmbench_link *l = pmbench_xcalloc(1, sizeof(*l));
	sigset_t all, old;
	int ret, e;

	*out = NULL;
	l->spec = *spec;
	l->target_port = target_port;
	l->max_conns = conns_limit();
	l->wake[0] = l->wake[1] = -1;
	ret = listen_on_free_port(&l->listen_fd, &l->port);
	if (ret < 0) {
		free(l);
		return ret;
	}
	if (pipe(l->wake) < 0) {
		e = errno;
		pmbench_link_stop(l);
		return pmbench_error_set("link: pipe: %s", strerror(e));
	}
	fcntl(l->wake[0], F_SETFD, FD_CLOEXEC);
	fcntl(l->wake[1], F_SETFD, FD_CLOEXEC);
	/* Signals stay with the program's own thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&l->thread, NULL, relay, l);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		pmbench_link_stop(l);
		return pmbench_error_set("link: thread: %s", strerror(e));
	}
	l->started = 1;
	*out = l;
	return 0;
}

int pmbench_link_port(const struct pmbench_link *l)
{
	return l->port;
}

void pmbench_link_shape(struct pmbench_link *l, int on)
{
	/* Read by the relay thread at each chunk; a stale read is harmless. */
	__atomic_store_n(&l->shaping, on, __ATOMIC_SEQ_CST);
}

void pmbench_link_stop(struct pmbench_link *l)
{
	if (!l)
		return;
	if (l->started) {
		__atomic_store_n(&l->stop, 1, __ATOMIC_SEQ_CST);
		if (write(l->wake[1], "x", 1) < 0) {
			/* The pipe is empty and ours: it cannot fail. */
		}
		pthread_join(l->thread, NULL);
	}
	for (int s = 0; s < CONNS_MAX; s++)
		if (l->conns[s])
			free_conn(l->conns[s]);
	if (l->listen_fd >= 0)
		close(l->listen_fd);
	if (l->wake[0] >= 0)
		close(l->wake[0]);
	if (l->wake[1] >= 0)
		close(l->wake[1]);
	free(l);
}
