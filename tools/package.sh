#!/usr/bin/env bash
# Builds the release libraries for Linux and Windows (x86_64) and writes OUT_DIR/swarm-VERSION.zip,
# laid out as the Godot Asset Library expects: the zip holds addons/swarm/ (the repository's addon
# as it is, bin/ with the two freshly built libraries, the LICENSE) and nothing else, so unzipping
# it into a project's root folder installs the addon.
#
#   tools/package.sh dist/        # -> dist/swarm-0.1.0.zip (VERSION: the workspace Cargo.toml's)
#
# Linux: the same `cargo build --release -p swarm_godot` as tools/build.sh (it reuses that build).
# Windows: cross-compiled for x86_64-pc-windows-gnu with MinGW-w64 as the linker (given through
# CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER here, so normal builds are untouched), without debug
# info. Missing pieces are installed: Debian's gcc-mingw-w64-x86-64 with apt-get (as root, or
# through sudo), the Rust target with rustup. Debug info is stripped from the libraries in the
# zip (symbol names stay, for readable panic backtraces). macOS is not built: it needs a Mac
# (swarm.gdextension has a commented entry that says how). Check the result with
# tools/check_package.sh.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WIN=x86_64-pc-windows-gnu
LINUX=x86_64-unknown-linux-gnu

if [[ $# -ne 1 ]]; then echo "usage: tools/package.sh OUT_DIR" >&2; exit 2; fi
mkdir -p "$1"
OUT=$(cd "$1" && pwd)
cd "$ROOT"

as_root() {
  if (( EUID == 0 )); then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else echo "tools/package.sh: need root (or sudo) to run: $*" >&2; return 1; fi
}

# Tools: the MinGW-w64 cross compiler (it brings x86_64-w64-mingw32-strip/objdump), binutils' strip.
pkgs=()
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || pkgs+=(gcc-mingw-w64-x86-64)
command -v strip >/dev/null 2>&1 || pkgs+=(binutils)
if (( ${#pkgs[@]} > 0 )); then
  echo "== installing ${pkgs[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${pkgs[@]}"
fi
if ! rustc --print target-libdir --target "$WIN" >/dev/null 2>&1 \
    || [[ ! -d "$(rustc --print target-libdir --target "$WIN")" ]]; then
  command -v rustup >/dev/null 2>&1 || {
    echo "tools/package.sh: the Rust standard library for $WIN is missing and rustup is not here" >&2; exit 1; }
  echo "== rustup target add $WIN"
  rustup target add "$WIN"
fi

VERSION=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
TARGET_DIR=$(cargo metadata --format-version 1 --no-deps \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
HOST=$(rustc -vV | sed -n 's/^host: //p')

echo "== [1/3] Linux library ($LINUX, release)"
start=$SECONDS
if [[ "$HOST" == "$LINUX" ]]; then
  cargo build --release -p swarm_godot
  LINUX_LIB="$TARGET_DIR/release/libswarm_godot.so"
else
  cargo build --release -p swarm_godot --target "$LINUX"
  LINUX_LIB="$TARGET_DIR/$LINUX/release/libswarm_godot.so"
fi
echo "   built in $((SECONDS - start)) s"

echo "== [2/3] Windows library ($WIN, release, cross-compiled with MinGW-w64)"
start=$SECONDS
CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc CARGO_PROFILE_RELEASE_DEBUG=0 \
  cargo build --release -p swarm_godot --target "$WIN"
WIN_LIB="$TARGET_DIR/$WIN/release/swarm_godot.dll"
echo "   built in $((SECONDS - start)) s"

echo "== [3/3] swarm-$VERSION.zip"
STAGE=$(mktemp -d "${TMPDIR:-/tmp}/swarm-package.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT
mkdir -p "$STAGE/addons"
cp -a addons/swarm "$STAGE/addons/swarm"
# bin/ holds exactly the two libraries built above (never a stale or half-copied local build).
rm -rf "$STAGE/addons/swarm/bin"
mkdir "$STAGE/addons/swarm/bin"
strip --strip-debug -o "$STAGE/addons/swarm/bin/libswarm_godot.linux.x86_64.so" "$LINUX_LIB"
x86_64-w64-mingw32-strip --strip-debug -o "$STAGE/addons/swarm/bin/swarm_godot.windows.x86_64.dll" "$WIN_LIB"
cp LICENSE "$STAGE/addons/swarm/LICENSE"

ZIP="$OUT/swarm-$VERSION.zip"
python3 - "$STAGE" "$ZIP" <<'PY'
import os, sys, zipfile
stage, out = sys.argv[1], sys.argv[2]
tmp = out + ".tmp"
with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
    for dirpath, dirnames, filenames in os.walk(os.path.join(stage, "addons")):
        dirnames.sort()
        rel = os.path.relpath(dirpath, stage)
        z.write(dirpath, rel)  # the folder's own entry ("addons/swarm/bin/")
        for name in sorted(filenames):
            z.write(os.path.join(dirpath, name), os.path.join(rel, name))
os.replace(tmp, out)
PY
python3 - "$ZIP" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    files = [i for i in z.infolist() if not i.is_dir()]
    for i in files:
        if i.filename.startswith("addons/swarm/bin/"):
            print(f"   {i.filename}: {i.file_size / 2**20:.1f} MiB ({i.compress_size / 2**20:.1f} MiB packed)")
    print(f"   {len(files)} files")
PY
echo "wrote $ZIP ($(du -h "$ZIP" | cut -f1))"
