#!/usr/bin/env bash
# Fuzzes the core with cargo-fuzz (libFuzzer) on a nightly toolchain, installing what is missing.
#
#   tools/fuzz.sh [decode|load_step|ops] [seconds] [extra libFuzzer flags...]
#
# decode: the save decoder (World::load's bytes), seeded with real saves from
#         `cargo run --example save_seed`; load_step: the same, and whatever loads is stepped;
#         ops: random operation sequences on the public core API
#         with invariants checked after each. Default: decode for 600 s, one process, 2 GiB RSS
#         limit, 10 s per-input timeout (a slower input counts as a hang). Crashing inputs land in
#         fuzz/artifacts/<target>/; turn each into a regression test. The closing lines of
#         libFuzzer's output (executions, peak RSS) go into docs/RELIABILITY.md.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TARGET=${1:-decode}
SECONDS_TO_RUN=${2:-600}
shift $(( $# > 2 ? 2 : $# ))

rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
cargo +nightly fuzz --version >/dev/null 2>&1 || cargo +stable install cargo-fuzz --locked

CORPUS="$ROOT/fuzz/corpus/$TARGET"
mkdir -p "$CORPUS"
if [[ "$TARGET" != ops && ! -e "$CORPUS/payload.bin" ]]; then
  (cd "$ROOT" && cargo run --release -q -p swarm_core --example save_seed -- "$CORPUS")
fi
cd "$ROOT/fuzz"
exec cargo +nightly fuzz run --release "$TARGET" "$CORPUS" -- \
  -max_total_time="$SECONDS_TO_RUN" -rss_limit_mb=2048 -timeout=10 -max_len=65536 -print_final_stats=1 "$@"
