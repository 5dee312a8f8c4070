#include "pmbench/common.h"

#include <ctype.h>
#include <dirent.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>
#include <git2.h>

#include "pmbench/buf.h"
#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"

#define MANIFEST_MAX (1u << 20)

static const char *const known_keys[] = { "name", "repo", "commit",
					  "subdir", "description", "env",
					  "pm", "scripts", "build", "dev",
					  NULL };

static int bad(const char *origin, const char *fmt, ...) PMBENCH_PRINTF(2, 3);

static int bad(const char *origin, const char *fmt, ...)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	pmbench_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	pmbench_error_setc(PMBENCH_EINVALID, "%s: %s", origin, b.ptr);
	pmbench_buf_release(&b);
	return PMBENCH_EINVALID;
}

static int get_string(char **out, const cJSON *obj, const char *key,
		      const char *origin, int required, const char *what)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!v) {
		if (required)
			return bad(origin, "missing required field '%s' (%s)",
				   key, what);
		return 0;
	}
	if (!cJSON_IsString(v) || !*v->valuestring)
		return bad(origin, "field '%s' must be a non-empty string (%s)",
			   key, what);
	free(*out);
	*out = pmbench_xstrdup(v->valuestring);
	return 0;
}

static int get_env(struct pmbench_strvec *out, const cJSON *obj,
		   const char *key, const char *origin)
{
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(obj, key), *e;

	if (!env)
		return 0;
	if (!cJSON_IsObject(env))
		return bad(origin, "field '%s' must be an object of strings",
			   key);
	cJSON_ArrayForEach(e, env)
	{
		if (!cJSON_IsString(e))
			return bad(origin,
				   "'%s.%s' must be a string (write numbers "
				   "in quotes)",
				   key, e->string);
		pmbench_strvec_pushf(out, "%s=%s", e->string, e->valuestring);
	}
	return 0;
}

static int get_strings(struct pmbench_strvec *out, const cJSON *obj,
		       const char *key, const char *origin)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key), *e;

	if (!arr)
		return 0;
	if (!cJSON_IsArray(arr))
		return bad(origin, "field '%s' must be an array of strings",
			   key);
	cJSON_ArrayForEach(e, arr)
	{
		if (!cJSON_IsString(e))
			return bad(origin, "'%s' must hold only strings", key);
		pmbench_strvec_push(out, e->valuestring);
	}
	return 0;
}

static int valid_name(const char *s)
{
	if (!*s || *s == '.')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-", *s))
			return 0;
	return 1;
}

static int valid_sha(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!isxdigit((unsigned char)s[n]))
			return 0;
	return n == 40;
}

static int unsafe_subdir(const char *s)
{
	const char *p = s;

	if (*s == '/')
		return 1;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && !strncmp(p, "..", 2))
			return 1;
		p += n;
		if (*p)
			p++;
	}
	return 0;
}

static int is_url(const char *repo)
{
	return strstr(repo, "://") != NULL || !strncmp(repo, "git@", 4);
}

/* Line and column of byte `at` in `text`, both 1-based. */
static void position(const char *text, const char *at, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (const char *p = text; *p && p < at; p++) {
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static int parse_pm_section(struct pmbench_fixture *out, const cJSON *pms,
			    const char *origin)
{
	const cJSON *e;

	if (!cJSON_IsObject(pms))
		return bad(origin, "field 'pm' must be an object keyed by "
				   "package manager");
	cJSON_ArrayForEach(e, pms)
	{
		struct pmbench_fixture_pm *fp;
		const cJSON *k;

		if (!pmbench_pm_get(e->string))
			return bad(origin,
				   "unknown package manager 'pm.%s'; use npm, "
				   "yarn, yarn-berry, pnpm, bun or deno",
				   e->string);
		if (!cJSON_IsObject(e))
			return bad(origin, "'pm.%s' must be an object with "
					   "'flags' and 'env'",
				   e->string);
		cJSON_ArrayForEach(k, e)
		{
			if (strcmp(k->string, "flags") && strcmp(k->string, "env"))
				return bad(origin,
					   "unknown field 'pm.%s.%s'; expected "
					   "'flags' or 'env'",
					   e->string, k->string);
		}
		PMBENCH_ALLOC_GROW(out->pms, out->pms_nr + 1, out->pms_alloc);
		fp = &out->pms[out->pms_nr++];
		memset(fp, 0, sizeof(*fp));
		fp->pm = pmbench_xstrdup(e->string);
		pmbench_strvec_init(&fp->flags);
		pmbench_strvec_init(&fp->env);
		if (get_strings(&fp->flags, e, "flags", origin) < 0 ||
		    get_env(&fp->env, e, "env", origin) < 0)
			return PMBENCH_EINVALID;
	}
	return 0;
}

static int parse_task_sections(struct pmbench_fixture *out, const cJSON *root,
			       const char *origin)
{
	const cJSON *build = cJSON_GetObjectItemCaseSensitive(root, "build");
	const cJSON *dev = cJSON_GetObjectItemCaseSensitive(root, "dev");

	if (build && !cJSON_IsObject(build))
		return bad(origin, "field 'build' must be an object");
	if (dev && !cJSON_IsObject(dev))
		return bad(origin, "field 'dev' must be an object");
	if (build &&
	    (get_string(&out->build_script, build, "script", origin, 0, "") ||
	     get_string(&out->build_output, build, "output", origin, 0, "")))
		return PMBENCH_EINVALID;
	if (dev && (get_string(&out->dev_script, dev, "script", origin, 0, "") ||
		    get_string(&out->dev_args, dev, "args", origin, 0, "") ||
		    get_string(&out->ready_pattern, dev, "ready", origin, 0,
			       "") ||
		    get_string(&out->ready_path, dev, "path", origin, 0, "")))
		return PMBENCH_EINVALID;
	return get_strings(&out->scripts, root, "scripts", origin);
}

int pmbench_fixture_parse(struct pmbench_fixture *out, const char *json,
			  const char *origin)
{
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithOpts(json, &end, 0);
	const cJSON *k;
	int ret = PMBENCH_EINVALID;

	memset(out, 0, sizeof(*out));
	pmbench_strvec_init(&out->env);
	pmbench_strvec_init(&out->scripts);
	if (!root) {
		int line, col;
		const char *at = cJSON_GetErrorPtr();

		if (!at)
			at = json + strlen(json);
		position(json, at, &line, &col);
		pmbench_error_setc(PMBENCH_EINVALID,
				   "%s:%d:%d: malformed JSON near '%.20s'",
				   origin, line, col, at);
		return PMBENCH_EINVALID;
	}
	if (!cJSON_IsObject(root)) {
		bad(origin, "a manifest must be a JSON object");
		goto done;
	}
	cJSON_ArrayForEach(k, root)
	{
		size_t i;

		for (i = 0; known_keys[i]; i++)
			if (!strcmp(known_keys[i], k->string))
				break;
		if (!known_keys[i]) {
			bad(origin,
			    "unknown field '%s'; expected name, repo, commit, "
			    "subdir, description, env, pm, scripts, build or "
			    "dev",
			    k->string);
			goto done;
		}
	}
	if (get_string(&out->name, root, "name", origin, 1,
		       "a short folder-safe name") ||
	    get_string(&out->repo, root, "repo", origin, 1,
		       "the git URL or local path of the project") ||
	    get_string(&out->commit, root, "commit", origin, 0, "") ||
	    get_string(&out->subdir, root, "subdir", origin, 0, "") ||
	    get_string(&out->description, root, "description", origin, 0, ""))
		goto done;
	if (!valid_name(out->name)) {
		bad(origin, "'name' may hold only letters, digits, '.', '_' "
			    "and '-', and not start with '.'; got '%s'",
		    out->name);
		goto done;
	}
	if (out->commit && !valid_sha(out->commit)) {
		bad(origin, "'commit' must be a full 40-character SHA, got '%s'",
		    out->commit);
		goto done;
	}
	out->is_remote = is_url(out->repo) && strncmp(out->repo, "file://", 7);
	if (out->is_remote && !out->commit) {
		bad(origin, "'commit' is required for the remote repository "
			    "'%s' (pin the full SHA)",
		    out->repo);
		goto done;
	}
	if (out->subdir && unsafe_subdir(out->subdir)) {
		bad(origin, "field 'subdir' must not contain '..' or be "
			    "absolute, got '%s'",
		    out->subdir);
		goto done;
	}
	if (get_env(&out->env, root, "env", origin) < 0)
		goto done;
	k = cJSON_GetObjectItemCaseSensitive(root, "pm");
	if (k && parse_pm_section(out, k, origin) < 0)
		goto done;
	if (parse_task_sections(out, root, origin) < 0)
		goto done;
	ret = 0;
done:
	cJSON_Delete(root);
	return ret;
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static int load_manifest(struct pmbench_fixture *out, const char *path)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT, abs = PMBENCH_BUF_INIT;
	int ret = pmbench_fs_read(&text, path, MANIFEST_MAX);

	if (ret < 0) {
		pmbench_error_prefix("cannot read manifest '%s'", path);
		goto done;
	}
	ret = pmbench_fixture_parse(out, text.ptr, path);
	if (ret < 0)
		goto done;
	out->manifest_path = pmbench_xstrdup(path);
	/* A relative local repo is relative to the manifest's folder. */
	if (!is_url(out->repo) && out->repo[0] != '/') {
		const char *slash = strrchr(path, '/');

		if (slash)
			pmbench_buf_add(&abs, path, (size_t)(slash - path + 1));
		pmbench_buf_adds(&abs, out->repo);
		pmbench_fs_abspath(&text, abs.ptr);
		free(out->repo);
		out->repo = pmbench_xstrdup(text.ptr);
	}
done:
	pmbench_buf_release(&text);
	pmbench_buf_release(&abs);
	return ret;
}

int pmbench_fixture_load(struct pmbench_fixture *out, const char *arg,
			 const char *fixtures_dir)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int ret;

	memset(out, 0, sizeof(*out));
	if (has_suffix(arg, ".json") && pmbench_fs_isfile(arg)) {
		ret = load_manifest(out, arg);
		goto done;
	}
	if (pmbench_fs_isdir(arg)) {
		pmbench_buf_path(&p, arg, "package.json");
		if (!pmbench_fs_isfile(p.ptr)) {
			ret = pmbench_error_setc(
				PMBENCH_EINVALID,
				"no package.json in '%s': a fixture folder "
				"must hold a JavaScript project",
				arg);
			goto done;
		}
		pmbench_fs_abspath(&p, arg);
		pmbench_strvec_init(&out->env);
		pmbench_strvec_init(&out->scripts);
		out->repo = pmbench_xstrdup(p.ptr);
		{
			const char *base = strrchr(p.ptr, '/');

			out->name = pmbench_xstrdup(base && base[1] ? base + 1
								   : "project");
		}
		for (char *c = out->name; *c; c++)
			if (!isalnum((unsigned char)*c) && !strchr("._-", *c))
				*c = '_';
		out->is_bare_path = 1;
		ret = 0;
		goto done;
	}
	pmbench_buf_reset(&p);
	pmbench_buf_addf(&p, "%s/%s.json", fixtures_dir, arg);
	if (!strchr(arg, '/') && pmbench_fs_isfile(p.ptr)) {
		ret = load_manifest(out, p.ptr);
		goto done;
	}
	ret = pmbench_error_setc(PMBENCH_ENOTFOUND,
				 "no fixture '%s': not a manifest in %s, a "
				 ".json file or a folder with a package.json "
				 "(see 'pmbench fixtures')",
				 arg, fixtures_dir);
done:
	pmbench_buf_release(&p);
	return ret;
}

static int git_fail(const char *what, const char *repo, const char *manifest)
{
	const git_error *e = git_error_last();

	return pmbench_error_set("%s '%s': %s (check 'repo'%s%s)", what, repo,
				 e && e->message ? e->message : "unknown error",
				 manifest ? " in " : "",
				 manifest ? manifest : "");
}

/* FNV-1a, to give each repository URL its own clone folder. */
static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

static int fetch_all(git_repository *repo)
{
	git_remote *remote = NULL;
	git_fetch_options opts;
	char *specs[] = { "+refs/heads/*:refs/remotes/origin/*",
			  "+refs/tags/*:refs/tags/*" };
	git_strarray refspecs = { specs, 2 };
	int rc;

	/* The _init functions: the macros trip -Wmissing-field-initializers. */
	git_fetch_options_init(&opts, GIT_FETCH_OPTIONS_VERSION);
	rc = git_remote_lookup(&remote, repo, "origin");

	if (!rc)
		rc = git_remote_fetch(remote, &refspecs, &opts, NULL);
	git_remote_free(remote);
	return rc;
}

static int local_git_repo(const char *path)
{
	git_repository *r = NULL;
	int ok = !git_repository_open_ext(&r, path,
					   GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);

	git_repository_free(r);
	return ok;
}

static int checkout_git(struct pmbench_fixture *f, const char *cache_dir,
			const char *dest)
{
	struct pmbench_buf clone_dir = PMBENCH_BUF_INIT;
	git_repository *repo = NULL;
	git_object *commit = NULL;
	git_oid oid;
	git_checkout_options co;
	char sha[GIT_OID_HEXSZ + 1];
	int ret = PMBENCH_ERROR;

	git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
	pmbench_buf_addf(&clone_dir, "%s/repos/%s-%012llx.git", cache_dir,
			 f->name,
			 (unsigned long long)(hash_str(f->repo) & 0xffffffffffffull));
	if (git_repository_open_bare(&repo, clone_dir.ptr) < 0) {
		git_clone_options opts;

		git_clone_options_init(&opts, GIT_CLONE_OPTIONS_VERSION);
		opts.bare = 1;
		pmbench_fs_rmtree(clone_dir.ptr);
		if (git_clone(&repo, f->repo, clone_dir.ptr, &opts) < 0) {
			git_fail("cannot clone", f->repo, f->manifest_path);
			pmbench_fs_rmtree(clone_dir.ptr);
			goto done;
		}
	} else if (!f->commit) {
		/* No pin: follow the local repository's HEAD. */
		fetch_all(repo);
	}
	if (f->commit) {
		if (git_oid_fromstr(&oid, f->commit) < 0 ||
		    git_object_lookup(&commit, repo, &oid, GIT_OBJECT_COMMIT) < 0) {
			/* Fetch only when the pinned commit is missing. */
			if (fetch_all(repo) < 0 ||
			    git_object_lookup(&commit, repo, &oid,
					      GIT_OBJECT_COMMIT) < 0) {
				ret = pmbench_error_set(
					"commit %s is not in '%s' (check "
					"'commit'%s%s)",
					f->commit, f->repo,
					f->manifest_path ? " in " : "",
					f->manifest_path ? f->manifest_path
							 : "");
				goto done;
			}
		}
	} else if (git_revparse_single(&commit, repo, "HEAD^{commit}") < 0) {
		git_fail("no HEAD commit in", f->repo, f->manifest_path);
		goto done;
	}
	git_oid_tostr(sha, sizeof(sha), git_object_id(commit));
	free(f->resolved_commit);
	f->resolved_commit = pmbench_xstrdup(sha);

	if (pmbench_fs_rmtree(dest) < 0 || pmbench_fs_mkdirp(dest, 0755) < 0)
		goto done;
	co.checkout_strategy = GIT_CHECKOUT_FORCE;
	co.target_directory = dest;
	if (git_checkout_tree(repo, commit, &co) < 0) {
		git_fail("cannot check out", f->repo, f->manifest_path);
		goto done;
	}
	ret = 0;
done:
	git_object_free(commit);
	git_repository_free(repo);
	pmbench_buf_release(&clone_dir);
	return ret;
}

int pmbench_fixture_checkout(struct pmbench_fixture *f, const char *cache_dir)
{
	struct pmbench_buf dest = PMBENCH_BUF_INIT, p = PMBENCH_BUF_INIT;
	int ret;

	git_libgit2_init();
	pmbench_buf_addf(&dest, "%s/work/%s/source", cache_dir, f->name);
	if (!is_url(f->repo) && !local_git_repo(f->repo)) {
		if (!pmbench_fs_isdir(f->repo)) {
			ret = pmbench_error_setc(
				PMBENCH_ENOTFOUND,
				"cannot clone '%s': no such folder (check "
				"'repo'%s%s)",
				f->repo, f->manifest_path ? " in " : "",
				f->manifest_path ? f->manifest_path : "");
			goto done;
		}
		if (f->commit) {
			ret = pmbench_error_setc(
				PMBENCH_EINVALID,
				"'%s' is not a git repository, so 'commit' "
				"cannot be checked out (check%s%s)",
				f->repo, f->manifest_path ? " " : "",
				f->manifest_path ? f->manifest_path : "");
			goto done;
		}
		ret = pmbench_fs_rmtree(dest.ptr);
		if (!ret)
			ret = pmbench_fs_copytree(
				f->repo, dest.ptr,
				PMBENCH_FS_COPY_SKIP_GIT |
					PMBENCH_FS_COPY_SKIP_NODE_MODULES,
				NULL);
	} else {
		ret = checkout_git(f, cache_dir, dest.ptr);
	}
	if (ret < 0)
		goto done;

	if (f->subdir) {
		pmbench_buf_path(&p, dest.ptr, f->subdir);
		if (!pmbench_fs_isdir(p.ptr)) {
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "subdir '%s' is not a folder "
						 "of '%s' at this commit",
						 f->subdir, f->repo);
			goto done;
		}
		if (pmbench_fs_is_inside(dest.ptr, p.ptr) != 1) {
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "subdir '%s' leads outside "
						 "the repository '%s'",
						 f->subdir, f->repo);
			goto done;
		}
	} else {
		pmbench_buf_adds(&p, dest.ptr);
	}
	free(f->source_dir);
	free(f->project_dir);
	f->source_dir = pmbench_buf_detach(&dest);
	f->project_dir = pmbench_xstrdup(p.ptr);
	pmbench_buf_reset(&p);
	pmbench_buf_path(&p, f->project_dir, "package.json");
	if (!pmbench_fs_isfile(p.ptr)) {
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "no package.json in '%s' of fixture "
					 "'%s'",
					 f->subdir ? f->subdir : "the repository "
								 "root",
					 f->name);
		goto done;
	}
	ret = 0;
done:
	pmbench_buf_release(&dest);
	pmbench_buf_release(&p);
	return ret;
}

const struct pmbench_fixture_pm *
pmbench_fixture_pm(const struct pmbench_fixture *f, const char *pm)
{
	for (size_t i = 0; i < f->pms_nr; i++)
		if (!strcmp(f->pms[i].pm, pm))
			return &f->pms[i];
	return NULL;
}

void pmbench_fixture_release(struct pmbench_fixture *f)
{
	free(f->name);
	free(f->repo);
	free(f->commit);
	free(f->subdir);
	free(f->description);
	free(f->manifest_path);
	pmbench_strvec_release(&f->env);
	for (size_t i = 0; i < f->pms_nr; i++) {
		free(f->pms[i].pm);
		pmbench_strvec_release(&f->pms[i].flags);
		pmbench_strvec_release(&f->pms[i].env);
	}
	free(f->pms);
	pmbench_strvec_release(&f->scripts);
	free(f->build_script);
	free(f->build_output);
	free(f->dev_script);
	free(f->dev_args);
	free(f->ready_pattern);
	free(f->ready_path);
	free(f->resolved_commit);
	free(f->source_dir);
	free(f->project_dir);
	memset(f, 0, sizeof(*f));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pmbench_fixture_list(struct pmbench_strvec *out, const char *fixtures_dir)
{
	DIR *d = opendir(fixtures_dir);
	struct dirent *de;
	size_t first = out->nr;

	if (!d)
		return pmbench_error_set("cannot read fixtures folder '%s': %s",
					 fixtures_dir, strerror(errno));
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && has_suffix(de->d_name, ".json"))
			pmbench_strvec_pushf(out, "%s/%s", fixtures_dir,
					     de->d_name);
	closedir(d);
	qsort(out->v + first, out->nr - first, sizeof(*out->v), cmp_str);
	return 0;
}
