#include "pmbench/common.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>

#include <cJSON.h>

#include "pmbench/buf.h"
#include "pmbench/fixture.h"
#include "pmbench/fs.h"
#include "pmbench/gen.h"
#include "pmbench/pm.h"
#include "pmbench/strvec.h"
#include "pmbench/task.h"

/*
 * A fixture's manifest (fixture.h): its schema, parsed and validated,
 * the lookup of a fixture named on the command line, and the list of
 * manifests. Making its source tree is checkout.c.
 */

/* A manifest is a few hundred bytes; anything near this is a mistake. */
#define MANIFEST_MAX (1024 * 1024)
#define NAME_MAX_LEN 100
#define SHA_HEX_LEN  40
/* How much of the text after a JSON syntax error the message quotes. */
#define SNIPPET_LEN 20

/* The required fields; then the sections below, then the tasks' own. */
static const char *const required_keys[] = { "name", "repo", "commit" };
static const char *const pm_keys[] = { "flags", "env", NULL };

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

static void init_vecs(struct pmbench_fixture *f)
{
	pmbench_strvec_init(&f->env);
	pmbench_strvec_init(&f->scripts);
}

/* A section such as "pm.npm": an object holding only the fields `keys`. */
static int want_section(const cJSON *v, const char *origin, const char *name,
			const char *const *keys)
{
	int ret = want_object(v, origin, name);

	if (!ret)
		ret = check_keys(v, keys, origin, name, "known fields");
	return ret;
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
		ret = want_section(it, origin, field.ptr, pm_keys);
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

/*
 * A field naming `what` ("a folder", "a file") inside the project: a
 * relative path, normalised, that is not the project itself.
 */
static int get_inner_path(char **out, const cJSON *v, const char *origin,
			  const char *field, const char *what)
{
	struct pmbench_buf norm = PMBENCH_BUF_INIT;
	int ret = get_string(out, v, origin, field, 0);

	if (!ret)
		ret = normalize_relpath(&norm, *out, origin, field);
	if (!ret && !norm.len)
		ret = pmbench_error_setc(PMBENCH_EINVALID,
					 "%s: field '%s' must name %s inside "
					 "the project, got '%s'",
					 origin, field, what, *out);
	if (!ret) {
		free(*out);
		*out = pmbench_buf_detach(&norm);
	}
	pmbench_buf_release(&norm);
	return ret;
}

/* A field holding the path part of a URL: it starts with '/'. */
static int get_url_path(char **out, const cJSON *v, const char *origin,
			const char *field)
{
	int ret = get_string(out, v, origin, field, 0);

	if (ret < 0)
		return ret;
	if ((*out)[0] != '/')
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "%s: field '%s' must start with "
					  "'/', got '%s'",
					  origin, field, *out);
	return 0;
}

/* "name": required, the fixture's folder name. */
static int parse_name(struct pmbench_fixture *f, const cJSON *root,
		      const char *origin)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(root, "name");

	if (!x)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "%s: missing required field 'name' "
					  "(the fixture's name, used as a "
					  "folder name)",
					  origin);
	if (get_string(&f->name, x, origin, "name", 1) < 0)
		return PMBENCH_EINVALID;
	if (!valid_name(f->name))
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "%s: field 'name' must be 1 to %d "
					  "letters, digits, '.', '_' or '-' "
					  "and not start with '.', got '%s'",
					  origin, NAME_MAX_LEN, f->name);
	return 0;
}

/* "repo": required, a git URL or a local path; sets is_remote. */
static int parse_repo(struct pmbench_fixture *f, const cJSON *root,
		      const char *origin)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(root, "repo");

	if (!x)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "%s: missing required field 'repo' "
					  "(the git URL or local path of the "
					  "project)",
					  origin);
	if (get_string(&f->repo, x, origin, "repo", 0) < 0)
		return PMBENCH_EINVALID;
	if (!strncmp(f->repo, "file://", 7) && f->repo[7] != '/')
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "%s: field 'repo' must be a "
					  "file:///absolute/path URL, got "
					  "'%s'",
					  origin, f->repo);
	f->is_remote = repo_is_remote(f->repo);
	return 0;
}

/*
 * "commit": a full SHA, kept in lower case; required when `repo` is
 * remote (call after parse_repo()).
 */
static int parse_commit(struct pmbench_fixture *f, const cJSON *root,
			const char *origin)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(root, "commit");

	if (!x) {
		if (!f->is_remote)
			return 0;
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "%s: missing required field 'commit' "
					  "(a remote repository must be pinned "
					  "to a full %d-character SHA)",
					  origin, SHA_HEX_LEN);
	}
	if (get_string(&f->commit, x, origin, "commit", 1) < 0)
		return PMBENCH_EINVALID;
	if (!valid_sha(f->commit))
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "%s: 'commit' must be a full "
					  "%d-character SHA, got '%s'",
					  origin, SHA_HEX_LEN, f->commit);
	for (char *p = f->commit; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return 0;
}

/* "subdir": the project's folder in the repository, normalised. */
static int parse_subdir(struct pmbench_fixture *f, const cJSON *v,
			const char *origin)
{
	struct pmbench_buf norm = PMBENCH_BUF_INIT;
	int ret = get_string(&f->subdir, v, origin, "subdir", 0);

	if (!ret)
		ret = normalize_relpath(&norm, f->subdir, origin, "subdir");
	if (!ret) {
		free(f->subdir);
		f->subdir = norm.len ? pmbench_buf_detach(&norm) : NULL;
	}
	pmbench_buf_release(&norm);
	return ret;
}

static int parse_description(struct pmbench_fixture *f, const cJSON *v,
			     const char *origin)
{
	return get_string(&f->description, v, origin, "description", 1);
}

static int parse_env(struct pmbench_fixture *f, const cJSON *v,
		     const char *origin)
{
	return get_env(&f->env, v, origin, "env");
}

static int parse_scripts(struct pmbench_fixture *f, const cJSON *v,
			 const char *origin)
{
	return get_string_array(&f->scripts, v, origin, "scripts");
}

/*
 * The optional fields after "name", "repo" and "commit", each read by
 * its parser when the manifest has it, in this order (the first error
 * found is the one reported).
 */
static const struct manifest_section {
	const char *key;
	int (*parse)(struct pmbench_fixture *f, const cJSON *v,
		     const char *origin);
} sections[] = {
	{ .key = "subdir", .parse = parse_subdir },
	{ .key = "description", .parse = parse_description },
	{ .key = "env", .parse = parse_env },
	{ .key = "pm", .parse = parse_pm },
	{ .key = "scripts", .parse = parse_scripts },
};

/*
 * A field of a task's section, checked by its kind; `field` names it
 * ("build.output").
 */
static int get_field(char **out, const cJSON *v, const char *origin,
		     const char *field, enum pmbench_manifest_kind kind)
{
	switch (kind) {
	case PMBENCH_MANIFEST_STRING:
		return get_string(out, v, origin, field, 0);
	case PMBENCH_MANIFEST_TEXT:
		return get_string(out, v, origin, field, 1);
	case PMBENCH_MANIFEST_FOLDER:
		return get_inner_path(out, v, origin, field, "a folder");
	case PMBENCH_MANIFEST_FILE:
		return get_inner_path(out, v, origin, field, "a file");
	case PMBENCH_MANIFEST_URL_PATH:
		return get_url_path(out, v, origin, field);
	}
	return pmbench_error_setc(PMBENCH_EINVALID, "%s: field '%s' of no kind",
				  origin, field);
}

/* A task's own section `v`, as its `spec` declares it. */
static int parse_task_section(struct pmbench_fixture *f,
			      const struct pmbench_manifest_section *spec,
			      const cJSON *v, const char *origin)
{
	struct pmbench_strvec keys = PMBENCH_STRVEC_INIT;
	struct pmbench_buf field = PMBENCH_BUF_INIT;
	struct pmbench_fixture_section *sec;
	int ret;

	for (size_t i = 0; spec->fields[i].name; i++)
		pmbench_strvec_push(&keys, spec->fields[i].name);
	ret = want_section(v, origin, spec->key, (const char *const *)keys.v);
	if (ret < 0)
		goto done;
	PMBENCH_ALLOC_GROW(f->sections, f->sections_nr + 1, f->sections_alloc);
	sec = &f->sections[f->sections_nr++];
	sec->spec = spec;
	sec->values = pmbench_xcalloc(keys.nr + 1, sizeof(*sec->values));
	for (size_t i = 0; i < keys.nr && !ret; i++) {
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(
			v, spec->fields[i].name);

		pmbench_buf_reset(&field);
		pmbench_buf_addf(&field, "%s.%s", spec->key, keys.v[i]);
		if (x)
			ret = get_field(&sec->values[i], x, origin, field.ptr,
					spec->fields[i].kind);
	}
done:
	pmbench_strvec_release(&keys);
	pmbench_buf_release(&field);
	return ret;
}

/* The manifest's section `key`, or NULL. */
static const struct pmbench_fixture_section *
section_of(const struct pmbench_fixture *f, const char *key)
{
	for (size_t i = 0; i < f->sections_nr; i++)
		if (!strcmp(f->sections[i].spec->key, key))
			return &f->sections[i];
	return NULL;
}

/* The declaration of the tasks' section `key`, or NULL. */
static const struct pmbench_manifest_section *declared(const char *key)
{
	for (size_t i = 0; i < pmbench_tasks_nr; i++)
		for (const struct pmbench_manifest_section *const *s =
			     pmbench_tasks[i].sections;
		     s && *s; s++)
			if (!strcmp((*s)->key, key))
				return *s;
	return NULL;
}

/* Every task's sections, each once, in the task table's order. */
static int parse_task_sections(struct pmbench_fixture *f, const cJSON *root,
			       const char *origin)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < pmbench_tasks_nr; i++)
		for (const struct pmbench_manifest_section *const *s =
			     pmbench_tasks[i].sections;
		     !ret && s && *s; s++) {
			const cJSON *x = cJSON_GetObjectItemCaseSensitive(
				root, (*s)->key);

			if (x && !section_of(f, (*s)->key))
				ret = parse_task_section(f, *s, x, origin);
		}
	return ret;
}

/* The fields a manifest may have at its top, in the order help lists them. */
static void top_keys(struct pmbench_strvec *out)
{
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(required_keys); i++)
		pmbench_strvec_push(out, required_keys[i]);
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(sections); i++)
		pmbench_strvec_push(out, sections[i].key);
	for (size_t i = 0; i < pmbench_tasks_nr; i++)
		for (const struct pmbench_manifest_section *const *s =
			     pmbench_tasks[i].sections;
		     s && *s; s++)
			if (pmbench_strvec_find(out, (*s)->key) < 0)
				pmbench_strvec_push(out, (*s)->key);
}

static int parse_root(struct pmbench_fixture *f, const cJSON *root,
		      const char *origin)
{
	struct pmbench_strvec known = PMBENCH_STRVEC_INIT;
	int ret;

	if (!cJSON_IsObject(root))
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "%s: a manifest must be a JSON "
					  "object ({ \"name\": ..., \"repo\": "
					  "... }), got %s",
					  origin, json_type(root));
	top_keys(&known);
	ret = check_keys(root, (const char *const *)known.v, origin, "",
			 "known fields");
	pmbench_strvec_release(&known);
	if (!ret)
		ret = parse_name(f, root, origin);
	if (!ret)
		ret = parse_repo(f, root, origin);
	if (!ret)
		ret = parse_commit(f, root, origin);
	for (size_t i = 0; !ret && i < PMBENCH_ARRAY_SIZE(sections); i++) {
		const cJSON *x =
			cJSON_GetObjectItemCaseSensitive(root, sections[i].key);

		if (x)
			ret = sections[i].parse(f, x, origin);
	}
	if (!ret)
		ret = parse_task_sections(f, root, origin);
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
	*out = f;
	memset(&f, 0, sizeof(f));

done:
	pmbench_fixture_release(&f);
	pmbench_buf_release(&abs);
	return ret;
}

/* A generated workspace: its name and canonical spelling (gen.h). */
static int load_generated(struct pmbench_fixture *out, const char *spec)
{
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	struct pmbench_buf name = PMBENCH_BUF_INIT, repo = PMBENCH_BUF_INIT;
	struct pmbench_gen g;
	int ret = pmbench_gen_parse(&g, spec);

	if (ret < 0)
		return ret;
	init_vecs(&f);
	pmbench_gen_names(&name, &repo, &g);
	f.name = pmbench_buf_detach(&name);
	f.repo = pmbench_buf_detach(&repo);
	pmbench_buf_addf(&name,
			 "A %s of %u packages pmbench writes from seed %llu: "
			 "each asks for %d shared and %d own small "
			 "dependencies and one earlier package",
			 g.kind, g.packages, (unsigned long long)g.seed,
			 PMBENCH_GEN_SHARED_DEPS, PMBENCH_GEN_OWN_DEPS);
	f.description = pmbench_buf_detach(&name);
	f.is_generated = 1;
	*out = f;
	pmbench_buf_release(&repo);
	return 0;
}

int pmbench_fixture_load(struct pmbench_fixture *out, const char *arg,
			 const char *fixtures_dir)
{
	struct pmbench_buf path = PMBENCH_BUF_INIT;
	int ret;

	memset(out, 0, sizeof(*out));
	if (pmbench_gen_is(arg)) {
		ret = load_generated(out, arg);
		goto done;
	}
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

const char *pmbench_fixture_get(const struct pmbench_fixture *f,
				const char *section, const char *field)
{
	const struct pmbench_fixture_section *sec = section_of(f, section);
	const struct pmbench_manifest_section *spec = sec ? sec->spec
							  : declared(section);

	for (size_t i = 0; spec && spec->fields[i].name; i++)
		if (!strcmp(spec->fields[i].name, field))
			return sec && sec->values[i] ? sec->values[i]
						     : spec->fields[i].fallback;
	return NULL;
}

int pmbench_fixture_has(const struct pmbench_fixture *f, const char *section)
{
	return section_of(f, section) != NULL;
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
	for (size_t i = 0; i < f->sections_nr; i++) {
		for (size_t k = 0; f->sections[i].spec->fields[k].name; k++)
			free(f->sections[i].values[k]);
		free(f->sections[i].values);
	}
	free(f->sections);
	free(f->resolved_commit);
	free(f->source_dir);
	free(f->project_dir);
	memset(f, 0, sizeof(*f));
}
