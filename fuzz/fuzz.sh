#!/usr/bin/env bash
# inlay's fuzzing, with the one stable Rust toolchain of the machine (fuzz/README.md).
#
#   bash fuzz/fuzz.sh smoke [SECONDS]     build every target, run each SECONDS (default 10)
#   bash fuzz/fuzz.sh run TARGET [ARGS]   run one target (libFuzzer ARGS, e.g. -max_total_time=60)
#   bash fuzz/fuzz.sh list                the targets (every [[bin]] of fuzz/Cargo.toml)
#   bash fuzz/fuzz.sh kit [DIR]           the device kit: prebuilt `-s none` binaries of every
#                                         target, seeds and the runner (default target/fuzz-kit)
#
# What it needs it installs once from the crate registry: cargo-fuzz (pinned, --locked) into
# target/ci-tools/cargo-fuzz. cargo-fuzz passes nightly-only flags (-Zsanitizer, sancov);
# RUSTC_BOOTSTRAP=1 lets the stable compiler take them. Builds are kept in target/fuzz
# (address sanitizer + debug assertions, for smoke and run) and target/fuzz-none (no
# sanitizer, for the kit), so reruns only rebuild what changed. Seeds are made from the
# repository's test data and conformance cases and from ../shared (INLAY_SHARED) when present,
# into target/fuzz-corpus/<target> (never committed). Environment: FUZZ_SANITIZER (address or
# none, default address), INLAY_SHARED.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FUZZ="$ROOT/fuzz"
TOOLS="$ROOT/target/ci-tools/cargo-fuzz"
CARGO_FUZZ_VERSION=0.13.2
SHARED="${INLAY_SHARED:-$ROOT/../shared}"
export RUSTC_BOOTSTRAP=1
export CARGO_TERM_COLOR=never

cargo_fuzz() {
  if ! "$TOOLS/bin/cargo-fuzz" --version 2>/dev/null | grep -q "$CARGO_FUZZ_VERSION"; then
    echo "== installing cargo-fuzz $CARGO_FUZZ_VERSION into $TOOLS" >&2
    cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked --root "$TOOLS" >&2
  fi
  (cd "$FUZZ" && "$TOOLS/bin/cargo-fuzz" "$@")
}

# Every target of fuzz/Cargo.toml (cargo fuzz list reads its [[bin]] sections).
targets() { cargo_fuzz list; }

# Seeds per target: small real inputs of each kind (copies; nothing here is committed).
seeds() {
  local dir=$1 t
  local data="$ROOT/crates/inlay-cli/tests/data"
  rm -rf "$dir"
  for t in $(targets); do mkdir -p "$dir/$t"; done
  put() { # put TARGET FILES...: the files of at most 64 KiB
    local t=$1 f
    shift
    [ -d "$dir/$t" ] || return 0
    for f in "$@"; do
      [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 65536 ] && cp "$f" "$dir/$t/$(basename "$f" | tr ' ' _)"
    done
    return 0
  }
  put layout_c "$data"/*.h
  put layout_source_bytes "$data"/*.h "$data"/*.cs "$data"/*.rs
  put layout_csharp "$data"/*.cs
  put layout_rust "$data"/*.rs
  put layout_json "$data"/*.json
  put layout_toml "$data"/*.toml
  put conform_case "$ROOT"/conformance/*.json
  put capture_text "$data"/*.csv
  # layout_sources: the first byte picks the file name (its index in the target's NAMES).
  if [ -d "$dir/layout_sources" ]; then
    local f k
    for f in "$data"/*.h "$data"/*.json "$data"/*.toml "$data"/*.cs "$data"/*.rs "$data"/*.fmt \
      "$data"/*vb*.txt; do
      [ -f "$f" ] && [ "$(stat -c %s "$f")" -le 65536 ] || continue
      case "$f" in
        *.fmt) k=1 ;; *.txt) k=2 ;; *.json) k=3 ;; *.toml) k=4 ;; *.h) k=5 ;; *.cs) k=6 ;;
        *.rs) k=7 ;; *) k=0 ;;
      esac
      # Under its own name (byte k), and as standard input (byte 0: `-`).
      { printf "\\$(printf %o "$k")"; cat "$f"; } > "$dir/layout_sources/$(basename "$f" | tr ' ' _)"
      { printf '\000'; cat "$f"; } > "$dir/layout_sources/stdin-$(basename "$f" | tr ' ' _)"
    done
  fi
  if [ -d "$SHARED" ]; then
    local files
    put conform_case "$SHARED"/conformance/examples/*.json
    mapfile -t files < <(find "$SHARED/corpus/dxbc" -type f -name '*.dxbc' 2>/dev/null | sort | head -n 40)
    put dxbc_reader "${files[@]}"
    mapfile -t files < <(find "$SHARED/dumps" -type f \( -name '*.txt' -o -name '*.fmt' \
      -o -name '*.csv' \) -size -5k 2>/dev/null | sort | head -n 40)
    put capture_text "${files[@]}"
  fi
  # A glTF written by inlay itself, when the command line is built.
  local inlay="$ROOT/target/release/inlay" tmp
  if [ -x "$inlay" ] && [ -d "$dir/gltf_import" ]; then
    tmp=$(mktemp -d)
    (cd "$data" && "$inlay" export seed.h --vb 0=seed.vb --draw draw,count=3 \
      --output "$tmp/seed.glb" > /dev/null 2>&1) && cp "$tmp/seed.glb" "$dir/gltf_import/" || true
    rm -rf "$tmp"
  fi
}

cmd=${1:-smoke}
shift || true
case "$cmd" in
  list)
    targets
    ;;
  run)
    t=${1:?name a target (bash fuzz/fuzz.sh list)}
    shift
    [ -d "$ROOT/target/fuzz-corpus/$t" ] || seeds "$ROOT/target/fuzz-corpus"
    cargo_fuzz run -O -a -s "${FUZZ_SANITIZER:-address}" --target-dir "$ROOT/target/fuzz" \
      "$t" "$ROOT/target/fuzz-corpus/$t" -- -max_len=4096 -rss_limit_mb=2048 -timeout=10 "$@"
    ;;
  smoke)
    secs=${1:-10}
    all=$(targets)
    echo "== fuzz smoke: $(echo "$all" | wc -w) targets, ${secs} s each"
    cargo_fuzz build -O -a -s "${FUZZ_SANITIZER:-address}" --target-dir "$ROOT/target/fuzz"
    seeds "$ROOT/target/fuzz-corpus"
    bin="$ROOT/target/fuzz/x86_64-unknown-linux-gnu/release"
    art="$ROOT/target/fuzz-artifacts"
    rm -rf "$art"
    failed=0
    passed=0
    for t in $all; do
      mkdir -p "$art/$t"
      log="$art/$t.log"
      if "$bin/$t" "$ROOT/target/fuzz-corpus/$t" -max_total_time="$secs" -max_len=4096 \
        -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$art/$t/" > "$log" 2>&1; then
        passed=$((passed + 1))
        execs=$(grep -a 'stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -n 1)
        echo "fuzz smoke $t: ok, ${execs:-?} executions"
      else
        failed=$((failed + 1))
        echo "fuzz smoke $t: FAILED (log: $log; inputs: $art/$t/)"
        tail -n 30 "$log"
      fi
    done
    echo "fuzz: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    ;;
  kit)
    kit=${1:-$ROOT/target/fuzz-kit}
    all=$(targets)
    cargo_fuzz build -O -a -s none --target-dir "$ROOT/target/fuzz-none"
    rm -rf "$kit"
    mkdir -p "$kit/bin" "$kit/lib"
    bin="$ROOT/target/fuzz-none/x86_64-unknown-linux-gnu/release"
    for t in $all; do
      strip --strip-debug -o "$kit/bin/$t" "$bin/$t"
    done
    # xz shrinks the binaries about fourfold: the kit travels within 64 MiB.
    tar -C "$kit" -cJf "$kit/bin.tar.xz" bin
    rm -rf "$kit/bin"
    cp "$(g++ -print-file-name=libstdc++.so.6)" "$(gcc -print-file-name=libgcc_s.so.1)" "$kit/lib/"
    seeds "$kit/corpus"
    cp "$FUZZ/scripts/device-run.sh" "$kit/run.sh"
    (cd "$ROOT" && git rev-parse HEAD 2>/dev/null || echo unknown) > "$kit/commit"
    echo "$all" > "$kit/targets"
    du -sh "$kit"
    size=$(du -sb "$kit" | cut -f1)
    if [ "$size" -gt $((64 << 20)) ]; then
      echo "the kit is $size bytes, more than the 64 MiB a device call carries" >&2
      exit 1
    fi
    ;;
  *)
    echo "usage: bash fuzz/fuzz.sh smoke [SECONDS] | run TARGET [ARGS] | list | kit [DIR]" >&2
    exit 2
    ;;
esac
