/*
 * Fixture manifests (the files in fixtures/, or any manifest a user names):
 * pmbench_fixture_parse(), then the promises the rest of pmbench relies
 * on when a manifest is accepted (a folder-safe name, a full lower-case
 * SHA, paths that stay inside the repository), the per-PM lookup, and
 * release. A refused manifest must leave `out` zeroed, with a message.
 */
#include "pmbench/common.h"

#include "fuzz.h"
#include "pmbench/fixture.h"
#include "pmbench/task.h"

static const char *const pm_names[] = { "npm",	"yarn", "yarn-berry",
					"pnpm", "bun",	"deno" };

/* A relative path kept inside the repository: no "..", not absolute. */
static int inside(const char *path)
{
	const char *p = path;

	if (!*path || *path == '/')
		return 0;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (!n || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		p += n;
		if (*p == '/')
			p++;
		if (!*p && p[-1] == '/')
			return 0;
	}
	return 1;
}

/*
 * Every field of the tasks' sections as its kind promises (a path
 * normalised inside the project, a URL path with '/'), and its fallback
 * there when the manifest left it out.
 */
static void check_field(const struct pmbench_fixture *f,
			const struct pmbench_manifest_section *sec,
			const struct pmbench_manifest_field *field)
{
	const char *v = pmbench_fixture_get(f, sec->key, field->name);

	if (field->fallback && !v)
		FUZZ_FAIL("%s.%s has no value, not even its default", sec->key,
			  field->name);
	if (v &&
	    (field->kind == PMBENCH_MANIFEST_FOLDER ||
	     field->kind == PMBENCH_MANIFEST_FILE) &&
	    !inside(v))
		FUZZ_FAIL("%s.%s '%s' is not normalised inside the project",
			  sec->key, field->name, v);
	if (v && field->kind == PMBENCH_MANIFEST_URL_PATH && v[0] != '/')
		FUZZ_FAIL("%s.%s '%s' does not start with '/'", sec->key,
			  field->name, v);
}

static void check_sections(const struct pmbench_fixture *f)
{
	for (size_t i = 0; i < pmbench_tasks_nr; i++)
		for (const struct pmbench_manifest_section *const *sec =
			     pmbench_tasks[i].sections;
		     sec && *sec; sec++)
			for (size_t k = 0; (*sec)->fields[k].name; k++)
				check_field(f, *sec, &(*sec)->fields[k]);
}

static void check_accepted(const struct pmbench_fixture *f)
{
	if (!f->name || !*f->name || f->name[0] == '.' ||
	    strspn(f->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRST"
			    "UVWXYZ0123456789._-") != strlen(f->name))
		FUZZ_FAIL("accepted a bad name '%s'", f->name ? f->name : "");
	if (!f->repo || !*f->repo)
		FUZZ_FAIL("accepted an empty repo");
	if (f->commit) {
		if (strlen(f->commit) != 40 ||
		    strspn(f->commit, "0123456789abcdef") != 40)
			FUZZ_FAIL("accepted a bad commit '%s'", f->commit);
	} else if (f->is_remote) {
		FUZZ_FAIL("accepted remote '%s' without a commit", f->repo);
	}
	if (f->subdir && !inside(f->subdir))
		FUZZ_FAIL("subdir '%s' is not normalised inside the repo",
			  f->subdir);
	check_sections(f);
	for (size_t i = 0; i < f->env.nr; i++)
		if (!strchr(f->env.v[i], '=') || f->env.v[i][0] == '=')
			FUZZ_FAIL("env entry '%s' is not K=V", f->env.v[i]);
	for (size_t i = 0; i < f->pms_nr; i++)
		if (pmbench_fixture_pm(f, f->pms[i].pm) != &f->pms[i])
			FUZZ_FAIL("pm '%s' given twice or not found",
				  f->pms[i].pm);
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(pm_names); i++)
		pmbench_fixture_pm(f, pm_names[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct pmbench_fixture zero = PMBENCH_FIXTURE_INIT;
	struct pmbench_fixture f = PMBENCH_FIXTURE_INIT;
	char *json = fuzz_cstr(data, size);

	pmbench_error_clear();
	if (pmbench_fixture_parse(&f, json, "fuzz.json") < 0) {
		if (memcmp(&f, &zero, sizeof(f)))
			FUZZ_FAIL("a refused manifest left data in 'out'");
		if (!strstr(pmbench_error_last(), "fuzz.json"))
			FUZZ_FAIL("the error does not name the file: %s",
				  pmbench_error_last());
	} else {
		check_accepted(&f);
	}
	pmbench_fixture_release(&f);
	free(json);
	return 0;
}
