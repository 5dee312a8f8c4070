#ifndef PMBENCH_TEST_FIELDS_H
#define PMBENCH_TEST_FIELDS_H

/*
 * Reading what pmbench wrote, for the tests: a member of a parsed JSON
 * object (result files, the fakes' log lines) and a metric of a sample.
 * Each answers "absent" instead of failing, so that a CHECK on the
 * value says what was wrong.
 */
#include <cjson/cJSON.h>

struct pmbench_sample;
struct pmbench_cell;
struct pmbench_result;
struct pmbench_result_pm;

/** The string member `key` of `o` (exact case), or NULL. */
const char *h_str(const cJSON *o, const char *key);

/** The number member `key` of `o` (exact case), or -1. */
double h_num(const cJSON *o, const char *key);

/** 1 if the member `key` of `o` is true, else 0. */
int h_flag(const cJSON *o, const char *key);

/**
 * The recorded result tests/data/`name` (under PMBENCH_SOURCE_DIR, else
 * the current folder) read into `r`: pmbench_result_read()'s return.
 */
struct pmbench_result;
int h_data_result(struct pmbench_result *r, const char *name);

/** The metric `name` of `s`, or -1 if `s` is NULL or has none. */
double h_metric(const struct pmbench_sample *s, const char *name);

/** The environment variable `name` a cell's PM ran with, or NULL. */
const char *h_cell_env(const struct pmbench_cell *c, const char *name);

/** The result's record of the PM `name` ("pnpm@9"), or NULL. */
const struct pmbench_result_pm *h_found_pm(const struct pmbench_result *r,
					   const char *name);

#endif
