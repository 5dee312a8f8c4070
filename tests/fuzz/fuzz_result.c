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
#include "pmbench/merge.h"
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

/*
 * The file merged on its own (pmbench merge of one input): accepted only
 * when its rounds are its plan's, so no cell has more timed samples than
 * the plan's runs (issue 24: a shard of 10,000 samples was pooled).
 */
static void merge_alone(const struct pmbench_result *r)
{
	struct pmbench_result m = PMBENCH_RESULT_INIT;
	const char *name = "fuzz.json";
	int64_t when;

	pmbench_result_created(&when, r, name);
	if (pmbench_merge(&m, r, &name, 1) == 0)
		for (size_t i = 0; i < m.cells_nr; i++) {
			size_t timed = 0;

			for (size_t k = 0; k < m.cells[i].samples_nr; k++)
				timed += !m.cells[i].samples[k].warmup;
			if (timed > m.runs)
				FUZZ_FAIL("merged cell %zu has %zu timed "
					  "samples, the plan %u runs",
					  i, timed, m.runs);
		}
	pmbench_result_release(&m);
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
	merge_alone(&r1);
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
