/*
 * The PM configuration that changes the work: each PM's configuration
 * files (the table's `conf`, pm.c), read in the project and the user's
 * ~/.npmrc as passed on, and the settings of the keys the table lists,
 * stated with where they are set; the warnings of those that change
 * what is measured (an npmrc's omit-lockfile-registry-resolved).
 */
#include "pmbench/common.h"

#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "pmbench/conf.h"
#include "pmbench/fs.h"
#include "pmbench/pm.h"
#include "pmbench/text.h"

#define CONF_MAX_BYTES ((size_t)1 << 20)

/* A JSON file's top-level settings (or those of `member`), as text. */
static void parse_json(struct pmbench_conf *c, const char *text,
		       const char *member)
{
	cJSON *root = cJSON_Parse(text), *o = root, *e;

	if (o && member)
		o = cJSON_GetObjectItemCaseSensitive(o, member);
	if (!cJSON_IsObject(o))
		o = NULL;
	cJSON_ArrayForEach(e, o)
	{
		char *v = cJSON_IsString(e) ? NULL : cJSON_PrintUnformatted(e);

		pmbench_conf_add(c, e->string,
				 cJSON_IsString(e) ? e->valuestring : v, 0);
		cJSON_free(v);
	}
	cJSON_Delete(root);
}

/*
 * The settings of one file into `c`: 1, or 0 if it is not there, or -1
 * when it is but cannot be read, `why` (replaced) saying why.
 */
static int read_file(struct pmbench_conf *c, struct pmbench_buf *why,
		     const struct pmbench_pm_conf_file *f, const char *path)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	struct stat st;
	int ok = 1;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	pmbench_buf_reset(why);
	if ((uintmax_t)st.st_size > CONF_MAX_BYTES)
		pmbench_buf_addf(why, "larger than 1 MiB (%jd bytes)",
				 (intmax_t)st.st_size);
	else if ((f->format == PMBENCH_CONF_INI ? pmbench_fs_read
						: pmbench_fs_read_text)(
			 &text, path, CONF_MAX_BYTES) < 0)
		/*
		 * "cannot read '<path>': <reason>": the reason. A NUL byte
		 * makes YAML, TOML, JSON and yarn 1's files malformed to their
		 * PMs (npm's ini takes it as part of a value).
		 */
		pmbench_buf_adds(
			why, strstr(pmbench_error_last(), "': ")
				     ? strstr(pmbench_error_last(), "': ") + 3
				     : pmbench_error_last());
	pmbench_error_clear();
	if (why->len)
		ok = -1;
	else if (f->format < 0)
		parse_json(c, text.ptr, f->member);
	else
		pmbench_conf_parse(c, (enum pmbench_conf_format)f->format,
				   text.ptr, text.len);
	pmbench_buf_release(&text);
	return ok;
}

/*
 * The file `where` that could not be read (`why`), in `out` and as a
 * warning: what it sets is unknown, though the PM reads it.
 */
static void state_unread(struct pmbench_buf *out, struct pmbench_buf *warnings,
			 const char *where, const char *why)
{
	pmbench_buf_addf(out, "%s%s not read: %s", out->len ? "; " : "", where,
			 why);
	if (warnings)
		pmbench_buf_addf(warnings,
				 "%s not read: %s; what it sets is not "
				 "stated, and the PM reads it\n",
				 where, why);
}

/* The warning `key`=`value` earns, or NULL. */
static const char *warning_of(const struct pmbench_pm_conf *conf,
			      const char *key, const char *value)
{
	for (const struct pmbench_pm_conf_warn *w = conf->warns; w && w->key;
	     w++)
		if (pmbench_conf_key_eq(w->key, key) &&
		    !strcasecmp(w->value, value))
			return w->warning;
	return NULL;
}

/* The table's keys `c` sets, into `out` and `warnings`, named `where`. */
static void state_keys(struct pmbench_buf *out, struct pmbench_buf *warnings,
		       const struct pmbench_pm_conf *conf,
		       const struct pmbench_conf *c, const char *where)
{
	struct pmbench_buf v = PMBENCH_BUF_INIT;

	for (const char *const *k = conf->keys; k && *k; k++) {
		const char *value = pmbench_conf_get(c, *k);
		const char *warn;

		if (!value)
			continue;
		pmbench_buf_reset(&v);
		pmbench_text_clean(&v, value, 0);
		pmbench_buf_addf(out, "%s%s=%s (%s)", out->len ? "; " : "", *k,
				 v.ptr, where);
		warn = warning_of(conf, *k, value);
		if (warn && warnings)
			pmbench_buf_addf(warnings, "%s=%s (%s): %s\n", *k,
					 v.ptr, where, warn);
	}
	pmbench_buf_release(&v);
}

void pmbench_pm_conf_scan(struct pmbench_buf *out, struct pmbench_buf *warnings,
			  const struct pmbench_pm *pm, const char *project,
			  const char *user_npmrc)
{
	const struct pmbench_pm_conf *conf = pm->conf;
	struct pmbench_buf path = PMBENCH_BUF_INIT, why = PMBENCH_BUF_INIT;

	for (const struct pmbench_pm_conf_file *f = conf ? conf->files : NULL;
	     f && f->path; f++) {
		struct pmbench_conf c = PMBENCH_CONF_INIT;
		int user = !strncmp(f->path, "~/", 2);

		pmbench_buf_reset(&path);
		if (user && !user_npmrc)
			continue;
		if (user)
			pmbench_buf_adds(&path, user_npmrc);
		else
			pmbench_buf_path(&path, project, f->path);
		switch (read_file(&c, &why, f, path.ptr)) {
		case 1:
			state_keys(out, warnings, conf, &c, f->path);
			break;
		case -1:
			state_unread(out, warnings, f->path, why.ptr);
			break;
		}
		pmbench_conf_release(&c);
	}
	pmbench_buf_release(&path);
	pmbench_buf_release(&why);
}
