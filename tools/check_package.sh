#!/usr/bin/env bash
# Checks a zip made by tools/package.sh:
#   1. layout: everything sits under addons/swarm/; plugin.cfg (its version is the zip's),
#      swarm.gdextension, LICENSE, README.md, the gizmo and inspector scripts, every icon the
#      .gdextension names, and every file of this repository's addons/swarm (bin/ aside: it is
#      built) are there, .uid files included;
#   2. the .gdextension names a Linux and a Windows x86_64 library, each present in the zip;
#   3. the Windows DLL exports the .gdextension's entry_symbol (x86_64-w64-mingw32-objdump -p,
#      export table) and imports no MinGW runtime DLL a Windows machine would lack;
#   4. the zip's addon loads in the engine. The zip is extracted into a scratch root laid out like
#      this repository (tests/ and tools/godot.sh copied, no .godot cache): tests/project/addons/swarm
#      is the repository's relative symlink ../../../addons/swarm, so in the scratch root it leads
#      to the extracted addons/swarm, and the copied tests/run_engine_tests.sh imports the project
#      and runs the engine tests whose name contains "chase" against the zip's swarm.gdextension
#      and its Linux library, nothing of the working tree's addon.
#
#   tools/check_package.sh dist/swarm-0.1.0.zip
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ $# -ne 1 || ! -f "$1" ]]; then echo "usage: tools/check_package.sh ZIP" >&2; exit 2; fi
ZIP=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
FILTER=chase

# Tools: x86_64-w64-mingw32-objdump (binutils-mingw-w64-x86-64) and nm (binutils).
pkgs=()
command -v x86_64-w64-mingw32-objdump >/dev/null 2>&1 || pkgs+=(binutils-mingw-w64-x86-64)
command -v nm >/dev/null 2>&1 || pkgs+=(binutils)
if (( ${#pkgs[@]} > 0 )); then
  echo "== installing ${pkgs[*]}"
  run=(); (( EUID == 0 )) || run=(sudo)
  "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
  "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${pkgs[@]}"
fi

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/swarm-check-package.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT

echo "== [1/4] layout of $(basename "$ZIP")"
if ! (cd "$ROOT" && git ls-files addons/swarm) >"$SCRATCH/repo_addon_files" 2>/dev/null; then
  echo "   (no git here: the zip is not compared with the repository's addon files)"
  : >"$SCRATCH/repo_addon_files"
fi
python3 - "$ZIP" "$SCRATCH/repo_addon_files" "$SCRATCH/libs" <<'PY'
import configparser, re, sys, zipfile
zip_path, repo_list, libs_out = sys.argv[1:]
A = "addons/swarm/"
problems = []
with zipfile.ZipFile(zip_path) as z:
    names = set(n for n in z.namelist() if not n.endswith("/"))
    outside = sorted(n for n in names if not n.startswith(A))
    if outside:
        problems.append(f"files outside {A}: {outside}")
    required = [A + p for p in ("plugin.cfg", "plugin.gd", "swarm.gdextension", "LICENSE", "README.md")]
    scripts = [n for n in names if re.fullmatch(A + r"[a-z_]+_(gizmo|inspector)\.gd", n)]
    if not scripts:
        problems.append("no gizmo or inspector script")
    required += scripts + [s + ".uid" for s in scripts]
    repo = [l.strip() for l in open(repo_list) if l.strip() and not l.startswith(A + "bin/")]
    required += repo
    ext = z.read(A + "swarm.gdextension").decode() if A + "swarm.gdextension" in names else ""
    cfg = configparser.ConfigParser(comment_prefixes=(";", "#"), interpolation=None)
    cfg.read_string(ext)
    unquote = lambda v: v.strip().strip('"')
    icons = [unquote(v) for v in cfg["icons"].values()] if cfg.has_section("icons") else []
    if not icons:
        problems.append("swarm.gdextension names no icons")
    required += [i.removeprefix("res://") for i in icons]
    libs = dict(cfg["libraries"]) if cfg.has_section("libraries") else {}
    for key in ("linux.release.x86_64", "windows.release.x86_64"):
        if key not in libs:
            problems.append(f"swarm.gdextension has no {key} library")
    lib_paths = sorted(set(unquote(v).removeprefix("res://") for v in libs.values()))
    required += lib_paths
    missing = sorted(set(required) - names)
    if missing:
        problems.append(f"missing from the zip: {missing}")
    version = re.search(r'^version="([^"]+)"', z.read(A + "plugin.cfg").decode(), re.M) if A + "plugin.cfg" in names else None
    zip_version = re.search(r"swarm-(.+)\.zip$", zip_path)
    if version and zip_version and version.group(1) != zip_version.group(1):
        problems.append(f"plugin.cfg says version {version.group(1)}, the zip {zip_version.group(1)}")
    entry = unquote(cfg["configuration"].get("entry_symbol", "")) if cfg.has_section("configuration") else ""
    if not entry:
        problems.append("swarm.gdextension has no entry_symbol")
    for p in lib_paths:
        if p in names and z.getinfo(p).file_size < 1 << 20:
            problems.append(f"{p} is suspiciously small ({z.getinfo(p).file_size} bytes)")
    with open(libs_out, "w") as f:
        f.write(f"entry {entry}\n")
        for k, v in sorted(libs.items()):
            f.write(f"{k} {unquote(v).removeprefix('res://')}\n")
    print(f"   {len(names)} files; {len(repo)} from the repository's addon, {len(icons)} icon entries, "
          f"{len(scripts)} gizmo/inspector scripts; libraries: {', '.join(lib_paths)}")
if problems:
    for p in problems:
        print("   PROBLEM: " + p)
    sys.exit(1)
PY
ENTRY=$(sed -n 's/^entry //p' "$SCRATCH/libs")
WIN_DLL=$(sed -n 's/^windows\.release\.x86_64 //p' "$SCRATCH/libs")
LINUX_SO=$(sed -n 's/^linux\.release\.x86_64 //p' "$SCRATCH/libs")

mkdir "$SCRATCH/root"
python3 -m zipfile -e "$ZIP" "$SCRATCH/root"

echo "== [2/4] $WIN_DLL exports $ENTRY"
x86_64-w64-mingw32-objdump -p "$SCRATCH/root/$WIN_DLL" >"$SCRATCH/dll.txt"
# The names of the export table follow the "[Ordinal/Name Pointer] Table" line, up to a blank line.
exports=$(sed -n '/^\[Ordinal\/Name Pointer\] Table/,/^$/p' "$SCRATCH/dll.txt")
if ! grep -qE "\] ${ENTRY}\$" <<<"$exports"; then
  echo "   PROBLEM: $ENTRY is not in the DLL's export table:"; echo "$exports"; exit 1
fi
grep -E "\] ${ENTRY}\$" <<<"$exports" | sed 's/^[[:space:]]*/   export: /'
imports=$(sed -n 's/^[[:space:]]*DLL Name: //p' "$SCRATCH/dll.txt" | tr '\n' ' ')
echo "   imports: $imports"
if grep -qiE 'libgcc|libwinpthread|libstdc\+\+' <<<"$imports"; then
  echo "   PROBLEM: the DLL needs a MinGW runtime DLL that is not in the zip"; exit 1
fi

echo "== [3/4] $LINUX_SO exports $ENTRY"
if ! nm -D --defined-only "$SCRATCH/root/$LINUX_SO" | grep -qE " T ${ENTRY}\$"; then
  echo "   PROBLEM: $ENTRY is not a dynamic symbol of $LINUX_SO"; exit 1
fi
echo "   ok"

echo "== [4/4] the zip's addon in the engine (tests/run_engine_tests.sh $FILTER, scratch root)"
mkdir -p "$SCRATCH/root/tools"
cp "$ROOT/tools/godot.sh" "$SCRATCH/root/tools/"
cp -a "$ROOT/tests" "$SCRATCH/root/tests"
rm -rf "$SCRATCH/root/tests/project/.godot"
link=$(readlink -f "$SCRATCH/root/tests/project/addons/swarm")
if [[ "$link" != "$(readlink -f "$SCRATCH/root/addons/swarm")" ]]; then
  echo "   PROBLEM: tests/project/addons/swarm leads to $link, not to the extracted addon"; exit 1
fi
GODOT=$("$ROOT/tools/godot.sh")
export GODOT
"$SCRATCH/root/tests/run_engine_tests.sh" "$FILTER"
echo "== package check passed: $(basename "$ZIP")"
