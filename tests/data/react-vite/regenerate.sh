#!/bin/sh
# Rewrite package-lock.json for package.json here with npm and the npm
# registry, the way README.md describes. Needs npm 7 or later (npm 11
# still writes lockfileVersion 1). Uses a private HOME and cache under
# /tmp (the caller's ~/.npmrc is copied in, for its registry and CA file)
# and removes them afterwards.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/pmbench-react-vite.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir "$work/home" "$work/held" "$work/real"
if [ -f "$HOME/.npmrc" ]; then
	cp "$HOME/.npmrc" "$work/home/.npmrc"
fi
HOME=$work/home
npm_config_cache=$work/cache
export HOME npm_config_cache
set -- --package-lock-only --lockfile-version 1 --ignore-scripts \
	--omit-lockfile-registry-resolved --no-audit --no-fund

# 1. Every dependency held to the version package.json names ("^2.2.9"
#    becomes "2.2.9"): the versions that were current when the project
#    added them, as in the lockfile the project itself shipped.
node -e '
const fs = require("fs");
const pkg = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
for (const k of ["dependencies", "devDependencies"])
	for (const [name, range] of Object.entries(pkg[k] || {})) {
		const v = range.replace(/^[\^~]/, "");
		if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$/.test(v))
			throw new Error(name + ": cannot hold " + range);
		pkg[k][name] = v;
	}
fs.writeFileSync(process.argv[2], JSON.stringify(pkg, null, 2) + "\n");
' "$here/package.json" "$work/held/package.json"
(cd "$work/held" && npm install "$@")

# 2. The real package.json with that lockfile: npm keeps every locked
#    version (each satisfies its range) and writes the lockfile for it.
cp "$here/package.json" "$work/held/package-lock.json" "$work/real/"
(cd "$work/real" && npm install "$@")
cp "$work/real/package-lock.json" "$here/package-lock.json"
echo "wrote $here/package-lock.json with npm $(npm --version)"
