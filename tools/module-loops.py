#!/usr/bin/env python3
"""Finds import loops between the modules of each crate (issue 36).

    python3 tools/module-loops.py [--max N] [--why]

Each `.rs` file under a crate's `src/` is a module. A module uses another
when its code names a path into it: `use crate::a::b::C`, `super::x::f()`,
`self::y`, a `mod.rs`'s re-export followed to where the item is defined.
A loop is a set of two or more modules that use each other, directly or
round a circle (a strongly connected component); a parent declaring its
children (`mod x;`) is not a use. Tests (`#[cfg(test)] mod tests`, the
`tests/` folders) are left out.

Prints each loop, its files (with `--why`, each use inside it and the
paths that make it), and the count; exits 1 if there are more than
`--max` loops (default: no limit, a report).
"""
import pathlib
import re
import sys

CRATES = {"foodweb": "src", "foodweb_netcode": "netcode/src", "foodweb_rules": "rules/src"}

USE_RE = re.compile(r"\buse\s+([^;]+);", re.S)
PATH_RE = re.compile(r"\b((?:crate|super|self)(?:::[A-Za-z_][A-Za-z0-9_]*)+)")
REEXPORT_RE = re.compile(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", re.S)


def strip(text):
    """Code without comments, strings and test modules."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'r#*"(?:.|\n)*?"#*', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    # A test module at the end of a file (the project's habit).
    m = re.search(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text)
    if m:
        text = text[: m.start()]
    return text


def expand(tree):
    """`a::{b, c::{d as e, f}}` -> ["a::b", "a::c::d", "a::c::f"]."""
    tree = re.sub(r"\s+as\s+[A-Za-z_][A-Za-z0-9_]*", "", tree)
    tree = re.sub(r"\s+", "", tree)
    out = []

    def walk(prefix, s):
        depth, start, parts = 0, 0, []
        for i, ch in enumerate(s):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                parts.append(s[start:i])
                start = i + 1
        parts.append(s[start:])
        for p in parts:
            if not p:
                continue
            if "{" in p:
                head, rest = p.split("{", 1)
                walk(prefix + head, rest[:-1])
            else:
                out.append(prefix + p)

    walk("", tree)
    return out


class Crate:
    def __init__(self, name, root):
        self.name, self.root = name, pathlib.Path(root)
        self.files = {}  # module path tuple -> file
        for f in sorted(self.root.rglob("*.rs")):
            rel = f.relative_to(self.root).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] in ("mod", "lib", "main"):
                parts = parts[:-1]
            if parts and parts[0] == "bin":
                continue
            self.files[tuple(parts)] = f
        self.text = {m: strip(f.read_text(encoding="utf-8")) for m, f in self.files.items()}
        self.reexports = {m: self._reexports(m) for m in self.files}

    def _reexports(self, module):
        """Names a module re-exports, and the path each comes from."""
        out = {}
        for tree in REEXPORT_RE.findall(self.text[module]):
            for path in expand(tree):
                name = path.split("::")[-1]
                if name in ("*", "self"):
                    continue
                out[name] = path
        return out

    def absolute(self, module, path):
        """A `crate::`/`super::`/`self::` path from `module`, as segments."""
        segs = path.split("::")
        base = list(module)
        if segs[0] == "crate":
            base, segs = [], segs[1:]
        else:
            while segs and segs[0] in ("super", "self"):
                if segs[0] == "super":
                    base = base[:-1]
                segs = segs[1:]
        return base + segs

    def resolve(self, segs, hops=0):
        """The module a path's item lives in (longest module prefix, then
        through a re-export of that module)."""
        for k in range(len(segs), -1, -1):
            prefix = tuple(segs[:k])
            if prefix in self.files:
                rest = segs[k:]
                if rest and hops < 8 and rest[0] in self.reexports[prefix]:
                    target = self.absolute(prefix, self.reexports[prefix][rest[0]])
                    if target[: len(prefix)] != list(prefix) or len(target) > len(prefix) + 1:
                        return self.resolve(target + rest[1:], hops + 1)
                return prefix
        return None

    def edges(self, why=None):
        graph = {m: set() for m in self.files}
        for m, text in self.text.items():
            paths = set(PATH_RE.findall(text))
            for tree in USE_RE.findall(text):
                for p in expand(tree):
                    if p.split("::")[0] in ("crate", "super", "self"):
                        paths.add(p)
            for p in paths:
                target = self.resolve(self.absolute(m, p))
                if target is not None and target != m:
                    graph[m].add(target)
                    if why is not None:
                        why.setdefault((m, target), set()).add(p)
        return graph


def loops(graph):
    """Strongly connected components of two or more (Tarjan)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    limit = None
    show = "--why" in sys.argv
    if "--max" in sys.argv:
        limit = int(sys.argv[sys.argv.index("--max") + 1])
    total = 0
    for name, root in CRATES.items():
        crate = Crate(name, root)
        why = {}
        for comp in loops(crate.edges(why)):
            total += 1
            files = [str(crate.files[m]) for m in comp]
            print(f"loop {total} ({name}, {len(files)} files): " + ", ".join(files))
            if show:
                for (a, b), paths in sorted(why.items()):
                    if a in comp and b in comp:
                        names = ", ".join(sorted(paths))
                        print(f"    {'::'.join(a)} -> {'::'.join(b)}: {names}")
    print(f"{total} module loops")
    if limit is not None and total > limit:
        print(f"more than {limit}: break the loops above (issue 36)")
        sys.exit(1)


if __name__ == "__main__":
    main()
