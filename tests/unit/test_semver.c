/*
 * Versions and ranges (src/util/semver.c) as node-semver reads them, on
 * the ranges repos write for Node (.nvmrc, engines.node) and npm's own
 * engines; SHA-512 and base64 (src/util/sha512.c) on the standard's
 * vectors.
 */
#include "pmbench/common.h"

#include "check.h"
#include "pmbench/semver.h"
#include "pmbench/sha512.h"

static int sat(const char *range, const char *version)
{
	struct pmbench_semver v;

	if (pmbench_semver_parse(&v, version) < 0)
		return -2;
	return pmbench_semver_satisfies(range, &v);
}

TEST(semver_parse)
{
	struct pmbench_semver v;

	CHECK_INT(pmbench_semver_parse(&v, "v20.11.1"), 0);
	CHECK(v.major == 20 && v.minor == 11 && v.patch == 1 && !v.prerelease);
	CHECK_INT(pmbench_semver_parse(&v, "21.0.0-rc.1+b7"), 0);
	CHECK(v.prerelease);
	CHECK_INT(pmbench_semver_parse(&v, "20"), -1);
	CHECK_INT(pmbench_semver_parse(&v, "20.1.x"), -1);
	CHECK_INT(pmbench_semver_parse(&v, "20.1.1 junk"), -1);
	CHECK_INT(pmbench_semver_parse(&v, "1234567890123456.0.0"), -1);
	CHECK_INT(pmbench_semver_parse(&v, ""), -1);
}

TEST(semver_ranges)
{
	static const struct {
		const char *range, *version;
		int want;
	} t[] = {
		{ "20", "20.19.5", 1 },
		{ "20", "21.0.0", 0 },
		{ "v20", "20.0.0", 1 },
		{ "20.x", "20.3.1", 1 },
		{ "20.11", "20.11.9", 1 },
		{ "20.11", "20.12.0", 0 },
		{ "20.11.1", "20.11.1", 1 },
		{ "20.11.1", "20.11.2", 0 },
		{ ">=18 <21", "20.9.0", 1 },
		{ ">=18 <21", "21.0.0", 0 },
		{ ">=18 <21", "17.9.9", 0 },
		{ ">= 18", "24.22.3", 1 },
		{ ">18", "18.9.0", 0 },
		{ ">18", "19.0.0", 1 },
		{ ">18.1.2", "18.1.3", 1 },
		{ "<=20", "20.99.0", 1 },
		{ "<=20", "21.0.0", 0 },
		{ "<20", "19.9.9", 1 },
		{ "^20.17.0 || >=22.9.0", "20.18.0", 1 },
		{ "^20.17.0 || >=22.9.0", "20.16.0", 0 },
		{ "^20.17.0 || >=22.9.0", "22.8.0", 0 },
		{ "^20.17.0 || >=22.9.0", "24.22.3", 1 },
		{ "^18.17.0 || >=20.5.0", "18.20.8", 1 },
		{ "^0.2.3", "0.2.9", 1 },
		{ "^0.2.3", "0.3.0", 0 },
		{ "^0.0.3", "0.0.4", 0 },
		{ "~20.1.2", "20.1.9", 1 },
		{ "~20.1.2", "20.2.0", 0 },
		{ "~20", "20.9.0", 1 },
		{ "18 - 20", "20.5.0", 1 },
		{ "18 - 20", "21.0.0", 0 },
		{ "18.1.2 - 20.1.2", "20.1.3", 0 },
		{ "*", "24.0.0", 1 },
		{ "", "24.0.0", 1 },
		{ "latest", "24.0.0", 1 },
		{ "x", "1.0.0", 1 },
		{ "20 || 22", "22.1.0", 1 },
		{ ">=18", "21.0.0-rc.1", 0 },
		{ ">=abc", "1.0.0", -1 },
		{ "lts/iron", "20.0.0", -1 },
		{ "20 ||", "1.0.0", 1 },
		{ ">", "1.0.0", -1 },
	};

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(t); i++) {
		int got = sat(t[i].range, t[i].version);

		if (got != t[i].want)
			check_fail(__FILE__, __LINE__,
				   "'%s' against %s: %d, want %d", t[i].range,
				   t[i].version, got, t[i].want);
	}
}

TEST(semver_max_satisfying)
{
	static const char *const v[] = { "20.1.0",  "junk",   "20.19.5",
					 "21.0.0",  "20.9.0", "22.0.0-rc.1",
					 "24.22.3", "20.19.4" };

	CHECK_INT(pmbench_semver_max_satisfying(v, PMBENCH_ARRAY_SIZE(v), "20"),
		  2);
	CHECK_INT(pmbench_semver_max_satisfying(v, PMBENCH_ARRAY_SIZE(v),
						">=18"),
		  6);
	CHECK_INT(pmbench_semver_max_satisfying(v, PMBENCH_ARRAY_SIZE(v), "19"),
		  -1);
	CHECK_INT(pmbench_semver_max_satisfying(v, PMBENCH_ARRAY_SIZE(v),
						"lts/*"),
		  -1);
}

static void digest(struct pmbench_buf *out, const char *text, size_t repeat)
{
	struct pmbench_sha512 s;
	unsigned char d[64];

	pmbench_sha512_init(&s);
	for (size_t i = 0; i < repeat; i++)
		pmbench_sha512_update(&s, text, strlen(text));
	pmbench_sha512_final(&s, d);
	pmbench_buf_reset(out);
	pmbench_base64(out, d, sizeof(d));
}

TEST(sha512_vectors)
{
	struct pmbench_buf b = PMBENCH_BUF_INIT;

	/* FIPS 180-4's examples, in base64 as npm's integrity writes them. */
	digest(&b, "abc", 1);
	CHECK_STR(b.ptr, "3a81oZNherrMQXNJriBBMRLm+k6JqX6iCp7u5ktV05ohkpkqJ0/"
			 "BqDa6PCOj/uu9RU1EI2Q86A4qmslPpUyknw==");
	digest(&b, "", 1);
	CHECK_STR(b.ptr, "z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXy"
			 "sP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==");
	/* Split across blocks: 1,000,000 'a' in pieces of 10. */
	digest(&b, "aaaaaaaaaa", 100000);
	CHECK_STR(b.ptr, "5xhIPQznaWROLkLHvBW0Y44fmLE7IEQoVjKoA6+pc+veD/"
			 "JEh36mCkywQyzld8Mb6wCcXCxJqi5OrbIXrYzAmw==");
	pmbench_buf_reset(&b);
	pmbench_base64(&b, (const unsigned char *)"ab", 2);
	CHECK_STR(b.ptr, "YWI=");
	pmbench_buf_release(&b);
}

CHECK_MAIN(CASE(semver_parse), CASE(semver_ranges), CASE(semver_max_satisfying),
	   CASE(sha512_vectors))
