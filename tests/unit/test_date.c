/*
 * Dates of results (src/util/date.c): only real dates and times, in the
 * one form pmbench writes.
 */
#include "pmbench/common.h"

#include <time.h>

#include "check.h"
#include "pmbench/date.h"

TEST(date_valid)
{
	static const struct {
		const char *s;
		int64_t t;
	} ok[] = {
		{ "1970-01-01T00:00:00Z", 0 },
		{ "2026-11-01T06:00:00Z", 1793512800 },
		{ "2000-02-29T23:59:59Z", 951868799 },
		{ "2024-02-29T12:00:00Z", 1709208000 },
		{ "1969-12-31T23:59:59Z", -1 },
		{ "9999-12-31T23:59:59Z", 253402300799 },
		/* A leap second counts as the next second. */
		{ "2016-12-31T23:59:60Z", 1483228800 },
	};
	int64_t t;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(ok); i++) {
		t = -42;
		CHECK_INT(pmbench_date_parse(&t, ok[i].s), 0);
		CHECK_INT(t, ok[i].t);
	}
	/* Every second pmbench_result_stamp() may write reads back. */
	for (int64_t s = 0; s < 400LL * 366 * 86400; s += 86399 * 7 + 13) {
		time_t tt = (time_t)s;
		struct tm tm;
		char buf[32];

		CHECK(gmtime_r(&tt, &tm) != NULL);
		strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
		CHECK_INT(pmbench_date_parse(&t, buf), 0);
		CHECK_INT(t, s);
	}
}

TEST(date_invalid)
{
	static const char *const bad[][2] = {
		{ "9999-99-99T99:99:99Z", "month 99 is not 01 to 12" },
		{ "2026-00-10T00:00:00Z", "month 00" },
		{ "2026-04-31T00:00:00Z", "day 31 is not 01 to 30" },
		{ "2026-02-29T00:00:00Z", "day 29 is not 01 to 28" },
		{ "1900-02-29T00:00:00Z", "day 29 is not 01 to 28" },
		{ "2026-01-00T00:00:00Z", "day 00" },
		{ "2026-01-01T24:00:00Z", "hour 24 is not 00 to 23" },
		{ "2026-01-01T23:60:00Z", "minute 60" },
		{ "2026-01-01T23:59:61Z", "second 61" },
		{ "2026-01-01T00:00:00", "not of that form" },
		{ "2026-01-01 00:00:00Z", "not of that form" },
		{ "2026-01-01T00:00:00+01:00", "not of that form" },
		{ "2026-1-01T00:00:00Z", "not of that form" },
		{ "+026-01-01T00:00:00Z", "not of that form" },
		{ "2026-01-01T00:00:0Z ", "not of that form" },
		{ "", "not of that form" },
		{ "yesterday", "not of that form" },
	};
	int64_t t = 7;

	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(bad); i++) {
		CHECK_INT(pmbench_date_parse(&t, bad[i][0]), PMBENCH_EINVALID);
		CHECK_CONTAINS(pmbench_error_last(), bad[i][1]);
		CHECK_INT(t, 7);
	}
	CHECK_INT(pmbench_date_parse(&t, NULL), PMBENCH_EINVALID);
}

CHECK_MAIN(CASE(date_valid), CASE(date_invalid))
