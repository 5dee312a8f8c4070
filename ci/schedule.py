#!/usr/bin/env python3
"""The suite's schedule, checked: the rules tests/CMakeLists.txt
(pmbench_schedule) sets, read back from what ctest would run.

  ci/schedule.py BUILD_DIR    prints every test that takes a resource
  ci/schedule.py --check BUILD_DIR
                              exits 1, naming the test, when one breaks
                              a rule:

- a test labelled timing takes half the slots of "quiet"
  (PMBENCH_QUIET_SLOTS in the build's CMakeCache.txt): at most two
  timing tests at once; one that also runs the real PMs (online,
  registry) takes every slot, beside no other timing test (issue 39);
- a test with the real PMs (online, registry) takes a slot of "quiet"
  and one of "cores";
- the label early (ci/test.sh runs those tests beside the sanitizer
  builds, in a ctest of their own before any timing test) is on the
  real PMs' tests that compare no times, and on no other test: a timing
  test never shares a ctest of ci/test.sh with the real PMs;
- the label twin (ci/test.sh leaves them to the sanitizer builds; only
  --full runs them) is on build/'s integration tests that ASan and
  UBSan also run, and on no other test;
- every program of the build that a test of the suite of every change
  runs (a test labelled neither nosan, twin nor full; the command's
  files inside the build folder) is one the target ci-suite builds
  (ci-suite-programs.txt, which the configure writes; ci/test.sh builds
  only that target).
"""
import json
import os
import subprocess
import sys


def tests(build):
    out = subprocess.run(["ctest", "--test-dir", build,
                          "--show-only=json-v1"], check=True,
                         capture_output=True, text=True).stdout
    for t in json.loads(out)["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        slots = {}
        for group in props.get("RESOURCE_GROUPS", []):
            for r in group["requirements"]:
                slots[r[".type"]] = slots.get(r[".type"], 0) + r["slots"]
        yield (t["name"], set(props.get("LABELS", [])), slots,
               props.get("RESOURCE_LOCK", []), props.get("COST", 0),
               t.get("command", []))


def quiet_slots(build, all_tests):
    """PMBENCH_QUIET_SLOTS of the build, or the most any test asks."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("PMBENCH_QUIET_SLOTS:"):
                    return int(line.split("=", 1)[1])
    except (OSError, ValueError):
        pass
    return max((s.get("quiet", 0) for _, _, s, _, _, _ in all_tests),
               default=0)


def broken(name, labels, slots, locks, quiet_max):
    real = bool(labels & {"online", "registry"})
    if "timing" in labels:
        want = quiet_max if real else quiet_max // 2
        if slots.get("quiet", 0) != want or not want:
            return ("labelled timing, takes %d of %d slots of quiet, not "
                    "%d: %s" % (slots.get("quiet", 0), quiet_max, want,
                                "it could run beside another timing test"
                                if real else "more or fewer than two "
                                "timing tests could run at once"))
    elif real and (not slots.get("quiet") or not slots.get("cores")):
        return "runs the real PMs without a slot of quiet and of cores"
    if ("early" in labels) != (real and "timing" not in labels):
        return ("labelled %s: early is for the real PMs' tests that "
                "compare no times" % ",".join(sorted(labels)))
    twin = ("integration" in labels and ":" not in name and
            not labels & {"online", "registry", "bench", "timing",
                          "browser"})
    if ("twin" in labels) != twin:
        return ("labelled %s: twin is for build/'s integration tests "
                "that the sanitizer builds also run" %
                ",".join(sorted(labels)))
    return None


def unbuilt(build, labels, command, suite):
    """What of the command ci/test.sh would not build, or None."""
    if suite is None or labels & {"nosan", "twin", "full"}:
        return None
    top = os.path.realpath(build) + os.sep
    for part in command:
        if not os.path.isabs(part):
            continue
        path = os.path.realpath(part)
        if path.startswith(top) and path not in suite:
            return ("runs %s, which the target ci-suite does not build "
                    "(tests/CMakeLists.txt, pmbench_suite_program)" % part)
    return None


def suite_programs(build):
    """The programs of ci-suite (a set of real paths), or None."""
    try:
        with open(os.path.join(build, "ci-suite-programs.txt")) as f:
            return {os.path.realpath(p) for p in f.read().split("\n")
                    if p}
    except OSError:
        return None


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if len(args) != 1:
        print("usage: ci/schedule.py [--check] BUILD_DIR", file=sys.stderr)
        return 2
    all_tests = list(tests(args[0]))
    quiet_max = quiet_slots(args[0], all_tests)
    suite = suite_programs(args[0])
    bad = 0
    for name, labels, slots, locks, cost, command in all_tests:
        why = (broken(name, labels, slots, locks, quiet_max) or
               unbuilt(args[0], labels, command, suite))
        if why:
            bad += 1
            print("%s: %s" % (name, why), file=sys.stderr)
        elif not check and slots:
            print("%-50s cost %6.0f %s" % (name, cost, slots))
    if bad:
        print("ci/schedule.py: %d test(s) break the schedule's rules "
              "(tests/CMakeLists.txt, pmbench_schedule)" % bad,
              file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
