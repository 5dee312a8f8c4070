#!/usr/bin/env python3
# Benchmark (not a test): what emptying pmbench's trash costs on this
# machine's file system. For each size N in SIZES (files, default
# "50000 200000 600000") it makes a tree of N small files (folders of
# 100, 64 to 1,087 bytes each, like a node_modules), syncs, deletes it
# (`rm -rf`, timed: the delete rate), syncs again (as pmbench's trash
# does after a large deletion), then runs a control like pmbench's
# (copy a tree of 2,000 small files with `cp -r`, read it back) every
# GAP seconds (default 5) until 3 in a row are within 30 % of the
# reference measured before the deletion, as pmbench's fs-wait does
# (src/engine/measure/fswait.c), or until BOUND seconds (default 420).
# It prints per size: files, the delete's seconds and rate, the wait
# (seconds after the delete's sync until the third quiet control in a
# row ends, and when the first of them started), and the wait per million files. The control's copies are
# moved aside, never deleted, until the end (a deletion of its own would
# slow the file system it measures).
#
# Usage: ci/fswait-cost.py [DIR] (default /tmp/pmbench-fswait-cost; on
# the file system to measure: the one holding pmbench's cache/).
import os
import shutil
import statistics
import subprocess
import sys
import time

SIZES = [int(s) for s in os.environ.get("SIZES", "50000 200000 600000").split()]
GAP = float(os.environ.get("GAP", "5"))
BOUND = float(os.environ.get("BOUND", "420"))
MARGIN, IN_A_ROW = 0.30, 3


def make_tree(root, n, per_dir=100):
    """n small files in folders of per_dir."""
    os.makedirs(root)
    for i in range(n):
        d = os.path.join(root, "d%05d" % (i // per_dir))
        if i % per_dir == 0:
            os.mkdir(d)
        with open(os.path.join(d, "f%03d.js" % (i % per_dir)), "wb") as f:
            f.write(b"x" * (64 + (i * 37) % 1024))


def syncfs(path):
    subprocess.run(["sync", "-f", path], check=True)


class Control:
    def __init__(self, base):
        self.base = base
        self.tree = os.path.join(base, "control-tree")
        self.aside = os.path.join(base, "aside")
        os.makedirs(self.aside)
        make_tree(self.tree, 2000, 50)
        self.n = 0

    def run(self):
        """One control: its seconds (after a sync, as pmbench's)."""
        syncfs(self.base)
        copy = os.path.join(self.base, "copy")
        t0 = time.monotonic()
        subprocess.run(["cp", "-r", self.tree, copy], check=True)
        for d, _, files in os.walk(copy):
            for f in files:
                with open(os.path.join(d, f), "rb") as fh:
                    fh.read()
        s = time.monotonic() - t0
        self.n += 1
        os.rename(copy, os.path.join(self.aside, str(self.n)))
        return s


def measure(base, ctl, ref, n):
    victim = os.path.join(base, "victim")
    make_tree(victim, n)
    syncfs(base)
    t0 = time.monotonic()
    subprocess.run(["rm", "-rf", victim], check=True)
    syncfs(base)
    t1 = time.monotonic()
    row, first_quiet, end, controls = 0, None, None, []
    while time.monotonic() - t1 < BOUND:
        at = time.monotonic() - t1
        s = ctl.run()
        controls.append((round(at), round(s, 3)))
        if s <= ref * (1 + MARGIN):
            if row == 0:
                first_quiet = at
            row += 1
            if row == IN_A_ROW:
                end = time.monotonic() - t1
                break
        else:
            row = 0
        time.sleep(GAP)
    return t1 - t0, first_quiet, end, controls


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else "/tmp/pmbench-fswait-cost"
    if os.path.exists(base):
        sys.exit("fswait-cost: '%s' exists; remove it or name another" % base)
    os.makedirs(base)
    try:
        ctl = Control(base)
        ref = statistics.median(ctl.run() for _ in range(5))
        print("reference control: %.3f s; load: %s" %
              (ref, open("/proc/loadavg").read().split()[:3]), flush=True)
        for n in SIZES:
            del_s, quiet, end, controls = measure(base, ctl, ref, n)
            w = "%.0f s (quiet from %.0f s)" % (end, quiet) if end else \
                ">%.0f s" % BOUND
            per = "%.0f s" % (end / n * 1e6) if end else "-"
            print("%d files: deleted in %.1f s (%.0f files/s); wait %s; "
                  "%s per million files; controls (s after, s): %s" %
                  (n, del_s, n / del_s, w, per, controls), flush=True)
            # The next size starts on a quiet file system.
            time.sleep(5)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
