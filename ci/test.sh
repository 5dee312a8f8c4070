#!/usr/bin/env bash
# The whole test suite (what .ci/run calls): build both flavours, then
# run every test in the normal build (the online ones use the real PMs
# against the npm registry, through the local mirror) and, at the same
# time, everything but the online, registry and benchmark-smoke tests
# under ASan and UBSan. The style check runs beside the builds.
#
#   ci/test.sh           the whole suite (about 8 minutes on 2 cores)
#   ci/test.sh --quick   the edit loop: the normal build, the unit tests
#                        and the integration tests that are neither
#                        online, registry, timing nor slow (under 2 min)
#
# Both ctest runs are started with -j4 (CTEST_JOBS): most tests wait on
# sleeps, child processes and the disk, not on the CPU. A resource spec
# gives each run one slot of "cores" per core, which the tests with the
# real PMs take (one each); the timing tests of a build run one at a
# time (tests/CMakeLists.txt says why). Each run's lines are prefixed
# with its build; the failures of both are listed at the end.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
jobs=${CTEST_JOBS:-4}
quick=0
case "${1:-}" in
--quick) quick=1 ;;
'') ;;
*)
	echo "usage: ci/test.sh [--quick]" >&2
	exit 2
	;;
esac

# One slot of "cores" per core, for ctest's --resource-spec-file.
resources=$(mktemp)
trap 'rm -f "$resources"' EXIT
printf '{ "version": { "major": 1, "minor": 0 },\n  "local": [ { "cores": [ { "id": "0", "slots": %d } ] } ] }\n' \
	"$(nproc 2>/dev/null || echo 2)" >"$resources"

stamp() { date +%s; }
t0=$(stamp)
phase() { # name start
	printf '== %s: %d s\n' "$1" $(($(stamp) - $2))
}

# The style check needs no build: beside the builds, its output kept.
style_log=$(mktemp)
trap 'rm -f "$resources" "$style_log"' EXIT
"$top/ci/style.sh" >"$style_log" 2>&1 &
style_pid=$!

if [ "$quick" = 1 ]; then
	"$top/ci/build.sh"
	phase "build (build/)" "$t0"
	t1=$(stamp)
	status=0
	ctest --test-dir build --output-on-failure -j"$jobs" \
		--resource-spec-file "$resources" \
		-LE "online|registry|timing|slow" || status=1
	phase "quick tests (build/)" "$t1"
	wait "$style_pid" || status=1
	cat "$style_log"
	phase "ci/test.sh --quick" "$t0"
	exit $status
fi

"$top/ci/build.sh" --asan
phase "builds (build/ and build-asan/)" "$t0"

# One ctest run in the background, its lines prefixed with `tag`; the
# exit status goes to `statusfile`.
run_ctest() { # tag statusfile ctest-args...
	local tag=$1 statusfile=$2
	shift 2
	{
		set +e
		ctest --output-on-failure -j"$jobs" \
			--resource-spec-file "$resources" "$@" 2>&1
		echo $? >"$statusfile"
	} | sed -u "s/^/[$tag] /"
}

t1=$(stamp)
normal_status=$(mktemp)
asan_status=$(mktemp)
trap 'rm -f "$resources" "$style_log" "$normal_status" "$asan_status"' EXIT
echo "== tests: build/ (every test) and build-asan/ (all but online, registry and bench), at once"
run_ctest build "$normal_status" --test-dir build &
normal_pid=$!
run_ctest asan "$asan_status" --test-dir build-asan -LE "online|registry|bench" &
asan_pid=$!
wait "$normal_pid" "$asan_pid" || true
phase "tests" "$t1"

status=0
echo "== style (ci/style.sh)"
wait "$style_pid" || status=1
cat "$style_log"
for r in "build:$normal_status" "build-asan:$asan_status"; do
	rc=$(cat "${r#*:}")
	if [ "${rc:-1}" != 0 ]; then
		echo "== ${r%%:*}: ctest failed (exit ${rc:-?}); its failures are listed above" >&2
		status=1
	fi
done
phase "ci/test.sh" "$t0"
exit $status
