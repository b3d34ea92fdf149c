#!/usr/bin/env python3
"""Where a function's instructions go, instruction by instruction: runs swarm_core's `bench`
example under callgrind with per-instruction counts, then lays the counts against the function's
disassembly (`objdump -d -l`), per agent-step. It answers what `tools/instructions.sh` (counts
per stage) cannot: which source lines, loops and set-up a hot function spends its instructions
on, once inlining has merged everything into it.

    tools/hot_instructions.py                          the hottest functions, like for like
    tools/hot_instructions.py --function spacing       one function: its source lines, hottest
                                                       first, and its runs of instructions that
                                                       execute equally often (set-up, loops)
    tools/hot_instructions.py --agents 100000 --lod on --steps 80 --function steer

Counts are per agent-step over the whole run (warm-up included), so compare runs of the same
configuration. Environment variables of the bench (BENCH_AREA, BENCH_OFF, ...) pass through.
Needs valgrind and binutils; builds the bench example (release) first.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "examples", "bench")


def per_address(path):
    """Self instruction counts by address from a callgrind file written with --dump-instr=yes
    (positions "instr line"; addresses may be relative to the previous one; the cost line after
    a `calls=` line is the call's inclusive cost and is skipped)."""
    counts, last, skip = {}, 0, False
    with open(path) as f:
        for line in f:
            if not line.strip() or line[0].isalpha() or line[0] == "#":
                skip = skip or line.startswith("calls=")
                continue
            tokens = line.split()
            a = tokens[0]
            if a.startswith("0x"):
                addr = int(a, 16)
            elif a[0] in "+-":
                addr = last + int(a)
            elif a == "*":
                addr = last
            else:
                continue
            last = addr
            if skip:
                skip = False
                continue
            if len(tokens) > 2:
                counts[addr] = counts.get(addr, 0) + int(tokens[2])
    return counts


def symbols(binary):
    """(start, size, demangled name) of every sized text symbol."""
    out = subprocess.run(["nm", "-C", "-S", binary], capture_output=True, text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        parts = line.split(None, 3)
        if len(parts) == 4 and parts[2] in "tT":
            syms.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    return syms


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--agents", type=int, default=20000)
    ap.add_argument("--lod", choices=["on", "off"], default="off")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--warmup", type=int, default=60)
    ap.add_argument("--steps", type=int, default=80)
    ap.add_argument("--function", help="a substring of the function's demangled name, or its address as listed (0x...)")
    ap.add_argument("--top", type=int, default=30, help="rows to print")
    ap.add_argument("--bin", help="a bench binary built before (a copy, for A/B), instead of building it")
    args = ap.parse_args()

    global BIN
    if args.bin:
        BIN = os.path.abspath(args.bin)
    else:
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "swarm_core", "--example", "bench"], cwd=ROOT, check=True)
    env = dict(os.environ, BENCH_WARMUP=str(args.warmup), BENCH_STEPS=str(args.steps))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", "--dump-instr=yes", f"--callgrind-out-file={out}", BIN,
               "--counts", str(args.agents), "--scenarios", "open", "--only", f"{args.threads},{args.lod}",
               "--repeat", "1"]
        run = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("hot_instructions: callgrind failed:\n" + run.stderr[-2000:])
        counts = per_address(out)
    agent_steps = args.agents * (args.warmup + args.steps)
    syms = symbols(BIN)
    spans = []
    for start, size, name in syms:
        total = sum(v for a, v in counts.items() if start <= a < start + size)
        if total:
            spans.append((total / agent_steps, start, size, name))
    spans.sort(reverse=True)
    print(f"{args.agents} agents, LOD {args.lod}, {args.threads} threads: "
          f"{sum(counts.values()) / agent_steps:.1f} instructions per agent-step in all")
    if not args.function:
        for per, start, size, name in spans[: args.top]:
            print(f"{per:9.1f}  {start:#x}  {name[:110]}")
        return
    matches = [s for s in spans if args.function in s[3] or args.function == f"{s[1]:#x}"]
    if not matches:
        sys.exit(f"hot_instructions: no executed function's name contains {args.function!r}")
    per, start, size, name = matches[0]
    print(f"{per:.1f} instructions per agent-step in {name} ({start:#x}, {size} bytes)\n")
    dump = subprocess.run(["objdump", "-d", "-l", "--no-show-raw-insn", f"--start-address={start}",
                           f"--stop-address={start + size}", BIN], capture_output=True, text=True, check=True).stdout
    by_line, runs, src = {}, [], "?"
    for line in dump.splitlines():
        m = re.match(r"^(/\S+):(\d+)", line)
        if m:
            src = f"{os.path.basename(m.group(1))}:{m.group(2)}"
            continue
        m = re.match(r"\s+([0-9a-f]+):\s+(.*)", line)
        if not m:
            continue
        v = counts.get(int(m.group(1), 16), 0) / agent_steps
        by_line[src] = by_line.get(src, 0.0) + v
        # Runs of consecutive instructions executed equally often (a set-up, a loop body).
        if runs and abs(runs[-1][1] - v) < 0.005:
            runs[-1][2] += 1
        else:
            runs.append([int(m.group(1), 16), v, 1, m.group(2)])
    print("source lines, hottest first (instructions per agent-step):")
    for src, v in sorted(by_line.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{v:9.1f}  {src}")
    print("\nruns of instructions executed equally often (times per agent-step x length = total):")
    for addr, v, n, first in runs:
        if v * n >= 2.0:
            print(f"  {addr:#x}  {v:5.2f} x {n:3d} = {v * n:6.1f}   {first[:60]}")


if __name__ == "__main__":
    main()
