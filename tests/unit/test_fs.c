#include "pmbench/common.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/fs.h"
#include "pmbench/strvec.h"

/*
 * Fixtures are built with plain POSIX calls, never with the module under
 * test, so that a bug in it cannot hide itself.
 */

/* A path inside the case's sandbox; eight live at once. */
static const char *P(const char *name)
{
	static char bufs[8][4096];
	static unsigned next;
	char *b = bufs[next++ % PMBENCH_ARRAY_SIZE(bufs)];

	if (snprintf(b, sizeof(bufs[0]), "%s/%s", check_path(""), name) >=
	    (int)sizeof(bufs[0]))
		pmbench_die("test path too long");
	return b;
}

static void mk(const char *name, mode_t mode)
{
	if (mkdir(P(name), mode) < 0 || chmod(P(name), mode) < 0)
		pmbench_die("mkdir '%s': %s", name, strerror(errno));
}

static void put(const char *name, const char *text, mode_t mode)
{
	const char *p = P(name);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode);
	size_t len = strlen(text);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len ||
	    fchmod(fd, mode) < 0 || close(fd) < 0)
		pmbench_die("write '%s': %s", p, strerror(errno));
}

static void sym(const char *target, const char *name)
{
	if (symlink(target, P(name)) < 0)
		pmbench_die("symlink '%s': %s", name, strerror(errno));
}

static void hardlink(const char *from, const char *to)
{
	if (link(P(from), P(to)) < 0)
		pmbench_die("link '%s': %s", to, strerror(errno));
}

/* Give `name` an mtime with nanoseconds no copy could hit by chance. */
static void set_mtime(const char *name, time_t sec, long nsec)
{
	struct timespec ts[2] = { { sec, nsec }, { sec, nsec } };

	if (utimensat(AT_FDCWD, P(name), ts, AT_SYMLINK_NOFOLLOW) < 0)
		pmbench_die("utimensat '%s': %s", name, strerror(errno));
}

/* The whole content of a file (static buffer), or NULL. */
static const char *slurp(const char *path)
{
	static char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

/* 1 if the file at `path` holds exactly `len` bytes equal to `data`. */
static int file_equals(const char *path, const char *data, size_t len)
{
	char chunk[8192];
	size_t off = 0;
	int fd = open(path, O_RDONLY), same = 1;

	if (fd < 0)
		return 0;
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n <= 0) {
			same = same && !n && off == len;
			break;
		}
		if ((size_t)n > len - off ||
		    memcmp(chunk, data + off, (size_t)n)) {
			same = 0;
			break;
		}
		off += (size_t)n;
	}
	close(fd);
	return same;
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return (mode_t)-1;
	return st.st_mode & 07777;
}

static ino_t ino_of(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return 0;
	return st.st_ino;
}

static const char *link_of(const char *path)
{
	static char buf[4096];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);

	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

static size_t count_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	size_t n = 0;

	if (!d)
		return (size_t)-1;
	for (;;) {
		de = readdir(d);
		if (!de)
			break;
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	}
	closedir(d);
	return n;
}

static int same_mtime(const char *a, const char *b)
{
	struct stat sa, sb;

	if (lstat(a, &sa) < 0 || lstat(b, &sb) < 0)
		return 0;
	return sa.st_mtim.tv_sec == sb.st_mtim.tv_sec &&
	       sa.st_mtim.tv_nsec == sb.st_mtim.tv_nsec;
}

TEST(fs_copytree_roundtrip)
{
	static char big[200001];

	check_sandbox();
	mk("src", 0755);
	put("src/secret.txt", "only me\n", 0600);
	mk("src/bin", 0755);
	put("src/bin/run.sh", "#!/bin/sh\necho hi\n", 0755);
	mk("src/private", 0700);
	put("src/private/key", "k", 0644);
	mk("src/empty", 0755);
	mk("src/readonly", 0755);
	put("src/readonly/file", "ro", 0444);
	chmod(P("src/readonly"), 0555);
	sym("secret.txt", "src/rel-link");
	sym("../nowhere/at/all", "src/dangling");
	if (mkfifo(P("src/fifo"), 0644) < 0)
		pmbench_die("mkfifo: %s", strerror(errno));
	memset(big, 'x', sizeof(big) - 1);
	big[12345] = 'y';
	put("src/big", big, 0644);
	set_mtime("src/secret.txt", 1600000000, 123456789);
	set_mtime("src/bin/run.sh", 1500000000, 987654321);
	set_mtime("src/big", 1400000000, 1);
	set_mtime("src/empty", 1300000000, 42);

	CHECK_INT(pmbench_fs_copytree(P("src"), P("out/deeper/copy"), 0, NULL),
		  0);

	CHECK_STR(slurp(P("out/deeper/copy/secret.txt")), "only me\n");
	CHECK_STR(slurp(P("out/deeper/copy/bin/run.sh")),
		  "#!/bin/sh\necho hi\n");
	CHECK_STR(slurp(P("out/deeper/copy/private/key")), "k");
	CHECK_STR(slurp(P("out/deeper/copy/readonly/file")), "ro");
	CHECK(file_equals(P("out/deeper/copy/big"), big, sizeof(big) - 1));
	CHECK_INT(mode_of(P("out/deeper/copy/secret.txt")), 0600);
	CHECK_INT(mode_of(P("out/deeper/copy/bin/run.sh")), 0755);
	CHECK_INT(mode_of(P("out/deeper/copy/private")), 0700);
	CHECK_INT(mode_of(P("out/deeper/copy/readonly")), 0555);
	CHECK_INT(mode_of(P("out/deeper/copy/readonly/file")), 0444);
	CHECK(pmbench_fs_isdir(P("out/deeper/copy/empty")));
	CHECK_INT(count_entries(P("out/deeper/copy/empty")), 0);
	CHECK_STR(link_of(P("out/deeper/copy/rel-link")), "secret.txt");
	CHECK_STR(link_of(P("out/deeper/copy/dangling")), "../nowhere/at/all");
	CHECK(!pmbench_fs_exists(P("out/deeper/copy/fifo")));
	CHECK(same_mtime(P("src/secret.txt"), P("out/deeper/copy/secret.txt")));
	CHECK(same_mtime(P("src/bin/run.sh"), P("out/deeper/copy/bin/run.sh")));
	CHECK(same_mtime(P("src/big"), P("out/deeper/copy/big")));
	CHECK(same_mtime(P("src/empty"), P("out/deeper/copy/empty")));

	/* The destination must not exist yet. */
	CHECK(pmbench_fs_copytree(P("src"), P("out/deeper/copy"), 0, NULL) < 0);
	CHECK_CONTAINS(pmbench_error_last(), "out/deeper/copy");
	CHECK_INT(pmbench_fs_copytree(P("missing"), P("out/x"), 0, NULL),
		  PMBENCH_ENOTFOUND);
	CHECK_CONTAINS(pmbench_error_last(), "missing");
	CHECK(!pmbench_fs_exists(P("out/x")));

	/* A single file and a single symlink copy too. */
	CHECK_INT(pmbench_fs_copytree(P("src/secret.txt"), P("one/file"), 0,
				      NULL),
		  0);
	CHECK_STR(slurp(P("one/file")), "only me\n");
	CHECK_INT(mode_of(P("one/file")), 0600);
	CHECK_INT(pmbench_fs_copytree(P("src/dangling"), P("one/link"), 0,
				      NULL),
		  0);
	CHECK_STR(link_of(P("one/link")), "../nowhere/at/all");

	/* Read-only folders would stop the sandbox reset of a non-root run. */
	CHECK_INT(pmbench_fs_rmtree_unchecked(P("out")), 0);
	CHECK_INT(pmbench_fs_rmtree_unchecked(P("src")), 0);
}

/*
 * Without root's privileges: a read-only folder copies (its mode is set
 * after it is filled), and a folder we may not read makes an error that
 * names it and the cause.
 */
static int copy_locked_tree(void)
{
	int ret = 0;

	mk("ro", 0755);
	mk("ro/sub", 0755);
	put("ro/sub/f", "x", 0444);
	chmod(P("ro/sub"), 0555);
	chmod(P("ro"), 0555);
	if (pmbench_fs_copytree(P("ro"), P("ro-copy"), 0, NULL) < 0 ||
	    mode_of(P("ro-copy")) != 0555 ||
	    mode_of(P("ro-copy/sub")) != 0555 ||
	    !file_equals(P("ro-copy/sub/f"), "x", 1)) {
		fprintf(stderr, "read-only copy: %s\n", pmbench_error_last());
		ret = 1;
	}
	if (pmbench_fs_rmtree_unchecked(P("ro-copy")) < 0 ||
	    pmbench_fs_rmtree_unchecked(P("ro")) < 0) {
		fprintf(stderr, "cleanup: %s\n", pmbench_error_last());
		ret = 1;
	}

	mk("src", 0755);
	mk("src/locked", 0755);
	put("src/locked/f", "x", 0644);
	put("src/a", "x", 0644);
	chmod(P("src/locked"), 0);
	if (pmbench_fs_copytree(P("src"), P("dst"), 0, NULL) >= 0 ||
	    !strstr(pmbench_error_last(), "src/locked") ||
	    !strstr(pmbench_error_last(), strerror(EACCES))) {
		fprintf(stderr, "unexpected: %s\n", pmbench_error_last());
		ret = 1;
	}
	/* No half copy is left behind. */
	if (pmbench_fs_exists(P("dst"))) {
		fprintf(stderr, "'dst' was left behind\n");
		ret = 1;
	}
	chmod(P("src/locked"), 0755);
	return ret;
}

TEST(fs_copytree_unprivileged)
{
	int ret;

	check_sandbox_tmp();
	ret = check_unprivileged(copy_locked_tree);
	if (ret == CHECK_SKIP_CODE)
		SKIP("root cannot become nobody here (setuid 65534)");
	CHECK_INT(ret, 0);
}

TEST(fs_copytree_hardlinks)
{
	struct pmbench_fs_linkmap *map = pmbench_fs_linkmap_new();
	char name[64], other[64];

	check_sandbox();
	mk("store", 0755);
	mk("nm", 0755);
	mk("nm/pkg", 0755);
	put("store/f", "shared", 0644);
	hardlink("store/f", "nm/pkg/f");
	put("store/lonely", "one link", 0644);
	/* Enough pairs to make the map grow several times. */
	for (int i = 0; i < 300; i++) {
		snprintf(name, sizeof(name), "store/many%d", i);
		snprintf(other, sizeof(other), "nm/pkg/many%d", i);
		put(name, "m", 0644);
		hardlink(name, other);
	}

	CHECK_INT(pmbench_fs_copytree(P("store"), P("out/store"), 0, map), 0);
	CHECK_INT(pmbench_fs_copytree(P("nm"), P("out/nm"), 0, map), 0);
	CHECK(ino_of(P("out/store/f")) != 0);
	CHECK_INT(ino_of(P("out/store/f")), ino_of(P("out/nm/pkg/f")));
	CHECK(ino_of(P("out/store/f")) != ino_of(P("store/f")));
	CHECK_STR(slurp(P("out/nm/pkg/f")), "shared");
	for (int i = 0; i < 300; i++) {
		snprintf(name, sizeof(name), "out/store/many%d", i);
		snprintf(other, sizeof(other), "out/nm/pkg/many%d", i);
		CHECK(ino_of(P(name)) != 0);
		CHECK_INT(ino_of(P(name)), ino_of(P(other)));
	}
	CHECK_STR(slurp(P("out/store/lonely")), "one link");
	pmbench_fs_linkmap_free(map);

	/* Without a map every file is a copy of its own. */
	CHECK_INT(pmbench_fs_copytree(P("store"), P("plain/store"), 0, NULL),
		  0);
	CHECK_INT(pmbench_fs_copytree(P("nm"), P("plain/nm"), 0, NULL), 0);
	CHECK(ino_of(P("plain/store/f")) != 0);
	CHECK(ino_of(P("plain/store/f")) != ino_of(P("plain/nm/pkg/f")));
	CHECK_STR(slurp(P("plain/nm/pkg/f")), "shared");

	/* A pair inside one tree, one call. */
	map = pmbench_fs_linkmap_new();
	CHECK_INT(pmbench_fs_copytree(check_path(""), P("../whole-copy"), 0,
				      map),
		  0);
	pmbench_fs_linkmap_free(map);
	CHECK_INT(ino_of(P("../whole-copy/store/f")),
		  ino_of(P("../whole-copy/nm/pkg/f")));
	CHECK_INT(pmbench_fs_rmtree_unchecked(P("../whole-copy")), 0);
}

static long mtime_nsec_of(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return -1;
	return st.st_mtim.tv_nsec;
}

/* One reset: sync the store, then the tree whose files link into it. */
static void sync_both(struct pmbench_fs_index *idx, const char *trash)
{
	struct pmbench_fs_linkmap *map = pmbench_fs_linkmap_new();

	CHECK_INT(pmbench_fs_synctree(P("src/store"), P("dst/store"), 0, map,
				      idx, trash),
		  0);
	CHECK_INT(pmbench_fs_synctree(P("src/tree"), P("dst/tree"), 0, map, idx,
				      trash),
		  0);
	pmbench_fs_linkmap_free(map);
	pmbench_fs_index_commit(idx);
}

TEST(fs_synctree)
{
	struct pmbench_fs_index *idx = pmbench_fs_index_new();
	char trash[4096];
	ino_t a, b, f;

	check_sandbox();
	snprintf(trash, sizeof(trash), "%s", P("trash"));
	mk("src", 0755);
	mk("src/store", 0755);
	put("src/store/f", "shared", 0644);
	mk("src/tree", 0755);
	mk("src/tree/d", 0750);
	put("src/tree/a", "AAAA", 0644);
	put("src/tree/d/b", "BBBB", 0640);
	sym("b", "src/tree/d/l");
	mk("src/tree/empty", 0755);
	hardlink("src/store/f", "src/tree/d/f");
	set_mtime("src/tree/d", 1000000000, 123);

	/* First: a copy, as copytree makes it. */
	sync_both(idx, trash);
	CHECK_STR(slurp(P("dst/tree/a")), "AAAA");
	CHECK_INT(mode_of(P("dst/tree/d/b")), 0640);
	CHECK_INT(mode_of(P("dst/tree/d")), 0750);
	CHECK_INT(mtime_nsec_of(P("dst/tree/d")), 123);
	CHECK(pmbench_fs_isdir(P("dst/tree/empty")));
	CHECK_INT(ino_of(P("dst/tree/d/f")), ino_of(P("dst/store/f")));
	CHECK(ino_of(P("dst/tree/d/f")) != ino_of(P("src/store/f")));
	/* 8 inodes: the store's link from the tree noted once, last. */
	CHECK_INT(pmbench_fs_index_size(idx), 8);
	a = ino_of(P("dst/tree/a"));
	b = ino_of(P("dst/tree/d/b"));
	f = ino_of(P("dst/store/f"));

	/* Nothing changed: everything kept, nothing discarded. */
	for (int i = 0; i < 3; i++) {
		sync_both(idx, trash);
		CHECK_INT(ino_of(P("dst/tree/a")), a);
		CHECK_INT(ino_of(P("dst/tree/d/b")), b);
		CHECK_INT(ino_of(P("dst/store/f")), f);
		CHECK_INT(ino_of(P("dst/tree/d/f")), f);
	}
	CHECK(!pmbench_fs_exists(trash) || count_entries(trash) == 0);

	/* What a run changed goes back; what it left stays. */
	put("dst/tree/a", "ZZZZ", 0644); /* same size, in place */
	if (chmod(P("dst/tree/d/b"), 0600) < 0)
		pmbench_die("chmod");
	put("dst/tree/extra", "new", 0644);
	mk("dst/tree/d/newdir", 0755);
	put("dst/tree/d/newdir/x", "x", 0644);
	if (unlink(P("dst/tree/d/l")) < 0)
		pmbench_die("unlink");
	sync_both(idx, trash);
	CHECK_STR(slurp(P("dst/tree/a")), "AAAA");
	CHECK(ino_of(P("dst/tree/a")) != a);
	CHECK_INT(mode_of(P("dst/tree/d/b")), 0640);
	CHECK(!pmbench_fs_exists(P("dst/tree/extra")));
	CHECK(!pmbench_fs_exists(P("dst/tree/d/newdir")));
	{
		char target[16] = "";

		CHECK_INT(readlink(P("dst/tree/d/l"), target,
				   sizeof(target) - 1),
			  1);
		CHECK_STR(target, "b");
	}
	CHECK_INT(ino_of(P("dst/tree/d/f")), f);
	CHECK_INT(mode_of(P("dst/tree/d")), 0750);
	CHECK_INT(mtime_nsec_of(P("dst/tree/d")), 123);
	CHECK(count_entries(trash) >= 4);

	/* A store file replaced: the tree's link follows the new copy. */
	if (unlink(P("dst/store/f")) < 0)
		pmbench_die("unlink");
	put("dst/store/f", "other!", 0644);
	sync_both(idx, trash);
	CHECK_STR(slurp(P("dst/store/f")), "shared");
	CHECK_INT(ino_of(P("dst/tree/d/f")), ino_of(P("dst/store/f")));

	/* A source that changed is copied again, though its copy did not. */
	a = ino_of(P("dst/tree/a"));
	put("src/tree/a", "CCCC", 0644);
	set_mtime("src/tree/a", 1000000000, 7);
	sync_both(idx, trash);
	CHECK_STR(slurp(P("dst/tree/a")), "CCCC");
	CHECK(ino_of(P("dst/tree/a")) != a);

	/* Only a committed generation is trusted. */
	a = ino_of(P("dst/tree/a"));
	pmbench_fs_index_free(idx);
	idx = pmbench_fs_index_new();
	sync_both(idx, trash);
	CHECK(ino_of(P("dst/tree/a")) != a);

	/* A file where a folder was, and the copy gone entirely. */
	CHECK_INT(pmbench_fs_rmtree_unchecked(P("dst/tree/empty")), 0);
	put("dst/tree/empty", "not a folder", 0644);
	CHECK_INT(pmbench_fs_rmtree_unchecked(P("dst/store")), 0);
	sync_both(idx, trash);
	CHECK(pmbench_fs_isdir(P("dst/tree/empty")));
	CHECK_INT(ino_of(P("dst/tree/d/f")), ino_of(P("dst/store/f")));
	CHECK_INT(pmbench_fs_synctree(P("src/missing"), P("dst/tree"), 0, NULL,
				      idx, trash),
		  PMBENCH_ENOTFOUND);
	pmbench_fs_index_free(idx);
}

TEST(fs_copytree_flags)
{
	check_sandbox();
	mk("src", 0755);
	mk("src/.git", 0755);
	put("src/.git/HEAD", "ref", 0644);
	mk("src/node_modules", 0755);
	put("src/node_modules/x", "x", 0644);
	mk("src/sub", 0755);
	mk("src/sub/.git", 0755);
	mk("src/sub/node_modules", 0755);
	put("src/keep", "k", 0644);

	CHECK_INT(pmbench_fs_copytree(P("src"), P("a"),
				      PMBENCH_FS_COPY_SKIP_GIT, NULL),
		  0);
	CHECK(!pmbench_fs_exists(P("a/.git")));
	CHECK(pmbench_fs_isdir(P("a/sub/.git")));
	CHECK(pmbench_fs_isfile(P("a/node_modules/x")));

	CHECK_INT(pmbench_fs_copytree(P("src"), P("b"),
				      PMBENCH_FS_COPY_SKIP_NODE_MODULES, NULL),
		  0);
	CHECK(pmbench_fs_isdir(P("b/.git")));
	CHECK(!pmbench_fs_exists(P("b/node_modules")));
	CHECK(!pmbench_fs_exists(P("b/sub/node_modules")));
	CHECK(pmbench_fs_isfile(P("b/keep")));
}

TEST(fs_usage)
{
	struct pmbench_fs_usage u;
	const char *names[] = { "t", "t/sub", "t/one", "t/sub/two", "t/link" };
	uint64_t apparent = 0, disk = 0;
	struct stat st;

	check_sandbox();
	mk("t", 0755);
	mk("t/sub", 0755);
	put("t/one", "12345", 0644);
	put("t/sub/two", "1234567890", 0644);
	hardlink("t/sub/two", "t/two-again");
	hardlink("t/sub/two", "t/sub/two-thrice");
	sym("one", "t/link");
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(names); i++) {
		if (lstat(P(names[i]), &st) < 0)
			pmbench_die("lstat: %s", strerror(errno));
		apparent += (uint64_t)st.st_size;
		disk += (uint64_t)st.st_blocks * 512;
	}

	CHECK_INT(pmbench_fs_usage(&u, P("t")), 0);
	CHECK_INT(u.files, 2);
	CHECK_INT(u.dirs, 2);
	CHECK_INT(u.symlinks, 1);
	CHECK_INT(u.apparent_bytes, apparent);
	CHECK_INT(u.disk_bytes, disk);

	/* A symlink alone is one symlink, never followed. */
	CHECK_INT(pmbench_fs_usage(&u, P("t/link")), 0);
	CHECK_INT(u.symlinks, 1);
	CHECK_INT(u.files, 0);

	u.files = 7;
	CHECK_INT(pmbench_fs_usage(&u, P("missing")), PMBENCH_ENOTFOUND);
	CHECK_INT(u.files, 0);
	CHECK_INT(u.disk_bytes, 0);
}

TEST(fs_rmtree_sandbox)
{
	struct pmbench_buf real = PMBENCH_BUF_INIT;

	check_sandbox();
	mk("work", 0755);
	mk("work/tree", 0755);
	put("work/tree/file", "x", 0644);
	mk("outside", 0755);
	put("outside/keep", "precious", 0644);
	sym("../../outside", "work/tree/escape");
	sym("../outside", "work/link");
	CHECK_INT(pmbench_fs_set_sandbox(P("work")), 0);

	CHECK_INT(pmbench_fs_rmtree(P("outside")), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "refusing to delete '");
	CHECK_CONTAINS(pmbench_error_last(), "outside pmbench's work folder");
	CHECK_INT(pmbench_fs_rmtree(P("work/../outside/keep")),
		  PMBENCH_EINVALID);
	/* The parent resolves through the symlink, to outside. */
	CHECK_INT(pmbench_fs_rmtree(P("work/link/keep")), PMBENCH_EINVALID);
	CHECK_INT(pmbench_fs_rmtree(P("work/link/.")), PMBENCH_EINVALID);
	CHECK_INT(pmbench_fs_empty_dir(P("work/link")), PMBENCH_EINVALID);
	CHECK_INT(pmbench_fs_empty_dir(P("outside")), PMBENCH_EINVALID);
	/* The work folder itself may be emptied but not deleted. */
	CHECK_INT(pmbench_fs_rmtree(P("work")), PMBENCH_EINVALID);
	CHECK_INT(pmbench_fs_rmtree(P("work/")), PMBENCH_EINVALID);
	CHECK_INT(pmbench_fs_rmtree(P("work/tree/..")), PMBENCH_EINVALID);
	CHECK_INT(pmbench_fs_rmtree("/"), PMBENCH_EINVALID);
	CHECK_STR(slurp(P("outside/keep")), "precious");

	/* Deleting a symlink removes the link, not what it points to. */
	CHECK_INT(pmbench_fs_rmtree(P("work/link")), 0);
	CHECK(!pmbench_fs_exists(P("work/link")));
	CHECK_INT(pmbench_fs_rmtree(P("work/tree")), 0);
	CHECK(!pmbench_fs_exists(P("work/tree")));
	CHECK_STR(slurp(P("outside/keep")), "precious");
	CHECK_INT(pmbench_fs_rmtree(P("work/never/was")), 0);
	CHECK_INT(pmbench_fs_rmtree(P("work/nothing")), 0);

	put("work/f", "f", 0644);
	CHECK_INT(pmbench_fs_empty_dir(P("work")), 0);
	CHECK(pmbench_fs_isdir(P("work")));
	CHECK_INT(count_entries(P("work")), 0);

	/* A relative path is judged by where it really is. */
	{
		char *known = realpath(check_path(""), NULL);

		CHECK(known);
		pmbench_buf_adds(&real, known);
		free(known);
	}
	mk("work/rel", 0755);
	if (chdir(P("work")) < 0)
		pmbench_die("chdir: %s", strerror(errno));
	CHECK_INT(pmbench_fs_rmtree("../outside"), PMBENCH_EINVALID);
	CHECK_INT(pmbench_fs_rmtree("rel"), 0);
	if (chdir(real.ptr) < 0)
		pmbench_die("chdir: %s", strerror(errno));
	CHECK(!pmbench_fs_exists(P("work/rel")));
	CHECK_STR(slurp(P("outside/keep")), "precious");

	CHECK_INT(pmbench_fs_set_sandbox(NULL), 0);
	CHECK_INT(pmbench_fs_rmtree(P("outside")), 0);
	CHECK(!pmbench_fs_exists(P("outside")));
	CHECK(pmbench_fs_set_sandbox(P("missing")) < 0);
	pmbench_buf_release(&real);
}

/*
 * pmbench's own writes stay in the sandbox whatever links they meet: a
 * folder on the way that leads outside is refused, a link at the name
 * itself is replaced; the toolchain folder is writable too, and a file
 * the user names goes where they said.
 */
TEST(fs_write_sandbox)
{
	struct stat st;

	check_sandbox();
	mk("work", 0755);
	mk("outside", 0755);
	mk("tools", 0755);
	put("outside/keep", "precious", 0644);
	sym("../outside", "work/pkg");
	sym(P("outside"), "work/abs");
	sym("../outside/keep", "work/file");
	mk("src", 0755);
	put("src/f", "copied", 0644);
	CHECK_INT(pmbench_fs_set_sandbox(P("work")), 0);
	CHECK_INT(pmbench_fs_write_atomic(P("work/pkg/keep"), "x", 1),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "refusing to write '");
	CHECK_CONTAINS(pmbench_error_last(), "outside pmbench's work folder");
	CHECK_INT(pmbench_fs_write_atomic(P("work/abs/new"), "x", 1),
		  PMBENCH_EINVALID);
	CHECK_INT(pmbench_fs_write_atomic(P("outside/keep"), "x", 1),
		  PMBENCH_EINVALID);
	CHECK_INT(pmbench_fs_copyfile(P("src/f"), P("work/pkg/keep")),
		  PMBENCH_EINVALID);
	CHECK_INT(pmbench_fs_copytree(P("src"), P("work/abs/tree"), 0, NULL),
		  PMBENCH_EINVALID);
	CHECK_INT(pmbench_fs_write_atomic(P("tools/stamp"), "x", 1),
		  PMBENCH_EINVALID);
	CHECK_STR(slurp(P("outside/keep")), "precious");
	CHECK(!pmbench_fs_exists(P("outside/new")));
	CHECK(!pmbench_fs_exists(P("outside/tree")));

	/* A link at the name is replaced, in the work folder. */
	CHECK_INT(pmbench_fs_write_atomic(P("work/file"), "new", 3), 0);
	CHECK_INT(lstat(P("work/file"), &st), 0);
	CHECK(S_ISREG(st.st_mode));
	CHECK_STR(slurp(P("work/file")), "new");
	CHECK_STR(slurp(P("outside/keep")), "precious");
	CHECK_INT(pmbench_fs_copytree(P("src"), P("work/tree"), 0, NULL), 0);

	/* The toolchain's folder, and what the user names. */
	CHECK_INT(pmbench_fs_set_writable(P("tools")), 0);
	CHECK_INT(pmbench_fs_write_atomic(P("tools/stamp"), "x", 1), 0);
	CHECK_INT(pmbench_fs_write_atomic(P("work/pkg/keep"), "x", 1),
		  PMBENCH_EINVALID);
	CHECK_INT(pmbench_fs_write_output(P("outside/report"), "r", 1), 0);
	CHECK_STR(slurp(P("outside/report")), "r");

	/* No sandbox, no rule (and the writable folder forgotten). */
	CHECK_INT(pmbench_fs_set_sandbox(NULL), 0);
	CHECK_INT(pmbench_fs_write_atomic(P("work/pkg/new"), "x", 1), 0);
	CHECK_INT(pmbench_fs_set_sandbox(P("work")), 0);
	CHECK_INT(pmbench_fs_write_atomic(P("tools/stamp"), "x", 1),
		  PMBENCH_EINVALID);
	CHECK_INT(pmbench_fs_set_sandbox(NULL), 0);
}

TEST(fs_discard)
{
	struct stat before, after;
	uint64_t limit;
	unsigned forced;
	const char *why = NULL;
	char trash[4096];

	check_sandbox();
	snprintf(trash, sizeof(trash), "%s", P("work/trash"));
	mk("work", 0755);
	mk("work/run", 0755);
	mk("work/run/node_modules", 0755);
	put("work/run/node_modules/f", "x", 0644);
	mk("outside", 0755);
	put("outside/keep", "precious", 0644);
	sym("../outside", "work/link");
	CHECK_INT(pmbench_fs_set_sandbox(P("work")), 0);
	CHECK_INT(lstat(P("work/run/node_modules/f"), &before), 0);

	/* A move, not a copy: the same inode, now in the trash. */
	CHECK_INT(pmbench_fs_discard(P("work/run"), trash), 0);
	CHECK(!pmbench_fs_exists(P("work/run")));
	CHECK_INT(count_entries(trash), 1);
	mk("work/run", 0755);
	CHECK_INT(pmbench_fs_discard(P("work/run"), trash), 0);
	CHECK_INT(count_entries(trash), 2);
	CHECK_INT(pmbench_fs_discard(P("work/never"), trash), 0);
	CHECK_INT(count_entries(trash), 2);

	/* The sandbox's rule, and a symlink goes, not what it points to. */
	CHECK_INT(pmbench_fs_discard(P("outside"), trash), PMBENCH_EINVALID);
	CHECK_INT(pmbench_fs_discard(P("work/link/keep"), trash),
		  PMBENCH_EINVALID);
	CHECK_INT(pmbench_fs_discard(P("work"), trash), PMBENCH_EINVALID);
	CHECK_INT(pmbench_fs_discard(P("work/link"), trash), 0);
	CHECK_STR(slurp(P("outside/keep")), "precious");
	CHECK_INT(count_entries(trash), 3);

	/* The first discard after emptying takes the baseline... */
	CHECK_INT(pmbench_fs_trash_empty(trash), 0);
	CHECK_INT(count_entries(trash), 0);
	mk("work/a", 0755);
	mk("work/b", 0755);
	CHECK_INT(pmbench_fs_discard(P("work/a"), trash), 0);
	/* ... and past the limit a discard empties the trash first. */
	limit = pmbench_fs_trash_limit(0);
	forced = pmbench_fs_trash_forced(NULL);
	CHECK_INT(pmbench_fs_discard(P("work/b"), trash), 0);
	CHECK_INT(count_entries(trash), 1);
	CHECK_INT(pmbench_fs_trash_forced(&why), forced + 1);
	/* It says what was in use against what was free. */
	CHECK(strstr(why, " GB and ") && strstr(why, " free when the trash "
						     "was last empty"));
	pmbench_fs_trash_limit(limit);
	CHECK(!pmbench_fs_exists(P("work/b")));

	/* The moved file is the one that was there. */
	CHECK_INT(pmbench_fs_trash_empty(trash), 0);
	mk("work/run", 0755);
	mk("work/run/node_modules", 0755);
	put("work/run/node_modules/g", "y", 0644);
	CHECK_INT(lstat(P("work/run/node_modules/g"), &before), 0);
	CHECK_INT(pmbench_fs_discard(P("work/run/node_modules/g"), trash), 0);
	CHECK_INT(count_entries(trash), 1);
	{
		DIR *d = opendir(trash);
		struct dirent *e;
		struct pmbench_buf path = PMBENCH_BUF_INIT;

		while (d && (e = readdir(d)))
			if (e->d_name[0] != '.')
				pmbench_buf_addf(&path, "%s/%s", trash,
						 e->d_name);
		if (d)
			closedir(d);
		CHECK_INT(lstat(path.ptr, &after), 0);
		CHECK_INT(after.st_ino, before.st_ino);
		CHECK_STR(slurp(path.ptr), "y");
		pmbench_buf_release(&path);
	}
	CHECK_INT(pmbench_fs_trash_empty(P("work/missing-trash")), 0);
	CHECK_INT(pmbench_fs_set_sandbox(NULL), 0);
}

/* A large emptying is recorded (count, end time); a small one keeps it. */
TEST(fs_trash_record)
{
	struct timespec when, again;
	struct pmbench_buf name = PMBENCH_BUF_INIT;
	uint64_t files = 7;
	char trash[4096];

	check_sandbox();
	snprintf(trash, sizeof(trash), "%s", P("work/trash"));
	mk("work", 0755);
	mk("work/trash", 0755);
	CHECK_INT(pmbench_fs_set_sandbox(P("work")), 0);
	/* Nothing deleted yet, and a few files are no large deletion. */
	CHECK_INT(pmbench_fs_trash_emptied(trash, &when, &files), 0);
	CHECK(files == 0);
	mk("work/trash/few", 0755);
	put("work/trash/few/a", "x", 0644);
	CHECK_INT(pmbench_fs_trash_empty(trash), 0);
	CHECK_INT(pmbench_fs_trash_emptied(trash, &when, NULL), 0);

	/* 1,200 files and their folder. */
	mk("work/trash/many", 0755);
	for (int i = 0; i < 1200; i++) {
		pmbench_buf_reset(&name);
		pmbench_buf_addf(&name, "work/trash/many/f%d", i);
		put(name.ptr, "", 0644);
	}
	CHECK_INT(pmbench_fs_trash_empty(trash), 0);
	CHECK_INT(pmbench_fs_trash_emptied(trash, &when, &files), 1);
	CHECK(files == 1201);
	CHECK(when.tv_sec > 0);

	/* A small emptying later keeps the large one's record as it was. */
	set_mtime("work/trash/.emptied", 1000000000, 5);
	mk("work/trash/few", 0755);
	put("work/trash/few/a", "x", 0644);
	CHECK_INT(pmbench_fs_trash_empty(trash), 0);
	CHECK_INT(pmbench_fs_trash_emptied(trash, &again, &files), 1);
	CHECK(files == 1201);
	CHECK(again.tv_sec == 1000000000 && again.tv_nsec == 5);
	CHECK(!pmbench_fs_exists(P("work/trash/few")));
	/* Not a number: no record. */
	put("work/trash/.emptied", "lots\n", 0644);
	CHECK_INT(pmbench_fs_trash_emptied(trash, &when, &files), 0);
	CHECK_INT(pmbench_fs_set_sandbox(NULL), 0);
	pmbench_buf_release(&name);
}

/*
 * ext4's inode reuse delay read off a /sys and /proc of the test's own:
 * a journal-less ext4 device delays, a journal (a jbd2 entry named after
 * the device) or another file system does not, nor one it cannot tell.
 */
TEST(fs_inode_reuse_delay)
{
	struct pmbench_buf why = PMBENCH_BUF_INIT;
	const unsigned long ext4 = 0xEF53, xfs = 0x58465342;
	dev_t dev = makedev(254, 1);
	char root[4096];

	check_sandbox();
	snprintf(root, sizeof(root), "%s", P("root"));
	mk("root", 0755);
	mk("root/sys", 0755);
	mk("root/sys/dev", 0755);
	mk("root/sys/dev/block", 0755);
	sym("../../devices/virtual/block/vda/vda1", "root/sys/dev/block/254:1");
	mk("root/sys/fs", 0755);
	mk("root/sys/fs/ext4", 0755);
	mk("root/sys/fs/ext4/vda1", 0755);
	mk("root/proc", 0755);
	mk("root/proc/fs", 0755);
	/* No jbd2 at all: cannot tell. */
	CHECK_INT(pmbench_fs_inode_reuse_delay_at(root, ext4, dev, &why), 0);
	mk("root/proc/fs/jbd2", 0755);
	/* Another device's journal, whose name starts the same, does not count. */
	mk("root/proc/fs/jbd2/vda11-8", 0755);
	CHECK_INT(pmbench_fs_inode_reuse_delay_at(root, ext4, dev, &why), 360);
	CHECK_STR(why.ptr, "ext4 without a journal (vda1)");
	/* Not ext4, or another device. */
	CHECK_INT(pmbench_fs_inode_reuse_delay_at(root, xfs, dev, NULL), 0);
	CHECK_INT(pmbench_fs_inode_reuse_delay_at(root, ext4, makedev(254, 2),
						  NULL),
		  0);
	/* Its journal. */
	mk("root/proc/fs/jbd2/vda1-8", 0755);
	CHECK_INT(pmbench_fs_inode_reuse_delay_at(root, ext4, dev, NULL), 0);
	pmbench_buf_release(&why);
}

/* Build folders we cannot write or enter, then delete them. */
static int remove_locked_tree(void)
{
	mk("t", 0755);
	mk("t/a", 0755);
	mk("t/a/b", 0755);
	put("t/a/b/file", "x", 0644);
	mk("t/c", 0755);
	put("t/c/hidden", "x", 0644);
	sym("/etc", "t/a/b/etc");
	chmod(P("t/a/b"), 0500);
	chmod(P("t/a"), 0500);
	chmod(P("t/c"), 0);
	if (pmbench_fs_rmtree(P("t")) < 0) {
		fprintf(stderr, "%s\n", pmbench_error_last());
		return 1;
	}
	if (pmbench_fs_exists(P("t"))) {
		fprintf(stderr, "'t' is still there\n");
		return 1;
	}
	mk("u", 0755);
	mk("u/ro", 0755);
	put("u/ro/f", "x", 0644);
	chmod(P("u/ro"), 0555);
	if (pmbench_fs_empty_dir(P("u")) < 0 || !pmbench_fs_isdir(P("u")) ||
	    count_entries(P("u")) != 0) {
		fprintf(stderr, "empty_dir: %s\n", pmbench_error_last());
		return 1;
	}
	return 0;
}

TEST(fs_rmtree_readonly)
{
	int ret;

	CHECK_INT(pmbench_fs_set_sandbox(check_sandbox_tmp()), 0);
	ret = check_unprivileged(remove_locked_tree);
	pmbench_fs_set_sandbox(NULL);
	if (ret == CHECK_SKIP_CODE)
		SKIP("root cannot become nobody here (setuid 65534)");
	CHECK_INT(ret, 0);
	CHECK(!pmbench_fs_exists(P("t")));
	CHECK(pmbench_fs_isdir(P("u")));
}

/*
 * A checkout under a folder only its owner may enter (root's home is
 * 0700): the cases that drop to another user must still reach their
 * sandbox. Run both with the sandbox root below such a folder.
 */
TEST(fs_unprivileged_under_private_parent)
{
	const char *was = getenv("PMBENCH_TEST_SANDBOX");
	char saved[4096], root[4096];
	int had = was != NULL;

	if (geteuid())
		SKIP("not root: no other user to become (the cases it repeats "
		     "ran as this user)");
	if (had)
		snprintf(saved, sizeof(saved), "%s", was);
	check_sandbox();
	mk("private", 0700);
	snprintf(root, sizeof(root), "%s", P("private/checkout"));
	setenv("PMBENCH_TEST_SANDBOX", root, 1);
	test_fs_copytree_unprivileged();
	test_fs_rmtree_readonly();
	if (had)
		setenv("PMBENCH_TEST_SANDBOX", saved, 1);
	else
		unsetenv("PMBENCH_TEST_SANDBOX");
}

TEST(fs_empty_dir)
{
	check_sandbox();
	CHECK_INT(pmbench_fs_empty_dir(P("new/nested")), 0);
	CHECK(pmbench_fs_isdir(P("new/nested")));
	mk("full", 0750);
	mk("full/d", 0755);
	put("full/d/f", "x", 0644);
	put("full/g", "y", 0644);
	sym("/", "full/root-link");
	{
		ino_t before = ino_of(P("full"));

		CHECK_INT(pmbench_fs_empty_dir(P("full")), 0);
		CHECK_INT(ino_of(P("full")), before);
	}
	CHECK_INT(count_entries(P("full")), 0);
	put("file", "x", 0644);
	CHECK(pmbench_fs_empty_dir(P("file")) < 0);
	CHECK_STR(slurp(P("file")), "x");
}

TEST(fs_write_atomic)
{
	check_sandbox();
	mk("d", 0755);
	CHECK_INT(pmbench_fs_write_atomic(P("d/state.json"), "one", 3), 0);
	CHECK_STR(slurp(P("d/state.json")), "one");
	CHECK_INT(mode_of(P("d/state.json")), 0644);
	CHECK_INT(pmbench_fs_write_atomic(P("d/state.json"), "two!", 4), 0);
	CHECK_STR(slurp(P("d/state.json")), "two!");
	CHECK_INT(pmbench_fs_write_atomic(P("d/empty"), "", 0), 0);
	CHECK_STR(slurp(P("d/empty")), "");
	/* Only the two files: no temporary left over. */
	CHECK_INT(count_entries(P("d")), 2);

	/* Replacing a symlink replaces the link, not its target. */
	put("target", "keep", 0644);
	sym("../target", "d/link");
	CHECK_INT(pmbench_fs_write_atomic(P("d/link"), "new", 3), 0);
	CHECK(link_of(P("d/link")) == NULL);
	CHECK_STR(slurp(P("target")), "keep");

	CHECK(pmbench_fs_write_atomic(P("nodir/x"), "x", 1) < 0);
	CHECK_CONTAINS(pmbench_error_last(), "nodir/x");

	/* A failing rename (onto a folder) removes the temporary. */
	mk("d/sub", 0755);
	put("d/sub/x", "x", 0644);
	CHECK(pmbench_fs_write_atomic(P("d/sub"), "x", 1) < 0);
	CHECK_INT(count_entries(P("d")), 4);
}

/* The file type at `path` (lstat), or 0 if there is nothing. */
static mode_t type_at(const char *path)
{
	struct stat st;

	return lstat(path, &st) < 0 ? 0 : st.st_mode & S_IFMT;
}

TEST(fs_write_output)
{
	struct stat st;

	check_sandbox();
	mk("d", 0755);
	mk("d/results", 0755);
	/* A new name, then a regular file: replaced atomically. */
	CHECK_INT(pmbench_fs_write_output(P("d/r.json"), "one", 3), 0);
	CHECK_STR(slurp(P("d/r.json")), "one");
	CHECK_INT(pmbench_fs_write_output(P("d/r.json"), "two!", 4), 0);
	CHECK_STR(slurp(P("d/r.json")), "two!");
	CHECK_INT(mode_of(P("d/r.json")), 0644);

	/* A relative symlink, through a second one: the target is written. */
	put("d/results/real.json", "old", 0644);
	sym("results/real.json", "d/link1");
	sym("link1", "d/link2");
	CHECK_INT(pmbench_fs_write_output(P("d/link2"), "new", 3), 0);
	CHECK_STR(link_of(P("d/link2")), "link1");
	CHECK_STR(link_of(P("d/link1")), "results/real.json");
	CHECK_STR(slurp(P("d/results/real.json")), "new");
	/* No temporary file left beside the target or the links. */
	CHECK_INT(count_entries(P("d/results")), 1);
	CHECK_INT(count_entries(P("d")), 4);

	/* A dangling absolute symlink: its target is created. */
	sym(P("d/results/made.json"), "d/dangling");
	CHECK_INT(pmbench_fs_write_output(P("d/dangling"), "made", 4), 0);
	CHECK(type_at(P("d/dangling")) == S_IFLNK);
	CHECK_STR(slurp(P("d/results/made.json")), "made");
	/* One whose target's folder is missing fails, naming it. */
	sym("nowhere/x.json", "d/lost");
	CHECK(pmbench_fs_check_output(P("d/lost")) < 0);
	CHECK_CONTAINS(pmbench_error_last(), "nowhere");
	CHECK(pmbench_fs_write_output(P("d/lost"), "x", 1) < 0);
	CHECK(type_at(P("d/lost")) == S_IFLNK);

	/* A symlink loop is an error, not a hang. */
	sym("loop-b", "d/loop-a");
	sym("loop-a", "d/loop-b");
	CHECK(pmbench_fs_write_output(P("d/loop-a"), "x", 1) < 0);
	CHECK(type_at(P("d/loop-a")) == S_IFLNK);

	/* A folder, and a symlink to one: refused, named. */
	CHECK(pmbench_fs_check_output(P("d/results")) < 0);
	CHECK_CONTAINS(pmbench_error_last(), "is a folder");
	sym("results", "d/dirlink");
	CHECK(pmbench_fs_write_output(P("d/dirlink"), "x", 1) < 0);
	CHECK_CONTAINS(pmbench_error_last(), "is a folder");
	CHECK_INT(count_entries(P("d/results")), 2);

	/* A FIFO: refused, left a FIFO; the open never waits for a reader. */
	CHECK_INT(mkfifo(P("d/fifo"), 0644), 0);
	CHECK(pmbench_fs_check_output(P("d/fifo")) < 0);
	CHECK(pmbench_fs_write_output(P("d/fifo"), "x", 1) < 0);
	CHECK_CONTAINS(pmbench_error_last(), "FIFO");
	CHECK(type_at(P("d/fifo")) == S_IFIFO);

	/* A symlink to /dev/null: written through, the link stays. */
	sym("/dev/null", "d/null-link");
	CHECK_INT(pmbench_fs_check_output(P("d/null-link")), 0);
	CHECK_INT(pmbench_fs_write_output(P("d/null-link"), "x", 1), 0);
	CHECK(type_at(P("d/null-link")) == S_IFLNK);
	CHECK_INT(stat("/dev/null", &st), 0);
	CHECK(S_ISCHR(st.st_mode));
	/* A symlink to /dev/full: written through, its ENOSPC the error. */
	sym("/dev/full", "d/full-link");
	CHECK_INT(pmbench_fs_check_output(P("d/full-link")), 0);
	CHECK(pmbench_fs_write_output(P("d/full-link"), "x", 1) < 0);
	CHECK_CONTAINS(pmbench_error_last(), strerror(ENOSPC));
	CHECK(type_at(P("d/full-link")) == S_IFLNK);
	/* A full device of its own in the folder (mknod: root only). */
	if (mknod(P("d/full"), S_IFCHR | 0666, makedev(1, 7)) < 0)
		SKIP("mknod of a character device: %s (root only)",
		     strerror(errno));
	CHECK_INT(pmbench_fs_check_output(P("d/full")), 0);
	CHECK(pmbench_fs_write_output(P("d/full"), "x", 1) < 0);
	CHECK_CONTAINS(pmbench_error_last(), strerror(ENOSPC));
	CHECK(type_at(P("d/full")) == S_IFCHR);
}

TEST(fs_copyfile)
{
	check_sandbox();
	put("a", "alpha", 0750);
	put("b", "old content", 0600);
	CHECK_INT(pmbench_fs_copyfile(P("a"), P("b")), 0);
	CHECK_STR(slurp(P("b")), "alpha");
	CHECK_INT(mode_of(P("b")), 0750);
	CHECK_INT(pmbench_fs_copyfile(P("a"), P("c")), 0);
	CHECK_STR(slurp(P("c")), "alpha");
	CHECK_INT(pmbench_fs_copyfile(P("missing"), P("d")), PMBENCH_ENOTFOUND);
	CHECK(!pmbench_fs_exists(P("d")));
	mk("dir", 0755);
	CHECK(pmbench_fs_copyfile(P("dir"), P("e")) < 0);
	CHECK_INT(count_entries(check_path("")), 4);
}

TEST(fs_find_dirs)
{
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;

	check_sandbox();
	mk("ws", 0755);
	mk("ws/node_modules", 0755);
	mk("ws/node_modules/dep", 0755);
	mk("ws/node_modules/dep/node_modules", 0755);
	mk("ws/packages", 0755);
	mk("ws/packages/a", 0755);
	mk("ws/packages/a/node_modules", 0755);
	mk("ws/packages/b", 0755);
	mk("ws/apps", 0755);
	mk("ws/apps/z", 0755);
	mk("ws/apps/z/node_modules", 0755);
	mk("ws/.git", 0755);
	mk("ws/.git/node_modules", 0755);
	put("ws/packages/b/node_modules", "a file, not a folder", 0644);
	sym("packages", "ws/linked");
	mk("ws/packages/c", 0755);
	sym("../a/node_modules", "ws/packages/c/node_modules");

	pmbench_strvec_push(&v, "before");
	CHECK_INT(pmbench_fs_find_dirs(&v, P("ws"), "node_modules"), 0);
	CHECK_INT(v.nr, 4);
	CHECK_STR(v.v[0], "before");
	CHECK_STR(v.v[1], "apps/z/node_modules");
	CHECK_STR(v.v[2], "node_modules");
	CHECK_STR(v.v[3], "packages/a/node_modules");
	CHECK(v.v[4] == NULL);
	pmbench_strvec_release(&v);

	CHECK_INT(pmbench_fs_find_dirs(&v, P("ws/packages/b"), "node_modules"),
		  0);
	CHECK_INT(v.nr, 0);
	CHECK_INT(pmbench_fs_find_dirs(&v, P("nope"), "node_modules"),
		  PMBENCH_ENOTFOUND);
	pmbench_strvec_release(&v);
}

TEST(fs_abspath)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	struct pmbench_buf want = PMBENCH_BUF_INIT;
	char cwd[4096];

	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	pmbench_buf_addf(&want, "%s/a/c", strcmp(cwd, "/") ? cwd : "");
	pmbench_fs_abspath(&b, "a/./b/../c");
	CHECK_STR(b.ptr, want.ptr);
	pmbench_fs_abspath(&b, "/x/../../y/");
	CHECK_STR(b.ptr, "/y");
	pmbench_fs_abspath(&b, "//a//b/./");
	CHECK_STR(b.ptr, "/a/b");
	pmbench_fs_abspath(&b, "/..");
	CHECK_STR(b.ptr, "/");
	pmbench_fs_abspath(&b, "/never/existed/../here");
	CHECK_STR(b.ptr, "/never/here");
	/* The input may live in the output buffer. */
	pmbench_buf_reset(&b);
	pmbench_buf_adds(&b, "/p/q/../r");
	pmbench_fs_abspath(&b, b.ptr);
	CHECK_STR(b.ptr, "/p/r");
	pmbench_buf_release(&b);
	pmbench_buf_release(&want);
}

TEST(fs_realpath_is_inside)
{
	struct pmbench_buf root = PMBENCH_BUF_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	char *known;

	check_sandbox();
	/* The known answer from libc, not from the module under test. */
	known = realpath(check_path(""), NULL);
	CHECK(known);
	pmbench_buf_adds(&root, known);
	free(known);
	mk("r", 0755);
	mk("r/sub", 0755);
	mk("rx", 0755);
	mk("other", 0755);
	sym("sub", "r/in-link");
	sym("../other", "r/out-link");

	CHECK_INT(pmbench_fs_realpath(&b, P("r/in-link")), 0);
	pmbench_buf_adds(&root, "/r/sub");
	CHECK_STR(b.ptr, root.ptr);
	CHECK_INT(pmbench_fs_realpath(&b, P("r/none")), PMBENCH_ENOTFOUND);

	CHECK_INT(pmbench_fs_is_inside(P("r"), P("r/sub")), 1);
	CHECK_INT(pmbench_fs_is_inside(P("r"), P("r/sub/missing/x/y")), 1);
	CHECK_INT(pmbench_fs_is_inside(P("r"), P("r/in-link")), 1);
	CHECK_INT(pmbench_fs_is_inside(P("r"), P("r")), 0);
	CHECK_INT(pmbench_fs_is_inside(P("r"), P("r/sub/..")), 0);
	CHECK_INT(pmbench_fs_is_inside(P("r"), P("r/out-link")), 0);
	CHECK_INT(pmbench_fs_is_inside(P("r"), P("r/out-link/missing")), 0);
	CHECK_INT(pmbench_fs_is_inside(P("r"), P("r/../other")), 0);
	CHECK_INT(pmbench_fs_is_inside(P("r"), P("rx/f")), 0);
	CHECK_INT(pmbench_fs_is_inside(P("r/out-link"), P("other/f")), 1);
	CHECK_INT(pmbench_fs_is_inside("/", P("r")), 1);
	pmbench_buf_release(&b);
	pmbench_buf_release(&root);
}

TEST(fs_read)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	static char big[100001];

	check_sandbox();
	put("ten", "0123456789", 0644);
	pmbench_buf_adds(&b, "pre:");
	CHECK_INT(pmbench_fs_read(&b, P("ten"), 10), 0);
	CHECK_STR(b.ptr, "pre:0123456789");
	CHECK_INT(pmbench_fs_read(&b, P("ten"), 9), PMBENCH_ERROR);
	CHECK_CONTAINS(pmbench_error_last(), "ten");
	CHECK_STR(b.ptr, "pre:0123456789");
	CHECK_INT(b.len, 14);
	CHECK_INT(pmbench_fs_read(&b, P("gone"), 10), PMBENCH_ENOTFOUND);
	CHECK_INT(b.len, 14);

	memset(big, 'z', sizeof(big) - 1);
	put("big", big, 0644);
	pmbench_buf_reset(&b);
	CHECK_INT(pmbench_fs_read(&b, P("big"), sizeof(big) - 1), 0);
	CHECK_INT(b.len, sizeof(big) - 1);
	CHECK(!memcmp(b.ptr, big, sizeof(big)));
	pmbench_buf_reset(&b);
	CHECK_INT(pmbench_fs_read(&b, P("big"), sizeof(big) - 2),
		  PMBENCH_ERROR);
	CHECK_INT(b.len, 0);
	CHECK_INT(pmbench_fs_read(&b, P("big"), SIZE_MAX), 0);
	CHECK_INT(b.len, sizeof(big) - 1);

	/* A NUL byte in a text file: refused, naming what it should be. */
	{
		static const char *const kinds[][2] = {
			{ "a.json", "malformed JSON" },
			{ ".yarnrc.yml", "malformed YAML" },
			{ "pnpm-workspace.yaml", "malformed YAML" },
			{ "bunfig.toml", "malformed TOML" },
			{ "yarn.lock", "malformed lockfile" },
			{ ".npmrc", "malformed text" },
		};

		for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(kinds); i++) {
			FILE *f = fopen(P(kinds[i][0]), "wb");

			CHECK(f && fwrite("a\0b", 1, 3, f) == 3 && !fclose(f));
			pmbench_buf_reset(&b);
			pmbench_buf_adds(&b, "kept");
			CHECK_INT(pmbench_fs_read_text(&b, P(kinds[i][0]), 100),
				  PMBENCH_EINVALID);
			CHECK_CONTAINS(pmbench_error_last(), kinds[i][1]);
			CHECK_CONTAINS(pmbench_error_last(),
				       "(the file contains a NUL byte)");
			CHECK_STR(b.ptr, "kept");
		}
	}
	pmbench_buf_release(&b);
}

TEST(fs_mkdirp_exists)
{
	check_sandbox();
	CHECK_INT(pmbench_fs_mkdirp(P("a/b/c/"), 0755), 0);
	CHECK(pmbench_fs_isdir(P("a/b/c")));
	CHECK_INT(pmbench_fs_mkdirp(P("a/b"), 0755), 0);
	put("a/file", "x", 0644);
	CHECK(pmbench_fs_mkdirp(P("a/file/d"), 0755) < 0);
	CHECK_CONTAINS(pmbench_error_last(), "a/file");
	CHECK(pmbench_fs_mkdirp(P("a/file"), 0755) < 0);
	sym("b", "a/link");
	CHECK_INT(pmbench_fs_mkdirp(P("a/link/new"), 0755), 0);
	CHECK(pmbench_fs_isdir(P("a/b/new")));

	sym("nowhere", "a/dangling");
	CHECK(pmbench_fs_exists(P("a/dangling")));
	CHECK(!pmbench_fs_isdir(P("a/dangling")));
	CHECK(!pmbench_fs_isfile(P("a/dangling")));
	CHECK(pmbench_fs_isdir(P("a/link")));
	CHECK(pmbench_fs_isfile(P("a/file")));
	CHECK(!pmbench_fs_isfile(P("a/b")));
	CHECK(!pmbench_fs_exists(P("a/none")));
}

TEST(fs_space)
{
	struct pmbench_fs_space sp;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	CHECK_INT(pmbench_fs_space(&sp, check_sandbox()), 0);
	CHECK(sp.total_bytes > 0 && sp.avail_bytes <= sp.total_bytes);
	CHECK(pmbench_fs_space(&sp, "/nonexistent/pmbench") < 0);
	pmbench_error_clear();

	/* 1 MiB is the floor, or 1 % of a file system under 100 MiB. */
	sp.total_bytes = (uint64_t)250 << 30;
	sp.avail_bytes = ((uint64_t)1 << 20) - 1;
	CHECK(pmbench_fs_space_full(&sp));
	sp.avail_bytes = (uint64_t)1 << 20;
	CHECK(!pmbench_fs_space_full(&sp));
	sp.total_bytes = 20000000;
	sp.avail_bytes = 199999;
	CHECK(pmbench_fs_space_full(&sp));
	sp.avail_bytes = 200000;
	CHECK(!pmbench_fs_space_full(&sp));

	/* The root's mount point is "/", with its type. */
	pmbench_fs_describe_mount(&b, "/");
	CHECK(!strncmp(b.ptr, "/ (", 3) && b.ptr[b.len - 1] == ')');
	pmbench_buf_reset(&b);
	/* What it cannot tell is the path itself. */
	pmbench_fs_describe_mount(&b, "/nonexistent/pmbench");
	CHECK_STR(b.ptr, "/nonexistent/pmbench");
	pmbench_buf_release(&b);
}

/*
 * The file system record: /proc is "proc", /dev/shm (where there is one)
 * "tmpfs"; the description names the type, mount point and options; the
 * root's ext4 says whether it keeps a journal.
 */
TEST(fs_mount_record)
{
	struct pmbench_fs_mount m = PMBENCH_FS_MOUNT_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	CHECK_INT(pmbench_fs_mount(&m, "/proc/self"), 0);
	CHECK_STR(m.type.ptr, "proc");
	CHECK_STR(m.point.ptr, "/proc");
	CHECK_INT(m.journal, -1);
	pmbench_fs_mount_describe(&b, &m);
	CHECK(!strncmp(b.ptr, "proc at /proc from ", 19));
	CHECK(strstr(b.ptr, "; r") != NULL);
	if (pmbench_fs_isdir("/dev/shm")) {
		CHECK_INT(pmbench_fs_mount(&m, "/dev/shm"), 0);
		CHECK_STR(m.type.ptr, "tmpfs");
		CHECK_STR(m.point.ptr, "/dev/shm");
	}
	CHECK_INT(pmbench_fs_mount(&m, "/"), 0);
	CHECK_STR(m.point.ptr, "/");
	if (!strcmp(m.type.ptr, "ext4"))
		CHECK(m.journal == 0 || m.journal == 1);
	CHECK_INT(pmbench_fs_mount(&m, "/nonexistent/pmbench"),
		  PMBENCH_ENOTFOUND);
	pmbench_fs_mount_release(&m);
	pmbench_buf_release(&b);
}

/*
 * pmbench_fs_time_mark(): a write right after the mark is changed since
 * it, one right before is not, 50 times over (a write in the same tick
 * as CLOCK_REALTIME_COARSE went unseen in 1 of 2 runs on Linux 6.18).
 */
TEST(fs_time_mark)
{
	char root[4096], dir[4200];
	uint64_t n = 0;
	unsigned seen = 0, clean = 0;

	check_sandbox();
	snprintf(root, sizeof(root), "%s", check_path(""));
	snprintf(dir, sizeof(dir), "%s/tree", root);
	CHECK_INT(pmbench_fs_mkdirp(dir, 0755), 0);
	for (int i = 0; i < 50; i++) {
		struct pmbench_strvec names = PMBENCH_STRVEC_INIT;
		struct pmbench_buf f = PMBENCH_BUF_INIT;
		struct timespec mark;

		pmbench_buf_addf(&f, "%s/before", dir);
		CHECK_INT(pmbench_fs_write_atomic(f.ptr, "x", 1), 0);
		CHECK_INT(pmbench_fs_time_mark(&mark, root), 0);
		CHECK_INT(pmbench_fs_changed_since(&n, &names, 4, root, "tree",
						   &mark),
			  0);
		clean += n == 0;
		pmbench_buf_reset(&f);
		pmbench_buf_addf(&f, "%s/after-%d", dir, i);
		CHECK_INT(pmbench_fs_write_atomic(f.ptr, "y", 1), 0);
		CHECK_INT(pmbench_fs_changed_since(&n, &names, 4, root, "tree",
						   &mark),
			  0);
		/* The new file, and the folder it was added to. */
		seen += n >= 1;
		pmbench_strvec_release(&names);
		pmbench_buf_release(&f);
	}
	CHECK_INT(clean, 50);
	CHECK_INT(seen, 50);
}

CHECK_MAIN(CASE(fs_copytree_roundtrip), CASE(fs_copytree_unprivileged),
	   CASE(fs_copytree_hardlinks), CASE(fs_synctree),
	   CASE(fs_copytree_flags), CASE(fs_usage), CASE(fs_rmtree_sandbox),
	   CASE(fs_write_sandbox), CASE(fs_discard), CASE(fs_trash_record),
	   CASE(fs_inode_reuse_delay), CASE(fs_rmtree_readonly),
	   CASE(fs_unprivileged_under_private_parent), CASE(fs_empty_dir),
	   CASE(fs_write_atomic), CASE(fs_write_output), CASE(fs_copyfile),
	   CASE(fs_find_dirs), CASE(fs_abspath), CASE(fs_realpath_is_inside),
	   CASE(fs_read), CASE(fs_mkdirp_exists), CASE(fs_space),
	   CASE(fs_mount_record), CASE(fs_time_mark))
