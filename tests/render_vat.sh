#!/usr/bin/env bash
# Rendering test of vertex animation: draws an animated horde under a virtual X server with Mesa's
# software OpenGL (as tools/screenshot.sh does), twice, a sixth of a second apart, with a fixed
# camera, and checks that the pictures differ where agents walk and much less where they stand
# (tests/project/render_vat.gd says how).
#   tests/render_vat.sh [OUT_DIR] [--agents=N]
# OUT_DIR: keep the two frames there as a.png and b.png; N: agents in all (default 40).
# Needs the built extension in addons/swarm/bin (tools/build.sh) and Xvfb. Prints the changed
# pixel shares and "RENDER_VAT: PASS"; exits non-zero on failure.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
PROJECT="$ROOT/tests/project"
OUT=${1:-}
EXTRA=("${@:2}")
[[ -z "$OUT" || "$OUT" = /* ]] || OUT="$ROOT/$OUT"
GODOT=$(tools/godot.sh)
command -v Xvfb >/dev/null 2>&1 || { echo "render_vat: Xvfb is missing (apt-get install xvfb)" >&2; exit 1; }

# The tests project must have been imported once (it registers the extension).
if ! grep -q 'res://addons/swarm/swarm.gdextension' "$PROJECT/.godot/extension_list.cfg" 2>/dev/null; then
  ( timeout -k 10 300 "$GODOT" --headless --path "$PROJECT" --import >/dev/null 2>&1 || true ) 2>/dev/null
fi

D=99
while [[ -e /tmp/.X11-unix/X$D || -e /tmp/.X$D-lock ]]; do D=$((D + 1)); done
Xvfb ":$D" -screen 0 960x540x24 -nolisten tcp >/dev/null 2>&1 &
XPID=$!
LOG=$(mktemp "${TMPDIR:-/tmp}/swarm-render-vat.XXXXXX")
trap 'kill $XPID 2>/dev/null || true; rm -f "$LOG"' EXIT
for _ in $(seq 50); do [[ -e /tmp/.X11-unix/X$D ]] && break; sleep 0.1; done

L="$ROOT/.godot-runtime/root/usr/lib/x86_64-linux-gnu"
if [[ -d "$L/dri" ]]; then
  export LIBGL_DRIVERS_PATH=${LIBGL_DRIVERS_PATH:-$L/dri}
  export __EGL_VENDOR_LIBRARY_DIRS=${__EGL_VENDOR_LIBRARY_DIRS:-$ROOT/.godot-runtime/root/usr/share/glvnd/egl_vendor.d}
fi
set +e
DISPLAY=":$D" timeout -k 10 120 "$GODOT" --rendering-driver opengl3 --rendering-method gl_compatibility \
  --audio-driver Dummy --resolution 960x540 --fixed-fps 60 --path "$PROJECT" -s res://render_vat.gd \
  -- ${OUT:+--out="$OUT"} "${EXTRA[@]}" >"$LOG" 2>&1
rc=$?
set -e
sed -e 's/\x1b\[[0-9;]*[A-Za-z]//g' "$LOG" | grep -E 'RENDER_VAT|ERROR|SCRIPT' || true
if (( rc != 0 )) || ! grep -q 'RENDER_VAT: PASS' "$LOG"; then
  echo "render_vat: failed (exit code $rc); log:" >&2
  sed -e 's/\x1b\[[0-9;]*[A-Za-z]//g' "$LOG" | tail -30 >&2
  exit 1
fi
