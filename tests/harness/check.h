#ifndef PMBENCH_TEST_CHECK_H
#define PMBENCH_TEST_CHECK_H

/*
 * A small assertion header for pmbench's unit tests. Each test file
 * defines cases with TEST(name) and lists them in CHECK_MAIN(...). The
 * binary runs every case (or only those named on the command line, and
 * never one named as "-NAME"; a name that is no case is an error) and
 * exits 1 if any check failed; else CHECK_SKIP_CODE (ctest's
 * SKIP_RETURN_CODE: "Not Run (Skipped)") if a case was skipped
 * (SKIP(reason): what the machine or the user cannot give it); else 0.
 * check_sandbox() gives each case a fresh, empty folder of its own.
 */
#include "pmbench/common.h"

#include <math.h>

struct check_case {
	const char *name;
	void (*fn)(void);
};

extern int check_failures;
extern const char *check_current;

void check_fail(const char *file, int line, const char *fmt, ...)
	PMBENCH_PRINTF(3, 4);

/*
 * The exit code of a program with a skipped case and no failed one
 * (tests/CMakeLists.txt gives it to ctest as SKIP_RETURN_CODE).
 */
#define CHECK_SKIP_CODE 77

/**
 * Skip the running case: prints "skip CASE: reason" and, when
 * PMBENCH_TEST_SKIPS names a file (ci/test.sh sets it), appends
 * "TEST<tab>CASE<tab>reason" to it (TEST: PMBENCH_TEST_NAME, the ctest
 * name, else the program's). SKIP() then returns from the case. A case
 * that failed before stays failed.
 */
void check_skip(const char *file, int line, const char *fmt, ...)
	PMBENCH_PRINTF(3, 4);
/** 1 once the running case skipped (a helper's SKIP ends its caller too). */
int check_skipped(void);
/** 1 once a check of the running case failed. */
int check_failed(void);

/**
 * Run `fn` as a user other than root: as is when the program is not
 * root; as root, in a child that became nobody (65534), after the case's
 * sandbox (which must be one nobody can reach: check_sandbox_tmp()) was
 * given to nobody, because root ignores permissions and reads every
 * process's /proc files. Returns fn's result (the child's exit status),
 * -1 if the child did not exit, or CHECK_SKIP_CODE if it could not
 * become nobody (a container without the capability).
 */
int check_unprivileged(int (*fn)(void));
/**
 * Run `fn` as nobody (65534) in a cgroup v2 folder delegated to it, as
 * systemd's Delegate= gives a user one: made in the test's own cgroup,
 * the folder and its cgroup.procs, cgroup.subtree_control and
 * cgroup.threads nobody's, the child moved into it before it becomes
 * nobody; the case's sandbox (check_sandbox_tmp()) given to nobody too.
 * The folder is removed after: one fn left non-empty (a cgroup or a
 * process of its own still in it after 10 s) fails the case. Returns
 * fn's result, -1 if the child did not exit, or CHECK_SKIP_CODE with
 * the reason in `why` where no cgroup can be delegated (no cgroup v2
 * hierarchy, no cgroup made). Not root, fn runs as is where the user's
 * own cgroup is theirs (a systemd session's), else it is skipped.
 */
int check_delegated(int (*fn)(void), char *why, size_t why_size);
/** A fresh empty folder for the running case; valid until the next call. */
const char *check_sandbox(void);
/**
 * Like check_sandbox(), but a new folder under /tmp (mode 0755) that
 * every user can reach, for cases that run part of themselves as another
 * user: the checkout may sit under a folder only its owner may enter
 * (root's home is 0700). Removed when the case ends.
 */
const char *check_sandbox_tmp(void);
/** Path of a file inside the case's sandbox (static buffer, one at a time). */
const char *check_path(const char *name);
/** Write `text` to a file inside the sandbox; returns its path (static). */
const char *check_write(const char *name, const char *text);
int check_run(const struct check_case *cases, size_t n, int argc, char **argv);

struct pmbench_strvec;
struct pmbench_buf;

/*
 * Readers of what pmbench writes, strict enough to catch a broken file.
 *
 * check_csv_parse(): RFC 4180, CRLF or LF line ends, quoted fields with
 * doubled quotes; *rows gets one strvec of fields per record (free with
 * check_csv_free()). Returns 0, or -1 on a malformed file.
 *
 * check_xml_parse(): one well-formed XML element after an optional
 * <?xml ...?> declaration: every tag closed in order, attribute values
 * quoted, '&' only in &amp; &lt; &gt; &quot; &#39; or &#N;, no '<' in
 * text or values. The root element's name goes to `root` and all the
 * text to `text` (entities decoded, each text node followed by '\n').
 * Returns 0, or -1 with the reason in `text`.
 */
int check_csv_parse(struct pmbench_strvec **rows, size_t *nr, const char *s);
void check_csv_free(struct pmbench_strvec *rows, size_t nr);
int check_xml_parse(struct pmbench_buf *root, struct pmbench_buf *text,
		    const char *s);

#define TEST(name) static void test_##name(void)
#define CASE(name)                 \
	{                          \
#name, test_##name \
	}

#define SKIP(...)                                            \
	do {                                                 \
		check_skip(__FILE__, __LINE__, __VA_ARGS__); \
		return;                                      \
	} while (0)

#define CHECK(cond)                                                  \
	do {                                                         \
		if (!(cond)) {                                       \
			check_fail(__FILE__, __LINE__, "%s", #cond); \
			return;                                      \
		}                                                    \
	} while (0)

#define CHECK_INT(a, b)                                               \
	do {                                                          \
		long long check_a_ = (long long)(a);                  \
		long long check_b_ = (long long)(b);                  \
		if (check_a_ != check_b_) {                           \
			check_fail(__FILE__, __LINE__,                \
				   "%s == %s (%lld != %lld)", #a, #b, \
				   check_a_, check_b_);               \
			return;                                       \
		}                                                     \
	} while (0)

#define CHECK_STR(a, b)                                                     \
	do {                                                                \
		const char *check_a_ = (a);                                 \
		const char *check_b_ = (b);                                 \
		if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_)) { \
			check_fail(__FILE__, __LINE__,                      \
				   "%s == %s (\"%s\" != \"%s\")", #a, #b,   \
				   check_a_ ? check_a_ : "(null)",          \
				   check_b_ ? check_b_ : "(null)");         \
			return;                                             \
		}                                                           \
	} while (0)

#define CHECK_CONTAINS(hay, needle)                                           \
	do {                                                                  \
		const char *check_h_ = (hay);                                 \
		const char *check_n_ = (needle);                              \
		if (!check_h_ || !strstr(check_h_, check_n_)) {               \
			check_fail(__FILE__, __LINE__,                        \
				   "%s contains \"%s\" (got \"%s\")", #hay,   \
				   check_n_, check_h_ ? check_h_ : "(null)"); \
			return;                                               \
		}                                                             \
	} while (0)

#define CHECK_NEAR(a, b, eps)                                                 \
	do {                                                                  \
		double check_a_ = (double)(a);                                \
		double check_b_ = (double)(b);                                \
		if (!(fabs(check_a_ - check_b_) <= (eps))) {                  \
			check_fail(__FILE__, __LINE__,                        \
				   "%s ~= %s (%.9g vs %.9g, eps %g)", #a, #b, \
				   check_a_, check_b_, (double)(eps));        \
			return;                                               \
		}                                                             \
	} while (0)

#define CHECK_MAIN(...)                                                   \
	int main(int argc, char **argv)                                   \
	{                                                                 \
		static const struct check_case cases[] = { __VA_ARGS__ }; \
		return check_run(cases, PMBENCH_ARRAY_SIZE(cases), argc,  \
				 argv);                                   \
	}

#endif
