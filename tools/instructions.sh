#!/usr/bin/env bash
# Instructions per agent per step, by stage, under callgrind: a yardstick for work on the step
# that the machine's mood does not move (wall-clock figures on a shared 2-core machine swing by
# 20 to 50 %; instruction counts are the same on every run). Runs swarm_core's `bench` example on
# one thread for the two configurations the performance goals are about:
#   - the like-for-like horde: 20,000 agents, Importance LOD and dormancy off;
#   - the default horde: 100,000 agents, Importance LOD on;
# and prints a markdown table (instructions per agent per step for the whole step and each stage;
# the grid rebuild runs beside the classification and is counted apart). Instructions are not
# time: memory stalls and branch misses are not in them, so confirm a gain in time as well.
#
#   tools/instructions.sh                both configurations (about 2 minutes)
#   tools/instructions.sh 20000 off      one configuration
#   tools/instructions.sh 100000 rested  the default horde after dormancy set in (300 warm-up
#                                        steps): two runs, 20 and 120 measured steps, and their
#                                        difference, so only measured steps count (about 10 minutes)
#
# Needs valgrind (installed with apt-get when missing and apt-get is there).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

if ! command -v valgrind >/dev/null || ! command -v callgrind_annotate >/dev/null; then
  if command -v apt-get >/dev/null; then
    echo "instructions: installing valgrind" >&2
    apt-get install -y -q valgrind >/dev/null
  else
    echo "instructions: needs valgrind (callgrind)" >&2
    exit 1
  fi
fi

cargo build --release -q -p swarm_core --example bench
BIN="$ROOT/target/release/examples/bench"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

if [[ $# -ge 2 ]]; then
  CONFIGS=("$1 $2")
else
  CONFIGS=("20000 off" "100000 on")
fi

echo "| agents | LOD | steps | whole step | classify | grid rebuild | perceive | steer | body blocking | settle | attack |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
# callgrind_annotate's inclusive listing of one run: profile NAME, agents, LOD, more bench env.
profile() {
  local name=$1 n=$2 lod=$3
  shift 3
  local file="$OUT/cg.$name"
  env "$@" valgrind --tool=callgrind --callgrind-out-file="$file" "$BIN" --counts "$n" --scenarios open \
    --only "1,$lod" --repeat 1 >/dev/null 2>"$file.err" || {
    echo "instructions: callgrind failed for $n agents, LOD $lod:" >&2
    tail -n 5 "$file.err" >&2
    exit 1
  }
  callgrind_annotate --inclusive=yes --threshold=100 "$file" >"$file.txt" 2>/dev/null
}

# Prints the table row: agents, LOD label, then pairs of (listing, bench stderr); with two pairs
# the first run's counts and steps are taken from the second's.
row() {
  python3 - "$@" <<'PY'
import re, sys
n, label, runs = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
# A function's inclusive count. Debug info may file parts of one function under several source
# files (code inlined into it); each such line repeats the function's inclusive total, give or
# take the part filed elsewhere, so the largest is the function's.
def inclusive(text, name):
    counts = [int(m.group(1).replace(",", "")) for m in
              re.finditer(r"^\s*([\d,]+) \([^)]*\)\s+\S*:" + re.escape(name) + r"(?:\s|$)", text, re.M)]
    return max(counts, default=None)
names = {
    "whole step": "swarm_core::step::step_parallel",
    "classify": "swarm_core::step::classify::run",
    "grid rebuild": "swarm_core::workspace::rebuild_grid",
    "perceive": "swarm_core::step::perceive::perceive",
    "steer": "swarm_core::step::steer::steer",
    "body blocking": "swarm_core::step::block::block",
    "settle": "swarm_core::step::settle::settle",
    "attack": "swarm_core::step::attack::attack",
}
def load(listing, err):
    text, err = open(listing).read(), open(err).read()
    # Steps run: the bench's warm-up and measured steps (its "phases" line on stderr).
    m = re.search(r"warm-up (\d+) steps .*?, (\d+) measured", err)
    if not m:
        sys.exit("instructions: the bench printed no step counts")
    return int(m.group(1)) + int(m.group(2)), {k: inclusive(text, v) for k, v in names.items()}
steps, got = load(runs[-2], runs[-1])
if len(runs) == 4:
    # Only the steps the second run measured beyond the first.
    steps0, got0 = load(runs[0], runs[1])
    steps -= steps0
    got = {k: None if got[k] is None else got[k] - (got0[k] or 0) for k in names}
if got["whole step"] is None:
    sys.exit("instructions: no step found in the profile (were the stages renamed?)")
cells = [f"{got[k] / (steps * n):,.0f}" if got[k] is not None else "-" for k in names]
print(f"| {n:,} | {label} | {steps} | " + " | ".join(cells) + " |")
PY
}

for config in "${CONFIGS[@]}"; do
  read -r n lod <<<"$config"
  if [[ $lod == rested ]]; then
    # Both runs at once (callgrind runs one thread each).
    profile "$n.rest.a" "$n" on BENCH_WARMUP=300 BENCH_STEPS=20 &
    first=$!
    profile "$n.rest.b" "$n" on BENCH_WARMUP=300 BENCH_STEPS=120 &
    second=$!
    wait "$first"
    wait "$second"
    row "$n" "on, rested" "$OUT/cg.$n.rest.a.txt" "$OUT/cg.$n.rest.a.err" "$OUT/cg.$n.rest.b.txt" "$OUT/cg.$n.rest.b.err"
  else
    profile "$n.$lod" "$n" "$lod"
    row "$n" "$lod" "$OUT/cg.$n.$lod.txt" "$OUT/cg.$n.$lod.err"
  fi
done
