#!/usr/bin/env python3
# Benchmark (not a test): how long file creation stays slow after a large
# deletion on this machine's file system, and whether syncing matters.
# It makes a control tree of 2,000 small files, times 5 probes for a
# reference, makes a tree of N small files (default 150000, folders of
# 100, 64 to 1,087 bytes each, like a node_modules), syncs, deletes it
# with `rm -rf` (timed), then every GAP s (15) for BOUND s (450) runs a
# probe: `cp -r` of the control tree, timed as wall time and as the cp's
# system CPU time (getrusage of the children), which other processes'
# load moves less than the wall. The kernel's cost of creating a file
# near recently freed inodes (ext4 without a journal, recently_deleted()
# in fs/ext4/ialloc.c) is system time of the process that creates it.
# SYNC=1 (the default) syncs the file system after the delete and before
# every probe, as pmb-deleter and pmbench's controls and runs do; SYNC=0
# syncs neither. Copies are moved aside, never deleted, until the end.
#
# Usage: [N=150000] [SYNC=1] ci/fswait-curve.py DIR (DIR must not exist;
# on the file system to measure: the one holding pmbench's cache/).
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

N = int(os.environ.get("N", "150000"))
SYNC = os.environ.get("SYNC", "1") != "0"
GAP = float(os.environ.get("GAP", "15"))
BOUND = float(os.environ.get("BOUND", "450"))


def tree(root, n, per=100):
    os.makedirs(root)
    for i in range(n):
        d = os.path.join(root, "d%05d" % (i // per))
        if i % per == 0:
            os.mkdir(d)
        with open(os.path.join(d, "f%03d.js" % (i % per)), "wb") as f:
            f.write(b"x" * (64 + (i * 37) % 1024))


def load():
    return open("/proc/loadavg").read().split()[0]


def main():
    base = sys.argv[1]
    os.makedirs(base)
    sync = lambda: subprocess.run(["sync", "-f", base], check=True)
    k = [0]

    def probe():
        if SYNC:
            sync()
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_stime
        t0 = time.monotonic()
        subprocess.run(["cp", "-r", os.path.join(base, "ctl"),
                        os.path.join(base, "copy")], check=True)
        w = time.monotonic() - t0
        s = resource.getrusage(resource.RUSAGE_CHILDREN).ru_stime - r0
        k[0] += 1
        os.rename(os.path.join(base, "copy"),
                  os.path.join(base, "aside", str(k[0])))
        return w, s

    try:
        os.makedirs(os.path.join(base, "aside"))
        tree(os.path.join(base, "ctl"), 2000, 50)
        sync()
        ref = [probe() for _ in range(5)]
        print("reference: wall %.3f s, sys %.3f s (medians of 5); load %s; "
              "sync %s" % (statistics.median(r[0] for r in ref),
                           statistics.median(r[1] for r in ref), load(),
                           "on" if SYNC else "off"), flush=True)
        tree(os.path.join(base, "victim"), N)
        sync()
        t0 = time.monotonic()
        subprocess.run(["rm", "-rf", os.path.join(base, "victim")],
                       check=True)
        if SYNC:
            sync()
        t1 = time.monotonic()
        print("deleted %d files in %.1f s" % (N, t1 - t0), flush=True)
        while time.monotonic() - t1 < BOUND:
            at = time.monotonic() - t1
            w, s = probe()
            print("%4.0f s: wall %.3f s, sys %.3f s; load %s" %
                  (at, w, s, load()), flush=True)
            time.sleep(GAP)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
