#!/usr/bin/env bash
# Opens every demo scene (godot_project/demo/*.tscn) in the Godot editor, headless, and fails on
# any ERROR or SCRIPT ERROR line in its output: every demo scene opens in the editor without
# errors. Needs the built extension (tools/build.sh); Godot comes from tools/godot.sh.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GODOT=$("$ROOT/tools/godot.sh") || { echo "editor_open_demos: no Godot 4.6 available" >&2; exit 1; }
"$ROOT/tools/import_demo.sh" "$GODOT" >/dev/null || { echo "editor_open_demos: the import failed" >&2; exit 1; }
failed=0
for scene in "$ROOT"/godot_project/demo/*.tscn; do
  name=$(basename "$scene")
  log=$(timeout 180 "$GODOT" --headless --editor --path "$ROOT/godot_project" "res://demo/$name" --quit-after 200 2>&1)
  rc=$?
  errors=$(printf '%s\n' "$log" | sed -e 's/\x1b\[[0-9;]*[A-Za-z]//g' | grep -E "^(ERROR|SCRIPT ERROR|USER ERROR)|Parse Error" || true)
  if (( rc != 0 )) || [[ -n "$errors" ]]; then
    echo "FAIL $name (exit $rc)"
    printf '%s\n' "$errors" | head -10 | sed 's/^/  | /'
    failed=1
  else
    echo "PASS $name opens in the editor"
  fi
done
exit $failed
