#!/usr/bin/env bash
# Fuzz the readers of user files with libFuzzer (tests/fuzz/, README.md
# "Fuzzing"): configure build-fuzz/ with clang and -DPMBENCH_FUZZ=ON, then
# run each target for SECONDS (default 600), one after the other, over a
# copy of its committed corpus (build-fuzz/corpus/<name>/), and print per
# target the runs, the coverage and any finding (the crashing input is
# kept in build-fuzz/findings/<name>/). Exits 1 if any target found one.
#
#   ci/fuzz.sh [--merge] [SECONDS] [TARGET...]
#
# --merge adds to tests/fuzz/corpus/<name>/ the inputs of the run that
# reach new edges (libFuzzer's -merge=1), to be reviewed and committed.
# Not part of ci/test.sh: the normal CI replays the corpus without clang.
# The machine is shared: run it as 'nice -n 19 ci/fuzz.sh'.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

merge=0
if [ "${1:-}" = --merge ]; then
	merge=1
	shift
fi
seconds=${1:-600}
case "$seconds" in
''|*[!0-9]*) echo "usage: ci/fuzz.sh [--merge] [SECONDS] [TARGET...]" >&2
	exit 129 ;;
esac
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
	targets=(fixture result migrate claim package_json numbers text pmtimer
		pmversion)
fi

# clang and its libFuzzer runtime, only needed here.
"$top/ci/setup" --packages clang libclang-rt-14-dev
runtime=$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a)
if [ ! -f "$runtime" ]; then
	echo "ci/fuzz.sh: clang has no libFuzzer runtime (Debian: libclang-rt-14-dev)" >&2
	exit 1
fi

build=$top/build-fuzz
CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DPMBENCH_FUZZ=ON >/dev/null
for t in "${targets[@]}"; do
	cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)" \
		--target "fuzz_$t" >/dev/null
done

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export LSAN_OPTIONS=suppressions=$top/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# fuzz_package_json writes its input to files: on tmpfs it runs about
# three times faster. A private folder, removed at the end.
shm=/dev/shm
[ -d "$shm" ] && [ -w "$shm" ] || shm=$build
TMPDIR=$(mktemp -d "$shm/pmbench-fuzz.XXXXXX")
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT
status=0
summary=()
for t in "${targets[@]}"; do
	seeds=$top/tests/fuzz/corpus/$t
	corpus=$build/corpus/$t
	findings=$build/findings/$t
	log=$build/fuzz-$t.log
	dict=()
	[ -f "$top/tests/fuzz/$t.dict" ] && dict=(-dict="$top/tests/fuzz/$t.dict")
	mkdir -p "$corpus" "$findings"
	cp -n "$seeds"/* "$corpus"/ 2>/dev/null || true
	echo "== fuzz_$t for ${seconds}s (log: $log)"
	rc=0
	"$build/tests/fuzz/fuzz_$t" "${dict[@]}" -max_total_time="$seconds" \
		-timeout=30 -print_final_stats=1 \
		-artifact_prefix="$findings/" "$corpus" >"$log" 2>&1 || rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	cov=$(grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*/[0-9A-Za-z]*' "$log" |
		tail -1)
	line="fuzz_$t: ${runs:-?} runs, ${cov:-no coverage line}"
	if [ $rc -ne 0 ]; then
		status=1
		line="$line, FINDING (exit $rc): $(ls -t "$findings" | head -1)"
		grep -m1 -E 'ERROR:|runtime error|^fuzz:' "$log" >&2 || true
	else
		line="$line, no finding"
	fi
	echo "$line"
	summary+=("$line")
	if [ $merge = 1 ] && [ $rc -eq 0 ]; then
		# New edges only (no hit counts), so the corpus stays small.
		"$build/tests/fuzz/fuzz_$t" -merge=1 -use_counters=0 \
			"$seeds" "$corpus" >"$build/merge-$t.log" 2>&1
		added=$(grep -o 'MERGE-OUTER: [0-9]* new files' \
			"$build/merge-$t.log" | tail -1)
		echo "   merged into tests/fuzz/corpus/$t: ${added#MERGE-OUTER: }"
	fi
done
echo "== summary"
printf '%s\n' "${summary[@]}"
exit $status
