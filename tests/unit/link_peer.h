/*
 * A server for the link tests: on a free port of 127.0.0.1, in a thread,
 * it accepts connections; each sends one line (the byte count it wants
 * as decimal text), gets that many bytes of a known pattern, and the
 * server closes it.
 */
#ifndef PMBENCH_TEST_LINK_PEER_H
#define PMBENCH_TEST_LINK_PEER_H

#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

struct link_peer {
	int fd;
	int port;
	pthread_t thread;
};

static unsigned char link_pattern(size_t i)
{
	return (unsigned char)((i * 131u + 7u) & 0xff);
}

static void *link_peer_conn(void *arg)
{
	int c = (int)(intptr_t)arg;
	char line[64];
	size_t got = 0, want, sent = 0;
	unsigned char buf[16384];

	while (got < sizeof(line) - 1) {
		ssize_t n = read(c, line + got, 1);

		if (n <= 0 || line[got] == '\n')
			break;
		got++;
	}
	line[got] = '\0';
	want = (size_t)strtoull(line, NULL, 10);
	while (sent < want) {
		size_t n = want - sent < sizeof(buf) ? want - sent
						     : sizeof(buf);
		ssize_t w;

		for (size_t i = 0; i < n; i++)
			buf[i] = link_pattern(sent + i);
		w = write(c, buf, n);
		if (w <= 0)
			break;
		sent += (size_t)w;
	}
	close(c);
	return NULL;
}

static void *link_peer_main(void *arg)
{
	struct link_peer *p = arg;

	for (;;) {
		pthread_t t;
		int c = accept(p->fd, NULL, NULL);

		if (c < 0) {
			if (errno == EINTR)
				continue;
			return NULL;
		}
		pthread_create(&t, NULL, link_peer_conn, (void *)(intptr_t)c);
		pthread_detach(t);
	}
}

static int link_peer_start(struct link_peer *p)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);

	p->fd = socket(AF_INET, SOCK_STREAM, 0);
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (p->fd < 0 || bind(p->fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(p->fd, 16) < 0 ||
	    getsockname(p->fd, (struct sockaddr *)&a, &len) < 0)
		return -1;
	p->port = ntohs(a.sin_port);
	return pthread_create(&p->thread, NULL, link_peer_main, p) ? -1 : 0;
}

/* Stop accepting: shutdown() wakes the accept() with an error. */
static void link_peer_stop(struct link_peer *p)
{
	shutdown(p->fd, SHUT_RDWR);
	pthread_join(p->thread, NULL);
	close(p->fd);
}

/*
 * Ask 127.0.0.1:port for `bytes` bytes and read them all; returns how
 * many arrived intact (the pattern checked), or -1.
 */
static long link_fetch(int port, size_t bytes)
{
	struct sockaddr_in a;
	unsigned char buf[16384];
	char line[64];
	size_t got = 0;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		return -1;
	snprintf(line, sizeof(line), "%zu\n", bytes);
	if (write(fd, line, strlen(line)) < 0) {
		close(fd);
		return -1;
	}
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n; i++)
			if (buf[i] != link_pattern(got + (size_t)i)) {
				close(fd);
				return -1;
			}
		got += (size_t)n;
	}
	close(fd);
	return (long)got;
}

#endif
