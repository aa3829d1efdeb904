#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Fail when C files call each other in a circle.

Usage: check-cycles.py [--cflags FLAGS] FILE...

Each FILE is an object, or a C source that is compiled (-c, with FLAGS)
into a temporary directory first. File A depends on file B when A uses a
symbol that B defines (a call or a reference to its data), as nm reports
them. Prints every circle of files with the symbols that tie it, and exits
1 when there is one; 0 and one "ok" line when the files depend on each
other in one direction only.
"""
import os
import subprocess
import sys
import tempfile


def symbols(obj):
    defined, used = set(), set()
    out = subprocess.run(["nm", obj], check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        part = line.split()
        if len(part) == 2 and part[0] == "U":
            used.add(part[1])
        elif len(part) == 3 and part[1] in "TDRBCG":
            defined.add(part[2])
    return defined, used


def circles(nodes, edges):
    """Strongly connected components of more than one file (Tarjan, iterative)."""
    index, low, stack, on, found = {}, {}, [], set(), []
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def main(argv):
    cflags = []
    if len(argv) > 1 and argv[0] == "--cflags":
        cflags, argv = argv[1].split(), argv[2:]
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    tmp = tempfile.TemporaryDirectory()
    objs = {}
    for i, name in enumerate(argv):
        obj = name
        if name.endswith(".c"):
            obj = os.path.join(tmp.name, "%d.o" % i)
            subprocess.run(["cc", "-c", "-o", obj] + cflags + [name], check=True)
        objs[name] = obj
    defs, uses = {}, {}
    for name, obj in objs.items():
        d, uses[name] = symbols(obj)
        for sym in d:
            defs.setdefault(sym, []).append(name)
    edges = {name: {} for name in objs}
    for name in objs:
        for sym in uses[name]:
            for other in defs.get(sym, []):
                if other != name:
                    edges[name].setdefault(other, []).append(sym)
    bad = circles(list(objs), edges)
    for comp in bad:
        print("circle: %s" % ", ".join(comp))
        for a in comp:
            for b in comp:
                if b in edges[a]:
                    print("  %s -> %s: %s" % (a, b, ", ".join(sorted(edges[a][b]))))
    if bad:
        return 1
    print("ok %d files call each other in one direction only" % len(objs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
