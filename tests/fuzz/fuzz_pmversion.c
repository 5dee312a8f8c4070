/*
 * What a repo says of its own PM's version (pmversion.h): package.json's
 * packageManager (with corepack's hash), devEngines.packageManager and
 * engines.<pm>, and .yarnrc.yml's yarnPath, read by
 * pmbench_pm_ask_repo() from a temporary folder. The input, up to a line
 * "%%" if it has one, is written as the package.json of the root and of
 * its project folder "sub"; the rest (else the whole input) as the
 * root's .yarnrc.yml. Properties: a PM found has a version and a source,
 * and its spelling `<pm>@<version>` either looks up or is refused with a
 * message; a yarnPath found lies inside the repo; the hash check of what
 * was read never crashes and fails only with a message.
 */
#include "pmbench/common.h"

#include <fcntl.h>
#include <unistd.h>

#include "fuzz.h"
#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/pmversion.h"

static struct pmbench_buf root = PMBENCH_BUF_INIT;

static const char *const files[] = { "sub/package.json", "sub", "package.json",
				     ".yarnrc.yml" };

static void path_of(struct pmbench_buf *out, const char *name)
{
	pmbench_buf_reset(out);
	pmbench_buf_path(out, root.ptr, name);
}

static void remove_root(void)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(files); i++) {
		path_of(&p, files[i]);
		if (unlink(p.ptr) < 0)
			rmdir(p.ptr);
	}
	rmdir(root.ptr);
	pmbench_buf_release(&p);
	pmbench_buf_release(&root);
}

static void make_root(void)
{
	const char *tmp = getenv("TMPDIR");
	struct pmbench_buf p = PMBENCH_BUF_INIT;

	pmbench_buf_path(&root, tmp && *tmp ? tmp : "/tmp",
			 "pmbench-fuzz-XXXXXX");
	if (!mkdtemp(root.ptr))
		FUZZ_FAIL("cannot make '%s': %s", root.ptr, strerror(errno));
	path_of(&p, "sub");
	if (pmbench_fs_mkdirp(p.ptr, 0755) < 0)
		FUZZ_FAIL("%s", pmbench_error_last());
	pmbench_buf_release(&p);
	atexit(remove_root);
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

/* The properties of what was read (see the top). */
static void check(const struct pmbench_pm_ask *a)
{
	struct pmbench_pm_release rel = PMBENCH_PM_RELEASE_INIT;
	struct pmbench_buf spec = PMBENCH_BUF_INIT;
	const struct pmbench_pm *pm;

	if (a->yarn_path && (!a->yarn_path_source ||
			     pmbench_fs_is_inside(root.ptr, a->yarn_path) != 1))
		FUZZ_FAIL("yarnPath '%s' is not inside the repo", a->yarn_path);
	if (!a->pm)
		return;
	if (!a->version || !*a->version || !a->source)
		FUZZ_FAIL("%s found without a version or a source",
			  a->pm->name);
	pmbench_buf_addf(&spec, "%s@%s", a->pm->name, a->version);
	if (pmbench_pm_lookup(&pm, spec.ptr) < 0 && !*pmbench_error_last())
		FUZZ_FAIL("'%s' refused without a message", spec.ptr);
	pmbench_error_clear();
	path_of(&spec, "package.json");
	rel.bin = spec.ptr;
	rel.version = a->version;
	if (pmbench_pm_release_check_hash(&rel, a) < 0 &&
	    !*pmbench_error_last())
		FUZZ_FAIL("a hash refused without a message");
	pmbench_error_clear();
	pmbench_buf_release(&spec);
}

static void ask(const char *subdir)
{
	struct pmbench_pm_ask a = PMBENCH_PM_ASK_INIT;

	if (pmbench_pm_ask_repo(&a, root.ptr, subdir) != 0)
		FUZZ_FAIL("pmbench_pm_ask_repo failed");
	check(&a);
	pmbench_pm_ask_release(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *rest = data;
	size_t head = size;

	if (!root.len)
		make_root();
	for (size_t i = 0; i + 4 <= size; i++)
		if (!memcmp(data + i, "\n%%\n", 4)) {
			head = i + 1;
			rest = data + i + 4;
			break;
		}
	write_file("package.json", data, head);
	write_file("sub/package.json", data, head);
	write_file(".yarnrc.yml", rest, (size_t)(data + size - rest));
	ask(NULL);
	ask("sub");
	return 0;
}
