/*
 * Result files of every kind (resultfile.h: what `report`, `compare`,
 * `claim --from`, `history` and `merge` read), above all a migrate
 * result: pmbench_result_file_parse(), then what `report` does with an
 * accepted one: the document `migrate` made, built from the model read
 * back, and its JSON written again. The round trip must be stable: the
 * migrate result written from the file must read back into the same
 * model, which writes the very same bytes.
 */
#include "pmbench/common.h"

#include "fuzz.h"
#include "pmbench/doc.h"
#include "pmbench/report_kind.h"
#include "pmbench/resultfile.h"

/* The report of a file, and its JSON when it is a whole migration. */
static char *render(const struct pmbench_result_file *f)
{
	struct pmbench_doc doc = PMBENCH_DOC_INIT;
	char *json = NULL;

	if (pmbench_report_file(&doc, f) == 0 && doc.json)
		json = pmbench_xstrdup(doc.json);
	pmbench_error_clear();
	pmbench_doc_release(&doc);
	return json;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmbench_result_file f1 = PMBENCH_RESULT_FILE_INIT;
	struct pmbench_result_file f2 = PMBENCH_RESULT_FILE_INIT;
	char *text = fuzz_cstr(data, size), *first = NULL, *second = NULL;

	if (pmbench_result_file_parse(&f1, text, "fuzz.json") < 0)
		goto done;
	if (!f1.what)
		FUZZ_FAIL("a file read says nothing of what it is");
	first = render(&f1);
	if (!first)
		goto done;
	if (pmbench_result_file_parse(&f2, first, "written.json") < 0)
		FUZZ_FAIL("the written migration does not read back: %s",
			  pmbench_error_last());
	second = render(&f2);
	if (!second || strcmp(first, second))
		FUZZ_FAIL("the migration read back writes other bytes");
done:
	free(first);
	free(second);
	pmbench_result_file_release(&f1);
	pmbench_result_file_release(&f2);
	free(text);
	return 0;
}
