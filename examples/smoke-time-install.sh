#!/bin/sh
# Smoke test of time-install against the fake npm (tests/fakes/fakepm.c):
# a timed install that writes node_modules, a PM that leaves a process
# running (counted and stopped), and the usage error.
set -eu
bin=$1 fake=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" "$work/proj"
ln -s "$fake" "$work/bin/npm"
printf '{ "name": "smoke", "version": "1.0.0", "private": true }\n' \
	>"$work/proj/package.json"
export PATH="$work/bin:$PATH" FAKEPM_NPM_SLEEP_MS=50

out=$("$bin" "$work/proj" npm)
echo "$out"
case $out in
"npm 11.0.0-fake: "*" s, exit 0, tree RSS "*" MiB, 0 left running") ;;
*) echo "unexpected output" >&2; exit 1 ;;
esac
[ -f "$work/proj/node_modules/left-pad/package.json" ]

out=$(FAKEPM_NPM_MODE=leak "$bin" "$work/proj" npm)
echo "$out"
case $out in
*", exit 0, "*", 1 left running") ;;
*) echo "the leaked process was not counted" >&2; exit 1 ;;
esac

if "$bin" "$work/proj" no-such-pm 2>/dev/null; then
	echo "an unknown PM was accepted" >&2
	exit 1
fi
