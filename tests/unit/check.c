#include "pmbench/common.h"

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

int check_failures;
const char *check_current;
static int case_failed;
static char sandbox[4096];
/* A check_sandbox_tmp() folder to remove when the case ends, or "". */
static char tmp_sandbox[4096];
/* The test program's name: cases of two programs run in parallel by
 * ctest may share a name, so each program gets a folder of its own. */
static const char *program = "test";
static char pathbuf[4096];

void check_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "FAIL %s (%s:%d): ", check_current, file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	case_failed = 1;
}

static int rm_entry(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* The tests' own rm -rf and mkdir -p, so that they do not depend on the
 * fs module they test. */
static void reset_dir(const char *path)
{
	char tmp[4096];

	if (nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS) < 0 &&
	    errno != ENOENT)
		pmbench_die("cannot remove '%s': %s", path, strerror(errno));
	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			pmbench_die("cannot make '%s': %s", tmp,
				    strerror(errno));
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		pmbench_die("cannot make '%s': %s", tmp, strerror(errno));
}

const char *check_sandbox(void)
{
	const char *root = getenv("PMBENCH_TEST_SANDBOX");
	char cwd[4096];

	if (!root) {
		if (!getcwd(cwd, sizeof(cwd)))
			pmbench_die("getcwd failed");
		root = cwd;
	}
	if (snprintf(sandbox, sizeof(sandbox), "%s/sandbox/%s/%s", root,
		     program, check_current) >= (int)sizeof(sandbox))
		pmbench_die("sandbox path too long");
	reset_dir(sandbox);
	return sandbox;
}

/* Remove the case's /tmp sandbox, if it made one; 0 or -1. */
static int remove_tmp_sandbox(void)
{
	int ret = 0;

	if (!tmp_sandbox[0])
		return 0;
	if (nftw(tmp_sandbox, rm_entry, 16, FTW_DEPTH | FTW_PHYS) < 0) {
		fprintf(stderr, "cannot remove '%s': %s\n", tmp_sandbox,
			strerror(errno));
		ret = -1;
	}
	tmp_sandbox[0] = '\0';
	return ret;
}

const char *check_sandbox_tmp(void)
{
	char tmpl[] = "/tmp/pmbench-check-XXXXXX";

	if (remove_tmp_sandbox() < 0)
		pmbench_die("cannot remove the previous /tmp sandbox");
	if (!mkdtemp(tmpl))
		pmbench_die("mkdtemp '%s': %s", tmpl, strerror(errno));
	/* mkdtemp makes it 0700: others must enter it. */
	if (chmod(tmpl, 0755) < 0)
		pmbench_die("chmod '%s': %s", tmpl, strerror(errno));
	snprintf(tmp_sandbox, sizeof(tmp_sandbox), "%s", tmpl);
	snprintf(sandbox, sizeof(sandbox), "%s", tmpl);
	return sandbox;
}

const char *check_path(const char *name)
{
	if (snprintf(pathbuf, sizeof(pathbuf), "%s/%s", sandbox, name) >=
	    (int)sizeof(pathbuf))
		pmbench_die("test path too long");
	return pathbuf;
}

const char *check_write(const char *name, const char *text)
{
	const char *p = check_path(name);
	FILE *f;

	f = fopen(p, "w");
	if (!f)
		pmbench_die("cannot write '%s'", p);
	fputs(text, f);
	fclose(f);
	return p;
}

static int selected(const char *name, int argc, char **argv)
{
	if (argc < 2)
		return 1;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], name))
			return 1;
	return 0;
}

int check_run(const struct check_case *cases, size_t n, int argc,
	      char **argv)
{
	size_t ran = 0, failed = 0;

	if (argc > 0 && argv[0] && *argv[0]) {
		const char *slash = strrchr(argv[0], '/');

		program = slash ? slash + 1 : argv[0];
	}
	for (size_t i = 0; i < n; i++) {
		if (!selected(cases[i].name, argc, argv))
			continue;
		check_current = cases[i].name;
		case_failed = 0;
		pmbench_error_clear();
		cases[i].fn();
		if (remove_tmp_sandbox() < 0)
			case_failed = 1;
		ran++;
		if (case_failed)
			failed++;
		fprintf(stderr, "%s %s\n", case_failed ? "not ok" : "ok",
			cases[i].name);
	}
	printf("%zu passed, %zu failed\n", ran - failed, failed);
	return failed || !ran ? 1 : 0;
}
