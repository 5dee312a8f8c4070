#include "pmbench/common.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>

#include <cJSON.h>
#include <git2.h>

#include "pmbench/buf.h"
#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/strvec.h"

/* A manifest is a few hundred bytes; anything near this is a mistake. */
#define MANIFEST_MAX (1024 * 1024)
#define NAME_MAX_LEN 100
#define SHA_HEX_LEN  40
/* How much of the text after a JSON syntax error the message quotes. */
#define SNIPPET_LEN 20

static const char *const top_keys[] = {
	"name",	   "repo",  "commit", "subdir", "description", "env", "pm",
	"scripts", "build", "test",   "dev",	"hmr",	       NULL
};
static const char *const pm_keys[] = { "flags", "env", NULL };
static const char *const build_keys[] = { "script", "output", NULL };
static const char *const test_keys[] = { "script", NULL };
static const char *const dev_keys[] = { "script", "args", "ready", "path",
					NULL };
static const char *const hmr_keys[] = { "file", "path", NULL };

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

/*
 * Manifest parsing.
 */

static const char *json_type(const cJSON *v)
{
	if (cJSON_IsString(v))
		return "a string";
	if (cJSON_IsNumber(v))
		return "a number";
	if (cJSON_IsBool(v))
		return "a boolean";
	if (cJSON_IsNull(v))
		return "null";
	if (cJSON_IsArray(v))
		return "an array";
	if (cJSON_IsObject(v))
		return "an object";
	return "an invalid value";
}

/*
 * Report where cJSON stopped. `end` points at the offending byte (or at
 * the terminating NUL when the input ended too early).
 */
static int json_syntax_error(const char *json, const char *end,
			     const char *origin)
{
	struct pmbench_buf near = PMBENCH_BUF_INIT;
	size_t len = strlen(json), pos, line = 1, col = 1;
	int ret;

	pos = end && end >= json ? (size_t)(end - json) : 0;
	if (pos > len)
		pos = len;
	/*
	 * cJSON reports an object key that is not a string one byte late
	 * (an unquoted key, or the '}' after a trailing comma): step back
	 * onto it. Only a key can follow '{' or ',' and fail that way.
	 */
	if (pos > 0) {
		unsigned char c = (unsigned char)json[pos - 1];
		size_t k = pos - 1;

		while (k > 0 && isspace((unsigned char)json[k - 1]))
			k--;
		int keyish = c == '}' || c == '_' || c == '\'' || isalpha(c);

		if (keyish && k > 0 &&
		    (json[k - 1] == '{' || json[k - 1] == ','))
			pos--;
	}
	for (size_t i = 0; i < pos; i++) {
		if (json[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	if (pos == len) {
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "%s:%zu:%zu: malformed JSON: "
					 "unexpected end of input (is a "
					 "bracket or quote not closed?)",
					 origin, line, col);
		goto done;
	}
	for (size_t i = pos; i < len && i < pos + SNIPPET_LEN; i++) {
		unsigned char c = (unsigned char)json[i];

		if (c == '\n' || c == '\r')
			break;
		pmbench_buf_addch(&near, isprint(c) ? c : '?');
	}
	ret = pmbench_error_setc(PMBENCH_EINVALID,
				 "%s:%zu:%zu: malformed JSON near '%s'", origin,
				 line, col, near.ptr);

done:
	pmbench_buf_release(&near);
	return ret;
}

/* Levenshtein distance of two short strings, for "did you mean". */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[NAME_MAX_LEN + 1];

	if (la > NAME_MAX_LEN || lb > NAME_MAX_LEN)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

static int in_list(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

/*
 * Refuse keys of `obj` that are not in `known`, and keys given twice
 * (cJSON keeps both and would silently use the first). `where` names the
 * object ("" for the top level, else e.g. "pm.npm").
 */
static int check_keys(const cJSON *obj, const char *const *known,
		      const char *origin, const char *where, const char *what)
{
	for (const cJSON *it = obj->child; it; it = it->next) {
		const char *key = it->string ? it->string : "";
		struct pmbench_buf hint = PMBENCH_BUF_INIT;
		const char *best = NULL;
		size_t best_d = 3;

		for (const cJSON *prev = obj->child; prev != it;
		     prev = prev->next)
			if (prev->string && !strcmp(prev->string, key))
				return pmbench_error_setc(
					PMBENCH_EINVALID,
					"%s: field '%s%s%s' appears twice "
					"(keep one)",
					origin, where, *where ? "." : "", key);
		if (in_list(known, key))
			continue;
		for (const char *const *k = known; *k; k++) {
			size_t d = edit_distance(key, *k);

			if (d < best_d) {
				best_d = d;
				best = *k;
			}
		}
		if (best) {
			pmbench_buf_addf(&hint, "did you mean '%s'?", best);
		} else {
			pmbench_buf_addf(&hint, "%s: ", what);
			for (const char *const *k = known; *k; k++)
				pmbench_buf_addf(&hint, "%s%s",
						 k == known ? "" : ", ", *k);
		}
		pmbench_error_setc(PMBENCH_EINVALID,
				   "%s: unknown field '%s%s%s' (%s)", origin,
				   where, *where ? "." : "", key, hint.ptr);
		pmbench_buf_release(&hint);
		return PMBENCH_EINVALID;
	}
	return 0;
}

static int want_object(const cJSON *v, const char *origin, const char *field)
{
	if (cJSON_IsObject(v))
		return 0;
	return pmbench_error_setc(PMBENCH_EINVALID,
				  "%s: field '%s' must be an object "
				  "({ ... }), got %s",
				  origin, field, json_type(v));
}

/*
 * Copy the string value `v` of `field` into `*out` (replacing it). An
 * empty string is refused unless `allow_empty`.
 */
static int get_string(char **out, const cJSON *v, const char *origin,
		      const char *field, int allow_empty)
{
	if (!cJSON_IsString(v) || !v->valuestring)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "%s: field '%s' must be a string, "
					  "got %s",
					  origin, field, json_type(v));
	if (!allow_empty && !*v->valuestring)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "%s: field '%s' must not be empty "
					  "(leave the field out instead)",
					  origin, field);
	free(*out);
	*out = pmbench_xstrdup(v->valuestring);
	return 0;
}

/* An array of non-empty strings, appended to `out`. */
static int get_string_array(struct pmbench_strvec *out, const cJSON *v,
			    const char *origin, const char *field)
{
	size_t i = 0;

	if (!cJSON_IsArray(v))
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "%s: field '%s' must be an array "
					  "of strings, got %s",
					  origin, field, json_type(v));
	for (const cJSON *it = v->child; it; it = it->next, i++) {
		if (!cJSON_IsString(it) || !it->valuestring)
			return pmbench_error_setc(
				PMBENCH_EINVALID,
				"%s: field '%s[%zu]' must be a string, got %s",
				origin, field, i, json_type(it));
		if (!*it->valuestring)
			return pmbench_error_setc(
				PMBENCH_EINVALID,
				"%s: field '%s[%zu]' must not be empty", origin,
				field, i);
		pmbench_strvec_push(out, it->valuestring);
	}
	return 0;
}

/* An object of string values, appended to `out` as "K=V". */
static int get_env(struct pmbench_strvec *out, const cJSON *v,
		   const char *origin, const char *field)
{
	int ret = want_object(v, origin, field);

	if (ret < 0)
		return ret;
	for (const cJSON *it = v->child; it; it = it->next) {
		const char *key = it->string ? it->string : "";

		for (const cJSON *prev = v->child; prev != it;
		     prev = prev->next)
			if (prev->string && !strcmp(prev->string, key))
				return pmbench_error_setc(
					PMBENCH_EINVALID,
					"%s: variable '%s' appears twice in "
					"'%s' (keep one)",
					origin, key, field);
		if (!*key || strchr(key, '='))
			return pmbench_error_setc(
				PMBENCH_EINVALID,
				"%s: field '%s' has an invalid variable name "
				"'%s' (names must be non-empty and have no "
				"'=')",
				origin, field, key);
		if (!cJSON_IsString(it) || !it->valuestring)
			return pmbench_error_setc(
				PMBENCH_EINVALID,
				"%s: field '%s.%s' must be a string, got %s "
				"(quote it: \"...\")",
				origin, field, key, json_type(it));
		pmbench_strvec_pushf(out, "%s=%s", key, it->valuestring);
	}
	return 0;
}

/*
 * Normalise a path relative to the repository: drop "." components and
 * doubled or trailing slashes. Refuses absolute paths and "..". The
 * result is empty for the root itself.
 */
static int normalize_relpath(struct pmbench_buf *out, const char *path,
			     const char *origin, const char *field)
{
	const char *p = path;

	pmbench_buf_reset(out);
	if (*path == '/')
		goto bad;
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);

		if (n == 2 && p[0] == '.' && p[1] == '.')
			goto bad;
		if (n && !(n == 1 && p[0] == '.')) {
			if (out->len)
				pmbench_buf_addch(out, '/');
			pmbench_buf_add(out, p, n);
		}
		p += n;
		if (*p == '/')
			p++;
	}
	return 0;

bad:
	return pmbench_error_setc(PMBENCH_EINVALID,
				  "%s: field '%s' must not contain '..' or be "
				  "absolute, got '%s' (give a folder inside "
				  "the repository)",
				  origin, field, path);
}

static int valid_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > NAME_MAX_LEN || *s == '.')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-", *s))
			return 0;
	return 1;
}

static int valid_sha(const char *s)
{
	if (strlen(s) != SHA_HEX_LEN)
		return 0;
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* Whether git would treat `repo` as remote: a URL, or scp-like host:path. */
static int repo_is_remote(const char *repo)
{
	const char *colon, *slash;

	if (!strncmp(repo, "file://", 7))
		return 0;
	if (strstr(repo, "://"))
		return 1;
	colon = strchr(repo, ':');
	slash = strchr(repo, '/');
	return colon && colon != repo && (!slash || colon < slash);
}

static void set_defaults(struct pmbench_fixture *f)
{
	if (!f->build_script)
		f->build_script = pmbench_xstrdup("build");
	if (!f->test_script)
		f->test_script = pmbench_xstrdup("test");
	if (!f->dev_script)
		f->dev_script = pmbench_xstrdup("dev");
	if (!f->ready_path)
		f->ready_path = pmbench_xstrdup("/");
}

static void init_vecs(struct pmbench_fixture *f)
{
	pmbench_strvec_init(&f->env);
	pmbench_strvec_init(&f->scripts);
}

static int parse_pm(struct pmbench_fixture *f, const cJSON *v,
		    const char *origin)
{
	struct pmbench_buf field = PMBENCH_BUF_INIT;
	int ret = want_object(v, origin, "pm");

	if (ret < 0)
		goto done;
	/* Every PM and variant the table knows. */
	ret = check_keys(v, pmbench_pm_names(), origin, "pm",
			 "known package managers");
	if (ret < 0)
		goto done;
	for (const cJSON *it = v->child; it; it = it->next) {
		struct pmbench_fixture_pm *pm;
		const cJSON *x;

		pmbench_buf_reset(&field);
		pmbench_buf_addf(&field, "pm.%s", it->string);
		ret = want_object(it, origin, field.ptr);
		if (ret < 0)
			goto done;
		ret = check_keys(it, pm_keys, origin, field.ptr,
				 "known fields");
		if (ret < 0)
			goto done;
		PMBENCH_ALLOC_GROW(f->pms, f->pms_nr + 1, f->pms_alloc);
		pm = &f->pms[f->pms_nr++];
		pm->pm = pmbench_xstrdup(it->string);
		pmbench_strvec_init(&pm->flags);
		pmbench_strvec_init(&pm->env);

		x = cJSON_GetObjectItemCaseSensitive(it, "flags");
		if (x) {
			pmbench_buf_adds(&field, ".flags");
			ret = get_string_array(&pm->flags, x, origin,
					       field.ptr);
			if (ret < 0)
				goto done;
			pmbench_buf_setlen(&field, field.len - 6);
		}
		x = cJSON_GetObjectItemCaseSensitive(it, "env");
		if (x) {
			pmbench_buf_adds(&field, ".env");
			ret = get_env(&pm->env, x, origin, field.ptr);
			if (ret < 0)
				goto done;
		}
	}

done:
	pmbench_buf_release(&field);
	return ret;
}

static int parse_build(struct pmbench_fixture *f, const cJSON *v,
		       const char *origin)
{
	struct pmbench_buf norm = PMBENCH_BUF_INIT;
	const cJSON *x;
	int ret = want_object(v, origin, "build");

	if (ret < 0)
		goto done;
	ret = check_keys(v, build_keys, origin, "build", "known fields");
	if (ret < 0)
		goto done;
	f->has_build = 1;
	x = cJSON_GetObjectItemCaseSensitive(v, "script");
	if (x) {
		ret = get_string(&f->build_script, x, origin, "build.script",
				 0);
		if (ret < 0)
			goto done;
	}
	x = cJSON_GetObjectItemCaseSensitive(v, "output");
	if (x) {
		ret = get_string(&f->build_output, x, origin, "build.output",
				 0);
		if (ret < 0)
			goto done;
		ret = normalize_relpath(&norm, f->build_output, origin,
					"build.output");
		if (ret < 0)
			goto done;
		if (!norm.len) {
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "%s: field 'build.output' "
						 "must name a folder inside "
						 "the project, got '%s'",
						 origin, f->build_output);
			goto done;
		}
		free(f->build_output);
		f->build_output = pmbench_buf_detach(&norm);
	}

done:
	pmbench_buf_release(&norm);
	return ret;
}

static int parse_test(struct pmbench_fixture *f, const cJSON *v,
		      const char *origin)
{
	const cJSON *x;
	int ret = want_object(v, origin, "test");

	if (ret < 0)
		return ret;
	ret = check_keys(v, test_keys, origin, "test", "known fields");
	if (ret < 0)
		return ret;
	x = cJSON_GetObjectItemCaseSensitive(v, "script");
	if (x && get_string(&f->test_script, x, origin, "test.script", 0) < 0)
		return PMBENCH_EINVALID;
	return 0;
}

static int parse_dev(struct pmbench_fixture *f, const cJSON *v,
		     const char *origin)
{
	const cJSON *x;
	int ret = want_object(v, origin, "dev");

	if (ret < 0)
		return ret;
	ret = check_keys(v, dev_keys, origin, "dev", "known fields");
	if (ret < 0)
		return ret;
	f->has_dev = 1;
	x = cJSON_GetObjectItemCaseSensitive(v, "script");
	if (x && get_string(&f->dev_script, x, origin, "dev.script", 0) < 0)
		return PMBENCH_EINVALID;
	x = cJSON_GetObjectItemCaseSensitive(v, "args");
	if (x && get_string(&f->dev_args, x, origin, "dev.args", 1) < 0)
		return PMBENCH_EINVALID;
	x = cJSON_GetObjectItemCaseSensitive(v, "ready");
	if (x && get_string(&f->ready_pattern, x, origin, "dev.ready", 0) < 0)
		return PMBENCH_EINVALID;
	x = cJSON_GetObjectItemCaseSensitive(v, "path");
	if (x) {
		if (get_string(&f->ready_path, x, origin, "dev.path", 0) < 0)
			return PMBENCH_EINVALID;
		if (f->ready_path[0] != '/')
			return pmbench_error_setc(PMBENCH_EINVALID,
						  "%s: field 'dev.path' must "
						  "start with '/', got '%s'",
						  origin, f->ready_path);
	}
	return 0;
}

/*
 * "hmr": { "file": "src/App.tsx", "path": "/src/App.tsx" }: the file an
 * edit touches (inside the project) and the URL path that serves it.
 */
static int parse_hmr(struct pmbench_fixture *f, const cJSON *v,
		     const char *origin)
{
	struct pmbench_buf norm = PMBENCH_BUF_INIT;
	const cJSON *x;
	int ret = want_object(v, origin, "hmr");

	if (!ret)
		ret = check_keys(v, hmr_keys, origin, "hmr", "known fields");
	if (ret < 0)
		goto done;
	f->has_hmr = 1;
	x = cJSON_GetObjectItemCaseSensitive(v, "file");
	if (x) {
		ret = get_string(&f->hmr_file, x, origin, "hmr.file", 0);
		if (!ret)
			ret = normalize_relpath(&norm, f->hmr_file, origin,
						"hmr.file");
		if (ret < 0)
			goto done;
		if (!norm.len) {
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "%s: field 'hmr.file' must "
						 "name a file inside the "
						 "project, got '%s'",
						 origin, f->hmr_file);
			goto done;
		}
		free(f->hmr_file);
		f->hmr_file = pmbench_buf_detach(&norm);
	}
	x = cJSON_GetObjectItemCaseSensitive(v, "path");
	if (x) {
		ret = get_string(&f->hmr_path, x, origin, "hmr.path", 0);
		if (ret < 0)
			goto done;
		if (f->hmr_path[0] != '/')
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "%s: field 'hmr.path' must "
						 "start with '/', got '%s'",
						 origin, f->hmr_path);
	}
done:
	pmbench_buf_release(&norm);
	return ret;
}

static int parse_root(struct pmbench_fixture *f, const cJSON *root,
		      const char *origin)
{
	struct pmbench_buf norm = PMBENCH_BUF_INIT;
	const cJSON *x;
	int ret;

	if (!cJSON_IsObject(root)) {
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "%s: a manifest must be a JSON "
					 "object ({ \"name\": ..., \"repo\": "
					 "... }), got %s",
					 origin, json_type(root));
		goto done;
	}
	ret = check_keys(root, top_keys, origin, "", "known fields");
	if (ret < 0)
		goto done;

	x = cJSON_GetObjectItemCaseSensitive(root, "name");
	if (!x) {
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "%s: missing required field 'name' "
					 "(the fixture's name, used as a "
					 "folder name)",
					 origin);
		goto done;
	}
	ret = get_string(&f->name, x, origin, "name", 1);
	if (ret < 0)
		goto done;
	if (!valid_name(f->name)) {
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "%s: field 'name' must be 1 to %d "
					 "letters, digits, '.', '_' or '-' and "
					 "not start with '.', got '%s'",
					 origin, NAME_MAX_LEN, f->name);
		goto done;
	}

	x = cJSON_GetObjectItemCaseSensitive(root, "repo");
	if (!x) {
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "%s: missing required field 'repo' "
					 "(the git URL or local path of the "
					 "project)",
					 origin);
		goto done;
	}
	ret = get_string(&f->repo, x, origin, "repo", 0);
	if (ret < 0)
		goto done;
	if (!strncmp(f->repo, "file://", 7) && f->repo[7] != '/') {
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "%s: field 'repo' must be a "
					 "file:///absolute/path URL, got '%s'",
					 origin, f->repo);
		goto done;
	}
	f->is_remote = repo_is_remote(f->repo);

	x = cJSON_GetObjectItemCaseSensitive(root, "commit");
	if (x) {
		ret = get_string(&f->commit, x, origin, "commit", 1);
		if (ret < 0)
			goto done;
		if (!valid_sha(f->commit)) {
			ret = pmbench_error_setc(PMBENCH_EINVALID,
						 "%s: 'commit' must be a full "
						 "%d-character SHA, got '%s'",
						 origin, SHA_HEX_LEN,
						 f->commit);
			goto done;
		}
		for (char *p = f->commit; *p; p++)
			*p = (char)tolower((unsigned char)*p);
	} else if (f->is_remote) {
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "%s: missing required field 'commit' "
					 "(a remote repository must be pinned "
					 "to a full %d-character SHA)",
					 origin, SHA_HEX_LEN);
		goto done;
	}

	x = cJSON_GetObjectItemCaseSensitive(root, "subdir");
	if (x) {
		ret = get_string(&f->subdir, x, origin, "subdir", 0);
		if (ret < 0)
			goto done;
		ret = normalize_relpath(&norm, f->subdir, origin, "subdir");
		if (ret < 0)
			goto done;
		free(f->subdir);
		f->subdir = norm.len ? pmbench_buf_detach(&norm) : NULL;
	}

	x = cJSON_GetObjectItemCaseSensitive(root, "description");
	if (x) {
		ret = get_string(&f->description, x, origin, "description", 1);
		if (ret < 0)
			goto done;
	}

	x = cJSON_GetObjectItemCaseSensitive(root, "env");
	if (x) {
		ret = get_env(&f->env, x, origin, "env");
		if (ret < 0)
			goto done;
	}
	x = cJSON_GetObjectItemCaseSensitive(root, "pm");
	if (x) {
		ret = parse_pm(f, x, origin);
		if (ret < 0)
			goto done;
	}
	x = cJSON_GetObjectItemCaseSensitive(root, "scripts");
	if (x) {
		ret = get_string_array(&f->scripts, x, origin, "scripts");
		if (ret < 0)
			goto done;
	}
	x = cJSON_GetObjectItemCaseSensitive(root, "build");
	if (x) {
		ret = parse_build(f, x, origin);
		if (ret < 0)
			goto done;
	}
	x = cJSON_GetObjectItemCaseSensitive(root, "test");
	if (x) {
		ret = parse_test(f, x, origin);
		if (ret < 0)
			goto done;
	}
	x = cJSON_GetObjectItemCaseSensitive(root, "dev");
	if (x) {
		ret = parse_dev(f, x, origin);
		if (ret < 0)
			goto done;
	}
	x = cJSON_GetObjectItemCaseSensitive(root, "hmr");
	if (x) {
		ret = parse_hmr(f, x, origin);
		if (ret < 0)
			goto done;
	}
	set_defaults(f);

done:
	pmbench_buf_release(&norm);
	return ret < 0 ? PMBENCH_EINVALID : 0;
}

int pmbench_fixture_parse(struct pmbench_fixture *out, const char *json,
			  const char *origin)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	const char *end = NULL;
	cJSON *root = NULL;
	int ret;

	memset(out, 0, sizeof(*out));
	init_vecs(&f);
	if (!origin)
		origin = "<manifest>";
	root = cJSON_ParseWithOpts(json, &end, 1);
	if (!root) {
		ret = json_syntax_error(json, end, origin);
		goto done;
	}
	ret = parse_root(&f, root, origin);
	if (ret < 0)
		goto done;
	f.manifest_path = pmbench_xstrdup(origin);
	*out = f;
	memset(&f, 0, sizeof(f));

done:
	cJSON_Delete(root);
	pmbench_fixture_release(&f);
	return ret;
}

/*
 * Loading.
 */

static int ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

static int load_manifest(struct pmbench_fixture *out, const char *path)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	int ret;

	ret = pmbench_fs_read_text(&text, path, MANIFEST_MAX);
	if (ret < 0)
		goto done;
	ret = pmbench_fixture_parse(out, text.ptr, path);

done:
	pmbench_buf_release(&text);
	return ret;
}

/* A folder name made from the base name of `abs` (an absolute path). */
static char *bare_name(const char *abs)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;
	const char *base = strrchr(abs, '/');

	base = base ? base + 1 : abs;
	for (const char *p = base; *p && b.len < NAME_MAX_LEN; p++) {
		unsigned char c = (unsigned char)*p;

		pmbench_buf_addch(&b, isalnum(c) || strchr("._-", c) ? c : '-');
	}
	if (!b.len)
		pmbench_buf_adds(&b, "root");
	if (b.ptr[0] == '.')
		b.ptr[0] = '_';
	return pmbench_buf_detach(&b);
}

static int load_bare_path(struct pmbench_fixture *out, const char *dir)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	struct pmbench_buf abs = PMBENCH_BUF_INIT;
	int ret;

	init_vecs(&f);
	ret = pmbench_fs_realpath(&abs, dir);
	if (ret < 0)
		goto done;
	f.name = bare_name(abs.ptr);
	f.repo = pmbench_buf_detach(&abs);
	f.is_bare_path = 1;
	set_defaults(&f);
	*out = f;
	memset(&f, 0, sizeof(f));

done:
	pmbench_fixture_release(&f);
	pmbench_buf_release(&abs);
	return ret;
}

int pmbench_fixture_load(struct pmbench_fixture *out, const char *arg,
			 const char *fixtures_dir)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	int ret;

	memset(out, 0, sizeof(*out));
	if (ends_with(arg, ".json") && pmbench_fs_isfile(arg)) {
		ret = load_manifest(out, arg);
		goto done;
	}
	pmbench_buf_path(&path, arg, "package.json");
	if (pmbench_fs_isdir(arg) && pmbench_fs_isfile(path.ptr)) {
		ret = load_bare_path(out, arg);
		goto done;
	}
	pmbench_buf_reset(&path);
	if (fixtures_dir && *arg && !strchr(arg, '/') && *arg != '.') {
		pmbench_buf_path(&path, fixtures_dir, arg);
		if (!ends_with(arg, ".json"))
			pmbench_buf_adds(&path, ".json");
		if (pmbench_fs_isfile(path.ptr)) {
			ret = load_manifest(out, path.ptr);
			goto done;
		}
	}
	ret = pmbench_error_setc(PMBENCH_ENOTFOUND,
				 "no fixture '%s': not a manifest in %s, a "
				 ".json file or a folder with a package.json "
				 "(see 'pmbench fixtures')",
				 arg,
				 fixtures_dir ? fixtures_dir : "fixtures/");

done:
	pmbench_buf_release(&path);
	return ret;
}

int pmbench_fixture_list(struct pmbench_strvec *out, const char *fixtures_dir)
{
	struct pmbench_strvec names = PMBENCH_STRVEC_INIT;
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	struct dirent *de;
	DIR *d;
	int ret = 0;

	d = opendir(fixtures_dir);
	if (!d) {
		ret = pmbench_error_setc(errno == ENOENT ? PMBENCH_ENOTFOUND
							 : PMBENCH_ERROR,
					 "cannot read the fixtures folder "
					 "'%s': %s",
					 fixtures_dir, strerror(errno));
		goto done;
	}
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de)
			break;
		if (de->d_name[0] == '.' || !ends_with(de->d_name, ".json"))
			continue;
		pmbench_buf_reset(&path);
		pmbench_buf_path(&path, fixtures_dir, de->d_name);
		if (pmbench_fs_isfile(path.ptr))
			pmbench_strvec_push(&names, de->d_name);
	}
	if (errno) {
		ret = pmbench_error_set("cannot read the fixtures folder "
					"'%s': %s",
					fixtures_dir, strerror(errno));
		goto done;
	}
	pmbench_strvec_sort(&names, 0);
	for (size_t i = 0; i < names.nr; i++) {
		pmbench_buf_reset(&path);
		pmbench_buf_path(&path, fixtures_dir, names.v[i]);
		pmbench_strvec_push(out, path.ptr);
	}

done:
	if (d)
		closedir(d);
	pmbench_strvec_release(&names);
	pmbench_buf_release(&path);
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
	if (!f)
		return;
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
	free(f->test_script);
	free(f->dev_script);
	free(f->dev_args);
	free(f->hmr_file);
	free(f->hmr_path);
	free(f->ready_pattern);
	free(f->ready_path);
	free(f->resolved_commit);
	free(f->source_dir);
	free(f->project_dir);
	memset(f, 0, sizeof(*f));
}

/*
 * Checkout.
 */

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

	if (f->is_remote || !strncmp(f->repo, "file://", 7)) {
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
