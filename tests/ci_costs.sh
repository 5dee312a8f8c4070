#!/usr/bin/env bash
# ci/costs.sh over more lines than it lists: it exits 0 and lists the
# costliest first (ci/test.sh runs it last, under set -e: a `sort | head`
# in it once died of SIGPIPE and, with pipefail, turned a passing suite
# into exit 141).
#
#   tests/ci_costs.sh PATH/TO/ci/costs.sh
set -euo pipefail
costs=${1:?usage: tests/ci_costs.sh PATH/TO/ci/costs.sh}
f=$(mktemp)
trap 'rm -f "$f" "$f.out"' EXIT
for i in $(seq 1 3000); do
	printf 'asan:t%s\tcase\t1.00\t%s.00\n' "$i" "$i"
done >"$f"
"$costs" "$f" 5 >"$f.out"
grep -q 'asan:t3000 case' "$f.out"
grep -q 'build-asan' "$f.out"
if grep -q 'asan:t2995 case' "$f.out"; then
	echo "ci/costs.sh listed more than the 5 asked" >&2
	exit 1
fi
echo ok
