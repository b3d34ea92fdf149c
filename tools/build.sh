#!/usr/bin/env bash
# Builds the GDExtension (release) and places it where addons/swarm/swarm.gdextension expects it.
# Incremental: re-running after a change rebuilds only what changed.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
cargo build --release -p swarm_godot "$@"
mkdir -p addons/swarm/bin
# Copy (not link) so Godot never sees a half-written file while cargo relinks.
cp -f target/release/libswarm_godot.so addons/swarm/bin/libswarm_godot.linux.x86_64.so.tmp.$$
mv -f addons/swarm/bin/libswarm_godot.linux.x86_64.so.tmp.$$ addons/swarm/bin/libswarm_godot.linux.x86_64.so
