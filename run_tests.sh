#!/usr/bin/env bash
# The one command that runs every test of this repository:
#   0. the structure checks (tools/check_structure.py: no import circles, no source file over
#      800 lines),
#   1. the simulation core's unit, property and scenario tests, and swarm_godot's unit tests
#      (cargo, release),
#   2. a release build of the GDExtension into addons/swarm/bin (tools/build.sh),
#   3. the engine tests in a real headless Godot 4.6 (tests/run_engine_tests.sh),
#   4. the short soak run: 10,000 steps of 2,000 agents with churn, doors and a save/load every
#      1,000 steps (tools/soak.sh; the full run is documented in docs/RELIABILITY.md).
# Exits non-zero on the first failing stage. Extra arguments go to the engine tests (a name filter).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$ROOT"

echo "== [0/4] tools/check_structure.py"
python3 tools/check_structure.py

echo "== [1/4] cargo test --release -p swarm_core, and the binding layer's own unit tests"
cargo test --release -p swarm_core
cargo test --release -p swarm_godot --lib

echo "== [2/4] tools/build.sh (GDExtension, release)"
tools/build.sh

echo "== [3/4] tests/run_engine_tests.sh"
tests/run_engine_tests.sh "$@"

echo "== [4/4] tools/soak.sh 10000 2000 1000 (short soak)"
tools/soak.sh 10000 2000 1000 | tail -1
echo "== all tests passed"
