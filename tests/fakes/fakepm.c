/*
 * A fake package manager for pmbench's integration tests. One binary plays
 * npm, yarn, yarn-berry, pnpm, bun and deno, chosen by the basename of
 * argv[0] (or $FAKEPM_NAME). It logs what it observed on each install to
 * $FAKEPM_LOG, then succeeds, fails, hangs, leaks or crashes on demand.
 * tests/fakes/README.md lists every knob.
 */
#include "pmbench/common.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "pmbench/buf.h"
#include "pmbench/strvec.h"

/* How a linker lays packages out. */
enum layout {
	FLAT,	       /* node_modules/<name> (npm, yarn, bun's default) */
	STORE,	       /* node_modules/<store>/<id>/node_modules/<name> */
	STORE_PACKAGE, /* node_modules/<store>/<id>/package (yarn's pnpm) */
	PNP	       /* no node_modules: .pnp.cjs maps .yarn/unplugged */
};

/* How a store names a package's folder. */
enum store_id {
	ID_PLUS,   /* "@s+b@2.0.0" (pnpm, bun, deno) */
	ID_NESTED, /* "@s/b@2.0.0-fakehash" (npm's linked .store) */
	ID_YARN	   /* "@s-b-npm-2.0.0-fakehash" (yarn's pnpm linker) */
};

struct fake_linker {
	const char *value; /* the setting's value; the first is the default */
	enum layout layout;
	const char *store; /* STORE, STORE_PACKAGE: the folder */
	enum store_id id;
};

/*
 * Every fact about one fake package manager. Like pmbench's own PM
 * table (src/engine/pm/pm.c), which this one must not link: the fake is
 * built without sanitizers from util sources only.
 */
struct fake_pm {
	const char *name;
	const char *version;
	const char *lockfile;
	/* The lockfile is lock_head, the marker, lock_tail. */
	const char *lock_head;
	const char *lock_tail;
	/* The cache: $cache_env, else $HOME/cache_home. */
	const char *cache_env;
	const char *cache_home;
	/* yarn 4's cache rules instead (global cache, cacheFolder). */
	int berry_cache;
	const char *install_words[4];
	const char *run_word;
	/* yarn: a bare call installs and an unknown word is a script. */
	int yarn_style;
	/* CI mode: a command word (npm ci) or an option. */
	const char *frozen_word;
	const char *frozen_options[3];
	/*
	 * Its CI mode deletes node_modules first, every time (npm ci), as
	 * pmbench's table says (PMBENCH_PM_FROZEN_CLEARS): never a no-op.
	 */
	int frozen_clears;
	/* Lockfile only (pmbench's resolve task), or NULL: it has none. */
	const char *lockfile_only;
	/* The question actions/setup-node asks for its cache folder. */
	const char *cache_query[4];
	/*
	 * The linker: chosen by a variable or an option (`--opt value` or
	 * `--opt=value`), one of `linkers`; the first is the default.
	 */
	const char *linker_env;
	const char *linker_option;
	struct fake_linker linkers[4];
	/* The variable the real PM reads its registry from. */
	const char *registry_env;
	/*
	 * The argument that switches its own timers on (bench --explain),
	 * or NULL: it prints them in every run (yarn 4's step lines).
	 */
	const char *timer_flag;
	/*
	 * Dependencies' install scripts, as pmbench's table says of the
	 * real PM: whether it runs them unasked, and what turns them off
	 * and on (an option, or "VAR=value"); see run_lifecycle().
	 */
	int scripts_run;
	const char *scripts_off;
	const char *scripts_on;
	/*
	 * The package.json field whose list names the packages it runs
	 * the scripts of (bun's trustedDependencies), or NULL.
	 */
	const char *scripts_trust;
	/*
	 * It runs a script in the package's folder with INIT_CWD and its
	 * npm_config_user_agent, no npm_lifecycle_event or
	 * npm_package_name (deno 2.9).
	 */
	int scripts_unnamed;
	/*
	 * A side-effects cache (pnpm's sideEffectsCache, on by default):
	 * once it ran has-script's postinstall with a cache, it replays the
	 * built package from there and runs no script, unless this
	 * ("VAR=value") turns the cache off; NULL: none.
	 */
	const char *replay_off;
};

static const struct fake_pm pms[] = {
	{
		.name = "npm",
		.scripts_run = 1,
		.scripts_off = "--ignore-scripts",
		.scripts_on = "npm_config_dangerously_allow_all_scripts=true",
		.timer_flag = "--timing",
		.registry_env = "npm_config_registry",
		.version = "11.0.0-fake",
		.lockfile = "package-lock.json",
		.lock_head = "{\n  \"name\": \"fakepm-project\",\n"
			     "  \"lockfileVersion\": 3,\n"
			     "  \"requires\": true,\n  \"generatedBy\": \"",
		.lock_tail = "\",\n  \"packages\": {}\n}\n",
		.cache_env = "npm_config_cache",
		.cache_home = ".npm",
		.install_words = { "install", "ci", "i", NULL },
		.run_word = "run",
		.frozen_word = "ci",
		.frozen_clears = 1,
		.lockfile_only = "--package-lock-only",
		.cache_query = { "config", "get", "cache", NULL },
		.linker_env = "npm_config_install_strategy",
		.linker_option = "--install-strategy",
		.linkers = { { "hoisted", FLAT, NULL, ID_PLUS },
			     { "nested", FLAT, NULL, ID_PLUS },
			     { "shallow", FLAT, NULL, ID_PLUS },
			     { "linked", STORE, ".store", ID_NESTED } },
	},
	{
		.name = "yarn",
		.scripts_run = 1,
		.scripts_off = "--ignore-scripts",
		.scripts_on = NULL,
		.scripts_trust = "trustedDependencies",
		.timer_flag = "--verbose",
		.registry_env = "YARN_REGISTRY",
		.version = "1.22.22",
		.lockfile = "yarn.lock",
		.lock_head = "# yarn lockfile v1\n# ",
		.lock_tail = "\n\n\nleft-pad@^1.3.0:\n  version \"1.3.0\"\n",
		.cache_env = "YARN_CACHE_FOLDER",
		.cache_home = ".cache/yarn",
		.install_words = { "install", NULL },
		.run_word = "run",
		.yarn_style = 1,
		.frozen_options = { "--frozen-lockfile", NULL },
		.cache_query = { "cache", "dir", NULL },
		.linkers = { { "hoisted", FLAT, NULL, ID_PLUS } },
	},
	{
		.name = "yarn-berry",
		.scripts_run = 0,
		.scripts_off = "YARN_ENABLE_SCRIPTS=false",
		.scripts_on = "YARN_ENABLE_SCRIPTS=true",
		.registry_env = "YARN_NPM_REGISTRY_SERVER",
		.version = "4.18.1",
		.lockfile = "yarn.lock",
		.lock_head = "__metadata:\n  version: 8\n  cacheKey: 10\n# ",
		.lock_tail = "\n\n\"left-pad@npm:^1.3.0\":\n  version: 1.3.0\n",
		.cache_home = ".yarn/berry/cache",
		.berry_cache = 1,
		.install_words = { "install", NULL },
		.run_word = "run",
		.yarn_style = 1,
		.frozen_options = { "--immutable", NULL },
		.lockfile_only = "--mode=update-lockfile",
		.cache_query = { "config", "get", "cacheFolder", NULL },
		/* yarn 4's default is Plug'n'Play. */
		.linker_env = "YARN_NODE_LINKER",
		.linkers = { { "pnp", PNP, NULL, ID_PLUS },
			     { "node-modules", FLAT, NULL, ID_PLUS },
			     { "pnpm", STORE_PACKAGE, ".store", ID_YARN } },
	},
	{
		.name = "pnpm",
		.scripts_run = 0,
		.scripts_off = "--ignore-scripts",
		.scripts_on = "pnpm_config_dangerously_allow_all_builds=true",
		.replay_off = "pnpm_config_side_effects_cache=false",
		.timer_flag = "--reporter=ndjson",
		.registry_env = "pnpm_config_registry",
		.version = "12.0.0-fake",
		.lockfile = "pnpm-lock.yaml",
		.lock_head = "lockfileVersion: '9.0'\n# ",
		.lock_tail = "\n\npackages: {}\n",
		.cache_env = "pnpm_config_store_dir",
		.cache_home = ".local/share/pnpm/store",
		.install_words = { "install", "i", NULL },
		.run_word = "run",
		.frozen_options = { "--frozen-lockfile", NULL },
		.lockfile_only = "--lockfile-only",
		.cache_query = { "store", "path", NULL },
		.linker_env = "pnpm_config_node_linker",
		.linker_option = "--node-linker",
		.linkers = { { "isolated", STORE, ".pnpm", ID_PLUS },
			     { "hoisted", FLAT, NULL, ID_PLUS } },
	},
	{
		.name = "bun",
		.scripts_run = 0,
		.scripts_off = "--ignore-scripts",
		.scripts_on = NULL,
		.scripts_trust = "trustedDependencies",
		.timer_flag = "--verbose",
		.registry_env = "BUN_CONFIG_REGISTRY",
		.version = "1.4.5-fake",
		.lockfile = "bun.lock",
		.lock_head = "{\n  // ",
		.lock_tail = "\n  \"lockfileVersion\": 1,\n"
			     "  \"packages\": {}\n}\n",
		.cache_env = "BUN_INSTALL_CACHE_DIR",
		.cache_home = ".bun/install/cache",
		.install_words = { "install", "i", NULL },
		.run_word = "run",
		.frozen_options = { "--frozen-lockfile", NULL },
		.lockfile_only = "--lockfile-only",
		.linker_option = "--linker",
		.linkers = { { "hoisted", FLAT, NULL, ID_PLUS },
			     { "isolated", STORE, ".bun", ID_PLUS } },
	},
	{
		.name = "deno",
		.scripts_run = 0,
		.scripts_off = NULL,
		.scripts_on = "--allow-scripts",
		.scripts_unnamed = 1,
		.timer_flag = "debug",
		.registry_env = "NPM_CONFIG_REGISTRY",
		.version = "deno 2.9.6 (fake)",
		.lockfile = "deno.lock",
		.lock_head = "{\n  \"version\": \"4\",\n  \"generatedBy\": \"",
		.lock_tail = "\"\n}\n",
		.cache_env = "DENO_DIR",
		.cache_home = ".cache/deno",
		.install_words = { "install", NULL },
		.run_word = "task",
		.frozen_options = { "--frozen", "--frozen=true", NULL },
		.lockfile_only = "--lockfile-only",
		.linkers = { { "auto", STORE, ".deno", ID_PLUS } },
	},
};

static const char *const all_lockfiles[] = {
	"package-lock.json", "npm-shrinkwrap.json",
	"yarn.lock",	     "pnpm-lock.yaml",
	"bun.lock",	     "bun.lockb",
	"deno.lock",
};

static const char *const logged_vars[] = {
	"npm_config_cache",
	"YARN_CACHE_FOLDER",
	"YARN_GLOBAL_FOLDER",
	"YARN_ENABLE_GLOBAL_CACHE",
	"YARN_ENABLE_IMMUTABLE_INSTALLS",
	"pnpm_config_store_dir",
	"pnpm_config_cache_dir",
	"BUN_INSTALL_CACHE_DIR",
	"DENO_DIR",
	"NO_COLOR",
	"FORCE_COLOR",
	"CYPRESS_INSTALL_BINARY",
	"FAKE_FIXTURE_ENV",
};

struct fake {
	const struct fake_pm *pm;
	const struct fake_linker *linker; /* NULL: an unknown setting */
	struct pmbench_buf upper;	  /* YARN_BERRY */
	struct pmbench_buf cache;	  /* empty when it cannot be found */
	struct pmbench_buf tgz;		  /* <cache>/fakepm-<name>.tgz */
	struct pmbench_buf nm;	   /* node_modules/.fakepm-<name>, .pnp.cjs */
	struct pmbench_buf marker; /* generated by fakepm <name> */
	struct pmbench_buf cwd;
	int argc;
	char **argv;
	int frozen; /* CI mode: npm ci, --frozen-lockfile, --immutable, ... */
	int lockfile_only; /* its lockfile-only option: write nothing else */
	int noop;	   /* up to date and FAKEPM_NOOP set: nothing to do */
	const char *linker_value;	 /* as given, or the default's */
	struct pmbench_strvec installed; /* "name@version" */
	/* $TMPDIR at the start: Node's compile cache there; other entries */
	int tmp_compile_cache;
	long tmp_others;
};

/* Keeps $FAKEPM_<NAME>_MEM_MB alive so the compiler cannot drop it. */
static char *volatile mem_hold;

/* An environment variable, treating an empty value as unset. */
static const char *env(const char *key)
{
	const char *v = getenv(key);

	return v && *v ? v : NULL;
}

/* $FAKEPM_<NAME>_<suffix>. */
static const char *pm_env(const struct fake *f, const char *suffix)
{
	struct pmbench_buf key = PMBENCH_BUF_INIT;
	const char *v;

	pmbench_buf_addf(&key, "FAKEPM_%s_%s", f->upper.ptr, suffix);
	v = env(key.ptr);
	pmbench_buf_release(&key);
	return v;
}

static int pm_env_ms(const struct fake *f, const char *suffix, uint64_t def,
		     uint64_t *out)
{
	const char *v = pm_env(f, suffix);

	*out = def;
	if (v && pmbench_parse_u64(out, v) < 0) {
		fprintf(stderr, "fake %s: invalid FAKEPM_%s_%s '%s'\n",
			f->pm->name, f->upper.ptr, suffix, v);
		return -1;
	}
	return 0;
}

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* Read a whole file; -1 with errno set on failure. */
static int read_file(struct pmbench_buf *out, const char *path)
{
	char chunk[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0 ||
	       (n < 0 && errno == EINTR))
		pmbench_buf_add(out, chunk, n > 0 ? (size_t)n : 0);
	close(fd);
	return n < 0 ? -1 : 0;
}

/*
 * Write `len` bytes to `path` opened with O_TRUNC or O_APPEND, complaining
 * on failure. One write(2) suffices for a regular file, and with O_APPEND
 * that keeps lines from parallel fakes whole.
 */
static int put_file(const struct fake *f, const char *path, int how,
		    const void *data, size_t len)
{
	struct pmbench_buf had = PMBENCH_BUF_INIT;
	int fd, same;
	ssize_t n = -1;

	/* What is already there is left alone, as a PM that checks first. */
	same = how == O_TRUNC && read_file(&had, path) == 0 && had.len == len &&
	       !memcmp(had.ptr, data, len);
	pmbench_buf_release(&had);
	if (same)
		return 0;
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | how, 0644);
	if (fd >= 0) {
		while ((n = write(fd, data, len)) < 0 && errno == EINTR)
			;
		if (close(fd) < 0)
			n = -1;
	}
	if (n >= 0 && (size_t)n == len)
		return 0;
	fprintf(stderr, "fake %s: cannot write '%s': %s\n", f->pm->name, path,
		n >= 0 ? "short write" : strerror(errno));
	return -1;
}

/* 1 if `path` is a symlink to `target`. */
static int link_is(const char *path, const char *target)
{
	char got[4096];
	ssize_t n = readlink(path, got, sizeof(got) - 1);

	if (n < 0)
		return 0;
	got[n] = '\0';
	return !strcmp(got, target);
}

static int mkdirp(const struct fake *f, const char *path)
{
	char *p = pmbench_xstrdup(path), *s = p;
	int ret = 0;

	do {
		s = strchr(s + 1, '/');
		if (s)
			*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			fprintf(stderr, "fake %s: cannot create '%s': %s\n",
				f->pm->name, p, strerror(errno));
			ret = -1;
		}
		if (s)
			*s = '/';
	} while (s && !ret);
	free(p);
	return ret;
}

/*
 * What $TMPDIR holds as the fake starts: Node's compile cache
 * (node-compile-cache), and how many entries besides.
 */
static void look_at_tmp(struct fake *f, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!strcmp(e->d_name, "node-compile-cache"))
			f->tmp_compile_cache = 1;
		else
			f->tmp_others++;
	}
	if (d)
		closedir(d);
}

/*
 * What real PMs do on every start: leave a file in the temp folder
 * ($TMPDIR, else /tmp), as pnpm's store locks do. The name says which
 * fake wrote it; the file is left there. With $TMPDIR set, also what
 * Node's compile cache does: node-compile-cache/fakepm-<name>.
 */
static int write_temp_file(struct fake *f)
{
	const char *dir = env("TMPDIR");
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	const char *tag = env("FAKEPM_TAG");
	int ret;

	if (dir)
		look_at_tmp(f, dir);
	pmbench_buf_addf(&path, "%s/pmbench-fakepm-%s%s%s-%ld",
			 dir ? dir : "/tmp", tag ? tag : "", tag ? "-" : "",
			 f->pm->name, (long)getpid());
	ret = put_file(f, path.ptr, O_TRUNC, "fakepm\n", 7);
	if (!ret && dir) {
		pmbench_buf_reset(&path);
		pmbench_buf_addf(&path, "%s/node-compile-cache", dir);
		ret = mkdirp(f, path.ptr);
		pmbench_buf_addf(&path, "/fakepm-%s", f->pm->name);
		if (!ret)
			ret = put_file(f, path.ptr, O_TRUNC, "cached\n", 7);
	}
	pmbench_buf_release(&path);
	return ret;
}

/* Where the real package manager keeps its cache, from the environment. */
static void find_cache(struct fake *f)
{
	const char *home = env("HOME"), *v, *g;
	struct pmbench_buf *b = &f->cache;

	if (!f->pm->berry_cache) {
		v = env(f->pm->cache_env);
		if (v)
			pmbench_buf_adds(b, v);
		else if (home)
			pmbench_buf_path(b, home, f->pm->cache_home);
		return;
	}
	/*
	 * Berry ignores cacheFolder while the global cache is on (the
	 * default); with it off the cache lives in the project unless
	 * cacheFolder moves it.
	 */
	g = env("YARN_ENABLE_GLOBAL_CACHE");
	if (g && (!strcmp(g, "false") || !strcmp(g, "0"))) {
		v = env("YARN_CACHE_FOLDER");
		if (v)
			pmbench_buf_adds(b, v);
		else
			pmbench_buf_path(b, f->cwd.ptr, ".yarn/cache");
	} else if ((v = env("YARN_GLOBAL_FOLDER"))) {
		pmbench_buf_path(b, v, "cache");
	} else if (home) {
		pmbench_buf_path(b, home, f->pm->cache_home);
	}
}

/*
 * 1 if our own lockfile exists and this fake wrote it. The marker must not
 * run on into a longer name, so yarn never claims yarn-berry's file.
 */
static int own_lockfile(const struct fake *f)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	const char *p;
	int found = 0;

	if (read_file(&text, f->pm->lockfile) < 0)
		pmbench_buf_reset(&text);
	for (p = text.ptr; !found && (p = strstr(p, f->marker.ptr));) {
		p += f->marker.len;
		found = !(*p == '-' || (*p >= 'a' && *p <= 'z'));
	}
	pmbench_buf_release(&text);
	return found;
}

static void add_str(cJSON *obj, const char *key, const char *val)
{
	if (val)
		cJSON_AddStringToObject(obj, key, val);
	else
		cJSON_AddNullToObject(obj, key);
}

static void add_env(cJSON *envobj, const char *key)
{
	if (!cJSON_GetObjectItemCaseSensitive(envobj, key))
		add_str(envobj, key, getenv(key));
}

/*
 * A digest of a tree (FAKEPM_DIGEST=1): every entry's relative path,
 * type, mode and content (or link target), hashed, the hashes summed so
 * that the walk's order does not matter. Two trees with the same digest
 * hold the same files.
 */
static uint64_t digest_sum;
static size_t digest_root;

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3u;
	}
	return h;
}

static int digest_one(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	uint64_t h = 0xcbf29ce484222325u;
	unsigned mode = (unsigned)st->st_mode;
	char buf[4096];

	(void)type;
	(void)ftw;
	h = fnv(h, path + digest_root, strlen(path + digest_root) + 1);
	h = fnv(h, &mode, sizeof(mode));
	if (S_ISREG(st->st_mode)) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n;

		while (fd >= 0 && (n = read(fd, buf, sizeof(buf))) > 0)
			h = fnv(h, buf, (size_t)n);
		if (fd >= 0)
			close(fd);
	} else if (S_ISLNK(st->st_mode)) {
		ssize_t n = readlink(path, buf, sizeof(buf));

		if (n > 0)
			h = fnv(h, buf, (size_t)n);
	}
	digest_sum += h;
	return 0;
}

static void add_digest(cJSON *root, const char *key, const char *dir)
{
	char hex[17];

	digest_sum = 0;
	digest_root = strlen(dir);
	if (!exists(dir) || nftw(dir, digest_one, 16, FTW_PHYS) < 0) {
		cJSON_AddNullToObject(root, key);
		return;
	}
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)digest_sum);
	cJSON_AddStringToObject(root, key, hex);
}

/*
 * FAKEPM_SCRIBBLE=1: what a careless PM could do to the state it was
 * given, for the next reset to undo: every file of node_modules and the
 * cache overwritten in place (same size), a file and a folder added to
 * each, one file's mode changed.
 */
static int scribble_one(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	(void)type;
	(void)ftw;
	if (S_ISREG(st->st_mode) && st->st_size > 0) {
		int fd = open(path, O_WRONLY | O_CLOEXEC);

		if (fd >= 0) {
			if (pwrite(fd, "#", 1, 0) < 0)
				perror("fake scribble");
			close(fd);
		}
		chmod(path, 0600);
	}
	return 0;
}

static void scribble(const struct fake *f)
{
	const char *dirs[] = { "node_modules",
			       f->cache.len ? f->cache.ptr : NULL };

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(dirs); i++) {
		struct pmbench_buf p = PMBENCH_BUF_INIT;

		if (!dirs[i] || !exists(dirs[i]))
			continue;
		nftw(dirs[i], scribble_one, 16, FTW_PHYS);
		pmbench_buf_addf(&p, "%s/.stray", dirs[i]);
		put_file(f, p.ptr, O_TRUNC, "stray\n", 6);
		pmbench_buf_addf(&p, "-dir");
		mkdir(p.ptr, 0755);
		pmbench_buf_release(&p);
	}
}

/* Append one JSON line describing what we found to $FAKEPM_LOG. */
/* package.json's "packageManager" as the PM found it (corepack reads it). */
static void add_package_manager(cJSON *root)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	cJSON *pkg = NULL;
	const cJSON *v;

	if (read_file(&text, "package.json") == 0)
		pkg = cJSON_Parse(text.ptr);
	v = cJSON_GetObjectItemCaseSensitive(pkg, "packageManager");
	if (cJSON_IsString(v))
		cJSON_AddStringToObject(root, "package_manager",
					v->valuestring);
	cJSON_Delete(pkg);
	pmbench_buf_release(&text);
}

static int log_install(const struct fake *f)
{
	struct pmbench_strvec extra = PMBENCH_STRVEC_INIT;
	struct pmbench_buf line = PMBENCH_BUF_INIT;
	const char *logfile = env("FAKEPM_LOG");
	cJSON *root, *arr, *envobj;
	char *json;
	size_t i;
	int ret;

	if (!logfile)
		return 0;
	root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "pm", f->pm->name);
	arr = cJSON_AddArrayToObject(root, "argv");
	for (i = 1; i < (size_t)f->argc; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(f->argv[i]));
	cJSON_AddStringToObject(root, "cwd", f->cwd.ptr);
	add_str(root, "home", getenv("HOME"));
	add_str(root, "cache_dir", f->cache.len ? f->cache.ptr : NULL);
	cJSON_AddBoolToObject(root, "cache_warm",
			      f->tgz.len && exists(f->tgz.ptr));
	cJSON_AddBoolToObject(root, "lockfile", own_lockfile(f));
	arr = cJSON_AddArrayToObject(root, "lockfile_any");
	for (i = 0; i < PMBENCH_ARRAY_SIZE(all_lockfiles); i++)
		if (exists(all_lockfiles[i]))
			cJSON_AddItemToArray(
				arr, cJSON_CreateString(all_lockfiles[i]));
	cJSON_AddBoolToObject(root, "node_modules", exists(f->nm.ptr));
	cJSON_AddBoolToObject(root, "node_modules_any", exists("node_modules"));
	if (getenv("FAKEPM_DIGEST")) {
		add_digest(root, "node_modules_digest", "node_modules");
		add_digest(root, "cache_digest",
			   f->cache.len ? f->cache.ptr : "/nowhere");
	}
	add_package_manager(root);
	cJSON_AddBoolToObject(root, "frozen", f->frozen);
	cJSON_AddBoolToObject(root, "lockfile_only", f->lockfile_only);
	add_str(root, "linker", f->linker_value);
	cJSON_AddBoolToObject(root, "noop", f->noop);
	cJSON_AddBoolToObject(root, "tmp_compile_cache", f->tmp_compile_cache);
	cJSON_AddNumberToObject(root, "tmp_others", (double)f->tmp_others);
	/* The user's configuration it was given, as the real one reads it. */
	{
		struct pmbench_buf rc = PMBENCH_BUF_INIT;
		const char *home = env("HOME");

		if (home)
			pmbench_buf_path(&rc, home, ".npmrc");
		cJSON_AddBoolToObject(root, "home_npmrc",
				      home && access(rc.ptr, F_OK) == 0);
		pmbench_buf_release(&rc);
	}
	add_str(root, "ci", getenv("CI"));
	/* Which registry it was given, as the real PM would read it. */
	add_str(root, "registry", getenv(f->pm->registry_env));
	envobj = cJSON_AddObjectToObject(root, "env");
	for (i = 0; i < PMBENCH_ARRAY_SIZE(logged_vars); i++)
		add_env(envobj, logged_vars[i]);
	pmbench_strvec_split(
		&extra,
		getenv("FAKEPM_LOG_VARS") ? getenv("FAKEPM_LOG_VARS") : "",
		',');
	for (i = 0; i < extra.nr; i++)
		add_env(envobj, extra.v[i]);
	cJSON_AddNumberToObject(root, "pid", (double)getpid());
	cJSON_AddNumberToObject(root, "pgid", (double)getpgrp());
	cJSON_AddNumberToObject(root, "sid", (double)getsid(0));
	json = cJSON_PrintUnformatted(root);
	if (!json)
		pmbench_die("out of memory printing JSON");
	pmbench_buf_adds(&line, json);
	pmbench_buf_addch(&line, '\n');
	ret = put_file(f, logfile, O_APPEND, line.ptr, line.len);
	cJSON_free(json);
	cJSON_Delete(root);
	pmbench_strvec_release(&extra);
	pmbench_buf_release(&line);
	return ret;
}

/* A store's name for a package's folder (see enum store_id). */
static void store_id(struct pmbench_buf *out, enum store_id id,
		     const char *name, const char *version)
{
	for (const char *p = name; *p; p++)
		pmbench_buf_addch(out, *p != '/' || id == ID_NESTED ? *p
				       : id == ID_PLUS		    ? '+'
								    : '-');
	if (id == ID_YARN)
		pmbench_buf_addf(out, "-npm-%s-fakehash", version);
	else if (id == ID_NESTED)
		pmbench_buf_addf(out, "@%s-fakehash", version);
	else
		pmbench_buf_addf(out, "@%s", version);
}

/* Where the linker puts package `name`@`version`, relative. */
static void package_dir(struct pmbench_buf *out, const struct fake *f,
			const char *name, const char *version)
{
	const struct fake_linker *l = f->linker;

	pmbench_buf_reset(out);
	switch (l->layout) {
	case FLAT:
		pmbench_buf_addf(out, "node_modules/%s", name);
		break;
	case STORE:
		pmbench_buf_addf(out, "node_modules/%s/", l->store);
		store_id(out, l->id, name, version);
		pmbench_buf_addf(out, "/node_modules/%s", name);
		break;
	case STORE_PACKAGE:
		pmbench_buf_addf(out, "node_modules/%s/", l->store);
		store_id(out, l->id, name, version);
		pmbench_buf_adds(out, "/package");
		break;
	case PNP:
		pmbench_buf_adds(out, ".yarn/unplugged/");
		store_id(out, ID_YARN, name, version);
		pmbench_buf_addf(out, "/node_modules/%s", name);
		break;
	}
}

/* A store layout's top-level link node_modules/<name> -> its folder. */
static int link_top(const struct fake *f, const char *name, const char *dir)
{
	struct pmbench_buf link = PMBENCH_BUF_INIT, to = PMBENCH_BUF_INIT;
	const char *slash = strchr(name, '/');
	int ret = 0;

	if (f->linker->layout != STORE && f->linker->layout != STORE_PACKAGE)
		return 0;
	pmbench_buf_addf(&link, "node_modules/%s", name);
	if (slash) {
		pmbench_buf_addf(&to, "node_modules/%.*s", (int)(slash - name),
				 name);
		ret = mkdirp(f, to.ptr);
		pmbench_buf_reset(&to);
		pmbench_buf_adds(&to, "../");
	}
	/* `dir` starts with "node_modules/". */
	pmbench_buf_adds(&to, dir + 13);
	if (!ret && !link_is(link.ptr, to.ptr) &&
	    ((unlink(link.ptr) < 0 && errno != ENOENT) ||
	     symlink(to.ptr, link.ptr) < 0)) {
		fprintf(stderr, "fake %s: cannot link '%s': %s\n", f->pm->name,
			link.ptr, strerror(errno));
		ret = -1;
	}
	pmbench_buf_release(&link);
	pmbench_buf_release(&to);
	return ret;
}

/*
 * Install one package where the linker puts it: its folder (into *dir)
 * with a package.json (`json`, or name and version), the top-level link
 * of a store layout; remembered for a Plug'n'Play map.
 */
static int install_package(struct fake *f, struct pmbench_buf *dir,
			   const char *name, const char *version,
			   const char *json)
{
	struct pmbench_buf file = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	int ret;

	package_dir(dir, f, name, version);
	if (json)
		pmbench_buf_adds(&text, json);
	else
		pmbench_buf_addf(&text,
				 "{\"name\":\"%s\",\"version\":"
				 "\"%s\"}\n",
				 name, version);
	pmbench_buf_addf(&file, "%s/package.json", dir->ptr);
	ret = mkdirp(f, dir->ptr);
	if (!ret)
		ret = put_file(f, file.ptr, O_TRUNC, text.ptr, text.len);
	if (!ret)
		ret = link_top(f, name, dir->ptr);
	pmbench_strvec_pushf(&f->installed, "%s@%s", name, version);
	pmbench_buf_release(&file);
	pmbench_buf_release(&text);
	return ret;
}

/*
 * The install's products: cache entry, lockfile and a tiny node_modules
 * (or, for Plug'n'Play, unplugged packages; write_pnp() maps them).
 */
/*
 * $FAKEPM_<NAME>_RELOCK=1: an install that finds its own lockfile
 * resolves again anyway: it asks for $FAKEPM_<NAME>_FETCH_FRESH and
 * writes a lockfile that differs from the one it found.
 */
static int relocks(const struct fake *f)
{
	const char *v = pm_env(f, "RELOCK");

	return v && !strcmp(v, "1");
}

/*
 * The own lockfile's text; relocking, the marker is followed by
 * " (relocked <pid>)", so that every such install changes it.
 */
static void lock_text(const struct fake *f, struct pmbench_buf *out)
{
	pmbench_buf_addf(out, "%s%s", f->pm->lock_head, f->marker.ptr);
	if (relocks(f))
		pmbench_buf_addf(out, " (relocked %ld)", (long)getpid());
	pmbench_buf_adds(out, f->pm->lock_tail);
}

/* Lockfile only: the own lockfile, and nothing else. */
static int write_lockfile(struct fake *f)
{
	struct pmbench_buf data = PMBENCH_BUF_INIT;
	int ret;

	lock_text(f, &data);
	ret = put_file(f, f->pm->lockfile, O_TRUNC, data.ptr, data.len);
	pmbench_buf_release(&data);
	return ret;
}

static int write_outputs(struct fake *f, int with_lockfile)
{
	struct pmbench_buf data = PMBENCH_BUF_INIT, dir = PMBENCH_BUF_INIT;
	int pnp = f->linker->layout == PNP;
	int ret = -1;

	while (data.len < 1024)
		pmbench_buf_addf(&data, "fakepm %s cache\n", f->pm->name);
	if (f->cache.len &&
	    (mkdirp(f, f->cache.ptr) < 0 ||
	     put_file(f, f->tgz.ptr, O_TRUNC, data.ptr, data.len) < 0))
		goto done;
	pmbench_buf_reset(&data);
	lock_text(f, &data);
	if (with_lockfile &&
	    put_file(f, f->pm->lockfile, O_TRUNC, data.ptr, data.len) < 0)
		goto done;
	if (!pnp &&
	    (mkdirp(f, "node_modules/.bin") < 0 ||
	     put_file(f, f->nm.ptr, O_TRUNC, f->marker.ptr, f->marker.len) < 0))
		goto done;
	if (install_package(f, &dir, "has-script", "1.0.0",
			    "{\"name\":\"has-script\",\"version\":"
			    "\"1.0.0\",\"scripts\":{\"postinstall\":"
			    "\"node -e 0\"}}\n") < 0 ||
	    install_package(f, &dir, "left-pad", "1.3.0", NULL) < 0)
		goto done;
	/* index.js is exactly 4096 bytes: the code, then comment padding. */
	pmbench_buf_reset(&data);
	pmbench_buf_adds(&data, "'use strict';\nmodule.exports = (s, n, c) "
				"=> String(s).padStart(n, c);\n");
	while (data.len < 4096)
		pmbench_buf_adds(&data, "// padding to a whole page\n");
	pmbench_buf_setlen(&data, 4095);
	pmbench_buf_addch(&data, '\n');
	pmbench_buf_adds(&dir, "/index.js");
	if (put_file(f, dir.ptr, O_TRUNC, data.ptr, data.len) < 0)
		goto done;
	if (!pnp &&
	    !link_is("node_modules/.bin/left-pad", "../left-pad/index.js") &&
	    ((unlink("node_modules/.bin/left-pad") < 0 && errno != ENOENT) ||
	     symlink("../left-pad/index.js", "node_modules/.bin/left-pad") <
		     0)) {
		fprintf(stderr, "fake %s: cannot link '%s': %s\n", f->pm->name,
			"node_modules/.bin/left-pad", strerror(errno));
		goto done;
	}
	ret = 0;
done:
	pmbench_buf_release(&data);
	pmbench_buf_release(&dir);
	return ret;
}

/*
 * $FAKEPM_<NAME>_PACKAGES ("a@1.0.0,@s/b@2.0.0"): more packages, so that
 * two fakes can resolve differently; $FAKEPM_<NAME>_RUN_SCRIPTS=1:
 * has-script's postinstall "runs" (leaves postinstall-ran in its
 * folder).
 */
static int write_extra_packages(struct fake *f)
{
	struct pmbench_strvec list = PMBENCH_STRVEC_INIT;
	struct pmbench_buf name = PMBENCH_BUF_INIT, dir = PMBENCH_BUF_INIT;
	const char *v = pm_env(f, "PACKAGES"), *s = pm_env(f, "RUN_SCRIPTS");
	int ret = 0;

	if (v)
		pmbench_strvec_split(&list, v, ',');
	for (size_t i = 0; i < list.nr && !ret; i++) {
		const char *at = strrchr(list.v[i], '@');

		if (!at || at == list.v[i]) {
			fprintf(stderr,
				"fake %s: FAKEPM_%s_PACKAGES: '%s' is "
				"not name@version\n",
				f->pm->name, f->upper.ptr, list.v[i]);
			ret = -1;
			break;
		}
		pmbench_buf_reset(&name);
		pmbench_buf_add(&name, list.v[i], (size_t)(at - list.v[i]));
		ret = install_package(f, &dir, name.ptr, at + 1, NULL);
	}
	if (!ret && s && !strcmp(s, "1")) {
		package_dir(&dir, f, "has-script", "1.0.0");
		pmbench_buf_adds(&dir, "/postinstall-ran");
		ret = put_file(f, dir.ptr, O_TRUNC, "ran\n", 4);
	}
	pmbench_strvec_release(&list);
	pmbench_buf_release(&name);
	pmbench_buf_release(&dir);
	return ret;
}

/*
 * The runtime state of yarn's Plug'n'Play map: packageRegistryData with
 * the project (a null name) and every package installed, each under its
 * name with the reference npm:<version> and its packageLocation.
 */
static cJSON *pnp_state(const struct fake *f)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT, dir = PMBENCH_BUF_INIT;
	cJSON *root = cJSON_CreateObject(), *data, *entry, *refs, *ref, *loc;

	cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "__info"),
			     cJSON_CreateString(f->marker.ptr));
	data = cJSON_AddArrayToObject(root, "packageRegistryData");
	cJSON_AddItemToArray(
		data,
		cJSON_Parse("[null, [[null, {\"packageLocation\": \"./\", "
			    "\"linkType\": \"SOFT\"}]]]"));
	for (size_t i = 0; i < f->installed.nr; i++) {
		const char *p = f->installed.v[i];
		const char *at = strrchr(p, '@');

		pmbench_buf_reset(&b);
		pmbench_buf_add(&b, p, (size_t)(at - p));
		package_dir(&dir, f, b.ptr, at + 1);
		entry = cJSON_CreateArray();
		cJSON_AddItemToArray(entry, cJSON_CreateString(b.ptr));
		refs = cJSON_CreateArray();
		ref = cJSON_CreateArray();
		pmbench_buf_reset(&b);
		pmbench_buf_addf(&b, "npm:%s", at + 1);
		cJSON_AddItemToArray(ref, cJSON_CreateString(b.ptr));
		loc = cJSON_CreateObject();
		pmbench_buf_reset(&b);
		pmbench_buf_addf(&b, "./%s/", dir.ptr);
		cJSON_AddStringToObject(loc, "packageLocation", b.ptr);
		cJSON_AddStringToObject(loc, "linkType", "HARD");
		cJSON_AddItemToArray(ref, loc);
		cJSON_AddItemToArray(refs, ref);
		cJSON_AddItemToArray(entry, refs);
		cJSON_AddItemToArray(data, entry);
	}
	pmbench_buf_release(&b);
	pmbench_buf_release(&dir);
	return root;
}

/*
 * yarn's Plug'n'Play map, the way yarn 4 writes it: .pnp.cjs with the
 * runtime state as JSON in a single-quoted string (backslashes and
 * quotes escaped, each line ending in a backslash), listing every
 * package installed; .pnp.loader.mjs and the install state beside it.
 */
static int write_pnp(const struct fake *f)
{
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	cJSON *state;
	char *json;
	int ret = -1;

	if (f->linker->layout != PNP)
		return 0;
	state = pnp_state(f);
	json = cJSON_Print(state);
	if (!json)
		pmbench_die("out of memory printing JSON");
	pmbench_buf_addf(&out,
			 "#!/usr/bin/env node\n/* eslint-disable */\n"
			 "// %s\n\"use strict\";\n\n"
			 "const RAW_RUNTIME_STATE =\n'",
			 f->marker.ptr);
	for (const char *c = json; *c; c++) {
		if (*c == '\\' || *c == '\'' || *c == '\n')
			pmbench_buf_addch(&out, '\\');
		pmbench_buf_addch(&out, *c);
	}
	pmbench_buf_adds(&out,
			 "';\n\nfunction $$SETUP_STATE("
			 "hydrateRuntimeState, basePath) {\n  return "
			 "hydrateRuntimeState(JSON.parse(RAW_RUNTIME_STATE), "
			 "{basePath: basePath || __dirname});\n}\n");
	cJSON_free(json);
	cJSON_Delete(state);
	if (put_file(f, ".pnp.cjs", O_TRUNC, out.ptr, out.len) < 0 ||
	    put_file(f, ".pnp.loader.mjs", O_TRUNC, "// fakepm\n", 10) < 0 ||
	    mkdirp(f, ".yarn") < 0 ||
	    put_file(f, ".yarn/install-state.gz", O_TRUNC, f->marker.ptr,
		     f->marker.len) < 0)
		goto done;
	ret = 0;
done:
	pmbench_buf_release(&out);
	return ret;
}

/*
 * `import` (pnpm import, yarn import): log like an install, then write
 * the own lockfile from whatever is there; $FAKEPM_<NAME>_IMPORT=fail
 * makes it fail.
 */
static int do_import(const struct fake *f)
{
	const char *mode = pm_env(f, "IMPORT");
	struct pmbench_buf data = PMBENCH_BUF_INIT;
	int ret = 1;

	if (log_install(f) < 0)
		goto done;
	if (mode && !strcmp(mode, "fail")) {
		fprintf(stderr, "fake %s ERR! import failed on purpose\n",
			f->pm->name);
		goto done;
	}
	lock_text(f, &data);
	if (put_file(f, f->pm->lockfile, O_TRUNC, data.ptr, data.len) < 0)
		goto done;
	printf("fake %s: imported the lockfile\n", f->pm->name);
	ret = 0;
done:
	pmbench_buf_release(&data);
	return ret;
}

PMBENCH_NORETURN static void sleep_forever(void)
{
	for (;;)
		pause();
}

/* Write then rename, so a reader never sees half a pid. */
static void write_pidfile(const struct fake *f)
{
	struct pmbench_buf tmp = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	const char *pidfile = env("FAKEPM_PIDFILE");

	if (!pidfile)
		return;
	pmbench_buf_addf(&tmp, "%s.tmp.%ld", pidfile, (long)getpid());
	pmbench_buf_addf(&text, "%ld\n", (long)getpid());
	if (put_file(f, tmp.ptr, O_TRUNC, text.ptr, text.len) == 0)
		rename(tmp.ptr, pidfile);
	pmbench_buf_release(&tmp);
	pmbench_buf_release(&text);
}

/*
 * Start a process that leaves our session like a daemon (setsid, stdio on
 * /dev/null), via an intermediate child when `grandchild` is set. It
 * sleeps `sleep_ns`, or forever when 0. We return only once it has left
 * the session and written its pid file, so tests see a fixed state.
 */
static int spawn_detached(const struct fake *f, int grandchild,
			  uint64_t sleep_ns)
{
	int p[2], fd;
	pid_t pid;
	ssize_t n;
	char c = 0;

	if (pipe(p) < 0)
		goto fail;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		goto fail;
	if (!pid) {
		close(p[0]);
		if (grandchild && fork() != 0)
			_exit(0);
		setsid();
		write_pidfile(f);
		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
		if (write(p[1], "x", 1) < 0)
			_exit(1);
		close(p[1]);
		if (!sleep_ns)
			sleep_forever();
		pmbench_sleep_ns(sleep_ns);
		_exit(0);
	}
	close(p[1]);
	while (grandchild && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	while ((n = read(p[0], &c, 1)) < 0 && errno == EINTR)
		;
	close(p[0]);
	if (n == 1)
		return 0;
	errno = ECHILD;
fail:
	fprintf(stderr, "fake %s: cannot start a detached process: %s\n",
		f->pm->name, strerror(errno));
	return -1;
}

/*
 * FAKEPM_<NAME>_WHEN limits the mode to runs that find their own lockfile
 * ("lockfile"), a warm cache ("cache") or any node_modules
 * ("node_modules"); other runs install normally. So a priming install
 * succeeds and only the timed runs misbehave.
 */
/*
 * GET `path` from the registry the fake was given ("http://127.0.0.1:
 * PORT/..."), as a PM asks for a packument; the answer's status into
 * *status. Returns 0, or -1 when nothing answered.
 */
static int fetch_one(const struct fake *f, const char *path, int *status)
{
	const char *url = env(f->pm->registry_env), *host;
	char req[4096], ans[4096];
	struct sockaddr_in a;
	size_t got = 0;
	ssize_t n;
	int fd, ret = -1;

	host = url ? strstr(url, "://127.0.0.1:") : NULL;
	if (!host)
		return -1;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)strtol(host + 13, NULL, 10));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		goto done;
	snprintf(req, sizeof(req),
		 "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: application/json"
		 "\r\nConnection: close\r\n\r\n",
		 path, host + 3);
	if (write(fd, req, strlen(req)) != (ssize_t)strlen(req))
		goto done;
	/* The whole answer, so the server's write never fails. */
	while ((n = read(fd, ans + got, sizeof(ans) - 1 - got)) > 0 ||
	       (n < 0 && errno == EINTR)) {
		if (n > 0 && got + (size_t)n < sizeof(ans) - 1)
			got += (size_t)n;
	}
	ans[got] = '\0';
	if (sscanf(ans, "HTTP/1.%*d %d", status) == 1)
		ret = 0;
done:
	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * $FAKEPM_<NAME>_FETCH: registry paths every install asks for;
 * $FAKEPM_<NAME>_FETCH_FRESH: more, asked only by an install without its
 * own lockfile (a resolution). A failed answer is a warning, as a PM
 * that retries and goes on (with $FAKEPM_<NAME>_NEEDS_REGISTRY: it fails
 * the install, as a PM that needs the answer); no answer at all fails
 * the install.
 */
static int fetch_all(const struct fake *f)
{
	struct pmbench_strvec paths = PMBENCH_STRVEC_INIT;
	const char *all = pm_env(f, "FETCH"), *fresh = pm_env(f, "FETCH_FRESH");
	int ret = 0, status = 0;

	if (all)
		pmbench_strvec_split(&paths, all, ',');
	if (fresh && (!own_lockfile(f) || relocks(f))) {
		struct pmbench_strvec more = PMBENCH_STRVEC_INIT;

		pmbench_strvec_split(&more, fresh, ',');
		for (size_t i = 0; i < more.nr; i++)
			pmbench_strvec_push(&paths, more.v[i]);
		pmbench_strvec_release(&more);
	}
	for (size_t i = 0; i < paths.nr && !ret; i++) {
		if (!*paths.v[i])
			continue;
		if (fetch_one(f, paths.v[i], &status) < 0) {
			fprintf(stderr,
				"fake %s ERR! cannot reach the registry for "
				"%s\n",
				f->pm->name, paths.v[i]);
			ret = -1;
		} else if (status >= 400 && pm_env(f, "NEEDS_REGISTRY")) {
			fprintf(stderr, "fake %s ERR! GET %s: %d\n",
				f->pm->name, paths.v[i], status);
			ret = -1;
		} else if (status >= 400) {
			printf("fake %s WARN GET %s: %d, going on\n",
			       f->pm->name, paths.v[i], status);
		}
	}
	pmbench_strvec_release(&paths);
	return ret;
}

/* ---- A scripted timeline ($FAKEPM_<NAME>_TIMELINE) ------------------- */

extern char **environ;

/* N requests, one after the other: packuments, or their tarballs. */
static int timeline_fetch(const struct fake *f, uint64_t n, int tarballs)
{
	char path[128];
	int status = 0;

	for (uint64_t i = 0; i < n; i++) {
		if (tarballs)
			snprintf(path, sizeof(path),
				 "/tl-%llu/-/tl-%llu-1.0.0.tgz",
				 (unsigned long long)i, (unsigned long long)i);
		else
			snprintf(path, sizeof(path), "/tl-%llu",
				 (unsigned long long)i);
		if (fetch_one(f, path, &status) < 0) {
			fprintf(stderr,
				"fake %s ERR! cannot reach the registry for "
				"%s\n",
				f->pm->name, path);
			return -1;
		}
	}
	return 0;
}

/* ---- What a state check sees (issue 36) ------------------------------ */

/*
 * $FAKEPM_<NAME>_HIDDEN_CACHE: a cache folder that none of the PM's
 * cache variables name (as bun's cache that outlived the prepare step):
 * `<dir>/fakepm-<name>.tgz` into `out`, or 0 without the knob.
 */
static int hidden_tgz(const struct fake *f, struct pmbench_buf *out)
{
	const char *dir = pm_env(f, "HIDDEN_CACHE");

	if (dir)
		pmbench_buf_addf(out, "%s/fakepm-%s.tgz", dir, f->pm->name);
	return dir != NULL;
}

/* Cold: no cache entry where the PM's variables say, nor a hidden one. */
static int cache_cold(const struct fake *f)
{
	struct pmbench_buf hidden = PMBENCH_BUF_INIT;
	int cold = !f->tgz.len || !exists(f->tgz.ptr);

	if (cold && hidden_tgz(f, &hidden))
		cold = !exists(hidden.ptr);
	pmbench_buf_release(&hidden);
	return cold;
}

/* The hidden cache's entry, written by every install that writes. */
static int write_hidden(const struct fake *f)
{
	struct pmbench_buf hidden = PMBENCH_BUF_INIT;
	int ret = 0;

	if (hidden_tgz(f, &hidden) &&
	    (mkdirp(f, pm_env(f, "HIDDEN_CACHE")) < 0 ||
	     put_file(f, hidden.ptr, O_TRUNC, "hidden\n", 7) < 0))
		ret = -1;
	pmbench_buf_release(&hidden);
	return ret;
}

/*
 * $FAKEPM_<NAME>_TARBALLS=N: a cold install (cache_cold()) downloads N
 * tarballs (as the timeline's `tgz:N`), a warm one none.
 */
static int fetch_tarballs(const struct fake *f, int cold)
{
	uint64_t n;

	if (pm_env_ms(f, "TARBALLS", 0, &n) < 0)
		return -2;
	return cold ? timeline_fetch(f, n, 1) : 0;
}

/* `kib` KiB into node_modules/.fakepm-timeline, spread over `ms`. */
static int timeline_write(uint64_t kib, uint64_t ms)
{
	static char chunk[64 * 1024];
	uint64_t chunks = (kib + 63) / 64;
	int fd;

	mkdir("node_modules", 0755);
	fd = open("node_modules/.fakepm-timeline",
		  O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	memset(chunk, 'x', sizeof(chunk));
	for (uint64_t i = 0; i < chunks; i++) {
		if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk)) {
			close(fd);
			return -1;
		}
		if (chunks > 1)
			pmbench_sleep_ns(ms * 1000000ull / chunks);
	}
	close(fd);
	return 0;
}

/*
 * A lifecycle script of `ms`: /bin/sleep with the environment a PM gives
 * a dependency's postinstall, waited for; with `dir`, as deno runs it:
 * in the package's folder `dir`, named by no variable.
 */
static int lifecycle_script(uint64_t ms, const char *package, const char *dir)
{
	struct pmbench_strvec envp = PMBENCH_STRVEC_INIT;
	char secs[32], cwd[PATH_MAX];
	int status = -1;
	pid_t pid;

	for (char **e = environ; *e; e++)
		pmbench_strvec_push(&envp, *e);
	if (!dir) {
		pmbench_strvec_push(&envp, "npm_lifecycle_event=postinstall");
		pmbench_strvec_pushf(&envp, "npm_package_name=%s", package);
	} else if (getcwd(cwd, sizeof(cwd))) {
		pmbench_strvec_pushf(&envp, "INIT_CWD=%s", cwd);
		pmbench_strvec_push(&envp, "npm_config_user_agent=deno/2.9.6 "
					   "npm/? deno/2.9.6 linux x86_64");
	}
	snprintf(secs, sizeof(secs), "%llu.%03llu",
		 (unsigned long long)(ms / 1000),
		 (unsigned long long)(ms % 1000));
	pid = fork();
	if (pid == 0) {
		char *argv[] = { "sleep", secs, NULL };

		if (dir && chdir(dir) < 0)
			_exit(126);
		execve("/bin/sleep", argv, envp.v);
		_exit(127);
	}
	pmbench_strvec_release(&envp);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

static int has_word(const struct fake *f, const char *word);

/* Whether `how` (an option, or "VAR=value") was given to the fake. */
static int told(const struct fake *f, const char *how)
{
	const char *eq = how ? strchr(how, '=') : NULL;
	struct pmbench_buf key = PMBENCH_BUF_INIT;
	const char *v;

	if (!how)
		return 0;
	if (!eq)
		return has_word(f, how);
	pmbench_buf_add(&key, how, (size_t)(eq - how));
	v = getenv(key.ptr);
	pmbench_buf_release(&key);
	return v && !strcmp(v, eq + 1);
}

/* Whether package.json's `scripts_trust` list names `name`. */
static int trusts(const struct fake *f, const char *name)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	cJSON *root = NULL, *list;
	const cJSON *item;
	int found = 0;

	if (f->pm->scripts_trust && read_file(&text, "package.json") == 0)
		root = cJSON_Parse(text.ptr);
	list = cJSON_GetObjectItemCaseSensitive(root, f->pm->scripts_trust);
	cJSON_ArrayForEach(item, list)
	{
		if (cJSON_IsString(item) && !strcmp(item->valuestring, name))
			found = 1;
	}
	cJSON_Delete(root);
	pmbench_buf_release(&text);
	return found;
}

/*
 * The side-effects cache (`replay_off`): whether has-script's built
 * result is in the cache, so that `*run` becomes 0 (replayed); else a
 * run that builds it records it there. 0, or -1 on a write error.
 */
static int side_effects(const struct fake *f, int *run)
{
	struct pmbench_buf built = PMBENCH_BUF_INIT;
	int ret = 0;

	if (!f->pm->replay_off || !f->cache.len || told(f, f->pm->replay_off))
		return 0;
	pmbench_buf_path(&built, f->cache.ptr, "fakepm-built-has-script");
	if (exists(built.ptr))
		*run = 0;
	else if (*run)
		ret = put_file(f, built.ptr, O_TRUNC, "built\n", 6);
	pmbench_buf_release(&built);
	return ret;
}

/*
 * $FAKEPM_LIFECYCLE=MS: has-script's postinstall runs as a process of
 * MS ms with a PM's lifecycle environment, when the fake runs scripts:
 * as the real PM does unasked (`scripts_run`), unless told off, or
 * when told on (or package.json trusts it: `scripts_trust`). $FAKEPM_<NAME>_LIFECYCLE=always or never: a PM that
 * does not do as told.
 */
static int run_lifecycle(const struct fake *f)
{
	const char *ms = env("FAKEPM_LIFECYCLE"), *lie = pm_env(f, "LIFECYCLE");
	struct pmbench_buf dir = PMBENCH_BUF_INIT;
	int run = f->pm->scripts_run, ret;

	if (!ms)
		return 0;
	if (told(f, f->pm->scripts_off))
		run = 0;
	else if (told(f, f->pm->scripts_on) || trusts(f, "has-script"))
		run = 1;
	if (side_effects(f, &run) < 0)
		return -1;
	if (lie)
		run = !strcmp(lie, "always");
	package_dir(&dir, f, "has-script", "1.0.0");
	ret = run ? lifecycle_script(strtoull(ms, NULL, 10), "has-script",
				     f->pm->scripts_unnamed ? dir.ptr : NULL)
		  : 0;
	pmbench_buf_release(&dir);
	return ret;
}

/* One step "word:A[:B]" of a timeline. */
static int timeline_step(const struct fake *f, const char *step)
{
	uint64_t a = 0, b = 0;
	const char *colon = strchr(step, ':'), *second;
	size_t n = colon ? (size_t)(colon - step) : strlen(step);
	char num[32];

	second = colon ? strchr(colon + 1, ':') : NULL;
	snprintf(num, sizeof(num), "%.*s",
		 colon ? (int)(second ? (size_t)(second - colon - 1)
				      : strlen(colon + 1))
		       : 0,
		 colon ? colon + 1 : "");
	if (!colon || pmbench_parse_u64(&a, num) < 0 ||
	    (second && pmbench_parse_u64(&b, second + 1) < 0))
		return -2;
	if (n == 4 && !strncmp(step, "wait", 4))
		pmbench_sleep_ns(a * 1000000ull);
	else if (n == 4 && !strncmp(step, "meta", 4))
		return timeline_fetch(f, a, 0);
	else if (n == 3 && !strncmp(step, "tgz", 3))
		return timeline_fetch(f, a, 1);
	else if (n == 5 && !strncmp(step, "write", 5))
		return timeline_write(a, b);
	else if (n == 6 && !strncmp(step, "script", 6))
		return lifecycle_script(a, "fake-esbuild", NULL);
	else
		return -2;
	return 0;
}

/*
 * $FAKEPM_<NAME>_TIMELINE: steps run in order, comma separated (see
 * tests/fakes/README.md). 0, -1 when a step failed, -2 for a bad step.
 */
static int timeline(const struct fake *f)
{
	struct pmbench_strvec steps = PMBENCH_STRVEC_INIT;
	const char *all = pm_env(f, "TIMELINE");
	int ret = 0;

	if (!all)
		return 0;
	pmbench_strvec_split(&steps, all, ',');
	for (size_t i = 0; i < steps.nr && !ret; i++) {
		ret = timeline_step(f, steps.v[i]);
		if (ret == -2)
			fprintf(stderr,
				"fake %s: invalid FAKEPM_%s_TIMELINE "
				"step '%s'\n",
				f->pm->name, f->upper.ptr, steps.v[i]);
	}
	pmbench_strvec_release(&steps);
	return ret;
}

/*
 * Mode `fill`: write node_modules/.fakepm-fill until the disk is full,
 * then wait for space forever, as bun did on a full tmpfs.
 */
PMBENCH_NORETURN static void fill_disk(const struct fake *f)
{
	static char chunk[65536];
	int fd;

	mkdir("node_modules", 0755);
	fd = open("node_modules/.fakepm-fill",
		  O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	while (fd >= 0 && write(fd, chunk, sizeof(chunk)) > 0)
		;
	printf("fake %s: the disk is full; waiting for space\n", f->pm->name);
	fflush(stdout);
	sleep_forever();
}

static int mode_applies(const struct fake *f, int cold)
{
	const char *when = pm_env(f, "WHEN");

	if (when && !strcmp(when, "lockfile"))
		return own_lockfile(f);
	if (when && !strcmp(when, "cache"))
		return !cold;
	if (when && !strcmp(when, "node_modules"))
		return exists(f->linker->layout == PNP ? ".pnp.cjs"
						       : "node_modules");
	return 1;
}

/*
 * $FAKEPM_<NAME>_JITTER_MS: an extra sleep drawn from [0, J] ms. The draw
 * is deterministic: splitmix64 of $FAKEPM_SEED (default 0) plus the
 * number of lines in $FAKEPM_LOG (this install's line included), so the
 * same test gives the same sleeps every time.
 */
/* The lines of $FAKEPM_LOG so far (0 without one). */
static uint64_t log_lines(void)
{
	const char *logfile = env("FAKEPM_LOG");
	uint64_t lines = 0;
	FILE *fp = logfile ? fopen(logfile, "r") : NULL;
	int ch;

	if (fp) {
		while ((ch = getc(fp)) != EOF)
			lines += ch == '\n';
		fclose(fp);
	}
	return lines;
}

/*
 * $FAKEPM_DRIFT_PCT: a machine that slows down. The install's sleep is
 * multiplied by (1 + PCT / 100)^k, k = (lines of $FAKEPM_LOG, this
 * install's included, minus 1) / $FAKEPM_DRIFT_EVERY (default 1): with
 * EVERY the number of PMs, every PM of a round gets the same factor.
 */
static int drift(const struct fake *f, uint64_t *ms)
{
	const char *pct_s = env("FAKEPM_DRIFT_PCT");
	const char *every_s = env("FAKEPM_DRIFT_EVERY");
	uint64_t pct, every = 1, lines;

	if (!pct_s)
		return 0;
	if (pmbench_parse_u64(&pct, pct_s) < 0 ||
	    (every_s && (pmbench_parse_u64(&every, every_s) < 0 || !every))) {
		fprintf(stderr,
			"fake %s: invalid FAKEPM_DRIFT_PCT or "
			"FAKEPM_DRIFT_EVERY\n",
			f->pm->name);
		return -1;
	}
	lines = log_lines();
	*ms = (uint64_t)((double)*ms *
			 pow(1 + (double)pct / 100,
			     (double)((lines ? lines - 1 : 0) / every)));
	return 0;
}

static int jitter_ms(const struct fake *f, uint64_t *out)
{
	const char *seed_s = env("FAKEPM_SEED");
	uint64_t j, seed = 0, lines, z;

	*out = 0;
	if (pm_env_ms(f, "JITTER_MS", 0, &j) < 0)
		return -1;
	if (seed_s && pmbench_parse_u64(&seed, seed_s) < 0) {
		fprintf(stderr, "fake %s: invalid FAKEPM_SEED '%s'\n",
			f->pm->name, seed_s);
		return -1;
	}
	if (!j)
		return 0;
	lines = log_lines();
	z = seed + lines * 0x9e3779b97f4a7c15ull + 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	*out = z % (j + 1);
	return 0;
}

/*
 * With $FAKEPM_NOOP or $FAKEPM_<NAME>_NOOP set, an install that finds its
 * own lockfile and a complete node_modules (its marker and left-pad) has
 * nothing to do, like a real PM whose node_modules matches the lockfile;
 * but a CI install that deletes node_modules first (npm ci) always does.
 */
static int up_to_date(const struct fake *f)
{
	struct pmbench_buf index = PMBENCH_BUF_INIT;
	int ret;

	if (!env("FAKEPM_NOOP") && !pm_env(f, "NOOP"))
		return 0;
	if (f->frozen && f->pm->frozen_clears)
		return 0;
	package_dir(&index, f, "left-pad", "1.3.0");
	pmbench_buf_adds(&index, "/index.js");
	ret = own_lockfile(f) && exists(f->nm.ptr) && exists(index.ptr) &&
	      (f->linker->layout == PNP ||
	       exists("node_modules/.bin/left-pad"));
	pmbench_buf_release(&index);
	return ret;
}

/*
 * $FAKEPM_<NAME>_FROZEN_IN_CI=1: frozen when CI is set (not "false"), as
 * yarn 4 is, unless told not to as pmbench pins them
 * (pnpm_config_frozen_lockfile=false, YARN_ENABLE_IMMUTABLE_INSTALLS=
 * false): then it refuses to install without its lockfile.
 */
static int frozen_by_ci(const struct fake *f)
{
	static const char *const pins[] = { "pnpm_config_frozen_lockfile",
					    "YARN_ENABLE_IMMUTABLE_INSTALLS" };
	const char *ci = env("CI");

	if (!pm_env(f, "FROZEN_IN_CI") || !ci || !strcmp(ci, "false"))
		return 0;
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(pins); i++)
		if (env(pins[i]) && !strcmp(env(pins[i]), "false"))
			return 0;
	return 1;
}

/* The CI modes: npm ci, --frozen-lockfile, --immutable, deno --frozen. */
static int is_frozen(const struct fake *f, const char *word)
{
	const struct fake_pm *pm = f->pm;

	if (word && pm->frozen_word && !strcmp(word, pm->frozen_word))
		return 1;
	for (int i = 1; i < f->argc; i++)
		for (const char *const *o = pm->frozen_options; *o; o++)
			if (!strcmp(f->argv[i], *o))
				return 1;
	return 0;
}

/*
 * The linker the environment or the arguments choose (the option's
 * last use wins over the variable), or the default; NULL when the value
 * is none of this PM's.
 */
static const struct fake_linker *choose_linker(struct fake *f)
{
	const struct fake_pm *pm = f->pm;
	const char *opt = pm->linker_option;
	size_t n = opt ? strlen(opt) : 0;
	const char *v = pm->linker_env ? env(pm->linker_env) : NULL;

	for (int i = 1; opt && i < f->argc; i++) {
		if (!strncmp(f->argv[i], opt, n) && f->argv[i][n] == '=')
			v = f->argv[i] + n + 1;
		else if (!strcmp(f->argv[i], opt) && i + 1 < f->argc)
			v = f->argv[++i];
	}
	f->linker_value = v ? v : pm->linkers[0].value;
	for (size_t k = 0; k < PMBENCH_ARRAY_SIZE(pm->linkers); k++)
		if (pm->linkers[k].value &&
		    !strcmp(pm->linkers[k].value, f->linker_value))
			return &pm->linkers[k];
	return NULL;
}

/*
 * $FAKEPM_FETCH: that many registry requests, one after the other, to
 * the registry the PM was given (an http://127.0.0.1:PORT/ URL). Returns
 * how many were answered 200, or -1 when there is no such registry.
 */
static long fetch_from_registry(const struct fake *f, long n)
{
	long ok = 0;
	int status = 0;

	for (long i = 0; i < n; i++) {
		if (fetch_one(f, "/left-pad", &status) < 0)
			return -1;
		ok += status == 200;
	}
	return ok;
}

/*
 * $FAKEPM_FETCH, if set, then $FAKEPM_FETCH_WAIT: 0, or -1 when a
 * request was not answered.
 */
static int fetch_if_asked(const struct fake *f)
{
	const char *gate = env("FAKEPM_FETCH_WAIT");
	long want, got;

	if (!env("FAKEPM_FETCH"))
		return 0;
	want = strtol(env("FAKEPM_FETCH"), NULL, 10);
	got = fetch_from_registry(f, want);
	printf("fake %s: %ld of %ld registry requests answered\n", f->pm->name,
	       got, want);
	fflush(stdout);
	if (got != want) {
		fprintf(stderr, "fake %s ERR! registry requests failed\n",
			f->pm->name);
		return -1;
	}
	/*
	 * A test's turn while this install runs: until the file exists,
	 * which it then removes, so that each install waits for one.
	 */
	for (int i = 0; gate && i < 6000 && !exists(gate); i++)
		pmbench_sleep_ns(10000000ull);
	if (gate)
		unlink(gate);
	return 0;
}

/* Whether the install carries the PM's timer flag (see timer_flag). */
static int timers_on(const struct fake *f)
{
	if (!f->pm->timer_flag)
		return 1;
	for (int i = 1; i < f->argc; i++)
		if (!strcmp(f->argv[i], f->pm->timer_flag))
			return 1;
	return 0;
}

/*
 * FAKEPM_TIMERS=<dir>: what the real PM's timers print, from a
 * transcript <dir>/<name>/clean.txt (tests/data/pm-timers/), its lines
 * without their arrival times, on stderr, when the install carries the
 * PM's timer flag.
 */
static void print_timers(const struct fake *f)
{
	const char *dir = getenv("FAKEPM_TIMERS");
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	char *line = NULL;
	size_t cap = 0;
	FILE *in;

	if (!dir || !*dir || !timers_on(f))
		return;
	pmbench_buf_addf(&path, "%s/%s/clean.txt", dir, f->pm->name);
	in = fopen(path.ptr, "r");
	while (in && getline(&line, &cap, in) > 0) {
		const char *tab = strchr(line, '\t');

		fputs(tab ? tab + 1 : line, stderr);
	}
	if (in)
		fclose(in);
	free(line);
	pmbench_buf_release(&path);
}

static int rm_entry(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* What npm ci does first: node_modules deleted, whatever it held. */
static int clear_node_modules(const struct fake *f)
{
	if (!exists("node_modules"))
		return 0;
	if (nftw("node_modules", rm_entry, 16, FTW_DEPTH | FTW_PHYS) < 0) {
		fprintf(stderr, "fake %s: cannot delete node_modules: %s\n",
			f->pm->name, strerror(errno));
		return -1;
	}
	printf("fake %s: deleted the existing node_modules\n", f->pm->name);
	return 0;
}

/*
 * The project's own extra ms (`fakepm-extra-ms` in the folder installed:
 * a whole number), added to the install's sleep: two commits of one
 * repository that install at different speeds. 0 without the file.
 */
static int project_extra_ms(uint64_t *ms)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int ret = 0;

	if (read_file(&b, "fakepm-extra-ms") < 0)
		goto done;
	while (b.len && b.ptr[b.len - 1] == '\n')
		pmbench_buf_setlen(&b, b.len - 1);
	if (pmbench_parse_u64(ms, b.ptr ? b.ptr : "") < 0) {
		fprintf(stderr, "fake: invalid fakepm-extra-ms '%s'\n", b.ptr);
		ret = -1;
	}
done:
	pmbench_buf_release(&b);
	return ret;
}

static int do_install(struct fake *f)
{
	const char *mode = pm_env(f, "MODE"), *name = f->pm->name;
	uint64_t sleep_ms, cold_ms, mem_mb, jitter, extra_ms = 0;
	int cold = cache_cold(f), ret = 1;

	if (!f->linker) {
		fprintf(stderr, "fake %s: unknown linker '%s'\n", name,
			f->linker_value);
		return 2;
	}
	if (!mode || !mode_applies(f, cold))
		mode = "ok";
	f->noop = !strcmp(mode, "ok") && up_to_date(f);
	if (log_install(f) < 0)
		goto done;
	if (getenv("FAKEPM_SCRIBBLE"))
		scribble(f);
	if (f->frozen && !own_lockfile(f)) {
		fprintf(stderr,
			"fake %s ERR! a frozen install needs an "
			"existing %s\n",
			name, f->pm->lockfile);
		goto done;
	}
	if (f->noop) {
		printf("fake %s: already up to date\n", name);
		ret = 0;
		goto done;
	}
	if (f->frozen && f->pm->frozen_clears && clear_node_modules(f) < 0)
		goto done;
	if (!strcmp(mode, "fail")) {
		fprintf(stderr,
			"fake %s ERR! code EFAKE\n"
			"fake %s ERR! this failure is part of a test\n"
			"fake %s ERR! install failed on purpose\n",
			name, name, name);
		goto done;
	}
	if (!strcmp(mode, "fail-npm")) {
		/* npm 11's own words for a version that does not exist. */
		fprintf(stderr,
			"npm error code ETARGET\n"
			"npm error notarget No matching version found for "
			"left-pad@99.99.99.\n"
			"npm error notarget In most cases you or one of your "
			"dependencies are requesting\n"
			"npm error notarget a package version that doesn't "
			"exist.\n"
			"npm error A complete log of this run can be found in: "
			"%s/_logs/2026-01-01T00_00_00_000Z-debug-0.log\n",
			f->cache.len ? f->cache.ptr : "/nowhere");
		goto done;
	}
	if (!strcmp(mode, "crash")) {
		printf("fake %s: about to crash\n", name);
		fflush(NULL);
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
		abort();
	}
	if (strcmp(mode, "ok") && strcmp(mode, "nolock") &&
	    strcmp(mode, "leak") && strcmp(mode, "brief") &&
	    strcmp(mode, "hang") && strcmp(mode, "hang-escape") &&
	    strcmp(mode, "ignore-term") && strcmp(mode, "fill")) {
		fprintf(stderr, "fake %s: unknown FAKEPM_%s_MODE '%s'\n", name,
			f->upper.ptr, mode);
		ret = 2;
		goto done;
	}
	if (pm_env_ms(f, "SLEEP_MS", 10, &sleep_ms) < 0 ||
	    pm_env_ms(f, "COLD_MS", 0, &cold_ms) < 0 ||
	    pm_env_ms(f, "MEM_MB", 0, &mem_mb) < 0 ||
	    jitter_ms(f, &jitter) < 0 || drift(f, &sleep_ms) < 0 ||
	    project_extra_ms(&extra_ms) < 0) {
		ret = 2;
		goto done;
	}
	printf("fake %s: resolving packages\n", name);
	fflush(stdout);
	if (fetch_if_asked(f) < 0)
		goto done;
	if (fetch_all(f) < 0)
		goto done;
	ret = fetch_tarballs(f, cold);
	if (!ret)
		ret = timeline(f);
	if (ret < 0) {
		ret = ret == -2 ? 2 : 1;
		goto done;
	}
	ret = 1;
	if (!strcmp(mode, "fill"))
		fill_disk(f);
	if (!strcmp(mode, "hang")) {
		if (fork() < 0)
			goto done;
		sleep_forever();
	}
	if (!strcmp(mode, "hang-escape")) {
		if (spawn_detached(f, 1, 0) < 0)
			goto done;
		sleep_forever();
	}
	if (!strcmp(mode, "ignore-term")) {
		signal(SIGTERM, SIG_IGN);
		sleep_forever();
	}
	if (!strcmp(mode, "leak") && spawn_detached(f, 0, 600000000000u) < 0)
		goto done;
	/* A helper that ends by itself about 60 ms after the PM. */
	if (!strcmp(mode, "brief") &&
	    spawn_detached(f, 0, (sleep_ms + 60) * 1000000ull) < 0)
		goto done;
	if (mem_mb) {
		size_t n = pmbench_st_mult((size_t)mem_mb, 1024 * 1024);

		mem_hold = pmbench_xmalloc(n);
		memset(mem_hold, 0xa5, n);
	}
	pmbench_sleep_ns(pmbench_st_mult(
		pmbench_st_add(pmbench_st_add(sleep_ms + extra_ms, jitter),
			       cold ? cold_ms : 0),
		1000000));
	if (f->lockfile_only) {
		ret = write_lockfile(f) < 0 ? 1 : 0;
		if (!ret)
			printf("fake %s: lockfile written\n", name);
		goto done;
	}
	/* A frozen install never writes the lockfile. */
	if (write_outputs(f, strcmp(mode, "nolock") != 0 && !f->frozen) < 0 ||
	    write_extra_packages(f) < 0 || write_pnp(f) < 0 ||
	    write_hidden(f) < 0 || run_lifecycle(f) < 0)
		goto done;
	print_timers(f);
	printf("fake %s: added 3 packages\n", name);
	ret = 0;
done:
	free(mem_hold);
	mem_hold = NULL;
	return ret;
}

/* Quote an argument for sh unless it is plainly safe, like npm does. */
static void add_quoted(struct pmbench_buf *b, const char *arg)
{
	const char *p;

	if (*arg &&
	    strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
			"qrstuvwxyz0123456789_./=:,@%+-") == strlen(arg)) {
		pmbench_buf_adds(b, arg);
		return;
	}
	pmbench_buf_addch(b, '\'');
	for (p = arg; *p; p++) {
		if (*p == '\'')
			pmbench_buf_adds(b, "'\\''");
		else
			pmbench_buf_addch(b, *p);
	}
	pmbench_buf_addch(b, '\'');
}

/* Run package.json's script argv[script] through sh, replacing ourselves. */
static int do_run(const struct fake *f, int script)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT, cmd = PMBENCH_BUF_INIT;
	struct pmbench_strvec args = PMBENCH_STRVEC_INIT;
	const char *name = f->argv[script];
	cJSON *root = NULL, *item;
	uint64_t run_ms;
	int i, ret = 1;

	/* A PM whose script runner costs this much more. */
	if (pm_env_ms(f, "RUN_SLEEP_MS", 0, &run_ms) < 0)
		return 2;
	if (run_ms)
		pmbench_sleep_ns(pmbench_st_mult(run_ms, 1000000));

	if (read_file(&text, "package.json") < 0) {
		fprintf(stderr, "fake %s: cannot read 'package.json': %s\n",
			f->pm->name, strerror(errno));
		goto done;
	}
	root = cJSON_Parse(text.ptr);
	item = cJSON_GetObjectItemCaseSensitive(root, "scripts");
	item = cJSON_GetObjectItemCaseSensitive(item, name);
	if (!cJSON_IsString(item)) {
		fprintf(stderr, "fake %s: missing script: %s\n", f->pm->name,
			name);
		goto done;
	}
	pmbench_buf_adds(&cmd, item->valuestring);
	i = script + 1;
	if (i < f->argc && !strcmp(f->argv[i], "--"))
		i++;
	for (; i < f->argc; i++) {
		pmbench_buf_addch(&cmd, ' ');
		add_quoted(&cmd, f->argv[i]);
	}
	pmbench_strvec_push(&args, "sh");
	pmbench_strvec_push(&args, "-c");
	pmbench_strvec_push(&args, cmd.ptr);
	fflush(NULL);
	execv("/bin/sh", args.v);
	fprintf(stderr, "fake %s: cannot run /bin/sh: %s\n", f->pm->name,
		strerror(errno));
	ret = 127;
done:
	cJSON_Delete(root);
	pmbench_strvec_release(&args);
	pmbench_buf_release(&text);
	pmbench_buf_release(&cmd);
	return ret;
}

/*
 * A test runner for the test task: what Node's test runner prints for
 * three tests, as $FAKEPM_TEST_MODE says (pass, fail, spec, silent).
 */
static int do_node_test(const struct fake *f)
{
	static const char *const names[] = { "adds", "subtracts", "divides" };
	const char *mode = env("FAKEPM_TEST_MODE");
	int fail, spec;

	if (!mode)
		mode = "pass";
	fail = !strcmp(mode, "fail");
	spec = !strcmp(mode, "spec");
	if (!fail && !spec && strcmp(mode, "pass") && strcmp(mode, "silent")) {
		fprintf(stderr, "fake %s: unknown FAKEPM_TEST_MODE '%s'\n",
			f->pm->name, mode);
		return 2;
	}
	if (!strcmp(mode, "silent"))
		return 0;
	if (spec) {
		for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(names); i++)
			printf("\xe2\x9c\x94 %s (0.2ms)\n", names[i]);
		printf("\xe2\x84\xb9 tests 3\n\xe2\x84\xb9 suites 0\n"
		       "\xe2\x84\xb9 pass 3\n\xe2\x84\xb9 fail 0\n"
		       "\xe2\x84\xb9 duration_ms 12.5\n");
		return 0;
	}
	printf("TAP version 13\n");
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(names); i++) {
		printf("# Subtest: %s\n", names[i]);
		if (fail && i == 1)
			printf("not ok %zu - %s\n  ---\n  error: |-\n"
			       "    Expected values to be strictly equal:\n"
			       "    2 !== 3\n  code: 'ERR_ASSERTION'\n  ...\n",
			       i + 1, names[i]);
		else
			printf("ok %zu - %s\n  ---\n  duration_ms: 0.2\n"
			       "  ...\n",
			       i + 1, names[i]);
	}
	printf("1..3\n# tests 3\n# suites 0\n# pass %d\n# fail %d\n"
	       "# cancelled 0\n# skipped 0\n# todo 0\n"
	       "# duration_ms 12.5\n",
	       fail ? 2 : 3, fail);
	return fail;
}

/* Index of the first argument from `from` on that is not an option. */
static int next_word(const struct fake *f, int from)
{
	while (from < f->argc && f->argv[from][0] == '-')
		from++;
	return from;
}

/*
 * The question actions/setup-node asks for the cache folder it caches
 * (the table's cache_query: `npm config get cache`, `yarn cache dir`,
 * `yarn config get cacheFolder`, `pnpm store path`). 1 if argv is it.
 */
static int is_cache_query(const struct fake *f)
{
	const char *const *q = f->pm->cache_query;
	int w = 1;

	if (!q[0])
		return 0;
	for (; *q; q++) {
		w = next_word(f, w);
		if (w >= f->argc || strcmp(f->argv[w], *q))
			return 0;
		w++;
	}
	return 1;
}

/* The value after option `name` ("--prefix P"), or NULL. */
static const char *option_value(const struct fake *f, const char *name)
{
	for (int i = 1; i + 1 < f->argc; i++)
		if (!strcmp(f->argv[i], name))
			return f->argv[i + 1];
	return NULL;
}

static int has_word(const struct fake *f, const char *word)
{
	for (int i = 1; i < f->argc; i++)
		if (!strcmp(f->argv[i], word))
			return 1;
	return 0;
}

/*
 * npm's `install --global --prefix P [--cache C] PKG@V`, as ci-cache's
 * setup step runs it: $FAKEPM_NPM_GLOBAL_MS (default 5) of work, then
 * P/lib/node_modules/PKG/package.json and P/bin/<PKG's last part>; one
 * JSON line to $FAKEPM_GLOBAL_LOG (spec, prefix, cache, the registry
 * of npm_config_registry, $CI). $FAKEPM_NPM_GLOBAL=fail: exits 1 instead.
 */
static int do_global(struct fake *f)
{
	const char *prefix = option_value(f, "--prefix");
	const char *spec = f->argv[f->argc - 1],
		   *log = env("FAKEPM_GLOBAL_LOG");
	const char *at = strrchr(spec, '@'), *base;
	struct pmbench_buf pkg = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;
	uint64_t ms;
	int ret = 1;

	if (!prefix || !at || at == spec || pm_env_ms(f, "GLOBAL_MS", 5, &ms))
		goto done;
	if (log) {
		cJSON *o = cJSON_CreateObject();
		char *line;

		cJSON_AddStringToObject(o, "spec", spec);
		cJSON_AddStringToObject(o, "prefix", prefix);
		cJSON_AddStringToObject(o, "cache",
					option_value(f, "--cache")
						? option_value(f, "--cache")
						: "");
		cJSON_AddStringToObject(o, "registry",
					env("npm_config_registry")
						? env("npm_config_registry")
						: "");
		cJSON_AddStringToObject(o, "ci", env("CI") ? env("CI") : "");
		line = cJSON_PrintUnformatted(o);
		pmbench_buf_addf(&b, "%s\n", line);
		ret = put_file(f, log, O_APPEND, b.ptr, b.len) < 0;
		free(line);
		cJSON_Delete(o);
		if (ret)
			goto done;
	}
	ret = 1;
	if (env("FAKEPM_NPM_GLOBAL") &&
	    !strcmp(env("FAKEPM_NPM_GLOBAL"), "fail")) {
		fprintf(stderr, "npm ERR! 404 Not Found - GET %s\n", spec);
		goto done;
	}
	pmbench_sleep_ns(pmbench_st_mult(ms, 1000000));
	pmbench_buf_add(&pkg, spec, (size_t)(at - spec));
	base = strrchr(pkg.ptr, '/') ? strrchr(pkg.ptr, '/') + 1 : pkg.ptr;
	pmbench_buf_reset(&b);
	pmbench_buf_addf(&b, "%s/lib/node_modules/%s", prefix, pkg.ptr);
	if (mkdirp(f, b.ptr) < 0)
		goto done;
	pmbench_buf_adds(&b, "/package.json");
	if (put_file(f, b.ptr, O_TRUNC, "{}\n", 3) < 0)
		goto done;
	pmbench_buf_reset(&b);
	pmbench_buf_addf(&b, "%s/bin", prefix);
	if (mkdirp(f, b.ptr) < 0)
		goto done;
	pmbench_buf_addf(&b, "/%s", base);
	ret = put_file(f, b.ptr, O_TRUNC, "#!/bin/sh\n", 10) < 0;
done:
	if (ret && !prefix)
		fprintf(stderr, "fake npm: install --global needs --prefix\n");
	pmbench_buf_release(&pkg);
	pmbench_buf_release(&b);
	return ret;
}

static int dispatch(struct fake *f)
{
	const struct fake_pm *pm = f->pm;
	const char *word;
	int w, i;

	if (f->argc > 1 && !strcmp(f->argv[1], "--version")) {
		struct pmbench_buf key = PMBENCH_BUF_INIT;
		const char *v;

		pmbench_buf_addf(&key, "FAKEPM_VERSION_%s", f->upper.ptr);
		v = env(key.ptr);
		printf("%s\n", v ? v : pm->version);
		pmbench_buf_release(&key);
		return 0;
	}
	if (is_cache_query(f)) {
		if (!f->cache.len)
			return 1;
		printf("%s\n", f->cache.ptr);
		return 0;
	}
	w = next_word(f, 1);
	word = w < f->argc ? f->argv[w] : NULL;
	if (word && !strcmp(pm->name, "npm") && !strcmp(word, "install") &&
	    has_word(f, "--global"))
		return do_global(f);
	f->frozen = is_frozen(f, word) || frozen_by_ci(f);
	for (i = 1; pm->lockfile_only && i < f->argc; i++)
		if (!strcmp(f->argv[i], pm->lockfile_only))
			f->lockfile_only = 1;
	if (word && !strcmp(word, "node-test"))
		return do_node_test(f);
	if (!word && pm->yarn_style)
		return do_install(f);
	for (i = 0; word && pm->install_words[i]; i++)
		if (!strcmp(word, pm->install_words[i]))
			return do_install(f);
	if (word && !strcmp(word, "import"))
		return do_import(f);
	if (word && !strcmp(word, pm->run_word)) {
		w = next_word(f, w + 1);
		if (w < f->argc)
			return do_run(f, w);
		fprintf(stderr, "fake %s: %s needs a script name\n", pm->name,
			pm->run_word);
		return 2;
	}
	if (word && pm->yarn_style)
		return do_run(f, w);
	if (word)
		fprintf(stderr, "fake %s: unknown command '%s'\n", pm->name,
			word);
	else
		fprintf(stderr, "fake %s: missing command\n", pm->name);
	return 2;
}

/*
 * $FAKEPM_STAMPS: append "<start> <end>\n" to that file, the monotonic
 * clock in nanoseconds at main()'s start and just before its return, so
 * that a harness's own share of a timed run (spawn, exec, the wait for
 * the exit) is its wall time less the fake's (ci/bench-overhead.sh).
 */
static void stamp(uint64_t start)
{
	const char *path = env("FAKEPM_STAMPS");
	uint64_t end = pmbench_now_ns();
	FILE *fp;

	if (!path)
		return;
	fp = fopen(path, "a");
	if (!fp)
		return;
	fprintf(fp, "%llu %llu\n", (unsigned long long)start,
		(unsigned long long)end);
	fclose(fp);
}

int main(int argc, char **argv)
{
	uint64_t start = pmbench_now_ns();
	struct fake f = { .upper = PMBENCH_BUF_INIT,
			  .cache = PMBENCH_BUF_INIT,
			  .tgz = PMBENCH_BUF_INIT,
			  .nm = PMBENCH_BUF_INIT,
			  .marker = PMBENCH_BUF_INIT,
			  .cwd = PMBENCH_BUF_INIT,
			  .argc = argc,
			  .argv = argv,
			  .installed = PMBENCH_STRVEC_INIT };
	const char *name = env("FAKEPM_NAME"), *p;
	char dir[4096];
	size_t i;
	int ret = 2;

	if (!name) {
		p = argc > 0 ? strrchr(argv[0], '/') : NULL;
		name = p ? p + 1 : argc > 0 ? argv[0] : "";
	}
	for (i = 0; i < PMBENCH_ARRAY_SIZE(pms); i++)
		if (!strcmp(name, pms[i].name))
			f.pm = &pms[i];
	if (!f.pm) {
		fprintf(stderr,
			"fakepm: unknown package manager '%s' "
			"(name the link after one or set FAKEPM_NAME)\n",
			name);
		goto done;
	}
	if (!getcwd(dir, sizeof(dir))) {
		fprintf(stderr,
			"fake %s: cannot get the current directory: "
			"%s\n",
			name, strerror(errno));
		goto done;
	}
	for (p = name; *p; p++)
		pmbench_buf_addch(&f.upper, *p == '-' ? '_'
					    : *p >= 'a' && *p <= 'z'
						    ? *p - 'a' + 'A'
						    : *p);
	pmbench_buf_adds(&f.cwd, dir);
	find_cache(&f);
	if (f.cache.len)
		pmbench_buf_path(&f.tgz, f.cache.ptr, "fakepm-");
	if (f.cache.len)
		pmbench_buf_addf(&f.tgz, "%s.tgz", name);
	f.linker = choose_linker(&f);
	if (f.linker && f.linker->layout == PNP)
		pmbench_buf_adds(&f.nm, ".pnp.cjs");
	else
		pmbench_buf_addf(&f.nm, "node_modules/.fakepm-%s", name);
	pmbench_buf_addf(&f.marker, "generated by fakepm %s", name);
	ret = 1;
	if (write_temp_file(&f) < 0)
		goto done;
	ret = dispatch(&f);
done:
	pmbench_buf_release(&f.upper);
	pmbench_buf_release(&f.cache);
	pmbench_buf_release(&f.tgz);
	pmbench_buf_release(&f.nm);
	pmbench_buf_release(&f.marker);
	pmbench_buf_release(&f.cwd);
	pmbench_strvec_release(&f.installed);
	if (fflush(stdout) == EOF && !ret)
		ret = 1;
	stamp(start);
	return ret;
}
