/*
 * The package.json files of the user's project, through the functions
 * that read them from a folder: which PM a project uses (`migrate`: its
 * packageManager field, and the yarn.lock flavour), whether it has a
 * script (`run`/`build`/`dev` tasks), and what is installed (the
 * resolution scan of node_modules, then its diff). The input is written
 * as the project's package.json, as its yarn.lock (next to an empty
 * package-lock.json the second time), and as the package.json of
 * node_modules/pkg in one temporary folder, made once and removed at
 * exit.
 */
#include "pmbench/common.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "pmbench/buf.h"
#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/migrate.h"
#include "pmbench/resolution.h"
#include "pmbench/task.h"

static struct pmbench_buf project = PMBENCH_BUF_INIT;
static struct pmbench_buf pkg_dir = PMBENCH_BUF_INIT;

/* The files of the project, from the deepest up, for the clean-up. */
static const char *const files[] = { "node_modules/pkg/package.json",
				     "node_modules/pkg",
				     "node_modules",
				     "yarn.lock",
				     "package-lock.json",
				     "package.json" };

static void path_of(struct pmbench_buf *out, const char *name)
{
	pmbench_buf_reset(out);
	pmbench_buf_path(out, project.ptr, name);
}

static void remove_project(void)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(files); i++) {
		path_of(&p, files[i]);
		if (unlink(p.ptr) < 0)
			rmdir(p.ptr);
	}
	rmdir(project.ptr);
	pmbench_buf_release(&p);
	pmbench_buf_release(&project);
	pmbench_buf_release(&pkg_dir);
}

static void make_project(void)
{
	const char *tmp = getenv("TMPDIR");

	pmbench_buf_path(&project, tmp && *tmp ? tmp : "/tmp",
			 "pmbench-fuzz-XXXXXX");
	if (!mkdtemp(project.ptr))
		FUZZ_FAIL("cannot make '%s': %s", project.ptr, strerror(errno));
	path_of(&pkg_dir, "node_modules/pkg");
	if (pmbench_fs_mkdirp(pkg_dir.ptr, 0755) < 0)
		FUZZ_FAIL("%s", pmbench_error_last());
	atexit(remove_project);
}

static void write_file(const char *name, const uint8_t *data, size_t size)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int fd;

	path_of(&p, name);
	fd = open(p.ptr, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) ||
	    close(fd) < 0)
		FUZZ_FAIL("cannot write '%s': %s", p.ptr, strerror(errno));
	pmbench_buf_release(&p);
}

static void detect(const char *from)
{
	struct pmbench_migrate m = PMBENCH_MIGRATE_INIT;

	if (pmbench_migrate_detect(&m, project.ptr, from) == 0 &&
	    (!m.source_pm || !m.detected_by))
		FUZZ_FAIL("detected without a PM or a reason");
	pmbench_migrate_release(&m);
}

/* Scan node_modules, then diff it against one package at 1.0.0. */
static void resolve(void)
{
	struct pmbench_resolution res = PMBENCH_RESOLUTION_INIT;
	struct pmbench_resolution other = PMBENCH_RESOLUTION_INIT;
	struct pmbench_resolution_diff diff = PMBENCH_RESOLUTION_DIFF_INIT;
	struct pmbench_package one = { NULL, NULL, NULL, 0, 1 };
	struct pmbench_strvec scripts = PMBENCH_STRVEC_INIT;

	if (pmbench_resolution_scan(&res, project.ptr) < 0)
		FUZZ_FAIL("%s", pmbench_error_last());
	if (res.nr > 1)
		FUZZ_FAIL("one package.json gave %zu packages", res.nr);
	if (res.nr) {
		one.name = res.pkgs[0].name;
		one.version = (char *)"1.0.0";
		one.path = (char *)"node_modules/pkg";
		other.pkgs = &one;
		other.nr = other.alloc = 1;
		if (pmbench_resolution_find(&res, one.name,
					    res.pkgs[0].version) != res.pkgs)
			FUZZ_FAIL("the package scanned is not found");
	}
	pmbench_resolution_diff(&diff, &res, &other);
	pmbench_resolution_diff_release(&diff);
	pmbench_resolution_diff(&diff, &other, &res);
	pmbench_resolution_diff_release(&diff);
	pmbench_resolution_scripts(&res, &scripts);
	pmbench_strvec_release(&scripts);
	pmbench_resolution_release(&res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	struct pmbench_buf p = PMBENCH_BUF_INIT;

	if (!project.len)
		make_project();
	write_file("package.json", data, size);
	/*
	 * No lockfile (the packageManager field decides), a yarn.lock (its
	 * flavour), and lockfiles of two PMs (the field settles it).
	 */
	path_of(&p, "yarn.lock");
	unlink(p.ptr);
	path_of(&p, "package-lock.json");
	unlink(p.ptr);
	detect(NULL);
	write_file("yarn.lock", data, size);
	detect(NULL);
	write_file("package-lock.json", NULL, 0);
	detect(NULL);
	detect("pnpm");

	f.project_dir = project.ptr;
	pmbench_task_has_script(&f, "build");
	pmbench_task_has_script(&f, "dev");

	write_file("node_modules/pkg/package.json", data, size);
	resolve();
	pmbench_buf_release(&p);
	return 0;
}
