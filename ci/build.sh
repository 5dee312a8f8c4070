#!/usr/bin/env bash
# Build pmbench (build/) and, with --asan, the sanitizer build
# (build-asan/). Runs ci/setup first so a fresh machine has everything.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
"$top/ci/setup"
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$jobs"
if [ "${1:-}" = --asan ]; then
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DPMBENCH_SANITIZE=ON >/dev/null
	cmake --build build-asan -j"$jobs"
fi
