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
#   ci/buildtypes.sh --syntax [CC...]
#
# --syntax checks only what the compiler's front end finds (clang's
# warnings, all of -Wextra's; not gcc's that need the optimiser): every
# file of every target compiled with -fsyntax-only -Werror, with and
# without NDEBUG (Debug's and Release's flags, each its own
# compile_commands.json), in build-types/syntax-<cc>-<type>/; minutes,
# not an hour, so that a clang warning a gcc-only CI cannot see is
# caught before it breaks a user's clang build.
#
# Not part of ci/test.sh: the eight builds take most of an hour on a
# shared 2-core machine (tests/README.md, "Every build type"); run it
# after a change of compiler or flags, or of code whose warnings depend
# on the optimisation.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
syntax=0
if [ "${1-}" = --syntax ]; then
	syntax=1
	shift
fi
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

# Each command of folder $1's compile_commands.json run with
# -fsyntax-only (its -o dropped), $jobs at once; its output on stderr,
# exit 1 if any failed.
syntax_only() {
	python3 - "$1" "$jobs" <<'PY'
import concurrent.futures, json, shlex, subprocess, sys
def check(c):
    a = shlex.split(c["command"])
    i = a.index("-o")
    del a[i:i + 2]
    r = subprocess.run(a + ["-fsyntax-only"], cwd=c["directory"],
                       capture_output=True, text=True)
    return r.returncode, r.stderr
cmds = json.load(open(sys.argv[1] + "/compile_commands.json"))
with concurrent.futures.ThreadPoolExecutor(int(sys.argv[2])) as ex:
    res = list(ex.map(check, cmds))
sys.stderr.write("".join(err for _, err in res))
sys.exit(1 if any(rc for rc, _ in res) else 0)
PY
}

if [ $syntax = 1 ]; then
	for cc in "${compilers[@]}"; do
		for type in Debug Release; do
			dir=build-types/syntax-$cc-$type
			if CC=$cc cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" \
				-DPMBENCH_ENABLE_WERROR=ON \
				-DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$dir.log" 2>&1 &&
				syntax_only "$dir" 2>>"$dir.log"; then
				result=ok
			else
				result="FAILED (see $dir.log)"
				status=1
			fi
			printf '%-6s %-15s %s\n' "$cc" "$type syntax" "$result"
		done
	done
	exit $status
fi
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
