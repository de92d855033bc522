#!/bin/bash
# Runs every fuzz target from prebuilt binaries (no Rust toolchain needed), each with
# -jobs=$JOBS -workers=$JOBS and at most $RUNS executions per job or $T seconds per job,
# and writes per-target logs, statistics, crash artifacts and the final corpus to $OUT.
# Layout of this folder (see fuzz/README.md, "Running on another machine"):
#   bin/<target>      binaries built with `cargo fuzz build -O -a -s none`
#   lib/              libstdc++/libgcc_s from the build machine (used when missing there)
#   corpus/<target>/  seed inputs
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:?set OUT to the output folder}
JOBS=${JOBS:-$(nproc)}
RUNS=${RUNS:-700000}
WORK=$(mktemp -d)
{ echo "cores $(nproc)"; uname -a; date -u; } > "$OUT/machine.txt"
# The machine's own C++ runtime when it has one, else the copy shipped alongside.
if ! "$HERE/bin/dxbc_reader" -runs=0 "$(mktemp -d)" > /dev/null 2>&1; then
  export LD_LIBRARY_PATH="$HERE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "using shipped lib/" >> "$OUT/machine.txt"
fi
# target and seconds per job
PLAN=${PLAN:-"dxbc_reader:35 signature_roundtrip:35 create_input_layout:35 draw:60 layout_c:50 layout_json:40 layout_toml:50 conform_case:50"}
for spec in $PLAN; do
  t=${spec%%:*}; secs=${spec##*:}
  mkdir -p "$OUT/$t/artifacts" "$WORK/$t/corpus"
  cp -r "$HERE/corpus/$t/." "$WORK/$t/corpus/" 2>/dev/null
  seeds=$(ls "$WORK/$t/corpus" | wc -l)
  start=$(date +%s)
  (cd "$OUT/$t" && timeout $((secs + 30)) "$HERE/bin/$t" "$WORK/$t/corpus" \
      -jobs="$JOBS" -workers="$JOBS" -runs="$RUNS" -max_total_time="$secs" \
      -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
      -artifact_prefix="$OUT/$t/artifacts/" > "$OUT/$t/main.log" 2>&1)
  rc=$?
  end=$(date +%s)
  execs=$(cat "$OUT/$t"/fuzz-*.log 2>/dev/null | grep -a 'stat::number_of_executed_units' | awk '{s+=$2} END {print s+0}')
  files=$(ls "$WORK/$t/corpus" | wc -l)
  bytes=$(du -sb "$WORK/$t/corpus" | cut -f1)
  crashes=$(ls "$OUT/$t/artifacts" | wc -l)
  echo "$t rc=$rc wall_s=$((end - start)) jobs=$JOBS execs=$execs seeds=$seeds corpus_files=$files corpus_bytes=$bytes artifacts=$crashes" | tee -a "$OUT/summary.txt"
  tar -czf "$OUT/$t/corpus.tar.gz" -C "$WORK/$t" corpus
done
