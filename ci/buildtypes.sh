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
#   ci/buildtypes.sh [-j N] [--nice N] [--types T,...] [CC...]
#   ci/buildtypes.sh --syntax [-j N] [--nice N] [CC...]
#
# -j N: N compiler jobs at once (default: nproc). --nice N: every
# command at nice N (default 0), so that on a shared machine the builds
# yield to other work. --types: only these build types, comma-separated
# (default all four), to run one at a time. Each build's line gives its
# exit status, wall and CPU seconds (user+system of cmake and every
# compiler it ran, from /usr/bin/time when present) and the load average
# at its start and end.
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
usage() {
	echo "usage: ci/buildtypes.sh [--syntax] [-j N] [--nice N]" \
		"[--types T,...] [CC...]" >&2
	exit 129
}
syntax=0
jobs=$(nproc 2>/dev/null || echo 2)
niceness=0
types=(Debug Release RelWithDebInfo MinSizeRel)
while [ $# -gt 0 ]; do
	case $1 in
	--syntax) syntax=1 ;;
	-j[1-9]*)
		[[ ${1#-j} =~ ^[0-9]+$ ]] || usage
		jobs=${1#-j} ;;
	-j | --jobs)
		[[ ${2-} =~ ^[1-9][0-9]*$ ]] || usage
		jobs=$2
		shift ;;
	--nice)
		[[ ${2-} =~ ^-?[0-9]+$ ]] || usage
		niceness=$2
		shift ;;
	--types)
		[ -n "${2-}" ] || usage
		IFS=, read -r -a types <<<"$2"
		for t in "${types[@]}"; do
			case $t in
			Debug | Release | RelWithDebInfo | MinSizeRel) ;;
			*)
				echo "buildtypes: unknown build type '$t';" \
					"use Debug, Release, RelWithDebInfo or" \
					"MinSizeRel" >&2
				exit 129 ;;
			esac
		done
		shift ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
	shift
done
compilers=("$@")
[ ${#compilers[@]} -gt 0 ] || compilers=(gcc clang)
# The compilers, from Debian (clang is only needed here and in
# ci/fuzz.sh, not in ci/setup's list).
for cc in "${compilers[@]}"; do
	command -v "$cc" >/dev/null || "$top/ci/setup" --packages "$cc"
done
status=0
# Every command at the chosen niceness.
run() { nice -n "$niceness" "$@"; }
load() { cut -d' ' -f1 /proc/loadavg; }
mkdir -p build-types

# Each command of folder $1's compile_commands.json run with
# -fsyntax-only (its -o dropped), $jobs at once; its output on stderr,
# exit 1 if any failed.
syntax_only() {
	python3 - "$1" "$jobs" "$niceness" <<'PY'
import concurrent.futures, json, shlex, subprocess, sys
def check(c):
    a = shlex.split(c["command"])
    i = a.index("-o")
    del a[i:i + 2]
    r = subprocess.run(["nice", "-n", sys.argv[3]] + a + ["-fsyntax-only"],
                       cwd=c["directory"],
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
			if CC=$cc run cmake -S . -B "$dir" \
				-DCMAKE_BUILD_TYPE="$type" \
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
# /usr/bin/time's figures (GNU time: wall, user, system seconds) in a
# file of their own, so that the build's log stays the compiler's.
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -f '%e %U %S' -o)
for cc in "${compilers[@]}"; do
	for type in "${types[@]}"; do
		dir=build-types/$cc-$type
		t0=$(date +%s)
		l0=$(load)
		rm -f "$dir.time"
		if CC=$cc run cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE="$type" \
			-DPMBENCH_ENABLE_WERROR=ON >"$dir.log" 2>&1 &&
			{
				if [ ${#timer[@]} -gt 0 ]; then
					"${timer[@]}" "$dir.time" nice -n "$niceness" \
						cmake --build "$dir" -j"$jobs"
				else
					run cmake --build "$dir" -j"$jobs"
				fi
			} >>"$dir.log" 2>&1; then
			result="ok (rc 0)"
		else
			result="FAILED (rc $?, see $dir.log)"
			status=1
		fi
		wall=$(($(date +%s) - t0)) cpu=?
		if [ -s "$dir.time" ]; then
			# The last line: GNU time puts "Command exited with
			# non-zero status N" before it when the build failed.
			read -r _ u s < <(tail -n 1 "$dir.time")
			cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.0f", u + s }')
		fi
		printf '%-6s %-15s %s, %d s wall, %s s CPU, load %s-%s\n' \
			"$cc" "$type" "$result" "$wall" "$cpu" "$l0" "$(load)"
	done
done
exit $status
