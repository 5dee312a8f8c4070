/*
 * Generated fixtures (gen.h): a workspace of N packages written from a
 * seed. The draws use splitmix64 of their own, so that the tree depends
 * on N and the seed only, never on another module's generator.
 */
#include "pmbench/common.h"

#include <stdlib.h>

#include "pmbench/fs.h"
#include "pmbench/gen.h"

/*
 * Small real packages without dependencies, pinned (each is a leaf in
 * the lockfile of tests/data/react-vite, which npm wrote against the
 * registry): what the local mirror primes once, whatever N.
 */
static const char *const shared_pool[] = {
	"ms@2.1.3",	  "picocolors@1.1.1",
	"semver@7.8.6",	  "fast-deep-equal@3.1.3",
	"dequal@2.0.3",	  "escalade@3.2.0",
	"inherits@2.0.4", "deepmerge@2.2.1",
};

static const char *const own_pool[] = {
	"lodash.merge@4.6.2",
	"lodash.get@4.4.2",
	"lodash.uniq@4.5.0",
	"lodash.once@4.1.1",
	"lodash.camelcase@4.3.0",
	"lodash.isequal@4.5.0",
	"lodash.pick@4.4.0",
	"lodash.flatten@4.4.0",
	"minimist@1.2.8",
	"nanoid@3.3.20",
	"uuid@8.3.2",
	"classnames@2.3.1",
	"dayjs@1.11.23",
	"json5@2.2.3",
	"yallist@3.1.1",
	"wrappy@1.0.2",
	"isexe@2.0.0",
	"path-key@3.1.1",
	"shebang-regex@3.0.0",
	"strip-bom@3.0.0",
	"is-number@7.0.0",
	"queue-microtask@1.2.3",
	"requires-port@1.0.0",
	"tiny-warning@1.0.3",
};

#define SHARED_NR PMBENCH_ARRAY_SIZE(shared_pool)
#define OWN_NR	  PMBENCH_ARRAY_SIZE(own_pool)

_Static_assert(PMBENCH_GEN_SHARED_DEPS <= SHARED_NR, "shared pool too small");
_Static_assert(PMBENCH_GEN_OWN_DEPS <= OWN_NR, "own pool too small");

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A draw in [0, n), n > 0 (the modulo bias is nothing at these sizes). */
static size_t draw(uint64_t *state, size_t n)
{
	return (size_t)(splitmix64(state) % n);
}

int pmbench_gen_is(const char *spec)
{
	return spec && !strncmp(spec, "gen:", 4);
}

static int parse_count(uint64_t *out, const char *s, const char *end)
{
	char *stop;
	unsigned long long v;

	if (s == end || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &stop, 10);
	if (errno || stop != end)
		return -1;
	*out = v;
	return 0;
}

int pmbench_gen_parse(struct pmbench_gen *out, const char *spec)
{
	const char *p = pmbench_gen_is(spec) ? spec + 4 : NULL;
	const char *colon;
	uint64_t n = 0, seed = PMBENCH_GEN_DEFAULT_SEED;

	if (!p || strncmp(p, "workspace:", 10))
		goto bad;
	p += 10;
	colon = strchr(p, ':');
	if (parse_count(&n, p, colon ? colon : p + strlen(p)) < 0 ||
	    (colon &&
	     parse_count(&seed, colon + 1, colon + 1 + strlen(colon + 1)) < 0))
		goto bad;
	if (n < 1 || n > PMBENCH_GEN_MAX_PACKAGES)
		return pmbench_error_setc(PMBENCH_EINVALID,
					  "'%s': a generated workspace has 1 "
					  "to %d packages",
					  spec, PMBENCH_GEN_MAX_PACKAGES);
	out->kind = "workspace";
	out->packages = (unsigned)n;
	out->seed = seed;
	return 0;
bad:
	return pmbench_error_setc(PMBENCH_EINVALID,
				  "'%s' is no generated fixture; spell it "
				  "gen:workspace:N or gen:workspace:N:SEED "
				  "(N packages, 1 to %d)",
				  spec, PMBENCH_GEN_MAX_PACKAGES);
}

void pmbench_gen_names(struct pmbench_buf *name, struct pmbench_buf *spec,
		       const struct pmbench_gen *g)
{
	if (name) {
		pmbench_buf_addf(name, "gen-%s-%u", g->kind, g->packages);
		if (g->seed != PMBENCH_GEN_DEFAULT_SEED)
			pmbench_buf_addf(name, "-s%llu",
					 (unsigned long long)g->seed);
	}
	if (spec)
		pmbench_buf_addf(spec, "gen:%s:%u:%llu", g->kind, g->packages,
				 (unsigned long long)g->seed);
}

static int write_text(const char *dir, const char *name, const char *text)
{
	struct pmbench_buf p = PMBENCH_BUF_INIT;
	int ret;

	pmbench_buf_path(&p, dir, name);
	ret = pmbench_fs_write_atomic(p.ptr, text, strlen(text));
	pmbench_buf_release(&p);
	return ret;
}

/* The root: private, its workspaces for every PM. */
static int write_root(const struct pmbench_gen *g, const char *dir)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT, name = PMBENCH_BUF_INIT;
	int ret;

	pmbench_gen_names(&name, NULL, g);
	pmbench_buf_addf(&b,
			 "{\n  \"name\": \"%s\",\n  \"version\": \"1.0.0\",\n"
			 "  \"private\": true,\n  \"description\": \"Written "
			 "by pmbench: %u workspace packages, seed %llu.\",\n"
			 "  \"workspaces\": [\n    \"packages/*\"\n  ]\n}\n",
			 name.ptr, g->packages, (unsigned long long)g->seed);
	ret = write_text(dir, "package.json", b.ptr);
	if (!ret)
		ret = write_text(dir, "pnpm-workspace.yaml",
				 "packages:\n  - 'packages/*'\n"
				 "linkWorkspacePackages: true\n");
	pmbench_buf_release(&b);
	pmbench_buf_release(&name);
	return ret;
}

/*
 * `k` distinct indices below `n` (at most POOL_MAX) into `out`, in
 * ascending order: a partial Fisher-Yates shuffle.
 */
#define POOL_MAX 32
_Static_assert(SHARED_NR <= POOL_MAX && OWN_NR <= POOL_MAX, "pool too large");

static void pick(size_t *out, size_t k, size_t n, uint64_t *state)
{
	size_t idx[POOL_MAX];

	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	for (size_t i = 0; i < k; i++) {
		size_t j = i + draw(state, n - i), t = idx[i];

		idx[i] = idx[j];
		idx[j] = t;
		out[i] = idx[i];
	}
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
			size_t t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
}

/* One dependency line: "name@version" as "\"name\": \"version\"". */
static void dep_line(struct pmbench_buf *b, const char *spec, int last)
{
	const char *at = strrchr(spec, '@');

	pmbench_buf_addf(b, "    \"%.*s\": \"%s\"%s\n", (int)(at - spec), spec,
			 at + 1, last ? "" : ",");
}

/* Package `i` (1-based), its number `width` digits wide. */
static int write_package(const char *dir, unsigned i, int width,
			 uint64_t *state)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT, p = PMBENCH_BUF_INIT;
	size_t shared[PMBENCH_GEN_SHARED_DEPS], own[PMBENCH_GEN_OWN_DEPS];
	unsigned internal = i > 1 ? 1 + (unsigned)draw(state, i - 1) : 0;
	int ret;

	pick(shared, PMBENCH_GEN_SHARED_DEPS, SHARED_NR, state);
	pick(own, PMBENCH_GEN_OWN_DEPS, OWN_NR, state);
	pmbench_buf_addf(&p, "%s/packages/pkg-%0*u", dir, width, i);
	ret = pmbench_fs_mkdirp(p.ptr, 0755);
	pmbench_buf_addf(&b,
			 "{\n  \"name\": \"@pmbench-gen/pkg-%0*u\",\n"
			 "  \"version\": \"1.0.0\",\n  \"private\": true,\n"
			 "  \"main\": \"index.js\",\n  \"dependencies\": {\n",
			 width, i);
	if (internal)
		pmbench_buf_addf(&b,
				 "    \"@pmbench-gen/pkg-%0*u\": \"1.0.0\",\n",
				 width, internal);
	for (size_t k = 0; k < PMBENCH_GEN_SHARED_DEPS; k++)
		dep_line(&b, shared_pool[shared[k]], 0);
	for (size_t k = 0; k < PMBENCH_GEN_OWN_DEPS; k++)
		dep_line(&b, own_pool[own[k]], k + 1 == PMBENCH_GEN_OWN_DEPS);
	pmbench_buf_adds(&b, "  }\n}\n");
	if (!ret)
		ret = write_text(p.ptr, "package.json", b.ptr);
	pmbench_buf_reset(&b);
	pmbench_buf_addf(&b, "module.exports = 'pkg-%0*u';\n", width, i);
	if (!ret)
		ret = write_text(p.ptr, "index.js", b.ptr);
	pmbench_buf_release(&b);
	pmbench_buf_release(&p);
	return ret;
}

int pmbench_gen_write(const struct pmbench_gen *g, const char *dir)
{
	uint64_t state = g->seed;
	int width = 3, ret;

	for (unsigned n = g->packages; n >= 1000; n /= 10)
		width++;
	ret = pmbench_fs_mkdirp(dir, 0755);
	if (!ret)
		ret = write_root(g, dir);
	for (unsigned i = 1; !ret && i <= g->packages; i++)
		ret = write_package(dir, i, width, &state);
	return ret;
}
