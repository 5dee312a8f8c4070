#!/usr/bin/env bash
# Check that every relative link in the project's Markdown resolves: the
# file or folder exists, and a #fragment names a heading of the target
# page (GitHub's anchors: lower case, punctuation dropped, spaces to
# hyphens, a -N suffix for a repeated heading). External links
# (http:, https:, mailto:) are not followed. Prints one line per broken
# link and exits 1 if there is any.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
git ls-files -z '*.md' | python3 -c '
import os, re, sys

def slugs(path, cache={}):
    if path not in cache:
        seen, out, fence = {}, set(), False
        for line in open(path, encoding="utf-8"):
            if line.startswith("```"):
                fence = not fence
            if fence:
                continue
            m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            s = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower())
            s = s.replace(" ", "-")
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else "%s-%d" % (s, n))
        cache[path] = out
    return cache[path]

link = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
bad = 0
for md in sys.stdin.read().split("\0"):
    if not md or md.startswith("cache/") and md != "cache/README.md":
        continue
    fence = False
    for no, line in enumerate(open(md, encoding="utf-8"), 1):
        if line.startswith("```"):
            fence = not fence
        if fence:
            continue
        for target in link.findall(re.sub(r"`[^`]*`", "", line)):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, frag = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
            if not os.path.exists(full):
                print("%s:%d: %s: no such file" % (md, no, target))
                bad += 1
            elif frag and full.endswith(".md") and frag not in slugs(full):
                print("%s:%d: %s: no such heading" % (md, no, target))
                bad += 1
sys.exit(1 if bad else 0)
'
