/*
 * The readers of PM configuration files (src/util/conf.c: .npmrc,
 * .yarnrc, .yarnrc.yml and pnpm-workspace.yaml, bunfig.toml) and of the
 * Node versions repos ask for (src/util/semver.c: .nvmrc, engines.node):
 * the input is read in every format and as a range. Properties: every
 * setting has a key and a value of at most 200 bytes on a line of the
 * input, is found again by its key, and a range's newest match
 * satisfies it.
 */
#include "pmbench/common.h"

#include "fuzz.h"
#include "pmbench/conf.h"
#include "pmbench/semver.h"

static void check_conf(enum pmbench_conf_format fmt, const uint8_t *data,
		       size_t size)
{
	struct pmbench_conf c = PMBENCH_CONF_INIT;
	unsigned lines = 1;

	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	pmbench_conf_parse(&c, fmt, (const char *)data, size);
	for (size_t i = 0; i < c.nr; i++) {
		if (!c.v[i].key || !c.v[i].value)
			FUZZ_FAIL("setting %zu without a key or value", i);
		if (strlen(c.v[i].key) > 200 || strlen(c.v[i].value) > 200)
			FUZZ_FAIL("setting %zu longer than 200 bytes", i);
		if (!c.v[i].line || c.v[i].line > lines)
			FUZZ_FAIL("setting %zu on line %u of %u", i,
				  c.v[i].line, lines);
		if (!pmbench_conf_get(&c, c.v[i].key))
			FUZZ_FAIL("setting '%s' not found again", c.v[i].key);
	}
	pmbench_conf_release(&c);
}

static void check_range(const char *range)
{
	static const char *const versions[] = { "0.0.1",       "0.2.3",
						"18.20.8",     "20.19.5",
						"21.0.0-rc.1", "24.22.3" };
	struct pmbench_semver v;
	long best = pmbench_semver_max_satisfying(
		versions, PMBENCH_ARRAY_SIZE(versions), range);

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(versions); i++) {
		int r;

		if (pmbench_semver_parse(&v, versions[i]) < 0)
			FUZZ_FAIL("'%s' is no version", versions[i]);
		r = pmbench_semver_satisfies(range, &v);
		if (r < -1 || r > 1)
			FUZZ_FAIL("satisfies gave %d", r);
		if ((long)i == best && r != 1)
			FUZZ_FAIL("the newest match does not satisfy");
	}
	pmbench_semver_parse(&v, range);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_cstr(data, size);

	for (int f = PMBENCH_CONF_INI; f <= PMBENCH_CONF_TOML; f++)
		check_conf((enum pmbench_conf_format)f, data, size);
	check_range(s);
	free(s);
	return 0;
}
