/*
 * Dates of results: one strict reader, so that a history cannot be
 * ordered or labelled by a date that does not exist.
 */
#include "pmbench/common.h"

#include "pmbench/date.h"

/* `n` decimal digits at `s` into *out; 0 if one is not a digit. */
static int digits(int *out, const char *s, int n)
{
	*out = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		*out = *out * 10 + (s[i] - '0');
	}
	return 1;
}

static int leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int month_days(int y, int m)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30,
				    31, 31, 30, 31, 30, 31 };

	return m == 2 && leap(y) ? 29 : days[m - 1];
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; H. Hinnant). */
static int64_t days_from_civil(int y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int bad(const char *s, const char *why)
{
	return pmbench_error_setc(PMBENCH_EINVALID,
				  "'%s' is not a date and time "
				  "(YYYY-MM-DDTHH:MM:SSZ, UTC): %s",
				  s, why);
}

static int range(const char *s, const char *what, int v, int lo, int hi)
{
	char why[96];

	snprintf(why, sizeof(why), "%s %02d is not %02d to %02d", what, v, lo,
		 hi);
	return bad(s, why);
}

int pmbench_date_parse(int64_t *out, const char *s)
{
	int y, mo, d, h, mi, se;

	if (!s)
		return bad("(none)", "no date");
	if (strlen(s) != 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' ||
	    s[13] != ':' || s[16] != ':' || s[19] != 'Z' || !digits(&y, s, 4) ||
	    !digits(&mo, s + 5, 2) || !digits(&d, s + 8, 2) ||
	    !digits(&h, s + 11, 2) || !digits(&mi, s + 14, 2) ||
	    !digits(&se, s + 17, 2))
		return bad(s, "not of that form");
	if (mo < 1 || mo > 12)
		return range(s, "month", mo, 1, 12);
	if (d < 1 || d > month_days(y, mo))
		return range(s, "day", d, 1, month_days(y, mo));
	if (h > 23)
		return range(s, "hour", h, 0, 23);
	if (mi > 59)
		return range(s, "minute", mi, 0, 59);
	if (se > 60)
		return range(s, "second", se, 0, 60);
	*out = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
	return 0;
}
