#!/usr/bin/env bash
# Renders each horde style of the styles demo (godot_project/demo/styles_demo.tscn) with
# tools/screenshot.sh, captions only, and tiles the five pictures into one PNG for the README.
#   tools/styles_montage.sh [OUT.png]          (default docs/styles.png)
# Each style is pictured after the physics frames below (when its behaviour shows best), drawn at
# 1280x720 and scaled to 480 pixels wide; two columns, the last picture centred; 256 colours.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
OUT=${1:-docs/styles.png}
[[ "$OUT" = /* ]] || OUT="$ROOT/$OUT"
STYLES=(default melee flankers harassers far)
FRAMES=(600 900 320 600 900)

TMP=$(mktemp -d "${TMPDIR:-/tmp}/swarm-styles.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
shots=()
for i in "${!STYLES[@]}"; do
  s=${STYLES[$i]}
  tools/screenshot.sh "$TMP/$s.png" "${FRAMES[$i]}" 960 res://demo/styles_demo.tscn --style="$s" --caption
  shots+=("$TMP/$s.png")
done
GODOT=$(tools/godot.sh)
"$GODOT" --headless -s "$ROOT/tools/montage.gd" -- "$TMP/montage.png" 2 480 "${shots[@]}" 2>&1 | grep -v '^$' || true
[[ -s "$TMP/montage.png" ]] || { echo "styles_montage: no montage was written" >&2; exit 1; }
python3 tools/png_palette.py "$TMP/montage.png" "$OUT"
echo "styles_montage: $OUT ($(du -k "$OUT" | cut -f1) KB)"
