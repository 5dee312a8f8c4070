#ifndef PMBENCH_DATE_H
#define PMBENCH_DATE_H

#include <stdint.h>

#include "pmbench/common.h"

/**
 * Dates as results record them (`created`): RFC 3339 in UTC,
 * "2026-11-01T06:00:00Z", the form pmbench_result_stamp() writes.
 */

/**
 * Parse `s`, which must be exactly "YYYY-MM-DDTHH:MM:SSZ" with a real
 * date and time: month 01 to 12, a day the month has (February 29 only
 * in leap years), hour 00 to 23, minute 00 to 59, second 00 to 60 (a
 * leap second). Stores the seconds since 1970-01-01T00:00:00Z (negative
 * before; a leap second counts as the next second) in *out and returns
 * 0, or returns PMBENCH_EINVALID with a message saying which part is
 * wrong ("month 99 is not 01 to 12").
 */
int pmbench_date_parse(int64_t *out, const char *s);

#endif
