#!/usr/bin/env bash
# The style check (git's and curl's habit: the formatter decides, CI
# checks). Every tracked C file must be as .clang-format formats it.
#   ci/style.sh          check; lists the files that differ, exits 1
#   ci/style.sh --fix    rewrite them in place
# The layout differs between clang-format releases: the check pins the
# one Debian 12 ships (14), as ci/setup installs it. CLANG_FORMAT names
# another binary.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
cf=${CLANG_FORMAT:-}
if [ -z "$cf" ]; then
	for c in clang-format-14 clang-format; do
		command -v "$c" >/dev/null && { cf=$c; break; }
	done
fi
[ -n "$cf" ] || { echo "ci/style.sh: clang-format missing: run ci/setup" >&2; exit 1; }
major=$("$cf" --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
if [ "$major" != 14 ]; then
	echo "ci/style.sh: $cf is release ${major:-?}, the style is pinned to 14 (Debian 12's): set CLANG_FORMAT" >&2
	exit 1
fi
mapfile -t files < <(git ls-files '*.c' '*.h')
if [ "${1:-}" = --fix ]; then
	"$cf" -i "${files[@]}"
	exit 0
fi
bad=()
for f in "${files[@]}"; do
	"$cf" --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
	printf 'ci/style.sh: not formatted: %s\n' "${bad[@]}" >&2
	echo "ci/style.sh: fix with: ci/style.sh --fix" >&2
	exit 1
fi
echo "ci/style.sh: ${#files[@]} files formatted as .clang-format says"
