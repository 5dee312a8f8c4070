#!/usr/bin/env bash
# Build pmbench, its tests and examples in every standard build type
# (Debug, Release, RelWithDebInfo, MinSizeRel) with each compiler (gcc
# and clang by default), warnings as errors as in CI, each in
# build-types/<cc>-<type>/. A warning that only one optimisation level or
# one compiler finds (gcc's maybe-uninitialized at -O3, ...) breaks a
# user's build of that type without ci/build.sh ever seeing it. Prints a
# line per build and exits 1 if any failed (its log:
# build-types/<cc>-<type>.log).
#
#   ci/buildtypes.sh [CC...]
#
# Not part of ci/test.sh: the eight builds take most of an hour on a
# shared 2-core machine (tests/README.md, "Every build type"); run it
# after a change of compiler or flags, or of code whose warnings depend
# on the optimisation.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
compilers=("$@")
[ ${#compilers[@]} -gt 0 ] || compilers=(gcc clang)
# The compilers, from Debian (clang is only needed here and in
# ci/fuzz.sh, not in ci/setup's list).
for cc in "${compilers[@]}"; do
	command -v "$cc" >/dev/null || "$top/ci/setup" --packages "$cc"
done
jobs=$(nproc 2>/dev/null || echo 2)
status=0
mkdir -p build-types
for cc in "${compilers[@]}"; do
	for type in Debug Release RelWithDebInfo MinSizeRel; do
		dir=build-types/$cc-$type
		t0=$(date +%s)
		if CC=$cc cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" \
			-DPMBENCH_ENABLE_WERROR=ON >"$dir.log" 2>&1 &&
			cmake --build "$dir" -j"$jobs" >>"$dir.log" 2>&1; then
			result=ok
		else
			result="FAILED (see $dir.log)"
			status=1
		fi
		printf '%-6s %-15s %s, %d s\n' "$cc" "$type" "$result" \
			$(($(date +%s) - t0))
	done
done
exit $status
