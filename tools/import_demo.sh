#!/usr/bin/env bash
# Imports godot_project once, so Godot registers the Swarm extension (.godot/extension_list.cfg).
#   tools/import_demo.sh [GODOT]     (GODOT defaults to the output of tools/godot.sh)
# Re-imports only when extension_list.cfg is missing. The import run may print 'Aborted' at exit
# on some machines; success is judged by extension_list.cfg, not by the exit code.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PROJECT="$ROOT/godot_project"
GODOT=${1:-$("$ROOT/tools/godot.sh")}
CFG="$PROJECT/.godot/extension_list.cfg"

if [[ ! -e "$PROJECT/addons/swarm/swarm.gdextension" ]]; then
  echo "import_demo: $PROJECT/addons/swarm does not lead to the addon (broken symlink?)" >&2
  exit 1
fi
if grep -q 'res://addons/swarm/swarm.gdextension' "$CFG" 2>/dev/null; then
  exit 0
fi
echo "import_demo: importing godot_project (once)..." >&2
LOG=$(mktemp "${TMPDIR:-/tmp}/swarm-import.XXXXXX")
# In a subshell with its stderr silenced, so a crash on exit does not print bash's "Aborted" line.
( timeout -k 10 300 "$GODOT" --headless --path "$PROJECT" --import >"$LOG" 2>&1 || true ) 2>/dev/null
if ! grep -q 'res://addons/swarm/swarm.gdextension' "$CFG" 2>/dev/null; then
  echo "import_demo: the import did not register the Swarm extension in $CFG; its log:" >&2
  sed -e 's/\x1b\[[0-9;]*[A-Za-z]//g' "$LOG" >&2
  exit 1
fi
rm -f "$LOG"
