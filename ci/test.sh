#!/usr/bin/env bash
# The whole test suite: build the three flavours, run every test in the
# normal build (the online ones use the real npm and bun against the npm
# registry), then everything but the online tests under ASan and UBSan,
# then the tests of pmbench's threads (label `threads`: the registry
# front, the link relay, the per-thread error state) under
# ThreadSanitizer.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
"$top/ci/build.sh" --asan --tsan
status=0
echo "== style (ci/style.sh, ci/doclinks.sh)"
"$top/ci/style.sh" || status=1
"$top/ci/doclinks.sh" || status=1
echo "== tests (build/)"
ctest --test-dir build --output-on-failure -j2 || status=1
echo "== tests under ASan+UBSan (build-asan/, without the online ones)"
ctest --test-dir build-asan --output-on-failure -j2 -LE "online|registry" || status=1
echo "== tests of pmbench's threads under ThreadSanitizer (build-tsan/)"
ctest --test-dir build-tsan --output-on-failure -j2 -L threads || status=1
exit $status
