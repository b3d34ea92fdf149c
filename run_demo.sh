#!/usr/bin/env bash
# Builds the extension and runs the horde demo (godot_project, scene res://demo/horde_demo.tscn).
#
#   ./run_demo.sh                 in a window when $DISPLAY is set, else headless for 600 frames
#   ./run_demo.sh --frames=N      any arguments are passed to the demo script (after Godot's --)
#   ./run_demo.sh SCENE [ARGS]    another scene: styles (res://demo/styles_demo.tscn), doors
#                                 (res://demo/doors_demo.tscn), traffic
#                                 (res://demo/traffic_demo.tscn), formations
#                                 (res://demo/formations_demo.tscn), a file name
#                                 in godot_project/demo, a res:// path or a .tscn path, e.g.
#                                 ./run_demo.sh styles --style=melee --frames=600
#
# Headless, the demo prints "frame 60: agents 6000, step ... ms" every 60 frames and a summary,
# then quits with code 0. Godot comes from tools/godot.sh ($GODOT, PATH, or a private install).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# An optional first argument that is not an option names the scene.
SCENE=()
if (( $# )) && [[ "$1" != -* ]]; then
  case "$1" in
    res://*) SCENE=("$1") ;;
    *.tscn)
      if [[ -f "$ROOT/godot_project/$1" ]]; then SCENE=("res://$1")
      elif [[ -f "$1" ]]; then p=$(realpath "$1"); [[ "$p" == "$ROOT/godot_project/"* ]] && SCENE=("res://${p#"$ROOT/godot_project/"}")
      fi ;;
    *) for n in "$1" "$1_demo"; do
         [[ -f "$ROOT/godot_project/demo/$n.tscn" ]] && { SCENE=("res://demo/$n.tscn"); break; }
       done ;;
  esac
  if (( ${#SCENE[@]} == 0 )); then
    echo "run_demo: no scene '$1' in godot_project (try: styles, horde_demo, res://demo/NAME.tscn)" >&2
    exit 2
  fi
  shift
fi
cd "$ROOT"

tools/build.sh
GODOT=$(tools/godot.sh)
tools/import_demo.sh "$GODOT"

if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
  exec "$GODOT" --path godot_project "${SCENE[@]}" -- "$@"
else
  args=("$@")
  (( ${#args[@]} )) || args=(--frames=600)
  exec "$GODOT" --headless --fixed-fps 60 --path godot_project "${SCENE[@]}" -- "${args[@]}"
fi
