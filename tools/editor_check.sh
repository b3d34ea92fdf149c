# Shared by the headless-editor checks (tools/check_editor_*.sh); source it after setting NAME.
# Provides: ROOT, GODOT, strip, fail=0; make_verify_project TITLE DESCRIPTION (a throwaway project
# in $P with the Swarm addon and a "verify" editor plugin whose script the caller writes to
# $P/addons/verify/verify.gd); run_verify_editor WANT... (imports $P, runs its editor, checks that
# every WANT line was printed and no error was, and exits with the result).
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
GODOT=$("$ROOT/tools/godot.sh") || { echo "$NAME: no Godot 4.6" >&2; exit 1; }
strip() { sed -e 's/\x1b\[[0-9;]*[A-Za-z]//g'; }
fail=0

make_verify_project() { # TITLE DESCRIPTION
  P=$(mktemp -d "${TMPDIR:-/tmp}/swarm-$NAME.XXXXXX")
  trap 'rm -rf "$P"' EXIT
  mkdir -p "$P/addons/verify"
  ln -s "$ROOT/addons/swarm" "$P/addons/swarm"
  cat >"$P/project.godot" <<EOF
config_version=5

[application]

config/name="$1"
config/features=PackedStringArray("4.6")

[editor_plugins]

enabled=PackedStringArray("res://addons/swarm/plugin.cfg", "res://addons/verify/plugin.cfg")
EOF
  cat >"$P/addons/verify/plugin.cfg" <<EOF
[plugin]
name="verify"
description="$2"
author=""
version="1"
script="verify.gd"
EOF
}

run_verify_editor() { # WANT...
  ( timeout -k 10 180 "$GODOT" --headless --path "$P" --import >/dev/null 2>&1 || true ) 2>/dev/null
  local log want
  log=$(timeout -k 10 180 "$GODOT" --headless --editor --path "$P" --quit-after 3000 2>&1 | strip)
  grep '^VERIFY' <<<"$log"
  for want in "$@"; do
    grep -qxF "$want" <<<"$log" || { echo "$NAME: missing '$want'"; fail=1; }
  done
  if grep -E 'SCRIPT ERROR|Parse Error|ERROR:|panicked' <<<"$log"; then
    echo "$NAME: errors in the editor run"; fail=1
  fi
  if (( fail )); then
    echo "$NAME: FAILED; editor log:"; sed 's/^/  | /' <<<"$log" | grep -v '^  | \[' | tail -60
    exit 1
  fi
  echo "$NAME: OK"
  exit 0
}
