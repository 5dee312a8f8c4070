/*
 * The separate step that regenerates tests/data/sample-result.json from
 * sample_result_build() (`cmake --build build --target write-sample`):
 * never run by a test, which only reads the committed file.
 */
#include "pmbench/common.h"

#include "pmbench/result.h"
#include "sample_result.h"

int main(int argc, char **argv)
{
	struct pmbench_result r = PMBENCH_RESULT_INIT;
	int ret = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: write_sample FILE\n");
		return 2;
	}
	sample_result_build(&r);
	if (pmbench_result_write(&r, argv[1]) < 0)
		fprintf(stderr, "write_sample: %s\n", pmbench_error_last());
	else
		ret = 0;
	pmbench_result_release(&r);
	return ret;
}
