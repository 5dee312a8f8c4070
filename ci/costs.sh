#!/usr/bin/env bash
# Where the suite's CPU went: the tests' cases, summed per test
# and build, from the file the test harness notes each case's
# wall and CPU time in (PMBENCH_TEST_CPU, tests/harness/check.c: one
# "TEST<tab>CASE<tab>wall<tab>CPU" line per case, the CPU of the test
# program and every child it waited for). ci/test.sh prints it at the
# end: the list says which tests to make cheaper when the suite is slow.
#
#   ci/costs.sh FILE [N]   the N (default 15) costliest tests and
#                          cases, and the totals
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: ci/costs.sh FILE [N]" >&2
	exit 2
fi
n=${2:-15}
if [ ! -s "$1" ]; then
	echo "== test costs: none noted"
	exit 0
fi
# A test's build: the prefix of its name (asan:, tsan:, else build/).
awk -F '\t' '{
	k = $1; b = k ~ /^asan:/ ? "build-asan" : k ~ /^tsan:/ ? "build-tsan" : "build"
	wall[k] += $3; cpu[k] += $4; tw[b] += $3; tc[b] += $4
	printf "C\t%s %s\t%.0f\t%.0f\n", k, $2, $3, $4
	all += $4
}
END {
	for (b in tc) printf "T\t%s\t%.0f\t%.0f\n", b, tw[b], tc[b]
	for (k in cpu) printf "P\t%s\t%.0f\t%.0f\n", k, wall[k], cpu[k]
	printf "A\t%.0f\n", all
}' "$1" >"$1.sum"
printf '== test costs: %s CPU-s in the tests'"'"' cases; per build:\n' \
	"$(awk -F '\t' '$1 == "A" { print $2 }' "$1.sum")"
awk -F '\t' '$1 == "T" { printf "  %-12s %6d CPU-s (%d s of cases)\n", $2, $4, $3 }' "$1.sum" | sort -k2 -rn
printf '   the %d costliest tests (CPU-s, wall s of their cases):\n' "$n"
# awk, not head: head's early exit kills sort with SIGPIPE (pipefail).
awk -F '\t' '$1 == "P" { printf "  %6d %6d  %s\n", $4, $3, $2 }' "$1.sum" | sort -rn | awk -v n="$n" 'NR <= n'
printf '   the %d costliest cases:\n' "$n"
awk -F '\t' '$1 == "C" { printf "  %6d %6d  %s\n", $4, $3, $2 }' "$1.sum" | sort -rn | awk -v n="$n" 'NR <= n'
rm -f "$1.sum"
