#!/usr/bin/env bash
# Benchmark (not a test): time one fixed command with pmbench and with
# hyperfine in the same run, and print
#   - the ratio of pmbench's median to hyperfine's median, and
#   - pmbench's harness overhead: the wall time of the whole matrix divided
#     by the sum of the runs pmbench timed (priming and warm-ups included).
# The fixed command is the fake package manager from the test suite
# sleeping a set time (FAKEPM_NPM_SLEEP_MS, default 200 ms) and writing a
# small node_modules, so registry noise does not enter.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
runs=${RUNS:-10}
sleep_ms=${FAKEPM_NPM_SLEEP_MS:-200}
[ -x "$build/pmbench" ] && [ -x "$build/tests/fakepm" ] ||
	{ echo "build first: ci/build.sh" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "hyperfine missing: ci/setup" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/proj" "$work/home"
ln -s "$build/tests/fakepm" "$work/bin/npm"
printf '{ "name": "fixed", "version": "1.0.0", "private": true }\n' > "$work/proj/package.json"
export PATH="$work/bin:$PATH" HOME="$work/home" FAKEPM_NPM_SLEEP_MS=$sleep_ms
export PMBENCH_CACHE_DIR="$work/cache" PMBENCH_TOOLCHAIN_DIR="$work/none"

start=$(date +%s%N)
"$build/pmbench" bench --pm npm --scenario clean --runs "$runs" --warmup 1 \
	--no-progress --out "$work/pmbench.json" "$work/proj" >/dev/null 2>&1
end=$(date +%s%N)

(cd "$work/proj" && hyperfine -N --warmup 1 --runs "$runs" \
	--prepare "rm -rf $work/proj/node_modules $work/proj/package-lock.json" \
	--export-json "$work/hyperfine.json" "$work/bin/npm install" >/dev/null)

node - "$work/pmbench.json" "$work/hyperfine.json" "$start" "$end" "$sleep_ms" <<'JS'
const fs = require("fs");
const [pmPath, hfPath, start, end, sleepMs] = process.argv.slice(2);
const pm = JSON.parse(fs.readFileSync(pmPath, "utf8"));
const hf = JSON.parse(fs.readFileSync(hfPath, "utf8"));
const median = (a) => { const s = [...a].sort((x, y) => x - y); const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const cell = pm.cells.find((c) => c.pm === "npm");
const timed = cell.samples.filter((s) => !s.warmup && s.ok).map((s) => s.wall_s);
const all = cell.samples.reduce((t, s) => t + s.wall_s, 0);
const pmMedian = median(timed), hfMedian = hf.results[0].median;
const wall = (Number(end) - Number(start)) / 1e9;
// The priming install is one more run of the same command: count it once.
const timedSum = all + pmMedian;
console.log(`fixed command: fake npm install sleeping ${sleepMs} ms, ${timed.length} runs`);
console.log(`pmbench median   ${(pmMedian * 1e3).toFixed(2)} ms`);
console.log(`hyperfine median ${(hfMedian * 1e3).toFixed(2)} ms`);
console.log(`ratio of medians (pmbench / hyperfine): ${(pmMedian / hfMedian).toFixed(4)}`);
console.log(`harness overhead (matrix wall / sum of timed runs): ${(wall / timedSum).toFixed(3)}` +
	` (${wall.toFixed(2)} s / ${timedSum.toFixed(2)} s)`);
JS
