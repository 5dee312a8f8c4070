/*
 * The Node of a lockfile's era (node.h): which Node LTS line a team ran
 * on a given date, from the Node.js release schedule (the dates its
 * Release working group publishes, nodejs/Release's README.md and
 * schedule.json: when each even line entered Active LTS). A repo that
 * names no Node and whose locked packages were last published on date D
 * was most likely run under the newest line that was LTS on D.
 */
#include "pmbench/common.h"

#include <ctype.h>

#include "pmbench/node.h"

/* Each LTS line and the day it entered Active LTS, oldest first. */
static const struct {
	int major;
	const char *lts; /* YYYY-MM-DD */
} lines[] = {
	{ 4, "2015-10-12" },  { 6, "2016-10-18" },  { 8, "2017-10-31" },
	{ 10, "2018-10-30" }, { 12, "2019-10-21" }, { 14, "2020-10-27" },
	{ 16, "2021-10-26" }, { 18, "2022-10-25" }, { 20, "2023-10-24" },
	{ 22, "2024-10-29" }, { 24, "2025-10-28" },
};

/* Whether `date` starts with a day "YYYY-MM-DD". */
static int is_day(const char *date)
{
	for (int i = 0; i < 10; i++) {
		int digit = i != 4 && i != 7;

		if (!date[i] ||
		    (digit ? !isdigit((unsigned char)date[i]) : date[i] != '-'))
			return 0;
	}
	return 1;
}

int pmbench_node_era_major(const char *date)
{
	int major = 0;

	if (!date || !is_day(date))
		return -1;
	/* ISO days compare as strings; a time after the day counts in it. */
	for (size_t i = 0; i < PMBENCH_ARRAY_SIZE(lines); i++)
		if (strncmp(lines[i].lts, date, 10) <= 0)
			major = lines[i].major;
	return major;
}
