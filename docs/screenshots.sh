#!/bin/sh
# Make docs/terminal.png, docs/html-overview.png and docs/html-timeline.png
# (see docs/README.md).
#
#   docs/screenshots.sh            run the benchmark in tmux, then render
#   docs/screenshots.sh --render   render the captures kept in $OUT only
#   docs/screenshots.sh --timeline RESULT
#                                  only docs/html-timeline.png, from RESULT
#
# The benchmark runs the real package managers of the pinned toolchain
# (BENCH, below) in a detached tmux session of 100x45 characters; the
# screen is captured while the second scenario's bar is drawn and again
# at the end. Each capture is turned into a page (<pre>, the terminal's
# colours) and photographed by headless Chromium, as is the top of the
# HTML report of the same result. Needs tmux and chromium (ci/setup).
set -eu

cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/pmbench-screenshots}
BENCH=${BENCH:-"build/pmbench bench todo-api --pm npm,pnpm,bun \
--scenario clean,cache+lockfile --runs 3"}
mkdir -p "$OUT"

# The HTML report's "where the time went" of every scenario (the phases'
# stacked bars, their sentences, one run's request waterfall per PM), cut
# out of the report of $1 into a page of its own and photographed.
timeline() {
	build/pmbench report "$1" --format html --out "$OUT/timeline-full.html"
	awk '/^<\/head>/ { print; print "<body>"; head = 1; next }
	     !head { print; next }
	     /^<section><h2>[^<]* · [^<]* · [^<]*<\/h2>/ { print; next }
	     /^(<a id="phases"><\/a>)?<p class="cap">Where the time went/ { on = 1 }
	     on { print }
	     on && /class="chart waterfall"/ { fall = 1 }
	     on && fall && /^<\/svg>/ { on = fall = 0; print "</section>" }
	     END { print "</body></html>" }' \
		"$OUT/timeline-full.html" >"$OUT/timeline.html"
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--window-size=820,1020 \
		--screenshot="$PWD/docs/html-timeline.png" \
		"file://$OUT/timeline.html" 2>/dev/null
}

if [ "${1:-}" = --timeline ]; then
	timeline "${2:-$OUT/result.json}"
	echo "docs/html-timeline.png written"
	exit 0
fi

if [ "${1:-}" != --render ]; then
	tmux -L pmbench-shot new-session -d -s shot -x 100 -y 45 "sh"
	tmux -L pmbench-shot send-keys -t shot \
		"clear; $BENCH --out $OUT/result.json; echo DONE-SHOT" Enter
	# The second scenario's bar, once it is half done.
	until tmux -L pmbench-shot capture-pane -p -t shot |
		grep -Eq 'cache\+lockfile [█░]+ +[5-9][0-9]%'; do
		tmux -L pmbench-shot has-session -t shot || exit 1
		sleep 1
	done
	tmux -L pmbench-shot capture-pane -p -t shot >"$OUT/running.txt"
	until tmux -L pmbench-shot capture-pane -p -t shot |
		grep -q '^DONE-SHOT'; do
		tmux -L pmbench-shot has-session -t shot || exit 1
		sleep 2
	done
	tmux -L pmbench-shot capture-pane -p -t shot -S -300 >"$OUT/end.txt"
	tmux -L pmbench-shot kill-server
fi

# A capture as HTML: escaped, trailing blank lines dropped.
page() {
	printf '<!DOCTYPE html><meta charset="utf-8"><style>'
	printf 'body{margin:0;background:#1e1e2e}'
	printf 'pre{margin:0;padding:14px 18px;color:#e4e4ef;'
	printf 'font:14px/1.3 "DejaVu Sans Mono",monospace}'
	printf 'h2{margin:0;padding:8px 18px;color:#9aa0b4;'
	printf 'font:13px sans-serif;background:#2a2a3c}</style>\n'
	for f in "$@"; do
		printf '<h2>%s</h2><pre>' "$(basename "$f" .txt)"
		sed -e '/^DONE-SHOT$/d' -e 's/&/\&amp;/g' -e 's/</\&lt;/g' \
			-e 's/>/\&gt;/g' "$f" |
			awk 'NF { for (; blank > 0; blank--) print ""; print; next }
			     { blank++ }'
		printf '</pre>\n'
	done
}

# The end: from the first scenario's table on, not the whole scrollback.
sed -n '/^[a-z0-9-]* · [a-z]* · [a-z+_]*$/,$p' "$OUT/end.txt" |
	sed '/^package managers$/,$d' >"$OUT/end-tail.txt"
grep -v '^$' "$OUT/running.txt" >"$OUT/running-lines.txt" || true
cp "$OUT/running-lines.txt" "$OUT/running.txt"
page "$OUT/running.txt" "$OUT/end-tail.txt" >"$OUT/terminal.html"
lines=$(cat "$OUT/running.txt" "$OUT/end-tail.txt" | wc -l)
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--window-size=960,$((lines * 19 + 110)) \
	--screenshot="$PWD/docs/terminal.png" "file://$OUT/terminal.html" \
	2>/dev/null

build/pmbench report "$OUT/result.json" --format html \
	--out "$OUT/report.html"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--window-size=1000,820 --screenshot="$PWD/docs/html-overview.png" \
	"file://$OUT/report.html" 2>/dev/null
timeline "$OUT/result.json"
echo "docs/terminal.png, docs/html-overview.png, docs/html-timeline.png written"
