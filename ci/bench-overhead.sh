#!/usr/bin/env bash
# Benchmark (not a test): what pmbench adds to every sample. One fixed
# command, the fake package manager from the test suite sleeping a set
# time and writing a small node_modules, timed by pmbench and by
# `hyperfine -N` doing exactly the same work: a warm cache, no lockfile,
# no node_modules (pmbench's "cache" scenario; hyperfine's --prepare
# removes what the last run wrote, its cache stays warm).
#
# For each sleep (SLEEPS, default "5 20 200" ms) it runs REPS blocks
# (default 5) of RUNS timed runs (default 10) with each tool, the blocks
# interleaved and the order of the tools rotating, so that the machine's
# noise hits all alike. It prints, per sleep: each tool's median over all
# its runs with the spread of its block medians (min..max), pmbench's
# difference to hyperfine (the median of the per-block differences of
# the medians, with their min..max), and pmbench's harness overhead (the
# wall time of its invocations divided by the sum of the runs it timed,
# priming and warm-ups included). BUILD (default build/) gives the fake,
# PMBENCH (default $BUILD/pmbench) the binary measured; PMBENCH_BASE, if
# set, is another pmbench (an older build, say) timed in the same blocks
# and reported on its own rows: a before/after under the same noise.
# The fake stamps its own start and end ($FAKEPM_STAMPS), so the last
# column is each tool's share of the timed window itself (its wall time
# less the fake's own time, medians): spawn, exec, the wait for the exit.
#
# The fake fetches nothing, so pmbench runs with --registry live (no
# mirror to start), and with --no-fs-wait: the drift control's copies
# fill the trash, and on a journal-less ext4 every block would otherwise
# wait out the inode reuse delay (minutes) before its first run. A
# failed pmbench or hyperfine stops the script with its output.
#
# --smoke: two blocks of 2 runs at 5 ms (the second block meets what the
# first left behind), then checks that the table was printed with a
# number in every column; CI runs it (ci/test.sh, through ctest:
# bench_overhead_smoke, with a timeout) so that a new default cannot
# silently break the benchmark.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
smoke=0
if [ "${1:-}" = --smoke ]; then
	smoke=1
	RUNS=2 REPS=2 SLEEPS=5
elif [ $# -gt 0 ]; then
	echo "usage: ci/bench-overhead.sh [--smoke]" >&2
	exit 2
fi
build=${BUILD:-$top/build}
pmbench=${PMBENCH:-$build/pmbench}
runs=${RUNS:-10}
reps=${REPS:-5}
sleeps=${SLEEPS:-5 20 200}
[ -x "$pmbench" ] && [ -x "$build/tests/fakepm" ] ||
	{ echo "build first: ci/build.sh" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "hyperfine missing: ci/setup" >&2; exit 1; }
command -v node >/dev/null || { echo "node missing: ci/setup" >&2; exit 1; }

work=$(mktemp -d)
# pmbench's deleter may still be emptying a work folder's trash in the
# background when the script ends: wait for it (pmbench wait), or the rm
# races it and leaves $work behind in /tmp.
cleanup() {
	for d in "$work"/cache-*; do
		[ ! -d "$d" ] || PMBENCH_CACHE_DIR="$d" "$pmbench" wait >/dev/null 2>&1 || true
	done
	rm -rf "$work" || true
}
trap cleanup EXIT
mkdir -p "$work/bin" "$work/proj" "$work/home" "$work/out" "$work/tmp"
# The fake leaves a file in its temp folder at every start, as real PMs
# do: /tmp when TMPDIR is unset. pmbench gives it a temp folder of its
# own; hyperfine gets $work/tmp (below). The tag names any file that
# still reaches /tmp, which the end checks (the hyperfine side had left
# 6 in /tmp per smoke run, 60 on this machine in a day).
export FAKEPM_TAG="bench-overhead-$$"
ln -s "$build/tests/fakepm" "$work/bin/npm"
printf '{ "name": "fixed", "version": "1.0.0", "private": true }\n' > "$work/proj/package.json"
export PATH="$work/bin:$PATH" HOME="$work/home"
export PMBENCH_TOOLCHAIN_DIR="$work/none"

# A tool that failed: its output, then stop (never a table without it).
failed() { # what log
	echo "bench-overhead: $1 failed:" >&2
	tail -n 40 "$2" >&2
	exit 1
}

run_pmbench() { # tag binary sleep rep
	local start end log="$work/out/$1-$3-$4.log"
	start=$(date +%s%N)
	PMBENCH_CACHE_DIR="$work/cache-$1" FAKEPM_NPM_SLEEP_MS=$3 \
		FAKEPM_STAMPS="$work/out/$1-$3-$4.stamps" "$2" bench \
		--pm npm --scenario cache --runs "$runs" --warmup 1 --no-progress \
		--registry live --no-fs-wait \
		--out "$work/out/$1-$3-$4.json" "$work/proj" >"$log" 2>&1 ||
		failed "$2 bench (sleep $3 ms, block $4)" "$log"
	end=$(date +%s%N)
	echo "$start $end" > "$work/out/$1-$3-$4.wall"
}

run_hyperfine() { # sleep rep
	local log="$work/out/hf-$1-$2.log"
	# A copy of its own, so that its lockfile never reaches pmbench's.
	rm -rf "$work/hf"
	cp -r "$work/proj" "$work/hf"
	(cd "$work/hf" && FAKEPM_NPM_SLEEP_MS=$1 TMPDIR="$work/tmp" \
		FAKEPM_STAMPS="$work/out/hf-$1-$2.stamps" hyperfine -N --warmup 1 \
		--runs "$runs" --prepare "rm -rf $work/hf/node_modules $work/hf/package-lock.json" \
		--export-json "$work/out/hf-$1-$2.json" "$work/bin/npm install" >"$log" 2>&1) ||
		failed "hyperfine (sleep $1 ms, block $2)" "$log"
}

# The machine's state, before and after: load and CPU/IO pressure.
conditions() {
	local psi=""
	for r in cpu io; do
		[ -r /proc/pressure/$r ] &&
			psi="$psi, $r pressure $(awk '/^some/ { sub("avg10=", "", $2); print $2 "%" }' /proc/pressure/$r)"
	done
	echo "$1: load $(cut -d' ' -f1-3 /proc/loadavg)$psi" >> "$work/out/conditions"
}
conditions before

tools=(pm hf)
[ -n "${PMBENCH_BASE:-}" ] && tools=(pm base hf)
for rep in $(seq 1 "$reps"); do
	for ms in $sleeps; do
		# Rotate the order: each tool goes first in turn.
		for k in "${!tools[@]}"; do
			case ${tools[(k + rep - 1) % ${#tools[@]}]} in
			pm) run_pmbench pm "$pmbench" "$ms" "$rep" ;;
			base) run_pmbench base "$PMBENCH_BASE" "$ms" "$rep" ;;
			hf) run_hyperfine "$ms" "$rep" ;;
			esac
		done
	done
done

conditions after
cat "$work/out/conditions"
node - "$work/out" "$reps" "$runs" $sleeps <<'JS' | tee "$work/out/table"
const fs = require("fs");
const [dir, reps, runs, ...sleeps] = process.argv.slice(2);
const median = (a) => { const s = [...a].sort((x, y) => x - y); const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const ms = (x) => (x * 1e3).toFixed(2);
const spread = (a) => `${ms(Math.min(...a))}..${ms(Math.max(...a))}`;
// A column padded to its width, and never run into the next one.
const col = (s, w) => s.padEnd(w - 1) + " ";
const read = (p) => JSON.parse(fs.readFileSync(`${dir}/${p}`, "utf8"));
// The fake's own times, seconds, the last n of a file of "start end" ns.
const own = (p, n) => fs.readFileSync(`${dir}/${p}`, "utf8").trim().split("\n")
	.map((l) => l.split(" ").map(Number)).map(([a, b]) => (b - a) / 1e9).slice(-n);
console.log(`fake npm install (warm cache, no lockfile, no node_modules), ` +
	`${reps} interleaved blocks of ${runs} runs per tool`);
const tags = fs.existsSync(`${dir}/base-${sleeps[0]}-1.json`) ? ["pm", "base"] : ["pm"];
console.log("sleep  pmbench     median (blocks)        hyperfine median (blocks)      " +
	"difference (blocks)      overhead  in-window share (pmbench / hyperfine)");
for (const sleep of sleeps) {
	for (const tag of tags) {
		const pmAll = [], hfAll = [], pmMed = [], hfMed = [], diffs = [];
		const pmGap = [], hfGap = [];
		let wall = 0, timed = 0;
		for (let r = 1; r <= Number(reps); r++) {
			const cell = read(`${tag}-${sleep}-${r}.json`).cells.find((c) => c.pm === "npm");
			const pm = cell.samples.filter((s) => !s.warmup && s.ok).map((s) => s.wall_s);
			const hf = read(`hf-${sleep}-${r}.json`).results[0].times;
			pmAll.push(...pm); hfAll.push(...hf);
			const po = own(`${tag}-${sleep}-${r}.stamps`, pm.length);
			const ho = own(`hf-${sleep}-${r}.stamps`, hf.length);
			pmGap.push(...pm.map((x, i) => x - po[i]));
			hfGap.push(...hf.map((x, i) => x - ho[i]));
			pmMed.push(median(pm)); hfMed.push(median(hf));
			diffs.push(median(pm) - median(hf));
			const [start, end] = fs.readFileSync(`${dir}/${tag}-${sleep}-${r}.wall`, "utf8")
				.trim().split(" ").map(Number);
			wall += (end - start) / 1e9;
			// The priming install is one more run of the same command.
			timed += cell.samples.reduce((t, s) => t + s.wall_s, 0) + median(pm);
		}
		const pm = median(pmAll), hf = median(hfAll);
		console.log(`${String(sleep).padStart(3)} ms ${tag === "pm" ? "PMBENCH " : "BASE    "}` +
			col(`${ms(pm).padStart(7)} ms (${spread(pmMed)})`, 31) +
			col(`${ms(hf).padStart(7)} ms (${spread(hfMed)})`, 31) +
			col(`${ms(median(diffs)).padStart(6)} ms (${spread(diffs)})`, 25) +
			col(`${(wall / timed).toFixed(3)}`, 10) +
			`${ms(median(pmGap))} / ${ms(median(hfGap))} ms`);
	}
}
JS

# Nothing of the fake's left in /tmp (cleanup removes $work).
leaked=$(find /tmp -maxdepth 1 -name "pmbench-fakepm-$FAKEPM_TAG-*" 2>/dev/null)
if [ -n "$leaked" ]; then
	echo "bench-overhead: the fake left files in /tmp (a tool ran it without a temp folder):" >&2
	echo "$leaked" >&2
	echo "$leaked" | xargs rm -f
	exit 1
fi

# The smoke check: the header, then a row for each sleep and tool whose
# six columns are numbers (a NaN or an empty block would not be).
if [ "$smoke" = 1 ]; then
	num='-?[0-9]+\.[0-9]+'
	row="^ +5 ms PMBENCH +$num ms \($num\.\.$num\) +$num ms \($num\.\.$num\) +$num ms \($num\.\.$num\) +$num +$num / $num ms\$"
	grep -q '^sleep  pmbench' "$work/out/table" &&
		grep -Eq "$row" "$work/out/table" ||
		{ echo "bench-overhead: --smoke: no table row for 5 ms" >&2; exit 1; }
fi
trap - EXIT
cleanup
if [ -e "$work" ]; then
	echo "bench-overhead: $work is left behind: $(find "$work" | head -n 5 | tr '\n' ' ')" >&2
	exit 1
fi
[ "$smoke" = 0 ] || echo "bench-overhead: --smoke: ok"
