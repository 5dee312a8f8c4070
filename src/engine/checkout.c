#include "pmbench/common.h"

#include <stdio.h>

#include <git2.h>

#include "pmbench/buf.h"
#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/gen.h"

/*
 * A fixture's scratch source tree (pmbench_fixture_checkout(),
 * fixture.h): a libgit2 clone kept in the cache and the commit checked
 * out of it, or a plain local folder copied. The manifest is manifest.c.
 */

#if defined(__SANITIZE_ADDRESS__) && LIBGIT2_VER_MAJOR == 1 && \
	LIBGIT2_VER_MINOR < 6
/*
 * libgit2 before 1.6 leaks the pcre2 match data of every regular
 * expression that does not match (config lookups during clone and fetch;
 * fixed by libgit2 pull request #6382). Tell LeakSanitizer, which calls
 * this hook, so that sanitizer builds keep reporting our own leaks. This
 * is the only definition in pmbench.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	/*
	 * pcre2 has no frame pointers, so the default fast unwinder stops
	 * inside it: match the library, which only libgit2 uses.
	 */
	return "leak:libpcre2-8.so\n";
}
#endif

static const char *lg2_message(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown error";
}

static void lg2_shutdown(void)
{
	git_libgit2_shutdown();
}

static int lg2_init(void)
{
	static int ready;

	if (ready)
		return 0;
	if (git_libgit2_init() < 0)
		return pmbench_error_set("cannot initialise libgit2: %s",
					 lg2_message());
	ready = 1;
	atexit(lg2_shutdown);
	return 0;
}

/* Where the "(check 'x' in ...)" hints point. */
static const char *manifest_of(const struct pmbench_fixture *f)
{
	return f->manifest_path ? f->manifest_path : "the manifest";
}

/*
 * The absolute path of a local, non-URL `repo`: relative paths are taken
 * relative to the manifest's folder.
 */
static void local_repo_path(struct pmbench_buf *out,
			    const struct pmbench_fixture *f)
{
	struct pmbench_buf joined = PMBENCH_BUF_INIT;
	const char *slash;

	if (f->repo[0] == '/' || f->is_bare_path || !f->manifest_path) {
		pmbench_fs_abspath(out, f->repo);
		return;
	}
	slash = strrchr(f->manifest_path, '/');
	if (slash)
		pmbench_buf_add(&joined, f->manifest_path,
				(size_t)(slash - f->manifest_path) + 1);
	pmbench_buf_adds(&joined, f->repo);
	pmbench_fs_abspath(out, joined.ptr);
	pmbench_buf_release(&joined);
}

/*
 * For a local path `repo`: resolve it into `out` and say whether it is
 * the top of a git repository (*is_git) or a plain folder.
 */
static int probe_local(struct pmbench_buf *out, int *is_git,
		       const struct pmbench_fixture *f)
{
	struct pmbench_buf abs = PMBENCH_BUF_INIT;
	git_repository *repo = NULL;
	int ret, err;

	*is_git = 0;
	local_repo_path(&abs, f);
	if (!pmbench_fs_isdir(abs.ptr)) {
		ret = pmbench_error_setc(PMBENCH_ENOTFOUND,
					 "repository folder '%s' (%s) does not "
					 "exist (check 'repo' in %s)",
					 f->repo, abs.ptr, manifest_of(f));
		goto done;
	}
	ret = pmbench_fs_realpath(out, abs.ptr);
	if (ret < 0 || f->is_bare_path)
		goto done;
	err = git_repository_open_ext(&repo, out->ptr,
				      GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
	if (err == 0) {
		*is_git = 1;
	} else if (err != GIT_ENOTFOUND) {
		ret = pmbench_error_set("cannot open the repository '%s': %s "
					"(check 'repo' in %s)",
					f->repo, lg2_message(), manifest_of(f));
		goto done;
	}

done:
	git_repository_free(repo);
	pmbench_buf_release(&abs);
	return ret;
}

/* The first 12 hex digits of a hash of `key`, for the clone's name. */
static int key_hash(char out[13], const char *key)
{
	git_oid oid;

	if (git_odb_hash(&oid, key, strlen(key), GIT_OBJECT_BLOB) < 0)
		return pmbench_error_set("cannot hash '%s': %s", key,
					 lg2_message());
	git_oid_tostr(out, 13, &oid);
	return 0;
}

/*
 * Open the bare clone at `path`, or clone `url` there. The clone is made
 * in a temporary folder and renamed, so an interrupted clone is never
 * mistaken for a finished one.
 */
static int open_or_clone(git_repository **out, const char *path,
			 const char *url, const struct pmbench_fixture *f)
{
	git_clone_options opts;
	struct pmbench_buf tmp = PMBENCH_BUF_INIT;
	struct pmbench_buf parent = PMBENCH_BUF_INIT;
	git_repository *repo = NULL;
	const char *slash;
	int ret = 0;

	*out = NULL;
	/*
	 * The _INIT macros leave fields out, which -Wextra rejects; the
	 * init functions fill the same defaults.
	 */
	git_clone_options_init(&opts, GIT_CLONE_OPTIONS_VERSION);
	if (pmbench_fs_isdir(path)) {
		if (git_repository_open_bare(out, path) == 0)
			goto done;
		/* A damaged cache entry: make it again. */
		ret = pmbench_fs_rmtree(path);
		if (ret < 0)
			goto done;
	}
	slash = strrchr(path, '/');
	pmbench_buf_add(&parent, path, (size_t)(slash - path));
	ret = pmbench_fs_mkdirp(parent.ptr, 0755);
	if (ret < 0)
		goto done;
	pmbench_buf_addf(&tmp, "%s.tmp", path);
	ret = pmbench_fs_rmtree(tmp.ptr);
	if (ret < 0)
		goto done;

	opts.bare = 1;
	/*
	 * Fetch through the transport even from a local path: the default
	 * would hard-link the user's object files into our cache.
	 */
	opts.local = GIT_CLONE_NO_LOCAL;
	opts.fetch_opts.proxy_opts.type = GIT_PROXY_AUTO;
	opts.fetch_opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_ALL;
	if (git_clone(&repo, url, tmp.ptr, &opts) < 0) {
		ret = pmbench_error_set("cannot clone '%s': %s (check 'repo' "
					"in %s)",
					f->repo, lg2_message(), manifest_of(f));
		pmbench_fs_rmtree(tmp.ptr);
		goto done;
	}
	git_repository_free(repo);
	repo = NULL;
	if (rename(tmp.ptr, path) < 0) {
		ret = pmbench_error_set("cannot rename '%s' to '%s': %s",
					tmp.ptr, path, strerror(errno));
		pmbench_fs_rmtree(tmp.ptr);
		goto done;
	}
	if (git_repository_open_bare(out, path) < 0)
		ret = pmbench_error_set("cannot open the clone '%s': %s", path,
					lg2_message());

done:
	pmbench_buf_release(&tmp);
	pmbench_buf_release(&parent);
	return ret;
}

#define HEAD_REF "refs/pmbench/origin-head"

/*
 * Fetch every branch and tag from origin, plus its HEAD into HEAD_REF
 * when `with_head`, or the single object `sha` when given (servers that
 * allow fetching by id serve commits no ref points at).
 */
static int fetch_origin(git_repository *repo, int with_head, const char *sha,
			const struct pmbench_fixture *f)
{
	git_fetch_options opts;
	char *specs[3];
	git_strarray refspecs = { specs, 0 };
	git_remote *remote = NULL;
	int ret = 0;

	git_fetch_options_init(&opts, GIT_FETCH_OPTIONS_VERSION);
	if (sha) {
		specs[refspecs.count++] = (char *)sha;
	} else {
		specs[refspecs.count++] =
			(char *)"+refs/heads/*:refs/remotes/origin/*";
		specs[refspecs.count++] = (char *)"+refs/tags/*:refs/tags/*";
		if (with_head)
			specs[refspecs.count++] = (char *)"+HEAD:" HEAD_REF;
	}
	opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_ALL;
	opts.proxy_opts.type = GIT_PROXY_AUTO;
	if (git_remote_lookup(&remote, repo, "origin") < 0) {
		ret = pmbench_error_set("the clone of '%s' has no origin: %s",
					f->repo, lg2_message());
		goto done;
	}
	if (git_remote_fetch(remote, &refspecs, &opts, "pmbench: fetch") < 0)
		ret = pmbench_error_set("cannot fetch from '%s': %s (check "
					"'repo' in %s)",
					f->repo, lg2_message(), manifest_of(f));

done:
	git_remote_free(remote);
	return ret;
}

static int missing_commit(const struct pmbench_fixture *f)
{
	return pmbench_error_setc(PMBENCH_ENOTFOUND,
				  "commit %s is not in '%s' (check 'commit' in "
				  "%s)",
				  f->commit, f->repo, manifest_of(f));
}

/*
 * Find the commit to check out in the clone, fetching when it is missing
 * (or, with no pinned commit, always: the origin's HEAD may have moved).
 */
static int resolve_commit(git_commit **out, git_repository *repo,
			  const struct pmbench_fixture *f)
{
	git_object *obj = NULL, *peeled = NULL;
	git_oid oid;
	int ret = 0, err;

	*out = NULL;
	if (!f->commit) {
		ret = fetch_origin(repo, 1, NULL, f);
		if (ret < 0)
			goto done;
		if (git_reference_name_to_id(&oid, repo, HEAD_REF) < 0) {
			ret = pmbench_error_set("'%s' has no HEAD commit: %s",
						f->repo, lg2_message());
			goto done;
		}
	} else if (git_oid_fromstr(&oid, f->commit) < 0) {
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "'commit' must be a full 40-character "
					 "SHA, got '%s'",
					 f->commit);
		goto done;
	}
	err = git_object_lookup(&obj, repo, &oid, GIT_OBJECT_ANY);
	if (err == GIT_ENOTFOUND && f->commit) {
		ret = fetch_origin(repo, 0, NULL, f);
		if (ret < 0)
			goto done;
		err = git_object_lookup(&obj, repo, &oid, GIT_OBJECT_ANY);
	}
	if (err == GIT_ENOTFOUND && f->commit) {
		/* Best effort: not every server serves objects by id. */
		if (fetch_origin(repo, 0, f->commit, f) < 0)
			pmbench_error_clear();
		err = git_object_lookup(&obj, repo, &oid, GIT_OBJECT_ANY);
	}
	if (err == GIT_ENOTFOUND) {
		ret = f->commit ? missing_commit(f)
				: pmbench_error_setc(PMBENCH_ENOTFOUND,
						     "the HEAD of '%s' was not "
						     "fetched",
						     f->repo);
		goto done;
	}
	if (err < 0) {
		ret = pmbench_error_set("cannot read commit %s of '%s': %s",
					f->commit ? f->commit : "HEAD", f->repo,
					lg2_message());
		goto done;
	}
	if (git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0) {
		ret = pmbench_error_setc(
			PMBENCH_EINVALID,
			"%s in '%s' is a %s, not a commit "
			"(check 'commit' in %s)",
			f->commit ? f->commit : "HEAD", f->repo,
			git_object_type2string(git_object_type(obj)),
			manifest_of(f));
		goto done;
	}
	*out = (git_commit *)peeled;
	peeled = NULL;

done:
	git_object_free(peeled);
	git_object_free(obj);
	return ret;
}

/*
 * Clone (or reuse the clone of) the fixture's git repository `url` and
 * check the commit out into `source`. `key` names the repository for the
 * clone's folder name. Stores the commit's SHA in *sha.
 */
static int checkout_git(char **sha, struct pmbench_fixture *f,
			const char *cache, const char *url, const char *key,
			const char *source)
{
	git_checkout_options opts;
	struct pmbench_buf clone = PMBENCH_BUF_INIT;
	char hash[13], hex[GIT_OID_HEXSZ + 1];
	git_repository *repo = NULL;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	int ret;

	*sha = NULL;
	git_checkout_options_init(&opts, GIT_CHECKOUT_OPTIONS_VERSION);
	ret = key_hash(hash, key);
	if (ret < 0)
		goto done;
	pmbench_buf_path(&clone, cache, "repos");
	pmbench_buf_addf(&clone, "/%s-%s.git", f->name, hash);
	ret = open_or_clone(&repo, clone.ptr, url, f);
	if (ret < 0)
		goto done;
	ret = resolve_commit(&commit, repo, f);
	if (ret < 0)
		goto done;
	if (git_commit_tree(&tree, commit) < 0) {
		ret = pmbench_error_set("cannot read the tree of %s in '%s': "
					"%s",
					f->commit ? f->commit : "HEAD", f->repo,
					lg2_message());
		goto done;
	}
	ret = pmbench_fs_rmtree(source);
	if (ret < 0)
		goto done;
	ret = pmbench_fs_mkdirp(source, 0755);
	if (ret < 0)
		goto done;
	/*
	 * A bare repository checks out into target_directory; never touch
	 * its (nonexistent) index, so that the clone only ever changes when
	 * it fetches.
	 */
	opts.checkout_strategy = GIT_CHECKOUT_FORCE |
				 GIT_CHECKOUT_DONT_UPDATE_INDEX;
	opts.target_directory = source;
	if (git_checkout_tree(repo, (const git_object *)tree, &opts) < 0) {
		ret = pmbench_error_set("cannot check out %s of '%s' into "
					"'%s': %s",
					git_oid_tostr(hex, sizeof(hex),
						      git_commit_id(commit)),
					f->repo, source, lg2_message());
		goto done;
	}
	*sha = pmbench_xstrdup(
		git_oid_tostr(hex, sizeof(hex), git_commit_id(commit)));

done:
	git_tree_free(tree);
	git_commit_free(commit);
	git_repository_free(repo);
	pmbench_buf_release(&clone);
	return ret;
}

/* Copy a plain local folder into `source`. */
static int copy_folder(const struct pmbench_fixture *f, const char *local,
		       const char *cache, const char *source)
{
	int ret;

	if (f->commit)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "'%s' is not a git repository, so "
					  "'commit' cannot be checked out "
					  "(remove 'commit' or point 'repo' "
					  "at a repository in %s)",
					  f->repo, manifest_of(f));
	ret = pmbench_fs_is_inside(local, cache);
	if (ret < 0)
		return ret;
	if (ret || !strcmp(local, cache))
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "the cache folder '%s' is inside "
					  "the fixture '%s'; choose a cache "
					  "folder elsewhere",
					  cache, local);
	ret = pmbench_fs_rmtree(source);
	if (ret < 0)
		return ret;
	return pmbench_fs_copytree(local, source,
				   PMBENCH_FS_COPY_SKIP_GIT |
					   PMBENCH_FS_COPY_SKIP_NODE_MODULES,
				   NULL);
}

/* Check the project folder inside `source` and store it in `out`. */
static int check_project(struct pmbench_buf *out,
			 const struct pmbench_fixture *f, const char *source)
{
	struct pmbench_buf pkg = PMBENCH_BUF_INIT;
	int ret = 0, inside;

	pmbench_buf_reset(out);
	pmbench_buf_adds(out, source);
	if (f->subdir) {
		pmbench_buf_reset(out);
		pmbench_buf_path(out, source, f->subdir);
		if (!pmbench_fs_exists(out->ptr)) {
			ret = pmbench_error_setc(PMBENCH_ENOTFOUND,
						 "subdir '%s' does not exist "
						 "in '%s' (check 'subdir' in "
						 "%s)",
						 f->subdir, f->repo,
						 manifest_of(f));
			goto done;
		}
		if (!pmbench_fs_isdir(out->ptr)) {
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "subdir '%s' of '%s' is not a "
						 "folder (check 'subdir' in "
						 "%s)",
						 f->subdir, f->repo,
						 manifest_of(f));
			goto done;
		}
		inside = pmbench_fs_is_inside(source, out->ptr);
		if (inside < 0) {
			ret = inside;
			goto done;
		}
		if (!inside) {
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "subdir '%s' of '%s' leads "
						 "outside the repository (a "
						 "symlink?); refusing it "
						 "(check 'subdir' in %s)",
						 f->subdir, f->repo,
						 manifest_of(f));
			goto done;
		}
	}
	pmbench_buf_path(&pkg, out->ptr, "package.json");
	inside = pmbench_fs_is_inside(source, pkg.ptr);
	if (inside < 0) {
		ret = inside;
		goto done;
	}
	if (!pmbench_fs_isfile(pkg.ptr) || !inside) {
		ret = pmbench_error_setc(PMBENCH_ENOTFOUND,
					 "no package.json in '%s' of fixture "
					 "'%s'%s",
					 f->subdir ? f->subdir : f->repo,
					 f->name,
					 f->is_bare_path
						 ? ""
						 : " (set 'subdir' to the "
						   "project's folder)");
		goto done;
	}

done:
	pmbench_buf_release(&pkg);
	return ret;
}

int pmbench_fixture_checkout(struct pmbench_fixture *f, const char *cache_dir)
{
	struct pmbench_buf cache = PMBENCH_BUF_INIT;
	struct pmbench_buf source = PMBENCH_BUF_INIT;
	struct pmbench_buf local = PMBENCH_BUF_INIT;
	struct pmbench_buf project = PMBENCH_BUF_INIT;
	char *sha = NULL;
	int is_git = 0, ret;

	free(f->resolved_commit);
	free(f->source_dir);
	free(f->project_dir);
	f->resolved_commit = f->source_dir = f->project_dir = NULL;

	ret = lg2_init();
	if (ret < 0)
		goto done;
	pmbench_fs_abspath(&cache, cache_dir);
	pmbench_buf_path(&source, cache.ptr, "work");
	pmbench_buf_addf(&source, "/%s/source", f->name);

	if (f->is_generated) {
		struct pmbench_gen g;

		ret = pmbench_gen_parse(&g, f->repo);
		if (!ret)
			ret = pmbench_fs_rmtree(source.ptr);
		if (!ret)
			ret = pmbench_gen_write(&g, source.ptr);
	} else if (f->is_remote || !strncmp(f->repo, "file://", 7)) {
		ret = checkout_git(&sha, f, cache.ptr, f->repo, f->repo,
				   source.ptr);
	} else {
		ret = probe_local(&local, &is_git, f);
		if (ret < 0)
			goto done;
		if (is_git)
			ret = checkout_git(&sha, f, cache.ptr, local.ptr,
					   local.ptr, source.ptr);
		else
			ret = copy_folder(f, local.ptr, cache.ptr, source.ptr);
	}
	if (ret < 0)
		goto done;
	ret = check_project(&project, f, source.ptr);
	if (ret < 0)
		goto done;
	f->resolved_commit = sha;
	sha = NULL;
	f->source_dir = pmbench_buf_detach(&source);
	f->project_dir = pmbench_buf_detach(&project);

done:
	free(sha);
	pmbench_buf_release(&cache);
	pmbench_buf_release(&source);
	pmbench_buf_release(&local);
	pmbench_buf_release(&project);
	return ret;
}
