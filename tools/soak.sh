#!/usr/bin/env bash
# Soak run of the core (see rust/swarm_core/examples/soak.rs): STEPS steps of AGENTS agents with
# spawn/despawn churn, moving targets, doors closing and breaking open, noises, and a save/load
# every SAVE_EVERY steps; fails on NaN, a broken invariant or RSS growth over 5 % in the last
# tenth against the mark taken at tenth MARK (default 1: the 10 % mark). Prints a markdown table
# for docs/RELIABILITY.md.
#
#   tools/soak.sh                          # the full run: 1,000,000 steps, 20,000 agents, save/load every 10,000
#   tools/soak.sh 10000 2000 1000          # the short run ./run_tests.sh makes
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STEPS=${1:-1000000}
AGENTS=${2:-20000}
SAVE_EVERY=${3:-10000}
THREADS=${4:-0}
MARK=${5:-1}
cd "$ROOT"
cargo run --release -q -p swarm_core --example soak -- "$STEPS" "$AGENTS" "$SAVE_EVERY" "$THREADS" "$MARK"
