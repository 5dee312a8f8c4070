/*
 * Who holds the other end of a loopback TCP connection (peer.h): the
 * peer socket's inode from the kernel's socket diagnostics, then the
 * process below pmbench, or pmbench itself, that has it open.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "pmbench/common.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/types.h>
#include <unistd.h>

#include "pmbench/peer.h"

/* Processes below pmbench looked at, at most (a PM tree has a few). */
#define TREE_MAX 1024

/*
 * Ask the kernel for the socket whose source is `peer` and destination
 * `self` (the other end of ours). Its inode, or 0 when there is none or
 * the kernel does not say (no NETLINK_SOCK_DIAG).
 */
static unsigned long diag_inode(const struct sockaddr_in *self,
				const struct sockaddr_in *peer)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req;
	long answer[256]; /* aligned for struct nlmsghdr */
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct timeval tv = { 1, 0 };
	struct nlmsghdr *h = (struct nlmsghdr *)answer;
	unsigned long inode = 0;
	ssize_t n = -1;
	int s = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
		       NETLINK_SOCK_DIAG);

	if (s < 0)
		return 0;
	memset(&req, 0, sizeof(req));
	req.nlh.nlmsg_len = sizeof(req);
	req.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	req.nlh.nlmsg_flags = NLM_F_REQUEST;
	req.r.sdiag_family = AF_INET;
	req.r.sdiag_protocol = IPPROTO_TCP;
	req.r.idiag_states = ~0u;
	req.r.id.idiag_sport = peer->sin_port;
	req.r.id.idiag_dport = self->sin_port;
	req.r.id.idiag_src[0] = peer->sin_addr.s_addr;
	req.r.id.idiag_dst[0] = self->sin_addr.s_addr;
	req.r.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
	req.r.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (sendto(s, &req, sizeof(req), 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) == (ssize_t)sizeof(req)) {
		do {
			n = recv(s, answer, sizeof(answer), 0);
		} while (n < 0 && errno == EINTR);
	}
	if (n > 0 && NLMSG_OK(h, (size_t)n) &&
	    h->nlmsg_type == SOCK_DIAG_BY_FAMILY &&
	    h->nlmsg_len >= NLMSG_LENGTH(sizeof(struct inet_diag_msg)))
		inode = ((struct inet_diag_msg *)NLMSG_DATA(h))->idiag_inode;
	close(s);
	return inode;
}

static int cached(const struct pmbench_peer_cache *cache, unsigned long ino)
{
	for (size_t i = 0; cache && i < PMBENCH_PEER_CACHE; i++)
		if (cache->ino[i] == ino)
			return 1;
	return 0;
}

/* The socket inode a /proc/PID/fd link names ("socket:[N]"), or 0. */
static unsigned long socket_inode(const char *link, ssize_t len)
{
	char *end;
	unsigned long ino;

	if (len < 10 || len >= 40 || memcmp(link, "socket:[", 8) ||
	    link[len - 1] != ']')
		return 0;
	ino = strtoul(link + 8, &end, 10);
	return end == link + len - 1 ? ino : 0;
}

/*
 * Whether process `pid` has the socket `want` open. With `cache`, every
 * socket it has open is remembered there: the next connections of a PM
 * are mostly sockets it opened before the first one was looked up.
 */
static int holds(pid_t pid, unsigned long want,
		 struct pmbench_peer_cache *cache)
{
	char path[64], link[48];
	struct dirent *e;
	DIR *d;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/%ld/fd", (long)pid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		unsigned long ino;

		if (e->d_name[0] == '.')
			continue;
		ino = socket_inode(link, readlinkat(dirfd(d), e->d_name, link,
						    sizeof(link)));
		if (!ino)
			continue;
		found |= ino == want;
		if (!cache) {
			if (found)
				break;
			continue;
		}
		if (!cached(cache, ino)) {
			cache->ino[cache->next] = ino;
			cache->next = (cache->next + 1) % PMBENCH_PEER_CACHE;
		}
	}
	closedir(d);
	return found;
}

struct tree {
	pid_t pid[TREE_MAX];
	size_t nr;
};

static int listed(const struct tree *t, pid_t pid)
{
	for (size_t i = 0; t && i < t->nr; i++)
		if (t->pid[i] == pid)
			return 1;
	return 0;
}

/* Append the pids listed in the file at `path` ("12 34 "). */
static void add_listed(struct tree *t, const char *path)
{
	char text[4096], *p, *end;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return;
	text[n] = '\0';
	for (p = text; t->nr < TREE_MAX; p = end) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		t->pid[t->nr++] = (pid_t)v;
	}
}

/* Append the children of `pid` made by any of its threads. */
static void add_children_all(struct tree *t, pid_t pid)
{
	char path[64];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%ld/task", (long)pid);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d)) && t->nr < TREE_MAX) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/task/%.20s/children",
			 (long)pid, e->d_name);
		add_listed(t, path);
	}
	closedir(d);
}

/*
 * pmbench and every process below it, parents before children, from
 * the kernel's per-thread lists of children. With `main_only`, only the
 * lists of each process's main thread, which made nearly every child
 * (one read per process instead of one per thread: node has eleven).
 */
static void below_self(struct tree *t, int main_only)
{
	t->nr = 0;
	t->pid[t->nr++] = getpid();
	for (size_t i = 0; i < t->nr; i++) {
		char path[64];

		if (!main_only) {
			add_children_all(t, t->pid[i]);
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%ld/task/%ld/children",
			 (long)t->pid[i], (long)t->pid[i]);
		add_listed(t, path);
	}
}

/*
 * Whether a process below pmbench holds the socket `ino`: those the
 * main threads made first, newest first (the PM being timed came after
 * verdaccio), then any the other threads made.
 */
static int held_below(unsigned long ino, struct pmbench_peer_cache *cache)
{
	struct tree *t = pmbench_xmalloc(2 * sizeof(*t)), *all = t + 1;
	int found = 0;

	below_self(t, 1);
	for (size_t i = t->nr; !found && i-- > 1;)
		found = holds(t->pid[i], ino, cache);
	if (!found)
		below_self(all, 0);
	for (size_t i = found ? 0 : all->nr; !found && i-- > 1;)
		if (!listed(t, all->pid[i]))
			found = holds(all->pid[i], ino, cache);
	free(t);
	return found;
}

enum pmbench_peer pmbench_peer_of(int fd, struct pmbench_peer_cache *cache)
{
	struct sockaddr_in self, peer;
	socklen_t len = sizeof(self);
	unsigned long ino;

	if (getsockname(fd, (struct sockaddr *)&self, &len) < 0 ||
	    self.sin_family != AF_INET)
		return PMBENCH_PEER_UNKNOWN;
	len = sizeof(peer);
	if (getpeername(fd, (struct sockaddr *)&peer, &len) < 0 ||
	    peer.sin_family != AF_INET)
		return PMBENCH_PEER_UNKNOWN;
	/* The link relay says whose client it forwards (peer.h). */
	if (peer.sin_addr.s_addr == htonl(PMBENCH_PEER_RELAY_CHILD))
		return PMBENCH_PEER_CHILD;
	if (peer.sin_addr.s_addr != htonl(INADDR_LOOPBACK))
		return PMBENCH_PEER_OTHER;
	ino = diag_inode(&self, &peer);
	if (!ino)
		return PMBENCH_PEER_UNKNOWN;
	if (cached(cache, ino) || held_below(ino, cache))
		return PMBENCH_PEER_CHILD;
	return holds(getpid(), ino, NULL) ? PMBENCH_PEER_SELF
					  : PMBENCH_PEER_OTHER;
}
