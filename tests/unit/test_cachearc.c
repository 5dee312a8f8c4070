/*
 * Cache archives: a tree with symlinks (relative, dangling, pointing out
 * of the tree), hard links, modes and empty folders survives a round trip
 * in every compression; crafted archives that try to write outside the
 * destination are refused and write nothing there.
 */
#include "pmbench/common.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "check.h"
#include "pmbench/buf.h"
#include "pmbench/cachearc.h"
#include "pmbench/fs.h"

static char root[4096];

static const char *P(const char *rel)
{
	static char bufs[64][8192];
	static int i;

	i = (i + 1) % 64;
	snprintf(bufs[i], sizeof(bufs[i]), "%.3000s/%.3000s", root, rel);
	return bufs[i];
}

static void put(const char *rel, const char *text, mode_t mode)
{
	struct pmbench_buf d = PMBENCH_BUF_INIT;
	const char *p = P(rel);
	int fd;

	pmbench_buf_add(&d, p, (size_t)(strrchr(p, '/') - p));
	pmbench_fs_mkdirp(d.ptr, 0755);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		if (write(fd, text, strlen(text)) < 0)
			check_fail(__FILE__, __LINE__, "write %s", p);
		close(fd);
	}
	chmod(p, mode);
	pmbench_buf_release(&d);
}

static void setup(void)
{
	snprintf(root, sizeof(root), "%s", check_sandbox());
}

/* A cache-like tree: a store and a node_modules sharing hard links. */
static void make_tree(void)
{
	struct pmbench_buf big = PMBENCH_BUF_INIT;

	for (int i = 0; i < 2000; i++)
		pmbench_buf_addf(&big, "line %d of a compressible file\n",
				 i % 7);
	put("src/store/a.js", big.ptr, 0644);
	put("src/store/run.sh", "#!/bin/sh\n", 0755);
	put("src/store/secret", "s\n", 0600);
	pmbench_fs_mkdirp(P("src/store/empty"), 0755);
	pmbench_fs_mkdirp(P("src/store/private"), 0700);
	put("src/nm/pkg/index.js", "x\n", 0644);
	/* The same inode in the store and in node_modules. */
	link(P("src/store/a.js"), P("src/nm/pkg/linked.js"));
	link(P("src/store/a.js"), P("src/nm/pkg/linked2.js"));
	pmbench_fs_mkdirp(P("src/nm/.bin"), 0755);
	symlink("../pkg/index.js", P("src/nm/.bin/pkg"));
	symlink("../missing/file", P("src/nm/.bin/dangling"));
	symlink("../../../../outside", P("src/nm/.bin/far"));
	pmbench_fs_mkdirp(P("src/nm/emptydir"), 0755);
	pmbench_buf_release(&big);
}

static mode_t mode_of(const char *rel)
{
	struct stat st;

	if (lstat(P(rel), &st) < 0)
		return (mode_t)-1;
	return st.st_mode & 07777;
}

static const char *link_of(const char *rel)
{
	static char target[4096];
	ssize_t n = readlink(P(rel), target, sizeof(target) - 1);

	target[n < 0 ? 0 : n] = '\0';
	return target;
}

static void round_trip(const char *compression)
{
	struct pmbench_cachearc_compression c;
	struct pmbench_cachearc_stats made, got;
	const struct pmbench_cachearc_map src[] = {
		{ "cache/store", P("src/store") },
		{ "project/node_modules", P("src/nm") },
		{ "project/absent", P("src/absent") },
	};
	struct pmbench_cachearc_map dst[] = {
		{ "cache", P("dst/cache") },
		{ "project", P("dst/project") },
	};
	struct stat a, b, b2;

	CHECK_INT(pmbench_cachearc_parse(&c, compression), 0);
	CHECK_INT(pmbench_cachearc_create(&made, P("arc"), src, 3, &c), 0);
	CHECK(made.archive_bytes > 0);
	CHECK(made.raw_bytes > 0);
	CHECK_INT(made.files, 4); /* a.js once, run.sh, secret, index.js */
	if (c.filter != PMBENCH_CACHEARC_NONE)
		CHECK(made.raw_bytes > made.archive_bytes);
	CHECK(!pmbench_fs_exists(P("dst")));
	CHECK_INT(pmbench_cachearc_extract(&got, P("arc"), dst, 2, root), 0);
	CHECK_INT(got.entries, made.entries);
	CHECK_INT(got.files, made.files);

	CHECK_INT(mode_of("dst/cache/store/run.sh"), 0755);
	CHECK_INT(mode_of("dst/cache/store/secret"), 0600);
	CHECK_INT(mode_of("dst/cache/store/private"), 0700);
	CHECK(pmbench_fs_isdir(P("dst/cache/store/empty")));
	CHECK(pmbench_fs_isdir(P("dst/project/node_modules/emptydir")));
	CHECK_STR(link_of("dst/project/node_modules/.bin/pkg"),
		  "../pkg/index.js");
	CHECK_STR(link_of("dst/project/node_modules/.bin/dangling"),
		  "../missing/file");
	CHECK_STR(link_of("dst/project/node_modules/.bin/far"),
		  "../../../../outside");
	CHECK(!pmbench_fs_exists(P("dst/project/absent")));
	CHECK_INT(stat(P("dst/cache/store/a.js"), &a), 0);
	CHECK_INT(stat(P("dst/project/node_modules/pkg/linked.js"), &b), 0);
	CHECK_INT(stat(P("dst/project/node_modules/pkg/linked2.js"), &b2), 0);
	CHECK(a.st_ino == b.st_ino && a.st_ino == b2.st_ino);
	CHECK_INT(a.st_nlink, 3);
	{
		struct pmbench_buf x = PMBENCH_BUF_INIT, y = PMBENCH_BUF_INIT;

		pmbench_fs_read(&x, P("src/store/a.js"), 1 << 20);
		pmbench_fs_read(&y, P("dst/cache/store/a.js"), 1 << 20);
		CHECK_INT(x.len, y.len);
		CHECK(!memcmp(x.ptr, y.ptr, x.len));
		pmbench_buf_release(&x);
		pmbench_buf_release(&y);
	}
}

TEST(round_trip_none)
{
	setup();
	make_tree();
	round_trip("none");
}

TEST(round_trip_gzip)
{
	setup();
	make_tree();
	round_trip("gzip");
}

TEST(round_trip_zstd)
{
	setup();
	make_tree();
	round_trip("zstd:19");
}

static void same_tree(void);

TEST(same_tree_same_archive)
{
	setup();
	make_tree();
	same_tree();
}

static void same_tree(void)
{
	struct pmbench_cachearc_compression c = { PMBENCH_CACHEARC_NONE, 0 };
	struct pmbench_cachearc_stats s1, s2;
	const struct pmbench_cachearc_map src[] = { { "t", P("src") } };
	struct pmbench_buf x = PMBENCH_BUF_INIT, y = PMBENCH_BUF_INIT;

	CHECK_INT(pmbench_cachearc_create(&s1, P("one.tar"), src, 1, &c), 0);
	CHECK_INT(pmbench_cachearc_create(&s2, P("two.tar"), src, 1, &c), 0);
	pmbench_fs_read(&x, P("one.tar"), 8 << 20);
	pmbench_fs_read(&y, P("two.tar"), 8 << 20);
	CHECK_INT(x.len, y.len);
	CHECK(!memcmp(x.ptr, y.ptr, x.len));
	CHECK_INT(s1.archive_bytes, x.len);
	/* Uncompressed: the file is the tar stream. */
	CHECK_INT(s1.raw_bytes, s1.archive_bytes);
	pmbench_buf_release(&x);
	pmbench_buf_release(&y);
}

TEST(parse_compressions)
{
	struct pmbench_cachearc_compression c;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	CHECK_INT(pmbench_cachearc_parse(&c, "gzip"), 0);
	pmbench_cachearc_name(&b, &c);
	CHECK_STR(b.ptr, "gzip-6");
	CHECK_STR(pmbench_cachearc_suffix(&c), ".tar.gz");
	CHECK_INT(pmbench_cachearc_parse(&c, "zstd:12"), 0);
	pmbench_buf_reset(&b);
	pmbench_cachearc_name(&b, &c);
	CHECK_STR(b.ptr, "zstd-12");
	CHECK_INT(pmbench_cachearc_parse(&c, "none"), 0);
	CHECK_INT(c.filter, PMBENCH_CACHEARC_NONE);
	CHECK_INT(pmbench_cachearc_parse(&c, "zstd:0"), PMBENCH_EINVALID);
	CHECK_INT(pmbench_cachearc_parse(&c, "gzip:10"), PMBENCH_EINVALID);
	CHECK_INT(pmbench_cachearc_parse(&c, "none:3"), PMBENCH_EINVALID);
	CHECK_INT(pmbench_cachearc_parse(&c, "lz4"), PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "unknown compression 'lz4'");
	pmbench_buf_release(&b);
}

/* One crafted entry (or two); type 'f' file, 'l' symlink, 'h' hard link. */
struct crafted {
	char type;
	const char *name;
	const char *target;
};

static void craft(const char *path, const struct crafted *ents, size_t n)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();

	archive_write_set_format_pax_restricted(a);
	archive_write_add_filter_gzip(a);
	archive_write_open_filename(a, path);
	for (size_t i = 0; i < n; i++) {
		archive_entry_clear(e);
		archive_entry_set_pathname(e, ents[i].name);
		archive_entry_set_perm(e, 0644);
		if (ents[i].type == 'f') {
			archive_entry_set_filetype(e, AE_IFREG);
			archive_entry_set_size(e, 4);
		} else if (ents[i].type == 'l') {
			archive_entry_set_filetype(e, AE_IFLNK);
			archive_entry_set_symlink(e, ents[i].target);
		} else if (ents[i].type == 'd') {
			archive_entry_set_filetype(e, AE_IFDIR);
			archive_entry_set_perm(e, 0755);
		} else if (ents[i].type == 'c') {
			archive_entry_set_filetype(e, AE_IFIFO);
		} else {
			archive_entry_set_filetype(e, AE_IFREG);
			archive_entry_set_hardlink(e, ents[i].target);
		}
		archive_write_header(a, e);
		if (ents[i].type == 'f')
			archive_write_data(a, "evil", 4);
	}
	archive_write_close(a);
	archive_write_free(a);
	archive_entry_free(e);
}

static int refused(const char *name, const struct crafted *ents, size_t n)
{
	const struct pmbench_cachearc_map dst[] = {
		{ "cache", P("work/dst") },
	};
	int ret;

	craft(P("evil.tar.gz"), ents, n);
	ret = pmbench_cachearc_extract(NULL, P("evil.tar.gz"), dst, 1,
				       P("work"));
	if (ret >= 0) {
		check_fail(__FILE__, __LINE__, "%s was extracted", name);
		return 0;
	}
	if (!strstr(pmbench_error_last(), name)) {
		check_fail(__FILE__, __LINE__, "message '%s' lacks '%s'",
			   pmbench_error_last(), name);
		return 0;
	}
	return 1;
}

TEST(crafted_archives_refused)
{
	static const char secret[] = "precious\n";

	setup();
	pmbench_fs_mkdirp(P("work"), 0755);
	put("outside/keep", secret, 0644);
	{
		const struct crafted e[] = { { 'f', "cache/../escape", NULL } };

		CHECK(refused("cache/../escape", e, 1));
		CHECK(!pmbench_fs_exists(P("work/escape")));
		CHECK(!pmbench_fs_exists(P("escape")));
	}
	{
		const struct crafted e[] = { { 'f', "../escape", NULL } };

		CHECK(refused("../escape", e, 1));
		CHECK(!pmbench_fs_exists(P("work/escape")));
	}
	{
		struct pmbench_buf abs = PMBENCH_BUF_INIT;
		const struct crafted e[] = { { 'f', P("abs-escape"), NULL } };

		pmbench_buf_adds(&abs, P("abs-escape"));
		CHECK(refused(abs.ptr, e, 1));
		CHECK(!pmbench_fs_exists(abs.ptr));
		pmbench_buf_release(&abs);
	}
	{
		/*
		 * An absolute path outside the sandbox: in a folder of /tmp
		 * made for it, so that the name surely names nothing yet.
		 */
		char dir[] = "/tmp/pmbench-evil-XXXXXX", evil[64];
		const struct crafted e[] = { { 'f', evil, NULL } };
		int was_refused, made;

		CHECK(mkdtemp(dir));
		snprintf(evil, sizeof(evil), "%s/evil", dir);
		was_refused = refused(evil, e, 1);
		made = pmbench_fs_exists(evil);
		unlink(evil);
		rmdir(dir);
		CHECK(was_refused);
		CHECK(!made);
	}
	{
		/* A symlink out of the destination, then a file through it. */
		const struct crafted e[] = {
			{ 'l', "cache/out", "../../outside" },
			{ 'f', "cache/out/evil", NULL },
		};

		CHECK(refused("cache/out/evil", e, 2));
		CHECK(!pmbench_fs_exists(P("outside/evil")));
		pmbench_fs_rmtree_unchecked(P("work/dst"));
	}
	{
		/* An absolute symlink to a folder, then a file through it. */
		const struct crafted e[] = {
			{ 'l', "cache/abs", P("outside") },
			{ 'f', "cache/abs/evil2", NULL },
		};

		CHECK(refused("cache/abs/evil2", e, 2));
		CHECK(!pmbench_fs_exists(P("outside/evil2")));
		pmbench_fs_rmtree_unchecked(P("work/dst"));
	}
	{
		const struct crafted e[] = { { 'h', "cache/hard",
					       P("outside/keep") } };

		CHECK(refused("cache/hard", e, 1));
		CHECK(!pmbench_fs_exists(P("work/dst/hard")));
	}
	{
		const struct crafted e[] = {
			{ 'h', "cache/hard2", "cache/../../outside/keep" },
		};

		CHECK(refused("cache/hard2", e, 1));
		CHECK(!pmbench_fs_exists(P("work/dst/hard2")));
	}
	{
		/* A hard link whose target runs through a symlink out. */
		const struct crafted e[] = {
			{ 'l', "cache/o", "../../outside" },
			{ 'h', "cache/hard3", "cache/o/keep" },
		};

		CHECK(refused("cache/hard3", e, 2));
		CHECK(!pmbench_fs_exists(P("work/dst/hard3")));
		pmbench_fs_rmtree_unchecked(P("work/dst"));
	}
	{
		const struct crafted e[] = { { 'f', "elsewhere/x", NULL } };

		CHECK(refused("elsewhere/x", e, 1));
	}
	{
		const struct crafted e[] = { { 'c', "cache/fifo", NULL } };

		CHECK(refused("cache/fifo", e, 1));
		CHECK(!pmbench_fs_exists(P("work/dst/fifo")));
	}
	{
		/* The precious file is untouched. */
		struct pmbench_buf b = PMBENCH_BUF_INIT;
		struct stat st;

		CHECK_INT(pmbench_fs_read(&b, P("outside/keep"), 4096), 0);
		CHECK_STR(b.ptr, secret);
		CHECK_INT(stat(P("outside/keep"), &st), 0);
		CHECK_INT(st.st_nlink, 1);
		pmbench_buf_release(&b);
	}
}

static void must_be_inside(void);

TEST(destination_must_be_inside)
{
	setup();
	make_tree();
	must_be_inside();
}

static void must_be_inside(void)
{
	struct pmbench_cachearc_compression c = { PMBENCH_CACHEARC_NONE, 0 };
	struct pmbench_cachearc_stats s;
	const struct pmbench_cachearc_map src[] = { { "t", P("src") } };
	const struct pmbench_cachearc_map out[] = { { "t", P("elsewhere") } };
	const struct pmbench_cachearc_map ok[] = { { "t", P("work/t") } };

	pmbench_fs_mkdirp(P("work"), 0755);
	CHECK_INT(pmbench_cachearc_create(&s, P("a.tar"), src, 1, &c), 0);
	CHECK_INT(pmbench_cachearc_extract(NULL, P("a.tar"), out, 1, P("work")),
		  PMBENCH_EINVALID);
	CHECK_CONTAINS(pmbench_error_last(), "not inside");
	CHECK(!pmbench_fs_exists(P("elsewhere")));
	/* A symlink inside the work folder that leads out is no way in. */
	symlink(P("elsewhere2"), P("work/sneaky"));
	{
		const struct pmbench_cachearc_map via[] = {
			{ "t", P("work/sneaky/t") },
		};

		/* Dangling: mkdir cannot go through it. */
		CHECK(pmbench_cachearc_extract(NULL, P("a.tar"), via, 1,
					       P("work")) < 0);
		CHECK(!pmbench_fs_exists(P("elsewhere2")));
	}
	pmbench_fs_mkdirp(P("elsewhere3"), 0755);
	symlink(P("elsewhere3"), P("work/sneaky3"));
	{
		const struct pmbench_cachearc_map via[] = {
			{ "t", P("work/sneaky3/t") },
		};

		CHECK_INT(pmbench_cachearc_extract(NULL, P("a.tar"), via, 1,
						   P("work")),
			  PMBENCH_EINVALID);
		CHECK(!pmbench_fs_exists(P("elsewhere3/t")));
	}
	CHECK_INT(pmbench_cachearc_extract(NULL, P("a.tar"), ok, 1, P("work")),
		  0);
	CHECK(pmbench_fs_isfile(P("work/t/store/a.js")));
	CHECK_INT(pmbench_cachearc_extract(NULL, P("missing.tar"), ok, 1,
					   P("work")),
		  PMBENCH_ENOTFOUND);
}

TEST(only_our_compressions_are_read)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	const struct pmbench_cachearc_map dst[] = { { "cache", NULL } };
	struct pmbench_cachearc_map d = dst[0];

	setup();
	pmbench_fs_mkdirp(P("work"), 0755);
	d.path = P("work/dst");
	archive_write_set_format_pax_restricted(a);
	archive_write_add_filter_bzip2(a);
	archive_write_open_filename(a, P("x.tar.bz2"));
	archive_entry_set_pathname(e, "cache/f");
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_size(e, 4);
	archive_write_header(a, e);
	archive_write_data(a, "data", 4);
	archive_write_close(a);
	archive_write_free(a);
	archive_entry_free(e);
	CHECK(pmbench_cachearc_extract(NULL, P("x.tar.bz2"), &d, 1, P("work")) <
	      0);
	CHECK_CONTAINS(pmbench_error_last(), "x.tar.bz2");
	CHECK(!pmbench_fs_exists(P("work/dst/f")));
}

/*
 * GNU tar, as actions/cache runs it: the tree survives a round trip
 * through tar, and archives of either archiver restore with the other.
 */
static void tar_round_trip(const char *compression)
{
	struct pmbench_cachearc_compression c;
	struct pmbench_cachearc_stats made, got;
	struct pmbench_strvec paths = PMBENCH_STRVEC_INIT;
	const struct pmbench_cachearc_map lib[] = { { "src", P("src") } };
	struct stat a, b;

	CHECK_INT(pmbench_cachearc_parse(&c, compression), 0);
	pmbench_strvec_push(&paths, "src/store");
	pmbench_strvec_push(&paths, "src/nm");
	CHECK_INT(pmbench_cachearc_tar_create(&made, P("t.tar"), root, &paths,
					      &c),
		  0);
	CHECK(made.archive_bytes > 0 && made.raw_bytes > 0);
	CHECK_INT(made.files, 4);
	/* tar's names start at "src/": restore them under "w/src". */
	pmbench_fs_mkdirp(P("w"), 0755);
	{
		const struct pmbench_cachearc_map m[] = { { "src",
							    P("w/src") } };

		CHECK_INT(pmbench_cachearc_tar_extract(&got, P("t.tar"), m, 1,
						       P("w"), &c),
			  0);
		CHECK_INT(got.entries, made.entries);
		CHECK(got.tar_ns > 0);
	}
	CHECK_INT(mode_of("w/src/store/run.sh"), 0755);
	CHECK_INT(mode_of("w/src/store/secret"), 0600);
	CHECK_INT(mode_of("w/src/store/private"), 0700);
	CHECK_STR(link_of("w/src/nm/.bin/pkg"), "../pkg/index.js");
	CHECK_STR(link_of("w/src/nm/.bin/far"), "../../../../outside");
	CHECK_INT(stat(P("w/src/store/a.js"), &a), 0);
	CHECK_INT(stat(P("w/src/nm/pkg/linked2.js"), &b), 0);
	CHECK(a.st_ino == b.st_ino);
	/* tar's archive through pmbench's writer, and the other way. */
	{
		const struct pmbench_cachearc_map m[] = { { "src",
							    P("x/src") } };

		CHECK_INT(pmbench_cachearc_extract(NULL, P("t.tar"), m, 1,
						   root),
			  0);
		CHECK_STR(link_of("x/src/nm/.bin/pkg"), "../pkg/index.js");
		CHECK_INT(mode_of("x/src/store/secret"), 0600);
	}
	CHECK_INT(pmbench_cachearc_create(&made, P("l.tar"), lib, 1, &c), 0);
	pmbench_fs_mkdirp(P("y"), 0755);
	{
		const struct pmbench_cachearc_map m[] = { { "src",
							    P("y/src") } };

		CHECK_INT(pmbench_cachearc_tar_extract(NULL, P("l.tar"), m, 1,
						       P("y"), &c),
			  0);
		CHECK_INT(stat(P("y/src/nm/pkg/linked.js"), &b), 0);
		CHECK_INT(stat(P("y/src/store/a.js"), &a), 0);
		CHECK(a.st_ino == b.st_ino);
	}
	pmbench_strvec_release(&paths);
}

TEST(gnu_tar_round_trip_zstd)
{
	setup();
	make_tree();
	tar_round_trip("zstd");
}

TEST(gnu_tar_round_trip_gzip_none)
{
	setup();
	make_tree();
	tar_round_trip("gzip:1");
	pmbench_fs_rmtree_unchecked(P("w"));
	pmbench_fs_rmtree_unchecked(P("x"));
	pmbench_fs_rmtree_unchecked(P("y"));
	tar_round_trip("none");
}

TEST(gnu_tar_commands_are_actions_cache_ones)
{
	struct pmbench_cachearc_compression c = { PMBENCH_CACHEARC_ZSTD, 3 };
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	pmbench_cachearc_tar_create_args(&v, "c.tzst", "/w", "m.txt", &c);
	pmbench_strvec_join(&b, &v, " ");
	CHECK_STR(b.ptr, "tar --posix -cf c.tzst --exclude c.tzst -P -C /w "
			 "--files-from m.txt --use-compress-program zstdmt");
	pmbench_strvec_release(&v);
	pmbench_buf_reset(&b);
	pmbench_cachearc_tar_extract_args(&v, "c.tzst", "/w", &c);
	pmbench_strvec_join(&b, &v, " ");
	CHECK_STR(b.ptr, "tar -xf c.tzst -P -C /w --use-compress-program "
			 "unzstd --no-same-owner --no-same-permissions");
	pmbench_strvec_release(&v);
	pmbench_buf_reset(&b);
	c.filter = PMBENCH_CACHEARC_GZIP;
	c.level = 6;
	pmbench_cachearc_tar_create_args(&v, "c.tgz", "/w", "m.txt", &c);
	pmbench_strvec_join(&b, &v, " ");
	CHECK_CONTAINS(b.ptr, "m.txt -z");
	pmbench_strvec_release(&v);
	pmbench_buf_release(&b);
}

/* A crafted archive given to GNU tar: refused before tar ever runs. */
static int tar_refused(const char *name, const struct crafted *ents, size_t n)
{
	const struct pmbench_cachearc_map dst[] = {
		{ "cache", P("work/cache") },
	};
	struct pmbench_cachearc_compression gz = { PMBENCH_CACHEARC_GZIP, 0 };
	struct pmbench_cachearc_stats st;
	int ret;

	craft(P("evil.tar.gz"), ents, n);
	ret = pmbench_cachearc_tar_extract(&st, P("evil.tar.gz"), dst, 1,
					   P("work"), &gz);
	if (ret >= 0 || st.tar_ns) {
		check_fail(__FILE__, __LINE__, "%s went to tar", name);
		return 0;
	}
	if (!strstr(pmbench_error_last(), name)) {
		check_fail(__FILE__, __LINE__, "message '%s' lacks '%s'",
			   pmbench_error_last(), name);
		return 0;
	}
	return 1;
}

TEST(gnu_tar_never_gets_a_crafted_archive)
{
	setup();
	pmbench_fs_mkdirp(P("work"), 0755);
	put("outside/keep", "precious\n", 0644);
	{
		/* A good entry first: nothing at all may be written. */
		const struct crafted e[] = { { 'f', "cache/ok", NULL },
					     { 'f', "cache/../escape", NULL } };

		CHECK(tar_refused("cache/../escape", e, 2));
		CHECK(!pmbench_fs_exists(P("work/cache/ok")));
		CHECK(!pmbench_fs_exists(P("work/escape")));
	}
	{
		const struct crafted e[] = { { 'f', P("abs-escape"), NULL } };

		CHECK(tar_refused(P("abs-escape"), e, 1));
		CHECK(!pmbench_fs_exists(P("abs-escape")));
	}
	{
		const struct crafted e[] = {
			{ 'l', "cache/out", "../../outside" },
			{ 'f', "cache/out/evil", NULL },
		};

		CHECK(tar_refused("cache/out/evil", e, 2));
		CHECK(!pmbench_fs_exists(P("outside/evil")));
		CHECK(!pmbench_fs_exists(P("work/cache/out")));
	}
	{
		/* The symlink comes after the file that runs through it. */
		const struct crafted e[] = {
			{ 'd', "cache/late", NULL },
			{ 'f', "cache/late/evil", NULL },
			{ 'l', "cache/late", "../../outside" },
		};

		CHECK(tar_refused("cache/late/evil", e, 3));
	}
	{
		const struct crafted e[] = { { 'h', "cache/hard",
					       P("outside/keep") } };

		CHECK(tar_refused("cache/hard", e, 1));
	}
	{
		const struct crafted e[] = {
			{ 'l', "cache/o", "../../outside" },
			{ 'h', "cache/hard3", "cache/o/keep" },
		};

		CHECK(tar_refused("cache/hard3", e, 2));
	}
	{
		const struct crafted e[] = { { 'c', "cache/fifo", NULL } };

		CHECK(tar_refused("cache/fifo", e, 1));
	}
	{
		const struct crafted e[] = { { 'f', "elsewhere/x", NULL } };

		CHECK(tar_refused("elsewhere/x", e, 1));
	}
	{
		/* A symlink already on disk where a folder is expected. */
		const struct crafted e[] = { { 'f', "cache/disk/evil", NULL } };

		pmbench_fs_mkdirp(P("work/cache"), 0755);
		symlink(P("outside"), P("work/cache/disk"));
		CHECK(tar_refused("cache/disk/evil", e, 1));
		CHECK(!pmbench_fs_exists(P("outside/evil")));
		unlink(P("work/cache/disk"));
	}
	{
		struct pmbench_buf b = PMBENCH_BUF_INIT;
		struct stat st;

		CHECK_INT(pmbench_fs_read(&b, P("outside/keep"), 4096), 0);
		CHECK_STR(b.ptr, "precious\n");
		CHECK_INT(stat(P("outside/keep"), &st), 0);
		CHECK_INT(st.st_nlink, 1);
		pmbench_buf_release(&b);
	}
}

TEST(gnu_tar_maps_must_be_below_its_folder)
{
	struct pmbench_cachearc_compression c = { PMBENCH_CACHEARC_NONE, 0 };
	struct pmbench_cachearc_map src[] = { { "t", NULL } };
	struct pmbench_cachearc_map odd[] = { { "t", NULL } };
	struct pmbench_cachearc_stats s;

	setup();
	src[0].path = P("src");
	odd[0].path = P("work/u");
	make_tree();
	pmbench_fs_mkdirp(P("work"), 0755);
	CHECK_INT(pmbench_cachearc_create(&s, P("a.tar"), src, 1, &c), 0);
	CHECK_INT(pmbench_cachearc_tar_extract(NULL, P("a.tar"), odd, 1,
					       P("work"), &c),
		  PMBENCH_EINVALID);
	CHECK(!pmbench_fs_exists(P("work/t")));
}

/* Set-user-ID bits are dropped by both archivers, even as root. */
TEST(no_setuid_from_a_cache)
{
	struct pmbench_cachearc_compression c = { PMBENCH_CACHEARC_NONE, 0 };
	struct pmbench_cachearc_map m[] = { { "cache", NULL } };

	setup();
	m[0].path = P("work/cache");
	pmbench_fs_mkdirp(P("work"), 0755);
	{
		struct archive *a = archive_write_new();
		struct archive_entry *e = archive_entry_new();

		archive_write_set_format_pax_restricted(a);
		archive_write_open_filename(a, P("suid.tar"));
		archive_entry_set_pathname(e, "cache/suid");
		archive_entry_set_filetype(e, AE_IFREG);
		archive_entry_set_perm(e, 06755);
		archive_entry_set_size(e, 4);
		archive_write_header(a, e);
		archive_write_data(a, "evil", 4);
		archive_write_close(a);
		archive_write_free(a);
		archive_entry_free(e);
	}
	CHECK_INT(pmbench_cachearc_extract(NULL, P("suid.tar"), m, 1,
					   P("work")),
		  0);
	CHECK_INT(mode_of("work/cache/suid"), 0755);
	pmbench_fs_rmtree_unchecked(P("work/cache"));
	CHECK_INT(pmbench_cachearc_tar_extract(NULL, P("suid.tar"), m, 1,
					       P("work"), &c),
		  0);
	CHECK_INT(mode_of("work/cache/suid") & 06000, 0);
}

CHECK_MAIN(CASE(round_trip_none), CASE(round_trip_gzip), CASE(round_trip_zstd),
	   CASE(same_tree_same_archive), CASE(parse_compressions),
	   CASE(crafted_archives_refused), CASE(destination_must_be_inside),
	   CASE(only_our_compressions_are_read), CASE(gnu_tar_round_trip_zstd),
	   CASE(gnu_tar_round_trip_gzip_none),
	   CASE(gnu_tar_commands_are_actions_cache_ones),
	   CASE(gnu_tar_never_gets_a_crafted_archive),
	   CASE(gnu_tar_maps_must_be_below_its_folder),
	   CASE(no_setuid_from_a_cache))
