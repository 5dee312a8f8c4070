#!/usr/bin/env python3
"""pmbench's C files drawn by what they take from each other.

A room is a .c file together with the header named after it (the one
beside it, or include/pmbench/NAME.h when one .c file alone bears the
name), or a header that no .c file is named after. Room A uses room B
when A names something that B alone defines outside every function: a
function or variable that is not static; in a header, also a macro, a
struct, union or enum with its body, an enum constant or a typedef. A
name A declares itself (a prototype, an extern, `struct x;`), defines
itself, or reaches through '.' or '->' is no use. A concern is the
folder of a room's .c file (src/engine/pm, src/util/fs, ...); a header
of no .c file belongs to the folder that defines most of what it
declares.

A circle is a set of rooms that use each other in a loop. Rooms stand on
floors, each one above the highest room it uses outside its own circle;
inside a circle they are stacked so that few uses run upwards (the room
that uses the fewest others of the circle lowest, and so on), and the
uses that still run from a lower floor to a higher one are the arrows
back up. The same is drawn of the concerns (a concern uses another when
one of its rooms does).

  ci/circles.py            the figures, and each circle with the names
                           that tie it
  ci/circles.py --uses     every use: A -> B: the names
  ci/circles.py --check    exit 1 when rooms of two concerns stand in one
                           circle (the test 'circles')

It reads the C files under src/ and include/ (those git tracks, and new
ones it does not ignore) as text,
with a lexer that knows comments, literals, braces and the preprocessor
lines it must skip; it follows no #if.
"""
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IDENT = re.compile(r"[A-Za-z_]\w*")
KEYWORDS = frozenset(
    """auto break case char const continue default do double else enum
    extern float for goto if inline int long register restrict return
    short signed sizeof static struct switch typedef union unsigned void
    volatile while _Bool _Thread_local _Static_assert _Noreturn _Alignas
    _Alignof _Atomic _Generic defined __attribute__""".split())
TAGS = ("struct", "union", "enum")


def source_files():
    """The C files under src/ and include/: those git tracks or would
    track, or, outside a git checkout, every one."""
    try:
        out = subprocess.run(["git", "-C", TOP, "ls-files", "--cached",
                              "--others", "--exclude-standard", "src",
                              "include"], check=True, capture_output=True,
                             text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        out = [os.path.relpath(os.path.join(d, n), TOP)
               for base in ("src", "include")
               for d, _, names in os.walk(os.path.join(TOP, base))
               for n in names]
    return sorted(f for f in out if f.endswith((".c", ".h")))


def strip(text):
    """`text` without comments and line continuations, each string or
    character literal left as an empty pair of its quotes."""
    text = text.replace("\\\n", " ")
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(" " + "\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text[i] in "\"'":
            q, j = text[i], i + 1
            while j < n and text[j] not in (q, "\n"):
                j += 2 if text[j] == "\\" else 1
            out.append(q + q)
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


class File:
    """What one file defines for others (`defined`), for itself
    (`local`), declares (`declared`) and uses (`used`)."""

    def __init__(self, text, header):
        self.defined, self.local = set(), set()
        self.declared, self.used = set(), set()
        types = set()  # macros, tags, enum constants, typedefs
        body = []
        for line in strip(text).split("\n"):
            m = re.match(r"\s*#\s*define\s+(\w+)(.*)", line)
            if m:
                types.add(m.group(1))
                self.used.update(IDENT.findall(m.group(2)))
            elif not re.match(r"\s*#", line):
                body.append(line)
        toks = re.findall(r"\w+|->|[<>=!]=|\S", "\n".join(body))
        for k, t in enumerate(toks):
            if IDENT.fullmatch(t) and (k == 0 or toks[k - 1] not in ".->"):
                self.used.add(t)
        self.top_level(toks, types)
        (self.defined if header else self.local).update(types)
        self.used -= KEYWORDS | self.declared

    def top_level(self, toks, types):
        """Walk the statements outside every function."""
        stmt, i = [], 0
        while i < len(toks):
            t = toks[i]
            stmt.append(t)
            if t == ";":
                self.statement(stmt, types)
                stmt = []
            elif t == "{":
                end = matching(toks, i)
                if is_function(stmt):
                    head = [x for x in stmt[:stmt.index("(")]
                            if IDENT.fullmatch(x) and x not in KEYWORDS]
                    if head:
                        where = self.local if "static" in stmt else \
                            self.defined
                        where.add(head[-1])
                    stmt = []
                else:
                    for k, x in enumerate(stmt[:-2]):
                        if x in TAGS and stmt[k + 2] == "{":
                            types.add(stmt[k + 1])
                    if "enum" in stmt:
                        enum_constants(toks[i + 1:end - 1], types)
                    stmt.append("}")
                i = end
                continue
            i += 1

    def statement(self, stmt, types):
        """A declaration or a definition of data at file scope."""
        if stmt[0] == "_Static_assert":
            return
        if len(stmt) == 3 and stmt[0] in TAGS:
            self.declared.add(stmt[1])  # struct x; an opaque handle
            return
        if stmt[0] == "typedef":
            k = stmt.index("(") if "(" in stmt else -1
            if k >= 0 and stmt[k + 1] == "*":
                types.add(stmt[k + 2])
            else:
                types.update([x for x in stmt if IDENT.fullmatch(x)][-1:])
            return
        decl = stmt[:stmt.index("=")] if "=" in stmt else stmt
        names = [x for x in decl if IDENT.fullmatch(x) and x not in KEYWORDS]
        if "extern" in stmt or ("(" in decl and decl[decl.index("(") + 1]
                                != "*" and "=" not in stmt):
            head = decl[:decl.index("(")] if "(" in decl else decl
            head = [x for x in head if IDENT.fullmatch(x)
                    and x not in KEYWORDS]
            self.declared.update(head[-1:])
            return
        if "}" in decl:  # struct x { ... } name;
            names = [x for x in decl[len(decl) - decl[::-1].index("}"):]
                     if IDENT.fullmatch(x)]
        if "[" in decl:
            cut = decl[:decl.index("[")]
            names = [x for x in cut if IDENT.fullmatch(x)
                     and x not in KEYWORDS]
        where = self.local if "static" in stmt else self.defined
        where.update(names[-1:])


def matching(toks, i):
    """The index after the brace that closes the one at `i`."""
    depth = 0
    for j in range(i, len(toks)):
        depth += {"{": 1, "}": -1}.get(toks[j], 0)
        if depth == 0:
            return j + 1
    return len(toks)


def is_function(stmt):
    """`stmt`, ending in '{', opens a function's body: parameters come
    before the brace (a struct's or an initialiser's come after it), and
    no '=' does."""
    return "(" in stmt and "=" not in stmt and stmt[0] != "typedef"


def enum_constants(inner, out):
    expect, depth = True, 0
    for t in inner:
        if t in "([":
            depth += 1
        elif t in ")]":
            depth -= 1
        elif t == "," and depth == 0:
            expect = True
            continue
        if expect and IDENT.fullmatch(t):
            out.add(t)
        expect = False


def house():
    """(rooms, uses, concern): every room, the names each use carries,
    and each room's concern."""
    files = source_files()
    c_files = defaultdict(list)
    for f in files:
        if f.endswith(".c"):
            c_files[os.path.basename(f)[:-2]].append(f)
    room = {}
    for f in files:
        stem = os.path.basename(f)[:-2]
        if f.endswith(".c"):
            room[f] = f
        elif f[:-2] + ".c" in c_files[stem]:
            room[f] = f[:-2] + ".c"
        elif f.startswith("include/") and len(c_files[stem]) == 1:
            room[f] = c_files[stem][0]
        else:
            room[f] = f
    where = defaultdict(set)  # name -> rooms defining it
    own, uses, declares = defaultdict(set), defaultdict(set), {}
    for f in files:
        with open(os.path.join(TOP, f), encoding="utf-8",
                  errors="replace") as fh:
            x = File(fh.read(), f.endswith(".h"))
        for name in x.defined:
            where[name].add(room[f])
        own[room[f]] |= x.defined | x.local
        uses[room[f]] |= x.used
        declares[f] = x.declared
    arrows = defaultdict(set)
    for r in sorted(uses):
        for name in uses[r] - own[r]:
            if len(where.get(name, ())) == 1:
                b = next(iter(where[name]))
                if b != r:
                    arrows[(r, b)].add(name)
    concern = {}
    for r in set(room.values()):
        if r.endswith(".c"):
            concern[r] = os.path.dirname(r)
            continue
        folders = Counter(os.path.dirname(next(iter(where[n])))
                          for n in declares.get(r, ())
                          if len(where.get(n, ())) == 1
                          and next(iter(where[n])).endswith(".c"))
        concern[r] = (folders.most_common(1)[0][0] if folders
                      else os.path.dirname(r))
    return sorted(set(room.values())), arrows, concern


def circles(nodes, edges):
    """Tarjan's strongly connected components, without recursion."""
    succ = defaultdict(list)
    for a, b in sorted(edges):
        succ[a].append(b)
    index, low, on, stack, out = {}, {}, set(), [], []
    for root in nodes:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        work = [(root, iter(succ[root]))]
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while not comp or comp[-1] != v:
                        comp.append(stack.pop())
                        on.discard(comp[-1])
                    out.append(sorted(comp))
            elif w not in index:
                index[w] = low[w] = len(index)
                stack.append(w)
                on.add(w)
                work.append((w, iter(succ[w])))
            elif w in on:
                low[v] = min(low[v], index[w])
    return out


def stack_up(left, edges):
    """The uses that run back up when the rooms of one circle are put on
    top of each other as Eades, Lin and Smyth order a graph to leave few
    arrows against the order: a room that uses none of the others left
    goes to the bottom, one that none of them uses to the top, else the
    one that uses the most and is used the least to the top."""
    top, bottom = [], []
    while left:
        moved = True
        while moved:
            moved = False
            for n in sorted(left):
                if not any((n, m) in edges for m in left if m != n):
                    bottom.append(n)
                    left.discard(n)
                    moved = True
                elif not any((m, n) in edges for m in left if m != n):
                    top.append(n)
                    left.discard(n)
                    moved = True
        if left:
            n = max(sorted(left), key=lambda n: sum(
                ((n, m) in edges) - ((m, n) in edges) for m in left))
            top.append(n)
            left.discard(n)
    order = top + bottom[::-1]  # from the top floor down
    rank = {n: k for k, n in enumerate(order)}
    return {(a, b) for (a, b) in edges
            if a in rank and b in rank and rank[a] > rank[b]}


def floors(nodes, edges):
    """(floors, arrows back up, circles) of the graph."""
    comps = circles(nodes, edges)
    back = set()
    for comp in comps:
        back |= stack_up(set(comp), edges)
    succ = defaultdict(list)
    for a, b in edges - back:
        succ[a].append(b)
    height = {}
    for n in nodes:  # the uses that do not run back up are acyclic
        work = [n]
        while work:
            v = work[-1]
            todo = [w for w in succ[v] if w not in height]
            if todo:
                work.extend(todo)
                continue
            work.pop()
            height[v] = 1 + max((height[w] for w in succ[v]), default=0)
    return max(height.values(), default=0), back, \
        [c for c in comps if len(c) > 1]


def main(argv):
    nodes, arrows, concern = house()
    edges = set(arrows)
    top, back, loops = floors(nodes, edges)
    mixed = [c for c in loops if len({concern[r] for r in c}) > 1]
    if "--check" in argv:
        for c in mixed:
            print("ci/circles.py: files of different concerns use each "
                  f"other in a loop: {', '.join(c)}; 'ci/circles.py' "
                  "names what ties it: move what one side takes to where "
                  "both can use it one way", file=sys.stderr)
        return 1 if mixed else 0
    if "--uses" in argv:
        for (a, b), names in sorted(arrows.items()):
            print(f"{a} -> {b}: {', '.join(sorted(names))}")
        return 0
    print(f"files: {len(nodes)} rooms on {top} floors, {len(edges)} uses, "
          f"{len(back)} back up; {len(loops)} circles, {len(mixed)} of them "
          "between concerns")
    for k, c in enumerate(loops, 1):
        print(f"circle {k}: {', '.join(c)}")
        for a in c:
            for b in c:
                if (a, b) in arrows:
                    names = sorted(arrows[(a, b)])
                    more = f", and {len(names) - 6} more" \
                        if len(names) > 6 else ""
                    print(f"  {a} -> {b}: {', '.join(names[:6])}{more}")
    cuses = defaultdict(set)
    for (a, b) in edges:
        if concern[a] != concern[b]:
            cuses[(concern[a], concern[b])].add(f"{a} -> {b}")
    cnodes = sorted(set(concern.values()))
    ctop, cback, cloops = floors(cnodes, set(cuses))
    print(f"concerns: {len(cnodes)} on {ctop} floors, {len(cuses)} uses, "
          f"{len(cback)} back up; {len(cloops)} circles")
    for a, b in sorted(cback):
        print(f"  back up {a} -> {b}: {'; '.join(sorted(cuses[(a, b)]))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
