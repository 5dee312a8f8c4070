/*
 * Result files (what `pmbench report`, `compare` and `claim --from`
 * read): pmbench_result_from_json(), then what a reader does with an
 * accepted file: the per-cell figures the reports start from, and
 * writing it back. The round trip must be stable: the text written from
 * the file must read back, and write again to the very same bytes (the
 * schema promises that writing a result twice gives the same bytes).
 */
#include "pmbench/common.h"

#include "fuzz.h"
#include "pmbench/result.h"

/* Report the first line where the two texts differ, then abort. */
static void mismatch(const char *a, const char *b)
{
	size_t line = 1, i = 0, start = 0;

	for (; a[i] && a[i] == b[i]; i++)
		if (a[i] == '\n') {
			line++;
			start = i + 1;
		}
	FUZZ_FAIL("round trip not stable at line %zu:\n  first:  %.*s\n"
		  "  second: %.*s",
		  line, (int)strcspn(a + start, "\n"), a + start,
		  (int)strcspn(b + start, "\n"), b + start);
}

static void use_cells(const struct pmbench_result *r)
{
	for (size_t i = 0; i < r->cells_nr; i++) {
		const struct pmbench_cell *c = &r->cells[i];
		size_t n;
		double *t = pmbench_cell_times(c, &n);

		if (n > c->samples_nr)
			FUZZ_FAIL("more times than samples");
		free(t);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmbench_result r1 = PMBENCH_RESULT_INIT;
	struct pmbench_result r2 = PMBENCH_RESULT_INIT;
	char *json = fuzz_cstr(data, size), *first = NULL, *second = NULL;

	if (pmbench_result_from_json(&r1, json, "fuzz.json") < 0)
		goto done;
	use_cells(&r1);
	first = pmbench_result_to_json(&r1);
	if (pmbench_result_from_json(&r2, first, "written.json") < 0)
		FUZZ_FAIL("the written result does not read back: %s",
			  pmbench_error_last());
	second = pmbench_result_to_json(&r2);
	if (strcmp(first, second))
		mismatch(first, second);

done:
	free(first);
	free(second);
	pmbench_result_release(&r1);
	pmbench_result_release(&r2);
	free(json);
	return 0;
}
