#!/bin/bash
# Runs fuzz targets from prebuilt binaries on a many-core machine without a Rust toolchain,
# keeping every core busy until a deadline (issue 18's runs on the 16-core device host).
#
# Each target is split into $UNITS units of $RUNS executions; a unit is one libFuzzer process
# (no -jobs/-workers fork mode), and the units of one target share that target's corpus folder,
# so what one unit finds seeds the units started after it. $(nproc) units run at a time, taken
# in the order of $TARGETS; a unit that would start after $DEADLINE_S seconds is skipped and
# counted as such, and running units are stopped at the deadline (their executions up to the
# last status line are counted). The defaults give 16 × 625 000 = 10 M executions per target.
#
# Folder layout (fuzz/README.md, "Running on another machine"):
#   bin/<target>      binaries built with `cargo fuzz build -O -a -s none`
#   lib/              libstdc++/libgcc_s from the build machine (used only when missing there)
#   corpus/<target>/  seed inputs (may be absent: the target starts empty)
# Output: $OUT/summary.txt (one line per target), $OUT/<target>/unit-<n>.log (the last 40 lines
# of each unit's log) and $OUT/<target>/artifacts/ (crash, timeout, leak and OOM inputs).
#
#   OUT=/tmp/out TARGETS="draw capi" UNITS=16 RUNS=625000 DEADLINE_S=540 bash device-run.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:?set OUT to the output folder}
TARGETS=${TARGETS:?set TARGETS to the targets to run, in priority order}
UNITS=${UNITS:-16}
RUNS=${RUNS:-625000}
DEADLINE_S=${DEADLINE_S:-540}
SLOTS=${SLOTS:-$(nproc)}
WORK=$(mktemp -d)
T0=$(date +%s)
{ echo "cores $(nproc), slots $SLOTS, units $UNITS x $RUNS runs, deadline ${DEADLINE_S}s"; uname -a; date -u; } > "$OUT/machine.txt"
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

skipped_total=0
for t in $TARGETS; do
  for u in $(seq 1 "$UNITS"); do
    while [ "$(jobs -rp | wc -l)" -ge "$SLOTS" ]; do wait -n; done
    now=$(( $(date +%s) - T0 ))
    left=$(( DEADLINE_S - now ))
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
  skipped=$(grep -c "^$t " "$WORK/skipped" 2>/dev/null || true)
  artifacts=$(ls "$OUT/$t/artifacts" | wc -l)
  files=$(ls "$WORK/$t/corpus" | wc -l)
  echo "$t execs=$execs units_run=$done_units units_skipped=${skipped:-0} units_failed=$bad artifacts=$artifacts seeds=$(cat "$WORK/$t/seeds") corpus_files=$files" | tee -a "$OUT/summary.txt"
done
echo "wall_s=$(( $(date +%s) - T0 ))" | tee -a "$OUT/summary.txt"
