#!/usr/bin/env bash
# Build pmbench (build/) and, with --asan, the sanitizer build
# (build-asan/); with --tsan, the ThreadSanitizer build (build-tsan/) of
# only what the tests labelled `threads` need (the registry front and the
# link relay run in threads of pmbench). Runs ci/setup first so a fresh
# machine has everything; with --no-toolchain, only its Debian packages
# (ci/test.sh installs the toolchain beside the builds); with
# --sanitizers-only, neither ci/setup nor build/, only the sanitizer
# builds asked for (ci/test.sh builds them beside the online tests).
# With --pmbench-only, build/ gets the pmbench program alone, not the
# tests (what a workflow's job runs). With --suite, build/ and
# build-asan/ get only the programs whose tests ci/test.sh (the suite of
# every change) runs there, the target ci-suite (tests/CMakeLists.txt):
# not build/'s integration tests left to the sanitizers (label twin),
# nor ASan's copies of the timing and real PM tests (nosan), nor the
# long suite's (full). build-tsan/ always gets only its own (the threads
# tests').
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
asan=0 tsan=0 setup=() main=1 target=() suite=()
for a in "$@"; do
	case $a in
	--asan) asan=1 ;;
	--tsan) tsan=1 ;;
	--no-toolchain) setup=(--no-toolchain) ;;
	--sanitizers-only) main=0 ;;
	--pmbench-only) target=(--target pmbench) ;;
	--suite) suite=(--target ci-suite) ;;
	*) echo "usage: ci/build.sh [--asan] [--tsan] [--no-toolchain] [--sanitizers-only] [--pmbench-only] [--suite]" >&2; exit 129 ;;
	esac
done
[ $main = 0 ] || "$top/ci/setup" "${setup[@]}"
jobs=$(nproc 2>/dev/null || echo 2)

# Configure build folder $1 with the rest, warnings as errors (CI's
# choice; a user's build keeps them warnings). A folder configured for
# another source tree (this tree moved or copied, build/ with it) is one
# CMake refuses: it holds only what the build makes, so it is made anew.
#
# A new folder gets Ninja where it is installed (ci/setup installs it):
# make's own steps (its recursion, a cmake -E per target and file) cost
# build/ 141 CPU-s to Ninja's 120 (the target ci-suite, -j2, load 7 to
# 15, 2026-12-06), the CPU the suite's first minutes are short of. A
# folder made before keeps its generator (CMake refuses a change).
configure() {
	local dir=$1 home gen=()
	shift
	home=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$dir/CMakeCache.txt" 2>/dev/null || true)
	if [ -n "$home" ] && [ "$(cd "$home" 2>/dev/null && pwd -P)" != "$(pwd -P)" ]; then
		echo "ci/build.sh: $dir/ was configured for $home (this tree was moved or copied): making it anew" >&2
		rm -rf "$dir"
	fi
	if [ ! -f "$dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then
		gen=(-G Ninja)
	fi
	cmake -S . -B "$dir" "${gen[@]}" -DPMBENCH_ENABLE_WERROR=ON "$@" >/dev/null
}

if [ $main = 1 ]; then
	configure build -DCMAKE_BUILD_TYPE=RelWithDebInfo
	[ ${#target[@]} != 0 ] || target=("${suite[@]}")
	cmake --build build -j"$jobs" "${target[@]}"
fi
if [ $asan = 1 ]; then
	# -O1, as ASan's own documentation advises (with
	# -fno-omit-frame-pointer, which PMBENCH_SANITIZE adds): Debug's -O0
	# keeps every local in memory, each access checked. Measured
	# (2026-12-06, the asan: tests but reuse_wait, -j4, load 5 to 14):
	# 425 CPU-s at -O0, 346 at -O1; the build's compiles 77 CPU-s at
	# -O0, 127 at -O1. A scratch program's heap, stack and
	# use-after-free overflows, leak, signed overflow, division by
	# zero, shift and null load: caught alike at both.
	configure build-asan -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_FLAGS_DEBUG=-g -O1" \
		-DPMBENCH_SANITIZE=ON
	cmake --build build-asan -j"$jobs" "${suite[@]}"
fi
if [ $tsan = 1 ]; then
	configure build-tsan -DCMAKE_BUILD_TYPE=Debug -DPMBENCH_SANITIZE_THREAD=ON
	# The programs of the `threads` tests, pmbench and the fakes: every
	# other test is nosan here (tests/CMakeLists.txt).
	cmake --build build-tsan -j"$jobs" --target ci-suite
fi
