#ifndef PMBENCH_PEER_H
#define PMBENCH_PEER_H

#include <stddef.h>

/**
 * Who holds the other end of a TCP connection on 127.0.0.1: the registry
 * front (mirror.h) and the link relay (link.h) ask it of every
 * connection they accept, so that they count only the requests of what
 * pmbench runs (the PM being timed), and can say when other programs
 * used them too (issue 24: another client's 7,978 pipelined requests were
 * once recorded as the PM's).
 *
 * How (Linux): SO_PEERCRED gives nothing for TCP (pid 0), so the kernel's
 * socket diagnostics (NETLINK_SOCK_DIAG, what `ss` uses) give the peer
 * socket's inode from the connection's two addresses, and the processes
 * below pmbench (/proc/PID/task/TID/children, recursively, newest first)
 * and then pmbench itself are searched for an open file that is that
 * socket (/proc/PID/fd). A process that left pmbench's tree (reparented
 * to init) is "other". The sockets a searched process holds are
 * remembered in a cache, so the next connections of a PM that opens
 * many at once cost one netlink query each.
 *
 * The link relay connects to the front from 127.0.0.3 for a client it
 * found to be below pmbench and from 127.0.0.2 for any other, so that
 * the front knows without searching pmbench's own descriptors.
 *
 * Threads: any thread may call pmbench_peer_of(), each with a cache of
 * its own (or none).
 */

/* Where the link relay connects from to the front (see above). */
#define PMBENCH_PEER_RELAY_CHILD 0x7f000003u /* 127.0.0.3 */
#define PMBENCH_PEER_RELAY_OTHER 0x7f000002u /* 127.0.0.2 */

#define PMBENCH_PEER_CACHE 1024

/** Sockets seen open in processes below pmbench (inodes); zeroed: empty. */
struct pmbench_peer_cache {
	unsigned long ino[PMBENCH_PEER_CACHE];
	size_t next;
};

enum pmbench_peer {
	/** Could not tell: no socket diagnostics, or the peer is gone. */
	PMBENCH_PEER_UNKNOWN = 0,
	/** A process below pmbench: what pmbench runs (a PM, its scripts). */
	PMBENCH_PEER_CHILD,
	/** pmbench itself (the link relay, a port probe). */
	PMBENCH_PEER_SELF,
	/** Any other process. */
	PMBENCH_PEER_OTHER,
};

/**
 * Who is at the other end of the connected TCP socket `fd` on 127.0.0.1,
 * using and filling `cache` (may be NULL). A peer at 127.0.0.3 is
 * PMBENCH_PEER_CHILD and one at any address but 127.0.0.1 is
 * PMBENCH_PEER_OTHER, without looking further. Never fails.
 */
enum pmbench_peer pmbench_peer_of(int fd, struct pmbench_peer_cache *cache);

#endif
