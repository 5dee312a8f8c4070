/*
 * A fake dev server for pmbench's integration tests. It prints a ready
 * line and serves HTTP on 127.0.0.1 only, in an order and with a
 * misbehaviour chosen by --mode. tests/fakes/README.md lists every knob.
 */
#include "pmbench/common.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmbench/buf.h"

#define MAX_CONNS 32
#define HEAD_MAX  16384
/* A client that has not sent a whole request head by then is dropped. */
#define IDLE_NS (10 * 1000000000ull)

enum mode {
	PRINT_THEN_LISTEN,
	LISTEN_THEN_PRINT,
	NEVER_LISTEN,
	EXIT_NOW,
	IGNORE_TERM,
	GRANDCHILD,
	ERROR500,
	OTHER_PORT,
	NEVER_UPDATE,
};

static const char *const mode_names[] = {
	"print-then-listen", "listen-then-print", "never-listen",
	"exit-now",	     "ignore-term",	  "grandchild",
	"error500",	     "other-port",	  "never-update",
};

struct conn {
	int fd;
	uint64_t t0;
	size_t len;
	char head[HEAD_MAX];
};

struct server {
	/* Options. */
	uint64_t port, ready_ms, listen_ms, status, body_bytes, update_ms;
	enum mode mode;
	struct pmbench_buf ready_text;
	const char *file;      /* --serve-file: its content is the body */
	const char *texts_log; /* --texts-log: every text seen, appended */
	/* The body served, the file's latest text, and when it is served. */
	struct pmbench_buf body, seen;
	uint64_t switch_at;
	int file_read;
	/* State. */
	int fd;
	uint64_t served;
	size_t nconns;
	struct conn conns[MAX_CONNS];
};

/* SIGTERM and SIGINT write a byte here; every wait polls the read end. */
static int sig_pipe[2] = { -1, -1 };

static void on_signal(int sig)
{
	int saved = errno;
	ssize_t n = write(sig_pipe[1], "", 1);

	(void)sig;
	(void)n;
	errno = saved;
}

static int setup_signals(int ignore_term)
{
	struct sigaction sa;
	int i;

	for (i = 0; i < 2; i++)
		if (sig_pipe[i] >= 0)
			close(sig_pipe[i]);
	if (pipe(sig_pipe) < 0) {
		fprintf(stderr, "fake server: cannot make a pipe: %s\n",
			strerror(errno));
		return -1;
	}
	for (i = 0; i < 2; i++)
		fcntl(sig_pipe[i], F_SETFL, O_NONBLOCK);
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	if (ignore_term)
		sa.sa_handler = SIG_IGN;
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	return 0;
}

/* Milliseconds until `end`, rounded up so that waits never spin. */
static int ms_until(uint64_t end)
{
	uint64_t now = pmbench_now_ns(), ms;

	if (now >= end)
		return 0;
	ms = (end - now + 999999) / 1000000;
	return ms > 1000000 ? 1000000 : (int)ms;
}

/* Sleep `ms` (forever when `forever`); 1 if SIGTERM/SIGINT came first. */
static int pause_ms(uint64_t ms, int forever)
{
	uint64_t end = pmbench_now_ns() + ms * 1000000;
	struct pollfd p;
	int t;

	for (;;) {
		t = forever ? -1 : ms_until(end);
		if (!t)
			return 0;
		p.fd = sig_pipe[0];
		p.events = POLLIN;
		p.revents = 0;
		if (poll(&p, 1, t) > 0)
			return 1;
	}
}

static void print_ready(const struct server *s)
{
	printf("%s\n", s->ready_text.ptr);
	fflush(stdout);
}

/* Bind 127.0.0.1:port (listening comes later); learns the real port. */
static int open_socket(struct server *s)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int one = 1;

	s->fd = socket(AF_INET, SOCK_STREAM, 0);
	if (s->fd < 0) {
		fprintf(stderr, "fake server: cannot make a socket: %s\n",
			strerror(errno));
		return -1;
	}
	setsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)s->port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s->fd, (struct sockaddr *)&sin, sizeof(sin)) < 0 ||
	    getsockname(s->fd, (struct sockaddr *)&sin, &len) < 0) {
		fprintf(stderr, "fake server: cannot bind 127.0.0.1:%u: %s\n",
			(unsigned)s->port, strerror(errno));
		return -1;
	}
	s->port = ntohs(sin.sin_port);
	return 0;
}

static int start_listening(struct server *s)
{
	if (listen(s->fd, 128) < 0 || fcntl(s->fd, F_SETFL, O_NONBLOCK) < 0) {
		fprintf(stderr,
			"fake server: cannot listen on 127.0.0.1:%u: "
			"%s\n",
			(unsigned)s->port, strerror(errno));
		return -1;
	}
	return 0;
}

static int send_all(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len) {
		n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Answer the request head in `c` and count it. */
static void respond(struct server *s, struct conn *c)
{
	static char xs[65536];
	struct pmbench_buf head = PMBENCH_BUF_INIT, count = PMBENCH_BUF_INIT;
	char *path = strchr(c->head, ' '), *end;
	uint64_t left = s->body_bytes;
	int is_head = !strncmp(c->head, "HEAD ", 5);
	size_t n;

	if (!xs[0])
		memset(xs, 'x', sizeof(xs));
	path = path ? path + 1 : c->head;
	end = path + strcspn(path, " ?\r\n");
	if (end - path == 6 && !strncmp(path, "/count", 6)) {
		/* The requests answered before this one. */
		pmbench_buf_addf(&count, "%llu", (unsigned long long)s->served);
		left = count.len;
	} else if (s->file) {
		pmbench_buf_add(&count, s->body.ptr, s->body.len);
		left = count.len;
	}
	pmbench_buf_addf(&head,
			 "HTTP/1.1 %u OK\r\nContent-Type: text/plain\r\n"
			 "Content-Length: %llu\r\nConnection: close\r\n\r\n",
			 (unsigned)s->status, (unsigned long long)left);
	if (is_head)
		left = 0;
	if (send_all(c->fd, head.ptr, head.len) < 0)
		goto done;
	if (count.len && left && send_all(c->fd, count.ptr, count.len) < 0)
		goto done;
	while (!count.len && left) {
		n = left < sizeof(xs) ? (size_t)left : sizeof(xs);
		if (send_all(c->fd, xs, n) < 0)
			goto done;
		left -= n;
	}
	shutdown(c->fd, SHUT_WR);
done:
	s->served++;
	pmbench_buf_release(&head);
	pmbench_buf_release(&count);
}

static void drop(struct server *s, size_t i)
{
	close(s->conns[i].fd);
	s->nconns--;
	if (i != s->nconns) {
		s->conns[i].fd = s->conns[s->nconns].fd;
		s->conns[i].t0 = s->conns[s->nconns].t0;
		s->conns[i].len = s->conns[s->nconns].len;
		memcpy(s->conns[i].head, s->conns[s->nconns].head,
		       s->conns[i].len + 1);
	}
}

/* Read what connection i sent; answer and drop it once the head is in. */
static void on_readable(struct server *s, size_t i)
{
	struct conn *c = &s->conns[i];
	ssize_t n;

	n = read(c->fd, c->head + c->len, HEAD_MAX - 1 - c->len);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		drop(s, i);
		return;
	}
	c->len += (size_t)n;
	c->head[c->len] = '\0';
	if (strstr(c->head, "\r\n\r\n"))
		respond(s, c);
	else if (c->len < HEAD_MAX - 1)
		return;
	drop(s, i);
}

static void accept_all(struct server *s)
{
	struct timeval tv = { 5, 0 };
	struct conn *c;
	int fd;

	while (s->nconns < MAX_CONNS) {
		fd = accept(s->fd, NULL, NULL);
		if (fd < 0)
			return;
		/* A client that stops reading must not wedge the server. */
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		c = &s->conns[s->nconns++];
		c->fd = fd;
		c->t0 = pmbench_now_ns();
		c->len = 0;
		c->head[0] = '\0';
	}
}

/* --texts-log: each new text of the served file, then a line "----". */
static void log_text(const struct server *s, const struct pmbench_buf *text)
{
	int fd;
	ssize_t n;

	if (!s->texts_log)
		return;
	fd = open(s->texts_log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
		  0644);
	if (fd < 0)
		return;
	n = write(fd, text->ptr, text->len);
	n = write(fd, "----\n", 5);
	(void)n;
	close(fd);
}

/*
 * --serve-file: read the file; a new text is served --update-delay-ms
 * after it was first seen (never in never-update, which keeps the
 * first text), as a dev server that needs that long to rebuild.
 */
static void watch_file(struct server *s)
{
	struct pmbench_buf now = PMBENCH_BUF_INIT;
	int fd;
	char chunk[4096];
	ssize_t n;

	if (!s->file)
		return;
	fd = open(s->file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		pmbench_buf_add(&now, chunk, (size_t)n);
	close(fd);
	if (!s->file_read) {
		pmbench_buf_add(&s->body, now.ptr, now.len);
		pmbench_buf_add(&s->seen, now.ptr, now.len);
		s->file_read = 1;
		log_text(s, &now);
	} else if (now.len != s->seen.len ||
		   memcmp(now.ptr, s->seen.ptr, now.len)) {
		pmbench_buf_reset(&s->seen);
		pmbench_buf_add(&s->seen, now.ptr, now.len);
		if (s->mode != NEVER_UPDATE)
			s->switch_at =
				pmbench_now_ns() + s->update_ms * 1000000;
		log_text(s, &now);
	}
	if (s->switch_at && pmbench_now_ns() >= s->switch_at) {
		pmbench_buf_reset(&s->body);
		pmbench_buf_add(&s->body, s->seen.ptr, s->seen.len);
		s->switch_at = 0;
	}
	pmbench_buf_release(&now);
}

/*
 * Serve until SIGTERM/SIGINT (returns 0) or a poll error (-1). When
 * `print_at` is set, the ready line goes out at that time.
 */
static int serve(struct server *s, uint64_t print_at)
{
	struct pollfd pfd[2 + MAX_CONNS];
	size_t i;
	int t;

	for (;;) {
		if (print_at && !ms_until(print_at)) {
			print_ready(s);
			print_at = 0;
		}
		t = print_at && ms_until(print_at) < 1000 ? ms_until(print_at)
							  : 1000;
		/* A served file is looked at every millisecond. */
		watch_file(s);
		if (s->file)
			t = 1;
		pfd[0].fd = sig_pipe[0];
		pfd[1].fd = s->nconns < MAX_CONNS ? s->fd : -1;
		for (i = 0; i < s->nconns; i++)
			pfd[2 + i].fd = s->conns[i].fd;
		for (i = 0; i < 2 + s->nconns; i++) {
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
		}
		if (poll(pfd, 2 + s->nconns, t) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "fake server: poll failed: %s\n",
				strerror(errno));
			return -1;
		}
		if (pfd[0].revents)
			return 0;
		/* Backwards, so drop() only moves connections already seen. */
		for (i = s->nconns; i-- > 0;) {
			if (pfd[2 + i].revents)
				on_readable(s, i);
			else if (pmbench_now_ns() - s->conns[i].t0 > IDLE_NS)
				drop(s, i);
		}
		if (pfd[1].revents)
			accept_all(s);
	}
}

/*
 * Hand the listening socket to a grandchild in a session of its own that
 * serves on it, like a dev server that daemonises its worker. Returns 1
 * in the grandchild, 0 in the parent.
 */
static int fork_grandchild(struct server *s)
{
	pid_t pid;
	int fd;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "fake server: cannot fork: %s\n",
			strerror(errno));
		return -1;
	}
	if (!pid) {
		if (fork() != 0)
			_exit(0);
		setsid();
		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
		return setup_signals(0) < 0 ? -1 : 1;
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	close(s->fd);
	s->fd = -1;
	return 0;
}

static int parse_num(uint64_t *out, const char *opt, const char *val,
		     uint64_t min, uint64_t max)
{
	if (pmbench_parse_u64(out, val) < 0 || *out < min || *out > max) {
		fprintf(stderr, "fake server: invalid %s '%s'\n", opt, val);
		return -1;
	}
	return 0;
}

static int parse_args(struct server *s, int argc, char **argv)
{
	const struct {
		const char *name;
		uint64_t *out, min, max;
	} nums[] = {
		{ "--ready-delay-ms", &s->ready_ms, 0, 86400000 },
		{ "--listen-delay-ms", &s->listen_ms, 0, 86400000 },
		{ "--status", &s->status, 100, 999 },
		{ "--body-bytes", &s->body_bytes, 0, 1ull << 32 },
		{ "--update-delay-ms", &s->update_ms, 0, 86400000 },
	};
	const char *port = getenv("PORT"), *text = NULL, *opt, *val, *eq;
	struct pmbench_buf name = PMBENCH_BUF_INIT;
	size_t m, len;
	int i, ret = -1;

	for (i = 1; i < argc; i++) {
		opt = argv[i];
		eq = strchr(opt, '=');
		len = eq ? (size_t)(eq - opt) : strlen(opt);
		pmbench_buf_reset(&name);
		pmbench_buf_add(&name, opt, len);
		val = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
		for (m = 0; m < PMBENCH_ARRAY_SIZE(nums); m++)
			if (!strcmp(name.ptr, nums[m].name))
				break;
		if (!val) {
			fprintf(stderr, "fake server: '%s' needs a value\n",
				opt);
			goto done;
		} else if (m < PMBENCH_ARRAY_SIZE(nums)) {
			if (parse_num(nums[m].out, name.ptr, val, nums[m].min,
				      nums[m].max) < 0)
				goto done;
		} else if (!strcmp(name.ptr, "--port")) {
			port = val;
		} else if (!strcmp(name.ptr, "--ready-text")) {
			text = val;
		} else if (!strcmp(name.ptr, "--serve-file")) {
			s->file = val;
		} else if (!strcmp(name.ptr, "--texts-log")) {
			s->texts_log = val;
		} else if (!strcmp(name.ptr, "--mode")) {
			for (m = 0; m < PMBENCH_ARRAY_SIZE(mode_names); m++)
				if (!strcmp(val, mode_names[m]))
					break;
			if (m == PMBENCH_ARRAY_SIZE(mode_names)) {
				fprintf(stderr,
					"fake server: unknown mode "
					"'%s'\n",
					val);
				goto done;
			}
			s->mode = (enum mode)m;
		} else {
			fprintf(stderr, "fake server: unknown option '%s'\n",
				name.ptr);
			goto done;
		}
	}
	if (port && *port && parse_num(&s->port, "port", port, 0, 65535) < 0)
		goto done;
	if (text)
		pmbench_buf_adds(&s->ready_text, text);
	ret = 0;
done:
	pmbench_buf_release(&name);
	return ret;
}

int main(int argc, char **argv)
{
	static struct server s; /* the connection buffers are large */
	int ret = 2, grandchild = 0;

	s.status = 200;
	s.body_bytes = 512;
	s.fd = -1;
	pmbench_buf_init(&s.ready_text);
	pmbench_buf_init(&s.body);
	pmbench_buf_init(&s.seen);
	if (parse_args(&s, argc, argv) < 0)
		goto done;
	ret = 3;
	if (s.mode == EXIT_NOW) {
		fprintf(stderr, "fake server: fatal error: boom\n");
		goto done;
	}
	ret = 1;
	if (s.mode == ERROR500)
		s.status = 500;
	if (s.mode == OTHER_PORT)
		s.port = 0; /* the kernel picks one; pmbench's stays shut */
	if (setup_signals(s.mode == IGNORE_TERM) < 0 || open_socket(&s) < 0)
		goto done;
	if (!s.ready_text.len)
		pmbench_buf_addf(
			&s.ready_text, "fake server ready on http://%s:%u",
			s.mode == OTHER_PORT ? "localhost" : "127.0.0.1",
			(unsigned)s.port);
	switch (s.mode) {
	case PRINT_THEN_LISTEN:
	case IGNORE_TERM:
	case OTHER_PORT:
	case NEVER_UPDATE:
		if (pause_ms(s.ready_ms, 0))
			break;
		print_ready(&s);
		if (pause_ms(s.listen_ms, 0) || start_listening(&s) < 0 ||
		    serve(&s, 0) < 0)
			goto done;
		break;
	case LISTEN_THEN_PRINT:
	case ERROR500:
		if (pause_ms(s.listen_ms, 0))
			break;
		if (start_listening(&s) < 0 ||
		    serve(&s, pmbench_now_ns() + s.ready_ms * 1000000) < 0)
			goto done;
		break;
	case NEVER_LISTEN:
		if (pause_ms(s.ready_ms, 0))
			break;
		print_ready(&s);
		pause_ms(0, 1);
		break;
	case GRANDCHILD:
		if (pause_ms(s.listen_ms, 0))
			break;
		if (start_listening(&s) < 0)
			goto done;
		grandchild = fork_grandchild(&s);
		if (grandchild < 0 || (grandchild && serve(&s, 0) < 0))
			goto done;
		if (grandchild || pause_ms(s.ready_ms, 0))
			break;
		print_ready(&s);
		pause_ms(0, 1);
		break;
	case EXIT_NOW:
		break;
	}
	ret = 0;
done:
	while (s.nconns)
		drop(&s, s.nconns - 1);
	if (s.fd >= 0)
		close(s.fd);
	pmbench_buf_release(&s.ready_text);
	pmbench_buf_release(&s.body);
	pmbench_buf_release(&s.seen);
	return ret;
}
