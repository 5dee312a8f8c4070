/*
 * The packages a lockfile locks (node.h pmbench_lockfile_packages()),
 * read from any text whatever PM wrote it, for the era of a repo that
 * names no Node. Properties: each pair is "name@version" with a
 * non-empty name made of a package name's characters (one "@scope/"
 * at most) and a version that starts "N.N.N"; the pairs are sorted and
 * each comes once; reading the pairs' own text back finds each again.
 */
#include "pmbench/common.h"

#include <ctype.h>

#include "fuzz.h"
#include "pmbench/buf.h"
#include "pmbench/node.h"
#include "pmbench/strvec.h"

static void check_pair(const char *pair)
{
	const char *at = strchr(pair + 1, '@');
	const char *v = at ? at + 1 : NULL;

	if (!at || at == pair || (pair[0] == '@' && !strchr(pair, '/')))
		FUZZ_FAIL("'%s' is no name@version", pair);
	for (const char *p = pair + (*pair == '@'); p < at; p++)
		if (!isalnum((unsigned char)*p) && !strchr("-._~/", *p))
			FUZZ_FAIL("'%s': '%c' in its name", pair, *p);
	if (!isdigit((unsigned char)*v) || !strchr(v, '.'))
		FUZZ_FAIL("'%s': its version does not start N.N.N", pair);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);
	struct pmbench_strvec v = PMBENCH_STRVEC_INIT;
	struct pmbench_strvec again = PMBENCH_STRVEC_INIT;
	struct pmbench_buf joined = PMBENCH_BUF_INIT;

	pmbench_lockfile_packages(&v, text);
	for (size_t i = 0; i < v.nr; i++) {
		check_pair(v.v[i]);
		if (i && strcmp(v.v[i - 1], v.v[i]) >= 0)
			FUZZ_FAIL("'%s' then '%s': unsorted or twice",
				  v.v[i - 1], v.v[i]);
	}
	pmbench_strvec_join(&joined, &v, " ");
	pmbench_lockfile_packages(&again, joined.ptr);
	for (size_t i = 0; i < v.nr; i++)
		if (pmbench_strvec_find(&again, v.v[i]) < 0)
			FUZZ_FAIL("'%s' is not found in its own text", v.v[i]);
	pmbench_buf_release(&joined);
	pmbench_strvec_release(&again);
	pmbench_strvec_release(&v);
	free(text);
	return 0;
}
