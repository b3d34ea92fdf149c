#!/usr/bin/env bash
# Renders the horde demo under a virtual X server and saves a picture for the README.
#   tools/screenshot.sh [OUT.png] [FRAMES] [WIDTH] [SCENE] [DEMO ARGS...]
# Defaults: docs/demo.png, 240 physics frames (4 s of simulation), drawn at 1280x720 and saved
# 1024 pixels wide, then reduced to 256 colours by tools/png_palette.py (a README-sized PNG).
# SCENE (default: the project's main scene, the horde demo) and any further arguments go to the
# demo, e.g.  tools/screenshot.sh docs/melee.png 600 1024 res://demo/styles_demo.tscn --style=melee
# Needs Xvfb (installed with apt-get when missing and possible) and an OpenGL driver: Mesa's
# software renderer from the .godot-runtime install (tools/godot.sh) works without a GPU.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
OUT=${1:-docs/demo.png}
FRAMES=${2:-240}
WIDTH=${3:-1024}
SCENE=${4:-}
EXTRA=("${@:5}")
[[ "$OUT" = /* ]] || OUT="$ROOT/$OUT"
mkdir -p "$(dirname "$OUT")"

tools/build.sh
GODOT=$(tools/godot.sh)
tools/import_demo.sh "$GODOT"

if ! command -v Xvfb >/dev/null 2>&1; then
  echo "screenshot: installing xvfb" >&2
  SUDO=; [[ $(id -u) -eq 0 ]] || SUDO=sudo
  $SUDO apt-get install -y xvfb >/dev/null 2>&1 || { $SUDO apt-get update >/dev/null && $SUDO apt-get install -y xvfb >/dev/null; }
fi

# A free display number.
D=99
while [[ -e /tmp/.X11-unix/X$D || -e /tmp/.X$D-lock ]]; do D=$((D + 1)); done
Xvfb ":$D" -screen 0 1280x720x24 -nolisten tcp >/dev/null 2>&1 &
XPID=$!
RAW=$(mktemp --suffix=.png "${TMPDIR:-/tmp}/swarm-shot.XXXXXX")
trap 'kill $XPID 2>/dev/null || true; rm -f "$RAW"' EXIT
for _ in $(seq 50); do [[ -e /tmp/.X11-unix/X$D ]] && break; sleep 0.1; done

# No --fixed-fps: software rendering is slow, and without it Godot runs up to 8 physics steps per
# drawn frame to keep up, so FRAMES physics frames (FRAMES/60 s of simulation) take far fewer draws.
# Mesa from the private runtime, when that is the Godot in use (its wrapper exports the EGL
# vendor folder and LIBGL_DRIVERS_PATH already; set here too for a Godot found on PATH).
L="$ROOT/.godot-runtime/root/usr/lib/x86_64-linux-gnu"
if [[ -d "$L/dri" ]]; then
  export LIBGL_DRIVERS_PATH=${LIBGL_DRIVERS_PATH:-$L/dri}
  export __EGL_VENDOR_LIBRARY_DIRS=${__EGL_VENDOR_LIBRARY_DIRS:-$ROOT/.godot-runtime/root/usr/share/glvnd/egl_vendor.d}
fi

DISPLAY=":$D" timeout -k 10 600 "$GODOT" --rendering-driver opengl3 --rendering-method gl_compatibility \
  --audio-driver Dummy --resolution 1280x720 --path godot_project ${SCENE:+"$SCENE"} \
  -- --screenshot="$RAW" --shot-frames="$FRAMES" --shot-width="$WIDTH" "${EXTRA[@]}" 2>&1 | sed -e 's/\x1b\[[0-9;]*[A-Za-z]//g' -e '/^$/d' || true
[[ -s "$RAW" ]] || { echo "screenshot: no picture was written" >&2; exit 1; }
python3 tools/png_palette.py "$RAW" "$OUT"
echo "screenshot: $OUT ($(du -k "$OUT" | cut -f1) KB)"
