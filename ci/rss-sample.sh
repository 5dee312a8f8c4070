#!/usr/bin/env bash
# pmbench's own memory and its end, measured from outside (a benchmark,
# not a test): run the command given (pmbench and its arguments), read
# /proc/<its pid>/status every 100 ms, and print its peak RSS (VmHWM, the
# kernel's high-water mark of that one process, not its children's), the
# largest VmRSS seen, its wall time, and how long it ran after its last
# write to standard output (the table printed to the prompt back).
#
#   ci/rss-sample.sh build/pmbench bench --no-progress
#
# Standard output of the command goes to $OUT (default: a temp file), its
# standard error to $ERR; both are kept and named at the end.
set -u
if [ $# -lt 1 ]; then
	echo "usage: ci/rss-sample.sh COMMAND [ARG...]" >&2
	exit 129
fi
out=${OUT:-$(mktemp -t rss-sample-out.XXXXXX)}
err=${ERR:-$(mktemp -t rss-sample-err.XXXXXX)}
now() { date +%s.%N; }

start=$(now)
"$@" >"$out" 2>"$err" &
pid=$!
hwm=0 rss=0 size=-1 last_out=$start
while kill -0 "$pid" 2>/dev/null; do
	if [ -r "/proc/$pid/status" ]; then
		while read -r key val _; do
			case $key in
			VmHWM:) [ "$val" -gt "$hwm" ] && hwm=$val ;;
			VmRSS:) [ "$val" -gt "$rss" ] && rss=$val ;;
			esac
		done <"/proc/$pid/status" 2>/dev/null
	fi
	s=$(stat -c %s "$out" 2>/dev/null || echo 0)
	if [ "$s" != "$size" ]; then
		size=$s
		last_out=$(now)
	fi
	sleep 0.1
done
wait "$pid"
rc=$?
end=$(now)
awk -v hwm="$hwm" -v rss="$rss" -v s="$start" -v e="$end" -v l="$last_out" \
	-v rc="$rc" -v out="$out" -v err="$err" 'BEGIN {
	printf "exit %d; wall %.1f s; peak RSS (VmHWM) %.1f MB; " \
	       "largest VmRSS sampled %.1f MB\n", rc, e - s, hwm / 1024,
	       rss / 1024
	printf "last write to standard output to exit: %.1f s " \
	       "(100 ms resolution)\n", e - l
	printf "stdout: %s\nstderr: %s\n", out, err
}'
exit "$rc"
