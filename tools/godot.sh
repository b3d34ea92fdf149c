#!/usr/bin/env bash
# Prints the path of a Godot 4.6+ executable, installing one if needed.
#
# Order: $GODOT if set; `godot` on PATH if it is 4.6 or newer; otherwise Debian sid's
# godot package unpacked into .godot-runtime/ (an ignored folder of this repository),
# run through sid's own loader so it never touches the system C library.
# The install happens once and is reused. Fails with a clear message when no package
# registry can be reached.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
R="$ROOT/.godot-runtime"
WRAP="$R/godot"

version_ok() { # $1 = executable
  local v
  v=$("$1" --headless --version 2>/dev/null | head -n1) || return 1
  [[ "$v" =~ ^4\.([0-9]+) ]] || return 1
  (( BASH_REMATCH[1] >= 6 ))
}

if [[ -n "${GODOT:-}" ]]; then
  if version_ok "$GODOT"; then echo "$GODOT"; exit 0; fi
  echo "tools/godot.sh: GODOT=$GODOT is not a Godot 4.6+ executable" >&2; exit 1
fi
if command -v godot >/dev/null 2>&1 && version_ok "$(command -v godot)"; then
  command -v godot; exit 0
fi
if [[ -x "$WRAP" ]] && version_ok "$WRAP"; then echo "$WRAP"; exit 0; fi

echo "tools/godot.sh: installing Godot 4.6 from Debian sid into $R (once)" >&2
mkdir -p "$R/apt/lists/partial" "$R/apt/archives/partial" "$R/apt/sources"
: > "$R/apt/status"
cat > "$R/apt/sources/sid.sources" <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
o=(-oDir::Etc::SourceList=/dev/null "-oDir::Etc::SourceParts=$R/apt/sources" "-oDir::State::Lists=$R/apt/lists"
   "-oDir::State::status=$R/apt/status" "-oDir::Cache::Archives=$R/apt/archives"
   -oAPT::Install-Recommends=false -oDebug::NoLocking=1)
if ! apt-get "${o[@]}" update >"$R/apt-update.log" 2>&1; then
  echo "tools/godot.sh: cannot reach the Debian package registry (see $R/apt-update.log)." >&2
  echo "  Install Godot 4.6+ yourself and set GODOT=/path/to/godot, or put it on PATH." >&2
  exit 1
fi
# godot itself, plus Mesa so that rendering under Xvfb works (screenshots, demo window).
if ! apt-get "${o[@]}" install --download-only -y godot libgl1-mesa-dri libgl1 libglx-mesa0 libegl1 libegl-mesa0 \
     >"$R/apt-install.log" 2>&1; then
  echo "tools/godot.sh: downloading Godot from Debian sid failed (see $R/apt-install.log)." >&2
  exit 1
fi
rm -rf "$R/root"; mkdir -p "$R/root"
for f in "$R"/apt/archives/*.deb; do dpkg -x "$f" "$R/root"; done
cat > "$WRAP" <<'SH'
#!/usr/bin/env bash
R=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
L=$R/root/usr/lib/x86_64-linux-gnu
export LIBGL_DRIVERS_PATH=${LIBGL_DRIVERS_PATH:-$L/dri}
export __EGL_VENDOR_LIBRARY_DIRS=${__EGL_VENDOR_LIBRARY_DIRS:-$R/root/usr/share/glvnd/egl_vendor.d}
exec "$L/ld-linux-x86-64.so.2" --library-path "$L:$L/pulseaudio:$R/root/usr/lib" "$R/root/usr/bin/godot" "$@"
SH
chmod +x "$WRAP"
if ! version_ok "$WRAP"; then
  echo "tools/godot.sh: the unpacked Godot in $R does not run" >&2; exit 1
fi
echo "$WRAP"
