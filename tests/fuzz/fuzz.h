#ifndef PMBENCH_FUZZ_H
#define PMBENCH_FUZZ_H

/*
 * Shared by the fuzz targets in this folder. Each target defines
 * LLVMFuzzerTestOneInput(); libFuzzer calls it in the PMBENCH_FUZZ build,
 * replay.c calls it for every file of the committed corpus in the normal
 * and sanitizer builds (CTest's fuzz_replay_<name> tests). A target
 * returns 0 for any input; a crash, a sanitizer report, a leak or an
 * abort() on a broken property is the finding.
 */
#include "pmbench/common.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The input as a C string, NUL-terminated (libFuzzer's data is not). An
 * embedded NUL ends the string, as it would for any caller. free() it.
 */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = pmbench_xmalloc(pmbench_st_add(size, 1));

	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* A broken property: say which, then abort() so the fuzzer keeps it. */
#define FUZZ_FAIL(...)                                                \
	do {                                                          \
		fprintf(stderr, "fuzz: %s:%d: ", __FILE__, __LINE__); \
		fprintf(stderr, __VA_ARGS__);                         \
		fputc('\n', stderr);                                  \
		abort();                                              \
	} while (0)

#endif
