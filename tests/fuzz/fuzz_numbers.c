/*
 * The small parsers of user-typed values: durations and counts of the
 * command line (--timeout 90s, --runs 10) and the versions read from
 * installed package.json files (the resolution diff orders and levels
 * them), and `--link RTT,BANDWIDTH`. The input is split at its first
 * newline into two strings.
 */
#include "pmbench/common.h"

#include "fuzz.h"
#include "pmbench/link.h"
#include "pmbench/resolution.h"

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

static void durations_and_counts(const char *s)
{
	uint64_t v = 0;

	if (pmbench_parse_duration(&v, s) == 0 && v > 1000000000000000000ull)
		FUZZ_FAIL("duration '%s' gives %llu ns, above the limit", s,
			  (unsigned long long)v);
	pmbench_parse_u64(&v, s);
}

/* --link RTT,BANDWIDTH: an accepted link is within the stated limits. */
static void link_spec(const char *s)
{
	struct pmbench_link_spec l;

	if (pmbench_link_parse(&l, s) < 0)
		return;
	if (l.rtt_ns > 60000000000ull || (l.bits_per_s && l.bits_per_s < 8000))
		FUZZ_FAIL("link '%s' accepted out of range", s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *a = fuzz_cstr(data, size), *b, *nl = strchr(a, '\n');
	const char *level;

	b = nl ? nl + 1 : a + strlen(a);
	if (nl)
		*nl = '\0';
	durations_and_counts(a);
	durations_and_counts(b);
	link_spec(a);
	level = pmbench_semver_level(a, b);
	if (strcmp(level, pmbench_semver_level(b, a)))
		FUZZ_FAIL("level of '%s' and '%s' depends on the order", a, b);
	if (sign(pmbench_semver_cmp(a, b)) != -sign(pmbench_semver_cmp(b, a)))
		FUZZ_FAIL("'%s' and '%s' compare the same both ways", a, b);
	if (pmbench_semver_cmp(a, a))
		FUZZ_FAIL("'%s' differs from itself", a);
	free(a);
	return 0;
}
