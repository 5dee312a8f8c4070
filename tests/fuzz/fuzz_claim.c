/*
 * Claims as a user writes them ("bun install is 20x faster than npm
 * install"): pmbench_claim_parse(), then what `pmbench claim` does with
 * one: the speed-up it implies, the verdict fixed times give it, and its
 * canonical wording, which must be a claim pmbench reads back as the
 * same one.
 */
#include "pmbench/common.h"

#include <math.h>

#include "fuzz.h"
#include "pmbench/buf.h"
#include "pmbench/claim.h"

static void check_same(const struct pmbench_claim *a,
		       const struct pmbench_claim *b, const char *text)
{
	if (strcmp(a->pm_a, b->pm_a) || strcmp(a->task_a, b->task_a) ||
	    strcmp(a->pm_b, b->pm_b) || strcmp(a->task_b, b->task_b) ||
	    a->kind != b->kind)
		FUZZ_FAIL("'%s' reads back as another claim", text);
	/* The wording keeps six significant digits ("%g"). */
	if (!(fabs(a->factor - b->factor) <= 1e-5 * a->factor))
		FUZZ_FAIL("'%s' reads back with factor %g, not %g", text,
			  b->factor, a->factor);
}

/* Side a about twice as fast as side b, so that claims near 2x straddle. */
static const double times_a[] = { 1.0, 1.1, 0.9, 1.05, 0.95 };
static const double times_b[] = { 2.0, 2.2, 1.8, 2.1, 1.9 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmbench_claim c = PMBENCH_CLAIM_INIT;
	struct pmbench_claim again = PMBENCH_CLAIM_INIT;
	struct pmbench_buf text = PMBENCH_BUF_INIT;
	char *input = fuzz_cstr(data, size);
	struct pmbench_claim_judgement j;
	double s;

	if (pmbench_claim_parse(&c, input) < 0)
		goto done;
	s = pmbench_claim_speedup(&c);
	if (!isfinite(s) || !(s > 0))
		FUZZ_FAIL("claim '%s' gives speed-up %g", input, s);
	if (pmbench_claim_judge(&j, &c, times_a, PMBENCH_ARRAY_SIZE(times_a),
				times_b, PMBENCH_ARRAY_SIZE(times_b), 0.1,
				1) < 0)
		FUZZ_FAIL("cannot judge '%s'", input);
	pmbench_claim_verdict_name(j.verdict);
	pmbench_claim_describe(&text, &c);
	if (pmbench_claim_parse(&again, text.ptr) < 0)
		FUZZ_FAIL("the wording '%s' of '%s' does not read back: %s",
			  text.ptr, input, pmbench_error_last());
	check_same(&c, &again, text.ptr);

done:
	pmbench_claim_release(&c);
	pmbench_claim_release(&again);
	pmbench_buf_release(&text);
	free(input);
	return 0;
}
