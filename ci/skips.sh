#!/usr/bin/env bash
# The skipped test cases, each with its reason, from the file the test
# harness notes them in (PMBENCH_TEST_SKIPS, tests/harness/check.c: one
# "TEST<tab>CASE<tab>reason" line per skip). ctest says only "Not Run
# (Skipped)" of a test with a skipped case; ci/test.sh prints this list
# at the end of the suite.
#
#   ci/skips.sh FILE
set -euo pipefail
if [ $# -ne 1 ]; then
	echo "usage: ci/skips.sh FILE" >&2
	exit 2
fi
skips=$(sort -u "$1" 2>/dev/null || true)
if [ -z "$skips" ]; then
	echo "== skipped: none"
	exit 0
fi
printf '== skipped: %d case(s) (ctest reports a test with one as "Skipped")\n' \
	"$(printf '%s\n' "$skips" | wc -l)"
printf '%s\n' "$skips" | awk -F '\t' '{ printf "  %s %s: %s\n", $1, $2, $3 }'
