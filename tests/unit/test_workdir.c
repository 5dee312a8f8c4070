#include "pmbench/common.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/workdir.h"

static int is_file(const char *dir, const char *name)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	struct stat st;
	int yes;

	pmbench_buf_path(&p, dir, name);
	yes = !lstat(p.ptr, &st) && S_ISREG(st.st_mode);
	pmbench_buf_release(&p);
	return yes;
}

TEST(marker)
{
	char dir[4200];

	check_sandbox();
	/* Missing: created and marked. */
	snprintf(dir, sizeof(dir), "%s", check_path("new/cache"));
	CHECK_INT(pmbench_workdir_check(dir, 0), 0);
	CHECK(is_file(dir, PMBENCH_WORKDIR_MARKER));
	/* Marked and holding files: fine. */
	check_write("new/cache/results.json", "{}");
	CHECK_INT(pmbench_workdir_check(dir, 0), 0);

	/* Empty: marked. */
	snprintf(dir, sizeof(dir), "%s", check_path("empty"));
	CHECK_INT(mkdir(dir, 0755), 0);
	CHECK_INT(pmbench_workdir_check(dir, 0), 0);
	CHECK(is_file(dir, PMBENCH_WORKDIR_MARKER));

	/* Holding someone's files: refused, untouched. */
	snprintf(dir, sizeof(dir), "%s", check_path("foreign"));
	CHECK_INT(mkdir(dir, 0755), 0);
	check_write("foreign/a", "x");
	CHECK_INT(pmbench_workdir_check(dir, 0), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), dir);
	CHECK_CONTAINS(pmbench_error_last(), "--cache-dir");
	CHECK(!is_file(dir, PMBENCH_WORKDIR_MARKER));
	/* Unless trusted (the built-in default): then it is marked. */
	CHECK_INT(pmbench_workdir_check(dir, 1), 0);
	CHECK(is_file(dir, PMBENCH_WORKDIR_MARKER));
	CHECK(is_file(dir, "a"));

	/* A file where the folder should be. */
	snprintf(dir, sizeof(dir), "%s", check_write("plain", "x"));
	CHECK(pmbench_workdir_check(dir, 0) < 0);
}

TEST(lock)
{
	struct pmbench_workdir a = PMBENCH_WORKDIR_INIT;
	struct pmbench_workdir b = PMBENCH_WORKDIR_INIT;
	char dir[4200], pid[32];

	check_sandbox();
	snprintf(dir, sizeof(dir), "%s", check_path("cache"));
	CHECK_INT(pmbench_workdir_check(dir, 0), 0);
	CHECK_INT(pmbench_workdir_lock(&a, dir, "pmbench bench --pm npm"), 0);
	CHECK(a.fd >= 0);
	CHECK(fcntl(a.fd, F_GETFD) & FD_CLOEXEC);
	/* A second open file description conflicts, even in one process. */
	CHECK(pmbench_workdir_lock(&b, dir, "pmbench bench --pm bun") < 0);
	CHECK_INT(b.fd, -1);
	snprintf(pid, sizeof(pid), "pid %ld, ", (long)getpid());
	CHECK_CONTAINS(pmbench_error_last(), "is in use by another pmbench");
	CHECK_CONTAINS(pmbench_error_last(), pid);
	CHECK_CONTAINS(pmbench_error_last(), "'pmbench bench --pm npm'");
	CHECK_CONTAINS(pmbench_error_last(), " UTC");
	CHECK_CONTAINS(pmbench_error_last(), "own --cache-dir");
	pmbench_workdir_release(&a);
	CHECK_INT(a.fd, -1);
	CHECK_INT(pmbench_workdir_lock(&b, dir, "pmbench bench --pm bun"), 0);
	pmbench_workdir_release(&b);
	pmbench_workdir_release(&b);
}

CHECK_MAIN(CASE(marker), CASE(lock))
