#!/usr/bin/env python3
"""Structure checks for the Rust crates (run by run_tests.sh):

1. No import circles: no two modules (source files) of a crate use each other, directly or
   through others. A module "uses" another when it names it by path (`crate::a::b`,
   `super::x`, `self::x`, or a child module declared in it, `child::item`). Re-exports
   (`pub use`) are namespace plumbing, not uses: a path through a re-export counts as a use of
   the module the item comes from.
2. No source file under rust/*/src longer than MAX_LINES lines.

Usage: tools/check_structure.py [--graph]   (exit status 1 and a report when a check fails)
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_LINES = 800


def module_files(src):
    """Maps module path tuples to files: () is lib.rs, ('a','b') is a/b.rs or a/b/mod.rs."""
    mods = {}
    for dirpath, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), src)
            parts = rel[:-3].split(os.sep)
            if parts == ["lib"]:
                parts = []
            elif parts[-1] == "mod":
                parts = parts[:-1]
            mods[tuple(parts)] = os.path.join(dirpath, f)
    return mods


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line.split("//")[0] if '"' not in line else re.sub(r"^\s*//.*", "", line)
                     for line in text.splitlines())


def expand_use(body):
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e']."""
    body = body.strip()
    m = re.match(r"^(.*?)\{(.*)\}$", body, flags=re.S)
    if not m:
        return [re.sub(r"\s+as\s+\w+$", "", body).strip()]
    prefix, inner = m.group(1), m.group(2)
    items, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    items.append(cur)
    out = []
    for it in items:
        if it.strip():
            out += [prefix + p for p in expand_use(it)]
    return out


PUB_USE = r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);"


def reexports(mod, text):
    """Names a module re-exports (`pub use`) -> the module path they come from."""
    names = {}
    for m in re.finditer(PUB_USE, text, flags=re.S):
        for path in expand_use(m.group(1)):
            path = re.sub(r"\s+as\s+\w+$", "", path).replace(" ", "")
            segs = [s for s in path.split("::") if s]
            if segs and segs[0] == "crate":
                segs = segs[1:]
            elif segs and segs[0] in ("self", "super"):
                base = list(mod)
                while segs and segs[0] in ("super", "self"):
                    if segs[0] == "super":
                        base = base[:-1]
                    segs = segs[1:]
                segs = base + segs
            else:
                segs = list(mod) + segs
            if len(segs) >= 2:
                names[segs[-1]] = tuple(segs[:-1])
    return names


def crate_graph(src):
    mods = module_files(src)
    texts = {m: strip_comments(open(p, encoding="utf-8").read()) for m, p in mods.items()}
    reexp = {m: reexports(m, t) for m, t in texts.items()}

    def target_of(segs):
        """The module a path names (following re-exports), or None."""
        for _ in range(8):
            k = next((k for k in range(len(segs), -1, -1) if tuple(segs[:k]) in mods), None)
            if k is None:
                return None
            m = tuple(segs[:k])
            rest = segs[k:]
            if rest and rest[0] in reexp[m] and reexp[m][rest[0]] + (rest[0],) != tuple(segs):
                segs = list(reexp[m][rest[0]]) + rest
                continue
            return m
        return None

    edges = {m: set() for m in mods if m != ()}
    for mod, path in mods.items():
        if mod == ():
            continue
        text = re.sub(PUB_USE, "", texts[mod], flags=re.S)
        children = set(re.findall(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", text, flags=re.M))
        paths = []
        for m in re.finditer(r"\buse\s+([^;]+);", text, flags=re.S):
            paths += expand_use(m.group(1))
        paths += re.findall(r"\b((?:crate|super|self)(?:::\w+)+)", text)
        paths += [c + "::" + rest for c, rest in re.findall(r"\b(\w+)::(\w+)", text) if c in children]
        for p in paths:
            segs = [s for s in p.replace(" ", "").split("::") if s]
            if not segs:
                continue
            if segs[0] == "crate":
                segs = segs[1:]
            elif segs[0] in ("super", "self"):
                # A mod.rs is its directory's module; a plain file's `super` is its parent.
                base = list(mod)
                while segs and segs[0] in ("super", "self"):
                    if segs[0] == "super":
                        base = base[:-1]
                    segs = segs[1:]
                segs = base + segs
            elif segs[0] in children:
                segs = list(mod) + segs
            else:
                continue
            if not segs:
                continue
            target = target_of(segs)
            if target is not None and target != mod and target != ():
                edges[mod].add(target)
    return mods, edges


def cycles(edges):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
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

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def name(m):
    return "::".join(m) or "lib"


def main():
    failed = False
    rust = os.path.join(ROOT, "rust")
    for crate in sorted(os.listdir(rust)):
        src = os.path.join(rust, crate, "src")
        if not os.path.isdir(src):
            continue
        mods, edges = crate_graph(src)
        if "--graph" in sys.argv:
            for m in sorted(edges):
                print(f"{crate}: {name(m)} -> {', '.join(name(t) for t in sorted(edges[m]))}")
        for comp in cycles(edges):
            failed = True
            print(f"{crate}: import circle among {', '.join(name(m) for m in comp)}")
            for m in comp:
                back = sorted(t for t in edges[m] if t in comp)
                print(f"    {name(m)} uses {', '.join(name(t) for t in back)}")
        for m, path in sorted(mods.items()):
            n = sum(1 for _ in open(path, encoding="utf-8"))
            if n > MAX_LINES:
                failed = True
                print(f"{os.path.relpath(path, ROOT)}: {n} lines (at most {MAX_LINES})")
    if failed:
        sys.exit(1)
    print("check_structure: no import circles, no source file over", MAX_LINES, "lines")


if __name__ == "__main__":
    main()
