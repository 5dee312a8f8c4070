#!/usr/bin/env bash
# Build pmbench (build/) and, with --asan, the sanitizer build
# (build-asan/); with --tsan, the ThreadSanitizer build (build-tsan/) of
# only what the tests labelled `threads` need (the registry front and the
# link relay run in threads of pmbench). Runs ci/setup first so a fresh
# machine has everything.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
asan=0 tsan=0
for a in "$@"; do
	case $a in
	--asan) asan=1 ;;
	--tsan) tsan=1 ;;
	*) echo "usage: ci/build.sh [--asan] [--tsan]" >&2; exit 129 ;;
	esac
done
"$top/ci/setup"
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs"
if [ $asan = 1 ]; then
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DPMBENCH_SANITIZE=ON >/dev/null
	cmake --build build-asan -j"$jobs"
fi
if [ $tsan = 1 ]; then
	cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DPMBENCH_SANITIZE_THREAD=ON >/dev/null
	# The programs of the `threads` tests (tests/CMakeLists.txt); the
	# integration test brings pmbench and the fakes.
	cmake --build build-tsan -j"$jobs" --target test_common test_mirror \
		test_registry test_link itest_registry
fi
