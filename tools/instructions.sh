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
#   tools/instructions.sh            both configurations (about 2 minutes)
#   tools/instructions.sh 20000 off  one configuration
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
for config in "${CONFIGS[@]}"; do
  read -r n lod <<<"$config"
  file="$OUT/cg.$n.$lod"
  valgrind --tool=callgrind --callgrind-out-file="$file" "$BIN" --counts "$n" --scenarios open \
    --only "1,$lod" --repeat 1 >/dev/null 2>"$file.err" || {
    echo "instructions: callgrind failed for $n agents, LOD $lod:" >&2
    tail -n 5 "$file.err" >&2
    exit 1
  }
  callgrind_annotate --inclusive=yes --threshold=100 "$file" >"$file.txt" 2>/dev/null
  python3 - "$file.txt" "$file.err" "$n" "$lod" <<'PY'
import re, sys
text, err, n, lod = open(sys.argv[1]).read(), open(sys.argv[2]).read(), int(sys.argv[3]), sys.argv[4]
# Steps run: the bench's warm-up and measured steps (its "phases" line on stderr).
m = re.search(r"warm-up (\d+) steps .*?, (\d+) measured", err)
if not m:
    sys.exit("instructions: the bench printed no step counts")
steps = int(m.group(1)) + int(m.group(2))
# A function's inclusive count. Debug info may file parts of one function under several source
# files (code inlined into it); each such line repeats the function's inclusive total, give or
# take the part filed elsewhere, so the largest is the function's.
def inclusive(name):
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
got = {k: inclusive(v) for k, v in names.items()}
if got["whole step"] is None:
    sys.exit("instructions: no step found in the profile (were the stages renamed?)")
cells = [f"{got[k] / (steps * n):,.0f}" if got[k] is not None else "-" for k in names]
print(f"| {n:,} | {lod} | {steps} | " + " | ".join(cells) + " |")
PY
done
