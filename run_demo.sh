#!/usr/bin/env bash
# Builds the extension and runs the horde demo (godot_project, scene res://demo/horde_demo.tscn).
#
#   ./run_demo.sh                 in a window when $DISPLAY is set, else headless for 600 frames
#   ./run_demo.sh --frames=N      any arguments are passed to the demo script (after Godot's --)
#
# Headless, the demo prints "frame 60: agents 6000, step ... ms" every 60 frames and a summary,
# then quits with code 0. Godot comes from tools/godot.sh ($GODOT, PATH, or a private install).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$ROOT"

tools/build.sh
GODOT=$(tools/godot.sh)
tools/import_demo.sh "$GODOT"

if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
  exec "$GODOT" --path godot_project -- "$@"
else
  args=("$@")
  (( ${#args[@]} )) || args=(--frames=600)
  exec "$GODOT" --headless --fixed-fps 60 --path godot_project -- "${args[@]}"
fi
