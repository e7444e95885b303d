#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""File-level dependency cycles within source folders.

For each folder given, builds the graph "file A uses a function or variable
defined in file B" over the folder's C files and prints its cycles (the
strongly connected components with more than one file), with the symbols of
each edge inside a cycle.

The graph is read from the object files of a build tree, not from the source
text: `nm` lists what each object defines and what it needs, so calls made by
macros from headers and functions stored in tables count, and static or
inline functions (which cannot be reached from another file) do not. The
build tree's compile_commands.json maps each source to its object.

    tools/file_cycles.py --build build cuda/mock ze/mock mock
    tools/file_cycles.py --build build --baseline tools/file_cycles.baseline \
        cuda/mock ze/mock mock

With --baseline FILE, exits 1 when a cycle is not contained in one of the
cycles the file allows (a new circle, or a file joining one), and says which
allowed cycles have shrunk so that the file can be tightened. The file holds
one allowed cycle per paragraph, a file name (relative to the source root) a
line; # starts a comment. --write-baseline FILE writes the current cycles in
that form.
"""

import argparse
import json
import os
import shlex
import subprocess
import sys


def object_of(entry):
    args = entry.get("arguments") or shlex.split(entry["command"])
    for i, arg in enumerate(args):
        if arg == "-o" and i + 1 < len(args):
            return os.path.join(entry["directory"], args[i + 1])
        if arg.startswith("-o") and len(arg) > 2:
            return os.path.join(entry["directory"], arg[2:])
    return None


def symbols(nm, obj):
    out = subprocess.run([nm, "-P", obj], check=True, capture_output=True,
                         text=True).stdout
    defined, needed = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            needed.add(name)
        elif kind in "TDBRVWGS" or kind in "vw":
            # Global (upper-case) and weak definitions; local ones (t, d,
            # b, r) cannot be reached from another file.
            defined.add(name)
    return defined, needed


def tarjan(nodes, edges):
    index, low, on_stack, stack, sccs = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        # Iterative: a deep call graph must not hit Python's recursion limit.
        work = [(v, iter(sorted(edges.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    advanced = True
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                scc = set()
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    scc.add(w)
                    if w == node:
                        break
                sccs.append(scc)

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sccs


def folder_graph(nm, files):
    """files: {source: object}. Returns (edges, reasons)."""
    defs, needs = {}, {}
    for src, obj in files.items():
        defs[src], needs[src] = symbols(nm, obj)
    owner = {}
    for src, names in defs.items():
        for name in names:
            owner.setdefault(name, src)
    edges, reasons = {}, {}
    for src, names in needs.items():
        for name in names:
            dst = owner.get(name)
            if dst is None or dst == src:
                continue
            edges.setdefault(src, set()).add(dst)
            reasons.setdefault((src, dst), set()).add(name)
    return edges, reasons


def read_baseline(path):
    """One allowed cycle per paragraph, one file a line; # starts a comment."""
    allowed, cycle = [], set()
    with open(path, encoding="utf-8") as f:
        for line in list(f) + [""]:
            line = line.split("#", 1)[0].strip()
            if line:
                cycle.add(line)
            elif cycle:
                allowed.append(frozenset(cycle))
                cycle = set()
    return allowed


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", required=True,
                        help="build tree with compile_commands.json")
    parser.add_argument("--source", default=None,
                        help="source root (default: this script's parent)")
    parser.add_argument("--nm", default="nm", help="the nm to use")
    parser.add_argument("--baseline", help="allowed cycles; exit 1 on others")
    parser.add_argument("--write-baseline", help="write the current cycles")
    parser.add_argument("--quiet", action="store_true",
                        help="print only what fails a --baseline check")
    parser.add_argument("folders", nargs="+")
    opts = parser.parse_args()

    root = os.path.realpath(opts.source or
                            os.path.join(os.path.dirname(__file__), ".."))
    db_path = os.path.join(opts.build, "compile_commands.json")
    try:
        with open(db_path, encoding="utf-8") as f:
            db = json.load(f)
    except OSError as e:
        sys.exit(f"file_cycles: cannot read {db_path}: {e.strerror} "
                 "(configure with CMAKE_EXPORT_COMPILE_COMMANDS=ON)")

    cycles = []
    for folder in opts.folders:
        folder = folder.rstrip("/")
        files = {}
        for entry in db:
            src = os.path.relpath(os.path.realpath(
                os.path.join(entry["directory"], entry["file"])), root)
            if os.path.dirname(src) != folder or not src.endswith(".c"):
                continue
            obj = object_of(entry)
            # A source built into several targets has the same symbols in
            # each: the first object stands for it.
            if obj and os.path.exists(obj) and src not in files:
                files[src] = obj
        if not files:
            sys.exit(f"file_cycles: no built C file of {folder} in {db_path}")
        edges, reasons = folder_graph(opts.nm, files)
        for scc in tarjan(files, edges):
            if len(scc) > 1:
                cycles.append((folder, scc, edges, reasons))

    if opts.write_baseline:
        with open(opts.write_baseline, "w", encoding="utf-8") as f:
            f.write("# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception\n"
                    "# Allowed file-level cycles (tools/file_cycles.py). "
                    "Shrink it; never grow it.\n")
            for _, scc, _, _ in sorted(cycles, key=lambda c: sorted(c[1])):
                f.write("\n" + "\n".join(sorted(scc)) + "\n")

    allowed = read_baseline(opts.baseline) if opts.baseline else None
    failed = False
    for folder, scc, edges, reasons in cycles:
        ok = allowed is not None and any(scc <= a for a in allowed)
        failed |= allowed is not None and not ok
        if opts.quiet and ok:
            continue
        label = "allowed cycle" if ok else "cycle"
        if allowed is not None and not ok:
            label = "NEW cycle (not in the baseline)"
        print(f"{folder}: {label} of {len(scc)} files")
        for src in sorted(scc):
            for dst in sorted(edges.get(src, ()) & scc):
                names = sorted(reasons[(src, dst)])
                more = f" and {len(names) - 3} more" if len(names) > 3 else ""
                print(f"  {os.path.basename(src)} -> {os.path.basename(dst)}:"
                      f" {', '.join(names[:3])}{more}")
    if allowed is not None:
        found = [scc for _, scc, _, _ in cycles]
        for a in allowed:
            if not any(scc == a for scc in found):
                print("baseline can shrink: no cycle is exactly "
                      + " ".join(sorted(a)))
    if not cycles:
        print("no cycles in " + ", ".join(opts.folders))
    else:
        total = sum(len(scc) for _, scc, _, _ in cycles)
        print(f"{len(cycles)} cycles, {total} files in them")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
