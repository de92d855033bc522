#!/bin/bash
# Runs inlay's fuzz targets from prebuilt binaries on a many-core machine without a Rust
# toolchain or network, keeping every core busy until a deadline. `bash fuzz/fuzz.sh kit`
# builds the kit this script is part of (as run.sh) on the development machine.
#
# Each target is split into $UNITS units of $RUNS executions; a unit is one libFuzzer process
# (no fork mode), and the units of one target share its corpus folder, so what one unit finds
# seeds the units started after it. $SLOTS (default: every core) units run at a time. Units are
# started round-robin over the targets (unit 1 of every target, then unit 2 of every target,
# ...), so at the deadline every target has had its share; a unit that would start within 5 s
# of $DEADLINE_S is skipped and counted, and running units are stopped at the deadline (their
# executions up to their last status line are counted). The defaults give 16 × 625 000 = 10 M
# executions per target.
#
# Kit layout:
#   bin.tar.xz        bin/<target>, built with `cargo fuzz build -O -a -s none` (unpacked here)
#   targets           every target of fuzz/Cargo.toml when the kit was built
#   lib/              libstdc++/libgcc_s of the build machine (used only when missing here)
#   corpus/<target>/  seed inputs (may be absent: the target starts empty)
# Output ($OUT): summary.txt (one line per target: executions, units, findings, corpus files
# and bytes), machine.txt, <target>/unit-<n>.log (the last 40 lines of each unit's log) and
# <target>/artifacts/ (crash, timeout and out-of-memory inputs). The corpora stay on the
# machine ($WORK), which a later call may not have: they can be gigabytes.
#
#   OUT=/tmp/out bash run.sh                               every target, 10 M each, 520 s
#   OUT=/tmp/out TARGETS="draw capi" DEADLINE_S=300 bash run.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:?set OUT to the output folder}
UNITS=${UNITS:-16}
RUNS=${RUNS:-625000}
DEADLINE_S=${DEADLINE_S:-520}
SLOTS=${SLOTS:-$(nproc)}
WORK=${WORK:-$(mktemp -d)}
T0=$(date +%s)
mkdir -p "$OUT"
if [ -f "$HERE/bin.tar.xz" ] && [ ! -d "$HERE/bin" ]; then
  tar -C "$HERE" -xJf "$HERE/bin.tar.xz"
fi
TARGETS=${TARGETS:-$(cat "$HERE/targets" 2>/dev/null || ls "$HERE/bin")}
TARGETS=$(echo $TARGETS)
{
  echo "cores $(nproc), slots $SLOTS, units $UNITS x $RUNS runs, deadline ${DEADLINE_S}s"
  echo "kit commit $(cat "$HERE/commit" 2>/dev/null || echo unknown)"
  echo "targets $TARGETS"
  uname -a
  date -u
} > "$OUT/machine.txt"
first=${TARGETS%% *}
if ! "$HERE/bin/$first" -runs=0 "$(mktemp -d)" > /dev/null 2>&1; then
  export LD_LIBRARY_PATH="$HERE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  echo "using shipped lib/" >> "$OUT/machine.txt"
fi

# Executions of one finished or stopped unit: libFuzzer's final statistic, else the count of
# its last status line ("#12345 ...").
unit_execs() {
  local n
  n=$(grep -a 'stat::number_of_executed_units' "$1" | awk '{print $2}' | tail -n 1)
  if [ -z "$n" ]; then
    n=$(grep -aoE '^#[0-9]+' "$1" | tail -n 1 | tr -d '#')
  fi
  echo "${n:-0}"
}

for t in $TARGETS; do
  mkdir -p "$OUT/$t/artifacts" "$WORK/$t/corpus" "$WORK/$t/logs"
  [ -d "$HERE/corpus/$t" ] && cp -r "$HERE/corpus/$t/." "$WORK/$t/corpus/"
  ls "$WORK/$t/corpus" | wc -l > "$WORK/$t/seeds"
done

: > "$WORK/skipped"
for u in $(seq 1 "$UNITS"); do
  for t in $TARGETS; do
    while [ "$(jobs -rp | wc -l)" -ge "$SLOTS" ]; do wait -n; done
    left=$(( DEADLINE_S - ($(date +%s) - T0) ))
    if [ "$left" -le 5 ]; then
      echo "$t $u" >> "$WORK/skipped"
      continue
    fi
    (
      cd "$WORK/$t" || exit 1
      timeout -s INT "$left" "$HERE/bin/$t" "$WORK/$t/corpus" -runs="$RUNS" \
        -max_len=4096 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$OUT/$t/artifacts/" > "$WORK/$t/logs/unit-$u.log" 2>&1
      echo $? > "$WORK/$t/logs/unit-$u.rc"
    ) &
  done
done
wait

: > "$OUT/summary.txt"
for t in $TARGETS; do
  execs=0; done_units=0; bad=0
  for log in "$WORK/$t"/logs/unit-*.log; do
    [ -e "$log" ] || continue
    u=$(basename "$log" .log)
    e=$(unit_execs "$log")
    execs=$((execs + e))
    rc=$(cat "${log%.log}.rc" 2>/dev/null || echo "?")
    # 0: finished its runs; 124/130: stopped at the deadline; anything else is a finding.
    case "$rc" in 0) ;; 124|130) ;; *) bad=$((bad + 1)) ;; esac
    done_units=$((done_units + 1))
    tail -n 40 "$log" > "$OUT/$t/$u.log"
    echo "rc=$rc execs=$e" >> "$OUT/$t/$u.log"
  done
  skipped=$(grep -c "^$t " "$WORK/skipped" || true)
  artifacts=$(ls "$OUT/$t/artifacts" | wc -l)
  files=$(ls "$WORK/$t/corpus" | wc -l)
  bytes=$(du -sb "$WORK/$t/corpus" | cut -f1)
  printf '%-24s execs=%-10s units_run=%-3s units_skipped=%-3s units_failed=%-3s artifacts=%-3s seeds=%-4s corpus_files=%-7s corpus_bytes=%s\n' \
    "$t" "$execs" "$done_units" "${skipped:-0}" "$bad" "$artifacts" "$(cat "$WORK/$t/seeds")" \
    "$files" "$bytes" | tee -a "$OUT/summary.txt"
done
echo "wall_s=$(( $(date +%s) - T0 ))" | tee -a "$OUT/summary.txt"
