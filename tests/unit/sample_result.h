#ifndef PMBENCH_TEST_SAMPLE_RESULT_H
#define PMBENCH_TEST_SAMPLE_RESULT_H

/*
 * The synthetic result committed as tests/data/sample-result.json, and
 * the deterministic sequence it is drawn from (sample_result.c).
 */
#include <stdint.h>

struct pmbench_result;

/** Start the sequence at `seed`. */
void sample_lcg_seed(uint64_t seed);
/** The next number of the sequence (Knuth's MMIX LCG, top 53 bits). */
uint64_t sample_lcg(void);
/** The committed sample, built into `r` (empty, PMBENCH_RESULT_INIT). */
void sample_result_build(struct pmbench_result *r);

#endif
