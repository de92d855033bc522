#!/usr/bin/env bash
# Every measurement the open issues need from the 16-core H200 host, prepared here and run there
# in as few device calls as the 600 s per call allows (device time is scarce: 30 min a session).
#
#   .ci/device-round.sh prepare [BEFORE_REV [AFTER_REV]]
#       Here (where cargo and the crates are): the fuzz kit (`bash fuzz/fuzz.sh kit`), the GPU
#       harness (`crates/inlay-gpu/h200.sh prepare`) and the before/after `inlay` builds of
#       `.ci/bench-ab.sh build` (default: 3425f45, the commit before issue 30's SIMD refactor,
#       against HEAD). Prints the carry list and its size (a call carries at most 64 MiB).
#   .ci/device-round.sh run [PART...]
#       There, with the carry list of `prepare`: the parts in order, each logged with its wall
#       time into $OUT/round.txt and its own output under $OUT/PART/. Parts:
#         gpu    the GPU harness, three bit-exact runs (every row must show 0 differences)
#         ab     bench-ab: `run 5 -- --threads 1`, `run 5 -- --threads 16`, `elements 5`
#         frame  `inlay bench --frame` (2 GB, 5 000 draws, all cores) with the AFTER build
#         fuzz   the fuzz kit until the call's budget ends (TARGETS= for some targets)
#       Default: gpu ab frame (about 7 minutes); `fuzz` alone fills a second and third call.
#       BUDGET_S (default 570) is the call's time; fuzz gets what the parts before it left.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
carry=(.gl target/gpu/release/inlay-gpu target/bench-ab/bin target/fuzz-kit)

case "${1:-}" in
prepare)
    before=${2:-3425f45}
    after=${3:-HEAD}
    set -e
    bash fuzz/fuzz.sh kit
    sh crates/inlay-gpu/h200.sh prepare
    .ci/bench-ab.sh build "$before" "$after"
    echo "carry: [$(printf '"%s",' "${carry[@]}" | sed 's/,$//')]"
    du -shc "${carry[@]}" | tail -n 1
    ;;
run)
    shift
    parts=("$@")
    [ ${#parts[@]} -eq 0 ] && parts=(gpu ab frame)
    out=${OUT:-target/device-round}
    budget=${BUDGET_S:-570}
    t0=$(date +%s)
    mkdir -p "$out"
    {
        echo "device-round $(date -u +%FT%TZ) parts: ${parts[*]}"
        nproc
        grep -m1 'model name' /proc/cpuinfo
    } >> "$out/round.txt"
    for p in "${parts[@]}"; do
        s=$(date +%s)
        mkdir -p "$out/$p"
        case "$p" in
        gpu)
            OUT="$out/$p" sh crates/inlay-gpu/h200.sh run > "$out/$p/log.txt" 2>&1
            ;;
        ab)
            {
                OUT="$out/$p/t1" .ci/bench-ab.sh run 5 -- --threads 1
                OUT="$out/$p/t16" .ci/bench-ab.sh run 5 -- --threads 16
                OUT="$out/$p/elements" .ci/bench-ab.sh elements 5
            } > "$out/$p/log.txt" 2>&1
            ;;
        frame)
            target/bench-ab/bin/after bench --frame /tmp/inlay-frame-bench \
                > "$out/$p/log.txt" 2>&1
            r=$?
            rm -rf /tmp/inlay-frame-bench
            (exit $r)
            ;;
        fuzz)
            left=$((budget - ($(date +%s) - t0) - 15))
            if [ "$left" -lt 60 ]; then
                echo "fuzz: skipped, ${left}s left" > "$out/$p/log.txt"
            else
                OUT="$out/$p" DEADLINE_S=$left bash target/fuzz-kit/run.sh \
                    > "$out/$p/log.txt" 2>&1
            fi
            ;;
        *)
            echo "unknown part $p" > "$out/$p/log.txt"
            ;;
        esac
        echo "$p: rc=$? wall=$(($(date +%s) - s))s" >> "$out/round.txt"
        tail -n 25 "$out/$p/log.txt"
        [ -f "$out/$p/summary.txt" ] && cat "$out/$p/summary.txt"
    done
    cat "$out/round.txt"
    ;;
*)
    sed -n '2,21p' "$0" >&2
    exit 2
    ;;
esac
