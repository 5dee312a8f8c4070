/*
 * Migration recipes: the steps of a PM's recipe (its table entry's
 * `recipe`) run on a copy of a project, each step's files diffed before
 * they are written. The callbacks at the end are the steps' kinds; the
 * PM table says which a PM needs, in which order, with which file.
 */
#include "pmbench/common.h"

#include "pmbench/diff.h"
#include "pmbench/fs.h"
#include "pmbench/jsonedit.h"
#include "pmbench/pm.h"
#include "pmbench/recipe.h"

#define FILE_MAX (4u << 20)

/* ---- Files: the running step's edits stay in memory until it ends ---- */

/*
 * The text of `file` (relative to the project) as the running step left
 * it, else on disk; `*exists` says whether there is one. Returns 0 or an
 * error naming the file.
 */
static int read_file(struct pmbench_recipe *r, const char *file,
		     struct pmbench_buf *out, int *exists)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	long i = pmbench_strvec_find(&r->files, file);
	int ret = 0;

	pmbench_buf_reset(out);
	*exists = 1;
	if (i >= 0) {
		pmbench_buf_adds(out, r->texts.v[i]);
		return 0;
	}
	pmbench_buf_path(&p, r->project, file);
	if (pmbench_fs_isfile(p.ptr))
		ret = pmbench_fs_read_text(out, p.ptr, FILE_MAX);
	else
		*exists = 0;
	pmbench_buf_release(&p);
	return ret;
}

/* Keep `text` as the new content of `file` until the step ends. */
static void write_file(struct pmbench_recipe *r, const char *file,
		       const char *text)
{
	long i = pmbench_strvec_find(&r->files, file);

	if (i >= 0) {
		free(r->texts.v[i]);
		r->texts.v[i] = pmbench_xstrdup(text);
		return;
	}
	pmbench_strvec_push(&r->files, file);
	pmbench_strvec_push(&r->texts, text);
}

/* "<dir>/package.json", or "package.json" for the root (dir ""). */
static void package_json(struct pmbench_buf *out, const char *dir)
{
	pmbench_buf_reset(out);
	if (*dir)
		pmbench_buf_addf(out, "%s/", dir);
	pmbench_buf_adds(out, "package.json");
}

/* Set `path` in the JSON file `file` to the JSON text `value`. */
static int json_set(struct pmbench_recipe *r, const char *file,
		    const char *const *path, const char *value,
		    const char *after)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	int exists, ret = read_file(r, file, &text, &exists);

	if (!ret && !exists)
		ret = pmbench_error_setc(PMBENCH_ENOTFOUND, "no '%s' in '%s'",
					 file, r->project);
	if (!ret)
		ret = pmbench_json_set(&text, path, value, after);
	if (ret < 0)
		pmbench_error_set("cannot edit '%s': %s", file,
				  pmbench_error_last());
	else
		write_file(r, file, text.ptr);
	pmbench_buf_release(&text);
	return ret;
}

/* ---- Running a recipe ------------------------------------------------- */

static void add_change(struct pmbench_recipe *r,
		       const struct pmbench_pm_change *st, int applied,
		       struct pmbench_buf *diff, size_t lines)
{
	struct pmbench_recipe_change *c;
	struct pmbench_buf what = PMBENCH_BUF_INIT;

	pmbench_buf_adds(&what, st->what);
	if (r->detail.len)
		pmbench_buf_addf(&what, " (%s)", r->detail.ptr);
	PMBENCH_ALLOC_GROW(r->changes, r->changes_nr + 1, r->changes_alloc);
	c = &r->changes[r->changes_nr++];
	memset(c, 0, sizeof(*c));
	c->id = pmbench_xstrdup(st->id);
	c->what = pmbench_buf_detach(&what);
	c->choice = st->choice ? pmbench_xstrdup(st->choice) : NULL;
	c->applied = applied;
	c->diff = pmbench_buf_detach(diff);
	c->lines = lines;
}

/* Diff the step's files against the disk, then write them (if applied). */
static int finish_step(struct pmbench_recipe *r,
		       const struct pmbench_pm_change *st, int apply)
{
	struct pmbench_buf diff = PMBENCH_BUF_INIT, before = PMBENCH_BUF_INIT;
	struct pmbench_buf p = PMBENCH_BUF_INIT, name = PMBENCH_BUF_INIT;
	size_t lines = 0;
	int ret = 0;

	for (size_t i = 0; i < r->files.nr && !ret; i++) {
		pmbench_buf_reset(&p);
		pmbench_buf_path(&p, r->project, r->files.v[i]);
		pmbench_buf_reset(&before);
		if (pmbench_fs_isfile(p.ptr))
			ret = pmbench_fs_read_text(&before, p.ptr, FILE_MAX);
		if (ret < 0)
			break;
		pmbench_buf_reset(&name);
		pmbench_buf_addf(&name, "%s%s", r->prefix ? r->prefix : "",
				 r->files.v[i]);
		lines += pmbench_diff_unified(
			&diff, name.ptr,
			pmbench_fs_isfile(p.ptr) ? before.ptr : NULL,
			r->texts.v[i]);
		if (apply)
			ret = pmbench_fs_write_atomic(p.ptr, r->texts.v[i],
						      strlen(r->texts.v[i]));
	}
	if (!ret && lines)
		add_change(r, st, apply, &diff, lines);
	pmbench_buf_release(&diff);
	pmbench_buf_release(&before);
	pmbench_buf_release(&p);
	pmbench_buf_release(&name);
	return ret;
}

/* Whether a workspace package asks for another without a protocol. */
static int plain_refs(const struct pmbench_monorepo *m)
{
	for (size_t i = 0; i < m->refs_nr; i++)
		if (!strchr(m->refs[i].range, ':'))
			return 1;
	return 0;
}

static int run_step(struct pmbench_recipe *r,
		    const struct pmbench_pm_change *st, int apply)
{
	int ret;

	pmbench_strvec_release(&r->files);
	pmbench_strvec_release(&r->texts);
	pmbench_buf_reset(&r->detail);
	r->dry = !apply;
	ret = pmbench_monorepo_read(&r->mono, r->project);
	if (!ret && (st->when & PMBENCH_CHANGE_IF_PLAIN_REFS) &&
	    !plain_refs(&r->mono))
		return 0;
	if (!ret)
		ret = st->apply(r, st);
	if (!ret)
		ret = finish_step(r, st, apply);
	pmbench_strvec_release(&r->files);
	pmbench_strvec_release(&r->texts);
	return ret;
}

static int named(const char *const *list, const char *id)
{
	for (; list && *list; list++)
		if (!strcmp(*list, id))
			return 1;
	return 0;
}

/*
 * The steps of the choice `choice`, from `steps`: the alternatives run
 * first without writing, then the chosen one (named in `choose`, else
 * the first), whose change is listed first.
 */
static int run_choice(struct pmbench_recipe *r,
		      const struct pmbench_pm_change *steps, const char *choice,
		      const char *const *choose)
{
	const struct pmbench_pm_change *chosen = NULL;
	size_t mark = r->changes_nr;
	int ret = 0;

	for (const struct pmbench_pm_change *s = steps; s->id; s++) {
		if (!s->choice || strcmp(s->choice, choice))
			continue;
		if (!chosen)
			chosen = s;
		if (named(choose, s->id)) {
			chosen = s;
			break;
		}
	}
	for (const struct pmbench_pm_change *s = steps; s->id && !ret; s++)
		if (s != chosen && s->choice && !strcmp(s->choice, choice))
			ret = run_step(r, s, 0);
	if (!ret)
		ret = run_step(r, chosen, 1);
	if (!ret && r->changes_nr > mark &&
	    r->changes[r->changes_nr - 1].applied) {
		struct pmbench_recipe_change c = r->changes[r->changes_nr - 1];

		memmove(&r->changes[mark + 1], &r->changes[mark],
			(r->changes_nr - 1 - mark) * sizeof(c));
		r->changes[mark] = c;
	}
	return ret;
}

const struct pmbench_pm_change *
pmbench_recipe_steps(const struct pmbench_pm *pm)
{
	return pmbench_pm_base(pm)->recipe;
}

int pmbench_recipe_run(struct pmbench_recipe *r, const char *project,
		       const struct pmbench_pm *pm, const char *pm_version,
		       const char *const *choose)
{
	const struct pmbench_pm_change *steps = pmbench_recipe_steps(pm);
	int ret = 0;

	r->project = project;
	r->pm = pm;
	r->pm_version = pm_version;
	for (const struct pmbench_pm_change *s = steps; s && s->id && !ret;
	     s++) {
		int seen = 0;

		/* A choice runs once, at its first step. */
		for (const struct pmbench_pm_change *t = steps; t < s; t++)
			seen |= s->choice && t->choice &&
				!strcmp(s->choice, t->choice);
		if (seen)
			continue;
		ret = s->choice ? run_choice(r, steps, s->choice, choose)
				: run_step(r, s, 1);
	}
	return ret;
}

int pmbench_recipe_is_choice(const char *id)
{
	for (size_t i = 0; pmbench_pm_nth(i); i++)
		for (const struct pmbench_pm_change *s =
			     pmbench_pm_nth(i)->recipe;
		     s && s->id; s++)
			if (s->choice && !strcmp(s->id, id))
				return 1;
	return 0;
}

void pmbench_recipe_release(struct pmbench_recipe *r)
{
	for (size_t i = 0; i < r->changes_nr; i++) {
		free(r->changes[i].id);
		free(r->changes[i].what);
		free(r->changes[i].choice);
		free(r->changes[i].diff);
	}
	free(r->changes);
	r->changes = NULL;
	r->changes_nr = r->changes_alloc = 0;
	pmbench_monorepo_release(&r->mono);
	pmbench_strvec_release(&r->files);
	pmbench_strvec_release(&r->texts);
	pmbench_buf_release(&r->detail);
}

/* ---- The steps --------------------------------------------------------- */

static const char *const private_path[] = { "private", NULL };
static const char *const pm_path[] = { "packageManager", NULL };
static const char *const workspaces_path[] = { "workspaces", NULL };

int pmbench_recipe_private_root(struct pmbench_recipe *r,
				const struct pmbench_pm_change *step)
{
	static const char *const version[] = { "version", NULL };
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	size_t a, b;
	int exists, ret;

	(void)step;
	if (!r->mono.listed_in || strcmp(r->mono.listed_in, "package.json") ||
	    r->mono.root_private)
		return 0;
	ret = read_file(r, "package.json", &text, &exists);
	if (!ret)
		ret = json_set(r, "package.json", private_path, "true",
			       pmbench_json_find(text.ptr, version, &a, &b) > 0
				       ? "version"
				       : "name");
	pmbench_buf_release(&text);
	return ret;
}

int pmbench_recipe_package_manager(struct pmbench_recipe *r,
				   const struct pmbench_pm_change *step)
{
	const struct pmbench_pm *base = pmbench_pm_base(r->pm);
	struct pmbench_buf want = PMBENCH_BUF_INIT, text = PMBENCH_BUF_INIT;
	struct pmbench_buf value = PMBENCH_BUF_INIT;
	size_t a, b;
	int exists, ret = 0;

	(void)step;
	if (!base->package_manager || !r->pm_version)
		return 0;
	pmbench_buf_addf(&want, "%s@%s", base->package_manager, r->pm_version);
	pmbench_json_quote(&value, want.ptr);
	ret = read_file(r, "package.json", &text, &exists);
	if (!ret && exists &&
	    pmbench_json_find(text.ptr, pm_path, &a, &b) > 0 &&
	    b - a == value.len && !memcmp(text.ptr + a, value.ptr, value.len))
		goto done;
	if (!ret)
		ret = json_set(r, "package.json", pm_path, value.ptr, NULL);
done:
	pmbench_error_clear();
	pmbench_buf_release(&want);
	pmbench_buf_release(&text);
	pmbench_buf_release(&value);
	return ret;
}

/* Whether the YAML `text` has a top-level line starting "key:". */
static const char *yaml_key_line(const char *text, const char *key,
				 size_t keylen)
{
	for (const char *l = text; l && *l;) {
		if (!strncmp(l, key, keylen) && l[keylen] == ':')
			return l;
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return NULL;
}

int pmbench_recipe_workspace_yaml(struct pmbench_recipe *r,
				  const struct pmbench_pm_change *step)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT, out = PMBENCH_BUF_INIT;
	int exists, ret;

	if (!r->mono.listed_in || strcmp(r->mono.listed_in, "package.json"))
		return 0;
	ret = read_file(r, step->file, &text, &exists);
	if (ret < 0 || yaml_key_line(text.ptr, "packages", 8))
		goto done;
	pmbench_buf_adds(&out, "packages:\n");
	for (size_t i = 0; i < r->mono.patterns.nr; i++) {
		pmbench_buf_adds(&out, "  - '");
		for (const char *p = r->mono.patterns.v[i]; *p; p++) {
			/* YAML doubles a quote inside single quotes. */
			if (*p == '\'')
				pmbench_buf_addch(&out, '\'');
			pmbench_buf_addch(&out, *p);
		}
		pmbench_buf_adds(&out, "'\n");
	}
	pmbench_buf_add(&out, text.ptr, text.len);
	write_file(r, step->file, out.ptr);
	pmbench_buf_addf(&r->detail, "from package.json's \"workspaces\"");
done:
	pmbench_buf_release(&text);
	pmbench_buf_release(&out);
	return ret;
}

int pmbench_recipe_workspaces_field(struct pmbench_recipe *r,
				    const struct pmbench_pm_change *step)
{
	struct pmbench_buf value = PMBENCH_BUF_INIT;
	int ret = 0;

	(void)step;
	if (!r->mono.listed_in ||
	    strcmp(r->mono.listed_in, "pnpm-workspace.yaml") ||
	    !r->mono.patterns.nr)
		return 0;
	pmbench_buf_addch(&value, '[');
	for (size_t i = 0; i < r->mono.patterns.nr; i++) {
		if (i)
			pmbench_buf_adds(&value, ", ");
		pmbench_json_quote(&value, r->mono.patterns.v[i]);
	}
	pmbench_buf_addch(&value, ']');
	ret = json_set(r, "package.json", workspaces_path, value.ptr, NULL);
	if (!ret)
		pmbench_buf_adds(&r->detail, "from pnpm-workspace.yaml");
	pmbench_buf_release(&value);
	return ret;
}

/* The value of `var` in the PM's environment (a variant's last), or NULL. */
static const char *pm_env_value(const struct pmbench_pm *pm, const char *var)
{
	const char *const *lists[2] = { pm->env,
					pm->variant ? pm->variant->env : NULL };
	const char *found = NULL;
	size_t n = strlen(var);

	for (int k = 0; k < 2; k++)
		for (const char *const *e = lists[k]; e && *e; e++)
			if (!strncmp(*e, var, n) && (*e)[n] == '=')
				found = *e + n + 1;
	return found;
}

int pmbench_recipe_yaml_setting(struct pmbench_recipe *r,
				const struct pmbench_pm_change *step)
{
	struct pmbench_buf text = PMBENCH_BUF_INIT, line = PMBENCH_BUF_INIT;
	struct pmbench_buf out = PMBENCH_BUF_INIT;
	size_t keylen = strcspn(step->arg, ":");
	const char *value = step->arg[keylen] ? step->arg + keylen + 1 : "";
	const char *at;
	int exists, ret;

	while (*value == ' ')
		value++;
	if (*value == '$') {
		value = pm_env_value(r->pm, value + 1);
		if (!value)
			return 0;
	}
	pmbench_buf_addf(&line, "%.*s: %s", (int)keylen, step->arg, value);
	ret = read_file(r, step->file, &text, &exists);
	if (ret < 0)
		goto done;
	at = yaml_key_line(text.ptr, step->arg, keylen);
	if (at && !strncmp(at, line.ptr, line.len) &&
	    (at[line.len] == '\n' || !at[line.len]))
		goto done;
	if (at) {
		pmbench_buf_add(&out, text.ptr, (size_t)(at - text.ptr));
		pmbench_buf_add(&out, line.ptr, line.len);
		pmbench_buf_adds(&out, at + strcspn(at, "\n"));
	} else {
		pmbench_buf_add(&out, text.ptr, text.len);
		if (out.len && out.ptr[out.len - 1] != '\n')
			pmbench_buf_addch(&out, '\n');
		pmbench_buf_addf(&out, "%s\n", line.ptr);
	}
	write_file(r, step->file, out.ptr);
done:
	pmbench_buf_release(&text);
	pmbench_buf_release(&line);
	pmbench_buf_release(&out);
	return ret;
}

/* The workspace: range with the same meaning as `range`, into `out`. */
static void protocol_of(struct pmbench_buf *out, const char *range,
			const struct pmbench_monorepo_pkg *p)
{
	pmbench_buf_adds(out, "workspace:");
	if (*range == '^' || *range == '~')
		pmbench_buf_addch(out, *range);
	else if (!*range || !strcmp(range, "*") || !strcmp(range, "latest") ||
		 (p->version && !strcmp(range, p->version)))
		pmbench_buf_addch(out, '*');
	else
		pmbench_buf_adds(out, range);
}

/* Rewrite reference `ref` to `range` in its package.json. */
static int set_ref(struct pmbench_recipe *r,
		   const struct pmbench_monorepo_ref *ref, const char *range)
{
	struct pmbench_buf file = PMBENCH_BUF_INIT, value = PMBENCH_BUF_INIT;
	const char *path[] = { ref->field, ref->name, NULL };
	int ret;

	package_json(&file, ref->dir);
	pmbench_json_quote(&value, range);
	ret = json_set(r, file.ptr, path, value.ptr, NULL);
	if (!ret)
		pmbench_buf_addf(&r->detail, "%s%s: %s %s -> %s",
				 r->detail.len ? "; " : "",
				 *ref->dir ? ref->dir : "the root", ref->name,
				 ref->range, range);
	pmbench_buf_release(&file);
	pmbench_buf_release(&value);
	return ret;
}

int pmbench_recipe_workspace_protocol(struct pmbench_recipe *r,
				      const struct pmbench_pm_change *step)
{
	struct pmbench_buf want = PMBENCH_BUF_INIT;
	int ret = 0;

	(void)step;
	for (size_t i = 0; i < r->mono.refs_nr && !ret; i++) {
		const struct pmbench_monorepo_ref *ref = &r->mono.refs[i];
		const struct pmbench_monorepo_pkg *p = &r->mono.pkgs[ref->pkg];

		/* A protocol of its own (workspace:, file:, npm:) stays. */
		if (strchr(ref->range, ':') ||
		    !pmbench_monorepo_range_matches(p, ref->range))
			continue;
		pmbench_buf_reset(&want);
		protocol_of(&want, ref->range, p);
		ret = set_ref(r, ref, want.ptr);
	}
	pmbench_buf_release(&want);
	return ret;
}

int pmbench_recipe_plain_versions(struct pmbench_recipe *r,
				  const struct pmbench_pm_change *step)
{
	struct pmbench_buf want = PMBENCH_BUF_INIT;
	int ret = 0;

	(void)step;
	for (size_t i = 0; i < r->mono.refs_nr && !ret; i++) {
		const struct pmbench_monorepo_ref *ref = &r->mono.refs[i];
		const char *version = r->mono.pkgs[ref->pkg].version;
		const char *rest = ref->range + 10;

		if (strncmp(ref->range, "workspace:", 10))
			continue;
		pmbench_buf_reset(&want);
		if ((!*rest || !strcmp(rest, "*")) && version)
			pmbench_buf_adds(&want, version);
		else if ((!strcmp(rest, "^") || !strcmp(rest, "~")) && version)
			pmbench_buf_addf(&want, "%s%s", rest, version);
		else
			pmbench_buf_adds(&want,
					 *rest && strcmp(rest, "^") &&
							 strcmp(rest, "~")
						 ? rest
						 : "*");
		ret = set_ref(r, ref, want.ptr);
	}
	pmbench_buf_release(&want);
	return ret;
}
